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

mod continuation;
mod error;
mod snapshot;
mod strike;
mod turns;
mod view;

use std::collections::VecDeque;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::damage::{Damage, DamageConfig, DamageModel, DamageState};
use crate::dice::{RollSource, ScriptedRolls, SeededRolls};
use crate::fighter::{Fighter, FighterProfile, Striking};
use crate::timing::queue::EventId;
use crate::timing::{
    Act, ActorId, ActorTiming, Declaration, FreeActionResult, InitiativeEntry, Moment, Scheduler, Step, TimingSystem,
};

pub use continuation::{Continuation, ContinuingFighter};
pub use error::{ErrorKind, Result, TrackerError};
pub use snapshot::{SNAPSHOT_HISTORY, SNAPSHOT_VERSION};
pub use strike::{Part, StrikeDice, StrikeOptions, StrikeReport, StrikeResult, WoundOverride};
pub use view::{CombatantState, EncounterView, ViewFor};

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
    /// Combat stats, if the tracker resolves its strikes (see
    /// [`Encounter::add_fighter`]); without them it is timing-only.
    #[serde(default)]
    pub stats: Option<Fighter>,
    /// Hidden from the players' view until revealed (an ambusher not yet seen).
    #[serde(default)]
    pub hidden: bool,
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
            stats: None,
            hidden: false,
        }
    }

    /// The same, hidden from the players until revealed.
    pub fn hidden(mut self) -> CombatantSpec {
        self.hidden = true;
        self
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
    /// Hidden from the players' view.
    pub hidden: bool,
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

/// A line's current declaration, as [`Encounter::declaration`] gives it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LineDeclaration {
    /// The action's label ("elven bow", "Spark").
    pub label: String,
    /// What it is: Time Taken, speed bonus, rate of fire, kind, GM timing.
    pub declaration: Declaration,
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
#[serde(deny_unknown_fields)]
struct Combatant {
    name: String,
    side: Option<String>,
    line: u32,
    status: Status,
    #[serde(default)]
    hidden: bool,
    /// What it has taken under the encounter's damage model (with stats).
    #[serde(default)]
    damage: Option<DamageState>,
    /// The wound penalty its rolls take at the current moment: the one it
    /// had when the moment began (simultaneity, RULES.md §1).
    #[serde(default)]
    moment_penalty: i32,
    /// The moment it went down at (it still strikes in that moment).
    #[serde(default)]
    down_at_moment: Option<u64>,
}

/// A line on the sheet: one scheduler actor; one combatant or a group.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Line {
    name: String,
    members: Vec<u32>,
    group: bool,
    label: String,
    /// The combat stats its members share (None: timing only): one copy
    /// per line, however large the group.
    #[serde(default)]
    stats: Option<Fighter>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Effect {
    name: String,
    target: Option<u32>,
    /// Timer event (tick durations).
    timer: Option<EventId>,
    /// Round at whose start it runs out (round durations).
    until_round: Option<u32>,
    active: bool,
}

/// The rules an encounter's strikes are resolved by.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EncounterRules {
    /// The striking system and its options (Full Contact by default).
    #[serde(default)]
    pub striking: Striking,
    /// The damage model (the FUDGE wound track by default).
    #[serde(default)]
    pub damage: DamageConfig,
}

/// Everything undo restores.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct State {
    #[serde(with = "snapshot::scheduler_form")]
    scheduler: Scheduler,
    rng: SeededRolls,
    rules: EncounterRules,
    #[serde(skip)]
    model: Damage,
    /// Steps of [`Encounter::next`] taken so far (a new round, a moment,
    /// the end): a combatant taken out at the current step, if it is a
    /// moment, still strikes in it.
    moments: u64,
    /// The side whose combatants the players' view shows in full.
    party: Option<String>,
    combatants: Vec<Combatant>,
    lines: Vec<Line>,
    effects: Vec<Effect>,
    /// The lines acting at the last moment, in declaration order.
    current: Vec<u32>,
    /// Length of the log (entries ever written) when this state was current.
    log_len: u64,
    over: bool,
    /// Its snapshot form once written (see [`snapshot::Memo`]).
    #[serde(skip)]
    json: snapshot::Memo,
}

