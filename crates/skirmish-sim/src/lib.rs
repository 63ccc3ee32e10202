//! # skirmish-sim
//!
//! Battles and Monte Carlo sweeps on the rules of `skirmish-core`.

#![deny(missing_docs)]

pub mod report;
pub mod scenario;
pub mod stats;
pub mod sweep;
