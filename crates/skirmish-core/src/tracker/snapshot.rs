//! Snapshots: the whole encounter as a documented, versioned JSON document
//! an app stores as an opaque blob (docs/snapshot.md describes every field).
//!
//! A snapshot carries the current state, a bounded tail of the undo
//! history ([`SNAPSHOT_HISTORY`] steps at most) and the kept log, so its
//! size does not grow with the length of the fight. The scheduler is
//! written in its public form ([`crate::timing::SchedulerSnapshot`]), not
//! its private layout. Restoring checks everything and
//! refuses a corrupt, inconsistent or newer snapshot with
//! [`ErrorKind::BadSnapshot`](super::ErrorKind::BadSnapshot); it never
//! panics. Golden files in `tests/snapshots/` pin that every released
//! version keeps restoring.

use std::collections::VecDeque;
use std::fmt;
use std::sync::{Arc, Mutex, PoisonError};

use serde::{Deserialize, Serialize};

use super::{Encounter, Log, MAX_UNDO_LIMIT, State, Status, TrackerError, TrackerResult};
use crate::damage::DamageModel;
use crate::fighter::{ExchangeRule, Striking};
use crate::timing::ActorId;

/// The snapshot format's version. 2 is the first published format; 3
/// adds FUDGE's `exchange` rule (a version 2 snapshot restores with
/// one-way strikes, as it was played); 4 adds each fighter's FUDGE shield,
/// aim, position, Scale and NPC result, and writes the per-foe penalty as
/// a number (a version 3 snapshot restores with none of them, as it was
/// played); 5 adds what an amazing defense left on a combatant until its
/// next action (`upset`: disarmed, recovering, knocked down), written only
/// where there is one (a version 4 snapshot has none, as it was played);
/// 6 adds FUDGE 4.31's scouting: a fighter's Perception or Tactics trait
/// (`scouting`) and when a foe's scouting puts a combatant at -1
/// (`scouted`), each written only where there is one (a version 5
/// snapshot has neither, as it was played). The pre-release version 1
/// (the scheduler's private layout) is not read.
pub const SNAPSHOT_VERSION: u32 = 6;

/// The oldest version read.
const OLDEST_READ: u32 = 2;

/// The `format` field every snapshot carries.
const FORMAT: &str = "skirmish-encounter";

/// Undo steps a snapshot carries at most (the newest): bounded size
/// however long the fight.
pub const SNAPSHOT_HISTORY: usize = 20;

/// A state's JSON, kept while the state is one of the undo steps a
/// snapshot carries. An undo step never changes (a state is changed only
/// as a fresh copy, in `mutate`), so an app that saves after every
/// operation writes each step once rather than in every snapshot (at 30
/// fighters, 20 steps of 27 KB each). A snapshot drops the JSON of the
/// steps it no longer carries, so at most [`SNAPSHOT_HISTORY`] are kept
/// (besides those undo moved to the redo stack). A copy starts empty, and
/// equality ignores it: it is not part of what a state is.
#[derive(Default)]
pub(super) struct Memo(Mutex<Option<Arc<str>>>);

impl Memo {
    /// The JSON of `state`, whose memo this is: kept, or written and kept.
    fn text(&self, state: &State) -> TrackerResult<Arc<str>> {
        let mut kept = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(text) = kept.as_ref() {
            return Ok(Arc::clone(text));
        }
        let text: Arc<str> = json(state)?.into();
        *kept = Some(Arc::clone(&text));
        Ok(text)
    }

    fn drop_text(&self) {
        *self.0.lock().unwrap_or_else(PoisonError::into_inner) = None;
    }
}

impl Clone for Memo {
    fn clone(&self) -> Self {
        Memo::default()
    }
}

impl PartialEq for Memo {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl fmt::Debug for Memo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Memo")
    }
}

