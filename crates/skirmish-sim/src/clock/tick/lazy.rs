//! The Tick System's clock for a battle where nothing is ever cancelled
//! but by a fall: no disruptible declaration, and every delay
//! within the fast path's ring.
//!
//! [`TickClock`](super::TickClock) keeps a handle per pending event so that
//! a disruption can cancel a living fighter's action and turn: every
//! schedule writes the handles into the fighter's record, every pop clears
//! them, and its ring keeps chunks, dead marks and a far queue to make
//! handles and far delays cheap. Profiled at 2x10 (callgrind, parity
//! battle), that clock was most of the Tick System's instructions an
//! action, more than the Continuous fast path spends on the whole
//! action. A battle whose declarations are not disruptible never cancels a
//! living fighter's event, and a fallen fighter's events can simply be
//! skipped when they come up (its bit in `alive` is clear): this clock
//! keeps no handles. Its events are the fast path's 4-byte ring entries
//! (`ring::Ring`, FIFO within a tick as the core queue is), the fighter
//! and what happens ([`payload`]), and it counts the
//! events pending for fighters still in the fight (`live`; `pending` per
//! fighter, so that a fall takes its events off the count), which is what
//! "the round ends when nothing is pending" reads.
//!
//! And a fighter whose turn begins starts its action as its event is read,
//! not at the next step from a list of those awaiting (as `TickClock`
//! does, skipping those who fell in the moment between): nothing but the
//! moment comes between, so the events are the same, scheduled in the same
//! order from the same tick, and those of a fighter that falls in the
//! moment are skipped when they come up like any fallen fighter's. An
//! action that would be done past the last tick is the next step's error,
//! where `TickClock` meets it. Both savings were measured in instructions
//! per action at 2x10 (docs/performance.md has the current figures).
//!
//! It takes a battle only where every event fits the ring
//! ([`LazyTickClock::takes`]): an action's ticks and Interval, and twice
//! the highest initiative anyone can roll (a round's first turns come at
//! most a round's length after its start, which is at most the last
//! round's length after the last moment), at most `MAX_DELAY` ticks; and
//! every action takes at least a tick. And only a battle of at most
//! [`MAX_FIGHTERS`] fighters: the ring's buckets (a `Vec` each, grown by
//! doubling, lent from tick to tick) hold several times the pending events
//! where `TickClock`'s chunks hold about one and a tenth, so at 2x1,000,000
//! this clock's battles went over the 64-byte-a-fighter target where
//! `TickClock`'s stay under it. Below the cap the
//! difference is at most a few megabytes, and the time is what counts. Everything else it does as
//! `TickClock` does, step for step: the same events scheduled in the same
//! order, so each tick's fighters come up in the same order, the same
//! dice, the same moments and labels (tested against both `TickClock` and
//! the Scheduler in `tick/tests.rs`, and battle by battle in `tests/it/systems.rs`). A
//! fallen fighter's events left in the ring come up at their ticks and are
//! skipped, as `TickClock`'s ring skips its cancelled events.

use skirmish_core::dice::{Dice, SeededRolls};
use skirmish_core::timing::{ActorTiming, Declaration, MAX_TICK, TimingSystem, tick_system};

use super::{ACTION, ACTION_TURN, KIND_BITS, KIND_MASK, Profile, TURN, is_alive, payload, read_fighters, too_late};
use crate::clock::{Clock, Tick};
use crate::error::SimError;
use crate::ring::{MAX_DELAY, RING_MASK, Ring};
use crate::roster::reserve_fighters;

/// The most fighters a battle on this clock has (see the module docs).
pub(crate) const MAX_FIGHTERS: usize = 1 << 16;

/// The Tick System without handles (see the module docs).
#[derive(Debug)]
pub(crate) struct LazyTickClock {
    ring: Ring<u32>,
    /// The last tick popped (the core queue's `now`).
    now: u64,
    /// The initiative die.
    die: Dice,
    profiles: Vec<Profile>,
    /// Each fighter's profile.
    profile_of: Vec<u32>,
    /// Each fighter's events in the ring, while it is in the fight (at
    /// most two: an action and a turn).
    pending: Vec<u8>,
    /// Events pending for fighters still in the fight.
    live: usize,
    /// The tick's events being read (the ring's bucket, taken out so that
    /// the turns beginning can schedule meanwhile).
    bucket: Vec<u32>,
    /// A round's initiatives while it is laid out, in fighter order.
    rolled: Vec<(u32, i32)>,
    /// An action that would be done past the last tick, met as its turn
    /// began: the error of the next step (`TickClock` meets it then).
    late: Option<SimError>,
    /// A bit per fighter still in the fight.
    alive: Vec<u64>,
    /// Fighters still in the fight.
    standing: usize,
    round: u32,
    /// The absolute tick before the round's first.
    round_base: u64,
    /// The round's last tick, `round_base + span`: a turn is scheduled only
    /// up to it.
    round_end: u64,
}

