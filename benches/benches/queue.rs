//! The event queue against `std::collections::BinaryHeap` on the same
//! event stream (the hold model of `skirmish_benches::hold`).
//!
//! For each stream (rules' Ready Times; the same with 10% cancels; far
//! delays up to 2000 ticks) and each size (pending events), both queues
//! start from the same first ticks, are warmed to a steady state, and are
//! then timed on the next landings of the same precomputed stream. Every
//! iteration handles exactly [`LANDINGS`] landings, so criterion's
//! throughput is events per second and time / LANDINGS is the cost per
//! event. `benches/run-queue-bench` runs this and prints the ratios.

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use skirmish_benches::hold::{Hold, HoldQueue};
use skirmish_benches::reference::HeapQueue;
use skirmish_benches::stream::{EventStream, SIZES, StreamSpec};
use skirmish_core::timing::queue::EventQueue;

/// Landings per timed iteration.
const LANDINGS: usize = 10_000;

/// A hold run past its start-up: every actor has landed a few times, so
/// ticks are spread as in a long fight and buffers have grown.
fn warmed<Q: HoldQueue>(stream: &EventStream, queue: Q) -> Hold<Q> {
    let mut hold = Hold::new(stream, queue).expect("first ticks are after tick 0");
    let warm_up = (8 * stream.actors() as usize).max(4 * LANDINGS);
    hold.run(stream, warm_up, |_, _| {})
        .expect("the hold model never schedules in the past");
    hold
}

fn bench_queue<Q: HoldQueue>(
    group: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    name: &str,
    stream: &EventStream,
    queue: Q,
) {
    // Warmed on first use, so a filtered run skips the others' warm-ups.
    let mut queue = Some(queue);
    let mut hold = None;
    group.bench_with_input(BenchmarkId::new(name, stream.actors()), stream, |b, stream| {
        let hold = hold.get_or_insert_with(|| warmed(stream, queue.take().expect("warmed once")));
        b.iter(|| {
            hold.run(stream, LANDINGS, |_, actor| {
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
        group.throughput(Throughput::Elements(LANDINGS as u64));
        for actors in SIZES {
            let stream = spec_of(actors).generate();
            // Each pair runs back to back, so both see the same machine load.
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
        .sample_size(40);
    targets = queue_vs_binary_heap
}
criterion_main!(queue);
