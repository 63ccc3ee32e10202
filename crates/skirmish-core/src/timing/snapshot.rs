//! The documented, versioned snapshot of a [`Scheduler`]: plain data, for
//! saving a fight (the live tracker, an app closed mid-fight) and reading
//! it back.
//!
//! [`Scheduler::snapshot`] takes one; [`Scheduler::from_snapshot`] checks
//! every field and rebuilds a scheduler that continues **identically**:
//! the same moments, the same order within a tick, the same results for
//! the same rolls, and the same [`EventId`]s (a timer handle the caller
//! kept still cancels that timer; a handle of a fired or cancelled event
//! still names nothing new).
//!
//! The form is stable: fields are only added in a new
//! [`version`](SchedulerSnapshot::version), and every version keeps being
//! read. Unknown fields are refused. In JSON:
//!
//! ```
//! use skirmish_core::dice::SeededRolls;
//! use skirmish_core::timing::{ActorTiming, Declaration, Scheduler, SchedulerSnapshot, TimingSystem};
//!
//! # fn main() -> skirmish_core::Result<()> {
//! let mut rolls = SeededRolls::new(3);
//! let mut s = Scheduler::new(TimingSystem::continuous());
//! s.add(ActorTiming::default(), Declaration::new(2, 1))?;
//! s.add(ActorTiming::default(), Declaration::new(7, 0))?;
//! let mut acts = Vec::new();
//! for _ in 0..5 {
//!     s.next(&mut rolls, &mut acts)?;
//! }
//! let json = serde_json::to_string(&s.snapshot()).unwrap();
//! let snapshot: SchedulerSnapshot = serde_json::from_str(&json).unwrap();
//! let mut restored = Scheduler::from_snapshot(snapshot)?;
//! assert_eq!(restored, s);
//! let (mut a, mut b) = (rolls.clone(), rolls);
//! let (mut x, mut y) = (Vec::new(), Vec::new());
//! for _ in 0..20 {
//!     assert_eq!(s.next(&mut a, &mut x)?, restored.next(&mut b, &mut y)?);
//!     assert_eq!(x, y);
//! }
//! # Ok(())
//! # }
//! ```

use serde::{Deserialize, Serialize};

use super::queue::EventId;
use super::{ActionKind, ActorId, ActorTiming, Declaration, InitiativeEntry, Moment, TimingSystem};

#[cfg(doc)]
use super::{MAX_TICK, Scheduler};

/// The version [`Scheduler::snapshot`] writes.
pub const SCHEDULER_SNAPSHOT_VERSION: u32 = 1;

/// A [`Scheduler`] as plain data (see the [module docs](self)).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SchedulerSnapshot {
    /// The format version, [`SCHEDULER_SNAPSHOT_VERSION`] when written.
    pub version: u32,
    /// The timing system and its options.
    pub system: TimingSystem,
    /// The current round (Simple, Graduated, Tick System), phase (Action
    /// Blocks) or exchange (Simultaneous); Continuous counts 1 from its
    /// first initiative. 0 before the first.
    pub round: u32,
    /// The absolute tick just before the current round's first tick
    /// (at most [`MAX_TICK`]).
    pub round_base: u64,
    /// The absolute tick of the last moment handed out, 0 before the first
    /// (at most [`MAX_TICK`]). Every pending event is after it.
    pub now: u64,
    /// The round's span in ticks: Simple Rounds, ticks per pass (the
    /// round's highest initiative); Graduated "end of round", ticks per end
    /// pass; Tick System, the round's length (its highest initiative);
    /// Action Blocks, the number of blocks. Otherwise kept but unused.
    pub span: u64,
    /// Moments with actor acts handed out in the current round: while 0,
    /// [`Scheduler::set_initiative`] still corrects the round.
    pub moments_in_round: u32,
    /// The last moment handed out (its tick is `now`); `None` before the
    /// first.
    pub last: Option<Moment>,
    /// Every actor ever added, in [`ActorId`] order (the first is `#0`).
    pub actors: Vec<ActorSnapshot>,
    /// Actors that landed (or began a Tick System turn) and have not yet
    /// declared what follows, in the order they landed; each has
    /// [`ActorSnapshot::awaiting`] set.
    pub awaiting: Vec<ActorId>,
    /// Continuous: actors added during the battle whose initiative is
    /// rolled at the next [`Scheduler::next`], in the order they were
    /// added; each is [`ActorPresence::Joining`].
    pub joining: Vec<ActorId>,
    /// Every pending event in the order it will happen: by tick, and
    /// within a tick in the order it was scheduled.
    pub events: Vec<EventSnapshot>,
    /// The event handles not in use, in the order new events will take
    /// them. With the handles in [`events`](Self::events) they are every
    /// slot of the queue exactly once, so the restored scheduler hands out
    /// the handles the original would have.
    pub free_handles: Vec<EventId>,
}

