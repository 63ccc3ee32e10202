//! Mirrors of the tracker's strikes (`skirmish_core::tracker::strike`):
//! the options and typed dice of a strike, and its report. Conversion only.

use skirmish_core::Error as CoreError;
use skirmish_core::striking::full_contact::RangedShot as CoreRangedShot;
use skirmish_core::tracker as core;

use crate::damage::WoundLevel;

/// A ranged shot: the weapon's Short Range and Range Strength and the
/// distance to the target.
#[derive(Debug, Clone, Copy, PartialEq, Eq, uniffi::Record)]
pub struct RangedShot {
    /// The weapon's Short Range.
    pub short_range: i64,
    /// The weapon's Range Strength.
    pub range_strength: i64,
    /// The distance to the target.
    pub distance: i64,
}

impl TryFrom<RangedShot> for CoreRangedShot {
    type Error = CoreError;
    fn try_from(r: RangedShot) -> Result<CoreRangedShot, CoreError> {
        CoreRangedShot::new(r.short_range, r.range_strength, r.distance).map_err(|e| e.in_field("options.range"))
    }
}

/// How a strike at the table is made (the core's
/// `tracker::EncounterStrikeOptions`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, uniffi::Record)]
pub struct EncounterStrikeOptions {
    /// The defender parries (Full Contact): it rolls too.
    #[uniffi(default = false)]
    pub parry: bool,
    /// A ranged shot (Full Contact).
    #[uniffi(default = None)]
    pub range: Option<RangedShot>,
    /// Point-blank range (Full Contact): +2 SR.
    #[uniffi(default = false)]
    pub point_blank: bool,
    /// The GM's modifier to the attack.
    #[uniffi(default = 0)]
    pub modifier: i32,
    /// FUDGE 4.32: the attacker's posture this exchange (-2..=2); `null`:
    /// its own.
    #[uniffi(default = None)]
    pub attacker_posture: Option<i32>,
    /// FUDGE 4.32: the defender's posture this exchange; `null`: its own.
    #[uniffi(default = None)]
    pub defender_posture: Option<i32>,
}

impl TryFrom<EncounterStrikeOptions> for core::EncounterStrikeOptions {
    type Error = CoreError;
    fn try_from(o: EncounterStrikeOptions) -> Result<core::EncounterStrikeOptions, CoreError> {
        Ok(core::EncounterStrikeOptions {
            parry: o.parry,
            range: o.range.map(TryInto::try_into).transpose()?,
            point_blank: o.point_blank,
            modifier: o.modifier,
            attacker_posture: o.attacker_posture,
            defender_posture: o.defender_posture,
        })
    }
}

/// Rolls typed in from the table (4dF, -4..=4); a roll left out the
/// encounter rolls.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, uniffi::Record)]
pub struct StrikeDice {
    /// The attacker's 4dF.
    #[uniffi(default = None)]
    pub attack: Option<i32>,
    /// The defender's 4dF (a parry, or FUDGE opposed striking).
    #[uniffi(default = None)]
    pub defense: Option<i32>,
}

impl From<StrikeDice> for core::StrikeDice {
    fn from(d: StrikeDice) -> core::StrikeDice {
        core::StrikeDice {
            attack: d.attack,
            defense: d.defense,
        }
    }
}

/// One term of a total: `"strike rating" 9`, `"roll" -1`.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct Part {
    /// What it is.
    pub label: String,
    /// Its value.
    pub value: i32,
}

impl From<core::Part> for Part {
    fn from(p: core::Part) -> Part {
        Part {
            label: p.label,
            value: p.value,
        }
    }
}

/// How a strike came out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, uniffi::Enum)]
pub enum StrikeResult {
    /// A hit.
    Hit,
    /// An amazing strike.
    AmazingStrike,
    /// A +4 that always hits.
    GuaranteedHit,
    /// A miss.
    Miss,
    /// An amazing defense.
    AmazingDefense,
    /// A -4 that always misses.
    Fumble,
    /// Out of the weapon's reach.
    OutOfReach,
    /// Parried.
    Parried,
    /// Below the minimum result to hit (FUDGE).
    BelowMinimum,
    /// FUDGE, a two-way exchange: the defender won and hurt the attacker.
    Countered,
    /// FUDGE: won, but in all-out defense, which cannot harm.
    CannotHarm,
}

