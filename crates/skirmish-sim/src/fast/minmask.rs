//! The fast path's index of a side's best target (the aim: the ranked
//! policies within 2x of random targets): the lowest key among a side's
//! fighters, ties to the lowest fighter, as the general loop's tournament
//! trees (`ranking.rs`) give it, at a fraction of their cost.
//!
//! Why not the trees: their leaves are 16-byte `(rank, fighter)` keys in a
//! binary tree, so every change of a key walks ~17 levels at 2x100,000,
//! and under `least_engaged` every pick changes two keys (the old target
//! loses an attacker, the new one gains one), each walk changing the whole
//! path because the index in the key makes every minimum unique.
//!
//! Here a node has 64 children and keeps their minimum and three 64-bit
//! masks: the children holding the minimum, those holding the key just
//! above it (when known), and those not absent. The leaves are the side's
//! fighters in fighter order, so the fighter is implied by the place and a
//! key is the rank alone (an engagement count in 4 bytes, minus the damage
//! taken in 8; FUDGE's `most_wounded` packs it in 4, `opposed.rs`). The best fighter is the root's lowest set bit followed down
//! (three levels at 100,000 fighters a side). A change of key stops at the
//! first node whose minimum does not change, most of the time the leaf's
//! own node: a key falling to or below the minimum sets its bit; one rising
//! from it clears its bit, and only when that empties the mask does the
//! minimum rise: to the next key, whose holders are known whenever the
//! minimum last fell by one (an engagement count's usual step), or else by
//! a scan of the node's children not absent (about once per 64 rises in a
//! node; one or two children when few are ranked, as the wounded are). The
//! minimum is the trees' and the lowest set bit is the lowest fighter
//! holding it, so the picks, and so the results, are the same.
//!
//! Beside the index two answers are kept: the lowest key (the root's
//! minimum) and the best leaf once found, moved on to the next holder in
//! its node when the best is raised by one there (a `least_engaged` pick),
//! forgotten at any other change.
//!
//! A key at or above the index's **park** (the absent key unless
//! [`reset_parked`](MinMask::reset_parked) says otherwise) counts as
//! absent but is kept as it is, and a change from one such key to another
//! touches nothing else: `most_wounded` under FUDGE's reach keeps a full
//! fighter's damage taken there, still growing as it is struck
//! (`opposed.rs`).
//!
//! Every array is reserved fallibly before a battle, kept from battle to
//! battle, and about 1/64 of the leaves' size above them (a node is 40
//! bytes per 64 children).

use std::collections::TryReserveError;

/// A key: smaller is picked first; [`MinKey::ABSENT`] cannot be picked.
pub(super) trait MinKey: Copy + Ord {
    /// The key of a fighter that cannot be picked (down), above every other.
    const ABSENT: Self;
    /// The next key up (saturating).
    fn succ(self) -> Self;
}

impl MinKey for u32 {
    const ABSENT: u32 = u32::MAX;
    #[inline]
    fn succ(self) -> u32 {
        self.saturating_add(1)
    }
}

impl MinKey for i64 {
    const ABSENT: i64 = i64::MAX;
    #[inline]
    fn succ(self) -> i64 {
        self.saturating_add(1)
    }
}

/// Children per node.
const WIDTH: usize = 64;

/// A node: its children's minimum and who holds what.
#[derive(Debug, Clone, Copy)]
struct Node<K> {
    /// The lowest key below (absent when every child is).
    min: K,
    /// The children holding `min` (none when it is absent).
    eq: u64,
    /// When `known`: the children holding `min.succ()`.
    next: u64,
    /// The children not absent.
    present: u64,
    /// Whether `next` is up to date.
    known: bool,
}

impl<K: MinKey> Node<K> {
    const EMPTY: Self = Node {
        min: K::ABSENT,
        eq: 0,
        next: 0,
        present: 0,
        known: true,
    };

