//! Dice: Fudge dice (`NdF`), plain `NdN`, exact distributions, and the
//! **roll sources** every rule takes its dice from (docs/rules.md §0).
//!
//! A rule never rolls on its own: it asks a [`RollSource`] for a [`Dice`]
//! roll. Two sources ship:
//!
//! - [`SeededRolls`]: a seeded, portable generator (PCG `pcg64_fast`, i.e.
//!   [`rand_pcg::Pcg64Mcg`], documented by its crate as portable and tested
//!   against reference vectors). The mapping from its 64-bit outputs to dice
//!   is defined here and pinned by golden tests, so a seed gives the same
//!   rolls on every platform and in every release of this crate.
//! - [`ScriptedRolls`]: plays back rolls a caller supplies (real dice at the
//!   table, the worked examples of the texts), each checked against the dice
//!   it is used for.
//!
//! # Reproducibility contract
//!
//! For a given seed, [`SeededRolls`] yields the same sequence of results for
//! the same sequence of [`Dice`] requests. The algorithm:
//!
//! 1. The seed `s` is expanded with SplitMix64 into two words `a`, `b`; the
//!    generator state is `(b << 64) | a` (made odd by the generator).
//! 2. A uniform integer below `n` is Lemire's multiply-and-reject method on
//!    one `next_u64` (redrawn only on the rare rejection).
//! 3. `NdF` draws one uniform integer below `3^k` per group of up to
//!    `k = 40` dice and reads its base-3 digits as dice (digit `d` shows
//!    `d - 1`), so `4dF` costs one 64-bit draw.
//! 4. `NdS` draws one uniform integer below `S` per die, plus one.
//! 5. [`SeededRolls::action_dice`], the dice of one Full Contact action in a
//!    battle, reads one `next_u64` as two 32-bit halves: the high half picks
//!    the target (a uniform integer below the number of candidates), the low
//!    half a uniform integer `u` below 729 = 81 x 9, whose base-3 digits are
//!    the Strike roll's four dice (`u / 9`, as in step 3) and the Ready Time's
//!    two dice (`u % 9`). Each half is Lemire's method on 32 bits; a half
//!    that is rejected (probability below `n / 2^32`) is replaced by the
//!    same half of a fresh `next_u64`, so both values are exactly uniform
//!    and independent.
//!
//! Changing any of this is a breaking change and fails the golden tests.

use std::fmt;
use std::str::FromStr;

use rand_core::Rng;
use rand_pcg::Pcg64Mcg;
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// Most dice of one kind in a single roll.
///
/// `40dF` has `3^40` outcomes, the most whose count fits in a `u64`; plain
/// dice are further limited so that `sides^count` fits in a `u64`.
pub const MAX_DICE: u32 = 40;

/// Most sides a plain die may have.
pub const MAX_SIDES: u32 = 1_000_000;

/// What to roll: `NdF` (Fudge dice) or `NdS` (plain dice).
///
/// Build with [`Dice::fudge`], [`Dice::standard`] or parse `"4dF"`,
/// `"1d20"`, `"d6"`; all of them check the counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum Dice {
    /// `count` Fudge dice, each -1, 0 or +1.
    Fudge {
        /// Number of dice, 1..=[`MAX_DICE`].
        count: u32,
    },
    /// `count` dice numbered 1..=`sides`.
    Standard {
        /// Number of dice, 1..=[`MAX_DICE`].
        count: u32,
        /// Sides per die, 1..=[`MAX_SIDES`].
        sides: u32,
    },
}

impl Dice {
    /// `4dF`: the strike roll, initiative and the FUDGE trait roll.
    pub const FOUR_DF: Dice = Dice::Fudge { count: 4 };
    /// `2dF`: Ready Time and the FUDGE group roll.
    pub const TWO_DF: Dice = Dice::Fudge { count: 2 };
    /// `1d6`: FUZION's initiative die.
    pub const D6: Dice = Dice::Standard { count: 1, sides: 6 };
    /// `1d20`: the Tick System's default initiative die.
    pub const D20: Dice = Dice::Standard { count: 1, sides: 20 };

