//! Crafted snapshots a review found that restored and then panicked or
//! went wrong later: each is now a bad snapshot at restore. And two holes
//! reachable through the API: redo after undoing past the kept log, and a
//! fighter taken out before any moment striking back.

use serde_json::{Value, json};
use skirmish_core::fighter::FighterProfile;
use skirmish_core::timing::TimingSystem;
use skirmish_core::tracker::{CombatantId, Encounter, EncounterStrikeOptions, ErrorKind, LOG_LIMIT, StrikeDice};

fn fight() -> Encounter {
    let mut e = Encounter::new(TimingSystem::continuous(), 5).unwrap();
    e.add_fighter("A", &FighterProfile::new("Axe")).unwrap();
    let mut pair = FighterProfile::new("Pair");
    pair.count = 2;
    e.add_fighter("B", &pair).unwrap();
    e.next().unwrap();
    e.next().unwrap();
    e
}

fn refused(mut doc: Value, edit: impl FnOnce(&mut Value), what: &str) {
    edit(&mut doc);
    let err = Encounter::restore(&doc.to_string()).expect_err(what);
    assert_eq!(err.kind(), ErrorKind::BadSnapshot, "{what}: {err}");
}

#[test]
fn crafted_snapshots_are_refused_at_restore() {
    let e = fight();
    let doc: Value = serde_json::from_str(&e.snapshot().unwrap()).unwrap();
    Encounter::restore(&doc.to_string()).expect("the untouched snapshot restores");
    refused(
        doc.clone(),
        |d| {
            d["state"]["lines"][1]["members"] = json!([1, 1]);
            d["state"]["combatants"][2]["line"] = json!(7);
        },
        "a combatant on no line, a member listed twice",
    );
    refused(
        doc.clone(),
        |d| d["log"]["first"] = json!(u64::MAX),
        "log.first at the end of the range",
    );
    refused(
        doc.clone(),
        |d| d["state"]["moments"] = json!(u64::MAX),
        "moments at the end of the range",
    );
    refused(
        doc.clone(),
        |d| {
            d["state"]["lines"][1]["stats"]["defense_rating"] = json!(i32::MIN);
            d["state"]["lines"][1]["stats"]["armor_bonus"] = json!(1);
        },
        "stats no profile can give",
    );
    refused(
        doc.clone(),
        |d| {
            d["undo_limit"] = json!(0);
        },
        "more history than the undo limit keeps",
    );
    refused(
        doc.clone(),
        |d| {
            let n = d["history"].as_array().unwrap().len();
            d["history"][n - 1]["log_len"] = json!(0);
        },
        "a history step whose log is shorter than the one before",
    );
    refused(
        doc.clone(),
        |d| d["state"]["combatants"][0]["status"] = json!("down"),
        "a down combatant whose line is still scheduled",
    );
    refused(
        doc.clone(),
        |d| {
            d["state"]["combatants"][0]["damage"] = json!({"model": "fudge_wounds", "incapacitated": 1});
        },
        "a standing combatant whose wounds take it out",
    );
    refused(
        doc,
        |d| d["state"]["combatants"][0]["down_at_moment"] = json!(1),
        "a standing combatant that went down",
    );
}

#[test]
fn redo_after_undoing_past_the_kept_log_keeps_log_and_state_in_step() {
    let mut e = fight();
    e.set_undo_limit(10_000).unwrap();
    let pair = CombatantId(1);
    for i in 0..(LOG_LIMIT + 100) {
        if i % 2 == 0 {
            e.hide(pair).unwrap();
        } else {
            e.reveal(pair).unwrap();
        }
    }
    while e.undo_depth() > 50 {
        e.undo().unwrap();
    }
    e.redo().unwrap();
    e.redo().unwrap();
    let again = Encounter::restore(&e.snapshot().unwrap()).expect("the log is in step with the state");
    assert_eq!(again.log_len(), e.log_len());
}

#[test]
fn one_taken_out_before_any_moment_does_not_strike() {
    let mut e = Encounter::new(TimingSystem::continuous(), 5).unwrap();
    let a = e.add_fighter("A", &FighterProfile::new("Axe")).unwrap()[0];
    let b = e.add_fighter("B", &FighterProfile::new("Bob")).unwrap()[0];
    e.down(a).unwrap();
    let err = e
        .strike(a, b, EncounterStrikeOptions::default(), StrikeDice::typed(0, None))
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::NotNow);
}

/// Operation `i` of a run mixing strikes, moments, undos, redos and undo
/// limits (any of them may be refused; a refusal changes nothing).
fn operation(e: &mut Encounter, i: usize) {
    let (axe, pair) = (CombatantId(0), CombatantId(1));
    match i % 7 {
        0 | 3 => drop(e.strike(axe, pair, EncounterStrikeOptions::default(), StrikeDice::typed(1, None))),
        1 => drop(e.next()),
        2 | 4 => drop(e.undo()),
        5 => drop(e.redo()),
        _ => e.set_undo_limit(if i % 14 == 6 { 3 } else { 100 }).unwrap(),
    }
}

/// A snapshot keeps each undo step's JSON once it has written it (a step
/// never changes): after any run of operations with a snapshot after each,
/// it writes the very text that the same run without snapshots writes at
/// its end, and that text restores.
#[test]
fn a_snapshot_from_kept_steps_is_the_one_written_afresh() {
    let mut e = fight();
    for i in 0..60 {
        operation(&mut e, i);
        let kept = e.snapshot().unwrap();
        let mut fresh = fight();
        for j in 0..=i {
            operation(&mut fresh, j);
        }
        assert_eq!(kept, fresh.snapshot().unwrap(), "after operation {i}");
        assert_eq!(e.snapshot().unwrap(), kept, "again after operation {i}");
        assert_eq!(
            Encounter::restore(&kept).unwrap().snapshot().unwrap(),
            kept,
            "after operation {i}"
        );
    }
}
