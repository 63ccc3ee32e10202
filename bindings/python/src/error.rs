//! Every Rust error becomes a Python exception here, and only here.
//!
//! The hierarchy is rooted at `skirmish.SkirmishError`; each class is also
//! the builtin a Python caller would expect (`ValueError`, `LookupError`,
//! `OSError`, ...), so `except ValueError` keeps working, and carries the
//! error's structured fields as attributes (the field path, the value and
//! its bounds, suggestions, file/line/column). One class per error kind:
//! the `CLASSES` table is the whole list, the `ToPyErr` impls the whole
//! mapping.
//!
//! The classes are made at import time with Python's `type()`, because
//! several have two bases (ours and the builtin), which a `#[pyclass]`
//! exception cannot have. A panic never reaches Python: `guard` catches
//! it at the boundary and raises `InternalError` naming it.

use std::any::Any;
use std::panic::{AssertUnwindSafe, catch_unwind};

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyTuple, PyType};
use skirmish_core::Error as CoreError;
use skirmish_core::tracker::{ErrorKind as TrackerKind, TrackerError};
use skirmish_sim::SimError;
use skirmish_sim::balance::{BalanceError, BalancePoint};
use skirmish_sim::exact::ExactError;
use skirmish_sim::scenario::{ScenarioError, ScenarioErrorKind};
use skirmish_sim::sweep::SweepError;

/// One exception class: its name, its bases (ours by name, builtins by
/// their Python name), its docstring and its structured fields.
struct ClassSpec {
    name: &'static str,
    bases: &'static [&'static str],
    doc: &'static str,
    fields: &'static [&'static str],
}

const SCENARIO_FIELDS: &[&str] = &["kind", "origin", "line", "column", "path", "message"];
const TRACKER_FIELDS: &[&str] = &["kind", "field", "message"];

