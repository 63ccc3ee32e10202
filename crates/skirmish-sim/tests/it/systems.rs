//! The round and tick systems get lean clocks of their own, with
//! results identical to the core Scheduler's for the same seed. These
//! digests were pinned from the engine before any lean round clock
//! (commit c5e05e2), over full reports with traces and casualties: every
//! timing system x every targeting policy x both striking systems, on the
//! parity battle with the options a clock reads (disruption, Time Taken,
//! speed bonus, Rate of Fire and extra attacks, the caps, and the Tick
//! System's and Action Blocks' own ratings). Like `digest.rs`: a change
//! here is a breaking change, not a test to update.
//!
//! `lean_clocks_fight_exactly_like_the_scheduler` fights every one of these
//! battles with the battle's own clock (a lean one where its system has
//! one) and with the core Scheduler's, report by report;
//! `tick_clock_fights_exactly_like_the_scheduler` does the same over the
//! Tick System's own options and variants (its lean clock, `clock/tick.rs`,
//! runs them all).
//!
//! `SKIRMISH_PRINT_SYSTEMS_DIGESTS=1 cargo test -p skirmish-sim --test it
//! systems -- --nocapture` prints the table.

use skirmish_core::dice::SeededRolls;
use skirmish_core::timing::TimingSystem;
use skirmish_sim::battle::{Battle, RunOptions, Workspace};
use skirmish_sim::scenario::Scenario;

/// FNV-1a over `bytes`, continuing `h`.
fn fnv(h: &mut u64, bytes: &[u8]) {
    for &b in bytes {
        *h ^= u64::from(b);
        *h = h.wrapping_mul(0x0100_0000_01b3);
    }
}

fn parity(n: u64) -> Scenario {
    Scenario::builtin("parity")
        .unwrap()
        .with_field("sides.A.groups.0.count", &n.to_string())
        .unwrap()
        .with_field("sides.B.groups.0.count", &n.to_string())
        .unwrap()
}

/// Scenario edits: (path, value).
type Edits = &'static [(&'static str, &'static str)];

/// The variants of the parity battle each system and policy is fought in:
/// (name, edits, fighters per side, battles).
const VARIANTS: &[(&str, Edits, u64, u64)] = &[
    ("plain 2", &[], 2, 30),
    ("plain 9", &[], 9, 12),
    ("plain 60", &[], 60, 2),
    (
        "disruptible, slow B",
        &[
            ("sides.A.groups.0.disruptible", "true"),
            ("sides.B.groups.0.speed_bonus", "-3"),
            ("sides.B.groups.0.weapon", "Sword, Two-Handed"),
        ],
        7,
        10,
    ),
    (
        "rate of fire 3/2 and extra attacks, fast A",
        &[
            (
                "sides.A.groups.0.weapon",
                r#"{"name": "quick", "time_taken": 1, "rate_of_fire": "3/2"}"#,
            ),
            ("sides.A.groups.0.extra_attacks", "1"),
            ("sides.A.groups.0.speed_bonus", "4"),
            ("sides.B.groups.0.disruptible", "true"),
        ],
        6,
        10,
    ),
    (
        "tick and block ratings",
        &[
            ("sides.A.groups.0.initiative_bonus", "2"),
            ("sides.A.groups.0.interval", "3"),
            ("sides.A.groups.0.reflexes", "7"),
            ("sides.A.groups.0.combat_sense", "2"),
            ("sides.B.groups.0.reflexes", "4"),
            ("sides.B.groups.0.disruptible", "true"),
        ],
        6,
        10,
    ),
    ("caps: rounds 3", &[("battle.max_rounds", "3")], 8, 10),
    ("caps: ticks 11", &[("battle.max_ticks", "11")], 8, 10),
    ("caps: actions 25", &[("battle.max_actions", "25")], 8, 10),
];

