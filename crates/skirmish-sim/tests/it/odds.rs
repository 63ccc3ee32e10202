//! Odds from here: a live encounter's battle fought on many times, and an
//! encounter started from a scenario.

use proptest::prelude::*;
use skirmish_core::damage::{DamageState, HitPointState};
use skirmish_core::fighter::Striking;
use skirmish_core::timing::{Declaration, TimingSystem};
use skirmish_core::tracker::{
    CombatantId, CombatantSpec, Encounter, EncounterStrikeOptions, ErrorKind, StrikeDice, Turn, WoundOverride,
};
use skirmish_sim::SimError;
use skirmish_sim::battle::{Battle, Workspace};
use skirmish_sim::odds::{
    MAX_BATTLES, OddsFromHere, continuation_summaries, encounter_from_scenario, odds_from_continuation,
    odds_from_here_with,
};
use skirmish_sim::report::Outcome;
use skirmish_sim::scenario::Scenario;

fn ambush() -> Scenario {
    Scenario::builtin("goblin-ambush").unwrap()
}

/// The ambush with the two goblins as one group of three and the orcs as
/// one group of two: lines of several members.
fn ambush_with_groups() -> Scenario {
    let s = ambush();
    let mut s = s
        .with_field("sides.goblinoids.groups.Goblin #1.count", "3")
        .unwrap()
        .with_field("sides.goblinoids.groups.Orc #1.count", "2")
        .unwrap();
    // Drop the second orc and goblin (now members of the groups above).
    s.sides[1]
        .groups
        .retain(|g| g.name != "Orc #2" && g.name != "Goblin #2");
    s
}

/// The sampler's odds from here: these tests are about sampled
/// continuations (the exact ones are `exact_from_here.rs`'s), so they ask
/// for sampling by name whatever the exact engine now models.
fn odds_from_here(e: &Encounter, battles: u64, seed: u64) -> Result<OddsFromHere, SimError> {
    odds_from_here_with(e, battles, seed, None)
}

/// Wins per side, draws, timeouts of the battle engine's battles 0..n of `seed`.
fn engine_tally(scenario: &Scenario, n: u64, seed: u64) -> (Vec<u64>, u64, u64) {
    let battle = Battle::new(scenario).unwrap();
    let mut ws = Workspace::default();
    let mut wins = vec![0; scenario.sides.len()];
    let (mut draws, mut timeouts) = (0, 0);
    for i in 0..n {
        match battle.run_summary(&mut ws, seed, i).unwrap().outcome {
            Outcome::Win { side } => wins[side] += 1,
            Outcome::Draw => draws += 1,
            Outcome::Timeout => timeouts += 1,
        }
    }
    (wins, draws, timeouts)
}

fn counts(odds: &OddsFromHere) -> (Vec<u64>, u64, u64) {
    (odds.sides.iter().map(|s| s.wins).collect(), odds.draws, odds.timeouts)
}

/// Checks what holds for any result: the counts add up, rates are the
/// counts' shares, each interval holds its rate.
fn check_consistent(odds: &OddsFromHere) {
    if odds.battles == 0 {
        // Decided: its outcome, nothing fought.
        let standing = odds.sides.iter().filter(|s| s.win_rate == 1.0).count();
        assert!(standing <= 1, "{odds:?}");
        assert_eq!(odds.draw_rate, if standing == 0 { 1.0 } else { 0.0 }, "{odds:?}");
        for s in &odds.sides {
            assert!(s.win_rate == 0.0 || s.win_rate == 1.0, "{odds:?}");
            assert_eq!((s.wins, s.low, s.high), (0, s.win_rate, s.win_rate), "{odds:?}");
        }
        assert_eq!((odds.draws, odds.timeouts, odds.timeout_rate), (0, 0, 0.0), "{odds:?}");
        assert_eq!((odds.mean_ticks, odds.mean_rounds), (Some(0.0), Some(0.0)), "{odds:?}");
        return;
    }
    let wins: u64 = odds.sides.iter().map(|s| s.wins).sum();
    assert_eq!(wins + odds.draws + odds.timeouts, odds.battles, "{odds:?}");
    let n = odds.battles as f64;
    for s in &odds.sides {
        assert!((s.win_rate - s.wins as f64 / n).abs() < 1e-12, "{odds:?}");
        assert!(s.low <= s.win_rate && s.win_rate <= s.high, "{odds:?}");
        assert!(
            (0.0..=1.0).contains(&s.low) && (0.0..=1.0).contains(&s.high),
            "{odds:?}"
        );
    }
    assert!((odds.draw_rate - odds.draws as f64 / n).abs() < 1e-12);
    assert!((odds.timeout_rate - odds.timeouts as f64 / n).abs() < 1e-12);
    assert!(odds.mean_ticks.unwrap() >= 0.0 && odds.mean_rounds.unwrap() >= 0.0);
}

