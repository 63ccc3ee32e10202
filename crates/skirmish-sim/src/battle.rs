//! The battle engine: any timing system x any striking system x any damage
//! model, fought to a wipe-out, a draw or a limit.
//!
//! # How a battle runs
//!
//! 1. The clock (one for any timing system, a lean one for Continuous) hands out the fighters acting at the next
//!    moment, all together.
//! 2. Each picks a target by the scenario's targeting policy among the
//!    enemies standing **at the start of the moment**, and strikes: Full
//!    Contact (SR + 4dF against DR) or FUDGE opposed (skill + 4dF against
//!    the defender's skill + 4dF). Wound penalties feed both rolls.
//! 3. At the end of the moment every hit is applied, in the order it was
//!    struck; the fallen lose their pending actions; a fighter hit before its
//!    disruptible action landed loses that action (RULES.md's simultaneity
//!    decision: two fighters can fell each other, and a spell completes on
//!    the tick its caster is struck).
//! 4. The battle ends when one side is left (a win), none is (a draw, both
//!    wiped out at the same moment), or a limit of ticks, rounds or actions
//!    is reached (a timeout, never a win). A moment is fought whole or not
//!    at all: the battle stops before a moment past `max_ticks` or
//!    `max_rounds` (under Continuous, which has no rounds, its stopwatch
//!    laps count, as in the report), or one whose actions would take the
//!    total past `max_actions`.
//!
//! # Decisions
//!
//! - **Damage** is the hit's margin (SR + roll - DR, or the relative
//!   degree), plus the attacker's `offense`, minus the defender's
//!   `toughness` (RULES.md §3), plus `amazing_strike_damage` on an amazing
//!   strike. Armor from the
//!   table counts once per striking system: in the Defense Rating under
//!   Full Contact (as in the article), in the defensive damage factor under
//!   FUDGE striking (FUDGE 4.1).
//! - **A guaranteed hit** (Full Contact's optional +4, at a margin of 0 or
//!   less) does damage as a hit by 1, the least hit: the option is there so
//!   that the "impossible" blow lands.
//! - **Wound penalties** (Hurt -1, Very Hurt -2) apply to the wounded
//!   fighter's attack (SR or skill) and defense (DR or skill).
//! - **FUDGE opposed**: each attack is an opposed action; the attacker hits
//!   when it wins by 1 or more with at least the minimum result (Poor); a
//!   defender that wins is not hurt (its own blows are its own actions).
//!   FUDGE 4.34's lone fighter, who rolls once against every foe of a
//!   combat round and must beat or tie them all to wound one, belongs to
//!   simultaneous combat rounds; here every attack is an action of its own
//!   under any timing system, so each is one exchange. What 4.34 gives
//!   every exchange: a fighter engaged by several attackers is at -1 for
//!   each beyond the first, attacking and defending (the lone fighter's
//!   skill), counting the engagements of the moment itself (every actor of
//!   a moment picks its target before any strike is resolved); at most
//!   `max_attackers_per_target` attackers can engage one target (reach),
//!   and an attacker with no target in reach loses the action. With
//!   `group_roll`, each side of two or more standing fighters rolls one
//!   2dF per moment for all its fighters (the GM's one roll for the NPCs);
//!   a fighter alone on its side rolls its own 4dF. Plus-levels count by
//!   round.
//! - **Reach is FUDGE's rule** (4.34) and applies under FUDGE opposed
//!   striking only; under Full Contact any number may strike one target.
//! - **Not modelled**: the Tick System's Acquire (+2 ticks for the first
//!   ranged attack on a new target). The weapon tables do not say which
//!   weapons are ranged, and a battle's fighter picks its target when its
//!   action lands, after its ticks are counted; a GM who wants it adds the
//!   ticks to the group's weapon.
//! - **Engagement**: an attacker engages the target it last struck at, until
//!   it strikes another or falls; "least engaged" targeting and the reach
//!   limit count engaged attackers.
//! - **Most wounded** is the enemy that has taken the most damage so far.
//! - Fighters of the same moment pick their targets, then strike, in the
//!   order they were scheduled (FIFO), which decides only the order of the
//!   dice.
//!
//! Every battle draws from its own stream, `SeededRolls::for_stream(seed,
//! index)`, so a battle's result depends only on (scenario, seed, index).

use skirmish_core::combat::{self, OpposedSide};
use skirmish_core::damage::{Damage, DamageModel, DamageState, HitPointState, WoundTrack};
use skirmish_core::dice::SeededRolls;
use skirmish_core::fighter::Fighter;
use skirmish_core::striking::full_contact::{StrikeOptions, StrikeOutcome};
use skirmish_core::timing::TimingSystem;

