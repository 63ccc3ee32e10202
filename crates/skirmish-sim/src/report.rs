//! What a battle reports.

use serde::{Deserialize, Serialize};
use skirmish_core::morale::BreakOutcome;

/// How a battle ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum Outcome {
    /// One side is left in the battle: every other was wiped out or broke
    /// (retreated or surrendered: [`BattleSummary::breaks`]).
    Win {
        /// Index of the winning side in the scenario.
        side: usize,
    },
    /// No side is left: the last sides were wiped out at the same moment,
    /// or every side still in broke at the same moment (no winner; the
    /// breaks are in [`BattleSummary::breaks`]).
    Draw,
    /// The battle hit a limit (ticks, rounds or actions) with two or more
    /// sides standing: never counted as a win.
    Timeout,
}

/// Which sides broke off a battle, and how (morale, docs/rules.md §5):
/// bit `i` of a mask is side `i` (morale is played on the first 64 sides).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Breaks {
    /// Sides that retreated.
    pub retreated: u64,
    /// Sides that surrendered.
    pub surrendered: u64,
}

impl Breaks {
    /// No side broke.
    pub const NONE: Breaks = Breaks {
        retreated: 0,
        surrendered: 0,
    };

    /// Whether no side broke.
    pub const fn is_none(&self) -> bool {
        self.retreated == 0 && self.surrendered == 0
    }

    /// How side `side` broke, if it did.
    pub const fn of(&self, side: usize) -> Option<BreakOutcome> {
        if side >= 64 {
            None
        } else if self.retreated >> side & 1 == 1 {
            Some(BreakOutcome::Retreat)
        } else if self.surrendered >> side & 1 == 1 {
            Some(BreakOutcome::Surrender)
        } else {
            None
        }
    }

    /// Records that side `side` (below 64) broke with `outcome`.
    pub fn record(&mut self, side: usize, outcome: BreakOutcome) {
        if side < 64 {
            match outcome {
                BreakOutcome::Retreat => self.retreated |= 1 << side,
                BreakOutcome::Surrender => self.surrendered |= 1 << side,
            }
        }
    }
}

/// The numbers of one battle, without the timeline: what a sweep keeps.
///
/// Its `Debug` form leaves `breaks` out when no side broke, so the form
/// (and the digests pinned from it) of a battle without morale is what it
/// was before morale was played; likewise its JSON.
#[derive(Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
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
    /// The sides that broke (morale), and how: none in a battle without
    /// morale.
    #[serde(default, skip_serializing_if = "Breaks::is_none")]
    pub breaks: Breaks,
}

impl std::fmt::Debug for BattleSummary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut d = f.debug_struct("BattleSummary");
        d.field("outcome", &self.outcome)
            .field("ticks", &self.ticks)
            .field("rounds", &self.rounds)
            .field("actions", &self.actions)
            .field("hits", &self.hits)
            .field("amazing_strikes", &self.amazing_strikes)
            .field("amazing_defenses", &self.amazing_defenses)
            .field("disruptions", &self.disruptions);
        if !self.breaks.is_none() {
            d.field("breaks", &self.breaks);
        }
        d.finish()
    }
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
            breaks: Breaks::NONE,
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
    /// Fighters standing per side at the end; for a side that broke, the
    /// fighters who left the battle standing (retreated or surrendered).
    pub standing: Vec<u64>,
    /// Casualties over time: one entry per tick at which someone fell.
    pub casualties: Vec<Casualties>,
    /// The trace, if asked for.
    pub trace: Option<Vec<TraceLine>>,
}

impl BattleReport {
    /// How side `side` broke off the battle, if it did (morale).
    pub fn broke(&self, side: usize) -> Option<BreakOutcome> {
        self.summary.breaks.of(side)
    }

    /// The winner's name, if one side won.
    pub fn winner(&self) -> Option<&str> {
        match self.summary.outcome {
            Outcome::Win { side } => self.sides.get(side).map(String::as_str),
            _ => None,
        }
    }
}
