//! The odds bench's work, for profilers and `perf stat`: the goblin ambush
//! from mid-fight (as `benches/odds.rs` plays it), then `odds_from_here`
//! with 10,000 continuations on one thread, `REPS` times (default 1).
//! Prints the mid-fight state, the odds, and the best wall time of a call.
//!
//! ```sh
//! cargo build --profile bench -p skirmish-benches --example odds_profile
//! perf stat -e task-clock,instructions target/release/examples/odds_profile 20
//! valgrind --tool=callgrind target/release/examples/odds_profile
//! ```

use std::time::Instant;

use skirmish_benches::tracker::ambush_mid_fight;
use skirmish_sim::odds::odds_from_here;

/// Continuations per call, as in the bench.
const BATTLES: u64 = 10_000;

fn main() {
    let reps: u32 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(1);
    let e = ambush_mid_fight().expect("the ambush reaches its first fall");
    let c = e.continuation().expect("an undecided fight");
    let standing: Vec<&str> = c
        .fighters
        .iter()
        .filter(|f| f.standing)
        .map(|f| f.name.as_str())
        .collect();
    println!(
        "tick {}, round {}, standing: {}",
        c.scheduler.now(),
        c.round,
        standing.join(", ")
    );
    let mut best = f64::MAX;
    let mut last = None;
    for _ in 0..reps {
        let t = Instant::now();
        let odds = odds_from_here(std::hint::black_box(&e), BATTLES, 1).expect("an undecided fight");
        best = best.min(t.elapsed().as_secs_f64());
        last = Some(odds);
    }
    if let Some(o) = last {
        for s in &o.sides {
            println!(
                "{}: {:.2}% [{:.2}, {:.2}]",
                s.name,
                100.0 * s.win_rate,
                100.0 * s.low,
                100.0 * s.high
            );
        }
        println!(
            "draws {:.2}%, timeouts {:.2}%, {:.2} ticks and {:.2} rounds on average ({})",
            100.0 * o.draw_rate,
            100.0 * o.timeout_rate,
            o.mean_ticks.unwrap_or(f64::NAN),
            o.mean_rounds.unwrap_or(f64::NAN),
            o.method.name()
        );
    }
    println!("{reps} x {BATTLES} continuations, best call {:.1} ms", best * 1e3);
}
