//! Dice: Fudge dice (`NdF`), plain `NdN`, exact distributions, and the
//! **roll sources** every rule takes its dice from (docs/rules.md §0).
//!
//! A rule never rolls on its own: it asks a [`RollSource`] for a [`Dice`]
//! roll. Two sources ship:
//!
//! - [`SeededRolls`]: a seeded, portable generator (PCG `pcg64_fast`, i.e.
//!   [`rand_pcg::Pcg64Mcg`], documented by its crate as portable and tested
//!   against reference vectors). The mapping from its 64-bit outputs to dice
//!   is defined here and pinned by golden tests, so a seed gives the same
//!   rolls on every platform and in every release of this crate.
//! - [`ScriptedRolls`]: plays back rolls a caller supplies (real dice at the
//!   table, the worked examples of the texts), each checked against the dice
//!   it is used for.
//!
//! # Reproducibility contract
//!
//! For a given seed, [`SeededRolls`] yields the same sequence of results for
//! the same sequence of [`Dice`] requests. The algorithm:
//!
//! 1. The seed `s` is expanded with SplitMix64 into two words `a`, `b`; the
//!    generator state is `(b << 64) | a` (made odd by the generator).
//! 2. A uniform integer below `n` is Lemire's multiply-and-reject method on
//!    one `next_u64` (redrawn only on the rare rejection).
//! 3. `NdF` draws one uniform integer below `3^k` per group of up to
//!    `k = 40` dice and reads its base-3 digits as dice (digit `d` shows
//!    `d - 1`), so `4dF` costs one 64-bit draw.
//! 4. `NdS` draws one uniform integer below `S` per die, plus one.
//! 5. [`SeededRolls::action_dice`], the dice of one Full Contact action in a
//!    battle, reads one `next_u64` as two 32-bit halves: the high half picks
//!    the target (a uniform integer below the number of candidates), the low
//!    half a uniform integer `u` below 729 = 81 x 9, whose base-3 digits are
//!    the Strike roll's four dice (`u / 9`, as in step 3) and the Ready Time's
//!    two dice (`u % 9`). Each half is Lemire's method on 32 bits; a half
//!    that is rejected (probability below `n / 2^32`) is replaced by the
//!    same half of a fresh `next_u64`, so both values are exactly uniform
//!    and independent.
//!
//! Changing any of this is a breaking change and fails the golden tests.
//!
//! Split by concern: `notation` (what to roll), `distribution` (exact
//! probabilities), `source` (the [`RollSource`] trait), `seeded` (the
//! generator, steps 1 to 4), `action` (step 5, the battle engine's draw)
//! and `scripted` (rolls from the table).

mod action;
mod distribution;
mod notation;
mod scripted;
mod seeded;
mod source;
#[cfg(test)]
mod tests;

pub use action::ActionDice;
pub use distribution::{Distribution, Probability};
pub use notation::{Dice, MAX_DICE, MAX_SIDES};
pub use scripted::ScriptedRolls;
pub use seeded::SeededRolls;
pub use source::{RollSource, median_of_three, roll_median_of_three};
