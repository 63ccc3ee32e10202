//! Who strikes whom: the engine's per-fighter arrays (wound penalties, who
//! is down, damage taken, engagements, the standing lists) and the pick of
//! a target under the scenario's policy, with the keys of the targeting
//! index (`ranking.rs`) that "most wounded" and "least engaged" read.

use skirmish_core::dice::SeededRolls;

use super::Battle;
use super::distance::Line;
use crate::error::SimError;
use crate::lone::LoneMoment;
use crate::ranking::{ABSENT, Key, Ranking, own_key};
use crate::roster::{NONE, reserve_fighters};
use crate::scenario::{Striking, Targeting};

/// The engine's per-fighter arrays.
#[derive(Default)]
pub(super) struct Arrays {
    pub(super) penalty: Vec<i32>,
    pub(super) down: Vec<bool>,
    pub(super) taken: Vec<i64>,
    pub(super) target_of: Vec<u32>,
    pub(super) engaged_by: Vec<u32>,
    /// Standing fighters per side.
    pub(super) standing: Vec<Vec<u32>>,
    /// Each fighter's position in its side's standing list.
    pub(super) pos: Vec<u32>,
    pub(super) acting: Vec<u32>,
    pub(super) hits: Vec<(u32, i32)>,
    pub(super) fallen: Vec<u32>,
    /// Each side's FUDGE group roll at this moment, if it rolls as a group.
    pub(super) side_roll: Vec<Option<i32>>,
    /// The moment's strikes, once every actor has picked its target:
    /// (attacker, target, Full Contact Strike roll).
    pub(super) picks: Vec<(u32, u32, i32)>,
    /// `most_wounded` and `least_engaged` targeting's index.
    pub(super) ranking: Ranking,
    /// FUDGE exchanges by round: per fighter, the last exchange it began
    /// (`roster::exchange_key` of the round and its foe), empty otherwise.
    pub(super) exchanged: Vec<u64>,
    /// FUDGE: per pick of the moment, whether it is an exchange of its own
    /// (not one its pair already began this round).
    pub(super) live: Vec<bool>,
    /// FUDGE 4.34: the moment's beset fighters.
    pub(super) lone: LoneMoment,
    /// Where everyone stands, in a battle with a distance (empty
    /// otherwise).
    pub(super) line: Line,
    /// Per fighter, with `battle.front`: whether it came at its target
    /// from the rear (empty otherwise).
    pub(super) rear: Vec<bool>,
    /// Per fighter, when some may parry or be disarmed: why its next
    /// action is already lost ([`SPENT_ON_PARRY`], [`DISARMED`]; 0: it is
    /// not; docs/rules.md §2.1.4, §2.1.8); empty otherwise.
    pub(super) spent: Vec<u8>,
    /// Per fighter, likewise: its Defense Rating penalty while knocked
    /// down, until its next action (docs/rules.md §2.1.8).
    pub(super) knocked: Vec<i32>,
    /// FUDGE 4.4's shots of the moment (`ranged.rs`).
    pub(super) shots: super::ranged::Shots,
    /// FUDGE 4.31's scouting (`scouting.rs`).
    pub(super) scouting: super::scouting::Scouting,
}

/// [`Arrays::spent`]: the next action went to a parry.
pub(super) const SPENT_ON_PARRY: u8 = 1;
/// [`Arrays::spent`]: the next action is lost to a disarm.
pub(super) const DISARMED: u8 = 2;

impl Arrays {
    /// Room for `battle`'s fighters in every per-fighter array: the
    /// fighters' own, each side's standing list and the targeting index.
    pub(super) fn reserve(&mut self, battle: &Battle) -> Result<(), SimError> {
        let n = battle.group_of.len();
        let mut per_side = vec![0usize; battle.sides.len()];
        for g in &battle.groups {
            per_side[usize::from(g.side)] += g.count as usize;
        }
        if self.standing.len() < per_side.len() {
            self.standing.resize_with(per_side.len(), Vec::new);
        }
        for (list, &c) in self.standing.iter_mut().zip(&per_side) {
            reserve_fighters(list, c).map_err(|_| SimError::OutOfMemory { fighters: n as u64 })?;
        }
        if battle.targeting != Targeting::Random {
            self.ranking
                .try_reserve(&per_side)
                .map_err(|_| SimError::OutOfMemory { fighters: n as u64 })?;
        }
        reserve_fighters(&mut self.penalty, n)?;
        reserve_fighters(&mut self.down, n)?;
        reserve_fighters(&mut self.taken, n)?;
        reserve_fighters(&mut self.target_of, n)?;
        reserve_fighters(&mut self.engaged_by, n)?;
        reserve_fighters(&mut self.pos, n)?;
        reserve_fighters(&mut self.acting, n)?;
        // A moment's hits: a strike lands or is answered, never both, and a
        // fighter strikes at most once a moment.
        reserve_fighters(&mut self.hits, n)?;
        if battle.exchanges_by_round {
            reserve_fighters(&mut self.exchanged, n)?;
        }
        reserve_fighters(&mut self.fallen, n)?;
        if battle.distance.is_some() {
            self.line.reserve(n)?;
        }
        if battle.front.is_some() {
            reserve_fighters(&mut self.rear, n)?;
        }
        if battle.spends_actions {
            reserve_fighters(&mut self.spent, n)?;
            reserve_fighters(&mut self.knocked, n)?;
        }
        if matches!(battle.striking, Striking::FudgeOpposed(_)) {
            reserve_fighters(&mut self.live, n)?;
            self.lone.reserve(n)?;
        }
        self.shots.reserve(n, battle.has_fudge_shots())?;
        self.scouting.reserve(n, battle.plays_scouting())?;
        reserve_fighters(&mut self.picks, n)
    }

