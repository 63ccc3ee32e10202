//! The engine's fast paths: the common battle (two sides, Full Contact or
//! FUDGE opposed striking, no trace, no side with morale) fought on compact
//! per-fighter records, with exactly the results, dice and dice order of
//! the general loop in `battle/` (`tests/it/digest.rs` pins digests of
//! thousands of battles and compares the paths report by report, on the
//! built-in scenarios and on random ones under every timing system and
//! policy; `tests/it/control.rs` a watched battle). `Battle::run_summary`,
//! and `Battle::run_in` without a trace, take one whenever the battle
//! qualifies (`Battle::has_fast_path`).
//!
//! Four loops share this module's records, tables and damage models:
//!
//! - `continuous.rs`: Continuous timing, its clock fused into the loop (a
//!   ring of per-tick buckets, one draw per action, see there);
//! - `moments.rs`: every other timing system with a lean clock
//!   (Simultaneous, Simple Rounds, Action Blocks, Graduated Rounds, the
//!   Tick System): the clock hands out each moment's actors as it does to
//!   the general loop, and the moment is fought here;
//! - `ranked.rs`: the `most_wounded` and `least_engaged` picks, for both,
//!   on `minmask.rs`'s index of each side's best target;
//! - `opposed.rs`: FUDGE opposed striking under every timing system with a
//!   lean clock, its reach rule and every policy: the moments loop's shape
//!   with FUDGE's picks, rolls and engagements; under Continuous its clock
//!   is the ring above behind the `Clock` trait (`opposed/ring.rs`);
//! - `wounds.rs`: FUDGE wounds for all of them, a track as its row in a
//!   table of what every hit does to every state;
//! - `plan.rs` (a battle's groups and tables, built once) and `models.rs`
//!   (the damage models as the loops apply them) are what they share.
//!
//! What makes them lean:
//!
//! - **One small record per fighter** ([`Fighter`]): its damage state
//!   (hit points, or a FUDGE wound track's row in the plan's tables),
//!   group, wound penalty and number; everything constant (ratings, damage
//!   factors, speed, side) is per group, in a table that stays in L1. The
//!   records of each side are kept in the order of its list of standing
//!   fighters (fallen ones swap-removed, as the general loop does with its
//!   lists), so a random target is one access, not a list entry and then a
//!   record.
//! - **Damage lands as it is struck**: the hits of a tick are applied in
//!   the order they were struck either way, and nothing during the tick
//!   reads the state they change (targets are picked from the lists as they
//!   stood at the start of the tick, penalties are kept until its end), so
//!   the target's record is touched once. Only wound penalties and
//!   disruption need the tick's hits again, and only when the battle has
//!   them.
//! - **Tables instead of branches**: the Full Contact decision depends only
//!   on SR - DR and the roll (and the options), so it is a table of outcomes
//!   per (SR - DR, roll) built with `full_contact::resolve` itself; hit
//!   points lost per damage likewise come from `HitPoints::hp_lost`. A
//!   strike is loads and arithmetic, with no branch on whether it hit.
//!   Without wound penalties and with at most 16 groups, a whole strike
//!   (outcome and hit points lost) is one entry per (attacker group, target
//!   group, roll).
//! - **The loop compiled per kind of battle** (const generics): striking
//!   by outcome with the tick's hits kept for wound penalties and
//!   disruption, without them, and without them on whole-strike tables;
//!   the ranked policies strike by outcome or by whole strikes, keeping
//!   the hits only when penalties or disruption read them.
//! - Nothing that this kind of battle never reads is kept: Full Contact
//!   has no reach, random targets read neither engagements nor damage
//!   taken, and each ranked policy keeps only the one its key reads.

use skirmish_core::damage::HitPointState;
use skirmish_core::dice::SeededRolls;

use crate::control::{BattleProgress, Control, PROGRESS_EVERY, Start};
use crate::error::SimError;
use crate::report::{BattleSummary, Casualties, Outcome};
use crate::ring::Ring;
use crate::roster::reserve_fighters;

mod continuous;
mod minmask;
mod models;
mod moments;
mod opposed;
mod plan;
mod ranked;
mod wounds;

use continuous::Entry;
pub(crate) use continuous::fight;
pub(crate) use moments::fight_moments;
pub(crate) use opposed::{OpposedPlan, fight_opposed, fight_opposed_ring};
pub(crate) use wounds::WoundsPrep;

pub(crate) use plan::{FastGroup, FastPlan, MAX_GROUPS, Pair};
use plan::{ROLLS, Tally};

pub(crate) use models::{FastModel, HitPointsPrep};

