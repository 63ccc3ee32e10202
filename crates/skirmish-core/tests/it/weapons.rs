//! The weapon speed tables against the text's own tables.
//!
//! `tests/cases/weapon_tables.txt` is the text's addendum tables copied
//! verbatim (the Relativity "Timing Systems" article's "Suggested Weapon
//! Speeds", docs/rules.md §1.9: the genre headings, the tab-separated rows
//! and the footnotes). This test parses it and compares every row, in
//! order, with the static data, so no row can be missing, extra or wrong.

use skirmish_core::tables::weapons::{self, Footnote, Genre, RateOfFire};

const SEED_TABLES: &str = include_str!("../cases/weapon_tables.txt");

/// A row of the text's table, as written there.
#[derive(Debug)]
struct SeedRow {
    genre: Genre,
    name: String,
    time_taken: u32,
    rate_of_fire: RateOfFire,
    marker: Option<char>,
}

/// The rows and the footnotes (genre, marker, text) of the fixture.
fn parse_seed() -> (Vec<SeedRow>, Vec<(Genre, char, String)>) {
    let (mut rows, mut notes) = (Vec::new(), Vec::new());
    let mut genre = None;
    for line in SEED_TABLES
        .lines()
        .map(|l| l.trim_end_matches('\r'))
        .filter(|l| !l.is_empty())
    {
        if let Some(g) = Genre::ALL.into_iter().find(|g| g.title() == line) {
            genre = Some(g);
            continue;
        }
        let genre = genre.expect("a genre heading comes first");
        if line == "Weapon\tTT\tRoF" {
            continue;
        }
        let note = ['*', '+']
            .into_iter()
            .find_map(|m| Some((m, line.strip_prefix(m)?.strip_prefix(' ')?)));
        if let Some((marker, text)) = note {
            notes.push((genre, marker, text.to_owned()));
            continue;
        }
        let fields: Vec<&str> = line.split('\t').collect();
        let [name, tt, rof] = fields[..] else {
            panic!("not a table row: {line:?}")
        };
        let mut marker = None;
        let mut strip = |s: &str| {
            for m in ['*', '+'] {
                if s.contains(m) {
                    assert!(marker.is_none(), "two markers on {line:?}");
                    marker = Some(m);
                }
            }
            s.replace(['*', '+'], "")
        };
        let name = strip(name);
        let rof = strip(rof);
        rows.push(SeedRow {
            genre,
            name,
            time_taken: tt.parse().unwrap(),
            rate_of_fire: rof.parse().unwrap(),
            marker,
        });
    }
    (rows, notes)
}

#[test]
fn the_seed_has_18_15_15_and_9_rows() {
    let (rows, notes) = parse_seed();
    let counts = Genre::ALL.map(|g| rows.iter().filter(|r| r.genre == g).count());
    assert_eq!(counts, [18, 15, 15, 9]);
    assert_eq!(rows.len(), 57);
    assert_eq!(notes.len(), 3);
}

#[test]
fn every_seed_row_is_in_the_static_tables_in_order() {
    let (rows, _) = parse_seed();
    assert_eq!(rows.len(), weapons::all().len(), "no row missing or extra");
    for (seed, weapon) in rows.iter().zip(weapons::all()) {
        assert_eq!(weapon.name, seed.name);
        assert_eq!(weapon.genre, seed.genre, "{}", seed.name);
        assert_eq!(weapon.time_taken, seed.time_taken, "{}", seed.name);
        assert_eq!(weapon.rate_of_fire, seed.rate_of_fire, "{}", seed.name);
        assert_eq!(weapon.footnote.map(Footnote::marker), seed.marker, "{}", seed.name);
        // And each is found by its seed name.
        assert_eq!(weapons::find(&seed.name).unwrap().name, seed.name);
        assert_eq!(weapons::find_in(seed.genre, &seed.name).unwrap().name, seed.name);
    }
    for genre in Genre::ALL {
        let names: Vec<&str> = weapons::by_genre(genre).iter().map(|w| w.name).collect();
        let seed: Vec<&str> = rows
            .iter()
            .filter(|r| r.genre == genre)
            .map(|r| r.name.as_str())
            .collect();
        assert_eq!(names, seed, "{genre}");
    }
}

#[test]
fn footnotes_match_the_seed_text_and_data() {
    let (_, notes) = parse_seed();
    for (note, (genre, marker, text)) in Footnote::ALL.into_iter().zip(&notes) {
        assert_eq!(note.genre(), *genre);
        assert_eq!(note.marker(), *marker);
        assert_eq!(note.text(), text);
    }
    // The numbers in the footnotes are the numbers in the data.
    let heavy = weapons::find("Crossbow, Heavy").unwrap();
    assert!(Footnote::HeavyCrossbow.text().contains("hence the 1/2 RoF"));
    assert_eq!(heavy.rate_of_fire.to_string(), "1/2");
    assert!(Footnote::HeavyCrossbow.text().ends_with("at least 12."));
    assert_eq!(heavy.continuous_time_taken, Some(12));
    assert!(Footnote::MachineGun.text().contains("roughly 15 rounds per burst"));
    for w in weapons::by_genre(Genre::IndustrialModern) {
        match w.footnote {
            Some(Footnote::MachineGun) => assert_eq!(w.burst, Some(15)),
            Some(Footnote::Grenade) => assert!(w.covers_every_grenade()),
            _ => assert_eq!((w.burst, w.covers_every_grenade()), (None, false)),
        }
    }
}

#[test]
fn the_seed_spelling_is_kept_and_the_correct_one_accepted() {
    let shotgun = weapons::find("Rifle, Twelve-Gauge").unwrap();
    assert_eq!(shotgun.name, "Rifle, Twelve-Guage");
    assert_eq!(weapons::find("twelve-gauge rifle").unwrap(), shotgun);
    assert_eq!(
        weapons::find_in(Genre::IndustrialModern, "Rifle, Twelve-Guage").unwrap(),
        shotgun
    );
}

#[test]
fn unknown_names_suggest_the_closest() {
    let err = weapons::find("crosbow").unwrap_err();
    let text = err.to_string();
    assert!(
        text.starts_with("unknown weapon \"crosbow\"; did you mean \"Crossbow, Heavy\", \"Crossbow, Light\""),
        "{text}"
    );
    let err = weapons::find_in(Genre::ScienceFiction, "lazer pistol")
        .unwrap_err()
        .to_string();
    assert!(err.contains("\"Pistol, Laser\""), "{err}");
}
