//! FUDGE 4.4's ranged combat in battles (docs/rules.md §2.2.9, §5.1):
//! Will Scarlet and Dicken through a battle trace with the text's results
//! (the cases of `skirmish-core/tests/cases/fudge.toml`), every shot of
//! many battles checked against the rule it shows, the dodge and its
//! modifiers, the unaware target, cover and reach, the scenario's errors,
//! and the archers whose distance is worth battles.

use skirmish_core::ladder::Level;
use skirmish_sim::battle::{Battle, RunOptions};
use skirmish_sim::report::{BattleReport, Outcome};
use skirmish_sim::scenario::Scenario;

fn scenario(toml: &str) -> Scenario {
    Scenario::from_toml_str(toml, "ranged.rs").unwrap()
}

fn lines(report: &BattleReport) -> Vec<&str> {
    report
        .trace
        .as_deref()
        .unwrap()
        .iter()
        .map(|l| l.text.as_str())
        .collect()
}

/// Will Scarlet and Dicken (FUDGE 4.4): 180 feet apart ("fairly close":
/// Mediocre, one Range Strength past a longbow's Short range of 150'),
/// Dicken "in the open, in good light", Will "partially hidden behind a
/// log (cover), and just inside the foliage, so the lighting makes it
/// hard to see him": two levels of cover, so Dicken needs Good. Both
/// shoot at each other each exchange (Simultaneous timing). The text
/// gives results, not skills: Will is a Good archer, Dicken a Fair one.
const GREENWOOD: &str = r#"
name = "Will Scarlet and Dicken"
timing = "simultaneous"
striking = "fudge-opposed"
distance = 180
battle = { max_rounds = 1 }

[[sides]]
name = "greenwood"
[[sides.groups]]
name = "Will Scarlet"
skill = "Good"
weapon = "Bow, Long"
range = { short_range = 150, range_strength = 50 }
offense = 2
cover = 2

[[sides]]
name = "sheriff"
[[sides.groups]]
name = "Dicken"
skill = "Fair"
weapon = "Crossbow, Light"
range = { short_range = 150, range_strength = 50 }
offense = 2
"#;

/// One `[[exchange_fire]]` case of the core's FUDGE cases: each shooter's
/// result and Difficulty Level, and whether each shot hits.
struct FireCase {
    name: String,
    results: (Level, Level),
    difficulties: (Level, Level),
    hits: (bool, bool),
}

fn fire_cases() -> Vec<FireCase> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../skirmish-core/tests/cases/fudge.toml");
    let text = std::fs::read_to_string(path).unwrap();
    let doc: toml::Table = text.parse().unwrap();
    let level = |v: &toml::Value| v.as_str().unwrap().parse::<Level>().unwrap();
    doc["exchange_fire"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let side = |k: &str| (level(&c[k]["result"]), level(&c[k]["difficulty_level"]));
            let hit = |k: &str| c["expect"][k]["hit"].as_bool().unwrap();
            let (first, second) = (side("first"), side("second"));
            FireCase {
                name: c["name"].as_str().unwrap().to_owned(),
                results: (first.0, second.0),
                difficulties: (first.1, second.1),
                hits: (hit("first"), hit("second")),
            }
        })
        .collect()
}

