//! How a sweep's work is spread over its threads: the stream of chunks in
//! one part a worker (`sweep/run.rs`), and where the threads run
//! (`sweep/spread.rs`: the caller relays its workers onto cores of their
//! own, and nothing stays pinned afterwards, neither the caller nor a
//! worker; Linux and Android only, elsewhere there is no relay).

use skirmish_sim::scenario::Scenario;
use skirmish_sim::sweep::{SweepError, SweepOptions, run_sweep};

use crate::sweep::{battle, editor, spec, threads};

/// Cell 4 of [`spec`] (red_sr 6, blue_sr 5) fails at its battle 3, early
/// in the last part on two or three threads: the cells before it, in the
/// parts of the other workers, must still be finished for the sweep to
/// name it.
#[test]
fn a_failure_in_a_later_part_is_reported_once_the_earlier_cells_finish() {
    let failing = |s: &Scenario, seed: u64, i: u64| {
        if s.sides[0].groups[0].strike_rating == 6 && s.sides[1].groups[0].strike_rating == 5 && i >= 3 {
            return Err(format!("battle {i} broke"));
        }
        battle(s, seed, i)
    };
    for n in [1, 2, 3, 4, 7] {
        let err = run_sweep(&spec(500), editor, failing, &threads(n)).unwrap_err();
        let SweepError::Battle { cell, index, .. } = &err else {
            panic!("{n} threads: {err}")
        };
        assert_eq!((*cell, *index), (4, 3), "{n} threads: {err}");
    }
}

/// On two or more threads the workers may start before the cells are
/// built, and wait for them: a refused cell, a panicking editor or a
/// refused checkpoint must let them go (no hang) and run no battle.
#[test]
fn workers_started_before_the_setup_are_let_go_when_it_fails() {
    use std::panic::{AssertUnwindSafe, catch_unwind};
    use std::sync::atomic::{AtomicU64, Ordering};

    let calls = AtomicU64::new(0);
    let counting = |s: &Scenario, seed: u64, i: u64| {
        calls.fetch_add(1, Ordering::Relaxed);
        battle(s, seed, i)
    };
    for n in [2, 3, 8] {
        // A cell refused by the editor: its error, at once.
        let refusing = |s: &Scenario, path: &str, value: &str| {
            if value == "6" {
                return Err("six is refused".to_owned());
            }
            editor(s, path, value)
        };
        let err = run_sweep(&spec(50), refusing, counting, &threads(n)).unwrap_err();
        assert!(matches!(err, SweepError::Edit { cell: 1, .. }), "{n} threads: {err}");

        // An editor that panics: its panic, once every worker is joined.
        let panicking = |s: &Scenario, path: &str, value: &str| {
            if value == "6" {
                panic!("the editor broke");
            }
            editor(s, path, value)
        };
        let caught = catch_unwind(AssertUnwindSafe(|| {
            run_sweep(&spec(50), panicking, counting, &threads(n))
        }));
        let payload = caught.err().unwrap_or_else(|| panic!("{n} threads: no panic"));
        assert_eq!(payload.downcast_ref::<&str>(), Some(&"the editor broke"), "{n} threads");

        // A checkpoint that cannot be opened (a folder).
        let folder = crate::sweep::scratch("unused");
        let options = SweepOptions {
            checkpoint: folder.parent().map(std::path::Path::to_path_buf),
            ..threads(n)
        };
        assert!(run_sweep(&spec(50), editor, counting, &options).is_err(), "{n} threads");
    }
    assert_eq!(calls.load(Ordering::Relaxed), 0);
}

#[test]
fn more_threads_than_chunks_still_fight_every_battle_once() {
    let one = run_sweep(&spec(3), editor, battle, &threads(1)).unwrap().to_csv();
    for n in [2, 5, 64] {
        assert_eq!(
            run_sweep(&spec(3), editor, battle, &threads(n)).unwrap().to_csv(),
            one,
            "{n} threads"
        );
    }
}

#[cfg(any(target_os = "linux", target_os = "android"))]
mod relay {
    use std::sync::Mutex;

    use nix::sched::{CpuSet, sched_getaffinity, sched_setaffinity};
    use nix::unistd::Pid;
    use skirmish_sim::report::BattleSummary;
    use skirmish_sim::scenario::Scenario;
    use skirmish_sim::sweep::run_sweep;

    use crate::sweep::{battle, editor, spec, threads};

    fn mask() -> CpuSet {
        sched_getaffinity(Pid::from_raw(0)).unwrap()
    }

    fn cores(mask: &CpuSet) -> Vec<usize> {
        (0..CpuSet::count()).filter(|&c| mask.is_set(c).unwrap()).collect()
    }

    /// Runs the test sweep on `n` threads, every battle noting the affinity
    /// mask of the thread it runs on; the table's CSV and the masks seen.
    fn sweep_noting_masks(n: usize) -> (String, Vec<CpuSet>) {
        let seen = Mutex::new(Vec::new());
        let noting = |s: &Scenario, seed: u64, index: u64| -> Result<BattleSummary, String> {
            let here = mask();
            let mut seen = seen.lock().unwrap();
            if !seen.contains(&here) {
                seen.push(here);
            }
            drop(seen);
            battle(s, seed, index)
        };
        let table = run_sweep(&spec(400), editor, noting, &threads(n)).unwrap();
        (table.to_csv(), seen.into_inner().unwrap())
    }

    #[test]
    fn no_thread_of_a_sweep_stays_pinned_and_the_bytes_do_not_move() {
        let before = mask();
        let (one, _) = sweep_noting_masks(1);
        for n in [2, 3, 5] {
            let (csv, seen) = sweep_noting_masks(n);
            assert_eq!(csv, one, "{n} threads");
            // Every battle ran on a thread with the caller's own mask: the
            // workers took it back before their first chunk (a worker left
            // pinned would show a single core here, on a machine of two or
            // more).
            assert_eq!(
                seen,
                vec![before],
                "{n} threads: masks {:?}",
                seen.iter().map(cores).collect::<Vec<_>>()
            );
            assert_eq!(mask(), before, "{n} threads: the caller's mask after the sweep");
        }
    }

    #[test]
    fn a_caller_held_to_one_core_keeps_it_and_its_workers_start_as_they_are() {
        let own = mask();
        let Some(&core) = cores(&own).last() else {
            panic!("no core in this thread's mask")
        };
        let mut one_core = CpuSet::new();
        one_core.set(core).unwrap();
        sched_setaffinity(Pid::from_raw(0), &one_core).unwrap();
        let (one, _) = sweep_noting_masks(1);
        let (csv, seen) = sweep_noting_masks(2);
        let after = mask();
        sched_setaffinity(Pid::from_raw(0), &own).unwrap();
        assert_eq!(csv, one);
        assert_eq!(seen, vec![one_core]);
        assert_eq!(after, one_core);
    }
}
