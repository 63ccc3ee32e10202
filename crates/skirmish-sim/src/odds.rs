//! Odds from here: "who is likely to win from here?" for a live
//! [`Encounter`], by fighting the rest of the battle many times with the
//! battle engine's rules; and the other way round, an encounter started
//! from a [`Scenario`].
//!
//! # What a continuation starts from
//!
//! [`Encounter::continuation`] hands over the encounter as it stands: its
//! scheduler (pending actions, round, tick, the timing system), its rules,
//! every fighter's stats and damage, who is down. Each battle fights on
//! from there:
//!
//! - **Timing**: the encounter's own scheduler, copied, drives the battle.
//!   A tracker *line* (one combatant, or a group sharing one initiative and
//!   one action) is one scheduler actor: when its action lands, every
//!   standing member acts; it leaves the scheduler when its last member
//!   falls. Lines that landed and await a declaration do the same again
//!   (their current declaration), as every fighter of a battle does.
//! - **Fighters**: their stats ([`Fighter`], the numbers a scenario's
//!   group resolves to), their damage so far with its wound penalty; those
//!   down stay down.
//! - **Striking, damage, targeting**: the encounter's striking and damage
//!   rules; targets picked as a scenario's default battle does
//!   ([`BattleRules::default`]: uniformly random among the enemies
//!   standing; FUDGE's reach of six).
//! - **Disruption**: a hit disrupts a one-member line's pending action when
//!   its declaration is disruptible; a group's shared action is not lost
//!   to a hit on one member (as at the table).
//! - **Limits**: each continuation stops as a timeout after
//!   [`BattleRules::default`]'s limits *from here*: a million more ticks,
//!   100,000 more rounds, a billion more actions.
//!
//! - **Engine**: a continuation of two sides numbered side by side (as
//!   [`encounter_from_scenario`] adds them) under Full Contact fights on
//!   the fast path's moments loop with the encounter's clock; any other on
//!   the general loop. The results are the same either way (a test
//!   compares them battle by battle).
//!
//! The continuation begins at the end of the current moment: strikes of
//! the current moment the GM has not resolved yet are not fought.
//!
//! # Exact or sampled
//!
//! Before fighting anything, [`odds_from_here`] asks the exact engine
//! ([`crate::exact::solve_encounter`], docs/rules.md §7.1) for the same
//! game: when it models the encounter as it stands (Simultaneous Combat
//! between exchanges, the round systems between rounds, Continuous timing
//! before its first initiative; Full Contact or a FUDGE duel; no effect,
//! disarm, scouting or other mark its state does not hold) and the chain
//! fits [`ExactOptions::automatic`]'s budgets (a count of states, of one
//! exchange's outcomes and of moments struck, so that a fight too big is
//! refused in about a second), the odds are
//! its answer: nothing fought (`battles` 0), each rate exact with its
//! fraction, no mean length, [`OddsMethod::Exact`]. Otherwise the battles
//! are fought as described here, with the same numbers as when sampling
//! is forced, and [`OddsMethod::Sampled`] carries the exact engine's
//! refusal as the reason. [`odds_from_here_with`] takes the exact
//! engine's budget, or `None` to force sampling (a caller bounding its
//! time). [`odds_from_continuation`] always samples: a continuation does
//! not hold what the exact engine must check (effects, disarms).
//!
//! # Determinism
//!
//! Battle `i` draws from `SeededRolls::for_stream(seed, i)`, as a sweep's
//! battles do, and the battles run one after another on the calling thread
//! (a phone's budget: see `docs/performance.md`), so the same encounter and
//! seed give the same odds, byte for byte, on any machine. The encounter's
//! own generator is not touched.
//!
//! # Example
//!
//! ```
//! use skirmish_sim::odds::{encounter_from_scenario, odds_from_here};
//! use skirmish_sim::scenario::Scenario;
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! // The GM starts the goblin ambush at the table...
//! let ambush = Scenario::builtin("goblin-ambush")?;
//! let mut encounter = encounter_from_scenario(&ambush, 7)?;
//! let before = odds_from_here(&encounter, 2_000, 1)?;
//! assert_eq!(before.sides[0].name, "party");
//! let party = &before.sides[0];
//! assert!(party.low <= party.win_rate && party.win_rate <= party.high);
//!
//! // ...and Cardiff's first blow fells an orc: how do the odds look now?
//! let orc = encounter.find("Orc #1")?;
//! encounter.down(orc)?;
//! let after = odds_from_here(&encounter, 2_000, 1)?;
//! assert!(after.sides[0].win_rate > before.sides[0].win_rate);
//! // The same encounter and seed give the same odds.
//! assert_eq!(after, odds_from_here(&encounter, 2_000, 1)?);
//! # Ok(())
//! # }
//! ```

