//! The main loop ([`Scheduler::next`]) and what an actor does at the
//! table: declare, cancel, disrupt, free actions, interrupts, held turns
//! and delays.

use super::*;

impl Scheduler {
    // -----------------------------------------------------------------
    // The main loop

    /// Advances to what happens next: the next moment (its acts appended to
    /// `acts`, cleared first, in the order they were scheduled), a new
    /// round, or `None` when nothing can ever happen again.
    ///
    /// Actors who landed at the previous moment and have not declared a
    /// follow-up do "the same again" first (in the order they landed),
    /// rolling what that needs; in Continuous timing, actors who joined late
    /// roll their initiative here.
    ///
    /// # Errors
    /// A roll the source cannot give, or a follow-up or round that would
    /// land after [`MAX_TICK`]. All rolls come first: on an error nothing
    /// has changed.
    pub fn next<R: RollSource + ?Sized>(&mut self, rolls: &mut R, acts: &mut Vec<Act>) -> Result<Option<Step>> {
        acts.clear();
        let mut plans = std::mem::take(&mut self.plans);
        plans.clear();
        let start = match self.prepare_next(rolls, &mut plans) {
            Ok(start) => start,
            Err(e) => {
                plans.clear();
                self.plans = plans;
                return Err(e);
            }
        };
        let applied = self.apply_follow_up(&plans);
        plans.clear();
        self.plans = plans;
        applied?;
        if let Some(start) = start {
            self.commit_round(start)?;
            return Ok(Some(Step::NewRound { round: self.round }));
        }
        let mut popped = std::mem::take(&mut self.popped);
        let Some(tick) = self.queue.pop_tick(&mut popped) else {
            self.popped = popped;
            return Ok(None);
        };
        let mut first: Option<EvKind> = None;
        for &(id, ev) in &popped {
            match ev.kind {
                EvKind::Timer { id } => acts.push(Act::Timer { id }),
                EvKind::Action { who, nth, round, .. } => {
                    self.actor_events -= 1;
                    let current_round = self.round;
                    let a = &mut self.actors[who as usize];
                    a.pending.retain(|p| *p != id);
                    // A Graduated action spilled from an older round ends
                    // its chain there (its later actions would land later
                    // still) and leaves this round's count alone.
                    let spilled = round < current_round && matches!(self.system, TimingSystem::GraduatedRounds(_));
                    if !spilled {
                        a.nth = nth;
                    }
                    if a.in_progress == Some(id) {
                        a.in_progress = None;
                        a.in_progress_kind = None;
                    }
                    let chains = match &self.system {
                        TimingSystem::Continuous(_) => true,
                        TimingSystem::GraduatedRounds(_) => {
                            !spilled && nth < a.allowed && matches!(ev.kind, EvKind::Action { end_pass: 0, .. })
                        }
                        _ => false,
                    };
                    // One declaration awaited however many of the actor's
                    // actions land at this moment (a follow-up and an
                    // action left from before a disruption can share a
                    // tick): listed once, as a snapshot requires.
                    if chains && !a.awaiting {
                        a.awaiting = true;
                        self.awaiting.push(who);
                    }
                    acts.push(Act::Action {
                        actor: ActorId(who),
                        nth,
                    });
                    first.get_or_insert(ev.kind);
                }
                EvKind::Turn { who, .. } => {
                    self.actor_events -= 1;
                    let a = &mut self.actors[who as usize];
                    a.pending.retain(|p| *p != id);
                    if !a.awaiting {
                        a.awaiting = true;
                        self.awaiting.push(who);
                    }
                    acts.push(Act::Turn { actor: ActorId(who) });
                    first.get_or_insert(ev.kind);
                }
            }
        }
        popped.clear();
        self.popped = popped;
        let moment = self.moment_at(tick, first);
        if first.is_some() {
            self.moments_in_round = self.moments_in_round.saturating_add(1);
        }
        self.last = Some(moment);
        Ok(Some(Step::Moment(moment)))
    }

