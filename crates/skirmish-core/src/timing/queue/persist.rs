//! The queue as data: its pending events in firing order and its free
//! handles (what a scheduler snapshot records), rebuilding a queue from
//! them, serde, the packed clone and equality by what would pop.

use serde::{Deserialize, Serialize};

use super::*;

impl<T> EventQueue<T> {
    /// Every pending event as `(tick, id, event)` in firing order (tick,
    /// then scheduling order). For displays (the tick sheet); O(n log n).
    pub fn pending(&self) -> Vec<(u64, EventId, &T)> {
        self.pending_in_order()
            .into_iter()
            .map(|(t, _, id, e)| (t, id, e))
            .collect()
    }

    /// Every pending event as `(tick, sequence, id, event)` in firing order.
    pub(crate) fn pending_in_order(&self) -> Vec<(u64, u64, EventId, &T)> {
        let mut v: Vec<(u64, u64, EventId, &T)> = self
            .slots
            .iter()
            .enumerate()
            .filter_map(|(i, s)| {
                s.event.as_ref().map(|e| {
                    (
                        s.tick,
                        s.seq,
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
        v
    }

    /// The handles new events will take, in order.
    pub(crate) fn free_handles(&self) -> Vec<EventId> {
        self.free
            .iter()
            .map(|e| EventId {
                slot: e.slot,
                generation: e.generation,
            })
            .collect()
    }

    /// A queue at `now` holding `events` as `(tick, sequence, id, event)`
    /// (any order; sequence numbers distinct) with the free handles
    /// `free` in reuse order: the ids of `events` and `free` must name
    /// every slot `0..n` once. Errors name `events[i]` or `free_handles[i]`.
    pub(crate) fn from_parts(now: u64, events: Vec<(u64, u64, EventId, T)>, free: &[EventId]) -> Result<Self> {
        let n = events.len() + free.len();
        if n > u32::MAX as usize {
            return Err(too_many());
        }
        let mut slots: Vec<Option<Slot<T>>> = (0..n).map(|_| None).collect();
        for (i, (tick, seq, id, event)) in events.into_iter().enumerate() {
            if tick <= now {
                return Err(Error::invalid(
                    format!("events[{i}].tick"),
                    format!("{tick} is not after now ({now})"),
                ));
            }
            let Some(place @ None) = slots.get_mut(id.slot as usize) else {
                return Err(Error::invalid(
                    format!("events[{i}].id"),
                    format!("slot {} is not one of 0..{n} used once", id.slot),
                ));
            };
            *place = Some(Slot {
                generation: id.generation,
                event: Some(event),
                tick,
                seq,
            });
        }
        let mut free_entries = Vec::with_capacity(free.len());
        for (i, id) in free.iter().enumerate() {
            let Some(place @ None) = slots.get_mut(id.slot as usize) else {
                return Err(Error::invalid(
                    format!("free_handles[{i}]"),
                    format!("slot {} is not one of 0..{n} used once", id.slot),
                ));
            };
            *place = Some(Slot {
                generation: id.generation,
                event: None,
                tick: 0,
                seq: 0,
            });
            free_entries.push(Entry {
                slot: id.slot,
                generation: id.generation,
            });
        }
        // n ids, each naming a distinct slot below n: every slot is filled.
        let slots: Vec<Slot<T>> = slots.into_iter().flatten().collect();
        let mut slots: Vec<Slot<T>> = slots;
        let mut seqs: Vec<u64> = slots.iter().filter(|s| s.event.is_some()).map(|s| s.seq).collect();
        seqs.sort_unstable();
        if seqs.windows(2).any(|w| w[0] == w[1]) {
            return Err(Error::invalid("events", "two events share a place in scheduling order"));
        }
        // Only the order of the sequence numbers counts: number them densely,
        // so no restored number is near the end of the range.
        for slot in slots.iter_mut().filter(|s| s.event.is_some()) {
            slot.seq = seqs.binary_search(&slot.seq).unwrap_or(0) as u64;
        }
        let next_seq = seqs.len() as u64;
        Ok(EventQueue::packed_from(now, next_seq, slots, free_entries))
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

impl<T: Serialize> Serialize for EventQueue<T> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        QueueRepr {
            now: self.now,
            next_seq: self.next_seq,
            slots: self
                .slots
                .iter()
                .map(|x| (x.generation, x.event.as_ref().map(|e| (x.tick, x.seq, e))))
                .collect(),
            free: self.free.iter().map(|e| e.slot).collect(),
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
        q.fine_block = (q.now >> SHIFT) + 2;
        q.next_seq = repr.next_seq;
        let mut order: Vec<(u64, u64, u32)> = Vec::new();
        for (i, (generation, event)) in repr.slots.into_iter().enumerate() {
            let (tick, seq, event) = match event {
                Some((tick, seq, event)) => {
                    if tick <= q.now {
                        return Err(D::Error::custom(format!(
                            "event_queue.slots[{i}]: tick {tick} is not after the current tick {}",
                            q.now
                        )));
                    }
                    if seq >= q.next_seq {
                        return Err(D::Error::custom(format!(
                            "event_queue.slots[{i}]: sequence {seq} is not below next_seq {}",
                            q.next_seq
                        )));
                    }
                    order.push((tick, seq, i as u32));
                    (tick, seq, Some(event))
                }
                None => (0, 0, None),
            };
            q.slots.push(Slot {
                generation,
                event,
                tick,
                seq,
            });
        }
        // The free list must name every empty slot exactly once, in the
        // saved order (so ids after a restore are the ids the saved queue
        // would have given).
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
        q.free = repr
            .free
            .iter()
            .map(|&slot| Entry {
                slot,
                generation: q.slots[slot as usize].generation,
            })
            .collect();
        order.sort_unstable();
        if order.windows(2).any(|w| w[0].1 == w[1].1) {
            return Err(D::Error::custom(
                "event_queue.slots: two events share a sequence number",
            ));
        }
        // Packed: the rings are built when the queue is first used.
        Ok(EventQueue::packed_from(q.now, q.next_seq, q.slots, q.free))
    }
}

impl<T: Clone> Clone for EventQueue<T> {
    /// A packed copy (see the module docs): the slab and the free list,
    /// with every pending event in the far heap; no ring is copied.
    fn clone(&self) -> Self {
        EventQueue::packed_from(self.now, self.next_seq, self.slots.clone(), self.free.clone())
    }

    /// The same copy in this queue's memory: its rings (emptied, not
    /// freed), slab, free list and far heap are reused, so a queue copied
    /// again and again (a continuation's battles, each from the
    /// encounter's scheduler) allocates nothing once warm. The copy pops
    /// exactly as [`clone`](Clone::clone)'s does; it is packed only if
    /// this queue had no rings yet.
    fn clone_from(&mut self, source: &Self) {
        self.reset();
        self.slots.clone_from(&source.slots);
        self.free.clone_from(&source.free);
        let mut far = std::mem::take(&mut self.far).into_vec();
        far.clear();
        far.extend(pending_of(&self.slots));
        *self = EventQueue {
            now: source.now,
            fine_block: (source.now >> SHIFT) + 2,
            live: far.len(),
            packed: !far.is_empty(),
            far: BinaryHeap::from(far),
            next_seq: source.next_seq,
            ..std::mem::take(self)
        };
        // A packed queue has no rings (its first use unpacks it when it
        // allocates them): with rings kept, the events go into them now.
        if self.fine.is_some() || self.coarse.is_some() {
            self.unpack();
        }
    }
}

impl<T: PartialEq> PartialEq for EventQueue<T> {
    /// Two queues are equal when they are at the same tick, would pop the
    /// same events with the same ids in the same order, and would hand out
    /// the same ids to new events. Where the events sit (rings, far heap,
    /// packed) and the absolute sequence numbers do not matter.
    fn eq(&self, other: &Self) -> bool {
        self.now == other.now
            && self.slots.len() == other.slots.len()
            && self.free.len() == other.free.len()
            && self
                .free
                .iter()
                .zip(&other.free)
                .all(|(a, b)| a.slot == b.slot && a.generation == b.generation)
            && self.pending() == other.pending()
    }
}
