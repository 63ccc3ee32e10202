//! The battle and sweep benches do fixed, correct work: a batch fights the
//! same battles every iteration, the engine's fast path fights them exactly
//! as its general loop does, and the sweep gives the same table on 1 and 2
//! threads.

use skirmish_benches::battle::{BattleBatch, SEED, SIZES, battles_per_iteration, sweep_spec};
use skirmish_core::dice::SeededRolls;
use skirmish_sim::battle::{RunOptions, Workspace};
use skirmish_sim::sweep::{SweepOptions, sweep};

#[test]
fn a_batch_does_the_same_work_every_iteration() {
    for size in [10, 1_000] {
        let mut batch = BattleBatch::new(size).unwrap();
        assert!(batch.actions > 1_000, "{size}: {} actions", batch.actions);
        assert_eq!(batch.run().unwrap(), batch.actions);
        assert_eq!(batch.battles, battles_per_iteration(size));
    }
    assert_eq!(SIZES, [10, 1_000, 100_000]);
    assert_eq!(battles_per_iteration(100_000), 1);
}

#[test]
fn the_benched_battles_take_the_fast_path_and_agree_with_the_general_loop() {
    for size in [10, 1_000] {
        let batch = BattleBatch::new(size).unwrap();
        let battle = batch.battle();
        assert!(battle.has_fast_path());
        let mut ws = Workspace::default();
        for i in 0..batch.battles.min(20) {
            let fast = battle.run_summary(&mut ws, SEED, i).unwrap();
            let general = battle
                .run_with(
                    &mut ws,
                    &mut SeededRolls::for_stream(SEED, i),
                    &RunOptions::default(),
                    true,
                )
                .unwrap()
                .summary;
            assert_eq!(fast, general, "{size}: battle {i}");
        }
    }
}

#[test]
fn the_benched_sweep_is_the_same_on_one_and_two_threads() {
    let mut spec = sweep_spec().unwrap();
    assert_eq!(spec.axes.len(), 1);
    assert_eq!(spec.axes[0].values.len() as u64 * spec.battles, 10_000);
    spec.battles = 50;
    let on = |threads| {
        sweep(
            &spec,
            &SweepOptions {
                threads: Some(threads),
                ..SweepOptions::default()
            },
        )
        .unwrap()
    };
    assert!(on(1) == on(2));
}
