//! Reading and changing one field of a scenario by its path, as sweeps do.

use serde_json::Value;

use super::Scenario;
use super::error::{ScenarioError, ScenarioErrorKind, did_you_mean, humanize, schema_path};
use super::load::{path_text, segments};

impl Scenario {
    /// The value of the field at `path`, as JSON.
    ///
    /// A path is segments separated by `.`: a field name, an index into a
    /// list, or — in the lists of named tables (`sides`, `groups`) — an
    /// element's name, ignoring case (a segment that is a number is always
    /// an index). `[i]` works for an index too, so the paths in error
    /// messages can be used as they are. Examples:
    /// `timing`, `damage.max_hp`, `battle.targeting`,
    /// `sides.goblinoids.groups.Shaman.weapon`, `sides[0].groups[0].count`.
    ///
    /// # Errors
    /// [`ScenarioErrorKind::FieldPath`] for a path that names no field,
    /// suggesting the closest names.
    pub fn get_field(&self, path: &str) -> Result<Value, ScenarioError> {
        let root = self.to_value(path)?;
        let pointer = resolve(&root, path, false)?;
        root.pointer(&pointer)
            .cloned()
            .ok_or_else(|| ScenarioError::new(ScenarioErrorKind::FieldPath, path, "names no field"))
    }

    /// A copy with the field at `path` (see [`get_field`](Scenario::get_field))
    /// set to `value`, validated.
    ///
    /// `value` is read as JSON if it is JSON (`12`, `true`, `"Good+"`,
    /// `null`, `{"time_taken": 3}`), else taken as plain text: so
    /// `tick-system`, `Dagger` and `fudge-opposed` need no quotes. A name
    /// is enough for the timing, striking and damage choices
    /// (`timing` = `graduated`), which then take their default options.
    ///
    /// # Errors
    /// [`ScenarioErrorKind::FieldPath`] for a path that names no field;
    /// [`ScenarioErrorKind::Schema`] for a value of the wrong type;
    /// [`ScenarioErrorKind::Invalid`] for a value validation refuses.
    ///
    /// ```
    /// use skirmish_sim::scenario::Scenario;
    /// let parity = Scenario::builtin("parity")?;
    /// let bigger = parity.with_field("sides.A.groups.0.count", "100")?;
    /// assert_eq!(bigger.get_field("sides[0].groups[0].count")?, 100);
    /// let err = parity.with_field("sides.A.groups.0.count", "-3").unwrap_err();
    /// assert_eq!(err.to_string(), "sides[0].groups[0].count: -3 is not a count (expected 1 or more)");
    /// # Ok::<(), skirmish_sim::scenario::ScenarioError>(())
    /// ```
    pub fn with_field(&self, path: &str, value: &str) -> Result<Scenario, ScenarioError> {
        let parsed = serde_json::from_str::<Value>(value).unwrap_or_else(|_| Value::String(value.to_owned()));
        self.with_field_value(path, parsed)
    }

    /// As [`with_field`](Scenario::with_field), with the value already as
    /// JSON (for callers that have typed values, such as the bindings).
    ///
    /// # Errors
    /// As [`with_field`](Scenario::with_field).
    pub fn with_field_value(&self, path: &str, value: Value) -> Result<Scenario, ScenarioError> {
        let mut root = self.to_value(path)?;
        let mut pointer = resolve(&root, path, true)?;
        // Changing the choice itself (`timing.system`) to another one
        // changes the whole choice: the old system's options (a Continuous
        // `lap`) mean nothing to the new one, so it starts from its own
        // defaults, as `timing = tick-system` does. Naming the choice it
        // already is keeps its options (a sweep axis over
        // `damage.model=hit_points,fudge_wounds` must not reset the
        // scenario's own hit-point table in one cell).
        if let Some(choice) = ["/timing/system", "/striking/system", "/damage/model"]
            .iter()
            .find(|tag| **tag == pointer)
            .and_then(|tag| tag.rsplit_once('/'))
            .map(|(choice, _)| choice)
            && value.is_string()
            && !same_choice(root.pointer(&pointer), &value)
        {
            choice.clone_into(&mut pointer);
        }
        match root.pointer_mut(&pointer) {
            Some(slot) => *slot = value,
            None => {
                // A field absent from the serialized form (an option left
                // out): add it, and let deserialization judge the key.
                let (parent, key) = pointer.rsplit_once('/').unwrap_or(("", pointer.as_str()));
                let key = key.replace("~1", "/").replace("~0", "~");
                match root.pointer_mut(parent).and_then(Value::as_object_mut) {
                    Some(object) => {
                        object.insert(key, value);
                    }
                    None => {
                        return Err(ScenarioError::new(ScenarioErrorKind::FieldPath, path, "names no field"));
                    }
                }
            }
        }
        let scenario: Scenario = serde_path_to_error::deserialize(root).map_err(|e| {
            let message = e.inner().to_string();
            let (at, _) = schema_path(&path_text(e.path()), &message);
            let at = if at.is_empty() { path.to_owned() } else { at };
            let message = humanize(&message, &at);
            ScenarioError::new(ScenarioErrorKind::Schema, at, message)
        })?;
        scenario.validate()?;
        Ok(scenario)
    }

