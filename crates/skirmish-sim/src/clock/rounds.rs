//! A lean clock for Simultaneous Combat, Simple Rounds and FUZION Action
//! Blocks.
//!
//! The core [`Scheduler`](skirmish_core::timing::Scheduler) runs every
//! timing system for the live tracker: per-actor state of ~200 bytes, a
//! `Vec` of pending events per actor, an event queue, and a layout built
//! and checked per round. A battle under these two systems needs none of
//! that: a round is laid out once, every action of it lands in a known
//! order, and nothing is added mid-round. Profiled at 2x10 (callgrind), the
//! Scheduler took most of a Simultaneous battle's instructions, most
//! of it allocation (a `Vec` per actor per round, regrown).
//!
//! This clock lays an Action Blocks round of many blocks out as one flat
//! list of fighters in the order the Scheduler would pop their actions
//! (tick, then scheduling order), block by block, with where each block's
//! entries end, and walks it with a cursor: a moment is one block's
//! entries (the block is the tick, and a fighter's action in it follows
//! from its actions this round). A round that is one moment
//! (Simultaneous; Action Blocks when everyone has one action) writes no
//! list: its moment is everyone still holding their action, in the order
//! of those in the fight (fighter order, or by REF). A Simple Rounds round
//! writes none either: its fighters with an action, by initiative, are
//! walked once per pass (those with no further action leaving the list
//! after each), a moment being a run of equal initiative. What a fighter
//! costs the clock (against a target of 64 bytes a fighter): a 12-byte record (its
//! group's data is in a profile per run of equal fighters), its place in
//! the fight's list (4), in the initiative or REF order (Simple Rounds, and
//! Action Blocks unless the order by REF is fighter order, 4), and in a
//! many-block round its round entries (4 bytes each, the fighter; they
//! were `(tick, fighter, pass)`, 12). It draws the same dice in the same order
//! (each round, one initiative roll per fighter still in the fight, in
//! fighter order: `4dF` under Simple Rounds, the system's die under Action
//! Blocks, none under Simultaneous) and hands the battle the same steps,
//! ticks, rounds and labels, so a seeded battle is identical on either
//! clock (`tests/it/systems.rs` pins the digests, and compares the two
//! report by report).
//!
//! The Scheduler's rules it keeps:
//!
//! - Simple Rounds: initiative = 4dF + 5 + Time Taken + extra preparation -
//!   speed bonus, at least 1; actions this round from the Rate of Fire and
//!   extra attacks
//!   ([`actions_in_round`](skirmish_core::timing::simple::actions_in_round)).
//!   Pass `p` lands on `base + (p - 1) * span + initiative`, `span` the
//!   round's highest initiative among those with an action; equal ticks in
//!   fighter order.
//! - Simultaneous: one action each, all on `base + 1`.
//! - Action Blocks: actions = max(1, (REF + Combat Sense + die) / divisor);
//!   `span` the most actions anyone has; block `b` (from `span` down to 1)
//!   is tick `base + span - b + 1`, where everyone with at least `b`
//!   actions acts, by REF (highest first, fighter order within one).
//! - The next round starts when no action of this one is pending, at
//!   `max(now, base + span)` (`base + 1` for Simultaneous).
//! - A disruption (a disruptible fighter hit) drops the fighter's earliest
//!   pending action of the round; a fallen fighter's pending actions go.
//!   Per fighter, `from` is the first pass still pending (a mark no pass
//!   has once it falls): an entry is live iff `from` is its pass.

use skirmish_core::dice::{Dice, SeededRolls};
use skirmish_core::tables::weapons::RateOfFire;
use skirmish_core::timing::simple::highest_initiative;
use skirmish_core::timing::{ActionBlocksConfig, ActorTiming, Declaration, MAX_TICK, TimingSystem};

mod layout;

use layout::{Rolled, allowed16, last_init, lay_out, place_by_init, roll_simple, zero};

use super::{Clock, Tick};
use crate::error::SimError;
use crate::roster::reserve_fighters;

/// Inits up to this many ticks are sorted by counting; beyond, by a sort.
const COUNTING_SORT_SPAN: u64 = 4096;

