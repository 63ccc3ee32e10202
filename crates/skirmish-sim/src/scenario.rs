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
//! - Size: at most [`MAX_SIDES`] sides, [`MAX_GROUPS`] groups and
//!   [`MAX_FIGHTERS`] fighters in all, in a file of at most
//!   [`MAX_SCENARIO_BYTES`]. A list longer than its limit is refused while
//!   it is read, so no input makes loading run away.
//! - Warnings: [`Scenario::warnings`] names settings the chosen rules
//!   ignore (a Tick System interval under Continuous timing).
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
mod morale;
mod validate;
mod warnings;

pub use builtin::BUILTIN;
pub use error::{ScenarioError, ScenarioErrorKind};
pub use load::MAX_SCENARIO_BYTES;
pub use morale::{BreakOutcome, MAX_MORALE_SIDES, Morale};
pub use validate::{BATTLE_MEMORY_BUDGET, FIGHTER_STATE_BYTES, MAX_FIGHTERS, MAX_GROUPS, MAX_SIDES};

/// A group of identical fighters: the core's [`FighterProfile`], the same
/// type a tracker's combatant is made from.
pub type Group = FighterProfile;
pub use skirmish_core::fighter::{
    CustomWeapon, ExchangeRule, FighterProfile, FudgeRules, FullContactRules, Striking, WeaponChoice,
};

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
    /// How far apart the two sides start, in feet (docs/rules.md §5.1):
    /// side 0 stands at 0, side 1 this far off, and fighters move, shoot
    /// at range and strike within reach. None (the default): everyone is
    /// in melee from the start, as before distance was modelled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub distance: Option<i64>,
    /// Two or more sides, at most [`MAX_SIDES`].
    #[serde(deserialize_with = "bounded_sides")]
    pub sides: Vec<Side>,
}

/// One top-level field or one group of a [`Scenario`], read as the
/// scenario reads it: [`Scenario::with_field_value`] reads again only the
/// part of the scenario a path changes.
#[derive(Deserialize)]
#[serde(transparent)]
pub(crate) struct TimingPart(#[serde(deserialize_with = "name_or_table")] pub(crate) TimingSystem);

/// See [`TimingPart`].
#[derive(Deserialize)]
#[serde(transparent)]
pub(crate) struct StrikingPart(#[serde(deserialize_with = "name_or_table")] pub(crate) Striking);

/// See [`TimingPart`].
#[derive(Deserialize)]
#[serde(transparent)]
pub(crate) struct DamagePart(#[serde(deserialize_with = "damage_name_or_table")] pub(crate) DamageConfig);

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
    /// Attacks from the rear (ours, docs/rules.md §5.2): an attacker who
    /// engages a foe already engaged by this many attackers strikes it
    /// from the rear, at its unaware Defense Rating (Full Contact) or
    /// unopposed (FUDGE). None (the default): no blow is from the rear.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub front: Option<u32>,
}

impl Default for BattleRules {
    fn default() -> Self {
        BattleRules {
            targeting: Targeting::Random,
            max_attackers_per_target: 6,
            max_ticks: 1_000_000,
            max_rounds: 100_000,
            max_actions: 1_000_000_000,
            front: None,
        }
    }
}

/// One side of the battle.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Side {
    /// Its name (unique).
    pub name: String,
    /// Its groups of identical fighters (at most [`MAX_GROUPS`] over all
    /// sides).
    #[serde(deserialize_with = "bounded_groups")]
    pub groups: Vec<Group>,
    /// When the side breaks off the battle, and how (absent: it fights to
    /// the last). On the first [`MAX_MORALE_SIDES`] sides only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub morale: Option<Morale>,
}

/// Reads a value written either as a name (`"continuous"`) or as a table
/// with its options, keeping serde's error paths.
pub(crate) fn name_or_table<'de, D, T>(d: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: Choice,
    T::Err: fmt::Display,
{
    struct V<T>(std::marker::PhantomData<T>);
    impl<'de, T> serde::de::Visitor<'de> for V<T>
    where
        T: Choice,
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
            // Read the table whole, then the choice from it: serde reads a
            // tagged table through a buffer that forgets where inside it an
            // error is, so on an error the options are read again on their
            // own to find it.
            let table = serde_json::Value::deserialize(serde::de::value::MapAccessDeserializer::new(ChoiceNames {
                inner: map,
                at_choice: false,
            }))?;
            T::deserialize(&table).map_err(|e| {
                let message = e.to_string();
                let inner = locate_in_choice::<T>(table).unwrap_or_else(|| {
                    // A name that is no choice is the tag's fault.
                    if message.starts_with("unknown variant") {
                        T::TAG
                    } else {
                        ""
                    }
                    .to_owned()
                });
                serde::de::Error::custom(error::nested_error(&inner, &message))
            })
        }
    }
    d.deserialize_any(V(std::marker::PhantomData))
}

/// A choice of rules written by name or as a table tagged with its name
/// (`system` or `model`) and its options.
pub(crate) trait Choice: serde::de::DeserializeOwned + FromStr {
    /// The key that names the choice in its table.
    const TAG: &'static str;

    /// Where, inside the `options` of the choice `name`, reading them
    /// fails: a path such as `boxes.hurt`, or `None` if they read well.
    fn locate(name: &str, options: serde_json::Value) -> Option<String>;
}

/// Where reading `options` as a `C` fails, as a path.
fn locate_as<C: serde::de::DeserializeOwned>(options: serde_json::Value) -> Option<String> {
    serde_path_to_error::deserialize::<_, C>(options)
        .err()
        .map(|e| load::path_text(e.path()))
}

