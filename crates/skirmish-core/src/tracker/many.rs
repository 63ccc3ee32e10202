//! One against many at the table (FUDGE 4.34; docs/rules.md §2.2.6): a
//! lone fighter's round against up to six foes, one roll of his against
//! each of theirs.
//!
//! The arithmetic is the battle engine's for a beset fighter, exchange by
//! exchange ([`combat::opposed_blow`] with each foe striking,
//! [`combat::counter_blow`] for his answer, [`combat::unopposed_blow`] for
//! a foe he ignores) and the text's rule for whom he may wound
//! ([`lone_blows`], [`may_wound`]): the tracker adds the GM's choices (the
//! group roll, the foes he ignores, the foe or foes he strikes) and the
//! table's words. The round is the text's simultaneous round, so the lone
//! fighter answers even in an encounter of one-way strikes.

use serde::{Deserialize, Serialize};

use crate::combat::{self, OpposedSide};
use crate::damage::WoundLevel;
use crate::dice::Dice;
use crate::fighter::{ExchangeRule, Striking};
use crate::striking::opposed::{Reach, SweepingBlow, lone_blows, may_wound};

use super::strike::{
    check_rating, condition, describe_damage, fudge_parts, hit_aftermath, no_roll, part, table_roll, wound_in,
};
use super::{CombatantId, Encounter, LogEntry, Part, State, TrackerError, TrackerResult, note};

/// The GM's choices for a lone fighter's round.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LoneFighterOptions {
    /// FUDGE 4.34: one 2dF for every foe (its result: skill + that roll),
    /// instead of each foe's own 4dF; an NPC whose result is its trait
    /// level still rolls nothing.
    pub group_roll: bool,
    /// Foes the (well-armored) lone fighter lets try his armor: he neither
    /// defends against them nor can wound them; each hits when its result
    /// reaches its minimum to hit. Not every foe.
    pub ignore: Vec<CombatantId>,
    /// The foe he wounds, of those he may (several only with the encounter's
    /// sweeping blow); empty: the blow that hurts most (with a sweeping
    /// blow, every foe he may wound).
    pub strike: Vec<CombatantId>,
    /// The GM's modifier to the lone fighter's result (position, a shield
    /// the tracker does not know of): within ±1000.
    pub modifier: i32,
}

/// The dice of a lone fighter's round: typed in, or `None` for the
/// encounter to roll (the lone fighter, the group's 2dF, each foe in order).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LoneFighterDice {
    /// The lone fighter's 4dF.
    pub lone: Option<i32>,
    /// The group's 2dF (with [`LoneFighterOptions::group_roll`]).
    pub group: Option<i32>,
    /// Each foe's 4dF, in the order of the foes: empty (all rolled) or one
    /// per foe. Not with a group roll.
    pub foes: Vec<Option<i32>>,
}

/// One foe's part in a lone fighter's round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LoneFoe {
    /// The foe.
    pub foe: CombatantId,
    /// Its roll (its own 4dF, the group's 2dF, 0 for an NPC result).
    pub roll: i32,
    /// Its result (its offense against the lone fighter).
    pub total: i32,
    /// Its terms.
    pub breakdown: Vec<Part>,
    /// The lone fighter's result against this foe (his defense; the
    /// Difficulty Level for an ignored foe).
    pub lone_total: i32,
    /// The lone fighter's relative degree over this foe (his offense
    /// against its defense).
    pub margin: i32,
    /// The lone fighter ignored this foe.
    pub ignored: bool,
    /// The lone fighter may wound this foe (FUDGE 4.34's rule).
    pub may_be_wounded: bool,
    /// This foe wounded the lone fighter.
    pub hit: bool,
    /// The damage it did him (0 if it did not hit).
    pub damage_to_lone: i32,
    /// The damage the lone fighter's blow did this foe, if he struck it.
    pub damage: Option<i32>,
    /// This foe's worst wound after the round (wound track), if any.
    pub wound: Option<WoundLevel>,
    /// Its hit points after the round (hit points).
    pub hit_points: Option<i32>,
    /// The lone fighter's blow took it out of the fight.
    pub went_down: bool,
}

