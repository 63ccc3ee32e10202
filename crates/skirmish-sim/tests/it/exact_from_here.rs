//! Odds from here solved exactly (`exact::solve_encounter`, and
//! `odds::odds_from_here` using it when the encounter fits): the answer
//! from a fight under way equals the exact answer of the scenario that
//! starts where it stands, lies within the sampled interval of the same
//! continuation, and whatever the exact engine does not model falls back
//! to sampling with the reason.

use skirmish_core::tracker::{Duration, Encounter, EncounterStrikeOptions, StrikeDice, Turn};
use skirmish_sim::exact::{ExactError, ExactOptions, solve, solve_encounter};
use skirmish_sim::odds::{OddsMethod, encounter_from_scenario, odds_from_here, odds_from_here_with};
use skirmish_sim::scenario::Scenario;

/// A duel under `timing` with hit points: `a` and `b` with SR 5 and DR 5,
/// `b` with `b_hp` hit points (`max_hp` 5 for `a`).
fn duel(timing: &str, b_hp: i32) -> Scenario {
    Scenario::from_toml_str(
        &format!(
            r#"
            name = "duel"
            timing = "{timing}"
            damage = {{ model = "hit_points", max_hp = 5 }}
            [[sides]]
            name = "A"
            groups = [{{ name = "a", strike_rating = 5, defense_rating = 5 }}]
            [[sides]]
            name = "B"
            groups = [{{ name = "b", strike_rating = 5, defense_rating = 5, hit_points = {b_hp} }}]
            "#
        ),
        "duel.toml",
    )
    .unwrap()
}

/// Steps the encounter until a moment lands; returns the acting members.
fn to_moment(e: &mut Encounter) -> Vec<skirmish_core::tracker::CombatantId> {
    loop {
        match e.next().unwrap() {
            Turn::Moment { lines, .. } => return lines.iter().flat_map(|l| l.members.clone()).collect(),
            Turn::NewRound { .. } => {}
            Turn::Over => panic!("the fight ended"),
        }
    }
}

#[test]
fn mid_duel_after_a_hit_the_exact_odds_are_the_scenarios_from_that_damage() {
    let mut e = encounter_from_scenario(&duel("simultaneous", 5), 3).unwrap();
    let (a, b) = (e.find("a").unwrap(), e.find("b").unwrap());
    assert_eq!(to_moment(&mut e).len(), 2);
    // a rolls +3: SR 5 + 3 - DR 5 = 3 off b's 5 hit points; b rolls -2: a miss.
    let hit = e
        .strike(a, b, EncounterStrikeOptions::default(), StrikeDice::typed(3, None))
        .unwrap();
    assert_eq!(hit.damage, 3, "{hit:?}");
    e.strike(b, a, EncounterStrikeOptions::default(), StrikeDice::typed(-2, None))
        .unwrap();
    let here = solve_encounter(&e, &ExactOptions::default()).unwrap();
    let scenario = solve(&duel("simultaneous", 2), &ExactOptions::default()).unwrap();
    assert_eq!(here, scenario);
    assert!(here.exact && here.wins[0].value > here.wins[1].value, "{here:?}");

    let odds = odds_from_here(&e, 10_000, 1).unwrap();
    assert!(
        matches!(odds.method, OddsMethod::Exact { fractions: true, error_bound, .. } if error_bound == 0.0),
        "{odds:?}"
    );
    assert_eq!(odds.battles, 0);
    assert_eq!((odds.mean_ticks, odds.mean_rounds), (None, None));
    for (side, exact) in odds.sides.iter().zip(&here.wins) {
        assert_eq!((side.win_rate, &side.fraction), (exact.value, &exact.fraction));
        assert_eq!((side.low, side.high), (exact.value, exact.value));
    }
    assert_eq!(odds.draw_fraction, here.draw.fraction);
    assert_eq!(odds.timeout_fraction.as_deref(), Some("0"));

    // The sampled continuation of the same moment agrees.
    let sampled = odds_from_here_with(&e, 20_000, 1, None).unwrap();
    assert_eq!(sampled.method, OddsMethod::Sampled { reason: None });
    assert_eq!(sampled.battles, 20_000);
    for (side, exact) in sampled.sides.iter().zip(&here.wins) {
        assert!(
            side.low <= exact.value && exact.value <= side.high,
            "{sampled:?} vs {here:?}"
        );
        assert_eq!(side.fraction, None);
    }
}

#[test]
fn at_the_start_of_an_exchange_the_odds_are_still_exact() {
    let mut e = encounter_from_scenario(&duel("simultaneous", 5), 3).unwrap();
    assert!(matches!(e.next().unwrap(), Turn::NewRound { round: 1, .. }));
    let here = solve_encounter(&e, &ExactOptions::default()).unwrap();
    assert_eq!(here, solve(&duel("simultaneous", 5), &ExactOptions::default()).unwrap());
}

