//! Balance: where does a side's win rate cross a target (an even fight,
//! by default) as one scenario field varies? "How many orcs make this
//! fight even?" in one call, instead of a grid read by eye.
//!
//! # Exactly, when the fight fits
//!
//! By default ([`BalanceMethod::Auto`]) each value's win rate is first
//! asked of the exact engine ([`crate::exact`], docs/rules.md §7): a fight
//! it models within its default budget gets the exact chance, no battle
//! fought, and its verdict is exact (below, above, or exactly the target).
//! The search then bisects on exact values. When the exact engine refuses
//! the fight at any value fought (a rule it does not model, too many
//! states), the search starts again by sampling, and says why
//! ([`Balance::not_exact`]). [`BalanceMethod::Exact`] makes that refusal
//! an error; [`BalanceMethod::Sampled`] never asks.
//!
//! # How it searches by sampling
//!
//! [`balance`] fights battles at the two ends of the range, then bisects:
//! at each value it fights a first batch of battles and keeps adding
//! batches (doubling the total) until the value's 95% Wilson interval of
//! the side's win rate lies wholly below or wholly above the target, or
//! `max_battles` is reached. Then:
//!
//! - the two ends decided on the same side of the target: there is no
//!   crossing in the range ([`BalanceError::NoCrossing`]);
//! - a value still undecided after `max_battles`: the crossing is at it,
//!   as far as that many battles can tell ([`BalanceAnswer::At`]);
//! - otherwise the range halves towards the crossing until the two values
//!   that bracket it are adjacent (an integer field: a count, a rating, a
//!   Time Taken) or closer than the tolerance (a real-valued field), each
//!   decided at 95% on its side ([`BalanceAnswer::Between`]).
//!
//! Battle `i` at every value is battle `i` of the same master seed (common
//! random numbers, as a sweep's cells), so the values differ by their
//! rules, not their dice, and the same call gives the same answer, the
//! same points and the same battle counts on any number of threads.
//!
//! The search assumes the win rate moves one way over the range (more
//! orcs, fewer party wins); with several crossings it finds one of them.
//! Each value's interval is the usual 95% one at the moment it is read,
//! not corrected for the looks taken while battles were added: read a
//! value decided near its first batch with that in mind, or raise
//! `battles`.
//!
//! # Bounds
//!
//! At most `max_battles` battles a value, and at most
//! [`MAX_STEPS`] values (an integer range halves in at most 63 steps; a
//! real-valued one is refused a tolerance that would need more), so a
//! call ends; the cancellation flag stops it between batches with the
//! values fought so far ([`BalanceError::Interrupted`]).
//!
//! # Example
//!
//! ```
//! use skirmish_sim::balance::{balance, BalanceAnswer, BalanceOptions, BalanceSpec};
//! use skirmish_sim::scenario::Scenario;
//!
//! // Side A of the parity battle (10 fighters against 10) grows from 5 to
//! // 15: where does it start winning half its battles?
//! let spec = BalanceSpec::new(Scenario::builtin("parity")?, "sides.A.groups.0.count", 5.0, 15.0);
//! let found = balance(&spec, &BalanceOptions::default())?;
//! match found.answer {
//!     BalanceAnswer::Between { below, above } => assert_eq!(above - below, 1.0),
//!     BalanceAnswer::At { value } => assert!((5.0..=15.0).contains(&value)),
//! }
//! assert!(found.points.len() >= 2);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::battle::{Battle, Workspace};
use crate::error::SimError;
use crate::exact::ExactError;
use crate::report::Outcome;
use crate::scenario::{Scenario, ScenarioError};
use crate::stats::wilson;

mod exact;

/// The most battles one value may be given.
pub const MAX_BATTLES: u64 = 1_000_000_000;

/// The most values one search fights.
pub const MAX_STEPS: usize = 64;

/// Battles a worker takes at a time.
const CHUNK: u64 = 64;

