//! A lean clock for the Tick System ("The Tick System"; docs/rules.md §1.5).
//!
//! The core [`Scheduler`](skirmish_core::timing::Scheduler) runs the Tick
//! System for the live tracker, with everything a table needs (free
//! actions, interrupts, held turns, Acquire, Prepare's defense bonus,
//! entered initiative): per-actor state of ~200 bytes with a `Vec` of
//! pending events, a plan built per follow-up and a layout per round.
//! Profiled, a battle paid for all of it in time per action and memory
//! per fighter. A battle uses none of that: its fighters only
//! do "the same again", fall, or lose an action to a hit.
//!
//! This clock keeps a 12-byte record per fighter (the handles of its
//! pending action and turn, and its profile: what its group's fighters
//! share, their action ticks, Interval, initiative bonus and declaration's
//! flags, kept once per run of equal fighters) and its own queue, a ring
//! of tick buckets (`tick/ring.rs`: about 4.3 bytes per pending event in
//! 64-byte chunks, where the core
//! [`EventQueue`](skirmish_core::timing::queue::EventQueue) kept about 48,
//! and a fraction of its work). It schedules and cancels the
//! events the Scheduler does, on the same ticks and in the same order, and
//! the ring pops a tick's events in the order they were scheduled, as the
//! core queue does, so every tick pops the same fighters in the same order.
//! One saving: an action and the turn the Scheduler schedules right after
//! it on the same tick (an Interval of 0) are one event, as nothing can
//! come between them. It draws the same dice in the same order (only
//! initiative: at each round's start, one roll of the system's die per
//! fighter still in the fight, in fighter order) and hands the battle the
//! same steps, ticks, rounds and labels as
//! [`SchedulerClock`](super::SchedulerClock) does, so a seeded battle is
//! identical on either clock (`tests/it/systems.rs` pins the digests and
//! compares the two report by report; the unit tests (`tick/tests.rs`) drive both step
//! for step). Its cost per action and memory per fighter are measured in
//! docs/performance.md ("Every timing system and targeting policy",
//! "Memory per fighter at 2x1,000,000"); the chunks and the alive bits
//! are for the cache at 2x100,000, not for instructions.
//!
//! The Scheduler's rules it keeps:
//!
//! - A round: initiative = die + initiative bonus; `h` = the highest (at
//!   least 1) is the round's length. A fighter's first turn is on
//!   countdown tick `clamp(initiative, 1, h)`, that is absolute tick
//!   `base + h - clamp + 1`; turns are scheduled in fighter order.
//! - At a turn (handed on at the next step, after the battle resolved the
//!   moment: turns land nothing), the fighter starts its action: it is done
//!   (and lands) `ticks` later (the declaration's action ticks, else the
//!   system's), and the next turn is `interval` after that, if its
//!   countdown is still at least 1. Action first, then the turn, for the
//!   fighters whose turns began, in the order they began. A tick with only
//!   turns is no moment: the clock goes on to the next.
//! - "The same again" is the declaration repeated: Acquire's extra ticks
//!   (a ranged attack on a new target) never apply, as a repeated
//!   declaration has no new target; a Prepare declaration starts nothing
//!   (the fighter only prepares, turn after turn).
//! - The round ends when nothing is pending; the next begins at
//!   `max(now, base + h)`.
//! - A disruption (a disruptible fighter hit while its action is in
//!   progress) loses the action and the coming turn; the next turn is
//!   `interval` from now, if that is later than now and still in the
//!   round. A fallen fighter's pending action and turn go.
//!
//! The Scheduler's table-only operations (interrupts, entered initiative,
//! timers) are never used by a battle; its free actions and held turns are
//! used only by a battle whose groups defend as a free action or prepare
//! (`defend`, `prepare`), which runs on the Scheduler itself
//! (`Battle::use_lean_clock`). So every other Tick System battle runs
//! here ([`TickClock::handles`]).

mod lazy;
mod ring;

use skirmish_core::dice::{Dice, SeededRolls};
use skirmish_core::timing::{ActionKind, ActorTiming, Declaration, MAX_TICK, TimingSystem, tick_system};

pub(crate) use self::lazy::LazyTickClock;
use self::ring::{NONE, TickRing};
use super::{Clock, Tick};
use crate::error::SimError;
use crate::roster::reserve_fighters;

