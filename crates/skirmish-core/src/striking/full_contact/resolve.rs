//! Resolution ("Determining a Hit", parrying): one decision, used by
//! [`resolve`], [`roll_strike`], [`parry`] and, roll by roll, by the odds.

use serde::{Deserialize, Serialize};

use super::*;
use crate::dice::{Dice, RollSource};
use crate::error::{Error, Result};

/// The smallest and largest Strike roll (4dF).
pub(super) const ROLL_MIN: i32 = -4;
pub(super) const ROLL_MAX: i32 = 4;

/// The decision itself, for a roll already checked to be -4..=4. Every
/// public resolver and [`odds`] goes through here, so they cannot disagree.
#[inline]
pub(super) const fn decide(
    strike_rating: i64,
    defense_rating: i64,
    roll: i32,
    options: StrikeOptions,
) -> StrikeOutcome {
    let margin = strike_rating.saturating_add(roll as i64).saturating_sub(defense_rating);
    let hits_normally = margin > 0;
    if options.guaranteed_success_and_fumble {
        if roll == ROLL_MAX && !hits_normally {
            return StrikeOutcome::GuaranteedHit { margin };
        }
        if roll == ROLL_MIN && hits_normally {
            return StrikeOutcome::Fumble { margin };
        }
    }
    if hits_normally {
        // A +4 that hits normally is amazing: either it already beats the DR
        // by 4, or an amazing strike "would need a Strike roll of more than +3".
        if options.amazing && (margin >= 4 || roll == ROLL_MAX) {
            StrikeOutcome::AmazingStrike { margin }
        } else {
            StrikeOutcome::Hit { margin }
        }
    } else if options.amazing && (margin <= -3 || roll == ROLL_MIN) {
        // A -4 that misses normally shows that "it would be possible for the
        // attacker to miss on a normal roll".
        StrikeOutcome::AmazingDefense { margin }
    } else {
        StrikeOutcome::Miss { margin }
    }
}

/// The decision for a ranged shot, roll already checked.
#[inline]
pub(super) const fn decide_at_range(
    strike_rating: i32,
    defense_rating: i32,
    roll: i32,
    shot: RangedShot,
    options: StrikeOptions,
) -> StrikeOutcome {
    let adjusted = shot.strike_rating(strike_rating, options);
    if shot.range_penalty() < 0 && adjusted <= 0 {
        return StrikeOutcome::OutOfReach {
            strike_rating: adjusted,
            margin: adjusted
                .saturating_add(roll as i64)
                .saturating_sub(defense_rating as i64),
        };
    }
    decide(adjusted, defense_rating as i64, roll, options)
}

#[inline]
fn check_roll(field: &'static str, roll: i32) -> Result<()> {
    if (ROLL_MIN..=ROLL_MAX).contains(&roll) {
        Ok(())
    } else {
        Err(roll_out_of_range(field, roll))
    }
}

#[cold]
fn roll_out_of_range(field: &'static str, roll: i32) -> Error {
    Error::out_of_range(field, roll, ROLL_MIN, ROLL_MAX)
}

/// One melee strike: does `strike_rating` + `roll` beat `defense_rating`?
///
/// ```
/// use skirmish_core::striking::full_contact::{resolve, StrikeOptions, StrikeOutcome};
/// let amazing = StrikeOptions { amazing: true, ..StrikeOptions::default() };
/// assert_eq!(resolve(9, 6, -1, StrikeOptions::default())?, StrikeOutcome::Hit { margin: 2 });
/// assert_eq!(resolve(9, 6, 1, amazing)?, StrikeOutcome::AmazingStrike { margin: 4 });
/// assert!(resolve(9, 6, 5, amazing).is_err());
/// # Ok::<(), skirmish_core::Error>(())
/// ```
///
/// # Errors
/// [`Error::OutOfRange`] (field `strike_roll`) for a roll outside -4..=4.
#[inline]
pub fn resolve(strike_rating: i32, defense_rating: i32, roll: i32, options: StrikeOptions) -> Result<StrikeOutcome> {
    check_roll("strike_roll", roll)?;
    Ok(decide(
        i64::from(strike_rating),
        i64::from(defense_rating),
        roll,
        options,
    ))
}

