//! Damage: what a hit does to the one it hits (RULES.md §3).
//!
//! The seeds leave damage to the game; this module makes it a pluggable part
//! of a battle, next to timing and striking. Two models ship:
//!
//! - [`FudgeWounds`], the documented default: FUDGE's wound levels on a
//!   track of boxes (Scratch, Hurt, Very Hurt, Incapacitated, Near Death,
//!   then Dead).
//! - [`HitPoints`]: a plain pool of hit points, with a table from hit margin
//!   to damage.
//!
//! Both implement [`DamageModel`]: a model holds the (validated) rules, and a
//! small `Copy` state per combatant ([`WoundTrack`], [`HitPointState`]) holds
//! what that combatant has taken, so a simulator keeps plain arrays of states
//! and applies hits without allocating. [`Damage`] chooses between the two at
//! run time (scenario files and bindings name the model; see [`DamageConfig`]).
//!
//! # How much damage a hit does
//!
//! FUDGE 4.1 names the *offensive damage factors* (Strength for a
//! Strength-driven weapon, Scale, deadliness of the weapon) and the
//! *defensive damage factors* (Scale, armor, possibly Damage Capacity); the
//! total damage factor is the first minus the second. The damage of a hit is
//! its margin (the FUDGE relative degree, or Full Contact's `SR + roll - DR`)
//! plus the total damage factor: [`DamageFactors::damage`]. A model then turns
//! that number into a wound or lost hit points. Damage of 0 or less does
//! nothing in either model (the armor took it).
//!
//! # The wound penalty
//!
//! FUDGE 4.31: "A fighter who is Hurt is at -1, while one who is Very Hurt is
//! at -2." [`DamageModel::wound_penalty`] gives that number; the striking code
//! adds it to the fighter's rolls.
//!
//! ```
//! use skirmish_core::damage::{DamageFactors, DamageModel, FudgeWounds, Status, WoundLevel};
//!
//! let model = FudgeWounds::default();
//! let mut track = model.fresh();
//! // A Good-Strength fighter (+1) with a deadly sword (+2) wins by 2 against
//! // a foe in light armor (+1): 2 + 3 - 1 = 4, a Hurt.
//! let factors = DamageFactors::new(1, 2, 0).against(1, 0, 0);
//! let hit = factors.damage(2).unwrap();
//! assert_eq!(hit.damage, 4);
//! assert_eq!(hit.to_string(), "damage 4 = margin 2 + offense 3 (Strength 1, weapon 2) - defense 1 (armor 1)");
//! let outcome = model.apply(&mut track, hit.damage);
//! assert_eq!(outcome.change.marked, Some(WoundLevel::Hurt));
//! assert_eq!(model.wound_penalty(&track), -1);
//! assert_eq!(outcome.after, Status::Standing);
//! ```

use std::fmt;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

// ---------------------------------------------------------------------------
// Damage factors
// ---------------------------------------------------------------------------

/// The attacker's offensive damage factors (FUDGE 4.1), in ladder steps.
///
/// Each field is a plain number: a Good Strength is `+1`, a weapon's
/// deadliness as the game rates it, the attacker's Scale.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct OffensiveFactors {
    /// Strength, if the weapon is Strength-driven (Good = +1).
    pub strength: i32,
    /// Deadliness of the weapon.
    pub weapon: i32,
    /// The attacker's Scale.
    pub scale: i32,
    /// Anything else the situation adds: all-out offense (+1), the foe's
    /// failed all-out attack (+2), a sweeping blow (-1 per extra foe), ...
    pub situational: i32,
}

impl OffensiveFactors {
    /// The offensive damage factor: the sum of the fields, checked.
    pub fn total(&self) -> Result<i32> {
        checked_sum(
            "damage.offense",
            &[
                ("strength", self.strength),
                ("weapon", self.weapon),
                ("scale", self.scale),
                ("situational", self.situational),
            ],
        )
    }
}

/// The defender's defensive damage factors (FUDGE 4.1), in ladder steps.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DefensiveFactors {
    /// Armor.
    pub armor: i32,
    /// The defender's Scale.
    pub scale: i32,
    /// Damage Capacity (a toughness trait; Good = +1).
    pub damage_capacity: i32,
}

impl DefensiveFactors {
    /// The defensive damage factor: the sum of the fields, checked.
    pub fn total(&self) -> Result<i32> {
        checked_sum(
            "damage.defense",
            &[
                ("armor", self.armor),
                ("scale", self.scale),
                ("damage_capacity", self.damage_capacity),
            ],
        )
    }
}

/// Both sides' damage factors for one attacker against one defender.
///
/// ```
/// use skirmish_core::damage::DamageFactors;
/// // Strength +1, weapon +2, same Scale; armor +2.
/// let f = DamageFactors::new(1, 2, 0).against(2, 0, 0);
/// assert_eq!(f.total().unwrap(), 1);
/// assert_eq!(f.damage(3).unwrap().damage, 4);
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DamageFactors {
    /// The attacker's offensive factors.
    pub offense: OffensiveFactors,
    /// The defender's defensive factors.
    pub defense: DefensiveFactors,
}

impl DamageFactors {
    /// Offensive factors `strength`, `weapon` and `scale`, no defense yet.
    pub const fn new(strength: i32, weapon: i32, scale: i32) -> DamageFactors {
        DamageFactors {
            offense: OffensiveFactors {
                strength,
                weapon,
                scale,
                situational: 0,
            },
            defense: DefensiveFactors {
                armor: 0,
                scale: 0,
                damage_capacity: 0,
            },
        }
    }

    /// The same offense against a defender with `armor`, `scale` and
    /// `damage_capacity`.
    pub const fn against(self, armor: i32, scale: i32, damage_capacity: i32) -> DamageFactors {
        DamageFactors {
            offense: self.offense,
            defense: DefensiveFactors {
                armor,
                scale,
                damage_capacity,
            },
        }
    }

    /// The total damage factor: offensive minus defensive (FUDGE 4.1).
    pub fn total(&self) -> Result<i32> {
        let offense = self.offense.total()?;
        let defense = self.defense.total()?;
        offense
            .checked_sub(defense)
            .ok_or_else(|| Error::overflow("damage.factor", format!("offense {offense} - defense {defense}")))
    }

