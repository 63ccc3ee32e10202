//! Ranged combat (4.4).

use serde::{Deserialize, Serialize};

use super::modifiers::{CombatKind, EffectiveSkill, ModifierReason, Shield, check_range};
use super::result::{ResultSource, relative_degree};
use crate::dice::RollSource;
use crate::error::Result;
use crate::ladder::Level;

/// What is shot or thrown (4.4): "If the ranged weapon is thrown, there is
/// no modifier to the defense roll. However, a propelled weapon, such as a
/// bow, gun, or beam weapon, is much harder to avoid. In this case, reduce
/// the defender's trait by -2 or -3."
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Missile {
    /// A thrown weapon: no modifier to the dodge.
    #[default]
    Thrown,
    /// A propelled weapon (bow, gun, beam).
    Propelled {
        /// How much the dodge is reduced: 2 or 3 (checked).
        dodge_penalty: i32,
    },
}

impl Missile {
    /// The modifier to the defender's dodge: 0, -2 or -3.
    ///
    /// # Errors
    /// [`Error::OutOfRange`](crate::Error::OutOfRange) (field
    /// `missile.dodge_penalty`) unless 2 or 3.
    pub fn dodge_modifier(self) -> Result<i32> {
        match self {
            Missile::Thrown => Ok(0),
            Missile::Propelled { dodge_penalty } => Ok(-check_range(dodge_penalty, 2, 3, "missile.dodge_penalty")?),
        }
    }
}

/// How the target of a ranged attack responds (4.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum RangedDefense {
    /// "If the target is unaware of the assault, the attacker makes an
    /// Unopposed action roll": the result must reach the Difficulty Level.
    Unaware,
    /// The target is aware and dodges: an Opposed action against a Dodge
    /// skill, Agility or the like; the Difficulty Level "is still ... the
    /// minimum rolled degree needed to hit".
    Dodge {
        /// The dodge trait, before the missile's modifier.
        dodge_skill: Level,
        /// Who rolls the dodge.
        source: ResultSource,
        /// A shield the defender carries: a trained one subtracts its ranged
        /// value from the attacker's skill (4.31); a large one costs the
        /// defender -2 on his dodge.
        shield: Option<Shield>,
    },
    /// The target declines to dodge and shoots back: for this attack it is
    /// Unopposed, as for an unaware target. Use [`exchange_fire`] to resolve
    /// both shots together.
    ShootsBack,
}

/// One ranged attack (4.4).
///
/// "Do not modify the attacker's skill for range, partial cover, or other
/// circumstances - that's included in the Difficulty Level. Equipment such
/// as a laser sighting scope can modify the attacker's skill, though": put
/// such equipment into `skill`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct RangedAttack {
    /// The attacker's ranged weapon skill.
    pub skill: Level,
    /// Who rolls the attack.
    pub source: ResultSource,
    /// The GM's Difficulty Level for distance, lighting, cover...
    pub difficulty_level: Level,
    /// Thrown or propelled.
    pub missile: Missile,
    /// How the target responds.
    pub defense: RangedDefense,
}

/// The dodge side of an opposed ranged attack.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct DodgeResult {
    /// The dodge trait after the missile's (and a large shield's) modifier.
    pub skill: EffectiveSkill,
    /// The rolled dodge result.
    pub result: Level,
}

/// What came of a ranged attack.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct RangedOutcome {
    /// The attacker's skill after a dodging defender's shield.
    pub skill: EffectiveSkill,
    /// The attacker's rolled result.
    pub result: Level,
    /// The dodge, when the target dodged.
    pub dodge: Option<DodgeResult>,
    /// Against a dodge: attack result minus dodge result. Otherwise: attack
    /// result minus the Difficulty Level.
    pub relative_degree: i32,
    /// Whether it hit: unopposed, the result reached the Difficulty Level;
    /// against a dodge, it also beat the dodge.
    pub hit: bool,
}

