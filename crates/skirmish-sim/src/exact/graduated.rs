//! One round of Graduated Rounds (docs/rules.md §1.3, §7) with every
//! outcome and its exact weight.
//!
//! Each fighter standing rolls its initiative (4dF through the core's
//! `simple::initiative`, by its count of the 81): the tick its first
//! action lands on. Each further action of its round (Rate of Fire and
//! extra attacks, `simple::actions_with`) lands a Ready Time after the
//! last (2dF through `graduated::ready_time` with the declaration
//! repeated, by its count of the 9, rolled when the last lands, as the
//! battle's clocks roll it). Under `extend` every action of the round
//! lands; under `lose` an action past the round's last tick is lost, and
//! with it the rest of the fighter's round. The round is swept moment by
//! moment: what can happen next depends only on the damage so far and
//! each fighter's next tick and actions left, so the chances are kept
//! merged by those, every moment struck as `moment::moment` strikes one
//! (the fallen losing their actions), until no action is left.
//!
//! The order within a moment is the battle's: the round's first actions
//! (laid out in fighter order) before the follow-ups, and follow-ups in
//! the order they were scheduled (by the tick of the action before them,
//! then that moment's order). It matters only where
//! `Fight::order_matters` says so (`least_engaged` targeting, whose picks
//! count the moment's earlier ones; FUDGE beyond a duel); elsewhere a
//! moment's fighters are taken in fighter order, which merges more orders
//! (the hits of a moment land together, and neither damage model's result
//! depends on their order).
//!
//! Nothing is carried from one round to the next (a fraction Rate of Fire,
//! whose actions depend on the round, is refused), so the state is the
//! fighters' damage alone. `spill` and `end_of_round` are modelled when
//! no action can land past the round's end, where they are `extend`
//! (else refused, `timing.past_end`: a spilled action lands in the next
//! round, timing the state would have to carry).

use std::collections::BTreeMap;

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::Zero;
use skirmish_core::dice::Dice;
use skirmish_core::timing::graduated::{ready_time, ready_time_from};
use skirmish_core::timing::simple::{self, actions_with, highest_initiative};
use skirmish_core::timing::{Declaration, GraduatedConfig, PastEnd, TimingSystem};

use super::error::ExactError;
use super::moment::{FixedMap, Next, Slot, State, moment};
use super::rounds::weights;
use super::setup::Fight;
use crate::error::SimError;

/// The most joint initiative rolls a round enumerates.
const MOST_ROLLS: u64 = 1_000_000;

/// The most actions a round the exact engine takes per fighter: each is a
/// Ready Time more to enumerate (5 totals each).
const MOST_ACTIONS: u32 = 6;

/// A fighter's actions in a round (its first round of use: a Rate of Fire
/// over more than one round is refused, so every round is alike).
fn actions(decl: &Declaration) -> u32 {
    actions_with(decl.rate_of_fire, decl.extra_attacks, 1)
}

/// Refuses what this module does not model in a fighter's declaration
/// `decl` (called as the fight is made ready; `at` names a field of its
/// group): a Rate of Fire over more than one round, more than
/// [`MOST_ACTIONS`] a round, and a past-the-end policy other than
/// `extend` and `lose` where an action can land past the end.
pub(super) fn check(
    decl: &Declaration,
    config: &GraduatedConfig,
    at: impl Fn(&str) -> String,
) -> Result<(), ExactError> {
    if decl.rate_of_fire.rounds() > 1 {
        return Err(ExactError::unsupported(
            at("weapon"),
            "a Rate of Fire over more than one round under Graduated Rounds (its actions depend on the round)",
        ));
    }
    let n = actions(decl);
    if n > MOST_ACTIONS {
        let field = if decl.extra_attacks > 0 {
            "extra_attacks"
        } else {
            "weapon"
        };
        return Err(ExactError::unsupported(
            at(field),
            format!("more than {MOST_ACTIONS} actions a round under Graduated Rounds"),
        ));
    }
    // The latest tick its round can reach.
    let tpr = i64::from(config.ticks_per_round);
    let latest = highest_initiative(decl.time_offset())
        .saturating_add(i64::from(n.saturating_sub(1)) * ready_time_from(2, decl.repeated().time_offset()));
    if latest > tpr && matches!(config.past_end, PastEnd::Spill | PastEnd::EndOfRound) {
        let policy = if config.past_end == PastEnd::Spill {
            "spill"
        } else {
            "end_of_round"
        };
        return Err(ExactError::unsupported(
            "timing.past_end",
            format!(
                "{policy} when an action can land past the round's end (tick {latest} of {tpr} here): the exact \
                 engine models extend and lose then"
            ),
        ));
    }
    Ok(())
}

