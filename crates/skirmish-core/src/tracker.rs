//! The Encounter tracker: the live API a GM's app drives at the table.
//!
//! An [`Encounter`] runs one [`Scheduler`] (any of the six timing systems)
//! and adds what a person at the table needs:
//!
//! - **names and groups**: combatants by name; a group of identical foes
//!   (the GM's "5 goblins") shares one initiative roll and one line on the
//!   tick sheet, yet its members fall one by one;
//! - **rolls from the table**: every call that rolls takes an optional roll
//!   typed in from real dice; otherwise the encounter's seeded generator
//!   rolls;
//! - the **tick sheet** of pending actions, an **event log**, **effects**
//!   with durations in ticks or rounds that surface when they run out;
//! - **undo** of any number of steps, and **snapshot / restore** as JSON
//!   (generator state included): a restored encounter continues exactly as
//!   if it had never been saved.
//!
//! Every operation is atomic: an error (an unknown or downed combatant, a
//! roll the dice cannot show, a corrupt snapshot) changes nothing.
//!
//! The public surface is owned data only (no lifetimes, no generics), so
//! the language bindings wrap it as it is.
//!
//! # Example: the Continuous example of the Relativity article
//!
//! ```
//! use skirmish_core::timing::{Declaration, InitiativeEntry, TimingSystem};
//! use skirmish_core::tracker::{CombatantSpec, Encounter, Turn};
//!
//! # fn main() -> skirmish_core::Result<()> {
//! let mut e = Encounter::new(TimingSystem::continuous(), 7)?;
//! let roland = e.add_combatant(CombatantSpec::new("Roland", Declaration::new(2, 1)))?;
//! let orc = e.add_combatant(CombatantSpec::new("Orc #1", Declaration::new(3, 0)))?;
//! e.set_initiative(roland, InitiativeEntry::Roll(-1))?; // 4 + 2 - 1 = 5
//! e.set_initiative(orc, InitiativeEntry::Total(3))?;
//! assert!(matches!(e.next()?, Turn::NewRound { round: 1, .. }));
//! let Turn::Moment { moment, lines, .. } = e.next()? else { unreachable!() };
//! assert_eq!((moment.display, lines[0].name.as_str()), (3, "Orc #1"));
//! // The GM rules the orc's next stab lands in tick 10.
//! e.declare(orc, "stab Cardiff", Declaration::new(3, 0).with_ready_time(7), None)?;
//! assert_eq!(e.tick_sheet()[1].display, 10);
//! e.undo()?; // a mistake: the declaration is gone again
//! assert_eq!(e.tick_sheet().len(), 1);
//! # Ok(())
//! # }
//! ```

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::dice::{RollSource, ScriptedRolls, SeededRolls};
use crate::error::{Error, Result};
use crate::timing::queue::EventId;
use crate::timing::{
    Act, ActorId, ActorTiming, Declaration, FreeActionResult, InitiativeEntry, Moment, Scheduler, Step, TimingSystem,
};

/// A combatant of an [`Encounter`], in the order added.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct CombatantId(pub u32);

/// An effect of an [`Encounter`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct EffectId(pub u32);

/// What a combatant (or each member of a group) is, as the timing rules see it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CombatantSpec {
    /// Name shown on the tick sheet.
    pub name: String,
    /// Side or party, for the GM's display (optional).
    #[serde(default)]
    pub side: Option<String>,
    /// Tick System initiative bonus and interval, FUZION REF and Combat Sense.
    #[serde(default)]
    pub timing: ActorTiming,
    /// What it is doing first.
    pub action: Declaration,
    /// A label for that action ("elven bow", "Spark").
    #[serde(default)]
    pub action_label: String,
}

impl CombatantSpec {
    /// A combatant with this name and first action, default traits.
    pub fn new(name: impl Into<String>, action: Declaration) -> CombatantSpec {
        CombatantSpec {
            name: name.into(),
            side: None,
            timing: ActorTiming::default(),
            action,
            action_label: String::new(),
        }
    }

    /// The same with a side.
    pub fn on_side(mut self, side: impl Into<String>) -> CombatantSpec {
        self.side = Some(side.into());
        self
    }

    /// The same with timing traits.
    pub fn with_timing(mut self, timing: ActorTiming) -> CombatantSpec {
        self.timing = timing;
        self
    }

    /// The same with an action label.
    pub fn labelled(mut self, label: impl Into<String>) -> CombatantSpec {
        self.action_label = label.into();
        self
    }
}

/// How long an effect lasts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Duration {
    /// This many ticks (seconds in Continuous timing) from now.
    Ticks(u64),
    /// Until the start of the round this many rounds on (Continuous timing:
    /// this many stopwatch laps, in ticks).
    Rounds(u32),
}

