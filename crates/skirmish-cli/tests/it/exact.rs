//! `skirmish exact`: a duel's outcomes as fractions and decimals, with the
//! chain's size and the time taken, in text, CSV and JSON; what the exact
//! engine does not model refused with the field and the usage status.

use std::process::{Command, Output};

fn skirmish(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_skirmish"))
        .args(args)
        .output()
        .unwrap()
}

/// docs/rules.md §6's worked duel: one hit point each, SR 5 against DR 5.
const DUEL: &str = r#"name = "duel"
timing = "simultaneous"
damage = { model = "hit_points", max_hp = 1 }
[[sides]]
name = "Ann"
groups = [{ name = "Ann", strike_rating = 5, defense_rating = 5 }]
[[sides]]
name = "Bob"
groups = [{ name = "Bob", strike_rating = 5, defense_rating = 5 }]
"#;

/// The duel, written to a file of the test's own temporary folder.
pub(crate) fn duel_file() -> String {
    let dir = std::env::temp_dir().join(format!("skirmish-cli-exact-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("duel.toml");
    std::fs::write(&path, DUEL).unwrap();
    path.to_string_lossy().into_owned()
}

#[test]
fn exact_prints_each_outcome_as_a_fraction_and_a_decimal() {
    let duel = duel_file();
    let out = skirmish(&["exact", &duel]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with("exact outcome of duel: 1 state, 4 transitions, in exact fractions, solved in "),
        "{text}"
    );
    for row in [
        "Ann wins    0.381679  50/131",
        "Bob wins    0.381679  50/131",
        "draw        0.236641  31/131",
        "never ends  0.000000  0",
    ] {
        assert!(text.contains(row), "{row:?} in\n{text}");
    }
    // CSV: one row an outcome.
    let out = skirmish(&["exact", &duel, "--format", "csv"]);
    let csv = String::from_utf8(out.stdout).unwrap();
    assert!(
        csv.starts_with("outcome,chance,fraction\nAnn wins,0.381679,50/131\n"),
        "{csv}"
    );
    // JSON: the outcome and how it was found.
    let out = skirmish(&["exact", &duel, "--format", "json"]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["scenario"], "duel");
    assert_eq!(json["wins"][1]["fraction"], "50/131");
    assert_eq!(json["draw"]["fraction"], "31/131");
    assert_eq!(json["states"], 1);
    assert_eq!(json["exact"], true);
    assert!(json["seconds"].as_f64().unwrap() >= 0.0);
    // --set changes the fight first: Bob at DR 6 is hit on +2 or more (15
    // of the 81), Ann on +1 (31).
    let out = skirmish(&[
        "exact",
        &duel,
        "--set",
        "sides.Bob.groups.Bob.defense_rating=6",
        "--arithmetic",
        "float",
    ]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("in floats, each within") && !text.contains("fraction"),
        "{text}"
    );
    // Ann wins at the first exchange where anyone hits if she hits and
    // Bob misses: 15 x 50 / (81^2 - 66 x 50) = 750/3261.
    assert!(text.contains(&format!("Ann wins    {:.6}", 750.0 / 3261.0)), "{text}");
}

#[test]
fn exact_refuses_what_it_does_not_model_naming_the_field() {
    let duel = duel_file();
    let out = skirmish(&["exact", &duel, "--set", "sides.Ann.groups.0.parry=always"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("error: sides[0].groups[0].parry: parries") && err.contains("sample the fight instead"),
        "{err}"
    );
    let out = skirmish(&["exact", &duel, "--max-states", "0"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("more than 0 states"), "{err}");
}
