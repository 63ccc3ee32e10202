//! The tracker's records as Python classes (`skirmish_core::tracker`'s
//! views, turns, strike reports, log entries and free-action results, and
//! `skirmish_sim::odds`'s odds from here): frozen `record!` classes made
//! from the core values, field by field, with the names Python's
//! dataclasses had. `StrikeResult` is a Python `str` enum made at import
//! from the core enum's own variants and serde names.
//!
//! Conversion only: what a record computes (an acting line's tick-sheet
//! label, the odds of a side by name, a log entry's text) is the core's,
//! called on the core value rebuilt from the fields.

use pyo3::exceptions::{PyImportError, PyKeyError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyList, PyString};
use skirmish_core::damage::{WoundLevel, WoundTrack};
use skirmish_core::fighter::Fighter;
use skirmish_core::timing::FreeActionResult;
use skirmish_core::tracker::{
    self as core, CombatantId, CombatantState, EncounterView, ExpiredEffect, LogEntry, SheetLine, Status, StrikeReport,
    StrikeResult, Turn, ViewFor,
};
use skirmish_sim::odds::{OddsFromHere, OddsMethod, SideOdds};

use crate::error::guard;
use crate::record::{
    Field, FractionText, Name, Record, Tree, Tuple, Variants, listed_in_order, record, serde_name, serde_value,
};

mod fudge;

pub(crate) use fudge::{
    PyLoneFighterReport, PyLoneFoe, PyScoutReport, PyShotReport, PyStoryReport, lone_fighter_report, scout_report,
    shot_report, story_report,
};

// --- the core enums, every variant listed ----------------------------------

impl Variants for Status {
    const ALL: &'static [Self] = &[Status::Standing, Status::Down, Status::Removed];
    fn ordinal(self) -> usize {
        match self {
            Status::Standing => 0,
            Status::Down => 1,
            Status::Removed => 2,
        }
    }
}

impl Variants for ViewFor {
    const ALL: &'static [Self] = &[ViewFor::Gm, ViewFor::Players];
    fn ordinal(self) -> usize {
        match self {
            ViewFor::Gm => 0,
            ViewFor::Players => 1,
        }
    }
}

impl Variants for WoundLevel {
    const ALL: &'static [Self] = &[
        WoundLevel::Scratch,
        WoundLevel::Hurt,
        WoundLevel::VeryHurt,
        WoundLevel::Incapacitated,
        WoundLevel::NearDeath,
        WoundLevel::Dead,
    ];
    fn ordinal(self) -> usize {
        match self {
            WoundLevel::Scratch => 0,
            WoundLevel::Hurt => 1,
            WoundLevel::VeryHurt => 2,
            WoundLevel::Incapacitated => 3,
            WoundLevel::NearDeath => 4,
            WoundLevel::Dead => 5,
        }
    }
}

impl Variants for StrikeResult {
    const ALL: &'static [Self] = &[
        StrikeResult::Hit,
        StrikeResult::AmazingStrike,
        StrikeResult::GuaranteedHit,
        StrikeResult::Miss,
        StrikeResult::AmazingDefense,
        StrikeResult::Fumble,
        StrikeResult::OutOfReach,
        StrikeResult::Parried,
        StrikeResult::BelowMinimum,
        StrikeResult::Countered,
        StrikeResult::CannotHarm,
    ];
    fn ordinal(self) -> usize {
        match self {
            StrikeResult::Hit => 0,
            StrikeResult::AmazingStrike => 1,
            StrikeResult::GuaranteedHit => 2,
            StrikeResult::Miss => 3,
            StrikeResult::AmazingDefense => 4,
            StrikeResult::Fumble => 5,
            StrikeResult::OutOfReach => 6,
            StrikeResult::Parried => 7,
            StrikeResult::BelowMinimum => 8,
            StrikeResult::Countered => 9,
            StrikeResult::CannotHarm => 10,
        }
    }
}

