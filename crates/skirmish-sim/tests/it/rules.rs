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
