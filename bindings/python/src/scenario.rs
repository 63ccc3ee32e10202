//! `skirmish_sim::scenario`: the `Scenario` class.

use std::path::PathBuf;

use pyo3::prelude::*;
use pyo3::types::PyTuple;
use skirmish_sim::scenario::{BUILTIN, Scenario};

use crate::args;
use crate::error::{ToPyErr, guard};

/// A scenario: who fights whom under which rules (immutable; every change
/// makes a copy). Python's `skirmish.Scenario` adds the conveniences.
#[pyclass(name = "Scenario", module = "skirmish._core", frozen, from_py_object)]
#[derive(Clone)]
pub(crate) struct PyScenario {
    pub(crate) inner: Scenario,
}

impl PyScenario {
    pub(crate) fn new(inner: Scenario) -> Self {
        PyScenario { inner }
    }
}

#[pymethods]
impl PyScenario {
    /// A built-in scenario by name (`skirmish.BUILTIN`).
    #[staticmethod]
    fn builtin(py: Python<'_>, #[pyo3(from_py_with = args::scenario::name)] name: String) -> PyResult<Self> {
        guard(py, || Scenario::builtin(&name).map(Self::new).map_err(|e| e.to_py(py)))
    }

    /// A scenario from a TOML text; `origin` names it in errors.
    #[staticmethod]
    #[pyo3(signature = (text, origin = "<string>".to_owned()), text_signature = "(text, origin='<string>')")]
    fn from_toml(
        py: Python<'_>,
        #[pyo3(from_py_with = args::scenario::text)] text: String,
        #[pyo3(from_py_with = args::scenario::origin)] origin: String,
    ) -> PyResult<Self> {
        guard(py, || {
            Scenario::from_toml_str(&text, &origin)
                .map(Self::new)
                .map_err(|e| e.to_py(py))
        })
    }

    /// A scenario from a JSON text; `origin` names it in errors.
    #[staticmethod]
    #[pyo3(signature = (text, origin = "<string>".to_owned()), text_signature = "(text, origin='<string>')")]
    fn from_json(
        py: Python<'_>,
        #[pyo3(from_py_with = args::scenario::text)] text: String,
        #[pyo3(from_py_with = args::scenario::origin)] origin: String,
    ) -> PyResult<Self> {
        guard(py, || {
            Scenario::from_json_str(&text, &origin)
                .map(Self::new)
                .map_err(|e| e.to_py(py))
        })
    }

    /// A scenario from a `.toml` or `.json` file.
    #[staticmethod]
    fn from_file(py: Python<'_>, #[pyo3(from_py_with = args::scenario::file)] path: PathBuf) -> PyResult<Self> {
        guard(py, || Scenario::load(&path).map(Self::new).map_err(|e| e.to_py(py)))
    }

    /// Its name.
    #[getter]
    fn name(&self) -> String {
        self.inner.name.clone()
    }

    /// The side names, in order.
    #[getter]
    fn sides(&self) -> Vec<String> {
        self.inner.sides.iter().map(|s| s.name.clone()).collect()
    }

    /// The fingerprint sweeps record (16 hex digits).
    fn fingerprint(&self, py: Python<'_>) -> PyResult<String> {
        guard(py, || Ok(self.inner.fingerprint()))
    }

    /// The scenario as JSON text.
    fn to_json(&self, py: Python<'_>) -> PyResult<String> {
        guard(py, || self.inner.to_json_string().map_err(|e| e.to_py(py)))
    }

    /// The scenario as TOML text.
    fn to_toml(&self, py: Python<'_>) -> PyResult<String> {
        guard(py, || self.inner.to_toml_string().map_err(|e| e.to_py(py)))
    }

    /// The value at a field path, as JSON text.
    fn get_json(&self, py: Python<'_>, #[pyo3(from_py_with = args::scenario::path)] path: String) -> PyResult<String> {
        guard(py, || {
            self.inner
                .get_field(&path)
                .map(|v| v.to_string())
                .map_err(|e| e.to_py(py))
        })
    }

    /// A copy with the field at `path` set to `value` (JSON if it parses
    /// as JSON, else plain text, as sweeps and the CLI read it).
    fn with_field(
        &self,
        py: Python<'_>,
        #[pyo3(from_py_with = args::scenario::path)] path: String,
        #[pyo3(from_py_with = args::scenario::value)] value: String,
    ) -> PyResult<Self> {
        guard(py, || {
            self.inner
                .with_field(&path, &value)
                .map(Self::new)
                .map_err(|e| e.to_py(py))
        })
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> PyResult<bool> {
        guard(other.py(), || {
            Ok(other.cast::<PyScenario>().is_ok_and(|o| o.get().inner == self.inner))
        })
    }

    fn __hash__(&self, py: Python<'_>) -> PyResult<u64> {
        guard(py, || {
            Ok(u64::from_str_radix(&self.inner.fingerprint(), 16).unwrap_or(0))
        })
    }

    /// Pickles as its JSON text.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let json = slf.get().to_json(py)?;
        let from_json = slf.get_type().getattr("from_json")?;
        PyTuple::new(
            py,
            [
                from_json.into_any(),
                PyTuple::new(py, [json, "<pickle>".to_owned()])?.into_any(),
            ],
        )
    }

    fn __repr__(&self) -> String {
        format!(
            "Scenario({:?}: {})",
            self.inner.name,
            self.inner
                .sides
                .iter()
                .map(|s| s.name.as_str())
                .collect::<Vec<_>>()
                .join(" vs ")
        )
    }
}

/// Registers the class and the built-in names.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyScenario>()?;
    m.add("BUILTIN", BUILTIN.to_vec())?;
    Ok(())
}