/// FUDGE 4.4's example through a battle trace: the first battle whose
/// first exchange has the text's results. Neither dodges: each shoots
/// back, so each shot needs only its Difficulty Level (Will: Mediocre;
/// Dicken, against Will's cover and the foliage's light: Good). "Dicken
/// rolls a Fair result, missing Will. Will rolls a Mediocre result,
/// which hits Dicken, even though it wasn't as good a shot as Dicken's";
/// "had Dicken's shot hit, Will and Dicken would have skewered each
/// other": both hits land at the end of the exchange.
#[test]
fn will_scarlet_and_dicken_exchange_fire_through_a_battle_trace() {
    let battle = Battle::new(&scenario(GREENWOOD)).unwrap();
    let cases = fire_cases();
    assert_eq!(cases.len(), 2);
    for case in cases {
        assert_eq!(
            case.difficulties,
            (Level::MEDIOCRE, Level::GOOD),
            "{}: the scenario's distance and cover give the GM's levels",
            case.name
        );
        let will = format!(
            "Will Scarlet (Bow, Long) exchanges fire with Dicken: at 180 ft, DL Mediocre (Mediocre by distance): {} ",
            case.results.0
        );
        let dicken = format!(
            "Dicken (Crossbow, Light) exchanges fire with Will Scarlet: at 180 ft, DL Good (Mediocre by distance +2 \
             cover): {} ",
            case.results.1
        );
        let report = (0..2_000)
            .map(|i| battle.run(4, i, &RunOptions::FULL).unwrap())
            .find(|r| {
                let l = lines(r);
                l.len() >= 2 && l[0].starts_with(&will) && l[1].starts_with(&dicken)
            })
            .unwrap_or_else(|| panic!("{}: no battle rolls the text's results", case.name));
        let l = lines(&report);
        for (line, hit) in [(l[0], case.hits.0), (l[1], case.hits.1)] {
            assert!(line.contains("vs the Difficulty Level, shooting back: "), "{line}");
            if hit {
                // A result that just makes its Difficulty Level: a hit by 0,
                // its damage the offense (+2) alone.
                assert!(line.ends_with(": hit by 0, damage 2"), "{}: {line}", case.name);
            } else {
                assert!(line.ends_with(": miss"), "{}: {line}", case.name);
            }
        }
        let wounded: Vec<&str> = l.iter().copied().filter(|x| x.contains(" takes damage 2")).collect();
        let expected = usize::from(case.hits.0) + usize::from(case.hits.1);
        assert_eq!(wounded.len(), expected, "{}: {l:?}", case.name);
    }
}

/// The level a trace's words name.
fn level(words: &str) -> Level {
    words.parse().unwrap_or_else(|_| panic!("not a level: {words}"))
}

/// A shot's numbers as its trace line gives them: the Difficulty Level,
/// the result, the dodge's result (if it dodged), and whether it hit.
fn shot_numbers(line: &str) -> (Level, Level, Option<Level>, bool) {
    let dl = line.split(", DL ").nth(1).unwrap().split(" (").next().unwrap();
    let after = line.split(" by distance").nth(1).unwrap();
    let after = after.split_once("): ").unwrap().1;
    let result = after.split(" (").next().unwrap();
    let dodge = after
        .split(" vs dodge ")
        .nth(1)
        .map(|d| level(d.split(" (").next().unwrap()));
    (level(dl), level(result), dodge, line.contains(": hit by "))
}

/// Archers and swordsmen: the archers hold and shoot, the swordsmen close
/// 30 feet an action from `distance` feet and fight in melee.
fn archers(distance: u32, timing: &str, archer: &str, soldier: &str) -> Scenario {
    scenario(&format!(
        r#"
        name = "archers against infantry"
        timing = "{timing}"
        striking = "fudge-opposed"
        distance = {distance}
        battle = {{ max_rounds = 200 }}
        [[sides]]
        name = "archers"
        [[sides.groups]]
        name = "archer"
        count = 3
        skill = "Good"
        weapon = "Bow, Short"
        range = {{ short_range = 150, range_strength = 50 }}
        offense = 1
        {archer}
        [[sides]]
        name = "infantry"
        [[sides.groups]]
        name = "soldier"
        count = 3
        skill = "Good"
        weapon = "Sword, Short"
        move = 30
        offense = 1
        {soldier}
        "#
    ))
}

