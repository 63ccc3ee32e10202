//! The [`Encounter`] object and the mirrors of [`skirmish_core::tracker`]'s
//! types. Conversion only: every rule runs in the core's tracker.
//!
//! # Threads and panics
//!
//! One `Mutex` guards the core encounter, so an `Encounter` may be called
//! from several threads at once; calls are serialized. Every call runs
//! inside a panic guard (`catch_unwind`), so a panic comes back as
//! [`SkirmishError::Internal`].
//!
//! What a panic leaves behind relies on the core tracker's atomic
//! operations, not on a copy kept here: the core runs each change on a
//! copy of its state and writes the new state, its undo step and its log
//! lines only once the change has succeeded, so a change that panics
//! leaves the encounter exactly as it was. (A copy of the whole encounter
//! per call, undo history included, would cost far more than the
//! operation.) A panic while converting a result after the core operation
//! succeeded leaves that operation applied: a consistent state the GM can
//! undo. The lock is taken outside the panic guard, so a caught panic
//! never poisons it; if it were poisoned anyway, the encounter inside is
//! used as it is, for the same reason.

use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use skirmish_core::Error as CoreError;
use skirmish_core::timing as core_timing;
use skirmish_core::tracker as core;
use skirmish_core::tracker::TrackerError;

use skirmish_sim::odds as sim_odds;
use skirmish_sim::scenario::Scenario;

use crate::damage::{DamageConfig, WoundOverride};
use crate::error::{Result, SkirmishError, guard};
use crate::fighter::{FighterProfile, Striking};
use crate::odds::OddsFromHere;
use crate::timing::{ActorTiming, Declaration, FreeActionResult, InitiativeEntry, Moment, TimingSystem};

mod strike;
mod view;

pub use strike::{EncounterStrikeOptions, Part, RangedShot, StrikeDice, StrikeReport, StrikeResult};
pub use view::{CombatantState, EncounterView, ViewFor};

/// The rules an encounter's strikes are resolved by.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct EncounterRules {
    /// The striking system and its options.
    pub striking: Striking,
    /// The damage model.
    pub damage: DamageConfig,
}

impl From<EncounterRules> for core::EncounterRules {
    fn from(r: EncounterRules) -> core::EncounterRules {
        core::EncounterRules {
            striking: r.striking.into(),
            damage: r.damage.into(),
        }
    }
}

/// What a combatant (or each member of a group) is, as the timing rules see it.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct CombatantSpec {
    /// Name shown on the tick sheet.
    pub name: String,
    /// What it is doing first.
    pub action: Declaration,
    /// A label for that action ("elven bow", "Spark").
    #[uniffi(default = "")]
    pub action_label: String,
    /// Side or party, for display.
    #[uniffi(default = None)]
    pub side: Option<String>,
    /// Tick System and Action Blocks traits.
    #[uniffi(default)]
    pub timing: ActorTiming,
    /// Hidden from the players' view until revealed (an ambusher not yet seen).
    #[uniffi(default = false)]
    pub hidden: bool,
}

impl From<core::CombatantSpec> for CombatantSpec {
    fn from(s: core::CombatantSpec) -> CombatantSpec {
        CombatantSpec {
            name: s.name,
            action: s.action.into(),
            action_label: s.action_label,
            side: s.side,
            timing: s.timing.into(),
            hidden: s.hidden,
        }
    }
}

impl TryFrom<CombatantSpec> for core::CombatantSpec {
    type Error = CoreError;
    fn try_from(s: CombatantSpec) -> Result<core::CombatantSpec, CoreError> {
        Ok(core::CombatantSpec {
            name: s.name,
            side: s.side,
            timing: s.timing.into(),
            action: s.action.try_into()?,
            action_label: s.action_label,
            // Combat stats come with the tracker's strikes (`add_fighter`),
            // not yet exposed here: a spec from an app is timing-only.
            stats: None,
            hidden: s.hidden,
        })
    }
}

/// How long an effect lasts (the core's `tracker::Duration`, renamed: UniFFI
/// has a built-in `Duration`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, uniffi::Enum)]
pub enum EffectDuration {
    /// This many ticks (seconds in Continuous timing) from now.
    Ticks {
        /// Ticks.
        ticks: u64,
    },
    /// Until the start of the round this many rounds on (Continuous: laps).
    Rounds {
        /// Rounds.
        rounds: u32,
    },
}

