//! What an amazing defense does at the table (docs/rules.md §2.1.8): the
//! attacker "gets accidentally disarmed or knocked down", as the
//! encounter's `amazing_defense` rule says. What the blow does is the
//! battle engine's own choice ([`combat::amazing_effect`](crate::combat::amazing_effect), inside
//! [`combat::full_contact_blow`](crate::combat::full_contact_blow)); here the tracker keeps it on the
//! combatant until its next action, as a battle keeps it on a fighter:
//!
//! - **Disarmed**: its next action is lost. When its line's next action
//!   lands, it spends it recovering its weapon: a strike (or shot) by it at
//!   that moment is refused. Until then it cannot parry.
//! - **Knocked down**: `knock_down_penalty` off its Defense Rating (a
//!   "knocked down" term of every strike at it) until its line's next
//!   action lands; up again at that moment, for all of it (§1.8).

use serde::{Deserialize, Serialize};

use crate::combat::AmazingEffect;
use crate::fighter::RATING_LIMIT;

use super::{CombatantId, Encounter, LogEntry, State, TrackerError, TrackerResult, note};

/// What an amazing defense left on a combatant, until its next action.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "state", rename_all = "snake_case", deny_unknown_fields)]
pub(super) enum Upset {
    /// Nothing.
    #[default]
    None,
    /// Disarmed: its next action is lost.
    Disarmed,
    /// Its action at step `moment` of the encounter is lost to recovering
    /// its weapon.
    Recovering {
        /// The step (`State::moments`) of that action.
        moment: u64,
    },
    /// Knocked down: `penalty` off its Defense Rating until its next action.
    KnockedDown {
        /// The Defense Rating penalty.
        penalty: i32,
    },
}

impl Upset {
    /// Whether nothing is left (the default, left out of snapshots).
    pub(super) fn is_none(&self) -> bool {
        *self == Upset::None
    }

    /// The Defense Rating penalty of a knocked-down combatant (0 otherwise).
    pub(super) fn knocked_down_by(self) -> i32 {
        match self {
            Upset::KnockedDown { penalty } => penalty,
            _ => 0,
        }
    }

    /// Checks a restored value at step `moments` of its encounter.
    pub(super) fn check(self, moments: u64) -> Result<(), &'static str> {
        match self {
            Upset::Recovering { moment } if moment > moments => Err("recovering at a step not yet taken"),
            Upset::KnockedDown { penalty } if !(0..=RATING_LIMIT).contains(&penalty) => {
                Err("knock-down penalty out of range")
            }
            _ => Ok(()),
        }
    }
}

/// A blow's amazing result befalls its attacker `ai` (one still standing):
/// the words the blow's log line ends with, if it did anything beyond
/// the damage.
pub(super) fn befall(s: &mut State, ai: usize, effect: Option<AmazingEffect>) -> Option<String> {
    let c = &mut s.combatants[ai];
    if c.status != super::Status::Standing {
        return None;
    }
    match effect? {
        AmazingEffect::DoubleDamage => None,
        AmazingEffect::Disarm => {
            c.upset = Upset::Disarmed;
            Some(format!("{} is disarmed (its next action is lost)", c.name))
        }
        AmazingEffect::KnockDown { penalty } => {
            c.upset = Upset::KnockedDown { penalty };
            Some(format!(
                "{} is knocked down (DR -{penalty} until its next action)",
                c.name
            ))
        }
    }
}

/// A new step of the encounter: an action lost at an earlier step is over.
pub(super) fn at_step(s: &mut State) {
    let now = s.moments;
    for c in &mut s.combatants {
        if matches!(c.upset, Upset::Recovering { moment } if moment < now) {
            c.upset = Upset::None;
        }
    }
}

/// Line `line`'s action lands at this step: a knocked-down member is up
/// again, a disarmed one spends the action recovering its weapon.
pub(super) fn at_landing(s: &mut State, log: &mut Vec<LogEntry>, line: u32) {
    let now = s.moments;
    for k in 0..s.lines[line as usize].members.len() {
        let m = s.lines[line as usize].members[k] as usize;
        let c = &mut s.combatants[m];
        let text = match c.upset {
            Upset::Disarmed => {
                c.upset = Upset::Recovering { moment: now };
                format!("{} recovers its weapon: the action is lost", c.name)
            }
            Upset::KnockedDown { .. } => {
                c.upset = Upset::None;
                format!("{} is up again", c.name)
            }
            Upset::None | Upset::Recovering { .. } => continue,
        };
        note(s, log, text);
    }
}

impl Encounter {
    /// Refuses a blow by `id` (named `field`) whose action at this moment
    /// is lost to recovering its weapon (`NotNow`).
    pub(super) fn not_recovering(&self, id: CombatantId, field: &str) -> TrackerResult<()> {
        let c = self.combatant(id)?;
        if matches!(c.upset, Upset::Recovering { moment } if moment == self.state.moments) {
            return Err(TrackerError::not_now(
                field,
                format!(
                    "{} spends this action recovering its weapon (disarmed by an amazing defense)",
                    c.name
                ),
            ));
        }
        Ok(())
    }

    /// Refuses a parry by `id`, disarmed until its next action (`NotNow`).
    pub(super) fn can_parry(&self, id: CombatantId) -> TrackerResult<()> {
        let c = self.combatant(id)?;
        if c.upset == Upset::Disarmed {
            return Err(TrackerError::not_now(
                "options.parry",
                format!("{} is disarmed: it cannot parry until its next action", c.name),
            ));
        }
        Ok(())
    }
}
