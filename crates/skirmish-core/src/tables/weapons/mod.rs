//! The weapon speed tables: Time Taken and Rate of Fire for common weapons
//! (the Relativity "Timing Systems" article, "Addendum: Suggested Weapon
//! Speeds"; docs/rules.md §1.9).
//!
//! The text gives four tables — Fantasy (18 weapons), Oriental (15),
//! Industrial & Modern (15) and Science Fiction (9) — "preliminary values to
//! get players started". Every row ships here as static data, in the text's
//! order, with the text's spelling ("Rifle, Twelve-Guage", sic; "Rifle,
//! Twelve-Gauge" is accepted as an alias). "Rate of Fire is presented in
//! shots-per-round": [`RateOfFire`] keeps it as the exact fraction written.
//!
//! The footnotes are data too ([`Footnote`]):
//! - `*` Heavy crossbow: 1/2 RoF because it takes a round to reset; in
//!   Continuous combat its TT is 12 ([`Weapon::continuous_time_taken`]).
//! - `*` Grenades: the same values for every kind of grenade.
//! - `+` Machine guns: the values are for bursts of about 15 rounds
//!   ([`Weapon::burst`]).
//!
//! The footnote markers are not part of the names: the text's
//! "Grenade*, Hand" is `"Grenade, Hand"` with [`Footnote::Grenade`].
//!
//! ```
//! use skirmish_core::tables::weapons::{self, Genre};
//!
//! let crossbow = weapons::find("heavy crossbow").unwrap();
//! assert_eq!(crossbow.name, "Crossbow, Heavy");
//! assert_eq!(crossbow.time_taken, 8);
//! assert_eq!(crossbow.rate_of_fire.to_string(), "1/2");
//! assert_eq!(crossbow.time_taken_for(true), 12); // Continuous combat
//! assert_eq!(weapons::by_genre(Genre::Oriental).len(), 15);
//! let err = weapons::find("crosbow").unwrap_err();
//! assert!(err.to_string().contains("Crossbow, Heavy"));
//! ```
//!
//! This file holds the types of a row (genre, Rate of Fire, footnote,
//! weapon); `data` holds the rows themselves and `lookup` finds them by
//! name.

mod data;
mod lookup;
#[cfg(test)]
mod tests;

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

pub use data::{all, by_genre};
pub use lookup::{find, find_in};

// ---------------------------------------------------------------------------
// Genre
// ---------------------------------------------------------------------------

/// The four tables of the text.
///
/// Displays as the text's heading ("Industrial & Modern"); serializes as a
/// snake_case id (`industrial_modern`); parses forgivingly: `"fantasy"`,
/// `"oriental"`, `"modern"`, `"industrial"`, `"Industrial & Modern"`,
/// `"sci-fi"`, `"scifi"`, `"science fiction"`, ...
///
/// ```
/// use skirmish_core::tables::weapons::Genre;
/// assert_eq!("Sci-Fi".parse::<Genre>().unwrap(), Genre::ScienceFiction);
/// assert_eq!("modern".parse::<Genre>().unwrap().to_string(), "Industrial & Modern");
/// assert!("fantsy".parse::<Genre>().unwrap_err().to_string().contains("Fantasy"));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Deserialize)]
#[serde(try_from = "String")]
pub enum Genre {
    /// Fantasy (18 weapons).
    Fantasy,
    /// Oriental (15 weapons).
    Oriental,
    /// Industrial & Modern (15 weapons).
    IndustrialModern,
    /// Science Fiction (9 weapons).
    ScienceFiction,
}

impl Genre {
    /// The four genres, in the text's order.
    pub const ALL: [Genre; 4] = [
        Genre::Fantasy,
        Genre::Oriental,
        Genre::IndustrialModern,
        Genre::ScienceFiction,
    ];

    /// The text's heading for the table: `"Industrial & Modern"`.
    pub const fn title(self) -> &'static str {
        match self {
            Genre::Fantasy => "Fantasy",
            Genre::Oriental => "Oriental",
            Genre::IndustrialModern => "Industrial & Modern",
            Genre::ScienceFiction => "Science Fiction",
        }
    }

    /// The snake_case id files use: `"industrial_modern"`.
    pub const fn id(self) -> &'static str {
        match self {
            Genre::Fantasy => "fantasy",
            Genre::Oriental => "oriental",
            Genre::IndustrialModern => "industrial_modern",
            Genre::ScienceFiction => "science_fiction",
        }
    }
}

impl fmt::Display for Genre {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.title())
    }
}

