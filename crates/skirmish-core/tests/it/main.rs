//! Integration tests of skirmish-core: one binary, one module per part.
#![allow(clippy::unwrap_used, reason = "tests")]

mod analysis;
mod damage;
mod dice;
mod full_contact;
mod fuzz_regressions;
mod opposed;
mod queue;
mod scheduler_bounds;
mod scheduler_memory;
mod snapshot_golden;
mod timing;
mod tracker;
mod tracker_amazing;
mod tracker_fudge;
mod tracker_props;
mod tracker_restore;
mod tracker_scouting;
mod tracker_strikes;
mod tracker_tick;
mod weapons;
