//! FUDGE 4.31's scouting at the table (docs/rules.md §2.2.3) through
//! `Encounter::scout`: the roll (the table's 4dF or the encounter's, the
//! scout's wounds, an NPC's trait level), the scouted foe's -1 in its
//! strikes and lone-fighter rounds of the next round (round systems) or
//! its next moment (the others), undo, snapshots, and the refusals.

use skirmish_core::damage::{DamageConfig, WoundTrack};
use skirmish_core::fighter::{FighterProfile, FudgeRules, Striking};
use skirmish_core::ladder::{CombatLevel, Level};
use skirmish_core::striking::opposed::Stance;
use skirmish_core::timing::TimingSystem;
use skirmish_core::tracker::{
    CombatantId, Encounter, EncounterRules, EncounterStrikeOptions, ErrorKind, LoneFighterDice, LoneFighterOptions,
    Part, StrikeDice, Turn, WoundOverride,
};

const SCOUT: CombatantId = CombatantId(0);
const OGRE: CombatantId = CombatantId(1);
const BLADE: CombatantId = CombatantId(2);

fn fudge() -> EncounterRules {
    EncounterRules {
        striking: Striking::FudgeOpposed(FudgeRules::default()),
        damage: DamageConfig::default(),
    }
}

fn fighter(name: &str, skill: Level) -> FighterProfile {
    let mut p = FighterProfile::new(name);
    p.skill = CombatLevel::plain(skill);
    p
}

/// A scout in all-out defense with a Good Perception, an Ogre and a
/// swordsman, under `system`.
fn table(system: &str) -> Encounter {
    let mut e = Encounter::with_rules(TimingSystem::by_name(system).unwrap(), fudge(), 7).unwrap();
    let mut scout = fighter("Scout", Level::FAIR);
    scout.stance = Stance::AllOutDefense;
    scout.scouting = Some(Level::GOOD);
    e.add_fighter("pair", &scout).unwrap();
    e.add_fighter("foe", &fighter("Ogre", Level::GREAT)).unwrap();
    e.add_fighter("pair", &fighter("Blade", Level::GOOD)).unwrap();
    e
}

/// Steps until a moment of round `round`.
fn to_round(e: &mut Encounter, round: u32) {
    for _ in 0..200 {
        if matches!(e.next().unwrap(), Turn::Moment { .. }) && e.round() == round {
            return;
        }
    }
    panic!("no moment in round {round}");
}

/// Steps to the next moment.
fn next_moment(e: &mut Encounter) -> u64 {
    loop {
        if let Turn::Moment { moment, .. } = e.next().unwrap() {
            return moment.tick;
        }
    }
}

fn scouted(parts: &[Part]) -> Option<i32> {
    parts.iter().find(|p| p.label == "foe scouted").map(|p| p.value)
}

/// The Ogre strikes the Blade and the Blade the Ogre with rolls of 0: the
/// Ogre's "foe scouted" term attacking, then defending.
fn ogre_terms(e: &mut Encounter) -> (Option<i32>, Option<i32>) {
    let dice = StrikeDice::typed(0, Some(0));
    let opts = EncounterStrikeOptions::default();
    let a = e.strike(OGRE, BLADE, opts, dice).unwrap();
    let d = e.strike(BLADE, OGRE, opts, dice).unwrap();
    (scouted(&a.attack_breakdown), scouted(&d.defense_breakdown))
}

#[test]
fn by_round_the_scouted_foe_is_at_minus_one_the_next_round_only() {
    let mut e = table("simple-rounds");
    to_round(&mut e, 1);
    // The text's roll: Good + 1 = Great, over Fair.
    let r = e.scout(SCOUT, OGRE, Some(1)).unwrap();
    assert_eq!((r.level, r.roll, r.result, r.difficulty, r.scouts), (1, 1, 2, 0, true));
    assert_eq!(
        r.text,
        "Scout defended unhit and rolls Perception/Tactics Great vs Fair: scouts, Ogre at -1 next"
    );
    assert_eq!(e.log().last().unwrap().text, r.text);
    // Not in the round it scouted in...
    assert!(!e.scouted(OGRE).unwrap());
    assert_eq!(ogre_terms(&mut e), (None, None));
    // ...in every exchange of the next, attacking and defending...
    to_round(&mut e, 2);
    assert!(e.scouted(OGRE).unwrap() && !e.scouted(BLADE).unwrap());
    let dice = StrikeDice::typed(0, Some(0));
    let hit = e.strike(OGRE, BLADE, EncounterStrikeOptions::default(), dice).unwrap();
    assert_eq!(scouted(&hit.attack_breakdown), Some(-1));
    // Great (+2) - 1 vs Good (+1): a stand-off.
    assert_eq!((hit.attack_total, hit.defense_total, hit.landed), (1, 1, false));
    assert_eq!(ogre_terms(&mut e), (Some(-1), Some(-1)));
    // ...and not the round after.
    to_round(&mut e, 3);
    assert_eq!(ogre_terms(&mut e), (None, None));
}

#[test]
fn without_rounds_it_is_the_foes_next_moment() {
    let mut e = table("continuous");
    let first = next_moment(&mut e);
    e.scout(SCOUT, OGRE, Some(0)).unwrap();
    assert_eq!(ogre_terms(&mut e), (None, None), "not in the moment scouted in");
    let second = next_moment(&mut e);
    assert!(second > first);
    assert_eq!(ogre_terms(&mut e), (Some(-1), Some(-1)), "every exchange of the next");
    next_moment(&mut e);
    assert_eq!(ogre_terms(&mut e), (None, None), "used up");
}

