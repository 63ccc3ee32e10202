//! FUDGE opposed striking on the fast path: two-sided battles
//! under every timing system with a lean clock (Continuous's included) and
//! every targeting policy.
//!
//! The general loop (`battle/fight.rs`) fights these on full per-fighter
//! arrays, every strike through the general pick (`battle/targeting.rs`)
//! and `combat::opposed_blow`. Here the lean clock hands out each moment's
//! actors as it does there (the same `Clock`, so the same steps, dice and
//! order) and the moment is fought on the fast path's compact records (see
//! the module docs one level up), in the general loop's order:
//!
//! 1. **The group rolls**: with `group_roll`, side 0 then side 1, each of
//!    two or more standing fighters, rolls one 2dF for the moment.
//! 2. **The picks**: every actor picks its target among the enemies
//!    standing at the start of the moment and engages it at once (later
//!    picks of the moment see it). FUDGE's reach (at most
//!    `max_attackers_per_target` attackers engage one target, though an
//!    attacker may keep striking its own target when it is full) needs each
//!    fighter's target and its engaged attackers: a random pick is up to
//!    eight uniform draws for an enemy in reach, then a uniform draw among
//!    those in reach (the general loop's draws exactly; those in reach are
//!    counted and found by a Fenwick tree per side, `InReach`, where the
//!    general loop scans the enemy list); a ranked pick is the enemy
//!    side's best key, the root of the general loop's tournament tree (a
//!    full fighter's key is absent), found by the fast path's index of a
//!    side's keys (`minmask.rs`, [`RankIndex`]: 4 bytes a fighter, 8
//!    once some damage taken passes 2^31 - 2, where the trees' 16-byte
//!    keys in twice a power of two of nodes, and each fighter's place,
//!    took about 41), or the attacker's own target if its key is better
//!    still. The pick is kept as the attacker's target; an attacker with
//!    nobody in reach keeps its old one, none or fallen, and loses the
//!    action.
//! 3. **The strikes**, in the actors' order: each side's roll (the group
//!    roll, or the fighter's own 4dF: attacker first, then defender), the
//!    skill for the round (plus-levels by round, per group and round
//!    parity), the wound penalties as of the start of the moment, FUDGE
//!    4.34's -1 per attacker beyond the first engaged on each, all counted
//!    by `combat::opposed_blow` itself; the damage lands at once on the
//!    target's record (nothing in the moment reads it until its end), and
//!    under `most_wounded` on its damage taken, kept in its key (the general loop
//!    counts those at the end of the moment; no pick comes in between).
//! 4. **The end of the moment** as the general loop's `land_hits`: wound
//!    penalties take effect, the fallen leave their lists, the clock and
//!    their engagement, the moved keys are set in the index, and each hit
//!    on a fighter still standing is offered to the clock as a
//!    disruption, in the order struck.
//!
//! Continuous timing takes this loop too, rather than the fused ring loop
//! (`continuous.rs`): a FUDGE action draws no `action_dice` word, so its
//! Ready Time is the clock's own draw at the follow-up, and the picks and
//! strikes need two passes over the moment anyway. Its clock is the ring
//! of the Continuous fast path behind the `Clock` trait (`opposed/ring.rs`)
//! when the battle's delays and ticks fit the ring, the lean
//! `ContinuousClock` otherwise.

use skirmish_core::combat::{self, Bearing, OpposedSide};
use skirmish_core::fighter::{ExchangeRule, FudgeRules};
use skirmish_core::ladder::CombatLevel;
use skirmish_core::striking::opposed::{Aim, PostureChoice, Stance};

use super::{
    Common, FastEnd, FastModel, FastPlan, Fighter, Out, Watch, after_falls, decided, is_down, next_moment,
    remove_fallen,
};
use crate::clock::Clock;
use crate::error::SimError;
use crate::ranking::ABSENT;
use crate::report::{BattleSummary, Outcome};
use crate::roster::{NONE, exchange_key, reserve_fighters};
use crate::scenario::Targeting;

mod rank;
mod reach;
mod ring;

use rank::RankIndex;
use reach::{InReach, pick_random, remove_fallen_in_reach};

