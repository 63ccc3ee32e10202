//! Sweeps: determinism across thread counts, checkpoint / resume, the
//! schema, and the statistics behind it.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use crate::checkpoint::with_checks;
use skirmish_core::dice::SeededRolls;
use skirmish_sim::report::{BattleSummary, Breaks, Outcome};
use skirmish_sim::scenario::Scenario;
use skirmish_sim::stats;
use skirmish_sim::sweep::{
    Axis, Column, MAX_BATTLES, MAX_CELLS, MAX_THREADS, SweepError, SweepOptions, SweepProgress, SweepSpec, run_sweep,
};

pub(crate) fn scenario() -> Scenario {
    toml::from_str(
        r#"
        name = "test duel"
        [[sides]]
        name = "Red Team"
        groups = [{ name = "red", strike_rating = 5 }]
        [[sides]]
        name = "Blue"
        groups = [{ name = "blue", strike_rating = 5 }]
        "#,
    )
    .unwrap()
}

/// A stand-in for the real field setter.
pub(crate) fn editor(s: &Scenario, path: &str, value: &str) -> Result<Scenario, String> {
    let mut s = s.clone();
    let number = || value.parse::<i32>().map_err(|_| format!("{value:?} is not a number"));
    match path {
        "red_sr" => s.sides[0].groups[0].strike_rating = number()?,
        "blue_sr" => s.sides[1].groups[0].strike_rating = number()?,
        "name" => s.name = value.to_owned(),
        "blue_name" => s.sides[1].name = value.to_owned(),
        _ => return Err(format!("no field {path}")),
    }
    Ok(s)
}

/// A stand-in battle drawing all its dice from stream (seed, index): each
/// round both strike (SR + 4dF > 5 hits); three hits win; both reaching
/// three in one round is a draw; eight rounds without it is a timeout.
pub(crate) fn battle(s: &Scenario, seed: u64, index: u64) -> Result<BattleSummary, String> {
    let mut dice = SeededRolls::for_stream(seed, index);
    let red = s.sides[0].groups[0].strike_rating;
    let blue = s.sides[1].groups[0].strike_rating;
    let mut summary = BattleSummary {
        outcome: Outcome::Timeout,
        ticks: 0,
        rounds: 0,
        actions: 0,
        hits: 0,
        amazing_strikes: 0,
        amazing_defenses: 0,
        disruptions: dice.below(2),
        breaks: Breaks::NONE,
    };
    let (mut red_hits, mut blue_hits) = (0, 0);
    while summary.rounds < 8 {
        summary.rounds += 1;
        summary.ticks += 2 + dice.below(3);
        for (sr, hits) in [(red, &mut red_hits), (blue, &mut blue_hits)] {
            let roll = dice.four_df();
            summary.actions += 1;
            summary.amazing_strikes += u64::from(roll == 4);
            summary.amazing_defenses += u64::from(roll == -4);
            if sr + roll > 5 {
                summary.hits += 1;
                *hits += 1;
            }
        }
        summary.outcome = match (red_hits >= 3, blue_hits >= 3) {
            (true, true) => Outcome::Draw,
            (true, false) => Outcome::Win { side: 0 },
            (false, true) => Outcome::Win { side: 1 },
            (false, false) => continue,
        };
        break;
    }
    Ok(summary)
}

pub(crate) fn spec(battles: u64) -> SweepSpec {
    SweepSpec {
        scenario: scenario(),
        axes: vec![Axis::new("red_sr", ["4", "5", "6"]), Axis::new("blue_sr", ["5", "6"])],
        battles,
        seed: 42,
    }
}

pub(crate) fn threads(n: usize) -> SweepOptions {
    SweepOptions {
        threads: Some(n),
        ..SweepOptions::default()
    }
}

/// A fresh path under the test target's scratch directory.
pub(crate) fn scratch(name: &str) -> PathBuf {
    // One folder per test process: two runs of the suite at once (a
    // helper's beside CI's) must not fight over the same checkpoint.
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("sweep-tests")
        .join(std::process::id().to_string());
    fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    let _ = fs::remove_file(&path);
    path
}

const HEADER_1_AXIS: &str = "red_sr,battles,\
win_rate_red_team,win_rate_red_team_low,win_rate_red_team_high,\
win_rate_blue,win_rate_blue_low,win_rate_blue_high,\
draw_rate,draw_rate_low,draw_rate_high,timeout_rate,timeout_rate_low,timeout_rate_high,\
mean_seconds,mean_ticks,median_ticks,p90_ticks,mean_rounds,mean_actions,hit_rate,\
amazing_strike_rate,amazing_defense_rate,mean_disruptions,\
wins_red_team,wins_blue,draws,timeouts,total_seconds,total_ticks,total_rounds,total_actions,total_hits,\
total_amazing_strikes,total_amazing_defenses,total_disruptions,\
retreat_rate_red_team,retreat_rate_red_team_low,retreat_rate_red_team_high,\
surrender_rate_red_team,surrender_rate_red_team_low,surrender_rate_red_team_high,\
retreat_rate_blue,retreat_rate_blue_low,retreat_rate_blue_high,\
surrender_rate_blue,surrender_rate_blue_low,surrender_rate_blue_high,\
retreats_red_team,surrenders_red_team,retreats_blue,surrenders_blue,seed,scenario_fingerprint";

