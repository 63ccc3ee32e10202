//! The battle engine: any timing system x any striking system x any damage
//! model, fought to a wipe-out, a draw or a limit.
//!
//! # How a battle runs
//!
//! 1. The clock (one for any timing system; lean ones for every system,
//!    the core Scheduler for Graduated Rounds' other past-the-end policies,
//!    extra preparation and GM timing) hands out the fighters acting at
//!    the next moment, all together. Two-sided battles without a trace
//!    (either striking system) take a fast path with the same results
//!    (`fast/`).
//! 2. Each picks a target by the scenario's targeting policy among the
//!    enemies standing **at the start of the moment**, and strikes: Full
//!    Contact (SR + 4dF against DR) or FUDGE opposed (skill + 4dF against
//!    the defender's skill + 4dF). Wound penalties feed both rolls.
//! 3. At the end of the moment every hit is applied, in the order it was
//!    struck; the fallen lose their pending actions; a fighter hit before its
//!    disruptible action landed loses that action (the simultaneity
//!    decision of docs/rules.md §1.8: two fighters can fell each other, and a spell completes on
//!    the tick its caster is struck).
//! 4. With morale (a side's `morale`), at the end of a moment at which
//!    someone fell, a side whose share of fighters standing is below its
//!    `break_below`, or whose leader group has nobody standing, breaks:
//!    its standing fighters leave the battle, retreated or surrendered
//!    (`morale.rs`). Battles with morale take the general loop, never
//!    the fast paths.
//! 5. The battle ends when one side is left (a win), none is (a draw: the
//!    last sides wiped out or broken at the same moment), or a limit of ticks, rounds or actions
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
//!   `toughness` (docs/rules.md §3.1), plus `amazing_strike_damage` on an amazing
//!   strike. Armor from the
//!   table counts once per striking system: in the Defense Rating under
//!   Full Contact (as in the article), in the defensive damage factor under
//!   FUDGE striking (FUDGE 4.1).
//! - **A guaranteed hit** (Full Contact's optional +4, at a margin of 0 or
//!   less) does damage as a hit by 1, the least hit: the option is there so
//!   that the "impossible" blow lands.
//! - **Wound penalties** (Hurt -1, Very Hurt -2) apply to the wounded
//!   fighter's attack (SR or skill) and defense (DR or skill).
//! - **FUDGE opposed**: each attack is an exchange (docs/rules.md §2.2.2):
//!   the winner by 1 or more with at least the minimum result (Poor) hurts
//!   the loser, so a defender who wins hurts the attacker (his damage is
//!   one of the moment's hits); under the round systems a blow at a foe
//!   whose last exchange begun this round was with the striker is that
//!   exchange (docs/rules.md §2.2.2). With `exchange = "one_way"` a defender
//!   who wins is not hurt and does no harm. FUDGE 4.34's lone fighter, who rolls once against every foe of a
//!   combat round and must beat or tie them all to wound one, belongs to
//!   simultaneous combat rounds; here every attack is an action of its own
//!   under any timing system, so each is one exchange. What 4.34 gives
//!   every exchange: a fighter engaged by several attackers is at the
//!   per-foe penalty (-1) for each beyond the first, attacking and
//!   defending (the lone fighter's
//!   skill), counting the engagements of the moment itself (every actor of
//!   a moment picks its target before any strike is resolved); at most
//!   `max_attackers_per_target` attackers can engage one target (reach),
//!   and an attacker with no target in reach loses the action. With
//!   `group_roll`, each side of two or more standing fighters rolls one
//!   2dF per moment for all its fighters (the GM's one roll for the NPCs);
//!   a fighter alone on its side rolls its own 4dF. Plus-levels count by
//!   round. A group's tactics (4.31: stance, shield, aim, position), Scale
//!   and NPC results (4.33) count in every exchange it is in, through
//!   `combat::Bearing` (docs/rules.md §2.2.3, §2.2.5).
//! - **Reach is FUDGE's rule** (4.34) and applies under FUDGE opposed
//!   striking only; under Full Contact any number may strike one target.
//! - **Distance** (docs/rules.md §5.1, `distance.rs`): with a scenario's
//!   `distance` the sides start apart on one line; an actor strikes or
//!   shoots a foe in reach (Full Contact's range penalty at the distance
//!   of the moment; under FUDGE, 4.4's shots against the Difficulty Level
//!   of the distance and the target's cover, dodged or not: `ranged.rs`),
//!   else moves by its plan or waits, a move being an action timed as any
//!   other. **Surprise and the rear** (§5.2): an
//!   unaware defender is struck at its unaware DR, or unopposed under
//!   FUDGE. Battles with none of these take the fast paths as before.
//! - **The Tick System whole** (docs/rules.md §1.5, §5): a group's
//!   `action_ticks` override the system's. With `defend = "free_action"`
//!   each strike at one of its fighters still standing is a defense of
//!   `free_action_ticks` at the end of the moment, after the hits land, in
//!   the order struck (it may cancel the action in progress and push the
//!   next turn). With `prepare = true` the group Prepares at each turn;
//!   strikes at a prepared fighter meet its defense + `prepare_defense_bonus`
//!   as it stood at the start of the moment, its first defense is free,
//!   and at the end of the moment it takes its held turn and attacks,
//!   preparing again at its next turn. Such battles run on the core
//!   Scheduler (`SchedulerClock`), which holds these rules; no lean clock
//!   or fast path takes them.
//! - **Acquire** (docs/rules.md §1.5, §5): under the Tick System, a
//!   ranged fighter (a `range`, in a battle with a distance) that shoots
//!   at another target than its last (its first shot included) pays
//!   `acquire_ticks`: the target is picked when the action lands, so its
//!   next turn comes that much later (core `Scheduler::acquire`, as the
//!   tracker's shot at a new target). Such battles run on the Scheduler
//!   too (`acquire.rs`).
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
//!
//! # Where things are
//!
//! This file holds the public surface (a [`Battle`], its [`RunOptions`],
//! [`Workspace`], the ways to run one) and the choice of clock and path;
//! `build.rs` resolves a scenario into a battle; `targeting.rs` holds the
//! per-fighter arrays, the targeting index's keys and the pick of a
//! target; `distance.rs` the line, reach and surprise; `ranged.rs` FUDGE
//! 4.4's shots; `fight.rs` the battle loop, a moment's strikes and its falls;
//! `morale.rs` the sides that break at a moment's end; `trace.rs` the
//! words of the trace.

