//! # skirmish-benches
//!
//! The shared pieces of skirmish's criterion benches, so a bench and the
//! test that checks it run on the very same input:
//!
//! - [`stream`]: seeded event-stream generators ([`stream::StreamSpec`] ->
//!   [`stream::EventStream`]): N actors with a weapon each, their Ready
//!   Time rolls and the cancellations, all drawn up front from
//!   [`SeededRolls`](skirmish_core::dice::SeededRolls) so no bench pays for
//!   the RNG;
//! - [`reference`](mod@reference): [`reference::HeapQueue`], the `std::collections::BinaryHeap`
//!   reference the event queue is measured against;
//! - [`paired`]: the ratio of interleaved timings, with a bootstrap interval;
//! - [`floor`]: the least work one parity-battle action needs, the lower
//!   bound `benches/run-peers` divides the peers' time by;
//! - [`hold`]: the hold model that drives any [`hold::HoldQueue`] through a
//!   stream (pop the next tick's group, reschedule each actor, cancel now and
//!   then).
//!
//! The benches themselves live in `benches/benches/` and are run with
//! `cargo bench -p skirmish-benches`; see `benches/README.md`.
//!
//! # Example
//!
//! Both queues see the same stream and fire the same actors at the same
//! ticks:
//!
//! ```
//! use skirmish_benches::hold::Hold;
//! use skirmish_benches::reference::HeapQueue;
//! use skirmish_benches::stream::StreamSpec;
//! use skirmish_core::timing::queue::EventQueue;
//!
//! # fn main() -> skirmish_core::Result<()> {
//! let stream = StreamSpec::weapons(100).with_cancels(10).generate();
//! let (mut a, mut b) = (Vec::new(), Vec::new());
//! Hold::new(&stream, EventQueue::new())?.run(&stream, 5_000, |tick, actor| a.push((tick, actor)))?;
//! Hold::new(&stream, HeapQueue::new(stream.actors()))?.run(&stream, 5_000, |tick, actor| b.push((tick, actor)))?;
//! assert_eq!(a, b);
//! # Ok(())
//! # }
//! ```

#![deny(missing_docs)]

pub mod battle;
pub mod floor;
pub mod hold;
pub mod paired;
pub mod reference;
pub mod stream;
pub mod tracker;