/// The Python `StrikeResult` enum and its members, in ordinal order.
static STRIKE_RESULT: PyOnceLock<(Py<PyAny>, Vec<Py<PyAny>>)> = PyOnceLock::new();

/// A member's Python name: the serde name in capitals (`AMAZING_STRIKE`).
fn member_name(r: StrikeResult) -> String {
    serde_name(r).to_uppercase()
}

/// `StrikeResult`, a `str` enum (`StrikeResult.HIT == "hit"`, `str()` the
/// value), made once from the core's variants.
fn strike_result(py: Python<'_>) -> PyResult<&(Py<PyAny>, Vec<Py<PyAny>>)> {
    STRIKE_RESULT.get_or_try_init(py, || {
        let members: Vec<(String, String)> = StrikeResult::ALL
            .iter()
            .map(|r| (member_name(*r), serde_name(*r)))
            .collect();
        let options = PyDict::new(py);
        options.set_item("module", "skirmish._core")?;
        options.set_item("qualname", "StrikeResult")?;
        options.set_item("type", py.get_type::<PyString>())?;
        let class = py
            .import("enum")?
            .getattr("Enum")?
            .call(("StrikeResult", members), Some(&options))?;
        class.setattr("__str__", py.get_type::<PyString>().getattr("__str__")?)?;
        class.setattr(
            "__doc__",
            "What a strike did (a ``str``: ``StrikeResult.HIT == \"hit\"``), the core's \
             `skirmish_core::tracker::StrikeResult`.",
        )?;
        let by_ordinal = StrikeResult::ALL
            .iter()
            .map(|r| class.getattr(member_name(*r).as_str()).map(Bound::unbind))
            .collect::<PyResult<Vec<_>>>()?;
        Ok((class.unbind(), by_ordinal))
    })
}

impl Field for StrikeResult {
    fn hint() -> String {
        "StrikeResult".to_owned()
    }
    fn input_hint() -> String {
        "str".to_owned()
    }
    fn to_py<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        match strike_result(py)?.1.get(self.ordinal()) {
            Some(member) => Ok(member.bind(py).clone()),
            None => Err(PyImportError::new_err(format!("StrikeResult::{self:?} is not listed"))),
        }
    }
    fn from_py(obj: &Bound<'_, PyAny>) -> Result<Self, String> {
        serde_value(obj)
    }
}

fn enum_stub() -> String {
    let mut out = String::from("class StrikeResult(str, Enum):\n");
    for r in StrikeResult::ALL {
        out.push_str(&format!("    {} = {:?}\n", member_name(*r), serde_name(*r)));
    }
    // Enum's lookup by value, not str's constructor.
    out.push_str("    def __new__(cls, value: str) -> StrikeResult: ...\n");
    out
}

// --- the records ------------------------------------------------------------

record! {
    /// One term of a total, as the GM reads it: `Part("strike rating", 9)`,
    /// `Part("roll", -1)`.
    struct PyPart as "Part" {
        /// What it is.
        label: String,
        /// What it adds.
        value: i32,
    }
    stub []
    methods {}
}

record! {
    /// One line acting at a moment: a combatant, or a group's living members.
    struct PyActingLine as "ActingLine" {
        /// The line's name (the combatant's, or the group's).
        name: String,
        /// The ids of the combatants acting on it (a group's living members).
        members: Vec<u32>,
        /// Whether an action lands (`True`) or a Tick System turn begins (`False`).
        lands: bool,
        /// The action's number in the round (Continuous: in the battle).
        nth: u32,
        /// The label of the action it carries out.
        action: String,
    }
    stub ["@property", "def label(self) -> str: ..."]
    methods {
        /// The name as a tick sheet shows it ("(turn)" for a Tick System
        /// turn): the core's `ActingLine::sheet_label`.
        #[getter]
        fn label(&self, py: Python<'_>) -> PyResult<String> {
            guard(py, || Ok(self.to_core().sheet_label()))
        }
    }
}

