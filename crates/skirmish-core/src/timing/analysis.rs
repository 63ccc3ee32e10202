//! Exact timing analysis: who acts first, how many actions a FUZION phase
//! gives, and how many attacks a Rate of Fire, a Graduated Round or a stretch
//! of Continuous combat yields.
//!
//! Everything here is **exact**: computed from the dice distributions as
//! integer counts of equally likely outcomes ([`Distribution`],
//! [`Probability`]) or as exact fractions ([`Ratio`]), never by sampling.
//!
//! The rules (docs/rules.md §1):
//!
//! - the Relativity "Timing Systems" article, "Simple Rounds: Initiative": the
//!   landing tick of a first action is `4dF + 5 + TT - speed bonus`, and "a
//!   calculated Initiative of 0 or less counts as 1"
//!   ([`initiative_distribution`], [`first_action_order`]). Graduated Rounds
//!   and Continuous combat use the same first roll ("Graduated Initiative",
//!   "Continuous Initiative").
//! - "Graduated Rounds: Multiple Actions and Ready Time": later actions land
//!   `2dF + TT - speed bonus` (minimum 1) ticks after the previous one
//!   ([`ready_time_distribution`]); how many of a round's allowed actions fit
//!   when those past the end are **Lost** ([`graduated_actions`]).
//! - "Continuous Combat": the expected number of actions in a stretch of
//!   ticks ([`continuous_actions`]).
//! - "Simple Rounds: Turn Order" and the weapon table's Rate of Fire, with
//!   the decision for fractional rates (docs/rules.md §1.2)
//!   ([`RateOfFire::shots_in_round`]) and extra attacks from gear such as
//!   "Bracers of Archery" ([`attacks_per_round`]).
//! - FUZION "Action Blocks" (docs/rules.md §1.6): actions per phase
//!   `max(1, floor((REF + Combat Sense + 1d6) / 5))` ([`actions_per_phase`]).
//!
//! # Example
//!
//! Roland (elven bow, TT 2, speed bonus +1) against Cardiff (two-handed
//! sword, TT 7, bonus 0), over all 81 × 81 rolls of their initiative dice:
//!
//! ```
//! use skirmish_core::timing::analysis::{self, FirstAction};
//!
//! # fn main() -> skirmish_core::Result<()> {
//! let roland = FirstAction { time_taken: 2, speed_bonus: 1 };
//! let cardiff = FirstAction { time_taken: 7, speed_bonus: 0 };
//! let odds = analysis::first_action_order(roland, cardiff)?;
//! assert_eq!(odds.a_first.numerator, 6516);
//! assert_eq!(odds.same_tick.numerator, 36);
//! assert_eq!(odds.b_first.numerator, 9);
//! assert_eq!(odds.a_first.denominator, 6561);
//!
//! // Yuri the Death-Solo (REF 8, Combat Sense 4): 2 actions on a 1 or 2, else 3.
//! let yuri = analysis::actions_per_phase(8, 4)?;
//! assert_eq!((yuri.min(), yuri.counts()), (2, &[2, 4][..]));
//! assert_eq!(analysis::actions_per_phase_mean(8, 4)?.to_string(), "8/3");
//!
//! // A war hammer (RoF 4/3) strikes 2, 1, 1 times in rounds 1-3: 4/3 a round.
//! let hammer = analysis::attacks_per_round("4/3".parse()?, 0)?;
//! assert_eq!(hammer.per_round, [2, 1, 1]);
//! assert_eq!(hammer.mean.to_string(), "4/3");
//! # Ok(())
//! # }
//! ```

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::dice::{Dice, Distribution, Probability};
use crate::error::{Error, Result};
use crate::tables::weapons::RateOfFire;
use crate::timing::MAX_REFLEXES;

/// Ticks in a round of Graduated Rounds, and the default stretch of
/// Continuous combat analysed ("each round is divided into 20 ticks"; one
/// turn of the 20-number "stopwatch").
pub const TICKS_PER_ROUND: u32 = 20;

/// Most ticks [`continuous_actions`] and [`graduated_actions`] analyse.
///
/// The analysis keeps one count per tick and per action, so the cap keeps
/// the work small; a longer stretch is an [`Error::OutOfRange`] naming the
/// field. Fast actions over long stretches may also exceed the exact
/// arithmetic first (see [`continuous_actions`]).
pub const MAX_TICKS: u32 = 200;

