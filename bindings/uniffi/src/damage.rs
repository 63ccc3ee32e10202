//! Mirrors of [`skirmish_core::damage`]: the damage model an encounter's
//! strikes wound by, wound levels and the wound track. Conversion only.

use skirmish_core::damage as core;

/// A FUDGE wound level, least severe first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, uniffi::Enum)]
pub enum WoundLevel {
    /// No penalty.
    Scratch,
    /// -1.
    Hurt,
    /// -2.
    VeryHurt,
    /// Down.
    Incapacitated,
    /// Down.
    NearDeath,
    /// Dead.
    Dead,
}

impl From<core::WoundLevel> for WoundLevel {
    fn from(l: core::WoundLevel) -> WoundLevel {
        match l {
            core::WoundLevel::Scratch => WoundLevel::Scratch,
            core::WoundLevel::Hurt => WoundLevel::Hurt,
            core::WoundLevel::VeryHurt => WoundLevel::VeryHurt,
            core::WoundLevel::Incapacitated => WoundLevel::Incapacitated,
            core::WoundLevel::NearDeath => WoundLevel::NearDeath,
            core::WoundLevel::Dead => WoundLevel::Dead,
        }
    }
}

/// The filled boxes of a FUDGE wound track, per level, and whether dead.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, uniffi::Record)]
pub struct WoundTrack {
    /// Scratch boxes filled.
    #[uniffi(default = 0)]
    pub scratch: u8,
    /// Hurt boxes filled.
    #[uniffi(default = 0)]
    pub hurt: u8,
    /// Very Hurt boxes filled.
    #[uniffi(default = 0)]
    pub very_hurt: u8,
    /// Incapacitated boxes filled.
    #[uniffi(default = 0)]
    pub incapacitated: u8,
    /// Near Death boxes filled.
    #[uniffi(default = 0)]
    pub near_death: u8,
    /// Dead.
    #[uniffi(default = false)]
    pub dead: bool,
}

impl From<core::WoundTrack> for WoundTrack {
    fn from(t: core::WoundTrack) -> WoundTrack {
        WoundTrack {
            scratch: t.filled(core::WoundLevel::Scratch),
            hurt: t.filled(core::WoundLevel::Hurt),
            very_hurt: t.filled(core::WoundLevel::VeryHurt),
            incapacitated: t.filled(core::WoundLevel::Incapacitated),
            near_death: t.filled(core::WoundLevel::NearDeath),
            dead: t.filled(core::WoundLevel::Dead) > 0,
        }
    }
}

impl From<WoundTrack> for core::WoundTrack {
    fn from(t: WoundTrack) -> core::WoundTrack {
        core::WoundTrack::with_filled([t.scratch, t.hurt, t.very_hurt, t.incapacitated, t.near_death], t.dead)
    }
}

/// Least damage for each wound level.
#[derive(Debug, Clone, Copy, PartialEq, Eq, uniffi::Record)]
pub struct WoundThresholds {
    /// Scratch (default 1).
    #[uniffi(default = 1)]
    pub scratch: i32,
    /// Hurt (default 3).
    #[uniffi(default = 3)]
    pub hurt: i32,
    /// Very Hurt (default 5).
    #[uniffi(default = 5)]
    pub very_hurt: i32,
    /// Incapacitated (default 7).
    #[uniffi(default = 7)]
    pub incapacitated: i32,
    /// Near Death (default 9).
    #[uniffi(default = 9)]
    pub near_death: i32,
    /// Dead outright at this much (default: none).
    #[uniffi(default = None)]
    pub dead: Option<i32>,
}

/// Boxes per wound level.
#[derive(Debug, Clone, Copy, PartialEq, Eq, uniffi::Record)]
pub struct WoundBoxes {
    /// Scratch (default 3).
    #[uniffi(default = 3)]
    pub scratch: u32,
    /// Hurt (default 1).
    #[uniffi(default = 1)]
    pub hurt: u32,
    /// Very Hurt (default 1).
    #[uniffi(default = 1)]
    pub very_hurt: u32,
    /// Incapacitated (default 1).
    #[uniffi(default = 1)]
    pub incapacitated: u32,
    /// Near Death (default 1).
    #[uniffi(default = 1)]
    pub near_death: u32,
}

/// The FUDGE wound track's settings (the defaults are FUDGE's).
#[derive(Debug, Clone, Copy, PartialEq, Eq, uniffi::Record)]
pub struct FudgeWoundsConfig {
    /// Least damage for each level.
    #[uniffi(default)]
    pub thresholds: WoundThresholds,
    /// Boxes per level.
    #[uniffi(default)]
    pub boxes: WoundBoxes,
}