/// The loop's rule modes: one-way strikes and no tactics; the two-way
/// exchange and no tactics; tactics (FUDGE 4.31's stances, shields, aim
/// and position, Scale, 4.32's postures, 4.33's NPC results), and either
/// exchange rule, read as the loop goes.
const ONE_WAY: u8 = 0;
const TWO_WAY: u8 = 1;
const WITH_TACTICS: u8 = 2;

/// Uniform draws a random pick makes for an enemy in reach before it draws
/// among those in reach (as the general loop's pick).
const TRIES: usize = 8;

/// What FUDGE opposed striking adds to a [`FastPlan`].
#[derive(Debug, Clone)]
pub(crate) struct OpposedPlan {
    rules: FudgeRules,
    /// At most this many attackers engage one target.
    reach: u32,
    /// Two-way exchanges counted by round: a pair exchanges once a round.
    by_round: bool,
    /// Per round parity (odd, even), per group: its skill (`None`: off the
    /// ladder, an error when it strikes or is struck in such a round). A
    /// moment reads one parity's list.
    skill: [Vec<Option<i32>>; 2],
    /// FUDGE 4.34's penalty (`FudgeRules::outnumbered`) of a fighter
    /// engaged by 0, 1, ... attackers, up to the reach: looked up twice an
    /// exchange.
    crowd: Vec<i32>,
    /// Per group: its combat level, to report that error.
    level: Vec<CombatLevel>,
    /// Per group: its stance (FUDGE 4.31).
    stance: Vec<Stance>,
    /// Per group: its standing modifiers and Scale (FUDGE 4.31, 4.22).
    bearing: Vec<Bearing>,
    /// Per group: an NPC whose result is its trait level (FUDGE 4.33).
    npc: Vec<bool>,
    /// Per group: its posture or mixed strategy (FUDGE 4.32).
    posture: Vec<PostureChoice>,
    /// Per group: beset, it fights one foe and ignores the others (FUDGE
    /// 4.34).
    concentrate: Vec<bool>,
    /// FUDGE 4.34's lone fighter played: the two-way exchange, the rule on.
    lone: bool,
}

impl OpposedPlan {
    /// The plan for these groups' fighters (in group order) under `rules`
    /// and `reach`, exchanges counted `by_round` or not.
    pub(crate) fn new<'f>(
        rules: FudgeRules,
        (reach, by_round): (u32, bool),
        groups: impl IntoIterator<Item = &'f skirmish_core::fighter::Fighter>,
    ) -> OpposedPlan {
        let (mut level, mut stance, mut bearing, mut npc, mut posture, mut concentrate) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for f in groups {
            concentrate.push(f.concentrate);
            level.push(f.skill);
            stance.push(f.stance);
            bearing.push(Bearing::of(f));
            npc.push(f.npc_result);
            posture.push(f.posture);
        }
        let skill = [1, 2].map(|round| {
            level
                .iter()
                .map(|l| l.in_round(round).ok().map(|s| s.value()))
                .collect()
        });
        let reach = reach.max(1);
        // Engagements never pass the reach (a full fighter takes no new
        // attacker); past this table the rule is called.
        let crowd = (0..=reach.min(64)).map(|k| rules.outnumbered(k)).collect();
        OpposedPlan {
            rules,
            reach,
            by_round,
            skill,
            crowd,
            level,
            stance,
            bearing,
            npc,
            posture,
            concentrate,
            lone: rules.lone_fighter && rules.exchange == ExchangeRule::TwoWay,
        }
    }

    /// Whether any group fights with tactics: a stance, a standing
    /// modifier, another Scale, an NPC result, a posture, concentrating.
    fn has_tactics(&self) -> bool {
        self.stance.iter().any(|&s| s != Stance::Normal)
            || (self.lone && self.concentrate.iter().any(|&c| c))
            || self.npc.iter().any(|&n| n)
            || self.posture.iter().any(|p| !p.is_normal())
            || self
                .bearing
                .iter()
                .any(|b| b.own != 0 || b.shield != 0 || b.aim != Aim::Anywhere || b.scale != self.bearing[0].scale)
    }

    /// The groups' skills in round `round` (at least 1), for
    /// [`skill`](Self::skill).
    #[inline]
    fn skills_in(&self, round: u32) -> &[Option<i32>] {
        &self.skill[usize::from(round.is_multiple_of(2))]
    }

    /// Group `g`'s skill in round `round` from its round's
    /// [`skills_in`](Self::skills_in), or the general loop's error for it.
    #[inline(always)]
    fn skill(&self, skills: &[Option<i32>], g: usize, round: u32) -> Result<i32, SimError> {
        match skills.get(g) {
            Some(&Some(s)) => Ok(s),
            _ => self.skill_error(g, round),
        }
    }

    /// The penalty of a fighter engaged by `attackers` (FUDGE 4.34).
    #[inline(always)]
    fn outnumbered(&self, attackers: u32) -> i32 {
        match self.crowd.get(attackers as usize) {
            Some(&p) => p,
            None => self.rules.outnumbered(attackers),
        }
    }

    #[cold]
    #[inline(never)]
    fn skill_error(&self, g: usize, round: u32) -> Result<i32, SimError> {
        let level = self.level.get(g).copied().unwrap_or_default();
        level.in_round(round).map(|s| s.value()).map_err(SimError::rules)
    }
}

