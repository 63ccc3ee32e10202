//! Timing: when an action lands (docs/rules.md §1).
//!
//! Six timing systems share one [`Scheduler`] over one
//! [`EventQueue`](queue::EventQueue) keyed by integer tick:
//!
//! | system | module | the text |
//! | --- | --- | --- |
//! | [`TimingSystem::Simultaneous`] | [`simultaneous`] | Relativity, "Simultaneous Combat" |
//! | [`TimingSystem::SimpleRounds`] | [`simple`] | Relativity, "Simple Rounds" |
//! | [`TimingSystem::GraduatedRounds`] | [`graduated`] | Relativity, "Graduated Rounds" |
//! | [`TimingSystem::Continuous`] | [`continuous`] | Relativity, "Continuous Combat" |
//! | [`TimingSystem::TickSystem`] | [`tick_system`] | "The Tick System" |
//! | [`TimingSystem::ActionBlocks`] | [`action_blocks`] | FUZION "Action Block Initiative" |
//!
//! Exact probabilities (who lands first, FUZION actions per phase, attacks
//! per round) are in [`analysis`], computed from the dice distributions.
//!
//! Internally every system runs on one monotonic **absolute tick**; each
//! system labels it the way its text does (an initiative score, a tick of
//! the round, a countdown, a block number) in [`Moment::display`].
//!
//! Every input is bounded (see [`Scheduler`'s bounds](Scheduler#bounds):
//! ticks up to [`MAX_TICK`], durations up to [`MAX_DURATION`]); a fight
//! saves and restores through [`SchedulerSnapshot`].
//!
//! The scheduler is the timing rules only: it knows actors by [`ActorId`]
//! and takes its dice from a [`RollSource`](crate::dice::RollSource). The
//! live tracker adds names, groups, undo and snapshots on top; the battle
//! simulator drives it directly in its hot loop.
//!
//! # Driving it
//!
//! ```
//! use skirmish_core::dice::SeededRolls;
//! use skirmish_core::timing::{Act, ActorTiming, Declaration, Scheduler, Step, TimingSystem};
//!
//! let mut rolls = SeededRolls::new(1);
//! let mut s = Scheduler::new(TimingSystem::continuous());
//! let bow = s.add(ActorTiming::default(), Declaration::new(2, 1));
//! let sword = s.add(ActorTiming::default(), Declaration::new(7, 0));
//! let mut acts = Vec::new();
//! let mut landed = 0;
//! while let Some(step) = s.next(&mut rolls, &mut acts).unwrap() {
//!     if let Step::Moment(m) = step {
//!         landed += acts.len();
//!         if m.tick > 40 { break; }
//!     }
//! }
//! assert!(landed > 10); // the quick bow lands far more often than the sword
//! # let _ = (bow, sword, Act::Timer { id: 0 });
//! ```

pub mod action_blocks;
pub mod analysis;
pub mod continuous;
pub mod duration;
pub mod graduated;
pub mod queue;
mod scheduler;
pub mod simple;
pub mod simultaneous;
pub mod snapshot;
pub mod tick_system;

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::tables::weapons::{RateOfFire, Weapon};

pub use action_blocks::ActionBlocksConfig;
pub use continuous::ContinuousConfig;
pub use duration::GameTime;
pub use graduated::{GraduatedConfig, PastEnd};
pub use scheduler::{MAX_ACTIONS, MAX_ACTORS, MAX_BONUS, MAX_DURATION, MAX_REFLEXES, MAX_TICK, Scheduler};
pub use snapshot::{
    ActorPresence, ActorSnapshot, EventKind, EventSnapshot, InProgress, SCHEDULER_SNAPSHOT_VERSION, SchedulerSnapshot,
};
pub use tick_system::{FreeActionResult, TickSystemConfig};

