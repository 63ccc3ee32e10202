//! A lean clock for Graduated Rounds with the default past-the-end policy,
//! "extend the round".
//!
//! Graduated Rounds is Continuous timing inside rounds: each fighter's
//! first action of a round lands on its initiative (4dF + 5 + Time Taken -
//! speed bonus, at least 1, counted from the round's start), each further
//! one a Ready Time (2dF + Time Taken - speed bonus, at least 1) after the
//! last, up to its actions for the round (Rate of Fire and extra attacks);
//! the round ends when no action of it is pending, and the next begins at
//! `max(now, start + ticks per round)`. The clock draws the dice exactly
//! when and in the order the core Scheduler does (follow-ups' Ready Times
//! at the next step, in the order the fighters landed, then disrupted; a
//! new round's initiatives in fighter order once nothing is pending), so a
//! seeded battle is identical on either clock (`tests/it/systems.rs`).
//!
//! **Why a round is laid out, and only follow-ups queued.** The Scheduler
//! (and this clock's first version) schedules every action through the
//! core [`EventQueue`](skirmish_core::timing::queue::EventQueue): a slab slot, a bucket entry and a pop per action,
//! a large share of a battle's instructions at 2x10. But every first action
//! of a round is scheduled at the round's start, in fighter order, before
//! any follow-up of it; the queue pops a tick's events in scheduling order.
//! So the round's first actions land in (tick, fighter) order, ahead of any
//! follow-up on the same tick: they are laid out as one list, sorted by
//! initiative (a stable counting sort, as Simple Rounds' round of single
//! actions in `rounds.rs`), and walked with a cursor. Only follow-ups (a
//! second action of the round, a disrupted fighter's new one) are queued,
//! on a ring of tick buckets (below), merged with the list by tick, the
//! list's first on a tied tick. A battle of one action a round and no
//! disruptible declaration (the parity battle) never touches the ring,
//! and keeps per fighter an 8-byte record, its place in the fight's list
//! and in the round's.
//!
//! **Why follow-ups are a ring, not the core queue.** The queue keeps a
//! follow-up in a 32-byte slab slot plus a bucket entry, and its id (12
//! bytes) per fighter to cancel it: with disruption, where hundreds of
//! thousands are pending at once, that put a 2x1,000,000 battle over the
//! 64-byte-a-fighter target. Follow-ups are now the FUDGE
//! ring clock's 4-byte entries in per-tick buckets (`ring::Ring`, FIFO
//! within a tick as the queue is): the fighter, and with a disruptible
//! declaration its epoch's low bits, moved each time a queued follow-up is
//! dropped, so a dropped entry left in the ring no longer matches
//! (`ring::epoch_entry`: an epoch moves at most once a tick, a fighter
//! dropped at a moment being idle until the next, and a follow-up comes
//! up at most `MAX_DELAY` ticks after it was scheduled). The clock takes a
//! battle only if every Ready Time fits the ring (`handles`). Every
//! bucket up to a moment's tick is emptied by then, and the ring is
//! emptied whenever no follow-up is pending, so no entry outlives the
//! ticks it was scheduled within.
//!
//! The other past-the-end policies (spill, end of round, lose) and
//! declarations with extra preparation or GM timing stay with the
//! Scheduler ([`GraduatedClock::handles`]).

use skirmish_core::dice::SeededRolls;
use skirmish_core::tables::weapons::RateOfFire;
use skirmish_core::timing::graduated::{longest_ready_time, ready_time_from};
use skirmish_core::timing::simple::{highest_initiative, initiative_from};
use skirmish_core::timing::{ActorTiming, Declaration, MAX_TICK, PastEnd, TimingSystem};

use super::{Clock, Tick};
use crate::error::SimError;
use crate::ring::{MAX_DELAY, RING_MASK, Ring, WHO_MASK, entry_is_live, epoch_entry};
use crate::roster::reserve_fighters;

/// Initiatives up to this many ticks are sorted by counting; beyond, by a
/// (stable) sort.
const COUNTING_SORT_SPAN: u64 = 4096;

