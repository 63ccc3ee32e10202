//! Frozen record classes: the Rust types a call hands to Python as native
//! objects (not JSON text), each with getters, `__eq__`, `__hash__`,
//! `__repr__`, `__match_args__`, pickling and `__replace__`, and its stub
//! written from the Rust field types.
//!
//! `record!` declares one: a `#[pyclass(frozen)]` whose fields
//! are Rust values of a `Field` type. A field is converted to Python when
//! it is read (a name, a number), except records nested in a record, which
//! are built once, with their parent, as a tuple of Python objects (a view's
//! thirty combatants are not made again at each access). The Python type of
//! each field in the stubs is `Field::hint` of its Rust type: the stubs
//! of the records cannot say other than the getters do (`_core._stubs()`
//! writes them; `scripts/python-stubs` puts them in `_core.pyi`, and the
//! tests check that it is up to date).
//!
//! A record is also made from Python (`Part("roll", -1)`): every field in
//! order, as the getters name them, each checked and converted by its
//! `Field` type; a bad value raises `InvalidInputError` naming the field.
//! That makes pickling a plain `(class, fields)`.

use std::fmt::Write as _;
use std::marker::PhantomData;

use pyo3::IntoPyObjectExt;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString, PyTuple};
use serde::Serialize;
use serde::de::DeserializeOwned;
use skirmish_core::tracker::TrackerError;

use crate::error::ToPyErr;

/// A Rust type a record field can have: how it reads from and converts to
/// Python, and how the stubs write it.
pub(crate) trait Field: Sized {
    /// The Python type a getter returns, as the stubs write it.
    fn hint() -> String;
    /// The Python type the record's constructor takes for it.
    fn input_hint() -> String {
        Self::hint()
    }
    /// The Python value.
    fn to_py<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>>;
    /// The value from a Python object, or why not.
    fn from_py(obj: &Bound<'_, PyAny>) -> Result<Self, String>;
}

macro_rules! plain_field {
    ($hint:literal: $($t:ty),*) => {$(
        impl Field for $t {
            fn hint() -> String {
                $hint.to_owned()
            }
            fn to_py<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
                self.clone().into_bound_py_any(py)
            }
            fn from_py(obj: &Bound<'_, PyAny>) -> Result<Self, String> {
                obj.extract::<$t>().map_err(|e| e.to_string())
            }
        }
    )*};
}

plain_field!("int": i32, u32, i64, u64);
plain_field!("float": f64);
plain_field!("bool": bool);
plain_field!("str": String);

/// An exact fraction in lowest terms as the core writes it (`"50/131"`,
/// `"0"`): a `fractions.Fraction` in Python.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct FractionText(pub(crate) String);

impl Field for FractionText {
    fn hint() -> String {
        "Fraction".to_owned()
    }
    fn to_py<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        py.import("fractions")?.getattr("Fraction")?.call1((self.0.as_str(),))
    }
    fn from_py(obj: &Bound<'_, PyAny>) -> Result<Self, String> {
        let class = obj
            .py()
            .import("fractions")
            .and_then(|m| m.getattr("Fraction"))
            .map_err(|e| e.to_string())?;
        if !obj.is_instance(&class).map_err(|e| e.to_string())? {
            return Err(format!("a Fraction, not {}", type_name(obj)));
        }
        obj.str()
            .map(|s| FractionText(s.to_string()))
            .map_err(|e| e.to_string())
    }
}

impl<T: Field> Field for Option<T> {
    fn hint() -> String {
        format!("Optional[{}]", T::hint())
    }
    fn input_hint() -> String {
        format!("Optional[{}]", T::input_hint())
    }
    fn to_py<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        match self {
            Some(v) => v.to_py(py),
            None => Ok(py.None().into_bound(py)),
        }
    }
    fn from_py(obj: &Bound<'_, PyAny>) -> Result<Self, String> {
        if obj.is_none() {
            Ok(None)
        } else {
            T::from_py(obj).map(Some)
        }
    }
}

/// Values read from a sequence (not a `str`), each by `T`.
fn items<T: Field>(obj: &Bound<'_, PyAny>) -> Result<Vec<T>, String> {
    if obj.is_instance_of::<PyString>() {
        return Err("a sequence, not a str".to_owned());
    }
    let iter = obj
        .try_iter()
        .map_err(|_| format!("a sequence, not {}", type_name(obj)))?;
    iter.map(|item| {
        let item = item.map_err(|e| e.to_string())?;
        T::from_py(&item)
    })
    .collect()
}