    /// The node from its children's keys (`child(j)` of child `j`), those
    /// of `present` only.
    #[cold]
    #[inline(never)]
    fn scan(&mut self, child: impl Fn(usize) -> K) {
        let (mut min, mut eq, mut next) = (K::ABSENT, 0u64, 0u64);
        let mut left = self.present;
        while left != 0 {
            let j = left.trailing_zeros() as usize;
            let b = left & left.wrapping_neg();
            left &= left - 1;
            let c = child(j);
            if c < min {
                next = if c.succ() == min { eq } else { 0 };
                min = c;
                eq = b;
            } else if c == min {
                eq |= b;
            } else if c == min.succ() {
                next |= b;
            }
        }
        if min == K::ABSENT {
            (eq, next) = (0, 0);
        }
        (self.min, self.eq, self.next, self.known) = (min, eq, next, true);
    }

    /// The node from its children (`key` reads a child's key; those at or
    /// above `park` are absent).
    fn build<C>(&mut self, children: &[C], key: impl Fn(&C) -> K, park: K) {
        self.present = children
            .iter()
            .enumerate()
            .fold(0, |m, (j, c)| m | (u64::from(key(c) < park) << j));
        self.scan(|j| children.get(j).map_or(K::ABSENT, &key));
    }

    /// Child `j`'s key is now `v` (it was another; at or above `park`,
    /// absent); `child` reads any child's key. Whether the node's minimum
    /// changed.
    #[inline]
    fn update(&mut self, j: usize, v: K, child: impl Fn(usize) -> K, park: K) -> bool {
        let b = 1u64 << j;
        let v = if v >= park { K::ABSENT } else { v };
        if v == K::ABSENT {
            self.present &= !b;
        } else {
            self.present |= b;
        }
        let min = self.min;
        if v < min {
            // Those holding the old minimum hold the new one's next.
            self.next = if v.succ() == min { self.eq & !b } else { 0 };
            self.known = true;
            self.eq = b;
            self.min = v;
            return true;
        }
        if v == min {
            if v != K::ABSENT {
                self.eq |= b;
            }
            self.next &= !b;
            return false;
        }
        let held = self.eq & b != 0;
        self.eq &= !b;
        if v != K::ABSENT && v == min.succ() {
            self.next |= b;
        } else {
            self.next &= !b;
        }
        if !held || self.eq != 0 {
            return false;
        }
        // Nobody holds the minimum any more: it rises, to the next key
        // when someone is known to hold that.
        if self.known && self.next != 0 {
            (self.min, self.eq, self.next, self.known) = (min.succ(), self.next, 0, false);
        } else {
            self.scan(child);
        }
        true
    }
}

/// One side's index over its leaves' keys (see the module docs).
#[derive(Debug)]
pub(super) struct MinMask<K, const PARKS: bool = false> {
    /// How many leaves there are.
    leaves: usize,
    /// The leaves' keys, padded with absent ones to a multiple of
    /// [`WIDTH`].
    keys: Vec<K>,
    /// `nodes[0]` the nodes over the leaves, `nodes[l]` those over
    /// `nodes[l - 1]`, up to the root alone; every level but the root's is
    /// padded with empty nodes to a multiple of [`WIDTH`].
    nodes: Vec<Vec<Node<K>>>,
    /// The root's minimum, the lowest key.
    low: K,
    /// The best leaf, when known ([`UNKNOWN`] otherwise): a raise of the
    /// best that stays in its node knows the next.
    first: usize,
    /// `PARKS`: keys at or above this count as absent (see the module
    /// docs; an index that never parks compiles to the absent key alone).
    park: K,
}

/// No leaf known.
const UNKNOWN: usize = usize::MAX;

impl<K: MinKey, const PARKS: bool> Default for MinMask<K, PARKS> {
    fn default() -> Self {
        MinMask {
            leaves: 0,
            keys: Vec::new(),
            nodes: Vec::new(),
            low: K::ABSENT,
            first: UNKNOWN,
            park: K::ABSENT,
        }
    }
}