impl Default for LazyTickClock {
    fn default() -> Self {
        LazyTickClock {
            ring: Ring::default(),
            now: 0,
            die: Dice::D20,
            profiles: Vec::new(),
            profile_of: Vec::new(),
            pending: Vec::new(),
            live: 0,
            bucket: Vec::new(),
            rolled: Vec::new(),
            late: None,
            alive: Vec::new(),
            standing: 0,
            round: 0,
            round_base: 0,
            round_end: 0,
        }
    }
}

impl LazyTickClock {
    /// Whether this clock runs `system` for these fighters: the Tick
    /// System, at most [`MAX_FIGHTERS`], no disruptible declaration, every
    /// action at least a tick long, and every delay within the ring (see
    /// the module docs).
    pub(crate) fn takes(system: &TimingSystem, fighters: impl Iterator<Item = (ActorTiming, Declaration)>) -> bool {
        let TimingSystem::TickSystem(c) = system else {
            return false;
        };
        let mut count = 0usize;
        let die = match c.initiative_die {
            Dice::Fudge { count } => i64::from(count),
            Dice::Standard { count, sides } => i64::from(count) * i64::from(sides),
        };
        fighters.into_iter().all(|(timing, decl)| {
            count += 1;
            if count > MAX_FIGHTERS {
                return false;
            }
            let ticks = i64::from(decl.action_ticks.unwrap_or(c.action_ticks));
            let highest = die + i64::from(timing.initiative_bonus);
            !decl.disruptible
                && ticks >= 1
                && ticks + i64::from(timing.interval) <= MAX_DELAY
                && 2 * highest <= MAX_DELAY
        })
    }

    /// Readies the clock for a new battle, keeping its memory. Checks what
    /// the Scheduler checks as fighters join.
    pub(crate) fn reset(
        &mut self,
        system: &TimingSystem,
        fighters: impl Iterator<Item = (ActorTiming, Declaration)>,
    ) -> Result<(), SimError> {
        self.die = read_fighters(system, fighters, &mut self.profiles, &mut self.profile_of, |profile| {
            profile
        })?;
        let n = self.profile_of.len();
        reserve_fighters(&mut self.rolled, n)?;
        reserve_fighters(&mut self.pending, n)?;
        reserve_fighters(&mut self.alive, n.div_ceil(64))?;
        self.restart();
        Ok(())
    }

    /// Readies the clock for another battle of the same fighters: everyone
    /// standing, nothing pending, before the first round.
    pub(crate) fn restart(&mut self) {
        let n = self.profile_of.len();
        self.ring.clear();
        self.now = 0;
        self.pending.clear();
        self.pending.resize(n, 0);
        self.live = 0;
        self.bucket.clear();
        self.rolled.clear();
        self.late = None;
        self.alive.clear();
        self.alive.resize(n.div_ceil(64), u64::MAX);
        self.standing = n;
        self.round = 0;
        self.round_base = 0;
        self.round_end = 0;
    }

    /// Fighter `w`'s event `kind` at `tick` (after `now`, within the ring).
    #[inline]
    fn schedule(ring: &mut Ring<u32>, (pending, live): (&mut [u8], &mut usize), tick: u64, w: u32, kind: u32) {
        ring.push(tick, payload(w, kind));
        if let Some(p) = pending.get_mut(w as usize) {
            *p += 1;
        }
        *live += 1;
    }

    /// Rolls and lays out the next round as `TickClock::begin_round` does:
    /// everyone in the fight rolls initiative in fighter order; the highest
    /// (at least 1) is the round's length; first turns in fighter order.
    fn begin_round(&mut self, rolls: &mut SeededRolls) -> Result<(), SimError> {
        let round = super::super::next_round(self.round)?;
        self.rolled.clear();
        // Below any initiative: with nobody rolling, the round is 1 tick.
        let mut highest = i64::MIN;
        // The generator in a local and the lists as slices: their state
        // stays in registers across the stores.
        let mut local = rolls.clone();
        let (profile_of, profiles, alive) = (
            self.profile_of.as_slice(),
            self.profiles.as_slice(),
            self.alive.as_slice(),
        );
        for (w, &profile) in profile_of.iter().enumerate() {
            if !is_alive(alive, w) {
                continue;
            }
            // The die was checked with the options: rolled as `roll` would
            // (one die of a kind: the same one draw as `standard`).
            let roll = match self.die {
                Dice::Fudge { count } => local.fudge(count),
                Dice::Standard { count: 1, sides } => local.below(u64::from(sides)) as i32 + 1,
                Dice::Standard { count, sides } => local.standard(count, sides),
            };
            let bonus = profiles.get(profile as usize).map_or(0, |p| p.bonus);
            let init = tick_system::initiative(roll, bonus);
            highest = highest.max(i64::from(init));
            // (Fewer than `MAX_ACTORS` fighters: `w` fits.)
            self.rolled.push((w as u32, init));
        }
        *rolls = local;
        let base = if self.round == 0 {
            0
        } else {
            self.now.max(self.round_end)
        };
        let h = highest.max(1);
        let span = h.unsigned_abs();
        if base > MAX_TICK || base.saturating_add(span) > MAX_TICK {
            // The initiatives are no turns.
            self.rolled.clear();
            return Err(super::super::past_last_tick());
        }
        self.round = round;
        self.round_base = base;
        self.round_end = base + span;
        let LazyTickClock {
            ring,
            pending,
            live,
            rolled,
            ..
        } = self;
        for &(w, init) in rolled.iter() {
            let d = i64::from(init).clamp(1, h);
            // `h - d` is in `0..h`: the turn is at most `base + span`
            // (`takes`: within the ring).
            let tick = base + (h - d).unsigned_abs() + 1;
            Self::schedule(ring, (pending, live), tick, w, TURN);
        }
        rolled.clear();
        Ok(())
    }
}

