//! Distance in battles (docs/rules.md §5.1): where fighters stand on one
//! line, what each can reach, how a move action changes it, and when a
//! defender fights unaware.
//!
//! The texts give the penalties of distance (Full Contact's range penalty
//! and point-blank range, [`crate::striking::full_contact::WeaponRange`];
//! FUDGE 4.4's Difficulty Level set by distance) but no movement: the
//! line, the reach of a melee weapon, the feet a move covers and the
//! plans here are ours, kept small and written down in docs/rules.md
//! §5.1.
//!
//! ```
//! use skirmish_core::distance::{Plan, WeaponReach, step};
//! use skirmish_core::fighter::FullContactRules;
//! use skirmish_core::striking::full_contact::WeaponRange;
//!
//! // The sniper's short bow (SR 7, Sh 150', RS 50') reaches Madoc at 280'
//! // (SR 4 after the -3) but not at 500' (SR 0: out of reach).
//! let bow = WeaponReach::Ranged(WeaponRange::new(150, 50)?);
//! let rules = FullContactRules::default();
//! assert!(bow.reaches(280, 7, &rules));
//! assert!(!bow.reaches(500, 7, &rules));
//! // Infantry 600' off, moving 10' an action, closes to a spear's 5'.
//! assert_eq!(step(Plan::Close, 600, 10, WeaponReach::Melee(5), 0), 10);
//! assert_eq!(step(Plan::Close, 12, 10, WeaponReach::Melee(5), 0), 7);
//! # Ok::<(), skirmish_core::Error>(())
//! ```

use serde::{Deserialize, Serialize};

use crate::combat::strike_options;
use crate::error::{Error, Result};
use crate::fighter::FullContactRules;
use crate::ladder::Level;
use crate::striking::full_contact::WeaponRange;
use crate::striking::opposed::Missile;

/// How far a melee weapon reaches when a group gives no `melee_reach`, in
/// feet (ours: about one pace).
pub const DEFAULT_MELEE_REACH: i64 = 5;
/// How far one move action takes a fighter when a group gives no `move`,
/// in feet (ours).
pub const DEFAULT_MOVE: i64 = 10;
/// The largest distance, reach, move or keep distance a scenario may give:
/// a thousand miles in feet, far past any battle, small enough that no
/// sum of positions overflows.
pub const DISTANCE_LIMIT: i64 = 5_280_000;

/// What a group does when no foe is in its reach (docs/rules.md §5.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Plan {
    /// Move toward the nearest foe until it is in reach, then fight (the
    /// default of a melee group).
    Close,
    /// Stand: strike or shoot what is in reach, else wait (the default of
    /// a ranged group).
    Hold,
    /// Step back while the nearest foe is within the group's keep
    /// distance, otherwise shoot (or strike) what is in reach.
    KeepDistance,
}

impl Plan {
    /// The plans' names as scenarios write them.
    pub const NAMES: [&'static str; 3] = ["close", "hold", "keep_distance"];

    /// Its name as scenarios write it.
    pub const fn name(self) -> &'static str {
        Plan::NAMES[self as usize]
    }

    /// A group's plan: the one given, else `hold` for a ranged weapon and
    /// `close` for a melee one.
    pub fn or_default(plan: Option<Plan>, ranged: bool) -> Plan {
        plan.unwrap_or(if ranged { Plan::Hold } else { Plan::Close })
    }
}

/// How far a fighter's weapon reaches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum WeaponReach {
    /// A melee weapon: foes at most this far away (ours).
    Melee(i64),
    /// A ranged weapon: any foe its range penalty leaves a chance to hit
    /// (Full Contact "Range Penalties": an SR brought to 0 or less by range
    /// cannot hit at all).
    Ranged(WeaponRange),
}

impl WeaponReach {
    /// Whether a foe `distance` away is in reach of a weapon wielded at
    /// `strike_rating` (wound penalties counted) under `rules` (point-blank
    /// range can bring a shot back into reach). The range rule is core's
    /// [`RangedShot::is_out_of_reach`](crate::striking::full_contact::RangedShot::is_out_of_reach).
    #[inline]
    pub fn reaches(self, distance: i64, strike_rating: i32, rules: &FullContactRules) -> bool {
        match self {
            WeaponReach::Melee(reach) => distance <= reach,
            WeaponReach::Ranged(range) => range
                .at(distance)
                .is_ok_and(|shot| !shot.is_out_of_reach(strike_rating, strike_options(rules, rules.point_blank))),
        }
    }