/// Whether a combatant is in the fight.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Fighting.
    Standing,
    /// Down (incapacitated, dead): takes no more actions.
    Down,
    /// Removed from the encounter (fled, or added by mistake).
    Removed,
}

/// A combatant as the tracker shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CombatantView {
    /// Its id.
    pub id: CombatantId,
    /// Its name.
    pub name: String,
    /// Its side, if given.
    pub side: Option<String>,
    /// The group's name, for a member of a group.
    pub group: Option<String>,
    /// In the fight or not.
    pub status: Status,
}

/// One line acting at a moment: a combatant, or the living members of a group.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActingLine {
    /// The line's name (the combatant's, or the group's).
    pub name: String,
    /// The combatants acting on it (a group's living members).
    pub members: Vec<CombatantId>,
    /// Whether an action lands (`true`) or a Tick System turn begins (`false`).
    pub lands: bool,
    /// The action's number in the round (Continuous: in the battle).
    pub nth: u32,
    /// The label of the action it carries out.
    pub action: String,
}

impl ActingLine {
    /// How a tick sheet shows it: the name, with "(turn)" for a Tick System
    /// turn that begins rather than an action that lands.
    pub fn sheet_label(&self) -> String {
        if self.lands {
            self.name.clone()
        } else {
            format!("{} (turn)", self.name)
        }
    }
}

/// An entry of the tick sheet: everything pending at one moment.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SheetLine {
    /// Absolute tick.
    pub tick: u64,
    /// Round (phase, exchange, stopwatch lap).
    pub round: u32,
    /// The tick as the system names it (see [`Moment::display`]).
    pub display: i64,
    /// Pass or block (see [`Moment::pass`]).
    pub pass: u32,
    /// Who acts then, in order.
    pub lines: Vec<ActingLine>,
    /// Effects that run out then.
    pub effects: Vec<String>,
}

/// An effect that ran out.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExpiredEffect {
    /// Its id.
    pub id: EffectId,
    /// Its name.
    pub name: String,
    /// Whom it was on, if anyone.
    pub target: Option<CombatantId>,
}

/// What [`Encounter::next`] hands the GM.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "turn", rename_all = "snake_case")]
pub enum Turn {
    /// A new round (phase, exchange) with its initiative rolled: the sheet
    /// shows who acts when. Initiative may still be corrected with
    /// [`Encounter::set_initiative`].
    NewRound {
        /// Its number.
        round: u32,
        /// The tick sheet of the round.
        sheet: Vec<SheetLine>,
        /// Effects that ran out as the round began.
        expired: Vec<ExpiredEffect>,
    },
    /// These act now, together.
    Moment {
        /// When.
        moment: Moment,
        /// Who, in order (the order actions were scheduled; within an
        /// Action Block, REF order).
        lines: Vec<ActingLine>,
        /// Effects that run out now.
        expired: Vec<ExpiredEffect>,
    },
    /// Nobody is left who can act.
    Over,
}

/// One entry of the encounter's log.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LogEntry {
    /// Round at the time.
    pub round: u32,
    /// Absolute tick at the time.
    pub tick: u64,
    /// What happened, in words.
    pub text: String,
}

impl fmt::Display for LogEntry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[round {} tick {}] {}", self.round, self.tick, self.text)
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Combatant {
    name: String,
    side: Option<String>,
    line: u32,
    status: Status,
}

/// A line on the sheet: one scheduler actor; one combatant or a group.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Line {
    name: String,
    members: Vec<u32>,
    group: bool,
    label: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Effect {
    name: String,
    target: Option<u32>,
    /// Timer event (tick durations).
    timer: Option<EventId>,
    /// Round at whose start it runs out (round durations).
    until_round: Option<u32>,
    active: bool,
}

/// Everything undo restores.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct State {
    scheduler: Scheduler,
    rng: SeededRolls,
    combatants: Vec<Combatant>,
    lines: Vec<Line>,
    effects: Vec<Effect>,
    /// The lines acting at the last moment, in declaration order.
    current: Vec<u32>,
    /// Length of the log when this state was current.
    log_len: usize,
    over: bool,
}

/// The snapshot format's version.
const SNAPSHOT_VERSION: u32 = 1;

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Snapshot {
    skirmish_encounter: u32,
    state: State,
    history: Vec<State>,
    log: Vec<LogEntry>,
}

/// A live encounter: see the [module docs](self).
#[derive(Debug, Clone, PartialEq)]
pub struct Encounter {
    state: State,
    history: Vec<State>,
    log: Vec<LogEntry>,
}

