//! Unit tests of the queue's levels, edges and serde.

use super::*;

#[test]
fn fifo_within_a_tick_across_the_far_heap() {
    let mut q = EventQueue::new();
    q.schedule(1000, 'a').unwrap(); // far
    let mut out = Vec::new();
    q.schedule(900, 'x').unwrap(); // far, fires first, brings 1000 into the window
    assert_eq!(q.pop_tick(&mut out), Some(900));
    q.schedule(1000, 'b').unwrap(); // direct into the bucket, after 'a'
    assert_eq!(q.pop_tick(&mut out), Some(1000));
    assert_eq!(out.iter().map(|x| x.1).collect::<String>(), "ab");
}

/// One tick reached from all three levels in turn keeps scheduling
/// order: far heap, then coarse ring, then fine ring.
#[test]
fn fifo_within_a_tick_across_all_levels() {
    let t = 3 * WINDOW * WINDOW;
    let mut q = EventQueue::new();
    let mut out = Vec::new();
    q.schedule(t, 'a').unwrap(); // far heap
    let step = q.schedule(t - WINDOW * WINDOW + 10, 's').unwrap(); // far, cancelled: dropped on the way
    q.schedule(t - 5 * WINDOW, 'x').unwrap(); // far; pops with `t` in the coarse ring
    q.cancel(step);
    assert_eq!(q.pop_tick(&mut out), Some(t - 5 * WINDOW));
    q.schedule(t, 'b').unwrap(); // straight into the coarse ring
    q.schedule(t - 1, 'y').unwrap(); // pops with `t` in the fine ring
    assert_eq!(q.pop_tick(&mut out), Some(t - 1));
    q.schedule(t, 'c').unwrap(); // straight into the fine ring
    assert_eq!(q.peek_tick(), Some(t));
    assert_eq!(q.pop_tick(&mut out), Some(t));
    assert_eq!(out.iter().map(|x| x.1).collect::<String>(), "abc");
    assert!(q.is_empty());
}

/// Ticks at block edges, reached by steps and by jumps, pop in order.
#[test]
fn block_edges_and_jumps() {
    let mut q = EventQueue::new();
    let mut ticks = Vec::new();
    for k in [1, 2, 3, WINDOW, WINDOW * WINDOW] {
        for d in [-1i64, 0, 1] {
            let t = (k * WINDOW).checked_add_signed(d).unwrap();
            q.schedule(t, t).unwrap();
            ticks.push(t);
        }
    }
    q.schedule(u64::MAX, u64::MAX).unwrap();
    ticks.push(u64::MAX);
    ticks.sort_unstable();
    let mut out = Vec::new();
    let mut popped = Vec::new();
    while let Some(t) = q.pop_tick(&mut out) {
        assert_eq!(
            q.peek_tick().map(|p| p > t),
            if q.is_empty() { None } else { Some(true) }
        );
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].1, t);
        popped.push(t);
    }
    assert_eq!(popped, ticks);
}

#[test]
fn past_and_present_are_refused() {
    let mut q = EventQueue::new();
    assert!(q.schedule(0, ()).is_err());
    q.schedule(3, ()).unwrap();
    let mut out = Vec::new();
    q.pop_tick(&mut out);
    assert!(q.schedule(3, ()).is_err());
    assert!(q.schedule(2, ()).is_err());
    assert!(q.schedule(4, ()).is_ok());
}

#[test]
fn a_tick_of_only_cancelled_events_is_skipped() {
    let mut q = EventQueue::new();
    let a = q.schedule(2, 'a').unwrap();
    q.schedule(3, 'b').unwrap();
    assert_eq!(q.cancel(a), Some((2, 'a')));
    assert_eq!(q.cancel(a), None);
    assert_eq!(q.peek_tick(), Some(3));
    let mut out = Vec::new();
    assert_eq!(q.pop_tick(&mut out), Some(3));
    assert_eq!(out.len(), 1);
    assert!(q.is_empty());
}

#[test]
fn window_edges() {
    let mut q = EventQueue::new();
    for t in [WINDOW, WINDOW + 1, 2 * WINDOW, 2 * WINDOW + 1, 1] {
        q.schedule(t, t).unwrap();
    }
    let mut out = Vec::new();
    let mut ticks = Vec::new();
    while let Some(t) = q.pop_tick(&mut out) {
        assert_eq!(out[0].1, t);
        ticks.push(t);
    }
    assert_eq!(ticks, [1, WINDOW, WINDOW + 1, 2 * WINDOW, 2 * WINDOW + 1]);
}

#[test]
fn serde_round_trip_keeps_ids_and_order() {
    let mut q = EventQueue::new();
    let ids: Vec<EventId> = (0..10u64).map(|i| q.schedule(1 + (i * 97) % 700, i).unwrap()).collect();
    q.cancel(ids[3]);
    let mut out = Vec::new();
    q.pop_tick(&mut out);
    let json = serde_json::to_string(&q).unwrap();
    let mut r: EventQueue<u64> = serde_json::from_str(&json).unwrap();
    assert_eq!(r, q);
    assert_eq!(r.cancel(ids[5]), q.cancel(ids[5]));
    let (mut a, mut b) = (Vec::new(), Vec::new());
    loop {
        let (ta, tb) = (q.pop_tick(&mut a), r.pop_tick(&mut b));
        assert_eq!(ta, tb);
        assert_eq!(a, b);
        if ta.is_none() {
            break;
        }
    }
}
