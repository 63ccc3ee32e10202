//! Morale in a battle: at the end of a moment at which someone fell, with
//! two or more sides still in the battle, a side whose share of fighters
//! standing is below its threshold, or whose leader group has nobody
//! standing, breaks, and its standing fighters leave the battle as
//! retreated or surrendered (docs/rules.md §5; the rule is
//! `skirmish_core::morale::breaks`).

use skirmish_core::morale::{self, BreakOutcome};

use super::Battle;
use super::targeting::{Arrays, rank_key};
use super::trace::{self, Trace};
use crate::clock::Clock;
use crate::report::BattleSummary;
use crate::roster::NONE;
use crate::scenario::Scenario;

/// A side's morale, ready to fight: its threshold, its leader group's
/// fighters (`first..first + count`), what it does when it breaks.
#[derive(Debug, Clone, Copy)]
pub(super) struct MoraleRt {
    break_below: f64,
    leader: Option<(u32, u32)>,
    outcome: BreakOutcome,
}

/// Every side's morale (`None`: fights to the last), or an empty list
/// when no side has one. `first_group` gives each side's first group's
/// index among `groups` (`(first fighter, count)` per group).
pub(super) fn of_scenario(scenario: &Scenario, groups: &[(u32, u32)]) -> Vec<Option<MoraleRt>> {
    if !scenario.has_morale() {
        return Vec::new();
    }
    let mut first_group = 0usize;
    let mut out = Vec::with_capacity(scenario.sides.len());
    for side in &scenario.sides {
        out.push(side.morale.as_ref().map(|m| MoraleRt {
            break_below: m.break_below,
            leader: m.leader_group(side).and_then(|g| groups.get(first_group + g).copied()),
            outcome: m.outcome,
        }));
        first_group += side.groups.len();
    }
    out
}

impl Battle {
    /// The end of a moment under morale: every side still in the battle
    /// that breaks now leaves it, its standing fighters counted in `left`
    /// and taken out of the clock, the standing lists and their
    /// engagements (as the fallen are), its break in `summary.breaks`.
    pub(super) fn break_sides<C: Clock>(
        &self,
        clock: &mut C,
        ws: &mut Arrays,
        (fielded, left): (&[u64], &mut [u64]),
        summary: &mut BattleSummary,
        trace: &mut Trace,
    ) {
        // Every side is judged on the moment's end state first: two sides
        // can break together.
        let mut breaking: Vec<(usize, BreakOutcome, &'static str)> = Vec::new();
        for (s, rt) in self.morale.iter().enumerate() {
            let Some(rt) = rt else { continue };
            let standing = ws.standing[s].len() as u64;
            let leader_down = rt
                .leader
                .is_some_and(|(first, count)| (first..first + count).all(|f| ws.down[f as usize]));
            if morale::breaks(standing, fielded[s], rt.break_below, leader_down) {
                let why = if leader_down { "leader down" } else { "below threshold" };
                breaking.push((s, rt.outcome, why));
            }
        }
        let reach = self.reach_limit();
        for (s, outcome, why) in breaking {
            let leaving = std::mem::take(&mut ws.standing[s]);
            left[s] = leaving.len() as u64;
            summary.breaks.record(s, outcome);
            trace.say(|| trace::breaks(&self.sides[s], left[s], outcome.name(), why));
            clock.remove_fallen(&leaving);
            let Arrays {
                down,
                taken,
                target_of,
                engaged_by,
                ranking,
                ..
            } = ws;
            for &f in &leaving {
                down[f as usize] = true;
                let tgt = target_of[f as usize];
                if tgt != NONE {
                    engaged_by[tgt as usize] -= 1;
                    target_of[f as usize] = NONE;
                }
                if ranking.is_on() {
                    let arrays = (&down[..], &taken[..], &engaged_by[..]);
                    ranking.set(f, rank_key(self.targeting, reach, f, arrays));
                    if tgt != NONE {
                        ranking.set(tgt, rank_key(self.targeting, reach, tgt, arrays));
                    }
                }
            }
            // The list's memory goes back to the workspace.
            let mut leaving = leaving;
            leaving.clear();
            ws.standing[s] = leaving;
        }
    }
}
