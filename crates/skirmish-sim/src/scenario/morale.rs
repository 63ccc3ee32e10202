//! A side's morale: when it breaks off the battle and how (the rule is
//! `skirmish_core::morale::breaks`; docs/rules.md §5 states it).

use serde::{Deserialize, Serialize};
pub use skirmish_core::morale::BreakOutcome;

use super::error::ScenarioError;
use super::{Scenario, Side};

/// Most sides that may carry a [`Morale`]: a battle's summary keeps which
/// sides broke as bits of a 64-bit word, so sides `0..64` only.
pub const MAX_MORALE_SIDES: usize = 64;

/// When a side breaks off the battle, and how. Absent, a side fights to
/// the last, as every battle did before morale was played.
///
/// ```toml
/// [[sides]]
/// name = "goblinoids"
/// morale = { break_below = 0.5, leader = "Shaman", outcome = "surrender" }
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Morale {
    /// The side breaks at the end of a moment at which the share of its
    /// fielded fighters still standing is below this (0 to 1; default 0,
    /// never on numbers).
    pub break_below: f64,
    /// A group of the side (by name, ignoring case): the side breaks at
    /// the end of a moment at which nobody of that group stands.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub leader: Option<String>,
    /// What its fighters do when it breaks (default `retreat`).
    pub outcome: BreakOutcome,
}

impl Default for Morale {
    fn default() -> Self {
        Morale {
            break_below: 0.0,
            leader: None,
            outcome: BreakOutcome::Retreat,
        }
    }
}

impl Morale {
    /// The index of the leader group in `side`, if a leader is named and
    /// the side has a group of that name (ignoring case and outer spaces,
    /// as field paths find groups).
    pub fn leader_group(&self, side: &Side) -> Option<usize> {
        let leader = self.leader.as_deref()?.trim().to_lowercase();
        side.groups.iter().position(|g| g.name.trim().to_lowercase() == leader)
    }
}

impl Scenario {
    /// Whether any side has a [`Morale`].
    pub fn has_morale(&self) -> bool {
        self.sides.iter().any(|s| s.morale.is_some())
    }
}

/// Checks side `s`'s morale: only on the first [`MAX_MORALE_SIDES`] sides;
/// `break_below` a number in `0..=1`; a leader that names a group of the
/// side.
pub(super) fn validate(s: usize, side: &Side) -> Result<(), ScenarioError> {
    let Some(morale) = &side.morale else {
        return Ok(());
    };
    if s >= MAX_MORALE_SIDES {
        return Err(ScenarioError::invalid(
            format!("sides[{s}].morale"),
            format!(
                "morale is played on the first {MAX_MORALE_SIDES} sides only (a battle's summary keeps which sides \
                 broke in 64 bits); put side {:?} among them",
                side.name
            ),
        ));
    }
    let b = morale.break_below;
    if !(0.0..=1.0).contains(&b) {
        return Err(ScenarioError::invalid(
            format!("sides[{s}].morale.break_below"),
            format!("{b} is outside 0..=1 (a share of the side's fighters still standing)"),
        ));
    }
    if let Some(leader) = &morale.leader
        && morale.leader_group(side).is_none()
    {
        let names: Vec<&str> = side.groups.iter().map(|g| g.name.as_str()).collect();
        return Err(ScenarioError::invalid(
            format!("sides[{s}].morale.leader"),
            format!(
                "{leader:?} names no group of side {:?} (its groups: {})",
                side.name,
                names.join(", ")
            ),
        ));
    }
    Ok(())
}

/// Side `s`'s morale settings that do nothing: a threshold of 0 with no
/// leader never breaks the side.
pub(super) fn warnings(s: usize, side: &Side) -> Option<String> {
    let morale = side.morale.as_ref()?;
    (morale.break_below == 0.0 && morale.leader.is_none()).then(|| {
        format!(
            "sides[{s}].morale: break_below = 0 with no leader never breaks side {:?} (give a break_below above 0 \
             or a leader group)",
            side.name
        )
    })
}
