//! How long a thread started beside a busy one takes to run, on this
//! machine (the question: why the README's two-thread sweep, a few ms in
//! all, is not twice as fast as one thread).
//!
//! A sweep's calling thread starts its workers and the first starts
//! battles at once; the second can only start when the kernel runs it on
//! the other core. On a machine whose idle core sleeps (a virtual CPU
//! whose host must wake it), that can take milliseconds, a large part of
//! run that short. Each of 200 trials waits 20 ms (so the other core goes
//! idle, as before a fresh `skirmish sweep`), starts a thread while this
//! one keeps busy for 5 ms, and records when the new thread first ran.
//!
//! ```sh
//! cargo run --release -p skirmish-benches --example thread_start
//! ```
//!
//! Prints the median, 90th percentile and worst delay in milliseconds.
//! Run it on an otherwise idle machine: a busy second core measures the
//! load, not the wake-up.

use std::hint::black_box;
use std::time::{Duration, Instant};

/// Keeps this thread busy for `ms` milliseconds.
fn spin(ms: f64) {
    let start = Instant::now();
    let mut x = 1u64;
    while start.elapsed().as_secs_f64() * 1e3 < ms {
        for _ in 0..1_000 {
            x = black_box(x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1));
        }
    }
}

fn main() {
    const TRIALS: usize = 200;
    let mut delays = Vec::with_capacity(TRIALS);
    for _ in 0..TRIALS {
        std::thread::sleep(Duration::from_millis(20));
        let spawned = Instant::now();
        let worker = std::thread::spawn(move || {
            let started = spawned.elapsed();
            spin(2.0);
            started
        });
        spin(5.0);
        match worker.join() {
            Ok(started) => delays.push(started.as_secs_f64() * 1e3),
            Err(_) => {
                eprintln!("a trial's thread panicked");
                std::process::exit(1);
            }
        }
    }
    delays.sort_by(f64::total_cmp);
    let at = |q: f64| delays[((TRIALS - 1) as f64 * q) as usize];
    println!(
        "a thread started beside a busy one first ran after (ms, {TRIALS} trials): median {:.2}, p90 {:.2}, worst {:.2}",
        at(0.5),
        at(0.9),
        at(1.0)
    );
}