/// What the FUDGE loop keeps per fighter and per moment, reused from
/// battle to battle.
#[derive(Default)]
pub(crate) struct OpposedArrays {
    /// Per fighter: its target, or [`NONE`].
    target_of: Vec<u32>,
    /// Per fighter: attackers engaged on it.
    engaged_by: Vec<u32>,
    /// The ranked policies' index of each side's keys (`most_wounded`'s
    /// damage taken kept in it).
    ranking: RankIndex,
    /// The moment's hits' targets, in the order struck, when penalties or
    /// disruption read them; and with penalties, each one's wound penalty
    /// after it. (Apart: a battle with disruption and no penalties keeps 4
    /// bytes a hit, where a Simultaneous round's hits are about one per
    /// fighter, against a target of 64 bytes a fighter.)
    hits: Vec<u32>,
    penalties: Vec<i32>,
    /// Exchanges by round: per fighter, the last exchange it began (the
    /// general loop's `exchange_key` of the round and its foe).
    exchanged: Vec<u64>,
    /// `random` only: per side, which places of its list hold a fighter in
    /// reach (fewer attackers engaged than the reach allows).
    in_reach: [InReach; 2],
    /// The moment's exchanges (attacker, target), in the actors' order.
    strikes: Vec<(u32, u32)>,
    /// FUDGE 4.34: the moment's beset fighters.
    lone: crate::lone::LoneMoment,
    /// Continuous timing's ring clock (`opposed/ring.rs`), once a battle
    /// has used it (boxed: moved out and back per battle).
    ring: Option<Box<ring::RingState>>,
}

impl OpposedArrays {
    /// Readies the arrays for a battle of `n` fighters, side 1's from
    /// number `first_b`, every one standing, fresh and unengaged.
    fn reset(
        &mut self,
        policy: Targeting,
        (reach, by_round): (u32, bool),
        n: usize,
        first_b: u32,
    ) -> Result<(), SimError> {
        let oom = |_| SimError::OutOfMemory { fighters: n as u64 };
        reserve_fighters(&mut self.target_of, n)?;
        reserve_fighters(&mut self.engaged_by, n)?;
        // A moment's hits: a strike lands or is answered, never both, and a
        // fighter strikes at most once a moment.
        reserve_fighters(&mut self.hits, n)?;
        reserve_fighters(&mut self.penalties, n)?;
        reserve_fighters(&mut self.strikes, n)?;
        self.lone.reserve(n)?;
        self.exchanged.clear();
        if by_round {
            reserve_fighters(&mut self.exchanged, n)?;
            self.exchanged.resize(n, u64::MAX);
        }
        self.target_of.clear();
        self.target_of.resize(n, NONE);
        self.engaged_by.clear();
        self.engaged_by.resize(n, 0);
        self.hits.clear();
        self.penalties.clear();
        if policy == Targeting::Random {
            self.in_reach[0].reset(first_b as usize)?;
            self.in_reach[1].reset(n - first_b as usize)?;
            return Ok(());
        }
        // Everyone standing, unengaged (the reach is at least 1) and
        // unhurt: every rank 0.
        debug_assert!(reach >= 1);
        self.ranking
            .reset((n, first_b), policy == Targeting::MostWounded)
            .map_err(oom)
    }

