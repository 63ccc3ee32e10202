//! Who is in reach of a random pick on the FUDGE fast path: the pick
//! itself (the general loop's draws exactly) and the Fenwick tree of each
//! side's places in reach that lets it find the k-th of them in O(log n),
//! kept as fighters engage and fall.

use super::{Fighter, NONE, OpposedArrays, SimError, TRIES, reserve_fighters};

/// A uniformly random enemy in reach of attacker `a` (its place in
/// `enemies`, the enemy side's list as it stood at the start of the
/// moment), drawn as the general loop draws it: up to [`TRIES`] uniform
/// draws among all, then one among those in reach. `None`: nobody is.
/// Inlined in the loop (a call's saving and restoring of registers cost
/// about a sixth of it, and the first draw nearly always finds one);
/// the draw among those in reach stays out of line.
#[inline(always)]
pub(super) fn pick_random<S>(
    rolls: &mut skirmish_core::dice::SeededRolls,
    enemies: &[Fighter<S>],
    a: u32,
    arrays: &OpposedArrays,
    reach: u32,
    (pos, first_b): (&[u32], u32),
) -> Option<usize> {
    if enemies.is_empty() {
        return None;
    }
    let mine = arrays.target_of[a as usize];
    let engaged_by = &arrays.engaged_by;
    let free = |f: &Fighter<S>| f.who == mine || engaged_by[f.who as usize] < reach;
    let total = enemies.len() as u64;
    for _ in 0..TRIES {
        let k = rolls.below(total) as usize;
        if enemies.get(k).is_some_and(free) {
            return Some(k);
        }
    }
    pick_in_reach(rolls, enemies, mine, arrays, reach, (pos, first_b))
}

/// [`pick_random`] once its uniform draws found nobody in reach: one draw
/// among those in reach (`mine`: the attacker's own target, or [`NONE`]).
#[inline(never)]
fn pick_in_reach<S>(
    rolls: &mut skirmish_core::dice::SeededRolls,
    enemies: &[Fighter<S>],
    mine: u32,
    arrays: &OpposedArrays,
    reach: u32,
    (pos, first_b): (&[u32], u32),
) -> Option<usize> {
    let engaged_by = &arrays.engaged_by;
    // Those in reach: the enemies with room (counted by `in_reach`), and
    // the attacker's own target (in the list if it stands) even when full.
    let in_reach = &arrays.in_reach[usize::from(enemies[0].who >= first_b)];
    let own_at = (mine != NONE)
        .then(|| pos[mine as usize] as usize)
        .filter(|&p| enemies.get(p).is_some_and(|f| f.who == mine) && engaged_by[mine as usize] >= reach);
    let count = in_reach.total() + usize::from(own_at.is_some());
    if count == 0 {
        return None;
    }
    let k = rolls.below(count as u64) as usize;
    // The k-th of them in list order.
    Some(match own_at {
        Some(p) => {
            let before = in_reach.prefix(p);
            match k.cmp(&before) {
                std::cmp::Ordering::Less => in_reach.find(k),
                std::cmp::Ordering::Equal => p,
                std::cmp::Ordering::Greater => in_reach.find(k - 1),
            }
        }
        None => in_reach.find(k),
    })
}

/// The places of one side's list that hold a fighter in reach, as a
/// Fenwick tree of 0/1 flags: how many there are, and the k-th of them, in
/// O(log n). The general loop counts them by scanning the whole enemy list
/// once eight random draws found nobody in reach, which at 2x100,000 made
/// each such pick cost the side's size (late in a battle, when a few
/// fighters are left and every one is full, that is every pick).
#[derive(Default)]
pub(super) struct InReach {
    /// `tree[i - 1]` sums the flags of places `i - (i & -i)..i`.
    tree: Vec<u32>,
    /// Places in reach.
    total: usize,
}

impl InReach {
    /// `len` places, every one in reach (nobody engaged yet).
    pub(super) fn reset(&mut self, len: usize) -> Result<(), SimError> {
        reserve_fighters(&mut self.tree, len)?;
        self.tree.clear();
        // Place i - 1 of a tree of ones covers `i & -i` places.
        self.tree.extend((1..=len).map(|i| (i & i.wrapping_neg()) as u32));
        self.total = len;
        Ok(())
    }

    /// How many places are in reach.
    #[inline]
    pub(super) fn total(&self) -> usize {
        self.total
    }

    /// Place `p`'s flag moves by `delta` (+1: now in reach, -1: now full
    /// or gone).
    #[inline]
    pub(super) fn add(&mut self, p: usize, delta: i32) {
        self.total = self.total.wrapping_add_signed(delta as isize);
        let mut i = p + 1;
        while let Some(node) = self.tree.get_mut(i - 1) {
            *node = node.wrapping_add_signed(delta);
            i += i & i.wrapping_neg();
        }
    }

    /// How many of places `0..p` are in reach.
    #[inline]
    pub(super) fn prefix(&self, p: usize) -> usize {
        let mut sum = 0usize;
        let mut i = p.min(self.tree.len());
        while i > 0 {
            sum += self.tree[i - 1] as usize;
            i &= i - 1;
        }
        sum
    }

    /// The place of the `k`-th place in reach (from 0; `k < total`).
    #[inline]
    pub(super) fn find(&self, mut k: usize) -> usize {
        let len = self.tree.len();
        let mut at = 0usize;
        let mut step = if len == 0 { 0 } else { 1 << len.ilog2() };
        while step > 0 {
            let next = at + step;
            if next <= len && (self.tree[next - 1] as usize) <= k {
                k -= self.tree[next - 1] as usize;
                at = next;
            }
            step >>= 1;
        }
        at
    }
}

/// The moment's fallen leave their side's list as `remove_fallen` does
/// (marked down, swap-removed), and `in_reach` follows the places: the
/// last fighter moves into the fallen's place, and the last place goes.
pub(super) fn remove_fallen_in_reach<S>(
    standing: &mut [Vec<Fighter<S>>; 2],
    (pos, down, first_b): (&mut [u32], &mut [u64], u32),
    fallen: &[u32],
    arrays: &mut OpposedArrays,
    reach: u32,
) {
    for &f in fallen {
        if let Some(w) = down.get_mut(f as usize / 64) {
            *w |= 1 << (f % 64);
        }
        let side = usize::from(f >= first_b);
        let list = &mut standing[side];
        let in_reach = &mut arrays.in_reach[side];
        let p = pos[f as usize] as usize;
        let last = list.len() - 1;
        let flag = |who: u32| i32::from(arrays.engaged_by[who as usize] < reach);
        // Place p loses the fallen's flag and takes the last one's; the
        // last place loses its flag.
        let (gone, moved) = (flag(f), flag(list[last].who));
        if p != last {
            in_reach.add(p, moved - gone);
        }
        in_reach.add(last, -moved);
        list.swap_remove(p);
        if let Some(m) = list.get(p) {
            pos[m.who as usize] = p as u32;
        }
    }
}
