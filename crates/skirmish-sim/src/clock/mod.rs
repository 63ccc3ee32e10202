//! The battle's clock: which fighters act at the next moment. The general
//! loop (`battle/`) and the moments fast paths (`fast/`) both read a clock
//! through the [`Clock`] trait; every clock runs the same timing rules (the
//! formulas are `skirmish_core::timing`'s) and draws its dice in the same
//! order, so a battle gives the same result on any of them.
//!
//! | clock | file | runs | chosen when |
//! | --- | --- | --- | --- |
//! | [`SchedulerClock`] | `scheduler.rs` | any of the six systems, through the core [`Scheduler`](skirmish_core::timing::Scheduler), exactly as the live tracker does | no lean clock takes the battle |
//! | [`ContinuousClock`] | `continuous.rs` | Continuous timing on plain arrays: one queue event per fighter, no allocation per action | Continuous |
//! | [`RoundsClock`] | `rounds.rs` | Simultaneous Combat, Simple Rounds and Action Blocks | those systems without GM timing |
//! | [`GraduatedClock`] | `graduated.rs` | Graduated Rounds, follow-ups on the [`ring`](crate::ring) | the round extends and no extra preparation or GM timing |
//! | [`TickClock`] | `tick.rs` | the Tick System, every option and declaration | the Tick System, no group that defends as a free action or prepares |
//! | [`LazyTickClock`] | `tick/lazy.rs` | the Tick System without handles, on the ring | up to 65,536 fighters, only a fall cancels an event, every delay fits the ring |
//! | [`LineClock`] | `lines.rs` | an encounter's Scheduler handed over, its lines expanded into fighters | odds from here |
//!
//! [`LeanClock`] holds whichever lean clock the battle's system has, so a
//! workspace keeps one from battle to battle; what none of them runs (see
//! each clock's `handles`) runs on the Scheduler. Tests hold every lean
//! clock to the Scheduler step for step (`lockstep.rs`, `tick/tests.rs`,
//! `tests/it/systems.rs`).
//!
//! Fighters that act at a moment do "the same again": their next action is
//! scheduled at the next call, after the battle has resolved the moment and
//! removed the fallen (the simultaneity rule, docs/rules.md §1.8).
//!
//! Under Continuous timing a Full Contact strike draws its follow-up's Ready
//! Time roll together with the Strike roll ([`SeededRolls::action_dice`]);
//! the battle hands it over with [`Clock::ready_roll`], and the follow-up
//! uses it instead of drawing one. Fighters that lost their action to a hit
//! (and any fighter without a handed-over roll) draw theirs at the
//! follow-up.

use skirmish_core::dice::SeededRolls;
use skirmish_core::timing::simple::actions_with;
use skirmish_core::timing::tick_system::FreeActionResult;
use skirmish_core::timing::{ActorTiming, Declaration, MAX_ACTORS, MAX_TICK, TimingSystem};

use crate::error::SimError;

mod continuous;
mod graduated;
mod lines;
#[cfg(test)]
mod lockstep;
mod rounds;
mod scheduler;
mod tick;

pub(crate) use continuous::ContinuousClock;
pub(crate) use graduated::GraduatedClock;
pub(crate) use lines::{LineClock, Lines};
pub(crate) use rounds::RoundsClock;
pub(crate) use scheduler::SchedulerClock;
pub(crate) use tick::{LazyTickClock, TickClock};

/// What a clock hands the battle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Tick {
    /// A round (phase, exchange) began.
    NewRound,
    /// Fighters act at this moment: absolute tick, round, the system's
    /// label, and the pass as the core's `Moment::pass` gives it (Simple
    /// Rounds: the pass; Graduated end of round: the end pass; Action
    /// Blocks: the block; otherwise 0), for the trace's words.
    Moment {
        tick: u64,
        round: u32,
        display: i64,
        pass: u32,
    },
}

