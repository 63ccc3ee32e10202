//! Sweeps: many battles of a scenario over a grid of field values, reduced
//! to one row of statistics per cell.
//!
//! A [`SweepSpec`] names a base [`Scenario`], the [`Axis`]es to vary (a field
//! path and its values), the battles per cell and a master seed. The grid is
//! the cartesian product of the axes' values in **row-major order** (the
//! first axis varies slowest); with no axes there is one cell, the base
//! scenario. [`run_sweep`] builds every cell's scenario through an *editor*
//! (`Fn(&Scenario, path, value) -> Result<Scenario, E>`, so the real field
//! setter plugs in here), reporting any edit that fails before a single
//! battle runs, then fights every cell's battles through a *battle* closure
//! and returns a [`SweepTable`].
//!
//! # Determinism and common random numbers
//!
//! Battle `i` of **every** cell is called with the same `(seed, i)`, from
//! which the engine derives the battle's random stream: the cells see the
//! same dice, so their differences are the rules, not noise. Battles run in
//! parallel (a local rayon pool of [`SweepOptions::threads`]), but a cell's
//! results are integer sums and a histogram of durations, which do not
//! depend on the order battles finish in; the table, its CSV and its JSON
//! are byte-identical on any number of threads.
//!
//! # Checkpoint and resume
//!
//! With [`SweepOptions::checkpoint`], the CSV header is written first and
//! each finished cell is appended as one CSV line (flushed and synced) as soon
//! as it completes. With [`SweepOptions::resume`], an existing file is read
//! back: its header must be this sweep's header exactly, its rows (matched to
//! cells by their varied values) are reused, and a torn last line (a kill
//! mid-write) is dropped and recomputed. Each row carries its exact counts,
//! so a reused row is rebuilt into the same [`CellStats`], and checked to
//! reproduce its own text (a row cannot prove its `median_ticks` and
//! `p90_ticks`: they are only checked to be possible for its counts). A
//! UTF-8 byte order mark and CRLF line ends (an editor's save) are accepted.
//! When every cell is done the file is rewritten atomically in cell order:
//! the final file is byte-identical to an uninterrupted run's
//! [`SweepTable::to_csv`].
//!
//! Every write goes through [`write_output`]: a symlink is followed (the
//! file it names is replaced, the link stays), a temporary file is made
//! beside that target (so the rename stays on one filesystem), a replaced
//! file keeps its permissions, and a target that is not a regular file
//! (folder, FIFO, socket, device) or has several hard links is refused,
//! before any battle ([`check_output`]). Errors name the path as given.
//! The library starts a checkpoint afresh when not resuming; a front end
//! that should not discard finished cells asks [`existing_work`] first (the
//! `skirmish` command refuses without `--resume` or `--force`).
//!
//! # Schema (a stable contract)
//!
//! One row per cell, in grid order; the columns, in this order:
//!
//! | column | type | meaning |
//! | --- | --- | --- |
//! | *axis path* (one per axis, in axis order) | text | the value applied to that field, as given |
//! | `battles` | integer | battles fought in the cell |
//! | `win_rate_<side>`, `win_rate_<side>_low`, `win_rate_<side>_high` (one triple per side, scenario order) | float | share of battles `<side>` won, and its Wilson 95% interval |
//! | `draw_rate`, `draw_rate_low`, `draw_rate_high` | float | share of draws (all wiped out at one tick), with its interval |
//! | `timeout_rate`, `timeout_rate_low`, `timeout_rate_high` | float | share stopped by a cap, with its interval |
//! | `mean_ticks` | float | mean duration in ticks |
//! | `median_ticks`, `p90_ticks` | integer | median and 90th percentile of the duration, by nearest rank (see [`stats`]) |
//! | `mean_rounds` | float | mean rounds begun |
//! | `mean_actions` | float | mean actions per battle |
//! | `hit_rate` | float | hits per action (empty when no action) |
//! | `amazing_strike_rate`, `amazing_defense_rate` | float | amazing strikes / defenses per action (empty when no action) |
//! | `mean_disruptions` | float | mean disrupted actions per battle |
//! | `wins_<side>` (one per side), `draws`, `timeouts` | integer | outcome counts |
//! | `total_ticks`, `total_rounds`, `total_actions`, `total_hits`, `total_amazing_strikes`, `total_amazing_defenses`, `total_disruptions` | integer | sums over the cell's battles |
//! | `seed` | integer | the master seed |
//! | `scenario_fingerprint` | text | the base scenario's [fingerprint](Scenario::fingerprint) (16 hex digits): rows with different fingerprints were fought under different scenarios |
//!
//! `<side>` is the side's name in lowercase ASCII with every other character
//! (anything not `a-z`, `0-9`) replaced by `_`: side `"Orc Band"` gives
//! `win_rate_orc_band`. Every float is computed from the integer columns of
//! its row (a rate is `count / battles`, a mean is `total / battles`, the
//! per-action rates are `total / total_actions`), so rows can be pooled and
//! checked.
//!
//! **Formatting.** CSV: comma-separated, `\n` line ends, a header line, one
//! line per cell; a text field is quoted (`"`, inner quotes doubled) when it
//! holds a comma or a quote; integers in decimal; floats with exactly
//! [`FLOAT_DECIMALS`] (6) digits after the point (`0.500000`); an undefined
//! rate is an empty field. JSON: an array of one object per row, with the
//! same keys in the same order, integers and floats as JSON numbers written
//! with the same text as the CSV, text as strings, an undefined rate as
//! `null`. [`SweepTable::columns`] gives the same columns as arrays, the
//! floats unrounded (`NaN` when undefined).
//!
//! # Example
//!
//! ```
//! use skirmish_core::dice::SeededRolls;
//! use skirmish_sim::report::{BattleSummary, Outcome};
//! use skirmish_sim::scenario::Scenario;
//! use skirmish_sim::sweep::{Axis, SweepOptions, SweepSpec, run_sweep};
//!
//! let scenario: Scenario = toml::from_str(
//!     r#"
//!     name = "duel"
//!     [[sides]]
//!     name = "Red"
//!     groups = [{ name = "red", strike_rating = 5 }]
//!     [[sides]]
//!     name = "Blue"
//!     groups = [{ name = "blue" }]
//!     "#,
//! )?;
//! let spec = SweepSpec {
//!     scenario,
//!     axes: vec![Axis::new("red_sr", ["4", "6"])],
//!     battles: 100,
//!     seed: 7,
//! };
//! // A stand-in editor: the real one sets any field by its dotted path.
//! let editor = |s: &Scenario, path: &str, value: &str| -> Result<Scenario, String> {
//!     let mut s = s.clone();
//!     match path {
//!         "red_sr" => s.sides[0].groups[0].strike_rating = value.parse().map_err(|_| "not a number")?,
//!         _ => return Err(format!("unknown field {path}")),
//!     }
//!     Ok(s)
//! };
//! // A stand-in battle: Red wins when SR + 4dF beats 5.
//! let battle = |s: &Scenario, seed: u64, index: u64| -> Result<BattleSummary, String> {
//!     let mut dice = SeededRolls::for_stream(seed, index);
//!     let red_wins = s.sides[0].groups[0].strike_rating + dice.four_df() > 5;
//!     Ok(BattleSummary {
//!         outcome: Outcome::Win { side: if red_wins { 0 } else { 1 } },
//!         ticks: 3,
//!         rounds: 1,
//!         actions: 1,
//!         hits: 1,
//!         amazing_strikes: 0,
//!         amazing_defenses: 0,
//!         disruptions: 0,
//!     })
//! };
//! let table = run_sweep(&spec, editor, battle, &SweepOptions::default())?;
//! assert_eq!(table.cells().len(), 2);
//! assert!(table.to_csv().starts_with("red_sr,battles,win_rate_red,win_rate_red_low,"));
//! println!("{}", table.summary_text());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::collections::{BTreeMap, HashMap, HashSet};
use std::error::Error as StdError;
use std::fmt::{self, Write as _};
use std::fs::{self, File, OpenOptions};
use std::io::{self, Write as _};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use rayon::prelude::*;

use crate::report::{BattleSummary, Outcome};
use crate::scenario::Scenario;
use crate::stats;

/// The most battles a cell may ask for.
pub const MAX_BATTLES: u64 = 1_000_000_000;

/// The most worker threads a sweep may ask for: far beyond any machine's
/// cores, and few enough that starting them is quick.
pub const MAX_THREADS: usize = 1024;