/// Plays `moments` moments of `e`: at each, every acting member strikes
/// the first standing enemy with a roll from `dice` (cycled).
fn play(e: &mut Encounter, moments: usize, dice: &[i32]) {
    let mut k = 0;
    let mut played = 0;
    while played < moments {
        match e.next().unwrap() {
            Turn::NewRound { .. } => {}
            Turn::Over => return,
            Turn::Moment { lines, .. } => {
                played += 1;
                for line in lines.iter().filter(|l| l.lands) {
                    for &a in &line.members {
                        let views = e.combatants();
                        let side = views[a.0 as usize].side.clone();
                        let Some(t) = views
                            .iter()
                            .find(|v| v.side != side && v.status == skirmish_core::tracker::Status::Standing)
                        else {
                            return;
                        };
                        let roll = dice[k % dice.len()];
                        k += 1;
                        e.strike(
                            a,
                            t.id,
                            EncounterStrikeOptions::default(),
                            StrikeDice::typed(roll, Some(0)),
                        )
                        .unwrap();
                    }
                }
            }
        }
    }
}

#[test]
fn from_the_start_the_odds_agree_with_the_battle_engine() {
    // 4,000 battles on each side, independent seeds: the party's win rate
    // within 3 sigma of the difference of two independent proportions.
    let scenario = ambush();
    let e = encounter_from_scenario(&scenario, 1).unwrap();
    let n = 4_000;
    let odds = odds_from_here(&e, n, 11).unwrap();
    check_consistent(&odds);
    let (wins, draws, timeouts) = engine_tally(&scenario, n, 12);
    for (side, &w) in odds.sides.iter().zip(&wins) {
        let p = (side.wins + w) as f64 / (2 * n) as f64;
        let sigma = (2.0 * p * (1.0 - p) / n as f64).sqrt();
        let diff = (side.win_rate - w as f64 / n as f64).abs();
        assert!(diff <= 3.0 * sigma + 1e-9, "{}: {} vs {w} of {n}", side.name, side.wins);
    }
    assert_eq!((odds.timeouts, timeouts), (0, 0));
    let pd = (odds.draws + draws) as f64 / (2 * n) as f64;
    assert!((odds.draw_rate - draws as f64 / n as f64).abs() <= 3.0 * (2.0 * pd * (1.0 - pd) / n as f64).sqrt() + 1e-9);
    // From the start the continuation's remaining ticks are the battle's.
    assert!(odds.mean_ticks.unwrap() > 0.0 && odds.mean_rounds.unwrap() >= 1.0);
}

#[test]
fn from_the_start_a_continuation_is_the_engine_battle_for_battle() {
    // One-member lines, the same actors in the same order, the same streams:
    // the very battles the engine fights, under every timing and striking system.
    for timing in TimingSystem::NAMES {
        for striking in Striking::NAMES {
            let scenario = ambush()
                .with_field("timing", timing)
                .unwrap()
                .with_field("striking", striking)
                .unwrap();
            let e = encounter_from_scenario(&scenario, 3).unwrap();
            let odds = odds_from_here(&e, 300, 8).unwrap();
            check_consistent(&odds);
            assert_eq!(counts(&odds), engine_tally(&scenario, 300, 8), "{timing} x {striking}");
            let battle = Battle::new(&scenario).unwrap();
            let mut ws = Workspace::default();
            let (ticks, rounds) = (0..300).fold((0u64, 0u64), |(t, r), i| {
                let s = battle.run_summary(&mut ws, 8, i).unwrap();
                (t + s.ticks, r + u64::from(s.rounds))
            });
            assert!(
                (odds.mean_ticks.unwrap() - ticks as f64 / 300.0).abs() < 1e-9,
                "{timing} x {striking}"
            );
            assert!(
                (odds.mean_rounds.unwrap() - rounds as f64 / 300.0).abs() < 1e-9,
                "{timing} x {striking}"
            );
        }
    }
}