impl Clock for LazyTickClock {
    #[inline]
    fn next(&mut self, rolls: &mut SeededRolls, acting: &mut Vec<u32>) -> Result<Option<Tick>, SimError> {
        acting.clear();
        if let Some(late) = self.late.take() {
            return Err(late);
        }
        loop {
            if (self.round == 0 || self.live == 0) && self.standing > 0 {
                self.begin_round(rolls)?;
                return Ok(Some(Tick::NewRound));
            }
            if self.live == 0 {
                return Ok(None);
            }
            // (Every pending event is at most `MAX_DELAY` ticks after the
            // tick it was scheduled at: one turn of the ring finds it.)
            let Some(tick) = self.ring.next(self.now) else {
                return Ok(None);
            };
            let i = (tick & RING_MASK) as usize;
            self.ring.take(i, &mut self.bucket);
            self.now = tick;
            let round_end = self.round_end;
            let LazyTickClock {
                ring,
                bucket,
                profiles,
                profile_of,
                pending,
                live,
                alive,
                late,
                ..
            } = self;
            let mut landed = 0;
            for &ev in bucket.iter() {
                let w = ev >> KIND_BITS;
                // A fallen fighter's event: skipped (its count went with it).
                if !is_alive(alive, w as usize) {
                    continue;
                }
                if let Some(p) = pending.get_mut(w as usize) {
                    *p = p.saturating_sub(1);
                }
                landed += 1;
                let kind = ev & KIND_MASK;
                if kind != TURN {
                    acting.push(w);
                }
                if kind == ACTION {
                    continue;
                }
                // Its turn begins: it starts its action now, where
                // `TickClock` does at the next step. Nothing comes between
                // but the moment, and a fighter that falls in it leaves the
                // events scheduled here to be skipped: the same events, in
                // the same order (the order the turns began), from the same
                // tick (the round began before it).
                let Some(p) = profile_of.get(w as usize).and_then(|&p| profiles.get(p as usize)) else {
                    continue;
                };
                if p.prepare {
                    continue;
                }
                let done = tick.saturating_add(u64::from(p.ticks));
                if done > MAX_TICK {
                    late.get_or_insert_with(|| too_late(tick, p.ticks));
                    continue;
                }
                let next = done + u64::from(p.interval);
                // A turn only while its countdown is at least 1 (`takes`:
                // both within the ring).
                if next <= round_end && p.interval == 0 {
                    Self::schedule(ring, (pending, live), done, w, ACTION_TURN);
                } else {
                    Self::schedule(ring, (pending, live), done, w, ACTION);
                    if next <= round_end {
                        Self::schedule(ring, (pending, live), next, w, TURN);
                    }
                }
            }
            *live -= landed;
            ring.put_back(i, bucket);
            // A tick of turns alone, or of the fallen's events, lands
            // nothing: on to the next (and a late action is this step's
            // error, as `TickClock` meets it there).
            if acting.is_empty() {
                if let Some(late) = self.late.take() {
                    return Err(late);
                }
                continue;
            }
            let end = i64::try_from(self.round_end).unwrap_or(i64::MAX);
            return Ok(Some(Tick::Moment {
                tick,
                round: self.round,
                display: end
                    .saturating_add(1)
                    .saturating_sub(i64::try_from(tick).unwrap_or(i64::MAX)),
                pass: 0,
            }));
        }
    }

    #[inline]
    fn remove(&mut self, who: u32) {
        let w = who as usize;
        if !is_alive(&self.alive, w) {
            return;
        }
        if let Some(bits) = self.alive.get_mut(w / 64) {
            *bits &= !(1 << (w % 64));
        }
        self.standing -= 1;
        // Its events stay in the ring, skipped when they come up.
        if let Some(p) = self.pending.get_mut(w) {
            self.live -= usize::from(*p);
            *p = 0;
        }
    }

    /// Never disrupted: no declaration is disruptible (`takes`), and the
    /// Scheduler asks the declaration as well as the battle's flag.
    #[inline]
    fn disrupt(&mut self, _who: u32, _disruptible: bool) -> bool {
        false
    }

    #[inline]
    fn ready_roll(&mut self, _who: u32, _roll: i32) {}
}
