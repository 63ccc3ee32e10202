//! The scheduler: one state machine over the event queue for all six
//! timing systems. The rules themselves (formulas, policies, options) live
//! in the system modules; this file applies them in order.

use serde::{Deserialize, Serialize};

use crate::dice::{Dice, RollSource, ScriptedRolls};
use crate::error::{Error, Result};

use super::graduated::{GraduatedConfig, ready_time};
use super::queue::{EventId, EventQueue};
use super::simple::{actions_in_round, initiative};
use super::snapshot::{
    ActorPresence, ActorSnapshot, EventKind, EventSnapshot, InProgress, SCHEDULER_SNAPSHOT_VERSION, SchedulerSnapshot,
};
use super::tick_system::FreeActionResult;
use super::{
    Act, ActionKind, ActorId, ActorTiming, Declaration, GmTiming, InitiativeEntry, Moment, PastEnd, PendingAct, Step,
    TimingSystem,
};

/// The last absolute tick a [`Scheduler`] schedules anything on:
/// 4,294,967,295 (`u32::MAX`), 136 years of one-second Continuous ticks.
///
/// Every tick fits a `u32`, so no round, phase, exchange, pass or lap
/// counter (all `u32`) can overflow, and a tick plus any duration the
/// scheduler accepts stays far inside `u64` and `i64`. Anything that would
/// land later (a timer, a GM landing tick, a delay, a round laid out past
/// it) is refused with an error; nothing wraps.
pub const MAX_TICK: u64 = u32::MAX as u64;
/// The longest duration in ticks the scheduler accepts: Time Taken, extra
/// preparation, GM Ready Time, Interval, action ticks, free-action ticks,
/// delays (1,000,000 ticks, eleven and a half days of seconds).
pub const MAX_DURATION: u32 = 1_000_000;
/// The largest speed bonus or Tick System initiative bonus, either sign.
pub const MAX_BONUS: i32 = 1_000_000;
/// The largest REF or Combat Sense (Action Blocks), either sign.
pub const MAX_REFLEXES: i32 = 1_000;
/// The most actions one actor may have in one round or phase (Rate of
/// Fire shots and rounds, extra attacks, Action Blocks actions).
pub const MAX_ACTIONS: u32 = 1_000;
/// The most actors one scheduler holds (removed ones count).
pub const MAX_ACTORS: usize = 10_000_000;

/// `base + ticks` as an absolute tick; past [`MAX_TICK`] it is refused,
/// naming `field` (whose value is `ticks`).
#[inline]
fn tick_after(base: u64, ticks: u64, field: &str) -> Result<u64> {
    match base.checked_add(ticks) {
        Some(t) if t <= MAX_TICK => Ok(t),
        _ => Err(too_late(base, ticks, field)),
    }
}

/// The error of [`tick_after`], out of line: the hot path never takes it.
#[cold]
#[inline(never)]
fn too_late(base: u64, ticks: u64, field: &str) -> Error {
    Error::out_of_range(field, ticks, 0, MAX_TICK.saturating_sub(base))
}

/// The error for a round (or follow-up) whose ticks would pass [`MAX_TICK`].
#[cold]
fn past_last_tick(field: &str) -> Error {
    Error::overflow(field, format!("it would land after the last tick {MAX_TICK}"))
}

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
///
/// # Bounds
///
/// Every input is checked at the call, and nothing panics or wraps
/// whatever the input:
///
/// | what | accepted |
/// | --- | --- |
/// | any tick the scheduler schedules on | `1..=`[`MAX_TICK`] (`u32::MAX`) |
/// | Time Taken, extra preparation, Interval, action ticks, GM Ready Time, free-action ticks, delays | `0..=`[`MAX_DURATION`] (1,000,000; some at least 1) |
/// | speed bonus, Tick System initiative bonus | within ±[`MAX_BONUS`] (1,000,000) |
/// | REF, Combat Sense | within ±[`MAX_REFLEXES`] (1,000) |
/// | Rate of Fire shots and rounds, extra attacks, actions a round | `..=`[`MAX_ACTIONS`] (1,000) |
/// | entered initiative | Relativity `1..=MAX_DURATION`; Tick System `-MAX_BONUS..=2 * MAX_BONUS`; Action Blocks `1..=MAX_ACTIONS`; rolls within their dice |
/// | timers | `1..=MAX_TICK - now` ticks |
/// | actors | at most [`MAX_ACTORS`] |
///
/// A refusal names the field ([`Error::OutOfRange`], [`Error::Invalid`]);
/// a round or follow-up that would land after [`MAX_TICK`] is an
/// [`Error::Overflow`] or out of range. [`new`](Self::new) does not check
/// the system's options, but nothing is added or set under bad ones.
///
/// # Copies and snapshots
///
/// A clone is cheap: the event queue is copied packed (see
/// [`EventQueue`]), a few hundred bytes plus the actors.
/// [`snapshot`](Self::snapshot) gives the documented, versioned form
/// ([`SchedulerSnapshot`]); the serde impls of `Scheduler` itself write its
/// private layout and are kept for the tracker's existing files.
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
    /// Checks the numbers against the scheduler's limits: Time Taken,
    /// extra preparation, action ticks and a GM Ready Time up to
    /// [`MAX_DURATION`] (action ticks and Ready Time at least 1); the speed
    /// bonus within ±[`MAX_BONUS`]; extra attacks and both parts of the
    /// Rate of Fire up to [`MAX_ACTIONS`]; a GM landing tick in
    /// `1..=`[`MAX_TICK`] (and after the current tick when it is used).
    pub fn validate(&self) -> Result<()> {
        check_range("declaration.time_taken", self.time_taken.into(), 0, MAX_DURATION.into())?;
        check_range(
            "declaration.extra_preparation",
            self.extra_preparation.into(),
            0,
            MAX_DURATION.into(),
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
            check_range("declaration.action_ticks", t.into(), 1, MAX_DURATION.into())?;
        }
        match self.gm {
            Some(GmTiming::ReadyTime(t)) => check_range("declaration.gm.ready_time", t.into(), 1, MAX_DURATION.into())?,
            Some(GmTiming::LandingTick(t)) if !(1..=MAX_TICK).contains(&t) => {
                return Err(Error::out_of_range("declaration.gm.landing_tick", t, 1, MAX_TICK));
            }
            Some(GmTiming::LandingTick(_)) | None => {}
        }
        Ok(())
    }
}

