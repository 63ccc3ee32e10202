//! One moment under FUDGE opposed striking (docs/rules.md §2.2.2,
//! §2.2.6, §7), every outcome with its exact weight, as the battle loop
//! plays it (`battle/fight.rs`): the same picks, exchanges, lone fighters
//! and hits landing together, through the core's `combat::opposed_blow`,
//! `combat::counter_blow` and `combat::unopposed_blow` and the battle's
//! own [`LoneMoment`] for FUDGE 4.34.
//!
//! - **Picks.** Every fighter acting picks a foe among those standing at
//!   the moment's start (a random one, each as likely; or the policy's)
//!   and engages it; the engagements count in FUDGE 4.34's per-foe
//!   penalty (`FudgeRules::outnumbered`). The state keeps whom each
//!   engages where that can change a later moment (`keeps_targets`); in
//!   a duel nobody is ever engaged by more than one.
//! - **Exchanges.** An action that lands is an exchange: the actor and its
//!   target roll (4dF each, by count; none for an NPC; the side's one 2dF
//!   under `group_roll` when two or more of it stand), the winner by the
//!   minimum hurts the loser (two-way), or only the actor can (one-way).
//!   Under the round systems (Simultaneous, Simple and Graduated Rounds) a
//!   blow at a foe whose last exchange begun this round was with the
//!   striker is that exchange and nobody rolls: the state remembers each
//!   fighter's last exchange begun (`Slot::Up::exchanged`) until the
//!   round's end ([`new_round`]).
//! - **The lone fighter.** A fighter in exchanges with two or more foes at
//!   one moment (two-way, `lone_fighter` on) rolls once for them all: his
//!   roll is enumerated once, each of his foes' in its exchange; the foes
//!   who beat him hurt him at once, and his own blows, kept until his last
//!   exchange of the moment, are settled by the battle's [`LoneMoment`]
//!   replayed over his answers (the core's `LoneTally` and `lone_blows`).
//!   One who `concentrate`s lets the blows of the foes he does not fight
//!   meet his armor unopposed.
//!
//! The hits land at the moment's end in the order the battle pushes them:
//! each exchange's blow, then its answer, then the blows of a lone fighter
//! whose last exchange it was.

use std::cell::RefCell;
use std::rc::Rc;

use num_integer::Integer;
use skirmish_core::combat::{self, Bearing, OpposedSide};
use skirmish_core::damage::DamageModel;
use skirmish_core::dice::{Dice, Distribution};
use skirmish_core::fighter::{ExchangeRule, FudgeRules};
use skirmish_core::timing::TimingSystem;

use super::error::ExactError;
use super::moment::{FixedMap, NO_TARGET, Next, Slot, State, engagements, land, settle};
use super::schedule::every_joint_roll;
use super::setup::Fight;
use crate::error::SimError;
use crate::lone::{LoneMoment, UNOPPOSED};
use crate::ranking::own_key;
use crate::scenario::Targeting;

/// Whether two-way exchanges count by round in `fight` (docs/rules.md
/// §2.2.2): the state then remembers each fighter's last exchange begun
/// until the round's end.
pub(super) fn by_round(fight: &Fight, rules: &FudgeRules) -> bool {
    rules.exchange == ExchangeRule::TwoWay && fight.timing.exchanges_by_round()
}

/// Whether FUDGE 4.34's lone fighter is played (the battle's rule).
fn lone_on(rules: &FudgeRules) -> bool {
    rules.lone_fighter && rules.exchange == ExchangeRule::TwoWay
}

/// Whether the state keeps whom each fighter engages: under
/// `least_engaged` targeting (its picks count them), and beyond a duel
/// where the per-foe penalty counts them and a fighter's engagement can
/// outlast the moment it picked (under Simultaneous Combat everyone
/// standing picks anew at every moment, before any blow).
fn keeps_targets(fight: &Fight, rules: &FudgeRules) -> bool {
    fight.targeting == Targeting::LeastEngaged
        || (fight.fighters.len() > 2
            && rules.multi_foe_penalty > 0
            && !matches!(fight.timing, TimingSystem::Simultaneous))
}