    /// Every roll and check of a [`next`](Self::next), changing nothing:
    /// the follow-ups (into `plans`) and, if the round is then over, the
    /// next round.
    fn prepare_next<R: RollSource + ?Sized>(
        &self,
        rolls: &mut R,
        plans: &mut Vec<(u32, Declaration, Plan, i64)>,
    ) -> Result<Option<RoundStart>> {
        self.plan_follow_up(rolls, plans)?;
        if self.round_over_after(plans) {
            let anyone = self.actors.iter().any(|a| a.presence == Presence::Active);
            if anyone && (self.round == 0 || !matches!(self.system, TimingSystem::Continuous(_))) {
                return self.prepare_round(rolls).map(Some);
            }
        }
        Ok(None)
    }

    /// "The same again" for everyone still awaiting a declaration, and
    /// Continuous late joiners' initiative: the rolls and the plans, in
    /// that order, changing nothing.
    #[inline]
    fn plan_follow_up<R: RollSource + ?Sized>(
        &self,
        rolls: &mut R,
        plans: &mut Vec<(u32, Declaration, Plan, i64)>,
    ) -> Result<()> {
        for &w in &self.awaiting {
            let decl = self.actors[w as usize].decl.repeated();
            plans.push((w, decl, self.plan(w, &decl, rolls)?, 0));
        }
        let now = self.queue.now();
        for &w in &self.joining {
            let decl = self.actors[w as usize].decl;
            let init = self.roll_initiative(w, &decl, rolls)?;
            let tick = tick_after(now, init.max(1).unsigned_abs(), "initiative")?;
            plans.push((w, decl, Plan::Join { tick }, init));
        }
        Ok(())
    }

    /// Applies planned follow-ups (checked when planned).
    #[inline]
    fn apply_follow_up(&mut self, plans: &[(u32, Declaration, Plan, i64)]) -> Result<()> {
        if plans.is_empty() {
            return Ok(());
        }
        self.awaiting.clear();
        self.joining.clear();
        for &(w, decl, plan, init) in plans {
            if let Plan::Join { tick } = plan {
                let a = &mut self.actors[w as usize];
                a.presence = Presence::Active;
                a.initiative = init;
                a.entry = None;
                a.chain_round = self.round;
                self.push(tick, EvKind::action(w, self.round, 1))?;
            } else {
                self.apply_plan(w, decl, plan)?;
            }
        }
        Ok(())
    }

    /// The absolute tick at which a follow-up of `decl` lands, from now.
    fn follow_up_tick<R: RollSource + ?Sized>(&self, decl: &Declaration, rolls: &mut R) -> Result<u64> {
        let now = self.current_tick();
        match decl.gm {
            Some(GmTiming::ReadyTime(t)) => tick_after(now, t.into(), "declaration.gm.ready_time"),
            Some(GmTiming::LandingTick(t)) => {
                if t <= now {
                    return Err(Error::invalid(
                        "declaration.gm.landing_tick",
                        format!("tick {t} is not after the current tick {now}"),
                    ));
                }
                if t > MAX_TICK {
                    return Err(Error::out_of_range("declaration.gm.landing_tick", t, now + 1, MAX_TICK));
                }
                Ok(t)
            }
            None => {
                let roll = rolls.roll(Dice::TWO_DF)?;
                let ready = ready_time(roll, decl)?;
                tick_after(now, ready.max(1).unsigned_abs(), "ready_time")
            }
        }
    }