/// The event log: the newest [`LOG_LIMIT`] entries, numbered from the
/// encounter's first.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Log {
    /// The number of the oldest entry kept.
    first: u64,
    entries: VecDeque<LogEntry>,
}

impl Log {
    fn len(&self) -> u64 {
        self.first.saturating_add(self.entries.len() as u64)
    }

    fn push(&mut self, entry: LogEntry) {
        if self.entries.len() >= LOG_LIMIT {
            self.entries.pop_front();
            self.first = self.first.saturating_add(1);
        }
        self.entries.push_back(entry);
    }

    /// Keeps the entries numbered below `len`; returns those taken off.
    fn truncate(&mut self, len: u64) -> Vec<LogEntry> {
        if len <= self.first {
            self.first = len;
            self.entries.drain(..).collect()
        } else {
            let keep = usize::try_from(len - self.first)
                .unwrap_or(usize::MAX)
                .min(self.entries.len());
            self.entries.drain(keep..).collect()
        }
    }
}

/// How many log entries an encounter keeps (the oldest go first):
/// bounded memory however long the fight.
pub const LOG_LIMIT: usize = 2_000;

/// Undo steps an encounter keeps unless told otherwise: enough to walk
/// back a few rounds at the table, little memory on a phone.
pub const DEFAULT_UNDO_LIMIT: u32 = 100;

/// The most undo steps an encounter may be asked to keep.
pub const MAX_UNDO_LIMIT: u32 = 10_000;

/// Most combatants one encounter may have.
pub const MAX_COMBATANTS: u32 = 100_000;

/// Most members of one group.
pub const MAX_GROUP: u32 = 10_000;

/// A live encounter: see the [module docs](self).
///
/// Two encounters are equal when their state, undo history, log and undo
/// limit are; what could be redone is not compared (a snapshot does not
/// keep it either).
#[derive(Debug, Clone)]
pub struct Encounter {
    state: State,
    /// Undo steps, oldest first, at most `undo_limit`.
    history: VecDeque<State>,
    /// Redo steps, the next last.
    /// Redo steps, the next last, with the log lines undo took off.
    redo: Vec<(State, Vec<LogEntry>)>,
    undo_limit: u32,
    log: Log,
}

impl PartialEq for Encounter {
    fn eq(&self, other: &Self) -> bool {
        self.state == other.state
            && self.history == other.history
            && self.undo_limit == other.undo_limit
            && self.log == other.log
    }
}

impl Encounter {
    /// A new encounter under `system`, rolling with a generator seeded by
    /// `seed`, with the default rules (Full Contact, FUDGE wound track).
    pub fn new(system: TimingSystem, seed: u64) -> Result<Encounter> {
        Encounter::with_rules(system, EncounterRules::default(), seed)
    }

    /// A new encounter under `system` and `rules`, rolling with a generator
    /// seeded by `seed`.
    pub fn with_rules(system: TimingSystem, rules: EncounterRules, seed: u64) -> Result<Encounter> {
        let model = rules
            .damage
            .build()
            .map_err(|e| TrackerError::from(e.in_field("rules.damage")))?;
        Ok(Encounter {
            state: State {
                scheduler: Scheduler::try_new(system)?,
                rng: SeededRolls::new(seed),
                rules,
                model,
                moments: 0,
                party: None,
                combatants: Vec::new(),
                lines: Vec::new(),
                effects: Vec::new(),
                current: Vec::new(),
                log_len: 0,
                over: false,
                json: snapshot::Memo::default(),
            },
            history: VecDeque::new(),
            redo: Vec::new(),
            undo_limit: DEFAULT_UNDO_LIMIT,
            log: Log::default(),
        })
    }

