//! The Tick System whole at the table (docs/rules.md §1.5): the tracker
//! adds Prepare's +4 to a prepared combatant's defense itself, makes its
//! first defense while prepared free, charges a combatant whose policy is
//! to defend as a free action its ticks (pushing the turn it runs into),
//! and Acquires for a ranged attacker that changes target; the text's
//! numbers (act on 20 for 2 ticks: done on 18; Interval 6: next turn on 12)
//! with rolls typed in.

use skirmish_core::fighter::{FighterProfile, Striking};
use skirmish_core::striking::full_contact::RangedShot;
use skirmish_core::timing::tick_system::Defending;
use skirmish_core::timing::{InitiativeEntry, TimingSystem};
use skirmish_core::tracker::{
    CombatantId, Encounter, EncounterRules, EncounterStrikeOptions, StrikeDice, StrikeResult, Turn,
};

fn fighter(name: &str, sr: i32, dr: i32) -> FighterProfile {
    let mut p = FighterProfile::new(name);
    p.strike_rating = sr;
    p.defense_rating = dr;
    p.interval = 6;
    p.action_ticks = Some(2);
    p
}

/// Roland (initiative 20) and `foes` with their initiative totals, under
/// the Tick System and Full Contact striking.
fn table(foes: &[(FighterProfile, i64)]) -> (Encounter, CombatantId, Vec<CombatantId>) {
    let rules = EncounterRules {
        striking: Striking::default(),
        ..EncounterRules::default()
    };
    let mut e = Encounter::with_rules(TimingSystem::tick_system(), rules, 1).unwrap();
    let roland = e.add_fighter("party", &fighter("Roland", 9, 7)).unwrap()[0];
    e.set_initiative(roland, InitiativeEntry::Total(20)).unwrap();
    let mut ids = Vec::new();
    for (p, init) in foes {
        let id = e.add_fighter("foes", p).unwrap()[0];
        e.set_initiative(id, InitiativeEntry::Total(*init)).unwrap();
        ids.push(id);
    }
    (e, roland, ids)
}

/// Steps to the next moment, returning its countdown tick and who acts.
fn step(e: &mut Encounter) -> (i64, Vec<String>) {
    loop {
        match e.next().unwrap() {
            Turn::Moment { moment, lines, .. } => {
                return (moment.display, lines.iter().map(|l| l.sheet_label()).collect());
            }
            Turn::NewRound { .. } => continue,
            Turn::Over => panic!("over"),
        }
    }
}

/// The tick sheet as (countdown tick, line) pairs.
fn sheet(e: &Encounter) -> Vec<(i64, String)> {
    e.tick_sheet()
        .iter()
        .flat_map(|l| l.lines.iter().map(move |a| (l.display, a.sheet_label())))
        .collect()
}

fn strike(e: &mut Encounter, a: CombatantId, t: CombatantId, roll: i32, ranged: bool) -> StrikeResult {
    let options = EncounterStrikeOptions {
        range: ranged.then(|| RangedShot::new(10, 5, 5).unwrap()),
        ..EncounterStrikeOptions::default()
    };
    e.strike(a, t, options, StrikeDice::typed(roll, None)).unwrap().result
}

#[test]
fn the_text_s_turn_and_a_defense_that_costs_ticks_and_pushes_the_next_turn() {
    let mut orc = fighter("Orc", 5, 6);
    orc.defend = Defending::FreeAction;
    let (mut e, roland, foes) = table(&[(orc, 17)]);
    assert_eq!(step(&mut e), (20, vec!["Roland (turn)".to_string()]));
    // Roland acts on 20 for 2 ticks: done on 18, next turn on 12.
    assert_eq!(step(&mut e), (18, vec!["Roland".to_string()]));
    assert_eq!(sheet(&e), [(17, "Orc (turn)".into()), (12, "Roland (turn)".into())]);
    // The orc defends Roland's blow for 2 ticks, 18 to 16: it runs into
    // its turn on 17, which comes "on the tick immediately after", 16.
    assert_eq!(strike(&mut e, roland, foes[0], 0, false), StrikeResult::Hit);
    assert_eq!(sheet(&e), [(16, "Orc (turn)".into()), (12, "Roland (turn)".into())]);
    assert!(
        e.log()
            .iter()
            .any(|l| l.text == "Orc defends (2 tick(s)), pushing the next turn")
    );
}