/// `value` as JSON, or the snapshot error.
fn json<T: Serialize + ?Sized>(value: &T) -> TrackerResult<String> {
    serde_json::to_string(value).map_err(|e| TrackerError::invalid("snapshot", e.to_string()))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Snapshot {
    format: String,
    version: u32,
    undo_limit: u32,
    state: State,
    history: Vec<State>,
    log: Log,
}

/// The head of a snapshot, read first: what it is and which version.
#[derive(Deserialize)]
struct Head {
    format: Option<String>,
    version: Option<u64>,
}

impl Encounter {
    /// The whole encounter as JSON (the format: docs/snapshot.md): the
    /// state with its generator, the newest [`SNAPSHOT_HISTORY`] undo
    /// steps, the kept log. Redo steps are not saved.
    pub fn snapshot(&self) -> TrackerResult<String> {
        let mut out = String::new();
        self.write_snapshot(&mut out)?;
        Ok(out)
    }

    /// [`snapshot`](Self::snapshot), appended to `out` (unchanged on an
    /// error). An app that saves after every operation can keep one buffer
    /// and clear it between saves: at 30 fighters a snapshot is about
    /// 600 KB, and a fresh buffer of that size each time cost more than
    /// writing it (the allocator gives the memory back and faults it in
    /// again: from Python, 0.9 ms a snapshot against 0.15 ms).
    pub fn write_snapshot(&self, out: &mut String) -> TrackerResult<()> {
        let skip = self.history.len().saturating_sub(SNAPSHOT_HISTORY);
        // The fields in the order `Snapshot` declares them, as serde writes
        // a struct (compact, no spaces): the golden files pin the bytes.
        // Each undo step is written once (`Memo`); the state, which changes
        // in place of a copy, every time. Everything that can fail comes
        // before the first byte is appended.
        for step in self.history.iter().take(skip) {
            step.json.drop_text();
        }
        let history = self
            .history
            .iter()
            .skip(skip)
            .map(|step| step.json.text(step))
            .collect::<TrackerResult<Vec<_>>>()?;
        let format = json(FORMAT)?;
        let state = json(&self.state)?;
        let log = json(&self.log)?;
        out.reserve(state.len() + log.len() + history.iter().map(|h| h.len() + 1).sum::<usize>() + 128);
        out.push_str("{\"format\":");
        out.push_str(&format);
        out.push_str(&format!(
            ",\"version\":{SNAPSHOT_VERSION},\"undo_limit\":{},\"state\":",
            self.undo_limit
        ));
        out.push_str(&state);
        out.push_str(",\"history\":[");
        for (i, step) in history.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            out.push_str(step);
        }
        out.push_str("],\"log\":");
        out.push_str(&log);
        out.push('}');
        Ok(())
    }

    /// An encounter from a [`snapshot`](Self::snapshot); it continues
    /// exactly as the saved one would have. A corrupt or inconsistent
    /// document, or one from a newer version, is a
    /// [`BadSnapshot`](super::ErrorKind::BadSnapshot) error saying what is
    /// wrong.
    pub fn restore(json: &str) -> TrackerResult<Encounter> {
        let bad = |what: String| TrackerError::bad_snapshot(what);
        // One parse on the common path; the head is read on its own only to
        // say why a document that did not parse is refused.
        let snap: Snapshot = match serde_json::from_str::<Snapshot>(json) {
            Ok(snap) if snap.format == FORMAT && (OLDEST_READ..=SNAPSHOT_VERSION).contains(&snap.version) => snap,
            Ok(_) => return Err(head_error(json).unwrap_or_else(|| bad("unreadable head".into()))),
            Err(e) => return Err(head_error(json).unwrap_or_else(|| bad(e.to_string()))),
        };
        if snap.undo_limit > MAX_UNDO_LIMIT {
            return Err(bad(format!(
                "undo_limit: {} is outside 0..={MAX_UNDO_LIMIT}",
                snap.undo_limit
            )));
        }
        if snap.history.len() > SNAPSHOT_HISTORY.min(snap.undo_limit as usize) {
            return Err(bad(format!("history: {} steps is more than saved", snap.history.len())));
        }
        if snap.log.entries.len() > super::LOG_LIMIT {
            return Err(bad(format!("log: more than {} entries", super::LOG_LIMIT)));
        }
        if snap.log.first > u64::MAX / 2 {
            return Err(bad("log.first: out of range".into()));
        }
        let mut state = snap.state;
        let mut steps = snap.history;
        if snap.version == 2 {
            // Before version 3 every FUDGE strike was one-way.
            for s in std::iter::once(&mut state).chain(steps.iter_mut()) {
                if let Striking::FudgeOpposed(r) = &mut s.rules.striking {
                    r.exchange = ExchangeRule::OneWay;
                }
            }
        }
        check_state(&mut state).map_err(|e| bad(format!("state: {e}")))?;
        let mut history = VecDeque::with_capacity(steps.len());
        let mut log_len = 0;
        for (i, mut st) in steps.into_iter().enumerate() {
            check_state(&mut st).map_err(|e| bad(format!("history[{i}]: {e}")))?;
            // Each step wrote its lines after the one before it.
            if st.log_len < log_len || st.log_len > state.log_len {
                return Err(bad(format!(
                    "history[{i}].log_len: not between the step before and the state"
                )));
            }
            log_len = st.log_len;
            history.push_back(st);
        }
        if state.log_len != snap.log.len() {
            return Err(bad("state.log_len: does not match the log".into()));
        }
        Ok(Encounter {
            state,
            history,
            redo: Vec::new(),
            undo_limit: snap.undo_limit,
            log: snap.log,
        })
    }
}

/// Why a snapshot's head (`format`, `version`) is refused, if it is:
/// another format, none, or a version this library does not read.
fn head_error(json: &str) -> Option<TrackerError> {
    let bad = |what: String| Some(TrackerError::bad_snapshot(what));
    let head: Head = match serde_json::from_str(json) {
        Ok(head) => head,
        Err(e) => return bad(format!("not a snapshot: {e}")),
    };
    match (head.format.as_deref(), head.version) {
        (None, _) => bad(format!(
            "no \"format\" field: not a {FORMAT} snapshot (or one from before version {OLDEST_READ}, which is \
             not read)"
        )),
        (Some(other), _) if other != FORMAT => bad(format!("format {other:?} is not {FORMAT:?}")),
        (_, None) => bad("no \"version\" field".into()),
        (_, Some(v)) if v > u64::from(SNAPSHOT_VERSION) => bad(format!(
            "version {v} is newer than this library reads ({SNAPSHOT_VERSION}): update skirmish"
        )),
        (_, Some(v)) if v < u64::from(OLDEST_READ) => bad(format!(
            "version {v} is not read (this library reads {OLDEST_READ} to {SNAPSHOT_VERSION})"
        )),
        _ => None,
    }
}

