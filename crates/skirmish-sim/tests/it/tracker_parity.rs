//! One source of rules: the live tracker and the battle engine resolve a
//! strike and apply damage through the same core functions. A battle is
//! fought with its trace; the same blows, with the same dice, are then
//! struck in a tracker made from the same scenario, moment by moment, and
//! every field the trace shows is compared: the totals, the outcome and
//! its margin, the damage, and who falls. (The tracker keeps its own time,
//! so the fighters here have no plus-levels, which count by round.)

use skirmish_core::tracker::{Encounter, EncounterStrikeOptions, StrikeDice, StrikeReport};
use skirmish_sim::battle::{Battle, RunOptions};
use skirmish_sim::odds::encounter_from_scenario;
use skirmish_sim::report::TraceLine;
use skirmish_sim::scenario::Scenario;

/// A blow as the trace writes it.
#[derive(Debug)]
struct Blow {
    attacker: String,
    target: String,
    attack_total: i32,
    defense_total: i32,
    attack_roll: i32,
    defense_roll: Option<i32>,
    landed: bool,
    margin: i32,
    damage: i32,
    /// A FUDGE two-way exchange the target won: his damage to the attacker.
    counter: i32,
}

fn num(s: &str) -> i32 {
    s.trim_matches(|c: char| !(c.is_ascii_digit() || c == '-' || c == '+'))
        .parse()
        .unwrap_or_else(|_| panic!("not a number: {s:?}"))
}

/// "Cardiff (Sword, Two-Handed) strikes Orc #1: SR 9 +0 vs DR 3: hit (margin +6), damage 10"
/// "Roland (weapon) strikes Orc: 3 (+2 skill +1 roll) vs 1 (+1 skill +0 roll): hit by 2, damage 2"
fn parse(line: &TraceLine) -> Option<Blow> {
    let (who, rest) = line.text.split_once(" strikes ")?;
    let attacker = who.rsplit_once(" (").map_or(who, |(n, _)| n).to_string();
    let (target, what) = rest.split_once(": ")?;
    // ", damage 3" (a hit), or ", damage 3 to Will Scarlet" (the target's answer).
    let (damage, counter) = match what.rsplit_once(", damage ") {
        Some((_, d)) => match d.split_once(" to ") {
            Some((back, _)) => (0, num(back)),
            None => (num(d), 0),
        },
        None => (0, 0),
    };
    if let Some(fc) = what.strip_prefix("SR ") {
        // SR 9 +0 vs DR 3: hit (margin +6)
        let words: Vec<&str> = fc.split_whitespace().collect();
        let (sr, roll, dr) = (num(words[0]), num(words[1]), num(words[4]));
        let margin = num(fc.split("(margin ").nth(1)?.split(')').next()?);
        let outcome = fc.split(": ").nth(1)?;
        let landed = ["hit", "amazing strike", "guaranteed hit"]
            .iter()
            .any(|o| outcome.starts_with(o));
        return Some(Blow {
            attacker,
            target: target.to_string(),
            attack_total: sr + roll,
            defense_total: dr,
            attack_roll: roll,
            defense_roll: None,
            landed,
            margin,
            damage,
            counter,
        });
    }
    // FUDGE: "3 (+2 skill +1 roll) vs 1 (+1 skill +0 roll): hit by 2"
    let (attack, rest) = what.split_once(" (")?;
    let attack_roll = num(rest.split(" roll").next()?.rsplit(' ').next()?);
    let (_, defense_part) = rest.split_once(" vs ")?;
    let (defense, rest) = defense_part.split_once(" (")?;
    let defense_roll = num(rest.split(" roll").next()?.rsplit(' ').next()?);
    let (attack, defense) = (num(attack), num(defense));
    Some(Blow {
        attacker,
        target: target.to_string(),
        attack_total: attack,
        defense_total: defense,
        attack_roll,
        defense_roll: Some(defense_roll),
        landed: what.contains(": hit by "),
        margin: attack - defense,
        damage,
        counter,
    })
}

