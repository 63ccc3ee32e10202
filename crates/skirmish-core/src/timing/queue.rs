//! The one event queue every tick-based timing system runs on.
//!
//! A bucket (calendar) queue keyed by integer tick:
//!
//! - a ring of [`WINDOW`] buckets holds every event due in the next
//!   `WINDOW` ticks, one bucket per tick, FIFO inside a bucket;
//! - a bitmap of non-empty buckets finds the next due tick in a few word
//!   operations;
//! - events further out wait in a binary heap and move into the ring, in
//!   scheduling order, as the window reaches them (each event moves once);
//! - events live in a slab addressed by [`EventId`] (slot + generation), so
//!   cancelling is O(1): the slot is freed and the stale bucket entry is
//!   skipped when its tick comes.
//!
//! Scheduling, popping and cancelling are O(1) for the short delays these
//! rules produce (Ready Times of a few ticks), O(log n) for far events.
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

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// Ticks covered by the bucket ring (a power of two). Delays up to this many
/// ticks are O(1); longer ones go through the far heap once.
pub const WINDOW: u64 = 256;
const MASK: u64 = WINDOW - 1;
const WORDS: usize = (WINDOW / 64) as usize;

/// Handle of a scheduled event, for cancelling it.
///
/// Stays unique for the life of the queue: a handle of a fired or cancelled
/// event never names a later event.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct EventId {
    slot: u32,
    generation: u32,
}

#[derive(Debug, Clone, Copy)]
struct Entry {
    slot: u32,
    generation: u32,
}

#[derive(Debug, Clone)]
struct Slot<T> {
    generation: u32,
    /// `(tick, sequence, payload)` while scheduled.
    event: Option<(u64, u64, T)>,
}

/// A bucket queue of events of type `T` keyed by tick (see the module docs).
#[derive(Debug, Clone)]
pub struct EventQueue<T> {
    /// The last tick popped (0 before the first pop). Events must be
    /// scheduled strictly after it.
    now: u64,
    buckets: Vec<Vec<Entry>>,
    occupied: [u64; WORDS],
    far: BinaryHeap<Reverse<(u64, u64, u32, u32)>>,
    slots: Vec<Slot<T>>,
    free: Vec<u32>,
    next_seq: u64,
    live: usize,
}

impl<T> Default for EventQueue<T> {
    fn default() -> Self {
        EventQueue::new()
    }
}

impl<T> EventQueue<T> {
    /// An empty queue at tick 0.
    pub fn new() -> Self {
        EventQueue {
            now: 0,
            buckets: (0..WINDOW).map(|_| Vec::new()).collect(),
            occupied: [0; WORDS],
            far: BinaryHeap::new(),
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
            return Err(Error::invalid(
                "tick",
                format!(
                    "{tick} is not after the current tick {}; nothing can be scheduled in the past",
                    self.now
                ),
            ));
        }
        let seq = self.next_seq;
        self.next_seq += 1;
        let slot = match self.free.pop() {
            Some(s) => {
                self.slots[s as usize].event = Some((tick, seq, event));
                s
            }
            None => {
                let s = u32::try_from(self.slots.len())
                    .map_err(|_| Error::overflow("event_queue", "more than 2^32 pending events"))?;
                self.slots.push(Slot {
                    generation: 0,
                    event: Some((tick, seq, event)),
                });
                s
            }
        };
        let generation = self.slots[slot as usize].generation;
        self.live += 1;
        if tick - self.now <= WINDOW {
            self.push_bucket(tick, Entry { slot, generation });
        } else {
            self.far.push(Reverse((tick, seq, slot, generation)));
        }
        Ok(EventId { slot, generation })
    }

    #[inline]
    fn push_bucket(&mut self, tick: u64, entry: Entry) {
        let i = (tick & MASK) as usize;
        self.buckets[i].push(entry);
        self.occupied[i / 64] |= 1 << (i % 64);
    }

