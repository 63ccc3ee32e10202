//! FUDGE 4.4's ranged combat in battles (docs/rules.md §2.2.9, §5.1): a
//! FUDGE group with a `range` shoots at the distance of the moment.
//!
//! - The Difficulty Level is the distance's (core
//!   `distance::difficulty_at`, from the group's `range`) raised by the
//!   target's `cover`.
//! - An unaware target (surprise, the rear: §5.2) does not dodge: the shot
//!   is unopposed against the Difficulty Level. An aware one dodges with
//!   its `dodge` trait or else its combat skill, less the missile's -2 or
//!   -3 when propelled; its
//!   trained shield takes its ranged value off the shooter, a large one
//!   costs it -2 (core `RangedAttack::resolve`).
//! - Two shooters whose shots at each other land at the same moment
//!   exchange fire: neither dodges, each shot needs only its Difficulty
//!   Level, both may hit (core `exchange_fire`).
//! - A hit does its relative degree plus the damage factors (core
//!   `combat::shot_damage`), landing with the moment's other hits.
//!
//! A shot is not a melee exchange: the target cannot hurt the shooter by
//! dodging well, and shots take no part in the exchanges counted by round
//! or in FUDGE 4.34's lone fighter (`fight.rs` leaves them to this file).
//! Within the shooter's melee reach its attack is melee (FUDGE 4.1), an
//! exchange as any other.
//! The rules are core's; here they are only given the battle's fighters,
//! dice and distance.

use skirmish_core::combat;
use skirmish_core::distance::{best_roll, difficulty_at};
use skirmish_core::ladder::Level;
use skirmish_core::striking::opposed::{
    ExchangeOfFire, Modifier, RangedAttack, RangedDefense, RangedOutcome, ResultSource, Shooter, exchange_fire,
};

use super::distance::Line;
use super::targeting::Arrays;
use super::trace::{self, Trace};
use super::{Battle, Striking};
use crate::error::SimError;
use crate::report::BattleSummary;
use crate::roster::{NONE, reserve_fighters};
use skirmish_core::dice::SeededRolls;

/// Per fighter, the index of its pick in the moment's picks when it
/// shoots (FUDGE battles with a distance; empty otherwise): how a shot
/// finds the shot coming back at the same moment.
#[derive(Default)]
pub(super) struct Shots {
    pick_of: Vec<u32>,
}

impl Shots {
    /// Room for `n` fighters, when the battle has FUDGE shots.
    pub(super) fn reserve(&mut self, n: usize, shoots: bool) -> Result<(), SimError> {
        if shoots {
            reserve_fighters(&mut self.pick_of, n)?;
        }
        Ok(())
    }

    /// A new battle of `n` fighters.
    pub(super) fn reset(&mut self, n: usize, shoots: bool) {
        self.pick_of.clear();
        if shoots {
            self.pick_of.resize(n, NONE);
        }
    }

    /// Shooter `a`'s pick of this moment is the `i`th.
    #[inline]
    pub(super) fn note(&mut self, a: u32, i: usize) {
        if let Some(p) = self.pick_of.get_mut(a as usize) {
            *p = u32::try_from(i).unwrap_or(NONE);
        }
    }
}

/// The Difficulty Level of a shot: the distance, the part the distance
/// gives, and the whole with the target's cover.
struct Difficulty {
    distance: i64,
    by_distance: Level,
    cover: i32,
    level: Level,
}

impl Battle {
    /// Whether the battle has FUDGE 4.4 shots: a distance, FUDGE striking
    /// and a group with a `range`.
    pub(super) fn has_fudge_shots(&self) -> bool {
        self.distance.is_some()
            && matches!(self.striking, Striking::FudgeOpposed(_))
            && self.groups.iter().any(|g| g.field.reach.range().is_some())
    }

    /// Whether fighter `a`'s attack on `t` where they stand is a FUDGE 4.4
    /// shot: a FUDGE group with a `range`, its foe beyond its melee reach.
    /// Within it the attack is melee (FUDGE 4.1: "any attack from further
    /// away is a Ranged attack"), an exchange as any other.
    #[inline]
    pub(super) fn shoots_fudge(&self, a: u32, t: u32, line: &Line) -> bool {
        self.distance.is_some()
            && matches!(self.striking, Striking::FudgeOpposed(_))
            && self.field_of(a).reach.range().is_some()
            && line.between(a, t) > self.field_of(a).melee_reach
    }

