//! A value's win rate from the exact engine ([`crate::exact`]): no battle
//! fought, the verdict exact. The fraction is compared with the target as
//! a fraction (the target's `f64` is itself an exact binary fraction), so
//! "exactly even" is a verdict of its own; a chance solved in `f64` is
//! undecided only within its error bound of the target.

use std::cmp::Ordering as Order;
use std::sync::atomic::Ordering;

use num_bigint::BigInt;
use num_rational::BigRational;

use super::{BalanceError, BalancePoint, Search, Verdict};
use crate::exact::{self, ExactError, ExactOptions};

impl Search<'_> {
    /// The exact win rate of the side at `value`, or why the exact engine
    /// gave none ([`BalanceError::Exact`]).
    pub(super) fn exact_at(&self, value: f64, done: &[BalancePoint]) -> Result<BalancePoint, BalanceError> {
        if self.cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
            return Err(BalanceError::Interrupted { points: done.to_vec() });
        }
        let scenario = self.scenario_at(value)?;
        let refused = |source: ExactError| match source {
            // A value the battle engine refuses is a battle's error, as
            // the sampler reports it.
            ExactError::Sim(e) => BalanceError::Battle {
                field: self.spec.field.clone(),
                value,
                index: 0,
                source: Box::new(e),
            },
            other => BalanceError::Exact {
                field: self.spec.field.clone(),
                value,
                source: Box::new(other),
            },
        };
        // Asked without being asked for (`Auto`), the exact engine refuses
        // a big fight quickly; asked for (`Exact`), it takes its default
        // budget.
        let options = match self.spec.method {
            super::BalanceMethod::Exact => ExactOptions::default(),
            _ => ExactOptions::automatic(),
        };
        let odds = exact::solve(&scenario, &options).map_err(refused)?;
        let chance = &odds.wins[self.side];
        let target = self.spec.target;
        let verdict = match chance.fraction.as_deref().and_then(parse_fraction) {
            Some(win) => match BigRational::from_float(target).map(|t| win.cmp(&t)) {
                Some(Order::Less) => Verdict::Below,
                Some(Order::Greater) => Verdict::Above,
                // Equal, or a target with no fraction (checked finite).
                _ => Verdict::Undecided,
            },
            None if chance.value + odds.error_bound < target => Verdict::Below,
            None if chance.value - odds.error_bound > target => Verdict::Above,
            None => Verdict::Undecided,
        };
        Ok(BalancePoint {
            value,
            battles: 0,
            wins: 0,
            win_rate: chance.value,
            low: (chance.value - odds.error_bound).max(0.0),
            high: (chance.value + odds.error_bound).min(1.0),
            verdict,
            exact: true,
            fraction: chance.fraction.clone(),
        })
    }
}

/// `"50/131"`, `"0"` or `"1"` as a fraction.
fn parse_fraction(text: &str) -> Option<BigRational> {
    let (numer, denom) = text.split_once('/').unwrap_or((text, "1"));
    let numer: BigInt = numer.parse().ok()?;
    let denom: BigInt = denom.parse().ok()?;
    (denom != BigInt::from(0)).then(|| BigRational::new(numer, denom))
}

/// An exact chance as the reports write it: `0.3817 (50/131)`.
fn chance(p: &BalancePoint) -> String {
    match &p.fraction {
        Some(f) => format!("{:.4} ({f})", p.win_rate),
        None => format!("{:.4} (within {:.1e})", p.win_rate, (p.high - p.low) / 2.0),
    }
}

/// Why an exact search stopped on two values.
pub(super) fn told_apart(below: &BalancePoint, above: &BalancePoint, target: f64) -> String {
    format!(
        "exact: at {} the win rate is {} below {target}, at {} it is {} above",
        below.value,
        chance(below),
        above.value,
        chance(above)
    )
}

/// Why an exact search stopped on one value.
pub(super) fn at_target(p: &BalancePoint, target: f64) -> String {
    if p.fraction.is_some() {
        format!("exact: at {} the win rate is {}, exactly {target}", p.value, chance(p))
    } else {
        format!(
            "exact: at {} the win rate {} cannot be told from {target} within its error bound",
            p.value,
            chance(p)
        )
    }
}
