//! The words of a battle's trace, and where its lines go.
//!
//! The battle loop says what happened ([`Trace::say`]) only when someone
//! listens: the text is built inside a closure, so a battle without a
//! trace formats nothing. The lines are kept in the report when the
//! caller asked for them in memory.

use skirmish_core::combat::{AmazingEffect, ParriedBlow};
use skirmish_core::striking::full_contact::{POINT_BLANK_BONUS, RangedShot, StrikeOptions, StrikeOutcome};
use skirmish_core::striking::opposed::{Modifier, Stance};

use crate::report::TraceLine;

/// Where a battle's trace lines go, and the moment they are of.
pub(super) struct Trace<'s> {
    /// The lines kept for the report, when asked for.
    kept: Option<Vec<TraceLine>>,
    /// Where each line goes as it happens, if anywhere.
    sink: Option<&'s mut dyn FnMut(&TraceLine)>,
    /// The moment being fought: absolute tick, round, the system's label,
    /// the pass.
    at: (u64, u32, i64, u32),
}

impl<'s> Trace<'s> {
    /// A trace that keeps its lines when `keep` is set, hands each to
    /// `sink` if there is one, and says nothing otherwise.
    pub(super) fn new(keep: bool, sink: Option<&'s mut dyn FnMut(&TraceLine)>) -> Trace<'s> {
        Trace {
            kept: keep.then(Vec::new),
            sink,
            at: (0, 0, 0, 0),
        }
    }

    /// Whether anyone listens (the words are worth building).
    #[inline]
    pub(super) fn is_on(&self) -> bool {
        self.kept.is_some() || self.sink.is_some()
    }

    /// The lines that follow are of this moment.
    #[inline]
    pub(super) fn at(&mut self, tick: u64, round: u32, display: i64, pass: u32) {
        self.at = (tick, round, display, pass);
    }

    /// A line of the current moment, its text built only if someone listens.
    #[inline]
    pub(super) fn say(&mut self, text: impl FnOnce() -> String) {
        if !self.is_on() {
            return;
        }
        let (tick, round, display, pass) = self.at;
        let line = TraceLine {
            tick,
            round,
            display,
            pass,
            text: text(),
        };
        if let Some(sink) = self.sink.as_mut() {
            sink(&line);
        }
        if let Some(kept) = self.kept.as_mut() {
            kept.push(line);
        }
    }

    /// The lines kept for the report (`None` unless asked for).
    pub(super) fn into_kept(self) -> Option<Vec<TraceLine>> {
        self.kept
    }
}

/// An attacker with no target in reach.
pub(super) fn no_one_in_reach(attacker: &str) -> String {
    format!("{attacker} finds no one in reach")
}

/// A Full Contact strike's roll against the defense and its outcome.
pub(super) fn full_contact(sr: i32, roll: i32, dr: i32, outcome: &StrikeOutcome, unaware: bool) -> String {
    format!("SR {sr} {roll:+} vs DR {dr}{}: {outcome}", unaware_note(unaware))
}

/// One side of a FUDGE opposed exchange, as the trace shows it.
pub(super) struct OpposedPart {
    /// The result: skill + stance + penalty + modifiers - outnumbered + roll.
    pub(super) result: i32,
    /// The fighter's skill this round.
    pub(super) skill: i32,
    /// Its wound penalty (0, -1 Hurt, -2 Very Hurt).
    pub(super) penalty: i32,
    /// Its 4dF (or its side's group roll); none for an NPC whose result
    /// is its trait level (FUDGE 4.33).
    pub(super) roll: Option<i32>,
    /// The penalty for attackers beyond the first (FUDGE 4.34), when the
    /// rule is on.
    pub(super) outnumbered: i32,
    /// Its stance (FUDGE 4.31).
    pub(super) stance: Stance,
    /// Its standing modifiers against this foe (FUDGE 4.31: position, aim,
    /// shields).
    pub(super) modifiers: Vec<Modifier>,
    /// Its posture's modifier to this result (FUDGE 4.32: the offense
    /// modifier on offense, its opposite on defense).
    pub(super) posture: i32,
}

/// How a FUDGE opposed roll ended, for the trace.
pub(super) enum OpposedEnd {
    /// The attacker won by this degree and hit.
    Hit(i32),
    /// The defender won by this degree and hurt the attacker (a two-way
    /// exchange).
    Countered(i32),
    /// The attacker hit by the first degree and the defender hit back by
    /// the second (FUDGE 4.32's postures).
    Both(i32, i32),
    /// Nobody was hurt.
    NoHit,
}

/// A FUDGE opposed exchange: both sides' totals and their parts, and how
/// it ended.
pub(super) fn opposed(attack: &OpposedPart, defense: &OpposedPart, end: OpposedEnd) -> String {
    format!("{} vs {}: {}", part(attack), part(defense), end_text(end))
}

/// A blow the defender does not oppose: the lone fighter lets it meet his
/// armor (FUDGE 4.34), or he is unaware of it (surprised, struck from the
/// rear): the attacker's result against the Difficulty Level, his minimum
/// to hit.
pub(super) fn unopposed(attack: &OpposedPart, level: i32, end: OpposedEnd, unaware: bool) -> String {
    let why = if unaware { "unaware" } else { "ignored" };
    format!("{} vs {level} unopposed ({why}): {}", part(attack), end_text(end))
}

/// A Full Contact shot at range: the distance, the SR with its range
/// penalty and point-blank bonus, the roll against the DR.
pub(super) fn full_contact_shot(
    sr: i32,
    shot: RangedShot,
    point_blank: bool,
    (roll, dr, unaware): (i32, i32, bool),
    outcome: &StrikeOutcome,
) -> String {
    let options = StrikeOptions {
        point_blank,
        ..StrikeOptions::default()
    };
    let mut adjust = String::new();
    if shot.range_penalty() != 0 {
        adjust.push_str(&format!(" {} range", shot.range_penalty()));
    }
    if point_blank && shot.is_point_blank() {
        adjust.push_str(&format!(" +{POINT_BLANK_BONUS} point-blank"));
    }
    let sr_text = if adjust.is_empty() {
        format!("SR {sr}")
    } else {
        format!("SR {sr}{adjust} = {}", shot.strike_rating(sr, options))
    };
    format!(
        "at {} ft, {sr_text}, {roll:+} vs DR {dr}{}: {outcome}",
        shot.distance(),
        unaware_note(unaware)
    )
}

/// " (unaware)" after the DR of a defender who is.
pub(super) fn unaware_note(unaware: bool) -> &'static str {
    if unaware { " (unaware)" } else { "" }
}