/// How many nodes each level holds over `leaves` leaves, bottom up (the
/// last is the root's 1).
fn shape(leaves: usize) -> impl Iterator<Item = usize> {
    let mut next = Some(leaves.max(1).div_ceil(WIDTH));
    std::iter::from_fn(move || {
        let here = next?;
        next = (here > 1).then(|| here.div_ceil(WIDTH));
        Some(if here > 1 { here.div_ceil(WIDTH) * WIDTH } else { 1 })
    })
}

impl<K: MinKey, const PARKS: bool> MinMask<K, PARKS> {
    /// Room for `leaves` leaves, so [`reset`](Self::reset) need not grow
    /// anything: a battle too big for memory is refused before it starts.
    pub(super) fn try_reserve(&mut self, leaves: usize) -> Result<(), TryReserveError> {
        let padded = leaves.max(1).div_ceil(WIDTH) * WIDTH;
        self.keys.try_reserve_exact(padded.saturating_sub(self.keys.len()))?;
        let levels = shape(leaves).count();
        if self.nodes.len() < levels {
            self.nodes.try_reserve_exact(levels - self.nodes.len())?;
            self.nodes.resize_with(levels, Vec::new);
        }
        for (level, size) in self.nodes.iter_mut().zip(shape(leaves)) {
            level.try_reserve_exact(size.saturating_sub(level.len()))?;
        }
        Ok(())
    }

    /// Readies the index for `leaves` leaves, leaf `i`'s key `key(i)`
    /// (after [`try_reserve`](Self::try_reserve) for as many).
    pub(super) fn reset(&mut self, leaves: usize, key: impl Fn(usize) -> K) {
        self.reset_parked(leaves, K::ABSENT, key);
    }

    /// As [`reset`](Self::reset), keys at or above `park` counting as
    /// absent (an index that `PARKS`).
    pub(super) fn reset_parked(&mut self, leaves: usize, park: K, key: impl Fn(usize) -> K) {
        debug_assert!(PARKS || park == K::ABSENT);
        self.park = park;
        let park = self.park();
        self.leaves = leaves;
        self.keys.clear();
        self.keys.extend((0..leaves).map(key));
        self.keys.resize(leaves.max(1).div_ceil(WIDTH) * WIDTH, K::ABSENT);
        let levels = shape(leaves).count();
        self.nodes.resize_with(levels, Vec::new);
        for (l, size) in shape(leaves).enumerate() {
            let (below, here) = self.nodes.split_at_mut(l);
            let level = &mut here[0];
            level.clear();
            level.resize(size, Node::EMPTY);
            match below.last() {
                None => {
                    for (node, chunk) in level.iter_mut().zip(self.keys.chunks(WIDTH)) {
                        node.build(chunk, |&k| k, park);
                    }
                }
                Some(lower) => {
                    for (node, chunk) in level.iter_mut().zip(lower.chunks(WIDTH)) {
                        node.build(chunk, |n| n.min, park);
                    }
                }
            }
        }
        self.low = self
            .nodes
            .last()
            .and_then(|root| root.first())
            .map_or(K::ABSENT, |n| n.min);
        self.first = UNKNOWN;
    }

    /// Keys at or above this count as absent.
    #[inline(always)]
    fn park(&self) -> K {
        if PARKS { self.park } else { K::ABSENT }
    }

    /// How many leaves the index holds.
    #[inline]
    pub(super) fn len(&self) -> usize {
        self.leaves
    }

    /// Leaf `leaf`'s key.
    #[inline]
    pub(super) fn key(&self, leaf: usize) -> K {
        if leaf >= self.leaves {
            return K::ABSENT;
        }
        self.keys.get(leaf).copied().unwrap_or(K::ABSENT)
    }

    /// The lowest key (absent when every key is).
    #[inline]
    pub(super) fn min(&self) -> K {
        self.low
    }

