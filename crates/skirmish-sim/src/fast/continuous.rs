//! The fast path under Continuous timing: the clock fused into the loop.
//!
//! - **One draw per action**: a strike's target, Strike roll and the Ready
//!   Time roll of its follow-up come from one 64-bit word
//!   (`SeededRolls::action_dice`; the general loop draws them the same
//!   way and hands the Ready Time roll to its clock), so an actor's next
//!   action is scheduled as it strikes, in the same pass that pops it.
//! - **No event slab**: a ring of per-tick buckets of pending actions
//!   ([`Pending`]). Where hits are kept (wound penalties, disruption, and
//!   the ranked policies but `least_engaged` by whole strikes) an entry is
//!   4 bytes, the fighter and its epoch's low 10 bits ([`epoch_entry`]): acting, losing an action to a hit and
//!   falling each bump the fighter's epoch, and an entry is live iff its
//!   epoch is the fighter's, so every standing fighter has exactly one live
//!   entry (a fighter that acts and falls in the same tick leaves a stale
//!   follow-up behind). Cancelling writes nothing into the ring, and
//!   popping and scheduling never touch the actor's record (at 2x100,000
//!   that record would be a cache miss per action): a 2-byte epoch is all
//!   they read. Ten bits cannot wrap onto a stale entry: one scheduled at
//!   tick `s` comes up by `s + MAX_DELAY`, and when it is read its
//!   fighter's epoch has moved at most once for each tick after `s`, up to
//!   and including its own: acting and a disruption exclude each other at
//!   a tick; a fighter that acts and falls at one tick moves twice, but
//!   nothing moves after a fall; and a fall at the entry's own tick comes
//!   after that tick's entries are read. Without hits an entry only goes stale when
//!   its fighter falls, so those battles check a bit per fighter instead
//!   (at 2x100,000 the bits stay in cache, the epochs do not), and keep
//!   no epochs; their entries are 8 bytes, [`Entry`], with the group and
//!   the speed at hand.

use skirmish_core::timing::graduated::ready_time_from;
use skirmish_core::timing::simple::initiative_from;

use super::{
    Common, FastEnd, FastModel, FastPlan, Landing, Out, ROLLS, Tally, Watch, after_falls, is_down, remove_fallen,
    set_penalties, strike,
};
use crate::error::SimError;
use crate::report::BattleSummary;
use crate::ring::{MAX_DELAY, RING_MASK, Ring, SPARE_AT_LEAST, WHO_BITS, WHO_MASK, epoch_entry};
use crate::roster::reserve_fighters;
use crate::scenario::Targeting;

/// A ring entry: a fighter's next action, live while the fighter's epoch
/// is still the entry's. Packed in one word (fighter in bits 0-31, group
/// in 32-47, epoch in 48-63) so that it moves as one.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Entry(u64);

impl Entry {
    #[inline]
    pub(super) fn new(who: u32, group: u16, epoch: u16) -> Entry {
        Entry(u64::from(who) | u64::from(group) << 32 | u64::from(epoch) << 48)
    }

    #[inline]
    pub(super) fn who(self) -> u32 {
        self.0 as u32
    }

    #[inline]
    pub(super) fn group(self) -> usize {
        usize::from((self.0 >> 32) as u16)
    }

    #[inline]
    pub(super) fn epoch(self) -> u16 {
        (self.0 >> 48) as u16
    }

    /// The speed of an entry of a battle that never reads epochs (no hits
    /// kept): the top 16 bits hold the fighter's speed (Time Taken minus
    /// speed bonus) instead, so that scheduling its next action needs no
    /// group record.
    #[inline]
    fn speed(self) -> i64 {
        (self.0 as i64) >> 48
    }

    /// The same entry with the next epoch.
    #[inline]
    fn bumped(self) -> Entry {
        Entry(self.0.wrapping_add(1 << 48))
    }
}

