//! The scheduler at the edges of its inputs: random operation sequences
//! under all six timing systems, every number drawn from its whole range
//! (`MIN`, `MAX`, the documented limits and their neighbours, ids far out
//! of range), in the debug profile (overflow checks on). Nothing panics; a
//! refused operation leaves the scheduler exactly as it was; ticks never
//! go backwards and never pass `MAX_TICK`. Then snapshots: a scheduler
//! restored from its JSON snapshot at any point continues identically, and
//! corrupt snapshots are errors.

use proptest::prelude::*;
use serde_json::{Value, json};
use skirmish_core::dice::{Dice, SeededRolls};
use skirmish_core::tables::weapons::RateOfFire;
use skirmish_core::timing::queue::EventId;
use skirmish_core::timing::{
    ActionBlocksConfig, ActionKind, ActorId, ActorTiming, ContinuousConfig, Declaration, GmTiming, GraduatedConfig,
    InitiativeEntry, MAX_ACTIONS, MAX_BONUS, MAX_DURATION, MAX_REFLEXES, MAX_TICK, PastEnd, Scheduler,
    SchedulerSnapshot, Step, TickSystemConfig, TimingSystem,
};

/// Any `u32`, weighted towards the values that matter: small ones, the
/// documented limits and their neighbours, and the extremes.
fn any_u32() -> impl Strategy<Value = u32> {
    prop_oneof![
        4 => 0u32..12,
        1 => any::<u32>(),
        1 => prop::sample::select(vec![
            MAX_DURATION - 1, MAX_DURATION, MAX_DURATION + 1, MAX_ACTIONS, MAX_ACTIONS + 1,
            u32::MAX - 1, u32::MAX, 1 << 31,
        ]),
    ]
}

fn any_i32() -> impl Strategy<Value = i32> {
    prop_oneof![
        4 => -4i32..12,
        1 => any::<i32>(),
        1 => prop::sample::select(vec![
            i32::MIN, i32::MIN + 1, i32::MAX, -MAX_BONUS - 1, -MAX_BONUS, MAX_BONUS, MAX_BONUS + 1,
            MAX_REFLEXES, MAX_REFLEXES + 1, -MAX_REFLEXES - 1, MAX_DURATION as i32, MAX_DURATION as i32 + 1,
        ]),
    ]
}

fn any_i64() -> impl Strategy<Value = i64> {
    prop_oneof![
        4 => -3i64..25,
        1 => any::<i64>(),
        1 => prop::sample::select(vec![
            i64::MIN, i64::MAX, i64::from(MAX_DURATION), i64::from(MAX_DURATION) + 1,
            2 * i64::from(MAX_BONUS), 2 * i64::from(MAX_BONUS) + 1, -i64::from(MAX_BONUS) - 1,
        ]),
    ]
}

fn any_u64() -> impl Strategy<Value = u64> {
    prop_oneof![
        4 => 0u64..40,
        1 => any::<u64>(),
        1 => prop::sample::select(vec![
            u64::MAX, u64::MAX - 1, MAX_TICK - 1, MAX_TICK, MAX_TICK + 1, 1 << 53, i64::MAX as u64,
            (i64::MAX as u64) + 1,
        ]),
    ]
}

/// An actor id: mostly one that may exist, sometimes far out of range.
fn any_actor() -> impl Strategy<Value = u32> {
    prop_oneof![6 => 0u32..8, 1 => any::<u32>(), 1 => Just(u32::MAX)]
}

fn any_kind() -> impl Strategy<Value = ActionKind> {
    prop_oneof![
        Just(ActionKind::Attack),
        any::<bool>().prop_map(|new_target| ActionKind::RangedAttack { new_target }),
        Just(ActionKind::Prepare),
        Just(ActionKind::NonCombat),
    ]
}

