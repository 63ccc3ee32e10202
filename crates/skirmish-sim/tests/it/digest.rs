//! Value stability at scale: digests of many seeded battles, across every
//! path through the engine (the fast paths for two-sided battles, Full
//! Contact and FUDGE opposed, the lean clock, the Scheduler clock), pinned
//! so that an optimisation cannot change a single result unnoticed. Like
//! `golden_battles`: a change here is a breaking change, not a test to
//! update.

use skirmish_core::dice::SeededRolls;
use skirmish_sim::battle::{Battle, RunOptions, Workspace};
use skirmish_sim::scenario::Scenario;

/// FUDGE opposed striking with one-way strikes (the rule before 4.22's
/// exchange): its digests are the ones every FUDGE battle had before the
/// exchange became the default.
const ONE_WAY: &str = r#"{"system": "fudge_opposed", "exchange": "one_way"}"#;

/// FNV-1a over the debug form of every report: stable across runs and
/// platforms (the reports hold only integers and strings).
fn digest(battle: &Battle, battles: u64, options: &RunOptions) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut ws = Workspace::default();
    for i in 0..battles {
        let r = battle.run_in(&mut ws, 2026, i, options).unwrap();
        for b in format!("{r:?}").bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}

fn parity(n: u64) -> Scenario {
    Scenario::builtin("parity")
        .unwrap()
        .with_field("sides.A.groups.0.count", &n.to_string())
        .unwrap()
        .with_field("sides.B.groups.0.count", &n.to_string())
        .unwrap()
}

/// Hit points with wound penalties, margin damage, damage factors, a
/// disruptible side, speed bonuses, a dead-at below down.
const WOUNDED: &str = r#"
name = "wounded"
timing = "continuous"
striking = { system = "full_contact", guaranteed = true, amazing = true, amazing_strike_damage = 1 }
damage = { model = "hit_points", max_hp = 6, dead_at = -2, penalties = [{ hp_at_most = 3, penalty = -1 }, { hp_at_most = 1, penalty = -2 }] }
[[sides]]
name = "casters"
groups = [
  { name = "mage", count = 4, strike_rating = 6, defense_rating = 5, weapon = { time_taken = 1 }, disruptible = true, offense = 1, speed_bonus = 2 },
  { name = "guard", count = 3, strike_rating = 8, defense_rating = 7, weapon = "Sword, Long", toughness = 1, hit_points = 8 },
]
[[sides]]
name = "raiders"
groups = [{ name = "raider", count = 9, strike_rating = 7, defense_rating = 5, weapon = "Axe, Battle", offense = 2, toughness = -1 }]
"#;

/// Three sides (the general targeting code).
const MELEE: &str = r#"
name = "melee"
timing = "continuous"
damage = { model = "hit_points", max_hp = 3 }
[[sides]]
name = "a"
groups = [{ name = "a", count = 5, strike_rating = 7, defense_rating = 6, weapon = "Dagger" }]
[[sides]]
name = "b"
groups = [{ name = "b", count = 4, strike_rating = 7, defense_rating = 6, weapon = "Spear" }]
[[sides]]
name = "c"
groups = [{ name = "c", count = 6, strike_rating = 6, defense_rating = 6, weapon = { time_taken = 3 } }]
"#;

