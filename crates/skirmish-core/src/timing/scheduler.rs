//! The scheduler: one state machine over the event queue for all six
//! timing systems. The rules themselves (formulas, policies, options) live
//! in the system modules; this file applies them in order.

use serde::{Deserialize, Serialize};

use crate::dice::{Dice, RollSource, ScriptedRolls};
use crate::error::{Error, Result};

use super::graduated::ready_time;
use super::queue::{EventId, EventQueue};
use super::simple::{actions_in_round, initiative};
use super::tick_system::FreeActionResult;
use super::{
    Act, ActionKind, ActorId, ActorTiming, Declaration, GmTiming, InitiativeEntry, Moment, PastEnd, PendingAct, Step,
    TimingSystem,
};

/// Largest Time Taken, extra preparation, interval or action ticks accepted.
const MAX_TICKS: u32 = 1_000_000;
/// Largest speed bonus, initiative bonus, REF or Combat Sense (either sign).
const MAX_BONUS: i32 = 1_000_000;
/// Most actions one actor may have in one round or phase.
const MAX_ACTIONS: u32 = 1_000;
/// Most actors in one scheduler.
const MAX_ACTORS: usize = 10_000_000;

/// What sits on the queue.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Ev {
    kind: EvKind,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum EvKind {
    /// An action lands. `end_pass` > 0: Graduated "end of round" pass.
    Action {
        who: u32,
        round: u32,
        nth: u32,
        end_pass: u32,
    },
    /// Tick System: a turn begins.
    Turn { who: u32, round: u32 },
    /// A caller's timer.
    Timer { id: u32 },
}

