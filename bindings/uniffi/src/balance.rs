//! `skirmish_sim::balance` for apps: where a side's win rate crosses a
//! target (an even fight) as one scenario field varies. Conversion only.

use skirmish_sim::balance::{self as sim, BalanceAnswer, BalanceError, BalanceOptions, BalanceSpec};
use skirmish_sim::scenario::Scenario;

use crate::error::{Result, SkirmishError, guard};

/// Where a scenario comes from.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Enum)]
pub enum ScenarioSource {
    /// A built-in scenario by name ("goblin-ambush", "parity", ...).
    Builtin {
        /// Its name.
        name: String,
    },
    /// A scenario file's TOML text.
    Toml {
        /// The text.
        text: String,
    },
    /// A scenario's JSON text.
    Json {
        /// The text.
        text: String,
    },
}

impl ScenarioSource {
    /// The scenario, with `set`'s fields set on it in order.
    pub(crate) fn load(self, set: &[FieldSetting]) -> Result<Scenario> {
        let mut scenario = match self {
            ScenarioSource::Builtin { name } => Scenario::builtin(&name)?,
            ScenarioSource::Toml { text } => Scenario::from_toml_str(&text, "")?,
            ScenarioSource::Json { text } => Scenario::from_json_str(&text, "")?,
        };
        for s in set {
            scenario = scenario.with_field(&s.path, &s.value)?;
        }
        Ok(scenario)
    }
}

/// One scenario field set before the search, as the CLI's `--set PATH=VALUE`.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct FieldSetting {
    /// The field's path, e.g. `timing`.
    pub path: String,
    /// Its value, as JSON or plain text (`simultaneous`, `12`).
    pub value: String,
}

/// What to balance (`skirmish_sim::balance::BalanceSpec`).
#[derive(Debug, Clone, PartialEq, uniffi::Record)]
pub struct BalanceQuery {
    /// The scenario.
    pub scenario: ScenarioSource,
    /// Fields set on it first, in order.
    pub set: Vec<FieldSetting>,
    /// The path of the field that varies, e.g. `sides.goblinoids.groups.0.count`.
    pub field: String,
    /// The range's low end.
    pub low: f64,
    /// The range's high end.
    pub high: f64,
    /// The win rate sought, strictly between 0 and 1 (0.5: an even fight).
    pub target: f64,
    /// The side whose win rate is read; `None`: the first.
    pub side: Option<String>,
    /// The master seed.
    pub seed: u64,
    /// Battles first fought at each value.
    pub battles: u64,
    /// The most battles fought at one value.
    pub max_battles: u64,
    /// A real-valued field: stop when the bracket is this narrow; `None`:
    /// a thousandth of the range.
    pub tolerance: Option<f64>,
    /// Exact chances or sampled battles.
    pub method: BalanceMethod,
}

/// How a search reads a value's win rate (`skirmish_sim::balance::BalanceMethod`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, uniffi::Enum)]
pub enum BalanceMethod {
    /// Exactly when the exact engine solves the fight at every value,
    /// else by sampled battles.
    Auto,
    /// Exactly, or an error naming what the exact engine refuses.
    Exact,
    /// Sampled battles only.
    Sampled,
}

impl BalanceMethod {
    fn of(m: sim::BalanceMethod) -> BalanceMethod {
        match m {
            sim::BalanceMethod::Exact => BalanceMethod::Exact,
            sim::BalanceMethod::Sampled => BalanceMethod::Sampled,
            sim::BalanceMethod::Auto => BalanceMethod::Auto,
        }
    }

    fn to_sim(self) -> sim::BalanceMethod {
        match self {
            BalanceMethod::Auto => sim::BalanceMethod::Auto,
            BalanceMethod::Exact => sim::BalanceMethod::Exact,
            BalanceMethod::Sampled => sim::BalanceMethod::Sampled,
        }
    }
}