    pub(super) fn reset(&mut self, battle: &Battle) {
        self.reset_unranked(battle);
        self.rank(battle);
    }

    /// The targeting index from the arrays (off when the policy needs none).
    fn rank(&mut self, battle: &Battle) {
        if battle.targeting == Targeting::Random {
            self.ranking.off();
            return;
        }
        let (down, taken, engaged_by) = (&self.down, &self.taken, &self.engaged_by);
        let reach = battle.reach_limit();
        self.ranking.reset(
            battle.sides.len(),
            battle.group_of.iter().map(|&g| battle.groups[g as usize].side),
            |c| rank_key(battle.targeting, reach, c, (down, taken, engaged_by)),
        );
    }

    fn reset_unranked(&mut self, battle: &Battle) {
        let n = battle.group_of.len();
        self.penalty.clear();
        self.penalty.resize(n, 0);
        self.side_roll.clear();
        self.side_roll.resize(battle.sides.len(), None);
        self.down.clear();
        self.down.resize(n, false);
        self.taken.clear();
        self.taken.resize(n, 0);
        self.target_of.clear();
        self.target_of.resize(n, NONE);
        self.engaged_by.clear();
        self.engaged_by.resize(n, 0);
        self.standing.resize_with(battle.sides.len(), Vec::new);
        self.standing.truncate(battle.sides.len());
        for s in &mut self.standing {
            s.clear();
        }
        self.pos.clear();
        self.pos.resize(n, 0);
        for (f, &g) in battle.group_of.iter().enumerate() {
            let side = battle.groups[g as usize].side as usize;
            self.pos[f] = self.standing[side].len() as u32;
            self.standing[side].push(f as u32);
        }
        self.exchanged.clear();
        if battle.exchanges_by_round {
            self.exchanged.resize(n, u64::MAX);
        }
        self.spent.clear();
        self.knocked.clear();
        if battle.spends_actions {
            self.spent.resize(n, 0);
            self.knocked.resize(n, 0);
        }
        self.acting.clear();
        self.hits.clear();
        self.fallen.clear();
        self.picks.clear();
        self.live.clear();
        if let Striking::FudgeOpposed(r) = battle.striking {
            self.lone.reset(n, r.sweeping_blow);
        }
        self.shots.reset(n, battle.has_fudge_shots());
        self.scouting.reset(n, battle.plays_scouting());
        self.rear.clear();
        if battle.front.is_some() {
            self.rear.resize(n, false);
        }
        match battle.distance {
            Some(d) => self.line.reset(battle, d, |_| true),
            None => self.line.clear(),
        }
    }

    /// [`reset`](Self::reset), then only the fighters `standing` says are
    /// up stand; the others are down from the start.
    pub(super) fn reset_from(&mut self, battle: &Battle, standing: &[bool]) {
        self.reset_unranked(battle);
        for s in &mut self.standing {
            s.clear();
        }
        for (f, &g) in battle.group_of.iter().enumerate() {
            if standing.get(f).copied().unwrap_or(false) {
                let side = battle.groups[g as usize].side as usize;
                self.pos[f] = self.standing[side].len() as u32;
                self.standing[side].push(f as u32);
            } else {
                self.down[f] = true;
            }
        }
        if let Some(d) = battle.distance {
            self.line
                .reset(battle, d, |f| standing.get(f).copied().unwrap_or(false));
        }
        self.rank(battle);
    }
}

