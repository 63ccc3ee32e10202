//! Strikes and wounds at the table: a combatant with combat stats strikes
//! another, with dice typed in from the table or rolled by the encounter,
//! under the encounter's striking rules; the damage model marks the wound.
//!
//! The arithmetic is the battle engine's own ([`crate::combat`]): a test
//! feeds both the same dice and compares every field. What the tracker adds
//! is the table's view: each side's total with its breakdown, the wound in
//! words, and the timing consequences:
//!
//! - **Simultaneity** (docs/rules.md §1.8): a roll takes the wound penalty its
//!   fighter had when the current moment began; a wound struck in the
//!   moment counts from the next. A combatant taken out in the moment still
//!   strikes in it (two fighters can fell each other). Who strikes when is
//!   the GM's call: the tracker does not require the attacker to be acting
//!   at this moment.
//! - **Taken out**: marked down, and its line's pending action is
//!   cancelled once no member of it stands.
//! - **Disruption**: a hit on a combatant whose pending action is
//!   disruptible (a spell) loses that action, as in the battle engine; an
//!   action landing at this moment has already completed. A group's members
//!   share one action, so a hit on one member does not disrupt the group's.
//! - FUDGE's multi-foe penalty and situational modifiers (position,
//!   shields, aim) are the GM's call here: pass them as
//!   [`EncounterStrikeOptions::modifier`].
//! - **The Tick System** (docs/rules.md §1.5): a prepared target's defense
//!   gets Prepare's bonus (a "prepared" term); a target whose profile
//!   defends as a free action (`defend = "free_action"`) takes one, its
//!   first while prepared free; a ranged blow (a `range`, a FUDGE shot) at
//!   another target than the attacker's last ranged blow's Acquires it.
//! - **Amazing defenses** (docs/rules.md §2.1.8): under the rules'
//!   `amazing_defense`, the attacker is disarmed or knocked down until its
//!   next action (`amazing.rs`); a knocked-down target's DR has a
//!   "knocked down" term.

use serde::{Deserialize, Serialize};

use crate::combat::{self, OpposedSide};
use crate::damage::{DamageModel, DamageState, HitPointState, WoundLevel, WoundTrack};
use crate::dice::{Dice, RollSource, ScriptedRolls};
use crate::fighter::{RATING_LIMIT, Striking};
use crate::striking::full_contact::{RangedShot, StrikeOutcome};
use crate::striking::opposed::{Posture, Stance};

use super::{ActorId, CombatantId, Encounter, LogEntry, State, Status, TrackerError, TrackerResult, note};

/// How a strike is made.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct EncounterStrikeOptions {
    /// Full Contact: the target parries, a Strike roll (the defense die)
    /// against the attack's SR + roll; only a parry that exceeds it knocks
    /// the blow aside.
    pub parry: bool,
    /// Full Contact: a ranged shot at this distance with the weapon's Short
    /// range and Range Strength (-1 SR per Range Strength or part beyond
    /// Short range).
    pub range: Option<RangedShot>,
    /// Full Contact: the optional point-blank rule (+2 SR nearer than the
    /// Range Strength) for this shot; no effect without a `range`, as in
    /// the rule itself.
    pub point_blank: bool,
    /// The GM's modifier to the attacker's total (position, aim, shields,
    /// FUDGE's -1 per extra foe): within ±1000.
    pub modifier: i32,
    /// FUDGE 4.32: the attacker's posture this exchange (-2..=2, its
    /// offense modifier); `None`: the fighter's own (its fixed posture, or
    /// one drawn from its mixed strategy by the encounter's dice).
    pub attacker_posture: Option<i32>,
    /// FUDGE 4.32: the defender's posture this exchange, as
    /// `attacker_posture`.
    pub defender_posture: Option<i32>,
}

/// The dice of a strike: typed in from the table, or `None` for the
/// encounter to roll (attack first, then defense).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct StrikeDice {
    /// The attacker's 4dF (Full Contact Strike roll, FUDGE opposed roll).
    pub attack: Option<i32>,
    /// The defender's 4dF: FUDGE's opposed roll, or Full Contact's parry
    /// roll (a Full Contact defender rolls only to parry with
    /// [`EncounterStrikeOptions::parry`]; a roll typed in without one is checked and
    /// not used).
    pub defense: Option<i32>,
}

impl StrikeDice {
    /// Dice typed in: the attacker's roll and, if any, the defender's.
    pub const fn typed(attack: i32, defense: Option<i32>) -> StrikeDice {
        StrikeDice {
            attack: Some(attack),
            defense,
        }
    }
}

/// One term of a total, as the GM reads it: `("strike rating", 9)`,
/// `("Hurt", -1)`, `("roll", -1)`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Part {
    /// What it is.
    pub label: String,
    /// What it adds.
    pub value: i32,
}

pub(super) fn part(label: impl Into<String>, value: i32) -> Part {
    Part {
        label: label.into(),
        value,
    }
}

