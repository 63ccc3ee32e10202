//! Data tables from the texts.

pub mod armor;
pub mod weapons;