/// Where an actor stands in the fight.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ActorPresence {
    /// Added after its system's first initiative (Continuous): joins at
    /// the next [`Scheduler::next`].
    Joining,
    /// In the fight.
    Active,
    /// Down or removed: never acts again, has nothing pending.
    Out,
}

/// One actor of a [`SchedulerSnapshot`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ActorSnapshot {
    /// Its timing traits (Tick System bonus and Interval, REF, Combat Sense).
    pub timing: ActorTiming,
    /// Its current declaration (what it does again if it declares nothing).
    pub declaration: Declaration,
    /// In the fight, joining, or out.
    pub presence: ActorPresence,
    /// Landed (or began a Tick System turn) and has not yet declared what
    /// follows; then it is listed in [`SchedulerSnapshot::awaiting`].
    pub awaiting: bool,
    /// Actions landed in its current chain: the round (Simple, Graduated,
    /// Action Blocks, Tick System) or the battle (Continuous); the next is
    /// `nth + 1`.
    pub nth: u32,
    /// Actions allowed this round (Simple, Graduated: Rate of Fire and
    /// extra attacks; Action Blocks: actions this phase), at most
    /// [`MAX_ACTIONS`](super::MAX_ACTIONS).
    pub allowed: u32,
    /// The round its current action chain belongs to (Graduated "spill");
    /// at most [`round`](SchedulerSnapshot::round).
    pub chain_round: u32,
    /// Rounds its current Rate of Fire has been in use (fractional RoF).
    pub rounds_of_use: u32,
    /// This round's initiative: the score (Relativity), the total (Tick
    /// System) or the number of actions (Action Blocks); 0 before its first.
    /// Within `-MAX_TICK..=MAX_TICK`.
    pub initiative: i64,
    /// Initiative entered for its next roll, if any.
    pub entry: Option<InitiativeEntry>,
    /// Tick System: prepared (+4 to defensive rolls, first defense free).
    pub prepared: bool,
    /// Tick System: the free first defense while prepared was used.
    pub free_defense_used: bool,
    /// Tick System: the action in progress, if any.
    pub in_progress: Option<InProgress>,
}

/// Tick System: an action under way (started at a turn, not yet done).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InProgress {
    /// The handle of its completion event: one of the actor's
    /// [`EventKind::Action`] events in [`SchedulerSnapshot::events`].
    pub event: EventId,
    /// What kind of action it is (only non-combat actions can be
    /// interrupted).
    pub kind: ActionKind,
}

/// One pending event of a [`SchedulerSnapshot`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EventSnapshot {
    /// The absolute tick it happens on: after
    /// [`now`](SchedulerSnapshot::now), at most [`MAX_TICK`].
    pub tick: u64,
    /// Its handle, as [`Scheduler::set_timer`] returned it for a timer.
    pub id: EventId,
    /// Its place in the order the pending events were scheduled, from 0:
    /// within a tick these increase down the list; across ticks they say
    /// which of an actor's events came first.
    pub scheduled: u64,
    /// What happens.
    pub event: EventKind,
}

/// What a pending event is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum EventKind {
    /// A declared action lands.
    Action {
        /// Whose.
        actor: ActorId,
        /// The round of the chain it belongs to (Graduated "spill" lands
        /// an older round's action in the next round).
        round: u32,
        /// Its number in the actor's chain, from 1.
        nth: u32,
        /// Graduated "end of round": its end pass, from 1; 0 otherwise.
        end_pass: u32,
    },
    /// Tick System: the actor's turn begins.
    Turn {
        /// Whose.
        actor: ActorId,
        /// The round it belongs to.
        round: u32,
    },
    /// A timer set with [`Scheduler::set_timer`] runs out.
    Timer {
        /// The caller's id for it.
        id: u32,
    },
}
