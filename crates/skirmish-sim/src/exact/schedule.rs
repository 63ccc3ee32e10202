//! A round as a schedule of moments, for the timing systems whose round
//! is laid out by its rolls alone (docs/rules.md §7): the Tick System
//! (`tick.rs`), Action Blocks, and Simple Rounds with several actions a
//! round.
//!
//! Within such a round, which fighters land an action at which moment
//! depends only on the round's rolls (initiative, or the actions of a
//! phase), never on the strikes, except that a fighter who falls loses
//! what it had left to do. So a round is: every joint roll of those
//! standing, each by its count of the equally likely faces; the schedule
//! each gives (its moments in turn, each the fighters landing together,
//! in the order the battle's clock hands them over); identical schedules
//! merged, their counts added; then the schedules struck, their moments in
//! turn, each by `moment::moment` from every state the moments before it
//! led to. Schedules are sorted, so those sharing their first moments
//! share the striking of them (a walk down their common prefixes), and
//! each moment from each state is struck once a round.
//!
//! The schedules of a set of fighters standing are laid out once a fight
//! ([`ScheduleCache`]): the chain asks for the same few sets again and
//! again.

use std::cell::RefCell;
use std::rc::Rc;

use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, ToPrimitive, Zero};
use skirmish_core::damage::Damage;
use skirmish_core::dice::Dice;
use skirmish_core::timing::{ActionBlocksConfig, simple};

use super::error::ExactError;
use super::moment::{FixedMap, Next, Slot, State, moment};
use super::setup::Fight;
use crate::error::SimError;

/// The most joint rolls a round enumerates (20^4 for four fighters on a
/// d20, 81^3 for three on 4dF).
pub(super) const MOST_ROLLS: u64 = 1_000_000;

/// A round's moments in turn, each the fighters (by index) whose actions
/// land at it, in the order the battle's clock hands them over.
pub(super) type Schedule = Vec<Vec<usize>>;

/// The schedules of a round, sorted, each with its count of the joint
/// rolls, and the count of them all.
#[derive(Debug, Default)]
pub(super) struct Schedules {
    /// Distinct schedules, sorted (common prefixes adjacent).
    list: Vec<(Schedule, u128)>,
    /// All joint rolls.
    all: u128,
}

/// The schedules already laid out in this fight, by the fighters standing.
pub(super) type ScheduleCache = RefCell<FixedMap<Vec<usize>, Rc<Schedules>>>;

/// The fighters standing in `state`, in fighter order.
pub(super) fn standing(state: &State) -> Vec<usize> {
    (0..state.len())
        .filter(|&f| matches!(state[f], Slot::Up { .. }))
        .collect()
}

/// Every joint roll of the fighters whose roll distributions are `each`
/// (values, each with its count): `visit(values, count)` for each
/// combination, the count the product of the counts.
pub(super) fn every_joint_roll<V: Copy>(
    each: &[Vec<(V, u64)>],
    mut visit: impl FnMut(&[V], u128) -> Result<(), ExactError>,
) -> Result<(), ExactError> {
    let joint: u64 = each.iter().fold(1u64, |n, v| n.saturating_mul(v.len() as u64));
    if joint > MOST_ROLLS || each.iter().any(Vec::is_empty) {
        return Err(ExactError::TooManyOutcomes { fighters: each.len() });
    }
    // The counts of all joint rolls sum to the product of each die's
    // total: past 2^128 the sums (`Collect::add`, the schedules' walk)
    // could not be kept, so such dice are refused here.
    each.iter()
        .try_fold(1u128, |n, v| {
            let total = v.iter().try_fold(0u128, |t, &(_, c)| t.checked_add(u128::from(c)))?;
            n.checked_mul(total)
        })
        .ok_or(ExactError::TooManyOutcomes { fighters: each.len() })?;
    let mut pick = vec![0usize; each.len()];
    let mut values: Vec<V> = each.iter().map(|v| v[0].0).collect();
    loop {
        let mut count: u128 = 1;
        for (k, v) in each.iter().enumerate() {
            let (value, c) = v[pick[k]];
            values[k] = value;
            // At most MOST_ROLLS factors of u64 counts of one die's faces
            // (each below 2^64): the fight's own dice keep it far below
            // 2^128, and a die past it is refused here.
            count = count
                .checked_mul(u128::from(c))
                .ok_or(ExactError::TooManyOutcomes { fighters: each.len() })?;
        }
        visit(&values, count)?;
        // The next joint roll (an odometer).
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
            return Ok(());
        }
    }
}