/// One value the search fought.
#[derive(Debug, Clone, PartialEq, uniffi::Record)]
pub struct BalancePoint {
    /// The field's value.
    pub value: f64,
    /// Battles fought at it (0 when its win rate is exact).
    pub battles: u64,
    /// Battles the side won.
    pub wins: u64,
    /// `wins / battles`, or the exact chance.
    pub win_rate: f64,
    /// The lower bound of the 95% interval (an exact chance: itself, less
    /// its error bound).
    pub low: f64,
    /// The upper bound of the 95% interval.
    pub high: f64,
    /// `"below"`, `"above"` or `"undecided"` (against the target).
    pub verdict: String,
    /// Whether the win rate is the exact engine's chance.
    pub exact: bool,
    /// The exact chance as a fraction in lowest terms (`"50/131"`), when
    /// solved in fractions.
    pub fraction: Option<String>,
}

/// What the search found: `below`/`above` (adjacent values, or within the
/// tolerance, told apart at 95%), or `at` (a value that could not be told
/// from the target in `max_battles` battles).
#[derive(Debug, Clone, PartialEq, uniffi::Record)]
pub struct BalanceResult {
    /// The side whose win rate was read.
    pub side: String,
    /// The value whose win rate is below the target.
    pub below: Option<f64>,
    /// The value whose win rate is above the target.
    pub above: Option<f64>,
    /// The value that could not be told from the target.
    pub at: Option<f64>,
    /// Every value fought, in the order fought.
    pub points: Vec<BalancePoint>,
    /// Why the search stopped.
    pub stopped: String,
    /// How the win rates were read: `Exact` or `Sampled`.
    pub method: BalanceMethod,
    /// Why an `Auto` search sampled: the exact engine's refusal.
    pub not_exact: Option<String>,
}

fn point(p: sim::BalancePoint) -> BalancePoint {
    BalancePoint {
        value: p.value,
        battles: p.battles,
        wins: p.wins,
        win_rate: p.win_rate,
        low: p.low,
        high: p.high,
        verdict: p.verdict.name().to_owned(),
        exact: p.exact,
        fraction: p.fraction,
    }
}

impl SkirmishError {
    /// A search's refusal: an argument, the field or a range with no
    /// crossing is `InvalidInput` naming it; the scenario's and a battle's
    /// errors as theirs.
    pub fn from_balance(e: BalanceError) -> SkirmishError {
        let message = e.to_string();
        match e {
            BalanceError::Invalid { field, .. } => SkirmishError::InvalidInput { field, message },
            BalanceError::NotNumeric { .. } => SkirmishError::InvalidInput {
                field: "field".to_owned(),
                message,
            },
            BalanceError::NoCrossing { .. } => SkirmishError::InvalidInput {
                field: "between".to_owned(),
                message,
            },
            BalanceError::Scenario(e) => SkirmishError::from_scenario(*e),
            BalanceError::Battle { source, .. } => SkirmishError::from_sim(*source),
            BalanceError::Exact { .. } => SkirmishError::InvalidInput {
                field: "method".to_owned(),
                message,
            },
            _ => SkirmishError::NotNow { message },
        }
    }
}

/// Finds where `query.side`'s win rate crosses `query.target` as
/// `query.field` varies from `low` to `high` (see
/// `skirmish_sim::balance`): the values fought and the answer. It fights
/// battles on every core and returns when done: call it off the main
/// thread.
#[uniffi::export]
pub fn balance(query: BalanceQuery) -> Result<BalanceResult> {
    guard(|| {
        let scenario = query.scenario.load(&query.set)?;
        let spec = BalanceSpec {
            scenario,
            field: query.field,
            between: (query.low, query.high),
            target: query.target,
            side: query.side,
            seed: query.seed,
            battles: query.battles,
            max_battles: query.max_battles,
            tolerance: query.tolerance,
            method: query.method.to_sim(),
        };
        let found = sim::balance(&spec, &BalanceOptions::default()).map_err(SkirmishError::from_balance)?;
        let (below, above, at) = match found.answer {
            BalanceAnswer::Between { below, above } => (Some(below), Some(above), None),
            BalanceAnswer::At { value } => (None, None, Some(value)),
        };
        Ok(BalanceResult {
            side: found.side,
            below,
            above,
            at,
            points: found.points.into_iter().map(point).collect(),
            stopped: found.stopped,
            method: BalanceMethod::of(found.method),
            not_exact: found.not_exact,
        })
    })
}