/// A step's outcomes with every exchange remembered forgotten: the round
/// is over (states that differed only by them merged).
pub(super) fn new_round((outcomes, total): (Vec<(Next, u128)>, u128)) -> (Vec<(Next, u128)>, u128) {
    let mut merged: FixedMap<Next, u128> = FixedMap::default();
    for (next, w) in outcomes {
        let next = match next {
            Next::Fight(s) => {
                let cleared: State = s
                    .iter()
                    .map(|slot| match *slot {
                        Slot::Up {
                            damage, taken, target, ..
                        } => Slot::Up {
                            damage,
                            taken,
                            target,
                            exchanged: NO_TARGET,
                        },
                        Slot::Down => Slot::Down,
                    })
                    .collect();
                Next::Fight(cleared.with_timing(s.timing.clone()))
            }
            ended => ended,
        };
        // The same total: the sum of weights is unchanged.
        *merged.entry(next).or_default() += w;
    }
    (merged.into_iter().collect(), total)
}

/// The most joint rolls (group and beset dice) one FUDGE moment
/// enumerates over all its picks: past it the moment is refused
/// ([`ExactError::TooManyOutcomes`]) instead of running for minutes.
const MOST_JOINT_ROLLS: u64 = 1_000_000;

/// The most partial outcomes one FUDGE moment makes over all its picks
/// and joint rolls (each a copy of the fighters' slots), per outcome the
/// budget allows one exchange ([`super::ExactOptions::max_outcomes`]):
/// past it the moment is refused ([`ExactError::TooManyOutcomes`]). Under
/// the default budget, about 17 million: the goblin ambush's eight
/// fighters are refused in about 90 s of a debug build, where they would
/// have been enumerated for hours.
const WORK_PER_OUTCOME: u64 = 64;

/// One equally likely way the moment's actors pick: each fighter's
/// engagement after the picks, and each actor's target (none: no foe).
struct Pick {
    targets: Vec<u8>,
    engaged_by: Vec<u32>,
    chosen: Vec<Option<usize>>,
}

/// Every way `acting` pick their foes from `state`, each as likely (a
/// random foe each as likely: the same count of choices in every branch);
/// more than the fight's outcome budget is refused before they are made.
fn picks(fight: &Fight, state: &State, acting: &[usize]) -> Result<Vec<Pick>, ExactError> {
    let n = state.len();
    let up = |f: usize| matches!(state[f], Slot::Up { .. });
    let (targets, taken, engaged_by) = engagements(state);
    let mut all = vec![Pick {
        targets,
        engaged_by,
        chosen: Vec::with_capacity(acting.len()),
    }];
    for &a in acting {
        let foes: Vec<usize> = (0..n)
            .filter(|&c| up(c) && fight.fighters[c].side != fight.fighters[a].side)
            .collect();
        // Only a random pick branches.
        let branching = if fight.targeting == Targeting::Random {
            foes.len().max(1)
        } else {
            1
        };
        let size = all.len().saturating_mul(branching);
        if size > fight.max_outcomes {
            return Err(ExactError::TooManyOutcomes { fighters: acting.len() });
        }
        let mut grown = Vec::with_capacity(size);
        for p in all {
            let choices: Vec<usize> = match fight.targeting {
                Targeting::Random => foes.clone(),
                Targeting::MostWounded | Targeting::LeastEngaged => foes
                    .iter()
                    .copied()
                    .min_by_key(|&c| own_key(fight.targeting, c as u32, &taken, &p.engaged_by))
                    .into_iter()
                    .collect(),
            };
            if choices.is_empty() {
                let mut p = p;
                p.chosen.push(None);
                grown.push(p);
                continue;
            }
            for &t in &choices {
                let mut q = Pick {
                    targets: p.targets.clone(),
                    engaged_by: p.engaged_by.clone(),
                    chosen: p.chosen.clone(),
                };
                let old = q.targets[a];
                if usize::from(old) != t {
                    if old != NO_TARGET {
                        q.engaged_by[usize::from(old)] -= 1;
                    }
                    q.engaged_by[t] += 1;
                    // At most MAX_EXACT_FIGHTERS fighters: fits a byte.
                    q.targets[a] = t as u8;
                }
                q.chosen.push(Some(t));
                grown.push(q);
            }
        }
        all = grown;
    }
    Ok(all)
}

/// A lone fighter's relative degree over a foe as FUDGE 4.34 reads it
/// (`opposed::may_wound`, `LoneTally`): only whether it is below 0, 0, 1,
/// or 2 and more, so the degrees are merged into those four (outcomes
/// that differ by nothing else lead to the same blows).
fn class(degree: i32) -> i32 {
    degree.clamp(-1, 2)
}

