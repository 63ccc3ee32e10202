//! The errors apps see: the tracker's few stable kinds, mapped in one place
//! ([`SkirmishError::from_tracker`]; the rules' own errors go through the
//! tracker's mapping, [`SkirmishError::from_core`]).
//!
//! Kotlin: `sealed class SkirmishException` with one subclass per kind;
//! Swift: `enum SkirmishError: Error`. Detail goes in the message.

use std::any::Any;

use skirmish_core::Error as CoreError;
use skirmish_core::tracker::{ErrorKind, TrackerError};
use skirmish_sim::SimError;
use skirmish_sim::scenario::{ScenarioError, ScenarioErrorKind};

/// Why a call was refused. Every call of the bindings can throw it; nothing
/// else crosses the boundary (a panic becomes [`SkirmishError::Internal`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, uniffi::Error)]
pub enum SkirmishError {
    /// No such combatant, effect, weapon, armor or timing system.
    #[error("{message}")]
    NotFound {
        /// What was looked up and, for names, the closest known ones.
        message: String,
    },
    /// Not possible now: the combatant is down or removed, the encounter is
    /// in the wrong phase, or the rule belongs to another timing system.
    #[error("{message}")]
    NotNow {
        /// Why not.
        message: String,
    },
    /// `undo` with no operation left to undo.
    #[error("{message}")]
    NothingToUndo {
        /// Says so.
        message: String,
    },
    /// A value the rules refuse (out of range, a roll the dice cannot show, ...).
    #[error("{message}")]
    InvalidInput {
        /// The field or argument refused, e.g. `"declaration.time_taken"`
        /// (empty where the rules name none, as for a typed-in roll the dice
        /// cannot show).
        field: String,
        /// What is wrong with it, naming the field.
        message: String,
    },
    /// A snapshot that is not one this library wrote (corrupt, truncated,
    /// another version).
    #[error("{message}")]
    BadSnapshot {
        /// What is wrong with it.
        message: String,
    },
    /// A bug in the library (a caught panic); the encounter is left as it
    /// was before the call.
    #[error("{message}")]
    Internal {
        /// The panic's message.
        message: String,
    },
}

/// The result type of every exported call.
pub type Result<T, E = SkirmishError> = std::result::Result<T, E>;

impl SkirmishError {
    /// The one mapping from the tracker's error kinds to the app's.
    ///
    /// The kinds are the same set ([`ErrorKind`]); the message is the
    /// tracker's whole text (field included), and `InvalidInput` also names
    /// the field on its own.
    pub fn from_tracker(e: TrackerError) -> SkirmishError {
        let message = e.to_string();
        match e.kind() {
            ErrorKind::NotFound => SkirmishError::NotFound { message },
            ErrorKind::NotNow => SkirmishError::NotNow { message },
            ErrorKind::NothingToUndo => SkirmishError::NothingToUndo { message },
            ErrorKind::BadSnapshot => SkirmishError::BadSnapshot { message },
            ErrorKind::Internal => SkirmishError::Internal { message },
            ErrorKind::InvalidInput => SkirmishError::InvalidInput {
                field: e.field().unwrap_or_default().to_owned(),
                message,
            },
        }
    }

    /// The rules' own errors (tables, options, conversions): an unknown name
    /// is `NotFound`; everything else is the tracker's `InvalidInput`
    /// naming the field, as the tracker itself maps them.
    pub fn from_core(e: CoreError) -> SkirmishError {
        match e {
            CoreError::UnknownName { .. } => SkirmishError::NotFound { message: e.to_string() },
            other => SkirmishError::from_tracker(TrackerError::from(other)),
        }
    }

    /// The simulator's errors (odds from here, an encounter from a
    /// scenario): the tracker's refusal keeps its kind and field; a rule's
    /// refusal (`battles` out of range) is `InvalidInput` naming the field;
    /// a scenario that cannot be fought is `InvalidInput` on `scenario`.
    pub fn from_sim(e: SimError) -> SkirmishError {
        match e {
            SimError::Tracker(e) => SkirmishError::from_tracker(e),
            SimError::Rules(e) => SkirmishError::from_core(e),
            other => SkirmishError::InvalidInput {
                field: "scenario".to_owned(),
                message: other.to_string(),
            },
        }
    }

    /// A scenario that cannot be read: an unknown built-in name is
    /// `NotFound` (suggesting the closest); anything else is `InvalidInput`
    /// naming the field (`sides[0].groups[1].count`; `scenario` for the
    /// whole text).
    pub fn from_scenario(e: ScenarioError) -> SkirmishError {
        let message = e.to_string();
        match e.kind {
            ScenarioErrorKind::UnknownBuiltin => SkirmishError::NotFound { message },
            _ => SkirmishError::InvalidInput {
                field: if e.path.is_empty() {
                    "scenario".to_owned()
                } else {
                    e.path
                },
                message,
            },
        }
    }

