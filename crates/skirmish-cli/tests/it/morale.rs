//! Morale at the terminal: `skirmish run` says which side broke and how,
//! `skirmish sweep` shows the retreat and surrender rates when a side
//! plays morale (and the CSV always carries their columns), and a morale
//! that does nothing is warned about.

use std::process::Command;

fn skirmish(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_skirmish"))
        .args(args)
        .output()
        .unwrap()
}

const ROUT: &str = r#"
name = "rout"
timing = "simple_rounds"
[[sides]]
name = "party"
morale = { break_below = 0.5 }
groups = [
  { name = "Cardiff", strike_rating = 9, defense_rating = 7 },
  { name = "guard", count = 3, strike_rating = 6, defense_rating = 6 },
]
[[sides]]
name = "goblins"
morale = { leader = "Shaman", outcome = "surrender" }
groups = [
  { name = "Goblin", count = 4, strike_rating = 6, defense_rating = 6 },
  { name = "Shaman", strike_rating = 4, defense_rating = 5 },
]
"#;

/// The scenario written to a fresh file of the test's own.
fn rout_file(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("skirmish-cli-morale-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

#[test]
fn run_says_which_side_broke_and_how() {
    let file = rout_file("run.toml", ROUT);
    let mut seen = false;
    for seed in 1..40 {
        let out = skirmish(&["run", &file, "--trace", "--seed", &seed.to_string()]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let text = String::from_utf8(out.stdout).unwrap();
        if let Some(line) = text.lines().find(|l| l.contains("goblins break (leader down)")) {
            seen = true;
            let left: u64 = line
                .split(": ")
                .nth(1)
                .unwrap()
                .split(' ')
                .next()
                .unwrap()
                .parse()
                .unwrap();
            assert!(text.contains("winner: party"), "{text}");
            assert!(
                text.contains(&format!("  goblins: {left} of 5 standing (surrendered)\n")),
                "{text}"
            );
            break;
        }
    }
    assert!(seen, "the goblins surrendered in none of 39 battles");
}

#[test]
fn the_sweep_table_shows_retreats_and_surrenders_when_a_side_plays_morale() {
    let file = rout_file("sweep.toml", ROUT);
    let out = skirmish(&[
        "sweep",
        &file,
        "--battles",
        "200",
        "--quiet",
        "--vary",
        "sides.party.morale.break_below=0,0.9",
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    let head = text.lines().find(|l| l.contains("battles")).unwrap();
    assert!(
        head.contains("retreat party  surrender party  retreat goblins  surrender goblins  draw"),
        "{text}"
    );
    let row = text.lines().find(|l| l.starts_with("0.9 ")).unwrap();
    assert!(
        row.split_whitespace().filter(|c| c.ends_with('%')).count() >= 8,
        "{row}"
    );
    // Without morale: the table as it was.
    let out = skirmish(&["sweep", "--battles", "20", "--quiet"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(!text.contains("retreat"), "{text}");
    // The CSV carries the columns either way (schema 2).
    let csv = rout_file("plain.csv", "");
    std::fs::remove_file(&csv).unwrap();
    let out = skirmish(&["sweep", "--battles", "20", "--quiet", "--out", &csv]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let header = std::fs::read_to_string(&csv)
        .unwrap()
        .lines()
        .next()
        .unwrap()
        .to_owned();
    assert!(
        header.ends_with(
            "retreats_party,surrenders_party,retreats_goblinoids,surrenders_goblinoids,seed,scenario_fingerprint"
        ),
        "{header}"
    );
}

#[test]
fn a_morale_that_does_nothing_is_warned_about_and_a_bad_one_refused() {
    let idle = rout_file(
        "idle.toml",
        &ROUT.replace("morale = { break_below = 0.5 }", "morale = {}"),
    );
    let out = skirmish(&["run", &idle, "--seed", "1"]);
    assert!(out.status.success());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("sides[0].morale: break_below = 0 with no leader never breaks side \"party\""),
        "{err}"
    );
    let out = skirmish(&["run", &idle, "--set", "sides.goblins.morale.break_below=1.5"]);
    assert!(!out.status.success());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("sides[1].morale.break_below: 1.5 is outside 0..=1"),
        "{err}"
    );
}