/// A round of at most this many fighters is sorted by insertion as they
/// roll: no buckets to clear and sum.
const SMALL_ROUND: usize = 8;

/// Most runs of fighters with the same declaration (profiles) a battle
/// may have here: a scenario's groups are fewer ([`MAX_GROUPS`]).
///
/// [`MAX_GROUPS`]: crate::scenario::MAX_GROUPS
const MAX_PROFILES: usize = 1 << 16;

/// What a run of fighters with the same declaration share (a group's
/// fighters: read once per battle, not kept per fighter).
#[derive(Debug, Clone, Copy)]
struct Profile {
    /// The declaration's time offset (Time Taken - speed bonus: no extra
    /// preparation on this clock, see `handles`).
    speed: i64,
    /// The declaration's Rate of Fire and extra attacks.
    rate_of_fire: RateOfFire,
    extra_attacks: u32,
    /// Actions allowed this round (`actions_in_round`: every fighter has
    /// been in the fight since round 1, so this is its round of use).
    allowed: u16,
    /// The declaration is disruptible (the Scheduler asks the declaration,
    /// as well as the battle's flag).
    disruptible: bool,
}

impl Profile {
    /// Actions in round `round`: Rate of Fire and extra attacks.
    fn allowed_in(&self, round: u32) -> u16 {
        super::actions_in_round(self.rate_of_fire, self.extra_attacks, round)
    }
}

/// Where a fighter's next action of the round is.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
enum Pending {
    /// None pending.
    #[default]
    Idle,
    /// Its first action, in the round's list.
    Listed,
    /// A follow-up, in the ring.
    Queued,
}

/// One fighter: its profile and its state this round, 8 bytes (its
/// actions allowed this round are its profile's: everyone in the fight
/// has been since round 1).
#[derive(Debug, Clone, Copy, Default)]
struct Slot {
    /// Index in `profiles` (at most [`MAX_PROFILES`]).
    profile: u16,
    /// Its initiative this round (ticks after the round's start): at most
    /// `MAX_DELAY + 7`, every speed fitting the ring (`reset`).
    init: u16,
    /// Actions of the round that landed.
    nth: u16,
    pending: Pending,
    /// Still in the fight.
    alive: bool,
}

/// Graduated Rounds (extend the round) on flat arrays (see the module docs).
#[derive(Debug)]
pub(crate) struct GraduatedClock {
    ticks_per_round: u64,
    profiles: Vec<Profile>,
    /// Some profile's actions change from round to round (a Rate of Fire
    /// over more than one round).
    varies: bool,
    /// Some profile has more than one action this round: a first action
    /// may be followed up (else none is, and the list's walk asks no
    /// profile).
    follow_ups: bool,
    /// The highest initiative anyone can roll: the counting sort's
    /// buckets, sized once per battle.
    init_cap: u64,
    /// Per fighter.
    fighters: Vec<Slot>,
    /// Fighters in the fight, in fighter order (the fallen are dropped at
    /// the next round).
    active: Vec<u32>,
    /// Fighters standing.
    standing: usize,
    /// This round's first actions in the order they land: fighters by
    /// initiative, fighter order within one.
    order: Vec<u32>,
    /// The next entry of `order`.
    cursor: usize,
    /// Counting sort buckets.
    counts: Vec<u32>,
    /// Follow-ups: entries as `ring::epoch_entry` makes them, FIFO within
    /// a tick, with the dropped ones still in place.
    ring: Ring<u32>,
    /// Some declaration is disruptible: entries carry epochs.
    disruptive: bool,
    /// Per fighter when `disruptive`, sized at a battle's first follow-up
    /// (else empty): moved each time its queued follow-up is dropped.
    epochs: Vec<u16>,
    /// Follow-ups pending in the ring (the dropped ones not counted).
    queued: usize,
    /// Actions pending (listed and queued).
    live: usize,
    /// Fighters to follow up, in the order they landed (then disrupted).
    awaiting: Vec<u32>,
    round: u32,
    round_base: u64,
    /// The tick of the last moment.
    now: u64,
}

