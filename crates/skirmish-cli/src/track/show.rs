//! What `skirmish track` prints: the tick sheet, turns, strike reports and
//! the GM's and players' views.

use skirmish_core::damage::{DamageConfig, WoundLevel};
use skirmish_core::fighter::Striking;
use skirmish_core::striking::full_contact::{StrikeOptions, odds};
use skirmish_core::timing::TimingSystem;
use skirmish_core::tracker::{
    CombatantId, Encounter, LoneFighterReport, Part, SheetLine, Status, StrikeReport, StrikeResult, Turn, ViewFor,
};
use skirmish_sim::scenario::Scenario;

use super::{CmdError, Session};
use crate::output::{Format, Table};

/// The first lines of a session.
pub(super) fn header(scenario: &Scenario, session: &Session, seed: u64) -> String {
    let e = session.encounter();
    let mut out = format!(
        "skirmish track — {}: {} timing, {} striking, {} damage; seed {seed}\n",
        scenario.name,
        scenario.timing.name(),
        scenario.striking.name(),
        scenario.damage.name()
    );
    let combatants = e.combatants();
    let mut sides: Vec<String> = Vec::new();
    for side in &scenario.sides {
        let names: Vec<String> = combatants
            .iter()
            .filter(|c| c.side.as_deref() == Some(side.name.as_str()))
            .map(|c| format!("#{} {}", c.id.0, c.name))
            .collect();
        sides.push(format!("{} ({})", names.join(", "), side.name));
    }
    out += &format!("combatants: {}\n", sides.join("; "));
    if let Some(first) = scenario.sides.first() {
        out += &format!("the players' side: {}\n", first.name);
    }
    out += "type `help` for the commands; `quit` or the end of input ends the session\n";
    out
}

/// The sides with anyone standing, in the order they first appear.
pub(super) fn sides_standing(e: &Encounter) -> Vec<String> {
    let mut sides: Vec<String> = Vec::new();
    for c in e.combatants() {
        if let Some(side) = c.side
            && c.status == Status::Standing
            && !sides.contains(&side)
        {
            sides.push(side);
        }
    }
    sides
}

/// Where the encounter stands, in words.
pub(super) fn now(e: &Encounter) -> String {
    match e.system() {
        TimingSystem::Continuous(_) => format!("tick {}", e.now()),
        _ => format!("round {} (absolute tick {})", e.round(), e.now()),
    }
}

/// The prompt at a terminal: where the fight stands and who acts next, from
/// the GM's view, short (`tick 3 · next 4: Madoc, Orc #2 > `; with
/// `declare: NAME` for who acted and has not declared what follows).
pub(super) fn prompt(e: &Encounter) -> String {
    /// Names shown in the prompt at most; the rest are counted.
    const SHOWN: usize = 3;
    fn names(all: Vec<String>) -> String {
        let mut shown = all.iter().take(SHOWN).cloned().collect::<Vec<_>>().join(", ");
        if all.len() > SHOWN {
            shown += &format!(" +{}", all.len() - SHOWN);
        }
        shown
    }
    let v = e.view(ViewFor::Gm);
    let mut parts = vec![match e.system() {
        TimingSystem::Continuous(_) => format!("tick {}", v.now),
        _ => format!("round {}", v.round),
    }];
    if v.over {
        parts.push("over".to_string());
    } else if v.round == 0 {
        parts.push("next: initiative".to_string());
    } else {
        let awaiting = e.awaiting();
        if !awaiting.is_empty() {
            parts.push(format!("declare: {}", names(awaiting)));
        }
        if let Some(first) = v.sheet.first() {
            let mut acting: Vec<String> = first.lines.iter().map(|l| l.sheet_label()).collect();
            acting.extend(first.effects.iter().map(|x| format!("[{x} runs out]")));
            parts.push(format!("next {}: {}", at(e.system(), v.round, first), names(acting)));
        }
    }
    format!("{} > ", parts.join(" · "))
}

