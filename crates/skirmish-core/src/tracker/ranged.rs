//! FUDGE ranged combat at the table (FUDGE 4.4; docs/rules.md §2.2.9): a
//! shot against the GM's Difficulty Level, dodged or not, and two shooters
//! firing at each other at once.
//!
//! The rule is the core's ([`RangedAttack::resolve`], [`exchange_fire`]):
//! the tracker brings each fighter's skill (with its wound penalty of the
//! moment, its plus-level by the round), the target's shield, an NPC's
//! result, the table's dice, and lands the wound: a hit does its relative
//! degree (over the dodge, or over the Difficulty Level) plus the shooter's
//! offensive damage factor minus the target's defensive one, as a melee
//! blow does (§3.1).

use serde::{Deserialize, Serialize};

use crate::combat::shot_damage;
use crate::damage::WoundLevel;
use crate::dice::Dice;
use crate::fighter::{Fighter, Striking};
use crate::ladder::Level;
use crate::striking::opposed::{
    ExchangeOfFire, Missile, RangedAttack, RangedDefense, RangedOutcome, ResultSource, Shooter, exchange_fire,
};

use super::strike::{check_rating, check_roll, condition, describe_damage, hit_aftermath, no_roll, wound_in};
use super::{CombatantId, Encounter, LogEntry, State, TrackerError, TrackerResult, note};

/// How the target meets a shot (FUDGE 4.4).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ShotDefense {
    /// Aware, it dodges: an opposed roll of its dodge trait.
    #[default]
    Dodge,
    /// Unaware of the shot: the shooter needs only the Difficulty Level.
    Unaware,
}

/// A FUDGE shot's options.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ShotOptions {
    /// The GM's Difficulty Level for distance, light and cover (a ladder
    /// value within ±1000): the least result that hits, dodged or not.
    pub difficulty: i32,
    /// Dodged, or unaware.
    pub defense: ShotDefense,
    /// The target's dodge trait (a ladder value); `None`: its combat skill.
    pub dodge_skill: Option<i32>,
    /// Thrown (no modifier to the dodge) or propelled (-2 or -3 to it).
    pub missile: Missile,
}

impl Default for ShotOptions {
    fn default() -> Self {
        ShotOptions {
            difficulty: Level::FAIR.value(),
            defense: ShotDefense::Dodge,
            dodge_skill: None,
            missile: Missile::Thrown,
        }
    }
}

/// What a FUDGE shot did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShotReport {
    /// Who shot.
    pub shooter: CombatantId,
    /// At whom.
    pub target: CombatantId,
    /// The shooter's result.
    pub result: i32,
    /// The target's dodge result, when it dodged.
    pub dodge: Option<i32>,
    /// The Difficulty Level.
    pub difficulty: i32,
    /// The result over the dodge, or over the Difficulty Level.
    pub relative_degree: i32,
    /// Whether it hit.
    pub hit: bool,
    /// The damage it did (0 if it missed).
    pub damage: i32,
    /// The target's worst wound after it (wound track), if any.
    pub wound: Option<WoundLevel>,
    /// The target's hit points after it (hit points).
    pub hit_points: Option<i32>,
    /// It took the target out of the fight.
    pub went_down: bool,
    /// The log line it wrote.
    pub text: String,
}

/// A roll source: typed (checked as 4dF), an NPC's none, or the dice.
fn source(f: &Fighter, typed: Option<i32>, field: &str, who: &str) -> TrackerResult<ResultSource> {
    if f.npc_result {
        no_roll(typed, field, who)?;
        return Ok(ResultSource::TraitLevel);
    }
    Ok(match typed {
        None => ResultSource::Roll,
        Some(roll) => ResultSource::Rolled {
            roll: check_roll(Dice::FOUR_DF, roll, field)?,
        },
    })
}

