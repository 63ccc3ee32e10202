//! `skirmish`: exact odds, data tables, replays, battles and sweeps from the
//! command line. Every verb is a thin use of the library crates.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod bench;
mod odds;
mod output;
mod replay;
mod run;
mod scenario_arg;
mod sweep;
mod tables;
mod track;

/// Tabletop-RPG combat timing and striking.
#[derive(Debug, Parser)]
#[command(name = "skirmish", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Exact Full Contact strike odds for one SR and DR, or the whole SR x DR table.
    Odds(odds::Args),
    /// Print a data table of the texts: weapons (TT, RoF) or armor (DR).
    Tables(tables::Args),
    /// Step through the built-in goblin ambush's tick sheet under any timing system.
    Replay(replay::Args),
    /// Fight one battle of a scenario (default: the goblin ambush).
    Run(run::Args),
    /// Sweep a grid of scenario variations x battles, in parallel.
    Sweep(sweep::Args),
    /// List the built-in scenarios, or print one as TOML.
    Scenarios(ScenariosArgs),
    /// Track a live encounter, one command a line (GM at the table, or a script).
    Track(track::Args),
    /// Time the engine on the peer parity battle (see benches/run-peers).
    Bench(bench::Args),
}

/// Arguments of `skirmish scenarios`.
#[derive(Debug, clap::Args)]
struct ScenariosArgs {
    /// Print this built-in scenario as TOML (a starting point for your own).
    show: Option<String>,
}

fn scenarios(args: &ScenariosArgs) -> Result<(), Box<dyn std::error::Error>> {
    use skirmish_sim::scenario::{BUILTIN, Scenario};
    match &args.show {
        Some(name) => output::emit(Scenario::builtin_source(name)?)?,
        None => {
            let mut out = String::new();
            for name in BUILTIN {
                let s = Scenario::builtin(name)?;
                out += &format!("{name:<14} {}\n", s.description);
            }
            output::emit(&out)?;
        }
    }
    Ok(())
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Odds(args) => odds::run(&args),
        Command::Tables(args) => tables::run(&args),
        Command::Replay(args) => replay::run(&args),
        Command::Run(args) => run::run(&args),
        Command::Sweep(args) => sweep::run(&args),
        Command::Scenarios(args) => scenarios(&args),
        Command::Track(args) => track::run(&args),
        Command::Bench(args) => bench::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.is::<output::ClosedPipe>() => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
