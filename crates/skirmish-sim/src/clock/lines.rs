//! A continuation's clock: an encounter's [`Scheduler`] handed over by the
//! live tracker, its lines (one combatant, or a group sharing one action)
//! expanded into the battle's fighters, for odds from here.

use skirmish_core::dice::SeededRolls;
use skirmish_core::timing::tick_system::FreeActionResult;
use skirmish_core::timing::{Act, ActorId, Scheduler, TimingSystem};

use super::scheduler::next_landing;
use super::{Clock, Tick};
use crate::error::SimError;

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
/// [`Lines`]). Like [`SchedulerClock`](super::SchedulerClock), fighters whose line landed do "the
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
        let (lines, alive) = (self.lines, &self.alive);
        next_landing(
            &mut self.scheduler,
            &mut self.acts,
            &mut self.ready,
            rolls,
            acting,
            |actor, acting| {
                acting.extend(
                    lines
                        .members(actor.0)
                        .iter()
                        .copied()
                        .filter(|&f| alive.get(f as usize).copied().unwrap_or(false)),
                )
            },
        )
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

    fn defense_bonus(&self, who: u32) -> i32 {
        self.line_of(who)
            .map_or(0, |line| self.scheduler.defense_bonus(ActorId(line)))
    }

    /// A member's defense is its line's, as at the table.
    fn defend(&mut self, who: u32) -> Result<Option<FreeActionResult>, SimError> {
        match self.line_of(who) {
            Some(line) => super::scheduler::defend(&mut self.scheduler, ActorId(line)),
            None => Ok(None),
        }
    }

    fn answer(&mut self, who: u32) -> Result<bool, SimError> {
        match self.line_of(who) {
            Some(line) => super::scheduler::answer(&mut self.scheduler, ActorId(line)),
            None => Ok(false),
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
