//! The Tick System at the table (docs/rules.md §1.5): what a blow does to
//! the timing of the two combatants, once the GM has resolved it. The
//! rules are the Scheduler's ([`Scheduler::acquire`](crate::timing::Scheduler::acquire),
//! [`Scheduler::free_action`](crate::timing::Scheduler::free_action));
//! here the tracker decides when they apply, from the blow and the
//! combatants' profiles.

use crate::timing::TimingSystem;
use crate::timing::tick_system::Defending;

use super::{ActorId, CombatantId, LogEntry, State, TrackerResult, note};

/// The Tick System's timing of a blow at the table (docs/rules.md §1.5),
/// after it is resolved: a ranged attacker at another target than its last
/// ranged blow's **Acquires** it, and a target whose policy is to defend
/// as a free action ([`Defending::FreeAction`]) takes one (a prepared
/// target's first defense is free). Nothing under another
/// system, or for one already out of the fight.
pub(super) fn blow_timing(
    s: &mut State,
    log: &mut Vec<LogEntry>,
    (attacker, target): (CombatantId, CombatantId),
    ranged: bool,
) -> TrackerResult<()> {
    if !matches!(s.scheduler.system(), TimingSystem::TickSystem(_)) {
        return Ok(());
    }
    let (al, tl) = (
        s.combatants[attacker.0 as usize].line,
        s.combatants[target.0 as usize].line,
    );
    if ranged && s.lines[al as usize].last_shot_at != Some(target.0) {
        s.lines[al as usize].last_shot_at = Some(target.0);
        if s.scheduler.is_in(ActorId(al)) {
            // Its action landed at this moment (not only its turn began):
            // a line whose action lands and whose turn begins at one
            // moment is in `current` twice.
            let landed_now = s.current.iter().filter(|&&l| l == al).count() >= 2;
            let extra = s.scheduler.acquire(ActorId(al), landed_now)?;
            if extra > 0 {
                let (a, t) = (
                    s.combatants[attacker.0 as usize].name.clone(),
                    s.combatants[target.0 as usize].name.clone(),
                );
                note(s, log, format!("{a} acquires {t} (+{extra} tick(s))"));
            }
        }
    }
    let defends = s.lines[tl as usize]
        .stats
        .as_ref()
        .is_some_and(|f| f.defend == Defending::FreeAction);
    if defends && s.scheduler.is_in(ActorId(tl)) {
        let r = s.scheduler.free_action(ActorId(tl), None, true)?;
        let name = s.combatants[target.0 as usize].name.clone();
        let mut text = format!("{name} defends ({} tick(s))", r.ticks);
        if r.cancelled_action {
            text += ", cancelling the action in progress";
        }
        if r.pushed {
            text += ", pushing the next turn";
        }
        note(s, log, text);
    }
    Ok(())
}