/// What a strike did, as an app branches on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StrikeResult {
    /// It landed.
    Hit,
    /// Full Contact, optional: an amazing strike.
    AmazingStrike,
    /// Full Contact, optional: a +4 that lands by the guaranteed-success rule.
    GuaranteedHit,
    /// It missed (Full Contact), or lost or tied the opposed roll (FUDGE).
    Miss,
    /// Full Contact, optional: an amazing defense.
    AmazingDefense,
    /// Full Contact, optional: a -4 that misses by the fumble rule.
    Fumble,
    /// Full Contact: range brought the SR to 0 or less.
    OutOfReach,
    /// Full Contact: the target parried.
    Parried,
    /// FUDGE: won, but below the minimum result to hit.
    BelowMinimum,
    /// FUDGE, a two-way exchange: the defender won the roll and hurt the
    /// attacker.
    Countered,
    /// FUDGE 4.31: won, but in all-out defense, which cannot harm.
    CannotHarm,
}

impl StrikeResult {
    /// The result in words, the one home of them (the log, the CLI and
    /// the bindings say these): `"hit"`, `"parried"`, `"below the minimum
    /// to hit"`, ...; the Full Contact outcomes as
    /// [`StrikeOutcome::name`] says them.
    ///
    /// ```
    /// use skirmish_core::tracker::StrikeResult;
    /// assert_eq!(StrikeResult::AmazingDefense.name(), "amazing defense");
    /// assert_eq!(StrikeResult::BelowMinimum.name(), "below the minimum to hit");
    /// ```
    pub const fn name(self) -> &'static str {
        let outcome = match self {
            StrikeResult::Parried => return "parried",
            StrikeResult::BelowMinimum => return "below the minimum to hit",
            StrikeResult::Countered => return "countered",
            StrikeResult::CannotHarm => return "won, but in all-out defense",
            StrikeResult::Hit => StrikeOutcome::Hit { margin: 0 },
            StrikeResult::AmazingStrike => StrikeOutcome::AmazingStrike { margin: 0 },
            StrikeResult::GuaranteedHit => StrikeOutcome::GuaranteedHit { margin: 0 },
            StrikeResult::Miss => StrikeOutcome::Miss { margin: 0 },
            StrikeResult::AmazingDefense => StrikeOutcome::AmazingDefense { margin: 0 },
            StrikeResult::Fumble => StrikeOutcome::Fumble { margin: 0 },
            StrikeResult::OutOfReach => StrikeOutcome::OutOfReach {
                strike_rating: 0,
                margin: 0,
            },
        };
        outcome.name()
    }

    fn of(outcome: StrikeOutcome) -> StrikeResult {
        match outcome {
            StrikeOutcome::Hit { .. } => StrikeResult::Hit,
            StrikeOutcome::AmazingStrike { .. } => StrikeResult::AmazingStrike,
            StrikeOutcome::GuaranteedHit { .. } => StrikeResult::GuaranteedHit,
            StrikeOutcome::Miss { .. } => StrikeResult::Miss,
            StrikeOutcome::AmazingDefense { .. } => StrikeResult::AmazingDefense,
            StrikeOutcome::Fumble { .. } => StrikeResult::Fumble,
            StrikeOutcome::OutOfReach { .. } => StrikeResult::OutOfReach,
        }
    }
}

/// What a strike did: everything a table app shows.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StrikeReport {
    /// Who struck.
    pub attacker: CombatantId,
    /// Whom.
    pub target: CombatantId,
    /// The striking system ("full-contact", "fudge-opposed").
    pub striking: String,
    /// The attacker's 4dF.
    pub attack_roll: i32,
    /// The defender's 4dF (FUDGE opposed, or a Full Contact parry).
    pub defense_roll: Option<i32>,
    /// The attack's total: SR (after range) + roll, or the FUDGE result.
    pub attack_total: i32,
    /// Its terms.
    pub attack_breakdown: Vec<Part>,
    /// The defense's total: the DR, or the defender's FUDGE result.
    pub defense_total: i32,
    /// Its terms.
    pub defense_breakdown: Vec<Part>,
    /// A parry's total (SR + parry roll), when the target parried.
    pub parry_total: Option<i32>,
    /// What it did.
    pub result: StrikeResult,
    /// The margin (attack - defense), or the relative degree.
    pub margin: i32,
    /// Whether it landed.
    pub landed: bool,
    /// The damage it did (0 if it did not land).
    pub damage: i32,
    /// The target's worst wound after it (wound track), if any.
    pub wound: Option<WoundLevel>,
    /// The wound box this blow marked (wound track), if any.
    pub marked: Option<WoundLevel>,
    /// The target's hit points after it (hit points).
    pub hit_points: Option<i32>,
    /// The target's wound penalty now (from the next moment on).
    pub penalty: i32,
    /// This blow took the target out of the fight.
    pub went_down: bool,
    /// This blow killed the target.
    pub died: bool,
    /// This blow disrupted the target's pending disruptible action.
    pub disrupted: bool,
    /// FUDGE two-way exchange won by the defender
    /// ([`StrikeResult::Countered`]): the damage the defender did to the
    /// attacker; 0 otherwise.
    pub counter_damage: i32,
    /// The defender's answer took the attacker out of the fight.
    pub attacker_went_down: bool,
    /// The defender's answer killed the attacker.
    pub attacker_died: bool,
    /// The defender's answer disrupted the attacker's pending disruptible
    /// action.
    pub attacker_disrupted: bool,
    /// The log line it wrote.
    pub text: String,
}

