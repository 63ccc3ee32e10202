//! FUDGE 4.31's **scouting** (docs/rules.md §2.2.3): "A successful
//! All-out Defense and a successful Perception or Tactics roll produces a
//! -1 penalty to the opponent on the *next* round."
//!
//! The one home of the rule for battles and the tracker: [`scout`] is the
//! roll (who rolls, against what, with which modifiers) and
//! [`ScoutedMark`] its effect (when the scouted foe is at -1).
//!
//! *Decisions:* a "successful" all-out defense is one that was not hit
//! ([`scouting_earned`]); the roll is the scout's Perception or Tactics
//! trait with its wound penalty (4.31: "A fighter who is Hurt is at -1")
//! against [`SCOUTING_DIFFICULTY`], and an NPC whose results are its
//! trait levels (4.33) rolls no dice for it either; "the next round" is
//! the next round under the systems that count exchanges by round, and
//! the foe's next moment of exchanges under the others.

use serde::{Deserialize, Serialize};

use super::result::{ResultSource, add, unopposed};
use super::{Stance, scouting_earned};
use crate::Result;
use crate::dice::RollSource;
use crate::ladder::Level;

/// The Difficulty Level of the Perception or Tactics roll (ours: the text
/// names none; Fair is FUDGE's ordinary task).
pub const SCOUTING_DIFFICULTY: Level = Level::FAIR;

/// A scout's Perception or Tactics roll ([`scout`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScoutingRoll {
    /// The trait with the scout's wound penalty.
    pub level: Level,
    /// The 4dF rolled (0 for an NPC whose result is its trait level).
    pub roll: i32,
    /// The result: `level` + `roll`.
    pub result: Level,
    /// Whether it made [`SCOUTING_DIFFICULTY`]: the foe is scouted.
    pub scouts: bool,
}

/// FUDGE 4.31: the scouting roll of a fighter in `stance` after an
/// exchange in which it `was_hit` or not. None (no dice drawn) unless it
/// is in all-out defense and unhit; otherwise its `perception` (its
/// Perception or Tactics trait) with its wound `penalty` (0, -1 Hurt, -2
/// Very Hurt), rolled as `source` says ([`ResultSource::TraitLevel`] for
/// a 4.33 NPC: no roll), against [`SCOUTING_DIFFICULTY`].
///
/// ```
/// use skirmish_core::dice::ScriptedRolls;
/// use skirmish_core::ladder::Level;
/// use skirmish_core::striking::opposed::{ResultSource, Stance, scout};
///
/// // A Good scout, Hurt, rolls -1: Mediocre, short of Fair.
/// let r = scout(Stance::AllOutDefense, false, Level::GOOD, -1, ResultSource::Roll, &mut ScriptedRolls::new([-1]))
///     .unwrap()
///     .unwrap();
/// assert_eq!((r.result, r.scouts), (Level::MEDIOCRE, false));
/// // Hit, it rolls nothing.
/// let none = scout(Stance::AllOutDefense, true, Level::GOOD, 0, ResultSource::Roll, &mut ScriptedRolls::new([]));
/// assert_eq!(none.unwrap(), None);
/// ```
///
/// # Errors
/// A typed roll 4dF cannot show, an error of the roll source, an overflow.
pub fn scout(
    stance: Stance,
    was_hit: bool,
    perception: Level,
    penalty: i32,
    source: ResultSource,
    rolls: &mut (impl RollSource + ?Sized),
) -> Result<Option<ScoutingRoll>> {
    if stance != Stance::AllOutDefense || was_hit {
        return Ok(None);
    }
    let level = add(perception, penalty, "scouting")?;
    let roll = source.roll_for(level, rolls)?;
    let result = add(level, roll, "result")?;
    let made = unopposed(result, SCOUTING_DIFFICULTY)?.success;
    Ok(Some(ScoutingRoll {
        level,
        roll,
        result,
        scouts: scouting_earned(stance, was_hit, made),
    }))
}

