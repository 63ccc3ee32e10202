//! The striking rules a battle or an encounter is fought by: the system
//! ([`Striking`]) and each system's options ([`FullContactRules`] with
//! what its amazing results do, [`FudgeRules`] with the exchange rule).
//! Their own file because they are the encounter's and the scenario's
//! rules, not a fighter's numbers ([`FighterProfile`](super::FighterProfile)).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize};

use super::{RATING_LIMIT, within};
use crate::error::Error;
use crate::ladder::Level;
use crate::striking::opposed::SweepingBlow;

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
    type Err = Error;
    fn from_str(s: &str) -> Result<Striking, Self::Err> {
        let key: String = s
            .chars()
            .filter(|c| c.is_alphanumeric())
            .collect::<String>()
            .to_lowercase();
        match key.as_str() {
            "fullcontact" | "fc" => Ok(Striking::FullContact(FullContactRules::default())),
            "fudgeopposed" | "fudge" | "opposed" => Ok(Striking::FudgeOpposed(FudgeRules::default())),
            _ => Err(Error::unknown_name("striking system", s, Striking::NAMES)),
        }
    }
}

impl fmt::Display for Striking {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Options of Full Contact striking in a battle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FullContactRules {
    /// Guaranteed success (+4 hits) and fumble (-4 misses).
    pub guaranteed: bool,
    /// Amazing strikes and defenses (counted in the report).
    pub amazing: bool,
    /// Extra damage an amazing strike does under
    /// [`AmazingStrikeRule::Flat`] (0: none).
    pub amazing_strike_damage: i32,
    /// Optional point-blank range: +2 SR for a shot at a foe nearer than
    /// the weapon's Range Strength (battles with a distance).
    #[serde(skip_serializing_if = "is_false")]
    pub point_blank: bool,
    /// The "small" damage bonus a generous GM gives a point-blank hit
    /// (0: none), within ±[`RATING_LIMIT`].
    #[serde(skip_serializing_if = "is_zero")]
    pub point_blank_damage: i32,
    /// What an amazing strike does (docs/rules.md §2.1.8): the flat extra
    /// (the default) or double damage.
    #[serde(skip_serializing_if = "AmazingStrikeRule::is_flat")]
    pub amazing_strike: AmazingStrikeRule,
    /// What an amazing defense does to the attacker (docs/rules.md
    /// §2.1.8): nothing (the default), a disarm or a knock-down.
    #[serde(skip_serializing_if = "AmazingDefenseRule::is_none")]
    pub amazing_defense: AmazingDefenseRule,
    /// The knocked-down attacker's Defense Rating penalty until its next
    /// action (0..=[`RATING_LIMIT`]; default [`KNOCK_DOWN_PENALTY`]).
    #[serde(skip_serializing_if = "is_default_knock_down")]
    pub knock_down_penalty: i32,
}

fn is_false(b: &bool) -> bool {
    !*b
}

fn is_zero(v: &i32) -> bool {
    *v == 0
}

impl Default for FullContactRules {
    fn default() -> Self {
        FullContactRules {
            guaranteed: false,
            amazing: false,
            amazing_strike_damage: 0,
            amazing_strike: AmazingStrikeRule::Flat,
            amazing_defense: AmazingDefenseRule::None,
            knock_down_penalty: KNOCK_DOWN_PENALTY,
            point_blank: false,
            point_blank_damage: 0,
        }
    }
}

/// The default Defense Rating penalty of a knocked-down fighter: FUDGE
/// 4.31's "much worse position" (-2), the nearest the texts come to a
/// fighter on the ground.
pub const KNOCK_DOWN_PENALTY: i32 = 2;

fn is_default_knock_down(p: &i32) -> bool {
    *p == KNOCK_DOWN_PENALTY
}

impl FullContactRules {
    /// The Full Contact rules with the optional rules `guaranteed` and
    /// `amazing` and the flat `amazing_strike_damage`, every other option
    /// at its default.
    pub const fn with(guaranteed: bool, amazing: bool, amazing_strike_damage: i32) -> FullContactRules {
        FullContactRules {
            guaranteed,
            amazing,
            amazing_strike_damage,
            amazing_strike: AmazingStrikeRule::Flat,
            amazing_defense: AmazingDefenseRule::None,
            knock_down_penalty: KNOCK_DOWN_PENALTY,
            point_blank: false,
            point_blank_damage: 0,
        }
    }

