//! The battle's clock: which fighters act at the next moment.
//!
//! Two clocks run the same timing rules:
//!
//! - [`SchedulerClock`] drives the core [`Scheduler`] and so runs any of the
//!   six timing systems, exactly as the live tracker does;
//! - [`ContinuousClock`] is a lean clock for Continuous timing alone (the
//!   mass battles and the peer parity battle): one queue event per fighter,
//!   plain arrays, no allocation per action. It draws its dice in the very
//!   order the Scheduler does, so a battle gives the same result on either
//!   (tested: `tests/it/battle.rs`).
//!
//! Fighters that act at a moment do "the same again": their next action is
//! scheduled at the next call, after the battle has resolved the moment and
//! removed the fallen (the simultaneity rule).

use skirmish_core::dice::SeededRolls;
use skirmish_core::timing::graduated::MIN_READY_TIME;
use skirmish_core::timing::queue::{EventId, EventQueue};
use skirmish_core::timing::simple::MIN_INITIATIVE;
use skirmish_core::timing::{Act, ActorId, ActorTiming, Declaration, Scheduler, Step, TimingSystem};

use crate::error::SimError;

/// What a clock hands the battle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Tick {
    /// A round (phase, exchange) began.
    NewRound,
    /// Fighters act at this moment: absolute tick, round, the system's label.
    Moment { tick: u64, round: u32, display: i64 },
}

/// A battle clock (see the module docs).
pub(crate) trait Clock {
    /// The next step; the acting fighters go into `acting` (cleared first).
    fn next(&mut self, rolls: &mut SeededRolls, acting: &mut Vec<u32>) -> Result<Option<Tick>, SimError>;
    /// The fighter is down: it never acts again.
    fn remove(&mut self, who: u32);
    /// The fighter was hit: a pending disruptible action is lost (and it
    /// goes again from now). Returns whether one was.
    fn disrupt(&mut self, who: u32, disruptible: bool) -> bool;
}

/// Any timing system, through the core Scheduler.
pub(crate) struct SchedulerClock {
    scheduler: Scheduler,
    acts: Vec<Act>,
}

impl SchedulerClock {
    pub(crate) fn new(
        system: &TimingSystem,
        fighters: impl Iterator<Item = (ActorTiming, Declaration)>,
    ) -> Result<Self, SimError> {
        let mut scheduler = Scheduler::try_new(system.clone()).map_err(SimError::rules)?;
        for (timing, decl) in fighters {
            scheduler.add(timing, decl).map_err(SimError::rules)?;
        }
        Ok(SchedulerClock {
            scheduler,
            acts: Vec::new(),
        })
    }
}

impl Clock for SchedulerClock {
    #[inline]
    fn next(&mut self, rolls: &mut SeededRolls, acting: &mut Vec<u32>) -> Result<Option<Tick>, SimError> {
        acting.clear();
        loop {
            let step = self.scheduler.next(rolls, &mut self.acts).map_err(SimError::rules)?;
            match step {
                None => return Ok(None),
                Some(Step::NewRound { .. }) => return Ok(Some(Tick::NewRound)),
                Some(Step::Moment(m)) => {
                    acting.extend(self.acts.iter().filter_map(|a| match a {
                        Act::Action { actor, .. } => Some(actor.0),
                        _ => None,
                    }));
                    // A Tick System turn only begins an action; it lands later.
                    if acting.is_empty() {
                        continue;
                    }
                    return Ok(Some(Tick::Moment {
                        tick: m.tick,
                        round: m.round,
                        display: m.display,
                    }));
                }
            }
        }
    }

    fn remove(&mut self, who: u32) {
        let _ = self.scheduler.remove(ActorId(who));
    }

    fn disrupt(&mut self, who: u32, disruptible: bool) -> bool {
        disruptible && self.scheduler.disrupt(ActorId(who)).unwrap_or(false)
    }
}