    /// Works out (with rolls) what a declaration for an awaiting actor
    /// does, every tick checked; changes nothing.
    fn plan<R: RollSource + ?Sized>(&self, who: u32, decl: &Declaration, rolls: &mut R) -> Result<Plan> {
        let a = &self.actors[who as usize];
        Ok(match &self.system {
            TimingSystem::Continuous(_) => Plan::At(self.follow_up_tick(decl, rolls)?),
            TimingSystem::GraduatedRounds(c) => {
                if a.nth >= a.allowed {
                    Plan::Nothing
                } else {
                    let tick = self.follow_up_tick(decl, rolls)?;
                    let base = self.chain_base(a.chain_round);
                    let position = tick.saturating_sub(base);
                    if position <= u64::from(c.ticks_per_round) {
                        Plan::At(tick)
                    } else {
                        match c.past_end {
                            PastEnd::Extend | PastEnd::Spill => Plan::At(tick),
                            PastEnd::EndOfRound => {
                                let end = self.round_base.saturating_add(u64::from(c.ticks_per_round));
                                let first = first_end_pass(end, a.initiative.max(1).unsigned_abs(), self.queue.now());
                                let step = self.span.max(1);
                                let count = a.allowed - a.nth;
                                let last = first.saturating_add(u64::from(count - 1).saturating_mul(step));
                                if last > MAX_TICK {
                                    return Err(past_last_tick("declaration"));
                                }
                                Plan::EndPasses { first, step }
                            }
                            PastEnd::Lose => Plan::Nothing,
                        }
                    }
                }
            }
            TimingSystem::TickSystem(c) => {
                if decl.kind == ActionKind::Prepare {
                    Plan::Prepare
                } else {
                    let ticks = tick_system::with_acquire(
                        decl.action_ticks.unwrap_or(c.action_ticks),
                        c.acquire_ticks,
                        matches!(decl.kind, ActionKind::RangedAttack { new_target: true }),
                    );
                    let done = tick_after(self.current_tick(), ticks.into(), "declaration.action_ticks")?;
                    let next = done + u64::from(a.timing.interval);
                    Plan::TickAction {
                        done,
                        turn: (self.countdown(next) >= 1).then_some(next),
                    }
                }
            }
            _ => Plan::Nothing,
        })
    }

    fn chain_base(&self, chain_round: u32) -> u64 {
        match &self.system {
            TimingSystem::GraduatedRounds(c) if c.past_end == PastEnd::Spill => {
                u64::from(chain_round.saturating_sub(1)) * u64::from(c.ticks_per_round)
            }
            _ => self.round_base,
        }
    }

    /// Applies a plan (its ticks checked when it was made).
    fn apply_plan(&mut self, who: u32, decl: Declaration, plan: Plan) -> Result<()> {
        self.apply_plan_in(who, decl, plan, None)
    }

    /// [`apply_plan`](Self::apply_plan); `place` (round, nth) is the chain
    /// place of the action a change of mind replaces, which the new action
    /// keeps.
    fn apply_plan_in(&mut self, who: u32, decl: Declaration, plan: Plan, place: Option<(u32, u32)>) -> Result<()> {
        let round = self.round;
        let (nth, chain_round, allowed) = {
            let a = &mut self.actors[who as usize];
            if a.decl.rate_of_fire != decl.rate_of_fire {
                a.rounds_of_use = 0;
            }
            a.decl = decl.repeated();
            a.awaiting = false;
            (a.nth, a.chain_round, a.allowed)
        };
        match plan {
            Plan::Nothing | Plan::Join { .. } => {}
            Plan::At(tick) => {
                let (round, nth) = place.unwrap_or((chain_round, nth.saturating_add(1)));
                self.push(tick, EvKind::action(who, round, nth))?;
            }
            Plan::EndPasses { first, step } => {
                let mut events = Vec::new();
                end_pass_events(who, round, nth, allowed, first, step, &mut events);
                for (tick, kind) in events {
                    self.push(tick, kind)?;
                }
            }
            Plan::Prepare => {
                let a = &mut self.actors[who as usize];
                a.prepared = true;
                a.free_defense_used = false;
            }
            Plan::TickAction { done, turn } => {
                let id = self.push(
                    done,
                    EvKind::Action {
                        who,
                        round,
                        nth: nth.saturating_add(1),
                        end_pass: 0,
                    },
                )?;
                let a = &mut self.actors[who as usize];
                a.in_progress = Some(id);
                a.in_progress_kind = Some(decl.kind);
                if matches!(decl.kind, ActionKind::Attack | ActionKind::RangedAttack { .. }) {
                    a.prepared = false;
                }
                if let Some(next) = turn {
                    self.push(next, EvKind::Turn { who, round })?;
                }
            }
        }
        Ok(())
    }