fn cases() -> Vec<(String, Scenario, u64)> {
    let mut out = Vec::new();
    for n in [1u64, 2, 5, 10, 37] {
        out.push((format!("parity {n}"), parity(n), 100));
    }
    let p = parity(10);
    for (path, value) in [
        (
            "striking",
            r#"{"system": "full_contact", "guaranteed": true, "amazing": true, "amazing_strike_damage": 2}"#,
        ),
        ("battle.max_actions", "60"),
        ("battle.max_ticks", "9"),
        ("battle.max_rounds", "1"),
        ("sides.A.groups.0.disruptible", "true"),
        ("sides.B.groups.0.speed_bonus", "-3"),
        ("sides.A.groups.0.weapon", "Sword, Two-Handed"),
        ("damage", "fudge-wounds"),
        ("battle.targeting", "most_wounded"),
        ("battle.targeting", "least_engaged"),
        ("timing", "graduated"),
        ("striking", "fudge-opposed"),
        ("striking", ONE_WAY),
    ] {
        out.push((
            format!("parity 10 [{path}={value}]"),
            p.with_field(path, value).unwrap(),
            60,
        ));
    }
    let ambush = Scenario::builtin("goblin-ambush").unwrap();
    out.push(("goblin-ambush".into(), ambush.clone(), 200));
    for timing in skirmish_core::timing::TimingSystem::NAMES {
        for striking in ["full-contact", "fudge-opposed", ONE_WAY] {
            let s = ambush
                .with_field("timing", timing)
                .unwrap()
                .with_field("striking", striking)
                .unwrap();
            let label = if striking == ONE_WAY { "fudge one-way" } else { striking };
            out.push((format!("goblin-ambush [{timing}, {label}]"), s, 20));
        }
    }
    let horde = Scenario::builtin("horde")
        .unwrap()
        .with_field("sides.goblins.groups.0.count", "200")
        .unwrap()
        .with_field("sides.knights.groups.0.count", "4")
        .unwrap();
    out.push(("horde 200/4".into(), horde, 20));
    let wall = Scenario::builtin("shield-wall")
        .unwrap()
        .with_field("sides.0.groups.0.count", "30")
        .unwrap()
        .with_field("sides.1.groups.0.count", "30")
        .unwrap();
    out.push(("shield-wall 30".into(), wall.clone(), 10));
    out.push((
        "shield-wall 30 [fudge one-way]".into(),
        wall.with_field("striking", ONE_WAY).unwrap(),
        10,
    ));
    out.push((
        "shield-wall 30 [continuous, full-contact]".into(),
        wall.with_field("timing", "continuous")
            .unwrap()
            .with_field("striking", "full-contact")
            .unwrap(),
        10,
    ));
    out.push(("wounded".into(), toml::from_str(WOUNDED).unwrap(), 200));
    out.push(("melee".into(), toml::from_str(MELEE).unwrap(), 100));
    out.push(("many groups".into(), many_groups(), 100));
    out
}

#[test]
fn many_groups_take_the_fast_path() {
    assert!(Battle::new(&many_groups()).unwrap().has_fast_path());
}

/// A fighter's record keeps its wound penalty in 16 bits: a model whose
/// penalties go below that keeps the general loop; one at the floor takes
/// the fast path and fights exactly as the general loop does.
#[test]
fn wound_penalties_beyond_16_bits_keep_the_general_loop() {
    let at = |penalty: i32| {
        let s: Scenario = toml::from_str(&WOUNDED.replace("penalty = -2", &format!("penalty = {penalty}"))).unwrap();
        Battle::new(&s).unwrap()
    };
    assert!(!at(-32_769).has_fast_path());
    assert!(!at(i32::MIN).has_fast_path());
    let b = at(-32_768);
    assert!(b.has_fast_path());
    fast_is_general(&b, 3, "");
}

/// Battles 0..40 of `seed`: `run_in` (the fast path, where `b` has it)
/// reports exactly what the general loop does, casualties included.
fn fast_is_general(b: &Battle, seed: u64, label: &str) {
    let options = RunOptions {
        trace: false,
        casualties: true,
    };
    let mut ws = Workspace::default();
    for i in 0..40 {
        let fast = b.run_in(&mut ws, seed, i, &options).unwrap();
        let general = b
            .run_with(&mut ws, &mut SeededRolls::for_stream(seed, i), &options, true)
            .unwrap();
        assert_eq!(fast, general, "{label} battle {i}");
    }
}

/// The fast path keeps a FUDGE wound track as its row in a table of every
/// state (`fast/wounds.rs`): a track with too many states for it keeps the
/// general loop; others, with killing thresholds and uneven boxes, take
/// the fast path under every timing system and fight exactly as the
/// general loop does.
#[test]
fn wound_tracks_too_big_for_the_tables_keep_the_general_loop() {
    let with = |damage: &str| parity(6).with_field("damage", damage).unwrap();
    let big = with(
        r#"{"model": "fudge_wounds", "boxes": {"scratch": 40, "hurt": 10, "very_hurt": 1, "incapacitated": 1, "near_death": 3}}"#,
    );
    assert!(!Battle::new(&big).unwrap().has_fast_path());
    let odd = with(
        r#"{"model": "fudge_wounds", "thresholds": {"scratch": 1, "hurt": 2, "very_hurt": 4, "incapacitated": 5, "near_death": 6, "dead": 8}, "boxes": {"scratch": 2, "hurt": 2, "very_hurt": 1, "incapacitated": 2, "near_death": 1}}"#,
    );
    for timing in TIMINGS {
        let s = odd.with_field("timing", &json(timing)).unwrap();
        let b = Battle::new(&s).unwrap();
        assert_eq!(b.has_fast_path(), lean(timing), "{timing}");
        fast_is_general(&b, 5, timing);
    }
}