/// Where inside a choice's `table` reading it fails (see [`Choice::locate`]).
fn locate_in_choice<T: Choice>(mut table: serde_json::Value) -> Option<String> {
    let options = table.as_object_mut()?;
    let name = options.remove(T::TAG)?;
    T::locate(name.as_str()?, table)
}

impl Choice for TimingSystem {
    const TAG: &'static str = "system";
    fn locate(name: &str, options: serde_json::Value) -> Option<String> {
        use skirmish_core::timing::{ActionBlocksConfig, ContinuousConfig, GraduatedConfig, TickSystemConfig};
        match name {
            "graduated_rounds" => locate_as::<GraduatedConfig>(options),
            "continuous" => locate_as::<ContinuousConfig>(options),
            "tick_system" => locate_as::<TickSystemConfig>(options),
            "action_blocks" => locate_as::<ActionBlocksConfig>(options),
            _ => None,
        }
    }
}

impl Choice for Striking {
    const TAG: &'static str = "system";
    fn locate(name: &str, options: serde_json::Value) -> Option<String> {
        match name {
            "full_contact" => locate_as::<FullContactRules>(options),
            "fudge_opposed" => locate_as::<FudgeRules>(options),
            _ => None,
        }
    }
}

impl Choice for DamageByName {
    const TAG: &'static str = "model";
    fn locate(name: &str, options: serde_json::Value) -> Option<String> {
        use skirmish_core::damage::{FudgeWoundsConfig, HitPointsConfig};
        match name {
            "fudge_wounds" => locate_as::<FudgeWoundsConfig>(options),
            "hit_points" => locate_as::<HitPointsConfig>(options),
            _ => None,
        }
    }
}

/// A table's entries as read, except that the choice it names (the value
/// of `system` or `model`) may be spelled as the command line spells it,
/// `tick-system` for `tick_system`. Keys are read as text (as in every TOML
/// or JSON table); other values pass through untouched, with their paths.
struct ChoiceNames<A> {
    inner: A,
    /// Whether the key just read was `system` or `model`.
    at_choice: bool,
}

impl<'de, A: serde::de::MapAccess<'de>> serde::de::MapAccess<'de> for ChoiceNames<A> {
    type Error = A::Error;

    fn next_key_seed<K: serde::de::DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, A::Error> {
        use serde::de::IntoDeserializer as _;
        let Some(key) = self.inner.next_key::<String>()? else {
            return Ok(None);
        };
        self.at_choice = key == "system" || key == "model";
        seed.deserialize(key.into_deserializer()).map(Some)
    }

    fn next_value_seed<V: serde::de::DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, A::Error> {
        use serde::de::IntoDeserializer as _;
        if !self.at_choice {
            return self.inner.next_value_seed(seed);
        }
        let name: String = self.inner.next_value()?;
        seed.deserialize(name.trim().replace('-', "_").into_deserializer())
    }

    fn size_hint(&self) -> Option<usize> {
        self.inner.size_hint()
    }
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

/// How far a list may grow while it is read.
struct ListLimit<T> {
    /// Most elements.
    limit: usize,
    /// The message for `n` elements, over the limit.
    refuse: fn(usize) -> String,
    /// What an element weighs (a side: its groups), and the most all may
    /// weigh together, with the message for a total weight over it.
    weigh: Option<Weigh<T>>,
}

/// What a list's element weighs, the most all may weigh, and the message
/// for a total over it.
type Weigh<T> = (fn(&T) -> usize, usize, fn(usize) -> String);

impl<'de, T: Deserialize<'de>> serde::de::Visitor<'de> for ListLimit<T> {
    type Value = Vec<T>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a list")
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<T>, A::Error> {
        let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(self.limit));
        let mut weight = 0usize;
        while out.len() < self.limit {
            match seq.next_element()? {
                Some(item) => {
                    if let Some((weigh, most, refuse)) = self.weigh {
                        weight = weight.saturating_add(weigh(&item));
                        if weight > most {
                            return Err(serde::de::Error::custom(refuse(weight)));
                        }
                    }
                    out.push(item);
                }
                None => return Ok(out),
            }
        }
        let mut count = out.len();
        while seq.next_element::<serde::de::IgnoredAny>()?.is_some() {
            count += 1;
        }
        if count > self.limit {
            return Err(serde::de::Error::custom((self.refuse)(count)));
        }
        Ok(out)
    }
}

/// A list read up to `limit` elements: past it, the rest is only counted
/// (nothing is kept), and the error says how many there were. This keeps
/// a hostile file from building millions of sides or groups in memory
/// before validation refuses them; a list whose elements together weigh
/// too much (sides holding too many groups) stops at the element that
/// passes the limit.
fn bounded_list<'de, D, T>(d: D, limits: ListLimit<T>) -> Result<Vec<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    d.deserialize_seq(limits)
}

fn bounded_sides<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Side>, D::Error> {
    bounded_list(
        d,
        ListLimit {
            limit: MAX_SIDES,
            refuse: |n| validate::too_many_sides(n).message,
            weigh: Some((
                |side: &Side| side.groups.len(),
                MAX_GROUPS,
                |n| {
                    format!(
                        "{n} groups in the sides so far; a scenario takes at most {MAX_GROUPS} groups over all \
                         sides (a group holds any number of identical fighters: raise its count instead)"
                    )
                },
            )),
        },
    )
}

fn bounded_groups<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Group>, D::Error> {
    bounded_list(
        d,
        ListLimit {
            limit: MAX_GROUPS,
            refuse: |n| {
                format!(
                    "{n} groups in one side; a scenario takes at most {MAX_GROUPS} groups over all sides \
                     (a group holds any number of identical fighters: raise its count instead)"
                )
            },
            weigh: None,
        },
    )
}