impl PyActingLine {
    fn of(line: core::ActingLine) -> Self {
        PyActingLine {
            name: line.name,
            members: line.members.into_iter().map(|c| c.0).collect(),
            lands: line.lands,
            nth: line.nth,
            action: line.action,
        }
    }

    fn to_core(&self) -> core::ActingLine {
        core::ActingLine {
            name: self.name.clone(),
            members: self.members.iter().map(|&c| CombatantId(c)).collect(),
            lands: self.lands,
            nth: self.nth,
            action: self.action.clone(),
        }
    }
}

/// An acting line as a Python object.
pub(crate) fn acting_line(py: Python<'_>, line: core::ActingLine) -> PyResult<Py<PyActingLine>> {
    Py::new(py, PyActingLine::of(line))
}

fn acting_lines(py: Python<'_>, lines: Vec<core::ActingLine>) -> PyResult<Tuple<Py<PyActingLine>>> {
    let lines = lines
        .into_iter()
        .map(|l| acting_line(py, l))
        .collect::<PyResult<Vec<_>>>()?;
    Tuple::of(py, lines)
}

record! {
    /// An entry of the tick sheet: everything pending at one moment.
    struct PySheetLine as "SheetLine" {
        /// Absolute tick.
        tick: u64,
        /// Round (phase, exchange, stopwatch lap).
        round: u32,
        /// The tick as the system names it.
        display: i64,
        /// Pass or block.
        pass_: u32,
        /// Who acts then, in order.
        lines: Tuple<Py<PyActingLine>>,
        /// Effects that run out then.
        effects: Vec<String>,
    }
    stub []
    methods {}
}

/// The tick sheet as a tuple of Python objects.
pub(crate) fn sheet(py: Python<'_>, sheet: Vec<SheetLine>) -> PyResult<Tuple<Py<PySheetLine>>> {
    let lines = sheet
        .into_iter()
        .map(|s| {
            let line = PySheetLine {
                tick: s.tick,
                round: s.round,
                display: s.display,
                pass_: s.pass,
                lines: acting_lines(py, s.lines)?,
                effects: s.effects,
            };
            Py::new(py, line)
        })
        .collect::<PyResult<Vec<_>>>()?;
    Tuple::of(py, lines)
}

record! {
    /// An effect that ran out.
    struct PyExpiredEffect as "ExpiredEffect" {
        /// Its id.
        id: u32,
        /// Its name.
        name: String,
        /// The id of whom it was on, if anyone.
        target: Option<u32>,
    }
    stub []
    methods {}
}

fn expired(py: Python<'_>, effects: Vec<ExpiredEffect>) -> PyResult<Tuple<Py<PyExpiredEffect>>> {
    let effects = effects
        .into_iter()
        .map(|e| {
            let effect = PyExpiredEffect {
                id: e.id.0,
                name: e.name,
                target: e.target.map(|t| t.0),
            };
            Py::new(py, effect)
        })
        .collect::<PyResult<Vec<_>>>()?;
    Tuple::of(py, effects)
}

record! {
    /// A new round with its initiative rolled; `sheet` shows who acts when.
    struct PyNewRound as "NewRound" {
        /// Its number.
        round: u32,
        /// The tick sheet of the round.
        sheet: Tuple<Py<PySheetLine>>,
        /// Effects that ran out as the round began.
        expired: Tuple<Py<PyExpiredEffect>>,
    }
    stub []
    methods {}
}

record! {
    /// These lines act now, together (`display` is the tick as the system
    /// names it).
    struct PyMoment as "Moment" {
        /// Absolute tick.
        tick: u64,
        /// Round (phase, exchange, stopwatch lap).
        round: u32,
        /// The tick as the system names it.
        display: i64,
        /// Pass or block.
        pass_: u32,
        /// Who acts, in order.
        lines: Tuple<Py<PyActingLine>>,
        /// Effects that run out now.
        expired: Tuple<Py<PyExpiredEffect>>,
    }
    stub ["@property", "def names(self) -> list[str]: ..."]
    methods {
        /// The acting lines' names, in order.
        #[getter]
        fn names(&self, py: Python<'_>) -> PyResult<Vec<String>> {
            self.lines
                .bind(py)
                .iter()
                .map(|line| Ok(line.cast::<PyActingLine>()?.get().name.clone()))
                .collect()
        }
    }
}

