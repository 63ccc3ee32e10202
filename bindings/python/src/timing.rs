//! `skirmish_core::timing::analysis`: exact timing analysis. Counts and
//! fractions are returned as integers (`(numerator, denominator)`), never
//! as rounded floats.

use pyo3::prelude::*;
use pyo3::types::PyDict;
use skirmish_core::tables::weapons::RateOfFire;
use skirmish_core::timing::analysis::{self, FirstAction, Ratio};

use crate::args;
use crate::dice::counts;
use crate::error::{ToPyErr, guard};

/// A probability as `(numerator, denominator)`.
type Fraction = (u64, u64);

fn ratio(r: Ratio) -> (u128, u128) {
    (r.numerator, r.denominator)
}

/// The landing tick of a first action, `4dF + 5 + TT - speed bonus` (at
/// least 1): `(lowest tick, counts)` out of 81.
#[pyfunction]
#[pyo3(signature = (time_taken, speed_bonus = 0))]
pub(crate) fn initiative_distribution(
    py: Python<'_>,
    #[pyo3(from_py_with = args::rules::time_taken)] time_taken: u32,
    #[pyo3(from_py_with = args::rules::speed_bonus)] speed_bonus: i32,
) -> PyResult<(i32, Vec<u64>)> {
    guard(py, || {
        analysis::initiative_distribution(time_taken, speed_bonus)
            .map(|d| counts(&d))
            .map_err(|e| e.to_py(py))
    })
}

/// A Ready Time, `2dF + TT - speed bonus` (at least 1): `(lowest, counts)`
/// out of 9.
#[pyfunction]
#[pyo3(signature = (time_taken, speed_bonus = 0))]
pub(crate) fn ready_time_distribution(
    py: Python<'_>,
    #[pyo3(from_py_with = args::rules::time_taken)] time_taken: u32,
    #[pyo3(from_py_with = args::rules::speed_bonus)] speed_bonus: i32,
) -> PyResult<(i32, Vec<u64>)> {
    guard(py, || {
        analysis::ready_time_distribution(time_taken, speed_bonus)
            .map(|d| counts(&d))
            .map_err(|e| e.to_py(py))
    })
}

/// Who lands a first action first, over all 81 x 81 initiative rolls:
/// `(a_first, same_tick, b_first)`, each `(numerator, denominator)`.
#[pyfunction]
pub(crate) fn first_action_order(
    py: Python<'_>,
    #[pyo3(from_py_with = args::rules::a)] a: (u32, i32),
    #[pyo3(from_py_with = args::rules::b)] b: (u32, i32),
) -> PyResult<[Fraction; 3]> {
    guard(py, || {
        let side = |(time_taken, speed_bonus)| FirstAction {
            time_taken,
            speed_bonus,
        };
        let o = analysis::first_action_order(side(a), side(b)).map_err(|e| e.to_py(py))?;
        let p = |p: skirmish_core::dice::Probability| (p.numerator, p.denominator);
        Ok([p(o.a_first), p(o.same_tick), p(o.b_first)])
    })
}

/// FUZION actions per phase, `max(1, floor((REF + Combat Sense + 1d6) / 5))`:
/// `(lowest, counts)` out of 6.
#[pyfunction]
pub(crate) fn actions_per_phase(
    py: Python<'_>,
    #[pyo3(from_py_with = args::rules::reflexes)] reflexes: i32,
    #[pyo3(from_py_with = args::rules::combat_sense)] combat_sense: i32,
) -> PyResult<(i32, Vec<u64>)> {
    guard(py, || {
        analysis::actions_per_phase(reflexes, combat_sense)
            .map(|d| counts(&d))
            .map_err(|e| e.to_py(py))
    })
}