/// Largest Time Taken the analysis accepts: `TT + 9` (the slowest 4dF
/// initiative) must stay below `i32::MAX`, the bound of a
/// [`Distribution`]'s values.
pub const MAX_TIME_TAKEN: u32 = i32::MAX as u32 - 10;

/// The latest tick a distribution here may hold.
const LATEST_TICK: i64 = i32::MAX as i64 - 1;

/// Most rounds in a Rate of Fire's cycle that [`attacks_per_round`] lists
/// round by round (the weapon tables use at most 3).
pub const MAX_CYCLE_ROUNDS: u32 = 1000;

// ---------------------------------------------------------------------------
// Ratio
// ---------------------------------------------------------------------------

/// An exact non-negative fraction `numerator / denominator`, in lowest
/// terms when this module produces it.
///
/// Used for means and expectations, which are not probabilities (the mean
/// of a 4/3 Rate of Fire is 4/3) and whose denominators outgrow a `u64`: a
/// Continuous expectation over 20 ticks has denominators up to
/// `81 * 9^19 = 3^42`. Hence `u128`; a computation that would leave it is an
/// [`Error::Overflow`], never a rounded value. Equality compares values
/// (`2/4 == 1/2`).
///
/// ```
/// use skirmish_core::timing::analysis::Ratio;
/// let r = Ratio::new(8, 6).unwrap();
/// assert_eq!((r.numerator, r.denominator), (4, 3));
/// assert_eq!(r.to_string(), "4/3");
/// assert!(Ratio::new(1, 0).is_err());
/// ```
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Ratio {
    /// The numerator.
    pub numerator: u128,
    /// The denominator (positive).
    pub denominator: u128,
}

impl Ratio {
    /// Zero, `0/1`.
    pub const ZERO: Ratio = Ratio {
        numerator: 0,
        denominator: 1,
    };

    /// `numerator / denominator` in lowest terms; the denominator must be
    /// positive.
    pub fn new(numerator: u128, denominator: u128) -> Result<Ratio> {
        if denominator == 0 {
            return Err(Error::invalid("ratio.denominator", "must be positive"));
        }
        Ok(Ratio { numerator, denominator }.reduced())
    }

    /// The whole number `n`, `n/1`.
    pub const fn whole(n: u128) -> Ratio {
        Ratio {
            numerator: n,
            denominator: 1,
        }
    }

    /// The same value in lowest terms.
    pub fn reduced(self) -> Ratio {
        let g = gcd(self.numerator, self.denominator).max(1);
        Ratio {
            numerator: self.numerator / g,
            denominator: self.denominator / g,
        }
    }

    /// The value as a float (for display; the fraction is the exact value).
    pub fn value(self) -> f64 {
        self.numerator as f64 / self.denominator as f64
    }

    /// The exact mean of a distribution of non-negative values (ticks,
    /// action counts).
    ///
    /// ```
    /// use skirmish_core::dice::Dice;
    /// use skirmish_core::timing::analysis::Ratio;
    /// assert_eq!(Ratio::mean_of(&Dice::D6.distribution()).unwrap().to_string(), "7/2");
    /// assert!(Ratio::mean_of(&Dice::FOUR_DF.distribution()).is_err()); // negative values
    /// ```
    pub fn mean_of(distribution: &Distribution) -> Result<Ratio> {
        let mut sum: u128 = 0;
        for (value, count) in distribution.iter().filter(|&(_, c)| c > 0) {
            let value = u128::try_from(value)
                .map_err(|_| Error::invalid("distribution", format!("has the negative value {value}")))?;
            // Cannot overflow: value < 2^31 and the counts total below 2^64.
            sum += value * u128::from(count);
        }
        Ratio::new(sum, u128::from(distribution.total()))
    }
}

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

impl PartialEq for Ratio {
    fn eq(&self, other: &Self) -> bool {
        let (a, b) = (self.reduced(), other.reduced());
        a.numerator == b.numerator && a.denominator == b.denominator
    }
}

impl Eq for Ratio {}

impl fmt::Display for Ratio {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.numerator, self.denominator)
    }
}

// ---------------------------------------------------------------------------
// Initiative and Ready Time
// ---------------------------------------------------------------------------

