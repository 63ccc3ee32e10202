//! Melee modifiers as data (4.31), and the effective skill they sum to.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize};

use super::result::add;
use crate::error::{Error, Result};
use crate::ladder::Level;

/// Wound penalty to every trait (4.31: "A fighter who is Hurt is at -1,
/// while one who is Very Hurt is at -2").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Wounds {
    /// Unhurt (or only scratched): no penalty.
    #[default]
    Unhurt,
    /// Hurt: -1.
    Hurt,
    /// Very Hurt: -2.
    VeryHurt,
}

impl Wounds {
    /// The penalty: 0, -1 or -2.
    pub const fn penalty(self) -> i32 {
        match self {
            Wounds::Unhurt => 0,
            Wounds::Hurt => -1,
            Wounds::VeryHurt => -2,
        }
    }
}

/// Positional disadvantage (4.31: bad footing, lower elevation, light in
/// the eyes, kneeling...): "a penalty (-1 or -2) to the fighter in the
/// worse position".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Position {
    /// No disadvantage.
    #[default]
    Even,
    /// A worse position: -1.
    Worse,
    /// A much worse position: -2.
    MuchWorse,
}

impl Position {
    /// The names in files and sweeps: `"even"`, `"worse"`, `"much_worse"`.
    pub const NAMES: [&'static str; 3] = ["even", "worse", "much_worse"];

    /// The penalty: 0, -1 or -2.
    pub const fn penalty(self) -> i32 {
        match self {
            Position::Even => 0,
            Position::Worse => -1,
            Position::MuchWorse => -2,
        }
    }
}

/// Melee or ranged: shields count differently in each (4.31).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CombatKind {
    /// Hand-to-hand (4.2, 4.3).
    Melee,
    /// Thrown or propelled weapons (4.4).
    Ranged,
}

/// The size of a shield (4.31).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ShieldSize {
    /// +1 in melee combat only.
    Small,
    /// +1 in melee and +1 against ranged attacks (if its material is
    /// impervious to the weapon: the caller's call).
    Medium,
    /// +2 in all combat; -2 to its user's own combat skills in single combat.
    Large,
}

/// A shield a fighter carries (4.31).
///
/// Its value is subtracted from the *opponent's* weapon skill, "provided the
/// defender is trained to use a shield". A large shield is cumbersome: -2 to
/// its user's own combat skills, except in a static shield wall (the only
/// place the text calls it "really useful"; *decision:* no penalty there).
///
/// ```
/// use skirmish_core::striking::opposed::{CombatKind, Shield, ShieldSize};
/// let medium = Shield::new(ShieldSize::Medium);
/// assert_eq!(medium.penalty_to_opponent(CombatKind::Ranged), -1);
/// assert_eq!(Shield::new(ShieldSize::Small).penalty_to_opponent(CombatKind::Ranged), 0);
/// assert_eq!(Shield::new(ShieldSize::Large).penalty_to_user(), -2);
/// let untrained = Shield { trained: false, ..medium };
/// assert_eq!(untrained.penalty_to_opponent(CombatKind::Melee), 0);
/// ```
///
/// In a file, a size alone (`shield = "medium"`) or a table (`shield = {
/// size = "large", trained = false }`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct Shield {
    /// Small, medium or large.
    pub size: ShieldSize,
    /// Whether the carrier is trained to use a shield; untrained, it gives
    /// no bonus (a large one still hampers).
    pub trained: bool,
    /// Fighting in a static shield wall: a large shield costs nothing there.
    pub in_shield_wall: bool,
}

