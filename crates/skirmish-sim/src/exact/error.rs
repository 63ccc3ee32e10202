//! Why a fight could not be solved exactly.

use crate::error::SimError;

/// Why [`solve`](super::solve) gave no answer.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ExactError {
    /// The scenario uses a rule or an option the exact engine does not
    /// model yet: `field` names it (`timing`, `sides[1].groups[0].parry`).
    /// Sample the fight instead (`skirmish run`, a sweep).
    #[error("{field}: {what}; the exact engine does not model it yet: sample the fight instead")]
    Unsupported {
        /// The scenario field, as a path.
        field: String,
        /// What about it is not modelled.
        what: String,
    },
    /// The fight has more states than the budget allows.
    #[error(
        "the fight has more than {budget} states (found {states} before stopping); \
         too big to solve exactly: sample it instead, or raise the budget"
    )]
    TooManyStates {
        /// States found when the budget ran out (one past it).
        states: usize,
        /// The budget.
        budget: usize,
    },
    /// One moment of the fight has more joint outcomes than the engine
    /// counts exactly (their common denominator passed 2^128).
    #[error(
        "a moment of {fighters} fighters has more outcomes than can be counted exactly: \
         too big to solve exactly, sample it instead"
    )]
    TooManyOutcomes {
        /// Fighters standing at that moment.
        fighters: usize,
    },
    /// Solving the fight would strike more moments than an automatic
    /// attempt's budget ([`ExactOptions::automatic`](super::ExactOptions::automatic)):
    /// its rounds have too many schedules for its states.
    #[error(
        "solving the fight would strike more than {budget} moments, an automatic attempt's budget: \
         sample it instead, or ask the exact engine for it by itself"
    )]
    TooMuchWork {
        /// The budget of moments struck.
        budget: u64,
    },
    /// The fight has more fighters standing than an automatic attempt
    /// takes on ([`ExactOptions::max_fighters`](super::ExactOptions::max_fighters)).
    #[error(
        "the fight has {fighters} fighters standing, more than the {budget} the exact engine was allowed \
         (an automatic attempt takes on six): sample it instead, or ask the exact engine for it by itself"
    )]
    TooManyFighters {
        /// Fighters standing.
        fighters: usize,
        /// The budget.
        budget: usize,
    },
    /// The scenario is not a battle at all (the battle engine's own error).
    #[error("{0}")]
    Sim(#[from] SimError),
}

impl ExactError {
    /// An [`ExactError::Unsupported`] for `field`.
    pub(super) fn unsupported(field: impl Into<String>, what: impl Into<String>) -> ExactError {
        ExactError::Unsupported {
            field: field.into(),
            what: what.into(),
        }
    }
}
