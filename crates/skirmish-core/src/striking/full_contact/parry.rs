//! Parrying as a choice ("Parrying"; docs/rules.md §2.1.4): the exact
//! chance that a parry knocks an attack aside, over the parry's 4dF or
//! over both rolls, and a fighter's policy of when to parry.
//!
//! The parry itself, one pair of rolls, is [`parry`]; everything here
//! applies its decision (the same `decide` as every strike) to each roll.

use serde::{Deserialize, Serialize};

use super::odds::{FOUR_DF_COUNTS, FOUR_DF_TOTAL};
use super::resolve::{ROLL_MIN, decide};
use super::*;
use crate::dice::Probability;

/// When a fighter parries a blow aimed at it (a scenario group's or a
/// profile's `parry`; docs/rules.md §2.1.4 and §5).
///
/// The policy is asked once the attack has been rolled: the parry is "a
/// Strike roll, made against the final Strike value of the attack", so
/// the parrier knows that value, and a blow that would not land is never
/// parried (failing a parry costs nothing but "suffering the blow", and
/// there is no blow to suffer).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ParryPolicy {
    /// Never parries (the default: battles as they were).
    #[default]
    Never,
    /// Parries every blow that would land.
    Always,
    /// Parries a blow that would land when the exact chance that the parry
    /// knocks it aside ([`parry_chance`]) is higher than the exact chance
    /// that the parrier's own strike at the attacker hits ([`odds`]): the
    /// parry spends that strike (docs/rules.md §2.1.4). A tie keeps the
    /// strike.
    WhenBetter,
}

impl ParryPolicy {
    /// The names in files and sweeps.
    pub const NAMES: [&'static str; 3] = ["never", "always", "when_better"];

    /// Its name in files and sweeps: `"never"`, `"always"`, `"when_better"`.
    pub const fn name(self) -> &'static str {
        match self {
            ParryPolicy::Never => "never",
            ParryPolicy::Always => "always",
            ParryPolicy::WhenBetter => "when_better",
        }
    }

    /// Whether this is [`ParryPolicy::Never`] (serde skips the default).
    pub const fn is_never(&self) -> bool {
        matches!(self, ParryPolicy::Never)
    }

    /// Whether a fighter of this policy parries an attack whose final
    /// value is `attack_total` (SR after range + Strike roll), with a
    /// parry of `parry_strike_rating`, when its own strike at the attacker
    /// would be `own_strike_rating` against `attacker_defense_rating`
    /// (wound penalties included in all three). The one home of the
    /// choice: battles call it for every blow that would land.
    ///
    /// ```
    /// use skirmish_core::striking::full_contact::{ParryPolicy, StrikeOptions};
    /// let core = StrikeOptions::default();
    /// // Brooklyn (knife SR 6) against the guard's thrust totalling 9:
    /// // a parry needs +4 (1/81); her own strike at his DR 7 needs +2 (15/81).
    /// assert!(!ParryPolicy::WhenBetter.parries(6, 9, 6, 7, core));
    /// // Against a thrust totalling 6, a parry needs +1 (31/81).
    /// assert!(ParryPolicy::WhenBetter.parries(6, 6, 6, 7, core));
    /// assert!(ParryPolicy::Always.parries(6, 9, 6, 7, core));
    /// assert!(!ParryPolicy::Never.parries(6, 6, 6, 7, core));
    /// ```
    #[inline]
    pub fn parries(
        self,
        parry_strike_rating: i32,
        attack_total: i64,
        own_strike_rating: i32,
        attacker_defense_rating: i32,
        options: StrikeOptions,
    ) -> bool {
        match self {
            ParryPolicy::Never => false,
            ParryPolicy::Always => true,
            ParryPolicy::WhenBetter => {
                let parry = parry_chance(parry_strike_rating, attack_total, options);
                let strike = odds(own_strike_rating, attacker_defense_rating, options).hit;
                // Both are counts out of 81: compare the counts.
                parry.numerator > strike.numerator
            }
        }
    }
}

impl std::str::FromStr for ParryPolicy {
    type Err = crate::Error;
    fn from_str(s: &str) -> Result<ParryPolicy, Self::Err> {
        match s.trim() {
            "never" => Ok(ParryPolicy::Never),
            "always" => Ok(ParryPolicy::Always),
            "when_better" => Ok(ParryPolicy::WhenBetter),
            other => Err(crate::Error::unknown_name("parry policy", other, ParryPolicy::NAMES)),
        }
    }
}

