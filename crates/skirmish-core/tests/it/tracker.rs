//! The Encounter tracker: groups, late joiners, effects, undo, snapshots,
//! bad operations, and property tests of the scheduler underneath.

use proptest::prelude::*;
use skirmish_core::timing::{
    Act, ActionKind, ActorId, ActorTiming, Declaration, GmTiming, InitiativeEntry, PastEnd, Scheduler, Step,
    TimingSystem,
};
use skirmish_core::tracker::{
    CombatantId, CombatantSpec, Duration, Encounter, ErrorKind, SNAPSHOT_HISTORY, SNAPSHOT_VERSION, TrackerError, Turn,
};

fn spec(name: &str, tt: i32) -> CombatantSpec {
    CombatantSpec::new(name, Declaration::new(tt, 0))
}

fn all_systems() -> Vec<TimingSystem> {
    let mut v: Vec<TimingSystem> = TimingSystem::NAMES
        .iter()
        .map(|n| TimingSystem::by_name(n).unwrap())
        .collect();
    for past_end in [PastEnd::Spill, PastEnd::EndOfRound, PastEnd::Lose] {
        v.push(TimingSystem::GraduatedRounds(skirmish_core::timing::GraduatedConfig {
            ticks_per_round: 20,
            past_end,
        }));
    }
    v
}

fn names(turn: &Turn) -> Vec<String> {
    match turn {
        Turn::Moment { lines, .. } => lines.iter().map(|l| l.name.clone()).collect(),
        _ => Vec::new(),
    }
}

#[test]
fn a_group_shares_one_line_and_falls_one_by_one() {
    let mut e = Encounter::new(TimingSystem::continuous(), 3).unwrap();
    let hero = e.add_combatant(spec("Hero", 4)).unwrap();
    let goblins = e.add_group("Goblins", 5, spec("goblin", 8)).unwrap();
    assert_eq!(goblins.len(), 5);
    assert_eq!(e.combatants()[2].name, "Goblins 2");
    assert_eq!(e.combatants()[2].group.as_deref(), Some("Goblins"));
    e.set_initiative(goblins[3], InitiativeEntry::Total(2)).unwrap();
    e.set_initiative(hero, InitiativeEntry::Total(5)).unwrap();
    let Turn::NewRound { sheet, .. } = e.next().unwrap() else {
        panic!()
    };
    assert_eq!(sheet.len(), 2);
    assert_eq!(sheet[0].lines[0].name, "Goblins");
    assert_eq!(sheet[0].lines[0].members.len(), 5);
    e.down(goblins[0]).unwrap();
    e.down(goblins[4]).unwrap();
    let Turn::Moment { lines, .. } = e.next().unwrap() else {
        panic!()
    };
    assert_eq!(lines[0].name, "Goblins");
    assert_eq!(lines[0].members, vec![goblins[1], goblins[2], goblins[3]]);
    for g in &goblins[1..4] {
        e.down(*g).unwrap();
    }
    // The whole group is down: only the hero is left on the sheet.
    assert!(e.awaiting().is_empty());
    let sheet = e.tick_sheet();
    assert_eq!(sheet.len(), 1);
    assert_eq!(sheet[0].lines[0].name, "Hero");
    assert!(e.down(goblins[0]).is_err(), "already down");
}

#[test]
fn late_joiners() {
    // Continuous: a late joiner rolls initiative from the current tick.
    let mut e = Encounter::new(TimingSystem::continuous(), 1).unwrap();
    let a = e.add_combatant(spec("A", 3)).unwrap();
    e.set_initiative(a, InitiativeEntry::Total(4)).unwrap();
    e.next().unwrap();
    assert_eq!(names(&e.next().unwrap()), ["A"]);
    let b = e.add_combatant(spec("B", 3)).unwrap();
    e.set_initiative(b, InitiativeEntry::Total(2)).unwrap();
    e.declare(a, "again", Declaration::new(3, 0).with_ready_time(5), None)
        .unwrap();
    let t = e.next().unwrap();
    let Turn::Moment { moment, .. } = &t else {
        panic!("{t:?}")
    };
    assert_eq!(
        (moment.tick, names(&t)),
        (6, vec!["B".to_string()]),
        "joined at tick 4 + 2"
    );

    // Simple Rounds: a late joiner waits for the next round.
    let mut e = Encounter::new(TimingSystem::SimpleRounds, 1).unwrap();
    e.add_combatant(spec("A", 3)).unwrap();
    e.next().unwrap();
    e.add_combatant(spec("B", 0)).unwrap();
    assert_eq!(e.tick_sheet().iter().flat_map(|l| l.lines.iter()).count(), 1);
    e.next().unwrap();
    let Turn::NewRound { sheet, .. } = e.next().unwrap() else {
        panic!()
    };
    assert_eq!(sheet.iter().flat_map(|l| l.lines.iter()).count(), 2);
}