impl<'de> Deserialize<'de> for Shield {
    /// A size alone (`"medium"`: trained, not in a shield wall) or a table
    /// `{ size, trained = true, in_shield_wall = false }`.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        /// The table form, every field but the size defaulted.
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Table {
            size: ShieldSize,
            #[serde(default = "yes")]
            trained: bool,
            #[serde(default)]
            in_shield_wall: bool,
        }
        fn yes() -> bool {
            true
        }
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = Shield;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(
                    "a shield size (\"small\", \"medium\", \"large\") or a table { size, trained, in_shield_wall }",
                )
            }
            fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<Shield, E> {
                ShieldSize::deserialize(serde::de::value::StrDeserializer::<E>::new(s)).map(Shield::new)
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<Shield, A::Error> {
                let t = Table::deserialize(serde::de::value::MapAccessDeserializer::new(map))?;
                Ok(Shield {
                    size: t.size,
                    trained: t.trained,
                    in_shield_wall: t.in_shield_wall,
                })
            }
        }
        d.deserialize_any(V)
    }
}

impl ShieldSize {
    /// The names in files and sweeps: `"small"`, `"medium"`, `"large"`.
    pub const NAMES: [&'static str; 3] = ["small", "medium", "large"];

    /// Its name in files and sweeps.
    pub const fn name(self) -> &'static str {
        match self {
            ShieldSize::Small => "small",
            ShieldSize::Medium => "medium",
            ShieldSize::Large => "large",
        }
    }
}

impl Shield {
    /// A shield of `size` in trained hands, not in a shield wall.
    pub const fn new(size: ShieldSize) -> Shield {
        Shield {
            size,
            trained: true,
            in_shield_wall: false,
        }
    }

    /// The shield's value in this kind of combat, whoever carries it.
    pub const fn value(self, kind: CombatKind) -> i32 {
        match (self.size, kind) {
            (ShieldSize::Small, CombatKind::Melee) => 1,
            (ShieldSize::Small, CombatKind::Ranged) => 0,
            (ShieldSize::Medium, _) => 1,
            (ShieldSize::Large, _) => 2,
        }
    }

    /// What it subtracts from the opponent's skill: minus its value if the
    /// carrier is trained, else 0.
    pub const fn penalty_to_opponent(self, kind: CombatKind) -> i32 {
        if self.trained { -self.value(kind) } else { 0 }
    }

    /// What it costs its own carrier: -2 for a large shield outside a shield
    /// wall, else 0.
    pub const fn penalty_to_user(self) -> i32 {
        match self.size {
            ShieldSize::Large if !self.in_shield_wall => -2,
            _ => 0,
        }
    }
}

/// Aiming at a specific small body part (4.31): -1 to the trait level and a
/// minimum result of Good or Great to hit.
///
/// "If a result of Great is needed and the fighter only gets a Good result
/// but still wins the Opposed action, he hits the other fighter - but not in
/// the part aimed for." So with either aim, a winning result below Good
/// misses; with [`SmallPartNeedingGreat`](Self::SmallPartNeedingGreat), a
/// winning Good hits elsewhere.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Aim {
    /// No called shot.
    #[default]
    Anywhere,
    /// A small part the GM rates as needing a Good result.
    SmallPartNeedingGood,
    /// A small part the GM rates as needing a Great result.
    SmallPartNeedingGreat,
}

impl Aim {
    /// The names in files and sweeps: `"anywhere"`,
    /// `"small_part_needing_good"`, `"small_part_needing_great"`.
    pub const NAMES: [&'static str; 3] = ["anywhere", "small_part_needing_good", "small_part_needing_great"];

    /// The modifier to the trait level: -1 when aiming, else 0.
    pub const fn penalty(self) -> i32 {
        match self {
            Aim::Anywhere => 0,
            Aim::SmallPartNeedingGood | Aim::SmallPartNeedingGreat => -1,
        }
    }

    /// The least result that hits at all (in or beside the part), if aiming.
    pub const fn minimum_to_hit(self) -> Option<Level> {
        match self {
            Aim::Anywhere => None,
            Aim::SmallPartNeedingGood | Aim::SmallPartNeedingGreat => Some(Level::GOOD),
        }
    }

    /// The least result that hits the part aimed for, if aiming.
    pub const fn minimum_for_part(self) -> Option<Level> {
        match self {
            Aim::Anywhere => None,
            Aim::SmallPartNeedingGood => Some(Level::GOOD),
            Aim::SmallPartNeedingGreat => Some(Level::GREAT),
        }
    }
}

/// All-out stances (4.31). The postures of 4.32 replace these; use
/// [`Stance::Normal`] with [`posture_round`](super::posture_round).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stance {
    /// An ordinary round.
    #[default]
    Normal,
    /// All-out offense (a berserk attack): +1 skill and +1 damage if it wins;
    /// if it ties or loses, the other fighter wins and gets +2 damage.
    AllOutOffense,
    /// All-out defense: +2 skill, but cannot harm the foe except with a
    /// critical result.
    AllOutDefense,
}

