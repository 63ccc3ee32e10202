//! Distance, surprise and the rear in battles (docs/rules.md §5.1, §5.2):
//! the Full Contact archer's -3 and the heavy crossbow's TT 12 through a
//! battle trace, point-blank range, archers against infantry closing under
//! every timing system, surprise and blows from the rear, the scenario's
//! warnings and errors, and battles without a distance fought as before.

use proptest::prelude::*;
use skirmish_core::dice::SeededRolls;
use skirmish_sim::battle::{Battle, RunOptions, Workspace};
use skirmish_sim::report::{BattleReport, Outcome, TraceLine};
use skirmish_sim::scenario::Scenario;

const TIMINGS: [&str; 6] = [
    "simultaneous",
    "simple-rounds",
    "graduated-rounds",
    "continuous",
    "tick-system",
    "action-blocks",
];

fn scenario(toml: &str) -> Scenario {
    Scenario::from_toml_str(toml, "test.toml").unwrap()
}

fn traced(battle: &Battle, seed: u64, index: u64) -> BattleReport {
    battle.run(seed, index, &RunOptions::FULL).unwrap()
}

fn lines(report: &BattleReport) -> &[TraceLine] {
    report.trace.as_deref().unwrap()
}

/// The sniper of Full Contact's "Range Penalties" (SR 7, short bow Sh 150'
/// RS 50') and Madoc (DR 7, his Steel Pendant) 280' away, who holds (a
/// melee fighter with no foe in reach: he waits).
const SNIPER: &str = r#"
name = "sniper"
timing = "continuous"
striking = "full_contact"
distance = 280
battle = { max_actions = 40 }

[[sides]]
name = "guard"
[[sides.groups]]
name = "sniper"
strike_rating = 7
defense_rating = 5
weapon = "Bow, Short"
range = { short_range = 150, range_strength = 50 }

[[sides]]
name = "Madoc"
[[sides.groups]]
name = "Madoc"
defense_rating = 7
plan = "hold"
"#;

/// Full Contact, "Range Penalties": "since Madoc is 130' further
/// (50'+50'+30') when the arrow is let fly, the archer's SR to hit him is
/// reduced by 3 ... The shot rolls well, a +2, but at this range that's not
/// good enough". The battle whose first shot rolls the text's +2.
#[test]
fn the_archers_minus_three_at_280_feet_through_a_battle_trace() {
    let battle = Battle::new(&scenario(SNIPER)).unwrap();
    let text = "sniper (Bow, Short) shoots Madoc: at 280 ft, SR 7 -3 range = 4, +2 vs DR 7: miss (margin -1)";
    let found = (0..200).find_map(|i| {
        let report = traced(&battle, 1, i);
        let first = lines(&report)
            .iter()
            .find(|l| l.text.contains(" shoots "))?
            .text
            .clone();
        (first == text).then_some(report)
    });
    let report = found.expect("a battle whose first shot rolls +2");
    // Every shot is at the text's -3; Madoc, a melee fighter holding, waits.
    for line in lines(&report) {
        if line.text.contains(" shoots ") {
            assert!(line.text.contains("at 280 ft, SR 7 -3 range = 4,"), "{}", line.text);
        } else {
            assert!(
                line.text.starts_with("Madoc waits: no foe in reach (nearest 280 ft)"),
                "{}",
                line.text
            );
        }
    }
    // The same shot through the Full Contact striking of core.
    assert_eq!(report.summary.outcome, Outcome::Timeout);
}

/// Beyond the point where range takes the SR to 0, nothing can hit, not
/// even a guaranteed success: the sniper at 500' (SR 7 - 7) waits.
#[test]
fn out_of_reach_the_archer_waits_even_with_guaranteed_success() {
    let s = scenario(SNIPER)
        .with_field("distance", "500")
        .unwrap()
        .with_field("striking.guaranteed", "true")
        .unwrap();
    let report = traced(&Battle::new(&s).unwrap(), 1, 0);
    assert!(lines(&report).iter().all(|l| l.text.contains(" waits: ")));
    assert!(
        lines(&report)
            .iter()
            .any(|l| l.text == "sniper waits: no foe in reach (nearest 500 ft)")
    );
    assert_eq!(report.summary.hits, 0);
}