impl Encounter {
    /// A new encounter under `system`, rolling with a generator seeded by `seed`.
    pub fn new(system: TimingSystem, seed: u64) -> Result<Encounter> {
        Ok(Encounter {
            state: State {
                scheduler: Scheduler::try_new(system)?,
                rng: SeededRolls::new(seed),
                combatants: Vec::new(),
                lines: Vec::new(),
                effects: Vec::new(),
                current: Vec::new(),
                log_len: 0,
                over: false,
            },
            history: Vec::new(),
            log: Vec::new(),
        })
    }

    /// Runs `op` on a copy of the state; on success it becomes the state
    /// and the old one goes on the undo stack, on error nothing changes.
    fn mutate<T>(&mut self, op: impl FnOnce(&mut State, &mut Vec<LogEntry>) -> Result<T>) -> Result<T> {
        let mut next = self.state.clone();
        let log_len = self.log.len();
        match op(&mut next, &mut self.log) {
            Ok(v) => {
                next.log_len = self.log.len();
                self.history.push(std::mem::replace(&mut self.state, next));
                Ok(v)
            }
            Err(e) => {
                self.log.truncate(log_len);
                Err(e)
            }
        }
    }

    /// The timing system.
    pub fn system(&self) -> &TimingSystem {
        self.state.scheduler.system()
    }

    /// The current round (0 before the first).
    pub fn round(&self) -> u32 {
        self.state.scheduler.round()
    }

    /// The absolute tick of the last moment.
    pub fn now(&self) -> u64 {
        self.state.scheduler.now()
    }

    /// Adds one combatant. Before the first initiative it simply takes part;
    /// later it joins at the next chance its timing system gives.
    pub fn add_combatant(&mut self, spec: CombatantSpec) -> Result<CombatantId> {
        let ids = self.add_line(spec.name.clone(), vec![spec.name.clone()], false, spec)?;
        Ok(ids[0])
    }

    /// Adds a group of `count` identical combatants named "`name` 1",
    /// "`name` 2", ...: one line on the sheet, one initiative roll, members
    /// that fall one by one.
    pub fn add_group(&mut self, name: &str, count: u32, spec: CombatantSpec) -> Result<Vec<CombatantId>> {
        if !(1..=10_000).contains(&count) {
            return Err(Error::out_of_range("group.count", count, 1, 10_000));
        }
        let names = (1..=count).map(|i| format!("{name} {i}")).collect();
        self.add_line(name.to_owned(), names, true, spec)
    }

    fn add_line(
        &mut self,
        line_name: String,
        names: Vec<String>,
        group: bool,
        spec: CombatantSpec,
    ) -> Result<Vec<CombatantId>> {
        if line_name.trim().is_empty() {
            return Err(Error::invalid("name", "must not be empty"));
        }
        self.mutate(|s, log| {
            let actor = s.scheduler.add(spec.timing, spec.action)?;
            let first = s.combatants.len() as u32;
            let members: Vec<u32> = (first..first + names.len() as u32).collect();
            for n in &names {
                s.combatants.push(Combatant {
                    name: n.clone(),
                    side: spec.side.clone(),
                    line: actor.0,
                    status: Status::Standing,
                });
            }
            s.lines.push(Line {
                name: line_name.clone(),
                members: members.clone(),
                group,
                label: spec.action_label.clone(),
            });
            s.over = false;
            let what = if group {
                format!("group {line_name} ({} members)", names.len())
            } else {
                line_name
            };
            note(s, log, format!("{what} joins"));
            Ok(members.into_iter().map(CombatantId).collect())
        })
    }

    fn combatant(&self, id: CombatantId) -> Result<&Combatant> {
        self.state.combatants.get(id.0 as usize).ok_or_else(|| {
            Error::invalid(
                "combatant",
                format!("no combatant {} (there are {})", id.0, self.state.combatants.len()),
            )
        })
    }

    fn standing(&self, id: CombatantId) -> Result<ActorId> {
        let c = self.combatant(id)?;
        if c.status != Status::Standing {
            return Err(Error::invalid(
                "combatant",
                format!(
                    "{} is {}",
                    c.name,
                    if c.status == Status::Down { "down" } else { "removed" }
                ),
            ));
        }
        Ok(ActorId(c.line))
    }