/// A Simple Rounds round of at most this many fighters is sorted by
/// insertion as they roll: no buckets to clear and sum (the goblin
/// ambush's counting sort was a large share of its rounds' instructions).
const SMALL_ROUND: usize = 8;

/// Which of the three systems.
#[derive(Debug, Clone, Copy, Default)]
enum Kind {
    /// Simultaneous Combat.
    #[default]
    Simultaneous,
    /// Simple Rounds.
    Simple,
    /// FUZION Action Blocks.
    Blocks(ActionBlocksConfig),
}

/// What a run of fighters with the same traits and declaration share (a
/// group's fighters: read once per battle, not kept per fighter).
#[derive(Debug, Clone, Copy)]
struct Profile {
    /// The declaration's time offset (Time Taken + extra preparation -
    /// speed bonus) for its initiative (Simple Rounds).
    offset: i64,
    /// REF (also Action Blocks' order within a block) and Combat Sense.
    reflexes: (i32, i32),
    /// The declaration's Rate of Fire and extra attacks.
    rate_of_fire: RateOfFire,
    extra_attacks: u32,
    /// Simple Rounds: actions this round (`actions_in_round`: every
    /// fighter has been in the fight since round 1, so this is its round
    /// of use), at most `MAX_ACTIONS`.
    allowed: u16,
    /// The declaration is disruptible (the Scheduler asks the declaration,
    /// as well as the battle's flag).
    disruptible: bool,
    /// Its first fighter (the run ends at the next profile's).
    first: u32,
}

impl Profile {
    /// Actions in round `round` under Simple Rounds: Rate of Fire and
    /// extra attacks.
    fn allowed_in(&self, round: u32) -> u16 {
        super::actions_in_round(self.rate_of_fire, self.extra_attacks, round)
    }
}

/// One fighter: its profile and its state this round, together (what a
/// round's layout and each moment read of it, in one place).
#[derive(Debug, Clone, Copy, Default)]
struct Slot {
    /// Index in `profiles`.
    profile: u32,
    /// Its initiative this round (a tick offset, at least 1).
    init: u32,
    /// Actions allowed this round (at most `MAX_ACTIONS`, 1,000).
    allowed: u16,
    /// The first pass of this round still pending; [`FALLEN`] once out of
    /// the fight (never a pass: at most `MAX_ACTIONS + 1`).
    from: u16,
}

/// `Slot::from` of a fighter out of the fight.
const FALLEN: u16 = u16::MAX;

impl Slot {
    /// Which of its actions this round an Action Blocks fighter takes in
    /// block `block` of `span` (with `a` actions, block b holds its nth
    /// where b = span - a + nth, so b + a > span).
    #[inline]
    fn nth_in(&self, block: u32, span: u32) -> u16 {
        allowed16((block + u32::from(self.allowed)).saturating_sub(span))
    }

    /// Still in the fight.
    #[inline]
    fn alive(&self) -> bool {
        self.from != FALLEN
    }
}

