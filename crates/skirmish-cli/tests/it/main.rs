//! Integration tests of the `skirmish` binary: one test binary, one module
//! per verb or concern (one link instead of six).
#![allow(clippy::unwrap_used, reason = "tests")]

mod balance;
mod cli;
mod exact;
mod inputs;
mod morale;
#[cfg(unix)]
mod outputs;
mod papercuts;
mod replay;
mod run;
#[cfg(unix)]
mod terminal;
mod track;
mod track_scouting;
