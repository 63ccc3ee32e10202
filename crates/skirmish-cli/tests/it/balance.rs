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
        "--method",
        "sampled",
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
        "--method",
        "sampled",
        "--format",
        "csv",
    ]);
    let csv = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines[0], "value,battles,wins,win_rate,low,high,verdict,exact");
    assert_eq!(lines[5], "6,250,107,0.4280,0.3682,0.4900,below,-");
}

#[test]
fn a_duel_is_balanced_on_exact_chances_and_a_refused_one_is_sampled() {
    let duel = crate::exact::duel_file();
    let args = |extra: &[&'static str]| -> Vec<String> {
        let mut a: Vec<&str> = vec![
            "balance",
            duel.as_str(),
            "--field",
            "sides.Bob.groups.0.strike_rating",
            "--between",
            "1",
            "12",
            "--target",
            "0.3",
        ];
        a.extend_from_slice(extra);
        a.into_iter().map(str::to_owned).collect()
    };
    let run = |a: Vec<String>| Command::new(env!("CARGO_BIN_EXE_skirmish")).args(a).output().unwrap();
    let out = run(args(&[]));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("method: exact chances from the exact engine, no battle fought"),
        "{text}"
    );
    // SR 5 against SR 5 is docs/rules.md's worked duel: 50/131.
    assert!(text.contains("0.3817  0.3817  0.3817  above    50/131"), "{text}");
    assert!(text.contains("stopped: exact: at "), "{text}");
    assert!(text.contains("; 0 battles in all"), "{text}");
    // Surprise is not modelled: the same search, sampled, says why.
    let out = run(args(&["--set", "sides.Ann.groups.0.unaware_for=1"]));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("method: sampled battles (not exact: sides.Bob.groups.0.strike_rating = 1: sides[0].groups[0].unaware_for: surprise"),
        "{text}"
    );
    // ...and `--method exact` refuses it, naming the field.
    let out = run(args(&[
        "--set",
        "sides.Ann.groups.0.unaware_for=1",
        "--method",
        "exact",
    ]));
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("sides.Bob.groups.0.strike_rating = 1: sides[0].groups[0].unaware_for: surprise"),
        "{err}"
    );
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