    /// `count` Fudge dice; `count` must be 1..=[`MAX_DICE`].
    pub fn fudge(count: u32) -> Result<Dice> {
        check_count(count)?;
        Ok(Dice::Fudge { count })
    }

    /// `count` dice of `sides` sides; both checked, and `sides^count` must
    /// fit in a `u64` so the exact distribution can be counted.
    pub fn standard(count: u32, sides: u32) -> Result<Dice> {
        check_count(count)?;
        if !(1..=MAX_SIDES).contains(&sides) {
            return Err(Error::out_of_range("dice.sides", sides, 1, MAX_SIDES));
        }
        if u64::from(sides).checked_pow(count).is_none() {
            return Err(Error::invalid(
                "dice",
                format!("{count}d{sides} has {sides}^{count} outcomes, more than can be counted exactly (2^64)"),
            ));
        }
        Ok(Dice::Standard { count, sides })
    }

    /// Number of dice.
    pub fn count(self) -> u32 {
        match self {
            Dice::Fudge { count } | Dice::Standard { count, .. } => count,
        }
    }

    /// Smallest total these dice can show.
    pub fn min(self) -> i32 {
        match self {
            Dice::Fudge { count } => -(count as i32),
            Dice::Standard { count, .. } => count as i32,
        }
    }

    /// Largest total these dice can show.
    pub fn max(self) -> i32 {
        match self {
            Dice::Fudge { count } => count as i32,
            Dice::Standard { count, sides } => (count * sides) as i32,
        }
    }

    /// Whether `value` is a total these dice can show.
    pub fn can_show(self, value: i32) -> bool {
        (self.min()..=self.max()).contains(&value)
    }

    /// The exact distribution of the total, as integer counts.
    pub fn distribution(self) -> Distribution {
        Distribution::of(self)
    }

    /// Checks a hand-built value (the fields are public) against the same
    /// limits as the constructors.
    pub fn validate(self) -> Result<Dice> {
        match self {
            Dice::Fudge { count } => Dice::fudge(count),
            Dice::Standard { count, sides } => Dice::standard(count, sides),
        }
    }
}

fn check_count(count: u32) -> Result<()> {
    if (1..=MAX_DICE).contains(&count) {
        Ok(())
    } else {
        Err(Error::out_of_range("dice.count", count, 1, MAX_DICE))
    }
}

impl fmt::Display for Dice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Dice::Fudge { count } => write!(f, "{count}dF"),
            Dice::Standard { count, sides } => write!(f, "{count}d{sides}"),
        }
    }
}

impl FromStr for Dice {
    type Err = Error;

    /// Parses `"4dF"`, `"4df"`, `"dF"`, `"1d20"`, `"d6"` (case and spaces
    /// ignored).
    fn from_str(s: &str) -> Result<Dice> {
        let cleaned: String = s
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect::<String>()
            .to_lowercase();
        let bad = || Error::invalid("dice", format!("{s:?} is not dice notation like \"4dF\" or \"1d20\""));
        let (count, kind) = cleaned.split_once('d').ok_or_else(bad)?;
        let count: u32 = if count.is_empty() {
            1
        } else {
            count.parse().map_err(|_| bad())?
        };
        if kind == "f" {
            Dice::fudge(count)
        } else {
            let sides: u32 = kind.parse().map_err(|_| bad())?;
            Dice::standard(count, sides)
        }
    }
}

impl TryFrom<String> for Dice {
    type Error = Error;
    fn try_from(s: String) -> Result<Dice> {
        s.parse()
    }
}

impl From<Dice> for String {
    fn from(d: Dice) -> String {
        d.to_string()
    }
}

// ---------------------------------------------------------------------------
// Exact distributions

