//! `skirmish exact`: a small fight's outcomes solved exactly (no
//! sampling): each side's chance to win, a draw's and never ending's, as
//! fractions and decimals, with the size of the chain and the time taken.

use std::time::Instant;

use serde::Serialize;
use skirmish_sim::exact::{Arithmetic, ExactChance, ExactOdds, ExactOptions, solve};

use crate::output::{self, Format, Table};
use crate::scenario_arg;

/// Arguments of `skirmish exact`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// A scenario file (.toml or .json) or a built-in name. Default: the
    /// goblin ambush (too big to solve: say which fight).
    scenario: Option<String>,
    /// Set a scenario field first, as PATH=VALUE (repeatable), e.g.
    /// `--set timing=simultaneous`.
    #[arg(long = "set", value_name = "PATH=VALUE")]
    set: Vec<String>,
    /// The most states of the chain: a bigger fight is refused (sample it
    /// instead).
    #[arg(long, default_value_t = skirmish_sim::exact::DEFAULT_MAX_STATES)]
    max_states: usize,
    /// Which numbers to solve in: exact fractions up to
    /// --max-exact-states states then floats (auto), fractions, or floats.
    #[arg(long, value_enum, default_value_t = ArithmeticArg::Auto)]
    arithmetic: ArithmeticArg,
    /// Under --arithmetic auto, the most states solved in fractions.
    #[arg(long, default_value_t = skirmish_sim::exact::DEFAULT_MAX_EXACT_STATES)]
    max_exact_states: usize,
    /// How to print the outcomes.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

/// [`Arithmetic`] on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum ArithmeticArg {
    /// Fractions within --max-exact-states, floats beyond.
    Auto,
    /// Exact fractions whatever the size.
    Fractions,
    /// Floats, with an error bound.
    Float,
}

pub(crate) fn run(args: &Args) -> Result<(), Box<dyn std::error::Error>> {
    let loaded = scenario_arg::load(args.scenario.as_deref())?;
    let mut scenario = loaded.clone();
    for s in &args.set {
        let (path, value) = s
            .split_once('=')
            .ok_or_else(|| format!("--set {s:?}: expected PATH=VALUE"))?;
        scenario = scenario.with_field(path.trim(), value.trim())?;
    }
    scenario_arg::warn(args.scenario.as_deref(), &loaded, &scenario);
    let options = ExactOptions {
        max_states: args.max_states,
        max_exact_states: args.max_exact_states,
        arithmetic: match args.arithmetic {
            ArithmeticArg::Auto => Arithmetic::Auto,
            ArithmeticArg::Fractions => Arithmetic::Fractions,
            ArithmeticArg::Float => Arithmetic::Float,
        },
        ..ExactOptions::default()
    };
    let started = Instant::now();
    let odds = solve(&scenario, &options)?;
    let seconds = started.elapsed().as_secs_f64();
    output::emit(&render(&scenario.name, &odds, seconds, args.format))
}

/// What `--format json` prints: the outcome and how it was found.
#[derive(Serialize)]
struct Json<'a> {
    scenario: &'a str,
    #[serde(flatten)]
    odds: &'a ExactOdds,
    seconds: f64,
}

/// Every outcome, a row each: its name, the side it names, its chance.
fn rows(odds: &ExactOdds) -> Vec<(String, &ExactChance)> {
    let mut rows: Vec<(String, &ExactChance)> = odds
        .sides
        .iter()
        .zip(&odds.wins)
        .map(|(side, chance)| (format!("{side} wins"), chance))
        .collect();
    rows.push(("draw".to_owned(), &odds.draw));
    rows.push(("never ends".to_owned(), &odds.never_ends));
    rows
}

fn render(name: &str, odds: &ExactOdds, seconds: f64, format: Format) -> String {
    if format == Format::Json {
        let json = Json {
            scenario: name,
            odds,
            seconds,
        };
        return serde_json::to_string_pretty(&json).unwrap_or_default() + "\n";
    }
    // Floats have no fraction to show.
    let header: &[&str] = if odds.exact {
        &["outcome", "chance", "fraction"]
    } else {
        &["outcome", "chance"]
    };
    let mut table = Table::new(header).right_align(&[1]);
    for (outcome, chance) in rows(odds) {
        let mut row = vec![outcome, format!("{:.6}", chance.value)];
        if odds.exact {
            row.push(chance.fraction.clone().unwrap_or_default());
        }
        table.push(row);
    }
    if format == Format::Csv {
        return table.render(format);
    }
    let numbers = if odds.exact {
        "exact fractions".to_owned()
    } else {
        format!("floats, each within {:.1e}", odds.error_bound)
    };
    let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    format!(
        "exact outcome of {name}: {}, {}, in {numbers}, solved in {}\n\n{}",
        plural(odds.states, "state"),
        plural(odds.transitions, "transition"),
        duration(seconds),
        table.render(format)
    )
}

/// A time taken in words: `1.2 ms`, `3.45 s`.
fn duration(seconds: f64) -> String {
    if seconds < 1.0 {
        format!("{:.1} ms", seconds * 1000.0)
    } else {
        format!("{seconds:.2} s")
    }
}