    /// Attacker `a`, its target `t` picked: `a` engages `t` (and leaves its
    /// old target), and the index learns the moved keys.
    #[inline(always)]
    fn engage(
        &mut self,
        policy: Targeting,
        reach: u32,
        (a, t): (u32, u32),
        down: &[u64],
        (pos, first_b): (&[u32], u32),
    ) {
        let old = self.target_of[a as usize];
        if old == t {
            return;
        }
        if old != NONE {
            self.engaged_by[old as usize] -= 1;
        }
        self.engaged_by[t as usize] += 1;
        self.target_of[a as usize] = t;
        if policy == Targeting::Random {
            // Only a fighter standing is in a list (the fallen's are marked
            // down at the end of the moment that felled them).
            if old != NONE && self.engaged_by[old as usize] == reach - 1 && !is_down(down, old) {
                self.in_reach[usize::from(old >= first_b)].add(pos[old as usize] as usize, 1);
            }
            if self.engaged_by[t as usize] == reach {
                self.in_reach[usize::from(t >= first_b)].add(pos[t as usize] as usize, -1);
            }
        } else {
            // A `most_wounded` key moves with an engagement only as its
            // fighter fills or has room again.
            let moved = |f: u32, full: u32| policy != Targeting::MostWounded || self.engaged_by[f as usize] == full;
            let (old_moved, t_moved) = (old != NONE && moved(old, reach - 1), moved(t, reach));
            if old_moved {
                self.ranking.update(reach, old, down, &self.engaged_by);
            }
            if t_moved {
                self.ranking.update(reach, t, down, &self.engaged_by);
            }
        }
    }
}

/// Fights one FUDGE opposed battle on the fast path with `clock` (readied
/// for this battle's fighters) handing out the moments; `group_of[f]` is
/// fighter `f`'s group.
pub(crate) fn fight_opposed<C: Clock, M: FastModel>(
    plan: &FastPlan,
    model: &M,
    prep: &M::Prep,
    group_of: &[u32],
    clock: &mut C,
    (ws, rolls, casualties, control): Out<'_, '_>,
) -> Result<FastEnd, SimError> {
    // The generator in a local: its state can stay in registers.
    let mut local = rolls.clone();
    let out = (ws, &mut local, casualties, control);
    // One loop per targeting kind and rule mode (`MODE`): a one-way battle
    // of normal stances runs the arithmetic of the one-way strike alone, a
    // two-way one of normal stances adds only the defender's answer (the
    // stance is a constant in both, and the blow's arithmetic folds it
    // away); a battle with stances reads them, and its exchange rule, as it
    // goes. (A loop for every combination compiled a third slower.)
    let op = plan.opposed.as_deref();
    let two_way = op.is_some_and(|op| op.rules.exchange == ExchangeRule::TwoWay);
    let tactics = op.is_some_and(OpposedPlan::has_tactics);
    let mode = match (tactics, two_way) {
        (true, _) => WITH_TACTICS,
        (false, true) => TWO_WAY,
        (false, false) => ONE_WAY,
    };
    let end = match (plan.targeting == Targeting::Random, mode) {
        (true, ONE_WAY) => fight_with::<C, M, false, ONE_WAY>(plan, model, prep, group_of, clock, out),
        (true, TWO_WAY) => fight_with::<C, M, false, TWO_WAY>(plan, model, prep, group_of, clock, out),
        (true, _) => fight_with::<C, M, false, WITH_TACTICS>(plan, model, prep, group_of, clock, out),
        (false, ONE_WAY) => fight_with::<C, M, true, ONE_WAY>(plan, model, prep, group_of, clock, out),
        (false, TWO_WAY) => fight_with::<C, M, true, TWO_WAY>(plan, model, prep, group_of, clock, out),
        (false, _) => fight_with::<C, M, true, WITH_TACTICS>(plan, model, prep, group_of, clock, out),
    };
    *rolls = local;
    end
}

