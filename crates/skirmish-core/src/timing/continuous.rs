//! Continuous Combat (Relativity, "Continuous Combat"; docs/rules.md §1.4).
//!
//! - No rounds. First actions by initiative as in
//!   [Simple Rounds](super::simple); after each action the actor declares
//!   its next intention, which lands at the current tick + Ready Time
//!   ([`ready_time`](super::graduated::ready_time)).
//! - **Changing one's mind** mid-action: the new action's Ready Time counts
//!   from the tick of the change, plus any extra preparation ticks the GM
//!   rules (dropping or drawing a weapon, recovering from a lost spell);
//!   never retroactive ([`Scheduler::declare`](super::Scheduler::declare)
//!   with [`Declaration::extra_preparation`](super::Declaration::extra_preparation)).
//! - Durations are in seconds = ticks
//!   ([`Scheduler::set_timer`](super::Scheduler::set_timer)).
//! - The **stopwatch** view shows tick `t` as lap `(t - 1) / 20` and
//!   position `(t - 1) % 20 + 1` ([`ContinuousConfig::stopwatch`]).
//! - The heavy crossbow's TT is 12 here (the weapon table's footnote,
//!   [`Declaration::weapon`](super::Declaration::weapon)); RoF bonuses such
//!   as Bracers do not apply: Rate of Fire is inherent in Time Taken.
//! - The GM has the last word: any declaration may carry a GM-set Ready
//!   Time or landing tick ([`GmTiming`](super::GmTiming)).

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// Options of Continuous timing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ContinuousConfig {
    /// Ticks per lap of the stopwatch view (default 20).
    pub lap: u32,
}

impl Default for ContinuousConfig {
    fn default() -> Self {
        ContinuousConfig { lap: 20 }
    }
}

impl ContinuousConfig {
    /// Checks the options: a lap of 1 to 100,000 ticks.
    pub fn validate(&self) -> Result<()> {
        if !(1..=100_000).contains(&self.lap) {
            return Err(Error::out_of_range("timing.lap", self.lap, 1, 100_000));
        }
        Ok(())
    }

    /// Tick `t` (from 1) on the stopwatch: `(laps completed, position 1..=lap)`.
    ///
    /// ```
    /// use skirmish_core::timing::ContinuousConfig;
    /// let watch = ContinuousConfig::default();
    /// assert_eq!(watch.stopwatch(7), (0, 7));
    /// assert_eq!(watch.stopwatch(20), (0, 20));
    /// assert_eq!(watch.stopwatch(21), (1, 1));
    /// ```
    pub fn stopwatch(&self, tick: u64) -> (u64, u32) {
        let lap = u64::from(self.lap.max(1));
        let t = tick.max(1) - 1;
        (t / lap, (t % lap) as u32 + 1)
    }
}
