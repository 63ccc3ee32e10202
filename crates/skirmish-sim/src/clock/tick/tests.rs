//! The Tick System's clocks step for step against the Scheduler (and the
//! lazy clock against both): every option and declaration, falls and
//! disruptions, delays past the ring, reuse.

use skirmish_core::dice::{Dice, SeededRolls};
use skirmish_core::timing::{ActionKind, ActorTiming, Declaration, GmTiming, MAX_TICK, TickSystemConfig, TimingSystem};

use super::TickClock;
use crate::clock::{Clock, LeanClock, SchedulerClock, Tick};

fn tick_system(die: Dice, action_ticks: u32) -> TimingSystem {
    TimingSystem::TickSystem(TickSystemConfig {
        initiative_die: die,
        action_ticks,
        ..TickSystemConfig::default()
    })
}

fn lean(system: &TimingSystem, fighters: &[(ActorTiming, Declaration)]) -> TickClock {
    let mut clock = TickClock::default();
    clock.reset(system, fighters.iter().copied()).unwrap();
    clock
}

fn scheduler(system: &TimingSystem, fighters: &[(ActorTiming, Declaration)]) -> SchedulerClock {
    SchedulerClock::new(system, fighters.iter().copied()).unwrap()
}

/// A roll of `1..=n` (`n` at least 1).
fn pick(chaos: &mut SeededRolls, n: usize) -> usize {
    chaos.standard(1, u32::try_from(n.max(1)).unwrap()) as usize
}

/// Drives `clock` as a battle does, with hits, falls and disruptions
/// drawn from a stream of their own (if `violent`), and logs everything
/// it hands out (the steps, who acts, what a disruption did, the dice
/// left).
fn script<C: Clock>(clock: &mut C, n: usize, seed: u64, steps: usize, violent: bool) -> Vec<String> {
    let mut rolls = SeededRolls::for_stream(seed, 0);
    let mut chaos = SeededRolls::for_stream(seed, 1);
    let mut acting = Vec::new();
    let mut down = vec![false; n];
    let mut log = Vec::new();
    for _ in 0..steps {
        match clock.next(&mut rolls, &mut acting) {
            Err(e) => {
                log.push(format!("error {e:?}"));
                break;
            }
            Ok(None) => {
                log.push("end".into());
                break;
            }
            Ok(Some(t)) => log.push(format!("{t:?} {acting:?}")),
        }
        // Each acting fighter may hit someone standing: a hit fells
        // one time in five; the others hit may lose their action.
        let mut hits = Vec::new();
        for _ in 0..if violent { acting.len() } else { 0 } {
            if pick(&mut chaos, 3) == 1 {
                let t = pick(&mut chaos, n) - 1;
                if !down[t] {
                    hits.push(t as u32);
                }
            }
        }
        let mut fallen = Vec::new();
        for &t in &hits {
            if !down[t as usize] && pick(&mut chaos, 5) == 1 {
                down[t as usize] = true;
                fallen.push(t);
            }
        }
        clock.remove_fallen(&fallen);
        for &t in &hits {
            if !down[t as usize] {
                let flag = pick(&mut chaos, 4) != 1;
                log.push(format!("disrupt {t} {flag}: {}", clock.disrupt(t, flag)));
            }
        }
    }
    log.push(format!("dice left {}", rolls.next_u64()));
    log
}

/// Random fighters with every kind of declaration, including what a
/// scenario cannot give (Prepare, Acquire, per-action ticks, GM timing).
fn fighters(seed: u64) -> Vec<(ActorTiming, Declaration)> {
    let mut chaos = SeededRolls::for_stream(seed, 2);
    let n = pick(&mut chaos, 14);
    (0..n)
        .map(|_| {
            let timing = ActorTiming {
                initiative_bonus: match pick(&mut chaos, 10) {
                    1 => -40,
                    2 => 500,
                    k => k as i32 - 5,
                },
                interval: match pick(&mut chaos, 8) {
                    1 => 300,
                    k => k as u32 - 2,
                },
                ..ActorTiming::default()
            };
            let decl = Declaration {
                time_taken: pick(&mut chaos, 6) as i32 - 1,
                speed_bonus: pick(&mut chaos, 3) as i32 - 2,
                kind: match pick(&mut chaos, 12) {
                    1 => ActionKind::Prepare,
                    2 | 3 => ActionKind::RangedAttack { new_target: true },
                    4 => ActionKind::RangedAttack { new_target: false },
                    5 => ActionKind::NonCombat,
                    _ => ActionKind::Attack,
                },
                disruptible: pick(&mut chaos, 2) == 1,
                action_ticks: match pick(&mut chaos, 6) {
                    1 => Some(1),
                    2 => Some(4),
                    3 => Some(40),
                    _ => None,
                },
                extra_preparation: if pick(&mut chaos, 5) == 1 { 3 } else { 0 },
                gm: match pick(&mut chaos, 8) {
                    1 => Some(GmTiming::ReadyTime(2)),
                    2 => Some(GmTiming::LandingTick(5)),
                    _ => None,
                },
                ..Declaration::default()
            };
            (timing, decl)
        })
        .collect()
}

