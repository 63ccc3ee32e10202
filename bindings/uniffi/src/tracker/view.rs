//! Mirrors of the tracker's screen view (`skirmish_core::tracker::view`):
//! everything a screen shows, in one call. Conversion only.

use skirmish_core::tracker as core;

use super::{SheetLine, Status};
use crate::damage::{WoundLevel, WoundTrack};
use crate::fighter::Fighter;

/// Whose view.
#[derive(Debug, Clone, Copy, PartialEq, Eq, uniffi::Enum)]
pub enum ViewFor {
    /// Everything.
    Gm,
    /// What the players may see: no hidden combatants; of foes, no boxes,
    /// hit points, penalty or stats, and not what their pending actions are.
    Players,
}

impl From<ViewFor> for core::ViewFor {
    fn from(v: ViewFor) -> core::ViewFor {
        match v {
            ViewFor::Gm => core::ViewFor::Gm,
            ViewFor::Players => core::ViewFor::Players,
        }
    }
}

impl From<core::ViewFor> for ViewFor {
    fn from(v: core::ViewFor) -> ViewFor {
        match v {
            core::ViewFor::Gm => ViewFor::Gm,
            core::ViewFor::Players => ViewFor::Players,
        }
    }
}

/// One combatant as a screen shows it.
#[derive(Debug, Clone, PartialEq, uniffi::Record)]
pub struct CombatantState {
    /// Its id.
    pub id: u32,
    /// Its name.
    pub name: String,
    /// Its side, if given.
    pub side: Option<String>,
    /// Its group's name, if it is in one.
    pub group: Option<String>,
    /// Standing, down or removed.
    pub status: Status,
    /// Hidden from the players (always false in their view).
    pub hidden: bool,
    /// Whether it has combat stats (added with `add_fighter`).
    pub fighter: bool,
    /// Its worst wound (wound track), if any.
    pub wound: Option<WoundLevel>,
    /// Its wound boxes (wound track; not of foes in the players' view).
    pub wound_boxes: Option<WoundTrack>,
    /// Its hit points (hit points; not of foes in the players' view).
    pub hit_points: Option<i32>,
    /// Its wound penalty (not of foes in the players' view).
    pub penalty: Option<i32>,
    /// Its combat numbers (not of foes in the players' view).
    pub stats: Option<Fighter>,
}

impl From<core::CombatantState> for CombatantState {
    fn from(c: core::CombatantState) -> CombatantState {
        CombatantState {
            id: c.id.0,
            name: c.name,
            side: c.side,
            group: c.group,
            status: c.status.into(),
            hidden: c.hidden,
            fighter: c.fighter,
            wound: c.wound.map(Into::into),
            wound_boxes: c.wound_boxes.map(Into::into),
            hit_points: c.hit_points,
            penalty: c.penalty,
            stats: c.stats.map(Into::into),
        }
    }
}

/// Everything a screen shows: one call per refresh.
#[derive(Debug, Clone, PartialEq, uniffi::Record)]
pub struct EncounterView {
    /// Whose view it is.
    pub view_for: ViewFor,
    /// The timing system's name.
    pub system: String,
    /// The current round.
    pub round: u32,
    /// The absolute tick of the last moment.
    pub now: u64,
    /// Whether the fight is over.
    pub over: bool,
    /// The tick sheet.
    pub sheet: Vec<SheetLine>,
    /// Who must declare what they do next (the first living member of each line).
    pub awaiting: Vec<u32>,
    /// Every combatant shown, in the order added.
    pub combatants: Vec<CombatantState>,
    /// How many operations can be undone (0 in the players' view).
    pub undo_depth: u32,
    /// How many log entries were ever written.
    pub log_len: u64,
}

impl From<core::EncounterView> for EncounterView {
    fn from(v: core::EncounterView) -> EncounterView {
        EncounterView {
            view_for: v.view_for.into(),
            system: v.system,
            round: v.round,
            now: v.now,
            over: v.over,
            sheet: v.sheet.into_iter().map(Into::into).collect(),
            awaiting: v.awaiting.into_iter().map(|c| c.0).collect(),
            combatants: v.combatants.into_iter().map(Into::into).collect(),
            undo_depth: v.undo_depth,
            log_len: v.log_len,
        }
    }
}
