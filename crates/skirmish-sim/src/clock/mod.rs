//! The battle's clock: which fighters act at the next moment.
//!
//! Clocks that run the same timing rules:
//!
//! - [`SchedulerClock`] drives the core [`Scheduler`] and so runs any of the
//!   six timing systems, exactly as the live tracker does;
//! - [`ContinuousClock`] is a lean clock for Continuous timing alone (the
//!   mass battles and the peer parity battle): one queue event per fighter,
//!   plain arrays, no allocation per action. It draws its dice in the very
//!   order the Scheduler does, so a battle gives the same result on either
//!   (tested: `tests/it/battle.rs`).
//! - [`RoundsClock`] (`rounds.rs`) is the same for Simultaneous Combat,
//!   Simple Rounds and Action Blocks, and [`GraduatedClock`]
//!   (`graduated.rs`) for Graduated Rounds that extend the round (tested:
//!   `tests/it/systems.rs`).
//! - [`TickClock`] (`tick.rs`) is the same for the Tick System, every
//!   option and declaration (a battle only repeats declarations, so none
//!   of the table's operations is needed; tested: `tests/it/systems.rs`);
//!   [`LazyTickClock`] (`tick/lazy.rs`) runs it without handles for a
//!   battle of up to 65,536 fighters where only a fall cancels an event
//!   (no disruptible declaration) and every delay fits the fast path's
//!   ring.
//!
//! [`LeanClock`] holds whichever lean clock the battle's system has, so a
//! workspace keeps one from battle to battle; what none of them runs
//! (Graduated Rounds that do not extend the round, GM timing under the
//! round systems, extra preparation under Graduated Rounds: see each
//! clock's `handles`) runs on the Scheduler.
//!
//! Fighters that act at a moment do "the same again": their next action is
//! scheduled at the next call, after the battle has resolved the moment and
//! removed the fallen (the simultaneity rule).
//!
//! Under Continuous timing a Full Contact strike draws its follow-up's Ready
//! Time roll together with the Strike roll ([`SeededRolls::action_dice`]);
//! the battle hands it over with [`Clock::ready_roll`], and the follow-up
//! uses it instead of drawing one. Fighters that lost their action to a hit
//! (and any fighter without a handed-over roll) draw theirs at the
//! follow-up, as before.

use skirmish_core::dice::{Dice, RollSource, SeededRolls};
use skirmish_core::timing::graduated::ready_time_from;
use skirmish_core::timing::queue::{EventId, EventQueue};
use skirmish_core::timing::simple::{actions_with, initiative_from};
use skirmish_core::timing::{
    Act, ActorId, ActorTiming, Declaration, MAX_ACTORS, MAX_TICK, Scheduler, Step, TimingSystem,
};

use crate::error::SimError;

mod graduated;
#[cfg(test)]
mod lockstep;
mod rounds;
mod tick;

pub(crate) use graduated::GraduatedClock;
pub(crate) use rounds::RoundsClock;
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
}

/// A roll source that answers the first `2dF` requests with rolls already
/// drawn, in order, then draws.
struct Prerolled<'a> {
    rolls: &'a mut SeededRolls,
    ready: &'a [(u32, i32)],
    next: usize,
}

impl RollSource for Prerolled<'_> {
    #[inline]
    fn roll(&mut self, dice: Dice) -> skirmish_core::Result<i32> {
        if dice == Dice::TWO_DF
            && let Some(&(_, roll)) = self.ready.get(self.next)
        {
            self.next += 1;
            return Ok(roll);
        }
        self.rolls.roll(dice)
    }
}

/// Any timing system, through the core Scheduler.
pub(crate) struct SchedulerClock {
    scheduler: Scheduler,
    acts: Vec<Act>,
    /// Whether the system is Continuous (the one that takes handed-over
    /// Ready Time rolls).
    continuous: bool,
    /// Handed-over Ready Time rolls `(fighter, roll)`, in the order the
    /// fighters acted; the Scheduler follows them up in that order.
    ready: Vec<(u32, i32)>,
    /// Per fighter: removed (the fallen are not followed up).
    removed: Vec<bool>,
}

impl SchedulerClock {
    pub(crate) fn new(
        system: &TimingSystem,
        fighters: impl Iterator<Item = (ActorTiming, Declaration)>,
    ) -> Result<Self, SimError> {
        let mut scheduler = Scheduler::try_new(system.clone()).map_err(SimError::rules)?;
        let mut count = 0;
        for (timing, decl) in fighters {
            scheduler.add(timing, decl).map_err(SimError::rules)?;
            count += 1;
        }
        Ok(SchedulerClock {
            scheduler,
            acts: Vec::new(),
            continuous: matches!(system, TimingSystem::Continuous(_)),
            ready: Vec::new(),
            removed: vec![false; count],
        })
    }
}