/// The exact distribution of the tick a first action lands on:
/// `4dF + 5 + time_taken - speed_bonus`, with totals of 0 or less counting
/// as 1 (their outcomes are merged into tick 1). Simple Rounds, Graduated
/// Rounds and Continuous combat share this roll.
///
/// # Errors
/// [`Error::OutOfRange`] for `time_taken` above [`MAX_TIME_TAKEN`], or a
/// `speed_bonus` so negative that the slowest tick leaves `i32`.
///
/// ```
/// use skirmish_core::timing::analysis::initiative_distribution;
/// let plain = initiative_distribution(0, 0).unwrap();
/// assert_eq!((plain.min(), plain.counts()), (1, &[1, 4, 10, 16, 19, 16, 10, 4, 1][..]));
/// // Madoc casting Spark (TT 0, bonus +2): totals -1, 0 and 1 all land on tick 1.
/// let madoc = initiative_distribution(0, 2).unwrap();
/// assert_eq!((madoc.min(), madoc.counts()), (1, &[15, 16, 19, 16, 10, 4, 1][..]));
/// ```
pub fn initiative_distribution(time_taken: u32, speed_bonus: i32) -> Result<Distribution> {
    landing_distribution(Dice::FOUR_DF, 5, time_taken, speed_bonus)
}

/// The exact distribution of a Ready Time: `2dF + time_taken - speed_bonus`,
/// minimum 1 (lower totals are merged into 1).
///
/// # Errors
/// As [`initiative_distribution`].
///
/// ```
/// use skirmish_core::timing::analysis::ready_time_distribution;
/// // Roland's bow (TT 2, bonus +1): 2dF + 1, so -1 and 0 become 1.
/// let roland = ready_time_distribution(2, 1).unwrap();
/// assert_eq!((roland.min(), roland.counts()), (1, &[6, 2, 1][..]));
/// ```
pub fn ready_time_distribution(time_taken: u32, speed_bonus: i32) -> Result<Distribution> {
    landing_distribution(Dice::TWO_DF, 0, time_taken, speed_bonus)
}

/// `dice + offset + time_taken - speed_bonus`, at least 1, as a distribution.
fn landing_distribution(dice: Dice, offset: i64, time_taken: u32, speed_bonus: i32) -> Result<Distribution> {
    if time_taken > MAX_TIME_TAKEN {
        return Err(Error::out_of_range("time_taken", time_taken, 0, MAX_TIME_TAKEN));
    }
    let base = offset + i64::from(time_taken) - i64::from(speed_bonus);
    if base + i64::from(dice.max()) > LATEST_TICK {
        let lowest_bonus = offset + i64::from(time_taken) + i64::from(dice.max()) - LATEST_TICK;
        return Err(Error::out_of_range("speed_bonus", speed_bonus, lowest_bonus, i32::MAX));
    }
    let outcomes: Vec<(i64, u64)> = dice
        .distribution()
        .iter()
        .map(|(roll, count)| ((base + i64::from(roll)).max(1), count))
        .collect();
    tally(&outcomes)
}

/// A distribution from `(value, count)` pairs over a short range of values;
/// equal values are merged.
fn tally(outcomes: &[(i64, u64)]) -> Result<Distribution> {
    let lo = outcomes.iter().map(|&(v, _)| v).min().unwrap_or(0);
    let hi = outcomes.iter().map(|&(v, _)| v).max().unwrap_or(0);
    let min = i32::try_from(lo).map_err(|_| Error::overflow("distribution", format!("value {lo} leaves i32")))?;
    i32::try_from(hi).map_err(|_| Error::overflow("distribution", format!("value {hi} leaves i32")))?;
    // The callers' ranges are a handful of values (at most 9).
    let mut counts = vec![0u64; usize::try_from(hi - lo + 1).unwrap_or(0)];
    for &(v, c) in outcomes {
        if let Some(slot) = usize::try_from(v - lo).ok().and_then(|i| counts.get_mut(i)) {
            *slot = slot
                .checked_add(c)
                .ok_or_else(|| Error::overflow("distribution", "outcome count exceeds 2^64"))?;
        }
    }
    Distribution::from_counts(min, counts)
}

/// A combatant's first action for [`first_action_order`]: the Time Taken
/// of what it does and its speed bonus (half-values of the relevant traits,
/// already summed).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct FirstAction {
    /// Time Taken (TT) of the action, in ticks.
    pub time_taken: u32,
    /// Speed bonus, subtracted from the initiative (higher is faster).
    pub speed_bonus: i32,
}

/// The exact odds of which of two first actions lands first, over the
/// `81 * 81 = 6561` equally likely rolls of the two initiatives. The three
/// share the denominator 6561 and sum to exactly 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct OrderOdds {
    /// `a` lands on an earlier tick than `b`.
    pub a_first: Probability,
    /// Both land on the same tick: they act at the same instant.
    pub same_tick: Probability,
    /// `b` lands on an earlier tick than `a`.
    pub b_first: Probability,
}

