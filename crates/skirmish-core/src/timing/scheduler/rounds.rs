//! Rounds: laying out a round (or phase, or Graduated end-of-round
//! passes) from everyone's initiative, and the plans a declaration turns
//! into before anything is changed.

use super::*;

impl Scheduler {
    // -----------------------------------------------------------------
    // Rounds

    /// Whether the current round is over (or none has begun) once the
    /// follow-ups in `plans` are applied; they leave nobody awaiting.
    pub(super) fn round_over_after(&self, plans: &[(u32, Declaration, Plan, i64)]) -> bool {
        if self.round == 0 {
            return true;
        }
        if let TimingSystem::Continuous(_) = self.system {
            return false;
        }
        let new_events: usize = plans.iter().map(|(_, _, p, _)| p.events()).sum();
        match &self.system {
            TimingSystem::Continuous(_) => false,
            TimingSystem::GraduatedRounds(c) if c.past_end == PastEnd::Spill => {
                let end = self.round_base + u64::from(c.ticks_per_round);
                let first = plans
                    .iter()
                    .filter_map(|(_, _, p, _)| p.first_tick())
                    .chain(self.queue.peek_tick())
                    .min();
                self.actor_events + new_events == 0 || first.is_some_and(|t| t > end)
            }
            _ => self.actor_events + new_events == 0,
        }
    }

    /// Nominal length of the current round in ticks.
    fn round_length(&self) -> u64 {
        match &self.system {
            TimingSystem::Simultaneous => 1,
            TimingSystem::GraduatedRounds(c) => u64::from(c.ticks_per_round),
            _ => self.span,
        }
    }

    /// Rolls the next round's initiative for everyone (entries first) and
    /// lays it out, changing nothing: [`commit_round`](Self::commit_round)
    /// begins it. Actors still awaiting a follow-up roll with the
    /// declaration they will repeat.
    pub(super) fn prepare_round<R: RollSource + ?Sized>(&self, rolls: &mut R) -> Result<RoundStart> {
        let round = self
            .round
            .checked_add(1)
            .ok_or_else(|| Error::overflow("round", "more than u32::MAX rounds"))?;
        let mut values = Vec::with_capacity(self.actors.len());
        for (i, a) in self.actors.iter().enumerate() {
            if a.presence != Presence::Active {
                continue;
            }
            let decl = if a.awaiting { a.decl.repeated() } else { a.decl };
            let init = self.roll_initiative(i as u32, &decl, rolls)?;
            let allowed = match &self.system {
                TimingSystem::SimpleRounds | TimingSystem::GraduatedRounds(_) => {
                    actions_in_round(&a.decl, a.rounds_of_use.saturating_add(1))
                }
                TimingSystem::ActionBlocks(_) => init.clamp(0, MAX_ACTIONS.into()) as u32,
                _ => 1,
            };
            values.push((i as u32, init, allowed));
        }
        let base = match &self.system {
            TimingSystem::GraduatedRounds(c) if c.past_end == PastEnd::Spill => {
                if self.round == 0 {
                    0
                } else {
                    self.round_base.saturating_add(u64::from(c.ticks_per_round))
                }
            }
            _ if self.round == 0 => 0,
            _ => self
                .queue
                .now()
                .max(self.round_base.saturating_add(self.round_length())),
        };
        if base > MAX_TICK {
            return Err(past_last_tick("round"));
        }
        let layout = self.layout(round, base, &values)?;
        Ok(RoundStart {
            round,
            base,
            values,
            layout,
        })
    }

    /// Begins a prepared round.
    pub(super) fn commit_round(&mut self, start: RoundStart) -> Result<()> {
        self.round = start.round;
        self.round_base = start.base;
        self.moments_in_round = 0;
        for (i, init, allowed) in start.values {
            let a = &mut self.actors[i as usize];
            a.initiative = init;
            a.entry = None;
            a.rounds_of_use = a.rounds_of_use.saturating_add(1);
            a.nth = 0;
            a.chain_round = start.round;
            a.allowed = allowed;
        }
        self.apply_layout(start.layout)
    }

