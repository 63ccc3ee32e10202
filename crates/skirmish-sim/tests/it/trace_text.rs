//! Traces that tell the truth: a FUDGE opposed line's
//! parts add up to its totals (the wound penalty is one of them), and a
//! round system's moments carry their pass, so Simple Rounds read round,
//! pass and initiative in order.

use skirmish_sim::battle::{Battle, RunOptions};
use skirmish_sim::report::TraceLine;
use skirmish_sim::scenario::Scenario;

fn traced(scenario: &Scenario, seed: u64) -> Vec<TraceLine> {
    Battle::new(scenario)
        .unwrap()
        .run(seed, 0, &RunOptions::FULL)
        .unwrap()
        .trace
        .unwrap()
}

/// The parts of one side of an opposed line, "R (+s skill -w wounds +r
/// roll, -n outnumbered)": (total, sum of the parts, had wounds).
fn side(text: &str) -> (i32, i32, bool) {
    let (total, rest) = text.split_once(" (").unwrap();
    let parts = rest.trim_end_matches(')');
    let mut sum = 0;
    let mut wounds = false;
    for part in parts.split([',']).flat_map(|p| {
        let words: Vec<&str> = p.split_whitespace().collect();
        words
            .chunks(2)
            .map(|c| (c[0].to_string(), c[1].to_string()))
            .collect::<Vec<_>>()
    }) {
        let (n, what) = part;
        let n: i32 = n.parse().unwrap();
        match what.as_str() {
            "skill" | "roll" => sum += n,
            "wounds" => {
                wounds = true;
                sum += n;
            }
            "outnumbered" => sum += n,
            other => panic!("unknown part {other} in {text}"),
        }
    }
    (total.trim().parse().unwrap(), sum, wounds)
}

#[test]
fn a_fudge_line_shows_every_part_of_its_totals_the_wound_penalty_too() {
    let scenario = Scenario::builtin("goblin-ambush")
        .unwrap()
        .with_field("striking", "fudge-opposed")
        .unwrap();
    let mut wounded = 0;
    let mut lines = 0;
    for seed in 1..=20 {
        for l in traced(&scenario, seed) {
            let Some((_, what)) = l.text.split_once(" strikes ") else {
                continue;
            };
            let what = what.split_once(": ").unwrap().1;
            let (attack, rest) = what.split_once(" vs ").unwrap();
            let defense = rest.rsplit_once(": ").unwrap().0;
            for s in [attack, defense] {
                let (total, sum, wounds) = side(s);
                assert_eq!(total, sum, "the parts do not add up: {}", l.text);
                wounded += usize::from(wounds);
            }
            lines += 1;
        }
    }
    assert!(lines > 100 && wounded > 10, "{lines} lines, {wounded} with wounds");
    // The line as it reads (goblin ambush, FUDGE opposed, seed 1): the
    // goblin, Very Hurt, is at -1 skill -2 wounds.
    let first = traced(&scenario, 1);
    assert!(
        first.iter().any(|l| l.text
            == "Madoc (Spark) strikes Goblin #1: 2 (+1 skill +1 roll) vs -3 (-1 skill -2 wounds +0 roll): hit by 5, damage 6"),
        "{first:#?}"
    );
}

#[test]
fn simple_rounds_moments_read_round_pass_and_initiative_in_order() {
    let scenario = Scenario::builtin("goblin-ambush")
        .unwrap()
        .with_field("timing", "simple-rounds")
        .unwrap();
    let mut second_passes = 0;
    for seed in 1..=10 {
        let trace = traced(&scenario, seed);
        for w in trace.windows(2) {
            let (a, b) = (&w[0], &w[1]);
            assert!(a.tick <= b.tick);
            assert!(b.pass >= 1, "{b:?}");
            if a.tick < b.tick && a.round == b.round {
                // Within a round: later pass, or a higher initiative in the same one.
                assert!(
                    (a.pass, a.display) < (b.pass, b.display),
                    "seed {seed}: {a:?} then {b:?}"
                );
            }
            second_passes += usize::from(b.pass == 2);
        }
    }
    assert!(second_passes > 0);
    // Continuous has no passes.
    let continuous = traced(&Scenario::builtin("goblin-ambush").unwrap(), 1);
    assert!(continuous.iter().all(|l| l.pass == 0));
}