use crate::clock::{Clock, ContinuousClock, LineClock, SchedulerClock, Tick};
use crate::error::SimError;
use crate::fast::{self, FastEnd, FastGroup, FastPlan, FastWorkspace, HitPointsPrep};
use crate::ranking::{ABSENT, Key, Ranking};
use crate::report::{BattleReport, BattleSummary, Casualties, Outcome, TraceLine};
use crate::scenario::{BattleRules, Scenario, Striking, Targeting};

/// What to record beyond the numbers.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RunOptions {
    /// Keep a readable trace of every strike and fall.
    pub trace: bool,
    /// Keep the casualties over time (one entry per tick someone fell).
    pub casualties: bool,
}

impl RunOptions {
    /// Keep everything: the trace and the casualties over time.
    pub const FULL: RunOptions = RunOptions {
        trace: true,
        casualties: true,
    };
}

/// Memory a thread reuses from battle to battle (a sweep keeps one per
/// worker): nothing is allocated per battle once it has grown.
#[derive(Default)]
pub struct Workspace {
    lean: Option<ContinuousClock>,
    hp: Vec<HitPointState>,
    wounds: Vec<WoundTrack>,
    arrays: Arrays,
    fast: FastWorkspace,
}

impl std::fmt::Debug for Workspace {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Workspace")
            .field("fighters", &self.arrays.penalty.len())
            .finish()
    }
}

/// The engine's per-fighter arrays.
#[derive(Default)]
struct Arrays {
    penalty: Vec<i32>,
    down: Vec<bool>,
    taken: Vec<i64>,
    target_of: Vec<u32>,
    engaged_by: Vec<u32>,
    /// Standing fighters per side.
    standing: Vec<Vec<u32>>,
    /// Each fighter's position in its side's standing list.
    pos: Vec<u32>,
    acting: Vec<u32>,
    hits: Vec<(u32, i32)>,
    fallen: Vec<u32>,
    /// Each side's FUDGE group roll at this moment, if it rolls as a group.
    side_roll: Vec<Option<i32>>,
    /// The moment's strikes, once every actor has picked its target:
    /// (attacker, target, Full Contact Strike roll).
    picks: Vec<(u32, u32, i32)>,
    /// `most_wounded` and `least_engaged` targeting's index.
    ranking: Ranking,
}

impl Arrays {
    fn reset(&mut self, battle: &Battle) {
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
        self.acting.clear();
        self.hits.clear();
        self.fallen.clear();
        self.picks.clear();
    }

    /// [`reset`](Self::reset), then only the fighters `standing` says are
    /// up stand; the others are down from the start.
    fn reset_from(&mut self, battle: &Battle, standing: &[bool]) {
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
        self.rank(battle);
    }
}

/// Fighter `c`'s key in the targeting index: [`ABSENT`] when it cannot be
/// picked (down, or as many attackers engaged as the reach allows), its own
/// key otherwise.
#[inline]
fn rank_key(policy: Targeting, reach: u32, c: u32, (down, taken, engaged_by): (&[bool], &[i64], &[u32])) -> Key {
    let i = c as usize;
    if down.get(i).copied().unwrap_or(true) || engaged_by.get(i).is_none_or(|&e| e >= reach) {
        return ABSENT;
    }
    own_key(policy, c, taken, engaged_by)
}

/// Fighter `c`'s key under `policy` whatever its engagements: the most
/// wounded first, or the least engaged, ties to the lowest index.
#[inline]
fn own_key(policy: Targeting, c: u32, taken: &[i64], engaged_by: &[u32]) -> Key {
    let i = c as usize;
    match policy {
        Targeting::MostWounded => (0i64.saturating_sub(taken.get(i).copied().unwrap_or(0)), c),
        Targeting::LeastEngaged => (i64::from(engaged_by.get(i).copied().unwrap_or(u32::MAX)), c),
        Targeting::Random => ABSENT,
    }
}

/// Where a battle picks up: the round counter, rounds and tick it starts
/// from (all 0 for a fresh battle). A continuation of an encounter starts
/// from the encounter's.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Resume {
    /// Rounds (phases, exchanges) begun so far, as the clock counts them.
    pub(crate) round_starts: u32,
    /// The summary's rounds so far.
    pub(crate) rounds: u32,
    /// The tick of the last moment so far.
    pub(crate) tick: u64,
}

/// The state a continuation starts every battle from (see
/// [`Battle::fight_from`]).
#[derive(Debug, Clone)]
pub(crate) struct Start {
    /// Per fighter: what it has taken (of the battle's damage model).
    pub(crate) damage: Vec<DamageState>,
    /// Per fighter: whether it is still in the fight.
    pub(crate) standing: Vec<bool>,
    /// The counters it picks up.
    pub(crate) resume: Resume,
}

/// The Time Taken of a group with no weapon given.
pub use skirmish_core::fighter::DEFAULT_TIME_TAKEN;

const NONE: u32 = u32::MAX;

