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

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize};
use skirmish_core::damage::DamageConfig;
use skirmish_core::ladder::{CombatLevel, Level};
use skirmish_core::tables::weapons::RateOfFire;
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

/// The striking system and its options.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "system", rename_all = "snake_case", deny_unknown_fields)]
pub enum Striking {
    /// Full Contact: SR + 4dF against DR.
    FullContact(FullContactRules),
    /// FUDGE opposed rolls: skill + 4dF against the defender's skill + 4dF.
    FudgeOpposed(FudgeRules),
}

impl Default for Striking {
    fn default() -> Self {
        Striking::FullContact(FullContactRules::default())
    }
}

impl Striking {
    /// The names [`FromStr`] accepts.
    pub const NAMES: [&'static str; 2] = ["full-contact", "fudge-opposed"];

    /// Its name.
    pub fn name(&self) -> &'static str {
        match self {
            Striking::FullContact(_) => "full-contact",
            Striking::FudgeOpposed(_) => "fudge-opposed",
        }
    }
}

impl FromStr for Striking {
    type Err = skirmish_core::Error;
    fn from_str(s: &str) -> Result<Striking, Self::Err> {
        let key: String = s
            .chars()
            .filter(|c| c.is_alphanumeric())
            .collect::<String>()
            .to_lowercase();
        match key.as_str() {
            "fullcontact" | "fc" => Ok(Striking::FullContact(FullContactRules::default())),
            "fudgeopposed" | "fudge" | "opposed" => Ok(Striking::FudgeOpposed(FudgeRules::default())),
            _ => Err(skirmish_core::Error::unknown_name(
                "striking system",
                s,
                Striking::NAMES,
            )),
        }
    }
}

impl fmt::Display for Striking {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Options of Full Contact striking in a battle.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FullContactRules {
    /// Guaranteed success (+4 hits) and fumble (-4 misses).
    pub guaranteed: bool,
    /// Amazing strikes and defenses (counted in the report).
    pub amazing: bool,
    /// Extra damage an amazing strike does (0: none; the text suggests
    /// doubling as one common choice, which a GM sets as the margin again).
    pub amazing_strike_damage: i32,
}

/// Options of FUDGE opposed striking in a battle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FudgeRules {
    /// The minimum rolled result to hit (Poor against an equal-sized foe).
    pub minimum_to_hit: Level,
    /// The lone fighter's -1 per attacker beyond the first (FUDGE 4.34).
    pub multi_foe_penalty: bool,
    /// The GM's one 2dF for each side's fighters at a moment, instead of
    /// each fighter's 4dF (FUDGE 4.34); a fighter alone on its side still
    /// rolls its own 4dF.
    pub group_roll: bool,
}

impl Default for FudgeRules {
    fn default() -> Self {
        FudgeRules {
            minimum_to_hit: Level::POOR,
            multi_foe_penalty: true,
            group_roll: false,
        }
    }
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

/// A weapon: a row of the weapon tables by name, or custom numbers.
///
/// In a file: `weapon = "Dagger"` or `weapon = { time_taken = 0, name =
/// "Spark" }`. (Read by hand rather than as an untagged enum, so a wrong
/// key inside the table is reported as such.)
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum WeaponChoice {
    /// A row of the tables, by name ("Dagger", "heavy crossbow").
    Named(String),
    /// Custom Time Taken and Rate of Fire.
    Custom(CustomWeapon),
}

impl<'de> Deserialize<'de> for WeaponChoice {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = WeaponChoice;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a weapon name from the tables or a table { time_taken, rate_of_fire, name }")
            }
            fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<WeaponChoice, E> {
                Ok(WeaponChoice::Named(s.to_owned()))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<WeaponChoice, A::Error> {
                CustomWeapon::deserialize(serde::de::value::MapAccessDeserializer::new(map)).map(WeaponChoice::Custom)
            }
        }
        d.deserialize_any(V)
    }
}

/// A weapon given by its numbers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CustomWeapon {
    /// A label.
    #[serde(default)]
    pub name: String,
    /// Time Taken.
    pub time_taken: i32,
    /// Rate of fire (default 1/1).
    #[serde(default = "one_per_round")]
    pub rate_of_fire: RateOfFire,
}

fn one_per_round() -> RateOfFire {
    RateOfFire::ONE
}

/// A group of identical fighters.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Group {
    /// Its name (unique within the side).
    pub name: String,
    /// How many (mass battles: thousands).
    #[serde(default = "one")]
    pub count: u64,
    /// Full Contact Strike Rating (default 5).
    #[serde(default = "five")]
    pub strike_rating: i32,
    /// Full Contact Defense Rating, without the armor named in `armor`
    /// (default 3).
    #[serde(default = "three")]
    pub defense_rating: i32,
    /// FUDGE combat skill, plus-levels allowed (default Fair).
    #[serde(default)]
    pub skill: CombatLevel,
    /// The weapon (default: TT 3, RoF 1/1, unnamed).
    #[serde(default)]
    pub weapon: Option<WeaponChoice>,
    /// Armor from the table: its DR bonus adds to the Defense Rating in
    /// Full Contact, and to the defensive damage factor under FUDGE striking.
    #[serde(default)]
    pub armor: Option<String>,
    /// Speed bonus (half-values of the relevant traits).
    #[serde(default)]
    pub speed_bonus: i32,
    /// Extra attacks per round from gear (Simple and Graduated Rounds).
    #[serde(default)]
    pub extra_attacks: u32,
    /// Whether its actions are disruptible (spellcasters).
    #[serde(default)]
    pub disruptible: bool,
    /// Offensive damage factor (Strength, weapon deadliness, Scale).
    #[serde(default)]
    pub offense: i32,
    /// Defensive damage factor besides armor (Scale, Damage Capacity).
    #[serde(default)]
    pub toughness: i32,
    /// Hit points, overriding the damage model's `max_hp`.
    #[serde(default)]
    pub hit_points: Option<i32>,
    /// Tick System: initiative bonus.
    #[serde(default)]
    pub initiative_bonus: i32,
    /// Tick System: interval.
    #[serde(default)]
    pub interval: u32,
    /// FUZION REF.
    #[serde(default)]
    pub reflexes: i32,
    /// FUZION Combat Sense.
    #[serde(default)]
    pub combat_sense: i32,
}

fn one() -> u64 {
    1
}
fn five() -> i32 {
    5
}
fn three() -> i32 {
    3
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
