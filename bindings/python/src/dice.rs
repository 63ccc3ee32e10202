//! `skirmish_core::dice`: exact distributions of dice totals.

use pyo3::prelude::*;
use skirmish_core::dice::{Dice, Distribution};

use crate::args;
use crate::error::{ToPyErr, guard};

/// `(lowest total, counts)` of a distribution: `counts[i]` of the equally
/// likely rolls total `lowest + i`.
pub(crate) fn counts(d: &Distribution) -> (i32, Vec<u64>) {
    (d.min(), d.counts().to_vec())
}

/// The exact distribution of `count` Fudge dice (`sides=None`) or of
/// `count`d`sides`, as `(lowest total, counts)`.
#[pyfunction]
#[pyo3(signature = (count = 4, sides = None))]
pub(crate) fn dice_distribution(
    py: Python<'_>,
    #[pyo3(from_py_with = args::rules::count)] count: u32,
    #[pyo3(from_py_with = args::rules::sides)] sides: Option<u32>,
) -> PyResult<(i32, Vec<u64>)> {
    guard(py, || {
        let dice = match sides {
            None => Dice::fudge(count),
            Some(s) => Dice::standard(count, s),
        }
        .map_err(|e| e.to_py(py))?;
        Ok(counts(&dice.distribution()))
    })
}

/// Registers the function.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(dice_distribution, m)?)
}
