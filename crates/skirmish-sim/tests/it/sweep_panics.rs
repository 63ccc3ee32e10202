//! A battle that panics inside a sweep: the panic becomes an error naming
//! the cell and the battle, the finished cells stay in the checkpoint, and
//! a resume continues from them.

use std::fs;
use std::sync::atomic::{AtomicU64, Ordering};

use skirmish_sim::report::BattleSummary;
use skirmish_sim::scenario::Scenario;
use skirmish_sim::sweep::{SweepError, SweepOptions, run_sweep};

use crate::checkpoint::with_checks;
use crate::sweep::{battle, editor, resuming, scratch, spec, threads};

/// Battle `i` of cell 3 (red_sr = 5, blue_sr = 6: the first axis varies
/// slowest) panics when `i` ends in 7 from 37 on; every other battle is
/// the ordinary stand-in.
fn panicking(s: &Scenario, seed: u64, i: u64) -> Result<BattleSummary, String> {
    let cell_3 = s.sides[0].groups[0].strike_rating == 5 && s.sides[1].groups[0].strike_rating == 6;
    if cell_3 && i >= 37 && i % 10 == 7 {
        panic!("injected failure in battle {i}");
    }
    battle(s, seed, i)
}

#[test]
fn a_panicking_battle_is_an_error_naming_it_and_finished_cells_are_kept() {
    let full = run_sweep(&spec(100), editor, battle, &threads(2)).unwrap().to_csv();
    let lines: Vec<&str> = full.lines().collect();
    for workers in [1, 3] {
        let path = scratch(&format!("panic-{workers}.csv"));
        let err = run_sweep(
            &spec(100),
            editor,
            panicking,
            &SweepOptions {
                checkpoint: Some(path.clone()),
                ..threads(workers)
            },
        )
        .unwrap_err();
        let SweepError::Panicked {
            cell,
            values,
            index,
            message,
        } = &err
        else {
            panic!("{err}")
        };
        // The lowest panicking battle of the cell, whichever thread ran it.
        assert_eq!((*cell, *index), (3, 37), "{err}");
        assert_eq!(
            values,
            &[
                ("red_sr".to_owned(), "5".to_owned()),
                ("blue_sr".to_owned(), "6".to_owned())
            ]
        );
        assert_eq!(message, "injected failure in battle 37");
        assert!(
            err.to_string()
                .starts_with("cell 3 (red_sr=5, blue_sr=6), battle 37: the battle panicked"),
            "{err}"
        );
        // Cells 0, 1 and 2 finished before it and are in the checkpoint.
        assert_eq!(fs::read_to_string(&path).unwrap(), with_checks(&lines[..4]));

        // Resumed (the bug fixed), only cells 3, 4 and 5 are fought.
        let calls = AtomicU64::new(0);
        let counting = |s: &Scenario, seed: u64, i: u64| {
            calls.fetch_add(1, Ordering::Relaxed);
            battle(s, seed, i)
        };
        let table = run_sweep(&spec(100), editor, counting, &resuming(&path)).unwrap();
        assert_eq!(calls.load(Ordering::Relaxed), 3 * 100);
        assert_eq!(table.to_csv(), full);
        assert_eq!(fs::read_to_string(&path).unwrap(), full);
    }
}

#[test]
fn a_panic_without_a_text_message_is_still_named() {
    let odd = |s: &Scenario, seed: u64, i: u64| -> Result<BattleSummary, String> {
        if i == 5 {
            std::panic::panic_any(17_u32);
        }
        battle(s, seed, i)
    };
    let err = run_sweep(&spec(10), editor, odd, &threads(2)).unwrap_err();
    assert!(
        matches!(&err, SweepError::Panicked { cell: 0, index: 5, message, .. } if message == "a panic without a message"),
        "{err}"
    );
}