/// A GM's override of a combatant's damage.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "set", rename_all = "snake_case")]
pub enum WoundOverride {
    /// Set the wound track (wound-track encounters).
    Wounds {
        /// The boxes filled.
        track: WoundTrack,
    },
    /// Set the hit points left (hit-point encounters).
    HitPoints {
        /// Hit points left.
        hp: i32,
    },
    /// Heal every wound: back to no damage taken.
    Heal,
}

/// Reads one roll of `dice`: typed in (checked against what the dice can
/// show, the field named) or rolled from the encounter. The one door of
/// every roll the table types in.
pub(super) fn table_roll(s: &mut State, dice: Dice, typed: Option<i32>, field: &str) -> TrackerResult<i32> {
    match typed {
        Some(r) => check_roll(dice, r, field),
        None => s.rng.roll(dice).map_err(TrackerError::from),
    }
}

/// A roll typed in, checked against what `dice` can show.
pub(super) fn check_roll(dice: Dice, roll: i32, field: &str) -> TrackerResult<i32> {
    ScriptedRolls::new([roll])
        .roll(dice)
        .map_err(|e| TrackerError::invalid(field, e.to_string()))
}

/// Reads one 4dF: typed in (validated) or rolled from the encounter.
fn four_df(s: &mut State, typed: Option<i32>, field: &str) -> TrackerResult<i32> {
    table_roll(s, Dice::FOUR_DF, typed, field)
}

/// A GM's number (a modifier, a Difficulty Level) within ±[`RATING_LIMIT`].
pub(super) fn check_rating(field: &str, value: i32) -> TrackerResult<()> {
    if (-RATING_LIMIT..=RATING_LIMIT).contains(&value) {
        Ok(())
    } else {
        Err(TrackerError::invalid(
            field,
            format!("{value} is outside {}..={}", -RATING_LIMIT, RATING_LIMIT),
        ))
    }
}

/// Whether combatant `c` is still in the fight: standing, or taken out at
/// this very moment (simultaneity, docs/rules.md §1.8: it still strikes and
/// answers in it).
pub(super) fn in_the_fight(s: &State, c: &super::roster::Combatant) -> bool {
    let in_a_moment = s.moments > 0 && !s.current.is_empty();
    c.status == Status::Standing || (c.status == Status::Down && in_a_moment && c.down_at_moment == Some(s.moments))
}

/// A combatant's worst wound and hit points, as reports give them.
pub(super) fn condition(d: Option<DamageState>) -> (Option<WoundLevel>, Option<i32>) {
    match d {
        Some(DamageState::FudgeWounds(w)) => (w.worst(), None),
        Some(DamageState::HitPoints(h)) => (None, Some(h.hp())),
        None => (None, None),
    }
}

/// The roll of a FUDGE 4.33 NPC, whose result is its trait level: none,
/// so a typed roll other than 0 is refused.
pub(super) fn no_roll(typed: Option<i32>, field: &str, who: &str) -> TrackerResult<i32> {
    match typed {
        None | Some(0) => Ok(0),
        Some(r) => Err(TrackerError::invalid(
            field,
            format!("{r}: {who} rolls no dice (an NPC whose result is its trait level, FUDGE 4.33); give no roll or 0"),
        )),
    }
}

/// A stance's term of a FUDGE result (FUDGE 4.31), if it has one.
fn stance_part(stance: Stance) -> Option<Part> {
    match stance {
        Stance::Normal => None,
        Stance::AllOutOffense => Some(part("all-out offense", stance.skill_bonus())),
        Stance::AllOutDefense => Some(part("all-out defense", stance.skill_bonus())),
    }
}

/// The terms of a FUDGE result as the GM reads them: skill, stance,
/// wounds, then `modifiers` (FUDGE 4.31's, the extra foes), the GM's
/// modifier, the roll, and the posture as it counts on this side.
pub(super) fn fudge_parts(
    (skill, stance, penalty): (i32, Stance, i32),
    modifiers: impl IntoIterator<Item = Part>,
    gm: i32,
    roll: i32,
    posture: i32,
) -> Vec<Part> {
    let mut parts = vec![part("skill", skill)];
    parts.extend(stance_part(stance));
    parts.extend(penalty_part(penalty));
    parts.extend(modifiers);
    if gm != 0 {
        parts.push(part("GM modifier", gm));
    }
    parts.push(part("roll", roll));
    if posture != 0 {
        parts.push(part("posture", posture));
    }
    parts
}

