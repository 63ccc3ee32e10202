//! The tracker at a phone's scale: memory, snapshot size and restore time
//! of a 30-combatant Continuous encounter after N operations (the tracker's
//! bounded-memory targets: for 1,000 operations, heap under 5 MB, snapshot
//! under 1 MB, restore under 10 ms).
//!
//! ```sh
//! cargo run --release -p skirmish-benches --example tracker_memory -- 1000
//! ```
//!
//! Memory is the growth of the process's resident set while the encounter
//! is built (read from /proc/self/status, Linux only; 0 elsewhere): an
//! upper bound on what the encounter holds, allocator slack included; and
//! again once it has been saved (a snapshot keeps each carried undo step's
//! text for the next one, as an app saving after every operation has it).

use std::process::ExitCode;
use std::time::Instant;

use skirmish_benches::tracker::long_fight;
use skirmish_core::tracker::Encounter;

fn resident_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1).and_then(|n| n.parse().ok()))
        })
        .unwrap_or(0)
}

fn main() -> ExitCode {
    let ops = std::env::args()
        .nth(1)
        .and_then(|a| a.parse::<u64>().ok())
        .unwrap_or(1_000);
    let before = resident_kib();
    let e = match long_fight(ops) {
        Ok(e) => e,
        Err(err) => {
            eprintln!("tracker_memory: {err}");
            return ExitCode::FAILURE;
        }
    };
    let grown = resident_kib().saturating_sub(before);
    let Ok(json) = e.snapshot() else {
        eprintln!("tracker_memory: snapshot failed");
        return ExitCode::FAILURE;
    };
    let saved = resident_kib().saturating_sub(before);
    let mut times = Vec::new();
    for _ in 0..21 {
        let t = Instant::now();
        if Encounter::restore(&json).is_err() {
            eprintln!("tracker_memory: restore failed");
            return ExitCode::FAILURE;
        }
        times.push(t.elapsed().as_secs_f64() * 1e3);
    }
    times.sort_by(f64::total_cmp);
    println!(
        "{ops} operations: resident set grew {grown} KiB ({saved} KiB once saved, the snapshot text \
         included); undo depth {}; log {} entries; snapshot {} bytes; restore median {:.2} ms (min {:.2}, max {:.2})",
        e.undo_depth(),
        e.log_len(),
        json.len(),
        times[times.len() / 2],
        times[0],
        times[times.len() - 1]
    );
    ExitCode::SUCCESS
}