/// A lone fighter's part in one of his exchanges: his answer to the foe
/// (the foe, his relative degree, the damage his blow would do), or none
/// when the foe's blow met his armor unopposed.
type Answer = Option<(u32, i32, Option<i32>)>;

/// How far the moment's exchanges have gone: the fighters' slots with
/// the hits so far landed on them in the order the battle lands them
/// (nothing reads them before the moment's end: the wound penalties are
/// the moment's start's), and each lone fighter's answers until his blows
/// are settled.
type Partial = (Vec<Slot>, Vec<Vec<Answer>>);

/// What one exchange did: its direct hits and the lone fighters' answers.
type Done = (Vec<(usize, i32)>, Vec<(usize, Answer)>);

/// Every outcome of one moment from `state` where the fighters `acting`
/// (standing, in the battle's order) act, as
/// [`moment`](super::moment::moment) gives them (see the module docs).
pub(super) fn moment(
    fight: &Fight,
    rules: &FudgeRules,
    state: &State,
    acting: &[usize],
) -> Result<(Vec<(Next, u128)>, u128), ExactError> {
    let key = (state.clone(), acting.to_vec());
    if let Some(known) = fight.fudge_moments.borrow().get(&key) {
        return Ok((known.0.clone(), known.1));
    }
    let struck = strike(fight, rules, state, acting)?;
    fight.fudge_moments.borrow_mut().insert(key, Rc::new(struck.clone()));
    Ok(struck)
}

/// The FUDGE moments struck in a fight, by state and actors.
pub(super) type MomentCache = RefCell<FixedMap<(State, Vec<usize>), Rc<(Vec<(Next, u128)>, u128)>>>;

