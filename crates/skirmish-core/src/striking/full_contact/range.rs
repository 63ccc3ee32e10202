//! Ranged weapons ("Range Penalties", "Point-Blank Range"): a weapon's
//! Range Strength and a shot's distance, turned into an SR adjustment.

use serde::{Deserialize, Serialize};

use super::*;
use crate::error::{Error, Result};

/// A ranged weapon's two distances ("Ranged Weapons"): its **Short range**,
/// within which it fires without penalty, and its **Range Strength**, each
/// further stretch of which (or part of one) costs -1 SR.
///
/// Distances are whole numbers in whatever unit the GM uses.
///
/// ```
/// use skirmish_core::striking::full_contact::WeaponRange;
/// // The sniper's short bow: Sh 150', RS 50'. Madoc is 280' away.
/// let short_bow = WeaponRange::new(150, 50)?;
/// assert_eq!(short_bow.at(280)?.range_penalty(), -3);
/// assert_eq!(short_bow.at(150)?.range_penalty(), 0);
/// assert_eq!(short_bow.at(151)?.range_penalty(), -1);
/// assert_eq!(short_bow.at(200)?.range_penalty(), -1);
/// # Ok::<(), skirmish_core::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "WeaponRangeRepr", into = "WeaponRangeRepr")]
pub struct WeaponRange {
    short_range: i64,
    range_strength: i64,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct WeaponRangeRepr {
    short_range: i64,
    range_strength: i64,
}

impl TryFrom<WeaponRangeRepr> for WeaponRange {
    type Error = Error;
    fn try_from(r: WeaponRangeRepr) -> Result<WeaponRange> {
        WeaponRange::new(r.short_range, r.range_strength)
    }
}

impl From<WeaponRange> for WeaponRangeRepr {
    fn from(r: WeaponRange) -> WeaponRangeRepr {
        WeaponRangeRepr {
            short_range: r.short_range,
            range_strength: r.range_strength,
        }
    }
}

impl WeaponRange {
    /// A weapon's ranges.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] for a negative `short_range` or a
    /// `range_strength` of 0 or less.
    pub fn new(short_range: i64, range_strength: i64) -> Result<WeaponRange> {
        if short_range < 0 {
            return Err(Error::out_of_range("short_range", short_range, 0, i64::MAX));
        }
        if range_strength <= 0 {
            return Err(Error::out_of_range("range_strength", range_strength, 1, i64::MAX));
        }
        Ok(WeaponRange {
            short_range,
            range_strength,
        })
    }

    /// The Short range.
    pub const fn short_range(self) -> i64 {
        self.short_range
    }

    /// The Range Strength.
    pub const fn range_strength(self) -> i64 {
        self.range_strength
    }

    /// A shot at a target `distance` away.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] (field `distance`) for a negative distance.
    pub fn at(self, distance: i64) -> Result<RangedShot> {
        if distance < 0 {
            return Err(Error::out_of_range("distance", distance, 0, i64::MAX));
        }
        Ok(RangedShot { range: self, distance })
    }
}

/// A shot with a ranged weapon at a known distance.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "RangedShotRepr", into = "RangedShotRepr")]
pub struct RangedShot {
    range: WeaponRange,
    distance: i64,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RangedShotRepr {
    short_range: i64,
    range_strength: i64,
    distance: i64,
}

impl TryFrom<RangedShotRepr> for RangedShot {
    type Error = Error;
    fn try_from(r: RangedShotRepr) -> Result<RangedShot> {
        RangedShot::new(r.short_range, r.range_strength, r.distance)
    }
}

impl From<RangedShot> for RangedShotRepr {
    fn from(s: RangedShot) -> RangedShotRepr {
        RangedShotRepr {
            short_range: s.range.short_range,
            range_strength: s.range.range_strength,
            distance: s.distance,
        }
    }
}

impl RangedShot {
    /// `WeaponRange::new(short_range, range_strength)?.at(distance)`.
    ///
    /// # Errors
    /// As [`WeaponRange::new`] and [`WeaponRange::at`].
    pub fn new(short_range: i64, range_strength: i64, distance: i64) -> Result<RangedShot> {
        WeaponRange::new(short_range, range_strength)?.at(distance)
    }

    /// The weapon's ranges.
    pub const fn range(self) -> WeaponRange {
        self.range
    }

    /// The distance to the target.
    pub const fn distance(self) -> i64 {
        self.distance
    }

    /// The range penalty: 0 within Short range, then -1 per Range Strength
    /// or part of one beyond it (0 down to `-i64::MAX`).
    #[inline]
    pub const fn range_penalty(self) -> i64 {
        // Both non-negative, so the difference cannot overflow.
        let beyond = self.distance - self.range.short_range;
        if beyond <= 0 {
            return 0;
        }
        let rs = self.range.range_strength;
        // Ceiling division without the overflow of `beyond + rs - 1`.
        let steps = beyond / rs + if beyond % rs == 0 { 0 } else { 1 };
        -steps
    }

    /// Whether the target is nearer than the Range Strength (the optional
    /// point-blank rule's "less than": at exactly the Range Strength there
    /// is no bonus).
    #[inline]
    pub const fn is_point_blank(self) -> bool {
        self.distance < self.range.range_strength
    }

    /// The SR for this shot: `strike_rating` plus the range penalty, plus 2
    /// if point-blank range is in use and applies. Saturates at `i64::MIN`
    /// (only for penalties beyond about `2^62` steps).
    #[inline]
    pub const fn strike_rating(self, strike_rating: i32, options: StrikeOptions) -> i64 {
        let bonus = if options.point_blank && self.is_point_blank() {
            POINT_BLANK_BONUS
        } else {
            0
        };
        (strike_rating as i64)
            .saturating_add(self.range_penalty())
            .saturating_add(bonus)
    }

    /// Whether range has put the target out of reach: a range penalty
    /// applies and the adjusted SR is 0 or less, so "there is no way that
    /// the character can hit anything at that distance (even if Guaranteed
    /// Success is being used)".
    #[inline]
    pub const fn is_out_of_reach(self, strike_rating: i32, options: StrikeOptions) -> bool {
        self.range_penalty() < 0 && self.strike_rating(strike_rating, options) <= 0
    }
}

/// The optional point-blank bonus to SR.
pub const POINT_BLANK_BONUS: i64 = 2;
