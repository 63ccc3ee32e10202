//! `skirmish_core::tracker`: the live `Encounter` a GM drives at the table,
//! with `skirmish_sim::odds`'s odds from here and encounters started from a
//! scenario.
//!
//! Conversion only: records cross as JSON text in the core's own serde
//! form (as a battle's report does), combatants and effects as their
//! numeric ids; `skirmish/tracker.py` turns them into dataclasses and
//! resolves names. Every rule, check and refusal is the core tracker's.
//! Every method is panic-guarded; a refused operation changes nothing (the
//! core's operations are atomic). Odds from here release the GIL.

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use skirmish_core::damage::DamageConfig;
use skirmish_core::fighter::{FighterProfile, Striking};
use skirmish_core::timing::{Declaration, InitiativeEntry, TimingSystem};
use skirmish_core::tracker::{
    CombatantId, CombatantSpec, Duration, EffectId, Encounter, EncounterRules, EncounterStrikeOptions, StrikeDice,
    TrackerError, ViewFor, WoundOverride,
};
use skirmish_sim::odds::{encounter_from_scenario, odds_from_here};

use crate::error::{ToPyErr, guard};
use crate::scenario::PyScenario;

/// A live encounter (mutable). Python's `skirmish.Encounter` wraps it.
#[pyclass(name = "Encounter", module = "skirmish._core")]
pub(crate) struct PyEncounter {
    inner: Encounter,
}

/// The core's record as JSON text (a macro: this crate does not depend on
/// serde itself, only on serde_json).
macro_rules! json {
    ($value:expr) => {
        serde_json::to_string($value).map_err(|e| PyRuntimeError::new_err(format!("tracker record as JSON: {e}")))
    };
}

/// A record of type `$t` from JSON text; a refusal is invalid input naming
/// `$field`.
macro_rules! parse {
    ($py:expr, $t:ty, $text:expr, $field:expr) => {
        serde_json::from_str::<$t>($text).map_err(|e| TrackerError::invalid($field, e.to_string()).to_py($py))
    };
}

fn id(n: u32) -> CombatantId {
    CombatantId(n)
}

#[pymethods]
impl PyEncounter {
    /// A new encounter under the timing system named `system`, rolling
    /// from `seed`; `striking` and `damage` are names (`"full-contact"`,
    /// `"hit-points"`) or, with `rules`, the whole `EncounterRules` as JSON.
    #[new]
    #[pyo3(signature = (system, seed, striking = None, damage = None, rules = None))]
    fn new(
        py: Python<'_>,
        system: &str,
        seed: u64,
        striking: Option<&str>,
        damage: Option<&str>,
        rules: Option<&str>,
    ) -> PyResult<Self> {
        guard(py, || {
            let system =
                TimingSystem::by_name(system).map_err(|e| TrackerError::from(e.in_field("system")).to_py(py))?;
            let mut r: EncounterRules = match rules {
                Some(text) => parse!(py, EncounterRules, text, "rules")?,
                None => EncounterRules::default(),
            };
            if let Some(name) = striking {
                r.striking = name
                    .parse::<Striking>()
                    .map_err(|e| TrackerError::from(e.in_field("striking")).to_py(py))?;
            }
            if let Some(name) = damage {
                r.damage =
                    DamageConfig::by_name(name).map_err(|e| TrackerError::from(e.in_field("damage")).to_py(py))?;
            }
            let inner = Encounter::with_rules(system, r, seed).map_err(|e| e.to_py(py))?;
            Ok(PyEncounter { inner })
        })
    }

    /// The encounter a scenario starts: its rules and every group added as
    /// fighters (`skirmish_sim::odds::encounter_from_scenario`).
    #[staticmethod]
    fn from_scenario(py: Python<'_>, scenario: PyScenario, seed: u64) -> PyResult<Self> {
        guard(py, || {
            encounter_from_scenario(&scenario.inner, seed)
                .map(|inner| PyEncounter { inner })
                .map_err(|e| e.to_py(py))
        })
    }

    /// An encounter from its snapshot (JSON text).
    #[staticmethod]
    fn restore(py: Python<'_>, snapshot: &str) -> PyResult<Self> {
        guard(py, || {
            Encounter::restore(snapshot)
                .map(|inner| PyEncounter { inner })
                .map_err(|e| e.to_py(py))
        })
    }

    /// The snapshot: JSON text, generator state and undo history included.
    fn snapshot(&self, py: Python<'_>) -> PyResult<String> {
        guard(py, || self.inner.snapshot().map_err(|e| e.to_py(py)))
    }