/// The exact odds that `a`'s first action lands before, with, or after
/// `b`'s (lower initiative lands first; equal totals at the same instant;
/// totals of 0 or less count as 1).
///
/// # Errors
/// As [`initiative_distribution`], with the field prefixed `a.` or `b.`.
///
/// ```
/// use skirmish_core::timing::analysis::{first_action_order, FirstAction};
/// // Madoc (Spark, TT 0, bonus +2) against Roland (bow, TT 2, bonus +1).
/// let madoc = FirstAction { time_taken: 0, speed_bonus: 2 };
/// let roland = FirstAction { time_taken: 2, speed_bonus: 1 };
/// let odds = first_action_order(madoc, roland).unwrap();
/// assert_eq!(
///     [odds.a_first, odds.same_tick, odds.b_first].map(|p| p.numerator),
///     [5634, 504, 423]
/// );
/// ```
pub fn first_action_order(a: FirstAction, b: FirstAction) -> Result<OrderOdds> {
    let da = initiative_distribution(a.time_taken, a.speed_bonus).map_err(|e| e.in_field("a"))?;
    let db = initiative_distribution(b.time_taken, b.speed_bonus).map_err(|e| e.in_field("b"))?;
    let (mut a_first, mut same_tick, mut b_first) = (0u64, 0u64, 0u64);
    for (ta, ca) in da.iter() {
        for (tb, cb) in db.iter() {
            // At most 81 * 81 outcomes in all: no overflow.
            let n = ca * cb;
            match ta.cmp(&tb) {
                std::cmp::Ordering::Less => a_first += n,
                std::cmp::Ordering::Equal => same_tick += n,
                std::cmp::Ordering::Greater => b_first += n,
            }
        }
    }
    let denominator = da.total() * db.total();
    Ok(OrderOdds {
        a_first: Probability::new(a_first, denominator)?,
        same_tick: Probability::new(same_tick, denominator)?,
        b_first: Probability::new(b_first, denominator)?,
    })
}

// ---------------------------------------------------------------------------
// FUZION Action Blocks
// ---------------------------------------------------------------------------

/// Actions in a FUZION phase for one roll of the d6:
/// `max(1, floor((reflexes + combat_sense + roll) / 5))`.
///
/// The division floors (toward minus infinity) as the text says ("the total
/// is rounded down"), so a negative Initiative Composite such as -3 gives
/// -1 rather than the 0 that truncation would; either way the minimum of
/// one action applies, so the count is 1 for every composite below 10.
///
/// Combat Sense is "her level in Combat Sense": ranks of a skill, none
/// being 0 (Bob the Plumber "does not have any ranks"), so a negative one
/// is refused. REF, a characteristic, is taken as given: the text plays 2
/// to 8 and sets no floor, and the minimum of one action covers any value.
///
/// # Errors
/// [`Error::OutOfRange`] for a `roll` outside 1..=6 or a `combat_sense`
/// outside 0..=[`MAX_REFLEXES`]; [`Error::Overflow`] if the Initiative
/// Composite leaves `i32`.
///
/// ```
/// use skirmish_core::timing::analysis::actions_for_roll;
/// assert_eq!(actions_for_roll(4, 0, 4).unwrap(), 1); // Bob: composite 8
/// assert_eq!(actions_for_roll(8, 4, 3).unwrap(), 3); // Yuri: composite 15
/// assert_eq!(actions_for_roll(2, 0, 2).unwrap(), 1); // Auntie Em: composite 4
/// assert_eq!(actions_for_roll(-20, 0, 1).unwrap(), 1);
/// ```
pub fn actions_for_roll(reflexes: i32, combat_sense: i32, roll: i32) -> Result<u32> {
    if !(1..=6).contains(&roll) {
        return Err(Error::out_of_range("roll", roll, 1, 6));
    }
    check_combat_sense(combat_sense)?;
    let composite = reflexes
        .checked_add(combat_sense)
        .and_then(|s| s.checked_add(roll))
        .ok_or_else(|| {
            Error::overflow(
                "initiative_composite",
                format!("REF {reflexes} + Combat Sense {combat_sense} + roll {roll} leaves i32"),
            )
        })?;
    Ok(composite.div_euclid(5).max(1).unsigned_abs())
}