/// A short list of plain values, a fresh `tuple` at each read (`members`).
impl<T: Field> Field for Vec<T> {
    fn hint() -> String {
        format!("tuple[{}, ...]", T::hint())
    }
    fn input_hint() -> String {
        format!("Sequence[{}]", T::input_hint())
    }
    fn to_py<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let items = self.iter().map(|v| v.to_py(py)).collect::<PyResult<Vec<_>>>()?;
        Ok(PyTuple::new(py, items)?.into_any())
    }
    fn from_py(obj: &Bound<'_, PyAny>) -> Result<Self, String> {
        items(obj)
    }
}

/// A tuple built once, with the record holding it: the records nested in
/// a record (a view's combatants, a moment's lines).
pub(crate) struct Tuple<T> {
    items: Py<PyTuple>,
    of: PhantomData<fn() -> T>,
}

impl<T: Field> Tuple<T> {
    /// The tuple of `values`.
    pub(crate) fn of(py: Python<'_>, values: impl IntoIterator<Item = T>) -> PyResult<Self> {
        let items = values.into_iter().map(|v| v.to_py(py)).collect::<PyResult<Vec<_>>>()?;
        Ok(Tuple {
            items: PyTuple::new(py, items)?.unbind(),
            of: PhantomData,
        })
    }

    /// The Python tuple.
    pub(crate) fn bind<'py>(&self, py: Python<'py>) -> &Bound<'py, PyTuple> {
        self.items.bind(py)
    }
}

impl<T: Field> Field for Tuple<T> {
    fn hint() -> String {
        format!("tuple[{}, ...]", T::hint())
    }
    fn input_hint() -> String {
        format!("Sequence[{}]", T::input_hint())
    }
    fn to_py<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(self.items.bind(py).clone().into_any())
    }
    fn from_py(obj: &Bound<'_, PyAny>) -> Result<Self, String> {
        let values: Vec<T> = items(obj)?;
        Tuple::of(obj.py(), values).map_err(|e| e.to_string())
    }
}

/// A record nested in a record.
impl<R: Record> Field for Py<R> {
    fn hint() -> String {
        R::CLASS_NAME.to_owned()
    }
    fn to_py<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(self.bind(py).clone().into_any())
    }
    fn from_py(obj: &Bound<'_, PyAny>) -> Result<Self, String> {
        obj.cast::<R>()
            .map(|r| r.clone().unbind())
            .map_err(|_| format!("a {}, not {}", R::CLASS_NAME, type_name(obj)))
    }
}

/// A plain tree (a fighter's stats, a wound track) as its serde form: a
/// fresh `dict` at each read, so the frozen record cannot be changed
/// through it.
pub(crate) struct Tree<T>(pub(crate) T);

impl<T: Serialize + DeserializeOwned> Field for Tree<T> {
    fn hint() -> String {
        "dict[str, Any]".to_owned()
    }
    fn input_hint() -> String {
        "Mapping[str, Any]".to_owned()
    }
    fn to_py<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(pythonize::pythonize(py, &self.0)?)
    }
    fn from_py(obj: &Bound<'_, PyAny>) -> Result<Self, String> {
        serde_value(obj).map(Tree)
    }
}

/// An enum of the core whose every variant is known here, so that its
/// names can be listed (a stub's `Literal`, a Python `Enum`'s members).
pub(crate) trait Variants: Copy + Serialize + DeserializeOwned + 'static {
    /// Every variant, in declaration order.
    const ALL: &'static [Self];
    /// Its position in `ALL`: an exhaustive `match`, so a
    /// variant added to the core stops the build until it is listed.
    fn ordinal(self) -> usize;
}

/// The core's serde name of a variant (`"amazing_strike"`).
pub(crate) fn serde_name<T: Variants>(v: T) -> String {
    match serde_json::to_value(v) {
        Ok(serde_json::Value::String(s)) => s,
        other => format!("{other:?}"),
    }
}

/// Whether `T::ALL` lists every variant once, in `ordinal` order (checked
/// when the module is imported).
pub(crate) fn listed_in_order<T: Variants>() -> bool {
    T::ALL.iter().enumerate().all(|(i, v)| v.ordinal() == i)
}

/// An enum field read and written as its serde name, a `str`; the stubs
/// list the names as a `Literal`.
pub(crate) struct Name<T>(pub(crate) T);

