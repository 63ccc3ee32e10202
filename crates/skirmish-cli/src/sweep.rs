//! `skirmish sweep`: a grid of scenario variations x battles, in parallel,
//! with a progress bar, a summary table, CSV/JSON output and a plot.

use std::io::IsTerminal;
use std::sync::Arc;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};
use skirmish_sim::sweep::{
    Axis, SweepOptions, SweepSpec, SweepTable, check_output, existing_work, plan_resume, sweep, write_output,
};

use crate::scenario_arg;

/// Arguments of `skirmish sweep`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// A scenario file (.toml or .json) or a built-in name. Default: the
    /// goblin ambush.
    scenario: Option<String>,
    /// A field to vary and its values, as PATH=V1,V2,... (repeatable; the
    /// grid is every combination), e.g. `--vary timing=continuous,tick-system`
    /// or `--vary sides.A.groups.0.count=10,20,40`. A value holding a comma
    /// is quoted (`weapon="Sword, Long",Dagger`) or is a JSON table or list
    /// (`timing={"system":"tick_system","action_ticks":1},continuous`).
    #[arg(long, value_name = "PATH=V1,V2,...")]
    vary: Vec<String>,
    /// Battles per cell.
    #[arg(long, default_value_t = 1000)]
    battles: u64,
    /// Master seed: battle i of every cell draws from stream (seed, i).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads, at most 1024 (default, or 0: one per core).
    #[arg(long)]
    threads: Option<usize>,
    /// Write the table here (.csv, or .json); a .csv file is also the
    /// checkpoint: each finished cell is appended as it completes.
    #[arg(long)]
    out: Option<std::path::PathBuf>,
    /// Skip the cells already in the --out CSV file (after an interruption).
    #[arg(long, requires = "out")]
    resume: bool,
    /// Overwrite an --out file that holds finished cells or other content
    /// (without it, such a file is refused; --resume continues it instead).
    #[arg(long, requires = "out", conflicts_with = "resume")]
    force: bool,
    /// Draw the win rates with their intervals against the first varied
    /// field, as an SVG file.
    #[arg(long, value_name = "FILE.svg")]
    plot: Option<std::path::PathBuf>,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
}