/// An event's payload: the fighter shifted left by [`KIND_BITS`], and
/// what happens: [`ACTION`], [`TURN`] or [`ACTION_TURN`]. Fighters are
/// fewer than `MAX_ACTORS` (10,000,000), so it fits (and is never the
/// ring's dead mark, `u32::MAX`).
const KIND_BITS: u32 = 2;
/// The fighter's action lands.
const ACTION: u32 = 0;
/// The fighter's turn begins.
const TURN: u32 = 1;
/// Both, the action first: an action followed by the next turn on the
/// same tick (an Interval of 0). The Scheduler schedules the two one
/// after the other, so nothing can come between them on that tick: one
/// event stands for both, and the queue does half the work.
const ACTION_TURN: u32 = 2;
/// The bits of the kind.
const KIND_MASK: u32 = (1 << KIND_BITS) - 1;

/// The payload of `kind` for fighter `w`.
#[inline]
const fn payload(w: u32, kind: u32) -> u32 {
    w << KIND_BITS | kind
}

/// Whether fighter `w` is still in the fight, by the bits of
/// [`TickClock::alive`].
#[inline]
fn is_alive(alive: &[u64], w: usize) -> bool {
    alive.get(w / 64).is_some_and(|bits| bits & (1 << (w % 64)) != 0)
}

/// One fighter's timing, 12 bytes.
#[derive(Debug, Clone, Copy)]
struct Fighter {
    /// The action in progress: its landing event's node ([`NONE`]: none).
    /// At a round's start, while the round is laid out, its initiative
    /// instead (see [`TickClock::begin_round`]).
    action: u32,
    /// The coming turn's node ([`NONE`]: none; the same node as `action`
    /// for an [`ACTION_TURN`]).
    turn: u32,
    /// Its profile's index in [`TickClock::profiles`].
    profile: u32,
}

/// What a run of fighters with the same traits and declaration share.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Profile {
    /// Ticks its action takes.
    ticks: u32,
    /// Ticks it waits after an action (the Interval).
    interval: u32,
    /// Added to the initiative die.
    bonus: i32,
    /// Its declaration is Prepare: it starts no action.
    prepare: bool,
    /// Its declaration is disruptible (the Scheduler asks the declaration,
    /// as well as the battle's flag).
    disruptible: bool,
}

/// The Tick System on plain arrays (see the module docs).
#[derive(Debug)]
pub(crate) struct TickClock {
    ring: TickRing,
    /// The initiative die.
    die: Dice,
    fighters: Vec<Fighter>,
    profiles: Vec<Profile>,
    /// Fighters whose turn began at the last tick, in the order they began,
    /// with their profiles' indices. The fallen stay on it and are skipped.
    awaiting: Vec<(u32, u32)>,
    /// A bit per fighter still in the fight (the one place that says so):
    /// starting the actions of a tick's turns (thousands of fighters in a
    /// large battle, in no order) reads these bits and the profile kept in
    /// `awaiting`, not each fighter's record, which the moment in between
    /// has pushed out of the cache (a stall on every one at 2x100,000).
    alive: Vec<u64>,
    /// Fighters still in the fight.
    standing: usize,
    round: u32,
    /// The absolute tick before the round's first.
    round_base: u64,
    /// The round's length in ticks (its highest initiative, at least 1).
    span: u64,
    /// The round's last tick, `round_base + span` (at most `MAX_TICK`): a
    /// turn is scheduled only up to it (its countdown at least 1).
    round_end: u64,
}

impl Default for TickClock {
    fn default() -> Self {
        TickClock {
            ring: TickRing::default(),
            die: Dice::D20,
            fighters: Vec::new(),
            profiles: Vec::new(),
            awaiting: Vec::new(),
            alive: Vec::new(),
            standing: 0,
            round: 0,
            round_base: 0,
            span: 0,
            round_end: 0,
        }
    }
}

impl TickClock {
    /// Whether this clock runs `system` for fighters with these
    /// declarations: the Tick System, whatever its options and the
    /// declarations (see the module docs: a battle only repeats them).
    pub(crate) fn handles(system: &TimingSystem, _declarations: impl Iterator<Item = Declaration>) -> bool {
        matches!(system, TimingSystem::TickSystem(_))
    }

    /// Readies the clock for a new battle, keeping its memory. Checks what
    /// the Scheduler checks as fighters join (the system's options, each
    /// fighter's traits and declaration, the number of fighters).
    pub(crate) fn reset(
        &mut self,
        system: &TimingSystem,
        fighters: impl Iterator<Item = (ActorTiming, Declaration)>,
    ) -> Result<(), SimError> {
        self.die = read_fighters(system, fighters, &mut self.profiles, &mut self.fighters, |profile| {
            Fighter {
                action: NONE,
                turn: NONE,
                profile,
            }
        })?;
        reserve_fighters(&mut self.awaiting, self.fighters.len())?;
        reserve_fighters(&mut self.alive, self.fighters.len().div_ceil(64))?;
        self.restart_with(2 * self.fighters.len())
    }