record! {
    /// Nobody is left who can act.
    struct PyOver as "Over" {}
    stub []
    methods {}
}

/// What `Encounter.next` hands Python: a `NewRound`, a `Moment` or `Over`.
pub(crate) fn turn(py: Python<'_>, turn: Turn) -> PyResult<Bound<'_, PyAny>> {
    match turn {
        Turn::NewRound {
            round,
            sheet: s,
            expired: e,
        } => {
            let r = PyNewRound {
                round,
                sheet: sheet(py, s)?,
                expired: expired(py, e)?,
            };
            Ok(Bound::new(py, r)?.into_any())
        }
        Turn::Moment {
            moment,
            lines,
            expired: e,
        } => {
            let m = PyMoment {
                tick: moment.tick,
                round: moment.round,
                display: moment.display,
                pass_: moment.pass,
                lines: acting_lines(py, lines)?,
                expired: expired(py, e)?,
            };
            Ok(Bound::new(py, m)?.into_any())
        }
        Turn::Over => Ok(Bound::new(py, PyOver {})?.into_any()),
    }
}

record! {
    /// What a strike did: totals with their breakdowns, the result, the wound.
    struct PyStrikeReport as "StrikeReport" {
        /// Who struck (id).
        attacker: u32,
        /// Whom (id).
        target: u32,
        /// The striking system ("full-contact", "fudge-opposed").
        striking: String,
        /// The attacker's 4dF.
        attack_roll: i32,
        /// The defender's 4dF (FUDGE opposed, or a Full Contact parry).
        defense_roll: Option<i32>,
        /// The attack's total.
        attack_total: i32,
        /// Its terms.
        attack_breakdown: Tuple<Py<PyPart>>,
        /// The defense's total.
        defense_total: i32,
        /// Its terms.
        defense_breakdown: Tuple<Py<PyPart>>,
        /// A parry's total, when the target parried.
        parry_total: Option<i32>,
        /// What it did.
        result: StrikeResult,
        /// The margin (attack - defense), or the relative degree.
        margin: i32,
        /// Whether it landed.
        landed: bool,
        /// The damage it did (0 if it did not land).
        damage: i32,
        /// The target's worst wound after it (wound track), if any.
        wound: Option<Name<WoundLevel>>,
        /// The wound box this blow marked (wound track), if any.
        marked: Option<Name<WoundLevel>>,
        /// The target's hit points after it (hit points).
        hit_points: Option<i32>,
        /// The target's wound penalty now (from the next moment on).
        penalty: i32,
        /// This blow took the target out of the fight.
        went_down: bool,
        /// This blow killed the target.
        died: bool,
        /// This blow disrupted the target's pending disruptible action.
        disrupted: bool,
        /// A FUDGE two-way exchange won by the defender (`COUNTERED`): the
        /// damage he did to the attacker; 0 otherwise.
        counter_damage: i32,
        /// The defender's answer took the attacker out of the fight.
        attacker_went_down: bool,
        /// The defender's answer killed the attacker.
        attacker_died: bool,
        /// The defender's answer disrupted the attacker's pending
        /// disruptible action.
        attacker_disrupted: bool,
        /// The log line it wrote.
        text: String,
    }
    stub ["def __str__(self) -> str: ..."]
    methods {
        fn __str__(&self) -> String {
            self.text.clone()
        }
    }
}

pub(super) fn parts(py: Python<'_>, parts: Vec<core::Part>) -> PyResult<Tuple<Py<PyPart>>> {
    let parts = parts
        .into_iter()
        .map(|p| {
            Py::new(
                py,
                PyPart {
                    label: p.label,
                    value: p.value,
                },
            )
        })
        .collect::<PyResult<Vec<_>>>()?;
    Tuple::of(py, parts)
}

/// A strike report as a Python object.
pub(crate) fn strike_report(py: Python<'_>, r: StrikeReport) -> PyResult<PyStrikeReport> {
    Ok(PyStrikeReport {
        attacker: r.attacker.0,
        target: r.target.0,
        striking: r.striking,
        attack_roll: r.attack_roll,
        defense_roll: r.defense_roll,
        attack_total: r.attack_total,
        attack_breakdown: parts(py, r.attack_breakdown)?,
        defense_total: r.defense_total,
        defense_breakdown: parts(py, r.defense_breakdown)?,
        parry_total: r.parry_total,
        result: r.result,
        margin: r.margin,
        landed: r.landed,
        damage: r.damage,
        wound: r.wound.map(Name),
        marked: r.marked.map(Name),
        hit_points: r.hit_points,
        penalty: r.penalty,
        went_down: r.went_down,
        died: r.died,
        disrupted: r.disrupted,
        counter_damage: r.counter_damage,
        attacker_went_down: r.attacker_went_down,
        attacker_died: r.attacker_died,
        attacker_disrupted: r.attacker_disrupted,
        text: r.text,
    })
}

record! {
    /// One combatant as a screen shows it (the players' view leaves out
    /// what they cannot see). `stats` and `wound_boxes` are the core's
    /// serde form, a new `dict` at each read.
    struct PyCombatantState as "CombatantState" {
        /// Its id.
        id: u32,
        /// Its name.
        name: String,
        /// Its side, if given.
        side: Option<String>,
        /// The group's name, for a member of a group.
        group: Option<String>,
        /// In the fight, down or removed.
        status: Name<Status>,
        /// Hidden from the players (always `False` in the players' view).
        hidden: bool,
        /// Whether it has combat stats (its strikes are resolved here).
        fighter: bool,
        /// Its worst wound (wound track), if hurt.
        wound: Option<Name<WoundLevel>>,
        /// Its wound boxes (wound track): the GM's, and the party's.
        wound_boxes: Option<Tree<WoundTrack>>,
        /// Hit points left: the GM's, and the party's.
        hit_points: Option<i32>,
        /// Its wound penalty: the GM's, and the party's.
        penalty: Option<i32>,
        /// Its combat stats: the GM's, and the party's.
        stats: Option<Tree<Fighter>>,
    }
    stub []
    methods {}
}

fn combatant_state(c: CombatantState) -> PyCombatantState {
    PyCombatantState {
        id: c.id.0,
        name: c.name,
        side: c.side,
        group: c.group,
        status: Name(c.status),
        hidden: c.hidden,
        fighter: c.fighter,
        wound: c.wound.map(Name),
        wound_boxes: c.wound_boxes.map(Tree),
        hit_points: c.hit_points,
        penalty: c.penalty,
        stats: c.stats.map(Tree),
    }
}

record! {
    /// One entry of the encounter's log.
    struct PyLogEntry as "LogEntry" {
        /// Round at the time.
        round: u32,
        /// Absolute tick at the time.
        tick: u64,
        /// What happened, in words.
        text: String,
    }
    stub ["def __str__(self) -> str: ..."]
    methods {
        /// `[round 1 tick 3] ...`: the core's `Display`.
        fn __str__(&self, py: Python<'_>) -> PyResult<String> {
            guard(py, || {
                let entry = LogEntry {
                    round: self.round,
                    tick: self.tick,
                    text: self.text.clone(),
                };
                Ok(entry.to_string())
            })
        }
    }
}

/// Log entries as a list of Python objects.
pub(crate) fn log_entries(py: Python<'_>, entries: Vec<LogEntry>) -> PyResult<Bound<'_, PyList>> {
    let entries = entries
        .into_iter()
        .map(|e| {
            Py::new(
                py,
                PyLogEntry {
                    round: e.round,
                    tick: e.tick,
                    text: e.text,
                },
            )
        })
        .collect::<PyResult<Vec<_>>>()?;
    PyList::new(py, entries)
}

record! {
    /// Everything a screen shows, in one call: see `Encounter.view`.
    struct PyEncounterView as "EncounterView" {
        /// Whose view it is.
        view_for: Name<ViewFor>,
        /// The timing system's name.
        system: String,
        /// The round (0 before the first).
        round: u32,
        /// The absolute tick of the last moment.
        now: u64,
        /// Nobody is left who can act.
        over: bool,
        /// The tick sheet: everything pending, by moment.
        sheet: Tuple<Py<PySheetLine>>,
        /// The first standing member of each line awaiting a declaration.
        awaiting: Vec<u32>,
        /// Every combatant (the players' view leaves out the hidden).
        combatants: Tuple<Py<PyCombatantState>>,
        /// Undo steps available (0 in the players' view).
        undo_depth: u32,
        /// Log entries ever written: pass it to `log_since` next time.
        log_len: u64,
    }
    stub [
        "def sheet_frame(self) -> Any: ...",
        "def combatants_frame(self) -> Any: ...",
        "def _repr_html_(self) -> str: ...",
    ]
    methods {
        /// The tick sheet as a pandas DataFrame: one row per acting line or
        /// effect running out (made by `skirmish.tracker`).
        fn sheet_frame<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
            display(slf, "_sheet_frame")
        }

        /// The combatants as a pandas DataFrame, one row each (made by
        /// `skirmish.tracker`).
        fn combatants_frame<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
            display(slf, "_combatants_frame")
        }

        /// The view as HTML tables, for notebooks (made by `skirmish.tracker`).
        fn _repr_html_<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
            display(slf, "_view_html")
        }
    }
}