    /// The leaf with the lowest key, the lowest such leaf; `None` when
    /// every key is absent.
    #[inline]
    pub(super) fn best(&mut self) -> Option<usize> {
        if self.first != UNKNOWN {
            return Some(self.first);
        }
        let mut i = 0usize;
        for level in self.nodes.iter().rev() {
            let eq = level.get(i)?.eq;
            if eq == 0 {
                return None;
            }
            i = i * WIDTH + eq.trailing_zeros() as usize;
        }
        self.first = i;
        Some(i)
    }

    /// Leaf `leaf`'s key rises to the next: when it holds the lowest key
    /// with others in its node (a `least_engaged` pick's usual change),
    /// only its node's masks change.
    #[inline]
    pub(super) fn raise(&mut self, leaf: usize) {
        let (i, b) = (leaf / WIDTH, 1u64 << (leaf % WIDTH));
        let park = self.park();
        if let (Some(k), Some(node)) = (
            self.keys.get_mut(leaf),
            self.nodes.first_mut().and_then(|level| level.get_mut(i)),
        ) && node.eq & b != 0
            && node.eq != b
            && k.succ() < park
        {
            // Held in `eq`: a leaf, not absent, at the node's minimum.
            *k = k.succ();
            node.eq &= !b;
            node.next |= b;
            // The best was the lowest holder of the lowest key: the next
            // holder in its node is the best now. Any other best stays.
            if leaf == self.first {
                self.first = i * WIDTH + node.eq.trailing_zeros() as usize;
            }
            return;
        }
        self.set(leaf, self.key(leaf).succ());
    }

    /// Leaf `leaf`'s key is now `key`.
    #[inline]
    pub(super) fn set(&mut self, leaf: usize, key: K) {
        if leaf >= self.leaves {
            return;
        }
        let park = self.park();
        let Some(v) = self.keys.get_mut(leaf) else {
            return;
        };
        if *v == key {
            return;
        }
        // Parked to parked: nothing else reads it.
        if PARKS && *v >= park && key >= park {
            *v = key;
            return;
        }
        *v = key;
        self.first = UNKNOWN;
        // The leaf's own node, where most changes stop.
        let (i, keys) = (leaf / WIDTH, &self.keys);
        let Some(node) = self.nodes.first_mut().and_then(|level| level.get_mut(i)) else {
            return;
        };
        if node.update(
            leaf % WIDTH,
            key,
            |c| keys.get(i * WIDTH + c).copied().unwrap_or(K::ABSENT),
            park,
        ) {
            let min = node.min;
            self.climb(i, min);
        }
    }

    /// Node `child` of the lowest level has the minimum `new` now: the
    /// levels above follow (none when it is the root).
    #[inline(never)]
    fn climb(&mut self, mut child: usize, mut new: K) {
        let park = self.park();
        for l in 1..self.nodes.len() {
            let (i, j) = (child / WIDTH, child % WIDTH);
            let (below, here) = self.nodes.split_at_mut(l);
            let Some(node) = here.first_mut().and_then(|level| level.get_mut(i)) else {
                return;
            };
            let Some(below) = below.last() else {
                return;
            };
            let read = |c: usize| below.get(i * WIDTH + c).map_or(K::ABSENT, |n| n.min);
            if !node.update(j, new, read, park) {
                return;
            }
            (child, new) = (i, node.min);
        }
        // Through the root.
        self.low = new;
    }
}

#[cfg(test)]
mod tests {
    use super::{MinKey, MinMask, shape};

    /// The scan every pick of the general loop's index stands for.
    fn brute<K: MinKey>(keys: &[K]) -> Option<usize> {
        brute_parked(keys, K::ABSENT)
    }

    /// The same, keys at or above `park` absent.
    fn brute_parked<K: MinKey>(keys: &[K], park: K) -> Option<usize> {
        let (i, &k) = keys.iter().enumerate().min_by_key(|&(i, &k)| (k, i))?;
        (k < park).then_some(i)
    }