/// A pending action in the fused loop's ring: an [`Entry`] of 8 bytes
/// (fighter, group, and an epoch or a speed) in the loops that keep no
/// hits, or a 4-byte [`epoch_entry`] in those that do, its group read from
/// the battle's list. The 8-byte entries put a disruptive 2x1,000,000
/// battle over the 64-byte-a-fighter target; the loops
/// without hits keep them, their group and speed at hand.
pub(crate) trait Pending: Copy {
    /// Fighter `who` of group `group` at epoch `epoch`.
    fn new(who: u32, group: u16, epoch: u16) -> Self;
    fn who(self) -> u32;
    /// Its group, from the entry or the battle's list.
    fn group(self, group_of: &[u32]) -> usize;
    /// Whether it is live at its fighter's epoch `epoch`.
    fn at(self, epoch: u16) -> bool;
    /// The same entry at the next epoch.
    fn bumped(self) -> Self;
    /// The speed of an [`Entry`] made with the speed in its epoch's place
    /// ([`Entry::speed`]: whole-strike battles, whose loops take
    /// [`Entry`]s only).
    fn speed(self) -> i64;
    /// This kind's ring and bucket.
    fn rings<'a>(
        wide: (&'a mut Ring<Entry>, &'a mut Vec<Entry>),
        narrow: (&'a mut Ring<u32>, &'a mut Vec<u32>),
    ) -> (&'a mut Ring<Self>, &'a mut Vec<Self>);
}

impl Pending for Entry {
    #[inline]
    fn new(who: u32, group: u16, epoch: u16) -> Self {
        Entry::new(who, group, epoch)
    }
    #[inline]
    fn who(self) -> u32 {
        Entry::who(self)
    }
    #[inline]
    fn group(self, _: &[u32]) -> usize {
        Entry::group(self)
    }
    #[inline]
    fn at(self, epoch: u16) -> bool {
        self.epoch() == epoch
    }
    #[inline]
    fn bumped(self) -> Self {
        Entry::bumped(self)
    }
    #[inline]
    fn speed(self) -> i64 {
        Entry::speed(self)
    }
    fn rings<'a>(
        wide: (&'a mut Ring<Entry>, &'a mut Vec<Entry>),
        _: (&'a mut Ring<u32>, &'a mut Vec<u32>),
    ) -> (&'a mut Ring<Self>, &'a mut Vec<Self>) {
        wide
    }
}

impl Pending for u32 {
    #[inline]
    fn new(who: u32, _: u16, epoch: u16) -> Self {
        epoch_entry(who, epoch)
    }
    #[inline]
    fn who(self) -> u32 {
        self & WHO_MASK
    }
    #[inline]
    fn group(self, group_of: &[u32]) -> usize {
        group_of.get(Pending::who(self) as usize).map_or(0, |&g| g as usize)
    }
    #[inline]
    fn at(self, epoch: u16) -> bool {
        self == epoch_entry(Pending::who(self), epoch)
    }
    #[inline]
    fn bumped(self) -> Self {
        // The epoch's bits are the top ones: the carry out is dropped.
        self.wrapping_add(1 << WHO_BITS)
    }
    #[inline]
    fn speed(self) -> i64 {
        0
    }
    fn rings<'a>(
        _: (&'a mut Ring<Entry>, &'a mut Vec<Entry>),
        narrow: (&'a mut Ring<u32>, &'a mut Vec<u32>),
    ) -> (&'a mut Ring<Self>, &'a mut Vec<Self>) {
        narrow
    }
}

/// Whether entry `e` is still its fighter's next action: its epoch is the
/// fighter's (`KEEP_HITS`: acting, falling and a disrupting hit move
/// epochs), or, without disruption, its fighter stands.
#[inline(always)]
fn live<E: Pending, const KEEP_HITS: bool>(epoch: &[u16], down: &[u64], e: E) -> bool {
    if KEEP_HITS {
        epoch.get(e.who() as usize).is_some_and(|&ep| e.at(ep))
    } else {
        !is_down(down, e.who())
    }
}