/// Every exception class of the package, parents before children.
const CLASSES: &[ClassSpec] = &[
    ClassSpec {
        name: "SkirmishError",
        bases: &["Exception"],
        doc: "The root of every error skirmish raises.",
        fields: &[],
    },
    ClassSpec {
        name: "InternalError",
        bases: &["SkirmishError", "RuntimeError"],
        doc: "A bug in skirmish (a Rust panic caught at the boundary): please report it.",
        fields: &["detail"],
    },
    ClassSpec {
        name: "ArgumentTypeError",
        bases: &["SkirmishError", "TypeError"],
        doc: "An argument of the wrong type (a float for an int, a set for a mapping): the field, what it must be and what it was.",
        fields: &["field", "expected", "got"],
    },
    // --- scenarios (skirmish_sim::scenario::ScenarioError, by kind)
    ClassSpec {
        name: "ScenarioError",
        bases: &["SkirmishError", "ValueError"],
        doc: "A scenario was refused: where (origin, line, column, field path) and why.",
        fields: SCENARIO_FIELDS,
    },
    ClassSpec {
        name: "ScenarioReadError",
        // OSError first: its layout decides how instances are made (and
        // unpickled; tblib, which distributed installs, calls __new__).
        bases: &["OSError", "ScenarioError"],
        doc: "A scenario file could not be read, or its extension names no known format.",
        fields: SCENARIO_FIELDS,
    },
    ClassSpec {
        name: "ScenarioSyntaxError",
        bases: &["ScenarioError"],
        doc: "Not valid TOML or JSON.",
        fields: SCENARIO_FIELDS,
    },
    ClassSpec {
        name: "ScenarioSchemaError",
        bases: &["ScenarioError"],
        doc: "Valid TOML or JSON, but not a scenario (a wrong type, an unknown key, a missing field).",
        fields: SCENARIO_FIELDS,
    },
    ClassSpec {
        name: "ScenarioInvalidError",
        bases: &["ScenarioError"],
        doc: "A well-formed scenario that breaks a rule (a count of 0, an unknown weapon, ...).",
        fields: SCENARIO_FIELDS,
    },
    ClassSpec {
        name: "FieldPathError",
        bases: &["ScenarioError", "LookupError"],
        doc: "A field path (as sweeps use) that names no field.",
        fields: SCENARIO_FIELDS,
    },
    ClassSpec {
        name: "UnknownScenarioError",
        bases: &["ScenarioError", "LookupError"],
        doc: "A built-in scenario name that is not known.",
        fields: SCENARIO_FIELDS,
    },
    // --- rules (skirmish_core::Error, by variant)
    ClassSpec {
        name: "RulesError",
        bases: &["SkirmishError", "ValueError"],
        doc: "A rule refused its input; the field is named.",
        fields: &["field"],
    },
    ClassSpec {
        name: "OutOfRangeError",
        bases: &["RulesError"],
        doc: "A number outside the range the rule allows.",
        fields: &["field", "value", "min", "max"],
    },
    ClassSpec {
        name: "InvalidValueError",
        bases: &["RulesError"],
        doc: "A value that is wrong for a reason other than its range.",
        fields: &["field", "problem"],
    },
    ClassSpec {
        name: "UnknownNameError",
        bases: &["RulesError", "LookupError"],
        doc: "A name (weapon, armor, ladder level, ...) that is not known, with the closest known names.",
        fields: &["field", "kind", "name", "suggestions"],
    },
    ClassSpec {
        name: "ScriptedRollError",
        bases: &["RulesError"],
        doc: "A roll supplied by the caller does not fit the dice it was used for.",
        fields: &["field", "dice", "position", "value", "min", "max"],
    },
    ClassSpec {
        name: "ScriptExhaustedError",
        bases: &["RulesError"],
        doc: "The rules asked for a roll and the supplied rolls had none left.",
        fields: &["field", "dice", "used"],
    },
    ClassSpec {
        name: "RulesOverflowError",
        bases: &["RulesError", "OverflowError"],
        doc: "A sum or product left the range of the integers the rules use.",
        fields: &["field", "problem"],
    },
    // --- the live encounter (skirmish_core::tracker::TrackerError, by kind)
    ClassSpec {
        name: "TrackerError",
        bases: &["SkirmishError"],
        doc: "The live encounter refused an operation (and changed nothing): its kind, the field and why.",
        fields: TRACKER_FIELDS,
    },
    ClassSpec {
        name: "NotFoundError",
        bases: &["TrackerError", "LookupError"],
        doc: "No such combatant, effect or name in the encounter.",
        fields: TRACKER_FIELDS,
    },
    ClassSpec {
        name: "NotNowError",
        bases: &["TrackerError", "RuntimeError"],
        doc: "Not now: the combatant is down or removed, or the operation belongs to another phase or timing system.",
        fields: TRACKER_FIELDS,
    },
    ClassSpec {
        name: "NothingToUndoError",
        bases: &["TrackerError", "IndexError"],
        doc: "Nothing to undo (or redo).",
        fields: TRACKER_FIELDS,
    },
    ClassSpec {
        name: "InvalidInputError",
        // Also a RulesError (a ValueError with the field): the rules'
        // refusals reach the tracker's callers as this.
        bases: &["TrackerError", "RulesError"],
        doc: "An input the encounter's rules refuse (a roll the dice cannot show, a bad declaration); the field is named.",
        fields: TRACKER_FIELDS,
    },
    ClassSpec {
        name: "BadSnapshotError",
        bases: &["TrackerError", "ValueError"],
        doc: "A snapshot that is corrupt, inconsistent or from a newer version.",
        fields: TRACKER_FIELDS,
    },
    // --- battles (skirmish_sim::SimError)
    ClassSpec {
        name: "BattleSetupError",
        bases: &["SkirmishError", "ValueError"],
        doc: "The scenario cannot be fought as given.",
        fields: &["message"],
    },
    // --- sweeps (skirmish_sim::sweep::SweepError, by variant)
    ClassSpec {
        name: "SweepError",
        bases: &["SkirmishError"],
        doc: "A sweep did not produce its table.",
        fields: &[],
    },
    ClassSpec {
        name: "InvalidSweepError",
        bases: &["SweepError", "ValueError"],
        doc: "The sweep's axes, battles or options are not a sweep that can run.",
        fields: &["message"],
    },
    ClassSpec {
        name: "SweepEditError",
        bases: &["SweepError", "ValueError"],
        doc: "An axis value could not be set on a cell's scenario (no battle was run); the scenario's own error is the __cause__.",
        fields: &["cell", "values", "path", "value"],
    },
    ClassSpec {
        name: "BattleFailedError",
        bases: &["SweepError", "RuntimeError"],
        doc: "A battle of a cell failed or panicked (the lowest failing battle index).",
        fields: &["cell", "values", "index"],
    },
    ClassSpec {
        name: "SweepOverflowError",
        bases: &["SweepError", "OverflowError"],
        doc: "A cell's total does not fit in 64 bits.",
        fields: &["cell", "column"],
    },
    ClassSpec {
        name: "SweepCancelledError",
        bases: &["SweepError", "RuntimeError"],
        doc: "The sweep was cancelled; the finished cells are in the checkpoint.",
        fields: &["cells_done", "cells_total"],
    },
    ClassSpec {
        name: "CheckpointError",
        bases: &["SweepError", "ValueError"],
        doc: "A checkpoint row cannot be reused (wrong seed, scenario, battles, or edited).",
        fields: &["path", "line", "message"],
    },
    ClassSpec {
        name: "CheckpointMismatchError",
        bases: &["CheckpointError"],
        doc: "The checkpoint's header is not this sweep's (different axes, sides or version).",
        fields: &["path", "line", "message", "expected", "found"],
    },
    ClassSpec {
        name: "CheckpointIOError",
        bases: &["SweepError", "OSError"],
        doc: "Reading or writing the checkpoint failed.",
        fields: &["path"],
    },
    ClassSpec {
        name: "ThreadPoolError",
        bases: &["SweepError", "OSError"],
        doc: "The sweep's worker threads could not be started.",
        fields: &[],
    },
    // --- balance searches (skirmish_sim::balance::BalanceError, by variant)
    ClassSpec {
        name: "BalanceError",
        bases: &["SkirmishError"],
        doc: "A balance search gave no answer.",
        fields: &[],
    },
    ClassSpec {
        name: "InvalidBalanceError",
        bases: &["BalanceError", "ValueError"],
        doc: "An argument of the search out of its range (target, between, side, battles, max_battles, tolerance, threads): the field and why.",
        fields: &["field", "problem"],
    },
    ClassSpec {
        name: "NotNumericFieldError",
        bases: &["BalanceError", "ValueError"],
        doc: "The field to vary holds no number (a name, a table): its path and its value as JSON.",
        fields: &["field", "value"],
    },
    ClassSpec {
        name: "NoCrossingError",
        bases: &["BalanceError", "ValueError"],
        doc: "The side's win rate is on one side of the target at both ends of the range: the two ends as fought.",
        fields: &["field", "side", "target", "ends"],
    },
    ClassSpec {
        name: "BalanceBattleError",
        bases: &["BalanceError", "RuntimeError"],
        doc: "A battle failed at a value of the search (the lowest failing battle index); its error is the __cause__.",
        fields: &["field", "value", "index"],
    },
    ClassSpec {
        name: "BalanceInterruptedError",
        bases: &["BalanceError", "RuntimeError"],
        doc: "The search was stopped: the values fought to the end so far.",
        fields: &["points"],
    },
    // --- exact fights (skirmish_sim::exact::ExactError, by variant)
    ClassSpec {
        name: "ExactError",
        bases: &["SkirmishError"],
        doc: "A fight could not be solved exactly.",
        fields: &[],
    },
    ClassSpec {
        name: "ExactUnsupportedError",
        bases: &["ExactError", "NotImplementedError"],
        doc: "The scenario uses a rule or option the exact engine does not model yet: the field and what about it (sample the fight instead).",
        fields: &["field", "what"],
    },
    ClassSpec {
        name: "ExactTooBigError",
        bases: &["ExactError", "RuntimeError"],
        doc: "The fight is too big to solve exactly (sample it, or raise max_states): the states counted and the budget, or the fighters of a moment with too many outcomes to count.",
        fields: &["states", "budget", "fighters"],
    },
];