/// How the sheet names a moment under `system`.
fn at(system: &TimingSystem, round: u32, line: &SheetLine) -> String {
    let here = match system {
        TimingSystem::SimpleRounds => format!("pass {} init {}", line.pass, line.display),
        TimingSystem::ActionBlocks(_) => format!("block {}", line.display),
        TimingSystem::GraduatedRounds(_) if line.pass > 0 => format!("end pass {}", line.pass),
        _ => line.display.to_string(),
    };
    if line.round != round && !matches!(system, TimingSystem::Continuous(_)) {
        format!("round {} {here}", line.round)
    } else {
        here
    }
}

/// The pending sheet on one line: `4: Madoc, Orc #2 | 5: Roland | ...`.
fn sheet_text(system: &TimingSystem, round: u32, sheet: &[SheetLine]) -> String {
    if sheet.is_empty() {
        return "(empty)".to_string();
    }
    sheet
        .iter()
        .map(|l| {
            let mut names: Vec<String> = l.lines.iter().map(|a| a.sheet_label()).collect();
            names.extend(l.effects.iter().map(|x| format!("[{x} runs out]")));
            format!("{}: {}", at(system, round, l), names.join(", "))
        })
        .collect::<Vec<_>>()
        .join(" | ")
}

/// `  sheet: ...` and, if anyone acted and has not declared, who.
pub(super) fn sheet_line(e: &Encounter, out: &mut String) {
    if e.round() == 0 {
        // Nothing is on the sheet before `next` rolls initiative.
        return;
    }
    *out += &format!("  sheet: {}\n", sheet_text(e.system(), e.round(), &e.tick_sheet()));
    let awaiting = e.awaiting();
    if !awaiting.is_empty() {
        *out += &format!("  to declare (or the same again): {}\n", awaiting.join(", "));
    }
}

/// One step of `next`: the log it wrote and who acts with what.
pub(super) fn turn(e: &Encounter, from: u64, turn: &Turn, out: &mut String) {
    let log = e.log_since(from);
    for entry in &log {
        *out += &entry.text;
        out.push('\n');
    }
    match turn {
        Turn::Moment { lines, .. } => {
            for l in lines {
                match (l.lands, l.action.is_empty()) {
                    (true, false) => *out += &format!("  {}: {}\n", l.name, l.action),
                    (false, false) => *out += &format!("  {}: turn begins (last action: {})\n", l.name, l.action),
                    (false, true) => *out += &format!("  {}: turn begins\n", l.name),
                    (true, true) => {}
                }
            }
        }
        Turn::Over if log.is_empty() => *out += "nobody is left who can act\n",
        _ => {}
    }
}

/// The whole tick sheet, one row per acting line.
pub(super) fn sheet(e: &Encounter, out: &mut String) {
    *out += &format!("tick sheet — {} timing, {}\n", e.system().name(), now(e));
    let sheet = e.tick_sheet();
    if sheet.is_empty() {
        *out += "(nothing pending)\n";
    } else {
        let mut t = Table::new(&["when", "who", "action"]).right_align(&[0]);
        for l in &sheet {
            let when = at(e.system(), e.round(), l);
            for a in &l.lines {
                let who = if a.members.len() > 1 {
                    format!("{} ({} standing)", a.sheet_label(), a.members.len())
                } else {
                    a.sheet_label()
                };
                t.push(vec![when.clone(), who, a.action.clone()]);
            }
            for x in &l.effects {
                t.push(vec![when.clone(), "(effect)".into(), format!("{x} runs out")]);
            }
        }
        *out += &t.render(Format::Text);
    }
    let awaiting = e.awaiting();
    if !awaiting.is_empty() {
        *out += &format!("to declare (or the same again): {}\n", awaiting.join(", "));
    }
}

/// Effects with a duration in ticks still running.
pub(super) fn effects(e: &Encounter, out: &mut String) {
    let mut any = false;
    for l in e.tick_sheet() {
        for x in &l.effects {
            *out += &format!("{x}: runs out at {}\n", at(e.system(), e.round(), &l));
            any = true;
        }
    }
    if !any {
        *out += "no effect with a duration in ticks is running\n";
    }
}

