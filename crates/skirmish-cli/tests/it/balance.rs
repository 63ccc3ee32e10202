//! `skirmish balance`: the values fought, the answer and why it stopped;
//! bad arguments named, with the usage exit status.

use std::process::{Command, Output};

fn skirmish(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_skirmish"))
        .args(args)
        .output()
        .unwrap()
}

const ORCS: &str = "sides.goblinoids.groups.0.count";

#[test]
fn balance_prints_the_values_fought_the_answer_and_why_it_stopped() {
    let out = skirmish(&[
        "balance",
        "--field",
        ORCS,
        "--between",
        "1",
        "10",
        "--set",
        "timing=simultaneous",
        "--seed",
        "2026",
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    // The library's golden search (skirmish-sim's balance test), as a table.
    for row in [
        "    1      250   250    1.0000",
        "   10      250    10    0.0400",
        "    5      250   166    0.6640",
        "    7      250    69    0.2760",
        "    6      250   107    0.4280",
    ] {
        assert!(text.contains(row), "{row:?} in\n{text}");
    }
    assert!(
        text.contains("answer: party wins 50% of its battles between sides.goblinoids.groups.0.count = 5 (above 50%) and 6 (below)"),
        "{text}"
    );
    assert!(
        text.contains("stopped: 6 and 5 are adjacent and told apart at 95%"),
        "{text}"
    );
    assert!(text.contains("1250 battles in all"), "{text}");
    // The same search as CSV: one row a value.
    let out = skirmish(&[
        "balance",
        "--field",
        ORCS,
        "--between",
        "1",
        "10",
        "--set",
        "timing=simultaneous",
        "--seed",
        "2026",
        "--format",
        "csv",
    ]);
    let csv = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines[0], "value,battles,wins,win_rate,low,high,verdict");
    assert_eq!(lines[5], "6,250,107,0.4280,0.3682,0.4900,below");
}

#[test]
fn bad_balance_arguments_are_named_with_the_usage_status() {
    for (args, expected) in [
        (
            vec!["--field", "timing", "--between", "1", "10"],
            "error: timing: holds ",
        ),
        (
            vec!["--field", ORCS, "--between", "1", "10", "--target", "1"],
            "error: target: 1 is not a win rate",
        ),
        (
            vec!["--field", ORCS, "--between", "10", "1"],
            "error: between: 10 to 1 is not a range",
        ),
        (
            vec!["--field", ORCS, "--between", "1", "10", "--side", "elves"],
            "error: side: \"elves\" names no side",
        ),
        (
            vec!["--field", ORCS, "--between", "1", "2"],
            "error: no crossing of 0.5 in sides.goblinoids.groups.0.count",
        ),
        (vec!["--field", ORCS, "--between", "0", "10"], "count"),
        (
            vec!["--field", "sides.goblinoids.groups.0.cuont", "--between", "1", "10"],
            "did you mean \"count\"",
        ),
        (vec!["--field", ORCS, "--between", "1"], "--between"),
    ] {
        let mut all = vec!["balance"];
        all.extend(args.iter().copied());
        let out = skirmish(&all);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{all:?}: {err}");
        assert!(err.contains(expected), "{all:?}: {err}");
        assert!(out.stdout.is_empty(), "{all:?}");
    }
}