    /// The best result fighter `a` can roll in `round` with its wound
    /// `penalty`: its skill (plus-levels counted) plus the best of the
    /// roll it makes (core `best_roll`): its own 4dF, its side's group 2dF
    /// (`group_roll`: the side rolls one this moment), or none for an NPC
    /// whose result is its trait level (FUDGE 4.33). What decides whether
    /// a shot is worth taking (§2.2.9).
    #[inline]
    pub(super) fn best_result(&self, a: u32, penalty: i32, round: u32, group_roll: bool) -> i32 {
        let g = &self.groups[self.group_of[a as usize] as usize].fighter;
        let skill = g.skill.in_round(round.max(1)).unwrap_or(g.skill.level).value();
        skill
            .saturating_add(penalty)
            .saturating_add(best_roll(g.npc_result, group_roll))
    }

    /// The Difficulty Level of `a`'s shot at `t` where they stand now.
    fn difficulty(&self, a: u32, t: u32, ws: &Arrays) -> Result<Difficulty, SimError> {
        let distance = ws.line.between(a, t);
        let Some(range) = self.field_of(a).reach.range() else {
            return Err(SimError::Scenario(format!(
                "{} shoots without a range",
                self.fighter_name(a)
            )));
        };
        let by_distance = difficulty_at(range, distance).map_err(SimError::rules)?;
        let cover = self.field_of(t).cover;
        Ok(Difficulty {
            distance,
            by_distance,
            cover,
            level: Level::new(by_distance.value().saturating_add(cover)),
        })
    }

    /// Where fighter `f`'s result comes from: none for an NPC whose result
    /// is its trait level (FUDGE 4.33), its side's group roll, or its own
    /// 4dF.
    fn source_of(&self, f: u32, ws: &Arrays) -> ResultSource {
        let g = &self.groups[self.group_of[f as usize] as usize].fighter;
        if g.npc_result {
            return ResultSource::TraitLevel;
        }
        match ws.side_roll.get(usize::from(self.side_of(f))).copied().flatten() {
            Some(roll) => ResultSource::Rolled { roll },
            None => ResultSource::Roll,
        }
    }

    /// Fighter `f`'s skill in `round` (plus-levels counted), before and
    /// after its wound penalty.
    fn skill_now(&self, f: u32, ws: &Arrays, round: u32) -> Result<(i32, i32), SimError> {
        let g = &self.groups[self.group_of[f as usize] as usize].fighter;
        let skill = g.skill.in_round(round.max(1)).map_err(SimError::rules)?.value();
        Ok((skill, skill.saturating_add(ws.penalty[f as usize])))
    }

