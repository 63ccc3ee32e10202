//! Continuous timing (docs/rules.md §1.4, §7): no rounds, so the chain's
//! state carries the timing, each standing fighter's ticks until its next
//! action ([`State::timing`]).
//!
//! The first step rolls everyone's initiative (4dF through the core's
//! `simple::initiative`, by its count of the 81): the tick each first
//! action lands on. Every later step is the next moment: the fighters due
//! now strike together (`moment::moment`), and each of them still
//! standing does the same again a Ready Time later (2dF through
//! `graduated::ready_time`, the declaration repeated, by its count of the
//! 9); the fallen lose their pending actions. The ticks are kept relative
//! to the next moment (the soonest at 0), so the states are finitely many:
//! no tick is more than the longest initiative or Ready Time away.
//!
//! The timing lists the fighters in the order the battle's queue lands
//! them: by tick, then first scheduled first (the first actions in
//! fighter order, a moment's follow-ups in its order, after those already
//! pending). The order within a moment matters only where
//! `Fight::order_matters` says so (`least_engaged` targeting; FUDGE beyond
//! a duel); elsewhere the fighters due on one tick are kept in fighter
//! order, which merges states that differ in nothing else (a moment's hits
//! land together, and neither damage model's result depends on their
//! order).

use skirmish_core::dice::Dice;
use skirmish_core::timing::graduated::ready_time;
use skirmish_core::timing::simple;

use super::error::ExactError;
use super::moment::{Due, FixedMap, Next, Slot, State, moment};
use super::setup::Fight;
use crate::error::SimError;

/// The most joint initiative rolls the first step enumerates (9 distinct
/// initiatives per fighter).
const MOST_ROLLS: u64 = 1_000_000;

/// A distribution as `(value, count)` pairs merged by value, in order.
type Counts = Vec<(u32, u64)>;

/// A fighter's initiative (as a tick offset, at least 1), by count of 81.
fn initiatives(fight: &Fight, f: usize) -> Result<Counts, ExactError> {
    let mut by: FixedMap<u32, u64> = FixedMap::default();
    for (roll, count) in Dice::FOUR_DF.distribution().iter() {
        let init = simple::initiative(roll, &fight.fighters[f].fighter.action).map_err(SimError::rules)?;
        *by.entry(ticks(init)?).or_default() += count;
    }
    let mut by: Counts = by.into_iter().collect();
    by.sort_unstable();
    Ok(by)
}

/// A fighter's Ready Time for doing the same again, by count of 9.
fn ready_times(fight: &Fight, f: usize) -> Result<Counts, ExactError> {
    let repeated = fight.fighters[f].fighter.action.repeated();
    let mut by: FixedMap<u32, u64> = FixedMap::default();
    for (roll, count) in Dice::TWO_DF.distribution().iter() {
        *by.entry(ticks(ready_time(roll, &repeated).map_err(SimError::rules)?)?)
            .or_default() += count;
    }
    let mut by: Counts = by.into_iter().collect();
    by.sort_unstable();
    Ok(by)
}

fn ticks(t: i64) -> Result<u32, ExactError> {
    u32::try_from(t.max(1)).map_err(|_| ExactError::unsupported("timing", "a delay of 2^32 ticks or more"))
}

/// `timing` in the queue's order (by tick, stably: the order given is the
/// order scheduled; in fighter order within a tick unless `fifo`), the
/// soonest moved to 0.
fn normalized(mut timing: Vec<Due>, fifo: bool) -> Box<[Due]> {
    if fifo {
        timing.sort_by_key(|d| d.in_ticks);
    } else {
        timing.sort_unstable();
    }
    let soonest = timing.first().map_or(0, |d| d.in_ticks);
    for d in &mut timing {
        d.in_ticks -= soonest;
    }
    timing.into_boxed_slice()
}

