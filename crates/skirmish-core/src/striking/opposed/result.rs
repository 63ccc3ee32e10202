//! Rolled results, relative degree and Unopposed actions (4.22, 4.33).

use serde::{Deserialize, Serialize};

use crate::dice::{Dice, RollSource};
use crate::error::{Error, Result};
use crate::ladder::Level;

/// Where a combatant's rolled result comes from: who rolls, if anyone.
///
/// A rolled result is the trait level plus a roll (4.22). The text also
/// lets the GM skip the NPCs' rolls (4.33) and, for a group of NPCs, roll one
/// 2dF for all of them (4.34: see [`GroupRoll`](super::GroupRoll), which
/// overrides each foe's own source).
///
/// ```
/// use skirmish_core::dice::ScriptedRolls;
/// use skirmish_core::ladder::Level;
/// use skirmish_core::striking::opposed::ResultSource;
///
/// let mut table = ScriptedRolls::new([-1]);
/// assert_eq!(ResultSource::Roll.result(Level::GREAT, &mut table).unwrap(), Level::GOOD);
/// assert_eq!(ResultSource::Rolled { roll: 1 }.result(Level::GOOD, &mut table).unwrap(), Level::GREAT);
/// assert_eq!(ResultSource::TraitLevel.result(Level::FAIR, &mut table).unwrap(), Level::FAIR);
/// assert!(ResultSource::Rolled { roll: 5 }.result(Level::FAIR, &mut table).is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum ResultSource {
    /// Trait level + 4dF drawn from the [`RollSource`].
    #[default]
    Roll,
    /// Trait level + a 4dF total rolled at the table (checked: -4..=4).
    Rolled {
        /// The 4dF total.
        roll: i32,
    },
    /// 4.33 PCs vs NPCs: the result is the trait level, no roll ("the NPC
    /// will always get a result equal to her trait level").
    TraitLevel,
    /// The rolled result itself, as read at the table or as the text's
    /// examples give it ("the thugs rolled a Great, Good and Mediocre").
    /// The trait level does not enter it.
    Known {
        /// The rolled result.
        result: Level,
    },
}

impl ResultSource {
    /// What this source adds to `skill`: the 4dF roll, 0 for
    /// [`TraitLevel`](Self::TraitLevel), or `result - skill` for
    /// [`Known`](Self::Known). Draws from `rolls` only for
    /// [`Roll`](Self::Roll).
    ///
    /// # Errors
    /// A roll outside -4..=4 (field `roll`), an error of the roll source, or
    /// an overflow.
    pub fn roll_for(&self, skill: Level, rolls: &mut (impl RollSource + ?Sized)) -> Result<i32> {
        match *self {
            ResultSource::Roll => check_four_df(rolls.roll(Dice::FOUR_DF)?, "roll"),
            ResultSource::Rolled { roll } => check_four_df(roll, "roll"),
            ResultSource::TraitLevel => Ok(0),
            ResultSource::Known { result } => relative_degree(result, skill).map_err(|_| {
                Error::overflow(
                    "result",
                    format!("known result {} minus skill {}", result.value(), skill.value()),
                )
            }),
        }
    }

    /// The rolled result: `skill` plus [`roll_for`](Self::roll_for).
    ///
    /// # Errors
    /// As [`roll_for`](Self::roll_for), and an overflow of the sum.
    pub fn result(&self, skill: Level, rolls: &mut (impl RollSource + ?Sized)) -> Result<Level> {
        if let ResultSource::Known { result } = *self {
            return Ok(result);
        }
        let roll = self.roll_for(skill, rolls)?;
        add(skill, roll, "result")
    }
}

/// Checks that `roll` is a 4dF total (-4..=4); `field` names it in the error.
pub(crate) fn check_four_df(roll: i32, field: &str) -> Result<i32> {
    check_fudge(roll, Dice::FOUR_DF, field)
}

/// Checks that `roll` is a total `dice` (Fudge dice) can show.
pub(crate) fn check_fudge(roll: i32, dice: Dice, field: &str) -> Result<i32> {
    if dice.can_show(roll) {
        Ok(roll)
    } else {
        Err(Error::out_of_range(field, roll, dice.min(), dice.max()))
    }
}

/// `level + by`, an overflow naming `field`.
pub(crate) fn add(level: Level, by: i32, field: &str) -> Result<Level> {
    level
        .value()
        .checked_add(by)
        .map(Level::new)
        .ok_or_else(|| Error::overflow(field, format!("{} {by:+}", level.value())))
}