/// An exact probability: `numerator / denominator` as integer counts of
/// equally likely outcomes (e.g. `65/81` for a 4dF event).
///
/// Kept unreduced, so it reads as "so many of the 81 rolls"; equality
/// compares values (`2/4 == 1/2`).
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
pub struct Probability {
    /// Favourable outcomes.
    pub numerator: u64,
    /// All outcomes (never zero).
    pub denominator: u64,
}

impl Probability {
    /// `numerator / denominator`; the denominator must be positive and not
    /// below the numerator.
    pub fn new(numerator: u64, denominator: u64) -> Result<Probability> {
        if denominator == 0 {
            return Err(Error::invalid("probability.denominator", "must be positive"));
        }
        if numerator > denominator {
            return Err(Error::invalid(
                "probability.numerator",
                format!("{numerator} is more than the denominator {denominator}"),
            ));
        }
        Ok(Probability { numerator, denominator })
    }

    /// Certain failure, `0/1`.
    pub const ZERO: Probability = Probability {
        numerator: 0,
        denominator: 1,
    };
    /// Certainty, `1/1`.
    pub const ONE: Probability = Probability {
        numerator: 1,
        denominator: 1,
    };

    /// The value as a float.
    pub fn value(self) -> f64 {
        self.numerator as f64 / self.denominator as f64
    }

    /// The same probability in lowest terms.
    pub fn reduced(self) -> Probability {
        let g = gcd(self.numerator, self.denominator).max(1);
        Probability {
            numerator: self.numerator / g,
            denominator: self.denominator / g,
        }
    }

    /// `1 - self`.
    pub fn complement(self) -> Probability {
        Probability {
            numerator: self.denominator - self.numerator,
            denominator: self.denominator,
        }
    }
}

fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

impl PartialEq for Probability {
    fn eq(&self, other: &Self) -> bool {
        u128::from(self.numerator) * u128::from(other.denominator)
            == u128::from(other.numerator) * u128::from(self.denominator)
    }
}

impl Eq for Probability {}

impl PartialOrd for Probability {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Probability {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        (u128::from(self.numerator) * u128::from(other.denominator))
            .cmp(&(u128::from(other.numerator) * u128::from(self.denominator)))
    }
}

impl fmt::Display for Probability {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}/{} ({:.2}%)",
            self.numerator,
            self.denominator,
            100.0 * self.value()
        )
    }
}

/// The exact distribution of an integer total: `counts[i]` equally likely
/// outcomes give `min + i`.
///
/// ```
/// use skirmish_core::dice::Dice;
/// let d = Dice::FOUR_DF.distribution();
/// assert_eq!(d.counts(), &[1, 4, 10, 16, 19, 16, 10, 4, 1]);
/// assert_eq!(d.total(), 81);
/// assert_eq!(d.probability_where(|v| v >= 2).to_string(), "15/81 (18.52%)");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Distribution {
    min: i32,
    counts: Vec<u64>,
}

impl Distribution {
    /// The distribution of a roll of `dice`.
    pub fn of(dice: Dice) -> Distribution {
        let (faces_min, faces, count) = match dice {
            Dice::Fudge { count } => (-1, 3, count),
            Dice::Standard { count, sides } => (1, sides, count),
        };
        let one = Distribution {
            min: faces_min,
            counts: vec![1; faces as usize],
        };
        let mut acc = one.clone();
        for _ in 1..count {
            // Cannot overflow: the constructors keep faces^count within u64.
            acc = acc.convolve_unchecked(&one);
        }
        acc
    }

    /// A distribution from its smallest value and the counts from there up;
    /// trailing and leading zero counts are kept as given. At least one
    /// count must be positive and the total must fit in a `u64`.
    pub fn from_counts(min: i32, counts: Vec<u64>) -> Result<Distribution> {
        let mut total: u64 = 0;
        for &c in &counts {
            total = total
                .checked_add(c)
                .ok_or_else(|| Error::overflow("distribution.counts", "total outcomes exceed 2^64"))?;
        }
        if total == 0 {
            return Err(Error::invalid("distribution.counts", "needs at least one outcome"));
        }
        if i32::try_from(counts.len())
            .ok()
            .and_then(|n| min.checked_add(n))
            .is_none()
        {
            return Err(Error::overflow("distribution.min", "largest value exceeds i32"));
        }
        Ok(Distribution { min, counts })
    }

