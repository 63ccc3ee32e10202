//! The Fudge trait ladder and the half-toward-zero bonus rule (docs/rules.md §0).
//!
//! | value | name |
//! | ---: | --- |
//! | +4 | Legendary (and beyond: Legendary+1, +2, ...) |
//! | +3 | Superb |
//! | +2 | Great |
//! | +1 | Good |
//! | 0 | Fair |
//! | -1 | Mediocre |
//! | -2 | Poor |
//! | -3 | Terrible (and below: Terrible-1, -2, ...) |
//!
//! Rolled results can leave the ladder at both ends (a Poor fighter who
//! rolls -4 gets Terrible-3), so every `i32` is a [`Level`].
//!
//! [`CombatLevel`] adds FUDGE 4.36's "plus" levels (`Good+`): the listed
//! level, and +1 every other round starting with the second.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// Half of a value, rounded toward zero: the bonus an attribute or skill
/// gives (`+3 -> +1`, `-3 -> -1`, `+1 -> 0`, `-1 -> 0`).
///
/// ```
/// use skirmish_core::ladder::half_toward_zero;
/// assert_eq!([3, -3, 1, -1, 4, -4].map(half_toward_zero), [1, -1, 0, 0, 2, -2]);
/// ```
pub const fn half_toward_zero(value: i32) -> i32 {
    // Rust's integer division truncates toward zero, which is the rule.
    value / 2
}

/// The named rungs, lowest first.
const NAMES: [(&str, i32); 8] = [
    ("Terrible", -3),
    ("Poor", -2),
    ("Mediocre", -1),
    ("Fair", 0),
    ("Good", 1),
    ("Great", 2),
    ("Superb", 3),
    ("Legendary", 4),
];

/// A level on the Fudge ladder (a trait level or a rolled result).
///
/// Displays as its name (`Good`, `Legendary+2`, `Terrible-1`); parses names
/// in any case, signed numbers (`+1`, `-2`, `0`) and `Name+N` / `Name-N`.
/// In serde it reads a name or a number and writes the name.
///
/// ```
/// use skirmish_core::ladder::Level;
/// let good: Level = "good".parse().unwrap();
/// assert_eq!(good, Level::GOOD);
/// assert_eq!("+1".parse::<Level>().unwrap(), Level::GOOD);
/// assert_eq!(Level::new(6).to_string(), "Legendary+2");
/// assert_eq!("Legendary+2".parse::<Level>().unwrap().value(), 6);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "LevelRepr", into = "String")]
pub struct Level(i32);

impl Level {
    /// Terrible, -3.
    pub const TERRIBLE: Level = Level(-3);
    /// Poor, -2.
    pub const POOR: Level = Level(-2);
    /// Mediocre, -1.
    pub const MEDIOCRE: Level = Level(-1);
    /// Fair, 0.
    pub const FAIR: Level = Level(0);
    /// Good, +1.
    pub const GOOD: Level = Level(1);
    /// Great, +2.
    pub const GREAT: Level = Level(2);
    /// Superb, +3.
    pub const SUPERB: Level = Level(3);
    /// Legendary, +4.
    pub const LEGENDARY: Level = Level(4);

    /// The level with this value.
    pub const fn new(value: i32) -> Level {
        Level(value)
    }

    /// Its value (Fair is 0).
    pub const fn value(self) -> i32 {
        self.0
    }

    /// The level `by` steps up (down if negative); overflow is an error.
    pub fn offset(self, by: i32) -> Result<Level> {
        self.0
            .checked_add(by)
            .map(Level)
            .ok_or_else(|| Error::overflow("level", format!("{} {by:+}", self.0)))
    }

    /// Half its value, rounded toward zero (its bonus).
    pub const fn bonus(self) -> i32 {
        half_toward_zero(self.0)
    }

    /// The ladder name: `Good`, `Legendary+1`, `Terrible-2`.
    pub fn name(self) -> String {
        self.to_string()
    }

    /// The names of the eight rungs, lowest first.
    pub fn rung_names() -> impl Iterator<Item = &'static str> {
        NAMES.iter().map(|(n, _)| *n)
    }
}

impl From<i32> for Level {
    fn from(value: i32) -> Level {
        Level(value)
    }
}

impl From<Level> for i32 {
    fn from(level: Level) -> i32 {
        level.0
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let v = self.0;
        if v > 4 {
            write!(f, "Legendary+{}", i64::from(v) - 4)
        } else if v < -3 {
            write!(f, "Terrible-{}", -3 - i64::from(v))
        } else {
            f.write_str(NAMES[(v + 3) as usize].0)
        }
    }
}

