//! Runs one queue on one bench stream, for profilers: the warm-up as in
//! `benches/queue.rs`, then the measured landings inside `measured`, so
//! callgrind can count just those.
//!
//! ```sh
//! cargo build --profile bench -p skirmish-benches --example queue_profile
//! valgrind --tool=callgrind --toggle-collect='*measured*' \
//!     target/release/examples/queue_profile event-queue hold 100000 1000000
//! ```
//!
//! Arguments: `event-queue|binary-heap`, `hold|hold-cancel|hold-far`,
//! actors, measured landings. Prints the tick reached, so the work is used.

use std::process::ExitCode;

use skirmish_benches::hold::{self, Hold, HoldQueue};
use skirmish_benches::reference::HeapQueue;
use skirmish_benches::stream::{EventStream, StreamSpec};
use skirmish_core::timing::queue::EventQueue;

#[inline(never)]
fn measured<Q: HoldQueue>(hold: &mut Hold<Q>, stream: &EventStream, landings: usize) -> skirmish_core::Result<()> {
    hold.run(stream, landings, |_, actor| {
        std::hint::black_box(actor);
    })
}

fn run<Q: HoldQueue>(stream: &EventStream, queue: Q, landings: usize) -> skirmish_core::Result<u64> {
    let mut hold = hold::warmed(stream, queue)?;
    measured(&mut hold, stream, landings)?;
    Ok(hold.now())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [queue, stream, actors, landings] = args.as_slice() else {
        eprintln!("usage: queue_profile event-queue|binary-heap hold|hold-cancel|hold-far ACTORS LANDINGS");
        return ExitCode::FAILURE;
    };
    let (Ok(actors), Ok(landings)) = (actors.parse::<u32>(), landings.parse::<usize>()) else {
        eprintln!("ACTORS and LANDINGS are numbers");
        return ExitCode::FAILURE;
    };
    let spec = match stream.as_str() {
        "hold" => StreamSpec::weapons(actors),
        "hold-cancel" => StreamSpec::weapons(actors).with_cancels(10),
        "hold-far" => StreamSpec::far(actors),
        other => {
            eprintln!("unknown stream {other:?}");
            return ExitCode::FAILURE;
        }
    };
    let stream = spec.generate();
    let result = match queue.as_str() {
        "event-queue" => run(&stream, EventQueue::new(), landings),
        "binary-heap" => run(&stream, HeapQueue::new(actors), landings),
        other => {
            eprintln!("unknown queue {other:?}");
            return ExitCode::FAILURE;
        }
    };
    match result {
        Ok(tick) => {
            println!(
                "{} {} {actors}: {landings} landings, reached tick {tick}",
                queue,
                spec.name()
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}
