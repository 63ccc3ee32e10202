//! The two kinds of number the chain is solved in: exact fractions of any
//! size, or `f64` for chains past the exact budget, with the error bound
//! `chain.rs` states. A state's chances (one per ending, and never
//! ending) are solved together: as fractions they share one denominator,
//! so each step takes one least common multiple per successor, not one
//! per chance.

use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, ToPrimitive, Zero};

/// A state's chances as the solver computes them.
pub(super) trait Chances: Clone + std::fmt::Debug {
    /// Certainty of ending `o` (of `width` chances).
    fn unit(width: usize, o: usize) -> Self;
    /// `sum(w x chances) / leaving` over `terms` (`leaving > 0`: the sum
    /// of the weights, or that less a self-loop's).
    fn mean(terms: &[(&Self, u128)], leaving: u128, width: usize) -> Self;
    /// As exact fractions (a float's exact value).
    fn to_ratios(&self) -> Vec<BigRational>;
    /// From exact fractions (rounded, for floats).
    fn from_ratios(r: &[BigRational]) -> Self;
    /// As floats.
    fn values(&self) -> Vec<f64>;
}

/// `n` as a fraction.
pub(super) fn ratio_of(n: u128) -> BigRational {
    BigRational::from_integer(BigInt::from(n))
}

/// Exact chances: numerators over one common denominator, in lowest
/// terms.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Fractions {
    numerators: Vec<BigInt>,
    denominator: BigInt,
}

impl Chances for Fractions {
    fn unit(width: usize, o: usize) -> Self {
        Fractions {
            numerators: (0..width)
                .map(|i| if i == o { BigInt::one() } else { BigInt::zero() })
                .collect(),
            denominator: BigInt::one(),
        }
    }

    fn mean(terms: &[(&Self, u128)], leaving: u128, width: usize) -> Self {
        let mut denominator = BigInt::one();
        for (x, _) in terms {
            if !x.denominator.is_one() {
                denominator = denominator.lcm(&x.denominator);
            }
        }
        let mut numerators = vec![BigInt::zero(); width];
        for (x, w) in terms {
            let scale = (&denominator / &x.denominator) * BigInt::from(*w);
            for (acc, n) in numerators.iter_mut().zip(&x.numerators) {
                if !n.is_zero() {
                    *acc += n * &scale;
                }
            }
        }
        denominator *= BigInt::from(leaving);
        let mut common = denominator.clone();
        for n in &numerators {
            if !n.is_zero() {
                common = common.gcd(n);
            }
        }
        if !common.is_one() {
            for n in &mut numerators {
                *n /= &common;
            }
            denominator /= &common;
        }
        Fractions {
            numerators,
            denominator,
        }
    }

    fn to_ratios(&self) -> Vec<BigRational> {
        self.numerators
            .iter()
            .map(|n| BigRational::new(n.clone(), self.denominator.clone()))
            .collect()
    }

    fn from_ratios(r: &[BigRational]) -> Self {
        let mut denominator = BigInt::one();
        for x in r {
            denominator = denominator.lcm(x.denom());
        }
        Fractions {
            numerators: r.iter().map(|x| x.numer() * (&denominator / x.denom())).collect(),
            denominator,
        }
    }

    fn values(&self) -> Vec<f64> {
        self.to_ratios().iter().map(ratio_to_f64).collect()
    }
}

/// Chances as floats.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Floats(Vec<f64>);

impl Chances for Floats {
    fn unit(width: usize, o: usize) -> Self {
        Floats((0..width).map(|i| if i == o { 1.0 } else { 0.0 }).collect())
    }

    fn mean(terms: &[(&Self, u128)], leaving: u128, width: usize) -> Self {
        let mut sum = vec![0.0; width];
        for (x, w) in terms {
            let w = *w as f64;
            for (acc, v) in sum.iter_mut().zip(&x.0) {
                *acc += v * w;
            }
        }
        let leaving = leaving as f64;
        Floats(sum.into_iter().map(|v| v / leaving).collect())
    }

    fn to_ratios(&self) -> Vec<BigRational> {
        // Chances are finite: a float that is not would be a bug of the
        // solver's, read as 0 rather than a panic.
        self.0
            .iter()
            .map(|&v| BigRational::from_float(v).unwrap_or_else(Zero::zero))
            .collect()
    }

    fn from_ratios(r: &[BigRational]) -> Self {
        Floats(r.iter().map(ratio_to_f64).collect())
    }

    fn values(&self) -> Vec<f64> {
        self.0.clone()
    }
}

/// The float nearest a chance (exact fractions of thousands of digits
/// included: both parts are scaled down together first).
pub(super) fn ratio_to_f64(r: &BigRational) -> f64 {
    if let Some(v) = ToPrimitive::to_f64(r)
        && v.is_finite()
    {
        return v;
    }
    let (n, d) = (r.numer(), r.denom());
    let shift = d.bits().saturating_sub(960);
    let (n, d) = (n >> shift, d >> shift);
    match (ToPrimitive::to_f64(&n), ToPrimitive::to_f64(&d)) {
        (Some(n), Some(d)) if d != 0.0 => n / d,
        _ => 0.0,
    }
}
