//! The lean clocks step for step against the core Scheduler (a
//! reviewer's probe of the lean clocks, kept): random fighters in runs of
//! equal ones (Rates of Fire, extra attacks and preparation, REF and Combat
//! Sense, Time Taken up to 1,000,000), random hits, falls and disruptions,
//! every moment, actor list, disruption answer and the dice left compared;
//! each again on a reused clock and after `restart`. The battle tests
//! compare whole battles; these reach what a battle of uniform groups does
//! not (Action Blocks' single moment with unequal REF, Graduated
//! follow-ups, the Tick System's far events, running into the last tick).
use skirmish_core::dice::{Dice, SeededRolls};
use skirmish_core::tables::weapons::RateOfFire;
use skirmish_core::timing::{
    ActionBlocksConfig, ActionKind, ActorTiming, Declaration, GraduatedConfig, PastEnd, TickSystemConfig, TimingSystem,
};

use super::{Clock, LeanClock, SchedulerClock};

fn pick(chaos: &mut SeededRolls, n: usize) -> usize {
    chaos.standard(1, u32::try_from(n.max(1)).unwrap()) as usize
}

fn script<C: Clock>(clock: &mut C, n: usize, seed: u64, steps: usize, violence: usize) -> Vec<String> {
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
        let mut hits = Vec::new();
        for _ in 0..if violence > 0 { acting.len() } else { 0 } {
            if pick(&mut chaos, 3) == 1 {
                let t = pick(&mut chaos, n) - 1;
                if !down[t] {
                    hits.push(t as u32);
                }
            }
        }
        let mut fallen = Vec::new();
        for &t in &hits {
            if !down[t as usize] && pick(&mut chaos, violence.max(1)) == 1 {
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
        // Stop when fewer than one fighter stands (the battle stops at < 2 sides).
        if down.iter().all(|&d| d) {
            break;
        }
    }
    log.push(format!("dice left {}", rolls.next_u64()));
    log
}

fn fighters(seed: u64, huge: bool, graduated: bool) -> Vec<(ActorTiming, Declaration)> {
    let mut chaos = SeededRolls::for_stream(seed, 2);
    let runs = pick(&mut chaos, 6);
    let mut out = Vec::new();
    for _ in 0..runs {
        let rofs = [(1, 1), (2, 1), (3, 2), (1, 2), (4, 3), (2, 3), (7, 3), (1, 3), (5, 1)];
        let (s, r) = rofs[pick(&mut chaos, rofs.len()) - 1];
        let timing = ActorTiming {
            reflexes: pick(&mut chaos, 16) as i32 - 6,
            combat_sense: pick(&mut chaos, 5) as i32 - 1, // 0..=4: a level of skill
            ..ActorTiming::default()
        };
        let decl = Declaration {
            time_taken: if huge && pick(&mut chaos, 3) == 1 {
                // Graduated Rounds' lean clock keeps follow-ups in a ring
                // (`graduated.rs`): the slowest Ready Times that fit it
                // (Time Taken - bonus + 2 up to `MAX_DELAY`, the bonus
                // -4 or more here).
                if graduated {
                    [600, 1000, 1017][pick(&mut chaos, 3) - 1]
                } else {
                    [5000, 999_999, 1_000_000][pick(&mut chaos, 3) - 1]
                }
            } else {
                pick(&mut chaos, 8) as i32 - 1
            },
            speed_bonus: pick(&mut chaos, 7) as i32 - 4,
            rate_of_fire: RateOfFire::new(s, r).unwrap(),
            extra_attacks: if pick(&mut chaos, 3) == 1 {
                pick(&mut chaos, 3) as u32
            } else {
                0
            },
            disruptible: pick(&mut chaos, 2) == 1,
            extra_preparation: if !graduated && pick(&mut chaos, 4) == 1 { 3 } else { 0 },
            kind: ActionKind::Attack,
            ..Declaration::default()
        };
        let k = pick(&mut chaos, 5);
        for _ in 0..k {
            out.push((timing, decl));
        }
    }
    out
}

fn systems() -> Vec<(TimingSystem, bool)> {
    let ab = |die: Dice, divisor| TimingSystem::ActionBlocks(ActionBlocksConfig { die, divisor });
    let gr = |tpr| {
        TimingSystem::GraduatedRounds(GraduatedConfig {
            ticks_per_round: tpr,
            past_end: PastEnd::Extend,
        })
    };
    vec![
        (TimingSystem::Simultaneous, false),
        (TimingSystem::SimpleRounds, false),
        (ab(Dice::D6, 5), false),
        (ab(Dice::standard(3, 6).unwrap(), 4), false),
        (ab(Dice::D6, 2), false),
        (ab(Dice::standard(1, 20).unwrap(), 1), false),
        (ab(Dice::FOUR_DF, 3), false),
        (gr(20), true),
        (gr(4), true),
        (gr(1), true),
        (gr(100), true),
    ]
}

#[test]
fn round_clocks_step_for_step() {
    let mut slot: Option<LeanClock> = None;
    let mut failures = Vec::new();
    let mut count = 0;
    for (system, graduated) in systems() {
        for huge in [false, true] {
            for violence in [0usize, 2, 5, 12] {
                for seed in 0..50u64 {
                    let f = fighters(seed * 7 + violence as u64, huge, graduated);
                    assert!(LeanClock::handles(&system, f.iter().map(|x| x.1)));
                    let want = script(
                        &mut SchedulerClock::new(&system, f.iter().copied()).unwrap(),
                        f.len(),
                        seed,
                        400,
                        violence,
                    );
                    let mut fresh = None;
                    let got = script(
                        LeanClock::ready(&mut fresh, &system, f.iter().copied()).unwrap(),
                        f.len(),
                        seed,
                        400,
                        violence,
                    );
                    count += 1;
                    if got != want {
                        let i = got
                            .iter()
                            .zip(&want)
                            .position(|(a, b)| a != b)
                            .unwrap_or(got.len().min(want.len()));
                        failures.push(format!(
                            "{system:?} huge {huge} violence {violence} seed {seed} n {} at line {i}:\n got  {:?}\n want {:?}",
                            f.len(),
                            &got[i.saturating_sub(2)..(i + 2).min(got.len())],
                            &want[i.saturating_sub(2)..(i + 2).min(want.len())]
                        ));
                        continue;
                    }
                    // Reused: readied again (another size before) and restarted.
                    let c = LeanClock::ready(&mut slot, &system, f.iter().copied()).unwrap();
                    let again = script(c, f.len(), seed, 400, violence);
                    if again != want {
                        failures.push(format!("reused ready {system:?} seed {seed}"));
                    }
                    c.restart();
                    let again = script(c, f.len(), seed, 400, violence);
                    if again != want {
                        failures.push(format!("restart {system:?} seed {seed}"));
                    }
                }
            }
        }
    }
    assert!(count > 4_000, "{count} scripts compared");
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures[..failures.len().min(8)].join("\n")
    );
}

