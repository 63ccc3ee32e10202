//! Odds from here: `skirmish_sim::odds::odds_from_here` on the goblin
//! ambush from mid-fight (the built-in scenario at the table: played with
//! the encounter's own dice, every landing member striking the first
//! enemy standing, until the first fighter falls), 10,000 continuations on
//! one thread per iteration. The project's bar for odds from here: 10,000
//! continuations in under 100 ms on a phone's budget. The throughput is
//! continuations, so criterion's time per element is the cost of one
//! continuation (taking the encounter's continuation and summing the odds
//! included).
//!
//! ```sh
//! cargo bench -p skirmish-benches --bench odds -- --noplot
//! ```

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, SamplingMode, Throughput, criterion_group, criterion_main};
use skirmish_benches::tracker::ambush_mid_fight;
use skirmish_sim::odds::odds_from_here;

/// Continuations per iteration.
const BATTLES: u64 = 10_000;

fn odds(c: &mut Criterion) {
    let e = ambush_mid_fight().expect("the ambush reaches its first fall");
    let mut group = c.benchmark_group("odds-from-here");
    group.sampling_mode(SamplingMode::Flat);
    group.throughput(Throughput::Elements(BATTLES));
    group.bench_function(BenchmarkId::new("goblin-ambush-mid-fight", BATTLES), |b| {
        b.iter(|| black_box(odds_from_here(black_box(&e), BATTLES, 1).expect("an undecided fight")));
    });
    group.finish();
}

criterion_group! {
    name = odds_from_here_bench;
    // 1 s warm-up + 20 samples of one iteration (~0.1 s each): about 5 s.
    config = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4))
        .sample_size(20);
    targets = odds
}
criterion_main!(odds_from_here_bench);
