//! One exchange of Simultaneous Combat, every outcome with its exact
//! weight: the state of the fight (each fighter's damage, and what the
//! targeting policy remembers), the picks, the strikes, the hits landing
//! together at the end (docs/rules.md §1.1, §1.8; the battle loop's
//! order, `battle/fight.rs`).

use skirmish_core::combat;
use skirmish_core::damage::{DamageModel, DamageState};
use skirmish_core::dice::Dice;
use skirmish_core::timing::TimingSystem;

use super::error::ExactError;
use super::schedule;
use super::setup::Fight;
use crate::ranking::{add_taken, own_key};
use crate::scenario::{Striking, Targeting};

/// A hash map whose order of iteration is the same on every run (a fixed
/// hasher, and a fast one): the chain's states are numbered, and its
/// float sums made, in the same order every time.
pub(super) type FixedMap<K, V> = rustc_hash::FxHashMap<K, V>;

/// No target (a fighter that has struck no one, or whose target is down).
pub(super) const NO_TARGET: u8 = u8::MAX;

/// One fighter in a state of the fight.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) enum Slot {
    /// Out of the fight: what it took no longer matters.
    Down,
    /// Standing.
    Up {
        /// What it has taken.
        damage: DamageState,
        /// Damage taken so far, as `most_wounded` targeting counts it
        /// (0 under the other policies, which never read it).
        taken: i64,
        /// The foe it engages, as `least_engaged` targeting (and FUDGE's
        /// outnumbered penalty beyond a duel) counts engagements
        /// ([`NO_TARGET`] otherwise).
        target: u8,
        /// Under a FUDGE two-way exchange counted by round, the foe whose
        /// exchange it last began this round ([`NO_TARGET`]: none; cleared
        /// at every round's end, `fudge::new_round`).
        exchanged: u8,
    },
}

/// A fighter's next action under a timing system that carries timing
/// from one step of the chain to the next (Continuous, `continuous.rs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(super) struct Due {
    /// Ticks from now until it lands (0: it lands at this step).
    pub(super) in_ticks: u32,
    /// The fighter.
    pub(super) who: u8,
}

/// A state of the fight: one slot per fighter, in fighter order, and the
/// timing the system carries between steps. The number of the exchange
/// or round is not in it: nothing in the systems modelled depends on it.
/// It reads as its slots (`state[f]`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub(super) struct State {
    /// One slot per fighter.
    slots: Box<[Slot]>,
    /// Each standing fighter's next action, in the order the battle's
    /// queue lands them (by tick, first scheduled first), the soonest
    /// normalized to 0 ticks; empty for the systems whose every step
    /// begins afresh (Simultaneous, Simple and Graduated Rounds) and for
    /// Continuous before the initiative roll.
    pub(super) timing: Box<[Due]>,
}

impl State {
    /// This state's slots with `timing`.
    pub(super) fn with_timing(&self, timing: Box<[Due]>) -> State {
        State {
            slots: self.slots.clone(),
            timing,
        }
    }
}

impl std::ops::Deref for State {
    type Target = [Slot];
    fn deref(&self) -> &[Slot] {
        &self.slots
    }
}

impl From<Vec<Slot>> for State {
    fn from(slots: Vec<Slot>) -> State {
        State {
            slots: slots.into_boxed_slice(),
            timing: Box::new([]),
        }
    }
}

impl FromIterator<Slot> for State {
    fn from_iter<I: IntoIterator<Item = Slot>>(iter: I) -> State {
        State {
            slots: iter.into_iter().collect(),
            timing: Box::new([]),
        }
    }
}

/// Where an outcome of an exchange leads.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(super) enum Next {
    /// The fight goes on in this state.
    Fight(State),
    /// It ended: outcome `0..sides` is that side's win, `sides` a draw.
    Ended(usize),
}

/// The state before the first exchange.
pub(super) fn start(fight: &Fight) -> State {
    fight
        .fighters
        .iter()
        .map(|f| Slot::Up {
            damage: f.fresh,
            taken: 0,
            target: NO_TARGET,
            exchanged: NO_TARGET,
        })
        .collect()
}

/// What the strikes of one fighter may do: a hit on a foe of this
/// damage, or nothing, with its weight.
type Blows = Vec<(Option<(usize, i32)>, u128)>;

