//! Hit points: a plain pool, with a table from the damage of a hit to the
//! hit points it takes, and the [`HitPoints`] model.

use serde::{Deserialize, Serialize};

use super::*;
use crate::error::{Error, Result};

/// How many hit points a hit of a given damage takes.
///
/// In a file: `damage = "margin"`, `damage = { flat = 1 }` or
/// `damage = { table = [{ min_margin = 1, damage = 1 }, { min_margin = 3, damage = 2 }] }`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HitDamage {
    /// Hit points lost = the damage of the hit (margin plus damage factor).
    #[default]
    Margin,
    /// Every hit takes this many hit points (>= 1).
    Flat(i32),
    /// The row with the greatest `min_margin` not above the damage of the
    /// hit says how many hit points it takes; below the first row, none.
    Table(Vec<DamageRow>),
}

/// One row of a [`HitDamage::Table`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DamageRow {
    /// Least damage of a hit (its margin plus damage factor; just the margin
    /// when there are no factors) for this row; >= 1, strictly increasing.
    pub min_margin: i32,
    /// Hit points such a hit takes; >= 0, never less than the row before.
    pub damage: i32,
}

/// A wound penalty by hit points left: at `hp_at_most` hit points or fewer,
/// the combatant is at `penalty`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HitPointPenalty {
    /// The penalty applies at this many hit points or fewer (< max_hp).
    pub hp_at_most: i32,
    /// The penalty (<= 0).
    pub penalty: i32,
}

/// The settings of [`HitPoints`], as a scenario file writes them.
///
/// ```
/// use skirmish_core::damage::{HitDamage, HitPointsConfig};
/// let config: HitPointsConfig = toml::from_str(
///     "max_hp = 6\ndamage = { table = [{ min_margin = 1, damage = 1 }, { min_margin = 3, damage = 2 }] }",
/// )
/// .unwrap();
/// assert_eq!(config, HitPointsConfig::parity(6));
/// assert!(config.validate().is_ok());
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HitPointsConfig {
    /// Hit points when unhurt (>= 1; default 10).
    #[serde(default = "ten_hit_points")]
    pub max_hp: i32,
    /// Hit points a hit takes (default: its damage).
    #[serde(default)]
    pub damage: HitDamage,
    /// Dead at this many hit points or fewer (<= 0). The default 0 makes
    /// dead the same as down; a negative value leaves the down (hp <= 0)
    /// alive until further hits bring them to it.
    #[serde(default)]
    pub dead_at: i32,
    /// Wound penalties by hit points left, least severe first (default
    /// none: no penalty).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub penalties: Vec<HitPointPenalty>,
}

fn ten_hit_points() -> i32 {
    HitPointsConfig::default().max_hp
}

impl Default for HitPointsConfig {
    /// 10 hit points, a hit takes its damage, dead when down, no penalties.
    fn default() -> Self {
        HitPointsConfig {
            max_hp: 10,
            damage: HitDamage::Margin,
            dead_at: 0,
            penalties: Vec::new(),
        }
    }
}

impl HitPointsConfig {
    /// The simulator's parity battle: `max_hp` hit points, damage 1 for a
    /// hit of margin 1-2 and 2 for margin 3 or more, dead when down.
    pub fn parity(max_hp: i32) -> HitPointsConfig {
        HitPointsConfig {
            max_hp,
            damage: HitDamage::Table(vec![
                DamageRow {
                    min_margin: 1,
                    damage: 1,
                },
                DamageRow {
                    min_margin: 3,
                    damage: 2,
                },
            ]),
            dead_at: 0,
            penalties: Vec::new(),
        }
    }

