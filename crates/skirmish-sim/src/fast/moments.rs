//! The fast path under the timing systems with a lean clock but no fused
//! loop: Simultaneous Combat, Simple Rounds, Action Blocks,
//! Graduated Rounds and the Tick System.
//!
//! Profiled at 2x10 after the lean clocks (callgrind), most of the
//! instructions per action of these systems were the general
//! loop's (`battle/fight.rs`): targets picked into a list through the
//! policy's general code, every strike through `combat::full_contact_blow`,
//! hits landed on full per-fighter arrays (engagement, damage taken,
//! standing lists and positions) that random targets under Full Contact
//! never read. Here the clock still hands out each moment's actors (the
//! same `Clock` the general loop drives, so the same steps, dice and
//! order), and the moment is fought on the Continuous fast path's records
//! and tables (see the module docs one level up): for each actor, one
//! `action_dice` word (the same draw the general loop makes), a random
//! enemy from its side's list as it stood at the start of the moment, the
//! strike by table, its damage landed at once. At the end of the moment
//! the wound penalties take effect, the fallen leave their lists and the
//! clock, and each hit on a fighter still standing is offered to the clock
//! as a disruption, in the order struck (as `Battle::land_hits`).
//!
//! The caps and counters are the general loop's: a round past
//! `max_rounds` is not begun, a moment past the ticks or rounds or one
//! that would take the actions past their cap is not fought (a moment is
//! fought whole or not at all).

use super::{
    Common, FastEnd, FastModel, FastPlan, Landing, Out, ROLLS, Tally, Watch, after_falls, decided, is_down,
    next_moment, remove_fallen, set_penalties, strike,
};
use crate::clock::Clock;
use crate::control::Start;
use crate::error::SimError;
use crate::report::BattleSummary;
use crate::roster::reserve_fighters;
use crate::scenario::Targeting;

/// Fights one battle on the fast path with `clock` (readied for this
/// battle's fighters) handing out the moments; `group_of[f]` is fighter
/// `f`'s group. With `start`, a continuation's: the battle fights on from
/// its fighters' damage and standing and its counters, as
/// `Battle::fight_from` does on the general loop.
pub(crate) fn fight_moments<C: Clock, M: FastModel>(
    plan: &FastPlan,
    model: &M,
    prep: &M::Prep,
    group_of: &[u32],
    clock: &mut C,
    start: Option<&Start>,
    (ws, rolls, casualties, control): Out<'_, '_>,
) -> Result<FastEnd, SimError> {
    // The generator in a local: its state can stay in registers.
    let mut local = rolls.clone();
    // The loop compiled five times, as the Continuous one (see there).
    let keep_hits = M::penalizes(prep) || plan.any_disruptible;
    let whole = M::pair_table(prep).len() == plan.group_count() * plan.group_count() * ROLLS;
    let end = if plan.targeting == Targeting::LeastEngaged && !keep_hits && whole {
        fight_with::<C, M, false, true, true>(
            plan,
            model,
            prep,
            group_of,
            clock,
            start,
            (ws, &mut local, casualties, control),
        )
    } else if plan.targeting != Targeting::Random {
        fight_with::<C, M, true, false, true>(
            plan,
            model,
            prep,
            group_of,
            clock,
            start,
            (ws, &mut local, casualties, control),
        )
    } else if keep_hits {
        fight_with::<C, M, true, false, false>(
            plan,
            model,
            prep,
            group_of,
            clock,
            start,
            (ws, &mut local, casualties, control),
        )
    } else if whole {
        fight_with::<C, M, false, true, false>(
            plan,
            model,
            prep,
            group_of,
            clock,
            start,
            (ws, &mut local, casualties, control),
        )
    } else {
        fight_with::<C, M, false, false, false>(
            plan,
            model,
            prep,
            group_of,
            clock,
            start,
            (ws, &mut local, casualties, control),
        )
    };
    *rolls = local;
    end
}

