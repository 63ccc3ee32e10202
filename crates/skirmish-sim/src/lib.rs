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
//!   `Encounter`: the rest of its battle fought many times
//!   ([`odds::odds_from_here`]); and an encounter started from a scenario
//!   ([`odds::encounter_from_scenario`]).
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

pub mod battle;
mod clock;
pub mod error;
mod fast;
pub mod odds;
mod ranking;
pub mod report;
pub mod scenario;
pub mod stats;
pub mod sweep;

pub use battle::{Battle, RunOptions, run_battle};
pub use error::SimError;