    /// A single certain value.
    pub fn constant(value: i32) -> Distribution {
        Distribution {
            min: value,
            counts: vec![1],
        }
    }

    /// Smallest value with a count (as stored).
    pub fn min(&self) -> i32 {
        self.min
    }

    /// Largest value (as stored).
    pub fn max(&self) -> i32 {
        self.min + self.counts.len() as i32 - 1
    }

    /// The counts from [`min`](Self::min) up.
    pub fn counts(&self) -> &[u64] {
        &self.counts
    }

    /// Number of equally likely outcomes.
    pub fn total(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// How many outcomes give exactly `value`.
    pub fn count(&self, value: i32) -> u64 {
        let i = i64::from(value) - i64::from(self.min);
        usize::try_from(i)
            .ok()
            .and_then(|i| self.counts.get(i))
            .copied()
            .unwrap_or(0)
    }

    /// `(value, count)` pairs from the smallest value up.
    pub fn iter(&self) -> impl Iterator<Item = (i32, u64)> + '_ {
        self.counts.iter().enumerate().map(|(i, &c)| (self.min + i as i32, c))
    }

    /// How many outcomes satisfy `pred`.
    pub fn count_where(&self, mut pred: impl FnMut(i32) -> bool) -> u64 {
        self.iter().filter(|&(v, _)| pred(v)).map(|(_, c)| c).sum()
    }

    /// Probability of exactly `value`.
    pub fn probability(&self, value: i32) -> Probability {
        Probability {
            numerator: self.count(value),
            denominator: self.total(),
        }
    }

    /// Probability that the value satisfies `pred`.
    pub fn probability_where(&self, pred: impl FnMut(i32) -> bool) -> Probability {
        Probability {
            numerator: self.count_where(pred),
            denominator: self.total(),
        }
    }

    /// The mean value.
    pub fn mean(&self) -> f64 {
        let total = self.total() as f64;
        self.iter().map(|(v, c)| f64::from(v) * c as f64).sum::<f64>() / total
    }

    /// The same distribution moved by `offset` (overflow is an error).
    pub fn shifted(&self, offset: i32) -> Result<Distribution> {
        let min = self
            .min
            .checked_add(offset)
            .filter(|m| m.checked_add(self.counts.len() as i32).is_some())
            .ok_or_else(|| Error::overflow("distribution", format!("shifting by {offset}")))?;
        Ok(Distribution {
            min,
            counts: self.counts.clone(),
        })
    }

    /// The distribution of `f(value)`; outcomes that map to the same value
    /// are merged.
    pub fn map(&self, mut f: impl FnMut(i32) -> i32) -> Distribution {
        let mapped: Vec<(i32, u64)> = self.iter().filter(|&(_, c)| c > 0).map(|(v, c)| (f(v), c)).collect();
        let lo = mapped.iter().map(|&(v, _)| v).min().unwrap_or(0);
        let hi = mapped.iter().map(|&(v, _)| v).max().unwrap_or(0);
        let mut counts = vec![0u64; (i64::from(hi) - i64::from(lo) + 1) as usize];
        for (v, c) in mapped {
            counts[(v - lo) as usize] += c;
        }
        Distribution { min: lo, counts }
    }

    /// The distribution of the sum of two independent values; an error if
    /// the number of outcomes overflows.
    pub fn convolve(&self, other: &Distribution) -> Result<Distribution> {
        self.total()
            .checked_mul(other.total())
            .ok_or_else(|| Error::overflow("distribution", "outcome count of the sum exceeds 2^64"))?;
        self.min
            .checked_add(other.min)
            .and_then(|_| self.max().checked_add(other.max()))
            .ok_or_else(|| Error::overflow("distribution", "values of the sum exceed i32"))?;
        Ok(self.convolve_unchecked(other))
    }