/// Combat Sense is a level of skill: 0 (none) up to [`MAX_REFLEXES`]
/// (fuzion-action-blocks.txt: "her level in Combat Sense"; "does not have
/// any ranks").
fn check_combat_sense(combat_sense: i32) -> Result<()> {
    if (0..=MAX_REFLEXES).contains(&combat_sense) {
        Ok(())
    } else {
        Err(Error::out_of_range("combat_sense", combat_sense, 0, MAX_REFLEXES))
    }
}

/// The exact distribution of the number of actions in a FUZION phase, over
/// the six faces of the d6 (counts out of 6); see [`actions_for_roll`].
///
/// # Errors
/// [`Error::OutOfRange`] for a `combat_sense` outside 0..=[`MAX_REFLEXES`];
/// [`Error::Overflow`] if the Initiative Composite leaves `i32` for some face.
///
/// ```
/// use skirmish_core::timing::analysis::actions_per_phase;
/// let bob = actions_per_phase(4, 0).unwrap(); // composites 5..=10
/// assert_eq!((bob.min(), bob.counts()), (1, &[5, 1][..]));
/// ```
pub fn actions_per_phase(reflexes: i32, combat_sense: i32) -> Result<Distribution> {
    let mut outcomes = Vec::with_capacity(6);
    for (roll, count) in Dice::D6.distribution().iter() {
        outcomes.push((i64::from(actions_for_roll(reflexes, combat_sense, roll)?), count));
    }
    tally(&outcomes)
}

/// The exact mean number of actions in a FUZION phase.
///
/// # Errors
/// As [`actions_per_phase`].
///
/// ```
/// use skirmish_core::timing::analysis::actions_per_phase_mean;
/// assert_eq!(actions_per_phase_mean(4, 0).unwrap().to_string(), "7/6"); // Bob
/// ```
pub fn actions_per_phase_mean(reflexes: i32, combat_sense: i32) -> Result<Ratio> {
    Ratio::mean_of(&actions_per_phase(reflexes, combat_sense)?)
}

// ---------------------------------------------------------------------------
// Rate of Fire in Simple Rounds
// ---------------------------------------------------------------------------

/// Attacks round by round over one cycle of a Rate of Fire, with the exact
/// mean per round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RoundAttacks {
    /// The Rate of Fire analysed.
    pub rate_of_fire: RateOfFire,
    /// Extra attacks every round from gear ("Bracers of Archery": 1).
    pub extra_per_round: u32,
    /// Attacks in rounds `1..=k` of use (`k` = the rate's rounds), extras
    /// included; the pattern then repeats.
    pub per_round: Vec<u32>,
    /// Attacks in the whole cycle: `n + k * extra_per_round`.
    pub per_cycle: u64,
    /// Mean attacks per round: `(n + k * extra_per_round) / k`, exact.
    pub mean: Ratio,
}

/// Attacks per round of a weapon with `rate_of_fire` (`n/k`) in Simple
/// Rounds, by the decision of docs/rules.md §1.2:
/// `ceil(r*n/k) - ceil((r-1)*n/k)` in the `r`-th round of use
/// ([`RateOfFire::shots_in_round`]), plus `extra_per_round` from gear
/// such as "Bracers of Archery". The same counts give the actions a
/// Graduated Round allows (see [`graduated_actions`]).
///
/// # Errors
/// [`Error::OutOfRange`] for a cycle longer than [`MAX_CYCLE_ROUNDS`]
/// rounds; [`Error::Overflow`] if a round's attacks leave `u32`.
///
/// ```
/// use skirmish_core::tables::weapons::RateOfFire;
/// use skirmish_core::timing::analysis::attacks_per_round;
/// let crossbow = attacks_per_round(RateOfFire::new(1, 2).unwrap(), 0).unwrap();
/// assert_eq!((crossbow.per_round.as_slice(), crossbow.mean.to_string()), (&[1, 0][..], "1/2".into()));
/// // Roland's short bow (2/1) with Bracers of Archery: 3 a round.
/// let roland = attacks_per_round(RateOfFire::new(2, 1).unwrap(), 1).unwrap();
/// assert_eq!((roland.per_round.as_slice(), roland.mean.to_string()), (&[3][..], "3/1".into()));
/// ```
pub fn attacks_per_round(rate_of_fire: RateOfFire, extra_per_round: u32) -> Result<RoundAttacks> {
    let (n, k) = (rate_of_fire.shots(), rate_of_fire.rounds());
    if k > MAX_CYCLE_ROUNDS {
        return Err(Error::out_of_range("rate_of_fire.rounds", k, 1, MAX_CYCLE_ROUNDS));
    }
    let per_round = (1..=k)
        .map(|r| {
            rate_of_fire
                .shots_in_round(r)
                .checked_add(extra_per_round)
                .ok_or_else(|| {
                    Error::overflow(
                        "extra_per_round",
                        format!("{extra_per_round} extra attacks in a round of {rate_of_fire} leave u32"),
                    )
                })
        })
        .collect::<Result<Vec<u32>>>()?;
    let per_cycle = u64::from(n) + u64::from(k) * u64::from(extra_per_round);
    Ok(RoundAttacks {
        rate_of_fire,
        extra_per_round,
        per_round,
        per_cycle,
        mean: Ratio::new(u128::from(per_cycle), u128::from(k))?,
    })
}