use serde::{Deserialize, Serialize};
use skirmish_core::damage::{Condition, DamageModel};
use skirmish_core::dice::SeededRolls;
use skirmish_core::fighter::Fighter;
use skirmish_core::tracker::{Continuation, Encounter, EncounterRules, MAX_COMBATANTS, MAX_GROUP};

use crate::battle::{Battle, Resume, Start, Workspace};
use crate::clock::{LineClock, Lines};
use crate::error::SimError;
use crate::exact::{ExactOdds, ExactOptions, solve_encounter};
use crate::report::{BattleSummary, Outcome};
use crate::scenario::{BattleRules, Scenario};
use crate::stats;

/// The most battles [`odds_from_here`] fights in one call.
pub const MAX_BATTLES: u64 = 10_000_000;

/// The largest magnitude of a fighter's ratings and damage factors a
/// continuation accepts (a resolved fighter's are far inside it; beyond it
/// the battle's arithmetic could overflow).
const NUMBER_LIMIT: i32 = 1_000_000;

/// One side's chance of winning from here.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SideOdds {
    /// The side's name.
    pub name: String,
    /// Battles it won.
    pub wins: u64,
    /// The share of battles it won.
    pub win_rate: f64,
    /// The Wilson 95% interval of `win_rate`: its lower bound...
    pub low: f64,
    /// ...and its upper bound.
    pub high: f64,
    /// `win_rate` as an exact fraction in lowest terms (`"50/131"`), when
    /// the odds were solved in fractions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fraction: Option<String>,
}

/// How [`odds_from_here`] computed its odds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum OddsMethod {
    /// Fewer than two sides stand: the odds are the outcome, nothing
    /// computed.
    Decided,
    /// Solved by the exact engine ([`crate::exact::solve_encounter`]):
    /// no battle fought, no interval but the solver's `error_bound`.
    Exact {
        /// States of the chain solved.
        states: usize,
        /// Whether the chances are exact fractions (else `f64`).
        fractions: bool,
        /// The most a rate may be off (0 for fractions).
        error_bound: f64,
    },
    /// Sampled: `battles` continuations fought.
    Sampled {
        /// Why the odds are not exact: the exact engine's refusal (what it
        /// does not model here, or the fight is too big); `None` when
        /// the caller asked for sampling.
        reason: Option<String>,
    },
}

impl Default for OddsMethod {
    /// Sampled, for odds saved before the method was recorded.
    fn default() -> Self {
        OddsMethod::Sampled { reason: None }
    }
}

impl OddsMethod {
    /// Whether the odds are the exact answer (solved, or decided).
    pub fn is_exact(&self) -> bool {
        !matches!(self, OddsMethod::Sampled { .. })
    }

    /// Its name: `"decided"`, `"exact"` or `"sampled"`.
    pub fn name(&self) -> &'static str {
        match self {
            OddsMethod::Decided => "decided",
            OddsMethod::Exact { .. } => "exact",
            OddsMethod::Sampled { .. } => "sampled",
        }
    }
}

