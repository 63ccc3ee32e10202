//! Graduated Rounds (Relativity, "Graduated Rounds"; docs/rules.md §1.3), and
//! the Ready Time that Continuous shares.
//!
//! - A round has 20 ticks (configurable). The first action's initiative
//!   (as in [Simple Rounds](super::simple)) is the tick it lands on.
//! - Each further action in the round lands at the previous action's tick
//!   plus its **Ready Time** = 2dF + TT - speed bonus, at least 1 (rolled
//!   when the previous action lands).
//! - Ticks past the end of the round follow the policy chosen before
//!   battle ([`PastEnd`]): extend the round, spill into the next round
//!   (tick - 20), act at the end of the round in initiative order (as in
//!   Simple Rounds), or lose the action.

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

use super::Declaration;

/// What happens to an action whose tick falls past the end of the round.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PastEnd {
    /// "Extend the round": keep adding ticks until every action of the
    /// round has happened (the text's first recommendation).
    #[default]
    Extend,
    /// "Spill that attack over into the next round": it lands on tick - 20
    /// of the next round (rounds stay exactly 20 ticks long).
    Spill,
    /// "Cause any such attacks to happen at the end of the round, as would
    /// happen with Simple Rounds": after the last tick, in initiative order.
    EndOfRound,
    /// "Lose the attack".
    Lose,
}

/// Options of Graduated Rounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct GraduatedConfig {
    /// Ticks per round (default 20).
    pub ticks_per_round: u32,
    /// The policy for ticks past the end of the round.
    pub past_end: PastEnd,
}

impl Default for GraduatedConfig {
    fn default() -> Self {
        GraduatedConfig {
            ticks_per_round: 20,
            past_end: PastEnd::Extend,
        }
    }
}

impl GraduatedConfig {
    /// Checks the options: at least 1 tick per round, at most 100,000.
    pub fn validate(&self) -> Result<()> {
        if !(1..=100_000).contains(&self.ticks_per_round) {
            return Err(Error::out_of_range(
                "timing.ticks_per_round",
                self.ticks_per_round,
                1,
                100_000,
            ));
        }
        Ok(())
    }
}

/// The smallest Ready Time: "Ready Time cannot have a value less than 1".
pub const MIN_READY_TIME: i64 = 1;

/// The Ready Time formula, the one home of it: `roll + offset`, at least
/// [`MIN_READY_TIME`], where `offset` is the declaration's
/// [`time_offset`](Declaration::time_offset) (TT + extra preparation -
/// speed bonus). The 2dF roll is not checked: [`ready_time`] checks a roll
/// typed in; the battle engine's clocks draw theirs.
///
/// ```
/// use skirmish_core::timing::graduated::ready_time_from;
/// assert_eq!(ready_time_from(2, 3), 5); // Orc #1's dagger
/// assert_eq!(ready_time_from(-1, 1), 1); // Roland: never below 1
/// ```
#[inline]
pub const fn ready_time_from(roll: i64, offset: i64) -> i64 {
    let total = roll + offset;
    if total < MIN_READY_TIME { MIN_READY_TIME } else { total }
}

/// The longest Ready Time a declaration with this `offset` can roll (2dF
/// at +2).
#[inline]
pub const fn longest_ready_time(offset: i64) -> i64 {
    ready_time_from(2, offset)
}

/// Ready Time from a 2dF `roll`: `roll + TT - bonus`, at least 1.
/// `extra_preparation` counts as Time Taken.
///
/// ```
/// use skirmish_core::timing::{graduated::ready_time, Declaration};
/// let dagger = Declaration::new(3, 0);
/// assert_eq!(ready_time(2, &dagger).unwrap(), 5); // Orc #1
/// assert_eq!(ready_time(0, &dagger).unwrap(), 3); // Orc #2
/// // Roland: -1 + 2 - 1 = 0, and Ready Time cannot be less than 1.
/// assert_eq!(ready_time(-1, &Declaration::new(2, 1)).unwrap(), 1);
/// ```
pub fn ready_time(roll: i32, declaration: &Declaration) -> Result<i64> {
    if !(-2..=2).contains(&roll) {
        return Err(Error::out_of_range("ready_time.roll", roll, -2, 2));
    }
    Ok(ready_time_from(i64::from(roll), declaration.time_offset()))
}
