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
//! parallel (on [`SweepOptions::threads`] threads), but a cell's
//! results are integer sums and a histogram of durations, which do not
//! depend on the order battles finish in; the table, its CSV and its JSON
//! are byte-identical on any number of threads.
//!
//! The cells' battles are cut into chunks handed out in order, cell after
//! cell, to whichever worker is free: a worker does not wait at the end of
//! a cell for the others. Cells are reported (and checkpointed) in cell
//! order. With a checkpoint, no battle of a cell starts before the cell
//! before it is written, so a killed or cancelled sweep has finished (and
//! kept) exactly the cells before the one it was in, as if the cells ran
//! one after the other; without one, the workers stop wherever they
//! are, and the cells a cancelled sweep finished need not be the first
//! ones.
//!
//! # Checkpoint and resume
//!
//! With [`SweepOptions::checkpoint`], the CSV header is written first and
//! each finished cell is appended as one CSV line (flushed and synced) as soon
//! as it completes. In the checkpoint, the header and every row end with one
//! more column, `row_check`: 16 hex digits of the 64-bit FNV-1a hash of
//! `"skirmish sweep row v1\n"`, the final header line, `"\n"` and the row's
//! line without its check. With [`SweepOptions::resume`], an existing file is
//! read back: its header must be this sweep's exactly, and each row (matched
//! to its cell by its varied values, in any order) must match its row check,
//! be of this sweep's seed, scenario and battles per cell, reproduce its own
//! rates and means from its counts, have possible percentiles, and appear
//! once; any other row is refused with [`SweepError::Checkpoint`] naming its
//! line, and the file is left alone. A row relabelled to another cell, an
//! edited count, median or 90th percentile, a copied row: all are refused.
//! A torn last line (a kill mid-write) is dropped and recomputed. A file
//! whose rows carry no check (a finished output, or a checkpoint of an
//! earlier version) cannot be verified: resuming refuses it with
//! [`SweepError::Checkpoint`] before anything is written, and the user's
//! finished rows stay as they are (to fight the sweep again, run it without
//! resuming, or to another file). [`plan_resume`] tells a front end, before
//! any battle, how many rows will be reused and what is fought again
//! ([`ResumePlan::notes`]), with the same refusals. A
//! UTF-8 byte order mark and CRLF line ends (an editor's save) are accepted.
//! When every cell is done the file is rewritten atomically in cell order,
//! without the check column: the final file is byte-identical to an
//! uninterrupted run's [`SweepTable::to_csv`].
//!
//! A battle that panics does not unwind out of the sweep: the panic is
//! caught and the sweep returns [`SweepError::Panicked`] naming the cell and
//! the battle; the cells finished before it are in the checkpoint.
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
//! # Schema (a stable contract, version [`SCHEMA_VERSION`])
//!
//! Schema version [`SCHEMA_VERSION`] (2; version 1 had no morale columns).
//! One row per cell, in grid order; the columns, in this order:
//!
//! | column | type | meaning |
//! | --- | --- | --- |
//! | *axis path* (one per axis, in axis order) | text | the value applied to that field, as given |
//! | `battles` | integer | battles fought in the cell |
//! | `win_rate_<side>`, `win_rate_<side>_low`, `win_rate_<side>_high` (one triple per side, scenario order) | float | share of battles `<side>` won, and its Wilson 95% interval |
//! | `draw_rate`, `draw_rate_low`, `draw_rate_high` | float | share of draws (no side left: the last wiped out, or broken, at one moment), with its interval |
//! | `timeout_rate`, `timeout_rate_low`, `timeout_rate_high` | float | share stopped by a cap, with its interval |
//! | `mean_seconds` | float | mean duration in game seconds, the duration that compares across timing systems (empty under the Tick System, whose text gives ticks no length) |
//! | `mean_ticks` | float | mean duration in the timing system's own ticks (an exchange, an initiative step, a second, a countdown step, an action block: they do not compare across systems) |
//! | `median_ticks`, `p90_ticks` | integer | median and 90th percentile of the duration, by nearest rank (see [`stats`](crate::stats)) |
//! | `mean_rounds` | float | mean rounds begun (exchanges, rounds, phases; Continuous: 20-tick stopwatch laps) |
//! | `mean_actions` | float | mean actions per battle |
//! | `hit_rate` | float | hits per action (empty when no action) |
//! | `amazing_strike_rate`, `amazing_defense_rate` | float | amazing strikes / defenses per action (empty when no action) |
//! | `mean_disruptions` | float | mean disrupted actions per battle |
//! | `wins_<side>` (one per side), `draws`, `timeouts` | integer | outcome counts |
//! | `total_seconds` | integer | sum of the battles' game seconds, each rounded to a whole second; empty under the Tick System |
//! | `total_ticks`, `total_rounds`, `total_actions`, `total_hits`, `total_amazing_strikes`, `total_amazing_defenses`, `total_disruptions` | integer | sums over the cell's battles |
//! | `retreat_rate_<side>`, `retreat_rate_<side>_low`, `retreat_rate_<side>_high`, `surrender_rate_<side>`, `surrender_rate_<side>_low`, `surrender_rate_<side>_high` (two triples per side, scenario order; schema 2) | float | share of battles `<side>` broke off by retreating, by surrendering (morale, docs/rules.md §5), each with its Wilson 95% interval; 0 for a side without morale |
//! | `retreats_<side>`, `surrenders_<side>` (a pair per side, scenario order; schema 2) | integer | battles `<side>` retreated from, surrendered in |
//! | `seed` | integer | the master seed |
//! | `scenario_fingerprint` | text | the base scenario's [fingerprint](Scenario::fingerprint) (16 hex digits): rows with different fingerprints were fought under different scenarios |
//!
//! **Game seconds** (docs/rules.md §5.1,
//! [`TimingSystem::game_seconds`](skirmish_core::timing::TimingSystem::game_seconds)):
//! Simultaneous 3 an exchange (FUDGE 4.1's combat round, "around three
//! seconds"), Simple Rounds 20 a round (Relativity: "roughly 20 seconds"),
//! Graduated Rounds 20 a round, so a tick is `20 / ticks_per_round` (1 s
//! at the default 20), Continuous 1 a tick, Action Blocks 3 a phase
//! (FUZION), the Tick System none ("ticks have no set length of time").
//!
//! **Versions.** Schema 2 added `mean_seconds` and `total_seconds`;
//! schema 1 had neither. Resuming from a checkpoint of the same sweep
//! written in schema 1 is refused with [`SweepError::Checkpoint`] (line 1)
//! naming "sweep schema 1", and the file is left as it is.
//!
//! `<side>` is the side's name in lowercase ASCII with every other character
//! (anything not `a-z`, `0-9`) replaced by `_`: side `"Orc Band"` gives
//! `win_rate_orc_band`. Every float is computed from the integer columns of
//! its row (a rate is `count / battles`, a mean is `total / battles`, the
//! per-action rates are `total / total_actions`), so rows can be pooled and
//! checked. An undefined integer (`total_seconds` under the Tick System)
//! is an empty field, JSON `null`, and in [`SweepTable::columns`] a float
//! column with `NaN`.
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
//!         breaks: Default::default(),
//!     })
//! };
//! let table = run_sweep(&spec, editor, battle, &SweepOptions::default())?;
//! assert_eq!(table.cells().len(), 2);
//! assert!(table.to_csv().starts_with("red_sr,battles,win_rate_red,win_rate_red_low,"));
//! println!("{}", table.summary_text());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

