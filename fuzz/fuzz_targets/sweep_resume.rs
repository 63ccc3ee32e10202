//! Door: the sweep spec (`skirmish sweep --vary ... --battles N --seed S`)
//! and `--resume` from a checkpoint file (hours of work a user keeps, and
//! may have edited, truncated or had an editor save with a BOM or CRLF).
//!
//! Input: a spec (a built-in made small, one or two axes, battles, seed),
//! then the checkpoint, either
//! - raw bytes (anything a file can hold), or
//! - the sweep's own checkpoint with edits: a field changed (to any text
//!   or a nearby number), a line removed, doubled or moved, the file cut
//!   short, a BOM or CRLF line ends added, text appended. The checkpoint is
//!   the one a sweep leaves when stopped after `stop_after` cells (the rows
//!   with their row checks, what a user resumes after Ctrl-C or a crash),
//!   or, when `stop_after` is at least the cell count, the finished output
//!   (no row checks: resume must refuse it untouched).
//!
//! Checked: no panic; `existing_work` answers; resume either refuses with
//! a typed error and leaves the file as it was, or gives exactly the table
//! a fresh sweep gives (a reused row must be this sweep's own result, never
//! a hand-edited one) and leaves that table in the file.
#![no_main]

use std::fs;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use arbitrary::{Arbitrary, Unstructured};
use libfuzzer_sys::fuzz_target;
use skirmish_fuzz::{cheap_to_fight, small_builtin};
use skirmish_sim::sweep::{Axis, SweepProgress, SweepError, SweepOptions, SweepSpec, existing_work, sweep};

#[derive(Arbitrary, Debug)]
struct SpecIn {
    builtin: u8,
    battles: u8,
    seed: u64,
    axes: Vec<(u8, Vec<String>)>,
}

/// Paths an axis may vary (the fuzzer also gets free text through `Other`).
const PATHS: [&str; 8] = [
    "timing",
    "striking",
    "damage",
    "battle.targeting",
    "sides[0].groups[0].count",
    "sides[1].groups[0].strike_rating",
    "sides[0].groups[0].weapon",
    "battle.max_attackers_per_target",
];

#[derive(Arbitrary, Debug)]
enum Checkpoint {
    Raw(Vec<u8>),
    Edited { stop_after: u8, edits: Vec<Edit> },
}

#[derive(Arbitrary, Debug)]
enum Edit {
    Field { line: u8, field: u8, text: String },
    Nudge { line: u8, field: u8, by: i8 },
    DeleteLine(u8),
    DuplicateLine(u8),
    MoveLine(u8, u8),
    CutAt(u16),
    Bom,
    Crlf,
    Append(String),
}

fn edit(text: &str, edits: &[Edit]) -> Vec<u8> {
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    let (mut cut, mut bom, mut crlf, mut tail) = (None, false, false, String::new());
    for e in edits.iter().take(6) {
        let n = lines.len().max(1);
        match e {
            Edit::Field { line, field, text } => {
                if let Some(l) = lines.get_mut(usize::from(*line) % n) {
                    let mut fields: Vec<String> = l.split(',').map(str::to_owned).collect();
                    let i = usize::from(*field) % fields.len();
                    fields[i] = text.clone();
                    *l = fields.join(",");
                }
            }
            Edit::Nudge { line, field, by } => {
                if let Some(l) = lines.get_mut(usize::from(*line) % n) {
                    let mut fields: Vec<String> = l.split(',').map(str::to_owned).collect();
                    let i = usize::from(*field) % fields.len();
                    if let Ok(v) = fields[i].parse::<i64>() {
                        fields[i] = v.saturating_add(i64::from(*by)).to_string();
                    } else if let Ok(v) = fields[i].parse::<f64>() {
                        fields[i] = format!("{:.6}", v + f64::from(*by) / 1000.0);
                    }
                    *l = fields.join(",");
                }
            }
            Edit::DeleteLine(i) => {
                if !lines.is_empty() {
                    lines.remove(usize::from(*i) % n);
                }
            }
            Edit::DuplicateLine(i) => {
                if let Some(l) = lines.get(usize::from(*i) % n).cloned() {
                    lines.insert(usize::from(*i) % n, l);
                }
            }
            Edit::MoveLine(a, b) => {
                if !lines.is_empty() {
                    let l = lines.remove(usize::from(*a) % n);
                    lines.insert(usize::from(*b) % (lines.len() + 1), l);
                }
            }
            Edit::CutAt(at) => cut = Some(usize::from(*at)),
            Edit::Bom => bom = true,
            Edit::Crlf => crlf = true,
            Edit::Append(t) => tail.push_str(t),
        }
    }
    let mut out = String::new();
    if bom {
        out.push('\u{feff}');
    }
    for l in &lines {
        out.push_str(l);
        out.push_str(if crlf { "\r\n" } else { "\n" });
    }
    out.push_str(&tail);
    let mut bytes = out.into_bytes();
    if let Some(at) = cut {
        bytes.truncate(at);
    }
    bytes
}