    /// Every combatant.
    pub fn combatants(&self) -> Vec<CombatantView> {
        self.state
            .combatants
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let line = &self.state.lines[c.line as usize];
                CombatantView {
                    id: CombatantId(i as u32),
                    name: c.name.clone(),
                    side: c.side.clone(),
                    group: line.group.then(|| line.name.clone()),
                    status: c.status,
                }
            })
            .collect()
    }

    /// The combatant named `name` (case-insensitive).
    pub fn find(&self, name: &str) -> Result<CombatantId> {
        let wanted = name.trim().to_lowercase();
        self.state
            .combatants
            .iter()
            .position(|c| c.name.to_lowercase() == wanted)
            .map(|i| CombatantId(i as u32))
            .ok_or_else(|| {
                Error::unknown_name("combatant", name, self.state.combatants.iter().map(|c| c.name.as_str()))
            })
    }

    /// Marks a combatant down: its line acts no more once every member of
    /// it is down or removed (simultaneity: a combatant downed at a moment
    /// has already acted in it).
    pub fn down(&mut self, id: CombatantId) -> Result<()> {
        self.take_out(id, Status::Down)
    }

    /// Removes a combatant from the encounter (fled, or added by mistake).
    pub fn remove(&mut self, id: CombatantId) -> Result<()> {
        self.take_out(id, Status::Removed)
    }

    fn take_out(&mut self, id: CombatantId, status: Status) -> Result<()> {
        let actor = self.standing(id)?;
        self.mutate(|s, log| {
            s.combatants[id.0 as usize].status = status;
            let line = &s.lines[actor.index()];
            let left = line
                .members
                .iter()
                .filter(|&&m| s.combatants[m as usize].status == Status::Standing)
                .count();
            let name = s.combatants[id.0 as usize].name.clone();
            if left == 0 {
                s.scheduler.remove(actor)?;
            }
            let verb = if status == Status::Down {
                "is down"
            } else {
                "is removed"
            };
            note(s, log, format!("{name} {verb}"));
            Ok(())
        })
    }

    /// Sets a combatant's initiative (for a group: the group's): a roll
    /// typed in from the table, or the total. Right after a new round it
    /// corrects that round; otherwise it is used for the next roll.
    pub fn set_initiative(&mut self, id: CombatantId, entry: InitiativeEntry) -> Result<()> {
        let actor = self.standing(id)?;
        self.mutate(|s, log| {
            s.scheduler.set_initiative(actor, entry)?;
            let text = match entry {
                InitiativeEntry::Roll(r) => format!("initiative roll {r:+} entered"),
                InitiativeEntry::Total(t) => format!("initiative {t} entered"),
            };
            let name = s.lines[actor.index()].name.clone();
            note(s, log, format!("{name}: {text}"));
            Ok(())
        })
    }

    /// What happens next: a new round, the lines acting at the next moment
    /// (with the effects that run out then), or [`Turn::Over`]. An
    /// encounter with no combatants at all is an error.
    #[expect(
        clippy::should_implement_trait,
        reason = "the GM's \"next\": fallible and undoable, not an Iterator"
    )]
    pub fn next(&mut self) -> Result<Turn> {
        if self.state.combatants.is_empty() {
            return Err(Error::invalid(
                "encounter",
                "has no combatants yet: add some before asking who acts",
            ));
        }
        self.mutate(|s, log| {
            let mut acts = Vec::new();
            let mut rng = s.rng.clone();
            let step = s.scheduler.next(&mut rng, &mut acts)?;
            s.rng = rng;
            match step {
                None => {
                    if !s.over {
                        note(s, log, "nobody is left who can act".into());
                    }
                    s.over = true;
                    s.current.clear();
                    Ok(Turn::Over)
                }
                Some(Step::NewRound { round }) => {
                    s.current.clear();
                    let mut expired = Vec::new();
                    for (i, e) in s.effects.iter_mut().enumerate() {
                        if e.active && e.until_round.is_some_and(|r| r <= round) {
                            e.active = false;
                            expired.push(ExpiredEffect {
                                id: EffectId(i as u32),
                                name: e.name.clone(),
                                target: e.target.map(CombatantId),
                            });
                        }
                    }
                    let sheet = sheet_of(s);
                    let inits: Vec<String> = s
                        .lines
                        .iter()
                        .enumerate()
                        .filter(|(i, _)| s.scheduler.is_in(ActorId(*i as u32)))
                        .map(|(i, l)| format!("{} {}", l.name, s.scheduler.initiative(ActorId(i as u32)).unwrap_or(0)))
                        .collect();
                    let text = match s.scheduler.system() {
                        TimingSystem::Simultaneous => format!("exchange {round} begins"),
                        TimingSystem::Continuous(_) => format!("the battle begins; initiative: {}", inits.join(", ")),
                        TimingSystem::ActionBlocks(_) => {
                            format!("phase {round} begins; actions this phase: {}", inits.join(", "))
                        }
                        TimingSystem::TickSystem(_) => format!(
                            "round {round} begins, {} ticks long; initiative: {}",
                            sheet.first().map_or(0, |l| l.display),
                            inits.join(", ")
                        ),
                        _ => format!("round {round} begins; initiative: {}", inits.join(", ")),
                    };
                    note(s, log, text);
                    for x in &expired {
                        note(s, log, format!("{} runs out", x.name));
                    }
                    Ok(Turn::NewRound { round, sheet, expired })
                }
                Some(Step::Moment(moment)) => {
                    let mut lines = Vec::new();
                    let mut expired = Vec::new();
                    s.current.clear();
                    for act in acts {
                        match act {
                            Act::Timer { id } => {
                                if let Some(e) = s.effects.get_mut(id as usize)
                                    && e.active
                                {
                                    e.active = false;
                                    expired.push(ExpiredEffect {
                                        id: EffectId(id),
                                        name: e.name.clone(),
                                        target: e.target.map(CombatantId),
                                    });
                                }
                            }
                            Act::Action { actor, nth } => {
                                s.current.push(actor.0);
                                lines.push(acting_line(s, actor, true, nth));
                            }
                            Act::Turn { actor } => {
                                s.current.push(actor.0);
                                lines.push(acting_line(s, actor, false, 0));
                            }
                        }
                    }
                    let names: Vec<String> = lines
                        .iter()
                        .map(|l| {
                            if l.lands {
                                l.name.clone()
                            } else {
                                format!("{} (turn begins)", l.name)
                            }
                        })
                        .collect();
                    let text = if names.is_empty() {
                        format!("{} (effects only)", label_of(s.scheduler.system(), &moment))
                    } else {
                        format!(
                            "{}: {} {}",
                            label_of(s.scheduler.system(), &moment),
                            names.join(", "),
                            if names.len() == 1 { "acts" } else { "act" }
                        )
                    };
                    note(s, log, text);
                    for x in &expired {
                        note(s, log, format!("{} runs out", x.name));
                    }
                    Ok(Turn::Moment { moment, lines, expired })
                }
            }
        })
    }

    /// Declares a combatant's (its line's) next action, labelled `label`.
    /// `roll` is a 2dF Ready Time roll typed in from the table (Continuous,
    /// Graduated); without it the encounter rolls. See
    /// [`Scheduler::declare`] for when it lands: a follow-up after landing,
    /// a change of mind while an action is on the way (never retroactive),
    /// or the next round's action. Returns the absolute tick it lands on,
    /// if it was scheduled.
    pub fn declare(
        &mut self,
        id: CombatantId,
        label: &str,
        action: Declaration,
        roll: Option<i32>,
    ) -> Result<Option<u64>> {
        let actor = self.standing(id)?;
        self.mutate(|s, log| {
            let changing =
                !s.scheduler.is_awaiting(actor) && s.scheduler.pending().iter().any(|p| p.act.actor() == Some(actor));
            let tick = with_rolls(s, roll, |sch, r| sch.declare(actor, action, r))?;
            s.lines[actor.index()].label = label.to_owned();
            let name = s.lines[actor.index()].name.clone();
            let verb = if changing { "changes to" } else { "declares" };
            let when = match tick {
                Some(t) => format!(" landing at {}", describe_tick(s, t)),
                None => String::new(),
            };
            note(
                s,
                log,
                format!(
                    "{name} {verb} {}{when}",
                    if label.is_empty() { "an action" } else { label }
                ),
            );
            Ok(tick)
        })
    }

    /// Cancels a combatant's next action (called off, lost). See
    /// [`Scheduler::cancel`]. Returns whether anything was pending.
    pub fn cancel(&mut self, id: CombatantId) -> Result<bool> {
        let actor = self.standing(id)?;
        self.mutate(|s, log| {
            let done = s.scheduler.cancel(actor)?;
            if done.is_some() {
                let name = s.lines[actor.index()].name.clone();
                note(s, log, format!("{name}'s action is cancelled"));
            }
            Ok(done.is_some())
        })
    }

    /// The combatant was hit before its disruptible action (a spell)
    /// landed: the action is lost. Returns whether it was disrupted.
    pub fn disrupt(&mut self, id: CombatantId) -> Result<bool> {
        let actor = self.standing(id)?;
        self.mutate(|s, log| {
            let done = s.scheduler.disrupt(actor)?;
            if done {
                let name = s.lines[actor.index()].name.clone();
                let label = s.lines[actor.index()].label.clone();
                note(
                    s,
                    log,
                    format!(
                        "{name}'s {} is disrupted",
                        if label.is_empty() { "action" } else { &label }
                    ),
                );
            }
            Ok(done)
        })
    }

    /// Moves a combatant's next action `ticks` later (see [`Scheduler::delay`]).
    pub fn delay(&mut self, id: CombatantId, ticks: u32) -> Result<u64> {
        let actor = self.standing(id)?;
        self.mutate(|s, log| {
            let t = s.scheduler.delay(actor, ticks)?;
            let name = s.lines[actor.index()].name.clone();
            note(
                s,
                log,
                format!("{name} delays {ticks} tick(s), to {}", describe_tick(s, t)),
            );
            Ok(t)
        })
    }

    /// Action Blocks: the combatant holds its declaration to the end of the
    /// current block's sequence. Returns the new order of the block's lines.
    pub fn hold(&mut self, id: CombatantId) -> Result<Vec<String>> {
        let actor = self.standing(id)?;
        if !matches!(self.system(), TimingSystem::ActionBlocks(_)) {
            return Err(Error::invalid(
                "hold",
                "holding to the end of the block is an Action Blocks rule",
            ));
        }
        if !self.state.current.contains(&actor.0) {
            return Err(Error::invalid(
                "hold",
                "only a combatant acting in the current block can hold",
            ));
        }
        self.mutate(|s, log| {
            s.current.retain(|&a| a != actor.0);
            s.current.push(actor.0);
            let name = s.lines[actor.index()].name.clone();
            note(s, log, format!("{name} holds to the end of the block"));
            Ok(s.current.iter().map(|&a| s.lines[a as usize].name.clone()).collect())
        })
    }

    /// Tick System: a free action (defending by default) now. See
    /// [`Scheduler::free_action`].
    pub fn free_action(&mut self, id: CombatantId, ticks: Option<u32>, defending: bool) -> Result<FreeActionResult> {
        let actor = self.standing(id)?;
        self.mutate(|s, log| {
            let r = s.scheduler.free_action(actor, ticks, defending)?;
            let name = s.lines[actor.index()].name.clone();
            let mut text = format!(
                "{name} {} ({} tick(s))",
                if defending { "defends" } else { "takes a free action" },
                r.ticks
            );
            if r.cancelled_action {
                text += ", cancelling the action in progress";
            }
            if r.pushed {
                text += ", pushing the next turn";
            }
            note(s, log, text);
            Ok(r)
        })
    }

    /// Tick System: something tries to stop the combatant's non-combat
    /// action; `concentration_kept` is the result of its Resist
    /// Concentration Loss roll. Returns whether the action was lost.
    pub fn interrupt(&mut self, id: CombatantId, concentration_kept: bool) -> Result<bool> {
        let actor = self.standing(id)?;
        self.mutate(|s, log| {
            let lost = s.scheduler.interrupt(actor, concentration_kept)?;
            let name = s.lines[actor.index()].name.clone();
            note(
                s,
                log,
                if lost {
                    format!("{name} is interrupted and loses the action")
                } else {
                    format!("{name} keeps concentrating")
                },
            );
            Ok(lost)
        })
    }

    /// Tick System: a prepared combatant takes its held turn now; it then
    /// declares as at any turn.
    pub fn take_held_turn(&mut self, id: CombatantId) -> Result<ActingLine> {
        let actor = self.standing(id)?;
        self.mutate(|s, log| {
            s.scheduler.take_held_turn(actor)?;
            s.current.push(actor.0);
            let line = acting_line(s, actor, false, 0);
            note(s, log, format!("{} takes the held turn", line.name));
            Ok(line)
        })
    }

    /// The combatant's (its line's) current declaration and its label.
    pub fn declaration(&self, id: CombatantId) -> Result<(String, Declaration)> {
        let c = self.combatant(id)?;
        let line = &self.state.lines[c.line as usize];
        Ok((line.label.clone(), self.state.scheduler.declaration(ActorId(c.line))?))
    }

    /// The first living member of each line awaiting a declaration.
    pub fn awaiting_combatants(&self) -> Vec<CombatantId> {
        self.state
            .scheduler
            .awaiting()
            .into_iter()
            .filter_map(|a| {
                self.state.lines[a.index()]
                    .members
                    .iter()
                    .find(|&&m| self.state.combatants[m as usize].status == Status::Standing)
                    .map(|&m| CombatantId(m))
            })
            .collect()
    }

    /// Tick System: the bonus to the combatant's defensive rolls (+4 while prepared).
    pub fn defense_bonus(&self, id: CombatantId) -> Result<i32> {
        let c = self.combatant(id)?;
        Ok(self.state.scheduler.defense_bonus(ActorId(c.line)))
    }

    /// Adds an effect (a spell, a gas cloud) that runs out after `duration`;
    /// [`next`](Self::next) reports it when it does.
    pub fn add_effect(&mut self, name: &str, target: Option<CombatantId>, duration: Duration) -> Result<EffectId> {
        if let Some(t) = target {
            self.combatant(t)?;
        }
        self.mutate(|s, log| {
            let id = s.effects.len() as u32;
            let (timer, until_round) = match (duration, s.scheduler.system()) {
                (Duration::Ticks(t), _) => (Some(s.scheduler.set_timer(id, t)?), None),
                (Duration::Rounds(r), TimingSystem::Continuous(c)) => {
                    (Some(s.scheduler.set_timer(id, u64::from(r) * u64::from(c.lap))?), None)
                }
                (Duration::Rounds(r), _) => {
                    if r == 0 {
                        return Err(Error::out_of_range("duration.rounds", 0, 1, u32::MAX));
                    }
                    (None, Some(s.scheduler.round().saturating_add(r)))
                }
            };
            s.effects.push(Effect {
                name: name.to_owned(),
                target: target.map(|t| t.0),
                timer,
                until_round,
                active: true,
            });
            note(s, log, format!("effect {name} begins"));
            Ok(EffectId(id))
        })
    }

    /// Ends an effect early; returns whether it was still active.
    pub fn end_effect(&mut self, id: EffectId) -> Result<bool> {
        if self.state.effects.get(id.0 as usize).is_none() {
            return Err(Error::invalid("effect", format!("no effect {}", id.0)));
        }
        self.mutate(|s, log| {
            let e = &mut s.effects[id.0 as usize];
            let was = e.active;
            e.active = false;
            if let Some(t) = e.timer {
                s.scheduler.cancel_timer(t);
            }
            if was {
                let name = s.effects[id.0 as usize].name.clone();
                note(s, log, format!("effect {name} ends"));
            }
            Ok(was)
        })
    }

    /// The tick sheet: everything pending, grouped by moment, in order.
    /// Lines that have acted and not yet declared their next action are
    /// listed by [`awaiting`](Self::awaiting).
    pub fn tick_sheet(&self) -> Vec<SheetLine> {
        sheet_of(&self.state)
    }

    /// Names of the lines that landed and have not declared what follows
    /// (they do the same again at the next [`next`](Self::next)).
    pub fn awaiting(&self) -> Vec<String> {
        self.state
            .scheduler
            .awaiting()
            .into_iter()
            .map(|a| self.state.lines[a.index()].name.clone())
            .collect()
    }

    /// The event log, oldest first.
    pub fn log(&self) -> &[LogEntry] {
        &self.log
    }

    /// Undoes the last operation (including a [`next`](Self::next)).
    pub fn undo(&mut self) -> Result<()> {
        let prev = self
            .history
            .pop()
            .ok_or_else(|| Error::invalid("undo", "nothing to undo"))?;
        self.state = prev;
        self.log.truncate(self.state.log_len);
        Ok(())
    }

    /// How many operations can be undone.
    pub fn undo_depth(&self) -> usize {
        self.history.len()
    }

    /// The whole encounter as JSON: state, undo history, log, generator.
    pub fn snapshot(&self) -> Result<String> {
        let snap = SnapshotRef {
            skirmish_encounter: SNAPSHOT_VERSION,
            state: &self.state,
            history: &self.history,
            log: &self.log,
        };
        serde_json::to_string(&snap).map_err(|e| Error::invalid("snapshot", e.to_string()))
    }

    /// An encounter from a [`snapshot`](Self::snapshot); it continues
    /// exactly as the saved one would have. Corrupt or inconsistent JSON is
    /// an error naming what is wrong.
    pub fn restore(json: &str) -> Result<Encounter> {
        let snap: Snapshot = serde_json::from_str(json).map_err(|e| Error::invalid("snapshot", e.to_string()))?;
        if snap.skirmish_encounter != SNAPSHOT_VERSION {
            return Err(Error::invalid(
                "snapshot.skirmish_encounter",
                format!("version {} is not {SNAPSHOT_VERSION}", snap.skirmish_encounter),
            ));
        }
        for (i, st) in std::iter::once(&snap.state).chain(&snap.history).enumerate() {
            check_state(st).map_err(|e| e.in_field(&format!("snapshot.state[{i}]")))?;
            if st.log_len > snap.log.len() {
                return Err(Error::invalid("snapshot.log", "shorter than a saved state says"));
            }
        }
        Ok(Encounter {
            state: snap.state,
            history: snap.history,
            log: snap.log,
        })
    }
}

