//! What the tracker's calls take from Python, converted once: combatant
//! specs, declarations, fighter profiles, rules, ranged shots and damage
//! overrides, read from dicts and keyword arguments by the core's own serde
//! forms (those of scenario files and snapshots). A value the core's form
//! refuses raises `InvalidInputError` naming the argument and the path
//! inside it (`declaration.time_taken`); nothing has changed by then.

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyMapping, PyString, PyTuple};
use serde::de::DeserializeOwned;
use skirmish_core::damage::DamageConfig;
use skirmish_core::fighter::{FighterProfile, Striking};
use skirmish_core::striking::full_contact::RangedShot;
use skirmish_core::timing::{ActorTiming, Declaration};
use skirmish_core::tracker::{CombatantSpec, TrackerError, WoundOverride};

use crate::args;
use crate::error::ToPyErr;

/// A value of `T` in the core's serde form from a Python object; a refusal
/// is `InvalidInputError` naming `field` and the path inside it.
pub(crate) fn read<T: DeserializeOwned>(obj: &Bound<'_, PyAny>, field: &str) -> PyResult<T> {
    if let Err(path) = within_depth(obj, MAX_DEPTH) {
        let field = if path.is_empty() {
            field.to_owned()
        } else {
            format!("{field}{path}")
        };
        let why = format!("nested deeper than {MAX_DEPTH} levels");
        return Err(TrackerError::invalid(&field, why).to_py(obj.py()));
    }
    let mut de = pythonize::Depythonizer::from_object(obj);
    serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let path = e.path().to_string();
        let field = if path == "." {
            field.to_owned()
        } else {
            format!("{field}.{path}")
        };
        TrackerError::invalid(&field, e.into_inner().to_string()).to_py(obj.py())
    })
}

/// How deep a value read by the core's serde forms may nest: far deeper
/// than any of them (a profile's shield is three levels), and shallow
/// enough that reading it cannot exhaust the stack (serde reads nested
/// values by recursion; serde_json stops at 128 levels too).
pub(crate) const MAX_DEPTH: usize = 64;

/// `Ok` if `obj` nests dicts, lists and tuples at most `depth` levels
/// deep; else the path to the first value past it (`.a[0]`).
fn within_depth(obj: &Bound<'_, PyAny>, depth: usize) -> Result<(), String> {
    let children: Vec<(String, Bound<'_, PyAny>)> = if let Ok(d) = obj.cast::<PyDict>() {
        d.iter().map(|(k, v)| (format!(".{k}"), v)).collect()
    } else if let Ok(l) = obj.cast::<PyList>() {
        l.iter().enumerate().map(|(i, v)| (format!("[{i}]"), v)).collect()
    } else if let Ok(t) = obj.cast::<PyTuple>() {
        t.iter().enumerate().map(|(i, v)| (format!("[{i}]"), v)).collect()
    } else {
        return Ok(());
    };
    if depth == 0 {
        return Err(String::new());
    }
    for (step, child) in children {
        within_depth(&child, depth - 1).map_err(|rest| format!("{step}{rest}"))?;
    }
    Ok(())
}

/// `base` (a mapping, or `None`) updated with the keyword arguments
/// `fields`, as a new dict; a `base` that is not a mapping is refused
/// naming `field`.
pub(crate) fn merged<'py>(
    py: Python<'py>,
    base: Option<&Bound<'py, PyAny>>,
    fields: Option<&Bound<'py, PyAny>>,
    field: &str,
) -> PyResult<Bound<'py, PyDict>> {
    let out = PyDict::new(py);
    for part in [base, fields].into_iter().flatten().filter(|b| !b.is_none()) {
        let mapping = part.cast::<PyMapping>().map_err(|_| {
            let kind = part
                .get_type()
                .name()
                .map_or_else(|_| "?".to_owned(), |n| n.to_string());
            TrackerError::invalid(field, format!("a mapping of its fields, not {kind}")).to_py(py)
        })?;
        out.update(mapping)?;
    }
    Ok(out)
}

/// A declaration from a mapping and keyword fields (`time_taken=3`,
/// `speed_bonus=1`, ...); `ready_time=` and `landing_tick=` are the GM's
/// timing (the form's `gm`).
pub(crate) fn declaration(
    py: Python<'_>,
    action: Option<&Bound<'_, PyAny>>,
    fields: Option<&Bound<'_, PyAny>>,
) -> PyResult<Declaration> {
    let d = merged(py, action, fields, "declaration")?;
    for key in ["ready_time", "landing_tick"] {
        if let Some(value) = d.get_item(key)? {
            d.del_item(key)?;
            if !value.is_none() {
                let gm = PyDict::new(py);
                gm.set_item(key, value)?;
                d.set_item("gm", gm)?;
            }
        }
    }
    read(d.as_any(), "declaration")
}

