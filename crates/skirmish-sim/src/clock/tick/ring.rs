//! The Tick System clock's event queue: a ring of tick buckets.
//!
//! The core [`EventQueue`] is general: any number of events per owner,
//! handles that stay unique for its life, far-future events in three
//! levels, a slab slot of 32 bytes per event plus its bucket entry and its
//! free-list entry. Profiled under the Tick System clock it cost about 190
//! instructions per action (two schedules and a pop, each through the
//! slab). A battle's Tick System needs much less: every fighter has at most
//! two pending events (its action and its turn), and nearly every event is
//! a few ticks away (an action's ticks, an Interval, a round of a d20).
//!
//! So here:
//!
//! - a **ring** of [`RING`] buckets, one per tick, holds every event due
//!   within `RING` ticks of [`now`](TickRing::now) (tick `t` in bucket
//!   `t % RING`); a bitmap finds the next non-empty bucket;
//! - a bucket is a **linked list of 8-byte nodes** (the event and the next
//!   node), appended at its tail, so it keeps scheduling order; a popped
//!   bucket's nodes go back to the free list in one splice. The nodes of
//!   all buckets share one array, sized by the pending events, not by the
//!   busiest tick times the ring;
//! - a node's index is the event's handle: the fighter keeps it (4 bytes)
//!   and **cancelling** marks the node dead, O(1); a dead node is dropped
//!   when its bucket is popped. A node is freed only when its bucket is
//!   popped, after its owner let go of it (a popped event's owner is told;
//!   a cancelled one's owner has forgotten it), so a handle a fighter holds
//!   always names its own pending event;
//! - events further out wait in a core [`EventQueue`] (the **far** queue,
//!   holding node indices; a dead node there is dropped as it comes out),
//!   and move into the ring, in (tick, scheduling) order, as soon as `now`
//!   brings them within `RING` ticks, before anything is scheduled at that
//!   `now`.
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
//! scheduling order. Tested against the Scheduler (on the core queue) step
//! for step in `tick.rs`, with every kind of declaration, disruptions and
//! falls, and delays past the ring.

use skirmish_core::timing::queue::EventQueue;

use crate::error::SimError;

/// Ticks the ring covers (a power of two): delays up to this go straight
/// into their bucket; longer ones wait in the far queue first. A Tick
/// System round is as long as its highest initiative (about 20 ticks with
/// the default d20), actions take a few ticks and Intervals are a few more.
pub(super) const RING: u64 = 1024;
const MASK: u64 = RING - 1;
const WORDS: usize = (RING / 64) as usize;

/// No node: an empty bucket's head, the end of a list, no pending event.
pub(super) const NONE: u32 = u32::MAX;
/// A cancelled event's node.
const DEAD: u32 = u32::MAX;

/// An event (or [`DEAD`]) and the next node of its list.
#[derive(Debug, Clone, Copy)]
struct Node {
    event: u32,
    next: u32,
}

/// One tick's events: the first and last node of its list.
#[derive(Debug, Clone, Copy)]
struct Bucket {
    head: u32,
    tail: u32,
}

const EMPTY: Bucket = Bucket { head: NONE, tail: NONE };

/// A queue of `u32` events (never [`DEAD`]) by tick (see the module docs).
#[derive(Debug)]
pub(super) struct TickRing {
    /// The last tick popped (0 before the first pop).
    now: u64,
    /// Events scheduled and neither popped nor cancelled.
    live: usize,
    nodes: Vec<Node>,
    /// The first free node ([`NONE`]: none; grow `nodes`).
    free: u32,
    /// Tick `t`'s bucket at `t % RING`, for the ticks `now + 1..=now + RING`.
    buckets: Box<[Bucket; RING as usize]>,
    /// A bit per non-empty bucket.
    bits: [u64; WORDS],
    /// Events more than `RING` ticks after `now`: their nodes.
    far: EventQueue<u32>,
    /// No far event is before this tick (`u64::MAX`: none is pending).
    far_min: u64,
    /// The far queue was used since the last reset.
    far_used: bool,
    /// A far tick's nodes as they come out of the far queue.
    out: Vec<(skirmish_core::timing::queue::EventId, u32)>,
}

