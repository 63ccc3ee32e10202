//! Armor table.
