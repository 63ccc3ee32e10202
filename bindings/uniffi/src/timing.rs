//! Mirrors of [`skirmish_core::timing`]: timing systems and their options,
//! declarations, initiative entries, moments. Conversion only.
//!
//! Numeric defaults are the rules' defaults (a Kotlin/Swift constructor
//! without arguments gives them; the Kotlin test checks them against the
//! core's). Enum-typed options that UniFFI cannot default are `Option`s
//! whose `None` means the rules' default.

use skirmish_core::Error as CoreError;
use skirmish_core::dice::Dice as CoreDice;
use skirmish_core::tables::weapons::RateOfFire as CoreRateOfFire;
use skirmish_core::timing as core;

use crate::error::SkirmishError;

/// Dice: `count` Fudge dice (-1/0/+1 each) or `count` dice of `sides` sides.
#[derive(Debug, Clone, Copy, PartialEq, Eq, uniffi::Enum)]
pub enum Dice {
    /// `count`dF.
    Fudge {
        /// Number of dice.
        count: u32,
    },
    /// `count`d`sides`.
    Standard {
        /// Number of dice.
        count: u32,
        /// Sides per die.
        sides: u32,
    },
}

impl From<CoreDice> for Dice {
    fn from(d: CoreDice) -> Dice {
        match d {
            CoreDice::Fudge { count } => Dice::Fudge { count },
            CoreDice::Standard { count, sides } => Dice::Standard { count, sides },
        }
    }
}

impl TryFrom<Dice> for CoreDice {
    type Error = CoreError;
    fn try_from(d: Dice) -> Result<CoreDice, CoreError> {
        match d {
            Dice::Fudge { count } => CoreDice::fudge(count),
            Dice::Standard { count, sides } => CoreDice::standard(count, sides),
        }
    }
}

/// Rate of Fire: `shots` per `rounds` (both at least 1), as the tables write it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, uniffi::Record)]
pub struct RateOfFire {
    /// Shots.
    #[uniffi(default = 1)]
    pub shots: u32,
    /// Per this many rounds.
    #[uniffi(default = 1)]
    pub rounds: u32,
}

impl From<CoreRateOfFire> for RateOfFire {
    fn from(r: CoreRateOfFire) -> RateOfFire {
        RateOfFire {
            shots: r.shots(),
            rounds: r.rounds(),
        }
    }
}

impl TryFrom<RateOfFire> for CoreRateOfFire {
    type Error = CoreError;
    fn try_from(r: RateOfFire) -> Result<CoreRateOfFire, CoreError> {
        CoreRateOfFire::new(r.shots, r.rounds)
    }
}

/// Graduated Rounds: what happens to an action whose tick falls past the end of the round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, uniffi::Enum)]
pub enum PastEnd {
    /// Extend the round until every action of it has happened (the default).
    Extend,
    /// Spill it into the next round (tick - ticks per round).
    Spill,
    /// Act at the end of the round, in initiative order.
    EndOfRound,
    /// Lose the action.
    Lose,
}

impl From<core::PastEnd> for PastEnd {
    fn from(p: core::PastEnd) -> PastEnd {
        match p {
            core::PastEnd::Extend => PastEnd::Extend,
            core::PastEnd::Spill => PastEnd::Spill,
            core::PastEnd::EndOfRound => PastEnd::EndOfRound,
            core::PastEnd::Lose => PastEnd::Lose,
        }
    }
}

impl From<PastEnd> for core::PastEnd {
    fn from(p: PastEnd) -> core::PastEnd {
        match p {
            PastEnd::Extend => core::PastEnd::Extend,
            PastEnd::Spill => core::PastEnd::Spill,
            PastEnd::EndOfRound => core::PastEnd::EndOfRound,
            PastEnd::Lose => core::PastEnd::Lose,
        }
    }
}

/// Options of Graduated Rounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, uniffi::Record)]
pub struct GraduatedConfig {
    /// Ticks per round (default 20).
    #[uniffi(default = 20)]
    pub ticks_per_round: u32,
    /// The policy past the end of the round; `None` is the default, extend.
    #[uniffi(default = None)]
    pub past_end: Option<PastEnd>,
}