/// A wound landed on combatant `i` (one with stats): its damage state
/// after, the box marked, and whether it went down or died by it.
pub(super) struct Wound {
    pub(super) after: Option<DamageState>,
    pub(super) marked: Option<WoundLevel>,
    pub(super) went_down: bool,
    pub(super) died: bool,
}

/// Lands `damage` on combatant `i` under the encounter's damage model.
pub(super) fn wound_in(s: &mut State, i: usize, damage: i32) -> Wound {
    let mut w = Wound {
        after: s.combatants[i].damage,
        marked: None,
        went_down: false,
        died: false,
    };
    if let Some(mut state) = w.after {
        let out = s.model.apply(&mut state, damage);
        if let crate::damage::DamageChange::FudgeWounds(change) = out.change {
            w.marked = change.marked;
        }
        w.went_down = out.newly_down();
        w.died = out.newly_dead();
        w.after = Some(state);
        s.combatants[i].damage = w.after;
    }
    w
}

/// Prepare's bonus as a term of the defense, if any.
fn prepared_part(bonus: i32) -> Option<Part> {
    (bonus != 0).then(|| part("prepared", bonus))
}

fn penalty_part(p: i32) -> Option<Part> {
    match p {
        0 => None,
        -1 => Some(part("Hurt", -1)),
        -2 => Some(part("Very Hurt", -2)),
        p => Some(part("wounds", p)),
    }
}

impl Encounter {
    /// `attacker` strikes `target` under the encounter's striking rules,
    /// with `dice` typed in or rolled; the damage model marks the wound.
    ///
    /// - **Simultaneity** (docs/rules.md §1.8): a roll takes the wound penalty its
    ///   fighter had when the current moment began; a wound struck in the
    ///   moment counts from the next. A combatant taken out in the moment still
    ///   strikes in it (two fighters can fell each other). Who strikes when is
    ///   the GM's call: the tracker does not require the attacker to be acting
    ///   at this moment.
    /// - **Taken out**: marked down, and its line's pending action is
    ///   cancelled once no member of it stands.
    /// - **Disruption**: a hit on a combatant whose pending action is
    ///   disruptible (a spell) loses that action, as in the battle engine; an
    ///   action landing at this moment has already completed. A group's members
    ///   share one action, so a hit on one member does not disrupt the group's.
    /// - FUDGE's multi-foe penalty and situational modifiers (position,
    ///   shields, aim) are the GM's call here: pass them as
    ///   [`EncounterStrikeOptions::modifier`].
    /// - **Tick System**: Prepare's bonus to a prepared target's defense,
    ///   the target's defense as a free action when its profile says so,
    ///   Acquire for a ranged blow at a new target (see the module docs).
    ///
    /// Refused (changing nothing): an unknown combatant (`NotFound`); an
    /// attacker that is down (unless it went down at this very moment) or
    /// removed, a removed target (`NotNow`); either without combat stats, a
    /// combatant striking itself, a typed roll the dice cannot show, a
    /// modifier beyond ±1000, range or parry under FUDGE striking
    /// (`InvalidInput`).
    pub fn strike(
        &mut self,
        attacker: CombatantId,
        target: CombatantId,
        options: EncounterStrikeOptions,
        dice: StrikeDice,
    ) -> TrackerResult<StrikeReport> {
        self.blow_between(attacker, target, "attacker")?;
        if options.parry {
            self.can_parry(target)?;
        }
        let (a, t) = (self.combatant(attacker)?, self.combatant(target)?);
        check_rating("options.modifier", options.modifier)?;
        if matches!(self.state.rules.striking, Striking::FudgeOpposed(_))
            && (options.parry || options.range.is_some() || options.point_blank)
        {
            return Err(TrackerError::invalid(
                "options",
                "parry, range and point-blank are Full Contact rules; under FUDGE striking the defender's roll is \
                 its defense",
            ));
        }
        let postures = [
            ("options.attacker_posture", options.attacker_posture, a.line),
            ("options.defender_posture", options.defender_posture, t.line),
        ];
        for (field, posture, line) in postures {
            let Some(p) = posture else { continue };
            if !matches!(self.state.rules.striking, Striking::FudgeOpposed(_)) {
                return Err(TrackerError::invalid(
                    field,
                    "postures are FUDGE 4.32 rules: this encounter uses full-contact striking",
                ));
            }
            Posture::new(p).map_err(|_| {
                TrackerError::invalid(field, format!("{p} is not a posture: the offense modifier is -2..=2"))
            })?;
            if let Some(stats) = &self.state.lines[line as usize].stats
                && stats.stance != Stance::Normal
            {
                return Err(TrackerError::invalid(
                    field,
                    format!(
                        "postures (FUDGE 4.32) replace the all-out stances: {} fights in {}",
                        stats.name,
                        stats.stance.name()
                    ),
                ));
            }
        }
        self.mutate(|s, log| strike_in(s, log, attacker, target, options, dice))
    }