/// Digits after the decimal point of every float in the CSV and JSON.
pub const FLOAT_DECIMALS: usize = 6;

/// How often, at most, progress is reported while a cell runs (each
/// finished cell is always reported).
const PROGRESS_INTERVAL: Duration = Duration::from_millis(100);

/// An error from an editor or a battle closure.
pub type BoxError = Box<dyn StdError + Send + Sync + 'static>;

/// A progress callback (may be called from the sweep's worker threads).
pub type ProgressFn = Arc<dyn Fn(Progress) + Send + Sync>;

/// One varied field: its path in the scenario and the values it takes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Axis {
    /// The field's dotted path (`sides.0.groups.0.strike_rating`, `timing`);
    /// also the name of its column.
    pub path: String,
    /// The values, as text the editor parses (at least one, no repeats).
    pub values: Vec<String>,
}

impl Axis {
    /// An axis from a path and values.
    pub fn new(path: impl Into<String>, values: impl IntoIterator<Item = impl Into<String>>) -> Axis {
        Axis {
            path: path.into(),
            values: values.into_iter().map(Into::into).collect(),
        }
    }
}

/// What to sweep.
#[derive(Debug, Clone, PartialEq)]
pub struct SweepSpec {
    /// The base scenario every cell starts from.
    pub scenario: Scenario,
    /// The varied fields; the grid is their cartesian product, first axis
    /// slowest.
    pub axes: Vec<Axis>,
    /// Battles per cell (1 to [`MAX_BATTLES`]).
    pub battles: u64,
    /// The master seed: battle `i` of every cell gets `(seed, i)`.
    pub seed: u64,
}

/// How far a sweep has come.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    /// Cells finished (including cells reused from a checkpoint).
    pub cells_done: u64,
    /// Cells in the grid.
    pub cells_total: u64,
    /// Battles finished (a reused cell counts all its battles).
    pub battles_done: u64,
    /// Battles in the whole sweep.
    pub battles_total: u64,
}

/// How to run a sweep.
#[derive(Clone, Default)]
pub struct SweepOptions {
    /// Worker threads of the sweep's own pool, at most [`MAX_THREADS`];
    /// `None` or `Some(0)`: rayon's default (one per core).
    pub threads: Option<usize>,
    /// Called after every finished cell (its row already checkpointed) and,
    /// within a cell, at most every 100 ms; it may be called from any of the
    /// sweep's worker threads.
    pub progress: Option<ProgressFn>,
    /// Checked between battles: once set, the sweep stops and returns
    /// [`SweepError::Cancelled`]; the cells already finished are in the
    /// checkpoint.
    pub cancel: Option<Arc<AtomicBool>>,
    /// A CSV file that receives each finished cell, then the final table.
    pub checkpoint: Option<PathBuf>,
    /// Reuse the finished cells of an existing checkpoint (a missing file
    /// means none are finished); needs [`checkpoint`](Self::checkpoint).
    pub resume: bool,
}

impl fmt::Debug for SweepOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SweepOptions")
            .field("threads", &self.threads)
            .field("progress", &self.progress.as_ref().map(|_| "callback"))
            .field("cancel", &self.cancel)
            .field("checkpoint", &self.checkpoint)
            .field("resume", &self.resume)
            .finish()
    }
}

/// Why a sweep did not produce its table.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SweepError {
    /// The spec or the options are not a sweep that can run.
    #[error("invalid sweep: {0}")]
    Invalid(String),
    /// The editor refused a value: no battle was run.
    #[error("cell {cell} ({}): cannot set {path} = {value:?}: {source}", describe_values(.values))]
    Edit {
        /// The cell's index in grid order.
        cell: usize,
        /// The cell's `(path, value)` pairs.
        values: Vec<(String, String)>,
        /// The path being set.
        path: String,
        /// The value being set.
        value: String,
        /// The editor's error.
        #[source]
        source: BoxError,
    },
    /// A battle failed (the lowest failing battle index of the cell).
    #[error("cell {cell} ({}), battle {index}: {source}", describe_values(.values))]
    Battle {
        /// The cell's index in grid order.
        cell: usize,
        /// The cell's `(path, value)` pairs.
        values: Vec<(String, String)>,
        /// The battle index.
        index: u64,
        /// The battle's error.
        #[source]
        source: BoxError,
    },
    /// A cell's total does not fit in 64 bits.
    #[error("cell {cell}: {column} overflows 64 bits")]
    Overflow {
        /// The cell's index in grid order.
        cell: usize,
        /// The column.
        column: String,
    },
    /// The cancellation flag was set; finished cells are in the checkpoint.
    #[error("sweep cancelled after {cells_done} of {cells_total} cells")]
    Cancelled {
        /// Cells finished (and checkpointed, if there is a checkpoint).
        cells_done: u64,
        /// Cells in the grid.
        cells_total: u64,
    },
    /// The checkpoint's header is not this sweep's.
    #[error(
        "{}: checkpoint header does not match this sweep (different axes, sides or version)\n  expected: {expected}\n  found:    {found}",
        .path.display()
    )]
    HeaderMismatch {
        /// The checkpoint file.
        path: PathBuf,
        /// This sweep's header line.
        expected: String,
        /// The file's first line.
        found: String,
    },
    /// A checkpoint row cannot be reused.
    #[error("{}, line {line}: {message}", .path.display())]
    Checkpoint {
        /// The checkpoint file.
        path: PathBuf,
        /// The 1-based line number.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// Reading or writing the checkpoint failed.
    #[error("{}: {source}", .path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        #[source]
        source: io::Error,
    },
    /// The thread pool could not be built.
    #[error("cannot start the sweep's threads: {0}")]
    ThreadPool(String),
}

