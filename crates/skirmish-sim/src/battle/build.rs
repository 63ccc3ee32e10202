//! Making a battle ready: a scenario's groups resolved into fighters, its
//! limits checked, and the fast path's plan when the battle fits it; or a
//! continuation's battle of single fighters already resolved.

use skirmish_core::damage::Damage;
use skirmish_core::fighter::{ExchangeRule, Fighter, FullContactRules};
use skirmish_core::striking::full_contact::StrikeOptions;
use skirmish_core::timing::TimingSystem;
use skirmish_core::timing::simple::highest_initiative;
use skirmish_core::timing::tick_system::Defending;

use super::distance::GroupField;
use super::{Battle, FastPrep, GroupRt, reserve_fighters};
use crate::error::SimError;
use crate::fast::{self, FastGroup, FastPlan, HitPointsPrep, OpposedPlan, WoundsPrep};
use crate::ring::MAX_DELAY;
use crate::scenario::{BattleRules, Scenario, Striking, Targeting};

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
                    field: GroupField::of(g, &fighter, &scenario.striking),
                    scouting: g.scouting,
                    fighter,
                });
                let gidx = (groups.len() - 1) as u32;
                let want = group_of.len() + count as usize;
                reserve_fighters(&mut group_of, want)?;
                group_of.extend(std::iter::repeat_n(gidx, count as usize));
            }
        }
        let morale =
            super::morale::of_scenario(scenario, &groups.iter().map(|g| (g.first, g.count)).collect::<Vec<_>>());
        let b = &scenario.battle;
        if b.max_attackers_per_target == 0 || b.max_ticks == 0 || b.max_rounds == 0 || b.max_actions == 0 {
            return Err(SimError::Scenario(
                "battle limits and max_attackers_per_target must be at least 1".into(),
            ));
        }
        let mut battle = Battle {
            id: super::next_battle_id(),
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
            exchanges_by_round: false,
            distance: scenario.distance,
            front: b.front,
            surprise: false,
            spends_actions: false,
            morale,
            tick_policies: false,
            acquires: false,
            fast: None,
        };
        if let Some(d) = battle.distance {
            skirmish_core::distance::check_distance("distance", d).map_err(SimError::Rules)?;
            if battle.sides.len() != 2 {
                return Err(SimError::Scenario(
                    "a battle with a distance has exactly 2 sides".into(),
                ));
            }
        }
        battle.surprise = battle.groups.iter().any(|g| g.field.unaware_for > 0);
        battle.exchanges_by_round = battle.counts_exchanges_by_round();
        battle.spends_actions = battle.any_action_spent();
        battle.tick_policies = battle.plays_tick_policies();
        battle.acquires = battle.plays_acquire();
        // Distance, surprise and the rear are the general loop's alone; the
        // fast paths play no morale either.
        // Scouting (FUDGE 4.31) is the general loop's too.
        if battle.distance.is_none()
            && battle.front.is_none()
            && !battle.surprise
            && battle.morale.is_empty()
            && !battle.plays_scouting()
        {
            battle.fast = battle.fast_plan();
        }
        Ok(battle)
    }

    /// Whether a group's Tick System policies are played (docs/rules.md
    /// §5): the Tick System, and a group that defends as a free action or
    /// prepares.
    fn plays_tick_policies(&self) -> bool {
        matches!(self.timing, TimingSystem::TickSystem(_))
            && self
                .groups
                .iter()
                .any(|g| g.fighter.defend == Defending::FreeAction || g.fighter.prepares())
    }

    /// Whether FUDGE two-way exchanges count by round in this battle
    /// (docs/rules.md §2.2.2): a blow at a foe whose last exchange begun
    /// this round was with the striker is that exchange.
    fn counts_exchanges_by_round(&self) -> bool {
        matches!(self.striking, Striking::FudgeOpposed(r) if r.exchange == ExchangeRule::TwoWay)
            && self.timing.exchanges_by_round()
    }

    /// Whether a fighter can spend its next action on something other than
    /// a strike: a parry under Full Contact (docs/rules.md §2.1.4).
    fn any_action_spent(&self) -> bool {
        match self.striking {
            Striking::FullContact(r) => {
                (r.amazing && !r.amazing_defense.is_none()) || self.groups.iter().any(|g| !g.fighter.parry.is_never())
            }
            Striking::FudgeOpposed(_) => false,
        }
    }

    /// Whether the battle plays an option the fast paths leave to the
    /// general loop: parries, an amazing result beyond the flat extra.
    fn declines_fast_paths(&self) -> bool {
        self.spends_actions
            || matches!(self.striking, Striking::FullContact(r) if r.amazing && !r.amazing_strike.is_flat())
    }

    /// The fast path's plan, if this battle is one it fights: two sides,
    /// any targeting policy, and either Full Contact striking under
    /// Continuous timing with delays that fit its ring and ticks that fit
    /// in 32 bits (`fast/continuous.rs`), or under a timing system with a
    /// lean clock (`fast/moments.rs`), or FUDGE opposed striking under any
    /// timing system with a lean clock (`fast/opposed.rs`), under
    /// Continuous on the ring when the battle fits it; with FUDGE wounds,
    /// a track with few enough states and thresholds for the tables
    /// (`fast/wounds.rs`: the default one has 65 states).
    fn fast_plan(&self) -> Option<(FastPlan, FastPrep)> {
        // Parries and amazing results are the general loop's
        // (`fight.rs`): the fast paths decline them.
        if self.sides.len() != 2 || self.declines_fast_paths() {
            return None;
        }
        let (r, lap) = match (self.striking, &self.timing) {
            (Striking::FullContact(r), TimingSystem::Continuous(c)) => (r, Some(c.lap)),
            (Striking::FullContact(r), _) if self.use_lean_clock() => (r, None),
            // FUDGE opposed (Full Contact's options go unread): under
            // Continuous on the ring if it fits, else on the lean clock.
            (Striking::FudgeOpposed(_), TimingSystem::Continuous(c)) => {
                (FullContactRules::default(), self.fits_ring().then_some(c.lap))
            }
            (Striking::FudgeOpposed(_), _) if self.use_lean_clock() => (FullContactRules::default(), None),
            _ => return None,
        };
        self.fast_plan_with(r, lap, false)
    }

    /// The fast path's plan for a two-sided battle fought on the Continuous
    /// loop (`lap`: its stopwatch) or, with `None`, on the moments loop
    /// with a clock that hands out the moments (the battle's lean clock, or
    /// a continuation's [`LineClock`](crate::clock::LineClock)), with Full
    /// Contact's rules `r` (unread under FUDGE opposed striking).
    /// `every_hit_offered`: the clock, not the fighters' stats, decides
    /// which hits disrupt (a continuation's lines by their declarations),
    /// so every hit on one standing is offered to it, as the general loop
    /// does.
    fn fast_plan_with(
        &self,
        r: FullContactRules,
        lap: Option<u32>,
        every_hit_offered: bool,
    ) -> Option<(FastPlan, FastPrep)> {
        if self.sides.len() != 2 {
            return None;
        }
        let mut groups = Vec::with_capacity(self.groups.len());
        for g in &self.groups {
            let side = g.side;
            let g = &g.fighter;
            // Scenario groups take no extra preparation: the offset is
            // Time Taken - speed bonus, every action.
            let speed = g.action.time_offset();
            // The longest delay of the Continuous ring: the highest initiative.
            if lap.is_some() && highest_initiative(speed) > MAX_DELAY {
                return None;
            }
            groups.push(FastGroup {
                side,
                disruptible: g.disruptible || every_hit_offered,
                strike_rating: g.strike_rating,
                defense_rating: g.defense_rating,
                offense: g.offense,
                defense_factor: g.defense_factor,
                speed: i32::try_from(speed).ok()?,
                hit_points: g.hit_points,
            });
        }
        // Fighters numbered side by side (as `new` builds them); groups and
        // wound penalties in 16 bits (a fighter's record); for the ring,
        // ticks in 32 bits.
        if !groups.windows(2).all(|w| w[0].side <= w[1].side)
            || groups.len() > fast::MAX_GROUPS
            || matches!(&self.damage, Damage::HitPoints(m)
                if m.config().penalties.iter().any(|row| row.penalty < fast::PENALTY_FLOOR))
            || lap.is_some() && self.max_ticks >= u64::from(u32::MAX) - MAX_DELAY as u64
        {
            return None;
        }
        let options = StrikeOptions {
            guaranteed_success_and_fumble: r.guaranteed,
            amazing: r.amazing,
            point_blank: false,
        };
        // Under Continuous the rounds are the stopwatch's laps: a tick past
        // `max_rounds` laps is past the cap.
        let max_ticks = match lap {
            Some(lap) => self
                .max_ticks
                .min(u64::from(self.max_rounds).saturating_mul(u64::from(lap.max(1)))),
            None => self.max_ticks,
        };
        let plan = FastPlan::new(
            groups,
            options,
            r.amazing_strike_damage,
            lap,
            (max_ticks, self.max_rounds, self.max_actions),
            self.targeting,
        )
        .ok()?;
        let plan = match self.striking {
            Striking::FudgeOpposed(rules) => plan.with_opposed(OpposedPlan::new(
                rules,
                (self.reach, self.exchanges_by_round),
                self.groups.iter().map(|g| &g.fighter),
            )),
            Striking::FullContact(_) => plan,
        };
        let prep = match &self.damage {
            Damage::HitPoints(m) => FastPrep::HitPoints(Box::new(HitPointsPrep::new(m, &plan))),
            // A track with too many boxes for the tables: the general loop.
            Damage::FudgeWounds(m) => FastPrep::Wounds(Box::new(WoundsPrep::new(m)?)),
        };
        Some((plan, prep))
    }

    /// Whether the battle fits the Continuous ring (`fast/continuous.rs`):
    /// its longest delay, the highest initiative, within
    /// [`MAX_DELAY`], groups in 16 bits, ticks in 32 bits.
    fn fits_ring(&self) -> bool {
        self.groups.len() <= fast::MAX_GROUPS
            && self.max_ticks < u64::from(u32::MAX) - MAX_DELAY as u64
            && self
                .groups
                .iter()
                .all(|g| highest_initiative(g.fighter.action.time_offset()) <= MAX_DELAY)
    }

    /// A battle of single fighters already resolved (a continuation's):
    /// each `(side, fighter)` its own group, under `rules`' targeting and
    /// reach and the given absolute caps `(max_ticks, max_rounds,
    /// max_actions)`. The clock comes from the caller
    /// ([`fight_from`](Self::fight_from)), so a battle that qualifies (two
    /// sides, numbered side by side, Full Contact, random targets: what the
    /// odds from here fight) takes the moments loop with that clock.
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
            // A tracker combatant's Perception or Tactics: it scouts on.
            let scouting = fighter.scouting;
            groups.push(GroupRt {
                side,
                first: group_of.len() as u32,
                count: 1,
                fighter,
                field: GroupField::melee(),
                scouting,
            });
            group_of.push(g);
        }
        let (max_ticks, max_rounds, max_actions) = caps;
        if rules.max_attackers_per_target == 0 || max_ticks == 0 || max_rounds == 0 || max_actions == 0 {
            return Err(SimError::Scenario(
                "battle limits and max_attackers_per_target must be at least 1".into(),
            ));
        }
        let mut battle = Battle {
            id: super::next_battle_id(),
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
            exchanges_by_round: false,
            distance: None,
            front: None,
            surprise: false,
            spends_actions: false,
            morale: Vec::new(),
            tick_policies: false,
            acquires: false,
            fast: None,
        };
        battle.exchanges_by_round = battle.counts_exchanges_by_round();
        battle.spends_actions = battle.any_action_spent();
        battle.tick_policies = battle.plays_tick_policies();
        // The ranked policies' index would need the fighters already down
        // at the start left out (`fast/ranked.rs` musters everyone), FUDGE
        // opposed striking its own loop from a start: those continuations
        // stay on the general loop.
        // The Tick System's policies are the general loop's too (it asks
        // the clock at each strike).
        if let (Targeting::Random, Striking::FullContact(r)) = (battle.targeting, battle.striking)
            && !battle.declines_fast_paths()
            && !battle.tick_policies
        {
            battle.fast = battle.fast_plan_with(r, None, true);
        }
        Ok(battle)
    }
}