/// The version of the sweep schema (the columns below, their order and
/// meaning): 2. A checkpoint of an earlier schema is refused on resume,
/// naming its version.
///
/// - 1: the first schema.
/// - 2: adds the durations in game seconds (`mean_seconds` before
///   `mean_ticks`, `total_seconds` before `total_ticks`) and, per side,
///   `retreat_rate_<side>` and `surrender_rate_<side>` with their
///   intervals and the counts `retreats_<side>` and `surrenders_<side>`
///   (morale), before `seed`.
pub const SCHEMA_VERSION: u32 = 2;

mod checkpoint;
mod engine;
mod format;
mod output;
mod run;
mod schema;
mod spread;
mod table;
mod tally;

use std::collections::HashSet;
use std::error::Error as StdError;
use std::fmt;
use std::io;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use crate::scenario::Scenario;

pub use checkpoint::{ResumePlan, existing_work, plan_resume, row_check};
pub use engine::{engine_battle, sweep};
pub use output::{check_output, resolve_output, write_output};
pub use run::run_sweep;
pub use table::{Cell, CellStats, Column, SweepTable};

/// The most battles a cell may ask for.
pub const MAX_BATTLES: u64 = 1_000_000_000;

/// The grid order, the one home of it (the bindings call it too): the
/// position of cell `index` on each axis of a grid whose axes have
/// `lengths` values, the first axis varying slowest. An index past the
/// grid wraps around on the first axis. Every length must be at least 1
/// (a validated sweep's are).
///
/// ```
/// use skirmish_sim::sweep::grid_position;
/// assert_eq!(grid_position(&[2, 3], 4), vec![1, 1]);
/// ```
pub fn grid_position(lengths: &[usize], mut index: usize) -> Vec<usize> {
    let mut position = vec![0; lengths.len()];
    for (slot, &n) in position.iter_mut().zip(lengths).rev() {
        *slot = index % n;
        index /= n;
    }
    position
}