/// Every outcome of one step of the chain from `state` (an exchange of
/// Simultaneous Combat, a round of the round systems, Continuous
/// timing's next moment or its initiative roll): where it leads, with
/// its weight out of the returned total (a weight's share of the total is
/// its exact probability).
pub(super) fn exchange(fight: &Fight, state: &State) -> Result<(Vec<(Next, u128)>, u128), ExactError> {
    let step = timed_step(fight, state)?;
    // A FUDGE exchange counted by round is remembered until the round's
    // end, which a step of the round systems is.
    match &fight.striking {
        Striking::FudgeOpposed(rules) if super::fudge::by_round(fight, rules) => Ok(super::fudge::new_round(step)),
        _ => Ok(step),
    }
}

/// [`exchange`]'s step, as the timing system lays it out.
fn timed_step(fight: &Fight, state: &State) -> Result<(Vec<(Next, u128)>, u128), ExactError> {
    match fight.timing {
        TimingSystem::SimpleRounds if fight.one_action_a_round() => return super::rounds::simple_round(fight, state),
        TimingSystem::SimpleRounds => {
            let laid = schedule::cached(fight, state, |up| schedule::simple_passes(fight, up))?;
            return schedule::strike(fight, state, &laid);
        }
        TimingSystem::TickSystem(c) => {
            let laid = schedule::cached(fight, state, |up| super::tick::round(fight, &c, up))?;
            return schedule::strike(fight, state, &laid);
        }
        TimingSystem::GraduatedRounds(_) => return super::graduated::graduated_round(fight, state),
        TimingSystem::Continuous(_) => return super::continuous::continuous_step(fight, state),
        TimingSystem::ActionBlocks(c) => {
            let laid = schedule::cached(fight, state, |up| schedule::blocks(fight, &c, up))?;
            return schedule::strike(fight, state, &laid);
        }
        TimingSystem::Simultaneous => {}
    }
    // Every fighter standing acts, in fighter order (the clock's order).
    let acting: Vec<usize> = (0..state.len())
        .filter(|&f| matches!(state[f], Slot::Up { .. }))
        .collect();
    moment(fight, state, &acting)
}

