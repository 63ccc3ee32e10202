//! The one event queue every tick-based timing system runs on.
//!
//! A two-level bucket (calendar) queue keyed by integer tick, in the manner
//! of a hierarchical timing wheel:
//!
//! - a **fine ring** of `2 * WINDOW` buckets, one per tick, FIFO inside a
//!   bucket, holds every event due before the end of the next
//!   [`WINDOW`]-tick block: always at least the next `WINDOW` ticks;
//! - a **coarse ring** of `WINDOW` buckets, one per block of `WINDOW`
//!   ticks, holds events up to `WINDOW * WINDOW` ticks (65,536) ahead; when
//!   the fine ring reaches a block, its bucket is poured into the fine ring,
//!   in scheduling order;
//! - events further out wait in a binary heap and move into the coarse
//!   ring, in (tick, scheduling) order, as it reaches them;
//! - a bitmap per ring finds the next non-empty bucket in a few word
//!   operations;
//! - events live in a slab addressed by [`EventId`] (slot + generation), so
//!   cancelling is O(1): the slot is freed and the stale bucket entry is
//!   skipped when its tick comes.
//!
//! The rings are allocated on first use, so an empty queue holds no heap
//! memory. A **clone is packed**: it copies the slab and puts every pending
//! event in the far heap (24 bytes each) instead of copying the rings
//! (18 KB whatever they hold); its first schedule or pop unpacks it. A live
//! tracker copies its state for undo on every operation, and most of those
//! copies are never run.
//!
//! Scheduling, popping and cancelling are O(1) for the delays these rules
//! produce (Ready Times of a few ticks go straight into the fine ring; an
//! event up to 65,536 ticks out moves once more), O(log n) beyond that.
//!
//! Popping returns **every** event of the next tick together, in the order
//! they were scheduled: simultaneity is a result, not a tie-break accident.
//!
//! ```
//! use skirmish_core::timing::queue::EventQueue;
//! let mut q = EventQueue::new();
//! q.schedule(5, "Roland").unwrap();
//! q.schedule(4, "Madoc").unwrap();
//! let orc = q.schedule(4, "Orc #2").unwrap();
//! q.schedule(10_000, "far future").unwrap();
//! let mut now = Vec::new();
//! assert_eq!(q.pop_tick(&mut now), Some(4));
//! assert_eq!(now.iter().map(|(_, who)| *who).collect::<Vec<_>>(), ["Madoc", "Orc #2"]);
//! assert!(q.cancel(orc).is_none()); // already fired
//! assert_eq!(q.pop_tick(&mut now), Some(5));
//! assert_eq!(q.pop_tick(&mut now), Some(10_000));
//! assert_eq!(q.pop_tick(&mut now), None);
//! ```

// Split by concern: this file is the queue itself (rings, far heap, slab,
// scheduling and popping); `persist` is what snapshots, serde, clones and
// equality need (events in order, the free list, rebuilding from parts).
mod persist;

#[cfg(test)]
mod tests;

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// Ticks per block (a power of two): a delay of up to this many ticks
/// always goes straight into the fine ring, O(1). The coarse ring has this
/// many blocks, so delays up to `WINDOW * WINDOW` ticks stay O(1); longer
/// ones go through the far heap once.
pub const WINDOW: u64 = 256;
/// `log2(WINDOW)`: a tick's block is `tick >> SHIFT`.
const SHIFT: u32 = WINDOW.trailing_zeros();
/// Fine buckets: two blocks, so a whole block can be poured in while the
/// current one is still running.
const FINE: u64 = 2 * WINDOW;
const FINE_MASK: u64 = FINE - 1;
const FINE_WORDS: usize = (FINE / 64) as usize;
const COARSE_MASK: u64 = WINDOW - 1;
const COARSE_WORDS: usize = (WINDOW / 64) as usize;

/// Handle of a scheduled event, for cancelling it.
///
/// Stays unique for the life of the queue: a handle of a fired or cancelled
/// event never names a later event. In serde it is `{ slot, generation }`,
/// to be kept as it is (a scheduler snapshot restores it exactly).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct EventId {
    slot: u32,
    generation: u32,
}

/// A fine-bucket entry: the event's slot, live while the generation
/// matches the slot's.
#[derive(Debug, Clone, Copy)]
struct Entry {
    slot: u32,
    generation: u32,
}

