//! Bounds and invariants: the checks on declarations and actor timing at
//! every call, and on a restored scheduler's lists. Together they are what
//! lets the rest of the scheduler add and subtract ticks without overflow.

use super::*;

pub(super) fn check_range(field: &str, value: i64, min: i64, max: i64) -> Result<()> {
    if (min..=max).contains(&value) {
        Ok(())
    } else {
        Err(Error::out_of_range(field, value, min, max))
    }
}

impl Declaration {
    /// Checks the numbers against the scheduler's limits: Time Taken,
    /// extra preparation, action ticks and a GM Ready Time up to
    /// [`MAX_DURATION`] (action ticks and Ready Time at least 1); the speed
    /// bonus within ±[`MAX_BONUS`]; extra attacks and both parts of the
    /// Rate of Fire up to [`MAX_ACTIONS`]; a GM landing tick in
    /// `1..=`[`MAX_TICK`] (and after the current tick when it is used).
    pub fn validate(&self) -> Result<()> {
        check_range("declaration.time_taken", self.time_taken.into(), 0, MAX_DURATION.into())?;
        check_range(
            "declaration.extra_preparation",
            self.extra_preparation.into(),
            0,
            MAX_DURATION.into(),
        )?;
        check_range(
            "declaration.speed_bonus",
            self.speed_bonus.into(),
            (-MAX_BONUS).into(),
            MAX_BONUS.into(),
        )?;
        check_range(
            "declaration.extra_attacks",
            self.extra_attacks.into(),
            0,
            MAX_ACTIONS.into(),
        )?;
        check_range(
            "declaration.rate_of_fire.shots",
            self.rate_of_fire.shots().into(),
            1,
            MAX_ACTIONS.into(),
        )?;
        check_range(
            "declaration.rate_of_fire.rounds",
            self.rate_of_fire.rounds().into(),
            1,
            MAX_ACTIONS.into(),
        )?;
        if let Some(t) = self.action_ticks {
            check_range("declaration.action_ticks", t.into(), 1, MAX_DURATION.into())?;
        }
        match self.gm {
            Some(GmTiming::ReadyTime(t)) => check_range("declaration.gm.ready_time", t.into(), 1, MAX_DURATION.into())?,
            Some(GmTiming::LandingTick(t)) if !(1..=MAX_TICK).contains(&t) => {
                return Err(Error::out_of_range("declaration.gm.landing_tick", t, 1, MAX_TICK));
            }
            Some(GmTiming::LandingTick(_)) | None => {}
        }
        Ok(())
    }
}

impl ActorTiming {
    /// Checks the numbers against the scheduler's limits: the initiative
    /// bonus within ±[`MAX_BONUS`], the Interval up to [`MAX_DURATION`],
    /// REF within ±[`MAX_REFLEXES`], Combat Sense (a level of skill) within
    /// `0..=`[`MAX_REFLEXES`].
    pub fn validate(&self) -> Result<()> {
        check_range(
            "timing.initiative_bonus",
            self.initiative_bonus.into(),
            (-MAX_BONUS).into(),
            MAX_BONUS.into(),
        )?;
        check_range("timing.interval", self.interval.into(), 0, MAX_DURATION.into())?;
        check_range(
            "timing.reflexes",
            self.reflexes.into(),
            (-MAX_REFLEXES).into(),
            MAX_REFLEXES.into(),
        )?;
        // A level of skill, none being 0 (fuzion-action-blocks.txt).
        check_range("timing.combat_sense", self.combat_sense.into(), 0, MAX_REFLEXES.into())?;
        Ok(())
    }
}

impl Scheduler {
    /// Checks a restored scheduler's invariants (for schedulers read with
    /// serde from files): everything [`from_snapshot`](Self::from_snapshot)
    /// checks, and every pending event belongs to an actor that lists it.
    pub fn validate(&self) -> Result<()> {
        self.check_lists()?;
        Scheduler::from_snapshot(self.snapshot()).map(|_| ())
    }

    /// The actors' lists of pending events, the pending counts and the
    /// joining and awaiting lists agree with the queue.
    pub(super) fn check_lists(&self) -> Result<()> {
        self.system.validate()?;
        let mut events = 0usize;
        for (tick, id, ev) in self.queue.pending() {
            if let EvKind::Action { who, .. } | EvKind::Turn { who, .. } = ev.kind {
                let Some(a) = self.actors.get(who as usize) else {
                    return Err(Error::invalid(
                        "scheduler.queue",
                        format!("event at tick {tick} for unknown actor {who}"),
                    ));
                };
                if !a.pending.contains(&id) {
                    return Err(Error::invalid(
                        "scheduler.queue",
                        format!("event at tick {tick} is not listed by actor {who}"),
                    ));
                }
                events += 1;
            }
        }
        if events != self.actor_events || self.actors.iter().map(|a| a.pending.len()).sum::<usize>() != events {
            return Err(Error::invalid("scheduler", "pending event counts disagree"));
        }
        for &w in &self.joining {
            if !self
                .actors
                .get(w as usize)
                .is_some_and(|a| a.presence == Presence::Joining)
            {
                return Err(Error::invalid("scheduler.joining", format!("actor {w} is not joining")));
            }
        }
        for &w in &self.awaiting {
            if !self.actors.get(w as usize).is_some_and(|a| a.awaiting) {
                return Err(Error::invalid(
                    "scheduler.awaiting",
                    format!("actor {w} is not awaiting"),
                ));
            }
        }
        for (i, a) in self.actors.iter().enumerate() {
            a.timing
                .validate()
                .map_err(|e| e.in_field(&format!("scheduler.actors[{i}]")))?;
            a.decl
                .validate()
                .map_err(|e| e.in_field(&format!("scheduler.actors[{i}]")))?;
        }
        Ok(())
    }
}

/// Checks `value` is a roll `dice` can show (as a scripted roll would be).
pub(super) fn check_die(dice: Dice, value: i32) -> Result<()> {
    ScriptedRolls::new([value]).roll(dice).map(|_| ()).map_err(|e| match e {
        Error::ScriptedRollOutOfRange { min, max, value, .. } => {
            Error::out_of_range("initiative.roll", value, min, max)
        }
        other => other,
    })
}