/// The number of cells of a grid whose axes have `lengths` values: their
/// product (no axes: one cell, the base scenario), saturating at
/// `u64::MAX`.
pub fn grid_cells(lengths: &[usize]) -> u64 {
    lengths.iter().fold(1, |cells: u64, &n| cells.saturating_mul(n as u64))
}

/// The most cells a sweep's grid may have (the product of its axes' value
/// counts, `--vary` in the `skirmish` command).
///
/// Every cell is held in memory for the whole sweep: its values, its own
/// copy of the scenario (built before any battle, so a bad value is
/// reported first), its fingerprint for the duplicate check, its row of
/// statistics, and when resuming an entry in the index of the checkpoint's
/// rows: for the small `parity` scenario a million cells is already more
/// than a gigabyte, more for a bigger scenario (measured in
/// docs/reliability.md, "Bounds of every input"). And a million cells of
/// the default 1,000 battles is a billion battles, days of CPU time: a
/// grid beyond it is a mistake in the axes (`1..3000` three times is 27
/// billion cells), which is refused before anything is allocated, instead
/// of aborting the process on a failed allocation.
pub const MAX_CELLS: u64 = 1_000_000;

/// The most worker threads a sweep may ask for: far beyond any machine's
/// cores, and few enough that starting them is quick.
pub const MAX_THREADS: usize = 1024;

/// Digits after the decimal point of every float in the CSV and JSON.
pub const FLOAT_DECIMALS: usize = 6;

/// An error from an editor or a battle closure.
pub type BoxError = Box<dyn StdError + Send + Sync + 'static>;