/// A coarse-bucket entry: a fine entry plus its tick's offset in the block.
#[derive(Debug, Clone, Copy)]
struct BlockEntry {
    entry: Entry,
    offset: u32,
}

/// One slab slot. `generation` is that of the pending event's id and
/// changes as soon as the event fires or is cancelled, so a bucket entry is
/// live exactly while its generation matches. `tick` and `seq` are
/// meaningful while `event` is `Some`; they share the slot's cache line, which
/// popping has just touched when scheduling reuses it.
#[derive(Debug, Clone)]
struct Slot<T> {
    generation: u32,
    event: Option<T>,
    tick: u64,
    seq: u64,
}

/// The fine ring: one bucket per tick.
type FineRing = [Vec<Entry>; FINE as usize];
/// The coarse ring: one bucket per block of `WINDOW` ticks.
type CoarseRing = [Vec<BlockEntry>; WINDOW as usize];
/// A far-heap entry: `(tick, seq, slot, generation)`.
type FarEntry = (u64, u64, u32, u32);

/// Every pending event of a slab as a far-heap entry (a packed queue's).
fn pending_of<T>(slots: &[Slot<T>]) -> impl Iterator<Item = Reverse<FarEntry>> + '_ {
    slots
        .iter()
        .enumerate()
        .filter(|(_, s)| s.event.is_some())
        .map(|(i, s)| Reverse((s.tick, s.seq, i as u32, s.generation)))
}

/// A bucket queue of events of type `T` keyed by tick (see the module docs).
#[derive(Debug)]
pub struct EventQueue<T> {
    /// The last tick popped (0 before the first pop). Events must be
    /// scheduled strictly after it.
    now: u64,
    /// First block not yet poured into the fine ring: the fine ring holds
    /// every pending tick below `fine_block * WINDOW`. Kept at
    /// `(now >> SHIFT) + 2` after every pop.
    fine_block: u64,
    /// Fixed-size, so indexing by a masked tick needs no bounds check;
    /// `None` until first used (and in a packed queue). A ring with no bit
    /// set in its bitmap holds no live entry.
    fine: Option<Box<FineRing>>,
    fine_bits: [u64; FINE_WORDS],
    /// Blocks `fine_block..fine_block + WINDOW`, at `block & COARSE_MASK`;
    /// `None` until first used (and in a packed queue).
    coarse: Option<Box<CoarseRing>>,
    coarse_bits: [u64; COARSE_WORDS],
    /// Blocks from `fine_block + WINDOW` on: `(tick, seq, slot, generation)`.
    /// In a packed queue: every pending event, whatever its tick.
    far: BinaryHeap<Reverse<FarEntry>>,
    /// Packed (a clone or a restored queue not yet used): the rings are
    /// empty and every pending event waits in `far`; unpacked before the
    /// rings are next touched.
    packed: bool,
    slots: Vec<Slot<T>>,
    /// Free slots with their current generation, so scheduling only
    /// writes the slot: it was last touched a whole tick group ago and is
    /// likely out of cache.
    free: Vec<Entry>,
    next_seq: u64,
    live: usize,
}

impl<T> Default for EventQueue<T> {
    fn default() -> Self {
        EventQueue::new()
    }
}

#[cold]
#[inline(never)]
fn in_the_past(tick: u64, now: u64) -> Error {
    Error::invalid(
        "tick",
        format!("{tick} is not after the current tick {now}; nothing can be scheduled in the past"),
    )
}

#[cold]
#[inline(never)]
fn too_many() -> Error {
    Error::overflow("event_queue", "more than 2^32 pending events")
}

/// Offset `d` in `1..=span` of the first set bit of `bits` (a ring of
/// `64 * N` buckets) after index `start`, that is at ring index
/// `(start + d) % (64 * N)`.
#[inline]
fn next_set<const N: usize>(bits: &[u64; N], start: u64, span: u64) -> Option<u64> {
    let ring_mask = (64 * N as u64) - 1;
    let mut d = 1;
    while d <= span {
        let i = (start.wrapping_add(d) & ring_mask) as usize;
        let word = bits[i / 64] >> (i % 64);
        if word != 0 {
            let hit = d + u64::from(word.trailing_zeros());
            return Some(hit).filter(|&x| x <= span);
        }
        d += 64 - (i % 64) as u64;
    }
    None
}

