//! A first hour's papercuts at the command line, each pinned: what a first hour
//! with `skirmish` tripped on. Files are made in a fresh folder under the
//! temp dir.

use std::process::{Command, Output};

fn skirmish(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_skirmish"))
        .args(args)
        .output()
        .unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn bench_caps_its_battles_as_sweep_does() {
    // u64::MAX ran on with no end; a sweep caps a cell at 1,000,000,000.
    let out = skirmish(&["bench", "parity", "--battles", "18446744073709551615"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("--battles") && err.contains("1..=1000000000"), "{err}");
    assert!(out.stdout.is_empty());
    // The cap itself is taken.
    let out = skirmish(&["bench", "parity", "--battles", "1000000001"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
}

/// `--out` through a link to an open descriptor (`/dev/stdout` is one to
/// `/proc/self/fd/1`) wrote the CSV header, then failed "No such file or
/// directory". It is refused before any battle, saying why and what to do,
/// and nothing reaches standard output. (The link is made in a temp
/// folder; nothing is written through it.)
#[cfg(target_os = "linux")]
#[test]
fn sweep_out_to_an_open_descriptor_is_refused_before_any_work() {
    use std::os::unix::fs::symlink;
    let dir = std::env::temp_dir().join(format!("skirmish-papercuts-{}-fd", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let link = dir.join("o.csv");
    symlink("/proc/self/fd/1", &link).unwrap();
    for out in [link.to_str().unwrap(), "/proc/self/fd/1"] {
        for extra in [&[][..], &["--resume"][..]] {
            let mut args = vec![
                "sweep",
                "parity",
                "--vary",
                "sides.A.groups.0.count=8,9",
                "--battles",
                "5",
                "--quiet",
                "--out",
                out,
            ];
            args.extend_from_slice(extra);
            let run = skirmish(&args);
            let err = stderr(&run);
            assert!(!run.status.success(), "{out} {extra:?}: {err}");
            assert!(
                err.contains("open file descriptor") && err.contains("(standard output)"),
                "{err}"
            );
            assert!(err.contains("write to a file"), "{err}");
            assert!(
                run.stdout.is_empty(),
                "{out} {extra:?}: {}",
                String::from_utf8_lossy(&run.stdout)
            );
        }
    }
    // The link is still a link to the descriptor: nothing replaced it.
    assert_eq!(
        std::fs::read_link(&link).unwrap(),
        std::path::Path::new("/proc/self/fd/1")
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `run goblin-ambush --set timing=simultaneous` printed 25 warnings about
/// the other systems' numbers the built-in carries on purpose: now one
/// note says how many, and a field the user set is still warned about.
#[test]
fn a_built_ins_own_numbers_for_other_rules_are_one_note() {
    let out = skirmish(&["run", "goblin-ambush", "--set", "timing=simultaneous"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        stderr(&out),
        "note: goblin-ambush: 25 of the built-in's own settings are for other rules than these (it carries every \
         system's numbers on purpose) and have no effect here\n"
    );
    let out = skirmish(&[
        "run",
        "goblin-ambush",
        "--set",
        "timing=simultaneous",
        "--set",
        "sides.party.groups.Roland.interval=5",
        "--set",
        "sides.party.groups.Madoc.stance=all_out_offense",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let err = stderr(&out);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(
        lines,
        [
            "warning: goblin-ambush: sides[0].groups[0].interval: 5 has no effect under simultaneous timing (only \
             the Tick System reads it)",
            "warning: goblin-ambush: sides[0].groups[1].stance: all_out_offense has no effect under full-contact \
             striking (only fudge-opposed striking reads it)",
            "note: goblin-ambush: 24 of the built-in's own settings are for other rules than these (it carries \
             every system's numbers on purpose) and have no effect here",
        ],
        "{err}"
    );
    // Under the rules that read them, nothing at all.
    let out = skirmish(&["run", "goblin-ambush", "--set", "timing=continuous"]);
    assert_eq!(stderr(&out), "");
}