/// A group, ready to fight: the core's resolved [`Fighter`], where its
/// fighters stand in the roster.
#[derive(Debug, Clone)]
struct GroupRt {
    side: u8,
    first: u32,
    count: u32,
    fighter: Fighter,
}

/// A scenario made ready to fight many times (the weapon and armor
/// lookups, the damage model and the roster are resolved once).
///
/// ```
/// use skirmish_sim::battle::{Battle, RunOptions};
/// use skirmish_sim::scenario::Scenario;
///
/// let scenario: Scenario = toml::from_str(r#"
///     name = "duel"
///     [[sides]]
///     name = "Cardiff"
///     groups = [{ name = "Cardiff", strike_rating = 9, defense_rating = 7, weapon = "Sword, Two-Handed" }]
///     [[sides]]
///     name = "goblins"
///     groups = [{ name = "Goblin", count = 3, strike_rating = 5, defense_rating = 6, weapon = "Pike/Pole-arm" }]
/// "#).unwrap();
/// let battle = Battle::new(&scenario).unwrap();
/// let report = battle.run(7, 0, &RunOptions::default()).unwrap();
/// assert!(report.summary.actions > 0);
/// // The same seed and index give the same battle.
/// assert_eq!(report, battle.run(7, 0, &RunOptions::default()).unwrap());
/// ```
#[derive(Debug, Clone)]
pub struct Battle {
    timing: TimingSystem,
    striking: Striking,
    damage: Damage,
    targeting: Targeting,
    reach: u32,
    max_ticks: u64,
    max_rounds: u32,
    max_actions: u64,
    sides: Vec<String>,
    groups: Vec<GroupRt>,
    /// Per fighter: its group.
    group_of: Vec<u32>,
    /// Set when the battle can take the fast path (`fast.rs`).
    fast: Option<(FastPlan, FastPrep)>,
}

/// The damage model's part of the fast path's plan.
#[derive(Debug, Clone)]
enum FastPrep {
    HitPoints(Box<HitPointsPrep>),
    Wounds,
}

/// Fights one battle of `scenario`: battle number `index` of master seed
/// `seed`.
pub fn run_battle(scenario: &Scenario, seed: u64, index: u64, options: &RunOptions) -> Result<BattleReport, SimError> {
    Battle::new(scenario)?.run(seed, index, options)
}

impl Battle {
    /// Resolves `scenario` for fighting: weapons and armor from the tables,
    /// the damage model, the roster.
    pub fn new(scenario: &Scenario) -> Result<Battle, SimError> {
        scenario
            .timing
            .validate()
            .map_err(|e| SimError::Rules(e.in_field("timing")))?;
        let damage = scenario
            .damage
            .build()
            .map_err(|e| SimError::Rules(e.in_field("damage")))?;
        if scenario.sides.len() < 2 {
            return Err(SimError::Scenario("a battle needs at least two sides".into()));
        }
        if scenario.sides.len() > 255 {
            return Err(SimError::Scenario("at most 255 sides".into()));
        }
        let mut groups = Vec::new();
        let mut group_of = Vec::new();
        for (si, side) in scenario.sides.iter().enumerate() {
            if side.groups.is_empty() {
                return Err(SimError::Scenario(format!("sides[{si}] ({}) has no groups", side.name)));
            }
            for (gi, g) in side.groups.iter().enumerate() {
                let at = |e: skirmish_core::Error| SimError::Rules(e.in_field(&format!("sides[{si}].groups[{gi}]")));
                let count = u32::try_from(g.count)
                    .ok()
                    .filter(|c| *c >= 1 && group_of.len() + (*c as usize) <= u32::MAX as usize / 2)
                    .ok_or_else(|| {
                        SimError::Scenario(format!(
                            "sides[{si}].groups[{gi}].count: {} is not a count this engine can field",
                            g.count
                        ))
                    })?;
                let fighter = g.resolve(&scenario.timing, &scenario.striking).map_err(at)?;
                groups.push(GroupRt {
                    side: si as u8,
                    first: group_of.len() as u32,
                    count,
                    fighter,
                });
                let gidx = (groups.len() - 1) as u32;
                group_of.extend(std::iter::repeat_n(gidx, count as usize));
            }
        }
        let b = &scenario.battle;
        if b.max_attackers_per_target == 0 || b.max_ticks == 0 || b.max_rounds == 0 || b.max_actions == 0 {
            return Err(SimError::Scenario(
                "battle limits and max_attackers_per_target must be at least 1".into(),
            ));
        }
        let mut battle = Battle {
            timing: scenario.timing.clone(),
            striking: scenario.striking,
            damage,
            targeting: b.targeting,
            reach: b.max_attackers_per_target,
            max_ticks: b.max_ticks,
            max_rounds: b.max_rounds,
            max_actions: b.max_actions,
            sides: scenario.sides.iter().map(|s| s.name.clone()).collect(),
            groups,
            group_of,
            fast: None,
        };
        battle.fast = battle.fast_plan();
        Ok(battle)
    }

