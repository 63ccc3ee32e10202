//! Exact outcomes of small fights, no sampling: the chance of each side's
//! win, of a draw (all fall at once) and of a fight that never ends,
//! computed from the rules as fractions (docs/rules.md §7).
//!
//! The fight is a Markov chain. Its state is what the rules remember
//! between exchanges: each fighter's damage (a wound track or hit points,
//! or down), with `most_wounded` targeting the damage each has taken and
//! with `least_engaged` whom each engages; under Continuous timing, each
//! fighter's ticks until its next action (`moment::State::timing`, empty
//! for the systems whose steps begin afresh). One exchange of Simultaneous
//! Combat (every fighter standing strikes, the hits land together) moves
//! it: every pick of a random foe (each as likely), every Strike roll
//! (4dF, by its count of the 81), through the core's own blow and damage
//! functions (`combat::full_contact_blow`, the damage model's `apply`),
//! merged by the state they lead to. The chain is solved exactly, cycles
//! included (`chain.rs`): no truncation, no dice sequence replayed.
//!
//! What it models now: Simultaneous Combat, Simple Rounds with one
//! action a round each (a round is one step of the chain: every order of
//! initiative, by its count of the rolls, its moments struck in turn;
//! `rounds.rs`), Graduated Rounds (a round a step, swept moment by
//! moment with every initiative and Ready Time by its count;
//! `graduated.rs`), Continuous timing (the state carries each
//! fighter's ticks to its next action, a step is the next moment;
//! `continuous.rs`), and the systems whose round is laid out by its rolls
//! alone, a step of the chain again a round: Simple Rounds with a whole
//! number of actions a round, the Tick System (`tick.rs`) and Action
//! Blocks (every joint roll's schedule of moments, identical ones merged,
//! struck down their common prefixes; `schedule.rs`); Full Contact striking (its
//! guaranteed-success and amazing-strike options, the amazing defense that
//! does nothing more) with any number of sides and every targeting policy;
//! FUDGE opposed striking under every timing system with any number of
//! fighters (the battle's exchanges both ways, counted by round under the
//! round systems; 4.31's tactics but scouting, NPC results, the group roll,
//! FUDGE 4.34's lone fighter with its sweeping blow; no plus-levels or
//! postures; `fudge.rs`); both damage models. Anything
//! else is an [`ExactError::Unsupported`] naming the field: an honest
//! refusal, never an answer to other rules.
//!
//! ```
//! use skirmish_sim::exact::{solve, ExactOptions};
//! use skirmish_sim::scenario::Scenario;
//!
//! // Two fighters with one hit point each, SR 5 against DR 5: each hits
//! // on a roll above 0, 31 of the 81.
//! let duel: Scenario = toml::from_str(r#"
//!     name = "duel"
//!     timing = "simultaneous"
//!     damage = { model = "hit_points", max_hp = 1 }
//!     [[sides]]
//!     name = "A"
//!     groups = [{ name = "a", strike_rating = 5, defense_rating = 5 }]
//!     [[sides]]
//!     name = "B"
//!     groups = [{ name = "b", strike_rating = 5, defense_rating = 5 }]
//! "#).unwrap();
//! let odds = solve(&duel, &ExactOptions::default())?;
//! // A wins at the first exchange where anyone hits if A hits and B
//! // misses: (31 x 50) / (81^2 - 50^2) = 1550/4061 = 50/131; both hit:
//! // 961/4061 = 31/131.
//! assert_eq!(odds.wins[0].fraction.as_deref(), Some("50/131"));
//! assert_eq!(odds.wins[1].fraction.as_deref(), Some("50/131"));
//! assert_eq!(odds.draw.fraction.as_deref(), Some("31/131"));
//! assert_eq!(odds.never_ends.fraction.as_deref(), Some("0"));
//! # Ok::<(), skirmish_sim::exact::ExactError>(())
//! ```

mod chain;
mod continuous;
mod encounter;
mod error;
mod fudge;
mod graduated;
mod moment;
mod number;
mod rounds;
mod schedule;
mod setup;
mod tick;

pub use encounter::solve_encounter;
pub use error::ExactError;

use serde::Serialize;