/// FUDGE opposed striking takes the fast path (`fast/opposed.rs`) under
/// every timing system with a lean clock, Continuous's included, and every
/// policy; a system without one (Graduated Rounds that spill, as the
/// shield wall's) takes the general loop.
#[test]
fn fudge_opposed_battles_take_the_fast_path() {
    for timing in TIMINGS {
        for policy in ["random", "most_wounded", "least_engaged"] {
            let s = parity(10)
                .with_field("striking", "fudge-opposed")
                .unwrap()
                .with_field("timing", &json(timing))
                .unwrap()
                .with_field("battle.targeting", policy)
                .unwrap();
            let b = Battle::new(&s).unwrap();
            assert_eq!(b.has_fast_path(), lean(timing), "{timing} {policy}");
        }
    }
    let wall = Scenario::builtin("shield-wall").unwrap();
    assert!(!Battle::new(&wall).unwrap().has_fast_path());
    let wall = wall.with_field("timing", "continuous").unwrap();
    assert!(Battle::new(&wall).unwrap().has_fast_path());
    // Under Continuous a battle whose ticks do not fit the ring takes the
    // lean clock instead (`fast/opposed.rs`), with the same results.
    let long = parity(6)
        .with_field("striking", "fudge-opposed")
        .unwrap()
        .with_field("battle.max_ticks", "4294967000")
        .unwrap()
        .with_field("sides.B.groups.0.disruptible", "true")
        .unwrap();
    let b = Battle::new(&long).unwrap();
    assert!(b.has_fast_path());
    let options = RunOptions {
        trace: false,
        casualties: true,
    };
    let mut ws = Workspace::default();
    for i in 0..20 {
        let fast = b.run_in(&mut ws, 5, i, &options).unwrap();
        let general = b
            .run_with(&mut ws, &mut SeededRolls::for_stream(5, i), &options, true)
            .unwrap();
        assert_eq!(fast, general, "#{i}");
    }
}