#[test]
fn a_prepared_combatant_defends_at_plus_4_and_its_first_defense_is_free() {
    let mut orc = fighter("Orc", 5, 6);
    orc.defend = Defending::FreeAction;
    orc.prepare = true;
    let (mut e, roland, foes) = table(&[(orc, 19)]);
    let orc = foes[0];
    step(&mut e); // Roland's turn on 20
    assert_eq!(step(&mut e), (19, vec!["Orc (turn)".to_string()]));
    // The orc Prepares (its profile's policy) instead of attacking.
    assert_eq!(step(&mut e), (18, vec!["Roland".to_string()]));
    assert_eq!(e.defense_bonus(orc).unwrap(), 4);
    // Roland's 9 + 0 would hit DR 6; the tracker adds the +4 itself.
    let report = e
        .strike(
            roland,
            orc,
            EncounterStrikeOptions::default(),
            StrikeDice::typed(0, None),
        )
        .unwrap();
    assert_eq!((report.attack_total, report.defense_total), (9, 10));
    assert_eq!(report.result, StrikeResult::Miss);
    assert!(
        report
            .defense_breakdown
            .iter()
            .any(|p| p.label == "prepared" && p.value == 4)
    );
    // Its first defense while prepared costs no free action; the second does.
    assert!(e.log().iter().any(|l| l.text == "Orc defends (0 tick(s))"));
    assert_eq!(strike(&mut e, roland, orc, 1, false), StrikeResult::Miss);
    assert!(e.log().iter().any(|l| l.text == "Orc defends (2 tick(s))"));
    // It takes its held turn at its leisure and attacks: the +4 is gone.
    e.take_held_turn(orc).unwrap();
    let attack = e.declaration(orc).unwrap().declaration;
    let attack = skirmish_core::timing::Declaration {
        kind: skirmish_core::timing::ActionKind::Attack,
        ..attack
    };
    e.declare(orc, "axe", attack, None).unwrap();
    assert_eq!(e.defense_bonus(orc).unwrap(), 0);
    assert_eq!(strike(&mut e, roland, orc, 0, false), StrikeResult::Hit);
}

#[test]
fn a_ranged_attacker_that_changes_target_acquires_it() {
    let (mut e, roland, foes) = table(&[(fighter("Goblin A", 5, 3), 5), (fighter("Goblin B", 5, 3), 4)]);
    step(&mut e);
    assert_eq!(step(&mut e), (18, vec!["Roland".to_string()]));
    assert_eq!(sheet(&e)[0], (12, "Roland (turn)".into()));
    // His first shot at Goblin A Acquires it: 2 ticks more, next turn on 10.
    strike(&mut e, roland, foes[0], 0, true);
    assert_eq!(sheet(&e)[0], (10, "Roland (turn)".into()));
    assert!(
        e.log()
            .iter()
            .any(|l| l.text == "Roland acquires Goblin A (+2 tick(s))")
    );
    // Another shot at the same target acquires nothing; a melee blow neither.
    strike(&mut e, roland, foes[0], 0, true);
    strike(&mut e, roland, foes[1], 0, false);
    assert_eq!(sheet(&e)[0], (10, "Roland (turn)".into()));
    // A shot at Goblin B does.
    strike(&mut e, roland, foes[1], 0, true);
    assert_eq!(sheet(&e)[0], (8, "Roland (turn)".into()));
    // Undone, the sheet is as before.
    e.undo().unwrap();
    assert_eq!(sheet(&e)[0], (10, "Roland (turn)".into()));
}

#[test]
fn without_the_policies_strikes_leave_the_timing_alone() {
    let (mut e, roland, foes) = table(&[(fighter("Orc", 5, 6), 17)]);
    step(&mut e);
    step(&mut e);
    strike(&mut e, roland, foes[0], 0, false);
    assert_eq!(sheet(&e), [(17, "Orc (turn)".into()), (12, "Roland (turn)".into())]);
    // Under another system nothing of the Tick System applies.
    let mut c = Encounter::new(TimingSystem::continuous(), 1).unwrap();
    let mut orc = fighter("Orc", 5, 6);
    orc.defend = Defending::FreeAction;
    orc.prepare = true;
    let a = c.add_fighter("party", &fighter("Roland", 9, 7)).unwrap()[0];
    let b = c.add_fighter("foes", &orc).unwrap()[0];
    let report = c
        .strike(a, b, EncounterStrikeOptions::default(), StrikeDice::typed(0, None))
        .unwrap();
    assert_eq!(report.defense_total, 6);
    assert!(!c.log().iter().any(|l| l.text.contains("defends")));
}