impl From<Level> for String {
    fn from(level: Level) -> String {
        level.to_string()
    }
}

/// A name or a number, as a scenario file may write a level.
#[derive(Deserialize)]
#[serde(untagged)]
enum LevelRepr {
    Number(i32),
    Name(String),
}

impl TryFrom<LevelRepr> for Level {
    type Error = Error;
    fn try_from(r: LevelRepr) -> Result<Level> {
        match r {
            LevelRepr::Number(n) => Ok(Level(n)),
            LevelRepr::Name(s) => s.parse(),
        }
    }
}

/// Parses `s` as `(level, plus)`; `plus` is a trailing bare `+`.
fn parse_level(s: &str, field: &str) -> Result<(Level, bool)> {
    let cleaned: String = s.chars().filter(|c| !c.is_whitespace()).collect();
    if cleaned.is_empty() {
        return Err(Error::invalid(
            field,
            "is empty; expected a ladder name like \"Good\" or a number like \"+1\"",
        ));
    }
    // A plain signed number: "+1", "-2", "0".
    if let Ok(n) = cleaned.parse::<i32>() {
        return Ok((Level(n), false));
    }
    let lower = cleaned.to_lowercase();
    // Split "name" from a numeric tail "+N" / "-N" or a bare "+".
    let split = lower.find(['+', '-']).unwrap_or(lower.len());
    let (name, tail) = lower.split_at(split);
    let Some(&(_, base)) = NAMES.iter().find(|(n, _)| n.to_lowercase() == name) else {
        if name.is_empty() {
            return Err(Error::invalid(
                field,
                format!("{s:?} is not a ladder level or a number"),
            ));
        }
        return Err(match Error::unknown_name("ladder level", name, Level::rung_names()) {
            Error::UnknownName { kind, suggestions, .. } => Error::UnknownName {
                kind,
                name: s.trim().to_owned(),
                suggestions,
            },
            other => other,
        });
    };
    match tail {
        "" => Ok((Level(base), false)),
        "+" => Ok((Level(base), true)),
        _ => {
            // "Terrible-253+" and "Legendary+3+": a level off the named
            // rungs with a plus, as a CombatLevel writes it.
            let (number, plus) = match tail.strip_suffix('+') {
                Some(rest) if rest.parse::<i32>().is_ok() => (rest, true),
                _ => (tail, false),
            };
            let n: i32 = number
                .parse()
                .map_err(|_| Error::invalid(field, format!("{s:?}: {tail:?} after the name is not +N, -N or +")))?;
            let level = Level(base)
                .offset(n)
                .map_err(|_| Error::overflow(field, format!("{s:?} is beyond the integers a level can hold")))?;
            Ok((level, plus))
        }
    }
}

impl FromStr for Level {
    type Err = Error;

    fn from_str(s: &str) -> Result<Level> {
        match parse_level(s, "level")? {
            (level, false) => Ok(level),
            (_, true) => Err(Error::invalid(
                "level",
                format!("{s:?} is a plus-level, which only combat skills have (use CombatLevel)"),
            )),
        }
    }
}

/// A combat skill level, possibly with a FUDGE 4.36 "plus" (`Good+`).
///
/// Someone with a `+` "has the skill level listed before the +, but gets a
/// +1 every other round, starting with the second round".
///
/// ```
/// use skirmish_core::ladder::{CombatLevel, Level};
/// let ivan: CombatLevel = "Good +".parse().unwrap();
/// assert_eq!(ivan.in_round(1).unwrap(), Level::GOOD);
/// assert_eq!(ivan.in_round(2).unwrap(), Level::GREAT);
/// assert_eq!(ivan.to_string(), "Good+");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "LevelRepr", into = "String")]
pub struct CombatLevel {
    /// The level before the `+`.
    pub level: Level,
    /// Whether it is a plus-level.
    pub plus: bool,
}

impl CombatLevel {
    /// A plain level (no plus).
    pub const fn plain(level: Level) -> CombatLevel {
        CombatLevel { level, plus: false }
    }

    /// A plus-level: `level` with a `+`.
    pub const fn plus(level: Level) -> CombatLevel {
        CombatLevel { level, plus: true }
    }

    /// The level this fighter rolls as in combat round `round` (1-based):
    /// a plus-level adds 1 on rounds 2, 4, 6, ...
    pub fn in_round(self, round: u32) -> Result<Level> {
        if round == 0 {
            return Err(Error::out_of_range("round", 0, 1, u32::MAX));
        }
        let extra = i32::from(self.plus && round.is_multiple_of(2));
        self.level.offset(extra)
    }
}

