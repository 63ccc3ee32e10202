//! Mirror of [`skirmish_core::ambush`]: the built-in goblin ambush, so an
//! app has a real fight to start with no data of its own.

use skirmish_core::ambush as core;

use crate::error::{Result, guard};
use crate::timing::InitiativeEntry;
use crate::tracker::CombatantSpec;

/// One member of the goblin ambush.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct AmbushMember {
    /// The combatant.
    pub spec: CombatantSpec,
    /// His initiative in the text's first round.
    pub text_initiative: InitiativeEntry,
}

/// The goblin ambush of the Relativity article: Roland, Madoc and Cardiff
/// against two orcs, two goblins and a shaman, party first.
#[uniffi::export]
pub fn goblin_ambush() -> Result<Vec<AmbushMember>> {
    guard(|| {
        Ok(core::goblin_ambush()
            .into_iter()
            .map(|m| AmbushMember {
                spec: m.spec.into(),
                text_initiative: m.text_initiative.into(),
            })
            .collect())
    })
}