#[test]
fn acquire_moves_an_action_in_progress_and_the_next_turn() {
    let (mut e, roland, foes) = table(&[(fighter("Goblin A", 5, 3), 5)]);
    step(&mut e); // Roland's turn on 20
    e.declare(roland, "bow", skirmish_core::timing::Declaration::new(0, 0), None)
        .unwrap();
    assert_eq!(sheet(&e)[..2], [(18, "Roland".into()), (12, "Roland (turn)".into())]);
    // The GM resolves the shot as it is loosed: the action takes 2 more
    // ticks (done on 16), and the next turn comes on 10.
    strike(&mut e, roland, foes[0], 0, true);
    assert_eq!(sheet(&e)[..2], [(16, "Roland".into()), (10, "Roland (turn)".into())]);
    // A shot declared at a new target has paid: nothing more.
    let mut b = Encounter::new(TimingSystem::tick_system(), 1).unwrap();
    let r = b.add_fighter("party", &fighter("Roland", 9, 7)).unwrap()[0];
    let g = b.add_fighter("foes", &fighter("Goblin", 5, 3)).unwrap()[0];
    b.set_initiative(r, InitiativeEntry::Total(20)).unwrap();
    b.set_initiative(g, InitiativeEntry::Total(5)).unwrap();
    step(&mut b);
    let mut shot = skirmish_core::timing::Declaration::new(0, 0);
    shot.kind = skirmish_core::timing::ActionKind::RangedAttack { new_target: true };
    b.declare(r, "bow", shot, None).unwrap();
    assert_eq!(sheet(&b)[..2], [(16, "Roland".into()), (10, "Roland (turn)".into())]);
    strike(&mut b, r, g, 0, true);
    assert_eq!(sheet(&b)[..2], [(16, "Roland".into()), (10, "Roland (turn)".into())]);
}

#[test]
fn acquire_with_an_interval_of_0_moves_the_turn_that_came_with_the_shot() {
    // No Interval: Roland's shot is done on 18 and his next turn comes on
    // that very tick. Acquiring Goblin A moves that turn 2 ticks later, to
    // 16, instead of leaving him to declare at once.
    let mut archer = fighter("Roland", 9, 7);
    archer.interval = 0;
    let rules = EncounterRules {
        striking: Striking::default(),
        ..EncounterRules::default()
    };
    let mut e = Encounter::with_rules(TimingSystem::tick_system(), rules, 1).unwrap();
    let roland = e.add_fighter("party", &archer).unwrap()[0];
    e.set_initiative(roland, InitiativeEntry::Total(20)).unwrap();
    let goblin = e.add_fighter("foes", &fighter("Goblin A", 5, 3)).unwrap()[0];
    e.set_initiative(goblin, InitiativeEntry::Total(5)).unwrap();
    step(&mut e);
    assert_eq!(
        step(&mut e),
        (18, vec!["Roland".to_string(), "Roland (turn)".to_string()])
    );
    assert!(!sheet(&e).iter().any(|(_, l)| l.starts_with("Roland")));
    strike(&mut e, roland, goblin, 0, true);
    assert_eq!(sheet(&e)[0], (16, "Roland (turn)".into()));
    assert!(
        e.log()
            .iter()
            .any(|l| l.text == "Roland acquires Goblin A (+2 tick(s))")
    );
    e.undo().unwrap();
    assert!(!sheet(&e).iter().any(|(_, l)| l.starts_with("Roland")));
}

#[test]
fn a_shot_struck_at_a_turn_that_only_began_moves_no_turn() {
    // Roland's turn begins on 20 and the GM strikes with him at once, no
    // action declared: that turn is the shot's own, so Acquire moves no
    // turn (it gave him a second turn on 18 before) and says nothing.
    let mut archer = fighter("Roland", 9, 7);
    archer.interval = 0;
    let mut e = Encounter::with_rules(TimingSystem::tick_system(), EncounterRules::default(), 1).unwrap();
    let roland = e.add_fighter("party", &archer).unwrap()[0];
    e.set_initiative(roland, InitiativeEntry::Total(20)).unwrap();
    let goblin = e.add_fighter("foes", &fighter("Goblin A", 5, 3)).unwrap()[0];
    e.set_initiative(goblin, InitiativeEntry::Total(5)).unwrap();
    assert_eq!(step(&mut e), (20, vec!["Roland (turn)".to_string()]));
    let before = sheet(&e);
    assert!(!before.iter().any(|(_, l)| l.starts_with("Roland")), "{before:?}");
    strike(&mut e, roland, goblin, 0, true);
    assert_eq!(sheet(&e), before);
    assert!(!e.log().iter().any(|l| l.text.contains("acquires")));
}