/// A view shown by a function of the Python package's `skirmish.tracker`
/// (tables and HTML are Python's business, not the core's).
fn display<'py>(view: &Bound<'py, PyEncounterView>, function: &str) -> PyResult<Bound<'py, PyAny>> {
    view.py().import("skirmish.tracker")?.getattr(function)?.call1((view,))
}

/// A view as a Python object.
pub(crate) fn encounter_view(py: Python<'_>, v: EncounterView) -> PyResult<PyEncounterView> {
    let combatants = v
        .combatants
        .into_iter()
        .map(|c| Py::new(py, combatant_state(c)))
        .collect::<PyResult<Vec<_>>>()?;
    Ok(PyEncounterView {
        view_for: Name(v.view_for),
        system: v.system,
        round: v.round,
        now: v.now,
        over: v.over,
        sheet: sheet(py, v.sheet)?,
        awaiting: v.awaiting.into_iter().map(|c| c.0).collect(),
        combatants: Tuple::of(py, combatants)?,
        undo_depth: v.undo_depth,
        log_len: v.log_len,
    })
}

record! {
    /// Tick System: what a free action did.
    struct PyFreeAction as "FreeAction" {
        /// Ticks it took (0 for a prepared actor's first defense).
        ticks: u32,
        /// Whether it cancelled an action in progress.
        cancelled_action: bool,
        /// The countdown tick of the next turn afterwards, if any this round.
        next_turn: Option<i64>,
        /// Whether the next turn was pushed back.
        pushed: bool,
    }
    stub []
    methods {}
}