    /// The fast path's plan, if this battle is one it fights: two sides,
    /// Continuous timing, Full Contact striking, random targets, delays
    /// that fit its ring and ticks that fit in 32 bits.
    fn fast_plan(&self) -> Option<(FastPlan, FastPrep)> {
        let (TimingSystem::Continuous(c), Striking::FullContact(r), Targeting::Random, 2) =
            (&self.timing, self.striking, self.targeting, self.sides.len())
        else {
            return None;
        };
        let mut groups = Vec::with_capacity(self.groups.len());
        for g in &self.groups {
            let side = g.side;
            let g = &g.fighter;
            let speed = i64::from(g.action.time_taken) - i64::from(g.action.speed_bonus);
            // The longest delay: initiative, 4dF + 5 + TT - bonus.
            if speed + 9 > fast::MAX_DELAY {
                return None;
            }
            groups.push(FastGroup {
                side,
                disruptible: g.disruptible,
                strike_rating: g.strike_rating,
                defense_rating: g.defense_rating,
                offense: g.offense,
                defense_factor: g.defense_factor,
                speed: i32::try_from(speed).ok()?,
                hit_points: g.hit_points,
            });
        }
        // Fighters numbered side by side (as `new` builds them), groups in
        // 16 bits, ticks in 32 bits.
        if !groups.windows(2).all(|w| w[0].side <= w[1].side)
            || groups.len() > fast::MAX_GROUPS
            || self.max_ticks >= u64::from(u32::MAX) - fast::MAX_DELAY as u64
        {
            return None;
        }
        let options = StrikeOptions {
            guaranteed_success_and_fumble: r.guaranteed,
            amazing: r.amazing,
            point_blank: false,
        };
        let plan = FastPlan::new(
            groups,
            options,
            r.amazing_strike_damage,
            c.lap,
            // Under Continuous the rounds are the stopwatch's laps: a tick
            // past `max_rounds` laps is past the cap.
            self.max_ticks
                .min(u64::from(self.max_rounds).saturating_mul(u64::from(c.lap.max(1)))),
            self.max_actions,
        )
        .ok()?;
        let prep = match &self.damage {
            Damage::HitPoints(m) => FastPrep::HitPoints(Box::new(fast::FastModel::prep(m, &plan))),
            Damage::FudgeWounds(_) => FastPrep::Wounds,
        };
        Some((plan, prep))
    }

    /// The side of fighter `f`.
    #[inline]
    fn side_of(&self, f: u32) -> u8 {
        self.groups[self.group_of[f as usize] as usize].side
    }

    /// Number of fighters.
    pub fn fighters(&self) -> usize {
        self.group_of.len()
    }

    /// The fighter's name: its group's, numbered if the group has several.
    pub fn fighter_name(&self, fighter: u32) -> String {
        let g = &self.groups[self.group_of[fighter as usize] as usize];
        if g.count == 1 {
            g.fighter.name.clone()
        } else {
            format!("{} {}", g.fighter.name, fighter - g.first + 1)
        }
    }

    /// Fights battle `index` of master seed `seed`.
    pub fn run(&self, seed: u64, index: u64, options: &RunOptions) -> Result<BattleReport, SimError> {
        self.run_in(&mut Workspace::default(), seed, index, options)
    }

    /// Fights battle `index` of master seed `seed` in a reused workspace.
    pub fn run_in(
        &self,
        ws: &mut Workspace,
        seed: u64,
        index: u64,
        options: &RunOptions,
    ) -> Result<BattleReport, SimError> {
        let mut rolls = SeededRolls::for_stream(seed, index);
        if !options.trace
            && let Some(fast) = &self.fast
        {
            let mut casualties = Vec::new();
            let end = self.run_fast(fast, ws, &mut rolls, options.casualties.then_some(&mut casualties))?;
            return Ok(BattleReport {
                summary: end.summary,
                sides: self.sides.clone(),
                fielded: end.fielded.to_vec(),
                standing: end.standing.to_vec(),
                casualties,
                trace: None,
            });
        }
        self.run_with(ws, &mut rolls, options, self.use_lean_clock())
    }

    /// Fights battle `index` of master seed `seed` in a reused workspace,
    /// keeping only the numbers (what a sweep needs).
    pub fn run_summary(&self, ws: &mut Workspace, seed: u64, index: u64) -> Result<BattleSummary, SimError> {
        let mut rolls = SeededRolls::for_stream(seed, index);
        match &self.fast {
            Some(fast) => Ok(self.run_fast(fast, ws, &mut rolls, None)?.summary),
            None => Ok(self
                .run_with(ws, &mut rolls, &RunOptions::default(), self.use_lean_clock())?
                .summary),
        }
    }

