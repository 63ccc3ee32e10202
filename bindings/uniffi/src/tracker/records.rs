//! Mirrors of the tracker's plain data (`skirmish_core::tracker`): the
//! rules, a combatant's spec and view, the tick sheet, what `next` hands
//! out, effects, declarations and log entries, each with its conversions.
//! Conversion only. Its own file because these records are the data an app
//! sees, apart from the [`Encounter`](super::Encounter) object's methods
//! that hand them out.

use skirmish_core::Error as CoreError;
use skirmish_core::tracker as core;

use crate::damage::DamageConfig;
use crate::fighter::Striking;
use crate::timing::{ActorTiming, Declaration, Moment};

/// The rules an encounter's strikes are resolved by.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct EncounterRules {
    /// The striking system and its options.
    pub striking: Striking,
    /// The damage model.
    pub damage: DamageConfig,
}

impl From<EncounterRules> for core::EncounterRules {
    fn from(r: EncounterRules) -> core::EncounterRules {
        core::EncounterRules {
            striking: r.striking.into(),
            damage: r.damage.into(),
        }
    }
}

/// What a combatant (or each member of a group) is, as the timing rules see it.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct CombatantSpec {
    /// Name shown on the tick sheet.
    pub name: String,
    /// What it is doing first.
    pub action: Declaration,
    /// A label for that action ("elven bow", "Spark").
    #[uniffi(default = "")]
    pub action_label: String,
    /// Side or party, for display.
    #[uniffi(default = None)]
    pub side: Option<String>,
    /// Tick System and Action Blocks traits.
    #[uniffi(default)]
    pub timing: ActorTiming,
    /// Hidden from the players' view until revealed (an ambusher not yet seen).
    #[uniffi(default = false)]
    pub hidden: bool,
}

impl From<core::CombatantSpec> for CombatantSpec {
    fn from(s: core::CombatantSpec) -> CombatantSpec {
        CombatantSpec {
            name: s.name,
            action: s.action.into(),
            action_label: s.action_label,
            side: s.side,
            timing: s.timing.into(),
            hidden: s.hidden,
        }
    }
}

impl TryFrom<CombatantSpec> for core::CombatantSpec {
    type Error = CoreError;
    fn try_from(s: CombatantSpec) -> Result<core::CombatantSpec, CoreError> {
        Ok(core::CombatantSpec {
            name: s.name,
            side: s.side,
            timing: s.timing.into(),
            action: s.action.try_into()?,
            action_label: s.action_label,
            // Combat stats come with the tracker's strikes (`add_fighter`),
            // not yet exposed here: a spec from an app is timing-only.
            stats: None,
            hidden: s.hidden,
        })
    }
}

/// How long an effect lasts (the core's `tracker::Duration`, renamed: UniFFI
/// has a built-in `Duration`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, uniffi::Enum)]
pub enum EffectDuration {
    /// This many ticks (seconds in Continuous timing) from now.
    Ticks {
        /// Ticks.
        ticks: u64,
    },
    /// Until the start of the round this many rounds on (Continuous: laps).
    Rounds {
        /// Rounds.
        rounds: u32,
    },
}

impl From<EffectDuration> for core::Duration {
    fn from(d: EffectDuration) -> core::Duration {
        match d {
            EffectDuration::Ticks { ticks } => core::Duration::Ticks(ticks),
            EffectDuration::Rounds { rounds } => core::Duration::Rounds(rounds),
        }
    }
}

/// Whether a combatant is in the fight.
#[derive(Debug, Clone, Copy, PartialEq, Eq, uniffi::Enum)]
pub enum Status {
    /// Fighting.
    Standing,
    /// Down (incapacitated, dead): takes no more actions.
    Down,
    /// Removed from the encounter (fled, or added by mistake).
    Removed,
}

impl From<core::Status> for Status {
    fn from(s: core::Status) -> Status {
        match s {
            core::Status::Standing => Status::Standing,
            core::Status::Down => Status::Down,
            core::Status::Removed => Status::Removed,
        }
    }
}

/// A combatant as the tracker shows it.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct CombatantView {
    /// Its id (the order it was added, from 0).
    pub id: u32,
    /// Its name.
    pub name: String,
    /// Its side, if given.
    pub side: Option<String>,
    /// The group's name, for a member of a group.
    pub group: Option<String>,
    /// In the fight or not.
    pub status: Status,
    /// Hidden from the players' view.
    pub hidden: bool,
}

impl From<core::CombatantView> for CombatantView {
    fn from(v: core::CombatantView) -> CombatantView {
        CombatantView {
            id: v.id.0,
            name: v.name,
            side: v.side,
            group: v.group,
            status: v.status.into(),
            hidden: v.hidden,
        }
    }
}