/// Simultaneous Combat, Simple Rounds or Action Blocks on flat arrays (see
/// the module docs).
#[derive(Debug, Default)]
pub(crate) struct RoundsClock {
    kind: Kind,
    /// The fighters' profiles, one per run of equal ones.
    profiles: Vec<Profile>,
    /// Per fighter.
    fighters: Vec<Slot>,
    /// Fighters in the fight, in fighter order (the fallen are dropped at
    /// the next round).
    active: Vec<u32>,
    /// This round's fighters with an action, by initiative (stable); under
    /// Action Blocks, everyone by REF, highest first (stable), unless that
    /// is fighter order (`blocks_in_order`: empty, `active` serves).
    /// Unused by a Simple Rounds round laid out in two passes.
    by_init: Vec<u32>,
    /// Action Blocks: the profiles (runs of fighters) by REF, highest
    /// first, in fighter order within one: their fighters in this order are
    /// the battle's first order by REF (every fighter by REF, a stable
    /// sort); empty otherwise.
    blocks_runs: Vec<u32>,
    /// Action Blocks with the runs by REF in fighter order (REF never
    /// rising from a profile to the next, as with one REF for all): the
    /// order by REF is `active`'s, and `by_init` is not kept (4 bytes a
    /// fighter of the 64-byte budget).
    blocks_in_order: bool,
    /// Counting sort buckets; after an Action Blocks round's layout,
    /// `counts[b]` is where the entries of its `b`th block (`1..=span`, tick
    /// `base + b`) end in `events`.
    counts: Vec<u32>,
    /// Action Blocks: this round's actions in the order they land, block
    /// by block, as their fighters (a fighter with `a` actions acts in
    /// the last `a` blocks, its nth in block `span - a + nth`).
    events: Vec<u32>,
    /// The block of `events[cursor]` (see `entry`).
    block: u32,
    /// This round is one moment, on its first tick, of everyone in
    /// `active` (Simultaneous) or in the order by REF (Action Blocks, one
    /// action each), not yet fought: `events` is empty (not written: 4
    /// bytes a fighter fewer).
    single: bool,
    /// The next entry of `events` (Simple Rounds: of `by_init`).
    cursor: usize,
    /// Simple Rounds: the pass `by_init` is walked for (1-based), and the
    /// round's last (the most actions anyone has).
    pass: u32,
    passes: u32,
    /// Some profile's actions change from round to round (a Rate of Fire
    /// over more than one round; Simple Rounds).
    varies: bool,
    /// The highest initiative anyone can roll (Simple Rounds): the
    /// counting sort's buckets, sized once per battle.
    init_cap: u64,
    round: u32,
    round_base: u64,
    span: u64,
    /// The tick of the last moment.
    now: u64,
    /// Fighters not removed: with none, the clock hands out nothing more
    /// (as the Scheduler with no actors), not round after empty round.
    standing: usize,
}

impl RoundsClock {
    /// Whether this clock runs `system` for fighters with these
    /// declarations (GM timing overrides stay with the Scheduler).
    pub(crate) fn handles(system: &TimingSystem, declarations: impl Iterator<Item = Declaration>) -> bool {
        matches!(
            system,
            TimingSystem::Simultaneous | TimingSystem::SimpleRounds | TimingSystem::ActionBlocks(_)
        ) && declarations.into_iter().all(|d| d.gm.is_none())
    }

    /// Readies the clock for a new battle, keeping its memory. Checks what
    /// the Scheduler checks as fighters join (the system's options, each
    /// fighter's traits and declaration, the number of fighters).
    pub(crate) fn reset(
        &mut self,
        system: &TimingSystem,
        fighters: impl Iterator<Item = (ActorTiming, Declaration)>,
    ) -> Result<(), SimError> {
        system.validate().map_err(SimError::rules)?;
        self.kind = match system {
            TimingSystem::SimpleRounds => Kind::Simple,
            TimingSystem::ActionBlocks(c) => Kind::Blocks(*c),
            _ => Kind::Simultaneous,
        };
        self.profiles.clear();
        self.fighters.clear();
        // Room for every fighter first: a battle too big for memory is an
        // error naming its size, not an abort (as the battle's own arrays).
        let n = fighters.size_hint().0;
        reserve_fighters(&mut self.fighters, n)?;
        reserve_fighters(&mut self.active, n)?;
        match self.kind {
            Kind::Simple => reserve_fighters(&mut self.by_init, n)?,
            Kind::Blocks(_) => reserve_fighters(&mut self.events, n)?,
            Kind::Simultaneous => {}
        }
        let mut last: Option<(ActorTiming, Declaration)> = None;
        for (timing, decl) in fighters {
            let new_run = last != Some((timing, decl));
            super::admit(&mut last, timing, decl, self.fighters.len())?;
            if new_run || self.profiles.is_empty() {
                self.profiles.push(Profile {
                    offset: decl.time_offset(),
                    reflexes: (timing.reflexes, timing.combat_sense),
                    rate_of_fire: decl.rate_of_fire,
                    extra_attacks: decl.extra_attacks,
                    allowed: 0,
                    disruptible: decl.disruptible,
                    first: u32::try_from(self.fighters.len()).unwrap_or(u32::MAX),
                });
            }
            self.fighters.push(Slot {
                profile: (self.profiles.len() - 1) as u32,
                ..Slot::default()
            });
        }
        self.varies = self.profiles.iter().any(|p| p.rate_of_fire.rounds() > 1);
        for p in &mut self.profiles {
            p.allowed = p.allowed_in(1);
        }
        self.init_cap = self
            .profiles
            .iter()
            .map(|p| u64::try_from(highest_initiative(p.offset)).unwrap_or(u64::MAX))
            .max()
            .unwrap_or(0);
        self.blocks_runs.clear();
        if let Kind::Blocks(c) = self.kind {
            c.die.validate().map_err(SimError::rules)?;
            // Action Blocks declare by REF, highest first, in fighter order
            // within one, every round: the runs sorted once (stable; a
            // run's fighters share their REF and are in fighter order).
            self.blocks_runs
                .extend(0..u32::try_from(self.profiles.len()).unwrap_or(u32::MAX));
            let profiles = &self.profiles;
            self.blocks_runs
                .sort_by_key(|&p| std::cmp::Reverse(profiles.get(p as usize).map_or(0, |p| p.reflexes.0)));
            self.blocks_in_order = self.blocks_runs.iter().enumerate().all(|(i, &p)| p as usize == i);
            if !self.blocks_in_order {
                reserve_fighters(&mut self.by_init, self.fighters.len())?;
            }
        } else {
            self.blocks_in_order = false;
        }
        self.restart();
        Ok(())
    }

