//! Actors: adding one (before the first initiative, or joining later),
//! taking actors out one by one or all the fallen of a moment at once, and
//! what the scheduler answers about one actor (its declaration, traits,
//! initiative, whether it awaits a declaration or is prepared). Its own
//! file because who is in the fight is a concern of its own, apart from
//! when they act.

use super::*;

impl Scheduler {
    // -----------------------------------------------------------------
    // Actors

    fn actor(&self, who: ActorId) -> Result<&ActorState> {
        self.actors
            .get(who.index())
            .ok_or_else(|| Error::invalid("actor", format!("no actor {who} (there are {})", self.actors.len())))
    }

    pub(super) fn active(&self, who: ActorId) -> Result<&ActorState> {
        let a = self.actor(who)?;
        if a.presence == Presence::Out {
            return Err(Error::invalid("actor", format!("actor {who} is out of the fight")));
        }
        Ok(a)
    }

    /// Whether the actor is still in the fight (not removed).
    pub fn is_in(&self, who: ActorId) -> bool {
        self.actors
            .get(who.index())
            .is_some_and(|a| a.presence != Presence::Out)
    }

    /// The actor's current declaration.
    pub fn declaration(&self, who: ActorId) -> Result<Declaration> {
        Ok(self.actor(who)?.decl)
    }

    /// The actor's timing traits.
    pub fn actor_timing(&self, who: ActorId) -> Result<ActorTiming> {
        Ok(self.actor(who)?.timing)
    }

    /// The actor's initiative this round (score, total or action count).
    pub fn initiative(&self, who: ActorId) -> Result<i64> {
        Ok(self.actor(who)?.initiative)
    }

    /// Whether the actor has landed an action (or begun a Tick System turn)
    /// and has not yet declared what follows.
    pub fn is_awaiting(&self, who: ActorId) -> bool {
        self.actors.get(who.index()).is_some_and(|a| a.awaiting)
    }

    /// Tick System: the countdown tick of the actor's next turn, if one is
    /// booked this round (none while its turn is now, or under another
    /// system).
    pub fn next_turn(&self, who: ActorId) -> Option<i64> {
        if !matches!(self.system, TimingSystem::TickSystem(_)) || !self.is_in(who) {
            return None;
        }
        self.next_turn_event(who.0).map(|(t, _)| self.countdown(t))
    }

    /// Tick System: whether the actor is prepared.
    pub fn is_prepared(&self, who: ActorId) -> bool {
        self.actors.get(who.index()).is_some_and(|a| a.prepared)
    }

    /// Tick System: the bonus to the actor's defensive rolls (+4 while
    /// prepared); 0 in other systems.
    pub fn defense_bonus(&self, who: ActorId) -> i32 {
        match (&self.system, self.is_prepared(who)) {
            (TimingSystem::TickSystem(c), true) => c.prepare_defense_bonus,
            _ => 0,
        }
    }

    /// Adds an actor with its timing traits and first declaration.
    ///
    /// Before the first initiative it simply takes part. Later it joins at
    /// the next chance its system gives: the next round (phase, exchange),
    /// or in Continuous timing at the current tick + its initiative, rolled
    /// at the next [`next`](Self::next) unless entered with
    /// [`set_initiative`](Self::set_initiative).
    ///
    /// # Errors
    /// Bad system options, traits or declaration out of the [bounds](Self#bounds),
    /// or more than [`MAX_ACTORS`] actors.
    pub fn add(&mut self, timing: ActorTiming, declaration: Declaration) -> Result<ActorId> {
        // `new` does not check the options; nothing runs under bad ones.
        self.system.validate()?;
        timing.validate()?;
        declaration.validate()?;
        if self.actors.len() >= MAX_ACTORS {
            return Err(Error::out_of_range(
                "actors",
                self.actors.len() as i64 + 1,
                1,
                MAX_ACTORS as i64,
            ));
        }
        let joining = self.round > 0 && matches!(self.system, TimingSystem::Continuous(_));
        if joining {
            self.joining.push(self.actors.len() as u32);
        }
        self.actors.push(ActorState {
            timing,
            decl: declaration,
            presence: if joining { Presence::Joining } else { Presence::Active },
            pending: Vec::new(),
            awaiting: false,
            nth: 0,
            allowed: 0,
            chain_round: 0,
            rounds_of_use: 0,
            initiative: 0,
            entry: None,
            prepared: false,
            free_defense_used: false,
            in_progress: None,
            in_progress_kind: None,
        });
        Ok(ActorId((self.actors.len() - 1) as u32))
    }

    /// Takes the actor out of the fight (down, fled, removed): its pending
    /// actions are cancelled and it never acts again. Removing an actor
    /// that is already out is an error.
    pub fn remove(&mut self, who: ActorId) -> Result<()> {
        self.active(who)?;
        self.take_out(who);
        self.awaiting.retain(|&w| w != who.0);
        self.joining.retain(|&w| w != who.0);
        Ok(())
    }

    /// Takes every listed actor that is still in the fight out of it, as
    /// [`remove`](Self::remove) does one by one (unknown actors and those
    /// already out are skipped), and returns how many it took out.
    ///
    /// One call for all the fallen of a moment: the awaiting and joining
    /// lists are filtered once, not once per actor. A moment where many
    /// act and many fall (a Tick System round of 2x10,000 hands a
    /// thousand turns to one tick) would otherwise cost the product of
    /// the two.
    pub fn remove_each(&mut self, who: impl IntoIterator<Item = ActorId>) -> usize {
        let mut out = 0;
        for w in who {
            if self.is_in(w) {
                self.take_out(w);
                out += 1;
            }
        }
        if out > 0 {
            // Every listed actor is awaiting (joining) but those just taken out.
            let actors = &self.actors;
            self.awaiting.retain(|&w| actors[w as usize].awaiting);
            self.joining
                .retain(|&w| actors[w as usize].presence == Presence::Joining);
        }
        out
    }

    /// The actor's part of a removal: its pending events dropped, its
    /// flags cleared (the awaiting and joining lists are the caller's).
    fn take_out(&mut self, who: ActorId) {
        let pending = std::mem::take(&mut self.actors[who.index()].pending);
        for id in pending {
            self.drop_event(id);
        }
        let a = &mut self.actors[who.index()];
        a.presence = Presence::Out;
        a.awaiting = false;
        a.in_progress = None;
        a.in_progress_kind = None;
    }
}
