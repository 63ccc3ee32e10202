//! Choosing a damage model at run time: [`DamageConfig`] as scenario files
//! and bindings name it, and [`Damage`], the enum that dispatches to the
//! chosen model.

use serde::{Deserialize, Serialize};

use super::*;
use crate::error::{Error, Result};

/// Which damage model, with its settings, as a scenario file names it:
/// `model = "fudge_wounds"` (the default) or `model = "hit_points"`, beside
/// that model's own fields.
///
/// ```
/// use skirmish_core::damage::{Damage, DamageConfig};
/// let config: DamageConfig = toml::from_str("model = \"hit_points\"\nmax_hp = 4").unwrap();
/// let damage = config.build().unwrap();
/// assert_eq!(damage.name(), "hit_points");
/// // Deserializing the model itself validates it.
/// let bad = toml::from_str::<Damage>("model = \"fudge_wounds\"\nboxes = { hurt = 0 }");
/// assert!(bad.unwrap_err().to_string().contains("boxes.hurt"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "model", rename_all = "snake_case")]
pub enum DamageConfig {
    /// [`FudgeWounds`].
    FudgeWounds(FudgeWoundsConfig),
    /// [`HitPoints`].
    HitPoints(HitPointsConfig),
}

impl Default for DamageConfig {
    fn default() -> Self {
        DamageConfig::FudgeWounds(FudgeWoundsConfig::default())
    }
}

impl DamageConfig {
    /// The names of the models, as files and bindings write them.
    pub const NAMES: [&'static str; 2] = ["fudge_wounds", "hit_points"];

    /// The named model with its default settings. Forgiving of case and
    /// punctuation; also takes `"fudge"`, `"wounds"`, `"hp"`. An unknown
    /// name is an error suggesting the closest.
    ///
    /// ```
    /// use skirmish_core::damage::DamageConfig;
    /// assert_eq!(DamageConfig::by_name("Hit Points").unwrap().name(), "hit_points");
    /// assert!(DamageConfig::by_name("hitpionts").unwrap_err().to_string().contains("hit_points"));
    /// ```
    pub fn by_name(name: &str) -> Result<DamageConfig> {
        let key: String = name
            .chars()
            .filter(char::is_ascii_alphanumeric)
            .map(|c| c.to_ascii_lowercase())
            .collect();
        match key.as_str() {
            "fudgewounds" | "fudge" | "wounds" | "woundtrack" | "woundlevels" => Ok(DamageConfig::default()),
            "hitpoints" | "hp" => Ok(DamageConfig::HitPoints(HitPointsConfig::default())),
            _ => Err(Error::unknown_name("damage model", name, DamageConfig::NAMES)),
        }
    }

    /// The model's name (one of [`NAMES`](Self::NAMES)).
    pub fn name(&self) -> &'static str {
        match self {
            DamageConfig::FudgeWounds(_) => "fudge_wounds",
            DamageConfig::HitPoints(_) => "hit_points",
        }
    }

    /// Checks the settings; the error names the field.
    pub fn validate(&self) -> Result<()> {
        match self {
            DamageConfig::FudgeWounds(c) => c.validate(),
            DamageConfig::HitPoints(c) => c.validate(),
        }
    }

    /// The model, if the settings are valid.
    pub fn build(&self) -> Result<Damage> {
        match self {
            DamageConfig::FudgeWounds(c) => FudgeWounds::new(*c).map(Damage::FudgeWounds),
            DamageConfig::HitPoints(c) => HitPoints::new(c.clone()).map(Damage::HitPoints),
        }
    }
}

/// One of the shipped damage models, chosen at run time.
///
/// Its state is a [`DamageState`] of the matching kind. A state of the other
/// kind (only possible from a mismatched snapshot, which
/// [`validate_state`](DamageModel::validate_state) refuses) is left
/// untouched by [`apply`](DamageModel::apply).
///
/// ```
/// use skirmish_core::damage::{Damage, DamageModel};
/// let model = Damage::default(); // FUDGE wound levels
/// let mut s = model.fresh();
/// model.apply(&mut s, 5);
/// assert_eq!(model.wound_penalty(&s), -2);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "DamageConfig", into = "DamageConfig")]
pub enum Damage {
    /// FUDGE wound levels.
    FudgeWounds(FudgeWounds),
    /// Hit points.
    HitPoints(HitPoints),
}

impl Default for Damage {
    fn default() -> Self {
        Damage::FudgeWounds(FudgeWounds::default())
    }
}

