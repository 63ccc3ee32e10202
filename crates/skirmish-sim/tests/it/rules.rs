//! Rules decisions read off battle traces: FUDGE's multiple combatants and
//! group roll (4.34), and Full Contact's guaranteed hit.

use skirmish_sim::battle::{Battle, RunOptions};
use skirmish_sim::report::Outcome;
use skirmish_sim::scenario::Scenario;

/// Tucker against three pirates, all acting at the same instant.
fn pirates(group_roll: bool) -> Scenario {
    toml::from_str(&format!(
        r#"
        name = "pirates"
        timing = "simultaneous"
        striking = {{ system = "fudge_opposed", group_roll = {group_roll} }}
        damage = "fudge_wounds"
        [[sides]]
        name = "hero"
        groups = [{{ name = "Tucker", skill = "Superb", weapon = "Sword, Long", toughness = 3 }}]
        [[sides]]
        name = "pirates"
        groups = [{{ name = "Pirate", count = 3, skill = "Fair", weapon = "Club" }}]
        "#
    ))
    .unwrap()
}

/// The strike lines of battle `index`, by moment.
fn strike_lines(s: &Scenario, index: u64) -> Vec<Vec<String>> {
    let trace = Battle::new(s)
        .unwrap()
        .run(11, index, &RunOptions::FULL)
        .unwrap()
        .trace
        .unwrap();
    let mut moments: Vec<(u64, Vec<String>)> = Vec::new();
    for line in trace.into_iter().filter(|l| l.text.contains(" strikes ")) {
        if moments.last().is_none_or(|(t, _)| *t != line.tick) {
            moments.push((line.tick, Vec::new()));
        }
        moments.last_mut().unwrap().1.push(line.text);
    }
    moments.into_iter().map(|(_, v)| v).collect()
}

/// The roll shown in a strike line for the attacker (0) or defender (1).
fn roll(line: &str, which: usize) -> i32 {
    let parts: Vec<&str> = line.split(" roll").collect();
    let rolls: Vec<i32> = parts[..parts.len() - 1]
        .iter()
        .filter_map(|part| part.rsplit(' ').next()?.parse().ok())
        .collect();
    assert_eq!(rolls.len(), 2, "{line}");
    rolls[which]
}

#[test]
fn the_beset_fighter_is_at_minus_one_per_extra_foe_attacking_and_defending() {
    for index in 0..10 {
        let moments = strike_lines(&pirates(false), index);
        // The first moment: all three pirates engage Tucker at once, so he
        // is at -2 in every exchange of it, whatever the order of the dice.
        // Four blows, three exchanges: Tucker's blow and the blow of the
        // pirate he strikes are their one exchange of the round.
        let first = &moments[0];
        assert_eq!(first.len(), 3, "{first:?}");
        for line in first {
            if line.starts_with("Tucker") {
                assert!(line.contains("roll, -2 outnumbered) vs"), "{line}");
            } else {
                assert!(line.contains("strikes Tucker: "), "{line}");
                assert!(line.contains("roll, -2 outnumbered): "), "{line}");
                assert_eq!(line.matches("outnumbered").count(), 1, "{line}");
            }
        }
    }
}

#[test]
fn under_the_group_roll_the_group_shares_one_roll_and_the_lone_fighter_rolls_4df() {
    let mut lone_rolls = Vec::new();
    for index in 0..30 {
        for moment in strike_lines(&pirates(true), index) {
            let pirate_rolls: Vec<i32> = moment
                .iter()
                .filter(|l| l.starts_with("Pirate"))
                .map(|l| roll(l, 0))
                .chain(moment.iter().filter(|l| l.starts_with("Tucker")).map(|l| roll(l, 1)))
                .collect();
            // Under Simultaneous timing everyone standing acts every
            // exchange: two or more pirates striking are a group; one left
            // alone rolls its own 4dF.
            if moment.iter().filter(|l| l.starts_with("Pirate")).count() >= 2 {
                assert!(pirate_rolls.windows(2).all(|w| w[0] == w[1]), "{moment:?}");
                assert!(pirate_rolls.iter().all(|r| r.abs() <= 2), "2dF: {moment:?}");
            }
            lone_rolls.extend(moment.iter().filter(|l| l.starts_with("Tucker")).map(|l| roll(l, 0)));
        }
    }
    // Tucker's own 4dF: beyond +-2 now and then (1 roll in 9), and not the
    // pirates' shared roll.
    assert!(lone_rolls.len() > 100, "{}", lone_rolls.len());
    assert!(lone_rolls.iter().any(|r| r.abs() >= 3), "{lone_rolls:?}");
}

