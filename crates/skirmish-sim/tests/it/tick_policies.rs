//! The Tick System whole in battles (docs/rules.md §1.5, §5): a group's
//! own action ticks, defending as a free action that costs ticks and
//! pushes the next turn, and Prepare (+4 to the defense, the first defense
//! free, the held turn taken when struck at), read off a battle's trace
//! with the text's numbers; every formerly ignored Tick System option now
//! changes a battle, and is warned about where nothing reads it.

use skirmish_sim::battle::{Battle, RunOptions};
use skirmish_sim::report::TraceLine;
use skirmish_sim::scenario::Scenario;

/// Roland and an orc under the Tick System with a one-sided initiative die
/// (`1d1`: each initiative is 1 + its bonus, so Roland's is the text's 20);
/// nobody can hurt anybody (toughness 100), so the clock alone shows.
fn duel(orc: &str) -> Scenario {
    toml::from_str(&format!(
        r#"
        name = "tick duel"
        timing = {{ system = "tick_system", initiative_die = "1d1" }}
        [battle]
        max_rounds = 1
        [[sides]]
        name = "party"
        groups = [{{ name = "Roland", initiative_bonus = 19, interval = 6, action_ticks = 2, toughness = 100 }}]
        [[sides]]
        name = "orcs"
        groups = [{{ name = "Orc", toughness = 100, interval = 6, {orc} }}]
        "#
    ))
    .unwrap()
}

fn trace(scenario: &Scenario) -> Vec<(i64, String)> {
    let report = Battle::new(scenario).unwrap().run(7, 0, &RunOptions::FULL).unwrap();
    report
        .trace
        .unwrap()
        .into_iter()
        .map(|TraceLine { display, text, .. }| (display, text))
        .collect()
}

/// The lines said at countdown tick `at`.
fn at(lines: &[(i64, String)], tick: i64) -> Vec<&str> {
    lines
        .iter()
        .filter(|(d, _)| *d == tick)
        .map(|(_, t)| t.as_str())
        .collect()
}

/// The countdown ticks at which `who` strikes.
fn strikes(lines: &[(i64, String)], who: &str) -> Vec<i64> {
    let prefix = format!("{who} (weapon) strikes");
    lines
        .iter()
        .filter(|(_, t)| t.starts_with(&prefix))
        .map(|(d, _)| *d)
        .collect()
}