fn any_declaration() -> impl Strategy<Value = Declaration> {
    (
        (any_i32(), any_i32(), any_u32(), any_u32(), any_u32()),
        (
            any_kind(),
            any::<bool>(),
            prop::option::of(any_u32()),
            any_i32(),
            prop::option::of(prop_oneof![
                any_u32().prop_map(GmTiming::ReadyTime),
                any_u64().prop_map(GmTiming::LandingTick),
            ]),
        ),
    )
        .prop_map(
            |(
                (time_taken, speed_bonus, shots, rounds, extra_attacks),
                (kind, disruptible, action_ticks, extra_preparation, gm),
            )| {
                Declaration {
                    time_taken,
                    speed_bonus,
                    rate_of_fire: RateOfFire::new(shots, rounds).unwrap_or(RateOfFire::ONE),
                    extra_attacks,
                    kind,
                    disruptible,
                    action_ticks,
                    extra_preparation,
                    gm,
                }
            },
        )
}

/// Mostly a declaration a table would make, sometimes any at all.
fn declaration() -> impl Strategy<Value = Declaration> {
    prop_oneof![
        3 => (0i32..9, -2i32..3, any_kind(), any::<bool>()).prop_map(|(tt, bonus, kind, disruptible)| Declaration {
            kind,
            disruptible,
            ..Declaration::new(tt, bonus)
        }),
        2 => any_declaration(),
    ]
}

fn any_timing() -> impl Strategy<Value = ActorTiming> {
    prop_oneof![
        3 => (-2i32..5, 0u32..8, 0i32..10, 0i32..5).prop_map(|(initiative_bonus, interval, reflexes, combat_sense)| ActorTiming {
            initiative_bonus,
            interval,
            reflexes,
            combat_sense,
        }),
        1 => (any_i32(), any_u32(), any_i32(), any_i32()).prop_map(|(initiative_bonus, interval, reflexes, combat_sense)| ActorTiming {
            initiative_bonus,
            interval,
            reflexes,
            combat_sense,
        }),
    ]
}

fn any_entry() -> impl Strategy<Value = InitiativeEntry> {
    prop_oneof![
        any_i32().prop_map(InitiativeEntry::Roll),
        any_i64().prop_map(InitiativeEntry::Total)
    ]
}

fn any_dice() -> impl Strategy<Value = Dice> {
    prop_oneof![
        4 => Just(Dice::D20),
        1 => any_u32().prop_map(|count| Dice::Fudge { count }),
        1 => (any_u32(), any_u32()).prop_map(|(count, sides)| Dice::Standard { count, sides }),
    ]
}

/// System `n % 6` with its options: mostly the defaults or sensible ones,
/// sometimes any values at all (then `Scheduler::new` takes them unchecked).
fn system() -> impl Strategy<Value = TimingSystem> {
    let past_end = prop::sample::select(vec![
        PastEnd::Extend,
        PastEnd::Spill,
        PastEnd::EndOfRound,
        PastEnd::Lose,
    ]);
    let wide = prop::bool::weighted(0.15);
    (
        0usize..6,
        past_end,
        wide,
        any_u32(),
        any_u32(),
        any_u32(),
        any_u32(),
        any_dice(),
        any_i32(),
    )
        .prop_map(|(n, past_end, wide, a, b, c, d, die, bonus)| match n {
            0 => TimingSystem::Simultaneous,
            1 => TimingSystem::SimpleRounds,
            2 => TimingSystem::GraduatedRounds(GraduatedConfig {
                ticks_per_round: if wide { a } else { 5 + a % 20 },
                past_end,
            }),
            3 => TimingSystem::Continuous(ContinuousConfig {
                lap: if wide { a } else { 20 },
            }),
            4 if wide => TimingSystem::TickSystem(TickSystemConfig {
                initiative_die: die,
                action_ticks: a,
                free_action_ticks: b,
                acquire_ticks: c,
                prepare_defense_bonus: bonus,
            }),
            4 => TimingSystem::tick_system(),
            _ if wide => TimingSystem::ActionBlocks(ActionBlocksConfig {
                die: if d % 2 == 0 { Dice::D6 } else { die },
                divisor: b,
            }),
            _ => TimingSystem::action_blocks(),
        })
}