/// Which timing system runs the battle, with its options.
///
/// In serde it is tagged by `system`: `{ system = "graduated_rounds",
/// ticks_per_round = 20, past_end = "spill" }`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    tag = "system",
    rename_all = "snake_case",
    deny_unknown_fields,
    from = "TimingSystemFields"
)]
pub enum TimingSystem {
    /// Everyone acts at once, exchange after exchange.
    Simultaneous,
    /// Rounds; initiative order; a pass per extra action.
    SimpleRounds,
    /// Rounds of ticks; later actions at previous tick + Ready Time.
    GraduatedRounds(GraduatedConfig),
    /// No rounds: every action lands Ready Time ticks after the previous.
    Continuous(ContinuousConfig),
    /// Countdown rounds set by the highest initiative; action ticks and intervals.
    TickSystem(TickSystemConfig),
    /// FUZION phases of action blocks from REF + Combat Sense + 1d6.
    ActionBlocks(ActionBlocksConfig),
}

/// [`TimingSystem`] as serde reads it: the systems without options read as
/// empty tables, so that a field given to them is refused as unknown (serde
/// lets a unit variant of a tagged enum ignore every other field).
#[derive(Deserialize)]
#[serde(tag = "system", rename_all = "snake_case", deny_unknown_fields)]
enum TimingSystemFields {
    Simultaneous(NoOptions),
    SimpleRounds(NoOptions),
    GraduatedRounds(GraduatedConfig),
    Continuous(ContinuousConfig),
    TickSystem(TickSystemConfig),
    ActionBlocks(ActionBlocksConfig),
}

/// The options of a system that has none.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NoOptions {}

impl From<TimingSystemFields> for TimingSystem {
    fn from(fields: TimingSystemFields) -> TimingSystem {
        match fields {
            TimingSystemFields::Simultaneous(NoOptions {}) => TimingSystem::Simultaneous,
            TimingSystemFields::SimpleRounds(NoOptions {}) => TimingSystem::SimpleRounds,
            TimingSystemFields::GraduatedRounds(c) => TimingSystem::GraduatedRounds(c),
            TimingSystemFields::Continuous(c) => TimingSystem::Continuous(c),
            TimingSystemFields::TickSystem(c) => TimingSystem::TickSystem(c),
            TimingSystemFields::ActionBlocks(c) => TimingSystem::ActionBlocks(c),
        }
    }
}

impl TimingSystem {
    /// The names [`by_name`](Self::by_name) accepts, in the texts' order.
    pub const NAMES: [&'static str; 6] = [
        "simultaneous",
        "simple-rounds",
        "graduated-rounds",
        "continuous",
        "tick-system",
        "action-blocks",
    ];

    /// Graduated Rounds with the defaults (20 ticks, extend the round).
    pub fn graduated() -> TimingSystem {
        TimingSystem::GraduatedRounds(GraduatedConfig::default())
    }

    /// Continuous timing with the defaults.
    pub fn continuous() -> TimingSystem {
        TimingSystem::Continuous(ContinuousConfig::default())
    }

    /// The Tick System with the defaults (1d20, 2-tick actions).
    pub fn tick_system() -> TimingSystem {
        TimingSystem::TickSystem(TickSystemConfig::default())
    }

    /// FUZION Action Blocks with the defaults (1d6, divide by 5).
    pub fn action_blocks() -> TimingSystem {
        TimingSystem::ActionBlocks(ActionBlocksConfig::default())
    }

    /// A system with default options by name, forgiving of case, spaces,
    /// `_`/`-` and a missing "rounds"/"system" (`"graduated"`, `"Tick
    /// System"`, `"fuzion"` for action blocks).
    pub fn by_name(name: &str) -> Result<TimingSystem> {
        let key: String = name
            .chars()
            .filter(|c| c.is_alphanumeric())
            .collect::<String>()
            .to_lowercase();
        Ok(match key.as_str() {
            "simultaneous" | "simul" => TimingSystem::Simultaneous,
            "simplerounds" | "simple" | "rounds" => TimingSystem::SimpleRounds,
            "graduatedrounds" | "graduated" => TimingSystem::graduated(),
            "continuous" | "continuouscombat" => TimingSystem::continuous(),
            "ticksystem" | "tick" | "ticks" => TimingSystem::tick_system(),
            "actionblocks" | "actionblock" | "blocks" | "fuzion" => TimingSystem::action_blocks(),
            _ => return Err(Error::unknown_name("timing system", name, TimingSystem::NAMES)),
        })
    }

