//! The ranked policies' index for FUDGE opposed battles (`most_wounded`,
//! `least_engaged`): per side, its fighters' keys in a 64-ary index of
//! minimums and masks (`minmask.rs`), and `most_wounded`'s damage taken
//! kept in its leaves, 4 bytes while it fits and 8 after (see
//! [`RankIndex`]).

use super::super::is_down;
use super::super::minmask::{MinKey, MinMask};
use crate::error::SimError;
use crate::ranking::{ABSENT, Key, MAX_TAKEN, add_taken};

/// The ranked policies' keys, per side its fighters' in fighter order
/// (side 1's from `first_b`). A fighter's key is the general loop's
/// `rank_key`: absent when it is down or as many attackers as the reach
/// allows are engaged on it (full), its own key (`own_key`) otherwise. The
/// index's best is its lowest rank's lowest leaf, so its lowest fighter:
/// the general loop's tree's root, whose keys end in the fighter.
///
/// - `least_engaged`: an engagement count in 4 bytes, `u32::MAX` absent (a
///   present count is below the reach, so never that).
/// - `most_wounded`: a leaf that is also the fighter's damage taken (its
///   one home: a full fighter is still struck, and its damage must outlive
///   its absence; a separate array of it cost 8 bytes a fighter more,
///   against the 64-byte budget). Present, its rank orders the most wounded
///   first; full, it is above every present rank, parked in the index
///   (absent to it, and a blow on a full fighter touches only its leaf);
///   down, it is absent (its damage is never read again). In 4
///   bytes while every fighter's damage taken is at most
///   [`NARROW_TAKEN`] ([`narrow_wounded`]), as every battle of hit points
///   and wounds on the ladder is; the first blow past it moves both sides
///   to 8-byte leaves ([`wounded_leaf`]) for the rest of the battle, the
///   same ranks in a wider type.
#[derive(Default)]
pub(super) struct RankIndex {
    /// `least_engaged`'s leaves.
    engaged: [MinMask<u32>; 2],
    /// `most_wounded`'s leaves until some damage taken passes
    /// [`NARROW_TAKEN`] (parking the full).
    narrow: [MinMask<u32, true>; 2],
    /// `most_wounded`'s leaves from then on.
    wide: [MinMask<i64, true>; 2],
    /// `most_wounded` (else `least_engaged`).
    wounded: bool,
    /// The battle's leaves are `wide`.
    is_wide: bool,
    first_b: u32,
}

/// The most damage taken a 4-byte `most_wounded` leaf holds: present
/// leaves are `NARROW_TAKEN - taken` (`0..=NARROW_TAKEN`), full ones
/// `NARROW_TAKEN + 1 + taken`, below the absent `u32::MAX`.
const NARROW_TAKEN: i64 = (1 << 31) - 2;

/// `most_wounded`'s 4-byte leaf for a standing fighter with damage taken
/// `taken` (`0..=NARROW_TAKEN`), present or full.
#[inline]
fn narrow_wounded(taken: i64, present: bool) -> u32 {
    let taken = taken.clamp(0, NARROW_TAKEN);
    let leaf = if present {
        NARROW_TAKEN - taken
    } else {
        NARROW_TAKEN + 1 + taken
    };
    u32::try_from(leaf).unwrap_or(u32::MAX - 1)
}

/// The damage taken a standing fighter's 4-byte `most_wounded` leaf holds.
#[inline]
fn narrow_taken(leaf: u32) -> i64 {
    let leaf = i64::from(leaf);
    if leaf <= NARROW_TAKEN {
        NARROW_TAKEN - leaf
    } else {
        leaf - NARROW_TAKEN - 1
    }
}

/// `most_wounded`'s 8-byte leaf for a standing fighter with damage taken
/// `taken` (`0..=MAX_TAKEN`): minus it when present (at most 0), it plus
/// one when full (`1..=MAX_TAKEN + 1`, below the absent `i64::MAX`).
#[inline]
fn wounded_leaf(taken: i64, present: bool) -> i64 {
    let taken = taken.clamp(0, MAX_TAKEN);
    if present { -taken } else { taken + 1 }
}

