//! The fast path's plan: a battle's groups and the tables that make a
//! strike loads and arithmetic (outcomes per SR - DR and roll, hit points
//! lost per damage, whole strikes per pair of groups), built once per
//! battle with the core's own rules (`full_contact::resolve`,
//! `HitPoints::hp_lost`).

use skirmish_core::striking::full_contact::{self, StrikeOptions, StrikeOutcome};

use super::OpposedPlan;
use crate::error::SimError;
use crate::report::BattleSummary;
use crate::scenario::Targeting;

/// The outcome table covers SR - DR in `-SPAN..=SPAN`; beyond, a strike
/// calls `full_contact::resolve` (the same decision, slower).
pub(super) const SPAN: i64 = 16;
pub(super) const ROLLS: usize = 9;
/// Hit points lost are tabled for damage `0..HP_TABLE`.
pub(super) const HP_TABLE: usize = 64;

/// The fast path's bound on the amazing strike's extra damage and the
/// damage factors, so that a tabled strike's damage needs no saturating
/// arithmetic (the scenario checks keep factors within a few thousand).
pub(super) const LIMIT: i32 = 1_000_000;

/// Groups the fast path can number in a ring [`Entry`](super::continuous::Entry) and a [`Fighter`](super::Fighter).
pub(crate) const MAX_GROUPS: usize = 1 << 16;

/// A group's constants, as the fast path reads them.
#[derive(Debug, Clone, Copy)]
pub(crate) struct FastGroup {
    /// 0 or 1.
    pub(crate) side: u8,
    pub(crate) disruptible: bool,
    pub(crate) strike_rating: i32,
    /// Armor included.
    pub(crate) defense_rating: i32,
    pub(crate) offense: i32,
    pub(crate) defense_factor: i32,
    /// Time Taken minus speed bonus.
    pub(crate) speed: i32,
    /// Hit points, if the group sets its own.
    pub(crate) hit_points: Option<i32>,
}

/// What one strike did, for one SR - DR and one roll.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Cell {
    /// The margin plus the amazing strike's extra damage (hits only).
    pub(super) base: i32,
    /// Whether it hit.
    pub(super) hit: bool,
    /// Hits, amazing strikes and amazing defenses (0 or 1 each), packed as
    /// [`Tally`] counts them.
    pub(super) counts: u64,
}

impl Cell {
    pub(super) fn of(outcome: StrikeOutcome, amazing_strike_damage: i32) -> Cell {
        let amazing_strike = matches!(outcome, StrikeOutcome::AmazingStrike { .. });
        let amazing_defense = matches!(outcome, StrikeOutcome::AmazingDefense { .. });
        let extra = if amazing_strike { amazing_strike_damage } else { 0 };
        Cell {
            base: skirmish_core::combat::damage_margin(outcome, extra),
            hit: outcome.is_hit(),
            counts: u64::from(outcome.is_hit())
                | u64::from(amazing_strike) << Tally::SHIFT
                | u64::from(amazing_defense) << (2 * Tally::SHIFT),
        }
    }
}

/// Groups up to which a battle without wound penalties or disruption gets a
/// table of whole strikes per (attacker group, target group, roll).
pub(super) const PAIR_GROUPS: usize = 16;

/// A whole strike of one group on another with one roll, as the damage
/// model applies it (see [`FastPlan::pairs`]).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Pair {
    /// As [`Cell::counts`].
    pub(super) counts: u64,
    /// What the model applies.
    pub(super) value: i32,
    /// Whether it hit.
    pub(super) hit: bool,
}

/// Hits, amazing strikes and amazing defenses counted together in one
/// word: a field per count, each wide enough for [`Tally::SPAN`] strikes.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Tally(u64);

impl Tally {
    /// Strikes a tally can count before [`drain`](Self::drain).
    pub(super) const SPAN: usize = 1 << 20;
    pub(super) const SHIFT: u32 = 21;
    pub(super) const FIELD: u64 = (1 << Self::SHIFT) - 1;

    #[inline]
    pub(super) fn add(&mut self, counts: u64) {
        self.0 += counts;
    }

    pub(super) fn drain(&mut self, summary: &mut BattleSummary) {
        summary.hits += self.0 & Self::FIELD;
        summary.amazing_strikes += self.0 >> Self::SHIFT & Self::FIELD;
        summary.amazing_defenses += self.0 >> (2 * Self::SHIFT);
        self.0 = 0;
    }
}

/// A battle the fast path can fight, prepared once.
#[derive(Debug, Clone)]
pub(crate) struct FastPlan {
    pub(super) groups: Vec<FastGroup>,
    pub(super) options: StrikeOptions,
    pub(super) amazing_strike_damage: i32,
    /// `cells[(SR - DR + SPAN) * 9 + roll + 4]`.
    pub(super) cells: Box<[Cell; (2 * SPAN as usize + 1) * ROLLS]>,
    /// Continuous timing (the fused loop, `continuous.rs`): ticks per lap
    /// of the stopwatch (rounds), at least 1. `None`: the battle's lean
    /// clock hands out the moments (`moments.rs`).
    pub(super) lap: Option<u64>,
    pub(super) max_ticks: u64,
    pub(super) max_rounds: u32,
    pub(super) max_actions: u64,
    pub(super) any_disruptible: bool,
    /// How targets are picked.
    pub(super) targeting: Targeting,
    /// FUDGE opposed striking's rules and skills (`opposed.rs`), instead
    /// of Full Contact's tables.
    pub(super) opposed: Option<Box<OpposedPlan>>,
}

