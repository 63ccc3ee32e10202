//! The tracker's refusals: a small, stable set of kinds an app branches on,
//! each with a readable message. The rules' own errors
//! ([`crate::Error`]) become [`TrackerError::InvalidInput`] naming the
//! field; new detail goes into messages, never new kinds, so the language
//! bindings can keep their exception classes. `Internal` is a caught panic:
//! a bug, reported instead of unwinding into the app.

use std::fmt;

use serde::{Deserialize, Serialize};

/// Which kind of refusal: what an app branches on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorKind {
    /// No such combatant, effect or name.
    NotFound,
    /// Not now: the combatant is down or removed, or the operation belongs
    /// to another phase or timing system.
    NotNow,
    /// Nothing to undo (or redo).
    NothingToUndo,
    /// An input the rules refuse; the error names the field.
    InvalidInput,
    /// A snapshot that is corrupt, inconsistent or from a newer version.
    BadSnapshot,
    /// A bug in the tracker: an operation panicked. The panic was caught
    /// and the encounter is as it was before the call; the message says
    /// what panicked.
    Internal,
}

impl ErrorKind {
    /// The kind's name as snapshots and bindings write it.
    pub const fn name(self) -> &'static str {
        match self {
            ErrorKind::NotFound => "not_found",
            ErrorKind::NotNow => "not_now",
            ErrorKind::NothingToUndo => "nothing_to_undo",
            ErrorKind::InvalidInput => "invalid_input",
            ErrorKind::BadSnapshot => "bad_snapshot",
            ErrorKind::Internal => "internal",
        }
    }
}

/// Why the tracker refused an operation. A refused operation changes
/// nothing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TrackerError {
    kind: ErrorKind,
    field: Option<String>,
    message: String,
}

impl TrackerError {
    /// An error of `kind` about `field` (if any), saying `message`.
    pub fn new(kind: ErrorKind, field: Option<&str>, message: impl Into<String>) -> TrackerError {
        TrackerError {
            kind,
            field: field.map(str::to_owned),
            message: message.into(),
        }
    }

    /// No such thing: `field` names what was looked up.
    pub fn not_found(field: &str, message: impl Into<String>) -> TrackerError {
        TrackerError::new(ErrorKind::NotFound, Some(field), message)
    }

    /// Not now.
    pub fn not_now(field: &str, message: impl Into<String>) -> TrackerError {
        TrackerError::new(ErrorKind::NotNow, Some(field), message)
    }

    /// An input the rules refuse.
    pub fn invalid(field: &str, message: impl Into<String>) -> TrackerError {
        TrackerError::new(ErrorKind::InvalidInput, Some(field), message)
    }

    /// A snapshot that cannot be restored.
    pub fn bad_snapshot(message: impl Into<String>) -> TrackerError {
        TrackerError::new(ErrorKind::BadSnapshot, Some("snapshot"), message)
    }

    /// A caught panic: `payload` is what `catch_unwind` returned.
    pub(crate) fn internal(payload: &(dyn std::any::Any + Send)) -> TrackerError {
        let what = crate::error::panic_message(payload);
        TrackerError::new(
            ErrorKind::Internal,
            None,
            format!("internal error (a bug; the encounter is unchanged): {what}"),
        )
    }

    /// Its kind.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// The field or argument it is about, if any (`"combatant"`,
    /// `"dice.attack"`, `"declaration.time_taken"`).
    pub fn field(&self) -> Option<&str> {
        self.field.as_deref()
    }

    /// What is wrong, in words (without the field).
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for TrackerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.field {
            Some(field) => write!(f, "{field}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for TrackerError {}

impl From<crate::Error> for TrackerError {
    /// The rules' errors are invalid input, naming their field.
    fn from(e: crate::Error) -> TrackerError {
        use crate::Error as E;
        let field = match &e {
            E::OutOfRange { field, .. } | E::Invalid { field, .. } | E::Overflow { field, .. } => Some(field.clone()),
            E::UnknownName { kind, .. } => Some(kind.clone()),
            // A roll typed in from the table that the dice cannot show, or
            // one missing: the roll is the field.
            E::ScriptedRollOutOfRange { .. } | E::ScriptExhausted { .. } => Some("roll".to_owned()),
        };
        let text = e.to_string();
        let message = match &field {
            Some(f) => text.strip_prefix(&format!("{f}: ")).unwrap_or(&text).to_owned(),
            None => text,
        };
        TrackerError {
            kind: ErrorKind::InvalidInput,
            field,
            message,
        }
    }
}

impl From<TrackerError> for crate::Error {
    /// For callers that mix the tracker with the rules under one error type.
    fn from(e: TrackerError) -> crate::Error {
        crate::Error::Invalid {
            field: e.field.unwrap_or_else(|| e.kind.name().to_owned()),
            problem: e.message,
        }
    }
}

/// The tracker's result type.
pub type TrackerResult<T> = std::result::Result<T, TrackerError>;
