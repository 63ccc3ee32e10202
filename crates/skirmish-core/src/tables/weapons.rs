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

use std::fmt;
use std::str::FromStr;
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result, closest_names};

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

const fn row(name: &'static str, genre: Genre, time_taken: u32, shots: u32, rounds: u32) -> Weapon {
    Weapon {
        name,
        genre,
        time_taken,
        rate_of_fire: RateOfFire::of(shots, rounds),
        continuous_time_taken: None,
        burst: None,
        footnote: None,
        aliases: &[],
    }
}

const fn fantasy(name: &'static str, tt: u32, shots: u32, rounds: u32) -> Weapon {
    row(name, Genre::Fantasy, tt, shots, rounds)
}

const fn oriental(name: &'static str, tt: u32, shots: u32, rounds: u32) -> Weapon {
    row(name, Genre::Oriental, tt, shots, rounds)
}

const fn modern(name: &'static str, tt: u32, shots: u32, rounds: u32) -> Weapon {
    row(name, Genre::IndustrialModern, tt, shots, rounds)
}

const fn scifi(name: &'static str, tt: u32, shots: u32, rounds: u32) -> Weapon {
    row(name, Genre::ScienceFiction, tt, shots, rounds)
}

const fn grenade(name: &'static str, tt: u32, shots: u32, rounds: u32) -> Weapon {
    Weapon {
        footnote: Some(Footnote::Grenade),
        ..modern(name, tt, shots, rounds)
    }
}

/// Rounds of ammunition per machine-gun burst ("roughly 15").
const BURST: u32 = 15;

const fn machine_gun(name: &'static str, tt: u32, shots: u32, rounds: u32) -> Weapon {
    Weapon {
        footnote: Some(Footnote::MachineGun),
        burst: Some(BURST),
        ..modern(name, tt, shots, rounds)
    }
}

/// Rows per genre, in [`Genre::ALL`] order.
const COUNTS: [usize; 4] = [18, 15, 15, 9];

/// Every row of the four tables, in the text's order.
static WEAPONS: [Weapon; 57] = [
    // Fantasy
    fantasy("Axe, Battle", 5, 1, 1),
    fantasy("Bow, Long", 3, 2, 1),
    fantasy("Bow, Short", 2, 2, 1),
    fantasy("Club", 3, 3, 2),
    Weapon {
        continuous_time_taken: Some(12),
        footnote: Some(Footnote::HeavyCrossbow),
        ..fantasy("Crossbow, Heavy", 8, 1, 2)
    },
    fantasy("Crossbow, Light", 5, 1, 1),
    fantasy("Dagger", 3, 2, 1),
    fantasy("Hammer, War", 3, 4, 3),
    fantasy("Mace/Morningstar", 3, 4, 3),
    fantasy("Pike/Pole-arm", 8, 1, 1),
    fantasy("Quarterstaff", 5, 1, 1),
    fantasy("Spear", 5, 1, 1),
    fantasy("Sword, Bastard (1-hand)", 5, 1, 1),
    fantasy("Sword, Bastard (2-hand)", 6, 1, 1),
    fantasy("Sword, Long", 5, 1, 1),
    fantasy("Sword, Short", 4, 4, 3),
    fantasy("Sword, Two-Handed", 7, 1, 1),
    fantasy("Whip, Bull", 5, 4, 3),
    // Oriental
    oriental("Bo Stick", 4, 4, 3),
    oriental("Fan, War", 3, 5, 3),
    oriental("Katana", 4, 1, 1),
    oriental("Kusari-Gama", 6, 4, 3),
    oriental("Naginata", 5, 1, 1),
    oriental("Ninjato", 4, 1, 1),
    oriental("Nodachi", 7, 1, 1),
    oriental("Nunchaku", 3, 2, 1),
    oriental("Sai", 3, 2, 1),
    oriental("Shuriken", 2, 3, 1),
    oriental("Staff, Three-Part", 4, 3, 2),
    oriental("Tonfa", 3, 5, 3),
    oriental("Tachi", 4, 4, 3),
    oriental("Wakizashi", 3, 2, 1),
    oriental("Wrist Razor", 3, 2, 1),
    // Industrial & Modern
    modern("Bayonet", 5, 1, 1),
    modern("Chain, Length of", 5, 1, 1),
    grenade("Grenade, Hand", 4, 1, 1),
    grenade("Grenade, Launched", 4, 1, 1),
    modern("Hand Gun, Luger Semi-Automatic", 3, 2, 1),
    modern("Hand Gun, Revolver", 2, 3, 1),
    modern("Hand Gun, Desert Eagle", 3, 2, 1),
    modern("Knife, Switchblade", 2, 3, 1),
    modern("Knife, Bowie", 3, 2, 1),
    machine_gun("Machine Gun, Gatling", 6, 1, 1),
    machine_gun("Machine Gun, M-16 or AK-47", 5, 1, 1),
    machine_gun("Machine Gun, Thompson", 4, 3, 2),
    modern("Rifle, Flintlock", 14, 1, 2),
    modern("Rifle, Sniper", 9, 2, 3),
    Weapon {
        aliases: &["Rifle, Twelve-Gauge"],
        ..modern("Rifle, Twelve-Guage", 7, 1, 1)
    },
    // Science Fiction
    scifi("Lightsaber", 4, 3, 2),
    scifi("Pistol, Laser", 3, 3, 2),
    scifi("Pistol, Particle", 5, 1, 1),
    scifi("Pistol, Heatseeker", 7, 1, 1),
    scifi("Rifle, Laser", 5, 1, 1),
    scifi("Rifle, Plasma", 12, 1, 2),
    scifi("Rifle, Railgun", 6, 1, 1),
    scifi("Tazer", 9, 2, 3),
    scifi("Whip, Monofilament", 4, 3, 2),
];