    /// The events of round `round`, starting after tick `base`, from
    /// `acting`: `(actor, initiative, actions allowed)` of every active
    /// actor in the order they were added. Checked (every tick after now
    /// and at most [`MAX_TICK`]); changes nothing.
    pub(super) fn layout(&self, round: u32, base: u64, acting: &[(u32, i64, u32)]) -> Result<Layout> {
        let mut events = Vec::with_capacity(acting.len());
        let mut span = self.span;
        // Initiative as a tick offset: at least 1 (Relativity scores are).
        let offset = |init: i64| init.max(1).unsigned_abs();
        match &self.system {
            TimingSystem::Simultaneous => {
                for &(w, ..) in acting {
                    events.push((base.saturating_add(1), EvKind::action(w, round, 1)));
                }
            }
            TimingSystem::SimpleRounds => {
                let with_actions = || acting.iter().filter(|&&(_, _, allowed)| allowed > 0);
                span = with_actions().map(|&(_, init, _)| offset(init)).max().unwrap_or(1);
                let passes = with_actions().map(|&(_, _, allowed)| allowed).max().unwrap_or(0);
                for p in 1..=passes {
                    for &(w, init, allowed) in with_actions() {
                        if allowed >= p {
                            let tick = base
                                .saturating_add(u64::from(p - 1).saturating_mul(span))
                                .saturating_add(offset(init));
                            events.push((tick, EvKind::action(w, round, p)));
                        }
                    }
                }
            }
            TimingSystem::GraduatedRounds(c) => {
                let with_actions = || acting.iter().filter(|&&(_, _, allowed)| allowed > 0);
                span = with_actions().map(|&(_, init, _)| offset(init)).max().unwrap_or(1);
                let tpr = u64::from(c.ticks_per_round);
                for &(w, init, allowed) in with_actions() {
                    let init = offset(init);
                    if init <= tpr || matches!(c.past_end, PastEnd::Extend | PastEnd::Spill) {
                        events.push((base.saturating_add(init), EvKind::action(w, round, 1)));
                    } else if c.past_end == PastEnd::EndOfRound {
                        let first = first_end_pass(base.saturating_add(tpr), init, self.queue.now());
                        end_pass_events(w, round, 0, allowed, first, span, &mut events);
                    }
                }
            }
            TimingSystem::Continuous(_) => {
                for &(w, init, _) in acting {
                    events.push((base.saturating_add(offset(init)), EvKind::action(w, round, 1)));
                }
            }
            TimingSystem::TickSystem(_) => {
                let h = acting.iter().map(|&(_, init, _)| init).max().unwrap_or(1).max(1);
                span = h.unsigned_abs();
                if base.saturating_add(span) > MAX_TICK {
                    return Err(past_last_tick("round"));
                }
                for &(w, init, _) in acting {
                    let d = init.clamp(1, h);
                    events.push((base + (h - d).unsigned_abs() + 1, EvKind::Turn { who: w, round }));
                }
            }
            TimingSystem::ActionBlocks(_) => {
                let n = acting.iter().map(|&(_, _, allowed)| allowed).max().unwrap_or(0);
                span = u64::from(n);
                let mut by_ref = acting.to_vec();
                by_ref.sort_by_key(|&(w, ..)| std::cmp::Reverse(self.actors[w as usize].timing.reflexes));
                for block in (1..=n).rev() {
                    for &(w, _, allowed) in &by_ref {
                        if allowed >= block {
                            let tick = base.saturating_add(u64::from(n - block) + 1);
                            events.push((tick, EvKind::action(w, round, allowed - block + 1)));
                        }
                    }
                }
            }
        }
        let now = self.queue.now();
        if events.iter().any(|&(t, _)| t > MAX_TICK) {
            return Err(past_last_tick("round"));
        }
        if events.iter().any(|&(t, _)| t <= now) {
            return Err(Error::invalid(
                "round",
                format!("it would begin at or before the current tick {now}"),
            ));
        }
        Ok(Layout { span, events })
    }

