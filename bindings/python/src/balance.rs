//! `skirmish_sim::balance`: a search run in Rust with the GIL released,
//! Ctrl-C polled from the calling thread, and its answer as records.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use pyo3::prelude::*;
use skirmish_sim::balance::{
    self, BalanceAnswer, BalanceError, BalanceMethod, BalanceOptions, BalancePoint, BalanceSpec, FieldKind,
};

use crate::args;
use crate::error::{ToPyErr, guard};
use crate::interrupt::interruptible;
use crate::record::{Tuple, record};
use crate::scenario::PyScenario;

record! {
    /// One value a balance search fought: its battles, the side's wins and
    /// win rate with its Wilson 95% interval (or the exact chance, no
    /// battle fought), and where it stands against the target (`"below"`,
    /// `"above"` or `"undecided"`).
    struct PyBalancePoint as "BalancePoint" {
        /// The field's value.
        value: f64,
        /// Battles fought at it (0 when its win rate is exact).
        battles: u64,
        /// Battles the side won.
        wins: u64,
        /// `wins / battles`, or the exact chance.
        win_rate: f64,
        /// The lower bound of the 95% interval (an exact chance: itself,
        /// less its error bound).
        low: f64,
        /// The upper bound of the 95% interval.
        high: f64,
        /// `"below"`, `"above"` or `"undecided"`.
        verdict: String,
        /// Whether the win rate is the exact engine's chance.
        exact: bool,
        /// The exact chance as a fraction in lowest terms (`"50/131"`),
        /// when solved in fractions.
        fraction: Option<String>,
    }
    stub []
    methods {}
}

impl PyBalancePoint {
    pub(crate) fn of(p: BalancePoint) -> PyBalancePoint {
        PyBalancePoint {
            value: p.value,
            battles: p.battles,
            wins: p.wins,
            win_rate: p.win_rate,
            low: p.low,
            high: p.high,
            verdict: p.verdict.name().to_owned(),
            exact: p.exact,
            fraction: p.fraction,
        }
    }
}

record! {
    /// What a balance search found. `answer` is `"between"` (the crossing
    /// lies between `below`, where the side wins less often than the
    /// target, and `above`, where more often: adjacent values of an integer
    /// field) or `"at"` (at `at` the win rate could not be told from the
    /// target in `max_battles` battles).
    struct PyBalance as "Balance" {
        /// The field that varied.
        field: String,
        /// `"integer"` or `"real"`.
        kind: String,
        /// The side whose win rate was read.
        side: String,
        /// The win rate sought.
        target: f64,
        /// The master seed.
        seed: u64,
        /// `"between"` or `"at"`.
        answer: String,
        /// With `"between"`: the value below the target.
        below: Option<f64>,
        /// With `"between"`: the value above the target.
        above: Option<f64>,
        /// With `"at"`: the value.
        at: Option<f64>,
        /// Every value fought, in the order fought (the two ends first).
        points: Tuple<Py<PyBalancePoint>>,
        /// Why the search stopped, in words.
        stopped: String,
        /// `"exact"` or `"sampled"`: how the win rates were read.
        method: String,
        /// Why an `"auto"` search sampled: the exact engine's refusal.
        not_exact: Option<String>,
    }
    stub []
    methods {}
}

impl PyBalance {
    fn of(py: Python<'_>, b: balance::Balance) -> PyResult<PyBalance> {
        let (answer, below, above, at) = match b.answer {
            BalanceAnswer::Between { below, above } => ("between", Some(below), Some(above), None),
            BalanceAnswer::At { value } => ("at", None, None, Some(value)),
        };
        let points = b
            .points
            .into_iter()
            .map(|p| Py::new(py, PyBalancePoint::of(p)))
            .collect::<PyResult<Vec<_>>>()?;
        Ok(PyBalance {
            field: b.field,
            kind: match b.kind {
                FieldKind::Integer => "integer",
                FieldKind::Real => "real",
            }
            .to_owned(),
            side: b.side,
            target: b.target,
            seed: b.seed,
            answer: answer.to_owned(),
            below,
            above,
            at,
            points: Tuple::of(py, points)?,
            stopped: b.stopped,
            method: b.method.name().to_owned(),
            not_exact: b.not_exact,
        })
    }
}

/// Finds where `side`'s win rate crosses `target` as `field` varies over
/// `between` (`skirmish_sim::balance::balance`).
///
/// The search runs on its own thread with the GIL released; the calling
/// thread wakes every 100 ms to check for KeyboardInterrupt, which stops
/// the search between batches and is re-raised.
#[pyfunction]
#[pyo3(signature = (scenario, field, between, target, side, seed, battles, max_battles, tolerance, method, threads))]
#[expect(clippy::too_many_arguments, reason = "mirrors the Python keyword arguments")]
pub(crate) fn run_balance(
    py: Python<'_>,
    #[pyo3(from_py_with = args::balance::scenario)] scenario: PyScenario,
    #[pyo3(from_py_with = args::balance::field)] field: String,
    #[pyo3(from_py_with = args::balance::between)] between: (f64, f64),
    #[pyo3(from_py_with = args::balance::target)] target: f64,
    #[pyo3(from_py_with = args::balance::side)] side: Option<String>,
    #[pyo3(from_py_with = args::balance::seed)] seed: u64,
    #[pyo3(from_py_with = args::balance::battles)] battles: u64,
    #[pyo3(from_py_with = args::balance::max_battles)] max_battles: u64,
    #[pyo3(from_py_with = args::balance::tolerance)] tolerance: Option<f64>,
    #[pyo3(from_py_with = args::balance::method)] method: String,
    #[pyo3(from_py_with = args::balance::threads)] threads: Option<usize>,
) -> PyResult<PyBalance> {
    guard(py, || {
        let method = BalanceMethod::by_name(&method).ok_or_else(|| {
            BalanceError::Invalid {
                field: "method".to_owned(),
                problem: format!("{method:?} is not \"auto\", \"exact\" or \"sampled\""),
            }
            .to_py(py)
        })?;
        let spec = BalanceSpec {
            scenario: scenario.inner,
            field,
            between,
            target,
            side,
            seed,
            battles,
            max_battles,
            tolerance,
            method,
        };
        let cancel = Arc::new(AtomicBool::new(false));
        let options = BalanceOptions {
            threads,
            cancel: Some(Arc::clone(&cancel)),
        };
        let result = interruptible(py, "balance", &cancel, || balance::balance(&spec, &options), |_| Ok(()))?;
        PyBalance::of(py, result.map_err(|e| e.to_py(py))?)
    })
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyBalancePoint>()?;
    m.add_class::<PyBalance>()?;
    m.add_function(wrap_pyfunction!(run_balance, m)?)?;
    m.add("BALANCE_MAX_BATTLES", balance::MAX_BATTLES)?;
    Ok(())
}