/// A progress callback (may be called from the sweep's worker threads).
pub type ProgressFn = Arc<dyn Fn(SweepProgress) + Send + Sync>;

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
pub struct SweepProgress {
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
    /// Worker threads of the sweep, at most [`MAX_THREADS`];
    /// `None` or `Some(0)`: one per core the process may use
    /// ([`std::thread::available_parallelism`]). With one, the calling
    /// thread fights the battles. With more, on Linux and Android the
    /// calling thread starts one fewer, each (while cores last) placed on
    /// a core of its own for its first battle and free to move after, and
    /// fights beside them; elsewhere it starts that many and waits for
    /// them. The numbers do not depend on it.
    pub threads: Option<usize>,
    /// Called after every finished cell (its row already checkpointed) and,
    /// within a cell, at most every 100 ms; it may be called from any of the
    /// sweep's worker threads.
    pub progress: Option<ProgressFn>,
    /// Checked between battles: once set, the sweep stops and returns
    /// [`SweepError::Cancelled`] (unless every cell was finished by then:
    /// the table); the cells already finished are in the checkpoint.
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
    /// A battle panicked (a bug in the battle code, or in a battle
    /// closure): the panic was caught, the sweep stopped at that cell, and
    /// the cells finished before it are kept in the checkpoint. The lowest
    /// failing battle index of the cell is reported.
    #[error(
        "cell {cell} ({}), battle {index}: the battle panicked: {message} (a bug: please report it with the \
         scenario, the seed and this cell; the cells finished before it are kept in the checkpoint)",
        describe_values(.values)
    )]
    Panicked {
        /// The cell's index in grid order.
        cell: usize,
        /// The cell's `(path, value)` pairs.
        values: Vec<(String, String)>,
        /// The battle index.
        index: u64,
        /// The panic's message.
        message: String,
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
    /// A worker thread could not be started (the sweep stops; the cells
    /// already finished are in the checkpoint).
    #[error("cannot start the sweep's threads: {0}")]
    ThreadPool(String),
}

pub(super) fn describe_values(values: &[(String, String)]) -> String {
    if values.is_empty() {
        return "base scenario".to_owned();
    }
    values
        .iter()
        .map(|(path, value)| format!("{path}={value}"))
        .collect::<Vec<_>>()
        .join(", ")
}

impl SweepSpec {
    /// Checks the spec (battles within 1..=[`MAX_BATTLES`], every axis a
    /// non-empty path with at least one value and no repeated value, no
    /// repeated path, no line break in a path or value, at most
    /// [`MAX_CELLS`] cells, the whole sweep countable in 64 bits) and
    /// returns the number of cells. Nothing is allocated per cell.
    pub fn validate(&self) -> Result<u64, SweepError> {
        let invalid = |m: String| Err(SweepError::Invalid(m));
        if self.battles == 0 || self.battles > MAX_BATTLES {
            return invalid(format!(
                "battles per cell must be between 1 and {MAX_BATTLES}, not {}",
                self.battles
            ));
        }
        let mut paths = HashSet::new();
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
        }
        let lengths: Vec<usize> = self.axes.iter().map(|a| a.values.len()).collect();
        let cells = grid_cells(&lengths);
        if cells > MAX_CELLS {
            let product = self
                .axes
                .iter()
                .map(|a| format!("{} ({} values)", a.path, a.values.len()))
                .collect::<Vec<_>>()
                .join(" x ");
            let count = if cells == u64::MAX {
                "more than 2^64".to_owned()
            } else {
                cells.to_string()
            };
            return invalid(format!(
                "the grid has {count} cells ({product}), more than the {MAX_CELLS} a sweep may have (MAX_CELLS: \
                 every cell is held in memory): vary fewer fields or fewer values (--vary), or split the sweep"
            ));
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
    /// axis slowest, as the table's rows; see [`grid_position`]).
    pub fn cell_values(&self, index: usize) -> Vec<String> {
        let lengths: Vec<usize> = self.axes.iter().map(|a| a.values.len()).collect();
        grid_position(&lengths, index)
            .into_iter()
            .zip(&self.axes)
            .map(|(i, axis)| axis.values[i].clone())
            .collect()
    }

    pub(super) fn pairs(&self, values: &[String]) -> Vec<(String, String)> {
        self.axes
            .iter()
            .map(|a| a.path.clone())
            .zip(values.iter().cloned())
            .collect()
    }
}
