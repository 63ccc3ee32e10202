//! `skirmish run`: one battle of a scenario, its outcome and, with
//! `--trace`, its tick sheet.

use skirmish_sim::battle::{Battle, RunOptions};
use skirmish_sim::report::Outcome;

use crate::scenario_arg;

/// Arguments of `skirmish run`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// A scenario file (.toml or .json) or a built-in name (goblin-ambush,
    /// parity, shield-wall, horde). Default: the goblin ambush.
    scenario: Option<String>,
    /// Master seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Which battle of that seed (battles of a sweep are 0, 1, 2, ...).
    #[arg(long, default_value_t = 0)]
    index: u64,
    /// Set a scenario field first, as PATH=VALUE (repeatable), e.g.
    /// `--set timing=tick-system`.
    #[arg(long = "set", value_name = "PATH=VALUE")]
    set: Vec<String>,
    /// Print the tick sheet: every strike and fall, moment by moment.
    #[arg(long)]
    trace: bool,
    /// Print the whole report as JSON.
    #[arg(long)]
    json: bool,
}

pub(crate) fn run(args: &Args) -> Result<(), Box<dyn std::error::Error>> {
    let mut scenario = scenario_arg::load(args.scenario.as_deref())?;
    for s in &args.set {
        let (path, value) = s
            .split_once('=')
            .ok_or_else(|| format!("--set {s:?}: expected PATH=VALUE"))?;
        scenario = scenario.with_field(path.trim(), value.trim())?;
    }
    let battle = Battle::new(&scenario)?;
    let report = battle.run(
        args.seed,
        args.index,
        &RunOptions {
            trace: args.trace,
            casualties: true,
        },
    )?;
    if args.json {
        crate::output::emit(&format!("{}\n", serde_json::to_string_pretty(&report)?))?;
        return Ok(());
    }
    let mut out = format!(
        "{} — {} timing, {} striking, {} damage; seed {} battle {}\n",
        scenario.name,
        scenario.timing.name(),
        scenario.striking.name(),
        scenario.damage.name(),
        args.seed,
        args.index
    );
    if let Some(trace) = &report.trace {
        out.push('\n');
        let mut last = None;
        for line in trace {
            if last != Some(line.tick) {
                out += &format!("[round {} tick {}]\n", line.round, line.display);
                last = Some(line.tick);
            }
            out += &format!("    {}\n", line.text);
        }
        out.push('\n');
    }
    let s = &report.summary;
    out += &match s.outcome {
        Outcome::Win { side } => format!("winner: {}", report.sides[side]),
        Outcome::Draw => "a draw: the last fighters fell together".to_string(),
        Outcome::Timeout => "a timeout: the limit was reached with more than one side standing".to_string(),
    };
    let plural = |n: u64, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    out += &format!(
        ", after {} ({}).\n",
        plural(s.ticks, "tick", "ticks"),
        plural(u64::from(s.rounds), "round", "rounds")
    );
    out += &format!(
        "actions {}, hits {}, amazing strikes {}, amazing defenses {}, disruptions {}\n",
        s.actions, s.hits, s.amazing_strikes, s.amazing_defenses, s.disruptions
    );
    for (i, side) in report.sides.iter().enumerate() {
        out += &format!("  {side}: {} of {} standing\n", report.standing[i], report.fielded[i]);
    }
    if !report.casualties.is_empty() {
        out += "casualties over time (standing per side):\n";
        for c in report.casualties.iter().take(40) {
            let cells: Vec<String> = c.standing.iter().map(u64::to_string).collect();
            out += &format!("  tick {:>6}: {}\n", c.tick, cells.join(" / "));
        }
        if report.casualties.len() > 40 {
            out += &format!("  ... {} more\n", report.casualties.len() - 40);
        }
    }
    crate::output::emit(&out)?;
    Ok(())
}
