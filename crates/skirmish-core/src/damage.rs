//! Damage models.
