//! Wilson intervals and nearest-rank percentiles against independent
//! computations and published values.

use skirmish_sim::stats;

/// The Wilson bounds as the roots of `(p̂ - p)² = z² p (1 - p) / n`.
fn wilson_by_quadratic(successes: u64, n: u64) -> (f64, f64) {
    let (k, n, z) = (successes as f64, n as f64, stats::Z_95);
    let p = k / n;
    let a = 1.0 + z * z / n;
    let b = -(2.0 * p + z * z / n);
    let c = p * p;
    let root = (b * b - 4.0 * a * c).max(0.0).sqrt();
    ((-b - root) / (2.0 * a), (-b + root) / (2.0 * a))
}

#[test]
fn wilson_intervals() {
    for (k, n, published) in [
        (0, 10, (0.0, 0.2775)),
        (5, 10, (0.2366, 0.7634)),
        (10, 10, (0.7225, 1.0)),
        (81, 100, (0.7222, 0.8749)),
        (1, 3, (0.0615, 0.7923)),
    ] {
        let (low, high) = stats::wilson(k, n);
        let (ref_low, ref_high) = wilson_by_quadratic(k, n);
        assert!(
            (low - ref_low).abs() < 1e-12 && (high - ref_high).abs() < 1e-12,
            "{k}/{n}"
        );
        assert!(
            (low - published.0).abs() < 1e-4 && (high - published.1).abs() < 1e-4,
            "{k}/{n}"
        );
    }
    assert_eq!(stats::wilson(0, 10).0, 0.0);
    assert_eq!(stats::wilson(10, 10).1, 1.0);
    assert_eq!(stats::wilson(0, 0), (0.0, 1.0));
    // Symmetric: k of n for success is n - k for failure.
    let (low, high) = stats::wilson(3, 17);
    let (flip_low, flip_high) = stats::wilson(14, 17);
    assert!((low - (1.0 - flip_high)).abs() < 1e-12 && (high - (1.0 - flip_low)).abs() < 1e-12);
}

#[test]
fn mean_median_and_p90_by_nearest_rank() {
    let one_to_ten: Vec<u64> = (1..=10).collect();
    assert_eq!(stats::mean(&one_to_ten), Some(5.5));
    assert_eq!(stats::median(&one_to_ten), Some(5), "lower median of an even count");
    assert_eq!(stats::p90(&one_to_ten), Some(9));
    assert_eq!(stats::median(&[9, 1, 5]), Some(5));
    assert_eq!(stats::p90(&[9, 1, 5]), Some(9));
    assert_eq!(stats::median(&[7]), Some(7));
    assert_eq!(stats::p90(&(1..=100).rev().collect::<Vec<u64>>()), Some(90));
    assert_eq!(stats::p90(&(1..=101).collect::<Vec<u64>>()), Some(91));
    assert_eq!(stats::percentile(&[3, 1, 2], 0), Some(1));
    assert_eq!(stats::percentile(&[3, 1, 2], 100), Some(3));
    assert_eq!(stats::mean(&[]), None);
    assert_eq!(stats::median(&[]), None);
    assert_eq!(stats::p90(&[]), None);
    assert_eq!(stats::mean(&[u64::MAX, u64::MAX]), Some(u64::MAX as f64));
    assert_eq!(stats::nearest_rank(10, 90), 9);
    assert_eq!(stats::nearest_rank(0, 50), 0);
}
