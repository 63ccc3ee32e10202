//! Sweep output files: symlinks written through, special files and hard
//! links refused before any battle, permissions kept, editor-saved
//! checkpoints (CRLF, BOM) resumed, impossible percentiles refused. Every
//! file is made in a fresh folder under the test target's scratch dir.
#![cfg(unix)]

use std::fs;
use std::os::unix::fs::{FileTypeExt as _, PermissionsExt as _, symlink};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::checkpoint::with_checks;
use skirmish_core::dice::SeededRolls;
use skirmish_sim::report::{BattleSummary, Breaks, Outcome};
use skirmish_sim::scenario::Scenario;
use skirmish_sim::sweep::{
    Axis, SweepError, SweepOptions, SweepSpec, check_output, existing_work, run_sweep, write_output,
};

fn folder(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("sweep-output-tests")
        .join(name);
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

fn spec() -> SweepSpec {
    let scenario: Scenario = toml::from_str(
        r#"
        name = "duel"
        [[sides]]
        name = "Red"
        groups = [{ name = "red", strike_rating = 5 }]
        [[sides]]
        name = "Blue"
        groups = [{ name = "blue" }]
        "#,
    )
    .unwrap();
    SweepSpec {
        scenario,
        axes: vec![Axis::new("red_sr", ["4", "5", "6"])],
        battles: 40,
        seed: 3,
    }
}

fn editor(s: &Scenario, path: &str, value: &str) -> Result<Scenario, String> {
    let mut s = s.clone();
    match path {
        "red_sr" => s.sides[0].groups[0].strike_rating = value.parse().map_err(|_| "not a number")?,
        _ => return Err(format!("no field {path}")),
    }
    Ok(s)
}

fn battle(s: &Scenario, seed: u64, index: u64) -> Result<BattleSummary, String> {
    let mut dice = SeededRolls::for_stream(seed, index);
    let red_wins = s.sides[0].groups[0].strike_rating + dice.four_df() > 5;
    Ok(BattleSummary {
        outcome: Outcome::Win {
            side: if red_wins { 0 } else { 1 },
        },
        ticks: 2 + dice.below(6),
        rounds: 1,
        actions: 2,
        hits: 1,
        amazing_strikes: 0,
        amazing_defenses: 0,
        disruptions: 0,
        breaks: Breaks::NONE,
    })
}

fn checkpoint(path: &Path, resume: bool) -> SweepOptions {
    SweepOptions {
        threads: Some(2),
        checkpoint: Some(path.to_path_buf()),
        resume,
        ..SweepOptions::default()
    }
}

fn full_csv() -> String {
    run_sweep(&spec(), editor, battle, &SweepOptions::default())
        .unwrap()
        .to_csv()
}

fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    v.sort();
    v
}