    #[test]
    fn levels_end_in_one_root() {
        let sizes = |n| shape(n).collect::<Vec<_>>();
        assert_eq!(sizes(0), [1]);
        assert_eq!(sizes(10), [1]);
        assert_eq!(sizes(64), [1]);
        assert_eq!(sizes(65), [64, 1]);
        assert_eq!(sizes(100_000), [1600, 64, 1]);
        assert_eq!(sizes(4096), [64, 1]);
        assert_eq!(sizes(4097), [128, 64, 1]);
    }

    #[test]
    fn best_is_the_scan_s_pick_through_random_changes() {
        // A small deterministic generator (xorshift).
        let mut s = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        for &n in &[1usize, 2, 63, 64, 65, 200, 4095, 4097, 9000] {
            drive::<false>(n, u32::ABSENT, &mut next);
        }
        // Parked from 3 or 1 on (a side mostly parked).
        for (n, park) in [(65, 3), (4097, 3), (65, 1), (200, 1)] {
            drive::<true>(n, park, &mut next);
        }
    }

    /// Random changes to an index of `n` leaves, keys at or above `park`
    /// absent, each answer checked against the scan.
    fn drive<const PARKS: bool>(n: usize, park: u32, next: &mut impl FnMut() -> u64) {
        let pick = |keys: &[u32]| brute_parked(keys, park);
        let mut keys: Vec<u32> = (0..n).map(|_| (next() % 4) as u32).collect();
        let mut index = MinMask::<u32, PARKS>::default();
        index.try_reserve(n).expect("small");
        index.reset_parked(n, park, |i| keys[i]);
        assert_eq!(index.best(), pick(&keys), "{n} fresh");
        // Each step checks against a scan of all `n`: the big indexes take
        // fewer steps (still thousands of changes through every level), so
        // the test costs about the same at each size.
        let steps = 20_000.min(20_000_000 / n.max(1));
        for step in 0..steps {
            let leaf = (next() % n as u64) as usize;
            let key = match next() % 8 {
                0 => u32::ABSENT,
                1 => keys[leaf].saturating_add(1).min(u32::ABSENT - 1),
                2 => keys[leaf].saturating_sub(1),
                3 => {
                    // The best rises, as a least-engaged pick makes it.
                    let Some(b) = pick(&keys) else { continue };
                    keys[b] += 1;
                    index.raise(b);
                    assert_eq!(index.best(), pick(&keys), "{n} step {step}");
                    continue;
                }
                _ => (next() % 6) as u32,
            };
            if keys[leaf] == u32::ABSENT && key != u32::ABSENT && !next().is_multiple_of(4) {
                continue; // the fallen mostly stay down
            }
            keys[leaf] = key;
            index.set(leaf, key);
            assert_eq!(index.key(leaf), key);
            assert_eq!(index.best(), pick(&keys), "{n} step {step}");
            let low = keys.iter().copied().filter(|&k| k < park).min();
            assert_eq!(index.min(), low.unwrap_or(u32::ABSENT));
        }
        // Reused for another size.
        let m = n / 2 + 1;
        let wide: Vec<i64> = (0..m).map(|i| -((i % 7) as i64)).collect();
        let mut other = MinMask::<i64>::default();
        other.try_reserve(m).expect("small");
        other.reset(m, |i| wide[i]);
        assert_eq!(other.best(), brute(&wide));
    }

    #[test]
    fn an_empty_or_all_absent_side_has_no_best() {
        let mut index = MinMask::<i64>::default();
        index.try_reserve(0).expect("small");
        index.reset(0, |_| 0);
        assert_eq!(index.best(), None);
        index.try_reserve(70).expect("small");
        index.reset(70, |_| i64::ABSENT);
        assert_eq!(index.best(), None);
        index.set(69, -3);
        assert_eq!(index.best(), Some(69));
        index.set(69, i64::ABSENT);
        assert_eq!(index.best(), None);
        index.set(70, -1); // past the leaves: ignored
        assert_eq!(index.best(), None);
    }
}
