//! Finding a weapon by name: forgiving of case, punctuation, word order
//! and small typos, with suggestions when a name is unknown or picks out
//! several rows. Its own file because the matching (keys built once, exact
//! before partial, suggestions in every spelling) is a concern apart from
//! the data it searches.

use std::sync::OnceLock;

use super::data::{STARTS, WEAPONS};
use super::{Genre, Weapon};
use crate::error::{Error, Result, closest_names};

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
pub(super) struct Key {
    /// Lowercase words, letters and digits split apart ("m16" -> "m", "16"),
    /// sorted.
    words: Vec<String>,
    /// All letters and digits, lowercase, in order ("polearm").
    squashed: String,
}

impl Key {
    pub(super) fn of(name: &str) -> Key {
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

    pub(super) fn same_as(&self, other: &Key) -> bool {
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