impl From<EffectDuration> for core::Duration {
    fn from(d: EffectDuration) -> core::Duration {
        match d {
            EffectDuration::Ticks { ticks } => core::Duration::Ticks(ticks),
            EffectDuration::Rounds { rounds } => core::Duration::Rounds(rounds),
        }
    }
}

/// Whether a combatant is in the fight.
#[derive(Debug, Clone, Copy, PartialEq, Eq, uniffi::Enum)]
pub enum Status {
    /// Fighting.
    Standing,
    /// Down (incapacitated, dead): takes no more actions.
    Down,
    /// Removed from the encounter (fled, or added by mistake).
    Removed,
}

impl From<core::Status> for Status {
    fn from(s: core::Status) -> Status {
        match s {
            core::Status::Standing => Status::Standing,
            core::Status::Down => Status::Down,
            core::Status::Removed => Status::Removed,
        }
    }
}

/// A combatant as the tracker shows it.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct CombatantView {
    /// Its id (the order it was added, from 0).
    pub id: u32,
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

impl From<core::CombatantView> for CombatantView {
    fn from(v: core::CombatantView) -> CombatantView {
        CombatantView {
            id: v.id.0,
            name: v.name,
            side: v.side,
            group: v.group,
            status: v.status.into(),
            hidden: v.hidden,
        }
    }
}

/// One line acting at a moment: a combatant, or the living members of a group.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct ActingLine {
    /// The line's name (the combatant's, or the group's).
    pub name: String,
    /// The combatants acting on it.
    pub members: Vec<u32>,
    /// Whether an action lands (`true`) or a Tick System turn begins (`false`).
    pub lands: bool,
    /// The action's number in the round (Continuous: in the battle).
    pub nth: u32,
    /// The label of the action it carries out.
    pub action: String,
    /// How a tick sheet shows it: the name, with "(turn)" for a turn that begins.
    pub sheet_label: String,
}

impl From<core::ActingLine> for ActingLine {
    fn from(l: core::ActingLine) -> ActingLine {
        let sheet_label = l.sheet_label();
        ActingLine {
            name: l.name,
            members: l.members.into_iter().map(|m| m.0).collect(),
            lands: l.lands,
            nth: l.nth,
            action: l.action,
            sheet_label,
        }
    }
}

/// An entry of the tick sheet: everything pending at one moment.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
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

impl From<core::SheetLine> for SheetLine {
    fn from(l: core::SheetLine) -> SheetLine {
        SheetLine {
            tick: l.tick,
            round: l.round,
            display: l.display,
            pass: l.pass,
            lines: l.lines.into_iter().map(Into::into).collect(),
            effects: l.effects,
        }
    }
}

/// An effect that ran out.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct ExpiredEffect {
    /// Its id.
    pub id: u32,
    /// Its name.
    pub name: String,
    /// Whom it was on, if anyone.
    pub target: Option<u32>,
}

impl From<core::ExpiredEffect> for ExpiredEffect {
    fn from(x: core::ExpiredEffect) -> ExpiredEffect {
        ExpiredEffect {
            id: x.id.0,
            name: x.name,
            target: x.target.map(|t| t.0),
        }
    }
}

/// What [`Encounter::next`] hands the GM.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Enum)]
pub enum Turn {
    /// A new round (phase, exchange) with its initiative rolled; initiative
    /// may still be corrected with `set_initiative`.
    NewRound {
        /// Its number.
        round: u32,
        /// The round's tick sheet.
        sheet: Vec<SheetLine>,
        /// Effects that ran out as the round began.
        expired: Vec<ExpiredEffect>,
    },
    /// These act now, together (the core's `Turn::Moment`; renamed because
    /// Kotlin would confuse a nested `Moment` with the record).
    Acting {
        /// When.
        moment: Moment,
        /// Who, in order.
        lines: Vec<ActingLine>,
        /// Effects that run out now.
        expired: Vec<ExpiredEffect>,
    },
    /// Nobody is left who can act.
    Over,
}