/// Fighter `c`'s key in the targeting index: [`ABSENT`] when it cannot be
/// picked (down, or as many attackers engaged as the reach allows), its own
/// key otherwise.
#[inline]
pub(super) fn rank_key(
    policy: Targeting,
    reach: u32,
    c: u32,
    (down, taken, engaged_by): (&[bool], &[i64], &[u32]),
) -> Key {
    let i = c as usize;
    if down.get(i).copied().unwrap_or(true) || engaged_by.get(i).is_none_or(|&e| e >= reach) {
        return ABSENT;
    }
    own_key(policy, c, taken, engaged_by)
}

impl Battle {
    /// How many candidates a uniformly random target of a fighter of `side`
    /// is drawn from (the enemies standing), or 1 when the policy draws
    /// none this way: what [`SeededRolls::action_dice`] is asked for.
    pub(super) fn random_pool(&self, side: u8, standing: &[Vec<u32>]) -> u32 {
        if self.targeting != Targeting::Random || self.reach_limit() != u32::MAX {
            return 1;
        }
        u32::try_from(enemies_standing(side, standing)).unwrap_or(u32::MAX)
    }

    /// At most how many attackers a target may have (FUDGE's reach; Full
    /// Contact has no limit).
    pub(super) fn reach_limit(&self) -> u32 {
        match self.striking {
            Striking::FudgeOpposed(_) => self.reach,
            Striking::FullContact(_) => u32::MAX,
        }
    }

    /// Picks the target of attacker `a` by the scenario's policy, among the
    /// enemies standing at the start of the moment; a uniformly random one
    /// is `drawn` (an index below [`random_pool`](Self::random_pool)) when
    /// the action drew it with its dice, and drawn from `rolls` otherwise.
    #[inline]
    #[expect(clippy::too_many_arguments, reason = "the pick's inputs, each of its own kind")]
    pub(super) fn pick_target(
        &self,
        a: u32,
        side: u8,
        standing: &[Vec<u32>],
        (target_of, engaged_by, taken, down): (&[u32], &[u32], &[i64], &[bool]),
        ranking: &Ranking,
        rolls: &mut SeededRolls,
        drawn: Option<u32>,
    ) -> Option<u32> {
        let reach = self.reach_limit();
        let mine = target_of[a as usize];
        let free = |c: u32| c == mine || engaged_by[c as usize] < reach;
        let enemies = || {
            standing
                .iter()
                .enumerate()
                .filter(move |(s, _)| *s != side as usize)
                .flat_map(|(_, l)| l.iter().copied())
        };
        match self.targeting {
            Targeting::Random if reach == u32::MAX && standing.len() == 2 => {
                // The common case: two sides, no reach limit.
                let list = &standing[1 - side as usize];
                if list.is_empty() {
                    return None;
                }
                let k = drawn.map_or_else(|| rolls.below(list.len() as u64), u64::from);
                list.get(k as usize).copied()
            }
            Targeting::Random => {
                let total = enemies_standing(side, standing);
                if total == 0 {
                    return None;
                }
                let nth = |k: usize| {
                    let mut k = k;
                    for (s, l) in standing.iter().enumerate() {
                        if s == side as usize {
                            continue;
                        }
                        if k < l.len() {
                            return l[k];
                        }
                        k -= l.len();
                    }
                    NONE
                };
                if reach == u32::MAX {
                    let k = drawn.map_or_else(|| rolls.below(total as u64), u64::from);
                    return Some(nth(k as usize));
                }
                // Reach: a few uniform tries, then a uniform pick among those in reach.
                for _ in 0..8 {
                    let c = nth(rolls.below(total as u64) as usize);
                    if free(c) {
                        return Some(c);
                    }
                }
                let count = enemies().filter(|&c| free(c)).count();
                if count == 0 {
                    return None;
                }
                let k = rolls.below(count as u64) as usize;
                enemies().filter(|&c| free(c)).nth(k)
            }
            // The index's best enemy in reach, or the attacker's own target
            // if that is better still (it stays in reach even when full):
            // what a scan of every enemy picked, in O(sides) (`ranking.rs`).
            Targeting::MostWounded | Targeting::LeastEngaged => {
                let mut best = ranking.best_enemy(side);
                if mine != NONE && !down.get(mine as usize).copied().unwrap_or(true) && self.side_of(mine) != side {
                    best = best.min(own_key(self.targeting, mine, taken, engaged_by));
                }
                (best != ABSENT).then_some(best.1)
            }
        }
    }
}

/// How many fighters of sides other than `side` are standing.
fn enemies_standing(side: u8, standing: &[Vec<u32>]) -> usize {
    standing
        .iter()
        .enumerate()
        .filter(|(s, _)| *s != side as usize)
        .map(|(_, l)| l.len())
        .sum()
}