#[test]
fn a_guaranteed_hit_does_damage() {
    // Neither can hit the other but by a +4 under the guaranteed-success
    // rule (SR 2 + 3 < DR 9); one such hit fells (1 hit point).
    let s: Scenario = toml::from_str(
        r#"
        name = "impossible"
        timing = "continuous"
        striking = { system = "full_contact", guaranteed = true }
        damage = { model = "hit_points", max_hp = 1 }
        battle = { max_ticks = 100000 }
        [[sides]]
        name = "A"
        groups = [{ name = "Ann", strike_rating = 2, defense_rating = 9 }]
        [[sides]]
        name = "B"
        groups = [{ name = "Bob", strike_rating = 2, defense_rating = 9 }]
        "#,
    )
    .unwrap();
    let b = Battle::new(&s).unwrap();
    for index in 0..20 {
        let r = b.run(3, index, &RunOptions::FULL).unwrap();
        assert!(
            matches!(r.summary.outcome, Outcome::Win { .. } | Outcome::Draw),
            "battle {index}: {:?}",
            r.summary
        );
        let hits: Vec<_> = r
            .trace
            .unwrap()
            .into_iter()
            .filter(|l| l.text.contains("guaranteed hit"))
            .collect();
        assert!(!hits.is_empty(), "battle {index}");
        for l in hits {
            assert!(l.text.ends_with("damage 1"), "{}", l.text);
        }
    }
}

/// A FUDGE duel under `timing`, with the exchange rule `exchange`.
fn duel(timing: &str, exchange: &str) -> Scenario {
    toml::from_str(&format!(
        r#"
        name = "duel"
        timing = "{timing}"
        striking = {{ system = "fudge_opposed", exchange = "{exchange}" }}
        [[sides]]
        name = "Will"
        groups = [{{ name = "Will", skill = "Good", weapon = "Sword, Long" }}]
        [[sides]]
        name = "Dicken"
        groups = [{{ name = "Dicken", skill = "Good", weapon = "Sword, Long" }}]
        "#
    ))
    .unwrap()
}

/// docs/rules.md §2.2.2: under the round systems two fighters exchange
/// blows once (the second blow of a mutual pair is that exchange, and
/// nobody rolls again); under the tick-based systems every blow is an
/// exchange; the defender who wins hurts the striker, and with
/// `exchange = "one_way"` never.
#[test]
fn exchanges_count_by_round_only_under_the_round_systems() {
    for timing in skirmish_core::timing::TimingSystem::NAMES {
        let lines = |exchange: &str| -> Vec<String> {
            let s = duel(timing, exchange);
            (0..20)
                .flat_map(|i| {
                    Battle::new(&s)
                        .unwrap()
                        .run(3, i, &RunOptions::FULL)
                        .unwrap()
                        .trace
                        .unwrap()
                })
                .map(|l| l.text)
                .collect()
        };
        let two = lines("two_way");
        let once = two
            .iter()
            .filter(|l| l.contains("have exchanged blows this round"))
            .count();
        let countered = two.iter().filter(|l| l.contains("the defender wins by")).count();
        let by_round = matches!(timing, "simultaneous" | "simple-rounds" | "graduated-rounds");
        assert_eq!(once > 0, by_round, "{timing}: {once} blows already exchanged");
        assert!(countered > 0, "{timing}: no defender won an exchange");
        let one = lines("one_way");
        assert!(
            !one.iter()
                .any(|l| l.contains("the defender wins by") || l.contains("exchanged blows")),
            "{timing}"
        );
    }
}