    /// The damage of a hit won by `margin` (relative degree, or
    /// `SR + roll - DR`), with the sum spelled out.
    ///
    /// A margin of 0 or less is taken as given (a guaranteed success can
    /// hit without beating the defense); the models ignore damage <= 0.
    pub fn damage(&self, margin: i32) -> Result<DamageBreakdown> {
        let offensive = self.offense.total()?;
        let defensive = self.defense.total()?;
        let damage = margin
            .checked_add(offensive)
            .and_then(|d| d.checked_sub(defensive))
            .ok_or_else(|| {
                Error::overflow(
                    "damage",
                    format!("margin {margin} + offense {offensive} - defense {defensive}"),
                )
            })?;
        Ok(DamageBreakdown {
            margin,
            factors: *self,
            offensive,
            defensive,
            damage,
        })
    }
}

/// Adds named terms with overflow checks; the error names the terms.
fn checked_sum(field: &str, terms: &[(&str, i32)]) -> Result<i32> {
    let mut sum: i32 = 0;
    for &(_, value) in terms {
        sum = sum.checked_add(value).ok_or_else(|| {
            let parts: Vec<String> = terms.iter().map(|(name, v)| format!("{name} {v}")).collect();
            Error::overflow(field, parts.join(" + "))
        })?;
    }
    Ok(sum)
}

/// The damage of one hit and how it was reached; displays as
/// `damage 4 = margin 2 + offense 3 (Strength 1, weapon 2) - defense 1 (armor 1)`
/// (zero terms left out).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct DamageBreakdown {
    /// The margin of the hit.
    pub margin: i32,
    /// The factors used.
    pub factors: DamageFactors,
    /// The offensive damage factor (sum of `factors.offense`).
    pub offensive: i32,
    /// The defensive damage factor (sum of `factors.defense`).
    pub defensive: i32,
    /// `margin + offensive - defensive`: what the damage model receives.
    pub damage: i32,
}

impl fmt::Display for DamageBreakdown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fn parts(f: &mut fmt::Formatter<'_>, terms: &[(&str, i32)]) -> fmt::Result {
            let mut first = true;
            for &(name, value) in terms.iter().filter(|(_, v)| *v != 0) {
                f.write_str(if first { " (" } else { ", " })?;
                write!(f, "{name} {value}")?;
                first = false;
            }
            if !first {
                f.write_str(")")?;
            }
            Ok(())
        }
        let (o, d) = (&self.factors.offense, &self.factors.defense);
        write!(f, "damage {} = margin {}", self.damage, self.margin)?;
        if self.offensive != 0 || *o != OffensiveFactors::default() {
            write!(f, " + offense {}", self.offensive)?;
            parts(
                f,
                &[
                    ("Strength", o.strength),
                    ("weapon", o.weapon),
                    ("Scale", o.scale),
                    ("situational", o.situational),
                ],
            )?;
        }
        if self.defensive != 0 || *d != DefensiveFactors::default() {
            write!(f, " - defense {}", self.defensive)?;
            parts(
                f,
                &[
                    ("armor", d.armor),
                    ("Scale", d.scale),
                    ("Damage Capacity", d.damage_capacity),
                ],
            )?;
        }
        Ok(())
    }
}

// ---------------------------------------------------------------------------
// The pluggable part
// ---------------------------------------------------------------------------

/// Whether a combatant is still in the fight.
///
/// Ordered: `Standing < Down < Dead`; a combatant never moves back down the
/// order by taking damage.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Able to fight (perhaps at a wound penalty).
    Standing,
    /// Out of the fight, not dead (Incapacitated, Near Death, hp <= 0).
    Down,
    /// Dead (also out of the fight).
    Dead,
}

impl Status {
    /// Out of the fight: down or dead.
    #[inline]
    pub const fn is_down(self) -> bool {
        !matches!(self, Status::Standing)
    }

    /// Dead.
    #[inline]
    pub const fn is_dead(self) -> bool {
        matches!(self, Status::Dead)
    }
}

/// What one hit did: the model's own detail, plus what every model reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct HitOutcome<C> {
    /// What the model changed ([`WoundChange`], [`HitPointChange`], ...).
    pub change: C,
    /// Status before the hit.
    pub before: Status,
    /// Status after the hit.
    pub after: Status,
    /// The wound penalty after the hit (0, -1 Hurt, -2 Very Hurt).
    pub penalty: i32,
}

impl<C> HitOutcome<C> {
    /// This hit took the combatant out of the fight.
    #[inline]
    pub fn newly_down(&self) -> bool {
        !self.before.is_down() && self.after.is_down()
    }

    /// This hit killed the combatant.
    #[inline]
    pub fn newly_dead(&self) -> bool {
        !self.before.is_dead() && self.after.is_dead()
    }
}

/// A damage model: turns the damage of a hit into its effect on a combatant.
///
/// The model holds the rules (validated when it is built); each combatant
/// has a small `Copy` [`State`](DamageModel::State), made by
/// [`fresh`](DamageModel::fresh). Applying a hit never allocates and never
/// panics, whatever the damage.
pub trait DamageModel {
    /// What one combatant has taken (plain data, serializable for snapshots).
    type State: Copy + fmt::Debug + PartialEq + Serialize + DeserializeOwned + Send + Sync + 'static;
    /// The model's report of what one hit changed.
    type Change: Copy + fmt::Debug + PartialEq;

    /// The state of a combatant who has taken no damage.
    fn fresh(&self) -> Self::State;

    /// Applies a hit of `damage` (margin plus damage factor, see
    /// [`DamageFactors::damage`]); damage <= 0 changes nothing.
    fn apply(&self, state: &mut Self::State, damage: i32) -> HitOutcome<Self::Change>;

    /// The wound penalty the striking code adds to this combatant's rolls:
    /// 0, or negative (FUDGE 4.31: Hurt -1, Very Hurt -2).
    fn wound_penalty(&self, state: &Self::State) -> i32;

    /// Standing, down or dead.
    fn status(&self, state: &Self::State) -> Status;

    /// Out of the fight (down or dead).
    #[inline]
    fn is_down(&self, state: &Self::State) -> bool {
        self.status(state).is_down()
    }

    /// Dead.
    #[inline]
    fn is_dead(&self, state: &Self::State) -> bool {
        self.status(state).is_dead()
    }

    /// Checks that `state` could have come from this model (a restored
    /// snapshot, say): a state that does not fit is refused with the field.
    fn validate_state(&self, state: &Self::State) -> Result<()>;
}

// ---------------------------------------------------------------------------
// FUDGE wound levels
// ---------------------------------------------------------------------------

/// A FUDGE wound level, least severe first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WoundLevel {
    /// Default damage 1-2; no penalty.
    Scratch,
    /// Default damage 3-4; -1.
    Hurt,
    /// Default damage 5-6; -2.
    VeryHurt,
    /// Default damage 7-8; down.
    Incapacitated,
    /// Default damage 9+; down.
    NearDeath,
    /// A wound past Near Death; dead.
    Dead,
}