#[test]
fn effects_run_out_in_ticks_or_rounds() {
    let mut e = Encounter::new(TimingSystem::continuous(), 9).unwrap();
    let a = e.add_combatant(spec("A", 10)).unwrap();
    e.set_initiative(a, InitiativeEntry::Total(12)).unwrap();
    e.next().unwrap();
    let gas = e.add_effect("gas cloud", None, Duration::Ticks(5)).unwrap();
    assert_eq!(e.tick_sheet()[0].effects, ["gas cloud"]);
    match e.next().unwrap() {
        Turn::Moment { moment, lines, expired } => {
            assert_eq!(moment.tick, 5);
            assert!(lines.is_empty());
            assert_eq!(expired[0].id, gas);
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(names(&e.next().unwrap()), ["A"]);

    let mut e = Encounter::new(TimingSystem::SimpleRounds, 9).unwrap();
    let a = e.add_combatant(spec("A", 1)).unwrap();
    e.next().unwrap();
    let bless = e.add_effect("bless", Some(a), Duration::Rounds(1)).unwrap();
    e.next().unwrap();
    match e.next().unwrap() {
        Turn::NewRound { round: 2, expired, .. } => assert_eq!(expired[0].id, bless),
        other => panic!("{other:?}"),
    }
    let ward = e.add_effect("ward", None, Duration::Ticks(1000)).unwrap();
    assert!(e.end_effect(ward).unwrap());
    assert!(!e.end_effect(ward).unwrap());
}

#[test]
fn delay_and_cancel() {
    let mut e = Encounter::new(TimingSystem::continuous(), 2).unwrap();
    let a = e.add_combatant(spec("A", 3)).unwrap();
    let b = e.add_combatant(spec("B", 3)).unwrap();
    e.set_initiative(a, InitiativeEntry::Total(3)).unwrap();
    e.set_initiative(b, InitiativeEntry::Total(5)).unwrap();
    e.next().unwrap();
    assert_eq!(e.delay(a, 4).unwrap(), 7);
    assert_eq!(names(&e.next().unwrap()), ["B"]);
    assert!(e.cancel(a).unwrap());
    assert!(!e.cancel(a).unwrap(), "nothing left to cancel");
    assert_eq!(e.awaiting(), ["B", "A"]);
}

#[test]
fn undo_goes_back_any_number_of_steps() {
    let mut e = Encounter::new(TimingSystem::graduated(), 5).unwrap();
    let mut snaps = vec![e.snapshot().unwrap()];
    let a = e.add_combatant(spec("A", 2)).unwrap();
    snaps.push(e.snapshot().unwrap());
    e.add_combatant(spec("B", 5)).unwrap();
    for _ in 0..6 {
        snaps.push(e.snapshot().unwrap());
        e.next().unwrap();
    }
    snaps.push(e.snapshot().unwrap());
    e.down(a).unwrap();
    let log_len = e.log().len();
    assert!(log_len > 6);
    while let Some(want) = snaps.pop() {
        e.undo().unwrap();
        assert_eq!(e.snapshot().unwrap(), want);
    }
    assert_eq!(e.undo_depth(), 0);
    assert!(e.undo().is_err());
    assert!(e.log().is_empty());
}

#[test]
fn bad_operations_are_typed_errors_and_change_nothing() {
    let mut e = Encounter::new(TimingSystem::continuous(), 11).unwrap();
    // `next` on an empty encounter.
    let err = e.next().unwrap_err();
    assert!(err.to_string().contains("no combatants"), "{err}");
    let a = e.add_combatant(spec("A", 3)).unwrap();
    let b = e.add_combatant(spec("B", 3)).unwrap();
    e.next().unwrap();
    e.down(b).unwrap();
    let before = e.snapshot().unwrap();
    let depth = e.undo_depth();
    let unknown = CombatantId(99);
    let errors: Vec<TrackerError> = vec![
        e.declare(unknown, "x", Declaration::new(3, 0), None).unwrap_err(),
        e.down(unknown).unwrap_err(),
        e.set_initiative(unknown, InitiativeEntry::Total(3)).unwrap_err(),
        // A downed combatant.
        e.declare(b, "x", Declaration::new(3, 0), None).unwrap_err(),
        e.delay(b, 2).unwrap_err(),
        e.cancel(b).unwrap_err(),
        // Negative Time Taken.
        e.declare(a, "x", Declaration::new(-1, 0), None).unwrap_err(),
        e.add_combatant(spec("C", -5)).unwrap_err(),
        // Out-of-range rolls typed in from the table: 2dF cannot show 3, 4dF cannot show 5.
        e.declare(a, "x", Declaration::new(3, 0), Some(3)).unwrap_err(),
        e.set_initiative(a, InitiativeEntry::Roll(5)).unwrap_err(),
        e.set_initiative(a, InitiativeEntry::Total(0)).unwrap_err(),
        // Rules that belong to other systems.
        e.free_action(a, None, true).unwrap_err(),
        e.hold(a).unwrap_err(),
        e.add_group("G", 0, spec("g", 1)).unwrap_err(),
        e.add_combatant(spec(" ", 1)).unwrap_err(),
        e.add_effect("x", Some(unknown), Duration::Ticks(3)).unwrap_err(),
        e.add_effect("x", None, Duration::Ticks(0)).unwrap_err(),
    ];
    for err in &errors {
        assert!(!err.to_string().is_empty());
    }
    // The kinds an app branches on.
    let kinds: Vec<ErrorKind> = errors.iter().map(TrackerError::kind).collect();
    use ErrorKind::*;
    assert_eq!(
        kinds,
        [
            NotFound,
            NotFound,
            NotFound,
            NotNow,
            NotNow,
            NotNow,
            InvalidInput,
            InvalidInput,
            InvalidInput,
            InvalidInput,
            InvalidInput,
            NotNow,
            NotNow,
            InvalidInput,
            InvalidInput,
            NotFound,
            InvalidInput
        ]
    );
    assert_eq!(errors[6].field(), Some("declaration.time_taken"));
    assert_eq!(
        errors[8].field(),
        Some("roll"),
        "a typed roll the dice cannot show names the roll"
    );
    assert_eq!(errors[11].field(), Some("free_action"));
    assert!(errors[0].to_string().contains("combatant"), "{}", errors[0]);
    assert!(
        errors[6].to_string().contains("declaration.time_taken"),
        "{}",
        errors[6]
    );
    assert!(errors[8].to_string().contains("2dF"), "{}", errors[8]);
    assert_eq!(
        e.snapshot().unwrap(),
        before,
        "a refused operation changed the encounter"
    );
    assert_eq!(e.undo_depth(), depth);
}

#[test]
fn corrupt_snapshots_are_errors() {
    let mut e = Encounter::new(TimingSystem::tick_system(), 4).unwrap();
    e.add_combatant(spec("A", 0)).unwrap();
    e.next().unwrap();
    let good = e.snapshot().unwrap();
    assert_eq!(Encounter::restore(&good).unwrap(), e);
    let bad_version = good.replacen(&format!("\"version\":{SNAPSHOT_VERSION}"), "\"version\":99", 1);
    assert_ne!(bad_version, good);
    let truncated = &good[..good.len() / 2];
    let bad_rng = good.replacen("pcg64_fast_state\":\"", "pcg64_fast_state\":\"zz", 1);
    let extra = good.replacen('{', "{\"surprise\":1,", 1);
    let no_lines = good.replacen("\"lines\":[", "\"lines\":[],\"x\":[", 1);
    for bad in [
        "",
        "null",
        "{}",
        "[1,2]",
        truncated,
        bad_version.as_str(),
        bad_rng.as_str(),
        extra.as_str(),
        no_lines.as_str(),
    ] {
        let err = Encounter::restore(bad).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::BadSnapshot, "{err}");
        assert!(err.to_string().contains("snapshot"), "{err}");
    }
}

#[test]
fn timing_systems_by_name() {
    for (name, want) in [
        ("Graduated", "graduated-rounds"),
        ("tick system", "tick-system"),
        ("FUZION", "action-blocks"),
        ("simple_rounds", "simple-rounds"),
    ] {
        assert_eq!(TimingSystem::by_name(name).unwrap().name(), want);
    }
    let err = TimingSystem::by_name("continous").unwrap_err();
    assert!(err.to_string().contains("did you mean \"continuous\""), "{err}");
    let from_toml: TimingSystem =
        toml::from_str("system = \"graduated_rounds\"\nticks_per_round = 10\npast_end = \"spill\"").unwrap();
    assert_eq!(
        from_toml,
        TimingSystem::by_name("graduated").map(|_| from_toml.clone()).unwrap()
    );
    assert!(toml::from_str::<TimingSystem>("system = \"graduated_rounds\"\nticks = 10").is_err());
    assert!(
        Scheduler::try_new(TimingSystem::GraduatedRounds(skirmish_core::timing::GraduatedConfig {
            ticks_per_round: 0,
            past_end: PastEnd::Extend
        }))
        .is_err()
    );
}

// ---------------------------------------------------------------------------
// Property tests

#[derive(Debug, Clone)]
enum Op {
    Next,
    Declare {
        who: u32,
        tt: i32,
        bonus: i32,
        roll: Option<i32>,
        gm: Option<u32>,
        kind: u8,
    },
    Cancel(u32),
    Disrupt(u32),
    Down(u32),
    Delay(u32, u32),
    Add(i32),
    Initiative(u32, i64),
    Effect(u64),
    Free(u32, u32),
    Hold(u32),
    Undo,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        8 => Just(Op::Next),
        3 => (0u32..8, -1i32..10, -2i32..3, proptest::option::of(-3i32..4), proptest::option::of(0u32..8), 0u8..4)
            .prop_map(|(who, tt, bonus, roll, gm, kind)| Op::Declare { who, tt, bonus, roll, gm, kind }),
        1 => (0u32..8).prop_map(Op::Cancel),
        1 => (0u32..8).prop_map(Op::Disrupt),
        1 => (0u32..8).prop_map(Op::Down),
        1 => (0u32..8, 0u32..4).prop_map(|(w, t)| Op::Delay(w, t)),
        1 => (-1i32..9).prop_map(Op::Add),
        1 => (0u32..8, -1i64..25).prop_map(|(w, t)| Op::Initiative(w, t)),
        1 => (0u64..30).prop_map(Op::Effect),
        1 => (0u32..8, 0u32..5).prop_map(|(w, t)| Op::Free(w, t)),
        1 => (0u32..8).prop_map(Op::Hold),
        1 => Just(Op::Undo),
    ]
}