static TYPES: PyOnceLock<Vec<Py<PyType>>> = PyOnceLock::new();

fn make_types(py: Python<'_>) -> PyResult<Vec<Py<PyType>>> {
    let builtins = py.import("builtins")?;
    let make = builtins.getattr("type")?;
    let mut made: Vec<Py<PyType>> = Vec::with_capacity(CLASSES.len());
    for spec in CLASSES {
        let mut bases = Vec::with_capacity(spec.bases.len());
        for base in spec.bases {
            let ours = CLASSES.iter().position(|c| c.name == *base);
            let class = match ours {
                Some(i) => made
                    .get(i)
                    .map(|t| t.bind(py).clone().into_any())
                    .ok_or_else(|| PyRuntimeError::new_err(format!("{base} is listed after {}", spec.name)))?,
                None => builtins.getattr(*base)?,
            };
            bases.push(class);
        }
        let namespace = PyDict::new(py);
        namespace.set_item("__module__", "skirmish._core")?;
        namespace.set_item("__doc__", spec.doc)?;
        // Class-level defaults, so every instance has every field.
        for field in spec.fields {
            namespace.set_item(*field, py.None())?;
        }
        let class = make.call1((spec.name, PyTuple::new(py, bases)?, namespace))?;
        made.push(class.cast_into::<PyType>()?.unbind());
    }
    Ok(made)
}