impl Default for CombatLevel {
    /// Fair, no plus.
    fn default() -> Self {
        CombatLevel::plain(Level::FAIR)
    }
}

impl From<Level> for CombatLevel {
    fn from(level: Level) -> CombatLevel {
        CombatLevel::plain(level)
    }
}

impl fmt::Display for CombatLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.level, if self.plus { "+" } else { "" })
    }
}

impl From<CombatLevel> for String {
    fn from(c: CombatLevel) -> String {
        c.to_string()
    }
}

impl FromStr for CombatLevel {
    type Err = Error;

    fn from_str(s: &str) -> Result<CombatLevel> {
        let (level, plus) = parse_level(s, "combat_level")?;
        Ok(CombatLevel { level, plus })
    }
}

impl TryFrom<LevelRepr> for CombatLevel {
    type Error = Error;
    fn try_from(r: LevelRepr) -> Result<CombatLevel> {
        match r {
            LevelRepr::Number(n) => Ok(CombatLevel::plain(Level(n))),
            LevelRepr::Name(s) => s.parse(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_over_a_wide_range() {
        for v in -50..=50 {
            let l = Level::new(v);
            assert_eq!(l.to_string().parse::<Level>().unwrap(), l, "{l}");
        }
        for extreme in [i32::MIN, i32::MAX] {
            let l = Level::new(extreme);
            assert_eq!(l.to_string().parse::<Level>().unwrap(), l);
        }
    }

    /// Found by the `tracker_ops` fuzz target: a plus-level off the named
    /// rungs ("Terrible-253+") was written by a snapshot and refused when
    /// read back, so the encounter's own snapshot did not restore.
    #[test]
    fn combat_levels_round_trip_off_the_named_rungs_too() {
        for v in (-300..=300).chain([i32::MIN, i32::MIN + 1, i32::MAX - 1, i32::MAX]) {
            for c in [CombatLevel::plain(Level::new(v)), CombatLevel::plus(Level::new(v))] {
                let text = c.to_string();
                assert_eq!(text.parse::<CombatLevel>().unwrap(), c, "{text}");
                let json = serde_json::to_string(&c).unwrap();
                assert_eq!(serde_json::from_str::<CombatLevel>(&json).unwrap(), c, "{json}");
            }
        }
        assert_eq!(
            "Terrible-253+".parse::<CombatLevel>().unwrap(),
            CombatLevel::plus(Level::new(-256))
        );
        assert!("Terrible-253+".parse::<Level>().is_err(), "a plain level takes no plus");
        assert!("Good+1-".parse::<CombatLevel>().is_err());
        assert!("Good++".parse::<CombatLevel>().is_err());
    }

    #[test]
    fn forgiving_parse() {
        for (s, v) in [
            ("Good", 1),
            ("GOOD", 1),
            (" good ", 1),
            ("+1", 1),
            ("1", 1),
            ("-3", -3),
            ("terrible", -3),
            ("Terrible-1", -4),
            ("Legendary + 2", 6),
            ("fair", 0),
            ("Good+1", 2),
        ] {
            assert_eq!(s.parse::<Level>().unwrap().value(), v, "{s}");
        }
    }

    #[test]
    fn bad_levels_are_errors() {
        assert!(
            matches!("Goood".parse::<Level>(), Err(Error::UnknownName { ref suggestions, .. }) if suggestions[0] == "Good")
        );
        assert!("".parse::<Level>().is_err());
        assert!("Good+".parse::<Level>().is_err());
        assert!("Good+x".parse::<Level>().is_err());
        assert!("Legendary+2147483647".parse::<Level>().is_err());
        assert!("+".parse::<Level>().is_err());
    }

    #[test]
    fn plus_levels() {
        let c: CombatLevel = "superb+".parse().unwrap();
        assert_eq!(c, CombatLevel::plus(Level::SUPERB));
        assert_eq!(c.in_round(3).unwrap(), Level::SUPERB);
        assert_eq!(c.in_round(4).unwrap(), Level::LEGENDARY);
        assert!(c.in_round(0).is_err());
        let plain: CombatLevel = "Great".parse().unwrap();
        assert_eq!(plain.in_round(2).unwrap(), Level::GREAT);
    }

    #[test]
    fn serde_reads_names_and_numbers() {
        let l: Level = serde_json::from_str("\"Great\"").unwrap();
        assert_eq!(l, Level::GREAT);
        let l: Level = serde_json::from_str("-2").unwrap();
        assert_eq!(l, Level::POOR);
        assert_eq!(serde_json::to_string(&Level::GOOD).unwrap(), "\"Good\"");
        assert!(serde_json::from_str::<Level>("\"Grate\"").is_err());
    }
}
