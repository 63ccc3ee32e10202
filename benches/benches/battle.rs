//! The battle engine on the parity battle at 2x10, 2x1,000 and 2x100,000
//! fighters: cost per action.
//!
//! Every iteration fights the same battles (`BattleBatch`: battles 0..B of
//! seed 1, B = 10,000, 40 and 1 by size), whose action count is the criterion
//! throughput, so time / actions is the cost per action, per-battle set-up
//! included (as `skirmish bench parity` measures it). `benches/run-sim-bench`
//! prints the table and the 2x100,000 / 2x10 ratio.

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, SamplingMode, Throughput, criterion_group, criterion_main};
use skirmish_benches::battle::{BattleBatch, SIZES};

fn battles(c: &mut Criterion) {
    let mut group = c.benchmark_group("battle-parity");
    group.sampling_mode(SamplingMode::Flat);
    for size in SIZES {
        let mut batch = BattleBatch::new(size).expect("the parity battle is valid");
        group.throughput(Throughput::Elements(batch.actions));
        if size >= 100_000 {
            // ~1.5 million actions per iteration: few, long samples.
            group.sample_size(10).measurement_time(Duration::from_secs(6));
        } else {
            group.sample_size(30).measurement_time(Duration::from_secs(3));
        }
        group.bench_function(BenchmarkId::new("actions", size), |b| {
            b.iter(|| black_box(batch.run().expect("the parity battle is valid")));
        });
    }
    group.finish();
}

criterion_group! {
    name = battle;
    // 3 sizes x (1 s warm-up + 3-6 s): about 20 s.
    config = Criterion::default().warm_up_time(Duration::from_secs(1));
    targets = battles
}
criterion_main!(battle);