/// Every outcome of one moment from `state` where the fighters `acting`
/// (standing, in the order the battle takes them: fighter order, or the
/// queue's) strike together, as [`exchange`] gives them. The states it
/// leads to carry no timing.
pub(super) fn moment(fight: &Fight, state: &State, acting: &[usize]) -> Result<(Vec<(Next, u128)>, u128), ExactError> {
    let struck = fight.moments.get().saturating_add(1);
    if struck > fight.max_moments {
        return Err(ExactError::TooMuchWork {
            budget: fight.max_moments,
        });
    }
    fight.moments.set(struck);
    if let Striking::FudgeOpposed(rules) = &fight.striking {
        return super::fudge::moment(fight, rules, state, acting);
    }
    let n = state.len();
    let up = |f: usize| matches!(state[f], Slot::Up { .. });
    let penalty = |f: usize| match &state[f] {
        Slot::Up { damage, .. } => fight.damage.wound_penalty(damage),
        Slot::Down => 0,
    };
    let foes = |a: usize| -> Vec<usize> {
        (0..n)
            .filter(|&c| up(c) && fight.fighters[c].side != fight.fighters[a].side)
            .collect()
    };
    // The picks: a uniformly random foe, or the policy's one (the battle's
    // targeting index orders foes by `ranking::own_key`; the least engaged
    // counts the engagements of this exchange's earlier picks).
    let (mut targets, taken, mut engaged_by) = engagements(state);
    let strike_dice = Dice::FOUR_DF.distribution();
    let mut per_actor: Vec<Blows> = Vec::with_capacity(acting.len());
    let mut total: u128 = 1;
    for &a in acting {
        let foes = foes(a);
        let choices: Vec<usize> = match fight.targeting {
            Targeting::Random => foes,
            Targeting::MostWounded | Targeting::LeastEngaged => {
                let best = foes
                    .iter()
                    .copied()
                    .min_by_key(|&c| own_key(fight.targeting, c as u32, &taken, &engaged_by));
                if fight.targeting == Targeting::LeastEngaged
                    && let Some(t) = best
                {
                    let old = targets[a];
                    if usize::from(old) != t {
                        if old != NO_TARGET {
                            engaged_by[usize::from(old)] -= 1;
                        }
                        engaged_by[t] += 1;
                        targets[a] = t as u8;
                    }
                }
                best.into_iter().collect()
            }
        };
        let mut blows: FixedMap<Option<(usize, i32)>, u128> = FixedMap::default();
        let attacker = &fight.fighters[a];
        for &t in &choices {
            let defender = &fight.fighters[t];
            let sr = attacker.strike_rating + penalty(a);
            let dr = defender.defense_rating + penalty(t);
            for (roll, count) in strike_dice.iter() {
                let blow = combat::full_contact_blow(
                    sr,
                    dr,
                    roll,
                    None,
                    fight.rules.point_blank,
                    &fight.rules,
                    attacker.offense,
                    defender.defense_factor,
                )
                .map_err(crate::error::SimError::Rules)?;
                *blows.entry(blow.landed.then_some((t, blow.damage))).or_default() += u128::from(count);
            }
        }
        // Each foe is as likely (one pick), each roll by its count.
        let out_of = u128::from(strike_dice.total()) * choices.len().max(1) as u128;
        total = total
            .checked_mul(out_of)
            .ok_or(ExactError::TooManyOutcomes { fighters: acting.len() })?;
        let mut blows: Blows = blows.into_iter().collect();
        blows.sort_unstable();
        per_actor.push(blows);
    }
    // The exchange's hits land together at its end, in the order struck
    // (fighter order): every combination, merged by where it leads.
    let base: Vec<Slot> = state
        .iter()
        .zip(&targets)
        .map(|(s, &t)| match *s {
            Slot::Up {
                damage,
                taken,
                exchanged,
                ..
            } => Slot::Up {
                damage,
                taken,
                target: t,
                exchanged,
            },
            Slot::Down => Slot::Down,
        })
        .collect();
    let mut outcomes: FixedMap<Vec<Slot>, u128> = FixedMap::default();
    outcomes.insert(base, 1);
    let too_many = || ExactError::TooManyOutcomes { fighters: acting.len() };
    for blows in &per_actor {
        let mut next: FixedMap<Vec<Slot>, u128> = FixedMap::default();
        next.reserve(outcomes.len().saturating_mul(blows.len()).min(fight.max_outcomes));
        for (slots, w) in &outcomes {
            // Memory is bounded before the state budget can be: one
            // exchange of many fighters has combinations past counting.
            if next.len() > fight.max_outcomes {
                return Err(too_many());
            }
            for &(hit, bw) in blows {
                let mut slots = slots.clone();
                if let Some((t, damage)) = hit {
                    land(fight, &mut slots[t], damage);
                }
                // Cannot overflow: every partial product divides `total`.
                *next.entry(slots).or_default() += w * bw;
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

/// Where `state`'s fighters stand before a moment's picks: each one's
/// target (none for the fallen), the damage each has taken (what
/// `most_wounded` ranks), and how many engage each.
pub(super) fn engagements(state: &State) -> (Vec<u8>, Vec<i64>, Vec<u32>) {
    let targets: Vec<u8> = state
        .iter()
        .map(|s| match s {
            Slot::Up { target, .. } => *target,
            Slot::Down => NO_TARGET,
        })
        .collect();
    let taken: Vec<i64> = state
        .iter()
        .map(|s| match s {
            Slot::Up { taken, .. } => *taken,
            Slot::Down => 0,
        })
        .collect();
    let mut engaged_by = vec![0u32; state.len()];
    for &t in &targets {
        if t != NO_TARGET {
            engaged_by[usize::from(t)] += 1;
        }
    }
    (targets, taken, engaged_by)
}

/// A hit of `damage` lands on `slot` (the damage model's rule; the
/// damage taken as `most_wounded` counts it, with the battle's own sum).
pub(super) fn land(fight: &Fight, slot: &mut Slot, damage: i32) {
    if let Slot::Up {
        damage: state, taken, ..
    } = slot
    {
        let out = fight.damage.apply(state, damage);
        if out.after.is_down() {
            *slot = Slot::Down;
        } else if fight.targeting == Targeting::MostWounded {
            *taken = add_taken(*taken, damage);
        }
    }
}

/// The end of the exchange: the fallen drop their engagements (and a
/// target that fell is no one's), then a side left alone wins, none left
/// is a draw.
pub(super) fn settle(fight: &Fight, mut slots: Vec<Slot>) -> Next {
    let down: Vec<bool> = slots.iter().map(|s| matches!(s, Slot::Down)).collect();
    for s in &mut slots {
        if let Slot::Up { target, .. } = s
            && *target != NO_TARGET
            && down[usize::from(*target)]
        {
            *target = NO_TARGET;
        }
    }
    let mut sides_left = vec![false; fight.sides.len()];
    for (f, s) in slots.iter().enumerate() {
        if matches!(s, Slot::Up { .. }) {
            sides_left[fight.fighters[f].side] = true;
        }
    }
    let mut left = sides_left.iter().enumerate().filter(|(_, l)| **l);
    match (left.next(), left.next()) {
        (None, _) => Next::Ended(fight.sides.len()),
        (Some((side, _)), None) => Next::Ended(side),
        _ => Next::Fight(slots.into()),
    }
}