#[test]
fn a_symlinked_checkpoint_is_written_through() {
    let dir = folder("symlink");
    symlink("target.csv", dir.join("link.csv")).unwrap();
    let table = run_sweep(&spec(), editor, battle, &checkpoint(&dir.join("link.csv"), false)).unwrap();
    assert!(
        fs::symlink_metadata(dir.join("link.csv"))
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(fs::read_to_string(dir.join("target.csv")).unwrap(), table.to_csv());
    // A checkpoint resumed through the link (a finished output is refused
    // by a resume, left as it is).
    let err = run_sweep(&spec(), editor, battle, &checkpoint(&dir.join("link.csv"), true)).unwrap_err();
    assert!(matches!(err, SweepError::Checkpoint { line: 1, .. }), "{err}");
    let full = table.to_csv();
    let lines: Vec<&str> = full.lines().collect();
    fs::write(dir.join("target.csv"), with_checks(&lines[..2])).unwrap();
    run_sweep(&spec(), editor, battle, &checkpoint(&dir.join("link.csv"), true)).unwrap();
    assert_eq!(fs::read_to_string(dir.join("target.csv")).unwrap(), full);
    assert!(
        fs::symlink_metadata(dir.join("link.csv"))
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(names(&dir), ["link.csv", "target.csv"]);
}

#[test]
fn special_files_and_hard_links_are_refused_before_any_battle() {
    let dir = folder("special");
    let fifo = dir.join("pipe.csv");
    let mut refused: Vec<(PathBuf, &str)> = Vec::new();
    if Command::new("mkfifo").arg(&fifo).status().is_ok_and(|s| s.success()) {
        refused.push((fifo.clone(), "FIFO"));
    }
    fs::create_dir(dir.join("sub.csv")).unwrap();
    refused.push((dir.join("sub.csv"), "folder"));
    symlink("sub.csv", dir.join("to-sub.csv")).unwrap();
    refused.push((dir.join("to-sub.csv"), "folder"));
    fs::write(dir.join("a.csv"), "").unwrap();
    fs::hard_link(dir.join("a.csv"), dir.join("b.csv")).unwrap();
    refused.push((dir.join("b.csv"), "hard links"));
    let fought = AtomicU64::new(0);
    let counting = |s: &Scenario, seed: u64, index: u64| {
        fought.fetch_add(1, Ordering::Relaxed);
        battle(s, seed, index)
    };
    for (path, needle) in &refused {
        for resume in [false, true] {
            let err = run_sweep(&spec(), editor, counting, &checkpoint(path, resume)).unwrap_err();
            assert!(matches!(err, SweepError::Io { .. }), "{err}");
            let text = err.to_string();
            assert!(text.contains(needle) && text.contains(path.to_str().unwrap()), "{text}");
            assert_eq!(fought.load(Ordering::Relaxed), 0, "{text}");
        }
        assert!(check_output(path).is_err());
        assert!(write_output(path, b"x").is_err());
    }
    if fifo.exists() {
        assert!(fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo());
    }
    assert!(dir.join("sub.csv").is_dir());
    assert_eq!(fs::read(dir.join("a.csv")).unwrap(), b"");
    assert!(!names(&dir).iter().any(|n| n.ends_with(".tmp")), "{:?}", names(&dir));
}

#[test]
fn a_replaced_file_keeps_its_mode_and_errors_name_the_given_path() {
    let dir = folder("mode");
    let path = dir.join("out.json");
    fs::write(&path, "old").unwrap();
    fs::set_permissions(&path, fs::Permissions::from_mode(0o600)).unwrap();
    write_output(&path, b"new").unwrap();
    assert_eq!(fs::read_to_string(&path).unwrap(), "new");
    assert_eq!(fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o600);
    assert_eq!(names(&dir), ["out.json"]);

    let missing = dir.join("no-such-folder").join("out.csv");
    let err = write_output(&missing, b"x").unwrap_err().to_string();
    assert!(
        err.starts_with(missing.to_str().unwrap()) && !err.contains(".tmp"),
        "{err}"
    );
    assert!(check_output(&missing).is_err());
    check_output(&dir.join("fresh.csv")).unwrap();
    assert_eq!(names(&dir), ["out.json"], "the probe is removed");
}

#[test]
fn existing_work_says_what_would_be_lost() {
    let dir = folder("existing");
    let spec = spec();
    let full = full_csv();
    let header = full.lines().next().unwrap();
    let cases = [
        ("missing.csv", None, None),
        ("empty.csv", Some(String::new()), None),
        ("header.csv", Some(format!("{header}\n")), None),
        ("torn-header.csv", Some(header[..10].to_owned()), None),
        ("full.csv", Some(full.clone()), Some("3 finished cells")),
        ("crlf.csv", Some(full.replace('\n', "\r\n")), Some("3 finished cells")),
        ("other.csv", Some("a,b\n1,2\n".to_owned()), Some("not this sweep's")),
    ];
    for (name, text, expected) in cases {
        let path = dir.join(name);
        if let Some(text) = text {
            fs::write(&path, text).unwrap();
        }
        let found = existing_work(&path, &spec).unwrap();
        match expected {
            None => assert_eq!(found, None, "{name}"),
            Some(needle) => assert!(found.as_deref().unwrap_or("").contains(needle), "{name}: {found:?}"),
        }
    }
}

#[test]
fn a_checkpoint_saved_by_an_editor_resumes() {
    let dir = folder("editor");
    let full = full_csv();
    let lines: Vec<&str> = full.lines().collect();
    // A checkpoint (with its row checks) as an editor saves it.
    let checked = with_checks(&lines);
    let lines: Vec<&str> = checked.lines().collect();
    for (name, text) in [
        ("crlf.csv", format!("{}\r\n{}\r\n", lines[0], lines[1])),
        ("bom.csv", format!("\u{feff}{}\n{}\n{}\n", lines[0], lines[1], lines[2])),
        ("bom-crlf.csv", format!("\u{feff}{}\r\n{}\r\n", lines[0], lines[2])),
        ("bom-header-only.csv", format!("\u{feff}{}\r\n", lines[0])),
    ] {
        let path = dir.join(name);
        fs::write(&path, text).unwrap();
        let table = run_sweep(&spec(), editor, battle, &checkpoint(&path, true)).unwrap();
        assert_eq!(table.to_csv(), full, "{name}");
        assert_eq!(fs::read_to_string(&path).unwrap(), full, "{name}");
    }
}

#[test]
fn impossible_percentiles_are_refused_on_resume() {
    let dir = folder("percentiles");
    let full = full_csv();
    let lines: Vec<&str> = full.lines().collect();
    let header: Vec<&str> = lines[0].split(',').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let row: Vec<&str> = lines[1].split(',').collect();
    let p90 = row[col("p90_ticks")].to_owned();
    let above = (p90.parse::<u64>().unwrap() + 1).to_string();
    for (name, column, value, needle) in [
        // The median above the 90th percentile.
        ("median.csv", "median_ticks", above.as_str(), "above p90_ticks"),
        // A 90th percentile that 4 of 40 battles could not reach within
        // the total duration.
        ("p90.csv", "p90_ticks", "1000000", "total_ticks"),
    ] {
        let mut edited = row.clone();
        edited[col(column)] = value;
        // With its row check recomputed on purpose: the row itself is checked.
        let edited = edited.join(",");
        let text = with_checks(&[lines[0], &edited]);
        let path = dir.join(name);
        fs::write(&path, &text).unwrap();
        let err = run_sweep(&spec(), editor, battle, &checkpoint(&path, true)).unwrap_err();
        assert!(matches!(err, SweepError::Checkpoint { line: 2, .. }), "{err}");
        assert!(err.to_string().contains(needle), "{err}");
        assert_eq!(fs::read_to_string(&path).unwrap(), text, "left alone");
    }
}
