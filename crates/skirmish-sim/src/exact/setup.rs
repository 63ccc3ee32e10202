//! A scenario made ready for the exact engine: what it models checked
//! (anything else is an [`ExactError::Unsupported`] naming the field), the
//! groups resolved into fighters by the same core function the battle
//! engine calls.

use skirmish_core::damage::{Damage, DamageModel, DamageState, HitPointState};
use skirmish_core::fighter::{Fighter, FullContactRules};
use skirmish_core::timing::{TimingSystem, simple};

use super::error::ExactError;
use super::schedule::ScheduleCache;
use crate::battle::Battle;
use crate::scenario::{BattleRules, Scenario, Striking, Targeting};

/// The most fighters the exact engine takes: a fighter's target is kept
/// in a byte, and far fewer than this already pass any budget.
pub(super) const MAX_EXACT_FIGHTERS: usize = 64;

/// One fighter, as the exact engine reads it.
#[derive(Debug, Clone)]
pub(super) struct ExactFighter {
    /// Its side.
    pub(super) side: usize,
    /// Full Contact Strike Rating (before the wound penalty).
    pub(super) strike_rating: i32,
    /// Full Contact Defense Rating, armor included.
    pub(super) defense_rating: i32,
    /// Offensive damage factor.
    pub(super) offense: i32,
    /// Defensive damage factor.
    pub(super) defense_factor: i32,
    /// Its damage state before the fight.
    pub(super) fresh: DamageState,
    /// The core's fighter (FUDGE opposed striking reads its tactics).
    pub(super) fighter: Fighter,
}

/// A fight the exact engine can solve: its rules and fighters, in the
/// battle engine's fighter order (side by side, group by group).
#[derive(Debug, Clone)]
pub(super) struct Fight {
    /// The sides' names.
    pub(super) sides: Vec<String>,
    /// The timing system (with its options): which step of the chain is
    /// one exchange (`moment::exchange` dispatches on it).
    pub(super) timing: TimingSystem,
    /// The striking system.
    pub(super) striking: Striking,
    /// Full Contact's rules (the default, unread, under FUDGE striking).
    pub(super) rules: FullContactRules,
    /// The damage model.
    pub(super) damage: Damage,
    /// Whom attackers pick.
    pub(super) targeting: Targeting,
    /// Every fighter.
    pub(super) fighters: Vec<ExactFighter>,
    /// The rounds laid out so far, by the fighters standing
    /// (`schedule.rs`).
    pub(super) schedules: ScheduleCache,
    /// The FUDGE moments struck so far, by state and actors
    /// (`fudge.rs`): the round systems strike the same ones round after
    /// round.
    pub(super) fudge_moments: super::fudge::MomentCache,
    /// The most distinct outcomes of one exchange
    /// ([`super::ExactOptions::max_outcomes`]).
    pub(super) max_outcomes: usize,
    /// The most moments struck while solving
    /// ([`super::ExactOptions::max_moments`]).
    pub(super) max_moments: u64,
    /// Moments struck so far.
    pub(super) moments: std::cell::Cell<u64>,
}

impl Fight {
    /// Whether every fighter has one action a Simple Rounds round (a Rate
    /// of Fire of one shot a round, no extra attacks).
    pub(super) fn one_action_a_round(&self) -> bool {
        self.fighters
            .iter()
            .all(|f| simple::actions_in_round(&f.fighter.action, 1) == 1)
    }
}

/// One fighter to build a [`Fight`] from: its side, its resolved stats,
/// its damage at the start, and the path errors name it by
/// (`sides[0].groups[1]`, `combatants[3]`).
#[derive(Debug, Clone)]
pub(super) struct Entrant {
    /// Its side (an index into the fight's sides).
    pub(super) side: usize,
    /// Its stats, as the core resolves them.
    pub(super) fighter: Fighter,
    /// Its damage state at the start.
    pub(super) fresh: DamageState,
    /// Where it comes from, for errors.
    pub(super) at: String,
}

impl Fight {
    /// Whether the order of the fighters acting at one moment can change
    /// its outcome, so that it must be the battle's (the queue's order):
    /// under `least_engaged` targeting, whose picks count the moment's
    /// earlier ones, and under FUDGE beyond a duel, where a lone fighter's
    /// equal answers go to the first foe (4.34's tie-best), `concentrate`
    /// fights the first to strike, and the first of two fighters opens
    /// their exchange of the round.
    pub(super) fn order_matters(&self) -> bool {
        self.targeting == Targeting::LeastEngaged
            || (matches!(self.striking, Striking::FudgeOpposed(_)) && self.fighters.len() > 2)
    }

    /// Takes `options`' budgets for its solving, and refuses at once a
    /// fight of more than their fighters standing (`standing` here).
    pub(super) fn limit(&mut self, options: &super::ExactOptions, standing: usize) -> Result<(), ExactError> {
        if standing > options.max_fighters {
            return Err(ExactError::TooManyFighters {
                fighters: standing,
                budget: options.max_fighters,
            });
        }
        self.max_outcomes = options.max_outcomes;
        self.max_moments = options.max_moments;
        Ok(())
    }