/// A die's values mapped by `value` and merged, each with its count.
pub(super) fn by_value<V: Ord + Copy + std::hash::Hash>(
    die: Dice,
    mut value: impl FnMut(i32) -> Result<V, ExactError>,
) -> Result<Vec<(V, u64)>, ExactError> {
    let mut by: FixedMap<V, u64> = FixedMap::default();
    for (roll, count) in die.distribution().iter() {
        *by.entry(value(roll)?).or_default() += count;
    }
    let mut by: Vec<(V, u64)> = by.into_iter().collect();
    by.sort_unstable();
    Ok(by)
}

/// Whether the order of the fighters within a moment changes nothing:
/// the picks and exchanges are independent of it
/// ([`Fight::order_matters`]) and so are the hits landing together (hit
/// points add up; a wound track is left in the clock's order).
fn order_free(fight: &Fight) -> bool {
    !fight.order_matters() && matches!(fight.damage, Damage::HitPoints(_))
}

/// The most moments a round's schedules may hold in all, counted over
/// every joint roll before merging: past it, laying the round out would
/// take minutes (a huge initiative die, thousands of actions a phase).
const MOST_MOMENTS: u64 = 50_000_000;

/// Collects a round's schedules, merging identical ones.
pub(super) struct Collect {
    merged: FixedMap<Schedule, u128>,
    all: u128,
    order_free: bool,
    /// Moments laid out so far.
    moments: u64,
}

impl Collect {
    /// An empty collection for `fight`.
    pub(super) fn new(fight: &Fight) -> Collect {
        Collect {
            merged: FixedMap::default(),
            all: 0,
            order_free: order_free(fight),
            moments: 0,
        }
    }

    /// Counts `moments` more laid out, or refuses the round as too big.
    pub(super) fn spend(&mut self, moments: u64, fighters: usize) -> Result<(), ExactError> {
        self.moments = self.moments.saturating_add(moments);
        if self.moments > MOST_MOMENTS {
            return Err(ExactError::TooManyOutcomes { fighters });
        }
        Ok(())
    }

    /// Adds `schedule`, `count` of the joint rolls.
    pub(super) fn add(&mut self, mut schedule: Schedule, count: u128) {
        if self.order_free {
            for m in &mut schedule {
                m.sort_unstable();
            }
        }
        // Counts of joint rolls: at most the product checked in
        // `every_joint_roll`.
        self.all = self.all.saturating_add(count);
        let slot = self.merged.entry(schedule).or_default();
        *slot = slot.saturating_add(count);
    }

    /// The schedules collected.
    pub(super) fn done(self) -> Schedules {
        let mut list: Vec<(Schedule, u128)> = self.merged.into_iter().collect();
        list.sort_unstable();
        Schedules { list, all: self.all }
    }
}

/// The schedules of the fighters standing in `state`, laid out by `lay`
/// the first time this set stands, from the fight's cache after.
pub(super) fn cached(
    fight: &Fight,
    state: &State,
    lay: impl FnOnce(&[usize]) -> Result<Schedules, ExactError>,
) -> Result<Rc<Schedules>, ExactError> {
    let up = standing(state);
    if let Some(s) = fight.schedules.borrow().get(&up) {
        return Ok(Rc::clone(s));
    }
    let laid = Rc::new(lay(&up)?);
    fight.schedules.borrow_mut().insert(up, Rc::clone(&laid));
    Ok(laid)
}

/// A moment's outcomes from one state, with their weights and total.
type Struck = (Vec<(Next, u128)>, u128);

/// States reached by a prefix of schedules, each with its chance as a
/// numerator over the denominator they share (kept apart: whole numbers
/// add and multiply with no reduction, the cost of fractions).
struct Reached {
    states: FixedMap<State, BigInt>,
    denominator: BigInt,
}