    /// Checks the settings; the error names the field.
    pub fn validate(&self) -> Result<()> {
        if self.max_hp < 1 {
            return Err(Error::out_of_range("max_hp", self.max_hp, 1, i32::MAX));
        }
        match &self.damage {
            HitDamage::Margin => {}
            HitDamage::Flat(n) => {
                if *n < 1 {
                    return Err(Error::out_of_range("damage.flat", *n, 1, i32::MAX));
                }
            }
            HitDamage::Table(rows) => validate_table(rows)?,
        }
        if self.dead_at > 0 {
            return Err(Error::out_of_range("dead_at", self.dead_at, i32::MIN, 0));
        }
        let mut previous: Option<HitPointPenalty> = None;
        for (i, row) in self.penalties.iter().enumerate() {
            if row.hp_at_most >= self.max_hp {
                return Err(Error::out_of_range(
                    format!("penalties[{i}].hp_at_most"),
                    row.hp_at_most,
                    i32::MIN,
                    self.max_hp - 1,
                ));
            }
            if row.penalty > 0 {
                return Err(Error::out_of_range(
                    format!("penalties[{i}].penalty"),
                    row.penalty,
                    i32::MIN,
                    0,
                ));
            }
            if let Some(p) = previous {
                if row.hp_at_most >= p.hp_at_most {
                    return Err(Error::invalid(
                        format!("penalties[{i}].hp_at_most"),
                        format!(
                            "must be less than the row before ({}), is {}; list penalties from least to most hurt",
                            p.hp_at_most, row.hp_at_most
                        ),
                    ));
                }
                if row.penalty > p.penalty {
                    return Err(Error::invalid(
                        format!("penalties[{i}].penalty"),
                        format!(
                            "must not be milder than the row before ({}), is {}",
                            p.penalty, row.penalty
                        ),
                    ));
                }
            }
            previous = Some(*row);
        }
        Ok(())
    }
}