#[derive(Serialize)]
struct SnapshotRef<'a> {
    skirmish_encounter: u32,
    state: &'a State,
    history: &'a [State],
    log: &'a [LogEntry],
}

fn check_state(s: &State) -> Result<()> {
    s.scheduler.validate()?;
    if s.lines.len() != s.scheduler.len() {
        return Err(Error::invalid("lines", "do not match the scheduler's actors"));
    }
    for (i, c) in s.combatants.iter().enumerate() {
        let Some(line) = s.lines.get(c.line as usize) else {
            return Err(Error::invalid(format!("combatants[{i}].line"), "no such line"));
        };
        if !line.members.contains(&(i as u32)) {
            return Err(Error::invalid(format!("combatants[{i}].line"), "line does not list it"));
        }
    }
    for (i, l) in s.lines.iter().enumerate() {
        if l.members.is_empty() || l.members.iter().any(|&m| m as usize >= s.combatants.len()) {
            return Err(Error::invalid(
                format!("lines[{i}].members"),
                "empty or unknown members",
            ));
        }
    }
    for &a in &s.current {
        if a as usize >= s.lines.len() {
            return Err(Error::invalid("current", "unknown line"));
        }
    }
    for (i, e) in s.effects.iter().enumerate() {
        if e.target.is_some_and(|t| t as usize >= s.combatants.len()) {
            return Err(Error::invalid(format!("effects[{i}].target"), "unknown combatant"));
        }
    }
    Ok(())
}