#[test]
fn same_seed_gives_identical_bytes_on_1_2_and_3_threads() {
    let spec = spec(500);
    let one = run_sweep(&spec, editor, battle, &threads(1)).unwrap();
    for n in [2, 3] {
        let other = run_sweep(&spec, editor, battle, &threads(n)).unwrap();
        assert_eq!(one.to_csv(), other.to_csv(), "{n} threads");
        assert_eq!(one.to_json(), other.to_json(), "{n} threads");
        assert_eq!(one, other);
    }
    // The cells differ (the rules matter) and the grid is row-major.
    let values: Vec<_> = one.cells().iter().map(|c| c.values.join("/")).collect();
    assert_eq!(values, ["4/5", "4/6", "5/5", "5/6", "6/5", "6/6"]);
    assert!(one.cells()[0].stats.wins[0] < one.cells()[4].stats.wins[0]);
    // Another seed gives other numbers.
    let other_seed = SweepSpec { seed: 43, ..spec };
    assert_ne!(
        one.to_csv(),
        run_sweep(&other_seed, editor, battle, &threads(2)).unwrap().to_csv()
    );
}

#[test]
fn every_cell_sees_the_same_random_numbers() {
    // `name` does not change the battle: under common random numbers the
    // two cells must come out identical, not merely close.
    let spec = SweepSpec {
        axes: vec![Axis::new("name", ["first", "second"])],
        ..spec(300)
    };
    let table = run_sweep(&spec, editor, battle, &threads(2)).unwrap();
    assert_eq!(table.cells()[0].stats, table.cells()[1].stats);
}

#[test]
fn cell_statistics_match_an_independent_computation() {
    let spec = spec(401);
    let table = run_sweep(&spec, editor, battle, &threads(2)).unwrap();
    let cell = &table.cells()[3]; // red 5, blue 6
    assert_eq!(cell.values, ["5", "6"]);
    let scenario = editor(&editor(&spec.scenario, "red_sr", "5").unwrap(), "blue_sr", "6").unwrap();
    let battles: Vec<BattleSummary> = (0..401).map(|i| battle(&scenario, 42, i).unwrap()).collect();
    let count = |f: &dyn Fn(&BattleSummary) -> bool| battles.iter().filter(|b| f(b)).count() as u64;
    let s = &cell.stats;
    assert_eq!(s.battles, 401);
    assert_eq!(
        s.wins,
        [
            count(&|b| b.outcome == Outcome::Win { side: 0 }),
            count(&|b| b.outcome == Outcome::Win { side: 1 })
        ]
    );
    assert_eq!(s.draws, count(&|b| b.outcome == Outcome::Draw));
    assert_eq!(s.timeouts, count(&|b| b.outcome == Outcome::Timeout));
    assert!(
        s.draws > 0 && s.timeouts > 0,
        "the test battle should exercise every outcome"
    );
    let mut ticks: Vec<u64> = battles.iter().map(|b| b.ticks).collect();
    assert_eq!(s.total_ticks, ticks.iter().sum::<u64>());
    ticks.sort();
    // Nearest rank: the ceil(p * n)-th smallest, 1-based.
    assert_eq!(s.median_ticks, ticks[(401f64 * 0.5).ceil() as usize - 1]);
    assert_eq!(s.p90_ticks, ticks[(401f64 * 0.9).ceil() as usize - 1]);
    assert_eq!(s.total_actions, battles.iter().map(|b| b.actions).sum::<u64>());
    assert_eq!(s.total_hits, battles.iter().map(|b| b.hits).sum::<u64>());
    assert_eq!(s.total_disruptions, battles.iter().map(|b| b.disruptions).sum::<u64>());

    // The row's floats, as written.
    let header = table.header();
    let csv = table.to_csv();
    let row: Vec<&str> = csv.lines().nth(4).unwrap().split(',').collect();
    let field = |name: &str| row[header.iter().position(|h| h == name).unwrap()];
    let (low, high) = stats::wilson(s.wins[1], 401);
    assert_eq!(field("win_rate_blue"), format!("{:.6}", s.wins[1] as f64 / 401.0));
    assert_eq!(field("win_rate_blue_low"), format!("{low:.6}"));
    assert_eq!(field("win_rate_blue_high"), format!("{high:.6}"));
    assert_eq!(field("mean_ticks"), format!("{:.6}", s.total_ticks as f64 / 401.0));
    assert_eq!(field("median_ticks"), s.median_ticks.to_string());
    assert_eq!(
        field("hit_rate"),
        format!("{:.6}", s.total_hits as f64 / s.total_actions as f64)
    );
    assert_eq!(field("seed"), "42");
}

#[test]
fn header_is_the_documented_schema() {
    let spec = SweepSpec {
        axes: vec![Axis::new("red_sr", ["5"])],
        ..spec(3)
    };
    let table = run_sweep(&spec, editor, battle, &threads(1)).unwrap();
    assert_eq!(table.header().join(","), HEADER_1_AXIS);
    assert_eq!(table.to_csv().lines().next().unwrap(), HEADER_1_AXIS);
    assert_eq!(table.to_csv().lines().count(), 2);
    assert_eq!(table.sides(), ["Red Team", "Blue"]);
    assert_eq!(table.axes(), ["red_sr"]);
}

