//! Fuzz inputs shared by the targets: timing systems with their options
//! and declarations, every field over its whole range, built with
//! `arbitrary` (most such values are refused, which is the point: the
//! refusal must be a typed error).

use arbitrary::Arbitrary;
use skirmish_core::dice::Dice;
use skirmish_core::tables::weapons::RateOfFire;
use skirmish_core::timing::{
    ActionBlocksConfig, ActionKind, ContinuousConfig, Declaration, GmTiming, GraduatedConfig, PastEnd,
    TickSystemConfig, TimingSystem,
};

/// Dice over the whole range of their fields (most are refused).
#[derive(Arbitrary, Debug)]
pub enum DiceIn {
    Fudge(u32),
    Standard(u32, u32),
}

impl DiceIn {
    /// The dice, if the constructors accept them.
    pub fn dice(&self) -> Option<Dice> {
        match *self {
            DiceIn::Fudge(c) => Dice::fudge(c).ok(),
            DiceIn::Standard(c, s) => Dice::standard(c, s).ok(),
        }
    }
}

/// A timing system: by name, or with every option over its range.
#[derive(Arbitrary, Debug)]
pub enum SystemIn {
    Named(u8),
    Simultaneous,
    SimpleRounds,
    Graduated {
        ticks_per_round: u32,
        past_end: u8,
    },
    Continuous {
        lap: u32,
    },
    Tick {
        die: DiceIn,
        action: u32,
        free: u32,
        acquire: u32,
        bonus: i32,
    },
    Blocks {
        die: DiceIn,
        divisor: u32,
    },
}

impl SystemIn {
    /// The system, or `None` when its dice are refused (the options
    /// themselves are left for the tracker or scheduler to refuse).
    pub fn system(&self) -> Option<TimingSystem> {
        Some(match self {
            SystemIn::Named(n) => {
                TimingSystem::by_name(TimingSystem::NAMES[usize::from(*n) % TimingSystem::NAMES.len()]).ok()?
            }
            SystemIn::Simultaneous => TimingSystem::Simultaneous,
            SystemIn::SimpleRounds => TimingSystem::SimpleRounds,
            SystemIn::Graduated {
                ticks_per_round,
                past_end,
            } => TimingSystem::GraduatedRounds(GraduatedConfig {
                ticks_per_round: *ticks_per_round,
                past_end: [PastEnd::Extend, PastEnd::Spill, PastEnd::EndOfRound, PastEnd::Lose]
                    [usize::from(*past_end) % 4],
            }),
            SystemIn::Continuous { lap } => TimingSystem::Continuous(ContinuousConfig { lap: *lap }),
            SystemIn::Tick {
                die,
                action,
                free,
                acquire,
                bonus,
            } => TimingSystem::TickSystem(TickSystemConfig {
                initiative_die: die.dice()?,
                action_ticks: *action,
                free_action_ticks: *free,
                acquire_ticks: *acquire,
                prepare_defense_bonus: *bonus,
            }),
            SystemIn::Blocks { die, divisor } => TimingSystem::ActionBlocks(ActionBlocksConfig {
                die: die.dice()?,
                divisor: *divisor,
            }),
        })
    }
}

/// A declared action with every field over its range.
#[derive(Arbitrary, Debug)]
pub struct DeclIn {
    time_taken: i32,
    speed_bonus: i32,
    rate: Option<(u32, u32)>,
    extra_attacks: u32,
    kind: u8,
    disruptible: bool,
    action_ticks: Option<u32>,
    extra_preparation: i32,
    gm: Option<GmIn>,
}

/// A GM's ruling on when an action lands.
#[derive(Arbitrary, Debug)]
pub enum GmIn {
    ReadyTime(u32),
    LandingTick(u64),
}

impl DeclIn {
    /// The declaration (a refused rate of fire keeps the default).
    pub fn declaration(&self) -> Declaration {
        let mut d = Declaration::new(self.time_taken, self.speed_bonus);
        if let Some(rate) = self.rate.and_then(|(s, r)| RateOfFire::new(s, r).ok()) {
            d.rate_of_fire = rate;
        }
        d.extra_attacks = self.extra_attacks;
        d.kind = match self.kind % 5 {
            0 => ActionKind::Attack,
            1 => ActionKind::RangedAttack { new_target: true },
            2 => ActionKind::RangedAttack { new_target: false },
            3 => ActionKind::Prepare,
            _ => ActionKind::NonCombat,
        };
        d.disruptible = self.disruptible;
        d.action_ticks = self.action_ticks;
        d.extra_preparation = self.extra_preparation;
        d.gm = self.gm.as_ref().map(|g| match *g {
            GmIn::ReadyTime(t) => GmTiming::ReadyTime(t),
            GmIn::LandingTick(t) => GmTiming::LandingTick(t),
        });
        d
    }
}