impl Damage {
    /// The model's name (one of [`DamageConfig::NAMES`]).
    pub fn name(&self) -> &'static str {
        match self {
            Damage::FudgeWounds(_) => "fudge_wounds",
            Damage::HitPoints(_) => "hit_points",
        }
    }

    /// The settings it was built from.
    pub fn config(&self) -> DamageConfig {
        match self {
            Damage::FudgeWounds(m) => DamageConfig::FudgeWounds(m.config),
            Damage::HitPoints(m) => DamageConfig::HitPoints(m.config.clone()),
        }
    }
}

impl TryFrom<DamageConfig> for Damage {
    type Error = Error;
    fn try_from(config: DamageConfig) -> Result<Self> {
        config.build()
    }
}

impl From<Damage> for DamageConfig {
    fn from(model: Damage) -> Self {
        model.config()
    }
}

/// The state of one combatant under a [`Damage`] model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "model", rename_all = "snake_case")]
pub enum DamageState {
    /// A wound track.
    FudgeWounds(WoundTrack),
    /// Hit points left.
    HitPoints(HitPointState),
}

/// What one hit did under a [`Damage`] model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "model", rename_all = "snake_case")]
pub enum DamageChange {
    /// On a wound track.
    FudgeWounds(WoundChange),
    /// To hit points.
    HitPoints(HitPointChange),
    /// Nothing: the state was of the other model's kind.
    Mismatch,
}

/// The model's own words for the hit ([`WoundChange`], [`HitPointChange`]).
impl std::fmt::Display for DamageChange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DamageChange::FudgeWounds(c) => c.fmt(f),
            DamageChange::HitPoints(c) => c.fmt(f),
            DamageChange::Mismatch => f.write_str("no change (the state is of another model)"),
        }
    }
}

impl DamageModel for Damage {
    type State = DamageState;
    type Change = DamageChange;

    #[inline]
    fn fresh(&self) -> DamageState {
        match self {
            Damage::FudgeWounds(m) => DamageState::FudgeWounds(m.fresh()),
            Damage::HitPoints(m) => DamageState::HitPoints(m.fresh()),
        }
    }

    #[inline]
    fn apply(&self, state: &mut DamageState, damage: i32) -> HitOutcome<DamageChange> {
        fn wrap<C>(o: HitOutcome<C>, f: impl FnOnce(C) -> DamageChange) -> HitOutcome<DamageChange> {
            HitOutcome {
                change: f(o.change),
                before: o.before,
                after: o.after,
                penalty: o.penalty,
            }
        }
        match (self, &mut *state) {
            (Damage::FudgeWounds(m), DamageState::FudgeWounds(s)) => {
                wrap(m.apply(s, damage), DamageChange::FudgeWounds)
            }
            (Damage::HitPoints(m), DamageState::HitPoints(s)) => wrap(m.apply(s, damage), DamageChange::HitPoints),
            _ => {
                let status = self.status(state);
                HitOutcome {
                    change: DamageChange::Mismatch,
                    before: status,
                    after: status,
                    penalty: self.wound_penalty(state),
                }
            }
        }
    }

    #[inline]
    fn wound_penalty(&self, state: &DamageState) -> i32 {
        match (self, state) {
            (Damage::FudgeWounds(m), DamageState::FudgeWounds(s)) => m.wound_penalty(s),
            (Damage::HitPoints(m), DamageState::HitPoints(s)) => m.wound_penalty(s),
            // A mismatched state is read by its own kind's rules where it can be.
            (_, DamageState::FudgeWounds(s)) => s.penalty(),
            (_, DamageState::HitPoints(_)) => 0,
        }
    }

    #[inline]
    fn status(&self, state: &DamageState) -> Condition {
        match (self, state) {
            (Damage::FudgeWounds(m), DamageState::FudgeWounds(s)) => m.status(s),
            (Damage::HitPoints(m), DamageState::HitPoints(s)) => m.status(s),
            (_, DamageState::FudgeWounds(s)) => s.status(),
            (_, DamageState::HitPoints(s)) => {
                if s.hp <= 0 {
                    Condition::Dead
                } else {
                    Condition::Standing
                }
            }
        }
    }

    fn validate_state(&self, state: &DamageState) -> Result<()> {
        match (self, state) {
            (Damage::FudgeWounds(m), DamageState::FudgeWounds(s)) => m.validate_state(s),
            (Damage::HitPoints(m), DamageState::HitPoints(s)) => m.validate_state(s),
            (_, DamageState::FudgeWounds(_)) => Err(Error::invalid(
                "damage_state",
                format!("is a fudge_wounds state, but the damage model is {}", self.name()),
            )),
            (_, DamageState::HitPoints(_)) => Err(Error::invalid(
                "damage_state",
                format!("is a hit_points state, but the damage model is {}", self.name()),
            )),
        }
    }
}
