//! [`ScenarioError`]: what is wrong with a scenario, and where.

use std::fmt;

/// What kind of problem a [`ScenarioError`] reports.
///
/// `#[non_exhaustive]`: match with a wildcard arm.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ScenarioErrorKind {
    /// The file could not be read, or its extension names no known format.
    Read,
    /// Not valid TOML or JSON.
    Syntax,
    /// Valid TOML or JSON, but not a scenario: a wrong type, an unknown
    /// key, a missing field, an unknown name of a choice.
    Schema,
    /// A well-formed scenario that breaks a rule (too few sides, a count of
    /// 0, an unknown weapon, a number out of range, too many fighters).
    Invalid,
    /// A field path (as sweeps use) that names no field.
    FieldPath,
    /// A built-in scenario name that is not known.
    UnknownBuiltin,
}

/// Why a scenario was refused: the file, the place in it, the field and
/// the reason.
///
/// Displays as `origin:line:column: path: message`, leaving out what is not
/// known, e.g.
/// `ambush.toml:12:9: sides[0].groups[1].count: -3 is not a count (expected 1 or more)`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct ScenarioError {
    /// What kind of problem it is.
    pub kind: ScenarioErrorKind,
    /// Where the scenario came from: a file path, `built-in <name>`, or
    /// empty for a scenario built in code.
    pub origin: String,
    /// 1-based line of the offending text, where known.
    pub line: Option<usize>,
    /// 1-based column (in characters) of the offending text, where known.
    pub column: Option<usize>,
    /// The field, like `sides[0].groups[1].count`; empty for the whole
    /// document.
    pub path: String,
    /// What is wrong, in words.
    pub message: String,
}

impl ScenarioError {
    /// An error of `kind` at `path`, with no origin or position yet.
    pub(crate) fn new(kind: ScenarioErrorKind, path: impl Into<String>, message: impl Into<String>) -> Self {
        ScenarioError {
            kind,
            origin: String::new(),
            line: None,
            column: None,
            path: path.into(),
            message: message.into(),
        }
    }

    /// A validation error ([`ScenarioErrorKind::Invalid`]).
    pub(crate) fn invalid(path: impl Into<String>, message: impl Into<String>) -> Self {
        ScenarioError::new(ScenarioErrorKind::Invalid, path, message)
    }

    /// The same error from `origin`.
    pub(crate) fn with_origin(mut self, origin: &str) -> Self {
        origin.clone_into(&mut self.origin);
        self
    }

    /// The same error at byte `offset` of `src` (ignored if out of range).
    pub(crate) fn at_offset(mut self, src: &str, offset: usize) -> Self {
        if let Some((line, column)) = line_column(src, offset) {
            self.line = Some(line);
            self.column = Some(column);
        }
        self
    }

    /// A rules-crate error about the field at `path` (its own field name,
    /// if any, goes after `path`).
    pub(crate) fn from_core(kind: ScenarioErrorKind, path: &str, error: skirmish_core::Error) -> Self {
        use skirmish_core::Error as E;
        let join = |field: &str| {
            if field.is_empty() || field == path {
                path.to_owned()
            } else if path.is_empty() || (path != "damage" && field.starts_with(&format!("{path}."))) {
                // Some rules already name their field in full ("timing.lap").
                // The damage model's never do: its fields are named inside
                // the model, whose own `damage` table ("damage.table[0]")
                // only looks like the full path.
                field.to_owned()
            } else {
                format!("{path}.{field}")
            }
        };
        match error {
            E::OutOfRange { field, value, min, max } => {
                ScenarioError::new(kind, join(&field), format!("{value} is outside {min}..={max}"))
            }
            E::Invalid { field, problem } => ScenarioError::new(kind, join(&field), problem),
            other => ScenarioError::new(kind, path, other.to_string()),
        }
    }
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut prefix = self.origin.clone();
        if let Some(line) = self.line {
            prefix = format!("{prefix}:{line}");
            if let Some(column) = self.column {
                prefix = format!("{prefix}:{column}");
            }
        }
        if !prefix.is_empty() {
            write!(f, "{prefix}: ")?;
        }
        if !self.path.is_empty() {
            write!(f, "{}: ", self.path)?;
        }
        f.write_str(&self.message)
    }
}

