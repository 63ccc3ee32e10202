//! The timing worked examples (`tests/cases/timing.toml`), played step by
//! step through the Encounter tracker: one driver for every system.

use skirmish_core::timing::{Declaration, GmTiming, InitiativeEntry};
use skirmish_core::tracker::{CombatantSpec, Encounter, Turn};

#[path = "../cases/timing_cases.rs"]
mod cases;
use cases::{Case, File, Op, sheet_text};

fn run_case(case: &Case) {
    let ctx = |step: usize| format!("{} (step {})", case.name, step + 1);
    let mut e = Encounter::new(case.system.clone(), case.seed).unwrap();
    for c in &case.combatants {
        let spec = CombatantSpec::new(c.name.clone(), c.action)
            .with_timing(c.timing)
            .labelled(c.label.clone());
        e.add_combatant(spec).unwrap();
    }
    for (i, op) in case.steps.iter().enumerate() {
        let at = ctx(i);
        match op {
            Op::Initiative { who, roll, total } => {
                let entry = match (roll, total) {
                    (Some(r), None) => InitiativeEntry::Roll(*r),
                    (None, Some(t)) => InitiativeEntry::Total(*t),
                    _ => panic!("{at}: give roll or total"),
                };
                e.set_initiative(e.find(who).unwrap(), entry).unwrap();
            }
            Op::NewRound { round, sheet } => match e.next().unwrap() {
                Turn::NewRound { round: r, sheet: s, .. } => {
                    assert_eq!(r, *round, "{at}");
                    if let Some(want) = sheet {
                        assert_eq!(&sheet_text(&case.system, &s), want, "{at}: the round's sheet");
                    }
                }
                other => panic!("{at}: expected round {round}, got {other:?}"),
            },
            Op::Moment {
                display,
                acting,
                pass,
                round,
            } => match e.next().unwrap() {
                Turn::Moment { moment, lines, .. } => {
                    let names: Vec<String> = lines.iter().map(|a| a.sheet_label()).collect();
                    assert_eq!((moment.display, &names), (*display, acting), "{at}");
                    if let Some(p) = pass {
                        assert_eq!(moment.pass, *p, "{at}: pass");
                    }
                    if let Some(r) = round {
                        assert_eq!(moment.round, *r, "{at}: round");
                    }
                }
                other => panic!("{at}: expected a moment at {display}, got {other:?}"),
            },
            Op::Declare {
                who,
                label,
                time_taken,
                speed_bonus,
                extra_preparation,
                ready_time,
                roll,
                kind,
                action_ticks,
                rate_of_fire,
                lands,
            } => {
                let id = e.find(who).unwrap();
                let mut d = Declaration::new(*time_taken, *speed_bonus);
                d.extra_preparation = *extra_preparation;
                d.gm = ready_time.map(GmTiming::ReadyTime);
                d.kind = kind.unwrap_or_default();
                d.action_ticks = *action_ticks;
                if let Some(rof) = rate_of_fire {
                    d.rate_of_fire = *rof;
                }
                let tick = e.declare(id, label, d, *roll).unwrap();
                match (lands, tick) {
                    (Some(want), Some(t)) => {
                        let line = e.tick_sheet().into_iter().find(|l| l.tick == t).unwrap();
                        assert_eq!(line.display, *want, "{at}: lands");
                    }
                    (None, None) => {}
                    (want, got) => panic!("{at}: expected landing {want:?}, got tick {got:?}"),
                }
            }
            Op::Disrupt { who, expect } => {
                assert_eq!(e.disrupt(e.find(who).unwrap()).unwrap(), *expect, "{at}");
            }
            Op::Cancel { who, expect } => {
                assert_eq!(e.cancel(e.find(who).unwrap()).unwrap(), *expect, "{at}");
            }
            Op::Down { who } => e.down(e.find(who).unwrap()).unwrap(),
            Op::Sheet { lines } => assert_eq!(&sheet_text(&case.system, &e.tick_sheet()), lines, "{at}"),
            Op::Awaiting { lines } => assert_eq!(&e.awaiting(), lines, "{at}"),
            Op::FreeAction {
                who,
                ticks,
                defending,
                expect_ticks,
                cancelled,
                pushed,
                next_turn,
            } => {
                let r = e.free_action(e.find(who).unwrap(), *ticks, *defending).unwrap();
                if let Some(t) = expect_ticks {
                    assert_eq!(r.ticks, *t, "{at}: ticks");
                }
                if let Some(c) = cancelled {
                    assert_eq!(r.cancelled_action, *c, "{at}: cancelled");
                }
                if let Some(p) = pushed {
                    assert_eq!(r.pushed, *p, "{at}: pushed");
                }
                if let Some(n) = next_turn {
                    assert_eq!(r.next_turn, Some(*n), "{at}: next turn");
                }
            }
            Op::HeldTurn { who } => {
                e.take_held_turn(e.find(who).unwrap()).unwrap();
            }
            Op::DefenseBonus { who, expect } => {
                assert_eq!(e.defense_bonus(e.find(who).unwrap()).unwrap(), *expect, "{at}");
            }
            Op::Hold { who, order } => {
                assert_eq!(&e.hold(e.find(who).unwrap()).unwrap(), order, "{at}");
            }
            Op::Over {} => assert_eq!(e.next().unwrap(), Turn::Over, "{at}"),
        }
    }
}

#[test]
fn worked_examples() {
    let file: File = toml::from_str(include_str!("../cases/timing.toml")).unwrap();
    assert!(file.case.len() >= 13);
    for case in &file.case {
        run_case(case);
    }
}

#[test]
fn every_required_example_is_present() {
    let file: File = toml::from_str(include_str!("../cases/timing.toml")).unwrap();
    let names: Vec<&str> = file.case.iter().map(|c| c.name.as_str()).collect();
    for needle in [
        "Simple Rounds: unadjusted",
        "Simple Rounds: the goblin ambush",
        "Graduated Rounds: Ready Times 5, 3, 1",
        "Roland's third shot lands at tick 8",
        "Continuous: every pending-actions table",
        "Tick System: act on tick 20",
        "Action Blocks: Bob 1 action",
        "Action Blocks: x (REF 7",
    ] {
        assert!(names.iter().any(|n| n.contains(needle)), "missing example: {needle}");
    }
}
