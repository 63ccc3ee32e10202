//! A lean clock for Graduated Rounds with the default past-the-end policy,
//! "extend the round" (issue 13).
//!
//! Graduated Rounds is Continuous timing inside rounds: each fighter's
//! first action of a round lands on its initiative (4dF + 5 + Time Taken -
//! speed bonus, at least 1, counted from the round's start), each further
//! one a Ready Time (2dF + Time Taken - speed bonus, at least 1) after the
//! last, up to its actions for the round (Rate of Fire and extra attacks);
//! the round ends when no action of it is pending, and the next begins at
//! `max(now, start + ticks per round)`. Like [`ContinuousClock`], this
//! clock keeps one queue event per fighter and plain per-fighter arrays,
//! and draws the dice exactly when and in the order the core Scheduler
//! does (follow-ups' Ready Times at the next step, in the order the
//! fighters landed, then disrupted; a new round's initiatives in fighter
//! order once nothing is pending), so a seeded battle is identical on
//! either clock (`tests/it/systems.rs`).
//!
//! The other past-the-end policies (spill, end of round, lose) and
//! declarations with extra preparation or GM timing stay with the
//! Scheduler ([`GraduatedClock::handles`]).
//!
//! [`ContinuousClock`]: super::ContinuousClock

use skirmish_core::dice::SeededRolls;
use skirmish_core::tables::weapons::RateOfFire;
use skirmish_core::timing::graduated::MIN_READY_TIME;
use skirmish_core::timing::queue::{EventId, EventQueue};
use skirmish_core::timing::simple::MIN_INITIATIVE;
use skirmish_core::timing::{ActorTiming, Declaration, MAX_ACTIONS, MAX_TICK, PastEnd, TimingSystem};

use super::{Clock, Tick};
use crate::battle::reserve_fighters;
use crate::error::SimError;

/// Graduated Rounds (extend the round) on plain arrays.
#[derive(Debug)]
pub(crate) struct GraduatedClock {
    queue: EventQueue<u32>,
    ticks_per_round: u64,
    /// Per fighter: Time Taken - speed bonus.
    speed: Vec<i64>,
    /// Per fighter: Rate of Fire and extra attacks.
    shots: Vec<(RateOfFire, u32)>,
    /// Per fighter: its declaration is disruptible.
    disruptible: Vec<bool>,
    alive: Vec<bool>,
    /// Per fighter: the pending action and which of the round it is.
    pending: Vec<Option<(EventId, u32)>>,
    /// Per fighter: the last action of the round that landed.
    nth: Vec<u32>,
    /// Per fighter: actions allowed this round.
    allowed: Vec<u32>,
    /// Fighters to follow up, in the order they landed (then disrupted).
    awaiting: Vec<u32>,
    /// Pending actions.
    live: usize,
    popped: Vec<(EventId, u32)>,
    round: u32,
    round_base: u64,
}

impl Default for GraduatedClock {
    fn default() -> Self {
        GraduatedClock {
            queue: EventQueue::new(),
            ticks_per_round: 20,
            speed: Vec::new(),
            shots: Vec::new(),
            disruptible: Vec::new(),
            alive: Vec::new(),
            pending: Vec::new(),
            nth: Vec::new(),
            allowed: Vec::new(),
            awaiting: Vec::new(),
            live: 0,
            popped: Vec::new(),
            round: 0,
            round_base: 0,
        }
    }
}

impl GraduatedClock {
    /// Whether this clock runs `system` for fighters with these
    /// declarations: Graduated Rounds that extend the round, no extra
    /// preparation (the Scheduler drops it after a fighter's first
    /// follow-up), no GM timing.
    pub(crate) fn handles(system: &TimingSystem, declarations: impl Iterator<Item = Declaration>) -> bool {
        matches!(system, TimingSystem::GraduatedRounds(c) if c.past_end == PastEnd::Extend)
            && declarations
                .into_iter()
                .all(|d| d.gm.is_none() && d.extra_preparation == 0)
    }

    /// Readies the clock for a new battle, keeping its memory. Checks what
    /// the Scheduler checks as fighters join.
    pub(crate) fn reset(
        &mut self,
        system: &TimingSystem,
        fighters: impl Iterator<Item = (ActorTiming, Declaration)>,
    ) -> Result<(), SimError> {
        system.validate().map_err(SimError::rules)?;
        if let TimingSystem::GraduatedRounds(c) = system {
            self.ticks_per_round = u64::from(c.ticks_per_round);
        }
        self.speed.clear();
        self.shots.clear();
        self.disruptible.clear();
        // Room for every fighter first: a battle too big for memory is an
        // error naming its size, not an abort (as the battle's own arrays).
        let n = fighters.size_hint().0;
        reserve_fighters(&mut self.speed, n)?;
        reserve_fighters(&mut self.shots, n)?;
        reserve_fighters(&mut self.disruptible, n)?;
        reserve_fighters(&mut self.alive, n)?;
        reserve_fighters(&mut self.pending, n)?;
        reserve_fighters(&mut self.nth, n)?;
        reserve_fighters(&mut self.allowed, n)?;
        reserve_fighters(&mut self.awaiting, n)?;
        reserve_fighters(&mut self.popped, n)?;
        let mut last: Option<(ActorTiming, Declaration)> = None;
        for (timing, decl) in fighters {
            super::admit(&mut last, timing, decl, self.speed.len())?;
            self.speed
                .push(i64::from(decl.time_taken) - i64::from(decl.speed_bonus));
            self.shots.push((decl.rate_of_fire, decl.extra_attacks));
            self.disruptible.push(decl.disruptible);
        }
        self.restart();
        Ok(())
    }

