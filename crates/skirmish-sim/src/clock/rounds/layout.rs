//! A Simple Rounds or Action Blocks round laid out: everyone's initiative
//! rolled in fighter order, the fighters sorted by it, and every action of
//! the round put in landing order, on flat slices (the clock's own state
//! is `rounds.rs`).

use skirmish_core::dice::SeededRolls;
use skirmish_core::timing::simple::initiative_from;

use super::{Profile, Slot};
use crate::error::SimError;

/// What rolling a Simple Rounds round gives ([`roll_simple`]).
pub(super) struct Rolled {
    /// The highest initiative of those with an action (0 for none).
    pub(super) span: u32,
    /// The most actions anyone has this round.
    pub(super) passes: u32,
}

/// A Simple Rounds round's initiatives and actions, in fighter order (the
/// dice's order): the fallen leave `active` as it is walked, and with
/// `counts` (else empty) each initiative with an action is counted at
/// `init + 1` for [`place_by_init`]. The lists come in as slices and the
/// generator is copied to a local: through `self`, every store to a record
/// made the compiler load each list's pointer and length and the
/// generator's state again (a large share of this loop's instructions).
#[inline]
pub(super) fn roll_simple(
    active: &mut Vec<u32>,
    fighters: &mut [Slot],
    profiles: &[Profile],
    rolls: &mut SeededRolls,
    counts: &mut [u32],
) -> Rolled {
    let mut local = rolls.clone();
    let mut rolled = Rolled { span: 0, passes: 0 };
    let list = active.as_mut_slice();
    let mut kept = 0;
    for i in 0..list.len() {
        let w = list[i];
        let f = &mut fighters[w as usize];
        if !f.alive() {
            continue;
        }
        list[kept] = w;
        kept += 1;
        let p = &profiles[f.profile as usize];
        let init = initiative_from(i64::from(local.four_df()), p.offset);
        // At most 4 + 5 + 2 x MAX_DURATION + MAX_BONUS: a u32.
        let init = u32::try_from(init).unwrap_or(u32::MAX);
        let allowed = p.allowed;
        f.init = init;
        f.allowed = allowed;
        f.from = 1;
        if allowed > 0 {
            rolled.span = rolled.span.max(init);
            rolled.passes = rolled.passes.max(u32::from(allowed));
            if let Some(c) = counts.get_mut(init as usize + 1) {
                *c += 1;
            }
        }
    }
    active.truncate(kept);
    *rolls = local;
    rolled
}

/// The highest initiative of the fighters in `active` with `passes`
/// actions this round (as [`roll_simple`] left them): the round's last
/// action lands on pass `passes` at it. Asked only when a round might run
/// past the last tick (a second walk of the fighters, not one more compare
/// in every roll).
pub(super) fn last_init(active: &[u32], fighters: &[Slot], passes: u32) -> u32 {
    active
        .iter()
        .filter_map(|&w| fighters.get(w as usize))
        .filter(|f| u32::from(f.allowed) == passes)
        .map(|f| f.init)
        .max()
        .unwrap_or(0)
}

/// `by_init` from the initiatives [`roll_simple`] counted: those in
/// `active` with an action, by initiative, fighter order within one (a
/// stable counting sort). Every entry is written: the last round's are not
/// cleared first (room for every fighter: `reset`).
#[inline]
pub(super) fn place_by_init(counts: &mut [u32], active: &[u32], fighters: &[Slot], by_init: &mut Vec<u32>) {
    for k in 1..counts.len() {
        counts[k] += counts[k - 1];
    }
    let total = counts.last().copied().unwrap_or(0) as usize;
    by_init.resize(total, 0);
    let out = by_init.as_mut_slice();
    for &w in active {
        let f = &fighters[w as usize];
        if f.allowed == 0 {
            continue;
        }
        let at = &mut counts[f.init as usize];
        out[*at as usize] = w;
        *at += 1;
    }
}

/// Fills `events` with every action of the round in landing order, as
/// its fighter: slot by slot, `order` within a slot. Fighter `w`'s nth
/// action (1..=allowed) goes to `slot(w, nth)` in `1..=slots`. A counting
/// sort: O(actions + slots), whatever the spread of actions per fighter.
/// Leaves `counts[s]` the end of slot `s`'s entries, and returns how many
/// there are. A round of more actions than memory holds (or than 2^32) is
/// [`SimError::OutOfMemory`], not an abort: the fighter cap budgets one
/// action a fighter, and a fighter may have up to `MAX_ACTIONS`.
pub(super) fn lay_out(
    events: &mut Vec<u32>,
    counts: &mut Vec<u32>,
    order: &[u32],
    allowed: impl Fn(u32) -> u32,
    slots: u32,
    slot: impl Fn(u32, u32) -> u32,
) -> Result<usize, SimError> {
    let slots = slots as usize;
    zero(counts, slots + 2);
    for &w in order {
        for nth in 1..=allowed(w) {
            // No overflow: a fighter puts at most one action in a slot, and
            // a battle has fewer than 2^32 fighters.
            counts[slot(w, nth) as usize + 1] += 1;
        }
    }
    let too_many = || SimError::OutOfMemory {
        fighters: order.len() as u64,
    };
    for k in 1..counts.len() {
        counts[k] = counts[k].checked_add(counts[k - 1]).ok_or_else(too_many)?;
    }
    let total = counts[slots + 1] as usize;
    events
        .try_reserve(total.saturating_sub(events.len()))
        .map_err(|_| too_many())?;
    // Every entry is written below: the last round's are not cleared first.
    events.resize(total, 0);
    for &w in order {
        for nth in 1..=allowed(w) {
            // Each slot's start, moved on to its end as it fills.
            let at = &mut counts[slot(w, nth) as usize];
            events[*at as usize] = w;
            *at += 1;
        }
    }
    Ok(total)
}

/// `counts` as `len` zeros (no allocation when it has that length).
#[inline]
pub(super) fn zero(counts: &mut Vec<u32>, len: usize) {
    if counts.len() == len {
        counts.fill(0);
    } else {
        counts.clear();
        counts.resize(len, 0);
    }
}

/// Actions allowed, at most `MAX_ACTIONS` (1,000), as kept.
#[inline]
pub(super) fn allowed16(allowed: u32) -> u16 {
    u16::try_from(allowed).unwrap_or(u16::MAX)
}
