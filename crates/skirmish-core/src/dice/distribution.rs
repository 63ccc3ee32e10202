//! Exact probabilities: [`Probability`], a count of equally likely
//! outcomes kept unreduced, and [`Distribution`], the exact distribution
//! of a total, which the odds and the timing analysis build on. Its own
//! file because it is counting, not rolling: nothing here draws a die.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::Dice;
use crate::error::{Error, Result};

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