    /// Checks the numbers: `amazing_strike_damage` and
    /// `point_blank_damage` within ±[`RATING_LIMIT`], `knock_down_penalty`
    /// in `0..=`[`RATING_LIMIT`]. The error names the field.
    pub fn validate(&self) -> crate::Result<()> {
        within("amazing_strike_damage", self.amazing_strike_damage, RATING_LIMIT)?;
        within("point_blank_damage", self.point_blank_damage, RATING_LIMIT)?;
        if !(0..=RATING_LIMIT).contains(&self.knock_down_penalty) {
            return Err(Error::out_of_range(
                "knock_down_penalty",
                self.knock_down_penalty,
                0,
                RATING_LIMIT,
            ));
        }
        Ok(())
    }
}

/// What an amazing strike does (Full Contact "Amazing Strikes and
/// Defenses": "some common examples would be double damage from an amazing
/// strike").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AmazingStrikeRule {
    /// The blow's damage plus `amazing_strike_damage` (the default).
    #[default]
    Flat,
    /// Double the blow's damage (`amazing_strike_damage` unread).
    DoubleDamage,
}

impl AmazingStrikeRule {
    /// Whether this is the default, [`AmazingStrikeRule::Flat`].
    pub const fn is_flat(&self) -> bool {
        matches!(self, AmazingStrikeRule::Flat)
    }
}

/// What an amazing defense does to the attacker (Full Contact: "the
/// attacker gets accidentally disarmed or knocked down by an amazing
/// defense").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AmazingDefenseRule {
    /// Nothing beyond the miss (the default).
    #[default]
    None,
    /// The attacker is disarmed: its weapon's next action is lost.
    Disarm,
    /// The attacker is knocked down: `knock_down_penalty` off its Defense
    /// Rating until its next action.
    KnockDown,
}

impl AmazingDefenseRule {
    /// Whether this is the default, [`AmazingDefenseRule::None`].
    pub const fn is_none(&self) -> bool {
        matches!(self, AmazingDefenseRule::None)
    }
}

/// Options of FUDGE opposed striking in a battle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FudgeRules {
    /// The minimum rolled result to hit (Poor against an equal-sized foe).
    pub minimum_to_hit: Level,
    /// The lone fighter's penalty per attacker beyond the first (FUDGE
    /// 4.34: 1; "this penalty can be reduced" for epic games: 0 turns it
    /// off), 0..=[`MULTI_FOE_PENALTY_LIMIT`]. In a file an integer, or
    /// `true` (1) and `false` (0) as files written before it was a number
    /// say.
    #[serde(deserialize_with = "per_foe")]
    pub multi_foe_penalty: u32,
    /// The GM's one 2dF for each side's fighters at a moment, instead of
    /// each fighter's 4dF (FUDGE 4.34); a fighter alone on its side still
    /// rolls its own 4dF.
    pub group_roll: bool,
    /// Who an opposed roll can hurt: both fighters, the winner hurting the
    /// loser (FUDGE 4.22, the default), or only the one who struck.
    pub exchange: ExchangeRule,
    /// FUDGE 4.34's lone fighter, in battles (docs/rules.md §2.2.6): a
    /// fighter in exchanges with two or more foes at one moment rolls once
    /// against them all and wounds one of them only by beating or tying
    /// every one (the default); `false` fights each exchange on its own.
    /// Read with the two-way exchange only.
    pub lone_fighter: bool,
    /// FUDGE 4.34's optional sweeping blow: the lone fighter may wound
    /// every foe he bested, each blow reduced by 1 or 2 per foe beyond the
    /// first. Off by default.
    pub sweeping_blow: SweepingBlow,
}