use crate::scenario::Scenario;
use chain::Chain;
use number::{Chances, Floats, Fractions, ratio_to_f64};
use setup::Fight;

/// The most states [`ExactOptions::default`] allows: about half a minute
/// of building at the slowest measured (docs/performance.md).
pub const DEFAULT_MAX_STATES: usize = 20_000;

/// The most states [`ExactOptions::default`] solves in exact fractions
/// (about a second at most, measured: their digits grow with the chain);
/// past it, in `f64` with an error bound ([`Arithmetic::Auto`]).
pub const DEFAULT_MAX_EXACT_STATES: usize = 1_000;

/// The most distinct outcomes of one exchange [`ExactOptions::default`]
/// enumerates before refusing the fight
/// ([`ExactError::TooManyOutcomes`]): about 2^18 combinations of blows,
/// tens of megabytes, where one more fighter would multiply them again.
pub const DEFAULT_MAX_OUTCOMES: usize = 1 << 18;

/// The outcome budget of [`ExactOptions::automatic`]: the attempts made
/// without being asked (odds from here, `balance`'s `Auto`) refuse a fight
/// of eight fighters in about a twentieth of the time the default takes
/// (docs/rules.md §7), and every fight of up to four the tests solve
/// still fits.
pub const AUTOMATIC_MAX_OUTCOMES: usize = 1 << 14;

/// The most moments an automatic attempt strikes while solving
/// ([`ExactOptions::automatic`]): about a second of a release build for
/// the slowest fights measured, where a round system's two against two
/// can take minutes (docs/performance.md). A count, never a time: the
/// same call takes the same path on every machine.
pub const AUTOMATIC_MAX_MOMENTS: u64 = 1_000_000;

/// The most fighters standing that an automatic attempt
/// ([`ExactOptions::automatic`]) takes on: a fight of more is refused at
/// once ([`ExactError::TooManyFighters`]), before a state is built. The
/// exchanges of seven or more fighters pass the automatic outcome budget
/// (the goblin ambush's eight took a twentieth of a second to find it
/// out, under every timing system, at every orc count `balance` tried);
/// every fight of up to four the tests solve, and three against three
/// of a few hit points, still fit. A count, never a time.
pub const AUTOMATIC_MAX_FIGHTERS: usize = 6;

/// Which numbers the chain is solved in.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Arithmetic {
    /// Exact fractions up to [`ExactOptions::max_exact_states`] states,
    /// `f64` beyond.
    #[default]
    Auto,
    /// Exact fractions, whatever the size (slow for big chains).
    Fractions,
    /// `f64`, with an error bound.
    Float,
}

/// How far the exact engine goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ExactOptions {
    /// A fight with more states is refused ([`ExactError::TooManyStates`]).
    pub max_states: usize,
    /// Under [`Arithmetic::Auto`], a fight with more states is solved in
    /// `f64`.
    pub max_exact_states: usize,
    /// Which numbers to solve in.
    pub arithmetic: Arithmetic,
    /// A fight one of whose exchanges has more distinct outcomes is
    /// refused ([`ExactError::TooManyOutcomes`]); it bounds memory, and the
    /// time a refusal takes.
    pub max_outcomes: usize,
    /// A fight whose solving strikes more moments (each moment of each
    /// round's schedule from each state) is refused
    /// ([`ExactError::TooMuchWork`]); `u64::MAX`, the default: no limit
    /// but the others.
    pub max_moments: u64,
    /// A fight of more fighters standing is refused at once
    /// ([`ExactError::TooManyFighters`]); `usize::MAX`, the default: no
    /// limit but the others.
    pub max_fighters: usize,
}

impl ExactOptions {
    /// The options of an attempt made without being asked (odds from
    /// here, `balance`'s `Auto`): the default budgets but
    /// [`AUTOMATIC_MAX_OUTCOMES`], so that a fight too big is refused
    /// quickly and sampled.
    pub fn automatic() -> ExactOptions {
        ExactOptions {
            max_outcomes: AUTOMATIC_MAX_OUTCOMES,
            max_moments: AUTOMATIC_MAX_MOMENTS,
            max_fighters: AUTOMATIC_MAX_FIGHTERS,
            ..ExactOptions::default()
        }
    }
}