    /// The `i`th pick of the moment, a FUDGE 4.4 shot: resolved (with the
    /// shot coming back at the same moment, if any: an exchange of fire),
    /// counted, traced, and a hit kept in `ws.hits` for the end of the
    /// moment. `prepared`: the Tick System's Prepare bonus to the target's
    /// defense (its dodge).
    pub(super) fn fudge_shot(
        &self,
        ws: &mut Arrays,
        rolls: &mut SeededRolls,
        (i, prepared): (usize, i32),
        (tick, round): (u64, u32),
        summary: &mut BattleSummary,
        trace: &mut Trace,
    ) -> Result<(), SimError> {
        if !ws.live[i] {
            // Fired already, in an exchange of fire with its target.
            return Ok(());
        }
        let (a, t, _) = ws.picks[i];
        let back = ws.shots.pick_of.get(t as usize).map(|&j| j as usize).filter(|&j| {
            j != i
                && ws.picks.get(j).is_some_and(|p| p.0 == t && p.1 == a)
                && ws.live.get(j) == Some(&true)
                && self.shoots_fudge(t, a, &ws.line)
        });
        if let Some(j) = back {
            ws.live[j] = false;
            return self.exchange_fire(ws, rolls, (a, t), round, summary, trace);
        }
        let unaware = self.defends_unaware(a, t, (tick, round), &ws.rear);
        let dl = self.difficulty(a, t, ws)?;
        let (a_skill, a_now) = self.skill_now(a, ws, round)?;
        // The target dodges with its dodge trait if it has one, else its
        // combat skill; its wounds count either way.
        let (t_skill, t_now) = match self.field_of(t).dodge {
            Some(dodge) => (dodge, dodge.saturating_add(ws.penalty[t as usize])),
            None => self.skill_now(t, ws, round)?,
        };
        let tg = &self.groups[self.group_of[t as usize] as usize].fighter;
        // Prepare's bonus, like every defensive bonus, needs awareness.
        let prepared = if unaware { 0 } else { prepared };
        let defense = if unaware {
            RangedDefense::Unaware
        } else {
            RangedDefense::Dodge {
                dodge_skill: Level::new(t_now.saturating_add(prepared)),
                source: self.source_of(t, ws),
                shield: tg.shield,
            }
        };
        let attack = RangedAttack {
            skill: Level::new(a_now),
            source: self.source_of(a, ws),
            difficulty_level: dl.level,
            missile: self.field_of(a).missile,
            defense,
        };
        let out = attack.resolve(rolls).map_err(SimError::rules)?;
        let how = if unaware { Against::Unaware } else { Against::Dodge };
        self.land_shot(ws, (a, t), &out, summary);
        trace.say(|| {
            let parts = ShotParts {
                shooter: (a_skill, ws.penalty[a as usize], self.rolls(a)),
                dodger: (t_skill, ws.penalty[t as usize], prepared, self.rolls(t)),
                dodge_trait: self.field_of(t).dodge.is_some(),
            };
            self.shot_line((a, t), &dl, &out, &parts, how)
        });
        Ok(())
    }

    /// Two shooters firing at each other at the same moment (FUDGE 4.4's
    /// shooting back, simultaneous by docs/rules.md §2.2.9): each shot
    /// unopposed against its own Difficulty Level, both landing.
    fn exchange_fire(
        &self,
        ws: &mut Arrays,
        rolls: &mut SeededRolls,
        (a, t): (u32, u32),
        round: u32,
        summary: &mut BattleSummary,
        trace: &mut Trace,
    ) -> Result<(), SimError> {
        let (dl_a, dl_t) = (self.difficulty(a, t, ws)?, self.difficulty(t, a, ws)?);
        let (a_skill, a_now) = self.skill_now(a, ws, round)?;
        let (t_skill, t_now) = self.skill_now(t, ws, round)?;
        let first = Shooter {
            skill: Level::new(a_now),
            source: self.source_of(a, ws),
            difficulty_level: dl_a.level,
        };
        let second = Shooter {
            skill: Level::new(t_now),
            source: self.source_of(t, ws),
            difficulty_level: dl_t.level,
        };
        let ExchangeOfFire {
            first: one,
            second: two,
        } = exchange_fire(&first, &second, rolls).map_err(SimError::rules)?;
        self.land_shot(ws, (a, t), &one, summary);
        self.land_shot(ws, (t, a), &two, summary);
        let parts = |s: u32, skill: i32| ShotParts {
            shooter: (skill, ws.penalty[s as usize], self.rolls(s)),
            dodger: (0, 0, 0, false),
            dodge_trait: false,
        };
        trace.say(|| self.shot_line((a, t), &dl_a, &one, &parts(a, a_skill), Against::ShootingBack));
        trace.say(|| self.shot_line((t, a), &dl_t, &two, &parts(t, t_skill), Against::ShootingBack));
        Ok(())
    }

    /// A shot's hit, kept for the end of the moment.
    fn land_shot(&self, ws: &mut Arrays, (a, t): (u32, u32), out: &RangedOutcome, summary: &mut BattleSummary) {
        let ag = &self.groups[self.group_of[a as usize] as usize].fighter;
        let tg = &self.groups[self.group_of[t as usize] as usize].fighter;
        if let Some(damage) = combat::shot_damage(out, ag.offense, tg.defense_factor) {
            summary.hits += 1;
            ws.hits.push((t, damage));
        }
    }