#[expect(clippy::too_many_lines, reason = "the battle loop reads best in one piece")]
#[inline]
fn fight_with<C: Clock, M: FastModel, const KEEP_HITS: bool, const PAIRS: bool, const RANKED: bool>(
    plan: &FastPlan,
    model: &M,
    prep: &M::Prep,
    group_of: &[u32],
    clock: &mut C,
    start: Option<&Start>,
    (ws, rolls, mut casualties, control): Out<'_, '_>,
) -> Result<FastEnd, SimError> {
    let groups = plan.groups.as_slice();
    let (standing, c) = M::records(ws);
    // The hits are kept only when penalties or disruption read them (a
    // ranked battle strikes by outcome whether or not they do).
    let keep_hits = KEEP_HITS && (M::penalizes(prep) || plan.any_disruptible);
    let (first_b, fielded) = c.muster((model, groups, prep), group_of, start, standing, (keep_hits, true))?;
    let Common {
        pos,
        down,
        fallen,
        hits,
        acting,
        ranked,
        struck,
        ..
    } = c;
    let policy = plan.targeting;
    if RANKED {
        ranked.reset(policy, group_of.len(), first_b)?;
        reserve_fighters(struck, group_of.len())?;
        struck.clear();
    }
    let penalizes = KEEP_HITS && M::penalizes(prep);
    let pairs = M::pair_table(prep);

    let mut summary = BattleSummary::start();
    let mut round_starts = 0u32;
    if let Some(start) = start {
        summary.rounds = start.resume.rounds;
        summary.ticks = start.resume.tick;
        round_starts = start.resume.round_starts;
    }
    let mut watch = Watch::new(control);
    // Already decided before a blow (a side with nobody in it).
    if let Some(outcome) = decided(standing) {
        summary.outcome = outcome;
    }
    while summary.outcome == crate::report::Outcome::Timeout {
        let Some((tick, _)) = next_moment(
            (&mut *clock, &mut *rolls, &mut *acting),
            plan,
            (&mut summary, &mut round_starts, &mut watch),
            || standing.iter().map(|s| s.len() as u64).sum(),
            group_of.len(),
        )?
        else {
            break;
        };

        // Every actor strikes a random enemy standing at the start of the
        // moment, its damage applied at once (see the module docs).
        let mut landing = Landing {
            fallen: &mut fallen[..],
            fell: 0,
            hits: keep_hits.then_some(&mut *hits),
            struck: (RANKED && policy == Targeting::MostWounded).then_some(&mut *struck),
            tally: Tally::default(),
        };
        for chunk in acting.chunks(Tally::SPAN) {
            for &a in chunk {
                let side = usize::from(a >= first_b);
                let attack_penalty = if penalizes {
                    standing[side]
                        .get(pos[a as usize] as usize)
                        .map_or(0, |f| i32::from(f.penalty))
                } else {
                    0
                };
                let enemies = &mut standing[side ^ 1];
                // A random target is drawn with the action's dice; a ranked
                // policy's pick draws none (the dice are asked for 1).
                let dice = rolls.action_dice(if RANKED { 1 } else { enemies.len() as u32 });
                clock.ready_roll(a, dice.ready);
                let at = if RANKED {
                    match ranked.pick(policy, a, side as u8, down) {
                        Some(t) => pos[t as usize] as usize,
                        None => continue, // no enemy to pick: the action is spent
                    }
                } else {
                    dice.target as usize
                };
                let Some(ft) = enemies.get_mut(at) else {
                    continue;
                };
                let ag = group_of[a as usize] as usize;
                strike::<M, KEEP_HITS, PAIRS>(
                    plan,
                    model,
                    prep,
                    pairs,
                    (ag, attack_penalty),
                    ft,
                    dice.strike,
                    &mut landing,
                )?;
            }
            landing.tally.drain(&mut summary);
        }
        let fell = landing.fell;

        // The end of the moment: penalties, the fallen leave their lists
        // and the clock, then each hit on one still standing may disrupt.
        if penalizes {
            set_penalties(standing, pos, first_b, hits);
        }
        if fell > 0 {
            remove_fallen(standing, pos, down, first_b, &fallen[..fell]);
            clock.remove_fallen(&fallen[..fell]);
        }
        if RANKED {
            ranked.end_moment(policy, down, &fallen[..fell], struck);
        }
        if keep_hits {
            if plan.any_disruptible {
                for &(t, _, g) in hits.iter() {
                    if !is_down(down, t) && clock.disrupt(t, groups[g as usize].disruptible) {
                        summary.disruptions += 1;
                    }
                }
            }
            hits.clear();
        }
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