impl<T> EventQueue<T> {
    /// An empty queue at tick 0.
    pub fn new() -> Self {
        EventQueue {
            now: 0,
            fine_block: 2,
            fine: None,
            fine_bits: [0; FINE_WORDS],
            coarse: None,
            coarse_bits: [0; COARSE_WORDS],
            far: BinaryHeap::new(),
            packed: false,
            slots: Vec::new(),
            free: Vec::new(),
            next_seq: 0,
            live: 0,
        }
    }

    /// The last tick popped (0 before the first pop).
    pub fn now(&self) -> u64 {
        self.now
    }

    /// Number of scheduled, uncancelled events.
    pub fn len(&self) -> usize {
        self.live
    }

    /// Whether no event is pending.
    pub fn is_empty(&self) -> bool {
        self.live == 0
    }

    /// Schedules `event` at `tick`, after everything already scheduled for
    /// that tick.
    ///
    /// # Errors
    /// A tick at or before [`now`](Self::now) is in the past (the current
    /// tick's group has already been handed out).
    #[inline]
    pub fn schedule(&mut self, tick: u64, event: T) -> Result<EventId> {
        if tick <= self.now {
            return Err(in_the_past(tick, self.now));
        }
        let seq = self.next_seq;
        // Only a corrupt restored queue can get here (2^64 events scheduled
        // otherwise): an error, never an overflow.
        self.next_seq = seq.checked_add(1).ok_or_else(|| Error::Overflow {
            field: "event_queue".into(),
            problem: "the scheduling order is exhausted".into(),
        })?;
        let (slot, generation) = match self.free.pop() {
            Some(Entry { slot, generation }) => {
                let s = &mut self.slots[slot as usize];
                s.event = Some(event);
                s.tick = tick;
                s.seq = seq;
                (slot, generation)
            }
            None => self.new_slot(tick, seq, event)?,
        };
        self.live += 1;
        let entry = Entry { slot, generation };
        // The common case inline; the others out of line keep this small.
        if tick >> SHIFT < self.fine_block {
            self.push_fine(tick, entry);
        } else {
            self.place(tick, seq, entry);
        }
        Ok(EventId { slot, generation })
    }

    /// A new slot holding `event`, when no freed one is left.
    #[inline(never)]
    fn new_slot(&mut self, tick: u64, seq: u64, event: T) -> Result<(u32, u32)> {
        let s = u32::try_from(self.slots.len()).map_err(|_| too_many())?;
        self.slots.push(Slot {
            generation: 0,
            event: Some(event),
            tick,
            seq,
        });
        Ok((s, 0))
    }

    /// Puts an entry in the fine ring, the coarse ring or the far heap,
    /// after everything already there for its tick.
    #[inline(never)]
    fn place(&mut self, tick: u64, seq: u64, entry: Entry) {
        let block = tick >> SHIFT;
        if block < self.fine_block {
            self.push_fine(tick, entry);
        } else if block - self.fine_block < WINDOW {
            self.push_coarse(tick, entry);
        } else {
            self.far.push(Reverse((tick, seq, entry.slot, entry.generation)));
        }
    }

    #[inline]
    fn push_fine(&mut self, tick: u64, entry: Entry) {
        let i = (tick & FINE_MASK) as usize;
        match self.fine.as_deref_mut() {
            Some(fine) => fine[i].push(entry),
            None => self.fine_ring()[i].push(entry),
        }
        self.fine_bits[i / 64] |= 1 << (i % 64);
    }

    /// The fine ring, unpacking the queue and allocating the ring first if
    /// need be.
    #[cold]
    #[inline(never)]
    fn fine_ring(&mut self) -> &mut FineRing {
        self.unpack();
        self.fine
            .get_or_insert_with(|| Box::new(std::array::from_fn(|_| Vec::new())))
    }

    /// Puts an entry in the coarse ring's bucket of its block.
    #[inline]
    fn push_coarse(&mut self, tick: u64, entry: Entry) {
        let i = ((tick >> SHIFT) & COARSE_MASK) as usize;
        let b = BlockEntry {
            entry,
            offset: (tick & COARSE_MASK) as u32,
        };
        match self.coarse.as_deref_mut() {
            Some(coarse) => coarse[i].push(b),
            None => self.coarse_ring()[i].push(b),
        }
        self.coarse_bits[i / 64] |= 1 << (i % 64);
    }

