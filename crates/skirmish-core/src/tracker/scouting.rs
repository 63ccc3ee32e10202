//! Scouting at the table (FUDGE 4.31; docs/rules.md §2.2.3): a combatant
//! in all-out defense who came out of an exchange unhit rolls its
//! Perception or Tactics trait against Fair; on a success its foe is at -1
//! in its exchanges of the next round (round systems) or of its next
//! moment of exchanges (the others). The rule is the core's
//! ([`scout`](crate::striking::opposed::scout),
//! [`ScoutedMark`](crate::striking::opposed::ScoutedMark)), as in
//! battles; the tracker adds the table's dice, the log line, and the -1
//! in the breakdowns of the scouted foe's strikes and lone-fighter rounds
//! ("foe scouted").

use serde::{Deserialize, Serialize};

use crate::dice::Dice;
use crate::fighter::Striking;
use crate::striking::opposed::{ResultSource, SCOUTING_DIFFICULTY, Stance};

use super::strike::{check_roll, no_roll, part};
use super::{CombatantId, Encounter, Part, State, TrackerError, TrackerResult, note};

/// What a scouting roll came to ([`Encounter::scout`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScoutReport {
    /// Who scouted.
    pub scout: CombatantId,
    /// The foe it scouted (at -1 on a success).
    pub foe: CombatantId,
    /// Its Perception or Tactics trait with its wound penalty (a ladder
    /// value).
    pub level: i32,
    /// The 4dF (0 for an NPC whose result is its trait level).
    pub roll: i32,
    /// The result: `level` + `roll`.
    pub result: i32,
    /// What it had to make: Fair (0).
    pub difficulty: i32,
    /// It made it: the foe is scouted.
    pub scouts: bool,
    /// The log line it wrote.
    pub text: String,
}

/// The moment's `(tick, round)` as scouting counts it, and whether the
/// timing system counts exchanges by round.
fn now(s: &State) -> ((u64, u32), bool) {
    let round = s.scheduler.last_moment().map_or(1, |m| m.round).max(1);
    ((s.scheduler.now(), round), s.scheduler.system().exchanges_by_round())
}

/// Scouting's -1 on combatant `i` in an exchange now, if a foe scouted it
/// (using the mark up under the systems without rounds), with its
/// breakdown term.
pub(super) fn scouted_penalty(s: &mut State, i: usize) -> (i32, Option<Part>) {
    let (at, by_round) = now(s);
    let p = s.combatants[i].scouted.penalty(at, by_round);
    (p, (p != 0).then(|| part("foe scouted", p)))
}

impl Encounter {
    /// FUDGE 4.31: `scout`, in all-out defense, came out of an exchange
    /// with `foe` unhit (the GM's call) and rolls its Perception or
    /// Tactics trait (its profile's `scouting`) with its wound penalty
    /// against Fair; `roll` is the table's 4dF (none to let the encounter
    /// roll; an NPC whose result is its trait level rolls none). On a
    /// success `foe` is at -1 (a "foe scouted" term in its breakdowns) in
    /// its exchanges of the next round under Simultaneous, Simple and
    /// Graduated Rounds, or of its next moment of exchanges under the
    /// others; scouted again, still -1. Logged and undoable.
    ///
    /// Refused (changing nothing): an unknown combatant (`NotFound`); a
    /// scout out of the fight or a foe down or removed (`NotNow`); Full
    /// Contact striking, a scout without stats, a Perception or Tactics
    /// trait or the all-out defense, a foe without stats, the scout
    /// itself or on its side, a roll 4dF cannot show, a roll for an NPC (`InvalidInput`,
    /// the field named).
    pub fn scout(&mut self, scout: CombatantId, foe: CombatantId, roll: Option<i32>) -> TrackerResult<ScoutReport> {
        if !matches!(self.state.rules.striking, Striking::FudgeOpposed(_)) {
            return Err(TrackerError::invalid(
                "rules.striking",
                "scouting is a FUDGE 4.31 rule: this encounter uses full-contact striking",
            ));
        }
        self.combatant(scout)?;
        let f = self.combatant(foe)?;
        if scout == foe {
            return Err(TrackerError::invalid("foe", "a combatant cannot scout itself"));
        }
        let scout_side = self.combatant(scout)?.side.clone();
        if scout_side.is_some() && scout_side == f.side {
            return Err(TrackerError::invalid(
                "foe",
                format!("{} is on the scout's own side", f.name),
            ));
        }
        self.fighter_now(scout, "scout")?;
        if !super::strike::in_the_fight(&self.state, f) {
            let what = if f.status == super::Status::Down {
                "down"
            } else {
                "removed"
            };
            return Err(TrackerError::not_now("foe", format!("{} is {what}", f.name)));
        }
        self.with_stats(foe, "foe")?;
        let (scout_name, foe_name) = (self.combatant(scout)?.name.clone(), f.name.clone());
        let stats = super::stats_of(&self.state, scout.0 as usize)
            .cloned()
            .ok_or_else(|| TrackerError::invalid("scout", "has no combat stats"))?;
        let Some(perception) = stats.scouting else {
            return Err(TrackerError::invalid(
                "scout",
                format!("{scout_name} has no Perception or Tactics trait to scout with (its profile's `scouting`)"),
            ));
        };
        if stats.stance != Stance::AllOutDefense {
            return Err(TrackerError::invalid(
                "scout",
                format!(
                    "{scout_name} fights in {}: only a successful all-out defense scouts (FUDGE 4.31)",
                    stats.stance.name()
                ),
            ));
        }
        let source = if stats.npc_result {
            no_roll(roll, "roll", &scout_name)?;
            ResultSource::TraitLevel
        } else {
            match roll {
                Some(r) => ResultSource::Rolled {
                    roll: check_roll(Dice::FOUR_DF, r, "roll")?,
                },
                None => ResultSource::Roll,
            }
        };
        self.mutate(|s, log| {
            let penalty = s.combatants[scout.0 as usize].moment_penalty;
            let rolled = crate::striking::opposed::scout(stats.stance, false, perception, penalty, source, &mut s.rng)
                .map_err(TrackerError::from)?
                .ok_or_else(|| TrackerError::invalid("scout", "no scouting roll is due"))?;
            if rolled.scouts {
                let (at, by_round) = now(s);
                s.combatants[foe.0 as usize].scouted.scouted(at, by_round);
            }
            let text = format!(
                "{scout_name} defended unhit and rolls Perception/Tactics {} vs {SCOUTING_DIFFICULTY}: {}",
                rolled.result,
                if rolled.scouts {
                    format!("scouts, {foe_name} at -1 next")
                } else {
                    "no scouting".to_string()
                }
            );
            note(s, log, text.clone());
            Ok(ScoutReport {
                scout,
                foe,
                level: rolled.level.value(),
                roll: rolled.roll,
                result: rolled.result.value(),
                difficulty: SCOUTING_DIFFICULTY.value(),
                scouts: rolled.scouts,
                text,
            })
        })
    }

    /// Whether combatant `id` is at scouting's -1 in an exchange now (a
    /// foe scouted it; FUDGE 4.31), as a screen shows it.
    pub fn scouted(&self, id: CombatantId) -> TrackerResult<bool> {
        let c = self.combatant(id)?;
        let (at, by_round) = now(&self.state);
        Ok(c.scouted.pending(at, by_round))
    }
}