/// FUDGE opposed striking with one-way strikes.
const ONE_WAY: &str = r#"{"system": "fudge_opposed", "exchange": "one_way"}"#;

/// Every battle of the table: (label, battle, battles).
fn battles() -> Vec<(String, Battle, u64)> {
    let mut out = Vec::new();
    for &(variant, edits, n, battles) in VARIANTS {
        let mut base = parity(n);
        for &(path, value) in edits {
            base = base.with_field(path, value).unwrap();
        }
        for timing in TimingSystem::NAMES {
            for policy in ["random", "most_wounded", "least_engaged"] {
                // FUDGE twice: one-way strikes (the digests pinned before
                // the two-way exchange, unchanged) and the exchange, pinned
                // under keys of their own ("..., random two-way").
                for striking in ["full-contact", ONE_WAY, "fudge-opposed"] {
                    let s = base
                        .with_field("timing", timing)
                        .unwrap()
                        .with_field("battle.targeting", policy)
                        .unwrap()
                        .with_field("striking", striking)
                        .unwrap();
                    let label = match striking {
                        ONE_WAY => format!("{variant} [{timing}, {policy}, fudge one-way]"),
                        "fudge-opposed" => format!("{variant} [{timing}, {policy} two-way, fudge-opposed]"),
                        _ => format!("{variant} [{timing}, {policy}, {striking}]"),
                    };
                    out.push((label, Battle::new(&s).unwrap(), battles));
                }
            }
        }
    }
    out
}

/// The digest of every variant under one timing system and policy (both
/// striking systems).
fn system_digests() -> Vec<(String, u64)> {
    let mut table: Vec<(String, u64)> = Vec::new();
    let mut ws = Workspace::default();
    for (label, battle, battles) in battles() {
        let key = label
            .split_once('[')
            .map(|(_, k)| k.trim_end_matches(']').rsplit_once(',').unwrap().0.to_string())
            .unwrap();
        let at = match table.iter().position(|(k, _)| *k == key) {
            Some(at) => at,
            None => {
                table.push((key, 0xcbf2_9ce4_8422_2325));
                table.len() - 1
            }
        };
        for i in 0..battles {
            let r = crate::without_damage_results(battle.run_in(&mut ws, 21, i, &RunOptions::FULL).unwrap());
            fnv(&mut table[at].1, format!("{r:?}").as_bytes());
        }
    }
    table
}