#[derive(Debug, Clone)]
enum Op {
    Add(ActorTiming, Declaration),
    Remove(u32),
    SetInitiative(u32, InitiativeEntry),
    Declare(u32, Declaration),
    Cancel(u32),
    Disrupt(u32),
    FreeAction(u32, Option<u32>, bool),
    Interrupt(u32, bool),
    TakeHeldTurn(u32),
    Delay(u32, u32),
    SetTimer(u32, u64),
    /// A timer id handed out earlier (by index), or a made-up one.
    CancelTimer(usize, Option<(u32, u32)>),
    Next,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        2 => (any_timing(), declaration()).prop_map(|(t, d)| Op::Add(t, d)),
        1 => any_actor().prop_map(Op::Remove),
        2 => (any_actor(), any_entry()).prop_map(|(w, e)| Op::SetInitiative(w, e)),
        4 => (any_actor(), declaration()).prop_map(|(w, d)| Op::Declare(w, d)),
        1 => any_actor().prop_map(Op::Cancel),
        1 => any_actor().prop_map(Op::Disrupt),
        1 => (any_actor(), prop::option::of(any_u32()), any::<bool>()).prop_map(|(w, t, d)| Op::FreeAction(w, t, d)),
        1 => (any_actor(), any::<bool>()).prop_map(|(w, k)| Op::Interrupt(w, k)),
        1 => any_actor().prop_map(Op::TakeHeldTurn),
        2 => (any_actor(), any_u32()).prop_map(|(w, t)| Op::Delay(w, t)),
        2 => (any_u32(), any_u64()).prop_map(|(id, t)| Op::SetTimer(id, t)),
        1 => (any::<usize>(), prop::option::of((any_u32(), any_u32()))).prop_map(|(i, made_up)| Op::CancelTimer(i, made_up)),
        12 => Just(Op::Next),
    ]
}

/// An `EventId` the caller never got (its fields are private: via serde).
fn made_up_id(slot: u32, generation: u32) -> EventId {
    serde_json::from_value(json!({ "slot": slot, "generation": generation })).unwrap()
}

/// What an operation gave back, for comparing two schedulers run side by side.
#[derive(Debug, PartialEq)]
enum Outcome {
    Refused(String),
    Done(String),
}

/// Runs one operation; returns its outcome and, for `next`, the step.
fn apply(s: &mut Scheduler, rolls: &mut SeededRolls, timers: &mut Vec<EventId>, op: &Op) -> (Outcome, Option<Step>) {
    let mut step = None;
    let r: skirmish_core::Result<String> = match op {
        Op::Add(t, d) => s.add(*t, *d).map(|id| format!("{id}")),
        Op::Remove(w) => s.remove(ActorId(*w)).map(|()| String::new()),
        Op::SetInitiative(w, e) => s.set_initiative(ActorId(*w), *e).map(|()| String::new()),
        Op::Declare(w, d) => s.declare(ActorId(*w), *d, rolls).map(|t| format!("{t:?}")),
        Op::Cancel(w) => s.cancel(ActorId(*w)).map(|t| format!("{t:?}")),
        Op::Disrupt(w) => s.disrupt(ActorId(*w)).map(|t| format!("{t:?}")),
        Op::FreeAction(w, t, d) => s.free_action(ActorId(*w), *t, *d).map(|r| format!("{r:?}")),
        Op::Interrupt(w, k) => s.interrupt(ActorId(*w), *k).map(|r| format!("{r:?}")),
        Op::TakeHeldTurn(w) => s.take_held_turn(ActorId(*w)).map(|a| format!("{a:?}")),
        Op::Delay(w, t) => s.delay(ActorId(*w), *t).map(|t| format!("{t}")),
        Op::SetTimer(id, t) => s.set_timer(*id, *t).map(|e| {
            timers.push(e);
            format!("{e:?}")
        }),
        Op::CancelTimer(i, made_up) => {
            let id = match made_up {
                Some((slot, generation)) => made_up_id(*slot, *generation),
                None if timers.is_empty() => made_up_id(0, 0),
                None => timers[i % timers.len()],
            };
            Ok(format!("{}", s.cancel_timer(id)))
        }
        Op::Next => {
            let mut acts = Vec::new();
            s.next(rolls, &mut acts).map(|r| {
                step = r;
                format!("{r:?} {acts:?}")
            })
        }
    };
    match r {
        Ok(v) => (Outcome::Done(v), step),
        Err(e) => (Outcome::Refused(e.to_string()), None),
    }
}