    /// Whether [`run_summary`](Self::run_summary), and
    /// [`run_in`](Self::run_in) without a trace, take the fast path
    /// (the same results, fewer instructions; see the crate's `fast.rs`).
    pub fn has_fast_path(&self) -> bool {
        self.fast.is_some()
    }

    fn run_fast(
        &self,
        (plan, prep): &(FastPlan, FastPrep),
        ws: &mut Workspace,
        rolls: &mut SeededRolls,
        casualties: Option<&mut Vec<Casualties>>,
    ) -> Result<FastEnd, SimError> {
        match (&self.damage, prep) {
            (Damage::HitPoints(m), FastPrep::HitPoints(p)) => {
                fast::fight(plan, m, p, &self.group_of, &mut ws.fast, rolls, casualties)
            }
            (Damage::FudgeWounds(m), FastPrep::Wounds) => {
                fast::fight(plan, m, &(), &self.group_of, &mut ws.fast, rolls, casualties)
            }
            _ => Err(SimError::Scenario(
                "the fast path's plan does not fit the damage model".into(),
            )),
        }
    }

    fn use_lean_clock(&self) -> bool {
        matches!(self.timing, TimingSystem::Continuous(_))
    }

    /// Fights on the general path (never the fast one) with the given clock
    /// choice: tests compare the two clocks, and the fast path with both.
    #[doc(hidden)]
    pub fn run_with(
        &self,
        ws: &mut Workspace,
        rolls: &mut SeededRolls,
        options: &RunOptions,
        lean: bool,
    ) -> Result<BattleReport, SimError> {
        ws.arrays.reset(self);
        let Workspace {
            lean: lean_clock,
            hp,
            wounds,
            arrays,
            fast: _,
        } = ws;
        match &self.damage {
            Damage::HitPoints(m) => {
                hp.clear();
                hp.extend(self.group_of.iter().map(|&g| {
                    HitPointState::new(self.groups[g as usize].fighter.hit_points.unwrap_or(m.config().max_hp))
                }));
                if lean {
                    let clock = self.lean_clock(lean_clock)?;
                    self.fight(clock, m, hp, arrays, rolls, options, Resume::default())
                } else {
                    self.fight(
                        &mut self.scheduler_clock()?,
                        m,
                        hp,
                        arrays,
                        rolls,
                        options,
                        Resume::default(),
                    )
                }
            }
            Damage::FudgeWounds(m) => {
                wounds.clear();
                wounds.resize(self.group_of.len(), m.fresh());
                if lean {
                    let clock = self.lean_clock(lean_clock)?;
                    self.fight(clock, m, wounds, arrays, rolls, options, Resume::default())
                } else {
                    self.fight(
                        &mut self.scheduler_clock()?,
                        m,
                        wounds,
                        arrays,
                        rolls,
                        options,
                        Resume::default(),
                    )
                }
            }
        }
    }

