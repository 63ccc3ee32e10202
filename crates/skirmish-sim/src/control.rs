//! How a battle is run: watched and stopped while it runs ([`Control`],
//! [`BattleProgress`]), and where it picks up ([`Start`]): what the general
//! loop (`battle/`) and the fast paths (`fast/`) both read.
//!
//! A leaf of the crate, so that the fast paths need nothing of `battle/`;
//! `battle` re-exports the public part.

use std::sync::atomic::{AtomicBool, Ordering};

use skirmish_core::damage::DamageState;

use crate::report::TraceLine;

/// How often (in actions) a battle run with a [`Control`] reports its
/// progress: at the first moment at or past each multiple.
pub const PROGRESS_EVERY: u64 = 1 << 16;

/// Where a battle is, as a [`Control`]'s progress callback sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BattleProgress {
    /// The tick of the moment about to be fought.
    pub tick: u64,
    /// The round (phase, exchange; Continuous: stopwatch lap) so far.
    pub round: u32,
    /// Actions fought so far.
    pub actions: u64,
    /// Fighters standing, all sides together.
    pub standing: u64,
    /// Fighters fielded, all sides together.
    pub fielded: u64,
}

/// How a battle is watched and stopped while it runs
/// ([`Battle::run_controlled`](crate::battle::Battle::run_controlled)): a flag that interrupts it, a sink that
/// takes its trace line by line as it happens (memory bounded whatever the
/// battle's length), and a progress callback. Nothing is set by default.
///
/// ```
/// use std::sync::atomic::AtomicBool;
/// use skirmish_sim::battle::{Battle, Control, RunOptions};
/// use skirmish_sim::scenario::Scenario;
///
/// let battle = Battle::new(&Scenario::builtin("goblin-ambush").unwrap()).unwrap();
/// let stop = AtomicBool::new(false); // a Ctrl-C handler would set it
/// let mut lines = 0;
/// let mut count = |_: &skirmish_sim::report::TraceLine| lines += 1;
/// let mut control = Control::new().cancel(&stop).trace(&mut count);
/// let report = battle.run_controlled(1, 0, &RunOptions::default(), &mut control).unwrap();
/// assert!(report.trace.is_none()); // streamed, not kept
/// drop(control);
/// assert!(lines > 0);
/// ```
#[derive(Default)]
pub struct Control<'a> {
    pub(crate) cancel: Option<&'a AtomicBool>,
    pub(crate) trace: Option<&'a mut dyn FnMut(&TraceLine)>,
    pub(crate) progress: Option<&'a mut dyn FnMut(&BattleProgress)>,
}

impl std::fmt::Debug for Control<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Control")
            .field("cancel", &self.cancel)
            .field("trace", &self.trace.is_some())
            .field("progress", &self.progress.is_some())
            .finish()
    }
}

impl<'a> Control<'a> {
    /// Nothing watched, nothing to stop the battle.
    pub fn new() -> Control<'a> {
        Control::default()
    }

    /// The battle is checked before each moment (so at least every moment's
    /// actions); once `flag` is set it stops with
    /// [`SimError::Interrupted`](crate::error::SimError::Interrupted), saying where it was.
    pub fn cancel(mut self, flag: &'a AtomicBool) -> Control<'a> {
        self.cancel = Some(flag);
        self
    }

    /// Every trace line goes to `sink` as it happens, whether or not
    /// [`RunOptions::trace`](crate::battle::RunOptions::trace) also keeps them in the report.
    pub fn trace(mut self, sink: &'a mut dyn FnMut(&TraceLine)) -> Control<'a> {
        self.trace = Some(sink);
        self
    }

    /// `progress` is called before the first moment and then every
    /// [`PROGRESS_EVERY`] actions or so.
    pub fn progress(mut self, progress: &'a mut dyn FnMut(&BattleProgress)) -> Control<'a> {
        self.progress = Some(progress);
        self
    }

    /// Whether the battle was asked to stop.
    #[inline]
    pub(crate) fn cancelled(&self) -> bool {
        self.cancel.is_some_and(|c| c.load(Ordering::Relaxed))
    }
}

/// Where a battle picks up: the round counter, rounds and tick it starts
/// from (all 0 for a fresh battle). A continuation of an encounter starts
/// from the encounter's.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Resume {
    /// Rounds (phases, exchanges) begun so far, as the clock counts them.
    pub(crate) round_starts: u32,
    /// The summary's rounds so far.
    pub(crate) rounds: u32,
    /// The tick of the last moment so far.
    pub(crate) tick: u64,
}

/// The state a continuation starts every battle from (see
/// [`Battle::fight_from`](crate::battle::Battle::fight_from)).
#[derive(Debug, Clone)]
pub(crate) struct Start {
    /// Per fighter: what it has taken (of the battle's damage model).
    pub(crate) damage: Vec<DamageState>,
    /// Per fighter: whether it is still in the fight.
    pub(crate) standing: Vec<bool>,
    /// The counters it picks up.
    pub(crate) resume: Resume,
}
