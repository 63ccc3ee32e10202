//! The encounter as a simulator sees it: everything needed to fight the
//! rest of the battle many times ("who is likely to win from here?",
//! `skirmish_sim::odds`), handed out as plain data so the rules stay here
//! and the simulator only fights.

use serde::{Deserialize, Serialize};

use crate::damage::DamageState;
use crate::fighter::Fighter;
use crate::timing::{ActorId, Scheduler};

use super::Encounter;
use super::{CombatantId, EncounterRules, Status, TrackerError, TrackerResult};

/// One combatant of a [`Continuation`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ContinuingFighter {
    /// Its id in the encounter.
    pub id: CombatantId,
    /// Its name.
    pub name: String,
    /// Its line: the scheduler actor it acts with (a group's members share one).
    pub line: u32,
    /// Its side.
    pub side: String,
    /// Its combat stats.
    pub stats: Fighter,
    /// What it has taken so far.
    pub damage: DamageState,
    /// Still in the fight.
    pub standing: bool,
}

/// The state of an encounter from which a simulator fights on.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Continuation {
    /// The scheduler as it stands: pending actions, round, the lines that
    /// landed and await a declaration (they repeat their declaration).
    pub scheduler: Scheduler,
    /// The striking rules and damage model.
    pub rules: EncounterRules,
    /// Every combatant still counted (removed ones are left out), in id order.
    pub fighters: Vec<ContinuingFighter>,
    /// The sides, in order of first appearance.
    pub sides: Vec<String>,
    /// The round the encounter is in.
    pub round: u32,
}

impl Encounter {
    /// Every side of the encounter (in order of first appearance, removed
    /// combatants left out) and whether anyone of it still stands in the
    /// fight: fewer than two standing means the fight is decided, and
    /// [`continuation`](Self::continuation) is refused.
    pub fn sides_standing(&self) -> Vec<(String, bool)> {
        let s = &self.state;
        let mut sides: Vec<(String, bool)> = Vec::new();
        for c in &s.combatants {
            let Some(side) = c.side.as_ref().filter(|_| c.status != Status::Removed) else {
                continue;
            };
            let standing = c.status == Status::Standing && s.scheduler.is_in(ActorId(c.line));
            match sides.iter_mut().find(|(name, _)| name == side) {
                Some((_, any)) => *any |= standing,
                None => sides.push((side.clone(), standing)),
            }
        }
        sides
    }

    /// What the encounter holds that its [`Continuation`] leaves out, each
    /// as the field it lives in (`combatants[2].upset`, `effects[0]`) and
    /// what it is: an amazing defense's disarm or knock-down still on a
    /// combatant, an effect still running, the Tick System's Acquire
    /// mark. A simulator fighting on from the continuation does not play
    /// them; one that answers exactly or not at all (the exact engine)
    /// refuses an encounter that holds any.
    pub fn left_out(&self) -> Vec<(String, String)> {
        let s = &self.state;
        let mut out = Vec::new();
        for (i, c) in s.combatants.iter().enumerate() {
            if c.status == Status::Removed {
                continue;
            }
            let what = match c.upset {
                super::amazing::Upset::None => None,
                super::amazing::Upset::Disarmed => Some("is disarmed (its next action is lost)"),
                super::amazing::Upset::Recovering { .. } => Some("spends this action recovering its weapon"),
                super::amazing::Upset::KnockedDown { .. } => Some("is knocked down until its next action"),
            };
            if let Some(what) = what {
                out.push((format!("combatants[{i}].upset"), format!("{} {what}", c.name)));
            }
            if !c.scouted.is_clear() {
                out.push((
                    format!("combatants[{i}].scouted"),
                    format!("{} was scouted (FUDGE 4.31: at -1 in its next exchange)", c.name),
                ));
            }
        }
        for (i, e) in s.effects.iter().enumerate() {
            if e.active {
                out.push((format!("effects[{i}]"), format!("the effect {} is running", e.name)));
            }
        }
        for (i, l) in s.lines.iter().enumerate() {
            if l.last_shot_at.is_some() {
                out.push((
                    format!("lines[{i}].last_shot_at"),
                    format!("{} has acquired a target (Tick System, Acquire)", l.name),
                ));
            }
        }
        out
    }

    /// The encounter as a simulator sees it (see [`Continuation`]).
    ///
    /// Refused (`NotNow`) when a combatant still in the fight has no
    /// combat stats or no side, or fewer than two sides have anyone
    /// standing: there is then nothing to simulate.
    pub fn continuation(&self) -> TrackerResult<Continuation> {
        let s = &self.state;
        let mut fighters = Vec::new();
        let mut sides: Vec<String> = Vec::new();
        for (i, c) in s.combatants.iter().enumerate() {
            if c.status == Status::Removed {
                continue;
            }
            let (Some(stats), Some(damage), Some(side)) = (super::stats_of(s, i), c.damage, &c.side) else {
                if c.status == Status::Standing {
                    return Err(TrackerError::not_now(
                        "combatant",
                        format!(
                            "{} has no combat stats or no side: odds from here need every fighter's",
                            c.name
                        ),
                    ));
                }
                continue;
            };
            if !sides.contains(side) {
                sides.push(side.clone());
            }
            fighters.push(ContinuingFighter {
                id: CombatantId(i as u32),
                name: c.name.clone(),
                line: c.line,
                side: side.clone(),
                stats: stats.clone(),
                damage,
                standing: c.status == Status::Standing && s.scheduler.is_in(ActorId(c.line)),
            });
        }
        let standing_sides = sides
            .iter()
            .filter(|side| fighters.iter().any(|f| f.standing && &f.side == *side))
            .count();
        if standing_sides < 2 {
            return Err(TrackerError::not_now(
                "encounter",
                "fewer than two sides have anyone standing: the fight is decided",
            ));
        }
        Ok(Continuation {
            scheduler: s.scheduler.clone(),
            rules: s.rules.clone(),
            fighters,
            sides,
            round: s.scheduler.round(),
        })
    }
}
