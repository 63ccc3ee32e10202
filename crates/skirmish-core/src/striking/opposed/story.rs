//! Story elements (4.21): one resolution per dramatic unit.

use serde::{Deserialize, Serialize};

use super::modifiers::{EffectiveSkill, ModifierReason, check_range};
use super::result::{ResultSource, add};
use crate::dice::{RollSource, median_of_three};
use crate::error::Result;
use crate::ladder::Level;

/// How many rolls resolve a story element (4.21): "The GM may ask for a
/// single die roll from a player occasionally, or require three rolls and
/// take the *median* roll."
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StoryResolution {
    /// One roll.
    #[default]
    SingleRoll,
    /// Three rolls; the median result counts ("Using a median tends to
    /// soften the role of extreme luck").
    MedianOfThree,
}

/// A resolved story element.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct StoryElement {
    /// The trait level with the GM's modifier.
    pub skill: EffectiveSkill,
    /// Every rolled result, in the order rolled (one or three).
    pub results: Vec<Level>,
    /// The result that counts: the only one, or the median.
    pub result: Level,
}

/// The middle one of three results (4.21: "if the player rolls a Good, a
/// Mediocre, and a Superb result, the median is Good ... a result of Poor,
/// Great, and Great gives a median die roll of Great").
///
/// ```
/// use skirmish_core::ladder::Level;
/// use skirmish_core::striking::opposed::median_result;
/// assert_eq!(median_result(Level::GOOD, Level::MEDIOCRE, Level::SUPERB), Level::GOOD);
/// assert_eq!(median_result(Level::POOR, Level::GREAT, Level::GREAT), Level::GREAT);
/// ```
pub fn median_result(a: Level, b: Level, c: Level) -> Level {
    median_of_three(a, b, c)
}

/// Resolves one story element (4.21): the trait plus the GM's modifier
/// (-3..=+3: "based partly on how well the PCs' plan would work ... and
/// partly on circumstances"), then one roll or the median of three.
///
/// `source` says who rolls each time: [`ResultSource::Roll`] draws 4dF
/// from `rolls` (three draws for a median). A fixed source
/// ([`ResultSource::Rolled`], [`ResultSource::Known`],
/// [`ResultSource::TraitLevel`]) gives the same result each time; to enter
/// three table rolls, use a [`ScriptedRolls`](crate::dice::ScriptedRolls).
///
/// ```
/// use skirmish_core::dice::ScriptedRolls;
/// use skirmish_core::ladder::Level;
/// use skirmish_core::striking::opposed::{resolve_story_element, ResultSource, StoryResolution};
///
/// // Gunner: Brawling Good, GM modifier +2 = Superb; he rolls Good, Superb, Great.
/// let mut table = ScriptedRolls::new([-2, 0, -1]);
/// let median = StoryResolution::MedianOfThree;
/// let e = resolve_story_element(Level::GOOD, 2, median, ResultSource::Roll, &mut table).unwrap();
/// assert_eq!(e.skill.level, Level::SUPERB);
/// assert_eq!(e.results, [Level::GOOD, Level::SUPERB, Level::GREAT]);
/// assert_eq!(e.result, Level::GREAT);
/// ```
///
/// # Errors
/// [`Error::OutOfRange`](crate::Error::OutOfRange) for a GM modifier
/// outside -3..=3 (field `gm_modifier`) or a bad roll (field `roll`); an
/// overflow.
pub fn resolve_story_element(
    trait_level: Level,
    gm_modifier: i32,
    resolution: StoryResolution,
    source: ResultSource,
    rolls: &mut (impl RollSource + ?Sized),
) -> Result<StoryElement> {
    let gm_modifier = check_range(gm_modifier, -3, 3, "gm_modifier")?;
    let skill = EffectiveSkill::new(trait_level).with(ModifierReason::GmModifier, gm_modifier)?;
    let mut roll_once = || -> Result<Level> { add(skill.level, source.roll_for(skill.level, &mut *rolls)?, "result") };
    let (results, result) = match resolution {
        StoryResolution::SingleRoll => {
            let one = roll_once()?;
            (vec![one], one)
        }
        StoryResolution::MedianOfThree => {
            let (a, b, c) = (roll_once()?, roll_once()?, roll_once()?);
            (vec![a, b, c], median_result(a, b, c))
        }
    };
    Ok(StoryElement { skill, results, result })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Error;
    use crate::dice::ScriptedRolls;

    #[test]
    fn single_roll_and_modifier_range() {
        let e = resolve_story_element(
            Level::GOOD,
            0,
            StoryResolution::SingleRoll,
            ResultSource::Roll,
            &mut ScriptedRolls::new([-4]),
        )
        .unwrap();
        assert_eq!(e.results, [Level::new(-3)]);
        assert_eq!(e.result, Level::TERRIBLE);
        for m in -3..=3 {
            let e = resolve_story_element(
                Level::FAIR,
                m,
                StoryResolution::SingleRoll,
                ResultSource::TraitLevel,
                &mut ScriptedRolls::new([]),
            )
            .unwrap();
            assert_eq!(e.result, Level::new(m));
        }
        for bad in [-4, 4, i32::MIN] {
            assert!(matches!(
                resolve_story_element(
                    Level::FAIR,
                    bad,
                    StoryResolution::SingleRoll,
                    ResultSource::TraitLevel,
                    &mut ScriptedRolls::new([]),
                ),
                Err(Error::OutOfRange { ref field, min: -3, max: 3, .. }) if field == "gm_modifier"
            ));
        }
    }

    #[test]
    fn median_needs_three_rolls() {
        assert!(matches!(
            resolve_story_element(
                Level::FAIR,
                0,
                StoryResolution::MedianOfThree,
                ResultSource::Roll,
                &mut ScriptedRolls::new([1, 1]),
            ),
            Err(Error::ScriptExhausted { used: 2, .. })
        ));
        let known = ResultSource::Known { result: Level::GREAT };
        let e = resolve_story_element(
            Level::FAIR,
            -3,
            StoryResolution::MedianOfThree,
            known,
            &mut ScriptedRolls::new([]),
        )
        .unwrap();
        assert_eq!(e.result, Level::GREAT);
    }
}
