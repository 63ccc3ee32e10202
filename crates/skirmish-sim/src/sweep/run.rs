//! The parallel run: every cell's scenario built first, then the cells'
//! battles in chunks handed out in order (cell after cell) to the sweep's
//! workers (the calling thread alone, or with scoped threads), reduced to
//! integer sums and a histogram of durations (order-independent, so any
//! number of threads gives the same bytes), with progress, cancellation
//! and the checkpoint.
//!
//! One stream of chunks, not one parallel job a cell: a job a cell made
//! every worker wait at each cell's end for the last chunk and hand the
//! calling thread the result (a wake-up across threads each time), which
//! on the README's six cells of a thousand small battles left part of the
//! second core idle. A worker merges the chunks it runs of one
//! cell itself and hands them in when it moves on; whoever hands in a
//! cell's last chunk finishes the cell and writes every finished row from
//! the first unwritten one, in cell order.
//!
//! Without a checkpoint the stream is cut into one part a worker, and each
//! worker starts on a part of its own, taking its chunks in order; a
//! worker whose part is done joins the part with the most chunks left.
//! On one stream every worker fought every cell: each built every cell's
//! battle and ran every timing system's code on its own core's cold
//! caches. With parts each meets about its share of the cells, and the
//! README's sweep on two threads is faster. With a checkpoint the cells
//! must finish in order (see
//! [`Shared::gated`]): one part, every worker on it.

use std::ops::Range;
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, OnceLock, PoisonError};
use std::time::{Duration, Instant};

mod setup;

use setup::{Publish, Setup, wait_for};

use super::checkpoint::Checkpoint;
use super::output::write_output;
use super::schema::{Layout, Meta};
use super::spread::{Placement, Relay};
use super::table::{Cell, CellStats, SweepTable};
use super::tally::Tally;
use super::{BoxError, MAX_THREADS, ProgressFn, SweepError, SweepOptions, SweepProgress, SweepSpec};
use crate::report::{BattleSummary, Outcome};
use crate::scenario::Scenario;