/// What a lone fighter's round did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LoneFighterReport {
    /// The lone fighter.
    pub lone: CombatantId,
    /// His one roll (0 for an NPC result).
    pub lone_roll: i32,
    /// The group's 2dF, when the GM rolled once for every foe.
    pub group_roll: Option<i32>,
    /// His result before each foe's own modifiers (its shield, his Scale
    /// against it), with its terms: skill, stance, wounds, the extra foes,
    /// the GM's modifier, the roll.
    pub lone_result: i32,
    /// Its terms.
    pub lone_breakdown: Vec<Part>,
    /// Each foe, in the order given.
    pub foes: Vec<LoneFoe>,
    /// His worst wound after the round (wound track), if any.
    pub wound: Option<WoundLevel>,
    /// His hit points after the round (hit points).
    pub hit_points: Option<i32>,
    /// The foes' blows took him out of the fight.
    pub went_down: bool,
    /// The log lines it wrote, joined.
    pub text: String,
}

impl Encounter {
    /// FUDGE 4.34 at the table: `lone` fights `foes` (one to six) for a
    /// round. He rolls once, and his result meets each foe's; every foe who
    /// beats him (with at least its minimum to hit) wounds him; he wounds
    /// one foe only if he beat or tied them all (tying the best, only a foe
    /// two levels below him), or several with the encounter's sweeping
    /// blow. He is at the rules' per-foe penalty for each foe beyond the
    /// first, ignored ones included. Rolls: his, then the group's 2dF, then
    /// each foe's; postures (FUDGE 4.32) drawn his first, then each foe's.
    /// A lone fighter whose profile says `concentrate`, given no foes to
    /// ignore, fights one (the first he strikes, else the first named) and
    /// ignores the others, as in battles.
    ///
    /// Refused (changing nothing): an unknown combatant (`NotFound`); a
    /// lone fighter or foe who is down (unless it went down at this very
    /// moment) or removed (`NotNow`); Full Contact striking, no foes or more
    /// than six, a foe twice or the lone fighter among them, a combatant
    /// without stats, an ignored or struck foe not among the foes, every
    /// foe ignored, a struck foe he may not wound, several struck without
    /// the sweeping blow, typed dice that do not fit (`InvalidInput`, the
    /// field named).
    pub fn lone_fighter(
        &mut self,
        lone: CombatantId,
        foes: &[CombatantId],
        options: &LoneFighterOptions,
        dice: &LoneFighterDice,
    ) -> TrackerResult<LoneFighterReport> {
        let Striking::FudgeOpposed(rules) = self.state.rules.striking else {
            return Err(TrackerError::invalid(
                "striking",
                "one against many is FUDGE 4.34: this encounter uses full-contact striking",
            ));
        };
        self.fighter_now(lone, "lone")?;
        let most = Reach::Ideal.max_attackers() as usize;
        if foes.is_empty() || foes.len() > most {
            return Err(TrackerError::invalid(
                "foes",
                format!(
                    "{} foes: one to {most} can attack a lone fighter at once (FUDGE 4.34)",
                    foes.len()
                ),
            ));
        }
        for (i, &f) in foes.iter().enumerate() {
            let field = format!("foes[{i}]");
            if f == lone {
                return Err(TrackerError::invalid(&field, "the lone fighter is not his own foe"));
            }
            if foes[..i].contains(&f) {
                return Err(TrackerError::invalid(
                    &field,
                    format!("combatant {} is named twice", f.0),
                ));
            }
            self.fighter_now(f, &field)?;
        }
        // The well-armored fighter of his profile (`concentrate`): the
        // others meet his armor, as in battles (docs/rules.md §2.2.6).
        let concentrating;
        let options = match super::stats_of(&self.state, lone.0 as usize) {
            Some(lf) if lf.concentrate && options.ignore.is_empty() && foes.len() > 1 => {
                let fought = options.strike.first().copied().unwrap_or(foes[0]);
                concentrating = LoneFighterOptions {
                    ignore: foes.iter().copied().filter(|&f| f != fought).collect(),
                    ..options.clone()
                };
                &concentrating
            }
            _ => options,
        };
        for (field, chosen) in [("options.ignore", &options.ignore), ("options.strike", &options.strike)] {
            for (i, c) in chosen.iter().enumerate() {
                let name = self
                    .combatant(*c)
                    .map_or_else(|_| format!("combatant {}", c.0), |x| x.name.clone());
                if !foes.contains(c) {
                    return Err(TrackerError::invalid(field, format!("{name} is not one of the foes")));
                }
                if chosen[..i].contains(c) {
                    return Err(TrackerError::invalid(field, format!("{name} is named twice")));
                }
            }
        }
        if options.ignore.len() == foes.len() {
            return Err(TrackerError::invalid(
                "options.ignore",
                "every foe is ignored; the lone fighter must fight at least one",
            ));
        }
        if let Some(c) = options.strike.iter().find(|c| options.ignore.contains(c)) {
            return Err(TrackerError::invalid(
                "options.strike",
                format!(
                    "{} is ignored: he cannot wound it",
                    self.combatant(*c).map_or("it", |x| x.name.as_str())
                ),
            ));
        }
        if options.strike.len() > 1 && rules.sweeping_blow == SweepingBlow::Off {
            return Err(TrackerError::invalid(
                "options.strike",
                "wounding more than one foe needs the sweeping blow (the rules' `sweeping_blow`)",
            ));
        }
        check_rating("options.modifier", options.modifier)?;
        if !dice.foes.is_empty() && dice.foes.len() != foes.len() {
            return Err(TrackerError::invalid(
                "dice.foes",
                format!(
                    "{} rolls for {} foes: give one per foe, or none",
                    dice.foes.len(),
                    foes.len()
                ),
            ));
        }
        if options.group_roll && dice.foes.iter().any(Option::is_some) {
            return Err(TrackerError::invalid(
                "dice.foes",
                "with a group roll the foes roll no dice of their own: type the group's 2dF",
            ));
        }
        if !options.group_roll && dice.group.is_some() {
            return Err(TrackerError::invalid(
                "dice.group",
                "a group's 2dF needs options.group_roll",
            ));
        }
        self.mutate(|s, log| lone_in(s, log, lone, foes, options, dice))
    }
}