#[test]
fn a_failed_roll_scouts_nobody_and_wounds_count() {
    let mut e = table("simple-rounds");
    to_round(&mut e, 1);
    let r = e.scout(SCOUT, OGRE, Some(-2)).unwrap();
    assert_eq!((r.result, r.scouts), (-1, false));
    assert!(r.text.ends_with("Mediocre vs Fair: no scouting"), "{}", r.text);
    to_round(&mut e, 2);
    assert!(!e.scouted(OGRE).unwrap());
    // Hurt: Good - 1 + 0 is Fair, still enough; Very Hurt with 0 is not.
    let hurt = WoundTrack::with_filled([0, 1, 0, 0, 0], false);
    e.set_damage(SCOUT, WoundOverride::Wounds { track: hurt }).unwrap();
    let r = e.scout(SCOUT, OGRE, Some(0)).unwrap();
    assert_eq!((r.level, r.result, r.scouts), (0, 0, true));
}

#[test]
fn an_npc_scout_rolls_nothing() {
    let mut e = Encounter::with_rules(TimingSystem::SimpleRounds, fudge(), 3).unwrap();
    let mut scout = fighter("Scout", Level::FAIR);
    scout.stance = Stance::AllOutDefense;
    scout.scouting = Some(Level::FAIR);
    scout.npc_result = true;
    e.add_fighter("pair", &scout).unwrap();
    e.add_fighter("foe", &fighter("Ogre", Level::GREAT)).unwrap();
    to_round(&mut e, 1);
    let err = e.scout(SCOUT, OGRE, Some(1)).unwrap_err();
    assert_eq!((err.kind(), err.field()), (ErrorKind::InvalidInput, Some("roll")));
    let r = e.scout(SCOUT, OGRE, None).unwrap();
    assert_eq!((r.roll, r.result, r.scouts), (0, 0, true));
}

#[test]
fn the_lone_fighter_scouted_is_at_minus_one() {
    let mut e = table("simple-rounds");
    to_round(&mut e, 1);
    e.scout(SCOUT, OGRE, Some(4)).unwrap();
    to_round(&mut e, 2);
    let dice = LoneFighterDice {
        lone: Some(0),
        group: None,
        foes: vec![Some(0), Some(0)],
    };
    let r = e
        .lone_fighter(OGRE, &[SCOUT, BLADE], &LoneFighterOptions::default(), &dice)
        .unwrap();
    assert_eq!(scouted(&r.lone_breakdown), Some(-1));
    // Great, -1 for the extra foe, -1 scouted: Fair.
    assert_eq!(r.lone_result, 0);
    assert!(r.foes.iter().all(|f| scouted(&f.breakdown).is_none()));
}

#[test]
fn scouting_is_undone_and_kept_in_snapshots() {
    let mut e = table("continuous");
    next_moment(&mut e);
    let before = e.clone();
    e.scout(SCOUT, OGRE, None).unwrap();
    let saved = e.snapshot().unwrap();
    assert!(saved.contains("\"scouting\":\"Good\""), "the trait is saved");
    let mut restored = Encounter::restore(&saved).unwrap();
    assert_eq!(restored, e);
    let (mut a, mut b) = (e.clone(), restored.clone());
    next_moment(&mut a);
    next_moment(&mut b);
    assert_eq!(ogre_terms(&mut a), ogre_terms(&mut b));
    assert_eq!(a.snapshot().unwrap(), b.snapshot().unwrap());
    restored.undo().unwrap();
    e.undo().unwrap();
    assert_eq!(e, before);
    assert_eq!(restored.snapshot().unwrap(), before.snapshot().unwrap());
}

#[test]
fn refusals_change_nothing() {
    let mut e = table("simple-rounds");
    to_round(&mut e, 1);
    let snap = e.snapshot().unwrap();
    let cases: [(CombatantId, CombatantId, Option<i32>, ErrorKind, &str); 6] = [
        (SCOUT, OGRE, Some(5), ErrorKind::InvalidInput, "roll"),
        (SCOUT, SCOUT, None, ErrorKind::InvalidInput, "foe"),
        // Blade is on the scout's own side: no foe of its.
        (SCOUT, BLADE, None, ErrorKind::InvalidInput, "foe"),
        (BLADE, OGRE, None, ErrorKind::InvalidInput, "scout"),
        (OGRE, SCOUT, None, ErrorKind::InvalidInput, "scout"),
        (SCOUT, CombatantId(9), None, ErrorKind::NotFound, "combatant"),
    ];
    for (scout, foe, roll, kind, field) in cases {
        let err = e.scout(scout, foe, roll).unwrap_err();
        assert_eq!((err.kind(), err.field()), (kind, Some(field)), "{err}");
        assert_eq!(e.snapshot().unwrap(), snap);
    }
    // Not in all-out defense any more.
    e.set_tactics(SCOUT, skirmish_core::fighter::Tactics::default())
        .unwrap();
    let err = e.scout(SCOUT, OGRE, None).unwrap_err();
    assert!(err.message().contains("all-out defense"), "{err}");
    // Full Contact has no scouting.
    let mut fc = Encounter::new(TimingSystem::SimpleRounds, 1).unwrap();
    let mut p = fighter("Scout", Level::FAIR);
    p.scouting = Some(Level::GOOD);
    fc.add_fighter("a", &p).unwrap();
    fc.add_fighter("b", &fighter("Ogre", Level::GOOD)).unwrap();
    let err = fc.scout(SCOUT, OGRE, None).unwrap_err();
    assert_eq!(err.field(), Some("rules.striking"));
}