// ---------------------------------------------------------------------------
// Graduated Rounds and Continuous combat
// ---------------------------------------------------------------------------

/// The expected actions of one combatant in ticks `1..=ticks` of
/// Continuous combat.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ContinuousActions {
    /// Ticks analysed: `1..=ticks`.
    pub ticks: u32,
    /// `landing[t - 1]` is the exact probability that one of the
    /// combatant's actions lands on tick `t` (at most one can: a Ready Time
    /// is at least 1).
    pub landing: Vec<Ratio>,
    /// The exact expected number of actions landing in `1..=ticks` (the sum
    /// of [`landing`](Self::landing)).
    pub expected_actions: Ratio,
}

/// The exact expected number of actions a combatant lands in ticks
/// `1..=ticks` of Continuous combat ([`TICKS_PER_ROUND`] for one turn of
/// the stopwatch), repeating one action: the first lands on the initiative
/// tick ([`initiative_distribution`]), each later one a Ready Time
/// ([`ready_time_distribution`]) after the previous.
///
/// Pass the Time Taken for Continuous combat (the heavy crossbow's 12:
/// [`Weapon::time_taken_for(true)`](crate::tables::weapons::Weapon::time_taken_for));
/// Rate of Fire plays no part here.
///
/// Exact by dynamic programming over ticks: with `g_j(t)` the number of
/// outcomes of the initiative and `j - 1` Ready Time rolls that land the
/// `j`-th action on tick `t` (out of `81 * 9^(j-1)`),
/// `g_(j+1)(t) = sum_r g_j(t - r) * count(Ready Time = r)`, and
/// `P(land at t) = sum_j g_j(t) / (81 * 9^(j-1))`, all brought to one
/// denominator `81 * 9^(J-1)` (`J` the most actions that can land) in
/// `u128` arithmetic.
///
/// # Errors
/// As [`initiative_distribution`]; [`Error::OutOfRange`] for `ticks`
/// outside `1..=`[`MAX_TICKS`]; [`Error::Overflow`] when the exact
/// arithmetic leaves `u128`, which happens only when more than 37 actions
/// can land in the stretch (more than 37 ticks for the fastest actions).
///
/// ```
/// use skirmish_core::timing::analysis::{continuous_actions, TICKS_PER_ROUND};
/// // A combatant so fast every roll lands on the next tick: one action a tick.
/// let blur = continuous_actions(0, 20, TICKS_PER_ROUND).unwrap();
/// assert_eq!(blur.expected_actions.to_string(), "20/1");
/// // Cardiff (TT 7, bonus 0) in his first 8 ticks: one action iff 4dF = -4.
/// let cardiff = continuous_actions(7, 0, 8).unwrap();
/// assert_eq!(cardiff.expected_actions.to_string(), "1/81");
/// ```
pub fn continuous_actions(time_taken: u32, speed_bonus: i32, ticks: u32) -> Result<ContinuousActions> {
    check_ticks("ticks", ticks)?;
    let stages = LandingStages::new(time_taken, speed_bonus, ticks, u32::MAX)?;
    let denominator = stages.denominator()?;
    let mut landing = Vec::with_capacity(stages.ticks);
    let mut expected: u128 = 0;
    for t in 0..stages.ticks {
        let mut on_tick: u128 = 0;
        for j in 0..stages.per_action.len() {
            let scaled = stages.scaled(j, t)?;
            on_tick = on_tick.checked_add(scaled).ok_or_else(too_many_outcomes)?;
        }
        expected = expected.checked_add(on_tick).ok_or_else(too_many_outcomes)?;
        landing.push(Ratio::new(on_tick, denominator)?);
    }
    Ok(ContinuousActions {
        ticks,
        landing,
        expected_actions: Ratio::new(expected, denominator)?,
    })
}

