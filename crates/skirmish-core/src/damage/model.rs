//! The shared model: [`Condition`], [`HitOutcome`] and the [`DamageModel`]
//! trait every damage model implements, so a battle or the tracker can apply
//! hits without knowing which model it runs.

use std::fmt;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::error::Result;

/// Whether a combatant is still in the fight.
///
/// Ordered: `Standing < Down < Dead`; a combatant never moves back down the
/// order by taking damage.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Condition {
    /// Able to fight (perhaps at a wound penalty).
    Standing,
    /// Out of the fight, not dead (Incapacitated, Near Death, hp <= 0).
    Down,
    /// Dead (also out of the fight).
    Dead,
}

impl Condition {
    /// Out of the fight: down or dead.
    #[inline]
    pub const fn is_down(self) -> bool {
        !matches!(self, Condition::Standing)
    }

    /// Dead.
    #[inline]
    pub const fn is_dead(self) -> bool {
        matches!(self, Condition::Dead)
    }
}

/// What one hit did: the model's own detail, plus what every model reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct HitOutcome<C> {
    /// What the model changed ([`WoundChange`](super::WoundChange), [`HitPointChange`](super::HitPointChange), ...).
    pub change: C,
    /// Condition before the hit.
    pub before: Condition,
    /// Condition after the hit.
    pub after: Condition,
    /// The wound penalty after the hit (0, -1 Hurt, -2 Very Hurt).
    pub penalty: i32,
}

impl<C> HitOutcome<C> {
    /// This hit took the combatant out of the fight.
    #[inline]
    pub fn newly_down(&self) -> bool {
        !self.before.is_down() && self.after.is_down()
    }

    /// This hit killed the combatant.
    #[inline]
    pub fn newly_dead(&self) -> bool {
        !self.before.is_dead() && self.after.is_dead()
    }
}

/// A damage model: turns the damage of a hit into its effect on a combatant.
///
/// The model holds the rules (validated when it is built); each combatant
/// has a small `Copy` [`State`](DamageModel::State), made by
/// [`fresh`](DamageModel::fresh). Applying a hit never allocates and never
/// panics, whatever the damage.
pub trait DamageModel {
    /// What one combatant has taken (plain data, serializable for snapshots).
    type State: Copy + fmt::Debug + PartialEq + Serialize + DeserializeOwned + Send + Sync + 'static;
    /// The model's report of what one hit changed; its `Display` is the
    /// result in the words a GM checks on a tick sheet ("Hurt; now Very
    /// Hurt", "loses 2 hit points, 5 left").
    type Change: Copy + fmt::Debug + fmt::Display + PartialEq;

    /// The state of a combatant who has taken no damage.
    fn fresh(&self) -> Self::State;

    /// Applies a hit of `damage` (margin plus damage factor, see
    /// [`DamageFactors::damage`](super::DamageFactors::damage)); damage <= 0 changes nothing.
    fn apply(&self, state: &mut Self::State, damage: i32) -> HitOutcome<Self::Change>;

    /// The wound penalty the striking code adds to this combatant's rolls:
    /// 0, or negative (FUDGE 4.31: Hurt -1, Very Hurt -2).
    fn wound_penalty(&self, state: &Self::State) -> i32;

    /// Standing, down or dead.
    fn status(&self, state: &Self::State) -> Condition;

    /// Out of the fight (down or dead).
    #[inline]
    fn is_down(&self, state: &Self::State) -> bool {
        self.status(state).is_down()
    }

    /// Dead.
    #[inline]
    fn is_dead(&self, state: &Self::State) -> bool {
        self.status(state).is_dead()
    }

    /// Checks that `state` could have come from this model (a restored
    /// snapshot, say): a state that does not fit is refused with the field.
    fn validate_state(&self, state: &Self::State) -> Result<()>;
}