/// The Relativity weapon table's footnote: "In Continuous Combat, the TT
/// for Heavy Crossbows should probably be increased to at least 12". A
/// crossbowman's shots in a battle's trace come 12 + 2dF ticks apart
/// (10 to 14, never the table's 8 + 2dF), and under Simple Rounds the 1/2
/// rate of fire gives one shot every other round.
#[test]
fn the_heavy_crossbow_takes_twelve_ticks_under_continuous_in_a_battle_trace() {
    let s = scenario(SNIPER)
        .with_field("sides.guard.groups.sniper.weapon", "\"Crossbow, Heavy\"")
        .unwrap()
        .with_field("battle.max_actions", "400")
        .unwrap()
        .with_field("sides.Madoc.groups.Madoc.defense_rating", "30")
        .unwrap();
    let report = traced(&Battle::new(&s).unwrap(), 3, 0);
    let ticks: Vec<u64> = lines(&report)
        .iter()
        .filter(|l| l.text.starts_with("sniper (Crossbow, Heavy) shoots Madoc"))
        .map(|l| l.tick)
        .collect();
    assert!(ticks.len() > 20, "{ticks:?}");
    let gaps: Vec<u64> = ticks.windows(2).map(|w| w[1] - w[0]).collect();
    assert!(gaps.iter().all(|g| (10..=14).contains(g)), "{gaps:?}");
    assert!(gaps.iter().any(|&g| g > 10), "{gaps:?}");
    let mean = gaps.iter().sum::<u64>() as f64 / gaps.len() as f64;
    assert!((mean - 12.0).abs() < 1.0, "{mean}");

    // Simple Rounds: RoF 1/2, a shot every other round.
    let simple = s.with_field("timing", "simple-rounds").unwrap();
    let report = traced(&Battle::new(&simple).unwrap(), 3, 0);
    let rounds: Vec<u32> = lines(&report)
        .iter()
        .filter(|l| l.text.contains(" shoots "))
        .map(|l| l.round)
        .collect();
    assert!(rounds.len() > 5);
    assert!(rounds.windows(2).all(|w| w[1] - w[0] == 2), "{rounds:?}");
}

/// Optional point-blank range: +2 SR when the target is nearer than the
/// Range Strength, before the out-of-reach test; and the optional damage
/// bonus, on the same dice.
#[test]
fn point_blank_range_brings_a_shot_into_reach_and_adds_its_damage() {
    let base = scenario(SNIPER)
        .with_field("distance", "50")
        .unwrap()
        .with_field("sides.guard.groups.sniper.strike_rating", "1")
        .unwrap()
        .with_field(
            "sides.guard.groups.sniper.range",
            r#"{"short_range": 0, "range_strength": 100}"#,
        )
        .unwrap()
        .with_field("sides.Madoc.groups.Madoc.defense_rating", "-2")
        .unwrap();
    // Without the option: SR 1 - 1 = 0, out of reach.
    let report = traced(&Battle::new(&base).unwrap(), 1, 0);
    assert_eq!(report.summary.hits, 0);
    assert!(lines(&report).iter().any(|l| l.text.starts_with("sniper waits")));
    // With it: SR 1 - 1 + 2 = 2.
    let pb = base.with_field("striking.point_blank", "true").unwrap();
    let report = traced(&Battle::new(&pb).unwrap(), 1, 0);
    let shot = lines(&report).iter().find(|l| l.text.contains(" shoots ")).unwrap();
    assert!(
        shot.text.contains("at 50 ft, SR 1 -1 range +2 point-blank = 2,"),
        "{}",
        shot.text
    );
    // The damage bonus: every hit does 2 more on the same dice.
    let bonus = pb.with_field("striking.point_blank_damage", "2").unwrap();
    let with = traced(&Battle::new(&bonus).unwrap(), 1, 0);
    let damage = |r: &BattleReport| -> Vec<i32> {
        lines(r)
            .iter()
            .filter_map(|l| l.text.rsplit_once(", damage ").map(|(_, d)| d.parse().unwrap()))
            .collect()
    };
    let (plain, more) = (damage(&report), damage(&with));
    assert!(!plain.is_empty());
    let n = plain.len().min(more.len());
    assert!(n > 0);
    for (a, b) in plain[..n].iter().zip(&more[..n]) {
        assert_eq!(a + 2, *b);
    }
}