impl EvKind {
    /// Action `nth` of `who`'s chain in `round` (not an end-of-round pass).
    const fn action(who: u32, round: u32, nth: u32) -> EvKind {
        EvKind::Action {
            who,
            round,
            nth,
            end_pass: 0,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Presence {
    /// Added after its system's first initiative; joins at the next chance.
    Joining,
    /// In the fight.
    Active,
    /// Down or removed: never acts again.
    Out,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct ActorState {
    timing: ActorTiming,
    decl: Declaration,
    presence: Presence,
    /// Pending events of this actor, in scheduling order.
    pending: Vec<EventId>,
    /// Landed (or turn began) and the follow-up is not yet declared.
    awaiting: bool,
    /// Actions landed in the current chain (round, or the battle in
    /// Continuous); the next is `nth + 1`.
    nth: u32,
    /// Actions allowed this round (Simple/Graduated/Blocks).
    allowed: u32,
    /// The round the current action chain belongs to (Graduated "spill").
    chain_round: u32,
    /// Rounds of use of the current declaration (fractional RoF).
    rounds_of_use: u32,
    /// This round's initiative (score, total or action count).
    initiative: i64,
    /// Initiative entered for the next roll.
    entry: Option<InitiativeEntry>,
    /// Tick System: prepared (+4 defense, first defense free).
    prepared: bool,
    /// Tick System: the free first defense while prepared was used.
    free_defense_used: bool,
    /// Tick System: the action in progress (its completion event).
    in_progress: Option<EventId>,
    /// Tick System: kind of the action in progress.
    in_progress_kind: Option<ActionKind>,
}

/// The timing rules of one battle: actors, the event queue, the round.
///
/// See the [module docs](super) for how to drive it. Every method that
/// rolls takes its dice from the caller's [`RollSource`]; on an error the
/// scheduler is unchanged (the roll source may have been consulted).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Scheduler {
    system: TimingSystem,
    queue: EventQueue<Ev>,
    actors: Vec<ActorState>,
    /// Current round (phase, exchange); 0 before the first.
    round: u32,
    /// Absolute tick before the round's first tick.
    round_base: u64,
    /// Simple Rounds: ticks per pass (the round's highest initiative).
    /// Graduated "end of round": ticks per end pass. Tick System: the
    /// round's length. Action Blocks: the number of blocks.
    span: u64,
    /// Pending actor events (not timers).
    actor_events: usize,
    /// Moments handed out in the current round.
    moments_in_round: u32,
    /// The last moment handed out.
    last: Option<Moment>,
    /// Actors waiting for a follow-up declaration, in landing order.
    awaiting: Vec<u32>,
    /// Continuous: actors added during the battle, to roll initiative for.
    joining: Vec<u32>,
    #[serde(skip)]
    popped: Vec<(EventId, Ev)>,
    #[serde(skip)]
    plans: Vec<(u32, Declaration, Plan, i64)>,
}

fn check_range(field: &str, value: i64, min: i64, max: i64) -> Result<()> {
    if (min..=max).contains(&value) {
        Ok(())
    } else {
        Err(Error::out_of_range(field, value, min, max))
    }
}

impl Declaration {
    /// Checks the numbers against the scheduler's limits (Time Taken and
    /// ticks up to 1,000,000; bonuses within ±1,000,000; at most 1,000
    /// actions a round; action ticks at least 1).
    pub fn validate(&self) -> Result<()> {
        check_range("declaration.time_taken", self.time_taken.into(), 0, MAX_TICKS.into())?;
        check_range(
            "declaration.extra_preparation",
            self.extra_preparation.into(),
            0,
            MAX_TICKS.into(),
        )?;
        check_range(
            "declaration.speed_bonus",
            self.speed_bonus.into(),
            (-MAX_BONUS).into(),
            MAX_BONUS.into(),
        )?;
        check_range(
            "declaration.extra_attacks",
            self.extra_attacks.into(),
            0,
            MAX_ACTIONS.into(),
        )?;
        check_range(
            "declaration.rate_of_fire.shots",
            self.rate_of_fire.shots().into(),
            1,
            MAX_ACTIONS.into(),
        )?;
        check_range(
            "declaration.rate_of_fire.rounds",
            self.rate_of_fire.rounds().into(),
            1,
            MAX_ACTIONS.into(),
        )?;
        if let Some(t) = self.action_ticks {
            check_range("declaration.action_ticks", t.into(), 1, MAX_TICKS.into())?;
        }
        if let Some(GmTiming::ReadyTime(t)) = self.gm {
            check_range("declaration.gm.ready_time", t.into(), 1, MAX_TICKS.into())?;
        }
        Ok(())
    }
}

impl ActorTiming {
    /// Checks the numbers against the scheduler's limits.
    pub fn validate(&self) -> Result<()> {
        check_range(
            "timing.initiative_bonus",
            self.initiative_bonus.into(),
            (-MAX_BONUS).into(),
            MAX_BONUS.into(),
        )?;
        check_range("timing.interval", self.interval.into(), 0, MAX_TICKS.into())?;
        check_range("timing.reflexes", self.reflexes.into(), -1000, 1000)?;
        check_range("timing.combat_sense", self.combat_sense.into(), -1000, 1000)?;
        Ok(())
    }
}

impl Scheduler {
    /// A scheduler for `system` with no actors. The options are not checked
    /// here; [`try_new`](Self::try_new) checks them.
    pub fn new(system: TimingSystem) -> Scheduler {
        Scheduler {
            system,
            queue: EventQueue::new(),
            actors: Vec::new(),
            round: 0,
            round_base: 0,
            span: 0,
            actor_events: 0,
            moments_in_round: 0,
            last: None,
            awaiting: Vec::new(),
            joining: Vec::new(),
            popped: Vec::new(),
            plans: Vec::new(),
        }
    }

    /// A scheduler for `system`, after checking its options.
    pub fn try_new(system: TimingSystem) -> Result<Scheduler> {
        system.validate()?;
        Ok(Scheduler::new(system))
    }

    /// The timing system.
    pub fn system(&self) -> &TimingSystem {
        &self.system
    }

    /// The current round (phase, exchange); 0 before the first.
    pub fn round(&self) -> u32 {
        self.round
    }

    /// The last moment handed out by [`next`](Self::next).
    pub fn last_moment(&self) -> Option<Moment> {
        self.last
    }

    /// The absolute tick of the last moment (0 before the first).
    pub fn now(&self) -> u64 {
        self.queue.now()
    }

    /// The tick declarations count from: the last moment, or the start of
    /// the round if a new round has begun since.
    fn current_tick(&self) -> u64 {
        self.queue.now().max(self.round_base)
    }

    /// Number of actors ever added.
    pub fn len(&self) -> usize {
        self.actors.len()
    }

    /// Whether no actor was ever added.
    pub fn is_empty(&self) -> bool {
        self.actors.is_empty()
    }

    fn actor(&self, who: ActorId) -> Result<&ActorState> {
        self.actors
            .get(who.index())
            .ok_or_else(|| Error::invalid("actor", format!("no actor {who} (there are {})", self.actors.len())))
    }

    fn active(&self, who: ActorId) -> Result<&ActorState> {
        let a = self.actor(who)?;
        if a.presence == Presence::Out {
            return Err(Error::invalid("actor", format!("actor {who} is out of the fight")));
        }
        Ok(a)
    }

    /// Whether the actor is still in the fight (not removed).
    pub fn is_in(&self, who: ActorId) -> bool {
        self.actors
            .get(who.index())
            .is_some_and(|a| a.presence != Presence::Out)
    }

    /// The actor's current declaration.
    pub fn declaration(&self, who: ActorId) -> Result<Declaration> {
        Ok(self.actor(who)?.decl)
    }

    /// The actor's timing traits.
    pub fn actor_timing(&self, who: ActorId) -> Result<ActorTiming> {
        Ok(self.actor(who)?.timing)
    }

    /// The actor's initiative this round (score, total or action count).
    pub fn initiative(&self, who: ActorId) -> Result<i64> {
        Ok(self.actor(who)?.initiative)
    }

    /// Whether the actor has landed an action (or begun a Tick System turn)
    /// and has not yet declared what follows.
    pub fn is_awaiting(&self, who: ActorId) -> bool {
        self.actors.get(who.index()).is_some_and(|a| a.awaiting)
    }

    /// Tick System: whether the actor is prepared.
    pub fn is_prepared(&self, who: ActorId) -> bool {
        self.actors.get(who.index()).is_some_and(|a| a.prepared)
    }

    /// Tick System: the bonus to the actor's defensive rolls (+4 while
    /// prepared); 0 in other systems.
    pub fn defense_bonus(&self, who: ActorId) -> i32 {
        match (&self.system, self.is_prepared(who)) {
            (TimingSystem::TickSystem(c), true) => c.prepare_defense_bonus,
            _ => 0,
        }
    }

    // -----------------------------------------------------------------
    // Queue bookkeeping

    fn push(&mut self, tick: u64, kind: EvKind) -> Result<EventId> {
        let id = self.queue.schedule(tick, Ev { kind })?;
        match kind {
            EvKind::Action { who, .. } | EvKind::Turn { who, .. } => {
                self.actors[who as usize].pending.push(id);
                self.actor_events += 1;
            }
            EvKind::Timer { .. } => {}
        }
        Ok(id)
    }

    fn drop_event(&mut self, id: EventId) -> Option<(u64, Ev)> {
        let (tick, ev) = self.queue.cancel(id)?;
        if let EvKind::Action { who, .. } | EvKind::Turn { who, .. } = ev.kind {
            let a = &mut self.actors[who as usize];
            a.pending.retain(|p| *p != id);
            if a.in_progress == Some(id) {
                a.in_progress = None;
                a.in_progress_kind = None;
            }
            self.actor_events -= 1;
        }
        Some((tick, ev))
    }

    /// The actor's earliest pending event of the kind `pick` accepts (the
    /// first scheduled among equal ticks).
    fn next_event(&self, who: u32, pick: impl Fn(&EvKind) -> bool) -> Option<(u64, EventId)> {
        self.actors[who as usize]
            .pending
            .iter()
            .filter_map(|&id| {
                let ev = self.queue.get(id)?;
                pick(&ev.kind).then(|| (self.queue.tick_of(id).unwrap_or(u64::MAX), id))
            })
            .min_by_key(|&(t, _)| t)
    }

    /// The actor's next pending action event (not a turn), if any.
    fn next_action_event(&self, who: u32) -> Option<(u64, EventId)> {
        self.next_event(who, |k| matches!(k, EvKind::Action { .. }))
    }

    /// The actor's next Tick System turn, if any.
    fn next_turn_event(&self, who: u32) -> Option<(u64, EventId)> {
        self.next_event(who, |k| matches!(k, EvKind::Turn { .. }))
    }

    // -----------------------------------------------------------------
    // Actors

    /// Adds an actor with its timing traits and first declaration.
    ///
    /// Before the first initiative it simply takes part. Later it joins at
    /// the next chance its system gives: the next round (phase, exchange),
    /// or in Continuous timing at the current tick + its initiative, rolled
    /// at the next [`next`](Self::next) unless entered with
    /// [`set_initiative`](Self::set_initiative).
    pub fn add(&mut self, timing: ActorTiming, declaration: Declaration) -> Result<ActorId> {
        timing.validate()?;
        declaration.validate()?;
        if self.actors.len() >= MAX_ACTORS {
            return Err(Error::out_of_range(
                "actors",
                self.actors.len() as i64 + 1,
                1,
                MAX_ACTORS as i64,
            ));
        }
        let joining = self.round > 0 && matches!(self.system, TimingSystem::Continuous(_));
        if joining {
            self.joining.push(self.actors.len() as u32);
        }
        self.actors.push(ActorState {
            timing,
            decl: declaration,
            presence: if joining { Presence::Joining } else { Presence::Active },
            pending: Vec::new(),
            awaiting: false,
            nth: 0,
            allowed: 0,
            chain_round: 0,
            rounds_of_use: 0,
            initiative: 0,
            entry: None,
            prepared: false,
            free_defense_used: false,
            in_progress: None,
            in_progress_kind: None,
        });
        Ok(ActorId((self.actors.len() - 1) as u32))
    }

    /// Takes the actor out of the fight (down, fled, removed): its pending
    /// actions are cancelled and it never acts again. Removing an actor
    /// that is already out is an error.
    pub fn remove(&mut self, who: ActorId) -> Result<()> {
        self.active(who)?;
        let pending = std::mem::take(&mut self.actors[who.index()].pending);
        for id in pending {
            self.drop_event(id);
        }
        let a = &mut self.actors[who.index()];
        a.presence = Presence::Out;
        a.awaiting = false;
        a.in_progress = None;
        self.awaiting.retain(|&w| w != who.0);
        self.joining.retain(|&w| w != who.0);
        Ok(())
    }

    /// Sets the actor's initiative instead of rolling it.
    ///
    /// Right after a [`Step::NewRound`] (before any moment of the round) it
    /// corrects this round: the round is laid out again from everyone's
    /// initiative, with no new rolls. Otherwise it is kept for the actor's
    /// next initiative (the next round, or its joining).
    pub fn set_initiative(&mut self, who: ActorId, entry: InitiativeEntry) -> Result<()> {
        self.active(who)?;
        let value = self.initiative_from_entry(who.0, entry)?;
        let correct_now = self.round > 0
            && self.moments_in_round == 0
            && self.actors[who.index()].presence == Presence::Active
            && !(matches!(self.system, TimingSystem::Continuous(_)) && self.round > 1);
        if correct_now {
            let old = self.actors[who.index()].initiative;
            self.actors[who.index()].initiative = value;
            if let Err(e) = self.lay_out_round() {
                self.actors[who.index()].initiative = old;
                let _ = self.lay_out_round();
                return Err(e);
            }
        } else {
            self.actors[who.index()].entry = Some(entry);
        }
        Ok(())
    }

    /// The value an entry stands for (checked).
    fn initiative_from_entry(&self, who: u32, entry: InitiativeEntry) -> Result<i64> {
        let a = &self.actors[who as usize];
        match (&self.system, entry) {
            (TimingSystem::Simultaneous, _) => Ok(0),
            (s, InitiativeEntry::Roll(r)) if s.relativity_initiative() => initiative(r, &a.decl),
            (s, InitiativeEntry::Total(t)) if s.relativity_initiative() => {
                check_range("initiative.total", t, 1, MAX_TICKS.into())?;
                Ok(t)
            }
            (TimingSystem::TickSystem(c), InitiativeEntry::Roll(r)) => {
                check_die(c.initiative_die, r)?;
                Ok(i64::from(r) + i64::from(a.timing.initiative_bonus))
            }
            (TimingSystem::TickSystem(_), InitiativeEntry::Total(t)) => {
                check_range("initiative.total", t, -i64::from(MAX_BONUS), 2 * i64::from(MAX_BONUS))?;
                Ok(t)
            }
            (TimingSystem::ActionBlocks(c), InitiativeEntry::Roll(r)) => {
                check_die(c.die, r)?;
                Ok(c.actions(a.timing.reflexes, a.timing.combat_sense, r)
                    .min(MAX_ACTIONS)
                    .into())
            }
            (TimingSystem::ActionBlocks(_), InitiativeEntry::Total(t)) => {
                check_range("initiative.actions", t, 1, MAX_ACTIONS.into())?;
                Ok(t)
            }
            _ => Err(Error::invalid(
                "initiative",
                "this timing system has no such initiative",
            )),
        }
    }

    /// Rolls (or takes the entry of) the actor's initiative.
    fn roll_initiative<R: RollSource + ?Sized>(&self, who: u32, rolls: &mut R) -> Result<i64> {
        let a = &self.actors[who as usize];
        if let Some(entry) = a.entry {
            return self.initiative_from_entry(who, entry);
        }
        let roll = match &self.system {
            TimingSystem::Simultaneous => return Ok(0),
            s if s.relativity_initiative() => rolls.roll(Dice::FOUR_DF)?,
            TimingSystem::TickSystem(c) => rolls.roll(c.initiative_die)?,
            TimingSystem::ActionBlocks(c) => rolls.roll(c.die)?,
            _ => return Ok(0),
        };
        self.initiative_from_entry(who, InitiativeEntry::Roll(roll))
    }

    // -----------------------------------------------------------------
    // Rounds

    /// Whether the current round is over (or none has begun).
    fn round_is_over(&self) -> bool {
        if self.round == 0 {
            return true;
        }
        if !self.awaiting.is_empty() {
            return false;
        }
        match &self.system {
            TimingSystem::Continuous(_) => false,
            TimingSystem::GraduatedRounds(c) if c.past_end == PastEnd::Spill => {
                let end = self.round_base + u64::from(c.ticks_per_round);
                self.actor_events == 0 || self.queue.peek_tick().is_some_and(|t| t > end)
            }
            _ => self.actor_events == 0,
        }
    }

    /// Nominal length of the current round in ticks.
    fn round_length(&self) -> u64 {
        match &self.system {
            TimingSystem::Simultaneous => 1,
            TimingSystem::GraduatedRounds(c) => u64::from(c.ticks_per_round),
            _ => self.span,
        }
    }

    /// Begins the next round: rolls initiative for everyone (entries
    /// first), lays the round out. Atomic: all rolls happen before any change.
    fn start_round<R: RollSource + ?Sized>(&mut self, rolls: &mut R) -> Result<()> {
        let continuous = matches!(self.system, TimingSystem::Continuous(_));
        if continuous && self.round > 0 {
            return Ok(());
        }
        let mut values = Vec::with_capacity(self.actors.len());
        for (i, a) in self.actors.iter().enumerate() {
            if a.presence == Presence::Active {
                values.push((i, self.roll_initiative(i as u32, rolls)?));
            }
        }
        let base = match &self.system {
            TimingSystem::GraduatedRounds(c) if c.past_end == PastEnd::Spill => {
                if self.round == 0 {
                    0
                } else {
                    self.round_base + u64::from(c.ticks_per_round)
                }
            }
            _ if self.round == 0 => 0,
            _ => self.queue.now().max(self.round_base + self.round_length()),
        };
        self.round += 1;
        self.round_base = base;
        self.moments_in_round = 0;
        for (i, v) in values {
            let a = &mut self.actors[i];
            a.initiative = v;
            a.entry = None;
            a.rounds_of_use = a.rounds_of_use.saturating_add(1);
            a.nth = 0;
            a.chain_round = self.round;
            a.allowed = match &self.system {
                TimingSystem::SimpleRounds | TimingSystem::GraduatedRounds(_) => {
                    actions_in_round(&a.decl, a.rounds_of_use).min(MAX_ACTIONS)
                }
                TimingSystem::ActionBlocks(_) => v as u32,
                _ => 1,
            };
        }
        self.lay_out_round()
    }

    /// Schedules the current round from everyone's stored initiative,
    /// replacing whatever of it was scheduled. No rolls.
    fn lay_out_round(&mut self) -> Result<()> {
        // Drop the round's actor events (nothing of it has happened yet);
        // actions spilled from the previous round stay.
        let round = self.round;
        let ids: Vec<EventId> = self
            .actors
            .iter()
            .flat_map(|a| a.pending.iter().copied())
            .filter(|&id| {
                matches!(self.queue.get(id), Some(Ev { kind: EvKind::Action { round: r, .. } | EvKind::Turn { round: r, .. } }) if *r == round)
            })
            .collect();
        for id in ids {
            self.drop_event(id);
        }
        let base = self.round_base;
        let active: Vec<u32> = (0..self.actors.len() as u32)
            .filter(|&i| self.actors[i as usize].presence == Presence::Active)
            .collect();
        match self.system.clone() {
            TimingSystem::Simultaneous => {
                for &w in &active {
                    self.push(base + 1, EvKind::action(w, round, 1))?;
                }
            }
            TimingSystem::SimpleRounds => {
                let acting: Vec<u32> = active
                    .iter()
                    .copied()
                    .filter(|&w| self.actors[w as usize].allowed > 0)
                    .collect();
                let span = acting
                    .iter()
                    .map(|&w| self.actors[w as usize].initiative as u64)
                    .max()
                    .unwrap_or(1);
                self.span = span;
                let passes = acting
                    .iter()
                    .map(|&w| self.actors[w as usize].allowed)
                    .max()
                    .unwrap_or(0);
                for p in 1..=passes {
                    for &w in &acting {
                        let a = &self.actors[w as usize];
                        if a.allowed >= p {
                            let tick = base + u64::from(p - 1) * span + a.initiative as u64;
                            self.push(tick, EvKind::action(w, round, p))?;
                        }
                    }
                }
            }
            TimingSystem::GraduatedRounds(c) => {
                let acting: Vec<u32> = active
                    .iter()
                    .copied()
                    .filter(|&w| self.actors[w as usize].allowed > 0)
                    .collect();
                self.span = acting
                    .iter()
                    .map(|&w| self.actors[w as usize].initiative as u64)
                    .max()
                    .unwrap_or(1);
                let tpr = u64::from(c.ticks_per_round);
                for &w in &acting {
                    let init = self.actors[w as usize].initiative as u64;
                    if init <= tpr || matches!(c.past_end, PastEnd::Extend | PastEnd::Spill) {
                        self.push(base + init, EvKind::action(w, round, 1))?;
                    } else if c.past_end == PastEnd::EndOfRound {
                        self.schedule_end_passes(w, 0)?;
                    }
                }
            }
            TimingSystem::Continuous(_) => {
                for &w in &active {
                    let init = self.actors[w as usize].initiative as u64;
                    self.push(base + init, EvKind::action(w, round, 1))?;
                }
            }
            TimingSystem::TickSystem(_) => {
                let h = active
                    .iter()
                    .map(|&w| self.actors[w as usize].initiative)
                    .max()
                    .unwrap_or(1)
                    .max(1);
                self.span = h as u64;
                for &w in &active {
                    let d = self.actors[w as usize].initiative.clamp(1, h);
                    self.push(base + (h - d) as u64 + 1, EvKind::Turn { who: w, round })?;
                }
            }
            TimingSystem::ActionBlocks(_) => {
                let n = active
                    .iter()
                    .map(|&w| self.actors[w as usize].allowed)
                    .max()
                    .unwrap_or(0);
                self.span = u64::from(n);
                let mut by_ref = active.clone();
                by_ref.sort_by_key(|&w| std::cmp::Reverse(self.actors[w as usize].timing.reflexes));
                for block in (1..=n).rev() {
                    for &w in &by_ref {
                        let allowed = self.actors[w as usize].allowed;
                        if allowed >= block {
                            let tick = base + u64::from(n - block) + 1;
                            self.push(tick, EvKind::action(w, round, allowed - block + 1))?;
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// Graduated "end of round": actions `done + 1..=allowed` of `who` go to
    /// end passes after the round's last tick, in initiative order.
    fn schedule_end_passes(&mut self, who: u32, done: u32) -> Result<()> {
        let (allowed, init, round) = {
            let a = &self.actors[who as usize];
            (a.allowed, a.initiative as u64, self.round)
        };
        let TimingSystem::GraduatedRounds(c) = self.system else {
            return Ok(());
        };
        let end = self.round_base + u64::from(c.ticks_per_round);
        let span = self.span.max(1);
        for (k, nth) in (done + 1..=allowed).enumerate() {
            let tick = end + k as u64 * span + init;
            self.push(
                tick,
                EvKind::Action {
                    who,
                    round,
                    nth,
                    end_pass: k as u32 + 1,
                },
            )?;
        }
        Ok(())
    }

    // -----------------------------------------------------------------
    // The main loop

    /// Advances to what happens next: the next moment (its acts appended to
    /// `acts`, cleared first, in the order they were scheduled), a new
    /// round, or `None` when nothing can ever happen again.
    ///
    /// Actors who landed at the previous moment and have not declared a
    /// follow-up do "the same again" first (in the order they landed),
    /// rolling what that needs; in Continuous timing, actors who joined late
    /// roll their initiative here.
    pub fn next<R: RollSource + ?Sized>(&mut self, rolls: &mut R, acts: &mut Vec<Act>) -> Result<Option<Step>> {
        acts.clear();
        self.follow_up(rolls)?;
        loop {
            if self.round_is_over() {
                let anyone = self.actors.iter().any(|a| a.presence == Presence::Active);
                if anyone && (self.round == 0 || !matches!(self.system, TimingSystem::Continuous(_))) {
                    self.start_round(rolls)?;
                    return Ok(Some(Step::NewRound { round: self.round }));
                }
            }
            let mut popped = std::mem::take(&mut self.popped);
            let Some(tick) = self.queue.pop_tick(&mut popped) else {
                self.popped = popped;
                return Ok(None);
            };
            let mut first: Option<EvKind> = None;
            for &(id, ev) in &popped {
                match ev.kind {
                    EvKind::Timer { id } => acts.push(Act::Timer { id }),
                    EvKind::Action { who, nth, round, .. } => {
                        self.actor_events -= 1;
                        let current_round = self.round;
                        let a = &mut self.actors[who as usize];
                        a.pending.retain(|p| *p != id);
                        // A Graduated action spilled from an older round ends
                        // its chain there (its later actions would land later
                        // still) and leaves this round's count alone.
                        let spilled = round < current_round && matches!(self.system, TimingSystem::GraduatedRounds(_));
                        if !spilled {
                            a.nth = nth;
                        }
                        if a.in_progress == Some(id) {
                            a.in_progress = None;
                            a.in_progress_kind = None;
                        }
                        let chains = match &self.system {
                            TimingSystem::Continuous(_) => true,
                            TimingSystem::GraduatedRounds(_) => {
                                !spilled && nth < a.allowed && matches!(ev.kind, EvKind::Action { end_pass: 0, .. })
                            }
                            _ => false,
                        };
                        if chains {
                            a.awaiting = true;
                            self.awaiting.push(who);
                        }
                        acts.push(Act::Action {
                            actor: ActorId(who),
                            nth,
                        });
                        first.get_or_insert(ev.kind);
                    }
                    EvKind::Turn { who, .. } => {
                        self.actor_events -= 1;
                        let a = &mut self.actors[who as usize];
                        a.pending.retain(|p| *p != id);
                        a.awaiting = true;
                        self.awaiting.push(who);
                        acts.push(Act::Turn { actor: ActorId(who) });
                        first.get_or_insert(ev.kind);
                    }
                }
            }
            popped.clear();
            self.popped = popped;
            if acts.is_empty() {
                continue;
            }
            let moment = self.moment_at(tick, first);
            if first.is_some() {
                self.moments_in_round += 1;
            }
            self.last = Some(moment);
            return Ok(Some(Step::Moment(moment)));
        }
    }

    /// "The same again" for everyone still awaiting a declaration, and
    /// Continuous late joiners' initiative. All rolls first, then changes.
    fn follow_up<R: RollSource + ?Sized>(&mut self, rolls: &mut R) -> Result<()> {
        if self.awaiting.is_empty() && self.joining.is_empty() {
            return Ok(());
        }
        let mut plans = std::mem::take(&mut self.plans);
        plans.clear();
        let mut planned = || -> Result<()> {
            for &w in &self.awaiting {
                let decl = self.actors[w as usize].decl.repeated();
                plans.push((w, decl, self.plan(w, &decl, rolls)?, 0));
            }
            for &w in &self.joining {
                let init = self.roll_initiative(w, rolls)?;
                plans.push((w, self.actors[w as usize].decl, Plan::Join, init));
            }
            Ok(())
        };
        if let Err(e) = planned() {
            plans.clear();
            self.plans = plans;
            return Err(e);
        }
        self.awaiting.clear();
        self.joining.clear();
        let now = self.queue.now();
        let mut result = Ok(());
        for &(w, decl, plan, init) in &plans {
            let r = if let Plan::Join = plan {
                let a = &mut self.actors[w as usize];
                a.presence = Presence::Active;
                a.initiative = init;
                a.entry = None;
                a.chain_round = self.round;
                self.push(now + init as u64, EvKind::action(w, self.round, 1))
                    .map(|_| ())
            } else {
                self.apply_plan(w, decl, plan)
            };
            if r.is_err() {
                result = r;
                break;
            }
        }
        plans.clear();
        self.plans = plans;
        result
    }

    /// The absolute tick at which a follow-up of `decl` lands, from now.
    fn follow_up_tick<R: RollSource + ?Sized>(&self, decl: &Declaration, rolls: &mut R) -> Result<u64> {
        let now = self.current_tick();
        match decl.gm {
            Some(GmTiming::ReadyTime(t)) => Ok(now + u64::from(t)),
            Some(GmTiming::LandingTick(t)) => {
                if t <= now {
                    return Err(Error::invalid(
                        "declaration.gm.landing_tick",
                        format!("tick {t} is not after the current tick {now}"),
                    ));
                }
                Ok(t)
            }
            None => {
                let roll = rolls.roll(Dice::TWO_DF)?;
                Ok(now + ready_time(roll, decl)? as u64)
            }
        }
    }

    /// Works out (with rolls) what a declaration for an awaiting actor does.
    fn plan<R: RollSource + ?Sized>(&self, who: u32, decl: &Declaration, rolls: &mut R) -> Result<Plan> {
        let a = &self.actors[who as usize];
        Ok(match &self.system {
            TimingSystem::Continuous(_) => Plan::At(self.follow_up_tick(decl, rolls)?),
            TimingSystem::GraduatedRounds(c) => {
                if a.nth >= a.allowed {
                    Plan::Nothing
                } else {
                    let tick = self.follow_up_tick(decl, rolls)?;
                    let base = self.chain_base(a.chain_round);
                    let position = tick.saturating_sub(base);
                    if position <= u64::from(c.ticks_per_round) {
                        Plan::At(tick)
                    } else {
                        match c.past_end {
                            PastEnd::Extend | PastEnd::Spill => Plan::At(tick),
                            PastEnd::EndOfRound => Plan::EndPasses,
                            PastEnd::Lose => Plan::Nothing,
                        }
                    }
                }
            }
            TimingSystem::TickSystem(c) => {
                if decl.kind == ActionKind::Prepare {
                    Plan::Prepare
                } else {
                    let mut ticks = decl.action_ticks.unwrap_or(c.action_ticks);
                    if matches!(decl.kind, ActionKind::RangedAttack { new_target: true }) {
                        ticks = ticks.saturating_add(c.acquire_ticks);
                    }
                    Plan::TickAction {
                        ticks,
                        interval: a.timing.interval,
                    }
                }
            }
            _ => Plan::Nothing,
        })
    }

    fn chain_base(&self, chain_round: u32) -> u64 {
        match &self.system {
            TimingSystem::GraduatedRounds(c) if c.past_end == PastEnd::Spill => {
                u64::from(chain_round.saturating_sub(1)) * u64::from(c.ticks_per_round)
            }
            _ => self.round_base,
        }
    }

    fn apply_plan(&mut self, who: u32, decl: Declaration, plan: Plan) -> Result<()> {
        let round = self.round;
        let (nth, chain_round) = {
            let a = &mut self.actors[who as usize];
            if a.decl.rate_of_fire != decl.rate_of_fire {
                a.rounds_of_use = 0;
            }
            a.decl = decl.repeated();
            a.awaiting = false;
            (a.nth, a.chain_round)
        };
        match plan {
            Plan::Nothing | Plan::Join => {}
            Plan::At(tick) => {
                self.push(tick, EvKind::action(who, chain_round, nth + 1))?;
            }
            Plan::EndPasses => self.schedule_end_passes(who, nth)?,
            Plan::Prepare => {
                let a = &mut self.actors[who as usize];
                a.prepared = true;
                a.free_defense_used = false;
            }
            Plan::TickAction { ticks, interval } => {
                let now = self.current_tick();
                let id = self.push(
                    now + u64::from(ticks),
                    EvKind::Action {
                        who,
                        round,
                        nth: nth + 1,
                        end_pass: 0,
                    },
                )?;
                let a = &mut self.actors[who as usize];
                a.in_progress = Some(id);
                a.in_progress_kind = Some(decl.kind);
                if matches!(decl.kind, ActionKind::Attack | ActionKind::RangedAttack { .. }) {
                    a.prepared = false;
                }
                let next = now + u64::from(ticks) + u64::from(interval);
                if self.countdown(next) >= 1 {
                    self.push(next, EvKind::Turn { who, round })?;
                }
            }
        }
        Ok(())
    }

    /// Tick System: the countdown tick of absolute tick `t` this round.
    fn countdown(&self, t: u64) -> i64 {
        self.span as i64 + self.round_base as i64 + 1 - t as i64
    }

    /// Declares the actor's next action, from now.
    ///
    /// - An actor that just landed (or whose Tick System turn just began)
    ///   declares its follow-up: Continuous and Graduated roll its Ready Time
    ///   (or take the GM's) from the current tick; the Tick System starts the
    ///   action, which lands when done, and books the next turn.
    /// - An actor with an action on the way **changes its mind** (Continuous,
    ///   Graduated): the pending action is cancelled and the new one lands
    ///   Ready Time after the current tick, plus any extra preparation;
    ///   never retroactive.
    /// - Otherwise the declaration is kept for the actor's next action
    ///   (the next round's initiative in Simple Rounds, the next turn in the
    ///   Tick System).
    ///
    /// Returns the absolute tick of the action it scheduled, if any.
    pub fn declare<R: RollSource + ?Sized>(
        &mut self,
        who: ActorId,
        declaration: Declaration,
        rolls: &mut R,
    ) -> Result<Option<u64>> {
        self.active(who)?;
        declaration.validate()?;
        let w = who.0;
        let awaiting = self.actors[who.index()].awaiting;
        let replan = !awaiting
            && matches!(
                self.system,
                TimingSystem::Continuous(_) | TimingSystem::GraduatedRounds(_)
            )
            && self.next_action_event(w).is_some_and(|_| {
                // End-of-round passes are fixed, like Simple Rounds.
                !self.actors[who.index()].pending.iter().any(|&id| {
                    matches!(
                        self.queue.get(id),
                        Some(Ev {
                            kind: EvKind::Action { end_pass: 1.., .. }
                        })
                    )
                })
            });
        if !awaiting && !replan {
            if self.actors[who.index()].presence == Presence::Joining {
                self.actors[who.index()].decl = declaration;
                return Ok(None);
            }
            let a = &mut self.actors[who.index()];
            if a.decl.rate_of_fire != declaration.rate_of_fire {
                a.rounds_of_use = 0;
            }
            a.decl = declaration;
            return Ok(None);
        }
        if replan {
            // Plan first (rolls), then cancel and apply: atomic on error.
            let plan = self.plan(w, &declaration, rolls)?;
            if let Some((_, id)) = self.next_action_event(w) {
                self.drop_event(id);
            }
            self.apply_plan(w, declaration, plan)?;
        } else {
            let plan = self.plan(w, &declaration, rolls)?;
            self.awaiting.retain(|&x| x != w);
            self.apply_plan(w, declaration, plan)?;
        }
        Ok(self.next_event_tick(w))
    }

    fn next_event_tick(&self, who: u32) -> Option<u64> {
        self.actors[who as usize]
            .pending
            .iter()
            .filter_map(|&id| self.queue.tick_of(id))
            .min()
    }

    /// Cancels the actor's next pending action (a spell lost, an action
    /// called off). Returns its absolute tick, or `None` if nothing was
    /// pending.
    ///
    /// Continuous and Graduated: the actor then declares a new action from
    /// the current tick (or does the same again at the next
    /// [`next`](Self::next)). Simple Rounds, Action Blocks, Simultaneous:
    /// that action is lost. Tick System: the action in progress (or the
    /// coming turn) is lost and the actor waits its interval from now.
    pub fn cancel(&mut self, who: ActorId) -> Result<Option<u64>> {
        self.active(who)?;
        let w = who.0;
        if let TimingSystem::TickSystem(_) = self.system {
            return self.tick_cancel(w);
        }
        let Some((tick, id)) = self.next_action_event(w) else {
            return Ok(None);
        };
        self.drop_event(id);
        if matches!(
            self.system,
            TimingSystem::Continuous(_) | TimingSystem::GraduatedRounds(_)
        ) {
            let a = &mut self.actors[who.index()];
            if !a.awaiting {
                a.awaiting = true;
                self.awaiting.push(w);
            }
        }
        Ok(Some(tick))
    }

    /// Cancels the actor's next action only if it is disruptible (a spell)
    /// — the actor was hit before it landed. Returns whether it did.
    pub fn disrupt(&mut self, who: ActorId) -> Result<bool> {
        self.active(who)?;
        if !self.actors[who.index()].decl.disruptible {
            return Ok(false);
        }
        Ok(self.cancel(who)?.is_some())
    }

    fn tick_cancel(&mut self, w: u32) -> Result<Option<u64>> {
        let interval = self.actors[w as usize].timing.interval;
        let cancelled = match self.actors[w as usize].in_progress {
            Some(id) => self.drop_event(id).map(|(t, _)| t),
            None => None,
        };
        if cancelled.is_none() {
            return Ok(None);
        }
        // The next turn: wait out the interval from now.
        if let Some((_, id)) = self.next_turn_event(w) {
            self.drop_event(id);
        }
        let next = self.current_tick() + u64::from(interval);
        if self.countdown(next) >= 1 && next > self.queue.now() {
            self.push(
                next,
                EvKind::Turn {
                    who: w,
                    round: self.round,
                },
            )?;
        }
        Ok(cancelled)
    }

    /// Tick System: the actor takes a free action now (defending, by
    /// default, for the system's free-action ticks). Defending during an
    /// action in progress cancels it (the actor then waits its interval);
    /// a free action that runs into the next turn pushes that turn to the
    /// tick the free action is done on. A prepared actor's first defense is
    /// free.
    pub fn free_action(&mut self, who: ActorId, ticks: Option<u32>, defending: bool) -> Result<FreeActionResult> {
        self.active(who)?;
        let TimingSystem::TickSystem(c) = self.system else {
            return Err(Error::invalid("free_action", "free actions are a Tick System rule"));
        };
        let w = who.0;
        let mut ticks = ticks.unwrap_or(c.free_action_ticks);
        check_range("free_action.ticks", ticks.into(), 0, MAX_TICKS.into())?;
        {
            let a = &mut self.actors[who.index()];
            if defending && a.prepared && !a.free_defense_used {
                a.free_defense_used = true;
                ticks = 0;
            }
        }
        let now = self.current_tick();
        let mut cancelled_action = false;
        if defending && ticks > 0 && self.actors[who.index()].in_progress.is_some() {
            self.tick_cancel(w)?;
            cancelled_action = true;
        }
        let done = now + u64::from(ticks);
        let mut pushed = false;
        if ticks > 0
            && let Some((t, id)) = self.next_turn_event(w)
            && t < done
        {
            self.drop_event(id);
            if self.countdown(done) >= 1 {
                self.push(
                    done,
                    EvKind::Turn {
                        who: w,
                        round: self.round,
                    },
                )?;
            }
            pushed = true;
        }
        Ok(FreeActionResult {
            ticks,
            cancelled_action,
            next_turn: self.next_turn_event(w).map(|(t, _)| self.countdown(t)),
            pushed,
        })
    }

    /// Tick System: something tries to stop the actor during its action.
    /// Only non-combat actions can be interrupted; unless the actor keeps
    /// its concentration (a Resist Concentration Loss roll the caller
    /// makes), the action fails, its ticks are lost and the actor waits its
    /// interval. Returns whether an action was lost.
    pub fn interrupt(&mut self, who: ActorId, concentration_kept: bool) -> Result<bool> {
        self.active(who)?;
        if !matches!(self.system, TimingSystem::TickSystem(_)) {
            return Err(Error::invalid("interrupt", "interrupts are a Tick System rule"));
        }
        let a = &self.actors[who.index()];
        if a.in_progress.is_none() || a.in_progress_kind != Some(ActionKind::NonCombat) || concentration_kept {
            return Ok(false);
        }
        Ok(self.tick_cancel(who.0)?.is_some())
    }

    /// Tick System: a prepared actor takes its held turn now ("you may take
    /// your Turn at your leisure"); it then declares as at any turn. Returns
    /// the act to add to the current moment.
    pub fn take_held_turn(&mut self, who: ActorId) -> Result<Act> {
        self.active(who)?;
        let a = &self.actors[who.index()];
        if !a.prepared || a.awaiting || a.in_progress.is_some() {
            return Err(Error::invalid(
                "actor",
                format!("actor {who} is not holding a prepared turn"),
            ));
        }
        if let Some((_, id)) = self.next_turn_event(who.0) {
            self.drop_event(id);
        }
        self.actors[who.index()].awaiting = true;
        self.awaiting.push(who.0);
        Ok(Act::Turn { actor: who })
    }

    /// Moves the actor's next pending action (or Tick System turn) `ticks`
    /// later: the GM's ruling that something holds it up. In Simple Rounds
    /// the action stays in its pass (it may move up to the round's highest
    /// initiative); Simultaneous and Action Blocks have no ticks to delay
    /// by (Action Blocks hold instead). Returns the new absolute tick.
    pub fn delay(&mut self, who: ActorId, ticks: u32) -> Result<u64> {
        self.active(who)?;
        check_range("delay.ticks", ticks.into(), 1, MAX_TICKS.into())?;
        if matches!(self.system, TimingSystem::Simultaneous | TimingSystem::ActionBlocks(_)) {
            return Err(Error::invalid(
                "delay",
                format!("{} has no ticks to delay by", self.system.name()),
            ));
        }
        let next = self
            .next_action_event(who.0)
            .into_iter()
            .chain(self.next_turn_event(who.0))
            .min_by_key(|&(t, _)| t);
        let Some((tick, id)) = next else {
            return Err(Error::invalid(
                "actor",
                format!("actor {who} has nothing pending to delay"),
            ));
        };
        let new_tick = tick + u64::from(ticks);
        if self.system == TimingSystem::SimpleRounds {
            let span = self.span.max(1);
            let pass_end = self.round_base + (tick - self.round_base - 1) / span * span + span;
            if new_tick > pass_end {
                return Err(Error::out_of_range("delay.ticks", ticks, 1, pass_end - tick));
            }
        }
        let in_progress = self.actors[who.index()].in_progress == Some(id);
        let kind = self.actors[who.index()].in_progress_kind;
        let Some((_, ev)) = self.drop_event(id) else {
            return Err(Error::invalid(
                "actor",
                format!("actor {who} has nothing pending to delay"),
            ));
        };
        let new_id = self.push(new_tick, ev.kind)?;
        if in_progress {
            self.actors[who.index()].in_progress = Some(new_id);
            self.actors[who.index()].in_progress_kind = kind;
        }
        Ok(new_tick)
    }

    // -----------------------------------------------------------------
    // Timers

    /// Sets timer `id` to run out `ticks` ticks after now (at least 1); it
    /// comes out of [`next`](Self::next) as [`Act::Timer`].
    pub fn set_timer(&mut self, id: u32, ticks: u64) -> Result<EventId> {
        if ticks == 0 {
            return Err(Error::out_of_range("timer.ticks", 0, 1, u64::MAX));
        }
        let at = self
            .queue
            .now()
            .checked_add(ticks)
            .ok_or_else(|| Error::overflow("timer.ticks", "beyond the last tick"))?;
        self.push(at, EvKind::Timer { id })
    }

    /// Cancels a timer; returns whether it was pending.
    pub fn cancel_timer(&mut self, timer: EventId) -> bool {
        matches!(
            self.queue.get(timer),
            Some(Ev {
                kind: EvKind::Timer { .. }
            })
        ) && self.drop_event(timer).is_some()
    }

    // -----------------------------------------------------------------
    // Views

    /// How the system labels absolute tick `tick` (see [`Moment`]).
    fn moment_at(&self, tick: u64, ev: Option<EvKind>) -> Moment {
        let rel = tick.saturating_sub(self.round_base);
        let (round, display, pass) = match (&self.system, ev) {
            (TimingSystem::Simultaneous, _) => (self.round, i64::from(self.round), 0),
            (TimingSystem::SimpleRounds, _) => {
                let span = self.span.max(1);
                let r = rel.saturating_sub(1);
                (self.round, (r % span + 1) as i64, (r / span + 1) as u32)
            }
            (TimingSystem::GraduatedRounds(c), ev) => {
                let tpr = u64::from(c.ticks_per_round);
                if let Some(EvKind::Action { end_pass: p @ 1.., .. }) = ev {
                    let span = self.span.max(1);
                    let r = rel.saturating_sub(tpr + 1);
                    (self.round, (r % span + 1) as i64, p)
                } else if c.past_end == PastEnd::Spill && rel > tpr {
                    let k = (rel - 1) / tpr;
                    (self.round + k as u32, (rel - k * tpr) as i64, 0)
                } else {
                    (self.round, rel as i64, 0)
                }
            }
            (TimingSystem::Continuous(c), _) => ((c.stopwatch(tick).0 + 1) as u32, tick as i64, 0),
            (TimingSystem::TickSystem(_), _) => (self.round, self.countdown(tick), 0),
            (TimingSystem::ActionBlocks(_), _) => {
                let block = self.span as i64 - rel as i64 + 1;
                (self.round, block, block.max(0) as u32)
            }
        };
        Moment {
            tick,
            round,
            display,
            pass,
        }
    }

    /// The tick sheet: every pending act in the order it will happen, with
    /// the system's labels. Actors awaiting a declaration are not on it.
    pub fn pending(&self) -> Vec<PendingAct> {
        self.queue
            .pending()
            .into_iter()
            .map(|(tick, _, ev)| {
                let act = match ev.kind {
                    EvKind::Action { who, nth, .. } => Act::Action {
                        actor: ActorId(who),
                        nth,
                    },
                    EvKind::Turn { who, .. } => Act::Turn { actor: ActorId(who) },
                    EvKind::Timer { id } => Act::Timer { id },
                };
                PendingAct {
                    at: self.moment_at(tick, Some(ev.kind)),
                    act,
                }
            })
            .collect()
    }

    /// Actors awaiting a declaration, in the order they landed.
    pub fn awaiting(&self) -> Vec<ActorId> {
        self.awaiting.iter().map(|&w| ActorId(w)).collect()
    }

    /// Bytes of heap memory the scheduler holds (actors, their pending
    /// lists, the event queue and scratch buffers, by capacity): what a
    /// copy of it costs, e.g. in an undo history.
    pub fn heap_size(&self) -> usize {
        use std::mem::size_of;
        self.queue.heap_size()
            + self.actors.capacity() * size_of::<ActorState>()
            + self
                .actors
                .iter()
                .map(|a| a.pending.capacity() * size_of::<EventId>())
                .sum::<usize>()
            + (self.awaiting.capacity() + self.joining.capacity()) * size_of::<u32>()
            + self.popped.capacity() * size_of::<(EventId, Ev)>()
            + self.plans.capacity() * size_of::<(u32, Declaration, Plan, i64)>()
    }

    /// Number of pending actor events (not timers).
    pub fn pending_actions(&self) -> usize {
        self.actor_events
    }

    /// Checks a restored scheduler's invariants (for snapshots read from
    /// files): every pending event belongs to an actor that lists it.
    pub fn validate(&self) -> Result<()> {
        self.system.validate()?;
        let mut events = 0usize;
        for (tick, id, ev) in self.queue.pending() {
            if let EvKind::Action { who, .. } | EvKind::Turn { who, .. } = ev.kind {
                let Some(a) = self.actors.get(who as usize) else {
                    return Err(Error::invalid(
                        "scheduler.queue",
                        format!("event at tick {tick} for unknown actor {who}"),
                    ));
                };
                if !a.pending.contains(&id) {
                    return Err(Error::invalid(
                        "scheduler.queue",
                        format!("event at tick {tick} is not listed by actor {who}"),
                    ));
                }
                events += 1;
            }
        }
        if events != self.actor_events || self.actors.iter().map(|a| a.pending.len()).sum::<usize>() != events {
            return Err(Error::invalid("scheduler", "pending event counts disagree"));
        }
        for &w in &self.joining {
            if !self
                .actors
                .get(w as usize)
                .is_some_and(|a| a.presence == Presence::Joining)
            {
                return Err(Error::invalid("scheduler.joining", format!("actor {w} is not joining")));
            }
        }
        for &w in &self.awaiting {
            if !self.actors.get(w as usize).is_some_and(|a| a.awaiting) {
                return Err(Error::invalid(
                    "scheduler.awaiting",
                    format!("actor {w} is not awaiting"),
                ));
            }
        }
        for (i, a) in self.actors.iter().enumerate() {
            a.timing
                .validate()
                .map_err(|e| e.in_field(&format!("scheduler.actors[{i}]")))?;
            a.decl
                .validate()
                .map_err(|e| e.in_field(&format!("scheduler.actors[{i}]")))?;
        }
        Ok(())
    }
}

/// What a declaration does to an awaiting actor.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Plan {
    /// A late joiner's first action (Continuous).
    Join,
    Nothing,
    At(u64),
    EndPasses,
    Prepare,
    TickAction {
        ticks: u32,
        interval: u32,
    },
}

/// Checks `value` is a roll `dice` can show (as a scripted roll would be).
fn check_die(dice: Dice, value: i32) -> Result<()> {
    ScriptedRolls::new([value]).roll(dice).map(|_| ()).map_err(|e| match e {
        Error::ScriptedRollOutOfRange { min, max, value, .. } => {
            Error::out_of_range("initiative.roll", value, min, max)
        }
        other => other,
    })
}
