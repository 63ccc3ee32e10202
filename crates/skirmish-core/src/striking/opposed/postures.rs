//! Offensive/defensive postures (4.32).

use serde::{Deserialize, Serialize};

use super::modifiers::check_range;
use super::result::{ResultSource, add, relative_degree};
use crate::dice::RollSource;
use crate::error::{Error, Result};
use crate::ladder::Level;

/// A combat posture for one round (4.32): an offensive modifier from +2 to
/// -2, with the opposite defensive modifier ("+1 to Offense, -1 to
/// Defense"...). Chosen secretly, "by selecting two FUDGE dice and setting
/// them to a result from +2 to -2".
///
/// ```
/// use skirmish_core::striking::opposed::Posture;
/// let p = Posture::new(1).unwrap();
/// assert_eq!((p.offense(), p.defense()), (1, -1));
/// assert!(Posture::new(3).is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(try_from = "i32", into = "i32")]
pub struct Posture {
    offense: i32,
}

impl Posture {
    /// Normal offense and defense.
    pub const NORMAL: Posture = Posture { offense: 0 };

    /// A posture with this offensive modifier (-2..=+2).
    ///
    /// # Errors
    /// [`Error::OutOfRange`] (field `posture`) outside -2..=2.
    pub fn new(offense: i32) -> Result<Posture> {
        Ok(Posture {
            offense: check_range(offense, -2, 2, "posture")?,
        })
    }

    /// The modifier to offense.
    pub const fn offense(self) -> i32 {
        self.offense
    }

    /// The modifier to defense (the opposite of [`offense`](Self::offense)).
    pub const fn defense(self) -> i32 {
        -self.offense
    }
}

impl TryFrom<i32> for Posture {
    type Error = Error;
    fn try_from(offense: i32) -> Result<Posture> {
        Posture::new(offense)
    }
}

impl From<Posture> for i32 {
    fn from(p: Posture) -> i32 {
        p.offense
    }
}

/// A fighter in a postures round, before the roll.
///
/// Postures replace the all-out options of 4.31: compute `skill` with
/// [`Stance::Normal`](super::Stance::Normal).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PostureFighter {
    /// The combat skill, after any other modifiers.
    pub skill: Level,
    /// The chosen posture.
    pub posture: Posture,
    /// Who rolls.
    pub source: ResultSource,
    /// The least offense result that hits the opponent (see
    /// [`TargetSize`](super::TargetSize)).
    pub minimum_to_hit: Level,
    /// `false` for a fighter who can only defend (4.22).
    pub can_harm: bool,
}

impl PostureFighter {
    /// A fighter of `skill` in `posture`, rolling 4dF from the roll source,
    /// against an equal-sized foe.
    pub const fn new(skill: Level, posture: Posture) -> PostureFighter {
        PostureFighter {
            skill,
            posture,
            source: ResultSource::Roll,
            minimum_to_hit: Level::POOR,
            can_harm: true,
        }
    }
}

/// One fighter's rolled results in a postures round: one roll, applied to
/// both offense and defense.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PostureResult {
    /// The roll (for a known result, result minus skill; 0 for the NPC rule).
    pub roll: i32,
    /// skill + posture's offense + roll.
    pub offense: Level,
    /// skill + posture's defense + roll.
    pub defense: Level,
}

impl PostureResult {
    /// The offense and defense results of `skill` in `posture` with `roll`.
    ///
    /// # Errors
    /// [`Error::Overflow`] (fields `offense`, `defense`).
    pub fn new(skill: Level, posture: Posture, roll: i32) -> Result<PostureResult> {
        let rolled = add(skill, roll, "offense")?;
        Ok(PostureResult {
            roll,
            offense: add(rolled, posture.offense(), "offense")?,
            defense: add(rolled, posture.defense(), "defense")?,
        })
    }
}

/// One fighter's offense against the other's defense.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Strike {
    /// Attacker's result minus defender's result.
    pub relative_degree: i32,
    /// Whether it hit: a positive degree, the minimum reached, and an
    /// attacker able to harm.
    pub hit: bool,
}

/// A postures round: each side's results and both strikes. Both may hit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PostureRound {
    /// The first fighter's results.
    pub first: PostureResult,
    /// The second fighter's results.
    pub second: PostureResult,
    /// First's offense against second's defense.
    pub first_strike: Strike,
    /// Second's offense against first's defense.
    pub second_strike: Strike,
}

/// Compares the results of a postures round: "The offensive rolled result
/// of each fighter is then compared to the defense of the other fighter."
///
/// # Errors
/// [`Error::Overflow`] when a relative degree does not fit an `i32`.
pub fn compare_postures(
    first: &PostureFighter,
    first_result: PostureResult,
    second: &PostureFighter,
    second_result: PostureResult,
) -> Result<PostureRound> {
    let strike = |attacker: &PostureFighter, offense: Level, defense: Level| -> Result<Strike> {
        let relative_degree = relative_degree(offense, defense)?;
        Ok(Strike {
            relative_degree,
            hit: relative_degree > 0 && offense >= attacker.minimum_to_hit && attacker.can_harm,
        })
    };
    Ok(PostureRound {
        first: first_result,
        second: second_result,
        first_strike: strike(first, first_result.offense, second_result.defense)?,
        second_strike: strike(second, second_result.offense, first_result.defense)?,
    })
}

