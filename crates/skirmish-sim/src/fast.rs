//! The engine's fast path: the common battle (two sides, Continuous timing,
//! Full Contact striking, uniformly random targets, no trace) fought on
//! compact per-fighter records, with exactly the results, dice and dice
//! order of the general loop in `battle.rs` with the lean clock
//! (`tests/it/digest.rs` pins digests of thousands of battles and compares
//! the two paths report by report, on the built-in scenarios and on random
//! ones). `Battle::run_summary`, and `Battle::run_in` without a trace, take
//! it whenever the battle qualifies (`Battle::has_fast_path`).
//!
//! What makes it lean:
//!
//! - **One small record per fighter** ([`Fighter`]): its damage state,
//!   group, wound penalty and number; everything constant (ratings, damage
//!   factors, speed, side) is per group, in a table that stays in L1. The
//!   records of each side are kept in the order of its list of standing
//!   fighters (fallen ones swap-removed, as the general loop does with its
//!   lists), so a random target is one access, not a list entry and then a
//!   record.
//! - **One draw per action**: a strike's target, Strike roll and the Ready
//!   Time roll of its follow-up come from one 64-bit word
//!   (`SeededRolls::action_dice`; the general loop draws them the same
//!   way and hands the Ready Time roll to its clock), so an actor's next
//!   action is scheduled as it strikes, in the same pass that pops it.
//! - **No event slab**: a ring of per-tick buckets of [`Entry`]
//!   `(fighter, group, epoch)`. Acting, losing an action to a hit and
//!   falling each bump the fighter's 16-bit epoch, and an entry is live iff
//!   its epoch is the fighter's, so every standing fighter has exactly one
//!   live entry (a fighter that acts and falls in the same tick leaves a
//!   stale follow-up behind). Cancelling writes nothing into the ring, and
//!   popping and scheduling never touch the actor's record (at 2x100,000
//!   that record would be a cache miss per action): a 2-byte epoch is all
//!   they read. (An entry goes stale at most 1,023 ticks before it comes
//!   up, and an epoch moves at most twice a tick, so 16 bits cannot wrap
//!   onto a stale entry.) Without disruption an entry only goes stale when
//!   its fighter falls, so those battles check a bit per fighter instead
//!   (at 2x100,000 the bits stay in cache, the epochs do not).
//! - **Damage lands as it is struck**: the hits of a tick are applied in
//!   the order they were struck either way, and nothing during the tick
//!   reads the state they change (targets are picked from the lists as they
//!   stood at the start of the tick, penalties are kept until its end), so
//!   the target's record is touched once. Only wound penalties and
//!   disruption need the tick's hits again, and only when the battle has
//!   them.
//! - **Tables instead of branches**: the Full Contact decision depends only
//!   on SR - DR and the roll (and the options), so it is a table of outcomes
//!   per (SR - DR, roll) built with `full_contact::resolve` itself; hit
//!   points lost per damage likewise come from `HitPoints::hp_lost`. A
//!   strike is loads and arithmetic, with no branch on whether it hit.
//!   Without wound penalties and with at most 16 groups, a whole strike
//!   (outcome and hit points lost) is one entry per (attacker group, target
//!   group, roll).
//! - **The loop compiled per kind of battle** (const generics): with the
//!   tick's hits kept for wound penalties and disruption, without them, and
//!   without them on whole-strike tables.
//! - Nothing that this kind of battle never reads (engagement, damage taken)
//!   is kept.

use skirmish_core::damage::{DamageModel, FudgeWounds, HitPointState, HitPoints, WoundTrack};
use skirmish_core::dice::SeededRolls;
use skirmish_core::striking::full_contact::{self, StrikeOptions, StrikeOutcome};
use skirmish_core::timing::graduated::MIN_READY_TIME;
use skirmish_core::timing::simple::MIN_INITIATIVE;

use crate::error::SimError;
use crate::report::{BattleSummary, Casualties, Outcome};