#[test]
fn no_axes_is_one_cell_of_the_base_scenario() {
    let spec = SweepSpec {
        axes: vec![],
        ..spec(50)
    };
    let table = run_sweep(&spec, editor, battle, &threads(2)).unwrap();
    assert_eq!(table.cells().len(), 1);
    assert!(table.to_csv().starts_with("battles,win_rate_red_team,"));
}

#[test]
fn text_values_are_csv_escaped_and_json_matches_csv() {
    let spec = SweepSpec {
        axes: vec![
            Axis::new("name", ["plain", "with, comma", "say \"hi\""]),
            Axis::new("red_sr", ["4", "6"]),
        ],
        ..spec(200)
    };
    let table = run_sweep(&spec, editor, battle, &threads(2)).unwrap();
    let csv = table.to_csv();
    assert!(csv.contains("\n\"with, comma\",4,200,"));
    assert!(csv.contains("\n\"say \"\"hi\"\"\",6,200,"));

    let json: serde_json::Value = serde_json::from_str(&table.to_json()).unwrap();
    let rows = json.as_array().unwrap();
    assert_eq!(rows.len(), 6);
    let header = table.header();
    for (row, (line, cell)) in rows.iter().zip(csv.lines().skip(1).zip(table.cells())) {
        let object = row.as_object().unwrap();
        let keys: Vec<&String> = object.keys().collect();
        let mut sorted_header: Vec<&String> = header.iter().collect();
        sorted_header.sort();
        assert_eq!(keys, sorted_header);
        // Only the first field is quoted text; split the rest from the right.
        let mut parts: Vec<&str> = line.rsplitn(header.len(), ',').collect();
        parts.reverse();
        assert_eq!(parts.len(), header.len());
        assert_eq!(object["name"], cell.values[0].as_str());
        assert_eq!(parts[1], cell.values[1]);
        for (name, text) in header[2..].iter().zip(&parts[2..]) {
            let value = &object[name.as_str()];
            if name == "scenario_fingerprint" {
                assert_eq!(value.as_str().unwrap(), *text);
                assert_eq!(*text, spec.scenario.fingerprint());
            } else if text.is_empty() {
                assert!(value.is_null(), "{name}");
            } else if text.contains('.') {
                assert_eq!(value.as_f64().unwrap(), text.parse::<f64>().unwrap(), "{name}");
            } else {
                assert_eq!(value.as_u64().unwrap(), text.parse::<u64>().unwrap(), "{name}");
            }
        }
        assert_eq!(object["red_sr"], cell.values[1].as_str());
    }
}

/// The exact text of awkward values, as the hand-written writers gave it
/// before the `csv` and `serde_json` crates wrote it.
#[test]
fn the_text_of_awkward_values_is_pinned() {
    let values = [
        "back\\slash",
        "tab\there",
        "bs\u{8}ff\u{c}soh\u{1}del\u{7f}",
        "ünï, \"q\"",
        "#hash",
        " pad ",
    ];
    let awkward = SweepSpec {
        axes: vec![Axis::new("name", values)],
        ..spec(10)
    };
    let table = run_sweep(&awkward, editor, battle, &threads(1)).unwrap();
    let csv_starts: Vec<String> = table
        .to_csv()
        .lines()
        .skip(1)
        .map(|l| l[..l.find(",10,").unwrap()].to_owned())
        .collect();
    assert_eq!(
        csv_starts,
        [
            "back\\slash",
            "tab\there",
            "bs\u{8}ff\u{c}soh\u{1}del\u{7f}",
            "\"ünï, \"\"q\"\"\"",
            "#hash",
            " pad "
        ]
    );
    let json = table.to_json();
    assert!(
        json.starts_with("[\n  {\"name\": \"back\\\\slash\", \"battles\": 10, \"win_rate_red_team\": 0."),
        "{json}"
    );
    let json_starts: Vec<&str> = json
        .lines()
        .skip(1)
        .filter_map(|l| l.strip_prefix("  {\"name\": "))
        .map(|l| &l[..l.find(", \"battles\": 10, ").unwrap()])
        .collect();
    assert_eq!(
        json_starts,
        [
            "\"back\\\\slash\"",
            "\"tab\\there\"",
            "\"bs\\u0008ff\\u000csoh\\u0001del\u{7f}\"",
            "\"ünï, \\\"q\\\"\"",
            "\"#hash\"",
            "\" pad \""
        ]
    );
    assert!(json.ends_with("}\n]\n"));
    let one_cell = run_sweep(
        &SweepSpec {
            axes: vec![Axis::new("name", ["x"])],
            ..spec(1)
        },
        editor,
        battle,
        &threads(1),
    )
    .unwrap();
    assert_eq!(one_cell.to_json().lines().count(), 3);
}

