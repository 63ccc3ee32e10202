//! Long work (a sweep, a balance search) on a worker thread with the GIL
//! released, while the calling thread wakes every [`POLL`] to check for
//! Ctrl-C and to run the caller's own poll (a progress bar).
//!
//! A KeyboardInterrupt, or an error of the caller's poll, raises the work's
//! cancel flag: the work stops at its next check and keeps what it has done
//! (a sweep's finished cells in its checkpoint), and the error is raised
//! once the worker has ended. A panic in the worker is an `InternalError`.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use pyo3::prelude::*;

use crate::error::internal;

/// How often the calling thread wakes to check for Ctrl-C and to poll.
pub(crate) const POLL: Duration = Duration::from_millis(100);

/// Runs `work` on a scoped thread with the GIL released; every [`POLL`]
/// until it ends, checks for Ctrl-C, then calls `poll`. The first error of
/// either sets `cancel` and is returned after `work` has ended; `what`
/// names the work in the error of a worker that ended without a result.
pub(crate) fn interruptible<T: Send>(
    py: Python<'_>,
    what: &str,
    cancel: &AtomicBool,
    work: impl FnOnce() -> T + Send,
    mut poll: impl FnMut(Python<'_>) -> PyResult<()>,
) -> PyResult<T> {
    let (done_tx, mut done_rx) = mpsc::channel();
    let mut interrupted: Option<PyErr> = None;
    let outcome = std::thread::scope(|scope| {
        scope.spawn(move || {
            let result = catch_unwind(AssertUnwindSafe(work));
            // The receiver outlives this thread (same scope).
            let _ = done_tx.send(result);
        });
        loop {
            // The receiver is Send but not Sync: it goes into the detached
            // closure and comes back out.
            let (received, rx) = py.detach(move || (done_rx.recv_timeout(POLL), done_rx));
            done_rx = rx;
            match received {
                Ok(result) => return Some(result),
                Err(mpsc::RecvTimeoutError::Disconnected) => return None,
                Err(mpsc::RecvTimeoutError::Timeout) => {}
            }
            if interrupted.is_some() {
                continue;
            }
            if let Err(e) = py.check_signals().and_then(|()| poll(py)) {
                // Stop at the work's next check; what is done is kept.
                cancel.store(true, Ordering::Relaxed);
                interrupted = Some(e);
            }
        }
    });
    if let Some(e) = interrupted {
        return Err(e);
    }
    match outcome {
        Some(Ok(value)) => Ok(value),
        Some(Err(payload)) => Err(internal(py, payload.as_ref())),
        None => Err(internal(py, &format!("the {what} thread ended without a result"))),
    }
}