    /// A GM's override of a combatant's damage: set its wound track or hit
    /// points, or heal it. Logged and undoable. A combatant set to a
    /// taken-out level goes down (its pending action cancelled); one that
    /// is down stays out of the fight (`NotNow` if the override would stand
    /// it up: add it again instead).
    pub fn set_damage(&mut self, id: CombatantId, change: WoundOverride) -> TrackerResult<()> {
        let c = self.combatant(id)?;
        if c.status == Status::Removed {
            return Err(TrackerError::not_now("combatant", format!("{} is removed", c.name)));
        }
        let Some(stats) = &self.state.lines[c.line as usize].stats else {
            return Err(TrackerError::invalid(
                "combatant",
                format!("{} has no combat stats", c.name),
            ));
        };
        let model = &self.state.model;
        let new_state = match (change, c.damage) {
            (WoundOverride::Heal, _) => super::fresh_damage(model, stats),
            (WoundOverride::Wounds { track }, Some(DamageState::FudgeWounds(_))) => DamageState::FudgeWounds(track),
            (WoundOverride::HitPoints { hp }, Some(DamageState::HitPoints(_))) => {
                DamageState::HitPoints(HitPointState::new(hp))
            }
            _ => {
                return Err(TrackerError::invalid(
                    "change",
                    format!("this encounter's damage model is {}", model.name()),
                ));
            }
        };
        super::validate_damage(model, stats, &new_state).map_err(|e| TrackerError::from(e.in_field("change")))?;
        let down = model.is_down(&new_state);
        if c.status == Status::Down && !down {
            return Err(TrackerError::not_now(
                "combatant",
                format!("{} is down and out of the fight: add it again to bring it back", c.name),
            ));
        }
        self.mutate(|s, log| {
            let penalty = s.model.wound_penalty(&new_state);
            let standing = s.combatants[id.0 as usize].status == Status::Standing;
            {
                let c = &mut s.combatants[id.0 as usize];
                c.damage = Some(new_state);
                // The GM's word counts at once, this moment included.
                c.moment_penalty = penalty;
            }
            let name = s.combatants[id.0 as usize].name.clone();
            note(s, log, format!("GM sets {name}: {}", describe_damage(&new_state)));
            if standing && down {
                take_out_in(s, log, id, Status::Down)?;
            }
            Ok(())
        })
    }

    /// A combatant's wound penalty now (0 for one without stats).
    pub fn penalty(&self, id: CombatantId) -> TrackerResult<i32> {
        let c = self.combatant(id)?;
        Ok(c.damage.map_or(0, |d| self.state.model.wound_penalty(&d)))
    }
}

/// The damage state in words: "Hurt (scratch 2, hurt 1)", "3 hp".
pub(super) fn describe_damage(d: &DamageState) -> String {
    match d {
        DamageState::FudgeWounds(w) => {
            let worst = w.worst().map_or("unhurt", WoundLevel::name);
            let boxes: Vec<String> = WoundLevel::WITH_BOXES
                .into_iter()
                .filter(|l| w.filled(*l) > 0)
                .map(|l| format!("{} {}", l.name(), w.filled(l)))
                .collect();
            if boxes.is_empty() {
                worst.to_string()
            } else {
                format!("{worst} ({})", boxes.join(", "))
            }
        }
        DamageState::HitPoints(h) => format!("{} hp", h.hp()),
    }
}

/// Marks combatant `id` down or removed; its line's pending action goes
/// once no member of it stands.
pub(super) fn take_out_in(
    s: &mut State,
    log: &mut Vec<LogEntry>,
    id: CombatantId,
    status: Status,
) -> TrackerResult<()> {
    let line = s.combatants[id.0 as usize].line;
    s.combatants[id.0 as usize].status = status;
    if status == Status::Down {
        s.combatants[id.0 as usize].down_at_moment = Some(s.moments);
    }
    let left = s.lines[line as usize]
        .members
        .iter()
        .any(|&m| s.combatants[m as usize].status == Status::Standing);
    if !left {
        s.scheduler.remove(ActorId(line))?;
    }
    let name = s.combatants[id.0 as usize].name.clone();
    let verb = if status == Status::Down {
        "is down"
    } else {
        "is removed"
    };
    note(s, log, format!("{name} {verb}"));
    Ok(())
}