    /// Cancels a pending event and returns it with its tick; `None` if it
    /// already fired or was cancelled. O(1).
    #[inline]
    pub fn cancel(&mut self, id: EventId) -> Option<(u64, T)> {
        let slot = self.slots.get_mut(id.slot as usize)?;
        if slot.generation != id.generation {
            return None;
        }
        let (tick, _, event) = slot.event.take()?;
        slot.generation = slot.generation.wrapping_add(1);
        self.free.push(id.slot);
        self.live -= 1;
        Some((tick, event))
    }

    /// The tick of a pending event, if it is still pending.
    pub fn tick_of(&self, id: EventId) -> Option<u64> {
        let slot = self.slots.get(id.slot as usize)?;
        if slot.generation != id.generation {
            return None;
        }
        slot.event.as_ref().map(|(t, _, _)| *t)
    }

    /// The pending event behind `id`, if still pending.
    pub fn get(&self, id: EventId) -> Option<&T> {
        let slot = self.slots.get(id.slot as usize)?;
        if slot.generation != id.generation {
            return None;
        }
        slot.event.as_ref().map(|(_, _, e)| e)
    }

    /// The tick of the next pending event, without popping.
    pub fn peek_tick(&self) -> Option<u64> {
        if self.live == 0 {
            return None;
        }
        // Scan the ring in tick order; entries may be stale.
        let mut d = 1;
        while d <= WINDOW {
            let Some(off) = self.next_occupied(d) else { break };
            let tick = self.now + off;
            let i = (tick & MASK) as usize;
            if self.buckets[i].iter().any(|e| self.is_live(*e)) {
                return Some(tick);
            }
            d = off + 1;
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
        let s = &self.slots[e.slot as usize];
        s.generation == e.generation && s.event.is_some()
    }

    /// Offset `d` in `from..=WINDOW` of the first occupied bucket at tick
    /// `now + d`, scanning the bitmap.
    #[inline]
    fn next_occupied(&self, from: u64) -> Option<u64> {
        let mut d = from;
        while d <= WINDOW {
            let i = (self.now.wrapping_add(d) & MASK) as usize;
            let word = self.occupied[i / 64] >> (i % 64);
            if word != 0 {
                let step = u64::from(word.trailing_zeros());
                // Do not run past the end of this word's range of offsets.
                return Some(d + step).filter(|&x| x <= WINDOW);
            }
            d += 64 - (i % 64) as u64;
        }
        None
    }

    /// Pops every event of the next tick that has one, appending them to
    /// `out` (cleared first) in scheduling order, and returns that tick;
    /// `None` when nothing is pending. Cancelled events never appear.
    #[inline]
    pub fn pop_tick(&mut self, out: &mut Vec<(EventId, T)>) -> Option<u64> {
        out.clear();
        while self.live > 0 {
            let Some(off) = self.next_occupied(1) else {
                // The ring is empty: jump to the earliest far event.
                let Reverse((tick, ..)) = *self.far.peek()?;
                self.now = tick - 1;
                self.migrate();
                continue;
            };
            let tick = self.now + off;
            let i = (tick & MASK) as usize;
            let mut bucket = std::mem::take(&mut self.buckets[i]);
            self.occupied[i / 64] &= !(1 << (i % 64));
            for e in bucket.drain(..) {
                let slot = &mut self.slots[e.slot as usize];
                if slot.generation != e.generation {
                    continue;
                }
                if let Some((_, _, ev)) = slot.event.take() {
                    slot.generation = slot.generation.wrapping_add(1);
                    out.push((
                        EventId {
                            slot: e.slot,
                            generation: e.generation,
                        },
                        ev,
                    ));
                    self.free.push(e.slot);
                }
            }
            self.buckets[i] = bucket;
            self.now = tick;
            self.migrate();
            if !out.is_empty() {
                self.live -= out.len();
                return Some(tick);
            }
        }
        None
    }

    /// Moves far events that the window now covers into their buckets, in
    /// (tick, scheduling) order.
    #[inline]
    fn migrate(&mut self) {
        let horizon = self.now.saturating_add(WINDOW);
        while let Some(&Reverse((tick, _, slot, generation))) = self.far.peek() {
            if tick > horizon {
                break;
            }
            self.far.pop();
            let e = Entry { slot, generation };
            if self.is_live(e) {
                self.push_bucket(tick, e);
            }
        }
    }

    /// Every pending event as `(tick, id, event)` in firing order (tick,
    /// then scheduling order). For displays (the tick sheet); O(n log n).
    pub fn pending(&self) -> Vec<(u64, EventId, &T)> {
        let mut v: Vec<(u64, u64, EventId, &T)> = self
            .slots
            .iter()
            .enumerate()
            .filter_map(|(i, s)| {
                s.event.as_ref().map(|(t, q, e)| {
                    (
                        *t,
                        *q,
                        EventId {
                            slot: i as u32,
                            generation: s.generation,
                        },
                        e,
                    )
                })
            })
            .collect();
        v.sort_by_key(|&(t, q, _, _)| (t, q));
        v.into_iter().map(|(t, _, id, e)| (t, id, e)).collect()
    }

    /// Removes every pending event (ids of removed events become stale) and
    /// keeps the current tick.
    pub fn clear(&mut self) {
        for (i, s) in self.slots.iter_mut().enumerate() {
            if s.event.take().is_some() {
                s.generation = s.generation.wrapping_add(1);
                self.free.push(i as u32);
            }
        }
        for b in &mut self.buckets {
            b.clear();
        }
        self.occupied = [0; WORDS];
        self.far.clear();
        self.live = 0;
    }

    /// Empties the queue and sets it back to tick 0, keeping its memory
    /// (for running many battles in a row). Ids handed out before the reset
    /// must not be used after it: they may name new events.
    pub fn reset(&mut self) {
        for b in &mut self.buckets {
            b.clear();
        }
        self.occupied = [0; WORDS];
        self.far.clear();
        self.slots.clear();
        self.free.clear();
        self.now = 0;
        self.next_seq = 0;
        self.live = 0;
    }
}

/// One serialized slot: its generation and, while scheduled,
/// `(tick, sequence, event)`.
type SlotRepr<T> = (u32, Option<(u64, u64, T)>);

/// Serialized form: the slab and counters; buckets are rebuilt on load.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct QueueRepr<T> {
    now: u64,
    next_seq: u64,
    /// `(generation, Some((tick, seq, event)))` per slot.
    slots: Vec<SlotRepr<T>>,
    /// Free slots, in the order they will be reused (so ids after a
    /// restore are the ids the saved queue would have given).
    free: Vec<u32>,
}