fn describe_values(values: &[(String, String)]) -> String {
    if values.is_empty() {
        return "base scenario".to_owned();
    }
    values
        .iter()
        .map(|(path, value)| format!("{path}={value}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The exact results of one cell: counts and sums, from which every
/// statistic of its row is computed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CellStats {
    /// Battles fought.
    pub battles: u64,
    /// Battles won, per side (scenario order).
    pub wins: Vec<u64>,
    /// Draws.
    pub draws: u64,
    /// Timeouts.
    pub timeouts: u64,
    /// Sum of the battles' durations in ticks.
    pub total_ticks: u64,
    /// Median duration in ticks (nearest rank).
    pub median_ticks: u64,
    /// 90th percentile of the duration in ticks (nearest rank).
    pub p90_ticks: u64,
    /// Sum of rounds begun.
    pub total_rounds: u64,
    /// Sum of actions.
    pub total_actions: u64,
    /// Sum of hits.
    pub total_hits: u64,
    /// Sum of amazing strikes.
    pub total_amazing_strikes: u64,
    /// Sum of amazing defenses.
    pub total_amazing_defenses: u64,
    /// Sum of disruptions.
    pub total_disruptions: u64,
}

impl CellStats {
    /// The share of battles side `side` won (0 for an unknown side).
    pub fn win_rate(&self, side: usize) -> f64 {
        ratio(self.wins.get(side).copied().unwrap_or(0), self.battles).unwrap_or(0.0)
    }

    /// The Wilson 95% interval of side `side`'s win rate.
    pub fn win_interval(&self, side: usize) -> (f64, f64) {
        stats::wilson(self.wins.get(side).copied().unwrap_or(0), self.battles)
    }

    /// Mean duration in ticks.
    pub fn mean_ticks(&self) -> f64 {
        ratio(self.total_ticks, self.battles).unwrap_or(0.0)
    }
}

/// One row of the table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cell {
    /// The varied fields' values, in axis order.
    pub values: Vec<String>,
    /// Its results.
    pub stats: CellStats,
}

/// A column of the table as one array, for the Python layer.
#[derive(Debug, Clone, PartialEq)]
pub enum Column {
    /// Text (the varied values).
    Str(Vec<String>),
    /// Integers (counts, sums, percentiles, the seed).
    U64(Vec<u64>),
    /// Floats (rates, means), unrounded; `NaN` when undefined.
    F64(Vec<f64>),
}

impl Column {
    /// Its number of rows.
    pub fn len(&self) -> usize {
        match self {
            Column::Str(v) => v.len(),
            Column::U64(v) => v.len(),
            Column::F64(v) => v.len(),
        }
    }

    /// Whether it has no rows.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The result of a sweep: one [`Cell`] per grid cell, in grid order.
#[derive(Debug, Clone, PartialEq)]
pub struct SweepTable {
    layout: Layout,
    seed: u64,
    scenario: String,
    battles: u64,
    cells: Vec<Cell>,
}

impl SweepTable {
    /// The varied fields' paths, in axis order.
    pub fn axes(&self) -> &[String] {
        &self.layout.axes
    }

    /// The side names, in scenario order.
    pub fn sides(&self) -> &[String] {
        &self.layout.sides
    }

    /// The master seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The base scenario's [fingerprint](Scenario::fingerprint).
    pub fn scenario_fingerprint(&self) -> &str {
        &self.scenario
    }

    fn meta(&self) -> Meta<'_> {
        Meta {
            seed: self.seed,
            scenario: &self.scenario,
        }
    }

    /// Battles per cell.
    pub fn battles(&self) -> u64 {
        self.battles
    }

    /// The cells, in grid order.
    pub fn cells(&self) -> &[Cell] {
        &self.cells
    }

    /// The column names, in schema order.
    pub fn header(&self) -> Vec<String> {
        self.layout.columns.iter().map(|(name, _)| name.clone()).collect()
    }

    /// The table as CSV (see the module docs for the schema).
    pub fn to_csv(&self) -> String {
        let mut out = self.layout.header_line();
        out.push('\n');
        for cell in &self.cells {
            out.push_str(&self.layout.row_line(cell, self.meta()));
            out.push('\n');
        }
        out
    }

    /// The table as JSON: an array of one object per row, keys in schema
    /// order, numbers written as in the CSV.
    pub fn to_json(&self) -> String {
        let mut out = String::from("[");
        for (i, cell) in self.cells.iter().enumerate() {
            out.push_str(if i == 0 { "\n  {" } else { ",\n  {" });
            for (j, (name, kind)) in self.layout.columns.iter().enumerate() {
                if j > 0 {
                    out.push_str(", ");
                }
                json_string(&mut out, name);
                out.push_str(": ");
                match kind.value(cell, self.meta()) {
                    Value::Str(s) => json_string(&mut out, s),
                    Value::U64(x) => push_display(&mut out, x),
                    Value::F64(Some(x)) => push_float(&mut out, x),
                    Value::F64(None) => out.push_str("null"),
                }
            }
            out.push('}');
        }
        out.push_str("\n]\n");
        out
    }

    /// The columns as arrays, in schema order, one entry per cell.
    pub fn columns(&self) -> Vec<(String, Column)> {
        self.layout
            .columns
            .iter()
            .map(|(name, kind)| {
                let values = self.cells.iter().map(|cell| kind.value(cell, self.meta()));
                let column = match kind.value_type() {
                    ValueType::Str => Column::Str(
                        values
                            .map(|v| match v {
                                Value::Str(s) => s.to_owned(),
                                _ => String::new(),
                            })
                            .collect(),
                    ),
                    ValueType::U64 => Column::U64(
                        values
                            .map(|v| match v {
                                Value::U64(x) => x,
                                _ => 0,
                            })
                            .collect(),
                    ),
                    ValueType::F64 => Column::F64(
                        values
                            .map(|v| match v {
                                Value::F64(x) => x.unwrap_or(f64::NAN),
                                _ => f64::NAN,
                            })
                            .collect(),
                    ),
                };
                (name.clone(), column)
            })
            .collect()
    }

    /// A table for the terminal: the varied values, battles, each side's
    /// win rate in percent with its 95% interval, draws, timeouts and the
    /// mean duration in ticks, in aligned columns.
    pub fn summary_text(&self) -> String {
        let mut head: Vec<String> = self.layout.axes.clone();
        head.push("battles".to_owned());
        for side in &self.layout.sides {
            head.push(format!("win {side} (95%)"));
        }
        head.extend(["draw", "timeout", "mean ticks"].map(str::to_owned));
        let left = self.layout.axes.len();
        let mut rows = vec![head];
        for cell in &self.cells {
            let s = &cell.stats;
            let mut row = cell.values.clone();
            row.push(s.battles.to_string());
            for side in 0..self.layout.sides.len() {
                let (low, high) = s.win_interval(side);
                row.push(format!(
                    "{:.1}% [{:.1}, {:.1}]",
                    100.0 * s.win_rate(side),
                    100.0 * low,
                    100.0 * high
                ));
            }
            row.push(percent(s.draws, s.battles));
            row.push(percent(s.timeouts, s.battles));
            row.push(format!("{:.1}", s.mean_ticks()));
            rows.push(row);
        }
        let widths: Vec<usize> = (0..rows[0].len())
            .map(|j| rows.iter().map(|r| r[j].chars().count()).max().unwrap_or(0))
            .collect();
        let mut out = String::new();
        for row in &rows {
            let mut line = String::new();
            for (j, text) in row.iter().enumerate() {
                if j > 0 {
                    line.push_str("  ");
                }
                let pad = widths[j] - text.chars().count();
                if j < left {
                    line.push_str(text);
                    line.extend(std::iter::repeat_n(' ', pad));
                } else {
                    line.extend(std::iter::repeat_n(' ', pad));
                    line.push_str(text);
                }
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
        out
    }
}

fn percent(count: u64, n: u64) -> String {
    format!("{:.1}%", 100.0 * ratio(count, n).unwrap_or(0.0))
}

fn ratio(numerator: u64, denominator: u64) -> Option<f64> {
    (denominator > 0).then(|| numerator as f64 / denominator as f64)
}

fn push_display(out: &mut String, x: impl fmt::Display) {
    // Writing to a String cannot fail.
    let _ = write!(out, "{x}");
}

fn push_float(out: &mut String, x: f64) {
    let _ = write!(out, "{x:.prec$}", prec = FLOAT_DECIMALS);
}

fn json_string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if u32::from(c) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

fn csv_field(out: &mut String, s: &str) {
    if s.contains([',', '"', '\n', '\r']) {
        out.push('"');
        out.push_str(&s.replace('"', "\"\""));
        out.push('"');
    } else {
        out.push_str(s);
    }
}

/// Splits one CSV line (no line break inside) into its fields.
fn parse_csv_line(line: &str) -> Result<Vec<String>, String> {
    let mut fields = Vec::new();
    let mut chars = line.chars().peekable();
    loop {
        let mut field = String::new();
        if chars.peek() == Some(&'"') {
            chars.next();
            loop {
                match chars.next() {
                    Some('"') if chars.peek() == Some(&'"') => {
                        chars.next();
                        field.push('"');
                    }
                    Some('"') => break,
                    Some(c) => field.push(c),
                    None => return Err("unterminated quoted field".to_owned()),
                }
            }
            match chars.next() {
                None => {
                    fields.push(field);
                    return Ok(fields);
                }
                Some(',') => fields.push(field),
                Some(c) => return Err(format!("unexpected {c:?} after a quoted field")),
            }
        } else {
            loop {
                match chars.next() {
                    None => {
                        fields.push(field);
                        return Ok(fields);
                    }
                    Some(',') => break,
                    Some('"') => return Err("a quote inside an unquoted field".to_owned()),
                    Some(c) => field.push(c),
                }
            }
            fields.push(field);
        }
    }
}

/// A value of one cell in one column.
enum Value<'a> {
    Str(&'a str),
    U64(u64),
    F64(Option<f64>),
}

enum ValueType {
    Str,
    U64,
    F64,
}

/// Which of a rate's three columns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Bound {
    Rate,
    Low,
    High,
}

/// What a column holds: the single source of the schema's order, names,
/// types and values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Axis(usize),
    Battles,
    WinRate(usize, Bound),
    DrawRate(Bound),
    TimeoutRate(Bound),
    MeanTicks,
    MedianTicks,
    P90Ticks,
    MeanRounds,
    MeanActions,
    HitRate,
    AmazingStrikeRate,
    AmazingDefenseRate,
    MeanDisruptions,
    Wins(usize),
    Draws,
    Timeouts,
    TotalTicks,
    TotalRounds,
    TotalActions,
    TotalHits,
    TotalAmazingStrikes,
    TotalAmazingDefenses,
    TotalDisruptions,
    Seed,
    Scenario,
}

/// What every row of a table shares: the master seed and the base
/// scenario's [fingerprint](Scenario::fingerprint).
#[derive(Debug, Clone, Copy)]
struct Meta<'a> {
    seed: u64,
    scenario: &'a str,
}

fn rate_value(count: u64, n: u64, bound: Bound) -> Value<'static> {
    let (low, high) = stats::wilson(count, n);
    Value::F64(match bound {
        Bound::Rate => ratio(count, n),
        Bound::Low => Some(low),
        Bound::High => Some(high),
    })
}