/// Number of levels that have boxes (all but Dead).
const BOXED: usize = 5;

impl WoundLevel {
    /// The levels that have boxes on the track, least severe first.
    pub const WITH_BOXES: [WoundLevel; BOXED] = [
        WoundLevel::Scratch,
        WoundLevel::Hurt,
        WoundLevel::VeryHurt,
        WoundLevel::Incapacitated,
        WoundLevel::NearDeath,
    ];

    /// The name as FUDGE writes it: `"Very Hurt"`.
    pub const fn name(self) -> &'static str {
        match self {
            WoundLevel::Scratch => "Scratch",
            WoundLevel::Hurt => "Hurt",
            WoundLevel::VeryHurt => "Very Hurt",
            WoundLevel::Incapacitated => "Incapacitated",
            WoundLevel::NearDeath => "Near Death",
            WoundLevel::Dead => "Dead",
        }
    }

    /// The penalty for holding this wound: Scratch 0, Hurt -1, Very Hurt
    /// and worse -2 (worse than Very Hurt is out of the fight anyway).
    #[inline]
    pub const fn penalty(self) -> i32 {
        match self {
            WoundLevel::Scratch => 0,
            WoundLevel::Hurt => -1,
            _ => -2,
        }
    }

    /// The status of a combatant whose worst wound is this one.
    #[inline]
    pub const fn status(self) -> Status {
        match self {
            WoundLevel::Scratch | WoundLevel::Hurt | WoundLevel::VeryHurt => Status::Standing,
            WoundLevel::Incapacitated | WoundLevel::NearDeath => Status::Down,
            WoundLevel::Dead => Status::Dead,
        }
    }

    /// Position on the track (Scratch 0 ... Near Death 4, Dead 5).
    #[inline]
    const fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for WoundLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The least damage for each wound level (FUDGE's wound chart; RULES.md §3).
///
/// Damage below `scratch` does nothing. Must be strictly increasing;
/// `scratch` at least 1. Missing fields in a file take the defaults.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct WoundThresholds {
    /// Least damage for a Scratch (default 1).
    pub scratch: i32,
    /// Least damage for Hurt (default 3).
    pub hurt: i32,
    /// Least damage for Very Hurt (default 5).
    pub very_hurt: i32,
    /// Least damage for Incapacitated (default 7).
    pub incapacitated: i32,
    /// Least damage for Near Death (default 9).
    pub near_death: i32,
    /// Least damage that kills outright; default none (only a wound past a
    /// full Near Death box kills).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dead: Option<i32>,
}

impl Default for WoundThresholds {
    fn default() -> Self {
        WoundThresholds {
            scratch: 1,
            hurt: 3,
            very_hurt: 5,
            incapacitated: 7,
            near_death: 9,
            dead: None,
        }
    }
}

/// Boxes per wound level on the track; each 1..=255. Missing fields in a
/// file take the defaults (3 Scratch, 1 each above).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct WoundBoxes {
    /// Scratch boxes (default 3).
    pub scratch: u32,
    /// Hurt boxes (default 1).
    pub hurt: u32,
    /// Very Hurt boxes (default 1).
    pub very_hurt: u32,
    /// Incapacitated boxes (default 1).
    pub incapacitated: u32,
    /// Near Death boxes (default 1).
    pub near_death: u32,
}

impl Default for WoundBoxes {
    fn default() -> Self {
        WoundBoxes {
            scratch: 3,
            hurt: 1,
            very_hurt: 1,
            incapacitated: 1,
            near_death: 1,
        }
    }
}

/// Most boxes one wound level may have (the state keeps a byte per level).
pub const MAX_BOXES: u32 = u8::MAX as u32;

/// The settings of [`FudgeWounds`], as a scenario file writes them.
///
/// ```
/// use skirmish_core::damage::{FudgeWounds, FudgeWoundsConfig};
/// let config: FudgeWoundsConfig = toml::from_str("boxes = { scratch = 4 }").unwrap();
/// assert_eq!(config.boxes.scratch, 4);
/// assert_eq!(config.boxes.hurt, 1);
/// assert!(FudgeWounds::new(config).is_ok());
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FudgeWoundsConfig {
    /// Least damage for each level.
    pub thresholds: WoundThresholds,
    /// Boxes per level.
    pub boxes: WoundBoxes,
}

impl FudgeWoundsConfig {
    /// Checks the settings; the error names the field.
    pub fn validate(&self) -> Result<()> {
        let t = &self.thresholds;
        if t.scratch < 1 {
            return Err(Error::out_of_range("thresholds.scratch", t.scratch, 1, i32::MAX));
        }
        let mut ordered = vec![
            ("scratch", t.scratch),
            ("hurt", t.hurt),
            ("very_hurt", t.very_hurt),
            ("incapacitated", t.incapacitated),
            ("near_death", t.near_death),
        ];
        if let Some(dead) = t.dead {
            ordered.push(("dead", dead));
        }
        for pair in ordered.windows(2) {
            let [(lower_name, lower), (name, value)] = [pair[0], pair[1]];
            if value <= lower {
                return Err(Error::invalid(
                    format!("thresholds.{name}"),
                    format!("must be greater than thresholds.{lower_name} ({lower}), is {value}"),
                ));
            }
        }
        let b = &self.boxes;
        for (name, count) in [
            ("scratch", b.scratch),
            ("hurt", b.hurt),
            ("very_hurt", b.very_hurt),
            ("incapacitated", b.incapacitated),
            ("near_death", b.near_death),
        ] {
            if !(1..=MAX_BOXES).contains(&count) {
                return Err(Error::out_of_range(format!("boxes.{name}"), count, 1, MAX_BOXES));
            }
        }
        Ok(())
    }
}

/// One combatant's wound track: how many boxes of each level are filled,
/// and whether the combatant is dead. Six bytes, `Copy`.
///
/// Serializes with one field per level:
/// `{"scratch":2,"hurt":1,"very_hurt":0,"incapacitated":0,"near_death":0,"dead":false}`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(from = "WoundTrackRepr", into = "WoundTrackRepr")]
pub struct WoundTrack {
    filled: [u8; BOXED],
    dead: bool,
}

impl WoundTrack {
    /// A track with no wounds.
    pub const fn new() -> WoundTrack {
        WoundTrack {
            filled: [0; BOXED],
            dead: false,
        }
    }

    /// A track with `filled` boxes per level (Scratch first) and `dead`;
    /// check it against a model with [`DamageModel::validate_state`].
    pub const fn with_filled(filled: [u8; BOXED], dead: bool) -> WoundTrack {
        WoundTrack { filled, dead }
    }

