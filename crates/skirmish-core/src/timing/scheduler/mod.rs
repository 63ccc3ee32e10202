//! The scheduler: one state machine over the event queue for all six
//! timing systems. The rules themselves (formulas, policies, options) live
//! in the system modules; this file applies them in order.
//!
//! Split by concern: this file holds the types, the bounds constants, the
//! queue bookkeeping, timers and the tick sheet's view; `actors` adds,
//! takes out and answers about actors; `initiative` values, rolls and
//! corrects initiative; `rounds` lays out a round from initiative,
//! `turns` is the main loop and what an actor does at the table (declare,
//! cancel, delay, free actions), `bounds` checks every input and
//! invariant, and `snapshot` converts to and from the documented
//! [`SchedulerSnapshot`] (the format itself is in `timing/snapshot.rs`).

mod actors;
mod bounds;
mod initiative;
mod rounds;
mod snapshot;
mod turns;

use bounds::{check_die, check_range};
use rounds::{Plan, RoundStart, end_pass_events, first_end_pass};

use serde::{Deserialize, Serialize};

use crate::dice::{Dice, RollSource, ScriptedRolls};
use crate::error::{Error, Result};

use super::graduated::{GraduatedConfig, ready_time};
use super::queue::{EventId, EventQueue};
use super::simple::{actions_in_round, initiative};
use super::snapshot::{
    ActorPresence, ActorSnapshot, EventKind, EventSnapshot, InProgress, SCHEDULER_SNAPSHOT_VERSION, SchedulerSnapshot,
};
use super::tick_system::{self, FreeActionResult};
use super::{
    Act, ActionKind, ActorId, ActorTiming, Declaration, GmTiming, InitiativeEntry, Moment, PastEnd, PendingAct, Step,
    TimingSystem,
};

/// The last absolute tick a [`Scheduler`] schedules anything on:
/// 4,294,967,295 (`u32::MAX`), 136 years of one-second Continuous ticks.
///
/// Every tick fits a `u32`, so no round, phase, exchange, pass or lap
/// counter (all `u32`) can overflow, and a tick plus any duration the
/// scheduler accepts stays far inside `u64` and `i64`. Anything that would
/// land later (a timer, a GM landing tick, a delay, a round laid out past
/// it) is refused with an error; nothing wraps.
pub const MAX_TICK: u64 = u32::MAX as u64;
/// The longest duration in ticks the scheduler accepts: Time Taken, extra
/// preparation, GM Ready Time, Interval, action ticks, free-action ticks,
/// delays (1,000,000 ticks, eleven and a half days of seconds).
pub const MAX_DURATION: u32 = 1_000_000;
/// The largest speed bonus or Tick System initiative bonus, either sign.
pub const MAX_BONUS: i32 = 1_000_000;
/// The largest REF or Combat Sense (Action Blocks), either sign.
pub const MAX_REFLEXES: i32 = 1_000;
/// The most actions one actor may have in one round or phase (Rate of
/// Fire shots and rounds, extra attacks, Action Blocks actions).
pub const MAX_ACTIONS: u32 = 1_000;
/// The most actors one scheduler holds (removed ones count).
pub const MAX_ACTORS: usize = 10_000_000;

/// `base + ticks` as an absolute tick; past [`MAX_TICK`] it is refused,
/// naming `field` (whose value is `ticks`).
#[inline]
fn tick_after(base: u64, ticks: u64, field: &str) -> Result<u64> {
    match base.checked_add(ticks) {
        Some(t) if t <= MAX_TICK => Ok(t),
        _ => Err(too_late(base, ticks, field)),
    }
}

/// The error of [`tick_after`], out of line: the hot path never takes it.
#[cold]
#[inline(never)]
fn too_late(base: u64, ticks: u64, field: &str) -> Error {
    Error::out_of_range(field, ticks, 0, MAX_TICK.saturating_sub(base))
}

/// The error for a round (or follow-up) whose ticks would pass [`MAX_TICK`].
#[cold]
fn past_last_tick(field: &str) -> Error {
    Error::overflow(field, format!("it would land after the last tick {MAX_TICK}"))
}