    /// The coarse ring, unpacking the queue and allocating the ring first
    /// if need be.
    #[cold]
    #[inline(never)]
    fn coarse_ring(&mut self) -> &mut CoarseRing {
        self.unpack();
        self.coarse
            .get_or_insert_with(|| Box::new(std::array::from_fn(|_| Vec::new())))
    }

    /// A packed queue puts its far heap back into the rings, in (tick,
    /// scheduling) order, so every bucket is in scheduling order again.
    #[cold]
    #[inline(never)]
    fn unpack(&mut self) {
        if !self.packed {
            return;
        }
        self.packed = false;
        let mut waiting = std::mem::take(&mut self.far).into_vec();
        // In (tick, scheduling) order, so each bucket keeps that order.
        waiting.sort_unstable_by_key(|e| e.0);
        for &Reverse((tick, seq, slot, generation)) in &waiting {
            let entry = Entry { slot, generation };
            if self.is_live(entry) {
                self.place(tick, seq, entry);
            }
        }
        // The far heap keeps its memory (a copy unpacked again and again
        // allocates nothing for it, unless events are still beyond the
        // rings' reach: `place` put those in a fresh heap): the events
        // still far go back into it.
        waiting.clear();
        waiting.extend(std::mem::take(&mut self.far).into_vec());
        self.far = BinaryHeap::from(waiting);
    }

    /// A packed queue over a slab: every pending event goes to the far
    /// heap; the rings stay unallocated until the queue is used.
    fn packed_from(now: u64, next_seq: u64, slots: Vec<Slot<T>>, free: Vec<Entry>) -> Self {
        let far: Vec<Reverse<FarEntry>> = pending_of(&slots).collect();
        EventQueue {
            now,
            fine_block: (now >> SHIFT) + 2,
            fine: None,
            fine_bits: [0; FINE_WORDS],
            coarse: None,
            coarse_bits: [0; COARSE_WORDS],
            live: far.len(),
            packed: !far.is_empty(),
            far: BinaryHeap::from(far),
            slots,
            free,
            next_seq,
        }
    }

    /// Cancels a pending event and returns it with its tick; `None` if it
    /// already fired or was cancelled. O(1).
    #[inline]
    pub fn cancel(&mut self, id: EventId) -> Option<(u64, T)> {
        let slot = self.slots.get_mut(id.slot as usize)?;
        if slot.generation != id.generation {
            return None;
        }
        let event = slot.event.take()?;
        slot.generation = slot.generation.wrapping_add(1);
        self.free.push(Entry {
            slot: id.slot,
            generation: slot.generation,
        });
        self.live -= 1;
        Some((slot.tick, event))
    }

    /// The tick of a pending event, if it is still pending.
    pub fn tick_of(&self, id: EventId) -> Option<u64> {
        let slot = self.slots.get(id.slot as usize)?;
        (slot.generation == id.generation && slot.event.is_some()).then_some(slot.tick)
    }

    /// The pending event behind `id`, if still pending.
    pub fn get(&self, id: EventId) -> Option<&T> {
        let slot = self.slots.get(id.slot as usize)?;
        if slot.generation != id.generation {
            return None;
        }
        slot.event.as_ref()
    }

    /// The tick of the next pending event, without popping.
    pub fn peek_tick(&self) -> Option<u64> {
        if self.live == 0 {
            return None;
        }
        // Each level only holds ticks after every tick of the one before.
        let span = self.fine_span();
        let mut from = 0;
        while let Some(step) = next_set(&self.fine_bits, self.now.wrapping_add(from), span - from) {
            let off = from + step;
            let i = (self.now.wrapping_add(off) & FINE_MASK) as usize;
            if self
                .fine
                .as_deref()
                .is_some_and(|f| f[i].iter().any(|e| self.is_live(*e)))
            {
                return Some(self.now + off);
            }
            from = off;
        }
        if let Some(coarse) = self.coarse.as_deref() {
            for k in 0..WINDOW {
                let block = self.fine_block + k;
                let i = (block & COARSE_MASK) as usize;
                let earliest = coarse[i]
                    .iter()
                    .filter(|b| self.is_live(b.entry))
                    .map(|b| (block << SHIFT) | u64::from(b.offset))
                    .min();
                if earliest.is_some() {
                    return earliest;
                }
            }
        }
        self.far
            .iter()
            .filter(|Reverse((_, _, s, g))| {
                self.is_live(Entry {
                    slot: *s,
                    generation: *g,
                })
            })
            .map(|Reverse((t, ..))| *t)
            .min()
    }

