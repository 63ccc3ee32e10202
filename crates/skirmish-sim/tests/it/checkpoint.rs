//! A checkpoint edited or damaged by hand: every damage class is refused
//! naming its line, or repaired with a note, never silently reused. The row
//! check is computed here from its documentation, so the docs are pinned.

use std::fs;
use std::sync::atomic::{AtomicU64, Ordering};

use skirmish_sim::scenario::Scenario;
use skirmish_sim::sweep::{SweepError, plan_resume, run_sweep};

use crate::sweep::{battle, editor, resuming, scratch, spec, threads};

/// The documented row check: 16 hex digits of 64-bit FNV-1a over
/// `"skirmish sweep row v1\n"`, the final header line, `"\n"` and the row's
/// line.
pub(crate) fn row_check(header: &str, line: &str) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in format!("skirmish sweep row v1\n{header}\n{line}").bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{hash:016x}")
}

/// The checkpoint a sweep in progress holds for these lines of its final
/// CSV (the header first): the header with `row_check`, each row with its
/// check.
pub(crate) fn with_checks(lines: &[&str]) -> String {
    let header = lines[0];
    let mut out = format!("{header},row_check\n");
    for line in &lines[1..] {
        out.push_str(&format!("{line},{}\n", row_check(header, line)));
    }
    out
}

const BATTLES: u64 = 100;

fn full() -> String {
    run_sweep(&spec(BATTLES), editor, battle, &threads(2)).unwrap().to_csv()
}

/// Resumes from `text`, counting the battles fought.
fn resume_counting(name: &str, text: &str) -> (Result<String, SweepError>, u64) {
    let path = scratch(name);
    fs::write(&path, text).unwrap();
    let calls = AtomicU64::new(0);
    let counting = |s: &Scenario, seed: u64, i: u64| {
        calls.fetch_add(1, Ordering::Relaxed);
        battle(s, seed, i)
    };
    let result = run_sweep(&spec(BATTLES), editor, counting, &resuming(&path)).map(|t| t.to_csv());
    match &result {
        Ok(csv) => assert_eq!(&fs::read_to_string(&path).unwrap(), csv, "{name}"),
        Err(_) => assert_eq!(
            fs::read_to_string(&path).unwrap(),
            text,
            "{name}: a refused file is left alone"
        ),
    }
    (result, calls.load(Ordering::Relaxed))
}

/// Replaces column `column` of the CSV line `line`.
fn set(header: &str, line: &str, column: &str, value: &str) -> String {
    let at = header.split(',').position(|h| h == column).unwrap();
    let mut fields: Vec<&str> = line.split(',').collect();
    fields[at] = value;
    fields.join(",")
}

fn get(header: &str, line: &str, column: &str) -> u64 {
    let at = header.split(',').position(|h| h == column).unwrap();
    line.split(',').nth(at).unwrap().parse().unwrap()
}