/// Pinned before any lean round clock: (timing system, policy, digest);
/// the "two-way" keys pinned when FUDGE gained 4.22's exchange (the others,
/// with one-way FUDGE strikes, did not move).
/// Re-pinned once when trace lines gained their `pass` and FUDGE opposed
/// lines their wound penalty: with both taken out of the
/// reports' text, the new engine gave exactly the digests pinned before.
const PINNED: &[(&str, u64)] = &[
    ("simultaneous, random", 0x8f0425ad6304b8b0),
    ("simultaneous, random two-way", 0x4b0c4234aee8c882),
    ("simultaneous, most_wounded", 0xb133b3d22836eec5),
    ("simultaneous, most_wounded two-way", 0xbc3ed7315c95c7d0),
    ("simultaneous, least_engaged", 0x325e3fb4ff4db3df),
    ("simultaneous, least_engaged two-way", 0x305ad04076b53b4a),
    ("simple-rounds, random", 0x0566b20a410ef8c4),
    ("simple-rounds, random two-way", 0xe510be352fbe8f61),
    ("simple-rounds, most_wounded", 0x94be4b02fdab3eb8),
    ("simple-rounds, most_wounded two-way", 0x806720664306d303),
    ("simple-rounds, least_engaged", 0xd3cf45c799ce750d),
    ("simple-rounds, least_engaged two-way", 0x61f63a0884edbe26),
    ("graduated-rounds, random", 0xf3a08a7110284577),
    ("graduated-rounds, random two-way", 0xe16fadbf33bcba19),
    ("graduated-rounds, most_wounded", 0x018d68f66462f4f9),
    ("graduated-rounds, most_wounded two-way", 0x81d1093859e49bec),
    ("graduated-rounds, least_engaged", 0x9182dc10757c1a3e),
    ("graduated-rounds, least_engaged two-way", 0xf70de4c8baf5eadf),
    ("continuous, random", 0xe3bf982c1bcbdf13),
    ("continuous, random two-way", 0xa46be5bf8bbab498),
    ("continuous, most_wounded", 0x5fbf977cc2ac301f),
    ("continuous, most_wounded two-way", 0xa522945d89bae979),
    ("continuous, least_engaged", 0x6fc383b8a5063959),
    ("continuous, least_engaged two-way", 0xbb3db4487cab3b87),
    ("tick-system, random", 0xb6f4d07fd5af4e53),
    ("tick-system, random two-way", 0x810d6a498ea6c84c),
    ("tick-system, most_wounded", 0x89b67c283598b233),
    ("tick-system, most_wounded two-way", 0x4afe9c6d049f1dce),
    ("tick-system, least_engaged", 0xd3345635f0947bfd),
    ("tick-system, least_engaged two-way", 0x9d3b2f46e2dcb50f),
    ("action-blocks, random", 0x3d76e39c908a8d25),
    ("action-blocks, random two-way", 0xf1e7722ac0989a70),
    ("action-blocks, most_wounded", 0x1b1b0ae0ef7d7f2f),
    ("action-blocks, most_wounded two-way", 0xcbf54c1f35934f8b),
    ("action-blocks, least_engaged", 0x818ad096bd469f13),
    ("action-blocks, least_engaged two-way", 0xb1d7740f56eaa25c),
];

#[test]
fn every_system_and_policy_fights_as_pinned() {
    let print = std::env::var_os("SKIRMISH_PRINT_SYSTEMS_DIGESTS").is_some();
    let mut failed = Vec::new();
    for (key, got) in system_digests() {
        if print {
            println!("    (\"{key}\", {got:#018x}),");
        }
        match PINNED.iter().find(|(k, _)| *k == key) {
            Some(&(_, want)) if want == got => {}
            Some(&(_, want)) => failed.push(format!("{key}: {got:#018x}, pinned {want:#018x}")),
            None => failed.push(format!("{key}: not pinned ({got:#018x})")),
        }
    }
    assert!(failed.is_empty(), "seeded results changed:\n{}", failed.join("\n"));
}

/// Battles only the clock comparison fights: rounds that end early and
/// run long, many actions a round, disruption, three sides, the policies
/// the Scheduler keeps (Graduated Rounds that do not extend the round).
fn more_battles() -> Vec<(String, Battle, u64)> {
    let mut out = Vec::new();
    let timings = [
        r#"{"system": "graduated_rounds", "ticks_per_round": 4}"#,
        r#"{"system": "graduated_rounds", "ticks_per_round": 7, "past_end": "spill"}"#,
        r#"{"system": "graduated_rounds", "past_end": "end_of_round"}"#,
        r#"{"system": "graduated_rounds", "ticks_per_round": 5, "past_end": "lose"}"#,
        r#"{"system": "action_blocks", "die": "3d6", "divisor": 4}"#,
        "simple-rounds",
        "simultaneous",
    ];
    for timing in timings {
        for policy in ["random", "most_wounded", "least_engaged"] {
            for striking in ["full-contact", "fudge-opposed"] {
                let s = parity(7)
                    .with_field("timing", timing)
                    .unwrap()
                    .with_field("battle.targeting", policy)
                    .unwrap()
                    .with_field("striking", striking)
                    .unwrap()
                    .with_field(
                        "sides.A.groups.0.weapon",
                        r#"{"name": "quick", "time_taken": 1, "rate_of_fire": "7/3"}"#,
                    )
                    .unwrap()
                    .with_field("sides.A.groups.0.reflexes", "9")
                    .unwrap()
                    .with_field("sides.B.groups.0.disruptible", "true")
                    .unwrap()
                    .with_field("sides.B.groups.0.speed_bonus", "-6")
                    .unwrap()
                    .with_field("sides.B.groups.0.extra_attacks", "2")
                    .unwrap();
                out.push((
                    format!("more [{timing}, {policy}, {striking}]"),
                    Battle::new(&s).unwrap(),
                    8,
                ));
            }
        }
    }
    out
}