impl From<core::Turn> for Turn {
    fn from(t: core::Turn) -> Turn {
        match t {
            core::Turn::NewRound { round, sheet, expired } => Turn::NewRound {
                round,
                sheet: sheet.into_iter().map(Into::into).collect(),
                expired: expired.into_iter().map(Into::into).collect(),
            },
            core::Turn::Moment { moment, lines, expired } => Turn::Acting {
                moment: moment.into(),
                lines: lines.into_iter().map(Into::into).collect(),
                expired: expired.into_iter().map(Into::into).collect(),
            },
            core::Turn::Over => Turn::Over,
        }
    }
}

/// One entry of the encounter's log.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct LogEntry {
    /// Round at the time.
    pub round: u32,
    /// Absolute tick at the time.
    pub tick: u64,
    /// What happened, in words.
    pub text: String,
}

impl From<&core::LogEntry> for LogEntry {
    fn from(e: &core::LogEntry) -> LogEntry {
        LogEntry {
            round: e.round,
            tick: e.tick,
            text: e.text.clone(),
        }
    }
}

/// A combatant's (its line's) current declaration and its label.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct LineDeclaration {
    /// The action's label ("elven bow", "Spark").
    pub label: String,
    /// The action.
    pub declaration: Declaration,
}

impl From<core::LineDeclaration> for LineDeclaration {
    fn from(d: core::LineDeclaration) -> LineDeclaration {
        LineDeclaration {
            label: d.label,
            declaration: d.declaration.into(),
        }
    }
}

/// A live encounter at the table: combatants, initiative, the tick sheet,
/// declarations, undo, snapshots. Safe to call from several threads.
#[derive(Debug, uniffi::Object)]
pub struct Encounter {
    inner: Mutex<core::Encounter>,
}

impl Encounter {
    fn wrap(e: core::Encounter) -> Arc<Encounter> {
        Arc::new(Encounter { inner: Mutex::new(e) })
    }

    /// The lock; a poisoned lock still holds the last good encounter.
    fn lock(&self) -> MutexGuard<'_, core::Encounter> {
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A read-only call, guarded.
    fn read<T>(&self, f: impl FnOnce(&core::Encounter) -> Result<T, TrackerError>) -> Result<T> {
        let e = self.lock();
        guard(|| Ok(f(&e)?))
    }

    /// A call that may fail in the simulator or the scenario reader, guarded.
    fn read_any<T>(&self, f: impl FnOnce(&core::Encounter) -> Result<T>) -> Result<T> {
        let e = self.lock();
        guard(|| f(&e))
    }

    /// A change, guarded; the core operation is atomic (see the module docs).
    fn write<T>(&self, f: impl FnOnce(&mut core::Encounter) -> Result<T, TrackerError>) -> Result<T> {
        let mut e = self.lock();
        guard(|| Ok(f(&mut e)?))
    }
}

fn id(c: u32) -> core::CombatantId {
    core::CombatantId(c)
}

#[uniffi::export]
impl Encounter {
    /// A new encounter under `system`, rolling with a generator seeded by `seed`.
    #[uniffi::constructor]
    pub fn new(system: TimingSystem, seed: u64) -> Result<Arc<Encounter>> {
        guard(|| Ok(Encounter::wrap(core::Encounter::new(system.try_into()?, seed)?)))
    }

    /// A new encounter under `system` whose strikes follow `rules` (striking
    /// system, damage model), rolling with a generator seeded by `seed`.
    #[uniffi::constructor]
    pub fn with_rules(system: TimingSystem, rules: EncounterRules, seed: u64) -> Result<Arc<Encounter>> {
        guard(|| {
            Ok(Encounter::wrap(core::Encounter::with_rules(
                system.try_into()?,
                rules.into(),
                seed,
            )?))
        })
    }

    /// The built-in scenario `name` ("goblin-ambush", "parity", ...) as a
    /// live encounter: its timing, striking and damage rules and every group
    /// of every side added as fighters. An unknown name is `NotFound`.
    #[uniffi::constructor]
    pub fn from_scenario(name: String, seed: u64) -> Result<Arc<Encounter>> {
        guard(|| {
            let scenario = Scenario::builtin(&name)?;
            Ok(Encounter::wrap(sim_odds::encounter_from_scenario(&scenario, seed)?))
        })
    }

    /// As [`from_scenario`](Self::from_scenario), from a scenario file's TOML text.
    #[uniffi::constructor]
    pub fn from_scenario_toml(text: String, seed: u64) -> Result<Arc<Encounter>> {
        guard(|| {
            let scenario = Scenario::from_toml_str(&text, "")?;
            Ok(Encounter::wrap(sim_odds::encounter_from_scenario(&scenario, seed)?))
        })
    }

