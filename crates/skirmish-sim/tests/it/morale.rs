//! Morale (docs/rules.md §5): a side breaks, retreating or surrendering,
//! when its standing share falls below its threshold or its leader group
//! is down; the battle ends when fewer than two sides are left. Traced
//! battles say who broke and how; sweeps count retreats and surrenders.

use proptest::prelude::*;
use skirmish_sim::battle::{Battle, RunOptions, Workspace};
use skirmish_sim::report::{BattleReport, Outcome};
use skirmish_sim::scenario::{BreakOutcome, Scenario, ScenarioErrorKind};
use skirmish_sim::sweep::{Axis, SweepOptions, SweepSpec, sweep};

/// The party (Cardiff and three guards) against four goblins and their
/// shaman, under Simple Rounds; each side's morale from the arguments.
fn rout(party: &str, goblins: &str) -> Scenario {
    let text = format!(
        r#"
name = "rout"
timing = "simple_rounds"
[[sides]]
name = "party"
{party}
groups = [
  {{ name = "Cardiff", strike_rating = 9, defense_rating = 7 }},
  {{ name = "guard", count = 3, strike_rating = 6, defense_rating = 6 }},
]
[[sides]]
name = "goblins"
{goblins}
groups = [
  {{ name = "Goblin", count = 4, strike_rating = 6, defense_rating = 6 }},
  {{ name = "Shaman", strike_rating = 4, defense_rating = 5 }},
]
"#
    );
    Scenario::from_toml_str(&text, "rout.toml").unwrap()
}

fn traced(battle: &Battle, index: u64) -> BattleReport {
    battle.run(11, index, &RunOptions::FULL).unwrap()
}

/// The trace's lines, as text.
fn lines(report: &BattleReport) -> Vec<String> {
    report.trace.as_ref().unwrap().iter().map(|l| l.text.clone()).collect()
}

#[test]
fn a_side_breaks_at_the_first_moment_its_share_falls_below_the_threshold() {
    // The goblins retreat when fewer than 3 of their 5 stand.
    let scenario = rout("", "morale = { break_below = 0.6 }");
    let battle = Battle::new(&scenario).unwrap();
    assert!(!battle.has_fast_path(), "battles with morale take the general loop");
    let mut broke = 0;
    for index in 0..200 {
        let r = traced(&battle, index);
        let lines = lines(&r);
        let breaks: Vec<&String> = lines.iter().filter(|l| l.starts_with("goblins break")).collect();
        // The first moment at which the goblins' share went below 3/5.
        let below = r
            .casualties
            .iter()
            .find(|c| c.standing[1] > 0 && (c.standing[1] as f64) / 5.0 < 0.6);
        match r.broke(1) {
            Some(how) => {
                broke += 1;
                assert_eq!(how, BreakOutcome::Retreat);
                let below = below.expect("a side breaks only below its threshold");
                // Those standing at that moment left the battle.
                assert_eq!(r.standing[1], below.standing[1], "battle {index}");
                assert_eq!(
                    r.summary.ticks, below.tick,
                    "the battle ended at the break (battle {index})"
                );
                assert_eq!(
                    breaks,
                    [&format!(
                        "goblins break (below threshold): {} standing retreat",
                        below.standing[1]
                    )],
                    "battle {index}"
                );
                // Nobody fought on: the party won at that moment.
                assert_eq!(r.summary.outcome, Outcome::Win { side: 0 });
                assert_eq!(lines.last(), Some(breaks[0]), "the break is the battle's last line");
            }
            None => {
                assert!(below.is_none(), "battle {index}: below the threshold without breaking");
                assert!(breaks.is_empty());
            }
        }
        assert_eq!(r.broke(0), None, "the party has no morale");
    }
    assert!(broke > 20, "the goblins broke in {broke} of 200 battles");
}