fn systems() -> Vec<TimingSystem> {
    vec![
        TimingSystem::tick_system(),
        tick_system(Dice::D20, 1),
        tick_system(Dice::standard(2, 6).unwrap(), 3),
        tick_system(Dice::standard(1, 4).unwrap(), 1),
        tick_system(Dice::FOUR_DF, 2),
        tick_system(Dice::standard(1, 100).unwrap(), 5),
    ]
}

#[test]
fn every_tick_system_option_runs_lean() {
    for system in systems() {
        let decls = fighters(3).into_iter().map(|(_, d)| d);
        assert!(LeanClock::handles(&system, decls), "{system:?}");
    }
    assert!(!TickClock::handles(&TimingSystem::SimpleRounds, std::iter::empty()));
}

/// Step for step, the same as the Scheduler's clock, whatever the
/// declarations, falls and disruptions.
#[test]
fn steps_exactly_like_the_scheduler() {
    for system in systems() {
        for seed in 0..60 {
            let f = fighters(seed);
            let want = script(&mut scheduler(&system, &f), f.len(), seed, 600, true);
            let got = script(&mut lean(&system, &f), f.len(), seed, 600, true);
            assert_eq!(got, want, "{system:?} seed {seed}");
        }
    }
}

/// Delays on both sides of the ring's reach (`ring::RING` ticks):
/// rounds, actions and Intervals of a few ticks to a few thousand, so
/// events wait in the far queue and move into the ring as it reaches
/// them, still popped in scheduling order among the near ones.
#[test]
fn delays_past_the_ring_keep_the_order() {
    let mut reused = TickClock::default();
    for ticks in [700, 1100] {
        let system = tick_system(Dice::standard(1, 100).unwrap(), ticks);
        for seed in 0..60 {
            let f: Vec<_> = fighters(seed)
                .into_iter()
                .map(|(t, d)| {
                    let timing = ActorTiming {
                        initiative_bonus: t.initiative_bonus * 5,
                        interval: t.interval * 5 % 2_600,
                        ..t
                    };
                    let decl = Declaration {
                        action_ticks: d.action_ticks.map(|k| k * 30),
                        ..d
                    };
                    (timing, decl)
                })
                .collect();
            let want = script(&mut scheduler(&system, &f), f.len(), seed, 600, true);
            let got = script(&mut lean(&system, &f), f.len(), seed, 600, true);
            assert_eq!(got, want, "ticks {ticks} seed {seed}");
            // The far queue starts afresh too.
            reused.reset(&system, f.iter().copied()).unwrap();
            let again = script(&mut reused, f.len(), seed, 600, true);
            assert_eq!(again, want, "reused, ticks {ticks} seed {seed}");
        }
    }
}

/// Reused from battle to battle (also after a battle of another size),
/// it starts afresh.
#[test]
fn a_reset_clock_is_a_new_clock() {
    let system = TimingSystem::tick_system();
    let mut clock = TickClock::default();
    for seed in [5, 6, 5, 7] {
        let f = fighters(seed);
        clock.reset(&system, f.iter().copied()).unwrap();
        let want = script(&mut scheduler(&system, &f), f.len(), seed, 300, true);
        assert_eq!(script(&mut clock, f.len(), seed, 300, true), want, "seed {seed}");
    }
}