    /// As [`from_scenario`](Self::from_scenario), from a scenario's JSON text.
    #[uniffi::constructor]
    pub fn from_scenario_json(text: String, seed: u64) -> Result<Arc<Encounter>> {
        guard(|| {
            let scenario = Scenario::from_json_str(&text, "")?;
            Ok(Encounter::wrap(sim_odds::encounter_from_scenario(&scenario, seed)?))
        })
    }

    /// An encounter from a [`snapshot`](Self::snapshot): it continues exactly
    /// as the saved one would have. Anything else is `BadSnapshot`.
    #[uniffi::constructor]
    pub fn restore(snapshot: String) -> Result<Arc<Encounter>> {
        guard(|| Ok(Encounter::wrap(core::Encounter::restore(&snapshot)?)))
    }

    /// The whole encounter as JSON (state, undo history, log, generator): an
    /// opaque blob for the app to store and hand to `restore`.
    pub fn snapshot(&self) -> Result<String> {
        self.read(|e| e.snapshot())
    }

    /// The timing system.
    pub fn system(&self) -> Result<TimingSystem> {
        self.read(|e| Ok(e.system().into()))
    }

    /// The current round (0 before the first).
    pub fn round(&self) -> Result<u32> {
        self.read(|e| Ok(e.round()))
    }

    /// The absolute tick of the last moment.
    pub fn now(&self) -> Result<u64> {
        self.read(|e| Ok(e.now()))
    }

    /// Adds one combatant; returns its id.
    pub fn add_combatant(&self, spec: CombatantSpec) -> Result<u32> {
        self.write(|e| Ok(e.add_combatant(spec.try_into()?)?.0))
    }

    /// Adds a group of `count` identical combatants named "`name` 1", ...:
    /// one line on the sheet, one initiative roll. Returns their ids.
    pub fn add_group(&self, name: String, count: u32, spec: CombatantSpec) -> Result<Vec<u32>> {
        self.write(|e| {
            Ok(e.add_group(&name, count, spec.try_into()?)?
                .into_iter()
                .map(|c| c.0)
                .collect())
        })
    }

    /// Adds a fighter with combat stats on `side`: one combatant, or a group
    /// of `profile.count` (one line, one initiative roll). Returns the ids.
    pub fn add_fighter(&self, side: String, profile: FighterProfile) -> Result<Vec<u32>> {
        self.write(|e| {
            let profile = skirmish_core::fighter::FighterProfile::try_from(profile)
                .map_err(|x| TrackerError::from(x.in_field("profile")))?;
            Ok(e.add_fighter(&side, &profile)?.into_iter().map(|c| c.0).collect())
        })
    }

    /// `attacker` strikes `target` with the table's dice (a roll left out
    /// the encounter rolls): the hit, the wound, a disruption, a fall, all
    /// in the report (and the log). Undoable.
    #[uniffi::method(default(options = None, dice = None))]
    pub fn strike(
        &self,
        attacker: u32,
        target: u32,
        options: Option<EncounterStrikeOptions>,
        dice: Option<StrikeDice>,
    ) -> Result<StrikeReport> {
        self.write(|e| {
            let options = core::EncounterStrikeOptions::try_from(options.unwrap_or_default())?;
            Ok(
                e.strike(id(attacker), id(target), options, dice.unwrap_or_default().into())?
                    .into(),
            )
        })
    }

    /// The GM sets a combatant's wounds or hit points, or heals it. Undoable.
    pub fn set_damage(&self, combatant: u32, change: WoundOverride) -> Result<()> {
        self.write(|e| e.set_damage(id(combatant), change.into()))
    }

    /// A combatant's wound penalty now (0 unhurt or without combat stats).
    pub fn penalty(&self, combatant: u32) -> Result<i32> {
        self.read(|e| e.penalty(id(combatant)))
    }

    /// Everything a screen shows, for the GM or the players: the one call
    /// per screen refresh.
    pub fn view(&self, view_for: ViewFor) -> Result<EncounterView> {
        self.read(|e| Ok(e.view(view_for.into()).into()))
    }