#[test]
fn columns_have_one_entry_per_cell_in_schema_order() {
    let table = run_sweep(&spec(100), editor, battle, &threads(2)).unwrap();
    let columns = table.columns();
    let names: Vec<String> = columns.iter().map(|(n, _)| n.clone()).collect();
    assert_eq!(names, table.header());
    assert!(columns.iter().all(|(_, c)| c.len() == 6));
    let column = |name: &str| &columns.iter().find(|(n, _)| n == name).unwrap().1;
    assert!(matches!(column("red_sr"), Column::Str(v) if v[0] == "4" && v[5] == "6"));
    assert!(matches!(column("battles"), Column::U64(v) if v.iter().all(|&b| b == 100)));
    assert!(matches!(column("median_ticks"), Column::U64(_)));
    let Column::F64(rates) = column("win_rate_red_team") else {
        panic!("not floats")
    };
    for (rate, cell) in rates.iter().zip(table.cells()) {
        assert_eq!(*rate, cell.stats.wins[0] as f64 / 100.0);
    }
}

#[test]
fn progress_reaches_the_totals() {
    let last = Arc::new(std::sync::Mutex::new(None::<SweepProgress>));
    let seen = last.clone();
    let options = SweepOptions {
        threads: Some(2),
        progress: Some(Arc::new(move |p: SweepProgress| {
            let mut last = seen.lock().unwrap();
            assert!(p.battles_done <= p.battles_total && p.cells_done <= p.cells_total);
            if p.cells_done == p.cells_total {
                *last = Some(p);
            }
        })),
        ..SweepOptions::default()
    };
    run_sweep(&spec(50), editor, battle, &options).unwrap();
    let p = last.lock().unwrap().unwrap();
    assert_eq!(
        (p.cells_done, p.cells_total, p.battles_done, p.battles_total),
        (6, 6, 300, 300)
    );
}

/// Options that cancel the sweep once `after` cells are done.
fn cancelling(path: &Path, after: u64, resume: bool) -> SweepOptions {
    let flag = Arc::new(AtomicBool::new(false));
    let setter = flag.clone();
    SweepOptions {
        threads: Some(2),
        progress: Some(Arc::new(move |p: SweepProgress| {
            if p.cells_done >= after {
                setter.store(true, Ordering::Relaxed);
            }
        })),
        cancel: Some(flag),
        checkpoint: Some(path.to_path_buf()),
        resume,
    }
}

pub(crate) fn resuming(path: &Path) -> SweepOptions {
    SweepOptions {
        threads: Some(2),
        checkpoint: Some(path.to_path_buf()),
        resume: true,
        ..SweepOptions::default()
    }
}

#[test]
fn cancel_then_resume_gives_the_uninterrupted_bytes() {
    let spec = spec(300);
    let full_path = scratch("full.csv");
    let full = run_sweep(
        &spec,
        editor,
        battle,
        &SweepOptions {
            checkpoint: Some(full_path.clone()),
            ..threads(1)
        },
    )
    .unwrap()
    .to_csv();
    assert_eq!(fs::read_to_string(&full_path).unwrap(), full);
    assert!(!full_path.with_file_name("full.csv.tmp").exists());

    let path = scratch("cancelled.csv");
    let err = run_sweep(&spec, editor, battle, &cancelling(&path, 2, false)).unwrap_err();
    assert!(
        matches!(
            err,
            SweepError::Cancelled {
                cells_done: 2,
                cells_total: 6
            }
        ),
        "{err}"
    );
    let partial = fs::read_to_string(&path).unwrap();
    let full_lines: Vec<&str> = full.lines().collect();
    // The checkpoint: the finished rows with their row checks.
    assert_eq!(partial, with_checks(&full_lines[..3]));

    // Resume (and get cancelled again after the fourth cell), then finish.
    let err = run_sweep(&spec, editor, battle, &cancelling(&path, 4, true)).unwrap_err();
    assert!(matches!(err, SweepError::Cancelled { cells_done: 4, .. }), "{err}");
    let calls = AtomicU64::new(0);
    let counting = |s: &Scenario, seed: u64, i: u64| {
        calls.fetch_add(1, Ordering::Relaxed);
        battle(s, seed, i)
    };
    let table = run_sweep(&spec, editor, counting, &resuming(&path)).unwrap();
    assert_eq!(
        calls.load(Ordering::Relaxed),
        2 * 300,
        "finished cells are not fought again"
    );
    assert_eq!(table.to_csv(), full);
    assert_eq!(fs::read_to_string(&path).unwrap(), full);
    // A finished file has no row checks: resuming it cannot trust its rows
    // and will not destroy them either; refused before any battle, the
    // file left as it is.
    calls.store(0, Ordering::Relaxed);
    let err = run_sweep(&spec, editor, counting, &resuming(&path)).unwrap_err();
    assert!(matches!(err, SweepError::Checkpoint { line: 1, .. }), "{err}");
    assert_eq!(calls.load(Ordering::Relaxed), 0);
    assert_eq!(fs::read_to_string(&path).unwrap(), full);
}

