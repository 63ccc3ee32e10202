//! The hold model: the classic priority-queue benchmark, with the rules'
//! delays.
//!
//! Every actor has one pending action. [`Hold::run`] takes the landings of
//! the next tick (one [`HoldQueue::pop_tick`]) and handles them one at a
//! time; for landing number `k` it reads [`EventStream::step`]`(k)`:
//!
//! 1. the actor declares its next action, scheduled at `now + Ready Time`;
//! 2. if the step names a victim, the victim's pending action is cancelled
//!    and, if it was still pending, the victim declares a new one from now.
//!
//! The number of pending events stays at the number of actors, so the
//! queue's size is what the stream says it is for the whole run.

use skirmish_core::timing::queue::{EventId, EventQueue};
use skirmish_core::{Error, Result};

use crate::reference::{HeapHandle, HeapQueue};
use crate::stream::{EventStream, NO_VICTIM};

/// Fewest landings a bench times at once.
pub const MIN_BATCH: usize = 10_000;

/// Landings a bench times at once on `stream`: at least [`MIN_BATCH`] and
/// at least one per actor. With 100,000 actors about 30,000 land on each
/// tick and one [`HoldQueue::pop_tick`] hands them all out; a batch of a
/// few ticks keeps that pop's cost in every batch instead of in one batch
/// of three.
pub fn batch(stream: &EventStream) -> usize {
    MIN_BATCH.max(stream.actors() as usize)
}

/// A hold run on `queue` past its start-up (every actor has landed eight
/// times, and at least [`MIN_BATCH`] times four landings were handled), so
/// ticks are spread as in a long fight and buffers have grown.
///
/// # Errors
/// As [`Hold::new`] and [`Hold::run`].
pub fn warmed<Q: HoldQueue>(stream: &EventStream, queue: Q) -> Result<Hold<Q>> {
    let mut hold = Hold::new(stream, queue)?;
    hold.run(stream, (8 * stream.actors() as usize).max(4 * MIN_BATCH), |_, _| {})?;
    Ok(hold)
}

/// What the hold model needs from a queue of actors keyed by tick.
pub trait HoldQueue {
    /// What [`schedule`](Self::schedule) returns, for cancelling.
    type Handle: Copy + std::fmt::Debug;
    /// Schedules `actor` at `tick`.
    ///
    /// # Errors
    /// The tick is not after the last tick popped.
    fn schedule(&mut self, tick: u64, actor: u32) -> Result<Self::Handle>;
    /// Cancels a pending event; `false` if it already fired or was cancelled.
    fn cancel(&mut self, handle: Self::Handle) -> bool;
    /// Pops every event of the next tick into `out` (cleared first), in
    /// scheduling order, and returns the tick; `None` when empty.
    fn pop_tick(&mut self, out: &mut Vec<(Self::Handle, u32)>) -> Option<u64>;
}

impl HoldQueue for EventQueue<u32> {
    type Handle = EventId;

    #[inline]
    fn schedule(&mut self, tick: u64, actor: u32) -> Result<EventId> {
        EventQueue::schedule(self, tick, actor)
    }

    #[inline]
    fn cancel(&mut self, handle: EventId) -> bool {
        EventQueue::cancel(self, handle).is_some()
    }

    #[inline]
    fn pop_tick(&mut self, out: &mut Vec<(EventId, u32)>) -> Option<u64> {
        EventQueue::pop_tick(self, out)
    }
}

impl HoldQueue for HeapQueue {
    type Handle = HeapHandle;

    #[inline]
    fn schedule(&mut self, tick: u64, actor: u32) -> Result<HeapHandle> {
        HeapQueue::schedule(self, tick, actor)
    }

    #[inline]
    fn cancel(&mut self, handle: HeapHandle) -> bool {
        HeapQueue::cancel(self, handle)
    }

    #[inline]
    fn pop_tick(&mut self, out: &mut Vec<(HeapHandle, u32)>) -> Option<u64> {
        HeapQueue::pop_tick(self, out)
    }
}

/// A hold-model run in progress: a queue, each actor's pending handle, and
/// the tick group being handled. Runs can be resumed: [`run`](Self::run)
/// continues where the last call stopped, inside a tick group if need be.
#[derive(Debug, Clone)]
pub struct Hold<Q: HoldQueue> {
    queue: Q,
    handles: Vec<Q::Handle>,
    group: Vec<(Q::Handle, u32)>,
    /// Index in `group` of the next landing to handle.
    next: usize,
    now: u64,
    /// Landings handled so far (the index of the next step).
    landed: usize,
    cancelled: u64,
}

impl<Q: HoldQueue> Hold<Q> {
    /// Schedules every actor of `stream` at its first tick on `queue`
    /// (which should be empty and at tick 0).
    ///
    /// # Errors
    /// The queue refuses a first tick.
    pub fn new(stream: &EventStream, mut queue: Q) -> Result<Hold<Q>> {
        let handles = stream
            .first_ticks()
            .iter()
            .zip(0u32..)
            .map(|(&tick, actor)| queue.schedule(tick, actor))
            .collect::<Result<Vec<_>>>()?;
        Ok(Hold {
            queue,
            handles,
            group: Vec::new(),
            next: 0,
            now: 0,
            landed: 0,
            cancelled: 0,
        })
    }

    /// Handles the next `landings` landings of `stream` (the one given to
    /// [`new`](Self::new)), calling `observe(tick, actor)` for each.
    ///
    /// # Errors
    /// The queue ran dry (a stream without actors) or refused a tick.
    #[inline]
    pub fn run(&mut self, stream: &EventStream, landings: usize, mut observe: impl FnMut(u64, u32)) -> Result<()> {
        for _ in 0..landings {
            if self.next == self.group.len() {
                self.now = self
                    .queue
                    .pop_tick(&mut self.group)
                    .ok_or_else(|| Error::invalid("stream", "no actor has a pending action"))?;
                self.next = 0;
            }
            let (_, actor) = self.group[self.next];
            self.next += 1;
            observe(self.now, actor);
            let step = stream.step(self.landed);
            self.landed += 1;
            self.handles[actor as usize] = self.queue.schedule(self.now + stream.delay(actor, step.roll), actor)?;
            if step.victim != NO_VICTIM && self.queue.cancel(self.handles[step.victim as usize]) {
                self.cancelled += 1;
                let tick = self.now + stream.delay(step.victim, step.victim_roll);
                self.handles[step.victim as usize] = self.queue.schedule(tick, step.victim)?;
            }
        }
        Ok(())
    }

    /// The tick of the last landing handled (0 before the first).
    pub fn now(&self) -> u64 {
        self.now
    }

    /// Landings handled so far.
    pub fn landed(&self) -> usize {
        self.landed
    }

    /// Pending actions cancelled so far (a victim whose action had already
    /// been popped is not counted: it redeclares when handled).
    pub fn cancelled(&self) -> u64 {
        self.cancelled
    }

    /// The queue.
    pub fn queue(&self) -> &Q {
        &self.queue
    }
}