/// Fights one battle on the fast path; `group_of[f]` is fighter `f`'s group.
pub(crate) fn fight<M: FastModel>(
    plan: &FastPlan,
    model: &M,
    prep: &M::Prep,
    group_of: &[u32],
    (ws, rolls, casualties, control): Out<'_, '_>,
) -> Result<FastEnd, SimError> {
    // The generator in a local: its state can stay in registers.
    let mut local = rolls.clone();
    // The loop compiled twice: with the tick's hits kept for wound
    // penalties and disruption, and without (most battles), where those
    // branches and loads are gone.
    // And twice more for the ranked policies (`ranked.rs`): striking by
    // outcome (`most_wounded` reads each hit's damage, summed per target in
    // `struck`; the hits themselves are kept only for penalties or
    // disruption), and with whole strikes (`least_engaged` reads no hit).
    let keep_hits = M::penalizes(prep) || plan.any_disruptible;
    let whole = M::pair_table(prep).len() == plan.group_count() * plan.group_count() * ROLLS;
    let end = if plan.targeting == Targeting::LeastEngaged && !keep_hits && whole {
        fight_with::<M, Entry, false, true, true>(plan, model, prep, group_of, (ws, &mut local, casualties, control))
    } else if plan.targeting != Targeting::Random {
        fight_with::<M, u32, true, false, true>(plan, model, prep, group_of, (ws, &mut local, casualties, control))
    } else if keep_hits {
        fight_with::<M, u32, true, false, false>(plan, model, prep, group_of, (ws, &mut local, casualties, control))
    } else if whole {
        // And with whole strikes from the pair table.
        fight_with::<M, Entry, false, true, false>(plan, model, prep, group_of, (ws, &mut local, casualties, control))
    } else {
        fight_with::<M, Entry, false, false, false>(plan, model, prep, group_of, (ws, &mut local, casualties, control))
    };
    *rolls = local;
    end
}