/// Continuous timing on plain arrays.
pub(crate) struct ContinuousClock {
    queue: EventQueue<u32>,
    /// Per fighter: the pending event.
    pending: Vec<Option<EventId>>,
    /// Per fighter: Time Taken and speed bonus.
    speed: Vec<(i32, i32)>,
    alive: Vec<bool>,
    /// Fighters to follow up, in the order they landed (then disrupted).
    awaiting: Vec<u32>,
    popped: Vec<(EventId, u32)>,
    lap: u64,
    started: bool,
}

impl ContinuousClock {
    /// An empty clock; [`reset`](Self::reset) fills it for a battle.
    pub(crate) fn empty() -> Self {
        ContinuousClock {
            queue: EventQueue::new(),
            pending: Vec::new(),
            speed: Vec::new(),
            alive: Vec::new(),
            awaiting: Vec::new(),
            popped: Vec::new(),
            lap: 20,
            started: false,
        }
    }

    /// Readies the clock for a new battle, keeping its memory.
    pub(crate) fn reset(&mut self, lap: u32, fighters: impl Iterator<Item = Declaration>) {
        self.queue.reset();
        self.speed.clear();
        self.speed.extend(fighters.map(|d| (d.time_taken, d.speed_bonus)));
        let n = self.speed.len();
        self.pending.clear();
        self.pending.resize(n, None);
        self.alive.clear();
        self.alive.resize(n, true);
        self.awaiting.clear();
        self.popped.clear();
        self.lap = u64::from(lap.max(1));
        self.started = false;
    }
}

impl Clock for ContinuousClock {
    #[inline]
    fn next(&mut self, rolls: &mut SeededRolls, acting: &mut Vec<u32>) -> Result<Option<Tick>, SimError> {
        acting.clear();
        if !self.started {
            // Initiative for everyone, in order: 4dF + 5 + TT - bonus, at least 1.
            self.started = true;
            for w in 0..self.speed.len() {
                let (tt, bonus) = self.speed[w];
                let init = (i64::from(rolls.four_df()) + 5 + i64::from(tt) - i64::from(bonus)).max(MIN_INITIATIVE);
                self.pending[w] = Some(self.queue.schedule(init as u64, w as u32).map_err(SimError::rules)?);
            }
            return Ok(Some(Tick::NewRound));
        }
        // The same again: Ready Time = 2dF + TT - bonus, at least 1.
        let now = self.queue.now();
        for i in 0..self.awaiting.len() {
            let w = self.awaiting[i];
            if !self.alive[w as usize] {
                continue;
            }
            let (tt, bonus) = self.speed[w as usize];
            let rt = (i64::from(rolls.fudge(2)) + i64::from(tt) - i64::from(bonus)).max(MIN_READY_TIME);
            self.pending[w as usize] = Some(self.queue.schedule(now + rt as u64, w).map_err(SimError::rules)?);
        }
        self.awaiting.clear();
        let Some(tick) = self.queue.pop_tick(&mut self.popped) else {
            return Ok(None);
        };
        for &(_, w) in &self.popped {
            self.pending[w as usize] = None;
            acting.push(w);
            self.awaiting.push(w);
        }
        Ok(Some(Tick::Moment {
            tick,
            round: ((tick - 1) / self.lap + 1) as u32,
            display: tick as i64,
        }))
    }

    #[inline]
    fn remove(&mut self, who: u32) {
        let w = who as usize;
        if let Some(id) = self.pending[w].take() {
            self.queue.cancel(id);
        }
        // Follow-ups skip the fallen (O(1) here, whatever the crowd).
        self.alive[w] = false;
    }

    #[inline]
    fn disrupt(&mut self, who: u32, disruptible: bool) -> bool {
        if !disruptible {
            return false;
        }
        match self.pending[who as usize].take() {
            Some(id) => {
                self.queue.cancel(id);
                self.awaiting.push(who);
                true
            }
            None => false,
        }
    }
}