mod acquire;
mod build;
mod distance;
mod fight;
mod morale;
mod ranged;
mod scouting;
mod targeting;
mod trace;

use skirmish_core::damage::{Damage, DamageModel, DamageState, HitPointState, WoundTrack};
use skirmish_core::dice::SeededRolls;
use skirmish_core::fighter::Fighter;
use skirmish_core::timing::TimingSystem;

use crate::clock::{LeanClock, LineClock, SchedulerClock};
use crate::error::SimError;
use crate::fast::{self, FastEnd, FastPlan, FastWorkspace, HitPointsPrep, WoundsPrep};
use crate::report::{BattleReport, BattleSummary, Casualties};
use crate::scenario::{Scenario, Striking, Targeting};

use targeting::Arrays;

pub use crate::control::{BattleProgress, Control, PROGRESS_EVERY};
pub(crate) use crate::control::{Resume, Start};
use crate::roster::reserve_fighters;

use std::sync::atomic::Ordering;

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
    lean: Option<LeanClock>,
    /// The battle (its [`Battle::id`]) `lean` was last readied for.
    lean_for: Option<u64>,
    hp: Vec<HitPointState>,
    wounds: Vec<WoundTrack>,
    arrays: Arrays,
    fast: FastWorkspace,
}

impl Workspace {
    /// Room for a battle of `n` fighters in every per-fighter array the
    /// engine keeps here, or [`SimError::OutOfMemory`].
    fn reserve(&mut self, battle: &Battle) -> Result<(), SimError> {
        let n = battle.group_of.len();
        self.arrays.reserve(battle)?;
        reserve_fighters(&mut self.hp, n)?;
        reserve_fighters(&mut self.wounds, n)
    }
}

impl std::fmt::Debug for Workspace {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Workspace")
            .field("fighters", &self.arrays.penalty.len())
            .finish()
    }
}

/// The Time Taken of a group with no weapon given.
pub use skirmish_core::fighter::DEFAULT_TIME_TAKEN;

