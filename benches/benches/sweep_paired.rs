//! The sweep speed-up of `sweep.rs` as interleaved pairs: the same sweep
//! (`battle::sweep_spec`) on 1 thread and on 2 threads in turns,
//! alternating which goes first, so that load drifting on a shared machine
//! hits both sides of the ratio. Prints the speed-up, Σ 1-thread time /
//! Σ 2-thread time, with a 95% interval from resampling the rounds.
//!
//! In the same rounds it measures the machine's own ceiling: the same
//! battles fought with no sweep machinery at all, all of them on one
//! thread, and in two halves on two plain threads, each half timed on its
//! own thread. The two vCPUs of this shared machine often run at different
//! speeds (a neighbour on one of them), so the ceiling is the time a
//! perfectly balanced split would take at the two threads' measured rates,
//! `1 / (1 / (2 t_a) + 1 / (2 t_b))`, and the sweep's speed-up can be read
//! against what the machine gave at that moment.
//!
//! `cargo bench -p skirmish-benches --bench sweep_paired` (flags ignored).

use std::time::{Duration, Instant};

use skirmish_benches::battle::sweep_spec;
use skirmish_benches::paired::ratio_with_interval;
use skirmish_sim::battle::{Battle, Workspace};
use skirmish_sim::scenario::Scenario;
use skirmish_sim::sweep::{SweepOptions, SweepSpec, SweepTable, sweep};

/// Time to spend (both sides together).
const BUDGET: Duration = Duration::from_secs(20);
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

/// The sweep's battles with no sweep machinery: every cell's battles on
/// one thread, or split in two halves on two plain threads. Returns the
/// time (for two threads: of a perfectly balanced split at the rates each
/// thread showed on its half) and the actions fought (the same either way).
fn bare(spec: &SweepSpec, threads: u64) -> (f64, u64) {
    let cells = spec.validate().expect("a valid sweep") as usize;
    let scenarios: Vec<Scenario> = (0..cells)
        .map(|cell| {
            spec.axes
                .iter()
                .zip(spec.cell_values(cell))
                .fold(spec.scenario.clone(), |s, (axis, value)| {
                    s.with_field(&axis.path, &value).expect("a valid value")
                })
        })
        .collect();
    let fight = |range: std::ops::Range<u64>| {
        let mut actions = 0;
        for scenario in &scenarios {
            let battle = Battle::new(scenario).expect("a valid battle");
            let mut ws = Workspace::default();
            for i in range.clone() {
                actions += battle.run_summary(&mut ws, spec.seed, i).expect("a battle").actions;
            }
        }
        actions
    };
    let timed = |range: std::ops::Range<u64>| {
        let share = (range.end - range.start) as f64 / spec.battles as f64;
        let start = Instant::now();
        let actions = fight(range);
        // Seconds for all the battles at this thread's rate.
        (start.elapsed().as_secs_f64() / share, actions)
    };
    if threads == 1 {
        return timed(0..spec.battles);
    }
    let half = spec.battles / 2;
    let ((a, x), (b, y)) = std::thread::scope(|s| {
        let other = s.spawn(|| timed(half..spec.battles));
        (timed(0..half), other.join().expect("no panic"))
    });
    (1.0 / (1.0 / a + 1.0 / b), x + y)
}

fn main() {
    let spec = sweep_spec().expect("the parity battle is valid");
    let battles = spec.axes.iter().map(|a| a.values.len() as u64).product::<u64>() * spec.battles;
    // Warm-up, and the check that both give the same table.
    let (_, reference) = turn(&spec, 1);
    assert!(turn(&spec, 2).1 == reference, "1 and 2 threads disagree");
    let bare_actions = bare(&spec, 1).1;
    assert_eq!(bare(&spec, 2).1, bare_actions, "the halves fight the same battles");
    let start = Instant::now();
    let mut rounds = Vec::new();
    let mut bare_rounds = Vec::new();
    while rounds.len() < MIN_ROUNDS || start.elapsed() < BUDGET {
        let (one, two, bare_one, bare_two) = if rounds.len() % 2 == 0 {
            let one = turn(&spec, 1).0;
            let two = turn(&spec, 2).0;
            let bare_one = bare(&spec, 1).0;
            (one, two, bare_one, bare(&spec, 2).0)
        } else {
            let bare_two = bare(&spec, 2).0;
            let bare_one = bare(&spec, 1).0;
            let two = turn(&spec, 2).0;
            (turn(&spec, 1).0, two, bare_one, bare_two)
        };
        rounds.push((one, two));
        bare_rounds.push((bare_one, bare_two));
    }
    let swapped: Vec<(f64, f64)> = rounds.iter().map(|&(one, two)| (two, one)).collect();
    let (ratio, lo, hi) = ratio_with_interval(&swapped);
    let bare_swapped: Vec<(f64, f64)> = bare_rounds.iter().map(|&(one, two)| (two, one)).collect();
    let (bare_ratio, bare_lo, bare_hi) = ratio_with_interval(&bare_swapped);
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
    println!();
    println!(
        "the machine's ceiling in the same rounds (the same battles, no sweep machinery, one thread \
         against a balanced split on two): {bare_ratio:.2}x [{bare_lo:.2}, {bare_hi:.2}]; \
         the sweep reaches {:.0}% of it",
        100.0 * ratio / bare_ratio
    );
}
