//! Durations that compare across timing systems: game seconds per cell
//! follow each system's unit (docs/rules.md §5.1), in the row, the JSON,
//! the columns and the summary; a checkpoint of schema 1 (before them) is
//! refused by name.

use std::fs;

use skirmish_sim::battle::{Battle, RunOptions};
use skirmish_sim::scenario::Scenario;
use skirmish_sim::sweep::{
    Axis, Column, SCHEMA_VERSION, SweepError, SweepSpec, SweepTable, existing_work, plan_resume, run_sweep, sweep,
};

use crate::sweep::{battle, editor, resuming, scratch, spec, threads};

const SYSTEMS: [&str; 6] = [
    "simultaneous",
    "simple-rounds",
    "graduated-rounds",
    "continuous",
    "tick-system",
    "action-blocks",
];

fn six_systems(battles: u64) -> (SweepSpec, SweepTable) {
    let spec = SweepSpec {
        scenario: Scenario::builtin("goblin-ambush").unwrap(),
        axes: vec![Axis::new("timing", SYSTEMS)],
        battles,
        seed: 3,
    };
    let table = sweep(&spec, &threads(2)).unwrap();
    (spec, table)
}

#[test]
fn game_seconds_follow_each_systems_unit() {
    let (_, table) = six_systems(40);
    for (system, cell) in SYSTEMS.iter().zip(table.cells()) {
        let s = &cell.stats;
        let expected = match *system {
            // An exchange is a FUDGE combat round of about 3 s.
            "simultaneous" => Some(3 * s.total_rounds),
            // A Relativity round is about 20 s, whatever its initiatives.
            "simple-rounds" => Some(20 * s.total_rounds),
            // 20 ticks a round: a tick is a second, rounds are ticks / 20.
            "graduated-rounds" => Some(s.total_ticks),
            // Continuous ticks are seconds.
            "continuous" => Some(s.total_ticks),
            // "ticks have no set length of time".
            "tick-system" => None,
            // A FUZION phase is three seconds.
            "action-blocks" => Some(3 * s.total_rounds),
            _ => unreachable!(),
        };
        assert_eq!(s.total_seconds, expected, "{system}");
        assert_eq!(s.mean_seconds(), expected.map(|t| t as f64 / 40.0), "{system}");
    }
    // The systems' ticks do not compare, their seconds do: Simple Rounds'
    // ticks are initiative steps, far more of them than its seconds / 20.
    let simple = &table.cells()[1].stats;
    assert!(simple.total_ticks > simple.total_rounds * 2, "{simple:?}");
}

#[test]
fn graduated_rounds_of_40_ticks_make_half_second_ticks() {
    let scenario = Scenario::builtin("goblin-ambush")
        .unwrap()
        .with_field("timing", "graduated-rounds")
        .unwrap()
        .with_field("timing.ticks_per_round", "40")
        .unwrap();
    let spec = SweepSpec {
        scenario: scenario.clone(),
        axes: vec![],
        battles: 30,
        seed: 5,
    };
    let table = sweep(&spec, &threads(1)).unwrap();
    // Each battle's 40-tick rounds are ~20 s: ticks / 2 seconds, rounded
    // to the nearest second (halves up), summed.
    let b = Battle::new(&scenario).unwrap();
    let by_hand: u64 = (0..30)
        .map(|i| b.run(5, i, &RunOptions::default()).unwrap().summary.ticks.div_ceil(2))
        .sum();
    assert_eq!(table.cells()[0].stats.total_seconds, Some(by_hand));
}

