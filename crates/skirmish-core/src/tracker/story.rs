//! A story element at the table (FUDGE 4.21; docs/rules.md §1.7): the GM
//! asks one combatant for a roll of its combat skill with her modifier,
//! one roll or the median of three, for a whole dramatic unit of the
//! fight. The rule is the core's ([`resolve_story_element`]); the tracker
//! adds the table's dice and the log line.

use serde::{Deserialize, Serialize};

use crate::dice::{Dice, ScriptedRolls};
use crate::ladder::Level;
use crate::striking::opposed::{ResultSource, StoryResolution, resolve_story_element};

use super::strike::check_roll;
use super::{CombatantId, Encounter, Status, TrackerError, TrackerResult, note};

/// What a story element came to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoryReport {
    /// Who rolled.
    pub combatant: CombatantId,
    /// The skill with the GM's modifier (a ladder value).
    pub skill: i32,
    /// Every result, in the order rolled (one, or three for a median).
    pub results: Vec<i32>,
    /// The result that counts: the only one, or the median.
    pub result: i32,
    /// The log line it wrote.
    pub text: String,
}

impl Encounter {
    /// FUDGE 4.21: `who` rolls its combat skill (its plus-level by the
    /// round) with the GM's `modifier` (-3..=3), once or, with
    /// `median_of_three`, three times keeping the median; `rolls` are the
    /// table's 4dF (none to let the encounter roll; one, or three for a
    /// median); an NPC whose result is its trait level rolls nothing. It
    /// judges nothing: what the result means is the GM's story. Logged and
    /// undoable.
    ///
    /// Refused (changing nothing): an unknown combatant (`NotFound`); one
    /// removed (`NotNow`); one without combat stats, a modifier outside
    /// -3..=3, the wrong number of rolls or a roll 4dF cannot show
    /// (`InvalidInput`, the field named).
    pub fn story_element(
        &mut self,
        who: CombatantId,
        modifier: i32,
        median_of_three: bool,
        rolls: &[i32],
    ) -> TrackerResult<StoryReport> {
        let c = self.combatant(who)?;
        if c.status == Status::Removed {
            return Err(TrackerError::not_now("combatant", format!("{} is removed", c.name)));
        }
        self.with_stats(who, "combatant")?;
        let fighter = super::stats_of(&self.state, who.0 as usize)
            .cloned()
            .ok_or_else(|| TrackerError::invalid("combatant", "has no combat stats"))?;
        let resolution = if median_of_three {
            StoryResolution::MedianOfThree
        } else {
            StoryResolution::SingleRoll
        };
        let wanted = if median_of_three { 3 } else { 1 };
        if !rolls.is_empty() && (rolls.len() != wanted || fighter.npc_result) {
            let why = if fighter.npc_result {
                format!("{} rolls no dice (an NPC whose result is its trait level)", c.name)
            } else {
                format!(
                    "{} rolls given: give {wanted}, or none to let the encounter roll",
                    rolls.len()
                )
            };
            return Err(TrackerError::invalid("rolls", why));
        }
        if !(-3..=3).contains(&modifier) {
            return Err(TrackerError::invalid(
                "modifier",
                format!("{modifier} is outside -3..=3 (FUDGE 4.21's GM modifier)"),
            ));
        }
        for (i, &r) in rolls.iter().enumerate() {
            check_roll(Dice::FOUR_DF, r, &format!("rolls[{i}]"))?;
        }
        let name = c.name.clone();
        self.mutate(|s, log| {
            let round = s.scheduler.last_moment().map_or(1, |m| m.round).max(1);
            let skill = fighter.skill.in_round(round)?;
            let source = if fighter.npc_result {
                ResultSource::TraitLevel
            } else {
                ResultSource::Roll
            };
            let e = if rolls.is_empty() {
                resolve_story_element(skill, modifier, resolution, source, &mut s.rng)
            } else {
                resolve_story_element(
                    skill,
                    modifier,
                    resolution,
                    source,
                    &mut ScriptedRolls::new(rolls.to_vec()),
                )
            }
            .map_err(TrackerError::from)?;
            let words: Vec<String> = e.results.iter().map(|l| l.to_string()).collect();
            let text = if median_of_three {
                format!(
                    "{name} rolls a story element at {}: {}; the median is {}",
                    e.skill.level,
                    words.join(", "),
                    e.result
                )
            } else {
                format!("{name} rolls a story element at {}: {}", e.skill.level, e.result)
            };
            note(s, log, text.clone());
            Ok(StoryReport {
                combatant: who,
                skill: e.skill.level.value(),
                results: e.results.iter().map(|l: &Level| l.value()).collect(),
                result: e.result.value(),
                text,
            })
        })
    }
}
