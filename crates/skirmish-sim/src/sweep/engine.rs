//! The battle engine plugged into a sweep: [`sweep`] runs [`run_sweep`]
//! with the real field setter and each worker thread's prepared battle
//! (the cell's resolved scenario and a workspace, kept from battle to
//! battle), and [`engine_battle`] is that battle for other drivers.

use std::sync::atomic::{AtomicU64, Ordering};

use super::{SweepError, SweepOptions, SweepSpec, SweepTable, run_sweep};
use crate::report::BattleSummary;
use crate::scenario::Scenario;

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
            // Another scenario: its battle, in the workspace the thread
            // has (a workspace serves any battle; a new one is page faults
            // on its rings in every cell).
            Some(mut p) => {
                p.battle = crate::battle::Battle::new(scenario)?;
                p.scenario.clone_from(scenario);
                p.cell = cell;
                p
            }
            None => prepare(cell, scenario)?,
        };
        let summary = prepared.battle.run_summary(&mut prepared.ws, seed, index);
        *slot.borrow_mut() = Some(prepared);
        summary
    })
}

/// A new prepared battle of `scenario` for `cell`. Out of line: a new
/// workspace is built on the stack (its rings are arrays of a thousand
/// buckets), and a frame that could hold it was probed page by page on
/// every battle: more stack written per battle than the L1 cache holds,
/// whose contents the battle then fetched again.
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
    let table = run_sweep(
        spec,
        |s: &Scenario, path: &str, value: &str| s.with_field(path, value),
        |s: &Scenario, seed: u64, index: u64| prepared_battle(Some(id), s, seed, index),
        options,
    );
    // The calling thread may have been one of the workers: it does not
    // keep this sweep's last battle (its workspace may be large) after the
    // sweep.
    PREPARED.with(|slot| {
        let mut slot = slot.borrow_mut();
        if slot
            .as_ref()
            .is_some_and(|p| p.cell.is_some_and(|(sweep, _)| sweep == id))
        {
            *slot = None;
        }
    });
    table
}
