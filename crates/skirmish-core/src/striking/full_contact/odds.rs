//! Exact odds: the same decision as [`resolve`] applied to each of the 81
//! outcomes of 4dF.

use serde::Serialize;

use super::resolve::{ROLL_MAX, ROLL_MIN, decide, decide_at_range};
use super::*;
use crate::dice::Probability;

/// How many of the 81 equally likely 4dF outcomes show -4, -3, ..., +4
/// (checked against [`Dice::distribution`] in the tests).
pub(super) const FOUR_DF_COUNTS: [u64; 9] = [1, 4, 10, 16, 19, 16, 10, 4, 1];
pub(super) const FOUR_DF_TOTAL: u64 = 81;

/// The exact chances of one strike, as counts of the 81 equally likely
/// outcomes of 4dF.
///
/// The categories follow [`StrikeOutcome`]: `hit` is every outcome that
/// lands (hits, amazing strikes, guaranteed hits) and `miss` is the rest,
/// so `hit + miss = 1`; the others are parts of those two.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct StrikeOdds {
    /// The blow lands (any kind of hit).
    pub hit: Probability,
    /// The blow does not land (any kind of miss, out of reach included).
    pub miss: Probability,
    /// An amazing strike.
    pub amazing_strike: Probability,
    /// An amazing defense.
    pub amazing_defense: Probability,
    /// A hit only because of the guaranteed-success rule.
    pub guaranteed_hit: Probability,
    /// A miss only because of the fumble rule.
    pub fumble: Probability,
    /// Out of reach (all or nothing: it does not depend on the roll).
    pub out_of_reach: Probability,
    /// The outcome of each roll, -4 first.
    pub by_roll: [StrikeOutcome; 9],
}

impl StrikeOdds {
    /// Tallies the outcomes of the nine rolls.
    fn tally(by_roll: [StrikeOutcome; 9]) -> StrikeOdds {
        let mut counts = [0u64; 7];
        for (outcome, weight) in by_roll.iter().zip(FOUR_DF_COUNTS) {
            let slot = match outcome {
                StrikeOutcome::Hit { .. } => 0,
                StrikeOutcome::AmazingStrike { .. } => 1,
                StrikeOutcome::GuaranteedHit { .. } => 2,
                StrikeOutcome::Miss { .. } => 3,
                StrikeOutcome::AmazingDefense { .. } => 4,
                StrikeOutcome::Fumble { .. } => 5,
                StrikeOutcome::OutOfReach { .. } => 6,
            };
            counts[slot] += weight;
        }
        let p = |numerator| Probability {
            numerator,
            denominator: FOUR_DF_TOTAL,
        };
        let hit = counts[0] + counts[1] + counts[2];
        StrikeOdds {
            hit: p(hit),
            miss: p(FOUR_DF_TOTAL - hit),
            amazing_strike: p(counts[1]),
            amazing_defense: p(counts[4]),
            guaranteed_hit: p(counts[2]),
            fumble: p(counts[5]),
            out_of_reach: p(counts[6]),
            by_roll,
        }
    }

    /// The outcome of Strike roll `roll`, or `None` outside -4..=4.
    pub fn outcome(&self, roll: i32) -> Option<StrikeOutcome> {
        let i = usize::try_from(i64::from(roll) - i64::from(ROLL_MIN)).ok()?;
        self.by_roll.get(i).copied()
    }

    /// The lowest Strike roll that hits, or `None` if none does.
    pub fn lowest_hitting_roll(&self) -> Option<i32> {
        (ROLL_MIN..=ROLL_MAX)
            .zip(self.by_roll)
            .find(|(_, o)| o.is_hit())
            .map(|(r, _)| r)
    }
}

/// The exact odds of a melee strike, by applying [`resolve`]'s decision to
/// each of the nine Strike roll totals weighted by its 4dF count.
///
/// ```
/// use skirmish_core::striking::full_contact::{odds, StrikeOptions};
/// // Cardiff (SR 9) against the goblin (DR 6) hits on -2 or better.
/// let o = odds(9, 6, StrikeOptions::default());
/// assert_eq!(o.hit.to_string(), "76/81 (93.83%)");
/// assert_eq!(o.lowest_hitting_roll(), Some(-2));
/// // The goblin (SR 5) against Cardiff (DR 7) needs +3.
/// assert_eq!(odds(5, 7, StrikeOptions::default()).hit.numerator, 5);
/// ```
#[inline]
pub fn odds(strike_rating: i32, defense_rating: i32, options: StrikeOptions) -> StrikeOdds {
    let (sr, dr) = (i64::from(strike_rating), i64::from(defense_rating));
    StrikeOdds::tally(std::array::from_fn(|i| decide(sr, dr, ROLL_MIN + i as i32, options)))
}

/// The exact odds of a ranged strike (see [`resolve_at_range`]).
#[inline]
pub fn odds_at_range(strike_rating: i32, defense_rating: i32, shot: RangedShot, options: StrikeOptions) -> StrikeOdds {
    StrikeOdds::tally(std::array::from_fn(|i| {
        decide_at_range(strike_rating, defense_rating, ROLL_MIN + i as i32, shot, options)
    }))
}