/// How often, at most, progress is reported while a cell runs (each
/// finished cell is always reported).
pub(super) const PROGRESS_INTERVAL: Duration = Duration::from_millis(100);

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
    let threads = match options.threads {
        Some(n) if n > 0 => n,
        _ => std::thread::available_parallelism().map_or(1, std::num::NonZero::get),
    }
    .min(MAX_THREADS);
    let cancel = options.cancel.as_deref();
    let build = || Setup::build(spec, &editor, options, threads, cells_total);

    // One thread: the calling thread is the worker. More: where the caller
    // can make room for them (`spread`: on Linux and Android), it starts
    // `threads - 1` scoped threads before the setup, each (while cores
    // last) on a core of its own, where they wait for it, and works beside them once it is built;
    // elsewhere it builds the setup, starts `threads` threads and waits
    // for them (a caller working beside a thread the kernel queued on the
    // caller's own core left that thread waiting for a balancing tick, and
    // the sweep slower than waiting). Started before the setup, a worker's
    // own start (the thread, its stack, its move to its core) is made
    // while the caller reads the cells. Scoped
    // threads rather than a pool: the workers only take chunks off one
    // counter, and they are joined before the results are read.
    let setup = if threads == 1 {
        let setup = build()?;
        setup.run(spec, cancel).work(&battle, 0);
        setup
    } else {
        // The setup, once built (`None`: no battle runs: the setup was
        // refused, panicked, or a worker could not start).
        let slot: OnceLock<Option<Setup>> = OnceLock::new();
        // The workers that have run their first step (see `spread`).
        let arrived = AtomicUsize::new(0);
        let mut refused = None;
        // A worker's panic (a progress callback's: battles' panics are
        // caught) comes out of the sweep as itself, once every worker is
        // joined; the caller's own, once they are joined too.
        let mut panicked = None;
        let started = std::thread::scope(|scope| {
            // However the caller leaves (a refusal, a panic in the editor),
            // the waiting workers are told.
            let publish = Publish(&slot);
            let relay = Relay::start();
            let caller_works = relay.is_some();
            let started_threads = if caller_works { threads - 1 } else { threads };
            let mut workers = Vec::with_capacity(started_threads);
            let mut started = Ok(());
            // Dropped at the end, the relay gives the caller back its own
            // affinity mask.
            let mut start_workers = |mut relay: Option<Relay>| {
                for i in 0..started_threads {
                    let (slot, battle, arrived) = (&slot, &battle, &arrived);
                    let placement = relay.as_mut().map_or(Placement::NONE, Relay::place);
                    match std::thread::Builder::new()
                        .name(format!("skirmish-sweep-{i}"))
                        .spawn_scoped(scope, move || {
                            // On a core of its own, a worker spins for the
                            // setup; one that may share the caller's sleeps.
                            let own_core = placement.apply(arrived);
                            if let Some(setup) = wait_for(slot, own_core) {
                                setup.run(spec, cancel).work(battle, i);
                            }
                        }) {
                        Ok(worker) => workers.push(worker),
                        Err(e) => {
                            // The workers already started stop: before
                            // the setup, at once; after it, at their next
                            // chunk.
                            match slot.get() {
                                Some(Some(setup)) => {
                                    setup.shared.abort.store(true, Ordering::Relaxed);
                                    setup.shared.wake();
                                }
                                _ => {
                                    let _ = slot.set(None);
                                }
                            }
                            started = Err(SweepError::ThreadPool(format!(
                                "cannot start worker thread {} of {threads}: {e}",
                                i + 1
                            )));
                            break;
                        }
                    }
                    if let Some(relay) = relay.as_ref() {
                        relay.wait(arrived, i + 1);
                    }
                }
            };
            if caller_works {
                start_workers(relay);
                // Built even if a worker could not start (the workers
                // already started were told: no setup), so that a refusal
                // of the sweep itself comes first, as where the workers
                // start after the setup.
                match build() {
                    Ok(setup) => {
                        let _ = slot.set(Some(setup));
                    }
                    Err(e) => refused = Some(e),
                }
                if started.is_ok()
                    && let Some(Some(setup)) = slot.get()
                {
                    setup.run(spec, cancel).work(&battle, started_threads);
                }
            } else {
                match build() {
                    Ok(setup) => {
                        let _ = slot.set(Some(setup));
                        start_workers(None);
                    }
                    Err(e) => refused = Some(e),
                }
            }
            drop(publish);
            for worker in workers {
                if let Err(payload) = worker.join() {
                    panicked.get_or_insert(payload);
                }
            }
            started
        });
        if let Some(payload) = panicked {
            panic::resume_unwind(payload);
        }
        if let Some(e) = refused {
            return Err(e);
        }
        started?;
        match slot.into_inner() {
            Some(Some(setup)) => setup,
            // A setup is built or refused, or a worker failed to start.
            _ => return Err(SweepError::Invalid("internal: the sweep was not set up".to_owned())),
        }
    };

    let Setup {
        layout,
        fingerprint,
        grid,
        pending,
        shared,
        ..
    } = setup;
    let meta = Meta {
        seed: spec.seed,
        scenario: &fingerprint,
    };
    let cancel = options.cancel.as_deref();
    let Shared { failure, rows, .. } = shared;
    let mut failure = failure.into_inner().unwrap_or_else(PoisonError::into_inner);
    let Rows {
        mut done,
        mut checkpoint,
        next,
        broken,
    } = rows.into_inner().unwrap_or_else(PoisonError::into_inner);
    // Cells that finished after one that did not (cancelled, failed) are
    // kept too: the checkpoint reads its rows back in any order.
    if let Some(cp) = checkpoint.as_mut().filter(|_| !broken) {
        for (pos, &cell) in pending.iter().enumerate().skip(next) {
            let Some(stats) = &done[cell] else { continue };
            let row = Cell {
                values: grid[cell].0.clone(),
                stats: stats.clone(),
            };
            if let Err(e) = cp.append(&layout.row_line(&row, meta)) {
                if failure.as_ref().is_none_or(|(failed, _)| pos < *failed) {
                    failure = Some((pos, e));
                }
                done[cell] = None;
                break;
            }
        }
    }
    // The first cell in order that did not finish says why the sweep
    // stopped: its error, or the cancellation.
    if let Some(pos) = pending.iter().position(|&cell| done[cell].is_none()) {
        return Err(match failure {
            Some((failed, e)) if failed == pos => e,
            _ if cancel.is_some_and(|c| c.load(Ordering::Relaxed)) => SweepError::Cancelled {
                cells_done: done.iter().filter(|d| d.is_some()).count() as u64,
                cells_total,
            },
            _ => SweepError::Invalid(format!("internal: cell {} was left unfinished", pending[pos])),
        });
    }

    let units = grid
        .iter()
        .map(|(_, scenario)| (scenario.timing.name(), scenario.timing.time_units()))
        .collect();
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
        units,
        morale: spec.scenario.has_morale(),
    };
    if let Some(Checkpoint { path, file, .. }) = checkpoint {
        drop(file);
        write_output(&path, table.to_csv().as_bytes())?;
    }
    Ok(table)
}

