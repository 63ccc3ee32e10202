//! Unit tests of the [`Encounter`] object: errors keep their stable kinds
//! and change nothing, a panic leaves the last good encounter, a strike and
//! the odds from a built-in scenario, and conversions that round-trip.

use super::*;
use crate::error::SkirmishError;

fn spec(name: &str, tt: i32) -> CombatantSpec {
    CombatantSpec {
        name: name.into(),
        action: Declaration {
            time_taken: tt,
            ..Declaration::from(core_timing::Declaration::default())
        },
        action_label: String::new(),
        side: None,
        timing: core_timing::ActorTiming::default().into(),
        hidden: false,
    }
}

#[test]
fn errors_are_the_stable_kinds_and_change_nothing() {
    let e = Encounter::new(TimingSystem::from(&core_timing::TimingSystem::continuous()), 3).unwrap();
    assert!(matches!(e.undo(), Err(SkirmishError::NothingToUndo { .. })));
    assert!(matches!(e.next(), Err(SkirmishError::NotNow { .. })));
    let a = e.add_combatant(spec("A", 3)).unwrap();
    let b = e.add_combatant(spec("B", 3)).unwrap();
    e.down(b).unwrap();
    let before = e.snapshot().unwrap();
    assert!(matches!(e.down(99), Err(SkirmishError::NotFound { .. })));
    assert!(matches!(e.find("Nobody".into()), Err(SkirmishError::NotFound { .. })));
    assert!(matches!(e.delay(b, 2), Err(SkirmishError::NotNow { .. })));
    assert!(matches!(e.hold(a), Err(SkirmishError::NotNow { .. })));
    match e.add_combatant(spec("C", -5)) {
        Err(SkirmishError::InvalidInput { field, .. }) => assert!(field.contains("time_taken"), "{field}"),
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        Encounter::restore("{".into()),
        Err(SkirmishError::BadSnapshot { .. })
    ));
    assert_eq!(e.snapshot().unwrap(), before);
}

#[test]
fn a_panic_in_a_change_leaves_the_last_good_encounter() {
    let e = Encounter::new(TimingSystem::SimpleRounds, 1).unwrap();
    e.add_combatant(spec("A", 3)).unwrap();
    let before = e.snapshot().unwrap();
    let r: Result<()> = e.write(|inner| {
        if inner.undo_depth() > 0 {
            panic!("midway");
        }
        Ok(())
    });
    assert!(matches!(r, Err(SkirmishError::Internal { .. })));
    assert_eq!(e.snapshot().unwrap(), before);
    assert!(!e.inner.is_poisoned());
    e.next().unwrap();
}

#[test]
fn a_strike_and_the_odds_from_the_builtin_ambush() {
    let e = Encounter::from_scenario("goblin-ambush".into(), 1).unwrap();
    let c = e.find("Cardiff".into()).unwrap();
    let g = e.find("Goblin #1".into()).unwrap();
    let typed = |attack| {
        Some(StrikeDice {
            attack: Some(attack),
            defense: None,
        })
    };
    let r = e.strike(c, g, None, typed(-1)).unwrap();
    assert_eq!(
        (r.attack_total, r.defense_total, r.result, r.margin),
        (8, 6, StrikeResult::Hit, 2)
    );
    assert_eq!(r.attack_breakdown.iter().map(|p| p.value).sum::<i32>(), 8);
    match e.strike(c, g, None, typed(5)) {
        Err(SkirmishError::InvalidInput { field, .. }) => assert_eq!(field, "dice.attack"),
        other => panic!("{other:?}"),
    }
    let odds = e.odds_from_here(50, 1).unwrap();
    assert_eq!(odds.sides.len(), 2);
    assert_eq!(e.odds_from_here(50, 1).unwrap(), odds);
    match e.odds_from_here(0, 1) {
        Err(SkirmishError::InvalidInput { field, .. }) => assert_eq!(field, "battles"),
        other => panic!("{other:?}"),
    }
    let view = e.view(ViewFor::Gm).unwrap();
    assert_eq!(view.combatants[g as usize].status, Status::Down);
    assert!(matches!(
        Encounter::from_scenario("goblin-ambsh".into(), 1),
        Err(SkirmishError::NotFound { .. })
    ));
}

