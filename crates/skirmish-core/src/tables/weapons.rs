//! Weapon speed tables.