/// A free action's result as a Python object.
pub(crate) fn free_action(r: FreeActionResult) -> PyFreeAction {
    PyFreeAction {
        ticks: r.ticks,
        cancelled_action: r.cancelled_action,
        next_turn: r.next_turn,
        pushed: r.pushed,
    }
}

record! {
    /// One side's chance of winning from here, with its 95% Wilson interval.
    struct PySideOdds as "SideOdds" {
        /// The side's name.
        name: String,
        /// Battles it won.
        wins: u64,
        /// The share of battles it won.
        win_rate: f64,
        /// The lower bound of the interval.
        low: f64,
        /// The upper bound.
        high: f64,
        /// `win_rate` exactly, when the odds were solved in fractions.
        fraction: Option<FractionText>,
    }
    stub []
    methods {}
}

record! {
    /// Each side's chance of winning from here: solved exactly when the
    /// exact engine models the fight as it stands, else by fighting the
    /// rest many times (`method` says which, `reason` why not exact).
    struct PyOddsFromHere as "OddsFromHere" {
        /// Battles fought.
        battles: u64,
        /// Every side, in order of first appearance.
        sides: Tuple<Py<PySideOdds>>,
        /// Battles in which the last fighters of every side fell together.
        draws: u64,
        /// The share of draws.
        draw_rate: f64,
        /// Battles that hit a limit.
        timeouts: u64,
        /// The share of timeouts.
        timeout_rate: f64,
        /// The mean number of ticks the rest of the battle lasts (None when
        /// exact: the exact engine solves who wins, not how long).
        mean_ticks: Option<f64>,
        /// The mean number of rounds begun from here (None when exact).
        mean_rounds: Option<f64>,
        /// `draw_rate` exactly, when solved in fractions.
        draw_fraction: Option<FractionText>,
        /// `timeout_rate` (exact: the chance the fight never ends) exactly,
        /// when solved in fractions.
        timeout_fraction: Option<FractionText>,
        /// How the odds were computed: "decided", "exact" or "sampled".
        method: String,
        /// Whether the odds are the exact answer (decided or solved).
        exact: bool,
        /// Exact: the states of the chain solved.
        states: Option<u64>,
        /// Exact: the most a rate may be off (0 for fractions).
        error_bound: Option<f64>,
        /// Sampled: why not exact (None when sampling was asked for).
        reason: Option<String>,
    }
    stub ["def side(self, name: str) -> SideOdds: ..."]
    methods {
        /// The odds of the side named `name` (the core's
        /// `OddsFromHere::side`: case-insensitive); `KeyError` if none.
        fn side<'py>(&self, py: Python<'py>, #[pyo3(from_py_with = crate::args::tracker::name)] name: String) -> PyResult<Bound<'py, PyAny>> {
            guard(py, || {
                let odds = self.to_core(py)?;
                let found = odds
                    .side(&name)
                    .and_then(|s| odds.sides.iter().position(|x| std::ptr::eq(x, s)));
                match found {
                    Some(i) => self.sides.bind(py).get_item(i),
                    None => Err(PyKeyError::new_err(name)),
                }
            })
        }
    }
}

