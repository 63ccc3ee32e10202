//! One round of Simple Rounds (docs/rules.md §1.2, §7) with every outcome
//! and its exact weight: every fighter standing rolls initiative (4dF
//! through the core's `simple::initiative`, each total by its count);
//! lowest first, equal totals at the same moment; each moment is struck as
//! `moment.rs` strikes one (the picks among those standing at its start,
//! the hits landing at its end), the fallen losing their actions. One
//! action a round each: other Rates of Fire and extra attacks are refused
//! (`setup.rs`), so the round's number is not part of the state.

use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, ToPrimitive, Zero};
use skirmish_core::dice::Dice;
use skirmish_core::timing::simple;

use super::error::ExactError;
use super::moment::{FixedMap, Next, Slot, State, moment};
use super::setup::Fight;
use crate::error::SimError;

/// The most joint initiative rolls a round enumerates (81 per fighter).
const MOST_ROLLS: u64 = 1_000_000;

/// A moment's outcomes, with their weights and total.
type Struck = (Vec<(Next, u128)>, BigInt);

/// Every outcome of one round from `state`, as
/// [`exchange`](super::moment::exchange) gives them.
pub(super) fn simple_round(fight: &Fight, state: &State) -> Result<(Vec<(Next, u128)>, u128), ExactError> {
    let standing: Vec<usize> = (0..state.len())
        .filter(|&f| matches!(state[f], Slot::Up { .. }))
        .collect();
    // Each fighter's initiative, by its count of the 81.
    let dice = Dice::FOUR_DF.distribution();
    let mut inits: Vec<Vec<(i64, u64)>> = Vec::with_capacity(standing.len());
    for &f in &standing {
        let mut by: FixedMap<i64, u64> = FixedMap::default();
        for (roll, count) in dice.iter() {
            let init = simple::initiative(roll, &fight.fighters[f].fighter.action).map_err(SimError::rules)?;
            *by.entry(init).or_default() += count;
        }
        let mut by: Vec<(i64, u64)> = by.into_iter().collect();
        by.sort_unstable();
        inits.push(by);
    }
    let joint: u64 = inits.iter().fold(1u64, |n, v| n.saturating_mul(v.len() as u64));
    if joint > MOST_ROLLS {
        return Err(ExactError::TooManyOutcomes {
            fighters: standing.len(),
        });
    }
    // The round's moments (fighters by initiative, equal ones together),
    // each order with its count of the joint rolls.
    let mut orders: FixedMap<Vec<Vec<usize>>, u128> = FixedMap::default();
    let mut pick = vec![0usize; standing.len()];
    loop {
        let mut by_init: Vec<(i64, usize)> = Vec::with_capacity(standing.len());
        let mut count: u128 = 1;
        for (k, &f) in standing.iter().enumerate() {
            let (init, c) = inits[k][pick[k]];
            by_init.push((init, f));
            count *= u128::from(c);
        }
        by_init.sort_unstable();
        let mut moments: Vec<Vec<usize>> = Vec::new();
        let mut last = None;
        for (init, f) in by_init {
            if last != Some(init) {
                moments.push(Vec::new());
                last = Some(init);
            }
            if let Some(m) = moments.last_mut() {
                m.push(f);
            }
        }
        *orders.entry(moments).or_default() += count;
        // The next joint roll (an odometer).
        let mut k = 0;
        while k < pick.len() {
            pick[k] += 1;
            if pick[k] < inits[k].len() {
                break;
            }
            pick[k] = 0;
            k += 1;
        }
        if k == pick.len() {
            break;
        }
    }
    strike_orders(fight, state, orders, &BigInt::from(81u32).pow(standing.len() as u32))
}

/// Every outcome of a step from `state` whose moments come in one of
/// `orders` (the fighters of each moment in the order they act), each
/// with its count out of `all_rolls`: each order's moments struck in turn
/// (the fallen losing their actions), the ends merged, as
/// [`exchange`](super::moment::exchange) gives them.
pub(super) fn strike_orders(
    fight: &Fight,
    state: &State,
    orders: FixedMap<Vec<Vec<usize>>, u128>,
    all_rolls: &BigInt,
) -> Result<(Vec<(Next, u128)>, u128), ExactError> {
    let standing = state.iter().filter(|s| matches!(s, Slot::Up { .. })).count();
    // Each order's moments in turn, as exact fractions (a moment's total
    // depends on who is left to strike whom).
    let all_rolls = BigRational::from_integer(all_rolls.clone());
    let mut ends: FixedMap<Next, BigRational> = FixedMap::default();
    // Orders share their first moments: each moment from each state is
    // struck once.
    let mut struck: FixedMap<(State, Vec<usize>), Struck> = FixedMap::default();
    for (moments, count) in orders {
        let mut now: FixedMap<Next, BigRational> = FixedMap::default();
        now.insert(
            Next::Fight(state.clone()),
            BigRational::from_integer(BigInt::from(count)) / &all_rolls,
        );
        for group in &moments {
            let mut next: FixedMap<Next, BigRational> = FixedMap::default();
            for (at, p) in now {
                let Next::Fight(s) = &at else {
                    *next.entry(at).or_insert_with(BigRational::zero) += p;
                    continue;
                };
                // The fallen have lost their actions.
                let acting: Vec<usize> = group
                    .iter()
                    .copied()
                    .filter(|&f| matches!(s[f], Slot::Up { .. }))
                    .collect();
                if acting.is_empty() {
                    *next.entry(at).or_insert_with(BigRational::zero) += p;
                    continue;
                }
                let key = (s.clone(), acting);
                if !struck.contains_key(&key) {
                    let (outcomes, total) = moment(fight, s, &key.1)?;
                    struck.insert(key.clone(), (outcomes, BigInt::from(total)));
                }
                let Some((outcomes, total)) = struck.get(&key) else {
                    continue;
                };
                for (to, w) in outcomes {
                    let share = BigRational::new(BigInt::from(*w), total.clone());
                    *next.entry(to.clone()).or_insert_with(BigRational::zero) += &p * share;
                }
            }
            now = next;
        }
        for (at, p) in now {
            *ends.entry(at).or_insert_with(BigRational::zero) += p;
        }
    }
    weights(ends, standing)
}

/// Chances `ends` as integer weights over their least common denominator
/// (a step of `fighters` standing that gives weights past `u128` is
/// [`ExactError::TooManyOutcomes`]).
pub(super) fn weights(
    ends: FixedMap<Next, BigRational>,
    fighters: usize,
) -> Result<(Vec<(Next, u128)>, u128), ExactError> {
    let mut denominator = BigInt::one();
    for p in ends.values() {
        denominator = denominator.lcm(p.denom());
    }
    let too_big = ExactError::TooManyOutcomes { fighters };
    let total = denominator.to_u128().ok_or(too_big.clone())?;
    let mut out = Vec::with_capacity(ends.len());
    for (at, p) in ends {
        let w = (p.numer() * (&denominator / p.denom()))
            .to_u128()
            .ok_or(too_big.clone())?;
        out.push((at, w));
    }
    Ok((out, total))
}