/// A fighter's next action in the round: its tick (from the round's
/// start), its actions left after it, and its place in the queue's order
/// within its tick (a first action by fighter, a follow-up by the moment
/// it was scheduled after and its place there).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Upcoming {
    tick: u32,
    left: u32,
    key: (u32, u32),
}

/// Where a round stands between moments: the fighters' slots, and each
/// one's next action (none: fallen, or done for the round).
type Sweep = (State, Box<[Option<Upcoming>]>);

/// A moment's outcomes, with their weights and total.
type Struck = (Vec<(Next, u128)>, BigInt);

/// A distribution as `(value, count)` pairs merged by value, in order.
type Counts = Vec<(u32, u64)>;

/// A tick offset as the engine keeps it.
fn tick(t: i64) -> Result<u32, ExactError> {
    u32::try_from(t.max(1)).map_err(|_| ExactError::unsupported("timing", "a tick past 2^32"))
}

/// `dice`'s totals through `f`, merged.
fn counts(dice: Dice, f: impl Fn(i32) -> Result<i64, skirmish_core::Error>) -> Result<Counts, ExactError> {
    let mut by: FixedMap<u32, u64> = FixedMap::default();
    for (roll, count) in dice.distribution().iter() {
        *by.entry(tick(f(roll).map_err(SimError::rules)?)?).or_default() += count;
    }
    let mut by: Counts = by.into_iter().collect();
    by.sort_unstable();
    Ok(by)
}

