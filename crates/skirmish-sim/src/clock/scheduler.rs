//! [`SchedulerClock`]: any of the six timing systems through the core
//! [`Scheduler`], exactly as the live tracker runs them: what a battle
//! uses when no lean clock takes it (see the module docs of `clock`).

use skirmish_core::dice::{Dice, RollSource, ScriptedRolls, SeededRolls};
use skirmish_core::timing::tick_system::FreeActionResult;
use skirmish_core::timing::{Act, ActionKind, ActorId, ActorTiming, Declaration, Scheduler, Step, TimingSystem};

use super::{Clock, Tick};
use crate::error::SimError;

/// A roll source that answers the first `2dF` requests with rolls already
/// drawn, in order, then draws.
struct Prerolled<'a> {
    rolls: &'a mut SeededRolls,
    ready: &'a [(u32, i32)],
    next: usize,
}

impl RollSource for Prerolled<'_> {
    #[inline]
    fn roll(&mut self, dice: Dice) -> skirmish_core::Result<i32> {
        if dice == Dice::TWO_DF
            && let Some(&(_, roll)) = self.ready.get(self.next)
        {
            self.next += 1;
            return Ok(roll);
        }
        self.rolls.roll(dice)
    }
}

/// Any timing system, through the core Scheduler.
pub(crate) struct SchedulerClock {
    scheduler: Scheduler,
    acts: Vec<Act>,
    /// Whether the system is Continuous (the one that takes handed-over
    /// Ready Time rolls).
    continuous: bool,
    /// Handed-over Ready Time rolls `(fighter, roll)`, in the order the
    /// fighters acted; the Scheduler follows them up in that order.
    ready: Vec<(u32, i32)>,
    /// Per fighter: removed (the fallen are not followed up).
    removed: Vec<bool>,
}

impl SchedulerClock {
    pub(crate) fn new(
        system: &TimingSystem,
        fighters: impl Iterator<Item = (ActorTiming, Declaration)>,
    ) -> Result<Self, SimError> {
        let mut scheduler = Scheduler::try_new(system.clone()).map_err(SimError::rules)?;
        let mut count = 0;
        for (timing, decl) in fighters {
            scheduler.add(timing, decl).map_err(SimError::rules)?;
            count += 1;
        }
        Ok(SchedulerClock {
            scheduler,
            acts: Vec::new(),
            continuous: matches!(system, TimingSystem::Continuous(_)),
            ready: Vec::new(),
            removed: vec![false; count],
        })
    }
}

/// The next step of `scheduler` as a battle clock hands it out: the
/// handed-over Ready Time rolls `ready` answer its first `2dF` requests
/// (and leave `ready` as they are used), `land` puts the fighters of each
/// actor whose action lands into `acting`, and a moment where nothing lands
/// (a Tick System turn begins an action, a timer) is passed over. Shared by
/// [`SchedulerClock`] and the continuation's `LineClock`.
#[inline]
pub(super) fn next_landing(
    scheduler: &mut Scheduler,
    acts: &mut Vec<Act>,
    ready: &mut Vec<(u32, i32)>,
    rolls: &mut SeededRolls,
    acting: &mut Vec<u32>,
    mut land: impl FnMut(ActorId, &mut Vec<u32>),
) -> Result<Option<Tick>, SimError> {
    loop {
        let mut prerolled = Prerolled {
            rolls: &mut *rolls,
            ready,
            next: 0,
        };
        let step = scheduler.next(&mut prerolled, acts);
        let used = prerolled.next;
        ready.drain(..used);
        match step.map_err(SimError::rules)? {
            None => return Ok(None),
            Some(Step::NewRound { .. }) => return Ok(Some(Tick::NewRound)),
            Some(Step::Moment(m)) => {
                for a in acts.iter() {
                    if let Act::Action { actor, .. } = a {
                        land(*actor, acting);
                    }
                }
                if acting.is_empty() {
                    continue;
                }
                return Ok(Some(Tick::Moment {
                    tick: m.tick,
                    round: m.round,
                    display: m.display,
                    pass: m.pass,
                }));
            }
        }
    }
}