impl PyOddsFromHere {
    fn to_core(&self, py: Python<'_>) -> PyResult<OddsFromHere> {
        let sides = self
            .sides
            .bind(py)
            .iter()
            .map(|s| {
                let s = s.cast::<PySideOdds>()?.get();
                Ok(SideOdds {
                    name: s.name.clone(),
                    wins: s.wins,
                    win_rate: s.win_rate,
                    low: s.low,
                    high: s.high,
                    fraction: s.fraction.clone().map(|f| f.0),
                })
            })
            .collect::<PyResult<Vec<_>>>()?;
        let method = match self.method.as_str() {
            "decided" => OddsMethod::Decided,
            "exact" => OddsMethod::Exact {
                states: self.states.unwrap_or(0) as usize,
                fractions: self.draw_fraction.is_some(),
                error_bound: self.error_bound.unwrap_or(0.0),
            },
            _ => OddsMethod::Sampled {
                reason: self.reason.clone(),
            },
        };
        Ok(OddsFromHere {
            battles: self.battles,
            sides,
            draws: self.draws,
            draw_rate: self.draw_rate,
            draw_fraction: self.draw_fraction.clone().map(|f| f.0),
            timeouts: self.timeouts,
            timeout_rate: self.timeout_rate,
            timeout_fraction: self.timeout_fraction.clone().map(|f| f.0),
            mean_ticks: self.mean_ticks,
            mean_rounds: self.mean_rounds,
            method,
        })
    }
}