    /// The error a caught panic becomes.
    pub(crate) fn from_panic(payload: &(dyn Any + Send)) -> SkirmishError {
        let what = skirmish_core::error::panic_message(payload);
        SkirmishError::Internal {
            message: format!("internal error in skirmish (please report it): {what}"),
        }
    }
}

impl From<CoreError> for SkirmishError {
    fn from(e: CoreError) -> SkirmishError {
        SkirmishError::from_core(e)
    }
}

impl From<SimError> for SkirmishError {
    fn from(e: SimError) -> SkirmishError {
        SkirmishError::from_sim(e)
    }
}

impl From<ScenarioError> for SkirmishError {
    fn from(e: ScenarioError) -> SkirmishError {
        SkirmishError::from_scenario(e)
    }
}

impl From<TrackerError> for SkirmishError {
    fn from(e: TrackerError) -> SkirmishError {
        SkirmishError::from_tracker(e)
    }
}

/// Runs `f`, turning a panic into [`SkirmishError::Internal`]: no panic
/// unwinds into Kotlin or Swift (in Swift it would trap the app).
pub(crate) fn guard<T>(f: impl FnOnce() -> Result<T>) -> Result<T> {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(payload) => Err(SkirmishError::from_panic(payload.as_ref())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(e: SkirmishError) -> &'static str {
        match e {
            SkirmishError::NotFound { .. } => "NotFound",
            SkirmishError::NotNow { .. } => "NotNow",
            SkirmishError::NothingToUndo { .. } => "NothingToUndo",
            SkirmishError::InvalidInput { .. } => "InvalidInput",
            SkirmishError::BadSnapshot { .. } => "BadSnapshot",
            SkirmishError::Internal { .. } => "Internal",
        }
    }

    #[test]
    fn each_tracker_kind_maps_to_its_kind() {
        for (k, want) in [
            (ErrorKind::NotFound, "NotFound"),
            (ErrorKind::NotNow, "NotNow"),
            (ErrorKind::NothingToUndo, "NothingToUndo"),
            (ErrorKind::InvalidInput, "InvalidInput"),
            (ErrorKind::BadSnapshot, "BadSnapshot"),
            (ErrorKind::Internal, "Internal"),
        ] {
            let e = TrackerError::new(k, Some("combatant"), "no combatant 9");
            assert_eq!(kind(SkirmishError::from_tracker(e)), want);
        }
    }

    #[test]
    fn rules_errors_are_invalid_input_naming_the_field_or_not_found() {
        let e = SkirmishError::from_core(CoreError::out_of_range("declaration.time_taken", -1, 0, 1000));
        assert_eq!(
            e,
            SkirmishError::InvalidInput {
                field: "declaration.time_taken".into(),
                message: "declaration.time_taken: -1 is outside 0..=1000".into(),
            }
        );
        let e = SkirmishError::from_core(CoreError::unknown_name("weapon", "crosbow", ["Crossbow, Heavy"]));
        assert_eq!(kind(e.clone()), "NotFound");
        assert!(e.to_string().contains("Crossbow, Heavy"), "{e}");
    }

    #[test]
    fn sim_errors_keep_the_tracker_kind_and_name_the_field() {
        let e = SkirmishError::from_sim(SimError::Tracker(TrackerError::new(ErrorKind::NotNow, None, "decided")));
        assert_eq!(kind(e), "NotNow");
        match SkirmishError::from_sim(SimError::Rules(CoreError::out_of_range("battles", 0, 1, 100))) {
            SkirmishError::InvalidInput { field, .. } => assert_eq!(field, "battles"),
            other => panic!("{other:?}"),
        }
        let unknown = skirmish_sim::scenario::Scenario::builtin("goblin-ambsh").unwrap_err();
        assert_eq!(kind(SkirmishError::from_scenario(unknown)), "NotFound");
    }

    #[test]
    fn a_panic_becomes_internal() {
        let r: Result<()> = guard(|| panic!("boom {}", 7));
        match r {
            Err(SkirmishError::Internal { message }) => assert!(message.contains("boom 7"), "{message}"),
            other => panic!("{other:?}"),
        }
        let r: Result<()> = guard(|| panic!("static"));
        assert!(matches!(r, Err(SkirmishError::Internal { message }) if message.contains("static")));
    }
}