/// 1-based line and column (in characters) of byte `offset` in `src`.
pub(crate) fn line_column(src: &str, offset: usize) -> Option<(usize, usize)> {
    let before = src.get(..offset)?;
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = before.get(line_start..)?.chars().count() + 1;
    Some((line, column))
}

/// The field path of a deserialization error, from the path serde saw and
/// its message: the `?` serde_path_to_error writes for an unreadable key is
/// dropped, and an unknown key is added where serde stopped short of it
/// (inside tagged tables such as `striking`). Says whether it added one.
pub(crate) fn schema_path(path: &str, message: &str) -> (String, bool) {
    let mut path = path.trim_end_matches(".?").trim_end_matches('?').to_owned();
    let mut nested = false;
    if let Some((inner, _)) = message.strip_prefix(NESTED).and_then(|rest| rest.split_once(NESTED)) {
        let inner = inner.trim_end_matches(".?").trim_end_matches('?');
        if !inner.is_empty() {
            if !path.is_empty() && !inner.starts_with('[') {
                path.push('.');
            }
            path.push_str(inner);
            nested = true;
        }
    }
    let message = strip_nested(message);
    if let Some(rest) = message.strip_prefix("unknown field `")
        && let Some(key) = rest.split('`').next()
    {
        let last = path.rsplit(['.', '[']).next().unwrap_or_default();
        if last != key {
            if !path.is_empty() {
                path.push('.');
            }
            path.push_str(key);
            return (path, true);
        }
    }
    (path, nested)
}

/// Marks the path inside a choice's table (`timing`, `striking`, `damage`)
/// at the start of an error's message: serde reads those tables through a
/// buffer that forgets paths, so [`nested_error`] writes it into the
/// message and [`schema_path`] moves it back onto the path.
pub(crate) const NESTED: char = '\u{1f}';

/// An error message carrying the path inside a choice's table (see
/// [`NESTED`]).
pub(crate) fn nested_error(inner_path: &str, message: &str) -> String {
    format!("{NESTED}{inner_path}{NESTED}{message}")
}

/// The message without a [`NESTED`] path.
pub(crate) fn strip_nested(message: &str) -> &str {
    message
        .strip_prefix(NESTED)
        .and_then(|rest| rest.split_once(NESTED))
        .map_or(message, |(_, message)| message)
}

/// Makes serde's stock messages read as a scenario author needs them,
/// knowing the field `path` they are about.
pub(crate) fn humanize(message: &str, path: &str) -> String {
    let message = strip_nested(message);
    let ticked: Vec<&str> = message.split('`').skip(1).step_by(2).collect();
    let last_segment = path.rsplit(['.', '[']).next().unwrap_or(path);
    if let Some(rest) = message.strip_prefix("invalid value: integer `") {
        let value = rest.split('`').next().unwrap_or_default();
        let unsigned = ["u8", "u16", "u32", "u64", "usize"]
            .iter()
            .any(|t| message.ends_with(&format!("expected {t}")));
        if unsigned {
            if last_segment == "count" {
                return format!("{value} is not a count (expected 1 or more)");
            }
            if value.starts_with('-') {
                return format!("{value} is negative (expected a whole number, 0 or more)");
            }
            return format!("{value} is too large for this field");
        }
        if last_segment == "count" {
            return format!("{value} is not a count (expected 1 or more)");
        }
        let signed = ["i8", "i16", "i32", "i64"]
            .iter()
            .any(|t| message.ends_with(&format!("expected {t}")));
        if signed {
            let side = if value.starts_with('-') { "small" } else { "large" };
            return format!("{value} is too {side} for this field ({})", signed_limits(last_segment));
        }
    }
    if message.contains("expected struct ")
        && (message.starts_with("invalid length") || message.starts_with("invalid type: sequence"))
    {
        let what = if path.is_empty() { "a scenario" } else { "this field" };
        return format!("{what} is a table of fields (in JSON an object, {{...}}), not a list");
    }
    if message.starts_with("data did not match any variant of untagged enum") {
        return match message.rsplit(' ').next() {
            Some("LevelRepr") => "expected a FUDGE ladder level: a name like \"Good\" or \"Great+\" (plus-levels \
                                  allowed), or a whole number like 1 or -2"
                .to_owned(),
            Some("RateOfFireRepr") => {
                "expected a rate of fire: shots per round as a whole number like 2, or \"SHOTS/ROUNDS\" like \"4/3\""
                    .to_owned()
            }
            _ => "this value has none of the forms this field takes".to_owned(),
        };
    }
    if message.starts_with("unknown field `") {
        return unknown_with_suggestions("field", &ticked);
    }
    if message.starts_with("unknown variant `") {
        return unknown_with_suggestions("choice", &ticked);
    }
    if last_segment == "count"
        && let Some(rest) = message.strip_prefix("invalid type: ")
    {
        let what = rest.split(", expected").next().unwrap_or(rest);
        return format!("{what} is not a count (expected a whole number, 1 or more)");
    }
    plain_types(message)
}