/// What many fights from the encounter's present state came to. A fight
/// already decided comes to its outcome with `battles` 0 (nothing fought):
/// see [`odds_from_here`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OddsFromHere {
    /// Battles fought.
    pub battles: u64,
    /// Every side of the encounter, in order of first appearance (sides
    /// with nobody standing included: they win nothing).
    pub sides: Vec<SideOdds>,
    /// Battles in which the last fighters of every side fell together.
    pub draws: u64,
    /// The share of draws.
    pub draw_rate: f64,
    /// `draw_rate` as an exact fraction, when solved in fractions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub draw_fraction: Option<String>,
    /// Battles that hit a limit (see the [module docs](self)) with two or
    /// more sides standing, or in which nobody standing could act again:
    /// never counted as a win.
    pub timeouts: u64,
    /// The share of timeouts. Exact odds: the chance that the fight never
    /// ends (it reaches a state where nobody can hurt anybody), which a
    /// battle reports as a timeout at its limits.
    pub timeout_rate: f64,
    /// `timeout_rate` as an exact fraction, when solved in fractions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout_fraction: Option<String>,
    /// The mean number of ticks the rest of the battle lasts: from the
    /// encounter's current tick to the tick of the last moment fought
    /// (`None` for exact odds: the exact engine solves who wins, not how
    /// long it takes).
    pub mean_ticks: Option<f64>,
    /// The mean number of rounds (phases, exchanges; under Continuous,
    /// stopwatch laps) begun from here (`None` for exact odds).
    pub mean_rounds: Option<f64>,
    /// How the odds were computed: decided, exact or sampled (with why).
    #[serde(default)]
    pub method: OddsMethod,
}

impl OddsFromHere {
    /// The odds of the side named `name` (case-insensitive), if there is one.
    pub fn side(&self, name: &str) -> Option<&SideOdds> {
        self.sides.iter().find(|s| s.name.eq_ignore_ascii_case(name))
    }
}

/// Fights the rest of `encounter`'s battle `battles` times (battle `i` with
/// `SeededRolls::for_stream(seed, i)`, on this thread) and returns each
/// side's chance of winning with its Wilson interval, the draw and timeout
/// rates and the expected length. See the [module docs](self) for what the
/// battles start from and the rules they follow.
///
/// # Errors
///
/// - [`SimError::Rules`] naming `battles` when it is outside
///   `1..=`[`MAX_BATTLES`];
/// - [`SimError::Tracker`] (kind `NotNow`) when the encounter has fewer
///   than two sides, or a combatant still in the fight has no combat stats
///   or side;
/// - [`SimError::Rules`] or [`SimError::Scenario`] when the rules refuse a
///   moment (a tick past the scheduler's last).
///
/// # A decided fight
///
/// When fewer than two sides have anyone standing, the odds are the
/// outcome, with nothing fought (`battles` 0): the side standing wins at
/// 100% (interval 100%..100%), every other at 0%; if nobody stands, a draw
/// at 100%. An app refreshing its odds on every screen gets the result of
/// a fight that ended, not an error.
///
/// ```
/// use skirmish_sim::odds::{encounter_from_scenario, odds_from_here};
/// use skirmish_sim::scenario::Scenario;
/// let mut e = encounter_from_scenario(&Scenario::builtin("goblin-ambush")?, 7)?;
/// for name in ["Orc #1", "Orc #2", "Goblin #1", "Goblin #2", "Shaman"] {
///     let id = e.find(name)?;
///     e.down(id)?;
/// }
/// let odds = odds_from_here(&e, 1_000, 1)?;
/// assert_eq!((odds.battles, odds.sides[0].win_rate, odds.sides[1].win_rate), (0, 1.0, 0.0));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn odds_from_here(encounter: &Encounter, battles: u64, seed: u64) -> Result<OddsFromHere, SimError> {
    odds_from_here_with(encounter, battles, seed, Some(&ExactOptions::automatic()))
}

