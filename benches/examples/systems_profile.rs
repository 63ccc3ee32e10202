//! Fights the parity battle under any timing system and targeting policy,
//! battles `0..B` of seed 1 at N against N, inside `measured`, so callgrind
//! counts just those (the aim: every system and policy as fast as
//! Continuous with random targets).
//!
//! ```sh
//! cargo build --profile bench -p skirmish-benches --example systems_profile
//! valgrind --tool=callgrind --toggle-collect='*measured*' \
//!     target/release/examples/systems_profile tick-system random 10000 1
//! ```
//!
//! Arguments: timing system (as `--set timing=`), targeting (`random`,
//! `most_wounded`, `least_engaged`), fighters per side, battles, then
//! optionally `fudge` for FUDGE opposed striking and any `PATH=VALUE`
//! scenario edits (e.g. `battle.max_actions=2000000`: a 2x100,000
//! `most_wounded` battle under Full Contact is a billion actions, as the
//! whole side strikes the one most wounded foe). Prints the actions fought,
//! to divide the instruction count by.

use std::process::ExitCode;

use skirmish_benches::battle::parity_scenario;
use skirmish_sim::SimError;
use skirmish_sim::battle::{Battle, Workspace};

#[inline(never)]
fn measured(battle: &Battle, ws: &mut Workspace, battles: u64) -> Result<u64, SimError> {
    let mut actions = 0;
    for i in 0..battles {
        actions += battle.run_summary(ws, 1, i)?.actions;
    }
    Ok(actions)
}

fn build(timing: &str, targeting: &str, size: u64, fields: &[String]) -> Result<Battle, SimError> {
    let edit = |e: skirmish_sim::scenario::ScenarioError| SimError::Scenario(e.to_string());
    let mut s = parity_scenario(size)?
        .with_field("timing", timing)
        .and_then(|s| s.with_field("battle.targeting", targeting))
        .map_err(edit)?;
    for f in fields {
        let (path, value) = match f.split_once('=') {
            Some(pv) => pv,
            None if f == "fudge" => ("striking", "fudge-opposed"),
            None => return Err(SimError::Scenario(format!("{f}: not PATH=VALUE or `fudge`"))),
        };
        s = s.with_field(path, value).map_err(edit)?;
    }
    Battle::new(&s)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (timing, targeting, size, battles, fields) = match args.as_slice() {
        [t, p, n, b, fields @ ..] => (t, p, n, b, fields),
        _ => {
            eprintln!("usage: systems_profile TIMING TARGETING FIGHTERS_PER_SIDE BATTLES [fudge] [PATH=VALUE]...");
            return ExitCode::FAILURE;
        }
    };
    let (Ok(size), Ok(battles)) = (size.parse::<u64>(), battles.parse::<u64>()) else {
        eprintln!("FIGHTERS_PER_SIDE and BATTLES are numbers");
        return ExitCode::FAILURE;
    };
    let result = build(timing, targeting, size, fields).and_then(|battle| {
        let mut ws = Workspace::default();
        measured(&battle, &mut ws, battles)
    });
    match result {
        Ok(actions) => {
            println!("{timing} {targeting} {size}x{size}: {battles} battles, {actions} actions");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}
