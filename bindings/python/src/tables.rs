//! `skirmish_core::tables`: the weapon speed and armor tables, as columns.

use pyo3::prelude::*;
use pyo3::types::PyDict;
use skirmish_core::tables::armor;
use skirmish_core::tables::weapons::{self, Genre, Weapon};

use crate::args;
use crate::error::{ToPyErr, guard};

fn weapon_columns<'py>(py: Python<'py>, rows: &[&Weapon]) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("name", rows.iter().map(|w| w.name).collect::<Vec<_>>())?;
    d.set_item("genre", rows.iter().map(|w| w.genre.title()).collect::<Vec<_>>())?;
    d.set_item("time_taken", rows.iter().map(|w| w.time_taken).collect::<Vec<_>>())?;
    d.set_item(
        "rate_of_fire",
        rows.iter().map(|w| w.rate_of_fire.to_string()).collect::<Vec<_>>(),
    )?;
    d.set_item(
        "attacks_per_round",
        rows.iter().map(|w| w.rate_of_fire.as_f64()).collect::<Vec<_>>(),
    )?;
    d.set_item(
        "continuous_time_taken",
        rows.iter().map(|w| w.continuous_time_taken).collect::<Vec<_>>(),
    )?;
    d.set_item("burst", rows.iter().map(|w| w.burst).collect::<Vec<_>>())?;
    d.set_item("footnote", rows.iter().map(|w| w.footnote_text()).collect::<Vec<_>>())?;
    d.set_item("aliases", rows.iter().map(|w| w.aliases.to_vec()).collect::<Vec<_>>())?;
    Ok(d)
}

/// The weapon speed table (all 57 rows, or one genre's), as columns.
#[pyfunction]
#[pyo3(signature = (genre = None))]
pub(crate) fn weapon_table<'py>(
    py: Python<'py>,
    #[pyo3(from_py_with = args::rules::genre)] genre: Option<String>,
) -> PyResult<Bound<'py, PyDict>> {
    guard(py, || {
        let rows: Vec<&Weapon> = match genre {
            None => weapons::all().iter().collect(),
            Some(g) => {
                let g: Genre = g.parse().map_err(|e: skirmish_core::Error| e.to_py(py))?;
                weapons::by_genre(g).iter().collect()
            }
        };
        weapon_columns(py, &rows)
    })
}

/// One weapon by a forgiving name, as a one-row table.
#[pyfunction]
pub(crate) fn find_weapon<'py>(
    py: Python<'py>,
    #[pyo3(from_py_with = args::rules::name)] name: String,
) -> PyResult<Bound<'py, PyDict>> {
    guard(py, || {
        let w = weapons::find(&name).map_err(|e| e.to_py(py))?;
        weapon_columns(py, &[w])
    })
}

/// The armor table, as columns.
#[pyfunction]
pub(crate) fn armor_table<'py>(py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
    guard(py, || {
        let rows = armor::all();
        let d = PyDict::new(py);
        d.set_item("name", rows.iter().map(|a| a.name).collect::<Vec<_>>())?;
        d.set_item(
            "defense_rating_bonus",
            rows.iter().map(|a| a.defense_rating_bonus).collect::<Vec<_>>(),
        )?;
        d.set_item("situational", rows.iter().map(|a| a.situational).collect::<Vec<_>>())?;
        d.set_item("aliases", rows.iter().map(|a| a.aliases.to_vec()).collect::<Vec<_>>())?;
        Ok(d)
    })
}

/// One armor row by a forgiving name: `(name, bonus, situational)`.
#[pyfunction]
pub(crate) fn find_armor(
    py: Python<'_>,
    #[pyo3(from_py_with = args::rules::name)] name: String,
) -> PyResult<(&'static str, i32, bool)> {
    guard(py, || {
        let a = armor::armor(&name).map_err(|e| e.to_py(py))?;
        Ok((a.name, a.defense_rating_bonus, a.situational))
    })
}

/// Registers the functions.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(weapon_table, m)?)?;
    m.add_function(wrap_pyfunction!(find_weapon, m)?)?;
    m.add_function(wrap_pyfunction!(armor_table, m)?)?;
    m.add_function(wrap_pyfunction!(find_armor, m)?)?;
    Ok(())
}
