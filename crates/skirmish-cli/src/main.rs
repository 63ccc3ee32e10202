//! `skirmish`: exact odds, data tables, replays, battles and sweeps from the
//! command line. Every verb is a thin use of the library crates.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod odds;
mod output;
mod replay;
mod tables;

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
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Odds(args) => odds::run(&args),
        Command::Tables(args) => tables::run(&args),
        Command::Replay(args) => replay::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