    /// Filled boxes of `level` (Dead: 1 if dead, else 0).
    #[inline]
    pub const fn filled(&self, level: WoundLevel) -> u8 {
        match level {
            WoundLevel::Dead => self.dead as u8,
            _ => self.filled[level.index()],
        }
    }

    /// The worst wound held (Dead if dead), or `None` if unhurt.
    #[inline]
    pub fn worst(&self) -> Option<WoundLevel> {
        if self.dead {
            return Some(WoundLevel::Dead);
        }
        WoundLevel::WITH_BOXES
            .into_iter()
            .rev()
            .find(|level| self.filled[level.index()] > 0)
    }

    /// The penalty of the worst wound held (0 if unhurt).
    #[inline]
    pub fn penalty(&self) -> i32 {
        self.worst().map_or(0, WoundLevel::penalty)
    }

    /// Standing, down (Incapacitated or Near Death) or dead.
    #[inline]
    pub fn status(&self) -> Status {
        self.worst().map_or(Status::Standing, WoundLevel::status)
    }
}

/// [`WoundTrack`] as it is written: one field per level.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct WoundTrackRepr {
    #[serde(default)]
    scratch: u8,
    #[serde(default)]
    hurt: u8,
    #[serde(default)]
    very_hurt: u8,
    #[serde(default)]
    incapacitated: u8,
    #[serde(default)]
    near_death: u8,
    #[serde(default)]
    dead: bool,
}

impl From<WoundTrackRepr> for WoundTrack {
    fn from(r: WoundTrackRepr) -> Self {
        WoundTrack {
            filled: [r.scratch, r.hurt, r.very_hurt, r.incapacitated, r.near_death],
            dead: r.dead,
        }
    }
}

impl From<WoundTrack> for WoundTrackRepr {
    fn from(t: WoundTrack) -> Self {
        let [scratch, hurt, very_hurt, incapacitated, near_death] = t.filled;
        WoundTrackRepr {
            scratch,
            hurt,
            very_hurt,
            incapacitated,
            near_death,
            dead: t.dead,
        }
    }
}

/// What one hit did on a wound track.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct WoundChange {
    /// The damage of the hit.
    pub damage: i32,
    /// The level the damage calls for (`None`: too little to wound).
    pub called_for: Option<WoundLevel>,
    /// The box actually filled: `called_for` or, if its boxes were full, the
    /// next level up with a free box; `Dead` past Near Death. `None` if
    /// nothing changed (too little damage, or already dead).
    pub marked: Option<WoundLevel>,
    /// The worst wound held after the hit.
    pub worst: Option<WoundLevel>,
}

/// FUDGE wound levels on a track of boxes: the default damage model
/// (RULES.md §3).
///
/// Damage 1-2 is a Scratch, 3-4 Hurt (-1), 5-6 Very Hurt (-2), 7-8
/// Incapacitated, 9+ Near Death (thresholds configurable). A wound whose
/// level's boxes are all full moves up to the next level with a free box
/// (the 4th Scratch becomes a Hurt); past Near Death it is Dead.
/// Incapacitated and worse are down.
///
/// ```
/// use skirmish_core::damage::{DamageModel, FudgeWounds, Status, WoundLevel};
/// let model = FudgeWounds::default();
/// let mut t = model.fresh();
/// for _ in 0..3 {
///     model.apply(&mut t, 1);
/// }
/// let fourth = model.apply(&mut t, 2);
/// assert_eq!(fourth.change.called_for, Some(WoundLevel::Scratch));
/// assert_eq!(fourth.change.marked, Some(WoundLevel::Hurt));
/// assert_eq!(model.wound_penalty(&t), -1);
/// let big = model.apply(&mut t, 8);
/// assert_eq!(big.change.marked, Some(WoundLevel::Incapacitated));
/// assert!(big.newly_down());
/// assert_eq!(big.after, Status::Down);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "FudgeWoundsConfig", into = "FudgeWoundsConfig")]
pub struct FudgeWounds {
    config: FudgeWoundsConfig,
    /// Least damage per boxed level, Scratch first.
    least: [i32; BOXED],
    /// Least damage that kills outright.
    dead_at: Option<i32>,
    /// Boxes per level, Scratch first.
    boxes: [u8; BOXED],
}

impl Default for FudgeWounds {
    fn default() -> Self {
        FudgeWounds {
            config: FudgeWoundsConfig::default(),
            least: [1, 3, 5, 7, 9],
            dead_at: None,
            boxes: [3, 1, 1, 1, 1],
        }
    }
}

impl FudgeWounds {
    /// The model with these settings, if they are valid.
    pub fn new(config: FudgeWoundsConfig) -> Result<FudgeWounds> {
        config.validate()?;
        let t = &config.thresholds;
        let b = &config.boxes;
        let byte = |n: u32| u8::try_from(n).unwrap_or(u8::MAX); // validated above
        Ok(FudgeWounds {
            config,
            least: [t.scratch, t.hurt, t.very_hurt, t.incapacitated, t.near_death],
            dead_at: t.dead,
            boxes: [
                byte(b.scratch),
                byte(b.hurt),
                byte(b.very_hurt),
                byte(b.incapacitated),
                byte(b.near_death),
            ],
        })
    }

    /// The settings it was built from.
    pub fn config(&self) -> &FudgeWoundsConfig {
        &self.config
    }

    /// Boxes on the track for `level` (Dead: 1).
    pub fn boxes(&self, level: WoundLevel) -> u8 {
        match level {
            WoundLevel::Dead => 1,
            _ => self.boxes[level.index()],
        }
    }

    /// The wound level `damage` calls for, before any box moves it up;
    /// `None` if it is too little to wound.
    ///
    /// ```
    /// use skirmish_core::damage::{FudgeWounds, WoundLevel};
    /// let m = FudgeWounds::default();
    /// assert_eq!(m.level_for(0), None);
    /// assert_eq!(m.level_for(4), Some(WoundLevel::Hurt));
    /// assert_eq!(m.level_for(100), Some(WoundLevel::NearDeath));
    /// ```
    #[inline]
    pub fn level_for(&self, damage: i32) -> Option<WoundLevel> {
        if self.dead_at.is_some_and(|dead| damage >= dead) {
            return Some(WoundLevel::Dead);
        }
        let mut level = None;
        for (i, &least) in self.least.iter().enumerate() {
            if damage >= least {
                level = Some(WoundLevel::WITH_BOXES[i]);
            }
        }
        level
    }
}

impl TryFrom<FudgeWoundsConfig> for FudgeWounds {
    type Error = Error;
    fn try_from(config: FudgeWoundsConfig) -> Result<Self> {
        FudgeWounds::new(config)
    }
}

