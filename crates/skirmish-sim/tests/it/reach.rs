//! Targeting policies and FUDGE reach, read off battle traces.

use std::collections::HashMap;

use skirmish_sim::battle::{Battle, RunOptions};
use skirmish_sim::scenario::Scenario;

fn crowd(targeting: &str, reach: u32) -> Scenario {
    crowd_with(targeting, reach, "two_way")
}

/// The hero against the mob, with FUDGE's `exchange` rule.
fn crowd_with(targeting: &str, reach: u32, exchange: &str) -> Scenario {
    toml::from_str(&format!(
        r#"
        name = "crowd"
        timing = "continuous"
        striking = {{ system = "fudge_opposed", exchange = "{exchange}" }}
        damage = "fudge-wounds"
        battle = {{ targeting = "{targeting}", max_attackers_per_target = {reach} }}
        [[sides]]
        name = "hero"
        groups = [{{ name = "Hero", skill = "Superb", weapon = "Sword, Long", toughness = 3 }}]
        [[sides]]
        name = "mob"
        groups = [{{ name = "Thug", count = 8, skill = "Poor", weapon = "Club" }}]
        "#
    ))
    .unwrap()
}

/// Strikes at each tick: (attacker, target).
fn strikes(s: &Scenario, index: u64) -> Vec<Vec<(String, String)>> {
    let r = Battle::new(s)
        .unwrap()
        .run(
            3,
            index,
            &RunOptions {
                trace: true,
                casualties: false,
            },
        )
        .unwrap();
    let mut by_tick: Vec<(u64, Vec<(String, String)>)> = Vec::new();
    for line in r.trace.unwrap() {
        let Some((attacker, rest)) = line.text.split_once(" (") else {
            continue;
        };
        let Some(target) = rest
            .split_once(") strikes ")
            .and_then(|(_, t)| t.split_once(':'))
            .map(|(t, _)| t)
        else {
            continue;
        };
        if by_tick.last().is_none_or(|(t, _)| *t != line.tick) {
            by_tick.push((line.tick, Vec::new()));
        }
        by_tick
            .last_mut()
            .unwrap()
            .1
            .push((attacker.to_string(), target.to_string()));
    }
    by_tick.into_iter().map(|(_, v)| v).collect()
}

#[test]
fn reach_limits_how_many_attack_one_target() {
    for reach in [1u32, 2, 3] {
        let s = crowd("random", reach);
        for i in 0..20 {
            // Engagement lasts until an attacker strikes elsewhere, so at any
            // moment at most `reach` thugs can strike the hero.
            for moment in strikes(&s, i) {
                let on_hero = moment.iter().filter(|(_, t)| t == "Hero").count();
                assert!(
                    on_hero as u32 <= reach,
                    "reach {reach}: {on_hero} thugs struck at once (battle {i})"
                );
            }
        }
    }
}

#[test]
fn the_most_wounded_draws_the_blows() {
    // The hero alone against the mob: every hero blow goes to the thug that
    // has taken the most damage, so he finishes one before starting another.
    // (With one-way strikes only his own blows wound: under the exchange a
    // thug he beats while it strikes him is wounded too, and may become the
    // most wounded.)
    let s = crowd_with("most_wounded", 6, "one_way");
    for i in 0..20 {
        let mut wounded_order: Vec<String> = Vec::new();
        for moment in strikes(&s, i) {
            for (a, t) in moment {
                if a == "Hero" && wounded_order.last() != Some(&t) {
                    assert!(!wounded_order.contains(&t), "battle {i}: the hero went back to {t}");
                    wounded_order.push(t);
                }
            }
        }
    }
    // Random targeting spreads the hero's blows over many more thugs.
    let random = crowd("random", 6);
    let distinct = |s: &Scenario| {
        let mut seen: HashMap<String, ()> = HashMap::new();
        for i in 0..20 {
            for moment in strikes(s, i) {
                for (a, t) in moment {
                    if a == "Hero" {
                        seen.insert(format!("{i}:{t}"), ());
                    }
                }
            }
        }
        seen.len()
    };
    assert!(distinct(&s) < distinct(&random));
}