#[test]
fn simple_rounds_are_exact_between_rounds_and_sampled_within_one() {
    let mut e = encounter_from_scenario(&duel("simple-rounds", 5), 9).unwrap();
    let (a, b) = (e.find("a").unwrap(), e.find("b").unwrap());
    // Before the first round: the scenario's own odds.
    let fresh = solve_encounter(&e, &ExactOptions::default()).unwrap();
    assert_eq!(
        fresh,
        solve(&duel("simple-rounds", 5), &ExactOptions::default()).unwrap()
    );
    // The round's initiative is rolled: its order is fixed, not the chain's.
    assert!(matches!(e.next().unwrap(), Turn::NewRound { round: 1, .. }));
    match solve_encounter(&e, &ExactOptions::default()) {
        Err(ExactError::Unsupported { field, what }) => {
            assert_eq!(field, "scheduler", "{what}");
            assert!(what.contains("between rounds"), "{what}");
        }
        other => panic!("{other:?}"),
    }
    let odds = odds_from_here(&e, 500, 4).unwrap();
    let OddsMethod::Sampled { reason: Some(reason) } = &odds.method else {
        panic!("{odds:?}")
    };
    assert!(reason.starts_with("scheduler: round 1 under way"), "{reason}");
    assert_eq!(odds.battles, 500);
    // The sampled numbers are the forced sampler's, untouched.
    let forced = odds_from_here_with(&e, 500, 4, None).unwrap();
    assert_eq!((&odds.sides, odds.mean_ticks), (&forced.sides, forced.mean_ticks));

    // Play the round out: every line's action lands; a hits b for 3.
    let mut landed = 0;
    while landed < 2 {
        let acting = to_moment(&mut e);
        for m in acting {
            landed += 1;
            let (target, roll) = if m == a { (b, 3) } else { (a, -4) };
            e.strike(
                m,
                target,
                EncounterStrikeOptions::default(),
                StrikeDice::typed(roll, None),
            )
            .unwrap();
        }
    }
    let here = solve_encounter(&e, &ExactOptions::default()).unwrap();
    assert_eq!(
        here,
        solve(&duel("simple-rounds", 2), &ExactOptions::default()).unwrap()
    );
    let odds = odds_from_here(&e, 500, 4).unwrap();
    assert_eq!(odds.method.name(), "exact");
    assert_eq!(odds.sides[0].fraction, here.wins[0].fraction);
}

