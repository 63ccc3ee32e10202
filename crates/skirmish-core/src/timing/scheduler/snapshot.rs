//! Converting a scheduler to and from the documented plain data of
//! `timing/snapshot.rs`, checking everything a restored snapshot claims.

use super::*;

impl Scheduler {
    // -----------------------------------------------------------------
    // Snapshots

    /// The scheduler as documented plain data (see [`SchedulerSnapshot`]),
    /// which [`from_snapshot`](Self::from_snapshot) restores exactly.
    pub fn snapshot(&self) -> SchedulerSnapshot {
        let pending = self.queue.pending_in_order();
        let mut order: Vec<u64> = pending.iter().map(|p| p.1).collect();
        order.sort_unstable();
        let events = pending
            .iter()
            .map(|&(tick, seq, id, ev)| EventSnapshot {
                tick,
                id,
                scheduled: order.binary_search(&seq).unwrap_or_else(|i| i) as u64,
                event: match ev.kind {
                    EvKind::Action {
                        who,
                        round,
                        nth,
                        end_pass,
                    } => EventKind::Action {
                        actor: ActorId(who),
                        round,
                        nth,
                        end_pass,
                    },
                    EvKind::Turn { who, round } => EventKind::Turn {
                        actor: ActorId(who),
                        round,
                    },
                    EvKind::Timer { id } => EventKind::Timer { id },
                },
            })
            .collect();
        SchedulerSnapshot {
            version: SCHEDULER_SNAPSHOT_VERSION,
            system: self.system.clone(),
            round: self.round,
            round_base: self.round_base,
            now: self.queue.now(),
            span: self.span,
            moments_in_round: self.moments_in_round,
            last: self.last,
            actors: self
                .actors
                .iter()
                .map(|a| ActorSnapshot {
                    timing: a.timing,
                    declaration: a.decl,
                    presence: match a.presence {
                        Presence::Joining => ActorPresence::Joining,
                        Presence::Active => ActorPresence::Active,
                        Presence::Out => ActorPresence::Out,
                    },
                    awaiting: a.awaiting,
                    nth: a.nth,
                    allowed: a.allowed,
                    chain_round: a.chain_round,
                    rounds_of_use: a.rounds_of_use,
                    initiative: a.initiative,
                    entry: a.entry,
                    prepared: a.prepared,
                    free_defense_used: a.free_defense_used,
                    in_progress: a.in_progress.map(|event| InProgress {
                        event,
                        kind: a.in_progress_kind.unwrap_or_default(),
                    }),
                })
                .collect(),
            awaiting: self.awaiting.iter().map(|&w| ActorId(w)).collect(),
            joining: self.joining.iter().map(|&w| ActorId(w)).collect(),
            events,
            free_handles: self.queue.free_handles(),
        }
    }

