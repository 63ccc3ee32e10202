//! The queue bench compares equal work: on every bench stream, the event
//! queue and the BinaryHeap reference fire the same actors at the same
//! ticks, in the same order.

use skirmish_benches::hold::{Hold, HoldQueue};
use skirmish_benches::reference::HeapQueue;
use skirmish_benches::stream::{EventStream, SIZES, StreamSpec};
use skirmish_core::timing::queue::{EventQueue, WINDOW};

/// The specs `benches/queue.rs` runs, per size.
fn bench_specs(actors: u32) -> [StreamSpec; 3] {
    [
        StreamSpec::weapons(actors),
        StreamSpec::weapons(actors).with_cancels(10),
        StreamSpec::far(actors),
    ]
}

fn trace<Q: HoldQueue>(stream: &EventStream, queue: Q, landings: usize) -> (Vec<(u64, u32)>, u64) {
    let mut hold = Hold::new(stream, queue).expect("first ticks are after tick 0");
    let mut seen = Vec::with_capacity(landings);
    hold.run(stream, landings, |tick, actor| seen.push((tick, actor)))
        .expect("the hold model never schedules in the past");
    (seen, hold.cancelled())
}

#[test]
fn event_queue_and_binary_heap_fire_the_same_sequence() {
    for actors in SIZES {
        for spec in bench_specs(actors) {
            let stream = spec.generate();
            // Every actor lands a few times; the smaller streams also run
            // past their period, so the steps wrap around (kept short in
            // debug builds for the largest one).
            let wrap = if actors <= 1_000 { stream.period() } else { 0 };
            let landings = wrap + 3 * actors as usize;
            let (a, cancels_a) = trace(&stream, EventQueue::new(), landings);
            let (b, cancels_b) = trace(&stream, HeapQueue::new(actors), landings);
            assert_eq!(a.len(), landings);
            assert!(a == b, "{} with {actors} actors: the queues diverge", spec.name());
            assert_eq!(cancels_a, cancels_b);
            // Ticks never go back; within a tick the order is the queue's FIFO.
            assert!(a.windows(2).all(|w| w[0].0 <= w[1].0));
        }
    }
}

#[test]
fn streams_exercise_what_they_claim() {
    let actors = 1_000;
    let landings = 100_000;

    // Weapons: Ready Times 1..=16, every one inside the ring.
    let stream = StreamSpec::weapons(actors).generate();
    let delays: Vec<u64> = (0..landings)
        .map(|k| stream.delay((k % actors as usize) as u32, stream.step(k).roll))
        .collect();
    assert!(delays.iter().all(|&d| (1..=16).contains(&d)));
    assert!(delays.iter().any(|&d| d >= 14) && delays.contains(&1));
    assert_eq!(trace(&stream, HeapQueue::new(actors), landings).1, 0);

    // Cancels: about 10% of landings disrupt someone still pending.
    let stream = StreamSpec::weapons(actors).with_cancels(10).generate();
    let cancels = trace(&stream, EventQueue::new(), landings).1;
    assert!((8_000..=10_500).contains(&cancels), "{cancels} cancels");

    // Far: most delays beyond the ring.
    let stream = StreamSpec::far(actors).generate();
    let beyond = (0..landings)
        .filter(|&k| stream.delay(0, stream.step(k).roll) > WINDOW)
        .count();
    assert!(beyond > landings * 8 / 10, "{beyond}");
}

#[test]
fn a_spec_always_draws_the_same_stream() {
    let spec = StreamSpec::weapons(50).with_cancels(10);
    let (a, b) = (spec.generate(), spec.generate());
    assert_eq!(a.first_ticks(), b.first_ticks());
    assert!((0..a.period()).all(|k| a.step(k) == b.step(k)));
    let other = StreamSpec { seed: 1, ..spec }.generate();
    assert!((0..100).any(|k| a.step(k) != other.step(k)));
}