/// A fighter moves toward its foes (`by` > 0) or away from them.
pub(super) fn moves(fighter: &str, by: i64, nearest: Option<i64>) -> String {
    let how = if by >= 0 {
        format!("moves {by} ft toward the foe")
    } else {
        format!("steps back {} ft", by.unsigned_abs())
    };
    match nearest {
        Some(d) => format!("{fighter} {how} (nearest foe {d} ft)"),
        None => format!("{fighter} {how}"),
    }
}

/// A fighter with no foe in reach and nothing to do by its plan.
pub(super) fn waits(fighter: &str, nearest: Option<i64>) -> String {
    match nearest {
        Some(d) => format!("{fighter} waits: no foe in reach (nearest {d} ft)"),
        None => format!("{fighter} waits"),
    }
}

/// The note on an exchange of a beset fighter (FUDGE 4.34): his blow
/// waits for the moment's other exchanges.
pub(super) fn beset(fighter: &str, foes: u32) -> String {
    format!("; {fighter} fights {foes} at once, his blow waits")
}

/// A beset fighter's blows once the moment's exchanges are known (FUDGE
/// 4.34): `worst` is his least relative degree over any foe he fought.
pub(super) fn lone(fighter: &str, foes: u32, worst: i32, blows: &[(String, i32)]) -> String {
    let how = if worst < 0 {
        "beaten by a foe, he lands no blow".to_string()
    } else if blows.is_empty() {
        if worst == 0 {
            "he ties the best and no foe is 2 below him: no blow".to_string()
        } else {
            "no blow of his can wound".to_string()
        }
    } else {
        let tie = if worst == 0 { "ties the best, " } else { "bests all, " };
        let hits: Vec<String> = blows.iter().map(|(f, d)| format!("{f}, damage {d}")).collect();
        let sweep = if blows.len() > 1 { " (a sweeping blow)" } else { "" };
        format!("{tie}hits {}{sweep}", hits.join(" and "))
    };
    format!("{fighter}, one roll against {foes} foes: {how}")
}

fn end_text(end: OpposedEnd) -> String {
    match end {
        OpposedEnd::Hit(degree) => format!("hit by {degree}"),
        OpposedEnd::Countered(degree) => format!("the defender wins by {degree}"),
        OpposedEnd::Both(degree, back) => format!("hit by {degree}, and the defender hits back by {back}"),
        OpposedEnd::NoHit => "no hit".to_string(),
    }
}

/// One side of an opposed roll: its result and every part of it.
fn part(p: &OpposedPart) -> String {
    {
        let outnumbered = if p.outnumbered > 0 {
            format!(", -{} outnumbered", p.outnumbered)
        } else {
            String::new()
        };
        // Every part of the total: skill + stance + wounds - outnumbered + roll.
        let stance = match p.stance {
            Stance::Normal => String::new(),
            Stance::AllOutOffense => " +1 all-out offense".to_string(),
            Stance::AllOutDefense => " +2 all-out defense".to_string(),
        };
        let wounds = if p.penalty != 0 {
            format!(" {:+} wounds", p.penalty)
        } else {
            String::new()
        };
        let modifiers: String = p
            .modifiers
            .iter()
            .map(|m| format!(" {:+} {}", m.value, m.reason.label()))
            .collect();
        let roll = match p.roll {
            Some(roll) => format!("{roll:+} roll"),
            None => "no roll".to_string(),
        };
        let roll = if p.posture != 0 {
            format!("{roll} {:+} posture", p.posture)
        } else {
            roll
        };
        format!(
            "{} ({:+} skill{stance}{wounds}{modifiers} {roll}{outnumbered})",
            p.result, p.skill
        )
    }
}

