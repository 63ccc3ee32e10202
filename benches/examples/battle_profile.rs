//! Fights parity battles for profilers: battles `0..B` of seed 1 at N
//! against N, inside `measured`, so callgrind can count just those.
//!
//! ```sh
//! cargo build --profile bench -p skirmish-benches --example battle_profile
//! valgrind --tool=callgrind --toggle-collect='*measured*' \
//!     target/release/examples/battle_profile 10 2000
//! ```
//!
//! Arguments: fighters per side, battles. Prints the actions fought, to
//! divide the instruction count by.

use std::process::ExitCode;

use skirmish_benches::battle::parity;
use skirmish_sim::battle::{Battle, Workspace};

#[inline(never)]
fn measured(battle: &Battle, ws: &mut Workspace, battles: u64) -> Result<u64, skirmish_sim::SimError> {
    let mut actions = 0;
    for i in 0..battles {
        actions += battle.run_summary(ws, 1, i)?.actions;
    }
    Ok(actions)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [size, battles] = args.as_slice() else {
        eprintln!("usage: battle_profile FIGHTERS_PER_SIDE BATTLES");
        return ExitCode::FAILURE;
    };
    let (Ok(size), Ok(battles)) = (size.parse::<u64>(), battles.parse::<u64>()) else {
        eprintln!("FIGHTERS_PER_SIDE and BATTLES are numbers");
        return ExitCode::FAILURE;
    };
    let result = parity(size).and_then(|battle| {
        let mut ws = Workspace::default();
        measured(&battle, &mut ws, battles)
    });
    match result {
        Ok(actions) => {
            println!("parity {size}x{size}: {battles} battles, {actions} actions");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}