#[test]
fn a_cancelled_sweep_without_a_checkpoint_stops_and_says_so() {
    // Without a checkpoint the cells' chunks are handed out in one stream
    // and nothing waits for a row: the cancellation (set by a battle of
    // cell 3, which then cannot finish) stops the workers wherever they
    // are.
    for n in [1, 2, 3] {
        let flag = Arc::new(AtomicBool::new(false));
        let setter = flag.clone();
        let cancelling = move |s: &Scenario, seed: u64, i: u64| {
            if s.sides[0].groups[0].strike_rating == 5 && s.sides[1].groups[0].strike_rating == 6 && i == 100 {
                setter.store(true, Ordering::Relaxed);
            }
            battle(s, seed, i)
        };
        let options = SweepOptions {
            cancel: Some(flag),
            ..threads(n)
        };
        let err = run_sweep(&spec(300), editor, cancelling, &options).unwrap_err();
        let SweepError::Cancelled {
            cells_done,
            cells_total,
        } = err
        else {
            panic!("{n} threads: {err}")
        };
        assert!(cells_done < 6 && cells_total == 6, "{n} threads: {cells_done}");
    }
}

#[test]
fn a_panicking_progress_callback_stops_the_sweep_with_its_panic() {
    // With a checkpoint the workers wait for each other's rows: one whose
    // callback panics must not leave the others waiting.
    for n in [1, 2, 3] {
        let path = scratch(&format!("panicking-{n}.csv"));
        let options = SweepOptions {
            progress: Some(Arc::new(|p: SweepProgress| {
                if p.cells_done == 2 {
                    panic!("the callback broke");
                }
            })),
            checkpoint: Some(path),
            ..threads(n)
        };
        let payload = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            run_sweep(&spec(300), editor, battle, &options)
        }))
        .unwrap_err();
        let message = skirmish_core::error::panic_message(payload.as_ref());
        assert_eq!(message, "the callback broke", "{n} threads");
    }
}

#[test]
fn a_failed_cell_keeps_the_rows_before_it_in_the_checkpoint() {
    let full = run_sweep(&spec(300), editor, battle, &threads(1)).unwrap().to_csv();
    let lines: Vec<&str> = full.lines().collect();
    let failing = |s: &Scenario, seed: u64, i: u64| {
        if s.sides[0].groups[0].strike_rating == 5 && s.sides[1].groups[0].strike_rating == 6 && i == 200 {
            return Err("battle 200 broke".to_owned());
        }
        battle(s, seed, i)
    };
    for n in [1, 2, 3] {
        let path = scratch(&format!("failed-{n}.csv"));
        let options = SweepOptions {
            checkpoint: Some(path.clone()),
            ..threads(n)
        };
        let err = run_sweep(&spec(300), editor, failing, &options).unwrap_err();
        assert!(
            matches!(
                err,
                SweepError::Battle {
                    cell: 3,
                    index: 200,
                    ..
                }
            ),
            "{n} threads: {err}"
        );
        // Cells 0-2, in order; no row of cell 3 or after.
        assert_eq!(
            fs::read_to_string(&path).unwrap(),
            with_checks(&lines[..4]),
            "{n} threads"
        );
    }
}

/// Run by [`a_killed_sweep_resumes_to_the_uninterrupted_bytes`] in a child
/// process, which it kills (abort, no clean-up) in the middle of cell 3;
/// does nothing otherwise.
#[test]
fn killed_child() {
    let Some(path) = std::env::var_os("SKIRMISH_SWEEP_KILL_CHECKPOINT") else {
        return;
    };
    let dying = |s: &Scenario, seed: u64, i: u64| {
        if s.sides[0].groups[0].strike_rating == 5 && s.sides[1].groups[0].strike_rating == 6 && i == 150 {
            std::process::abort();
        }
        battle(s, seed, i)
    };
    let _ = run_sweep(
        &spec(300),
        editor,
        dying,
        &SweepOptions {
            checkpoint: Some(PathBuf::from(path)),
            ..threads(2)
        },
    );
    std::process::exit(3); // not reached: the battle aborts first
}

#[test]
fn a_killed_sweep_resumes_to_the_uninterrupted_bytes() {
    let full = run_sweep(&spec(300), editor, battle, &threads(2)).unwrap().to_csv();
    let path = scratch("killed.csv");
    let status = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["sweep::killed_child", "--exact", "--test-threads=1"])
        .env("SKIRMISH_SWEEP_KILL_CHECKPOINT", &path)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .unwrap();
    assert!(
        !status.success() && status.code() != Some(3),
        "the child should have been killed: {status}"
    );
    // Cells 0, 1, 2 were finished before the kill, in the middle of cell 3.
    let partial = fs::read_to_string(&path).unwrap();
    let lines: Vec<&str> = full.lines().collect();
    assert_eq!(partial, with_checks(&lines[..4]));
    let table = run_sweep(&spec(300), editor, battle, &resuming(&path)).unwrap();
    assert_eq!(table.to_csv(), full);
    assert_eq!(fs::read_to_string(&path).unwrap(), full);
}

