//! # skirmish-sim
//!
//! Battles and Monte Carlo sweeps on the rules of `skirmish-core`: what a
//! designer balancing a game runs thousands of times.
//!
//! - [`scenario`]: who fights whom under which rules, as TOML or JSON
//!   ([`scenario::Scenario`]); the goblin ambush of the texts, the peer
//!   parity battle and mass presets are built in ([`scenario::BUILTIN`]).
//! - [`battle`]: the engine. Any timing system x Full Contact or FUDGE
//!   opposed striking x the FUDGE wound track or hit points; simultaneous
//!   moments, disruptible actions, wound penalties, rate of fire, FUDGE
//!   multi-foe penalties and reach, three targeting policies; a win, a draw
//!   or a timeout ([`battle::Battle`], [`report::BattleReport`]).
//! - [`sweep`]: a grid over any scenario field x battles per cell x master
//!   seed, in parallel; Wilson intervals, CSV/JSON with a stable schema,
//!   columnar arrays, progress, cancellation, checkpoint and resume
//!   ([`sweep::sweep`], [`sweep::SweepTable`]); [`stats`] holds the
//!   statistics.
//! - [`odds`]: "who is likely to win from here?" for a live tracker
//!   `Encounter`: the rest of its battle solved exactly when the exact
//!   engine models it, else fought many times ([`odds::odds_from_here`]); and an encounter started from a scenario
//!   ([`odds::encounter_from_scenario`]).
//! - [`balance`]: where a side's win rate crosses a target (an even
//!   fight) as one field varies, by bisection on common random numbers,
//!   adding battles until the values that bracket the crossing are told
//!   apart at 95% ([`balance::balance`]).
//! - [`exact`]: a small fight's outcomes exactly, with no sampling: each
//!   side's chance to win, a draw's and never ending's, as fractions
//!   ([`exact::solve`]).
//!
//! # How the crate is laid out
//!
//! A battle can be fought three ways, with the same results, dice and dice
//! order (tests compare them battle by battle):
//!
//! - **the general loop** (`battle/fight.rs`): any scenario, with a trace,
//!   casualties over time and any number of sides; its clock is a lean
//!   clock or the core Scheduler;
//! - **the lean clocks** (`clock/`): which fighters act next, on flat
//!   arrays, one per timing system, held to the core `Scheduler` step for
//!   step; the core Scheduler itself (`clock/scheduler.rs`) runs what none
//!   of them takes (Graduated Rounds' other past-the-end policies, extra
//!   preparation, GM timing) and a tracker's continuation
//!   (`clock/lines.rs`);
//! - **the fast paths** (`fast/`): the common battle (two sides, either
//!   striking system, no trace) on 12-byte fighter records and
//!   precomputed tables: Continuous with its clock fused into the loop,
//!   every other system fed by a lean clock, the ranked targeting
//!   policies, FUDGE opposed striking.
//!
//! [`Battle`] chooses: a battle takes a fast path whenever it qualifies
//! ([`Battle::has_fast_path`]), a lean clock whenever one runs its system
//! and declarations, and the Scheduler otherwise. Every rule they apply is
//! a `skirmish-core` function (initiative, Ready Time, actions a round,
//! the strike roll, damage): the paths differ in *when* they call a rule,
//! never in *what* it computes.
//!
//! The modules depend on each other in one direction, lowest first (a test,
//! `tests/it/structure.rs`, fails on a dependency that goes up or across):
//!
//! | layer | modules | for |
//! | --- | --- | --- |
//! | leaves | `error`, [`report`], [`stats`], [`scenario`] | errors, what a battle reports, intervals, scenario files |
//! | primitives | `control`, `ranking`, `ring`, `roster` | how a battle is watched and resumed; the targeting index; the per-tick ring of pending actions; per-fighter arrays |
//! | rules of a moment | `lone` | FUDGE 4.34's beset fighters: one roll against all, blows decided at once |
//! | clocks | `clock` | which fighters act next |
//! | fast paths | `fast` | the common battle on compact records |
//! | the battle | [`battle`] | the general loop, and which path a battle takes |
//! | many battles, or none | [`sweep`], [`exact`] | grids of battles; small fights solved exactly, as a Markov chain |
//! | exact, else sampled | [`odds`], [`balance`] | odds from a tracker's encounter; where a side's win rate crosses a target as one field varies |
//!
//! # Determinism
//!
//! Battle `i` of master seed `s` draws from its own stream,
//! `SeededRolls::for_stream(s, i)`, whatever thread runs it: a sweep gives
//! the same bytes on any number of threads, and every cell of a sweep sees
//! the same random numbers for the same battle (common random numbers), so
//! differences between cells are the rules, not noise.
//!
//! # Example
//!
//! ```
//! use skirmish_sim::battle::{Battle, RunOptions};
//! use skirmish_sim::report::Outcome;
//! use skirmish_sim::scenario::Scenario;
//! use skirmish_sim::sweep::{sweep, Axis, SweepOptions, SweepSpec};
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! // One battle of the goblin ambush, with its tick sheet.
//! let ambush = Scenario::builtin("goblin-ambush")?;
//! let report = Battle::new(&ambush)?.run(1, 0, &RunOptions::FULL)?;
//! assert!(matches!(report.summary.outcome, Outcome::Win { .. } | Outcome::Draw | Outcome::Timeout));
//! assert!(report.trace.is_some_and(|t| !t.is_empty()));
//!
//! // Does the Tick System favour the goblinoids more than Continuous timing?
//! let spec = SweepSpec {
//!     scenario: ambush,
//!     axes: vec![Axis::new("timing", ["continuous", "tick-system"])],
//!     battles: 200,
//!     seed: 7,
//! };
//! let table = sweep(&spec, &SweepOptions::default())?;
//! for cell in table.cells() {
//!     let (low, high) = cell.stats.win_interval(1);
//!     println!("{}: goblinoids win {:.1}% [{:.1}, {:.1}]", cell.values[0],
//!         100.0 * cell.stats.win_rate(1), 100.0 * low, 100.0 * high);
//! }
//! assert!(table.to_csv().starts_with("timing,battles,win_rate_party,"));
//! # Ok(())
//! # }
//! ```

#![deny(missing_docs)]

pub mod balance;
pub mod battle;
mod clock;
mod control;
pub mod error;
pub mod exact;
mod fast;
mod lone;
pub mod odds;
mod ranking;
pub mod report;
mod ring;
mod roster;
pub mod scenario;
pub mod stats;
pub mod sweep;

pub use battle::{Battle, RunOptions, run_battle};
pub use error::SimError;