/// Fights battle 0 of `seed` with its trace, then strikes every blow again
/// in a tracker of the same scenario and compares; returns the blows checked.
fn replay(scenario: &Scenario, seed: u64) -> usize {
    let report = Battle::new(scenario).unwrap().run(seed, 0, &RunOptions::FULL).unwrap();
    let trace = report.trace.unwrap();
    let mut e: Encounter = encounter_from_scenario(scenario, seed).unwrap();
    let mut checked = 0;
    let mut tick = None;
    let mut fell_now: Vec<String> = Vec::new();
    for line in &trace {
        if tick != Some(line.tick) {
            // A new moment: the tracker's rolls take the penalties as they stand now.
            tick = Some(line.tick);
            fell_now.clear();
            e.next().unwrap();
        }
        if let Some(name) = line.text.strip_suffix(" falls") {
            assert!(
                fell_now.iter().any(|f| f == name),
                "{name} fell in the battle, not in the tracker"
            );
            continue;
        }
        let Some(blow) = parse(line) else { continue };
        let a = e.find(&blow.attacker).unwrap();
        let t = e.find(&blow.target).unwrap();
        let dice = StrikeDice {
            attack: Some(blow.attack_roll),
            defense: blow.defense_roll,
        };
        let r: StrikeReport = e
            .strike(a, t, EncounterStrikeOptions::default(), dice)
            .unwrap_or_else(|err| panic!("{}: {err}", line.text));
        let got = (
            r.attack_total,
            r.defense_total,
            r.landed,
            r.margin,
            r.damage,
            r.counter_damage,
        );
        let want = (
            blow.attack_total,
            blow.defense_total,
            blow.landed,
            blow.margin,
            blow.damage,
            blow.counter,
        );
        assert_eq!(got, want, "{} (seed {seed})", line.text);
        if r.went_down {
            fell_now.push(blow.target.clone());
        }
        if r.attacker_went_down {
            fell_now.push(blow.attacker.clone());
        }
        checked += 1;
    }
    checked
}

#[test]
fn the_goblin_ambush_blow_by_blow() {
    let ambush = Scenario::builtin("goblin-ambush").unwrap();
    let mut checked = 0;
    for seed in 1..=6 {
        checked += replay(&ambush, seed);
    }
    assert!(checked > 100, "{checked} blows");
}

#[test]
fn full_contact_options_and_damage_factors() {
    let scenario = Scenario::from_toml_str(
        r#"
        name = "duel"
        striking = { system = "full_contact", guaranteed = true, amazing = true, amazing_strike_damage = 2 }
        [[sides]]
        name = "red"
        groups = [{ name = "Red", strike_rating = 7, defense_rating = 6, offense = 1, toughness = 1 }]
        [[sides]]
        name = "blue"
        groups = [{ name = "Blue", strike_rating = 6, defense_rating = 5, armor = "chain", offense = 2 }]
        "#,
        "duel.toml",
    )
    .unwrap();
    let checked: usize = (1..=8).map(|seed| replay(&scenario, seed)).sum();
    assert!(checked > 20, "{checked} blows");
}

#[test]
fn fudge_opposed_duels() {
    let scenario = Scenario::from_toml_str(
        r#"
        name = "fudge duel"
        striking = "fudge-opposed"
        [[sides]]
        name = "Will"
        groups = [{ name = "Will Scarlet", skill = "Great", offense = 1, toughness = 1 }]
        [[sides]]
        name = "Dicken"
        groups = [{ name = "Dicken", skill = "Good", armor = "leather", offense = 2 }]
        "#,
        "duel.toml",
    )
    .unwrap();
    let checked: usize = (1..=8).map(|seed| replay(&scenario, seed)).sum();
    assert!(checked > 20, "{checked} blows");
    // Both ways the exchange goes, and the one-way strike, blow by blow.
    let (mut counters, mut one_way) = (0, 0);
    for seed in 1..=8 {
        let report = Battle::new(&scenario).unwrap().run(seed, 0, &RunOptions::FULL).unwrap();
        counters += report
            .trace
            .unwrap()
            .iter()
            .filter(|l| l.text.contains("the defender wins by"))
            .count();
    }
    assert!(counters > 0, "no defender won an exchange in 8 duels");
    let one = scenario.with_field("striking.exchange", "one_way").unwrap();
    for seed in 1..=8 {
        one_way += replay(&one, seed);
        let report = Battle::new(&one).unwrap().run(seed, 0, &RunOptions::FULL).unwrap();
        assert!(
            !report
                .trace
                .unwrap()
                .iter()
                .any(|l| l.text.contains("the defender wins by"))
        );
    }
    assert!(one_way > 20, "{one_way} one-way blows");
}