impl Default for TickRing {
    fn default() -> Self {
        TickRing {
            now: 0,
            live: 0,
            nodes: Vec::new(),
            free: NONE,
            buckets: Box::new([EMPTY; RING as usize]),
            bits: [0; WORDS],
            far: EventQueue::new(),
            far_min: u64::MAX,
            far_used: false,
            out: Vec::new(),
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
            self.far_used = false;
        }
        self.far_min = u64::MAX;
        // Every node free, in order: the last battle's nodes are reused
        // without growing the array again.
        let mut next = 0;
        for n in &mut self.nodes {
            next += 1;
            n.next = next;
        }
        if let Some(last) = self.nodes.last_mut() {
            last.next = NONE;
        }
        self.free = if self.nodes.is_empty() { NONE } else { 0 };
        self.now = 0;
        self.live = 0;
        crate::battle::reserve_fighters(&mut self.nodes, events)
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

    /// Schedules `event` at `tick` (after [`now`](Self::now)), after every
    /// event already scheduled for that tick; returns its node.
    #[inline(always)]
    pub(super) fn schedule(&mut self, tick: u64, event: u32) -> Result<u32, Refused> {
        if tick <= self.now {
            return Err(Refused::Past);
        }
        let node = match self.nodes.get_mut(self.free as usize) {
            Some(n) => {
                let node = self.free;
                self.free = n.next;
                *n = Node { event, next: NONE };
                node
            }
            None => self.new_node(event)?,
        };
        self.live += 1;
        if tick - self.now <= RING {
            self.link(tick, node);
        } else {
            self.far_node(tick, node)?;
        }
        Ok(node)
    }

    /// A new node, when no freed one is left.
    #[inline(never)]
    fn new_node(&mut self, event: u32) -> Result<u32, Refused> {
        let node = u32::try_from(self.nodes.len())
            .ok()
            .filter(|&n| n != NONE)
            .ok_or(Refused::Overflow)?;
        if self.nodes.len() == self.nodes.capacity() {
            let more = self.nodes.len().max(64);
            self.nodes.try_reserve(more).map_err(|_| Refused::OutOfMemory)?;
        }
        self.nodes.push(Node { event, next: NONE });
        Ok(node)
    }

    /// Puts a far event in the far queue.
    #[cold]
    #[inline(never)]
    fn far_node(&mut self, tick: u64, node: u32) -> Result<(), Refused> {
        self.far_used = true;
        // Only the order's exhaustion can fail: the tick is after now.
        self.far.schedule(tick, node).map_err(|_| Refused::Overflow)?;
        self.far_min = self.far_min.min(tick);
        Ok(())
    }

    /// Appends `node` to tick `tick`'s bucket (within `RING` ticks of now).
    #[inline(always)]
    fn link(&mut self, tick: u64, node: u32) {
        let i = (tick & MASK) as usize;
        let b = &mut self.buckets[i];
        // A bucket's bit is set exactly while it has a node.
        if b.head == NONE {
            b.head = node;
            self.bits[i / 64] |= 1 << (i % 64);
        } else if let Some(t) = self.nodes.get_mut(b.tail as usize) {
            t.next = node;
        }
        b.tail = node;
    }

    /// Cancels the pending event of `node` (a node [`schedule`](Self::schedule)
    /// returned, whose event has been neither popped nor cancelled).
    #[inline]
    pub(super) fn cancel(&mut self, node: u32) {
        if let Some(n) = self.nodes.get_mut(node as usize)
            && n.event != DEAD
        {
            n.event = DEAD;
            self.live -= 1;
        }
    }

    /// Pops every event of the next tick that has one, handing each to
    /// `each` in scheduling order, and returns that tick; `None` when
    /// nothing is pending. Cancelled events never appear.
    #[inline]
    pub(super) fn pop_tick(&mut self, mut each: impl FnMut(u32)) -> Option<u64> {
        while self.live > 0 {
            let Some(tick) = self.next_bucket() else {
                // Nothing within the ring: the next events are far.
                let Some(tick) = self.far.pop_tick(&mut self.out) else {
                    // Unreachable while `live > 0`; stop rather than spin.
                    self.live = 0;
                    return None;
                };
                let mut popped = 0;
                for &(_, node) in &self.out {
                    if let Some(n) = self.nodes.get_mut(node as usize) {
                        if n.event != DEAD {
                            each(n.event);
                            popped += 1;
                        }
                        n.next = self.free;
                        self.free = node;
                    }
                }
                self.out.clear();
                self.far_min = tick;
                if let Some(t) = self.arrive(tick, popped) {
                    return Some(t);
                }
                continue;
            };
            let i = (tick & MASK) as usize;
            self.bits[i / 64] &= !(1 << (i % 64));
            let Bucket { head, tail } = std::mem::replace(&mut self.buckets[i], EMPTY);
            let mut popped = 0;
            let mut at = head;
            while let Some(n) = self.nodes.get(at as usize) {
                if n.event != DEAD {
                    each(n.event);
                    popped += 1;
                }
                at = n.next;
            }
            // The whole list onto the free list at once.
            if let Some(t) = self.nodes.get_mut(tail as usize) {
                t.next = self.free;
                self.free = head;
            }
            if let Some(t) = self.arrive(tick, popped) {
                return Some(t);
            }
        }
        None
    }

    /// `now` is `tick`, whose `popped` events were handed out: far events
    /// now within the ring move in; the tick if it had any.
    #[inline]
    fn arrive(&mut self, tick: u64, popped: usize) -> Option<u64> {
        self.now = tick;
        if self.far_min <= tick + RING {
            self.pull_far();
        }
        self.live -= popped;
        (popped > 0).then_some(tick)
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
    fn pull_far(&mut self) {
        let horizon = self.now + RING;
        loop {
            match self.far.peek_tick() {
                None => {
                    self.far_min = u64::MAX;
                    return;
                }
                Some(t) if t > horizon => {
                    self.far_min = t;
                    return;
                }
                Some(_) => {}
            }
            let Some(tick) = self.far.pop_tick(&mut self.out) else {
                self.far_min = u64::MAX;
                return;
            };
            for k in 0..self.out.len() {
                let node = self.out[k].1;
                let Some(n) = self.nodes.get_mut(node as usize) else {
                    continue;
                };
                if n.event == DEAD {
                    n.next = self.free;
                    self.free = node;
                } else {
                    n.next = NONE;
                    self.link(tick, node);
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
                "more than 2^32 pending events",
            )),
        }
    }
}