/// What a round's walk keeps.
struct Walk<'a> {
    fight: &'a Fight,
    all: BigInt,
    /// The round's endings, and the states it leaves the fight in.
    ends: FixedMap<Next, BigRational>,
    /// Each moment struck from each state, once.
    struck: FixedMap<(State, Vec<usize>), Struck>,
}

impl Walk<'_> {
    /// Adds `numerator / denominator` to the chance of ending at `at`.
    fn end(&mut self, at: Next, numerator: BigInt, denominator: &BigInt) {
        let p = BigRational::new(numerator, denominator.clone());
        *self.ends.entry(at).or_insert_with(BigRational::zero) += p;
    }

    /// Strikes the moments at `depth` of `list` (schedules sharing their
    /// first `depth` moments, which led to `now`), then the rest of each,
    /// depth first.
    fn down(&mut self, list: &[(Schedule, u128)], depth: usize, now: &Reached) -> Result<(), ExactError> {
        let mut i = 0;
        while i < list.len() {
            // A schedule that ends here (sorted first among those sharing
            // this prefix): the states reached are where its round leaves
            // the fight.
            if list[i].0.len() == depth {
                let count = BigInt::from(list[i].1);
                let over = &now.denominator * &self.all;
                for (s, p) in &now.states {
                    self.end(Next::Fight(s.clone()), p * &count, &over);
                }
                i += 1;
                continue;
            }
            // The schedules whose next moment is this one.
            let group = &list[i].0[depth];
            let mut j = i;
            let mut count: u128 = 0;
            while j < list.len() && list[j].0.len() > depth && list[j].0[depth] == *group {
                count = count.saturating_add(list[j].1);
                j += 1;
            }
            // Each state's outcomes, and their totals' least common multiple.
            let mut keys: Vec<Option<(State, Vec<usize>)>> = Vec::with_capacity(now.states.len());
            let mut common = BigInt::one();
            for s in now.states.keys() {
                // The fallen have lost their actions.
                let acting: Vec<usize> = group
                    .iter()
                    .copied()
                    .filter(|&f| matches!(s[f], Slot::Up { .. }))
                    .collect();
                if acting.is_empty() {
                    keys.push(None);
                    continue;
                }
                let key = (s.clone(), acting);
                if !self.struck.contains_key(&key) {
                    let struck = moment(self.fight, s, &key.1)?;
                    self.struck.insert(key.clone(), struck);
                }
                if let Some((_, total)) = self.struck.get(&key) {
                    common = common.lcm(&BigInt::from(*total));
                }
                keys.push(Some(key));
            }
            let mut next = Reached {
                states: FixedMap::default(),
                denominator: &now.denominator * &common,
            };
            let mut ended: FixedMap<Next, BigInt> = FixedMap::default();
            for ((s, p), key) in now.states.iter().zip(&keys) {
                let Some((outcomes, total)) = key.as_ref().and_then(|k| self.struck.get(k)) else {
                    *next.states.entry(s.clone()).or_insert_with(BigInt::zero) += p * &common;
                    continue;
                };
                let scaled = p * (&common / BigInt::from(*total));
                for (to, w) in outcomes {
                    let q = &scaled * BigInt::from(*w);
                    match to {
                        Next::Ended(_) => *ended.entry(to.clone()).or_insert_with(BigInt::zero) += q,
                        Next::Fight(t) => *next.states.entry(t.clone()).or_insert_with(BigInt::zero) += q,
                    }
                }
            }
            // An ending ends every schedule of the group.
            let over = &next.denominator * &self.all;
            let count = BigInt::from(count);
            for (at, q) in ended {
                self.end(at, q * &count, &over);
            }
            if !next.states.is_empty() {
                self.down(&list[i..j], depth + 1, &next)?;
            }
            i = j;
        }
        Ok(())
    }
}