/// What a signed whole-number field takes, by its name.
fn signed_limits(field: &str) -> String {
    use skirmish_core::fighter::{HIT_POINTS_LIMIT, INITIATIVE_LIMIT, RATING_LIMIT};
    match field {
        "strike_rating"
        | "defense_rating"
        | "offense"
        | "toughness"
        | "speed_bonus"
        | "reflexes"
        | "combat_sense"
        | "amazing_strike_damage"
        | "minimum_to_hit" => {
            format!("expected a whole number from -{RATING_LIMIT} to {RATING_LIMIT}")
        }
        "initiative_bonus" => format!("expected a whole number from -{INITIATIVE_LIMIT} to {INITIATIVE_LIMIT}"),
        "hit_points" => format!("expected a whole number from 1 to {HIT_POINTS_LIMIT}"),
        // The damage model's own bound (skirmish_core::damage::HitPoints).
        "max_hp" => format!("expected a whole number from 1 to {}", i32::MAX),
        _ => "expected a whole number within this field's limits, see docs/scenarios.md".to_owned(),
    }
}

/// `unknown field "x"; did you mean "y"? (allowed: a, b, c)`, from serde's
/// `unknown field `x`, expected one of `a`, `b`, `c``.
fn unknown_with_suggestions(what: &str, ticked: &[&str]) -> String {
    let Some((given, allowed)) = ticked.split_first() else {
        return format!("unknown {what}");
    };
    let base = skirmish_core::Error::unknown_name(what, given, allowed.iter().copied()).to_string();
    if allowed.is_empty() {
        format!("{base} (this table takes no {what}s)")
    } else {
        format!("{base} (allowed: {})", allowed.join(", "))
    }
}

/// `"; did you mean \"a\" or \"b\"?"` for the known names closest to
/// `name`, or nothing when none is close.
pub(crate) fn did_you_mean<'a>(name: &str, known: impl IntoIterator<Item = &'a str>) -> String {
    match skirmish_core::Error::unknown_name("", name, known) {
        skirmish_core::Error::UnknownName { suggestions, .. } if !suggestions.is_empty() => {
            let quoted: Vec<String> = suggestions.iter().map(|s| format!("{s:?}")).collect();
            match quoted.split_last() {
                Some((last, [])) => format!("; did you mean {last}?"),
                Some((last, rest)) => format!("; did you mean {} or {last}?", rest.join(", ")),
                None => String::new(),
            }
        }
        _ => String::new(),
    }
}