    /// Who is likely to win from here: `battles` fights (1..=the
    /// simulator's limit) from the present state, by the encounter's rules,
    /// deterministic for a `seed`. The encounter is not changed.
    pub fn odds_from_here(&self, battles: u64, seed: u64) -> Result<OddsFromHere> {
        self.read_any(|e| {
            sim_odds::odds_from_here(e, battles, seed)
                .map(Into::into)
                .map_err(SkirmishError::from_sim)
        })
    }

    /// The combatant named `name` (case-insensitive).
    pub fn find(&self, name: String) -> Result<u32> {
        self.read(|e| Ok(e.find(&name)?.0))
    }

    /// Every combatant, in the order added.
    pub fn combatants(&self) -> Result<Vec<CombatantView>> {
        self.read(|e| Ok(e.combatants().into_iter().map(Into::into).collect()))
    }

    /// What happens next: a new round, the lines acting at the next moment,
    /// or `Over`.
    pub fn next(&self) -> Result<Turn> {
        self.write(|e| Ok(e.next()?.into()))
    }

    /// Declares a combatant's (its line's) next action, labelled `label`.
    /// `roll` is a 2dF Ready Time roll typed in from the table; without it
    /// the encounter rolls. Returns the absolute tick it lands on, if
    /// scheduled.
    #[uniffi::method(default(roll = None))]
    pub fn declare(
        &self,
        combatant: u32,
        label: String,
        action: Declaration,
        roll: Option<i32>,
    ) -> Result<Option<u64>> {
        self.write(|e| e.declare(id(combatant), &label, action.try_into()?, roll))
    }

    /// Cancels a combatant's next action; returns whether anything was pending.
    pub fn cancel(&self, combatant: u32) -> Result<bool> {
        self.write(|e| e.cancel(id(combatant)))
    }

    /// The combatant was hit before its disruptible action landed: it is
    /// lost. Returns whether it was disrupted.
    pub fn disrupt(&self, combatant: u32) -> Result<bool> {
        self.write(|e| e.disrupt(id(combatant)))
    }

    /// Moves a combatant's next action `ticks` later; returns its new tick.
    pub fn delay(&self, combatant: u32, ticks: u32) -> Result<u64> {
        self.write(|e| e.delay(id(combatant), ticks))
    }

    /// Action Blocks: holds to the end of the current block's sequence;
    /// returns the block's new order.
    pub fn hold(&self, combatant: u32) -> Result<Vec<String>> {
        self.write(|e| e.hold(id(combatant)))
    }

    /// Tick System: a free action (`ticks`, or the system's default) now.
    #[uniffi::method(default(ticks = None, defending = true))]
    pub fn free_action(&self, combatant: u32, ticks: Option<u32>, defending: bool) -> Result<FreeActionResult> {
        self.write(|e| Ok(e.free_action(id(combatant), ticks, defending)?.into()))
    }

    /// Tick System: something tries to stop the combatant's non-combat
    /// action; returns whether it was lost.
    pub fn interrupt(&self, combatant: u32, concentration_kept: bool) -> Result<bool> {
        self.write(|e| e.interrupt(id(combatant), concentration_kept))
    }

    /// Tick System: a prepared combatant takes its held turn now.
    pub fn take_held_turn(&self, combatant: u32) -> Result<ActingLine> {
        self.write(|e| Ok(e.take_held_turn(id(combatant))?.into()))
    }

    /// Sets a combatant's (its group's) initiative: a roll from the table or
    /// the total.
    pub fn set_initiative(&self, combatant: u32, entry: InitiativeEntry) -> Result<()> {
        self.write(|e| e.set_initiative(id(combatant), core_timing::InitiativeEntry::from(entry)))
    }

    /// Marks a combatant down.
    pub fn down(&self, combatant: u32) -> Result<()> {
        self.write(|e| e.down(id(combatant)))
    }

    /// Removes a combatant (fled, or added by mistake).
    pub fn remove(&self, combatant: u32) -> Result<()> {
        self.write(|e| e.remove(id(combatant)))
    }

    /// Adds an effect that runs out after `duration`; returns its id.
    #[uniffi::method(default(target = None))]
    pub fn add_effect(&self, name: String, duration: EffectDuration, target: Option<u32>) -> Result<u32> {
        self.write(|e| Ok(e.add_effect(&name, target.map(id), duration.into())?.0))
    }

