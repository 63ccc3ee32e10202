//! What a copy of a scheduler costs: the live tracker copies its state for
//! undo on every operation, so an idle or sparse event queue must be cheap
//! to copy.

use proptest::prelude::*;
use skirmish_core::dice::SeededRolls;
use skirmish_core::timing::queue::{EventId, EventQueue, WINDOW};
use skirmish_core::timing::{ActorTiming, Declaration, Scheduler, Step, TimingSystem};

/// A 30-actor Continuous fight, 200 moments in.
fn mid_fight() -> Scheduler {
    let mut rolls = SeededRolls::new(7);
    let mut s = Scheduler::new(TimingSystem::continuous());
    for i in 0..30 {
        s.add(ActorTiming::default(), Declaration::new(2 + i % 7, i % 3))
            .unwrap();
    }
    let mut acts = Vec::new();
    let mut moments = 0;
    while moments < 200 {
        match s.next(&mut rolls, &mut acts).unwrap() {
            Some(Step::Moment(_)) => moments += 1,
            Some(Step::NewRound { .. }) => {}
            None => break,
        }
    }
    s
}

#[test]
fn a_copy_of_a_mid_fight_scheduler_is_small() {
    let s = mid_fight();
    let copy = s.clone();
    assert_eq!(copy, s);
    let empty = Scheduler::new(TimingSystem::continuous());
    println!(
        "heap bytes: 30-actor Continuous mid-fight {} (its copy {}), empty scheduler {} (its copy {})",
        s.heap_size(),
        copy.heap_size(),
        empty.heap_size(),
        empty.clone().heap_size()
    );
    // Before the rings were allocated lazily and copies packed, the copy
    // was 24,876 bytes and the empty scheduler 18,432.
    assert!(copy.heap_size() < 10_000, "{}", copy.heap_size());
    assert_eq!(empty.heap_size(), 0);
}

#[test]
fn an_unused_queue_and_its_copy_hold_no_heap_memory() {
    let q: EventQueue<u32> = EventQueue::new();
    assert_eq!(q.heap_size(), 0);
    let mut q = q.clone();
    assert_eq!(q.heap_size(), 0);
    // Only far events: the rings are still not needed.
    q.schedule(10 * WINDOW * WINDOW, 1).unwrap();
    let copy = q.clone();
    assert!(copy.heap_size() < 256, "{}", copy.heap_size());
}

#[derive(Debug, Clone)]
enum QueueOp {
    Schedule(u64),
    Cancel(usize),
    Pop,
    /// Replace the queue by a copy of itself (packed) from here on.
    Copy,
}

fn queue_op() -> impl Strategy<Value = QueueOp> {
    prop_oneof![
        4 => (1u64..20).prop_map(QueueOp::Schedule),
        1 => (1u64..3 * WINDOW).prop_map(QueueOp::Schedule),
        1 => (1u64..100_000).prop_map(QueueOp::Schedule),
        1 => (WINDOW * WINDOW - 2 * WINDOW..WINDOW * WINDOW + 2 * WINDOW).prop_map(QueueOp::Schedule),
        2 => any::<usize>().prop_map(QueueOp::Cancel),
        3 => Just(QueueOp::Pop),
        1 => Just(QueueOp::Copy),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// A queue that is copied (packed) now and then behaves exactly as
    /// one that never is: same ticks, same events in the same order, same
    /// ids, same answers to `peek_tick`, `tick_of` and `cancel`.
    #[test]
    fn a_packed_copy_continues_identically(ops in prop::collection::vec(queue_op(), 1..200)) {
        let mut plain: EventQueue<u32> = EventQueue::new();
        let mut copied: EventQueue<u32> = EventQueue::new();
        let mut ids: Vec<EventId> = Vec::new();
        let (mut a, mut b) = (Vec::new(), Vec::new());
        for (n, op) in ops.iter().enumerate() {
            match *op {
                QueueOp::Schedule(d) => {
                    let t = plain.now() + d;
                    let id = plain.schedule(t, n as u32).unwrap();
                    prop_assert_eq!(copied.schedule(t, n as u32).unwrap(), id);
                    ids.push(id);
                }
                QueueOp::Cancel(i) if !ids.is_empty() => {
                    let id = ids[i % ids.len()];
                    prop_assert_eq!(plain.tick_of(id), copied.tick_of(id));
                    prop_assert_eq!(plain.cancel(id), copied.cancel(id));
                }
                QueueOp::Cancel(_) => {}
                QueueOp::Pop => {
                    prop_assert_eq!(plain.peek_tick(), copied.peek_tick());
                    prop_assert_eq!(plain.pop_tick(&mut a), copied.pop_tick(&mut b));
                    prop_assert_eq!(&a, &b);
                }
                QueueOp::Copy => {
                    copied = copied.clone();
                    prop_assert!(copied.heap_size() <= plain.heap_size());
                }
            }
            prop_assert!(plain == copied);
            prop_assert_eq!(plain.len(), copied.len());
        }
        loop {
            let (ta, tb) = (plain.pop_tick(&mut a), copied.pop_tick(&mut b));
            prop_assert_eq!(ta, tb);
            prop_assert_eq!(&a, &b);
            if ta.is_none() {
                break;
            }
        }
    }
}