/// The damage taken a standing fighter's 8-byte `most_wounded` leaf holds.
#[inline]
fn taken_of(leaf: i64) -> i64 {
    if leaf <= 0 { 0i64.saturating_sub(leaf) } else { leaf - 1 }
}

impl RankIndex {
    /// Readies the index for fighters `0..n`, side 1's from `first_b`,
    /// every one standing, unengaged and unhurt, `wounded` for
    /// `most_wounded`; room for them first, so a battle too big for memory
    /// is an error.
    pub(super) fn reset(
        &mut self,
        (n, first_b): (usize, u32),
        wounded: bool,
    ) -> Result<(), std::collections::TryReserveError> {
        let b = first_b as usize;
        self.wounded = wounded;
        self.is_wide = false;
        self.first_b = first_b;
        // `most_wounded`'s full leaves are parked: absent to the index, and
        // a blow on a full fighter touches its leaf alone.
        if wounded {
            let (start, park) = (narrow_wounded(0, true), narrow_wounded(0, false));
            self.narrow[0].try_reserve(b)?;
            self.narrow[1].try_reserve(n - b)?;
            // Room for the wider leaves too, not written unless a battle
            // widens (so not resident): a battle too big is refused before
            // it starts, not partway.
            self.wide[0].try_reserve(b)?;
            self.wide[1].try_reserve(n - b)?;
            self.narrow[0].reset_parked(b, park, |_| start);
            self.narrow[1].reset_parked(n - b, park, |_| start);
        } else {
            self.engaged[0].try_reserve(b)?;
            self.engaged[1].try_reserve(n - b)?;
            self.engaged[0].reset(b, |_| 0);
            self.engaged[1].reset(n - b, |_| 0);
        }
        Ok(())
    }

    /// Some damage taken passed [`NARROW_TAKEN`]: both sides' leaves
    /// become 8-byte ones, each rank as it was (in the room `reset`
    /// reserved; its check stays, as an error rather than an abort).
    #[cold]
    #[inline(never)]
    pub(super) fn widen(&mut self) -> Result<(), SimError> {
        let fighters = (self.narrow[0].len() + self.narrow[1].len()) as u64;
        for side in 0..2 {
            let (narrow, wide) = (&self.narrow[side], &mut self.wide[side]);
            let len = narrow.len();
            wide.try_reserve(len).map_err(|_| SimError::OutOfMemory { fighters })?;
            wide.reset_parked(len, wounded_leaf(0, false), |leaf| match narrow.key(leaf) {
                u32::MAX => i64::ABSENT,
                at => wounded_leaf(narrow_taken(at), i64::from(at) <= NARROW_TAKEN),
            });
        }
        self.is_wide = true;
        Ok(())
    }

    /// Fighter `f`'s side and leaf.
    #[inline]
    fn leaf(&self, f: u32) -> (usize, usize) {
        if f >= self.first_b {
            (1, (f - self.first_b) as usize)
        } else {
            (0, f as usize)
        }
    }

    /// Fighter `c`'s key set again from its state: down (in `down`), full
    /// (`engaged_by` at the reach) or its own key.
    #[inline]
    pub(super) fn update(&mut self, reach: u32, c: u32, down: &[u64], engaged_by: &[u32]) {
        let (side, leaf) = self.leaf(c);
        let engaged = engaged_by.get(c as usize).copied().unwrap_or(u32::MAX);
        let present = engaged < reach;
        let down = is_down(down, c);
        if self.is_wide {
            let index = &mut self.wide[side];
            let to = if down {
                i64::ABSENT
            } else {
                wounded_leaf(taken_of(index.key(leaf)), present)
            };
            index.set(leaf, to);
        } else if self.wounded {
            let index = &mut self.narrow[side];
            let to = if down {
                u32::MAX
            } else {
                narrow_wounded(narrow_taken(index.key(leaf)), present)
            };
            index.set(leaf, to);
        } else {
            let to = if down || !present { u32::MAX } else { engaged };
            self.engaged[side].set(leaf, to);
        }
    }