/// Creates the classes (once) and adds them to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    let types = match TYPES.get(py) {
        Some(t) => t,
        None => {
            let made = make_types(py)?;
            TYPES.get_or_init(py, || made)
        }
    };
    for (spec, class) in CLASSES.iter().zip(types) {
        m.add(spec.name, class.bind(py))?;
    }
    Ok(())
}

/// A new exception of class `name` with `message` and the `fields` set.
fn raise(py: Python<'_>, name: &str, message: String, fields: &[(&str, Py<PyAny>)]) -> PyErr {
    let build = || -> PyResult<PyErr> {
        let types = TYPES
            .get(py)
            .ok_or_else(|| PyRuntimeError::new_err("skirmish._core is not initialised"))?;
        let index = CLASSES
            .iter()
            .position(|c| c.name == name)
            .ok_or_else(|| PyRuntimeError::new_err(format!("no exception class {name}")))?;
        let instance = types[index].bind(py).call1((message.clone(),))?;
        for (field, value) in fields {
            instance.setattr(*field, value.bind(py))?;
        }
        Ok(PyErr::from_value(instance))
    };
    build().unwrap_or_else(|e| e)
}

fn obj<'py, T: IntoPyObjectExt<'py>>(py: Python<'py>, value: T) -> Py<PyAny> {
    value.into_py_any(py).unwrap_or_else(|_| py.None())
}

use pyo3::IntoPyObjectExt;

/// `ArgumentTypeError`: the argument `field` is not `expected` (`"an
/// int"`) but `value`.
pub(crate) fn argument_type(py: Python<'_>, field: &str, expected: &str, value: &Bound<'_, PyAny>) -> PyErr {
    let got = value
        .get_type()
        .name()
        .map_or_else(|_| "?".to_owned(), |n| n.to_string());
    raise(
        py,
        "ArgumentTypeError",
        format!("{field}: expected {expected}, not {got}"),
        &[
            ("field", obj(py, field)),
            ("expected", obj(py, expected)),
            ("got", obj(py, got)),
        ],
    )
}

/// `OutOfRangeError` for an argument that does not fit its Rust type:
/// `value` is the Python int as given (it may be wider than any Rust int).
pub(crate) fn out_of_range(py: Python<'_>, field: &str, value: &Bound<'_, PyAny>, min: i128, max: i128) -> PyErr {
    raise(
        py,
        "OutOfRangeError",
        format!("{field}: {value} is outside {min}..={max}"),
        &[
            ("field", obj(py, field)),
            ("value", value.clone().unbind()),
            ("min", obj(py, min)),
            ("max", obj(py, max)),
        ],
    )
}

