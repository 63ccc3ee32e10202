//! The battle benches' input: the built-in parity battle (issue 4's peer
//! battle) at any size, as `skirmish bench parity` fights it.

use skirmish_sim::SimError;
use skirmish_sim::battle::Battle;
use skirmish_sim::scenario::Scenario;

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
