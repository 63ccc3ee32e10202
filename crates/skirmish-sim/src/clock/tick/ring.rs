//! The Tick System clock's event queue: a ring of tick buckets.
//!
//! The core [`EventQueue`] is general: any number of events per owner,
//! handles that stay unique for its life, far-future events in three
//! levels, a slab slot of 32 bytes per event plus its bucket entry and its
//! free-list entry. Profiled under the Tick System clock it was a large
//! part of an action's cost (two schedules and a pop, each through the
//! slab). A battle's Tick System needs much less: every fighter has at most
//! two pending events (its action and its turn), and nearly every event is
//! a few ticks away (an action's ticks, an Interval, a round of a d20).
//!
//! So here:
//!
//! - a **ring** of [`RING`] buckets, one per tick, holds every event due
//!   within `RING` ticks of [`now`](TickRing::now) (tick `t` in bucket
//!   `t % RING`); a bitmap finds the next non-empty bucket;
//! - a bucket is a **list of 64-byte chunks** of [`SLOTS`] events each
//!   (the chunk's last word links the next), filled in order, so it keeps
//!   scheduling order; a popped bucket's chunks go back to the free list
//!   in one splice. The chunks of all buckets share one array, sized by
//!   the pending events, not by the busiest tick times the ring. A first
//!   version linked one 8-byte node per event: after a few rounds its free
//!   list and every bucket's list jumped about the array, and at 2x100,000
//!   each schedule and each pop waited on a cache miss that depended on the
//!   last, and 2x100,000 cost far more per action than 2x10. A chunk is one
//!   cache line read in order: one dependent miss per [`SLOTS`] events;
//! - an event's slot (chunk and place in it) is its handle: the fighter
//!   keeps it (4 bytes) and **cancelling** marks the slot dead, O(1); a
//!   dead slot is skipped when its bucket is popped. A chunk is freed only
//!   when its bucket is popped, after every owner let go of its events (a
//!   popped event's owner is told; a cancelled one's owner has forgotten
//!   it), so a handle a fighter holds always names its own pending event;
//! - events further out wait in a core [`EventQueue`] (the **far** queue)
//!   with a far slot of their own (handle [`FAR`] and its index), and move
//!   into the ring, in (tick, scheduling) order, as soon as `now` brings
//!   them within `RING` ticks, before anything is scheduled at that `now`.
//!   Moving gives an event a new handle: the ring lists the moves
//!   ([`drain_moved`](TickRing::drain_moved)) and the owner takes the new
//!   handle before it cancels anything.
//!
//! **The same order as the core queue.** The core queue pops every event
//! of a tick together, in the order they were scheduled. A bucket holds one
//! tick's events in the order they were put in it. An event reaches its
//! bucket either when scheduled (within `RING` ticks of `now`) or when `now`
//! brings it within `RING` ticks (from the far queue, in scheduling order).
//! Every far event of tick `t` was scheduled while `t` was more than `RING`
//! ticks from `now`, so before every near event of `t` (`now` only grows),
//! and it moves into the bucket as soon as `t` is within `RING` ticks, so
//! before any near event of `t` is scheduled: the bucket's order is the
//! scheduling order. Tested against the core queue with random schedules
//! and cancels (below), and against the Scheduler step for step in
//! `tick.rs`, with every kind of declaration, disruptions and falls, and
//! delays past the ring.

use skirmish_core::timing::queue::{EventId, EventQueue};

use crate::error::SimError;

/// Ticks the ring covers (a power of two): delays up to this go straight
/// into their bucket; longer ones wait in the far queue first. A Tick
/// System round is as long as its highest initiative (about 20 ticks with
/// the default d20), actions take a few ticks and Intervals are a few more.
pub(super) const RING: u64 = 1024;
const MASK: u64 = RING - 1;
const WORDS: usize = (RING / 64) as usize;

/// Events in a chunk; its last word links the next chunk of its list.
const SLOTS: usize = 15;
/// A handle's bits for its place in the chunk.
const SLOT_BITS: u32 = 4;
/// Chunks the ring may hold: their handles stay below [`FAR`].
const MAX_CHUNKS: usize = 1 << (31 - SLOT_BITS);

/// No chunk, no handle: an empty bucket's head, the end of a list, no
/// pending event.
pub(super) const NONE: u32 = u32::MAX;
/// A cancelled event's slot.
const DEAD: u32 = u32::MAX;
/// A far event's handle: this bit and its far slot's index (below
/// `FAR - 1`, so never [`NONE`]).
const FAR: u32 = 1 << 31;