/// Replays every damage line of `scenario`'s traces on the core model:
/// each must be the model's own result for that hit, hits applied in the
/// order they landed, with the penalty left on a fighter still standing.
/// Returns the lines checked.
fn damage_lines_are_the_models(scenario: &Scenario, seeds: std::ops::RangeInclusive<u64>) -> Vec<String> {
    use skirmish_core::damage::{Damage, DamageModel};
    use std::collections::HashMap;
    let model: Damage = scenario.damage.build().unwrap();
    let mut seen = Vec::new();
    for seed in seeds {
        let mut states = HashMap::new();
        let lines = traced(scenario, seed);
        for (i, l) in lines.iter().enumerate() {
            let Some((name, rest)) = l.text.split_once(" takes damage ") else {
                continue;
            };
            let damage: i32 = rest.split_once(':').unwrap().0.parse().unwrap();
            let state = states.entry(name.to_string()).or_insert_with(|| model.fresh());
            let out = model.apply(state, damage);
            let rolls = if out.after.is_down() || out.penalty == 0 {
                String::new()
            } else {
                format!(" ({:+} to rolls)", out.penalty)
            };
            assert_eq!(l.text, format!("{name} takes damage {damage}: {}{rolls}", out.change));
            // A fighter the model put down falls at the end of the moment.
            if out.newly_down() {
                assert!(
                    lines[i..]
                        .iter()
                        .any(|x| x.tick == l.tick && x.text == format!("{name} falls")),
                    "{name} went down without falling: {lines:#?}"
                );
            }
            seen.push(l.text.clone());
        }
    }
    seen
}

#[test]
fn under_fudge_wounds_each_hit_shows_the_wound_it_made_and_where_the_fighter_stands() {
    let scenario = Scenario::builtin("goblin-ambush").unwrap();
    let lines = damage_lines_are_the_models(&scenario, 1..=10);
    assert!(lines.len() > 50, "{lines:#?}");
    // A wound whose boxes are full moves up, and the line says so.
    assert!(lines.iter().any(|l| l.contains(", boxes full: ")), "{lines:#?}");
    // As it reads (goblin ambush, Continuous, seed 1): Orc #1, already
    // Hurt, takes a second Hurt; its one Hurt box is full.
    let first = traced(&scenario, 1);
    let texts: Vec<&str> = first.iter().map(|l| l.text.as_str()).collect();
    let at = texts
        .iter()
        .position(|t| *t == "Madoc (Spark) strikes Orc #1: SR 6 +0 vs DR 4: hit (margin +2), damage 3")
        .unwrap();
    assert_eq!(
        texts[at + 1],
        "Orc #1 takes damage 3: Hurt, boxes full: Very Hurt; now Very Hurt (-2 to rolls)"
    );
}

#[test]
fn under_hit_points_each_hit_shows_the_hit_points_lost_and_left() {
    // A table where damage 3 costs 2 hit points: the line says 2, not 3.
    let scenario: Scenario = toml::from_str(
        r#"
        name = "table"
        timing = "simple_rounds"
        damage = { model = "hit_points", max_hp = 6, damage = { table = [{ min_margin = 1, damage = 1 }, { min_margin = 3, damage = 2 }, { min_margin = 6, damage = 4 }] } }
        [[sides]]
        name = "A"
        groups = [{ name = "a", count = 3, strike_rating = 7, defense_rating = 5 }]
        [[sides]]
        name = "B"
        groups = [{ name = "b", count = 3, strike_rating = 7, defense_rating = 5 }]
        "#,
    )
    .unwrap();
    let lines = damage_lines_are_the_models(&scenario, 1..=10);
    assert!(lines.len() > 50, "{lines:#?}");
    assert!(
        lines
            .iter()
            .any(|l| l.contains(" takes damage 3: loses 2 hit points, ")),
        "{lines:#?}"
    );
}
