//! The ranked targeting policies on the fast path: "attack the
//! most wounded foe" and "attack the least engaged foe", on both loops
//! (`continuous.rs`, `moments.rs`), so under every timing system with a
//! lean clock.
//!
//! The general loop (`battle/fight.rs`, `battle/targeting.rs`) keeps, for
//! every fighter, its damage taken, its target and the attackers engaged
//! on it, and a tournament tree per side over the policy's key
//! (`ranking.rs`). This keeps only what the policy reads: damage taken for
//! `most_wounded` (its key), targets and engagements for `least_engaged`
//! (its key, and what a new pick changes), and per side an index of the
//! same keys (`minmask.rs`) whose best is the general loop's tree's root,
//! so the same pick, in a few instructions instead of two walks of ~17
//! levels. Under Full Contact there is no reach, so no fighter is ever
//! full: a standing fighter's key is its own, and the general loop's
//! comparison of the root with the attacker's current target never changes
//! the pick.
//!
//! The index holds the key itself, in fighter order, the fallen's absent,
//! so damage taken and engagements are not kept apart:
//!
//! - `most_wounded`: minus the damage taken of the wounded. The unwounded
//!   all share key 0, above every wounded one, so they are a bit each and
//!   the lowest of them (a cursor that only moves up: nobody is unwounded
//!   again) is the pick when nobody is wounded. The pick is the same all
//!   moment (keys change at its end), so it is found once a moment, and
//!   the moment's hits on one target are summed as they land
//!   ([`note_damage`]), one change at its end.
//! - `least_engaged`: the attackers engaged. One decrement is held back
//!   per side ([`Engaged`]): the target just left is mostly the next pick.
//!
//! The order of updates is the general loop's: an engagement counts from
//! the pick on (later picks of the same moment see it); damage taken counts
//! from the end of the moment (every pick of a moment sees the state at its
//! start), when the fallen also leave the index and their own targets.

use super::is_down;
use super::minmask::{MinKey, MinMask};
use crate::error::SimError;
use crate::ranking::MAX_TAKEN;
use crate::roster::{NONE, reserve_fighters};
use crate::scenario::Targeting;

/// What the ranked policies keep, reused from battle to battle.
#[derive(Default)]
pub(crate) struct RankedArrays {
    /// Per side, `most_wounded` only: minus the damage taken of each
    /// fighter wounded and standing (the others absent).
    wounded: [MinMask<i64>; 2],
    /// Per side, `most_wounded` only: a bit per fighter standing and not
    /// wounded (all of key 0, below every wounded one's).
    fresh: [Vec<u64>; 2],
    /// Per side, `most_wounded` only: no word of `fresh` below this one has
    /// a bit left (a fighter never becomes fresh again).
    fresh_from: [usize; 2],
    /// Per side, `least_engaged` only: the attackers engaged on each fighter.
    engaged: [Engaged; 2],
    /// Per fighter, `least_engaged` only: its target, or [`NONE`].
    target_of: Vec<u32>,
    /// Per side, `most_wounded` only: its best leaf, once asked for in
    /// this moment (keys change only at its end).
    most_wounded: [Option<Option<usize>>; 2],
    /// Side 1's first fighter.
    first_b: u32,
}

