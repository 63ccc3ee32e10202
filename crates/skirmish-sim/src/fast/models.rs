//! The damage models as the fast path applies them: hit points from a
//! table of points lost per damage, FUDGE wounds as a track's row in a
//! table of what every hit does to every state (`wounds.rs`).

use skirmish_core::damage::{DamageModel, DamageState, FudgeWounds, HitPointState, HitPoints};

use super::plan::{FastPlan, HP_TABLE, Pair};
use super::{Common, FastWorkspace, Fighter, WoundsPrep};

/// A damage model as the fast path applies it.
pub(crate) trait FastModel: DamageModel {
    /// Precomputed once per battle plan (`HitPointsPrep::new`,
    /// `WoundsPrep::new`).
    type Prep;
    /// What a fighter's record keeps of its damage state (the state
    /// itself, or its row in the prepared tables).
    type Rec: Copy;
    /// The plan's whole strikes (see [`FastPlan::pairs`]), if prepared:
    /// never when the model has wound penalties.
    fn pair_table(prep: &Self::Prep) -> &[Pair];
    /// Applies a whole strike from [`pair_table`](Self::pair_table);
    /// returns whether it took the fighter down just now.
    fn land_pair(&self, prep: &Self::Prep, state: &mut Self::Rec, pair: &Pair) -> bool;
    /// Group `g`'s fresh state, as a record keeps it.
    fn fresh_record(prep: &Self::Prep, g: usize) -> Self::Rec;
    /// A continuation's state `d` as a record keeps it, with its wound
    /// penalty, if it is of this model.
    fn record_of(&self, prep: &Self::Prep, d: &DamageState) -> Option<(Self::Rec, i32)>;
    /// Whether a hit can ever change a wound penalty.
    fn penalizes(prep: &Self::Prep) -> bool;
    /// Applies a strike's `damage` if it `hit` (as `DamageModel::apply`);
    /// returns whether that took the fighter down just now, and its wound
    /// penalty after (read only for a hit: a miss changes nothing).
    fn land(&self, prep: &Self::Prep, state: &mut Self::Rec, hit: bool, damage: i32) -> (bool, i32);
    /// The standing fighters' records per side, in the workspace.
    fn records(ws: &mut FastWorkspace) -> (&mut [Vec<Fighter<Self::Rec>>; 2], &mut Common);
}

/// Hit points, prepared.
#[derive(Debug, Clone)]
pub(crate) struct HitPointsPrep {
    pub(super) fresh: Vec<HitPointState>,
    /// `HitPoints::hp_lost(d)` for `d` in `0..HP_TABLE`.
    pub(super) lost: [i32; HP_TABLE],
    /// Whether tabled losses can be subtracted without saturating.
    pub(super) exact: bool,
    pub(super) dead_at: i32,
    pub(super) penalizes: bool,
    /// The plan's whole strikes as hit points lost, when it has no wound
    /// penalties and few groups (see [`FastPlan::pairs`]).
    pub(super) pairs: Vec<Pair>,
}

impl HitPointsPrep {
    /// `model` prepared for `plan`.
    pub(crate) fn new(model: &HitPoints, plan: &FastPlan) -> HitPointsPrep {
        let lost: [i32; HP_TABLE] = std::array::from_fn(|d| model.hp_lost(d as i32));
        let dead_at = model.config().dead_at;
        let penalizes = !model.config().penalties.is_empty();
        // Whole strikes as hit points lost (0 for a miss), when plain
        // subtraction cannot overflow (as `exact` below).
        let pairs = if penalizes || dead_at < -(1 << 30) || plan.opposed.is_some() {
            Vec::new()
        } else {
            plan.pairs(|hit, damage| {
                let lost = if hit { model.hp_lost(damage) } else { 0 };
                (lost <= 1 << 30).then_some(lost)
            })
        };
        HitPointsPrep {
            fresh: plan
                .groups
                .iter()
                .map(|g| HitPointState::new(g.hit_points.unwrap_or(model.config().max_hp)))
                .collect(),
            lost,
            exact: lost.iter().all(|&l| l <= 1 << 30) && dead_at >= -(1 << 30),
            dead_at,
            penalizes,
            pairs,
        }
    }
}

