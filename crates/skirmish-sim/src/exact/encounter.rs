//! A live encounter made ready for the exact engine (docs/rules.md §7,
//! "Exact from here"): its [`Continuation`] mapped to a [`Fight`] and the
//! state the chain starts from, playing the game odds from here samples
//! (`crate::odds`): targets picked uniformly at random among the foes
//! standing, the encounter's striking and damage rules, each fighter's
//! damage so far, those down left out.
//!
//! The chain's steps are whole exchanges (Simultaneous Combat), whole
//! rounds or phases (Simple and Graduated Rounds, the Tick System, Action
//! Blocks) or moments whose timing the state carries (Continuous), so the
//! encounter must stand where the chain's state needs no timing: under
//! Simultaneous Combat between exchanges (or at the start of one in which
//! every line standing acts once); under the round systems between rounds
//! (no action of the round left to land); under Continuous timing before
//! the first initiative is rolled. Like the
//! sampler, it starts at the end of the current moment: the tracker does
//! not record which strikes of that moment the GM has resolved, so any
//! not resolved yet are not fought (resolve the moment's strikes, then
//! ask). Everything else the chain's state does not hold is refused,
//! naming it ([`ExactError::Unsupported`]): a moment in the middle of a
//! round, an effect running, a disarm or knock-down, an initiative typed
//! in for the next round, a group sharing one initiative under any system
//! but Simultaneous Combat, a GM-set timing, and whatever `setup.rs` refuses of a
//! scenario's rules and fighters (the same checks: both feed
//! [`Fight::build`]).

use skirmish_core::damage::{Condition, DamageModel};
use skirmish_core::timing::TimingSystem;
use skirmish_core::timing::snapshot::EventKind;
use skirmish_core::tracker::{Continuation, Encounter};

use super::chain::Chain;
use super::error::ExactError;
use super::moment::{NO_TARGET, Slot, State};
use super::setup::{Entrant, Fight};
use super::{ExactOdds, ExactOptions};
use crate::error::SimError;
use crate::scenario::Targeting;

/// Solves the rest of `encounter`'s fight exactly, from where it stands
/// (see the module docs of `exact`, and docs/rules.md §7): the same game
/// [`odds_from_here`](crate::odds::odds_from_here) samples.
///
/// # Errors
/// [`ExactError::Unsupported`] naming what the exact engine does not
/// model at this point of the encounter (`scheduler` for a moment in the
/// middle of a round, `effects[0]`, `combatants[2].upset`, `timing`, a
/// fighter's option as `combatants[1].parry`); [`ExactError::TooManyStates`]
/// / [`ExactError::TooManyOutcomes`] for a fight too big;
/// [`ExactError::Sim`] when the encounter has no fight to continue (fewer
/// than two sides standing, a fighter without stats).
///
/// ```
/// use skirmish_sim::exact::{solve, solve_encounter, ExactOptions};
/// use skirmish_sim::odds::encounter_from_scenario;
/// use skirmish_sim::scenario::Scenario;
///
/// let duel: Scenario = toml::from_str(r#"
///     name = "duel"
///     timing = "simultaneous"
///     damage = { model = "hit_points", max_hp = 1 }
///     [[sides]]
///     name = "A"
///     groups = [{ name = "a", strike_rating = 5, defense_rating = 5 }]
///     [[sides]]
///     name = "B"
///     groups = [{ name = "b", strike_rating = 5, defense_rating = 5 }]
/// "#).unwrap();
/// // Before the first exchange, the encounter's odds are the scenario's.
/// let encounter = encounter_from_scenario(&duel, 1)?;
/// let here = solve_encounter(&encounter, &ExactOptions::default())?;
/// assert_eq!(here, solve(&duel, &ExactOptions::default())?);
/// assert_eq!(here.wins[0].fraction.as_deref(), Some("50/131"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn solve_encounter(encounter: &Encounter, options: &ExactOptions) -> Result<ExactOdds, ExactError> {
    if let Some((field, what)) = encounter.left_out().into_iter().next() {
        return Err(ExactError::unsupported(
            field,
            format!("{what} (a mark the chain's state does not hold)"),
        ));
    }
    let continuation = encounter.continuation().map_err(SimError::Tracker)?;
    let (mut fight, start) = fight_of(&continuation)?;
    let standing = (0..start.len())
        .filter(|&f| matches!(start[f], Slot::Up { .. }))
        .count();
    fight.limit(options, standing)?;
    let chain = Chain::build_from(&fight, start, options.max_states)?;
    Ok(super::answer(&fight, &chain, options))
}