    /// `scenario` made ready, or why the exact engine cannot solve it.
    pub(super) fn of(scenario: &Scenario) -> Result<Fight, ExactError> {
        // The battle engine's own checks first: a scenario it refuses is no
        // fight at all.
        Battle::new(scenario)?;
        check_supported(scenario)?;
        let damage = scenario
            .damage
            .build()
            .map_err(|e| ExactError::Sim(crate::error::SimError::Rules(e.in_field("damage"))))?;
        let mut entrants = Vec::new();
        for (si, side) in scenario.sides.iter().enumerate() {
            for (gi, g) in side.groups.iter().enumerate() {
                let f = g
                    .resolve(&scenario.timing, &scenario.striking)
                    .map_err(|e| crate::error::SimError::Rules(e.in_field(&format!("sides[{si}].groups[{gi}]"))))?;
                let fresh = match &damage {
                    Damage::HitPoints(m) => {
                        DamageState::HitPoints(HitPointState::new(f.hit_points.unwrap_or(m.config().max_hp)))
                    }
                    Damage::FudgeWounds(_) => damage.fresh(),
                };
                let count = usize::try_from(g.count).unwrap_or(usize::MAX);
                if count > MAX_EXACT_FIGHTERS.saturating_sub(entrants.len()) {
                    return Err(ExactError::unsupported(
                        format!("sides[{si}].groups[{gi}].count"),
                        format!("more than {MAX_EXACT_FIGHTERS} fighters in all"),
                    ));
                }
                for _ in 0..count {
                    entrants.push(Entrant {
                        side: si,
                        fighter: f.clone(),
                        fresh,
                        at: format!("sides[{si}].groups[{gi}]"),
                    });
                }
            }
        }
        Fight::build(
            scenario.sides.iter().map(|s| s.name.clone()).collect(),
            &scenario.timing,
            scenario.striking,
            damage,
            (scenario.battle.targeting, scenario.battle.max_attackers_per_target),
            entrants,
        )
    }

    /// The fight of `entrants` under these rules, every rule and option
    /// the exact engine does not model refused (naming the field): the one
    /// builder a scenario ([`Fight::of`]) and a live encounter
    /// (`encounter.rs`) both feed.
    pub(super) fn build(
        sides: Vec<String>,
        timing: &TimingSystem,
        striking: Striking,
        damage: Damage,
        (targeting, reach): (Targeting, u32),
        entrants: Vec<Entrant>,
    ) -> Result<Fight, ExactError> {
        check_rules(&striking)?;
        // FUDGE's reach (`battle.max_attackers_per_target`): below a
        // fighter's count of foes it turns picks away, retries the exact
        // engine does not model.
        if matches!(striking, Striking::FudgeOpposed(_)) {
            let limit = usize::try_from(reach).unwrap_or(usize::MAX);
            let most_foes = (0..sides.len())
                .map(|s| entrants.iter().filter(|e| e.side != s).count())
                .max()
                .unwrap_or(0);
            if most_foes > limit {
                return Err(ExactError::unsupported(
                    "battle.max_attackers_per_target",
                    format!("a reach of {limit} where a fighter has {most_foes} foes (the picks it turns away)"),
                ));
            }
        }
        if entrants.len() > MAX_EXACT_FIGHTERS {
            return Err(ExactError::unsupported(
                "fighters",
                format!("more than {MAX_EXACT_FIGHTERS} fighters in all"),
            ));
        }
        for e in &entrants {
            check_fighter(timing, &striking, &e.fighter, &e.at)?;
        }
        let rules = match striking {
            Striking::FullContact(r) => r,
            Striking::FudgeOpposed(_) => FullContactRules::default(),
        };
        Ok(Fight {
            sides,
            timing: timing.clone(),
            striking,
            rules,
            damage,
            targeting,
            fighters: entrants
                .into_iter()
                .map(|e| ExactFighter {
                    side: e.side,
                    strike_rating: e.fighter.strike_rating,
                    defense_rating: e.fighter.defense_rating,
                    offense: e.fighter.offense,
                    defense_factor: e.fighter.defense_factor,
                    fresh: e.fresh,
                    fighter: e.fighter,
                })
                .collect(),
            schedules: ScheduleCache::default(),
            fudge_moments: super::fudge::MomentCache::default(),
            max_outcomes: super::DEFAULT_MAX_OUTCOMES,
            max_moments: u64::MAX,
            moments: std::cell::Cell::new(0),
        })
    }
}

/// Refuses the striking rules the exact engine does not model, naming
/// the field (every timing system is modelled).
fn check_rules(striking: &Striking) -> Result<(), ExactError> {
    if let Striking::FullContact(r) = striking
        && r.amazing
        && !r.amazing_defense.is_none()
    {
        return Err(ExactError::unsupported(
            "striking.amazing_defense",
            "an amazing defense that disarms or knocks down (it spends the attacker's next action)",
        ));
    }
    Ok(())
}

