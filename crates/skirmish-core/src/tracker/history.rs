//! Undo, redo and the log: the one door every change goes through
//! ([`Encounter::mutate`]: a copy of the state, replaced only on success,
//! a panic caught), the bounded undo history and what redo keeps, and the
//! numbered, bounded event log. Its own file because this is what makes
//! every operation atomic and undoable, whatever the operation is.

use std::collections::VecDeque;
use std::fmt;

use serde::{Deserialize, Serialize};

use super::{Encounter, ErrorKind, State, TrackerError, TrackerResult};

/// One entry of the encounter's log.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LogEntry {
    /// Round at the time.
    pub round: u32,
    /// Absolute tick at the time.
    pub tick: u64,
    /// What happened, in words.
    pub text: String,
}

impl fmt::Display for LogEntry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[round {} tick {}] {}", self.round, self.tick, self.text)
    }
}

/// The event log: the newest [`LOG_LIMIT`] entries, numbered from the
/// encounter's first.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Log {
    /// The number of the oldest entry kept.
    pub(super) first: u64,
    pub(super) entries: VecDeque<LogEntry>,
}

impl Log {
    pub(super) fn len(&self) -> u64 {
        self.first.saturating_add(self.entries.len() as u64)
    }

    fn push(&mut self, entry: LogEntry) {
        if self.entries.len() >= LOG_LIMIT {
            self.entries.pop_front();
            self.first = self.first.saturating_add(1);
        }
        self.entries.push_back(entry);
    }

    /// Keeps the entries numbered below `len`; returns those taken off.
    fn truncate(&mut self, len: u64) -> Vec<LogEntry> {
        if len <= self.first {
            self.first = len;
            self.entries.drain(..).collect()
        } else {
            let keep = usize::try_from(len - self.first)
                .unwrap_or(usize::MAX)
                .min(self.entries.len());
            self.entries.drain(keep..).collect()
        }
    }
}

/// How many log entries an encounter keeps (the oldest go first):
/// bounded memory however long the fight.
pub const LOG_LIMIT: usize = 2_000;

/// Undo steps an encounter keeps unless told otherwise: enough to walk
/// back a few rounds at the table, little memory on a phone.
pub const DEFAULT_UNDO_LIMIT: u32 = 100;

/// The most undo steps an encounter may be asked to keep.
pub const MAX_UNDO_LIMIT: u32 = 10_000;

impl Encounter {
    /// Runs `op` on a copy of the state; on success it becomes the state
    /// and the old one goes on the undo stack (the oldest step goes once
    /// the stack holds [`undo_limit`](Self::undo_limit)), on error nothing
    /// changes. A panic inside `op` (a bug) is caught and becomes an
    /// [`ErrorKind::Internal`] error: it only ever touched the copy, so
    /// the encounter is as it was before the call.
    pub(super) fn mutate<T>(
        &mut self,
        op: impl FnOnce(&mut State, &mut Vec<LogEntry>) -> TrackerResult<T>,
    ) -> TrackerResult<T> {
        let mut next = self.state.clone();
        let mut written = Vec::new();
        let v = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| op(&mut next, &mut written)))
            .map_err(|payload| TrackerError::internal(payload.as_ref()))??;
        for entry in written {
            self.log.push(entry);
        }
        next.log_len = self.log.len();
        let old = std::mem::replace(&mut self.state, next);
        self.push_history(old);
        self.redo.clear();
        Ok(v)
    }

    fn push_history(&mut self, old: State) {
        if self.undo_limit == 0 {
            return;
        }
        while self.history.len() >= self.undo_limit as usize {
            self.history.pop_front();
        }
        self.history.push_back(old);
    }

    /// How many undo steps are kept ([`DEFAULT_UNDO_LIMIT`] unless set).
    pub fn undo_limit(&self) -> u32 {
        self.undo_limit
    }

    /// Keeps at most `limit` undo steps (0..=[`MAX_UNDO_LIMIT`]; 0 turns
    /// undo off); the oldest go first. Not itself undoable.
    pub fn set_undo_limit(&mut self, limit: u32) -> TrackerResult<()> {
        if limit > MAX_UNDO_LIMIT {
            return Err(TrackerError::invalid(
                "undo_limit",
                format!("{limit} is outside 0..={MAX_UNDO_LIMIT}"),
            ));
        }
        self.undo_limit = limit;
        while self.history.len() > limit as usize {
            self.history.pop_front();
        }
        Ok(())
    }

    /// The event log entries kept (the newest [`LOG_LIMIT`]), oldest first.
    pub fn log(&self) -> Vec<LogEntry> {
        self.log.entries.iter().cloned().collect()
    }

    /// How many log entries were ever written (the next one's number).
    pub fn log_len(&self) -> u64 {
        self.log.len()
    }

    /// The log entries numbered `n` and on, oldest first (those still kept:
    /// an app that polls with the last length it saw gets what is new).
    pub fn log_since(&self, n: u64) -> Vec<LogEntry> {
        let skip = usize::try_from(n.saturating_sub(self.log.first)).unwrap_or(usize::MAX);
        self.log.entries.iter().skip(skip).cloned().collect()
    }

    /// Undoes the last operation (including a [`next`](Self::next)).
    pub fn undo(&mut self) -> TrackerResult<()> {
        let prev = self
            .history
            .pop_back()
            .ok_or_else(|| TrackerError::new(ErrorKind::NothingToUndo, None, "nothing to undo"))?;
        let undone = std::mem::replace(&mut self.state, prev);
        let lines = self.log.truncate(self.state.log_len);
        self.redo.push((undone, lines));
        Ok(())
    }

    /// Does again the last operation undone, exactly (the same rolls).
    /// Any new operation clears what could be redone.
    pub fn redo(&mut self) -> TrackerResult<()> {
        let (next, lines) = self
            .redo
            .pop()
            .ok_or_else(|| TrackerError::new(ErrorKind::NothingToUndo, None, "nothing to redo"))?;
        let old = std::mem::replace(&mut self.state, next);
        self.push_history(old);
        for line in lines {
            self.log.push(line);
        }
        // An undo that went below the oldest kept line took every kept line
        // with its step; number what came back so the log ends where the
        // state says it does.
        let want = self.state.log_len;
        if self.log.len() != want {
            let kept = (self.log.entries.len() as u64).min(want);
            while self.log.entries.len() as u64 > kept {
                self.log.entries.pop_front();
            }
            self.log.first = want - kept;
        }
        Ok(())
    }

    /// How many operations can be undone.
    pub fn undo_depth(&self) -> u32 {
        self.history.len() as u32
    }

    /// How many undone operations can be redone.
    pub fn redo_depth(&self) -> u32 {
        self.redo.len() as u32
    }
}

