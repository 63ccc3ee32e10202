//! Every argument a call of `skirmish._core` takes from Python, converted
//! here and only here.
//!
//! PyO3's own conversions raise bare builtins (`OverflowError` for `-1`
//! as a `u64`, `TypeError` for a float, `UnicodeEncodeError` for a lone
//! surrogate); a call's arguments go through `Arg` instead, by
//! `#[pyo3(from_py_with = args::<door>::<name>)]`, and a bad one raises
//! the documented `SkirmishError` subclass naming the argument (and, for
//! an item, its place: `a[1]`, `attributes[0][1]`) and what it may be:
//!
//! | door | an int out of the type's range | text that is not text (a lone surrogate) | a wrong type |
//! | --- | --- | --- | --- |
//! | `rules` (odds, dice, tables, timing analysis, battles, exact fights) | `OutOfRangeError` | `InvalidValueError` | `ArgumentTypeError` |
//! | `scenario` (`Scenario`'s calls) | - | `ScenarioSyntaxError` | `ArgumentTypeError` |
//! | `sweep` (sweeps and their grid) | `InvalidSweepError` | `InvalidSweepError` | `ArgumentTypeError` |
//! | `balance` (balance searches) | `InvalidBalanceError` | `InvalidBalanceError` | `ArgumentTypeError` |
//! | `tracker` (`Encounter`'s calls) | `InvalidInputError` | `InvalidInputError` | `ArgumentTypeError` |
//! | `tracker` ids (`combatant`, `effect`) | `NotFoundError` | - | `ArgumentTypeError` |
//!
//! The happy path is PyO3's own extraction: the checks that name the
//! problem run only once it has failed.

use std::fmt::Write as _;
use std::path::PathBuf;

use pyo3::exceptions::PyUnicodeError;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyInt, PySequence, PyString};
use skirmish_core::tracker::TrackerError;
use skirmish_sim::balance::BalanceError;
use skirmish_sim::scenario::{ScenarioError, ScenarioErrorKind};
use skirmish_sim::sweep::SweepError;

use crate::error::{ToPyErr, argument_type, out_of_range};
use crate::scenario::PyScenario;

/// Which part of the module a call belongs to: it picks the class a bad
/// argument raises (the table in the module's docs).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Door {
    /// Odds, dice, tables, the timing analysis and battles.
    Rules,
    /// The `Scenario` class.
    Scenario,
    /// Sweeps and their grid.
    Sweep,
    /// Balance searches.
    Balance,
    /// The live `Encounter`.
    Tracker,
    /// A combatant's or an effect's id in the live `Encounter`.
    TrackerId,
}

/// Where an argument is: its call's door, its name, and for an item of a
/// sequence its parent and index. The field's text (`a[1]`) is written
/// only when an error is raised.
#[derive(Clone, Copy, Debug)]
pub(crate) struct At<'a> {
    door: Door,
    name: &'static str,
    parent: Option<(&'a At<'a>, usize)>,
}