/// Checks a damage table: non-empty, `min_margin` >= 1 and strictly
/// increasing, `damage` >= 0 and never decreasing.
fn validate_table(rows: &[DamageRow]) -> Result<()> {
    let Some(first) = rows.first() else {
        return Err(Error::invalid("damage.table", "needs at least one row"));
    };
    if first.min_margin < 1 {
        return Err(Error::out_of_range(
            "damage.table[0].min_margin",
            first.min_margin,
            1,
            i32::MAX,
        ));
    }
    for (i, row) in rows.iter().enumerate() {
        if row.damage < 0 {
            return Err(Error::out_of_range(
                format!("damage.table[{i}].damage"),
                row.damage,
                0,
                i32::MAX,
            ));
        }
        if let Some(before) = i.checked_sub(1).and_then(|j| rows.get(j)) {
            if row.min_margin <= before.min_margin {
                return Err(Error::invalid(
                    format!("damage.table[{i}].min_margin"),
                    format!(
                        "must be greater than the row before ({}), is {}; sort the table by min_margin",
                        before.min_margin, row.min_margin
                    ),
                ));
            }
            if row.damage < before.damage {
                return Err(Error::invalid(
                    format!("damage.table[{i}].damage"),
                    format!(
                        "must not be less than the row before ({}), is {}",
                        before.damage, row.damage
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// One combatant's hit points left (may go below 0). Four bytes, `Copy`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HitPointState {
    pub(super) hp: i32,
}

impl HitPointState {
    /// A combatant with `hp` hit points left; check it against a model with
    /// [`DamageModel::validate_state`].
    pub const fn new(hp: i32) -> HitPointState {
        HitPointState { hp }
    }

    /// Hit points left.
    #[inline]
    pub const fn hp(&self) -> i32 {
        self.hp
    }
}

/// What one hit did to a pool of hit points.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct HitPointChange {
    /// The damage of the hit.
    pub damage: i32,
    /// Hit points it took (0 if too little damage, or already dead).
    pub lost: i32,
    /// Hit points left after it.
    pub hp: i32,
}

/// The hit's result as a tick sheet reads it: the hit points it took and
/// those left ("loses 2 hit points, 5 left").
///
/// ```
/// use skirmish_core::damage::{DamageModel, HitPoints, HitPointsConfig};
/// let model = HitPoints::new(HitPointsConfig::parity(3)).unwrap();
/// let mut s = model.fresh();
/// assert_eq!(model.apply(&mut s, 2).change.to_string(), "loses 1 hit point, 2 left");
/// ```
impl std::fmt::Display for HitPointChange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let s = if self.lost == 1 { "" } else { "s" };
        write!(f, "loses {} hit point{s}, {} left", self.lost, self.hp)
    }
}

/// A plain hit-point model: down at 0 hit points or fewer, dead at
/// `dead_at` or fewer (default: the same as down).
///
/// ```
/// use skirmish_core::damage::{DamageModel, HitPoints, HitPointsConfig};
/// let model = HitPoints::new(HitPointsConfig::parity(3)).unwrap();
/// let mut s = model.fresh();
/// assert_eq!(model.apply(&mut s, 2).change.lost, 1);
/// assert_eq!(model.apply(&mut s, 5).change.lost, 2);
/// assert_eq!(s.hp(), 0);
/// assert!(model.is_down(&s) && model.is_dead(&s));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "HitPointsConfig", into = "HitPointsConfig")]
pub struct HitPoints {
    pub(super) config: HitPointsConfig,
}

impl HitPoints {
    /// The model with these settings, if they are valid.
    pub fn new(config: HitPointsConfig) -> Result<HitPoints> {
        config.validate()?;
        Ok(HitPoints { config })
    }

    /// The settings it was built from.
    pub fn config(&self) -> &HitPointsConfig {
        &self.config
    }

    /// Hit points a hit of `damage` takes (0 for damage <= 0).
    #[inline]
    pub fn hp_lost(&self, damage: i32) -> i32 {
        if damage < 1 {
            return 0;
        }
        match &self.config.damage {
            HitDamage::Margin => damage,
            HitDamage::Flat(n) => *n,
            HitDamage::Table(rows) => rows
                .iter()
                .rev()
                .find(|row| damage >= row.min_margin)
                .map_or(0, |row| row.damage),
        }
    }
}

impl TryFrom<HitPointsConfig> for HitPoints {
    type Error = Error;
    fn try_from(config: HitPointsConfig) -> Result<Self> {
        HitPoints::new(config)
    }
}

impl From<HitPoints> for HitPointsConfig {
    fn from(model: HitPoints) -> Self {
        model.config
    }
}

impl DamageModel for HitPoints {
    type State = HitPointState;
    type Change = HitPointChange;

    #[inline]
    fn fresh(&self) -> HitPointState {
        HitPointState { hp: self.config.max_hp }
    }

    #[inline]
    fn apply(&self, state: &mut HitPointState, damage: i32) -> HitOutcome<HitPointChange> {
        let before = self.status(state);
        let lost = if before.is_dead() { 0 } else { self.hp_lost(damage) };
        state.hp = state.hp.saturating_sub(lost);
        HitOutcome {
            change: HitPointChange {
                damage,
                lost,
                hp: state.hp,
            },
            before,
            after: self.status(state),
            penalty: self.wound_penalty(state),
        }
    }

    #[inline]
    fn wound_penalty(&self, state: &HitPointState) -> i32 {
        self.config
            .penalties
            .iter()
            .rev()
            .find(|row| state.hp <= row.hp_at_most)
            .map_or(0, |row| row.penalty)
    }

    #[inline]
    fn status(&self, state: &HitPointState) -> Condition {
        if state.hp <= self.config.dead_at {
            Condition::Dead
        } else if state.hp <= 0 {
            Condition::Down
        } else {
            Condition::Standing
        }
    }

    fn validate_state(&self, state: &HitPointState) -> Result<()> {
        if state.hp > self.config.max_hp {
            return Err(Error::out_of_range("hp", state.hp, i32::MIN, self.config.max_hp));
        }
        Ok(())
    }
}