    /// Its name as in [`NAMES`](Self::NAMES).
    pub fn name(&self) -> &'static str {
        match self {
            TimingSystem::Simultaneous => "simultaneous",
            TimingSystem::SimpleRounds => "simple-rounds",
            TimingSystem::GraduatedRounds(_) => "graduated-rounds",
            TimingSystem::Continuous(_) => "continuous",
            TimingSystem::TickSystem(_) => "tick-system",
            TimingSystem::ActionBlocks(_) => "action-blocks",
        }
    }

    /// Checks the options.
    pub fn validate(&self) -> Result<()> {
        match self {
            TimingSystem::GraduatedRounds(c) => c.validate(),
            TimingSystem::Continuous(c) => c.validate(),
            TimingSystem::TickSystem(c) => c.validate(),
            TimingSystem::ActionBlocks(c) => c.validate(),
            TimingSystem::Simultaneous | TimingSystem::SimpleRounds => Ok(()),
        }
    }

    /// Whether FUDGE exchanges count by round under this system: the round
    /// systems (Simultaneous, Simple Rounds, Graduated Rounds) play a round
    /// as FUDGE 4.22's exchange, so a blow at a foe whose last exchange
    /// begun this round was with the striker is that exchange; under Continuous, the
    /// Tick System and Action Blocks every action that lands is an
    /// exchange (docs/rules.md §2.2.2).
    ///
    /// ```
    /// use skirmish_core::timing::TimingSystem;
    /// assert!(TimingSystem::SimpleRounds.exchanges_by_round());
    /// assert!(!TimingSystem::continuous().exchanges_by_round());
    /// ```
    pub fn exchanges_by_round(&self) -> bool {
        matches!(
            self,
            TimingSystem::Simultaneous | TimingSystem::SimpleRounds | TimingSystem::GraduatedRounds(_)
        )
    }

    /// Whether initiative uses the Relativity roll (4dF + 5 + TT - bonus).
    pub(crate) fn relativity_initiative(&self) -> bool {
        matches!(
            self,
            TimingSystem::SimpleRounds | TimingSystem::GraduatedRounds(_) | TimingSystem::Continuous(_)
        )
    }
}

impl fmt::Display for TimingSystem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for TimingSystem {
    type Err = Error;
    fn from_str(s: &str) -> Result<TimingSystem> {
        TimingSystem::by_name(s)
    }
}

/// An actor of a [`Scheduler`]: a dense index, in the order actors were added.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ActorId(pub u32);

impl ActorId {
    /// Its index.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for ActorId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.0)
    }
}

/// What an actor brings to timing regardless of the action: the Tick
/// System's initiative bonus and Interval, FUZION's REF and Combat Sense.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ActorTiming {
    /// Tick System: added to the initiative die.
    pub initiative_bonus: i32,
    /// Tick System: ticks to wait after an action before the next turn.
    pub interval: u32,
    /// Action Blocks: REF (also the declaration order within a block).
    pub reflexes: i32,
    /// Action Blocks: Combat Sense, levels of the skill (0 for none).
    pub combat_sense: i32,
}