/// Applies `op`; returns a printable outcome (for comparing two runs).
fn apply(e: &mut Encounter, op: &Op) -> String {
    let id = CombatantId;
    let r = match op {
        Op::Next => e.next().map(|t| format!("{t:?}")),
        Op::Declare {
            who,
            tt,
            bonus,
            roll,
            gm,
            kind,
        } => {
            let mut d = Declaration::new(*tt, *bonus);
            d.gm = gm.map(GmTiming::ReadyTime);
            d.kind = match kind {
                0 => ActionKind::Attack,
                1 => ActionKind::RangedAttack { new_target: true },
                2 => ActionKind::NonCombat,
                _ => ActionKind::Prepare,
            };
            d.disruptible = *tt % 2 == 0;
            e.declare(id(*who), "act", d, *roll).map(|t| format!("{t:?}"))
        }
        Op::Cancel(w) => e.cancel(id(*w)).map(|x| x.to_string()),
        Op::Disrupt(w) => e.disrupt(id(*w)).map(|x| x.to_string()),
        Op::Down(w) => e.down(id(*w)).map(|_| String::new()),
        Op::Delay(w, t) => e.delay(id(*w), *t).map(|x| x.to_string()),
        Op::Add(tt) => e.add_combatant(spec("late", *tt)).map(|x| format!("{x:?}")),
        Op::Initiative(w, t) => e
            .set_initiative(id(*w), InitiativeEntry::Total(*t))
            .map(|_| String::new()),
        Op::Effect(t) => e.add_effect("fx", None, Duration::Ticks(*t)).map(|x| format!("{x:?}")),
        Op::Free(w, t) => e.free_action(id(*w), Some(*t), true).map(|x| format!("{x:?}")),
        Op::Hold(w) => e.hold(id(*w)).map(|x| format!("{x:?}")),
        Op::Undo => e.undo().map(|_| String::new()),
    };
    match r {
        Ok(s) => s,
        Err(err) => format!("error: {err}"),
    }
}

