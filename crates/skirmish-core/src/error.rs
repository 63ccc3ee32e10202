//! The one error type of the rules crate.
//!
//! Every fallible call names the *field* it refused and *why*, so a GM app, a
//! notebook or a scenario loader can show the message as it is. Variants are
//! few and general; the message carries the detail.

use std::fmt;

/// The text of a caught panic's payload (what `catch_unwind` returns:
/// `panic!` gives a `&str` or a `String`), for the errors a caught panic
/// becomes in the tracker, the sweep and the bindings: the one home of it.
///
/// ```
/// let payload = std::panic::catch_unwind(|| panic!("at {}", 3)).unwrap_err();
/// assert_eq!(skirmish_core::error::panic_message(payload.as_ref()), "at 3");
/// ```
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(text) = payload.downcast_ref::<&str>() {
        (*text).to_owned()
    } else if let Some(text) = payload.downcast_ref::<String>() {
        text.clone()
    } else {
        "a panic without a message".to_owned()
    }
}

/// A result whose error is [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Why a rules call refused its input.
///
/// `#[non_exhaustive]`: new kinds of refusal may be added without a major
/// version; match with a wildcard arm.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A number outside the range the rule allows.
    #[error("{field}: {value} is outside {min}..={max}")]
    OutOfRange {
        /// The field or argument, e.g. `"dice.count"` or `"time_taken"`.
        field: String,
        /// The value given.
        value: i128,
        /// Smallest allowed value.
        min: i128,
        /// Largest allowed value.
        max: i128,
    },
    /// A value that is wrong for a reason other than its range.
    #[error("{field}: {problem}")]
    Invalid {
        /// The field or argument.
        field: String,
        /// What is wrong with it, in words.
        problem: String,
    },
    /// A name (weapon, armor, ladder level, ...) that is not known.
    #[error("unknown {kind} {name:?}{}", Suggestions(suggestions))]
    UnknownName {
        /// What kind of name was looked up, e.g. `"weapon"`.
        kind: String,
        /// The name given.
        name: String,
        /// The closest known names, best first (may be empty).
        suggestions: Vec<String>,
    },
    /// A scripted roll does not fit the dice it was used for.
    #[error("scripted roll #{position} for {dice}: {value} is outside {min}..={max}")]
    ScriptedRollOutOfRange {
        /// The dice the rule asked for, e.g. `"4dF"`.
        dice: String,
        /// 1-based position of the roll in the script.
        position: usize,
        /// The scripted value.
        value: i32,
        /// Smallest value those dice can show.
        min: i32,
        /// Largest value those dice can show.
        max: i32,
    },
    /// The rules asked for a roll and the script had none left.
    #[error("scripted rolls ran out: {dice} was needed after {used} scripted roll(s)")]
    ScriptExhausted {
        /// The dice the rule asked for.
        dice: String,
        /// How many scripted rolls had been used.
        used: usize,
    },
    /// A sum or product left the range of the integers the rules use.
    #[error("{field}: arithmetic overflow ({problem})")]
    Overflow {
        /// The field whose computation overflowed.
        field: String,
        /// What was being computed.
        problem: String,
    },
}

impl Error {
    /// A value outside `min..=max` for `field`.
    pub fn out_of_range(
        field: impl Into<String>,
        value: impl Into<i128>,
        min: impl Into<i128>,
        max: impl Into<i128>,
    ) -> Self {
        Error::OutOfRange {
            field: field.into(),
            value: value.into(),
            min: min.into(),
            max: max.into(),
        }
    }

    /// A value that is wrong for `field`, with the reason.
    pub fn invalid(field: impl Into<String>, problem: impl Into<String>) -> Self {
        Error::Invalid {
            field: field.into(),
            problem: problem.into(),
        }
    }

    /// An overflow while computing `field`.
    pub fn overflow(field: impl Into<String>, problem: impl Into<String>) -> Self {
        Error::Overflow {
            field: field.into(),
            problem: problem.into(),
        }
    }

    /// An unknown `name` of `kind`, suggesting the closest of `known`.
    pub fn unknown_name<'a>(kind: impl Into<String>, name: &str, known: impl IntoIterator<Item = &'a str>) -> Self {
        Error::UnknownName {
            kind: kind.into(),
            name: name.to_owned(),
            suggestions: closest_names(name, known),
        }
    }

    /// The same error with `prefix.` put before its field, so a nested
    /// structure can say where in it the problem is (`"side.weapon"`).
    pub fn in_field(self, prefix: &str) -> Self {
        let join = |field: String| {
            if field.is_empty() {
                prefix.to_owned()
            } else {
                format!("{prefix}.{field}")
            }
        };
        match self {
            Error::OutOfRange { field, value, min, max } => Error::OutOfRange {
                field: join(field),
                value,
                min,
                max,
            },
            Error::Invalid { field, problem } => Error::Invalid {
                field: join(field),
                problem,
            },
            Error::Overflow { field, problem } => Error::Overflow {
                field: join(field),
                problem,
            },
            other => other,
        }
    }
}

/// Displays a list of suggestions as `"; did you mean "a", "b"?"`.
struct Suggestions<'a>(&'a [String]);

impl fmt::Display for Suggestions<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            return Ok(());
        }
        f.write_str("; did you mean ")?;
        for (i, s) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(if i + 1 == self.0.len() { " or " } else { ", " })?;
            }
            write!(f, "{s:?}")?;
        }
        f.write_str("?")
    }
}

/// Up to three known names closest to `name` (case-insensitive
/// Jaro-Winkler similarity, ties broken alphabetically), best first.
pub(crate) fn closest_names<'a>(name: &str, known: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    let wanted = name.trim().to_lowercase();
    let mut scored: Vec<(f64, &str)> = known
        .into_iter()
        .map(|k| {
            let lower = k.to_lowercase();
            let mut score = strsim::jaro_winkler(&wanted, &lower);
            // A name that contains what was typed ("crossbow" in "Crossbow,
            // Heavy") is a better guess than a merely similar spelling.
            if !wanted.is_empty() && lower.contains(&wanted) {
                score += 1.0;
            }
            (score, k)
        })
        .filter(|(score, _)| *score >= 0.6)
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.cmp(b.1)));
    scored.dedup_by(|a, b| a.1 == b.1);
    scored.into_iter().take(3).map(|(_, k)| k.to_owned()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_name_the_field_and_the_problem() {
        let e = Error::out_of_range("dice.count", 0, 1, 40);
        assert_eq!(e.to_string(), "dice.count: 0 is outside 1..=40");
        let e = Error::unknown_name("weapon", "crosbow", ["Crossbow, Heavy", "Crossbow, Light", "Dagger"]);
        assert_eq!(
            e.to_string(),
            "unknown weapon \"crosbow\"; did you mean \"Crossbow, Heavy\" or \"Crossbow, Light\"?"
        );
        let e = Error::invalid("distance", "must not be negative").in_field("strike");
        assert_eq!(e.to_string(), "strike.distance: must not be negative");
    }

    #[test]
    fn no_suggestion_when_nothing_is_close() {
        let e = Error::unknown_name("armor", "zzzzqqq", ["Leather, etc."]);
        assert_eq!(e.to_string(), "unknown armor \"zzzzqqq\"");
    }
}
