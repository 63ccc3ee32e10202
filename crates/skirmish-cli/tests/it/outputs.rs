//! `skirmish sweep --out / --plot`: what the output paths may be, what is
//! refused before any battle, and what is never overwritten silently.
//! Every file here is made inside a fresh folder under the temp dir.

use std::fs;
use std::os::unix::fs::{FileTypeExt as _, PermissionsExt as _, symlink};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Instant;

fn skirmish(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_skirmish"))
        .args(args)
        .output()
        .unwrap()
}

/// A fresh, empty folder of this test under the temp dir.
fn folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("skirmish-outputs-{}-{name}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// A quick sweep (2 cells x 20 battles) with `extra` arguments.
fn quick(extra: &[&str]) -> Output {
    let mut args = vec![
        "sweep",
        "parity",
        "--vary",
        "sides.A.groups.0.count=8,10",
        "--battles",
        "20",
        "--quiet",
    ];
    args.extend_from_slice(extra);
    skirmish(&args)
}

fn ok(out: Output) -> Output {
    assert!(out.status.success(), "failed: {}", String::from_utf8_lossy(&out.stderr));
    out
}

/// A sweep of 10^8 battles that must be refused up front (fighting it
/// would take minutes): returns standard error.
fn refused_up_front(extra: &[&str]) -> String {
    let mut args = vec!["sweep", "--battles", "100000000", "--quiet"];
    args.extend_from_slice(extra);
    let started = Instant::now();
    let out = skirmish(&args);
    assert_eq!(out.status.code(), Some(2), "{extra:?} should be refused");
    assert!(
        started.elapsed().as_secs() < 30,
        "{extra:?} was not refused before the battles"
    );
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(!err.contains("panicked"), "{err}");
    err
}

/// The names in `dir`, sorted (no temporary file may be left behind).
fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    v.sort();
    v
}