impl<'a> At<'a> {
    /// The argument `name` of a call of `door`.
    pub(crate) const fn new(door: Door, name: &'static str) -> At<'static> {
        At {
            door,
            name,
            parent: None,
        }
    }

    /// Item `index` of this argument.
    pub(crate) fn item(&'a self, index: usize) -> At<'a> {
        At {
            door: self.door,
            name: self.name,
            parent: Some((self, index)),
        }
    }

    /// The field as errors name it: `seed`, `a[1]`, `attributes[0][1]`.
    pub(crate) fn field(&self) -> String {
        match self.parent {
            None => self.name.to_owned(),
            Some((parent, index)) => {
                let mut s = parent.field();
                let _ = write!(s, "[{index}]");
                s
            }
        }
    }

    /// A value of the right type that is wrong (bad text, a tuple of the
    /// wrong length), as this door raises it.
    fn invalid(&self, py: Python<'_>, problem: &str) -> PyErr {
        invalid(py, self.door, self.field(), problem)
    }

    /// An int outside `min..=max`, as this door raises it.
    fn out_of_range(&self, py: Python<'_>, value: &Bound<'_, PyAny>, min: i128, max: i128) -> PyErr {
        let field = self.field();
        let problem = format!("{value} is outside {min}..={max}");
        match self.door {
            Door::Rules => out_of_range(py, &field, value, min, max),
            Door::Scenario | Door::Sweep | Door::Balance | Door::Tracker => self.invalid(py, &problem),
            Door::TrackerId => {
                TrackerError::not_found(&field, format!("no {} {value} ({problem})", self.name)).to_py(py)
            }
        }
    }

    /// A value of the wrong type: `ArgumentTypeError`, whatever the door.
    fn wrong_type(&self, value: &Bound<'_, PyAny>, expected: &str) -> PyErr {
        argument_type(value.py(), &self.field(), expected, value)
    }
}

/// The error `door` raises for the argument `field` of the right type
/// whose value is wrong for the reason `problem`.
fn invalid(py: Python<'_>, door: Door, field: String, problem: &str) -> PyErr {
    match door {
        Door::Rules => skirmish_core::Error::invalid(field, problem).to_py(py),
        Door::Scenario => ScenarioError {
            kind: ScenarioErrorKind::Syntax,
            origin: "<argument>".to_owned(),
            line: None,
            column: None,
            path: field,
            message: problem.to_owned(),
        }
        .to_py(py),
        Door::Sweep => SweepError::Invalid(format!("{field}: {problem}")).to_py(py),
        Door::Balance => BalanceError::Invalid {
            field,
            problem: problem.to_owned(),
        }
        .to_py(py),
        Door::Tracker | Door::TrackerId => TrackerError::invalid(&field, problem).to_py(py),
    }
}

/// The exception the Python layer raises for its own argument `field` whose
/// value is wrong for the reason `problem` (`skirmish/_args.py`): the one
/// `door` (`"rules"`, `"scenario"`, `"sweep"`, `"balance"` or `"tracker"`) raises, made
/// here so both layers raise the same.
#[pyfunction]
#[pyo3(name = "_invalid_argument")]
pub(crate) fn invalid_argument(
    py: Python<'_>,
    #[pyo3(from_py_with = rules::name)] door: String,
    #[pyo3(from_py_with = rules::name)] field: String,
    #[pyo3(from_py_with = rules::name)] problem: String,
) -> PyResult<Py<PyAny>> {
    let door = match door.as_str() {
        "rules" => Door::Rules,
        "scenario" => Door::Scenario,
        "sweep" => Door::Sweep,
        "balance" => Door::Balance,
        "tracker" => Door::Tracker,
        other => {
            return Err(invalid(
                py,
                Door::Rules,
                "door".to_owned(),
                &format!("no door {other:?}"),
            ));
        }
    };
    Ok(invalid(py, door, field, &problem).into_value(py).into_any())
}

/// The `ArgumentTypeError` the Python layer raises for its own argument
/// `field` that is not `expected` (`"a mapping"`) but `value`.
#[pyfunction]
#[pyo3(name = "_argument_type_error")]
pub(crate) fn argument_type_error(
    py: Python<'_>,
    #[pyo3(from_py_with = rules::name)] field: String,
    #[pyo3(from_py_with = rules::name)] expected: String,
    value: &Bound<'_, PyAny>,
) -> Py<PyAny> {
    argument_type(py, &field, &expected, value).into_value(py).into_any()
}

/// A Python value converted for a call, or the typed error naming `at`.
pub(crate) trait Arg<'py>: Sized {
    /// The value of `obj`, the argument at `at`.
    fn read(obj: &Bound<'py, PyAny>, at: &At<'_>) -> PyResult<Self>;
}

/// `obj` as a Python int, if it is one or has `__index__` (NumPy's ints);
/// a `bool` is an int, as Python has it.
fn as_int<'py>(obj: &Bound<'py, PyAny>) -> Option<Bound<'py, PyAny>> {
    if obj.is_instance_of::<PyInt>() {
        return Some(obj.clone());
    }
    obj.call_method0(intern!(obj.py(), "__index__"))
        .ok()
        .filter(|i| i.is_instance_of::<PyInt>())
}

macro_rules! int_arg {
    ($($t:ty),*) => {$(
        impl<'py> Arg<'py> for $t {
            fn read(obj: &Bound<'py, PyAny>, at: &At<'_>) -> PyResult<Self> {
                obj.extract::<$t>().map_err(|_| match as_int(obj) {
                    Some(int) => at.out_of_range(obj.py(), &int, <$t>::MIN as i128, <$t>::MAX as i128),
                    None => at.wrong_type(obj, "an int"),
                })
            }
        }
    )*};
}

int_arg!(u32, u64, i32, i64, usize);

impl<'py> Arg<'py> for f64 {
    fn read(obj: &Bound<'py, PyAny>, at: &At<'_>) -> PyResult<Self> {
        // An int or a float (NumPy's too), not a bool: a bool is no number
        // of a field's range.
        if obj.is_instance_of::<PyBool>() {
            return Err(at.wrong_type(obj, "a number"));
        }
        obj.extract::<f64>().map_err(|_| at.wrong_type(obj, "a number"))
    }
}