impl Default for GraduatedClock {
    fn default() -> Self {
        GraduatedClock {
            ticks_per_round: 20,
            profiles: Vec::new(),
            varies: false,
            follow_ups: false,
            init_cap: 0,
            fighters: Vec::new(),
            active: Vec::new(),
            standing: 0,
            order: Vec::new(),
            cursor: 0,
            counts: Vec::new(),
            ring: Ring::default(),
            disruptive: false,
            epochs: Vec::new(),
            queued: 0,
            live: 0,
            awaiting: Vec::new(),
            round: 0,
            round_base: 0,
            now: 0,
        }
    }
}

impl GraduatedClock {
    /// Whether this clock runs `system` for fighters with these
    /// declarations: Graduated Rounds that extend the round, no extra
    /// preparation (the Scheduler drops it after a fighter's first
    /// follow-up), no GM timing, every Ready Time (`2dF + speed`, at most
    /// `speed + 2`) within the ring's [`MAX_DELAY`].
    pub(crate) fn handles(system: &TimingSystem, declarations: impl Iterator<Item = Declaration>) -> bool {
        matches!(system, TimingSystem::GraduatedRounds(c) if c.past_end == PastEnd::Extend)
            && declarations
                .into_iter()
                .all(|d| d.gm.is_none() && d.extra_preparation == 0 && longest_ready_time(d.time_offset()) <= MAX_DELAY)
    }

    /// Readies the clock for a new battle, keeping its memory. Checks what
    /// the Scheduler checks as fighters join.
    pub(crate) fn reset(
        &mut self,
        system: &TimingSystem,
        fighters: impl Iterator<Item = (ActorTiming, Declaration)>,
    ) -> Result<(), SimError> {
        system.validate().map_err(SimError::rules)?;
        if let TimingSystem::GraduatedRounds(c) = system {
            self.ticks_per_round = u64::from(c.ticks_per_round);
        }
        self.profiles.clear();
        self.fighters.clear();
        self.epochs.clear();
        // Room for every fighter first: a battle too big for memory is an
        // error naming its size, not an abort (as the battle's own arrays).
        let n = fighters.size_hint().0;
        reserve_fighters(&mut self.fighters, n)?;
        reserve_fighters(&mut self.active, n)?;
        reserve_fighters(&mut self.order, n)?;
        let mut last: Option<(ActorTiming, Declaration)> = None;
        for (timing, decl) in fighters {
            let new_run = last != Some((timing, decl));
            super::admit(&mut last, timing, decl, self.fighters.len())?;
            if new_run || self.profiles.is_empty() {
                // (`handles` takes no other battle: checked for what calls
                // the clock directly.)
                let speed = decl.time_offset();
                if longest_ready_time(speed) > MAX_DELAY || self.profiles.len() == MAX_PROFILES {
                    return Err(SimError::rules(skirmish_core::Error::invalid(
                        "timing",
                        "Graduated Rounds' lean clock takes at most 65,536 runs of fighters, each a Time Taken \
                         minus speed bonus of at most 1,021 ticks",
                    )));
                }
                self.profiles.push(Profile {
                    speed,
                    rate_of_fire: decl.rate_of_fire,
                    extra_attacks: decl.extra_attacks,
                    allowed: 0,
                    disruptible: decl.disruptible,
                });
            }
            self.fighters.push(Slot {
                profile: u16::try_from(self.profiles.len() - 1).unwrap_or(u16::MAX),
                ..Slot::default()
            });
        }
        // Everyone may await a Ready Time, or land, at one tick.
        let n = self.fighters.len();
        reserve_fighters(&mut self.awaiting, n)?;
        self.disruptive = self.profiles.iter().any(|p| p.disruptible);
        self.varies = self.profiles.iter().any(|p| p.rate_of_fire.rounds() > 1);
        for p in &mut self.profiles {
            p.allowed = p.allowed_in(1);
        }
        self.init_cap = self
            .profiles
            .iter()
            .map(|p| u64::try_from(highest_initiative(p.speed)).unwrap_or(u64::MAX))
            .max()
            .unwrap_or(0);
        self.restart();
        Ok(())
    }

