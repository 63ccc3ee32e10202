//! The `skirmish` binary, run as a user would.

use std::process::{Command, Output};

fn skirmish(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_skirmish"))
        .args(args)
        .output()
        .unwrap()
}

fn stdout(args: &[&str]) -> String {
    let out = skirmish(args);
    assert!(
        out.status.success(),
        "skirmish {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn odds_for_one_pair_are_exact() {
    // Cardiff (SR 9) against the goblin (DR 6).
    let s = stdout(&["odds", "--sr", "9", "--dr", "6"]);
    assert!(s.contains("hit      76/81  93.83%"), "{s}");
    assert!(s.contains("hits on a Strike roll of -2 or better"), "{s}");
    assert!(s.contains("  -3  miss (margin +0)"), "{s}");
}

#[test]
fn odds_table_covers_every_pair() {
    let csv = stdout(&["odds", "--span", "1..12", "--format", "csv"]);
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(
        lines[0],
        "sr,dr,hit_of_81,hit,amazing_strike_of_81,amazing_strike,amazing_defense_of_81,amazing_defense"
    );
    assert_eq!(lines.len(), 1 + 12 * 12);
    // SR 5 vs DR 7 (the goblin against Cardiff): only +3 and +4 hit, 5 of 81.
    assert!(lines.contains(&"5,7,5,0.061728,0,0.000000,0,0.000000"), "{csv}");
    let text = stdout(&["odds", "--span", "3..8"]);
    assert!(text.contains("SR \\ DR"), "{text}");
}

#[test]
fn odds_with_range_and_options() {
    // The archer: SR 7 at 280 ft with a short bow (Short 150, RS 50): -3.
    let s = stdout(&[
        "odds",
        "--sr",
        "7",
        "--dr",
        "7",
        "--distance",
        "280",
        "--short",
        "150",
        "--range-strength",
        "50",
    ]);
    assert!(s.contains("range penalty -3"), "{s}");
    let json = stdout(&["odds", "--sr", "7", "--dr", "7", "--amazing", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v[2]["outcome"], "amazing strike");
}

#[test]
fn bad_input_is_a_clear_error_and_a_nonzero_exit() {
    let out = skirmish(&[
        "odds",
        "--sr",
        "7",
        "--dr",
        "7",
        "--distance",
        "-5",
        "--short",
        "10",
        "--range-strength",
        "5",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("distance"), "{err}");
    let out = skirmish(&["odds", "--span", "9..1"]);
    assert!(!out.status.success());
    let out = skirmish(&["tables", "weapons", "--genre", "fantsy"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8(out.stderr)
            .unwrap()
            .contains("did you mean \"Fantasy\"")
    );
}

#[test]
fn tables_print_every_row() {
    let csv = stdout(&["tables", "weapons", "--format", "csv"]);
    assert_eq!(csv.lines().count(), 1 + 57);
    assert!(csv.contains("Fantasy,\"Crossbow, Heavy\",8,1/2,12,*"), "{csv}");
    let fantasy = stdout(&["tables", "weapons", "--genre", "fantasy", "--format", "csv"]);
    assert_eq!(fantasy.lines().count(), 1 + 18);
    let armor = stdout(&["tables", "armor", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&armor).unwrap();
    assert_eq!(v.as_array().unwrap().len(), 8);
    assert_eq!(v[4]["armor"], "Plate mail, riot gear");
}

#[test]
fn replay_runs_the_ambush_under_every_system() {
    for system in [
        "simultaneous",
        "simple-rounds",
        "graduated-rounds",
        "continuous",
        "tick-system",
        "action-blocks",
    ] {
        let s = stdout(&["replay", "--system", system, "--rounds", "2"]);
        assert!(s.contains(&format!("under {system}")), "{s}");
        assert!(s.matches("sheet").count() > 3, "{system}: {s}");
        assert!(s.contains("Cardiff"), "{s}");
    }
    // With the texts' own round-one initiative, the first sheet is the text's table.
    let s = stdout(&["replay", "--system", "continuous", "--as-in-the-text", "--rounds", "1"]);
    assert!(
        s.contains(
            "sheet  3: Orc #1 | 4: Madoc, Orc #2 | 5: Roland | 6: Shaman | 8: Cardiff | 9: Goblin #1, Goblin #2"
        ),
        "{s}"
    );
    // Same seed, same replay.
    assert_eq!(
        stdout(&["replay", "--system", "tick", "--seed", "9"]),
        stdout(&["replay", "--system", "tick", "--seed", "9"])
    );
    let json = stdout(&["replay", "--system", "graduated", "--rounds", "1", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v[0]["turn"]["turn"], "new_round");
}

#[test]
fn replay_refuses_an_unknown_system() {
    let out = skirmish(&["replay", "--system", "continous"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8(out.stderr)
            .unwrap()
            .contains("did you mean \"continuous\"")
    );
}

fn data(name: &str) -> String {
    format!("{}/../skirmish-sim/tests/data/{name}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn run_fights_the_default_scenario_and_prints_the_outcome() {
    let s = stdout(&["run"]);
    assert!(s.starts_with("goblin-ambush"), "{s}");
    assert!(
        s.contains("winner: ") || s.contains("a draw") || s.contains("a timeout"),
        "{s}"
    );
    let traced = stdout(&["run", "--trace", "--seed", "3"]);
    assert!(traced.contains("strikes"), "{traced}");
    assert!(traced.contains("[round 1 tick"), "{traced}");
    for timing in [
        "simultaneous",
        "simple-rounds",
        "graduated-rounds",
        "continuous",
        "tick-system",
        "action-blocks",
    ] {
        let s = stdout(&["run", "--set", &format!("timing={timing}")]);
        assert!(s.contains(&format!("{timing} timing")), "{s}");
    }
    let json = stdout(&["run", "parity", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["sides"][0], "A");
}

#[test]
fn sweep_is_byte_identical_on_one_and_two_threads() {
    let dir = std::env::temp_dir().join(format!("skirmish-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let one = dir.join("one.csv");
    let two = dir.join("two.csv");
    for (threads, out) in [("1", &one), ("2", &two)] {
        stdout(&[
            "sweep",
            "parity",
            "--vary",
            "sides.A.groups.0.count=8,10,12",
            "--battles",
            "200",
            "--seed",
            "5",
            "--threads",
            threads,
            "--quiet",
            "--out",
            out.to_str().unwrap(),
        ]);
    }
    let a = std::fs::read(&one).unwrap();
    assert_eq!(a, std::fs::read(&two).unwrap());
    assert!(
        String::from_utf8(a)
            .unwrap()
            .starts_with("sides.A.groups.0.count,battles,win_rate_a,")
    );
    let plot = dir.join("p.svg");
    stdout(&[
        "sweep",
        "--vary",
        "timing=continuous,tick-system",
        "--battles",
        "50",
        "--quiet",
        "--plot",
        plot.to_str().unwrap(),
    ]);
    assert!(std::fs::read_to_string(&plot).unwrap().starts_with("<svg"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bad_scenarios_are_clear_errors_with_a_nonzero_exit() {
    for (file, needle) in [
        ("negative-count.toml", "count"),
        ("absurd-count.toml", "count"),
        ("unknown-key.json", "unknown"),
        ("scenario.yaml", "yaml"),
    ] {
        let out = skirmish(&["run", &data(file)]);
        assert_eq!(out.status.code(), Some(2), "{file}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.to_lowercase().contains(needle), "{file}: {err}");
        assert!(!err.contains("panicked"), "{file}: {err}");
    }
    let out = skirmish(&["run", "no-such-preset"]);
    assert_eq!(out.status.code(), Some(2));
    let out = skirmish(&[
        "sweep",
        "--vary",
        "sides.nobody.groups.0.count=1,2",
        "--battles",
        "5",
        "--quiet",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8(out.stderr).unwrap().contains("sides.nobody"));
}

#[test]
fn bench_parity_prints_the_peer_contract_line() {
    let json = stdout(&["bench", "parity", "--size", "10", "--battles", "50", "--json"]);
    let v: serde_json::Value = serde_json::from_str(json.trim()).unwrap();
    assert_eq!(v["impl"], "skirmish");
    let total = ["wins_a", "wins_b", "draws", "timeouts"]
        .iter()
        .map(|k| v[k].as_u64().unwrap())
        .sum::<u64>();
    assert_eq!(total, 50);
}

/// The exit code and standard error of a run that must fail cleanly.
fn refused(args: &[&str]) -> String {
    let out = skirmish(args);
    assert_eq!(out.status.code(), Some(2), "skirmish {args:?} should fail with exit 2");
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    err
}

#[test]
fn vary_values_may_hold_commas_in_quotes_and_json() {
    let s = stdout(&[
        "sweep",
        "--vary",
        r#"sides.party.groups.Cardiff.weapon="Sword, Long",Dagger"#,
        "--battles",
        "20",
        "--quiet",
    ]);
    assert!(s.contains("\"Sword, Long\"") && s.contains("Dagger"), "{s}");
    let s = stdout(&[
        "sweep",
        "--vary",
        r#"timing={"system":"tick_system","action_ticks":1},continuous"#,
        "--battles",
        "20",
        "--quiet",
    ]);
    assert!(s.contains(r#"{"system":"tick_system","action_ticks":1}"#), "{s}");
    for (vary, needle) in [
        ("timing=continuous,,tick-system", "value 2 is empty"),
        (r#"timing="continuous,tick-system"#, "quote is not closed"),
        ("timing={\"system\":\"continuous\"", "not closed"),
        ("timing=tick-system,tick_system", "same scenario"),
        (
            "sides.0.groups.0.count=1,2 --vary sides.party.groups.Roland.count=3",
            "same scenario",
        ),
    ] {
        let mut args = vec!["sweep", "--battles", "5", "--quiet"];
        for part in vary.split(" --vary ") {
            args.extend(["--vary", part]);
        }
        let err = refused(&args);
        assert!(err.contains(needle), "{vary}: {err}");
    }
}

#[test]
fn sweep_checks_its_files_and_threads_before_any_battle() {
    for (args, needle) in [
        (vec!["--out", "/nonexistent-folder/x.json"], "does not exist"),
        (vec!["--plot", "/nonexistent-folder/p.svg"], "does not exist"),
        (vec!["--plot", "p.png"], ".svg"),
        (vec!["--threads", "5000"], "at most 1024"),
    ] {
        let mut all = vec!["sweep", "--battles", "100000000", "--quiet"];
        all.extend(args.iter().copied());
        let started = std::time::Instant::now();
        let err = refused(&all);
        assert!(err.contains(needle), "{args:?}: {err}");
        // Refused up front: 10^8 battles would take minutes.
        assert!(started.elapsed().as_secs() < 30, "{args:?}");
    }
}

#[test]
fn a_closed_pipe_ends_quietly() {
    use std::io::Read;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_skirmish"))
        .args(["run", "horde", "--trace"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Read a little, then close the pipe as `head` does.
    let mut first = [0u8; 64];
    child.stdout.as_mut().unwrap().read_exact(&mut first).unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{:?}: {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.stderr.is_empty(), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn hit_points_default_to_ten_and_the_outcome_reads_well() {
    let dir = std::env::temp_dir().join(format!("skirmish-cli-hp-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("hp.toml");
    std::fs::write(
        &file,
        "name = \"hp\"\ndamage = { model = \"hit_points\" }\n[[sides]]\nname = \"A\"\ngroups = [{ name = \"a\" }]\n\
         [[sides]]\nname = \"B\"\ngroups = [{ name = \"b\" }]\n",
    )
    .unwrap();
    let s = stdout(&["run", file.to_str().unwrap()]);
    assert!(
        s.contains("winner: ") || s.contains("a draw") || s.contains("a timeout"),
        "{s}"
    );
    assert!(!s.contains("(1 rounds)") && !s.contains(" 1 ticks"), "{s}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_main_jobs_table_shows_a_duration_that_compares_across_the_six_systems() {
    let systems = "simultaneous,simple-rounds,graduated-rounds,continuous,tick-system,action-blocks";
    let s = stdout(&[
        "sweep",
        "--vary",
        &format!("timing={systems}"),
        "--battles",
        "30",
        "--quiet",
    ]);
    let lines: Vec<&str> = s.lines().collect();
    assert!(lines[0].ends_with("mean seconds  mean rounds  mean ticks"), "{s}");
    let cells = |row: &str| -> Vec<String> { row.split_whitespace().rev().take(3).map(str::to_owned).collect() };
    for (k, system) in systems.split(',').enumerate() {
        let row = lines[k + 1];
        assert!(row.starts_with(system), "{s}");
        // (ticks, rounds, seconds), read from the right.
        let c = cells(row);
        let (ticks, rounds): (f64, f64) = (c[0].parse().unwrap(), c[1].parse().unwrap());
        match system {
            "continuous" | "graduated-rounds" => assert_eq!(c[2], c[0], "{row}"),
            "tick-system" => assert_eq!(c[2], "-", "{row}"),
            // Seconds a round, within the rounding of the printed means.
            "simple-rounds" => assert!((c[2].parse::<f64>().unwrap() - 20.0 * rounds).abs() <= 1.05, "{row}"),
            _ => assert!((c[2].parse::<f64>().unwrap() - 3.0 * rounds).abs() <= 0.2, "{row}"),
        }
        assert!(ticks >= rounds, "{row}");
        // Each system says what its tick is under the table.
        assert!(
            lines[8..]
                .iter()
                .any(|l| l.trim_start().starts_with(system) && l.contains("a tick")),
            "{system}: {s}"
        );
    }
    assert!(lines[7].starts_with("durations: game seconds compare"), "{s}");
}

/// Full Contact, "Range Penalties": the sniper's shot at Madoc 280' away
/// is at SR 7 - 3 = 4, and the text's +2 misses his DR 7. Battle 4 of
/// seed 1 is the one whose first shot rolls +2.
#[test]
fn the_archers_minus_three_in_a_battle_trace() {
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/it/sniper.toml");
    let out = stdout(&["run", file, "--trace", "--index", "4"]);
    let first = out.lines().find(|l| l.contains(" shoots ")).unwrap();
    assert_eq!(
        first.trim(),
        "sniper (Bow, Short) shoots Madoc: at 280 ft, SR 7 -3 range = 4, +2 vs DR 7: miss (margin -1)"
    );
    assert!(out.contains("Madoc waits: no foe in reach (nearest 280 ft)"), "{out}");
    // The built-in archers, closing from 200 yards under the Tick System.
    let out = stdout(&["run", "archers", "--trace", "--set", "timing=tick-system"]);
    assert!(
        out.contains("moves 30 ft toward the foe") && out.contains(" shoots "),
        "{out}"
    );
}

/// FUDGE 4.4's Will Scarlet and Dicken through `skirmish run --trace`:
/// battle 47 of seed 1 rolls the text's results ("Dicken rolls a Fair
/// result, missing Will. Will rolls a Mediocre result, which hits
/// Dicken"), battle 2 the text's other case, Dicken's Good that would have
/// hit too ("Will and Dicken would have skewered each other").
#[test]
fn will_scarlet_and_dicken_exchange_fire_in_a_battle_trace() {
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/it/greenwood.toml");
    let will = "Will Scarlet (Bow, Long) exchanges fire with Dicken: at 180 ft, DL Mediocre (Mediocre by distance): \
                Mediocre (+1 skill -2 roll) vs the Difficulty Level, shooting back: hit by 0, damage 2";
    let out = stdout(&["run", file, "--trace", "--index", "47"]);
    let shots: Vec<&str> = out
        .lines()
        .map(str::trim)
        .filter(|l| l.contains(" exchanges fire "))
        .collect();
    assert_eq!(
        shots,
        [
            will,
            "Dicken (Crossbow, Light) exchanges fire with Will Scarlet: at 180 ft, DL Good (Mediocre by distance +2 \
             cover): Fair (+0 skill +0 roll) vs the Difficulty Level, shooting back: miss"
        ],
        "{out}"
    );
    let out = stdout(&["run", file, "--trace", "--index", "2"]);
    let shots: Vec<&str> = out
        .lines()
        .map(str::trim)
        .filter(|l| l.contains(" exchanges fire "))
        .collect();
    assert_eq!(
        shots,
        [
            will,
            "Dicken (Crossbow, Light) exchanges fire with Will Scarlet: at 180 ft, DL Good (Mediocre by distance +2 \
             cover): Good (+0 skill +1 roll) vs the Difficulty Level, shooting back: hit by 0, damage 2"
        ],
        "{out}"
    );
    assert!(
        out.contains("Dicken takes damage 2") && out.contains("Will Scarlet takes damage 2"),
        "{out}"
    );
}
