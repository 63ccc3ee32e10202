//! Timing: when an action lands.

pub mod analysis;
pub mod queue;
