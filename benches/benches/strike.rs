//! Strike resolution: Full Contact (`full_contact::resolve`, with and
//! without the optional rules, and with its 4dF roll) and a FUDGE opposed
//! exchange (`opposed::exchange` on rolled results, and a whole
//! `melee_round` that rolls both sides).
//!
//! Each iteration resolves the same 4,096 seeded inputs (ratings 3-12
//! against 3-12, skills Poor to Superb), the criterion throughput, so the
//! time per element is the cost of one strike.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use skirmish_core::dice::SeededRolls;
use skirmish_core::ladder::Level;
use skirmish_core::striking::full_contact::{self, StrikeOptions};
use skirmish_core::striking::opposed::{Combatant, RolledCombatant, exchange, melee_round};

const N: usize = 4_096;

fn strikes(c: &mut Criterion) {
    let mut rolls = SeededRolls::new(7);
    let rating = |rolls: &mut SeededRolls| 3 + rolls.below(10) as i32;
    let inputs: Vec<(i32, i32, i32)> = (0..N)
        .map(|_| (rating(&mut rolls), rating(&mut rolls), rolls.four_df()))
        .collect();
    let level = |rolls: &mut SeededRolls| Level::new(rolls.below(6) as i32 - 2);
    let results: Vec<(RolledCombatant, RolledCombatant)> = (0..N)
        .map(|_| {
            let (a, b) = (level(&mut rolls), level(&mut rolls));
            (
                RolledCombatant::new(Level::new(a.value() + rolls.four_df())),
                RolledCombatant::new(Level::new(b.value() + rolls.four_df())),
            )
        })
        .collect();
    let combatants: Vec<(Combatant, Combatant)> = (0..N)
        .map(|_| (Combatant::new(level(&mut rolls)), Combatant::new(level(&mut rolls))))
        .collect();

    let mut group = c.benchmark_group("strike");
    group.throughput(Throughput::Elements(N as u64));
    let core = StrikeOptions::default();
    let optional = StrikeOptions {
        guaranteed_success_and_fumble: true,
        amazing: true,
        point_blank: false,
    };
    for (name, options) in [
        ("full-contact-resolve", core),
        ("full-contact-resolve-optional", optional),
    ] {
        group.bench_function(name, |b| {
            b.iter(|| {
                let mut hits = 0u32;
                for &(sr, dr, roll) in &inputs {
                    let outcome = full_contact::resolve(black_box(sr), dr, roll, options).expect("a 4dF roll");
                    hits += u32::from(outcome.is_hit());
                }
                hits
            });
        });
    }
    group.bench_function("full-contact-roll-and-resolve", |b| {
        let mut rolls = SeededRolls::new(8);
        b.iter(|| {
            let mut hits = 0u32;
            for &(sr, dr, _) in &inputs {
                let outcome = full_contact::resolve(sr, dr, rolls.four_df(), core).expect("a 4dF roll");
                hits += u32::from(outcome.is_hit());
            }
            hits
        });
    });
    group.bench_function("fudge-exchange", |b| {
        b.iter(|| {
            let mut hits = 0u32;
            for (first, second) in &results {
                let e = exchange(black_box(first), second).expect("small degrees");
                hits += u32::from(e.hit().is_some());
            }
            hits
        });
    });
    group.bench_function("fudge-melee-round", |b| {
        let mut rolls = SeededRolls::new(9);
        b.iter(|| {
            let mut hits = 0u32;
            for (first, second) in &combatants {
                let round = melee_round(first, second, &mut rolls).expect("seeded rolls");
                hits += u32::from(round.exchange.hit().is_some());
            }
            hits
        });
    });
    group.finish();
}

criterion_group! {
    name = strike;
    // 5 benchmarks x (1 s warm-up + 2 s): about 15 s.
    config = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(2));
    targets = strikes
}
criterion_main!(strike);