pub(super) fn note(s: &State, log: &mut Vec<LogEntry>, text: String) {
    log.push(LogEntry {
        round: s.scheduler.round(),
        tick: s.scheduler.now(),
        text,
    });
}

#[cfg(test)]
mod panic_safety {
    //! A panic inside an operation is a bug; these check that it is caught
    //! and leaves the encounter exactly as it was, through the one door
    //! every operation goes through.

    use super::*;
    use crate::timing::{Declaration, InitiativeEntry, TimingSystem};
    use crate::tracker::CombatantSpec;

    fn mid_fight() -> Encounter {
        let mut e = Encounter::new(TimingSystem::continuous(), 7).unwrap_or_else(|e| panic!("{e}"));
        let a = e
            .add_combatant(CombatantSpec::new("Roland", Declaration::new(2, 1)))
            .unwrap_or_else(|e| panic!("{e}"));
        e.set_initiative(a, InitiativeEntry::Roll(-1))
            .unwrap_or_else(|e| panic!("{e}"));
        e.next().unwrap_or_else(|e| panic!("{e}"));
        e.undo().unwrap_or_else(|e| panic!("{e}"));
        e
    }

    #[test]
    fn a_panicking_operation_is_an_internal_error_and_changes_nothing() {
        let mut e = mid_fight();
        let before = e.clone();
        let snapshot = e.snapshot().unwrap_or_else(|e| panic!("{e}"));
        let (log, undo, redo) = (e.log_len(), e.undo_depth(), e.redo_depth());
        let r: TrackerResult<()> = e.mutate(|s, log| {
            // Half an operation: the copy is changed and a line written,
            // then the bug strikes.
            s.combatants.clear();
            log.push(LogEntry {
                round: 0,
                tick: 0,
                text: "never".to_owned(),
            });
            panic!("boom at the {}th step", 3)
        });
        let err = r.expect_err("the panic is an error");
        assert_eq!(err.kind(), ErrorKind::Internal);
        assert!(err.message().contains("boom at the 3th step"), "{err}");
        assert_eq!(e, before);
        assert_eq!((e.log_len(), e.undo_depth(), e.redo_depth()), (log, undo, redo));
        assert_eq!(e.snapshot().unwrap_or_else(|e| panic!("{e}")), snapshot);
        // And it goes on as before.
        assert!(e.redo().is_ok());
    }

    #[test]
    fn a_panic_with_a_string_payload_keeps_its_words() {
        let mut e = mid_fight();
        let r: TrackerResult<()> = e.mutate(|_, _| std::panic::panic_any(String::from("owned words")));
        assert!(r.expect_err("caught").message().ends_with("owned words"));
        let r: TrackerResult<()> = e.mutate(|_, _| std::panic::panic_any(17_u8));
        assert!(r.expect_err("caught").message().ends_with("a panic without a message"));
    }
}
