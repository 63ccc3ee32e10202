//! Full Contact parries in battles (docs/rules.md §2.1.4, §5): Brooklyn's
//! two parries from the text through a battle trace, the parry policies,
//! their cost under each timing system, and the fast paths declining them.

use skirmish_core::dice::SeededRolls;
use skirmish_sim::battle::{Battle, RunOptions, Workspace};
use skirmish_sim::report::Outcome;
use skirmish_sim::scenario::Scenario;
use skirmish_sim::stats::wilson;

const TRACE: RunOptions = RunOptions {
    trace: true,
    casualties: false,
};

/// The guard's naginata (SR 7) against Brooklyn (DR 7, bowie knife SR 6),
/// under `timing`, Brooklyn parrying by `policy`.
pub(crate) fn brooklyn(timing: &str, policy: &str) -> Scenario {
    toml::from_str(&format!(
        r#"
        name = "Brooklyn and the guard"
        timing = {{ system = "{timing}" }}
        [[sides]]
        name = "guards"
        groups = [{{ name = "Guard", strike_rating = 7, defense_rating = 6, weapon = {{ name = "naginata", time_taken = 3 }} }}]
        [[sides]]
        name = "Brooklyn"
        groups = [{{ name = "Brooklyn", strike_rating = 6, defense_rating = 7, parry = "{policy}", weapon = {{ name = "bowie knife", time_taken = 3 }} }}]
        "#
    ))
    .unwrap()
}

/// A fencer (SR 9, DR 5) against a bruiser (SR 6, DR 7, toughness 1):
/// her parry beats a low thrust far more often than her own strike hits.
fn fencer(timing: &str, policy: &str) -> Scenario {
    toml::from_str(&format!(
        r#"
        name = "fencer"
        timing = {{ system = "{timing}" }}
        [[sides]]
        name = "bruiser"
        groups = [{{ name = "Bruiser", strike_rating = 6, defense_rating = 7, toughness = 1 }}]
        [[sides]]
        name = "fencer"
        groups = [{{ name = "Fencer", strike_rating = 9, defense_rating = 5, parry = "{policy}" }}]
        "#
    ))
    .unwrap()
}

const SYSTEMS: [&str; 6] = [
    "simultaneous",
    "simple_rounds",
    "graduated_rounds",
    "continuous",
    "tick_system",
    "action_blocks",
];

/// The fencer's wins in `n` battles of seed 5, with its 95% interval.
fn fencer_wins(system: &str, policy: &str, n: u64) -> (u64, (f64, f64)) {
    let b = Battle::new(&fencer(system, policy)).unwrap();
    let mut ws = Workspace::default();
    let wins = (0..n)
        .filter(|&i| matches!(b.run_summary(&mut ws, 5, i).unwrap().outcome, Outcome::Win { side: 1 }))
        .count() as u64;
    (wins, wilson(wins, n))
}

#[test]
fn brooklyns_two_parries_through_a_battle_trace() {
    // "The first thrust receives a Strike Roll of +2, totalling 9 ... her
    // parry attempt rolls an incredible +4, totalling 10 ... The second
    // thrust also rolls +2, but Brooklyn's parry rolls only +1 (attack
    // total 9, parry total 7), and the spear scores on her hip."
    // Under the Tick System her parries are free (docs/rules.md §2.1.4);
    // battle 0 of seed 8556 rolls the text's dice.
    let b = Battle::new(&brooklyn("tick_system", "always")).unwrap();
    let report = b.run(8556, 0, &TRACE).unwrap();
    let thrusts: Vec<String> = report
        .trace
        .unwrap()
        .into_iter()
        .map(|l| l.text)
        .filter(|t| t.starts_with("Guard"))
        .take(2)
        .collect();
    assert_eq!(
        thrusts,
        [
            "Guard (naginata) strikes Brooklyn: SR 7 +2 vs DR 7: hit (margin +2); Brooklyn parries: SR 6 +4 = 10 vs 9, \
             knocked aside",
            "Guard (naginata) strikes Brooklyn: SR 7 +2 vs DR 7: hit (margin +2), damage 2; Brooklyn parries: SR 6 +1 \
             = 7 vs 9, the blow goes home",
        ]
    );
}

#[test]
fn a_parry_spends_the_next_action_except_under_the_tick_system() {
    for system in SYSTEMS {
        let b = Battle::new(&brooklyn(system, "always")).unwrap();
        let (mut parries, mut spent) = (0, 0);
        for i in 0..20 {
            for line in b.run(3, i, &TRACE).unwrap().trace.unwrap() {
                parries += usize::from(line.text.contains("Brooklyn parries"));
                spent += usize::from(line.text == "Brooklyn's action went to a parry");
            }
        }
        assert!(parries > 0, "{system}: no parry in 20 battles");
        if system == "tick_system" {
            assert_eq!(spent, 0, "{system}: a free parry spent an action");
        } else {
            // One spent action per parry; a battle may end before it comes.
            assert!(
                spent > 0 && spent <= parries,
                "{system}: {spent} actions spent on {parries} parries"
            );
        }
    }
}