/// Every shot of many battles under every timing system shows the rule
/// it was resolved by: a hit iff the result reaches the Difficulty Level
/// and, against a dodge, beats it; the Difficulty Level is the
/// distance's; the propelled arrow takes 2 off the dodge.
#[test]
fn every_shot_follows_4_4_under_every_timing_system() {
    for timing in [
        "simultaneous",
        "simple-rounds",
        "graduated-rounds",
        "continuous",
        "tick-system",
        "action-blocks",
    ] {
        let battle = Battle::new(&archers(300, timing, "", "")).unwrap();
        let (mut shots, mut dodged, mut hits) = (0, 0, 0);
        for i in 0..40 {
            let report = battle.run(9, i, &RunOptions::FULL).unwrap();
            for line in lines(&report).into_iter().filter(|l| l.starts_with("archer ")) {
                if !line.contains(" shoots ") {
                    continue;
                }
                let (dl, result, dodge, hit) = shot_numbers(line);
                let distance: i64 = line
                    .split("at ")
                    .nth(1)
                    .unwrap()
                    .split(" ft")
                    .next()
                    .unwrap()
                    .parse()
                    .unwrap();
                let by_distance = skirmish_core::distance::difficulty_at(
                    skirmish_core::striking::full_contact::WeaponRange::new(150, 50).unwrap(),
                    distance,
                )
                .unwrap();
                assert_eq!(dl, by_distance, "{line}");
                assert_eq!(hit, result >= dl && dodge.is_none_or(|d| result > d), "{line}");
                assert!(line.contains(" -2 propelled missile "), "{line}");
                shots += 1;
                dodged += usize::from(dodge.is_some());
                hits += usize::from(hit);
            }
        }
        assert!(
            shots > 40 && dodged == shots && hits > 0 && hits < shots,
            "{timing}: {shots} {hits}"
        );
    }
}