#[test]
fn conversions_round_trip() {
    for name in core_timing::TimingSystem::NAMES {
        let core_system = core_timing::TimingSystem::by_name(name).unwrap();
        let ffi = TimingSystem::from(&core_system);
        assert_eq!(core_timing::TimingSystem::try_from(ffi).unwrap(), core_system);
    }
    let two = skirmish_core::tables::weapons::RateOfFire::TWO;
    let traits = core_timing::ActorTiming {
        initiative_bonus: 3,
        interval: 3,
        reflexes: 7,
        combat_sense: 2,
    };
    let specs = [
        core::CombatantSpec::new("Roland", core_timing::Declaration::new(2, 1).with_rate_of_fire(two))
            .on_side("party")
            .with_timing(traits)
            .labelled("elven bow"),
        core::CombatantSpec::new("Madoc", core_timing::Declaration::new(0, 2).disruptible()).labelled("Spark"),
    ];
    for spec in specs {
        let ffi = CombatantSpec::from(spec.clone());
        assert_eq!(core::CombatantSpec::try_from(ffi).unwrap(), spec);
    }
    // Full Contact's rules, amazing results included (docs/rules.md
    // §2.1.8); point-blank range is a battle's, not a record's field.
    use skirmish_core::fighter::{self as core_fighter, AmazingDefenseRule, AmazingStrikeRule};
    for (strike, defense) in [
        (AmazingStrikeRule::Flat, AmazingDefenseRule::None),
        (AmazingStrikeRule::DoubleDamage, AmazingDefenseRule::Disarm),
        (AmazingStrikeRule::Flat, AmazingDefenseRule::KnockDown),
    ] {
        let rules = core_fighter::FullContactRules {
            amazing_strike: strike,
            amazing_defense: defense,
            knock_down_penalty: 3,
            ..core_fighter::FullContactRules::with(true, true, 1)
        };
        let ffi = crate::fighter::FullContactRules::from(rules);
        assert_eq!(core_fighter::FullContactRules::from(ffi), rules);
    }
}

/// A first hour's papercuts, as Kotlin and Swift see them: a decided fight's odds are its
/// outcome (not `NotNow`), a built-in too big for the tracker says what to
/// do, and a negative Combat Sense (an `Int` holds one) is refused naming
/// the field.
#[test]
fn decided_odds_too_big_a_builtin_and_a_negative_combat_sense() {
    let e = Encounter::from_scenario("goblin-ambush".into(), 1).unwrap();
    for name in ["Orc #1", "Orc #2", "Goblin #1", "Goblin #2", "Shaman"] {
        let id = e.find(name.into()).unwrap();
        e.down(id).unwrap();
    }
    let odds = e.odds_from_here(100, 1).unwrap();
    assert_eq!(odds.battles, 0);
    let rates: Vec<(String, f64)> = odds.sides.iter().map(|s| (s.name.clone(), s.win_rate)).collect();
    assert_eq!(rates, [("party".to_owned(), 1.0), ("goblinoids".to_owned(), 0.0)]);

    match Encounter::from_scenario("horde".into(), 1) {
        Err(SkirmishError::InvalidInput { field, message, .. }) => {
            assert_eq!(field, "sides[0].groups[0].count");
            assert!(message.contains("set to 10000 or fewer"), "{message}");
        }
        Err(other) => panic!("{other:?}"),
        Ok(_) => panic!("horde opened"),
    }

    let mut x = spec("x", 1);
    x.timing.combat_sense = -1;
    match e.add_combatant(x) {
        Err(SkirmishError::InvalidInput { field, .. }) => assert_eq!(field, "timing.combat_sense"),
        other => panic!("{other:?}"),
    }
}