    /// Readies the clock for another battle of the same fighters (as
    /// [`reset`](Self::reset) left them): everyone standing, nothing
    /// pending, before the first round.
    pub(crate) fn restart(&mut self) {
        self.ring.clear();
        self.epochs.clear();
        for f in &mut self.fighters {
            *f = Slot {
                profile: f.profile,
                alive: true,
                ..Slot::default()
            };
        }
        self.active.clear();
        self.active
            .extend(0..u32::try_from(self.fighters.len()).unwrap_or(u32::MAX));
        self.standing = self.fighters.len();
        self.order.clear();
        self.cursor = 0;
        self.awaiting.clear();
        self.queued = 0;
        self.live = 0;
        self.round = 0;
        self.round_base = 0;
        self.now = 0;
    }

    /// Rolls and lays out the next round: everyone in the fight rolls
    /// initiative in fighter order; those with an action this round act
    /// first on it, by initiative, fighter order within one.
    #[inline(never)]
    fn begin_round(&mut self, rolls: &mut SeededRolls) -> Result<(), SimError> {
        let round = super::next_round(self.round)?;
        let base = if self.round == 0 {
            0
        } else {
            self.now.max(self.round_base.saturating_add(self.ticks_per_round))
        };
        if base > MAX_TICK {
            return Err(super::past_last_tick());
        }
        if self.varies || round == 1 {
            for p in &mut self.profiles {
                p.allowed = p.allowed_in(round);
            }
            self.follow_ups = self.profiles.iter().any(|p| p.allowed > 1);
        }
        // `order` by initiative, fighter order within one: a few fighters
        // (a party and its foes) inserted in order as they roll; more, with
        // initiatives in a short range (the common case), counted as they
        // roll, then placed (a stable counting sort).
        let small = self.active.len() <= SMALL_ROUND;
        let fused = !small && self.init_cap <= COUNTING_SORT_SPAN;
        if small {
            self.order.clear();
        }
        if fused {
            let len = self.init_cap as usize + 2;
            if self.counts.len() == len {
                self.counts.fill(0);
            } else {
                self.counts.clear();
                self.counts.resize(len, 0);
            }
        }
        // Initiative and actions, in fighter order (the dice's order); the
        // fallen leave the list as it is walked. The lists as slices and
        // the generator in a local: through `self`, every store to a
        // record made the compiler load each list's pointer and length and
        // the generator's state again.
        let (fighters, profiles) = (self.fighters.as_mut_slice(), self.profiles.as_slice());
        let counts: &mut [u32] = if fused { &mut self.counts } else { &mut [] };
        let mut local = rolls.clone();
        let list = self.active.as_mut_slice();
        let mut kept = 0;
        let mut listed = 0usize;
        let mut top = 0i64;
        for i in 0..list.len() {
            let w = list[i];
            let Some(f) = fighters.get_mut(w as usize) else {
                continue;
            };
            if !f.alive {
                continue;
            }
            list[kept] = w;
            kept += 1;
            let Some(p) = profiles.get(f.profile as usize) else {
                continue;
            };
            let init = initiative_from(i64::from(local.four_df()), p.speed);
            f.nth = 0;
            f.pending = Pending::Idle;
            if p.allowed > 0 {
                top = top.max(init);
                // Checked against the last tick below; at most 1,030
                // (`reset`: every speed fits the ring), so a u16.
                f.init = u16::try_from(init).unwrap_or(u16::MAX);
                f.pending = Pending::Listed;
                listed += 1;
                if let Some(c) = counts.get_mut(f.init as usize + 1) {
                    *c += 1;
                }
            }
        }
        *rolls = local;
        self.active.truncate(kept);
        // No first action may land past the last tick (the Scheduler
        // refuses to schedule it).
        if base.saturating_add(top.unsigned_abs()) > MAX_TICK {
            return Err(super::past_last_tick());
        }
        let fighters = self.fighters.as_slice();
        let with_actions = self
            .active
            .iter()
            .copied()
            .filter(|&w| fighters.get(w as usize).is_some_and(|f| f.pending == Pending::Listed));
        if fused {
            let counts = self.counts.as_mut_slice();
            for k in 1..counts.len() {
                counts[k] += counts[k - 1];
            }
            // Every entry is written below: the last round's are not
            // cleared first.
            self.order.resize(listed, 0);
            let order = self.order.as_mut_slice();
            for w in with_actions {
                let Some(f) = fighters.get(w as usize) else {
                    continue;
                };
                if let Some(at) = counts.get_mut(f.init as usize)
                    && let Some(slot) = order.get_mut(*at as usize)
                {
                    *slot = w;
                    *at += 1;
                }
            }
        } else if small {
            // Each after those of a lower or the same initiative (room for
            // every fighter: `reset`).
            for w in with_actions {
                let init = fighters.get(w as usize).map_or(0, |f| f.init);
                let mut at = self.order.len();
                self.order.push(w);
                while at > 0 && fighters.get(self.order[at - 1] as usize).is_some_and(|o| o.init > init) {
                    self.order[at] = self.order[at - 1];
                    at -= 1;
                }
                self.order[at] = w;
            }
        } else {
            self.order.clear();
            self.order.extend(with_actions);
            self.order
                .sort_by_key(|&w| fighters.get(w as usize).map_or(0, |f| f.init));
        }
        self.cursor = 0;
        self.live = listed;
        self.round = round;
        self.round_base = base;
        Ok(())
    }

