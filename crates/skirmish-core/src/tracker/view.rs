//! What a screen shows, in one call: [`Encounter::view`] gives the round,
//! the tick sheet, who awaits a declaration and every combatant's
//! condition, for the GM or for the players.
//!
//! The players' form is what a second screen at the table shows: hidden
//! combatants (an ambusher not yet seen) are left out everywhere, and of
//! combatants outside the party (see [`Encounter::set_party`]) it keeps
//! only what the players can see: standing or down, and how badly hurt in
//! words, not the wound boxes or hit points; their pending actions show
//! when they land, not what they are.

use serde::{Deserialize, Serialize};

use crate::damage::{DamageModel, DamageState, WoundLevel, WoundTrack};
use crate::fighter::Fighter;

use super::{CombatantId, Encounter, SheetLine, State, Status, TrackerError, TrackerResult, note, sheet_of};

/// Whose view.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ViewFor {
    /// Everything.
    #[default]
    Gm,
    /// What the players may see.
    Players,
}

/// One combatant as a screen shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CombatantState {
    /// Its id.
    pub id: CombatantId,
    /// Its name.
    pub name: String,
    /// Its side, if given.
    pub side: Option<String>,
    /// The group's name, for a member of a group.
    pub group: Option<String>,
    /// In the fight, down or removed.
    pub status: Status,
    /// Hidden from the players (always `false` in the players' view, which
    /// leaves hidden combatants out).
    pub hidden: bool,
    /// Whether it has combat stats (its strikes are resolved here).
    pub fighter: bool,
    /// Its worst wound (wound track), if hurt. In the players' view of a
    /// foe, the wound level is kept (the players see how hurt it looks).
    pub wound: Option<WoundLevel>,
    /// Its wound boxes (wound track): the GM's, and the party's.
    pub wound_boxes: Option<WoundTrack>,
    /// Hit points left: the GM's, and the party's.
    pub hit_points: Option<i32>,
    /// Its wound penalty: the GM's, and the party's.
    pub penalty: Option<i32>,
    /// Its combat stats (SR, DR, skill, damage factors): the GM's, and the party's.
    pub stats: Option<Fighter>,
}

/// Everything a screen shows, in one call.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EncounterView {
    /// Whose view it is.
    pub view_for: ViewFor,
    /// The timing system's name.
    pub system: String,
    /// The round (0 before the first).
    pub round: u32,
    /// The absolute tick of the last moment.
    pub now: u64,
    /// Nobody is left who can act.
    pub over: bool,
    /// The tick sheet: everything pending, by moment.
    pub sheet: Vec<SheetLine>,
    /// The first standing member of each line that landed and has not
    /// declared what follows.
    pub awaiting: Vec<CombatantId>,
    /// Every combatant (the players' view leaves out the hidden).
    pub combatants: Vec<CombatantState>,
    /// Undo steps available (0 in the players' view).
    pub undo_depth: u32,
    /// Log entries ever written: pass it to [`Encounter::log_since`] next time.
    pub log_len: u64,
}

impl Encounter {
    /// Everything a screen shows: see [`EncounterView`]. The players' form
    /// leaves out hidden combatants everywhere, and of combatants outside the
    /// party ([`set_party`](Self::set_party)) keeps only what the players can
    /// see: standing or down, and the wound level, not the boxes, hit points,
    /// penalty or stats; their pending actions show when they land, not what
    /// they are.
    pub fn view(&self, view_for: ViewFor) -> EncounterView {
        let s = &self.state;
        let players = view_for == ViewFor::Players;
        let shown = |c: u32| !players || !s.combatants[c as usize].hidden;
        let mut sheet = sheet_of(s);
        if players {
            for entry in &mut sheet {
                entry.lines.retain_mut(|l| {
                    l.members.retain(|m| shown(m.0));
                    if l.members.iter().any(|m| !in_party(s, m.0)) {
                        l.action.clear();
                    }
                    !l.members.is_empty()
                });
            }
            sheet.retain(|e| !e.lines.is_empty() || !e.effects.is_empty());
        }
        let combatants = s
            .combatants
            .iter()
            .enumerate()
            .filter(|(i, _)| shown(*i as u32))
            .map(|(i, c)| {
                let line = &s.lines[c.line as usize];
                let full = !players || in_party(s, i as u32);
                let (wound, boxes, hp) = match c.damage {
                    Some(DamageState::FudgeWounds(w)) => (w.worst(), full.then_some(w), None),
                    Some(DamageState::HitPoints(h)) => (None, None, full.then_some(h.hp())),
                    None => (None, None, None),
                };
                CombatantState {
                    id: CombatantId(i as u32),
                    name: c.name.clone(),
                    side: c.side.clone(),
                    group: line.group.then(|| line.name.clone()),
                    status: c.status,
                    hidden: c.hidden && !players,
                    fighter: line.stats.is_some(),
                    wound,
                    wound_boxes: boxes,
                    hit_points: hp,
                    penalty: c.damage.filter(|_| full).map(|d| s.model.wound_penalty(&d)),
                    stats: line.stats.clone().filter(|_| full),
                }
            })
            .collect();
        EncounterView {
            view_for,
            system: s.scheduler.system().name().to_string(),
            round: s.scheduler.round(),
            now: s.scheduler.now(),
            over: s.over,
            sheet,
            awaiting: self.awaiting_combatants().into_iter().filter(|c| shown(c.0)).collect(),
            combatants,
            undo_depth: if players { 0 } else { self.undo_depth() },
            log_len: self.log_len(),
        }
    }

    /// Hides a combatant from the players' view (an ambusher not yet seen).
    /// Logged and undoable.
    pub fn hide(&mut self, id: CombatantId) -> TrackerResult<()> {
        self.set_hidden(id, true)
    }

    /// Shows a hidden combatant to the players. Logged and undoable.
    pub fn reveal(&mut self, id: CombatantId) -> TrackerResult<()> {
        self.set_hidden(id, false)
    }

    fn set_hidden(&mut self, id: CombatantId, hidden: bool) -> TrackerResult<()> {
        let c = self.combatant(id)?;
        if c.hidden == hidden {
            return Err(TrackerError::not_now(
                "combatant",
                format!("{} is already {}", c.name, if hidden { "hidden" } else { "shown" }),
            ));
        }
        self.mutate(|s, log| {
            s.combatants[id.0 as usize].hidden = hidden;
            let name = s.combatants[id.0 as usize].name.clone();
            note(
                s,
                log,
                format!("{name} is {}", if hidden { "hidden" } else { "revealed" }),
            );
            Ok(())
        })
    }

    /// The players' side: the players' view shows its combatants in full
    /// (wound boxes, hit points, declarations) and everyone else as foes.
    /// `None`: every combatant is a foe there. Logged and undoable.
    pub fn set_party(&mut self, side: Option<&str>) -> TrackerResult<()> {
        if let Some(side) = side
            && side.trim().is_empty()
        {
            return Err(TrackerError::invalid("side", "must not be empty"));
        }
        self.mutate(|s, log| {
            s.party = side.map(str::to_owned);
            note(
                s,
                log,
                match side {
                    Some(p) => format!("the players are side {p}"),
                    None => "no side is the players'".to_string(),
                },
            );
            Ok(())
        })
    }
}

fn in_party(s: &State, c: u32) -> bool {
    let side = s.combatants[c as usize].side.as_deref();
    side.is_some() && side == s.party.as_deref()
}
