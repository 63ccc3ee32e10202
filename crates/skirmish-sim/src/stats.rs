//! The statistics a sweep reports: Wilson score intervals for proportions,
//! and the mean, median and 90th percentile of integer samples.
//!
//! Percentiles use the **nearest-rank** definition: the `p`-th percentile of
//! `n` samples is the sample of rank `ceil(p / 100 * n)` (1-based, in
//! ascending order; rank 1 when that is 0), that is the smallest sample such
//! that at least `p`% of the samples are less than or equal to it. It is
//! always one of the samples (no interpolation), so durations in ticks stay
//! whole ticks; the median is the *lower* median for an even count.
//!
//! ```
//! use skirmish_sim::stats::{median, p90, wilson};
//!
//! let (low, high) = wilson(5, 10);
//! assert!((low - 0.2366).abs() < 1e-4 && (high - 0.7634).abs() < 1e-4);
//! assert_eq!(median(&[4, 1, 3, 2]), Some(2));
//! assert_eq!(p90(&[1, 2, 3, 4, 5, 6, 7, 8, 9, 10]), Some(9));
//! ```

/// The two-sided 95% normal quantile, `Φ⁻¹(0.975)`.
pub const Z_95: f64 = 1.959_963_984_540_054;

/// The Wilson score interval at 95% for `successes` out of `n` trials, as
/// `(low, high)` within `[0, 1]`; `n = 0` gives `(0, 1)` (nothing known).
///
/// `successes` above `n` are counted as `n`. The bounds are exactly 0 with
/// no success and exactly 1 with no failure.
pub fn wilson(successes: u64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let successes = successes.min(n);
    let n_f = n as f64;
    let p = successes as f64 / n_f;
    let z2 = Z_95 * Z_95;
    let denominator = 1.0 + z2 / n_f;
    let center = (p + z2 / (2.0 * n_f)) / denominator;
    let half = Z_95 / denominator * (p * (1.0 - p) / n_f + z2 / (4.0 * n_f * n_f)).sqrt();
    let low = if successes == 0 { 0.0 } else { (center - half).max(0.0) };
    let high = if successes == n { 1.0 } else { (center + half).min(1.0) };
    (low, high)
}

/// The arithmetic mean of the samples (`None` for none), summed exactly in
/// 128-bit integers so the order of the samples does not matter.
pub fn mean(samples: &[u64]) -> Option<f64> {
    if samples.is_empty() {
        return None;
    }
    let total: u128 = samples.iter().map(|&x| u128::from(x)).sum();
    Some(total as f64 / samples.len() as f64)
}

/// The 1-based nearest rank of the `percent`-th percentile among `n`
/// samples: `ceil(percent * n / 100)`, at least 1 and at most `n`
/// (`percent` above 100 counts as 100). `n = 0` gives 0 (no rank).
pub fn nearest_rank(n: u64, percent: u32) -> u64 {
    if n == 0 {
        return 0;
    }
    let percent = u128::from(percent.min(100));
    let rank = (percent * u128::from(n)).div_ceil(100);
    // rank <= n because percent <= 100, so the conversion cannot fail.
    u64::try_from(rank).unwrap_or(n).clamp(1, n)
}

/// The `percent`-th percentile of the samples by nearest rank (see the
/// module docs); `None` for no samples. The samples may come in any order.
pub fn percentile(samples: &[u64], percent: u32) -> Option<u64> {
    let rank = nearest_rank(samples.len() as u64, percent);
    if rank == 0 {
        return None;
    }
    let mut sorted = samples.to_vec();
    sorted.sort_unstable();
    sorted.get((rank - 1) as usize).copied()
}

/// The median by nearest rank (the lower median for an even count).
pub fn median(samples: &[u64]) -> Option<u64> {
    percentile(samples, 50)
}

/// The 90th percentile by nearest rank.
pub fn p90(samples: &[u64]) -> Option<u64> {
    percentile(samples, 90)
}

/// The `percent`-th percentile by nearest rank of samples given as
/// `(value, count)` pairs in ascending value order (a histogram); `None`
/// when the counts sum to 0.
pub(crate) fn percentile_of_counts(counts: impl IntoIterator<Item = (u64, u64)> + Clone, percent: u32) -> Option<u64> {
    let n: u64 = counts.clone().into_iter().map(|(_, c)| c).sum();
    let rank = nearest_rank(n, percent);
    if rank == 0 {
        return None;
    }
    let mut seen = 0u64;
    for (value, count) in counts {
        seen += count;
        if seen >= rank {
            return Some(value);
        }
    }
    None
}
