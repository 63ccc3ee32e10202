//! `skirmish`: exact odds, data tables, replays, battles and sweeps from the
//! command line. Every verb is a thin use of the library crates.
//!
//! Exit status, the usual convention, the same for every verb: 0 done (or
//! standard output closed by its reader), 2 a usage error (a bad argument,
//! scenario or `--set`/`--vary` value: fix the command), 1 a failure at
//! run time (writing output, a battle, an interrupted sweep: the command
//! was fine). [`exit_status`] is the one place that decides.

use std::error::Error;
use std::process::ExitCode;

use clap::{CommandFactory as _, FromArgMatches as _, Parser, Subcommand};

mod balance;
mod bench;
mod exact;
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
    /// Find where a side's win rate crosses a target (an even fight) as one field varies.
    Balance(balance::Args),
    /// Solve a small fight exactly: each side's chance to win, a draw's, never ending's.
    Exact(exact::Args),
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

/// Exit status of a usage error.
const USAGE: u8 = 2;
/// Exit status of a failure at run time.
const RUNTIME: u8 = 1;

fn main() -> ExitCode {
    let cli = match parse() {
        Ok(cli) => cli,
        Err(code) => return code,
    };
    let result = match cli.command {
        Command::Odds(args) => odds::run(&args),
        Command::Tables(args) => tables::run(&args),
        Command::Replay(args) => replay::run(&args),
        Command::Run(args) => run::run(&args),
        Command::Sweep(args) => sweep::run(&args),
        Command::Balance(args) => balance::run(&args),
        Command::Exact(args) => exact::run(&args),
        Command::Scenarios(args) => scenarios(&args),
        Command::Track(args) => track::run(&args),
        Command::Bench(args) => bench::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.is::<output::ClosedPipe>() => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(exit_status(e.as_ref()))
        }
    }
}

/// The command line, with every option that takes a value taking a negative
/// number too (`--sr -2`, `--seed -1`): its own parser then says what it
/// expects, instead of clap calling `-1` an unexpected argument.
fn command() -> clap::Command {
    Cli::command().mut_subcommands(|verb| {
        verb.mut_args(|arg| {
            if arg.get_action().takes_values() && !arg.is_positional() {
                arg.allow_negative_numbers(true)
            } else {
                arg
            }
        })
    })
}

/// The parsed command line, or the exit status after saying what is wrong
/// (help and version: 0; anything else: [`USAGE`]).
fn parse() -> Result<Cli, ExitCode> {
    let parsed = command()
        .try_get_matches()
        .and_then(|matches| Cli::from_arg_matches(&matches));
    parsed.map_err(|e| {
        if !e.use_stderr() {
            // --help, --version: not an error.
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        match negative_where_unsigned(&e) {
            Some(message) => eprintln!("error: {message}\n\nFor more information, try '--help'."),
            None => {
                let _ = e.print();
            }
        }
        ExitCode::from(USAGE)
    })
}

/// For a negative number given to an option that takes none, what the
/// option takes (clap's own words are about the parser: "invalid digit
/// found in string").
fn negative_where_unsigned(e: &clap::Error) -> Option<String> {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if e.kind() != ErrorKind::ValueValidation {
        return None;
    }
    let text = |kind| match e.get(kind) {
        Some(ContextValue::String(s)) => Some(s.clone()),
        _ => None,
    };
    let value = text(ContextKind::InvalidValue)?;
    let arg = text(ContextKind::InvalidArg)?;
    let number = value.strip_prefix('-')?;
    if number.is_empty() || !number.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    if !e.to_string().contains("invalid digit") {
        return None;
    }
    let expected = if arg.starts_with("--seed") {
        format!("a seed is a whole number from 0 to {}, not a negative number", u64::MAX)
    } else {
        // Some take 0 and some do not (`--battles`): only the sign is
        // certain here; clap's own check names the rest.
        "it does not take a negative number".to_owned()
    };
    Some(format!("invalid value '{value}' for '{arg}': {expected}"))
}

/// [`USAGE`] for an error in what the user asked, [`RUNTIME`] for a
/// failure in doing it.
fn exit_status(e: &(dyn Error + 'static)) -> u8 {
    use skirmish_sim::sweep::SweepError;
    if e.is::<skirmish_sim::scenario::ScenarioError>() || e.is::<skirmish_core::Error>() || e.is::<track::CmdError>() {
        return USAGE;
    }
    if let Some(sweep) = e.downcast_ref::<SweepError>() {
        return match sweep {
            SweepError::Invalid(_) | SweepError::Edit { .. } | SweepError::HeaderMismatch { .. } => USAGE,
            _ => RUNTIME,
        };
    }
    if let Some(b) = e.downcast_ref::<skirmish_sim::balance::BalanceError>() {
        use skirmish_sim::balance::BalanceError;
        return match b {
            BalanceError::Battle { .. } | BalanceError::Interrupted { .. } => RUNTIME,
            _ => USAGE,
        };
    }
    if let Some(x) = e.downcast_ref::<skirmish_sim::exact::ExactError>() {
        // A fight the exact engine does not take is the command's to fix
        // (sample it instead); a battle that fails is not.
        return match x {
            skirmish_sim::exact::ExactError::Sim(_) => RUNTIME,
            _ => USAGE,
        };
    }
    if e.is::<std::io::Error>() || e.is::<skirmish_sim::SimError>() {
        return RUNTIME;
    }
    // The verbs' own messages about an argument start with its option
    // (`--set "x": expected PATH=VALUE`); a failure to write a file they
    // name carries the system's "(os error N)".
    let message = e.to_string();
    if message.starts_with("--") && !message.contains("os error") {
        USAGE
    } else {
        RUNTIME
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn status(e: impl Error + 'static) -> u8 {
        exit_status(&e)
    }

    #[test]
    fn usage_errors_are_2_and_failures_at_run_time_1() {
        use skirmish_sim::sweep::SweepError;
        let scenario = skirmish_sim::scenario::Scenario::builtin("nonesuch").unwrap_err();
        assert_eq!(status(scenario), USAGE);
        assert_eq!(status(skirmish_core::Error::out_of_range("sr", 5, 0, 1)), USAGE);
        assert_eq!(status(SweepError::Invalid("no battles".into())), USAGE);
        assert_eq!(
            status(SweepError::Cancelled {
                cells_done: 1,
                cells_total: 2
            }),
            RUNTIME
        );
        assert_eq!(status(std::io::Error::other("disk full")), RUNTIME);
        assert_eq!(status(skirmish_sim::SimError::Scenario("x".into())), RUNTIME);
        let boxed = |s: &str| -> Box<dyn Error> { s.into() };
        assert_eq!(exit_status(boxed("--set \"x\": expected PATH=VALUE").as_ref()), USAGE);
        assert_eq!(
            exit_status(boxed("--out out.json: No space left on device (os error 28)").as_ref()),
            RUNTIME
        );
        assert_eq!(exit_status(boxed("the battle went wrong").as_ref()), RUNTIME);
    }
}