/// Maps any error of the Rust crates to its Python exception.
pub(crate) trait ToPyErr {
    /// The Python exception.
    fn to_py(self, py: Python<'_>) -> PyErr;
}

impl ToPyErr for CoreError {
    fn to_py(self, py: Python<'_>) -> PyErr {
        let message = self.to_string();
        match self {
            CoreError::OutOfRange { field, value, min, max } => raise(
                py,
                "OutOfRangeError",
                message,
                &[
                    ("field", obj(py, field)),
                    ("value", obj(py, value)),
                    ("min", obj(py, min)),
                    ("max", obj(py, max)),
                ],
            ),
            CoreError::Invalid { field, problem } => raise(
                py,
                "InvalidValueError",
                message,
                &[("field", obj(py, field)), ("problem", obj(py, problem))],
            ),
            CoreError::UnknownName {
                kind,
                name,
                suggestions,
            } => raise(
                py,
                "UnknownNameError",
                message,
                &[
                    ("field", obj(py, kind.clone())),
                    ("kind", obj(py, kind)),
                    ("name", obj(py, name)),
                    ("suggestions", obj(py, suggestions)),
                ],
            ),
            CoreError::ScriptedRollOutOfRange {
                dice,
                position,
                value,
                min,
                max,
            } => raise(
                py,
                "ScriptedRollError",
                message,
                &[
                    ("field", obj(py, "rolls")),
                    ("dice", obj(py, dice)),
                    ("position", obj(py, position)),
                    ("value", obj(py, value)),
                    ("min", obj(py, min)),
                    ("max", obj(py, max)),
                ],
            ),
            CoreError::ScriptExhausted { dice, used } => raise(
                py,
                "ScriptExhaustedError",
                message,
                &[
                    ("field", obj(py, "rolls")),
                    ("dice", obj(py, dice)),
                    ("used", obj(py, used)),
                ],
            ),
            CoreError::Overflow { field, problem } => raise(
                py,
                "RulesOverflowError",
                message,
                &[("field", obj(py, field)), ("problem", obj(py, problem))],
            ),
            // A kind added to the rules crate later: still a RulesError.
            _ => raise(py, "RulesError", message, &[]),
        }
    }
}

impl ToPyErr for TrackerError {
    fn to_py(self, py: Python<'_>) -> PyErr {
        let class = match self.kind() {
            TrackerKind::NotFound => "NotFoundError",
            TrackerKind::NotNow => "NotNowError",
            TrackerKind::NothingToUndo => "NothingToUndoError",
            TrackerKind::InvalidInput => "InvalidInputError",
            TrackerKind::BadSnapshot => "BadSnapshotError",
            TrackerKind::Internal => "InternalError",
        };
        raise(
            py,
            class,
            self.to_string(),
            &[
                ("kind", obj(py, self.kind().name())),
                ("field", obj(py, self.field().map(str::to_owned))),
                ("message", obj(py, self.message().to_owned())),
            ],
        )
    }
}

impl ToPyErr for ScenarioError {
    fn to_py(self, py: Python<'_>) -> PyErr {
        let (class, kind) = match self.kind {
            ScenarioErrorKind::Read => ("ScenarioReadError", "read"),
            ScenarioErrorKind::Syntax => ("ScenarioSyntaxError", "syntax"),
            ScenarioErrorKind::Schema => ("ScenarioSchemaError", "schema"),
            ScenarioErrorKind::Invalid => ("ScenarioInvalidError", "invalid"),
            ScenarioErrorKind::FieldPath => ("FieldPathError", "field_path"),
            ScenarioErrorKind::UnknownBuiltin => ("UnknownScenarioError", "unknown_builtin"),
            _ => ("ScenarioError", "other"),
        };
        let message = self.to_string();
        raise(
            py,
            class,
            message,
            &[
                ("kind", obj(py, kind)),
                ("origin", obj(py, self.origin)),
                ("line", obj(py, self.line)),
                ("column", obj(py, self.column)),
                ("path", obj(py, self.path)),
                ("message", obj(py, self.message)),
            ],
        )
    }
}

impl ToPyErr for SimError {
    fn to_py(self, py: Python<'_>) -> PyErr {
        match self {
            SimError::Rules(e) => e.to_py(py),
            SimError::Scenario(m) => {
                let message = format!("scenario: {m}");
                raise(py, "BattleSetupError", message, &[("message", obj(py, m))])
            }
            SimError::Tracker(e) => e.to_py(py),
            other => raise(py, "SkirmishError", other.to_string(), &[]),
        }
    }
}

impl ToPyErr for BalanceError {
    fn to_py(self, py: Python<'_>) -> PyErr {
        let message = self.to_string();
        let points = |py: Python<'_>, points: &[BalancePoint]| -> Py<PyAny> {
            let made: PyResult<Vec<Py<PyAny>>> = points
                .iter()
                .map(|p| crate::balance::PyBalancePoint::of(p.clone()).into_py_any(py))
                .collect();
            made.and_then(|v| PyTuple::new(py, v).map(|t| t.into_any().unbind()))
                .unwrap_or_else(|_| py.None())
        };
        match self {
            BalanceError::Invalid { field, problem } => raise(
                py,
                "InvalidBalanceError",
                message,
                &[("field", obj(py, field)), ("problem", obj(py, problem))],
            ),
            BalanceError::NotNumeric { field, value } => raise(
                py,
                "NotNumericFieldError",
                message,
                &[("field", obj(py, field)), ("value", obj(py, value))],
            ),
            BalanceError::Scenario(e) => (*e).to_py(py),
            BalanceError::NoCrossing {
                field,
                side,
                target,
                ends,
            } => raise(
                py,
                "NoCrossingError",
                message,
                &[
                    ("field", obj(py, field)),
                    ("side", obj(py, side)),
                    ("target", obj(py, target)),
                    ("ends", points(py, &ends[..])),
                ],
            ),
            BalanceError::Battle {
                field,
                value,
                index,
                source,
            } => {
                let err = raise(
                    py,
                    "BalanceBattleError",
                    message,
                    &[
                        ("field", obj(py, field)),
                        ("value", obj(py, value)),
                        ("index", obj(py, index)),
                    ],
                );
                err.set_cause(py, Some((*source).to_py(py)));
                err
            }
            BalanceError::Interrupted { points: done } => {
                raise(py, "BalanceInterruptedError", message, &[("points", points(py, &done))])
            }
            // `method="exact"` refused: the exact engine's own typed error.
            BalanceError::Exact { source, .. } => (*source).to_py(py),
            other => raise(py, "BalanceError", other.to_string(), &[]),
        }
    }
}