/// Under Continuous the FUDGE ring clock and the Full Contact loop, and
/// under Graduated Rounds the lean clock's follow-ups, keep a pending
/// action's epoch in 10 bits (`fast/opposed/ring.rs`, `fast/continuous.rs`,
/// `clock/graduated.rs`): a slow fighter that
/// loses its action to a hit nearly every tick leaves hundreds of stale
/// entries behind, each hundreds of epochs behind its fighter's when it
/// comes up, and still acts exactly when the general loop's clock (the
/// core queue, and under Graduated Rounds the Scheduler) says, whatever
/// its delay and however often it is hit.
#[test]
fn a_slow_fighter_disrupted_tick_after_tick_keeps_one_pending_action() {
    // Time Taken, speed bonus (the slowest a ring delay may be: 1,014),
    // the foes and their skill. Five Good foes hit the slow fighter at
    // all but about one tick in 250 (it loses 2,989 actions in 3,000
    // ticks), so an entry of delay `d` comes up about `d - 1` epochs
    // behind: Time Taken 259, 515 and 771 put that at 256, 512 and 768,
    // where epochs of 8 or 9 bits wrap onto a stale entry (each fails
    // this test).
    for (time_taken, bonus, foes, skill) in [
        (1000, -14, 6, "Great"),
        (1000, 0, 2, "Good"),
        (771, 0, 5, "Good"),
        (700, 0, 1, "Superb"),
        (515, 0, 5, "Good"),
        (400, 0, 3, "Fair"),
        (259, 0, 5, "Good"),
    ] {
        // Under Graduated Rounds the foes strike 100 times a round (the
        // most a Rate of Fire allows), their first 200 ticks or so of each
        // round the slow fighter's pending one extends, and three slower
        // ones keep follow-ups pending through them (with none pending the
        // clock empties its ring, stale entries and all).
        let steady =
            r#", { name = "steady", count = 3, skill = "Poor", weapon = { time_taken = 6, rate_of_fire = "100/1" } }"#;
        // Full Contact: the foes' Strike Rating a rung of the ladder per
        // rung of skill, against the slow fighter's Defense Rating of 5.
        let rating = match skill {
            "Superb" => 10,
            "Great" => 9,
            "Good" => 8,
            "Fair" => 7,
            _ => 6,
        };
        for (timing, striking, shots, more, lost) in [
            (r#""continuous""#, "fudge-opposed", "", "", 1000),
            (r#""continuous""#, "full-contact", "", "", 1000),
            (
                r#"{ system = "graduated_rounds", ticks_per_round = 20 }"#,
                "fudge-opposed",
                r#", rate_of_fire = "100/1""#,
                steady,
                300,
            ),
        ] {
            let text = format!(
                r#"
            name = "slow"
            timing = {timing}
            striking = "{striking}"
            damage = {{ model = "hit_points", max_hp = 1000000, damage = "margin" }}
            [battle]
            max_ticks = 3000
            [[sides]]
            name = "a"
            groups = [{{ name = "slow", count = 1, skill = "Fair", strike_rating = 5, defense_rating = 5, weapon = {{ time_taken = {time_taken} }}, speed_bonus = {bonus}, disruptible = true }}]
            [[sides]]
            name = "b"
            groups = [{{ name = "quick", count = {foes}, skill = "{skill}", strike_rating = {rating}, defense_rating = 6, weapon = {{ time_taken = 1{shots} }} }}{more}]
            "#
            );
            let s: Scenario = toml::from_str(&text).unwrap();
            let b = Battle::new(&s).unwrap();
            assert!(b.has_fast_path());
            let label = format!("{timing}, {striking}: TT {time_taken} - {bonus}, {foes} foes of skill {skill}");
            fast_is_general(&b, 11, &label);
            let options = RunOptions {
                trace: false,
                casualties: false,
            };
            let mut ws = Workspace::default();
            let report = b.run_in(&mut ws, 11, 0, &options).unwrap();
            assert!(report.summary.disruptions > lost, "{label}: {:?}", report.summary);
            // And the Scheduler (not the lean clock) agrees.
            let scheduler = b
                .run_with(&mut ws, &mut SeededRolls::for_stream(11, 0), &options, false)
                .unwrap();
            assert_eq!(report, scheduler, "{label}");
        }
    }
}

/// A timing system's TOML value as the JSON `--set` takes.
fn json(timing: &str) -> String {
    let t: toml::Table = toml::from_str(&format!("t = {timing}")).unwrap();
    serde_json::to_string(&t["t"]).unwrap()
}

/// Nine groups a side, more than the fast path tables whole strikes for:
/// its plain path without penalties.
fn many_groups() -> Scenario {
    let side = |name: &str, sr: i32| {
        let groups: Vec<String> = (0..9)
            .map(|g| {
                format!(
                    r#"{{ name = "{name}{g}", count = {}, strike_rating = {}, defense_rating = {}, weapon = {{ time_taken = {} }}, hit_points = {} }}"#,
                    1 + g % 3,
                    sr + g % 2,
                    5 + g % 3,
                    2 + g % 4,
                    3 + g % 2
                )
            })
            .collect();
        format!("[[sides]]\nname = \"{name}\"\ngroups = [{}]\n", groups.join(", "))
    };
    let text = format!(
        "name = \"many\"\ntiming = \"continuous\"\ndamage = {{ model = \"hit_points\", max_hp = 4 }}\n{}{}",
        side("a", 6),
        side("b", 7)
    );
    toml::from_str(&text).unwrap()
}

#[test]
fn digests_of_many_seeded_battles() {
    let options = RunOptions {
        trace: false,
        casualties: true,
    };
    let got: Vec<String> = cases()
        .into_iter()
        .map(|(name, s, battles)| {
            let b = Battle::new(&s).unwrap();
            format!("{name}: {:016x}", digest(&b, battles, &options))
        })
        .collect();
    let want = vec![
        "parity 1: b4238fb14d4ae67e",
        "parity 2: 261b48802bc27f71",
        "parity 5: 7b8e20eeffc4588d",
        "parity 10: cd70322ab91e0a3c",
        "parity 37: 9c43de16c9a93aa7",
        r#"parity 10 [striking={"system": "full_contact", "guaranteed": true, "amazing": true, "amazing_strike_damage": 2}]: 56429c1e7cde885f"#,
        "parity 10 [battle.max_actions=60]: 298d5e6c3ad68dce",
        "parity 10 [battle.max_ticks=9]: 7e28df6f4ad40d8f",
        "parity 10 [battle.max_rounds=1]: dc8e2771d98b2914",
        "parity 10 [sides.A.groups.0.disruptible=true]: 6849576faf928f31",
        "parity 10 [sides.B.groups.0.speed_bonus=-3]: 21e426d8a658643c",
        "parity 10 [sides.A.groups.0.weapon=Sword, Two-Handed]: ae13c75d04b08420",
        "parity 10 [damage=fudge-wounds]: e2c4ea75f187ffd1",
        "parity 10 [battle.targeting=most_wounded]: c8761843579d4df7",
        "parity 10 [battle.targeting=least_engaged]: fe27d76859917918",
        "parity 10 [timing=graduated]: d30cb4d980b7d7ff",
        "parity 10 [striking=fudge-opposed]: 0afdfd8ece6ad1d7",
        // One-way FUDGE strikes: the digests of every FUDGE battle before the
        // two-way exchange (docs/rules.md §2.2.2), unchanged.
        r#"parity 10 [striking={"system": "fudge_opposed", "exchange": "one_way"}]: cc1e511cb4a32e73"#,
        "goblin-ambush: f619c5f083dce903",
        "goblin-ambush [simultaneous, full-contact]: 9c596a30741aa404",
        "goblin-ambush [simultaneous, fudge-opposed]: 73763ec36da1afdc",
        "goblin-ambush [simultaneous, fudge one-way]: 37da6afe3e271f9c",
        "goblin-ambush [simple-rounds, full-contact]: ed170b8d942ac658",
        "goblin-ambush [simple-rounds, fudge-opposed]: fe4052fb2bce4333",
        "goblin-ambush [simple-rounds, fudge one-way]: d8f30aa097f5d2b4",
        "goblin-ambush [graduated-rounds, full-contact]: 1d498c2aabf6b676",
        "goblin-ambush [graduated-rounds, fudge-opposed]: 1f8eb6fdaf8c20d6",
        "goblin-ambush [graduated-rounds, fudge one-way]: f05efe07a3f738a5",
        "goblin-ambush [continuous, full-contact]: de2835a523d87d88",
        "goblin-ambush [continuous, fudge-opposed]: 64f05a4c643bb509",
        "goblin-ambush [continuous, fudge one-way]: 6ccd54c5e166d1b5",
        "goblin-ambush [tick-system, full-contact]: c28c195890f36e61",
        "goblin-ambush [tick-system, fudge-opposed]: dc017e3ebaf7e145",
        "goblin-ambush [tick-system, fudge one-way]: a1465546893008d8",
        "goblin-ambush [action-blocks, full-contact]: d3f1ed38b447d32e",
        "goblin-ambush [action-blocks, fudge-opposed]: 7ba06c581c16b245",
        "goblin-ambush [action-blocks, fudge one-way]: 67fc4b50f2718506",
        "horde 200/4: 04f1e0265a12fb6c",
        "shield-wall 30: 990d79383520156f",
        "shield-wall 30 [fudge one-way]: 1744f7f76757509d",
        "shield-wall 30 [continuous, full-contact]: e8cc2c352053513e",
        "wounded: e19a50e1ab399ced",
        "melee: 63c3331f66b09c87",
        "many groups: c6b4343fff67948c",
    ];
    assert_eq!(got, want);
}

/// The fast path (`run_in` without a trace) fights every battle exactly as
/// the general loop does with either clock (`run_with`), casualties included.
#[test]
fn the_fast_path_fights_exactly_like_the_general_loop() {
    let options = RunOptions {
        trace: false,
        casualties: true,
    };
    let mut fast_cases = 0;
    for (name, s, battles) in cases() {
        let b = Battle::new(&s).unwrap();
        if !b.has_fast_path() {
            continue;
        }
        fast_cases += 1;
        let mut ws = Workspace::default();
        for i in 0..battles.min(60) {
            let fast = b.run_in(&mut ws, 7, i, &options).unwrap();
            assert_eq!(fast.summary, b.run_summary(&mut ws, 7, i).unwrap(), "{name} #{i}");
            for lean in [true, false] {
                let general = b
                    .run_with(&mut ws, &mut SeededRolls::for_stream(7, i), &options, lean)
                    .unwrap();
                assert_eq!(fast, general, "{name} #{i}, lean clock: {lean}");
            }
        }
    }
    assert!(fast_cases >= 15, "{fast_cases} cases take the fast path");
}

use proptest::prelude::*;

/// The timing systems the random scenarios draw from: every system, with
/// options that change what its clock does.
const TIMINGS: [&str; 13] = [
    r#""continuous""#,
    r#"{ system = "continuous", lap = 4 }"#,
    r#""simultaneous""#,
    r#""simple-rounds""#,
    r#""graduated-rounds""#,
    r#"{ system = "graduated_rounds", ticks_per_round = 4 }"#,
    r#"{ system = "graduated_rounds", ticks_per_round = 6, past_end = "spill" }"#,
    r#""action-blocks""#,
    r#"{ system = "action_blocks", die = "3d6", divisor = 4 }"#,
    r#""tick-system""#,
    r#"{ system = "tick_system", initiative_die = "1d6", action_ticks = 3 }"#,
    r#"{ system = "graduated_rounds", past_end = "lose" }"#,
    r#"{ system = "action_blocks", die = "1d6", divisor = 2 }"#,
];

/// Whether the timing system runs on a lean clock (so a two-sided battle
/// takes the fast path, whatever its striking and targeting).
fn lean(timing: &str) -> bool {
    !timing.contains("spill") && !timing.contains("lose")
}

/// A random two-sided scenario under any timing system and targeting
/// policy, Full Contact or FUDGE opposed striking:
/// ratings far apart (beyond the fast path's outcome table) or close, every
/// option, both damage models, wound penalties, dead-at, disruption, Rate
/// of Fire and extra attacks, caps; under FUDGE, every option (minimum to
/// hit, the multi-foe penalty per foe, group rolls, the exchange rule), a
/// reach of 1 to 4 or 50, skills with plus-levels, the lone-fighter rule
/// and the sweeping blow, and every group's tactics (stance, shield, aim,
/// position, Scale, NPC results, postures, concentrating).
#[allow(clippy::too_many_arguments, reason = "proptest inputs")]
fn random_scenario(
    timing: &str,
    policy: &str,
    counts: (u8, u8, u8),
    ratings: [i16; 4],
    factors: [i8; 3],
    speeds: [i8; 3],
    options: (bool, bool, i8),
    hit_points: (bool, u8, i8, bool),
    disruptible: bool,
    caps: (u16, u32, u8),
    shots: (u8, u8),
    fudge: Fudge,
    tactics: [u16; 3],
) -> Scenario {
    let (opposed, minimum, multi_foe, group_roll, reach, skills) = fudge;
    let striking = if opposed {
        let minimum = ["Terrible", "Poor", "Mediocre", "Fair", "Good"][usize::from(minimum % 5)];
        // The per-foe penalty as a number, or as the bool older files give.
        let multi_foe = ["true", "false", "0", "1", "2", "3"][usize::from(multi_foe % 6)];
        let exchange = ["two_way", "one_way"][usize::from(tactics[0] >> 15)];
        // FUDGE 4.34's lone fighter, on or off, and the sweeping blow.
        let lone = tactics[1] >> 15 == 0;
        let sweeping = ["off", "minus_one_per_foe", "minus_two_per_foe", "off"][usize::from(tactics[2] >> 14)];
        format!(
            r#"{{ system = "fudge_opposed", minimum_to_hit = "{minimum}", multi_foe_penalty = {multi_foe}, group_roll = {group_roll}, exchange = "{exchange}", lone_fighter = {lone}, sweeping_blow = "{sweeping}" }}"#
        )
    } else {
        format!(
            r#"{{ system = "full_contact", guaranteed = {}, amazing = {}, amazing_strike_damage = {} }}"#,
            options.0, options.1, options.2
        )
    };
    let reach = if reach % 5 == 4 { 50 } else { 1 + reach % 5 };
    let skill = |k: u8| {
        [
            "Poor",
            "Mediocre",
            "Fair",
            "Fair+",
            "Good",
            "Good+",
            "Great",
            "Mediocre+",
        ][usize::from(k % 8)]
    };
    // None, several a round, several over rounds, one every other round
    // (no action at all in some rounds).
    let rate_of_fire = [
        "",
        r#", rate_of_fire = "2/1""#,
        r#", rate_of_fire = "3/2""#,
        r#", rate_of_fire = "1/2""#,
    ][usize::from(shots.0 % 4)];
    let damage = if hit_points.0 {
        let penalties = if hit_points.3 {
            ", penalties = [{ hp_at_most = 2, penalty = -1 }, { hp_at_most = 1, penalty = -3 }]"
        } else {
            ""
        };
        format!(
            r#"{{ model = "hit_points", max_hp = {}, dead_at = {}, damage = "margin"{penalties} }}"#,
            3 + hit_points.1 % 5,
            -i32::from(hit_points.2.unsigned_abs() % 4)
        )
    } else {
        r#""fudge-wounds""#.to_string()
    };
    // FUDGE 4.31-4.33 per group: stance, shield, aim, position, Scale, NPC
    // results (all read by nobody under Full Contact).
    let tactics = tactics.map(|t| {
        let t = usize::from(t);
        let stance = ["normal", "all_out_offense", "all_out_defense"][t % 3];
        let shield = [
            "",
            r#", shield = "small""#,
            r#", shield = "medium""#,
            r#", shield = "large""#,
            r#", shield = { size = "large", trained = false, in_shield_wall = true }"#,
        ][t / 3 % 5];
        let aim = ["anywhere", "small_part_needing_good", "small_part_needing_great"][t / 15 % 3];
        let position = ["even", "worse", "much_worse"][t / 45 % 3];
        let scale = [0, 0, 1, -1, 3, 9][t / 135 % 6];
        let npc = t / 810 % 4 == 0;
        // A posture (with a normal stance only: postures replace stances).
        let posture = if stance == "normal" {
            [
                "",
                ", posture = 2",
                ", posture = -1",
                r#", posture = { "-2" = 0.25, "0" = 0.5, "2" = 0.25 }"#,
            ][t / 3240 % 4]
        } else {
            ""
        };
        // FUDGE 4.34: beset, fights one foe and ignores the others.
        let concentrate = t / 12960 % 2 == 1;
        format!(
            r#", stance = "{stance}"{shield}, aim = "{aim}", position = "{position}", scale = {scale}, npc_result = {npc}{posture}, concentrate = {concentrate}"#
        )
    });
    let text = format!(
        r#"
        name = "random"
        timing = {timing}
        striking = {striking}
        damage = {damage}
        [battle]
        targeting = "{policy}"
        max_attackers_per_target = {reach}
        max_actions = {}
        max_ticks = {}
        max_rounds = {}
        [[sides]]
        name = "a"
        groups = [
          {{ name = "a1", count = {}, strike_rating = {}, defense_rating = {}, offense = {}, toughness = {}, weapon = {{ time_taken = 3{rate_of_fire} }}, speed_bonus = {}, disruptible = {disruptible}, extra_attacks = {}, skill = "{}"{} }},
          {{ name = "a2", count = {}, strike_rating = {}, defense_rating = 6, weapon = {}, speed_bonus = {}, skill = "{}"{} }},
        ]
        [[sides]]
        name = "b"
        groups = [{{ name = "b", count = {}, strike_rating = 7, defense_rating = {}, toughness = {}, weapon = {{ time_taken = 5 }}, speed_bonus = {}, skill = "{}"{} }}]
        "#,
        1 + u32::from(caps.0),
        1 + caps.1 % 400,
        1 + caps.2 % 40,
        1 + counts.0 % 12,
        ratings[0],
        ratings[1],
        factors[0] % 4,
        factors[1] % 4,
        speeds[0] % 6,
        shots.1 % 3,
        skill(skills[0]),
        tactics[0],
        1 + counts.1 % 5,
        ratings[2],
        // Two shots a round, one, one slow one.
        [r#""Dagger""#, r#""Sword, Two-Handed""#, "{ time_taken = 7 }"][usize::from(shots.1 / 3 % 3)],
        speeds[1] % 6,
        skill(skills[1]),
        tactics[1],
        1 + counts.2 % 15,
        ratings[3],
        factors[2] % 4,
        speeds[2] % 6,
        skill(skills[2]),
        tactics[2],
    );
    toml::from_str(&text).unwrap()
}

/// FUDGE opposed striking or Full Contact, and under FUDGE: the minimum to
/// hit, the multi-foe penalty, group rolls, the reach, the three groups'
/// skills.
type Fudge = (bool, u8, u8, bool, u8, [u8; 3]);

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// Random scenarios under every timing system, Full Contact and FUDGE
    /// opposed: the fast path and the general loop (on the lean clock and
    /// on the Scheduler) agree report for report.
    #[test]
    fn the_fast_path_agrees_on_random_scenarios(
        timing in 0..TIMINGS.len(),
        policy in prop::sample::select(&["random", "most_wounded", "least_engaged"][..]),
        counts in any::<(u8, u8, u8)>(),
        ratings in prop::array::uniform4(prop_oneof![0i16..=14, -40i16..=60]),
        factors in any::<[i8; 3]>(),
        speeds in any::<[i8; 3]>(),
        options in any::<(bool, bool, i8)>(),
        hit_points in any::<(bool, u8, i8, bool)>(),
        disruptible in any::<bool>(),
        caps in any::<(u16, u32, u8)>(),
        shots in any::<(u8, u8)>(),
        (seed, fudge, tactics) in any::<(u64, Fudge, [u16; 3])>(),
    ) {
        let timing = TIMINGS[timing];
        let s = random_scenario(timing, policy, counts, ratings, factors, speeds, options, hit_points, disruptible, caps, shots, fudge, tactics);
        let b = Battle::new(&s).unwrap();
        if lean(timing) {
            prop_assert!(b.has_fast_path(), "{} {} has no fast path", timing, policy);
        }
        let options = RunOptions { trace: false, casualties: true };
        let mut ws = Workspace::default();
        for i in 0..4 {
            let fast = b.run_in(&mut ws, seed, i, &options).unwrap();
            for lean in [true, false] {
                let general = b.run_with(&mut ws, &mut SeededRolls::for_stream(seed, i), &options, lean).unwrap();
                prop_assert_eq!(&fast, &general, "{} {} battle {}, lean clock: {}", timing, policy, i, lean);
            }
        }
    }
}

/// A workspace keeps the lean clock readied for the last battle and only
/// restarts it for that battle's next fight: a reused workspace, switched
/// between battles (and the general loop, and back), fights every battle
/// exactly as a fresh one.
#[test]
fn a_reused_workspace_fights_as_a_fresh_one() {
    for timing in TIMINGS {
        let timing = json(timing);
        let scenario = |n: u64, policy: &str, striking: &str| {
            let s = parity(n)
                .with_field("timing", &timing)
                .unwrap()
                .with_field("battle.targeting", policy)
                .unwrap()
                .with_field("sides.B.groups.0.disruptible", "true")
                .unwrap()
                .with_field("striking", striking)
                .unwrap();
            Battle::new(&s).unwrap()
        };
        let (a, b) = (
            scenario(6, "random", "full-contact"),
            scenario(9, "least_engaged", "full-contact"),
        );
        // FUDGE opposed (`fast/opposed.rs`), in the same workspace.
        let (c, d) = (
            scenario(7, "most_wounded", "fudge-opposed"),
            scenario(5, "random", "fudge-opposed"),
        );
        let options = RunOptions {
            trace: false,
            casualties: true,
        };
        let mut shared = Workspace::default();
        for i in 0..6 {
            for battle in [&a, &b, &c, &a, &d, &c] {
                let fresh = battle.run_in(&mut Workspace::default(), 3, i, &options).unwrap();
                assert_eq!(
                    battle.run_in(&mut shared, 3, i, &options).unwrap(),
                    fresh,
                    "{timing} #{i}"
                );
                let general = battle
                    .run_with(&mut shared, &mut SeededRolls::for_stream(3, i), &options, true)
                    .unwrap();
                assert_eq!(general, fresh, "{timing} #{i}, general loop");
            }
        }
    }
}