/// Every outcome of one step from `state` (the initiative roll, or the
/// next moment), as [`exchange`](super::moment::exchange) gives them.
pub(super) fn continuous_step(fight: &Fight, state: &State) -> Result<(Vec<(Next, u128)>, u128), ExactError> {
    let fifo = fight.order_matters();
    if state.timing.is_empty() {
        return initiative(fight, state, fifo);
    }
    let acting: Vec<usize> = state
        .timing
        .iter()
        .take_while(|d| d.in_ticks == 0)
        .map(|d| usize::from(d.who))
        .collect();
    let (outcomes, total) = moment(fight, state, &acting)?;
    let per_roll = u128::from(Dice::TWO_DF.distribution().total());
    let too_many = || ExactError::TooManyOutcomes { fighters: acting.len() };
    // Every actor's Ready Time counted, rolled or not (the fallen roll
    // none): one total for every outcome.
    let mut scale = 1u128;
    for _ in &acting {
        scale = scale.checked_mul(per_roll).ok_or_else(too_many)?;
    }
    let total = total.checked_mul(scale).ok_or_else(too_many)?;
    let readies: Vec<Counts> = acting
        .iter()
        .map(|&f| ready_times(fight, f))
        .collect::<Result<_, _>>()?;
    let mut merged: FixedMap<Next, u128> = FixedMap::default();
    for (next, w) in outcomes {
        let Next::Fight(after) = next else {
            *merged.entry(next).or_default() += w * scale;
            continue;
        };
        let up = |f: usize| matches!(after[f], Slot::Up { .. });
        // Those still pending (the fallen lose theirs), in queue order...
        let waiting: Vec<Due> = state.timing[acting.len()..]
            .iter()
            .copied()
            .filter(|d| up(usize::from(d.who)))
            .collect();
        // ...then the actors still standing, each a Ready Time from now,
        // scheduled in the moment's order.
        let mut partial: Vec<(Vec<Due>, u128)> = vec![(waiting, w)];
        for (k, &a) in acting.iter().enumerate() {
            if !up(a) {
                for p in &mut partial {
                    p.1 *= per_roll;
                }
                continue;
            }
            let mut grown = Vec::with_capacity(partial.len() * readies[k].len());
            for (timing, pw) in &partial {
                for &(rt, c) in &readies[k] {
                    let mut timing = timing.clone();
                    timing.push(Due {
                        in_ticks: rt,
                        who: a as u8,
                    });
                    grown.push((timing, pw * u128::from(c)));
                }
            }
            partial = grown;
        }
        for (timing, pw) in partial {
            let to = Next::Fight(after.with_timing(normalized(timing, fifo)));
            *merged.entry(to).or_default() += pw;
        }
    }
    Ok((merged.into_iter().collect(), total))
}

/// The first step: everyone standing rolls initiative, in fighter order
/// (their first actions are scheduled in that order); nobody strikes yet.
fn initiative(fight: &Fight, state: &State, fifo: bool) -> Result<(Vec<(Next, u128)>, u128), ExactError> {
    let standing: Vec<usize> = (0..state.len())
        .filter(|&f| matches!(state[f], Slot::Up { .. }))
        .collect();
    let each: Vec<Counts> = standing
        .iter()
        .map(|&f| initiatives(fight, f))
        .collect::<Result<_, _>>()?;
    let joint = each.iter().fold(1u64, |n, v| n.saturating_mul(v.len() as u64));
    if joint > MOST_ROLLS {
        return Err(ExactError::TooManyOutcomes {
            fighters: standing.len(),
        });
    }
    let total = u128::from(Dice::FOUR_DF.distribution().total())
        .checked_pow(u32::try_from(standing.len()).unwrap_or(u32::MAX))
        .ok_or(ExactError::TooManyOutcomes {
            fighters: standing.len(),
        })?;
    let mut merged: FixedMap<Next, u128> = FixedMap::default();
    let mut pick = vec![0usize; standing.len()];
    loop {
        let mut count = 1u128;
        let mut timing = Vec::with_capacity(standing.len());
        for (k, &f) in standing.iter().enumerate() {
            let (init, c) = each[k][pick[k]];
            count *= u128::from(c);
            timing.push(Due {
                in_ticks: init,
                who: f as u8,
            });
        }
        let to = Next::Fight(state.with_timing(normalized(timing, fifo)));
        *merged.entry(to).or_default() += count;
        let mut k = 0;
        while k < pick.len() {
            pick[k] += 1;
            if pick[k] < each[k].len() {
                break;
            }
            pick[k] = 0;
            k += 1;
        }
        if k == pick.len() {
            break;
        }
    }
    Ok((merged.into_iter().collect(), total))
}