#[test]
fn under_simultaneous_timing_a_group_line_fights_as_its_members() {
    // Every fighter acts in every exchange, without an initiative roll, in
    // roster order: a group's one line and the engine's one actor per
    // member act alike, so the continuation from the start is the engine's
    // battle, battle for battle, and a line must stay in the fight until
    // its last member falls.
    for striking in Striking::NAMES {
        let scenario = ambush_with_groups()
            .with_field("timing", "simultaneous")
            .unwrap()
            .with_field("striking", striking)
            .unwrap();
        let e = encounter_from_scenario(&scenario, 3).unwrap();
        let odds = odds_from_here(&e, 300, 4).unwrap();
        check_consistent(&odds);
        assert_eq!(counts(&odds), engine_tally(&scenario, 300, 4), "{striking}");
    }
}

#[test]
fn fighters_down_before_the_first_blow_are_out_of_every_battle() {
    // Blue's second is taken out before initiative: every continuation is
    // the duel without it, battle for battle (nobody strikes at the fallen,
    // the fallen strike nobody).
    let duel = |second: &str| -> Scenario {
        toml::from_str(&format!(
            r#"
            name = "duel"
            timing = "continuous"
            [[sides]]
            name = "red"
            groups = [{{ name = "Red", strike_rating = 7, defense_rating = 6, weapon = "Sword, Long" }}]
            [[sides]]
            name = "blue"
            groups = [{{ name = "Blue", strike_rating = 6, defense_rating = 6, weapon = "Axe, Battle" }}{second}]
            "#
        ))
        .unwrap()
    };
    let with_second = duel(r#", { name = "Second", strike_rating = 9, defense_rating = 9, weapon = "Dagger" }"#);
    let mut e = encounter_from_scenario(&with_second, 2).unwrap();
    let second = e.find("Second").unwrap();
    e.down(second).unwrap();
    let odds = odds_from_here(&e, 500, 6).unwrap();
    check_consistent(&odds);
    assert_eq!(counts(&odds), engine_tally(&duel(""), 500, 6));
}

const LAST_STAND: &str = r#"
name = "last stand"
timing = "continuous"
[[sides]]
name = "heroes"
groups = [
  { name = "Hero", strike_rating = 30, defense_rating = 30, weapon = "Sword, Long" },
  { name = "Squire", count = 2, strike_rating = 1, defense_rating = 1 },
]
[[sides]]
name = "goblins"
groups = [
  { name = "Goblin", count = 3, strike_rating = 5, defense_rating = 4, weapon = "Dagger" },
  { name = "Assassin", strike_rating = 60, defense_rating = 0, weapon = "Dagger", offense = 20 },
]
"#;

#[test]
fn mid_fight_a_side_down_to_its_unbeatable_last_fighter_wins_every_time() {
    let scenario: Scenario = toml::from_str(LAST_STAND).unwrap();
    let mut e = encounter_from_scenario(&scenario, 4).unwrap();
    // Into the fight: the first moment.
    while !matches!(e.next().unwrap(), Turn::Moment { .. }) {}
    let goblin = e.find("Goblin 1").unwrap();
    for squire in ["Squire 1", "Squire 2"] {
        let s = e.find(squire).unwrap();
        let mut down = false;
        for _ in 0..10 {
            let r = e
                .strike(goblin, s, EncounterStrikeOptions::default(), StrikeDice::typed(4, None))
                .unwrap();
            if r.went_down {
                down = true;
                break;
            }
        }
        assert!(down, "{squire} should fall");
    }
    // And the hero takes one goblin of the group down, and the assassin,
    // who would fell him at a blow if he stood up again.
    let hero = e.find("Hero").unwrap();
    for name in ["Goblin 2", "Assassin"] {
        let id = e.find(name).unwrap();
        assert!(
            e.strike(hero, id, EncounterStrikeOptions::default(), StrikeDice::typed(0, None))
                .unwrap()
                .went_down,
            "{name}"
        );
    }
    let odds = odds_from_here(&e, 1_000, 9).unwrap();
    check_consistent(&odds);
    let heroes = odds.side("heroes").unwrap();
    assert_eq!((heroes.wins, heroes.win_rate, heroes.high), (1_000, 1.0, 1.0));
    assert!(heroes.low > 0.99);
    assert_eq!(
        (odds.draws, odds.timeouts, odds.side("goblins").unwrap().wins),
        (0, 0, 0)
    );
    assert!(odds.mean_ticks.unwrap() > 0.0);
}

#[test]
fn wounds_carry_into_the_continuation() {
    // An even duel; one duellist at 2 of 6 hit points (wound penalty -2).
    let scenario: Scenario = toml::from_str(
        r#"
        name = "duel"
        timing = "continuous"
        damage = { model = "hit_points", max_hp = 6, penalties = [{ hp_at_most = 3, penalty = -2 }] }
        [[sides]]
        name = "red"
        groups = [{ name = "Red", strike_rating = 7, defense_rating = 7, weapon = "Sword, Long" }]
        [[sides]]
        name = "blue"
        groups = [{ name = "Blue", strike_rating = 7, defense_rating = 7, weapon = "Sword, Long" }]
        "#,
    )
    .unwrap();
    let mut e = encounter_from_scenario(&scenario, 5).unwrap();
    let fresh = odds_from_here(&e, 2_000, 13).unwrap();
    let red = e.find("Red").unwrap();
    e.set_damage(
        red,
        WoundOverride::HitPoints {
            hp: HitPointState::new(2).hp(),
        },
    )
    .unwrap();
    let hurt = odds_from_here(&e, 2_000, 13).unwrap();
    check_consistent(&hurt);
    let (before, after) = (fresh.side("red").unwrap(), hurt.side("red").unwrap());
    assert!((before.win_rate - 0.5).abs() < 0.05, "{fresh:?}");
    // Fewer hit points and a -2 on every roll: far worse odds.
    assert!(after.high < before.low && after.win_rate < 0.3, "{hurt:?}");
}

/// The ambush with groups, after a few moments of strikes.
fn ambush_mid_fight(timing: &str, striking: &str, moments: usize) -> Encounter {
    let scenario = ambush_with_groups()
        .with_field("timing", timing)
        .unwrap()
        .with_field("striking", striking)
        .unwrap();
    let mut e = encounter_from_scenario(&scenario, 21).unwrap();
    let dice = [3, -1, 2, 4, 0, 1, -2];
    play(&mut e, moments, &dice);
    // On until someone is down (a moment at a time, the fight undecided).
    for _ in 0..50 {
        let c = e.continuation().unwrap();
        if c.fighters.iter().any(|f| !f.standing) {
            break;
        }
        play(&mut e, 1, &dice);
    }
    e
}

#[test]
fn every_timing_and_striking_system_fights_on_with_groups() {
    for timing in TimingSystem::NAMES {
        for striking in Striking::NAMES {
            let e = ambush_mid_fight(timing, striking, 3);
            let c = e.continuation().unwrap();
            assert!(
                c.fighters.iter().any(|f| !f.standing),
                "{timing} x {striking}: someone is down"
            );
            // The sampler itself (the exact engine answers some of these).
            let odds = odds_from_here_with(&e, 300, 2, None).unwrap();
            check_consistent(&odds);
            // Every battle ends: a line that never acted again would time out.
            assert_eq!(odds.timeouts, 0, "{timing} x {striking}: {odds:?}");
            assert!(odds.mean_ticks.unwrap() > 0.0, "{timing} x {striking}: {odds:?}");
            assert_eq!(odds, odds_from_continuation(&c, 300, 2).unwrap());
        }
    }
}

#[test]
fn a_continuation_read_back_from_json_gives_the_same_odds() {
    for timing in TimingSystem::NAMES {
        let e = ambush_mid_fight(timing, "full-contact", 2);
        let c = e.continuation().unwrap();
        let back: skirmish_core::tracker::Continuation =
            serde_json::from_str(&serde_json::to_string(&c).unwrap()).unwrap();
        assert_eq!(
            odds_from_continuation(&back, 300, 5).unwrap(),
            odds_from_here_with(&e, 300, 5, None).unwrap(),
            "{timing}"
        );
    }
}

#[test]
fn the_same_seed_gives_the_same_odds() {
    let e = ambush_mid_fight("continuous", "full-contact", 2);
    let a = odds_from_here(&e, 2_000, 77).unwrap();
    assert_eq!(a, odds_from_here(&e, 2_000, 77).unwrap());
    // Another seed gives other battles.
    let b = odds_from_here(&e, 1_000, 77).unwrap();
    let c = odds_from_here(&e, 1_000, 78).unwrap();
    assert_ne!((b.sides[0].wins, b.mean_ticks), (c.sides[0].wins, c.mean_ticks));
}

/// A decided fight's odds are its outcome, nothing fought (an
/// app refreshing its odds each screen got `NotNow`).
#[test]
fn a_decided_fight_has_its_outcome_as_odds() {
    // Every goblinoid down: the party wins, 100%.
    let mut e = encounter_from_scenario(&ambush(), 1).unwrap();
    for name in ["Orc #1", "Orc #2", "Goblin #1", "Goblin #2", "Shaman"] {
        let id = e.find(name).unwrap();
        e.down(id).unwrap();
    }
    let odds = odds_from_here(&e, 100, 1).unwrap();
    check_consistent(&odds);
    assert_eq!(odds.battles, 0);
    let rates: Vec<(&str, f64, f64, f64)> = odds
        .sides
        .iter()
        .map(|s| (s.name.as_str(), s.win_rate, s.low, s.high))
        .collect();
    assert_eq!(rates, [("party", 1.0, 1.0, 1.0), ("goblinoids", 0.0, 0.0, 0.0)]);
    assert_eq!(odds.draw_rate, 0.0);
    // The number of battles asked is still checked.
    assert!(odds_from_here(&e, 0, 1).is_err());
    // Everyone down: a draw.
    for name in ["Roland", "Madoc", "Cardiff"] {
        let id = e.find(name).unwrap();
        e.down(id).unwrap();
    }
    let odds = odds_from_here(&e, 100, 1).unwrap();
    check_consistent(&odds);
    assert_eq!((odds.battles, odds.draw_rate), (0, 1.0));
    assert!(odds.sides.iter().all(|s| s.win_rate == 0.0));
    // Undone: undecided again, fought.
    e.undo().unwrap();
    e.undo().unwrap();
    e.undo().unwrap();
    let odds = odds_from_here(&e, 100, 1).unwrap();
    assert_eq!((odds.battles, odds.sides[0].win_rate), (0, 1.0));
    for _ in 0..5 {
        e.undo().unwrap();
    }
    assert_eq!(odds_from_here(&e, 100, 1).unwrap().battles, 100);
}

#[test]
fn a_fighter_without_stats_is_refused() {
    // A timing-only combatant in the fight: no stats to fight with.
    let mut e = encounter_from_scenario(&ambush(), 1).unwrap();
    e.add_combatant(CombatantSpec::new("Bystander", Declaration::new(3, 0)).on_side("party"))
        .unwrap();
    match odds_from_here(&e, 100, 1) {
        Err(SimError::Tracker(err)) => {
            assert_eq!(err.kind(), ErrorKind::NotNow, "{err}");
            assert!(err.to_string().contains("Bystander"), "{err}");
        }
        other => panic!("expected the tracker's refusal, got {other:?}"),
    }
    // Once it is out of the fight, the odds are there again.
    let id = e.find("Bystander").unwrap();
    e.remove(id).unwrap();
    assert!(odds_from_here(&e, 100, 1).is_ok());
}

#[test]
fn the_number_of_battles_is_checked() {
    let e = encounter_from_scenario(&ambush(), 1).unwrap();
    for battles in [0, MAX_BATTLES + 1, u64::MAX] {
        match odds_from_here(&e, battles, 1) {
            Err(SimError::Rules(skirmish_core::Error::OutOfRange { field, .. })) => assert_eq!(field, "battles"),
            other => panic!("{battles}: expected battles out of range, got {other:?}"),
        }
    }
    assert_eq!(odds_from_here(&e, 1, 1).unwrap().battles, 1);
}

#[test]
fn an_encounter_from_a_scenario_has_every_group() {
    let e = encounter_from_scenario(&ambush_with_groups(), 1).unwrap();
    let names: Vec<String> = e.combatants().into_iter().map(|c| c.name).collect();
    assert_eq!(
        names,
        [
            "Roland",
            "Madoc",
            "Cardiff",
            "Orc #1 1",
            "Orc #1 2",
            "Goblin #1 1",
            "Goblin #1 2",
            "Goblin #1 3",
            "Shaman"
        ]
    );
    let c = e.continuation().unwrap();
    assert_eq!(c.sides, ["party", "goblinoids"]);
    // A group is one line.
    assert_eq!(c.fighters[5].line, c.fighters[7].line);
    assert_ne!(c.fighters[4].line, c.fighters[5].line);
    // A scenario the tracker cannot take is a typed error naming the field.
    let mut bad = ambush();
    bad.sides[0].groups[0].count = 0;
    match encounter_from_scenario(&bad, 1) {
        Err(SimError::Tracker(err)) => assert_eq!(err.field(), Some("profile.count"), "{err}"),
        other => panic!("expected the tracker's refusal, got {other:?}"),
    }
}

#[test]
fn a_continuation_that_does_not_hang_together_is_refused() {
    let e = ambush_mid_fight("continuous", "full-contact", 1);
    let good = e.continuation().unwrap();
    let mut c = good.clone();
    c.fighters[0].line = 1_000;
    assert!(matches!(odds_from_continuation(&c, 10, 1), Err(SimError::Rules(_))));
    let mut c = good.clone();
    c.fighters[0].stats.strike_rating = i32::MAX;
    assert!(matches!(odds_from_continuation(&c, 10, 1), Err(SimError::Rules(_))));
    let mut c = good.clone();
    c.fighters[0].side = "nobody".into();
    assert!(matches!(odds_from_continuation(&c, 10, 1), Err(SimError::Rules(_))));
    let mut c = good.clone();
    c.fighters[0].damage = skirmish_core::damage::DamageState::HitPoints(HitPointState::new(3));
    assert!(matches!(odds_from_continuation(&c, 10, 1), Err(SimError::Rules(_))));
    let mut c = good;
    c.sides.truncate(1);
    assert!(odds_from_continuation(&c, 10, 1).is_err());
}

/// A continuation made by hand may list a fighter as standing with its
/// damage already down (0 hit points): the general loop drops it at its
/// first hit, and such a continuation is not fought on the fast path
/// (which counts a fall only when a hit takes a fighter down).
#[test]
fn a_fighter_standing_but_already_down_falls_at_its_first_hit() {
    let scenario = ambush().with_field("damage", "hit_points").unwrap();
    let e = encounter_from_scenario(&scenario, 5).unwrap();
    let mut c = e.continuation().unwrap();
    let fresh = continuation_summaries(&c, 30, 4, true).unwrap();
    assert!(fresh.0, "a fresh continuation takes the fast path");
    for f in &mut c.fighters {
        f.damage = DamageState::HitPoints(HitPointState::new(0));
    }
    let (fast, on_fast) = continuation_summaries(&c, 30, 4, true).unwrap();
    let (_, on_general) = continuation_summaries(&c, 30, 4, false).unwrap();
    assert!(!fast);
    assert_eq!(on_fast, on_general);
    // Everyone falls at the first blow: no battle runs to the tick cap.
    assert!(on_fast.iter().all(|s| s.outcome != Outcome::Timeout), "{on_fast:?}");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, ..ProptestConfig::default() })]

    /// Odds from here fight on the fast path's moments loop,
    /// with the encounter's own clock, whenever the continuation qualifies
    /// (two sides, Full Contact): battle for battle the general loop's
    /// summaries, under every timing system, both damage models (the
    /// ambush's wounds carry penalties, its spells are disruptible), group
    /// lines, any moment of the fight, and a disruptible action declared
    /// at the table where no group's own is (the declaration decides).
    #[test]
    fn a_continuation_fights_on_the_fast_path_as_on_the_general_loop(
        timing in 0..TimingSystem::NAMES.len(),
        striking in 0..Striking::NAMES.len(),
        hit_points in any::<bool>(),
        which in 0..3,
        moments in 0usize..12,
        dice in proptest::collection::vec(-4i32..=4, 1..8),
        spells in proptest::collection::vec((0u32..8, 0i32..6), 0..4),
        seed in any::<u64>(),
    ) {
        let scenario = match which {
            0 => ambush(),
            1 => ambush_with_groups(),
            // No group's action is disruptible here.
            _ => ambush()
                .with_field("sides.party.groups.Madoc.disruptible", "false").unwrap()
                .with_field("sides.goblinoids.groups.Shaman.disruptible", "false").unwrap(),
        };
        let mut scenario = scenario
            .with_field("timing", TimingSystem::NAMES[timing]).unwrap()
            .with_field("striking", Striking::NAMES[striking]).unwrap();
        if hit_points {
            scenario = scenario.with_field("damage", "hit_points").unwrap();
        }
        let mut e = encounter_from_scenario(&scenario, seed).unwrap();
        play(&mut e, moments, &dice);
        // Spells declared at the table (refused ones are fine: not now).
        for (who, time_taken) in spells {
            let id = CombatantId(who % e.combatants().len() as u32);
            let _ = e.declare(id, "spell", Declaration::new(time_taken, 0).disruptible(), None);
        }
        let Ok(c) = e.continuation() else {
            return Ok(()); // decided at the table
        };
        let (fast, on_fast) = continuation_summaries(&c, 60, seed, true).unwrap();
        let (general, on_general) = continuation_summaries(&c, 60, seed, false).unwrap();
        prop_assert_eq!(fast, Striking::NAMES[striking] == "full-contact");
        prop_assert!(!general);
        prop_assert_eq!(on_fast, on_general);
    }

    /// Any timing and striking system, any dice at the table, any moment:
    /// the odds come back consistent (a decided fight's its outcome), or the
    /// tracker says why not.
    #[test]
    fn odds_from_any_moment_never_panic(
        timing in 0..TimingSystem::NAMES.len(),
        striking in 0..Striking::NAMES.len(),
        moments in 0usize..12,
        dice in proptest::collection::vec(-4i32..=4, 1..8),
        seed in any::<u64>(),
    ) {
        let scenario = ambush_with_groups()
            .with_field("timing", TimingSystem::NAMES[timing]).unwrap()
            .with_field("striking", Striking::NAMES[striking]).unwrap();
        let mut e = encounter_from_scenario(&scenario, seed).unwrap();
        play(&mut e, moments, &dice);
        // Sampling forced: an exact attempt on a fight of eight takes
        // seconds (exact_from_here.rs tests the exact path).
        match odds_from_here_with(&e, 20, seed, None) {
            Ok(odds) => {
                check_consistent(&odds);
                prop_assert_eq!(odds.timeouts, 0);
            }
            Err(SimError::Tracker(err)) => prop_assert_eq!(err.kind(), ErrorKind::NotNow),
            Err(other) => prop_assert!(false, "unexpected error {other}"),
        }
    }
}