    /// Ends an effect early; returns whether it was still active.
    pub fn end_effect(&self, effect: u32) -> Result<bool> {
        self.write(|e| e.end_effect(core::EffectId(effect)))
    }

    /// The tick sheet: everything pending, by moment, in order.
    pub fn tick_sheet(&self) -> Result<Vec<SheetLine>> {
        self.read(|e| Ok(e.tick_sheet().into_iter().map(Into::into).collect()))
    }

    /// Names of the lines that landed and have not declared what follows.
    pub fn awaiting(&self) -> Result<Vec<String>> {
        self.read(|e| Ok(e.awaiting()))
    }

    /// The first living member of each line awaiting a declaration.
    pub fn awaiting_combatants(&self) -> Result<Vec<u32>> {
        self.read(|e| Ok(e.awaiting_combatants().into_iter().map(|c| c.0).collect()))
    }

    /// The combatant's (its line's) current declaration and its label.
    pub fn declaration(&self, combatant: u32) -> Result<LineDeclaration> {
        self.read(|e| Ok(e.declaration(id(combatant))?.into()))
    }

    /// Tick System: the bonus to the combatant's defensive rolls.
    pub fn defense_bonus(&self, combatant: u32) -> Result<i32> {
        self.read(|e| e.defense_bonus(id(combatant)))
    }

    /// The event log entries kept, oldest first.
    pub fn log(&self) -> Result<Vec<LogEntry>> {
        self.read(|e| Ok(e.log().iter().map(Into::into).collect()))
    }

    /// Undoes the last operation (a `next` included).
    pub fn undo(&self) -> Result<()> {
        self.write(|e| e.undo())
    }

    /// How many operations can be undone.
    pub fn undo_depth(&self) -> Result<u32> {
        self.read(|e| Ok(e.undo_depth()))
    }

    /// Does again the last operation undone, exactly (the same rolls); any
    /// new operation clears what could be redone.
    pub fn redo(&self) -> Result<()> {
        self.write(|e| e.redo())
    }

    /// How many undone operations can be redone.
    pub fn redo_depth(&self) -> Result<u32> {
        self.read(|e| Ok(e.redo_depth()))
    }

    /// How many undo steps are kept.
    pub fn undo_limit(&self) -> Result<u32> {
        self.read(|e| Ok(e.undo_limit()))
    }

    /// Keeps at most `limit` undo steps (0 turns undo off); not undoable.
    pub fn set_undo_limit(&self, limit: u32) -> Result<()> {
        self.write(|e| e.set_undo_limit(limit))
    }

    /// How many log entries were ever written (the next one's number).
    pub fn log_len(&self) -> Result<u64> {
        self.read(|e| Ok(e.log_len()))
    }

    /// The log entries numbered `n` and on that are still kept: poll with
    /// the last `log_len` seen to get what is new.
    pub fn log_since(&self, n: u64) -> Result<Vec<LogEntry>> {
        self.read(|e| Ok(e.log_since(n).iter().map(Into::into).collect()))
    }

    /// Hides a combatant from the players' view.
    pub fn hide(&self, combatant: u32) -> Result<()> {
        self.write(|e| e.hide(id(combatant)))
    }

    /// Shows a hidden combatant to the players.
    pub fn reveal(&self, combatant: u32) -> Result<()> {
        self.write(|e| e.reveal(id(combatant)))
    }

