//! `skirmish_core::tracker`: the live `Encounter` a GM drives at the table,
//! with `skirmish_sim::odds`'s odds from here and encounters started from a
//! scenario.
//!
//! Conversion only: the calls take Python objects (keyword arguments,
//! dicts) converted once by [`input`] into the core's types, and hand back
//! the [`records`] (frozen native classes) or plain values; a combatant or
//! an effect is its numeric id (`skirmish/tracker.py` resolves names). JSON
//! is left for the snapshot, the documented format. Every rule, check and
//! refusal is the core tracker's. Every method is panic-guarded; a refused
//! operation changes nothing (the core's operations are atomic, and every
//! argument is converted before the core is called). Odds from here release
//! the GIL.

pub mod input;
pub mod records;

use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple};
use skirmish_core::striking::opposed::Missile;
use skirmish_core::timing::{InitiativeEntry, TimingSystem};
use skirmish_core::tracker::{
    CombatantId, Duration, EffectId, Encounter, EncounterRules, EncounterStrikeOptions, LoneFighterDice,
    LoneFighterOptions, ShotDefense, ShotOptions, StrikeDice, TrackerError, ViewFor, WoundOverride,
};
use skirmish_sim::exact::ExactOptions;
use skirmish_sim::odds::{encounter_from_scenario, odds_from_here_with};

use self::records::{
    PyActingLine, PyEncounterView, PyFreeAction, PyLoneFighterReport, PyOddsFromHere, PyScoutReport, PySheetLine,
    PyShotReport, PyStoryReport, PyStrikeReport,
};
use crate::args;
use crate::error::{ToPyErr, guard};
use crate::record::Tuple;
use crate::scenario::PyScenario;

/// A live encounter (mutable). Python's `skirmish.Encounter` wraps it.
#[pyclass(name = "Encounter", module = "skirmish._core")]
pub(crate) struct PyEncounter {
    inner: Encounter,
    /// The buffer snapshots are written into, kept between them: a fresh
    /// one of a snapshot's size (600 KB at 30 fighters) at each call, live
    /// beside the Python `str` made from it, had the allocator give the
    /// memory back and fault it in again every time (0.9 ms a snapshot
    /// against 0.15 ms; `Encounter::write_snapshot`).
    snapshot: String,
}

impl PyEncounter {
    fn wrap(inner: Encounter) -> Self {
        PyEncounter {
            inner,
            snapshot: String::new(),
        }
    }

    /// The snapshot, written into the kept buffer.
    fn snapshot_text(&mut self, py: Python<'_>) -> PyResult<&str> {
        self.snapshot.clear();
        self.inner.write_snapshot(&mut self.snapshot).map_err(|e| e.to_py(py))?;
        Ok(&self.snapshot)
    }
}

fn id(n: u32) -> CombatantId {
    CombatantId(n)
}

#[pymethods]
impl PyEncounter {
    /// A new encounter under the timing system named `system`, rolling
    /// from `seed`; `striking` and `damage` are names (`"full-contact"`,
    /// `"hit-points"`) or mappings of the core's form
    /// (`{"system": "full_contact", "amazing": True}`).
    #[new]
    #[pyo3(signature = (system, seed, striking = None, damage = None))]
    fn new(
        py: Python<'_>,
        #[pyo3(from_py_with = args::tracker::system)] system: String,
        #[pyo3(from_py_with = args::tracker::seed)] seed: u64,
        striking: Option<&Bound<'_, PyAny>>,
        damage: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        guard(py, || {
            let system =
                TimingSystem::by_name(&system).map_err(|e| TrackerError::from(e.in_field("system")).to_py(py))?;
            let mut rules = EncounterRules::default();
            if let Some(s) = striking.filter(|s| !s.is_none()) {
                rules.striking = input::striking(s)?;
            }
            if let Some(d) = damage.filter(|d| !d.is_none()) {
                rules.damage = input::damage(d)?;
            }
            let inner = Encounter::with_rules(system, rules, seed).map_err(|e| e.to_py(py))?;
            Ok(PyEncounter::wrap(inner))
        })
    }

