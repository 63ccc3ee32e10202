//! The Encounter tracker: the live API a GM's app drives at the table.
//!
//! An [`Encounter`] runs one [`Scheduler`] (any of the six timing systems)
//! and adds what a person at the table needs:
//!
//! - **names and groups**: combatants by name; a group of identical foes
//!   (the GM's "5 goblins") shares one initiative roll and one line on the
//!   tick sheet, yet its members fall one by one;
//! - **rolls from the table**: every call that rolls takes an optional roll
//!   typed in from real dice; otherwise the encounter's seeded generator
//!   rolls;
//! - the **tick sheet** of pending actions, an **event log**, **effects**
//!   with durations in ticks or rounds that surface when they run out;
//! - **undo** of any number of steps, and **snapshot / restore** as JSON
//!   (generator state included): a restored encounter continues exactly as
//!   if it had never been saved.
//!
//! Every operation is atomic: an error (an unknown or downed combatant, a
//! roll the dice cannot show, a corrupt snapshot) changes nothing.
//!
//! The public surface is owned data only (no lifetimes, no generics), so
//! the language bindings wrap it as it is.
//!
//! The files follow the parts a GM names: `roster` (who is in the fight),
//! `turns` (initiative, who acts next, declarations, effects), `sheet` (the
//! tick sheet), `strike` (strikes and wounds), `scouting` (FUDGE 4.31's), `view` (what a screen
//! shows), `history` (undo, redo and the log), `snapshot` (save and
//! restore), `continuation` (odds from here) and `error` (the refusals).
//! This file holds the encounter itself: its state and its rules.
//!
//! # Example: the Continuous example of the Relativity article
//!
//! ```
//! use skirmish_core::timing::{Declaration, InitiativeEntry, TimingSystem};
//! use skirmish_core::tracker::{CombatantSpec, Encounter, Turn};
//!
//! # fn main() -> skirmish_core::Result<()> {
//! let mut e = Encounter::new(TimingSystem::continuous(), 7)?;
//! let roland = e.add_combatant(CombatantSpec::new("Roland", Declaration::new(2, 1)))?;
//! let orc = e.add_combatant(CombatantSpec::new("Orc #1", Declaration::new(3, 0)))?;
//! e.set_initiative(roland, InitiativeEntry::Roll(-1))?; // 4 + 2 - 1 = 5
//! e.set_initiative(orc, InitiativeEntry::Total(3))?;
//! assert!(matches!(e.next()?, Turn::NewRound { round: 1, .. }));
//! let Turn::Moment { moment, lines, .. } = e.next()? else { unreachable!() };
//! assert_eq!((moment.display, lines[0].name.as_str()), (3, "Orc #1"));
//! // The GM rules the orc's next stab lands in tick 10.
//! e.declare(orc, "stab Cardiff", Declaration::new(3, 0).with_ready_time(7), None)?;
//! assert_eq!(e.tick_sheet()[1].display, 10);
//! e.undo()?; // a mistake: the declaration is gone again
//! assert_eq!(e.tick_sheet().len(), 1);
//! # Ok(())
//! # }
//! ```

mod amazing;
mod continuation;
mod error;
mod history;
mod many;
mod ranged;
mod roster;
mod scouting;
mod sheet;
mod snapshot;
mod story;
mod strike;
mod tick;
mod turns;
mod view;

use std::collections::VecDeque;

use serde::{Deserialize, Serialize};

use crate::damage::{Damage, DamageConfig, DamageModel};
use crate::dice::{RollSource, ScriptedRolls, SeededRolls};
use crate::fighter::Striking;
use crate::timing::queue::EventId;
use crate::timing::{
    Act, ActorId, Declaration, FreeActionResult, InitiativeEntry, Moment, Scheduler, Step, TimingSystem,
};

pub use continuation::{Continuation, ContinuingFighter};
pub use error::{ErrorKind, TrackerError, TrackerResult};
pub use history::{DEFAULT_UNDO_LIMIT, LOG_LIMIT, LogEntry, MAX_UNDO_LIMIT};
pub use many::{LoneFighterDice, LoneFighterOptions, LoneFighterReport, LoneFoe};
pub use ranged::{ShotDefense, ShotOptions, ShotReport};
pub use roster::{CombatantId, CombatantSpec, CombatantView, MAX_COMBATANTS, MAX_GROUP, Status};
pub use scouting::ScoutReport;
pub use sheet::{ActingLine, SheetLine};
pub use snapshot::{SNAPSHOT_HISTORY, SNAPSHOT_VERSION};
pub use story::StoryReport;
pub use strike::{EncounterStrikeOptions, Part, StrikeDice, StrikeReport, StrikeResult, WoundOverride};
pub use turns::{Duration, EffectId, ExpiredEffect, LineDeclaration, Turn};
pub use view::{CombatantState, EncounterView, ViewFor};

