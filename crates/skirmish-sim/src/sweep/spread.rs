//! Where a sweep's threads first run: each on a core of its own, at once.
//!
//! A thread started beside a busy one is queued, most of the time, on the
//! busy thread's own core, and runs there only when the kernel next
//! balances its cores: on the virtual machines this project runs on (and
//! the cloud notebooks designers sweep in) that can be milliseconds later,
//! up to a scheduler tick (`benches/examples/thread_start` measures it). A
//! short sweep such as the README's lasts a few such delays, so the
//! second worker lost a large part of it before its first battle.
//!
//! So, on Linux and Android, the caller starting the workers relays them:
//! it pins itself to the core it is on, starts a worker (which inherits
//! the pin, so it is queued on that core and nowhere else) and yields the
//! core until the worker has run. The worker's first act is to say so and
//! move itself to the next core the caller may use: the kernel moves it
//! before the call returns (the idle core is woken to take it),
//! while the caller goes on, on its own core. Then the worker takes back
//! the caller's affinity mask, and after the last worker so does the
//! caller: nothing stays pinned, and a busy machine balances the threads
//! as it would have.
//!
//! The worker moves, not the caller: an idle virtual core can take
//! milliseconds to wake (a caller moving itself instead waited for its new
//! core), and the caller has the sweep's setup to do; the worker only
//! waits for it.
//!
//! Only where the threads run changes, never what they compute: the
//! sweep's bytes do not depend on which thread runs which chunk. Every
//! step is best-effort: a call that fails (a seccomp filter, a core taken
//! away meanwhile) leaves that thread where it is, and a worker that could
//! not move says so ([`Placement::apply`]). A caller allowed on one core
//! only, or not told where it runs, relays nothing. Elsewhere (macOS,
//! Windows, iOS) there is no relay.

#[cfg(any(target_os = "linux", target_os = "android"))]
mod imp {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::{Duration, Instant};

    use nix::sched::{CpuSet, sched_getaffinity, sched_getcpu, sched_setaffinity};
    use nix::unistd::Pid;

    /// The calling thread.
    const SELF: Pid = Pid::from_raw(0);

    /// How long the caller yields its core, at most, for a worker to run:
    /// it runs at once unless the machine is busy, and the caller then
    /// goes on without it.
    const YIELD: Duration = Duration::from_millis(10);

    /// A relay under way: the caller's own mask, the cores it may use (the
    /// caller's first, then the others in order), and how many workers it
    /// has placed. Dropped, the caller takes back its own mask.
    #[derive(Debug)]
    pub(in crate::sweep) struct Relay {
        mask: CpuSet,
        cores: Vec<usize>,
        placed: usize,
    }

    /// Where a worker goes on its first step: the core of its own it moves
    /// to (`None`: there are more workers than cores; it stays where the
    /// kernel put it), and the mask it takes back after.
    #[derive(Debug, Clone, Copy)]
    pub(in crate::sweep) struct Placement {
        core: Option<usize>,
        mask: Option<CpuSet>,
    }

    impl Relay {
        /// Pins the calling thread to the core it is on, so that the
        /// workers it starts are queued there; `None` (nothing changed)
        /// when its mask, its core or a second core is unknown.
        pub(in crate::sweep) fn start() -> Option<Relay> {
            let mask = sched_getaffinity(SELF).ok()?;
            let here = sched_getcpu().ok()?;
            let mut cores: Vec<usize> = (0..CpuSet::count())
                .filter(|&c| mask.is_set(c).unwrap_or(false))
                .collect();
            let first = cores.iter().position(|&c| c == here)?;
            if cores.len() < 2 {
                return None;
            }
            cores.rotate_left(first);
            pin(here).then_some(Relay { mask, cores, placed: 0 })
        }

        /// The placement of the next worker started: the next core after
        /// the caller's, while there are any.
        pub(in crate::sweep) fn place(&mut self) -> Placement {
            self.placed += 1;
            Placement {
                core: self.cores.get(self.placed).copied(),
                mask: Some(self.mask),
            }
        }

        /// Yields the caller's core until `arrived` counts `n` workers (or
        /// [`YIELD`] has passed): the worker just started is queued on it.
        pub(in crate::sweep) fn wait(&self, arrived: &AtomicUsize, n: usize) {
            let since = Instant::now();
            while arrived.load(Ordering::Acquire) < n && since.elapsed() < YIELD {
                std::thread::yield_now();
            }
        }
    }

    impl Drop for Relay {
        fn drop(&mut self) {
            // Best-effort, as every step: a mask that cannot be restored
            // leaves the caller on one core it was allowed.
            let _ = sched_setaffinity(SELF, &self.mask);
        }
    }

    impl Placement {
        /// A worker started without a relay: it stays where it is.
        pub(in crate::sweep) const NONE: Placement = Placement { core: None, mask: None };

        /// The worker's first act: counts itself in `arrived` (the caller
        /// goes on), moves to its core and takes back the caller's mask.
        /// Whether it is now on a core of its own.
        pub(in crate::sweep) fn apply(self, arrived: &AtomicUsize) -> bool {
            arrived.fetch_add(1, Ordering::Release);
            let moved = self.core.is_some_and(pin);
            if let Some(mask) = self.mask {
                let _ = sched_setaffinity(SELF, &mask);
            }
            moved
        }
    }

    /// Pins the calling thread to `core` (the kernel moves it there before
    /// returning).
    fn pin(core: usize) -> bool {
        let mut one = CpuSet::new();
        one.set(core).is_ok() && sched_setaffinity(SELF, &one).is_ok()
    }
}

#[cfg(not(any(target_os = "linux", target_os = "android")))]
mod imp {
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// No relay on this platform: [`Relay::start`] gives `None`.
    #[derive(Debug)]
    pub(in crate::sweep) struct Relay(());

    /// A worker stays where the system puts it.
    #[derive(Debug, Clone, Copy)]
    pub(in crate::sweep) struct Placement(());

    impl Relay {
        /// No relay on this platform.
        pub(in crate::sweep) fn start() -> Option<Relay> {
            None
        }

        /// Never called: there is no relay.
        pub(in crate::sweep) fn place(&mut self) -> Placement {
            Placement(())
        }

        /// Never called: there is no relay.
        pub(in crate::sweep) fn wait(&self, _: &AtomicUsize, _: usize) {}
    }

    impl Placement {
        /// A worker stays where it is.
        pub(in crate::sweep) const NONE: Placement = Placement(());

        /// Counts the worker in `arrived`; it has no core of its own.
        pub(in crate::sweep) fn apply(self, arrived: &AtomicUsize) -> bool {
            arrived.fetch_add(1, Ordering::Release);
            false
        }
    }
}

pub(super) use imp::{Placement, Relay};
