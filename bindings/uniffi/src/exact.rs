//! `skirmish_sim::exact` for apps: a small fight's exact outcome (each
//! side's win, a draw, a fight that never ends). Conversion only.

use skirmish_sim::exact::{self as sim, Arithmetic, ExactError, ExactOptions};

use crate::balance::{FieldSetting, ScenarioSource};
use crate::error::{Result, SkirmishError, guard};

/// What to solve, and how far to go (`skirmish_sim::exact::ExactOptions`).
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct ExactQuery {
    /// The scenario.
    pub scenario: ScenarioSource,
    /// Fields set on it first, in order.
    pub set: Vec<FieldSetting>,
    /// A fight with more states is refused; `None`: 20,000.
    pub max_states: Option<u64>,
    /// Past this many states the chances are floats with an error bound;
    /// `None`: 1,000.
    pub max_exact_states: Option<u64>,
}

/// One chance: its value, and the exact fraction (`"50/131"`) when the
/// fight was solved in fractions.
#[derive(Debug, Clone, PartialEq, uniffi::Record)]
pub struct ExactChance {
    /// The chance (the nearest double to the fraction, if any).
    pub value: f64,
    /// The fraction in lowest terms, or `None` when solved in floats.
    pub fraction: Option<String>,
}

/// A side's chance to win.
#[derive(Debug, Clone, PartialEq, uniffi::Record)]
pub struct ExactWin {
    /// The side's name.
    pub side: String,
    /// Its chance to win.
    pub chance: ExactChance,
}

/// The exact outcome of a fight.
#[derive(Debug, Clone, PartialEq, uniffi::Record)]
pub struct ExactResult {
    /// Each side's chance to win, in the scenario's order.
    pub wins: Vec<ExactWin>,
    /// The chance that the last fighters of every side fall at once.
    pub draw: ExactChance,
    /// The chance that the fight never ends (nobody can hurt anybody).
    pub never_ends: ExactChance,
    /// States of the chain.
    pub states: u64,
    /// Whether the chances are exact fractions.
    pub exact: bool,
    /// The most a chance's value may be off (0 for fractions).
    pub error_bound: f64,
}

fn chance(c: sim::ExactChance) -> ExactChance {
    ExactChance {
        value: c.value,
        fraction: c.fraction,
    }
}

impl SkirmishError {
    /// The exact engine's refusal: what it does not model, or a fight too
    /// big, is `InvalidInput` naming the field (sample that fight instead);
    /// a scenario that is no battle as the battle engine's error.
    pub fn from_exact(e: ExactError) -> SkirmishError {
        let message = e.to_string();
        match e {
            ExactError::Unsupported { field, .. } => SkirmishError::InvalidInput { field, message },
            ExactError::TooManyStates { .. } => SkirmishError::InvalidInput {
                field: "max_states".to_owned(),
                message,
            },
            ExactError::TooManyOutcomes { .. }
            | ExactError::TooMuchWork { .. }
            | ExactError::TooManyFighters { .. } => SkirmishError::InvalidInput {
                field: "scenario".to_owned(),
                message,
            },
            ExactError::Sim(e) => SkirmishError::from_sim(e),
            _ => SkirmishError::NotNow { message },
        }
    }
}

/// A state budget of 1 or more, as a `usize`.
fn budget(field: &str, value: Option<u64>, default: usize) -> Result<usize> {
    match value {
        None => Ok(default),
        Some(n) => usize::try_from(n)
            .ok()
            .filter(|&n| n > 0)
            .ok_or_else(|| SkirmishError::InvalidInput {
                field: field.to_owned(),
                message: format!("{field}: {n} is not a state count of 1 or more"),
            }),
    }
}

/// Solves `query.scenario` exactly (see `skirmish_sim::exact`): no battle
/// is sampled. Fractions up to the exact budget, doubles with an error
/// bound beyond; a fight the engine does not model, or too big, is
/// refused. Call it off the main thread for anything past a duel.
#[uniffi::export]
pub fn exact(query: ExactQuery) -> Result<ExactResult> {
    guard(|| {
        let scenario = query.scenario.load(&query.set)?;
        let options = ExactOptions {
            max_states: budget("max_states", query.max_states, sim::DEFAULT_MAX_STATES)?,
            max_exact_states: budget(
                "max_exact_states",
                query.max_exact_states,
                sim::DEFAULT_MAX_EXACT_STATES,
            )?,
            arithmetic: Arithmetic::Auto,
            ..ExactOptions::default()
        };
        let odds = sim::solve(&scenario, &options).map_err(SkirmishError::from_exact)?;
        Ok(ExactResult {
            wins: odds
                .sides
                .into_iter()
                .zip(odds.wins)
                .map(|(side, c)| ExactWin {
                    side,
                    chance: chance(c),
                })
                .collect(),
            draw: chance(odds.draw),
            never_ends: chance(odds.never_ends),
            states: odds.states as u64,
            exact: odds.exact,
            error_bound: odds.error_bound,
        })
    })
}
