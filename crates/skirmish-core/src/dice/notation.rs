//! Dice notation: what to roll ([`Dice`]: `NdF` or `NdS`), its limits,
//! and the text form (`"4dF"`, `"1d20"`) files and the table use. Its own
//! file because every rule names its dice with it, apart from how any
//! source rolls them.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::Distribution;
use crate::error::{Error, Result};

/// Most dice of one kind in a single roll.
///
/// `40dF` has `3^40` outcomes, the most whose count fits in a `u64`; plain
/// dice are further limited so that `sides^count` fits in a `u64`.
pub const MAX_DICE: u32 = 40;

/// Most sides a plain die may have.
pub const MAX_SIDES: u32 = 1_000_000;

/// What to roll: `NdF` (Fudge dice) or `NdS` (plain dice).
///
/// Build with [`Dice::fudge`], [`Dice::standard`] or parse `"4dF"`,
/// `"1d20"`, `"d6"`; all of them check the counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum Dice {
    /// `count` Fudge dice, each -1, 0 or +1.
    Fudge {
        /// Number of dice, 1..=[`MAX_DICE`].
        count: u32,
    },
    /// `count` dice numbered 1..=`sides`.
    Standard {
        /// Number of dice, 1..=[`MAX_DICE`].
        count: u32,
        /// Sides per die, 1..=[`MAX_SIDES`].
        sides: u32,
    },
}

impl Dice {
    /// `4dF`: the strike roll, initiative and the FUDGE trait roll.
    pub const FOUR_DF: Dice = Dice::Fudge { count: 4 };
    /// `2dF`: Ready Time and the FUDGE group roll.
    pub const TWO_DF: Dice = Dice::Fudge { count: 2 };
    /// `1d6`: FUZION's initiative die.
    pub const D6: Dice = Dice::Standard { count: 1, sides: 6 };
    /// `1d20`: the Tick System's default initiative die.
    pub const D20: Dice = Dice::Standard { count: 1, sides: 20 };

    /// `count` Fudge dice; `count` must be 1..=[`MAX_DICE`].
    pub fn fudge(count: u32) -> Result<Dice> {
        check_count(count)?;
        Ok(Dice::Fudge { count })
    }

    /// `count` dice of `sides` sides; both checked, and `sides^count` must
    /// fit in a `u64` so the exact distribution can be counted.
    pub fn standard(count: u32, sides: u32) -> Result<Dice> {
        check_count(count)?;
        if !(1..=MAX_SIDES).contains(&sides) {
            return Err(Error::out_of_range("dice.sides", sides, 1, MAX_SIDES));
        }
        if u64::from(sides).checked_pow(count).is_none() {
            return Err(Error::invalid(
                "dice",
                format!("{count}d{sides} has {sides}^{count} outcomes, more than can be counted exactly (2^64)"),
            ));
        }
        Ok(Dice::Standard { count, sides })
    }

    /// Number of dice.
    pub fn count(self) -> u32 {
        match self {
            Dice::Fudge { count } | Dice::Standard { count, .. } => count,
        }
    }

    /// Smallest total these dice can show.
    pub fn min(self) -> i32 {
        match self {
            Dice::Fudge { count } => -(count as i32),
            Dice::Standard { count, .. } => count as i32,
        }
    }

    /// Largest total these dice can show.
    pub fn max(self) -> i32 {
        match self {
            Dice::Fudge { count } => count as i32,
            Dice::Standard { count, sides } => (count * sides) as i32,
        }
    }

    /// Whether `value` is a total these dice can show.
    pub fn can_show(self, value: i32) -> bool {
        (self.min()..=self.max()).contains(&value)
    }

    /// The exact distribution of the total, as integer counts.
    pub fn distribution(self) -> Distribution {
        Distribution::of(self)
    }

    /// Checks a hand-built value (the fields are public) against the same
    /// limits as the constructors.
    pub fn validate(self) -> Result<Dice> {
        match self {
            Dice::Fudge { count } => Dice::fudge(count),
            Dice::Standard { count, sides } => Dice::standard(count, sides),
        }
    }
}

fn check_count(count: u32) -> Result<()> {
    if (1..=MAX_DICE).contains(&count) {
        Ok(())
    } else {
        Err(Error::out_of_range("dice.count", count, 1, MAX_DICE))
    }
}

impl fmt::Display for Dice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Dice::Fudge { count } => write!(f, "{count}dF"),
            Dice::Standard { count, sides } => write!(f, "{count}d{sides}"),
        }
    }
}

impl FromStr for Dice {
    type Err = Error;

    /// Parses `"4dF"`, `"4df"`, `"dF"`, `"1d20"`, `"d6"` (case and spaces
    /// ignored).
    fn from_str(s: &str) -> Result<Dice> {
        let cleaned: String = s
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect::<String>()
            .to_lowercase();
        let bad = || Error::invalid("dice", format!("{s:?} is not dice notation like \"4dF\" or \"1d20\""));
        let (count, kind) = cleaned.split_once('d').ok_or_else(bad)?;
        let count: u32 = if count.is_empty() {
            1
        } else {
            count.parse().map_err(|_| bad())?
        };
        if kind == "f" {
            Dice::fudge(count)
        } else {
            let sides: u32 = kind.parse().map_err(|_| bad())?;
            Dice::standard(count, sides)
        }
    }
}

impl TryFrom<String> for Dice {
    type Error = Error;
    fn try_from(s: String) -> Result<Dice> {
        s.parse()
    }
}

impl From<Dice> for String {
    fn from(d: Dice) -> String {
        d.to_string()
    }
}