#[test]
fn a_side_breaks_when_its_leader_group_is_down() {
    // The goblins surrender when their shaman falls, whatever their numbers.
    let scenario = rout("", r#"morale = { leader = "shaman", outcome = "surrender" }"#);
    let battle = Battle::new(&scenario).unwrap();
    let (mut surrendered, mut wiped) = (0, 0);
    for index in 0..200 {
        let r = traced(&battle, index);
        let lines = lines(&r);
        let shaman_fell = lines.iter().position(|l| l == "Shaman falls");
        let line = lines.iter().position(|l| l.starts_with("goblins break (leader down)"));
        match (shaman_fell, r.broke(1)) {
            (Some(fell), Some(BreakOutcome::Surrender)) => {
                surrendered += 1;
                let at = line.expect("the trace says who broke and how");
                assert!(at > fell, "battle {index}: the break follows the fall");
                assert_eq!(
                    lines[at],
                    format!("goblins break (leader down): {} standing surrender", r.standing[1])
                );
                assert!(r.standing[1] >= 1);
                assert_eq!(r.summary.outcome, Outcome::Win { side: 0 });
            }
            // The shaman fell with the last goblins: wiped out, not broken.
            (Some(_), None) => {
                wiped += 1;
                assert_eq!(r.standing[1], 0, "battle {index}");
                assert!(line.is_none());
            }
            (None, broke) => {
                assert_eq!(broke, None, "battle {index}: broke with the shaman standing");
                assert!(line.is_none());
            }
            (Some(_), Some(other)) => panic!("battle {index}: broke by {other:?}"),
        }
    }
    assert!(surrendered > 20, "{surrendered} surrenders, {wiped} wiped out");
}

#[test]
fn sides_that_break_at_the_same_moment_end_the_battle_in_a_draw_with_both_breaks() {
    // Both break at their first fall; under Simultaneous timing both sides
    // often lose someone in the same exchange.
    let scenario = rout(
        "morale = { break_below = 1.0 }",
        r#"morale = { break_below = 1.0, outcome = "surrender" }"#,
    )
    .with_field("timing", "simultaneous")
    .unwrap();
    let battle = Battle::new(&scenario).unwrap();
    let mut together = 0;
    for index in 0..100 {
        let r = traced(&battle, index);
        let lines = lines(&r);
        match (r.broke(0), r.broke(1)) {
            (Some(BreakOutcome::Retreat), Some(BreakOutcome::Surrender)) => {
                together += 1;
                assert_eq!(r.summary.outcome, Outcome::Draw, "battle {index}: nobody is left");
                assert!(lines.iter().any(|l| l.starts_with("party break (below threshold)")));
                assert!(lines.iter().any(|l| l.starts_with("goblins break (below threshold)")));
                assert_eq!(r.casualties.len(), 1, "both broke at the first falls");
            }
            (Some(_), None) => assert_eq!(r.summary.outcome, Outcome::Win { side: 1 }),
            (None, Some(_)) => assert_eq!(r.summary.outcome, Outcome::Win { side: 0 }),
            other => panic!("battle {index}: {other:?}, {:?}", r.summary),
        }
    }
    assert!(together > 5, "both broke together in {together} of 100 battles");
}

#[test]
fn a_morale_that_never_breaks_gives_the_battles_of_no_morale() {
    // `morale = {}` takes the general loop, never the fast paths: the same
    // battles, by construction, on every timing system.
    for timing in [
        "simultaneous",
        "simple-rounds",
        "graduated-rounds",
        "continuous",
        "tick-system",
        "action-blocks",
    ] {
        for striking in ["full-contact", "fudge-opposed"] {
            let plain = rout("", "")
                .with_field("timing", timing)
                .unwrap()
                .with_field("striking", striking)
                .unwrap();
            let idle = plain.with_field("sides.party.morale", "{}").unwrap();
            assert_eq!(
                idle.warnings(),
                [
                    r#"sides[0].morale: break_below = 0 with no leader never breaks side "party" (give a break_below above 0 or a leader group)"#
                ]
            );
            let (a, b) = (Battle::new(&plain).unwrap(), Battle::new(&idle).unwrap());
            let options = RunOptions {
                trace: false,
                casualties: true,
            };
            let mut ws = Workspace::default();
            for index in 0..40 {
                assert_eq!(
                    a.run_in(&mut ws, 5, index, &options).unwrap(),
                    b.run_in(&mut ws, 5, index, &options).unwrap(),
                    "{timing} {striking} battle {index}"
                );
            }
        }
    }
}

#[test]
fn bad_morale_is_an_error_naming_the_field() {
    let err = |party: &str| {
        let text = format!(
            "name = \"x\"\n[[sides]]\nname = \"party\"\n{party}\ngroups = [{{ name = \"Cardiff\" }}]\n[[sides]]\nname = \"foes\"\ngroups = [{{ name = \"orc\" }}]\n"
        );
        Scenario::from_toml_str(&text, "x.toml").unwrap_err()
    };
    let e = err("morale = { break_below = 1.5 }");
    assert_eq!(e.kind, ScenarioErrorKind::Invalid);
    assert!(
        e.to_string()
            .contains("sides[0].morale.break_below: 1.5 is outside 0..=1"),
        "{e}"
    );
    let e = err("morale = { break_below = -0.1 }");
    assert!(
        e.to_string()
            .contains("sides[0].morale.break_below: -0.1 is outside 0..=1"),
        "{e}"
    );
    let e = err("morale = { break_below = nan }");
    assert!(
        e.to_string()
            .contains("sides[0].morale.break_below: NaN is outside 0..=1"),
        "{e}"
    );
    let e = err(r#"morale = { leader = "Roland" }"#);
    assert!(
        e.to_string()
            .contains(r#"sides[0].morale.leader: "Roland" names no group of side "party" (its groups: Cardiff)"#),
        "{e}"
    );
    let e = err(r#"morale = { outcome = "flee" }"#);
    assert!(e.to_string().contains("sides[0].morale.outcome"), "{e}");
    assert!(
        e.to_string().contains("retreat") && e.to_string().contains("surrender"),
        "{e}"
    );
    let e = err("morale = { threshold = 0.5 }");
    assert!(e.to_string().contains("sides[0].morale"), "{e}");
    // Through a sweep's field path, too.
    let e = rout("", "")
        .with_field("sides.goblins.morale.break_below", "2")
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "sides[1].morale.break_below: 2 is outside 0..=1 (a share of the side's fighters still standing)"
    );
    // Morale on a side past the 64th is refused by name.
    let mut wide = rout("", "");
    for i in 2..65 {
        let mut side = wide.sides[1].clone();
        side.name = format!("band {i}");
        wide.sides.push(side);
    }
    assert_eq!(wide.validate(), Ok(()));
    let e = wide.with_field("sides.64.morale.break_below", "0.5").unwrap_err();
    assert!(
        e.to_string()
            .starts_with("sides[64].morale: morale is played on the first 64 sides only"),
        "{e}"
    );
    assert!(wide.with_field("sides.63.morale.break_below", "0.5").is_ok());
}

#[test]
fn morale_is_a_sweep_path_even_on_a_side_without_one() {
    let base = rout("", "");
    let set = base.with_field("sides.goblins.morale.break_below", "0.5").unwrap();
    let morale = set.sides[1].morale.as_ref().unwrap();
    assert_eq!(
        (morale.break_below, morale.leader.as_deref(), morale.outcome),
        (0.5, None, BreakOutcome::Retreat)
    );
    assert_eq!(set.get_field("sides.goblins.morale.break_below").unwrap(), 0.5);
    let set = set.with_field("sides.goblins.morale.outcome", "surrender").unwrap();
    assert_eq!(set.sides[1].morale.as_ref().unwrap().outcome, BreakOutcome::Surrender);
    let set = base.with_field("sides.goblins.morale.leader", "Shaman").unwrap();
    assert_eq!(set.sides[1].morale.as_ref().unwrap().leader.as_deref(), Some("Shaman"));
    // A scenario without morale writes none: its fingerprint is unchanged.
    assert!(!base.to_toml_string().unwrap().contains("morale"));
}

/// The CSV's column `name` of the sweep's rows.
fn column(csv: &str, name: &str) -> Vec<String> {
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let at = header
        .iter()
        .position(|h| *h == name)
        .unwrap_or_else(|| panic!("no column {name}"));
    lines.map(|l| l.split(',').nth(at).unwrap().to_owned()).collect()
}

#[test]
fn a_sweep_counts_retreats_and_surrenders_per_side_with_intervals() {
    let spec = SweepSpec {
        scenario: rout(
            "morale = { break_below = 0.5 }",
            r#"morale = { leader = "Shaman", outcome = "surrender" }"#,
        ),
        axes: vec![Axis::new("sides.party.morale.break_below", ["0", "0.9"])],
        battles: 300,
        seed: 3,
    };
    let table = sweep(&spec, &SweepOptions::default()).unwrap();
    let csv = table.to_csv();
    let header = csv.lines().next().unwrap();
    assert!(
        header.ends_with(
            "total_disruptions,retreat_rate_party,retreat_rate_party_low,retreat_rate_party_high,\
             surrender_rate_party,surrender_rate_party_low,surrender_rate_party_high,retreat_rate_goblins,\
             retreat_rate_goblins_low,retreat_rate_goblins_high,surrender_rate_goblins,surrender_rate_goblins_low,\
             surrender_rate_goblins_high,retreats_party,surrenders_party,retreats_goblins,surrenders_goblins,seed,\
             scenario_fingerprint"
        ),
        "{header}"
    );
    // The counts are the battles' own, one by one.
    let battle = Battle::new(
        &spec
            .scenario
            .with_field("sides.party.morale.break_below", "0.9")
            .unwrap(),
    )
    .unwrap();
    let (mut retreats, mut surrenders) = (0u64, 0u64);
    let mut ws = Workspace::default();
    for i in 0..300 {
        let s = battle.run_summary(&mut ws, 3, i).unwrap();
        retreats += u64::from(s.breaks.of(0) == Some(BreakOutcome::Retreat));
        surrenders += u64::from(s.breaks.of(1) == Some(BreakOutcome::Surrender));
        assert_eq!(s.breaks.of(0).filter(|b| *b == BreakOutcome::Surrender), None);
    }
    assert_eq!(column(&csv, "retreats_party")[1], retreats.to_string());
    assert_eq!(column(&csv, "surrenders_goblins")[1], surrenders.to_string());
    assert!(retreats > 0 && surrenders > 0);
    // A threshold of 0: the party never retreats.
    assert_eq!(column(&csv, "retreats_party")[0], "0");
    assert_eq!(
        column(&csv, "retreat_rate_party_high")[0],
        format!("{:.6}", skirmish_sim::stats::wilson(0, 300).1)
    );
    // Rates and Wilson intervals, as the win rates have them.
    let (low, high) = skirmish_sim::stats::wilson(retreats, 300);
    assert_eq!(
        column(&csv, "retreat_rate_party")[1],
        format!("{:.6}", retreats as f64 / 300.0)
    );
    assert_eq!(column(&csv, "retreat_rate_party_low")[1], format!("{low:.6}"));
    assert_eq!(column(&csv, "retreat_rate_party_high")[1], format!("{high:.6}"));
    // Never a retreat the goblins could not make.
    assert_eq!(column(&csv, "retreats_goblins"), ["0", "0"]);
    // The terminal table shows them.
    let text = table.summary_text();
    assert!(
        text.lines()
            .next()
            .unwrap()
            .contains("retreat party  surrender party  retreat goblins  surrender goblins"),
        "{text}"
    );
}

#[test]
fn the_terminal_table_shows_morale_only_when_a_side_plays_it() {
    let spec = SweepSpec {
        scenario: rout("", ""),
        axes: Vec::new(),
        battles: 20,
        seed: 1,
    };
    let plain = sweep(&spec, &SweepOptions::default()).unwrap();
    assert!(!plain.summary_text().contains("retreat"), "{}", plain.summary_text());
    // The CSV keeps its schema: the morale columns, all zero.
    assert_eq!(column(&plain.to_csv(), "surrenders_goblins"), ["0"]);
    let spec = SweepSpec {
        scenario: rout("morale = {}", ""),
        ..spec
    };
    let idle = sweep(&spec, &SweepOptions::default()).unwrap();
    assert!(idle.summary_text().contains("retreat party"), "{}", idle.summary_text());
}

/// How a battle ended for side `s`: exactly one of won, retreated,
/// surrendered, wiped out, or still in the battle at a timeout.
fn fate(r: &BattleReport, s: usize) -> &'static str {
    match (r.summary.outcome, r.broke(s)) {
        (_, Some(BreakOutcome::Retreat)) => "retreated",
        (_, Some(BreakOutcome::Surrender)) => "surrendered",
        (Outcome::Win { side }, None) if side == s => "won",
        (Outcome::Timeout, None) if r.standing[s] > 0 => "timeout",
        (_, None) => {
            assert_eq!(r.standing[s], 0, "a side neither broken nor winning was wiped out");
            "wiped out"
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    /// Win + draw + timeout count every battle once; for each side,
    /// won + retreated + surrendered + wiped out + still in at a timeout
    /// count every battle once; and the sweep's columns are those counts.
    #[test]
    fn outcomes_add_up_to_the_battles(
        seed in 0u64..1000,
        party_below in 0.0f64..=1.0,
        goblins_below in 0.0f64..=1.0,
        leader in any::<bool>(),
        surrender in any::<bool>(),
        timing in prop::sample::select(vec!["simultaneous", "simple-rounds", "continuous", "tick-system"]),
        max_rounds in prop::sample::select(vec![2u32, 100_000]),
    ) {
        let goblins = format!(
            "morale = {{ break_below = {goblins_below}, {} outcome = \"{}\" }}",
            if leader { "leader = \"Shaman\"," } else { "" },
            if surrender { "surrender" } else { "retreat" },
        );
        let scenario = rout(&format!("morale = {{ break_below = {party_below} }}"), &goblins)
            .with_field("timing", timing).unwrap()
            .with_field("battle.max_rounds", &max_rounds.to_string()).unwrap();
        let battles = 60u64;
        let battle = Battle::new(&scenario).unwrap();
        let mut ws = Workspace::default();
        let options = RunOptions::default();
        let (mut wins, mut draws, mut timeouts) = ([0u64; 2], 0u64, 0u64);
        let mut fates = [[0u64; 5]; 2];
        let names = ["won", "retreated", "surrendered", "wiped out", "timeout"];
        for i in 0..battles {
            let r = battle.run_in(&mut ws, seed, i, &options).unwrap();
            match r.summary.outcome {
                Outcome::Win { side } => wins[side] += 1,
                Outcome::Draw => draws += 1,
                Outcome::Timeout => timeouts += 1,
            }
            for (s, counts) in fates.iter_mut().enumerate() {
                let f = fate(&r, s);
                counts[names.iter().position(|n| *n == f).unwrap()] += 1;
            }
            // A side that broke did not win, and nobody breaks both ways.
            for s in 0..2 {
                let won = r.summary.outcome == Outcome::Win { side: s };
                prop_assert!(!(won && r.broke(s).is_some()), "side {} broke and won", s);
            }
        }
        prop_assert_eq!(wins[0] + wins[1] + draws + timeouts, battles);
        for counts in &fates {
            prop_assert_eq!(counts.iter().sum::<u64>(), battles);
        }
        let spec = SweepSpec { scenario, axes: Vec::new(), battles, seed };
        let csv = sweep(&spec, &SweepOptions::default()).unwrap().to_csv();
        for (s, side) in ["party", "goblins"].iter().enumerate() {
            prop_assert_eq!(&column(&csv, &format!("wins_{side}"))[0], &fates[s][0].to_string());
            prop_assert_eq!(&column(&csv, &format!("retreats_{side}"))[0], &fates[s][1].to_string());
            prop_assert_eq!(&column(&csv, &format!("surrenders_{side}"))[0], &fates[s][2].to_string());
        }
        prop_assert_eq!(&column(&csv, "draws")[0], &draws.to_string());
        prop_assert_eq!(&column(&csv, "timeouts")[0], &timeouts.to_string());
    }
}

#[test]
fn a_side_whose_last_foes_fall_wins_whatever_its_own_losses() {
    // The party breaks at its first fall, but not at the moment the last
    // goblin falls: the battle is over then, and the party has won.
    let scenario = rout("morale = { break_below = 1.0 }", "")
        .with_field("timing", "simultaneous")
        .unwrap()
        .with_field("sides.goblins.groups.0.count", "2")
        .unwrap()
        .with_field("sides.goblins.groups.0.strike_rating", "10")
        .unwrap();
    let battle = Battle::new(&scenario).unwrap();
    let (mut won_bloodied, mut broke) = (0, 0);
    for index in 0..200 {
        let r = traced(&battle, index);
        match r.broke(0) {
            Some(_) => {
                broke += 1;
                assert_eq!(r.summary.outcome, Outcome::Win { side: 1 }, "battle {index}");
            }
            None if r.standing[0] < 4 => {
                // Fell at the very moment the goblins were wiped out.
                won_bloodied += 1;
                assert_eq!(r.summary.outcome, Outcome::Win { side: 0 }, "battle {index}");
                assert_eq!(r.standing[1], 0);
                let last = r.casualties.last().unwrap();
                assert_eq!(last.standing, [r.standing[0], 0]);
                let before = &r.casualties[..r.casualties.len() - 1];
                assert!(
                    before.iter().all(|c| c.standing[0] == 4),
                    "battle {index}: the party's first fall is at the last moment"
                );
            }
            None => assert_eq!(r.summary.outcome, Outcome::Win { side: 0 }),
        }
    }
    assert!(
        won_bloodied > 0 && broke > 0,
        "{won_bloodied} bloodied wins, {broke} breaks"
    );
}
