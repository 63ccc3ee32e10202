//! A battle under a `Control`: a flag stops it with where it
//! was, its trace streams line by line exactly as the report keeps it, and
//! its progress is reported.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;

use skirmish_sim::SimError;
use skirmish_sim::battle::{Battle, BattleProgress, Control, PROGRESS_EVERY, RunOptions};
use skirmish_sim::report::TraceLine;

use crate::battle::parity;

#[test]
fn a_flag_set_from_the_start_stops_the_battle_before_a_blow() {
    let battle = Battle::new(&parity(50)).unwrap();
    let stop = AtomicBool::new(true);
    let got = battle.run_controlled(1, 0, &RunOptions::FULL, &mut Control::new().cancel(&stop));
    // The first round has begun (the clock's first step), no moment fought.
    assert_eq!(
        got,
        Err(SimError::Interrupted {
            tick: 0,
            round: 1,
            actions: 0
        })
    );
    assert_eq!(
        got.unwrap_err().to_string(),
        "interrupted at tick 0 (round 1) after 0 actions"
    );
}

#[test]
fn a_flag_set_from_another_thread_stops_the_battle_at_its_next_moment() {
    // 2 x 60,000 fighters: well over PROGRESS_EVERY actions. The progress
    // callback hands the count to another thread, which sets the flag and
    // answers; the battle must stop at the very next check, with the count.
    let battle = Battle::new(&parity(60_000)).unwrap();
    let whole = battle.run(3, 0, &RunOptions::default()).unwrap().summary;
    assert!(whole.actions > 2 * PROGRESS_EVERY, "{whole:?}");
    let stop = AtomicBool::new(false);
    let (to_thread, from_battle) = mpsc::channel::<u64>();
    let (to_battle, from_thread) = mpsc::channel::<()>();
    let got = std::thread::scope(|scope| {
        let stop = &stop;
        scope.spawn(move || {
            // The second report (at PROGRESS_EVERY actions or just past).
            let _first = from_battle.recv().unwrap();
            let _second = from_battle.recv().unwrap();
            stop.store(true, Ordering::SeqCst);
            to_battle.send(()).unwrap();
        });
        let mut seen: Vec<BattleProgress> = Vec::new();
        let mut progress = |p: &BattleProgress| {
            seen.push(*p);
            if to_thread.send(p.actions).is_ok() && seen.len() == 2 {
                from_thread.recv().unwrap();
            }
        };
        let got = battle.run_controlled(
            3,
            0,
            &RunOptions::default(),
            &mut Control::new().cancel(stop).progress(&mut progress),
        );
        drop(to_thread);
        (got, seen)
    });
    let (got, seen) = got;
    assert_eq!(seen.len(), 2, "{seen:?}");
    assert_eq!(seen[0].actions, 0);
    assert!(
        seen[1].actions >= PROGRESS_EVERY && seen[1].actions < whole.actions,
        "{seen:?}"
    );
    assert_eq!(seen[1].fielded, 120_000);
    assert!(seen[1].standing < 120_000);
    match got {
        Err(SimError::Interrupted { tick, actions, .. }) => {
            assert_eq!(actions, seen[1].actions, "stopped at the next check");
            assert!(tick < seen[1].tick, "the moment of the check is not fought");
        }
        other => panic!("not interrupted: {other:?}"),
    }
}

#[test]
fn a_streamed_trace_is_the_kept_trace_line_for_line_and_the_battle_is_the_same() {
    for (timing, striking) in [
        ("continuous", "full-contact"),
        ("simple-rounds", "fudge-opposed"),
        ("tick-system", "full-contact"),
    ] {
        let scenario = parity(12)
            .with_field("timing", timing)
            .unwrap()
            .with_field("striking", striking)
            .unwrap();
        let battle = Battle::new(&scenario).unwrap();
        let plain = battle.run(5, 2, &RunOptions::FULL).unwrap();
        let mut streamed: Vec<TraceLine> = Vec::new();
        let mut sink = |l: &TraceLine| streamed.push(l.clone());
        // Kept and streamed at once: the same lines.
        let both = battle
            .run_controlled(5, 2, &RunOptions::FULL, &mut Control::new().trace(&mut sink))
            .unwrap();
        assert_eq!(both, plain, "{timing}");
        assert_eq!(Some(&streamed), plain.trace.as_ref(), "{timing}");
        // Streamed only: nothing kept, the same battle.
        let mut count = 0usize;
        let mut sink = |_: &TraceLine| count += 1;
        let options = RunOptions {
            trace: false,
            casualties: true,
        };
        let only = battle
            .run_controlled(5, 2, &options, &mut Control::new().trace(&mut sink))
            .unwrap();
        assert_eq!(only.trace, None);
        assert_eq!(only.summary, plain.summary, "{timing}");
        assert_eq!(only.casualties, plain.casualties);
        assert_eq!(count, streamed.len());
    }
}