impl Stance {
    /// The names in files and sweeps: `"normal"`, `"all_out_offense"`,
    /// `"all_out_defense"`.
    pub const NAMES: [&'static str; 3] = ["normal", "all_out_offense", "all_out_defense"];

    /// Its name in files and sweeps: `"normal"`, `"all_out_offense"`,
    /// `"all_out_defense"`.
    pub const fn name(self) -> &'static str {
        match self {
            Stance::Normal => "normal",
            Stance::AllOutOffense => "all_out_offense",
            Stance::AllOutDefense => "all_out_defense",
        }
    }

    /// The skill modifier: 0, +1 or +2.
    pub const fn skill_bonus(self) -> i32 {
        match self {
            Stance::Normal => 0,
            Stance::AllOutOffense => 1,
            Stance::AllOutDefense => 2,
        }
    }
}

/// Whether a fighter earns **scouting** (4.31): "A successful All-out
/// Defense and a successful Perception or Tactics roll produces a -1 penalty
/// to the opponent on the *next* round". Set
/// [`MeleeModifiers::scouted`] on that fighter next round.
///
/// *Decision:* the text does not define a "successful" all-out defense;
/// here it is one that was not hit (the all-out defender cannot harm anyway).
///
/// ```
/// use skirmish_core::striking::opposed::{scouting_earned, Stance};
/// assert!(scouting_earned(Stance::AllOutDefense, false, true));
/// assert!(!scouting_earned(Stance::AllOutDefense, true, true));
/// assert!(!scouting_earned(Stance::Normal, false, true));
/// ```
pub const fn scouting_earned(stance: Stance, was_hit: bool, perception_or_tactics_succeeded: bool) -> bool {
    matches!(stance, Stance::AllOutDefense) && !was_hit && perception_or_tactics_succeeded
}

/// One fighter's melee modifiers for one round (4.31), as data.
///
/// Some count against the fighter himself (wounds, position, a large
/// shield, aiming, blessing or curse, stance); two count against the
/// *opponent* (a trained shield, and scouting earned last round).
/// [`effective_skill`](Self::effective_skill) sums them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct MeleeModifiers {
    /// Hurt -1, Very Hurt -2.
    pub wounds: Wounds,
    /// Worse position -1 or -2.
    pub position: Position,
    /// The shield carried, if any.
    pub shield: Option<Shield>,
    /// A called shot at a small part.
    pub aim: Aim,
    /// A magical blessing (+1 or more) or curse (-1 or worse).
    pub blessing: i32,
    /// All-out offense or defense.
    pub stance: Stance,
    /// This fighter earned scouting last round ([`scouting_earned`]): the
    /// opponent is at -1 this round.
    pub scouted: bool,
}