impl Clock for SchedulerClock {
    #[inline]
    fn next(&mut self, rolls: &mut SeededRolls, acting: &mut Vec<u32>) -> Result<Option<Tick>, SimError> {
        acting.clear();
        let removed = &self.removed;
        self.ready
            .retain(|&(w, _)| !removed.get(w as usize).copied().unwrap_or(true));
        loop {
            let mut prerolled = Prerolled {
                rolls: &mut *rolls,
                ready: &self.ready,
                next: 0,
            };
            let step = self.scheduler.next(&mut prerolled, &mut self.acts);
            let used = prerolled.next;
            self.ready.drain(..used);
            match step.map_err(SimError::rules)? {
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
                        pass: m.pass,
                    }));
                }
            }
        }
    }

    fn remove(&mut self, who: u32) {
        self.remove_fallen(&[who]);
    }

    /// One Scheduler call for the moment's fallen: its awaiting list (all
    /// who acted at this moment) is filtered once, not once per fallen
    /// fighter, which made the Tick System's cost per action grow with
    /// the battle's size.
    fn remove_fallen(&mut self, fallen: &[u32]) {
        self.scheduler.remove_each(fallen.iter().map(|&f| ActorId(f)));
        // The fallen are not followed up: their rolls go at the next call.
        for &f in fallen {
            if let Some(r) = self.removed.get_mut(f as usize) {
                *r = true;
            }
        }
    }

    fn disrupt(&mut self, who: u32, disruptible: bool) -> bool {
        disruptible && self.scheduler.disrupt(ActorId(who)).unwrap_or(false)
    }

    fn ready_roll(&mut self, who: u32, roll: i32) {
        if self.continuous {
            self.ready.push((who, roll));
        }
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

/// The lines of a continuation (an encounter's state, fought on many
/// times): which fighters act on each scheduler actor, and the state every
/// battle from it starts in. Built once; [`LineClock`] borrows it.
///
/// A tracker *line* is one scheduler actor: one combatant, or a group whose
/// members share one initiative and one action. When the line's action
/// lands, every standing member acts; the line leaves the scheduler when
/// its last member falls; a hit disrupts only a one-member line's action
/// (a group's members share theirs, as at the table: `tracker/strike.rs`).
#[derive(Debug, Clone)]
pub(crate) struct Lines {
    /// The scheduler as handed over (lines with nobody standing removed).
    scheduler: Scheduler,
    /// Per line: where its fighters start in `members` (one more entry
    /// than lines: line `l` is `members[first[l]..first[l + 1]]`).
    first: Vec<u32>,
    /// The fighters of every line, line by line, in fighter order.
    members: Vec<u32>,
    /// Per fighter: its line.
    line_of: Vec<u32>,
    /// Per line: its standing fighters at the start.
    standing: Vec<u32>,
    /// Per fighter: standing at the start.
    alive: Vec<bool>,
    /// Whether the system is Continuous (it takes handed-over Ready Time rolls).
    continuous: bool,
}

impl Lines {
    /// The lines of `scheduler` from each fighter's `(line, standing)`, in
    /// fighter order. A line no fighter stands on leaves the scheduler (it
    /// could only act for nobody). Refused: a fighter on a line the
    /// scheduler does not have, or standing on one that is out of the fight.
    pub(crate) fn new(
        mut scheduler: Scheduler,
        fighters: impl ExactSizeIterator<Item = (u32, bool)>,
    ) -> Result<Lines, SimError> {
        let n_lines = scheduler.len();
        let mut count = vec![0u32; n_lines];
        let mut standing = vec![0u32; n_lines];
        let mut line_of = Vec::with_capacity(fighters.len());
        let mut alive = Vec::with_capacity(fighters.len());
        for (f, (line, up)) in fighters.enumerate() {
            let l = line as usize;
            if l >= n_lines {
                return Err(SimError::rules(skirmish_core::Error::invalid(
                    format!("fighters[{f}].line"),
                    format!("line {line} is not in the scheduler (it has {n_lines})"),
                )));
            }
            if up && !scheduler.is_in(ActorId(line)) {
                return Err(SimError::rules(skirmish_core::Error::invalid(
                    format!("fighters[{f}].standing"),
                    format!("standing on line {line}, which is out of the fight"),
                )));
            }
            count[l] += 1;
            standing[l] += u32::from(up);
            line_of.push(line);
            alive.push(up);
        }
        let mut first = Vec::with_capacity(n_lines + 1);
        let mut at = 0u32;
        for &c in &count {
            first.push(at);
            at += c;
        }
        first.push(at);
        let mut members = vec![0u32; at as usize];
        let mut next: Vec<u32> = first[..n_lines].to_vec();
        for (f, &l) in line_of.iter().enumerate() {
            members[next[l as usize] as usize] = f as u32;
            next[l as usize] += 1;
        }
        for (l, &up) in standing.iter().enumerate() {
            let actor = ActorId(l as u32);
            if up == 0 && scheduler.is_in(actor) {
                scheduler.remove(actor).map_err(SimError::rules)?;
            }
        }
        let continuous = matches!(scheduler.system(), TimingSystem::Continuous(_));
        Ok(Lines {
            scheduler,
            first,
            members,
            line_of,
            standing,
            alive,
            continuous,
        })
    }

    /// The fighters of line `l`.
    #[inline]
    fn members(&self, l: u32) -> &[u32] {
        let l = l as usize;
        match (self.first.get(l), self.first.get(l + 1)) {
            (Some(&a), Some(&b)) => self.members.get(a as usize..b as usize).unwrap_or(&[]),
            _ => &[],
        }
    }
}

/// A continuation's clock: the handed-over [`Scheduler`] (any timing
/// system), its lines expanded into their standing fighters (see
/// [`Lines`]). Like [`SchedulerClock`], fighters whose line landed do "the
/// same again" (the Scheduler repeats the line's declaration), lines that
/// landed before the hand-over included.
pub(crate) struct LineClock<'l> {
    lines: &'l Lines,
    scheduler: Scheduler,
    acts: Vec<Act>,
    /// Handed-over Ready Time rolls `(line, roll)`: a line's first acting
    /// fighter's, in the order the lines landed.
    ready: Vec<(u32, i32)>,
    /// Per line: standing fighters.
    standing: Vec<u32>,
    /// Per fighter: standing.
    alive: Vec<bool>,
}

