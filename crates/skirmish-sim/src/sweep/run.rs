//! The parallel run: every cell's scenario built first, then each cell's
//! battles in chunks on a local rayon pool, reduced to integer sums and a
//! histogram of durations (order-independent, so any number of threads
//! gives the same bytes), with progress, cancellation and the checkpoint.

use std::any::Any;
use std::collections::{BTreeMap, HashMap};
use std::ops::Range;
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use rayon::prelude::*;

use super::checkpoint::Checkpoint;
use super::output::write_output;
use super::schema::{Layout, Meta};
use super::table::{Cell, CellStats, SweepTable};
use super::{BoxError, MAX_THREADS, Progress, ProgressFn, SweepError, SweepOptions, SweepSpec, describe_values};
use crate::report::{BattleSummary, Outcome};
use crate::scenario::Scenario;
use crate::stats;

/// How often, at most, progress is reported while a cell runs (each
/// finished cell is always reported).
pub(super) const PROGRESS_INTERVAL: Duration = Duration::from_millis(100);

/// Running totals of some battles: integer sums and a histogram of
/// durations, so merging in any order gives the same result.
#[derive(Debug, Clone, Default)]
pub(super) struct Tally {
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
pub(super) struct Durations {
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

/// Runs a sweep: builds every cell's scenario with `editor` (any refusal is
/// reported before a battle runs), then fights battle `i` of every cell as
/// `battle(&cell_scenario, spec.seed, i)` for `i` in `0..spec.battles`, in
/// parallel, and reduces each cell to its row. See the module docs for the
/// schema, checkpointing and determinism.
///
/// Every cell's scenario must keep the base scenario's side names (they
/// name the columns). A battle reporting a winner that is not a side is an
/// error. A battle closure that panics does not unwind out of the sweep:
/// the panic is caught and the sweep returns [`SweepError::Panicked`]
/// naming the cell and the battle.
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
    // At most MAX_CELLS (validate): a failed allocation is an error, not an
    // abort of the process (a Python host with it).
    let mut grid: Vec<(Vec<String>, Scenario)> = Vec::new();
    grid.try_reserve_exact(n_cells)
        .map_err(|e| SweepError::Invalid(format!("{n_cells} cells: cannot allocate the grid ({e})")))?;
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
        match out.error {
            Some((index, Failure::Error(source))) => {
                return Err(SweepError::Battle {
                    cell,
                    values: spec.pairs(values),
                    index,
                    source,
                });
            }
            Some((index, Failure::Panic(message))) => {
                return Err(SweepError::Panicked {
                    cell,
                    values: spec.pairs(values),
                    index,
                    message,
                });
            }
            None => {}
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
    if let Some(Checkpoint { path, file, .. }) = checkpoint {
        drop(file);
        write_output(&path, table.to_csv().as_bytes())?;
    }
    Ok(table)
}

/// Why a battle gave no summary.
pub(super) enum Failure {
    /// The battle returned an error.
    Error(BoxError),
    /// The battle panicked, with this message.
    Panic(String),
}

/// The text of a panic's payload (`panic!` gives a `&str` or a `String`).
fn panic_message(payload: &(dyn Any + Send)) -> String {
    if let Some(text) = payload.downcast_ref::<&str>() {
        (*text).to_owned()
    } else if let Some(text) = payload.downcast_ref::<String>() {
        text.clone()
    } else {
        "a panic without a message".to_owned()
    }
}

/// What one chunk of a cell's battles gave.
pub(super) struct ChunkOut {
    tally: Tally,
    error: Option<(u64, Failure)>,
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

pub(super) fn run_chunk<B, BErr>(
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
        // A panic in one battle stops the sweep with an error naming the
        // battle; it never unwinds through rayon into the caller (nor
        // aborts a process that cannot unwind across its boundary, such as
        // a Python or Kotlin host).
        let failure = match panic::catch_unwind(AssertUnwindSafe(|| battle(scenario, seed, index))) {
            Ok(Ok(summary)) => match summary.outcome {
                Outcome::Win { side } if side >= sides => Failure::Error(
                    format!("the battle reports side {side} as the winner, but there are {sides} sides").into(),
                ),
                _ => {
                    out.tally.add(&summary);
                    continue;
                }
            },
            Ok(Err(e)) => Failure::Error(e.into()),
            Err(payload) => Failure::Panic(panic_message(payload.as_ref())),
        };
        first_error.fetch_min(index, Ordering::Relaxed);
        out.error = Some((index, failure));
        break;
    }
    out
}

/// Progress counting and throttled reporting.
pub(super) struct Reporter {
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

// ---------------------------------------------------------------------------
// Sweeping with the battle engine

thread_local! {
    /// Each worker thread keeps the last cell's prepared battle and its
    /// workspace, so a cell's battles neither re-resolve the scenario nor
    /// allocate; with the sweep and the cell it was prepared for, when a
    /// sweep ([`sweep`]) asked.
    static PREPARED: std::cell::RefCell<Option<Box<Prepared>>> = const { std::cell::RefCell::new(None) };
}

/// A thread's prepared battle (see `PREPARED`), boxed: it is taken out
/// and put back around every battle, a move of a pointer rather than of
/// the scenario, battle and workspace (kilobytes).
struct Prepared {
    /// `(sweep, address of the cell's scenario)`: within one [`sweep`] call
    /// the grid holds every cell's scenario at one address for the whole
    /// call, so the same pair is the same scenario, without comparing it
    /// (a deep comparison cost about as much as a small battle).
    cell: Option<(u64, usize)>,
    scenario: Scenario,
    battle: crate::battle::Battle,
    ws: crate::battle::Workspace,
}

/// One battle of `scenario` with the engine, reusing this thread's
/// prepared battle when the scenario is the same as last time.
pub fn engine_battle(scenario: &Scenario, seed: u64, index: u64) -> Result<BattleSummary, crate::SimError> {
    prepared_battle(None, scenario, seed, index)
}

/// [`engine_battle`], told which sweep call it serves (`sweep`: a number
/// no other call has) so that the cell is known by its address.
fn prepared_battle(
    sweep: Option<u64>,
    scenario: &Scenario,
    seed: u64,
    index: u64,
) -> Result<BattleSummary, crate::SimError> {
    let cell = sweep.map(|id| (id, std::ptr::from_ref(scenario) as usize));
    PREPARED.with(|slot| {
        // Taken out while the battle runs: a battle that panics leaves no
        // half-updated workspace behind for the next one on this thread.
        let taken = slot.borrow_mut().take();
        let mut prepared = match taken {
            Some(p) if cell.is_some() && p.cell == cell => p,
            Some(mut p) if p.scenario == *scenario => {
                p.cell = cell;
                p
            }
            _ => prepare(cell, scenario)?,
        };
        let summary = prepared.battle.run_summary(&mut prepared.ws, seed, index);
        *slot.borrow_mut() = Some(prepared);
        summary
    })
}

/// A new prepared battle of `scenario` for `cell`. Out of line: a new
/// workspace is built on the stack (its rings are arrays of a thousand
/// buckets), and a frame that could hold it was probed page by page on
/// every battle: 53 KiB of stack written per battle, more than the L1
/// cache, whose contents the battle then fetched again (callgrind: 12 of
/// the 13 write misses per battle of the goblin ambush's sweep).
#[cold]
#[inline(never)]
fn prepare(cell: Option<(u64, usize)>, scenario: &Scenario) -> Result<Box<Prepared>, crate::SimError> {
    Ok(Box::new(Prepared {
        cell,
        scenario: scenario.clone(),
        battle: crate::battle::Battle::new(scenario)?,
        ws: crate::battle::Workspace::default(),
    }))
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
    static SWEEPS: AtomicU64 = AtomicU64::new(0);
    let id = SWEEPS.fetch_add(1, Ordering::Relaxed);
    run_sweep(
        spec,
        |s: &Scenario, path: &str, value: &str| s.with_field(path, value),
        |s: &Scenario, seed: u64, index: u64| prepared_battle(Some(id), s, seed, index),
        options,
    )
}
