//! The battle engine's packed draw: [`SeededRolls::action_dice`] gives the
//! target, the Strike roll and the Ready Time roll of one Full Contact
//! action from a single 64-bit output (step 5 of the module's
//! reproducibility contract). Its own file because it is the hot loop's
//! own mapping, with its own table and rejection paths, beside the
//! generator's general one.

use rand_core::Rng;

use super::SeededRolls;
use super::seeded::{FUDGE2_TABLE, FUDGE4_TABLE};

/// Entry `u` (below 729) packs the Strike roll and the Ready Time roll of
/// [`SeededRolls::action_dice`]: `4dF + 4` of `u / 9` in the low nibble,
/// `2dF + 2` of `u % 9` in the high one. Padded to 1,024 entries so that a
/// masked index needs no bounds check (the padding is never read).
const ACTION_TABLE: [u8; 1024] = {
    let mut t = [0u8; 1024];
    let mut u = 0;
    while u < 729 {
        let strike = (FUDGE4_TABLE[u / 9] + 4) as u8;
        let ready = (FUDGE2_TABLE[u % 9] + 2) as u8;
        t[u] = strike | ready << 4;
        u += 1;
    }
    t
};

/// The dice of one Full Contact action in a battle, drawn together by
/// [`SeededRolls::action_dice`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ActionDice {
    /// A uniform index below the number of candidate targets.
    pub target: u32,
    /// The Strike roll, `4dF` (-4..=4).
    pub strike: i32,
    /// The roll of the action's follow-up Ready Time, `2dF` (-2..=2), for
    /// the timing systems that take one (Continuous).
    pub ready: i32,
}

impl SeededRolls {
    /// The dice of one Full Contact action in a battle: a target among
    /// `targets` candidates (`targets >= 1`; 0 is taken as 1), the Strike
    /// roll and the follow-up's Ready Time roll, all from one 64-bit draw
    /// (the reproducibility contract's step 5).
    ///
    /// ```
    /// use skirmish_core::dice::SeededRolls;
    /// let mut rolls = SeededRolls::new(7);
    /// let dice = rolls.action_dice(10);
    /// assert!(dice.target < 10 && (-4..=4).contains(&dice.strike) && (-2..=2).contains(&dice.ready));
    /// ```
    #[inline]
    pub fn action_dice(&mut self, targets: u32) -> ActionDice {
        let n = targets.max(1);
        let x = self.rng.next_u64();
        let mut m = (x >> 32) * u64::from(n);
        if (m as u32) < n {
            m = self.reject_high(m, n);
        }
        let mut d = (x & 0xFFFF_FFFF) * 729;
        if (d as u32) < 729 {
            d = self.reject_low(d);
        }
        let packed = ACTION_TABLE[(d >> 32) as usize & 1023];
        ActionDice {
            target: (m >> 32) as u32,
            strike: i32::from(packed & 15) - 4,
            ready: i32::from(packed >> 4) - 2,
        }
    }

    /// Lemire's rejection for [`action_dice`](Self::action_dice)'s target:
    /// `m` is the high half times `n`; redraws high halves while rejected.
    #[cold]
    #[inline(never)]
    fn reject_high(&mut self, mut m: u64, n: u32) -> u64 {
        let threshold = n.wrapping_neg() % n;
        while (m as u32) < threshold {
            m = (self.rng.next_u64() >> 32) * u64::from(n);
        }
        m
    }

    /// The same for the dice half (below 729), on low halves.
    #[cold]
    #[inline(never)]
    fn reject_low(&mut self, mut d: u64) -> u64 {
        let threshold = 729u32.wrapping_neg() % 729;
        while (d as u32) < threshold {
            d = (self.rng.next_u64() & 0xFFFF_FFFF) * 729;
        }
        d
    }
}