fn encounter(system: &TimingSystem, seed: u64, n: usize) -> Encounter {
    let mut e = Encounter::new(system.clone(), seed).unwrap();
    for i in 0..n {
        let timing = ActorTiming {
            initiative_bonus: i as i32 % 3,
            interval: 1 + i as u32 % 4,
            reflexes: 3 + i as i32,
            combat_sense: i as i32 % 2,
        };
        e.add_combatant(spec(&format!("c{i}"), 1 + (i as i32 * 3) % 8).with_timing(timing))
            .unwrap();
    }
    e
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(120))]

    /// Any operation either succeeds, and undo then restores the previous
    /// state exactly, or fails and changes nothing. (Equality compares the
    /// state, the undo history and the log; a final snapshot comparison
    /// pins the byte-exact form.)
    #[test]
    fn undo_restores_and_errors_change_nothing(sys in 0usize..9, seed in any::<u64>(), n in 1usize..6, ops in prop::collection::vec(op(), 1..60)) {
        let system = &all_systems()[sys];
        let mut e = encounter(system, seed, n);
        for op in &ops {
            if matches!(op, Op::Undo) { continue; }
            let before = e.clone();
            let out = apply(&mut e, op);
            if out.starts_with("error") {
                prop_assert!(e == before, "{:?} failed yet changed the encounter", op);
            } else {
                let after = e.clone();
                e.undo().unwrap();
                prop_assert!(e == before, "undo of {:?} did not restore the state", op);
                e = after;
            }
        }
        let json = e.snapshot().unwrap();
        prop_assert_eq!(Encounter::restore(&json).unwrap().snapshot().unwrap(), json);
    }

    /// Saving, restoring and going on gives exactly what going on gives.
    #[test]
    fn snapshot_restore_continue_equals_continue(sys in 0usize..9, seed in any::<u64>(), n in 1usize..6,
        first in prop::collection::vec(op(), 0..40), then in prop::collection::vec(op(), 1..40)) {
        let system = &all_systems()[sys];
        let mut a = encounter(system, seed, n);
        // A snapshot keeps the newest SNAPSHOT_HISTORY undo steps: with no
        // more than that, the restored encounter can undo as far.
        a.set_undo_limit(SNAPSHOT_HISTORY as u32).unwrap();
        for op in &first { apply(&mut a, op); }
        let mut b = Encounter::restore(&a.snapshot().unwrap()).unwrap();
        prop_assert_eq!(&a, &b);
        for op in &then {
            prop_assert_eq!(apply(&mut a, op), apply(&mut b, op));
        }
        prop_assert_eq!(a.snapshot().unwrap(), b.snapshot().unwrap());
    }

    /// Scheduler invariants under random driving: moments only move forward
    /// (nothing is scheduled in the past); every pending action either fires
    /// exactly once, at its tick, together with everything else of that tick,
    /// or was cancelled by an operation on its own actor.
    #[test]
    fn every_pending_action_fires_once_at_its_tick(sys in 0usize..9, seed in any::<u64>(), n in 1usize..8,
        ops in prop::collection::vec(op(), 1..120)) {
        let system = all_systems()[sys].clone();
        let mut s = Scheduler::new(system);
        for i in 0..n {
            let timing = ActorTiming { initiative_bonus: 0, interval: 1 + i as u32 % 3, reflexes: i as i32, combat_sense: 0 };
            s.add(timing, Declaration::new(1 + i as i32 % 7, 0)).unwrap();
        }
        let mut rolls = skirmish_core::dice::SeededRolls::new(seed);
        let mut acts = Vec::new();
        let mut last_tick = 0u64;
        for op in ops {
            match op {
                Op::Next => {
                    let before: Vec<_> = s.pending().into_iter().filter(|p| !matches!(p.act, Act::Timer { .. })).collect();
                    let awaiting = s.awaiting();
                    match s.next(&mut rolls, &mut acts).unwrap() {
                        None => prop_assert!(before.is_empty()),
                        Some(Step::NewRound { .. }) => {}
                        Some(Step::Moment(m)) => {
                            prop_assert!(m.tick > last_tick, "moment {} after {}", m.tick, last_tick);
                            last_tick = m.tick;
                            // Everything pending before, at an earlier tick: impossible.
                            prop_assert!(before.iter().all(|p| p.at.tick >= m.tick));
                            // Everything pending at this tick fired now, in order.
                            let due: Vec<Act> = before.iter().filter(|p| p.at.tick == m.tick).map(|p| p.act).collect();
                            let fired: Vec<Act> = acts.iter().copied().filter(|a| !matches!(a, Act::Timer { .. })).collect();
                            prop_assert!(fired.starts_with(&due) || due.is_empty(), "due {:?} fired {:?}", due, fired);
                            // Anything else that fired was scheduled by a follow-up of an awaiting actor.
                            for a in &fired[due.len().min(fired.len())..] {
                                prop_assert!(a.actor().is_some_and(|w| awaiting.contains(&w)), "{:?} came from nowhere", a);
                            }
                            // Later actions are all still pending.
                            let after = s.pending();
                            for p in before.iter().filter(|p| p.at.tick > m.tick) {
                                prop_assert!(after.iter().any(|q| q.at.tick == p.at.tick && q.act == p.act), "{:?} vanished", p);
                            }
                        }
                    }
                }
                Op::Cancel(w) | Op::Disrupt(w) | Op::Down(w) => {
                    let w = ActorId(w % n as u32);
                    let before = s.pending();
                    let r = match op {
                        Op::Cancel(_) => s.cancel(w).map(|_| ()),
                        Op::Disrupt(_) => s.disrupt(w).map(|_| ()),
                        _ => s.remove(w),
                    };
                    if r.is_ok() {
                        // Only this actor's entries may go.
                        let after = s.pending();
                        for p in before.iter().filter(|p| p.act.actor() != Some(w)) {
                            prop_assert!(after.contains(p), "{:?} vanished when {} was cancelled", p, w);
                        }
                    }
                }
                Op::Declare { who, tt, bonus, .. } => {
                    let _ = s.declare(ActorId(who % n as u32), Declaration::new(tt.max(0), bonus), &mut rolls);
                }
                _ => {}
            }
            prop_assert!(s.validate().is_ok(), "{:?}", s.validate());
            prop_assert!(s.pending().iter().all(|p| p.at.tick > s.now()), "something pending is not in the future");
        }
    }
}