    /// Schedules the awaiting fighters' next actions, in order: a Ready
    /// Time from now, while the round allows them actions.
    #[inline(never)]
    fn follow_up(&mut self, rolls: &mut SeededRolls) -> Result<(), SimError> {
        // (A round begins only with nothing pending, so those awaiting
        // landed in this one: the ring's ticks count from `now`.)
        debug_assert!(self.round_base <= self.now);
        if self.disruptive && self.epochs.len() < self.fighters.len() {
            // (Nothing is queued before a battle's first follow-up: no
            // entry is older than these epochs.)
            reserve_fighters(&mut self.epochs, self.fighters.len())?;
            self.epochs.resize(self.fighters.len(), 0);
        }
        let now = self.now.max(self.round_base);
        for i in 0..self.awaiting.len() {
            let w = self.awaiting[i];
            let Some(f) = self.fighters.get_mut(w as usize) else {
                continue;
            };
            let Some(p) = self.profiles.get(f.profile as usize) else {
                continue;
            };
            if !f.alive || f.nth >= p.allowed {
                continue;
            }
            let speed = p.speed;
            let rt = ready_time_from(i64::from(rolls.two_df()), speed);
            let tick = match now.checked_add(rt.unsigned_abs()) {
                // (`handles`: every Ready Time fits the ring.)
                Some(t) if t <= MAX_TICK && rt <= MAX_DELAY => t,
                _ => {
                    return Err(SimError::rules(skirmish_core::Error::out_of_range(
                        "ready_time",
                        rt,
                        0,
                        MAX_TICK.saturating_sub(now),
                    )));
                }
            };
            let epoch = self.epochs.get(w as usize).copied().unwrap_or(0);
            self.ring.push(tick, epoch_entry(w, epoch));
            f.pending = Pending::Queued;
            self.queued += 1;
            self.live += 1;
        }
        self.awaiting.clear();
        Ok(())
    }