use history::{Log, note};
use roster::{Combatant, Line, fresh_damage, stats_of, validate_damage};
use sheet::{acting_line, sheet_of};
use turns::Effect;

/// The rules an encounter's strikes are resolved by.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EncounterRules {
    /// The striking system and its options (Full Contact by default).
    #[serde(default)]
    pub striking: Striking,
    /// The damage model (the FUDGE wound track by default).
    #[serde(default)]
    pub damage: DamageConfig,
}

/// Everything undo restores.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct State {
    #[serde(with = "snapshot::scheduler_form")]
    scheduler: Scheduler,
    rng: SeededRolls,
    rules: EncounterRules,
    #[serde(skip)]
    model: Damage,
    /// Steps of [`Encounter::next`] taken so far (a new round, a moment,
    /// the end): a combatant taken out at the current step, if it is a
    /// moment, still strikes in it.
    moments: u64,
    /// The side whose combatants the players' view shows in full.
    party: Option<String>,
    combatants: Vec<Combatant>,
    lines: Vec<Line>,
    effects: Vec<Effect>,
    /// The lines acting at the last moment, in declaration order.
    current: Vec<u32>,
    /// Length of the log (entries ever written) when this state was current.
    log_len: u64,
    over: bool,
    /// Its snapshot form once written (see [`snapshot::Memo`]).
    #[serde(skip)]
    json: snapshot::Memo,
}

/// A live encounter: see the [module docs](self).
///
/// Two encounters are equal when their state, undo history, log and undo
/// limit are; what could be redone is not compared (a snapshot does not
/// keep it either).
#[derive(Debug, Clone)]
pub struct Encounter {
    state: State,
    /// Undo steps, oldest first, at most `undo_limit`.
    history: VecDeque<State>,
    /// Redo steps, the next last.
    /// Redo steps, the next last, with the log lines undo took off.
    redo: Vec<(State, Vec<LogEntry>)>,
    undo_limit: u32,
    log: Log,
}

impl PartialEq for Encounter {
    fn eq(&self, other: &Self) -> bool {
        self.state == other.state
            && self.history == other.history
            && self.undo_limit == other.undo_limit
            && self.log == other.log
    }
}

impl Encounter {
    /// A new encounter under `system`, rolling with a generator seeded by
    /// `seed`, with the default rules (Full Contact, FUDGE wound track).
    pub fn new(system: TimingSystem, seed: u64) -> TrackerResult<Encounter> {
        Encounter::with_rules(system, EncounterRules::default(), seed)
    }

    /// A new encounter under `system` and `rules`, rolling with a generator
    /// seeded by `seed`.
    pub fn with_rules(system: TimingSystem, rules: EncounterRules, seed: u64) -> TrackerResult<Encounter> {
        check_striking(&rules.striking)?;
        let model = rules
            .damage
            .build()
            .map_err(|e| TrackerError::from(e.in_field("rules.damage")))?;
        Ok(Encounter {
            state: State {
                scheduler: Scheduler::try_new(system)?,
                rng: SeededRolls::new(seed),
                rules,
                model,
                moments: 0,
                party: None,
                combatants: Vec::new(),
                lines: Vec::new(),
                effects: Vec::new(),
                current: Vec::new(),
                log_len: 0,
                over: false,
                json: snapshot::Memo::default(),
            },
            history: VecDeque::new(),
            redo: Vec::new(),
            undo_limit: DEFAULT_UNDO_LIMIT,
            log: Log::default(),
        })
    }

    /// The rules strikes are resolved by.
    pub fn rules(&self) -> &EncounterRules {
        &self.state.rules
    }

    /// The timing system.
    pub fn system(&self) -> &TimingSystem {
        self.state.scheduler.system()
    }

    /// The current round (0 before the first).
    pub fn round(&self) -> u32 {
        self.state.scheduler.round()
    }

    /// The absolute tick of the last moment.
    pub fn now(&self) -> u64 {
        self.state.scheduler.now()
    }
}

/// An encounter's striking rules, checked: their numbers in range; the
/// error names the field.
fn check_striking(striking: &Striking) -> TrackerResult<()> {
    let at = |e: crate::Error| TrackerError::from(e.in_field("rules.striking"));
    match striking {
        Striking::FudgeOpposed(r) => r.validate().map_err(at),
        Striking::FullContact(r) => r.validate().map_err(at),
    }
}