#[test]
fn what_the_chain_does_not_hold_falls_back_to_sampling_with_the_reason() {
    // An effect running.
    let mut e = encounter_from_scenario(&duel("simultaneous", 5), 3).unwrap();
    e.add_effect("bless", None, Duration::Rounds(3)).unwrap();
    let odds = odds_from_here(&e, 300, 2).unwrap();
    let OddsMethod::Sampled { reason: Some(reason) } = &odds.method else {
        panic!("{odds:?}")
    };
    assert!(
        reason.starts_with("effects[0]: the effect bless is running"),
        "{reason}"
    );
    let forced = odds_from_here_with(&e, 300, 2, None).unwrap();
    assert_eq!(odds.sides, forced.sides);
    assert_eq!(odds.mean_rounds, forced.mean_rounds);

    // Continuous timing: exact before the first initiative is rolled (the
    // scenario's own answer); once it is, each fighter's next tick is
    // timing a fresh start of the chain does not hold.
    let mut e = encounter_from_scenario(&duel("continuous", 5), 3).unwrap();
    let here = solve_encounter(&e, &ExactOptions::default()).unwrap();
    assert_eq!(here, solve(&duel("continuous", 5), &ExactOptions::default()).unwrap());
    to_moment(&mut e);
    let odds = odds_from_here(&e, 300, 2).unwrap();
    let OddsMethod::Sampled { reason: Some(reason) } = &odds.method else {
        panic!("{odds:?}")
    };
    assert!(reason.starts_with("scheduler: round 1 under way"), "{reason}");

    // Too big for the budget given.
    let e = encounter_from_scenario(&duel("simultaneous", 5), 3).unwrap();
    let tight = ExactOptions {
        max_states: 2,
        ..ExactOptions::default()
    };
    let odds = odds_from_here_with(&e, 300, 2, Some(&tight)).unwrap();
    let OddsMethod::Sampled { reason: Some(reason) } = &odds.method else {
        panic!("{odds:?}")
    };
    assert!(reason.contains("more than 2 states"), "{reason}");

    // A group sharing one initiative under Simple Rounds.
    let grouped = duel("simple-rounds", 5)
        .with_field("sides.A.groups.a.count", "2")
        .unwrap();
    let e = encounter_from_scenario(&grouped, 3).unwrap();
    match solve_encounter(&e, &ExactOptions::default()) {
        Err(ExactError::Unsupported { field, what }) => {
            assert_eq!(field, "combatants[0]", "{what}");
            assert!(what.contains("sharing one initiative"), "{what}");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_decided_fight_says_so() {
    let mut e = encounter_from_scenario(&duel("simultaneous", 5), 3).unwrap();
    let b = e.find("b").unwrap();
    e.down(b).unwrap();
    let odds = odds_from_here(&e, 300, 2).unwrap();
    assert_eq!(odds.method, OddsMethod::Decided);
    assert!(odds.method.is_exact());
    assert_eq!(odds.sides[0].fraction.as_deref(), Some("1"));
}

#[test]
fn the_round_systems_are_exact_between_rounds_and_what_they_hold_is_refused() {
    // Between rounds (before the first), each round system's encounter is
    // its scenario's exact answer.
    // (A Tick System duel with no Interval lands up to ten blows a round
    // each: its joint weights pass 2^128 and it is refused.)
    for timing in ["graduated-rounds", "action-blocks"] {
        let e = encounter_from_scenario(&duel(timing, 2), 3).unwrap();
        let here = solve_encounter(&e, &ExactOptions::automatic()).unwrap();
        assert_eq!(
            here,
            solve(&duel(timing, 2), &ExactOptions::default()).unwrap(),
            "{timing}"
        );
        assert_eq!(odds_from_here(&e, 100, 1).unwrap().method.name(), "exact", "{timing}");
    }
    // A Tick System fighter that prepares holds its turn until struck at:
    // the chain does not play that, so it is refused, naming the field.
    let prepared = duel("tick-system", 2)
        .with_field("sides.A.groups.0.prepare", "true")
        .unwrap();
    let e = encounter_from_scenario(&prepared, 3).unwrap();
    match solve_encounter(&e, &ExactOptions::automatic()) {
        Err(ExactError::Unsupported { field, .. }) => assert!(field.ends_with(".prepare"), "{field}"),
        other => panic!("{other:?}"),
    }
    // A scout's -1 outlives the exchange: refused, naming the field.
    let scout = duel("simultaneous", 2)
        .with_field("striking", "fudge-opposed")
        .unwrap()
        .with_field("sides.A.groups.0.stance", "all_out_defense")
        .unwrap()
        .with_field("sides.A.groups.0.scouting", "Great")
        .unwrap();
    let e = encounter_from_scenario(&scout, 3).unwrap();
    match solve_encounter(&e, &ExactOptions::automatic()) {
        Err(ExactError::Unsupported { field, .. }) => assert!(field.ends_with(".scouting"), "{field}"),
        other => panic!("{other:?}"),
    }
    // An automatic attempt strikes at most its budget of moments, then
    // refuses (a count: the same on every machine).
    let few = ExactOptions {
        max_moments: 10,
        ..ExactOptions::automatic()
    };
    let e = encounter_from_scenario(&duel("tick-system", 5), 3).unwrap();
    assert_eq!(
        solve_encounter(&e, &few).unwrap_err(),
        ExactError::TooMuchWork { budget: 10 }
    );
    assert_eq!(
        solve(&duel("tick-system", 5), &few).unwrap_err(),
        ExactError::TooMuchWork { budget: 10 }
    );
    // It takes on at most six fighters standing: the ambush's eight are
    // refused before a state is built; the fallen do not count.
    let ambush = Scenario::builtin("goblin-ambush")
        .unwrap()
        .with_field("timing", "simultaneous")
        .unwrap();
    let refused = ExactError::TooManyFighters { fighters: 8, budget: 6 };
    assert_eq!(solve(&ambush, &ExactOptions::automatic()).unwrap_err(), refused);
    let mut e = encounter_from_scenario(&ambush, 3).unwrap();
    assert_eq!(solve_encounter(&e, &ExactOptions::automatic()).unwrap_err(), refused);
    for goblin in ["Goblin #1", "Goblin #2"] {
        let id = e.find(goblin).unwrap();
        e.down(id).unwrap();
    }
    // Six standing pass the cap and reach the chain (whose own budgets,
    // one state here, then refuse them).
    let one_state = ExactOptions {
        max_states: 1,
        ..ExactOptions::automatic()
    };
    assert!(
        matches!(
            solve_encounter(&e, &one_state),
            Err(ExactError::TooManyStates { .. } | ExactError::TooManyOutcomes { .. })
        ),
        "{:?}",
        solve_encounter(&e, &one_state)
    );
}