    fn to_value(&self, path: &str) -> Result<Value, ScenarioError> {
        serde_json::to_value(self).map_err(|e| {
            ScenarioError::new(
                ScenarioErrorKind::FieldPath,
                path,
                format!("the scenario has no JSON form: {e}"),
            )
        })
    }
}

/// Whether `new` names the choice `current` already is, in any of the
/// spellings the scenario reads (`graduated-rounds`, `graduated_rounds`).
fn same_choice(current: Option<&Value>, new: &Value) -> bool {
    let norm = |v: &Value| v.as_str().map(|s| s.replace('-', "_"));
    matches!((current.and_then(norm), norm(new)), (Some(a), Some(b)) if a == b)
}

/// The JSON pointer of the field `path` names in `root`. With
/// `allow_new_last`, a last segment naming no key of its table still
/// resolves (to a key to add).
fn resolve(root: &Value, path: &str, allow_new_last: bool) -> Result<String, ScenarioError> {
    let error = |message: String| ScenarioError::new(ScenarioErrorKind::FieldPath, path, message);
    let parts = segments(path);
    if path.trim().is_empty() {
        return Err(error(
            "\"\" is not a field path: it is empty; name a field before the value, like sides.A.groups.0.count=12"
                .to_owned(),
        ));
    }
    if parts.iter().any(|s| s.trim().is_empty()) {
        return Err(error(format!(
            "{path:?} is not a field path: it has an empty segment (segments separated by '.', like \
             sides.A.groups.0.count)"
        )));
    }
    let mut pointer = String::new();
    let mut here = root;
    let mut canonical = String::new();
    for (i, segment) in parts.iter().enumerate() {
        let segment = segment.trim();
        let last = i + 1 == parts.len();
        let where_ = if canonical.is_empty() {
            "the scenario".to_owned()
        } else {
            canonical.clone()
        };
        match here {
            Value::Object(map) => {
                let key = map
                    .keys()
                    .find(|k| *k == segment)
                    .or_else(|| map.keys().find(|k| same_key(k, segment)))
                    .cloned();
                let key = match key {
                    Some(key) => key,
                    None if last && allow_new_last => segment.to_owned(),
                    None => {
                        let hint = did_you_mean(segment, map.keys().map(String::as_str));
                        return Err(error(format!("{where_} has no field {segment:?}{hint}")));
                    }
                };
                pointer.push('/');
                pointer.push_str(&key.replace('~', "~0").replace('/', "~1"));
                if !canonical.is_empty() {
                    canonical.push('.');
                }
                canonical.push_str(&key);
                match map.get(&key) {
                    Some(next) => here = next,
                    None => return Ok(pointer),
                }
            }
            Value::Array(items) => {
                let index = match segment.parse::<usize>() {
                    Ok(index) if index < items.len() => index,
                    Ok(index) => {
                        return Err(error(format!(
                            "{where_} has {} element{}, so there is no index {index}",
                            items.len(),
                            if items.len() == 1 { "" } else { "s" }
                        )));
                    }
                    Err(_) => {
                        let names: Vec<&str> = items
                            .iter()
                            .filter_map(|item| item.get("name").and_then(Value::as_str))
                            .collect();
                        let wanted = segment.to_lowercase();
                        match names.iter().position(|n| n.trim().to_lowercase() == wanted) {
                            Some(index) => index,
                            None if names.is_empty() => {
                                return Err(error(format!(
                                    "{where_} is a list: index it by number (0 to {})",
                                    items.len().saturating_sub(1)
                                )));
                            }
                            None => {
                                let hint = did_you_mean(segment, names.iter().copied());
                                return Err(error(format!(
                                    "{where_} has no {} named {segment:?}{hint} (names: {}; an index works too)",
                                    element_kind(&canonical),
                                    names.join(", ")
                                )));
                            }
                        }
                    }
                };
                pointer.push('/');
                pointer.push_str(&index.to_string());
                canonical.push_str(&format!("[{index}]"));
                here = &items[index];
            }
            other => {
                let kind = match other {
                    Value::Null => "empty",
                    Value::Bool(_) => "true/false",
                    Value::Number(_) => "a number",
                    Value::String(_) => "text",
                    Value::Array(_) | Value::Object(_) => "a value",
                };
                return Err(error(format!(
                    "{where_} is {kind} ({other}), which has no field {segment:?}"
                )));
            }
        }
    }
    Ok(pointer)
}

/// Field names match ignoring case and `-` for `_`.
fn same_key(key: &str, given: &str) -> bool {
    key.eq_ignore_ascii_case(&given.replace('-', "_"))
}

/// What the elements of the list at `canonical` are called.
fn element_kind(canonical: &str) -> &'static str {
    if canonical.ends_with("groups") {
        "group"
    } else if canonical.ends_with("sides") {
        "side"
    } else {
        "element"
    }
}
