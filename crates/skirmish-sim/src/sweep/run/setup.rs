//! A sweep's setup: every cell's scenario built and checked, the
//! checkpoint opened and the chunks laid out before the first battle, and
//! handed to the workers (who may have started before it: `spread.rs`).

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize};
use std::sync::{Condvar, Mutex, OnceLock};
use std::time::{Duration, Instant};

use super::super::checkpoint::Checkpoint;
use super::super::schema::{Layout, Meta};
use super::super::table::CellStats;
use super::super::{BoxError, SweepError, SweepOptions, SweepSpec, describe_values};
use super::{Part, Reporter, Rows, Shared, Slot, SweepRun};
use crate::scenario::Scenario;

/// What a sweep's workers share, built before the first battle: the
/// table's layout and the base scenario's fingerprint, every cell's
/// scenario, the unfinished cells and their chunks, progress, and the
/// state of the run.
pub(super) struct Setup {
    pub(super) layout: Layout,
    pub(super) fingerprint: String,
    pub(super) grid: Vec<(Vec<String>, Scenario)>,
    /// The unfinished cells (a resumed checkpoint has the others).
    pub(super) pending: Vec<usize>,
    pub(super) chunk_len: u64,
    pub(super) n_chunks: u64,
    pub(super) progress: Reporter,
    pub(super) shared: Shared,
}

impl Setup {
    /// Builds every cell's scenario with `editor` and checks the grid
    /// (sides kept, no two cells the same scenario), opens the checkpoint,
    /// and lays out the chunks for `threads` workers: every refusal before
    /// any battle.
    pub(super) fn build<Ed, EdErr>(
        spec: &SweepSpec,
        editor: &Ed,
        options: &SweepOptions,
        threads: usize,
        cells_total: u64,
    ) -> Result<Setup, SweepError>
    where
        Ed: Fn(&Scenario, &str, &str) -> Result<Scenario, EdErr>,
        EdErr: Into<BoxError>,
    {
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
        // would run twice under different labels. Cells are told apart by a
        // key equal scenarios share, then compared with every earlier cell of
        // the same key.
        let mut seen: HashMap<u64, Vec<usize>> = HashMap::with_capacity(grid.len());
        for (cell, (values, scenario)) in grid.iter().enumerate() {
            let same_key = seen.entry(scenario.cell_key(&spec.scenario)).or_default();
            if let Some(&first) = same_key.iter().find(|&&earlier| grid[earlier].1 == *scenario) {
                return Err(SweepError::Invalid(format!(
                    "cells {first} ({}) and {cell} ({}) are the same scenario: two values of an axis mean the same \
                     (such as tick-system and tick_system), or two axes set the same field",
                    describe_values(&spec.pairs(&grid[first].0)),
                    describe_values(&spec.pairs(values)),
                )));
            }
            same_key.push(cell);
        }

        let mut done: Vec<Option<CellStats>> = vec![None; n_cells];
        let checkpoint = match &options.checkpoint {
            Some(path) => Some(Checkpoint::open(path, &layout, spec, meta, options.resume, &mut done)?),
            None => None,
        };

        // The chunks of every unfinished cell are handed out in order, cell
        // after cell, to whichever worker is free (one counter): no worker
        // waits at the end of a cell for the others (six cells of a thousand
        // small battles lost a sixth of the second core so), only at the end
        // of the sweep, which small chunks keep short (and progress and
        // cancellation prompt).
        let chunk_len = (spec.battles / (threads as u64 * 32)).clamp(1, 1024);
        let n_chunks = spec.battles.div_ceil(chunk_len);
        let mut pending: Vec<usize> = Vec::new();
        let mut slots: Vec<Slot> = Vec::new();
        let unfinished = done.iter().filter(|d| d.is_none()).count();
        pending
            .try_reserve_exact(unfinished)
            .and_then(|()| slots.try_reserve_exact(unfinished))
            .map_err(|e| SweepError::Invalid(format!("{unfinished} cells: cannot allocate their state ({e})")))?;
        pending.extend((0..n_cells).filter(|&cell| done[cell].is_none()));
        slots.extend(pending.iter().map(|_| Slot::new(n_chunks)));

        let cells_done = (n_cells - pending.len()) as u64;
        let progress = Reporter {
            callback: options.progress.clone(),
            start: Instant::now(),
            last_ms: AtomicU64::new(0),
            cells_done: AtomicU64::new(cells_done),
            cells_total,
            battles_done: AtomicU64::new(cells_done * spec.battles),
            battles_total: cells_total * spec.battles,
        };
        let shared = Shared {
            slots,
            parts: Part::cut(
                pending.len() as u64 * n_chunks,
                if options.checkpoint.is_some() { 1 } else { threads },
            ),
            failed: AtomicUsize::new(usize::MAX),
            abort: AtomicBool::new(false),
            failure: Mutex::new(None),
            gated: checkpoint.is_some(),
            rows: Mutex::new(Rows {
                done,
                checkpoint,
                next: 0,
                broken: false,
            }),
            written: AtomicUsize::new(0),
            resolved: Condvar::new(),
        };
        Ok(Setup {
            layout,
            fingerprint,
            grid,
            pending,
            chunk_len,
            n_chunks,
            progress,
            shared,
        })
    }

    /// The run as a worker sees it.
    pub(super) fn run<'a>(&'a self, spec: &'a SweepSpec, cancel: Option<&'a AtomicBool>) -> SweepRun<'a> {
        SweepRun {
            spec,
            grid: &self.grid,
            pending: &self.pending,
            meta: Meta {
                seed: spec.seed,
                scenario: &self.fingerprint,
            },
            layout: &self.layout,
            chunk_len: self.chunk_len,
            n_chunks: self.n_chunks,
            sides: self.layout.sides.len(),
            cancel,
            progress: &self.progress,
            shared: &self.shared,
        }
    }
}

/// Tells the workers waiting for a sweep's setup that there is none, if
/// none was published before this is dropped (the setup refused, or the
/// editor panicked).
pub(super) struct Publish<'a>(pub(super) &'a OnceLock<Option<Setup>>);

impl Drop for Publish<'_> {
    fn drop(&mut self) {
        let _ = self.0.set(None);
    }
}

/// How long a worker started before the setup spins for it (checking,
/// without a system call) before it sleeps: a setup takes a fraction of a
/// millisecond, and a thread that slept is woken on whichever core the
/// kernel picks, here the busy caller's, for a balancing tick (see
/// `spread.rs`).
pub(super) const SPIN: Duration = Duration::from_millis(2);

/// The setup, once the caller has built it (`None`: no battle runs).
/// `spin`: this worker has a core of its own to spin on first.
pub(super) fn wait_for(slot: &OnceLock<Option<Setup>>, spin: bool) -> Option<&Setup> {
    if spin {
        let since = Instant::now();
        while since.elapsed() < SPIN {
            if let Some(setup) = slot.get() {
                return setup.as_ref();
            }
            for _ in 0..64 {
                std::hint::spin_loop();
            }
        }
    }
    slot.wait().as_ref()
}