/// What the workers of a sweep share: per unfinished cell (by its
/// position in the list of unfinished cells) the chunks still out and the
/// merged results of those in; the next chunk to hand out; the first
/// failure; the finished rows.
struct Shared {
    slots: Vec<Slot>,
    /// The stream of chunks (chunk `k` is chunk `k % n_chunks` of the
    /// unfinished cell at position `k / n_chunks`), in parts.
    parts: Vec<Part>,
    /// The lowest position of a cell that failed (`usize::MAX`: none):
    /// chunks of later cells are not run (their results would not be
    /// reported), those of earlier ones are.
    failed: AtomicUsize,
    /// A worker thread could not be started, or one panicked: the others
    /// stop.
    abort: AtomicBool,
    failure: Mutex<Option<(usize, SweepError)>>,
    rows: Mutex<Rows>,
    /// With a checkpoint, no chunk of a cell runs before the cell before it
    /// is written (or the sweep stops): what a checkpoint holds when the
    /// process is killed, and which cells a cancelled sweep finished, are
    /// the same as if the cells ran one after the other. Without one,
    /// nothing waits.
    gated: bool,
    /// `rows.next`, read without the lock.
    written: AtomicUsize,
    /// Signalled when a cell is written or the sweep stops.
    resolved: Condvar,
}

impl Shared {
    /// Cell `pos` failed with `error`: the lowest position's error wins;
    /// the waiting workers are woken.
    fn fail(&self, pos: usize, error: SweepError) {
        self.record_failure(pos, error);
        self.wake();
    }

    /// [`fail`](Self::fail) without the wake-up, for a caller that holds
    /// the `rows` lock (and notifies when it lets go of it).
    fn record_failure(&self, pos: usize, error: SweepError) {
        self.failed.fetch_min(pos, Ordering::Relaxed);
        let mut failure = self.failure.lock().unwrap_or_else(PoisonError::into_inner);
        if failure.as_ref().is_none_or(|(failed, _)| pos < *failed) {
            *failure = Some((pos, error));
        }
    }

    /// Wakes the workers waiting for a cell to be written (taking the lock,
    /// so none is between its check and its wait).
    fn wake(&self) {
        if self.gated {
            drop(self.rows.lock().unwrap_or_else(PoisonError::into_inner));
            self.resolved.notify_all();
        }
    }

    /// Waits (with a checkpoint) until the cells before position `pos` are
    /// written, the sweep is `stopped` or a cell before `pos` failed.
    fn wait_for_rows_before(&self, pos: usize, stopped: impl Fn() -> bool) {
        if !self.gated || self.written.load(Ordering::Acquire) >= pos {
            return;
        }
        let mut rows = self.rows.lock().unwrap_or_else(PoisonError::into_inner);
        while rows.next < pos && !rows.broken && self.failed.load(Ordering::Relaxed) >= pos && !stopped() {
            rows = self.resolved.wait(rows).unwrap_or_else(PoisonError::into_inner);
        }
    }
}

