//! # skirmish-core
//!
//! The rules of tabletop-RPG combat as three independent parts:
//! **timing** (when an action lands), **striking** (does it hit) and
//! **damage** (what the hit does). (Crate docs are completed below.)

#![deny(missing_docs)]

pub mod damage;
pub mod dice;
pub mod error;
pub mod ladder;
pub mod striking;
pub mod tables;
pub mod timing;

pub use error::{Error, Result};