    /// Pickling through the snapshot.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let snapshot = slf.borrow().snapshot(py)?;
        let restore = slf.get_type().getattr("restore")?;
        PyTuple::new(py, [restore.into_any(), PyTuple::new(py, [snapshot])?.into_any()])
    }

    /// The rules (striking and damage) as JSON.
    fn rules(&self, py: Python<'_>) -> PyResult<String> {
        guard(py, || json!(self.inner.rules()))
    }

    /// The timing system's name.
    fn system(&self, py: Python<'_>) -> PyResult<String> {
        guard(py, || Ok(self.inner.system().name().to_owned()))
    }

    /// The round (0 before the first).
    fn round(&self, py: Python<'_>) -> PyResult<u32> {
        guard(py, || Ok(self.inner.round()))
    }

    /// The absolute tick of the last moment.
    fn now(&self, py: Python<'_>) -> PyResult<u64> {
        guard(py, || Ok(self.inner.now()))
    }

    /// Adds one combatant (a `CombatantSpec` as JSON); returns its id.
    fn add_combatant(&mut self, py: Python<'_>, spec: &str) -> PyResult<u32> {
        guard(py, || {
            let spec = parse!(py, CombatantSpec, spec, "spec")?;
            self.inner.add_combatant(spec).map(|c| c.0).map_err(|e| e.to_py(py))
        })
    }

    /// Adds a group of `count` (one line, one initiative); returns the ids.
    fn add_group(&mut self, py: Python<'_>, name: &str, count: u32, spec: &str) -> PyResult<Vec<u32>> {
        guard(py, || {
            let spec = parse!(py, CombatantSpec, spec, "spec")?;
            self.inner
                .add_group(name, count, spec)
                .map(|ids| ids.into_iter().map(|c| c.0).collect())
                .map_err(|e| e.to_py(py))
        })
    }

    /// Adds a fighter (a `FighterProfile` as JSON) on `side`; returns the ids.
    fn add_fighter(&mut self, py: Python<'_>, side: &str, profile: &str) -> PyResult<Vec<u32>> {
        guard(py, || {
            let profile = parse!(py, FighterProfile, profile, "profile")?;
            self.inner
                .add_fighter(side, &profile)
                .map(|ids| ids.into_iter().map(|c| c.0).collect())
                .map_err(|e| e.to_py(py))
        })
    }

    /// Every combatant (`CombatantView`s as JSON).
    fn combatants(&self, py: Python<'_>) -> PyResult<String> {
        guard(py, || json!(&self.inner.combatants()))
    }

    /// The id of the combatant named `name` (case-insensitive).
    fn find(&self, py: Python<'_>, name: &str) -> PyResult<u32> {
        guard(py, || self.inner.find(name).map(|c| c.0).map_err(|e| e.to_py(py)))
    }

    /// What happens next (a `Turn` as JSON).
    fn next(&mut self, py: Python<'_>) -> PyResult<String> {
        guard(py, || {
            let turn = self.inner.next().map_err(|e| e.to_py(py))?;
            json!(&turn)
        })
    }

    /// Declares the combatant's next action (a `Declaration` as JSON);
    /// returns the tick it lands on, if scheduled.
    #[pyo3(signature = (combatant, label, action, roll = None))]
    fn declare(
        &mut self,
        py: Python<'_>,
        combatant: u32,
        label: &str,
        action: &str,
        roll: Option<i32>,
    ) -> PyResult<Option<u64>> {
        guard(py, || {
            let action = parse!(py, Declaration, action, "declaration")?;
            self.inner
                .declare(id(combatant), label, action, roll)
                .map_err(|e| e.to_py(py))
        })
    }

    /// The combatant's current declaration (`LineDeclaration` as JSON).
    fn declaration(&self, py: Python<'_>, combatant: u32) -> PyResult<String> {
        guard(py, || {
            let d = self.inner.declaration(id(combatant)).map_err(|e| e.to_py(py))?;
            json!(&d)
        })
    }

    /// Cancels the combatant's next action; whether anything was pending.
    fn cancel(&mut self, py: Python<'_>, combatant: u32) -> PyResult<bool> {
        guard(py, || self.inner.cancel(id(combatant)).map_err(|e| e.to_py(py)))
    }

    /// Disrupts the combatant's disruptible action; whether it was.
    fn disrupt(&mut self, py: Python<'_>, combatant: u32) -> PyResult<bool> {
        guard(py, || self.inner.disrupt(id(combatant)).map_err(|e| e.to_py(py)))
    }

    /// Moves the combatant's next action `ticks` later; the new tick.
    fn delay(&mut self, py: Python<'_>, combatant: u32, ticks: u32) -> PyResult<u64> {
        guard(py, || self.inner.delay(id(combatant), ticks).map_err(|e| e.to_py(py)))
    }

    /// Action Blocks: holds to the end of the block; the block's new order.
    fn hold(&mut self, py: Python<'_>, combatant: u32) -> PyResult<Vec<String>> {
        guard(py, || self.inner.hold(id(combatant)).map_err(|e| e.to_py(py)))
    }

    /// Tick System: a free action (`FreeActionResult` as JSON).
    #[pyo3(signature = (combatant, ticks = None, defending = true))]
    fn free_action(&mut self, py: Python<'_>, combatant: u32, ticks: Option<u32>, defending: bool) -> PyResult<String> {
        guard(py, || {
            let r = self
                .inner
                .free_action(id(combatant), ticks, defending)
                .map_err(|e| e.to_py(py))?;
            json!(&r)
        })
    }

    /// Tick System: an interruption; whether the action was lost.
    fn interrupt(&mut self, py: Python<'_>, combatant: u32, concentration_kept: bool) -> PyResult<bool> {
        guard(py, || {
            self.inner
                .interrupt(id(combatant), concentration_kept)
                .map_err(|e| e.to_py(py))
        })
    }

    /// Tick System: takes a held turn now (the `ActingLine` as JSON).
    fn take_held_turn(&mut self, py: Python<'_>, combatant: u32) -> PyResult<String> {
        guard(py, || {
            let line = self.inner.take_held_turn(id(combatant)).map_err(|e| e.to_py(py))?;
            json!(&line)
        })
    }

    /// Tick System: the bonus to the combatant's defensive rolls.
    fn defense_bonus(&self, py: Python<'_>, combatant: u32) -> PyResult<i32> {
        guard(py, || self.inner.defense_bonus(id(combatant)).map_err(|e| e.to_py(py)))
    }

    /// Sets the combatant's initiative: a roll typed in, or the total.
    #[pyo3(signature = (combatant, roll = None, total = None))]
    fn set_initiative(
        &mut self,
        py: Python<'_>,
        combatant: u32,
        roll: Option<i32>,
        total: Option<i64>,
    ) -> PyResult<()> {
        guard(py, || {
            let entry = match (roll, total) {
                (Some(r), None) => InitiativeEntry::Roll(r),
                (None, Some(t)) => InitiativeEntry::Total(t),
                _ => {
                    return Err(TrackerError::invalid("initiative", "give either the roll or the total").to_py(py));
                }
            };
            self.inner.set_initiative(id(combatant), entry).map_err(|e| e.to_py(py))
        })
    }

    /// Marks the combatant down.
    fn down(&mut self, py: Python<'_>, combatant: u32) -> PyResult<()> {
        guard(py, || self.inner.down(id(combatant)).map_err(|e| e.to_py(py)))
    }

    /// Removes the combatant from the encounter.
    fn remove(&mut self, py: Python<'_>, combatant: u32) -> PyResult<()> {
        guard(py, || self.inner.remove(id(combatant)).map_err(|e| e.to_py(py)))
    }

    /// Adds an effect lasting `ticks` or `rounds`; returns its id.
    #[pyo3(signature = (name, target = None, ticks = None, rounds = None))]
    fn add_effect(
        &mut self,
        py: Python<'_>,
        name: &str,
        target: Option<u32>,
        ticks: Option<u64>,
        rounds: Option<u32>,
    ) -> PyResult<u32> {
        guard(py, || {
            let duration = match (ticks, rounds) {
                (Some(t), None) => Duration::Ticks(t),
                (None, Some(r)) => Duration::Rounds(r),
                _ => {
                    return Err(TrackerError::invalid("duration", "give either ticks or rounds").to_py(py));
                }
            };
            self.inner
                .add_effect(name, target.map(id), duration)
                .map(|e| e.0)
                .map_err(|e| e.to_py(py))
        })
    }

    /// Ends an effect early; whether it was still active.
    fn end_effect(&mut self, py: Python<'_>, effect: u32) -> PyResult<bool> {
        guard(py, || self.inner.end_effect(EffectId(effect)).map_err(|e| e.to_py(py)))
    }

    /// `attacker` strikes `target` (`EncounterStrikeOptions` as JSON; the dice typed
    /// in or `None` to roll); the `StrikeReport` as JSON.
    #[pyo3(signature = (attacker, target, options, attack = None, defense = None))]
    fn strike(
        &mut self,
        py: Python<'_>,
        attacker: u32,
        target: u32,
        options: &str,
        attack: Option<i32>,
        defense: Option<i32>,
    ) -> PyResult<String> {
        guard(py, || {
            let options = parse!(py, EncounterStrikeOptions, options, "options")?;
            let report = self
                .inner
                .strike(id(attacker), id(target), options, StrikeDice { attack, defense })
                .map_err(|e| e.to_py(py))?;
            json!(&report)
        })
    }

    /// A GM's override of the combatant's damage (`WoundOverride` as JSON).
    fn set_damage(&mut self, py: Python<'_>, combatant: u32, change: &str) -> PyResult<()> {
        guard(py, || {
            let change = parse!(py, WoundOverride, change, "damage")?;
            self.inner.set_damage(id(combatant), change).map_err(|e| e.to_py(py))
        })
    }

    /// The combatant's wound penalty now.
    fn penalty(&self, py: Python<'_>, combatant: u32) -> PyResult<i32> {
        guard(py, || self.inner.penalty(id(combatant)).map_err(|e| e.to_py(py)))
    }

    /// Hides the combatant from the players' view.
    fn hide(&mut self, py: Python<'_>, combatant: u32) -> PyResult<()> {
        guard(py, || self.inner.hide(id(combatant)).map_err(|e| e.to_py(py)))
    }

    /// Shows a hidden combatant to the players.
    fn reveal(&mut self, py: Python<'_>, combatant: u32) -> PyResult<()> {
        guard(py, || self.inner.reveal(id(combatant)).map_err(|e| e.to_py(py)))
    }

    /// The players' side (`None`: nobody's).
    #[pyo3(signature = (side = None))]
    fn set_party(&mut self, py: Python<'_>, side: Option<&str>) -> PyResult<()> {
        guard(py, || self.inner.set_party(side).map_err(|e| e.to_py(py)))
    }

    /// What a screen shows (`EncounterView` as JSON), the GM's or the players'.
    #[pyo3(signature = (players = false))]
    fn view(&self, py: Python<'_>, players: bool) -> PyResult<String> {
        guard(py, || {
            json!(&self.inner.view(if players { ViewFor::Players } else { ViewFor::Gm }))
        })
    }

    /// The tick sheet (`SheetLine`s as JSON).
    fn tick_sheet(&self, py: Python<'_>) -> PyResult<String> {
        guard(py, || json!(&self.inner.tick_sheet()))
    }

    /// Names of the lines awaiting a declaration.
    fn awaiting(&self, py: Python<'_>) -> PyResult<Vec<String>> {
        guard(py, || Ok(self.inner.awaiting()))
    }

    /// The log entries kept (`LogEntry`s as JSON).
    fn log(&self, py: Python<'_>) -> PyResult<String> {
        guard(py, || json!(&self.inner.log()))
    }

    /// Log entries ever written.
    fn log_len(&self, py: Python<'_>) -> PyResult<u64> {
        guard(py, || Ok(self.inner.log_len()))
    }

    /// The log entries numbered `n` and on (JSON).
    fn log_since(&self, py: Python<'_>, n: u64) -> PyResult<String> {
        guard(py, || json!(&self.inner.log_since(n)))
    }

    /// Undoes the last operation.
    fn undo(&mut self, py: Python<'_>) -> PyResult<()> {
        guard(py, || self.inner.undo().map_err(|e| e.to_py(py)))
    }

    /// Redoes the last operation undone.
    fn redo(&mut self, py: Python<'_>) -> PyResult<()> {
        guard(py, || self.inner.redo().map_err(|e| e.to_py(py)))
    }

    /// Operations that can be undone.
    fn undo_depth(&self, py: Python<'_>) -> PyResult<u32> {
        guard(py, || Ok(self.inner.undo_depth()))
    }

    /// Undone operations that can be redone.
    fn redo_depth(&self, py: Python<'_>) -> PyResult<u32> {
        guard(py, || Ok(self.inner.redo_depth()))
    }

    /// Undo steps kept.
    fn undo_limit(&self, py: Python<'_>) -> PyResult<u32> {
        guard(py, || Ok(self.inner.undo_limit()))
    }

    /// Sets how many undo steps are kept.
    fn set_undo_limit(&mut self, py: Python<'_>, limit: u32) -> PyResult<()> {
        guard(py, || self.inner.set_undo_limit(limit).map_err(|e| e.to_py(py)))
    }

    /// Fights the rest of the battle `battles` times from here (GIL
    /// released); the `OddsFromHere` as JSON.
    fn odds_from_here(&self, py: Python<'_>, battles: u64, seed: u64) -> PyResult<String> {
        guard(py, || {
            let encounter = &self.inner;
            let odds = py
                .detach(|| odds_from_here(encounter, battles, seed))
                .map_err(|e| e.to_py(py))?;
            json!(&odds)
        })
    }

    /// Whether two encounters are equal (state, undo history, log).
    fn same_as(&self, py: Python<'_>, other: PyRef<'_, PyEncounter>) -> PyResult<bool> {
        guard(py, || Ok(self.inner == other.inner))
    }
}

/// Registers the class.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyEncounter>()
}
