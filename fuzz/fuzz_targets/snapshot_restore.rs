//! Door: `Encounter::restore` (a saved game the app loads, `track --load`,
//! the bindings' restore). Two kinds of input:
//!
//! - any bytes, read as the snapshot's JSON text (the seed corpus holds the
//!   golden snapshots cut to 0 or 1 undo steps, so libFuzzer's byte
//!   mutations start from valid ones);
//! - one of the golden snapshots (its newest 0 to 2 undo steps) with
//!   values changed at chosen places (a
//!   number to any i64/u64 or a nearby value, a value to another type, an
//!   element removed or doubled): the mutations a hand edit or a damaged
//!   file makes, which reach the deep consistency checks that byte
//!   mutations seldom keep the JSON valid enough to reach.
//!
//! When restore accepts: the encounter snapshots again to a document that
//! restores to an equal encounter (equal to it with the newest
//! `SNAPSHOT_HISTORY` undo steps, all a snapshot keeps); two restored copies go on identically
//! for a few steps and strikes, and then still keep the round trip.
#![no_main]

use std::sync::OnceLock;

use arbitrary::{Arbitrary, Unstructured};
use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use skirmish_core::tracker::{CombatantId, Encounter, ErrorKind, StrikeDice, EncounterStrikeOptions, ViewFor};
use skirmish_fuzz::as_saved;

const GOLDEN: [&str; 6] = [
    include_str!("../../crates/skirmish-core/tests/snapshots/v3-continuous-full-contact-wounds.json"),
    include_str!("../../crates/skirmish-core/tests/snapshots/v3-graduated-full-contact-options.json"),
    include_str!("../../crates/skirmish-core/tests/snapshots/v3-tick-system-fudge-hit-points.json"),
    include_str!("../../crates/skirmish-core/tests/snapshots/v2-continuous-full-contact-wounds.json"),
    include_str!("../../crates/skirmish-core/tests/snapshots/v2-graduated-full-contact-options.json"),
    include_str!("../../crates/skirmish-core/tests/snapshots/v2-tick-system-fudge-hit-points.json"),
];

#[derive(Arbitrary, Debug)]
enum Change {
    Number(i64),
    Unsigned(u64),
    Nudge(i8),
    Float(f64),
    Bool(bool),
    Null,
    Text(String),
    EmptyArray,
    EmptyObject,
    Remove,
    Duplicate,
}

/// JSON pointers of every value in `v` (containers and leaves).
fn pointers(v: &Value, at: String, out: &mut Vec<String>) {
    match v {
        Value::Array(items) => {
            for (i, x) in items.iter().enumerate() {
                pointers(x, format!("{at}/{i}"), out);
            }
        }
        Value::Object(map) => {
            for (k, x) in map {
                pointers(x, format!("{at}/{}", k.replace('~', "~0").replace('/', "~1")), out);
            }
        }
        _ => {}
    }
    out.push(at);
}

fn mutate(root: &mut Value, pointer: &str, change: &Change) {
    let (parent_ptr, key) = pointer.rsplit_once('/').unwrap_or(("", ""));
    match change {
        Change::Remove | Change::Duplicate => {
            let Some(parent) = root.pointer_mut(parent_ptr) else {
                return;
            };
            let key = key.replace("~1", "/").replace("~0", "~");
            match parent {
                Value::Array(items) => {
                    if let Ok(i) = key.parse::<usize>()
                        && i < items.len()
                    {
                        if matches!(change, Change::Remove) {
                            items.remove(i);
                        } else {
                            let copy = items[i].clone();
                            items.insert(i, copy);
                        }
                    }
                }
                Value::Object(map) => {
                    if matches!(change, Change::Remove) {
                        map.remove(&key);
                    }
                }
                _ => {}
            }
        }
        _ => {
            let Some(slot) = root.pointer_mut(pointer) else { return };
            *slot = match change {
                Change::Number(n) => Value::from(*n),
                Change::Unsigned(n) => Value::from(*n),
                Change::Nudge(d) => match slot.as_i64() {
                    Some(n) => Value::from(n.saturating_add(i64::from(*d))),
                    None => match slot.as_u64() {
                        Some(n) => Value::from(n.saturating_add_signed(i64::from(*d))),
                        None => Value::from(i64::from(*d)),
                    },
                },
                Change::Float(f) => serde_json::Number::from_f64(*f).map_or(Value::Null, Value::Number),
                Change::Bool(b) => Value::Bool(*b),
                Change::Null => Value::Null,
                Change::Text(t) => Value::String(t.clone()),
                Change::EmptyArray => Value::Array(Vec::new()),
                Change::EmptyObject => Value::Object(serde_json::Map::new()),
                Change::Remove | Change::Duplicate => return,
            };
        }
    }
}

