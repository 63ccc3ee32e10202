//! Integration tests of skirmish-sim: one binary, one module per part.
#![allow(clippy::unwrap_used, reason = "tests")]

mod battle;
mod checkpoint;
mod control;
mod digest;
mod limits;
mod lone;
mod odds;
mod outputs;
mod penalties;
mod reach;
mod rules;
mod scenario;
mod scenario_bounds;
mod stats;
mod structure;
mod sweep;
mod sweep_panics;
mod sweep_threads;
mod systems;
mod targeting;
mod tick_policies;
mod trace_text;
mod tracker_parity;