    /// Takes `w`'s pending action off the list or out of the queue.
    #[inline]
    fn drop_pending(&mut self, w: u32) -> bool {
        let Some(f) = self.fighters.get_mut(w as usize) else {
            return false;
        };
        match f.pending {
            Pending::Idle => return false,
            Pending::Listed => {}
            Pending::Queued => {
                // Its entry stays in the ring, no longer matching.
                if let Some(ep) = self.epochs.get_mut(w as usize) {
                    *ep = ep.wrapping_add(1);
                }
                self.queued -= 1;
                if self.queued == 0 {
                    self.ring.clear();
                }
            }
        }
        f.pending = Pending::Idle;
        self.live -= 1;
        true
    }
}

impl GraduatedClock {
    /// [`Clock::next`] with no follow-up queued (every round of a battle
    /// of one action a round): the list's next run of equal initiative
    /// alone, the same moment as the merge with the ring gives, for less
    /// (the battle's most common step).
    #[inline]
    fn next_listed(&mut self, acting: &mut Vec<u32>) -> Option<Tick> {
        let init = self.listed_next()?;
        self.land_listed(init, acting);
        let tick = self.round_base + u64::from(init);
        self.now = tick;
        Some(Tick::Moment {
            tick,
            round: self.round,
            display: i64::from(init),
            pass: 0,
        })
    }
}

impl GraduatedClock {
    /// The initiative of the list's next entry still listed, the cursor
    /// moved past those that no longer land (fallen, disrupted); `None`
    /// past the list's end.
    #[inline(always)]
    fn listed_next(&mut self) -> Option<u16> {
        // The list, the records and the cursor in locals: through `self`,
        // every store to a record made the compiler load them again.
        let (fighters, order) = (self.fighters.as_slice(), self.order.as_slice());
        let mut cursor = self.cursor;
        while let Some(&w) = order.get(cursor)
            && fighters.get(w as usize).is_some_and(|f| f.pending != Pending::Listed)
        {
            cursor += 1;
        }
        self.cursor = cursor;
        order
            .get(cursor)
            .and_then(|&w| fighters.get(w as usize))
            .map(|f| f.init)
    }

    /// The list's run of initiative `init` at the cursor lands: each of its
    /// fighters still listed acts (into `acting`), and awaits a follow-up
    /// if its round allows another action.
    #[inline(always)]
    fn land_listed(&mut self, init: u16, acting: &mut Vec<u32>) {
        let (fighters, profiles) = (self.fighters.as_mut_slice(), self.profiles.as_slice());
        let order = self.order.as_slice();
        let mut cursor = self.cursor;
        let mut landed = 0;
        while let Some(&w) = order.get(cursor)
            && let Some(f) = fighters.get_mut(w as usize)
            && f.init == init
        {
            cursor += 1;
            if f.pending != Pending::Listed {
                continue;
            }
            f.pending = Pending::Idle;
            f.nth = 1;
            landed += 1;
            acting.push(w);
            if self.follow_ups && profiles.get(f.profile as usize).is_some_and(|p| p.allowed > 1) {
                self.awaiting.push(w);
            }
        }
        self.live -= landed;
        self.cursor = cursor;
    }
}

impl GraduatedClock {
    /// [`Clock::next`], small enough to be inlined into the battle's loop:
    /// the common step (the list's next run) here, a new round and the
    /// merge with the ring in functions of their own.
    #[inline(always)]
    fn step(&mut self, rolls: &mut SeededRolls, acting: &mut Vec<u32>) -> Result<Option<Tick>, SimError> {
        acting.clear();
        if !self.awaiting.is_empty() {
            self.follow_up(rolls)?;
        }
        if self.round == 0 || self.live == 0 {
            if self.standing > 0 {
                self.begin_round(rolls)?;
                return Ok(Some(Tick::NewRound));
            }
            return Ok(None);
        }
        if self.queued == 0 {
            return Ok(self.next_listed(acting));
        }
        self.next_merged(acting)
    }
}