/// One fighter's changing state: 12 bytes with hit points. The plan takes
/// only battles whose groups fit 16 bits ([`MAX_GROUPS`]) and whose wound
/// penalties fit 16 bits ([`PENALTY_FLOOR`]).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Fighter<S> {
    state: S,
    group: u16,
    /// The wound penalty, as of the start of the tick.
    penalty: i16,
    /// Its number (index in the battle's roster).
    who: u32,
}

/// The most severe wound penalty a fast battle's damage model may give (a
/// record keeps it in 16 bits).
pub(crate) const PENALTY_FLOOR: i32 = i16::MIN as i32;

/// A wound penalty as a record keeps it: the plan admits only models whose
/// penalties are within 16 bits, so this never clamps.
#[inline]
fn narrow_penalty(penalty: i32) -> i16 {
    i16::try_from(penalty).unwrap_or(i16::MIN)
}

/// The fast path's memory, reused from battle to battle.
#[derive(Default)]
pub(crate) struct FastWorkspace {
    hit_points: [Vec<Fighter<HitPointState>>; 2],
    /// A wound track's row in the plan's tables (`wounds.rs`).
    wounds: [Vec<Fighter<u16>>; 2],
    common: Common,
}

/// The fast path's arrays that do not depend on the damage model.
#[derive(Default)]
pub(crate) struct Common {
    /// Each fighter's place in its side's list of standing records.
    pos: Vec<u32>,
    /// One bit per fighter: down.
    down: Vec<u64>,
    /// Per fighter, in the Continuous loops that keep hits: bumped when it
    /// acts, falls or loses its action to a hit.
    epoch: Vec<u16>,
    /// Per fighter, only when some group is disruptible: the last tick it
    /// acted or lost its action (then it has no pending action to lose),
    /// its low 16 bits (a standing fighter acts or loses its action at
    /// least every `MAX_DELAY` ticks, so they tell this tick from others).
    busy: Vec<u16>,
    /// The Continuous loops' rings: 8-byte entries where they carry a
    /// group and a speed, 4-byte ones with an epoch where hits are kept
    /// (`continuous.rs`).
    ring: Ring<continuous::Entry>,
    ring4: Ring<u32>,
    /// The bucket being fought: it changes places with the ring's bucket
    /// for the tick, so that strikes can schedule into the ring meanwhile.
    bucket: Vec<Entry>,
    bucket4: Vec<u32>,
    /// Who fell this tick: the first `fell` entries. One more slot than
    /// fighters (each falls once), so that a strike writes its target here
    /// whether or not it fell and counts it only if it did: no branch to
    /// mispredict.
    fallen: Vec<u32>,
    /// This tick's hits `(target, wound penalty after it, its group)`,
    /// kept only when penalties or disruption need them.
    hits: Vec<(u32, i32, u32)>,
    /// The moment's actors, as a lean clock hands them out (`moments.rs`).
    acting: Vec<u32>,
    /// The ranked policies' state (`ranked.rs`).
    ranked: ranked::RankedArrays,
    /// This moment's damage `(target, damage)` (`most_wounded` only): a
    /// hit's positive damage, added to an entry of the same target among
    /// the last two (every pick of a side is the same all moment, so a
    /// moment holds about two entries, not one per hit: see
    /// [`ranked::note_damage`]).
    struck: Vec<(u32, i32)>,
    /// FUDGE opposed striking's engagements, picks and hits (`opposed.rs`).
    opposed: opposed::OpposedArrays,
}

/// Where a moment's strikes land: who fell (the first `fell` entries of
/// `fallen`), the hits kept for the end of the moment, `most_wounded`'s
/// damage, and the tally of hits and amazing outcomes.
pub(super) struct Landing<'a> {
    fallen: &'a mut [u32],
    fell: usize,
    /// The moment's hits, when penalties or disruption read them.
    hits: Option<&'a mut Vec<(u32, i32, u32)>>,
    /// `most_wounded`'s `(target, damage)`, when the battle ranks by it.
    struck: Option<&'a mut Vec<(u32, i32)>>,
    tally: Tally,
}