/// Refuses a fighter's option the exact engine does not model, naming
/// the field under `at`.
fn check_fighter(timing: &TimingSystem, striking: &Striking, f: &Fighter, at: &str) -> Result<(), ExactError> {
    let field = |name: &str| format!("{at}.{name}");
    match timing {
        TimingSystem::SimpleRounds => {
            let rof = f.action.rate_of_fire;
            if !rof.shots().is_multiple_of(rof.rounds()) {
                // Its shots differ from round to round: the round of use
                // would have to enter the chain's state.
                return Err(ExactError::unsupported(
                    field("weapon"),
                    format!(
                        "a Rate of Fire of {}/{} under Simple Rounds (its shots differ by round; whole numbers are modelled)",
                        rof.shots(),
                        rof.rounds()
                    ),
                ));
            }
        }
        TimingSystem::GraduatedRounds(c) => super::graduated::check(&f.action, c, |x| field(x))?,
        // A held turn is taken when first struck at: the round's schedule
        // changes as it is fought.
        TimingSystem::TickSystem(_) if f.prepares() => {
            return Err(ExactError::unsupported(
                field("prepare"),
                "Prepare (its held turn is taken when first struck at)",
            ));
        }
        // A defense as a free action pushes turns within a round as it is
        // fought.
        TimingSystem::TickSystem(_) if !f.defend.is_untimed() => {
            return Err(ExactError::unsupported(
                field("defend"),
                "defenses as free actions (they push turns within a round)",
            ));
        }
        _ => {}
    }
    if !matches!(timing, TimingSystem::Simultaneous) && (f.disruptible || f.action.disruptible) {
        return Err(ExactError::unsupported(
            field("disruptible"),
            format!("disruptible actions under {}", timing.name()),
        ));
    }
    if matches!(striking, Striking::FudgeOpposed(_)) {
        if f.skill.plus {
            return Err(ExactError::unsupported(
                field("skill"),
                "a plus-level (its rolls differ by round)",
            ));
        }
        if !f.posture.is_normal() {
            return Err(ExactError::unsupported(field("posture"), "postures"));
        }
    }
    if !f.parry.is_never() {
        return Err(ExactError::unsupported(field("parry"), "parries"));
    }
    if f.scouting.is_some() {
        // Its -1 lasts into the foe's next exchange: a mark the chain's
        // state does not hold.
        return Err(ExactError::unsupported(field("scouting"), "scouting (FUDGE 4.31)"));
    }
    Ok(())
}

/// Refuses, naming the field, every rule and option the exact engine does
/// not model: it answers for the rules it models or not at all.
fn check_supported(scenario: &Scenario) -> Result<(), ExactError> {
    check_rules(&scenario.striking)?;
    if scenario.distance.is_some() {
        return Err(ExactError::unsupported("distance", "a distance between the sides"));
    }
    let b = &scenario.battle;
    if b.front.is_some() {
        return Err(ExactError::unsupported("battle.front", "attacks from the rear"));
    }
    // The exact engine solves the fight without limits; the sampler's
    // defaults are so far off that they change no answer it gives (a
    // fight that can never end is its own outcome), lower ones would.
    let limits = BattleRules::default();
    for (field, value, least) in [
        ("battle.max_ticks", b.max_ticks, limits.max_ticks),
        (
            "battle.max_rounds",
            u64::from(b.max_rounds),
            u64::from(limits.max_rounds),
        ),
        ("battle.max_actions", b.max_actions, limits.max_actions),
    ] {
        if value < least {
            return Err(ExactError::unsupported(
                field,
                format!("a limit of {value}, below the default {least} (the exact engine solves the fight unlimited)"),
            ));
        }
    }
    for (si, side) in scenario.sides.iter().enumerate() {
        if side.morale.is_some() {
            return Err(ExactError::unsupported(format!("sides[{si}].morale"), "morale"));
        }
        for (gi, g) in side.groups.iter().enumerate() {
            let at = |f: &str| format!("sides[{si}].groups[{gi}].{f}");
            if g.scouting.is_some() {
                // Its -1 lasts into the next round: a mark the chain's
                // state does not hold.
                return Err(ExactError::unsupported(at("scouting"), "scouting (FUDGE 4.31)"));
            }
            if g.unaware_for > 0 {
                return Err(ExactError::unsupported(at("unaware_for"), "surprise"));
            }
            if matches!(scenario.timing, TimingSystem::TickSystem(_)) && g.prepare {
                // Its held turn is taken when first struck at: the round's
                // schedule changes as it is fought.
                return Err(ExactError::unsupported(
                    at("prepare"),
                    "Prepare (its held turn is taken when first struck at)",
                ));
            }
        }
    }
    Ok(())
}
