//! What an amazing defense does at the table (docs/rules.md §2.1.8), with
//! rolls typed in: Full Contact's "the attacker gets accidentally disarmed
//! or knocked down by an amazing defense", played as battles play it.
//! The text's goblin sentry (SR 5, DR 6) strikes Cardiff (SR 9, DR 7):
//! where the text's +2 ties, a -1 gives 5 - 1 = 4, and Cardiff's DR
//! "exceeds SR+Strike by 3": an amazing defense.

use skirmish_core::fighter::{AmazingDefenseRule, FighterProfile, FullContactRules, Striking};
use skirmish_core::timing::{InitiativeEntry, TimingSystem};
use skirmish_core::tracker::{
    CombatantId, Encounter, EncounterRules, EncounterStrikeOptions, ErrorKind, StrikeDice, StrikeReport, StrikeResult,
    Turn,
};

fn fighter(name: &str, sr: i32, dr: i32) -> FighterProfile {
    let mut p = FighterProfile::new(name);
    p.strike_rating = sr;
    p.defense_rating = dr;
    p
}

/// Cardiff and the goblin sentry under Continuous timing (Cardiff acts on
/// 3, the goblin on 5), with the amazing rule and `defense`.
fn sentry(defense: AmazingDefenseRule) -> (Encounter, CombatantId, CombatantId) {
    let rules = EncounterRules {
        striking: Striking::FullContact(FullContactRules {
            amazing: true,
            amazing_defense: defense,
            ..FullContactRules::default()
        }),
        ..EncounterRules::default()
    };
    let mut e = Encounter::with_rules(TimingSystem::continuous(), rules, 1).unwrap();
    let cardiff = e.add_fighter("party", &fighter("Cardiff", 9, 7)).unwrap()[0];
    let goblin = e.add_fighter("goblins", &fighter("Goblin", 5, 6)).unwrap()[0];
    e.set_initiative(cardiff, InitiativeEntry::Total(3)).unwrap();
    e.set_initiative(goblin, InitiativeEntry::Total(5)).unwrap();
    (e, cardiff, goblin)
}

/// Steps to the next moment at which `name`'s action lands.
fn until_lands(e: &mut Encounter, name: &str) {
    for _ in 0..100 {
        if let Turn::Moment { lines, .. } = e.next().unwrap()
            && lines.iter().any(|l| l.lands && l.name == name)
        {
            return;
        }
    }
    panic!("{name} never acts");
}

fn strike(e: &mut Encounter, a: CombatantId, t: CombatantId, roll: i32) -> StrikeReport {
    e.strike(a, t, EncounterStrikeOptions::default(), StrikeDice::typed(roll, None))
        .unwrap()
}

fn logged(e: &Encounter, text: &str) -> bool {
    e.log().iter().any(|l| l.text == text)
}

#[test]
fn an_amazing_defense_disarms_the_attacker_whose_next_action_is_lost() {
    let (mut e, cardiff, goblin) = sentry(AmazingDefenseRule::Disarm);
    until_lands(&mut e, "Cardiff");
    let r = strike(&mut e, goblin, cardiff, -1);
    assert_eq!(
        (r.attack_total, r.defense_total, r.result),
        (4, 7, StrikeResult::AmazingDefense)
    );
    assert_eq!(
        r.text,
        "Goblin strikes Cardiff: 4 vs 7, amazing defense; Goblin is disarmed (its next action is lost)"
    );
    // Disarmed, it cannot parry until its next action.
    let parry = EncounterStrikeOptions {
        parry: true,
        ..EncounterStrikeOptions::default()
    };
    let err = e
        .strike(cardiff, goblin, parry, StrikeDice::typed(-1, Some(4)))
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::NotNow);
    assert!(err.to_string().contains("Goblin is disarmed: it cannot parry"), "{err}");
    // Saved and restored, it still is.
    let mut e = Encounter::restore(&e.snapshot().unwrap()).unwrap();
    assert!(
        e.strike(cardiff, goblin, parry, StrikeDice::typed(-1, Some(4)))
            .is_err()
    );
    // Its next action is lost: it spends it recovering its weapon.
    until_lands(&mut e, "Goblin");
    assert!(logged(&e, "Goblin recovers its weapon: the action is lost"));
    let err = e
        .strike(
            goblin,
            cardiff,
            EncounterStrikeOptions::default(),
            StrikeDice::typed(2, None),
        )
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::NotNow);
    assert_eq!(
        err.to_string(),
        "attacker: Goblin spends this action recovering its weapon (disarmed by an amazing defense)"
    );
    // It may parry again, and strikes at its next action: the text's +2
    // ties Cardiff's DR 7.
    let parried = e
        .strike(cardiff, goblin, parry, StrikeDice::typed(-1, Some(4)))
        .unwrap();
    assert_eq!(parried.result, StrikeResult::Parried);
    until_lands(&mut e, "Goblin");
    assert_eq!(strike(&mut e, goblin, cardiff, 2).result, StrikeResult::Miss);
}

#[test]
fn an_amazing_defense_knocks_the_attacker_down_until_its_next_action() {
    let (mut e, cardiff, goblin) = sentry(AmazingDefenseRule::KnockDown);
    until_lands(&mut e, "Cardiff");
    // A -4 is amazing wherever a miss was possible.
    let r = strike(&mut e, goblin, cardiff, -4);
    assert_eq!(r.result, StrikeResult::AmazingDefense);
    assert!(
        r.text
            .ends_with("; Goblin is knocked down (DR -2 until its next action)"),
        "{}",
        r.text
    );
    // Cardiff's -1 meets DR 6 - 2 = 4: the text's hit by 2 becomes 4.
    let r = strike(&mut e, cardiff, goblin, -1);
    assert_eq!((r.attack_total, r.defense_total, r.margin), (8, 4, 4));
    assert!(
        r.defense_breakdown
            .iter()
            .any(|p| p.label == "knocked down" && p.value == -2)
    );
    // Undone, it is standing again; redone, down again.
    e.undo().unwrap();
    e.undo().unwrap();
    e.redo().unwrap();
    assert_eq!(strike(&mut e, cardiff, goblin, -1).defense_total, 4);
    e.undo().unwrap();
    e.undo().unwrap();
    assert_eq!(strike(&mut e, cardiff, goblin, -1).defense_total, 6);
    e.undo().unwrap();
    strike(&mut e, goblin, cardiff, -4);
    // Its action comes: up again, at that moment already.
    until_lands(&mut e, "Goblin");
    assert!(logged(&e, "Goblin is up again"));
    let r = strike(&mut e, cardiff, goblin, -1);
    assert_eq!((r.defense_total, r.result), (6, StrikeResult::Hit));
    // And it strikes as any fighter does.
    assert_eq!(strike(&mut e, goblin, cardiff, 2).result, StrikeResult::Miss);
}

#[test]
fn without_the_rule_an_amazing_defense_does_nothing_to_the_attacker() {
    let (mut e, cardiff, goblin) = sentry(AmazingDefenseRule::None);
    until_lands(&mut e, "Cardiff");
    let r = strike(&mut e, goblin, cardiff, -1);
    assert_eq!(r.result, StrikeResult::AmazingDefense);
    assert_eq!(r.text, "Goblin strikes Cardiff: 4 vs 7, amazing defense");
    until_lands(&mut e, "Goblin");
    assert_eq!(strike(&mut e, goblin, cardiff, 2).result, StrikeResult::Miss);
}