/// The **relative degree** of an Opposed action: `mine - theirs` (4.22).
/// Positive: I won by that much; 0: a stand-off; negative: I lost.
///
/// ```
/// use skirmish_core::ladder::Level;
/// use skirmish_core::striking::opposed::relative_degree;
/// assert_eq!(relative_degree(Level::GREAT, Level::FAIR).unwrap(), 2);
/// ```
///
/// # Errors
/// [`Error::Overflow`] (field `relative_degree`) when the difference does
/// not fit an `i32`.
pub fn relative_degree(mine: Level, theirs: Level) -> Result<i32> {
    mine.value()
        .checked_sub(theirs.value())
        .ok_or_else(|| Error::overflow("relative_degree", format!("{} minus {}", mine.value(), theirs.value())))
}

/// The outcome of an Unopposed action against a Difficulty Level.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Unopposed {
    /// The rolled result.
    pub result: Level,
    /// The Difficulty Level it had to reach.
    pub difficulty_level: Level,
    /// `result - difficulty_level`: how far above (or below) it.
    pub relative_degree: i32,
    /// Whether the result reached the Difficulty Level (`result >= difficulty_level`).
    pub success: bool,
}

/// An Unopposed action: success iff `result >= difficulty_level`.
///
/// Used when a defender cannot fight (4.22: unaware, or down from a
/// critical result; "usually with a Poor Difficulty Level") and for ranged
/// attacks on unaware targets or targets that shoot back (4.4).
///
/// ```
/// use skirmish_core::ladder::Level;
/// use skirmish_core::striking::opposed::unopposed;
/// let u = unopposed(Level::MEDIOCRE, Level::POOR).unwrap();
/// assert!(u.success);
/// assert_eq!(u.relative_degree, 1);
/// ```
///
/// # Errors
/// [`Error::Overflow`] when the relative degree does not fit an `i32`.
pub fn unopposed(result: Level, difficulty_level: Level) -> Result<Unopposed> {
    Ok(Unopposed {
        result,
        difficulty_level,
        relative_degree: relative_degree(result, difficulty_level)?,
        success: result >= difficulty_level,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::ScriptedRolls;

    #[test]
    fn sources() {
        let mut none = ScriptedRolls::new([]);
        assert_eq!(ResultSource::TraitLevel.roll_for(Level::GOOD, &mut none).unwrap(), 0);
        let known = ResultSource::Known { result: Level::POOR };
        assert_eq!(known.roll_for(Level::GOOD, &mut none).unwrap(), -3);
        assert_eq!(known.result(Level::new(i32::MAX), &mut none).unwrap(), Level::POOR);
        assert!(matches!(
            known.roll_for(Level::new(i32::MAX), &mut none),
            Err(Error::Overflow { ref field, .. }) if field == "result"
        ));
        for bad in [-5, 5, i32::MIN, i32::MAX] {
            assert!(matches!(
                ResultSource::Rolled { roll: bad }.result(Level::FAIR, &mut none),
                Err(Error::OutOfRange { ref field, min: -4, max: 4, .. }) if field == "roll"
            ));
        }
        for ok in -4..=4 {
            assert_eq!(
                ResultSource::Rolled { roll: ok }
                    .result(Level::FAIR, &mut none)
                    .unwrap(),
                Level::new(ok)
            );
        }
        // The script is empty: Roll must ask it, and fail.
        assert!(matches!(
            ResultSource::Roll.result(Level::FAIR, &mut none),
            Err(Error::ScriptExhausted { .. })
        ));
        assert!(matches!(
            ResultSource::Rolled { roll: 4 }.result(Level::new(i32::MAX), &mut none),
            Err(Error::Overflow { ref field, .. }) if field == "result"
        ));
    }

    #[test]
    fn degrees_and_unopposed() {
        assert_eq!(relative_degree(Level::FAIR, Level::GOOD).unwrap(), -1);
        assert!(relative_degree(Level::new(i32::MIN), Level::GOOD).is_err());
        let tie = unopposed(Level::POOR, Level::POOR).unwrap();
        assert!(tie.success);
        assert_eq!(tie.relative_degree, 0);
        assert!(!unopposed(Level::TERRIBLE, Level::POOR).unwrap().success);
        assert!(unopposed(Level::new(i32::MAX), Level::new(-1)).is_err());
    }
}