pub(crate) fn run(args: &Args) -> Result<(), Box<dyn std::error::Error>> {
    let scenario = scenario_arg::load(args.scenario.as_deref())?;
    // The base scenario's warnings (each cell's `--vary` values are the
    // sweep's to choose, and may differ in what the rules read).
    scenario_arg::warn(args.scenario.as_deref(), &scenario, &scenario);
    let mut axes = Vec::new();
    for v in &args.vary {
        let (path, values) = v
            .split_once('=')
            .ok_or_else(|| format!("--vary {v:?}: expected PATH=V1,V2,..."))?;
        let values = split_values(values).map_err(|e| format!("--vary {v:?}: {e}"))?;
        axes.push(Axis::new(path.trim(), values));
    }
    let spec = SweepSpec {
        scenario,
        axes,
        battles: args.battles,
        seed: args.seed,
    };
    let cells = spec.validate()?;
    // The files are checked before the battles, not after them.
    if let Some(out) = &args.out {
        writable(out, "--out")?;
        if !args.resume
            && !args.force
            && let Some(work) = existing_work(out, &spec)?
        {
            // Advise --resume only where it would be accepted: a finished
            // sweep's output (rows without row checks) or another file is
            // refused by --resume too.
            let advice = if plan_resume(out, &spec).is_ok() {
                "Add --resume to continue this checkpoint, or --force to overwrite it"
            } else {
                "--resume cannot continue it (a finished sweep's output, a checkpoint of an older schema, or not \
                 this sweep's checkpoint). To fight the sweep again from the start, add --force to overwrite it, or \
                 write to another --out"
            };
            return Err(format!(
                "--out {}: the file holds {work}; writing this sweep would replace it. {advice}",
                out.display()
            )
            .into());
        }
    }
    let csv_out = args
        .out
        .as_ref()
        .filter(|p| p.extension().is_none_or(|e| !e.eq_ignore_ascii_case("json")));
    // What a resume will not reuse, and why, before the battles (a damaged
    // checkpoint is refused here too, naming its line).
    if args.resume
        && let Some(out) = csv_out
    {
        for note in plan_resume(out, &spec)?.notes() {
            eprintln!("note: --out {}: {note}", out.display());
        }
    }
    if let Some(plot) = &args.plot {
        if plot.extension().is_none_or(|e| !e.eq_ignore_ascii_case("svg")) {
            return Err(format!(
                "--plot {}: the plot is drawn as SVG; name the file .svg",
                plot.display()
            )
            .into());
        }
        writable(plot, "--plot")?;
    }
    // Hidden when standard error is no terminal, as `run`'s: the bar would
    // draw nothing, and its ticking thread is a tenth of a millisecond of a
    // small sweep's setup.
    let bar = if args.quiet || !std::io::stderr().is_terminal() {
        ProgressBar::hidden()
    } else {
        let bar = ProgressBar::new(cells * args.battles);
        bar.set_style(
            ProgressStyle::with_template(
                "{spinner} [{elapsed_precise}] {bar:40} {pos}/{len} battles ({per_sec}, eta {eta}) {msg}",
            )?
            .progress_chars("=> "),
        );
        bar.enable_steady_tick(Duration::from_millis(200));
        bar
    };
    let progress_bar = bar.clone();
    let options = SweepOptions {
        threads: args.threads,
        progress: Some(Arc::new(move |p| {
            progress_bar.set_length(p.battles_total);
            progress_bar.set_position(p.battles_done);
            progress_bar.set_message(format!("cell {}/{}", p.cells_done, p.cells_total));
        })),
        cancel: None,
        checkpoint: csv_out.cloned(),
        resume: args.resume,
    };
    let table = sweep(&spec, &options);
    bar.finish_and_clear();
    let table = table?;
    let text = table.summary_text();
    let mut text = text;
    if !text.ends_with('\n') {
        text.push('\n');
    }
    crate::output::emit(&text)?;
    if let Some(out) = &args.out {
        if csv_out.is_none() {
            write_output(out, table.to_json().as_bytes()).map_err(|e| format!("--out {e}"))?;
        }
        eprintln!("wrote {}", out.display());
    }
    if let Some(plot) = &args.plot {
        let svg = draw(&table).map_err(|e| format!("--plot {}: {e}", plot.display()))?;
        write_output(plot, svg.as_bytes()).map_err(|e| format!("--plot {e}"))?;
        eprintln!("wrote {}", plot.display());
    }
    Ok(())
}

/// The values of `--vary PATH=V1,V2,...`: split at commas, except inside
/// double quotes (`"Sword, Long"`, kept with its quotes: it is read as a
/// JSON string) and inside JSON tables and lists (`{...}`, `[...]`). An
/// empty value is an error, not skipped.
fn split_values(text: &str) -> Result<Vec<String>, String> {
    let mut values = Vec::new();
    let (mut depth, mut quoted, mut escaped) = (0i32, false, false);
    let mut current = String::new();
    for c in text.chars() {
        if quoted {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                quoted = false;
            }
        } else {
            match c {
                '"' => quoted = true,
                '{' | '[' => depth += 1,
                '}' | ']' => depth -= 1,
                ',' if depth == 0 => {
                    values.push(std::mem::take(&mut current));
                    continue;
                }
                _ => {}
            }
        }
        current.push(c);
    }
    if quoted {
        return Err("a quote is not closed".to_owned());
    }
    if depth != 0 {
        return Err("a { or [ is not closed".to_owned());
    }
    values.push(current);
    let values: Vec<String> = values.into_iter().map(|v| v.trim().to_owned()).collect();
    if let Some(i) = values.iter().position(String::is_empty) {
        return Err(format!("value {} is empty", i + 1));
    }
    Ok(values)
}