    fn convolve_unchecked(&self, other: &Distribution) -> Distribution {
        let mut counts = vec![0u64; self.counts.len() + other.counts.len() - 1];
        for (i, &a) in self.counts.iter().enumerate() {
            for (j, &b) in other.counts.iter().enumerate() {
                counts[i + j] += a * b;
            }
        }
        Distribution {
            min: self.min + other.min,
            counts,
        }
    }
}

// ---------------------------------------------------------------------------
// Roll sources

/// Where a rule gets its dice: a seeded generator, or rolls the caller
/// supplies. Every rule that rolls takes one.
pub trait RollSource {
    /// The total of one roll of `dice`.
    ///
    /// # Errors
    /// A scripted source whose next roll does not fit `dice`, or that has
    /// run out, returns an error and consumes nothing.
    fn roll(&mut self, dice: Dice) -> Result<i32>;
}

impl<R: RollSource + ?Sized> RollSource for &mut R {
    fn roll(&mut self, dice: Dice) -> Result<i32> {
        (**self).roll(dice)
    }
}

/// Precomputed base-3 digit sums for up to four Fudge dice: entry `u`
/// (below 81) is the total shown by the four dice whose faces are the base-3
/// digits of `u`, each minus one.
const FUDGE4_TABLE: [i8; 81] = {
    let mut t = [0i8; 81];
    let mut u = 0;
    while u < 81 {
        let mut v = u;
        let mut s = 0i8;
        let mut k = 0;
        while k < 4 {
            s += (v % 3) as i8 - 1;
            v /= 3;
            k += 1;
        }
        t[u] = s;
        u += 1;
    }
    t
};

/// Entry `u` (below 9) is the total shown by two Fudge dice whose faces are
/// the base-3 digits of `u`, each minus one: what [`SeededRolls::fudge`]
/// reads from the same draw.
const FUDGE2_TABLE: [i8; 9] = [-2, -1, 0, -1, 0, 1, 0, 1, 2];

/// Entry `u` (below 729) packs the Strike roll and the Ready Time roll of
/// [`SeededRolls::action_dice`]: `4dF + 4` of `u / 9` in the low nibble,
/// `2dF + 2` of `u % 9` in the high one. Padded to 1,024 entries so that a
/// masked index needs no bounds check (the padding is never read).
const ACTION_TABLE: [u8; 1024] = {
    let mut t = [0u8; 1024];
    let mut u = 0;
    while u < 729 {
        let strike = (FUDGE4_TABLE[u / 9] + 4) as u8;
        let ready = (FUDGE2_TABLE[u % 9] + 2) as u8;
        t[u] = strike | ready << 4;
        u += 1;
    }
    t
};

/// The dice of one Full Contact action in a battle, drawn together by
/// [`SeededRolls::action_dice`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ActionDice {
    /// A uniform index below the number of candidate targets.
    pub target: u32,
    /// The Strike roll, `4dF` (-4..=4).
    pub strike: i32,
    /// The roll of the action's follow-up Ready Time, `2dF` (-2..=2), for
    /// the timing systems that take one (Continuous).
    pub ready: i32,
}

/// The seeded, portable roll source (see the module's reproducibility
/// contract).
///
/// Serializes (serde) to its exact generator state, so a saved game resumes
/// with the very next roll it would have made.
///
/// ```
/// use skirmish_core::dice::{Dice, RollSource, SeededRolls};
/// let mut a = SeededRolls::new(42);
/// let mut b = SeededRolls::new(42);
/// let ra: Vec<i32> = (0..5).map(|_| a.four_df()).collect();
/// let rb: Vec<i32> = (0..5).map(|_| b.roll(Dice::FOUR_DF).unwrap()).collect();
/// assert_eq!(ra, rb);
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct SeededRolls {
    rng: Pcg64Mcg,
}