impl<'py> Arg<'py> for bool {
    fn read(obj: &Bound<'py, PyAny>, at: &At<'_>) -> PyResult<Self> {
        match obj.cast::<PyBool>() {
            Ok(b) => Ok(b.is_true()),
            // NumPy's bool, as PyO3 takes it.
            Err(_) => obj.extract::<bool>().map_err(|_| at.wrong_type(obj, "a bool")),
        }
    }
}

impl<'py> Arg<'py> for String {
    fn read(obj: &Bound<'py, PyAny>, at: &At<'_>) -> PyResult<Self> {
        let s = obj.cast::<PyString>().map_err(|_| at.wrong_type(obj, "a str"))?;
        s.to_cow().map(|c| c.into_owned()).map_err(|e| {
            let py = obj.py();
            let why = if e.is_instance_of::<PyUnicodeError>(py) {
                format!("not valid text ({})", e.value(py))
            } else {
                e.value(py).to_string()
            };
            at.invalid(py, &why)
        })
    }
}

impl<'py> Arg<'py> for PathBuf {
    fn read(obj: &Bound<'py, PyAny>, at: &At<'_>) -> PyResult<Self> {
        obj.extract::<PathBuf>().map_err(|e| {
            let py = obj.py();
            let path_like = obj.is_instance_of::<PyString>() || obj.hasattr(intern!(py, "__fspath__")).unwrap_or(false);
            if path_like {
                at.invalid(py, &format!("not a path the system can open ({})", e.value(py)))
            } else {
                at.wrong_type(obj, "a str or an os.PathLike")
            }
        })
    }
}

impl<'py> Arg<'py> for PyScenario {
    fn read(obj: &Bound<'py, PyAny>, at: &At<'_>) -> PyResult<Self> {
        obj.cast::<PyScenario>()
            .map(|s| s.get().clone())
            .map_err(|_| at.wrong_type(obj, "a skirmish._core.Scenario"))
    }
}

impl<'py, T: Arg<'py>> Arg<'py> for Option<T> {
    fn read(obj: &Bound<'py, PyAny>, at: &At<'_>) -> PyResult<Self> {
        if obj.is_none() {
            Ok(None)
        } else {
            T::read(obj, at).map(Some)
        }
    }
}

/// The items of a sequence that is not a `str` or `bytes`, or the error.
fn sequence<'py>(obj: &Bound<'py, PyAny>, at: &At<'_>, expected: &str) -> PyResult<Bound<'py, PySequence>> {
    if obj.is_instance_of::<PyString>() || obj.is_instance_of::<pyo3::types::PyBytes>() {
        return Err(at.wrong_type(obj, expected));
    }
    obj.cast::<PySequence>()
        .cloned()
        .map_err(|_| at.wrong_type(obj, expected))
}

impl<'py, T: Arg<'py>> Arg<'py> for Vec<T> {
    fn read(obj: &Bound<'py, PyAny>, at: &At<'_>) -> PyResult<Self> {
        let seq = sequence(obj, at, "a list")?;
        let len = seq.len()?;
        let mut out = Vec::with_capacity(len);
        for i in 0..len {
            out.push(T::read(&seq.get_item(i)?, &at.item(i))?);
        }
        Ok(out)
    }
}

macro_rules! tuple_arg {
    ($n:literal: $($t:ident $i:tt),*) => {
        impl<'py, $($t: Arg<'py>),*> Arg<'py> for ($($t,)*) {
            fn read(obj: &Bound<'py, PyAny>, at: &At<'_>) -> PyResult<Self> {
                let seq = sequence(obj, at, concat!("a tuple of ", $n))?;
                let len = seq.len()?;
                if len != $n {
                    return Err(at.invalid(obj.py(), &format!(concat!("a tuple of ", $n, ", not of {}"), len)));
                }
                Ok(($($t::read(&seq.get_item($i)?, &at.item($i))?,)*))
            }
        }
    };
}

tuple_arg!(2: A 0, B 1);
tuple_arg!(3: A 0, B 1, C 2);