/// [`moment`], struck.
fn strike(
    fight: &Fight,
    rules: &FudgeRules,
    state: &State,
    acting: &[usize],
) -> Result<(Vec<(Next, u128)>, u128), ExactError> {
    let n = state.len();
    let counting = by_round(fight, rules);
    let lone_rule = lone_on(rules);
    let keep = keeps_targets(fight, rules);
    let too_many = || ExactError::TooManyOutcomes { fighters: acting.len() };
    let standing_on = |side: usize| {
        (0..n)
            .filter(|&f| matches!(state[f], Slot::Up { .. }) && fight.fighters[f].side == side)
            .count()
    };
    // The sides rolling one 2dF for the moment.
    let grouped: Vec<bool> = (0..fight.sides.len())
        .map(|s| rules.group_roll && standing_on(s) >= 2)
        .collect();
    let group_sides: Vec<usize> = (0..grouped.len()).filter(|&s| grouped[s]).collect();
    let two_df: Vec<(i32, u64)> = Dice::TWO_DF.distribution().iter().collect();
    let group_dice: Vec<Vec<(i32, u64)>> = group_sides.iter().map(|_| two_df.clone()).collect();
    let group_total = two_df_total()
        .checked_pow(group_sides.len() as u32)
        .ok_or_else(too_many)?;
    let all_picks = picks(fight, state, acting)?;
    let work = std::cell::Cell::new(0u64);
    // The joint rolls enumerated over all the picks, bounded as one
    // joint roll of the round systems is (a count, the same everywhere).
    let mut rolled: u64 = 0;
    // Each pick's outcomes, with weights out of its own total.
    let mut per_pick: Vec<(FixedMap<Next, u128>, u128)> = Vec::with_capacity(all_picks.len());
    for pick in &all_picks {
        // Which blows are exchanges of their own, and who is beset.
        let mut marks: Vec<u8> = state
            .iter()
            .map(|s| match s {
                Slot::Up { exchanged, .. } => *exchanged,
                Slot::Down => NO_TARGET,
            })
            .collect();
        let mut lone = LoneMoment::default();
        if lone_rule {
            lone.reserve(n)?;
            lone.reset(n, rules.sweeping_blow);
            lone.begin();
        }
        let mut exchanges: Vec<(usize, usize)> = Vec::new();
        for (&a, &t) in acting.iter().zip(&pick.chosen) {
            let Some(t) = t else { continue };
            if counting && usize::from(marks[t]) == a {
                continue;
            }
            if counting {
                marks[a] = t as u8;
            }
            if lone_rule {
                lone.engage(a as u32, t as u32);
            }
            exchanges.push((a, t));
        }
        let beset: Vec<usize> = (0..n).filter(|&f| lone_rule && lone.beset(f as u32)).collect();
        // The joint rolls this pick will enumerate, counted before they
        // are (each beset fighter's roll has at most 4dF's nine totals):
        // a crowd is refused here, not after minutes of rolling.
        let joint = u32::try_from(beset.len())
            .ok()
            .and_then(|k| 9u64.checked_pow(k))
            .and_then(|b| b.checked_mul(5u64.pow(group_sides.len().min(8) as u32)))
            .unwrap_or(u64::MAX);
        rolled = rolled.saturating_add(joint);
        if rolled > MOST_JOINT_ROLLS {
            return Err(too_many());
        }
        let base: Vec<Slot> = state
            .iter()
            .enumerate()
            .map(|(f, s)| match *s {
                Slot::Up { damage, taken, .. } => Slot::Up {
                    damage,
                    taken,
                    target: if keep { pick.targets[f] } else { NO_TARGET },
                    exchanged: if counting { marks[f] } else { NO_TARGET },
                },
                Slot::Down => Slot::Down,
            })
            .collect();
        let setting = Setting {
            fight,
            rules,
            state,
            engaged_by: &pick.engaged_by,
            lone: &lone,
            beset: &beset,
            work: &work,
        };
        // Every joint roll of the groups and the lone fighters, each
        // outcome's weight out of `out_of` (the same for all: every
        // exchange's dice are fixed by the pick).
        let mut this_pick: FixedMap<Next, u128> = FixedMap::default();
        let mut out_of: u128 = 0;
        every_joint_roll(&group_dice, |side_rolls, group_count| {
            let mut side_roll: Vec<Option<i32>> = vec![None; grouped.len()];
            for (k, &s) in group_sides.iter().enumerate() {
                side_roll[s] = Some(side_rolls[k]);
            }
            let beset_dice: Vec<Vec<(i32, u64)>> = beset
                .iter()
                .map(|&f| roll_of(fight, &side_roll, f).iter().collect())
                .collect();
            let beset_total = beset_dice
                .iter()
                .try_fold(1u128, |n, d| n.checked_mul(d.iter().map(|&(_, c)| u128::from(c)).sum()))
                .ok_or_else(too_many)?;
            every_joint_roll(&beset_dice, |beset_rolls, beset_count| {
                // A FUDGE moment costs its joint rolls: each is counted
                // as a moment struck against the budget (a count, the
                // same on every machine).
                spend(fight, exchanges.len().max(1) as u64)?;
                let (partials, total) = setting.exchanges(&base, &exchanges, &side_roll, beset_rolls)?;
                out_of = total
                    .checked_mul(group_total)
                    .and_then(|t| t.checked_mul(beset_total))
                    .ok_or_else(too_many)?;
                let count = group_count.checked_mul(beset_count).ok_or_else(too_many)?;
                for ((slots, _), w) in partials {
                    // At most `out_of` in all.
                    *this_pick.entry(settle(fight, slots)).or_default() += count * w;
                }
                Ok(())
            })
        })?;
        per_pick.push((this_pick, out_of));
    }
    // Every pick as likely: over the least common multiple of their totals.
    let common = per_pick
        .iter()
        .try_fold(1u128, |l, &(_, t)| (l / l.gcd(&t.max(1))).checked_mul(t.max(1)))
        .ok_or_else(too_many)?;
    let total = common.checked_mul(per_pick.len() as u128).ok_or_else(too_many)?;
    let mut merged: FixedMap<Next, u128> = FixedMap::default();
    for (outcomes, out_of) in per_pick {
        let scale = common / out_of.max(1);
        for (next, w) in outcomes {
            // At most `common` for each pick: `total` in all.
            *merged.entry(next).or_default() += w * scale;
        }
    }
    Ok((merged.into_iter().collect(), total))
}

/// Counts `moments` more struck, or refuses the fight past its budget
/// ([`ExactError::TooMuchWork`]).
fn spend(fight: &Fight, moments: u64) -> Result<(), ExactError> {
    let struck = fight.moments.get().saturating_add(moments);
    if struck > fight.max_moments {
        return Err(ExactError::TooMuchWork {
            budget: fight.max_moments,
        });
    }
    fight.moments.set(struck);
    Ok(())
}

/// 2dF's count of faces.
fn two_df_total() -> u128 {
    u128::from(Dice::TWO_DF.distribution().total())
}

