//! `skirmish run`: one battle of a scenario, its outcome and, with
//! `--trace`, its tick sheet.
//!
//! A battle can be long (millions of fighters), so `run` never holds what
//! it prints: the trace is written line by line as the battle fights
//! (memory bounded whatever its length), a progress line shows on a
//! terminal's standard error, and Ctrl-C stops the battle at the next
//! moment, says where it was and exits 1 (a second Ctrl-C ends the program
//! at once, exit 130). The engine's fast paths are watched like its
//! general loop.
//!
//! With `--json --trace` the report is one JSON object whose `"trace"`
//! array comes first (it is written as it happens), then the other fields
//! of the report; without `--trace` it is the report as before.

use std::io::{IsTerminal as _, Write as _};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};
use skirmish_core::timing::TimingSystem;
use skirmish_sim::SimError;
use skirmish_sim::battle::{Battle, BattleProgress, Control, RunOptions};
use skirmish_sim::report::{BattleReport, Outcome, TraceLine};

use crate::output::ClosedPipe;
use crate::scenario_arg;

/// Arguments of `skirmish run`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// A scenario file (.toml or .json) or a built-in name (goblin-ambush,
    /// parity, shield-wall, horde, archers). Default: the goblin ambush.
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
    /// Print the tick sheet: every strike and fall, moment by moment,
    /// written as the battle is fought.
    #[arg(long)]
    trace: bool,
    /// Print the whole report as JSON (with `--trace`, its "trace" array
    /// first).
    #[arg(long)]
    json: bool,
}

/// Set by Ctrl-C: the battle stops at its next moment.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Ctrl-C sets [`INTERRUPTED`]; a second one ends the program (exit 130).
fn catch_ctrl_c() {
    // Only one handler per process: a second `run` in the same process
    // (tests) keeps the first, which sets the same flag.
    let _ = ctrlc::set_handler(|| {
        if INTERRUPTED.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
    });
}

/// Where the trace goes as it is fought: standard output, buffered, in the
/// text or JSON layout. The first write error is kept (and stops the
/// battle); the sink itself cannot return one.
struct TraceWriter<W: std::io::Write> {
    out: W,
    json: bool,
    timing: TimingSystem,
    lines: u64,
    last_tick: Option<u64>,
    error: Option<std::io::Error>,
}

impl<W: std::io::Write> TraceWriter<W> {
    fn line(&mut self, line: &TraceLine) {
        if self.error.is_some() {
            return;
        }
        let written = if self.json {
            let sep = if self.lines == 0 { "\n" } else { ",\n" };
            serde_json::to_string(line)
                .map_err(std::io::Error::other)
                .and_then(|l| write!(self.out, "{sep}    {l}"))
        } else {
            let mut r = Ok(());
            if self.last_tick != Some(line.tick) {
                r = writeln!(self.out, "[{}]", moment_label(&self.timing, line));
                self.last_tick = Some(line.tick);
            }
            r.and_then(|()| writeln!(self.out, "    {}", line.text))
        };
        self.lines += 1;
        if let Err(e) = written {
            self.error = Some(e);
        }
    }
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
    // Warned about as fought: `--set timing=...` may make a setting matter,
    // or not.
    scenario_arg::warn(args.scenario.as_deref(), &loaded, &scenario);
    let battle = Battle::new(&scenario)?;
    catch_ctrl_c();
    let header = format!(
        "{} — {} timing, {} striking, {} damage; seed {} battle {}\n",
        scenario.name,
        scenario.timing.name(),
        scenario.striking.name(),
        scenario.damage.name(),
        args.seed,
        args.index
    );
    let stdout = std::io::stdout();
    let mut writer = TraceWriter {
        out: std::io::BufWriter::with_capacity(1 << 16, stdout.lock()),
        json: args.json,
        timing: scenario.timing.clone(),
        lines: 0,
        last_tick: None,
        error: None,
    };
    if args.trace {
        let start = if args.json { "{\n  \"trace\": [" } else { "" };
        let start = if args.json {
            start.to_string()
        } else {
            format!("{header}\n")
        };
        if let Err(e) = writer.out.write_all(start.as_bytes()) {
            return Err(io_error(e));
        }
    }
    let bar = progress_bar();
    let shown = bar.clone();
    let mut progress = move |p: &BattleProgress| {
        shown.set_length(p.fielded);
        shown.set_position(p.fielded - p.standing);
        shown.set_message(format!("tick {} round {}, {} actions", p.tick, p.round, p.actions));
    };
    let report = {
        // A write error also stops the battle (nobody reads the rest): it
        // sets the same flag, and is reported first.
        let mut sink = |line: &TraceLine| {
            writer.line(line);
            if writer.error.is_some() {
                INTERRUPTED.store(true, Ordering::Relaxed);
            }
        };
        let mut control = Control::new().cancel(&INTERRUPTED).progress(&mut progress);
        if args.trace {
            control = control.trace(&mut sink);
        }
        let options = RunOptions {
            trace: false,
            casualties: true,
        };
        battle.run_controlled(args.seed, args.index, &options, &mut control)
    };
    bar.finish_and_clear();
    if let Some(e) = writer.error.take() {
        return Err(io_error(e));
    }
    let report = match report {
        Ok(report) => report,
        Err(e @ SimError::Interrupted { .. }) => {
            let _ = writer.out.flush();
            return Err(Box::new(e));
        }
        Err(e) => return Err(Box::new(e)),
    };
    let text = if args.json {
        json_rest(&report, args.trace)?
    } else {
        summary_text(&report, &scenario.timing, if args.trace { "\n" } else { &header })
    };
    writer
        .out
        .write_all(text.as_bytes())
        .and_then(|()| writer.out.flush())
        .map_err(io_error)?;
    Ok(())
}