impl fmt::Debug for SeededRolls {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SeededRolls {{ state: {:#034x} }}", self.rng.state())
    }
}

/// SplitMix64 (Steele, Lea, Flood 2014): a fixed, documented mixer used to
/// turn seeds into generator states.
#[inline]
fn splitmix64(x: &mut u64) -> u64 {
    *x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *x;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl SeededRolls {
    /// A source seeded with `seed`.
    pub fn new(seed: u64) -> SeededRolls {
        let mut x = seed;
        let lo = splitmix64(&mut x);
        let hi = splitmix64(&mut x);
        SeededRolls {
            rng: Pcg64Mcg::new((u128::from(hi) << 64) | u128::from(lo)),
        }
    }

    /// The independent stream number `index` of master seed `seed`: what a
    /// simulation gives battle `index`, so results do not depend on which
    /// thread ran which battle.
    pub fn for_stream(seed: u64, index: u64) -> SeededRolls {
        let mut x = seed;
        let a = splitmix64(&mut x);
        let mut y = index ^ a;
        let _ = splitmix64(&mut y);
        SeededRolls::new(splitmix64(&mut y) ^ a.rotate_left(17))
    }

    /// The exact generator state (always odd).
    pub fn state(&self) -> u128 {
        self.rng.state()
    }

    /// A source resumed from a [`state`](Self::state); an even value is
    /// not a state the generator can be in and is refused.
    pub fn from_state(state: u128) -> Result<SeededRolls> {
        if state & 1 == 0 {
            return Err(Error::invalid("rng.state", "a pcg64_fast state is always odd"));
        }
        Ok(SeededRolls {
            rng: Pcg64Mcg::new(state),
        })
    }

    /// A uniform integer in `0..n` (`n >= 1`), by Lemire's method.
    #[inline]
    pub fn below(&mut self, n: u64) -> u64 {
        debug_assert!(n > 0);
        let mut m = u128::from(self.rng.next_u64()) * u128::from(n);
        if (m as u64) < n {
            let threshold = n.wrapping_neg() % n;
            while (m as u64) < threshold {
                m = u128::from(self.rng.next_u64()) * u128::from(n);
            }
        }
        (m >> 64) as u64
    }

    /// The dice of one Full Contact action in a battle: a target among
    /// `targets` candidates (`targets >= 1`; 0 is taken as 1), the Strike
    /// roll and the follow-up's Ready Time roll, all from one 64-bit draw
    /// (the reproducibility contract's step 5).
    ///
    /// ```
    /// use skirmish_core::dice::SeededRolls;
    /// let mut rolls = SeededRolls::new(7);
    /// let dice = rolls.action_dice(10);
    /// assert!(dice.target < 10 && (-4..=4).contains(&dice.strike) && (-2..=2).contains(&dice.ready));
    /// ```
    #[inline]
    pub fn action_dice(&mut self, targets: u32) -> ActionDice {
        let n = targets.max(1);
        let x = self.rng.next_u64();
        let mut m = (x >> 32) * u64::from(n);
        if (m as u32) < n {
            m = self.reject_high(m, n);
        }
        let mut d = (x & 0xFFFF_FFFF) * 729;
        if (d as u32) < 729 {
            d = self.reject_low(d);
        }
        let packed = ACTION_TABLE[(d >> 32) as usize & 1023];
        ActionDice {
            target: (m >> 32) as u32,
            strike: i32::from(packed & 15) - 4,
            ready: i32::from(packed >> 4) - 2,
        }
    }

    /// Lemire's rejection for [`action_dice`](Self::action_dice)'s target:
    /// `m` is the high half times `n`; redraws high halves while rejected.
    #[cold]
    #[inline(never)]
    fn reject_high(&mut self, mut m: u64, n: u32) -> u64 {
        let threshold = n.wrapping_neg() % n;
        while (m as u32) < threshold {
            m = (self.rng.next_u64() >> 32) * u64::from(n);
        }
        m
    }

    /// The same for the dice half (below 729), on low halves.
    #[cold]
    #[inline(never)]
    fn reject_low(&mut self, mut d: u64) -> u64 {
        let threshold = 729u32.wrapping_neg() % 729;
        while (d as u32) < threshold {
            d = (self.rng.next_u64() & 0xFFFF_FFFF) * 729;
        }
        d
    }

    /// One roll of `4dF` (the most common roll, one 64-bit draw).
    #[inline]
    pub fn four_df(&mut self) -> i32 {
        i32::from(FUDGE4_TABLE[self.below(81) as usize])
    }

    /// One roll of `2dF` (Ready Times, the FUDGE group roll): the same
    /// draw and the same value as `fudge(2)`, by table.
    #[inline]
    pub fn two_df(&mut self) -> i32 {
        i32::from(FUDGE2_TABLE[self.below(9) as usize])
    }

    /// One roll of `count` Fudge dice; `count` is not checked here (use
    /// [`RollSource::roll`] for checked dice).
    #[inline]
    pub fn fudge(&mut self, count: u32) -> i32 {
        match count {
            4 => self.four_df(),
            2 => self.two_df(),
            _ => self.fudge_by_digits(count),
        }
    }

    /// `count` Fudge dice read digit by digit from one draw per 40 dice
    /// (the reproducibility contract's step 3; the tables agree with it).
    fn fudge_by_digits(&mut self, count: u32) -> i32 {
        let mut left = count;
        let mut total = 0i32;
        while left > 0 {
            let k = left.min(MAX_DICE);
            let mut u = self.below(3u64.pow(k));
            for _ in 0..k {
                total += (u % 3) as i32 - 1;
                u /= 3;
            }
            left -= k;
        }
        total
    }

    /// One roll of `count` dice of `sides` sides (unchecked; `sides >= 1`).
    #[inline]
    pub fn standard(&mut self, count: u32, sides: u32) -> i32 {
        (0..count).map(|_| self.below(u64::from(sides)) as i32 + 1).sum()
    }

    /// The next raw 64-bit output of the generator.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.rng.next_u64()
    }
}

impl RollSource for SeededRolls {
    #[inline]
    fn roll(&mut self, dice: Dice) -> Result<i32> {
        Ok(match dice.validate()? {
            Dice::Fudge { count } => self.fudge(count),
            Dice::Standard { count, sides } => self.standard(count, sides),
        })
    }
}

#[derive(Serialize, Deserialize)]
struct SeededRollsRepr {
    /// The `pcg64_fast` state as 32 hex digits (JSON numbers cannot hold 128 bits portably).
    pcg64_fast_state: String,
}

impl Serialize for SeededRolls {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        SeededRollsRepr {
            pcg64_fast_state: format!("{:032x}", self.state()),
        }
        .serialize(s)
    }
}

impl<'de> Deserialize<'de> for SeededRolls {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        let repr = SeededRollsRepr::deserialize(d)?;
        let state = u128::from_str_radix(&repr.pcg64_fast_state, 16)
            .map_err(|e| serde::de::Error::custom(format!("pcg64_fast_state: {e}")))?;
        SeededRolls::from_state(state).map_err(serde::de::Error::custom)
    }
}

