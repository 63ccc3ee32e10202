//! Integration tests of skirmish-sim: one binary, one module per part.
#![allow(clippy::unwrap_used, reason = "tests")]

mod acquire;
mod amazing;
mod balance;
mod balance_exact;
mod battle;
mod checkpoint;
mod control;
mod digest;
mod distance;
mod durations;
mod exact;
mod exact_from_here;
mod exact_fudge;
mod exact_ready;
mod exact_rounds;
mod limits;
mod lone;
mod morale;
mod odds;
mod outputs;
mod parry;
mod penalties;
mod ranged;
mod reach;
mod rules;
mod scenario;
mod scenario_bounds;
mod scouting;
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

use skirmish_sim::report::BattleReport;

/// A report without its trace's damage results ("Goblin #1 takes damage
/// 3: Hurt; now Hurt"), for the digests pinned before the trace showed
/// what the damage model made of each hit: those lines report the model's
/// result and change nothing in the battle, so with them taken out the
/// digests stay the ones pinned.
pub(crate) fn without_damage_results(mut report: BattleReport) -> BattleReport {
    if let Some(trace) = report.trace.as_mut() {
        trace.retain(|line| !line.text.contains(" takes damage "));
    }
    report
}