impl Encounter {
    /// FUDGE 4.4: `shooter` shoots at `target` (FUDGE striking only). An
    /// unaware target: the shooter's result must reach the Difficulty
    /// Level. A dodging one rolls its dodge trait (its combat skill unless
    /// given; -2 or -3 against a propelled missile, -2 with its own large
    /// shield, and its trained shield takes its ranged value off the
    /// shooter): the shot must beat the dodge and reach the Difficulty
    /// Level. `dice` are the shooter's and the dodger's 4dF (`None`: the
    /// encounter rolls). Logged and undoable.
    ///
    /// Refused (changing nothing): an unknown combatant (`NotFound`); a
    /// shooter down (unless at this very moment) or removed, a removed
    /// target (`NotNow`); Full Contact striking, a combatant without stats,
    /// one shooting itself, a Difficulty Level or dodge trait beyond ±1000,
    /// a propelled missile's penalty other than 2 or 3, a typed roll the
    /// dice cannot show (`InvalidInput`, the field named).
    pub fn shoot(
        &mut self,
        shooter: CombatantId,
        target: CombatantId,
        options: ShotOptions,
        dice: (Option<i32>, Option<i32>),
    ) -> TrackerResult<ShotReport> {
        self.check_shot(shooter, target, "shooter")?;
        check_rating("options.difficulty", options.difficulty)?;
        if let Some(d) = options.dodge_skill {
            check_rating("options.dodge_skill", d)?;
        }
        options
            .missile
            .dodge_modifier()
            .map_err(|e| TrackerError::from(e.in_field("options")))?;
        self.mutate(|s, log| {
            let (sf, tf) = fighters(s, shooter, target)?;
            let round = s.scheduler.last_moment().map_or(1, |m| m.round).max(1);
            let skill = |f: &Fighter, c: CombatantId, s: &State| -> TrackerResult<Level> {
                let pen = s.combatants[c.0 as usize].moment_penalty;
                Ok(Level::new(f.skill.in_round(round)?.value().saturating_add(pen)))
            };
            let names = (
                s.combatants[shooter.0 as usize].name.clone(),
                s.combatants[target.0 as usize].name.clone(),
            );
            let defense = match options.defense {
                ShotDefense::Unaware => RangedDefense::Unaware,
                ShotDefense::Dodge => RangedDefense::Dodge {
                    dodge_skill: match options.dodge_skill {
                        Some(d) => Level::new(d.saturating_add(s.combatants[target.0 as usize].moment_penalty)),
                        None => skill(&tf, target, s)?,
                    },
                    source: source(&tf, dice.1, "dice.dodge", &names.1)?,
                    shield: tf.shield,
                },
            };
            let attack = RangedAttack {
                skill: skill(&sf, shooter, s)?,
                source: source(&sf, dice.0, "dice.attack", &names.0)?,
                difficulty_level: Level::new(options.difficulty),
                missile: options.missile,
                defense,
            };
            let out = attack.resolve(&mut s.rng).map_err(TrackerError::from)?;
            let report = land_shot(s, log, (shooter, target), (&sf, &tf), &out, options.difficulty)?;
            super::tick::blow_timing(s, log, (shooter, target), true)?;
            Ok(report)
        })
    }