impl<T: Serialize + Clone> Serialize for EventQueue<T> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        QueueRepr {
            now: self.now,
            next_seq: self.next_seq,
            slots: self.slots.iter().map(|x| (x.generation, x.event.clone())).collect(),
            free: self.free.clone(),
        }
        .serialize(s)
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for EventQueue<T> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        use serde::de::Error as _;
        let repr = QueueRepr::<T>::deserialize(d)?;
        if repr.slots.len() > u32::MAX as usize {
            return Err(D::Error::custom("event_queue.slots: too many slots"));
        }
        let mut q = EventQueue::new();
        q.now = repr.now;
        q.next_seq = repr.next_seq;
        let mut order: Vec<(u64, u64, u32)> = Vec::new();
        for (i, (generation, event)) in repr.slots.into_iter().enumerate() {
            if let Some((tick, seq, _)) = &event {
                if *tick <= q.now {
                    return Err(D::Error::custom(format!(
                        "event_queue.slots[{i}]: tick {tick} is not after the current tick {}",
                        q.now
                    )));
                }
                if *seq >= q.next_seq {
                    return Err(D::Error::custom(format!(
                        "event_queue.slots[{i}]: sequence {seq} is not below next_seq {}",
                        q.next_seq
                    )));
                }
                order.push((*tick, *seq, i as u32));
            }
            q.slots.push(Slot { generation, event });
        }
        // The free list must name every empty slot exactly once.
        let mut seen = vec![false; q.slots.len()];
        for &f in &repr.free {
            match (q.slots.get(f as usize), seen.get_mut(f as usize)) {
                (Some(slot), Some(mark)) if slot.event.is_none() && !*mark => *mark = true,
                _ => {
                    return Err(D::Error::custom(format!(
                        "event_queue.free: slot {f} is not an empty slot listed once"
                    )));
                }
            }
        }
        if seen.iter().zip(&q.slots).any(|(m, s)| !m && s.event.is_none()) {
            return Err(D::Error::custom("event_queue.free: an empty slot is missing"));
        }
        q.free = repr.free;
        order.sort_unstable();
        if order.windows(2).any(|w| w[0].1 == w[1].1) {
            return Err(D::Error::custom(
                "event_queue.slots: two events share a sequence number",
            ));
        }
        q.live = order.len();
        for (tick, seq, slot) in order {
            let generation = q.slots[slot as usize].generation;
            if tick - q.now <= WINDOW {
                q.push_bucket(tick, Entry { slot, generation });
            } else {
                q.far.push(Reverse((tick, seq, slot, generation)));
            }
        }
        Ok(q)
    }
}