/// One strike of attacker group `ag` (its wound penalty `attack_penalty`)
/// on the record `ft` with Strike roll `roll`, its damage applied at once
/// (see the module docs): by the whole-strike table (`PAIRS`), or by the
/// outcome table and the damage model (`KEEP_HITS`: the target's wound
/// penalty counts), keeping the hit when the battle reads the moment's
/// hits (`landing.hits`) and its damage under `most_wounded`
/// (`landing.struck`). Both loops strike through here.
#[inline(always)]
#[expect(clippy::too_many_arguments, reason = "a strike's inputs, each of its own kind")]
fn strike<M: FastModel, const KEEP_HITS: bool, const PAIRS: bool>(
    plan: &FastPlan,
    model: &M,
    prep: &M::Prep,
    pairs: &[Pair],
    (ag, attack_penalty): (usize, i32),
    ft: &mut Fighter<M::Rec>,
    roll: i32,
    landing: &mut Landing<'_>,
) -> Result<(), SimError> {
    let (t, tg) = (ft.who, u32::from(ft.group));
    let groups = plan.groups.as_slice();
    let downed = if PAIRS {
        // A whole strike by table (no penalties, no disruption).
        let i = (ag * groups.len() + tg as usize) * ROLLS + (roll + 4) as usize;
        let Some(pair) = pairs.get(i) else {
            return Ok(());
        };
        landing.tally.add(pair.counts);
        model.land_pair(prep, &mut ft.state, pair)
    } else {
        let ga = &groups[ag];
        let gt = &groups[tg as usize];
        let (cell, damage) = plan.strike(
            ga.strike_rating + attack_penalty,
            gt.defense_rating + if KEEP_HITS { i32::from(ft.penalty) } else { 0 },
            roll,
            ga.offense,
            gt.defense_factor,
        )?;
        landing.tally.add(cell.counts);
        let (downed, penalty) = model.land(prep, &mut ft.state, cell.hit, damage);
        if KEEP_HITS {
            if let Some(hits) = landing.hits.as_mut() {
                // Pushed whether or not it hit, kept only if it did: no
                // branch on the dice.
                let kept = hits.len() + usize::from(cell.hit);
                hits.push((t, penalty, tg));
                hits.truncate(kept);
            }
            if let Some(struck) = landing.struck.as_mut()
                && cell.hit
            {
                ranked::note_damage(struck, t, damage);
            }
        }
        downed
    };
    // Written whether or not it fell, counted only if it did: no branch.
    if let Some(slot) = landing.fallen.get_mut(landing.fell) {
        *slot = t;
    }
    landing.fell += usize::from(downed);
    Ok(())
}

/// How a fast battle is watched, as the general loop is: a progress report
/// every [`PROGRESS_EVERY`] actions or so and the flag before each moment
/// (two compares when nobody watches).
pub(super) struct Watch<'c, 'a> {
    control: &'c mut Control<'a>,
    /// The action count of the next progress report (never, without a
    /// callback).
    next: u64,
}

impl<'c, 'a> Watch<'c, 'a> {
    pub(super) fn new(control: &'c mut Control<'a>) -> Self {
        let next = if control.progress.is_some() { 0 } else { u64::MAX };
        Watch { control, next }
    }

    /// Whether [`before`](Self::before) would do anything now: a progress
    /// report is due or the flag is set.
    #[inline]
    pub(super) fn wants(&self, summary: &BattleSummary) -> bool {
        summary.actions >= self.next || self.control.cancelled()
    }

    /// Before the moment at `tick` of `round`: reports progress when due,
    /// and stops the battle ([`SimError::Interrupted`], where it was) once
    /// the flag is set.
    #[inline]
    pub(super) fn before(
        &mut self,
        (tick, round): (u64, u32),
        summary: &BattleSummary,
        standing: impl FnOnce() -> u64,
        fielded: usize,
    ) -> Result<(), SimError> {
        if summary.actions >= self.next
            && let Some(progress) = self.control.progress.as_mut()
        {
            self.next = summary.actions.saturating_add(PROGRESS_EVERY);
            progress(&BattleProgress {
                tick,
                round,
                actions: summary.actions,
                standing: standing(),
                fielded: fielded as u64,
            });
        }
        if self.control.cancelled() {
            return Err(SimError::Interrupted {
                tick: summary.ticks,
                round: summary.rounds,
                actions: summary.actions,
            });
        }
        Ok(())
    }
}