    /// Tick System: the countdown tick of absolute tick `t` this round.
    /// Saturating, though every tick involved is near `MAX_TICK` at most.
    #[inline]
    pub(super) fn countdown(&self, t: u64) -> i64 {
        let end = i64::try_from(self.span.saturating_add(self.round_base)).unwrap_or(i64::MAX);
        end.saturating_add(1)
            .saturating_sub(i64::try_from(t).unwrap_or(i64::MAX))
    }

    /// Declares the actor's next action, from now.
    ///
    /// - An actor that just landed (or whose Tick System turn just began)
    ///   declares its follow-up: Continuous and Graduated roll its Ready Time
    ///   (or take the GM's) from the current tick; the Tick System starts the
    ///   action, which lands when done, and books the next turn.
    /// - An actor with an action on the way **changes its mind** (Continuous,
    ///   Graduated): the pending action is cancelled and the new one lands
    ///   Ready Time after the current tick, plus any extra preparation;
    ///   never retroactive.
    /// - Otherwise the declaration is kept for the actor's next action
    ///   (the next round's initiative in Simple Rounds, the next turn in the
    ///   Tick System).
    ///
    /// Returns the absolute tick of the action it scheduled, if any.
    ///
    /// # Errors
    /// An unknown or removed actor, a declaration out of the
    /// [bounds](Self#bounds), a GM landing tick not after now, a roll the
    /// source cannot give, or an action that would land after [`MAX_TICK`].
    pub fn declare<R: RollSource + ?Sized>(
        &mut self,
        who: ActorId,
        declaration: Declaration,
        rolls: &mut R,
    ) -> Result<Option<u64>> {
        self.active(who)?;
        declaration.validate()?;
        let w = who.0;
        let awaiting = self.actors[who.index()].awaiting;
        let replan = !awaiting
            && matches!(
                self.system,
                TimingSystem::Continuous(_) | TimingSystem::GraduatedRounds(_)
            )
            && self.next_action_event(w).is_some_and(|_| {
                // End-of-round passes are fixed, like Simple Rounds.
                !self.actors[who.index()].pending.iter().any(|&id| {
                    matches!(
                        self.queue.get(id),
                        Some(Ev {
                            kind: EvKind::Action { end_pass: 1.., .. }
                        })
                    )
                })
            });
        if !awaiting && !replan {
            if self.actors[who.index()].presence == Presence::Joining {
                self.actors[who.index()].decl = declaration;
                return Ok(None);
            }
            let a = &mut self.actors[who.index()];
            if a.decl.rate_of_fire != declaration.rate_of_fire {
                a.rounds_of_use = 0;
            }
            a.decl = declaration;
            return Ok(None);
        }
        if replan {
            // Plan first (rolls), then cancel and apply: atomic on error.
            let plan = self.plan(w, &declaration, rolls)?;
            let replaced = self.next_action_event(w).map(|(_, id)| {
                let place = match self.queue.get(id).map(|e| e.kind) {
                    Some(EvKind::Action {
                        round,
                        nth,
                        end_pass: 0,
                        ..
                    }) => Some((round, nth)),
                    _ => None,
                };
                (id, place)
            });
            if let Some((id, _)) = replaced {
                self.drop_event(id);
            }
            // The new action takes the replaced one's place in its chain:
            // a Graduated action spilled from the last round stays that
            // round's (it ends its chain when it lands), however this
            // round's chain stands.
            self.apply_plan_in(w, declaration, plan, replaced.and_then(|(_, place)| place))?;
        } else {
            let plan = self.plan(w, &declaration, rolls)?;
            self.awaiting.retain(|&x| x != w);
            self.apply_plan(w, declaration, plan)?;
        }
        Ok(self.next_event_tick(w))
    }

    fn next_event_tick(&self, who: u32) -> Option<u64> {
        self.actors[who as usize]
            .pending
            .iter()
            .filter_map(|&id| self.queue.tick_of(id))
            .min()
    }

