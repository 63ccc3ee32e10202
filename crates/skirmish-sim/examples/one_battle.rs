//! One battle of the built-in goblin ambush (the texts' example), with its
//! tick-by-tick trace: where a Rust program using the simulator starts.
//!
//! Run with `cargo run -p skirmish-sim --example one_battle`, or give a
//! seed: `cargo run -p skirmish-sim --example one_battle -- 42`.

use skirmish_sim::battle::{Battle, RunOptions};
use skirmish_sim::report::Outcome;
use skirmish_sim::scenario::{BUILTIN, Scenario};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let seed: u64 = match std::env::args().nth(1) {
        Some(arg) => arg.parse().map_err(|e| format!("the seed {arg:?}: {e}"))?,
        None => 1,
    };
    println!("built-in scenarios: {}", BUILTIN.join(", "));

    // A scenario is validated once, when the battle is built; running it
    // cannot fail on the scenario's account afterwards.
    let ambush = Scenario::builtin("goblin-ambush")?;
    let battle = Battle::new(&ambush)?;

    // Battle 0 of master seed `seed`: the same seed gives the same battle,
    // byte for byte, on any machine. FULL keeps the trace.
    let report = battle.run(seed, 0, &RunOptions::FULL)?;
    for line in report.trace.as_deref().unwrap_or_default().iter().take(12) {
        println!("round {:>2} tick {:>3}  {}", line.round, line.display, line.text);
    }
    if report.trace.as_ref().is_some_and(|t| t.len() > 12) {
        println!("...");
    }

    let s = &report.summary;
    match s.outcome {
        Outcome::Win { side } => println!("{} win", report.sides[side]),
        Outcome::Draw => println!("a draw: every side fell at the same tick"),
        Outcome::Timeout => println!("a timeout: the battle hit a limit"),
    }
    println!(
        "{} ticks, {} rounds, {} actions, {} hits; standing: {:?} of {:?}",
        s.ticks, s.rounds, s.actions, s.hits, report.standing, report.fielded
    );

    // Running it again gives the very same battle.
    if battle.run(seed, 0, &RunOptions::FULL)? != report {
        return Err("the same seed should give the same battle".into());
    }
    Ok(())
}