/// The next moment of a loop fed by a lean clock (`moments.rs`,
/// `opposed.rs`): the clock's next step, a new round counted in
/// `round_starts` (none begun past the cap), the battle's caps checked and
/// the watch told; on a moment (its tick and round), `summary` takes its
/// tick, round and actors.
/// `None` when the battle stops there: nobody can ever act again (a
/// timeout, not a win) or a cap is reached (a moment is fought whole or
/// not at all).
#[inline(always)]
pub(super) fn next_moment<C: crate::clock::Clock>(
    (clock, rolls, acting): (&mut C, &mut SeededRolls, &mut Vec<u32>),
    plan: &FastPlan,
    (summary, round_starts, watch): (&mut BattleSummary, &mut u32, &mut Watch<'_, '_>),
    standing: impl FnOnce() -> u64,
    fielded: usize,
) -> Result<Option<(u64, u32)>, SimError> {
    loop {
        let Some(step) = clock.next(rolls, acting)? else {
            return Ok(None);
        };
        let (tick, round) = match step {
            crate::clock::Tick::NewRound => {
                *round_starts += 1;
                if *round_starts > plan.max_rounds {
                    return Ok(None);
                }
                summary.rounds = summary.rounds.max(*round_starts);
                continue;
            }
            crate::clock::Tick::Moment { tick, round, .. } => (tick, round),
        };
        if tick > plan.max_ticks
            || round > plan.max_rounds
            || summary.actions.saturating_add(acting.len() as u64) > plan.max_actions
        {
            return Ok(None);
        }
        watch.before((tick, round), summary, standing, fielded)?;
        summary.ticks = tick;
        summary.rounds = summary.rounds.max(round);
        summary.actions += acting.len() as u64;
        return Ok(Some((tick, round)));
    }
}

/// The end of a moment at which someone fell: the casualties (if kept)
/// record the sides' standing, and the outcome if a side is left empty.
#[inline(always)]
fn after_falls<S>(
    standing: &[Vec<Fighter<S>>; 2],
    casualties: &mut Option<&mut Vec<Casualties>>,
    tick: u64,
) -> Option<Outcome> {
    if let Some(list) = casualties.as_mut() {
        list.push(Casualties {
            tick,
            standing: standing.iter().map(|s| s.len() as u64).collect(),
        });
    }
    decided(standing)
}

/// Whether fighter `who`'s bit in `down` is set.
#[inline]
fn is_down(down: &[u64], who: u32) -> bool {
    down.get(who as usize / 64).is_some_and(|w| w & (1 << (who % 64)) != 0)
}

impl Common {
    /// Room for a battle of `n` fighters, `first_b` of them on side 0, in
    /// every per-fighter array both loops use and in `records`, or
    /// [`SimError::OutOfMemory`] naming the battle's size (a battle too big
    /// for memory is an error, not an abort).
    /// `keep_hits`: the loop keeps each moment's hits; `moments`: a lean
    /// clock hands out the actors (into `acting`).
    fn reserve<S>(
        &mut self,
        records: &mut [Vec<Fighter<S>>; 2],
        (n, first_b): (usize, usize),
        (keep_hits, moments): (bool, bool),
    ) -> Result<(), SimError> {
        let oom = |_| SimError::OutOfMemory { fighters: n as u64 };
        reserve_fighters(&mut records[0], first_b).map_err(oom)?;
        reserve_fighters(&mut records[1], n - first_b).map_err(oom)?;
        reserve_fighters(&mut self.pos, n)?;
        reserve_fighters(&mut self.down, n.div_ceil(64)).map_err(oom)?;
        reserve_fighters(&mut self.fallen, n + 1).map_err(oom)?;
        // Every fighter may act, and be hit, at one moment.
        if moments {
            reserve_fighters(&mut self.acting, n)?;
        }
        if keep_hits {
            reserve_fighters(&mut self.hits, n)?;
        }
        Ok(())
    }