impl RankedArrays {
    /// Readies the arrays and indexes for a battle of `n` fighters, side 1's
    /// from number `first_b`, every one standing and fresh.
    pub(super) fn reset(&mut self, policy: Targeting, n: usize, first_b: u32) -> Result<(), SimError> {
        let oom = |_| SimError::OutOfMemory { fighters: n as u64 };
        self.first_b = first_b;
        let counts = [first_b as usize, n - first_b as usize];
        self.target_of.clear();
        match policy {
            Targeting::MostWounded => {
                for (s, &c) in counts.iter().enumerate() {
                    self.wounded[s].try_reserve(c).map_err(oom)?;
                    self.wounded[s].reset(c, |_| i64::ABSENT);
                    let fresh = &mut self.fresh[s];
                    fresh.clear();
                    reserve_fighters(fresh, c.div_ceil(64))
                        .map_err(|_| SimError::OutOfMemory { fighters: n as u64 })?;
                    fresh.resize(c / 64, u64::MAX);
                    if !c.is_multiple_of(64) {
                        fresh.push((1u64 << (c % 64)) - 1);
                    }
                    self.fresh_from[s] = 0;
                }
                self.most_wounded = [None; 2];
            }
            Targeting::LeastEngaged => {
                for (side, &c) in self.engaged.iter_mut().zip(&counts) {
                    side.index.try_reserve(c).map_err(oom)?;
                    side.index.reset(c, |_| 0);
                    (side.floating, side.own) = (NO_LEAF, u32::ABSENT);
                }
                reserve_fighters(&mut self.target_of, n)?;
                self.target_of.resize(n, NONE);
            }
            Targeting::Random => {}
        }
        Ok(())
    }

    /// Fighter `c`'s side and leaf in its side's index.
    #[inline]
    fn place(&self, c: u32) -> (usize, usize) {
        match c.checked_sub(self.first_b) {
            Some(leaf) => (1, leaf as usize),
            None => (0, c as usize),
        }
    }

    /// Attacker `a` of `side` picks its target: the best enemy standing,
    /// engaged from now on. `None`: no enemy can be picked.
    #[inline(always)]
    pub(super) fn pick(&mut self, policy: Targeting, a: u32, side: u8, down: &[u64]) -> Option<u32> {
        let enemy = usize::from(side == 0);
        let first = if enemy == 1 { self.first_b } else { 0 };
        match policy {
            Targeting::MostWounded => {
                let leaf = match self.most_wounded[enemy] {
                    Some(known) => known,
                    None => {
                        let best = match self.wounded[enemy].best() {
                            Some(leaf) => Some(leaf),
                            None => self.first_fresh(enemy),
                        };
                        self.most_wounded[enemy] = Some(best);
                        best
                    }
                }?;
                Some(first + leaf as u32)
            }
            Targeting::LeastEngaged => {
                let engaged = &mut self.engaged[enemy];
                let leaf = engaged.best()?;
                let t = first + leaf as u32;
                let mine = self.target_of.get_mut(a as usize);
                let old = mine.map_or(NONE, |m| std::mem::replace(m, t));
                if old != t {
                    engaged.raise(leaf);
                    // The old target is an enemy too (or none).
                    if let Some(was) = old.checked_sub(first)
                        && old != NONE
                        && !is_down(down, old)
                    {
                        engaged.lower(was as usize);
                    }
                }
                Some(t)
            }
            Targeting::Random => None,
        }
    }

    /// The lowest fighter of side `s` standing and not wounded.
    #[inline]
    fn first_fresh(&mut self, s: usize) -> Option<usize> {
        let words = &self.fresh[s];
        let mut w = self.fresh_from[s];
        while let Some(&word) = words.get(w) {
            if word != 0 {
                self.fresh_from[s] = w;
                return Some(w * 64 + word.trailing_zeros() as usize);
            }
            w += 1;
        }
        self.fresh_from[s] = w;
        None
    }

    /// Fighter `t` has taken `damage` (positive) more.
    #[inline]
    fn wound(&mut self, (t, damage): (u32, i64)) {
        let (s, leaf) = self.place(t);
        let key = if self.unfresh(s, leaf) {
            0
        } else {
            self.wounded[s].key(leaf)
        };
        if key != i64::ABSENT {
            // Minus the damage taken, which counts up to `MAX_TAKEN` (as
            // the general loop's `add_taken`).
            self.wounded[s].set(leaf, key.saturating_sub(damage).max(-MAX_TAKEN));
        }
    }