/// A run of the stream of chunks: the next to hand out (it may pass
/// `end`: every worker that finds the part done has taken one more) and
/// the end.
struct Part {
    next: AtomicU64,
    end: u64,
}

impl Part {
    /// `total` chunks cut into `parts` parts (at least one) of equal length,
    /// give or take a chunk, in order.
    fn cut(total: u64, parts: usize) -> Vec<Part> {
        let parts = parts.max(1) as u64;
        // At most MAX_CELLS x about a million chunks, times MAX_THREADS:
        // no overflow in u128.
        let bound = |i: u64| (u128::from(total) * u128::from(i) / u128::from(parts)) as u64;
        (0..parts)
            .map(|i| Part {
                next: AtomicU64::new(bound(i)),
                end: bound(i + 1),
            })
            .collect()
    }
}

/// One unfinished cell's chunks: how many are still out, and the merged
/// results of those in (boxed: a cell not yet started costs 32 bytes).
struct Slot {
    remaining: AtomicU64,
    first_error: AtomicU64,
    merged: Mutex<Option<Box<ChunkOut>>>,
}

impl Slot {
    fn new(chunks: u64) -> Slot {
        Slot {
            remaining: AtomicU64::new(chunks),
            first_error: AtomicU64::new(u64::MAX),
            merged: Mutex::new(None),
        }
    }
}

/// The finished cells, and the checkpoint, written in cell order: a cell
/// that finishes before an earlier one waits for it (rows in order, as a
/// sweep on one thread writes them), unless the sweep stops first.
struct Rows {
    done: Vec<Option<CellStats>>,
    checkpoint: Option<Checkpoint>,
    /// The position of the first unfinished cell not yet written.
    next: usize,
    /// A checkpoint write failed: no more are tried.
    broken: bool,
}

/// Wakes the waiting workers when a worker stops (see [`SweepRun::work`]);
/// on a panic, stops them first.
struct Stopping<'a>(&'a Shared);

impl Drop for Stopping<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.abort.store(true, Ordering::Relaxed);
        }
        self.0.wake();
    }
}

/// A sweep's run, as every worker sees it.
struct SweepRun<'a> {
    spec: &'a SweepSpec,
    grid: &'a [(Vec<String>, Scenario)],
    pending: &'a [usize],
    layout: &'a Layout,
    meta: Meta<'a>,
    chunk_len: u64,
    n_chunks: u64,
    sides: usize,
    cancel: Option<&'a AtomicBool>,
    progress: &'a Reporter,
    shared: &'a Shared,
}