#[test]
fn a_battle_under_a_control_that_never_fires_is_the_fast_paths_battle() {
    let battle = Battle::new(&parity(300)).unwrap();
    assert!(battle.has_fast_path());
    let stop = AtomicBool::new(false);
    let mut reports = 0;
    let mut progress = |_: &BattleProgress| reports += 1;
    let watched = battle
        .run_controlled(
            9,
            4,
            &RunOptions::default(),
            &mut Control::new().cancel(&stop).progress(&mut progress),
        )
        .unwrap();
    assert_eq!(watched, battle.run(9, 4, &RunOptions::default()).unwrap());
    assert_eq!(reports, 1, "one report at the start of a short battle");
}

/// Every timing system's fast path (the Continuous ring and the moments
/// loop) honours a control's flag and progress callback, as the general
/// loop does, under every targeting policy.
#[test]
fn a_watched_battle_on_a_fast_path_is_the_same_battle_and_reports_the_same_progress() {
    for timing in skirmish_core::timing::TimingSystem::NAMES {
        for policy in ["random", "least_engaged"] {
            let scenario = parity(40)
                .with_field("timing", timing)
                .unwrap()
                .with_field("battle.targeting", policy)
                .unwrap();
            let battle = Battle::new(&scenario).unwrap();
            assert!(battle.has_fast_path(), "{timing} {policy}");
            let never = AtomicBool::new(false);
            let watch = |options: &RunOptions| {
                let mut seen: Vec<BattleProgress> = Vec::new();
                let mut progress = |p: &BattleProgress| seen.push(*p);
                let report = battle
                    .run_controlled(
                        9,
                        2,
                        options,
                        &mut Control::new().cancel(&never).progress(&mut progress),
                    )
                    .unwrap();
                (report, seen)
            };
            // Without a trace a fast path fights it; with one, the general
            // loop.
            let (fast, fast_seen) = watch(&RunOptions::default());
            let (general, general_seen) = watch(&RunOptions::FULL);
            assert_eq!(
                fast,
                battle.run(9, 2, &RunOptions::default()).unwrap(),
                "{timing} {policy}"
            );
            assert_eq!(fast.summary, general.summary, "{timing} {policy}");
            assert_eq!(fast_seen.len(), general_seen.len(), "{timing} {policy}");
            assert_eq!(
                fast_seen.first().map(|p| (p.actions, p.fielded, p.standing)),
                Some((0, 80, 80)),
                "{timing} {policy}"
            );

            // A flag set from the start stops it before a blow.
            let stop = AtomicBool::new(true);
            let fast = battle.run_controlled(9, 2, &RunOptions::default(), &mut Control::new().cancel(&stop));
            assert!(
                matches!(fast, Err(SimError::Interrupted { actions: 0, .. })),
                "{timing} {policy}: {fast:?}"
            );
        }
    }
}

/// The Continuous fast path reports progress exactly where the general
/// loop does, over a long battle: at moments someone acts (not at a tick
/// of stale entries, left by the fallen and the disrupted), with the
/// moment's lap as its round (a lap of one tick makes every tick a round).
#[test]
fn the_continuous_fast_path_reports_progress_where_the_general_loop_does() {
    // A long, disruptible duel: two fighters of 40,000 hit points.
    let duel = |timing: &str| {
        let mut s = parity(1);
        for (path, value) in [
            ("timing", timing),
            ("damage.max_hp", "40000"),
            ("sides.A.groups.0.hit_points", "40000"),
            ("sides.B.groups.0.hit_points", "40000"),
            ("sides.A.groups.0.disruptible", "true"),
            ("sides.B.groups.0.disruptible", "true"),
            ("battle.max_actions", "1000000"),
            ("battle.max_ticks", "100000000"),
            ("battle.max_rounds", "10000000"),
        ] {
            s = s.with_field(path, value).unwrap();
        }
        Battle::new(&s).unwrap()
    };
    for timing in ["continuous", r#"{"system": "continuous", "lap": 1}"#] {
        let battle = duel(timing);
        assert!(battle.has_fast_path());
        for seed in [7, 22] {
            let never = AtomicBool::new(false);
            let watch = |traced: bool| {
                let mut seen: Vec<BattleProgress> = Vec::new();
                let mut progress = |p: &BattleProgress| seen.push(*p);
                // A trace sink (discarding its lines) sends the battle to
                // the general loop.
                let mut sink = |_: &TraceLine| {};
                let mut control = Control::new().cancel(&never).progress(&mut progress);
                if traced {
                    control = control.trace(&mut sink);
                }
                let report = battle
                    .run_controlled(seed, 0, &RunOptions::default(), &mut control)
                    .unwrap();

                (report.summary, seen)
            };
            let (fast, fast_seen) = watch(false);
            let (general, general_seen) = watch(true);
            assert_eq!(fast, general, "{timing} seed {seed}");
            assert!(
                fast_seen.len() >= 2,
                "{timing} seed {seed}: {} reports",
                fast_seen.len()
            );
            assert_eq!(fast_seen, general_seen, "{timing} seed {seed}");
        }
    }
}