impl Kind {
    fn value_type(self) -> ValueType {
        match self {
            Kind::Axis(_) | Kind::Scenario => ValueType::Str,
            Kind::WinRate(..)
            | Kind::DrawRate(_)
            | Kind::TimeoutRate(_)
            | Kind::MeanTicks
            | Kind::MeanRounds
            | Kind::MeanActions
            | Kind::HitRate
            | Kind::AmazingStrikeRate
            | Kind::AmazingDefenseRate
            | Kind::MeanDisruptions => ValueType::F64,
            _ => ValueType::U64,
        }
    }

    fn value<'a>(self, cell: &'a Cell, meta: Meta<'a>) -> Value<'a> {
        let s = &cell.stats;
        let n = s.battles;
        match self {
            Kind::Axis(i) => Value::Str(cell.values.get(i).map_or("", String::as_str)),
            Kind::Battles => Value::U64(n),
            Kind::WinRate(side, bound) => rate_value(s.wins.get(side).copied().unwrap_or(0), n, bound),
            Kind::DrawRate(bound) => rate_value(s.draws, n, bound),
            Kind::TimeoutRate(bound) => rate_value(s.timeouts, n, bound),
            Kind::MeanTicks => Value::F64(ratio(s.total_ticks, n)),
            Kind::MedianTicks => Value::U64(s.median_ticks),
            Kind::P90Ticks => Value::U64(s.p90_ticks),
            Kind::MeanRounds => Value::F64(ratio(s.total_rounds, n)),
            Kind::MeanActions => Value::F64(ratio(s.total_actions, n)),
            Kind::HitRate => Value::F64(ratio(s.total_hits, s.total_actions)),
            Kind::AmazingStrikeRate => Value::F64(ratio(s.total_amazing_strikes, s.total_actions)),
            Kind::AmazingDefenseRate => Value::F64(ratio(s.total_amazing_defenses, s.total_actions)),
            Kind::MeanDisruptions => Value::F64(ratio(s.total_disruptions, n)),
            Kind::Wins(side) => Value::U64(s.wins.get(side).copied().unwrap_or(0)),
            Kind::Draws => Value::U64(s.draws),
            Kind::Timeouts => Value::U64(s.timeouts),
            Kind::TotalTicks => Value::U64(s.total_ticks),
            Kind::TotalRounds => Value::U64(s.total_rounds),
            Kind::TotalActions => Value::U64(s.total_actions),
            Kind::TotalHits => Value::U64(s.total_hits),
            Kind::TotalAmazingStrikes => Value::U64(s.total_amazing_strikes),
            Kind::TotalAmazingDefenses => Value::U64(s.total_amazing_defenses),
            Kind::TotalDisruptions => Value::U64(s.total_disruptions),
            Kind::Seed => Value::U64(meta.seed),
            Kind::Scenario => Value::Str(meta.scenario),
        }
    }
}

/// A side's name as it appears in column names.
fn column_name_of_side(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect()
}

/// The columns of a sweep: names and kinds in schema order.
#[derive(Debug, Clone, PartialEq)]
struct Layout {
    axes: Vec<String>,
    sides: Vec<String>,
    columns: Vec<(String, Kind)>,
}

impl Layout {
    fn new(axes: Vec<String>, sides: Vec<String>) -> Result<Layout, SweepError> {
        let side_cols: Vec<String> = sides.iter().map(|s| column_name_of_side(s)).collect();
        let mut columns: Vec<(String, Kind)> = Vec::new();
        for (i, path) in axes.iter().enumerate() {
            columns.push((path.clone(), Kind::Axis(i)));
        }
        columns.push(("battles".to_owned(), Kind::Battles));
        let bounds = [(Bound::Rate, ""), (Bound::Low, "_low"), (Bound::High, "_high")];
        for (side, col) in side_cols.iter().enumerate() {
            for (bound, suffix) in bounds {
                columns.push((format!("win_rate_{col}{suffix}"), Kind::WinRate(side, bound)));
            }
        }
        for (bound, suffix) in bounds {
            columns.push((format!("draw_rate{suffix}"), Kind::DrawRate(bound)));
        }
        for (bound, suffix) in bounds {
            columns.push((format!("timeout_rate{suffix}"), Kind::TimeoutRate(bound)));
        }
        let named = |name: &str, kind| (name.to_owned(), kind);
        columns.extend([
            named("mean_ticks", Kind::MeanTicks),
            named("median_ticks", Kind::MedianTicks),
            named("p90_ticks", Kind::P90Ticks),
            named("mean_rounds", Kind::MeanRounds),
            named("mean_actions", Kind::MeanActions),
            named("hit_rate", Kind::HitRate),
            named("amazing_strike_rate", Kind::AmazingStrikeRate),
            named("amazing_defense_rate", Kind::AmazingDefenseRate),
            named("mean_disruptions", Kind::MeanDisruptions),
        ]);
        for (side, col) in side_cols.iter().enumerate() {
            columns.push((format!("wins_{col}"), Kind::Wins(side)));
        }
        columns.extend([
            named("draws", Kind::Draws),
            named("timeouts", Kind::Timeouts),
            named("total_ticks", Kind::TotalTicks),
            named("total_rounds", Kind::TotalRounds),
            named("total_actions", Kind::TotalActions),
            named("total_hits", Kind::TotalHits),
            named("total_amazing_strikes", Kind::TotalAmazingStrikes),
            named("total_amazing_defenses", Kind::TotalAmazingDefenses),
            named("total_disruptions", Kind::TotalDisruptions),
            named("seed", Kind::Seed),
            named("scenario_fingerprint", Kind::Scenario),
        ]);
        let mut seen = HashSet::new();
        for (name, _) in &columns {
            if !seen.insert(name.as_str()) {
                return Err(SweepError::Invalid(format!(
                    "column {name:?} appears twice: an axis path may not be a statistics column's name, and side \
                     names must stay distinct in lowercase with non-alphanumerics as `_` (sides: {sides:?})"
                )));
            }
        }
        Ok(Layout { axes, sides, columns })
    }

    fn header_line(&self) -> String {
        let mut out = String::new();
        for (j, (name, _)) in self.columns.iter().enumerate() {
            if j > 0 {
                out.push(',');
            }
            csv_field(&mut out, name);
        }
        out
    }

    fn row_line(&self, cell: &Cell, meta: Meta<'_>) -> String {
        let mut out = String::new();
        for (j, (_, kind)) in self.columns.iter().enumerate() {
            if j > 0 {
                out.push(',');
            }
            match kind.value(cell, meta) {
                Value::Str(s) => csv_field(&mut out, s),
                Value::U64(x) => push_display(&mut out, x),
                Value::F64(Some(x)) => push_float(&mut out, x),
                Value::F64(None) => {}
            }
        }
        out
    }

    /// Rebuilds a cell from one of its CSV rows (fields already split),
    /// with the row's seed and scenario fingerprint.
    fn parse_row(&self, fields: &[String], sides: usize) -> Result<(Vec<String>, CellStats, u64, String), String> {
        if fields.len() != self.columns.len() {
            return Err(format!(
                "{} fields, the header has {}",
                fields.len(),
                self.columns.len()
            ));
        }
        let mut values = vec![String::new(); self.axes.len()];
        let mut stats = CellStats {
            battles: 0,
            wins: vec![0; sides],
            draws: 0,
            timeouts: 0,
            total_ticks: 0,
            median_ticks: 0,
            p90_ticks: 0,
            total_rounds: 0,
            total_actions: 0,
            total_hits: 0,
            total_amazing_strikes: 0,
            total_amazing_defenses: 0,
            total_disruptions: 0,
        };
        let mut seed = 0;
        let mut scenario = String::new();
        for ((name, kind), text) in self.columns.iter().zip(fields) {
            match kind {
                Kind::Axis(i) => {
                    values[*i] = text.clone();
                    continue;
                }
                Kind::Scenario => {
                    scenario = text.clone();
                    continue;
                }
                _ => {}
            }
            if !matches!(kind.value_type(), ValueType::U64) {
                continue;
            }
            let x: u64 = text
                .parse()
                .map_err(|_| format!("{name}: {text:?} is not a whole number"))?;
            let slot = match kind {
                Kind::Battles => &mut stats.battles,
                Kind::MedianTicks => &mut stats.median_ticks,
                Kind::P90Ticks => &mut stats.p90_ticks,
                Kind::Wins(side) => &mut stats.wins[*side],
                Kind::Draws => &mut stats.draws,
                Kind::Timeouts => &mut stats.timeouts,
                Kind::TotalTicks => &mut stats.total_ticks,
                Kind::TotalRounds => &mut stats.total_rounds,
                Kind::TotalActions => &mut stats.total_actions,
                Kind::TotalHits => &mut stats.total_hits,
                Kind::TotalAmazingStrikes => &mut stats.total_amazing_strikes,
                Kind::TotalAmazingDefenses => &mut stats.total_amazing_defenses,
                Kind::TotalDisruptions => &mut stats.total_disruptions,
                Kind::Seed => &mut seed,
                _ => continue,
            };
            *slot = x;
        }
        let outcomes = stats
            .wins
            .iter()
            .try_fold(u128::from(stats.draws) + u128::from(stats.timeouts), |acc, &w| {
                Some(acc + u128::from(w))
            })
            .unwrap_or(0);
        if outcomes != u128::from(stats.battles) {
            return Err(format!(
                "wins, draws and timeouts add up to {outcomes}, not the {} battles",
                stats.battles
            ));
        }
        Ok((values, stats, seed, scenario))
    }
}