/// What to balance: a scenario, the field that varies over a range, and
/// the side whose win rate should meet the target.
#[derive(Debug, Clone, PartialEq)]
pub struct BalanceSpec {
    /// The scenario, every other field as it is.
    pub scenario: Scenario,
    /// The path of the field that varies (as a sweep's, e.g.
    /// `sides.goblinoids.groups.0.count`).
    pub field: String,
    /// The range's ends, `low < high` (whole numbers for an integer field).
    pub between: (f64, f64),
    /// The win rate sought, in `(0, 1)`: 0.5 is an even fight.
    pub target: f64,
    /// The side whose win rate is read (a name, ignoring case); `None`:
    /// the scenario's first side.
    pub side: Option<String>,
    /// The master seed.
    pub seed: u64,
    /// Battles first fought at each value, `1..=max_battles`.
    pub battles: u64,
    /// The most battles fought at one value, `battles..=`[`MAX_BATTLES`].
    pub max_battles: u64,
    /// A real-valued field: the search stops when the bracket is no wider
    /// than this; `None`: a thousandth of the range. Not read for an
    /// integer field.
    pub tolerance: Option<f64>,
    /// Exact chances or sampled battles (see the [module docs](self)).
    pub method: BalanceMethod,
}

/// How a search reads a value's win rate.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BalanceMethod {
    /// Exactly when the exact engine solves the fight at every value
    /// fought, else by sampling battles.
    #[default]
    Auto,
    /// Exactly, or [`BalanceError::Exact`].
    Exact,
    /// By sampling battles only.
    Sampled,
}

impl BalanceMethod {
    /// The method's name, as the CLI and the bindings write it.
    pub fn name(self) -> &'static str {
        match self {
            BalanceMethod::Auto => "auto",
            BalanceMethod::Exact => "exact",
            BalanceMethod::Sampled => "sampled",
        }
    }

    /// The method named `name` (`auto`, `exact`, `sampled`).
    pub fn by_name(name: &str) -> Option<BalanceMethod> {
        match name {
            "auto" => Some(BalanceMethod::Auto),
            "exact" => Some(BalanceMethod::Exact),
            "sampled" => Some(BalanceMethod::Sampled),
            _ => None,
        }
    }
}

impl BalanceSpec {
    /// The spec for an even fight of the first side, with the defaults:
    /// seed 1, 250 battles first, at most 16,000 at a value.
    pub fn new(scenario: Scenario, field: impl Into<String>, low: f64, high: f64) -> BalanceSpec {
        BalanceSpec {
            scenario,
            field: field.into(),
            between: (low, high),
            target: 0.5,
            side: None,
            seed: 1,
            battles: 250,
            max_battles: 16_000,
            tolerance: None,
            method: BalanceMethod::Auto,
        }
    }
}

/// How to run a search: threads and a way to stop it.
#[derive(Debug, Clone, Default)]
pub struct BalanceOptions {
    /// Worker threads; `None` or 0: one per core.
    pub threads: Option<usize>,
    /// Set to stop between batches ([`BalanceError::Interrupted`]).
    pub cancel: Option<Arc<AtomicBool>>,
}

/// The kind of number the field holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FieldKind {
    /// A whole number (a count, a rating, a Time Taken): values are
    /// integers and the search ends on two adjacent ones.
    Integer,
    /// A real number: the search ends on a bracket as narrow as the
    /// tolerance.
    Real,
}

/// Where a value's win rate stands against the target.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// Its whole 95% interval is below the target.
    Below,
    /// Its whole 95% interval is above the target.
    Above,
    /// Its 95% interval holds the target.
    Undecided,
}

impl Verdict {
    /// The verdict's name, as the CSV and the frames write it.
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Below => "below",
            Verdict::Above => "above",
            Verdict::Undecided => "undecided",
        }
    }
}

/// One value the search fought.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BalancePoint {
    /// The field's value.
    pub value: f64,
    /// Battles fought at it (0 when its win rate is exact).
    pub battles: u64,
    /// Battles the side won.
    pub wins: u64,
    /// `wins / battles`, or the exact chance.
    pub win_rate: f64,
    /// The Wilson 95% interval of the win rate (an exact chance: the
    /// chance itself, less its error bound when solved in `f64`): its
    /// lower bound...
    pub low: f64,
    /// ...and its upper bound.
    pub high: f64,
    /// Where it stands against the target.
    pub verdict: Verdict,
    /// Whether the win rate is the exact engine's chance (else sampled).
    pub exact: bool,
    /// The exact chance as a fraction in lowest terms (`"50/131"`), when
    /// the exact engine solved the fight in fractions.
    pub fraction: Option<String>,
}