/// A moment of the trace as its timing system names it: Simple Rounds by
/// round, pass and initiative (the initiatives start again each pass);
/// Action Blocks by phase and block; Simultaneous by exchange; the others by
/// round (Continuous: stopwatch lap) and tick, with Graduated Rounds' end
/// pass when actions come after the round's last tick.
fn moment_label(timing: &TimingSystem, line: &TraceLine) -> String {
    match timing {
        TimingSystem::SimpleRounds => format!("round {} pass {} initiative {}", line.round, line.pass, line.display),
        TimingSystem::ActionBlocks(_) => format!("phase {} block {}", line.round, line.display),
        TimingSystem::Simultaneous => format!("exchange {}", line.round),
        TimingSystem::GraduatedRounds(_) if line.pass > 0 => format!(
            "round {} after tick {}, end pass {}",
            line.round, line.display, line.pass
        ),
        _ => format!("round {} tick {}", line.round, line.display),
    }
}

/// A write error: the reader closed the pipe (not a failure), or another.
fn io_error(e: std::io::Error) -> Box<dyn std::error::Error> {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        Box::new(ClosedPipe)
    } else {
        Box::new(e)
    }
}

/// A progress line on standard error when it is a terminal (hidden
/// otherwise): fighters fallen of those fielded, the tick and actions.
fn progress_bar() -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(0);
    if let Ok(style) = ProgressStyle::with_template("{spinner} [{elapsed_precise}] {pos}/{len} fallen, {msg}") {
        bar.set_style(style);
    }
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}

/// The JSON after the streamed trace (or the whole report without one).
fn json_rest(report: &BattleReport, traced: bool) -> Result<String, Box<dyn std::error::Error>> {
    let whole = serde_json::to_string_pretty(report)?;
    if !traced {
        return Ok(format!("{whole}\n"));
    }
    // The report's other fields, at the object's indentation after "trace".
    let mut value = serde_json::to_value(report)?;
    if let Some(map) = value.as_object_mut() {
        map.remove("trace");
    }
    let rest = serde_json::to_string_pretty(&value)?;
    let inner = rest
        .strip_prefix("{\n")
        .and_then(|r| r.strip_suffix("\n}"))
        .unwrap_or_default();
    Ok(format!("\n  ],\n{inner}\n}}\n"))
}

/// The outcome, counts and casualties in words, after `lead` (the header,
/// or a blank line after the trace). The duration is told first in game
/// seconds where `timing`'s text gives them (they compare across timing
/// systems), then in the system's rounds and ticks, and what those are.
fn summary_text(report: &BattleReport, timing: &TimingSystem, lead: &str) -> String {
    let mut out = lead.to_string();
    let s = &report.summary;
    out += &match s.outcome {
        Outcome::Win { side } => format!("winner: {}", report.sides[side]),
        Outcome::Draw if !s.breaks.is_none() => "a draw: the last sides broke together".to_string(),
        Outcome::Draw => "a draw: the last fighters fell together".to_string(),
        Outcome::Timeout => "a timeout: the limit was reached with more than one side standing".to_string(),
    };
    let plural = |n: u64, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    let seconds = timing.game_seconds(s.ticks, s.rounds).map_or_else(String::new, |x| {
        format!("about {} of game time: ", plural(x, "second", "seconds"))
    });
    out += &format!(
        ", after {seconds}{}, {}.\n",
        plural(u64::from(s.rounds), "round", "rounds"),
        plural(s.ticks, "tick", "ticks")
    );
    out += &format!("  under {}, {}\n", timing.name(), timing.time_units());
    out += &format!(
        "actions {}, hits {}, amazing strikes {}, amazing defenses {}, disruptions {}\n",
        s.actions, s.hits, s.amazing_strikes, s.amazing_defenses, s.disruptions
    );
    for (i, side) in report.sides.iter().enumerate() {
        let broke = match report.broke(i) {
            Some(how) => format!(" ({}ed)", how.name()),
            None => String::new(),
        };
        out += &format!(
            "  {side}: {} of {} standing{broke}\n",
            report.standing[i], report.fielded[i]
        );
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
    out
}