    /// Replaces whatever of the current round was scheduled by `layout`.
    pub(super) fn apply_layout(&mut self, layout: Layout) -> Result<()> {
        // Drop the round's actor events (nothing of it has happened yet);
        // actions spilled from the previous round stay.
        let round = self.round;
        let ids: Vec<EventId> = self
            .actors
            .iter()
            .flat_map(|a| a.pending.iter().copied())
            .filter(|&id| {
                matches!(self.queue.get(id), Some(Ev { kind: EvKind::Action { round: r, .. } | EvKind::Turn { round: r, .. } }) if *r == round)
            })
            .collect();
        for id in ids {
            self.drop_event(id);
        }
        self.span = layout.span;
        for (tick, kind) in layout.events {
            // An actor whose first action was cancelled (it awaits a new
            // declaration) keeps it cancelled when the round is laid out
            // again for a corrected initiative.
            let who = match kind {
                EvKind::Action { who, .. } | EvKind::Turn { who, .. } => Some(who),
                EvKind::Timer { .. } => None,
            };
            if who.is_some_and(|w| self.actors[w as usize].awaiting) {
                continue;
            }
            self.push(tick, kind)?;
        }
        Ok(())
    }
}

/// What a declaration does to an awaiting actor, its ticks worked out and
/// checked, so applying it cannot fail.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Plan {
    /// A late joiner's first action (Continuous), at this tick.
    Join {
        tick: u64,
    },
    Nothing,
    At(u64),
    /// Graduated "end of round": the rest of the actor's actions, one per
    /// end pass: the first at `first`, then every `step` ticks.
    EndPasses {
        first: u64,
        step: u64,
    },
    Prepare,
    /// Tick System: the action is done at `done`; the next turn, if this
    /// round has it.
    TickAction {
        done: u64,
        turn: Option<u64>,
    },
}

impl Plan {
    /// How many actor events applying it schedules (for end passes: at
    /// least one; the exact count only matters as zero or not).
    fn events(&self) -> usize {
        match self {
            Plan::Join { .. } | Plan::At(_) | Plan::EndPasses { .. } => 1,
            Plan::TickAction { turn, .. } => 1 + usize::from(turn.is_some()),
            Plan::Nothing | Plan::Prepare => 0,
        }
    }

    /// The earliest tick it schedules.
    fn first_tick(&self) -> Option<u64> {
        match *self {
            Plan::Join { tick } | Plan::At(tick) => Some(tick),
            Plan::EndPasses { first, .. } => Some(first),
            Plan::TickAction { done, .. } => Some(done),
            Plan::Nothing | Plan::Prepare => None,
        }
    }
}

/// A round rolled and laid out, not yet begun.
pub(super) struct RoundStart {
    round: u32,
    base: u64,
    /// `(actor, initiative, actions allowed)` of every active actor.
    values: Vec<(u32, i64, u32)>,
    layout: Layout,
}

/// The scheduled part of a round: its span and its events in scheduling
/// order.
pub(super) struct Layout {
    span: u64,
    events: Vec<(u64, EvKind)>,
}

/// Graduated "end of round": the first end-pass tick of an actor with
/// initiative offset `init` after the round's last tick `end`; if the end
/// passes are already under way (a delay took the actor past the end),
/// counted from `now` instead, so nothing lands in the past.
pub(super) fn first_end_pass(end: u64, init: u64, now: u64) -> u64 {
    let first = end.saturating_add(init);
    if first > now { first } else { now.saturating_add(init) }
}

/// End-pass actions `done + 1..=allowed` of `who` in `round`, the first at
/// `first`, then every `step` ticks (saturating: callers check the last).
pub(super) fn end_pass_events(
    who: u32,
    round: u32,
    done: u32,
    allowed: u32,
    first: u64,
    step: u64,
    out: &mut Vec<(u64, EvKind)>,
) {
    for (k, nth) in (done.saturating_add(1)..=allowed).enumerate() {
        let tick = first.saturating_add((k as u64).saturating_mul(step));
        out.push((
            tick,
            EvKind::Action {
                who,
                round,
                nth,
                end_pass: k as u32 + 1,
            },
        ));
    }
}
