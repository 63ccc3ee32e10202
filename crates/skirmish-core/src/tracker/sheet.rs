//! The tick sheet: everything pending, grouped by moment, with the lines
//! acting at each ([`SheetLine`], [`ActingLine`]), and who awaits a
//! declaration. Its own file because the sheet is what the GM reads at the
//! table, built from the scheduler's pending acts, and several operations
//! (a new round, a moment, a held turn, the views) hand it out.

use serde::{Deserialize, Serialize};

use super::{CombatantId, Encounter, State, Status};
use crate::timing::{Act, ActorId};

/// One line acting at a moment: a combatant, or the living members of a group.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActingLine {
    /// The line's name (the combatant's, or the group's).
    pub name: String,
    /// The combatants acting on it (a group's living members).
    pub members: Vec<CombatantId>,
    /// Whether an action lands (`true`) or a Tick System turn begins (`false`).
    pub lands: bool,
    /// The action's number in the round (Continuous: in the battle).
    pub nth: u32,
    /// The label of the action it carries out.
    pub action: String,
}

impl ActingLine {
    /// How a tick sheet shows it: the name, with "(turn)" for a Tick System
    /// turn that begins rather than an action that lands.
    pub fn sheet_label(&self) -> String {
        if self.lands {
            self.name.clone()
        } else {
            format!("{} (turn)", self.name)
        }
    }
}

/// An entry of the tick sheet: everything pending at one moment.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SheetLine {
    /// Absolute tick.
    pub tick: u64,
    /// Round (phase, exchange, stopwatch lap).
    pub round: u32,
    /// The tick as the system names it (see [`Moment::display`](crate::timing::Moment::display)).
    pub display: i64,
    /// Pass or block (see [`Moment::pass`](crate::timing::Moment::pass)).
    pub pass: u32,
    /// Who acts then, in order.
    pub lines: Vec<ActingLine>,
    /// Effects that run out then.
    pub effects: Vec<String>,
}

impl Encounter {
    /// The tick sheet: everything pending, grouped by moment, in order.
    /// Lines that have acted and not yet declared their next action are
    /// listed by [`awaiting`](Self::awaiting).
    pub fn tick_sheet(&self) -> Vec<SheetLine> {
        sheet_of(&self.state)
    }

    /// Names of the lines that landed and have not declared what follows
    /// (they do the same again at the next [`next`](Self::next)).
    pub fn awaiting(&self) -> Vec<String> {
        self.state
            .scheduler
            .awaiting()
            .into_iter()
            .map(|a| self.state.lines[a.index()].name.clone())
            .collect()
    }
}

pub(super) fn acting_line(s: &State, actor: ActorId, lands: bool, nth: u32) -> ActingLine {
    let line = &s.lines[actor.index()];
    ActingLine {
        name: line.name.clone(),
        members: line
            .members
            .iter()
            .filter(|&&m| s.combatants[m as usize].status == Status::Standing)
            .map(|&m| CombatantId(m))
            .collect(),
        lands,
        nth,
        action: line.label.clone(),
    }
}

pub(super) fn sheet_of(s: &State) -> Vec<SheetLine> {
    let mut out: Vec<SheetLine> = Vec::new();
    for p in s.scheduler.pending() {
        if out.last().is_none_or(|l| l.tick != p.at.tick) {
            out.push(SheetLine {
                tick: p.at.tick,
                round: p.at.round,
                display: p.at.display,
                pass: p.at.pass,
                lines: Vec::new(),
                effects: Vec::new(),
            });
        }
        let Some(entry) = out.last_mut() else { continue };
        match p.act {
            Act::Action { actor, nth } => entry.lines.push(acting_line(s, actor, true, nth)),
            Act::Turn { actor } => entry.lines.push(acting_line(s, actor, false, 0)),
            Act::Timer { id } => {
                if let Some(e) = s.effects.get(id as usize).filter(|e| e.active) {
                    entry.effects.push(e.name.clone());
                }
            }
        }
    }
    out.retain(|l| !l.lines.is_empty() || !l.effects.is_empty());
    out
}