impl<T: Variants> Field for Name<T> {
    fn hint() -> String {
        let names: Vec<String> = T::ALL.iter().map(|v| format!("{:?}", serde_name(*v))).collect();
        format!("Literal[{}]", names.join(", "))
    }
    fn to_py<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(pythonize::pythonize(py, &self.0)?)
    }
    fn from_py(obj: &Bound<'_, PyAny>) -> Result<Self, String> {
        serde_value(obj).map(Name)
    }
}

/// A value of `T` in its serde form, from a Python object.
pub(crate) fn serde_value<T: DeserializeOwned>(obj: &Bound<'_, PyAny>) -> Result<T, String> {
    let mut de = pythonize::Depythonizer::from_object(obj);
    serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let path = e.path().to_string();
        if path == "." {
            e.inner().to_string()
        } else {
            format!("{path}: {}", e.inner())
        }
    })
}

fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type().name().map_or_else(|_| "?".to_owned(), |n| n.to_string())
}

/// A record class: its name, its fields and how to read them all.
pub(crate) trait Record: pyo3::PyClass<Frozen = pyo3::pyclass::boolean_struct::True> + Sync {
    /// The Python class name.
    const CLASS_NAME: &'static str;
    /// The fields, in order (the constructor's arguments, `__match_args__`).
    const FIELDS: &'static [&'static str];
    /// Every field's Python value, in order.
    fn values<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>>;
    /// The class's stub.
    fn stub() -> String;
}

/// A constructor argument `name` read by its field type, or
/// `InvalidInputError` naming it.
pub(crate) fn arg<T: Field>(obj: &Bound<'_, PyAny>, record: &str, name: &str) -> PyResult<T> {
    T::from_py(obj).map_err(|why| TrackerError::invalid(&format!("{record}.{name}"), why).to_py(obj.py()))
}

/// `==`: the same class and equal fields.
pub(crate) fn eq<R: Record>(slf: &Bound<'_, R>, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    let py = slf.py();
    match other.cast::<R>() {
        Ok(other) => slf.get().values(py)?.eq(other.get().values(py)?)?.into_py_any(py),
        Err(_) => Ok(py.NotImplemented()),
    }
}

/// `Name(field=value, ...)`, as a dataclass writes itself.
pub(crate) fn repr<R: Record>(slf: &Bound<'_, R>) -> PyResult<String> {
    let mut out = format!("{}(", R::CLASS_NAME);
    for (i, (field, value)) in R::FIELDS.iter().zip(slf.get().values(slf.py())?.iter()).enumerate() {
        let sep = if i == 0 { "" } else { ", " };
        let _ = write!(out, "{sep}{field}={}", value.repr()?);
    }
    out.push(')');
    Ok(out)
}

/// Pickling: the class and its fields.
pub(crate) fn reduce<'py, R: Record>(slf: &Bound<'py, R>) -> PyResult<Bound<'py, PyTuple>> {
    let py = slf.py();
    PyTuple::new(
        py,
        [slf.as_any().get_type().into_any(), slf.get().values(py)?.into_any()],
    )
}

/// `copy.replace(record, field=value)` (Python 3.13): a copy with some
/// fields changed, checked as the constructor checks them.
pub(crate) fn replace<'py, R: Record>(
    slf: &Bound<'py, R>,
    changes: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyAny>> {
    let py = slf.py();
    let fields = PyDict::new(py);
    for (field, value) in R::FIELDS.iter().zip(slf.get().values(py)?.iter()) {
        fields.set_item(field, value)?;
    }
    if let Some(changes) = changes {
        for (key, value) in changes.iter() {
            if !fields.contains(&key)? {
                return Err(PyTypeError::new_err(format!(
                    "{} has no field {}",
                    R::CLASS_NAME,
                    key.repr()?
                )));
            }
            fields.set_item(key, value)?;
        }
    }
    slf.as_any().get_type().call((), Some(&fields))
}

/// `__match_args__`: the field names.
pub(crate) fn match_args<R: Record>(py: Python<'_>) -> PyResult<Py<PyTuple>> {
    Ok(PyTuple::new(py, R::FIELDS)?.unbind())
}

