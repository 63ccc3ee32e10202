//! What a battle reports.

use serde::{Deserialize, Serialize};

/// How a battle ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum Outcome {
    /// One side is left standing.
    Win {
        /// Index of the winning side in the scenario.
        side: usize,
    },
    /// Every side was wiped out at the same tick.
    Draw,
    /// The battle hit a limit (ticks, rounds or actions) with two or more
    /// sides standing: never counted as a win.
    Timeout,
}

/// The numbers of one battle, without the timeline: what a sweep keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct BattleSummary {
    /// How it ended.
    pub outcome: Outcome,
    /// Absolute ticks elapsed (the tick of the last moment).
    pub ticks: u64,
    /// Rounds (phases, exchanges; Continuous: stopwatch laps) begun.
    pub rounds: u32,
    /// Actions that landed (attacks resolved).
    pub actions: u64,
    /// Attacks that hit.
    pub hits: u64,
    /// Amazing strikes (Full Contact, when switched on).
    pub amazing_strikes: u64,
    /// Amazing defenses (Full Contact, when switched on).
    pub amazing_defenses: u64,
    /// Disruptible actions lost because their actor was hit first.
    pub disruptions: u64,
}

impl BattleSummary {
    /// Nothing has happened yet: no ticks, no actions, and (until a side
    /// wins or all fall) a timeout.
    pub const fn start() -> BattleSummary {
        BattleSummary {
            outcome: Outcome::Timeout,
            ticks: 0,
            rounds: 0,
            actions: 0,
            hits: 0,
            amazing_strikes: 0,
            amazing_defenses: 0,
            disruptions: 0,
        }
    }
}

/// Fighters standing on each side after a tick at which someone fell.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Casualties {
    /// The tick.
    pub tick: u64,
    /// Fighters standing, per side (scenario order).
    pub standing: Vec<u64>,
}

/// One line of a battle's trace (only kept when asked for).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TraceLine {
    /// Absolute tick.
    pub tick: u64,
    /// Round (phase, exchange; Continuous: stopwatch lap).
    pub round: u32,
    /// The tick as the timing system names it: Simple Rounds' initiative,
    /// Graduated Rounds' tick of the round, Continuous' absolute tick, the
    /// Tick System's countdown, Action Blocks' block, the exchange.
    pub display: i64,
    /// Simple Rounds: the pass (1 = everyone's first action); Graduated
    /// Rounds acting after the end of the round: the end pass; Action
    /// Blocks: the block; otherwise 0 (as the core's `Moment::pass`).
    /// Absent in JSON written before it was added: 0.
    #[serde(default)]
    pub pass: u32,
    /// What happened, in words.
    pub text: String,
}

/// Everything a battle reports.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BattleReport {
    /// The numbers.
    pub summary: BattleSummary,
    /// Side names, in scenario order.
    pub sides: Vec<String>,
    /// Fighters per side at the start.
    pub fielded: Vec<u64>,
    /// Fighters standing per side at the end.
    pub standing: Vec<u64>,
    /// Casualties over time: one entry per tick at which someone fell.
    pub casualties: Vec<Casualties>,
    /// The trace, if asked for.
    pub trace: Option<Vec<TraceLine>>,
}

impl BattleReport {
    /// The winner's name, if one side won.
    pub fn winner(&self) -> Option<&str> {
        match self.summary.outcome {
            Outcome::Win { side } => self.sides.get(side).map(String::as_str),
            _ => None,
        }
    }
}