impl ActorTiming {
    /// Checks the numbers against the scheduler's limits: the initiative
    /// bonus within ±[`MAX_BONUS`], the Interval up to [`MAX_DURATION`],
    /// REF and Combat Sense within ±[`MAX_REFLEXES`].
    pub fn validate(&self) -> Result<()> {
        check_range(
            "timing.initiative_bonus",
            self.initiative_bonus.into(),
            (-MAX_BONUS).into(),
            MAX_BONUS.into(),
        )?;
        check_range("timing.interval", self.interval.into(), 0, MAX_DURATION.into())?;
        check_range(
            "timing.reflexes",
            self.reflexes.into(),
            (-MAX_REFLEXES).into(),
            MAX_REFLEXES.into(),
        )?;
        check_range(
            "timing.combat_sense",
            self.combat_sense.into(),
            (-MAX_REFLEXES).into(),
            MAX_REFLEXES.into(),
        )?;
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
    ///
    /// # Errors
    /// Bad system options, traits or declaration out of the [bounds](Self#bounds),
    /// or more than [`MAX_ACTORS`] actors.
    pub fn add(&mut self, timing: ActorTiming, declaration: Declaration) -> Result<ActorId> {
        // `new` does not check the options; nothing runs under bad ones.
        self.system.validate()?;
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
        self.take_out(who);
        self.awaiting.retain(|&w| w != who.0);
        self.joining.retain(|&w| w != who.0);
        Ok(())
    }

    /// Takes every listed actor that is still in the fight out of it, as
    /// [`remove`](Self::remove) does one by one (unknown actors and those
    /// already out are skipped), and returns how many it took out.
    ///
    /// One call for all the fallen of a moment: the awaiting and joining
    /// lists are filtered once, not once per actor. A moment where many
    /// act and many fall (a Tick System round of 2x10,000 hands a
    /// thousand turns to one tick) would otherwise cost the product of
    /// the two.
    pub fn remove_each(&mut self, who: impl IntoIterator<Item = ActorId>) -> usize {
        let mut out = 0;
        for w in who {
            if self.is_in(w) {
                self.take_out(w);
                out += 1;
            }
        }
        if out > 0 {
            // Every listed actor is awaiting (joining) but those just taken out.
            let actors = &self.actors;
            self.awaiting.retain(|&w| actors[w as usize].awaiting);
            self.joining
                .retain(|&w| actors[w as usize].presence == Presence::Joining);
        }
        out
    }

    /// The actor's part of a removal: its pending events dropped, its
    /// flags cleared (the awaiting and joining lists are the caller's).
    fn take_out(&mut self, who: ActorId) {
        let pending = std::mem::take(&mut self.actors[who.index()].pending);
        for id in pending {
            self.drop_event(id);
        }
        let a = &mut self.actors[who.index()];
        a.presence = Presence::Out;
        a.awaiting = false;
        a.in_progress = None;
        a.in_progress_kind = None;
    }

    /// Sets the actor's initiative instead of rolling it.
    ///
    /// Right after a [`Step::NewRound`] (before any moment of the round) it
    /// corrects this round: the round is laid out again from everyone's
    /// initiative, with no new rolls. Otherwise it is kept for the actor's
    /// next initiative (the next round, or its joining).
    ///
    /// # Errors
    /// An unknown or removed actor, an entry out of its range (see the
    /// [bounds](Self#bounds)), or a corrected round that would pass
    /// [`MAX_TICK`].
    pub fn set_initiative(&mut self, who: ActorId, entry: InitiativeEntry) -> Result<()> {
        self.active(who)?;
        let value = self.initiative_from_entry(who.0, entry)?;
        let correct_now = self.round > 0
            && self.moments_in_round == 0
            && self.actors[who.index()].presence == Presence::Active
            && !(matches!(self.system, TimingSystem::Continuous(_)) && self.round > 1);
        if correct_now {
            // Laid out first: a round that cannot be changes nothing.
            let acting: Vec<(u32, i64, u32)> = self
                .actors
                .iter()
                .enumerate()
                .filter(|(_, a)| a.presence == Presence::Active)
                .map(|(i, a)| (i as u32, if i == who.index() { value } else { a.initiative }, a.allowed))
                .collect();
            let layout = self.layout(self.round, self.round_base, &acting)?;
            self.actors[who.index()].initiative = value;
            self.apply_layout(layout)?;
        } else {
            self.actors[who.index()].entry = Some(entry);
        }
        Ok(())
    }

    /// The value an entry stands for (checked).
    fn initiative_from_entry(&self, who: u32, entry: InitiativeEntry) -> Result<i64> {
        let a = &self.actors[who as usize];
        self.initiative_value(&a.timing, &a.decl, entry)
    }

    /// The value an entry stands for with these traits and declaration:
    /// Relativity scores in `1..=`[`MAX_DURATION`] (a roll gives at most
    /// about three times that), Tick System totals within
    /// `-MAX_BONUS..=2 * MAX_BONUS`, Action Blocks counts in
    /// `1..=`[`MAX_ACTIONS`].
    fn initiative_value(&self, timing: &ActorTiming, decl: &Declaration, entry: InitiativeEntry) -> Result<i64> {
        match (&self.system, entry) {
            (TimingSystem::Simultaneous, _) => Ok(0),
            (s, InitiativeEntry::Roll(r)) if s.relativity_initiative() => initiative(r, decl),
            (s, InitiativeEntry::Total(t)) if s.relativity_initiative() => {
                check_range("initiative.total", t, 1, MAX_DURATION.into())?;
                Ok(t)
            }
            (TimingSystem::TickSystem(c), InitiativeEntry::Roll(r)) => {
                check_die(c.initiative_die, r)?;
                Ok(i64::from(r) + i64::from(timing.initiative_bonus))
            }
            (TimingSystem::TickSystem(_), InitiativeEntry::Total(t)) => {
                check_range("initiative.total", t, -i64::from(MAX_BONUS), 2 * i64::from(MAX_BONUS))?;
                Ok(t)
            }
            (TimingSystem::ActionBlocks(c), InitiativeEntry::Roll(r)) => {
                check_die(c.die, r)?;
                Ok(c.actions(timing.reflexes, timing.combat_sense, r)
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

    /// Rolls (or takes the entry of) the actor's initiative, with `decl`
    /// as its declaration.
    fn roll_initiative<R: RollSource + ?Sized>(&self, who: u32, decl: &Declaration, rolls: &mut R) -> Result<i64> {
        let a = &self.actors[who as usize];
        if let Some(entry) = a.entry {
            return self.initiative_value(&a.timing, decl, entry);
        }
        let roll = match &self.system {
            TimingSystem::Simultaneous => return Ok(0),
            s if s.relativity_initiative() => rolls.roll(Dice::FOUR_DF)?,
            TimingSystem::TickSystem(c) => rolls.roll(c.initiative_die)?,
            TimingSystem::ActionBlocks(c) => rolls.roll(c.die)?,
            _ => return Ok(0),
        };
        self.initiative_value(&a.timing, decl, InitiativeEntry::Roll(roll))
    }

    // -----------------------------------------------------------------
    // Rounds

    /// Whether the current round is over (or none has begun) once the
    /// follow-ups in `plans` are applied; they leave nobody awaiting.
    fn round_over_after(&self, plans: &[(u32, Declaration, Plan, i64)]) -> bool {
        if self.round == 0 {
            return true;
        }
        if let TimingSystem::Continuous(_) = self.system {
            return false;
        }
        let new_events: usize = plans.iter().map(|(_, _, p, _)| p.events()).sum();
        match &self.system {
            TimingSystem::Continuous(_) => false,
            TimingSystem::GraduatedRounds(c) if c.past_end == PastEnd::Spill => {
                let end = self.round_base + u64::from(c.ticks_per_round);
                let first = plans
                    .iter()
                    .filter_map(|(_, _, p, _)| p.first_tick())
                    .chain(self.queue.peek_tick())
                    .min();
                self.actor_events + new_events == 0 || first.is_some_and(|t| t > end)
            }
            _ => self.actor_events + new_events == 0,
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

    /// Rolls the next round's initiative for everyone (entries first) and
    /// lays it out, changing nothing: [`commit_round`](Self::commit_round)
    /// begins it. Actors still awaiting a follow-up roll with the
    /// declaration they will repeat.
    fn prepare_round<R: RollSource + ?Sized>(&self, rolls: &mut R) -> Result<RoundStart> {
        let round = self
            .round
            .checked_add(1)
            .ok_or_else(|| Error::overflow("round", "more than u32::MAX rounds"))?;
        let mut values = Vec::with_capacity(self.actors.len());
        for (i, a) in self.actors.iter().enumerate() {
            if a.presence != Presence::Active {
                continue;
            }
            let decl = if a.awaiting { a.decl.repeated() } else { a.decl };
            let init = self.roll_initiative(i as u32, &decl, rolls)?;
            let allowed = match &self.system {
                TimingSystem::SimpleRounds | TimingSystem::GraduatedRounds(_) => {
                    actions_in_round(&a.decl, a.rounds_of_use.saturating_add(1)).min(MAX_ACTIONS)
                }
                TimingSystem::ActionBlocks(_) => init.clamp(0, MAX_ACTIONS.into()) as u32,
                _ => 1,
            };
            values.push((i as u32, init, allowed));
        }
        let base = match &self.system {
            TimingSystem::GraduatedRounds(c) if c.past_end == PastEnd::Spill => {
                if self.round == 0 {
                    0
                } else {
                    self.round_base.saturating_add(u64::from(c.ticks_per_round))
                }
            }
            _ if self.round == 0 => 0,
            _ => self
                .queue
                .now()
                .max(self.round_base.saturating_add(self.round_length())),
        };
        if base > MAX_TICK {
            return Err(past_last_tick("round"));
        }
        let layout = self.layout(round, base, &values)?;
        Ok(RoundStart {
            round,
            base,
            values,
            layout,
        })
    }

    /// Begins a prepared round.
    fn commit_round(&mut self, start: RoundStart) -> Result<()> {
        self.round = start.round;
        self.round_base = start.base;
        self.moments_in_round = 0;
        for (i, init, allowed) in start.values {
            let a = &mut self.actors[i as usize];
            a.initiative = init;
            a.entry = None;
            a.rounds_of_use = a.rounds_of_use.saturating_add(1);
            a.nth = 0;
            a.chain_round = start.round;
            a.allowed = allowed;
        }
        self.apply_layout(start.layout)
    }

    /// The events of round `round`, starting after tick `base`, from
    /// `acting`: `(actor, initiative, actions allowed)` of every active
    /// actor in the order they were added. Checked (every tick after now
    /// and at most [`MAX_TICK`]); changes nothing.
    fn layout(&self, round: u32, base: u64, acting: &[(u32, i64, u32)]) -> Result<Layout> {
        let mut events = Vec::with_capacity(acting.len());
        let mut span = self.span;
        // Initiative as a tick offset: at least 1 (Relativity scores are).
        let offset = |init: i64| init.max(1).unsigned_abs();
        match &self.system {
            TimingSystem::Simultaneous => {
                for &(w, ..) in acting {
                    events.push((base.saturating_add(1), EvKind::action(w, round, 1)));
                }
            }
            TimingSystem::SimpleRounds => {
                let with_actions = || acting.iter().filter(|&&(_, _, allowed)| allowed > 0);
                span = with_actions().map(|&(_, init, _)| offset(init)).max().unwrap_or(1);
                let passes = with_actions().map(|&(_, _, allowed)| allowed).max().unwrap_or(0);
                for p in 1..=passes {
                    for &(w, init, allowed) in with_actions() {
                        if allowed >= p {
                            let tick = base
                                .saturating_add(u64::from(p - 1).saturating_mul(span))
                                .saturating_add(offset(init));
                            events.push((tick, EvKind::action(w, round, p)));
                        }
                    }
                }
            }
            TimingSystem::GraduatedRounds(c) => {
                let with_actions = || acting.iter().filter(|&&(_, _, allowed)| allowed > 0);
                span = with_actions().map(|&(_, init, _)| offset(init)).max().unwrap_or(1);
                let tpr = u64::from(c.ticks_per_round);
                for &(w, init, allowed) in with_actions() {
                    let init = offset(init);
                    if init <= tpr || matches!(c.past_end, PastEnd::Extend | PastEnd::Spill) {
                        events.push((base.saturating_add(init), EvKind::action(w, round, 1)));
                    } else if c.past_end == PastEnd::EndOfRound {
                        let first = first_end_pass(base.saturating_add(tpr), init, self.queue.now());
                        end_pass_events(w, round, 0, allowed, first, span, &mut events);
                    }
                }
            }
            TimingSystem::Continuous(_) => {
                for &(w, init, _) in acting {
                    events.push((base.saturating_add(offset(init)), EvKind::action(w, round, 1)));
                }
            }
            TimingSystem::TickSystem(_) => {
                let h = acting.iter().map(|&(_, init, _)| init).max().unwrap_or(1).max(1);
                span = h.unsigned_abs();
                if base.saturating_add(span) > MAX_TICK {
                    return Err(past_last_tick("round"));
                }
                for &(w, init, _) in acting {
                    let d = init.clamp(1, h);
                    events.push((base + (h - d).unsigned_abs() + 1, EvKind::Turn { who: w, round }));
                }
            }
            TimingSystem::ActionBlocks(_) => {
                let n = acting.iter().map(|&(_, _, allowed)| allowed).max().unwrap_or(0);
                span = u64::from(n);
                let mut by_ref = acting.to_vec();
                by_ref.sort_by_key(|&(w, ..)| std::cmp::Reverse(self.actors[w as usize].timing.reflexes));
                for block in (1..=n).rev() {
                    for &(w, _, allowed) in &by_ref {
                        if allowed >= block {
                            let tick = base.saturating_add(u64::from(n - block) + 1);
                            events.push((tick, EvKind::action(w, round, allowed - block + 1)));
                        }
                    }
                }
            }
        }
        let now = self.queue.now();
        if events.iter().any(|&(t, _)| t > MAX_TICK) {
            return Err(past_last_tick("round"));
        }
        if events.iter().any(|&(t, _)| t <= now) {
            return Err(Error::invalid(
                "round",
                format!("it would begin at or before the current tick {now}"),
            ));
        }
        Ok(Layout { span, events })
    }

    /// Replaces whatever of the current round was scheduled by `layout`.
    fn apply_layout(&mut self, layout: Layout) -> Result<()> {
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
        self.span = layout.span;
        for (tick, kind) in layout.events {
            // An actor whose first action was cancelled (it awaits a new
            // declaration) keeps it cancelled when the round is laid out
            // again for a corrected initiative.
            let who = match kind {
                EvKind::Action { who, .. } | EvKind::Turn { who, .. } => Some(who),
                EvKind::Timer { .. } => None,
            };
            if who.is_some_and(|w| self.actors[w as usize].awaiting) {
                continue;
            }
            self.push(tick, kind)?;
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
    ///
    /// # Errors
    /// A roll the source cannot give, or a follow-up or round that would
    /// land after [`MAX_TICK`]. All rolls come first: on an error nothing
    /// has changed.
    pub fn next<R: RollSource + ?Sized>(&mut self, rolls: &mut R, acts: &mut Vec<Act>) -> Result<Option<Step>> {
        acts.clear();
        let mut plans = std::mem::take(&mut self.plans);
        plans.clear();
        let start = match self.prepare_next(rolls, &mut plans) {
            Ok(start) => start,
            Err(e) => {
                plans.clear();
                self.plans = plans;
                return Err(e);
            }
        };
        let applied = self.apply_follow_up(&plans);
        plans.clear();
        self.plans = plans;
        applied?;
        if let Some(start) = start {
            self.commit_round(start)?;
            return Ok(Some(Step::NewRound { round: self.round }));
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
        let moment = self.moment_at(tick, first);
        if first.is_some() {
            self.moments_in_round = self.moments_in_round.saturating_add(1);
        }
        self.last = Some(moment);
        Ok(Some(Step::Moment(moment)))
    }

    /// Every roll and check of a [`next`](Self::next), changing nothing:
    /// the follow-ups (into `plans`) and, if the round is then over, the
    /// next round.
    fn prepare_next<R: RollSource + ?Sized>(
        &self,
        rolls: &mut R,
        plans: &mut Vec<(u32, Declaration, Plan, i64)>,
    ) -> Result<Option<RoundStart>> {
        self.plan_follow_up(rolls, plans)?;
        if self.round_over_after(plans) {
            let anyone = self.actors.iter().any(|a| a.presence == Presence::Active);
            if anyone && (self.round == 0 || !matches!(self.system, TimingSystem::Continuous(_))) {
                return self.prepare_round(rolls).map(Some);
            }
        }
        Ok(None)
    }

    /// "The same again" for everyone still awaiting a declaration, and
    /// Continuous late joiners' initiative: the rolls and the plans, in
    /// that order, changing nothing.
    #[inline]
    fn plan_follow_up<R: RollSource + ?Sized>(
        &self,
        rolls: &mut R,
        plans: &mut Vec<(u32, Declaration, Plan, i64)>,
    ) -> Result<()> {
        for &w in &self.awaiting {
            let decl = self.actors[w as usize].decl.repeated();
            plans.push((w, decl, self.plan(w, &decl, rolls)?, 0));
        }
        let now = self.queue.now();
        for &w in &self.joining {
            let decl = self.actors[w as usize].decl;
            let init = self.roll_initiative(w, &decl, rolls)?;
            let tick = tick_after(now, init.max(1).unsigned_abs(), "initiative")?;
            plans.push((w, decl, Plan::Join { tick }, init));
        }
        Ok(())
    }

    /// Applies planned follow-ups (checked when planned).
    #[inline]
    fn apply_follow_up(&mut self, plans: &[(u32, Declaration, Plan, i64)]) -> Result<()> {
        if plans.is_empty() {
            return Ok(());
        }
        self.awaiting.clear();
        self.joining.clear();
        for &(w, decl, plan, init) in plans {
            if let Plan::Join { tick } = plan {
                let a = &mut self.actors[w as usize];
                a.presence = Presence::Active;
                a.initiative = init;
                a.entry = None;
                a.chain_round = self.round;
                self.push(tick, EvKind::action(w, self.round, 1))?;
            } else {
                self.apply_plan(w, decl, plan)?;
            }
        }
        Ok(())
    }

    /// The absolute tick at which a follow-up of `decl` lands, from now.
    fn follow_up_tick<R: RollSource + ?Sized>(&self, decl: &Declaration, rolls: &mut R) -> Result<u64> {
        let now = self.current_tick();
        match decl.gm {
            Some(GmTiming::ReadyTime(t)) => tick_after(now, t.into(), "declaration.gm.ready_time"),
            Some(GmTiming::LandingTick(t)) => {
                if t <= now {
                    return Err(Error::invalid(
                        "declaration.gm.landing_tick",
                        format!("tick {t} is not after the current tick {now}"),
                    ));
                }
                if t > MAX_TICK {
                    return Err(Error::out_of_range("declaration.gm.landing_tick", t, now + 1, MAX_TICK));
                }
                Ok(t)
            }
            None => {
                let roll = rolls.roll(Dice::TWO_DF)?;
                let ready = ready_time(roll, decl)?;
                tick_after(now, ready.max(1).unsigned_abs(), "ready_time")
            }
        }
    }

    /// Works out (with rolls) what a declaration for an awaiting actor
    /// does, every tick checked; changes nothing.
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
                            PastEnd::EndOfRound => {
                                let end = self.round_base.saturating_add(u64::from(c.ticks_per_round));
                                let first = first_end_pass(end, a.initiative.max(1).unsigned_abs(), self.queue.now());
                                let step = self.span.max(1);
                                let count = a.allowed - a.nth;
                                let last = first.saturating_add(u64::from(count - 1).saturating_mul(step));
                                if last > MAX_TICK {
                                    return Err(past_last_tick("declaration"));
                                }
                                Plan::EndPasses { first, step }
                            }
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
                    let done = tick_after(self.current_tick(), ticks.into(), "declaration.action_ticks")?;
                    let next = done + u64::from(a.timing.interval);
                    Plan::TickAction {
                        done,
                        turn: (self.countdown(next) >= 1).then_some(next),
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

    /// Applies a plan (its ticks checked when it was made).
    fn apply_plan(&mut self, who: u32, decl: Declaration, plan: Plan) -> Result<()> {
        let round = self.round;
        let (nth, chain_round, allowed) = {
            let a = &mut self.actors[who as usize];
            if a.decl.rate_of_fire != decl.rate_of_fire {
                a.rounds_of_use = 0;
            }
            a.decl = decl.repeated();
            a.awaiting = false;
            (a.nth, a.chain_round, a.allowed)
        };
        match plan {
            Plan::Nothing | Plan::Join { .. } => {}
            Plan::At(tick) => {
                self.push(tick, EvKind::action(who, chain_round, nth.saturating_add(1)))?;
            }
            Plan::EndPasses { first, step } => {
                let mut events = Vec::new();
                end_pass_events(who, round, nth, allowed, first, step, &mut events);
                for (tick, kind) in events {
                    self.push(tick, kind)?;
                }
            }
            Plan::Prepare => {
                let a = &mut self.actors[who as usize];
                a.prepared = true;
                a.free_defense_used = false;
            }
            Plan::TickAction { done, turn } => {
                let id = self.push(
                    done,
                    EvKind::Action {
                        who,
                        round,
                        nth: nth.saturating_add(1),
                        end_pass: 0,
                    },
                )?;
                let a = &mut self.actors[who as usize];
                a.in_progress = Some(id);
                a.in_progress_kind = Some(decl.kind);
                if matches!(decl.kind, ActionKind::Attack | ActionKind::RangedAttack { .. }) {
                    a.prepared = false;
                }
                if let Some(next) = turn {
                    self.push(next, EvKind::Turn { who, round })?;
                }
            }
        }
        Ok(())
    }

    /// Tick System: the countdown tick of absolute tick `t` this round.
    /// Saturating, though every tick involved is near `MAX_TICK` at most.
    #[inline]
    fn countdown(&self, t: u64) -> i64 {
        let end = i64::try_from(self.span.saturating_add(self.round_base)).unwrap_or(i64::MAX);
        end.saturating_add(1)
            .saturating_sub(i64::try_from(t).unwrap_or(i64::MAX))
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
    ///
    /// # Errors
    /// An unknown or removed actor, a declaration out of the
    /// [bounds](Self#bounds), a GM landing tick not after now, a roll the
    /// source cannot give, or an action that would land after [`MAX_TICK`].
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
        // Within the round, so at most `MAX_TICK` (rounds end by then).
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
    ///
    /// # Errors
    /// An unknown or removed actor, another system, or more than
    /// [`MAX_DURATION`] ticks.
    pub fn free_action(&mut self, who: ActorId, ticks: Option<u32>, defending: bool) -> Result<FreeActionResult> {
        self.active(who)?;
        let TimingSystem::TickSystem(c) = self.system else {
            return Err(Error::invalid("free_action", "free actions are a Tick System rule"));
        };
        let w = who.0;
        let mut ticks = ticks.unwrap_or(c.free_action_ticks);
        check_range("free_action.ticks", ticks.into(), 0, MAX_DURATION.into())?;
        // Checked above; nothing below can fail.
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
        // A pushed turn stays within the round, so at most `MAX_TICK`.
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
    ///
    /// # Errors
    /// An unknown or removed actor, nothing pending, `ticks` outside
    /// `1..=`[`MAX_DURATION`], past the pass (Simple Rounds) or past
    /// [`MAX_TICK`].
    pub fn delay(&mut self, who: ActorId, ticks: u32) -> Result<u64> {
        self.active(who)?;
        check_range("delay.ticks", ticks.into(), 1, MAX_DURATION.into())?;
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
        let new_tick = tick_after(tick, ticks.into(), "delay.ticks")?;
        if self.system == TimingSystem::SimpleRounds {
            let span = self.span.max(1);
            let into_round = tick.saturating_sub(self.round_base).saturating_sub(1);
            let pass_end = self
                .round_base
                .saturating_add(into_round / span * span)
                .saturating_add(span);
            if new_tick > pass_end {
                return Err(Error::out_of_range(
                    "delay.ticks",
                    ticks,
                    1,
                    pass_end.saturating_sub(tick),
                ));
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

    /// Sets timer `id` to run out `ticks` ticks after now; it comes out of
    /// [`next`](Self::next) as [`Act::Timer`].
    ///
    /// # Errors
    /// `ticks` must be at least 1 and land at most on [`MAX_TICK`]
    /// (`1..=MAX_TICK - now`).
    pub fn set_timer(&mut self, id: u32, ticks: u64) -> Result<EventId> {
        self.system.validate()?;
        let now = self.queue.now();
        if ticks == 0 || now.checked_add(ticks).is_none_or(|t| t > MAX_TICK) {
            return Err(Error::out_of_range(
                "timer.ticks",
                ticks,
                1,
                MAX_TICK.saturating_sub(now),
            ));
        }
        self.push(now + ticks, EvKind::Timer { id })
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
    ///
    /// Ticks are at most [`MAX_TICK`], so the labels fit; they saturate
    /// rather than wrap all the same.
    fn moment_at(&self, tick: u64, ev: Option<EvKind>) -> Moment {
        let rel = tick.saturating_sub(self.round_base);
        let small = |x: u64| u32::try_from(x).unwrap_or(u32::MAX);
        let signed = |x: u64| i64::try_from(x).unwrap_or(i64::MAX);
        let (round, display, pass) = match (&self.system, ev) {
            (TimingSystem::Simultaneous, _) => (self.round, i64::from(self.round), 0),
            (TimingSystem::SimpleRounds, _) => {
                let span = self.span.max(1);
                let r = rel.saturating_sub(1);
                (self.round, signed(r % span + 1), small(r / span + 1))
            }
            (TimingSystem::GraduatedRounds(c), ev) => {
                let tpr = u64::from(c.ticks_per_round.max(1));
                if let Some(EvKind::Action { end_pass: p @ 1.., .. }) = ev {
                    let span = self.span.max(1);
                    let r = rel.saturating_sub(tpr + 1);
                    (self.round, signed(r % span + 1), p)
                } else if c.past_end == PastEnd::Spill && rel > tpr {
                    let k = (rel - 1) / tpr;
                    (self.round.saturating_add(small(k)), signed(rel - k * tpr), 0)
                } else {
                    (self.round, signed(rel), 0)
                }
            }
            (TimingSystem::Continuous(c), _) => (small(c.stopwatch(tick).0 + 1), signed(tick), 0),
            (TimingSystem::TickSystem(_), _) => (self.round, self.countdown(tick), 0),
            (TimingSystem::ActionBlocks(_), _) => {
                let block = signed(self.span).saturating_sub(signed(rel)).saturating_add(1);
                (self.round, block, small(block.max(0).unsigned_abs()))
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
    /// lists, the event queue and scratch buffers, by capacity). A copy
    /// (an undo step) costs its clone's `heap_size`, usually far less: the
    /// clone's queue is packed.
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

    // -----------------------------------------------------------------
    // Snapshots

    /// The scheduler as documented plain data (see [`SchedulerSnapshot`]),
    /// which [`from_snapshot`](Self::from_snapshot) restores exactly.
    pub fn snapshot(&self) -> SchedulerSnapshot {
        let pending = self.queue.pending_in_order();
        let mut order: Vec<u64> = pending.iter().map(|p| p.1).collect();
        order.sort_unstable();
        let events = pending
            .iter()
            .map(|&(tick, seq, id, ev)| EventSnapshot {
                tick,
                id,
                scheduled: order.binary_search(&seq).unwrap_or_else(|i| i) as u64,
                event: match ev.kind {
                    EvKind::Action {
                        who,
                        round,
                        nth,
                        end_pass,
                    } => EventKind::Action {
                        actor: ActorId(who),
                        round,
                        nth,
                        end_pass,
                    },
                    EvKind::Turn { who, round } => EventKind::Turn {
                        actor: ActorId(who),
                        round,
                    },
                    EvKind::Timer { id } => EventKind::Timer { id },
                },
            })
            .collect();
        SchedulerSnapshot {
            version: SCHEDULER_SNAPSHOT_VERSION,
            system: self.system.clone(),
            round: self.round,
            round_base: self.round_base,
            now: self.queue.now(),
            span: self.span,
            moments_in_round: self.moments_in_round,
            last: self.last,
            actors: self
                .actors
                .iter()
                .map(|a| ActorSnapshot {
                    timing: a.timing,
                    declaration: a.decl,
                    presence: match a.presence {
                        Presence::Joining => ActorPresence::Joining,
                        Presence::Active => ActorPresence::Active,
                        Presence::Out => ActorPresence::Out,
                    },
                    awaiting: a.awaiting,
                    nth: a.nth,
                    allowed: a.allowed,
                    chain_round: a.chain_round,
                    rounds_of_use: a.rounds_of_use,
                    initiative: a.initiative,
                    entry: a.entry,
                    prepared: a.prepared,
                    free_defense_used: a.free_defense_used,
                    in_progress: a.in_progress.map(|event| InProgress {
                        event,
                        kind: a.in_progress_kind.unwrap_or_default(),
                    }),
                })
                .collect(),
            awaiting: self.awaiting.iter().map(|&w| ActorId(w)).collect(),
            joining: self.joining.iter().map(|&w| ActorId(w)).collect(),
            events,
            free_handles: self.queue.free_handles(),
        }
    }

    /// The scheduler a [`SchedulerSnapshot`] describes, after checking
    /// every field; it continues exactly as the one the snapshot was taken
    /// of (same moments, same order within a tick, same results for the
    /// same rolls, same event handles).
    ///
    /// # Errors
    /// An [`Error`] naming the field (`actors[2].entry`, `events[5].tick`,
    /// `awaiting[0]`, ...) for an unknown version, bad options, a value out
    /// of range, an unknown or repeated actor id, an event at or before
    /// `now` or out of order, handles that do not name every slot once,
    /// or lists and flags that disagree.
    pub fn from_snapshot(snapshot: SchedulerSnapshot) -> Result<Scheduler> {
        let SchedulerSnapshot {
            version,
            system,
            round,
            round_base,
            now,
            span,
            moments_in_round,
            last,
            actors,
            awaiting,
            joining,
            events,
            free_handles,
        } = snapshot;
        if version != SCHEDULER_SNAPSHOT_VERSION {
            return Err(Error::out_of_range(
                "version",
                version,
                SCHEDULER_SNAPSHOT_VERSION,
                SCHEDULER_SNAPSHOT_VERSION,
            ));
        }
        system.validate().map_err(|e| e.in_field("system"))?;
        for (field, value) in [("round_base", round_base), ("now", now), ("span", span)] {
            if value > MAX_TICK {
                return Err(Error::out_of_range(field, value, 0, MAX_TICK));
            }
        }
        match last {
            Some(m) if m.tick != now => {
                return Err(Error::invalid("last.tick", format!("{} is not now ({now})", m.tick)));
            }
            None if now != 0 => {
                return Err(Error::invalid(
                    "last",
                    format!("missing, though moments were handed out until tick {now}"),
                ));
            }
            _ => {}
        }
        if actors.len() > MAX_ACTORS {
            return Err(Error::out_of_range("actors", actors.len() as u64, 0, MAX_ACTORS as u64));
        }
        let continuous = matches!(system, TimingSystem::Continuous(_));
        let tick_system = matches!(system, TimingSystem::TickSystem(_));
        // A Tick System round ends by MAX_TICK, so turns booked within it do.
        if tick_system && round_base + span > MAX_TICK {
            return Err(Error::out_of_range("span", span, 0, MAX_TICK - round_base));
        }
        let graduated_end_passes = matches!(
            system,
            TimingSystem::GraduatedRounds(GraduatedConfig {
                past_end: PastEnd::EndOfRound,
                ..
            })
        );
        let mut s = Scheduler::new(system);
        s.round = round;
        s.round_base = round_base;
        s.span = span;
        s.moments_in_round = moments_in_round;
        s.last = last;
        for (i, a) in actors.iter().enumerate() {
            let here = |e: Error| e.in_field(&format!("actors[{i}]"));
            a.timing.validate().map_err(here)?;
            a.declaration.validate().map_err(here)?;
            check_range("allowed", a.allowed.into(), 0, MAX_ACTIONS.into()).map_err(here)?;
            check_range("initiative", a.initiative, -(MAX_TICK as i64), MAX_TICK as i64).map_err(here)?;
            if a.chain_round > round {
                return Err(here(Error::out_of_range("chain_round", a.chain_round, 0, round)));
            }
            if let Some(entry) = a.entry {
                s.initiative_value(&a.timing, &a.declaration, entry)
                    .map_err(|e| here(e.in_field("entry")))?;
            }
            if a.presence == ActorPresence::Joining && !(continuous && round > 0) {
                return Err(here(Error::invalid(
                    "presence",
                    "only Continuous actors join, after the first initiative",
                )));
            }
            if a.presence == ActorPresence::Out && a.awaiting {
                return Err(here(Error::invalid(
                    "awaiting",
                    "an actor out of the fight awaits nothing",
                )));
            }
            if a.in_progress.is_some() && !tick_system {
                return Err(here(Error::invalid(
                    "in_progress",
                    "only the Tick System has actions in progress",
                )));
            }
            s.actors.push(ActorState {
                timing: a.timing,
                decl: a.declaration,
                presence: match a.presence {
                    ActorPresence::Joining => Presence::Joining,
                    ActorPresence::Active => Presence::Active,
                    ActorPresence::Out => Presence::Out,
                },
                pending: Vec::new(),
                awaiting: a.awaiting,
                nth: a.nth,
                allowed: a.allowed,
                chain_round: a.chain_round,
                rounds_of_use: a.rounds_of_use,
                initiative: a.initiative,
                entry: a.entry,
                prepared: a.prepared,
                free_defense_used: a.free_defense_used,
                in_progress: None,
                in_progress_kind: None,
            });
        }
        // Each list names existing actors once, exactly those flagged.
        let mut listed = vec![false; s.actors.len()];
        for (k, w) in awaiting.iter().enumerate() {
            match (s.actors.get(w.index()), listed.get_mut(w.index())) {
                (Some(a), Some(seen)) if a.awaiting && !*seen => *seen = true,
                _ => {
                    return Err(Error::invalid(
                        format!("awaiting[{k}]"),
                        format!("actor {w} is unknown, listed twice or not awaiting"),
                    ));
                }
            }
        }
        if s.actors.iter().filter(|a| a.awaiting).count() != awaiting.len() {
            return Err(Error::invalid("awaiting", "an awaiting actor is not listed"));
        }
        let mut listed = vec![false; s.actors.len()];
        for (k, w) in joining.iter().enumerate() {
            match (s.actors.get(w.index()), listed.get_mut(w.index())) {
                (Some(a), Some(seen)) if a.presence == Presence::Joining && !*seen => *seen = true,
                _ => {
                    return Err(Error::invalid(
                        format!("joining[{k}]"),
                        format!("actor {w} is unknown, listed twice or not joining"),
                    ));
                }
            }
        }
        if s.actors.iter().filter(|a| a.presence == Presence::Joining).count() != joining.len() {
            return Err(Error::invalid("joining", "a joining actor is not listed"));
        }
        s.awaiting = awaiting.iter().map(|w| w.0).collect();
        s.joining = joining.iter().map(|w| w.0).collect();
        // The events, in firing order; each actor's in scheduling order.
        let mut parts = Vec::with_capacity(events.len());
        let mut owned: Vec<(u64, u32, EventId)> = Vec::new();
        let mut previous: Option<(u64, u64)> = None;
        for (k, e) in events.iter().enumerate() {
            let here = |e: Error| e.in_field(&format!("events[{k}]"));
            if e.tick > MAX_TICK {
                return Err(here(Error::out_of_range(
                    "tick",
                    e.tick,
                    now.saturating_add(1),
                    MAX_TICK,
                )));
            }
            if previous.is_some_and(|(t, q)| e.tick < t || (e.tick == t && e.scheduled <= q)) {
                return Err(here(Error::invalid(
                    "tick",
                    "out of order: events go by tick, then in scheduling order",
                )));
            }
            previous = Some((e.tick, e.scheduled));
            let actor_ok = |who: ActorId, r: u32| -> Result<u32> {
                match s.actors.get(who.index()) {
                    Some(a) if a.presence == Presence::Active => {}
                    _ => {
                        return Err(Error::invalid(
                            "event.actor",
                            format!("actor {who} is unknown or not in the fight"),
                        ));
                    }
                }
                if round == 0 || r > round {
                    return Err(Error::out_of_range("event.round", r, 1, round));
                }
                Ok(who.0)
            };
            let kind = match e.event {
                EventKind::Action {
                    actor,
                    round: r,
                    nth,
                    end_pass,
                } => {
                    let who = actor_ok(actor, r).map_err(here)?;
                    if nth == 0 {
                        return Err(here(Error::out_of_range("event.nth", 0, 1, u32::MAX)));
                    }
                    if end_pass > 0 && !graduated_end_passes {
                        return Err(here(Error::invalid(
                            "event.end_pass",
                            "end passes are a Graduated \"end of round\" rule",
                        )));
                    }
                    owned.push((e.scheduled, who, e.id));
                    EvKind::Action {
                        who,
                        round: r,
                        nth,
                        end_pass,
                    }
                }
                EventKind::Turn { actor, round: r } => {
                    if !tick_system {
                        return Err(here(Error::invalid("event.kind", "turns are a Tick System rule")));
                    }
                    let who = actor_ok(actor, r).map_err(here)?;
                    owned.push((e.scheduled, who, e.id));
                    EvKind::Turn { who, round: r }
                }
                EventKind::Timer { id } => EvKind::Timer { id },
            };
            parts.push((e.tick, e.scheduled, e.id, Ev { kind }));
        }
        s.queue = EventQueue::from_parts(now, parts, &free_handles)?;
        owned.sort_unstable_by_key(|&(scheduled, ..)| scheduled);
        s.actor_events = owned.len();
        for &(_, who, id) in &owned {
            s.actors[who as usize].pending.push(id);
        }
        for (i, a) in actors.iter().enumerate() {
            if let Some(p) = a.in_progress {
                let ok = matches!(
                    s.queue.get(p.event),
                    Some(Ev { kind: EvKind::Action { who, .. } }) if *who as usize == i
                );
                if !ok {
                    return Err(Error::invalid(
                        format!("actors[{i}].in_progress.event"),
                        "is not a pending action of this actor",
                    ));
                }
                s.actors[i].in_progress = Some(p.event);
                s.actors[i].in_progress_kind = Some(p.kind);
            }
        }
        s.check_lists()?;
        Ok(s)
    }

    /// Checks a restored scheduler's invariants (for schedulers read with
    /// serde from files): everything [`from_snapshot`](Self::from_snapshot)
    /// checks, and every pending event belongs to an actor that lists it.
    pub fn validate(&self) -> Result<()> {
        self.check_lists()?;
        Scheduler::from_snapshot(self.snapshot()).map(|_| ())
    }

    /// The actors' lists of pending events, the pending counts and the
    /// joining and awaiting lists agree with the queue.
    fn check_lists(&self) -> Result<()> {
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

/// What a declaration does to an awaiting actor, its ticks worked out and
/// checked, so applying it cannot fail.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Plan {
    /// A late joiner's first action (Continuous), at this tick.
    Join {
        tick: u64,
    },
    Nothing,
    At(u64),
    /// Graduated "end of round": the rest of the actor's actions, one per
    /// end pass: the first at `first`, then every `step` ticks.
    EndPasses {
        first: u64,
        step: u64,
    },
    Prepare,
    /// Tick System: the action is done at `done`; the next turn, if this
    /// round has it.
    TickAction {
        done: u64,
        turn: Option<u64>,
    },
}

impl Plan {
    /// How many actor events applying it schedules (for end passes: at
    /// least one; the exact count only matters as zero or not).
    fn events(&self) -> usize {
        match self {
            Plan::Join { .. } | Plan::At(_) | Plan::EndPasses { .. } => 1,
            Plan::TickAction { turn, .. } => 1 + usize::from(turn.is_some()),
            Plan::Nothing | Plan::Prepare => 0,
        }
    }

    /// The earliest tick it schedules.
    fn first_tick(&self) -> Option<u64> {
        match *self {
            Plan::Join { tick } | Plan::At(tick) => Some(tick),
            Plan::EndPasses { first, .. } => Some(first),
            Plan::TickAction { done, .. } => Some(done),
            Plan::Nothing | Plan::Prepare => None,
        }
    }
}

/// A round rolled and laid out, not yet begun.
struct RoundStart {
    round: u32,
    base: u64,
    /// `(actor, initiative, actions allowed)` of every active actor.
    values: Vec<(u32, i64, u32)>,
    layout: Layout,
}

/// The scheduled part of a round: its span and its events in scheduling
/// order.
struct Layout {
    span: u64,
    events: Vec<(u64, EvKind)>,
}

/// Graduated "end of round": the first end-pass tick of an actor with
/// initiative offset `init` after the round's last tick `end`; if the end
/// passes are already under way (a delay took the actor past the end),
/// counted from `now` instead, so nothing lands in the past.
fn first_end_pass(end: u64, init: u64, now: u64) -> u64 {
    let first = end.saturating_add(init);
    if first > now { first } else { now.saturating_add(init) }
}

/// End-pass actions `done + 1..=allowed` of `who` in `round`, the first at
/// `first`, then every `step` ticks (saturating: callers check the last).
fn end_pass_events(who: u32, round: u32, done: u32, allowed: u32, first: u64, step: u64, out: &mut Vec<(u64, EvKind)>) {
    for (k, nth) in (done.saturating_add(1)..=allowed).enumerate() {
        let tick = first.saturating_add((k as u64).saturating_mul(step));
        out.push((
            tick,
            EvKind::Action {
                who,
                round,
                nth,
                end_pass: k as u32 + 1,
            },
        ));
    }
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