/// How many of a round's allowed actions land inside a Graduated Round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GraduatedActions {
    /// Actions the combatant is allowed this round.
    pub actions_allowed: u32,
    /// Ticks in the round.
    pub ticks_per_round: u32,
    /// The exact distribution of the number of actions that land on ticks
    /// `1..=ticks_per_round` (leading and trailing impossible counts
    /// trimmed); its counts are out of `81 * 9^m`, `m` the Ready Time rolls
    /// that can matter.
    pub landed: Distribution,
    /// The exact mean number of actions that land.
    pub mean: Ratio,
}

/// The exact distribution of how many of `actions_allowed` actions land
/// within a Graduated Round of `ticks_per_round` ticks ([`TICKS_PER_ROUND`]
/// by default) under the **Lose** policy: the first lands on the initiative
/// tick, each later one a Ready Time after the previous, and any that would
/// land past the last tick is lost, and so are all after it.
///
/// Under Lose a first action whose initiative is past the end of the round
/// is lost too (a TT 14 flintlock can roll 23), so 0 actions is possible.
/// The allowed actions come from the Rate of Fire
/// ([`RateOfFire::shots_in_round`], plus gear; see [`attacks_per_round`]),
/// and 0 is one of them: a weapon of RoF 1/2 fires in rounds 1, 3, 5...
/// (docs/rules.md §1.2), so in round 2 nothing lands, a mean of 0.
///
/// # Errors
/// As [`initiative_distribution`]; [`Error::OutOfRange`] for
/// `ticks_per_round` outside `1..=`[`MAX_TICKS`]; [`Error::Overflow`] when
/// more than 18 Ready Time rolls matter (the counts would leave `u64`).
///
/// ```
/// use skirmish_core::timing::analysis::{graduated_actions, TICKS_PER_ROUND};
/// // A flintlock (TT 14, 1/2): 4dF + 19 lands past tick 20 on 4dF >= +2.
/// let flintlock = graduated_actions(14, 0, 1, TICKS_PER_ROUND).unwrap();
/// assert_eq!(flintlock.landed.probability(0).numerator, 15);
/// assert_eq!(flintlock.mean.to_string(), "22/27");
/// ```
pub fn graduated_actions(
    time_taken: u32,
    speed_bonus: i32,
    actions_allowed: u32,
    ticks_per_round: u32,
) -> Result<GraduatedActions> {
    check_ticks("ticks_per_round", ticks_per_round)?;
    let stages = LandingStages::new(time_taken, speed_bonus, ticks_per_round, actions_allowed)?;
    let landed = if stages.per_action.is_empty() {
        Distribution::constant(0)
    } else {
        let denominator = u64::try_from(stages.denominator()?).map_err(|_| {
            Error::overflow(
                "actions_allowed",
                format!(
                    "{} Ready Time rolls can matter; exact counts need at most 18",
                    stages.per_action.len() - 1
                ),
            )
        })?;
        // at_least[c]: outcomes in which at least c actions land.
        let mut at_least = vec![u128::from(denominator)];
        for j in 0..stages.per_action.len() {
            let mut landed: u128 = 0;
            for t in 0..stages.ticks {
                landed = landed.checked_add(stages.scaled(j, t)?).ok_or_else(too_many_outcomes)?;
            }
            at_least.push(landed);
        }
        at_least.push(0);
        let counts = at_least
            .windows(2)
            .map(|w| u64::try_from(w[0].saturating_sub(w[1])).map_err(|_| too_many_outcomes()))
            .collect::<Result<Vec<u64>>>()?;
        trimmed(counts)?
    };
    let mean = Ratio::mean_of(&landed)?;
    Ok(GraduatedActions {
        actions_allowed,
        ticks_per_round,
        landed,
        mean,
    })
}

fn check_ticks(field: &str, ticks: u32) -> Result<()> {
    if (1..=MAX_TICKS).contains(&ticks) {
        Ok(())
    } else {
        Err(Error::out_of_range(field, ticks, 1, MAX_TICKS))
    }
}

fn too_many_outcomes() -> Error {
    Error::overflow("ticks", "exact outcome counts leave u128; analyse fewer ticks")
}

