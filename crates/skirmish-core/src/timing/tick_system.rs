//! The Tick System ("The Tick System"; docs/rules.md §1.5).
//!
//! - Everyone rolls initiative (default 1d20, configurable) + bonus; the
//!   highest total acts first and **sets the round length** in ticks; the
//!   counter counts **down**. Initiative is rolled again when the counter
//!   passes 0.
//! - A turn's action takes its ticks (default 2), then the actor waits its
//!   **Interval**: next turn = current tick - (action ticks + interval).
//!   "If you take an action on Tick 20 that takes two ticks, you are done on
//!   tick 18 ... If your Interval is 6 ... your next turn is on tick 12."
//!   The action's effect lands when it is done.
//! - **Free actions** (defending, about 2 ticks) also take time; a free
//!   action that runs into the next turn pushes that turn to the tick right
//!   after it ends ([`Scheduler::free_action`](super::Scheduler::free_action)).
//!   Defending during an action in progress cancels it.
//! - An interrupted turn's spent ticks are lost and the actor still waits
//!   its interval; interrupted non-combat actions need a Resist
//!   Concentration Loss roll
//!   ([`Scheduler::interrupt`](super::Scheduler::interrupt)).
//! - **Acquire**: the first ranged attack on a new target takes +2 ticks.
//! - **Prepare**: +4 to defensive rolls until the actor attacks; the first
//!   defense while prepared costs no free action; the turn may be taken
//!   later, at leisure ([`Scheduler::take_held_turn`](super::Scheduler::take_held_turn)).
//!
//! # Decisions where the text is silent
//!
//! - An initiative total below 1 acts on tick 1; a round is at least 1 tick.
//! - An action started before the counter passes 0 still finishes: its
//!   completion may carry a countdown tick of 0 or below. No new turn
//!   starts below tick 1.
//! - "The tick immediately after" a free action is the tick it is done on,
//!   as "an action on tick 20 that takes two ticks is done on tick 18".

use serde::{Deserialize, Serialize};

use crate::dice::Dice;
use crate::error::{Error, Result};

/// Options of the Tick System.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TickSystemConfig {
    /// The initiative die (default 1d20).
    pub initiative_die: Dice,
    /// Ticks an action takes unless it says otherwise (default 2).
    pub action_ticks: u32,
    /// Ticks a free action (defending) takes (default 2).
    pub free_action_ticks: u32,
    /// Extra ticks for the first ranged attack on a new target (default 2).
    pub acquire_ticks: u32,
    /// Bonus to defensive rolls while prepared (default 4).
    pub prepare_defense_bonus: i32,
}

impl Default for TickSystemConfig {
    fn default() -> Self {
        TickSystemConfig {
            initiative_die: Dice::D20,
            action_ticks: 2,
            free_action_ticks: 2,
            acquire_ticks: 2,
            prepare_defense_bonus: 4,
        }
    }
}

impl TickSystemConfig {
    /// Checks the options.
    pub fn validate(&self) -> Result<()> {
        self.initiative_die
            .validate()
            .map_err(|e| e.in_field("timing.initiative_die"))?;
        if !(1..=10_000).contains(&self.action_ticks) {
            return Err(Error::out_of_range("timing.action_ticks", self.action_ticks, 1, 10_000));
        }
        if self.free_action_ticks > 10_000 {
            return Err(Error::out_of_range(
                "timing.free_action_ticks",
                self.free_action_ticks,
                0,
                10_000,
            ));
        }
        if self.acquire_ticks > 10_000 {
            return Err(Error::out_of_range(
                "timing.acquire_ticks",
                self.acquire_ticks,
                0,
                10_000,
            ));
        }
        Ok(())
    }
}

/// What a free action did to the actor's timing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct FreeActionResult {
    /// Ticks it took (0 for a prepared actor's first defense).
    pub ticks: u32,
    /// Whether it cancelled an action in progress (defending while doing
    /// something else).
    pub cancelled_action: bool,
    /// The countdown tick of the actor's next turn afterwards, if any this
    /// round.
    pub next_turn: Option<i64>,
    /// Whether the next turn was pushed back by the free action.
    pub pushed: bool,
}

/// A Tick System initiative: the die's `roll` + the actor's initiative
/// bonus (docs/rules.md §1.5). The one home of the rule: the Scheduler and
/// the battle engine's Tick clocks call it. Both are at most
/// [`MAX_BONUS`](super::MAX_BONUS) either way in a checked fight; beyond,
/// it saturates.
///
/// ```
/// use skirmish_core::timing::tick_system::initiative;
/// assert_eq!(initiative(14, 3), 17);
/// ```
#[inline]
pub const fn initiative(roll: i32, bonus: i32) -> i32 {
    roll.saturating_add(bonus)
}

/// How long a Tick System action takes: its `action_ticks`, and
/// `acquire_ticks` more when it is a ranged attack on a new target
/// (Acquire "makes the first attack on your chosen target take an
/// additional 2 ticks"; docs/rules.md §1.5). The one home of Acquire: the
/// Scheduler's plan of a declared action and the tracker's shot at a new
/// target both call it, and a battle with ranged attacks calls it with
/// whether the attack is ranged and at a new target. Saturating.
///
/// ```
/// use skirmish_core::timing::tick_system::with_acquire;
/// assert_eq!(with_acquire(2, 2, true), 4);
/// assert_eq!(with_acquire(2, 2, false), 2);
/// ```
#[inline]
pub const fn with_acquire(action_ticks: u32, acquire_ticks: u32, ranged_at_new_target: bool) -> u32 {
    if ranged_at_new_target {
        action_ticks.saturating_add(acquire_ticks)
    } else {
        action_ticks
    }
}

/// How a fighter's defenses take time in the Tick System (docs/rules.md
/// §1.5): a group's (a combatant's) policy, `defend` in a scenario.
///
/// The text makes defending a free action: "Defensive actions take up
/// ticks as well (usually two)"; battles before this option let defenses cost nothing,
/// which stays the default.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Defending {
    /// Defending takes no time (the default).
    #[default]
    Untimed,
    /// Each defense (each time the fighter is struck at) is a free action
    /// of the system's `free_action_ticks`: it cancels an action in
    /// progress and pushes a next turn it runs into
    /// ([`Scheduler::free_action`](super::Scheduler::free_action)); a
    /// prepared fighter's first defense is free.
    FreeAction,
}

impl Defending {
    /// The names a file writes.
    pub const NAMES: [&'static str; 2] = ["untimed", "free_action"];

    /// Its name in a file.
    pub const fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }

    /// Whether defending takes no time (the default, left out of files).
    pub fn is_untimed(&self) -> bool {
        *self == Defending::Untimed
    }
}

/// Countdown tick of the next turn: `current - (action ticks + interval)`.
///
/// ```
/// use skirmish_core::timing::tick_system::next_turn;
/// assert_eq!(next_turn(20, 2, 6), 12);
/// ```
pub const fn next_turn(current: i64, action_ticks: u32, interval: u32) -> i64 {
    current - action_ticks as i64 - interval as i64
}
