//! Unit tests of the weapon tables: counts, every name finding itself,
//! forgiving and ambiguous lookups, footnotes, Rate of Fire and genres.

use super::lookup::Key;
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