/// Rolls (first, then second) and resolves a postures round (4.32).
///
/// The text's example: a Good fighter at +1 offense rolls 0 (offense Great,
/// defense Fair); a Great swordswoman in normal posture rolls -1 (Good both);
/// each wins by +1 and both check for damage.
///
/// ```
/// use skirmish_core::dice::ScriptedRolls;
/// use skirmish_core::ladder::Level;
/// use skirmish_core::striking::opposed::{posture_round, Posture, PostureFighter};
///
/// let him = PostureFighter::new(Level::GOOD, Posture::new(1).unwrap());
/// let her = PostureFighter::new(Level::GREAT, Posture::NORMAL);
/// let round = posture_round(&him, &her, &mut ScriptedRolls::new([0, -1])).unwrap();
/// assert_eq!((round.first.offense, round.first.defense), (Level::GREAT, Level::FAIR));
/// assert_eq!((round.second.offense, round.second.defense), (Level::GOOD, Level::GOOD));
/// assert!(round.first_strike.hit && round.second_strike.hit);
/// assert_eq!(round.first_strike.relative_degree, 1);
/// assert_eq!(round.second_strike.relative_degree, 1);
/// ```
///
/// # Errors
/// A bad or exhausted roll (fields `first.roll`, `second.roll`), or an
/// overflow.
pub fn posture_round(
    first: &PostureFighter,
    second: &PostureFighter,
    rolls: &mut (impl RollSource + ?Sized),
) -> Result<PostureRound> {
    let first_result = roll_posture(first, rolls, "first")?;
    let second_result = roll_posture(second, rolls, "second")?;
    compare_postures(first, first_result, second, second_result)
}

/// One fighter's roll in [`posture_round`], errors under `name`.
fn roll_posture(f: &PostureFighter, rolls: &mut (impl RollSource + ?Sized), name: &str) -> Result<PostureResult> {
    let roll = f.source.roll_for(f.skill, rolls).map_err(|e| e.in_field(name))?;
    PostureResult::new(f.skill, f.posture, roll).map_err(|e| e.in_field(name))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::ScriptedRolls;

    #[test]
    fn posture_range() {
        for p in -2..=2 {
            assert_eq!(Posture::new(p).unwrap().offense(), p);
        }
        for bad in [-3, 3, i32::MIN, i32::MAX] {
            assert!(matches!(
                Posture::new(bad),
                Err(Error::OutOfRange { ref field, min: -2, max: 2, .. }) if field == "posture"
            ));
        }
        assert!(serde_json::from_str::<Posture>("5").is_err());
        assert_eq!(serde_json::from_str::<Posture>("-2").unwrap().defense(), 2);
    }

    #[test]
    fn ties_minimums_and_defend_only() {
        let all_in = PostureFighter::new(Level::FAIR, Posture::new(2).unwrap());
        let turtle = PostureFighter {
            can_harm: false,
            ..PostureFighter::new(Level::FAIR, Posture::new(-2).unwrap())
        };
        let r = posture_round(&all_in, &turtle, &mut ScriptedRolls::new([0, 0])).unwrap();
        // Great offense vs Great defense: a tie, no hit. Poor offense vs
        // Poor defense: a tie too.
        assert_eq!(
            r.first_strike,
            Strike {
                relative_degree: 0,
                hit: false
            }
        );
        assert_eq!(
            r.second_strike,
            Strike {
                relative_degree: 0,
                hit: false
            }
        );
        // The turtle wins its strike but cannot harm.
        let r = posture_round(&all_in, &turtle, &mut ScriptedRolls::new([-1, 0])).unwrap();
        assert_eq!(
            r.second_strike,
            Strike {
                relative_degree: 1,
                hit: false
            }
        );
        // Offense below the minimum misses even when it beats the defense.
        let weak = PostureFighter::new(Level::TERRIBLE, Posture::NORMAL);
        let weaker = PostureFighter::new(Level::new(-5), Posture::NORMAL);
        let r = posture_round(&weak, &weaker, &mut ScriptedRolls::new([0, 0])).unwrap();
        assert_eq!(
            r.first_strike,
            Strike {
                relative_degree: 2,
                hit: false
            }
        );
    }

    #[test]
    fn npc_rule_and_bad_rolls() {
        let npc = PostureFighter {
            source: ResultSource::TraitLevel,
            ..PostureFighter::new(Level::GOOD, Posture::new(-1).unwrap())
        };
        let pc = PostureFighter {
            source: ResultSource::Rolled { roll: 7 },
            ..PostureFighter::new(Level::GOOD, Posture::NORMAL)
        };
        assert!(matches!(
            posture_round(&npc, &pc, &mut ScriptedRolls::new([])),
            Err(Error::OutOfRange { ref field, .. }) if field == "second.roll"
        ));
        let r = PostureResult::new(Level::GOOD, npc.posture, 0).unwrap();
        assert_eq!((r.offense, r.defense), (Level::FAIR, Level::GREAT));
        assert!(PostureResult::new(Level::new(i32::MAX), Posture::new(1).unwrap(), 0).is_err());
    }
}