    /// Cancels the actor's next pending action (a spell lost, an action
    /// called off). Returns its absolute tick, or `None` if nothing was
    /// pending.
    ///
    /// Continuous and Graduated: the actor then declares a new action from
    /// the current tick (or does the same again at the next
    /// [`next`](Self::next)). Simple Rounds, Action Blocks, Simultaneous:
    /// that action is lost. Tick System: the action in progress (or the
    /// coming turn) is lost and the actor waits its interval from now.
    pub fn cancel(&mut self, who: ActorId) -> Result<Option<u64>> {
        self.active(who)?;
        let w = who.0;
        if let TimingSystem::TickSystem(_) = self.system {
            return self.tick_cancel(w);
        }
        let Some((tick, id)) = self.next_action_event(w) else {
            return Ok(None);
        };
        self.drop_event(id);
        if matches!(
            self.system,
            TimingSystem::Continuous(_) | TimingSystem::GraduatedRounds(_)
        ) {
            let a = &mut self.actors[who.index()];
            if !a.awaiting {
                a.awaiting = true;
                self.awaiting.push(w);
            }
        }
        Ok(Some(tick))
    }

    /// Cancels the actor's next action only if it is disruptible (a spell)
    /// — the actor was hit before it landed. Returns whether it did.
    pub fn disrupt(&mut self, who: ActorId) -> Result<bool> {
        self.active(who)?;
        if !self.actors[who.index()].decl.disruptible {
            return Ok(false);
        }
        Ok(self.cancel(who)?.is_some())
    }

    fn tick_cancel(&mut self, w: u32) -> Result<Option<u64>> {
        let interval = self.actors[w as usize].timing.interval;
        let cancelled = match self.actors[w as usize].in_progress {
            Some(id) => self.drop_event(id).map(|(t, _)| t),
            None => None,
        };
        if cancelled.is_none() {
            return Ok(None);
        }
        // The next turn: wait out the interval from now.
        if let Some((_, id)) = self.next_turn_event(w) {
            self.drop_event(id);
        }
        // Within the round, so at most `MAX_TICK` (rounds end by then).
        let next = self.current_tick() + u64::from(interval);
        if self.countdown(next) >= 1 && next > self.queue.now() {
            self.push(
                next,
                EvKind::Turn {
                    who: w,
                    round: self.round,
                },
            )?;
        }
        Ok(cancelled)
    }

    /// Tick System: the actor takes a free action now (defending, by
    /// default, for the system's free-action ticks). Defending during an
    /// action in progress cancels it (the actor then waits its interval);
    /// a free action that runs into the next turn pushes that turn to the
    /// tick the free action is done on. A prepared actor's first defense is
    /// free.
    ///
    /// # Errors
    /// An unknown or removed actor, another system, or more than
    /// [`MAX_DURATION`] ticks.
    pub fn free_action(&mut self, who: ActorId, ticks: Option<u32>, defending: bool) -> Result<FreeActionResult> {
        self.active(who)?;
        let TimingSystem::TickSystem(c) = self.system else {
            return Err(Error::invalid("free_action", "free actions are a Tick System rule"));
        };
        let w = who.0;
        let mut ticks = ticks.unwrap_or(c.free_action_ticks);
        check_range("free_action.ticks", ticks.into(), 0, MAX_DURATION.into())?;
        // Checked above; nothing below can fail.
        {
            let a = &mut self.actors[who.index()];
            if defending && a.prepared && !a.free_defense_used {
                a.free_defense_used = true;
                ticks = 0;
            }
        }
        let now = self.current_tick();
        let mut cancelled_action = false;
        if defending && ticks > 0 && self.actors[who.index()].in_progress.is_some() {
            self.tick_cancel(w)?;
            cancelled_action = true;
        }
        // A pushed turn stays within the round, so at most `MAX_TICK`.
        let done = now + u64::from(ticks);
        let mut pushed = false;
        if ticks > 0
            && let Some((t, id)) = self.next_turn_event(w)
            && t < done
        {
            self.drop_event(id);
            if self.countdown(done) >= 1 {
                self.push(
                    done,
                    EvKind::Turn {
                        who: w,
                        round: self.round,
                    },
                )?;
            }
            pushed = true;
        }
        Ok(FreeActionResult {
            ticks,
            cancelled_action,
            next_turn: self.next_turn_event(w).map(|(t, _)| self.countdown(t)),
            pushed,
        })
    }

