//! The records of FUDGE chapter 4's rounds at the table: a lone fighter's
//! round and each foe's part in it (4.34), a shot (4.4), a story element
//! (4.21). Conversion only, as the other records.

use pyo3::prelude::*;
use skirmish_core::damage::WoundLevel;
use skirmish_core::tracker as core;

use super::{PyPart, parts};
use crate::record::{Name, Tuple, record};

record! {
    /// One foe's part in a lone fighter's round (FUDGE 4.34).
    struct PyLoneFoe as "LoneFoe" {
        /// The foe (id).
        foe: u32,
        /// Its roll (its own 4dF, the group's 2dF, 0 for an NPC result).
        roll: i32,
        /// Its result against the lone fighter.
        total: i32,
        /// Its terms.
        breakdown: Tuple<Py<PyPart>>,
        /// The lone fighter's result against it (the Difficulty Level if
        /// ignored).
        lone_total: i32,
        /// The lone fighter's relative degree over it.
        margin: i32,
        /// The lone fighter ignored it.
        ignored: bool,
        /// The lone fighter may wound it (FUDGE 4.34's rule).
        may_be_wounded: bool,
        /// It wounded the lone fighter.
        hit: bool,
        /// The damage it did him (0 if it did not hit).
        damage_to_lone: i32,
        /// The damage his blow did it, if he struck it.
        damage: Option<i32>,
        /// Its worst wound after the round (wound track), if any.
        wound: Option<Name<WoundLevel>>,
        /// Its hit points after the round (hit points).
        hit_points: Option<i32>,
        /// His blow took it out of the fight.
        went_down: bool,
    }
    stub []
    methods {}
}

record! {
    /// What a lone fighter's round did (FUDGE 4.34): his one roll against
    /// each foe's, who hit him, whom he struck.
    struct PyLoneFighterReport as "LoneFighterReport" {
        /// The lone fighter (id).
        lone: u32,
        /// His one roll (0 for an NPC result).
        lone_roll: i32,
        /// The group's 2dF, when the GM rolled once for every foe.
        group_roll: Option<i32>,
        /// His result before each foe's own modifiers.
        lone_result: i32,
        /// Its terms.
        lone_breakdown: Tuple<Py<PyPart>>,
        /// Each foe, in the order given.
        foes: Tuple<Py<PyLoneFoe>>,
        /// His worst wound after the round (wound track), if any.
        wound: Option<Name<WoundLevel>>,
        /// His hit points after the round (hit points).
        hit_points: Option<i32>,
        /// The foes' blows took him out of the fight.
        went_down: bool,
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

record! {
    /// A story element (FUDGE 4.21): a combatant's roll of its skill with
    /// the GM's modifier, once or the median of three.
    struct PyStoryReport as "StoryReport" {
        /// Who rolled (id).
        combatant: u32,
        /// The skill with the GM's modifier (a ladder value).
        skill: i32,
        /// Every result, in the order rolled.
        results: Tuple<i32>,
        /// The result that counts: the only one, or the median.
        result: i32,
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

record! {
    /// A scouting roll (FUDGE 4.31): the scout's Perception or Tactics
    /// against Fair; on a success the foe is at -1 next.
    struct PyScoutReport as "ScoutReport" {
        /// Who scouted (id).
        scout: u32,
        /// The foe it scouted (id).
        foe: u32,
        /// Its Perception or Tactics with its wound penalty (a ladder value).
        level: i32,
        /// The 4dF (0 for an NPC whose result is its trait level).
        roll: i32,
        /// The result: level + roll.
        result: i32,
        /// What it had to make: Fair (0).
        difficulty: i32,
        /// It made it: the foe is scouted.
        scouts: bool,
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

record! {
    /// A FUDGE shot (4.4): the result against the dodge or the Difficulty
    /// Level, the hit, the wound.
    struct PyShotReport as "ShotReport" {
        /// Who shot (id).
        shooter: u32,
        /// At whom (id).
        target: u32,
        /// The shooter's result.
        result: i32,
        /// The target's dodge result, when it dodged.
        dodge: Option<i32>,
        /// The Difficulty Level.
        difficulty: i32,
        /// The result over the dodge, or over the Difficulty Level.
        relative_degree: i32,
        /// Whether it hit.
        hit: bool,
        /// The damage it did (0 if it missed).
        damage: i32,
        /// The target's worst wound after it (wound track), if any.
        wound: Option<Name<WoundLevel>>,
        /// The target's hit points after it (hit points).
        hit_points: Option<i32>,
        /// It took the target out of the fight.
        went_down: bool,
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

/// A shot's report as a Python object.
pub(crate) fn shot_report(r: core::ShotReport) -> PyShotReport {
    PyShotReport {
        shooter: r.shooter.0,
        target: r.target.0,
        result: r.result,
        dodge: r.dodge,
        difficulty: r.difficulty,
        relative_degree: r.relative_degree,
        hit: r.hit,
        damage: r.damage,
        wound: r.wound.map(Name),
        hit_points: r.hit_points,
        went_down: r.went_down,
        text: r.text,
    }
}

/// A story element's report as a Python object.
pub(crate) fn story_report(py: Python<'_>, r: core::StoryReport) -> PyResult<PyStoryReport> {
    Ok(PyStoryReport {
        combatant: r.combatant.0,
        skill: r.skill,
        results: Tuple::of(py, r.results)?,
        result: r.result,
        text: r.text,
    })
}

/// A scouting roll's report as a Python object.
pub(crate) fn scout_report(r: core::ScoutReport) -> PyScoutReport {
    PyScoutReport {
        scout: r.scout.0,
        foe: r.foe.0,
        level: r.level,
        roll: r.roll,
        result: r.result,
        difficulty: r.difficulty,
        scouts: r.scouts,
        text: r.text,
    }
}

/// A lone fighter's report as a Python object.
pub(crate) fn lone_fighter_report(py: Python<'_>, r: core::LoneFighterReport) -> PyResult<PyLoneFighterReport> {
    let foes = r
        .foes
        .into_iter()
        .map(|f| {
            Py::new(
                py,
                PyLoneFoe {
                    foe: f.foe.0,
                    roll: f.roll,
                    total: f.total,
                    breakdown: parts(py, f.breakdown)?,
                    lone_total: f.lone_total,
                    margin: f.margin,
                    ignored: f.ignored,
                    may_be_wounded: f.may_be_wounded,
                    hit: f.hit,
                    damage_to_lone: f.damage_to_lone,
                    damage: f.damage,
                    wound: f.wound.map(Name),
                    hit_points: f.hit_points,
                    went_down: f.went_down,
                },
            )
        })
        .collect::<PyResult<Vec<_>>>()?;
    Ok(PyLoneFighterReport {
        lone: r.lone.0,
        lone_roll: r.lone_roll,
        group_roll: r.group_roll,
        lone_result: r.lone_result,
        lone_breakdown: parts(py, r.lone_breakdown)?,
        foes: Tuple::of(py, foes)?,
        wound: r.wound.map(Name),
        hit_points: r.hit_points,
        went_down: r.went_down,
        text: r.text,
    })
}