/// The fight of a continuation and the state the chain starts from.
fn fight_of(c: &Continuation) -> Result<(Fight, State), ExactError> {
    c.scheduler
        .validate()
        .map_err(|e| SimError::Rules(e.in_field("scheduler")))?;
    let system = c.scheduler.system().clone();
    let damage = c
        .rules
        .damage
        .build()
        .map_err(|e| SimError::Rules(e.in_field("rules.damage")))?;
    let snapshot = c.scheduler.snapshot();
    // Every system but Simultaneous Combat rolls each fighter's own timing
    // in a round (or a moment) of the chain.
    let simple = !matches!(system, TimingSystem::Simultaneous);
    let mut entrants = Vec::new();
    let mut start = Vec::new();
    for f in c.fighters.iter().filter(|f| f.standing) {
        let at = format!("combatants[{}]", f.id.0);
        damage
            .validate_state(&f.damage)
            .map_err(|e| SimError::Rules(e.in_field(&format!("{at}.damage"))))?;
        if damage.status(&f.damage) != Condition::Standing {
            return Err(ExactError::unsupported(
                format!("{at}.damage"),
                format!("{} standing though its damage has it down", f.name),
            ));
        }
        let side = c.sides.iter().position(|s| *s == f.side).ok_or_else(|| {
            SimError::Rules(skirmish_core::Error::invalid(
                format!("{at}.side"),
                format!("{} is not one of the encounter's sides", f.side),
            ))
        })?;
        let mut stats = f.stats.clone();
        if simple {
            let actor = snapshot.actors.get(f.line as usize).ok_or_else(|| {
                SimError::Rules(skirmish_core::Error::invalid(
                    format!("{at}.line"),
                    format!("line {} is not the scheduler's", f.line),
                ))
            })?;
            let sharing = c.fighters.iter().filter(|o| o.standing && o.line == f.line).count();
            if sharing > 1 {
                return Err(ExactError::unsupported(
                    at,
                    format!(
                        "{} is one of {sharing} standing in a group sharing one initiative and one action under \
                         {} (the chain rolls each fighter's own)",
                        f.name,
                        system.name()
                    ),
                ));
            }
            if actor.entry.is_some() {
                return Err(ExactError::unsupported(
                    format!("{at}.initiative"),
                    format!("{}'s initiative typed in for the next round", f.name),
                ));
            }
            // The declaration its next round's initiative is rolled with.
            let declaration = if actor.awaiting {
                actor.declaration.repeated()
            } else {
                actor.declaration
            };
            if declaration != declaration.repeated() {
                // A one-time part (extra preparation, a new target's
                // Acquire) the chain would pay every round.
                return Err(ExactError::unsupported(
                    format!("{at}.declaration"),
                    format!(
                        "{}'s declaration has a one-time part (extra preparation, a new target)",
                        f.name
                    ),
                ));
            }
            if declaration.gm.is_some() {
                return Err(ExactError::unsupported(
                    format!("{at}.declaration"),
                    format!("{}'s GM-set timing", f.name),
                ));
            }
            stats.action = declaration;
        }
        entrants.push(Entrant {
            side,
            fighter: stats,
            fresh: f.damage,
            at,
        });
        start.push(Slot::Up {
            damage: f.damage,
            taken: 0,
            target: NO_TARGET,
            exchanged: NO_TARGET,
        });
    }
    // Odds from here pick targets as a scenario's default battle does
    // (FUDGE's reach included).
    let fight = Fight::build(
        c.sides.clone(),
        &system,
        c.rules.striking,
        damage,
        (
            Targeting::Random,
            crate::scenario::BattleRules::default().max_attackers_per_target,
        ),
        entrants,
    )?;
    at_a_step(c, &snapshot)?;
    Ok((fight, State::from(start)))
}

/// Refuses an encounter that is not at a boundary of the chain's steps
/// (see the module docs).
fn at_a_step(
    c: &Continuation,
    snapshot: &skirmish_core::timing::snapshot::SchedulerSnapshot,
) -> Result<(), ExactError> {
    let actions: Vec<(u32, u64)> = snapshot
        .events
        .iter()
        .filter_map(|e| match e.event {
            EventKind::Action { actor, .. } | EventKind::Turn { actor, .. } => Some((actor.0, e.tick)),
            EventKind::Timer { .. } => None,
        })
        .collect();
    if actions.is_empty() && snapshot.awaiting.is_empty() {
        return Ok(());
    }
    match c.scheduler.system() {
        TimingSystem::Simultaneous => {
            // An exchange begun and nothing struck yet: every line
            // standing acts once, at the same instant, as in a fresh one.
            let mut lines: Vec<u32> = c.fighters.iter().filter(|f| f.standing).map(|f| f.line).collect();
            lines.sort_unstable();
            lines.dedup();
            let mut acting: Vec<u32> = actions.iter().map(|a| a.0).collect();
            acting.sort_unstable();
            let one_instant = actions.windows(2).all(|w| w[0].1 == w[1].1);
            if acting == lines && one_instant && snapshot.awaiting.is_empty() {
                return Ok(());
            }
            Err(ExactError::unsupported(
                "scheduler",
                format!(
                    "exchange {} with {} actions pending for {} lines standing (an action cancelled or delayed): \
                     the exact engine starts between exchanges",
                    c.scheduler.round(),
                    actions.len(),
                    lines.len()
                ),
            ))
        }
        _ => Err(ExactError::unsupported(
            "scheduler",
            format!(
                "round {} under way, {} actions still to land in its order: the exact engine starts between \
                 rounds (ask after the round's last action)",
                c.scheduler.round(),
                actions.len()
            ),
        )),
    }
}