    /// Tick System: something tries to stop the actor during its action.
    /// Only non-combat actions can be interrupted; unless the actor keeps
    /// its concentration (a Resist Concentration Loss roll the caller
    /// makes), the action fails, its ticks are lost and the actor waits its
    /// interval. Returns whether an action was lost.
    pub fn interrupt(&mut self, who: ActorId, concentration_kept: bool) -> Result<bool> {
        self.active(who)?;
        if !matches!(self.system, TimingSystem::TickSystem(_)) {
            return Err(Error::invalid("interrupt", "interrupts are a Tick System rule"));
        }
        let a = &self.actors[who.index()];
        if a.in_progress.is_none() || a.in_progress_kind != Some(ActionKind::NonCombat) || concentration_kept {
            return Ok(false);
        }
        Ok(self.tick_cancel(who.0)?.is_some())
    }

    /// Tick System: a prepared actor takes its held turn now ("you may take
    /// your Turn at your leisure"); it then declares as at any turn. Returns
    /// the act to add to the current moment.
    pub fn take_held_turn(&mut self, who: ActorId) -> Result<Act> {
        self.active(who)?;
        let a = &self.actors[who.index()];
        if !a.prepared || a.awaiting || a.in_progress.is_some() {
            return Err(Error::invalid(
                "actor",
                format!("actor {who} is not holding a prepared turn"),
            ));
        }
        if let Some((_, id)) = self.next_turn_event(who.0) {
            self.drop_event(id);
        }
        self.actors[who.index()].awaiting = true;
        self.awaiting.push(who.0);
        Ok(Act::Turn { actor: who })
    }

    /// Tick System: the actor's attack turns out to be a ranged attack on
    /// a new target, found only once it is resolved (the tracker learns the
    /// target at the shot): **Acquire** adds the system's `acquire_ticks`
    /// to it ([`tick_system::with_acquire`]), so the actor's timeline moves
    /// that many ticks later: its action in progress, if any, and its next
    /// turn (a next turn whose countdown would fall below 1 is lost, as
    /// when it is booked). An actor whose turn is now and whose shot
    /// `landed_now` (awaiting its declaration: the shot landed on the tick
    /// its next turn came, an Interval of 0) has that turn moved from now;
    /// a turn that only began now (a blow struck at it, no action landed)
    /// is the shot's own and is not moved: nothing is added (0 returned).
    /// An action in progress declared as
    /// [`ActionKind::RangedAttack`] with `new_target` has paid it already
    /// and pays nothing here. Returns the ticks added.
    ///
    /// # Errors
    /// An unknown or removed actor, or another system.
    pub fn acquire(&mut self, who: ActorId, landed_now: bool) -> Result<u32> {
        self.active(who)?;
        let TimingSystem::TickSystem(c) = self.system else {
            return Err(Error::invalid("acquire", "Acquire is a Tick System rule"));
        };
        let w = who.0;
        if self.actors[who.index()].in_progress_kind == Some(ActionKind::RangedAttack { new_target: true }) {
            return Ok(0);
        }
        let extra = tick_system::with_acquire(0, c.acquire_ticks, true);
        if extra == 0 {
            return Ok(0);
        }
        // Every new tick first (an action ends by `MAX_TICK`; refused past
        // it), then the moves: on an error nothing has changed.
        let action = match self.actors[who.index()].in_progress {
            Some(id) => {
                let tick = self.queue.tick_of(id).unwrap_or(0);
                Some((id, tick_after(tick, extra.into(), "acquire_ticks")?))
            }
            None => None,
        };
        let turn = self
            .next_turn_event(w)
            .map(|(tick, id)| (id, tick.saturating_add(u64::from(extra))));
        // Its turn is now: it comes `extra` ticks from now instead.
        let now_turn = if turn.is_none() && self.actors[who.index()].awaiting && landed_now {
            Some(tick_after(self.current_tick(), extra.into(), "acquire_ticks")?)
        } else {
            None
        };
        if action.is_none() && turn.is_none() && now_turn.is_none() {
            return Ok(0);
        }
        if let Some((id, at)) = action {
            let kind = self.actors[who.index()].in_progress_kind;
            if let Some((_, ev)) = self.drop_event(id) {
                let new_id = self.push(at, ev.kind)?;
                let a = &mut self.actors[who.index()];
                a.in_progress = Some(new_id);
                a.in_progress_kind = kind;
            }
        }
        if let Some(at) = now_turn {
            self.actors[who.index()].awaiting = false;
            self.awaiting.retain(|&x| x != w);
            if self.countdown(at) >= 1 {
                self.push(
                    at,
                    EvKind::Turn {
                        who: w,
                        round: self.round,
                    },
                )?;
            }
        }
        if let Some((id, at)) = turn {
            self.drop_event(id);
            // A turn whose countdown falls below 1 is lost, as when booked.
            if self.countdown(at) >= 1 {
                self.push(
                    at,
                    EvKind::Turn {
                        who: w,
                        round: self.round,
                    },
                )?;
            }
        }
        Ok(extra)
    }

