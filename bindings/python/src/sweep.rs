//! `skirmish_sim::sweep`: a sweep run in Rust with the GIL released, its
//! progress and Ctrl-C polled from the calling thread, and its table.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use numpy::IntoPyArray;
use pyo3::prelude::*;
use pyo3::types::PyList;
use skirmish_sim::sweep::{self, Axis, Column, SweepError, SweepOptions, SweepProgress, SweepSpec, SweepTable};

use crate::args;
use crate::error::{ToPyErr, guard};
use crate::interrupt::interruptible;
use crate::scenario::PyScenario;

/// The latest progress, written by the sweep's worker threads and read by
/// the calling thread (the progress hook never touches Python).
#[derive(Default)]
struct Shared {
    cells_done: AtomicU64,
    cells_total: AtomicU64,
    battles_done: AtomicU64,
    battles_total: AtomicU64,
}

impl Shared {
    fn store(&self, p: SweepProgress) {
        self.cells_done.store(p.cells_done, Ordering::Relaxed);
        self.cells_total.store(p.cells_total, Ordering::Relaxed);
        self.battles_done.store(p.battles_done, Ordering::Relaxed);
        self.battles_total.store(p.battles_total, Ordering::Relaxed);
    }

    fn load(&self) -> (u64, u64, u64, u64) {
        (
            self.cells_done.load(Ordering::Relaxed),
            self.cells_total.load(Ordering::Relaxed),
            self.battles_done.load(Ordering::Relaxed),
            self.battles_total.load(Ordering::Relaxed),
        )
    }
}

/// Runs a sweep of `scenario` over `axes` (`[(path, [value text])]`),
/// `battles` per cell from master seed `seed`.
///
/// The sweep runs on its own thread with the GIL released; the calling
/// thread wakes every 100 ms to call `progress(cells_done, cells_total,
/// battles_done, battles_total)` when it changed and to check for
/// KeyboardInterrupt, which cancels the sweep (the finished cells stay in
/// the checkpoint) and is re-raised. With `dry_run`, everything is checked
/// (the axes, every cell's scenario, the checkpoint) and no battle is
/// fought: it returns `None`. Without `resume` or `force`, a checkpoint
/// file that holds finished cells (or anything that is not this sweep's
/// checkpoint) is refused before any battle, as the `skirmish` command
/// refuses it without `--resume` or `--force`.
#[pyfunction]
#[pyo3(signature = (scenario, axes, battles, seed, threads = None, checkpoint = None, resume = false, progress = None, dry_run = false, force = false))]
#[expect(clippy::too_many_arguments, reason = "mirrors the Python keyword arguments")]
pub(crate) fn run_sweep(
    py: Python<'_>,
    #[pyo3(from_py_with = args::sweep::scenario)] scenario: PyScenario,
    #[pyo3(from_py_with = args::sweep::axes)] axes: Vec<(String, Vec<String>)>,
    #[pyo3(from_py_with = args::sweep::battles)] battles: u64,
    #[pyo3(from_py_with = args::sweep::seed)] seed: u64,
    #[pyo3(from_py_with = args::sweep::threads)] threads: Option<usize>,
    #[pyo3(from_py_with = args::sweep::checkpoint)] checkpoint: Option<PathBuf>,
    #[pyo3(from_py_with = args::sweep::resume)] resume: bool,
    progress: Option<Py<PyAny>>,
    #[pyo3(from_py_with = args::sweep::dry_run)] dry_run: bool,
    #[pyo3(from_py_with = args::sweep::force)] force: bool,
) -> PyResult<Option<PySweepTable>> {
    guard(py, || {
        if let Some(callback) = &progress
            && !callback.bind(py).is_callable()
        {
            return Err(crate::error::argument_type(
                py,
                "progress",
                "a callable",
                callback.bind(py),
            ));
        }
        let spec = SweepSpec {
            scenario: scenario.inner,
            axes: axes.into_iter().map(|(path, values)| Axis::new(path, values)).collect(),
            battles,
            seed,
        };
        if let Some(path) = &checkpoint
            && !resume
            && !force
            && let Some(work) = sweep::existing_work(path, &spec).map_err(|e| e.to_py(py))?
        {
            // Advise resume=True only where a resume would accept the file
            // (a finished sweep's output is refused by it too).
            let advice = if sweep::plan_resume(path, &spec).is_ok() {
                "pass resume=True to continue it, or force=True to overwrite it"
            } else {
                "resume=True cannot continue it (a finished sweep's output, or not this sweep's checkpoint): to \
                 fight the sweep again from the start, pass force=True to overwrite it, or use another checkpoint \
                 file"
            };
            let refusal = std::io::Error::new(
                std::io::ErrorKind::AlreadyExists,
                format!("the file holds {work}; this sweep would replace it: {advice}"),
            );
            return Err(SweepError::Io {
                path: path.clone(),
                source: refusal,
            }
            .to_py(py));
        }
        let shared = Arc::new(Shared::default());
        let cancel = Arc::new(AtomicBool::new(dry_run));
        let hook = Arc::clone(&shared);
        let options = SweepOptions {
            threads,
            progress: Some(Arc::new(move |p: SweepProgress| hook.store(p))),
            cancel: Some(Arc::clone(&cancel)),
            checkpoint,
            resume,
        };
        if dry_run {
            // Cancelled before the first battle: every check has passed.
            return match sweep::sweep(&spec, &options) {
                Err(SweepError::Cancelled { .. }) => Ok(None),
                Err(e) => Err(e.to_py(py)),
                Ok(_) => Ok(None),
            };
        }

        let mut last = (u64::MAX, 0, 0, 0);
        let result = interruptible(
            py,
            "sweep",
            &cancel,
            || sweep::sweep(&spec, &options),
            |py| {
                if let Some(callback) = &progress {
                    let now = shared.load();
                    if now != last {
                        last = now;
                        callback.call1(py, now)?;
                    }
                }
                Ok(())
            },
        )?;
        let table = result.map_err(|e| e.to_py(py))?;
        if let Some(callback) = &progress {
            let now = shared.load();
            if now != last {
                callback.call1(py, now)?;
            }
        }
        Ok(Some(PySweepTable { inner: table }))
    })
}