    fn lean_clock<'w>(&self, slot: &'w mut Option<ContinuousClock>) -> Result<&'w mut ContinuousClock, SimError> {
        let TimingSystem::Continuous(c) = &self.timing else {
            return Err(SimError::Scenario("the lean clock runs Continuous timing only".into()));
        };
        let clock = slot.get_or_insert_with(ContinuousClock::empty);
        clock.reset(
            c.lap,
            self.group_of.iter().map(|&g| self.groups[g as usize].fighter.action),
        );
        Ok(clock)
    }

    fn scheduler_clock(&self) -> Result<SchedulerClock, SimError> {
        SchedulerClock::new(
            &self.timing,
            self.group_of.iter().map(|&g| {
                let g = &self.groups[g as usize].fighter;
                (g.timing, g.action)
            }),
        )
    }

    /// A battle of single fighters already resolved (a continuation's):
    /// each `(side, fighter)` its own group, under `rules`' targeting and
    /// reach and the given absolute caps `(max_ticks, max_rounds,
    /// max_actions)`. The clock comes from the caller
    /// ([`fight_from`](Self::fight_from)), so this battle has no fast path.
    pub(crate) fn of_fighters(
        timing: TimingSystem,
        striking: Striking,
        damage: Damage,
        rules: &BattleRules,
        caps: (u64, u32, u64),
        sides: Vec<String>,
        fighters: impl IntoIterator<Item = (u8, Fighter)>,
    ) -> Result<Battle, SimError> {
        if sides.len() < 2 || sides.len() > 255 {
            return Err(SimError::Scenario(format!(
                "a battle needs 2 to 255 sides, not {}",
                sides.len()
            )));
        }
        let mut groups = Vec::new();
        let mut group_of = Vec::new();
        for (side, fighter) in fighters {
            if usize::from(side) >= sides.len() {
                return Err(SimError::Scenario(format!(
                    "fighter {}: no side {side}",
                    group_of.len()
                )));
            }
            if group_of.len() >= u32::MAX as usize / 2 {
                return Err(SimError::Scenario("more fighters than this engine can field".into()));
            }
            let g = groups.len() as u32;
            groups.push(GroupRt {
                side,
                first: group_of.len() as u32,
                count: 1,
                fighter,
            });
            group_of.push(g);
        }
        let (max_ticks, max_rounds, max_actions) = caps;
        if rules.max_attackers_per_target == 0 || max_ticks == 0 || max_rounds == 0 || max_actions == 0 {
            return Err(SimError::Scenario(
                "battle limits and max_attackers_per_target must be at least 1".into(),
            ));
        }
        Ok(Battle {
            timing,
            striking,
            damage,
            targeting: rules.targeting,
            reach: rules.max_attackers_per_target,
            max_ticks,
            max_rounds,
            max_actions,
            sides,
            groups,
            group_of,
            fast: None,
        })
    }

    /// Fights on from `start` with a continuation's clock (reset by the
    /// caller), in a reused workspace: fighters already down stay down,
    /// the others carry their damage and its wound penalty.
    pub(crate) fn fight_from(
        &self,
        ws: &mut Workspace,
        clock: &mut LineClock<'_>,
        start: &Start,
        rolls: &mut SeededRolls,
    ) -> Result<BattleSummary, SimError> {
        let n = self.group_of.len();
        if start.damage.len() != n || start.standing.len() != n {
            return Err(SimError::Scenario(format!(
                "a continuation of {n} fighters needs {n} damage states and standing flags"
            )));
        }
        ws.arrays.reset_from(self, &start.standing);
        let Workspace { hp, wounds, arrays, .. } = ws;
        let mismatch = || SimError::Scenario(format!("a damage state is not of the {} model", self.damage.name()));
        let options = RunOptions::default();
        let report = match &self.damage {
            Damage::HitPoints(m) => {
                hp.clear();
                for d in &start.damage {
                    let DamageState::HitPoints(s) = d else {
                        return Err(mismatch());
                    };
                    hp.push(*s);
                }
                for (p, s) in arrays.penalty.iter_mut().zip(hp.iter()) {
                    *p = m.wound_penalty(s);
                }
                self.fight(clock, m, hp, arrays, rolls, &options, start.resume)?
            }
            Damage::FudgeWounds(m) => {
                wounds.clear();
                for d in &start.damage {
                    let DamageState::FudgeWounds(s) = d else {
                        return Err(mismatch());
                    };
                    wounds.push(*s);
                }
                for (p, s) in arrays.penalty.iter_mut().zip(wounds.iter()) {
                    *p = m.wound_penalty(s);
                }
                self.fight(clock, m, wounds, arrays, rolls, &options, start.resume)?
            }
        };
        Ok(report.summary)
    }

    #[expect(clippy::too_many_lines, reason = "the battle loop reads best in one piece")]
    #[expect(clippy::too_many_arguments, reason = "the loop's inputs, each of its own kind")]
    fn fight<C: Clock, D: DamageModel>(
        &self,
        clock: &mut C,
        model: &D,
        state: &mut [D::State],
        ws: &mut Arrays,
        rolls: &mut SeededRolls,
        options: &RunOptions,
        resume: Resume,
    ) -> Result<BattleReport, SimError> {
        let Arrays {
            penalty,
            down,
            taken,
            target_of,
            engaged_by,
            standing,
            pos,
            acting,
            hits,
            fallen,
            side_roll,
            picks,
            ranking,
        } = ws;
        let fielded: Vec<u64> = standing.iter().map(|s| s.len() as u64).collect();
        let mut summary = BattleSummary::start();
        summary.rounds = resume.rounds;
        summary.ticks = resume.tick;
        let mut casualties = Vec::new();
        let mut trace = options.trace.then(Vec::new);
        let mut round_starts = resume.round_starts;
        let reach = self.reach_limit();

        // Already decided before a blow (a side with nobody in it).
        let left = standing.iter().filter(|s| !s.is_empty()).count();
        if left < 2 {
            summary.outcome = if left == 1 {
                Outcome::Win {
                    side: standing.iter().position(|s| !s.is_empty()).unwrap_or(0),
                }
            } else {
                Outcome::Draw
            };
        }

        while left >= 2 && summary.outcome == Outcome::Timeout {
            let Some(step) = clock.next(rolls, acting)? else {
                break; // nobody can ever act again: a timeout, not a win
            };
            let (tick, round, display) = match step {
                Tick::NewRound => {
                    round_starts += 1;
                    if round_starts > self.max_rounds {
                        break; // a round past the cap is not begun
                    }
                    summary.rounds = summary.rounds.max(round_starts);
                    continue;
                }
                Tick::Moment { tick, round, display } => (tick, round, display),
            };
            // The caps: a moment past the ticks or rounds (Continuous counts
            // its stopwatch laps) is not fought, nor one that would take the
            // actions past their cap: a moment is fought whole or not at all.
            if tick > self.max_ticks
                || round > self.max_rounds
                || summary.actions.saturating_add(acting.len() as u64) > self.max_actions
            {
                break;
            }
            summary.ticks = tick;
            summary.rounds = summary.rounds.max(round);
            // FUDGE's group roll: one 2dF per side for all its fighters at
            // this moment; a fighter alone on its side rolls its own 4dF.
            if let Striking::FudgeOpposed(r) = self.striking
                && r.group_roll
            {
                for (roll, side) in side_roll.iter_mut().zip(standing.iter()) {
                    *roll = (side.len() >= 2).then(|| rolls.fudge(2));
                }
            }
            // First every actor picks its target (all at once: the
            // engagements of this moment count in every strike of it)...
            hits.clear();
            picks.clear();
            for &a in acting.iter() {
                summary.actions += 1;
                let ag = &self.groups[self.group_of[a as usize] as usize];
                // A Full Contact action draws its target, Strike roll and
                // follow-up Ready Time roll together (`action_dice`).
                let (drawn_target, strike_roll) = match self.striking {
                    Striking::FullContact(_) => {
                        let dice = rolls.action_dice(self.random_pool(ag.side, standing));
                        clock.ready_roll(a, dice.ready);
                        (Some(dice.target), dice.strike)
                    }
                    Striking::FudgeOpposed(_) => (None, 0),
                };
                let Some(t) = self.pick_target(
                    a,
                    ag.side,
                    standing,
                    (target_of, engaged_by, taken, down),
                    ranking,
                    rolls,
                    drawn_target,
                ) else {
                    if let Some(tr) = trace.as_mut() {
                        tr.push(TraceLine {
                            tick,
                            round,
                            display,
                            text: format!("{} finds no one in reach", self.fighter_name(a)),
                        });
                    }
                    continue;
                };
                // Engage the target.
                let old = target_of[a as usize];
                if old != t {
                    if old != NONE {
                        engaged_by[old as usize] -= 1;
                    }
                    engaged_by[t as usize] += 1;
                    target_of[a as usize] = t;
                    if ranking.is_on() {
                        let arrays = (&down[..], &taken[..], &engaged_by[..]);
                        if old != NONE {
                            ranking.set(old, rank_key(self.targeting, reach, old, arrays));
                        }
                        ranking.set(t, rank_key(self.targeting, reach, t, arrays));
                    }
                }
                picks.push((a, t, strike_roll));
            }
            // ...then every strike is resolved.
            for &(a, t, strike_roll) in picks.iter() {
                let (ag_side, tg_side) = (self.side_of(a), self.side_of(t));
                let ag = &self.groups[self.group_of[a as usize] as usize].fighter;
                let tg = &self.groups[self.group_of[t as usize] as usize].fighter;
                let (landed, damage, what) = match self.striking {
                    Striking::FullContact(r) => {
                        let sr = ag.strike_rating + penalty[a as usize];
                        let dr = tg.defense_rating + penalty[t as usize];
                        let blow = combat::full_contact_blow(
                            sr,
                            dr,
                            strike_roll,
                            None,
                            false,
                            &r,
                            ag.offense,
                            tg.defense_factor,
                        )
                        .map_err(SimError::rules)?;
                        match blow.outcome {
                            StrikeOutcome::AmazingStrike { .. } => summary.amazing_strikes += 1,
                            StrikeOutcome::AmazingDefense { .. } => summary.amazing_defenses += 1,
                            _ => {}
                        }
                        let what = trace
                            .is_some()
                            .then(|| format!("SR {sr} {strike_roll:+} vs DR {dr}: {}", blow.outcome));
                        (blow.landed, blow.damage, what)
                    }
                    Striking::FudgeOpposed(r) => {
                        let round_no = round.max(1);
                        let a_skill = ag.skill.in_round(round_no).map_err(SimError::rules)?.value();
                        let t_skill = tg.skill.in_round(round_no).map_err(SimError::rules)?.value();
                        // A fighter's roll: its side's group roll, or its own 4dF.
                        let mut roll_of = |side: u8| side_roll[side as usize].unwrap_or_else(|| rolls.four_df());
                        let ar = roll_of(ag_side);
                        let dr = roll_of(tg_side);
                        // FUDGE 4.34: a fighter beset by several is at -1 per
                        // attacker beyond the first, attacking and defending.
                        let crowd = |f: u32| {
                            if r.multi_foe_penalty {
                                engaged_by[f as usize].saturating_sub(1) as i32
                            } else {
                                0
                            }
                        };
                        let (a_crowd, t_crowd) = (crowd(a), crowd(t));
                        let blow = combat::opposed_blow(
                            OpposedSide {
                                skill: a_skill,
                                penalty: penalty[a as usize],
                                outnumbered: a_crowd,
                                roll: ar,
                            },
                            OpposedSide {
                                skill: t_skill,
                                penalty: penalty[t as usize],
                                outnumbered: t_crowd,
                                roll: dr,
                            },
                            &r,
                            ag.offense,
                            tg.defense_factor,
                        );
                        let outnumbered = |n: i32| {
                            if n > 0 {
                                format!(", -{n} outnumbered")
                            } else {
                                String::new()
                            }
                        };
                        let what = trace.is_some().then(|| {
                            format!(
                                "{} ({a_skill:+} skill {ar:+} roll{}) vs {} ({t_skill:+} skill {dr:+} roll{}): {}",
                                blow.attack,
                                outnumbered(a_crowd),
                                blow.defense,
                                outnumbered(t_crowd),
                                if blow.landed {
                                    format!("hit by {}", blow.degree)
                                } else {
                                    "no hit".to_string()
                                }
                            )
                        });
                        (blow.landed, blow.damage, what)
                    }
                };
                if landed {
                    summary.hits += 1;
                    hits.push((t, damage));
                }
                if let (Some(tr), Some(what)) = (trace.as_mut(), what) {
                    let dmg = if landed {
                        format!(", damage {damage}")
                    } else {
                        String::new()
                    };
                    tr.push(TraceLine {
                        tick,
                        round,
                        display,
                        text: format!(
                            "{} ({}) strikes {}: {what}{dmg}",
                            self.fighter_name(a),
                            ag.weapon,
                            self.fighter_name(t)
                        ),
                    });
                }
            }
            // The end of the moment: every hit lands together.
            fallen.clear();
            for &(t, damage) in hits.iter() {
                let out = model.apply(&mut state[t as usize], damage);
                penalty[t as usize] = out.penalty;
                taken[t as usize] += i64::from(damage.max(0));
                if out.after.is_down() && !down[t as usize] {
                    down[t as usize] = true;
                    fallen.push(t);
                }
                if ranking.is_on() {
                    ranking.set(t, rank_key(self.targeting, reach, t, (down, taken, engaged_by)));
                }
            }
            clock.remove_fallen(fallen);
            for &f in fallen.iter() {
                let side = self.groups[self.group_of[f as usize] as usize].side as usize;
                let list = &mut standing[side];
                let p = pos[f as usize] as usize;
                let last = list[list.len() - 1];
                list.swap_remove(p);
                if last != f {
                    pos[last as usize] = p as u32;
                }
                let tgt = target_of[f as usize];
                if tgt != NONE {
                    engaged_by[tgt as usize] -= 1;
                    target_of[f as usize] = NONE;
                    if ranking.is_on() {
                        ranking.set(tgt, rank_key(self.targeting, reach, tgt, (down, taken, engaged_by)));
                    }
                }
                if let Some(tr) = trace.as_mut() {
                    tr.push(TraceLine {
                        tick,
                        round,
                        display,
                        text: format!("{} falls", self.fighter_name(f)),
                    });
                }
            }
            for &(t, _) in hits.iter() {
                if !down[t as usize] {
                    let g = &self.groups[self.group_of[t as usize] as usize];
                    if clock.disrupt(t, g.fighter.disruptible) {
                        summary.disruptions += 1;
                        if let Some(tr) = trace.as_mut() {
                            tr.push(TraceLine {
                                tick,
                                round,
                                display,
                                text: format!("{}'s action is disrupted", self.fighter_name(t)),
                            });
                        }
                    }
                }
            }
            if !fallen.is_empty() && options.casualties {
                casualties.push(Casualties {
                    tick,
                    standing: standing.iter().map(|s| s.len() as u64).collect(),
                });
            }
            let sides_left = standing.iter().filter(|s| !s.is_empty()).count();
            if sides_left <= 1 {
                summary.outcome = match standing.iter().position(|s| !s.is_empty()) {
                    Some(side) => Outcome::Win { side },
                    None => Outcome::Draw,
                };
                break;
            }
        }
        Ok(BattleReport {
            summary,
            sides: self.sides.clone(),
            fielded,
            standing: standing.iter().map(|s| s.len() as u64).collect(),
            casualties,
            trace,
        })
    }

    /// How many candidates a uniformly random target of a fighter of `side`
    /// is drawn from (the enemies standing), or 1 when the policy draws
    /// none this way: what [`SeededRolls::action_dice`] is asked for.
    fn random_pool(&self, side: u8, standing: &[Vec<u32>]) -> u32 {
        if self.targeting != Targeting::Random || self.reach_limit() != u32::MAX {
            return 1;
        }
        u32::try_from(enemies_standing(side, standing)).unwrap_or(u32::MAX)
    }

    /// At most how many attackers a target may have (FUDGE's reach; Full
    /// Contact has no limit).
    fn reach_limit(&self) -> u32 {
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
    fn pick_target(
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
