//! The sweep speed-up of `sweep.rs` as interleaved pairs: the same sweep
//! (`battle::sweep_spec`) on 1 thread and on 2 threads in turns,
//! alternating which goes first, so that load drifting on a shared machine
//! hits both sides of the ratio. Prints the speed-up, Σ 1-thread time /
//! Σ 2-thread time, with a 95% interval from resampling the rounds.
//!
//! `cargo bench -p skirmish-benches --bench sweep_paired` (flags ignored).

use std::time::{Duration, Instant};

use skirmish_benches::battle::sweep_spec;
use skirmish_benches::paired::ratio_with_interval;
use skirmish_sim::sweep::{SweepOptions, SweepSpec, SweepTable, sweep};

/// Time to spend (both sides together).
const BUDGET: Duration = Duration::from_secs(12);
/// Fewest rounds, however slow the turns.
const MIN_ROUNDS: usize = 20;
fn turn(spec: &SweepSpec, threads: usize) -> (f64, SweepTable) {
    let options = SweepOptions {
        threads: Some(threads),
        ..SweepOptions::default()
    };
    let start = Instant::now();
    let table = sweep(spec, &options).expect("a valid sweep");
    (start.elapsed().as_secs_f64(), table)
}

fn main() {
    let spec = sweep_spec().expect("the parity battle is valid");
    let battles = spec.axes.iter().map(|a| a.values.len() as u64).product::<u64>() * spec.battles;
    // Warm-up, and the check that both give the same table.
    let (_, reference) = turn(&spec, 1);
    assert!(turn(&spec, 2).1 == reference, "1 and 2 threads disagree");
    let start = Instant::now();
    let mut rounds = Vec::new();
    while rounds.len() < MIN_ROUNDS || start.elapsed() < BUDGET {
        let (one, two) = if rounds.len() % 2 == 0 {
            let one = turn(&spec, 1).0;
            (one, turn(&spec, 2).0)
        } else {
            let two = turn(&spec, 2).0;
            (turn(&spec, 1).0, two)
        };
        rounds.push((one, two));
    }
    let swapped: Vec<(f64, f64)> = rounds.iter().map(|&(one, two)| (two, one)).collect();
    let (ratio, lo, hi) = ratio_with_interval(&swapped);
    let mean = |side: fn(&(f64, f64)) -> f64| rounds.iter().map(side).sum::<f64>() / rounds.len() as f64;
    println!("interleaved pairs: the same sweep on 1 and 2 threads in turns ({battles} battles per sweep)");
    println!();
    println!(
        "| rounds | 1 thread ms/sweep | 2 threads ms/sweep | 1 thread us/battle | 2 threads us/battle | speed-up [95% CI] |"
    );
    println!("| ---: | ---: | ---: | ---: | ---: | ---: |");
    let (one, two) = (mean(|r| r.0), mean(|r| r.1));
    println!(
        "| {} | {:.1} | {:.1} | {:.2} | {:.2} | {ratio:.2}x [{lo:.2}, {hi:.2}] |",
        rounds.len(),
        one * 1e3,
        two * 1e3,
        one * 1e6 / battles as f64,
        two * 1e6 / battles as f64,
    );
}