/// Checks, before any battle, that `path` can be written: its folder exists,
/// it is (through any symlink) a regular file or nothing yet, and its folder
/// takes a new file.
fn writable(path: &std::path::Path, flag: &str) -> Result<(), String> {
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => std::path::Path::new("."),
    };
    if !folder.is_dir() {
        return Err(format!(
            "{flag} {}: the folder {} does not exist",
            path.display(),
            folder.display()
        ));
    }
    if path.is_dir() {
        return Err(format!("{flag} {}: is a folder", path.display()));
    }
    check_output(path).map_err(|e| format!("{flag} {e}"))
}

/// Win rate of every side, with its Wilson interval, against the first
/// varied field (one point per value; further axes are averaged over),
/// as SVG text.
fn draw(table: &SweepTable) -> Result<String, Box<dyn std::error::Error>> {
    use plotters::prelude::*;

    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (900, 520)).into_drawing_area();
        chart_into(table, &root)?;
    }
    Ok(svg)
}

/// The plot of [`draw`], on `root`.
fn chart_into(
    table: &SweepTable,
    root: &plotters::prelude::DrawingArea<plotters::prelude::SVGBackend<'_>, plotters::coord::Shift>,
) -> Result<(), Box<dyn std::error::Error>> {
    use plotters::prelude::*;

    let axis = table.axes().first().cloned().unwrap_or_else(|| "scenario".to_string());
    // Values of the first axis, in order of first appearance.
    let mut labels: Vec<String> = Vec::new();
    for c in table.cells() {
        let v = c.values.first().cloned().unwrap_or_else(|| "all".to_string());
        if !labels.contains(&v) {
            labels.push(v);
        }
    }
    let sides = table.sides().to_vec();
    // Per label and side: pooled wins and battles over the other axes.
    let mut pooled = vec![vec![(0u64, 0u64); sides.len()]; labels.len()];
    for c in table.cells() {
        let v = c.values.first().cloned().unwrap_or_else(|| "all".to_string());
        let i = labels.iter().position(|l| *l == v).unwrap_or(0);
        for (s, slot) in pooled[i].iter_mut().enumerate() {
            slot.0 += c.stats.wins.get(s).copied().unwrap_or(0);
            slot.1 += c.stats.battles;
        }
    }
    root.fill(&WHITE)?;
    let n = labels.len();
    let mut chart = ChartBuilder::on(root)
        .caption(format!("win rate (95% Wilson interval) by {axis}"), ("sans-serif", 22))
        .margin(20)
        .x_label_area_size(60)
        .y_label_area_size(60)
        .build_cartesian_2d(-0.5f64..(n as f64 - 0.5), 0f64..1f64)?;
    let label_of = |x: &f64| {
        let i = x.round();
        if (x - i).abs() < 1e-9 && i >= 0.0 && (i as usize) < n {
            labels[i as usize].clone()
        } else {
            String::new()
        }
    };
    chart
        .configure_mesh()
        .x_labels(n.max(2))
        .x_label_formatter(&label_of)
        .x_desc(axis.clone())
        .y_desc("win rate")
        .draw()?;
    let palette = [BLUE, RED, GREEN, MAGENTA, CYAN, BLACK];
    for (s, side) in sides.iter().enumerate() {
        let color = palette[s % palette.len()];
        let offset = (s as f64 - (sides.len() as f64 - 1.0) / 2.0) * 0.08;
        let points: Vec<(f64, f64, f64, f64)> = pooled
            .iter()
            .enumerate()
            .map(|(i, per_side)| {
                let (wins, battles) = per_side[s];
                let rate = if battles == 0 {
                    0.0
                } else {
                    wins as f64 / battles as f64
                };
                let (lo, hi) = skirmish_sim::stats::wilson(wins, battles);
                (i as f64 + offset, rate, lo, hi)
            })
            .collect();
        chart
            .draw_series(LineSeries::new(
                points.iter().map(|p| (p.0, p.1)),
                color.stroke_width(2),
            ))?
            .label(side.clone())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(2)));
        chart.draw_series(
            points
                .iter()
                .map(|p| ErrorBar::new_vertical(p.0, p.2, p.1, p.3, color.filled(), 10)),
        )?;
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()?;
    root.present()?;
    Ok(())
}
