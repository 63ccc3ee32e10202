//! The targeting index: for `most_wounded` and `least_engaged` targeting,
//! each side's standing fighters ranked by the policy's key, kept up to date
//! as blows land, fighters fall and engagements change, so a pick costs
//! O(log n) instead of a scan of every enemy (with the scan, a 2x100,000
//! battle with either policy did not finish).
//!
//! One tournament tree (a segment tree of minimums) per side over its
//! fighters in fighter order: a leaf holds the fighter's key `(rank,
//! fighter)`, or [`ABSENT`] when the fighter cannot be picked (down, or
//! engaged by as many attackers as FUDGE's reach allows). The root is the
//! side's best pick. Keys end in the fighter's index, so they are unique and
//! the minimum is the scan's pick, ties to the lowest index included.
//!
//! The reach rule lets an attacker keep striking its current target even
//! when that target is full; the battle compares the roots with that one
//! fighter's own key (see `Battle::pick_target`), so full fighters never
//! need to be skipped in the tree. Updating a leaf walks one path to the
//! root: O(log n), no allocation (the trees are kept from battle to battle).

use crate::scenario::Targeting;

/// A fighter's place in the ranking: smaller is picked first.
pub(crate) type Key = (i64, u32);

/// The key of a fighter that cannot be picked.
pub(crate) const ABSENT: Key = (i64::MAX, u32::MAX);

/// `most_wounded`'s damage taken counts up to this, two below `i64::MAX`
/// (the fast path keeps a full fighter's as the damage plus one in its
/// index, below the index's absent `i64::MAX`: `fast/opposed.rs`); no
/// battle comes near it.
pub(crate) const MAX_TAKEN: i64 = i64::MAX - 2;

/// Damage taken `taken` after a blow of `damage` (a negative one counts
/// 0), at most [`MAX_TAKEN`].
#[inline]
pub(crate) fn add_taken(taken: i64, damage: i32) -> i64 {
    taken.saturating_add(i64::from(damage.max(0))).min(MAX_TAKEN)
}

/// Fighter `c`'s key under `policy` whatever its engagements: the most
/// wounded first, or the least engaged, ties to the lowest index.
#[inline]
pub(crate) fn own_key(policy: Targeting, c: u32, taken: &[i64], engaged_by: &[u32]) -> Key {
    let i = c as usize;
    match policy {
        Targeting::MostWounded => (0i64.saturating_sub(taken.get(i).copied().unwrap_or(0)), c),
        Targeting::LeastEngaged => (i64::from(engaged_by.get(i).copied().unwrap_or(u32::MAX)), c),
        Targeting::Random => ABSENT,
    }
}

/// One side's tournament tree.
#[derive(Debug, Default)]
struct Tree {
    /// Leaves: a power of two, at least 1.
    leaves: usize,
    /// `nodes[1]` is the root, `nodes[leaves + i]` leaf `i`; `nodes[0]` unused.
    nodes: Vec<Key>,
}

impl Tree {
    fn reset(&mut self, count: usize) {
        self.leaves = count.max(1).next_power_of_two();
        self.nodes.clear();
        self.nodes.resize(2 * self.leaves, ABSENT);
    }

    /// Every inner node from its children (after setting leaves directly).
    fn build(&mut self) {
        for i in (1..self.leaves).rev() {
            self.nodes[i] = self.nodes[2 * i].min(self.nodes[2 * i + 1]);
        }
    }

    #[inline]
    fn set(&mut self, leaf: usize, key: Key) {
        let mut i = self.leaves + leaf;
        if i >= self.nodes.len() || self.nodes[i] == key {
            return;
        }
        self.nodes[i] = key;
        while i > 1 {
            i /= 2;
            let best = self.nodes[2 * i].min(self.nodes[2 * i + 1]);
            if self.nodes[i] == best {
                break;
            }
            self.nodes[i] = best;
        }
    }

    #[inline]
    fn best(&self) -> Key {
        self.nodes.get(1).copied().unwrap_or(ABSENT)
    }
}

/// Every side's ranking (see the module docs).
#[derive(Debug, Default)]
pub(crate) struct Ranking {
    /// Whether the battle ranks at all (the policy needs it).
    on: bool,
    trees: Vec<Tree>,
    /// Per fighter: its side and its leaf in the side's tree.
    place: Vec<(u8, u32)>,
}

impl Ranking {
    /// Off: the battle's policy picks without it; every update is a no-op.
    pub(crate) fn off(&mut self) {
        self.on = false;
    }

    /// Readies the ranking for a battle of fighters on `sides` sides (each
    /// fighter's side in fighter order), their keys from `key`.
    pub(crate) fn reset(&mut self, sides: usize, side_of: impl Iterator<Item = u8>, key: impl Fn(u32) -> Key) {
        self.on = true;
        self.place.clear();
        let mut counts = vec![0u32; sides];
        for s in side_of {
            let c = &mut counts[usize::from(s)];
            self.place.push((s, *c));
            *c += 1;
        }
        self.trees.resize_with(sides, Tree::default);
        self.trees.truncate(sides);
        for (t, &c) in self.trees.iter_mut().zip(&counts) {
            t.reset(c as usize);
        }
        for (f, &(s, leaf)) in self.place.iter().enumerate() {
            let t = &mut self.trees[usize::from(s)];
            t.nodes[t.leaves + leaf as usize] = key(f as u32);
        }
        for t in &mut self.trees {
            t.build();
        }
    }

    /// Room for a battle with `per_side` fighters on each side (every
    /// fighter's place, each side's tree), so [`reset`](Self::reset) need
    /// not grow them: a battle too big for memory is refused before it
    /// starts instead of aborting.
    pub(crate) fn try_reserve(&mut self, per_side: &[usize]) -> Result<(), std::collections::TryReserveError> {
        let total: usize = per_side.iter().sum();
        self.place.try_reserve_exact(total.saturating_sub(self.place.len()))?;
        if self.trees.len() < per_side.len() {
            self.trees.resize_with(per_side.len(), Tree::default);
        }
        for (t, &c) in self.trees.iter_mut().zip(per_side) {
            // As `Tree::reset` sizes it (a side has at most u32::MAX / 2).
            let want = 2 * c.max(1).next_power_of_two();
            t.nodes.try_reserve_exact(want.saturating_sub(t.nodes.len()))?;
        }
        Ok(())
    }

    /// Whether the battle ranks.
    #[inline]
    pub(crate) fn is_on(&self) -> bool {
        self.on
    }

    /// Fighter `f`'s key is now `key`.
    #[inline]
    pub(crate) fn set(&mut self, f: u32, key: Key) {
        if !self.on {
            return;
        }
        if let Some(&(s, leaf)) = self.place.get(f as usize)
            && let Some(t) = self.trees.get_mut(usize::from(s))
        {
            t.set(leaf as usize, key);
        }
    }

    /// The best key among the fighters of every side but `side`.
    #[inline]
    pub(crate) fn best_enemy(&self, side: u8) -> Key {
        self.trees
            .iter()
            .enumerate()
            .filter(|&(s, _)| s != usize::from(side))
            .map(|(_, t)| t.best())
            .min()
            .unwrap_or(ABSENT)
    }
}
