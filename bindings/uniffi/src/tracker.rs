//! The [`Encounter`] object and the mirrors of [`skirmish_core::tracker`]'s
//! types. Conversion only: every rule runs in the core's tracker. This
//! file holds the object and its methods; the mirrors are in `records`
//! (the plain data), `strike` and `view`.
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

use skirmish_core::timing as core_timing;
use skirmish_core::tracker as core;
use skirmish_core::tracker::TrackerError;

use skirmish_sim::odds as sim_odds;
use skirmish_sim::scenario::Scenario;

use crate::damage::WoundOverride;
use crate::error::{Result, SkirmishError, guard};
use crate::fighter::FighterProfile;
use crate::odds::OddsFromHere;
use crate::tactics::Tactics;
use crate::timing::{Declaration, FreeActionResult, InitiativeEntry, TimingSystem};

mod many;
mod records;
mod strike;
#[cfg(test)]
mod tests;
mod view;

pub use many::{
    LoneFighterDice, LoneFighterOptions, LoneFighterReport, LoneFoe, ScoutReport, ShotOptions, ShotReport, StoryReport,
};
pub use records::{
    ActingLine, CombatantSpec, CombatantView, EffectDuration, EncounterRules, ExpiredEffect, LineDeclaration, LogEntry,
    SheetLine, Status, Turn,
};
pub use strike::{EncounterStrikeOptions, Part, RangedShot, StrikeDice, StrikeReport, StrikeResult};
pub use view::{CombatantState, EncounterView, ViewFor};

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

    /// FUDGE 4.34: `lone` fights `foes` (one to six) for a round, one roll
    /// of his against each of theirs; every foe who beats him wounds him,
    /// and he wounds one foe only if he beat or tied them all. Rolls left
    /// out the encounter rolls. Undoable.
    #[uniffi::method(default(options = None, dice = None))]
    pub fn lone_fighter(
        &self,
        lone: u32,
        foes: Vec<u32>,
        options: Option<LoneFighterOptions>,
        dice: Option<LoneFighterDice>,
    ) -> Result<LoneFighterReport> {
        self.write(|e| {
            let foes: Vec<core::CombatantId> = foes.into_iter().map(id).collect();
            let options = options.unwrap_or_default().into();
            let dice = dice.unwrap_or_default().into();
            Ok(e.lone_fighter(id(lone), &foes, &options, &dice)?.into())
        })
    }

    /// FUDGE 4.4: `shooter` shoots at `target`; `roll` and `dodge` the
    /// table's 4dF (`null`: the encounter rolls). Undoable.
    #[uniffi::method(default(options = None, roll = None, dodge = None))]
    pub fn shoot(
        &self,
        shooter: u32,
        target: u32,
        options: Option<ShotOptions>,
        roll: Option<i32>,
        dodge: Option<i32>,
    ) -> Result<ShotReport> {
        let options = options.unwrap_or(ShotOptions {
            difficulty: 0,
            unaware: false,
            dodge_skill: None,
            propelled: None,
        });
        self.write(|e| Ok(e.shoot(id(shooter), id(target), options.into(), (roll, dodge))?.into()))
    }

    /// FUDGE 4.4: `first` and `second` shoot at each other at once, each
    /// needing only its Difficulty Level (the first's to hit the second,
    /// then the second's); their 4dF typed (`null`: rolled). Undoable.
    #[uniffi::method(default(first_roll = None, second_roll = None))]
    pub fn exchange_fire(
        &self,
        first: u32,
        second: u32,
        first_difficulty: i32,
        second_difficulty: i32,
        first_roll: Option<i32>,
        second_roll: Option<i32>,
    ) -> Result<Vec<ShotReport>> {
        self.write(|e| {
            let (a, b) = e.exchange_fire(
                id(first),
                id(second),
                (first_difficulty, second_difficulty),
                (first_roll, second_roll),
            )?;
            Ok(vec![a.into(), b.into()])
        })
    }

    /// FUDGE 4.21: a story element, `combatant`'s roll of its combat skill
    /// with the GM's `modifier` (-3..=3), once or, with `median_of_three`,
    /// the median of three; `rolls` typed in (empty: the encounter rolls).
    /// Undoable.
    #[uniffi::method(default(modifier = 0, median_of_three = false, rolls = []))]
    pub fn story_element(
        &self,
        combatant: u32,
        modifier: i32,
        median_of_three: bool,
        rolls: Vec<i32>,
    ) -> Result<StoryReport> {
        self.write(|e| {
            Ok(e.story_element(id(combatant), modifier, median_of_three, &rolls)?
                .into())
        })
    }

    /// FUDGE 4.31: `scout`, in all-out defense, came out of an exchange
    /// with `foe` unhit and rolls its Perception or Tactics (its profile's
    /// `scouting`) against Fair; `roll` typed in (`null`: the encounter
    /// rolls). On a success `foe` is at -1 in its exchanges of the next
    /// round (its next moment without rounds). Undoable.
    #[uniffi::method(default(roll = None))]
    pub fn scout(&self, scout: u32, foe: u32, roll: Option<i32>) -> Result<ScoutReport> {
        self.write(|e| Ok(e.scout(id(scout), id(foe), roll)?.into()))
    }

    /// Whether a combatant is at scouting's -1 in an exchange now.
    pub fn scouted(&self, combatant: u32) -> Result<bool> {
        self.read(|e| e.scouted(id(combatant)))
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

    /// Who is likely to win from here. Exact, with fractions and nothing
    /// fought, when the exact engine models the fight as it stands
    /// (Simultaneous Combat between exchanges, Simple Rounds between
    /// rounds; Full Contact or a FUDGE duel; docs/rules.md §7) and it fits
    /// its default budget; otherwise `battles` fights (1..=the simulator's
    /// limit) from the present state, by the encounter's rules,
    /// deterministic for a `seed`, with the `reason` it is not exact. The
    /// encounter is not changed. A fight already decided gives its
    /// outcome (`method` Decided): the side standing at 100%, the others
    /// at 0% (nobody: a draw, 100%).
    pub fn odds_from_here(&self, battles: u64, seed: u64) -> Result<OddsFromHere> {
        self.read_any(|e| {
            sim_odds::odds_from_here(e, battles, seed)
                .map(Into::into)
                .map_err(SkirmishError::from_sim)
        })
    }

    /// [`odds_from_here`](Self::odds_from_here) always sampled: `battles`
    /// fights, in a time that grows with `battles` only (a phone bounding
    /// the call).
    pub fn sampled_odds_from_here(&self, battles: u64, seed: u64) -> Result<OddsFromHere> {
        self.read_any(|e| {
            sim_odds::odds_from_here_with(e, battles, seed, None)
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

    /// Changes a fighter's (its group's) FUDGE 4.31 tactics from its next
    /// blow on, undoably.
    pub fn set_tactics(&self, combatant: u32, tactics: Tactics) -> Result<()> {
        let tactics = skirmish_core::fighter::Tactics::try_from(tactics)?;
        self.write(|e| e.set_tactics(id(combatant), tactics))
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
