//! A sweep on 1 and 2 threads: `skirmish_sim::sweep::sweep` of the parity
//! battle (`battle::sweep_spec`: four cells x 2,500 battles at 2x10), with
//! `SweepOptions { threads: Some(1 | 2) }`. The two run back to back in
//! the same group; `benches/run-sim-bench` prints the speed-up (1-thread
//! time / 2-thread time) from this run's estimates, and its `--paired` mode
//! measures the same ratio as interleaved pairs.

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, SamplingMode, Throughput, criterion_group, criterion_main};
use skirmish_benches::battle::sweep_spec;
use skirmish_sim::sweep::{SweepOptions, sweep};

fn sweeps(c: &mut Criterion) {
    let spec = sweep_spec().expect("the parity battle is valid");
    let cells = spec.axes.iter().map(|a| a.values.len() as u64).product::<u64>();
    let mut group = c.benchmark_group("sweep-parity");
    group.sampling_mode(SamplingMode::Flat);
    group.throughput(Throughput::Elements(cells * spec.battles));
    for threads in [1, 2] {
        let options = SweepOptions {
            threads: Some(threads),
            ..SweepOptions::default()
        };
        group.bench_function(BenchmarkId::new("threads", threads), |b| {
            b.iter(|| black_box(sweep(&spec, &options).expect("a valid sweep")));
        });
    }
    group.finish();
}

criterion_group! {
    name = sweep_threads;
    // 2 x (1 s warm-up + 5 s): about 15 s.
    config = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5))
        .sample_size(20);
    targets = sweeps
}
criterion_main!(sweep_threads);
