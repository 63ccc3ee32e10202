//! Where a sweep's threads first run: each on a core of its own, at once.
//!
//! A thread started beside a busy one is queued, most of the time, on the
//! busy thread's own core, and runs there only when the kernel next
//! balances its cores: on the virtual machines this project runs on (and
//! the cloud notebooks designers sweep in) that is 1.9 ms later in the
//! median and up to a 4 ms scheduler tick (`benches/examples/thread_start`:
//! a worker started beside a busy thread first runs on that thread's core
//! in 70 of 100 trials). The README's six-system sweep is 6-7 ms in all on
//! two threads, so the second worker lost a seventh of it before its first
//! battle.
//!
//! So, on Linux and Android, the thread starting the workers relays: it
//! pins itself to the core it is on, starts a worker there (the worker
//! inherits the pin, so it is queued on that core, not anywhere else), then
//! moves itself to the next core it may use, which the kernel does before
//! the call returns (0.05 ms: the idle core is woken to take it), leaving
//! the worker its old core to run on at once. After the last worker the
//! caller takes back its own affinity mask, and every worker takes back
//! the same mask as its first act: nothing stays pinned, and a busy
//! machine balances the threads as it would have.
//!
//! Only where the threads run changes, never what they compute: the
//! sweep's bytes do not depend on which thread runs which chunk. Every
//! step is best-effort: a call that fails (a seccomp filter, a core taken
//! away meanwhile) ends the relay, the caller's mask is restored, and the
//! workers start as they otherwise would. A caller allowed on one core
//! only, or not told where it runs, relays nothing. Elsewhere (macOS,
//! Windows, iOS) the relay is a no-op.

#[cfg(any(target_os = "linux", target_os = "android"))]
mod imp {
    use nix::sched::{CpuSet, sched_getaffinity, sched_getcpu, sched_setaffinity};
    use nix::unistd::Pid;

    /// The calling thread.
    const SELF: Pid = Pid::from_raw(0);

    /// A relay under way: the caller's own mask, the cores it may use in
    /// the order it visits them (from the one it started on), and how
    /// many it has visited. Dropped, the caller takes back its own mask
    /// (staying, for now, on the core it is on).
    #[derive(Debug)]
    pub(in crate::sweep) struct Relay {
        mask: CpuSet,
        cores: Vec<usize>,
        at: usize,
    }

    /// What a worker started by a relay restores on its first run.
    #[derive(Debug, Clone, Copy)]
    pub(in crate::sweep) struct Unpin(Option<CpuSet>);

    impl Relay {
        /// Pins the calling thread to the core it is on, so that the next
        /// thread it starts is queued there; `None` (nothing changed) when
        /// its mask, its core or a second core to move to is unknown.
        pub(in crate::sweep) fn start() -> Option<Relay> {
            let mask = sched_getaffinity(SELF).ok()?;
            let here = sched_getcpu().ok()?;
            let allowed: Vec<usize> = (0..CpuSet::count())
                .filter(|&c| mask.is_set(c).unwrap_or(false))
                .collect();
            let first = allowed.iter().position(|&c| c == here)?;
            if allowed.len() < 2 {
                return None;
            }
            let mut cores = allowed;
            cores.rotate_left(first);
            let relay = Relay { mask, cores, at: 0 };
            pin(here).then_some(relay)
        }

        /// What a worker started now restores on its first run.
        pub(in crate::sweep) fn unpin(&self) -> Unpin {
            Unpin(Some(self.mask))
        }

        /// Whether there is a core for [`step`](Self::step) to move to.
        pub(in crate::sweep) fn has_next(&self) -> bool {
            self.at + 1 < self.cores.len()
        }

        /// A worker was just started on the caller's core: the caller moves
        /// to the next core, leaving it that one. `false` when there is no
        /// core left to move to or the move failed: the caller then drops
        /// the relay, and further workers start unpinned.
        pub(in crate::sweep) fn step(&mut self) -> bool {
            match self.cores.get(self.at + 1) {
                Some(&next) if pin(next) => {
                    self.at += 1;
                    true
                }
                _ => false,
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

    impl Unpin {
        /// A worker started without a relay: nothing to restore.
        pub(in crate::sweep) const NONE: Unpin = Unpin(None);

        /// The worker's first act: takes back the caller's own mask.
        pub(in crate::sweep) fn apply(self) {
            if let Some(mask) = self.0 {
                let _ = sched_setaffinity(SELF, &mask);
            }
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
    /// No relay on this platform: [`Relay::start`] gives `None`.
    #[derive(Debug)]
    pub(in crate::sweep) struct Relay(());

    /// Nothing to restore on this platform.
    #[derive(Debug, Clone, Copy)]
    pub(in crate::sweep) struct Unpin(());

    impl Relay {
        /// No relay on this platform.
        pub(in crate::sweep) fn start() -> Option<Relay> {
            None
        }

        /// Never called: there is no relay.
        pub(in crate::sweep) fn unpin(&self) -> Unpin {
            Unpin(())
        }

        /// Never called: there is no relay.
        pub(in crate::sweep) fn has_next(&self) -> bool {
            false
        }

        /// Never called: there is no relay.
        pub(in crate::sweep) fn step(&mut self) -> bool {
            false
        }
    }

    impl Unpin {
        /// Nothing to restore.
        pub(in crate::sweep) const NONE: Unpin = Unpin(());

        /// Nothing to restore.
        pub(in crate::sweep) fn apply(self) {}
    }
}

pub(super) use imp::{Relay, Unpin};