/// Ticks in the ring: the longest delay (initiative or Ready Time) a
/// battle may have to take the fast path is one less.
const RING: usize = 1024;
const RING_MASK: u64 = RING as u64 - 1;
/// The longest delay the ring holds.
pub(crate) const MAX_DELAY: i64 = RING as i64 - 1;

/// The outcome table covers SR - DR in `-SPAN..=SPAN`; beyond, a strike
/// calls `full_contact::resolve` (the same decision, slower).
const SPAN: i64 = 16;
const ROLLS: usize = 9;
/// Hit points lost are tabled for damage `0..HP_TABLE`.
const HP_TABLE: usize = 64;

/// The fast path's bound on the amazing strike's extra damage and the
/// damage factors, so that a tabled strike's damage needs no saturating
/// arithmetic (the scenario checks keep factors within a few thousand).
const LIMIT: i32 = 1_000_000;

/// Groups the fast path can number in an [`Entry`].
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
struct Cell {
    /// The margin plus the amazing strike's extra damage (hits only).
    base: i32,
    /// Whether it hit.
    hit: bool,
    /// Hits, amazing strikes and amazing defenses (0 or 1 each), packed as
    /// [`Tally`] counts them.
    counts: u64,
}

impl Cell {
    fn of(outcome: StrikeOutcome, amazing_strike_damage: i32) -> Cell {
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
const PAIR_GROUPS: usize = 16;

/// A whole strike of one group on another with one roll, as the damage
/// model applies it (see [`FastModel::pair_value`]).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Pair {
    /// As [`Cell::counts`].
    counts: u64,
    /// What the model applies.
    value: i32,
    /// Whether it hit.
    hit: bool,
}

/// Hits, amazing strikes and amazing defenses counted together in one
/// word: a field per count, each wide enough for [`Tally::SPAN`] strikes.
#[derive(Debug, Clone, Copy, Default)]
struct Tally(u64);

impl Tally {
    /// Strikes a tally can count before [`drain`](Self::drain).
    const SPAN: usize = 1 << 20;
    const SHIFT: u32 = 21;
    const FIELD: u64 = (1 << Self::SHIFT) - 1;

    #[inline]
    fn add(&mut self, counts: u64) {
        self.0 += counts;
    }

