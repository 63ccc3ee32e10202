//! FUZION Action Blocks (FUZION "Action Blocks"; docs/rules.md §1.6).
//!
//! - Per three-second **phase**: actions = max(1, floor((REF + Combat Sense
//!   + 1d6) / 5)), recomputed every phase.
//! - **Blocks** run from the highest action count down to 1; a combatant
//!   with n actions acts in blocks n..1.
//! - Within a block, declaration order is REF, highest first (*decision:*
//!   equal REF declare together, in the order the combatants joined); all
//!   effects of a block apply simultaneously before the next block.
//! - A combatant may hold its declaration to the end of the block's
//!   sequence but must act in that block or lose the action (the tracker's
//!   `hold`).
//!
//! On the event queue each block is one tick, its actions in REF order;
//! [`Moment::display`](super::Moment::display) and
//! [`Moment::pass`](super::Moment::pass) are the block number.

use serde::{Deserialize, Serialize};

use super::MAX_ACTIONS;
use crate::dice::Dice;
use crate::error::{Error, Result};

/// Options of Action Blocks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ActionBlocksConfig {
    /// The initiative die (default 1d6).
    pub die: Dice,
    /// The divisor of the Initiative Composite (default 5).
    pub divisor: u32,
}

impl Default for ActionBlocksConfig {
    fn default() -> Self {
        ActionBlocksConfig {
            die: Dice::D6,
            divisor: 5,
        }
    }
}

impl ActionBlocksConfig {
    /// Checks the options.
    pub fn validate(&self) -> Result<()> {
        self.die.validate().map_err(|e| e.in_field("timing.die"))?;
        if !(1..=1_000).contains(&self.divisor) {
            return Err(Error::out_of_range("timing.divisor", self.divisor, 1, 1_000));
        }
        Ok(())
    }

    /// Actions this phase from the die `roll`:
    /// max(1, floor((REF + Combat Sense + roll) / divisor)), at most
    /// [`MAX_ACTIONS`] (the Scheduler's bound). The one home of the rule:
    /// the Scheduler and the battle engine's round clock call it.
    ///
    /// ```
    /// use skirmish_core::timing::ActionBlocksConfig;
    /// let fuzion = ActionBlocksConfig::default();
    /// assert_eq!(fuzion.actions(4, 0, 4), 1); // Bob: 8 / 5
    /// assert_eq!(fuzion.actions(8, 4, 3), 3); // Yuri: 15 / 5
    /// assert_eq!(fuzion.actions(2, 0, 2), 1); // Auntie Em: 4 / 5 rounds to 0, at least 1
    /// ```
    pub fn actions(&self, reflexes: i32, combat_sense: i32, roll: i32) -> u32 {
        let composite = i64::from(reflexes) + i64::from(combat_sense) + i64::from(roll);
        let n = composite.div_euclid(i64::from(self.divisor.max(1)));
        n.clamp(1, i64::from(MAX_ACTIONS)) as u32
    }
}