/// The lazy clock (no handles: `lazy.rs`) step for step against the
/// Scheduler and the handles clock, on every battle it takes: the
/// random fighters above made not disruptible, their delays cut to the
/// ring's reach, with falls (a hit's disruption answered no by all);
/// each again on a reused clock. And the battles it does not take.
#[test]
fn the_lazy_clock_steps_like_the_others() {
    let mut reused = super::LazyTickClock::default();
    let mut taken = 0;
    for system in systems() {
        for seed in 0..80 {
            let f: Vec<_> = fighters(seed)
                .into_iter()
                .map(|(t, d)| {
                    let timing = ActorTiming {
                        initiative_bonus: t.initiative_bonus.min(200),
                        interval: t.interval % 700,
                        ..t
                    };
                    let decl = Declaration {
                        disruptible: false,
                        gm: None,
                        extra_preparation: 0,
                        ..d
                    };
                    (timing, decl)
                })
                .collect();
            if !super::LazyTickClock::takes(&system, f.iter().copied()) {
                continue;
            }
            taken += 1;
            let want = script(&mut scheduler(&system, &f), f.len(), seed, 600, true);
            assert_eq!(
                script(&mut lean(&system, &f), f.len(), seed, 600, true),
                want,
                "{system:?} seed {seed}"
            );
            let mut lazy = super::LazyTickClock::default();
            lazy.reset(&system, f.iter().copied()).unwrap();
            assert_eq!(
                script(&mut lazy, f.len(), seed, 600, true),
                want,
                "{system:?} seed {seed}"
            );
            reused.reset(&system, f.iter().copied()).unwrap();
            assert_eq!(
                script(&mut reused, f.len(), seed, 600, true),
                want,
                "reused: seed {seed}"
            );
            reused.restart();
            assert_eq!(
                script(&mut reused, f.len(), seed, 600, true),
                want,
                "restarted: seed {seed}"
            );
        }
    }
    assert!(taken > 300, "{taken} battles taken");
    // Not taken: a disruptible declaration, an action of no ticks, a
    // delay past the ring, initiatives that could put a round's first
    // turns past it.
    let system = TimingSystem::tick_system();
    let take =
        |timing: ActorTiming, decl: Declaration| super::LazyTickClock::takes(&system, [(timing, decl)].into_iter());
    let (t, d) = (ActorTiming::default(), Declaration::default());
    assert!(take(t, d));
    assert!(!take(t, Declaration { disruptible: true, ..d }));
    assert!(!take(
        t,
        Declaration {
            action_ticks: Some(0),
            ..d
        }
    ));
    assert!(!take(ActorTiming { interval: 1_022, ..t }, d));
    assert!(take(ActorTiming { interval: 1_021, ..t }, d));
    assert!(!take(
        ActorTiming {
            initiative_bonus: 492,
            ..t
        },
        d
    ));
    assert!(take(
        ActorTiming {
            initiative_bonus: 491,
            ..t
        },
        d
    ));
    assert!(!super::LazyTickClock::takes(
        &TimingSystem::SimpleRounds,
        [(t, d)].into_iter()
    ));
    // At most `MAX_FIGHTERS` (memory: see `lazy.rs`).
    let many = |n| super::LazyTickClock::takes(&system, std::iter::repeat_n((t, d), n));
    assert!(many(super::lazy::MAX_FIGHTERS));
    assert!(!many(super::lazy::MAX_FIGHTERS + 1));
}

/// Nobody: nothing ever happens. Everyone preparing: rounds begin and
/// nothing lands, as on the Scheduler.
#[test]
fn nobody_and_only_preparing() {
    let system = TimingSystem::tick_system();
    let mut rolls = SeededRolls::new(1);
    let mut acting = vec![7];
    assert_eq!(lean(&system, &[]).next(&mut rolls, &mut acting).unwrap(), None);
    assert!(acting.is_empty());
    let prepare = Declaration {
        kind: ActionKind::Prepare,
        ..Declaration::default()
    };
    let f = vec![(ActorTiming::default(), prepare); 3];
    let want = script(&mut scheduler(&system, &f), 3, 1, 40, true);
    assert_eq!(script(&mut lean(&system, &f), 3, 1, 40, true), want);
    assert!(want.iter().filter(|l| l.starts_with("NewRound")).count() > 10);
}

/// The worked example's arithmetic: an action on countdown tick 20
/// that takes 2 ticks is done on 18; with an Interval of 6 the next
/// turn is on 12 (it lands there 2 ticks later, on 10).
#[test]
fn the_tick_system_example() {
    let system = tick_system(Dice::standard(1, 1).unwrap(), 2);
    let f = [(
        ActorTiming {
            initiative_bonus: 19,
            interval: 6,
            ..ActorTiming::default()
        },
        Declaration::default(),
    )];
    let mut clock = lean(&system, &f);
    let mut rolls = SeededRolls::new(1);
    let mut acting = Vec::new();
    assert_eq!(clock.next(&mut rolls, &mut acting).unwrap(), Some(Tick::NewRound));
    let mut displays = Vec::new();
    while let Some(Tick::Moment { display, round: 1, .. }) = clock.next(&mut rolls, &mut acting).unwrap() {
        assert_eq!(acting, [0]);
        displays.push(display);
    }
    assert_eq!(displays, [18, 10, 2]);
}

