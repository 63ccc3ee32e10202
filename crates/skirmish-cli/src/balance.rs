//! `skirmish balance`: where a side's win rate crosses a target (an even
//! fight) as one field varies: the values fought, the answer and why the
//! search stopped.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use skirmish_sim::balance::{Balance, BalanceAnswer, BalanceMethod, BalanceOptions, BalanceSpec, balance};

use crate::output::{self, Format, Table};
use crate::scenario_arg;

/// Arguments of `skirmish balance`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// A scenario file (.toml or .json) or a built-in name. Default: the
    /// goblin ambush.
    scenario: Option<String>,
    /// The field that varies, as a sweep's path, e.g.
    /// `sides.goblinoids.groups.0.count`.
    #[arg(long, value_name = "PATH")]
    field: String,
    /// The range of the field: its low and its high end.
    #[arg(long, num_args = 2, value_names = ["LO", "HI"], allow_negative_numbers = true)]
    between: Vec<f64>,
    /// The win rate sought, between 0 and 1 (0.5: an even fight).
    #[arg(long, default_value_t = 0.5)]
    target: f64,
    /// The side whose win rate is read. Default: the scenario's first.
    #[arg(long)]
    side: Option<String>,
    /// Set a scenario field first, as PATH=VALUE (repeatable), e.g.
    /// `--set timing=tick-system`.
    #[arg(long = "set", value_name = "PATH=VALUE")]
    set: Vec<String>,
    /// Master seed: battle i at every value draws from stream (seed, i).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Battles first fought at each value (more are added, doubling,
    /// until the value is told from the target).
    #[arg(long, default_value_t = 250)]
    battles: u64,
    /// The most battles fought at one value.
    #[arg(long, default_value_t = 16_000)]
    max_battles: u64,
    /// A real-valued field: stop when the bracket is this narrow.
    /// Default: a thousandth of the range.
    #[arg(long)]
    tolerance: Option<f64>,
    /// How each value's win rate is read: `auto` (exact when the exact
    /// engine solves the fight at every value, else sampled battles),
    /// `exact` (an error when it cannot), `sampled` (battles only).
    #[arg(long, value_enum, default_value_t = Method::Auto)]
    method: Method,
    /// Worker threads, at most 1024 (default, or 0: one per core).
    #[arg(long)]
    threads: Option<usize>,
    /// How to print the values fought.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

/// `--method`: the names of [`BalanceMethod`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Method {
    /// Exact when the fight fits the exact engine, else sampled.
    Auto,
    /// Exact, or an error naming what the exact engine refuses.
    Exact,
    /// Sampled battles only.
    Sampled,
}

impl From<Method> for BalanceMethod {
    fn from(m: Method) -> BalanceMethod {
        match m {
            Method::Auto => BalanceMethod::Auto,
            Method::Exact => BalanceMethod::Exact,
            Method::Sampled => BalanceMethod::Sampled,
        }
    }
}

/// Set by Ctrl-C: the search stops between batches.
static INTERRUPTED: std::sync::OnceLock<Arc<AtomicBool>> = std::sync::OnceLock::new();

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
    let [low, high] = args.between[..] else {
        return Err("--between: expected two numbers, LO and HI".into());
    };
    let spec = BalanceSpec {
        scenario,
        field: args.field.trim().to_owned(),
        between: (low, high),
        target: args.target,
        side: args.side.clone(),
        seed: args.seed,
        battles: args.battles,
        max_battles: args.max_battles,
        tolerance: args.tolerance,
        method: args.method.into(),
    };
    let cancel = INTERRUPTED.get_or_init(|| {
        let flag = Arc::new(AtomicBool::new(false));
        let set = Arc::clone(&flag);
        // Only one handler per process; a second Ctrl-C ends the program.
        let _ = ctrlc::set_handler(move || {
            if set.swap(true, Ordering::SeqCst) {
                std::process::exit(130);
            }
        });
        flag
    });
    let options = BalanceOptions {
        threads: args.threads,
        cancel: Some(Arc::clone(cancel)),
    };
    let found = balance(&spec, &options)?;
    output::emit(&render(&found, args.format))
}

/// The values fought as a table, then (in text) the answer and why the
/// search stopped.
fn render(found: &Balance, format: Format) -> String {
    let mut table = Table::new(&[
        "value", "battles", "wins", "win_rate", "low", "high", "verdict", "exact",
    ])
    .right_align(&[0, 1, 2, 3, 4, 5]);
    for p in &found.points {
        table.push(vec![
            p.value.to_string(),
            p.battles.to_string(),
            p.wins.to_string(),
            format!("{:.4}", p.win_rate),
            format!("{:.4}", p.low),
            format!("{:.4}", p.high),
            p.verdict.name().to_owned(),
            match (&p.fraction, p.exact) {
                (Some(f), _) => f.clone(),
                (None, true) => "f64".to_owned(),
                (None, false) => "-".to_owned(),
            },
        ]);
    }
    if format != Format::Text {
        return table.render(format);
    }
    let target = format!("{}%", found.target * 100.0);
    let answer = match found.answer {
        BalanceAnswer::Between { below, above } => format!(
            "answer: {} wins {target} of its battles between {} = {above} (above {target}) and {below} (below)",
            found.side, found.field
        ),
        BalanceAnswer::At { value } if found.method == BalanceMethod::Exact => format!(
            "answer: {} wins {target} of its battles at {} = {value}",
            found.side, found.field
        ),
        BalanceAnswer::At { value } => format!(
            "answer: {} wins {target} of its battles at {} = {value}, as far as the battles can tell",
            found.side, found.field
        ),
    };
    let how = match (&found.not_exact, found.method) {
        (_, BalanceMethod::Exact) => "exact chances from the exact engine, no battle fought".to_owned(),
        (Some(why), _) => format!("sampled battles (not exact: {why})"),
        (None, _) => "sampled battles".to_owned(),
    };
    format!(
        "balance of {} (seed {}): where does {} win {target} of its battles?\nmethod: {how}\n\n{}\n{answer}\nstopped: {}; {} battles in all\n",
        found.field,
        found.seed,
        found.side,
        table.render(format),
        found.stopped,
        found.battles()
    )
}