/// A group, ready to fight: the core's resolved [`Fighter`], where its
/// fighters stand in the roster.
#[derive(Debug, Clone)]
struct GroupRt {
    side: u8,
    first: u32,
    count: u32,
    fighter: Fighter,
    /// Its reach, move and plan, and its surprise.
    field: distance::GroupField,
    /// FUDGE 4.31: its Perception or Tactics trait, if it scouts
    /// (`scouting.rs`).
    scouting: Option<skirmish_core::ladder::Level>,
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
    /// This battle's number, unique in the process (a clone keeps it: it
    /// is the same battle): a workspace's lean clock readied for it is
    /// only restarted for its next battle.
    id: u64,
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
    /// FUDGE two-way exchanges under a round system: a blow at a foe whose
    /// last exchange begun this round was with the striker is that
    /// exchange (docs/rules.md §2.2.2).
    exchanges_by_round: bool,
    /// How far apart the sides start (docs/rules.md §5.1), if the
    /// battle has a distance.
    distance: Option<i64>,
    /// Attacks from the rear: an attacker engaging a foe already engaged
    /// by this many strikes it from the rear (docs/rules.md §5.2).
    front: Option<u32>,
    /// Whether any group starts unaware.
    surprise: bool,
    /// Some fighter may lose its next action to a parry (a group's
    /// `parry` policy) or to a disarm, or be knocked down (an amazing
    /// defense's effect): the general loop keeps who.
    spends_actions: bool,
    /// Per side, its morale (docs/rules.md §5); empty when no side has
    /// one (then no side ever breaks).
    morale: Vec<Option<morale::MoraleRt>>,
    /// Whether a group's Tick System policies (`defend = "free_action"`,
    /// `prepare`) are played: the battle then runs on the Scheduler,
    /// which holds those rules, and the loop asks its clock at each
    /// strike.
    tick_policies: bool,
    /// Whether the Tick System's Acquire is played (`acquire.rs`): the
    /// battle then runs on the Scheduler, which holds the rule.
    acquires: bool,
    /// Set when the battle can take the fast path (`fast.rs`).
    fast: Option<(FastPlan, FastPrep)>,
}

/// A workspace's lean clock and the battle it was last readied for.
type LeanSlot<'w> = (&'w mut Option<LeanClock>, &'w mut Option<u64>);

