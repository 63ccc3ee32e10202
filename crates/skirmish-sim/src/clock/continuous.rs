//! [`ContinuousClock`]: Continuous timing on plain arrays, one queue event
//! per fighter, no allocation per action; it draws its dice in the very
//! order the Scheduler does.

use skirmish_core::dice::SeededRolls;
use skirmish_core::timing::Declaration;
use skirmish_core::timing::graduated::ready_time_from;
use skirmish_core::timing::queue::{EventId, EventQueue};
use skirmish_core::timing::simple::initiative_from;

use super::{Clock, Tick};
use crate::error::SimError;

/// Continuous timing on plain arrays.
#[derive(Debug)]
pub(crate) struct ContinuousClock {
    queue: EventQueue<u32>,
    /// Per fighter: the pending event.
    pending: Vec<Option<EventId>>,
    /// Per fighter: the declaration's time offset for its initiative and
    /// for its follow-ups (which drop the one-off extra preparation, as
    /// the Scheduler's `Declaration::repeated` does).
    speed: Vec<(i64, i64)>,
    alive: Vec<bool>,
    /// Fighters to follow up, in the order they landed (then disrupted).
    awaiting: Vec<u32>,
    /// Per fighter: the handed-over Ready Time roll of its follow-up.
    ready: Vec<Option<i8>>,
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
            ready: Vec::new(),
            popped: Vec::new(),
            lap: 20,
            started: false,
        }
    }

    /// Readies the clock for a new battle, keeping its memory.
    pub(crate) fn reset(&mut self, lap: u32, fighters: impl Iterator<Item = Declaration>) {
        self.speed.clear();
        self.speed
            .extend(fighters.map(|d| (d.time_offset(), d.repeated().time_offset())));
        self.lap = u64::from(lap.max(1));
        self.restart();
    }

    /// Readies the clock for another battle of the same fighters (as
    /// [`reset`](Self::reset) left them).
    pub(crate) fn restart(&mut self) {
        self.queue.reset();
        let n = self.speed.len();
        self.pending.clear();
        self.pending.resize(n, None);
        self.alive.clear();
        self.alive.resize(n, true);
        self.ready.clear();
        self.ready.resize(n, None);
        self.awaiting.clear();
        self.popped.clear();
        self.started = false;
    }
}

impl Clock for ContinuousClock {
    #[inline]
    fn next(&mut self, rolls: &mut SeededRolls, acting: &mut Vec<u32>) -> Result<Option<Tick>, SimError> {
        acting.clear();
        if !self.started {
            // Initiative for everyone, in order.
            self.started = true;
            for w in 0..self.speed.len() {
                let init = initiative_from(i64::from(rolls.four_df()), self.speed[w].0);
                self.pending[w] = Some(self.queue.schedule(init as u64, w as u32).map_err(SimError::rules)?);
            }
            return Ok(Some(Tick::NewRound));
        }
        // The same again, after its Ready Time.
        let now = self.queue.now();
        for i in 0..self.awaiting.len() {
            let w = self.awaiting[i];
            if !self.alive[w as usize] {
                continue;
            }
            let offset = self.speed[w as usize].1;
            let roll = match self.ready[w as usize].take() {
                Some(roll) => i32::from(roll),
                None => rolls.fudge(2),
            };
            let rt = ready_time_from(i64::from(roll), offset);
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
            pass: 0,
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
    fn ready_roll(&mut self, who: u32, roll: i32) {
        if let Some(slot) = self.ready.get_mut(who as usize) {
            *slot = i8::try_from(roll).ok();
        }
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