/// Every outcome of a round from `state` whose schedules are `schedules`,
/// as [`exchange`](super::moment::exchange) gives them: integer weights
/// over their least common denominator.
pub(super) fn strike(
    fight: &Fight,
    state: &State,
    schedules: &Schedules,
) -> Result<(Vec<(Next, u128)>, u128), ExactError> {
    let fighters = standing(state).len();
    let mut walk = Walk {
        fight,
        all: BigInt::from(schedules.all.max(1)),
        ends: FixedMap::default(),
        struck: FixedMap::default(),
    };
    let mut start = Reached {
        states: FixedMap::default(),
        denominator: BigInt::one(),
    };
    start.states.insert(state.clone(), BigInt::one());
    walk.down(&schedules.list, 0, &start)?;
    let mut denominator = BigInt::one();
    for p in walk.ends.values() {
        denominator = denominator.lcm(p.denom());
    }
    let too_big = || ExactError::TooManyOutcomes { fighters };
    let total = denominator.to_u128().ok_or_else(too_big)?;
    let mut out = Vec::with_capacity(walk.ends.len());
    for (at, p) in walk.ends {
        let w = (p.numer() * (&denominator / p.denom())).to_u128().ok_or_else(too_big)?;
        out.push((at, w));
    }
    Ok((out, total))
}

/// Lays out an Action Blocks phase of the fighters `up` (docs/rules.md
/// §1.6): each rolls the system's die for its actions
/// (`ActionBlocksConfig::actions`, by count); blocks from the most actions
/// down to 1, a block one moment of everyone with at least that many
/// actions, by REF (highest first, fighter order within one: the battle's
/// order of declaration).
pub(super) fn blocks(fight: &Fight, config: &ActionBlocksConfig, up: &[usize]) -> Result<Schedules, ExactError> {
    let mut each = Vec::with_capacity(up.len());
    for &f in up {
        let t = fight.fighters[f].fighter.timing;
        each.push(by_value(config.die, |roll| {
            Ok(config.actions(t.reflexes, t.combat_sense, roll))
        })?);
    }
    let mut by_ref = up.to_vec();
    by_ref.sort_by_key(|&f| std::cmp::Reverse(fight.fighters[f].fighter.timing.reflexes));
    let place: FixedMap<usize, usize> = up.iter().enumerate().map(|(k, &f)| (f, k)).collect();
    let mut collect = Collect::new(fight);
    every_joint_roll(&each, |actions, count| {
        let most = actions.iter().copied().max().unwrap_or(0);
        collect.spend(u64::from(most), up.len())?;
        let schedule: Schedule = (1..=most)
            .rev()
            .map(|block| {
                by_ref
                    .iter()
                    .copied()
                    .filter(|f| place.get(f).is_some_and(|&k| actions[k] >= block))
                    .collect()
            })
            .collect();
        collect.add(schedule, count);
        Ok(())
    })?;
    Ok(collect.done())
}

/// Lays out a Simple Rounds round of the fighters `up` where some have
/// several actions (docs/rules.md §1.2): initiative as one action's
/// (`simple::initiative`, 4dF by count), the same each pass; pass `p` is
/// those with at least `p` actions a round, lowest initiative first,
/// equal ones at one moment in fighter order. Every fighter's actions a
/// round are the same each round (`setup.rs` refuses a Rate of Fire
/// whose count varies by round).
pub(super) fn simple_passes(fight: &Fight, up: &[usize]) -> Result<Schedules, ExactError> {
    let mut each = Vec::with_capacity(up.len());
    let mut actions = Vec::with_capacity(up.len());
    for &f in up {
        let action = &fight.fighters[f].fighter.action;
        each.push(by_value(Dice::FOUR_DF, |roll| {
            simple::initiative(roll, action).map_err(|e| ExactError::Sim(SimError::rules(e)))
        })?);
        actions.push(simple::actions_in_round(action, 1));
    }
    let passes = actions.iter().copied().max().unwrap_or(0);
    let mut collect = Collect::new(fight);
    every_joint_roll(&each, |inits, count| {
        collect.spend(u64::from(passes) * up.len() as u64, up.len())?;
        let mut order: Vec<(i64, usize, usize)> = up.iter().enumerate().map(|(k, &f)| (inits[k], f, k)).collect();
        order.sort_unstable();
        let mut schedule: Schedule = Vec::new();
        for pass in 1..=passes {
            let mut last = None;
            for &(init, f, k) in &order {
                if actions[k] < pass {
                    continue;
                }
                if last != Some(init) {
                    schedule.push(Vec::new());
                    last = Some(init);
                }
                if let Some(m) = schedule.last_mut() {
                    m.push(f);
                }
            }
        }
        collect.add(schedule, count);
        Ok(())
    })?;
    Ok(collect.done())
}