/// Each battle's own clock (lean where the system has one) against the
/// core Scheduler's, report by report, traces and casualties included.
#[test]
fn lean_clocks_fight_exactly_like_the_scheduler() {
    let mut ws = Workspace::default();
    for (label, battle, battles) in battles().into_iter().chain(more_battles()) {
        for i in 0..battles.min(8) {
            let lean = battle
                .run_with(&mut ws, &mut SeededRolls::for_stream(5, i), &RunOptions::FULL, true)
                .unwrap();
            let scheduler = battle
                .run_with(&mut ws, &mut SeededRolls::for_stream(5, i), &RunOptions::FULL, false)
                .unwrap();
            assert_eq!(lean, scheduler, "{label} #{i}");
        }
    }
}

/// Tick System options the comparison fights under: the defaults, short
/// and long actions, small dice (many fighters on one tick), Fudge dice
/// (initiative of 0 or less), long rounds, and the options these battles
/// never read (free actions, Acquire: nobody defends as a free action,
/// prepares or shoots).
const TICK_TIMINGS: &[&str] = &[
    "tick-system",
    r#"{"system": "tick_system", "action_ticks": 1}"#,
    r#"{"system": "tick_system", "action_ticks": 5, "initiative_die": "2d6"}"#,
    r#"{"system": "tick_system", "initiative_die": "4dF"}"#,
    r#"{"system": "tick_system", "initiative_die": "1d4", "action_ticks": 1}"#,
    r#"{"system": "tick_system", "initiative_die": "1d100", "action_ticks": 3, "free_action_ticks": 0, "acquire_ticks": 9, "prepare_defense_bonus": 1}"#,
];

/// Tick System variants of the parity battle: (name, edits, fighters per
/// side, battles).
const TICK_VARIANTS: &[(&str, Edits, u64, u64)] = &[
    ("tick plain", &[], 5, 3),
    (
        "tick intervals, bonuses, disruption",
        &[
            ("sides.A.groups.0.interval", "3"),
            ("sides.A.groups.0.initiative_bonus", "2"),
            ("sides.B.groups.0.initiative_bonus", "-1"),
            ("sides.A.groups.0.disruptible", "true"),
            ("sides.B.groups.0.disruptible", "true"),
        ],
        7,
        3,
    ),
    (
        "tick initiative below 1, long intervals",
        &[
            ("sides.A.groups.0.interval", "7"),
            ("sides.B.groups.0.interval", "2"),
            ("sides.B.groups.0.initiative_bonus", "-30"),
            ("sides.A.groups.0.disruptible", "true"),
        ],
        6,
        3,
    ),
    (
        "tick long rounds (past the fine ring)",
        &[
            ("sides.A.groups.0.initiative_bonus", "300"),
            ("sides.B.groups.0.interval", "40"),
            ("sides.B.groups.0.disruptible", "true"),
        ],
        4,
        2,
    ),
    (
        "tick very long rounds (the far heap)",
        &[
            ("sides.A.groups.0.initiative_bonus", "70000"),
            ("sides.A.groups.0.interval", "20000"),
            ("sides.B.groups.0.interval", "1"),
            ("sides.A.groups.0.disruptible", "true"),
        ],
        3,
        2,
    ),
    (
        "tick speed, Time Taken, rate of fire and extra attacks (unread)",
        &[
            (
                "sides.A.groups.0.weapon",
                r#"{"name": "quick", "time_taken": 1, "rate_of_fire": "3/2"}"#,
            ),
            ("sides.A.groups.0.extra_attacks", "2"),
            ("sides.A.groups.0.speed_bonus", "4"),
            ("sides.B.groups.0.weapon", "Sword, Two-Handed"),
            ("sides.B.groups.0.speed_bonus", "-3"),
            ("sides.B.groups.0.disruptible", "true"),
        ],
        6,
        3,
    ),
    (
        "tick long battle",
        &[
            ("sides.A.groups.0.hit_points", "30"),
            ("sides.B.groups.0.hit_points", "35"),
            ("sides.A.groups.0.interval", "1"),
            ("sides.A.groups.0.disruptible", "true"),
            ("sides.B.groups.0.disruptible", "true"),
        ],
        8,
        2,
    ),
    (
        "tick caps",
        &[
            ("battle.max_rounds", "2"),
            ("battle.max_ticks", "30"),
            ("battle.max_actions", "17"),
            ("sides.B.groups.0.disruptible", "true"),
        ],
        8,
        3,
    ),
];

