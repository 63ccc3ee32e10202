//! `skirmish_sim::battle`: one battle and its report.

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use skirmish_sim::battle::{Battle, RunOptions};

use crate::args;
use crate::error::{ToPyErr, guard};
use crate::scenario::PyScenario;

/// Fights battle `index` of master seed `seed` (the same battle as cell
/// battle `index` of a sweep with that seed) and returns its report as
/// JSON text (`skirmish_sim::report::BattleReport`). The GIL is released
/// while it runs.
#[pyfunction]
#[pyo3(signature = (scenario, seed, index = 0, trace = true))]
pub(crate) fn run_battle(
    py: Python<'_>,
    #[pyo3(from_py_with = args::sweep::scenario)] scenario: PyScenario,
    #[pyo3(from_py_with = args::rules::seed)] seed: u64,
    #[pyo3(from_py_with = args::rules::index)] index: u64,
    #[pyo3(from_py_with = args::rules::trace)] trace: bool,
) -> PyResult<String> {
    guard(py, || {
        let options = RunOptions {
            trace,
            casualties: true,
        };
        let scenario = scenario.inner;
        let report = py
            .detach(|| Battle::new(&scenario).and_then(|b| b.run(seed, index, &options)))
            .map_err(|e| e.to_py(py))?;
        serde_json::to_string(&report).map_err(|e| PyRuntimeError::new_err(format!("report as JSON: {e}")))
    })
}

/// Registers the functions.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(run_battle, m)?)
}