impl FromStr for Genre {
    type Err = Error;
    fn from_str(s: &str) -> Result<Genre> {
        let key: String = s
            .chars()
            .filter(char::is_ascii_alphanumeric)
            .map(|c| c.to_ascii_lowercase())
            .collect();
        match key.as_str() {
            "fantasy" => Ok(Genre::Fantasy),
            "oriental" => Ok(Genre::Oriental),
            "industrial" | "modern" | "industrialmodern" | "industrialandmodern" => Ok(Genre::IndustrialModern),
            "scifi" | "sciencefiction" | "sf" => Ok(Genre::ScienceFiction),
            _ => Err(Error::unknown_name("genre", s, Genre::ALL.map(Genre::title))),
        }
    }
}

impl TryFrom<String> for Genre {
    type Error = Error;
    fn try_from(s: String) -> Result<Genre> {
        s.parse()
    }
}

impl Serialize for Genre {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.serialize_str(self.id())
    }
}

// ---------------------------------------------------------------------------
// Rate of Fire
// ---------------------------------------------------------------------------

/// Rate of Fire: `shots` per `rounds`, an exact fraction kept as written
/// (`2/1`, `4/3`, `1/2`; `2/2` is not reduced to `1/1`, and equality
/// compares the written form). Both parts are at least 1.
///
/// Displays and serializes as `"4/3"`; parses `"4/3"`, `" 4 / 3 "` and a
/// bare `"2"` (2/1); in a file it may also be the number `2`.
///
/// ```
/// use skirmish_core::tables::weapons::RateOfFire;
/// let rof: RateOfFire = "4/3".parse().unwrap();
/// assert_eq!((rof.shots(), rof.rounds()), (4, 3));
/// assert!((rof.as_f64() - 4.0 / 3.0).abs() < 1e-12);
/// assert_eq!(rof.to_string(), "4/3");
/// // Simple Rounds (docs/rules.md §1.2): 4/3 fires 2, 1, 1 in rounds 1, 2, 3.
/// assert_eq!([1, 2, 3, 4].map(|r| rof.shots_in_round(r)), [2, 1, 1, 2]);
/// assert!("0/1".parse::<RateOfFire>().is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "RateOfFireRepr", into = "String")]
pub struct RateOfFire {
    shots: u32,
    rounds: u32,
}

impl RateOfFire {
    /// One shot per round.
    pub const ONE: RateOfFire = RateOfFire { shots: 1, rounds: 1 };
    /// Two shots per round (bows, daggers).
    pub const TWO: RateOfFire = RateOfFire { shots: 2, rounds: 1 };

    /// `shots` per `rounds`; both must be at least 1.
    pub fn new(shots: u32, rounds: u32) -> Result<RateOfFire> {
        if shots < 1 {
            return Err(Error::out_of_range("rate_of_fire.shots", shots, 1, u32::MAX));
        }
        if rounds < 1 {
            return Err(Error::out_of_range("rate_of_fire.rounds", rounds, 1, u32::MAX));
        }
        Ok(RateOfFire { shots, rounds })
    }

    /// For the static tables; checked at compile time there.
    const fn of(shots: u32, rounds: u32) -> RateOfFire {
        RateOfFire { shots, rounds }
    }

    /// Shots (the numerator).
    pub const fn shots(self) -> u32 {
        self.shots
    }

    /// Rounds (the denominator).
    pub const fn rounds(self) -> u32 {
        self.rounds
    }

    /// Shots per round as a float.
    pub fn as_f64(self) -> f64 {
        f64::from(self.shots) / f64::from(self.rounds)
    }

    /// Shots in the `round`-th round of use (1-based), by the decision for
    /// Simple Rounds (docs/rules.md §1.2): `ceil(r*n/k) - ceil((r-1)*n/k)`, so a
    /// ready weapon fires first (1/2 fires in rounds 1, 3, 5, ...).
    /// Round 0 has no shots.
    #[inline]
    pub fn shots_in_round(self, round: u32) -> u32 {
        if round == 0 {
            return 0;
        }
        // One round or less per volley: the same every round.
        if self.rounds <= 1 {
            return self.shots;
        }
        let (n, k) = (u64::from(self.shots), u64::from(self.rounds));
        let upto = |r: u64| (r * n).div_ceil(k);
        let r = u64::from(round);
        u32::try_from(upto(r) - upto(r - 1)).unwrap_or(u32::MAX)
    }
}

impl fmt::Display for RateOfFire {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.shots, self.rounds)
    }
}

impl FromStr for RateOfFire {
    type Err = Error;
    fn from_str(s: &str) -> Result<RateOfFire> {
        let bad = || {
            Error::invalid(
                "rate_of_fire",
                format!("{s:?} is not shots/rounds like \"4/3\" (whole numbers)"),
            )
        };
        let (shots, rounds) = match s.split_once('/') {
            Some((a, b)) => (a.trim(), b.trim()),
            None => (s.trim(), "1"),
        };
        let shots: u32 = shots.parse().map_err(|_| bad())?;
        let rounds: u32 = rounds.parse().map_err(|_| bad())?;
        RateOfFire::new(shots, rounds)
    }
}

impl From<RateOfFire> for String {
    fn from(rof: RateOfFire) -> String {
        rof.to_string()
    }
}