/// Options of Continuous timing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, uniffi::Record)]
pub struct ContinuousConfig {
    /// Ticks per lap of the stopwatch view (default 20).
    #[uniffi(default = 20)]
    pub lap: u32,
}

/// Options of the Tick System.
#[derive(Debug, Clone, Copy, PartialEq, Eq, uniffi::Record)]
pub struct TickSystemConfig {
    /// The initiative die; `None` is the default, 1d20.
    #[uniffi(default = None)]
    pub initiative_die: Option<Dice>,
    /// Ticks an action takes unless it says otherwise (default 2).
    #[uniffi(default = 2)]
    pub action_ticks: u32,
    /// Ticks a free action (defending) takes (default 2).
    #[uniffi(default = 2)]
    pub free_action_ticks: u32,
    /// Extra ticks for the first ranged attack on a new target (default 2).
    #[uniffi(default = 2)]
    pub acquire_ticks: u32,
    /// Bonus to defensive rolls while prepared (default 4).
    #[uniffi(default = 4)]
    pub prepare_defense_bonus: i32,
}

/// Options of FUZION Action Blocks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, uniffi::Record)]
pub struct ActionBlocksConfig {
    /// The initiative die; `None` is the default, 1d6.
    #[uniffi(default = None)]
    pub die: Option<Dice>,
    /// The divisor of the Initiative Composite (default 5).
    #[uniffi(default = 5)]
    pub divisor: u32,
}

/// Which timing system runs the encounter, with its options.
#[derive(Debug, Clone, Copy, PartialEq, Eq, uniffi::Enum)]
pub enum TimingSystem {
    /// Everyone acts at once, exchange after exchange.
    Simultaneous,
    /// Rounds; initiative order; a pass per extra action.
    SimpleRounds,
    /// Rounds of ticks; later actions at previous tick + Ready Time.
    GraduatedRounds {
        /// Its options.
        config: GraduatedConfig,
    },
    /// No rounds: every action lands Ready Time ticks after the previous.
    Continuous {
        /// Its options.
        config: ContinuousConfig,
    },
    /// Countdown rounds set by the highest initiative.
    TickSystem {
        /// Its options.
        config: TickSystemConfig,
    },
    /// FUZION phases of action blocks.
    ActionBlocks {
        /// Its options.
        config: ActionBlocksConfig,
    },
}

impl From<&core::TimingSystem> for TimingSystem {
    fn from(s: &core::TimingSystem) -> TimingSystem {
        match s {
            core::TimingSystem::Simultaneous => TimingSystem::Simultaneous,
            core::TimingSystem::SimpleRounds => TimingSystem::SimpleRounds,
            core::TimingSystem::GraduatedRounds(c) => TimingSystem::GraduatedRounds {
                config: GraduatedConfig {
                    ticks_per_round: c.ticks_per_round,
                    past_end: Some(c.past_end.into()),
                },
            },
            core::TimingSystem::Continuous(c) => TimingSystem::Continuous {
                config: ContinuousConfig { lap: c.lap },
            },
            core::TimingSystem::TickSystem(c) => TimingSystem::TickSystem {
                config: TickSystemConfig {
                    initiative_die: Some(c.initiative_die.into()),
                    action_ticks: c.action_ticks,
                    free_action_ticks: c.free_action_ticks,
                    acquire_ticks: c.acquire_ticks,
                    prepare_defense_bonus: c.prepare_defense_bonus,
                },
            },
            core::TimingSystem::ActionBlocks(c) => TimingSystem::ActionBlocks {
                config: ActionBlocksConfig {
                    die: Some(c.die.into()),
                    divisor: c.divisor,
                },
            },
        }
    }
}