#[test]
fn a_torn_last_line_is_dropped_and_recomputed() {
    let spec = spec(200);
    let full = run_sweep(&spec, editor, battle, &threads(2)).unwrap().to_csv();
    let checked = with_checks(&full.lines().collect::<Vec<_>>());
    let lines: Vec<&str> = checked.lines().collect();
    let calls = AtomicU64::new(0);
    let counting = |s: &Scenario, seed: u64, i: u64| {
        calls.fetch_add(1, Ordering::Relaxed);
        battle(s, seed, i)
    };
    // Killed in the middle of the fourth row, just before its newline, and
    // in the middle of the header.
    let torn_row = format!("{}\n{}", lines[..3].join("\n"), &lines[3][..lines[3].len() / 2]);
    let unterminated = lines[..4].join("\n");
    let torn_header = lines[0][..10].to_owned();
    for (name, text, fought) in [
        ("torn-row.csv", torn_row, 4),
        ("unterminated.csv", unterminated, 4),
        ("torn-header.csv", torn_header, 6),
        ("empty.csv", String::new(), 6),
    ] {
        let path = scratch(name);
        fs::write(&path, text).unwrap();
        calls.store(0, Ordering::Relaxed);
        let table = run_sweep(&spec, editor, counting, &resuming(&path)).unwrap();
        assert_eq!(calls.load(Ordering::Relaxed), fought * 200, "{name}");
        assert_eq!(table.to_csv(), full, "{name}");
        assert_eq!(fs::read_to_string(&path).unwrap(), full, "{name}");
    }
    // A missing file is a fresh start.
    let path = scratch("missing.csv");
    assert_eq!(
        run_sweep(&spec, editor, battle, &resuming(&path)).unwrap().to_csv(),
        full
    );
    assert_eq!(fs::read_to_string(&path).unwrap(), full);
}

#[test]
fn rows_are_reused_in_any_order() {
    let spec = spec(100);
    let full = run_sweep(&spec, editor, battle, &threads(2)).unwrap().to_csv();
    let lines: Vec<&str> = full.lines().collect();
    let path = scratch("shuffled.csv");
    fs::write(&path, with_checks(&[lines[0], lines[5], lines[2]])).unwrap();
    let table = run_sweep(&spec, editor, battle, &resuming(&path)).unwrap();
    assert_eq!(table.to_csv(), full);
    assert_eq!(fs::read_to_string(&path).unwrap(), full);
}

#[test]
fn a_foreign_checkpoint_is_refused_and_left_alone() {
    let spec = spec(100);
    let full = run_sweep(&spec, editor, battle, &threads(2)).unwrap().to_csv();
    let lines: Vec<&str> = full.lines().collect();

    // Another sweep's header (one axis fewer).
    let path = scratch("other-header.csv");
    let other = format!("{HEADER_1_AXIS}\n");
    fs::write(&path, &other).unwrap();
    let err = run_sweep(&spec, editor, battle, &resuming(&path)).unwrap_err();
    let SweepError::HeaderMismatch { expected, found, .. } = &err else {
        panic!("{err}")
    };
    assert_eq!(*expected, format!("{},row_check", lines[0]));
    assert_eq!(found, HEADER_1_AXIS);
    assert!(err.to_string().contains("checkpoint header does not match"), "{err}");
    assert_eq!(fs::read_to_string(&path).unwrap(), other);

    let refused = |name: &str, text: String, needle: &str| {
        let path = scratch(name);
        fs::write(&path, &text).unwrap();
        let err = run_sweep(&spec, editor, battle, &resuming(&path)).unwrap_err();
        assert!(matches!(err, SweepError::Checkpoint { line: 2, .. }), "{name}: {err}");
        assert!(err.to_string().contains(needle), "{name}: {err}");
        assert_eq!(fs::read_to_string(&path).unwrap(), text, "{name}");
    };
    let row = lines[1];
    // A row of another seed.
    let other_seed = run_sweep(
        &SweepSpec {
            seed: 7,
            ..spec.clone()
        },
        editor,
        battle,
        &threads(1),
    )
    .unwrap()
    .to_csv();
    refused(
        "other-seed.csv",
        with_checks(&[lines[0], other_seed.lines().nth(1).unwrap()]),
        "seed 7",
    );
    // A row of another scenario (the scenario was edited since).
    let mut edited_scenario = spec.clone();
    edited_scenario.scenario.name.push_str(" (edited)");
    let other_scenario = run_sweep(&edited_scenario, editor, battle, &threads(1))
        .unwrap()
        .to_csv();
    refused(
        "other-scenario.csv",
        with_checks(&[lines[0], other_scenario.lines().nth(1).unwrap()]),
        "was run on another scenario",
    );
    // A row of a value outside the grid.
    refused(
        "outside.csv",
        with_checks(&[lines[0], &row.replacen("4,5,", "9,5,", 1)]),
        "not a cell of this sweep",
    );
    // An edited statistic.
    let fields: Vec<&str> = row.split(',').collect();
    let mut edited = fields.clone();
    let mean_ticks = lines[0].split(',').position(|h| h == "mean_ticks").unwrap();
    edited[mean_ticks] = "1.000000";
    refused(
        "edited.csv",
        with_checks(&[lines[0], &edited.join(",")]),
        "do not follow from its counts",
    );
    // A short row, and a row twice.
    refused("short.csv", format!("{},row_check\n4,5,100\n", lines[0]), "fields");
    let path = scratch("twice.csv");
    fs::write(&path, with_checks(&[lines[0], row, row])).unwrap();
    let err = run_sweep(&spec, editor, battle, &resuming(&path)).unwrap_err();
    assert!(matches!(err, SweepError::Checkpoint { line: 3, .. }), "{err}");
}

