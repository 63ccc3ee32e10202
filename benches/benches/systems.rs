//! Every timing system x every targeting policy on the parity
//! battle at 2x10 and 2x100,000 fighters: cost per action, to set beside
//! Continuous with random targets (the fast path).
//!
//! Every iteration fights the same battles (battles 0..B of seed 1): 1,000
//! at 2x10, and at 2x100,000 one battle capped at [`BIG_CAP`] actions (a
//! `most_wounded` battle under Full Contact is a billion actions: the whole
//! side strikes the one most wounded foe), so a run takes a few minutes.
//! The actions of an iteration are criterion's throughput: time / actions
//! is the cost per action, set-up included. `benches/run-systems-bench`
//! prints the table with each system's ratio to Continuous.

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, SamplingMode, Throughput, criterion_group, criterion_main};
use skirmish_benches::battle::{SEED, parity_scenario};
use skirmish_core::timing::TimingSystem;
use skirmish_sim::SimError;
use skirmish_sim::battle::{Battle, Workspace};

/// Fighters per side.
const SIZES: [u64; 2] = [10, 100_000];
/// The targeting policies.
const POLICIES: [&str; 3] = ["random", "most_wounded", "least_engaged"];
/// The action cap of the 2x100,000 battles.
const BIG_CAP: u64 = 1_000_000;

/// The parity battle at `size` a side under `timing` and `policy`.
fn battle(size: u64, timing: &str, policy: &str) -> Result<Battle, SimError> {
    let edit = |e: skirmish_sim::scenario::ScenarioError| SimError::Scenario(e.to_string());
    let mut s = parity_scenario(size)?
        .with_field("timing", timing)
        .and_then(|s| s.with_field("battle.targeting", policy))
        .map_err(edit)?;
    if size > 10 {
        s = s.with_field("battle.max_actions", &BIG_CAP.to_string()).map_err(edit)?;
    }
    Battle::new(&s)
}

/// Fights battles `0..battles` of [`SEED`]; returns the actions.
fn fight(battle: &Battle, ws: &mut Workspace, battles: u64) -> Result<u64, SimError> {
    let mut actions = 0;
    for i in 0..battles {
        actions += battle.run_summary(ws, SEED, i)?.actions;
    }
    Ok(actions)
}

fn systems(c: &mut Criterion) {
    for size in SIZES {
        let mut group = c.benchmark_group(format!("systems-{size}"));
        group.sampling_mode(SamplingMode::Flat);
        let battles = if size > 10 {
            // Up to a million actions per iteration: few, long samples.
            group.sample_size(10).measurement_time(Duration::from_secs(5));
            1
        } else {
            group.sample_size(20).measurement_time(Duration::from_secs(2));
            1_000
        };
        for timing in TimingSystem::NAMES {
            for policy in POLICIES {
                let b = battle(size, timing, policy).expect("the parity battle is valid");
                let mut ws = Workspace::default();
                let actions = fight(&b, &mut ws, battles).expect("the parity battle is valid");
                group.throughput(Throughput::Elements(actions));
                group.bench_function(BenchmarkId::new(timing, policy), |bench| {
                    bench.iter(|| black_box(fight(&b, &mut ws, battles).expect("the parity battle is valid")));
                });
            }
        }
        group.finish();
    }
}

criterion_group! {
    name = bench;
    // 18 at 2x10 x (1 + 2 s) and 18 at 2x100,000 x (1 + 5 s, longer where
    // ten iterations do not fit): about 3-4 minutes.
    config = Criterion::default().warm_up_time(Duration::from_secs(1));
    targets = systems
}
criterion_main!(bench);