/// What sits on the queue.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Ev {
    kind: EvKind,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum EvKind {
    /// An action lands. `end_pass` > 0: Graduated "end of round" pass.
    Action {
        who: u32,
        round: u32,
        nth: u32,
        end_pass: u32,
    },
    /// Tick System: a turn begins.
    Turn { who: u32, round: u32 },
    /// A caller's timer.
    Timer { id: u32 },
}

impl EvKind {
    /// Action `nth` of `who`'s chain in `round` (not an end-of-round pass).
    const fn action(who: u32, round: u32, nth: u32) -> EvKind {
        EvKind::Action {
            who,
            round,
            nth,
            end_pass: 0,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Presence {
    /// Added after its system's first initiative; joins at the next chance.
    Joining,
    /// In the fight.
    Active,
    /// Down or removed: never acts again.
    Out,
}

#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct ActorState {
    timing: ActorTiming,
    decl: Declaration,
    presence: Presence,
    /// Pending events of this actor, in scheduling order.
    pending: Vec<EventId>,
    /// Landed (or turn began) and the follow-up is not yet declared.
    awaiting: bool,
    /// Actions landed in the current chain (round, or the battle in
    /// Continuous); the next is `nth + 1`.
    nth: u32,
    /// Actions allowed this round (Simple/Graduated/Blocks).
    allowed: u32,
    /// The round the current action chain belongs to (Graduated "spill").
    chain_round: u32,
    /// Rounds of use of the current declaration (fractional RoF).
    rounds_of_use: u32,
    /// This round's initiative (score, total or action count).
    initiative: i64,
    /// Initiative entered for the next roll.
    entry: Option<InitiativeEntry>,
    /// Tick System: prepared (+4 defense, first defense free).
    prepared: bool,
    /// Tick System: the free first defense while prepared was used.
    free_defense_used: bool,
    /// Tick System: the action in progress (its completion event).
    in_progress: Option<EventId>,
    /// Tick System: kind of the action in progress.
    in_progress_kind: Option<ActionKind>,
}

impl ActorState {
    /// This actor's state with `pending` for its pending events. The
    /// fields are named one by one: a new field is a compile error here
    /// until it is copied.
    fn with_pending(&self, pending: Vec<EventId>) -> Self {
        let ActorState {
            timing,
            decl,
            presence,
            pending: _,
            awaiting,
            nth,
            allowed,
            chain_round,
            rounds_of_use,
            initiative,
            entry,
            prepared,
            free_defense_used,
            in_progress,
            in_progress_kind,
        } = self;
        ActorState {
            timing: *timing,
            decl: *decl,
            presence: *presence,
            pending,
            awaiting: *awaiting,
            nth: *nth,
            allowed: *allowed,
            chain_round: *chain_round,
            rounds_of_use: *rounds_of_use,
            initiative: *initiative,
            entry: *entry,
            prepared: *prepared,
            free_defense_used: *free_defense_used,
            in_progress: *in_progress,
            in_progress_kind: *in_progress_kind,
        }
    }
}

impl Clone for ActorState {
    fn clone(&self) -> Self {
        self.with_pending(self.pending.clone())
    }

    /// The same copy, in this actor's memory: its list of pending events
    /// is reused (odds from here restore a scheduler for every battle).
    fn clone_from(&mut self, source: &Self) {
        let mut pending = std::mem::take(&mut self.pending);
        pending.clone_from(&source.pending);
        *self = source.with_pending(pending);
    }
}

/// The timing rules of one battle: actors, the event queue, the round.
///
/// See the [module docs](super) for how to drive it. Every method that
/// rolls takes its dice from the caller's [`RollSource`]; on an error the
/// scheduler is unchanged (the roll source may have been consulted).
///
/// # Bounds
///
/// Every input is checked at the call, and nothing panics or wraps
/// whatever the input:
///
/// | what | accepted |
/// | --- | --- |
/// | any tick the scheduler schedules on | `1..=`[`MAX_TICK`] (`u32::MAX`) |
/// | Time Taken, extra preparation, Interval, action ticks, GM Ready Time, free-action ticks, delays | `0..=`[`MAX_DURATION`] (1,000,000; some at least 1) |
/// | speed bonus, Tick System initiative bonus | within ±[`MAX_BONUS`] (1,000,000) |
/// | REF | within ±[`MAX_REFLEXES`] (1,000) |
/// | Combat Sense (a level of skill) | `0..=`[`MAX_REFLEXES`] |
/// | Rate of Fire shots and rounds, extra attacks, actions a round | `..=`[`MAX_ACTIONS`] (1,000) |
/// | entered initiative | Relativity `1..=MAX_DURATION`; Tick System `-MAX_BONUS..=2 * MAX_BONUS`; Action Blocks `1..=MAX_ACTIONS`; rolls within their dice |
/// | timers | `1..=MAX_TICK - now` ticks |
/// | actors | at most [`MAX_ACTORS`] |
///
/// A refusal names the field ([`Error::OutOfRange`], [`Error::Invalid`]);
/// a round or follow-up that would land after [`MAX_TICK`] is an
/// [`Error::Overflow`] or out of range. [`new`](Self::new) does not check
/// the system's options, but nothing is added or set under bad ones.
///
/// # Copies and snapshots
///
/// A clone is cheap: the event queue is copied packed (see
/// [`EventQueue`]), a few hundred bytes plus the actors.
/// [`snapshot`](Self::snapshot) gives the documented, versioned form
/// ([`SchedulerSnapshot`]); the serde impls of `Scheduler` itself write its
/// private layout and are kept for the tracker's existing files.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
pub struct Scheduler {
    system: TimingSystem,
    queue: EventQueue<Ev>,
    actors: Vec<ActorState>,
    /// Current round (phase, exchange); 0 before the first.
    round: u32,
    /// Absolute tick before the round's first tick.
    round_base: u64,
    /// Simple Rounds: ticks per pass (the round's highest initiative).
    /// Graduated "end of round": ticks per end pass. Tick System: the
    /// round's length. Action Blocks: the number of blocks.
    span: u64,
    /// Pending actor events (not timers).
    actor_events: usize,
    /// Moments handed out in the current round.
    moments_in_round: u32,
    /// The last moment handed out.
    last: Option<Moment>,
    /// Actors waiting for a follow-up declaration, in landing order.
    awaiting: Vec<u32>,
    /// Continuous: actors added during the battle, to roll initiative for.
    joining: Vec<u32>,
    #[serde(skip)]
    popped: Vec<(EventId, Ev)>,
    #[serde(skip)]
    plans: Vec<(u32, Declaration, Plan, i64)>,
}

impl Clone for Scheduler {
    fn clone(&self) -> Self {
        let Scheduler {
            system,
            queue,
            actors,
            round,
            round_base,
            span,
            actor_events,
            moments_in_round,
            last,
            awaiting,
            joining,
            popped,
            plans,
        } = self;
        Scheduler {
            system: system.clone(),
            queue: queue.clone(),
            actors: actors.clone(),
            round: *round,
            round_base: *round_base,
            span: *span,
            actor_events: *actor_events,
            moments_in_round: *moments_in_round,
            last: *last,
            awaiting: awaiting.clone(),
            joining: joining.clone(),
            popped: popped.clone(),
            plans: plans.clone(),
        }
    }

    /// The same copy in this scheduler's memory: the queue's rings and
    /// every vector are reused (see [`EventQueue`]'s `clone_from`), so a
    /// scheduler restored from the same one again and again (odds from
    /// here: every battle from the encounter's) allocates nothing once
    /// warm. The fields are named one by one: a new field is a compile
    /// error here until it is copied.
    fn clone_from(&mut self, source: &Self) {
        let Scheduler {
            system,
            queue,
            actors,
            round,
            round_base,
            span,
            actor_events,
            moments_in_round,
            last,
            awaiting,
            joining,
            popped,
            plans,
        } = self;
        system.clone_from(&source.system);
        queue.clone_from(&source.queue);
        actors.clone_from(&source.actors);
        *round = source.round;
        *round_base = source.round_base;
        *span = source.span;
        *actor_events = source.actor_events;
        *moments_in_round = source.moments_in_round;
        *last = source.last;
        awaiting.clone_from(&source.awaiting);
        joining.clone_from(&source.joining);
        popped.clone_from(&source.popped);
        plans.clone_from(&source.plans);
    }
}

impl Scheduler {
    /// A scheduler for `system` with no actors. The options are not checked
    /// here; [`try_new`](Self::try_new) checks them.
    pub fn new(system: TimingSystem) -> Scheduler {
        Scheduler {
            system,
            queue: EventQueue::new(),
            actors: Vec::new(),
            round: 0,
            round_base: 0,
            span: 0,
            actor_events: 0,
            moments_in_round: 0,
            last: None,
            awaiting: Vec::new(),
            joining: Vec::new(),
            popped: Vec::new(),
            plans: Vec::new(),
        }
    }

    /// A scheduler for `system`, after checking its options.
    pub fn try_new(system: TimingSystem) -> Result<Scheduler> {
        system.validate()?;
        Ok(Scheduler::new(system))
    }

    /// The timing system.
    pub fn system(&self) -> &TimingSystem {
        &self.system
    }

    /// The current round (phase, exchange); 0 before the first.
    pub fn round(&self) -> u32 {
        self.round
    }

    /// The last moment handed out by [`next`](Self::next).
    pub fn last_moment(&self) -> Option<Moment> {
        self.last
    }

    /// The absolute tick of the last moment (0 before the first).
    pub fn now(&self) -> u64 {
        self.queue.now()
    }

    /// The tick declarations count from: the last moment, or the start of
    /// the round if a new round has begun since.
    fn current_tick(&self) -> u64 {
        self.queue.now().max(self.round_base)
    }

    /// Number of actors ever added.
    pub fn len(&self) -> usize {
        self.actors.len()
    }

    /// Whether no actor was ever added.
    pub fn is_empty(&self) -> bool {
        self.actors.is_empty()
    }

    // -----------------------------------------------------------------
    // Queue bookkeeping

    fn push(&mut self, tick: u64, kind: EvKind) -> Result<EventId> {
        let id = self.queue.schedule(tick, Ev { kind })?;
        match kind {
            EvKind::Action { who, .. } | EvKind::Turn { who, .. } => {
                self.actors[who as usize].pending.push(id);
                self.actor_events += 1;
            }
            EvKind::Timer { .. } => {}
        }
        Ok(id)
    }

    fn drop_event(&mut self, id: EventId) -> Option<(u64, Ev)> {
        let (tick, ev) = self.queue.cancel(id)?;
        if let EvKind::Action { who, .. } | EvKind::Turn { who, .. } = ev.kind {
            let a = &mut self.actors[who as usize];
            a.pending.retain(|p| *p != id);
            if a.in_progress == Some(id) {
                a.in_progress = None;
                a.in_progress_kind = None;
            }
            self.actor_events -= 1;
        }
        Some((tick, ev))
    }

    /// The actor's earliest pending event of the kind `pick` accepts (the
    /// first scheduled among equal ticks).
    fn next_event(&self, who: u32, pick: impl Fn(&EvKind) -> bool) -> Option<(u64, EventId)> {
        self.actors[who as usize]
            .pending
            .iter()
            .filter_map(|&id| {
                let ev = self.queue.get(id)?;
                pick(&ev.kind).then(|| (self.queue.tick_of(id).unwrap_or(u64::MAX), id))
            })
            .min_by_key(|&(t, _)| t)
    }

    /// The actor's next pending action event (not a turn), if any.
    fn next_action_event(&self, who: u32) -> Option<(u64, EventId)> {
        self.next_event(who, |k| matches!(k, EvKind::Action { .. }))
    }

    /// The actor's next Tick System turn, if any.
    fn next_turn_event(&self, who: u32) -> Option<(u64, EventId)> {
        self.next_event(who, |k| matches!(k, EvKind::Turn { .. }))
    }

    // -----------------------------------------------------------------
    // Timers

    /// Sets timer `id` to run out `ticks` ticks after now; it comes out of
    /// [`next`](Self::next) as [`Act::Timer`].
    ///
    /// # Errors
    /// `ticks` must be at least 1 and land at most on [`MAX_TICK`]
    /// (`1..=MAX_TICK - now`).
    pub fn set_timer(&mut self, id: u32, ticks: u64) -> Result<EventId> {
        self.system.validate()?;
        let now = self.queue.now();
        if ticks == 0 || now.checked_add(ticks).is_none_or(|t| t > MAX_TICK) {
            return Err(Error::out_of_range(
                "timer.ticks",
                ticks,
                1,
                MAX_TICK.saturating_sub(now),
            ));
        }
        self.push(now + ticks, EvKind::Timer { id })
    }

    /// Cancels a timer; returns whether it was pending.
    pub fn cancel_timer(&mut self, timer: EventId) -> bool {
        matches!(
            self.queue.get(timer),
            Some(Ev {
                kind: EvKind::Timer { .. }
            })
        ) && self.drop_event(timer).is_some()
    }

    // -----------------------------------------------------------------
    // Views

    /// How the system labels absolute tick `tick` (see [`Moment`]).
    ///
    /// Ticks are at most [`MAX_TICK`], so the labels fit; they saturate
    /// rather than wrap all the same.
    fn moment_at(&self, tick: u64, ev: Option<EvKind>) -> Moment {
        let rel = tick.saturating_sub(self.round_base);
        let small = |x: u64| u32::try_from(x).unwrap_or(u32::MAX);
        let signed = |x: u64| i64::try_from(x).unwrap_or(i64::MAX);
        let (round, display, pass) = match (&self.system, ev) {
            (TimingSystem::Simultaneous, _) => (self.round, i64::from(self.round), 0),
            (TimingSystem::SimpleRounds, _) => {
                let span = self.span.max(1);
                let r = rel.saturating_sub(1);
                (self.round, signed(r % span + 1), small(r / span + 1))
            }
            (TimingSystem::GraduatedRounds(c), ev) => {
                let tpr = u64::from(c.ticks_per_round.max(1));
                if let Some(EvKind::Action { end_pass: p @ 1.., .. }) = ev {
                    let span = self.span.max(1);
                    let r = rel.saturating_sub(tpr + 1);
                    (self.round, signed(r % span + 1), p)
                } else if c.past_end == PastEnd::Spill && rel > tpr {
                    let k = (rel - 1) / tpr;
                    (self.round.saturating_add(small(k)), signed(rel - k * tpr), 0)
                } else {
                    (self.round, signed(rel), 0)
                }
            }
            (TimingSystem::Continuous(c), _) => (small(c.stopwatch(tick).0 + 1), signed(tick), 0),
            (TimingSystem::TickSystem(_), _) => (self.round, self.countdown(tick), 0),
            (TimingSystem::ActionBlocks(_), _) => {
                let block = signed(self.span).saturating_sub(signed(rel)).saturating_add(1);
                (self.round, block, small(block.max(0).unsigned_abs()))
            }
        };
        Moment {
            tick,
            round,
            display,
            pass,
        }
    }

    /// The tick sheet: every pending act in the order it will happen, with
    /// the system's labels. Actors awaiting a declaration are not on it.
    pub fn pending(&self) -> Vec<PendingAct> {
        self.queue
            .pending()
            .into_iter()
            .map(|(tick, _, ev)| {
                let act = match ev.kind {
                    EvKind::Action { who, nth, .. } => Act::Action {
                        actor: ActorId(who),
                        nth,
                    },
                    EvKind::Turn { who, .. } => Act::Turn { actor: ActorId(who) },
                    EvKind::Timer { id } => Act::Timer { id },
                };
                PendingAct {
                    at: self.moment_at(tick, Some(ev.kind)),
                    act,
                }
            })
            .collect()
    }

    /// Actors awaiting a declaration, in the order they landed.
    pub fn awaiting(&self) -> Vec<ActorId> {
        self.awaiting.iter().map(|&w| ActorId(w)).collect()
    }

    /// Bytes of heap memory the scheduler holds (actors, their pending
    /// lists, the event queue and scratch buffers, by capacity). A copy
    /// (an undo step) costs its clone's `heap_size`, usually far less: the
    /// clone's queue is packed.
    pub fn heap_size(&self) -> usize {
        use std::mem::size_of;
        self.queue.heap_size()
            + self.actors.capacity() * size_of::<ActorState>()
            + self
                .actors
                .iter()
                .map(|a| a.pending.capacity() * size_of::<EventId>())
                .sum::<usize>()
            + (self.awaiting.capacity() + self.joining.capacity()) * size_of::<u32>()
            + self.popped.capacity() * size_of::<(EventId, Ev)>()
            + self.plans.capacity() * size_of::<(u32, Declaration, Plan, i64)>()
    }

    /// Number of pending actor events (not timers).
    pub fn pending_actions(&self) -> usize {
        self.actor_events
    }
}