    /// Readies the clock for another battle of the same fighters (as
    /// [`reset`](Self::reset) left them): everyone standing, nothing
    /// pending, before the first round.
    pub(crate) fn restart(&mut self) {
        self.queue.reset();
        let n = self.speed.len();
        self.alive.clear();
        self.alive.resize(n, true);
        self.pending.clear();
        self.pending.resize(n, None);
        self.nth.clear();
        self.nth.resize(n, 0);
        self.allowed.clear();
        self.allowed.resize(n, 0);
        self.awaiting.clear();
        self.popped.clear();
        self.live = 0;
        self.round = 0;
        self.round_base = 0;
    }

    /// Schedules `w`'s `nth` action of the round at `tick`.
    #[inline]
    fn schedule(&mut self, w: u32, nth: u32, tick: u64) -> Result<(), SimError> {
        let id = self.queue.schedule(tick, w).map_err(SimError::rules)?;
        self.pending[w as usize] = Some((id, nth));
        self.live += 1;
        Ok(())
    }

    /// Rolls and lays out the next round: everyone in the fight rolls
    /// initiative in fighter order; those with an action this round act
    /// first on it.
    fn begin_round(&mut self, rolls: &mut SeededRolls) -> Result<(), SimError> {
        let round = super::next_round(self.round)?;
        let base = if self.round == 0 {
            0
        } else {
            self.queue
                .now()
                .max(self.round_base.saturating_add(self.ticks_per_round))
        };
        if base > MAX_TICK {
            return Err(super::past_last_tick());
        }
        self.round = round;
        self.round_base = base;
        for w in 0..self.speed.len() {
            if !self.alive[w] {
                continue;
            }
            let init = (i64::from(rolls.four_df()) + 5 + self.speed[w]).max(MIN_INITIATIVE);
            let (rof, extra) = self.shots[w];
            // `actions_in_round`: every fighter has been in the fight
            // since round 1, so this is its round of use; one shot a round
            // or more is the same every round.
            let shots = if rof.rounds() <= 1 {
                rof.shots()
            } else {
                rof.shots_in_round(round)
            };
            let allowed = shots.saturating_add(extra).min(MAX_ACTIONS);
            self.allowed[w] = allowed;
            self.nth[w] = 0;
            if allowed > 0 {
                let tick = base.saturating_add(init.unsigned_abs());
                if tick > MAX_TICK {
                    return Err(super::past_last_tick());
                }
                self.schedule(w as u32, 1, tick)?;
            }
        }
        Ok(())
    }
}

impl Clock for GraduatedClock {
    #[inline]
    fn next(&mut self, rolls: &mut SeededRolls, acting: &mut Vec<u32>) -> Result<Option<Tick>, SimError> {
        acting.clear();
        // The same again, in the order they landed (then were disrupted):
        // a Ready Time from now, while the round allows them actions.
        let now = self.queue.now().max(self.round_base);
        for i in 0..self.awaiting.len() {
            let w = self.awaiting[i];
            let wi = w as usize;
            if !self.alive[wi] || self.nth[wi] >= self.allowed[wi] {
                continue;
            }
            let rt = (i64::from(rolls.two_df()) + self.speed[wi]).max(MIN_READY_TIME);
            let tick = match now.checked_add(rt.unsigned_abs()) {
                Some(t) if t <= MAX_TICK => t,
                _ => {
                    return Err(SimError::rules(skirmish_core::Error::out_of_range(
                        "ready_time",
                        rt,
                        0,
                        MAX_TICK.saturating_sub(now),
                    )));
                }
            };
            self.schedule(w, self.nth[wi] + 1, tick)?;
        }
        self.awaiting.clear();
        if self.round == 0 || self.live == 0 {
            if self.alive.iter().any(|&a| a) {
                self.begin_round(rolls)?;
                return Ok(Some(Tick::NewRound));
            }
            return Ok(None);
        }
        let Some(tick) = self.queue.pop_tick(&mut self.popped) else {
            return Ok(None);
        };
        for &(_, w) in &self.popped {
            let wi = w as usize;
            if let Some((_, nth)) = self.pending[wi].take() {
                self.live -= 1;
                self.nth[wi] = nth;
            }
            acting.push(w);
            if self.nth[wi] < self.allowed[wi] {
                self.awaiting.push(w);
            }
        }
        Ok(Some(Tick::Moment {
            tick,
            round: self.round,
            display: i64::try_from(tick.saturating_sub(self.round_base)).unwrap_or(i64::MAX),
            pass: 0,
        }))
    }

    #[inline]
    fn remove(&mut self, who: u32) {
        let w = who as usize;
        if let Some((id, _)) = self.pending[w].take() {
            self.queue.cancel(id);
            self.live -= 1;
        }
        // Follow-ups skip the fallen.
        self.alive[w] = false;
    }

    /// A disruptible fighter's pending action is lost, and it declares the
    /// same again from now (at the next step).
    #[inline]
    fn disrupt(&mut self, who: u32, disruptible: bool) -> bool {
        let w = who as usize;
        if !disruptible || !self.disruptible[w] || !self.alive[w] {
            return false;
        }
        match self.pending[w].take() {
            Some((id, _)) => {
                self.queue.cancel(id);
                self.live -= 1;
                self.awaiting.push(who);
                true
            }
            None => false,
        }
    }

    #[inline]
    fn ready_roll(&mut self, _who: u32, _roll: i32) {}
}