    #[inline]
    fn is_live(&self, e: Entry) -> bool {
        self.slots[e.slot as usize].generation == e.generation
    }

    /// How many ticks after `now` the fine ring covers:
    /// `fine_block * WINDOW - 1 - now`, without overflowing at the top of
    /// the tick range.
    #[inline]
    fn fine_span(&self) -> u64 {
        ((self.fine_block - (self.now >> SHIFT)) << SHIFT) - (self.now & COARSE_MASK) - 1
    }

    /// Pops every event of the next tick that has one, appending them to
    /// `out` (cleared first) in scheduling order, and returns that tick;
    /// `None` when nothing is pending. Cancelled events never appear.
    #[inline]
    pub fn pop_tick(&mut self, out: &mut Vec<(EventId, T)>) -> Option<u64> {
        out.clear();
        while self.live > 0 {
            let Some(off) = next_set(&self.fine_bits, self.now, self.fine_span()) else {
                self.jump();
                continue;
            };
            let tick = self.now + off;
            let i = (tick & FINE_MASK) as usize;
            self.fine_bits[i / 64] &= !(1 << (i % 64));
            let slots = self.slots.as_mut_slice();
            let free = &mut self.free;
            // A set bit means the ring is there.
            let Some(fine) = self.fine.as_deref_mut() else {
                continue;
            };
            let bucket = &mut fine[i];
            for &e in bucket.iter() {
                let slot = &mut slots[e.slot as usize];
                if slot.generation != e.generation {
                    continue;
                }
                if let Some(ev) = slot.event.take() {
                    slot.generation = e.generation.wrapping_add(1);
                    out.push((
                        EventId {
                            slot: e.slot,
                            generation: e.generation,
                        },
                        ev,
                    ));
                    free.push(Entry {
                        slot: e.slot,
                        generation: slot.generation,
                    });
                }
            }
            bucket.clear();
            self.now = tick;
            self.advance();
            if !out.is_empty() {
                self.live -= out.len();
                return Some(tick);
            }
        }
        None
    }

    /// Pours blocks into the fine ring until it covers the block after
    /// `now`'s, pulling far events into the coarse ring as it reaches them.
    #[inline]
    fn advance(&mut self) {
        let target = (self.now >> SHIFT) + 2;
        while self.fine_block < target {
            self.pour(self.fine_block);
            self.fine_block += 1;
            self.pull_far();
        }
    }

    /// Moves block `block`'s coarse bucket into the fine ring, in order.
    fn pour(&mut self, block: u64) {
        let i = (block & COARSE_MASK) as usize;
        if self.coarse_bits[i / 64] & (1 << (i % 64)) == 0 {
            return;
        }
        self.coarse_bits[i / 64] &= !(1 << (i % 64));
        let base = block << SHIFT;
        if self.fine.is_none() {
            self.fine_ring();
        }
        // A set bit means the coarse ring is there.
        let (Some(coarse), Some(fine)) = (self.coarse.as_deref_mut(), self.fine.as_deref_mut()) else {
            return;
        };
        let bucket = &mut coarse[i];
        for b in bucket.iter() {
            let j = ((base | u64::from(b.offset)) & FINE_MASK) as usize;
            fine[j].push(b.entry);
            self.fine_bits[j / 64] |= 1 << (j % 64);
        }
        bucket.clear();
    }

    /// Moves far events the coarse ring now covers into it, in (tick,
    /// scheduling) order; cancelled ones are dropped.
    #[inline]
    fn pull_far(&mut self) {
        let end = self.fine_block + WINDOW;
        while let Some(&Reverse((tick, _, slot, generation))) = self.far.peek() {
            if tick >> SHIFT >= end {
                break;
            }
            self.far.pop();
            let entry = Entry { slot, generation };
            if self.is_live(entry) {
                self.push_coarse(tick, entry);
            }
        }
    }

