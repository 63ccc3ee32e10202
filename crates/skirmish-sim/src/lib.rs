//! # skirmish-sim
//!
//! Battles and Monte Carlo sweeps on the rules of `skirmish-core`.

#![deny(missing_docs)]

pub mod battle;
mod clock;
pub mod error;
mod fast;
pub mod report;
pub mod scenario;
pub mod stats;
pub mod sweep;

pub use battle::{Battle, RunOptions, run_battle};
pub use error::SimError;