/// [`odds_from_here`] with the exact engine's budget given, or (`exact`
/// `None`) sampling forced: a caller that must bound its time (a phone)
/// or wants the sampled battles' lengths.
///
/// # Errors
///
/// As [`odds_from_here`].
pub fn odds_from_here_with(
    encounter: &Encounter,
    battles: u64,
    seed: u64,
    exact: Option<&ExactOptions>,
) -> Result<OddsFromHere, SimError> {
    check_battles(battles)?;
    let sides = encounter.sides_standing();
    if sides.len() >= 2 && sides.iter().filter(|(_, standing)| *standing).count() < 2 {
        return Ok(decided(&sides));
    }
    let continuation = encounter.continuation()?;
    let reason = match exact.map(|options| solve_encounter(encounter, options)) {
        None => None,
        Some(Ok(odds)) => return Ok(from_exact(&odds)),
        Some(Err(e)) => Some(e.to_string()),
    };
    let mut odds = odds_from_continuation(&continuation, battles, seed)?;
    odds.method = OddsMethod::Sampled { reason };
    Ok(odds)
}

/// Exact odds in the shape of sampled ones: nothing fought, each rate the
/// exact chance, its interval the solver's error bound.
fn from_exact(odds: &ExactOdds) -> OddsFromHere {
    let bound = odds.error_bound;
    OddsFromHere {
        battles: 0,
        sides: odds
            .sides
            .iter()
            .zip(&odds.wins)
            .map(|(name, w)| SideOdds {
                name: name.clone(),
                wins: 0,
                win_rate: w.value,
                low: (w.value - bound).max(0.0),
                high: (w.value + bound).min(1.0),
                fraction: w.fraction.clone(),
            })
            .collect(),
        draws: 0,
        draw_rate: odds.draw.value,
        draw_fraction: odds.draw.fraction.clone(),
        timeouts: 0,
        timeout_rate: odds.never_ends.value,
        timeout_fraction: odds.never_ends.fraction.clone(),
        mean_ticks: None,
        mean_rounds: None,
        method: OddsMethod::Exact {
            states: odds.states,
            fractions: odds.exact,
            error_bound: bound,
        },
    }
}

/// The odds of a decided fight: its outcome, nothing fought.
fn decided(sides: &[(String, bool)]) -> OddsFromHere {
    let share = |yes: bool| if yes { 1.0 } else { 0.0 };
    let draw = !sides.iter().any(|(_, standing)| *standing);
    OddsFromHere {
        battles: 0,
        sides: sides
            .iter()
            .map(|(name, standing)| SideOdds {
                name: name.clone(),
                wins: 0,
                win_rate: share(*standing),
                low: share(*standing),
                high: share(*standing),
                fraction: Some(if *standing { "1" } else { "0" }.into()),
            })
            .collect(),
        draws: 0,
        draw_rate: share(draw),
        draw_fraction: Some(if draw { "1" } else { "0" }.into()),
        timeouts: 0,
        timeout_rate: 0.0,
        timeout_fraction: Some("0".into()),
        mean_ticks: Some(0.0),
        mean_rounds: Some(0.0),
        method: OddsMethod::Decided,
    }
}

/// [`odds_from_here`] from a [`Continuation`] already taken (or restored
/// from its JSON form).
///
/// # Errors
///
/// As [`odds_from_here`]; also [`SimError::Rules`] naming the field when
/// the continuation does not hang together (a scheduler that fails
/// `Scheduler::validate`, a fighter on a line the scheduler lacks, a
/// damage state of the other model, numbers beyond the rules' range), and [`SimError::Scenario`] when it has fewer than two or
/// more than 255 sides.
pub fn odds_from_continuation(continuation: &Continuation, battles: u64, seed: u64) -> Result<OddsFromHere, SimError> {
    check_battles(battles)?;
    let plan = Plan::new(continuation)?;
    plan.odds(battles, seed)
}