/// Running totals of some battles: integer sums and a histogram of
/// durations, so merging in any order gives the same result.
#[derive(Debug, Clone, Default)]
struct Tally {
    battles: u64,
    wins: Vec<u64>,
    draws: u64,
    timeouts: u64,
    ticks: u128,
    rounds: u128,
    actions: u128,
    hits: u128,
    amazing_strikes: u128,
    amazing_defenses: u128,
    disruptions: u128,
    durations: Durations,
}

/// A histogram of battle durations in ticks: a count per tick below
/// [`Durations::DENSE`] in an array (adding and merging are a few
/// instructions), the rare longer battles in a map.
#[derive(Debug, Clone, Default)]
struct Durations {
    dense: Vec<u64>,
    sparse: BTreeMap<u64, u64>,
}

impl Durations {
    const DENSE: u64 = 4096;

    #[inline]
    fn add(&mut self, ticks: u64, count: u64) {
        if ticks < Self::DENSE {
            let i = ticks as usize;
            if i >= self.dense.len() {
                self.dense.resize(i + 1, 0);
            }
            self.dense[i] += count;
        } else {
            *self.sparse.entry(ticks).or_insert(0) += count;
        }
    }

    fn merge(&mut self, other: Durations) {
        if other.dense.len() > self.dense.len() {
            self.dense.resize(other.dense.len(), 0);
        }
        for (mine, theirs) in self.dense.iter_mut().zip(other.dense) {
            *mine += theirs;
        }
        for (ticks, count) in other.sparse {
            *self.sparse.entry(ticks).or_insert(0) += count;
        }
    }

    /// `(ticks, battles)` in increasing ticks, without empty entries.
    fn counts(&self) -> impl Iterator<Item = (u64, u64)> + Clone + '_ {
        self.dense
            .iter()
            .enumerate()
            .filter(|&(_, &c)| c > 0)
            .map(|(t, &c)| (t as u64, c))
            .chain(self.sparse.iter().map(|(&t, &c)| (t, c)))
    }
}

impl Tally {
    fn new(sides: usize) -> Tally {
        Tally {
            wins: vec![0; sides],
            ..Tally::default()
        }
    }

    fn add(&mut self, s: &BattleSummary) {
        self.battles += 1;
        match s.outcome {
            Outcome::Win { side } => {
                if let Some(w) = self.wins.get_mut(side) {
                    *w += 1;
                }
            }
            Outcome::Draw => self.draws += 1,
            Outcome::Timeout => self.timeouts += 1,
        }
        self.ticks += u128::from(s.ticks);
        self.rounds += u128::from(s.rounds);
        self.actions += u128::from(s.actions);
        self.hits += u128::from(s.hits);
        self.amazing_strikes += u128::from(s.amazing_strikes);
        self.amazing_defenses += u128::from(s.amazing_defenses);
        self.disruptions += u128::from(s.disruptions);
        self.durations.add(s.ticks, 1);
    }

    fn merge(&mut self, other: Tally) {
        self.battles += other.battles;
        for (w, o) in self.wins.iter_mut().zip(other.wins) {
            *w += o;
        }
        self.draws += other.draws;
        self.timeouts += other.timeouts;
        self.ticks += other.ticks;
        self.rounds += other.rounds;
        self.actions += other.actions;
        self.hits += other.hits;
        self.amazing_strikes += other.amazing_strikes;
        self.amazing_defenses += other.amazing_defenses;
        self.disruptions += other.disruptions;
        self.durations.merge(other.durations);
    }

    fn finish(self, cell: usize) -> Result<CellStats, SweepError> {
        let fit = |x: u128, column: &str| {
            u64::try_from(x).map_err(|_| SweepError::Overflow {
                cell,
                column: column.to_owned(),
            })
        };
        Ok(CellStats {
            battles: self.battles,
            median_ticks: stats::percentile_of_counts(self.durations.counts(), 50).unwrap_or(0),
            p90_ticks: stats::percentile_of_counts(self.durations.counts(), 90).unwrap_or(0),
            wins: self.wins,
            draws: self.draws,
            timeouts: self.timeouts,
            total_ticks: fit(self.ticks, "total_ticks")?,
            total_rounds: fit(self.rounds, "total_rounds")?,
            total_actions: fit(self.actions, "total_actions")?,
            total_hits: fit(self.hits, "total_hits")?,
            total_amazing_strikes: fit(self.amazing_strikes, "total_amazing_strikes")?,
            total_amazing_defenses: fit(self.amazing_defenses, "total_amazing_defenses")?,
            total_disruptions: fit(self.disruptions, "total_disruptions")?,
        })
    }
}

impl SweepSpec {
    /// Checks the spec (battles within 1..=[`MAX_BATTLES`], every axis a
    /// non-empty path with at least one value and no repeated value, no
    /// repeated path, no line break in a path or value, the whole sweep
    /// countable in 64 bits) and returns the number of cells.
    pub fn validate(&self) -> Result<u64, SweepError> {
        let invalid = |m: String| Err(SweepError::Invalid(m));
        if self.battles == 0 || self.battles > MAX_BATTLES {
            return invalid(format!(
                "battles per cell must be between 1 and {MAX_BATTLES}, not {}",
                self.battles
            ));
        }
        let mut paths = HashSet::new();
        let mut cells: u64 = 1;
        for axis in &self.axes {
            if axis.path.is_empty() {
                return invalid("an axis has an empty path".to_owned());
            }
            if axis.path.contains(['\n', '\r']) {
                return invalid(format!("axis path {:?} contains a line break", axis.path));
            }
            if !paths.insert(axis.path.as_str()) {
                return invalid(format!("axis {:?} is given twice", axis.path));
            }
            if axis.values.is_empty() {
                return invalid(format!("axis {:?} has no values", axis.path));
            }
            let mut seen = HashSet::new();
            for value in &axis.values {
                if value.contains(['\n', '\r']) {
                    return invalid(format!("axis {:?}: value {value:?} contains a line break", axis.path));
                }
                if !seen.insert(value.as_str()) {
                    return invalid(format!("axis {:?}: value {value:?} is given twice", axis.path));
                }
            }
            cells = match cells.checked_mul(axis.values.len() as u64) {
                Some(c) => c,
                None => return invalid("the grid has more cells than fit in 64 bits".to_owned()),
            };
        }
        if cells.checked_mul(self.battles).is_none() || usize::try_from(cells).is_err() {
            return invalid(format!(
                "{cells} cells x {} battles is more battles than fit in 64 bits",
                self.battles
            ));
        }
        Ok(cells)
    }

    /// The varied values of cell `index`, one per axis (grid order: first
    /// axis slowest, as the table's rows).
    pub fn cell_values(&self, mut index: usize) -> Vec<String> {
        let mut values = vec![String::new(); self.axes.len()];
        for (slot, axis) in values.iter_mut().zip(&self.axes).rev() {
            let n = axis.values.len();
            *slot = axis.values[index % n].clone();
            index /= n;
        }
        values
    }

    fn pairs(&self, values: &[String]) -> Vec<(String, String)> {
        self.axes
            .iter()
            .map(|a| a.path.clone())
            .zip(values.iter().cloned())
            .collect()
    }
}