/// A disruption loses the action in progress and the coming turn; the
/// next turn is an Interval from now, if the round has it and it is
/// later than now. Twice in a moment is once.
#[test]
fn disruption_waits_the_interval() {
    let system = tick_system(Dice::standard(1, 1).unwrap(), 4);
    let timing = |interval| ActorTiming {
        initiative_bonus: 29,
        interval,
        ..ActorTiming::default()
    };
    let spell = Declaration {
        disruptible: true,
        ..Declaration::default()
    };
    // Fighter 0 acts on countdown 30 (done on 26); fighter 1's turn is
    // on 30 too, but with a 2-tick action, done on 28.
    let fast = Declaration {
        action_ticks: Some(2),
        ..Declaration::default()
    };
    for interval in [0, 3, 40] {
        let f = [(timing(interval), spell), (timing(0), fast)];
        let mut clock = lean(&system, &f);
        let mut rolls = SeededRolls::new(1);
        let mut acting = Vec::new();
        assert_eq!(clock.next(&mut rolls, &mut acting).unwrap(), Some(Tick::NewRound));
        let step = clock.next(&mut rolls, &mut acting).unwrap();
        assert!(matches!(step, Some(Tick::Moment { display: 28, .. })), "{step:?}");
        assert_eq!(acting, [1]);
        assert!(!clock.disrupt(0, false), "the battle's flag");
        assert!(!clock.disrupt(1, true), "not disruptible");
        assert!(clock.disrupt(0, true));
        assert!(!clock.disrupt(0, true), "nothing left in progress");
        let step = clock.next(&mut rolls, &mut acting).unwrap();
        match interval {
            // No later turn (interval 0), or past the round (40): only
            // fighter 1 acts again, on 26 (turn on 28, 2 ticks).
            0 | 40 => assert!(matches!(step, Some(Tick::Moment { display: 26, .. })) && acting == [1]),
            // A turn on 25, done on 21; fighter 1 lands on 26 first.
            _ => {
                assert!(matches!(step, Some(Tick::Moment { display: 26, .. })) && acting == [1]);
                let mut at = None;
                while let Some(Tick::Moment { display, .. }) = clock.next(&mut rolls, &mut acting).unwrap() {
                    if acting.contains(&0) {
                        at = Some(display);
                        break;
                    }
                }
                assert_eq!(at, Some(21));
            }
        }
    }
}

/// Bad options and fighters are refused as the Scheduler refuses them.
#[test]
fn refuses_what_the_scheduler_refuses() {
    let bad_system = tick_system(Dice::D20, 0);
    let f = fighters(1);
    let want = SchedulerClock::new(&bad_system, f.iter().copied()).err();
    assert!(want.is_some());
    assert_eq!(TickClock::default().reset(&bad_system, f.iter().copied()).err(), want);
    let mut bad = f.clone();
    bad.push((
        ActorTiming {
            interval: 2_000_000,
            ..ActorTiming::default()
        },
        Declaration::default(),
    ));
    let system = TimingSystem::tick_system();
    let want = SchedulerClock::new(&system, bad.iter().copied()).err();
    assert!(want.is_some());
    assert_eq!(TickClock::default().reset(&system, bad.iter().copied()).err(), want);
    assert!(
        TickClock::default()
            .reset(&TimingSystem::SimpleRounds, f.into_iter())
            .is_err()
    );
}

/// Rounds of a million ticks run into the last tick: the same error as
/// the Scheduler's, never an overflow.
#[test]
fn the_last_tick_is_an_error() {
    let system = tick_system(Dice::D20, 10_000);
    let slow = ActorTiming {
        initiative_bonus: 1_000_000,
        interval: 1_000_000,
        ..ActorTiming::default()
    };
    let f = [(slow, Declaration::default()), (slow, Declaration::default())];
    let want = script(&mut scheduler(&system, &f), 2, 0, 100_000, false);
    let got = script(&mut lean(&system, &f), 2, 0, 100_000, false);
    assert_eq!(got, want);
    let last = &want[want.len() - 2];
    assert!(last.starts_with("error"), "{last}");
    // It got there: the last moment is within a round of the last tick.
    let moment = want.iter().rev().find_map(|l| {
        l.strip_prefix("Moment { tick: ")
            .and_then(|r| r.split(',').next())
            .and_then(|t| t.parse::<u64>().ok())
    });
    assert!(moment.is_some_and(|t| t > MAX_TICK - 2_100_000), "{moment:?}");
}