/// Where the win rate crosses the target.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum BalanceAnswer {
    /// Between two values told apart at 95%: at `below` the side wins
    /// less often than the target, at `above` more often. For an integer
    /// field they are adjacent; for a real-valued one, no further apart
    /// than the tolerance.
    Between {
        /// The value whose win rate is below the target.
        below: f64,
        /// The value whose win rate is above the target.
        above: f64,
    },
    /// At this value the win rate could not be told from the target in
    /// `max_battles` battles: as far as that many can tell, the fight is
    /// balanced there.
    At {
        /// The value.
        value: f64,
    },
}

/// What [`balance`] found.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Balance {
    /// The field that varied.
    pub field: String,
    /// Its kind of number.
    pub kind: FieldKind,
    /// The side whose win rate was read.
    pub side: String,
    /// The win rate sought.
    pub target: f64,
    /// The master seed.
    pub seed: u64,
    /// The answer.
    pub answer: BalanceAnswer,
    /// Every value fought, in the order fought (the two ends first).
    pub points: Vec<BalancePoint>,
    /// Why the search stopped, in words.
    pub stopped: String,
    /// How the win rates were read: [`BalanceMethod::Exact`] or
    /// [`BalanceMethod::Sampled`].
    pub method: BalanceMethod,
    /// Under [`BalanceMethod::Auto`], why the search sampled: the exact
    /// engine's refusal, at the value it was asked.
    pub not_exact: Option<String>,
}

impl Balance {
    /// Battles fought in all.
    pub fn battles(&self) -> u64 {
        self.points.iter().map(|p| p.battles).sum()
    }
}

/// Why a search could not give an answer.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum BalanceError {
    /// An argument of the search is out of its range (`field` names it:
    /// `target`, `between`, `side`, `battles`, `max_battles`,
    /// `tolerance`, `threads`).
    #[error("{field}: {problem}")]
    Invalid {
        /// The argument.
        field: String,
        /// What is wrong with it.
        problem: String,
    },
    /// The field does not hold a number.
    #[error("{field}: holds {value}, not a number: balance varies a count, a rating, a Time Taken or another number")]
    NotNumeric {
        /// The field's path.
        field: String,
        /// Its value, as JSON.
        value: String,
    },
    /// The scenario refused the path or a value of the range (boxed: the
    /// error stays small).
    #[error("{0}")]
    Scenario(Box<ScenarioError>),
    /// The win rate is on the same side of the target at both ends.
    #[error(
        "no crossing of {target} in {field} from {} to {}: the win rate of {side} is {} at both ends ({:.3} [{:.3}, {:.3}] and {:.3} [{:.3}, {:.3}])",
        .ends[0].value, .ends[1].value, .ends[0].verdict.name(),
        .ends[0].win_rate, .ends[0].low, .ends[0].high, .ends[1].win_rate, .ends[1].low, .ends[1].high
    )]
    NoCrossing {
        /// The field's path.
        field: String,
        /// The side.
        side: String,
        /// The win rate sought.
        target: f64,
        /// The two ends, as fought (boxed: the error stays small).
        ends: Box<[BalancePoint; 2]>,
    },
    /// A battle failed at a value.
    #[error("{field} = {value}, battle {index}: {source}")]
    Battle {
        /// The field's path.
        field: String,
        /// The value.
        value: f64,
        /// The lowest failing battle index.
        index: u64,
        /// The battle's error (boxed: the error stays small).
        #[source]
        source: Box<SimError>,
    },
    /// The cancellation flag was set: the values fought to the end so far.
    #[error("balance interrupted after {} values", .points.len())]
    Interrupted {
        /// The values fought to the end before the stop.
        points: Vec<BalancePoint>,
    },
    /// [`BalanceMethod::Exact`] was asked and the exact engine could not
    /// solve the fight at a value (boxed: the error stays small).
    #[error("{field} = {value}: {source}")]
    Exact {
        /// The field's path.
        field: String,
        /// The value.
        value: f64,
        /// The exact engine's refusal.
        #[source]
        source: Box<ExactError>,
    },
}

impl From<ScenarioError> for BalanceError {
    fn from(e: ScenarioError) -> BalanceError {
        BalanceError::Scenario(Box::new(e))
    }
}

fn invalid(field: &str, problem: impl Into<String>) -> BalanceError {
    BalanceError::Invalid {
        field: field.to_owned(),
        problem: problem.into(),
    }
}