/// Archers against infantry closing from 200 yards (the `archers`
/// built-in) under every timing system: the battle ends, the archers
/// shoot before anyone strikes in melee, and the closing takes time (at
/// least the 19 moves of 30' that bring a soldier from 600' to his 5').
#[test]
fn archers_against_infantry_closing_from_200_yards_under_every_timing_system() {
    for timing in TIMINGS {
        let s = Scenario::builtin("archers")
            .unwrap()
            .with_field("timing", timing)
            .unwrap();
        let battle = Battle::new(&s).unwrap();
        assert!(
            !battle.has_fast_path(),
            "{timing}: a battle with a distance takes the general loop"
        );
        for i in 0..3 {
            let report = traced(&battle, 7, i);
            assert!(
                matches!(report.summary.outcome, Outcome::Win { .. } | Outcome::Draw),
                "{timing} battle {i}: {:?}",
                report.summary.outcome
            );
            let text = lines(&report);
            let first_shot = text.iter().position(|l| l.text.contains(" shoots ")).unwrap();
            let first_blow = text
                .iter()
                .position(|l| l.text.starts_with("soldier") && l.text.contains(" strikes "));
            if let Some(blow) = first_blow {
                assert!(first_shot < blow, "{timing}: the archers shoot first");
                let soldier = text[blow].text.split(" (").next().unwrap();
                let moves = text[..blow]
                    .iter()
                    .filter(|l| l.text.starts_with(&format!("{soldier} moves")))
                    .count();
                assert!(moves >= 19, "{timing}: {soldier} closed in {moves} moves");
                assert!(text[blow].tick > text[0].tick);
            }
            // Nobody shoots out of reach (SR 7 - 6 = 1 at 450').
            for l in text.iter().filter(|l| l.text.contains(" shoots ")) {
                let at: i64 = l
                    .text
                    .split("at ")
                    .nth(1)
                    .unwrap()
                    .split(" ft")
                    .next()
                    .unwrap()
                    .parse()
                    .unwrap();
                assert!(at <= 450, "{}", l.text);
            }
        }
    }
}

/// The same battle at melee distance (0): no moves, no range penalties.
#[test]
fn at_distance_zero_everyone_is_in_reach() {
    let s = Scenario::builtin("archers")
        .unwrap()
        .with_field("distance", "0")
        .unwrap();
    let report = traced(&Battle::new(&s).unwrap(), 7, 0);
    assert!(
        lines(&report)
            .iter()
            .all(|l| !l.text.contains(" moves ") && !l.text.contains(" waits"))
    );
    assert!(lines(&report).iter().any(|l| l.text.contains("at 0 ft, SR 7, ")));
}

/// A keep-distance archer steps back while a foe is within its keep
/// distance, and shoots otherwise.
#[test]
fn keeping_a_distance_steps_back() {
    let s = Scenario::builtin("archers")
        .unwrap()
        .with_field("sides.archers.groups.archer.plan", "\"keep_distance\"")
        .unwrap()
        .with_field("sides.archers.groups.archer.keep_at", "300")
        .unwrap()
        .with_field("sides.archers.groups.archer.move", "20")
        .unwrap();
    let report = traced(&Battle::new(&s).unwrap(), 7, 0);
    let text = lines(&report);
    let back = text.iter().find(|l| l.text.contains(" steps back 20 ft")).unwrap();
    let nearest: i64 = back
        .text
        .split("nearest foe ")
        .nth(1)
        .unwrap()
        .trim_end_matches(" ft)")
        .parse()
        .unwrap();
    assert!(nearest <= 320, "{}", back.text);
    assert!(text.iter().any(|l| l.text.contains(" shoots ")));
}

const AMBUSH: &str = r#"
name = "ambush"
timing = "simple-rounds"
striking = "full_contact"
battle = { max_rounds = 6 }

[[sides]]
name = "bandits"
[[sides.groups]]
name = "bandit"
count = 3
strike_rating = 6
defense_rating = 5