fn lone_in(
    s: &mut State,
    log: &mut Vec<LogEntry>,
    lone: CombatantId,
    foes: &[CombatantId],
    options: &LoneFighterOptions,
    dice: &LoneFighterDice,
) -> TrackerResult<LoneFighterReport> {
    let Striking::FudgeOpposed(rules) = s.rules.striking else {
        return Err(TrackerError::invalid("striking", "not FUDGE striking"));
    };
    // The text's simultaneous round: he answers whatever the encounter's
    // exchange rule.
    let rules = crate::fighter::FudgeRules {
        exchange: ExchangeRule::TwoWay,
        ..rules
    };
    let li = lone.0 as usize;
    let stats = |s: &State, c: usize| {
        super::stats_of(s, c)
            .cloned()
            .ok_or_else(|| TrackerError::invalid("combatant", "has no combat stats"))
    };
    let lf = stats(s, li)?;
    let lone_name = s.combatants[li].name.clone();
    // The rolls: his, the group's, each foe's.
    let lone_roll = if lf.npc_result {
        no_roll(dice.lone, "dice.lone", &lone_name)?
    } else {
        table_roll(s, Dice::FOUR_DF, dice.lone, "dice.lone")?
    };
    let group_roll = if options.group_roll {
        Some(table_roll(s, Dice::TWO_DF, dice.group, "dice.group")?)
    } else {
        None
    };
    let mut rolls = Vec::with_capacity(foes.len());
    for (i, &f) in foes.iter().enumerate() {
        let ff = stats(s, f.0 as usize)?;
        let typed = dice.foes.get(i).copied().flatten();
        let field = format!("dice.foes[{i}]");
        let roll = if ff.npc_result {
            no_roll(typed, &field, &s.combatants[f.0 as usize].name)?
        } else if let Some(g) = group_roll {
            g
        } else {
            table_roll(s, Dice::FOUR_DF, typed, &field)?
        };
        rolls.push(roll);
    }
    // The postures: his, then each foe's.
    let lone_posture = lf.posture.draw(&mut s.rng).offense();
    let round = s.scheduler.last_moment().map_or(1, |m| m.round).max(1);
    let lone_skill = lf.skill.in_round(round)?.value();
    let lone_penalty = s.combatants[li].moment_penalty;
    // FUDGE 4.31: a combatant a foe scouted is at -1 (`scouting.rs`).
    let (lone_scouted, lone_scouted_part) = super::scouting::scouted_penalty(s, li);
    let extra = u32::try_from(foes.len()).unwrap_or(u32::MAX);
    let outnumbered = rules.outnumbered(extra);
    let own = combat::Bearing::of(&lf).own;
    let extra_foes = [
        (own != 0).then(|| part("own position, aim, shield", own)),
        (outnumbered != 0).then(|| part("extra foes", outnumbered.saturating_neg())),
        lone_scouted_part,
    ]
    .into_iter()
    .flatten();
    let lone_breakdown = fudge_parts(
        (lone_skill, lf.stance, lone_penalty),
        extra_foes,
        options.modifier,
        lone_roll,
        lone_posture,
    );
    let lone_side = |foe: &crate::fighter::Fighter| {
        let m = combat::matchup(&lf, foe, &rules);
        OpposedSide {
            skill: lone_skill.saturating_add(options.modifier),
            penalty: lone_penalty,
            outnumbered,
            roll: lone_roll,
            stance: lf.stance,
            modifier: m.modifier.saturating_add(lone_scouted),
            minimum: m.minimum,
            posture: lone_posture,
        }
    };
    // His result before each foe's modifiers (his own position, aim and
    // large shield counted), and his posture's offense.
    let lone_result = OpposedSide {
        modifier: combat::Bearing::of(&lf).own.saturating_add(lone_scouted),
        ..lone_side(&lf)
    }
    .total()
    .saturating_add(lone_posture);
    // Each foe's exchange with him.
    let mut parts = Vec::with_capacity(foes.len());
    let mut answers = Vec::with_capacity(foes.len());
    for (i, &f) in foes.iter().enumerate() {
        let fi = f.0 as usize;
        let ff = stats(s, fi)?;
        let posture = ff.posture.draw(&mut s.rng).offense();
        let m = combat::matchup(&ff, &lf, &rules);
        let skill = ff.skill.in_round(round)?.value();
        let penalty = s.combatants[fi].moment_penalty;
        let (scouted, scouted_part) = super::scouting::scouted_penalty(s, fi);
        let side = OpposedSide {
            skill,
            penalty,
            outnumbered: 0,
            roll: rolls[i],
            stance: ff.stance,
            modifier: m.modifier.saturating_add(scouted),
            minimum: m.minimum,
            posture,
        };
        let ignored = options.ignore.contains(&f);
        let (blow, answer) = if ignored {
            (combat::unopposed_blow(side, ff.offense, lf.defense_factor), None)
        } else {
            let blow = combat::opposed_blow(side, lone_side(&ff), ff.offense, lf.defense_factor);
            // His degree as FUDGE 4.34 compares it: a tie 4.31 gives to
            // one side (against an all-out attacker) is a win or loss by 1.
            let back = combat::counter_blow(&blow, &rules, lf.offense, ff.defense_factor);
            (blow, Some((blow.defender_degree(), back)))
        };
        let mut breakdown = fudge_parts(
            (skill, ff.stance, penalty),
            m.modifiers
                .iter()
                .map(|x| part(x.reason.label(), x.value))
                .chain(scouted_part),
            0,
            rolls[i],
            posture,
        );
        if group_roll.is_some()
            && !ff.npc_result
            && let Some(last) = breakdown.iter_mut().rev().find(|p| p.label == "roll")
        {
            last.label = "group roll".to_string();
        }
        if let Some(a) = answer {
            answers.push((i, a));
        }
        parts.push(LoneFoe {
            foe: f,
            roll: rolls[i],
            total: blow.attack,
            breakdown,
            lone_total: blow.defense,
            margin: if ignored {
                0
            } else {
                blow.answer.0.saturating_sub(blow.answer.1)
            },
            ignored,
            may_be_wounded: false,
            hit: blow.landed,
            damage_to_lone: if blow.landed { blow.damage } else { 0 },
            damage: None,
            wound: None,
            hit_points: None,
            went_down: false,
        });
    }
    // Whom he may wound (FUDGE 4.34), and whom he does.
    let worst = answers.iter().map(|&(_, (m, _))| m).min().unwrap_or(0);
    for &(i, (margin, back)) in &answers {
        parts[i].may_be_wounded = back.is_some() && may_wound(worst, margin);
    }
    let mut blows: Vec<(usize, i32)> = Vec::new();
    if options.strike.is_empty() {
        let fought: Vec<(i32, Option<i32>)> = answers.iter().map(|&(_, a)| a).collect();
        lone_blows(&fought, rules.sweeping_blow, |k, d| blows.push((answers[k].0, d)));
    } else {
        let n = i32::try_from(options.strike.len()).unwrap_or(i32::MAX);
        let change = rules.sweeping_blow.damage_per_extra_foe().saturating_mul(n - 1);
        for c in &options.strike {
            let i = foes.iter().position(|f| f == c).unwrap_or(0);
            let Some(&(_, (_, Some(d)))) = answers
                .iter()
                .find(|&&(k, _)| k == i)
                .filter(|_| parts[i].may_be_wounded)
            else {
                return Err(TrackerError::invalid(
                    "options.strike",
                    format!(
                        "{} may not be wounded this round: the lone fighter must beat or tie every foe, \
                         and tying the best he may wound only a foe two levels below him",
                        s.combatants[c.0 as usize].name
                    ),
                ));
            };
            blows.push((i, d.saturating_add(change)));
        }
    }
    // The wounds: each foe's on him, in order, then his.
    let mut lines = Vec::new();
    let names: Vec<String> = foes.iter().map(|f| s.combatants[f.0 as usize].name.clone()).collect();
    let against: Vec<String> = parts
        .iter()
        .zip(&names)
        .map(|(p, n)| {
            if p.ignored {
                format!("{n} {} (ignored)", p.total)
            } else {
                format!("{n} {}", p.total)
            }
        })
        .collect();
    lines.push(format!(
        "{lone_name} fights {} at once: {lone_result} against {}",
        foes.len(),
        against.join(", ")
    ));
    let mut lone_after = s.combatants[li].damage;
    let mut went_down = false;
    for (i, p) in parts.iter().enumerate() {
        if !p.hit {
            continue;
        }
        let w = wound_in(s, li, p.damage_to_lone);
        went_down |= w.went_down;
        if w.after.is_some() {
            lone_after = w.after;
        }
        let degree = p.total.saturating_sub(p.lone_total);
        lines.push(format!(
            "{} hits {lone_name} by {degree}, damage {}: {}",
            names[i],
            p.damage_to_lone,
            lone_after.map_or_else(String::new, |d| describe_damage(&d))
        ));
    }
    let how = if worst < 0 {
        "beaten by a foe, he lands no blow".to_string()
    } else if blows.is_empty() {
        "he lands no blow".to_string()
    } else {
        let tie = if worst == 0 { "ties the best" } else { "bests them all" };
        format!("{tie} and strikes")
    };
    let mut struck = Vec::new();
    for &(i, d) in &blows {
        let fi = foes[i].0 as usize;
        let w = wound_in(s, fi, d);
        parts[i].damage = Some(d);
        parts[i].went_down = w.went_down;
        struck.push(format!(
            "{} by {}, damage {d}: {}",
            names[i],
            parts[i].margin,
            w.after.map_or_else(String::new, |a| describe_damage(&a))
        ));
    }
    lines.push(if struck.is_empty() {
        format!("{lone_name} {how}")
    } else {
        format!("{lone_name} {how} {}", struck.join(" and "))
    });
    let text = lines.join("; ");
    note(s, log, text.clone());
    // Taken out or disrupted: the foes who hit him, then those he hit.
    if parts.iter().any(|p| p.hit) {
        hit_aftermath(s, log, lone, went_down)?;
    }
    for &(i, _) in &blows {
        hit_aftermath(s, log, foes[i], parts[i].went_down)?;
    }
    for p in &mut parts {
        (p.wound, p.hit_points) = condition(s.combatants[p.foe.0 as usize].damage);
    }
    let (wound, hit_points) = condition(s.combatants[li].damage);
    Ok(LoneFighterReport {
        lone,
        lone_roll,
        group_roll,
        lone_result,
        lone_breakdown,
        foes: parts,
        wound,
        hit_points,
        went_down,
        text,
    })
}