/// The tick sheet is in order, after now and within `MAX_TICK`.
fn check_sheet(s: &Scheduler) -> Result<(), TestCaseError> {
    let sheet = s.pending();
    for p in &sheet {
        prop_assert!(p.at.tick > s.now(), "{p:?} is not after now {}", s.now());
        prop_assert!(p.at.tick <= MAX_TICK, "{p:?} is past MAX_TICK");
    }
    prop_assert!(sheet.windows(2).all(|w| w[0].at.tick <= w[1].at.tick));
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    /// Nothing panics, refusals change nothing, time only moves forward.
    #[test]
    fn any_input_is_an_answer_or_an_error_that_changes_nothing(
        system in system(),
        seed in any::<u64>(),
        actors in prop::collection::vec((any_timing(), declaration()), 0..6),
        ops in prop::collection::vec(op(), 1..80),
    ) {
        let mut rolls = SeededRolls::new(seed);
        let mut s = Scheduler::new(system);
        let mut timers = Vec::new();
        for (t, d) in actors {
            let _ = s.add(t, d);
        }
        let mut last_tick = 0;
        for op in &ops {
            let before = s.clone();
            let (outcome, step) = apply(&mut s, &mut rolls, &mut timers, op);
            if let Outcome::Refused(e) = &outcome {
                prop_assert!(s == before, "{op:?} was refused ({e}) yet changed the scheduler");
            }
            if let Some(Step::Moment(m)) = step {
                prop_assert!(m.tick > last_tick, "moment at {} after {last_tick}", m.tick);
                prop_assert!(m.tick <= MAX_TICK);
                last_tick = m.tick;
            }
            prop_assert!(s.now() >= last_tick);
            check_sheet(&s)?;
            prop_assert!(s.validate().is_ok() || s.system().validate().is_err(), "{:?}", s.validate());
        }
    }

    /// Near the last tick: a timer or a GM landing tick takes the clock
    /// close to `MAX_TICK`, and the fight goes on from there.
    #[test]
    fn close_to_the_last_tick_everything_is_an_answer_or_an_error(
        system in system(),
        seed in any::<u64>(),
        gap in 0u64..3_000_000,
        ops in prop::collection::vec(op(), 1..60),
    ) {
        let mut rolls = SeededRolls::new(seed);
        let mut s = Scheduler::new(system);
        let mut timers = Vec::new();
        let _ = s.add(ActorTiming::default(), Declaration::new(3, 0));
        let _ = s.add(ActorTiming::default(), Declaration::new(5, 1));
        let _ = s.set_timer(0, MAX_TICK - gap);
        let mut last_tick = 0;
        for op in ops.iter().chain(std::iter::repeat_n(&Op::Next, 20)) {
            let before = s.clone();
            let (outcome, step) = apply(&mut s, &mut rolls, &mut timers, op);
            if let Outcome::Refused(e) = &outcome {
                prop_assert!(s == before, "{op:?} was refused ({e}) yet changed the scheduler");
            }
            if let Some(Step::Moment(m)) = step {
                prop_assert!(m.tick > last_tick && m.tick <= MAX_TICK);
                last_tick = m.tick;
            }
            check_sheet(&s)?;
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// A snapshot taken at any point, written as JSON and read back, gives
    /// a scheduler equal to the original that continues identically: the
    /// same answers (moments, acts, handles, refusals) and the same tick
    /// sheet after every operation, with the same rolls.
    #[test]
    fn a_restored_snapshot_continues_identically(
        system in system(),
        seed in any::<u64>(),
        actors in prop::collection::vec((any_timing(), declaration()), 0..6),
        ops in prop::collection::vec(op(), 1..80),
        at in any::<prop::sample::Index>(),
    ) {
        let mut rolls = SeededRolls::new(seed);
        let mut s = Scheduler::new(system);
        let mut timers = Vec::new();
        for (t, d) in actors {
            let _ = s.add(t, d);
        }
        if s.system().validate().is_err() {
            // Bad options (`new` does not check them): not a fight to save.
            prop_assert!(Scheduler::from_snapshot(s.snapshot()).is_err());
            return Ok(());
        }
        let split = at.index(ops.len() + 1);
        for op in &ops[..split] {
            apply(&mut s, &mut rolls, &mut timers, op);
        }
        let json = serde_json::to_string(&s.snapshot()).unwrap();
        let restored = serde_json::from_str(&json).map_err(|e| e.to_string()).and_then(|snapshot| {
            Scheduler::from_snapshot(snapshot).map_err(|e| e.to_string())
        });
        let mut r = match restored {
            Ok(r) => r,
            Err(e) => return Err(TestCaseError::fail(format!("restoring {json} failed: {e}"))),
        };
        prop_assert!(r == s, "the restored scheduler differs");
        prop_assert_eq!(serde_json::to_string(&r.snapshot()).unwrap(), json);
        let mut other_rolls = rolls.clone();
        let mut other_timers = timers.clone();
        for op in ops[split..].iter().chain(std::iter::repeat_n(&Op::Next, 10)) {
            let a = apply(&mut s, &mut rolls, &mut timers, op);
            let b = apply(&mut r, &mut other_rolls, &mut other_timers, op);
            prop_assert_eq!(a, b, "after {:?}", op);
            prop_assert_eq!(s.pending(), r.pending());
            prop_assert_eq!(s.awaiting(), r.awaiting());
        }
        prop_assert!(r == s);
    }

    /// A snapshot with one value changed, removed or repeated is refused
    /// with an error, or (if the change is still a consistent fight)
    /// restores to a scheduler that runs on without panicking.
    #[test]
    fn a_corrupt_snapshot_is_an_error_never_a_panic(
        system in system(),
        seed in any::<u64>(),
        ops in prop::collection::vec(op(), 1..40),
        edits in prop::collection::vec((any::<prop::sample::Index>(), 0usize..16), 1..4),
    ) {
        let mut rolls = SeededRolls::new(seed);
        let mut s = Scheduler::new(system);
        let mut timers = Vec::new();
        for i in 0..3 {
            let _ = s.add(ActorTiming::default(), Declaration::new(2 + i, 0));
        }
        for op in &ops {
            apply(&mut s, &mut rolls, &mut timers, op);
        }
        let mut value = serde_json::to_value(s.snapshot()).unwrap();
        for (at, how) in edits {
            let mut paths = Vec::new();
            paths_of(&value, &mut Vec::new(), &mut paths);
            let path = &paths[at.index(paths.len())];
            corrupt(&mut value, path, how);
        }
        let Ok(snapshot) = serde_json::from_value(value) else {
            return Ok(());
        };
        let Ok(mut r) = Scheduler::from_snapshot(snapshot) else {
            return Ok(());
        };
        prop_assert!(r.validate().is_ok());
        for op in ops.iter().chain(std::iter::repeat_n(&Op::Next, 10)) {
            let before = r.clone();
            let (outcome, _) = apply(&mut r, &mut rolls, &mut timers, op);
            if let Outcome::Refused(e) = &outcome {
                prop_assert!(r == before, "{op:?} was refused ({e}) yet changed the scheduler");
            }
            check_sheet(&r)?;
        }
    }
}

/// A step into a JSON value.
#[derive(Debug, Clone)]
enum Key {
    Field(String),
    Item(usize),
}

/// Every path in `v` (the root too), depth first.
fn paths_of(v: &Value, here: &mut Vec<Key>, out: &mut Vec<Vec<Key>>) {
    out.push(here.clone());
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                here.push(Key::Field(k.clone()));
                paths_of(x, here, out);
                here.pop();
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                here.push(Key::Item(i));
                paths_of(x, here, out);
                here.pop();
            }
        }
        _ => {}
    }
}