impl SweepRun<'_> {
    /// The sweep was cancelled, or a worker could not be started.
    fn stopped(&self) -> bool {
        self.cancel.is_some_and(|c| c.load(Ordering::Relaxed)) || self.shared.abort.load(Ordering::Relaxed)
    }

    /// One worker, starting on part `part` (modulo the parts): takes the
    /// next chunk until none is left, the sweep is cancelled or a cell
    /// before the chunk's failed. A worker merges the chunks it runs of
    /// one cell itself, and hands them in when it moves on to the next
    /// cell (or stops).
    fn work<B, BErr>(&self, battle: &B, mut part: usize)
    where
        B: Fn(&Scenario, u64, u64) -> Result<BattleSummary, BErr> + Sync,
        BErr: Into<BoxError>,
    {
        let shared = self.shared;
        // However this worker stops (done, cancelled, a failure, a panic in
        // a callback), the workers waiting for a row are woken to look
        // again: a chunk this worker took and did not run leaves its cell
        // unfinished, and nothing else would wake them. A panic stops the
        // others too.
        let _stopping = Stopping(shared);
        part %= shared.parts.len();
        let mut mine: Option<(usize, ChunkOut, u64)> = None;
        loop {
            if self.stopped() {
                break;
            }
            let Some(k) = self.take(&mut part) else { break };
            let pos = (k / self.n_chunks) as usize;
            if let Some((held, out, chunks)) = mine.take_if(|(held, ..)| *held != pos) {
                self.hand_in(held, out, chunks);
            }
            shared.wait_for_rows_before(pos, || self.stopped());
            if self.stopped() || pos > shared.failed.load(Ordering::Relaxed) {
                break;
            }
            let first = (k % self.n_chunks) * self.chunk_len;
            let range = first..(first + self.chunk_len).min(self.spec.battles);
            let slot = &shared.slots[pos];
            let scenario = &self.grid[self.pending[pos]].1;
            let out = run_chunk(
                range,
                scenario,
                self.spec.seed,
                self.sides,
                battle,
                self.cancel,
                &slot.first_error,
            );
            self.progress.battles(out.tally.battles);
            if out.error.is_some() {
                shared.failed.fetch_min(pos, Ordering::Relaxed);
            }
            mine = Some(match mine {
                Some((held, merged, chunks)) => (held, merged.merge(out), chunks + 1),
                None => (pos, out, 1),
            });
        }
        if let Some((held, out, chunks)) = mine {
            self.hand_in(held, out, chunks);
        }
    }

    /// The next chunk for a worker on part `part`: that part's next, else
    /// the next of the part with the most chunks left, which becomes the
    /// worker's. Only chunks of cells up to a failed one are handed out
    /// (the later ones' results would not be reported); `None` when none
    /// is left.
    fn take(&self, part: &mut usize) -> Option<u64> {
        let parts = &self.shared.parts;
        loop {
            let failed = self.shared.failed.load(Ordering::Relaxed);
            // The chunks of cells after the failed one start here.
            let limit = failed
                .checked_add(1)
                .map_or(u64::MAX, |after| (after as u64).saturating_mul(self.n_chunks));
            let k = parts[*part].next.fetch_add(1, Ordering::Relaxed);
            if k < parts[*part].end.min(limit) {
                return Some(k);
            }
            let (left, most) = parts
                .iter()
                .enumerate()
                .map(|(i, p)| (p.end.min(limit).saturating_sub(p.next.load(Ordering::Relaxed)), i))
                .max()?;
            if left == 0 {
                return None;
            }
            *part = most;
        }
    }

    /// `chunks` chunks of cell `pos` are in, merged as `out`; the last
    /// finishes the cell.
    fn hand_in(&self, pos: usize, out: ChunkOut, chunks: u64) {
        let slot = &self.shared.slots[pos];
        {
            let mut merged = slot.merged.lock().unwrap_or_else(PoisonError::into_inner);
            *merged = Some(Box::new(match merged.take() {
                Some(before) => before.merge(out),
                None => out,
            }));
        }
        if slot.remaining.fetch_sub(chunks, Ordering::AcqRel) == chunks {
            let merged = slot.merged.lock().unwrap_or_else(PoisonError::into_inner).take();
            if let Some(merged) = merged {
                self.finish(pos, *merged);
            }
        }
    }

    /// Every chunk of cell `pos` is in: its row, or its error (a cancelled
    /// cell is left unfinished).
    fn finish(&self, pos: usize, out: ChunkOut) {
        if out.cancelled {
            return self.shared.wake();
        }
        let cell = self.pending[pos];
        let values = &self.grid[cell].0;
        let stats = match out.error {
            Some((index, Failure::Error(source))) => Err(SweepError::Battle {
                cell,
                values: self.spec.pairs(values),
                index,
                source,
            }),
            Some((index, Failure::Panic(message))) => Err(SweepError::Panicked {
                cell,
                values: self.spec.pairs(values),
                index,
                message,
            }),
            None => out.tally.finish(cell),
        };
        let stats = match stats {
            Ok(stats) => stats,
            Err(e) => return self.shared.fail(pos, e),
        };
        let mut rows = self.shared.rows.lock().unwrap_or_else(PoisonError::into_inner);
        rows.done[cell] = Some(stats);
        // Write every finished cell from the first one not yet written.
        while let Some(&cell) = self.pending.get(rows.next)
            && !rows.broken
        {
            let Some(stats) = rows.done[cell].clone() else { break };
            if let Some(cp) = rows.checkpoint.as_mut() {
                let row = Cell {
                    values: self.grid[cell].0.clone(),
                    stats,
                };
                if let Err(e) = cp.append(&self.layout.row_line(&row, self.meta)) {
                    rows.broken = true;
                    rows.done[cell] = None;
                    self.shared.record_failure(rows.next, e);
                    break;
                }
            }
            rows.next += 1;
            // Reported before the gate opens: a callback that cancels has
            // done so before any battle of the next cell starts.
            self.progress.cell_done();
            self.shared.written.store(rows.next, Ordering::Release);
        }
        drop(rows);
        self.shared.resolved.notify_all();
    }
}

