//! Odds from here solved exactly, timed: a duel mid-fight (after one hit)
//! under Simultaneous Combat, Full Contact and under FUDGE opposed rolls,
//! with the default FUDGE wound track, `odds_from_here` on the calling
//! thread `REPS` times (default 20); then, once, the goblin ambush (eight
//! fighters) under Simultaneous Combat from the start, the most the
//! exact engine tries before it gives up and samples (10,000 battles), and
//! the same sampled alone. Prints how each was computed, the chain's
//! states and the best wall time of a call.
//!
//! ```sh
//! cargo build --profile bench -p skirmish-benches --example exact_odds_profile
//! target/release/examples/exact_odds_profile 20
//! ```

use std::time::Instant;

use skirmish_core::tracker::{EncounterStrikeOptions, StrikeDice, Turn};
use skirmish_sim::odds::{OddsMethod, encounter_from_scenario, odds_from_here, odds_from_here_with};
use skirmish_sim::scenario::Scenario;

fn main() {
    let reps: u32 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(20);
    for striking in ["full_contact", "fudge_opposed"] {
        let scenario: Scenario = Scenario::from_toml_str(
            &format!(
                r#"
                name = "duel"
                timing = "simultaneous"
                striking = "{striking}"
                [[sides]]
                name = "A"
                groups = [{{ name = "a", strike_rating = 6, defense_rating = 5, skill = "Good" }}]
                [[sides]]
                name = "B"
                groups = [{{ name = "b", strike_rating = 5, defense_rating = 5, skill = "Fair" }}]
                "#
            ),
            "duel.toml",
        )
        .expect("a valid duel");
        let mut e = encounter_from_scenario(&scenario, 1).expect("a duel at the table");
        let (a, b) = (e.find("a").expect("a"), e.find("b").expect("b"));
        while !matches!(e.next().expect("a step"), Turn::Moment { .. }) {}
        let hit = e
            .strike(a, b, EncounterStrikeOptions::default(), StrikeDice::typed(2, Some(-1)))
            .expect("a's blow");
        let mut best = f64::MAX;
        let mut last = None;
        for _ in 0..reps {
            let t = Instant::now();
            let odds = odds_from_here(std::hint::black_box(&e), 10_000, 1).expect("an undecided fight");
            best = best.min(t.elapsed().as_secs_f64());
            last = Some(odds);
        }
        if let Some(o) = last {
            let states = match o.method {
                OddsMethod::Exact { states, .. } => states.to_string(),
                _ => "-".into(),
            };
            println!(
                "{striking} duel after a hit of {}: {} ({states} states), A {} B {} draw {}, best call {:.2} ms",
                hit.damage,
                o.method.name(),
                o.sides[0].fraction.as_deref().unwrap_or("?"),
                o.sides[1].fraction.as_deref().unwrap_or("?"),
                o.draw_fraction.as_deref().unwrap_or("?"),
                best * 1e3
            );
        }
    }
    let ambush = Scenario::builtin("goblin-ambush")
        .and_then(|s| s.with_field("timing", "simultaneous"))
        .expect("the built-in ambush");
    let e = encounter_from_scenario(&ambush, 1).expect("the ambush at the table");
    for (what, exact) in [("exact tried first", true), ("sampled alone", false)] {
        let options = skirmish_sim::exact::ExactOptions::default();
        let t = Instant::now();
        let o = odds_from_here_with(&e, 10_000, 1, exact.then_some(&options)).expect("an undecided fight");
        let reason = match &o.method {
            OddsMethod::Sampled { reason: Some(r) } => r.clone(),
            other => other.name().to_owned(),
        };
        println!(
            "ambush under Simultaneous, {what}: {} in {:.2} s ({reason})",
            o.method.name(),
            t.elapsed().as_secs_f64()
        );
    }
}