#[test]
fn never_parrying_is_the_battle_without_the_field() {
    let plain: Scenario = toml::from_str(
        &toml::to_string(&brooklyn("continuous", "never"))
            .unwrap()
            .replace("parry = \"never\"", ""),
    )
    .unwrap();
    for system in SYSTEMS {
        let never = brooklyn(system, "never");
        let plain = plain.with_field("timing", system).unwrap();
        let (a, b) = (Battle::new(&never).unwrap(), Battle::new(&plain).unwrap());
        assert_eq!(a.has_fast_path(), b.has_fast_path(), "{system}");
        for i in 0..10 {
            assert_eq!(
                a.run(9, i, &TRACE).unwrap(),
                b.run(9, i, &TRACE).unwrap(),
                "{system} battle {i}"
            );
        }
    }
}

#[test]
fn parrying_battles_decline_the_fast_paths_and_agree_on_every_clock() {
    for system in SYSTEMS {
        let b = Battle::new(&fencer(system, "always")).unwrap();
        assert!(!b.has_fast_path(), "{system}: a parrying battle took a fast path");
        assert!(
            Battle::new(&fencer(system, "never")).unwrap().has_fast_path(),
            "{system}"
        );
        let mut ws = Workspace::default();
        for i in 0..20 {
            let lean = b
                .run_with(&mut ws, &mut SeededRolls::for_stream(5, i), &TRACE, true)
                .unwrap();
            let scheduler = b
                .run_with(&mut ws, &mut SeededRolls::for_stream(5, i), &TRACE, false)
                .unwrap();
            assert_eq!(lean, scheduler, "{system} battle {i}");
            let summary = b.run_summary(&mut ws, 5, i).unwrap();
            assert_eq!(summary, lean.summary, "{system} battle {i}");
        }
    }
}

#[test]
fn parry_policy_by_timing_system_on_a_duel() {
    // The fencer's win rate over 1,000 battles per cell, with 95% Wilson
    // intervals (docs/rules.md §2.1.4): a free parry (the Tick System)
    // is worth far more than one that spends the next action.
    let n = 1000;
    let mut gain = Vec::new();
    for system in SYSTEMS {
        let (never, never_ci) = fencer_wins(system, "never", n);
        let (always, always_ci) = fencer_wins(system, "always", n);
        let (better, better_ci) = fencer_wins(system, "when_better", n);
        println!(
            "{system:17} never {never:4} [{:.3}, {:.3}]  always {always:4} [{:.3}, {:.3}]  when_better {better:4} \
             [{:.3}, {:.3}]",
            never_ci.0, never_ci.1, always_ci.0, always_ci.1, better_ci.0, better_ci.1
        );
        // "when_better" parries a subset of the blows "always" parries
        // (the low totals only): never more wins than parrying them all.
        assert!(better < always, "{system}: when_better {better} vs always {always}");
        gain.push((system, always as i64 - never as i64));
        if system == "tick_system" {
            assert!(
                always_ci.0 > never_ci.1,
                "free parries: always {always} vs never {never}"
            );
        }
    }
    let free = gain.iter().find(|(s, _)| *s == "tick_system").unwrap().1;
    for &(system, g) in &gain {
        if system != "tick_system" {
            assert!(g * 2 < free, "{system}: parrying gains {g} wins, free parries {free}");
        }
    }
}

/// Where the parry meets distance and surprise (docs/rules.md §2.1.4,
/// §5.2): a shot is parried against its SR after the range penalty, and
/// an unaware defender never parries.
#[test]
fn a_shot_is_parried_at_its_ranged_strike_rating_and_an_unaware_defender_never_parries() {
    let scenario = |unaware_for: u32| -> Scenario {
        toml::from_str(&format!(
            r#"
            name = "arrows at a fencer"
            timing = "continuous"
            distance = 280
            battle = {{ max_actions = 60 }}
            [[sides]]
            name = "archer"
            groups = [{{ name = "Archer", strike_rating = 9, defense_rating = 5, weapon = "Bow, Short", range = {{ short_range = 150, range_strength = 50 }} }}]
            [[sides]]
            name = "fencer"
            groups = [{{ name = "Fencer", strike_rating = 9, defense_rating = 5, parry = "always", plan = "hold", unaware_for = {unaware_for} }}]
            "#
        ))
        .unwrap()
    };
    // Aware: every parry of a shot names the shot's total, SR 9 -3 for
    // the range + the roll.
    let b = Battle::new(&scenario(0)).unwrap();
    let mut parried = 0;
    for i in 0..40 {
        for line in b.run(1, i, &TRACE).unwrap().trace.unwrap() {
            let t = &line.text;
            if let Some((shot, parry)) = t.split_once("; Fencer parries: ") {
                let roll: i32 = shot
                    .split("range = 6, ")
                    .nth(1)
                    .and_then(|r| r.split(' ').next())
                    .and_then(|r| r.parse().ok())
                    .unwrap_or_else(|| panic!("a shot at -3: {t}"));
                let total: i32 = parry
                    .split(" vs ")
                    .nth(1)
                    .and_then(|v| v.split(',').next())
                    .and_then(|v| v.parse().ok())
                    .unwrap_or_else(|| panic!("the parry's words: {t}"));
                assert_eq!(total, 6 + roll, "{t}");
                parried += 1;
            }
        }
    }
    assert!(parried > 0, "some shot was parried");
    // Unaware for the whole battle: no parry at all.
    let b = Battle::new(&scenario(100_000)).unwrap();
    for i in 0..40 {
        for line in b.run(1, i, &TRACE).unwrap().trace.unwrap() {
            assert!(!line.text.contains("parries"), "{}", line.text);
        }
    }
}
