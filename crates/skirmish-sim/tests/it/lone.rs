//! FUDGE 4.34 in battles (docs/rules.md §2.2.6): a fighter in exchanges
//! with several foes at one moment rolls once against them all, is hurt
//! by every foe who beats him, and wounds one foe only if he beat or tied
//! every one; the sweeping blow and the well-armored fighter who
//! concentrates on one foe change what a lone hero is worth.

use skirmish_sim::battle::{Battle, RunOptions};
use skirmish_sim::report::Outcome;
use skirmish_sim::scenario::Scenario;

/// A hero against `goblins` Mediocre goblins under Simultaneous timing
/// (every fighter acts each round, so every round is the text's round),
/// with these FUDGE options and hero fields.
fn hero_against(goblins: u32, striking: &str, hero: &str) -> Scenario {
    Scenario::from_toml_str(
        &format!(
            r#"
        name = "a hero against goblins"
        timing = "simultaneous"
        striking = {striking}
        damage = "fudge-wounds"
        [battle]
        max_rounds = 200
        [[sides]]
        name = "hero"
        groups = [{{ name = "Hero", skill = "Great", weapon = "Sword, Long", offense = 1{hero} }}]
        [[sides]]
        name = "goblins"
        groups = [{{ name = "Goblin", count = {goblins}, skill = "Mediocre", weapon = "Spear" }}]
        "#
        ),
        "lone.rs",
    )
    .unwrap()
}

const TWO_WAY: &str = r#"{ system = "fudge_opposed" }"#;

/// The hero's share of `battles` battles won, with its 95% interval.
fn hero_wins(s: &Scenario, battles: u64) -> (f64, f64, f64) {
    let b = Battle::new(s).unwrap();
    let won = (0..battles)
        .filter(|&i| b.run(11, i, &RunOptions::default()).unwrap().summary.outcome == Outcome::Win { side: 0 })
        .count() as u64;
    let ci = skirmish_sim::stats::wilson(won, battles);
    (won as f64 / battles as f64, ci.0, ci.1)
}

/// The trace keeps the rule: within a moment, every exchange of a beset
/// hero shows one roll; his blows wait (no exchange line lands one), and
/// his line of the moment says what the one roll came to.
#[test]
fn a_beset_hero_rolls_once_and_strikes_after_the_exchanges() {
    let s = hero_against(3, TWO_WAY, "");
    let b = Battle::new(&s).unwrap();
    let mut lone_lines = 0;
    for seed in 1..=8 {
        let trace = b.run(seed, 0, &RunOptions::FULL).unwrap().trace.unwrap();
        let mut moment: Vec<&str> = Vec::new();
        let check = |lines: &[&str]| {
            // The hero's roll in each exchange line of the moment.
            let rolls: Vec<&str> = lines
                .iter()
                .filter(|l| l.contains("Hero fights"))
                .filter_map(|l| {
                    // "Hero (...) strikes X: A (...) vs D (...)": his part is
                    // the attack when he strikes, else the defense.
                    let (_, what) = l.split_once("): ")?;
                    let (attack, rest) = what.split_once(" vs ")?;
                    let mine = if l.starts_with("Hero ") { attack } else { rest };
                    mine.split([',', ')', '(']).find(|p| p.trim_end().ends_with(" roll"))
                })
                .map(|p| p.split_whitespace().rev().nth(1).unwrap_or(""))
                .collect();
            if let Some(first) = rolls.first() {
                assert!(
                    rolls.iter().all(|r| r == first),
                    "one roll a moment: {rolls:?} in {lines:#?}"
                );
            }
            for l in lines
                .iter()
                .filter(|l| l.starts_with("Hero (") && l.contains("Hero fights"))
            {
                assert!(
                    !l.contains(": hit by"),
                    "a beset hero's blow lands only after the moment: {l}"
                );
            }
        };
        for line in &trace {
            if line.text.starts_with('[') {
                check(&moment);
                moment.clear();
                continue;
            }
            if line.text.starts_with("Hero, one roll against") {
                lone_lines += 1;
                let n: usize = line.text.split_whitespace().nth(4).unwrap().parse().unwrap();
                assert!(n >= 2, "{}", line.text);
            }
            moment.push(&line.text);
        }
        check(&moment);
    }
    assert!(lone_lines >= 8, "{lone_lines} lone-fighter lines");
}

/// What the options are worth, 1,500 battles each, with 95% intervals (a
/// Great hero, sword +1, against Mediocre goblins). What the sweep shows,
/// pinned: the rule itself costs the hero dearly (he can no longer wound
/// one goblin while another beats him: about 49% against 79% with each
/// exchange on its own); a sweeping blow at -1 per extra foe costs him
/// more (every blow loses 2 against three, and FUDGE's scratches do not
/// fell goblins); concentrating on one goblin costs an unarmored hero
/// (the ignored ones hit unopposed against Poor) and stops costing once
/// his armor turns their blows (toughness 3).
#[test]
fn the_lone_fighters_options_change_who_wins() {
    let n = 1500;
    let plain = hero_wins(&hero_against(3, TWO_WAY, ""), n);
    let off = hero_wins(
        &hero_against(3, r#"{ system = "fudge_opposed", lone_fighter = false }"#, ""),
        n,
    );
    let sweeping = hero_wins(
        &hero_against(
            3,
            r#"{ system = "fudge_opposed", sweeping_blow = "minus_one_per_foe" }"#,
            "",
        ),
        n,
    );
    assert!(
        off.1 > plain.2,
        "each exchange on its own {off:?} against one roll {plain:?}"
    );
    assert!(
        sweeping.2 < plain.1,
        "a sweeping blow {sweeping:?} against one foe a round {plain:?}"
    );
    let armored = |toughness: u32, concentrate: bool| {
        hero_wins(
            &hero_against(
                4,
                TWO_WAY,
                &format!(", toughness = {toughness}, concentrate = {concentrate}"),
            ),
            n,
        )
    };
    let (light, light_concentrating) = (armored(1, false), armored(1, true));
    assert!(
        light_concentrating.2 < light.1,
        "unarmored, concentrating {light_concentrating:?} against fighting them all {light:?}"
    );
    let (plate, plate_concentrating) = (armored(3, false), armored(3, true));
    assert!(
        plate_concentrating.2 > plate.1,
        "in plate, concentrating {plate_concentrating:?} is no worse than fighting them all {plate:?}"
    );
}

/// The horde preset shows FUDGE 4.34 (its comments say how): knights beset
/// by goblins under FUDGE striking roll once against them all, and a
/// concentrating knight lets the others try his plate.
#[test]
fn the_horde_shows_the_lone_fighter() {
    let s = Scenario::builtin("horde")
        .unwrap()
        .with_field("striking", "fudge-opposed")
        .unwrap()
        .with_field("sides.goblins.groups.0.count", "40")
        .unwrap()
        .with_field("sides.knights.groups.0.count", "3")
        .unwrap();
    let lines = |s: &Scenario| -> Vec<String> {
        let r = Battle::new(s).unwrap().run(1, 0, &RunOptions::FULL).unwrap();
        r.trace.unwrap().into_iter().map(|l| l.text).collect()
    };
    let plain = lines(&s);
    assert!(
        plain
            .iter()
            .any(|l| l.starts_with("knights") && l.contains(", one roll against ")),
        "no beset knight"
    );
    let concentrating = lines(&s.with_field("sides.knights.groups.0.concentrate", "true").unwrap());
    assert!(
        concentrating.iter().any(|l| l.contains("unopposed (ignored)")),
        "no ignored goblin"
    );
}