impl From<FudgeWounds> for FudgeWoundsConfig {
    fn from(model: FudgeWounds) -> Self {
        model.config
    }
}

impl DamageModel for FudgeWounds {
    type State = WoundTrack;
    type Change = WoundChange;

    #[inline]
    fn fresh(&self) -> WoundTrack {
        WoundTrack::new()
    }

    #[inline]
    fn apply(&self, state: &mut WoundTrack, damage: i32) -> HitOutcome<WoundChange> {
        let before = state.status();
        let called_for = self.level_for(damage);
        let mut marked = None;
        if let (Some(level), false) = (called_for, state.dead) {
            // Up from the level called for to the first one with a free box;
            // none free through Near Death (or a Dead wound) is death.
            let mut hit = WoundLevel::Dead;
            for i in level.index()..BOXED {
                if state.filled[i] < self.boxes[i] {
                    state.filled[i] += 1;
                    hit = WoundLevel::WITH_BOXES[i];
                    break;
                }
            }
            if hit == WoundLevel::Dead {
                state.dead = true;
            }
            marked = Some(hit);
        }
        let worst = state.worst();
        HitOutcome {
            change: WoundChange {
                damage,
                called_for,
                marked,
                worst,
            },
            before,
            after: worst.map_or(Status::Standing, WoundLevel::status),
            penalty: worst.map_or(0, WoundLevel::penalty),
        }
    }

    #[inline]
    fn wound_penalty(&self, state: &WoundTrack) -> i32 {
        state.penalty()
    }

    #[inline]
    fn status(&self, state: &WoundTrack) -> Status {
        state.status()
    }

    fn validate_state(&self, state: &WoundTrack) -> Result<()> {
        for level in WoundLevel::WITH_BOXES {
            let (filled, boxes) = (state.filled[level.index()], self.boxes[level.index()]);
            if filled > boxes {
                let name = match level {
                    WoundLevel::Scratch => "scratch",
                    WoundLevel::Hurt => "hurt",
                    WoundLevel::VeryHurt => "very_hurt",
                    WoundLevel::Incapacitated => "incapacitated",
                    _ => "near_death",
                };
                return Err(Error::out_of_range(format!("wounds.{name}"), filled, 0, boxes));
            }
        }
        Ok(())
    }
}

// ---------------------------------------------------------------------------
// Hit points
// ---------------------------------------------------------------------------

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
    hp: i32,
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
    config: HitPointsConfig,
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
    fn status(&self, state: &HitPointState) -> Status {
        if state.hp <= self.config.dead_at {
            Status::Dead
        } else if state.hp <= 0 {
            Status::Down
        } else {
            Status::Standing
        }
    }

    fn validate_state(&self, state: &HitPointState) -> Result<()> {
        if state.hp > self.config.max_hp {
            return Err(Error::out_of_range("hp", state.hp, i32::MIN, self.config.max_hp));
        }
        Ok(())
    }
}