    /// Readies the clock for another battle of the same fighters (as
    /// [`reset`](Self::reset) left them): everyone standing, nothing
    /// pending, before the first round.
    pub(crate) fn restart(&mut self) {
        for f in &mut self.fighters {
            *f = Slot {
                profile: f.profile,
                from: 1,
                ..Slot::default()
            };
        }
        self.active.clear();
        self.active.extend(0..self.fighters.len() as u32);
        self.standing = self.fighters.len();
        self.by_init.clear();
        let n = u32::try_from(self.fighters.len()).unwrap_or(u32::MAX);
        let runs: &[u32] = if self.blocks_in_order { &[] } else { &self.blocks_runs };
        for &p in runs {
            let first = |p: usize| self.profiles.get(p).map_or(n, |p| p.first);
            let p = p as usize;
            self.by_init.extend(first(p)..first(p + 1));
        }
        self.events.clear();
        self.single = false;
        self.cursor = 0;
        self.block = 0;
        self.pass = 0;
        self.passes = 0;
        self.round = 0;
        self.round_base = 0;
        self.span = 0;
        self.now = 0;
    }

    /// The entry at the cursor, an Action Blocks round's: its fighter and
    /// which of its actions it is, `block` moved on to the entry's.
    #[inline]
    fn entry(&mut self) -> Option<(u32, u16)> {
        let &w = self.events.get(self.cursor)?;
        while self
            .counts
            .get(self.block as usize)
            .is_some_and(|&end| end as usize <= self.cursor)
        {
            self.block += 1;
        }
        let nth = self
            .fighters
            .get(w as usize)
            .map_or(0, |f| f.nth_in(self.block, self.span as u32));
        Some((w, nth))
    }

    /// Whether fighter `w`'s action `nth` is still to land.
    #[inline]
    fn live(&self, w: u32, nth: u16) -> bool {
        self.fighters.get(w as usize).is_some_and(|f| f.from == nth)
    }

