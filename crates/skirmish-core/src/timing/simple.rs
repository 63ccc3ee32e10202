//! Simple Rounds (Relativity, "Simple Rounds (D&D Style)"; docs/rules.md §1.2),
//! and the initiative roll that Graduated Rounds and Continuous share.
//!
//! - **Initiative** = 4dF + 5 (1..9) + Time Taken - speed bonus; a total of
//!   0 or less counts as 1 ("1 is the very beginning of the next round").
//!   Lowest goes first; equal totals act at the same instant.
//! - **Multiple actions**: everyone's first action in initiative order, then
//!   a second pass of those with a second action in the same order, and so
//!   on. Actions per round come from the Rate of Fire with the fractional
//!   decision of docs/rules.md §1.2 (a weapon with RoF n/k fires
//!   `ceil(r*n/k) - ceil((r-1)*n/k)` times in its r-th round of use, see
//!   [`RateOfFire::shots_in_round`](crate::tables::weapons::RateOfFire::shots_in_round)),
//!   plus extra attacks from gear ("Bracers of Archery").
//! - **Disruptible actions** (spells) are cancelled if the actor is hit
//!   before they land: [`Scheduler::disrupt`](super::Scheduler::disrupt).
//!
//! On the event queue, pass `p` of a round lands on absolute tick
//! `base + (p - 1) * span + initiative`, where `span` is the round's highest
//! initiative; [`Moment::display`](super::Moment::display) is the initiative
//! and [`Moment::pass`](super::Moment::pass) the pass.

use crate::error::{Error, Result};

use super::{Declaration, MAX_ACTIONS};
use crate::tables::weapons::RateOfFire;

/// The smallest initiative: "a calculated Initiative of 0 or less counts as 1".
pub const MIN_INITIATIVE: i64 = 1;

/// What the initiative adds to its 4dF roll before the declaration's
/// [`time_offset`](Declaration::time_offset): 4dF + 5 runs 1..9.
pub const INITIATIVE_BASE: i64 = 5;

/// The initiative formula, the one home of it: `roll + 5 + offset`, at
/// least [`MIN_INITIATIVE`], where `offset` is the declaration's
/// [`time_offset`](Declaration::time_offset) (TT + extra preparation -
/// speed bonus). The roll is not checked: [`initiative`] checks a roll
/// typed in; the battle engine's clocks draw theirs from 4dF.
///
/// ```
/// use skirmish_core::timing::simple::initiative_from;
/// assert_eq!(initiative_from(-1, 1), 5); // Roland
/// assert_eq!(initiative_from(-4, -9), 1); // never below 1
/// ```
#[inline]
pub const fn initiative_from(roll: i64, offset: i64) -> i64 {
    let total = roll + INITIATIVE_BASE + offset;
    if total < MIN_INITIATIVE { MIN_INITIATIVE } else { total }
}

/// The highest initiative a declaration with this `offset` can roll (4dF
/// at +4): a round's length bound for the clocks that lay one out.
#[inline]
pub const fn highest_initiative(offset: i64) -> i64 {
    initiative_from(4, offset)
}

/// Relativity initiative from a 4dF `roll`: `roll + 5 + TT - bonus`, at
/// least 1. `extra_preparation` counts as Time Taken.
///
/// ```
/// use skirmish_core::timing::{simple::initiative, Declaration};
/// // Roland: roll of 4 (-1 on the 4dF), elven bow TT 2, bonus +1 -> 5.
/// assert_eq!(initiative(-1, &Declaration::new(2, 1)).unwrap(), 5);
/// // Cardiff: roll of 1 (-4), two-handed sword TT 7, bonus 0 -> 8.
/// assert_eq!(initiative(-4, &Declaration::new(7, 0)).unwrap(), 8);
/// // A big bonus cannot take it below 1.
/// assert_eq!(initiative(-4, &Declaration::new(0, 9)).unwrap(), 1);
/// ```
pub fn initiative(roll: i32, declaration: &Declaration) -> Result<i64> {
    if !(-4..=4).contains(&roll) {
        return Err(Error::out_of_range("initiative.roll", roll, -4, 4));
    }
    Ok(initiative_from(i64::from(roll), declaration.time_offset()))
}

/// Actions in the actor's `round_of_use`-th round with this declaration:
/// the Rate of Fire's share of that round plus extra attacks from gear.
///
/// ```
/// use skirmish_core::tables::weapons::RateOfFire;
/// use skirmish_core::timing::{simple::actions_in_round, Declaration};
/// let mace = Declaration::new(3, 0).with_rate_of_fire("4/3".parse().unwrap());
/// assert_eq!([1, 2, 3, 4].map(|r| actions_in_round(&mace, r)), [2, 1, 1, 2]);
/// ```
pub fn actions_in_round(declaration: &Declaration, round_of_use: u32) -> u32 {
    actions_with(declaration.rate_of_fire, declaration.extra_attacks, round_of_use)
}

/// Actions in the `round_of_use`-th round from a Rate of Fire and extra
/// attacks, at most [`MAX_ACTIONS`]: the one home of the actions-per-round
/// rule, which [`actions_in_round`], the Scheduler and the battle engine's
/// round clocks call.
///
/// ```
/// use skirmish_core::timing::simple::actions_with;
/// // A bow at 1/2 with Bracers of Archery (one extra attack).
/// let rof = "1/2".parse().unwrap();
/// assert_eq!([1, 2, 3].map(|r| actions_with(rof, 1, r)), [2, 1, 2]);
/// ```
#[inline]
pub fn actions_with(rate_of_fire: RateOfFire, extra_attacks: u32, round_of_use: u32) -> u32 {
    rate_of_fire
        .shots_in_round(round_of_use)
        .saturating_add(extra_attacks)
        .min(MAX_ACTIONS)
}