/// A sweep's table (`skirmish_sim::sweep::SweepTable`): one row per cell.
#[pyclass(name = "SweepTable", module = "skirmish._core", frozen)]
pub(crate) struct PySweepTable {
    inner: SweepTable,
}

#[pymethods]
impl PySweepTable {
    /// The varied fields' paths, in axis order.
    #[getter]
    fn axes(&self) -> Vec<String> {
        self.inner.axes().to_vec()
    }

    /// The side names, in scenario order.
    #[getter]
    fn sides(&self) -> Vec<String> {
        self.inner.sides().to_vec()
    }

    /// The master seed.
    #[getter]
    fn seed(&self) -> u64 {
        self.inner.seed()
    }

    /// The base scenario's fingerprint.
    #[getter]
    fn scenario_fingerprint(&self) -> String {
        self.inner.scenario_fingerprint().to_owned()
    }

    /// Battles per cell.
    #[getter]
    fn battles(&self) -> u64 {
        self.inner.battles()
    }

    /// The column names, in schema order.
    fn header(&self, py: Python<'_>) -> PyResult<Vec<String>> {
        guard(py, || Ok(self.inner.header()))
    }

    /// The table as CSV.
    fn to_csv(&self, py: Python<'_>) -> PyResult<String> {
        guard(py, || Ok(self.inner.to_csv()))
    }

    /// The table as JSON.
    fn to_json(&self, py: Python<'_>) -> PyResult<String> {
        guard(py, || Ok(self.inner.to_json()))
    }

    /// The table for a terminal.
    fn summary_text(&self, py: Python<'_>) -> PyResult<String> {
        guard(py, || Ok(self.inner.summary_text()))
    }

    /// The columns in schema order, as `(name, values)`: integers and
    /// floats as NumPy arrays handed over without a copy, text as a list.
    fn columns<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        guard(py, || self.columns_inner(py))
    }

    fn __len__(&self) -> usize {
        self.inner.cells().len()
    }
}

impl PySweepTable {
    fn columns_inner<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let out = PyList::empty(py);
        for (name, column) in self.inner.columns() {
            let values = match column {
                Column::Str(v) => v.into_pyobject(py)?.into_any(),
                Column::U64(v) => v.into_pyarray(py).into_any(),
                Column::F64(v) => v.into_pyarray(py).into_any(),
            };
            out.append((name, values))?;
        }
        Ok(out)
    }
}

/// The position of grid cell `cell` on each axis of a grid whose axes
/// have `lengths` values (`skirmish_sim::sweep::grid_position`: the sweep's
/// grid order, first axis slowest). A cell outside the grid, or an axis
/// without values, raises `InvalidSweepError`.
#[pyfunction]
pub(crate) fn grid_position(
    py: Python<'_>,
    #[pyo3(from_py_with = args::sweep::lengths)] lengths: Vec<usize>,
    #[pyo3(from_py_with = args::sweep::cell)] cell: usize,
) -> PyResult<Vec<usize>> {
    guard(py, || {
        let cells = sweep::grid_cells(&lengths);
        if lengths.contains(&0) || cell as u64 >= cells {
            let why = format!("cell {cell} is outside a grid of {cells} cells (axes of {lengths:?} values)");
            return Err(SweepError::Invalid(why).to_py(py));
        }
        Ok(sweep::grid_position(&lengths, cell))
    })
}

/// The number of cells of a grid whose axes have `lengths` values
/// (`skirmish_sim::sweep::grid_cells`).
#[pyfunction]
pub(crate) fn grid_cells(
    py: Python<'_>,
    #[pyo3(from_py_with = args::sweep::lengths)] lengths: Vec<usize>,
) -> PyResult<u64> {
    guard(py, || Ok(sweep::grid_cells(&lengths)))
}

/// A checkpoint row's `row_check` (`skirmish_sim::sweep::row_check`): what
/// the Dask sweep writes beside each row it appends.
#[pyfunction]
pub(crate) fn row_check(
    py: Python<'_>,
    #[pyo3(from_py_with = args::sweep::header)] header: String,
    #[pyo3(from_py_with = args::sweep::line)] line: String,
) -> PyResult<String> {
    guard(py, || Ok(sweep::row_check(&header, &line)))
}

/// Registers the functions and the class.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PySweepTable>()?;
    m.add_function(wrap_pyfunction!(run_sweep, m)?)?;
    m.add_function(wrap_pyfunction!(grid_position, m)?)?;
    m.add_function(wrap_pyfunction!(grid_cells, m)?)?;
    m.add_function(wrap_pyfunction!(row_check, m)?)?;
    m.add("MAX_THREADS", sweep::MAX_THREADS)?;
    m.add("MAX_BATTLES", sweep::MAX_BATTLES)?;
    Ok(())
}