/// Fights one FUDGE opposed battle under Continuous timing on the fast
/// path's ring (the plan's lap; see `opposed/ring.rs`).
pub(crate) fn fight_opposed_ring<M: FastModel>(
    plan: &FastPlan,
    model: &M,
    prep: &M::Prep,
    group_of: &[u32],
    (ws, rolls, casualties, control): Out<'_, '_>,
) -> Result<FastEnd, SimError> {
    // The ring's memory is moved out of the workspace for the battle (the
    // loop borrows the rest of it) and back after.
    let mut state = ws.common.opposed.ring.take().unwrap_or_default();
    let end = ring::RingClock::new(
        &mut state,
        (group_of, &plan.groups),
        plan.lap.unwrap_or(1),
        plan.any_disruptible,
    )
    .and_then(|mut clock| {
        fight_opposed(
            plan,
            model,
            prep,
            group_of,
            &mut clock,
            (ws, rolls, casualties, control),
        )
    });
    ws.common.opposed.ring = Some(state);
    end
}

#[expect(clippy::too_many_lines, reason = "the battle loop reads best in one piece")]
#[inline]
fn fight_with<C: Clock, M: FastModel, const RANKED: bool, const MODE: u8>(
    plan: &FastPlan,
    model: &M,
    prep: &M::Prep,
    group_of: &[u32],
    clock: &mut C,
    (ws, rolls, mut casualties, control): Out<'_, '_>,
) -> Result<FastEnd, SimError> {
    let Some(op) = plan.opposed.as_deref() else {
        return Err(SimError::Scenario("the fast path's plan is not FUDGE opposed".into()));
    };
    let groups = plan.groups.as_slice();
    let (standing, c) = M::records(ws);
    let (first_b, fielded) = c.muster((model, groups, prep), group_of, None, standing, (false, true))?;
    let Common {
        pos,
        down,
        fallen,
        acting,
        opposed: arrays,
        ..
    } = c;
    let policy = plan.targeting;
    let reach = op.reach;
    arrays.reset(policy, (reach, op.by_round), group_of.len(), first_b)?;
    arrays.lone.reset(group_of.len(), op.rules.sweeping_blow);
    let penalizes = M::penalizes(prep);
    // The moment's hits are kept only for what reads them at its end:
    // penalties and disruption (`most_wounded` counts each as it lands).
    let keep_hits = penalizes || plan.any_disruptible;
    let counts_damage = RANKED && policy == Targeting::MostWounded;
    let rules = &op.rules;

    let mut summary = BattleSummary::start();
    let mut round_starts = 0u32;
    let mut watch = Watch::new(control);
    // Already decided before a blow (a side with nobody in it).
    if let Some(outcome) = decided(standing) {
        summary.outcome = outcome;
    }
    while summary.outcome == Outcome::Timeout {
        let Some((tick, round)) = next_moment(
            (&mut *clock, &mut *rolls, &mut *acting),
            plan,
            (&mut summary, &mut round_starts, &mut watch),
            || standing.iter().map(|s| s.len() as u64).sum(),
            group_of.len(),
        )?
        else {
            break;
        };

        // 1. Each side's group roll for the moment.
        let side_roll: [Option<i32>; 2] = if rules.group_roll {
            let r0 = (standing[0].len() >= 2).then(|| rolls.two_df());
            let r1 = (standing[1].len() >= 2).then(|| rolls.two_df());
            [r0, r1]
        } else {
            [None, None]
        };

        // 2. Every actor picks its target and engages it: its pick is its
        // target now (`target_of`). An actor with nobody in reach keeps its
        // old one, none or fallen (its own target standing is always in
        // reach), so its action is lost. A fighter acts at most once a
        // moment. (A list of the picks cost 4 bytes an actor, and a
        // Simultaneous round is an actor a fighter.)
        for &a in acting.iter() {
            let side = usize::from(a >= first_b);
            let enemies = &standing[side ^ 1];
            let target = if RANKED {
                let mut best = arrays.ranking.best_of(side ^ 1);
                let mine = arrays.target_of[a as usize];
                // Its own target stays in reach even when full.
                if mine != NONE && !is_down(down, mine) {
                    best = best.min(arrays.ranking.own(mine, &arrays.engaged_by));
                }
                (best != ABSENT).then_some(best.1)
            } else {
                pick_random(rolls, enemies, a, arrays, reach, (pos, first_b))
                    .and_then(|at| enemies.get(at))
                    .map(|f| f.who)
            };
            if let Some(t) = target {
                arrays.engage(policy, reach, (a, t), down, (pos, first_b));
            }
        }

        // 3. Every strike, in the order picked, its damage landed at once:
        // first which are exchanges of their own and, under FUDGE 4.34,
        // who is beset (the general loop's `count_exchanges`)...
        let round_no = round.max(1);
        let mut fell = 0usize;
        let OpposedArrays {
            target_of,
            engaged_by,
            hits,
            penalties,
            ranking,
            exchanged,
            strikes,
            lone,
            ..
        } = &mut *arrays;
        let lone_on = MODE != ONE_WAY && op.lone;
        strikes.clear();
        if lone_on {
            lone.begin();
        }
        for &a in acting.iter() {
            let t = target_of[a as usize];
            if t == NONE || is_down(down, t) {
                continue; // nobody was in reach: the action is lost
            }
            // Exchanges by round: a blow at a foe that began an exchange
            // with this fighter this round is that exchange.
            if MODE != ONE_WAY && op.by_round {
                if exchanged[t as usize] == exchange_key(round, a) {
                    continue;
                }
                exchanged[a as usize] = exchange_key(round, t);
            }
            if lone_on {
                lone.engage(a, t);
            }
            strikes.push((a, t));
        }
        // A moment where nobody is beset is fought as plain exchanges.
        let lone_on = lone_on && lone.any_beset();
        // ...then each exchange.
        let crowd = |f: u32| op.outnumbered(engaged_by[f as usize]);
        let skills = op.skills_in(round_no);
        let minimum = rules.minimum_to_hit.value();
        // A hit on fighter `t` (on side `side`): its damage on the record,
        // kept for the end of the moment, counted for `most_wounded`, and
        // the fallen noted.
        macro_rules! land {
            ($side:expr, $t:expr, $landed:expr, $damage:expr) => {{
                let (side, t): (usize, u32) = ($side, $t);
                if let Some(ft) = standing[side].get_mut(pos[t as usize] as usize) {
                    land_on!(ft, t, $landed, $damage);
                }
            }};
        }
        // The same on fighter `t`'s record `ft`.
        macro_rules! land_on {
            ($ft:expr, $t:expr, $landed:expr, $damage:expr) => {{
                let (ft, t, landed, damage): (&mut Fighter<_>, u32, bool, i32) = ($ft, $t, $landed, $damage);
                {
                    let (downed, penalty) = model.land(prep, &mut ft.state, landed, damage);
                    if keep_hits && landed {
                        hits.push(t);
                        if penalizes {
                            penalties.push(penalty);
                        }
                    }
                    if counts_damage && landed {
                        ranking.add_taken(t, damage)?;
                    }
                    if downed && let Some(slot) = fallen.get_mut(fell) {
                        *slot = t;
                        fell += 1;
                    }
                }
            }};
        }
        for &(a, t) in strikes.iter() {
            let a_side = usize::from(a >= first_b);
            let (ag, a_penalty) = match standing[a_side].get(pos[a as usize] as usize) {
                Some(fa) => (fa.group as usize, i32::from(fa.penalty)),
                None => continue,
            };
            let Some(ft) = standing[a_side ^ 1].get_mut(pos[t as usize] as usize) else {
                continue;
            };
            debug_assert_eq!(ft.who, t);
            let (tg, t_penalty) = (ft.group as usize, i32::from(ft.penalty));
            let a_skill = op.skill(skills, ag, round_no)?;
            let t_skill = op.skill(skills, tg, round_no)?;
            // FUDGE 4.34: the slots of the two fighters that are beset (at
            // most one lookup each for the whole exchange); a well-armored
            // fighter beset by several may let this blow meet his armor
            // unopposed.
            let (mut a_lone, mut t_lone, answers) = if lone_on {
                lone.pair(a, t)
            } else {
                (None, None, lone.answers())
            };
            let ignored = MODE == WITH_TACTICS && op.concentrate[tg] && t_lone.as_ref().is_some_and(|s| s.ignores(a));
            // A fighter's roll: none for an NPC whose result is its trait
            // level (FUDGE 4.33), else its side's group roll or its own
            // 4dF; a beset fighter's one roll of the moment.
            let mut roll_of = |side: usize, g: usize| {
                if MODE == WITH_TACTICS && op.npc[g] {
                    0
                } else {
                    side_roll[side].unwrap_or_else(|| rolls.four_df())
                }
            };
            let a_roll = match a_lone.as_deref_mut() {
                Some(s) => s.roll(|| roll_of(a_side, ag)),
                None => roll_of(a_side, ag),
            };
            let t_roll = match t_lone.as_deref_mut() {
                _ if ignored => 0,
                Some(s) => s.roll(|| roll_of(a_side ^ 1, tg)),
                None => roll_of(a_side ^ 1, tg),
            };
            // FUDGE 4.32: each side's posture, drawn now if mixed.
            let (a_posture, t_posture) = if MODE == WITH_TACTICS {
                let ap = match a_lone.as_deref_mut() {
                    Some(s) => s.posture(|| op.posture[ag].draw(rolls).offense()),
                    None => op.posture[ag].draw(rolls).offense(),
                };
                let tp = match t_lone.as_deref_mut() {
                    _ if ignored => 0,
                    Some(s) => s.posture(|| op.posture[tg].draw(rolls).offense()),
                    None => op.posture[tg].draw(rolls).offense(),
                };
                (ap, tp)
            } else {
                (0, 0)
            };
            let mut attacker = OpposedSide {
                skill: a_skill,
                penalty: a_penalty,
                outnumbered: crowd(a),
                roll: a_roll,
                stance: Stance::Normal,
                modifier: 0,
                minimum,
                posture: a_posture,
            };
            let mut defender = OpposedSide {
                skill: t_skill,
                penalty: t_penalty,
                outnumbered: crowd(t),
                roll: t_roll,
                stance: Stance::Normal,
                modifier: 0,
                minimum,
                posture: t_posture,
            };
            if MODE == WITH_TACTICS {
                let (ab, tb) = (&op.bearing[ag], &op.bearing[tg]);
                (attacker.stance, defender.stance) = (op.stance[ag], op.stance[tg]);
                (attacker.modifier, defender.modifier) = (ab.modifier_against(tb), tb.modifier_against(ab));
                (attacker.minimum, defender.minimum) =
                    (ab.minimum_against(tb, minimum), tb.minimum_against(ab, minimum));
            }
            let (blow, counter) = if ignored {
                (
                    combat::unopposed_blow(attacker, groups[ag].offense, groups[tg].defense_factor),
                    None,
                )
            } else {
                let blow = combat::opposed_blow(attacker, defender, groups[ag].offense, groups[tg].defense_factor);
                // A two-way exchange: the defender who wins hurts the attacker.
                let counter = if MODE != ONE_WAY {
                    combat::counter_blow(&blow, rules, groups[tg].offense, groups[ag].defense_factor)
                } else {
                    None
                };
                (blow, counter)
            };
            // A beset fighter's blow waits for the end of the moment's
            // exchanges (FUDGE 4.34).
            let (a_waits, t_waits) = (a_lone.is_some(), t_lone.is_some() && !ignored);
            if let Some(s) = a_lone.as_deref_mut() {
                // His degree as FUDGE 4.34 compares it (ties given by 4.31
                // counted), or none over a foe who did not roll against him.
                let degree = if ignored {
                    crate::lone::UNOPPOSED
                } else {
                    blow.attacker_degree()
                };
                answers.defer(s, t, degree, blow.landed.then_some(blow.damage));
            }
            if let Some(s) = t_lone.as_deref_mut().filter(|_| t_waits) {
                answers.defer(s, a, blow.defender_degree(), counter);
            }
            let landed = blow.landed && !a_waits;
            let counter = counter.filter(|_| !t_waits);
            summary.hits += u64::from(landed) + u64::from(counter.is_some());
            // `most_wounded`'s damage taken counts at once: every pick of
            // the moment is made (nothing reads a key until the next), and
            // the keys the end of the moment moves (the fallen's, their
            // targets') are set again there, so every key ends as it would
            // from the moment's hits summed at its end, without keeping
            // them (4 to 8 bytes a hit: a Simultaneous round's are a hit per
            // fighter or so).
            land_on!(ft, t, landed, blow.damage);
            // The defender's answer lands after the blow, as the general
            // loop lands its hits in order.
            if let Some(back) = counter {
                land!(a_side, a, true, back);
            }
            // After a beset fighter's last exchange of the moment, his blows
            // land (FUDGE 4.34's rule).
            macro_rules! finish {
                ($slot:expr) => {
                    if let Some(s) = $slot
                        && let Some(settled) = answers.finish(s)
                    {
                        for &(foe, damage) in answers.blows(&settled) {
                            summary.hits += 1;
                            land!(usize::from(foe >= first_b), foe, true, damage);
                        }
                    }
                };
            }
            finish!(a_lone);
            finish!(t_lone);
        }

        // 4. The end of the moment (as the general loop's `land_hits`).
        if penalizes {
            set_penalties(standing, pos, first_b, (hits, penalties));
            penalties.clear();
        }
        if fell > 0 {
            if RANKED {
                remove_fallen(standing, pos, down, first_b, &fallen[..fell]);
            } else {
                remove_fallen_in_reach(standing, (pos, down, first_b), &fallen[..fell], arrays, reach);
            }
            clock.remove_fallen(&fallen[..fell]);
        }
        end_moment::<RANKED>(arrays, reach, down, &fallen[..fell], (pos, first_b));
        let hits = &mut arrays.hits;
        if plan.any_disruptible {
            for &t in hits.iter() {
                if !is_down(down, t) && clock.disrupt(t, groups[group_of[t as usize] as usize].disruptible) {
                    summary.disruptions += 1;
                }
            }
        }
        hits.clear();
        if fell > 0
            && let Some(outcome) = after_falls(standing, &mut casualties, tick)
        {
            summary.outcome = outcome;
        }
    }
    Ok(FastEnd {
        summary,
        fielded,
        standing: standing.each_ref().map(|s| s.len() as u64),
    })
}