    /// Readies the clock for another battle of the same fighters (as
    /// [`reset`](Self::reset) left them): everyone standing, nothing
    /// pending, before the first round.
    pub(crate) fn restart(&mut self) {
        // The room was reserved by `reset`, which this follows.
        let _ = self.restart_with(0);
    }

    /// [`restart`](Self::restart), with room for `events` pending events.
    fn restart_with(&mut self, events: usize) -> Result<(), SimError> {
        let reserved = self.ring.reset(events);
        for f in &mut self.fighters {
            f.action = NONE;
            f.turn = NONE;
        }
        self.awaiting.clear();
        self.alive.clear();
        self.alive.resize(self.fighters.len().div_ceil(64), u64::MAX);
        self.standing = self.fighters.len();
        self.round = 0;
        self.round_base = 0;
        self.span = 0;
        self.round_end = 0;
        reserved
    }

    /// The countdown tick of absolute tick `t` this round (the Scheduler's
    /// `countdown`: `base + span + 1 - t`, saturating).
    #[inline]
    fn countdown(&self, t: u64) -> i64 {
        let end = i64::try_from(self.round_end).unwrap_or(i64::MAX);
        end.saturating_add(1)
            .saturating_sub(i64::try_from(t).unwrap_or(i64::MAX))
    }

    /// The tick declarations count from: the last moment, or the round's
    /// start if it began since.
    #[inline]
    fn current_tick(&self) -> u64 {
        self.ring.now().max(self.round_base)
    }

    /// The fighters whose turns began start their actions, in the order
    /// the turns began: each lands when done, and the next turn follows
    /// its interval later if the round still has it.
    #[inline]
    fn start_actions(&mut self) -> Result<(), SimError> {
        if self.awaiting.is_empty() {
            return Ok(());
        }
        let now = self.current_tick();
        let n = self.fighters.len();
        let round_end = self.round_end;
        let TickClock {
            ring,
            fighters,
            profiles,
            awaiting,
            alive,
            ..
        } = self;
        for &(w, profile) in awaiting.iter() {
            if !is_alive(alive, w as usize) {
                continue;
            }
            let Some(p) = profiles.get(profile as usize) else {
                continue;
            };
            if p.prepare {
                continue;
            }
            // `now` is at most `MAX_TICK`: no overflow.
            let done = now.saturating_add(u64::from(p.ticks));
            if done > MAX_TICK {
                return Err(too_late(now, p.ticks));
            }
            let next = done + u64::from(p.interval);
            // A turn only while its countdown is at least 1.
            let (action, turn) = match (next <= round_end, p.interval) {
                (true, 0) => {
                    let id = ring.schedule(done, payload(w, ACTION_TURN)).map_err(|r| r.error(n))?;
                    (id, id)
                }
                (has_turn, _) => {
                    let action = ring.schedule(done, payload(w, ACTION)).map_err(|r| r.error(n))?;
                    let turn = if has_turn {
                        ring.schedule(next, payload(w, TURN)).map_err(|r| r.error(n))?
                    } else {
                        NONE
                    };
                    (action, turn)
                }
            };
            if let Some(f) = fighters.get_mut(w as usize) {
                f.action = action;
                f.turn = turn;
            }
        }
        self.awaiting.clear();
        Ok(())
    }

    /// Rolls and lays out the next round: everyone in the fight rolls
    /// initiative in fighter order; the highest sets the round's length;
    /// first turns in fighter order. Nothing is pending (the last round
    /// is over), so each fighter's `action` holds its initiative meanwhile.
    fn begin_round(&mut self, rolls: &mut SeededRolls) -> Result<(), SimError> {
        let round = super::next_round(self.round)?;
        // Below any initiative: with nobody rolling, the round is 1 tick.
        let mut highest = i64::MIN;
        for (w, f) in self.fighters.iter_mut().enumerate() {
            if !is_alive(&self.alive, w) {
                continue;
            }
            // The die was checked with the options: rolled as `roll` would.
            let roll = match self.die {
                Dice::Fudge { count } => rolls.fudge(count),
                Dice::Standard { count, sides } => rolls.standard(count, sides),
            };
            let bonus = self.profiles.get(f.profile as usize).map_or(0, |p| p.bonus);
            // At most 40 dice of 1,000,000 sides and a bonus of at most
            // 1,000,000 either way (checked with the options and traits):
            // exact in an `i32`.
            let init = tick_system::initiative(roll, bonus);
            f.action = u32::from_ne_bytes(init.to_ne_bytes());
            highest = highest.max(i64::from(init));
        }
        let laid = self.lay_out(round, highest);
        if laid.is_err() {
            // The initiatives are no events.
            for (w, f) in self.fighters.iter_mut().enumerate() {
                if is_alive(&self.alive, w) && f.turn == NONE {
                    f.action = NONE;
                }
            }
        }
        laid
    }