#[test]
fn a_group_member_struck_keeps_the_group_acting() {
    // Three goblins on one line; two fall at the table. The third still
    // acts on the group's line in every continuation: the goblins win some.
    let scenario: Scenario = toml::from_str(
        r#"
        name = "pack"
        timing = "continuous"
        [[sides]]
        name = "knight"
        groups = [{ name = "Knight", strike_rating = 6, defense_rating = 5, weapon = "Sword, Long" }]
        [[sides]]
        name = "goblins"
        groups = [{ name = "Goblin", count = 3, strike_rating = 7, defense_rating = 5, weapon = "Dagger", offense = 2 }]
        "#,
    )
    .unwrap();
    let mut e = encounter_from_scenario(&scenario, 6).unwrap();
    while !matches!(e.next().unwrap(), Turn::Moment { .. }) {}
    let knight = e.find("Knight").unwrap();
    for g in [CombatantId(1), CombatantId(2)] {
        while !e
            .strike(knight, g, EncounterStrikeOptions::default(), StrikeDice::typed(4, None))
            .unwrap()
            .went_down
        {}
    }
    let c = e.continuation().unwrap();
    assert_eq!(c.fighters.iter().filter(|f| f.standing).count(), 2);
    let odds = odds_from_here(&e, 1_000, 3).unwrap();
    check_consistent(&odds);
    assert_eq!(odds.timeouts, 0);
    let goblins = odds.side("goblins").unwrap();
    assert!(goblins.wins > 0 && goblins.wins < 1_000, "{odds:?}");
}