#[test]
fn tick_system_interrupts_only_non_combat_actions() {
    let mut e = Encounter::new(TimingSystem::tick_system(), 1).unwrap();
    let timing = ActorTiming {
        interval: 3,
        ..ActorTiming::default()
    };
    let mage = e.add_combatant(spec("Mage", 0).with_timing(timing)).unwrap();
    let thug = e.add_combatant(spec("Thug", 0).with_timing(timing)).unwrap();
    e.set_initiative(mage, InitiativeEntry::Total(15)).unwrap();
    e.set_initiative(thug, InitiativeEntry::Total(14)).unwrap();
    e.next().unwrap();
    e.next().unwrap(); // the mage's turn at 15
    let mut ritual = Declaration::new(0, 0);
    ritual.kind = ActionKind::NonCombat;
    ritual.action_ticks = Some(6);
    e.declare(mage, "ritual", ritual, None).unwrap(); // done on 9, next turn 6
    e.next().unwrap(); // the thug's turn at 14
    e.declare(thug, "stab", Declaration::new(0, 0), None).unwrap(); // lands 12
    assert!(!e.interrupt(thug, false).unwrap(), "an attack is not interrupted");
    assert!(!e.interrupt(mage, true).unwrap(), "concentration kept");
    assert!(e.interrupt(mage, false).unwrap(), "concentration lost");
    // The ritual is gone; the mage waits his interval from 14: next turn 11.
    let sheet: Vec<(i64, String)> = e
        .tick_sheet()
        .iter()
        .flat_map(|l| {
            l.lines
                .iter()
                .map(move |a| (l.display, format!("{}{}", a.name, if a.lands { "" } else { " (turn)" })))
        })
        .collect();
    assert_eq!(
        sheet,
        [
            (12, "Thug".to_string()),
            (11, "Mage (turn)".to_string()),
            (9, "Thug (turn)".to_string())
        ]
    );
    assert!(e.log().iter().any(|l| l.text.contains("loses the action")));
}

#[test]
fn continuous_heavy_crossbow_takes_twelve() {
    let w = skirmish_core::tables::weapons::find("heavy crossbow").unwrap();
    assert_eq!(Declaration::weapon(w, &TimingSystem::continuous(), 0).time_taken, 12);
    // A crossbowman added at the table under Continuous: its action takes 12.
    let mut e = Encounter::new(TimingSystem::continuous(), 1).unwrap();
    let mut p = skirmish_core::fighter::FighterProfile::new("crossbowman");
    p.weapon = Some(skirmish_core::fighter::WeaponChoice::Named("heavy crossbow".into()));
    let id = e.add_fighter("guards", &p).unwrap()[0];
    assert_eq!(e.declaration(id).unwrap().declaration.time_taken, 12);
    assert_eq!(Declaration::weapon(w, &TimingSystem::graduated(), 0).time_taken, 8);
    assert_eq!(
        Declaration::weapon(w, &TimingSystem::SimpleRounds, 0)
            .rate_of_fire
            .to_string(),
        "1/2"
    );
}