/// [`SLOTS`] events (or [`DEAD`]) and the next chunk: one cache line.
#[derive(Debug, Clone, Copy)]
#[repr(align(64))]
struct Chunk([u32; SLOTS + 1]);

/// One tick's events: the first and last chunk of its list, and the
/// events in the last.
#[derive(Debug, Clone, Copy)]
struct Bucket {
    head: u32,
    tail: u32,
    len: u32,
}

const EMPTY: Bucket = Bucket {
    head: NONE,
    tail: NONE,
    len: 0,
};

/// A queue of `u32` events below `2^31` by tick (see the module docs).
#[derive(Debug)]
pub(super) struct TickRing {
    /// The last tick popped (0 before the first pop).
    now: u64,
    /// Events scheduled and neither popped nor cancelled.
    live: usize,
    chunks: Vec<Chunk>,
    /// The first free chunk ([`NONE`]: none; grow `chunks`).
    free: u32,
    /// Tick `t`'s bucket at `t % RING`, for the ticks `now + 1..=now + RING`.
    buckets: Box<[Bucket; RING as usize]>,
    /// A bit per non-empty bucket.
    bits: [u64; WORDS],
    /// Events more than `RING` ticks after `now`: their far slots.
    far: EventQueue<u32>,
    /// A far event (or [`DEAD`]); a free slot holds the next free one.
    far_slots: Vec<u32>,
    /// The first free far slot ([`NONE`]: none; grow `far_slots`).
    far_free: u32,
    /// No far event is before this tick (`u64::MAX`: none is pending).
    far_min: u64,
    /// The far queue was used since the last reset.
    far_used: bool,
    /// A far tick's slots as they come out of the far queue.
    out: Vec<(EventId, u32)>,
    /// Far events moved into the ring since the last
    /// [`drain_moved`](Self::drain_moved): event, old handle, new handle.
    moved: Vec<(u32, u32, u32)>,
}

impl Default for TickRing {
    fn default() -> Self {
        TickRing {
            now: 0,
            live: 0,
            chunks: Vec::new(),
            free: NONE,
            buckets: Box::new([EMPTY; RING as usize]),
            bits: [0; WORDS],
            far: EventQueue::new(),
            far_slots: Vec::new(),
            far_free: NONE,
            far_min: u64::MAX,
            far_used: false,
            out: Vec::new(),
            moved: Vec::new(),
        }
    }
}

impl TickRing {
    /// Empties the ring and sets it back to tick 0, keeping its memory;
    /// room for `events` pending events is reserved (fallibly).
    pub(super) fn reset(&mut self, events: usize) -> Result<(), SimError> {
        for (w, bits) in self.bits.iter_mut().enumerate() {
            let mut b = std::mem::take(bits);
            while b != 0 {
                self.buckets[(w * 64 + b.trailing_zeros() as usize) & MASK as usize] = EMPTY;
                b &= b - 1;
            }
        }
        if self.far_used {
            // Also back to tick 0.
            self.far.reset();
            self.far_slots.clear();
            self.far_free = NONE;
            self.far_used = false;
        }
        self.far_min = u64::MAX;
        self.out.clear();
        self.moved.clear();
        // Every chunk free, in order: the last battle's chunks are reused
        // without growing the array again.
        let mut next = 0;
        for c in &mut self.chunks {
            next += 1;
            c.0[SLOTS] = next;
        }
        if let Some(last) = self.chunks.last_mut() {
            last.0[SLOTS] = NONE;
        }
        self.free = if self.chunks.is_empty() { NONE } else { 0 };
        self.now = 0;
        self.live = 0;
        // Full chunks, and a part-filled one in a few buckets.
        crate::roster::reserve_fighters(&mut self.chunks, (events / SLOTS).saturating_add(16)).map_err(|_| {
            SimError::OutOfMemory {
                fighters: events as u64 / 2,
            }
        })
    }

    /// The last tick popped (0 before the first pop).
    #[inline]
    pub(super) fn now(&self) -> u64 {
        self.now
    }

    /// Whether no event is pending.
    #[inline]
    pub(super) fn is_empty(&self) -> bool {
        self.live == 0
    }

    /// Schedules `event` (below `2^31`) at `tick` (after
    /// [`now`](Self::now)), after every event already scheduled for that
    /// tick; returns its handle.
    #[inline(always)]
    pub(super) fn schedule(&mut self, tick: u64, event: u32) -> Result<u32, Refused> {
        if tick <= self.now {
            return Err(Refused::Past);
        }
        let handle = if tick - self.now <= RING {
            self.put(tick, event)?
        } else {
            self.far_event(tick, event)?
        };
        self.live += 1;
        Ok(handle)
    }

