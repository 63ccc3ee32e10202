//! The battle and sweep benches' input: the built-in parity battle (the
//! peers' battle, benches/peers) at any size, as `skirmish bench parity` fights it, a
//! fixed batch of its battles per timed iteration, and the sweep spec.

use skirmish_sim::SimError;
use skirmish_sim::battle::{Battle, Workspace};
use skirmish_sim::scenario::Scenario;
use skirmish_sim::sweep::{Axis, SweepSpec};

/// Fighters per side of the battle benches (2x10, 2x1,000, 2x100,000).
pub const SIZES: [u64; 3] = [10, 1_000, 100_000];

/// The master seed of every bench battle (as `skirmish bench parity`).
pub const SEED: u64 = 1;

/// The built-in `parity` scenario with `n` fighters per side and the peer
/// contract's cap of 100,000 ticks, ready to fight.
///
/// # Errors
/// A count the engine cannot field.
pub fn parity(n: u64) -> Result<Battle, SimError> {
    Battle::new(&parity_scenario(n)?)
}

/// The built-in `parity` scenario with `n` fighters per side and a cap of
/// 100,000 ticks.
///
/// # Errors
/// A count the engine cannot field.
pub fn parity_scenario(n: u64) -> Result<Scenario, SimError> {
    let n = n.to_string();
    let edit = |e: skirmish_sim::scenario::ScenarioError| SimError::Scenario(e.to_string());
    Scenario::builtin("parity")
        .and_then(|s| s.with_field("sides.A.groups.0.count", &n))
        .and_then(|s| s.with_field("sides.B.groups.0.count", &n))
        .and_then(|s| s.with_field("battle.max_ticks", "100000"))
        .map_err(edit)
}

/// Battles per timed iteration at `n` fighters per side: over half a
/// million actions each (10,000 battles at 2x10, 40 at 2x1,000; a
/// 2x100,000 battle alone is ~1.5 million). Fewer, repeated battles are
/// flattered: every iteration fights the same battles, and a branch
/// predictor that has seen a few thousand actions' dice again and again
/// learns them, and the time per action drops (measured at 2x10: 200
/// repeated battles ran markedly faster than fresh ones).
pub fn battles_per_iteration(n: u64) -> u64 {
    match n {
        0..=10 => 10_000,
        11..=1_000 => 40,
        _ => 1,
    }
}

/// One timed iteration of the battle bench: battles `0..battles` of
/// [`SEED`] at `size` fighters per side, always the same ones, so every
/// iteration does exactly `actions` actions.
#[derive(Debug)]
pub struct BattleBatch {
    /// Fighters per side.
    pub size: u64,
    /// Battles per iteration.
    pub battles: u64,
    /// Actions per iteration (counted by fighting the batch once).
    pub actions: u64,
    battle: Battle,
    ws: Workspace,
}

impl BattleBatch {
    /// The batch for `size` fighters per side, fought once to count its
    /// actions (and to grow the workspace).
    ///
    /// # Errors
    /// A count the engine cannot field.
    pub fn new(size: u64) -> Result<BattleBatch, SimError> {
        let mut batch = BattleBatch {
            size,
            battles: battles_per_iteration(size),
            actions: 0,
            battle: parity(size)?,
            ws: Workspace::default(),
        };
        batch.actions = batch.run()?;
        Ok(batch)
    }

    /// Fights the batch; returns the actions fought.
    ///
    /// # Errors
    /// None in practice (the parity battle is valid).
    pub fn run(&mut self) -> Result<u64, SimError> {
        let mut actions = 0;
        for i in 0..self.battles {
            actions += self.battle.run_summary(&mut self.ws, SEED, i)?.actions;
        }
        Ok(actions)
    }

    /// The battle.
    pub fn battle(&self) -> &Battle {
        &self.battle
    }
}

/// The sweep bench: the parity battle with A's count at 9, 10, 11 and 12
/// (four cells) x 2,500 battles, master seed [`SEED`]: 10,000 battles of
/// about 140 actions.
///
/// # Errors
/// None in practice (the built-in scenario is valid).
pub fn sweep_spec() -> Result<SweepSpec, SimError> {
    Ok(SweepSpec {
        scenario: parity_scenario(10)?,
        axes: vec![Axis::new("sides.A.groups.0.count", ["9", "10", "11", "12"])],
        battles: 2_500,
        seed: SEED,
    })
}