/// The exact chance, out of the 81 outcomes of the parry's 4dF, that a
/// parry of `parry_strike_rating` knocks aside an attack whose final value
/// is `attack_total`: the parry is a strike against that value, so it
/// needs to exceed it (a tie fails), with the optional rules of `options`
/// (a guaranteed +4 parries anything; a fumbled -4 never parries).
///
/// ```
/// use skirmish_core::striking::full_contact::{parry_chance, StrikeOptions};
/// // Brooklyn's knife (SR 6) against the thrust totalling 9: only +4 beats it.
/// assert_eq!(parry_chance(6, 9, StrikeOptions::default()).to_string(), "1/81 (1.23%)");
/// ```
#[inline]
pub fn parry_chance(parry_strike_rating: i32, attack_total: i64, options: StrikeOptions) -> Probability {
    let sr = i64::from(parry_strike_rating);
    let mut parried = 0;
    for (i, weight) in FOUR_DF_COUNTS.iter().enumerate() {
        if decide(sr, attack_total, ROLL_MIN + i as i32, options).is_hit() {
            parried += weight;
        }
    }
    Probability {
        numerator: parried,
        denominator: FOUR_DF_TOTAL,
    }
}

/// The exact chances of a parried attack, over both 4dF rolls (the
/// attack's, then the parry's: 81 x 81 = 6561 equally likely pairs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ParryOdds {
    /// The parry beats the attack's final value (whether or not the
    /// attack would have landed).
    pub parried: Probability,
    /// The attack would land on the defender's DR and the parry knocks it
    /// aside: what the parry saves.
    pub blocked: Probability,
    /// The attack lands: it hits the DR and the parry fails.
    pub lands: Probability,
    /// The attack would land with no parry (the strike's own hit chance,
    /// over 6561 to compare).
    pub lands_unparried: Probability,
    /// For each attack roll, -4 first: the chance (out of 81) that the
    /// parry beats that attack's final value.
    pub by_attack_roll: [Probability; 9],
}

/// The exact odds of an attack of `attack_strike_rating` at a defender of
/// `defense_rating` who parries with `parry_strike_rating` (wound
/// penalties included), under `options` for both rolls (a parry is a
/// Strike roll, docs/rules.md §2.1.4).
///
/// ```
/// use skirmish_core::striking::full_contact::{parry_odds, StrikeOptions};
/// // The guard's naginata (SR 7) at Brooklyn (DR 7), her knife parrying at SR 6.
/// let o = parry_odds(7, 6, 7, StrikeOptions::default());
/// // Against a +2 thrust (total 9) only her +4 parries.
/// assert_eq!(o.by_attack_roll[6].numerator, 1);
/// assert_eq!(o.lands_unparried.to_string(), "2511/6561 (38.27%)");
/// assert_eq!(o.lands.numerator + o.blocked.numerator, o.lands_unparried.numerator);
/// ```
pub fn parry_odds(
    attack_strike_rating: i32,
    parry_strike_rating: i32,
    defense_rating: i32,
    options: StrikeOptions,
) -> ParryOdds {
    let (sr, dr) = (i64::from(attack_strike_rating), i64::from(defense_rating));
    let by_attack_roll: [Probability; 9] = std::array::from_fn(|i| {
        let roll = ROLL_MIN + i as i32;
        parry_chance(parry_strike_rating, sr + i64::from(roll), options)
    });
    let (mut parried, mut blocked, mut lands, mut would) = (0, 0, 0, 0);
    for (i, (weight, p)) in FOUR_DF_COUNTS.iter().zip(by_attack_roll).enumerate() {
        let hits = decide(sr, dr, ROLL_MIN + i as i32, options).is_hit();
        parried += weight * p.numerator;
        if hits {
            would += weight * FOUR_DF_TOTAL;
            blocked += weight * p.numerator;
            lands += weight * (FOUR_DF_TOTAL - p.numerator);
        }
    }
    let pair = |numerator| Probability {
        numerator,
        denominator: FOUR_DF_TOTAL * FOUR_DF_TOTAL,
    };
    ParryOdds {
        parried: pair(parried),
        blocked: pair(blocked),
        lands: pair(lands),
        lands_unparried: pair(would),
        by_attack_roll,
    }
}