    /// Appends `event` to tick `tick`'s bucket (within `RING` ticks of
    /// now); its handle.
    #[inline(always)]
    fn put(&mut self, tick: u64, event: u32) -> Result<u32, Refused> {
        let i = (tick & MASK) as usize;
        let b = self.buckets[i];
        if (b.len as usize) < SLOTS
            && let Some(c) = self.chunks.get_mut(b.tail as usize)
        {
            // Room in the bucket's last chunk (an empty bucket has none).
            c.0[b.len as usize] = event;
            self.buckets[i].len = b.len + 1;
            return Ok(b.tail << SLOT_BITS | b.len);
        }
        let c = self.new_chunk()?;
        if let Some(chunk) = self.chunks.get_mut(c as usize) {
            chunk.0[0] = event;
            chunk.0[SLOTS] = NONE;
        }
        let b = &mut self.buckets[i];
        if b.head == NONE {
            // A bucket's bit is set exactly while it has a chunk.
            b.head = c;
            self.bits[i / 64] |= 1 << (i % 64);
        } else if let Some(t) = self.chunks.get_mut(b.tail as usize) {
            t.0[SLOTS] = c;
        }
        b.tail = c;
        b.len = 1;
        Ok(c << SLOT_BITS)
    }

    /// A chunk off the free list, or a new one.
    #[inline]
    fn new_chunk(&mut self) -> Result<u32, Refused> {
        if let Some(c) = self.chunks.get(self.free as usize) {
            let chunk = self.free;
            self.free = c.0[SLOTS];
            return Ok(chunk);
        }
        self.grow()
    }

    /// A new chunk at the end of the array.
    #[cold]
    #[inline(never)]
    fn grow(&mut self) -> Result<u32, Refused> {
        let chunk = self.chunks.len();
        if chunk >= MAX_CHUNKS {
            return Err(Refused::Overflow);
        }
        if chunk == self.chunks.capacity() {
            self.chunks
                .try_reserve(chunk.max(16))
                .map_err(|_| Refused::OutOfMemory)?;
        }
        self.chunks.push(Chunk([NONE; SLOTS + 1]));
        // Below `MAX_CHUNKS`: it fits.
        Ok(chunk as u32)
    }

    /// Puts a far event in the far queue; its handle.
    #[cold]
    #[inline(never)]
    fn far_event(&mut self, tick: u64, event: u32) -> Result<u32, Refused> {
        let slot = match self.far_slots.get_mut(self.far_free as usize) {
            Some(s) => {
                let slot = self.far_free;
                self.far_free = *s;
                *s = event;
                slot
            }
            None => {
                let slot = u32::try_from(self.far_slots.len())
                    .ok()
                    .filter(|&s| s < FAR - 1)
                    .ok_or(Refused::Overflow)?;
                self.far_slots.try_reserve(1).map_err(|_| Refused::OutOfMemory)?;
                self.far_slots.push(event);
                slot
            }
        };
        self.far_used = true;
        // Only the order's exhaustion can fail: the tick is after now.
        if self.far.schedule(tick, slot).is_err() {
            self.free_far(slot);
            return Err(Refused::Overflow);
        }
        self.far_min = self.far_min.min(tick);
        Ok(FAR | slot)
    }

    /// Far slot `slot` is free again.
    #[inline]
    fn free_far(&mut self, slot: u32) {
        if let Some(s) = self.far_slots.get_mut(slot as usize) {
            *s = self.far_free;
            self.far_free = slot;
        }
    }

    /// Cancels the pending event of `handle` (a handle
    /// [`schedule`](Self::schedule) returned, or the new one
    /// [`drain_moved`](Self::drain_moved) gave, whose event has been
    /// neither popped nor cancelled).
    #[inline]
    pub(super) fn cancel(&mut self, handle: u32) {
        let slot = if handle & FAR != 0 {
            self.far_slots.get_mut((handle & !FAR) as usize)
        } else {
            self.chunks
                .get_mut((handle >> SLOT_BITS) as usize)
                .and_then(|c| c.0[..SLOTS].get_mut((handle & ((1 << SLOT_BITS) - 1)) as usize))
        };
        if let Some(ev) = slot
            && *ev != DEAD
        {
            *ev = DEAD;
            self.live -= 1;
        }
    }

    /// Hands every far event moved into the ring since the last call to
    /// `each` (the event, its old handle and its new one), and forgets
    /// them.
    #[inline]
    pub(super) fn drain_moved(&mut self, mut each: impl FnMut(u32, u32, u32)) {
        if self.moved.is_empty() {
            return;
        }
        for &(event, old, new) in &self.moved {
            each(event, old, new);
        }
        self.moved.clear();
    }