/// Changes the value at `path` the `how`-th way: out-of-range and wrong
/// typed values, a removed, repeated or swapped array item, a removed field.
fn corrupt(root: &mut Value, path: &[Key], how: usize) {
    let Some((last, parent_path)) = path.split_last() else {
        *root = json!(null);
        return;
    };
    let mut parent = &mut *root;
    for k in parent_path {
        parent = match k {
            Key::Field(f) => &mut parent[f.as_str()],
            Key::Item(i) => &mut parent[*i],
        };
    }
    let replacement = match how {
        0 => json!(null),
        1 => json!(-1),
        2 => json!(0),
        3 => json!(1),
        4 => json!(u64::MAX),
        5 => json!(i64::MIN),
        6 => json!(u64::from(u32::MAX) + 1),
        7 => json!(MAX_TICK),
        8 => json!("x"),
        9 => json!(true),
        10 => json!(2),
        11 => json!(7),
        _ => {
            match (parent, last) {
                (Value::Object(m), Key::Field(f)) => {
                    m.remove(f);
                }
                (Value::Array(a), Key::Item(i)) => match how {
                    12 => {
                        a.remove(*i);
                    }
                    13 => {
                        let x = a[*i].clone();
                        a.push(x);
                    }
                    _ => {
                        let j = (*i + 1) % a.len();
                        a.swap(*i, j);
                    }
                },
                _ => {}
            }
            return;
        }
    };
    match (parent, last) {
        (Value::Object(m), Key::Field(f)) => {
            m.insert(f.clone(), replacement);
        }
        (Value::Array(a), Key::Item(i)) => a[*i] = replacement,
        _ => {}
    }
}