impl TryFrom<TimingSystem> for core::TimingSystem {
    type Error = CoreError;
    fn try_from(s: TimingSystem) -> Result<core::TimingSystem, CoreError> {
        Ok(match s {
            TimingSystem::Simultaneous => core::TimingSystem::Simultaneous,
            TimingSystem::SimpleRounds => core::TimingSystem::SimpleRounds,
            TimingSystem::GraduatedRounds { config } => core::TimingSystem::GraduatedRounds(core::GraduatedConfig {
                ticks_per_round: config.ticks_per_round,
                past_end: config
                    .past_end
                    .map_or_else(|| core::GraduatedConfig::default().past_end, Into::into),
            }),
            TimingSystem::Continuous { config } => {
                core::TimingSystem::Continuous(core::ContinuousConfig { lap: config.lap })
            }
            TimingSystem::TickSystem { config } => core::TimingSystem::TickSystem(core::TickSystemConfig {
                initiative_die: match config.initiative_die {
                    Some(d) => d
                        .try_into()
                        .map_err(|e: CoreError| e.in_field("timing.initiative_die"))?,
                    None => core::TickSystemConfig::default().initiative_die,
                },
                action_ticks: config.action_ticks,
                free_action_ticks: config.free_action_ticks,
                acquire_ticks: config.acquire_ticks,
                prepare_defense_bonus: config.prepare_defense_bonus,
            }),
            TimingSystem::ActionBlocks { config } => core::TimingSystem::ActionBlocks(core::ActionBlocksConfig {
                die: match config.die {
                    Some(d) => d.try_into().map_err(|e: CoreError| e.in_field("timing.die"))?,
                    None => core::ActionBlocksConfig::default().die,
                },
                divisor: config.divisor,
            }),
        })
    }
}

/// What a combatant brings to timing regardless of the action.
#[derive(Debug, Clone, Copy, PartialEq, Eq, uniffi::Record)]
pub struct ActorTiming {
    /// Tick System: added to the initiative die.
    #[uniffi(default = 0)]
    pub initiative_bonus: i32,
    /// Tick System: ticks to wait after an action before the next turn.
    #[uniffi(default = 0)]
    pub interval: u32,
    /// Action Blocks: REF.
    #[uniffi(default = 0)]
    pub reflexes: i32,
    /// Action Blocks: Combat Sense.
    #[uniffi(default = 0)]
    pub combat_sense: i32,
}

impl From<core::ActorTiming> for ActorTiming {
    fn from(t: core::ActorTiming) -> ActorTiming {
        ActorTiming {
            initiative_bonus: t.initiative_bonus,
            interval: t.interval,
            reflexes: t.reflexes,
            combat_sense: t.combat_sense,
        }
    }
}

impl From<ActorTiming> for core::ActorTiming {
    fn from(t: ActorTiming) -> core::ActorTiming {
        core::ActorTiming {
            initiative_bonus: t.initiative_bonus,
            interval: t.interval,
            reflexes: t.reflexes,
            combat_sense: t.combat_sense,
        }
    }
}

/// The kind of a declared action, where a timing rule cares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, uniffi::Enum)]
pub enum ActionKind {
    /// A melee attack or a spell (the default).
    Attack,
    /// A ranged attack; the first at a new target "Acquires" it (Tick System).
    RangedAttack {
        /// Whether this is the first attack on this target.
        new_target: bool,
    },
    /// Tick System "Prepare": +4 to defensive rolls until the actor attacks.
    Prepare,
    /// Anything else (reloading, a skill); Tick System: may be interrupted.
    NonCombat,
}

impl From<core::ActionKind> for ActionKind {
    fn from(k: core::ActionKind) -> ActionKind {
        match k {
            core::ActionKind::Attack => ActionKind::Attack,
            core::ActionKind::RangedAttack { new_target } => ActionKind::RangedAttack { new_target },
            core::ActionKind::Prepare => ActionKind::Prepare,
            core::ActionKind::NonCombat => ActionKind::NonCombat,
        }
    }
}

impl From<ActionKind> for core::ActionKind {
    fn from(k: ActionKind) -> core::ActionKind {
        match k {
            ActionKind::Attack => core::ActionKind::Attack,
            ActionKind::RangedAttack { new_target } => core::ActionKind::RangedAttack { new_target },
            ActionKind::Prepare => core::ActionKind::Prepare,
            ActionKind::NonCombat => core::ActionKind::NonCombat,
        }
    }
}