impl Default for FudgeRules {
    fn default() -> Self {
        FudgeRules {
            minimum_to_hit: Level::POOR,
            multi_foe_penalty: 1,
            group_roll: false,
            exchange: ExchangeRule::TwoWay,
            lone_fighter: true,
            sweeping_blow: SweepingBlow::Off,
        }
    }
}

/// The largest per-foe penalty [`FudgeRules::multi_foe_penalty`] takes.
pub const MULTI_FOE_PENALTY_LIMIT: u32 = 10;

impl FudgeRules {
    /// Checks the options' ranges: the minimum to hit within
    /// ±[`RATING_LIMIT`], the per-foe penalty at most
    /// [`MULTI_FOE_PENALTY_LIMIT`]. The error names the field.
    pub fn validate(&self) -> crate::Result<()> {
        within("minimum_to_hit", self.minimum_to_hit.value(), RATING_LIMIT)?;
        if self.multi_foe_penalty > MULTI_FOE_PENALTY_LIMIT {
            return Err(Error::out_of_range(
                "multi_foe_penalty",
                self.multi_foe_penalty,
                0,
                MULTI_FOE_PENALTY_LIMIT,
            ));
        }
        Ok(())
    }

    /// The penalty of a fighter engaged by `attackers` foes (FUDGE 4.34):
    /// the per-foe penalty for each beyond the first.
    #[inline]
    pub const fn outnumbered(&self, attackers: u32) -> i32 {
        let n = attackers.saturating_sub(1).saturating_mul(self.multi_foe_penalty);
        if n > i32::MAX as u32 { i32::MAX } else { n as i32 }
    }
}

/// `multi_foe_penalty`: an integer, or a bool (1 or 0).
fn per_foe<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
    struct V;
    impl serde::de::Visitor<'_> for V {
        type Value = u32;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a penalty per foe beyond the first (0, 1, 2...) or true (1) / false (0)")
        }
        fn visit_bool<E: serde::de::Error>(self, b: bool) -> Result<u32, E> {
            Ok(u32::from(b))
        }
        fn visit_u64<E: serde::de::Error>(self, n: u64) -> Result<u32, E> {
            u32::try_from(n).map_err(|_| E::invalid_value(serde::de::Unexpected::Unsigned(n), &self))
        }
        fn visit_i64<E: serde::de::Error>(self, n: i64) -> Result<u32, E> {
            u32::try_from(n).map_err(|_| E::invalid_value(serde::de::Unexpected::Signed(n), &self))
        }
    }
    d.deserialize_any(V)
}

/// Who a FUDGE opposed roll can hurt (docs/rules.md §2.2.2).
///
/// FUDGE 4.22 plays combat as exchanges: both fighters roll, and the
/// winner, if his result reaches the minimum to hit, hurts the loser,
/// whichever of the two struck. The one-way strike, where only the striker
/// can hurt and a defender who wins merely escapes, is kept for designers
/// who want it (and is how encounters saved before the exchange existed
/// play on).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ExchangeRule {
    /// FUDGE 4.22: the winner of the roll hurts the loser.
    #[default]
    TwoWay,
    /// Only the striker can hurt; a defender who wins is not hurt and does
    /// no harm.
    OneWay,
}

impl ExchangeRule {
    /// The names in files and sweeps: `"two_way"`, `"one_way"`.
    pub const NAMES: [&'static str; 2] = ["two_way", "one_way"];

    /// Its name in files and sweeps.
    pub const fn name(self) -> &'static str {
        match self {
            ExchangeRule::TwoWay => "two_way",
            ExchangeRule::OneWay => "one_way",
        }
    }
}