impl FastPlan {
    /// The plan for these groups and rules.
    pub(crate) fn new(
        groups: Vec<FastGroup>,
        options: StrikeOptions,
        amazing_strike_damage: i32,
        lap: Option<u32>,
        (max_ticks, max_rounds, max_actions): (u64, u32, u64),
        targeting: Targeting,
    ) -> Result<FastPlan, SimError> {
        let small = |v: i32| (-LIMIT..=LIMIT).contains(&v);
        if !small(amazing_strike_damage) || !groups.iter().all(|g| small(g.offense) && small(g.defense_factor)) {
            return Err(SimError::Scenario(
                "the fast path's sums need damage terms within a million".into(),
            ));
        }
        let mut cells = Box::new([Cell::default(); (2 * SPAN as usize + 1) * ROLLS]);
        for (i, cell) in cells.iter_mut().enumerate() {
            let d = (i / ROLLS) as i32 - SPAN as i32;
            let roll = (i % ROLLS) as i32 - 4;
            let outcome = full_contact::resolve(d, 0, roll, options).map_err(SimError::rules)?;
            *cell = Cell::of(outcome, amazing_strike_damage);
        }
        Ok(FastPlan {
            any_disruptible: groups.iter().any(|g| g.disruptible),
            groups,
            options,
            amazing_strike_damage,
            cells,
            lap: lap.map(|l| u64::from(l.max(1))),
            max_ticks,
            max_rounds,
            max_actions,
            targeting,
            opposed: None,
        })
    }

    /// The same plan for FUDGE opposed striking (`opposed.rs`): the
    /// groups' ratings and the Full Contact options go unread.
    pub(crate) fn with_opposed(mut self, opposed: OpposedPlan) -> FastPlan {
        self.opposed = Some(Box::new(opposed));
        self
    }

    /// What a strike at `strike_rating` against `defense_rating` with
    /// `roll` (a 4dF total, -4..=4) did, and its damage with the attacker's
    /// `offense` and the defender's `defense_factor`: as the general loop
    /// computes them with `full_contact::resolve`, by table.
    #[inline]
    pub(super) fn strike(
        &self,
        strike_rating: i32,
        defense_rating: i32,
        roll: i32,
        offense: i32,
        defense_factor: i32,
    ) -> Result<(Cell, i32), SimError> {
        debug_assert!((-4..=4).contains(&roll));
        // With the roll in -4..=4, the index is in the table exactly when
        // SR - DR is in -SPAN..=SPAN.
        let i = (i64::from(strike_rating) - i64::from(defense_rating) + SPAN) * ROLLS as i64 + i64::from(roll) + 4;
        match usize::try_from(i).ok().and_then(|i| self.cells.get(i)) {
            // No overflow: a tabled margin is within -SPAN - 4..=SPAN + 4 and
            // the plan keeps the extra damage and the factors small.
            Some(&cell) => Ok((cell, cell.base + offense - defense_factor)),
            None => self.strike_beyond(strike_rating, defense_rating, roll, offense, defense_factor),
        }
    }

    #[cold]
    #[inline(never)]
    pub(super) fn strike_beyond(
        &self,
        strike_rating: i32,
        defense_rating: i32,
        roll: i32,
        offense: i32,
        defense_factor: i32,
    ) -> Result<(Cell, i32), SimError> {
        let outcome =
            full_contact::resolve(strike_rating, defense_rating, roll, self.options).map_err(SimError::rules)?;
        let cell = Cell::of(outcome, self.amazing_strike_damage);
        Ok((cell, cell.base.saturating_add(offense).saturating_sub(defense_factor)))
    }

    /// Whether the battle is fought on the Continuous loop (else a lean
    /// clock hands out its moments).
    pub(crate) fn is_continuous(&self) -> bool {
        self.lap.is_some()
    }

    /// Number of groups.
    pub(super) fn group_count(&self) -> usize {
        self.groups.len()
    }

    /// Every whole strike `(attacker group, target group, roll)`, without
    /// wound penalties, at `(a * G + t) * 9 + roll + 4`, with `value(hit,
    /// damage)` what the model applies; empty beyond [`PAIR_GROUPS`]
    /// groups, or if a strike cannot be resolved (the strike then reports
    /// the error when it happens).
    pub(super) fn pairs(&self, mut value: impl FnMut(bool, i32) -> Option<i32>) -> Vec<Pair> {
        let g = self.groups.len();
        if g > PAIR_GROUPS {
            return Vec::new();
        }
        let mut out = Vec::with_capacity(g * g * ROLLS);
        for ga in &self.groups {
            for gt in &self.groups {
                for roll in -4..=4 {
                    let Ok((cell, damage)) =
                        self.strike(ga.strike_rating, gt.defense_rating, roll, ga.offense, gt.defense_factor)
                    else {
                        return Vec::new();
                    };
                    let Some(value) = value(cell.hit, damage) else {
                        return Vec::new();
                    };
                    out.push(Pair {
                        counts: cell.counts,
                        value,
                        hit: cell.hit,
                    });
                }
            }
        }
        out
    }
}