fn note(s: &State, log: &mut Vec<LogEntry>, text: String) {
    log.push(LogEntry {
        round: s.scheduler.round(),
        tick: s.scheduler.now(),
        text,
    });
}

/// Runs `f` with the table's roll if one was typed in, else the generator.
fn with_rolls<T>(
    s: &mut State,
    roll: Option<i32>,
    f: impl FnOnce(&mut Scheduler, &mut dyn RollSource) -> Result<T>,
) -> Result<T> {
    match roll {
        Some(r) => {
            let mut table = ScriptedRolls::new([r]);
            f(&mut s.scheduler, &mut table)
        }
        None => {
            let mut rng = s.rng.clone();
            let v = f(&mut s.scheduler, &mut rng)?;
            s.rng = rng;
            Ok(v)
        }
    }
}

fn acting_line(s: &State, actor: ActorId, lands: bool, nth: u32) -> ActingLine {
    let line = &s.lines[actor.index()];
    ActingLine {
        name: line.name.clone(),
        members: line
            .members
            .iter()
            .filter(|&&m| s.combatants[m as usize].status == Status::Standing)
            .map(|&m| CombatantId(m))
            .collect(),
        lands,
        nth,
        action: line.label.clone(),
    }
}

fn sheet_of(s: &State) -> Vec<SheetLine> {
    let mut out: Vec<SheetLine> = Vec::new();
    for p in s.scheduler.pending() {
        if out.last().is_none_or(|l| l.tick != p.at.tick) {
            out.push(SheetLine {
                tick: p.at.tick,
                round: p.at.round,
                display: p.at.display,
                pass: p.at.pass,
                lines: Vec::new(),
                effects: Vec::new(),
            });
        }
        let Some(entry) = out.last_mut() else { continue };
        match p.act {
            Act::Action { actor, nth } => entry.lines.push(acting_line(s, actor, true, nth)),
            Act::Turn { actor } => entry.lines.push(acting_line(s, actor, false, 0)),
            Act::Timer { id } => {
                if let Some(e) = s.effects.get(id as usize).filter(|e| e.active) {
                    entry.effects.push(e.name.clone());
                }
            }
        }
    }
    out.retain(|l| !l.lines.is_empty() || !l.effects.is_empty());
    out
}

fn label_of(system: &TimingSystem, m: &Moment) -> String {
    match system {
        TimingSystem::Simultaneous => format!("exchange {}", m.display),
        TimingSystem::SimpleRounds => format!("round {} pass {} initiative {}", m.round, m.pass, m.display),
        TimingSystem::GraduatedRounds(_) if m.pass > 0 => {
            format!(
                "round {} end of round pass {} initiative {}",
                m.round, m.pass, m.display
            )
        }
        TimingSystem::GraduatedRounds(_) => format!("round {} tick {}", m.round, m.display),
        TimingSystem::Continuous(_) => format!("tick {}", m.display),
        TimingSystem::TickSystem(_) => format!("round {} tick {}", m.round, m.display),
        TimingSystem::ActionBlocks(_) => format!("phase {} block {}", m.round, m.display),
    }
}

fn describe_tick(s: &State, tick: u64) -> String {
    s.scheduler
        .pending()
        .into_iter()
        .find(|p| p.at.tick == tick)
        .map(|p| label_of(s.scheduler.system(), &p.at))
        .unwrap_or_else(|| format!("tick {tick}"))
}