    /// The encounter a scenario starts: its rules and every group added as
    /// fighters (`skirmish_sim::odds::encounter_from_scenario`).
    #[staticmethod]
    fn from_scenario(
        py: Python<'_>,
        #[pyo3(from_py_with = args::tracker::scenario)] scenario: PyScenario,
        #[pyo3(from_py_with = args::tracker::seed)] seed: u64,
    ) -> PyResult<Self> {
        guard(py, || {
            encounter_from_scenario(&scenario.inner, seed)
                .map(PyEncounter::wrap)
                .map_err(|e| e.to_py(py))
        })
    }

    /// An encounter from its snapshot (JSON text).
    #[staticmethod]
    fn restore(py: Python<'_>, #[pyo3(from_py_with = args::tracker::snapshot)] snapshot: String) -> PyResult<Self> {
        guard(py, || {
            Encounter::restore(&snapshot)
                .map(PyEncounter::wrap)
                .map_err(|e| e.to_py(py))
        })
    }

    /// The snapshot: JSON text (the documented format), generator state
    /// and undo history included.
    fn snapshot<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyString>> {
        guard(py, || Ok(PyString::new(py, self.snapshot_text(py)?)))
    }

    /// Pickling through the snapshot.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let snapshot = slf.borrow_mut().snapshot(py)?;
        let restore = slf.get_type().getattr("restore")?;
        PyTuple::new(py, [restore.into_any(), PyTuple::new(py, [snapshot])?.into_any()])
    }

    /// The rules (striking and damage) in the core's form, as a dict.
    fn rules<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        guard(py, || Ok(pythonize::pythonize(py, self.inner.rules())?))
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

    /// Adds one timing-only combatant; returns its id. Its first action is
    /// `action` (a mapping of a declaration's fields) updated with
    /// `declaration` (the same as keyword arguments); `timing` a mapping of
    /// its timing traits.
    #[pyo3(
        signature = (name, action = None, label = String::new(), side = None, hidden = false, timing = None, declaration = None),
        text_signature = "($self, name, action=None, label='', side=None, hidden=False, timing=None, declaration=None)"
    )]
    #[expect(
        clippy::too_many_arguments,
        reason = "the fields of a combatant, as Python passes them"
    )]
    fn add_combatant(
        &mut self,
        py: Python<'_>,
        #[pyo3(from_py_with = args::tracker::name)] name: String,
        action: Option<&Bound<'_, PyAny>>,
        #[pyo3(from_py_with = args::tracker::label)] label: String,
        #[pyo3(from_py_with = args::tracker::side)] side: Option<String>,
        #[pyo3(from_py_with = args::tracker::hidden)] hidden: bool,
        timing: Option<&Bound<'_, PyAny>>,
        declaration: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<u32> {
        guard(py, || {
            let spec = input::spec(py, &name, action, declaration, &label, side.as_deref(), hidden, timing)?;
            self.inner.add_combatant(spec).map(|c| c.0).map_err(|e| e.to_py(py))
        })
    }

    /// Adds a group of `count` (one line, one initiative), each as
    /// `add_combatant` reads it; returns the ids.
    #[pyo3(
        signature = (name, count, action = None, label = String::new(), side = None, hidden = false, timing = None, declaration = None),
        text_signature = "($self, name, count, action=None, label='', side=None, hidden=False, timing=None, declaration=None)"
    )]
    #[expect(clippy::too_many_arguments, reason = "the fields of a group, as Python passes them")]
    fn add_group(
        &mut self,
        py: Python<'_>,
        #[pyo3(from_py_with = args::tracker::name)] name: String,
        #[pyo3(from_py_with = args::tracker::count)] count: u32,
        action: Option<&Bound<'_, PyAny>>,
        #[pyo3(from_py_with = args::tracker::label)] label: String,
        #[pyo3(from_py_with = args::tracker::side)] side: Option<String>,
        #[pyo3(from_py_with = args::tracker::hidden)] hidden: bool,
        timing: Option<&Bound<'_, PyAny>>,
        declaration: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Vec<u32>> {
        guard(py, || {
            let spec = input::spec(py, &name, action, declaration, &label, side.as_deref(), hidden, timing)?;
            self.inner
                .add_group(&name, count, spec)
                .map(|ids| ids.into_iter().map(|c| c.0).collect())
                .map_err(|e| e.to_py(py))
        })
    }

    /// Adds a fighter on `side`: `profile` (a mapping of a scenario group's
    /// fields) updated with `fields`; returns the ids.
    #[pyo3(signature = (side, profile = None, fields = None))]
    fn add_fighter(
        &mut self,
        py: Python<'_>,
        #[pyo3(from_py_with = args::tracker::side_name)] side: String,
        profile: Option<&Bound<'_, PyAny>>,
        fields: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Vec<u32>> {
        guard(py, || {
            let profile = input::profile(py, profile, fields)?;
            self.inner
                .add_fighter(&side, &profile)
                .map(|ids| ids.into_iter().map(|c| c.0).collect())
                .map_err(|e| e.to_py(py))
        })
    }

    /// The id of the combatant named `name` (case-insensitive).
    fn find(&self, py: Python<'_>, #[pyo3(from_py_with = args::tracker::name)] name: String) -> PyResult<u32> {
        guard(py, || self.inner.find(&name).map(|c| c.0).map_err(|e| e.to_py(py)))
    }

    /// What happens next: a `NewRound`, a `Moment` or `Over`.
    fn next<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        guard(py, || {
            let turn = self.inner.next().map_err(|e| e.to_py(py))?;
            records::turn(py, turn)
        })
    }

    /// Declares the combatant's next action (`action` updated with
    /// `declaration`, as `add_combatant` reads them); returns the tick it
    /// lands on, if scheduled.
    #[pyo3(
        signature = (combatant, label = String::new(), action = None, roll = None, declaration = None),
        text_signature = "($self, combatant, label='', action=None, roll=None, declaration=None)"
    )]
    fn declare(
        &mut self,
        py: Python<'_>,
        #[pyo3(from_py_with = args::tracker::combatant)] combatant: u32,
        #[pyo3(from_py_with = args::tracker::label)] label: String,
        action: Option<&Bound<'_, PyAny>>,
        #[pyo3(from_py_with = args::tracker::roll)] roll: Option<i32>,
        declaration: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Option<u64>> {
        guard(py, || {
            let action = input::declaration(py, action, declaration)?;
            self.inner
                .declare(id(combatant), &label, action, roll)
                .map_err(|e| e.to_py(py))
        })
    }

    /// The combatant's current declaration in the core's form, a dict
    /// (`{"label": ..., "declaration": {...}}`).
    fn declaration<'py>(
        &self,
        py: Python<'py>,
        #[pyo3(from_py_with = args::tracker::combatant)] combatant: u32,
    ) -> PyResult<Bound<'py, PyAny>> {
        guard(py, || {
            let d = self.inner.declaration(id(combatant)).map_err(|e| e.to_py(py))?;
            Ok(pythonize::pythonize(py, &d)?)
        })
    }

    /// Cancels the combatant's next action; whether anything was pending.
    fn cancel(
        &mut self,
        py: Python<'_>,
        #[pyo3(from_py_with = args::tracker::combatant)] combatant: u32,
    ) -> PyResult<bool> {
        guard(py, || self.inner.cancel(id(combatant)).map_err(|e| e.to_py(py)))
    }

    /// Disrupts the combatant's disruptible action; whether it was.
    fn disrupt(
        &mut self,
        py: Python<'_>,
        #[pyo3(from_py_with = args::tracker::combatant)] combatant: u32,
    ) -> PyResult<bool> {
        guard(py, || self.inner.disrupt(id(combatant)).map_err(|e| e.to_py(py)))
    }

    /// Moves the combatant's next action `ticks` later; the new tick.
    fn delay(
        &mut self,
        py: Python<'_>,
        #[pyo3(from_py_with = args::tracker::combatant)] combatant: u32,
        #[pyo3(from_py_with = args::tracker::ticks)] ticks: u32,
    ) -> PyResult<u64> {
        guard(py, || self.inner.delay(id(combatant), ticks).map_err(|e| e.to_py(py)))
    }

    /// Action Blocks: holds to the end of the block; the block's new order.
    fn hold(
        &mut self,
        py: Python<'_>,
        #[pyo3(from_py_with = args::tracker::combatant)] combatant: u32,
    ) -> PyResult<Vec<String>> {
        guard(py, || self.inner.hold(id(combatant)).map_err(|e| e.to_py(py)))
    }

    /// Tick System: a free action.
    #[pyo3(signature = (combatant, ticks = None, defending = true))]
    fn free_action(
        &mut self,
        py: Python<'_>,
        #[pyo3(from_py_with = args::tracker::combatant)] combatant: u32,
        #[pyo3(from_py_with = args::tracker::ticks_opt)] ticks: Option<u32>,
        #[pyo3(from_py_with = args::tracker::defending)] defending: bool,
    ) -> PyResult<PyFreeAction> {
        guard(py, || {
            let r = self
                .inner
                .free_action(id(combatant), ticks, defending)
                .map_err(|e| e.to_py(py))?;
            Ok(records::free_action(r))
        })
    }

    /// Tick System: an interruption; whether the action was lost.
    fn interrupt(
        &mut self,
        py: Python<'_>,
        #[pyo3(from_py_with = args::tracker::combatant)] combatant: u32,
        #[pyo3(from_py_with = args::tracker::concentration_kept)] concentration_kept: bool,
    ) -> PyResult<bool> {
        guard(py, || {
            self.inner
                .interrupt(id(combatant), concentration_kept)
                .map_err(|e| e.to_py(py))
        })
    }

    /// Tick System: takes a held turn now; the line acting.
    fn take_held_turn(
        &mut self,
        py: Python<'_>,
        #[pyo3(from_py_with = args::tracker::combatant)] combatant: u32,
    ) -> PyResult<Py<PyActingLine>> {
        guard(py, || {
            let line = self.inner.take_held_turn(id(combatant)).map_err(|e| e.to_py(py))?;
            records::acting_line(py, line)
        })
    }

    /// Tick System: the bonus to the combatant's defensive rolls.
    fn defense_bonus(
        &self,
        py: Python<'_>,
        #[pyo3(from_py_with = args::tracker::combatant)] combatant: u32,
    ) -> PyResult<i32> {
        guard(py, || self.inner.defense_bonus(id(combatant)).map_err(|e| e.to_py(py)))
    }

    /// Sets the combatant's initiative: a roll typed in, or the total.
    #[pyo3(signature = (combatant, roll = None, total = None))]
    fn set_initiative(
        &mut self,
        py: Python<'_>,
        #[pyo3(from_py_with = args::tracker::combatant)] combatant: u32,
        #[pyo3(from_py_with = args::tracker::roll)] roll: Option<i32>,
        #[pyo3(from_py_with = args::tracker::total)] total: Option<i64>,
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

    /// Changes the combatant's (its line's) FUDGE 4.31 tactics mid-fight:
    /// `tactics` (a mapping of `stance`, `shield`, `aim`, `position`)
    /// updated with `fields`; what neither gives is the default.
    #[pyo3(signature = (combatant, tactics = None, fields = None))]
    fn set_tactics(
        &mut self,
        py: Python<'_>,
        #[pyo3(from_py_with = args::tracker::combatant)] combatant: u32,
        tactics: Option<&Bound<'_, PyAny>>,
        fields: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        guard(py, || {
            let tactics = input::read(input::merged(py, tactics, fields, "tactics")?.as_any(), "tactics")?;
            self.inner.set_tactics(id(combatant), tactics).map_err(|e| e.to_py(py))
        })
    }

    /// Marks the combatant down.
    fn down(
        &mut self,
        py: Python<'_>,
        #[pyo3(from_py_with = args::tracker::combatant)] combatant: u32,
    ) -> PyResult<()> {
        guard(py, || self.inner.down(id(combatant)).map_err(|e| e.to_py(py)))
    }

    /// Removes the combatant from the encounter.
    fn remove(
        &mut self,
        py: Python<'_>,
        #[pyo3(from_py_with = args::tracker::combatant)] combatant: u32,
    ) -> PyResult<()> {
        guard(py, || self.inner.remove(id(combatant)).map_err(|e| e.to_py(py)))
    }

    /// Adds an effect lasting `ticks` or `rounds`; returns its id.
    #[pyo3(signature = (name, target = None, ticks = None, rounds = None))]
    fn add_effect(
        &mut self,
        py: Python<'_>,
        #[pyo3(from_py_with = args::tracker::name)] name: String,
        #[pyo3(from_py_with = args::tracker::target_opt)] target: Option<u32>,
        #[pyo3(from_py_with = args::tracker::effect_ticks)] ticks: Option<u64>,
        #[pyo3(from_py_with = args::tracker::rounds)] rounds: Option<u32>,
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
                .add_effect(&name, target.map(id), duration)
                .map(|e| e.0)
                .map_err(|e| e.to_py(py))
        })
    }

    /// Ends an effect early; whether it was still active.
    fn end_effect(
        &mut self,
        py: Python<'_>,
        #[pyo3(from_py_with = args::tracker::effect)] effect: u32,
    ) -> PyResult<bool> {
        guard(py, || self.inner.end_effect(EffectId(effect)).map_err(|e| e.to_py(py)))
    }

    /// `attacker` strikes `target`, the dice typed in (`attack`, `defense`)
    /// or `None` to roll; `range` is `(short_range, range_strength,
    /// distance)` or a mapping of those.
    #[pyo3(signature = (attacker, target, attack = None, defense = None, parry = false, range = None, point_blank = false, modifier = 0, postures = None))]
    #[expect(
        clippy::too_many_arguments,
        reason = "a strike's dice and options, as Python passes them"
    )]
    fn strike(
        &mut self,
        py: Python<'_>,
        #[pyo3(from_py_with = args::tracker::attacker)] attacker: u32,
        #[pyo3(from_py_with = args::tracker::target)] target: u32,
        #[pyo3(from_py_with = args::tracker::roll)] attack: Option<i32>,
        #[pyo3(from_py_with = args::tracker::defense)] defense: Option<i32>,
        #[pyo3(from_py_with = args::tracker::parry)] parry: bool,
        range: Option<&Bound<'_, PyAny>>,
        #[pyo3(from_py_with = args::tracker::point_blank)] point_blank: bool,
        #[pyo3(from_py_with = args::tracker::modifier)] modifier: i32,
        #[pyo3(from_py_with = args::tracker::postures)] postures: Option<(Option<i32>, Option<i32>)>,
    ) -> PyResult<PyStrikeReport> {
        let postures = postures.unwrap_or_default();
        guard(py, || {
            let options = EncounterStrikeOptions {
                parry,
                range: range.filter(|r| !r.is_none()).map(input::range).transpose()?,
                point_blank,
                modifier,
                attacker_posture: postures.0,
                defender_posture: postures.1,
            };
            let report = self
                .inner
                .strike(id(attacker), id(target), options, StrikeDice { attack, defense })
                .map_err(|e| e.to_py(py))?;
            records::strike_report(py, report)
        })
    }

    /// FUDGE 4.34: `lone` fights `foes` (ids) for a round, one roll of his
    /// against each of theirs: `roll` his 4dF, `rolls` each foe's (or
    /// `None` to roll), `group_roll` one 2dF for every foe (`group` typed),
    /// `ignore` the foes he lets try his armor, `strike` the foe(s) he
    /// wounds, `modifier` the GM's to him.
    #[pyo3(signature = (lone, foes, roll = None, rolls = None, group_roll = false, group = None, ignore = Vec::new(), strike = Vec::new(), modifier = 0))]
    #[expect(
        clippy::too_many_arguments,
        reason = "a lone fighter's round's dice and choices, as Python passes them"
    )]
    fn lone_fighter(
        &mut self,
        py: Python<'_>,
        #[pyo3(from_py_with = args::tracker::lone)] lone: u32,
        #[pyo3(from_py_with = args::tracker::foes)] foes: Vec<u32>,
        #[pyo3(from_py_with = args::tracker::roll)] roll: Option<i32>,
        #[pyo3(from_py_with = args::tracker::rolls)] rolls: Option<Vec<Option<i32>>>,
        #[pyo3(from_py_with = args::tracker::group_roll)] group_roll: bool,
        #[pyo3(from_py_with = args::tracker::group)] group: Option<i32>,
        #[pyo3(from_py_with = args::tracker::ignore)] ignore: Vec<u32>,
        #[pyo3(from_py_with = args::tracker::strike)] strike: Vec<u32>,
        #[pyo3(from_py_with = args::tracker::modifier)] modifier: i32,
    ) -> PyResult<PyLoneFighterReport> {
        guard(py, || {
            let ids = |v: Vec<u32>| v.into_iter().map(id).collect::<Vec<_>>();
            let options = LoneFighterOptions {
                group_roll: group_roll || group.is_some(),
                ignore: ids(ignore),
                strike: ids(strike),
                modifier,
            };
            let dice = LoneFighterDice {
                lone: roll,
                group,
                foes: rolls.unwrap_or_default(),
            };
            let report = self
                .inner
                .lone_fighter(id(lone), &ids(foes), &options, &dice)
                .map_err(|e| e.to_py(py))?;
            records::lone_fighter_report(py, report)
        })
    }

    /// FUDGE 4.4: `shooter` shoots at `target` (ids) at Difficulty Level
    /// `difficulty`; the target dodges (its combat skill, or `dodge_skill`;
    /// `propelled` 2 or 3 off it) unless `unaware`; `roll` and `dodge` the
    /// 4dF (`None` to roll).
    #[pyo3(signature = (shooter, target, roll = None, dodge = None, difficulty = 0, unaware = false, dodge_skill = None, propelled = None))]
    #[expect(
        clippy::too_many_arguments,
        reason = "a shot's dice and options, as Python passes them"
    )]
    fn shoot(
        &mut self,
        py: Python<'_>,
        #[pyo3(from_py_with = args::tracker::shooter)] shooter: u32,
        #[pyo3(from_py_with = args::tracker::target)] target: u32,
        #[pyo3(from_py_with = args::tracker::roll)] roll: Option<i32>,
        #[pyo3(from_py_with = args::tracker::dodge)] dodge: Option<i32>,
        #[pyo3(from_py_with = args::tracker::difficulty)] difficulty: i32,
        #[pyo3(from_py_with = args::tracker::unaware)] unaware: bool,
        #[pyo3(from_py_with = args::tracker::dodge_skill)] dodge_skill: Option<i32>,
        #[pyo3(from_py_with = args::tracker::propelled)] propelled: Option<i32>,
    ) -> PyResult<PyShotReport> {
        guard(py, || {
            let options = ShotOptions {
                difficulty,
                defense: if unaware {
                    ShotDefense::Unaware
                } else {
                    ShotDefense::Dodge
                },
                dodge_skill,
                missile: propelled.map_or(Missile::Thrown, |dodge_penalty| Missile::Propelled { dodge_penalty }),
            };
            let report = self
                .inner
                .shoot(id(shooter), id(target), options, (roll, dodge))
                .map_err(|e| e.to_py(py))?;
            Ok(records::shot_report(report))
        })
    }

    /// FUDGE 4.4: `first` and `second` (ids) shoot at each other at once,
    /// each needing only its Difficulty Level (`difficulties`: the first's,
    /// the second's); `rolls` their 4dF (`None` to roll).
    #[pyo3(signature = (first, second, difficulties, rolls = (None, None)))]
    fn exchange_fire(
        &mut self,
        py: Python<'_>,
        #[pyo3(from_py_with = args::tracker::first)] first: u32,
        #[pyo3(from_py_with = args::tracker::second)] second: u32,
        #[pyo3(from_py_with = args::tracker::difficulties)] difficulties: (i32, i32),
        #[pyo3(from_py_with = args::tracker::rolls_pair)] rolls: (Option<i32>, Option<i32>),
    ) -> PyResult<(PyShotReport, PyShotReport)> {
        guard(py, || {
            let (a, b) = self
                .inner
                .exchange_fire(id(first), id(second), difficulties, rolls)
                .map_err(|e| e.to_py(py))?;
            Ok((records::shot_report(a), records::shot_report(b)))
        })
    }

    /// FUDGE 4.21: a story element, `combatant`'s roll of its skill with
    /// the GM's `modifier` (-3..=3), once or with `median` the median of
    /// three; `rolls` typed in (none to roll).
    #[pyo3(signature = (combatant, modifier = 0, median = false, rolls = Vec::new()))]
    fn story_element(
        &mut self,
        py: Python<'_>,
        #[pyo3(from_py_with = args::tracker::combatant)] combatant: u32,
        #[pyo3(from_py_with = args::tracker::modifier)] modifier: i32,
        #[pyo3(from_py_with = args::tracker::median)] median: bool,
        #[pyo3(from_py_with = args::tracker::story_rolls)] rolls: Vec<i32>,
    ) -> PyResult<PyStoryReport> {
        guard(py, || {
            let report = self
                .inner
                .story_element(id(combatant), modifier, median, &rolls)
                .map_err(|e| e.to_py(py))?;
            records::story_report(py, report)
        })
    }

    /// FUDGE 4.31: `scout`, in all-out defense and unhit, rolls its
    /// Perception or Tactics against Fair; on a success `foe` is at -1 in
    /// its exchanges of the next round (its next moment without rounds).
    /// `roll` typed in (none to roll).
    #[pyo3(signature = (scout, foe, roll = None))]
    fn scout(
        &mut self,
        py: Python<'_>,
        #[pyo3(from_py_with = args::tracker::scout)] scout: u32,
        #[pyo3(from_py_with = args::tracker::foe)] foe: u32,
        #[pyo3(from_py_with = args::tracker::roll)] roll: Option<i32>,
    ) -> PyResult<PyScoutReport> {
        guard(py, || {
            self.inner
                .scout(id(scout), id(foe), roll)
                .map(records::scout_report)
                .map_err(|e| e.to_py(py))
        })
    }

    /// Whether the combatant is at scouting's -1 in an exchange now.
    fn scouted(
        &self,
        py: Python<'_>,
        #[pyo3(from_py_with = args::tracker::combatant)] combatant: u32,
    ) -> PyResult<bool> {
        guard(py, || self.inner.scouted(id(combatant)).map_err(|e| e.to_py(py)))
    }

    /// The GM sets the combatant's wound boxes (a mapping, `{"hurt": 1}`)
    /// or hit points left: exactly one of them.
    #[pyo3(signature = (combatant, wounds = None, hit_points = None))]
    fn set_damage(
        &mut self,
        py: Python<'_>,
        #[pyo3(from_py_with = args::tracker::combatant)] combatant: u32,
        wounds: Option<&Bound<'_, PyAny>>,
        #[pyo3(from_py_with = args::tracker::hit_points)] hit_points: Option<i32>,
    ) -> PyResult<()> {
        guard(py, || {
            let change = input::wound_override(py, wounds, hit_points)?;
            self.inner.set_damage(id(combatant), change).map_err(|e| e.to_py(py))
        })
    }

    /// Heals every wound of the combatant.
    fn heal(
        &mut self,
        py: Python<'_>,
        #[pyo3(from_py_with = args::tracker::combatant)] combatant: u32,
    ) -> PyResult<()> {
        guard(py, || {
            self.inner
                .set_damage(id(combatant), WoundOverride::Heal)
                .map_err(|e| e.to_py(py))
        })
    }

    /// The combatant's wound penalty now.
    fn penalty(
        &self,
        py: Python<'_>,
        #[pyo3(from_py_with = args::tracker::combatant)] combatant: u32,
    ) -> PyResult<i32> {
        guard(py, || self.inner.penalty(id(combatant)).map_err(|e| e.to_py(py)))
    }

    /// Hides the combatant from the players' view.
    fn hide(
        &mut self,
        py: Python<'_>,
        #[pyo3(from_py_with = args::tracker::combatant)] combatant: u32,
    ) -> PyResult<()> {
        guard(py, || self.inner.hide(id(combatant)).map_err(|e| e.to_py(py)))
    }

    /// Shows a hidden combatant to the players.
    fn reveal(
        &mut self,
        py: Python<'_>,
        #[pyo3(from_py_with = args::tracker::combatant)] combatant: u32,
    ) -> PyResult<()> {
        guard(py, || self.inner.reveal(id(combatant)).map_err(|e| e.to_py(py)))
    }

    /// The players' side (`None`: nobody's).
    #[pyo3(signature = (side = None))]
    fn set_party(
        &mut self,
        py: Python<'_>,
        #[pyo3(from_py_with = args::tracker::side)] side: Option<String>,
    ) -> PyResult<()> {
        guard(py, || self.inner.set_party(side.as_deref()).map_err(|e| e.to_py(py)))
    }

    /// What a screen shows, the GM's or the players'.
    #[pyo3(signature = (players = false))]
    fn view(
        &self,
        py: Python<'_>,
        #[pyo3(from_py_with = args::tracker::players)] players: bool,
    ) -> PyResult<PyEncounterView> {
        guard(py, || {
            let view = self.inner.view(if players { ViewFor::Players } else { ViewFor::Gm });
            records::encounter_view(py, view)
        })
    }

    /// The tick sheet.
    fn tick_sheet<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        guard(py, || {
            let sheet: Tuple<Py<PySheetLine>> = records::sheet(py, self.inner.tick_sheet())?;
            Ok(sheet.bind(py).clone().into_any())
        })
    }

    /// Names of the lines awaiting a declaration.
    fn awaiting(&self, py: Python<'_>) -> PyResult<Vec<String>> {
        guard(py, || Ok(self.inner.awaiting()))
    }

    /// The log entries kept, oldest first.
    fn log<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        guard(py, || records::log_entries(py, self.inner.log()))
    }

    /// Log entries ever written.
    fn log_len(&self, py: Python<'_>) -> PyResult<u64> {
        guard(py, || Ok(self.inner.log_len()))
    }

    /// The log entries numbered `n` and on.
    fn log_since<'py>(
        &self,
        py: Python<'py>,
        #[pyo3(from_py_with = args::tracker::n)] n: u64,
    ) -> PyResult<Bound<'py, PyList>> {
        guard(py, || records::log_entries(py, self.inner.log_since(n)))
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
    fn set_undo_limit(
        &mut self,
        py: Python<'_>,
        #[pyo3(from_py_with = args::tracker::limit)] limit: u32,
    ) -> PyResult<()> {
        guard(py, || self.inner.set_undo_limit(limit).map_err(|e| e.to_py(py)))
    }

    /// Each side's chance of winning from here: solved exactly when the
    /// exact engine models the fight as it stands and `exact` allows it,
    /// else the rest of the battle fought `battles` times (GIL released).
    fn odds_from_here(
        &self,
        py: Python<'_>,
        #[pyo3(from_py_with = args::rules::battles)] battles: u64,
        #[pyo3(from_py_with = args::rules::seed)] seed: u64,
        #[pyo3(from_py_with = args::tracker::exact)] exact: bool,
    ) -> PyResult<PyOddsFromHere> {
        guard(py, || {
            let encounter = &self.inner;
            let options = ExactOptions::default();
            let odds = py
                .detach(|| odds_from_here_with(encounter, battles, seed, exact.then_some(&options)))
                .map_err(|e| e.to_py(py))?;
            records::odds(py, odds)
        })
    }

    /// Whether two encounters are equal: whether their snapshots are (the
    /// same state, dice, log and newest undo steps; the older undo steps
    /// a snapshot drops do not count, so a pickled encounter equals its
    /// original).
    fn same_as(slf: &Bound<'_, Self>, other: &Bound<'_, PyAny>) -> PyResult<bool> {
        let py = slf.py();
        guard(py, || {
            let other = other
                .cast::<PyEncounter>()
                .map_err(|_| crate::error::argument_type(py, "other", "a skirmish._core.Encounter", other))?;
            if slf.is(other) {
                return Ok(true);
            }
            let (mut a, mut b) = (slf.borrow_mut(), other.borrow_mut());
            Ok(a.snapshot_text(py)? == b.snapshot_text(py)?)
        })
    }
}

/// Registers the class and the records.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    records::register(m)?;
    m.add_class::<PyEncounter>()
}
