//! Integration tests of skirmish-core: one binary, one module per part.
#![allow(clippy::unwrap_used, reason = "tests")]

mod dice;
mod opposed;