    /// Whether fighter `f` rolls (not an NPC whose result is its level).
    fn rolls(&self, f: u32) -> bool {
        !self.groups[self.group_of[f as usize] as usize].fighter.npc_result
    }

    /// A shot's trace line: the distance, the Difficulty Level and its
    /// parts, the shooter's result and its parts, the dodge (or why
    /// none), the outcome and its damage.
    fn shot_line(
        &self,
        (a, t): (u32, u32),
        dl: &Difficulty,
        out: &RangedOutcome,
        parts: &ShotParts,
        how: Against,
    ) -> String {
        let ag = &self.groups[self.group_of[a as usize] as usize].fighter;
        let tg = &self.groups[self.group_of[t as usize] as usize].fighter;
        let cover = if dl.cover == 0 {
            String::new()
        } else {
            format!(" {:+} cover", dl.cover)
        };
        let (skill, wounds, rolls) = parts.shooter;
        let shooter = result_words(
            out.result,
            (skill, "skill"),
            &[(wounds, "wounds")],
            &out.skill.modifiers,
            rolls,
        );
        let against = match (&out.dodge, how) {
            (Some(dodge), _) => {
                let (skill, wounds, prepared, rolls) = parts.dodger;
                format!(
                    "dodge {}",
                    result_words(
                        dodge.result,
                        (skill, if parts.dodge_trait { "dodge" } else { "skill" }),
                        &[(wounds, "wounds"), (prepared, "prepared")],
                        &dodge.skill.modifiers,
                        rolls
                    )
                )
            }
            (None, Against::ShootingBack) => "the Difficulty Level, shooting back".to_string(),
            (None, _) => "the Difficulty Level (unaware)".to_string(),
        };
        let end = if out.hit {
            format!("hit by {}", out.relative_degree)
        } else if out.dodge.is_some() && out.relative_degree > 0 {
            "short of the Difficulty Level: miss".to_string()
        } else {
            "miss".to_string()
        };
        let what = format!(
            "at {} ft, DL {} ({} by distance{cover}): {shooter} vs {against}: {end}",
            dl.distance, dl.level, dl.by_distance
        );
        let damage = combat::shot_damage(out, ag.offense, tg.defense_factor);
        let verb = if matches!(how, Against::ShootingBack) {
            "exchanges fire with"
        } else {
            "shoots"
        };
        trace::strike(
            (&self.fighter_name(a), &ag.weapon, &self.fighter_name(t)),
            verb,
            &what,
            damage,
            None,
        )
    }
}

/// How the target met a shot.
#[derive(Clone, Copy)]
enum Against {
    /// It dodged.
    Dodge,
    /// It did not see it coming.
    Unaware,
    /// It shot back at the same moment.
    ShootingBack,
}

/// The parts of a shot's results the outcome does not keep: the
/// shooter's (skill, wound penalty, rolls) and the dodger's (skill, wound
/// penalty, Prepare bonus, rolls).
struct ShotParts {
    shooter: (i32, i32, bool),
    dodger: (i32, i32, i32, bool),
    /// The dodger rolled its dodge trait, not its combat skill.
    dodge_trait: bool,
}

/// A result and every part of it: "Mediocre (+1 skill -1 wounds -1 roll)"
/// (the trait named "dodge" when a dodge trait was rolled).
fn result_words(
    result: Level,
    (skill, trait_name): (i32, &str),
    extra: &[(i32, &str)],
    modifiers: &[Modifier],
    rolls: bool,
) -> String {
    let mut words = format!("{result} ({skill:+} {trait_name}");
    let mut total = skill;
    for &(value, label) in extra {
        if value != 0 {
            words.push_str(&format!(" {value:+} {label}"));
            total = total.saturating_add(value);
        }
    }
    for m in modifiers {
        words.push_str(&format!(" {:+} {}", m.value, m.reason.label()));
        total = total.saturating_add(m.value);
    }
    if rolls {
        let roll = result.value().saturating_sub(total);
        words.push_str(&format!(" {roll:+} roll)"));
    } else {
        words.push_str(" no roll)");
    }
    words
}
