//! FUDGE 4.31's scouting in battles (docs/rules.md §2.2.3): "A successful
//! All-out Defense and a successful Perception or Tactics roll produces a
//! -1 penalty to the opponent on the *next* round."
//!
//! A group's `scouting` is its Perception or Tactics trait. A fighter of
//! it in all-out defense who comes out of a melee exchange unhit rolls
//! the trait, with its wound penalty (none rolled for an NPC whose result
//! is its trait level), against Fair (core `scout`); on a success the foe
//! of that exchange is at -1 (the text's "penalty to the opponent",
//! against whomever he fights) in every exchange of the next round under
//! the round systems, or under the others in the exchanges of his next
//! moment of exchanges (core `ScoutedMark`, the tracker's rule too).
//! Battles without a scouting group in all-out defense draw no dice for
//! it and take the fast paths as before.

use skirmish_core::dice::SeededRolls;
use skirmish_core::striking::opposed::{ResultSource, SCOUTING_DIFFICULTY, ScoutedMark, Stance, scout};

use super::{Battle, Striking};
use crate::error::SimError;
use crate::roster::reserve_fighters;

/// Per fighter, when it is at scouting's -1 (core [`ScoutedMark`]). Empty
/// when the battle plays no scouting.
#[derive(Default)]
pub(super) struct Scouting {
    marks: Vec<ScoutedMark>,
}

impl Scouting {
    /// Room for `n` fighters, when the battle plays scouting.
    pub(super) fn reserve(&mut self, n: usize, on: bool) -> Result<(), SimError> {
        if on {
            reserve_fighters(&mut self.marks, n)?;
        }
        Ok(())
    }

    /// A new battle of `n` fighters: nobody is scouted.
    pub(super) fn reset(&mut self, n: usize, on: bool) {
        self.marks.clear();
        if on {
            self.marks.resize(n, ScoutedMark::default());
        }
    }

    /// Whether the battle plays scouting.
    #[inline]
    pub(super) fn is_on(&self) -> bool {
        !self.marks.is_empty()
    }

    /// Scouting's modifier to fighter `f`'s result in an exchange at
    /// `(tick, round)` (core [`ScoutedMark::penalty`]).
    #[inline]
    pub(super) fn penalty(&mut self, f: u32, at: (u64, u32), by_round: bool) -> i32 {
        self.marks.get_mut(f as usize).map_or(0, |m| m.penalty(at, by_round))
    }
}

impl Battle {
    /// Whether the battle plays scouting: FUDGE striking and a group in
    /// all-out defense with a Perception or Tactics trait.
    pub(super) fn plays_scouting(&self) -> bool {
        matches!(self.striking, Striking::FudgeOpposed(_))
            && self
                .groups
                .iter()
                .any(|g| g.scouting.is_some() && g.fighter.stance == Stance::AllOutDefense)
    }

    /// After a melee exchange of fighter `f` with `foe` in `round`, in
    /// which `f` was hit or not, at its wound `penalty`: if `f` is a scout
    /// in all-out defense and unhit, it rolls its trait against
    /// [`SCOUTING_DIFFICULTY`] and, on a success, has scouted `foe`. The
    /// trace's words, if it rolled.
    pub(super) fn scout(
        &self,
        scouting: &mut Scouting,
        (f, foe): (u32, u32),
        (was_hit, penalty): (bool, i32),
        (tick, round): (u64, u32),
        rolls: &mut SeededRolls,
    ) -> Result<Option<String>, SimError> {
        let g = &self.groups[self.group_of[f as usize] as usize];
        let Some(level) = g.scouting else {
            return Ok(None);
        };
        let source = if g.fighter.npc_result {
            ResultSource::TraitLevel
        } else {
            ResultSource::Roll
        };
        let Some(roll) = scout(g.fighter.stance, was_hit, level, penalty, source, rolls).map_err(SimError::rules)?
        else {
            return Ok(None);
        };
        if roll.scouts
            && let Some(m) = scouting.marks.get_mut(foe as usize)
        {
            m.scouted((tick, round), self.timing.exchanges_by_round());
        }
        Ok(Some(format!(
            "; {} defended unhit and rolls Perception/Tactics {} vs {SCOUTING_DIFFICULTY}: {}",
            self.fighter_name(f),
            roll.result,
            if roll.scouts {
                format!("scouts, {} at -1 next", self.fighter_name(foe))
            } else {
                "no scouting".to_string()
            }
        )))
    }
}