/// Runs a sweep: builds every cell's scenario with `editor` (any refusal is
/// reported before a battle runs), then fights battle `i` of every cell as
/// `battle(&cell_scenario, spec.seed, i)` for `i` in `0..spec.battles`, in
/// parallel, and reduces each cell to its row. See the module docs for the
/// schema, checkpointing and determinism.
///
/// Every cell's scenario must keep the base scenario's side names (they
/// name the columns). A battle reporting a winner that is not a side is an
/// error. A battle closure that panics panics the sweep.
pub fn run_sweep<Ed, EdErr, B, BErr>(
    spec: &SweepSpec,
    editor: Ed,
    battle: B,
    options: &SweepOptions,
) -> Result<SweepTable, SweepError>
where
    Ed: Fn(&Scenario, &str, &str) -> Result<Scenario, EdErr>,
    EdErr: Into<BoxError>,
    B: Fn(&Scenario, u64, u64) -> Result<BattleSummary, BErr> + Sync,
    BErr: Into<BoxError>,
{
    let cells_total = spec.validate()?;
    if let Some(threads) = options.threads
        && threads > MAX_THREADS
    {
        return Err(SweepError::Invalid(format!(
            "threads: at most {MAX_THREADS}, not {threads} (0 means one per core)"
        )));
    }
    if options.resume && options.checkpoint.is_none() {
        return Err(SweepError::Invalid("resume needs a checkpoint file".to_owned()));
    }
    let side_names: Vec<String> = spec.scenario.sides.iter().map(|s| s.name.clone()).collect();
    let layout = Layout::new(spec.axes.iter().map(|a| a.path.clone()).collect(), side_names.clone())?;
    let fingerprint = spec.scenario.fingerprint();
    let meta = Meta {
        seed: spec.seed,
        scenario: &fingerprint,
    };

    // Every cell's scenario, before any battle.
    let n_cells = cells_total as usize;
    let mut grid: Vec<(Vec<String>, Scenario)> = Vec::with_capacity(n_cells);
    for cell in 0..n_cells {
        let values = spec.cell_values(cell);
        let mut scenario = spec.scenario.clone();
        for (axis, value) in spec.axes.iter().zip(&values) {
            scenario = editor(&scenario, &axis.path, value).map_err(|e| SweepError::Edit {
                cell,
                values: spec.pairs(&values),
                path: axis.path.clone(),
                value: value.clone(),
                source: e.into(),
            })?;
        }
        let names: Vec<&str> = scenario.sides.iter().map(|s| s.name.as_str()).collect();
        if names != side_names {
            return Err(SweepError::Invalid(format!(
                "cell {cell} ({}) has sides {names:?}, the base scenario {side_names:?}: \
                 a sweep may not rename, add or remove sides",
                describe_values(&spec.pairs(&values))
            )));
        }
        grid.push((values, scenario));
    }
    // Two cells fighting the same scenario are a mistake in the axes (two
    // spellings of one value, two paths to one field): the same battles
    // would run twice under different labels.
    let mut seen: HashMap<String, usize> = HashMap::with_capacity(grid.len());
    for (cell, (values, scenario)) in grid.iter().enumerate() {
        let first = *seen.entry(scenario.fingerprint()).or_insert(cell);
        if first != cell && grid[first].1 == *scenario {
            return Err(SweepError::Invalid(format!(
                "cells {first} ({}) and {cell} ({}) are the same scenario: two values of an axis mean the same \
                 (such as tick-system and tick_system), or two axes set the same field",
                describe_values(&spec.pairs(&grid[first].0)),
                describe_values(&spec.pairs(values)),
            )));
        }
    }

    let mut done: Vec<Option<CellStats>> = vec![None; n_cells];
    let mut checkpoint = match &options.checkpoint {
        Some(path) => Some(Checkpoint::open(path, &layout, spec, meta, options.resume, &mut done)?),
        None => None,
    };

    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.threads.unwrap_or(0))
        .thread_name(|i| format!("skirmish-sweep-{i}"))
        .build()
        .map_err(|e| SweepError::ThreadPool(e.to_string()))?;
    let threads = pool.current_num_threads().max(1) as u64;
    // Cells run one after the other, so a thread idles at the end of each
    // cell until the last chunk is done: small chunks keep that short.
    let chunk_len = (spec.battles / (threads * 32)).clamp(1, 1024);
    let n_chunks = spec.battles.div_ceil(chunk_len);

    let mut cells_done = done.iter().filter(|d| d.is_some()).count() as u64;
    let progress = Reporter {
        callback: options.progress.clone(),
        start: Instant::now(),
        last_ms: AtomicU64::new(0),
        cells_done: AtomicU64::new(cells_done),
        cells_total,
        battles_done: AtomicU64::new(cells_done * spec.battles),
        battles_total: cells_total * spec.battles,
    };
    let cancel = options.cancel.as_deref();
    let is_cancelled = || cancel.is_some_and(|c| c.load(Ordering::Relaxed));
    let sides = side_names.len();

    for (cell, (values, scenario)) in grid.iter().enumerate() {
        if done[cell].is_some() {
            continue;
        }
        if is_cancelled() {
            return Err(SweepError::Cancelled {
                cells_done,
                cells_total,
            });
        }
        let first_error = AtomicU64::new(u64::MAX);
        let run = |k: u64| {
            let range = k * chunk_len..((k + 1) * chunk_len).min(spec.battles);
            let out = run_chunk(range, scenario, spec.seed, sides, &battle, cancel, &first_error);
            progress.battles(out.tally.battles);
            out
        };
        // The chunks' results merge on the workers as they finish (sums and
        // a histogram: the order does not matter; the lowest failing battle
        // wins).
        let out = pool.install(|| {
            (0..n_chunks)
                .into_par_iter()
                .map(run)
                .reduce(|| ChunkOut::empty(sides), ChunkOut::merge)
        });
        if out.cancelled {
            return Err(SweepError::Cancelled {
                cells_done,
                cells_total,
            });
        }
        let tally = out.tally;
        if let Some((index, source)) = out.error {
            return Err(SweepError::Battle {
                cell,
                values: spec.pairs(values),
                index,
                source,
            });
        }
        let stats = tally.finish(cell)?;
        if let Some(cp) = checkpoint.as_mut() {
            let row = Cell {
                values: values.clone(),
                stats: stats.clone(),
            };
            cp.append(&layout.row_line(&row, meta))?;
        }
        done[cell] = Some(stats);
        cells_done += 1;
        progress.cell_done();
    }

    let cells = grid
        .into_iter()
        .zip(done)
        .map(|((values, _), stats)| {
            stats.map(|stats| Cell { values, stats }).ok_or_else(|| {
                // Every cell is finished or an error returned above.
                SweepError::Invalid("internal: a cell was left unfinished".to_owned())
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    let table = SweepTable {
        layout,
        seed: spec.seed,
        scenario: fingerprint,
        battles: spec.battles,
        cells,
    };
    if let Some(Checkpoint { path, file }) = checkpoint {
        drop(file);
        write_output(&path, table.to_csv().as_bytes())?;
    }
    Ok(table)
}

/// What one chunk of a cell's battles gave.
struct ChunkOut {
    tally: Tally,
    error: Option<(u64, BoxError)>,
    cancelled: bool,
}

impl ChunkOut {
    fn empty(sides: usize) -> ChunkOut {
        ChunkOut {
            tally: Tally::new(sides),
            error: None,
            cancelled: false,
        }
    }

    fn merge(mut self, other: ChunkOut) -> ChunkOut {
        self.tally.merge(other.tally);
        self.cancelled |= other.cancelled;
        if let Some((index, e)) = other.error
            && self.error.as_ref().is_none_or(|(i, _)| index < *i)
        {
            self.error = Some((index, e));
        }
        self
    }
}

fn run_chunk<B, BErr>(
    range: Range<u64>,
    scenario: &Scenario,
    seed: u64,
    sides: usize,
    battle: &B,
    cancel: Option<&AtomicBool>,
    first_error: &AtomicU64,
) -> ChunkOut
where
    B: Fn(&Scenario, u64, u64) -> Result<BattleSummary, BErr> + Sync,
    BErr: Into<BoxError>,
{
    let mut out = ChunkOut::empty(sides);
    for index in range {
        if cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
            out.cancelled = true;
            break;
        }
        // A lower battle already failed: the sweep reports that one.
        if index > first_error.load(Ordering::Relaxed) {
            break;
        }
        let failure: BoxError = match battle(scenario, seed, index) {
            Ok(summary) => match summary.outcome {
                Outcome::Win { side } if side >= sides => {
                    format!("the battle reports side {side} as the winner, but there are {sides} sides").into()
                }
                _ => {
                    out.tally.add(&summary);
                    continue;
                }
            },
            Err(e) => e.into(),
        };
        first_error.fetch_min(index, Ordering::Relaxed);
        out.error = Some((index, failure));
        break;
    }
    out
}

/// Progress counting and throttled reporting.
struct Reporter {
    callback: Option<ProgressFn>,
    start: Instant,
    last_ms: AtomicU64,
    cells_done: AtomicU64,
    cells_total: u64,
    battles_done: AtomicU64,
    battles_total: u64,
}

impl Reporter {
    fn snapshot(&self) -> Progress {
        Progress {
            cells_done: self.cells_done.load(Ordering::Relaxed),
            cells_total: self.cells_total,
            battles_done: self.battles_done.load(Ordering::Relaxed),
            battles_total: self.battles_total,
        }
    }

    /// Some battles finished: report if the last report is old enough.
    fn battles(&self, n: u64) {
        self.battles_done.fetch_add(n, Ordering::Relaxed);
        let Some(callback) = &self.callback else { return };
        let now = u64::try_from(self.start.elapsed().as_millis()).unwrap_or(u64::MAX);
        let last = self.last_ms.load(Ordering::Relaxed);
        if now.saturating_sub(last) >= PROGRESS_INTERVAL.as_millis() as u64
            && self
                .last_ms
                .compare_exchange(last, now, Ordering::Relaxed, Ordering::Relaxed)
                .is_ok()
        {
            callback(self.snapshot());
        }
    }

    /// A cell finished: always report.
    fn cell_done(&self) {
        self.cells_done.fetch_add(1, Ordering::Relaxed);
        if let Some(callback) = &self.callback {
            callback(self.snapshot());
        }
    }
}

/// The checkpoint file, open for appending rows.
struct Checkpoint {
    /// The path as given (errors name it).
    path: PathBuf,
    file: File,
}

impl Checkpoint {
    /// Opens (resuming: reads back, then rewrites cleanly) the checkpoint,
    /// filling `done` with the reused cells.
    fn open(
        path: &Path,
        layout: &Layout,
        spec: &SweepSpec,
        meta: Meta<'_>,
        resume: bool,
        done: &mut [Option<CellStats>],
    ) -> Result<Checkpoint, SweepError> {
        // Refuses a FIFO, device, folder or hard-linked file, and an
        // unwritable folder, before reading or writing anything.
        check_output(path)?;
        let header = layout.header_line();
        let mut text = header.clone();
        text.push('\n');
        if resume {
            let rows = read_checkpoint(path, layout, spec, meta, &header, done.len())?;
            // Canonical order, without a torn line, before appending.
            for (cell, line, stats) in rows {
                text.push_str(&line);
                text.push('\n');
                done[cell] = Some(stats);
            }
        }
        write_output(path, text.as_bytes())?;
        // The header was just written to the resolved target: append there
        // (through a symlink, to the file the link names).
        let target = resolve_output(path).map_err(io_error(path))?;
        let file = OpenOptions::new().append(true).open(&target).map_err(io_error(path))?;
        Ok(Checkpoint {
            path: path.to_owned(),
            file,
        })
    }

    fn append(&mut self, line: &str) -> Result<(), SweepError> {
        let mut bytes = Vec::with_capacity(line.len() + 1);
        bytes.extend_from_slice(line.as_bytes());
        bytes.push(b'\n');
        self.file.write_all(&bytes).map_err(io_error(&self.path))?;
        self.file.flush().map_err(io_error(&self.path))?;
        self.file.sync_data().map_err(io_error(&self.path))
    }
}

fn io_error(path: &Path) -> impl Fn(io::Error) -> SweepError + '_ {
    move |source| SweepError::Io {
        path: path.to_owned(),
        source,
    }
}

/// The reusable rows of an existing checkpoint, in cell order.
fn read_checkpoint(
    path: &Path,
    layout: &Layout,
    spec: &SweepSpec,
    meta: Meta<'_>,
    header: &str,
    cells: usize,
) -> Result<Vec<(usize, String, CellStats)>, SweepError> {
    let bytes = match fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(io_error(path)(e)),
    };
    // A file saved by an editor may start with a UTF-8 byte order mark and
    // end its lines with "\r\n": both are read as the plain text.
    let bytes = bytes.strip_prefix(UTF8_BOM).unwrap_or(&bytes);
    // Only lines ending in '\n' are whole; anything after the last one is
    // a write torn by a kill, and is recomputed.
    let whole = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let mut lines = bytes[..whole]
        .split(|&b| b == b'\n')
        .map(|line| line.strip_suffix(b"\r").unwrap_or(line));
    lines.next_back(); // the empty piece after the final '\n'
    let first = lines.next();
    match first {
        None if header.as_bytes().starts_with(bytes) => return Ok(Vec::new()),
        Some(line) if line == header.as_bytes() => {}
        _ => {
            return Err(SweepError::HeaderMismatch {
                path: path.to_owned(),
                expected: header.to_owned(),
                found: String::from_utf8_lossy(first.unwrap_or(bytes)).into_owned(),
            });
        }
    }
    let index: HashMap<Vec<String>, usize> = (0..cells).map(|c| (spec.cell_values(c), c)).collect();
    let sides = layout.sides.len();
    let mut rows: Vec<Option<(String, CellStats)>> = vec![None; index.len()];
    for (i, raw) in lines.enumerate() {
        let line_no = i + 2;
        let bad = |message: String| SweepError::Checkpoint {
            path: path.to_owned(),
            line: line_no,
            message,
        };
        let line = std::str::from_utf8(raw).map_err(|_| bad("not UTF-8 text".to_owned()))?;
        let fields = parse_csv_line(line).map_err(&bad)?;
        let (values, stats, seed, scenario) = layout.parse_row(&fields, sides).map_err(&bad)?;
        let Some(&cell) = index.get(&values) else {
            return Err(bad(format!(
                "values ({}) are not a cell of this sweep",
                describe_values(&spec.pairs(&values))
            )));
        };
        if seed != meta.seed {
            return Err(bad(format!(
                "was run with seed {seed}, this sweep has seed {}",
                meta.seed
            )));
        }
        if scenario != meta.scenario {
            return Err(bad(format!(
                "was run on another scenario (fingerprint {scenario}, this sweep's is {}): the scenario changed \
                 since; restore it, or start afresh without resuming",
                meta.scenario
            )));
        }
        if stats.battles != spec.battles {
            return Err(bad(format!(
                "was run with {} battles per cell, this sweep has {}",
                stats.battles, spec.battles
            )));
        }
        let rebuilt = layout.row_line(
            &Cell {
                values,
                stats: stats.clone(),
            },
            Meta {
                seed,
                scenario: &scenario,
            },
        );
        if rebuilt != line {
            return Err(bad(
                "the row's statistics do not follow from its counts (edited?)".to_owned()
            ));
        }
        percentiles_plausible(&stats).map_err(&bad)?;
        if rows[cell].is_some() {
            return Err(bad(format!("cell {cell} appears twice")));
        }
        rows[cell] = Some((line.to_owned(), stats));
    }
    Ok(rows
        .into_iter()
        .enumerate()
        .filter_map(|(cell, row)| row.map(|(line, stats)| (cell, line, stats)))
        .collect())
}

