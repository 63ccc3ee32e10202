//! Distance, surprise and the rear in battles (docs/rules.md §5.1, §5.2):
//! each group's reach, move and plan; where every fighter stands on the
//! line; what an actor does when its action comes (strike, move, wait);
//! when a defender is unaware.
//!
//! The rules of distance are core's (`skirmish_core::distance`: reach,
//! step; Full Contact's range penalty in `striking::full_contact`): here
//! they are only applied to the battle's fighters.

use std::collections::BTreeSet;

use skirmish_core::distance::{
    DEFAULT_MELEE_REACH, DEFAULT_MISSILE, DEFAULT_MOVE, Plan, WeaponReach, default_unaware_defense, step,
};
use skirmish_core::fighter::Fighter;
use skirmish_core::striking::opposed::Missile;
use skirmish_core::timing::TimingSystem;

use super::Battle;
use crate::error::SimError;
use crate::roster::{NONE, reserve_fighters};
use crate::scenario::{Group, Striking};

/// A group's part in distance and surprise, resolved from its profile.
#[derive(Debug, Clone, Copy)]
pub(super) struct GroupField {
    /// What its weapon reaches: its `range` if it has one (Full Contact's
    /// shots, or FUDGE 4.4's), else its melee reach.
    pub(super) reach: WeaponReach,
    /// FUDGE 4.4: what its shots are (thrown, or propelled at -2 or -3 to
    /// the dodge).
    pub(super) missile: Missile,
    /// FUDGE 4.4: levels its cover adds to the Difficulty Level of a shot
    /// at it.
    pub(super) cover: i32,
    /// FUDGE 4.4: the trait it dodges with, if not its combat skill.
    pub(super) dodge: Option<i32>,
    /// How far its melee weapon reaches (a shooter's too: FUDGE 4.1, an
    /// attack within it is melee).
    pub(super) melee_reach: i64,
    /// Feet one move action covers.
    pub(super) move_distance: i64,
    /// What it does with no foe in reach.
    pub(super) plan: Plan,
    /// `keep_distance`: steps back while a foe is this near.
    pub(super) keep_at: i64,
    /// It defends unaware for this many ticks or rounds from the start.
    pub(super) unaware_for: u32,
    /// Its Full Contact DR when unaware, armor included.
    pub(super) unaware_defense: i32,
}

impl GroupField {
    /// A group in melee from the start, never surprised: what a battle
    /// without a distance, or a continuation's fighter, has.
    pub(super) fn melee() -> GroupField {
        GroupField {
            reach: WeaponReach::Melee(DEFAULT_MELEE_REACH),
            missile: DEFAULT_MISSILE,
            cover: 0,
            dodge: None,
            melee_reach: DEFAULT_MELEE_REACH,
            move_distance: DEFAULT_MOVE,
            plan: Plan::Close,
            keep_at: DEFAULT_MOVE.saturating_mul(2),
            unaware_for: 0,
            unaware_defense: 0,
        }
    }

    /// The group's field from its profile and resolved fighter.
    pub(super) fn of(profile: &Group, fighter: &Fighter, striking: &Striking) -> GroupField {
        let melee_reach = profile.melee_reach.unwrap_or(DEFAULT_MELEE_REACH);
        let melee = WeaponReach::Melee(melee_reach);
        let reach = profile.range.map_or(melee, WeaponReach::Ranged);
        let armor = match striking {
            Striking::FullContact(_) => fighter.armor_bonus,
            // FUDGE: the armor is in the damage factor, not a DR.
            Striking::FudgeOpposed(_) => 0,
        };
        let move_distance = profile.move_distance.unwrap_or(DEFAULT_MOVE);
        let base = profile
            .unaware_defense_rating
            .unwrap_or_else(|| default_unaware_defense(profile.defense_rating));
        GroupField {
            reach,
            missile: profile.missile.unwrap_or(DEFAULT_MISSILE),
            cover: profile.cover,
            dodge: profile.dodge.map(|l| l.value()),
            melee_reach,
            move_distance,
            plan: Plan::or_default(profile.plan, reach.range().is_some()),
            keep_at: profile.keep_at.unwrap_or(move_distance.saturating_mul(2)),
            unaware_for: profile.unaware_for,
            unaware_defense: base.saturating_add(armor),
        }
    }
}

/// What an actor does with its action in a battle with a distance.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Act {
    /// Strikes (or shoots) this foe.
    Strike(u32),
    /// Moves this far toward its foes (negative: away).
    Move(i64),
    /// Nothing in reach and nothing to do: the action passes.
    Wait,
}

/// Where every fighter stands: one line, side 0 facing up it from 0, side
/// 1 facing down it from the scenario's distance. Closing moves stop at
/// reach of the nearest foe, so the sides never cross: a side-0 fighter's
/// nearest foe is side 1's lowest position, a side-1 fighter's side 0's
/// highest.
#[derive(Default)]
pub(super) struct Line {
    /// Per fighter: its position, in feet.
    pub(super) x: Vec<i64>,
    /// Per side: its standing fighters by (position, fighter).
    by_position: [BTreeSet<(i64, u32)>; 2],
}

impl Line {
    /// Room for `n` fighters.
    pub(super) fn reserve(&mut self, n: usize) -> Result<(), SimError> {
        reserve_fighters(&mut self.x, n)
    }