/// A snapshot text from the input: raw bytes, or a golden one changed.
fn document(data: &[u8]) -> Option<String> {
    let (&mode, rest) = data.split_first()?;
    if mode & 1 == 0 {
        return std::str::from_utf8(rest).ok().map(str::to_owned);
    }
    let mut u = Unstructured::new(rest);
    static PARSED: OnceLock<Vec<Value>> = OnceLock::new();
    let golden = PARSED.get_or_init(|| {
        GOLDEN
            .iter()
            .map(|g| serde_json::from_str(g).expect("golden JSON"))
            .collect()
    });
    let mut root = golden[usize::from(mode >> 1) % golden.len()].clone();
    // The newest 0 to 2 undo steps only: a golden snapshot holds 20 (most
    // of its 200 kB), and a short document keeps each input fast.
    let keep = usize::from(u.int_in_range(0..=2u8).ok()?);
    if let Some(Value::Array(history)) = root.get_mut("history") {
        let drop = history.len().saturating_sub(keep);
        history.drain(..drop);
    }
    let changes = u.int_in_range(1..=4u8).ok()?;
    for _ in 0..changes {
        let mut all = Vec::new();
        pointers(&root, String::new(), &mut all);
        let at = u.choose(&all).ok()?.clone();
        let change = Change::arbitrary(&mut u).ok()?;
        mutate(&mut root, &at, &change);
    }
    Some(root.to_string())
}

/// `restore(snapshot(e)) == e`, and its snapshot is the same text.
fn round_trip(e: &Encounter) -> String {
    let json = e.snapshot().expect("an accepted encounter snapshots");
    let again = Encounter::restore(&json).unwrap_or_else(|err| panic!("own snapshot refused: {err}\n{json}"));
    assert!(again == as_saved(e), "restore(snapshot(e)) differs from e\n{json}");
    assert_eq!(again.snapshot().expect("snapshots"), json, "a second snapshot differs");
    json
}

fuzz_target!(|data: &[u8]| {
    let Some(json) = document(data) else { return };
    let mut a = match Encounter::restore(&json) {
        Ok(e) => e,
        Err(err) => {
            assert_eq!(err.kind(), ErrorKind::BadSnapshot, "refused with the wrong kind: {err}");
            return;
        }
    };
    round_trip(&a);
    let mut b = Encounter::restore(&json).expect("restores twice");
    let _ = a.view(ViewFor::Gm);
    let _ = a.view(ViewFor::Players);
    let _ = a.tick_sheet();
    let _ = a.continuation();
    let n = a.combatants().len() as u32;
    for step in 0..6u32 {
        let (ra, rb) = if step % 3 == 2 && n > 1 {
            let (x, y) = (CombatantId(step % n), CombatantId((step + 1) % n));
            (
                format!("{:?}", a.strike(x, y, EncounterStrikeOptions::default(), StrikeDice::default())),
                format!("{:?}", b.strike(x, y, EncounterStrikeOptions::default(), StrikeDice::default())),
            )
        } else if step == 4 {
            (format!("{:?}", a.undo()), format!("{:?}", b.undo()))
        } else {
            (format!("{:?}", a.next()), format!("{:?}", b.next()))
        };
        assert_eq!(ra, rb, "two restored copies went on differently at step {step}");
        assert!(!ra.contains("Internal"), "internal error at step {step}: {ra}");
    }
    round_trip(&a);
});