/// A battle clock (see the module docs).
pub(crate) trait Clock {
    /// The next step; the acting fighters go into `acting` (cleared first).
    fn next(&mut self, rolls: &mut SeededRolls, acting: &mut Vec<u32>) -> Result<Option<Tick>, SimError>;
    /// The fighter is down: it never acts again.
    fn remove(&mut self, who: u32);
    /// Every fighter of `fallen` is down (all of a moment's at once, in
    /// order): the same as [`remove`](Self::remove) on each, which clocks
    /// that can do it for less override.
    #[inline]
    fn remove_fallen(&mut self, fallen: &[u32]) {
        for &f in fallen {
            self.remove(f);
        }
    }
    /// The fighter was hit: a pending disruptible action is lost (and it
    /// goes again from now). Returns whether one was.
    fn disrupt(&mut self, who: u32, disruptible: bool) -> bool;
    /// The `2dF` roll of the Ready Time of the follow-up of the action `who`
    /// takes at this moment, drawn with its strike. Clocks whose timing
    /// system takes no such roll (all but Continuous) ignore it.
    fn ready_roll(&mut self, who: u32, roll: i32);
    /// Tick System: the bonus to the fighter's defense now (Prepare's,
    /// while it is prepared). Clocks that run no Prepare give 0.
    #[inline]
    fn defense_bonus(&self, _who: u32) -> i32 {
        0
    }
    /// Tick System: the fighter defends as a free action (its group's
    /// `defend` policy), now; what it did to its timing. Clocks that run
    /// no such policy do nothing.
    #[inline]
    fn defend(&mut self, _who: u32) -> Result<Option<FreeActionResult>, SimError> {
        Ok(None)
    }
    /// Tick System: the fighter's attack, now landing, was a ranged attack
    /// at a new target: **Acquire** moves its next turn the system's
    /// `acquire_ticks` later (core `Scheduler::acquire`). Returns the
    /// ticks added and the countdown tick of its next turn. Clocks that
    /// run no Acquire do nothing.
    #[inline]
    fn acquire(&mut self, _who: u32) -> Result<(u32, Option<i64>), SimError> {
        Ok((0, None))
    }
    /// Tick System: a prepared fighter struck at takes its held turn now
    /// and attacks (its group's `prepare` policy), preparing again at its
    /// next turn. Returns whether it did. Clocks that run no Prepare do
    /// nothing.
    #[inline]
    fn answer(&mut self, _who: u32) -> Result<bool, SimError> {
        Ok(false)
    }
}

/// A battle's lean clock, kept in a workspace from battle to battle (see
/// the module docs).
#[derive(Debug)]
pub(crate) enum LeanClock {
    /// Continuous timing.
    Continuous(ContinuousClock),
    /// Simultaneous Combat, Simple Rounds and Action Blocks.
    Rounds(RoundsClock),
    /// Graduated Rounds that extend the round.
    Graduated(GraduatedClock),
    /// The Tick System.
    Tick(TickClock),
    /// The Tick System where only a fall cancels an event (no disruptible
    /// declaration) and every delay fits the fast path's ring.
    TickLazy(LazyTickClock),
}

impl LeanClock {
    /// Whether a lean clock runs `system` for fighters with these
    /// declarations.
    pub(crate) fn handles(system: &TimingSystem, declarations: impl Iterator<Item = Declaration>) -> bool {
        match system {
            TimingSystem::Continuous(_) => true,
            TimingSystem::GraduatedRounds(_) => GraduatedClock::handles(system, declarations),
            TimingSystem::TickSystem(_) => TickClock::handles(system, declarations),
            _ => RoundsClock::handles(system, declarations),
        }
    }

    /// The lean clock in `slot` readied for a battle under `system` of
    /// these fighters (in fighter order), reusing its memory when it is of
    /// the same kind. Errors: a system without a lean clock, or what the
    /// Scheduler would refuse as the fighters join.
    pub(crate) fn ready<'s>(
        slot: &'s mut Option<LeanClock>,
        system: &TimingSystem,
        fighters: impl Iterator<Item = (ActorTiming, Declaration)> + Clone,
    ) -> Result<&'s mut LeanClock, SimError> {
        match system {
            TimingSystem::Continuous(c) => {
                if !matches!(slot, Some(LeanClock::Continuous(_))) {
                    *slot = Some(LeanClock::Continuous(ContinuousClock::empty()));
                }
                if let Some(LeanClock::Continuous(clock)) = slot {
                    clock.reset(c.lap, fighters.map(|(_, d)| d));
                }
            }
            TimingSystem::Simultaneous | TimingSystem::SimpleRounds | TimingSystem::ActionBlocks(_) => {
                if !matches!(slot, Some(LeanClock::Rounds(_))) {
                    *slot = Some(LeanClock::Rounds(RoundsClock::default()));
                }
                if let Some(LeanClock::Rounds(clock)) = slot {
                    clock.reset(system, fighters)?;
                }
            }
            TimingSystem::GraduatedRounds(_) => {
                if !matches!(slot, Some(LeanClock::Graduated(_))) {
                    *slot = Some(LeanClock::Graduated(GraduatedClock::default()));
                }
                if let Some(LeanClock::Graduated(clock)) = slot {
                    clock.reset(system, fighters)?;
                }
            }
            TimingSystem::TickSystem(_) if LazyTickClock::takes(system, fighters.clone()) => {
                if !matches!(slot, Some(LeanClock::TickLazy(_))) {
                    *slot = Some(LeanClock::TickLazy(LazyTickClock::default()));
                }
                if let Some(LeanClock::TickLazy(clock)) = slot {
                    clock.reset(system, fighters)?;
                }
            }
            TimingSystem::TickSystem(_) => {
                if !matches!(slot, Some(LeanClock::Tick(_))) {
                    *slot = Some(LeanClock::Tick(TickClock::default()));
                }
                if let Some(LeanClock::Tick(clock)) = slot {
                    clock.reset(system, fighters)?;
                }
            }
        }
        slot.as_mut()
            .filter(|_| LeanClock::handles(system, std::iter::empty()))
            .ok_or_else(|| SimError::Scenario(format!("no lean clock runs {}", system.name())))
    }
}