    /// Moves the actor's next pending action (or Tick System turn) `ticks`
    /// later: the GM's ruling that something holds it up. In Simple Rounds
    /// the action stays in its pass (it may move up to the round's highest
    /// initiative); Simultaneous and Action Blocks have no ticks to delay
    /// by (Action Blocks hold instead). Returns the new absolute tick.
    ///
    /// # Errors
    /// An unknown or removed actor, nothing pending, `ticks` outside
    /// `1..=`[`MAX_DURATION`], past the pass (Simple Rounds) or past
    /// [`MAX_TICK`].
    pub fn delay(&mut self, who: ActorId, ticks: u32) -> Result<u64> {
        self.active(who)?;
        check_range("delay.ticks", ticks.into(), 1, MAX_DURATION.into())?;
        if matches!(self.system, TimingSystem::Simultaneous | TimingSystem::ActionBlocks(_)) {
            return Err(Error::invalid(
                "delay",
                format!("{} has no ticks to delay by", self.system.name()),
            ));
        }
        let next = self
            .next_action_event(who.0)
            .into_iter()
            .chain(self.next_turn_event(who.0))
            .min_by_key(|&(t, _)| t);
        let Some((tick, id)) = next else {
            return Err(Error::invalid(
                "actor",
                format!("actor {who} has nothing pending to delay"),
            ));
        };
        let new_tick = tick_after(tick, ticks.into(), "delay.ticks")?;
        if self.system == TimingSystem::SimpleRounds {
            let span = self.span.max(1);
            let into_round = tick.saturating_sub(self.round_base).saturating_sub(1);
            let pass_end = self
                .round_base
                .saturating_add(into_round / span * span)
                .saturating_add(span);
            if new_tick > pass_end {
                return Err(Error::out_of_range(
                    "delay.ticks",
                    ticks,
                    1,
                    pass_end.saturating_sub(tick),
                ));
            }
        }
        let in_progress = self.actors[who.index()].in_progress == Some(id);
        let kind = self.actors[who.index()].in_progress_kind;
        let Some((_, ev)) = self.drop_event(id) else {
            return Err(Error::invalid(
                "actor",
                format!("actor {who} has nothing pending to delay"),
            ));
        };
        let new_id = self.push(new_tick, ev.kind)?;
        if in_progress {
            self.actors[who.index()].in_progress = Some(new_id);
            self.actors[who.index()].in_progress_kind = kind;
        }
        Ok(new_tick)
    }
}
