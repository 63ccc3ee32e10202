//! # skirmish-python
//!
//! The compiled module `skirmish._core` of the `skirmish` Python package
//! (built by maturin from `python/pyproject.toml`): conversion, GIL release
//! and error mapping only; the rules live in `skirmish-core` and
//! `skirmish-sim`. One file per wrapped module:
//!
//! - [`scenario`]: the `Scenario` class (`skirmish_sim::scenario`);
//! - [`battle`]: one battle and its report (`skirmish_sim::battle`);
//! - [`sweep`]: sweeps with the GIL released, progress, Ctrl-C and the
//!   table's columns as NumPy arrays (`skirmish_sim::sweep`);
//! - [`balance`], [`exact`]: the even fight found by bisection, a small
//!   fight's exact outcome (`skirmish_sim::balance`, `skirmish_sim::exact`);
//! - [`striking`], [`dice`], [`tables`], [`timing`]: exact odds, dice
//!   distributions, the weapon and armor tables and the timing analysis
//!   (`skirmish_core`);
//! - [`tracker`]: the live `Encounter` a GM drives at the table, with odds
//!   from here (`skirmish_core::tracker`, `skirmish_sim::odds`); its calls
//!   take and return Python objects, the frozen classes of
//!   [`tracker::records`], declared with [`record`]'s macro, which also
//!   writes their stubs (`_core._stubs()`);
//! - [`args`]: every argument taken from Python, converted once; a bad
//!   one raises the documented exception naming it;
//! - [`error`]: the exception classes and the one mapping from Rust errors
//!   to them; no panic crosses into Python.

#![deny(missing_docs)]

pub mod args;
pub mod balance;
pub mod battle;
pub mod dice;
pub mod error;
pub mod exact;
mod interrupt;
pub mod record;
pub mod scenario;
pub mod striking;
pub mod sweep;
pub mod tables;
pub mod timing;
pub mod tracker;

use pyo3::prelude::*;

/// The module `skirmish._core`.
#[pymodule(name = "_core")]
fn core_module(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    error::register(m)?;
    m.add_function(wrap_pyfunction!(error::example_error, m)?)?;
    m.add_function(wrap_pyfunction!(error::panic_for_test, m)?)?;
    m.add_function(wrap_pyfunction!(args::invalid_argument, m)?)?;
    m.add_function(wrap_pyfunction!(args::argument_type_error, m)?)?;
    scenario::register(m)?;
    battle::register(m)?;
    sweep::register(m)?;
    balance::register(m)?;
    exact::register(m)?;
    striking::register(m)?;
    dice::register(m)?;
    tables::register(m)?;
    timing::register(m)?;
    tracker::register(m)?;
    m.add_function(wrap_pyfunction!(stubs, m)?)?;
    Ok(())
}

/// The generated part of `_core.pyi`: the stubs of the tracker's records,
/// written from their Rust field types (`scripts/python-stubs` puts it in
/// the file; the tests check that the file is up to date).
#[pyfunction]
#[pyo3(name = "_stubs")]
fn stubs() -> String {
    tracker::records::stubs()
}
