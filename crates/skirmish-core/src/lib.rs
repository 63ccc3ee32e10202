//! # skirmish-core
//!
//! The rules of tabletop-RPG combat, as the Fudge articles *Full Contact*
//! and *Relativity*, FUDGE chapter 4, the Tick System and FUZION Action
//! Blocks give them. Combat is three independent parts, and any timing
//! system works with any striking system and any damage model:
//!
//! - **timing**, when an action lands: [`timing`] (the shared event
//!   queue, [`timing::queue::EventQueue`]);
//! - **striking**, whether it hits: [`striking::full_contact`] (Strike and
//!   Defense Ratings, one roll of 4dF, exact odds) and [`striking::opposed`]
//!   (FUDGE opposed rolls, postures, many foes, ranged);
//! - **damage**, what the hit does: [`damage`] (the FUDGE wound track by
//!   default, or hit points; pluggable through [`damage::DamageModel`]).
//!
//! Underneath: [`dice`] (roll sources: a seeded portable generator or rolls
//! the caller supplies, and exact distributions), [`ladder`] (the Fudge trait
//! ladder, plus-levels, half-toward-zero bonuses) and [`tables`] (every
//! weapon speed and armor row of the texts).
//!
//! Every rule that rolls takes a [`dice::RollSource`]; bad input is an
//! [`Error`] that names the field and the problem, never a panic.
//!
//! # Example
//!
//! Cardiff the paladin swings his blessed two-handed sword at a goblin
//! sentry (the *Full Contact* example, with the text's roll of -1), and the
//! blow goes on the goblin's FUDGE wound track:
//!
//! ```
//! use skirmish_core::damage::{DamageFactors, DamageModel, FudgeWounds, WoundLevel};
//! use skirmish_core::dice::ScriptedRolls;
//! use skirmish_core::ladder::Level;
//! use skirmish_core::striking::full_contact::{
//!     roll_strike, DefenseRating, StrikeOptions, StrikeOutcome, StrikeRating, odds,
//! };
//!
//! # fn main() -> skirmish_core::Result<()> {
//! let cardiff = StrikeRating::builder()
//!     .skill(Level::GREAT)
//!     .attribute("strength", Level::SUPERB)
//!     .weapon(Level::GOOD)
//!     .build()?;
//! assert_eq!(cardiff.to_string(), "5 base + 2 skill + 1 strength + 1 weapon = 9");
//!
//! let goblin = DefenseRating::builder().armor(3).build()?; // DR 6
//! assert_eq!(goblin.total(), 6);
//!
//! // Exact odds before rolling: 76 of the 81 4dF rolls hit.
//! let o = odds(cardiff.total(), goblin.total(), StrikeOptions::default());
//! assert_eq!((o.hit.numerator, o.hit.denominator), (76, 81));
//!
//! // The table rolls -1: 9 - 1 > 6, a hit by 2.
//! let mut table = ScriptedRolls::new([-1]);
//! let strike = roll_strike(&mut table, cardiff.total(), goblin.total(), None, StrikeOptions::default())?;
//! assert_eq!(strike.outcome, StrikeOutcome::Hit { margin: 2 });
//!
//! // Damage = margin + offense (Strength 1, sword 1) - defense (armor 1) = 3: Hurt.
//! let hit = DamageFactors::new(1, 1, 0).against(1, 0, 0).damage(strike.outcome.margin() as i32)?;
//! assert_eq!(hit.damage, 3);
//! let damage = hit.damage;
//! let wounds = FudgeWounds::default();
//! let mut goblin_track = wounds.fresh();
//! wounds.apply(&mut goblin_track, damage);
//! assert_eq!(goblin_track.worst(), Some(WoundLevel::Hurt));
//! assert_eq!(wounds.wound_penalty(&goblin_track), -1);
//! # Ok(())
//! # }
//! ```
//!
//! # Reproducibility
//!
//! [`dice::SeededRolls`] gives the same rolls for the same seed on every
//! platform and in every release (see the [`dice`] module); golden tests pin
//! exact values.

#![deny(missing_docs)]

pub mod combat;
pub mod damage;
pub mod dice;
pub mod distance;
pub mod error;
pub mod fighter;
pub mod ladder;
pub mod morale;
pub mod striking;
pub mod tables;
pub mod timing;
pub mod tracker;

pub use error::{Error, Result};

/// The repository README's code examples, compiled and run as doc tests so
/// they stay true.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
pub struct ReadmeDoctests;
