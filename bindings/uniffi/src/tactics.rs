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

/// FUDGE 4.34's optional sweeping blow: the lone fighter wounds every
/// foe he bested, each blow reduced per foe beyond the first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, uniffi::Enum)]
pub enum SweepingBlow {
    /// One foe at most (the standard rule).
    Off,
    /// -1 damage per extra foe cut through.
    MinusOnePerFoe,
    /// -2 damage per extra foe cut through.
    MinusTwoPerFoe,
}

impl From<SweepingBlow> for opposed::SweepingBlow {
    fn from(s: SweepingBlow) -> opposed::SweepingBlow {
        match s {
            SweepingBlow::Off => opposed::SweepingBlow::Off,
            SweepingBlow::MinusOnePerFoe => opposed::SweepingBlow::MinusOnePerFoe,
            SweepingBlow::MinusTwoPerFoe => opposed::SweepingBlow::MinusTwoPerFoe,
        }
    }
}

impl From<opposed::SweepingBlow> for SweepingBlow {
    fn from(s: opposed::SweepingBlow) -> SweepingBlow {
        match s {
            opposed::SweepingBlow::Off => SweepingBlow::Off,
            opposed::SweepingBlow::MinusOnePerFoe => SweepingBlow::MinusOnePerFoe,
            opposed::SweepingBlow::MinusTwoPerFoe => SweepingBlow::MinusTwoPerFoe,
        }
    }
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

/// FUDGE 4.32's posture: the same one every exchange, or a mixed strategy
/// drawn each exchange.
#[derive(Debug, Clone, PartialEq, uniffi::Enum)]
pub enum PostureChoice {
    /// The offense modifier, -2..=2 (the defense gets its opposite).
    Fixed {
        /// -2..=2.
        offense: i32,
    },
    /// The chances of offense -2, -1, 0, +1, +2 (five numbers in 0..=1
    /// summing to 1).
    Mixed {
        /// Five probabilities.
        probabilities: Vec<f64>,
    },
}

impl TryFrom<PostureChoice> for opposed::PostureChoice {
    type Error = skirmish_core::Error;
    fn try_from(p: PostureChoice) -> Result<opposed::PostureChoice, skirmish_core::Error> {
        match p {
            PostureChoice::Fixed { offense } => Ok(opposed::PostureChoice::Fixed(opposed::Posture::new(offense)?)),
            PostureChoice::Mixed { probabilities } => {
                let five: [f64; 5] = probabilities.as_slice().try_into().map_err(|_| {
                    skirmish_core::Error::invalid(
                        "posture",
                        format!(
                            "{} probabilities: give five, for -2, -1, 0, +1, +2",
                            probabilities.len()
                        ),
                    )
                })?;
                opposed::PostureChoice::mixed(five)
            }
        }
    }
}

impl From<opposed::PostureChoice> for PostureChoice {
    fn from(p: opposed::PostureChoice) -> PostureChoice {
        match p {
            opposed::PostureChoice::Fixed(p) => PostureChoice::Fixed { offense: p.offense() },
            opposed::PostureChoice::Mixed(w) => PostureChoice::Mixed {
                probabilities: w.to_vec(),
            },
        }
    }
}

/// The FUDGE 4.31 choices a fighter may change between blows. (`null`s
/// are the defaults: a normal stance, no shield, no aim, an even position;
/// UniFFI's defaults are literals.)
#[derive(Debug, Clone, PartialEq, Default, uniffi::Record)]
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
    /// FUDGE 4.32's posture (`null`: normal, 0); not with a stance.
    #[uniffi(default = None)]
    pub posture: Option<PostureChoice>,
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

impl TryFrom<Tactics> for core::Tactics {
    type Error = skirmish_core::Error;
    fn try_from(t: Tactics) -> Result<core::Tactics, skirmish_core::Error> {
        Ok(core::Tactics {
            stance: t.stance.map(Into::into).unwrap_or_default(),
            shield: t.shield.map(Into::into),
            aim: t.aim.map(Into::into).unwrap_or_default(),
            position: t.position.map(Into::into).unwrap_or_default(),
            posture: t
                .posture
                .map(TryInto::try_into)
                .transpose()
                .map_err(|e: skirmish_core::Error| e.in_field("tactics"))?
                .unwrap_or_default(),
        })
    }
}

impl From<core::Tactics> for Tactics {
    fn from(t: core::Tactics) -> Tactics {
        Tactics {
            stance: Some(t.stance.into()),
            shield: t.shield.map(Into::into),
            aim: Some(t.aim.into()),
            position: Some(t.position.into()),
            posture: Some(t.posture.into()),
        }
    }
}