/// Tick System: many fighters on one tick and far events, reuse across sizes.
#[test]
fn tick_crowds_and_far_events_step_for_step() {
    let mut slot: Option<LeanClock> = None;
    let mut failures = Vec::new();
    for (die, ticks, bonus_scale, interval_scale) in [
        (Dice::standard(1, 2).unwrap(), 1, 1, 1),
        (Dice::standard(1, 1).unwrap(), 1024, 1, 1),
        (Dice::standard(1, 1).unwrap(), 1023, 1, 1),
        (Dice::standard(1, 3).unwrap(), 1, 1024, 1),
        (Dice::D20, 3, 1, 1021),
        (Dice::standard(2, 1000).unwrap(), 7, 3000, 2047),
    ] {
        let system = TimingSystem::TickSystem(TickSystemConfig {
            initiative_die: die,
            action_ticks: ticks,
            ..TickSystemConfig::default()
        });
        for seed in 0..80u64 {
            let mut chaos = SeededRolls::for_stream(seed, 9);
            let n = pick(&mut chaos, 60);
            let f: Vec<_> = (0..n)
                .map(|_| {
                    let t = ActorTiming {
                        initiative_bonus: (pick(&mut chaos, 3) as i32 - 1) * bonus_scale,
                        interval: (pick(&mut chaos, 3) as u32 - 1) * interval_scale,
                        ..ActorTiming::default()
                    };
                    let d = Declaration {
                        disruptible: pick(&mut chaos, 2) == 1,
                        action_ticks: match pick(&mut chaos, 4) {
                            1 => Some(1024),
                            2 => Some(1025),
                            _ => None,
                        },
                        ..Declaration::default()
                    };
                    (t, d)
                })
                .collect();
            for violence in [0, 3, 8] {
                let want = script(
                    &mut SchedulerClock::new(&system, f.iter().copied()).unwrap(),
                    n,
                    seed,
                    800,
                    violence,
                );
                let c = LeanClock::ready(&mut slot, &system, f.iter().copied()).unwrap();
                let got = script(c, n, seed, 800, violence);
                if got != want {
                    let i = got.iter().zip(&want).position(|(a, b)| a != b).unwrap_or(0);
                    failures.push(format!(
                        "{die:?} {ticks} seed {seed} v {violence} line {i}: {:?} vs {:?}",
                        got.get(i),
                        want.get(i)
                    ));
                }
                c.restart();
                if script(c, n, seed, 800, violence) != want {
                    failures.push(format!("restart {die:?} {ticks} seed {seed}"));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures[..failures.len().min(8)].join("\n"));
}

/// Rounds reaching the last tick: the same error, no overflow (debug build).
/// Graduated Rounds with a Ready Time too long for its lean clock's ring
/// are not the lean clock's (the Scheduler's, as the battle takes them),
/// and reach the last tick on it in long rounds instead.
#[test]
fn running_into_the_last_tick_step_for_step() {
    let gr = |tpr| {
        TimingSystem::GraduatedRounds(GraduatedConfig {
            ticks_per_round: tpr,
            past_end: PastEnd::Extend,
        })
    };
    for system in [TimingSystem::SimpleRounds, gr(20), gr(100_000)] {
        for (tt, sb, rof, extra, steps) in [
            (1_000_000, -1_000_000, (1000u32, 1u32), 0u32, 20_000),
            (1_000_000, -1_000_000, (7, 3), 2, 20_000),
            (1_000_000, -1_000_000, (1, 1), 0, 20_000),
            (1_000_000, 0, (1, 2), 1, 20_000),
            // 42,950 rounds of 100,000 ticks reach the last tick.
            (5, 0, (1, 1), 0, 320_000),
            (1000, -21, (2, 1), 0, 320_000),
        ] {
            for n in [1usize, 2, 3] {
                let d = Declaration {
                    time_taken: tt,
                    speed_bonus: sb,
                    rate_of_fire: RateOfFire::new(rof.0, rof.1).unwrap(),
                    extra_attacks: extra,
                    disruptible: true,
                    ..Declaration::default()
                };
                let f = vec![(ActorTiming::default(), d); n];
                let graduated = matches!(system, TimingSystem::GraduatedRounds(_));
                let fits = i64::from(tt) - i64::from(sb) + 2 <= crate::ring::MAX_DELAY;
                assert_eq!(LeanClock::handles(&system, f.iter().map(|x| x.1)), fits || !graduated);
                if graduated && !fits {
                    continue;
                }
                let want = script(
                    &mut SchedulerClock::new(&system, f.iter().copied()).unwrap(),
                    n,
                    1,
                    steps,
                    0,
                );
                let mut slot = None;
                let mut got = script(
                    LeanClock::ready(&mut slot, &system, f.iter().copied()).unwrap(),
                    n,
                    1,
                    steps,
                    0,
                );
                let mut want = want;
                if steps == 320_000 {
                    // A round that would begin past the last tick: the
                    // Scheduler has drawn its initiatives before it says
                    // so, the lean clock has not. The battle ends at the
                    // error either way, so the dice left are not compared.
                    for log in [&mut got, &mut want] {
                        if log.last().is_some_and(|l| l.starts_with("dice left")) {
                            log.pop();
                        }
                    }
                }
                if let Some(i) = (0..got.len().max(want.len())).find(|&i| got.get(i) != want.get(i)) {
                    panic!(
                        "{system:?} {tt} {rof:?} {n} at line {i}:\n got  {:?}\n want {:?}",
                        &got[i.saturating_sub(2)..(i + 2).min(got.len())],
                        &want[i.saturating_sub(2)..(i + 2).min(want.len())]
                    );
                }
                if graduated
                    && steps == 320_000
                    && matches!(system, TimingSystem::GraduatedRounds(c) if c.ticks_per_round == 100_000)
                {
                    assert!(got.iter().any(|l| l.starts_with("error")), "{tt} {n}: {:?}", got.last());
                }
            }
        }
    }
}

#[test]
fn crowds_step_for_step() {
    let mut failures = Vec::new();
    for (system, graduated) in systems() {
        for seed in 0..25u64 {
            let base = fighters(seed, false, graduated);
            let mut chaos = SeededRolls::for_stream(seed, 5);
            let mut f = Vec::new();
            for x in &base {
                for _ in 0..pick(&mut chaos, 20) {
                    f.push(*x);
                }
            }
            for violence in [3usize, 30] {
                let want = script(
                    &mut SchedulerClock::new(&system, f.iter().copied()).unwrap(),
                    f.len(),
                    seed,
                    3000,
                    violence,
                );
                let mut slot = None;
                let got = script(
                    LeanClock::ready(&mut slot, &system, f.iter().copied()).unwrap(),
                    f.len(),
                    seed,
                    3000,
                    violence,
                );
                if got != want {
                    failures.push(format!("{system:?} seed {seed} n {}", f.len()));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn with_everyone_removed_nothing_more_is_handed_out() {
    for (system, _) in systems() {
        let f = [(ActorTiming::default(), Declaration::default()); 2];
        let mut out = Vec::new();
        for lean in [false, true] {
            let mut slot = None;
            let mut sched;
            let c: &mut dyn Clock = if lean {
                LeanClock::ready(&mut slot, &system, f.iter().copied()).unwrap()
            } else {
                sched = SchedulerClock::new(&system, f.iter().copied()).unwrap();
                &mut sched
            };
            let mut rolls = SeededRolls::new(3);
            let mut acting = Vec::new();
            let mut log = Vec::new();
            log.push(format!("{:?}", c.next(&mut rolls, &mut acting)));
            c.remove_fallen(&[0, 1]);
            for _ in 0..3 {
                log.push(format!("{:?}", c.next(&mut rolls, &mut acting)));
            }
            out.push(log);
        }
        assert_eq!(out[0], out[1], "{system:?}: with everyone removed");
    }
}