/// A timing-only combatant: its name, first action, label, side, whether
/// hidden and its timing traits (a mapping of `ActorTiming`'s fields).
#[expect(
    clippy::too_many_arguments,
    reason = "the fields of a CombatantSpec, as Python passes them"
)]
pub(crate) fn spec(
    py: Python<'_>,
    name: &str,
    action: Option<&Bound<'_, PyAny>>,
    fields: Option<&Bound<'_, PyAny>>,
    label: &str,
    side: Option<&str>,
    hidden: bool,
    timing: Option<&Bound<'_, PyAny>>,
) -> PyResult<CombatantSpec> {
    let mut spec = CombatantSpec::new(name, declaration(py, action, fields)?).labelled(label);
    if let Some(side) = side {
        spec = spec.on_side(side);
    }
    if let Some(timing) = timing.filter(|t| !t.is_none()) {
        spec = spec.with_timing(read::<ActorTiming>(timing, "timing")?);
    }
    if hidden {
        spec = spec.hidden();
    }
    Ok(spec)
}

/// A fighter's profile from a mapping and keyword fields (a scenario
/// group's fields).
pub(crate) fn profile(
    py: Python<'_>,
    profile: Option<&Bound<'_, PyAny>>,
    fields: Option<&Bound<'_, PyAny>>,
) -> PyResult<FighterProfile> {
    read(merged(py, profile, fields, "profile")?.as_any(), "profile")
}

/// The striking rules: a name (`"full-contact"`) or a mapping of the form
/// (`{"system": "full_contact", "amazing": True}`).
pub(crate) fn striking(obj: &Bound<'_, PyAny>) -> PyResult<Striking> {
    match obj.cast::<PyString>() {
        Ok(_) => args::tracker::striking(obj)?
            .parse::<Striking>()
            .map_err(|e| TrackerError::from(e.in_field("striking")).to_py(obj.py())),
        Err(_) => read(obj, "striking"),
    }
}

/// The damage model: a name (`"hit-points"`) or a mapping of the form
/// (`{"model": "hit_points", "max_hp": 30}`).
pub(crate) fn damage(obj: &Bound<'_, PyAny>) -> PyResult<DamageConfig> {
    match obj.cast::<PyString>() {
        Ok(_) => DamageConfig::by_name(&args::tracker::damage(obj)?)
            .map_err(|e| TrackerError::from(e.in_field("damage")).to_py(obj.py())),
        Err(_) => read(obj, "damage"),
    }
}

/// A ranged shot: `(short_range, range_strength, distance)` or a mapping
/// of those.
pub(crate) fn range(obj: &Bound<'_, PyAny>) -> PyResult<RangedShot> {
    if obj.cast::<PyMapping>().is_ok() {
        return read(obj, "range");
    }
    let py = obj.py();
    let parts: Vec<Bound<'_, PyAny>> = match obj.extract() {
        Ok(parts) if !obj.is_instance_of::<PyString>() => parts,
        _ => Vec::new(),
    };
    let [short_range, range_strength, distance] = parts.as_slice() else {
        return Err(
            TrackerError::invalid("range", "(short_range, range_strength, distance) or a mapping of those").to_py(py),
        );
    };
    let shot = PyDict::new(py);
    shot.set_item("short_range", short_range)?;
    shot.set_item("range_strength", range_strength)?;
    shot.set_item("distance", distance)?;
    read(shot.as_any(), "range")
}

/// A GM's damage override: the wound boxes (a mapping, `{"hurt": 1}`) or
/// the hit points left, exactly one of them.
pub(crate) fn wound_override(
    py: Python<'_>,
    wounds: Option<&Bound<'_, PyAny>>,
    hit_points: Option<i32>,
) -> PyResult<WoundOverride> {
    match (wounds.filter(|w| !w.is_none()), hit_points) {
        (Some(track), None) => Ok(WoundOverride::Wounds {
            track: read(track, "wounds")?,
        }),
        (None, Some(hp)) => Ok(WoundOverride::HitPoints { hp }),
        _ => Err(TrackerError::invalid("damage", "give either wounds or hit_points").to_py(py)),
    }
}