#[test]
fn a_checkpoint_without_resume_starts_over() {
    let spec = spec(50);
    let path = scratch("overwritten.csv");
    fs::write(&path, "something else\n").unwrap();
    let table = run_sweep(
        &spec,
        editor,
        battle,
        &SweepOptions {
            checkpoint: Some(path.clone()),
            ..threads(2)
        },
    )
    .unwrap();
    assert_eq!(fs::read_to_string(&path).unwrap(), table.to_csv());
}

#[test]
fn edit_errors_are_reported_before_any_battle() {
    let spec = SweepSpec {
        axes: vec![Axis::new("red_sr", ["4", "5"]), Axis::new("blue_sr", ["5", "six"])],
        ..spec(10)
    };
    let calls = AtomicU64::new(0);
    let counting = |s: &Scenario, seed: u64, i: u64| {
        calls.fetch_add(1, Ordering::Relaxed);
        battle(s, seed, i)
    };
    let err = run_sweep(&spec, editor, counting, &threads(2)).unwrap_err();
    let SweepError::Edit { cell, path, value, .. } = &err else {
        panic!("{err}")
    };
    assert_eq!((*cell, path.as_str(), value.as_str()), (1, "blue_sr", "six"));
    assert_eq!(
        err.to_string(),
        "cell 1 (red_sr=4, blue_sr=six): cannot set blue_sr = \"six\": \"six\" is not a number"
    );
    assert_eq!(calls.load(Ordering::Relaxed), 0);

    // Renaming a side would mislabel the columns.
    let spec = SweepSpec {
        axes: vec![Axis::new("blue_name", ["Blue", "Green"])],
        ..spec
    };
    let err = run_sweep(&spec, editor, battle, &threads(1)).unwrap_err();
    assert!(
        matches!(err, SweepError::Invalid(_)) && err.to_string().contains("cell 1"),
        "{err}"
    );
}

#[test]
fn battle_errors_name_the_lowest_failing_battle() {
    let failing = |s: &Scenario, seed: u64, i: u64| {
        if s.sides[0].groups[0].strike_rating == 5 && (i == 37 || i == 250) {
            return Err(format!("battle {i} broke"));
        }
        battle(s, seed, i)
    };
    for n in [1, 2, 3] {
        let err = run_sweep(&spec(300), editor, failing, &threads(n)).unwrap_err();
        let SweepError::Battle { cell, index, .. } = &err else {
            panic!("{err}")
        };
        assert_eq!((*cell, *index), (2, 37), "{n} threads");
        assert_eq!(
            err.to_string(),
            "cell 2 (red_sr=5, blue_sr=5), battle 37: battle 37 broke"
        );
    }
    let bad_winner = |s: &Scenario, seed: u64, i: u64| {
        battle(s, seed, i).map(|b| BattleSummary {
            outcome: Outcome::Win { side: 2 },
            ..b
        })
    };
    let err = run_sweep(&spec(10), editor, bad_winner, &threads(2)).unwrap_err();
    assert!(matches!(err, SweepError::Battle { cell: 0, index: 0, .. }), "{err}");
}

#[test]
fn invalid_specs_are_refused() {
    let invalid = |spec: SweepSpec, needle: &str| {
        let err = run_sweep(&spec, editor, battle, &threads(1)).unwrap_err();
        assert!(matches!(err, SweepError::Invalid(_)), "{err}");
        assert!(err.to_string().contains(needle), "{err}");
    };
    invalid(spec(0), "between 1 and");
    invalid(spec(MAX_BATTLES + 1), "between 1 and");
    invalid(
        SweepSpec {
            axes: vec![Axis::new("red_sr", Vec::<String>::new())],
            ..spec(1)
        },
        "no values",
    );
    invalid(
        SweepSpec {
            axes: vec![Axis::new("red_sr", ["4"]), Axis::new("red_sr", ["5"])],
            ..spec(1)
        },
        "given twice",
    );
    invalid(
        SweepSpec {
            axes: vec![Axis::new("red_sr", ["4", "4"])],
            ..spec(1)
        },
        "given twice",
    );
    invalid(
        SweepSpec {
            axes: vec![Axis::new("name", ["a\nb"])],
            ..spec(1)
        },
        "line break",
    );
    invalid(
        SweepSpec {
            axes: vec![Axis::new("draw_rate", ["1"])],
            ..spec(1)
        },
        "draw_rate",
    );
    // 2^40 cells (x 2^30 battles would not fit in 64 bits): over MAX_CELLS.
    let many: Vec<String> = (0..1024).map(|i| i.to_string()).collect();
    let axes = (0..4).map(|k| Axis::new(format!("axis{k}"), many.clone())).collect();
    invalid(
        SweepSpec {
            axes,
            ..spec(MAX_BATTLES)
        },
        "MAX_CELLS",
    );
    // Two sides that give the same column name.
    let mut clash = spec(1);
    clash.scenario.sides[1].name = "red-team".to_owned();
    invalid(clash, "appears twice");
    let err = run_sweep(
        &spec(1),
        editor,
        battle,
        &SweepOptions {
            resume: true,
            ..threads(1)
        },
    )
    .unwrap_err();
    assert!(matches!(err, SweepError::Invalid(_)), "{err}");
}

