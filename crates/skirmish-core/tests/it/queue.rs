//! The event queue against a `BinaryHeap` reference model.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

use proptest::prelude::*;
use skirmish_core::timing::queue::{EventId, EventQueue, WINDOW};

/// The obviously-correct model: a heap ordered by (tick, scheduling order).
#[derive(Default)]
struct Model {
    now: u64,
    seq: u64,
    heap: BinaryHeap<Reverse<(u64, u64, u32)>>,
    cancelled: std::collections::HashSet<u64>,
}

impl Model {
    fn pop_tick(&mut self) -> Option<(u64, Vec<u32>)> {
        loop {
            let Reverse((t, s, _)) = *self.heap.peek()?;
            if self.cancelled.contains(&s) {
                self.heap.pop();
                continue;
            }
            let mut v = Vec::new();
            while let Some(&Reverse((t2, s2, p))) = self.heap.peek() {
                if t2 != t {
                    break;
                }
                self.heap.pop();
                if !self.cancelled.contains(&s2) {
                    v.push(p);
                }
            }
            let _ = s;
            self.now = t;
            return Some((t, v));
        }
    }
}

#[derive(Debug, Clone)]
enum Op {
    Schedule(u64),
    Cancel(usize),
    Pop,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => (1u64..20).prop_map(Op::Schedule),
        1 => (1u64..3 * WINDOW).prop_map(Op::Schedule),
        1 => (1u64..100_000).prop_map(Op::Schedule),
        // Around the coarse ring's reach, where events start going to the far heap.
        1 => (WINDOW * WINDOW - 2 * WINDOW..WINDOW * WINDOW + 2 * WINDOW).prop_map(Op::Schedule),
        2 => any::<usize>().prop_map(Op::Cancel),
        3 => Just(Op::Pop),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// Same operations, same results: every pop returns exactly the model's
    /// next tick and its events in scheduling order; nothing scheduled in the
    /// past is accepted; every uncancelled event fires exactly once.
    #[test]
    fn matches_binary_heap_model(ops in prop::collection::vec(op(), 1..300)) {
        let mut q = EventQueue::new();
        let mut m = Model::default();
        let mut ids: Vec<(EventId, u64)> = Vec::new(); // id, model seq
        let mut fired: HashMap<u32, u32> = HashMap::new();
        let mut scheduled = 0u32;
        let mut cancelled = 0u32;
        let mut out = Vec::new();
        for op in ops {
            match op {
                Op::Schedule(delay) => {
                    let tick = m.now + delay;
                    let payload = scheduled;
                    scheduled += 1;
                    let id = q.schedule(tick, payload).unwrap();
                    m.heap.push(Reverse((tick, m.seq, payload)));
                    ids.push((id, m.seq));
                    m.seq += 1;
                    prop_assert!(q.schedule(m.now, 0).is_err(), "scheduling at the current tick must fail");
                }
                Op::Cancel(i) if !ids.is_empty() => {
                    let (id, seq) = ids[i % ids.len()];
                    let was_pending = q.cancel(id).is_some();
                    let model_pending = !m.cancelled.contains(&seq)
                        && m.heap.iter().any(|Reverse((_, s, _))| *s == seq);
                    prop_assert_eq!(was_pending, model_pending);
                    if was_pending { cancelled += 1; }
                    m.cancelled.insert(seq);
                }
                Op::Cancel(_) => {}
                Op::Pop => {
                    let got = q.pop_tick(&mut out).map(|t| (t, out.iter().map(|(_, p)| *p).collect::<Vec<_>>()));
                    let want = m.pop_tick();
                    prop_assert_eq!(&got, &want);
                    if let Some((t, ps)) = got {
                        prop_assert_eq!(q.now(), t);
                        for p in ps { *fired.entry(p).or_default() += 1; }
                    }
                }
            }
        }
        // Drain: everything left fires once, in order.
        while let Some(t) = q.pop_tick(&mut out) {
            let want = m.pop_tick();
            prop_assert_eq!(Some((t, out.iter().map(|(_, p)| *p).collect::<Vec<_>>())), want);
            for (_, p) in &out { *fired.entry(*p).or_default() += 1; }
        }
        prop_assert!(m.pop_tick().is_none());
        prop_assert!(fired.values().all(|&n| n == 1));
        prop_assert_eq!(fired.len() as u32, scheduled - cancelled);
    }