impl<T: PartialEq> PartialEq for EventQueue<T> {
    /// Two queues are equal when they are at the same tick and would pop
    /// the same events with the same ids in the same order.
    fn eq(&self, other: &Self) -> bool {
        self.now == other.now && self.next_seq == other.next_seq && self.pending() == other.pending()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fifo_within_a_tick_across_the_far_heap() {
        let mut q = EventQueue::new();
        q.schedule(1000, 'a').unwrap(); // far
        let mut out = Vec::new();
        q.schedule(900, 'x').unwrap(); // far, fires first, brings 1000 into the window
        assert_eq!(q.pop_tick(&mut out), Some(900));
        q.schedule(1000, 'b').unwrap(); // direct into the bucket, after 'a'
        assert_eq!(q.pop_tick(&mut out), Some(1000));
        assert_eq!(out.iter().map(|x| x.1).collect::<String>(), "ab");
    }

    #[test]
    fn past_and_present_are_refused() {
        let mut q = EventQueue::new();
        assert!(q.schedule(0, ()).is_err());
        q.schedule(3, ()).unwrap();
        let mut out = Vec::new();
        q.pop_tick(&mut out);
        assert!(q.schedule(3, ()).is_err());
        assert!(q.schedule(2, ()).is_err());
        assert!(q.schedule(4, ()).is_ok());
    }

    #[test]
    fn a_tick_of_only_cancelled_events_is_skipped() {
        let mut q = EventQueue::new();
        let a = q.schedule(2, 'a').unwrap();
        q.schedule(3, 'b').unwrap();
        assert_eq!(q.cancel(a), Some((2, 'a')));
        assert_eq!(q.cancel(a), None);
        assert_eq!(q.peek_tick(), Some(3));
        let mut out = Vec::new();
        assert_eq!(q.pop_tick(&mut out), Some(3));
        assert_eq!(out.len(), 1);
        assert!(q.is_empty());
    }

    #[test]
    fn window_edges() {
        let mut q = EventQueue::new();
        for t in [WINDOW, WINDOW + 1, 2 * WINDOW, 2 * WINDOW + 1, 1] {
            q.schedule(t, t).unwrap();
        }
        let mut out = Vec::new();
        let mut ticks = Vec::new();
        while let Some(t) = q.pop_tick(&mut out) {
            assert_eq!(out[0].1, t);
            ticks.push(t);
        }
        assert_eq!(ticks, [1, WINDOW, WINDOW + 1, 2 * WINDOW, 2 * WINDOW + 1]);
    }

    #[test]
    fn serde_round_trip_keeps_ids_and_order() {
        let mut q = EventQueue::new();
        let ids: Vec<EventId> = (0..10u64).map(|i| q.schedule(1 + (i * 97) % 700, i).unwrap()).collect();
        q.cancel(ids[3]);
        let mut out = Vec::new();
        q.pop_tick(&mut out);
        let json = serde_json::to_string(&q).unwrap();
        let mut r: EventQueue<u64> = serde_json::from_str(&json).unwrap();
        assert_eq!(r, q);
        assert_eq!(r.cancel(ids[5]), q.cancel(ids[5]));
        let (mut a, mut b) = (Vec::new(), Vec::new());
        loop {
            let (ta, tb) = (q.pop_tick(&mut a), r.pop_tick(&mut b));
            assert_eq!(ta, tb);
            assert_eq!(a, b);
            if ta.is_none() {
                break;
            }
        }
    }
}