#[expect(clippy::too_many_lines, reason = "the battle loop reads best in one piece")]
#[inline]
fn fight_with<M: FastModel, E: Pending, const KEEP_HITS: bool, const PAIRS: bool, const RANKED: bool>(
    plan: &FastPlan,
    model: &M,
    prep: &M::Prep,
    group_of: &[u32],
    (ws, rolls, mut casualties, control): Out<'_, '_>,
) -> Result<FastEnd, SimError> {
    let groups = plan.groups.as_slice();
    let (standing, c) = M::records(ws);
    // The hits are kept only when penalties or disruption read them (a
    // ranked battle strikes by outcome whether or not they do).
    let keep_hits = KEEP_HITS && (M::penalizes(prep) || plan.any_disruptible);
    let (first_b, fielded) = c.muster((model, groups, prep), group_of, None, standing, (keep_hits, false))?;
    let Common {
        pos,
        down,
        epoch,
        busy,
        ring,
        ring4,
        bucket,
        bucket4,
        fallen,
        hits,
        acting: _,
        ranked,
        struck,
        ..
    } = c;
    let policy = plan.targeting;
    if RANKED {
        ranked.reset(policy, group_of.len(), first_b)?;
        reserve_fighters(struck, group_of.len())?;
        struck.clear();
    }
    let penalizes = KEEP_HITS && M::penalizes(prep);
    let pairs = M::pair_table(prep);
    let (ring, bucket) = E::rings((ring, bucket), (ring4, bucket4));
    // (Without hits an entry is live while its fighter stands.)
    epoch.clear();
    if KEEP_HITS {
        reserve_fighters(epoch, group_of.len())?;
        epoch.resize(group_of.len(), 0);
    }
    busy.clear();
    if plan.any_disruptible {
        reserve_fighters(busy, group_of.len())?;
        busy.resize(group_of.len(), 0);
    }
    ring.clear();
    bucket.clear();

    // Initiative for everyone, in order.
    for (w, &g) in group_of.iter().enumerate() {
        let speed = i64::from(groups[g as usize].speed);
        let init = initiative_from(i64::from(rolls.four_df()), speed);
        let entry = if PAIRS {
            // Below -16 a speed gives the same delays as -16 (both clamp
            // to 1 tick); every speed is at most MAX_DELAY - 9.
            E::new(w as u32, g as u16, speed.clamp(-16, MAX_DELAY) as i16 as u16)
        } else {
            E::new(w as u32, g as u16, 0)
        };
        ring.push(init as u64, entry);
    }

    let mut summary = BattleSummary {
        rounds: 1,
        ..BattleSummary::start()
    };
    // The first tick of the next round.
    let lap = plan.lap.unwrap_or(1);
    let mut next_round_at = lap + 1;
    let mut now = 0u64;
    let mut watch = Watch::new(control);
    // The next tick at which someone may act; none left means nobody can
    // ever act again: a timeout, not a win.
    while let Some(tick) = ring.next(now) {
        if tick > plan.max_ticks {
            break;
        }
        let i = (tick & RING_MASK) as usize;
        // A tick is fought whole or not at all: one that would take the
        // actions past the cap ends the battle before it, as a timeout.
        let room = plan.max_actions - summary.actions;
        if ring.buckets[i].len() as u64 > room
            && ring.buckets[i]
                .iter()
                .filter(|&&e| live::<E, KEEP_HITS>(epoch, down, e))
                .count() as u64
                > room
        {
            break;
        }
        // Watched as the general loop is, at the moments someone acts: a
        // tick of stale entries only (the fallen's, the disrupted's) is none
        // there, its events cancelled. The round is the moment's lap.
        if watch.wants(&summary) && ring.buckets[i].iter().any(|&e| live::<E, KEEP_HITS>(epoch, down, e)) {
            watch.before(
                (tick, u32::try_from((tick - 1) / lap + 1).unwrap_or(u32::MAX)),
                &summary,
                || standing.iter().map(|s| s.len() as u64).sum(),
                group_of.len(),
            )?;
        }
        now = tick;
        ring.bits[i / 64] &= !(1 << (i % 64));
        std::mem::swap(bucket, &mut ring.buckets[i]);

        // Every live entry acts, in the order scheduled: it strikes a random
        // enemy standing at the start of the tick, its damage applied at once
        // (see the module docs), and does the same again: its next action
        // is scheduled with the Ready Time rolled with the strike.
        let mut acted = 0u64;
        let mut landing = Landing {
            fallen: &mut fallen[..],
            fell: 0,
            hits: keep_hits.then_some(&mut *hits),
            struck: (RANKED && policy == Targeting::MostWounded).then_some(&mut *struck),
            tally: Tally::default(),
        };
        for chunk in bucket.chunks(Tally::SPAN) {
            for &e in chunk {
                let who = e.who();
                if KEEP_HITS {
                    let Some(ep) = epoch.get_mut(who as usize) else {
                        continue;
                    };
                    if !e.at(*ep) {
                        continue; // it fell, or lost this action to a hit
                    }
                    *ep = ep.wrapping_add(1);
                    if let Some(b) = busy.get_mut(who as usize) {
                        *b = tick as u16;
                    }
                } else if is_down(down, who) {
                    // Without disruption only falling makes an entry stale,
                    // and a bit per fighter stays in cache where the epochs
                    // (2 bytes each) do not.
                    continue;
                }
                acted += 1;
                // Whole-strike battles read neither the attacker's group
                // record nor its penalty: its side is its number's, its
                // speed is in the entry.
                let (side, speed) = if PAIRS {
                    (usize::from(who >= first_b), e.speed())
                } else {
                    let ga = &groups[e.group(group_of)];
                    (usize::from(ga.side), i64::from(ga.speed))
                };
                let attack_penalty = if penalizes {
                    let own = &standing[side];
                    own.get(pos[who as usize] as usize).map_or(0, |f| i32::from(f.penalty))
                } else {
                    0
                };
                let enemies = &mut standing[side ^ 1];
                // A ranked policy's pick draws no target (the dice are
                // asked for 1).
                let dice = rolls.action_dice(if RANKED { 1 } else { enemies.len() as u32 });
                let at = if RANKED {
                    match ranked.pick(policy, who, side as u8, down) {
                        Some(t) => pos[t as usize] as usize,
                        None => {
                            // No enemy to pick: the action is spent, the
                            // next one scheduled as after a strike.
                            let rt = ready_time_from(i64::from(dice.ready), speed);
                            // (Without epochs the entry's top bits are its
                            // speed: kept as it is, as after a strike.)
                            ring.push(tick + rt as u64, if PAIRS { e } else { e.bumped() });
                            continue;
                        }
                    }
                } else {
                    dice.target as usize
                };
                let Some(ft) = enemies.get_mut(at) else {
                    continue;
                };
                strike::<M, KEEP_HITS, PAIRS>(
                    plan,
                    model,
                    prep,
                    pairs,
                    (e.group(group_of), attack_penalty),
                    ft,
                    dice.strike,
                    &mut landing,
                )?;
                let rt = ready_time_from(i64::from(dice.ready), speed);
                ring.push(tick + rt as u64, if PAIRS { e } else { e.bumped() });
            }
            landing.tally.drain(&mut summary);
        }
        let fell = landing.fell;
        // A large bucket's memory goes to the spares (the bucket in the ring
        // keeps the empty one it was swapped for); a small one goes back.
        if bucket.capacity() >= SPARE_AT_LEAST {
            ring.give_back(std::mem::take(bucket));
        } else {
            bucket.clear();
            std::mem::swap(bucket, &mut ring.buckets[i]);
        }
        if acted == 0 {
            continue;
        }
        summary.actions += acted;
        summary.ticks = tick;
        if tick >= next_round_at {
            let round = (tick - 1) / lap + 1;
            summary.rounds = summary.rounds.max(round as u32);
            next_round_at = round * lap + 1;
        }

        // The end of the tick: penalties (first, while every hit's record is
        // where `pos` says), the fallen leave their lists, disruption.
        if penalizes {
            set_penalties(standing, pos, first_b, hits);
        }
        for &f in fallen.iter().take(fell) {
            // Its pending action, if any, is no longer its.
            if let Some(ep) = epoch.get_mut(f as usize) {
                *ep = ep.wrapping_add(1);
            }
        }
        remove_fallen(standing, pos, down, first_b, &fallen[..fell]);
        if RANKED {
            ranked.end_moment(policy, down, &fallen[..fell], struck);
        }
        if keep_hits {
            if plan.any_disruptible {
                for &(t, _, g) in hits.iter() {
                    if is_down(down, t) {
                        continue;
                    }
                    // Acted or already disrupted this tick: no pending
                    // action to lose.
                    if groups[g as usize].disruptible && busy[t as usize] != tick as u16 {
                        busy[t as usize] = tick as u16;
                        let ep = &mut epoch[t as usize];
                        *ep = ep.wrapping_add(1);
                        // It goes again from now, after its Ready Time.
                        let speed = groups[g as usize].speed;
                        let rt = ready_time_from(i64::from(rolls.two_df()), i64::from(speed));
                        ring.push(tick + rt as u64, E::new(t, g as u16, *ep));
                        summary.disruptions += 1;
                    }
                }
            }
            hits.clear();
        }
        if fell > 0
            && let Some(outcome) = after_falls(standing, &mut casualties, tick)
        {
            summary.outcome = outcome;
            break;
        }
    }
    Ok(FastEnd {
        summary,
        fielded,
        standing: standing.each_ref().map(|s| s.len() as u64),
    })
}