#[test]
fn every_damage_class_is_refused_naming_its_line() {
    let full = full();
    let lines: Vec<&str> = full.lines().collect();
    let checked = with_checks(&lines[..4]);
    let rows: Vec<&str> = checked.lines().collect();
    let header = lines[0];
    let cp_header = rows[0];
    // Edit a checked row's content but keep its check.
    let edit = |row: usize, column: &str, value: &str| {
        let (line, check) = rows[row].rsplit_once(',').unwrap();
        let mut out: Vec<String> = rows.iter().map(|r| (*r).to_owned()).collect();
        out[row] = format!("{},{check}", set(header, line, column, value));
        out.join("\n") + "\n"
    };
    let median = get(header, lines[1], "median_ticks");
    let p90 = get(header, lines[1], "p90_ticks");
    let wins = get(header, lines[1], "wins_red_team");
    let blue = get(header, lines[1], "wins_blue");
    assert!(median < p90 && blue > 0, "the edits below stay plausible");
    let cases: Vec<(&str, String, usize, &str)> = vec![
        // Row 2 (cell red_sr=4, blue_sr=6) relabelled to cell 5,6, which the
        // file does not hold: every number is plausible, the label is not.
        ("relabelled.csv", edit(2, "red_sr", "5"), 3, "row_check"),
        // Plausible percentiles (median <= p90, both within the total).
        (
            "median.csv",
            edit(1, "median_ticks", &(median + 1).to_string()),
            2,
            "row_check",
        ),
        ("p90.csv", edit(1, "p90_ticks", &(p90 - 1).to_string()), 2, "row_check"),
        // A win moved from Blue to Red: the outcomes still add up.
        (
            "counts.csv",
            {
                let (line, check) = rows[1].rsplit_once(',').unwrap();
                let line = set(header, line, "wins_red_team", &(wins + 1).to_string());
                let line = set(header, &line, "wins_blue", &(blue - 1).to_string());
                format!("{cp_header}\n{line},{check}\n{}\n{}\n", rows[2], rows[3])
            },
            2,
            "row_check",
        ),
        // A row copied.
        (
            "duplicated.csv",
            format!("{}\n{}\n{}\n{}\n", rows[0], rows[1], rows[2], rows[1]),
            4,
            "appears twice, first on line 2",
        ),
        // A row without its check.
        (
            "unchecked-row.csv",
            format!("{cp_header}\n{}\n{}\n", lines[1], rows[2]),
            2,
            "fields",
        ),
        // A check typed over.
        (
            "check.csv",
            format!("{cp_header}\n{},0000000000000000\n", lines[1]),
            2,
            "row_check \"0000000000000000\" does not match",
        ),
    ];
    for (name, text, line, needle) in cases {
        let path = scratch(&format!("cp-{name}"));
        fs::write(&path, &text).unwrap();
        let planned = plan_resume(&path, &spec(BATTLES)).unwrap_err();
        let (result, fought) = resume_counting(&format!("cp-{name}"), &text);
        let err = result.unwrap_err();
        assert_eq!(fought, 0, "{name}: refused before any battle");
        assert!(
            matches!(&err, SweepError::Checkpoint { line: l, .. } if *l == line),
            "{name}: {err}"
        );
        assert!(err.to_string().contains(needle), "{name}: {err}");
        assert_eq!(
            planned.to_string(),
            err.to_string(),
            "{name}: the plan gives the same error"
        );
    }
    // The same rows undamaged are reused.
    let (result, fought) = resume_counting("cp-intact.csv", &checked);
    assert_eq!(result.unwrap(), full);
    assert_eq!(fought, 3 * BATTLES);
}

#[test]
fn a_partial_last_line_is_repaired_with_a_note() {
    let full = full();
    let lines: Vec<&str> = full.lines().collect();
    let checked = with_checks(&lines[..4]);
    // Killed while writing the third row: half of it is on disk.
    let cut = checked.len() - checked.lines().last().unwrap().len() / 2 - 1;
    let text = &checked[..cut];
    let path = scratch("cp-partial.csv");
    fs::write(&path, text).unwrap();
    let plan = plan_resume(&path, &spec(BATTLES)).unwrap();
    assert_eq!((plan.reused, plan.torn_line), (2, true));
    let notes = plan.notes();
    assert_eq!(notes.len(), 1);
    assert!(
        notes[0].contains("incomplete") && notes[0].contains("fought again"),
        "{notes:?}"
    );
    let (result, fought) = resume_counting("cp-partial.csv", text);
    assert_eq!(result.unwrap(), full);
    assert_eq!(fought, 4 * BATTLES);
}

#[test]
fn a_checkpoint_saved_with_a_bom_and_crlf_is_reused() {
    let full = full();
    let lines: Vec<&str> = full.lines().collect();
    let text = format!("\u{feff}{}", with_checks(&lines[..4]).replace('\n', "\r\n"));
    let path = scratch("cp-bom-crlf.csv");
    fs::write(&path, &text).unwrap();
    let plan = plan_resume(&path, &spec(BATTLES)).unwrap();
    assert_eq!((plan.reused, plan.torn_line), (3, false));
    assert!(plan.notes().is_empty());
    let (result, fought) = resume_counting("cp-bom-crlf.csv", &text);
    assert_eq!(result.unwrap(), full);
    assert_eq!(fought, 3 * BATTLES);
}

