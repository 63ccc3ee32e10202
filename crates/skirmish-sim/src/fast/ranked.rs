//! The ranked targeting policies on the fast path (issue 13): "attack the
//! most wounded foe" and "attack the least engaged foe", on both loops
//! (`continuous.rs`, `moments.rs`), so under every timing system with a
//! lean clock.
//!
//! The general loop (`battle/fight.rs`, `battle/targeting.rs`) keeps, for
//! every fighter, its damage taken, its target and the attackers engaged
//! on it, and a tournament tree per side over the policy's key
//! (`ranking.rs`). This keeps only what the policy reads: damage taken for
//! `most_wounded` (its key), targets and engagements for `least_engaged`
//! (its key, and what a new pick changes), and the same trees, so a pick
//! is the enemy side's root, as there. Under Full Contact there is no
//! reach, so no fighter is ever full: the tree's leaf of a standing fighter
//! is its own key, and the general loop's comparison of the root with the
//! attacker's current target never changes the pick.
//!
//! The order of updates is the general loop's: an engagement counts from
//! the pick on (later picks of the same moment see it); damage taken counts
//! from the end of the moment (every pick of a moment sees the state at its
//! start), when the fallen also leave the trees and their own targets.

use crate::battle::{NONE, own_key, reserve_fighters};
use crate::error::SimError;
use crate::ranking::{ABSENT, Key, Ranking};
use crate::scenario::Targeting;

use super::is_down;

/// What the ranked policies keep per fighter, reused from battle to battle.
#[derive(Default)]
pub(crate) struct RankedArrays {
    ranking: Ranking,
    /// Per fighter, `most_wounded` only: damage taken.
    taken: Vec<i64>,
    /// Per fighter, `least_engaged` only: attackers engaged on it.
    engaged_by: Vec<u32>,
    /// Per fighter, `least_engaged` only: its target, or [`NONE`].
    target_of: Vec<u32>,
}

impl RankedArrays {
    /// Readies the arrays and trees for a battle of `n` fighters, side 1's
    /// from number `first_b`, every one standing and fresh.
    pub(super) fn reset(&mut self, policy: Targeting, n: usize, first_b: u32) -> Result<(), SimError> {
        let oom = |_| SimError::OutOfMemory { fighters: n as u64 };
        let b = n - first_b as usize;
        self.ranking.try_reserve(&[first_b as usize, b]).map_err(oom)?;
        self.taken.clear();
        self.engaged_by.clear();
        self.target_of.clear();
        match policy {
            Targeting::MostWounded => {
                reserve_fighters(&mut self.taken, n)?;
                self.taken.resize(n, 0);
            }
            Targeting::LeastEngaged => {
                reserve_fighters(&mut self.engaged_by, n)?;
                reserve_fighters(&mut self.target_of, n)?;
                self.engaged_by.resize(n, 0);
                self.target_of.resize(n, NONE);
            }
            Targeting::Random => {}
        }
        let (taken, engaged_by) = (&self.taken, &self.engaged_by);
        self.ranking
            .reset(2, (0..n as u32).map(|f| u8::from(f >= first_b)), |c| {
                own_key(policy, c, taken, engaged_by)
            });
        Ok(())
    }

    /// Fighter `c`'s key now (down: not to be picked).
    #[inline]
    fn key(&self, policy: Targeting, c: u32, down: &[u64]) -> Key {
        if is_down(down, c) {
            ABSENT
        } else {
            own_key(policy, c, &self.taken, &self.engaged_by)
        }
    }

    /// Attacker `a` of `side` picks its target: the best enemy standing,
    /// engaged from now on. `None`: no enemy can be picked.
    #[inline]
    pub(super) fn pick(&mut self, policy: Targeting, a: u32, side: u8, down: &[u64]) -> Option<u32> {
        let best = self.ranking.best_of(side ^ 1);
        if best == ABSENT {
            return None;
        }
        let t = best.1;
        if policy == Targeting::LeastEngaged {
            let old = self.target_of[a as usize];
            if old != t {
                if old != NONE {
                    self.engaged_by[old as usize] -= 1;
                }
                self.engaged_by[t as usize] += 1;
                self.target_of[a as usize] = t;
                if old != NONE {
                    self.ranking.set(old, self.key(policy, old, down));
                }
                self.ranking.set(t, self.key(policy, t, down));
            }
        }
        Some(t)
    }

    /// The end of a moment, after the fallen are marked down in `down`:
    /// the moment's damage (`struck`, emptied) counts, the hit and the
    /// fallen take their new places, and the fallen's own targets lose an
    /// attacker.
    pub(super) fn end_moment(&mut self, policy: Targeting, down: &[u64], fallen: &[u32], struck: &mut Vec<(u32, i32)>) {
        // Damage moves only `most_wounded`'s keys (a fallen fighter's key
        // goes below, under either policy).
        if policy == Targeting::MostWounded {
            for &(t, damage) in struck.iter() {
                self.taken[t as usize] += i64::from(damage.max(0));
            }
            for &(t, _) in struck.iter() {
                self.ranking.set(t, self.key(policy, t, down));
            }
        }
        struck.clear();
        for &f in fallen {
            self.ranking.set(f, ABSENT);
            if policy == Targeting::LeastEngaged {
                let t = self.target_of[f as usize];
                if t != NONE {
                    self.engaged_by[t as usize] -= 1;
                    self.target_of[f as usize] = NONE;
                    self.ranking.set(t, self.key(policy, t, down));
                }
            }
        }
    }
}