/// Odds from here as a Python object.
pub(crate) fn odds(py: Python<'_>, o: OddsFromHere) -> PyResult<PyOddsFromHere> {
    let sides = o
        .sides
        .into_iter()
        .map(|s| {
            Py::new(
                py,
                PySideOdds {
                    name: s.name,
                    wins: s.wins,
                    win_rate: s.win_rate,
                    low: s.low,
                    high: s.high,
                    fraction: s.fraction.map(FractionText),
                },
            )
        })
        .collect::<PyResult<Vec<_>>>()?;
    let (states, error_bound, reason) = match &o.method {
        OddsMethod::Decided => (None, None, None),
        OddsMethod::Exact {
            states, error_bound, ..
        } => (Some(*states as u64), Some(*error_bound), None),
        OddsMethod::Sampled { reason } => (None, None, reason.clone()),
    };
    Ok(PyOddsFromHere {
        battles: o.battles,
        sides: Tuple::of(py, sides)?,
        draws: o.draws,
        draw_rate: o.draw_rate,
        timeouts: o.timeouts,
        timeout_rate: o.timeout_rate,
        mean_ticks: o.mean_ticks,
        mean_rounds: o.mean_rounds,
        draw_fraction: o.draw_fraction.map(FractionText),
        timeout_fraction: o.timeout_fraction.map(FractionText),
        method: o.method.name().to_owned(),
        exact: o.method.is_exact(),
        states,
        error_bound,
        reason,
    })
}

// --- registration and stubs ---------------------------------------------------

/// The stubs of the records and of `StrikeResult`, in the order of
/// `_core.pyi`'s generated section.
pub(crate) fn stubs() -> String {
    [
        enum_stub(),
        PyPart::stub(),
        PyActingLine::stub(),
        PySheetLine::stub(),
        PyExpiredEffect::stub(),
        PyNewRound::stub(),
        PyMoment::stub(),
        PyOver::stub(),
        PyStrikeReport::stub(),
        PyLoneFoe::stub(),
        PyLoneFighterReport::stub(),
        PyStoryReport::stub(),
        PyScoutReport::stub(),
        PyShotReport::stub(),
        PyCombatantState::stub(),
        PyLogEntry::stub(),
        PyEncounterView::stub(),
        PyFreeAction::stub(),
        PySideOdds::stub(),
        PyOddsFromHere::stub(),
        crate::balance::PyBalancePoint::stub(),
        crate::balance::PyBalance::stub(),
        crate::exact::PyExactChance::stub(),
        crate::exact::PyExact::stub(),
    ]
    .join("\n")
}

/// Registers the record classes and `StrikeResult`, once every enum's
/// variants are checked to be listed in order.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    if !(listed_in_order::<Status>()
        && listed_in_order::<ViewFor>()
        && listed_in_order::<WoundLevel>()
        && listed_in_order::<StrikeResult>())
    {
        return Err(PyImportError::new_err(
            "skirmish._core: a core enum's variants are not listed in order (bindings/python/src/tracker/records.rs)",
        ));
    }
    m.add("StrikeResult", strike_result(m.py())?.0.bind(m.py()))?;
    m.add_class::<PyPart>()?;
    m.add_class::<PyActingLine>()?;
    m.add_class::<PySheetLine>()?;
    m.add_class::<PyExpiredEffect>()?;
    m.add_class::<PyNewRound>()?;
    m.add_class::<PyMoment>()?;
    m.add_class::<PyOver>()?;
    m.add_class::<PyStrikeReport>()?;
    m.add_class::<PyLoneFoe>()?;
    m.add_class::<PyLoneFighterReport>()?;
    m.add_class::<PyStoryReport>()?;
    m.add_class::<PyScoutReport>()?;
    m.add_class::<PyShotReport>()?;
    m.add_class::<PyCombatantState>()?;
    m.add_class::<PyLogEntry>()?;
    m.add_class::<PyEncounterView>()?;
    m.add_class::<PyFreeAction>()?;
    m.add_class::<PySideOdds>()?;
    m.add_class::<PyOddsFromHere>()
}