    /// Rolls and lays out the next round (the Scheduler's `prepare_round`,
    /// `layout` and `commit_round` for these systems).
    fn begin_round(&mut self, rolls: &mut SeededRolls) -> Result<(), SimError> {
        let round = super::next_round(self.round)?;
        let base = if self.round == 0 {
            0
        } else {
            let length = match self.kind {
                Kind::Simultaneous => 1,
                _ => self.span,
            };
            self.now.max(self.round_base.saturating_add(length))
        };
        if base > MAX_TICK {
            return Err(super::past_last_tick());
        }
        // The fallen leave the lists of those in the fight (as Simple
        // Rounds' fighters roll).
        let fighters = &mut self.fighters;
        if !matches!(self.kind, Kind::Simple) {
            self.active.retain(|&w| fighters[w as usize].alive());
        }
        self.cursor = 0;
        let profiles = &self.profiles;
        // The round's last tick (its last entry's; 0 for none).
        let mut last = 0u64;
        self.single = false;
        match self.kind {
            Kind::Simultaneous => {
                if !self.active.is_empty() {
                    last = base + 1;
                }
                // One moment: everyone in the fight, in fighter order.
                self.events.clear();
                for &w in &self.active {
                    let f = &mut fighters[w as usize];
                    f.from = 1;
                    f.allowed = 1;
                }
                self.single = true;
            }
            Kind::Simple => {
                // `by_init` as `sort_by_init` gives it: a few fighters (a
                // party and its foes) are inserted in order as they roll;
                // more, with initiatives in a short range (the common
                // case), counted as they roll, then placed (a stable
                // counting sort).
                let small = self.active.len() <= SMALL_ROUND;
                let fused = !small && self.init_cap <= COUNTING_SORT_SPAN;
                if fused {
                    zero(&mut self.counts, self.init_cap as usize + 2);
                }
                if small {
                    self.by_init.clear();
                }
                if self.varies {
                    for p in &mut self.profiles {
                        p.allowed = p.allowed_in(round);
                    }
                }
                let counts: &mut [u32] = if fused { &mut self.counts } else { &mut [] };
                let Rolled { span, passes } = roll_simple(&mut self.active, fighters, &self.profiles, rolls, counts);
                let span = if passes == 0 { 1 } else { u64::from(span) };
                self.span = span;
                if fused {
                    place_by_init(&mut self.counts, &self.active, fighters, &mut self.by_init);
                } else if small {
                    // Each after those of a lower or the same initiative
                    // (room for every fighter: `reset`).
                    for &w in &self.active {
                        let init = fighters[w as usize].init;
                        if fighters[w as usize].allowed == 0 {
                            continue;
                        }
                        let mut at = self.by_init.len();
                        self.by_init.push(w);
                        while at > 0 && fighters[self.by_init[at - 1] as usize].init > init {
                            self.by_init[at] = self.by_init[at - 1];
                            at -= 1;
                        }
                        self.by_init[at] = w;
                    }
                } else {
                    self.sort_by_init(span)?;
                }
                // The last action's tick: a fighter's last is on pass
                // `allowed`, at `(allowed - 1) x span + init`; an initiative
                // is at most `span`, so the latest is one of those with the
                // most actions (at most MAX_ACTIONS x a u32 span: no
                // overflow in u64).
                // (The last action is at most `base + passes x span`: only a
                // round that may pass the last tick asks which it is.)
                if passes > 0 && base + u64::from(passes) * span > MAX_TICK {
                    last = base
                        + u64::from(passes - 1) * span
                        + u64::from(last_init(&self.active, &self.fighters, passes));
                }
                self.pass = 1;
                self.passes = passes;
            }
            Kind::Blocks(c) => {
                let mut n = 0u32;
                for &w in &self.active {
                    let f = &mut fighters[w as usize];
                    let (reflexes, combat_sense) = profiles[f.profile as usize].reflexes;
                    // The die was checked at `reset`: rolled as `roll` would.
                    let roll = match c.die {
                        Dice::Fudge { count } => rolls.fudge(count),
                        Dice::Standard { count, sides } => rolls.standard(count, sides),
                    };
                    let allowed = c.actions(reflexes, combat_sense, roll);
                    f.allowed = allowed16(allowed);
                    f.from = 1;
                    n = n.max(allowed);
                }
                self.span = u64::from(n);
                // By REF, highest first: the order fixed at the start, less the fallen.
                let fighters = &self.fighters;
                if n == 1 {
                    // One action each (the common round): one moment,
                    // everyone in the one block, by REF.
                    self.events.clear();
                    if !self.blocks_in_order {
                        self.by_init.retain(|&w| fighters[w as usize].alive());
                    }
                    let kept = if self.blocks_in_order {
                        self.active.len()
                    } else {
                        self.by_init.len()
                    };
                    self.single = true;
                    if kept > 0 {
                        last = base + 1;
                    }
                } else {
                    if !self.blocks_in_order {
                        self.by_init.retain(|&w| fighters[w as usize].alive());
                    }
                    let order: &[u32] = if self.blocks_in_order {
                        &self.active
                    } else {
                        &self.by_init
                    };
                    // Block b (as displayed, n down to 1) is tick base + n -
                    // b + 1; a fighter with `a` actions acts in blocks
                    // a..=1, its nth action in block a - nth + 1: slot n - a
                    // + nth, the block number of `events` and `counts`.
                    let allowed = |w: u32| u32::from(fighters[w as usize].allowed);
                    let total = lay_out(&mut self.events, &mut self.counts, order, allowed, n, |w, nth| {
                        n - allowed(w) + nth
                    })?;
                    self.block = 0;
                    // Every fighter with an action acts in the last slot (n).
                    if total > 0 {
                        last = base + u64::from(n);
                    }
                }
            }
        }
        // The last entry lands last: no tick of the round may pass the
        // scheduler's last one (u64 cannot overflow: base fits a u32,
        // passes and blocks <= 1,000, initiatives a u32).
        if last > MAX_TICK {
            return Err(super::past_last_tick());
        }
        self.round = round;
        self.round_base = base;
        Ok(())
    }