    /// The players' side (`None`: every combatant is a foe in their view).
    pub fn set_party(&self, side: Option<String>) -> Result<()> {
        self.write(|e| e.set_party(side.as_deref()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::SkirmishError;

    fn spec(name: &str, tt: i32) -> CombatantSpec {
        CombatantSpec {
            name: name.into(),
            action: Declaration {
                time_taken: tt,
                ..Declaration::from(core_timing::Declaration::default())
            },
            action_label: String::new(),
            side: None,
            timing: core_timing::ActorTiming::default().into(),
            hidden: false,
        }
    }

    #[test]
    fn errors_are_the_stable_kinds_and_change_nothing() {
        let e = Encounter::new(TimingSystem::from(&core_timing::TimingSystem::continuous()), 3).unwrap();
        assert!(matches!(e.undo(), Err(SkirmishError::NothingToUndo { .. })));
        assert!(matches!(e.next(), Err(SkirmishError::NotNow { .. })));
        let a = e.add_combatant(spec("A", 3)).unwrap();
        let b = e.add_combatant(spec("B", 3)).unwrap();
        e.down(b).unwrap();
        let before = e.snapshot().unwrap();
        assert!(matches!(e.down(99), Err(SkirmishError::NotFound { .. })));
        assert!(matches!(e.find("Nobody".into()), Err(SkirmishError::NotFound { .. })));
        assert!(matches!(e.delay(b, 2), Err(SkirmishError::NotNow { .. })));
        assert!(matches!(e.hold(a), Err(SkirmishError::NotNow { .. })));
        match e.add_combatant(spec("C", -5)) {
            Err(SkirmishError::InvalidInput { field, .. }) => assert!(field.contains("time_taken"), "{field}"),
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            Encounter::restore("{".into()),
            Err(SkirmishError::BadSnapshot { .. })
        ));
        assert_eq!(e.snapshot().unwrap(), before);
    }

    #[test]
    fn a_panic_in_a_change_leaves_the_last_good_encounter() {
        let e = Encounter::new(TimingSystem::SimpleRounds, 1).unwrap();
        e.add_combatant(spec("A", 3)).unwrap();
        let before = e.snapshot().unwrap();
        let r: Result<()> = e.write(|inner| {
            if inner.undo_depth() > 0 {
                panic!("midway");
            }
            Ok(())
        });
        assert!(matches!(r, Err(SkirmishError::Internal { .. })));
        assert_eq!(e.snapshot().unwrap(), before);
        assert!(!e.inner.is_poisoned());
        e.next().unwrap();
    }

    #[test]
    fn a_strike_and_the_odds_from_the_builtin_ambush() {
        let e = Encounter::from_scenario("goblin-ambush".into(), 1).unwrap();
        let c = e.find("Cardiff".into()).unwrap();
        let g = e.find("Goblin #1".into()).unwrap();
        let typed = |attack| {
            Some(StrikeDice {
                attack: Some(attack),
                defense: None,
            })
        };
        let r = e.strike(c, g, None, typed(-1)).unwrap();
        assert_eq!(
            (r.attack_total, r.defense_total, r.result, r.margin),
            (8, 6, StrikeResult::Hit, 2)
        );
        assert_eq!(r.attack_breakdown.iter().map(|p| p.value).sum::<i32>(), 8);
        match e.strike(c, g, None, typed(5)) {
            Err(SkirmishError::InvalidInput { field, .. }) => assert_eq!(field, "dice.attack"),
            other => panic!("{other:?}"),
        }
        let odds = e.odds_from_here(50, 1).unwrap();
        assert_eq!(odds.sides.len(), 2);
        assert_eq!(e.odds_from_here(50, 1).unwrap(), odds);
        match e.odds_from_here(0, 1) {
            Err(SkirmishError::InvalidInput { field, .. }) => assert_eq!(field, "battles"),
            other => panic!("{other:?}"),
        }
        let view = e.view(ViewFor::Gm).unwrap();
        assert_eq!(view.combatants[g as usize].status, Status::Down);
        assert!(matches!(
            Encounter::from_scenario("goblin-ambsh".into(), 1),
            Err(SkirmishError::NotFound { .. })
        ));
    }

    #[test]
    fn conversions_round_trip() {
        for name in core_timing::TimingSystem::NAMES {
            let core_system = core_timing::TimingSystem::by_name(name).unwrap();
            let ffi = TimingSystem::from(&core_system);
            assert_eq!(core_timing::TimingSystem::try_from(ffi).unwrap(), core_system);
        }
        let two = skirmish_core::tables::weapons::RateOfFire::TWO;
        let traits = core_timing::ActorTiming {
            initiative_bonus: 3,
            interval: 3,
            reflexes: 7,
            combat_sense: 2,
        };
        let specs = [
            core::CombatantSpec::new("Roland", core_timing::Declaration::new(2, 1).with_rate_of_fire(two))
                .on_side("party")
                .with_timing(traits)
                .labelled("elven bow"),
            core::CombatantSpec::new("Madoc", core_timing::Declaration::new(0, 2).disruptible()).labelled("Spark"),
        ];
        for spec in specs {
            let ffi = CombatantSpec::from(spec.clone());
            assert_eq!(core::CombatantSpec::try_from(ffi).unwrap(), spec);
        }
    }
}