    /// Whether leaf `leaf` of side `s` is fresh, and no longer so.
    #[inline]
    fn unfresh(&mut self, s: usize, leaf: usize) -> bool {
        let Some(word) = self.fresh[s].get_mut(leaf / 64) else {
            return false;
        };
        let bit = 1u64 << (leaf % 64);
        let was = *word & bit != 0;
        *word &= !bit;
        was
    }

    /// Standing fighter `t` has an attacker less.
    #[inline]
    fn disengage(&mut self, t: u32) {
        let (s, leaf) = self.place(t);
        self.engaged[s].lower(leaf);
    }

    /// The end of a moment, after the fallen are marked down in `down`:
    /// the moment's damage (`struck`, emptied) counts, the hit and the
    /// fallen take their new places, and the fallen's own targets lose an
    /// attacker.
    pub(super) fn end_moment(&mut self, policy: Targeting, down: &[u64], fallen: &[u32], struck: &mut Vec<(u32, i32)>) {
        // Damage moves only `most_wounded`'s keys (a fallen fighter's key
        // goes below, under either policy).
        if policy == Targeting::MostWounded {
            self.most_wounded = [None; 2];
            // The moment's damage, already one entry per target or so
            // ([`note_damage`]).
            for &(t, damage) in struck.iter() {
                self.wound((t, i64::from(damage)));
            }
        }
        struck.clear();
        for &f in fallen {
            let (s, leaf) = self.place(f);
            match policy {
                Targeting::MostWounded => {
                    self.unfresh(s, leaf);
                    self.wounded[s].set(leaf, i64::ABSENT);
                }
                Targeting::LeastEngaged => {
                    self.engaged[s].remove(leaf);
                    let t = self.target_of.get(f as usize).copied().unwrap_or(NONE);
                    if t != NONE {
                        if let Some(mine) = self.target_of.get_mut(f as usize) {
                            *mine = NONE;
                        }
                        if !is_down(down, t) {
                            self.disengage(t);
                        }
                    }
                }
                Targeting::Random => {}
            }
        }
    }
}

/// Notes a `most_wounded` hit of `damage` on `t` in the moment's `struck`.
///
/// Only positive damage counts (as the general loop's `damage.max(0)`),
/// and it goes to an entry of the same target among the last two when it
/// fits in it: every pick of a side is the same all moment (keys change at
/// its end), so the moment's hits hold about one entry per side instead of
/// one per hit (a round's worth under Action Blocks), whatever order the
/// two sides strike in. Damage taken is a sum,
/// so the entries' order and grouping do not change the keys; an entry
/// that would overflow starts another, so there are never more entries
/// than hits (the room reserved).
#[inline]
pub(super) fn note_damage(struck: &mut Vec<(u32, i32)>, t: u32, damage: i32) {
    if damage <= 0 {
        return;
    }
    let from = struck.len().saturating_sub(2);
    if let Some(entry) = struck
        .get_mut(from..)
        .and_then(|last| last.iter_mut().rev().find(|e| e.0 == t))
        && let Some(sum) = entry.1.checked_add(damage)
    {
        entry.1 = sum;
        return;
    }
    struck.push((t, damage));
}

/// No leaf.
const NO_LEAF: usize = usize::MAX;

/// One side's engagements under `least_engaged`: the index of its
/// fighters' counts, with one decrement held back.
///
/// Why: when every count is the same, each pick raises the one fighter
/// holding the minimum and lowers the old target to below it, so the
/// minimum of the whole side moves down and up again at every pick, and
/// both changes would climb the index to its root. The lowered fighter is
/// usually the next pick: kept aside ("floating", its count one below the
/// index's), its pick just drops it back to the index's count, and neither
/// change touches the index.
struct Engaged {
    index: MinMask<u32>,
    /// The leaf whose count is one below the index's, or [`NO_LEAF`].
    floating: usize,
    /// The floating leaf's count (absent without one).
    own: u32,
}