/// Plays back rolls the caller supplies, in order, each checked against
/// the dice the rule asks for.
///
/// ```
/// use skirmish_core::dice::{Dice, RollSource, ScriptedRolls};
/// let mut table = ScriptedRolls::new([-1, 2]);
/// assert_eq!(table.roll(Dice::FOUR_DF).unwrap(), -1);
/// // A 4dF total of 2 cannot be a d6 roll below 1... but 2 is a fine d6:
/// assert_eq!(table.roll(Dice::D6).unwrap(), 2);
/// assert!(table.roll(Dice::FOUR_DF).is_err()); // ran out
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScriptedRolls {
    rolls: Vec<i32>,
    next: usize,
}

impl ScriptedRolls {
    /// A script of `rolls`, played in order.
    pub fn new(rolls: impl IntoIterator<Item = i32>) -> ScriptedRolls {
        ScriptedRolls {
            rolls: rolls.into_iter().collect(),
            next: 0,
        }
    }

    /// Adds a roll at the end of the script.
    pub fn push(&mut self, roll: i32) {
        self.rolls.push(roll);
    }

    /// The rolls not yet used.
    pub fn remaining(&self) -> &[i32] {
        &self.rolls[self.next..]
    }

    /// How many rolls have been used.
    pub fn used(&self) -> usize {
        self.next
    }
}