/// FUDGE 4.31's stances in battles: the stance's bonus shows in the trace
/// and counts in the result; all-out offense changes who wins a duel of
/// equals; all-out defense never wounds (without critical results, which
/// the engine does not judge); a stance under Full Contact is warned about.
#[test]
fn stances_fight_as_4_31_writes_them() {
    let duel = |a: &str, b: &str| -> Scenario {
        duel("continuous", "two_way")
            .with_field("sides.0.groups.0.stance", a)
            .unwrap()
            .with_field("sides.1.groups.0.stance", b)
            .unwrap()
    };
    let wins_of_a = |s: &Scenario| {
        let b = Battle::new(s).unwrap();
        (0..400)
            .filter(|&i| b.run(5, i, &RunOptions::default()).unwrap().summary.outcome == Outcome::Win { side: 0 })
            .count()
    };
    let even = wins_of_a(&duel("normal", "normal"));
    let berserk = wins_of_a(&duel("all_out_offense", "normal"));
    assert!((150..=250).contains(&even), "{even} of 400 between equals");
    assert_ne!(berserk, even, "all-out offense changed nothing");
    // All-out defense: A never wounds B, so A never wins.
    let turtle = duel("all_out_defense", "normal");
    assert_eq!(wins_of_a(&turtle), 0);
    let trace = Battle::new(&turtle)
        .unwrap()
        .run(5, 0, &RunOptions::FULL)
        .unwrap()
        .trace
        .unwrap();
    assert!(trace.iter().any(|l| l.text.contains("+2 all-out defense")), "{trace:?}");
    // Under Full Contact the stance is read by nobody, and said so.
    let fc = duel("all_out_offense", "normal")
        .with_field("striking", "full-contact")
        .unwrap();
    assert_eq!(
        fc.warnings(),
        [
            "sides[0].groups[0].stance: all_out_offense has no effect under full-contact striking (only fudge-opposed \
          striking reads it)"
        ]
    );
}

