//! Mirrors of FUDGE chapter 4's per-fighter options
//! ([`skirmish_core::striking::opposed`]'s shield, aim and position, and
//! [`skirmish_core::fighter::Tactics`]): what a profile carries and what
//! `Encounter.setTactics` changes mid-fight. Conversion only.

use skirmish_core::fighter as core;
use skirmish_core::striking::opposed;

use crate::fighter::Stance;

/// The size of a FUDGE 4.31 shield.
#[derive(Debug, Clone, Copy, PartialEq, Eq, uniffi::Enum)]
pub enum ShieldSize {
    /// +1 in melee only.
    Small,
    /// +1 in melee and against missiles.
    Medium,
    /// +2 in all combat; -2 to its carrier outside a shield wall.
    Large,
}

/// A shield (FUDGE 4.31): its value comes off the foe's result if its
/// carrier is trained.
#[derive(Debug, Clone, Copy, PartialEq, Eq, uniffi::Record)]
pub struct Shield {
    /// Small, medium or large.
    pub size: ShieldSize,
    /// Whether the carrier is trained (untrained: no bonus).
    #[uniffi(default = true)]
    pub trained: bool,
    /// In a static shield wall, where a large shield costs nothing.
    #[uniffi(default = false)]
    pub in_shield_wall: bool,
}

/// Aiming at a small part (FUDGE 4.31): -1, and a result of at least Good
/// to hit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, uniffi::Enum)]
pub enum Aim {
    /// No called shot.
    Anywhere,
    /// A small part needing a Good result.
    SmallPartNeedingGood,
    /// A small part needing a Great result (a Good one hits elsewhere).
    SmallPartNeedingGreat,
}

/// A worse position (FUDGE 4.31).
#[derive(Debug, Clone, Copy, PartialEq, Eq, uniffi::Enum)]
pub enum Position {
    /// No disadvantage.
    Even,
    /// -1.
    Worse,
    /// -2.
    MuchWorse,
}

/// The FUDGE 4.31 choices a fighter may change between blows. (`null`s
/// are the defaults: a normal stance, no shield, no aim, an even position;
/// UniFFI's defaults are literals.)
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, uniffi::Record)]
pub struct Tactics {
    /// The stance.
    #[uniffi(default = None)]
    pub stance: Option<Stance>,
    /// The shield carried.
    #[uniffi(default = None)]
    pub shield: Option<Shield>,
    /// A called shot.
    #[uniffi(default = None)]
    pub aim: Option<Aim>,
    /// A worse position.
    #[uniffi(default = None)]
    pub position: Option<Position>,
}

impl From<ShieldSize> for opposed::ShieldSize {
    fn from(s: ShieldSize) -> opposed::ShieldSize {
        match s {
            ShieldSize::Small => opposed::ShieldSize::Small,
            ShieldSize::Medium => opposed::ShieldSize::Medium,
            ShieldSize::Large => opposed::ShieldSize::Large,
        }
    }
}

impl From<opposed::ShieldSize> for ShieldSize {
    fn from(s: opposed::ShieldSize) -> ShieldSize {
        match s {
            opposed::ShieldSize::Small => ShieldSize::Small,
            opposed::ShieldSize::Medium => ShieldSize::Medium,
            opposed::ShieldSize::Large => ShieldSize::Large,
        }
    }
}

impl From<Shield> for opposed::Shield {
    fn from(s: Shield) -> opposed::Shield {
        opposed::Shield {
            size: s.size.into(),
            trained: s.trained,
            in_shield_wall: s.in_shield_wall,
        }
    }
}

impl From<opposed::Shield> for Shield {
    fn from(s: opposed::Shield) -> Shield {
        Shield {
            size: s.size.into(),
            trained: s.trained,
            in_shield_wall: s.in_shield_wall,
        }
    }
}

impl From<Aim> for opposed::Aim {
    fn from(a: Aim) -> opposed::Aim {
        match a {
            Aim::Anywhere => opposed::Aim::Anywhere,
            Aim::SmallPartNeedingGood => opposed::Aim::SmallPartNeedingGood,
            Aim::SmallPartNeedingGreat => opposed::Aim::SmallPartNeedingGreat,
        }
    }
}

impl From<opposed::Aim> for Aim {
    fn from(a: opposed::Aim) -> Aim {
        match a {
            opposed::Aim::Anywhere => Aim::Anywhere,
            opposed::Aim::SmallPartNeedingGood => Aim::SmallPartNeedingGood,
            opposed::Aim::SmallPartNeedingGreat => Aim::SmallPartNeedingGreat,
        }
    }
}

impl From<Position> for opposed::Position {
    fn from(p: Position) -> opposed::Position {
        match p {
            Position::Even => opposed::Position::Even,
            Position::Worse => opposed::Position::Worse,
            Position::MuchWorse => opposed::Position::MuchWorse,
        }
    }
}

impl From<opposed::Position> for Position {
    fn from(p: opposed::Position) -> Position {
        match p {
            opposed::Position::Even => Position::Even,
            opposed::Position::Worse => Position::Worse,
            opposed::Position::MuchWorse => Position::MuchWorse,
        }
    }
}

impl From<Tactics> for core::Tactics {
    fn from(t: Tactics) -> core::Tactics {
        core::Tactics {
            stance: t.stance.map(Into::into).unwrap_or_default(),
            shield: t.shield.map(Into::into),
            aim: t.aim.map(Into::into).unwrap_or_default(),
            position: t.position.map(Into::into).unwrap_or_default(),
        }
    }
}

impl From<core::Tactics> for Tactics {
    fn from(t: core::Tactics) -> Tactics {
        Tactics {
            stance: Some(t.stance.into()),
            shield: t.shield.map(Into::into),
            aim: Some(t.aim.into()),
            position: Some(t.position.into()),
        }
    }
}
