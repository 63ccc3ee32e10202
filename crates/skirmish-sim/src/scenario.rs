//! Scenarios: who fights whom, under which timing, striking and damage
//! rules. Written as TOML or JSON; the goblin ambush and mass presets are
//! built in ([`BUILTIN`]).
//!
//! - Load: [`Scenario::load`] (by extension), [`Scenario::from_toml_str`],
//!   [`Scenario::from_json_str`], [`Scenario::builtin`]. Loading validates
//!   ([`Scenario::validate`]); unknown keys are refused.
//! - Errors: [`ScenarioError`] names the file, line, column and field path,
//!   e.g. `ambush.toml:12:9: sides[0].groups[1].count: -3 is not a count
//!   (expected 1 or more)`.
//! - Sweeps: [`Scenario::get_field`] and [`Scenario::with_field`] read and
//!   change one field by a path such as `sides.goblinoids.groups.Shaman.weapon`.
//! - Write back: [`Scenario::to_toml_string`], [`Scenario::to_json_string`].
//! - Size: at most [`MAX_FIGHTERS`] fighters in all.
//!
//! ```
//! use skirmish_sim::scenario::{Scenario, BUILTIN};
//!
//! // The default built-in: the goblin ambush of the texts.
//! let ambush = Scenario::builtin(BUILTIN[0])?;
//! assert_eq!(ambush.sides.len(), 2);
//! assert_eq!(ambush.get_field("sides.party.groups.Cardiff.weapon")?, "Sword, Two-Handed");
//!
//! // Override a field as a sweep does: a timing system by name.
//! let ticks = ambush.with_field("timing", "tick-system")?;
//! assert_eq!(ticks.timing.name(), "tick-system");
//!
//! // A bad file says where and what.
//! let err = Scenario::from_toml_str("name = \"x\"\nsides = 3\n", "x.toml").unwrap_err();
//! assert_eq!(err.to_string(), "x.toml:2:9: sides: invalid type: integer `3`, expected a list");
//! # Ok::<(), skirmish_sim::scenario::ScenarioError>(())
//! ```
//!
//! A file:
//!
//! ```toml
//! name = "ambush"
//! timing = "continuous"                       # or a table: { system = "graduated_rounds", past_end = "spill" }
//! striking = { system = "full_contact", amazing = true }
//! damage = { model = "hit_points", max_hp = 4 }
//!
//! [battle]
//! targeting = "random"                        # random | most_wounded | least_engaged
//! max_attackers_per_target = 6
//!
//! [[sides]]
//! name = "party"
//! [[sides.groups]]
//! name = "Cardiff"
//! strike_rating = 9
//! defense_rating = 7
//! skill = "Great"
//! weapon = "Sword, Two-Handed"
//! ```

mod builtin;
mod error;
mod field_path;
mod load;
mod validate;

pub use builtin::BUILTIN;
pub use error::{ScenarioError, ScenarioErrorKind};
pub use validate::{FIGHTER_STATE_BYTES, MAX_FIGHTERS};

/// A group of identical fighters: the core's [`FighterProfile`], the same
/// type a tracker's combatant is made from.
pub type Group = FighterProfile;
pub use skirmish_core::fighter::{CustomWeapon, FighterProfile, FudgeRules, FullContactRules, Striking, WeaponChoice};

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize};
use skirmish_core::damage::DamageConfig;
use skirmish_core::timing::TimingSystem;

/// A battle to run: the rules and the sides.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// Its name.
    pub name: String,
    /// What it is about.
    #[serde(default)]
    pub description: String,
    /// The timing system (a name, or a table with its options).
    #[serde(default = "default_timing", deserialize_with = "name_or_table")]
    pub timing: TimingSystem,
    /// The striking system (a name, or a table with its options).
    #[serde(default, deserialize_with = "name_or_table")]
    pub striking: Striking,
    /// The damage model (a name, or a table with its options).
    #[serde(default, deserialize_with = "damage_name_or_table")]
    pub damage: DamageConfig,
    /// How the battle is fought and when it stops.
    #[serde(default)]
    pub battle: BattleRules,
    /// Two or more sides.
    pub sides: Vec<Side>,
}

fn default_timing() -> TimingSystem {
    TimingSystem::continuous()
}

/// How fighters pick whom to attack.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Targeting {
    /// A uniformly random living enemy (alive at the start of the tick).
    #[default]
    Random,
    /// The most wounded living enemy (ties: the lowest index).
    MostWounded,
    /// The living enemy with the fewest attackers engaged (ties: lowest index).
    LeastEngaged,
}

/// How the battle is fought and when it stops.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct BattleRules {
    /// Whom attackers pick.
    pub targeting: Targeting,
    /// Reach: at most this many attackers engage one target (FUDGE 4.34:
    /// six under ideal conditions). FUDGE opposed striking only: under Full
    /// Contact any number may strike one target.
    pub max_attackers_per_target: u32,
    /// Stop as a timeout after this many ticks.
    pub max_ticks: u64,
    /// Stop as a timeout after this many rounds (phases, exchanges; under
    /// Continuous, stopwatch laps).
    pub max_rounds: u32,
    /// Stop as a timeout after at most this many actions: a moment whose
    /// actions would pass it is not fought.
    pub max_actions: u64,
}

impl Default for BattleRules {
    fn default() -> Self {
        BattleRules {
            targeting: Targeting::Random,
            max_attackers_per_target: 6,
            max_ticks: 1_000_000,
            max_rounds: 100_000,
            max_actions: 1_000_000_000,
        }
    }
}

/// One side of the battle.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Side {
    /// Its name (unique).
    pub name: String,
    /// Its groups of identical fighters.
    pub groups: Vec<Group>,
}

/// Reads a value written either as a name (`"continuous"`) or as a table
/// with its options, keeping serde's error paths.
pub(crate) fn name_or_table<'de, D, T>(d: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de> + FromStr,
    T::Err: fmt::Display,
{
    struct V<T>(std::marker::PhantomData<T>);
    impl<'de, T> serde::de::Visitor<'de> for V<T>
    where
        T: Deserialize<'de> + FromStr,
        T::Err: fmt::Display,
    {
        type Value = T;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a name or a table")
        }
        fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<T, E> {
            s.parse().map_err(E::custom)
        }
        fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
            T::deserialize(serde::de::value::MapAccessDeserializer::new(map))
        }
    }
    d.deserialize_any(V(std::marker::PhantomData))
}

/// [`DamageConfig`] by name or table.
#[derive(Deserialize)]
#[serde(transparent)]
struct DamageByName(DamageConfig);

impl FromStr for DamageByName {
    type Err = skirmish_core::Error;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        DamageConfig::by_name(s).map(DamageByName)
    }
}

fn damage_name_or_table<'de, D: Deserializer<'de>>(d: D) -> Result<DamageConfig, D::Error> {
    name_or_table::<D, DamageByName>(d).map(|x| x.0)
}