/// The summaries of [`odds_from_continuation`]'s battles, one by one, and
/// whether they were fought on the fast path (`fast`: when the
/// continuation qualifies: two sides numbered side by side, Full Contact)
/// or on the general loop (`fast` false): tests compare the two.
#[doc(hidden)]
pub fn continuation_summaries(
    continuation: &Continuation,
    battles: u64,
    seed: u64,
    fast: bool,
) -> Result<(bool, Vec<BattleSummary>), SimError> {
    check_battles(battles)?;
    let mut plan = Plan::new(continuation)?;
    if !fast {
        plan.battle = plan.battle.without_fast_path();
    }
    let mut out = Vec::new();
    plan.fight_each(battles, seed, |s| out.push(s))?;
    Ok((plan.battle.has_fast_path(), out))
}

/// Starts a live encounter from `scenario`: its timing system, striking
/// and damage rules, and every group of every side added with
/// [`Encounter::add_fighter`] (a group of several is one line of the
/// tracker: one initiative, members that fall one by one). The encounter
/// rolls with a generator seeded by `seed`. The scenario's `[battle]`
/// rules (targeting, limits) are the simulator's, not the table's, and do
/// not carry over.
///
/// # Errors
///
/// [`SimError::Tracker`] when the encounter refuses the rules or a group
/// (the field says which: `rules.damage`, `profile.weapon`, ...). A
/// scenario bigger than a tick sheet takes (a group of more than
/// [`MAX_GROUP`] fighters, as the built-in `horde`'s 50,000 goblins, or
/// more than [`MAX_COMBATANTS`] in all) is refused naming the group's
/// `count` by its path, saying how to open a smaller copy and that
/// battles and sweeps take the scenario as it is.
pub fn encounter_from_scenario(scenario: &Scenario, seed: u64) -> Result<Encounter, SimError> {
    fits_a_tick_sheet(scenario)?;
    kept_by_a_tick_sheet(scenario)?;
    let rules = EncounterRules {
        striking: scenario.striking,
        damage: scenario.damage.clone(),
    };
    let mut encounter = Encounter::with_rules(scenario.timing.clone(), rules, seed)?;
    for side in &scenario.sides {
        for group in &side.groups {
            encounter.add_fighter(&side.name, group)?;
        }
    }
    Ok(encounter)
}

/// Refuses a scenario whose battle options the tracker has no place for
/// (docs/rules.md §5.1, §5.2): a `distance` (the tracker keeps no
/// positions; its shots take the distance the GM gives), surprise, blows
/// from the rear; rather than dropping them silently. (A group's
/// `scouting` is kept: the GM reports its rolls, `Encounter::scout`.)
fn kept_by_a_tick_sheet(scenario: &Scenario) -> Result<(), SimError> {
    use skirmish_core::tracker::TrackerError;
    let refuse = |field: String, what: &str| {
        Err(SimError::Tracker(TrackerError::invalid(
            &field,
            format!(
                "{what} is a battle's option, and the live tracker has no place for it (at the table the GM \
                 gives each shot its distance and says who is unaware); remove it to open the scenario at the \
                 table; battles and sweeps fight it (`battle`, `skirmish run`, `skirmish sweep`)"
            ),
        )))
    };
    if scenario.distance.is_some() {
        return refuse("distance".into(), "a distance between the sides");
    }
    if scenario.battle.front.is_some() {
        return refuse("battle.front".into(), "blows from the rear");
    }
    for (s, side) in scenario.sides.iter().enumerate() {
        for (g, group) in side.groups.iter().enumerate() {
            if group.unaware_for > 0 {
                return refuse(format!("sides[{s}].groups[{g}].unaware_for"), "surprise");
            }
        }
    }
    Ok(())
}