    /// FUDGE 4.4: whether a foe `distance` away is in reach of a shooter
    /// whose best result is `best` (its skill of the moment plus
    /// [`BEST_ROLL`], or its trait level for an NPC who does not roll) when
    /// the shot's Difficulty Level is the distance's
    /// ([`difficulty_at`]) raised by the target's `cover`: a shot that no
    /// roll can make is not taken (ours, docs/rules.md §2.2.9). A melee
    /// weapon reaches as in [`reaches`](Self::reaches).
    #[inline]
    pub fn reaches_difficulty(self, distance: i64, cover: i32, best: i32) -> bool {
        match self {
            WeaponReach::Melee(reach) => distance <= reach,
            WeaponReach::Ranged(range) => difficulty_at(range, distance)
                .is_ok_and(|dl| i64::from(dl.value()) + i64::from(cover) <= i64::from(best)),
        }
    }

    /// The weapon's range, if it is ranged.
    pub const fn range(self) -> Option<WeaponRange> {
        match self {
            WeaponReach::Ranged(range) => Some(range),
            WeaponReach::Melee(_) => None,
        }
    }
}

/// How far a move action takes a fighter toward (positive) or away from
/// (negative) its nearest foe, `gap` away: under [`Plan::Close`] up to
/// `move_distance`, stopping where the foe comes into `reach` (a ranged
/// weapon closes to its Short range); under [`Plan::KeepDistance`] back by
/// `move_distance` while the foe is within `keep_at`; 0 otherwise (hold,
/// or nothing to do).
#[inline]
pub fn step(plan: Plan, gap: i64, move_distance: i64, reach: WeaponReach, keep_at: i64) -> i64 {
    let stop = match reach {
        WeaponReach::Melee(r) => r,
        WeaponReach::Ranged(range) => range.short_range(),
    };
    match plan {
        Plan::Close => gap.saturating_sub(stop).clamp(0, move_distance.max(0)),
        Plan::KeepDistance if gap <= keep_at => -move_distance.max(0),
        Plan::KeepDistance | Plan::Hold => 0,
    }
}

/// The Full Contact Defense Rating of a surprised or unaware defender
/// (Full Contact, "Calculating DR": no skill or attribute bonus), given
/// none in the scenario: the base 3, penalties kept (never above the
/// usual `defense_rating`), the armor's bonus added by the caller. A DR
/// with a shield, coverage or magic in it needs its unaware value given
/// (docs/rules.md §5.1).
pub const fn default_unaware_defense(defense_rating: i32) -> i32 {
    if defense_rating < 3 { defense_rating } else { 3 }
}

/// FUDGE 4.4's Difficulty Level for a shot `distance` away: the GM's, from
/// distance (light and cover are left to the scenario). The text gives no
/// numbers; ours (docs/rules.md §5.1) follows the weapon's Full Contact
/// ranges: within Short range Poor (the least result that hits an
/// equal-sized foe in melee, FUDGE 4.22), then one level harder per Range
/// Strength or part of one beyond it (Will Scarlet's "even a Mediocre shot
/// will hit since they are fairly close" is just past a longbow's Short
/// range), past Legendary as far as the ladder
/// goes (Legendary+1, +2, ...): a shot no roll can make is out of reach
/// ([`WeaponReach::reaches_difficulty`]).
///
/// ```
/// use skirmish_core::distance::difficulty_at;
/// use skirmish_core::ladder::Level;
/// use skirmish_core::striking::full_contact::WeaponRange;
/// let longbow = WeaponRange::new(150, 50)?;
/// assert_eq!(difficulty_at(longbow, 100)?, Level::POOR);
/// assert_eq!(difficulty_at(longbow, 280)?, Level::GOOD);
/// assert_eq!(difficulty_at(longbow, 500)?.to_string(), "Legendary+1");
/// # Ok::<(), skirmish_core::Error>(())
/// ```
///
/// # Errors
/// [`Error::OutOfRange`] (field `distance`) for a negative distance.
pub fn difficulty_at(range: WeaponRange, distance: i64) -> Result<Level> {
    let steps = range.at(distance)?.range_penalty().saturating_neg();
    let value = i64::from(Level::POOR.value()).saturating_add(steps);
    Ok(Level::new(i32::try_from(value).unwrap_or(i32::MAX)))
}

/// The most a 4dF roll adds to a FUDGE result: what a shooter can hope
/// for when it judges whether a shot is worth taking
/// ([`WeaponReach::reaches_difficulty`]).
pub const BEST_ROLL: i32 = 4;

/// The most a FUDGE shooter's roll can add to its result, what it hopes
/// for when it judges whether a shot is worth taking
/// ([`WeaponReach::reaches_difficulty`]): [`BEST_ROLL`] for its own 4dF,
/// 2 when its side rolls the GM's one 2dF for all (FUDGE 4.34's group
/// roll, `group_roll`), 0 for an NPC whose result is its trait level
/// (4.33: no roll).
///
/// ```
/// use skirmish_core::distance::{BEST_ROLL, best_roll};
/// assert_eq!((best_roll(false, false), best_roll(false, true), best_roll(true, true)), (BEST_ROLL, 2, 0));
/// ```
pub const fn best_roll(npc_result: bool, group_roll: bool) -> i32 {
    if npc_result {
        0
    } else if group_roll {
        2
    } else {
        BEST_ROLL
    }
}