impl ToPyErr for ExactError {
    fn to_py(self, py: Python<'_>) -> PyErr {
        let message = self.to_string();
        match self {
            ExactError::Unsupported { field, what } => raise(
                py,
                "ExactUnsupportedError",
                message,
                &[("field", obj(py, field)), ("what", obj(py, what))],
            ),
            ExactError::TooManyStates { states, budget } => raise(
                py,
                "ExactTooBigError",
                message,
                &[
                    ("states", obj(py, states)),
                    ("budget", obj(py, budget)),
                    ("fighters", py.None()),
                ],
            ),
            ExactError::TooManyOutcomes { fighters } => raise(
                py,
                "ExactTooBigError",
                message,
                &[
                    ("states", py.None()),
                    ("budget", py.None()),
                    ("fighters", obj(py, fighters)),
                ],
            ),
            ExactError::TooMuchWork { budget } => raise(
                py,
                "ExactTooBigError",
                message,
                &[
                    ("states", py.None()),
                    ("budget", obj(py, budget)),
                    ("fighters", py.None()),
                ],
            ),
            ExactError::TooManyFighters { fighters, budget } => raise(
                py,
                "ExactTooBigError",
                message,
                &[
                    ("states", py.None()),
                    ("budget", obj(py, budget)),
                    ("fighters", obj(py, fighters)),
                ],
            ),
            ExactError::Sim(e) => e.to_py(py),
            other => raise(py, "ExactError", other.to_string(), &[]),
        }
    }
}

/// The Python exception for the error behind a `BoxError` (an editor's
/// or a battle's), if it is one of ours.
fn source_to_py(py: Python<'_>, source: &(dyn std::error::Error + Send + Sync + 'static)) -> Option<PyErr> {
    if let Some(e) = source.downcast_ref::<ScenarioError>() {
        return Some(e.clone().to_py(py));
    }
    if let Some(e) = source.downcast_ref::<SimError>() {
        return Some(e.clone().to_py(py));
    }
    source.downcast_ref::<CoreError>().map(|e| e.clone().to_py(py))
}

fn pairs(py: Python<'_>, values: Vec<(String, String)>) -> Py<PyAny> {
    obj(py, values)
}

impl ToPyErr for SweepError {
    fn to_py(self, py: Python<'_>) -> PyErr {
        let message = self.to_string();
        match self {
            SweepError::Invalid(m) => raise(py, "InvalidSweepError", message, &[("message", obj(py, m))]),
            SweepError::Edit {
                cell,
                values,
                path,
                value,
                source,
            } => {
                let err = raise(
                    py,
                    "SweepEditError",
                    message,
                    &[
                        ("cell", obj(py, cell)),
                        ("values", pairs(py, values)),
                        ("path", obj(py, path)),
                        ("value", obj(py, value)),
                    ],
                );
                err.set_cause(py, source_to_py(py, source.as_ref()));
                err
            }
            SweepError::Battle {
                cell,
                values,
                index,
                source,
            } => {
                let err = raise(
                    py,
                    "BattleFailedError",
                    message,
                    &[
                        ("cell", obj(py, cell)),
                        ("values", pairs(py, values)),
                        ("index", obj(py, index)),
                    ],
                );
                err.set_cause(py, source_to_py(py, source.as_ref()));
                err
            }
            SweepError::Panicked {
                cell, values, index, ..
            } => raise(
                py,
                "BattleFailedError",
                message,
                &[
                    ("cell", obj(py, cell)),
                    ("values", pairs(py, values)),
                    ("index", obj(py, index)),
                ],
            ),
            SweepError::Overflow { cell, column } => raise(
                py,
                "SweepOverflowError",
                message,
                &[("cell", obj(py, cell)), ("column", obj(py, column))],
            ),
            SweepError::Cancelled {
                cells_done,
                cells_total,
            } => raise(
                py,
                "SweepCancelledError",
                message,
                &[
                    ("cells_done", obj(py, cells_done)),
                    ("cells_total", obj(py, cells_total)),
                ],
            ),
            SweepError::HeaderMismatch { path, expected, found } => raise(
                py,
                "CheckpointMismatchError",
                message,
                &[
                    ("path", obj(py, path.display().to_string())),
                    ("line", obj(py, 1)),
                    ("message", obj(py, "checkpoint header does not match this sweep")),
                    ("expected", obj(py, expected)),
                    ("found", obj(py, found)),
                ],
            ),
            SweepError::Checkpoint {
                path,
                line,
                message: what,
            } => raise(
                py,
                "CheckpointError",
                message,
                &[
                    ("path", obj(py, path.display().to_string())),
                    ("line", obj(py, line)),
                    ("message", obj(py, what)),
                ],
            ),
            SweepError::Io { path, source } => {
                let err = raise(
                    py,
                    "CheckpointIOError",
                    message,
                    &[("path", obj(py, path.display().to_string()))],
                );
                if let Ok(errno) = err.value(py).getattr("errno")
                    && errno.is_none()
                    && let Some(code) = source.raw_os_error()
                {
                    let _ = err.value(py).setattr("errno", code);
                }
                err
            }
            SweepError::ThreadPool(_) => raise(py, "ThreadPoolError", message, &[]),
            _ => raise(py, "SweepError", message, &[]),
        }
    }
}