    /// The scheduler a [`SchedulerSnapshot`] describes, after checking
    /// every field; it continues exactly as the one the snapshot was taken
    /// of (same moments, same order within a tick, same results for the
    /// same rolls, same event handles).
    ///
    /// # Errors
    /// An [`Error`] naming the field (`actors[2].entry`, `events[5].tick`,
    /// `awaiting[0]`, ...) for an unknown version, bad options, a value out
    /// of range, an unknown or repeated actor id, an event at or before
    /// `now` or out of order, handles that do not name every slot once,
    /// or lists and flags that disagree.
    pub fn from_snapshot(snapshot: SchedulerSnapshot) -> Result<Scheduler> {
        let SchedulerSnapshot {
            version,
            system,
            round,
            round_base,
            now,
            span,
            moments_in_round,
            last,
            actors,
            awaiting,
            joining,
            events,
            free_handles,
        } = snapshot;
        if version != SCHEDULER_SNAPSHOT_VERSION {
            return Err(Error::out_of_range(
                "version",
                version,
                SCHEDULER_SNAPSHOT_VERSION,
                SCHEDULER_SNAPSHOT_VERSION,
            ));
        }
        system.validate().map_err(|e| e.in_field("system"))?;
        for (field, value) in [("round_base", round_base), ("now", now), ("span", span)] {
            if value > MAX_TICK {
                return Err(Error::out_of_range(field, value, 0, MAX_TICK));
            }
        }
        match last {
            Some(m) if m.tick != now => {
                return Err(Error::invalid("last.tick", format!("{} is not now ({now})", m.tick)));
            }
            None if now != 0 => {
                return Err(Error::invalid(
                    "last",
                    format!("missing, though moments were handed out until tick {now}"),
                ));
            }
            _ => {}
        }
        if actors.len() > MAX_ACTORS {
            return Err(Error::out_of_range("actors", actors.len() as u64, 0, MAX_ACTORS as u64));
        }
        let continuous = matches!(system, TimingSystem::Continuous(_));
        let tick_system = matches!(system, TimingSystem::TickSystem(_));
        // A Tick System round ends by MAX_TICK, so turns booked within it do.
        if tick_system && round_base + span > MAX_TICK {
            return Err(Error::out_of_range("span", span, 0, MAX_TICK - round_base));
        }
        let graduated_end_passes = matches!(
            system,
            TimingSystem::GraduatedRounds(GraduatedConfig {
                past_end: PastEnd::EndOfRound,
                ..
            })
        );
        let mut s = Scheduler::new(system);
        s.round = round;
        s.round_base = round_base;
        s.span = span;
        s.moments_in_round = moments_in_round;
        s.last = last;
        for (i, a) in actors.iter().enumerate() {
            let here = |e: Error| e.in_field(&format!("actors[{i}]"));
            a.timing.validate().map_err(here)?;
            a.declaration.validate().map_err(here)?;
            check_range("allowed", a.allowed.into(), 0, MAX_ACTIONS.into()).map_err(here)?;
            check_range("initiative", a.initiative, -(MAX_TICK as i64), MAX_TICK as i64).map_err(here)?;
            if a.chain_round > round {
                return Err(here(Error::out_of_range("chain_round", a.chain_round, 0, round)));
            }
            if let Some(entry) = a.entry {
                s.initiative_value(&a.timing, &a.declaration, entry)
                    .map_err(|e| here(e.in_field("entry")))?;
            }
            if a.presence == ActorPresence::Joining && !(continuous && round > 0) {
                return Err(here(Error::invalid(
                    "presence",
                    "only Continuous actors join, after the first initiative",
                )));
            }
            if a.presence == ActorPresence::Out && a.awaiting {
                return Err(here(Error::invalid(
                    "awaiting",
                    "an actor out of the fight awaits nothing",
                )));
            }
            if a.in_progress.is_some() && !tick_system {
                return Err(here(Error::invalid(
                    "in_progress",
                    "only the Tick System has actions in progress",
                )));
            }
            s.actors.push(ActorState {
                timing: a.timing,
                decl: a.declaration,
                presence: match a.presence {
                    ActorPresence::Joining => Presence::Joining,
                    ActorPresence::Active => Presence::Active,
                    ActorPresence::Out => Presence::Out,
                },
                pending: Vec::new(),
                awaiting: a.awaiting,
                nth: a.nth,
                allowed: a.allowed,
                chain_round: a.chain_round,
                rounds_of_use: a.rounds_of_use,
                initiative: a.initiative,
                entry: a.entry,
                prepared: a.prepared,
                free_defense_used: a.free_defense_used,
                in_progress: None,
                in_progress_kind: None,
            });
        }
        // Each list names existing actors once, exactly those flagged.
        let mut listed = vec![false; s.actors.len()];
        for (k, w) in awaiting.iter().enumerate() {
            match (s.actors.get(w.index()), listed.get_mut(w.index())) {
                (Some(a), Some(seen)) if a.awaiting && !*seen => *seen = true,
                _ => {
                    return Err(Error::invalid(
                        format!("awaiting[{k}]"),
                        format!("actor {w} is unknown, listed twice or not awaiting"),
                    ));
                }
            }
        }
        if s.actors.iter().filter(|a| a.awaiting).count() != awaiting.len() {
            return Err(Error::invalid("awaiting", "an awaiting actor is not listed"));
        }
        let mut listed = vec![false; s.actors.len()];
        for (k, w) in joining.iter().enumerate() {
            match (s.actors.get(w.index()), listed.get_mut(w.index())) {
                (Some(a), Some(seen)) if a.presence == Presence::Joining && !*seen => *seen = true,
                _ => {
                    return Err(Error::invalid(
                        format!("joining[{k}]"),
                        format!("actor {w} is unknown, listed twice or not joining"),
                    ));
                }
            }
        }
        if s.actors.iter().filter(|a| a.presence == Presence::Joining).count() != joining.len() {
            return Err(Error::invalid("joining", "a joining actor is not listed"));
        }
        s.awaiting = awaiting.iter().map(|w| w.0).collect();
        s.joining = joining.iter().map(|w| w.0).collect();
        // The events, in firing order; each actor's in scheduling order.
        let mut parts = Vec::with_capacity(events.len());
        let mut owned: Vec<(u64, u32, EventId)> = Vec::new();
        let mut previous: Option<(u64, u64)> = None;
        for (k, e) in events.iter().enumerate() {
            let here = |e: Error| e.in_field(&format!("events[{k}]"));
            if e.tick > MAX_TICK {
                return Err(here(Error::out_of_range(
                    "tick",
                    e.tick,
                    now.saturating_add(1),
                    MAX_TICK,
                )));
            }
            if previous.is_some_and(|(t, q)| e.tick < t || (e.tick == t && e.scheduled <= q)) {
                return Err(here(Error::invalid(
                    "tick",
                    "out of order: events go by tick, then in scheduling order",
                )));
            }
            previous = Some((e.tick, e.scheduled));
            let actor_ok = |who: ActorId, r: u32| -> Result<u32> {
                match s.actors.get(who.index()) {
                    Some(a) if a.presence == Presence::Active => {}
                    _ => {
                        return Err(Error::invalid(
                            "event.actor",
                            format!("actor {who} is unknown or not in the fight"),
                        ));
                    }
                }
                if round == 0 || r > round {
                    return Err(Error::out_of_range("event.round", r, 1, round));
                }
                Ok(who.0)
            };
            let kind = match e.event {
                EventKind::Action {
                    actor,
                    round: r,
                    nth,
                    end_pass,
                } => {
                    let who = actor_ok(actor, r).map_err(here)?;
                    if nth == 0 {
                        return Err(here(Error::out_of_range("event.nth", 0, 1, u32::MAX)));
                    }
                    if end_pass > 0 && !graduated_end_passes {
                        return Err(here(Error::invalid(
                            "event.end_pass",
                            "end passes are a Graduated \"end of round\" rule",
                        )));
                    }
                    owned.push((e.scheduled, who, e.id));
                    EvKind::Action {
                        who,
                        round: r,
                        nth,
                        end_pass,
                    }
                }
                EventKind::Turn { actor, round: r } => {
                    if !tick_system {
                        return Err(here(Error::invalid("event.kind", "turns are a Tick System rule")));
                    }
                    let who = actor_ok(actor, r).map_err(here)?;
                    owned.push((e.scheduled, who, e.id));
                    EvKind::Turn { who, round: r }
                }
                EventKind::Timer { id } => EvKind::Timer { id },
            };
            parts.push((e.tick, e.scheduled, e.id, Ev { kind }));
        }
        s.queue = EventQueue::from_parts(now, parts, &free_handles)?;
        owned.sort_unstable_by_key(|&(scheduled, ..)| scheduled);
        s.actor_events = owned.len();
        for &(_, who, id) in &owned {
            s.actors[who as usize].pending.push(id);
        }
        for (i, a) in actors.iter().enumerate() {
            if let Some(p) = a.in_progress {
                let ok = matches!(
                    s.queue.get(p.event),
                    Some(Ev { kind: EvKind::Action { who, .. } }) if *who as usize == i
                );
                if !ok {
                    return Err(Error::invalid(
                        format!("actors[{i}].in_progress.event"),
                        "is not a pending action of this actor",
                    ));
                }
                s.actors[i].in_progress = Some(p.event);
                s.actors[i].in_progress_kind = Some(p.kind);
            }
        }
        s.check_lists()?;
        Ok(s)
    }
}