    /// [`begin_round`](Self::begin_round)'s second half: the round's ticks
    /// and every first turn, from the initiatives in the fighters' `action`
    /// and the `highest` of them (`i64::MIN` if nobody rolled).
    fn lay_out(&mut self, round: u32, highest: i64) -> Result<(), SimError> {
        let base = if self.round == 0 {
            0
        } else {
            self.ring.now().max(self.round_end)
        };
        if base > MAX_TICK {
            return Err(super::past_last_tick());
        }
        let h = highest.max(1);
        let span = h.unsigned_abs();
        if base.saturating_add(span) > MAX_TICK {
            return Err(super::past_last_tick());
        }
        self.round = round;
        self.round_base = base;
        self.span = span;
        self.round_end = base + span;
        let n = self.fighters.len();
        let TickClock {
            ring, fighters, alive, ..
        } = self;
        for (w, f) in fighters.iter_mut().enumerate() {
            if !is_alive(alive, w) {
                continue;
            }
            let init = i32::from_ne_bytes(f.action.to_ne_bytes());
            let d = i64::from(init).clamp(1, h);
            // `h - d` is in `0..h`: the turn is at most `base + span`.
            let tick = base + (h - d).unsigned_abs() + 1;
            // Fewer than `MAX_ACTORS` fighters: `w` fits.
            let id = ring.schedule(tick, payload(w as u32, TURN)).map_err(|r| r.error(n))?;
            f.action = NONE;
            f.turn = id;
        }
        Ok(())
    }
}

/// Reads the fighters as both Tick System clocks keep them (this one and
/// [`LazyTickClock`]): checks what the Scheduler checks as they join (the
/// system's options, each fighter's traits and declaration, the number of
/// fighters), fills `profiles` (one per run of equal fighters) and `out`
/// with `record(profile)` for each fighter, in fighter order. Returns the
/// initiative die.
fn read_fighters<T>(
    system: &TimingSystem,
    fighters: impl Iterator<Item = (ActorTiming, Declaration)>,
    profiles: &mut Vec<Profile>,
    out: &mut Vec<T>,
    record: impl Fn(u32) -> T,
) -> Result<Dice, SimError> {
    system.validate().map_err(SimError::rules)?;
    let TimingSystem::TickSystem(c) = system else {
        return Err(SimError::Scenario(format!(
            "the Tick System's clock cannot run {}",
            system.name()
        )));
    };
    profiles.clear();
    out.clear();
    // Room for every fighter first: a battle too big for memory is an
    // error naming its size, not an abort (as the battle's own arrays).
    reserve_fighters(out, fighters.size_hint().0)?;
    let mut last: Option<(ActorTiming, Declaration)> = None;
    for (count, (timing, decl)) in fighters.enumerate() {
        super::admit(&mut last, timing, decl, count)?;
        let profile = Profile {
            ticks: decl.action_ticks.unwrap_or(c.action_ticks),
            interval: timing.interval,
            bonus: timing.initiative_bonus,
            prepare: decl.kind == ActionKind::Prepare,
            disruptible: decl.disruptible,
        };
        if profiles.last() != Some(&profile) {
            push_counted(profiles, profile)?;
        }
        // Fewer than `MAX_ACTORS` profiles (`admit` counts): a u32.
        push_counted(out, record(u32::try_from(profiles.len() - 1).unwrap_or(0)))?;
    }
    Ok(c.initiative_die)
}

/// Pushes `x`, growing `v` by doubling, or [`SimError::OutOfMemory`]
/// naming its length (never an abort).
fn push_counted<T>(v: &mut Vec<T>, x: T) -> Result<(), SimError> {
    if v.len() == v.capacity() {
        let more = v.len().max(4) * 2;
        reserve_fighters(v, more)?;
    }
    v.push(x);
    Ok(())
}