/// Where each genre's rows start in [`WEAPONS`].
const STARTS: [usize; 5] = [
    0,
    COUNTS[0],
    COUNTS[0] + COUNTS[1],
    COUNTS[0] + COUNTS[1] + COUNTS[2],
    COUNTS[0] + COUNTS[1] + COUNTS[2] + COUNTS[3],
];

// The table is checked when the crate compiles: rows grouped by genre in
// order, the counts add up, every rate of fire is valid.
const _: () = {
    assert!(STARTS[4] == WEAPONS.len());
    let mut g = 0;
    while g < 4 {
        let mut i = STARTS[g];
        while i < STARTS[g + 1] {
            assert!(WEAPONS[i].genre as usize == g);
            assert!(WEAPONS[i].rate_of_fire.shots >= 1 && WEAPONS[i].rate_of_fire.rounds >= 1);
            assert!(WEAPONS[i].time_taken >= 1);
            i += 1;
        }
        g += 1;
    }
};

/// Every weapon of the four tables, in the text's order.
pub fn all() -> &'static [Weapon] {
    &WEAPONS
}

/// The weapons of one table, in the text's order.
///
/// ```
/// use skirmish_core::tables::weapons::{by_genre, Genre};
/// let counts = Genre::ALL.map(|g| by_genre(g).len());
/// assert_eq!(counts, [18, 15, 15, 9]);
/// assert_eq!(by_genre(Genre::ScienceFiction)[0].name, "Lightsaber");
/// ```
pub fn by_genre(genre: Genre) -> &'static [Weapon] {
    let g = genre as usize;
    // Always in range (checked at compile time above).
    WEAPONS.get(STARTS[g]..STARTS[g + 1]).unwrap_or(&[])
}

/// The weapon named `name`, in any table. See [`find_in`].
pub fn find(name: &str) -> Result<&'static Weapon> {
    find_among(0..WEAPONS.len(), name)
}

/// The weapon named `name` in `genre`'s table.
///
/// Forgiving: case, punctuation and word order do not matter ("heavy
/// crossbow" is "Crossbow, Heavy", "two-handed sword" is "Sword,
/// Two-Handed"), and words that pick out one weapon are enough ("revolver",
/// "m16", "mace"). A name that matches no weapon, or several, is
/// [`Error::UnknownName`] with the closest names (or all that matched).
///
/// ```
/// use skirmish_core::tables::weapons::{find, find_in, Genre};
/// assert_eq!(find("long sword").unwrap().name, "Sword, Long");
/// assert_eq!(find("AK-47").unwrap().name, "Machine Gun, M-16 or AK-47");
/// assert_eq!(find_in(Genre::ScienceFiction, "laser rifle").unwrap().name, "Rifle, Laser");
/// assert!(find_in(Genre::Fantasy, "katana").is_err());
/// let err = find("bastard sword").unwrap_err().to_string();
/// assert!(err.contains("Sword, Bastard (1-hand)") && err.contains("Sword, Bastard (2-hand)"));
/// ```
pub fn find_in(genre: Genre, name: &str) -> Result<&'static Weapon> {
    let g = genre as usize;
    find_among(STARTS[g]..STARTS[g + 1], name)
}

