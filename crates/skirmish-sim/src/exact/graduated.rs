//! One round of Graduated Rounds (docs/rules.md §1.3, §7) with every
//! outcome and its exact weight.
//!
//! Each fighter standing rolls its initiative (4dF through the core's
//! `simple::initiative`, by its count of the 81): the tick its first
//! action lands on. Each further action of its round (Rate of Fire and
//! extra attacks, `simple::actions_with`) lands a Ready Time later (2dF
//! through `graduated::ready_time` with the declaration repeated, by its
//! count of the 9). Under `extend` every action of the round lands; under
//! `lose` an action past the round's last tick is lost, and with it the
//! rest of the fighter's round. Each fighter's ticks are enumerated on
//! their own and merged; every combination of them gives the round's
//! moments, merged by their sequence and struck in turn as Simple Rounds'
//! are (`rounds::strike_orders`).
//!
//! The order within a moment is the battle's: the round's first actions
//! (laid out in fighter order) before the follow-ups, and follow-ups in
//! the order they were scheduled (by the tick of the action before them,
//! then that moment's order). It matters only to `least_engaged`
//! targeting (whose picks count the moment's earlier ones); under the
//! other policies a moment's fighters are taken in fighter order, which
//! merges more orders (the hits of a moment land together, and neither
//! damage model's result depends on their order).
//!
//! Nothing is carried from one round to the next (a fraction Rate of Fire,
//! whose actions depend on the round, is refused), so the state is the
//! fighters' damage alone. `spill` and `end_of_round` are modelled when
//! no action can land past the round's end, where they are `extend`
//! (else refused, `timing.past_end`: a spilled action lands in the next
//! round, timing the state would have to carry).

use num_bigint::BigInt;
use skirmish_core::dice::Dice;
use skirmish_core::timing::graduated::{ready_time, ready_time_from};
use skirmish_core::timing::simple::{self, actions_with, highest_initiative};
use skirmish_core::timing::{Declaration, GraduatedConfig, PastEnd, TimingSystem};

use super::error::ExactError;
use super::moment::{FixedMap, Next, Slot, State};
use super::rounds::strike_orders;
use super::setup::Fight;
use crate::error::SimError;
use crate::scenario::Targeting;

/// The most joint combinations of the fighters' ticks a round enumerates.
const MOST_ROLLS: u64 = 2_000_000;

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

/// A fighter's ticks in a round (its actions' landing ticks, counted from
/// the round's start), each sequence with its count out of the total.
fn sequences(decl: &Declaration, config: &GraduatedConfig) -> Result<(Vec<(Vec<u32>, u64)>, u64), ExactError> {
    let four = Dice::FOUR_DF.distribution();
    let two = Dice::TWO_DF.distribution();
    let mut seqs: FixedMap<Vec<u32>, u64> = FixedMap::default();
    for (roll, count) in four.iter() {
        let init = simple::initiative(roll, decl).map_err(SimError::rules)?;
        *seqs.entry(vec![tick(init)?]).or_default() += count;
    }
    let mut total = four.total();
    let repeated = decl.repeated();
    for _ in 1..actions(decl) {
        let mut grown: FixedMap<Vec<u32>, u64> = FixedMap::default();
        for (seq, count) in seqs {
            let last = seq.last().copied().unwrap_or(0);
            for (roll, c) in two.iter() {
                let rt = ready_time(roll, &repeated).map_err(SimError::rules)?;
                let mut seq = seq.clone();
                seq.push(last.saturating_add(tick(rt)?));
                *grown.entry(seq).or_default() += count * c;
            }
        }
        seqs = grown;
        total *= two.total();
    }
    // `lose`: the first action past the end is lost, and the rest of the
    // round with it (the fighter is not followed up again).
    let mut merged: FixedMap<Vec<u32>, u64> = FixedMap::default();
    for (mut seq, count) in seqs {
        if config.past_end == PastEnd::Lose
            && let Some(past) = seq.iter().position(|&t| t > config.ticks_per_round)
        {
            seq.truncate(past);
        }
        *merged.entry(seq).or_default() += count;
    }
    let mut out: Vec<(Vec<u32>, u64)> = merged.into_iter().collect();
    out.sort_unstable();
    Ok((out, total))
}