    /// Everyone back at the start: side 0 at 0, side 1 at `distance`;
    /// only the fighters `standing` on the line.
    pub(super) fn reset(&mut self, battle: &Battle, distance: i64, standing: impl Fn(usize) -> bool) {
        self.x.clear();
        for set in &mut self.by_position {
            set.clear();
        }
        for f in 0..battle.group_of.len() {
            let side = usize::from(battle.side_of(f as u32) != 0);
            let at = if side == 0 { 0 } else { distance };
            self.x.push(at);
            if standing(f) {
                self.by_position[side].insert((at, f as u32));
            }
        }
    }

    /// Empty: the battle has no distance.
    pub(super) fn clear(&mut self) {
        self.x.clear();
        for set in &mut self.by_position {
            set.clear();
        }
    }

    /// The distance between two fighters.
    #[inline]
    pub(super) fn between(&self, a: u32, b: u32) -> i64 {
        self.x[a as usize]
            .abs_diff(self.x[b as usize])
            .try_into()
            .unwrap_or(i64::MAX)
    }

    /// The nearest standing foe of a fighter of `side`, if any.
    #[inline]
    pub(super) fn nearest_foe(&self, side: u8) -> Option<u32> {
        match side {
            0 => self.by_position[1].first().map(|&(_, f)| f),
            _ => self.by_position[0].last().map(|&(_, f)| f),
        }
    }

    /// Fighter `f` of `side` moves `by` feet toward the foe (negative:
    /// away).
    pub(super) fn advance(&mut self, f: u32, side: u8, by: i64) {
        let s = usize::from(side != 0);
        let old = self.x[f as usize];
        let new = if s == 0 {
            old.saturating_add(by)
        } else {
            old.saturating_sub(by)
        };
        self.by_position[s].remove(&(old, f));
        self.by_position[s].insert((new, f));
        self.x[f as usize] = new;
    }

    /// Fighter `f` of `side` is down: off the line.
    pub(super) fn remove(&mut self, f: u32, side: u8) {
        let s = usize::from(side != 0);
        self.by_position[s].remove(&(self.x[f as usize], f));
    }
}

impl Battle {
    /// What actor `a` (of `side`; `rating`: under Full Contact its SR now,
    /// under FUDGE its best result now, [`Battle::best_result`]) does: strike
    /// the foe its policy `picked` if in reach, else the nearest foe if in
    /// reach and free (FUDGE's reach limit), else move by its plan or
    /// wait; a fighter keeping its distance steps back first when a foe
    /// is within its keep distance (docs/rules.md §5.1).
    #[inline]
    pub(super) fn act_at_distance(
        &self,
        a: u32,
        side: u8,
        picked: Option<u32>,
        rating: i32,
        line: &Line,
        (target_of, engaged_by): (&[u32], &[u32]),
    ) -> Act {
        let field = &self.field_of(a);
        let Some(nearest) = line.nearest_foe(side) else {
            return Act::Wait;
        };
        let gap = line.between(a, nearest);
        if field.plan == Plan::KeepDistance && gap <= field.keep_at && field.move_distance > 0 {
            return Act::Move(-field.move_distance);
        }
        // A shot is in reach under Full Contact's range rule, or under
        // FUDGE while a roll can make its Difficulty Level (§2.2.9).
        let in_reach = |t: u32| match self.striking {
            Striking::FullContact(rules) => field.reach.reaches(line.between(a, t), rating, &rules),
            Striking::FudgeOpposed(_) => {
                field
                    .reach
                    .reaches_difficulty(line.between(a, t), self.field_of(t).cover, rating)
            }
        };
        if let Some(t) = picked
            && in_reach(t)
        {
            return Act::Strike(t);
        }
        let free = target_of[a as usize] == nearest || engaged_by[nearest as usize] < self.reach_limit();
        if free && in_reach(nearest) {
            return Act::Strike(nearest);
        }
        match step(field.plan, gap, field.move_distance, field.reach, field.keep_at) {
            0 => Act::Wait,
            by => Act::Move(by),
        }
    }

    /// The distance part of fighter `f`'s group.
    #[inline]
    pub(super) fn field_of(&self, f: u32) -> &GroupField {
        &self.groups[self.group_of[f as usize] as usize].field
    }

    /// Whether fighter `t` is still unaware at this moment: its group's
    /// `unaware_for` counts ticks under Continuous and the Tick System
    /// (the moment's tick from the start, the trace's), rounds under the
    /// other systems.
    #[inline]
    pub(super) fn is_unaware(&self, t: u32, (tick, round): (u64, u32)) -> bool {
        let n = self.field_of(t).unaware_for;
        n > 0 && {
            let now = match self.timing {
                TimingSystem::Continuous(_) | TimingSystem::TickSystem(_) => tick,
                _ => u64::from(round),
            };
            now <= u64::from(n)
        }
    }

    /// Whether `t` meets `a`'s blow or shot unaware at this moment:
    /// surprised, or struck from the rear (docs/rules.md §5.2).
    #[inline]
    pub(super) fn defends_unaware(&self, a: u32, t: u32, at: (u64, u32), rear: &[bool]) -> bool {
        (self.surprise && self.is_unaware(t, at)) || rear.get(a as usize) == Some(&true)
    }

    /// Whether an attacker engaging `target`, engaged by `engaged` others,
    /// comes at it from the rear (`battle.front`, docs/rules.md §5.2).
    #[inline]
    pub(super) fn comes_from_the_rear(&self, target: u32, engaged: u32) -> bool {
        target != NONE && self.front.is_some_and(|front| engaged >= front)
    }
}