/// A strike: who, with what, at whom, how it went, the damage of a hit,
/// and the damage the target did back (a FUDGE two-way exchange it won).
pub(super) fn strike(
    (attacker, weapon, target): (&str, &str, &str),
    verb: &str,
    what: &str,
    damage: Option<i32>,
    counter: Option<i32>,
) -> String {
    let dmg = damage.map_or_else(String::new, |d| format!(", damage {d}"));
    let back = counter.map_or_else(String::new, |d| format!(", damage {d} to {attacker}"));
    format!("{attacker} ({weapon}) {verb} {target}: {what}{dmg}{back}")
}

/// A fighter's blow at a foe it already exchanged blows with this round
/// (FUDGE exchanges by round): the exchange was that blow.
pub(super) fn already_exchanged(attacker: &str, target: &str) -> String {
    format!("{attacker} and {target} have exchanged blows this round")
}

/// What the damage model made of a hit as it landed at the end of its
/// moment: the model's own result (FUDGE wound levels: the wound made and
/// the worst now held; hit points: those lost and left), and the wound
/// penalty it leaves on the fighter's rolls.
pub(super) fn damage_result(target: &str, damage: i32, change: &impl std::fmt::Display, penalty: i32) -> String {
    let rolls = if penalty == 0 {
        String::new()
    } else {
        format!(" ({penalty:+} to rolls)")
    };
    format!("{target} takes damage {damage}: {change}{rolls}")
}

/// A fighter falls.
pub(super) fn falls(fighter: &str) -> String {
    format!("{fighter} falls")
}

/// A fighter hit before its disruptible action landed loses it.
pub(super) fn disrupted(fighter: &str) -> String {
    format!("{fighter}'s action is disrupted")
}

/// A parry (docs/rules.md §2.1.4): the parrier's SR + roll against the
/// attack's total, and whether it knocked the blow aside.
pub(super) fn parry(parrier: &str, sr: i32, roll: i32, parried: &ParriedBlow) -> String {
    let p = parried.parry;
    let end = if parried.blocked {
        "knocked aside"
    } else {
        "the blow goes home"
    };
    format!(
        "; {parrier} parries: SR {sr} {roll:+} = {} vs {}, {end}",
        p.parry_total, p.attack_total
    )
}

/// A fighter whose action went on a parry (docs/rules.md §2.1.4).
pub(super) fn spent_on_parry(fighter: &str) -> String {
    format!("{fighter}'s action went to a parry")
}

/// A fighter whose action was lost to a disarm (docs/rules.md §2.1.8).
pub(super) fn lost_to_disarm(fighter: &str) -> String {
    format!("{fighter} recovers its weapon: the action is lost")
}

/// What an amazing result did (docs/rules.md §2.1.8); `attacker` suffers
/// a disarm or a knock-down.
pub(super) fn amazing(attacker: &str, effect: AmazingEffect) -> String {
    match effect {
        AmazingEffect::DoubleDamage => "; double damage".to_string(),
        AmazingEffect::Disarm => format!("; {attacker} is disarmed (its next action is lost)"),
        AmazingEffect::KnockDown { penalty } => {
            format!("; {attacker} is knocked down (DR -{penalty} until its next action)")
        }
    }
}

/// A side breaks off the battle (morale): `leaving` of its fighters
/// retreat or surrender, and why.
pub(super) fn breaks(side: &str, leaving: u64, outcome: &str, why: &str) -> String {
    let verb = match outcome {
        "surrender" => "surrender",
        _ => "retreat",
    };
    format!("{side} break ({why}): {leaving} standing {verb}")
}

/// A Tick System defense as a free action, and what it did to the
/// defender's timing.
pub(super) fn defends(fighter: &str, r: &skirmish_core::timing::tick_system::FreeActionResult) -> String {
    let mut text = if r.ticks == 0 {
        format!("{fighter} defends at no cost (prepared)")
    } else {
        format!("{fighter} defends ({} ticks)", r.ticks)
    };
    if r.cancelled_action {
        text += ", cancelling its action";
    }
    if r.pushed {
        text += ", pushing its next turn";
    }
    if let Some(turn) = r.next_turn {
        text += &format!("; next turn on {turn}");
    }
    text
}

/// A Tick System ranged attacker Acquires a new target: `extra` ticks
/// more, and its next turn (countdown tick) after them, if booked.
pub(super) fn acquires(fighter: &str, target: &str, extra: u32, next_turn: Option<i64>) -> String {
    let mut text = format!("{fighter} acquires {target} (+{extra} ticks)");
    if let Some(turn) = next_turn {
        text += &format!("; next turn on {turn}");
    }
    text
}

/// A prepared fighter struck at takes its held turn to attack.
pub(super) fn answers(fighter: &str) -> String {
    format!("{fighter} takes its held turn and attacks")
}