#[test]
fn a_symlinked_output_is_written_through_and_the_link_stays() {
    let dir = folder("symlink");
    for (target, link, flag) in [
        ("t.csv", "l.csv", "--out"),
        ("t.json", "l.json", "--out"),
        ("t.svg", "l.svg", "--plot"),
    ] {
        // A relative link, to a file that does not exist yet, then again
        // to the file the first run wrote.
        symlink(target, dir.join(link)).unwrap();
        for round in 0..2 {
            let path = dir.join(link);
            let mut args = vec![flag, s(&path)];
            if round == 1 && flag == "--out" {
                args.push("--force");
            }
            ok(quick(&args));
            let meta = fs::symlink_metadata(dir.join(link)).unwrap();
            assert!(meta.file_type().is_symlink(), "{link}: the link was replaced");
            let text = fs::read_to_string(dir.join(target)).unwrap();
            let start = match flag {
                "--plot" => "<svg",
                _ if target.ends_with(".json") => "[",
                _ => "sides.A.groups.0.count,battles,",
            };
            assert!(text.starts_with(start), "{target}: {text}");
        }
    }
    assert_eq!(names(&dir), ["l.csv", "l.json", "l.svg", "t.csv", "t.json", "t.svg"]);
    fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_fifo_or_a_folder_is_refused_before_any_battle() {
    let dir = folder("special");
    let fifo = dir.join("pipe.csv");
    let made = Command::new("mkfifo").arg(&fifo).status().is_ok_and(|s| s.success());
    if made {
        for (flag, path) in [("--out", &fifo), ("--plot", &dir.join("pipe.svg"))] {
            if flag == "--plot" {
                Command::new("mkfifo").arg(path).status().unwrap();
            }
            let err = refused_up_front(&[flag, s(path)]);
            assert!(err.contains("FIFO") && err.contains(s(path)), "{err}");
            assert!(fs::symlink_metadata(path).unwrap().file_type().is_fifo());
        }
        // Through a symlink too, and as JSON, and with --force.
        symlink(&fifo, dir.join("to-pipe.json")).unwrap();
        let err = refused_up_front(&["--out", s(&dir.join("to-pipe.json")), "--force"]);
        assert!(err.contains("FIFO"), "{err}");
        let err = refused_up_front(&["--out", s(&fifo), "--resume"]);
        assert!(err.contains("FIFO"), "{err}");
        assert!(fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo());
    } else {
        eprintln!("no mkfifo here: the FIFO cases are skipped");
    }
    let sub = dir.join("folder.csv");
    fs::create_dir(&sub).unwrap();
    symlink(&sub, dir.join("to-folder.csv")).unwrap();
    for path in [&sub, &dir.join("to-folder.csv")] {
        let err = refused_up_front(&["--out", s(path)]);
        assert!(err.contains("folder"), "{err}");
    }
    assert!(sub.is_dir());
    assert!(!names(&dir).iter().any(|n| n.ends_with(".tmp")), "{:?}", names(&dir));
    fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_hard_linked_output_is_refused_and_both_names_kept() {
    let dir = folder("hardlink");
    let a = dir.join("a.csv");
    let b = dir.join("b.csv");
    fs::write(&a, "").unwrap();
    fs::hard_link(&a, &b).unwrap();
    for extra in [
        &["--out", s(&a)][..],
        &["--out", s(&b), "--force"],
        &["--plot", s(&dir.join("a.svg"))],
    ] {
        if extra[0] == "--plot" {
            fs::hard_link(&a, dir.join("a.svg")).unwrap();
        }
        let err = refused_up_front(extra);
        assert!(err.contains("hard links") && err.contains(extra[1]), "{err}");
    }
    use std::os::unix::fs::MetadataExt as _;
    assert_eq!(fs::metadata(&a).unwrap().nlink(), 3);
    assert_eq!(names(&dir), ["a.csv", "a.svg", "b.csv"]);
    fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_read_only_folder_is_refused_before_any_battle() {
    let dir = folder("read-only");
    let ro = dir.join("ro");
    fs::create_dir(&ro).unwrap();
    fs::set_permissions(&ro, fs::Permissions::from_mode(0o555)).unwrap();
    // Root (CI) ignores permissions: then there is nothing to refuse.
    let probe = ro.join("probe");
    if fs::write(&probe, "").is_ok() {
        eprintln!("permissions are not enforced here (root): skipped");
    } else {
        for (flag, name) in [("--out", "x.json"), ("--out", "x.csv"), ("--plot", "x.svg")] {
            let path = ro.join(name);
            let err = refused_up_front(&[flag, s(&path)]);
            assert!(err.contains(s(&path)), "{err}");
            assert!(
                !err.contains(".tmp"),
                "the error names a file the user never typed: {err}"
            );
        }
    }
    fs::set_permissions(&ro, fs::Permissions::from_mode(0o755)).unwrap();
    fs::remove_dir_all(&dir).ok();
}

#[test]
fn finished_work_is_not_overwritten_without_resume_or_force() {
    let dir = folder("keep");
    let out = dir.join("sweep.csv");
    ok(quick(&["--out", s(&out)]));
    let finished = fs::read_to_string(&out).unwrap();
    assert_eq!(finished.lines().count(), 3);

    // A re-run without --resume is refused and leaves every row; it is a
    // finished sweep, which --resume cannot continue: not advised.
    let err = String::from_utf8(quick(&["--out", s(&out)]).stderr).unwrap();
    assert!(
        err.contains("2 finished cells")
            && err.contains("finished sweep's output")
            && err.contains("--resume cannot continue it")
            && err.contains("--force")
            && err.contains("another --out")
            && !err.contains("Add --resume"),
        "{err}"
    );
    assert_eq!(fs::read_to_string(&out).unwrap(), finished);
    // --resume refuses it before any battle and leaves it byte for byte;
    // --force starts over.
    let before = fs::read(&out).unwrap();
    let o = quick(&["--out", s(&out), "--resume"]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8(o.stderr).unwrap();
    assert!(
        err.contains("line 1") && err.contains("2 finished rows without row checks") && err.contains("--force"),
        "{err}"
    );
    assert_eq!(fs::read(&out).unwrap(), before, "byte for byte");
    // A checkpoint with a finished cell: --resume is advised, and continues it.
    let lines: Vec<&str> = finished.lines().collect();
    let checkpoint = format!(
        "{},row_check\n{},{}\n",
        lines[0],
        lines[1],
        row_check(lines[0], lines[1])
    );
    fs::write(&out, &checkpoint).unwrap();
    let err = String::from_utf8(quick(&["--out", s(&out)]).stderr).unwrap();
    assert!(err.contains("1 finished cell") && err.contains("Add --resume"), "{err}");
    assert_eq!(fs::read_to_string(&out).unwrap(), checkpoint);
    ok(quick(&["--out", s(&out), "--resume"]));
    assert_eq!(fs::read_to_string(&out).unwrap(), finished);
    ok(quick(&["--out", s(&out), "--force"]));
    assert_eq!(fs::read_to_string(&out).unwrap(), finished);

    // A file of anything else, CSV or JSON, is not replaced either.
    for name in ["notes.csv", "old.json"] {
        let path = dir.join(name);
        fs::write(&path, "keep me\n").unwrap();
        let err = String::from_utf8(quick(&["--out", s(&path)]).stderr).unwrap();
        assert!(err.contains("not this sweep's checkpoint"), "{err}");
        assert_eq!(fs::read_to_string(&path).unwrap(), "keep me\n");
    }
    // An empty file, or a checkpoint of only the header, is no loss.
    let empty = dir.join("empty.csv");
    fs::write(&empty, "").unwrap();
    ok(quick(&["--out", s(&empty)]));
    let header_only = dir.join("header.csv");
    fs::write(&header_only, format!("{}\n", finished.lines().next().unwrap())).unwrap();
    ok(quick(&["--out", s(&header_only)]));
    assert_eq!(fs::read_to_string(&header_only).unwrap(), finished);
    fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_replaced_output_keeps_its_permissions() {
    let dir = folder("mode");
    let out = dir.join("sweep.json");
    fs::write(&out, "").unwrap();
    fs::set_permissions(&out, fs::Permissions::from_mode(0o640)).unwrap();
    ok(quick(&["--out", s(&out)]));
    let meta = fs::metadata(&out).unwrap();
    assert_eq!(meta.permissions().mode() & 0o777, 0o640);
    assert!(fs::read_to_string(&out).unwrap().starts_with('['));
    assert_eq!(names(&dir), ["sweep.json"]);
    fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_checkpoint_saved_with_crlf_or_a_bom_resumes() {
    let dir = folder("crlf");
    let full = dir.join("full.csv");
    ok(quick(&["--out", s(&full)]));
    let finished = fs::read_to_string(&full).unwrap();
    let final_lines: Vec<&str> = finished.lines().collect();
    let header = final_lines[0];
    let rows: Vec<String> = final_lines[1..]
        .iter()
        .map(|row| format!("{row},{}", row_check(header, row)))
        .collect();
    let header_checked = format!("{header},row_check");
    let lines = [header_checked.as_str(), rows[0].as_str(), rows[1].as_str()];
    for (name, text) in [
        ("crlf.csv", format!("{}\r\n{}\r\n", lines[0], lines[1])),
        ("bom.csv", format!("\u{feff}{}\n{}\n", lines[0], lines[1])),
        (
            "both.csv",
            format!("\u{feff}{}\r\n{}\r\n{}\r\n", lines[0], lines[1], lines[2]),
        ),
    ] {
        let path = dir.join(name);
        fs::write(&path, text).unwrap();
        ok(quick(&["--out", s(&path), "--resume"]));
        assert_eq!(fs::read_to_string(&path).unwrap(), finished, "{name}");
    }
    fs::remove_dir_all(&dir).ok();
}

/// The documented row check of a checkpoint row (see docs/scenarios.md).
fn row_check(header: &str, line: &str) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in format!("skirmish sweep row v1\n{header}\n{line}").bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{hash:016x}")
}

#[test]
fn a_damaged_checkpoint_is_refused_and_what_is_fought_again_is_said() {
    let dir = folder("damaged");
    let out = dir.join("sweep.csv");
    ok(quick(&["--out", s(&out)]));
    let finished = fs::read_to_string(&out).unwrap();
    let lines: Vec<&str> = finished.lines().collect();
    let header = lines[0];
    let checked = |rows: &[String]| {
        let mut text = format!("{header},row_check\n");
        for row in rows {
            text.push_str(&format!("{row},{}\n", row_check(header, row)));
        }
        text
    };
    let stderr = |o: &Output| String::from_utf8_lossy(&o.stderr).into_owned();

    // The finished output has no row checks: resuming it is refused before
    // any battle, the file left byte for byte.
    let o = quick(&["--out", s(&out), "--resume"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("2 finished rows without row checks"),
        "{}",
        stderr(&o)
    );
    assert_eq!(fs::read_to_string(&out).unwrap(), finished);

    // A checkpoint killed while writing its second row: repaired, with a note.
    let whole = checked(&[lines[1].to_owned(), lines[2].to_owned()]);
    let torn = &whole[..whole.len() - 20];
    fs::write(&out, torn).unwrap();
    let o = ok(quick(&["--out", s(&out), "--resume"]));
    assert!(stderr(&o).contains("incomplete"), "{}", stderr(&o));
    assert_eq!(fs::read_to_string(&out).unwrap(), finished);

    // Its first row edited by hand (the median, one tick more): refused
    // before any battle, naming the line, and left as it was.
    let at = header.split(',').position(|h| h == "median_ticks").unwrap();
    let mut fields: Vec<String> = lines[1].split(',').map(str::to_owned).collect();
    fields[at] = (fields[at].parse::<u64>().unwrap() + 1).to_string();
    let check = row_check(header, lines[1]);
    let edited = format!("{header},row_check\n{},{check}\n", fields.join(","));
    fs::write(&out, &edited).unwrap();
    let o = quick(&["--out", s(&out), "--resume"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("line 2") && stderr(&o).contains("row_check"),
        "{}",
        stderr(&o)
    );
    assert_eq!(fs::read_to_string(&out).unwrap(), edited);
    fs::remove_dir_all(&dir).ok();
}
