//! The Tick System's Acquire in battles (docs/rules.md §1.5, §5): a
//! ranged attacker that changes target pays the system's `acquire_ticks`.
//! The rule is core's (`tick_system::with_acquire`, applied by
//! `Scheduler::acquire`); here it is only called where a battle's ranged
//! fighter takes a new target.

use skirmish_core::timing::TimingSystem;

use super::distance::Line;
use super::trace::{self, Trace};
use super::{Battle, Striking};
use crate::clock::Clock;
use crate::error::SimError;

impl Battle {
    /// Whether the battle plays Acquire: the Tick System with
    /// `acquire_ticks` above 0, a distance, and a group that shoots (a
    /// ranged reach). Such a battle runs on the Scheduler, which holds
    /// the rule.
    pub(super) fn plays_acquire(&self) -> bool {
        matches!(self.timing, TimingSystem::TickSystem(c) if c.acquire_ticks > 0)
            && self.distance.is_some()
            && self.groups.iter().any(|g| g.field.reach.range().is_some())
    }

    /// Fighter `a`, whose action lands now, engages `t`, another target
    /// than its last: if it shoots, it Acquires `t`, and its next turn
    /// comes `acquire_ticks` later. A battle picks the target when the
    /// action lands, after its ticks were counted, so the action's extra
    /// ticks move what follows it, as the tracker's shot at a new target
    /// does (docs/rules.md §1.5).
    ///
    /// Under FUDGE a ranged fighter's blow within its melee reach is a
    /// melee blow (§2.2.9), and Acquire is for ranged attacks only: it
    /// pays nothing.
    pub(super) fn acquire<C: Clock>(
        &self,
        clock: &mut C,
        (a, t): (u32, u32),
        line: &Line,
        trace: &mut Trace,
    ) -> Result<(), SimError> {
        if !self.acquires || self.field_of(a).reach.range().is_none() {
            return Ok(());
        }
        if matches!(self.striking, Striking::FudgeOpposed(_)) && !self.shoots_fudge(a, t, line) {
            return Ok(());
        }
        let (extra, next_turn) = clock.acquire(a)?;
        if extra > 0 {
            trace.say(|| trace::acquires(&self.fighter_name(a), &self.fighter_name(t), extra, next_turn));
        }
        Ok(())
    }
}
