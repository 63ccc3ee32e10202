//! Continuous timing's clock for FUDGE opposed battles on the fast path:
//! the Continuous fast path's ring of per-tick buckets (`continuous.rs`)
//! behind the [`Clock`] trait, so that the opposed loop drives it as it
//! drives any lean clock.
//!
//! The lean `ContinuousClock` (`clock/mod.rs`) keeps the core `EventQueue`:
//! profiled on the 2x10 FUDGE parity battle, its scheduling and popping
//! cost as much per action as the whole moment's
//! picks and strikes. A FUDGE action draws no `action_dice` word, so its
//! follow-up cannot be scheduled as it strikes (as the Full Contact ring
//! loop does); here the clock keeps the moment's actors and draws their
//! Ready Times at the next call, exactly as `ContinuousClock` does: actors
//! still standing first, in the order they acted, then those who lost
//! their action to a hit, in the order hit; each `2dF + TT - bonus`, at
//! least 1, from the tick of the moment.
//!
//! A pending action is a ring entry of 4 bytes: the fighter, and in a
//! battle with disruption its epoch, live while that epoch is the
//! fighter's. Falling and losing an action to a hit bump the epoch, so
//! cancelling writes nothing into the ring (see `continuous.rs`). The
//! entry keeps the fighter and the epoch's low 10 bits
//! (`continuous::epoch_entry`), which is enough: an epoch moves at most
//! once a tick here (a fighter that acted or was disrupted at a tick
//! cannot be disrupted again at it, and one that fell is not disrupted),
//! and an entry scheduled at tick `t` comes up at `t + rt` with `rt` at
//! most [`MAX_DELAY`](crate::ring::MAX_DELAY), its
//! epoch moving only at the ticks in between: at most 1,022 times, so 10
//! bits cannot wrap onto a stale entry. (Entries were
//! `(fighter, group, epoch)`, 8 bytes, which with the buckets' spare room
//! put a disruptive battle at 2x1,000,000 over the 64-byte-a-fighter
//! target.) In a battle without disruption only a fall leaves an
//! entry stale, so the entry is the fighter alone, live while it stands,
//! and there are no epochs (2 bytes a fighter). A fighter has a pending
//! action to lose unless it acted, or already lost one, at this tick
//! (`busy`). Both put it in `awaiting` until the next call, and nothing
//! else does, so `busy` is a bit per fighter set while it is there (a
//! tick per fighter took 4 bytes of the 64-byte budget).

use skirmish_core::dice::SeededRolls;
use skirmish_core::timing::graduated::ready_time_from;
use skirmish_core::timing::simple::initiative_from;

use super::super::{FastGroup, is_down};
use crate::clock::{Clock, Tick};
use crate::error::SimError;
use crate::ring::{RING_MASK, Ring, WHO_MASK, entry_is_live, epoch_entry};
use crate::roster::reserve_fighters;

/// The ring clock's memory, kept in the workspace from battle to battle.
#[derive(Default)]
pub(crate) struct RingState {
    /// The pending actions: entries as [`epoch_entry`] makes them, the fighter
    /// alone without disruption.
    ring: Ring<u32>,
    /// With disruption, per fighter: moved when it falls or loses its
    /// action to a hit.
    epoch: Vec<u16>,
    /// One bit per fighter: it acted or lost its action at the last
    /// moment's tick (it is in `awaiting`).
    busy: Vec<u64>,
    /// One bit per fighter: fallen (its follow-up is not scheduled).
    gone: Vec<u64>,
    /// Fighters whose next action is drawn at the next call: this
    /// moment's actors, then those who lost theirs.
    awaiting: Vec<u32>,
}

/// Continuous timing on the ring for one battle (see the module docs).
pub(super) struct RingClock<'a> {
    s: &'a mut RingState,
    group_of: &'a [u32],
    groups: &'a [FastGroup],
    /// Ticks per lap of the stopwatch (its rounds), at least 1.
    lap: u64,
    /// The battle has disruption: entries carry epochs.
    epochs: bool,
    /// The tick of the last moment.
    now: u64,
    started: bool,
}