// ---------------------------------------------------------------------------
// Choosing a model at run time
// ---------------------------------------------------------------------------

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
    fn status(&self, state: &DamageState) -> Status {
        match (self, state) {
            (Damage::FudgeWounds(m), DamageState::FudgeWounds(s)) => m.status(s),
            (Damage::HitPoints(m), DamageState::HitPoints(s)) => m.status(s),
            (_, DamageState::FudgeWounds(s)) => s.status(),
            (_, DamageState::HitPoints(s)) => {
                if s.hp <= 0 {
                    Status::Dead
                } else {
                    Status::Standing
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

#[cfg(test)]
mod tests {
    use super::*;

    fn fudge() -> FudgeWounds {
        FudgeWounds::default()
    }

    /// Applies `hits` to a fresh track and returns the marked levels.
    fn marks(model: &FudgeWounds, hits: &[i32]) -> (Vec<Option<WoundLevel>>, WoundTrack) {
        let mut t = model.fresh();
        let marked = hits.iter().map(|&d| model.apply(&mut t, d).change.marked).collect();
        (marked, t)
    }

    #[test]
    fn default_model_equals_built_default_config() {
        assert_eq!(FudgeWounds::new(FudgeWoundsConfig::default()).unwrap(), fudge());
    }

    #[test]
    fn every_threshold_boundary() {
        use WoundLevel::*;
        let m = fudge();
        let expected = [
            (i32::MIN, None),
            (-1, None),
            (0, None),
            (1, Some(Scratch)),
            (2, Some(Scratch)),
            (3, Some(Hurt)),
            (4, Some(Hurt)),
            (5, Some(VeryHurt)),
            (6, Some(VeryHurt)),
            (7, Some(Incapacitated)),
            (8, Some(Incapacitated)),
            (9, Some(NearDeath)),
            (10, Some(NearDeath)),
            (i32::MAX, Some(NearDeath)),
        ];
        for (damage, level) in expected {
            assert_eq!(m.level_for(damage), level, "damage {damage}");
            let (marked, t) = marks(&m, &[damage]);
            assert_eq!(marked, [level], "damage {damage}");
            assert_eq!(t.worst(), level);
        }
    }

    #[test]
    fn penalties_and_status_per_level() {
        use WoundLevel::*;
        let m = fudge();
        for (damage, penalty, status) in [
            (0, 0, Status::Standing),
            (1, 0, Status::Standing),
            (3, -1, Status::Standing),
            (5, -2, Status::Standing),
            (7, -2, Status::Down),
            (9, -2, Status::Down),
        ] {
            let mut t = m.fresh();
            let o = m.apply(&mut t, damage);
            assert_eq!((o.penalty, o.after), (penalty, status), "damage {damage}");
            assert_eq!(m.wound_penalty(&t), penalty);
            assert_eq!(m.status(&t), status);
        }
        assert_eq!(Dead.penalty(), -2);
        assert_eq!(Dead.status(), Status::Dead);
    }

    #[test]
    fn the_worst_wound_sets_the_penalty() {
        let m = fudge();
        let (_, t) = marks(&m, &[5, 1, 3]);
        assert_eq!(t.worst(), Some(WoundLevel::VeryHurt));
        assert_eq!(m.wound_penalty(&t), -2);
    }

    #[test]
    fn scratches_overflow_into_hurt_then_very_hurt() {
        use WoundLevel::*;
        let (marked, t) = marks(&fudge(), &[1, 2, 1, 1, 2]);
        assert_eq!(
            marked,
            [Some(Scratch), Some(Scratch), Some(Scratch), Some(Hurt), Some(VeryHurt)]
        );
        assert_eq!(t.filled(Scratch), 3);
        assert_eq!(t.penalty(), -2);
    }

    #[test]
    fn a_full_chain_ends_in_death() {
        use WoundLevel::*;
        let m = fudge();
        let (marked, t) = marks(&m, &[3, 3, 3, 3, 3, 3]);
        assert_eq!(
            marked,
            [
                Some(Hurt),
                Some(VeryHurt),
                Some(Incapacitated),
                Some(NearDeath),
                Some(Dead),
                None
            ]
        );
        assert_eq!(t.status(), Status::Dead);
        // A dead combatant takes no further wounds.
        let mut t2 = t;
        let o = m.apply(&mut t2, 9);
        assert_eq!(t2, t);
        assert_eq!(o.change.called_for, Some(NearDeath));
        assert_eq!(o.change.marked, None);
        assert!(!o.newly_dead());
    }

    #[test]
    fn near_death_with_its_box_full_is_dead() {
        let m = fudge();
        let mut t = m.fresh();
        let first = m.apply(&mut t, 9);
        assert!(first.newly_down() && !first.newly_dead());
        let second = m.apply(&mut t, 9);
        assert_eq!(second.change.marked, Some(WoundLevel::Dead));
        assert!(second.newly_dead() && !second.newly_down());
        assert_eq!(second.before, Status::Down);
    }

    #[test]
    fn a_lower_wound_fills_its_own_box_even_above_worse_wounds() {
        let m = fudge();
        let (marked, t) = marks(&m, &[7, 1]);
        assert_eq!(marked[1], Some(WoundLevel::Scratch));
        assert_eq!(t.worst(), Some(WoundLevel::Incapacitated));
    }

    #[test]
    fn an_optional_dead_threshold_kills_outright() {
        let config = FudgeWoundsConfig {
            thresholds: WoundThresholds {
                dead: Some(13),
                ..WoundThresholds::default()
            },
            ..FudgeWoundsConfig::default()
        };
        let m = FudgeWounds::new(config).unwrap();
        assert_eq!(m.level_for(12), Some(WoundLevel::NearDeath));
        let (marked, t) = marks(&m, &[13]);
        assert_eq!(marked, [Some(WoundLevel::Dead)]);
        assert!(t.status().is_dead());
    }

    #[test]
    fn config_errors_name_the_field() {
        let with_t = |f: fn(&mut WoundThresholds)| {
            let mut c = FudgeWoundsConfig::default();
            f(&mut c.thresholds);
            FudgeWounds::new(c).unwrap_err().to_string()
        };
        assert_eq!(
            with_t(|t| t.scratch = 0),
            "thresholds.scratch: 0 is outside 1..=2147483647"
        );
        assert_eq!(
            with_t(|t| t.very_hurt = 3),
            "thresholds.very_hurt: must be greater than thresholds.hurt (3), is 3"
        );
        assert_eq!(
            with_t(|t| t.dead = Some(9)),
            "thresholds.dead: must be greater than thresholds.near_death (9), is 9"
        );
        let mut c = FudgeWoundsConfig::default();
        c.boxes.near_death = 0;
        assert_eq!(
            FudgeWounds::new(c).unwrap_err().to_string(),
            "boxes.near_death: 0 is outside 1..=255"
        );
        c.boxes.near_death = 256;
        assert!(FudgeWounds::new(c).is_err());
        c.boxes.near_death = 255;
        assert_eq!(FudgeWounds::new(c).unwrap().boxes(WoundLevel::NearDeath), 255);
    }

    #[test]
    fn wound_state_serializes_by_level_and_is_checked() {
        let m = fudge();
        let (_, t) = marks(&m, &[1, 1, 3]);
        let json = serde_json::to_string(&t).unwrap();
        assert_eq!(
            json,
            r#"{"scratch":2,"hurt":1,"very_hurt":0,"incapacitated":0,"near_death":0,"dead":false}"#
        );
        assert_eq!(serde_json::from_str::<WoundTrack>(&json).unwrap(), t);
        let too_many: WoundTrack = serde_json::from_str(r#"{"hurt":2}"#).unwrap();
        assert_eq!(
            m.validate_state(&too_many).unwrap_err().to_string(),
            "wounds.hurt: 2 is outside 0..=1"
        );
        // An inconsistent state does not make apply panic.
        let mut bad = WoundTrack::with_filled([255; 5], false);
        assert_eq!(m.apply(&mut bad, 1).change.marked, Some(WoundLevel::Dead));
    }

    #[test]
    fn hit_points_parity_table() {
        let m = HitPoints::new(HitPointsConfig::parity(5)).unwrap();
        for (damage, lost) in [(i32::MIN, 0), (0, 0), (1, 1), (2, 1), (3, 2), (4, 2), (i32::MAX, 2)] {
            assert_eq!(m.hp_lost(damage), lost, "damage {damage}");
        }
        let mut s = m.fresh();
        assert_eq!(s.hp(), 5);
        let o = m.apply(&mut s, 3);
        assert_eq!(
            o.change,
            HitPointChange {
                damage: 3,
                lost: 2,
                hp: 3
            }
        );
        m.apply(&mut s, 1);
        let o = m.apply(&mut s, 1);
        assert_eq!(
            (o.change.hp, o.before, o.after),
            (1, Status::Standing, Status::Standing)
        );
        let o = m.apply(&mut s, 9);
        assert_eq!(o.change.hp, -1);
        assert!(o.newly_down() && o.newly_dead());
        // Dead: nothing more is taken.
        assert_eq!(m.apply(&mut s, 9).change.lost, 0);
        assert_eq!(s.hp(), -1);
    }

    #[test]
    fn hit_points_margin_flat_and_table_gaps() {
        let m = HitPoints::new(HitPointsConfig::default()).unwrap();
        assert_eq!([0, 1, 7].map(|d| m.hp_lost(d)), [0, 1, 7]);
        let flat = HitPoints::new(HitPointsConfig {
            damage: HitDamage::Flat(3),
            ..HitPointsConfig::default()
        })
        .unwrap();
        assert_eq!([0, 1, 7].map(|d| flat.hp_lost(d)), [0, 3, 3]);
        let gap = HitPoints::new(HitPointsConfig {
            damage: HitDamage::Table(vec![DamageRow {
                min_margin: 2,
                damage: 4,
            }]),
            ..HitPointsConfig::default()
        })
        .unwrap();
        assert_eq!([1, 2, 3].map(|d| gap.hp_lost(d)), [0, 4, 4]);
    }

    #[test]
    fn hit_points_down_before_dead_and_penalties() {
        let config = HitPointsConfig {
            max_hp: 10,
            dead_at: -5,
            penalties: vec![
                HitPointPenalty {
                    hp_at_most: 6,
                    penalty: -1,
                },
                HitPointPenalty {
                    hp_at_most: 3,
                    penalty: -2,
                },
            ],
            ..HitPointsConfig::default()
        };
        let m = HitPoints::new(config).unwrap();
        let mut s = m.fresh();
        let mut seen = Vec::new();
        for _ in 0..8 {
            let o = m.apply(&mut s, 2);
            seen.push((o.change.hp, o.penalty, o.after));
        }
        use Status::*;
        assert_eq!(
            seen,
            [
                (8, 0, Standing),
                (6, -1, Standing),
                (4, -1, Standing),
                (2, -2, Standing),
                (0, -2, Down),
                (-2, -2, Down),
                (-4, -2, Down),
                (-6, -2, Dead),
            ]
        );
    }

    #[test]
    fn hit_point_config_errors_name_the_field() {
        let err = |c: HitPointsConfig| c.validate().unwrap_err().to_string();
        let table = |rows: &[(i32, i32)]| HitPointsConfig {
            damage: HitDamage::Table(
                rows.iter()
                    .map(|&(min_margin, damage)| DamageRow { min_margin, damage })
                    .collect(),
            ),
            ..HitPointsConfig::default()
        };
        assert_eq!(err(HitPointsConfig::parity(0)), "max_hp: 0 is outside 1..=2147483647");
        assert_eq!(err(table(&[])), "damage.table: needs at least one row");
        assert_eq!(
            err(table(&[(0, 1)])),
            "damage.table[0].min_margin: 0 is outside 1..=2147483647"
        );
        assert_eq!(
            err(table(&[(3, 2), (1, 1)])),
            "damage.table[1].min_margin: must be greater than the row before (3), is 1; sort the table by min_margin"
        );
        assert_eq!(
            err(table(&[(1, 2), (3, 1)])),
            "damage.table[1].damage: must not be less than the row before (2), is 1"
        );
        assert_eq!(
            err(table(&[(1, -1)])),
            "damage.table[0].damage: -1 is outside 0..=2147483647"
        );
        assert_eq!(
            err(HitPointsConfig {
                damage: HitDamage::Flat(0),
                ..HitPointsConfig::default()
            }),
            "damage.flat: 0 is outside 1..=2147483647"
        );
        assert_eq!(
            err(HitPointsConfig {
                dead_at: 1,
                ..HitPointsConfig::default()
            }),
            "dead_at: 1 is outside -2147483648..=0"
        );
        let pen = |rows: &[(i32, i32)]| HitPointsConfig {
            penalties: rows
                .iter()
                .map(|&(hp_at_most, penalty)| HitPointPenalty { hp_at_most, penalty })
                .collect(),
            ..HitPointsConfig::default()
        };
        assert_eq!(
            err(pen(&[(10, -1)])),
            "penalties[0].hp_at_most: 10 is outside -2147483648..=9"
        );
        assert_eq!(
            err(pen(&[(5, 1)])),
            "penalties[0].penalty: 1 is outside -2147483648..=0"
        );
        assert!(err(pen(&[(3, -1), (5, -2)])).starts_with("penalties[1].hp_at_most: must be less than"));
        assert!(err(pen(&[(5, -2), (3, -1)])).starts_with("penalties[1].penalty: must not be milder"));
        assert!(pen(&[(5, -1), (3, -1)]).validate().is_ok());
    }

    #[test]
    fn hit_point_state_is_checked() {
        let m = HitPoints::new(HitPointsConfig::parity(4)).unwrap();
        assert!(m.validate_state(&HitPointState::new(4)).is_ok());
        assert!(m.validate_state(&HitPointState::new(-100)).is_ok());
        assert_eq!(
            m.validate_state(&HitPointState::new(5)).unwrap_err().to_string(),
            "hp: 5 is outside -2147483648..=4"
        );
        let mut low = HitPointState::new(i32::MIN);
        m.apply(&mut low, 5);
        assert_eq!(low.hp(), i32::MIN);
    }

    #[test]
    fn factors_sum_and_overflow() {
        let f = DamageFactors {
            offense: OffensiveFactors {
                strength: 1,
                weapon: 2,
                scale: 0,
                situational: 1,
            },
            defense: DefensiveFactors {
                armor: 2,
                scale: 0,
                damage_capacity: 1,
            },
        };
        let b = f.damage(2).unwrap();
        assert_eq!((b.offensive, b.defensive, b.damage), (4, 3, 3));
        assert_eq!(f.total().unwrap(), 1);
        assert_eq!(
            b.to_string(),
            "damage 3 = margin 2 + offense 4 (Strength 1, weapon 2, situational 1) - defense 3 (armor 2, Damage Capacity 1)"
        );
        assert_eq!(
            DamageFactors::default().damage(1).unwrap().to_string(),
            "damage 1 = margin 1"
        );
        let huge = DamageFactors::new(i32::MAX, 1, 0);
        assert_eq!(
            huge.damage(1).unwrap_err().to_string(),
            "damage.offense: arithmetic overflow (strength 2147483647 + weapon 1 + scale 0 + situational 0)"
        );
        let big = DamageFactors::new(i32::MAX, 0, 0);
        assert!(matches!(big.damage(1), Err(Error::Overflow { .. })));
        let wide = DamageFactors::new(i32::MAX, 0, 0).against(-1, 0, 0);
        assert!(matches!(wide.total(), Err(Error::Overflow { .. })));
        let scaled = DamageFactors::new(0, 0, 2).against(0, 1, 0);
        assert_eq!(scaled.damage(1).unwrap().damage, 2);
    }

    #[test]
    fn runtime_choice_by_name_and_serde() {
        assert_eq!(DamageConfig::by_name("FUDGE").unwrap(), DamageConfig::default());
        assert_eq!(DamageConfig::by_name("hp").unwrap().name(), "hit_points");
        match DamageConfig::by_name("hitpoynts").unwrap_err() {
            Error::UnknownName { kind, suggestions, .. } => {
                assert_eq!(kind, "damage model");
                assert_eq!(suggestions.first().map(String::as_str), Some("hit_points"));
            }
            other => panic!("{other}"),
        }
        let damage: Damage = serde_json::from_str(r#"{"model":"hit_points","max_hp":3}"#).unwrap();
        assert_eq!(damage.name(), "hit_points");
        let json = serde_json::to_string(&damage).unwrap();
        assert_eq!(
            json,
            r#"{"model":"hit_points","max_hp":3,"damage":"margin","dead_at":0}"#
        );
        let unknown = serde_json::from_str::<DamageConfig>(r#"{"model":"hit_points","max_hp":3,"hp":1}"#);
        assert!(unknown.unwrap_err().to_string().contains("unknown field `hp`"));
        let unknown = serde_json::from_str::<DamageConfig>(r#"{"model":"fudge_wounds","boxes":{"scrach":1}}"#);
        assert!(unknown.unwrap_err().to_string().contains("unknown field `scrach`"));
        let state = Damage::default().fresh();
        assert_eq!(
            serde_json::to_string(&state).unwrap(),
            r#"{"model":"fudge_wounds","scratch":0,"hurt":0,"very_hurt":0,"incapacitated":0,"near_death":0,"dead":false}"#
        );
    }

    #[test]
    fn a_mismatched_state_is_refused_and_left_alone() {
        let hp = Damage::HitPoints(HitPoints::new(HitPointsConfig::parity(2)).unwrap());
        let mut wounds = Damage::default().fresh();
        let before = wounds;
        let o = hp.apply(&mut wounds, 5);
        assert_eq!(o.change, DamageChange::Mismatch);
        assert_eq!(wounds, before);
        assert!(hp.validate_state(&wounds).is_err());
        let mut s = hp.fresh();
        assert!(hp.validate_state(&s).is_ok());
        let o = hp.apply(&mut s, 3);
        assert!(matches!(
            o.change,
            DamageChange::HitPoints(HitPointChange { lost: 2, .. })
        ));
        assert!(o.newly_dead());
    }

    #[test]
    fn states_are_small() {
        assert_eq!(size_of::<WoundTrack>(), 6);
        assert_eq!(size_of::<HitPointState>(), 4);
        assert!(size_of::<DamageState>() <= 8);
    }

    mod prop {
        use super::*;
        use proptest::prelude::*;

        fn fudge_config() -> impl Strategy<Value = FudgeWoundsConfig> {
            (
                1..5i32,
                proptest::collection::vec(1..4i32, 4),
                proptest::option::of(1..5i32),
                proptest::collection::vec(1..4u32, 5),
            )
                .prop_map(|(scratch, steps, dead_step, boxes)| {
                    let mut t = [scratch; 5];
                    for i in 1..5 {
                        t[i] = t[i - 1] + steps[i - 1];
                    }
                    FudgeWoundsConfig {
                        thresholds: WoundThresholds {
                            scratch: t[0],
                            hurt: t[1],
                            very_hurt: t[2],
                            incapacitated: t[3],
                            near_death: t[4],
                            dead: dead_step.map(|s| t[4] + s),
                        },
                        boxes: WoundBoxes {
                            scratch: boxes[0],
                            hurt: boxes[1],
                            very_hurt: boxes[2],
                            incapacitated: boxes[3],
                            near_death: boxes[4],
                        },
                    }
                })
        }

        fn damage() -> impl Strategy<Value = i32> {
            prop_oneof![any::<i32>(), -3..15i32]
        }

        fn hp_config() -> impl Strategy<Value = HitPointsConfig> {
            let table = proptest::collection::vec((1..4i32, 0..3i32), 1..4).prop_map(|steps| {
                let (mut m, mut d) = (0, 0);
                steps
                    .into_iter()
                    .map(|(dm, dd)| {
                        m += dm;
                        d += dd;
                        DamageRow {
                            min_margin: m,
                            damage: d,
                        }
                    })
                    .collect::<Vec<_>>()
            });
            let hit = prop_oneof![
                Just(HitDamage::Margin),
                (1..i32::MAX).prop_map(HitDamage::Flat),
                table.prop_map(HitDamage::Table),
            ];
            (
                1..i32::MAX,
                hit,
                prop_oneof![Just(0), any::<i32>().prop_map(|d| d.min(0))],
            )
                .prop_map(|(max_hp, damage, dead_at)| HitPointsConfig {
                    max_hp,
                    damage,
                    dead_at,
                    penalties: if max_hp > 2 {
                        vec![HitPointPenalty {
                            hp_at_most: max_hp / 2,
                            penalty: -1,
                        }]
                    } else {
                        Vec::new()
                    },
                })
        }

        proptest! {
            #[test]
            fn wound_tracks_stay_consistent(config in fudge_config(), hits in proptest::collection::vec(damage(), 0..40)) {
                let m = FudgeWounds::new(config).unwrap();
                let mut t = m.fresh();
                let mut total_filled = 0u32;
                for d in hits {
                    let before = m.status(&t);
                    let o = m.apply(&mut t, d);
                    prop_assert!(m.validate_state(&t).is_ok());
                    prop_assert_eq!(o.before, before);
                    prop_assert!(o.after >= o.before);
                    prop_assert_eq!(o.after, m.status(&t));
                    prop_assert_eq!(o.penalty, m.wound_penalty(&t));
                    prop_assert!([0, -1, -2].contains(&o.penalty));
                    let filled: u32 = WoundLevel::WITH_BOXES.iter().map(|&l| u32::from(t.filled(l))).sum();
                    prop_assert!(filled >= total_filled);
                    prop_assert_eq!(o.change.marked.is_some(), d >= config.thresholds.scratch && !before.is_dead());
                    if let (Some(called), Some(marked)) = (o.change.called_for, o.change.marked) {
                        prop_assert!(marked >= called);
                    }
                    total_filled = filled;
                }
            }

            #[test]
            fn hit_points_stay_consistent(config in hp_config(), hits in proptest::collection::vec(damage(), 0..40)) {
                let m = HitPoints::new(config.clone()).unwrap();
                let mut s = m.fresh();
                for d in hits {
                    let hp = s.hp();
                    let o = m.apply(&mut s, d);
                    prop_assert!(m.validate_state(&s).is_ok());
                    prop_assert!(s.hp() <= hp);
                    prop_assert!(o.change.lost >= 0);
                    prop_assert!(o.after >= o.before);
                    prop_assert_eq!(o.after, m.status(&s));
                    prop_assert_eq!(o.after.is_down(), s.hp() <= 0);
                    prop_assert!(o.penalty <= 0);
                }
            }

            #[test]
            fn factors_never_panic(margin: i32, s: i32, w: i32, sc: i32, a: i32, dsc: i32, dc: i32) {
                let f = DamageFactors::new(s, w, sc).against(a, dsc, dc);
                if let Ok(b) = f.damage(margin) {
                    let exact = i64::from(margin) + i64::from(s) + i64::from(w) + i64::from(sc)
                        - i64::from(a) - i64::from(dsc) - i64::from(dc);
                    prop_assert_eq!(i64::from(b.damage), exact);
                    let _ = b.to_string();
                }
            }

            #[test]
            fn any_damage_config_from_json_never_panics(json in "\\{\"model\":\"(fudge_wounds|hit_points)\"(,\"max_hp\":-?[0-9]{1,3})?\\}") {
                let _ = serde_json::from_str::<Damage>(&json);
            }
        }
    }
}