#[test]
fn a_grid_over_max_cells_is_refused_before_anything_is_allocated() {
    // Three axes of 200 values: 8,000,000 cells. Refused by validate, before
    // a cell's scenario is built (the editor is never called) or a file
    // touched; the grid's allocation never happens.
    let values: Vec<String> = (1..=200).map(|i| i.to_string()).collect();
    let big = SweepSpec {
        axes: ["a", "b", "c"].iter().map(|p| Axis::new(*p, values.clone())).collect(),
        ..spec(1)
    };
    let edits = AtomicU64::new(0);
    let counting = |s: &Scenario, path: &str, value: &str| {
        edits.fetch_add(1, Ordering::Relaxed);
        editor(s, path, value)
    };
    let path = scratch("sweep-too-many-cells.csv");
    let err = run_sweep(
        &big,
        counting,
        battle,
        &SweepOptions {
            checkpoint: Some(path.clone()),
            ..threads(1)
        },
    )
    .unwrap_err();
    assert_eq!(edits.load(Ordering::Relaxed), 0, "no cell built");
    assert!(!path.exists(), "no file written");
    assert!(matches!(err, SweepError::Invalid(_)), "{err}");
    let message = err.to_string();
    for needle in [
        "8000000 cells",
        "1000000",
        "--vary",
        "a (200 values) x b (200 values) x c (200 values)",
    ] {
        assert!(message.contains(needle), "{needle:?} in {message}");
    }
    assert_eq!(big.validate().unwrap_err().to_string(), message);
    // At the limit exactly: accepted by validate (no battle needed).
    let at_limit = SweepSpec {
        axes: vec![
            Axis::new("a", (0..1000).map(|i| i.to_string())),
            Axis::new("b", (0..1000).map(|i| i.to_string())),
        ],
        ..spec(1)
    };
    assert_eq!(at_limit.validate().unwrap(), MAX_CELLS);
    // Axes whose product overflows 64 bits are refused the same way.
    let huge = SweepSpec {
        axes: (0..9).map(|k| Axis::new(format!("x{k}"), values.clone())).collect(),
        ..spec(1)
    };
    assert!(huge.validate().unwrap_err().to_string().contains("more than 2^64"));
}

#[test]
fn summary_text_is_an_aligned_table() {
    let spec = SweepSpec {
        axes: vec![Axis::new("red_sr", ["4", "10"])],
        ..spec(100)
    };
    let table = run_sweep(&spec, editor, battle, &threads(2)).unwrap();
    let text = table.summary_text();
    let lines: Vec<&str> = text.lines().collect();
    // The header, a row per cell, then what a tick and a round are under
    // the one timing system of the table.
    assert_eq!(lines.len(), 5, "{text}");
    assert!(lines[3].starts_with("durations: game seconds compare"), "{text}");
    assert!(lines[4].trim_start().starts_with(spec.scenario.timing.name()), "{text}");
    assert!(lines[0].starts_with("red_sr  battles  "), "{text}");
    assert!(
        lines[0].contains("win Red Team (95%)") && lines[0].ends_with("mean ticks"),
        "{text}"
    );
    let s = &table.cells()[1].stats;
    let (low, high) = s.win_interval(0);
    let expected = format!(
        "{:.1}% [{:.1}, {:.1}]",
        100.0 * s.win_rate(0),
        100.0 * low,
        100.0 * high
    );
    assert!(lines[2].starts_with("10") && lines[2].contains(&expected), "{text}");
    // Right-aligned numbers end in the same column.
    assert_eq!(lines[1].len(), lines[2].len(), "{text}");
}

#[test]
fn cells_of_the_same_scenario_and_too_many_threads_are_refused_before_any_battle() {
    let calls = AtomicU64::new(0);
    let counting = |s: &Scenario, seed: u64, i: u64| {
        calls.fetch_add(1, Ordering::Relaxed);
        battle(s, seed, i)
    };
    // Two spellings of one number: the same battles under two labels.
    let spellings = SweepSpec {
        axes: vec![Axis::new("red_sr", ["4", "04", "5"])],
        ..spec(10)
    };
    let err = run_sweep(&spellings, editor, counting, &threads(2)).unwrap_err();
    assert!(
        matches!(err, SweepError::Invalid(_)) && err.to_string().contains("cells 0 (red_sr=4) and 1 (red_sr=04)"),
        "{err}"
    );
    // Two axes on one field: every cell of the first is the same.
    let two_axes = SweepSpec {
        axes: vec![Axis::new("red_sr", ["4", "5"]), Axis::new("red_sr ", ["6"])],
        ..spellings
    };
    let twice = |s: &Scenario, path: &str, value: &str| editor(s, path.trim(), value);
    let err = run_sweep(&two_axes, twice, counting, &threads(2)).unwrap_err();
    assert!(err.to_string().contains("same scenario"), "{err}");

    let options = SweepOptions {
        threads: Some(MAX_THREADS + 1),
        ..SweepOptions::default()
    };
    let err = run_sweep(&spec(10), editor, counting, &options).unwrap_err();
    assert!(err.to_string().contains("threads: at most 1024"), "{err}");
    assert_eq!(calls.load(Ordering::Relaxed), 0);
}
