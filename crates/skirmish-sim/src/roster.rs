//! The engine's fighters as numbers: per-fighter arrays reserved without
//! aborting on a battle too big for memory, and the number that is no
//! fighter. A leaf of the crate: the general loop, the lean clocks and the
//! fast paths all keep per-fighter arrays.

use crate::error::SimError;

/// Reserves room for `n` more items of a per-fighter array, or says which
/// battle was too big for this machine's memory: an error, not an abort.
pub(crate) fn reserve_fighters<T>(v: &mut Vec<T>, n: usize) -> Result<(), SimError> {
    v.try_reserve_exact(n.saturating_sub(v.len()))
        .map_err(|_| SimError::OutOfMemory { fighters: n as u64 })
}

/// No fighter (no target yet).
pub(crate) const NONE: u32 = u32::MAX;

/// The mark of a FUDGE exchange a fighter began with `partner` in `round`,
/// kept per fighter when exchanges count by round (docs/rules.md §2.2.2):
/// a blow at a foe whose mark is (this round, the striker) is that
/// exchange. `u64::MAX` is no mark (no fighter number reaches `u32::MAX`).
#[inline]
pub(crate) const fn exchange_key(round: u32, partner: u32) -> u64 {
    ((round as u64) << 32) | partner as u64
}
