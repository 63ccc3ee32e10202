//! The format of `timing.toml`, the timing worked examples as data: one
//! home, read by the core's tests (`tests/it/timing.rs`) and by
//! `skirmish replay --as-in-the-text` (`skirmish-cli/src/replay.rs`), which
//! include this file by path. The steps are described in the TOML's header.

use serde::Deserialize;
use skirmish_core::tables::weapons::RateOfFire;
use skirmish_core::timing::{ActionKind, ActorTiming, Declaration, TimingSystem};
use skirmish_core::tracker::SheetLine;

/// The whole file.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct File {
    pub(crate) case: Vec<Case>,
}

/// One worked example.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Case {
    pub(crate) name: String,
    pub(crate) system: TimingSystem,
    #[serde(default)]
    pub(crate) seed: u64,
    pub(crate) combatants: Vec<CombatantCase>,
    pub(crate) steps: Vec<Op>,
}

/// A combatant, added in order.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct CombatantCase {
    pub(crate) name: String,
    pub(crate) action: Declaration,
    #[serde(default)]
    pub(crate) label: String,
    #[serde(default)]
    pub(crate) timing: ActorTiming,
}

/// One step of an example.
#[derive(Deserialize, Debug)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub(crate) enum Op {
    Initiative {
        who: String,
        roll: Option<i32>,
        total: Option<i64>,
    },
    NewRound {
        round: u32,
        sheet: Option<Vec<String>>,
    },
    Moment {
        display: i64,
        acting: Vec<String>,
        pass: Option<u32>,
        round: Option<u32>,
    },
    Declare {
        who: String,
        #[serde(default)]
        label: String,
        time_taken: i32,
        #[serde(default)]
        speed_bonus: i32,
        #[serde(default)]
        extra_preparation: i32,
        ready_time: Option<u32>,
        roll: Option<i32>,
        kind: Option<ActionKind>,
        action_ticks: Option<u32>,
        rate_of_fire: Option<RateOfFire>,
        lands: Option<i64>,
    },
    Disrupt {
        who: String,
        expect: bool,
    },
    Cancel {
        who: String,
        expect: bool,
    },
    Down {
        who: String,
    },
    Sheet {
        lines: Vec<String>,
    },
    Awaiting {
        lines: Vec<String>,
    },
    FreeAction {
        who: String,
        ticks: Option<u32>,
        defending: bool,
        expect_ticks: Option<u32>,
        cancelled: Option<bool>,
        pushed: Option<bool>,
        next_turn: Option<i64>,
    },
    HeldTurn {
        who: String,
    },
    DefenseBonus {
        who: String,
        expect: i32,
    },
    Hold {
        who: String,
        order: Vec<String>,
    },
    Over {},
}

/// A sheet as the examples write it: "`<display>`: A, B" (Simple Rounds
/// "pass/initiative", Graduated end passes "endN/...").
pub(crate) fn sheet_text(system: &TimingSystem, sheet: &[SheetLine]) -> Vec<String> {
    sheet
        .iter()
        .filter(|l| !l.lines.is_empty())
        .map(|l| {
            let names: Vec<String> = l.lines.iter().map(|a| a.sheet_label()).collect();
            let at = if *system == TimingSystem::SimpleRounds {
                format!("{}/{}", l.pass, l.display)
            } else if matches!(system, TimingSystem::GraduatedRounds(_)) && l.pass > 0 {
                format!("end{}/{}", l.pass, l.display)
            } else {
                l.display.to_string()
            };
            format!("{at}: {}", names.join(", "))
        })
        .collect()
}