    /// `by_init`: this round's fighters with an action, by initiative,
    /// fighter order within one (a stable sort).
    fn sort_by_init(&mut self, span: u64) -> Result<(), SimError> {
        reserve_fighters(&mut self.by_init, self.fighters.len())?;
        self.by_init.clear();
        let fighters = &self.fighters;
        let with_actions = self
            .active
            .iter()
            .copied()
            .filter(|&w| fighters[w as usize].allowed > 0);
        if span <= COUNTING_SORT_SPAN {
            let span = span as usize;
            zero(&mut self.counts, span + 2);
            for w in with_actions.clone() {
                self.counts[fighters[w as usize].init as usize + 1] += 1;
            }
            place_by_init(&mut self.counts, &self.active, fighters, &mut self.by_init);
        } else {
            self.by_init.extend(with_actions);
            self.by_init.sort_by_key(|&w| fighters[w as usize].init);
        }
        Ok(())
    }
}

impl RoundsClock {
    /// The moment at `tick`, with the Scheduler's labels (`moment_at`).
    #[inline]
    fn moment(&mut self, tick: u64) -> Tick {
        self.now = tick;
        let rel = tick - self.round_base;
        let display = match self.kind {
            Kind::Simultaneous => i64::from(self.round),
            Kind::Simple => i64::try_from((rel.saturating_sub(1)) % self.span.max(1) + 1).unwrap_or(i64::MAX),
            Kind::Blocks(_) => {
                let signed = |x: u64| i64::try_from(x).unwrap_or(i64::MAX);
                signed(self.span).saturating_sub(signed(rel)).saturating_add(1)
            }
        };
        let pass = match self.kind {
            Kind::Simultaneous => 0,
            Kind::Simple => u32::try_from(rel.saturating_sub(1) / self.span.max(1) + 1).unwrap_or(u32::MAX),
            Kind::Blocks(_) => u32::try_from(display).unwrap_or(0),
        };
        Tick::Moment {
            tick,
            round: self.round,
            display,
            pass,
        }
    }
}