/// A rate of fire as a file may write it: `"4/3"` or `2`.
#[derive(Deserialize)]
#[serde(untagged)]
enum RateOfFireRepr {
    Shots(u32),
    Text(String),
}

impl TryFrom<RateOfFireRepr> for RateOfFire {
    type Error = Error;
    fn try_from(r: RateOfFireRepr) -> Result<RateOfFire> {
        match r {
            RateOfFireRepr::Shots(n) => RateOfFire::new(n, 1),
            RateOfFireRepr::Text(s) => s.parse(),
        }
    }
}

// ---------------------------------------------------------------------------
// Footnotes
// ---------------------------------------------------------------------------

/// A footnote of the tables, with its marker and its words as printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Footnote {
    /// `*` on the heavy crossbow's RoF (Fantasy): a round to reset; TT 12 in
    /// Continuous combat.
    HeavyCrossbow,
    /// `*` on the grenades (Industrial & Modern): the same values for every
    /// kind of grenade.
    Grenade,
    /// `+` on the machine guns (Industrial & Modern): values per burst of
    /// about 15 rounds.
    MachineGun,
}

impl Footnote {
    /// The three footnotes, in the text's order.
    pub const ALL: [Footnote; 3] = [Footnote::HeavyCrossbow, Footnote::Grenade, Footnote::MachineGun];

    /// The marker the text puts on the row: `'*'` or `'+'`.
    pub const fn marker(self) -> char {
        match self {
            Footnote::HeavyCrossbow | Footnote::Grenade => '*',
            Footnote::MachineGun => '+',
        }
    }

    /// The table it belongs to.
    pub const fn genre(self) -> Genre {
        match self {
            Footnote::HeavyCrossbow => Genre::Fantasy,
            Footnote::Grenade | Footnote::MachineGun => Genre::IndustrialModern,
        }
    }

    /// The footnote as the text writes it (without its marker).
    pub const fn text(self) -> &'static str {
        match self {
            Footnote::HeavyCrossbow => {
                "Heavy crossbows generally require a round to reset their very heavy draw, hence the 1/2 RoF. \
                 In Continuous Combat, the TT for Heavy Crossbows should probably be increased to at least 12."
            }
            Footnote::Grenade => {
                "Any sort of grenade would use these same values for speed, regardless of whether they're \
                 percussion, fragmentary, gas, etc. The distinguishing characteristic of a grenade is what it \
                 does on impact, not how long it takes to get there."
            }
            Footnote::MachineGun => {
                "These values refer to bursts of fire, roughly 15 rounds per burst. Rapid-fire weapons such as \
                 these would probably require more detailed rules to cover different burst sizes, fanning \
                 sprays, etc; since this article is primarily about melee combat, detailed machinegun rules \
                 are outside of its scope."
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Weapons
// ---------------------------------------------------------------------------

/// One row of a weapon speed table.
///
/// Rows exist only as the crate's static data ([`all`], [`by_genre`],
/// [`find`]); the struct is `#[non_exhaustive]` so fields can be added.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[non_exhaustive]
pub struct Weapon {
    /// The name exactly as in the text, without footnote markers.
    pub name: &'static str,
    /// The table it is in.
    pub genre: Genre,
    /// Time Taken (TT), in ticks (seconds).
    pub time_taken: u32,
    /// Rate of Fire, shots per round.
    pub rate_of_fire: RateOfFire,
    /// Time Taken in Continuous combat, where the footnotes give one
    /// (heavy crossbow: 12).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub continuous_time_taken: Option<u32>,
    /// Rounds of ammunition per burst, for weapons whose values are per
    /// burst (machine guns: about 15).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub burst: Option<u32>,
    /// The footnote on the row, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub footnote: Option<Footnote>,
    /// Other names [`find`] accepts (a spelling correction, say).
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    pub aliases: &'static [&'static str],
}

impl Weapon {
    /// Time Taken in Continuous combat (`continuous = true`) or in the
    /// round-based systems.
    ///
    /// ```
    /// use skirmish_core::tables::weapons;
    /// let bow = weapons::find("long bow").unwrap();
    /// assert_eq!((bow.time_taken_for(false), bow.time_taken_for(true)), (3, 3));
    /// ```
    #[inline]
    pub fn time_taken_for(&self, continuous: bool) -> u32 {
        match (continuous, self.continuous_time_taken) {
            (true, Some(tt)) => tt,
            _ => self.time_taken,
        }
    }

    /// The row stands for every kind of grenade (the `*` footnote of the
    /// Industrial & Modern table).
    pub fn covers_every_grenade(&self) -> bool {
        self.footnote == Some(Footnote::Grenade)
    }

    /// The footnote's text, if the row has one.
    pub fn footnote_text(&self) -> Option<&'static str> {
        self.footnote.map(Footnote::text)
    }
}