/// Why a skill was modified: one line of an [`EffectiveSkill`]'s breakdown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum ModifierReason {
    /// Hurt or Very Hurt (4.31).
    Wounds,
    /// A worse position (4.31).
    Position,
    /// One's own large shield (4.31).
    OwnLargeShield,
    /// The opponent's trained shield (4.31).
    OpponentShield,
    /// Aiming at a small part (4.31).
    Aiming,
    /// A blessing or a curse (4.31).
    BlessingOrCurse,
    /// All-out offense or defense (4.31).
    Stance,
    /// The opponent scouted last round (4.31).
    OpponentScouted,
    /// Facing more than one foe: -1 per foe beyond the first (4.34).
    ExtraFoes,
    /// Dodging a propelled missile: -2 or -3 (4.4).
    PropelledMissile,
    /// The GM's story-element modifier, -3..=+3 (4.21).
    GmModifier,
}

impl ModifierReason {
    /// Its words in breakdowns and traces ("position", "foe's shield").
    pub const fn label(self) -> &'static str {
        match self {
            ModifierReason::Wounds => "wounds",
            ModifierReason::Position => "position",
            ModifierReason::OwnLargeShield => "own large shield",
            ModifierReason::OpponentShield => "foe's shield",
            ModifierReason::Aiming => "aiming",
            ModifierReason::BlessingOrCurse => "blessing or curse",
            ModifierReason::Stance => "stance",
            ModifierReason::OpponentScouted => "foe scouted",
            ModifierReason::ExtraFoes => "outnumbered",
            ModifierReason::PropelledMissile => "propelled missile",
            ModifierReason::GmModifier => "GM modifier",
        }
    }
}

/// One modifier and its reason.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Modifier {
    /// Why.
    pub reason: ModifierReason,
    /// How much (never 0 in a breakdown).
    pub value: i32,
}

/// A trait level after its modifiers, with the breakdown.
///
/// ```
/// use skirmish_core::ladder::Level;
/// use skirmish_core::striking::opposed::{Aim, MeleeModifiers, Shield, ShieldSize, Wounds};
///
/// let me = MeleeModifiers { wounds: Wounds::Hurt, aim: Aim::SmallPartNeedingGreat, ..Default::default() };
/// let foe = MeleeModifiers { shield: Some(Shield::new(ShieldSize::Medium)), ..Default::default() };
/// let skill = me.effective_skill(Level::SUPERB, &foe).unwrap();
/// assert_eq!(skill.level, Level::FAIR); // Superb -1 Hurt -1 aiming -1 shield
/// assert_eq!(skill.modifiers.len(), 3);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct EffectiveSkill {
    /// The trait level before modifiers.
    pub base: Level,
    /// The non-zero modifiers, in the order they were applied.
    pub modifiers: Vec<Modifier>,
    /// The trait level after them.
    pub level: Level,
}

impl EffectiveSkill {
    /// `base` with no modifiers yet.
    pub fn new(base: Level) -> EffectiveSkill {
        EffectiveSkill {
            base,
            modifiers: Vec::new(),
            level: base,
        }
    }

    /// Adds a modifier (a 0 is not recorded).
    ///
    /// # Errors
    /// [`Error::Overflow`] (field `skill`) if the level leaves the `i32` range.
    pub fn with(mut self, reason: ModifierReason, value: i32) -> Result<EffectiveSkill> {
        if value != 0 {
            self.level = add(self.level, value, "skill")?;
            self.modifiers.push(Modifier { reason, value });
        }
        Ok(self)
    }

    /// The sum of the modifiers (`level - base`).
    pub fn total(&self) -> i64 {
        i64::from(self.level.value()) - i64::from(self.base.value())
    }
}