impl<'l> LineClock<'l> {
    /// A clock at the start of the continuation.
    pub(crate) fn new(lines: &'l Lines) -> Self {
        LineClock {
            lines,
            scheduler: lines.scheduler.clone(),
            acts: Vec::new(),
            ready: Vec::new(),
            standing: lines.standing.clone(),
            alive: lines.alive.clone(),
        }
    }

    /// Back to the start of the continuation, for the next battle.
    pub(crate) fn reset(&mut self) {
        self.scheduler.clone_from(&self.lines.scheduler);
        self.acts.clear();
        self.ready.clear();
        self.standing.clone_from(&self.lines.standing);
        self.alive.clone_from(&self.lines.alive);
    }

    #[inline]
    fn line_of(&self, who: u32) -> Option<u32> {
        self.lines.line_of.get(who as usize).copied()
    }
}

impl Clock for LineClock<'_> {
    #[inline]
    fn next(&mut self, rolls: &mut SeededRolls, acting: &mut Vec<u32>) -> Result<Option<Tick>, SimError> {
        acting.clear();
        let standing = &self.standing;
        self.ready
            .retain(|&(l, _)| standing.get(l as usize).is_some_and(|&s| s > 0));
        loop {
            let mut prerolled = Prerolled {
                rolls: &mut *rolls,
                ready: &self.ready,
                next: 0,
            };
            let step = self.scheduler.next(&mut prerolled, &mut self.acts);
            let used = prerolled.next;
            self.ready.drain(..used);
            match step.map_err(SimError::rules)? {
                None => return Ok(None),
                Some(Step::NewRound { .. }) => return Ok(Some(Tick::NewRound)),
                Some(Step::Moment(m)) => {
                    for a in &self.acts {
                        if let Act::Action { actor, .. } = a {
                            let alive = &self.alive;
                            acting.extend(
                                self.lines
                                    .members(actor.0)
                                    .iter()
                                    .copied()
                                    .filter(|&f| alive.get(f as usize).copied().unwrap_or(false)),
                            );
                        }
                    }
                    // Tick System turns, timers: nothing lands.
                    if acting.is_empty() {
                        continue;
                    }
                    return Ok(Some(Tick::Moment {
                        tick: m.tick,
                        round: m.round,
                        display: m.display,
                        pass: m.pass,
                    }));
                }
            }
        }
    }

    fn remove(&mut self, who: u32) {
        let Some(line) = self.line_of(who) else {
            return;
        };
        let Some(up) = self.alive.get_mut(who as usize) else {
            return;
        };
        if !*up {
            return;
        }
        *up = false;
        if let Some(s) = self.standing.get_mut(line as usize) {
            *s = s.saturating_sub(1);
            if *s == 0 {
                // The last member fell: the line's action goes with it.
                let _ = self.scheduler.remove(ActorId(line));
            }
        }
    }

    /// The declaration decides (`Scheduler::disrupt`), as at the table; a
    /// group's shared action is never disrupted by a hit on one member.
    fn disrupt(&mut self, who: u32, _disruptible: bool) -> bool {
        match self.line_of(who) {
            Some(line) if self.lines.members(line).len() == 1 => self.scheduler.disrupt(ActorId(line)).unwrap_or(false),
            _ => false,
        }
    }

    fn ready_roll(&mut self, who: u32, roll: i32) {
        if !self.lines.continuous {
            return;
        }
        if let Some(line) = self.line_of(who)
            && !self.ready.iter().any(|&(l, _)| l == line)
        {
            self.ready.push((line, roll));
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
