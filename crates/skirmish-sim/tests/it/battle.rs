//! The battle engine: both clocks agree, outcomes, limits, and statistics
//! against the exact odds of the core crate.

use skirmish_core::dice::SeededRolls;
use skirmish_sim::battle::{Battle, RunOptions, Workspace};
use skirmish_sim::report::Outcome;
use skirmish_sim::scenario::Scenario;

pub(crate) fn parity(n: u64) -> Scenario {
    toml::from_str(&format!(
        r#"
        name = "parity"
        timing = "continuous"
        striking = {{ system = "full_contact" }}
        damage = {{ model = "hit_points", max_hp = 4, damage = {{ table = [{{ min_margin = 1, damage = 1 }}, {{ min_margin = 3, damage = 2 }}] }} }}
        [[sides]]
        name = "A"
        groups = [{{ name = "A", count = {n}, strike_rating = 7, defense_rating = 6, hit_points = 4, weapon = {{ time_taken = 4 }}, speed_bonus = 1 }}]
        [[sides]]
        name = "B"
        groups = [{{ name = "B", count = {n}, strike_rating = 6, defense_rating = 6, hit_points = 5, weapon = {{ time_taken = 2 }} }}]
        "#
    ))
    .unwrap()
}

#[test]
fn the_lean_clock_fights_exactly_like_the_scheduler() {
    for n in [1, 3, 10, 40] {
        let b = Battle::new(&parity(n)).unwrap();
        for index in 0..30 {
            let opts = RunOptions {
                trace: true,
                casualties: true,
            };
            let mut ws = Workspace::default();
            let lean = b
                .run_with(&mut ws, &mut SeededRolls::for_stream(5, index), &opts, true)
                .unwrap();
            let full = b
                .run_with(&mut ws, &mut SeededRolls::for_stream(5, index), &opts, false)
                .unwrap();
            assert_eq!(lean, full, "n = {n}, battle {index}");
        }
    }
}

#[test]
fn a_parity_battle_ends() {
    let b = Battle::new(&parity(10)).unwrap();
    let r = b
        .run(
            1,
            0,
            &RunOptions {
                trace: true,
                casualties: true,
            },
        )
        .unwrap();
    assert!(
        matches!(r.summary.outcome, Outcome::Win { .. } | Outcome::Draw),
        "{:?}",
        r.summary
    );
    assert!(r.summary.actions > 20);
    println!("{:?}", r.summary);
    for l in r.trace.unwrap().iter().take(12) {
        println!("{} {}", l.tick, l.text);
    }
}
