//! One exchange of Simultaneous Combat under FUDGE opposed striking, for
//! a duel (docs/rules.md §2.2.2, §7): every pair of rolls with its exact
//! weight, through the core's `combat::opposed_blow` and
//! `combat::counter_blow`, as the battle loop calls them.
//!
//! In a duel under a round system the two fighters' blows of an exchange
//! are one FUDGE exchange (the two-way rule): the first in fighter order
//! attacks, both roll, the winner by the minimum hurts the loser. With
//! `exchange = "one_way"` each fighter's blow is an exchange of its own,
//! the first's first, and only the attacker can hurt. Either way the hits
//! land together at the end, in that order. Nobody is beset (one foe
//! each), nobody rolls as a group (a side of one), and each fighter is
//! engaged by its one foe.

use skirmish_core::combat::{self, Bearing, OpposedSide};
use skirmish_core::dice::{Dice, Distribution};
use skirmish_core::fighter::{ExchangeRule, Fighter, FudgeRules};

use super::error::ExactError;
use super::moment::{FixedMap, Next, Slot, State, land, settle};
use super::setup::Fight;
use crate::error::SimError;

/// A fighter's roll: its 4dF, or none (always 0) for an NPC whose result
/// is its trait level (FUDGE 4.33).
fn roll_of(f: &Fighter) -> Distribution {
    if f.npc_result {
        Distribution::constant(0)
    } else {
        Dice::FOUR_DF.distribution()
    }
}

/// The hits one exchange may end with, each with its weight, and the
/// total: the attacker `a` against `t`, at their wound penalties.
type Hits = Vec<(Vec<(usize, i32)>, u128)>;

fn one_exchange(
    fight: &Fight,
    rules: &FudgeRules,
    (a, t): (usize, usize),
    (pa, pt): (i32, i32),
) -> Result<(Hits, u128), ExactError> {
    let (ag, tg) = (&fight.fighters[a].fighter, &fight.fighters[t].fighter);
    // Plus-levels are refused (`setup.rs`): every round reads alike.
    let a_skill = ag.skill.in_round(1).map_err(SimError::rules)?.value();
    let t_skill = tg.skill.in_round(1).map_err(SimError::rules)?.value();
    let (ab, tb) = (Bearing::of(ag), Bearing::of(tg));
    let min = rules.minimum_to_hit.value();
    // Each engaged by its one foe.
    let crowd = rules.outnumbered(1);
    let (a_rolls, t_rolls) = (roll_of(ag), roll_of(tg));
    let mut hits: FixedMap<Vec<(usize, i32)>, u128> = FixedMap::default();
    for (ar, ac) in a_rolls.iter() {
        for (dr, dc) in t_rolls.iter() {
            let attacker = OpposedSide {
                skill: a_skill,
                penalty: pa,
                outnumbered: crowd,
                roll: ar,
                stance: ag.stance,
                modifier: ab.modifier_against(&tb),
                minimum: ab.minimum_against(&tb, min),
                posture: 0,
            };
            let defender = OpposedSide {
                skill: t_skill,
                penalty: pt,
                outnumbered: crowd,
                roll: dr,
                stance: tg.stance,
                modifier: tb.modifier_against(&ab),
                minimum: tb.minimum_against(&ab, min),
                posture: 0,
            };
            let blow = combat::opposed_blow(attacker, defender, ag.offense, tg.defense_factor);
            let counter = combat::counter_blow(&blow, rules, tg.offense, ag.defense_factor);
            let mut landed = Vec::with_capacity(2);
            if blow.landed {
                landed.push((t, blow.damage));
            }
            if let Some(back) = counter {
                landed.push((a, back));
            }
            *hits.entry(landed).or_default() += u128::from(ac) * u128::from(dc);
        }
    }
    let total = u128::from(a_rolls.total()) * u128::from(t_rolls.total());
    Ok((hits.into_iter().collect(), total))
}

/// Every outcome of one exchange of a FUDGE duel from `state` (see the
/// module docs), as [`super::moment::exchange`] gives them.
pub(super) fn duel_exchange(
    fight: &Fight,
    rules: &FudgeRules,
    state: &State,
) -> Result<(Vec<(Next, u128)>, u128), ExactError> {
    let penalty = |f: usize| match &state[f] {
        Slot::Up { damage, .. } => skirmish_core::damage::DamageModel::wound_penalty(&fight.damage, damage),
        Slot::Down => 0,
    };
    let pairs: &[(usize, usize)] = match rules.exchange {
        ExchangeRule::TwoWay => &[(0, 1)],
        ExchangeRule::OneWay => &[(0, 1), (1, 0)],
    };
    let mut outcomes: FixedMap<Vec<Slot>, u128> = FixedMap::default();
    outcomes.insert(state.to_vec(), 1);
    let mut total = 1u128;
    for &(a, t) in pairs {
        let (hits, out_of) = one_exchange(fight, rules, (a, t), (penalty(a), penalty(t)))?;
        total = total
            .checked_mul(out_of)
            .ok_or(ExactError::TooManyOutcomes { fighters: 2 })?;
        let mut next: FixedMap<Vec<Slot>, u128> = FixedMap::default();
        for (slots, w) in &outcomes {
            for (landed, hw) in &hits {
                let mut slots = slots.clone();
                for &(f, damage) in landed {
                    land(fight, &mut slots[f], damage);
                }
                // Cannot overflow: every partial product divides `total`.
                *next.entry(slots).or_default() += w * hw;
            }
        }
        outcomes = next;
    }
    let mut merged: FixedMap<Next, u128> = FixedMap::default();
    for (slots, w) in outcomes {
        *merged.entry(settle(fight, slots)).or_default() += w;
    }
    Ok((merged.into_iter().collect(), total))
}