    /// FUDGE 4.4: `first` and `second` shoot at each other instead of
    /// dodging, at once: each shot needs only its Difficulty Level
    /// (`difficulties`: the first's to hit the second, the second's to hit
    /// the first), and both may hit. `dice`: each one's 4dF (`None`: the
    /// encounter rolls, the first's first). Logged and undoable; refused as
    /// [`shoot`](Self::shoot).
    pub fn exchange_fire(
        &mut self,
        first: CombatantId,
        second: CombatantId,
        difficulties: (i32, i32),
        dice: (Option<i32>, Option<i32>),
    ) -> TrackerResult<(ShotReport, ShotReport)> {
        self.check_shot(first, second, "first")?;
        self.check_shot(second, first, "second")?;
        check_rating("difficulties.0", difficulties.0)?;
        check_rating("difficulties.1", difficulties.1)?;
        self.mutate(|s, log| {
            let (ff, sf) = fighters(s, first, second)?;
            let round = s.scheduler.last_moment().map_or(1, |m| m.round).max(1);
            let shooter = |f: &Fighter, c: CombatantId, typed, field, dl: i32| -> TrackerResult<Shooter> {
                let pen = s.combatants[c.0 as usize].moment_penalty;
                let name = s.combatants[c.0 as usize].name.clone();
                Ok(Shooter {
                    skill: Level::new(f.skill.in_round(round)?.value().saturating_add(pen)),
                    source: source(f, typed, field, &name)?,
                    difficulty_level: Level::new(dl),
                })
            };
            let a = shooter(&ff, first, dice.0, "dice.first", difficulties.0)?;
            let b = shooter(&sf, second, dice.1, "dice.second", difficulties.1)?;
            let ExchangeOfFire {
                first: one,
                second: two,
            } = exchange_fire(&a, &b, &mut s.rng).map_err(TrackerError::from)?;
            // Both shots were fired at once: each lands, whatever the other did.
            let x = land_shot(s, log, (first, second), (&ff, &sf), &one, difficulties.0)?;
            let y = land_shot(s, log, (second, first), (&sf, &ff), &two, difficulties.1)?;
            Ok((x, y))
        })
    }

    /// The checks of a shot from `shooter` at `target`.
    fn check_shot(&self, shooter: CombatantId, target: CombatantId, field: &str) -> TrackerResult<()> {
        if !matches!(self.state.rules.striking, Striking::FudgeOpposed(_)) {
            return Err(TrackerError::invalid(
                "striking",
                "this is FUDGE 4.4's ranged combat: the encounter uses full-contact striking (strike with range)",
            ));
        }
        self.blow_between(shooter, target, field)
    }
}

fn fighters(s: &State, a: CombatantId, b: CombatantId) -> TrackerResult<(Fighter, Fighter)> {
    match (super::stats_of(s, a.0 as usize), super::stats_of(s, b.0 as usize)) {
        (Some(x), Some(y)) => Ok((x.clone(), y.clone())),
        _ => Err(TrackerError::invalid("combatant", "has no combat stats")),
    }
}

/// Lands a shot's wound and logs it.
fn land_shot(
    s: &mut State,
    log: &mut Vec<LogEntry>,
    (shooter, target): (CombatantId, CombatantId),
    (sf, tf): (&Fighter, &Fighter),
    out: &RangedOutcome,
    difficulty: i32,
) -> TrackerResult<ShotReport> {
    let damage = shot_damage(out, sf.offense, tf.defense_factor).unwrap_or(0);
    let ti = target.0 as usize;
    let w = if out.hit { Some(wound_in(s, ti, damage)) } else { None };
    let after = w.as_ref().map_or(s.combatants[ti].damage, |w| w.after);
    let went_down = w.as_ref().is_some_and(|w| w.went_down);
    let (a, t) = (
        s.combatants[shooter.0 as usize].name.clone(),
        s.combatants[ti].name.clone(),
    );
    let against = match &out.dodge {
        Some(d) => format!(
            "{} vs dodge {} (at least {difficulty})",
            out.result.value(),
            d.result.value()
        ),
        None => format!("{} vs {difficulty}", out.result.value()),
    };
    let what = if out.hit {
        format!(
            "hit by {}, damage {damage}: {}",
            out.relative_degree,
            after.map_or_else(String::new, |d| describe_damage(&d))
        )
    } else {
        "miss".to_string()
    };
    let text = format!("{a} shoots at {t}: {against}, {what}");
    note(s, log, text.clone());
    if out.hit {
        hit_aftermath(s, log, target, went_down)?;
    }
    let (wound, hit_points) = condition(after);
    Ok(ShotReport {
        shooter,
        target,
        result: out.result.value(),
        dodge: out.dodge.as_ref().map(|d| d.result.value()),
        difficulty,
        relative_degree: out.relative_degree,
        hit: out.hit,
        damage: if out.hit { damage } else { 0 },
        wound,
        hit_points,
        went_down,
        text,
    })
}