    /// Runs `op` on a copy of the state; on success it becomes the state
    /// and the old one goes on the undo stack (the oldest step goes once
    /// the stack holds [`undo_limit`](Self::undo_limit)), on error nothing
    /// changes. A panic inside `op` (a bug) is caught and becomes an
    /// [`ErrorKind::Internal`] error: it only ever touched the copy, so
    /// the encounter is as it was before the call.
    fn mutate<T>(&mut self, op: impl FnOnce(&mut State, &mut Vec<LogEntry>) -> Result<T>) -> Result<T> {
        let mut next = self.state.clone();
        let mut written = Vec::new();
        let v = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| op(&mut next, &mut written)))
            .map_err(|payload| TrackerError::internal(payload.as_ref()))??;
        for entry in written {
            self.log.push(entry);
        }
        next.log_len = self.log.len();
        let old = std::mem::replace(&mut self.state, next);
        self.push_history(old);
        self.redo.clear();
        Ok(v)
    }

    fn push_history(&mut self, old: State) {
        if self.undo_limit == 0 {
            return;
        }
        while self.history.len() >= self.undo_limit as usize {
            self.history.pop_front();
        }
        self.history.push_back(old);
    }

    /// The rules strikes are resolved by.
    pub fn rules(&self) -> &EncounterRules {
        &self.state.rules
    }

    /// How many undo steps are kept ([`DEFAULT_UNDO_LIMIT`] unless set).
    pub fn undo_limit(&self) -> u32 {
        self.undo_limit
    }

    /// Keeps at most `limit` undo steps (0..=[`MAX_UNDO_LIMIT`]; 0 turns
    /// undo off); the oldest go first. Not itself undoable.
    pub fn set_undo_limit(&mut self, limit: u32) -> Result<()> {
        if limit > MAX_UNDO_LIMIT {
            return Err(TrackerError::invalid(
                "undo_limit",
                format!("{limit} is outside 0..={MAX_UNDO_LIMIT}"),
            ));
        }
        self.undo_limit = limit;
        while self.history.len() > limit as usize {
            self.history.pop_front();
        }
        Ok(())
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
        if !(1..=MAX_GROUP).contains(&count) {
            return Err(TrackerError::invalid(
                "group.count",
                format!("{count} is outside 1..={MAX_GROUP}"),
            ));
        }
        let names = (1..=count).map(|i| format!("{name} {i}")).collect();
        self.add_line(name.to_owned(), names, true, spec)
    }

    /// Adds a fighter with combat stats on `side`: a combatant, or a group
    /// of `profile.count` members (one line on the sheet, one initiative
    /// roll). The profile is resolved under this encounter's timing and
    /// striking rules (weapon and armor by table name), the same way a
    /// scenario's group is; its first action is its weapon's. Its strikes
    /// are then resolved by [`strike`](Self::strike).
    pub fn add_fighter(&mut self, side: &str, profile: &FighterProfile) -> Result<Vec<CombatantId>> {
        let fighter = profile
            .resolve(self.state.scheduler.system(), &self.state.rules.striking)
            .map_err(|e| TrackerError::from(e.in_field("profile")))?;
        let count = u32::try_from(profile.count)
            .ok()
            .filter(|c| (1..=MAX_GROUP).contains(c))
            .ok_or_else(|| {
                TrackerError::invalid("profile.count", format!("{} is outside 1..={MAX_GROUP}", profile.count))
            })?;
        let mut spec = CombatantSpec::new(profile.name.clone(), fighter.action).on_side(side);
        spec.timing = fighter.timing;
        spec.action_label = fighter.weapon.clone();
        spec.stats = Some(fighter);
        if count == 1 {
            self.add_combatant(spec).map(|id| vec![id])
        } else {
            let name = profile.name.clone();
            self.add_group(&name, count, spec)
        }
    }

    fn add_line(
        &mut self,
        line_name: String,
        names: Vec<String>,
        group: bool,
        spec: CombatantSpec,
    ) -> Result<Vec<CombatantId>> {
        if line_name.trim().is_empty() {
            return Err(TrackerError::invalid("name", "must not be empty"));
        }
        let total = self.state.combatants.len() as u64 + names.len() as u64;
        if total > u64::from(MAX_COMBATANTS) {
            return Err(TrackerError::invalid(
                "combatants",
                format!("{total} combatants would pass the limit of {MAX_COMBATANTS}"),
            ));
        }
        self.mutate(|s, log| {
            let actor = s.scheduler.add(spec.timing, spec.action)?;
            let first = s.combatants.len() as u32;
            let members: Vec<u32> = (first..first + names.len() as u32).collect();
            let damage = spec.stats.as_ref().map(|f| fresh_damage(&s.model, f));
            for n in &names {
                s.combatants.push(Combatant {
                    name: n.clone(),
                    side: spec.side.clone(),
                    line: actor.0,
                    status: Status::Standing,
                    hidden: spec.hidden,
                    damage,
                    moment_penalty: 0,
                    down_at_moment: None,
                });
            }
            s.lines.push(Line {
                name: line_name.clone(),
                members: members.clone(),
                group,
                label: spec.action_label.clone(),
                stats: spec.stats.clone(),
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
            TrackerError::not_found(
                "combatant",
                format!("no combatant {} (there are {})", id.0, self.state.combatants.len()),
            )
        })
    }

    fn standing(&self, id: CombatantId) -> Result<ActorId> {
        let c = self.combatant(id)?;
        if c.status != Status::Standing {
            return Err(TrackerError::not_now(
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
                    hidden: c.hidden,
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
                let e = crate::Error::unknown_name(
                    "combatant",
                    name,
                    self.state.combatants.iter().map(|c| c.name.as_str()),
                );
                TrackerError::not_found("combatant", e.to_string())
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
        self.standing(id)?;
        self.mutate(|s, log| strike::take_out_in(s, log, id, status))
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

    /// The event log entries kept (the newest [`LOG_LIMIT`]), oldest first.
    pub fn log(&self) -> Vec<LogEntry> {
        self.log.entries.iter().cloned().collect()
    }

    /// How many log entries were ever written (the next one's number).
    pub fn log_len(&self) -> u64 {
        self.log.len()
    }

    /// The log entries numbered `n` and on, oldest first (those still kept:
    /// an app that polls with the last length it saw gets what is new).
    pub fn log_since(&self, n: u64) -> Vec<LogEntry> {
        let skip = usize::try_from(n.saturating_sub(self.log.first)).unwrap_or(usize::MAX);
        self.log.entries.iter().skip(skip).cloned().collect()
    }

    /// Undoes the last operation (including a [`next`](Self::next)).
    pub fn undo(&mut self) -> Result<()> {
        let prev = self
            .history
            .pop_back()
            .ok_or_else(|| TrackerError::new(ErrorKind::NothingToUndo, None, "nothing to undo"))?;
        let undone = std::mem::replace(&mut self.state, prev);
        let lines = self.log.truncate(self.state.log_len);
        self.redo.push((undone, lines));
        Ok(())
    }

    /// Does again the last operation undone, exactly (the same rolls).
    /// Any new operation clears what could be redone.
    pub fn redo(&mut self) -> Result<()> {
        let (next, lines) = self
            .redo
            .pop()
            .ok_or_else(|| TrackerError::new(ErrorKind::NothingToUndo, None, "nothing to redo"))?;
        let old = std::mem::replace(&mut self.state, next);
        self.push_history(old);
        for line in lines {
            self.log.push(line);
        }
        // An undo that went below the oldest kept line took every kept line
        // with its step; number what came back so the log ends where the
        // state says it does.
        let want = self.state.log_len;
        if self.log.len() != want {
            let kept = (self.log.entries.len() as u64).min(want);
            while self.log.entries.len() as u64 > kept {
                self.log.entries.pop_front();
            }
            self.log.first = want - kept;
        }
        Ok(())
    }

    /// How many operations can be undone.
    pub fn undo_depth(&self) -> u32 {
        self.history.len() as u32
    }

    /// How many undone operations can be redone.
    pub fn redo_depth(&self) -> u32 {
        self.redo.len() as u32
    }
}

/// The combat stats of combatant `c` (its line's), if any.
fn stats_of(s: &State, c: usize) -> Option<&Fighter> {
    s.combatants
        .get(c)
        .and_then(|c| s.lines.get(c.line as usize))
        .and_then(|l| l.stats.as_ref())
}

/// A fighter's damage state before any blow: the model's fresh state, with
/// the fighter's own hit points where it has them.
fn fresh_damage(model: &Damage, fighter: &Fighter) -> DamageState {
    match (model, fighter.hit_points) {
        (Damage::HitPoints(_), Some(hp)) => DamageState::HitPoints(crate::damage::HitPointState::new(hp)),
        _ => model.fresh(),
    }
}

/// Checks that `state` could be `fighter`'s under `model` (its own hit
/// points may exceed the model's `max_hp`).
fn validate_damage(model: &Damage, fighter: &Fighter, state: &DamageState) -> crate::Result<()> {
    match (model, fighter.hit_points, state) {
        (Damage::HitPoints(_), Some(max), DamageState::HitPoints(h)) => {
            if h.hp() > max {
                Err(crate::Error::out_of_range("hp", h.hp(), i32::MIN, max))
            } else {
                Ok(())
            }
        }
        _ => model.validate_state(state),
    }
}

fn note(s: &State, log: &mut Vec<LogEntry>, text: String) {
    log.push(LogEntry {
        round: s.scheduler.round(),
        tick: s.scheduler.now(),
        text,
    });
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

#[cfg(test)]
mod panic_safety {
    //! A panic inside an operation is a bug; these check that it is caught
    //! and leaves the encounter exactly as it was, through the one door
    //! every operation goes through.

    use super::*;
    use crate::timing::{Declaration, InitiativeEntry};

    fn mid_fight() -> Encounter {
        let mut e = Encounter::new(TimingSystem::continuous(), 7).unwrap_or_else(|e| panic!("{e}"));
        let a = e
            .add_combatant(CombatantSpec::new("Roland", Declaration::new(2, 1)))
            .unwrap_or_else(|e| panic!("{e}"));
        e.set_initiative(a, InitiativeEntry::Roll(-1))
            .unwrap_or_else(|e| panic!("{e}"));
        e.next().unwrap_or_else(|e| panic!("{e}"));
        e.undo().unwrap_or_else(|e| panic!("{e}"));
        e
    }

    #[test]
    fn a_panicking_operation_is_an_internal_error_and_changes_nothing() {
        let mut e = mid_fight();
        let before = e.clone();
        let snapshot = e.snapshot().unwrap_or_else(|e| panic!("{e}"));
        let (log, undo, redo) = (e.log_len(), e.undo_depth(), e.redo_depth());
        let r: Result<()> = e.mutate(|s, log| {
            // Half an operation: the copy is changed and a line written,
            // then the bug strikes.
            s.combatants.clear();
            log.push(LogEntry {
                round: 0,
                tick: 0,
                text: "never".to_owned(),
            });
            panic!("boom at the {}th step", 3)
        });
        let err = r.expect_err("the panic is an error");
        assert_eq!(err.kind(), ErrorKind::Internal);
        assert!(err.message().contains("boom at the 3th step"), "{err}");
        assert_eq!(e, before);
        assert_eq!((e.log_len(), e.undo_depth(), e.redo_depth()), (log, undo, redo));
        assert_eq!(e.snapshot().unwrap_or_else(|e| panic!("{e}")), snapshot);
        // And it goes on as before.
        assert!(e.redo().is_ok());
    }

    #[test]
    fn a_panic_with_a_string_payload_keeps_its_words() {
        let mut e = mid_fight();
        let r: Result<()> = e.mutate(|_, _| std::panic::panic_any(String::from("owned words")));
        assert!(r.expect_err("caught").message().ends_with("owned words"));
        let r: Result<()> = e.mutate(|_, _| std::panic::panic_any(17_u8));
        assert!(r.expect_err("caught").message().ends_with("a panic without a message"));
    }
}
