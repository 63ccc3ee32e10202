//! Rolls typed in at the table: [`ScriptedRolls`] plays back the rolls a
//! caller supplies (real dice, the worked examples of the texts), each
//! checked against the dice it is used for. Its own file because it is the
//! other roll source, with its own refusals, and shares nothing with the
//! generator.

use serde::{Deserialize, Serialize};

use super::{Dice, RollSource};
use crate::error::{Error, Result};

/// Plays back rolls the caller supplies, in order, each checked against
/// the dice the rule asks for.
///
/// ```
/// use skirmish_core::dice::{Dice, RollSource, ScriptedRolls};
/// let mut table = ScriptedRolls::new([-1, 2]);
/// assert_eq!(table.roll(Dice::FOUR_DF).unwrap(), -1);
/// // A 4dF total of 2 cannot be a d6 roll below 1... but 2 is a fine d6:
/// assert_eq!(table.roll(Dice::D6).unwrap(), 2);
/// assert!(table.roll(Dice::FOUR_DF).is_err()); // ran out
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScriptedRolls {
    rolls: Vec<i32>,
    next: usize,
}

impl ScriptedRolls {
    /// A script of `rolls`, played in order.
    pub fn new(rolls: impl IntoIterator<Item = i32>) -> ScriptedRolls {
        ScriptedRolls {
            rolls: rolls.into_iter().collect(),
            next: 0,
        }
    }

    /// Adds a roll at the end of the script.
    pub fn push(&mut self, roll: i32) {
        self.rolls.push(roll);
    }

    /// The rolls not yet used.
    pub fn remaining(&self) -> &[i32] {
        &self.rolls[self.next..]
    }

    /// How many rolls have been used.
    pub fn used(&self) -> usize {
        self.next
    }
}

impl RollSource for ScriptedRolls {
    fn roll(&mut self, dice: Dice) -> Result<i32> {
        let dice = dice.validate()?;
        let Some(&value) = self.rolls.get(self.next) else {
            return Err(Error::ScriptExhausted {
                dice: dice.to_string(),
                used: self.next,
            });
        };
        if !dice.can_show(value) {
            return Err(Error::ScriptedRollOutOfRange {
                dice: dice.to_string(),
                position: self.next + 1,
                value,
                min: dice.min(),
                max: dice.max(),
            });
        }
        self.next += 1;
        Ok(value)
    }
}