/// The byte order mark an editor may put before a UTF-8 file.
const UTF8_BOM: &[u8] = b"\xEF\xBB\xBF";

/// Checks what a row's median and 90th percentile can be checked against:
/// the median is at most the 90th percentile, and by nearest rank at least
/// `n - rank + 1` battles lasted as long as a percentile, so the total
/// duration is at least that many times it. The percentiles themselves
/// cannot be recomputed from a row (it keeps sums, not the durations).
fn percentiles_plausible(s: &CellStats) -> Result<(), String> {
    if s.median_ticks > s.p90_ticks {
        return Err(format!(
            "median_ticks {} is above p90_ticks {} (edited?)",
            s.median_ticks, s.p90_ticks
        ));
    }
    for (name, value, percent) in [("median_ticks", s.median_ticks, 50), ("p90_ticks", s.p90_ticks, 90)] {
        let at_least = s.battles - stats::nearest_rank(s.battles, percent) + 1;
        if u128::from(value) * u128::from(at_least) > u128::from(s.total_ticks) {
            return Err(format!(
                "{name} {value} cannot be: {at_least} of the {} battles would last that long, more than \
                 total_ticks {} (edited?)",
                s.battles, s.total_ticks
            ));
        }
    }
    Ok(())
}

/// Where writing `path` lands: symbolic links followed to the file they
/// name (which may not exist yet). The path itself when it is not a link.
pub fn resolve_output(path: &Path) -> io::Result<PathBuf> {
    let mut current = path.to_path_buf();
    for _ in 0..40 {
        match fs::symlink_metadata(&current) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let link = fs::read_link(&current)?;
                current = match current.parent() {
                    Some(dir) if link.is_relative() => dir.join(link),
                    _ => link,
                };
            }
            Ok(_) => return Ok(current),
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(current),
            Err(e) => return Err(e),
        }
    }
    Err(io::Error::other("too many levels of symbolic links"))
}