/// When one fighter is at scouting's -1 ([`scout`]): the marks a scouting
/// leaves on the foe. A time is `(tick, round)`: the absolute tick of the
/// moment and its round (1 and on).
///
/// Under the systems that count exchanges by round
/// ([`TimingSystem::exchanges_by_round`](crate::timing::TimingSystem::exchanges_by_round)),
/// scouted in round r it is at -1 in every exchange of round r + 1;
/// under the others, in every exchange of its next moment of exchanges
/// after the tick it was scouted at, which uses it up. Never in the moment
/// it was scouted in (its exchanges are all resolved against the state at
/// its start). Scouted twice, it is still at -1.
///
/// ```
/// use skirmish_core::striking::opposed::ScoutedMark;
///
/// let mut m = ScoutedMark::default();
/// m.scouted((5, 1), false); // Continuous: scouted at tick 5
/// assert_eq!(m.penalty((5, 1), false), 0); // not in that moment
/// assert_eq!(m.penalty((9, 1), false), -1); // its next moment
/// assert_eq!(m.penalty((9, 1), false), -1); // every exchange of it
/// assert_eq!(m.penalty((12, 1), false), 0); // used up
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ScoutedMark {
    /// By round: the last two rounds it was scouted in (0: none); it is at
    /// -1 in the round after each.
    rounds: [u32; 2],
    /// Otherwise: scouted at tick `from - 1` (0: not scouted); at -1 at its
    /// next moment with an exchange after that tick.
    from: u64,
    /// That moment's tick plus 1, once come (0: none): the -1 holds for
    /// every exchange of that one moment (a beset fighter's one roll meets
    /// every foe of it, FUDGE 4.34).
    at: u64,
}

impl ScoutedMark {
    /// No scouting on it, past or pending.
    pub fn is_clear(&self) -> bool {
        *self == ScoutedMark::default()
    }

    /// A foe scouted it at `(tick, round)`.
    pub fn scouted(&mut self, (tick, round): (u64, u32), by_round: bool) {
        if !by_round {
            self.from = tick.saturating_add(1);
        } else if self.rounds[1] != round {
            self.rounds = [self.rounds[1], round];
        }
    }

    /// Scouting's modifier to its result in an exchange at `(tick,
    /// round)`: -1 or 0 (see the type). Under the systems without rounds,
    /// the first exchange of the moment that uses the mark up records it,
    /// so call it for every exchange it fights, in order.
    pub fn penalty(&mut self, (tick, round): (u64, u32), by_round: bool) -> i32 {
        if by_round {
            let scouted = self.rounds.iter().any(|&r| r != 0 && r.saturating_add(1) == round);
            return i32::from(scouted).saturating_neg();
        }
        let now = tick.saturating_add(1);
        if self.at == now {
            return -1;
        }
        if self.from != 0 && tick >= self.from {
            self.from = 0;
            self.at = now;
            return -1;
        }
        0
    }

    /// Whether it is at -1 in an exchange at `(tick, round)`, without
    /// using the mark up (what a screen shows).
    pub fn pending(&self, at: (u64, u32), by_round: bool) -> bool {
        let mut copy = *self;
        copy.penalty(at, by_round) != 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::ScriptedRolls;

    #[test]
    fn by_round_the_next_round_only() {
        let mut m = ScoutedMark::default();
        m.scouted((3, 2), true);
        assert_eq!(m.penalty((3, 2), true), 0);
        assert_eq!(m.penalty((7, 3), true), -1);
        assert_eq!(m.penalty((9, 3), true), -1);
        assert_eq!(m.penalty((2, 4), true), 0);
        // Scouted in two rounds running: at -1 in both following.
        m.scouted((1, 4), true);
        m.scouted((1, 5), true);
        assert_eq!((m.penalty((1, 5), true), m.penalty((1, 6), true)), (-1, -1));
    }

    #[test]
    fn an_npc_rolls_nothing_and_wounds_count() {
        let mut none = ScriptedRolls::new([]);
        let r = scout(
            Stance::AllOutDefense,
            false,
            Level::FAIR,
            0,
            ResultSource::TraitLevel,
            &mut none,
        )
        .unwrap()
        .unwrap();
        assert_eq!((r.roll, r.result, r.scouts), (0, Level::FAIR, true));
        let r = scout(
            Stance::AllOutDefense,
            false,
            Level::GOOD,
            -2,
            ResultSource::TraitLevel,
            &mut none,
        )
        .unwrap()
        .unwrap();
        assert_eq!((r.level, r.result, r.scouts), (Level::MEDIOCRE, Level::MEDIOCRE, false));
        assert_eq!(
            scout(Stance::Normal, false, Level::GOOD, 0, ResultSource::Roll, &mut none).unwrap(),
            None
        );
        let bad = scout(
            Stance::AllOutDefense,
            false,
            Level::GOOD,
            0,
            ResultSource::Rolled { roll: 5 },
            &mut none,
        );
        assert!(bad.is_err());
    }
}