/// The wound penalties of the moment's hits (their targets, each one's
/// penalty after it) take effect (before the fallen leave their lists,
/// while every hit's record is where `pos` says).
#[inline]
fn set_penalties<S>(
    standing: &mut [Vec<Fighter<S>>; 2],
    pos: &[u32],
    first_b: u32,
    (hits, penalties): (&[u32], &[i32]),
) {
    debug_assert_eq!(hits.len(), penalties.len());
    for (&t, &penalty) in hits.iter().zip(penalties) {
        if let Some(ft) = standing[usize::from(t >= first_b)].get_mut(pos[t as usize] as usize) {
            ft.penalty = super::narrow_penalty(penalty);
        }
    }
}

/// The end of a moment's engagements and keys, after the fallen are marked
/// down: the fallen leave the index and their targets, whose keys are set
/// again (the index's answers depend only on its keys, so the order of
/// these updates, and of the strikes' under `most_wounded`, is free).
#[inline]
fn end_moment<const RANKED: bool>(
    arrays: &mut OpposedArrays,
    reach: u32,
    down: &[u64],
    fallen: &[u32],
    (pos, first_b): (&[u32], u32),
) {
    let OpposedArrays {
        target_of,
        engaged_by,
        ranking,
        in_reach,
        ..
    } = arrays;
    for &f in fallen {
        if RANKED {
            ranking.update(reach, f, down, engaged_by);
        }
        let t = target_of[f as usize];
        if t != NONE {
            engaged_by[t as usize] -= 1;
            target_of[f as usize] = NONE;
            if RANKED {
                ranking.update(reach, t, down, engaged_by);
            } else if engaged_by[t as usize] == reach - 1 && !is_down(down, t) {
                in_reach[usize::from(t >= first_b)].add(pos[t as usize] as usize, 1);
            }
        }
    }
}