/// Checks that a restored state is whole and consistent, and rebuilds what
/// a snapshot does not carry (the damage model, from the rules). Linear in
/// the size of the state.
fn check_state(s: &mut State) -> TrackerResult<()> {
    let invalid = |field: String, why: &str| TrackerError::invalid(&field, why);
    s.scheduler.validate()?;
    s.model = s
        .rules
        .damage
        .build()
        .map_err(|e| TrackerError::from(e.in_field("rules.damage")))?;
    super::check_striking(&s.rules.striking)?;
    if s.lines.len() != s.scheduler.len() {
        return Err(invalid("lines".into(), "do not match the scheduler's actors"));
    }
    // Every combatant on exactly one line, the one it names.
    let mut listed = vec![false; s.combatants.len()];
    for (i, l) in s.lines.iter().enumerate() {
        if l.members.is_empty() {
            return Err(invalid(format!("lines[{i}].members"), "empty"));
        }
        for &m in &l.members {
            match (s.combatants.get(m as usize), listed.get_mut(m as usize)) {
                (Some(c), Some(seen @ false)) if c.line as usize == i => *seen = true,
                _ => {
                    return Err(invalid(
                        format!("lines[{i}].members"),
                        "an unknown member, one of another line, or one listed twice",
                    ));
                }
            }
        }
        if let Some(f) = &l.stats {
            f.validate()
                .map_err(|e| TrackerError::from(e.in_field(&format!("lines[{i}].stats"))))?;
        }
        // In the scheduler exactly while a member stands.
        let standing = l
            .members
            .iter()
            .any(|&m| s.combatants[m as usize].status == Status::Standing);
        if standing != s.scheduler.is_in(ActorId(i as u32)) {
            return Err(invalid(
                format!("lines[{i}]"),
                "in the scheduler without a member standing, or out of it with one",
            ));
        }
    }
    if listed.iter().any(|seen| !seen) {
        return Err(invalid("combatants".into(), "not every combatant is on a line"));
    }
    if s.moments > u64::MAX / 2 {
        return Err(invalid("moments".into(), "out of range"));
    }
    for (i, c) in s.combatants.iter().enumerate() {
        let field = |name: &str| format!("combatants[{i}].{name}");
        match (super::stats_of(s, i), &c.damage) {
            (Some(f), Some(d)) => {
                super::validate_damage(&s.model, f, d).map_err(|e| TrackerError::from(e.in_field(&field("damage"))))?;
                if c.status == Status::Standing && s.model.is_down(d) {
                    return Err(invalid(field("damage"), "takes a standing combatant out"));
                }
            }
            (Some(_), None) => return Err(invalid(field("damage"), "missing for a fighter with stats")),
            (None, Some(_)) => return Err(invalid(field("damage"), "set for a combatant without stats")),
            (None, None) => {}
        }
        if !(-1_000_000..=0).contains(&c.moment_penalty) {
            return Err(invalid(field("moment_penalty"), "out of range"));
        }
        let down_ok = match (c.status, c.down_at_moment) {
            (Status::Down, Some(m)) => m <= s.moments,
            (Status::Down, None) => false,
            (_, at) => at.is_none(),
        };
        if !down_ok {
            return Err(invalid(field("down_at_moment"), "does not fit its status"));
        }
        c.upset.check(s.moments).map_err(|why| invalid(field("upset"), why))?;
    }
    for &a in &s.current {
        if a as usize >= s.lines.len() {
            return Err(invalid("current".into(), "unknown line"));
        }
    }
    for (i, e) in s.effects.iter().enumerate() {
        if e.target.is_some_and(|t| t as usize >= s.combatants.len()) {
            return Err(invalid(format!("effects[{i}].target"), "unknown combatant"));
        }
    }
    Ok(())
}

/// How a [`State`]'s scheduler is written in a snapshot: its public,
/// versioned form ([`SchedulerSnapshot`](crate::timing::SchedulerSnapshot)),
/// checked field by field when read back.
pub(super) mod scheduler_form {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use crate::timing::{Scheduler, SchedulerSnapshot};

    pub(crate) fn serialize<S: Serializer>(scheduler: &Scheduler, s: S) -> Result<S::Ok, S::Error> {
        scheduler.snapshot().serialize(s)
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Scheduler, D::Error> {
        let snapshot = SchedulerSnapshot::deserialize(d)?;
        Scheduler::from_snapshot(snapshot).map_err(serde::de::Error::custom)
    }
}