/// The GM's last word on when a declared action lands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, uniffi::Enum)]
pub enum GmTiming {
    /// Lands this many ticks after the declaration (no roll).
    ReadyTime {
        /// Ticks.
        ticks: u32,
    },
    /// Lands on this absolute tick (no roll); must be in the future.
    LandingTick {
        /// Absolute tick.
        tick: u64,
    },
}

impl From<core::GmTiming> for GmTiming {
    fn from(g: core::GmTiming) -> GmTiming {
        match g {
            core::GmTiming::ReadyTime(ticks) => GmTiming::ReadyTime { ticks },
            core::GmTiming::LandingTick(tick) => GmTiming::LandingTick { tick },
        }
    }
}

impl From<GmTiming> for core::GmTiming {
    fn from(g: GmTiming) -> core::GmTiming {
        match g {
            GmTiming::ReadyTime { ticks } => core::GmTiming::ReadyTime(ticks),
            GmTiming::LandingTick { tick } => core::GmTiming::LandingTick(tick),
        }
    }
}

/// A declared action: what the timing rules need to know of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, uniffi::Record)]
pub struct Declaration {
    /// Time Taken (weapon, spell, reload); 0 or more.
    #[uniffi(default = 0)]
    pub time_taken: i32,
    /// Speed bonus: the sum of half-values of the relevant traits.
    #[uniffi(default = 0)]
    pub speed_bonus: i32,
    /// Rate of fire (Simple and Graduated Rounds); default 1/1.
    #[uniffi(default)]
    pub rate_of_fire: RateOfFire,
    /// Extra actions per round from gear ("Bracers of Archery").
    #[uniffi(default = 0)]
    pub extra_attacks: u32,
    /// What kind of action; `None` is the default, an attack.
    #[uniffi(default = None)]
    pub kind: Option<ActionKind>,
    /// Whether being hit before it lands cancels it (spells).
    #[uniffi(default = false)]
    pub disruptible: bool,
    /// Tick System: ticks the action takes (`None`: the system's default).
    #[uniffi(default = None)]
    pub action_ticks: Option<u32>,
    /// Extra ticks to prepare this action, once (drawing a weapon).
    #[uniffi(default = 0)]
    pub extra_preparation: i32,
    /// A GM-set Ready Time or landing tick instead of a roll, once.
    #[uniffi(default = None)]
    pub gm: Option<GmTiming>,
}

impl From<core::Declaration> for Declaration {
    fn from(d: core::Declaration) -> Declaration {
        Declaration {
            time_taken: d.time_taken,
            speed_bonus: d.speed_bonus,
            rate_of_fire: d.rate_of_fire.into(),
            extra_attacks: d.extra_attacks,
            kind: Some(d.kind.into()),
            disruptible: d.disruptible,
            action_ticks: d.action_ticks,
            extra_preparation: d.extra_preparation,
            gm: d.gm.map(Into::into),
        }
    }
}

impl TryFrom<Declaration> for core::Declaration {
    type Error = CoreError;
    fn try_from(d: Declaration) -> Result<core::Declaration, CoreError> {
        Ok(core::Declaration {
            time_taken: d.time_taken,
            speed_bonus: d.speed_bonus,
            rate_of_fire: d
                .rate_of_fire
                .try_into()
                .map_err(|e: CoreError| e.in_field("declaration"))?,
            extra_attacks: d.extra_attacks,
            kind: d.kind.map_or_else(core::ActionKind::default, Into::into),
            disruptible: d.disruptible,
            action_ticks: d.action_ticks,
            extra_preparation: d.extra_preparation,
            gm: d.gm.map(Into::into),
        })
    }
}

/// Initiative entered by the GM or a player instead of the encounter rolling it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, uniffi::Enum)]
pub enum InitiativeEntry {
    /// The die roll itself (4dF for Relativity initiative, the Tick
    /// System's die, FUZION's 1d6), checked against those dice.
    Roll {
        /// The roll.
        roll: i32,
    },
    /// The final value: initiative score, total, or actions this phase.
    Total {
        /// The value.
        total: i64,
    },
}

