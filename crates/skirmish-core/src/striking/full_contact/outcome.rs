//! The optional rules a strike is resolved under, and what a strike can
//! come to ([`StrikeOutcome`]).

use std::fmt;

use serde::{Deserialize, Serialize};

/// The optional rules in use. All off (the default) is the core rule.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct StrikeOptions {
    /// "Guaranteed Successes and Fumbles": a +4 always hits and a -4
    /// always misses (except out of reach, where nothing hits).
    pub guaranteed_success_and_fumble: bool,
    /// "Amazing Strikes and Defenses".
    pub amazing: bool,
    /// "Point-Blank Range": +2 SR against a target nearer than the weapon's
    /// Range Strength.
    pub point_blank: bool,
}

impl StrikeOptions {
    /// The core rule only.
    pub const CORE: StrikeOptions = StrikeOptions {
        guaranteed_success_and_fumble: false,
        amazing: false,
        point_blank: false,
    };

    /// Every optional rule.
    pub const ALL: StrikeOptions = StrikeOptions {
        guaranteed_success_and_fumble: true,
        amazing: true,
        point_blank: true,
    };

    /// All eight combinations of the optional rules, the core rule first.
    pub const fn combinations() -> [StrikeOptions; 8] {
        let mut all = [StrikeOptions::CORE; 8];
        let mut i = 0;
        while i < 8 {
            all[i] = StrikeOptions {
                guaranteed_success_and_fumble: i & 1 != 0,
                amazing: i & 2 != 0,
                point_blank: i & 4 != 0,
            };
            i += 1;
        }
        all
    }
}

/// What one strike did. Every outcome carries its **margin**,
/// SR + roll - DR (with the SR after range adjustments): positive on a
/// normal hit, 0 or less on a normal miss.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum StrikeOutcome {
    /// SR + roll > DR: the blow lands.
    Hit {
        /// SR + roll - DR (1 or more).
        margin: i64,
    },
    /// Optional: a hit by 4 or more, or a hit on a roll of +4.
    AmazingStrike {
        /// SR + roll - DR (1 or more).
        margin: i64,
    },
    /// Optional: a +4 that lands only because of the guaranteed-success rule.
    GuaranteedHit {
        /// SR + roll - DR (0 or less).
        margin: i64,
    },
    /// SR + roll <= DR: the blow does not land (a tie goes to the defender).
    Miss {
        /// SR + roll - DR (0 or less).
        margin: i64,
    },
    /// Optional: DR beats SR + roll by 3 or more, or a miss on a roll of -4.
    AmazingDefense {
        /// SR + roll - DR (0 or less).
        margin: i64,
    },
    /// Optional: a -4 that misses only because of the fumble rule.
    Fumble {
        /// SR + roll - DR (1 or more).
        margin: i64,
    },
    /// Range has reduced the SR to 0 or less: nothing can hit at that
    /// distance, guaranteed success included.
    OutOfReach {
        /// The SR after range adjustments (0 or less).
        strike_rating: i64,
        /// SR + roll - DR with that SR.
        margin: i64,
    },
}

impl StrikeOutcome {
    /// Whether the blow lands.
    #[inline]
    pub const fn is_hit(self) -> bool {
        matches!(
            self,
            StrikeOutcome::Hit { .. } | StrikeOutcome::AmazingStrike { .. } | StrikeOutcome::GuaranteedHit { .. }
        )
    }

    /// SR + roll - DR.
    #[inline]
    pub const fn margin(self) -> i64 {
        match self {
            StrikeOutcome::Hit { margin }
            | StrikeOutcome::AmazingStrike { margin }
            | StrikeOutcome::GuaranteedHit { margin }
            | StrikeOutcome::Miss { margin }
            | StrikeOutcome::AmazingDefense { margin }
            | StrikeOutcome::Fumble { margin }
            | StrikeOutcome::OutOfReach { margin, .. } => margin,
        }
    }

    /// The outcome's name in words: `"hit"`, `"amazing strike"`, ...
    pub const fn name(self) -> &'static str {
        match self {
            StrikeOutcome::Hit { .. } => "hit",
            StrikeOutcome::AmazingStrike { .. } => "amazing strike",
            StrikeOutcome::GuaranteedHit { .. } => "guaranteed hit",
            StrikeOutcome::Miss { .. } => "miss",
            StrikeOutcome::AmazingDefense { .. } => "amazing defense",
            StrikeOutcome::Fumble { .. } => "fumble",
            StrikeOutcome::OutOfReach { .. } => "out of reach",
        }
    }
}

impl fmt::Display for StrikeOutcome {
    /// `"hit (margin +2)"`, `"miss (margin 0)"`,
    /// `"out of reach (SR -1 after range)"`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            StrikeOutcome::OutOfReach { strike_rating, .. } => {
                write!(f, "out of reach (SR {strike_rating} after range)")
            }
            other => write!(f, "{} (margin {:+})", other.name(), other.margin()),
        }
    }
}