    /// Pops every event of the next tick that has one, handing each to
    /// `each` in scheduling order, and returns that tick; `None` when
    /// nothing is pending. Cancelled events never appear. Far events that
    /// come within the ring move in (see [`drain_moved`](Self::drain_moved)).
    #[inline]
    pub(super) fn pop_tick(&mut self, mut each: impl FnMut(u32)) -> Result<Option<u64>, Refused> {
        while self.live > 0 {
            let Some(tick) = self.next_bucket() else {
                // Nothing within the ring: the next events are far.
                let Some(tick) = self.far.pop_tick(&mut self.out) else {
                    // Unreachable while `live > 0`; stop rather than spin.
                    self.live = 0;
                    return Ok(None);
                };
                let mut popped = 0;
                for k in 0..self.out.len() {
                    let slot = self.out[k].1;
                    if let Some(&ev) = self.far_slots.get(slot as usize)
                        && ev != DEAD
                    {
                        each(ev);
                        popped += 1;
                    }
                    self.free_far(slot);
                }
                self.out.clear();
                self.far_min = tick;
                if let Some(t) = self.arrive(tick, popped)? {
                    return Ok(Some(t));
                }
                continue;
            };
            let i = (tick & MASK) as usize;
            self.bits[i / 64] &= !(1 << (i % 64));
            let Bucket { head, tail, len } = std::mem::replace(&mut self.buckets[i], EMPTY);
            let mut popped = 0;
            let mut at = head;
            while let Some(c) = self.chunks.get(at as usize) {
                let last = at == tail;
                let n = if last { (len as usize).min(SLOTS) } else { SLOTS };
                for &ev in &c.0[..n] {
                    if ev != DEAD {
                        each(ev);
                        popped += 1;
                    }
                }
                if last {
                    break;
                }
                at = c.0[SLOTS];
            }
            // The whole list onto the free list at once.
            if let Some(t) = self.chunks.get_mut(tail as usize) {
                t.0[SLOTS] = self.free;
                self.free = head;
            }
            if let Some(t) = self.arrive(tick, popped)? {
                return Ok(Some(t));
            }
        }
        Ok(None)
    }

    /// `now` is `tick`, whose `popped` events were handed out: far events
    /// now within the ring move in; the tick if it had any.
    #[inline]
    fn arrive(&mut self, tick: u64, popped: usize) -> Result<Option<u64>, Refused> {
        self.now = tick;
        self.live -= popped;
        if self.far_min <= tick + RING {
            self.pull_far()?;
        }
        Ok((popped > 0).then_some(tick))
    }

    /// The tick of the next non-empty bucket, if any.
    #[inline]
    fn next_bucket(&self) -> Option<u64> {
        let mut d = 1;
        while d <= RING {
            let i = (self.now.wrapping_add(d) & MASK) as usize;
            let word = self.bits[i / 64] >> (i % 64);
            if word != 0 {
                let hit = d + u64::from(word.trailing_zeros());
                return (hit <= RING).then_some(self.now + hit);
            }
            d += 64 - (i % 64) as u64;
        }
        None
    }

    /// Moves every far event within `RING` ticks of `now` into its bucket,
    /// in (tick, scheduling) order; dead ones are dropped.
    #[cold]
    #[inline(never)]
    fn pull_far(&mut self) -> Result<(), Refused> {
        let horizon = self.now + RING;
        loop {
            match self.far.peek_tick() {
                None => {
                    self.far_min = u64::MAX;
                    return Ok(());
                }
                Some(t) if t > horizon => {
                    self.far_min = t;
                    return Ok(());
                }
                Some(_) => {}
            }
            let Some(tick) = self.far.pop_tick(&mut self.out) else {
                self.far_min = u64::MAX;
                return Ok(());
            };
            for k in 0..self.out.len() {
                let slot = self.out[k].1;
                let ev = self.far_slots.get(slot as usize).copied().unwrap_or(DEAD);
                self.free_far(slot);
                if ev != DEAD {
                    let handle = self.put(tick, ev)?;
                    self.moved.try_reserve(1).map_err(|_| Refused::OutOfMemory)?;
                    self.moved.push((ev, FAR | slot, handle));
                }
            }
            self.out.clear();
        }
    }
}

/// Why the ring refused an event. Small, so the hot path returns it in a
/// register; [`error`](Self::error) makes it the battle's error.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Refused {
    /// A tick at or before now (the clock never asks for one).
    Past,
    /// No memory for another node.
    OutOfMemory,
    /// More than `u32::MAX - 1` nodes, or the far queue's scheduling order
    /// exhausted.
    Overflow,
}