/// A distribution of counts `0..` without its leading and trailing zeros.
fn trimmed(counts: Vec<u64>) -> Result<Distribution> {
    let first = counts.iter().position(|&c| c > 0).unwrap_or(0);
    let last = counts.iter().rposition(|&c| c > 0).unwrap_or(0);
    let min = i32::try_from(first).map_err(|_| Error::overflow("distribution", "too many values"))?;
    Distribution::from_counts(min, counts.get(first..=last).unwrap_or_default().to_vec())
}

/// For each action `j` (0-based), the outcome counts that land it on each
/// tick `0..ticks` (tick `t + 1`), out of `81 * 9^j`.
struct LandingStages {
    ticks: usize,
    per_action: Vec<Vec<u128>>,
}

impl LandingStages {
    /// The stages for up to `max_actions` actions, stopping at the first
    /// action that can no longer land within `ticks`.
    fn new(time_taken: u32, speed_bonus: i32, ticks: u32, max_actions: u32) -> Result<LandingStages> {
        let initiative = initiative_distribution(time_taken, speed_bonus)?;
        let ready = ready_time_distribution(time_taken, speed_bonus)?;
        let ticks = usize::try_from(ticks).map_err(|_| Error::out_of_range("ticks", ticks, 1, MAX_TICKS))?;
        let tick_of = |t: usize| i32::try_from(t + 1).unwrap_or(i32::MAX);
        let mut per_action: Vec<Vec<u128>> = Vec::new();
        if max_actions == 0 {
            return Ok(LandingStages { ticks, per_action });
        }
        per_action.push((0..ticks).map(|t| u128::from(initiative.count(tick_of(t)))).collect());
        while u32::try_from(per_action.len()).is_ok_and(|n| n < max_actions) {
            let Some(previous) = per_action.last() else { break };
            let mut next = vec![0u128; ticks];
            for (s, &ways) in previous.iter().enumerate().filter(|&(_, &w)| w > 0) {
                for (r, count) in ready.iter() {
                    // Ready Times are at least 1, so r - 1 is an offset.
                    let Some(slot) = usize::try_from(r - 1).ok().and_then(|d| next.get_mut(s + 1 + d)) else {
                        continue;
                    };
                    let add = ways.checked_mul(u128::from(count)).ok_or_else(too_many_outcomes)?;
                    *slot = slot.checked_add(add).ok_or_else(too_many_outcomes)?;
                }
            }
            if next.iter().all(|&w| w == 0) {
                break;
            }
            per_action.push(next);
        }
        Ok(LandingStages { ticks, per_action })
    }

    /// `81 * 9^(J-1)`, the common denominator for `J` actions.
    fn denominator(&self) -> Result<u128> {
        let rolls = u32::try_from(self.per_action.len().saturating_sub(1)).map_err(|_| too_many_outcomes())?;
        9u128
            .checked_pow(rolls)
            .and_then(|p| p.checked_mul(81))
            .ok_or_else(too_many_outcomes)
    }

    /// Action `j`'s outcome count on tick index `t`, scaled to the common
    /// denominator.
    fn scaled(&self, j: usize, t: usize) -> Result<u128> {
        let ways = self.per_action.get(j).and_then(|a| a.get(t)).copied().unwrap_or(0);
        let missing_rolls = u32::try_from(self.per_action.len() - 1 - j).map_err(|_| too_many_outcomes())?;
        9u128
            .checked_pow(missing_rolls)
            .and_then(|p| p.checked_mul(ways))
            .ok_or_else(too_many_outcomes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floor_of_negative_composites() {
        // floor(-3 / 5) = -1 (truncation would say 0): still one action.
        assert_eq!((-3i32).div_euclid(5), -1);
        assert_eq!(actions_for_roll(-9, 0, 6).unwrap(), 1);
        assert_eq!(actions_for_roll(i32::MIN, 0, 1).unwrap(), 1);
        assert!(matches!(actions_for_roll(i32::MAX, 0, 1), Err(Error::Overflow { .. })));
        // Combat Sense is a level of skill: a negative one is refused first.
        assert!(matches!(
            actions_for_roll(i32::MIN, -1, 1),
            Err(Error::OutOfRange { .. })
        ));
    }

    #[test]
    fn stages_stop_when_nothing_more_can_land() {
        // Cardiff (TT 7): initiative 8..=16, Ready Time 5..=9; in 20 ticks at
        // most 3 actions (8 + 5 + 5 = 18; a 4th would need tick 23).
        let s = LandingStages::new(7, 0, 20, u32::MAX).unwrap();
        assert_eq!(s.per_action.len(), 3);
        assert_eq!(s.denominator().unwrap(), 81 * 81);
    }
}
