//! The caps on a battle: a moment is fought whole or not at all, and a
//! battle that reaches a cap is a timeout, never a win.

use skirmish_sim::battle::{Battle, RunOptions, Workspace};
use skirmish_sim::report::{BattleSummary, Outcome};
use skirmish_sim::scenario::Scenario;

use crate::battle::parity;

/// Two fighters who always hit and fall to one blow, acting at the same
/// instant: every battle is a draw at the first moment.
fn duel(max_actions: u64) -> Scenario {
    toml::from_str(&format!(
        r#"
        name = "duel"
        timing = "simultaneous"
        striking = {{ system = "full_contact" }}
        damage = {{ model = "hit_points", max_hp = 1 }}
        battle = {{ max_actions = {max_actions} }}
        [[sides]]
        name = "A"
        groups = [{{ name = "Ann", strike_rating = 20, defense_rating = 0 }}]
        [[sides]]
        name = "B"
        groups = [{{ name = "Bob", strike_rating = 20, defense_rating = 0 }}]
        "#
    ))
    .unwrap()
}

#[test]
fn a_moment_that_would_pass_the_action_cap_is_not_fought() {
    let capped = Battle::new(&duel(1)).unwrap().run(1, 0, &RunOptions::FULL).unwrap();
    assert_eq!(capped.summary.outcome, Outcome::Timeout, "{:?}", capped.summary);
    assert_eq!(capped.summary.actions, 0);
    assert_eq!(capped.standing, vec![1, 1]);
    for cap in [2, 3] {
        let r = Battle::new(&duel(cap)).unwrap().run(1, 0, &RunOptions::FULL).unwrap();
        assert_eq!(r.summary.outcome, Outcome::Draw, "cap {cap}: {:?}", r.summary);
        assert_eq!(r.summary.actions, 2);
    }
}

/// A capped battle either is the uncapped one (when that one stayed within
/// the caps) or a timeout within them, on both of the engine's paths.
fn capped_or_unchanged(scenario: &Scenario, field: &str, value: u64, within: impl Fn(&BattleSummary) -> bool) {
    let free = Battle::new(scenario).unwrap();
    let capped = Battle::new(&scenario.with_field(field, &value.to_string()).unwrap()).unwrap();
    let mut ws = Workspace::default();
    for i in 0..60 {
        let whole = free.run_summary(&mut ws, 9, i).unwrap();
        let fast = capped.run_summary(&mut ws, 9, i).unwrap();
        let traced = capped.run(9, i, &RunOptions::FULL).unwrap().summary;
        assert_eq!(
            fast, traced,
            "{field} = {value}, battle {i}: the fast path and the general loop differ"
        );
        if within(&whole) {
            assert_eq!(fast, whole, "{field} = {value}, battle {i}");
        } else {
            assert_eq!(
                fast.outcome,
                Outcome::Timeout,
                "{field} = {value}, battle {i}: {fast:?}"
            );
            assert!(within(&fast), "{field} = {value}, battle {i}: {fast:?}");
        }
    }
}

#[test]
fn a_capped_battle_is_the_whole_battle_or_a_timeout_within_the_cap() {
    let s = parity(10);
    assert!(Battle::new(&s).unwrap().has_fast_path());
    for cap in [1, 19, 20, 21, 60, 100, 140, 200] {
        capped_or_unchanged(&s, "battle.max_actions", cap, |r| r.actions <= cap);
    }
    for cap in [1, 5, 9, 20, 30] {
        capped_or_unchanged(&s, "battle.max_ticks", cap, |r| r.ticks <= cap);
    }
}

#[test]
fn continuous_timing_counts_its_laps_against_max_rounds() {
    // Continuous has no rounds; the report counts 20-tick laps, and so does
    // the cap.
    let s = parity(10);
    for cap in [1u32, 2] {
        capped_or_unchanged(&s, "battle.max_rounds", u64::from(cap), |r| {
            r.rounds <= cap && r.ticks <= 20 * u64::from(cap)
        });
    }
    let one_lap = Battle::new(&s.with_field("battle.max_rounds", "1").unwrap()).unwrap();
    let r = one_lap.run(9, 0, &RunOptions::FULL).unwrap().summary;
    assert_eq!((r.outcome, r.rounds), (Outcome::Timeout, 1), "{r:?}");
    assert!(r.ticks <= 20, "{r:?}");
}

#[test]
fn a_round_past_the_cap_is_neither_fought_nor_counted() {
    let s = parity(10).with_field("timing", "simple-rounds").unwrap();
    for cap in [1u32, 2, 3] {
        let b = Battle::new(&s.with_field("battle.max_rounds", &cap.to_string()).unwrap()).unwrap();
        for i in 0..20 {
            let r = b.run(4, i, &RunOptions::FULL).unwrap().summary;
            assert!(r.rounds <= cap, "cap {cap}, battle {i}: {r:?}");
            if r.outcome == Outcome::Timeout {
                assert_eq!(r.rounds, cap, "cap {cap}, battle {i}: {r:?}");
            }
        }
    }
}
