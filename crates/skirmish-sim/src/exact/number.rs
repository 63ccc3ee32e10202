//! The two kinds of number the chain is solved in: exact fractions of any
//! size ([`BigRational`]), or `f64` for chains past the exact budget, with
//! the error bound `chain.rs` states.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, ToPrimitive, Zero};

/// A probability as the solver computes it.
pub(super) trait Number: Clone + std::fmt::Debug {
    /// 0.
    fn zero() -> Self;
    /// 1.
    fn one() -> Self;
    /// `self += x * w`.
    fn add_weighted(&mut self, x: &Self, w: u128);
    /// `self / d` (`d > 0`).
    fn divided(&self, d: u128) -> Self;
    /// As an exact fraction (a float's exact value).
    fn to_ratio(&self) -> BigRational;
    /// From an exact fraction (rounded, for a float).
    fn from_ratio(r: &BigRational) -> Self;
    /// As a float.
    fn to_f64(&self) -> f64;
}

/// `n` as a fraction.
pub(super) fn ratio_of(n: u128) -> BigRational {
    BigRational::from_integer(BigInt::from(n))
}

impl Number for BigRational {
    fn zero() -> Self {
        Zero::zero()
    }
    fn one() -> Self {
        One::one()
    }
    fn add_weighted(&mut self, x: &Self, w: u128) {
        if !Zero::is_zero(x) {
            *self += x * BigInt::from(w);
        }
    }
    fn divided(&self, d: u128) -> Self {
        self / BigInt::from(d)
    }
    fn to_ratio(&self) -> BigRational {
        self.clone()
    }
    fn from_ratio(r: &BigRational) -> Self {
        r.clone()
    }
    fn to_f64(&self) -> f64 {
        ratio_to_f64(self)
    }
}

impl Number for f64 {
    fn zero() -> Self {
        0.0
    }
    fn one() -> Self {
        1.0
    }
    fn add_weighted(&mut self, x: &Self, w: u128) {
        *self += x * w as f64;
    }
    fn divided(&self, d: u128) -> Self {
        self / d as f64
    }
    fn to_ratio(&self) -> BigRational {
        // Probabilities are finite: a float that is not would be a bug of
        // the solver's, read as 0 rather than a panic.
        BigRational::from_float(*self).unwrap_or_else(Zero::zero)
    }
    fn from_ratio(r: &BigRational) -> Self {
        ratio_to_f64(r)
    }
    fn to_f64(&self) -> f64 {
        *self
    }
}

/// The float nearest a probability (exact fractions of thousands of
/// digits included: both parts are scaled down together first).
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