/// The Tick System battles only the clock comparison fights: every option
/// of [`TICK_TIMINGS`] x [`TICK_VARIANTS`] x policy x striking, the goblin
/// ambush (groups with their own ratings, FUDGE wounds), and crowds where
/// many fighters act on one tick.
fn tick_battles() -> Vec<(String, Battle, u64)> {
    let mut out = Vec::new();
    for timing in TICK_TIMINGS {
        let mut bases: Vec<(String, Scenario, u64)> = Vec::new();
        for &(variant, edits, n, battles) in TICK_VARIANTS {
            let mut base = parity(n);
            for &(path, value) in edits {
                base = base.with_field(path, value).unwrap();
            }
            bases.push((variant.to_string(), base, battles));
        }
        bases.push(("goblin ambush".into(), Scenario::builtin("goblin-ambush").unwrap(), 4));
        for (variant, base, battles) in bases {
            for policy in ["random", "most_wounded", "least_engaged"] {
                for striking in ["full-contact", "fudge-opposed"] {
                    let s = base
                        .clone()
                        .with_field("timing", timing)
                        .unwrap()
                        .with_field("battle.targeting", policy)
                        .unwrap()
                        .with_field("striking", striking)
                        .unwrap();
                    out.push((
                        format!("{variant} [{timing}, {policy}, {striking}]"),
                        Battle::new(&s).unwrap(),
                        battles,
                    ));
                }
            }
        }
    }
    for (timing, n) in [
        (
            r#"{"system": "tick_system", "initiative_die": "1d4", "action_ticks": 1}"#,
            150,
        ),
        ("tick-system", 120),
    ] {
        let s = parity(n)
            .with_field("timing", timing)
            .unwrap()
            .with_field("sides.B.groups.0.disruptible", "true")
            .unwrap();
        out.push((format!("tick crowd {n} [{timing}]"), Battle::new(&s).unwrap(), 1));
    }
    out
}

/// The Tick System's lean clock against the core Scheduler's, report by
/// report (errors included), over [`tick_battles`].
#[test]
fn tick_clock_fights_exactly_like_the_scheduler() {
    let mut ws = Workspace::default();
    let mut fought = 0;
    for (label, battle, battles) in tick_battles() {
        for i in 0..battles {
            let lean = battle.run_with(&mut ws, &mut SeededRolls::for_stream(9, i), &RunOptions::FULL, true);
            let scheduler = battle.run_with(&mut ws, &mut SeededRolls::for_stream(9, i), &RunOptions::FULL, false);
            assert!(scheduler.is_ok(), "{label} #{i}: {scheduler:?}");
            assert_eq!(lean, scheduler, "{label} #{i}");
            fought += 1;
        }
    }
    assert!(fought > 500, "{fought} battles");
}