    /// Musters the battle (`group_of[f]` is fighter `f`'s group) into
    /// `standing`: every fighter fresh, standing, in number order, with
    /// room as [`reserve`](Self::reserve) for `needs`; or, from a
    /// continuation's `start`, those standing with their damage and its
    /// wound penalty (the others down), in number order as the general
    /// loop lists them. Returns the first number of side 1 (the scenario
    /// lists side 0's groups first, so each side's fighters are a run of
    /// numbers) and the fighters fielded per side.
    fn muster<M: FastModel>(
        &mut self,
        (model, groups, prep): (&M, &[FastGroup], &M::Prep),
        group_of: &[u32],
        start: Option<&Start>,
        standing: &mut [Vec<Fighter<M::Rec>>; 2],
        needs: (bool, bool),
    ) -> Result<(u32, [u64; 2]), SimError> {
        if groups.len() > MAX_GROUPS {
            // The plan refuses these first: a record numbers its group in 16 bits.
            return Err(SimError::Scenario("the fast path numbers at most 65,536 groups".into()));
        }
        let n = group_of.len();
        let first_b = group_of.iter().position(|&g| groups[g as usize].side == 1).unwrap_or(n);
        self.reserve(standing, (n, first_b), needs)?;
        let first_b = first_b as u32;
        let n = n as u32;
        self.down.clear();
        self.down.resize(group_of.len().div_ceil(64), 0);
        self.fallen.clear();
        self.fallen.resize(group_of.len() + 1, 0);
        self.hits.clear();
        self.pos.clear();
        let Some(start) = start else {
            for (side, range) in [(0, 0..first_b), (1, first_b..n)] {
                let list: &mut Vec<Fighter<M::Rec>> = &mut standing[side];
                list.clear();
                list.extend(range.map(|who| {
                    let g = group_of[who as usize];
                    Fighter {
                        state: M::fresh_record(prep, g as usize),
                        // Lossless: at most MAX_GROUPS groups (checked above).
                        group: g as u16,
                        penalty: 0,
                        who,
                    }
                }));
            }
            self.pos.extend((0..first_b).chain(0..n - first_b));
            return Ok((first_b, [u64::from(first_b), u64::from(n - first_b)]));
        };
        if start.damage.len() != group_of.len() || start.standing.len() != group_of.len() {
            return Err(SimError::Scenario(format!(
                "a continuation of {n} fighters needs {n} damage states and standing flags"
            )));
        }
        for list in standing.iter_mut() {
            list.clear();
        }
        for (who, (&g, (d, &up))) in group_of
            .iter()
            .zip(start.damage.iter().zip(&start.standing))
            .enumerate()
        {
            let who = who as u32;
            let list = &mut standing[usize::from(who >= first_b)];
            if !up {
                if let Some(w) = self.down.get_mut(who as usize / 64) {
                    *w |= 1 << (who % 64);
                }
                // Never read: a fighter down neither acts nor is picked.
                self.pos.push(u32::MAX);
                continue;
            }
            let Some((state, penalty)) = model.record_of(prep, d) else {
                return Err(SimError::Scenario(
                    "a damage state is not of the battle's damage model".into(),
                ));
            };
            self.pos.push(list.len() as u32);
            list.push(Fighter {
                state,
                group: g as u16,
                penalty: narrow_penalty(penalty),
                who,
            });
        }
        Ok((first_b, standing.each_ref().map(|s| s.len() as u64)))
    }
}

/// The end of a moment, its first part: the wound penalties of the
/// moment's `hits` take effect (first, while every hit's record is where
/// `pos` says).
#[inline]
fn set_penalties<S>(standing: &mut [Vec<Fighter<S>>; 2], pos: &[u32], first_b: u32, hits: &[(u32, i32, u32)]) {
    for &(t, penalty, _) in hits {
        if let Some(ft) = standing[usize::from(t >= first_b)].get_mut(pos[t as usize] as usize) {
            ft.penalty = narrow_penalty(penalty);
        }
    }
}

/// The end of a moment, its second part: the `fallen` are marked down and
/// leave their side's list (swap-removed, as the general loop does).
#[inline]
fn remove_fallen<S>(
    standing: &mut [Vec<Fighter<S>>; 2],
    pos: &mut [u32],
    down: &mut [u64],
    first_b: u32,
    fallen: &[u32],
) {
    for &f in fallen {
        if let Some(w) = down.get_mut(f as usize / 64) {
            *w |= 1 << (f % 64);
        }
        let list = &mut standing[usize::from(f >= first_b)];
        let p = pos[f as usize] as usize;
        list.swap_remove(p);
        if let Some(moved) = list.get(p) {
            pos[moved.who as usize] = p as u32;
        }
    }
}

/// The outcome once a side may have emptied, or `None` while both stand.
#[inline]
fn decided<S>(standing: &[Vec<Fighter<S>>; 2]) -> Option<Outcome> {
    match (standing[0].is_empty(), standing[1].is_empty()) {
        (false, false) => None,
        (false, true) => Some(Outcome::Win { side: 0 }),
        (true, false) => Some(Outcome::Win { side: 1 }),
        (true, true) => Some(Outcome::Draw),
    }
}

/// Where a fast battle's results go and how it is watched: the workspace,
/// the dice, the casualties list if kept, and the control (flag and
/// progress callback; never a trace sink).
pub(crate) type Out<'a, 'c> = (
    &'a mut FastWorkspace,
    &'a mut SeededRolls,
    Option<&'a mut Vec<Casualties>>,
    &'a mut Control<'c>,
);

/// What a fast battle reports besides its summary.
pub(crate) struct FastEnd {
    pub(crate) summary: BattleSummary,
    pub(crate) fielded: [u64; 2],
    pub(crate) standing: [u64; 2],
}