/// This process's own scratch file in the system's temporary folder.
fn scratch() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("skirmish-fuzz-sweep-{}", std::process::id()));
    fs::create_dir_all(&dir).expect("a scratch folder in the temporary folder");
    dir.join("checkpoint.csv")
}

fuzz_target!(|data: &[u8]| {
    let mut u = Unstructured::new(data);
    let Ok(spec_in) = SpecIn::arbitrary(&mut u) else { return };
    let Ok(checkpoint) = Checkpoint::arbitrary_take_rest(u) else {
        return;
    };
    let axes: Vec<Axis> = spec_in
        .axes
        .iter()
        .take(2)
        .map(|(p, values)| Axis::new(PATHS[usize::from(*p) % PATHS.len()], values.iter().take(4).cloned()))
        .collect();
    let spec = SweepSpec {
        scenario: small_builtin(spec_in.builtin),
        axes,
        battles: 1 + u64::from(spec_in.battles % 4),
        seed: spec_in.seed,
    };
    let Ok(cells) = spec.validate() else { return };
    if cells > 8 {
        return;
    }
    for cell in 0..cells as usize {
        let mut s = spec.scenario.clone();
        for (axis, value) in spec.axes.iter().zip(spec.cell_values(cell)) {
            match s.with_field(&axis.path, &value) {
                Ok(next) => s = next,
                Err(_) => return,
            }
        }
        if !cheap_to_fight(&s) {
            return;
        }
    }
    let one_thread = SweepOptions {
        threads: Some(1),
        ..SweepOptions::default()
    };
    let fresh = sweep(&spec, &one_thread).unwrap_or_else(|e| panic!("a sweep of cheap, valid cells failed: {e}"));

    let path = scratch();
    let bytes = match &checkpoint {
        Checkpoint::Raw(b) => b.clone(),
        Checkpoint::Edited { stop_after, edits } => {
            let _ = fs::remove_file(&path);
            let stop_after = u64::from(*stop_after) % (cells + 1);
            let cancel = Arc::new(AtomicBool::new(false));
            let flag = Arc::clone(&cancel);
            let with_file = SweepOptions {
                checkpoint: Some(path.clone()),
                cancel: Some(Arc::clone(&cancel)),
                // One thread: the callback after a finished cell stops the
                // sweep before the next cell starts.
                progress: Some(Arc::new(move |p: SweepProgress| {
                    if p.cells_done >= stop_after && p.cells_done < p.cells_total {
                        flag.store(true, Ordering::Relaxed);
                    }
                })),
                ..one_thread.clone()
            };
            if stop_after == 0 {
                cancel.store(true, Ordering::Relaxed);
            }
            // Stopped after `stop_after` cells (none: the flag was set before
            // the first), or finished when that is every cell.
            match sweep(&spec, &with_file) {
                Ok(table) => {
                    assert_eq!(
                        stop_after, cells,
                        "a sweep asked to stop after {stop_after} cells finished"
                    );
                    assert_eq!(table.to_csv(), fresh.to_csv(), "a checkpoint changed the results");
                }
                Err(SweepError::Cancelled { cells_done, .. }) => {
                    assert_eq!(cells_done, stop_after, "a sweep stopped after the wrong cell");
                }
                Err(e) => panic!("a checkpointed sweep failed: {e}"),
            }
            let own = if stop_after == 0 {
                fs::read_to_string(&path).unwrap_or_default()
            } else {
                fs::read_to_string(&path).expect("a sweep that fought a cell wrote its checkpoint")
            };
            edit(&own, edits)
        }
    };
    fs::write(&path, &bytes).expect("the scratch checkpoint is writable");
    let _ = existing_work(&path, &spec);
    let resume = SweepOptions {
        checkpoint: Some(path.clone()),
        resume: true,
        ..one_thread
    };
    match sweep(&spec, &resume) {
        Ok(table) => {
            assert_eq!(
                table.to_csv(),
                fresh.to_csv(),
                "resume gave a table different from a fresh sweep; checkpoint was:\n{}",
                String::from_utf8_lossy(&bytes)
            );
            let left = fs::read(&path).expect("the checkpoint is still there");
            assert_eq!(
                String::from_utf8_lossy(&left),
                fresh.to_csv(),
                "after a finished resume the checkpoint does not hold the table"
            );
        }
        Err(_) => {
            let left = fs::read(&path).expect("the checkpoint is still there");
            assert!(left == bytes, "a refused resume changed the checkpoint");
        }
    }
});
