//! Times the floor of a parity-battle action ([`skirmish_benches::floor`])
//! and prints one JSON line in the form of `skirmish bench parity --json`,
//! with `"impl": "floor"`, for `benches/run-peers`:
//!
//! ```sh
//! cargo run --release -p skirmish-benches --example parity_floor -- 14000000 1
//! ```
//!
//! Arguments: actions, seed. The actions draw from stream 0 of the seed,
//! as battle 0 of `skirmish bench parity` does. A warm-up of a tenth of
//! the actions runs untimed first. `draw_seconds` times the same number
//! of draws alone ([`draws_only`]).

use std::hint::black_box;
use std::process::ExitCode;
use std::time::Instant;

use skirmish_benches::floor::{PER_SIDE, draws_only, parity_floor};
use skirmish_core::dice::SeededRolls;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [actions, seed] = args.as_slice() else {
        eprintln!("usage: parity_floor ACTIONS SEED");
        return ExitCode::FAILURE;
    };
    let (Ok(actions), Ok(seed)) = (actions.parse::<u64>(), seed.parse::<u64>()) else {
        eprintln!("parity_floor: ACTIONS and SEED are non-negative integers");
        return ExitCode::FAILURE;
    };
    black_box(parity_floor(&mut SeededRolls::for_stream(seed, 0), actions / 10));
    let mut rolls = SeededRolls::for_stream(seed, 0);
    let started = Instant::now();
    let tally = black_box(parity_floor(&mut rolls, black_box(actions)));
    let seconds = started.elapsed().as_secs_f64();
    let mut rolls = SeededRolls::for_stream(seed, 0);
    let started = Instant::now();
    black_box(draws_only(&mut rolls, black_box(actions)));
    let draw_seconds = started.elapsed().as_secs_f64();
    println!(
        "{{\"impl\":\"floor\",\"size\":{PER_SIDE},\"seed\":{seed},\"actions\":{},\"hits\":{},\"damage\":{},\"seconds\":{seconds},\"draw_seconds\":{draw_seconds}}}",
        tally.actions, tally.hits, tally.damage
    );
    ExitCode::SUCCESS
}