impl From<core::InitiativeEntry> for InitiativeEntry {
    fn from(e: core::InitiativeEntry) -> InitiativeEntry {
        match e {
            core::InitiativeEntry::Roll(roll) => InitiativeEntry::Roll { roll },
            core::InitiativeEntry::Total(total) => InitiativeEntry::Total { total },
        }
    }
}

impl From<InitiativeEntry> for core::InitiativeEntry {
    fn from(e: InitiativeEntry) -> core::InitiativeEntry {
        match e {
            InitiativeEntry::Roll { roll } => core::InitiativeEntry::Roll(roll),
            InitiativeEntry::Total { total } => core::InitiativeEntry::Total(total),
        }
    }
}

/// When something happens: the absolute tick and how the system labels it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, uniffi::Record)]
pub struct Moment {
    /// Absolute tick, increasing through the encounter.
    pub tick: u64,
    /// Round (phase, exchange); Continuous has one round.
    pub round: u32,
    /// The tick as the system's text names it (initiative score, tick of
    /// the round, countdown tick, block number, exchange).
    pub display: i64,
    /// Simple Rounds: the pass; Graduated end of round: the end pass;
    /// Action Blocks: the block; otherwise 0.
    pub pass: u32,
}

impl From<core::Moment> for Moment {
    fn from(m: core::Moment) -> Moment {
        Moment {
            tick: m.tick,
            round: m.round,
            display: m.display,
            pass: m.pass,
        }
    }
}

/// Tick System: what a free action did to the combatant's timing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, uniffi::Record)]
pub struct FreeActionResult {
    /// Ticks it took (0 for a prepared combatant's first defense).
    pub ticks: u32,
    /// Whether it cancelled an action in progress.
    pub cancelled_action: bool,
    /// The countdown tick of the next turn afterwards, if any this round.
    pub next_turn: Option<i64>,
    /// Whether the next turn was pushed back.
    pub pushed: bool,
}

impl From<core::FreeActionResult> for FreeActionResult {
    fn from(r: core::FreeActionResult) -> FreeActionResult {
        FreeActionResult {
            ticks: r.ticks,
            cancelled_action: r.cancelled_action,
            next_turn: r.next_turn,
            pushed: r.pushed,
        }
    }
}

/// A timing system with its default options by name, forgiving of case
/// and spelling (`"continuous"`, `"Tick System"`, `"fuzion"`).
#[uniffi::export]
pub fn timing_system_named(name: String) -> Result<TimingSystem, SkirmishError> {
    crate::error::guard(|| Ok((&core::TimingSystem::by_name(&name)?).into()))
}

/// The names [`timing_system_named`] knows, in the texts' order.
#[uniffi::export]
pub fn timing_system_names() -> Result<Vec<String>, SkirmishError> {
    crate::error::guard(|| Ok(core::TimingSystem::NAMES.iter().map(|n| (*n).to_owned()).collect()))
}

/// A declaration with every option at the rules' default (an attack of Time Taken 0).
#[uniffi::export]
pub fn default_declaration() -> Result<Declaration, SkirmishError> {
    crate::error::guard(|| Ok(core::Declaration::default().into()))
}

/// Tick System: whether a fighter's defenses take time (its `defend`
/// policy).
#[derive(Debug, Clone, Copy, PartialEq, Eq, uniffi::Enum)]
pub enum Defending {
    /// Defending takes no time (the default).
    Untimed,
    /// Each defense is a free action of the system's free-action ticks
    /// (a prepared fighter's first is free).
    FreeAction,
}

impl From<Defending> for skirmish_core::timing::tick_system::Defending {
    fn from(d: Defending) -> Self {
        match d {
            Defending::Untimed => Self::Untimed,
            Defending::FreeAction => Self::FreeAction,
        }
    }
}

impl From<skirmish_core::timing::tick_system::Defending> for Defending {
    fn from(d: skirmish_core::timing::tick_system::Defending) -> Self {
        use skirmish_core::timing::tick_system::Defending as Core;
        match d {
            Core::Untimed => Defending::Untimed,
            Core::FreeAction => Defending::FreeAction,
        }
    }
}
