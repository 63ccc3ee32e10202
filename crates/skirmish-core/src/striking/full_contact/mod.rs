//! Full Contact striking (the "Full Contact" striking article; docs/rules.md §2.1).
//!
//! One number for the attacker, one for the defender, one roll of 4dF:
//!
//! - **Strike Rating** ("Calculating Strike Rating (SR)"): 5 + weapon
//!   skill + half of each relevant attribute (rounded toward zero) +
//!   weapon quality (+ magic). Built with [`StrikeRating::builder`].
//! - **Defense Rating** ("Calculating Defense Rating (DR)"): 3 + defensive
//!   skill + half of relevant attributes + armor, shield, coverage (+ magic),
//!   with the surprised/unaware variant. Built with
//!   [`DefenseRating::builder`]; the armor table is
//!   [`tables::armor`](crate::tables::armor).
//! - **The Strike roll** ("Determining a Hit"): the blow lands iff
//!   SR + roll > DR; a tie goes to the defender. [`resolve`] decides one
//!   strike, [`odds`] gives the exact probabilities over the 81 outcomes of
//!   4dF by applying the very same decision to every roll.
//! - **Parrying**: a Strike roll against the attack's SR + roll ([`parry`]);
//!   its exact chances ([`parry_chance`], [`parry_odds`]) and a fighter's
//!   policy of when to parry ([`ParryPolicy`]).
//! - **Ranged weapons** ("Range Penalties", "Point-Blank Range"): -1 SR per
//!   Range Strength (or part) beyond Short range; an SR reduced to 0 or less
//!   by range cannot hit at all. [`WeaponRange`], [`RangedShot`],
//!   [`resolve_at_range`], [`odds_at_range`].
//! - **Optional rules** ("Special Success & Failure"): guaranteed success and
//!   fumble, amazing strikes and defenses, point-blank range, switched on
//!   with [`StrikeOptions`].
//!
//! # Decisions where the text is silent
//!
//! - *Guaranteed hits and amazing strikes.* "Could hit their opponent
//!   normally" means without the guaranteed-success rule: a +4 that hits
//!   only because of that rule is a [`StrikeOutcome::GuaranteedHit`], never
//!   an amazing strike; a -4 that misses only because of the fumble rule is a
//!   [`StrikeOutcome::Fumble`], never an amazing defense. So a guaranteed
//!   hit always has margin <= 0 and a fumble margin > 0.
//! - *Out of reach.* The "SR dropped to 0" rule applies when a range penalty
//!   actually applies (the target is beyond Short range) and the SR after
//!   all range adjustments (penalty and point-blank bonus) is 0 or less. It
//!   then beats every optional rule: no hit, no amazing defense, no fumble.
//!   A melee SR of 0 or less is not "out of reach": it simply needs a roll
//!   (or a guaranteed success) that beats the DR.
//! - *Unaware defenders* keep their skill and attribute *penalties*: only
//!   bonuses need awareness ("cannot apply things like dodge skills or
//!   agility bonuses"), and being surprised never makes anyone harder to
//!   hit. This is also why the text says Cardiff's DR "stays pretty much the
//!   same" when he is surprised: his -1 Agility stays, so it stays 7.
//! - *Parries* are Strike rolls (the text: "a parry ... is a Strike roll"),
//!   so the optional rules apply to them too when switched on.
//!
//! # Integer ranges
//!
//! Ratings are `i32`; a rating whose terms sum beyond `i32` is an
//! [`Error::Overflow`](crate::Error::Overflow). Distances are `i64` in the GM's unit (feet, metres,
//! hexes). Margins are `i64` and exact for every input, except for a shot
//! out of reach whose range penalty is beyond about `2^62` steps, where the
//! reported adjusted SR and margin saturate at `i64::MIN`.
//!
//! # Example
//!
//! Cardiff's sword against the goblin sentry, and the goblin's reply:
//!
//! ```
//! use skirmish_core::ladder::Level;
//! use skirmish_core::striking::full_contact::{resolve, DefenseRating, StrikeOptions, StrikeOutcome, StrikeRating};
//! use skirmish_core::tables::armor::armor;
//!
//! let sword = StrikeRating::builder()
//!     .skill(Level::GREAT)
//!     .attribute("strength", Level::SUPERB)
//!     .weapon(Level::GOOD)
//!     .build()?;
//! assert_eq!(sword.to_string(), "5 base + 2 skill + 1 strength + 1 weapon = 9");
//!
//! let cardiff = DefenseRating::builder()
//!     .skill(0)
//!     .attribute("agility", Level::TERRIBLE)
//!     .armor_from_table(armor("plate mail")?)
//!     .armor_from_table(armor("gauntlets, greaves & helm")?)
//!     .build()?;
//! assert_eq!(cardiff.to_string(), "3 base + 0 skill - 1 agility + 4 armor + 1 coverage = 7");
//!
//! let core = StrikeOptions::default();
//! // Cardiff rolls -1 against the goblin's DR 6: 9 - 1 > 6.
//! assert_eq!(resolve(sword.total(), 6, -1, core)?, StrikeOutcome::Hit { margin: 2 });
//! // The goblin (SR 5) rolls +2: 5 + 2 = 7 ties Cardiff's DR, and ties go to the defender.
//! let reply = resolve(5, cardiff.total(), 2, core)?;
//! assert_eq!(reply, StrikeOutcome::Miss { margin: 0 });
//! assert!(!reply.is_hit());
//! # Ok::<(), skirmish_core::Error>(())
//! ```

// Split by concern, every public item re-exported here so the paths stay
// `skirmish_core::striking::full_contact::*`: the ratings, range, the
// options and outcomes, the resolution and the exact odds.
mod odds;
mod outcome;
mod parry;
mod range;
mod ratings;
mod resolve;

#[cfg(test)]
mod tests;

pub use odds::*;
pub use outcome::*;
pub use parry::*;
pub use range::*;
pub use ratings::*;
pub use resolve::*;
