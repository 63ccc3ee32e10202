//! Mirrors of [`skirmish_core::striking::full_contact`]: the exact odds of a
//! Full Contact strike, for the app to show before the dice are rolled.

use skirmish_core::dice::Probability as CoreProbability;
use skirmish_core::striking::full_contact as core;

use crate::error::{Result, guard};

/// The optional rules of Full Contact striking.
#[derive(Debug, Clone, Copy, PartialEq, Eq, uniffi::Record)]
pub struct StrikeOptions {
    /// "Guaranteed Successes and Fumbles": a +4 always hits, a -4 always misses.
    #[uniffi(default = false)]
    pub guaranteed_success_and_fumble: bool,
    /// "Amazing Strikes and Defenses".
    #[uniffi(default = false)]
    pub amazing: bool,
    /// "Point-Blank Range": +2 SR against a target nearer than the weapon's Range Strength.
    #[uniffi(default = false)]
    pub point_blank: bool,
}

impl From<StrikeOptions> for core::StrikeOptions {
    fn from(o: StrikeOptions) -> core::StrikeOptions {
        core::StrikeOptions {
            guaranteed_success_and_fumble: o.guaranteed_success_and_fumble,
            amazing: o.amazing,
            point_blank: o.point_blank,
        }
    }
}

/// An exact probability: `numerator` of `denominator` equally likely rolls.
#[derive(Debug, Clone, Copy, PartialEq, uniffi::Record)]
pub struct Probability {
    /// Favourable outcomes (e.g. 76).
    pub numerator: u64,
    /// All outcomes (81 for 4dF).
    pub denominator: u64,
    /// The value as a float, for display.
    pub value: f64,
}

impl From<CoreProbability> for Probability {
    fn from(p: CoreProbability) -> Probability {
        Probability {
            numerator: p.numerator,
            denominator: p.denominator,
            value: p.value(),
        }
    }
}

/// The outcome of one Strike roll.
#[derive(Debug, Clone, Copy, PartialEq, Eq, uniffi::Enum)]
pub enum StrikeOutcome {
    /// SR + roll > DR: the blow lands.
    Hit {
        /// SR + roll - DR.
        margin: i64,
    },
    /// Optional: a hit by 4 or more, or a hit on a roll of +4.
    AmazingStrike {
        /// SR + roll - DR.
        margin: i64,
    },
    /// Optional: a +4 that lands only because of the guaranteed-success rule.
    GuaranteedHit {
        /// SR + roll - DR.
        margin: i64,
    },
    /// SR + roll <= DR: the blow does not land.
    Miss {
        /// SR + roll - DR.
        margin: i64,
    },
    /// Optional: DR beats SR + roll by 3 or more, or a miss on a -4.
    AmazingDefense {
        /// SR + roll - DR.
        margin: i64,
    },
    /// Optional: a -4 that misses only because of the fumble rule.
    Fumble {
        /// SR + roll - DR.
        margin: i64,
    },
    /// Range has reduced the SR to 0 or less: nothing can hit.
    OutOfReach {
        /// The SR after range adjustments.
        strike_rating: i64,
        /// SR + roll - DR with that SR.
        margin: i64,
    },
}

impl From<core::StrikeOutcome> for StrikeOutcome {
    fn from(o: core::StrikeOutcome) -> StrikeOutcome {
        match o {
            core::StrikeOutcome::Hit { margin } => StrikeOutcome::Hit { margin },
            core::StrikeOutcome::AmazingStrike { margin } => StrikeOutcome::AmazingStrike { margin },
            core::StrikeOutcome::GuaranteedHit { margin } => StrikeOutcome::GuaranteedHit { margin },
            core::StrikeOutcome::Miss { margin } => StrikeOutcome::Miss { margin },
            core::StrikeOutcome::AmazingDefense { margin } => StrikeOutcome::AmazingDefense { margin },
            core::StrikeOutcome::Fumble { margin } => StrikeOutcome::Fumble { margin },
            core::StrikeOutcome::OutOfReach { strike_rating, margin } => {
                StrikeOutcome::OutOfReach { strike_rating, margin }
            }
        }
    }
}

