//! The suggested armor values of Full Contact striking
//! (the "Full Contact" striking article, "Addendum: Suggested Armor
//! Values"; docs/rules.md §2.1.2).
//!
//! Every row of the text's table, in its order, with the names a GM is
//! likely to type as aliases. Lookups ignore case, punctuation, `&`/`and`
//! and `etc.`, so `"kevlar"`, `"Riot Gear"`, `"chain mail"` and
//! `"Gauntlets, greaves and helm"` all find their row.
//!
//! The text marks the shield and the gauntlets/greaves/helm rows `+1*`,
//! "depending on skill/situation"; [`Armor::situational`] keeps that mark.
//!
//! ```
//! use skirmish_core::tables::armor::armor;
//! let plate = armor("plate")?;
//! assert_eq!(plate.name, "Plate mail, riot gear");
//! assert_eq!(plate.defense_rating_bonus, 4);
//! assert!(armor("Helm")?.situational);
//! let typo = armor("lether").unwrap_err();
//! assert_eq!(typo.to_string(), "unknown armor \"lether\"; did you mean \"Leather, etc.\"?");
//! # Ok::<(), skirmish_core::Error>(())
//! ```

use std::fmt;

use serde::Serialize;

use crate::error::{Error, Result, closest_names};

/// One row of the suggested armor table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct Armor {
    /// The row as the text writes it, e.g. `"Plate mail, riot gear"`.
    pub name: &'static str,
    /// Other names that find this row, e.g. `"plate"`, `"riot gear"`.
    pub aliases: &'static [&'static str],
    /// What the row adds to Defense Rating (the table's DR column).
    pub defense_rating_bonus: i32,
    /// The table's `*`: the bonus applies "depending on skill/situation"
    /// (the GM decides whether it counts in a given fight).
    pub situational: bool,
}

impl fmt::Display for Armor {
    /// `"Plate mail, riot gear (+4)"`, `"Shield (+1*)"`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} ({:+}{})",
            self.name,
            self.defense_rating_bonus,
            if self.situational { "*" } else { "" }
        )
    }
}

/// The table, in the text's order.
pub static ARMOR: [Armor; 8] = [
    Armor {
        name: "Cloth or less",
        aliases: &[
            "cloth",
            "clothes",
            "clothing",
            "normal clothes",
            "robes",
            "none",
            "no armor",
        ],
        defense_rating_bonus: 0,
        situational: false,
    },
    Armor {
        name: "Leather, etc.",
        aliases: &["leather", "leather armor", "studded leather", "hide"],
        defense_rating_bonus: 1,
        situational: false,
    },
    Armor {
        name: "Chain/ring mail, etc.",
        aliases: &["chain mail", "chainmail", "chain", "ring mail", "ringmail", "mail"],
        defense_rating_bonus: 2,
        situational: false,
    },
    Armor {
        name: "Banded mail, kevlar, etc.",
        aliases: &["banded mail", "banded", "kevlar", "kevlar vest"],
        defense_rating_bonus: 3,
        situational: false,
    },
    Armor {
        name: "Plate mail, riot gear",
        aliases: &["plate mail", "plate", "plate armor", "riot gear"],
        defense_rating_bonus: 4,
        situational: false,
    },
    Armor {
        name: "Full plate, blast suit",
        aliases: &["full plate", "full plate armor", "blast suit"],
        defense_rating_bonus: 5,
        situational: false,
    },
    Armor {
        name: "Shield",
        aliases: &["shield"],
        defense_rating_bonus: 1,
        situational: true,
    },
    Armor {
        name: "Gauntlets, greaves, & helm",
        aliases: &["gauntlets", "greaves", "helm", "helmet", "gauntlets greaves helm"],
        defense_rating_bonus: 1,
        situational: true,
    },
];

/// Index of the shield row in [`ARMOR`].
pub(crate) const SHIELD: usize = 6;
/// Index of the gauntlets, greaves & helm row in [`ARMOR`].
pub(crate) const COVERAGE: usize = 7;

/// Every row of the table, in the text's order.
pub fn all() -> &'static [Armor] {
    &ARMOR
}

/// The row named `name`: its name or any alias, ignoring case,
/// punctuation, `&`, `and` and `etc`.
///
/// # Errors
/// [`Error::UnknownName`] for a name no row has, suggesting the closest
/// rows (matched against names and aliases, reported by row name).
pub fn armor(name: &str) -> Result<&'static Armor> {
    // The table's own spelling: no two rows share a spelling (a test
    // checks it), so the forgiving search would find this row.
    if let Some(row) = ARMOR.iter().find(|a| a.name == name) {
        return Ok(row);
    }
    let wanted = normalize(name);
    if !wanted.is_empty() {
        let found = ARMOR
            .iter()
            .zip(normalized_names())
            .find(|(_, names)| names.contains(&wanted));
        if let Some((found, _)) = found {
            return Ok(found);
        }
    }
    // Suggest by name or alias ("kevlr" is close to "kevlar"), but always
    // name the row, which is what a caller can look up and recognise.
    let known = ARMOR
        .iter()
        .flat_map(|a| std::iter::once(a.name).chain(a.aliases.iter().copied()));
    let mut suggestions: Vec<String> = Vec::new();
    for close in closest_names(name, known) {
        let row = ARMOR
            .iter()
            .find(|a| a.name == close || a.aliases.contains(&close.as_str()));
        if let Some(row) = row
            && !suggestions.iter().any(|s| s == row.name)
        {
            suggestions.push(row.name.to_owned());
        }
    }
    Err(Error::UnknownName {
        kind: "armor".to_owned(),
        name: name.to_owned(),
        suggestions,
    })
}

