//! FUDGE wound levels (FUDGE 4.3): the wound track of boxes (Scratch, Hurt,
//! Very Hurt, Incapacitated, Near Death, then Dead), its thresholds and the
//! [`FudgeWounds`] model, the documented default.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::*;
use crate::error::{Error, Result};

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
    pub const fn status(self) -> Condition {
        match self {
            WoundLevel::Scratch | WoundLevel::Hurt | WoundLevel::VeryHurt => Condition::Standing,
            WoundLevel::Incapacitated | WoundLevel::NearDeath => Condition::Down,
            WoundLevel::Dead => Condition::Dead,
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

/// The least damage for each wound level (docs/rules.md §3.2).
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

    /// Filled boxes per level (Scratch first) and whether dead: what
    /// [`with_filled`](Self::with_filled) takes.
    ///
    /// ```
    /// use skirmish_core::damage::WoundTrack;
    /// let t = WoundTrack::with_filled([2, 1, 0, 0, 0], false);
    /// assert_eq!(t.parts(), ([2, 1, 0, 0, 0], false));
    /// ```
    #[inline]
    pub const fn parts(&self) -> ([u8; BOXED], bool) {
        (self.filled, self.dead)
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
    pub fn status(&self) -> Condition {
        self.worst().map_or(Condition::Standing, WoundLevel::status)
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

/// The hit's result as a tick sheet reads it: the wound it made and the
/// worst wound now held ("Hurt; now Very Hurt"); a wound whose level's
/// boxes were full names the level it moved up to ("Hurt, boxes full:
/// Very Hurt; now Very Hurt").
///
/// ```
/// use skirmish_core::damage::{DamageModel, FudgeWounds};
/// let model = FudgeWounds::default();
/// let mut track = model.fresh();
/// assert_eq!(model.apply(&mut track, 5).change.to_string(), "Very Hurt; now Very Hurt");
/// assert_eq!(model.apply(&mut track, 3).change.to_string(), "Hurt; now Very Hurt");
/// assert_eq!(model.apply(&mut track, 0).change.to_string(), "too little to wound; now Very Hurt");
/// ```
impl fmt::Display for WoundChange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.called_for, self.marked) {
            (None, _) => f.write_str("too little to wound")?,
            (Some(_), None) => f.write_str("no new wound (already dead)")?,
            (Some(called), Some(marked)) if called == marked => write!(f, "{marked}")?,
            (Some(called), Some(marked)) => write!(f, "{called}, boxes full: {marked}")?,
        }
        match self.worst {
            Some(worst) => write!(f, "; now {worst}"),
            None => f.write_str("; unhurt"),
        }
    }
}

/// FUDGE wound levels on a track of boxes: the default damage model
/// (docs/rules.md §3.2).
///
/// Damage 1-2 is a Scratch, 3-4 Hurt (-1), 5-6 Very Hurt (-2), 7-8
/// Incapacitated, 9+ Near Death (thresholds configurable). A wound whose
/// level's boxes are all full moves up to the next level with a free box
/// (the 4th Scratch becomes a Hurt); past Near Death it is Dead.
/// Incapacitated and worse are down.
///
/// ```
/// use skirmish_core::damage::{DamageModel, FudgeWounds, Condition, WoundLevel};
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
/// assert_eq!(big.after, Condition::Down);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "FudgeWoundsConfig", into = "FudgeWoundsConfig")]
pub struct FudgeWounds {
    pub(super) config: FudgeWoundsConfig,
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
            after: worst.map_or(Condition::Standing, WoundLevel::status),
            penalty: worst.map_or(0, WoundLevel::penalty),
        }
    }

    #[inline]
    fn wound_penalty(&self, state: &WoundTrack) -> i32 {
        state.penalty()
    }

    #[inline]
    fn status(&self, state: &WoundTrack) -> Condition {
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