/// The exact odds of a Full Contact strike over the 81 rolls of 4dF.
#[derive(Debug, Clone, PartialEq, uniffi::Record)]
pub struct StrikeOdds {
    /// The blow lands (any kind of hit).
    pub hit: Probability,
    /// The blow does not land.
    pub miss: Probability,
    /// An amazing strike.
    pub amazing_strike: Probability,
    /// An amazing defense.
    pub amazing_defense: Probability,
    /// A hit only because of the guaranteed-success rule.
    pub guaranteed_hit: Probability,
    /// A miss only because of the fumble rule.
    pub fumble: Probability,
    /// Out of reach.
    pub out_of_reach: Probability,
    /// The outcome of each roll, -4 first (nine entries).
    pub by_roll: Vec<StrikeOutcome>,
    /// The lowest Strike roll that hits, if any does.
    pub lowest_hitting_roll: Option<i32>,
}

impl From<core::StrikeOdds> for StrikeOdds {
    fn from(o: core::StrikeOdds) -> StrikeOdds {
        StrikeOdds {
            hit: o.hit.into(),
            miss: o.miss.into(),
            amazing_strike: o.amazing_strike.into(),
            amazing_defense: o.amazing_defense.into(),
            guaranteed_hit: o.guaranteed_hit.into(),
            fumble: o.fumble.into(),
            out_of_reach: o.out_of_reach.into(),
            by_roll: o.by_roll.iter().copied().map(Into::into).collect(),
            lowest_hitting_roll: o.lowest_hitting_roll(),
        }
    }
}

/// The exact odds of a Full Contact strike of Strike Rating `strike_rating`
/// against Defense Rating `defense_rating`.
#[uniffi::export(default(options = None))]
pub fn strike_odds(strike_rating: i32, defense_rating: i32, options: Option<StrikeOptions>) -> Result<StrikeOdds> {
    guard(|| {
        let options = options.map_or(core::StrikeOptions::CORE, Into::into);
        Ok(core::odds(strike_rating, defense_rating, options).into())
    })
}

/// The exact odds of a parried Full Contact strike, over both 4dF rolls
/// (the attack's, then the parry's: 6561 equally likely pairs).
#[derive(Debug, Clone, PartialEq, uniffi::Record)]
pub struct ParryOdds {
    /// The parry beats the attack's SR + roll.
    pub parried: Probability,
    /// The blow would have landed and the parry knocks it aside.
    pub blocked: Probability,
    /// The blow hits the DR and the parry fails.
    pub lands: Probability,
    /// The blow would land with no parry.
    pub lands_unparried: Probability,
    /// For each attack roll, -4 first: the parry's chance (out of 81)
    /// against that attack's total.
    pub by_attack_roll: Vec<Probability>,
}

impl From<core::ParryOdds> for ParryOdds {
    fn from(o: core::ParryOdds) -> ParryOdds {
        ParryOdds {
            parried: o.parried.into(),
            blocked: o.blocked.into(),
            lands: o.lands.into(),
            lands_unparried: o.lands_unparried.into(),
            by_attack_roll: o.by_attack_roll.iter().copied().map(Into::into).collect(),
        }
    }
}

/// The exact odds of an attack of Strike Rating `strike_rating` at a
/// defender of Defense Rating `defense_rating` who parries at Strike Rating
/// `parry_strike_rating` (a Strike roll against the attack's SR + roll).
#[uniffi::export(default(options = None))]
pub fn parry_odds(
    strike_rating: i32,
    parry_strike_rating: i32,
    defense_rating: i32,
    options: Option<StrikeOptions>,
) -> Result<ParryOdds> {
    guard(|| {
        let options = options.map_or(core::StrikeOptions::CORE, Into::into);
        Ok(core::parry_odds(strike_rating, parry_strike_rating, defense_rating, options).into())
    })
}

/// When a fighter parries a blow that would land (Full Contact,
/// "Parrying"): the policy is asked once the attack is rolled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, uniffi::Enum)]
pub enum ParryPolicy {
    /// Never (the default).
    Never,
    /// Every blow that would land.
    Always,
    /// When the parry's exact chance against the attack's total beats the
    /// chance of its own strike at the attacker.
    WhenBetter,
}

impl From<ParryPolicy> for core::ParryPolicy {
    fn from(p: ParryPolicy) -> core::ParryPolicy {
        match p {
            ParryPolicy::Never => core::ParryPolicy::Never,
            ParryPolicy::Always => core::ParryPolicy::Always,
            ParryPolicy::WhenBetter => core::ParryPolicy::WhenBetter,
        }
    }
}

impl From<core::ParryPolicy> for ParryPolicy {
    fn from(p: core::ParryPolicy) -> ParryPolicy {
        match p {
            core::ParryPolicy::Never => ParryPolicy::Never,
            core::ParryPolicy::Always => ParryPolicy::Always,
            core::ParryPolicy::WhenBetter => ParryPolicy::WhenBetter,
        }
    }
}