/// FUDGE 4.31-4.34's other options in battles, each shown in the trace and
/// counted in the result: a shield takes its value off the foe's result
/// and a large one costs its carrier 2; aiming is -1 and needs Good;
/// a worse position is -1 or -2; a bigger Scale adds to both damage
/// factors and needs more to hit the smaller foe, who hits it with
/// anything; an NPC never rolls (4.33); the multi-foe penalty is a number
/// per foe. Each is warned about under Full Contact, and a bad value is an
/// error that names the field.
#[test]
fn shields_aim_position_scale_and_npcs_fight_as_the_chapter_writes_them() {
    let set = |s: Scenario, path: &str, value: &str| s.with_field(path, value).unwrap();
    let trace_of = |s: &Scenario| -> Vec<String> {
        let b = Battle::new(s).unwrap();
        (0..10)
            .flat_map(|i| b.run(5, i, &RunOptions::FULL).unwrap().trace.unwrap())
            .map(|l| l.text)
            .collect()
    };
    let shows = |s: &Scenario, words: &str| {
        let t = trace_of(s);
        assert!(t.iter().any(|l| l.contains(words)), "{words}: {t:?}");
    };
    let base = duel("continuous", "two_way");
    let large = set(base.clone(), "sides.0.groups.0.shield", "large");
    shows(&large, "-2 own large shield");
    shows(&large, "-2 foe's shield");
    shows(
        &set(
            base.clone(),
            "sides.1.groups.0.shield",
            r#"{"size": "medium", "trained": false}"#,
        ),
        "Dicken",
    );
    let untrained = trace_of(&set(
        base.clone(),
        "sides.1.groups.0.shield",
        r#"{"size": "medium", "trained": false}"#,
    ));
    assert!(!untrained.iter().any(|l| l.contains("shield")), "{untrained:?}");
    shows(
        &set(base.clone(), "sides.0.groups.0.aim", "small_part_needing_great"),
        "-1 aiming",
    );
    shows(
        &set(base.clone(), "sides.1.groups.0.position", "much_worse"),
        "-2 position",
    );
    let npc = set(base.clone(), "sides.1.groups.0.npc_result", "true");
    shows(&npc, "no roll");
    // The NPC's result is its skill (and wounds) in every exchange: one
    // side rolls, the other never.
    for line in trace_of(&npc).iter().filter(|l| l.contains(" vs ")) {
        assert_eq!(line.matches("no roll").count(), 1, "{line}");
        assert_eq!(line.matches(" roll").count(), 2, "{line}");
    }
    // A giant of Scale 4 against Will: Will hits it with any result, it
    // needs Fair to hit Will, and its damage counts its Scale both ways.
    let giant = set(base.clone(), "sides.1.groups.0.scale", "4");
    // (attacker, its result, the defender's result, how it ended)
    let results = |l: &str| -> Option<(String, i32, i32, String)> {
        let (who, rest) = l.split_once(" (Sword, Long) strikes ")?;
        let (_, rest) = rest.split_once(": ")?;
        let (a, rest) = rest.split_once(" (")?;
        let (_, rest) = rest.split_once(" vs ")?;
        let (d, _) = rest.split_once(" (")?;
        let end = l.rsplit_once("): ")?.1;
        Some((who.to_string(), a.parse().ok()?, d.parse().ok()?, end.to_string()))
    };
    let t: Vec<_> = trace_of(&giant).iter().filter_map(|l| results(l)).collect();
    // The giant won with less than Fair (0): no hit.
    assert!(
        t.iter()
            .any(|(who, a, d, end)| who == "Dicken" && a > d && *a < 0 && end == "no hit"),
        "{t:?}"
    );
    // Will hits it with a Terrible (-3) or worse result, if he wins.
    assert!(
        !t.iter()
            .any(|(who, a, d, end)| who == "Will" && a > d && end == "no hit"),
        "{t:?}"
    );
    let wins = |s: &Scenario| {
        let b = Battle::new(s).unwrap();
        (0..300)
            .filter(|&i| b.run(9, i, &RunOptions::default()).unwrap().summary.outcome == Outcome::Win { side: 1 })
            .count()
    };
    assert!(
        wins(&giant) > wins(&base) + 60,
        "Scale 4 barely helped: {} vs {}",
        wins(&giant),
        wins(&base)
    );
    // Per foe: two on one, the lone fighter at -2 for the second foe.
    let two_on_one = set(
        set(base.clone(), "sides.1.groups.0.count", "2"),
        "striking.multi_foe_penalty",
        "2",
    );
    shows(&two_on_one, "-2 outnumbered");
    // Under Full Contact nobody reads them, and the warnings say so.
    let fc = set(
        set(
            set(large, "sides.0.groups.0.scale", "2"),
            "sides.0.groups.0.npc_result",
            "true",
        ),
        "striking",
        "full-contact",
    );
    assert_eq!(
        fc.warnings(),
        [
            "sides[0].groups[0].shield: large has no effect under full-contact striking (only fudge-opposed striking \
             reads it)",
            "sides[0].groups[0].scale: 2 has no effect under full-contact striking (only fudge-opposed striking reads \
             it)",
            "sides[0].groups[0].npc_result: true has no effect under full-contact striking (only fudge-opposed \
             striking reads it)",
        ]
    );
    // Bad values name their field.
    for (path, value, words) in [
        (
            "sides.0.groups.0.scale",
            "101",
            "sides[0].groups[0].scale: 101 is outside -100..=100",
        ),
        ("sides.0.groups.0.shield", "huge", "sides[0].groups[0].shield"),
        ("sides.0.groups.0.aim", "eye", "sides[0].groups[0].aim"),
        ("sides.0.groups.0.position", "uphill", "sides[0].groups[0].position"),
        (
            "striking.multi_foe_penalty",
            "11",
            "striking.multi_foe_penalty: 11 is outside 0..=10",
        ),
        ("striking.multi_foe_penalty", "-1", "striking.multi_foe_penalty"),
    ] {
        let err = match base.clone().with_field(path, value) {
            Err(e) => e.to_string(),
            Ok(s) => Battle::new(&s).map(|_| ()).unwrap_err().to_string(),
        };
        assert!(err.contains(words), "{path} = {value}: {err}");
    }
}