/// A new battle's [`Battle::id`].
fn next_battle_id() -> u64 {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// The damage model's part of the fast path's plan.
#[derive(Debug, Clone)]
enum FastPrep {
    HitPoints(Box<HitPointsPrep>),
    Wounds(Box<WoundsPrep>),
}

/// Fights one battle of `scenario`: battle number `index` of master seed
/// `seed`.
pub fn run_battle(scenario: &Scenario, seed: u64, index: u64, options: &RunOptions) -> Result<BattleReport, SimError> {
    Battle::new(scenario)?.run(seed, index, options)
}

impl Battle {
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
        self.run_controlled_in(ws, seed, index, options, &mut Control::default())
    }

    /// Fights battle `index` of master seed `seed` under `control`: it can be
    /// interrupted ([`SimError::Interrupted`]), its trace streamed line by
    /// line and its progress watched. The same battle, line for line, as
    /// [`run`](Self::run): `options.trace` still keeps the trace in the
    /// report (leave it off when a sink takes it, to keep memory bounded).
    pub fn run_controlled(
        &self,
        seed: u64,
        index: u64,
        options: &RunOptions,
        control: &mut Control<'_>,
    ) -> Result<BattleReport, SimError> {
        self.run_controlled_in(&mut Workspace::default(), seed, index, options, control)
    }

    /// [`run_controlled`](Self::run_controlled) in a reused workspace.
    pub fn run_controlled_in(
        &self,
        ws: &mut Workspace,
        seed: u64,
        index: u64,
        options: &RunOptions,
        control: &mut Control<'_>,
    ) -> Result<BattleReport, SimError> {
        let mut rolls = SeededRolls::for_stream(seed, index);
        // The fast paths honour a control's flag and progress callback but
        // never trace: a battle someone traces takes the general loop (the
        // same results).
        if !options.trace
            && control.trace.is_none()
            && let Some(fast) = &self.fast
        {
            let mut casualties = Vec::new();
            let end = self.run_fast(
                fast,
                ws,
                &mut rolls,
                options.casualties.then_some(&mut casualties),
                control,
            )?;
            return Ok(BattleReport {
                summary: end.summary,
                sides: self.sides.clone(),
                fielded: end.fielded.to_vec(),
                standing: end.standing.to_vec(),
                casualties,
                trace: None,
            });
        }
        self.run_general(ws, &mut rolls, options, self.use_lean_clock(), control)
    }

    /// Fights battle `index` of master seed `seed` in a reused workspace,
    /// keeping only the numbers (what a sweep needs).
    pub fn run_summary(&self, ws: &mut Workspace, seed: u64, index: u64) -> Result<BattleSummary, SimError> {
        let mut rolls = SeededRolls::for_stream(seed, index);
        match &self.fast {
            Some(fast) => Ok(self
                .run_fast(fast, ws, &mut rolls, None, &mut Control::default())?
                .summary),
            None => Ok(self
                .run_with(ws, &mut rolls, &RunOptions::default(), self.use_lean_clock())?
                .summary),
        }
    }

    /// Whether [`run_summary`](Self::run_summary), and
    /// [`run_in`](Self::run_in) without a trace, take the fast path
    /// (the same results, fewer instructions; see the crate's `fast/`).
    pub fn has_fast_path(&self) -> bool {
        self.fast.is_some()
    }

    fn run_fast(
        &self,
        (plan, prep): &(FastPlan, FastPrep),
        ws: &mut Workspace,
        rolls: &mut SeededRolls,
        casualties: Option<&mut Vec<Casualties>>,
        control: &mut Control<'_>,
    ) -> Result<FastEnd, SimError> {
        match (&self.damage, prep) {
            (Damage::HitPoints(m), FastPrep::HitPoints(p)) => {
                self.run_fast_with(plan, m, p, ws, rolls, casualties, control)
            }
            (Damage::FudgeWounds(m), FastPrep::Wounds(p)) => {
                self.run_fast_with(plan, m, p, ws, rolls, casualties, control)
            }
            _ => Err(SimError::Scenario(
                "the fast path's plan does not fit the damage model".into(),
            )),
        }
    }

    /// The fast path with its damage model: the Continuous loop, or the
    /// moments loop on the battle's lean clock, or under FUDGE opposed
    /// striking the opposed loop on it (compiled per clock); each honours
    /// `control`'s flag and progress callback.
    #[expect(clippy::too_many_arguments, reason = "the fast path's inputs, each of its own kind")]
    fn run_fast_with<M: fast::FastModel>(
        &self,
        plan: &FastPlan,
        model: &M,
        prep: &M::Prep,
        ws: &mut Workspace,
        rolls: &mut SeededRolls,
        casualties: Option<&mut Vec<Casualties>>,
        control: &mut Control<'_>,
    ) -> Result<FastEnd, SimError> {
        if let Striking::FudgeOpposed(_) = self.striking
            && plan.is_continuous()
        {
            let out = (&mut ws.fast, rolls, casualties, control);
            return fast::fight_opposed_ring(plan, model, prep, &self.group_of, out);
        }
        if plan.is_continuous() {
            return fast::fight(
                plan,
                model,
                prep,
                &self.group_of,
                (&mut ws.fast, rolls, casualties, control),
            );
        }
        let Workspace {
            lean,
            lean_for,
            fast: fw,
            ..
        } = ws;
        let g = &self.group_of;
        let out = (fw, rolls, casualties, control);
        if let Striking::FudgeOpposed(_) = self.striking {
            return match self.lean_clock((lean, lean_for))? {
                LeanClock::Continuous(c) => fast::fight_opposed(plan, model, prep, g, c, out),
                LeanClock::Rounds(c) => fast::fight_opposed(plan, model, prep, g, c, out),
                LeanClock::Graduated(c) => fast::fight_opposed(plan, model, prep, g, c, out),
                LeanClock::Tick(c) => fast::fight_opposed(plan, model, prep, g, c, out),
                LeanClock::TickLazy(c) => fast::fight_opposed(plan, model, prep, g, c, out),
            };
        }
        match self.lean_clock((lean, lean_for))? {
            LeanClock::Continuous(c) => fast::fight_moments(plan, model, prep, g, c, None, out),
            LeanClock::Rounds(c) => fast::fight_moments(plan, model, prep, g, c, None, out),
            LeanClock::Graduated(c) => fast::fight_moments(plan, model, prep, g, c, None, out),
            LeanClock::Tick(c) => fast::fight_moments(plan, model, prep, g, c, None, out),
            LeanClock::TickLazy(c) => fast::fight_moments(plan, model, prep, g, c, None, out),
        }
    }

    fn use_lean_clock(&self) -> bool {
        !self.tick_policies
            && !self.acquires
            && LeanClock::handles(&self.timing, self.groups.iter().map(|g| g.fighter.action))
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
        self.run_general(ws, rolls, options, lean, &mut Control::default())
    }

    /// [`run_with`](Self::run_with) under `control`.
    fn run_general(
        &self,
        ws: &mut Workspace,
        rolls: &mut SeededRolls,
        options: &RunOptions,
        lean: bool,
        control: &mut Control<'_>,
    ) -> Result<BattleReport, SimError> {
        // A system without a lean clock runs on the Scheduler either way.
        let lean = lean && self.use_lean_clock();
        ws.reserve(self)?;
        ws.arrays.reset(self);
        let Workspace {
            lean: lean_clock,
            lean_for,
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
                    let clock = self.lean_clock((lean_clock, lean_for))?;
                    self.fight(clock, m, hp, arrays, rolls, options, Resume::default(), control)
                } else {
                    self.fight(
                        &mut self.scheduler_clock()?,
                        m,
                        hp,
                        arrays,
                        rolls,
                        options,
                        Resume::default(),
                        control,
                    )
                }
            }
            Damage::FudgeWounds(m) => {
                wounds.clear();
                wounds.resize(self.group_of.len(), m.fresh());
                if lean {
                    let clock = self.lean_clock((lean_clock, lean_for))?;
                    self.fight(clock, m, wounds, arrays, rolls, options, Resume::default(), control)
                } else {
                    self.fight(
                        &mut self.scheduler_clock()?,
                        m,
                        wounds,
                        arrays,
                        rolls,
                        options,
                        Resume::default(),
                        control,
                    )
                }
            }
        }
    }

    /// The workspace's lean clock readied for this battle: restarted when it
    /// was last readied for this very battle (its fighters read and checked
    /// once, not per battle), readied afresh otherwise.
    fn lean_clock<'w>(&self, (slot, readied_for): LeanSlot<'w>) -> Result<&'w mut LeanClock, SimError> {
        if *readied_for == Some(self.id)
            && let Some(clock) = slot
        {
            clock.restart();
            return Ok(clock);
        }
        *readied_for = None;
        let clock = LeanClock::ready(
            slot,
            &self.timing,
            self.group_of.iter().map(|&g| {
                let g = &self.groups[g as usize].fighter;
                (g.timing, g.action)
            }),
        )?;
        *readied_for = Some(self.id);
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
        if let Some(fast) = &self.fast {
            return self.fight_from_fast(fast, ws, clock, start, rolls);
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
                self.fight(
                    clock,
                    m,
                    hp,
                    arrays,
                    rolls,
                    &options,
                    start.resume,
                    &mut Control::default(),
                )?
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
                self.fight(
                    clock,
                    m,
                    wounds,
                    arrays,
                    rolls,
                    &options,
                    start.resume,
                    &mut Control::default(),
                )?
            }
        };
        Ok(report.summary)
    }

    /// [`fight_from`](Self::fight_from) on the moments loop of the fast
    /// path (`fast/moments.rs`), `clock` handing out the moments: the same
    /// results, fewer instructions.
    fn fight_from_fast(
        &self,
        (plan, prep): &(FastPlan, FastPrep),
        ws: &mut Workspace,
        clock: &mut LineClock<'_>,
        start: &Start,
        rolls: &mut SeededRolls,
    ) -> Result<BattleSummary, SimError> {
        let g = &self.group_of;
        let out = (&mut ws.fast, rolls, None, &mut Control::default());
        let end = match (&self.damage, prep) {
            (Damage::HitPoints(m), FastPrep::HitPoints(p)) => {
                fast::fight_moments(plan, m, p, g, clock, Some(start), out)
            }
            (Damage::FudgeWounds(m), FastPrep::Wounds(p)) => {
                fast::fight_moments(plan, m, p, g, clock, Some(start), out)
            }
            _ => Err(SimError::Scenario(
                "the fast path's plan does not fit the damage model".into(),
            )),
        }?;
        Ok(end.summary)
    }

    /// This battle without its fast path: tests compare the two.
    pub(crate) fn without_fast_path(mut self) -> Battle {
        self.fast = None;
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_battle_too_big_for_memory_is_an_error_naming_its_fighters() {
        // More bytes than an allocation may have: refused, not an abort.
        let n = usize::MAX / 4;
        let mut v: Vec<u64> = Vec::new();
        let err = reserve_fighters(&mut v, n).unwrap_err();
        assert_eq!(err, SimError::OutOfMemory { fighters: n as u64 });
        assert_eq!(
            err.to_string(),
            format!("a battle of {n} fighters does not fit in this machine's memory")
        );
        // A battle that fits has room for its fighters in every array
        // before it starts (the targeting index's too).
        let scenario = Scenario::builtin("parity")
            .and_then(|s| s.with_field("sides.A.groups.0.count", "500"))
            .and_then(|s| s.with_field("sides.B.groups.0.count", "700"))
            .and_then(|s| s.with_field("battle.targeting", "most_wounded"))
            .expect("the parity battle");
        let battle = Battle::new(&scenario).expect("a battle");
        let mut ws = Workspace::default();
        assert_eq!(ws.reserve(&battle), Ok(()));
        assert!(ws.arrays.penalty.capacity() >= 1200 && ws.hp.capacity() >= 1200);
        assert!(ws.arrays.standing[0].capacity() >= 500 && ws.arrays.standing[1].capacity() >= 700);
    }
}