    fn drain(&mut self, summary: &mut BattleSummary) {
        summary.hits += self.0 & Self::FIELD;
        summary.amazing_strikes += self.0 >> Self::SHIFT & Self::FIELD;
        summary.amazing_defenses += self.0 >> (2 * Self::SHIFT);
        self.0 = 0;
    }
}

/// A battle the fast path can fight, prepared once.
#[derive(Debug, Clone)]
pub(crate) struct FastPlan {
    groups: Vec<FastGroup>,
    options: StrikeOptions,
    amazing_strike_damage: i32,
    /// `cells[(SR - DR + SPAN) * 9 + roll + 4]`.
    cells: Box<[Cell; (2 * SPAN as usize + 1) * ROLLS]>,
    /// Ticks per lap of the stopwatch (rounds), at least 1.
    lap: u64,
    max_ticks: u64,
    max_actions: u64,
    any_disruptible: bool,
}

impl FastPlan {
    /// The plan for these groups and rules.
    pub(crate) fn new(
        groups: Vec<FastGroup>,
        options: StrikeOptions,
        amazing_strike_damage: i32,
        lap: u32,
        max_ticks: u64,
        max_actions: u64,
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
            lap: u64::from(lap.max(1)),
            max_ticks,
            max_actions,
        })
    }

    /// What a strike at `strike_rating` against `defense_rating` with
    /// `roll` (a 4dF total, -4..=4) did, and its damage with the attacker's
    /// `offense` and the defender's `defense_factor`: as the general loop
    /// computes them with `full_contact::resolve`, by table.
    #[inline]
    fn strike(
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
    fn strike_beyond(
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

    /// Number of groups.
    fn group_count(&self) -> usize {
        self.groups.len()
    }

    /// Every whole strike `(attacker group, target group, roll)`, without
    /// wound penalties, at `(a * G + t) * 9 + roll + 4`, with `value(hit,
    /// damage)` what the model applies; empty beyond [`PAIR_GROUPS`]
    /// groups, or if a strike cannot be resolved (the strike then reports
    /// the error when it happens).
    fn pairs(&self, mut value: impl FnMut(bool, i32) -> Option<i32>) -> Vec<Pair> {
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

/// One fighter's changing state.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Fighter<S> {
    state: S,
    group: u32,
    /// The wound penalty, as of the start of the tick.
    penalty: i32,
    /// Its number (index in the battle's roster).
    who: u32,
}

/// A ring entry: a fighter's next action, live while the fighter's epoch
/// is still the entry's. Packed in one word (fighter in bits 0-31, group
/// in 32-47, epoch in 48-63) so that it moves as one.
#[derive(Debug, Clone, Copy)]
struct Entry(u64);

impl Entry {
    #[inline]
    fn new(who: u32, group: u16, epoch: u16) -> Entry {
        Entry(u64::from(who) | u64::from(group) << 32 | u64::from(epoch) << 48)
    }

    #[inline]
    fn who(self) -> u32 {
        self.0 as u32
    }

    #[inline]
    fn group(self) -> usize {
        usize::from((self.0 >> 32) as u16)
    }

    #[inline]
    fn epoch(self) -> u16 {
        (self.0 >> 48) as u16
    }

    /// An entry for battles that never read epochs (no disruption): the
    /// top 16 bits hold the fighter's speed (Time Taken minus speed bonus)
    /// instead, so that scheduling its next action needs no group record.
    #[inline]
    fn with_speed(who: u32, group: u16, speed: i16) -> Entry {
        Entry::new(who, group, speed as u16)
    }

    /// The speed of an entry made by [`with_speed`](Self::with_speed).
    #[inline]
    fn speed(self) -> i64 {
        (self.0 as i64) >> 48
    }

    /// The same entry with the next epoch.
    #[inline]
    fn bumped(self) -> Entry {
        Entry(self.0.wrapping_add(1 << 48))
    }
}

/// Per-tick buckets of pending actions, FIFO within a tick.
struct Ring {
    buckets: Box<[Vec<Entry>; RING]>,
    bits: [u64; RING / 64],
    /// Emptied buckets' memory, for the next buckets to fill: a battle
    /// moves through the ring, so without it every tick's bucket would grow
    /// from nothing (copying as it doubles) while the memory of the ticks
    /// just fought lay idle until the ring came round.
    spares: Vec<Vec<Entry>>,
}

impl Default for Ring {
    fn default() -> Self {
        Ring {
            buckets: Box::new(std::array::from_fn(|_| Vec::new())),
            bits: [0; RING / 64],
            spares: Vec::new(),
        }
    }
}

impl Ring {
    /// Buckets of at least this capacity (32 KiB) lend their memory to
    /// later ones when emptied; smaller ones keep it (small battles reuse
    /// their buckets lap after lap, battle after battle).
    const SPARE_AT_LEAST: usize = 4096;

    fn clear(&mut self) {
        for (w, word) in self.bits.iter_mut().enumerate() {
            while *word != 0 {
                let i = w * 64 + word.trailing_zeros() as usize;
                *word &= *word - 1;
                if let Some(b) = self.buckets.get_mut(i) {
                    b.clear();
                }
            }
        }
    }

    #[inline]
    fn push(&mut self, tick: u64, entry: Entry) {
        let i = (tick & RING_MASK) as usize;
        let bucket = &mut self.buckets[i];
        if bucket.len() == bucket.capacity() {
            self.make_room(i);
        }
        self.buckets[i].push(entry);
        self.bits[i / 64] |= 1 << (i % 64);
    }

    /// Bucket `i` is full: an empty one takes a spare's memory if there is
    /// a larger one, and grows as usual otherwise.
    #[cold]
    #[inline(never)]
    fn make_room(&mut self, i: usize) {
        let bucket = &mut self.buckets[i];
        if bucket.is_empty()
            && let Some(spare) = self.spares.pop()
        {
            if spare.capacity() > bucket.capacity() {
                let old = std::mem::replace(bucket, spare);
                self.give_back(old);
            } else {
                self.spares.push(spare);
            }
        }
        let bucket = &mut self.buckets[i];
        if bucket.len() == bucket.capacity() {
            bucket.reserve(bucket.len().max(8));
        }
    }

    /// Keeps an emptied bucket's memory for later buckets (a few of them:
    /// about as many as the ticks a delay spans are in use at once).
    fn give_back(&mut self, mut bucket: Vec<Entry>) {
        if bucket.capacity() > 0 && self.spares.len() < 64 {
            bucket.clear();
            self.spares.push(bucket);
        }
    }

    /// The first tick after `now` with a bucket; every entry is at most
    /// [`MAX_DELAY`] ticks after the tick it was scheduled at, so one turn
    /// of the ring finds it.
    #[inline]
    fn next(&self, now: u64) -> Option<u64> {
        let mut d = 1;
        while d <= RING as u64 {
            let i = (now.wrapping_add(d) & RING_MASK) as usize;
            let word = self.bits[i / 64] >> (i % 64);
            if word != 0 {
                return Some(now + d + u64::from(word.trailing_zeros()));
            }
            d += 64 - (i % 64) as u64;
        }
        None
    }
}

/// The fast path's memory, reused from battle to battle.
#[derive(Default)]
pub(crate) struct FastWorkspace {
    hit_points: [Vec<Fighter<HitPointState>>; 2],
    wounds: [Vec<Fighter<WoundTrack>>; 2],
    common: Common,
}

/// The fast path's arrays that do not depend on the damage model.
#[derive(Default)]
pub(crate) struct Common {
    /// Each fighter's place in its side's list of standing records.
    pos: Vec<u32>,
    /// One bit per fighter: down.
    down: Vec<u64>,
    /// Per fighter: bumped when it acts or loses its action to a hit.
    epoch: Vec<u16>,
    /// Per fighter, only when some group is disruptible: the last tick it
    /// acted or lost its action (then it has no pending action to lose).
    busy: Vec<u32>,
    ring: Ring,
    /// The bucket being fought: it changes places with the ring's bucket
    /// for the tick, so that strikes can schedule into the ring meanwhile.
    bucket: Vec<Entry>,
    /// Who fell this tick: the first `fell` entries. One more slot than
    /// fighters (each falls once), so that a strike writes its target here
    /// whether or not it fell and counts it only if it did: no branch to
    /// mispredict.
    fallen: Vec<u32>,
    /// This tick's hits `(target, wound penalty after it, its group)`,
    /// kept only when penalties or disruption need them.
    hits: Vec<(u32, i32, u32)>,
}

/// A damage model as the fast path applies it.
pub(crate) trait FastModel: DamageModel {
    /// Precomputed once per battle plan.
    type Prep;
    /// The preparation for this plan.
    fn prep(&self, plan: &FastPlan) -> Self::Prep;
    /// The plan's whole strikes (see [`FastPlan::pairs`]), if prepared:
    /// never when the model has wound penalties.
    fn pair_table(prep: &Self::Prep) -> &[Pair];
    /// Applies a whole strike from [`pair_table`](Self::pair_table);
    /// returns whether it took the fighter down just now.
    fn land_pair(&self, prep: &Self::Prep, state: &mut Self::State, pair: &Pair) -> bool;
    /// Group `g`'s fresh state.
    fn fresh_state(prep: &Self::Prep, g: usize) -> Self::State;
    /// Whether a hit can ever change a wound penalty.
    fn penalizes(prep: &Self::Prep) -> bool;
    /// Applies a strike's `damage` if it `hit` (as `DamageModel::apply`);
    /// returns whether that took the fighter down just now, and its wound
    /// penalty after.
    fn land(&self, prep: &Self::Prep, state: &mut Self::State, hit: bool, damage: i32) -> (bool, i32);
    /// The standing fighters' records per side, in the workspace.
    fn records(ws: &mut FastWorkspace) -> (&mut [Vec<Fighter<Self::State>>; 2], &mut Common);
}

/// Hit points, prepared.
#[derive(Debug, Clone)]
pub(crate) struct HitPointsPrep {
    fresh: Vec<HitPointState>,
    /// `HitPoints::hp_lost(d)` for `d` in `0..HP_TABLE`.
    lost: [i32; HP_TABLE],
    /// Whether tabled losses can be subtracted without saturating.
    exact: bool,
    dead_at: i32,
    penalizes: bool,
    /// The plan's whole strikes as hit points lost, when it has no wound
    /// penalties and few groups (see [`FastPlan::pairs`]).
    pairs: Vec<Pair>,
}

impl FastModel for HitPoints {
    type Prep = HitPointsPrep;

    fn prep(&self, plan: &FastPlan) -> HitPointsPrep {
        let lost: [i32; HP_TABLE] = std::array::from_fn(|d| self.hp_lost(d as i32));
        let dead_at = self.config().dead_at;
        let penalizes = !self.config().penalties.is_empty();
        // Whole strikes as hit points lost (0 for a miss), when plain
        // subtraction cannot overflow (as `exact` below).
        let pairs = if penalizes || dead_at < -(1 << 30) {
            Vec::new()
        } else {
            plan.pairs(|hit, damage| {
                let lost = if hit { self.hp_lost(damage) } else { 0 };
                (lost <= 1 << 30).then_some(lost)
            })
        };
        HitPointsPrep {
            fresh: plan
                .groups
                .iter()
                .map(|g| HitPointState::new(g.hit_points.unwrap_or(self.config().max_hp)))
                .collect(),
            lost,
            exact: lost.iter().all(|&l| l <= 1 << 30) && dead_at >= -(1 << 30),
            dead_at,
            penalizes,
            pairs,
        }
    }

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
    fn fresh_state(prep: &HitPointsPrep, g: usize) -> HitPointState {
        prep.fresh[g]
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
    type Prep = ();

    fn prep(&self, _: &FastPlan) {}

    /// None: wounds always carry penalties.
    #[inline]
    fn pair_table((): &()) -> &[Pair] {
        &[]
    }

    /// Applies the damage in `pair.value` if it hit (never called: see
    /// [`pair_table`](FastModel::pair_table)).
    #[inline]
    fn land_pair(&self, (): &(), state: &mut WoundTrack, pair: &Pair) -> bool {
        pair.hit && self.apply(state, pair.value).newly_down()
    }

    #[inline]
    fn fresh_state((): &(), _: usize) -> WoundTrack {
        WoundTrack::new()
    }

    #[inline]
    fn penalizes((): &()) -> bool {
        true
    }

    #[inline]
    fn land(&self, (): &(), state: &mut WoundTrack, hit: bool, damage: i32) -> (bool, i32) {
        if hit {
            let out = self.apply(state, damage);
            (out.newly_down(), out.penalty)
        } else {
            (false, 0)
        }
    }

    fn records(ws: &mut FastWorkspace) -> (&mut [Vec<Fighter<WoundTrack>>; 2], &mut Common) {
        (&mut ws.wounds, &mut ws.common)
    }
}

/// What a fast battle reports besides its summary.
pub(crate) struct FastEnd {
    pub(crate) summary: BattleSummary,
    pub(crate) fielded: [u64; 2],
    pub(crate) standing: [u64; 2],
}

/// Fights one battle on the fast path; `group_of[f]` is fighter `f`'s group.
pub(crate) fn fight<M: FastModel>(
    plan: &FastPlan,
    model: &M,
    prep: &M::Prep,
    group_of: &[u32],
    ws: &mut FastWorkspace,
    rolls: &mut SeededRolls,
    casualties: Option<&mut Vec<Casualties>>,
) -> Result<FastEnd, SimError> {
    // The generator in a local: its state can stay in registers.
    let mut local = rolls.clone();
    // The loop compiled twice: with the tick's hits kept for wound
    // penalties and disruption, and without (most battles), where those
    // branches and loads are gone.
    let end = if M::penalizes(prep) || plan.any_disruptible {
        fight_with::<M, true, false>(plan, model, prep, group_of, ws, &mut local, casualties)
    } else if M::pair_table(prep).len() == plan.group_count() * plan.group_count() * ROLLS {
        // And with whole strikes from the pair table.
        fight_with::<M, false, true>(plan, model, prep, group_of, ws, &mut local, casualties)
    } else {
        fight_with::<M, false, false>(plan, model, prep, group_of, ws, &mut local, casualties)
    };
    *rolls = local;
    end
}

#[expect(clippy::too_many_lines, reason = "the battle loop reads best in one piece")]
#[inline]
fn fight_with<M: FastModel, const KEEP_HITS: bool, const PAIRS: bool>(
    plan: &FastPlan,
    model: &M,
    prep: &M::Prep,
    group_of: &[u32],
    ws: &mut FastWorkspace,
    rolls: &mut SeededRolls,
    mut casualties: Option<&mut Vec<Casualties>>,
) -> Result<FastEnd, SimError> {
    let groups = plan.groups.as_slice();
    let (standing, c) = M::records(ws);
    let Common {
        pos,
        down,
        epoch,
        busy,
        ring,
        bucket,
        fallen,
        hits,
    } = c;
    let penalizes = KEEP_HITS && M::penalizes(prep);
    let pairs = M::pair_table(prep);
    let keep_hits = KEEP_HITS;

    // Muster. The scenario lists side 0's groups first, so each side's
    // fighters are a run of numbers.
    let n = group_of.len() as u32;
    let first_b = group_of
        .iter()
        .position(|&g| groups[g as usize].side == 1)
        .unwrap_or(group_of.len()) as u32;
    for (side, range) in [(0, 0..first_b), (1, first_b..n)] {
        let list: &mut Vec<Fighter<M::State>> = &mut standing[side];
        list.clear();
        list.extend(range.map(|who| {
            let g = group_of[who as usize];
            Fighter {
                state: M::fresh_state(prep, g as usize),
                group: g,
                penalty: 0,
                who,
            }
        }));
    }
    pos.clear();
    pos.extend((0..first_b).chain(0..n - first_b));
    let fielded = [u64::from(first_b), u64::from(n - first_b)];
    down.clear();
    down.resize(group_of.len().div_ceil(64), 0);
    epoch.clear();
    epoch.resize(group_of.len(), 0);
    busy.clear();
    if plan.any_disruptible {
        busy.resize(group_of.len(), 0);
    }
    ring.clear();
    bucket.clear();
    fallen.clear();
    fallen.resize(group_of.len() + 1, 0);
    let mut fell = 0usize;
    hits.clear();
    let is_down = |down: &[u64], who: u32| down.get(who as usize / 64).is_some_and(|w| w & (1 << (who % 64)) != 0);

    // Initiative for everyone, in order: 4dF + 5 + TT - bonus, at least 1.
    for (w, &g) in group_of.iter().enumerate() {
        let speed = i64::from(groups[g as usize].speed);
        let init = (i64::from(rolls.four_df()) + 5 + speed).max(MIN_INITIATIVE);
        let entry = if PAIRS {
            // Below -16 a speed gives the same delays as -16 (both clamp
            // to 1 tick); every speed is at most MAX_DELAY - 9.
            Entry::with_speed(w as u32, g as u16, speed.clamp(-16, MAX_DELAY) as i16)
        } else {
            Entry::new(w as u32, g as u16, 0)
        };
        ring.push(init as u64, entry);
    }

    let mut summary = BattleSummary {
        rounds: 1,
        ..BattleSummary::start()
    };
    // The first tick of the next round.
    let mut next_round_at = plan.lap + 1;
    let mut now = 0u64;
    // The next tick at which someone may act; none left means nobody can
    // ever act again: a timeout, not a win.
    while let Some(tick) = ring.next(now) {
        if tick > plan.max_ticks {
            break;
        }
        let i = (tick & RING_MASK) as usize;
        // A tick is fought whole or not at all: one that would take the
        // actions past the cap ends the battle before it, as a timeout.
        let room = plan.max_actions - summary.actions;
        if ring.buckets[i].len() as u64 > room {
            let live = |e: &Entry| {
                if KEEP_HITS {
                    epoch.get(e.who() as usize) == Some(&e.epoch())
                } else {
                    !is_down(down, e.who())
                }
            };
            if ring.buckets[i].iter().filter(|e| live(e)).count() as u64 > room {
                break;
            }
        }
        now = tick;
        ring.bits[i / 64] &= !(1 << (i % 64));
        std::mem::swap(bucket, &mut ring.buckets[i]);

        // Every live entry acts, in the order scheduled: it strikes a random
        // enemy standing at the start of the tick, its damage applied at once
        // (see the module docs), and does the same again: its next action
        // is scheduled with the Ready Time rolled with the strike.
        let mut acted = 0u64;
        for chunk in bucket.chunks(Tally::SPAN) {
            let mut tally = Tally::default();
            for &e in chunk {
                let who = e.who();
                if KEEP_HITS {
                    let Some(ep) = epoch.get_mut(who as usize) else {
                        continue;
                    };
                    if *ep != e.epoch() {
                        continue; // it fell, or lost this action to a hit
                    }
                    *ep = ep.wrapping_add(1);
                    if let Some(b) = busy.get_mut(who as usize) {
                        *b = tick as u32;
                    }
                } else if is_down(down, who) {
                    // Without disruption only falling makes an entry stale,
                    // and a bit per fighter stays in cache where the epochs
                    // (2 bytes each) do not.
                    continue;
                }
                acted += 1;
                // Whole-strike battles read neither the attacker's group
                // record nor its penalty: its side is its number's, its
                // speed is in the entry.
                let (side, speed) = if PAIRS {
                    (usize::from(who >= first_b), e.speed())
                } else {
                    let ga = &groups[e.group()];
                    (usize::from(ga.side), i64::from(ga.speed))
                };
                let attack_penalty = if penalizes {
                    let own = &standing[side];
                    own.get(pos[who as usize] as usize).map_or(0, |f| f.penalty)
                } else {
                    0
                };
                let enemies = &mut standing[side ^ 1];
                let dice = rolls.action_dice(enemies.len() as u32);
                let Some(ft) = enemies.get_mut(dice.target as usize) else {
                    continue;
                };
                let (t, tg) = (ft.who, ft.group);
                if PAIRS {
                    // A whole strike by table (no penalties, no disruption).
                    let i = (e.group() * groups.len() + tg as usize) * ROLLS + (dice.strike + 4) as usize;
                    let Some(pair) = pairs.get(i) else {
                        continue;
                    };
                    tally.add(pair.counts);
                    let downed = model.land_pair(prep, &mut ft.state, pair);
                    if let Some(slot) = fallen.get_mut(fell) {
                        *slot = t;
                    }
                    fell += usize::from(downed);
                } else {
                    let ga = &groups[e.group()];
                    let gt = &groups[tg as usize];
                    let (cell, damage) = plan.strike(
                        ga.strike_rating + attack_penalty,
                        gt.defense_rating + if penalizes { ft.penalty } else { 0 },
                        dice.strike,
                        ga.offense,
                        gt.defense_factor,
                    )?;
                    tally.add(cell.counts);
                    let (downed, penalty) = model.land(prep, &mut ft.state, cell.hit, damage);
                    if let Some(slot) = fallen.get_mut(fell) {
                        *slot = t;
                    }
                    fell += usize::from(downed);
                    if keep_hits && cell.hit {
                        hits.push((t, penalty, tg));
                    }
                }
                let rt = (i64::from(dice.ready) + speed).max(MIN_READY_TIME);
                ring.push(tick + rt as u64, if PAIRS { e } else { e.bumped() });
            }
            tally.drain(&mut summary);
        }
        // A large bucket's memory goes to the spares (the bucket in the ring
        // keeps the empty one it was swapped for); a small one goes back.
        if bucket.capacity() >= Ring::SPARE_AT_LEAST {
            ring.give_back(std::mem::take(bucket));
        } else {
            bucket.clear();
            std::mem::swap(bucket, &mut ring.buckets[i]);
        }
        if acted == 0 {
            continue;
        }
        summary.actions += acted;
        summary.ticks = tick;
        if tick >= next_round_at {
            let round = (tick - 1) / plan.lap + 1;
            summary.rounds = summary.rounds.max(round as u32);
            next_round_at = round * plan.lap + 1;
        }

        // The end of the tick: penalties (first, while every hit's record is
        // where `pos` says), the fallen leave their lists, disruption.
        if penalizes {
            for &(t, penalty, _) in hits.iter() {
                if let Some(ft) = standing[usize::from(t >= first_b)].get_mut(pos[t as usize] as usize) {
                    ft.penalty = penalty;
                }
            }
        }
        for &f in fallen.iter().take(fell) {
            if let Some(w) = down.get_mut(f as usize / 64) {
                *w |= 1 << (f % 64);
            }
            // Its pending action, if any, is no longer its.
            epoch[f as usize] = epoch[f as usize].wrapping_add(1);
            let list = &mut standing[usize::from(f >= first_b)];
            let p = pos[f as usize] as usize;
            list.swap_remove(p);
            if let Some(moved) = list.get(p) {
                pos[moved.who as usize] = p as u32;
            }
        }
        if keep_hits {
            if plan.any_disruptible {
                for &(t, _, g) in hits.iter() {
                    if is_down(down, t) {
                        continue;
                    }
                    // Acted or already disrupted this tick: no pending
                    // action to lose.
                    if groups[g as usize].disruptible && busy[t as usize] != tick as u32 {
                        busy[t as usize] = tick as u32;
                        let ep = &mut epoch[t as usize];
                        *ep = ep.wrapping_add(1);
                        // It goes again from now: Ready Time = 2dF + TT - bonus.
                        let speed = groups[g as usize].speed;
                        let rt = (i64::from(rolls.two_df()) + i64::from(speed)).max(MIN_READY_TIME);
                        ring.push(tick + rt as u64, Entry::new(t, g as u16, *ep));
                        summary.disruptions += 1;
                    }
                }
            }
            hits.clear();
        }
        if fell > 0 {
            fell = 0;
            if let Some(list) = casualties.as_mut() {
                list.push(Casualties {
                    tick,
                    standing: standing.iter().map(|s| s.len() as u64).collect(),
                });
            }
            match (standing[0].is_empty(), standing[1].is_empty()) {
                (false, false) => {}
                (false, true) => {
                    summary.outcome = Outcome::Win { side: 0 };
                    break;
                }
                (true, false) => {
                    summary.outcome = Outcome::Win { side: 1 };
                    break;
                }
                (true, true) => {
                    summary.outcome = Outcome::Draw;
                    break;
                }
            }
        }
    }
    Ok(FastEnd {
        summary,
        fielded,
        standing: standing.each_ref().map(|s| s.len() as u64),
    })
}