/// FUDGE 4.32's postures in battles: a fixed posture counts in every
/// exchange (its offense modifier on offense, the opposite on defense, and
/// both fighters may hit); a mixed strategy draws each exchange's posture
/// from the battle's dice; postures and stances do not go together; bad
/// probabilities are refused naming the field.
#[test]
fn postures_fight_as_4_32_writes_them() {
    let set = |s: Scenario, path: &str, value: &str| s.with_field(path, value).unwrap();
    let lines = |s: &Scenario| -> Vec<String> {
        let b = Battle::new(s).unwrap();
        (0..20)
            .flat_map(|i| b.run(5, i, &RunOptions::FULL).unwrap().trace.unwrap())
            .map(|l| l.text)
            .collect()
    };
    let base = duel("continuous", "two_way");
    let attacking = set(base.clone(), "sides.0.groups.0.posture", "2");
    let t = lines(&attacking);
    // Will's +2 on offense, -2 on defense.
    assert!(
        t.iter()
            .any(|l| l.starts_with("Will") && l.contains("roll +2 posture) vs")),
        "{t:?}"
    );
    assert!(
        t.iter()
            .any(|l| l.starts_with("Dicken") && l.contains("roll -2 posture): ")),
        "{t:?}"
    );
    // Both hit in one exchange, sometimes.
    assert!(t.iter().any(|l| l.contains("and the defender hits back by")), "{t:?}");
    // A mixed strategy: each exchange its own posture, the same for the
    // same seed.
    let mixed = set(base.clone(), "sides.0.groups.0.posture", r#"{"2": 0.5, "-2": 0.5}"#);
    let t = lines(&mixed);
    assert!(
        t.iter().any(|l| l.starts_with("Will") && l.contains("+2 posture)")),
        "{t:?}"
    );
    assert!(
        t.iter().any(|l| l.starts_with("Will") && l.contains("-2 posture)")),
        "{t:?}"
    );
    assert_eq!(t, lines(&mixed));
    // Which posture wins? Will's +2 against a normal Dicken, over 2,000.
    let wins = |s: &Scenario| {
        let b = Battle::new(s).unwrap();
        (0..2000)
            .filter(|&i| b.run(9, i, &RunOptions::default()).unwrap().summary.outcome == Outcome::Win { side: 0 })
            .count()
    };
    let (even, bold) = (wins(&base), wins(&attacking));
    assert!((800..=1200).contains(&even), "{even}");
    assert_ne!(even, bold);
    // Refusals name the field.
    for (path, value, words) in [
        ("sides.0.groups.0.posture", "3", "sides[0].groups[0].posture"),
        ("sides.0.groups.0.posture", r#"{"2": 0.5}"#, "sum to 0.5, not 1"),
        (
            "sides.0.groups.0.posture",
            r#"{"2": 1.5, "0": -0.5}"#,
            "not within 0..=1",
        ),
        ("sides.0.groups.0.posture", r#"{"4": 1.0}"#, "not a posture"),
    ] {
        let err = base.clone().with_field(path, value).unwrap_err().to_string();
        assert!(err.contains(words), "{path} = {value}: {err}");
    }
    let err = set(base.clone(), "sides.0.groups.0.stance", "all_out_offense")
        .with_field("sides.0.groups.0.posture", "1")
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("sides[0].groups[0].posture: postures (FUDGE 4.32) replace the all-out stances"),
        "{err}"
    );
    // Under Full Contact, warned about.
    let fc = set(attacking, "striking", "full-contact");
    assert_eq!(
        fc.warnings(),
        [
            "sides[0].groups[0].posture: 2 has no effect under full-contact striking (only fudge-opposed striking reads it)"
        ]
    );
}

/// The designer's question "stance, shield or posture?", as a sweep: Will
/// (Good, long sword) with every stance and every posture (fixed, and a
/// mixed strategy) against every shield he might carry, Dicken (the same
/// swordsman, no shield) unchanged; 1,000 duels a cell, each with its 95%
/// interval. What the chapter's numbers say, and the sweep must show: a
/// small or medium shield is +1 to him (-1 to the foe) and wins clearly; a
/// large one costs him the 2 it takes off the foe in single combat, so the
/// duel stays even; all-out defense never wins; all-out offense pays.
#[test]
fn stance_shield_and_posture_sweep_answers_the_designer() {
    use skirmish_sim::sweep::{Axis, SweepOptions, SweepSpec, sweep};
    let run = |axes: Vec<Axis>| {
        let spec = SweepSpec {
            scenario: duel("continuous", "two_way"),
            axes,
            battles: 1000,
            seed: 2026,
        };
        sweep(&spec, &SweepOptions::default()).unwrap()
    };
    let shields = ["null", "\"small\"", "\"medium\"", "\"large\""];
    let stances = run(vec![
        Axis::new("sides.Will.groups.0.shield", shields),
        Axis::new(
            "sides.Will.groups.0.stance",
            ["normal", "all_out_offense", "all_out_defense"],
        ),
    ]);
    let postures = run(vec![
        Axis::new("sides.Will.groups.0.shield", shields),
        Axis::new(
            "sides.Will.groups.0.posture",
            ["-2", "-1", "0", "1", "2", r#"{"2": 0.5, "-2": 0.5}"#],
        ),
    ]);
    // (win rate, low, high) of Will in the cell with these values.
    let will = |table: &skirmish_sim::sweep::SweepTable, values: [&str; 2]| {
        let cell = table.cells().iter().find(|c| c.values == values).unwrap();
        let (low, high) = cell.stats.win_interval(0);
        (cell.stats.win_rate(0), low, high)
    };
    let even = will(&stances, ["null", "normal"]);
    assert!(even.1 < 0.5 && 0.5 < even.2, "equals are even: {even:?}");
    for shield in ["\"small\"", "\"medium\""] {
        let with = will(&stances, [shield, "normal"]);
        assert!(with.1 > even.2 + 0.2, "{shield}: {with:?} against {even:?}");
    }
    let large = will(&stances, ["\"large\"", "normal"]);
    assert!(
        large.1 < 0.5 && 0.5 < large.2,
        "a large shield in single combat: {large:?}"
    );
    for shield in shields {
        assert_eq!(will(&stances, [shield, "all_out_defense"]).0, 0.0, "{shield}");
        let berserk = will(&stances, [shield, "all_out_offense"]);
        let normal = will(&stances, [shield, "normal"]);
        assert!(
            berserk.1 > normal.2,
            "{shield}: all-out offense {berserk:?} against {normal:?}"
        );
    }
    // Postures between equals without shields: none is far from even.
    for posture in ["-2", "-1", "0", "1", "2", r#"{"2": 0.5, "-2": 0.5}"#] {
        let p = will(&postures, ["null", posture]);
        assert!(p.1 < 0.56 && p.2 > 0.44, "posture {posture}: {p:?}");
    }
    // Behind a small shield, caution pays: -2 wins more than +2.
    let (careful, bold) = (
        will(&postures, ["\"small\"", "-2"]),
        will(&postures, ["\"small\"", "2"]),
    );
    assert!(careful.1 > bold.2, "{careful:?} against {bold:?}");
}