/// The kind of a declared action, where a timing rule cares.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ActionKind {
    /// A melee attack or a spell: the default.
    #[default]
    Attack,
    /// A ranged attack; Tick System: the first one at a new target
    /// "Acquires" it and takes extra ticks.
    RangedAttack {
        /// Whether this is the first attack on this target.
        new_target: bool,
    },
    /// Tick System "Prepare": +4 to defensive rolls until the actor
    /// attacks; the turn may be taken later at leisure.
    Prepare,
    /// Anything else (reloading, a skill, drawing a weapon); Tick System:
    /// may be interrupted (Resist Concentration Loss).
    NonCombat,
}

/// The GM's last word on when a declared action lands (docs/rules.md §1.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GmTiming {
    /// Lands this many ticks after the declaration (no roll).
    ReadyTime(u32),
    /// Lands on this absolute tick (no roll); must be in the future.
    LandingTick(u64),
}

/// A declared action: what the timing rules need to know of it.
///
/// `extra_preparation` and `gm` apply to the declaration they come with
/// only: when the scheduler repeats an action (an actor who does "the same
/// again"), they are dropped, and a ranged attack is no longer at a new
/// target.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Declaration {
    /// Time Taken of the action (weapon, spell, reload, drawing); 0 or more
    /// (signed so a negative value from a file or a binding is a clear error).
    pub time_taken: i32,
    /// Speed bonus: the sum of half-values of the relevant traits.
    pub speed_bonus: i32,
    /// Rate of fire (Simple and Graduated Rounds).
    pub rate_of_fire: RateOfFire,
    /// Extra actions per round from gear ("Bracers of Archery").
    pub extra_attacks: u32,
    /// What kind of action it is.
    pub kind: ActionKind,
    /// Whether being hit before it lands cancels it (spells).
    pub disruptible: bool,
    /// Tick System: ticks the action takes (the system's default if `None`).
    pub action_ticks: Option<u32>,
    /// Extra ticks to prepare this action (dropping or drawing a weapon,
    /// recovering from a lost spell): added to its Time Taken, once; 0 or more.
    pub extra_preparation: i32,
    /// A GM-set Ready Time or landing tick instead of a roll, once.
    pub gm: Option<GmTiming>,
}

impl Default for Declaration {
    fn default() -> Self {
        Declaration {
            time_taken: 0,
            speed_bonus: 0,
            rate_of_fire: RateOfFire::ONE,
            extra_attacks: 0,
            kind: ActionKind::Attack,
            disruptible: false,
            action_ticks: None,
            extra_preparation: 0,
            gm: None,
        }
    }
}

impl Declaration {
    /// An attack with this Time Taken and speed bonus, RoF 1/1.
    pub fn new(time_taken: i32, speed_bonus: i32) -> Declaration {
        Declaration {
            time_taken,
            speed_bonus,
            ..Declaration::default()
        }
    }

    /// Attacking with `weapon` from the tables under `system`: its Time
    /// Taken (12 for a heavy crossbow in Continuous timing, per the table's
    /// footnote) and Rate of Fire.
    pub fn weapon(weapon: &Weapon, system: &TimingSystem, speed_bonus: i32) -> Declaration {
        let continuous = matches!(system, TimingSystem::Continuous(_));
        Declaration {
            time_taken: i32::try_from(weapon.time_taken_for(continuous)).unwrap_or(i32::MAX),
            speed_bonus,
            rate_of_fire: weapon.rate_of_fire,
            ..Declaration::default()
        }
    }

    /// The same with a rate of fire.
    pub fn with_rate_of_fire(mut self, rate_of_fire: RateOfFire) -> Declaration {
        self.rate_of_fire = rate_of_fire;
        self
    }

    /// The same, disruptible (a spell).
    pub fn disruptible(mut self) -> Declaration {
        self.disruptible = true;
        self
    }

    /// The same with a GM-set Ready Time.
    pub fn with_ready_time(mut self, ticks: u32) -> Declaration {
        self.gm = Some(GmTiming::ReadyTime(ticks));
        self
    }

    /// The same with extra preparation ticks.
    pub fn with_extra_preparation(mut self, ticks: i32) -> Declaration {
        self.extra_preparation = ticks;
        self
    }