/// Refuses, saying what to do, a scenario with more fighters than the
/// tracker keeps (before any is added).
fn fits_a_tick_sheet(scenario: &Scenario) -> Result<(), SimError> {
    use skirmish_core::tracker::TrackerError;
    let fought_anyway = "battles and sweeps fight the scenario as it is (`battle`, `skirmish run`, `skirmish sweep`)";
    let mut total: u64 = 0;
    for (s, side) in scenario.sides.iter().enumerate() {
        for (g, group) in side.groups.iter().enumerate() {
            if group.count > u64::from(MAX_GROUP) {
                return Err(SimError::Tracker(TrackerError::invalid(
                    &format!("sides[{s}].groups[{g}].count"),
                    format!(
                        "group {:?} has {} fighters, and the live tracker keeps at most {MAX_GROUP} in a \
                         group (a tick sheet at the table); open a smaller copy, with the field \
                         sides.{}.groups.{}.count set to {MAX_GROUP} or fewer (`--set` at the command line, \
                         `with_field` in code); {fought_anyway}",
                        group.name, group.count, side.name, group.name
                    ),
                )));
            }
            total += group.count;
        }
    }
    if total > u64::from(MAX_COMBATANTS) {
        return Err(SimError::Tracker(TrackerError::invalid(
            "sides",
            format!(
                "{total} fighters in all, and the live tracker keeps at most {MAX_COMBATANTS}; open a smaller \
                 copy (lower the groups' counts); {fought_anyway}"
            ),
        )));
    }
    Ok(())
}

fn check_battles(battles: u64) -> Result<(), SimError> {
    if (1..=MAX_BATTLES).contains(&battles) {
        Ok(())
    } else {
        Err(SimError::Rules(skirmish_core::Error::out_of_range(
            "battles",
            battles,
            1,
            MAX_BATTLES,
        )))
    }
}

/// A continuation made ready to fight many times.
struct Plan {
    battle: Battle,
    lines: Lines,
    start: Start,
    sides: Vec<String>,
}

impl Plan {
    fn new(c: &Continuation) -> Result<Plan, SimError> {
        // A continuation read from a file is checked as a restored scheduler is.
        c.scheduler
            .validate()
            .map_err(|e| SimError::Rules(e.in_field("scheduler")))?;
        let timing = c.scheduler.system().clone();
        let damage = c
            .rules
            .damage
            .build()
            .map_err(|e| SimError::Rules(e.in_field("rules.damage")))?;
        if c.sides.len() < 2 || c.sides.len() > 255 {
            return Err(SimError::Scenario(format!(
                "odds from here need 2 to 255 sides, not {}",
                c.sides.len()
            )));
        }
        let mut fighters: Vec<(u8, Fighter)> = Vec::with_capacity(c.fighters.len());
        let mut states = Vec::with_capacity(c.fighters.len());
        let mut standing = Vec::with_capacity(c.fighters.len());
        for (i, f) in c.fighters.iter().enumerate() {
            let field = |what: &str| format!("fighters[{i}].{what}");
            let side = c.sides.iter().position(|s| *s == f.side).ok_or_else(|| {
                SimError::Rules(skirmish_core::Error::invalid(
                    field("side"),
                    format!("{} is not one of the continuation's sides", f.side),
                ))
            })?;
            for (what, value) in [
                ("stats.strike_rating", f.stats.strike_rating),
                ("stats.defense_rating", f.stats.defense_rating),
                ("stats.offense", f.stats.offense),
                ("stats.defense_factor", f.stats.defense_factor),
            ] {
                if !(-NUMBER_LIMIT..=NUMBER_LIMIT).contains(&value) {
                    return Err(SimError::Rules(skirmish_core::Error::out_of_range(
                        field(what),
                        value,
                        -NUMBER_LIMIT,
                        NUMBER_LIMIT,
                    )));
                }
            }
            damage
                .validate_state(&f.damage)
                .map_err(|e| SimError::Rules(e.in_field(&field("damage"))))?;
            let mut stats = f.stats.clone();
            // Traces and errors name the combatant ("Goblin 2"), not its group.
            stats.name.clone_from(&f.name);
            fighters.push((side as u8, stats));
            states.push(f.damage);
            standing.push(f.standing);
        }
        let scheduler = &c.scheduler;
        let now = scheduler.now();
        // Rounds as a battle counts them: the scheduler's rounds begun, or
        // the last moment's round (Continuous: its stopwatch lap; Graduated
        // spill: the round it spilled into), whichever is more.
        let round = scheduler.round();
        let rounds = scheduler.last_moment().map_or(round, |m| m.round.max(round));
        let rules = BattleRules::default();
        let caps = (
            now.saturating_add(rules.max_ticks),
            rounds.saturating_add(rules.max_rounds),
            rules.max_actions,
        );
        let lines = Lines::new(c.scheduler.clone(), c.fighters.iter().map(|f| (f.line, f.standing)))?;
        // A fighter standing by the continuation but down by its damage (a
        // continuation made by hand or edited) falls at its first hit on
        // the general loop; the fast path counts a fall only when a hit
        // takes a fighter down, so such a continuation takes the general
        // loop.
        let down_yet_standing = c
            .fighters
            .iter()
            .any(|f| f.standing && damage.status(&f.damage) != Condition::Standing);
        let battle = Battle::of_fighters(
            timing,
            c.rules.striking,
            damage,
            &rules,
            caps,
            c.sides.clone(),
            fighters,
        )?;
        let battle = if down_yet_standing {
            battle.without_fast_path()
        } else {
            battle
        };
        Ok(Plan {
            battle,
            lines,
            start: Start {
                damage: states,
                standing,
                resume: Resume {
                    round_starts: round,
                    rounds,
                    tick: now,
                },
            },
            sides: c.sides.clone(),
        })
    }