/// Attacks per round of a Rate of Fire (`"4/3"`) with `extra_per_round`
/// attacks from gear: a dict with `per_round`, `per_cycle` and `mean`.
#[pyfunction]
#[pyo3(signature = (rate_of_fire, extra_per_round = 0))]
pub(crate) fn attacks_per_round<'py>(
    py: Python<'py>,
    #[pyo3(from_py_with = args::rules::rate_of_fire)] rate_of_fire: String,
    #[pyo3(from_py_with = args::rules::extra_per_round)] extra_per_round: u32,
) -> PyResult<Bound<'py, PyDict>> {
    guard(py, || {
        let rof: RateOfFire = rate_of_fire.parse().map_err(|e: skirmish_core::Error| e.to_py(py))?;
        let a = analysis::attacks_per_round(rof, extra_per_round).map_err(|e| e.to_py(py))?;
        let d = PyDict::new(py);
        d.set_item("rate_of_fire", a.rate_of_fire.to_string())?;
        d.set_item("extra_per_round", a.extra_per_round)?;
        d.set_item("per_round", a.per_round)?;
        d.set_item("per_cycle", a.per_cycle)?;
        d.set_item("mean", ratio(a.mean))?;
        Ok(d)
    })
}

/// Expected actions in ticks `1..=ticks` of Continuous combat: a dict with
/// `landing` (per tick) and `expected_actions`.
#[pyfunction]
#[pyo3(signature = (time_taken, speed_bonus = 0, ticks = 20))]
pub(crate) fn continuous_actions<'py>(
    py: Python<'py>,
    #[pyo3(from_py_with = args::rules::time_taken)] time_taken: u32,
    #[pyo3(from_py_with = args::rules::speed_bonus)] speed_bonus: i32,
    #[pyo3(from_py_with = args::rules::ticks)] ticks: u32,
) -> PyResult<Bound<'py, PyDict>> {
    guard(py, || {
        let c = analysis::continuous_actions(time_taken, speed_bonus, ticks).map_err(|e| e.to_py(py))?;
        let d = PyDict::new(py);
        d.set_item("ticks", c.ticks)?;
        d.set_item("landing", c.landing.into_iter().map(ratio).collect::<Vec<_>>())?;
        d.set_item("expected_actions", ratio(c.expected_actions))?;
        Ok(d)
    })
}

/// How many of `actions_allowed` land inside a Graduated Round: a dict
/// with `landed` (`(lowest, counts)`) and `mean`.
#[pyfunction]
#[pyo3(signature = (time_taken, speed_bonus = 0, actions_allowed = 1, ticks_per_round = 20))]
pub(crate) fn graduated_actions<'py>(
    py: Python<'py>,
    #[pyo3(from_py_with = args::rules::time_taken)] time_taken: u32,
    #[pyo3(from_py_with = args::rules::speed_bonus)] speed_bonus: i32,
    #[pyo3(from_py_with = args::rules::actions_allowed)] actions_allowed: u32,
    #[pyo3(from_py_with = args::rules::ticks_per_round)] ticks_per_round: u32,
) -> PyResult<Bound<'py, PyDict>> {
    guard(py, || {
        let g = analysis::graduated_actions(time_taken, speed_bonus, actions_allowed, ticks_per_round)
            .map_err(|e| e.to_py(py))?;
        let d = PyDict::new(py);
        d.set_item("actions_allowed", g.actions_allowed)?;
        d.set_item("ticks_per_round", g.ticks_per_round)?;
        d.set_item("landed", counts(&g.landed))?;
        d.set_item("mean", ratio(g.mean))?;
        Ok(d)
    })
}

/// Registers the functions.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(initiative_distribution, m)?)?;
    m.add_function(wrap_pyfunction!(ready_time_distribution, m)?)?;
    m.add_function(wrap_pyfunction!(first_action_order, m)?)?;
    m.add_function(wrap_pyfunction!(actions_per_phase, m)?)?;
    m.add_function(wrap_pyfunction!(attacks_per_round, m)?)?;
    m.add_function(wrap_pyfunction!(continuous_actions, m)?)?;
    m.add_function(wrap_pyfunction!(graduated_actions, m)?)?;
    Ok(())
}