fn strike_in(
    s: &mut State,
    log: &mut Vec<LogEntry>,
    attacker: CombatantId,
    target: CombatantId,
    options: EncounterStrikeOptions,
    dice: StrikeDice,
) -> TrackerResult<StrikeReport> {
    let (ai, ti) = (attacker.0 as usize, target.0 as usize);
    let (Some(af), Some(tf)) = (super::stats_of(s, ai).cloned(), super::stats_of(s, ti).cloned()) else {
        return Err(TrackerError::invalid("combatant", "has no combat stats"));
    };
    let (a_pen, t_pen) = (s.combatants[ai].moment_penalty, s.combatants[ti].moment_penalty);
    // Tick System: a prepared target's bonus to its defense (Prepare).
    let prepared = s.scheduler.defense_bonus(ActorId(s.combatants[ti].line));
    let striking = s.rules.striking;
    let fudge = matches!(striking, Striking::FudgeOpposed(_));
    let attack_roll = if fudge && af.npc_result {
        no_roll(dice.attack, "dice.attack", &s.combatants[ai].name)?
    } else {
        four_df(s, dice.attack, "dice.attack")?
    };
    let mut attack_breakdown = Vec::new();
    let mut defense_breakdown = Vec::new();
    let (attack_total, defense_total, defense_roll, parry_total, result, margin, landed, damage);
    // The defender's answer's relative degree (FUDGE), for the words.
    let mut answer_margin = 0;
    // A FUDGE two-way exchange the defender won: his damage to the attacker.
    let mut counter = None;
    // What a Full Contact amazing result does beyond the damage (§2.1.8).
    let mut effect = None;
    match striking {
        Striking::FullContact(rules) => {
            let sr = af.strike_rating.saturating_add(a_pen).saturating_add(options.modifier);
            // A knocked-down target defends the worse (§2.1.8).
            let knocked = s.combatants[ti].upset.knocked_down_by();
            let dr = tf
                .defense_rating
                .saturating_add(t_pen)
                .saturating_add(prepared)
                .saturating_sub(knocked);
            if !options.parry && dice.defense.is_some() {
                // A Full Contact defender rolls only to parry: a typed roll is
                // checked like any other, then has nothing to do.
                four_df(s, dice.defense, "dice.defense")?;
            }
            attack_breakdown.push(part("strike rating", af.strike_rating));
            attack_breakdown.extend(penalty_part(a_pen));
            if options.modifier != 0 {
                attack_breakdown.push(part("GM modifier", options.modifier));
            }
            let fc = combat::strike_options(&rules, options.point_blank);
            let final_sr = match options.range {
                Some(shot) => {
                    let adjusted = i32::try_from(shot.strike_rating(sr, fc)).unwrap_or(i32::MIN);
                    if adjusted != sr {
                        attack_breakdown.push(part("range", adjusted.saturating_sub(sr)));
                    }
                    adjusted
                }
                None => sr,
            };
            attack_breakdown.push(part("roll", attack_roll));
            defense_breakdown.push(part("defense rating", tf.defense_rating.saturating_sub(tf.armor_bonus)));
            if tf.armor_bonus != 0 {
                defense_breakdown.push(part("armor", tf.armor_bonus));
            }
            defense_breakdown.extend(penalty_part(t_pen));
            defense_breakdown.extend(prepared_part(prepared));
            if knocked != 0 {
                defense_breakdown.push(part("knocked down", knocked.saturating_neg()));
            }
            let parry_roll = if options.parry {
                Some(four_df(s, dice.defense, "dice.defense")?)
            } else {
                None
            };
            let blow = combat::full_contact_blow(
                sr,
                dr,
                attack_roll,
                options.range,
                options.point_blank,
                &rules,
                af.offense,
                tf.defense_factor,
            )
            .map_err(TrackerError::from)?;
            effect = blow.effect;
            // The parry, the battle engine's own: a Strike roll against
            // the attack's final value (SR after range + roll).
            let parry = match parry_roll {
                Some(roll) => {
                    let parry_sr = tf.strike_rating.saturating_add(t_pen);
                    Some((roll, combat::parry_blow(&blow, final_sr, parry_sr, roll, &rules)?))
                }
                None => None,
            };
            attack_total = final_sr.saturating_add(attack_roll);
            defense_total = dr;
            defense_roll = parry.map(|(r, _)| r);
            parry_total = parry.map(|(_, p)| i32::try_from(p.parry.parry_total).unwrap_or(i32::MAX));
            margin = i32::try_from(blow.outcome.margin()).unwrap_or(i32::MIN);
            // A parry matters only to a blow that would land.
            if parry.is_some_and(|(_, p)| p.blocked) {
                result = StrikeResult::Parried;
                landed = false;
                damage = 0;
            } else {
                result = StrikeResult::of(blow.outcome);
                landed = blow.landed;
                damage = if landed { blow.damage } else { 0 };
            }
        }
        Striking::FudgeOpposed(rules) => {
            let defense = if tf.npc_result {
                no_roll(dice.defense, "dice.defense", &s.combatants[ti].name)?
            } else {
                four_df(s, dice.defense, "dice.defense")?
            };
            // FUDGE 4.31's standing modifiers and the minimums, each way.
            let (am, tm) = (combat::matchup(&af, &tf, &rules), combat::matchup(&tf, &af, &rules));
            // FUDGE 4.31: a combatant a foe scouted is at -1 (`scouting.rs`).
            let (a_scouted, a_scouted_part) = super::scouting::scouted_penalty(s, ai);
            let (t_scouted, t_scouted_part) = super::scouting::scouted_penalty(s, ti);
            // FUDGE 4.32: each side's posture, typed in, or its own (a mixed
            // strategy drawn by the encounter's dice, attacker first).
            let ap = options
                .attacker_posture
                .unwrap_or_else(|| af.posture.draw(&mut s.rng).offense());
            let tp = options
                .defender_posture
                .unwrap_or_else(|| tf.posture.draw(&mut s.rng).offense());
            // Plus-levels count by the round of the moment, as in the
            // battle engine (under Continuous: the stopwatch lap).
            let round = s.scheduler.last_moment().map_or(1, |m| m.round).max(1);
            let a_skill = af.skill.in_round(round)?.value();
            let t_skill = tf.skill.in_round(round)?.value();
            let blow = combat::opposed_blow(
                OpposedSide {
                    skill: a_skill.saturating_add(options.modifier),
                    penalty: a_pen,
                    outnumbered: 0,
                    roll: attack_roll,
                    stance: af.stance,
                    modifier: am.modifier.saturating_add(a_scouted),
                    minimum: am.minimum,
                    posture: ap,
                },
                OpposedSide {
                    skill: t_skill,
                    penalty: t_pen,
                    outnumbered: 0,
                    roll: defense,
                    stance: tf.stance,
                    modifier: tm.modifier.saturating_add(prepared).saturating_add(t_scouted),
                    minimum: tm.minimum,
                    posture: tp,
                },
                af.offense,
                tf.defense_factor,
            );
            // Only a target still in the fight answers: standing, or taken
            // out at this very moment (simultaneity, as an attacker may).
            counter = if in_the_fight(s, &s.combatants[ti]) {
                combat::counter_blow(&blow, &rules, tf.offense, af.defense_factor)
            } else {
                None
            };
            let labelled = |m: &combat::Matchup| {
                m.modifiers
                    .iter()
                    .map(|m| part(m.reason.label(), m.value))
                    .collect::<Vec<_>>()
            };
            attack_breakdown = fudge_parts(
                (a_skill, af.stance, a_pen),
                labelled(&am).into_iter().chain(a_scouted_part),
                options.modifier,
                attack_roll,
                ap,
            );
            defense_breakdown = fudge_parts(
                (t_skill, tf.stance, t_pen),
                labelled(&tm)
                    .into_iter()
                    .chain(t_scouted_part)
                    .chain(prepared_part(prepared)),
                0,
                defense,
                tp.saturating_neg(),
            );
            attack_total = blow.attack;
            defense_total = blow.defense;
            defense_roll = Some(defense);
            parry_total = None;
            margin = blow.degree;
            answer_margin = blow.answer.0.saturating_sub(blow.answer.1);
            landed = blow.landed;
            damage = if landed { blow.damage } else { 0 };
            result = if landed {
                StrikeResult::Hit
            } else if counter.is_some() {
                StrikeResult::Countered
            } else if blow.attacker_won() && af.stance == Stance::AllOutDefense {
                StrikeResult::CannotHarm
            } else if blow.attacker_won() {
                StrikeResult::BelowMinimum
            } else {
                StrikeResult::Miss
            };
        }
    }

    // The wound.
    let mut disrupted = false;
    let Wound {
        after,
        marked,
        went_down,
        died,
    } = if landed {
        wound_in(s, ti, damage)
    } else {
        Wound {
            after: s.combatants[ti].damage,
            marked: None,
            went_down: false,
            died: false,
        }
    };
    let penalty = after.map_or(0, |d| s.model.wound_penalty(&d));
    // The defender's answer in a two-way exchange he won.
    let mut attacker_after = None;
    let (mut attacker_went_down, mut attacker_died, mut attacker_disrupted) = (false, false, false);
    if let Some(back) = counter
        && s.combatants[ai].damage.is_some()
    {
        let w = wound_in(s, ai, back);
        (attacker_went_down, attacker_died, attacker_after) = (w.went_down, w.died, w.after);
    }
    let counter_damage = if attacker_after.is_some() {
        counter.unwrap_or(0)
    } else {
        0
    };
    let (a_name, t_name) = (s.combatants[ai].name.clone(), s.combatants[ti].name.clone());
    let what = match result {
        StrikeResult::Parried => "parried".to_string(),
        StrikeResult::BelowMinimum => format!("wins by {margin} but {}", result.name()),
        // FUDGE 4.31: a tie against an all-out attacker is the defender's.
        StrikeResult::Countered if answer_margin == 0 => format!("{t_name} wins the tie against an all-out attack"),
        StrikeResult::Countered => format!("{t_name} wins by {answer_margin}"),
        r if landed => format!("{} by {margin}", r.name()),
        r => r.name().to_string(),
    };
    let wound_text = match (landed, attacker_after) {
        (true, None) => format!(
            ", damage {damage}: {}",
            after.map_or_else(String::new, |d| describe_damage(&d))
        ),
        (false, Some(d)) => format!(", damage {counter_damage} to {a_name}: {}", describe_damage(&d)),
        // FUDGE 4.32: under postures both may hit.
        (true, Some(d)) => format!(
            ", damage {damage}: {}; {t_name} hits back by {answer_margin}, damage {counter_damage} to {a_name}: {}",
            after.map_or_else(String::new, |d| describe_damage(&d)),
            describe_damage(&d)
        ),
        (false, None) => String::new(),
    };
    let mut text = format!(
        "{a_name} strikes {t_name}: {attack_total} vs {defense_total}{}, {what}{wound_text}",
        parry_total.map_or_else(String::new, |p| format!(" (parry {p})"))
    );
    if let Some(upset) = super::amazing::befall(s, ai, effect) {
        text += "; ";
        text += &upset;
    }
    note(s, log, text.clone());
    if landed {
        disrupted = hit_aftermath(s, log, target, went_down)?;
    }
    if attacker_after.is_some() {
        attacker_disrupted = hit_aftermath(s, log, attacker, attacker_went_down)?;
    }
    super::tick::blow_timing(s, log, (attacker, target), options.range.is_some())?;
    let (wound, hit_points) = condition(after);
    Ok(StrikeReport {
        attacker,
        target,
        striking: striking.name().to_string(),
        attack_roll,
        defense_roll,
        attack_total,
        attack_breakdown,
        defense_total,
        defense_breakdown,
        parry_total,
        result,
        margin,
        landed,
        damage,
        wound,
        marked,
        hit_points,
        penalty,
        went_down,
        died,
        disrupted,
        counter_damage,
        attacker_went_down,
        attacker_died,
        attacker_disrupted,
        text,
    })
}

