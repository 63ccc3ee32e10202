//! Striking: does an attack hit? Two systems from the texts.

pub mod full_contact;
pub mod opposed;
