//! Errors of the simulator.

/// Why a battle or a sweep could not run.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum SimError {
    /// A rule refused its input (a number out of range in the scenario).
    #[error("{0}")]
    Rules(#[from] skirmish_core::Error),
    /// The scenario cannot be fought as given.
    #[error("scenario: {0}")]
    Scenario(String),
    /// The live encounter refused (odds from here of an encounter that is
    /// decided, or has a combatant without combat stats; a scenario's
    /// fighter it cannot take): the tracker's error, kind and field kept.
    #[error("encounter: {0}")]
    Tracker(#[from] skirmish_core::tracker::TrackerError),
    /// The battle was stopped through its
    /// [`Control`](crate::battle::Control)'s flag before it ended: where it
    /// was.
    #[error("interrupted at tick {tick} (round {round}) after {actions} actions")]
    Interrupted {
        /// The tick of the last moment fought.
        tick: u64,
        /// The round (phase, exchange; Continuous: stopwatch lap) reached.
        round: u32,
        /// Actions fought.
        actions: u64,
    },
    /// A battle's per-fighter arrays did not fit in memory.
    #[error("a battle of {fighters} fighters does not fit in this machine's memory")]
    OutOfMemory {
        /// The battle's fighters.
        fighters: u64,
    },
}

impl SimError {
    pub(crate) fn rules(e: skirmish_core::Error) -> SimError {
        SimError::Rules(e)
    }
}