impl Refused {
    /// The error of a battle of `fighters` fighters.
    #[cold]
    #[inline(never)]
    pub(super) fn error(self, fighters: usize) -> SimError {
        match self {
            Refused::Past => SimError::rules(skirmish_core::Error::invalid(
                "tick",
                "nothing can be scheduled at or before the current tick",
            )),
            Refused::OutOfMemory => SimError::OutOfMemory {
                fighters: fighters as u64,
            },
            Refused::Overflow => SimError::rules(skirmish_core::Error::overflow(
                "event_queue",
                "more than 2^31 pending events",
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use skirmish_core::dice::SeededRolls;
    use skirmish_core::timing::queue::{EventId, EventQueue};

    use super::{RING, SLOTS, TickRing};

    /// A roll of `1..=n`.
    fn roll(chaos: &mut SeededRolls, n: u32) -> u32 {
        u32::try_from(chaos.standard(1, n)).unwrap()
    }

    /// Random schedules (near, at the ring's edge and far; many on one
    /// tick, so buckets chain chunks), cancels (of near, far and moved
    /// events) and pops until nothing is left, on the ring and on the core
    /// queue: the same ticks, the same events in the same order.
    #[test]
    fn pops_as_the_core_queue_does() {
        let mut ring = TickRing::default();
        // Moved far events, and cancels of them: both happen.
        let (mut moves, mut moved_cancels) = (0, 0);
        for seed in 0..12 {
            let mut chaos = SeededRolls::for_stream(seed, 7);
            ring.reset(64).unwrap();
            let mut core: EventQueue<u32> = EventQueue::new();
            // Pending events: their ring handle, core id, and whether they
            // moved in from the far queue; and the events scheduled, in
            // order (some since popped or cancelled), to pick from.
            let mut pending: HashMap<u32, (u32, EventId, bool)> = HashMap::new();
            let mut scheduled: Vec<u32> = Vec::new();
            let mut popped = Vec::new();
            let mut out = Vec::new();
            let mut step = 0;
            // 800 random steps, then pops until nothing is left.
            while step < 800 || !pending.is_empty() {
                let op = if step < 800 { roll(&mut chaos, 10) } else { 10 };
                step += 1;
                match op {
                    1..=5 => {
                        for _ in 0..roll(&mut chaos, 2 * SLOTS as u32 + 3) {
                            let delay = match roll(&mut chaos, 4) {
                                1 => u64::from(roll(&mut chaos, 3)),
                                2 => RING - 1 + u64::from(roll(&mut chaos, 3)),
                                3 => u64::from(roll(&mut chaos, 4_000)),
                                _ => u64::from(roll(&mut chaos, 40)),
                            };
                            let tick = ring.now() + delay;
                            let event = u32::try_from(scheduled.len()).unwrap();
                            let handle = ring.schedule(tick, event).unwrap();
                            let id = core.schedule(tick, event).unwrap();
                            pending.insert(event, (handle, id, false));
                            scheduled.push(event);
                        }
                    }
                    6..=7 if !scheduled.is_empty() => {
                        let k = roll(&mut chaos, u32::try_from(scheduled.len()).unwrap()) as usize - 1;
                        if let Some((handle, id, moved)) = pending.remove(&scheduled[k]) {
                            moved_cancels += usize::from(moved);
                            ring.cancel(handle);
                            assert!(core.cancel(id).is_some());
                        }
                    }
                    _ => {
                        popped.clear();
                        let tick = ring.pop_tick(|ev| popped.push(ev)).unwrap();
                        ring.drain_moved(|ev, old, new| {
                            let p = pending.get_mut(&ev).unwrap();
                            assert_eq!(p.0, old, "event {ev} moved from its handle");
                            *p = (new, p.1, true);
                            moves += 1;
                        });
                        let want = core.pop_tick(&mut out);
                        assert_eq!(tick, want, "seed {seed}");
                        let want: Vec<u32> = out.drain(..).map(|(_, e)| e).collect();
                        assert_eq!(popped, want, "seed {seed} tick {tick:?}");
                        for ev in &popped {
                            pending.remove(ev);
                        }
                        assert_eq!(ring.is_empty(), pending.is_empty());
                    }
                }
            }
            assert_eq!(ring.pop_tick(|_| {}).unwrap(), None);
        }
        assert!(
            moves > 100 && moved_cancels > 10,
            "{moves} moves, {moved_cancels} cancelled"
        );
    }
}
