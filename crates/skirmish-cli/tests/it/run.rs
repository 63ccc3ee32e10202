//! `skirmish run` on a long battle: the trace is written as it
//! is fought (text and JSON), and Ctrl-C stops the battle saying where it
//! was, exit 1.

use std::io::Read as _;
use std::process::{Command, Stdio};

fn skirmish(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_skirmish"))
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn the_json_trace_is_one_valid_report_with_every_line() {
    let out = skirmish(&["run", "--trace", "--json", "--seed", "3"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let traced: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let plain = skirmish(&["run", "--json", "--seed", "3"]);
    let mut plain: serde_json::Value = serde_json::from_slice(&plain.stdout).unwrap();
    // The same report, with its trace: every line a tick, round, label, text.
    let trace = traced["trace"].as_array().unwrap();
    assert!(trace.len() > 5, "{trace:?}");
    assert!(trace.iter().all(|l| l["text"].is_string() && l["tick"].is_u64()));
    assert_eq!(plain["trace"], serde_json::Value::Null);
    plain["trace"] = traced["trace"].clone();
    assert_eq!(traced, plain);
    // The text trace has the same lines, in order.
    let text = String::from_utf8(skirmish(&["run", "--trace", "--seed", "3"]).stdout).unwrap();
    let mut at = 0;
    for l in trace {
        let line = format!("    {}\n", l["text"].as_str().unwrap());
        let found = text[at..]
            .find(&line)
            .unwrap_or_else(|| panic!("{line} missing after {at}"));
        at += found + line.len();
    }
}

#[test]
fn ctrl_c_stops_a_long_battle_and_says_where_it_was() {
    // 2 x 200,000 fighters with a trace: minutes of output. Once the first
    // lines arrive (the handler is in place), SIGINT.
    let mut child = Command::new(env!("CARGO_BIN_EXE_skirmish"))
        .args([
            "run",
            "parity",
            "--trace",
            "--set",
            "sides.A.groups.0.count=200000",
            "--set",
            "sides.B.groups.0.count=200000",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 4096];
    child.stdout.as_mut().unwrap().read_exact(&mut first).unwrap();
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("interrupted at tick "), "{err}");
    assert!(err.contains(" actions"), "{err}");
    // What it had is written: the trace so far ends with a whole line.
    let rest = String::from_utf8_lossy(&out.stdout);
    assert!(
        rest.is_empty() || rest.ends_with('\n'),
        "{}",
        &rest[rest.len().saturating_sub(200)..]
    );
    assert!(!rest.contains("winner:"), "stopped before the end");
}

#[test]
fn simple_rounds_trace_reads_round_pass_and_initiative() {
    let out = skirmish(&["run", "--trace", "--set", "timing=simple-rounds"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("[round 1 pass 1 initiative "), "{text}");
    assert!(text.contains("[round 1 pass 2 initiative "), "{text}");
    // No moment is labelled by a "tick" under Simple Rounds.
    assert!(
        !text.lines().any(|l| l.starts_with("[round") && l.contains(" tick ")),
        "{text}"
    );
    let blocks = String::from_utf8(skirmish(&["run", "--trace", "--set", "timing=action-blocks"]).stdout).unwrap();
    assert!(blocks.contains("[phase 1 block "), "{blocks}");
}

#[test]
fn the_report_tells_the_duration_in_game_seconds_where_the_text_gives_them() {
    let text = |timing: &str| {
        String::from_utf8(skirmish(&["run", "--seed", "1", "--set", &format!("timing={timing}")]).stdout).unwrap()
    };
    // Continuous: ticks are seconds.
    let continuous = text("continuous");
    let line = continuous.lines().find(|l| l.starts_with("winner: ")).unwrap();
    let (seconds, ticks) = (
        line.split("about ").nth(1).unwrap().split(' ').next().unwrap(),
        line.rsplit(", ").next().unwrap().split(' ').next().unwrap(),
    );
    assert_eq!(seconds, ticks, "{continuous}");
    assert!(continuous.contains("under continuous, a tick is 1 s"), "{continuous}");
    // The Tick System's text gives ticks no length: rounds and ticks only.
    let tick = text("tick-system");
    assert!(
        !tick.contains("game time") && tick.contains("no set length of time"),
        "{tick}"
    );
}

#[test]
fn the_trace_shows_the_wound_or_the_hit_points_each_hit_leaves() {
    let wounds = String::from_utf8(skirmish(&["run", "--trace", "--seed", "1"]).stdout).unwrap();
    assert!(
        wounds.contains("    Orc #1 takes damage 3: Hurt, boxes full: Very Hurt; now Very Hurt (-2 to rolls)\n"),
        "{wounds}"
    );
    // A hit-point table where damage 3 costs 2 hit points.
    let dir = std::env::temp_dir().join(format!("skirmish-cli-trace-hp-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("hp.toml");
    std::fs::write(
        &file,
        "name = \"hp\"\ntiming = \"simple-rounds\"\n\
         damage = { model = \"hit_points\", max_hp = 6, damage = { table = [{ min_margin = 1, damage = 1 }, \
         { min_margin = 3, damage = 2 }] } }\n\
         [[sides]]\nname = \"A\"\ngroups = [{ name = \"a\", count = 3, strike_rating = 7, defense_rating = 5 }]\n\
         [[sides]]\nname = \"B\"\ngroups = [{ name = \"b\", count = 3, strike_rating = 7, defense_rating = 5 }]\n",
    )
    .unwrap();
    let points: String = (1..=5)
        .map(|seed| {
            let seed = seed.to_string();
            String::from_utf8(skirmish(&["run", "--trace", "--seed", &seed, file.to_str().unwrap()]).stdout).unwrap()
        })
        .collect();
    std::fs::remove_dir_all(&dir).ok();
    assert!(points.contains(" takes damage 3: loses 2 hit points, "), "{points}");
}