/// The `InternalError` for a caught panic.
pub(crate) fn internal(py: Python<'_>, payload: &(dyn Any + Send)) -> PyErr {
    let detail = skirmish_core::error::panic_message(payload);
    raise(
        py,
        "InternalError",
        format!("internal error in skirmish (a bug, please report it): {detail}"),
        &[("detail", obj(py, detail))],
    )
}

/// Runs `f`, turning a panic into `InternalError`: every function of the
/// module goes through here, so no `PanicException` (a `BaseException`
/// that `except Exception` misses) ever reaches Python.
pub(crate) fn guard<T>(py: Python<'_>, f: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(result) => result,
        Err(payload) => Err(internal(py, payload.as_ref())),
    }
}

/// An example of each Rust error, mapped: the tests check every class's
/// builtin base and fields with it, including kinds no public call can
/// provoke on purpose (an overflowing sweep, a thread pool that fails).
#[pyfunction]
#[pyo3(name = "_example_error")]
pub(crate) fn example_error(py: Python<'_>, kind: &str) -> PyResult<Py<PyAny>> {
    guard(py, || {
        let values = vec![("timing".to_owned(), "continuous".to_owned())];
        let scenario_error = |kind| ScenarioError {
            kind,
            origin: "ambush.toml".to_owned(),
            line: Some(12),
            column: Some(9),
            path: "sides[0].groups[1].count".to_owned(),
            message: "-3 is not a count (expected 1 or more)".to_owned(),
        };
        let err = match kind {
            "OutOfRangeError" => CoreError::out_of_range("strike_roll", 5, -4, 4).to_py(py),
            "InvalidValueError" => CoreError::invalid("label", "must not be empty").to_py(py),
            "UnknownNameError" => CoreError::unknown_name("weapon", "Dagr", ["Dagger", "Sword"]).to_py(py),
            "ScriptedRollError" => CoreError::ScriptedRollOutOfRange {
                dice: "4dF".to_owned(),
                position: 2,
                value: 7,
                min: -4,
                max: 4,
            }
            .to_py(py),
            "ScriptExhaustedError" => CoreError::ScriptExhausted {
                dice: "4dF".to_owned(),
                used: 3,
            }
            .to_py(py),
            "RulesOverflowError" => CoreError::overflow("strike_rating", "5 + 2147483647").to_py(py),
            "ScenarioReadError" => scenario_error(ScenarioErrorKind::Read).to_py(py),
            "ScenarioSyntaxError" => scenario_error(ScenarioErrorKind::Syntax).to_py(py),
            "ScenarioSchemaError" => scenario_error(ScenarioErrorKind::Schema).to_py(py),
            "ScenarioInvalidError" => scenario_error(ScenarioErrorKind::Invalid).to_py(py),
            "FieldPathError" => scenario_error(ScenarioErrorKind::FieldPath).to_py(py),
            "UnknownScenarioError" => scenario_error(ScenarioErrorKind::UnknownBuiltin).to_py(py),
            "BattleSetupError" => SimError::Scenario("no fighters".to_owned()).to_py(py),
            "InvalidSweepError" => SweepError::Invalid("battles per cell must be 1 or more".to_owned()).to_py(py),
            "SweepEditError" => SweepError::Edit {
                cell: 0,
                values: values.clone(),
                path: "timing".to_owned(),
                value: "continuous".to_owned(),
                source: Box::new(scenario_error(ScenarioErrorKind::Schema)),
            }
            .to_py(py),
            "BattleFailedError" => SweepError::Battle {
                cell: 1,
                values: values.clone(),
                index: 7,
                source: Box::new(SimError::Rules(CoreError::out_of_range("time_taken", 0, 1, 99))),
            }
            .to_py(py),
            "SweepOverflowError" => SweepError::Overflow {
                cell: 2,
                column: "total_ticks".to_owned(),
            }
            .to_py(py),
            "SweepCancelledError" => SweepError::Cancelled {
                cells_done: 3,
                cells_total: 6,
            }
            .to_py(py),
            "CheckpointError" => SweepError::Checkpoint {
                path: "sweep.csv".into(),
                line: 4,
                message: "was run with seed 1, this sweep has seed 2".to_owned(),
            }
            .to_py(py),
            "CheckpointMismatchError" => SweepError::HeaderMismatch {
                path: "sweep.csv".into(),
                expected: "timing,battles".to_owned(),
                found: "striking,battles".to_owned(),
            }
            .to_py(py),
            "CheckpointIOError" => SweepError::Io {
                path: "sweep.csv".into(),
                source: std::io::Error::from_raw_os_error(13),
            }
            .to_py(py),
            "ThreadPoolError" => SweepError::ThreadPool("out of threads".to_owned()).to_py(py),
            "InvalidBalanceError" => BalanceError::Invalid {
                field: "target".to_owned(),
                problem: "1.5 is not a win rate strictly between 0 and 1".to_owned(),
            }
            .to_py(py),
            "NotNumericFieldError" => BalanceError::NotNumeric {
                field: "timing".to_owned(),
                value: "\"continuous\"".to_owned(),
            }
            .to_py(py),
            "NoCrossingError" => {
                let end = |value, wins| BalancePoint {
                    value,
                    battles: 250,
                    wins,
                    win_rate: wins as f64 / 250.0,
                    low: 0.9,
                    high: 1.0,
                    verdict: skirmish_sim::balance::Verdict::Above,
                    exact: false,
                    fraction: None,
                };
                BalanceError::NoCrossing {
                    field: "sides.goblinoids.groups.0.count".to_owned(),
                    side: "party".to_owned(),
                    target: 0.5,
                    ends: Box::new([end(1.0, 249), end(2.0, 243)]),
                }
                .to_py(py)
            }
            "BalanceBattleError" => BalanceError::Battle {
                field: "sides.goblinoids.groups.0.count".to_owned(),
                value: 4.0,
                index: 7,
                source: Box::new(SimError::Scenario("no fighters".to_owned())),
            }
            .to_py(py),
            "BalanceInterruptedError" => BalanceError::Interrupted { points: vec![] }.to_py(py),
            "ExactUnsupportedError" => ExactError::Unsupported {
                field: "timing".to_owned(),
                what: "Continuous timing".to_owned(),
            }
            .to_py(py),
            "ExactTooBigError" => ExactError::TooManyStates {
                states: 200_001,
                budget: 200_000,
            }
            .to_py(py),
            "NotFoundError" => TrackerError::not_found("combatant", "no combatant 9 (there are 2)").to_py(py),
            "NotNowError" => TrackerError::not_now("combatant", "Orc #1 is down").to_py(py),
            "NothingToUndoError" => TrackerError::new(TrackerKind::NothingToUndo, None, "nothing to undo").to_py(py),
            "InvalidInputError" => TrackerError::invalid("roll", "7 is outside -4..=4").to_py(py),
            "BadSnapshotError" => TrackerError::bad_snapshot("not JSON").to_py(py),
            "InternalError" => internal(py, &"an example panic"),
            "ArgumentTypeError" => argument_type(py, "seed", "an int", &1.5f64.into_pyobject(py)?.into_any()),
            other => return Err(PyValueError::new_err(format!("no example of {other:?}"))),
        };
        Ok(err.into_value(py).into_any())
    })
}

/// Panics inside the module, for the test that no panic reaches Python.
#[pyfunction]
#[pyo3(name = "_panic")]
pub(crate) fn panic_for_test(py: Python<'_>, message: &str) -> PyResult<()> {
    guard(py, || panic!("{message}"))
}