    /// What this declaration adds to its initiative and Ready Time rolls:
    /// Time Taken + extra preparation - speed bonus (docs/rules.md §1.2,
    /// §1.3). The one home of that sum: [`simple::initiative_from`] and
    /// [`graduated::ready_time_from`] take it.
    ///
    /// ```
    /// use skirmish_core::timing::Declaration;
    /// // Roland's elven bow: TT 2, speed bonus +1.
    /// assert_eq!(Declaration::new(2, 1).time_offset(), 1);
    /// assert_eq!(Declaration::new(2, 1).with_extra_preparation(4).time_offset(), 5);
    /// ```
    #[inline]
    pub const fn time_offset(&self) -> i64 {
        self.time_taken as i64 + self.extra_preparation as i64 - self.speed_bonus as i64
    }

    /// The same action done again: one-off parts dropped.
    pub fn repeated(mut self) -> Declaration {
        self.extra_preparation = 0;
        self.gm = None;
        if let ActionKind::RangedAttack { new_target } = &mut self.kind {
            *new_target = false;
        }
        self
    }
}

/// Initiative the GM or a player enters instead of the scheduler rolling it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum InitiativeEntry {
    /// The die roll itself: the 4dF of Relativity initiative, the Tick
    /// System's initiative die, FUZION's 1d6. Checked against those dice.
    Roll(i32),
    /// The final value: the initiative score (Relativity, at least 1), the
    /// initiative total (Tick System), or the number of actions this phase
    /// (Action Blocks, at least 1).
    Total(i64),
}

/// One thing that happens at a [`Moment`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "act", rename_all = "snake_case")]
pub enum Act {
    /// A declared action lands (its effect happens now).
    Action {
        /// Who.
        actor: ActorId,
        /// Its number in the actor's round (1 for the first; Continuous
        /// counts from the start of battle).
        nth: u32,
    },
    /// Tick System: the actor's turn begins; it declares what to do.
    Turn {
        /// Who.
        actor: ActorId,
    },
    /// A timer set with [`Scheduler::set_timer`] runs out.
    Timer {
        /// The caller's id for it.
        id: u32,
    },
}

impl Act {
    /// The actor, if this act is an actor's.
    pub fn actor(&self) -> Option<ActorId> {
        match *self {
            Act::Action { actor, .. } | Act::Turn { actor } => Some(actor),
            Act::Timer { .. } => None,
        }
    }
}

/// When something happens: the absolute tick and how the system labels it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Moment {
    /// Absolute tick, increasing through the battle.
    pub tick: u64,
    /// Round (Simple/Graduated/Tick System), phase (Action Blocks),
    /// exchange (Simultaneous); Continuous has one round, the battle.
    pub round: u32,
    /// The tick as the system's text names it: the initiative score
    /// (Simple Rounds), the tick of the round (Graduated), the absolute
    /// tick (Continuous), the countdown tick (Tick System), the block
    /// number (Action Blocks), the exchange (Simultaneous).
    pub display: i64,
    /// Simple Rounds: the pass (1 = everyone's first action). Graduated
    /// Rounds with "end of round": the end pass (0 within the round).
    /// Action Blocks: the block number. Otherwise 0.
    pub pass: u32,
}

/// What [`Scheduler::next`] returns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "step", rename_all = "snake_case")]
pub enum Step {
    /// A new round (phase, exchange) has begun; initiative is rolled and
    /// the round's first actions are on the sheet. Nothing has acted yet,
    /// so initiative can still be corrected with
    /// [`Scheduler::set_initiative`].
    NewRound {
        /// Its number, from 1.
        round: u32,
    },
    /// Things happen together at a moment; they are in the `acts` vector.
    Moment(Moment),
}

/// An action waiting on the tick sheet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PendingAct {
    /// When it will happen.
    pub at: Moment,
    /// What.
    pub act: Act,
}