/// Every table weapon's spellings as keys (index as [`WEAPONS`]), built
/// once: a lookup used to rebuild them, allocating, for every spelling of
/// every weapon it compared, and a small sweep looks up each group's
/// weapon for each cell.
fn spelling_keys() -> &'static [Vec<Key>] {
    static KEYS: OnceLock<Vec<Vec<Key>>> = OnceLock::new();
    KEYS.get_or_init(|| {
        WEAPONS
            .iter()
            .map(|w| spellings(w).map(|n| Key::of(&n)).collect())
            .collect()
    })
}

/// The weapon named `name` among `WEAPONS[range]` (see [`find_in`]).
fn find_among(range: std::ops::Range<usize>, name: &str) -> Result<&'static Weapon> {
    let weapons: &'static [Weapon] = WEAPONS.get(range.clone()).unwrap_or(&[]);
    // The table's own spelling, as scenarios and presets mostly write it: no
    // other weapon has its key (a test checks it), so the forgiving search
    // below would find this one alone, at twenty times the cost (a sweep
    // looks up every group's weapon for each cell, twice).
    if let Some(w) = weapons.iter().find(|w| w.name == name) {
        return Ok(w);
    }
    let keys = spelling_keys().get(range).unwrap_or(&[]);
    let query = Key::of(name);
    if query.words.is_empty() {
        return Err(Error::unknown_name("weapon", name, []));
    }
    // A whole name, in any word order or run together.
    let exact: Vec<&'static Weapon> = weapons
        .iter()
        .zip(keys)
        .filter(|(_, ks)| ks.iter().any(|k| k.same_as(&query)))
        .map(|(w, _)| w)
        .collect();
    if let [one] = exact.as_slice() {
        return Ok(one);
    }
    // Words that pick out one weapon.
    let partial: Vec<&'static Weapon> = weapons
        .iter()
        .zip(keys)
        .filter(|(_, ks)| ks.iter().any(|k| k.contains(&query)))
        .map(|(w, _)| w)
        .collect();
    match partial.as_slice() {
        [one] => Ok(one),
        [] => Err(suggest(weapons, name)),
        several => Err(Error::UnknownName {
            kind: "weapon".to_owned(),
            name: name.to_owned(),
            suggestions: several.iter().map(|w| w.name.to_owned()).collect(),
        }),
    }
}

/// The ways a weapon may be written: its name and aliases as the text
/// writes them ("Crossbow, Heavy") and in reading order ("Heavy Crossbow").
fn spellings(w: &Weapon) -> impl Iterator<Item = String> {
    std::iter::once(w.name).chain(w.aliases.iter().copied()).flat_map(|n| {
        let reading = n.split_once(", ").map(|(head, tail)| format!("{tail} {head}"));
        std::iter::once(n.to_owned()).chain(reading)
    })
}

