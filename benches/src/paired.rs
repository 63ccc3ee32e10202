//! Ratios of interleaved timings: two contestants take turns on the same
//! work, round after round, so a change of machine load hits both sides of
//! the ratio.

use skirmish_core::dice::SeededRolls;

/// Resamples for the interval.
pub const RESAMPLES: usize = 2_000;

/// For rounds of `(a, b)` seconds: `Σb / Σa` (how many times faster `a`
/// is), with the 2.5% and 97.5% points of the same ratio over rounds drawn
/// with replacement (a seeded bootstrap, so the interval is reproducible).
///
/// ```
/// use skirmish_benches::paired::ratio_with_interval;
/// let (ratio, low, high) = ratio_with_interval(&[(1.0, 3.0), (1.0, 3.0), (2.0, 6.0)]);
/// assert_eq!((ratio, low, high), (3.0, 3.0, 3.0));
/// ```
pub fn ratio_with_interval(rounds: &[(f64, f64)]) -> (f64, f64, f64) {
    let ratio = |pairs: &mut dyn Iterator<Item = (f64, f64)>| {
        let (a, b) = pairs.fold((0.0, 0.0), |(a, b), (x, y)| (a + x, b + y));
        b / a
    };
    if rounds.is_empty() {
        return (f64::NAN, f64::NAN, f64::NAN);
    }
    let mut rolls = SeededRolls::new(1);
    let n = rounds.len() as u64;
    let mut draws: Vec<f64> = (0..RESAMPLES)
        .map(|_| ratio(&mut (0..n).map(|_| rounds[rolls.below(n) as usize])))
        .collect();
    draws.sort_by(f64::total_cmp);
    let at = |p: f64| draws[((RESAMPLES - 1) as f64 * p).round() as usize];
    (ratio(&mut rounds.iter().copied()), at(0.025), at(0.975))
}