/// One ranged strike: as [`resolve`], with the SR adjusted for the
/// distance ([`RangedShot::strike_rating`]) and out of reach when range has
/// brought it to 0 or less.
///
/// ```
/// use skirmish_core::striking::full_contact::{resolve_at_range, RangedShot, StrikeOptions, StrikeOutcome};
/// // The sniper (SR 7, short bow Sh 150' RS 50') shoots at Madoc (DR 7) 280' away and rolls +2.
/// let shot = RangedShot::new(150, 50, 280)?;
/// assert_eq!(shot.strike_rating(7, StrikeOptions::default()), 4);
/// assert_eq!(resolve_at_range(7, 7, 2, shot, StrikeOptions::default())?, StrikeOutcome::Miss { margin: -1 });
/// # Ok::<(), skirmish_core::Error>(())
/// ```
///
/// # Errors
/// [`Error::OutOfRange`] (field `strike_roll`) for a roll outside -4..=4.
#[inline]
pub fn resolve_at_range(
    strike_rating: i32,
    defense_rating: i32,
    roll: i32,
    shot: RangedShot,
    options: StrikeOptions,
) -> Result<StrikeOutcome> {
    check_roll("strike_roll", roll)?;
    Ok(decide_at_range(strike_rating, defense_rating, roll, shot, options))
}

/// A strike rolled from a [`RollSource`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct RolledStrike {
    /// The Strike roll (4dF).
    pub roll: i32,
    /// What it did.
    pub outcome: StrikeOutcome,
}

/// Rolls the Strike roll (4dF) from `rolls` and resolves it, at range if
/// `shot` is given.
///
/// # Errors
/// Whatever the roll source refuses (a scripted roll that is not a 4dF
/// total, an exhausted script).
pub fn roll_strike(
    rolls: &mut (impl RollSource + ?Sized),
    strike_rating: i32,
    defense_rating: i32,
    shot: Option<RangedShot>,
    options: StrikeOptions,
) -> Result<RolledStrike> {
    let roll = rolls.roll(Dice::FOUR_DF)?;
    let outcome = match shot {
        Some(shot) => resolve_at_range(strike_rating, defense_rating, roll, shot, options)?,
        None => resolve(strike_rating, defense_rating, roll, options)?,
    };
    Ok(RolledStrike { roll, outcome })
}

/// A parry ("Parrying"): the parry is a Strike roll against the attack's
/// final value, SR + Strike roll, instead of the attacker's DR.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Parry {
    /// The attack's SR + Strike roll.
    pub attack_total: i64,
    /// The parry's SR + Strike roll.
    pub parry_total: i64,
    /// The parry as a strike against `attack_total`: it succeeds iff this
    /// is a hit (with the core rule, iff `parry_total > attack_total`).
    pub outcome: StrikeOutcome,
}

impl Parry {
    /// Whether the attack was knocked aside. If not, the attack goes on to
    /// be resolved against the defender's DR as usual.
    pub const fn parried(&self) -> bool {
        self.outcome.is_hit()
    }
}

/// Parries an attack of `attack_strike_rating` (after any range
/// adjustment) that rolled `attack_roll`, with a parry of
/// `parry_strike_rating` that rolled `parry_roll`.
///
/// ```
/// use skirmish_core::striking::full_contact::{parry, StrikeOptions};
/// // The guard's naginata (SR 7) rolls +2 = 9; Brooklyn's knife (SR 6) rolls +4 = 10.
/// let first = parry(7, 2, 6, 4, StrikeOptions::default())?;
/// assert_eq!((first.attack_total, first.parry_total), (9, 10));
/// assert!(first.parried());
/// // The second thrust rolls +2 again; her parry rolls only +1 = 7.
/// assert!(!parry(7, 2, 6, 1, StrikeOptions::default())?.parried());
/// # Ok::<(), skirmish_core::Error>(())
/// ```
///
/// # Errors
/// [`Error::OutOfRange`] (field `attack_roll` or `parry_roll`) for a roll
/// outside -4..=4.
#[inline]
pub fn parry(
    attack_strike_rating: i32,
    attack_roll: i32,
    parry_strike_rating: i32,
    parry_roll: i32,
    options: StrikeOptions,
) -> Result<Parry> {
    check_roll("attack_roll", attack_roll)?;
    check_roll("parry_roll", parry_roll)?;
    let attack_total = i64::from(attack_strike_rating) + i64::from(attack_roll);
    let parry_total = i64::from(parry_strike_rating) + i64::from(parry_roll);
    Ok(Parry {
        attack_total,
        parry_total,
        outcome: decide(i64::from(parry_strike_rating), attack_total, parry_roll, options),
    })
}