impl Default for ExactOptions {
    fn default() -> Self {
        ExactOptions {
            max_states: DEFAULT_MAX_STATES,
            max_exact_states: DEFAULT_MAX_EXACT_STATES,
            arithmetic: Arithmetic::Auto,
            max_outcomes: DEFAULT_MAX_OUTCOMES,
            max_moments: u64::MAX,
            max_fighters: usize::MAX,
        }
    }
}

/// One chance the exact engine computed.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ExactChance {
    /// Its value (the nearest float to the fraction, when there is one).
    pub value: f64,
    /// The exact fraction in lowest terms (`"1550/4061"`, `"0"`, `"1"`),
    /// when solved in fractions.
    pub fraction: Option<String>,
}

impl ExactChance {
    /// The chances of `solved`, with their fractions if exact.
    fn all<N: Chances>(solved: &N, exact: bool) -> Vec<ExactChance> {
        if !exact {
            return solved
                .values()
                .into_iter()
                .map(|value| ExactChance { value, fraction: None })
                .collect();
        }
        solved
            .to_ratios()
            .iter()
            .map(|r| ExactChance {
                value: ratio_to_f64(r),
                fraction: Some(if r.is_integer() {
                    r.numer().to_string()
                } else {
                    format!("{}/{}", r.numer(), r.denom())
                }),
            })
            .collect()
    }
}

/// The exact outcome of a fight.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ExactOdds {
    /// The sides' names.
    pub sides: Vec<String>,
    /// Each side's chance to win (all its foes down, it not), in side
    /// order.
    pub wins: Vec<ExactChance>,
    /// The chance that the last fighters of every side fall at the same
    /// exchange.
    pub draw: ExactChance,
    /// The chance that the fight never ends (it reaches a state where no
    /// blow can change anything: nobody can hurt anybody). The battle
    /// engine reports such a fight as a timeout at its limits.
    pub never_ends: ExactChance,
    /// States of the chain (states the fight can be in between exchanges,
    /// endings aside).
    pub states: usize,
    /// Transitions between them (and to the endings).
    pub transitions: usize,
    /// Whether the chances are exact fractions (else `f64`).
    pub exact: bool,
    /// The most any chance's `value` may be off: 0 for fractions (their
    /// float is the nearest), a bound for `f64`.
    pub error_bound: f64,
}

/// Solves `scenario` exactly (see the module docs).
///
/// # Errors
/// [`ExactError::Unsupported`] for a rule or option not modelled (the
/// field named), [`ExactError::TooManyStates`] /
/// [`ExactError::TooManyOutcomes`] for a fight too big, [`ExactError::Sim`]
/// for a scenario that is no battle.
pub fn solve(scenario: &Scenario, options: &ExactOptions) -> Result<ExactOdds, ExactError> {
    let mut fight = Fight::of(scenario)?;
    fight.limit(options, fight.fighters.len())?;
    let chain = Chain::build(&fight, options.max_states)?;
    Ok(answer(&fight, &chain, options))
}

/// The chances of `chain`, solved in the numbers `options` asks for.
fn answer(fight: &Fight, chain: &Chain, options: &ExactOptions) -> ExactOdds {
    let exact = match options.arithmetic {
        Arithmetic::Fractions => true,
        Arithmetic::Float => false,
        Arithmetic::Auto => chain.states() <= options.max_exact_states,
    };
    let (chances, error_bound) = if exact {
        (ExactChance::all(&chain.solve::<Fractions>().chances, true), 0.0)
    } else {
        let solved = chain.solve::<Floats>();
        (ExactChance::all(&solved.chances, false), solved.error_bound)
    };
    let sides = fight.sides.len();
    let mut chances = chances.into_iter();
    let wins: Vec<ExactChance> = chances.by_ref().take(sides).collect();
    let mut rest = chances;
    let missing = || ExactChance {
        value: 0.0,
        fraction: None,
    };
    ExactOdds {
        sides: fight.sides.clone(),
        wins,
        draw: rest.next().unwrap_or_else(missing),
        never_ends: rest.next().unwrap_or_else(missing),
        states: chain.states(),
        transitions: chain.transitions(),
        exact,
        error_bound,
    }
}