/// A built-in bigger than a tick sheet (`horde`: 50,000 goblins in one
/// group) is refused naming the count's path and saying what to do; the
/// smaller copy it suggests opens, and the battle takes the original.
#[test]
fn a_scenario_bigger_than_a_tick_sheet_says_what_to_do() {
    let horde = Scenario::builtin("horde").unwrap();
    let err = encounter_from_scenario(&horde, 1).unwrap_err();
    let SimError::Tracker(err) = &err else {
        panic!("expected the tracker's refusal, got {err:?}")
    };
    assert_eq!(err.kind(), ErrorKind::InvalidInput);
    let text = err.to_string();
    assert!(text.contains("sides[0].groups[0].count"), "{text}");
    assert!(
        text.contains("sides.goblins.groups.goblins.count set to 10000 or fewer"),
        "{text}"
    );
    assert!(
        text.contains("battles and sweeps fight the scenario as it is"),
        "{text}"
    );
    // The copy it suggests opens.
    let smaller = horde.with_field("sides.goblins.groups.goblins.count", "10000").unwrap();
    assert!(encounter_from_scenario(&smaller, 1).is_ok());
    // More than the tracker's total in groups that each fit.
    let mut many = smaller.clone();
    let group = many.sides[0].groups[0].clone();
    for i in 0..10 {
        let mut g = group.clone();
        g.name = format!("wave {i}");
        many.sides[0].groups.push(g);
    }
    let err = encounter_from_scenario(&many, 1).unwrap_err().to_string();
    assert!(
        err.contains("110500 fighters in all") && err.contains("at most 100000"),
        "{err}"
    );
    // Every other built-in opens at the table, but for the archers'
    // distance, which the tracker has no place for: refused, not dropped.
    for name in skirmish_sim::scenario::BUILTIN
        .iter()
        .filter(|n| **n != "horde" && **n != "archers")
    {
        assert!(
            encounter_from_scenario(&Scenario::builtin(name).unwrap(), 1).is_ok(),
            "{name}"
        );
    }
    let archers = Scenario::builtin("archers").unwrap();
    let err = encounter_from_scenario(&archers, 1).unwrap_err().to_string();
    assert!(
        err.contains("distance: a distance between the sides is a battle's option"),
        "{err}"
    );
    let without = archers.with_field_value("distance", serde_json::Value::Null).unwrap();
    assert!(encounter_from_scenario(&without, 1).is_ok());
    // FUDGE 4.31's scouting opens at the table: the scout keeps its
    // Perception, and the GM reports its rolls.
    let scouting = Scenario::builtin("parity")
        .unwrap()
        .with_field("striking", "fudge-opposed")
        .unwrap()
        .with_field("sides.A.groups.0.stance", "all_out_defense")
        .unwrap()
        .with_field("sides.A.groups.0.scouting", "Good")
        .unwrap()
        // Within the model's max_hp, which the continuation's check holds
        // every fighter to.
        .with_field("sides.B.groups.0.hit_points", "4")
        .unwrap();
    let mut e = encounter_from_scenario(&scouting, 1).unwrap();
    let view = e.view(skirmish_core::tracker::ViewFor::Gm);
    let scout = view.combatants[0].id;
    let foe = view
        .combatants
        .iter()
        .find(|c| c.side != view.combatants[0].side)
        .unwrap()
        .id;
    let r = e.scout(scout, foe, Some(0)).unwrap();
    assert!(r.scouts, "{}", r.text);
    // The battles from here scout on (the general loop's).
    let c = e.continuation().unwrap();
    assert_eq!(c.fighters[0].stats.scouting, Some(skirmish_core::ladder::Level::GOOD));
    let (fast, summaries) = skirmish_sim::odds::continuation_summaries(&c, 20, 1, true).unwrap();
    assert!(!fast && summaries.len() == 20);
}