#[test]
fn rows_without_checks_are_refused_and_left_byte_for_byte() {
    let full = full();
    let lines: Vec<&str> = full.lines().collect();
    let header = lines[0];
    // A finished output (no row_check column), as it is, with a torn last
    // line, and a one-row file as a checkpoint of an earlier version.
    let torn = format!("{full}{}", &lines[1][..10]);
    let one_row = format!("{header}\n{}\n", lines[1]);
    for (name, text, rows) in [
        ("cp-finished.csv", full.clone(), "6 finished rows"),
        ("cp-finished-torn.csv", torn, "6 finished rows"),
        ("cp-finished-one.csv", one_row, "1 finished row "),
    ] {
        let path = scratch(name);
        fs::write(&path, &text).unwrap();
        let planned = plan_resume(&path, &spec(BATTLES)).unwrap_err();
        let (result, fought) = resume_counting(name, &text);
        let err = result.unwrap_err();
        assert_eq!(fought, 0, "{name}: refused before any battle");
        assert_eq!(
            planned.to_string(),
            err.to_string(),
            "{name}: the plan refuses as the sweep does"
        );
        assert!(matches!(err, SweepError::Checkpoint { line: 1, .. }), "{name}: {err}");
        let message = err.to_string();
        for needle in [
            name,
            rows,
            "without row checks",
            "finished sweep's output",
            "left as it is",
            "--force",
        ] {
            assert!(message.contains(needle), "{name}: {needle:?} in {message}");
        }
        assert_eq!(fs::read(&path).unwrap(), text.as_bytes(), "{name}: byte for byte");
    }
    // The final header alone holds no work: resumed as a fresh start.
    let (result, fought) = resume_counting("cp-final-header.csv", &format!("{header}\n"));
    assert_eq!(result.unwrap(), full);
    assert_eq!(fought, 6 * BATTLES);
}

/// Whether `column` is one of schema 2's morale columns.
pub(crate) fn is_morale_column(column: &str) -> bool {
    ["retreat_rate_", "surrender_rate_", "retreats_", "surrenders_"]
        .iter()
        .any(|p| column.starts_with(p))
}

/// `csv` as schema 1 wrote it: without schema 2's morale and game seconds
/// columns.
fn as_schema_1(csv: &str) -> String {
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let morale = |h: &str| is_morale_column(h);
    let new_in_2 = |h: &str| morale(h) || h == "mean_seconds" || h == "total_seconds";
    assert_eq!(
        header.iter().filter(|h| morale(h)).count(),
        16,
        "2 sides x (2 triples + 2 counts)"
    );
    csv.lines()
        .map(|line| {
            let fields: Vec<&str> = line
                .split(',')
                .zip(&header)
                .filter(|(_, h)| !new_in_2(h))
                .map(|(f, _)| f)
                .collect();
            fields.join(",") + "\n"
        })
        .collect()
}

#[test]
fn a_checkpoint_of_schema_1_is_refused_naming_its_schema() {
    let full = full();
    let old = as_schema_1(&full);
    let lines: Vec<&str> = old.lines().collect();
    // A checkpoint written by schema 1 (its rows checked against its own
    // header), and a finished schema 1 output.
    for (name, text) in [
        ("cp-schema-1.csv", with_checks(&lines[..3])),
        ("cp-schema-1-final.csv", old.clone()),
    ] {
        let path = scratch(name);
        fs::write(&path, &text).unwrap();
        let planned = plan_resume(&path, &spec(BATTLES)).unwrap_err();
        let (result, fought) = resume_counting(name, &text);
        let err = result.unwrap_err();
        assert_eq!(fought, 0, "{name}: refused before any battle");
        assert_eq!(planned.to_string(), err.to_string());
        assert!(matches!(err, SweepError::Checkpoint { line: 1, .. }), "{name}: {err}");
        let message = err.to_string();
        for needle in [
            "the file is of sweep schema 1, this sweep writes schema 2",
            "retreat and surrender columns",
            "left as it is",
            "--force",
        ] {
            assert!(message.contains(needle), "{name}: {needle:?} in {message}");
        }
        assert_eq!(fs::read(&path).unwrap(), text.as_bytes(), "{name}: byte for byte");
        // A front end asking what the file holds hears the schema too.
        let work = skirmish_sim::sweep::existing_work(&path, &spec(BATTLES))
            .unwrap()
            .unwrap();
        assert!(
            work.contains("a sweep of schema 1 (this sweep writes schema 2"),
            "{work}"
        );
    }
    assert_eq!(skirmish_sim::sweep::SCHEMA_VERSION, 2);
}