impl RangedAttack {
    /// Rolls (attacker first, then the dodge) and resolves the attack.
    ///
    /// ```
    /// use skirmish_core::dice::ScriptedRolls;
    /// use skirmish_core::ladder::Level;
    /// use skirmish_core::striking::opposed::{Missile, RangedAttack, RangedDefense, ResultSource};
    ///
    /// // A Good archer against a Fair dodger, DL Mediocre; the arrow is
    /// // propelled: the dodge drops to Poor. Both roll Mediocre.
    /// let shot = RangedAttack {
    ///     skill: Level::GOOD,
    ///     source: ResultSource::Roll,
    ///     difficulty_level: Level::MEDIOCRE,
    ///     missile: Missile::Propelled { dodge_penalty: 2 },
    ///     defense: RangedDefense::Dodge { dodge_skill: Level::FAIR, source: ResultSource::Roll, shield: None },
    /// };
    /// let out = shot.resolve(&mut ScriptedRolls::new([-2, 1])).unwrap();
    /// assert_eq!(out.result, Level::MEDIOCRE);
    /// assert_eq!(out.dodge.as_ref().unwrap().result, Level::MEDIOCRE);
    /// assert!(!out.hit); // a tie with the dodge
    /// ```
    ///
    /// # Errors
    /// Bad rolls (fields `attack.roll`, `dodge.roll`), a bad propelled
    /// penalty (field `missile.dodge_penalty`), or an overflow.
    pub fn resolve(&self, rolls: &mut (impl RollSource + ?Sized)) -> Result<RangedOutcome> {
        match self.defense {
            RangedDefense::Unaware | RangedDefense::ShootsBack => {
                let skill = EffectiveSkill::new(self.skill);
                let result = self
                    .source
                    .result(skill.level, rolls)
                    .map_err(|e| e.in_field("attack"))?;
                Ok(RangedOutcome {
                    relative_degree: relative_degree(result, self.difficulty_level)?,
                    hit: result >= self.difficulty_level,
                    skill,
                    result,
                    dodge: None,
                })
            }
            RangedDefense::Dodge {
                dodge_skill,
                source,
                shield,
            } => {
                let dodge_modifier = self.missile.dodge_modifier()?;
                let skill = EffectiveSkill::new(self.skill)
                    .with(
                        ModifierReason::OpponentShield,
                        shield.map_or(0, |s| s.penalty_to_opponent(CombatKind::Ranged)),
                    )
                    .map_err(|e| e.in_field("attack"))?;
                let result = self
                    .source
                    .result(skill.level, rolls)
                    .map_err(|e| e.in_field("attack"))?;
                let dodge_skill = EffectiveSkill::new(dodge_skill)
                    .with(ModifierReason::PropelledMissile, dodge_modifier)?
                    .with(
                        ModifierReason::OwnLargeShield,
                        shield.map_or(0, Shield::penalty_to_user),
                    )
                    .map_err(|e| e.in_field("dodge"))?;
                let dodge_result = source
                    .result(dodge_skill.level, rolls)
                    .map_err(|e| e.in_field("dodge"))?;
                let relative_degree = relative_degree(result, dodge_result)?;
                Ok(RangedOutcome {
                    relative_degree,
                    hit: relative_degree > 0 && result >= self.difficulty_level,
                    skill,
                    result,
                    dodge: Some(DodgeResult {
                        skill: dodge_skill,
                        result: dodge_result,
                    }),
                })
            }
        }
    }
}

/// One side of an exchange of fire.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Shooter {
    /// Ranged weapon skill.
    pub skill: Level,
    /// Who rolls.
    pub source: ResultSource,
    /// The Difficulty Level to hit the *other* shooter.
    pub difficulty_level: Level,
}

/// Both shots of an exchange of fire; both may hit.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ExchangeOfFire {
    /// The first shooter's shot at the second.
    pub first: RangedOutcome,
    /// The second shooter's shot at the first.
    pub second: RangedOutcome,
}