impl FastModel for HitPoints {
    type Prep = HitPointsPrep;
    type Rec = HitPointState;

    #[inline]
    fn pair_table(prep: &HitPointsPrep) -> &[Pair] {
        &prep.pairs
    }

    /// As [`land`](FastModel::land) on a tabled loss: `pair.value` hit
    /// points, 0 for a miss, lost unless already dead.
    #[inline]
    fn land_pair(&self, prep: &HitPointsPrep, state: &mut HitPointState, pair: &Pair) -> bool {
        let before = state.hp();
        // No overflow: `before > dead_at >= -2^30` when it loses any, and a
        // tabled loss is at most 2^30.
        let after = before - std::hint::select_unpredictable(before > prep.dead_at, pair.value, 0);
        *state = HitPointState::new(after);
        (before > 0) & (after <= 0)
    }

    #[inline]
    fn fresh_record(prep: &HitPointsPrep, g: usize) -> HitPointState {
        prep.fresh[g]
    }

    fn record_of(&self, _: &HitPointsPrep, d: &DamageState) -> Option<(HitPointState, i32)> {
        match d {
            DamageState::HitPoints(s) => Some((*s, self.wound_penalty(s))),
            DamageState::FudgeWounds(_) => None,
        }
    }

    #[inline]
    fn penalizes(prep: &HitPointsPrep) -> bool {
        prep.penalizes
    }

    /// `HitPoints::apply` without branching on the hit: down is 0 hit points
    /// or fewer, dead (no more loss) `dead_at` or fewer, and `dead_at <= 0`.
    #[inline]
    fn land(&self, prep: &HitPointsPrep, state: &mut HitPointState, hit: bool, damage: i32) -> (bool, i32) {
        let before = state.hp();
        // Whether it hit is data, not a branch to mispredict.
        let takes = hit & (before > prep.dead_at);
        let after = match prep.lost.get(damage.max(0) as usize) {
            // No overflow: `before > dead_at >= -2^30` when it loses any,
            // and a tabled loss is at most 2^30.
            Some(&lost) if prep.exact => before - std::hint::select_unpredictable(takes, lost, 0),
            _ => before.saturating_sub(if takes { self.hp_lost(damage) } else { 0 }),
        };
        *state = HitPointState::new(after);
        let penalty = if prep.penalizes { self.wound_penalty(state) } else { 0 };
        (before > 0 && after <= 0, penalty)
    }

    fn records(ws: &mut FastWorkspace) -> (&mut [Vec<Fighter<HitPointState>>; 2], &mut Common) {
        (&mut ws.hit_points, &mut ws.common)
    }
}

impl FastModel for FudgeWounds {
    type Prep = WoundsPrep;
    type Rec = u16;

    /// None: wounds always carry penalties.
    #[inline]
    fn pair_table(_: &WoundsPrep) -> &[Pair] {
        &[]
    }

    /// Applies the damage in `pair.value` if it hit (never called: see
    /// [`pair_table`](FastModel::pair_table)).
    #[inline]
    fn land_pair(&self, prep: &WoundsPrep, row: &mut u16, pair: &Pair) -> bool {
        prep.land(row, pair.hit, pair.value).0
    }

    #[inline]
    fn fresh_record(_: &WoundsPrep, _: usize) -> u16 {
        0
    }

    fn record_of(&self, prep: &WoundsPrep, d: &DamageState) -> Option<(u16, i32)> {
        match d {
            DamageState::FudgeWounds(s) => Some((prep.row_of(s), self.wound_penalty(s))),
            DamageState::HitPoints(_) => None,
        }
    }

    #[inline]
    fn penalizes(_: &WoundsPrep) -> bool {
        true
    }

    /// By the prepared tables (`wounds.rs`), with no branch on the hit.
    #[inline]
    fn land(&self, prep: &WoundsPrep, row: &mut u16, hit: bool, damage: i32) -> (bool, i32) {
        prep.land(row, hit, damage)
    }

    fn records(ws: &mut FastWorkspace) -> (&mut [Vec<Fighter<u16>>; 2], &mut Common) {
        (&mut ws.wounds, &mut ws.common)
    }
}
