//! The `std::collections::BinaryHeap` reference the event queue is
//! measured against.
//!
//! [`HeapQueue`] is the fairest lean heap we could write for the hold
//! model, and it is tilted in the heap's favour:
//!
//! - entries are `Reverse<(tick, sequence, actor, generation)>`, 24 bytes,
//!   ordered by tick and then scheduling order, so ties fire FIFO exactly as
//!   [`EventQueue`](skirmish_core::timing::queue::EventQueue) does;
//! - cancelling is lazy deletion by a per-actor generation counter (O(1)):
//!   an entry is live while its generation is its actor's current one;
//! - [`HeapQueue::pop_tick`] pops while the top has the same tick, so it
//!   returns every event of the next tick together, as the event queue does;
//! - unlike the event queue it stores no payload and keeps no slab: it knows
//!   only actors, each with at most one pending event (what the hold model
//!   needs), and it cannot list, look up or serialize its events.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use skirmish_core::{Error, Result};

/// Handle of an event in a [`HeapQueue`]: its actor and generation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct HeapHandle {
    actor: u32,
    generation: u32,
}

impl HeapHandle {
    /// The actor the event belongs to.
    pub fn actor(self) -> u32 {
        self.actor
    }
}

/// A binary-heap event queue of actors keyed by tick, FIFO within a tick,
/// one pending event per actor (see the module docs).
#[derive(Debug, Clone)]
pub struct HeapQueue {
    now: u64,
    next_seq: u64,
    heap: BinaryHeap<Reverse<(u64, u64, u32, u32)>>,
    /// Current generation per actor; an entry with another one is dead.
    generations: Vec<u32>,
}

impl HeapQueue {
    /// An empty queue at tick 0 for actors `0..actors`.
    pub fn new(actors: u32) -> HeapQueue {
        HeapQueue {
            now: 0,
            next_seq: 0,
            heap: BinaryHeap::with_capacity(actors as usize),
            generations: vec![0; actors as usize],
        }
    }

    /// The last tick popped (0 before the first pop).
    pub fn now(&self) -> u64 {
        self.now
    }

    /// Schedules `actor` at `tick`, after everything already scheduled for
    /// that tick. A pending event of the same actor is dropped (each actor
    /// has at most one).
    ///
    /// # Errors
    /// The tick is not after [`now`](Self::now), or the actor is not one of
    /// this queue's.
    #[inline]
    pub fn schedule(&mut self, tick: u64, actor: u32) -> Result<HeapHandle> {
        if tick <= self.now {
            return Err(Error::invalid(
                "tick",
                format!("{tick} is not after the current tick {}", self.now),
            ));
        }
        let Some(generation) = self.generations.get_mut(actor as usize) else {
            return Err(Error::invalid(
                "actor",
                format!("{actor} is not an actor of this queue"),
            ));
        };
        *generation = generation.wrapping_add(1);
        let generation = *generation;
        let seq = self.next_seq;
        self.next_seq += 1;
        self.heap.push(Reverse((tick, seq, actor, generation)));
        Ok(HeapHandle { actor, generation })
    }

    /// Cancels the event behind `handle`; `false` if it already fired or
    /// was cancelled. O(1): its heap entry is skipped when it surfaces.
    #[inline]
    pub fn cancel(&mut self, handle: HeapHandle) -> bool {
        match self.generations.get_mut(handle.actor as usize) {
            Some(g) if *g == handle.generation => {
                *g = g.wrapping_add(1);
                true
            }
            _ => false,
        }
    }

    /// Pops every live event of the next tick that has one into `out`
    /// (cleared first), in scheduling order, and returns that tick; `None`
    /// when nothing is pending.
    #[inline]
    pub fn pop_tick(&mut self, out: &mut Vec<(HeapHandle, u32)>) -> Option<u64> {
        out.clear();
        // Drop dead entries until a live one is on top: its tick is next.
        let tick = loop {
            let Reverse((tick, _, actor, generation)) = *self.heap.peek()?;
            if self.generations[actor as usize] == generation {
                break tick;
            }
            self.heap.pop();
        };
        while let Some(&Reverse((t, _, actor, generation))) = self.heap.peek() {
            if t != tick {
                break;
            }
            self.heap.pop();
            let current = &mut self.generations[actor as usize];
            if *current == generation {
                // Fired: a cancel of this handle now finds nothing.
                *current = current.wrapping_add(1);
                out.push((HeapHandle { actor, generation }, actor));
            }
        }
        self.now = tick;
        Some(tick)
    }
}