impl RoundsClock {
    /// [`Clock::next`] under Simple Rounds: pass `p`'s moments are the runs
    /// of equal initiative in `by_init` (its tick `base + (p - 1) * span +
    /// initiative`), each of those whose first pending pass is `p`; after a
    /// pass, those with no further action leave the list. No list of the
    /// round's entries is written: the same moments, in the same order, as
    /// that list walked.
    #[inline]
    fn next_simple(&mut self, rolls: &mut SeededRolls, acting: &mut Vec<u32>) -> Result<Option<Tick>, SimError> {
        while self.round != 0 {
            let pass = self.pass;
            // The list, the records and the cursor in locals: through
            // `self`, every store to a record made the compiler load the
            // lists' pointers and lengths again.
            let (by_init, fighters) = (self.by_init.as_slice(), self.fighters.as_mut_slice());
            let mut cursor = self.cursor;
            let pending = |f: &Slot| u32::from(f.from) == pass;
            while let Some(&w) = by_init.get(cursor)
                && !pending(&fighters[w as usize])
            {
                cursor += 1;
            }
            if let Some(&first) = by_init.get(cursor) {
                let init = fighters[first as usize].init;
                while let Some(&w) = by_init.get(cursor) {
                    let f = &mut fighters[w as usize];
                    if f.init != init {
                        break;
                    }
                    if pending(f) {
                        acting.push(w);
                        f.from = f.from.saturating_add(1);
                    }
                    cursor += 1;
                }
                self.cursor = cursor;
                // Checked at `begin_round`: no pass lands past the last tick.
                let tick = self.round_base + u64::from(pass.saturating_sub(1)) * self.span + u64::from(init);
                // The Scheduler's labels (`moment`) without its divisions:
                // the tick is `init` into pass `pass` (an initiative with
                // an action is at most `span`).
                let labels = Tick::Moment {
                    tick,
                    round: self.round,
                    display: i64::from(init),
                    pass,
                };
                debug_assert_eq!(labels, self.moment(tick));
                self.now = tick;
                return Ok(Some(labels));
            }
            self.cursor = cursor;
            if pass >= self.passes {
                break;
            }
            // The next pass: those still in the fight with another action.
            self.by_init
                .retain(|&w| fighters[w as usize].alive() && u32::from(fighters[w as usize].allowed) > pass);
            self.pass += 1;
            self.cursor = 0;
        }
        if self.standing == 0 {
            return Ok(None); // nobody left to begin a round for
        }
        self.begin_round(rolls)?;
        Ok(Some(Tick::NewRound))
    }
}

impl Clock for RoundsClock {
    #[inline]
    fn next(&mut self, rolls: &mut SeededRolls, acting: &mut Vec<u32>) -> Result<Option<Tick>, SimError> {
        acting.clear();
        if let Kind::Simple = self.kind {
            return self.next_simple(rolls, acting);
        }
        if self.single {
            // The round's one moment: whoever still has its action.
            self.single = false;
            let list = match self.kind {
                Kind::Blocks(_) if !self.blocks_in_order => &self.by_init,
                _ => &self.active,
            };
            for &w in list {
                if let Some(f) = self.fighters.get_mut(w as usize)
                    && f.from == 1
                {
                    f.from = 2;
                    acting.push(w);
                }
            }
            if !acting.is_empty() {
                return Ok(Some(self.moment(self.round_base + 1)));
            }
        }
        // Past what no longer lands (fallen, disrupted).
        while let Some((w, nth)) = self.entry()
            && !self.live(w, nth)
        {
            self.cursor += 1;
        }
        if self.round == 0 || self.cursor == self.events.len() {
            if self.standing == 0 {
                return Ok(None); // nobody left to begin a round for
            }
            self.begin_round(rolls)?;
            return Ok(Some(Tick::NewRound));
        }
        // The block's entries (it is checked at `begin_round`: no block
        // lands past the last tick).
        let (block, span) = (self.block, self.span as u32);
        let end = self.counts.get(block as usize).map_or(0, |&e| e as usize);
        while let Some(&w) = self.events.get(self.cursor)
            && self.cursor < end
        {
            self.cursor += 1;
            if let Some(f) = self.fighters.get_mut(w as usize) {
                let nth = f.nth_in(block, span);
                if f.from == nth {
                    acting.push(w);
                    f.from = nth.saturating_add(1);
                }
            }
        }
        Ok(Some(self.moment(self.round_base + u64::from(block))))
    }
    #[inline]
    fn remove(&mut self, who: u32) {
        if let Some(f) = self.fighters.get_mut(who as usize)
            && f.alive()
        {
            f.from = FALLEN;
            self.standing -= 1;
        }
    }

    /// The fighter's earliest pending action of the round is lost.
    #[inline]
    fn disrupt(&mut self, who: u32, disruptible: bool) -> bool {
        let Some(f) = self.fighters.get_mut(who as usize) else {
            return false;
        };
        let own = self.profiles.get(f.profile as usize).is_some_and(|p| p.disruptible);
        if !disruptible || !own || !f.alive() {
            return false;
        }
        if f.from <= f.allowed {
            f.from += 1;
            true
        } else {
            false
        }
    }

    #[inline]
    fn ready_roll(&mut self, _who: u32, _roll: i32) {}
}