    /// `most_wounded`: standing fighter `c` takes a blow of `damage`
    /// (present or full as its leaf says: `update` keeps that to its
    /// engagements).
    #[inline]
    pub(super) fn add_taken(&mut self, c: u32, damage: i32) -> Result<(), SimError> {
        let (side, leaf) = self.leaf(c);
        if !self.is_wide {
            let index = &mut self.narrow[side];
            let at = index.key(leaf);
            if at == u32::MAX {
                return Ok(()); // down: never read again
            }
            let present = i64::from(at) <= NARROW_TAKEN;
            let taken = add_taken(narrow_taken(at), damage);
            if taken <= NARROW_TAKEN {
                index.set(leaf, narrow_wounded(taken, present));
                return Ok(());
            }
            self.widen()?;
        }
        let index = &mut self.wide[side];
        let at = index.key(leaf);
        if at != i64::ABSENT {
            index.set(leaf, wounded_leaf(add_taken(taken_of(at), damage), at <= 0));
        }
        Ok(())
    }

    /// Standing fighter `c`'s own key (`own_key`'s), present or full.
    #[inline]
    pub(super) fn own(&self, c: u32, engaged_by: &[u32]) -> Key {
        let (side, leaf) = self.leaf(c);
        let rank = if self.is_wide {
            0i64.saturating_sub(taken_of(self.wide[side].key(leaf)))
        } else if self.wounded {
            -narrow_taken(self.narrow[side].key(leaf))
        } else {
            i64::from(engaged_by.get(c as usize).copied().unwrap_or(u32::MAX))
        };
        (rank, c)
    }

