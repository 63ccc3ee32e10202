//! Initiative: the value an entered roll or total stands for under each
//! system (checked against its range), rolling it at a new round or a
//! joining, and correcting the current round from an entry. Its own file
//! because initiative is where the six systems differ most before a round
//! is laid out (`rounds` lays it out).

use super::*;

impl Scheduler {
    // -----------------------------------------------------------------
    // Initiative

    /// Sets the actor's initiative instead of rolling it.
    ///
    /// Right after a [`Step::NewRound`] (before any moment of the round) it
    /// corrects this round: the round is laid out again from everyone's
    /// initiative, with no new rolls. Otherwise it is kept for the actor's
    /// next initiative (the next round, or its joining).
    ///
    /// # Errors
    /// An unknown or removed actor, an entry out of its range (see the
    /// [bounds](Self#bounds)), or a corrected round that would pass
    /// [`MAX_TICK`].
    pub fn set_initiative(&mut self, who: ActorId, entry: InitiativeEntry) -> Result<()> {
        self.active(who)?;
        let value = self.initiative_from_entry(who.0, entry)?;
        let correct_now = self.round > 0
            && self.moments_in_round == 0
            && self.actors[who.index()].presence == Presence::Active
            && !(matches!(self.system, TimingSystem::Continuous(_)) && self.round > 1);
        if correct_now {
            // Laid out first: a round that cannot be changes nothing.
            let acting: Vec<(u32, i64, u32)> = self
                .actors
                .iter()
                .enumerate()
                .filter(|(_, a)| a.presence == Presence::Active)
                .map(|(i, a)| (i as u32, if i == who.index() { value } else { a.initiative }, a.allowed))
                .collect();
            let layout = self.layout(self.round, self.round_base, &acting)?;
            self.actors[who.index()].initiative = value;
            self.apply_layout(layout)?;
        } else {
            self.actors[who.index()].entry = Some(entry);
        }
        Ok(())
    }

    /// The value an entry stands for (checked).
    fn initiative_from_entry(&self, who: u32, entry: InitiativeEntry) -> Result<i64> {
        let a = &self.actors[who as usize];
        self.initiative_value(&a.timing, &a.decl, entry)
    }

    /// The value an entry stands for with these traits and declaration:
    /// Relativity scores in `1..=`[`MAX_DURATION`] (a roll gives at most
    /// about three times that), Tick System totals within
    /// `-MAX_BONUS..=2 * MAX_BONUS`, Action Blocks counts in
    /// `1..=`[`MAX_ACTIONS`].
    pub(super) fn initiative_value(
        &self,
        timing: &ActorTiming,
        decl: &Declaration,
        entry: InitiativeEntry,
    ) -> Result<i64> {
        match (&self.system, entry) {
            (TimingSystem::Simultaneous, _) => Ok(0),
            (s, InitiativeEntry::Roll(r)) if s.relativity_initiative() => initiative(r, decl),
            (s, InitiativeEntry::Total(t)) if s.relativity_initiative() => {
                check_range("initiative.total", t, 1, MAX_DURATION.into())?;
                Ok(t)
            }
            (TimingSystem::TickSystem(c), InitiativeEntry::Roll(r)) => {
                check_die(c.initiative_die, r)?;
                Ok(i64::from(tick_system::initiative(r, timing.initiative_bonus)))
            }
            (TimingSystem::TickSystem(_), InitiativeEntry::Total(t)) => {
                check_range("initiative.total", t, -i64::from(MAX_BONUS), 2 * i64::from(MAX_BONUS))?;
                Ok(t)
            }
            (TimingSystem::ActionBlocks(c), InitiativeEntry::Roll(r)) => {
                check_die(c.die, r)?;
                Ok(c.actions(timing.reflexes, timing.combat_sense, r).into())
            }
            (TimingSystem::ActionBlocks(_), InitiativeEntry::Total(t)) => {
                check_range("initiative.actions", t, 1, MAX_ACTIONS.into())?;
                Ok(t)
            }
            _ => Err(Error::invalid(
                "initiative",
                "this timing system has no such initiative",
            )),
        }
    }

    /// Rolls (or takes the entry of) the actor's initiative, with `decl`
    /// as its declaration.
    pub(super) fn roll_initiative<R: RollSource + ?Sized>(
        &self,
        who: u32,
        decl: &Declaration,
        rolls: &mut R,
    ) -> Result<i64> {
        let a = &self.actors[who as usize];
        if let Some(entry) = a.entry {
            return self.initiative_value(&a.timing, decl, entry);
        }
        let roll = match &self.system {
            TimingSystem::Simultaneous => return Ok(0),
            s if s.relativity_initiative() => rolls.roll(Dice::FOUR_DF)?,
            TimingSystem::TickSystem(c) => rolls.roll(c.initiative_die)?,
            TimingSystem::ActionBlocks(c) => rolls.roll(c.die)?,
            _ => return Ok(0),
        };
        self.initiative_value(&a.timing, decl, InitiativeEntry::Roll(roll))
    }
}