/// What a file that is not a regular file is, for an error.
fn kind_of(file_type: fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt as _;
        if file_type.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if file_type.is_socket() {
            return "a socket";
        }
        if file_type.is_block_device() || file_type.is_char_device() {
            return "a device";
        }
    }
    if file_type.is_dir() {
        "a folder"
    } else {
        "not a regular file"
    }
}

/// The resolved target of `path`, refused unless it is a regular file or
/// does not exist yet; and the temporary file beside it (same folder, so
/// the rename is atomic).
fn output_target(path: &Path) -> io::Result<(PathBuf, PathBuf)> {
    let target = resolve_output(path)?;
    match fs::metadata(&target) {
        Ok(meta) if !meta.file_type().is_file() => {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!(
                    "is {}, not a regular file: refusing to replace it",
                    kind_of(meta.file_type())
                ),
            ));
        }
        Ok(meta) => {
            #[cfg(unix)]
            {
                use std::os::unix::fs::MetadataExt as _;
                if meta.nlink() > 1 {
                    return Err(io::Error::new(
                        io::ErrorKind::InvalidInput,
                        format!(
                            "has {} hard links: replacing it would leave the other names with the old \
                             content; write to another path",
                            meta.nlink()
                        ),
                    ));
                }
            }
            let _ = meta;
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
        Err(e) => return Err(e),
    }
    let name = target
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "names no file"))?;
    let mut tmp_name = std::ffi::OsString::from(".");
    tmp_name.push(name);
    tmp_name.push(format!(".{}.tmp", std::process::id()));
    let tmp = target.with_file_name(tmp_name);
    Ok((target, tmp))
}

/// Creates the temporary file afresh (a stale one of an earlier run with
/// the same process id is removed first; never followed through a link).
fn create_temp(tmp: &Path) -> io::Result<File> {
    let create = || OpenOptions::new().write(true).create_new(true).open(tmp);
    match create() {
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
            fs::remove_file(tmp)?;
            create()
        }
        other => other,
    }
}

/// Checks, before any work, that [`write_output`] can write `path`: it is
/// (through any symlink) a regular file with one link, or nothing yet, and
/// its folder takes a new file (one is created and removed). Errors name
/// `path` as given.
pub fn check_output(path: &Path) -> Result<(), SweepError> {
    let (_, tmp) = output_target(path).map_err(io_error(path))?;
    create_temp(&tmp).map_err(io_error(path))?;
    fs::remove_file(&tmp).map_err(io_error(path))
}

/// Writes `bytes` to `path` atomically: to a temporary file beside the
/// target (a symlink is followed, so the link stays and the file it names
/// gets the content), synced, then renamed over it; the file is always
/// either the old or the new content. A replaced file keeps its permissions
/// (and, where allowed, its owner). A path that exists and is not a regular
/// file (device, FIFO, socket, folder), or a file with several hard links,
/// is refused. Errors name `path` as given.
pub fn write_output(path: &Path, bytes: &[u8]) -> Result<(), SweepError> {
    let (target, tmp) = output_target(path).map_err(io_error(path))?;
    let written = (|| -> io::Result<()> {
        let mut file = create_temp(&tmp)?;
        if let Ok(meta) = fs::metadata(&target) {
            file.set_permissions(meta.permissions())?;
            #[cfg(unix)]
            {
                use std::os::unix::fs::MetadataExt as _;
                // Only root may give a file away; others keep their own.
                let _ = std::os::unix::fs::fchown(&file, Some(meta.uid()), Some(meta.gid()));
            }
        }
        file.write_all(bytes)?;
        file.sync_all()?;
        drop(file);
        fs::rename(&tmp, &target)
    })();
    if let Err(e) = written {
        let _ = fs::remove_file(&tmp);
        return Err(io_error(path)(e));
    }
    // Best effort: make the rename itself durable.
    if let Some(dir) = target.parent().filter(|d| !d.as_os_str().is_empty())
        && let Ok(dir) = File::open(dir)
    {
        let _ = dir.sync_all();
    }
    Ok(())
}

/// What an existing output file at `path` holds that writing this sweep
/// over it would lose: `None` when it does not exist, is empty, or holds
/// only this sweep's header (a checkpoint with no finished cell); else a
/// description ("12 finished cells of this sweep", "content that is not
/// this sweep's checkpoint"). A byte order mark and CRLF line ends are read
/// as in a resume.
pub fn existing_work(path: &Path, spec: &SweepSpec) -> Result<Option<String>, SweepError> {
    // Refuses a FIFO, device or folder before reading it.
    let (target, _) = output_target(path).map_err(io_error(path))?;
    let bytes = match fs::read(target) {
        Ok(b) => b,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(io_error(path)(e)),
    };
    let bytes = bytes.strip_prefix(UTF8_BOM).unwrap_or(&bytes);
    if bytes.is_empty() {
        return Ok(None);
    }
    let sides = spec.scenario.sides.iter().map(|s| s.name.clone()).collect();
    let header = Layout::new(spec.axes.iter().map(|a| a.path.clone()).collect(), sides)?.header_line();
    let text = String::from_utf8_lossy(bytes);
    let mut lines = text.lines();
    if lines.next() != Some(header.as_str()) {
        return Ok(if header.as_bytes().starts_with(bytes) {
            None
        } else {
            Some("content that is not this sweep's checkpoint".to_owned())
        });
    }
    let rows = lines.filter(|l| !l.is_empty()).count();
    Ok((rows > 0).then(|| format!("{rows} finished cell{} of this sweep", if rows == 1 { "" } else { "s" })))
}

// ---------------------------------------------------------------------------
// Sweeping with the battle engine

thread_local! {
    /// Each worker thread keeps the last cell's prepared battle and its
    /// workspace, so a cell's battles neither re-resolve the scenario nor
    /// allocate.
    static PREPARED: std::cell::RefCell<Option<(Scenario, crate::battle::Battle, crate::battle::Workspace)>> =
        const { std::cell::RefCell::new(None) };
}

/// One battle of `scenario` with the engine, reusing this thread's
/// prepared battle when the scenario is the same as last time.
pub fn engine_battle(scenario: &Scenario, seed: u64, index: u64) -> Result<BattleSummary, crate::SimError> {
    PREPARED.with(|cell| {
        let mut slot = cell.borrow_mut();
        let fresh = !matches!(&*slot, Some((s, _, _)) if s == scenario);
        if fresh {
            let battle = crate::battle::Battle::new(scenario)?;
            *slot = Some((scenario.clone(), battle, crate::battle::Workspace::default()));
        }
        match slot.as_mut() {
            Some((_, battle, ws)) => battle.run_summary(ws, seed, index),
            None => Err(crate::SimError::Scenario("no battle prepared".into())),
        }
    })
}

/// Runs a sweep of `spec` with the battle engine: each cell's scenario is
/// the base with the axes' values set by [`Scenario::with_field`]; battle
/// `i` of every cell is battle `i` of master seed `spec.seed` (common random
/// numbers).
///
/// ```
/// use skirmish_sim::scenario::Scenario;
/// use skirmish_sim::sweep::{sweep, Axis, SweepOptions, SweepSpec};
///
/// let spec = SweepSpec {
///     scenario: Scenario::builtin("parity").unwrap(),
///     axes: vec![Axis::new("sides.A.groups.0.count", ["8", "12"])],
///     battles: 50,
///     seed: 1,
/// };
/// let table = sweep(&spec, &SweepOptions::default()).unwrap();
/// assert_eq!(table.cells().len(), 2);
/// assert!(table.to_csv().starts_with("sides.A.groups.0.count,battles,win_rate_a,"));
/// ```
pub fn sweep(spec: &SweepSpec, options: &SweepOptions) -> Result<SweepTable, SweepError> {
    run_sweep(
        spec,
        |s: &Scenario, path: &str, value: &str| s.with_field(path, value),
        engine_battle,
        options,
    )
}
