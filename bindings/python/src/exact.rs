//! `skirmish_sim::exact`: a small fight solved exactly in Rust with the
//! GIL released (Ctrl-C polled from the calling thread), its chances as
//! records whose fractions Python turns into `Fraction`s.

use std::sync::atomic::AtomicBool;

use pyo3::prelude::*;
use skirmish_core::Error as CoreError;
use skirmish_sim::exact::{self, Arithmetic, ExactChance, ExactOdds, ExactOptions};

use crate::args;
use crate::error::{ToPyErr, guard};
use crate::interrupt::interruptible;
use crate::record::{Tuple, record};
use crate::scenario::PyScenario;

record! {
    /// One chance the exact engine computed: its value and, when the fight
    /// was solved in fractions, the fraction in lowest terms (`"50/131"`,
    /// `"0"`, `"1"`).
    struct PyExactChance as "ExactChance" {
        /// The chance as a float (the nearest to the fraction, if any).
        value: f64,
        /// The exact fraction, or None when solved in floats.
        fraction: Option<String>,
    }
    stub []
    methods {}
}

impl PyExactChance {
    fn of(c: ExactChance) -> PyExactChance {
        PyExactChance {
            value: c.value,
            fraction: c.fraction,
        }
    }
}

record! {
    /// The exact outcome of a fight: each side's chance to win, a draw
    /// (the last fighters of every side fall at once), a fight that never
    /// ends (nobody can hurt anybody any more), and the chain's size.
    struct PyExact as "Exact" {
        /// The sides' names, in order.
        sides: Tuple<String>,
        /// Each side's chance to win, in side order.
        wins: Tuple<Py<PyExactChance>>,
        /// The chance of a draw.
        draw: Py<PyExactChance>,
        /// The chance that the fight never ends.
        never_ends: Py<PyExactChance>,
        /// States of the chain (between exchanges, endings aside).
        states: u64,
        /// Transitions between them.
        transitions: u64,
        /// Whether the chances are exact fractions (else floats).
        exact: bool,
        /// The most any chance's value may be off (0 for fractions).
        error_bound: f64,
    }
    stub []
    methods {}
}

impl PyExact {
    fn of(py: Python<'_>, o: ExactOdds) -> PyResult<PyExact> {
        let chance = |c| Py::new(py, PyExactChance::of(c));
        let wins = o.wins.into_iter().map(chance).collect::<PyResult<Vec<_>>>()?;
        Ok(PyExact {
            sides: Tuple::of(py, o.sides)?,
            wins: Tuple::of(py, wins)?,
            draw: chance(o.draw)?,
            never_ends: chance(o.never_ends)?,
            states: o.states as u64,
            transitions: o.transitions as u64,
            exact: o.exact,
            error_bound: o.error_bound,
        })
    }
}

/// Solves `scenario` exactly (`skirmish_sim::exact::solve`), with at most
/// `max_states` states, in fractions up to `max_exact_states` (or as
/// `arithmetic` says: `"auto"`, `"fractions"`, `"float"`).
///
/// The chain is built and solved on its own thread with the GIL released;
/// the calling thread wakes every 100 ms to check for KeyboardInterrupt,
/// which is raised once the solve has ended.
#[pyfunction]
#[pyo3(signature = (scenario, max_states, max_exact_states, arithmetic))]
pub(crate) fn run_exact(
    py: Python<'_>,
    #[pyo3(from_py_with = args::rules::scenario)] scenario: PyScenario,
    #[pyo3(from_py_with = args::rules::max_states)] max_states: u64,
    #[pyo3(from_py_with = args::rules::max_exact_states)] max_exact_states: u64,
    #[pyo3(from_py_with = args::rules::arithmetic)] arithmetic: String,
) -> PyResult<PyExact> {
    guard(py, || {
        let arithmetic = match arithmetic.as_str() {
            "auto" => Arithmetic::Auto,
            "fractions" => Arithmetic::Fractions,
            "float" => Arithmetic::Float,
            other => {
                return Err(CoreError::invalid(
                    "arithmetic",
                    format!("{other:?} is not \"auto\", \"fractions\" or \"float\""),
                )
                .to_py(py));
            }
        };
        let budget = |field: &str, n: u64| {
            usize::try_from(n)
                .ok()
                .filter(|&n| n > 0)
                .ok_or_else(|| CoreError::invalid(field, format!("{n} is not a state count of 1 or more")).to_py(py))
        };
        let options = ExactOptions {
            max_states: budget("max_states", max_states)?,
            max_exact_states: budget("max_exact_states", max_exact_states)?,
            arithmetic,
            ..ExactOptions::default()
        };
        // The solve has no cancel flag of its own: Ctrl-C is raised when
        // it has ended (its budget bounds it).
        let cancel = AtomicBool::new(false);
        let scenario = scenario.inner;
        let solved = interruptible(py, "exact", &cancel, || exact::solve(&scenario, &options), |_| Ok(()))?;
        PyExact::of(py, solved.map_err(|e| e.to_py(py))?)
    })
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyExactChance>()?;
    m.add_class::<PyExact>()?;
    m.add_function(wrap_pyfunction!(run_exact, m)?)?;
    m.add("EXACT_MAX_STATES", exact::DEFAULT_MAX_STATES)?;
    m.add("EXACT_MAX_EXACT_STATES", exact::DEFAULT_MAX_EXACT_STATES)?;
    Ok(())
}