/// A row of a hit-damage table: at least this margin does this damage.
#[derive(Debug, Clone, Copy, PartialEq, Eq, uniffi::Record)]
pub struct DamageRow {
    /// Least margin.
    pub min_margin: i32,
    /// Damage.
    pub damage: i32,
}

/// How many hit points a hit takes.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Enum)]
pub enum HitDamage {
    /// Its damage (margin plus damage factors).
    Margin,
    /// Always this many.
    Flat {
        /// Hit points.
        damage: i32,
    },
    /// By margin, from a table.
    Table {
        /// The rows.
        rows: Vec<DamageRow>,
    },
}

/// A wound penalty once hit points fall to `hp_at_most`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, uniffi::Record)]
pub struct HitPointPenalty {
    /// Hit points at most.
    pub hp_at_most: i32,
    /// Penalty (negative).
    pub penalty: i32,
}

/// The hit-point model's settings.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct HitPointsConfig {
    /// Hit points when unhurt.
    #[uniffi(default = 10)]
    pub max_hp: i32,
    /// Hit points a hit takes (`Margin`: its damage).
    pub damage: HitDamage,
    /// Dead at this many hit points or fewer (<= 0).
    #[uniffi(default = 0)]
    pub dead_at: i32,
    /// Wound penalties by hit points left, least severe first.
    #[uniffi(default)]
    pub penalties: Vec<HitPointPenalty>,
}

/// The damage model.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Enum)]
pub enum DamageConfig {
    /// The FUDGE wound track.
    FudgeWounds {
        /// Its settings.
        config: FudgeWoundsConfig,
    },
    /// Hit points.
    HitPoints {
        /// Its settings.
        config: HitPointsConfig,
    },
}

impl From<DamageConfig> for core::DamageConfig {
    fn from(d: DamageConfig) -> core::DamageConfig {
        match d {
            DamageConfig::FudgeWounds { config } => core::DamageConfig::FudgeWounds(core::FudgeWoundsConfig {
                thresholds: core::WoundThresholds {
                    scratch: config.thresholds.scratch,
                    hurt: config.thresholds.hurt,
                    very_hurt: config.thresholds.very_hurt,
                    incapacitated: config.thresholds.incapacitated,
                    near_death: config.thresholds.near_death,
                    dead: config.thresholds.dead,
                },
                boxes: core::WoundBoxes {
                    scratch: config.boxes.scratch,
                    hurt: config.boxes.hurt,
                    very_hurt: config.boxes.very_hurt,
                    incapacitated: config.boxes.incapacitated,
                    near_death: config.boxes.near_death,
                },
            }),
            DamageConfig::HitPoints { config } => core::DamageConfig::HitPoints(core::HitPointsConfig {
                max_hp: config.max_hp,
                damage: match config.damage {
                    HitDamage::Margin => core::HitDamage::Margin,
                    HitDamage::Flat { damage } => core::HitDamage::Flat(damage),
                    HitDamage::Table { rows } => core::HitDamage::Table(
                        rows.into_iter()
                            .map(|r| core::DamageRow {
                                min_margin: r.min_margin,
                                damage: r.damage,
                            })
                            .collect(),
                    ),
                },
                dead_at: config.dead_at,
                penalties: config
                    .penalties
                    .into_iter()
                    .map(|p| core::HitPointPenalty {
                        hp_at_most: p.hp_at_most,
                        penalty: p.penalty,
                    })
                    .collect(),
            }),
        }
    }
}

/// The GM's correction of a combatant's damage.
#[derive(Debug, Clone, Copy, PartialEq, Eq, uniffi::Enum)]
pub enum WoundOverride {
    /// Sets the wound track (FUDGE wounds).
    Wounds {
        /// The boxes.
        track: WoundTrack,
    },
    /// Sets the hit points (hit-point model).
    HitPoints {
        /// Hit points.
        hp: i32,
    },
    /// Heals completely.
    Heal,
}

impl From<WoundOverride> for skirmish_core::tracker::WoundOverride {
    fn from(o: WoundOverride) -> skirmish_core::tracker::WoundOverride {
        use skirmish_core::tracker::WoundOverride as W;
        match o {
            WoundOverride::Wounds { track } => W::Wounds { track: track.into() },
            WoundOverride::HitPoints { hp } => W::HitPoints { hp },
            WoundOverride::Heal => W::Heal,
        }
    }
}