/// Every row's name and aliases normalized (index as [`ARMOR`]), once: a
/// lookup used to normalize them all again, allocating, for every row it
/// compared.
fn normalized_names() -> &'static [Vec<String>] {
    static NAMES: std::sync::OnceLock<Vec<Vec<String>>> = std::sync::OnceLock::new();
    NAMES.get_or_init(|| {
        ARMOR
            .iter()
            .map(|a| {
                std::iter::once(a.name)
                    .chain(a.aliases.iter().copied())
                    .map(normalize)
                    .collect()
            })
            .collect()
    })
}

/// Lower case, words only: punctuation, `&`, `and` and `etc` dropped.
fn normalize(name: &str) -> String {
    let lower = name.to_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty() && *w != "and" && *w != "etc")
        .collect();
    words.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_row_of_the_seed_in_order() {
        let rows: Vec<(&str, i32, bool)> = all()
            .iter()
            .map(|a| (a.name, a.defense_rating_bonus, a.situational))
            .collect();
        assert_eq!(
            rows,
            [
                ("Cloth or less", 0, false),
                ("Leather, etc.", 1, false),
                ("Chain/ring mail, etc.", 2, false),
                ("Banded mail, kevlar, etc.", 3, false),
                ("Plate mail, riot gear", 4, false),
                ("Full plate, blast suit", 5, false),
                ("Shield", 1, true),
                ("Gauntlets, greaves, & helm", 1, true),
            ]
        );
        assert_eq!(ARMOR[SHIELD].name, "Shield");
        assert_eq!(ARMOR[COVERAGE].name, "Gauntlets, greaves, & helm");
    }

    #[test]
    fn names_and_aliases_are_unambiguous() {
        let mut seen: Vec<String> = Vec::new();
        for a in all() {
            let mut own = vec![normalize(a.name)];
            own.extend(a.aliases.iter().map(|x| normalize(x)));
            own.sort();
            own.dedup();
            for n in own {
                assert!(!n.is_empty(), "{}", a.name);
                assert!(!seen.contains(&n), "{n:?} names two rows");
                seen.push(n);
            }
        }
    }

    #[test]
    fn every_name_and_alias_finds_its_row() {
        for a in all() {
            assert_eq!(armor(a.name).unwrap(), a);
            assert_eq!(armor(&a.name.to_uppercase()).unwrap(), a);
            for alias in a.aliases {
                assert_eq!(armor(alias).unwrap(), a, "{alias}");
            }
        }
    }

    #[test]
    fn forgiving_lookups() {
        for (typed, row) in [
            ("kevlar", "Banded mail, kevlar, etc."),
            ("  Riot Gear ", "Plate mail, riot gear"),
            ("CHAIN MAIL", "Chain/ring mail, etc."),
            ("chain/ring mail", "Chain/ring mail, etc."),
            ("plate", "Plate mail, riot gear"),
            ("Full Plate", "Full plate, blast suit"),
            ("leather", "Leather, etc."),
            ("leather etc", "Leather, etc."),
            ("Gauntlets, greaves and helm", "Gauntlets, greaves, & helm"),
            ("gauntlets greaves & helm", "Gauntlets, greaves, & helm"),
            ("cloth or less", "Cloth or less"),
        ] {
            assert_eq!(armor(typed).unwrap().name, row, "{typed}");
        }
    }

    #[test]
    fn unknown_names_suggest_rows() {
        match armor("kevlr") {
            Err(Error::UnknownName {
                kind,
                name,
                suggestions,
            }) => {
                assert_eq!(kind, "armor");
                assert_eq!(name, "kevlr");
                assert_eq!(suggestions[0], "Banded mail, kevlar, etc.");
            }
            other => panic!("{other:?}"),
        }
        match armor("sheild") {
            Err(Error::UnknownName { suggestions, .. }) => assert_eq!(suggestions[0], "Shield"),
            other => panic!("{other:?}"),
        }
        for nothing in ["", "   ", ",,,", "etc", "zzzzqqq"] {
            assert!(matches!(armor(nothing), Err(Error::UnknownName { .. })), "{nothing:?}");
        }
    }

    #[test]
    fn display_marks_situational_rows() {
        assert_eq!(ARMOR[4].to_string(), "Plate mail, riot gear (+4)");
        assert_eq!(ARMOR[SHIELD].to_string(), "Shield (+1*)");
        assert_eq!(ARMOR[0].to_string(), "Cloth or less (+0)");
    }
}