/// One record's stub: its constructor, a property per field, the methods
/// every record has, then `extra` (the stubs of its own methods).
pub(crate) fn class_stub(name: &str, fields: &[(&str, String, String)], extra: &[&str]) -> String {
    let mut out = format!("@final\nclass {name}:\n");
    let names: Vec<String> = fields.iter().map(|(f, _, _)| format!("{f:?}")).collect();
    let comma = if names.len() == 1 { "," } else { "" };
    let _ = writeln!(out, "    __match_args__ = ({}{comma})", names.join(", "));
    let args: String = fields.iter().map(|(f, _, input)| format!(", {f}: {input}")).collect();
    let _ = writeln!(out, "    def __new__(cls{args}) -> {name}: ...");
    for (field, hint, _) in fields {
        let _ = writeln!(out, "    @property\n    def {field}(self) -> {hint}: ...");
    }
    out.push_str("    def __eq__(self, other: object, /) -> bool: ...\n");
    out.push_str("    def __hash__(self) -> int: ...\n");
    out.push_str("    def __reduce__(self) -> tuple[Any, ...]: ...\n");
    let _ = writeln!(out, "    def __replace__(self, **changes: Any) -> {name}: ...");
    for line in extra {
        let _ = writeln!(out, "    {line}");
    }
    out
}

/// Declares a record class (see the [module docs](self)):
///
/// ```ignore
/// record! {
///     /// One term of a total.
///     struct PyPart as "Part" {
///         /// What it is.
///         label: String,
///         /// What it adds.
///         value: i32,
///     }
///     stub []
///     methods {}
/// }
/// ```
///
/// `stub` holds the stub lines of the methods in `methods` (checked
/// against the module by stubtest).
macro_rules! record {
    (
        $(#[doc = $doc:literal])*
        struct $rust:ident as $name:literal {
            $( $(#[doc = $fdoc:literal])* $field:ident : $ty:ty ),* $(,)?
        }
        stub [ $($stub:literal),* $(,)? ]
        methods { $($methods:tt)* }
    ) => {
        $(#[doc = $doc])*
        #[pyclass(name = $name, module = "skirmish._core", frozen)]
        pub(crate) struct $rust {
            $( $(#[doc = $fdoc])* pub(crate) $field: $ty, )*
        }

        impl $crate::record::Record for $rust {
            const CLASS_NAME: &'static str = $name;
            const FIELDS: &'static [&'static str] = &[$(stringify!($field)),*];
            fn values<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, pyo3::types::PyTuple>> {
                let values: Vec<Bound<'py, PyAny>> =
                    vec![$( $crate::record::Field::to_py(&self.$field, py)? ),*];
                pyo3::types::PyTuple::new(py, values)
            }
            fn stub() -> String {
                $crate::record::class_stub(
                    $name,
                    &[$((
                        stringify!($field),
                        <$ty as $crate::record::Field>::hint(),
                        <$ty as $crate::record::Field>::input_hint(),
                    )),*],
                    &[$($stub),*],
                )
            }
        }

        #[pymethods]
        impl $rust {
            #[new]
            #[allow(clippy::too_many_arguments, reason = "every field of the record, as a dataclass takes them")]
            fn __new__($( $field: Bound<'_, PyAny> ),*) -> PyResult<Self> {
                Ok(Self { $( $field: $crate::record::arg(&$field, $name, stringify!($field))?, )* })
            }

            $(
                $(#[doc = $fdoc])*
                #[getter]
                fn $field<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
                    $crate::record::Field::to_py(&self.$field, py)
                }
            )*

            fn __eq__(slf: &Bound<'_, Self>, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
                $crate::record::eq(slf, other)
            }

            fn __hash__(slf: &Bound<'_, Self>) -> PyResult<isize> {
                use $crate::record::Record as _;
                slf.get().values(slf.py())?.hash()
            }

            fn __repr__(slf: &Bound<'_, Self>) -> PyResult<String> {
                $crate::record::repr(slf)
            }

            /// Pickling: the class and its fields.
            fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, pyo3::types::PyTuple>> {
                $crate::record::reduce(slf)
            }

            /// A copy with some fields changed (`copy.replace`, Python 3.13).
            #[pyo3(signature = (**changes))]
            fn __replace__<'py>(
                slf: &Bound<'py, Self>,
                changes: Option<&Bound<'py, pyo3::types::PyDict>>,
            ) -> PyResult<Bound<'py, PyAny>> {
                $crate::record::replace(slf, changes)
            }

            #[classattr]
            fn __match_args__(py: Python<'_>) -> PyResult<Py<pyo3::types::PyTuple>> {
                $crate::record::match_args::<Self>(py)
            }

            $($methods)*
        }
    };
}

pub(crate) use record;