/// A snapshot of a Tick System fight with an action in progress, a timer
/// and someone awaiting, as JSON.
fn tick_system_snapshot() -> (Scheduler, Value) {
    let mut rolls = SeededRolls::new(5);
    let mut s = Scheduler::new(TimingSystem::tick_system());
    let a = s
        .add(
            ActorTiming {
                interval: 4,
                ..ActorTiming::default()
            },
            Declaration::new(0, 0),
        )
        .unwrap();
    s.add(
        ActorTiming {
            interval: 6,
            ..ActorTiming::default()
        },
        Declaration::new(0, 0),
    )
    .unwrap();
    s.set_timer(9, 3).unwrap();
    let mut acts = Vec::new();
    while !s.is_awaiting(a) {
        s.next(&mut rolls, &mut acts).unwrap();
    }
    s.declare(
        a,
        Declaration {
            kind: ActionKind::NonCombat,
            ..Declaration::new(0, 0)
        },
        &mut rolls,
    )
    .unwrap();
    let v = serde_json::to_value(s.snapshot()).unwrap();
    (s, v)
}

/// A change to a snapshot's JSON.
type Edit = Box<dyn Fn(&mut Value)>;

/// Each of these is refused with an error naming the field.
#[test]
fn corrupt_snapshots_name_the_field() {
    let (s, good) = tick_system_snapshot();
    assert!(Scheduler::from_snapshot(serde_json::from_value(good.clone()).unwrap()).unwrap() == s);
    let now = s.now();
    let cases: Vec<(&str, Edit)> = vec![
        ("version", Box::new(|v| v["version"] = json!(2))),
        ("now", Box::new(|v| v["now"] = json!(MAX_TICK + 1))),
        ("last", Box::new(|v| v["last"] = json!(null))),
        ("awaiting[0]", Box::new(|v| v["awaiting"] = json!([7]))),
        ("awaiting", Box::new(|v| v["actors"][1]["awaiting"] = json!(true))),
        (
            "actors[0].timing.interval",
            Box::new(|v| v["actors"][0]["timing"]["interval"] = json!(u32::MAX)),
        ),
        (
            "actors[1].entry",
            Box::new(|v| v["actors"][1]["entry"] = json!({ "roll": 21 })),
        ),
        (
            "actors[0].chain_round",
            Box::new(|v| v["actors"][0]["chain_round"] = json!(99)),
        ),
        ("events[0].tick", Box::new(move |v| v["events"][0]["tick"] = json!(now))),
        (
            "events[1].event.actor",
            Box::new(|v| v["events"][1]["event"]["actor"] = json!(40)),
        ),
        (
            "events[1]",
            Box::new(|v| {
                let first = v["events"][0]["id"].clone();
                v["events"][1]["id"] = first;
            }),
        ),
        (
            "free_handles",
            Box::new(|v| v["free_handles"] = json!([{ "slot": 90, "generation": 0 }])),
        ),
        (
            "actors[0].in_progress.event",
            Box::new(|v| {
                v["actors"][0]["in_progress"]["event"] = json!({ "slot": 0, "generation": 77 });
            }),
        ),
    ];
    for (field, edit) in cases {
        let mut v = good.clone();
        edit(&mut v);
        let snapshot: SchedulerSnapshot = serde_json::from_value(v).unwrap();
        let Err(err) = Scheduler::from_snapshot(snapshot) else {
            panic!("{field}: the corrupt snapshot was accepted");
        };
        let err = err.to_string();
        assert!(err.starts_with(field), "{field}: got {err}");
    }
}

