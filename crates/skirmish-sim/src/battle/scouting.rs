//! FUDGE 4.31's scouting in battles (docs/rules.md §2.2.3): "A successful
//! All-out Defense and a successful Perception or Tactics roll produces a
//! -1 penalty to the opponent on the *next* round."
//!
//! A group's `scouting` is its Perception or Tactics trait. A fighter of
//! it in all-out defense who comes out of a melee exchange unhit
//! (core `scouting_earned`: a "successful" all-out defense is one that was
//! not hit) rolls the trait against Fair; on a success the foe of that
//! exchange is at -1 (the text's "penalty to the opponent", against
//! whomever he fights) in every exchange of the next round under the
//! round systems (Simultaneous, Simple and Graduated Rounds: the text's
//! round), or under the others in the exchanges of his next moment of
//! exchanges after the one he was scouted in, where an exchange is an
//! action that lands (§2.2.2): never in the same moment, whose exchanges
//! are all resolved against the state at its start. Being scouted again
//! does not add up.
//! Battles without a scouting group in all-out defense draw no dice for
//! it and take the fast paths as before.

use skirmish_core::dice::SeededRolls;
use skirmish_core::ladder::Level;
use skirmish_core::striking::opposed::{ResultSource, Stance, scouting_earned, unopposed};

use super::{Battle, Striking};
use crate::error::SimError;
use crate::roster::reserve_fighters;

/// The Difficulty Level of the Perception or Tactics roll (ours: the
/// text names none; Fair is FUDGE's ordinary task).
pub(super) const SCOUTING_DIFFICULTY: Level = Level::FAIR;

/// Per fighter, when it is at scouting's -1. Empty when the battle plays
/// no scouting.
#[derive(Default)]
pub(super) struct Scouting {
    marks: Vec<Mark>,
}

/// One fighter's scouting marks.
#[derive(Debug, Default, Clone, Copy)]
struct Mark {
    /// Under the round systems, the last two rounds a foe scouted it in:
    /// it is at -1 in the round after each (0: none).
    rounds: [u32; 2],
    /// Under the others, scouted at tick `from - 1` (0: not scouted): it is
    /// at -1 at its next moment with an exchange after that tick.
    from: u64,
    /// That moment's tick plus 1, once come (0: none): the -1 holds for
    /// every exchange of that one moment (a beset fighter's one roll meets
    /// every foe of it, FUDGE 4.34).
    at: u64,
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
            self.marks.resize(n, Mark::default());
        }
    }

    /// Whether the battle plays scouting.
    #[inline]
    pub(super) fn is_on(&self) -> bool {
        !self.marks.is_empty()
    }

    /// Scouting's modifier to fighter `f`'s result in an exchange at
    /// `(tick, round)`: -1 if a foe scouted it in the round before
    /// (`by_round`), or, under the other systems, at an earlier tick and
    /// this is its first moment of exchanges since (which uses it up); 0
    /// otherwise. Never at the tick it was scouted: the moment's
    /// exchanges are resolved against the state at its start.
    #[inline]
    pub(super) fn penalty(&mut self, f: u32, (tick, round): (u64, u32), by_round: bool) -> i32 {
        let Some(m) = self.marks.get_mut(f as usize) else {
            return 0;
        };
        if by_round {
            let scouted = m.rounds.iter().any(|&r| r != 0 && r.saturating_add(1) == round);
            return i32::from(scouted).saturating_neg();
        }
        let now = tick.saturating_add(1);
        if m.at == now {
            return -1;
        }
        if m.from != 0 && tick >= m.from {
            m.from = 0;
            m.at = now;
            return -1;
        }
        0
    }

    /// A foe scouted fighter `f` at `(tick, round)`.
    fn scouted(&mut self, f: u32, (tick, round): (u64, u32), by_round: bool) {
        let m = &mut self.marks[f as usize];
        if !by_round {
            m.from = tick.saturating_add(1);
        } else if m.rounds[1] != round {
            m.rounds = [m.rounds[1], round];
        }
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
    /// which `f` was hit or not: if `f` is a scout in all-out defense and
    /// unhit, it rolls its trait against [`SCOUTING_DIFFICULTY`] and, on a
    /// success, has scouted `foe`. The trace's words, if it rolled.
    pub(super) fn scout(
        &self,
        scouting: &mut Scouting,
        (f, foe): (u32, u32),
        was_hit: bool,
        (tick, round): (u64, u32),
        rolls: &mut SeededRolls,
    ) -> Result<Option<String>, SimError> {
        let g = &self.groups[self.group_of[f as usize] as usize];
        let Some(level) = g.scouting else {
            return Ok(None);
        };
        if g.fighter.stance != Stance::AllOutDefense || was_hit {
            return Ok(None);
        }
        let result = ResultSource::Roll.result(level, rolls).map_err(SimError::rules)?;
        let roll = unopposed(result, SCOUTING_DIFFICULTY).map_err(SimError::rules)?;
        let earned = scouting_earned(g.fighter.stance, was_hit, roll.success);
        if earned {
            scouting.scouted(foe, (tick, round), self.timing.exchanges_by_round());
        }
        Ok(Some(format!(
            "; {} defended unhit and rolls Perception/Tactics {result} vs {SCOUTING_DIFFICULTY}: {}",
            self.fighter_name(f),
            if earned {
                format!("scouts, {} at -1 next", self.fighter_name(foe))
            } else {
                "no scouting".to_string()
            }
        )))
    }
}