[[sides]]
name = "travellers"
[[sides.groups]]
name = "Brooklyn"
defense_rating = 6
armor = "Leather"
hit_points = 100
unaware_for = 2
"#;

/// Surprise: Brooklyn (DR 7, the text's usual; 4 surprised, "her Tumbling
/// skill and Agility bonus cannot be applied") is unaware in the first
/// two rounds, then aware.
#[test]
fn surprise_changes_the_first_moments() {
    let s = scenario(AMBUSH)
        .with_field("sides.travellers.groups.Brooklyn.unaware_defense_rating", "3")
        .unwrap()
        .with_field("damage", r#"{"model": "hit_points", "max_hp": 100}"#)
        .unwrap();
    let report = traced(&Battle::new(&s).unwrap(), 2, 0);
    let blows: Vec<&TraceLine> = lines(&report)
        .iter()
        .filter(|l| l.text.starts_with("bandit") && l.text.contains("strikes Brooklyn"))
        .collect();
    assert!(blows.iter().any(|l| l.round > 2));
    for l in &blows {
        if l.round <= 2 {
            assert!(l.text.contains("vs DR 4 (unaware)"), "{}", l.text);
        } else {
            assert!(l.text.contains("vs DR 7:"), "{}", l.text);
        }
    }
    // By default the unaware DR is the base 3 (with her leather, 4): the same.
    let default = scenario(AMBUSH)
        .with_field("damage", r#"{"model": "hit_points", "max_hp": 100}"#)
        .unwrap();
    let again = traced(&Battle::new(&default).unwrap(), 2, 0);
    assert_eq!(lines(&again), lines(&report));
    // Under FUDGE an unaware defender does not roll: the blow is unopposed.
    let fudge = default.with_field("striking", "fudge-opposed").unwrap();
    let report = traced(&Battle::new(&fudge).unwrap(), 2, 0);
    let first = lines(&report)
        .iter()
        .find(|l| l.text.contains("strikes Brooklyn"))
        .unwrap();
    assert!(first.text.contains("unopposed (unaware)"), "{}", first.text);
}

/// Blows from the rear (ours): with `battle.front = 1`, the bandits who
/// engage Brooklyn after the first strike her at her unaware DR.
#[test]
fn the_blows_of_attackers_beyond_the_front_come_from_the_rear() {
    let s = scenario(AMBUSH)
        .with_field("sides.travellers.groups.Brooklyn.unaware_for", "0")
        .unwrap()
        .with_field("battle.front", "1")
        .unwrap()
        .with_field("damage", r#"{"model": "hit_points", "max_hp": 100}"#)
        .unwrap();
    let battle = Battle::new(&s).unwrap();
    assert!(!battle.has_fast_path());
    let report = traced(&battle, 2, 0);
    let blows: Vec<&TraceLine> = lines(&report)
        .iter()
        .filter(|l| l.text.contains("strikes Brooklyn"))
        .collect();
    let rear = blows.iter().filter(|l| l.text.contains("(unaware)")).count();
    // Three bandits on one target with a front of one: two from the rear.
    assert!(rear > 0 && rear < blows.len(), "{rear} of {}", blows.len());
    let bandits_from_rear: std::collections::BTreeSet<&str> = blows
        .iter()
        .filter(|l| l.text.contains("(unaware)"))
        .map(|l| l.text.split(" (").next().unwrap())
        .collect();
    assert_eq!(bandits_from_rear.len(), 2, "{bandits_from_rear:?}");
}

#[test]
fn distance_errors_name_their_field_in_files_and_sweeps() {
    let bad = |toml: &str, field: &str| {
        let err = Scenario::from_toml_str(toml, "x.toml").unwrap_err().to_string();
        assert!(err.contains(field), "{err}");
    };
    bad(
        &SNIPER.replace("distance = 280", "distance = -5"),
        "distance: -5 is outside 0..=",
    );
    bad(
        &SNIPER.replace("range_strength = 50", "range_strength = 0"),
        "sides[0].groups[0].range",
    );
    bad(
        &SNIPER.replace("plan = \"hold\"", "plan = \"charge\""),
        "sides[1].groups[0].plan",
    );
    bad(
        &SNIPER.replace("plan = \"hold\"", "move = -10"),
        "sides[1].groups[0].move: -10 is outside",
    );
    bad(
        &SNIPER.replace("plan = \"hold\"", "keep_at = -1"),
        "sides[1].groups[0].keep_at",
    );
    bad(
        &SNIPER.replace("battle = { max_actions = 40 }", "battle = { front = 0 }"),
        "battle.front",
    );
    let three = format!("{SNIPER}\n[[sides]]\nname = \"third\"\n[[sides.groups]]\nname = \"x\"\n");
    bad(&three, "distance: a battle with a distance has exactly 2 sides");
    let s = scenario(SNIPER);
    for (path, value, field) in [
        ("distance", "-1", "distance"),
        ("sides.Madoc.groups.Madoc.plan", "\"run\"", "plan"),
        (
            "sides.guard.groups.sniper.range",
            r#"{"short_range": -1, "range_strength": 5}"#,
            "range",
        ),
        ("sides.guard.groups.sniper.melee_reach", "-3", "melee_reach"),
        ("striking.point_blank_damage", "5000", "striking.point_blank_damage"),
    ] {
        let err = s.with_field(path, value).unwrap_err().to_string();
        assert!(err.contains(field), "{path}: {err}");
    }
}

#[test]
fn distance_fields_the_rules_ignore_are_warned_about() {
    let no_distance = scenario(&SNIPER.replace("distance = 280\n", ""));
    let w = no_distance.warnings();
    assert!(
        w.iter().any(|w| w.starts_with(
            "sides[0].groups[0].range: { short_range = 150, range_strength = 50 } has no effect without a distance"
        )),
        "{w:?}"
    );
    assert!(
        w.iter()
            .any(|w| w.starts_with("sides[1].groups[0].plan: \"hold\" has no effect without a distance")),
        "{w:?}"
    );
    assert!(
        scenario(SNIPER).warnings().is_empty(),
        "{:?}",
        scenario(SNIPER).warnings()
    );
    let pb = no_distance.with_field("striking.point_blank", "true").unwrap();
    assert!(
        pb.warnings()
            .iter()
            .any(|w| w.starts_with("striking.point_blank: true has no effect"))
    );
    let dmg = scenario(SNIPER).with_field("striking.point_blank_damage", "1").unwrap();
    assert_eq!(
        dmg.warnings(),
        ["striking.point_blank_damage: 1 has no effect without striking.point_blank = true"]
    );
    // FUDGE 4.4: the sniper's range is read (its shots), and so is Madoc's
    // cover; a missile on Madoc, who does not shoot, is not.
    let fudge = scenario(SNIPER).with_field("striking", "fudge-opposed").unwrap();
    assert!(fudge.warnings().is_empty(), "{:?}", fudge.warnings());
    let fudge = fudge
        .with_field("sides.Madoc.groups.Madoc.cover", "2")
        .unwrap()
        .with_field("sides.Madoc.groups.Madoc.missile", r#"{"kind":"thrown"}"#)
        .unwrap();
    assert_eq!(
        fudge.warnings(),
        [
            r#"sides[1].groups[0].missile: {"kind":"thrown"} has no effect: the group does not shoot (a `range` in a battle with a distance)"#
        ]
    );
    // Under Full Contact both are FUDGE's alone; without a foe who shoots,
    // cover is not met.
    let fc = scenario(SNIPER)
        .with_field("sides.Madoc.groups.Madoc.cover", "2")
        .unwrap()
        .with_field("sides.guard.groups.sniper.missile", r#"{"kind":"thrown"}"#)
        .unwrap();
    let w = fc.warnings();
    assert!(
        w.iter()
            .any(|w| w.starts_with("sides[1].groups[0].cover: 2 has no effect: only fudge-opposed"))
            && w.iter()
                .any(|w| w.starts_with("sides[0].groups[0].missile: ") && w.contains("only fudge-opposed")),
        "{w:?}"
    );
    let unmet = scenario(SNIPER)
        .with_field("striking", "fudge-opposed")
        .unwrap()
        .with_field("sides.guard.groups.sniper.cover", "1")
        .unwrap()
        .with_field("sides.guard.groups.sniper.dodge", "Good")
        .unwrap();
    assert_eq!(
        unmet.warnings(),
        [
            "sides[0].groups[0].dodge: \"Good\" has no effect: no foe shoots (a group of another side with a `range`, in a battle with a distance)",
            "sides[0].groups[0].cover: 1 has no effect: no foe shoots (a group of another side with a `range`, in a battle with a distance)"
        ]
    );
    let keep = scenario(SNIPER)
        .with_field("sides.guard.groups.sniper.keep_at", "30")
        .unwrap();
    assert!(
        keep.warnings()
            .iter()
            .any(|w| w.starts_with("sides[0].groups[0].keep_at: 30"))
    );
    let unaware = scenario(SNIPER)
        .with_field("sides.Madoc.groups.Madoc.unaware_defense_rating", "3")
        .unwrap();
    assert!(
        unaware
            .warnings()
            .iter()
            .any(|w| w.contains("the group is never unaware"))
    );
}

/// A scenario written without a distance serializes as before: no new key.
#[test]
fn a_scenario_without_a_distance_writes_no_new_key() {
    for name in ["goblin-ambush", "parity", "shield-wall", "horde"] {
        let text = Scenario::builtin(name).unwrap().to_toml_string().unwrap();
        for key in ["distance", "range", "plan", "move", "point_blank", "unaware", "front"] {
            assert!(!text.contains(&format!("{key} =")), "{name}: {key}");
        }
    }
}

fn melee_scenario(timing: &str, striking: &str, counts: (u8, u8), ratings: (i8, i8), policy: &str) -> Scenario {
    scenario(&format!(
        r#"
name = "melee"
timing = "{timing}"
striking = "{striking}"
battle = {{ targeting = "{policy}", max_actions = 3000 }}
[[sides]]
name = "A"
[[sides.groups]]
name = "a"
count = {}
strike_rating = {}
defense_rating = 6
skill = "Good"
weapon = "Sword, Short"
[[sides]]
name = "B"
[[sides.groups]]
name = "b"
count = {}
strike_rating = 7
defense_rating = {}
weapon = "Spear"
"#,
        1 + counts.0 % 12,
        ratings.0 % 10,
        1 + counts.1 % 12,
        ratings.1 % 10,
    ))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Without a distance a battle is today's: the distance fields the
    /// rules then ignore change nothing, and the battle keeps its fast
    /// path (whose results the golden digests pin). At distance 0 every
    /// melee fighter is in reach from the start: the general loop with a
    /// distance fights exactly as the battle without one.
    #[test]
    fn battles_without_a_distance_are_todays(
        timing in 0..TIMINGS.len(),
        fudge in any::<bool>(),
        policy in prop::sample::select(&["random", "most_wounded", "least_engaged"][..]),
        counts in any::<(u8, u8)>(),
        ratings in any::<(i8, i8)>(),
        seed in any::<u64>(),
    ) {
        let striking = if fudge { "fudge-opposed" } else { "full-contact" };
        let plain = melee_scenario(TIMINGS[timing], striking, counts, ratings, policy);
        let ignored = plain
            .with_field("sides.A.groups.a.move", "25").unwrap()
            .with_field("sides.A.groups.a.plan", "\"keep_distance\"").unwrap()
            .with_field("sides.B.groups.b.melee_reach", "10").unwrap();
        let at_zero = plain.with_field("distance", "0").unwrap();
        let (p, i, z) = (Battle::new(&plain).unwrap(), Battle::new(&ignored).unwrap(), Battle::new(&at_zero).unwrap());
        prop_assert_eq!(p.has_fast_path(), i.has_fast_path());
        prop_assert!(!z.has_fast_path());
        let options = RunOptions { trace: false, casualties: true };
        let mut ws = Workspace::default();
        for index in 0..3 {
            let today = p.run_in(&mut ws, seed, index, &options).unwrap();
            prop_assert_eq!(&today, &i.run_in(&mut ws, seed, index, &options).unwrap());
            let general = z.run_with(&mut ws, &mut SeededRolls::for_stream(seed, index), &options, true).unwrap();
            prop_assert_eq!(&today, &general, "{} {} {}", TIMINGS[timing], striking, policy);
        }
    }
}