#[test]
fn act_on_tick_20_for_2_ticks_done_on_18_interval_6_next_turn_on_12() {
    // "If you take an action on Tick 20 that takes two ticks, you are done
    // on tick 18 ... If your Interval is 6 ... your next turn is on tick
    // 12" (done on 10, and so on). The 2 ticks are Roland's group's own.
    let lines = trace(&duel(r#"initiative_bonus = 0"#));
    assert_eq!(strikes(&lines, "Roland"), [18, 10, 2]);
    // A group's action ticks override the system's: 5 ticks, done on 15.
    let slow = duel(r#"initiative_bonus = 0"#)
        .with_field("sides.party.groups.Roland.action_ticks", "5")
        .unwrap();
    assert_eq!(strikes(&trace(&slow), "Roland"), [15, 4]);
}

#[test]
fn defending_as_a_free_action_pushes_the_turn_it_runs_into() {
    // The orc's turn is on 17; Roland's blow lands on 18 and the orc
    // defends for 2 ticks, to 16: "If a Free Action takes so long that it
    // actually interrupts your next Turn, your Turn is on the tick
    // immediately after" (the tick it is done on, docs/rules.md §1.5).
    let orc = r#"initiative_bonus = 16, defend = "free_action""#;
    let lines = trace(&duel(orc));
    assert_eq!(
        at(&lines, 18),
        [
            "Roland (weapon) strikes Orc: SR 5 -2 vs DR 3: miss (margin +0)",
            "Orc defends (2 ticks), pushing its next turn; next turn on 16"
        ]
    );
    assert_eq!(strikes(&lines, "Orc")[0], 14);
    // Defending takes no time by default: the orc acts on 17, done on 15.
    let untimed = trace(&duel("initiative_bonus = 16"));
    assert_eq!(strikes(&untimed, "Orc")[0], 15);
    assert!(!untimed.iter().any(|(_, t)| t.contains("defends")));
}

#[test]
fn defending_during_an_action_cancels_it_and_the_interval_counts_from_then() {
    // The orc began an action on 19 (done on 17); struck at on 18, it
    // defends: "If you defend yourself while you're doing something else,
    // the original action gets cancelled", and it waits its Interval of 6
    // from 18: next turn on 12, done on 10.
    let lines = trace(&duel(r#"initiative_bonus = 18, defend = "free_action""#));
    assert_eq!(
        at(&lines, 18)[1],
        "Orc defends (2 ticks), cancelling its action; next turn on 12"
    );
    assert_eq!(strikes(&lines, "Orc")[0], 10);
}

#[test]
fn a_prepared_fighter_defends_at_plus_4_its_first_defense_free_and_answers() {
    // The orc Prepares on 19 instead of attacking. Struck at on 18 it has
    // +4 to its defense (DR 3 + 4 = 7), "need not spend a Free Action to
    // defend" the first time, and takes its held turn then, "at [its]
    // leisure": done on 16.
    let lines = trace(&duel(
        r#"initiative_bonus = 18, defend = "free_action", prepare = true"#,
    ));
    assert_eq!(
        at(&lines, 18),
        [
            "Roland (weapon) strikes Orc: SR 5 -2 vs DR 7: miss (margin -4)",
            "Orc defends at no cost (prepared)",
            "Orc takes its held turn and attacks"
        ]
    );
    assert_eq!(strikes(&lines, "Orc")[0], 16);
    // Attacking ended its Prepare: struck at again on 10 (its next turn
    // begins on that very tick, so it prepares only after it), it defends
    // at DR 3 and pays 2 ticks.
    assert_eq!(
        at(&lines, 10),
        [
            "Roland (weapon) strikes Orc: SR 5 -1 vs DR 3: hit (margin +1), damage -99",
            "Orc takes damage -99: too little to wound; unhurt",
            "Orc defends (2 ticks)"
        ]
    );
}

#[test]
fn every_formerly_ignored_tick_system_option_changes_a_battle() {
    // free_action_ticks: a 3-tick defense pushes the orc's turn to 15.
    let orc = r#"initiative_bonus = 16, defend = "free_action""#;
    let base = trace(&duel(orc));
    let longer = trace(&duel(orc).with_field("timing.free_action_ticks", "3").unwrap());
    assert_ne!(base, longer);
    assert_eq!(
        at(&longer, 18)[1],
        "Orc defends (3 ticks), pushing its next turn; next turn on 15"
    );
    // prepare_defense_bonus: +1 instead of +4.
    let prepared = r#"initiative_bonus = 18, prepare = true"#;
    let one = trace(&duel(prepared).with_field("timing.prepare_defense_bonus", "1").unwrap());
    assert_eq!(
        at(&one, 18)[0],
        "Roland (weapon) strikes Orc: SR 5 -2 vs DR 4: miss (margin -1)"
    );
    assert_ne!(trace(&duel(prepared)), one);
    // And over whole battles: the goblin ambush under the Tick System ends
    // otherwise when everyone defends as a free action, or prepares.
    let ambush = Scenario::builtin("goblin-ambush")
        .unwrap()
        .with_field("timing", "tick-system")
        .unwrap();
    let results = |s: &Scenario| {
        let battle = Battle::new(s).unwrap();
        (0..40)
            .map(|i| battle.run(11, i, &RunOptions::default()).unwrap().summary)
            .collect::<Vec<_>>()
    };
    let plain = results(&ambush);
    let with = |field: &str, value: &str, sides: usize| {
        let mut s = ambush.clone();
        for side in 0..sides {
            for g in 0..s.sides[side].groups.len() {
                s = s
                    .with_field(&format!("sides.{side}.groups.{g}.{field}"), value)
                    .unwrap();
            }
        }
        s
    };
    let defending = with("defend", "\"free_action\"", 2);
    assert_ne!(results(&defending), plain);
    let longer = defending.with_field("timing.free_action_ticks", "4").unwrap();
    assert_ne!(results(&longer), results(&defending));
    // (The party only: two sides that only prepare never attack, and
    // the battle runs to its round limit.)
    let preparing = with("prepare", "true", 1);
    assert_ne!(results(&preparing), plain);
    let weaker = preparing.with_field("timing.prepare_defense_bonus", "0").unwrap();
    assert_ne!(results(&weaker), results(&preparing));
    let quick = with("action_ticks", "1", 2);
    assert_ne!(results(&quick), plain);
}

#[test]
fn tick_system_options_nothing_reads_are_warned_about() {
    let orc = r#"initiative_bonus = 16, defend = "free_action", prepare = true, action_ticks = 3"#;
    // Under another timing system the groups' fields are ignored.
    let continuous = duel(orc).with_field("timing", "continuous").unwrap();
    let ignored = |side: usize, field: &str, value: &str| {
        format!(
            "sides[{side}].groups[0].{field}: {value} has no effect under continuous timing (only the Tick System \
             reads it)"
        )
    };
    assert_eq!(
        continuous.warnings(),
        [
            ignored(0, "initiative_bonus", "19"),
            ignored(0, "interval", "6"),
            ignored(0, "action_ticks", "2"),
            ignored(1, "initiative_bonus", "16"),
            ignored(1, "interval", "6"),
            ignored(1, "action_ticks", "3"),
            ignored(1, "defend", "\"free_action\""),
            ignored(1, "prepare", "true"),
        ]
    );
    // Under the Tick System the options no group reads.
    let plain = duel("initiative_bonus = 16");
    assert!(plain.warnings().is_empty());
    let unread = plain
        .with_field("timing.free_action_ticks", "3")
        .unwrap()
        .with_field("timing.prepare_defense_bonus", "2")
        .unwrap()
        .with_field("timing.acquire_ticks", "5")
        .unwrap();
    assert_eq!(
        unread.warnings(),
        [
            "timing.free_action_ticks: 3 has no effect: no group defends as a free action (defend = \"free_action\")",
            "timing.prepare_defense_bonus: 2 has no effect: no group prepares (prepare = true)",
            "timing.acquire_ticks: 5 has no effect: no group shoots (Acquire is for ranged attacks: a group's `range`, \
             in a battle with a `distance`)",
        ]
    );
    // Read, they are not warned about (but Acquire's: nobody shoots in a
    // duel without a distance; `acquire.rs` has the battles that read it).
    let read = unread
        .with_field("sides.orcs.groups.Orc.defend", "\"free_action\"")
        .unwrap()
        .with_field("sides.orcs.groups.Orc.prepare", "true")
        .unwrap();
    assert_eq!(read.warnings().len(), 1);
    assert!(read.warnings()[0].starts_with("timing.acquire_ticks"));
}

#[test]
fn odds_from_here_play_the_policies_as_battles_do() {
    use skirmish_sim::odds::{encounter_from_scenario, odds_from_here};
    let ambush = Scenario::builtin("goblin-ambush")
        .unwrap()
        .with_field("timing", "tick-system")
        .unwrap();
    let mut careful = ambush.clone();
    for who in ["Roland", "Madoc", "Cardiff"] {
        careful = careful
            .with_field(&format!("sides.party.groups.{who}.prepare"), "true")
            .unwrap()
            .with_field(&format!("sides.party.groups.{who}.defend"), "\"free_action\"")
            .unwrap();
    }
    let odds = |s: &Scenario| {
        let e = encounter_from_scenario(s, 1).unwrap();
        format!("{:?}", odds_from_here(&e, 300, 5).unwrap())
    };
    assert_ne!(odds(&ambush), odds(&careful));
}

#[test]
fn an_unaware_fighter_does_not_defend_with_prepares_bonus() {
    // Prepare's +4 is a defensive bonus, and an unaware defender has none
    // (docs/rules.md §2.1.2): the orc, prepared but surprised, is struck
    // at its unaware DR 3, not 3 + 4.
    let lines = trace(&duel(r#"initiative_bonus = 18, prepare = true, unaware_for = 1000"#));
    let first = lines
        .iter()
        .map(|(_, t)| t.as_str())
        .find(|t| t.starts_with("Roland (weapon) strikes Orc"))
        .expect("Roland strikes the orc");
    assert!(first.contains("vs DR 3"), "{first}");
    // Aware, the same orc meets the blow at 7.
    let lines = trace(&duel(r#"initiative_bonus = 18, prepare = true"#));
    let first = lines
        .iter()
        .map(|(_, t)| t.as_str())
        .find(|t| t.starts_with("Roland (weapon) strikes Orc"))
        .expect("Roland strikes the orc");
    assert!(first.contains("vs DR 7"), "{first}");
}