/// Every outcome of one round from `state`, as
/// [`exchange`](super::moment::exchange) gives them.
pub(super) fn graduated_round(fight: &Fight, state: &State) -> Result<(Vec<(Next, u128)>, u128), ExactError> {
    let TimingSystem::GraduatedRounds(config) = &fight.timing else {
        return Err(ExactError::unsupported("timing", "Graduated Rounds expected"));
    };
    let fifo = fight.order_matters();
    let n = state.len();
    let standing: Vec<usize> = (0..n).filter(|&f| matches!(state[f], Slot::Up { .. })).collect();
    let too_many = || ExactError::TooManyOutcomes {
        fighters: standing.len(),
    };
    let past = |t: u32| config.past_end == PastEnd::Lose && t > config.ticks_per_round;
    // Per fighter: initiatives, Ready Times, actions a round.
    let mut inits: Vec<Counts> = vec![Vec::new(); n];
    let mut readies: Vec<Counts> = vec![Vec::new(); n];
    let mut allowed = vec![0u32; n];
    for &f in &standing {
        let decl = fight.fighters[f].fighter.action;
        let repeated = decl.repeated();
        inits[f] = counts(Dice::FOUR_DF, |r| simple::initiative(r, &decl))?;
        readies[f] = counts(Dice::TWO_DF, |r| ready_time(r, &repeated))?;
        allowed[f] = actions(&decl);
    }
    let joint = standing
        .iter()
        .fold(1u64, |j, &f| j.saturating_mul(inits[f].len() as u64));
    if joint > MOST_ROLLS {
        return Err(too_many());
    }
    let mut ends: FixedMap<Next, BigRational> = FixedMap::default();
    // The sweeps still under way, by the tick of their next moment.
    let mut ahead: BTreeMap<u32, FixedMap<Sweep, BigRational>> = BTreeMap::new();
    let file = |ahead: &mut BTreeMap<u32, FixedMap<Sweep, BigRational>>,
                ends: &mut FixedMap<Next, BigRational>,
                slots: State,
                next: Box<[Option<Upcoming>]>,
                p: BigRational| {
        match next.iter().flatten().map(|x| x.tick).min() {
            Some(t) => {
                *ahead
                    .entry(t)
                    .or_default()
                    .entry((slots, next))
                    .or_insert_with(BigRational::zero) += p
            }
            // The round is over.
            None => *ends.entry(Next::Fight(slots)).or_insert_with(BigRational::zero) += p,
        }
    };
    // Everyone's initiative (the round's first actions, laid out in
    // fighter order).
    let all = BigRational::from_integer(BigInt::from(81u32).pow(standing.len() as u32));
    let mut pick = vec![0usize; standing.len()];
    loop {
        let mut next: Vec<Option<Upcoming>> = vec![None; n];
        let mut count = BigInt::from(1u32);
        for (k, &f) in standing.iter().enumerate() {
            let (t, c) = inits[f][pick[k]];
            count *= c;
            if allowed[f] > 0 && !past(t) {
                next[f] = Some(Upcoming {
                    tick: t,
                    left: allowed[f] - 1,
                    key: (0, f as u32),
                });
            }
        }
        file(
            &mut ahead,
            &mut ends,
            state.clone(),
            next.into(),
            BigRational::from_integer(count) / &all,
        );
        let mut k = 0;
        while k < pick.len() {
            pick[k] += 1;
            if pick[k] < inits[standing[k]].len() {
                break;
            }
            pick[k] = 0;
            k += 1;
        }
        if k == pick.len() {
            break;
        }
    }
    // Each moment from each state is struck once.
    let mut struck: FixedMap<(State, Vec<usize>), Struck> = FixedMap::default();
    let nine = BigInt::from(Dice::TWO_DF.distribution().total());
    while let Some((t, sweeps)) = ahead.pop_first() {
        for ((slots, next), p) in sweeps {
            // Those landing now, in the queue's order.
            let mut due: Vec<(usize, (u32, u32))> = next
                .iter()
                .enumerate()
                .filter_map(|(f, x)| x.filter(|x| x.tick == t).map(|x| (f, x.key)))
                .collect();
            due.sort_unstable_by_key(|&(_, key)| key);
            let acting: Vec<usize> = due.iter().map(|&(f, _)| f).collect();
            let key = (slots.clone(), acting);
            if !struck.contains_key(&key) {
                let (outcomes, total) = moment(fight, &slots, &key.1)?;
                struck.insert(key.clone(), (outcomes, BigInt::from(total)));
            }
            let Some((outcomes, total)) = struck.get(&key) else {
                continue;
            };
            let acting = &key.1;
            for (to, w) in outcomes {
                let share = &p * BigRational::new(BigInt::from(*w), total.clone());
                let Next::Fight(after) = to else {
                    *ends.entry(to.clone()).or_insert_with(BigRational::zero) += share;
                    continue;
                };
                let up = |f: usize| matches!(after[f], Slot::Up { .. });
                // The fallen lose their actions; the actors still standing
                // with actions left are followed up, a Ready Time from now.
                let base: Vec<Option<Upcoming>> = next
                    .iter()
                    .enumerate()
                    .map(|(f, x)| x.filter(|x| x.tick != t && up(f)))
                    .collect();
                let mut partial: Vec<(Vec<Option<Upcoming>>, BigInt)> = vec![(base, BigInt::from(1u32))];
                let mut out_of = BigInt::from(1u32);
                for (place, &a) in acting.iter().enumerate() {
                    let left = next[a].map_or(0, |x| x.left);
                    if !up(a) || left == 0 {
                        continue;
                    }
                    out_of *= &nine;
                    let mut grown = Vec::with_capacity(partial.len() * readies[a].len());
                    for (v, c) in &partial {
                        for &(rt, rc) in &readies[a] {
                            let mut v = v.clone();
                            let at = t.checked_add(rt).ok_or_else(too_many)?;
                            if !past(at) {
                                v[a] = Some(Upcoming {
                                    tick: at,
                                    left: left - 1,
                                    key: if fifo { (t + 1, place as u32) } else { (0, a as u32) },
                                });
                            }
                            grown.push((v, c * rc));
                        }
                    }
                    partial = grown;
                }
                for (v, c) in partial {
                    let q = &share * BigRational::new(c, out_of.clone());
                    file(&mut ahead, &mut ends, after.clone(), v.into(), q);
                }
            }
        }
    }
    weights(ends, standing.len())
}