impl LeanClock {
    /// Readies the clock for another battle of the fighters it was last
    /// readied for ([`ready`](Self::ready)), without reading or checking
    /// them again.
    pub(crate) fn restart(&mut self) {
        match self {
            LeanClock::Continuous(c) => c.restart(),
            LeanClock::Rounds(c) => c.restart(),
            LeanClock::Graduated(c) => c.restart(),
            LeanClock::Tick(c) => c.restart(),
            LeanClock::TickLazy(c) => c.restart(),
        }
    }
}

impl Clock for LeanClock {
    #[inline]
    fn next(&mut self, rolls: &mut SeededRolls, acting: &mut Vec<u32>) -> Result<Option<Tick>, SimError> {
        match self {
            LeanClock::Continuous(c) => c.next(rolls, acting),
            LeanClock::Rounds(c) => c.next(rolls, acting),
            LeanClock::Graduated(c) => c.next(rolls, acting),
            LeanClock::Tick(c) => c.next(rolls, acting),
            LeanClock::TickLazy(c) => c.next(rolls, acting),
        }
    }

    #[inline]
    fn remove(&mut self, who: u32) {
        match self {
            LeanClock::Continuous(c) => c.remove(who),
            LeanClock::Rounds(c) => c.remove(who),
            LeanClock::Graduated(c) => c.remove(who),
            LeanClock::Tick(c) => c.remove(who),
            LeanClock::TickLazy(c) => c.remove(who),
        }
    }

    #[inline]
    fn disrupt(&mut self, who: u32, disruptible: bool) -> bool {
        match self {
            LeanClock::Continuous(c) => c.disrupt(who, disruptible),
            LeanClock::Rounds(c) => c.disrupt(who, disruptible),
            LeanClock::Graduated(c) => c.disrupt(who, disruptible),
            LeanClock::Tick(c) => c.disrupt(who, disruptible),
            LeanClock::TickLazy(c) => c.disrupt(who, disruptible),
        }
    }

    #[inline]
    fn ready_roll(&mut self, who: u32, roll: i32) {
        match self {
            LeanClock::Continuous(c) => c.ready_roll(who, roll),
            LeanClock::Rounds(c) => c.ready_roll(who, roll),
            LeanClock::Graduated(c) => c.ready_roll(who, roll),
            LeanClock::Tick(c) => c.ready_roll(who, roll),
            LeanClock::TickLazy(c) => c.ready_roll(who, roll),
        }
    }
}

/// A round that would land past the scheduler's last tick (the
/// Scheduler's own error), for the lean round clocks.
#[cold]
pub(crate) fn past_last_tick() -> SimError {
    SimError::rules(skirmish_core::Error::overflow(
        "round",
        format!("it would land after the last tick {MAX_TICK}"),
    ))
}

/// The round after `round`, or the Scheduler's error past `u32::MAX`.
#[inline]
pub(crate) fn next_round(round: u32) -> Result<u32, SimError> {
    round
        .checked_add(1)
        .ok_or_else(|| SimError::rules(skirmish_core::Error::overflow("round", "more than u32::MAX rounds")))
}

/// Actions in round `round` of a declaration with Rate of Fire `rof` and
/// `extra_attacks` (core `actions_with`: every fighter of a lean clock has
/// been in the fight since round 1), as the round clocks keep it (a u16:
/// at most `MAX_ACTIONS`, 1,000).
#[inline]
pub(crate) fn actions_in_round(rof: skirmish_core::tables::weapons::RateOfFire, extra_attacks: u32, round: u32) -> u16 {
    u16::try_from(actions_with(rof, extra_attacks, round)).unwrap_or(u16::MAX)
}

/// What the Scheduler's `add` checks, for a lean clock taking one more
/// fighter when `count` are in: its traits and declaration (a group's
/// fighters share them, so they are checked once per run of equal ones,
/// `last`) and the actor limit.
pub(crate) fn admit(
    last: &mut Option<(ActorTiming, Declaration)>,
    timing: ActorTiming,
    decl: Declaration,
    count: usize,
) -> Result<(), SimError> {
    if *last != Some((timing, decl)) {
        timing.validate().map_err(SimError::rules)?;
        decl.validate().map_err(SimError::rules)?;
        *last = Some((timing, decl));
    }
    if count >= MAX_ACTORS {
        return Err(SimError::rules(skirmish_core::Error::out_of_range(
            "actors",
            count as i64 + 1,
            1,
            MAX_ACTORS as i64,
        )));
    }
    Ok(())
}
