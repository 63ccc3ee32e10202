//! Morale: when a side breaks off a battle, and how.
//!
//! The *Relativity* article ends its battle "with at least one side either
//! surrendering, retreating, or being wiped out", and FUDGE chapter 4 has
//! a thug run away and Gunner surrender at gunpoint; neither text says
//! *when* a side gives up. The rule here is ours (docs/rules.md §5): a side
//! breaks when the share of its fielded fighters still standing falls
//! below its threshold, or when nobody of its leader group stands. It is
//! one function, [`breaks`], that every battle path calls.
//!
//! ```
//! use skirmish_core::morale::{breaks, BreakOutcome};
//!
//! // Two of four standing is a half: not below a half...
//! assert!(!breaks(2, 4, 0.5, false));
//! // ...one of four is.
//! assert!(breaks(1, 4, 0.5, false));
//! // The leader down breaks a side whatever its numbers.
//! assert!(breaks(4, 4, 0.0, true));
//! // A side wiped out does not break: it was wiped out.
//! assert!(!breaks(0, 4, 0.5, true));
//! assert_eq!(BreakOutcome::default(), BreakOutcome::Retreat);
//! ```

use serde::{Deserialize, Serialize};

/// What a side that breaks does: its standing fighters leave the battle
/// either way; the report counts the two apart.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BreakOutcome {
    /// They flee (FUDGE 4.21: "one mobster will run away").
    #[default]
    Retreat,
    /// They give up (FUDGE 4.21: "Gunner wisely heeds the call to
    /// surrender").
    Surrender,
}

impl BreakOutcome {
    /// Its name as scenarios write it: `retreat`, `surrender`.
    pub const fn name(self) -> &'static str {
        match self {
            BreakOutcome::Retreat => "retreat",
            BreakOutcome::Surrender => "surrender",
        }
    }
}

/// Whether a side breaks at the end of a moment: it has fighters standing
/// (a side with none was wiped out, it does not break), and either the
/// share standing, `standing / fielded`, is below `break_below`, or its
/// leader group has nobody standing (`leader_down`).
///
/// `break_below` is in `0..=1` (a scenario checks it): 0 never breaks on
/// numbers, 1 breaks at the first fall.
#[inline]
pub fn breaks(standing: u64, fielded: u64, break_below: f64, leader_down: bool) -> bool {
    if standing == 0 || fielded == 0 {
        return false;
    }
    leader_down || (standing as f64 / fielded as f64) < break_below
}
