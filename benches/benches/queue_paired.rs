//! The comparison of `queue.rs` as interleaved pairs, for a ratio that
//! load drifting on a shared machine cannot skew.
//!
//! Both queues are warmed on the same stream and then take turns, one batch
//! of landings each (`hold::batch`), alternating which goes first. The two
//! runs move in lockstep, so in every round both handle exactly the same
//! landings: the same pops, schedules and cancels. The ratio is total
//! BinaryHeap time over total EventQueue time, with a 95% interval from
//! resampling the rounds. Prints a markdown table; `benches/run-queue-bench`
//! runs it after the criterion bench.
//!
//! `cargo bench -p skirmish-benches --bench queue_paired [FILTER...]`: a
//! filter keeps the rows whose `stream/size` contains it (`hold/100000`);
//! flags (`--bench`, criterion's) are ignored.

use std::hint::black_box;
use std::time::{Duration, Instant};

use skirmish_benches::hold::{self, Hold, HoldQueue};
use skirmish_benches::paired::ratio_with_interval;
use skirmish_benches::reference::HeapQueue;
use skirmish_benches::stream::{EventStream, SIZES, StreamSpec};
use skirmish_core::timing::queue::EventQueue;

/// Time to spend on each stream and size (both queues together).
const BUDGET: Duration = Duration::from_millis(2_500);
/// Fewest rounds, however slow the turns.
const MIN_ROUNDS: usize = 20;
fn turn<Q: HoldQueue>(hold: &mut Hold<Q>, stream: &EventStream, landings: usize) -> f64 {
    let start = Instant::now();
    hold.run(stream, landings, |_, actor| {
        black_box(actor);
    })
    .expect("the hold model never schedules in the past");
    start.elapsed().as_secs_f64()
}

fn main() {
    let filters: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with("--")).collect();
    let streams: [fn(u32) -> StreamSpec; 3] = [
        StreamSpec::weapons,
        |actors| StreamSpec::weapons(actors).with_cancels(10),
        StreamSpec::far,
    ];
    println!("interleaved pairs: queues take turns on the same landings (`hold::batch` per turn)");
    println!();
    println!(
        "| stream | pending events | rounds | EventQueue ns/event | BinaryHeap ns/event | BinaryHeap / EventQueue [95% CI] |"
    );
    println!("| --- | ---: | ---: | ---: | ---: | ---: |");
    for spec_of in streams {
        for actors in SIZES {
            let name = format!("{}/{actors}", spec_of(actors).name());
            if !filters.is_empty() && !filters.iter().any(|f| name.contains(f.as_str())) {
                continue;
            }
            let stream = spec_of(actors).generate();
            let landings = hold::batch(&stream);
            let never = "the hold model never schedules in the past";
            let mut queue = hold::warmed(&stream, EventQueue::new()).expect(never);
            let mut heap = hold::warmed(&stream, HeapQueue::new(actors)).expect(never);
            let mut rounds = Vec::new();
            let start = Instant::now();
            while rounds.len() < MIN_ROUNDS || start.elapsed() < BUDGET {
                rounds.push(if rounds.len() % 2 == 0 {
                    let q = turn(&mut queue, &stream, landings);
                    (q, turn(&mut heap, &stream, landings))
                } else {
                    let h = turn(&mut heap, &stream, landings);
                    (turn(&mut queue, &stream, landings), h)
                });
            }
            assert_eq!(queue.now(), heap.now(), "the two runs left lockstep");
            let per_event = |total: f64| total * 1e9 / (rounds.len() * landings) as f64;
            let (ratio, lo, hi) = ratio_with_interval(&rounds);
            println!(
                "| {} | {} | {} | {:.1} | {:.1} | {ratio:.2}x [{lo:.2}, {hi:.2}] |",
                stream.spec().name(),
                thousands(actors),
                rounds.len(),
                per_event(rounds.iter().map(|r| r.0).sum()),
                per_event(rounds.iter().map(|r| r.1).sum()),
            );
        }
    }
}

fn thousands(n: u32) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}