/// Fighter `f`'s roll (the battle's `roll_of`): none (always 0) for an
/// NPC whose result is its trait level (FUDGE 4.33), its side's one 2dF
/// of the moment under `group_roll`, else its own 4dF.
fn roll_of(fight: &Fight, side_roll: &[Option<i32>], f: usize) -> Distribution {
    let fighter = &fight.fighters[f];
    if fighter.fighter.npc_result {
        Distribution::constant(0)
    } else if let Some(r) = side_roll[fighter.side] {
        Distribution::constant(r)
    } else {
        Dice::FOUR_DF.distribution()
    }
}

/// What the exchanges of one way of picking share.
struct Setting<'a> {
    fight: &'a Fight,
    rules: &'a FudgeRules,
    state: &'a State,
    engaged_by: &'a [u32],
    lone: &'a LoneMoment,
    beset: &'a [usize],
    /// The moment's partial outcomes made so far, over all its picks and
    /// joint rolls (bounded by [`WORK_PER_OUTCOME`]).
    work: &'a std::cell::Cell<u64>,
}

impl Setting<'_> {
    /// A fighter's wound penalty at the moment's start.
    fn penalty(&self, f: usize) -> i32 {
        match &self.state[f] {
            Slot::Up { damage, .. } => self.fight.damage.wound_penalty(damage),
            Slot::Down => 0,
        }
    }

    /// Where beset `f` stands among the lone fighters.
    fn place(&self, f: usize) -> Option<usize> {
        self.beset.iter().position(|&b| b == f)
    }

    /// Every outcome of the moment's `exchanges` in turn, the lone
    /// fighters' rolls `beset_rolls` given: the hits in landing order
    /// (each with the answers that led there), with weights out of the
    /// returned total.
    fn exchanges(
        &self,
        base: &[Slot],
        exchanges: &[(usize, usize)],
        side_roll: &[Option<i32>],
        beset_rolls: &[i32],
    ) -> Result<(Vec<(Partial, u128)>, u128), ExactError> {
        let too_many = || ExactError::TooManyOutcomes {
            fighters: exchanges.len(),
        };
        // Each lone fighter's last exchange.
        let last: Vec<usize> = self
            .beset
            .iter()
            .map(|&f| exchanges.iter().rposition(|&(a, t)| a == f || t == f).unwrap_or(0))
            .collect();
        let mut partials: FixedMap<Partial, u128> = FixedMap::default();
        partials.insert((base.to_vec(), vec![Vec::new(); self.beset.len()]), 1);
        let mut total = 1u128;
        for (i, &(a, t)) in exchanges.iter().enumerate() {
            let (done, out_of) = self.exchange((a, t), side_roll, beset_rolls)?;
            total = total.checked_mul(out_of).ok_or_else(too_many)?;
            let made = (partials.len() as u64).saturating_mul(done.len() as u64);
            let work = self.work.get().saturating_add(made);
            if work > (self.fight.max_outcomes as u64).saturating_mul(WORK_PER_OUTCOME) {
                return Err(too_many());
            }
            self.work.set(work);
            let mut next: FixedMap<Partial, u128> = FixedMap::default();
            for ((slots, answers), w) in &partials {
                if next.len() > self.fight.max_outcomes {
                    return Err(too_many());
                }
                for ((direct, deferred), dw) in &done {
                    let mut slots = slots.clone();
                    let mut answers = answers.clone();
                    for &(f, damage) in direct {
                        land(self.fight, &mut slots[f], damage);
                    }
                    for &(f, answer) in deferred {
                        if let Some(k) = self.place(f) {
                            answers[k].push(answer);
                        }
                    }
                    // After a lone fighter's last exchange, his blows land.
                    for f in [a, t] {
                        if let Some(k) = self.place(f)
                            && last[k] == i
                        {
                            for (foe, damage) in self.settled(f, &answers[k]) {
                                land(self.fight, &mut slots[foe], damage);
                            }
                            answers[k].clear();
                        }
                    }
                    // Cannot overflow: every partial product divides `total`.
                    *next.entry((slots, answers)).or_default() += w * dw;
                }
            }
            partials = next;
        }
        Ok((partials.into_iter().collect(), total))
    }

    /// Beset `f`'s blows after his last exchange: the battle's
    /// [`LoneMoment`] of this moment, his answers deferred in turn.
    fn settled(&self, f: usize, answers: &[Answer]) -> Vec<(usize, i32)> {
        let mut lone = self.lone.clone();
        let mut blows = Vec::new();
        for answer in answers {
            if let Some((foe, margin, damage)) = *answer {
                lone.defer(f as u32, foe, margin, damage);
            }
            if let Some(settled) = lone.finish(f as u32) {
                blows = lone.blows(&settled).iter().map(|&(foe, d)| (foe as usize, d)).collect();
            }
        }
        blows
    }

    /// Every outcome of `a`'s exchange with `t`: its direct hits (the blow,
    /// then the answer, each unless its striker is beset) and the lone
    /// fighters' answers, with weights out of the returned total.
    fn exchange(
        &self,
        (a, t): (usize, usize),
        side_roll: &[Option<i32>],
        beset_rolls: &[i32],
    ) -> Result<(Vec<(Done, u128)>, u128), ExactError> {
        let (rules, fight) = (self.rules, self.fight);
        let (ag, tg) = (&fight.fighters[a].fighter, &fight.fighters[t].fighter);
        // Plus-levels are refused (`setup.rs`): every round reads alike.
        let a_skill = ag.skill.in_round(1).map_err(SimError::rules)?.value();
        let t_skill = tg.skill.in_round(1).map_err(SimError::rules)?.value();
        let (a_beset, t_beset) = (self.place(a), self.place(t));
        // A lone fighter who concentrates lets this blow meet his armor.
        let ignored = t_beset.is_some() && tg.concentrate && self.lone.ignores(t as u32, a as u32);
        let a_rolls = match a_beset {
            Some(k) => Distribution::constant(beset_rolls[k]),
            None => roll_of(fight, side_roll, a),
        };
        let t_rolls = match (ignored, t_beset) {
            (true, _) => Distribution::constant(0),
            (false, Some(k)) => Distribution::constant(beset_rolls[k]),
            (false, None) => roll_of(fight, side_roll, t),
        };
        let (ab, tb) = (Bearing::of(ag), Bearing::of(tg));
        let min = rules.minimum_to_hit.value();
        let crowd = |f: usize| rules.outnumbered(self.engaged_by[f]);
        let mut outcomes: FixedMap<Done, u128> = FixedMap::default();
        for (ar, ac) in a_rolls.iter() {
            for (dr, dc) in t_rolls.iter() {
                let attacker = OpposedSide {
                    skill: a_skill,
                    penalty: self.penalty(a),
                    outnumbered: crowd(a),
                    roll: ar,
                    stance: ag.stance,
                    modifier: ab.modifier_against(&tb),
                    minimum: ab.minimum_against(&tb, min),
                    posture: 0,
                };
                let defender = OpposedSide {
                    skill: t_skill,
                    penalty: self.penalty(t),
                    outnumbered: crowd(t),
                    roll: dr,
                    stance: tg.stance,
                    modifier: tb.modifier_against(&ab),
                    minimum: tb.minimum_against(&ab, min),
                    posture: 0,
                };
                let (blow, counter) = if ignored {
                    (combat::unopposed_blow(attacker, ag.offense, tg.defense_factor), None)
                } else {
                    let blow = combat::opposed_blow(attacker, defender, ag.offense, tg.defense_factor);
                    (blow, combat::counter_blow(&blow, rules, tg.offense, ag.defense_factor))
                };
                let mut direct = Vec::with_capacity(2);
                let mut deferred = Vec::with_capacity(2);
                if a_beset.is_some() {
                    let degree = if ignored { UNOPPOSED } else { blow.attacker_degree() };
                    deferred.push((a, Some((t as u32, class(degree), blow.landed.then_some(blow.damage)))));
                } else if blow.landed {
                    direct.push((t, blow.damage));
                }
                match (t_beset.is_some(), ignored) {
                    (true, true) => deferred.push((t, None)),
                    (true, false) => deferred.push((t, Some((a as u32, class(blow.defender_degree()), counter)))),
                    (false, _) => {
                        if let Some(back) = counter {
                            direct.push((a, back));
                        }
                    }
                }
                *outcomes.entry((direct, deferred)).or_default() += u128::from(ac) * u128::from(dc);
            }
        }
        let total = u128::from(a_rolls.total()) * u128::from(t_rolls.total());
        Ok((outcomes.into_iter().collect(), total))
    }
}
