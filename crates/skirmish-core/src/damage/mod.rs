//! Damage: what a hit does to the one it hits (docs/rules.md §3).
//!
//! The texts leave damage to the game; this module makes it a pluggable part
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
//! use skirmish_core::damage::{DamageFactors, DamageModel, FudgeWounds, Condition, WoundLevel};
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
//! assert_eq!(outcome.after, Condition::Standing);
//! ```

// The code is split by concern; every item is re-exported here, so the
// public paths stay `skirmish_core::damage::*`.
mod choice;
mod factors;
mod hit_points;
mod model;
mod wounds;

#[cfg(test)]
mod tests;

pub use choice::*;
pub use factors::*;
pub use hit_points::*;
pub use model::*;
pub use wounds::*;