fn parts(p: &[Part]) -> String {
    p.iter()
        .enumerate()
        .map(|(i, part)| {
            if i == 0 {
                format!("{} {}", part.label, part.value)
            } else {
                format!("{} {:+}", part.label, part.value)
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn result_words(r: &StrikeReport) -> String {
    let what = r.result.name();
    if r.result == StrikeResult::Countered {
        return format!(
            "{what}, margin {:+}, damage {} to the attacker",
            r.margin, r.counter_damage
        );
    }
    format!("{what}, margin {:+}, damage {}", r.margin, r.damage)
}

/// A strike's report: the log line, both totals with their terms, the
/// outcome and the target's condition after it.
/// A lone fighter's round (FUDGE 4.34): the log line, his result's terms,
/// each foe's result and terms and what came of it, then the log's
/// aftermath (falls, disruptions).
pub(super) fn lone_fighter(e: &Encounter, from: u64, r: &LoneFighterReport, out: &mut String) {
    let log = e.log_since(from);
    let mut rest = log.iter();
    if let Some(first) = rest.next() {
        *out += &first.text;
        out.push('\n');
    }
    let name = |id: CombatantId| {
        e.combatants()
            .get(id.0 as usize)
            .map_or_else(|| format!("#{}", id.0), |c| c.name.clone())
    };
    let group = r
        .group_roll
        .map_or_else(String::new, |g| format!(" (the group rolls {g:+})"));
    *out += &format!(
        "  {} {}: {}{group}\n",
        name(r.lone),
        r.lone_result,
        parts(&r.lone_breakdown)
    );
    for f in &r.foes {
        let what = if f.ignored {
            format!("ignored, against {}", f.lone_total)
        } else {
            format!(
                "{} by {:+}",
                if f.may_be_wounded { "may be wounded" } else { "spared" },
                f.margin
            )
        };
        let hit = if f.hit {
            format!(", hits for {}", f.damage_to_lone)
        } else {
            String::new()
        };
        let struck = f.damage.map_or_else(String::new, |d| format!(", struck for {d}"));
        *out += &format!(
            "  {} {}: {} ({what}{hit}{struck})\n",
            name(f.foe),
            f.total,
            parts(&f.breakdown)
        );
    }
    for entry in rest {
        *out += &entry.text;
        out.push('\n');
    }
}

pub(super) fn strike(e: &Encounter, from: u64, r: &StrikeReport, out: &mut String) {
    let log = e.log_since(from);
    let mut rest = log.iter();
    if let Some(first) = rest.next() {
        *out += &first.text;
        out.push('\n');
    }
    *out += &format!("  attack {}: {}\n", r.attack_total, parts(&r.attack_breakdown));
    *out += &format!("  defense {}: {}\n", r.defense_total, parts(&r.defense_breakdown));
    if let (Some(p), Some(roll)) = (r.parry_total, r.defense_roll) {
        *out += &format!("  parry {p}: roll {roll:+}\n");
    }
    *out += &format!("  result: {}\n", result_words(r));
    let name = e
        .combatants()
        .get(r.target.0 as usize)
        .map_or_else(|| format!("#{}", r.target.0), |c| c.name.clone());
    let condition = match (r.wound, r.hit_points) {
        (Some(w), _) => w.name().to_string(),
        (None, Some(hp)) => format!("{hp} hp"),
        (None, None) => "unhurt".to_string(),
    };
    let mut notes = Vec::new();
    if r.went_down {
        notes.push("down");
    }
    if r.died {
        notes.push("dead");
    }
    if r.disrupted {
        notes.push("action disrupted");
    }
    *out += &format!(
        "  {name}: {condition}, penalty {}{}\n",
        r.penalty,
        if notes.is_empty() {
            String::new()
        } else {
            format!(" ({})", notes.join(", "))
        }
    );
    for entry in rest {
        *out += &entry.text;
        out.push('\n');
    }
    if r.went_down || r.disrupted {
        sheet_line(e, out);
    }
}

fn boxes(track: &skirmish_core::damage::WoundTrack) -> String {
    let short = |l: WoundLevel| match l {
        WoundLevel::Scratch => "S",
        WoundLevel::Hurt => "H",
        WoundLevel::VeryHurt => "VH",
        WoundLevel::Incapacitated => "I",
        WoundLevel::NearDeath => "ND",
        WoundLevel::Dead => "dead",
    };
    let cells: Vec<String> = WoundLevel::WITH_BOXES
        .into_iter()
        .filter(|l| track.filled(*l) > 0)
        .map(|l| format!("{}{}", short(l), track.filled(l)))
        .collect();
    if cells.is_empty() {
        "-".to_string()
    } else {
        cells.join(" ")
    }
}

/// The GM's or the players' view: the sheet and every combatant.
pub(super) fn view(e: &Encounter, who: ViewFor, out: &mut String) {
    let v = e.view(who);
    let players = who == ViewFor::Players;
    *out += &format!(
        "{} — {} timing, {}{}\n",
        if players { "players' view" } else { "GM's view" },
        v.system,
        now(e),
        if v.over { ", over" } else { "" }
    );
    *out += &format!("  sheet: {}\n", sheet_text(e.system(), v.round, &v.sheet));
    // The fighters' ratings, for the GM (while the fight is open: they come
    // with the state a simulator would fight on from).
    let ratings = if players { None } else { e.continuation().ok() };
    let hit_points = matches!(e.rules().damage, DamageConfig::HitPoints(_));
    let mut header = vec!["id", "name", "side", "status"];
    header.extend(if hit_points {
        &["hp"][..]
    } else {
        &["wound", "boxes"][..]
    });
    header.push("penalty");
    let mut right = vec![0, header.len() - 1];
    if hit_points {
        right.push(4);
    }
    if ratings.is_some() {
        header.extend(["SR", "DR"]);
        right.extend([header.len() - 2, header.len() - 1]);
    }
    let mut t = Table::new(&header).right_align(&right);
    // What the players' view leaves out of a foe is unknown to them.
    let unknown = |fighter: bool| if fighter && players { "?" } else { "-" }.to_string();
    for c in &v.combatants {
        let status = match c.status {
            Status::Standing => "standing",
            Status::Down => "down",
            Status::Removed => "removed",
        };
        let mut cells = vec![
            format!("#{}", c.id.0),
            if c.hidden {
                format!("{} (hidden)", c.name)
            } else {
                c.name.clone()
            },
            c.side.clone().unwrap_or_default(),
            status.to_string(),
        ];
        if hit_points {
            cells.push(c.hit_points.map_or_else(|| unknown(c.fighter), |h| h.to_string()));
        } else {
            cells.push(c.wound.map_or_else(|| "-".to_string(), |w| w.name().to_string()));
            cells.push(
                c.wound_boxes
                    .as_ref()
                    .map_or_else(|| unknown(c.fighter && c.wound.is_some()), boxes),
            );
        }
        cells.push(c.penalty.map_or_else(|| unknown(c.fighter), |p| p.to_string()));
        if let Some(r) = &ratings {
            let (sr, dr) = r
                .fighters
                .iter()
                .find(|f| f.id == c.id)
                .map_or(("-".to_string(), "-".to_string()), |f| {
                    (f.stats.strike_rating.to_string(), f.stats.defense_rating.to_string())
                });
            cells.extend([sr, dr]);
        }
        t.push(cells);
    }
    *out += &t.render(Format::Text);
}

/// The exact chance of `a` hitting `t` now under Full Contact (their
/// wound penalties included), over the 81 4dF rolls.
pub(super) fn strike_odds(e: &Encounter, a: CombatantId, t: CombatantId, out: &mut String) -> Result<(), CmdError> {
    let Striking::FullContact(rules) = e.rules().striking else {
        return Err(CmdError::from(skirmish_core::tracker::TrackerError::invalid(
            "odds",
            "exact strike odds are for Full Contact striking; this encounter strikes by FUDGE opposed rolls",
        )));
    };
    let c = e.continuation()?;
    let find = |id: CombatantId| {
        c.fighters.iter().find(|f| f.id == id).ok_or_else(|| {
            CmdError::from(skirmish_core::tracker::TrackerError::invalid(
                "combatant",
                format!("#{} has no combat stats", id.0),
            ))
        })
    };
    let (fa, ft) = (find(a)?, find(t)?);
    let (pa, pt) = (e.penalty(a)?, e.penalty(t)?);
    let sr = fa.stats.strike_rating.saturating_add(pa);
    let dr = ft.stats.defense_rating.saturating_add(pt);
    let o = odds(
        sr,
        dr,
        StrikeOptions {
            guaranteed_success_and_fumble: rules.guaranteed,
            amazing: rules.amazing,
            point_blank: false,
        },
    );
    *out += &format!(
        "{} (SR {sr}) against {} (DR {dr}): hit {}/81 ({:.2}%), {}\n",
        fa.name,
        ft.name,
        o.hit.numerator,
        100.0 * o.hit.value(),
        match o.lowest_hitting_roll() {
            Some(r) => format!("hits on a Strike roll of {r:+} or better"),
            None => "no Strike roll hits".to_string(),
        }
    );
    Ok(())
}

/// Each side's chance of winning from here, as the simulator found it.
pub(super) fn odds_from_here(o: &skirmish_sim::odds::OddsFromHere, seed: u64, out: &mut String) {
    use skirmish_sim::odds::OddsMethod;
    if o.method == OddsMethod::Decided {
        // Decided: the outcome, nothing fought.
        let standing: Vec<&str> = o
            .sides
            .iter()
            .filter(|s| s.win_rate > 0.0)
            .map(|s| s.name.as_str())
            .collect();
        *out += &match standing.as_slice() {
            [winner] => format!("odds from here: the fight is decided: {winner} wins (100%), nothing left to fight\n"),
            _ => "odds from here: the fight is decided: nobody stands (a draw), nothing left to fight\n".to_owned(),
        };
        let mut t = Table::new(&["side", "chance"]).right_align(&[1]);
        for side in &o.sides {
            t.push(vec![side.name.clone(), format!("{:.0}%", 100.0 * side.win_rate)]);
        }
        *out += &t.render(Format::Text);
        return;
    }
    if let OddsMethod::Exact {
        states,
        fractions,
        error_bound,
    } = o.method
    {
        let how = if fractions {
            "in exact fractions".to_owned()
        } else {
            format!("in floating point, each chance within {error_bound:.1e}")
        };
        *out += &format!("odds from here: exact, the rest of the fight solved as a chain of {states} states {how}\n");
        let chance = |rate: f64, fraction: &Option<String>| match fraction {
            Some(f) if f.contains('/') => format!("{:.2}% ({f})", 100.0 * rate),
            _ => format!("{:.2}%", 100.0 * rate),
        };
        let mut t = Table::new(&["side", "chance"]).right_align(&[1]);
        for side in &o.sides {
            t.push(vec![side.name.clone(), chance(side.win_rate, &side.fraction)]);
        }
        *out += &t.render(Format::Text);
        *out += &format!(
            "draw {}, never ends {}\n",
            chance(o.draw_rate, &o.draw_fraction),
            chance(o.timeout_rate, &o.timeout_fraction)
        );
        return;
    }
    *out += &format!(
        "odds from here: the rest of the fight fought {} times (seed {seed})\n",
        o.battles
    );
    *out += &match &o.method {
        OddsMethod::Sampled { reason: Some(why) } => format!("sampled, {} battles; not exact: {why}\n", o.battles),
        _ => format!("sampled, {} battles, as asked\n", o.battles),
    };
    let mut t = Table::new(&["side", "wins", "chance", "95% interval"]).right_align(&[1, 2]);
    for side in &o.sides {
        t.push(vec![
            side.name.clone(),
            side.wins.to_string(),
            format!("{:.1}%", 100.0 * side.win_rate),
            format!("{:.1}%..{:.1}%", 100.0 * side.low, 100.0 * side.high),
        ]);
    }
    *out += &t.render(Format::Text);
    *out += &format!(
        "draws {:.1}%, timeouts {:.1}%; the rest lasts {:.1} ticks ({:.1} rounds) on average\n",
        100.0 * o.draw_rate,
        100.0 * o.timeout_rate,
        o.mean_ticks.unwrap_or(0.0),
        o.mean_rounds.unwrap_or(0.0)
    );
}
