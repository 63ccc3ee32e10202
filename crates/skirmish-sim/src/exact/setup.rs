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

impl Fight {
    /// `scenario` made ready, or why the exact engine cannot solve it.
    pub(super) fn of(scenario: &Scenario) -> Result<Fight, ExactError> {
        // The battle engine's own checks first: a scenario it refuses is no
        // fight at all.
        Battle::new(scenario)?;
        check_supported(scenario)?;
        let rules = match scenario.striking {
            Striking::FullContact(r) => r,
            Striking::FudgeOpposed(_) => FullContactRules::default(),
        };
        let damage = scenario
            .damage
            .build()
            .map_err(|e| ExactError::Sim(crate::error::SimError::Rules(e.in_field("damage"))))?;
        let mut fighters = Vec::new();
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
                let rof = f.action.rate_of_fire;
                if matches!(scenario.timing, TimingSystem::SimpleRounds) && rof.shots() % rof.rounds() != 0 {
                    // Its shots differ from round to round: the round of
                    // use would have to enter the chain's state.
                    return Err(ExactError::unsupported(
                        format!("sides[{si}].groups[{gi}].weapon"),
                        format!(
                            "a Rate of Fire of {}/{} under Simple Rounds (its shots differ by round; whole numbers are modelled)",
                            rof.shots(),
                            rof.rounds()
                        ),
                    ));
                }
                if let TimingSystem::GraduatedRounds(c) = &scenario.timing {
                    super::graduated::check(&f.action, c, |x| format!("sides[{si}].groups[{gi}].{x}"))?;
                }
                let count = usize::try_from(g.count).unwrap_or(usize::MAX);
                if count > MAX_EXACT_FIGHTERS.saturating_sub(fighters.len()) {
                    return Err(ExactError::unsupported(
                        format!("sides[{si}].groups[{gi}].count"),
                        format!("more than {MAX_EXACT_FIGHTERS} fighters in all"),
                    ));
                }
                for _ in 0..count {
                    fighters.push(ExactFighter {
                        side: si,
                        strike_rating: f.strike_rating,
                        defense_rating: f.defense_rating,
                        offense: f.offense,
                        defense_factor: f.defense_factor,
                        fresh,
                        fighter: f.clone(),
                    });
                }
            }
        }
        Ok(Fight {
            sides: scenario.sides.iter().map(|s| s.name.clone()).collect(),
            timing: scenario.timing.clone(),
            striking: scenario.striking,
            rules,
            damage,
            targeting: scenario.battle.targeting,
            fighters,
            schedules: ScheduleCache::default(),
        })
    }
}

/// Refuses, naming the field, every rule and option the exact engine does
/// not model: it answers for the rules it models or not at all.
fn check_supported(scenario: &Scenario) -> Result<(), ExactError> {
    // Every timing system is modelled; only Simultaneous Combat pairs a
    // FUDGE exchange's blows within one step of the chain.
    let simple = !matches!(scenario.timing, TimingSystem::Simultaneous);
    if simple && matches!(scenario.striking, Striking::FudgeOpposed(_)) {
        return Err(ExactError::unsupported(
            "striking",
            format!(
                "FUDGE opposed striking under {} (its exchanges pair blows across moments)",
                scenario.timing.name()
            ),
        ));
    }
    match scenario.striking {
        Striking::FullContact(r) => {
            if r.amazing && !r.amazing_defense.is_none() {
                return Err(ExactError::unsupported(
                    "striking.amazing_defense",
                    "an amazing defense that disarms or knocks down (it spends the attacker's next action)",
                ));
            }
        }
        Striking::FudgeOpposed(_) => {
            let fighters: u64 = scenario.sides.iter().flat_map(|s| &s.groups).map(|g| g.count).sum();
            if scenario.sides.len() != 2 || fighters != 2 {
                return Err(ExactError::unsupported(
                    "striking",
                    "FUDGE opposed striking beyond a duel (one fighter a side)",
                ));
            }
            for (si, side) in scenario.sides.iter().enumerate() {
                for (gi, g) in side.groups.iter().enumerate() {
                    let at = |f: &str| format!("sides[{si}].groups[{gi}].{f}");
                    if g.skill.plus {
                        return Err(ExactError::unsupported(
                            at("skill"),
                            "a plus-level (its rolls differ by round)",
                        ));
                    }
                    if !g.posture.is_normal() {
                        return Err(ExactError::unsupported(at("posture"), "postures"));
                    }
                }
            }
        }
    }
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
            if !g.parry.is_never() {
                return Err(ExactError::unsupported(at("parry"), "parries"));
            }
            if g.scouting.is_some() {
                // Its -1 lasts into the next round: a mark the chain's
                // state does not hold.
                return Err(ExactError::unsupported(at("scouting"), "scouting (FUDGE 4.31)"));
            }
            if g.unaware_for > 0 {
                return Err(ExactError::unsupported(at("unaware_for"), "surprise"));
            }
            if simple && g.disruptible {
                return Err(ExactError::unsupported(
                    at("disruptible"),
                    format!("disruptible actions under {}", scenario.timing.name()),
                ));
            }
            if matches!(scenario.timing, TimingSystem::TickSystem(_)) {
                // Both change the round's schedule as it is fought.
                if !g.defend.is_untimed() {
                    return Err(ExactError::unsupported(
                        at("defend"),
                        "defenses as free actions (they push turns within a round)",
                    ));
                }
                if g.prepare {
                    return Err(ExactError::unsupported(
                        at("prepare"),
                        "Prepare (its held turn is taken when first struck at)",
                    ));
                }
            }
        }
    }
    Ok(())
}