/// An unknown-weapon error suggesting the closest names, compared in every
/// spelling.
fn suggest(weapons: &'static [Weapon], name: &str) -> Error {
    let forms: Vec<(String, &'static str)> = weapons
        .iter()
        .flat_map(|w| spellings(w).map(move |form| (form, w.name)))
        .collect();
    let mut suggestions: Vec<String> = Vec::new();
    for form in closest_names(name, forms.iter().map(|(f, _)| f.as_str())) {
        if let Some((_, canonical)) = forms.iter().find(|(f, _)| *f == form)
            && !suggestions.iter().any(|s| s == canonical)
        {
            suggestions.push((*canonical).to_owned());
        }
    }
    Error::UnknownName {
        kind: "weapon".to_owned(),
        name: name.to_owned(),
        suggestions,
    }
}

/// A name reduced for forgiving comparison.
struct Key {
    /// Lowercase words, letters and digits split apart ("m16" -> "m", "16"),
    /// sorted.
    words: Vec<String>,
    /// All letters and digits, lowercase, in order ("polearm").
    squashed: String,
}

impl Key {
    fn of(name: &str) -> Key {
        let mut words: Vec<String> = Vec::new();
        let mut current = String::new();
        let mut last_digit = None;
        for c in name.chars() {
            if !c.is_alphanumeric() {
                if !current.is_empty() {
                    words.push(std::mem::take(&mut current));
                }
                last_digit = None;
                continue;
            }
            let digit = c.is_ascii_digit();
            if last_digit.is_some_and(|d| d != digit) && !current.is_empty() {
                words.push(std::mem::take(&mut current));
            }
            current.extend(c.to_lowercase());
            last_digit = Some(digit);
        }
        if !current.is_empty() {
            words.push(current);
        }
        let squashed = words.concat();
        words.sort();
        Key { words, squashed }
    }

    fn same_as(&self, other: &Key) -> bool {
        self.words == other.words || self.squashed == other.squashed
    }

    /// Every word of `query` is a word of this name, or (3 letters or
    /// more) part of one: "staff" is in "Quarterstaff" and "Staff,
    /// Three-Part" alike, so it picks out neither.
    fn contains(&self, query: &Key) -> bool {
        query
            .words
            .iter()
            .all(|q| self.words.contains(q) || (q.chars().count() >= 3 && self.squashed.contains(q.as_str())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_per_genre() {
        assert_eq!(all().len(), 57);
        assert_eq!(Genre::ALL.map(|g| by_genre(g).len()), [18, 15, 15, 9]);
        for g in Genre::ALL {
            assert!(by_genre(g).iter().all(|w| w.genre == g));
        }
    }

    #[test]
    fn every_name_finds_itself_and_only_itself() {
        for w in all() {
            assert_eq!(find(w.name).unwrap(), w, "{}", w.name);
            assert_eq!(find_in(w.genre, w.name).unwrap(), w);
            assert_eq!(find(&w.name.to_uppercase()).unwrap(), w);
            for other in all().iter().filter(|o| o.name != w.name) {
                assert!(
                    !Key::of(other.name).same_as(&Key::of(w.name)),
                    "{} ~ {}",
                    other.name,
                    w.name
                );
            }
        }
    }

    #[test]
    fn forgiving_lookups() {
        for (query, name) in [
            ("heavy crossbow", "Crossbow, Heavy"),
            ("Crossbow heavy", "Crossbow, Heavy"),
            ("long sword", "Sword, Long"),
            ("LONGSWORD", "Sword, Long"),
            ("two-handed sword", "Sword, Two-Handed"),
            ("two handed sword", "Sword, Two-Handed"),
            ("sword, two handed", "Sword, Two-Handed"),
            ("bastard sword (2-hand)", "Sword, Bastard (2-hand)"),
            ("1 hand bastard sword", "Sword, Bastard (1-hand)"),
            ("war hammer", "Hammer, War"),
            ("warhammer", "Hammer, War"),
            ("mace", "Mace/Morningstar"),
            ("morningstar", "Mace/Morningstar"),
            ("pole-arm", "Pike/Pole-arm"),
            ("length of chain", "Chain, Length of"),
            ("hand grenade", "Grenade, Hand"),
            ("revolver", "Hand Gun, Revolver"),
            ("luger", "Hand Gun, Luger Semi-Automatic"),
            ("m16", "Machine Gun, M-16 or AK-47"),
            ("ak47", "Machine Gun, M-16 or AK-47"),
            ("thompson", "Machine Gun, Thompson"),
            ("twelve-guage rifle", "Rifle, Twelve-Guage"),
            ("Rifle, Twelve-Gauge", "Rifle, Twelve-Guage"),
            ("twelve gauge", "Rifle, Twelve-Guage"),
            ("three-part staff", "Staff, Three-Part"),
            ("kusarigama", "Kusari-Gama"),
            ("light saber", "Lightsaber"),
            ("monofilament whip", "Whip, Monofilament"),
        ] {
            assert_eq!(find(query).map(|w| w.name), Ok(name), "{query}");
        }
    }

    #[test]
    fn ambiguous_and_unknown_names_suggest() {
        let names = |query: &str| match find(query).unwrap_err() {
            Error::UnknownName { kind, suggestions, .. } => {
                assert_eq!(kind, "weapon");
                suggestions
            }
            other => panic!("{other}"),
        };
        assert_eq!(names("crosbow")[..2], ["Crossbow, Heavy", "Crossbow, Light"]);
        assert_eq!(names("crossbow"), ["Crossbow, Heavy", "Crossbow, Light"]);
        assert_eq!(names("heavy crosbow")[0], "Crossbow, Heavy");
        assert_eq!(names("pistol").len(), 3);
        assert_eq!(names("staff"), ["Quarterstaff", "Staff, Three-Part"]);
        assert_eq!(names("bow").len(), 5); // bows, crossbows, the Bowie knife
        assert_eq!(names("katanna")[0], "Katana");
        assert!(names("zzzz qqqq").is_empty());
        assert!(names("").is_empty());
        assert!(names("  ,/ ").is_empty());
        let err = find_in(Genre::Oriental, "long sword").unwrap_err().to_string();
        assert!(err.starts_with("unknown weapon \"long sword\""), "{err}");
        assert!(!err.contains("Sword, Long"), "{err}");
    }

    #[test]
    fn footnotes_are_data() {
        let heavy = find("Crossbow, Heavy").unwrap();
        assert_eq!(heavy.footnote, Some(Footnote::HeavyCrossbow));
        assert_eq!(heavy.continuous_time_taken, Some(12));
        assert_eq!((heavy.time_taken_for(false), heavy.time_taken_for(true)), (8, 12));
        assert!(heavy.footnote_text().unwrap().contains("at least 12"));
        let with_notes: Vec<&str> = all().iter().filter(|w| w.footnote.is_some()).map(|w| w.name).collect();
        assert_eq!(
            with_notes,
            [
                "Crossbow, Heavy",
                "Grenade, Hand",
                "Grenade, Launched",
                "Machine Gun, Gatling",
                "Machine Gun, M-16 or AK-47",
                "Machine Gun, Thompson"
            ]
        );
        for w in all() {
            assert_eq!(w.covers_every_grenade(), w.name.starts_with("Grenade"));
            assert_eq!(w.burst.is_some(), w.name.starts_with("Machine Gun"));
            assert_eq!(w.continuous_time_taken.is_some(), w.name == "Crossbow, Heavy");
            if let Some(note) = w.footnote {
                assert_eq!(note.genre(), w.genre);
            }
        }
        assert_eq!(find("gatling").unwrap().burst, Some(15));
        assert_eq!(Footnote::ALL.map(Footnote::marker), ['*', '*', '+']);
    }

    #[test]
    fn rate_of_fire_parse_display_and_checks() {
        for text in ["2/1", "4/3", "1/2", "2/3", "5/3", "2/2"] {
            assert_eq!(text.parse::<RateOfFire>().unwrap().to_string(), text);
        }
        assert_eq!(" 4 / 3 ".parse::<RateOfFire>().unwrap(), RateOfFire::of(4, 3));
        assert_eq!("2".parse::<RateOfFire>().unwrap().to_string(), "2/1");
        assert_ne!("2/2".parse::<RateOfFire>().unwrap(), RateOfFire::ONE);
        assert_eq!(
            "0/3".parse::<RateOfFire>().unwrap_err().to_string(),
            "rate_of_fire.shots: 0 is outside 1..=4294967295"
        );
        assert_eq!(
            RateOfFire::new(1, 0).unwrap_err().to_string(),
            "rate_of_fire.rounds: 0 is outside 1..=4294967295"
        );
        for bad in ["", "/", "1/", "a/b", "1/2/3", "-1/2", "1.5/2", "99999999999/1"] {
            assert!(bad.parse::<RateOfFire>().is_err(), "{bad}");
        }
        assert_eq!(RateOfFire::of(1, 2).as_f64(), 0.5);
        let json = serde_json::to_string(&RateOfFire::of(4, 3)).unwrap();
        assert_eq!(json, "\"4/3\"");
        assert_eq!(serde_json::from_str::<RateOfFire>(&json).unwrap(), RateOfFire::of(4, 3));
        assert_eq!(serde_json::from_str::<RateOfFire>("2").unwrap(), RateOfFire::of(2, 1));
        assert!(serde_json::from_str::<RateOfFire>("\"1/0\"").is_err());
        assert!(serde_json::from_str::<RateOfFire>("0").is_err());
    }

    #[test]
    fn shots_per_round_follow_the_decision() {
        let per = |n, k| {
            (1..=6)
                .map(|r| RateOfFire::of(n, k).shots_in_round(r))
                .collect::<Vec<_>>()
        };
        assert_eq!(per(1, 2), [1, 0, 1, 0, 1, 0]);
        assert_eq!(per(4, 3), [2, 1, 1, 2, 1, 1]);
        assert_eq!(per(2, 3), [1, 1, 0, 1, 1, 0]);
        assert_eq!(per(3, 2), [2, 1, 2, 1, 2, 1]);
        assert_eq!(per(2, 1), [2, 2, 2, 2, 2, 2]);
        assert_eq!(RateOfFire::ONE.shots_in_round(0), 0);
        let extreme = RateOfFire::of(u32::MAX, 1);
        assert_eq!(extreme.shots_in_round(u32::MAX), u32::MAX);
        assert_eq!(RateOfFire::of(1, u32::MAX).shots_in_round(u32::MAX), 0);
    }

    #[test]
    fn genre_parse_and_serde() {
        for (text, genre) in [
            ("fantasy", Genre::Fantasy),
            ("FANTASY", Genre::Fantasy),
            ("Oriental", Genre::Oriental),
            ("modern", Genre::IndustrialModern),
            ("industrial", Genre::IndustrialModern),
            ("Industrial & Modern", Genre::IndustrialModern),
            ("industrial_modern", Genre::IndustrialModern),
            ("sci-fi", Genre::ScienceFiction),
            ("scifi", Genre::ScienceFiction),
            ("Science Fiction", Genre::ScienceFiction),
            ("science_fiction", Genre::ScienceFiction),
        ] {
            assert_eq!(text.parse::<Genre>().unwrap(), genre, "{text}");
        }
        for g in Genre::ALL {
            assert_eq!(g.title().parse::<Genre>().unwrap(), g);
            let json = serde_json::to_string(&g).unwrap();
            assert_eq!(json, format!("\"{}\"", g.id()));
            assert_eq!(serde_json::from_str::<Genre>(&json).unwrap(), g);
        }
        match "fantasie".parse::<Genre>().unwrap_err() {
            Error::UnknownName { kind, suggestions, .. } => {
                assert_eq!(kind, "genre");
                assert_eq!(suggestions[0], "Fantasy");
            }
            other => panic!("{other}"),
        }
        assert!("western".parse::<Genre>().is_err());
    }

    proptest::proptest! {
        #[test]
        fn no_text_makes_a_lookup_or_parse_panic(text in "\\PC{0,40}", pick in 0usize..57, shots: u32, rounds: u32, round: u32) {
            let _ = find(&text);
            let _ = find_in(Genre::Oriental, &text);
            let _ = text.parse::<Genre>();
            let _ = text.parse::<RateOfFire>();
            // Any name, mangled in case and word order, still finds its row.
            let w = &all()[pick];
            let mut words: Vec<&str> = w.name.split([' ', ',']).filter(|s| !s.is_empty()).collect();
            words.reverse();
            let mangled = words.join(" ").to_uppercase();
            proptest::prop_assert_eq!(find(&mangled).map(|f| f.name), Ok(w.name));
            if let Ok(rof) = RateOfFire::new(shots, rounds) {
                proptest::prop_assert!(rof.shots_in_round(round) <= shots.div_ceil(rounds));
            }
        }
    }

    #[test]
    fn weapons_serialize_for_output() {
        let json = serde_json::to_string(find("thompson").unwrap()).unwrap();
        assert_eq!(
            json,
            r#"{"name":"Machine Gun, Thompson","genre":"industrial_modern","time_taken":4,"rate_of_fire":"3/2","burst":15,"footnote":"machine_gun"}"#
        );
    }
}