/// What a FUDGE battle group's shots are when its scenario names no
/// `missile` (ours, docs/rules.md §2.2.9): propelled (a `range` is most
/// often a bow, a crossbow or a gun), at the lesser of the text's -2 and
/// -3 to the dodge.
pub const DEFAULT_MISSILE: Missile = Missile::Propelled { dodge_penalty: 2 };

/// Checks a distance-like field: 0..=[`DISTANCE_LIMIT`].
///
/// # Errors
/// [`Error::OutOfRange`] naming `field`.
pub fn check_distance(field: &str, value: i64) -> Result<()> {
    if (0..=DISTANCE_LIMIT).contains(&value) {
        Ok(())
    } else {
        Err(Error::out_of_range(field, value, 0, DISTANCE_LIMIT))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_close_step_stops_at_reach_and_never_passes_the_foe() {
        assert_eq!(step(Plan::Close, 5, 10, WeaponReach::Melee(5), 0), 0);
        assert_eq!(step(Plan::Close, 3, 10, WeaponReach::Melee(5), 0), 0);
        assert_eq!(step(Plan::Close, 100, 10, WeaponReach::Melee(5), 0), 10);
        let bow = WeaponReach::Ranged(WeaponRange::new(150, 50).unwrap());
        assert_eq!(step(Plan::Close, 155, 10, bow, 0), 5);
        assert_eq!(step(Plan::Hold, 600, 10, WeaponReach::Melee(5), 0), 0);
        assert_eq!(step(Plan::KeepDistance, 20, 10, bow, 30), -10);
        assert_eq!(step(Plan::KeepDistance, 31, 10, bow, 30), 0);
    }

    #[test]
    fn reach_follows_the_range_rule_and_point_blank() {
        let rules = FullContactRules::default();
        let bow = WeaponReach::Ranged(WeaponRange::new(150, 50).unwrap());
        // SR 7: -6 leaves 1 (up to 450'), -7 leaves 0 (out of reach).
        assert!(bow.reaches(450, 7, &rules));
        assert!(!bow.reaches(451, 7, &rules));
        // An SR of 0 still hits within Short range: no range penalty applies.
        assert!(bow.reaches(150, 0, &rules));
        assert!(!bow.reaches(151, 1, &rules));
        let pb = FullContactRules {
            point_blank: true,
            ..rules
        };
        let sling = WeaponReach::Ranged(WeaponRange::new(0, 100).unwrap());
        // SR 1 at 50': -1, +2 point-blank: SR 2, in reach.
        assert!(!sling.reaches(50, 1, &rules));
        assert!(sling.reaches(50, 1, &pb));
        assert!(WeaponReach::Melee(5).reaches(5, 0, &rules));
        assert!(!WeaponReach::Melee(5).reaches(6, 9, &rules));
    }

    #[test]
    fn the_unaware_defense_drops_bonuses_but_keeps_penalties() {
        assert_eq!(default_unaware_defense(7), 3);
        assert_eq!(default_unaware_defense(2), 2);
    }

    #[test]
    fn difficulty_rises_a_level_per_range_strength() {
        let bow = WeaponRange::new(150, 50).unwrap();
        assert_eq!(difficulty_at(bow, 150).unwrap(), Level::POOR);
        assert_eq!(difficulty_at(bow, 151).unwrap(), Level::MEDIOCRE);
        assert_eq!(difficulty_at(bow, 450).unwrap(), Level::LEGENDARY);
        assert_eq!(difficulty_at(bow, 5_000).unwrap(), Level::new(Level::POOR.value() + 97));
        assert_eq!(difficulty_at(bow, DISTANCE_LIMIT).unwrap().value(), 105_595);
        assert!(difficulty_at(bow, -1).is_err());
    }

    #[test]
    fn a_shot_is_in_reach_while_a_roll_can_make_its_difficulty() {
        let bow = WeaponReach::Ranged(WeaponRange::new(150, 50).unwrap());
        // A Fair shooter (best +4, Legendary) reaches up to 450'.
        assert!(bow.reaches_difficulty(450, 0, 4));
        assert!(!bow.reaches_difficulty(451, 0, 4));
        // Cover raises the Difficulty Level: two levels off the reach.
        assert!(bow.reaches_difficulty(350, 2, 4));
        assert!(!bow.reaches_difficulty(351, 2, 4));
        assert!(WeaponReach::Melee(5).reaches_difficulty(5, 9, -9));
        assert!(!WeaponReach::Melee(5).reaches_difficulty(6, 0, 9));
    }
}
