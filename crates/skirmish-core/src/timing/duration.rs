//! How long a fight lasted in game time: what a tick and a round are
//! under each timing system, and the seconds they make where a text
//! says (docs/rules.md §5.1).
//!
//! A tick is a different unit in each system (an exchange, an initiative
//! step, about a second, a countdown step, an action block), so durations
//! in ticks do not compare across systems. Game seconds do, where the text
//! gives a round or a tick a length:
//!
//! | system | a tick is | a round is | seconds |
//! | --- | --- | --- | --- |
//! | Simultaneous | an exchange | an exchange | 3 an exchange (FUDGE 4.1's combat round, "around three seconds") |
//! | Simple Rounds | an initiative step | a round | 20 a round (Relativity: "roughly 20 seconds") |
//! | Graduated Rounds | a tick of the round | a round | 20 a round of `ticks_per_round` ticks: 1 a tick at 20 |
//! | Continuous | a second | a stopwatch lap of 20 ticks | 1 a tick ("1 second = 1 tick") |
//! | Tick System | a tick | a round (its highest initiative in ticks) | none: "ticks have no set length of time" |
//! | Action Blocks | an action block | a phase | 3 a phase (FUZION: "a three second PHASE") |

use super::TimingSystem;

/// Seconds of a Relativity round (Simple and Graduated Rounds):
/// "Conceptually, the length in game time of a 'round' is roughly 20
/// seconds."
pub const RELATIVITY_ROUND_SECONDS: u64 = 20;

/// Seconds of a FUDGE combat round, the exchange of Simultaneous combat
/// (FUDGE 4.1: "around three seconds seems reasonable to some people").
pub const FUDGE_ROUND_SECONDS: u64 = 3;

/// Seconds of a FUZION phase ("a three second PHASE").
pub const FUZION_PHASE_SECONDS: u64 = 3;

/// What a system's units are in game time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameTime {
    /// Every round lasts this many seconds, whatever its ticks.
    PerRound(u64),
    /// Ticks are `seconds / ticks` seconds each.
    PerTick {
        /// Seconds ...
        seconds: u64,
        /// ... per this many ticks.
        ticks: u64,
    },
    /// The text gives its ticks and rounds no length in time.
    Undefined,
}

impl TimingSystem {
    /// What this system's ticks and rounds are in game seconds (the table
    /// of the [module docs](crate::timing::duration)).
    pub fn game_time(&self) -> GameTime {
        match self {
            TimingSystem::Simultaneous => GameTime::PerRound(FUDGE_ROUND_SECONDS),
            TimingSystem::SimpleRounds => GameTime::PerRound(RELATIVITY_ROUND_SECONDS),
            // "each tick is 1/20th of whatever the round is": a round of
            // N ticks is still about 20 seconds.
            TimingSystem::GraduatedRounds(c) => GameTime::PerTick {
                seconds: RELATIVITY_ROUND_SECONDS,
                ticks: u64::from(c.ticks_per_round.max(1)),
            },
            TimingSystem::Continuous(_) => GameTime::PerTick { seconds: 1, ticks: 1 },
            TimingSystem::TickSystem(_) => GameTime::Undefined,
            TimingSystem::ActionBlocks(_) => GameTime::PerRound(FUZION_PHASE_SECONDS),
        }
    }

    /// The game seconds of a fight that lasted `ticks` absolute ticks and
    /// began `rounds` rounds (phases, exchanges, laps) under this system,
    /// rounded to the nearest second (halves up); `None` where the text
    /// gives no length (the Tick System). Saturates at `u64::MAX`.
    ///
    /// ```
    /// use skirmish_core::timing::TimingSystem;
    /// assert_eq!(TimingSystem::continuous().game_seconds(16, 1), Some(16));
    /// assert_eq!(TimingSystem::SimpleRounds.game_seconds(85, 5), Some(100));
    /// assert_eq!(TimingSystem::by_name("tick-system").unwrap().game_seconds(40, 2), None);
    /// ```
    pub fn game_seconds(&self, ticks: u64, rounds: u32) -> Option<u64> {
        let exact = match self.game_time() {
            GameTime::PerRound(seconds) => u128::from(seconds) * u128::from(rounds),
            GameTime::PerTick { seconds, ticks: per } => {
                let per = u128::from(per.max(1));
                (u128::from(ticks) * u128::from(seconds) * 2 + per) / (2 * per)
            }
            GameTime::Undefined => return None,
        };
        Some(u64::try_from(exact).unwrap_or(u64::MAX))
    }

    /// What a tick and a round are under this system, and their seconds,
    /// in a few words for a reader comparing durations.
    pub fn time_units(&self) -> String {
        let text = match self {
            TimingSystem::Simultaneous => "a tick is an exchange (a round), ~3 s (FUDGE 4.1)",
            TimingSystem::SimpleRounds => "a tick is an initiative step; a round ~20 s (Relativity)",
            TimingSystem::GraduatedRounds(c) => {
                return match c.ticks_per_round {
                    20 => "a tick is 1/20 of a ~20 s round: ~1 s (Relativity)".to_owned(),
                    n => format!("a tick is 1/{n} of a ~20 s round (Relativity)"),
                };
            }
            TimingSystem::Continuous(_) => "a tick is 1 s; a round is a 20-tick stopwatch lap (Relativity)",
            TimingSystem::TickSystem(_) => {
                "a tick has no set length of time, a round is its highest initiative in ticks (Tick System): no seconds"
            }
            TimingSystem::ActionBlocks(_) => "a tick is an action block; a round is a 3 s phase (FUZION)",
        };
        text.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::timing::{ActionBlocksConfig, GraduatedConfig, TickSystemConfig};

    #[test]
    fn seconds_follow_the_texts_units() {
        assert_eq!(TimingSystem::Simultaneous.game_seconds(7, 7), Some(21));
        assert_eq!(TimingSystem::SimpleRounds.game_seconds(85, 5), Some(100));
        let graduated = |n| {
            TimingSystem::GraduatedRounds(GraduatedConfig {
                ticks_per_round: n,
                ..GraduatedConfig::default()
            })
        };
        assert_eq!(graduated(20).game_seconds(45, 3), Some(45));
        // 40 ticks a round: half a second each, 45 ticks is 22.5 s, rounded up.
        assert_eq!(graduated(40).game_seconds(45, 2), Some(23));
        assert_eq!(graduated(40).game_seconds(44, 2), Some(22));
        assert_eq!(TimingSystem::continuous().game_seconds(16, 1), Some(16));
        assert_eq!(
            TimingSystem::TickSystem(TickSystemConfig::default()).game_seconds(99, 3),
            None
        );
        assert_eq!(
            TimingSystem::ActionBlocks(ActionBlocksConfig::default()).game_seconds(9, 4),
            Some(12)
        );
        assert_eq!(TimingSystem::continuous().game_seconds(u64::MAX, 0), Some(u64::MAX));
        assert_eq!(graduated(1).game_seconds(u64::MAX, 0), Some(u64::MAX));
    }
}