#[test]
fn the_seconds_columns_are_in_the_csv_json_columns_and_summary() {
    let (_, table) = six_systems(10);
    let csv = table.to_csv();
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let at = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let (mean, total) = (at("mean_seconds"), at("total_seconds"));
    // The comparable duration comes before the system's own ticks.
    assert!(mean < at("mean_ticks") && total < at("total_ticks"));
    for (row, cell) in csv.lines().skip(1).zip(table.cells()) {
        let fields: Vec<&str> = row.split(',').collect();
        match cell.stats.total_seconds {
            Some(t) => {
                assert_eq!(fields[total], t.to_string());
                assert_eq!(fields[mean], format!("{:.6}", t as f64 / 10.0));
            }
            None => assert_eq!((fields[mean], fields[total]), ("", ""), "{row}"),
        }
    }
    let json = table.to_json();
    let tick_system = json.lines().nth(5).unwrap();
    assert!(tick_system.contains(r#""timing": "tick-system""#), "{json}");
    assert!(
        tick_system.contains(r#""mean_seconds": null"#) && tick_system.contains(r#""total_seconds": null"#),
        "{tick_system}"
    );
    let columns = table.columns();
    let column = |name: &str| &columns.iter().find(|(n, _)| n == name).unwrap().1;
    let Column::F64(seconds) = column("total_seconds") else {
        panic!("total_seconds is a float column in columns()")
    };
    assert!(seconds[4].is_nan() && seconds[3] == table.cells()[3].stats.total_ticks as f64);
    // The table a reader compares first: seconds, rounds, then ticks, and
    // what a tick is under each system.
    let text = table.summary_text();
    let head = text.lines().next().unwrap();
    assert!(head.ends_with("mean seconds  mean rounds  mean ticks"), "{text}");
    let tick_row = text.lines().nth(5).unwrap();
    assert!(
        tick_row.starts_with("tick-system") && tick_row.contains("  -  "),
        "{text}"
    );
    for system in SYSTEMS {
        assert!(
            text.lines()
                .any(|l| l.trim_start().starts_with(system) && l.contains("a tick")),
            "{system}: {text}"
        );
    }
}

#[test]
fn the_schema_version_is_2() {
    assert_eq!(SCHEMA_VERSION, 2);
}

/// The same sweep's checkpoint as schema 1 wrote it: no `mean_seconds`,
/// no `total_seconds` (nor schema 2's morale columns), each row with its
/// check.
fn schema_1_checkpoint(csv: &str) -> String {
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let keep: Vec<usize> = (0..header.len())
        .filter(|&i| {
            header[i] != "mean_seconds"
                && header[i] != "total_seconds"
                && !crate::checkpoint::is_morale_column(header[i])
        })
        .collect();
    let pick = |line: &str| {
        let fields: Vec<&str> = line.split(',').collect();
        keep.iter().map(|&i| fields[i]).collect::<Vec<_>>().join(",")
    };
    let old: Vec<String> = std::iter::once(pick(csv.lines().next().unwrap()))
        .chain(lines.take(2).map(pick))
        .collect();
    let old: Vec<&str> = old.iter().map(String::as_str).collect();
    crate::checkpoint::with_checks(&old)
}

#[test]
fn a_schema_1_checkpoint_is_refused_by_name_and_left_alone() {
    let spec = spec(20);
    let csv = run_sweep(&spec, editor, battle, &threads(1)).unwrap().to_csv();
    let old = schema_1_checkpoint(&csv);
    let path = scratch("schema-1.csv");
    fs::write(&path, &old).unwrap();
    let refused = |e: SweepError| match e {
        SweepError::Checkpoint { line: 1, message, .. } => {
            assert!(message.contains("sweep schema 1"), "{message}");
            assert!(message.contains("writes schema 2"), "{message}");
            assert!(message.contains("rows cannot be reused"), "{message}");
        }
        other => panic!("not refused by name: {other}"),
    };
    refused(plan_resume(&path, &spec).unwrap_err());
    refused(run_sweep(&spec, editor, battle, &resuming(&path)).unwrap_err());
    assert_eq!(fs::read_to_string(&path).unwrap(), old, "a refused file is left alone");
    // Before writing over it, a front end is told what it holds.
    let found = existing_work(&path, &spec).unwrap().unwrap();
    assert!(
        found.contains("a sweep of schema 1") && found.contains("2 finished cells"),
        "{found}"
    );
    // A schema 1 final output (no row checks) is refused the same way.
    let final_old: String = old
        .lines()
        .map(|l| format!("{}\n", l.rsplit_once(',').unwrap().0))
        .collect();
    fs::write(&path, &final_old).unwrap();
    refused(plan_resume(&path, &spec).unwrap_err());
}
