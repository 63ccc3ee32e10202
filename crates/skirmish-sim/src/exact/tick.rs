//! A round of the Tick System laid out for the exact engine
//! (docs/rules.md §1.5, §7), as the battle's tick clock plays it
//! (`clock/tick.rs`):
//!
//! - Everyone standing rolls the system's initiative die + its bonus
//!   (`tick_system::initiative`); the highest total, at least 1, is the
//!   round's length `h`. A fighter's first turn is on countdown tick
//!   `clamp(initiative, 1, h)`: a total of 0 or less acts on tick 1.
//! - At a turn on countdown `c` the fighter starts its action (its own
//!   action ticks, else the system's): it lands on `c - ticks`, even at
//!   tick 0 or below (the round ends only when nothing is pending); its
//!   next turn is `tick_system::next_turn(c, ticks, interval)` if that is
//!   still 1 or more, else it waits for the next round.
//! - Events on one tick come in the order they were scheduled (first turns
//!   in fighter order, then each as its turn began); the actions landing on
//!   a tick are one moment (§1.8), struck before the turns of that tick
//!   begin, so a fighter felled at a moment starts nothing at it.
//!
//! Nothing in a round depends on the strikes but who is standing: a
//! fallen fighter's events go, the others' keep their ticks and order. So
//! the round is laid out with everyone standing and the fallen skipped as
//! it is struck (`schedule.rs`). What changes a round within it (defending
//! as a free action, Prepare, disruptions, Acquire) is refused (`setup.rs`).

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use skirmish_core::timing::{TickSystemConfig, tick_system};

use super::error::ExactError;
use super::schedule::{Collect, Schedule, Schedules, by_value, every_joint_roll};
use super::setup::Fight;

/// An event of a round: its countdown tick (the highest pops first), the
/// order it was scheduled in (the earliest first), the fighter's place
/// among those standing, and whether it is a turn (else an action
/// landing).
type Event = (i64, Reverse<u64>, usize, bool);

/// Lays out a round of the fighters `up` under the Tick System `config`:
/// every joint initiative roll (the die's faces by count), its schedule.
pub(super) fn round(fight: &Fight, config: &TickSystemConfig, up: &[usize]) -> Result<Schedules, ExactError> {
    let mut each = Vec::with_capacity(up.len());
    let mut timing = Vec::with_capacity(up.len());
    for &f in up {
        let fighter = &fight.fighters[f].fighter;
        let bonus = fighter.timing.initiative_bonus;
        each.push(by_value(config.initiative_die, |roll| {
            Ok(tick_system::initiative(roll, bonus))
        })?);
        timing.push((
            fighter.action.action_ticks.unwrap_or(config.action_ticks),
            fighter.timing.interval,
        ));
    }
    let mut collect = Collect::new(fight);
    let mut events: BinaryHeap<Event> = BinaryHeap::new();
    every_joint_roll(&each, |inits, count| {
        let schedule = lay_out(up, inits, &timing, &mut events, &mut collect)?;
        collect.add(schedule, count);
        Ok(())
    })?;
    Ok(collect.done())
}

/// The moments of one round: `inits[k]` the initiative of fighter `up[k]`,
/// `timing[k]` its action ticks and Interval.
fn lay_out(
    up: &[usize],
    inits: &[i32],
    timing: &[(u32, u32)],
    events: &mut BinaryHeap<Event>,
    collect: &mut Collect,
) -> Result<Schedule, ExactError> {
    let h = inits.iter().copied().max().map_or(1, |i| i64::from(i).max(1));
    events.clear();
    let mut seq: u64 = 0;
    for (k, &init) in inits.iter().enumerate() {
        events.push((i64::from(init).clamp(1, h), Reverse(seq), k, true));
        seq += 1;
    }
    let mut schedule: Schedule = Vec::new();
    let mut turns: Vec<usize> = Vec::new();
    while let Some(&(tick, ..)) = events.peek() {
        let mut landing: Vec<usize> = Vec::new();
        turns.clear();
        while let Some(&(t, _, k, turn)) = events.peek()
            && t == tick
        {
            events.pop();
            if turn {
                turns.push(k);
            } else {
                landing.push(up[k]);
            }
        }
        if !landing.is_empty() {
            collect.spend(1, up.len())?;
            schedule.push(landing);
        }
        // The turns of this tick begin after its moment, in order.
        for &k in &turns {
            let (ticks, interval) = timing[k];
            events.push((tick - i64::from(ticks), Reverse(seq), k, false));
            seq += 1;
            let next = tick_system::next_turn(tick, ticks, interval);
            if next >= 1 {
                events.push((next, Reverse(seq), k, true));
                seq += 1;
            }
        }
    }
    Ok(schedule)
}