/// A tick offset as the engine keeps it.
fn tick(t: i64) -> Result<u32, ExactError> {
    u32::try_from(t.max(1)).map_err(|_| ExactError::unsupported("timing", "a round longer than 2^32 ticks".to_string()))
}

/// The moments of a round where fighter `standing[k]` lands at the ticks
/// `ticks[k]`: each moment's fighters in the order they act.
fn moments(standing: &[usize], ticks: &[&[u32]], fifo: bool) -> Vec<Vec<usize>> {
    // (tick, order key, fighter): the key of a first action is its
    // fighter's place; of a follow-up, the moment and place of the action
    // before it (it was scheduled after that moment, in its order).
    let mut events: Vec<(u32, (u32, u32, usize), usize, usize)> = Vec::new();
    for (k, ts) in ticks.iter().enumerate() {
        for (j, &t) in ts.iter().enumerate() {
            events.push((t, (0, 0, standing[k]), k, j));
        }
    }
    events.sort_unstable_by_key(|e| e.0);
    // Place of each fighter's j-th action within its moment.
    let mut place: Vec<Vec<u32>> = ticks.iter().map(|ts| vec![0; ts.len()]).collect();
    let mut out: Vec<Vec<usize>> = Vec::new();
    let mut at = 0;
    while at < events.len() {
        let t = events[at].0;
        let end = at + events[at..].iter().take_while(|e| e.0 == t).count();
        let moment = &mut events[at..end];
        for e in moment.iter_mut() {
            let (k, j) = (e.2, e.3);
            e.1 = if !fifo || j == 0 {
                (0, 0, standing[k])
            } else {
                (1, ticks[k][j - 1], place[k][j - 1] as usize)
            };
        }
        moment.sort_unstable_by_key(|e| e.1);
        for (p, e) in moment.iter().enumerate() {
            place[e.2][e.3] = p as u32;
        }
        out.push(moment.iter().map(|e| standing[e.2]).collect());
        at = end;
    }
    out
}

/// Every outcome of one round from `state`, as
/// [`exchange`](super::moment::exchange) gives them.
pub(super) fn graduated_round(fight: &Fight, state: &State) -> Result<(Vec<(Next, u128)>, u128), ExactError> {
    let TimingSystem::GraduatedRounds(config) = &fight.timing else {
        return Err(ExactError::unsupported("timing", "Graduated Rounds expected"));
    };
    let standing: Vec<usize> = (0..state.len())
        .filter(|&f| matches!(state[f], Slot::Up { .. }))
        .collect();
    let mut each = Vec::with_capacity(standing.len());
    let mut all_rolls = BigInt::from(1u32);
    let mut joint = 1u64;
    for &f in &standing {
        let (seqs, total) = sequences(&fight.fighters[f].fighter.action, config)?;
        all_rolls *= total;
        joint = joint.saturating_mul(seqs.len() as u64);
        each.push(seqs);
    }
    if joint > MOST_ROLLS {
        return Err(ExactError::TooManyOutcomes {
            fighters: standing.len(),
        });
    }
    let fifo = fight.targeting == Targeting::LeastEngaged;
    let mut orders: FixedMap<Vec<Vec<usize>>, u128> = FixedMap::default();
    let mut pick = vec![0usize; standing.len()];
    let mut ticks: Vec<&[u32]> = Vec::with_capacity(standing.len());
    loop {
        ticks.clear();
        let mut count: u128 = 1;
        for (k, seqs) in each.iter().enumerate() {
            let (seq, c) = &seqs[pick[k]];
            ticks.push(seq);
            count *= u128::from(*c);
        }
        *orders.entry(moments(&standing, &ticks, fifo)).or_default() += count;
        // The next combination (an odometer).
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
    strike_orders(fight, state, orders, &all_rolls)
}