impl From<core::StrikeResult> for StrikeResult {
    fn from(r: core::StrikeResult) -> StrikeResult {
        match r {
            core::StrikeResult::Hit => StrikeResult::Hit,
            core::StrikeResult::AmazingStrike => StrikeResult::AmazingStrike,
            core::StrikeResult::GuaranteedHit => StrikeResult::GuaranteedHit,
            core::StrikeResult::Miss => StrikeResult::Miss,
            core::StrikeResult::AmazingDefense => StrikeResult::AmazingDefense,
            core::StrikeResult::Fumble => StrikeResult::Fumble,
            core::StrikeResult::OutOfReach => StrikeResult::OutOfReach,
            core::StrikeResult::Parried => StrikeResult::Parried,
            core::StrikeResult::BelowMinimum => StrikeResult::BelowMinimum,
            core::StrikeResult::Countered => StrikeResult::Countered,
            core::StrikeResult::CannotHarm => StrikeResult::CannotHarm,
        }
    }
}

/// What a strike did, with every number that went into it.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct StrikeReport {
    /// Who struck.
    pub attacker: u32,
    /// Whom.
    pub target: u32,
    /// The striking system's name.
    pub striking: String,
    /// The attacker's 4dF.
    pub attack_roll: i32,
    /// The defender's 4dF, if it rolled.
    pub defense_roll: Option<i32>,
    /// The attack's total.
    pub attack_total: i32,
    /// Its terms.
    pub attack_breakdown: Vec<Part>,
    /// The defense's total.
    pub defense_total: i32,
    /// Its terms.
    pub defense_breakdown: Vec<Part>,
    /// The parry's total, if parried.
    pub parry_total: Option<i32>,
    /// How it came out.
    pub result: StrikeResult,
    /// The margin (attack minus defense, or FUDGE's relative degree).
    pub margin: i32,
    /// Whether it landed.
    pub landed: bool,
    /// The damage it did.
    pub damage: i32,
    /// The target's worst wound after it (wound track), if any.
    pub wound: Option<WoundLevel>,
    /// The wound box this blow marked (wound track), if any.
    pub marked: Option<WoundLevel>,
    /// The target's hit points after it (hit points).
    pub hit_points: Option<i32>,
    /// The target's wound penalty now (it counts from the next moment on).
    pub penalty: i32,
    /// The target went down.
    pub went_down: bool,
    /// The target died.
    pub died: bool,
    /// The target's disruptible action was lost.
    pub disrupted: bool,
    /// A FUDGE two-way exchange won by the defender (`Countered`): the
    /// damage he did to the attacker; 0 otherwise.
    pub counter_damage: i32,
    /// The defender's answer took the attacker out of the fight.
    pub attacker_went_down: bool,
    /// The defender's answer killed the attacker.
    pub attacker_died: bool,
    /// The defender's answer disrupted the attacker's disruptible action.
    pub attacker_disrupted: bool,
    /// The log line.
    pub text: String,
}

impl From<core::StrikeReport> for StrikeReport {
    fn from(r: core::StrikeReport) -> StrikeReport {
        StrikeReport {
            attacker: r.attacker.0,
            target: r.target.0,
            striking: r.striking,
            attack_roll: r.attack_roll,
            defense_roll: r.defense_roll,
            attack_total: r.attack_total,
            attack_breakdown: r.attack_breakdown.into_iter().map(Into::into).collect(),
            defense_total: r.defense_total,
            defense_breakdown: r.defense_breakdown.into_iter().map(Into::into).collect(),
            parry_total: r.parry_total,
            result: r.result.into(),
            margin: r.margin,
            landed: r.landed,
            damage: r.damage,
            wound: r.wound.map(Into::into),
            marked: r.marked.map(Into::into),
            hit_points: r.hit_points,
            penalty: r.penalty,
            went_down: r.went_down,
            died: r.died,
            disrupted: r.disrupted,
            counter_damage: r.counter_damage,
            attacker_went_down: r.attacker_went_down,
            attacker_died: r.attacker_died,
            attacker_disrupted: r.attacker_disrupted,
            text: r.text,
        }
    }
}
