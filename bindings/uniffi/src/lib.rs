//! # skirmish-uniffi
//!
//! The skirmish combat tracker for Kotlin (Android) and Swift (iOS),
//! through [UniFFI](https://mozilla.github.io/uniffi-rs/). One object,
//! [`Encounter`], with every operation of
//! [`skirmish_core::tracker::Encounter`]; plain records and enums that
//! mirror the core's types (the core's own types keep their Rust shape:
//! `usize`, tuples, private fields, a `Duration` that clashes with UniFFI's);
//! the exact odds of a Full Contact strike; the weapon and armor tables;
//! [`balance`](balance::balance), where a side's win rate crosses a target;
//! [`exact`](exact::exact), a small fight's exact outcome; the
//! built-in scenarios (`Encounter.fromScenario("goblin-ambush", seed)`).
//!
//! One file per core module, conversion only: no rule lives here.
//!
//! - Every call returns `Result<_, SkirmishError>` (in Kotlin every call
//!   may throw `SkirmishException`, in Swift every call `throws`), getters
//!   included: a panic is caught and comes back as
//!   [`SkirmishError::Internal`], since in Swift a panic in a non-throwing
//!   function would trap the app.
//! - Errors are the tracker's few stable kinds, mapped in one place
//!   ([`SkirmishError::from_tracker`]).
//! - Calls are synchronous, with no callbacks; an `Encounter` is safe to
//!   share between threads (see [`tracker`]).
//!
//! `scripts/test-mobile` builds this crate, generates the Kotlin and Swift
//! bindings, runs a Kotlin program against it on the JVM, checks the Swift
//! and builds the Android and iOS targets; `docs/mobile.md` is the guide.

uniffi::setup_scaffolding!();

pub mod balance;
pub mod damage;
pub mod error;
pub mod exact;
pub mod fighter;
pub mod odds;
pub mod striking;
pub mod tables;
pub mod tactics;
pub mod timing;
pub mod tracker;

pub use error::SkirmishError;
pub use tracker::Encounter;