    /// The best key among the fighters of `side` ([`ABSENT`] when none can
    /// be picked).
    #[inline]
    pub(super) fn best_of(&mut self, side: usize) -> Key {
        let side = side & 1;
        // (Full leaves are parked: never a best.)
        let best = if self.is_wide {
            let index = &mut self.wide[side];
            index.best().map(|leaf| (index.min(), leaf))
        } else if self.wounded {
            let index = &mut self.narrow[side];
            index.best().map(|leaf| (-narrow_taken(index.min()), leaf))
        } else {
            let index = &mut self.engaged[side];
            index.best().map(|leaf| (i64::from(index.min()), leaf))
        };
        match best {
            Some((rank, leaf)) => {
                let first = if side == 1 { self.first_b } else { 0 };
                (rank, first + leaf as u32)
            }
            None => ABSENT,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{NARROW_TAKEN, RankIndex, narrow_taken, narrow_wounded, taken_of, wounded_leaf};
    use crate::ranking::{ABSENT, Key, MAX_TAKEN, Ranking, add_taken, own_key};
    use crate::scenario::Targeting;

    /// The index answers as the general loop's trees do, for both sides
    /// and both ranked policies, through random engagements, blows and
    /// falls (a full fighter still struck, damage at either end of its
    /// range, a side with nobody, 1 and 200 fighters, reaches 1 to 3), and
    /// a standing fighter's own key is `own_key`'s.
    #[test]
    fn best_of_is_the_trees_root_through_random_changes() {
        // A small deterministic generator (xorshift).
        let mut s = 0x2545_F491_4F6C_DD1Du64;
        let mut next = move || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        let sizes = [(1usize, 0u32), (1, 1), (2, 1), (70, 3), (200, 130), (200, 200)];
        let policies = [Targeting::LeastEngaged, Targeting::MostWounded];
        let mut widened = 0;
        for (policy, (n, first_b)) in policies.into_iter().flat_map(|p| sizes.map(|s| (p, s))) {
            let reach = 1 + (next() % 3) as u32;
            let (mut down, mut engaged_by, mut taken) = (vec![0u64; n.div_ceil(64)], vec![0u32; n], vec![0i64; n]);
            let mut index = RankIndex::default();
            index.reset((n, first_b), policy == Targeting::MostWounded).unwrap();
            let mut trees = Ranking::default();
            trees.try_reserve(&[first_b as usize, n - first_b as usize]).unwrap();
            trees.reset(2, (0..n as u32).map(|f| u8::from(f >= first_b)), |c| {
                own_key(policy, c, &taken, &engaged_by)
            });
            for step in 0..3_000 {
                let c = (next() % n as u64) as u32;
                let i = c as usize;
                let is_down = down[i / 64] & (1 << (i % 64)) != 0;
                match next() % 8 {
                    _ if is_down => {}
                    0 => down[i / 64] |= 1 << (i % 64),
                    1..=4 => engaged_by[i] = (next() % u64::from(reach + 1)) as u32,
                    _ if policy == Targeting::LeastEngaged => {}
                    _ => {
                        // Blows past the 4-byte leaves' damage in the
                        // second half only (the index then widens).
                        let damage = match next() % 4 {
                            0 if step >= 1_500 => i32::MAX,
                            1 => -1,
                            _ => (next() % 5) as i32,
                        };
                        taken[i] = add_taken(taken[i], damage);
                        index.add_taken(c, damage).unwrap();
                    }
                }
                index.update(reach, c, &down, &engaged_by);
                let standing = down[i / 64] & (1 << (i % 64)) == 0;
                let key: Key = if !standing || engaged_by[i] >= reach {
                    ABSENT
                } else {
                    own_key(policy, c, &taken, &engaged_by)
                };
                trees.set(c, key);
                if standing {
                    assert_eq!(
                        index.own(c, &engaged_by),
                        own_key(policy, c, &taken, &engaged_by),
                        "step {step}"
                    );
                }
                for side in 0..2u8 {
                    // The enemies of side `side ^ 1`'s fighters are `side`'s.
                    assert_eq!(
                        index.best_of(usize::from(side)),
                        trees.best_enemy(side ^ 1),
                        "{n} fighters, side 1 from {first_b}, {policy:?}, reach {reach}, step {step}, side {side}"
                    );
                }
            }
            // The 4-byte leaves held every damage taken until one passed them.
            assert_eq!(
                index.is_wide,
                taken.iter().any(|&t| t > NARROW_TAKEN),
                "{n} fighters, {policy:?}"
            );
            widened += usize::from(index.is_wide);
        }
        // Some `most_wounded` index widened in the second half (it matters
        // that both widths answered).
        assert!(widened > 0);
    }

    /// A standing fighter's damage taken comes back from its leaf whole,
    /// present or full, at either end of its range, in either width; a
    /// present leaf is below every full one, neither absent.
    #[test]
    fn a_wounded_leaf_keeps_the_damage_taken() {
        for taken in [0, 1, 2, 1 << 40, MAX_TAKEN - 1, MAX_TAKEN] {
            let (present, full) = (wounded_leaf(taken, true), wounded_leaf(taken, false));
            assert_eq!((taken_of(present), taken_of(full)), (taken, taken));
            assert!(present <= 0 && (1..i64::MAX).contains(&full), "{taken}");
        }
        for taken in [0, 1, NARROW_TAKEN - 1, NARROW_TAKEN] {
            let (present, full) = (narrow_wounded(taken, true), narrow_wounded(taken, false));
            assert_eq!((narrow_taken(present), narrow_taken(full)), (taken, taken));
            assert!(i64::from(present) <= NARROW_TAKEN && i64::from(full) > NARROW_TAKEN && full < u32::MAX);
        }
        assert_eq!(add_taken(MAX_TAKEN - 1, i32::MAX), MAX_TAKEN);
        assert_eq!(add_taken(5, -3), 5);
    }
}