/// Replaces Rust type names in serde's messages with words.
fn plain_types(message: &str) -> String {
    let mut out = message.to_owned();
    for (rust, words) in [
        ("expected u8", "expected a whole number, 0 or more"),
        ("expected u16", "expected a whole number, 0 or more"),
        ("expected u32", "expected a whole number, 0 or more"),
        ("expected u64", "expected a whole number, 0 or more"),
        ("expected usize", "expected a whole number, 0 or more"),
        ("expected i8", "expected a whole number"),
        ("expected i16", "expected a whole number"),
        ("expected i32", "expected a whole number"),
        ("expected i64", "expected a whole number"),
        ("expected f32", "expected a number"),
        ("expected f64", "expected a number"),
        ("expected a string", "expected text in quotes"),
        ("expected a sequence", "expected a list"),
    ] {
        if out.ends_with(rust) {
            out.truncate(out.len() - rust.len());
            out.push_str(words);
        }
    }
    // Type names after these words (`expected struct FighterProfile with
    // 17 elements`) mean nothing to a scenario's author.
    for (rust, words) in [
        (
            "expected internally tagged enum ",
            "expected a table with its choice named",
        ),
        ("expected struct ", "expected a table"),
        ("expected enum ", "expected a name"),
        ("expected unit struct ", "expected a name"),
        ("expected tuple struct ", "expected a list"),
    ] {
        while let Some(at) = out.find(rust) {
            let rest = &out[at + rust.len()..];
            let name_len = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            let mut end = at + rust.len() + name_len;
            // "with 7 elements", "with 1 element"
            if let Some(tail) = out[end..].strip_prefix(" with ") {
                let digits = tail.chars().take_while(char::is_ascii_digit).count();
                if digits > 0 {
                    let after = &tail[digits..];
                    let word = [" elements", " element"].into_iter().find(|w| after.starts_with(w));
                    if let Some(word) = word {
                        end += " with ".len() + digits + word.len();
                    }
                }
            }
            out.replace_range(at..end, words);
        }
    }
    out.replace("invalid type: sequence", "invalid type: a list")
        .replace("invalid type: map", "invalid type: a table")
        .replace("expected variant identifier", "expected a name")
        .replace("expected field identifier", "expected a field name")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_leaves_out_what_is_not_known() {
        let mut e = ScenarioError::invalid("sides[0].groups[1].count", "-3 is not a count (expected 1 or more)");
        assert_eq!(
            e.to_string(),
            "sides[0].groups[1].count: -3 is not a count (expected 1 or more)"
        );
        e = e.with_origin("ambush.toml");
        assert_eq!(
            e.to_string(),
            "ambush.toml: sides[0].groups[1].count: -3 is not a count (expected 1 or more)"
        );
        e.line = Some(12);
        e.column = Some(9);
        assert_eq!(
            e.to_string(),
            "ambush.toml:12:9: sides[0].groups[1].count: -3 is not a count (expected 1 or more)"
        );
    }

    #[test]
    fn line_and_column_are_one_based_in_characters() {
        let src = "a = 1\nné = 2\n";
        assert_eq!(line_column(src, 0), Some((1, 1)));
        assert_eq!(line_column(src, 6), Some((2, 1)));
        assert_eq!(line_column(src, src.rfind('=').unwrap_or(0)), Some((2, 4)));
        assert_eq!(line_column(src, 999), None);
    }

    #[test]
    fn serde_messages_become_words() {
        assert_eq!(
            humanize("invalid value: integer `-3`, expected u64", "sides[0].groups[1].count"),
            "-3 is not a count (expected 1 or more)"
        );
        assert_eq!(
            humanize("invalid value: integer `-1`, expected u32", "battle.max_rounds"),
            "-1 is negative (expected a whole number, 0 or more)"
        );
        assert_eq!(
            humanize("unknown field `cont`, expected `name` or `count`", "sides[0].groups[0]"),
            "unknown field \"cont\"; did you mean \"count\"? (allowed: name, count)"
        );
        assert_eq!(
            humanize("invalid type: string \"x\", expected i32", "a"),
            "invalid type: string \"x\", expected a whole number"
        );
    }
}