impl RollSource for ScriptedRolls {
    fn roll(&mut self, dice: Dice) -> Result<i32> {
        let dice = dice.validate()?;
        let Some(&value) = self.rolls.get(self.next) else {
            return Err(Error::ScriptExhausted {
                dice: dice.to_string(),
                used: self.next,
            });
        };
        if !dice.can_show(value) {
            return Err(Error::ScriptedRollOutOfRange {
                dice: dice.to_string(),
                position: self.next + 1,
                value,
                min: dice.min(),
                max: dice.max(),
            });
        }
        self.next += 1;
        Ok(value)
    }
}

/// The middle one of three values (FUDGE 4.21: "the median is the middle
/// value die roll, which may be the same as either the high or low").
pub fn median_of_three<T: Ord + Copy>(a: T, b: T, c: T) -> T {
    a.max(b).min(a.min(b).max(c))
}

/// Rolls `dice` three times and returns the median with the three rolls.
pub fn roll_median_of_three(source: &mut (impl RollSource + ?Sized), dice: Dice) -> Result<(i32, [i32; 3])> {
    let rolls = [source.roll(dice)?, source.roll(dice)?, source.roll(dice)?];
    Ok((median_of_three(rolls[0], rolls[1], rolls[2]), rolls))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn four_df_distribution_is_the_known_one() {
        assert_eq!(Dice::FOUR_DF.distribution().counts(), &[1, 4, 10, 16, 19, 16, 10, 4, 1]);
        assert_eq!(Dice::TWO_DF.distribution().counts(), &[1, 2, 3, 2, 1]);
        assert_eq!(Dice::D6.distribution().counts(), &[1; 6]);
        let three_d6 = Dice::standard(3, 6).unwrap().distribution();
        assert_eq!(three_d6.min(), 3);
        assert_eq!(three_d6.count(10), 27);
        assert_eq!(three_d6.total(), 216);
    }

    #[test]
    fn fudge_table_matches_digit_sums() {
        let d = Dice::FOUR_DF.distribution();
        let mut counts = [0u64; 9];
        for &v in &FUDGE4_TABLE {
            counts[(v + 4) as usize] += 1;
        }
        assert_eq!(&counts[..], d.counts());
    }

    #[test]
    fn two_df_table_matches_digit_sums_draw_for_draw() {
        for (u, &v) in FUDGE2_TABLE.iter().enumerate() {
            assert_eq!(i32::from(v), (u % 3) as i32 - 1 + (u / 3) as i32 - 1);
        }
        let (mut a, mut b) = (SeededRolls::new(11), SeededRolls::new(11));
        for _ in 0..10_000 {
            assert_eq!(a.two_df(), b.fudge_by_digits(2));
        }
        let (mut a, mut b) = (SeededRolls::new(12), SeededRolls::new(12));
        for _ in 0..10_000 {
            assert_eq!(a.four_df(), b.fudge_by_digits(4));
        }
        assert_eq!(a, b);
    }

    #[test]
    fn median() {
        assert_eq!(median_of_three(1, -1, 3), 1);
        assert_eq!(median_of_three(-2, 2, 2), 2);
        assert_eq!(median_of_three(5, 5, 5), 5);
        assert_eq!(median_of_three(3, 1, 2), 2);
    }

    #[test]
    fn below_is_in_range() {
        let mut r = SeededRolls::new(7);
        for n in [1u64, 2, 3, 81, 1 << 63, u64::MAX] {
            for _ in 0..100 {
                assert!(r.below(n) < n);
            }
        }
    }
}