/// Finds where the side's win rate crosses the target as the field varies
/// over the range (see the [module docs](self)).
///
/// # Errors
/// [`BalanceError::Invalid`] for an argument out of range (naming it),
/// [`BalanceError::Scenario`] for a path that names no field or a value
/// the scenario refuses, [`BalanceError::NotNumeric`] for a field that
/// holds no number, [`BalanceError::NoCrossing`] when both ends are on
/// one side of the target, [`BalanceError::Battle`] when a battle fails,
/// [`BalanceError::Interrupted`] when cancelled.
pub fn balance(spec: &BalanceSpec, options: &BalanceOptions) -> Result<Balance, BalanceError> {
    let search = Search::new(spec, options)?;
    search.run()
}

/// Where a search reads a value's win rate.
#[derive(Debug, Clone, Copy)]
enum Reader {
    /// Battles fought.
    Sampled,
    /// The exact engine.
    Exact,
}

/// A search ready to run: the arguments checked.
struct Search<'a> {
    spec: &'a BalanceSpec,
    side: usize,
    side_name: String,
    kind: FieldKind,
    tolerance: f64,
    threads: usize,
    cancel: Option<&'a AtomicBool>,
}

impl<'a> Search<'a> {
    fn new(spec: &'a BalanceSpec, options: &'a BalanceOptions) -> Result<Search<'a>, BalanceError> {
        let (low, high) = spec.between;
        if !(spec.target > 0.0 && spec.target < 1.0) {
            return Err(invalid(
                "target",
                format!("{} is not a win rate strictly between 0 and 1", spec.target),
            ));
        }
        if !low.is_finite() || !high.is_finite() || low >= high {
            return Err(invalid(
                "between",
                format!("{low} to {high} is not a range: the low end must be below the high end"),
            ));
        }
        if spec.battles == 0 || spec.battles > spec.max_battles {
            return Err(invalid(
                "battles",
                format!("{} is not from 1 to max_battles ({})", spec.battles, spec.max_battles),
            ));
        }
        if spec.max_battles > MAX_BATTLES {
            return Err(invalid(
                "max_battles",
                format!("{} is more than {MAX_BATTLES}", spec.max_battles),
            ));
        }
        let sides = &spec.scenario.sides;
        let side = match &spec.side {
            None => 0,
            Some(name) => sides
                .iter()
                .position(|s| s.name.eq_ignore_ascii_case(name))
                .ok_or_else(|| {
                    let names: Vec<&str> = sides.iter().map(|s| s.name.as_str()).collect();
                    invalid("side", format!("{name:?} names no side (sides: {})", names.join(", ")))
                })?,
        };
        let kind = field_kind(&spec.scenario, &spec.field, low, high)?;
        if kind == FieldKind::Integer {
            for end in [low, high] {
                if end.fract() != 0.0 || end.abs() > 9.0e15 {
                    return Err(invalid(
                        "between",
                        format!("{end} is not a whole number, and {} holds one", spec.field),
                    ));
                }
            }
        }
        let width = high - low;
        let tolerance = spec.tolerance.unwrap_or(width / 1000.0);
        // Each step halves the bracket: a tolerance below width / 2^40
        // would ask for more values than a search fights.
        if kind == FieldKind::Real && !(tolerance.is_finite() && tolerance > 0.0 && tolerance >= width / 2f64.powi(40))
        {
            return Err(invalid(
                "tolerance",
                format!("{tolerance} is not a width from (high - low) / 2^40 up"),
            ));
        }
        let threads = match options.threads {
            Some(n) if n > crate::sweep::MAX_THREADS => {
                return Err(invalid(
                    "threads",
                    format!("at most {}, not {n} (0 means one per core)", crate::sweep::MAX_THREADS),
                ));
            }
            Some(n) if n > 0 => n,
            _ => std::thread::available_parallelism().map_or(1, std::num::NonZero::get),
        };
        Ok(Search {
            spec,
            side,
            side_name: sides[side].name.clone(),
            kind,
            tolerance,
            threads,
            cancel: options.cancel.as_deref(),
        })
    }

    fn run(&self) -> Result<Balance, BalanceError> {
        match self.spec.method {
            BalanceMethod::Sampled => self.bisect(Reader::Sampled, None),
            BalanceMethod::Exact => self.bisect(Reader::Exact, None),
            BalanceMethod::Auto => match self.bisect(Reader::Exact, None) {
                // A scenario that is no battle at all is refused by the
                // sampler too, as a battle's error.
                Err(BalanceError::Exact { field, value, source }) => {
                    let why = format!("{field} = {value}: {source}");
                    self.bisect(Reader::Sampled, Some(why))
                }
                other => other,
            },
        }
    }

    /// The bisection, each value's win rate read by `reader`.
    fn bisect(&self, reader: Reader, not_exact: Option<String>) -> Result<Balance, BalanceError> {
        let (low, high) = self.spec.between;
        let mut points = Vec::new();
        let read = |value, points: &[BalancePoint]| match reader {
            Reader::Sampled => self.fight_at(value, points),
            Reader::Exact => self.exact_at(value, points),
        };
        let lo = read(low, &points)?;
        points.push(lo.clone());
        let hi = read(high, &points)?;
        points.push(hi.clone());
        let method = match reader {
            Reader::Sampled => BalanceMethod::Sampled,
            Reader::Exact => BalanceMethod::Exact,
        };
        let done = |answer, stopped: String, points| {
            Ok(Balance {
                field: self.spec.field.clone(),
                kind: self.kind,
                side: self.side_name.clone(),
                target: self.spec.target,
                seed: self.spec.seed,
                answer,
                points,
                stopped,
                method,
                not_exact: not_exact.clone(),
            })
        };
        for end in [&lo, &hi] {
            if end.verdict == Verdict::Undecided {
                let why = self.undecided(end);
                return done(BalanceAnswer::At { value: end.value }, why, points);
            }
        }
        if lo.verdict == hi.verdict {
            return Err(BalanceError::NoCrossing {
                field: self.spec.field.clone(),
                side: self.side_name.clone(),
                target: self.spec.target,
                ends: Box::new([lo, hi]),
            });
        }
        let (mut a, mut b) = (lo, hi);
        loop {
            let mid = match self.kind {
                FieldKind::Integer if b.value - a.value <= 1.0 => None,
                FieldKind::Integer => Some(((a.value + b.value) / 2.0).floor()),
                FieldKind::Real if b.value - a.value <= self.tolerance => None,
                FieldKind::Real => Some(a.value + (b.value - a.value) / 2.0),
            };
            let Some(mid) = mid.filter(|_| points.len() < MAX_STEPS) else {
                let (below, above) = if a.verdict == Verdict::Below { (a, b) } else { (b, a) };
                let why = match self.kind {
                    _ if below.exact => exact::told_apart(&below, &above, self.spec.target),
                    FieldKind::Integer => format!(
                        "{} and {} are adjacent and told apart at 95%: {:.3} [{:.3}, {:.3}] below {} and {:.3} [{:.3}, {:.3}] above",
                        below.value,
                        above.value,
                        below.win_rate,
                        below.low,
                        below.high,
                        self.spec.target,
                        above.win_rate,
                        above.low,
                        above.high
                    ),
                    FieldKind::Real => format!(
                        "{} and {} are within the tolerance {} and told apart at 95%",
                        below.value, above.value, self.tolerance
                    ),
                };
                let answer = BalanceAnswer::Between {
                    below: below.value,
                    above: above.value,
                };
                return done(answer, why, points);
            };
            let m = read(mid, &points)?;
            points.push(m.clone());
            if m.verdict == Verdict::Undecided {
                let why = self.undecided(&m);
                return done(BalanceAnswer::At { value: m.value }, why, points);
            }
            if m.verdict == a.verdict {
                a = m;
            } else {
                b = m;
            }
        }
    }

    fn undecided(&self, p: &BalancePoint) -> String {
        if p.exact {
            return exact::at_target(p, self.spec.target);
        }
        format!(
            "at {} the win rate {:.3} [{:.3}, {:.3}] still holds {} after {} battles (max_battles)",
            p.value, p.win_rate, p.low, p.high, self.spec.target, p.battles
        )
    }

    /// The scenario with the field at `value`.
    fn scenario_at(&self, value: f64) -> Result<Scenario, BalanceError> {
        let json = match self.kind {
            // Whole and within 9e15 (checked, and every midpoint is
            // between the ends): exact as an i64.
            FieldKind::Integer => Value::from(value as i64),
            FieldKind::Real => Value::from(value),
        };
        Ok(self.spec.scenario.with_field_value(&self.spec.field, json)?)
    }

    /// Fights at `value` until its verdict is decided or `max_battles`.
    fn fight_at(&self, value: f64, done: &[BalancePoint]) -> Result<BalancePoint, BalanceError> {
        let scenario = self.scenario_at(value)?;
        let battle = Battle::new(&scenario).map_err(|source| BalanceError::Battle {
            field: self.spec.field.clone(),
            value,
            index: 0,
            source: Box::new(source),
        })?;
        let (mut battles, mut wins) = (0u64, 0u64);
        let mut next = self.spec.battles;
        loop {
            if self.cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
                return Err(BalanceError::Interrupted { points: done.to_vec() });
            }
            wins += self.fight(&battle, value, battles..next, done)?;
            battles = next;
            let point = self.point(value, battles, wins);
            if point.verdict != Verdict::Undecided || battles >= self.spec.max_battles {
                return Ok(point);
            }
            next = battles.saturating_mul(2).min(self.spec.max_battles);
        }
    }

    fn point(&self, value: f64, battles: u64, wins: u64) -> BalancePoint {
        let (low, high) = wilson(wins, battles);
        let verdict = if high < self.spec.target {
            Verdict::Below
        } else if low > self.spec.target {
            Verdict::Above
        } else {
            Verdict::Undecided
        };
        BalancePoint {
            value,
            battles,
            wins,
            win_rate: wins as f64 / battles as f64,
            low,
            high,
            verdict,
            exact: false,
            fraction: None,
        }
    }

    /// Battles `range` of the master seed, on the search's threads: the
    /// side's wins (a sum, so any number of threads gives the same).
    fn fight(
        &self,
        battle: &Battle,
        value: f64,
        range: Range<u64>,
        done: &[BalancePoint],
    ) -> Result<u64, BalanceError> {
        let next = AtomicU64::new(range.start);
        let wins = AtomicU64::new(0);
        let failed: Mutex<Option<(u64, SimError)>> = Mutex::new(None);
        let stopped = AtomicBool::new(false);
        let work = || {
            let mut ws = Workspace::default();
            loop {
                if self.cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
                    stopped.store(true, Ordering::Relaxed);
                    return;
                }
                let start = next.fetch_add(CHUNK, Ordering::Relaxed);
                if start >= range.end {
                    return;
                }
                let mut won = 0;
                for index in start..(start.saturating_add(CHUNK)).min(range.end) {
                    match battle.run_summary(&mut ws, self.spec.seed, index) {
                        Ok(s) => won += u64::from(s.outcome == Outcome::Win { side: self.side }),
                        Err(e) => {
                            let mut slot = failed.lock().unwrap_or_else(PoisonError::into_inner);
                            if slot.as_ref().is_none_or(|(i, _)| index < *i) {
                                *slot = Some((index, e));
                            }
                            break;
                        }
                    }
                }
                wins.fetch_add(won, Ordering::Relaxed);
            }
        };
        let chunks = (range.end - range.start).div_ceil(CHUNK);
        let threads = (self.threads as u64).min(chunks).max(1);
        if threads == 1 {
            work();
        } else {
            std::thread::scope(|scope| {
                for _ in 1..threads {
                    scope.spawn(work);
                }
                work();
            });
        }
        if let Some((index, source)) = failed.into_inner().unwrap_or_else(PoisonError::into_inner) {
            return Err(BalanceError::Battle {
                field: self.spec.field.clone(),
                value,
                index,
                source: Box::new(source),
            });
        }
        if stopped.into_inner() {
            return Err(BalanceError::Interrupted { points: done.to_vec() });
        }
        Ok(wins.into_inner())
    }
}

/// The kind of number at `path`: the field's own when it holds a number;
/// when it holds none yet (an option left out), whole ends make it an
/// integer field.
fn field_kind(scenario: &Scenario, path: &str, low: f64, high: f64) -> Result<FieldKind, BalanceError> {
    match scenario.get_field(path)? {
        Value::Number(n) if n.is_i64() || n.is_u64() => Ok(FieldKind::Integer),
        Value::Number(_) => Ok(FieldKind::Real),
        Value::Null if low.fract() == 0.0 && high.fract() == 0.0 => Ok(FieldKind::Integer),
        Value::Null => Ok(FieldKind::Real),
        other => Err(BalanceError::NotNumeric {
            field: path.to_owned(),
            value: other.to_string(),
        }),
    }
}