impl Clock for SchedulerClock {
    #[inline]
    fn next(&mut self, rolls: &mut SeededRolls, acting: &mut Vec<u32>) -> Result<Option<Tick>, SimError> {
        acting.clear();
        let removed = &self.removed;
        self.ready
            .retain(|&(w, _)| !removed.get(w as usize).copied().unwrap_or(true));
        next_landing(
            &mut self.scheduler,
            &mut self.acts,
            &mut self.ready,
            rolls,
            acting,
            |actor, acting| acting.push(actor.0),
        )
    }

    fn remove(&mut self, who: u32) {
        self.remove_fallen(&[who]);
    }

    /// One Scheduler call for the moment's fallen: its awaiting list (all
    /// who acted at this moment) is filtered once, not once per fallen
    /// fighter, which made the Tick System's cost per action grow with
    /// the battle's size.
    fn remove_fallen(&mut self, fallen: &[u32]) {
        self.scheduler.remove_each(fallen.iter().map(|&f| ActorId(f)));
        // The fallen are not followed up: their rolls go at the next call.
        for &f in fallen {
            if let Some(r) = self.removed.get_mut(f as usize) {
                *r = true;
            }
        }
    }

    fn disrupt(&mut self, who: u32, disruptible: bool) -> bool {
        disruptible && self.scheduler.disrupt(ActorId(who)).unwrap_or(false)
    }

    fn ready_roll(&mut self, who: u32, roll: i32) {
        if self.continuous {
            self.ready.push((who, roll));
        }
    }

    fn defense_bonus(&self, who: u32) -> i32 {
        self.scheduler.defense_bonus(ActorId(who))
    }

    fn defend(&mut self, who: u32) -> Result<Option<FreeActionResult>, SimError> {
        defend(&mut self.scheduler, ActorId(who))
    }

    fn answer(&mut self, who: u32) -> Result<bool, SimError> {
        answer(&mut self.scheduler, ActorId(who))
    }

    fn acquire(&mut self, who: u32) -> Result<(u32, Option<i64>), SimError> {
        let extra = self.scheduler.acquire(ActorId(who), true).map_err(SimError::rules)?;
        Ok((extra, self.scheduler.next_turn(ActorId(who))))
    }
}

/// Tick System: `who` defends now as a free action ([`Clock::defend`]),
/// if it is still in the fight. Shared with the continuation's clock.
pub(super) fn defend(scheduler: &mut Scheduler, who: ActorId) -> Result<Option<FreeActionResult>, SimError> {
    if !scheduler.is_in(who) {
        return Ok(None);
    }
    scheduler
        .free_action(who, None, true)
        .map(Some)
        .map_err(SimError::rules)
}

/// Tick System: a prepared `who` takes its held turn and attacks, its
/// Prepare kept for its next turn ([`Clock::answer`]). Shared with the
/// continuation's clock.
pub(super) fn answer(scheduler: &mut Scheduler, who: ActorId) -> Result<bool, SimError> {
    if !scheduler.is_in(who) || !scheduler.is_prepared(who) || scheduler.is_awaiting(who) {
        return Ok(false);
    }
    let prepare = scheduler.declaration(who).map_err(SimError::rules)?;
    if prepare.kind != ActionKind::Prepare {
        return Ok(false);
    }
    // The Tick System's plan of an attack rolls nothing.
    let mut no_rolls = ScriptedRolls::new([]);
    scheduler.take_held_turn(who).map_err(SimError::rules)?;
    let attack = Declaration {
        kind: ActionKind::Attack,
        ..prepare
    };
    scheduler.declare(who, attack, &mut no_rolls).map_err(SimError::rules)?;
    // Kept for its next turn: it prepares again.
    scheduler
        .declare(who, prepare, &mut no_rolls)
        .map_err(SimError::rules)?;
    Ok(true)
}