impl Default for Engaged {
    fn default() -> Self {
        Engaged {
            index: MinMask::default(),
            floating: NO_LEAF,
            own: u32::ABSENT,
        }
    }
}

impl Engaged {
    /// The leaf with the fewest attackers, the lowest such leaf.
    #[inline]
    fn best(&mut self) -> Option<usize> {
        // Mostly the floating leaf is below every other: no need to look.
        if self.own < self.index.min() {
            return Some(self.floating);
        }
        let b = self.index.best()?;
        let f = self.floating;
        if f == NO_LEAF || f == b {
            // (A floating leaf the index ranks first is first still.)
            return Some(b);
        }
        Some(if (self.own, f) < (self.index.min(), b) { f } else { b })
    }

    /// Leaf `leaf`, standing, has an attacker more.
    #[inline]
    fn raise(&mut self, leaf: usize) {
        if leaf == self.floating {
            (self.floating, self.own) = (NO_LEAF, u32::ABSENT);
        } else {
            self.index.raise(leaf);
        }
    }

    /// Leaf `leaf`, standing, has an attacker less.
    #[inline]
    fn lower(&mut self, leaf: usize) {
        if self.floating != NO_LEAF {
            self.index.set(self.floating, self.own);
        }
        self.floating = leaf;
        self.own = self.index.key(leaf).saturating_sub(1);
    }

    /// Leaf `leaf` fell.
    #[inline]
    fn remove(&mut self, leaf: usize) {
        if leaf == self.floating {
            (self.floating, self.own) = (NO_LEAF, u32::ABSENT);
        }
        self.index.set(leaf, u32::ABSENT);
    }
}

#[cfg(test)]
mod tests {
    use super::note_damage;

    /// The damage per target that the entries of `struck` add up to.
    fn sums(struck: &[(u32, i32)]) -> std::collections::BTreeMap<u32, i64> {
        let mut by = std::collections::BTreeMap::new();
        for &(t, d) in struck {
            *by.entry(t).or_insert(0) += i64::from(d);
        }
        by
    }

    #[test]
    fn two_sides_striking_in_turn_keep_one_entry_each() {
        let mut struck = Vec::new();
        for i in 0..1_000 {
            note_damage(&mut struck, if i % 2 == 0 { 7 } else { 3 }, 2);
        }
        assert_eq!(struck, vec![(7, 1_000), (3, 1_000)]);
    }

    #[test]
    fn only_positive_damage_counts() {
        let mut struck = Vec::new();
        note_damage(&mut struck, 1, 0);
        note_damage(&mut struck, 1, -5);
        assert!(struck.is_empty());
        note_damage(&mut struck, 1, 4);
        note_damage(&mut struck, 1, i32::MIN);
        assert_eq!(struck, vec![(1, 4)]);
    }

    #[test]
    fn a_sum_that_would_overflow_starts_another_entry() {
        let mut struck = Vec::new();
        for _ in 0..5 {
            note_damage(&mut struck, 9, i32::MAX);
        }
        note_damage(&mut struck, 9, 1);
        assert_eq!(struck.len(), 6, "{struck:?}");
        assert_eq!(sums(&struck)[&9], 5 * i64::from(i32::MAX) + 1);
    }

    #[test]
    fn any_order_of_hits_keeps_the_sums_and_no_more_entries_than_hits() {
        // A third target (never under `most_wounded`, but allowed) only
        // costs entries, never damage.
        let mut struck = Vec::new();
        let mut want = std::collections::BTreeMap::new();
        let mut x = 0x2545_f491_u32;
        for hits in 1..=2_000u32 {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            let (t, d) = (x % 3, (x >> 8) as i32);
            note_damage(&mut struck, t, d);
            if d > 0 {
                *want.entry(t).or_insert(0) += i64::from(d);
            }
            assert!(struck.len() as u32 <= hits);
        }
        assert_eq!(sums(&struck), want);
    }
}