    /// The fine ring is empty: skip to the block of the next coarse or far
    /// event and pour it in.
    #[cold]
    fn jump(&mut self) {
        if self.packed {
            // The next event may be in any ring once unpacked.
            self.unpack();
            return;
        }
        let block = match next_set(&self.coarse_bits, self.fine_block.wrapping_sub(1), WINDOW) {
            Some(d) => self.fine_block + d - 1,
            None => {
                // Everything left is far: drop cancelled entries off the
                // top, then skip the empty blocks before the first live one.
                while let Some(&Reverse((_, _, slot, generation))) = self.far.peek() {
                    if self.is_live(Entry { slot, generation }) {
                        break;
                    }
                    self.far.pop();
                }
                let Some(&Reverse((tick, ..))) = self.far.peek() else {
                    // Unreachable while `live > 0`; stop rather than spin.
                    self.live = 0;
                    return;
                };
                self.fine_block = tick >> SHIFT;
                self.pull_far();
                tick >> SHIFT
            }
        };
        // The block starts after `now`: the fine ring is empty and every
        // block before `fine_block` has been poured.
        self.now = (block << SHIFT) - 1;
        self.advance();
    }

    /// Bytes of heap memory the queue holds (its buckets, heap, slots and
    /// free list, by capacity), not counting memory the events themselves
    /// own. For measuring what a copy of a scheduler costs (undo history).
    pub fn heap_size(&self) -> usize {
        use std::mem::size_of;
        let fine: usize = self.fine.as_deref().map_or(0, |f| {
            size_of::<FineRing>() + f.iter().map(|b| b.capacity() * size_of::<Entry>()).sum::<usize>()
        });
        let coarse: usize = self.coarse.as_deref().map_or(0, |c| {
            size_of::<CoarseRing>() + c.iter().map(|b| b.capacity() * size_of::<BlockEntry>()).sum::<usize>()
        });
        fine + coarse
            + self.far.capacity() * size_of::<Reverse<FarEntry>>()
            + self.slots.capacity() * size_of::<Slot<T>>()
            + self.free.capacity() * size_of::<Entry>()
    }

    /// Removes every pending event (ids of removed events become stale) and
    /// keeps the current tick.
    pub fn clear(&mut self) {
        for (i, s) in self.slots.iter_mut().enumerate() {
            if s.event.take().is_some() {
                s.generation = s.generation.wrapping_add(1);
                self.free.push(Entry {
                    slot: i as u32,
                    generation: s.generation,
                });
            }
        }
        for b in self.fine.iter_mut().flat_map(|f| f.iter_mut()) {
            b.clear();
        }
        for b in self.coarse.iter_mut().flat_map(|c| c.iter_mut()) {
            b.clear();
        }
        self.fine_bits = [0; FINE_WORDS];
        self.coarse_bits = [0; COARSE_WORDS];
        self.far.clear();
        self.packed = false;
        self.live = 0;
    }

    /// Empties the queue and sets it back to tick 0, keeping its memory
    /// (for running many battles in a row). Ids handed out before the reset
    /// must not be used after it: they may name new events.
    pub fn reset(&mut self) {
        // Only buckets with their bit set can hold entries (a popped bucket
        // is drained and its bit cleared).
        for (w, bits) in self.fine_bits.iter_mut().enumerate() {
            let mut b = std::mem::take(bits);
            while b != 0 {
                if let Some(fine) = self.fine.as_deref_mut() {
                    fine[w * 64 + b.trailing_zeros() as usize].clear();
                }
                b &= b - 1;
            }
        }
        for (w, bits) in self.coarse_bits.iter_mut().enumerate() {
            let mut b = std::mem::take(bits);
            while b != 0 {
                if let Some(coarse) = self.coarse.as_deref_mut() {
                    coarse[w * 64 + b.trailing_zeros() as usize].clear();
                }
                b &= b - 1;
            }
        }
        self.far.clear();
        self.packed = false;
        self.slots.clear();
        self.free.clear();
        self.now = 0;
        self.fine_block = 2;
        self.next_seq = 0;
        self.live = 0;
    }
}