    /// `clone_from` into a queue that has been used (rings allocated,
    /// events pending at other ticks) gives the copy `clone` gives: the
    /// same pops with the same ids, the same ids for new events, the same
    /// order after more scheduling and cancelling.
    #[test]
    fn clone_from_a_used_queue_is_a_clone(
        source_ops in prop::collection::vec(op(), 1..200),
        other_ops in prop::collection::vec(op(), 0..200),
        after in prop::collection::vec(op(), 0..200),
    ) {
        let run = |q: &mut EventQueue<u32>, ops: &[Op], ids: &mut Vec<EventId>, log: &mut Vec<String>| {
            let mut out = Vec::new();
            for (k, op) in ops.iter().enumerate() {
                match op {
                    Op::Schedule(delay) => {
                        let id = q.schedule(q.now() + delay, k as u32).unwrap();
                        log.push(format!("{id:?}"));
                        ids.push(id);
                    }
                    Op::Cancel(i) if !ids.is_empty() => log.push(format!("{:?}", q.cancel(ids[i % ids.len()]))),
                    Op::Cancel(_) => {}
                    Op::Pop => {
                        let t = q.pop_tick(&mut out);
                        log.push(format!("{t:?} {out:?}"));
                    }
                }
            }
        };
        let (mut ids, mut ignored) = (Vec::new(), Vec::new());
        let mut source = EventQueue::new();
        run(&mut source, &source_ops, &mut ids, &mut ignored);
        let mut reused = EventQueue::new();
        run(&mut reused, &other_ops, &mut Vec::new(), &mut ignored);
        // Twice: the second time over a queue that was itself a copy.
        for _ in 0..2 {
            reused.clone_from(&source);
            let mut fresh = source.clone();
            prop_assert!(reused == fresh);
            let (mut a, mut b) = (Vec::new(), Vec::new());
            run(&mut fresh, &after, &mut ids.clone(), &mut a);
            run(&mut reused, &after, &mut ids.clone(), &mut b);
            let mut out = Vec::new();
            while let Some(t) = fresh.pop_tick(&mut out) {
                a.push(format!("{t} {out:?}"));
            }
            while let Some(t) = reused.pop_tick(&mut out) {
                b.push(format!("{t} {out:?}"));
            }
            prop_assert_eq!(a, b);
        }
    }

    /// Serializing mid-stream and continuing equals continuing.
    #[test]
    fn snapshot_then_continue_equals_continue(delays in prop::collection::vec(1u64..600, 1..80), pops in 0usize..20) {
        let mut q = EventQueue::new();
        for (i, d) in delays.iter().enumerate() {
            q.schedule(q.now() + d, i).unwrap();
        }
        let mut out = Vec::new();
        for _ in 0..pops { q.pop_tick(&mut out); }
        let mut r: EventQueue<usize> = serde_json::from_str(&serde_json::to_string(&q).unwrap()).unwrap();
        let mut out2 = Vec::new();
        loop {
            let a = q.pop_tick(&mut out);
            let b = r.pop_tick(&mut out2);
            prop_assert_eq!(a, b);
            prop_assert_eq!(&out, &out2);
            if a.is_none() { break; }
        }
    }
}

#[test]
fn extreme_ticks_do_not_overflow() {
    let mut q = EventQueue::new();
    q.schedule(u64::MAX, 'z').unwrap();
    q.schedule(u64::MAX - 1, 'y').unwrap();
    let mut out = Vec::new();
    assert_eq!(q.pop_tick(&mut out), Some(u64::MAX - 1));
    assert_eq!(q.pop_tick(&mut out), Some(u64::MAX));
    assert!(q.schedule(u64::MAX, 'w').is_err());
    assert_eq!(q.pop_tick(&mut out), None);
}

#[test]
fn corrupt_snapshots_are_errors() {
    for bad in [
        r#"{"now":5,"next_seq":1,"slots":[[0,[3,0,7]]],"free":[]}"#,
        r#"{"now":0,"next_seq":1,"slots":[[0,[3,4,7]]],"free":[]}"#,
        r#"{"now":0,"next_seq":5,"slots":[[0,[3,1,7]],[0,[4,1,8]]],"free":[]}"#,
        r#"{"now":0,"next_seq":1,"slots":[],"free":[],"extra":1}"#,
        r#"{"now":0,"next_seq":1,"slots":[[0,[3,0,7]]],"free":[0]}"#,
        r#"{"now":0,"next_seq":1,"slots":[[0,null]],"free":[]}"#,
        r#"{"now":0,"next_seq":1,"slots":[[0,null]],"free":[0,0]}"#,
        r#"{"now":0,"next_seq":1,"slots":[],"free":[3]}"#,
        r#"[1,2,3]"#,
    ] {
        assert!(serde_json::from_str::<EventQueue<u32>>(bad).is_err(), "{bad}");
    }
}

#[test]
fn reset_is_as_good_as_new() {
    let mut used = EventQueue::new();
    let mut out = Vec::new();
    for i in 0..500u64 {
        used.schedule(1 + (i * 37) % 70_000, i).unwrap();
    }
    let doomed = used.schedule(3, 999).unwrap();
    used.cancel(doomed);
    used.pop_tick(&mut out);
    used.pop_tick(&mut out);
    used.reset();
    let mut fresh = EventQueue::new();
    for i in 0..300u64 {
        let t = 1 + (i * 53) % 3000;
        assert_eq!(used.schedule(t, i).unwrap(), fresh.schedule(t, i).unwrap());
    }
    let mut out2 = Vec::new();
    loop {
        let (a, b) = (used.pop_tick(&mut out), fresh.pop_tick(&mut out2));
        assert_eq!(a, b);
        assert_eq!(out, out2);
        if a.is_none() {
            break;
        }
    }
}