impl MeleeModifiers {
    /// This fighter's effective melee skill against an opponent with
    /// `opponent`'s modifiers: `skill` + wounds + position + own large
    /// shield + aiming + blessing/curse + stance, minus the opponent's
    /// trained shield, -1 if the opponent scouted.
    ///
    /// One rolled result serves both attack and defense in a simultaneous
    /// round (4.22), so this is the skill for both; postures (4.32) then
    /// split it.
    ///
    /// # Errors
    /// [`Error::Overflow`] (field `skill`) on an extreme level or blessing.
    pub fn effective_skill(&self, skill: Level, opponent: &MeleeModifiers) -> Result<EffectiveSkill> {
        EffectiveSkill::new(skill)
            .with(ModifierReason::Wounds, self.wounds.penalty())?
            .with(ModifierReason::Position, self.position.penalty())?
            .with(
                ModifierReason::OwnLargeShield,
                self.shield.map_or(0, Shield::penalty_to_user),
            )?
            .with(ModifierReason::Aiming, self.aim.penalty())?
            .with(ModifierReason::BlessingOrCurse, self.blessing)?
            .with(ModifierReason::Stance, self.stance.skill_bonus())?
            .with(
                ModifierReason::OpponentShield,
                opponent.shield.map_or(0, |s| s.penalty_to_opponent(CombatKind::Melee)),
            )?
            .with(ModifierReason::OpponentScouted, if opponent.scouted { -1 } else { 0 })
    }
}

/// Checks a modifier lies in `min..=max`.
pub(crate) fn check_range(value: i32, min: i32, max: i32, field: &str) -> Result<i32> {
    if (min..=max).contains(&value) {
        Ok(value)
    } else {
        Err(Error::out_of_range(field, value, min, max))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_modifier_counts_once() {
        let me = MeleeModifiers {
            wounds: Wounds::VeryHurt,
            position: Position::MuchWorse,
            shield: Some(Shield::new(ShieldSize::Large)),
            aim: Aim::SmallPartNeedingGood,
            blessing: 3,
            stance: Stance::AllOutDefense,
            scouted: true,
        };
        let foe = MeleeModifiers {
            shield: Some(Shield::new(ShieldSize::Small)),
            scouted: true,
            ..Default::default()
        };
        let s = me.effective_skill(Level::FAIR, &foe).unwrap();
        // -2 -2 -2 -1 +3 +2 -1 -1
        assert_eq!(s.level, Level::new(-4));
        assert_eq!(s.total(), -4);
        assert_eq!(s.modifiers.len(), 8);
        // Only the opponent's scouting counts against me, not my own.
        let scouting = s
            .modifiers
            .iter()
            .filter(|m| m.reason == ModifierReason::OpponentScouted);
        assert_eq!(scouting.count(), 1);
        let plain = MeleeModifiers::default()
            .effective_skill(Level::GOOD, &MeleeModifiers::default())
            .unwrap();
        assert_eq!(plain, EffectiveSkill::new(Level::GOOD));
    }

    #[test]
    fn shields() {
        let wall = Shield {
            in_shield_wall: true,
            ..Shield::new(ShieldSize::Large)
        };
        assert_eq!(wall.penalty_to_user(), 0);
        assert_eq!(wall.penalty_to_opponent(CombatKind::Ranged), -2);
        let untrained_large = Shield {
            trained: false,
            ..Shield::new(ShieldSize::Large)
        };
        assert_eq!(untrained_large.penalty_to_opponent(CombatKind::Melee), 0);
        assert_eq!(untrained_large.penalty_to_user(), -2);
        assert_eq!(Shield::new(ShieldSize::Small).value(CombatKind::Melee), 1);
        assert_eq!(Shield::new(ShieldSize::Medium).value(CombatKind::Ranged), 1);
    }

    #[test]
    fn all_out_offense_and_curses() {
        let berserk = MeleeModifiers {
            stance: Stance::AllOutOffense,
            blessing: -2,
            ..Default::default()
        };
        let s = berserk
            .effective_skill(Level::GOOD, &MeleeModifiers::default())
            .unwrap();
        assert_eq!(s.level, Level::FAIR);
    }

    #[test]
    fn overflow_names_the_field() {
        let blessed = MeleeModifiers {
            blessing: i32::MAX,
            ..Default::default()
        };
        assert!(matches!(
            blessed.effective_skill(Level::GOOD, &MeleeModifiers::default()),
            Err(Error::Overflow { ref field, .. }) if field == "skill"
        ));
    }
}