/// One line acting at a moment: a combatant, or the living members of a group.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct ActingLine {
    /// The line's name (the combatant's, or the group's).
    pub name: String,
    /// The combatants acting on it.
    pub members: Vec<u32>,
    /// Whether an action lands (`true`) or a Tick System turn begins (`false`).
    pub lands: bool,
    /// The action's number in the round (Continuous: in the battle).
    pub nth: u32,
    /// The label of the action it carries out.
    pub action: String,
    /// How a tick sheet shows it: the name, with "(turn)" for a turn that begins.
    pub sheet_label: String,
}

impl From<core::ActingLine> for ActingLine {
    fn from(l: core::ActingLine) -> ActingLine {
        let sheet_label = l.sheet_label();
        ActingLine {
            name: l.name,
            members: l.members.into_iter().map(|m| m.0).collect(),
            lands: l.lands,
            nth: l.nth,
            action: l.action,
            sheet_label,
        }
    }
}

/// An entry of the tick sheet: everything pending at one moment.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct SheetLine {
    /// Absolute tick.
    pub tick: u64,
    /// Round (phase, exchange, stopwatch lap).
    pub round: u32,
    /// The tick as the system names it (see [`Moment::display`]).
    pub display: i64,
    /// Pass or block (see [`Moment::pass`]).
    pub pass: u32,
    /// Who acts then, in order.
    pub lines: Vec<ActingLine>,
    /// Effects that run out then.
    pub effects: Vec<String>,
}

impl From<core::SheetLine> for SheetLine {
    fn from(l: core::SheetLine) -> SheetLine {
        SheetLine {
            tick: l.tick,
            round: l.round,
            display: l.display,
            pass: l.pass,
            lines: l.lines.into_iter().map(Into::into).collect(),
            effects: l.effects,
        }
    }
}

/// An effect that ran out.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct ExpiredEffect {
    /// Its id.
    pub id: u32,
    /// Its name.
    pub name: String,
    /// Whom it was on, if anyone.
    pub target: Option<u32>,
}

impl From<core::ExpiredEffect> for ExpiredEffect {
    fn from(x: core::ExpiredEffect) -> ExpiredEffect {
        ExpiredEffect {
            id: x.id.0,
            name: x.name,
            target: x.target.map(|t| t.0),
        }
    }
}

/// What [`Encounter::next`](super::Encounter::next) hands the GM.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Enum)]
pub enum Turn {
    /// A new round (phase, exchange) with its initiative rolled; initiative
    /// may still be corrected with `set_initiative`.
    NewRound {
        /// Its number.
        round: u32,
        /// The round's tick sheet.
        sheet: Vec<SheetLine>,
        /// Effects that ran out as the round began.
        expired: Vec<ExpiredEffect>,
    },
    /// These act now, together (the core's `Turn::Moment`; renamed because
    /// Kotlin would confuse a nested `Moment` with the record).
    Acting {
        /// When.
        moment: Moment,
        /// Who, in order.
        lines: Vec<ActingLine>,
        /// Effects that run out now.
        expired: Vec<ExpiredEffect>,
    },
    /// Nobody is left who can act.
    Over,
}

impl From<core::Turn> for Turn {
    fn from(t: core::Turn) -> Turn {
        match t {
            core::Turn::NewRound { round, sheet, expired } => Turn::NewRound {
                round,
                sheet: sheet.into_iter().map(Into::into).collect(),
                expired: expired.into_iter().map(Into::into).collect(),
            },
            core::Turn::Moment { moment, lines, expired } => Turn::Acting {
                moment: moment.into(),
                lines: lines.into_iter().map(Into::into).collect(),
                expired: expired.into_iter().map(Into::into).collect(),
            },
            core::Turn::Over => Turn::Over,
        }
    }
}

/// One entry of the encounter's log.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct LogEntry {
    /// Round at the time.
    pub round: u32,
    /// Absolute tick at the time.
    pub tick: u64,
    /// What happened, in words.
    pub text: String,
}

impl From<&core::LogEntry> for LogEntry {
    fn from(e: &core::LogEntry) -> LogEntry {
        LogEntry {
            round: e.round,
            tick: e.tick,
            text: e.text.clone(),
        }
    }
}

/// A combatant's (its line's) current declaration and its label.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct LineDeclaration {
    /// The action's label ("elven bow", "Spark").
    pub label: String,
    /// The action.
    pub declaration: Declaration,
}

impl From<core::LineDeclaration> for LineDeclaration {
    fn from(d: core::LineDeclaration) -> LineDeclaration {
        LineDeclaration {
            label: d.label,
            declaration: d.declaration.into(),
        }
    }
}