impl<'a> RingClock<'a> {
    /// The clock for a new battle of these fighters, every one to roll
    /// initiative at the first call; `disruption`: some group can lose its
    /// action to a hit.
    pub(super) fn new(
        s: &'a mut RingState,
        (group_of, groups): (&'a [u32], &'a [FastGroup]),
        lap: u64,
        disruption: bool,
    ) -> Result<RingClock<'a>, SimError> {
        let n = group_of.len();
        if disruption {
            reserve_fighters(&mut s.epoch, n)?;
        }
        reserve_fighters(&mut s.busy, n.div_ceil(64))?;
        reserve_fighters(&mut s.gone, n.div_ceil(64))?;
        reserve_fighters(&mut s.awaiting, n)?;
        s.ring.clear();
        s.epoch.clear();
        if disruption {
            s.epoch.resize(n, 0);
        }
        s.busy.clear();
        s.busy.resize(n.div_ceil(64), 0);
        s.gone.clear();
        s.gone.resize(n.div_ceil(64), 0);
        s.awaiting.clear();
        Ok(RingClock {
            s,
            group_of,
            groups,
            lap: lap.max(1),
            epochs: disruption,
            now: 0,
            started: false,
        })
    }

    /// Fighter `w`'s time offset (Time Taken - speed bonus).
    #[inline]
    fn speed(&self, w: u32) -> i64 {
        let g = self.group_of[w as usize];
        i64::from(self.groups[g as usize].speed)
    }

    /// Fighter `w` acts at `tick` (without epochs, epoch 0: the entry is
    /// the fighter alone).
    #[inline]
    fn schedule(&mut self, tick: u64, w: u32) {
        let epoch = self.s.epoch.get(w as usize).copied().unwrap_or(0);
        self.s.ring.push(tick, epoch_entry(w, epoch));
    }
}

impl Clock for RingClock<'_> {
    #[inline]
    fn next(&mut self, rolls: &mut SeededRolls, acting: &mut Vec<u32>) -> Result<Option<Tick>, SimError> {
        acting.clear();
        if !self.started {
            // Initiative for everyone, in order.
            self.started = true;
            for w in 0..self.group_of.len() as u32 {
                let speed = self.speed(w);
                let init = initiative_from(i64::from(rolls.four_df()), speed);
                self.schedule(init as u64, w);
            }
            return Ok(Some(Tick::NewRound));
        }
        // The same again, after its Ready Time.
        for i in 0..self.s.awaiting.len() {
            let w = self.s.awaiting[i];
            set_bit(&mut self.s.busy, w, false);
            if is_down(&self.s.gone, w) {
                continue;
            }
            let speed = self.speed(w);
            let rt = ready_time_from(i64::from(rolls.two_df()), speed);
            self.schedule(self.now + rt as u64, w);
        }
        self.s.awaiting.clear();
        // The next tick with a live entry (a tick of stale ones only, the
        // fallen's and the disrupted's, is no moment).
        let mut at = self.now;
        while let Some(tick) = self.s.ring.next(at) {
            at = tick;
            let i = (tick & RING_MASK) as usize;
            let RingState {
                ring,
                epoch,
                busy,
                gone,
                awaiting,
            } = &mut *self.s;
            let mut take = |w: u32| {
                acting.push(w);
                awaiting.push(w);
                set_bit(busy, w, true);
            };
            if self.epochs {
                ring.pop(i, |&e| {
                    if entry_is_live(epoch, e) {
                        take(e & WHO_MASK);
                    }
                });
            } else {
                ring.pop(i, |&w| {
                    if !is_down(gone, w) {
                        take(w);
                    }
                });
            }
            if !acting.is_empty() {
                self.now = tick;
                return Ok(Some(Tick::Moment {
                    tick,
                    round: u32::try_from((tick - 1) / self.lap + 1).unwrap_or(u32::MAX),
                    display: i64::try_from(tick).unwrap_or(i64::MAX),
                    pass: 0,
                }));
            }
        }
        Ok(None)
    }

    #[inline]
    fn remove(&mut self, who: u32) {
        let w = who as usize;
        if let Some(ep) = self.s.epoch.get_mut(w) {
            *ep = ep.wrapping_add(1);
        }
        set_bit(&mut self.s.gone, who, true);
    }

    #[inline]
    fn disrupt(&mut self, who: u32, disruptible: bool) -> bool {
        let w = who as usize;
        // Acted or already disrupted at this tick: no pending action.
        // (Without epochs, the battle has no disruption: see `new`.)
        if !disruptible || w >= self.s.epoch.len() || is_down(&self.s.busy, who) {
            return false;
        }
        set_bit(&mut self.s.busy, who, true);
        self.s.epoch[w] = self.s.epoch[w].wrapping_add(1);
        self.s.awaiting.push(who);
        true
    }

    #[inline]
    fn ready_roll(&mut self, _who: u32, _roll: i32) {}
}

/// Sets or clears fighter `w`'s bit in `bits`.
#[inline]
fn set_bit(bits: &mut [u64], w: u32, on: bool) {
    if let Some(word) = bits.get_mut(w as usize / 64) {
        let bit = 1u64 << (w % 64);
        *word = if on { *word | bit } else { *word & !bit };
    }
}
