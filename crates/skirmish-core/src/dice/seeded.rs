//! The seeded, portable generator: [`SeededRolls`] (PCG `pcg64_fast`),
//! its seeding, the mapping from its 64-bit outputs to dice (steps 1 to 4
//! of the module's reproducibility contract), the tables the common rolls
//! read, and its serde form (the exact generator state). Its own file
//! because this mapping is what the golden tests pin: a change here
//! changes every seeded roll.

use std::fmt;

use rand_core::Rng;
use rand_pcg::Pcg64Mcg;
use serde::{Deserialize, Serialize};

use super::{Dice, MAX_DICE, RollSource};
use crate::error::{Error, Result};

/// Precomputed base-3 digit sums for up to four Fudge dice: entry `u`
/// (below 81) is the total shown by the four dice whose faces are the base-3
/// digits of `u`, each minus one.
pub(super) const FUDGE4_TABLE: [i8; 81] = {
    let mut t = [0i8; 81];
    let mut u = 0;
    while u < 81 {
        let mut v = u;
        let mut s = 0i8;
        let mut k = 0;
        while k < 4 {
            s += (v % 3) as i8 - 1;
            v /= 3;
            k += 1;
        }
        t[u] = s;
        u += 1;
    }
    t
};

/// Entry `u` (below 9) is the total shown by two Fudge dice whose faces are
/// the base-3 digits of `u`, each minus one: what [`SeededRolls::fudge`]
/// reads from the same draw.
pub(super) const FUDGE2_TABLE: [i8; 9] = [-2, -1, 0, -1, 0, 1, 0, 1, 2];

/// The seeded, portable roll source (see the module's reproducibility
/// contract).
///
/// Serializes (serde) to its exact generator state, so a saved game resumes
/// with the very next roll it would have made.
///
/// ```
/// use skirmish_core::dice::{Dice, RollSource, SeededRolls};
/// let mut a = SeededRolls::new(42);
/// let mut b = SeededRolls::new(42);
/// let ra: Vec<i32> = (0..5).map(|_| a.four_df()).collect();
/// let rb: Vec<i32> = (0..5).map(|_| b.roll(Dice::FOUR_DF).unwrap()).collect();
/// assert_eq!(ra, rb);
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct SeededRolls {
    pub(super) rng: Pcg64Mcg,
}

impl fmt::Debug for SeededRolls {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SeededRolls {{ state: {:#034x} }}", self.rng.state())
    }
}

/// SplitMix64 (Steele, Lea, Flood 2014): a fixed, documented mixer used to
/// turn seeds into generator states.
#[inline]
fn splitmix64(x: &mut u64) -> u64 {
    *x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *x;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl SeededRolls {
    /// A source seeded with `seed`.
    pub fn new(seed: u64) -> SeededRolls {
        let mut x = seed;
        let lo = splitmix64(&mut x);
        let hi = splitmix64(&mut x);
        SeededRolls {
            rng: Pcg64Mcg::new((u128::from(hi) << 64) | u128::from(lo)),
        }
    }

    /// The independent stream number `index` of master seed `seed`: what a
    /// simulation gives battle `index`, so results do not depend on which
    /// thread ran which battle.
    pub fn for_stream(seed: u64, index: u64) -> SeededRolls {
        let mut x = seed;
        let a = splitmix64(&mut x);
        let mut y = index ^ a;
        let _ = splitmix64(&mut y);
        SeededRolls::new(splitmix64(&mut y) ^ a.rotate_left(17))
    }

    /// The exact generator state (always odd).
    pub fn state(&self) -> u128 {
        self.rng.state()
    }

    /// A source resumed from a [`state`](Self::state); an even value is
    /// not a state the generator can be in and is refused.
    pub fn from_state(state: u128) -> Result<SeededRolls> {
        if state & 1 == 0 {
            return Err(Error::invalid("rng.state", "a pcg64_fast state is always odd"));
        }
        Ok(SeededRolls {
            rng: Pcg64Mcg::new(state),
        })
    }

    /// A uniform integer in `0..n` (`n >= 1`), by Lemire's method.
    #[inline]
    pub fn below(&mut self, n: u64) -> u64 {
        debug_assert!(n > 0);
        let mut m = u128::from(self.rng.next_u64()) * u128::from(n);
        if (m as u64) < n {
            let threshold = n.wrapping_neg() % n;
            while (m as u64) < threshold {
                m = u128::from(self.rng.next_u64()) * u128::from(n);
            }
        }
        (m >> 64) as u64
    }

    /// One roll of `4dF` (the most common roll, one 64-bit draw).
    #[inline]
    pub fn four_df(&mut self) -> i32 {
        i32::from(FUDGE4_TABLE[self.below(81) as usize])
    }

    /// One roll of `2dF` (Ready Times, the FUDGE group roll): the same
    /// draw and the same value as `fudge(2)`, by table.
    #[inline]
    pub fn two_df(&mut self) -> i32 {
        i32::from(FUDGE2_TABLE[self.below(9) as usize])
    }

    /// One roll of `count` Fudge dice; `count` is not checked here (use
    /// [`RollSource::roll`] for checked dice).
    #[inline]
    pub fn fudge(&mut self, count: u32) -> i32 {
        match count {
            4 => self.four_df(),
            2 => self.two_df(),
            _ => self.fudge_by_digits(count),
        }
    }

    /// `count` Fudge dice read digit by digit from one draw per 40 dice
    /// (the reproducibility contract's step 3; the tables agree with it).
    pub(super) fn fudge_by_digits(&mut self, count: u32) -> i32 {
        let mut left = count;
        let mut total = 0i32;
        while left > 0 {
            let k = left.min(MAX_DICE);
            let mut u = self.below(3u64.pow(k));
            for _ in 0..k {
                total += (u % 3) as i32 - 1;
                u /= 3;
            }
            left -= k;
        }
        total
    }

    /// One roll of `count` dice of `sides` sides (unchecked; `sides >= 1`).
    #[inline]
    pub fn standard(&mut self, count: u32, sides: u32) -> i32 {
        (0..count).map(|_| self.below(u64::from(sides)) as i32 + 1).sum()
    }

    /// The next raw 64-bit output of the generator.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.rng.next_u64()
    }

    /// A uniform number in 0..1 from the next output's top 53 bits (the
    /// same on every platform).
    #[inline]
    pub fn uniform(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }
}

impl RollSource for SeededRolls {
    #[inline]
    fn roll(&mut self, dice: Dice) -> Result<i32> {
        Ok(match dice.validate()? {
            Dice::Fudge { count } => self.fudge(count),
            Dice::Standard { count, sides } => self.standard(count, sides),
        })
    }
}

#[derive(Serialize, Deserialize)]
struct SeededRollsRepr {
    /// The `pcg64_fast` state as 32 hex digits (JSON numbers cannot hold 128 bits portably).
    pcg64_fast_state: String,
}

impl Serialize for SeededRolls {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        SeededRollsRepr {
            pcg64_fast_state: format!("{:032x}", self.state()),
        }
        .serialize(s)
    }
}

impl<'de> Deserialize<'de> for SeededRolls {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        let repr = SeededRollsRepr::deserialize(d)?;
        let state = u128::from_str_radix(&repr.pcg64_fast_state, 16)
            .map_err(|e| serde::de::Error::custom(format!("pcg64_fast_state: {e}")))?;
        SeededRolls::from_state(state).map_err(serde::de::Error::custom)
    }
}
