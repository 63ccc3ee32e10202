//! Timing: when an action lands.

pub mod queue;