/// An action that would be done after the last tick (the Scheduler's own
/// error, naming the declaration's action ticks).
#[cold]
fn too_late(now: u64, ticks: u32) -> SimError {
    SimError::rules(skirmish_core::Error::out_of_range(
        "declaration.action_ticks",
        ticks,
        0,
        MAX_TICK.saturating_sub(now),
    ))
}

impl Clock for TickClock {
    #[inline]
    fn next(&mut self, rolls: &mut SeededRolls, acting: &mut Vec<u32>) -> Result<Option<Tick>, SimError> {
        acting.clear();
        loop {
            self.start_actions()?;
            if (self.round == 0 || self.ring.is_empty()) && self.standing > 0 {
                self.begin_round(rolls)?;
                return Ok(Some(Tick::NewRound));
            }
            let n = self.fighters.len();
            let fighters = &mut self.fighters;
            let awaiting = &mut self.awaiting;
            let popped = self.ring.pop_tick(|ev| {
                let w = ev >> KIND_BITS;
                let Some(f) = fighters.get_mut(w as usize) else {
                    return;
                };
                match ev & KIND_MASK {
                    ACTION => {
                        f.action = NONE;
                        acting.push(w);
                    }
                    TURN => {
                        f.turn = NONE;
                        awaiting.push((w, f.profile));
                    }
                    _ => {
                        f.action = NONE;
                        f.turn = NONE;
                        acting.push(w);
                        awaiting.push((w, f.profile));
                    }
                }
            });
            // A far event moved into the ring has a new handle.
            self.ring.drain_moved(|ev, old, new| {
                if let Some(f) = fighters.get_mut((ev >> KIND_BITS) as usize) {
                    if f.action == old {
                        f.action = new;
                    }
                    if f.turn == old {
                        f.turn = new;
                    }
                }
            });
            let Some(tick) = popped.map_err(|r| r.error(n))? else {
                return Ok(None);
            };
            // A tick of turns alone lands nothing: on to the next.
            if acting.is_empty() {
                continue;
            }
            return Ok(Some(Tick::Moment {
                tick,
                round: self.round,
                display: self.countdown(tick),
                pass: 0,
            }));
        }
    }

    #[inline]
    fn remove(&mut self, who: u32) {
        let Some(f) = self.fighters.get_mut(who as usize) else {
            return;
        };
        if !is_alive(&self.alive, who as usize) {
            return;
        }
        if let Some(bits) = self.alive.get_mut(who as usize / 64) {
            *bits &= !(1 << (who % 64));
        }
        self.standing -= 1;
        let (action, turn) = (f.action, f.turn);
        f.action = NONE;
        f.turn = NONE;
        if action != NONE {
            self.ring.cancel(action);
        }
        // (Already gone if it was the same event.)
        if turn != NONE && turn != action {
            self.ring.cancel(turn);
        }
        // A fighter whose turn began stays on `awaiting`, skipped.
    }

    /// A disruptible fighter's action in progress is lost with its coming
    /// turn; it waits its interval from now for the next, if the round
    /// still has it.
    #[inline]
    fn disrupt(&mut self, who: u32, disruptible: bool) -> bool {
        let now = self.ring.now();
        let next_from = self.current_tick();
        let Some(f) = self.fighters.get_mut(who as usize) else {
            return false;
        };
        let Some(&p) = self.profiles.get(f.profile as usize) else {
            return false;
        };
        if !disruptible || !p.disruptible || !is_alive(&self.alive, who as usize) || f.action == NONE {
            return false;
        }
        let (action, turn) = (f.action, f.turn);
        f.action = NONE;
        f.turn = NONE;
        self.ring.cancel(action);
        // (Already gone if it was the same event.)
        if turn != NONE && turn != action {
            self.ring.cancel(turn);
        }
        // Within the round, so at most `MAX_TICK`.
        let next = next_from.saturating_add(u64::from(p.interval));
        if next <= self.round_end && next > now {
            match self.ring.schedule(next, payload(who, TURN)) {
                Ok(id) => self.fighters[who as usize].turn = id,
                // The Scheduler's `disrupt` errs, which its clock reads as
                // no disruption (unreachable: the tick is in the round).
                Err(_) => return false,
            }
        }
        true
    }

    #[inline]
    fn ready_roll(&mut self, _who: u32, _roll: i32) {}
}

#[cfg(test)]
mod tests;