/// Timer handles the caller keeps stay meaningful across a restore: a
/// pending one cancels its timer, a fired one names nothing new.
#[test]
fn timer_handles_survive_a_restore() {
    let mut rolls = SeededRolls::new(1);
    let mut s = Scheduler::new(TimingSystem::continuous());
    s.add(ActorTiming::default(), Declaration::new(3, 0)).unwrap();
    let soon = s.set_timer(1, 2).unwrap();
    let later = s.set_timer(2, 50).unwrap();
    let mut acts = Vec::new();
    while s.now() < 10 {
        s.next(&mut rolls, &mut acts).unwrap();
    }
    let json = serde_json::to_string(&s.snapshot()).unwrap();
    let mut r = Scheduler::from_snapshot(serde_json::from_str(&json).unwrap()).unwrap();
    let again = r.set_timer(3, 5).unwrap();
    assert_ne!(again, soon, "a fired timer's handle was given to a new one");
    assert_eq!(again, s.set_timer(3, 5).unwrap());
    assert!(!r.cancel_timer(soon));
    assert!(r.cancel_timer(later));
    assert!(
        !r.pending()
            .iter()
            .any(|p| p.act == skirmish_core::timing::Act::Timer { id: 2 })
    );
}

/// Graduated, Spill: a change of mind about an action spilled from the last
/// round replaces that action in its own chain. It used to take the place
/// of this round's first action, so the actor acted twice as "action 1" and
/// was listed twice as awaiting (found by the property test above; the
/// case is kept in its regressions file too).
#[test]
fn a_change_of_mind_on_a_spilled_action_keeps_its_place() {
    let system = TimingSystem::GraduatedRounds(GraduatedConfig {
        ticks_per_round: 9,
        past_end: PastEnd::Spill,
    });
    let mut rolls = SeededRolls::new(780_217_848_177_934_479);
    let mut s = Scheduler::new(system);
    let t = ActorTiming::default();
    let mut quick = Declaration::new(5, 5);
    quick.extra_attacks = 3;
    quick.extra_preparation = 4;
    s.add(t, Declaration::new(1, -1)).unwrap();
    s.add(t, quick).unwrap();
    let mut acts = Vec::new();
    // Round 3 begins with actor 1's spilled action pending before its first.
    while s.round() < 3 {
        s.next(&mut rolls, &mut acts).unwrap();
    }
    let mine = |s: &Scheduler| s.pending().iter().filter(|p| p.act.actor() == Some(ActorId(1))).count();
    assert_eq!(mine(&s), 2, "{:?}", s.pending());
    s.declare(ActorId(1), Declaration::new(2, -1), &mut rolls).unwrap();
    assert_eq!(mine(&s), 2, "{:?}", s.pending());
    while s.pending().iter().any(|p| p.act.actor() == Some(ActorId(1))) {
        acts.clear();
        s.next(&mut rolls, &mut acts).unwrap();
        s.validate().unwrap();
    }
    assert!(s.awaiting().iter().filter(|&&a| a == ActorId(1)).count() <= 1);
    let snap = s.snapshot();
    assert_eq!(Scheduler::from_snapshot(snap).unwrap(), s);
}
