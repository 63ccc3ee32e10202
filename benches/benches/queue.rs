//! The event queue against `std::collections::BinaryHeap` on the same
//! event stream (the hold model of `skirmish_benches::hold`).
//!
//! For each stream (rules' Ready Times; the same with 10% cancels; far
//! delays up to 2000 ticks) and each size (pending events), both queues
//! start from the same first ticks, are warmed to a steady state
//! (`hold::warmed`), and are then timed on the next landings of the same
//! precomputed stream. Every iteration handles exactly `hold::batch`
//! landings (10,000, or one per actor if more), given to criterion as the
//! throughput, so time / batch is the cost per event.
//! `benches/run-queue-bench` runs this and prints the ratios.

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, SamplingMode, Throughput, criterion_group, criterion_main};
use skirmish_benches::hold::{self, HoldQueue};
use skirmish_benches::reference::HeapQueue;
use skirmish_benches::stream::{EventStream, SIZES, StreamSpec};
use skirmish_core::timing::queue::EventQueue;

fn bench_queue<Q: HoldQueue>(
    group: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    name: &str,
    stream: &EventStream,
    queue: Q,
) {
    let landings = hold::batch(stream);
    group.throughput(Throughput::Elements(landings as u64));
    // Warmed on first use, so a filtered run skips the others' warm-ups.
    let mut queue = Some(queue);
    let mut warm = None;
    group.bench_with_input(BenchmarkId::new(name, stream.actors()), stream, |b, stream| {
        let warm = warm.get_or_insert_with(|| {
            hold::warmed(stream, queue.take().expect("warmed once"))
                .expect("the hold model never schedules in the past")
        });
        b.iter(|| {
            warm.run(stream, landings, |_, actor| {
                black_box(actor);
            })
            .expect("the hold model never schedules in the past");
        });
    });
}

fn queue_vs_binary_heap(c: &mut Criterion) {
    let streams: [fn(u32) -> StreamSpec; 3] = [
        StreamSpec::weapons,
        |actors| StreamSpec::weapons(actors).with_cancels(10),
        StreamSpec::far,
    ];
    for spec_of in streams {
        let mut group = c.benchmark_group(format!("queue-{}", spec_of(1).name()));
        // Iterations of up to tens of milliseconds: equal-sized samples.
        group.sampling_mode(SamplingMode::Flat);
        for actors in SIZES {
            let stream = spec_of(actors).generate();
            // Each pair runs back to back, so both see much the same machine.
            bench_queue(&mut group, "EventQueue", &stream, EventQueue::new());
            bench_queue(&mut group, "BinaryHeap", &stream, HeapQueue::new(actors));
        }
        group.finish();
    }
}

criterion_group! {
    name = queue;
    // 18 benchmarks x (1 s warm-up + 3 s measurement) plus analysis: about
    // 1.5 minutes on the 2-core reference machine.
    config = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .sample_size(30);
    targets = queue_vs_binary_heap
}
criterion_main!(queue);