/// Why a battle gave no summary.
pub(super) enum Failure {
    /// The battle returned an error.
    Error(BoxError),
    /// The battle panicked, with this message.
    Panic(String),
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
        // battle; it never unwinds through a worker into the caller (nor
        // aborts a process that cannot unwind across its boundary, such as
        // a Python or Kotlin host).
        let failure = match panic::catch_unwind(AssertUnwindSafe(|| battle(scenario, seed, index))) {
            Ok(Ok(summary)) => match summary.outcome {
                Outcome::Win { side } if side >= sides => Failure::Error(
                    format!("the battle reports side {side} as the winner, but there are {sides} sides").into(),
                ),
                _ if !summary.breaks.is_none() && !breaks_fit(&summary.breaks, sides) => Failure::Error(
                    format!(
                        "the battle reports breaks {:?} that do not fit its {sides} sides (a side that broke both \
                         ways, or past the last)",
                        summary.breaks
                    )
                    .into(),
                ),
                _ => {
                    out.tally
                        .add(&summary, scenario.timing.game_seconds(summary.ticks, summary.rounds));
                    continue;
                }
            },
            Ok(Err(e)) => Failure::Error(e.into()),
            Err(payload) => Failure::Panic(skirmish_core::error::panic_message(payload.as_ref())),
        };
        first_error.fetch_min(index, Ordering::Relaxed);
        out.error = Some((index, failure));
        break;
    }
    out
}

/// Whether `breaks` names only sides below `sides`, each broken one way.
fn breaks_fit(breaks: &crate::report::Breaks, sides: usize) -> bool {
    let all = if sides >= 64 { u64::MAX } else { (1u64 << sides) - 1 };
    (breaks.retreated | breaks.surrendered) & !all == 0 && breaks.retreated & breaks.surrendered == 0
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
    fn snapshot(&self) -> SweepProgress {
        SweepProgress {
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

#[cfg(test)]
mod tests {
    use super::Part;
    use std::sync::atomic::Ordering;

    #[test]
    fn parts_cover_the_stream_in_order_in_near_equal_lengths() {
        for (total, parts) in [
            (0, 1),
            (0, 3),
            (1, 1),
            (1, 2),
            (5, 7),
            (402, 2),
            (403, 3),
            (1 << 40, 1024),
        ] {
            let cut = Part::cut(total, parts);
            assert_eq!(cut.len(), parts);
            let mut at = 0;
            let (mut shortest, mut longest) = (u64::MAX, 0);
            for p in &cut {
                assert_eq!(p.next.load(Ordering::Relaxed), at, "{total} in {parts}");
                assert!(p.end >= at);
                shortest = shortest.min(p.end - at);
                longest = longest.max(p.end - at);
                at = p.end;
            }
            assert_eq!(at, total, "{total} in {parts}");
            assert!(longest - shortest <= 1, "{total} in {parts}");
        }
        assert_eq!(Part::cut(10, 0).len(), 1);
    }
}
