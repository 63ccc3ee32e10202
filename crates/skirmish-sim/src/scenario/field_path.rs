//! Reading and changing one field of a scenario by its path, as sweeps do.

use serde_json::Value;

use super::error::{ScenarioError, ScenarioErrorKind, did_you_mean, humanize, schema_path};
use super::load::{path_text, segments};
use super::{DamagePart, Scenario, StrikingPart, TimingPart};

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
        self.edit(path, value, true)
    }

    /// [`with_field_value`](Scenario::with_field_value), reading again
    /// only the part changed if `partial`, else the whole scenario (as it
    /// did before; the tests compare the two).
    fn edit(&self, path: &str, value: Value, partial: bool) -> Result<Scenario, ScenarioError> {
        // A path outside the sides (`timing`, `battle.targeting`) neither
        // reads nor changes them: their JSON form is left out (an empty
        // list), and only the field it names is read again. A sweep edits
        // every cell so; writing and reading the whole scenario was most of
        // a small sweep's setup.
        let top = segments(path).first().filter(|_| partial).and_then(|first| {
            TOP_PARTS
                .iter()
                .copied()
                .find(|k| *k == first.trim() || same_key(k, first.trim()))
        });
        let mut root = match top {
            Some(_) => self.shell_value(path)?,
            None => self.to_value(path)?,
        };
        open_morale(&mut root, path);
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
        let scenario = self.reread(root, &pointer, top, partial, path)?;
        scenario.validate()?;
        Ok(scenario)
    }

    /// This scenario with the part of `root` (its JSON form, changed at
    /// `pointer`) that the change touched read again: the top-level field
    /// `top` (of a [`shell_value`](Scenario::shell_value)), one group, or
    /// else the whole scenario. Errors name the same path as reading the
    /// whole would (a test compares them).
    fn reread(
        &self,
        mut root: Value,
        pointer: &str,
        top: Option<&str>,
        partial: bool,
        path: &str,
    ) -> Result<Scenario, ScenarioError> {
        let parts: Vec<&str> = pointer.split('/').skip(1).collect();
        let mut scenario = match top {
            Some(_) => self.clone_without_sides(),
            None => self.clone(),
        };
        if let Some(top) = top {
            let part = root.get_mut(top).map(Value::take).unwrap_or(Value::Null);
            match top {
                "name" => scenario.name = read_part(part, top, path)?,
                "description" => scenario.description = read_part(part, top, path)?,
                "timing" => scenario.timing = read_part::<TimingPart>(part, top, path)?.0,
                "striking" => scenario.striking = read_part::<StrikingPart>(part, top, path)?.0,
                "damage" => scenario.damage = read_part::<DamagePart>(part, top, path)?.0,
                "distance" => scenario.distance = read_part(part, top, path)?,
                _ => scenario.battle = read_part(part, top, path)?,
            }
            scenario.sides.clone_from(&self.sides);
            return Ok(scenario);
        }
        if partial
            && let ["sides", side, "groups", group, ..] = parts.as_slice()
            && let (Ok(side), Ok(group)) = (side.parse::<usize>(), group.parse::<usize>())
            && let Some(slot) = scenario.sides.get_mut(side).and_then(|s| s.groups.get_mut(group))
            && let Some(part) = root
                .pointer_mut(&format!("/sides/{side}/groups/{group}"))
                .map(Value::take)
        {
            *slot = read_part(part, &format!("sides[{side}].groups[{group}]"), path)?;
            return Ok(scenario);
        }
        read_part(root, "", path)
    }

    /// The JSON form without the sides (an empty list): what a path
    /// outside them resolves in.
    fn shell_value(&self, path: &str) -> Result<Value, ScenarioError> {
        self.clone_without_sides().to_value(path)
    }

    /// A copy with no sides.
    fn clone_without_sides(&self) -> Scenario {
        Scenario {
            name: self.name.clone(),
            description: self.description.clone(),
            timing: self.timing.clone(),
            striking: self.striking,
            damage: self.damage.clone(),
            battle: self.battle,
            distance: self.distance,
            sides: Vec::new(),
        }
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

/// The top-level fields a path may change without touching the sides.
const TOP_PARTS: [&str; 7] = [
    "name",
    "description",
    "timing",
    "striking",
    "damage",
    "battle",
    "distance",
];

/// `value`, the part of a scenario at `at` (a path as errors write it; `""`
/// for the whole scenario), read as a `T`, with the error naming the path
/// inside the scenario (the one `path` asked for if the error has none).
fn read_part<T: serde::de::DeserializeOwned>(value: Value, at: &str, path: &str) -> Result<T, ScenarioError> {
    serde_path_to_error::deserialize(value).map_err(|e| {
        let inner = path_text(e.path());
        let full = if at.is_empty() || inner.is_empty() || inner.starts_with('[') {
            format!("{at}{inner}")
        } else {
            format!("{at}.{inner}")
        };
        let message = e.inner().to_string();
        let (at, _) = schema_path(&full, &message);
        let at = if at.is_empty() { path.to_owned() } else { at };
        let message = humanize(&message, &at);
        ScenarioError::new(ScenarioErrorKind::Schema, at, message)
    })
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

/// A path into a side's morale (`sides.party.morale.break_below`) of a
/// side without one opens it with its defaults (`{}`), so that a sweep can
/// vary a threshold the base scenario does not set; whether the field
/// exists is then for reading the side again to judge.
fn open_morale(root: &mut Value, path: &str) {
    let parts = segments(path);
    if let [sides, side, morale, _, ..] = parts.as_slice()
        && same_key("sides", sides.trim())
        && same_key("morale", morale.trim())
        && let Ok(pointer) = resolve(root, &format!("{sides}.{side}"), false)
        && let Some(object) = root.pointer_mut(&pointer).and_then(Value::as_object_mut)
        && !object.contains_key("morale")
    {
        object.insert("morale".to_owned(), Value::Object(serde_json::Map::new()));
    }
}

/// The JSON pointer of a field path as errors and warnings write it
/// (`sides[0].groups[1].interval`, `striking.sweeping_blow`): segments
/// and indices, no names to look up.
pub(crate) fn pointer_of(path: &str) -> String {
    segments(path)
        .iter()
        .map(|segment| format!("/{}", segment.replace('~', "~0").replace('/', "~1")))
        .collect()
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::BUILTIN;

    /// Reading again only the part a path changes gives what reading the
    /// whole scenario gave: the same scenario, or the same error.
    #[test]
    fn a_partial_edit_is_a_whole_edit() {
        let cases: &[(&str, &str)] = &[
            ("timing", "graduated"),
            ("timing", "tick-system"),
            ("timing", "continuous"),
            ("timing", "nonsense"),
            ("timing", "3"),
            ("timing", "null"),
            ("timing", r#"{"system":"tick_system","action_ticks":1}"#),
            ("timing", r#"{"system":"tick_system","action_ticks":-1}"#),
            ("timing", r#"{"system":"tick_system","bogus":1}"#),
            ("timing", r#"{"bogus":1}"#),
            ("timing.system", "simple-rounds"),
            ("timing.system", "nope"),
            ("timing.lap", "3"),
            ("timing.bogus", "1"),
            ("TIMING", "action-blocks"),
            ("striking", "fudge-opposed"),
            ("striking", "nope"),
            ("striking.amazing", "true"),
            ("striking.amazing", "7"),
            ("damage", "hit_points"),
            ("damage.model", "hit-points"),
            ("damage.max_hp", "4"),
            ("damage.max_hp", "-1"),
            ("damage.max_hp", "\"x\""),
            ("damage.boxes", "[1,2]"),
            ("battle.targeting", "most_wounded"),
            ("battle.targeting", "least-engaged"),
            ("battle.targeting", "nope"),
            ("Battle.Targeting", "random"),
            ("battle.max_actions", "-1"),
            ("battle.max_actions", "20"),
            ("battle.max_rounds", "0"),
            ("battle.max_attackers_per_target", "0"),
            ("battle.extra", "1"),
            ("battle", "null"),
            ("battle", "{}"),
            ("battle", r#"{"targeting":"most_wounded","oops":1}"#),
            ("name", "3"),
            ("name", "renamed"),
            ("description", "null"),
            ("description", "a new one"),
            ("colour", "red"),
            ("sides.0.groups.0.count", "100"),
            ("sides.0.groups.0.count", "-3"),
            ("sides.0.groups.0.count", "99999999999"),
            ("sides.0.groups.0.weapon", "Dagger"),
            ("sides.0.groups.0.weapon", "dagger"),
            ("sides.0.groups.0.weapon", "katana"),
            ("sides.0.groups.0.weapon", r#"{"name":"x","time_taken":-1}"#),
            (
                "sides.0.groups.0.weapon",
                r#"{"name":"x","time_taken":3,"rate_of_fire":"2/1"}"#,
            ),
            ("sides.0.groups.0.weapon.time_taken", "4"),
            ("sides.0.groups.0.skill", "Good+"),
            ("sides.0.groups.0.skill", "Splendid"),
            ("sides.0.groups.0.armor", "kevlar"),
            ("sides.0.groups.0.armor", "kevlr"),
            ("sides.0.groups.0.bogus", "1"),
            ("sides.0.groups.0.name", "null"),
            ("sides.0.groups.0", "{}"),
            ("sides.0.groups.0", "3"),
            ("sides[1].groups[0].strike_rating", "8"),
            ("sides.1.groups.0.name", "Twin"),
            ("sides.0.name", "null"),
            ("sides.0.groups", "[]"),
            ("sides", "[]"),
        ];
        for name in BUILTIN {
            let base = Scenario::builtin(name).unwrap();
            for (path, value) in cases {
                let parsed =
                    serde_json::from_str::<Value>(value).unwrap_or_else(|_| Value::String((*value).to_owned()));
                let partial = base.edit(path, parsed.clone(), true);
                let whole = base.edit(path, parsed, false);
                match (&partial, &whole) {
                    (Ok(a), Ok(b)) => assert_eq!(a, b, "{name}: {path} = {value}"),
                    (Err(a), Err(b)) => assert_eq!(format!("{a:?}"), format!("{b:?}"), "{name}: {path} = {value}"),
                    _ => panic!("{name}: {path} = {value}: {partial:?} but whole {whole:?}"),
                }
            }
        }
    }
}