/// What a wound does next to a combatant still standing: down if it
/// `went_down`, else its pending disruptible action disrupted (a line of
/// one). Returns whether an action was disrupted.
pub(super) fn hit_aftermath(
    s: &mut State,
    log: &mut Vec<LogEntry>,
    who: CombatantId,
    went_down: bool,
) -> TrackerResult<bool> {
    let i = who.0 as usize;
    if s.combatants[i].status != Status::Standing {
        return Ok(false);
    }
    if went_down {
        take_out_in(s, log, who, Status::Down)?;
        return Ok(false);
    }
    let line = s.combatants[i].line;
    if s.lines[line as usize].members.len() == 1 && s.scheduler.disrupt(ActorId(line))? {
        let label = s.lines[line as usize].label.clone();
        let name = s.combatants[i].name.clone();
        note(
            s,
            log,
            format!(
                "{name}'s {} is disrupted",
                if label.is_empty() { "action" } else { &label }
            ),
        );
        return Ok(true);
    }
    Ok(false)
}

impl Encounter {
    /// The checks of one combatant who acts (strikes, shoots, fights
    /// alone), named `field`: known (`NotFound`), in the fight, one taken
    /// out at this very moment included (`NotNow`), with combat stats
    /// (`InvalidInput`).
    pub(super) fn fighter_now(&self, id: CombatantId, field: &str) -> TrackerResult<()> {
        let c = self.combatant(id)?;
        if !in_the_fight(&self.state, c) {
            let what = if c.status == Status::Down { "down" } else { "removed" };
            return Err(TrackerError::not_now(field, format!("{} is {what}", c.name)));
        }
        self.not_recovering(id, field)?;
        self.with_stats(id, field)
    }

    /// That combatant `id` (named `field`) has combat stats.
    pub(super) fn with_stats(&self, id: CombatantId, field: &str) -> TrackerResult<()> {
        let c = self.combatant(id)?;
        if self.state.lines[c.line as usize].stats.is_none() {
            return Err(TrackerError::invalid(
                field,
                format!("{} has no combat stats (add it with add_fighter)", c.name),
            ));
        }
        Ok(())
    }

    /// The checks of a blow (a strike, a shot) from `from` (named `field`)
    /// at `target`: two known combatants with stats, not the same one; the
    /// striker in the fight; the target not removed (a target down may
    /// still be struck).
    pub(super) fn blow_between(&self, from: CombatantId, target: CombatantId, field: &str) -> TrackerResult<()> {
        self.combatant(from)?;
        let t = self.combatant(target)?;
        if from == target {
            return Err(TrackerError::invalid(
                "target",
                "a combatant cannot take itself as its target",
            ));
        }
        self.fighter_now(from, field)?;
        if t.status == Status::Removed {
            return Err(TrackerError::not_now("target", format!("{} is removed", t.name)));
        }
        self.with_stats(target, "target")
    }
}