impl GraduatedClock {
    /// [`Clock::next`] with follow-ups queued: the list's next run and the
    /// ring's next tick, the earlier (the list's first on a tie).
    #[inline(never)]
    fn next_merged(&mut self, acting: &mut Vec<u32>) -> Result<Option<Tick>, SimError> {
        let base = self.round_base;
        let next_init = self.listed_next();
        let listed = next_init.map(|init| base + u64::from(init));
        let fighters = self.fighters.as_slice();
        // The ring's first tick with a pending follow-up, up to the list's:
        // a bucket of dropped ones only on the way is emptied (no moment).
        let mut queued = None;
        let mut at = self.now;
        while self.queued > 0
            && let Some(t) = self.ring.next(at)
            && listed.is_none_or(|l| t <= l)
        {
            let i = (t & RING_MASK) as usize;
            if self.ring.bucket(i).iter().any(|&e| pending(fighters, &self.epochs, e)) {
                queued = Some(t);
                break;
            }
            self.ring.pop(i, |_| {});
            at = t;
        }
        let tick = match (listed, queued) {
            (Some(a), Some(b)) => a.min(b),
            (Some(a), None) => a,
            (None, Some(b)) => b,
            (None, None) => return Ok(None),
        };
        // The round's first actions were scheduled before any follow-up.
        if let Some(init) = next_init
            && listed == Some(tick)
        {
            self.land_listed(init, acting);
        }
        let (fighters, profiles) = (self.fighters.as_mut_slice(), self.profiles.as_slice());
        let allowed = |f: &Slot| profiles.get(f.profile as usize).map_or(0, |p| p.allowed);
        if queued == Some(tick) {
            let (epochs, awaiting) = (&self.epochs, &mut self.awaiting);
            let mut landed = 0;
            self.ring.pop((tick & RING_MASK) as usize, |&e| {
                if !pending(fighters, epochs, e) {
                    return; // dropped: fallen, or disrupted
                }
                let w = e & WHO_MASK;
                let Some(f) = fighters.get_mut(w as usize) else {
                    return;
                };
                f.pending = Pending::Idle;
                f.nth += 1;
                landed += 1;
                acting.push(w);
                if f.nth < allowed(f) {
                    awaiting.push(w);
                }
            });
            self.queued -= landed;
            self.live -= landed;
            if self.queued == 0 {
                self.ring.clear();
            }
        }
        self.now = tick;
        Ok(Some(Tick::Moment {
            tick,
            round: self.round,
            display: i64::try_from(tick.saturating_sub(base)).unwrap_or(i64::MAX),
            pass: 0,
        }))
    }
}

impl Clock for GraduatedClock {
    #[inline(always)]
    fn next(&mut self, rolls: &mut SeededRolls, acting: &mut Vec<u32>) -> Result<Option<Tick>, SimError> {
        self.step(rolls, acting)
    }

    #[inline]
    fn remove(&mut self, who: u32) {
        self.drop_pending(who);
        // Follow-ups skip the fallen.
        if let Some(f) = self.fighters.get_mut(who as usize)
            && f.alive
        {
            f.alive = false;
            self.standing -= 1;
        }
    }

    /// A disruptible fighter's pending action is lost, and it declares the
    /// same again from now (at the next step).
    #[inline]
    fn disrupt(&mut self, who: u32, disruptible: bool) -> bool {
        let Some(f) = self.fighters.get(who as usize) else {
            return false;
        };
        let own = self.profiles.get(f.profile as usize).is_some_and(|p| p.disruptible);
        if !disruptible || !own || !f.alive {
            return false;
        }
        if self.drop_pending(who) {
            self.awaiting.push(who);
            true
        } else {
            false
        }
    }

    #[inline]
    fn ready_roll(&mut self, _who: u32, _roll: i32) {}
}

/// Whether ring entry `e` is its fighter's pending follow-up: queued, and
/// with epochs, at the entry's epoch (see the module docs).
#[inline]
fn pending(fighters: &[Slot], epochs: &[u16], e: u32) -> bool {
    let w = e & WHO_MASK;
    fighters.get(w as usize).is_some_and(|f| f.pending == Pending::Queued)
        && (epochs.is_empty() || entry_is_live(epochs, e))
}