    /// Fights battles `0..battles` of `seed` from the start, handing each
    /// one's summary to `each`.
    fn fight_each(&self, battles: u64, seed: u64, mut each: impl FnMut(BattleSummary)) -> Result<(), SimError> {
        let mut ws = Workspace::default();
        let mut clock = LineClock::new(&self.lines);
        for i in 0..battles {
            clock.reset();
            let mut rolls = SeededRolls::for_stream(seed, i);
            each(self.battle.fight_from(&mut ws, &mut clock, &self.start, &mut rolls)?);
        }
        Ok(())
    }

    fn odds(&self, battles: u64, seed: u64) -> Result<OddsFromHere, SimError> {
        let mut wins = vec![0u64; self.sides.len()];
        let (mut draws, mut timeouts) = (0u64, 0u64);
        let (mut ticks, mut rounds) = (0u128, 0u128);
        let resume = self.start.resume;
        self.fight_each(battles, seed, |s| {
            match s.outcome {
                Outcome::Win { side } => {
                    if let Some(w) = wins.get_mut(side) {
                        *w += 1;
                    }
                }
                Outcome::Draw => draws += 1,
                Outcome::Timeout => timeouts += 1,
            }
            ticks += u128::from(s.ticks.saturating_sub(resume.tick));
            rounds += u128::from(s.rounds.saturating_sub(resume.rounds));
        })?;
        let rate = |k: u64| k as f64 / battles as f64;
        Ok(OddsFromHere {
            battles,
            sides: self
                .sides
                .iter()
                .zip(&wins)
                .map(|(name, &w)| {
                    let (low, high) = stats::wilson(w, battles);
                    SideOdds {
                        name: name.clone(),
                        wins: w,
                        win_rate: rate(w),
                        low,
                        high,
                        fraction: None,
                    }
                })
                .collect(),
            draws,
            draw_rate: rate(draws),
            draw_fraction: None,
            timeouts,
            timeout_rate: rate(timeouts),
            timeout_fraction: None,
            mean_ticks: Some(ticks as f64 / battles as f64),
            mean_rounds: Some(rounds as f64 / battles as f64),
            method: OddsMethod::Sampled { reason: None },
        })
    }
}
