//! The roll source: [`RollSource`], the one door every rule takes its dice
//! through, and the median-of-three roll built on it. Its own file because
//! it is the contract both sources ([`SeededRolls`](super::SeededRolls),
//! [`ScriptedRolls`](super::ScriptedRolls)) fulfil and every rule depends
//! on, whichever source plays.

use super::Dice;
use crate::error::Result;

/// Where a rule gets its dice: a seeded generator, or rolls the caller
/// supplies. Every rule that rolls takes one.
pub trait RollSource {
    /// The total of one roll of `dice`.
    ///
    /// # Errors
    /// A scripted source whose next roll does not fit `dice`, or that has
    /// run out, returns an error and consumes nothing.
    fn roll(&mut self, dice: Dice) -> Result<i32>;
}

impl<R: RollSource + ?Sized> RollSource for &mut R {
    fn roll(&mut self, dice: Dice) -> Result<i32> {
        (**self).roll(dice)
    }
}

/// The middle one of three values (FUDGE 4.21: "the median is the middle
/// value die roll, which may be the same as either the high or low").
pub fn median_of_three<T: Ord + Copy>(a: T, b: T, c: T) -> T {
    a.max(b).min(a.min(b).max(c))
}

/// Rolls `dice` three times and returns the median with the three rolls.
pub fn roll_median_of_three(source: &mut (impl RollSource + ?Sized), dice: Dice) -> Result<(i32, [i32; 3])> {
    let rolls = [source.roll(dice)?, source.roll(dice)?, source.roll(dice)?];
    Ok((median_of_three(rolls[0], rolls[1], rolls[2]), rolls))
}