/// Declares the extractors of one door: `name: Type` is a function
/// `name` reading the argument `name`; `fn_name("name"): Type` one for an
/// argument whose name another extractor of the door already has with
/// another type.
macro_rules! extractors {
    ($door:ident: $($fn_name:ident $(($py_name:literal))?: $t:ty),* $(,)?) => {$(
        #[doc = concat!("The argument `", extractors!(@name $fn_name $($py_name)?), "` (`", stringify!($t), "`).")]
        pub(crate) fn $fn_name(obj: &Bound<'_, PyAny>) -> PyResult<$t> {
            const AT: At<'static> = At::new(Door::$door, extractors!(@name $fn_name $($py_name)?));
            <$t as Arg>::read(obj, &AT)
        }
    )*};
    (@name $fn_name:ident) => { stringify!($fn_name) };
    (@name $fn_name:ident $py_name:literal) => { $py_name };
}

/// Odds, dice, tables, the timing analysis and battles.
pub(crate) mod rules {
    use super::*;

    extractors! {Rules:
        seed: u64,
        index: u64,
        trace: bool,
        battles: u64,
        count: u32,
        sides: Option<u32>,
        strike_rating: i32,
        defense_rating: i32,
        parry_strike_rating: i32,
        roll: i32,
        amazing: bool,
        guaranteed: bool,
        point_blank: bool,
        range: Option<(i64, i64, i64)>,
        skill: i32,
        attributes: Vec<(String, i32)>,
        weapon: i32,
        magic: i32,
        other: Vec<(String, i32)>,
        armor: i32,
        shield: i32,
        coverage: i32,
        time_taken: u32,
        speed_bonus: i32,
        a: (u32, i32),
        b: (u32, i32),
        reflexes: i32,
        combat_sense: i32,
        rate_of_fire: String,
        extra_per_round: u32,
        ticks: u32,
        actions_allowed: u32,
        ticks_per_round: u32,
        genre: Option<String>,
        name: String,
        scenario: PyScenario,
        max_states: u64,
        max_exact_states: u64,
        arithmetic: String,
    }
}

/// The `Scenario` class.
pub(crate) mod scenario {
    use std::path::PathBuf;

    use super::*;

    extractors! {Scenario:
        name: String,
        text: String,
        origin: String,
        path: String,
        file("path"): PathBuf,
        value: String,
    }
}

/// Sweeps and their grid.
pub(crate) mod sweep {
    use std::path::PathBuf;

    use super::*;

    extractors! {Sweep:
        scenario: PyScenario,
        axes: Vec<(String, Vec<String>)>,
        battles: u64,
        seed: u64,
        threads: Option<usize>,
        checkpoint: Option<PathBuf>,
        resume: bool,
        dry_run: bool,
        force: bool,
        lengths: Vec<usize>,
        cell: usize,
        header: String,
        line: String,
    }
}

/// Balance searches.
pub(crate) mod balance {
    use super::*;

    extractors! {Balance:
        scenario: PyScenario,
        field: String,
        between: (f64, f64),
        target: f64,
        side: Option<String>,
        seed: u64,
        battles: u64,
        max_battles: u64,
        tolerance: Option<f64>,
        method: String,
        threads: Option<usize>,
    }
}

/// The live `Encounter`.
pub(crate) mod tracker {
    use super::*;

    extractors! {Tracker:
        system: String,
        striking: String,
        damage: String,
        seed: u64,
        scenario: PyScenario,
        snapshot: String,
        name: String,
        label: String,
        side: Option<String>,
        side_name("side"): String,
        hidden: bool,
        count: u32,
        roll: Option<i32>,
        ticks: u32,
        ticks_opt("ticks"): Option<u32>,
        effect_ticks("ticks"): Option<u64>,
        rounds: Option<u32>,
        defending: bool,
        concentration_kept: bool,
        total: Option<i64>,
        defense: Option<i32>,
        parry: bool,
        point_blank: bool,
        modifier: i32,
        postures: Option<(Option<i32>, Option<i32>)>,
        rolls: Option<Vec<Option<i32>>>,
        group_roll: bool,
        exact: bool,
        group: Option<i32>,
        median: bool,
        story_rolls("rolls"): Vec<i32>,
        difficulty: i32,
        difficulties: (i32, i32),
        unaware: bool,
        dodge_skill: Option<i32>,
        propelled: Option<i32>,
        dodge: Option<i32>,
        rolls_pair("rolls"): (Option<i32>, Option<i32>),
        hit_points: Option<i32>,
        players: bool,
        n: u64,
        limit: u32,
    }

    extractors! {TrackerId:
        combatant: u32,
        lone: u32,
        foes: Vec<u32>,
        ignore: Vec<u32>,
        strike: Vec<u32>,
        attacker: u32,
        target: u32,
        shooter: u32,
        first: u32,
        second: u32,
        target_opt("target"): Option<u32>,
        effect: u32,
        scout: u32,
        foe: u32,
    }
}