/// Two shooters firing at each other instead of dodging (4.4): "the
/// action is Unopposed - making the Difficulty Level is all that is needed
/// to hit. The GM may make such actions simultaneous." docs/rules.md §2.2.9
/// makes them simultaneous, and so does this: both shots are resolved from the
/// same moment, so both may hit ("Will and Dicken would have skewered each
/// other"). Rolls: first, then second.
///
/// ```
/// use skirmish_core::dice::ScriptedRolls;
/// use skirmish_core::ladder::Level;
/// use skirmish_core::striking::opposed::{exchange_fire, ResultSource, Shooter};
///
/// // Will Scarlet needs Mediocre and rolls Mediocre; Dicken needs Good and
/// // rolls Fair. (The text gives results, not skills: a known result ignores
/// // the skill.)
/// let shooter = |result, difficulty_level| Shooter {
///     skill: Level::FAIR,
///     source: ResultSource::Known { result },
///     difficulty_level,
/// };
/// let will = shooter(Level::MEDIOCRE, Level::MEDIOCRE);
/// let dicken = shooter(Level::FAIR, Level::GOOD);
/// let fire = exchange_fire(&will, &dicken, &mut ScriptedRolls::new([])).unwrap();
/// assert!(fire.first.hit);
/// assert!(!fire.second.hit);
/// ```
///
/// # Errors
/// Bad rolls (fields `first.attack.roll`, `second.attack.roll`) or an
/// overflow.
pub fn exchange_fire(
    first: &Shooter,
    second: &Shooter,
    rolls: &mut (impl RollSource + ?Sized),
) -> Result<ExchangeOfFire> {
    let shot = |s: &Shooter| RangedAttack {
        skill: s.skill,
        source: s.source,
        difficulty_level: s.difficulty_level,
        missile: Missile::Thrown,
        defense: RangedDefense::ShootsBack,
    };
    Ok(ExchangeOfFire {
        first: shot(first).resolve(rolls).map_err(|e| e.in_field("first"))?,
        second: shot(second).resolve(rolls).map_err(|e| e.in_field("second"))?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Error;
    use crate::dice::ScriptedRolls;
    use crate::striking::opposed::ShieldSize;

    fn attack(defense: RangedDefense, missile: Missile) -> RangedAttack {
        RangedAttack {
            skill: Level::GOOD,
            source: ResultSource::Roll,
            difficulty_level: Level::FAIR,
            missile,
            defense,
        }
    }

    #[test]
    fn unaware_is_unopposed_against_the_difficulty_level() {
        let a = attack(RangedDefense::Unaware, Missile::Thrown);
        let hit = a.resolve(&mut ScriptedRolls::new([-1])).unwrap();
        assert!(hit.hit);
        assert_eq!(hit.relative_degree, 0);
        let miss = a.resolve(&mut ScriptedRolls::new([-2])).unwrap();
        assert!(!miss.hit);
        assert_eq!(miss.relative_degree, -1);
        assert!(miss.dodge.is_none());
    }

    #[test]
    fn dodging() {
        let dodge = |shield| RangedDefense::Dodge {
            dodge_skill: Level::GOOD,
            source: ResultSource::Roll,
            shield,
        };
        // Thrown: no modifier. Good vs Good, attacker +1: hits.
        let out = attack(dodge(None), Missile::Thrown)
            .resolve(&mut ScriptedRolls::new([1, 0]))
            .unwrap();
        assert!(out.hit);
        assert_eq!(out.relative_degree, 1);
        // Propelled -3: the dodge is Poor; the attack (Mediocre) beats it
        // but is below the DL (Fair).
        let out = attack(dodge(None), Missile::Propelled { dodge_penalty: 3 })
            .resolve(&mut ScriptedRolls::new([-2, 0]))
            .unwrap();
        assert_eq!(out.dodge.as_ref().unwrap().skill.level, Level::POOR);
        assert_eq!(out.dodge.as_ref().unwrap().result, Level::POOR);
        assert!(out.relative_degree > 0 && !out.hit);
        // A trained medium shield: -1 to the attacker.
        let out = attack(dodge(Some(Shield::new(ShieldSize::Medium))), Missile::Thrown)
            .resolve(&mut ScriptedRolls::new([1, 0]))
            .unwrap();
        assert_eq!(out.result, Level::GOOD);
        assert!(!out.hit);
        // A small shield does nothing against missiles; a large one -2 to
        // the attacker and -2 to the dodge.
        let out = attack(dodge(Some(Shield::new(ShieldSize::Small))), Missile::Thrown)
            .resolve(&mut ScriptedRolls::new([0, 0]))
            .unwrap();
        assert_eq!(out.skill.level, Level::GOOD);
        let out = attack(dodge(Some(Shield::new(ShieldSize::Large))), Missile::Thrown)
            .resolve(&mut ScriptedRolls::new([0, 0]))
            .unwrap();
        assert_eq!(
            (out.skill.level, out.dodge.unwrap().skill.level),
            (Level::MEDIOCRE, Level::MEDIOCRE)
        );
        for bad in [0, 1, 4, -2] {
            assert!(matches!(
                attack(dodge(None), Missile::Propelled { dodge_penalty: bad }).resolve(&mut ScriptedRolls::new([0, 0])),
                Err(Error::OutOfRange { ref field, .. }) if field == "missile.dodge_penalty"
            ));
        }
    }

    #[test]
    fn shooting_back_both_may_hit() {
        let a = Shooter {
            skill: Level::GOOD,
            source: ResultSource::Roll,
            difficulty_level: Level::FAIR,
        };
        let fire = exchange_fire(&a, &a, &mut ScriptedRolls::new([0, 0])).unwrap();
        assert!(fire.first.hit && fire.second.hit);
        assert!(matches!(
            exchange_fire(&a, &a, &mut ScriptedRolls::new([0])),
            Err(Error::ScriptExhausted { .. })
        ));
        let bad = Shooter {
            source: ResultSource::Rolled { roll: 5 },
            ..a
        };
        assert!(matches!(
            exchange_fire(&a, &bad, &mut ScriptedRolls::new([0])),
            Err(Error::OutOfRange { ref field, .. }) if field == "second.attack.roll"
        ));
    }
}
