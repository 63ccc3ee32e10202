//! Damage factors (FUDGE 4.1): how much damage one hit does, before a
//! model turns it into a wound or lost hit points. Kept apart from the
//! models because every model takes the same number from here.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// The attacker's offensive damage factors (FUDGE 4.1), in ladder steps.
///
/// Each field is a plain number: a Good Strength is `+1`, a weapon's
/// deadliness as the game rates it, the attacker's Scale.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct OffensiveFactors {
    /// Strength, if the weapon is Strength-driven (Good = +1).
    pub strength: i32,
    /// Deadliness of the weapon.
    pub weapon: i32,
    /// The attacker's Scale.
    pub scale: i32,
    /// Anything else the situation adds: all-out offense (+1), the foe's
    /// failed all-out attack (+2), a sweeping blow (-1 per extra foe), ...
    pub situational: i32,
}

impl OffensiveFactors {
    /// The offensive damage factor: the sum of the fields, checked.
    pub fn total(&self) -> Result<i32> {
        checked_sum(
            "damage.offense",
            &[
                ("strength", self.strength),
                ("weapon", self.weapon),
                ("scale", self.scale),
                ("situational", self.situational),
            ],
        )
    }
}

/// The defender's defensive damage factors (FUDGE 4.1), in ladder steps.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DefensiveFactors {
    /// Armor.
    pub armor: i32,
    /// The defender's Scale.
    pub scale: i32,
    /// Damage Capacity (a toughness trait; Good = +1).
    pub damage_capacity: i32,
}

impl DefensiveFactors {
    /// The defensive damage factor: the sum of the fields, checked.
    pub fn total(&self) -> Result<i32> {
        checked_sum(
            "damage.defense",
            &[
                ("armor", self.armor),
                ("scale", self.scale),
                ("damage_capacity", self.damage_capacity),
            ],
        )
    }
}

/// Both sides' damage factors for one attacker against one defender.
///
/// ```
/// use skirmish_core::damage::DamageFactors;
/// // Strength +1, weapon +2, same Scale; armor +2.
/// let f = DamageFactors::new(1, 2, 0).against(2, 0, 0);
/// assert_eq!(f.total().unwrap(), 1);
/// assert_eq!(f.damage(3).unwrap().damage, 4);
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DamageFactors {
    /// The attacker's offensive factors.
    pub offense: OffensiveFactors,
    /// The defender's defensive factors.
    pub defense: DefensiveFactors,
}

impl DamageFactors {
    /// Offensive factors `strength`, `weapon` and `scale`, no defense yet.
    pub const fn new(strength: i32, weapon: i32, scale: i32) -> DamageFactors {
        DamageFactors {
            offense: OffensiveFactors {
                strength,
                weapon,
                scale,
                situational: 0,
            },
            defense: DefensiveFactors {
                armor: 0,
                scale: 0,
                damage_capacity: 0,
            },
        }
    }

    /// The same offense against a defender with `armor`, `scale` and
    /// `damage_capacity`.
    pub const fn against(self, armor: i32, scale: i32, damage_capacity: i32) -> DamageFactors {
        DamageFactors {
            offense: self.offense,
            defense: DefensiveFactors {
                armor,
                scale,
                damage_capacity,
            },
        }
    }

    /// The total damage factor: offensive minus defensive (FUDGE 4.1).
    pub fn total(&self) -> Result<i32> {
        let offense = self.offense.total()?;
        let defense = self.defense.total()?;
        offense
            .checked_sub(defense)
            .ok_or_else(|| Error::overflow("damage.factor", format!("offense {offense} - defense {defense}")))
    }

    /// The damage of a hit won by `margin` (relative degree, or
    /// `SR + roll - DR`), with the sum spelled out.
    ///
    /// A margin of 0 or less is taken as given (a guaranteed success can
    /// hit without beating the defense); the models ignore damage <= 0.
    pub fn damage(&self, margin: i32) -> Result<DamageBreakdown> {
        let offensive = self.offense.total()?;
        let defensive = self.defense.total()?;
        let damage = margin
            .checked_add(offensive)
            .and_then(|d| d.checked_sub(defensive))
            .ok_or_else(|| {
                Error::overflow(
                    "damage",
                    format!("margin {margin} + offense {offensive} - defense {defensive}"),
                )
            })?;
        Ok(DamageBreakdown {
            margin,
            factors: *self,
            offensive,
            defensive,
            damage,
        })
    }
}

/// Adds named terms with overflow checks; the error names the terms.
fn checked_sum(field: &str, terms: &[(&str, i32)]) -> Result<i32> {
    let mut sum: i32 = 0;
    for &(_, value) in terms {
        sum = sum.checked_add(value).ok_or_else(|| {
            let parts: Vec<String> = terms.iter().map(|(name, v)| format!("{name} {v}")).collect();
            Error::overflow(field, parts.join(" + "))
        })?;
    }
    Ok(sum)
}

/// The damage of one hit and how it was reached; displays as
/// `damage 4 = margin 2 + offense 3 (Strength 1, weapon 2) - defense 1 (armor 1)`
/// (zero terms left out).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct DamageBreakdown {
    /// The margin of the hit.
    pub margin: i32,
    /// The factors used.
    pub factors: DamageFactors,
    /// The offensive damage factor (sum of `factors.offense`).
    pub offensive: i32,
    /// The defensive damage factor (sum of `factors.defense`).
    pub defensive: i32,
    /// `margin + offensive - defensive`: what the damage model receives.
    pub damage: i32,
}

impl fmt::Display for DamageBreakdown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fn parts(f: &mut fmt::Formatter<'_>, terms: &[(&str, i32)]) -> fmt::Result {
            let mut first = true;
            for &(name, value) in terms.iter().filter(|(_, v)| *v != 0) {
                f.write_str(if first { " (" } else { ", " })?;
                write!(f, "{name} {value}")?;
                first = false;
            }
            if !first {
                f.write_str(")")?;
            }
            Ok(())
        }
        let (o, d) = (&self.factors.offense, &self.factors.defense);
        write!(f, "damage {} = margin {}", self.damage, self.margin)?;
        if self.offensive != 0 || *o != OffensiveFactors::default() {
            write!(f, " + offense {}", self.offensive)?;
            parts(
                f,
                &[
                    ("Strength", o.strength),
                    ("weapon", o.weapon),
                    ("Scale", o.scale),
                    ("situational", o.situational),
                ],
            )?;
        }
        if self.defensive != 0 || *d != DefensiveFactors::default() {
            write!(f, " - defense {}", self.defensive)?;
            parts(
                f,
                &[
                    ("armor", d.armor),
                    ("Scale", d.scale),
                    ("Damage Capacity", d.damage_capacity),
                ],
            )?;
        }
        Ok(())
    }
}