/// The dodge's modifiers, the unaware target, cover and the missile.
#[test]
fn the_dodge_cover_and_surprise_change_the_shot() {
    // The soldiers hold: every shot is at 300 ft.
    let first_shot = |s: &Scenario| -> String {
        let s = s.with_field("sides.infantry.groups.soldier.plan", "hold").unwrap();
        let battle = Battle::new(&s).unwrap();
        let report = battle.run(3, 0, &RunOptions::FULL).unwrap();
        lines(&report)
            .into_iter()
            .find(|l| l.contains(" shoots "))
            .unwrap()
            .to_owned()
    };
    let plain = first_shot(&archers(300, "continuous", "", ""));
    assert!(plain.contains("at 300 ft, DL Good (Good by distance): "), "{plain}");
    assert!(plain.contains(" -2 propelled missile "), "{plain}");
    let thrown = first_shot(&archers(300, "continuous", r#"missile = { kind = "thrown" }"#, ""));
    assert!(
        !thrown.contains("propelled") && thrown.contains(" vs dodge "),
        "{thrown}"
    );
    let three = first_shot(&archers(
        300,
        "continuous",
        r#"missile = { kind = "propelled", dodge_penalty = 3 }"#,
        "",
    ));
    assert!(three.contains(" -3 propelled missile "), "{three}");
    // A trained medium shield: -1 to the shooter (4.31, "+1 to defense
    // against ranged attacks"); a small one is melee only.
    let medium = first_shot(&archers(300, "continuous", "", r#"shield = "medium""#));
    assert!(medium.contains("(+1 skill -1 foe's shield "), "{medium}");
    let small = first_shot(&archers(300, "continuous", "", r#"shield = "small""#));
    assert!(!small.contains("foe's shield"), "{small}");
    // Cover: two levels on the Difficulty Level.
    let covered = first_shot(&archers(300, "continuous", "", "cover = 2"));
    assert!(covered.contains("DL Superb (Good by distance +2 cover)"), "{covered}");
    // Unaware: no dodge, the Difficulty Level alone.
    let unaware = first_shot(&archers(300, "continuous", "", "unaware_for = 100"));
    assert!(unaware.contains(" vs the Difficulty Level (unaware): "), "{unaware}");
    // A dodge trait of their own: Poor, -2 for the arrow.
    let agile = first_shot(&archers(300, "continuous", "", r#"dodge = "Poor""#));
    assert!(
        agile.contains(" vs dodge ") && agile.contains("(-2 dodge -2 propelled missile "),
        "{agile}"
    );
    // The soldiers' rolls as NPCs: a dodge without a roll.
    let npc = first_shot(&archers(300, "continuous", "", "npc_result = true"));
    assert!(npc.contains(" no roll): "), "{npc}");
}

/// Reach: a Good archer (best result Good + 4 = Legendary+1) shoots while
/// the Difficulty Level is at most Legendary+1, 500 feet with a short
/// bow; beyond, or beyond what cover leaves, it waits.
#[test]
fn an_archer_shoots_only_while_a_roll_can_make_the_difficulty() {
    let holding = r#"plan = "hold""#;
    let first = |distance: u32, soldier: &str| -> String {
        let battle = Battle::new(&archers(distance, "continuous", "", &format!("{holding}\n{soldier}"))).unwrap();
        let report = battle
            .run(
                3,
                0,
                &RunOptions {
                    trace: true,
                    casualties: false,
                },
            )
            .unwrap();
        lines(&report)
            .into_iter()
            .find(|l| l.starts_with("archer "))
            .unwrap()
            .to_owned()
    };
    let at_500 = first(500, "");
    assert!(
        at_500.contains("shoots soldier") && at_500.contains("DL Legendary+1"),
        "{at_500}"
    );
    assert!(first(501, "").contains("waits: no foe in reach (nearest 501 ft)"));
    assert!(first(450, "cover = 1").contains("shoots"));
    assert!(first(451, "cover = 1").contains("waits"));
}

/// Reach under the GM's group roll (FUDGE 4.34): a side that rolls one
/// 2dF for all can hope for +2, not +4, so a Good archer (Good + 2 =
/// Superb) shoots while the Difficulty Level is at most Superb, 400 feet
/// with a short bow; at 401 feet it waits (it would have shot had it
/// counted a 4dF). Its shot then shows the group's roll.
#[test]
fn under_the_group_roll_an_archer_hopes_for_the_best_2df() {
    let first = |distance: u32| -> String {
        let s = archers(distance, "continuous", "", r#"plan = "hold""#)
            .with_field("striking.group_roll", "true")
            .unwrap();
        let report = Battle::new(&s).unwrap().run(3, 0, &RunOptions::FULL).unwrap();
        lines(&report)
            .into_iter()
            .find(|l| l.starts_with("archer "))
            .unwrap()
            .to_owned()
    };
    let at_400 = first(400);
    assert!(
        at_400.contains("shoots soldier") && at_400.contains("DL Superb"),
        "{at_400}"
    );
    assert!(
        first(401).contains("waits: no foe in reach (nearest 401 ft)"),
        "{}",
        first(401)
    );
}

/// Bad input is an error naming its field.
#[test]
fn ranged_errors_name_their_field() {
    let err = |archer: &str| {
        Scenario::from_toml_str(
            &format!(
                r#"
                name = "x"
                striking = "fudge-opposed"
                distance = 100
                [[sides]]
                name = "a"
                groups = [{{ name = "archer", range = {{ short_range = 150, range_strength = 50 }}, {archer} }}]
                [[sides]]
                name = "b"
                groups = [{{ name = "soldier" }}]
                "#
            ),
            "x.toml",
        )
        .unwrap_err()
        .to_string()
    };
    let e = err(r#"missile = { kind = "propelled", dodge_penalty = 4 }"#);
    assert!(e.contains("sides[0].groups[0].missile.dodge_penalty"), "{e}");
    let e = err(r#"missile = { kind = "sling" }"#);
    assert!(e.contains("sides[0].groups[0].missile"), "{e}");
    let e = err("cover = 5000");
    assert!(e.contains("sides[0].groups[0].cover"), "{e}");
    let e = err(r#"dodge = "Legendary+2000""#);
    assert!(e.contains("sides[0].groups[0].dodge"), "{e}");
}

/// Three Good archers (short bows) against three Great swordsmen in
/// leather with medium shields, who run 60 feet an action: in melee the
/// swordsmen win; the farther they start, the more arrows meet them.
const ARCHERS_AND_SWORDSMEN: &str = r#"
name = "archers against swordsmen"
timing = "continuous"
striking = "fudge-opposed"
distance = 5
battle = { max_rounds = 200 }

[[sides]]
name = "archers"
[[sides.groups]]
name = "archer"
count = 3
skill = "Good"
weapon = "Bow, Short"
range = { short_range = 150, range_strength = 50 }
offense = 1

[[sides]]
name = "swordsmen"
[[sides.groups]]
name = "swordsman"
count = 3
skill = "Great"
weapon = "Sword, Short"
move = 60
offense = 2
armor = "leather"
shield = "medium"
"#;

/// The archers' win rate, with its 95% interval, over `battles` battles.
fn archers_win(s: &Scenario, battles: u64) -> (f64, f64, f64) {
    let b = Battle::new(s).unwrap();
    let won = (0..battles)
        .filter(|&i| b.run(21, i, &RunOptions::default()).unwrap().summary.outcome == Outcome::Win { side: 0 })
        .count() as u64;
    let (lo, hi) = skirmish_sim::stats::wilson(won, battles);
    (won as f64 / battles as f64, lo, hi)
}

/// Distance is worth battles under FUDGE: the archers win more the
/// farther the swordsmen start, each step's 95% intervals apart (300
/// battles each; measured over 400: 0% at 5 feet, where every attack is
/// melee (FUDGE 4.1), 5.5% at 100, 45% at 200, 82% at 400).
#[test]
fn the_archers_win_more_the_farther_the_swordsmen_start() {
    let base = scenario(ARCHERS_AND_SWORDSMEN);
    let rates: Vec<(u32, (f64, f64, f64))> = [5, 100, 200, 400]
        .into_iter()
        .map(|d| {
            (
                d,
                archers_win(&base.with_field("distance", &d.to_string()).unwrap(), 300),
            )
        })
        .collect();
    assert!(rates[0].1.0 < 0.05 && rates[3].1.0 > 0.7, "{rates:?}");
    for w in rates.windows(2) {
        let ((d0, (p0, _, hi0)), (d1, (p1, lo1, _))) = (w[0], w[1]);
        assert!(p1 > p0 && lo1 > hi0, "{d0} ft: {p0}, {d1} ft: {p1}: {rates:?}");
    }
}

/// FUDGE 4.1: "Any attack from further away is a Ranged attack": within
/// the archers' melee reach (5 feet) their attacks are melee exchanges,
/// which the swordsmen may win and hurt them in; at 6 feet, with
/// `melee_reach = 5`, they shoot.
#[test]
fn within_melee_reach_a_shooter_fights_in_melee() {
    let attacks = |distance: u32| -> Vec<String> {
        let s = archers(distance, "simultaneous", "", r#"plan = "hold""#);
        let battle = Battle::new(&s).unwrap();
        (0..10)
            .flat_map(|i| {
                let report = battle.run(6, i, &RunOptions::FULL).unwrap();
                lines(&report)
                    .into_iter()
                    .filter(|l| l.starts_with("archer ") && l.contains(" (Bow, Short) "))
                    .map(str::to_owned)
                    .collect::<Vec<_>>()
            })
            .collect()
    };
    let melee = attacks(5);
    assert!(!melee.is_empty());
    assert!(
        melee
            .iter()
            .all(|l| l.contains(" strikes soldier") && !l.contains("DL ")),
        "{melee:?}"
    );
    assert!(melee.iter().any(|l| l.contains("the defender wins by")), "{melee:?}");
    let shots = attacks(6);
    assert!(
        shots
            .iter()
            .all(|l| l.contains(" shoots soldier") && l.contains("DL Poor")),
        "{shots:?}"
    );
}
