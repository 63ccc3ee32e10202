//! No scenario input runs away, and every refusal says what to
//! do. Lists too long are refused while they are read (before any check
//! that looks at pairs), files that are not regular files are refused
//! before they are opened for reading, and a file is read only up to its
//! limit. Each test feeds an input that took seconds to minutes (or
//! forever) before the fix; the fixed code refuses it before the expensive
//! part, so the tests assert on the error, not on a timer.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use skirmish_sim::scenario::{
    BATTLE_MEMORY_BUDGET, FIGHTER_STATE_BYTES, MAX_FIGHTERS, MAX_GROUPS, MAX_SCENARIO_BYTES, MAX_SIDES, Scenario,
    ScenarioErrorKind, Side,
};

/// A folder under the system's temporary folder, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("skirmish-bounds-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A TOML scenario of `sides` sides with `groups` groups each.
fn many(sides: usize, groups: usize) -> String {
    let mut src = String::from("name = \"many\"\n");
    for s in 0..sides {
        write!(src, "[[sides]]\nname = \"s{s}\"\n").unwrap();
        for g in 0..groups {
            write!(src, "[[sides.groups]]\nname = \"g{g}\"\n").unwrap();
        }
    }
    src
}

#[test]
fn twenty_thousand_sides_are_refused_while_read_with_file_line_and_limit() {
    // Before: seconds of pairwise name checks to reach "at most 255 sides",
    // and that only when the battle was built, with no file or line.
    let e = Scenario::from_toml_str(&many(20_000, 1), "wide.toml").unwrap_err();
    assert_eq!(e.kind, ScenarioErrorKind::Schema, "{e}");
    assert_eq!(e.origin, "wide.toml");
    assert!(e.line.is_some(), "{e}");
    assert_eq!(e.path, "sides");
    assert!(
        e.message.starts_with("20000 sides; a battle takes at most 255 sides"),
        "{e}"
    );
    // JSON too.
    let sides: Vec<String> = (0..300)
        .map(|s| format!("{{\"name\": \"s{s}\", \"groups\": [{{\"name\": \"g\"}}]}}"))
        .collect();
    let json = format!("{{\"name\": \"wide\", \"sides\": [{}]}}", sides.join(","));
    let e = Scenario::from_json_str(&json, "wide.json").unwrap_err();
    assert!(e.to_string().starts_with("wide.json:1:"), "{e}");
    assert!(
        e.message.starts_with("300 sides; a battle takes at most 255 sides"),
        "{e}"
    );
}

#[test]
fn the_side_limit_holds_at_the_edge() {
    let edge = Scenario::from_toml_str(&many(MAX_SIDES, 1), "edge.toml").unwrap();
    assert_eq!(edge.sides.len(), 255);
    let e = Scenario::from_toml_str(&many(MAX_SIDES + 1, 1), "over.toml").unwrap_err();
    assert!(e.message.starts_with("256 sides"), "{e}");
}

#[test]
fn groups_past_the_limit_are_refused_while_read() {
    // Before: 2.2M groups ran for minutes. One side's list is cut off at the
    // limit while it is read (the rest only counted)...
    let e = Scenario::from_toml_str(&many(2, MAX_GROUPS + 10), "deep.toml").unwrap_err();
    assert_eq!(e.path, "sides[0].groups", "{e}");
    assert!(
        e.message.starts_with(&format!(
            "{} groups in one side; a scenario takes at most {MAX_GROUPS} groups over all sides",
            MAX_GROUPS + 10
        )),
        "{e}"
    );
    assert!(e.message.contains("raise its count instead"), "{e}");
    // ... and the total over sides is counted side by side as they are
    // read: the side that passes the limit ends the reading.
    let half = MAX_GROUPS / 2 + 1;
    let e = Scenario::from_toml_str(&many(3, half), "wide.toml").unwrap_err();
    assert_eq!(e.kind, ScenarioErrorKind::Schema, "{e}");
    assert_eq!(e.path, "sides", "{e}");
    assert!(
        e.message.starts_with(&format!(
            "{} groups in the sides so far; a scenario takes at most 16384 groups over all sides",
            2 * half
        )),
        "{e}"
    );
    // At the limit exactly, a scenario loads.
    let s = Scenario::from_toml_str(&many(2, MAX_GROUPS / 2), "edge.toml").unwrap();
    assert_eq!(s.sides[0].groups.len() + s.sides[1].groups.len(), MAX_GROUPS);
}

#[test]
fn scenarios_built_in_code_meet_the_same_limits_in_validate() {
    let mut s = Scenario::builtin("parity").unwrap();
    let side = s.sides[0].clone();
    s.sides = (0..300)
        .map(|i| Side {
            name: format!("side {i}"),
            ..side.clone()
        })
        .collect();
    let e = s.validate().unwrap_err();
    assert_eq!(e.path, "sides[255]");
    assert!(e.message.starts_with("300 sides; a battle takes at most 255"), "{e}");
    let mut s = Scenario::builtin("parity").unwrap();
    let group = s.sides[0].groups[0].clone();
    for side in &mut s.sides {
        side.groups = (0..MAX_GROUPS / 2 + 1).map(|i| group.clone().renamed(i)).collect();
    }
    let e = s.validate().unwrap_err();
    assert_eq!(e.path, "sides");
    assert!(
        e.message
            .starts_with("16386 groups in all; a scenario takes at most 16384 groups"),
        "{e}"
    );
    // Duplicate names are still found (through a map now), with the first.
    let mut s = Scenario::builtin("parity").unwrap();
    let mut side = s.sides[0].clone();
    side.groups = (0..5000).map(|i| side.groups[0].clone().renamed(i)).collect();
    side.groups[4999].name = "Fighter 17".into();
    s.sides[0] = side;
    let e = s.validate().unwrap_err();
    assert_eq!(e.path, "sides[0].groups[4999].name", "{e}");
    assert!(e.message.contains("(also groups[17])"), "{e}");
}

trait Renamed {
    fn renamed(self, i: usize) -> Self;
}

impl Renamed for skirmish_sim::scenario::Group {
    fn renamed(mut self, i: usize) -> Self {
        self.name = format!("fighter {i}");
        self
    }
}

#[test]
fn the_fighter_cap_is_the_memory_budget_over_the_measured_bytes_per_fighter() {
    assert_eq!(MAX_FIGHTERS, BATTLE_MEMORY_BUDGET / FIGHTER_STATE_BYTES);
    assert_eq!(MAX_FIGHTERS, 3_579_139);
    let parity = Scenario::builtin("parity").unwrap();
    let at_cap = parity
        .with_field("sides.A.groups.0.count", &(MAX_FIGHTERS - 10).to_string())
        .unwrap();
    assert_eq!(at_cap.get_field("sides[0].groups[0].count").unwrap(), MAX_FIGHTERS - 10);
    let e = at_cap.with_field("sides.B.groups.0.count", "11").unwrap_err();
    assert!(
        e.message.starts_with(&format!(
            "{} fighters in all would need about 2.0 GiB",
            MAX_FIGHTERS + 1
        )),
        "{e}"
    );
}

#[cfg(unix)]
fn mkfifo(path: &Path) {
    let status = std::process::Command::new("mkfifo").arg(path).status().unwrap();
    assert!(status.success());
}

#[cfg(unix)]
#[test]
fn a_fifo_is_refused_without_waiting_for_a_writer() {
    // Before: `skirmish run x.toml` on a FIFO blocked forever.
    let dir = TempDir::new("fifo");
    let fifo = dir.path("pipe.toml");
    mkfifo(&fifo);
    let e = Scenario::load(&fifo).unwrap_err();
    assert_eq!(e.kind, ScenarioErrorKind::Read);
    assert_eq!(
        e.to_string(),
        format!(
            "{}: is a FIFO (named pipe), not a regular file; a TOML scenario must be a file (a pipe, device or \
             folder could block or never end)",
            fifo.display()
        )
    );
    // Through a symlink too.
    let link = dir.path("link.json");
    std::os::unix::fs::symlink(&fifo, &link).unwrap();
    let e = Scenario::load(&link).unwrap_err();
    assert!(
        e.message
            .starts_with("is a FIFO (named pipe), not a regular file; a JSON"),
        "{e}"
    );
}

#[cfg(unix)]
#[test]
fn a_link_to_a_special_file_is_refused_before_it_is_read() {
    // Before: a scenario linked to a device (/dev/urandom) grew until
    // killed. Tests never touch /dev: the same check (the file type behind
    // the link, before it is opened) is shown on a socket made in a
    // temporary folder; a file that grows while read is the size limit's.
    let dir = TempDir::new("special");
    let socket = dir.path("socket.toml");
    let _listener = std::os::unix::net::UnixListener::bind(&socket).unwrap();
    let link = dir.path("link.toml");
    std::os::unix::fs::symlink(&socket, &link).unwrap();
    let e = Scenario::load(&link).unwrap_err();
    assert!(e.message.starts_with("is a socket, not a regular file"), "{e}");
    let folder = dir.path("folder.toml");
    std::fs::create_dir(&folder).unwrap();
    let e = Scenario::load(&folder).unwrap_err();
    assert!(e.message.starts_with("is a folder, not a regular file"), "{e}");
}

#[test]
fn a_file_past_the_size_limit_is_refused_before_it_is_read() {
    let dir = TempDir::new("large");
    let big = dir.path("big.toml");
    // Sparse: no disk is used, and nothing is read.
    let file = std::fs::File::create(&big).unwrap();
    file.set_len(MAX_SCENARIO_BYTES + 1).unwrap();
    drop(file);
    let e = Scenario::load(&big).unwrap_err();
    assert_eq!(e.kind, ScenarioErrorKind::Read);
    assert_eq!(
        e.message,
        format!(
            "this TOML file is larger than a scenario may be: at most {MAX_SCENARIO_BYTES} bytes (4 MiB), this one \
             has {} bytes",
            MAX_SCENARIO_BYTES + 1
        )
    );
    #[cfg(unix)]
    {
        let link = dir.path("link.toml");
        std::os::unix::fs::symlink(&big, &link).unwrap();
        let e = Scenario::load(&link).unwrap_err();
        assert!(
            e.message.starts_with("this TOML file is larger than a scenario may be"),
            "{e}"
        );
    }
}

#[test]
fn a_file_that_is_not_utf8_says_where() {
    let dir = TempDir::new("utf8");
    let path = dir.path("latin1.toml");
    std::fs::write(&path, b"name = \"caf\xe9\"\n").unwrap();
    let e = Scenario::load(&path).unwrap_err();
    assert_eq!(
        e.message,
        "this TOML file is not UTF-8 text (an invalid byte at offset 11); save it as UTF-8"
    );
}

fn parity_with(line: &str, value: &str) -> String {
    let src = Scenario::builtin_source("parity").unwrap();
    let mut out = String::new();
    for l in src.lines() {
        if l.starts_with(&format!("{line} = ")) {
            writeln!(out, "{line} = {value}").unwrap();
        } else {
            writeln!(out, "{l}").unwrap();
        }
    }
    out
}

#[test]
fn choices_take_the_command_lines_spelling_too() {
    // Before: `{system = "tick-system"}` was refused though `--set
    // timing=tick-system` works.
    let s = Scenario::from_toml_str(&parity_with("timing", "{ system = \"tick-system\" }"), "p.toml").unwrap();
    assert_eq!(s.timing.name(), "tick-system");
    let s = Scenario::from_toml_str(&parity_with("striking", "{ system = \"fudge-opposed\" }"), "p.toml").unwrap();
    assert_eq!(s.striking.name(), "fudge-opposed");
    let s = Scenario::from_toml_str(&parity_with("damage", "{ model = \"fudge-wounds\" }"), "p.toml").unwrap();
    assert_eq!(s.damage.name(), "fudge_wounds");
    // A name that is not a choice still suggests the right one.
    let e = Scenario::from_toml_str(&parity_with("timing", "{ system = \"tick-sytem\" }"), "p.toml").unwrap_err();
    assert!(e.message.contains("did you mean \"tick_system\""), "{e}");
}

#[test]
fn options_inside_a_choice_keep_their_path() {
    // Before: every error inside timing/striking/damage said only "damage".
    let cases = [
        (
            "damage",
            "{ model = \"fudge_wounds\", boxes = { hurt = -1 } }",
            "p.toml:19:46: damage.boxes.hurt: -1 is negative (expected a whole number, 0 or more)",
        ),
        (
            "timing",
            "{ system = \"graduated_rounds\", past_end = \"bogus\" }",
            "p.toml:16:41: timing.past_end: unknown choice \"bogus\" (allowed: extend, spill, end_of_round, lose)",
        ),
        (
            "striking",
            "{ system = \"full_contact\", amazing = 3 }",
            "p.toml:17:39: striking.amazing: invalid type: integer `3`, expected a boolean",
        ),
    ];
    for (field, value, expected) in cases {
        let e = Scenario::from_toml_str(&parity_with(field, value), "p.toml").unwrap_err();
        assert_eq!(e.to_string(), expected);
    }
    // In JSON, and through a field path, the same path.
    let mut json: serde_json::Value =
        serde_json::from_str(&Scenario::builtin("parity").unwrap().to_json_string().unwrap()).unwrap();
    json["timing"] = serde_json::json!({"system": "continuous", "lap": -3});
    let json = serde_json::to_string_pretty(&json).unwrap();
    let e = Scenario::from_json_str(&json, "p.json").unwrap_err();
    assert_eq!(e.path, "timing.lap", "{e}");
    assert_eq!(e.message, "-3 is negative (expected a whole number, 0 or more)");
    assert!(e.line.is_some(), "{e}");
    let e = Scenario::builtin("parity")
        .unwrap()
        .with_field("striking", "{\"system\": \"full_contact\", \"amazing\": 3}")
        .unwrap_err();
    assert_eq!(e.path, "striking.amazing", "{e}");
}

#[test]
fn setting_the_system_starts_from_its_defaults() {
    // Before: `--set timing.system=tick_system` on a Continuous scenario
    // complained about `lap`, a field the user never wrote.
    let parity = Scenario::builtin("parity").unwrap();
    for name in ["tick_system", "tick-system"] {
        let s = parity.with_field("timing.system", name).unwrap();
        assert_eq!(
            s.timing,
            Scenario::builtin("parity")
                .unwrap()
                .with_field("timing", "tick-system")
                .unwrap()
                .timing
        );
    }
    let s = parity.with_field("damage.model", "fudge_wounds").unwrap();
    assert_eq!(s.damage.name(), "fudge_wounds");
    let s = parity.with_field("striking.system", "fudge-opposed").unwrap();
    assert_eq!(s.striking.name(), "fudge-opposed");
    // An option of the new system afterwards is set as usual.
    let s = parity
        .with_field("timing.system", "tick_system")
        .unwrap()
        .with_field("timing.initiative_die", "1d6")
        .unwrap();
    assert_eq!(s.timing.name(), "tick-system");
}

/// Naming the choice a scenario already has keeps its options: a sweep
/// axis `damage.model=hit_points,fudge_wounds` over a scenario with its
/// own damage table must fight the scenario's table in the `hit_points`
/// cell (found in review: it was replaced by the defaults, silently).
#[test]
fn setting_the_system_it_already_is_keeps_its_options() {
    let parity = Scenario::builtin("parity").unwrap();
    for name in ["hit_points", "hit-points"] {
        let s = parity.with_field("damage.model", name).unwrap();
        assert_eq!(s.damage, parity.damage, "{name}");
    }
    let graduated = parity
        .with_field("timing", "graduated-rounds")
        .unwrap()
        .with_field("timing.ticks_per_round", "7")
        .unwrap();
    for name in ["graduated_rounds", "graduated-rounds"] {
        let s = graduated.with_field("timing.system", name).unwrap();
        assert_eq!(s.timing, graduated.timing, "{name}");
    }
    let s = parity.with_field("striking.system", parity.striking.name()).unwrap();
    assert_eq!(s.striking, parity.striking);
    // Another name still starts from that choice's defaults.
    let other = graduated.with_field("timing.system", "simple_rounds").unwrap();
    assert_eq!(other.timing.name(), "simple-rounds");
}

/// A rule broken inside the damage model's own `damage` table names the
/// whole path, as a type error there does (found in review: it said
/// `damage.table[0].damage`, a field the scenario does not have).
#[test]
fn a_rule_broken_in_the_damage_table_names_the_whole_path() {
    let parity = Scenario::builtin("parity").unwrap();
    let e = parity
        .with_field("damage.damage.table", r#"[{"min_margin": 1, "damage": -1}]"#)
        .unwrap_err();
    assert_eq!(e.path, "damage.damage.table[0].damage", "{e}");
    let e = parity.with_field("damage.damage.table", "[]").unwrap_err();
    assert_eq!(e.path, "damage.damage.table", "{e}");
    let e = parity.with_field("damage.max_hp", "0").unwrap_err();
    assert_eq!(e.path, "damage.max_hp", "{e}");
    // Too large for the field: its own bound, not a group's hit points'.
    let e = parity.with_field("damage.max_hp", "99999999999").unwrap_err();
    assert!(e.message.contains("from 1 to 2147483647"), "{e}");
    assert!(parity.with_field("damage.max_hp", "2000000").is_ok());
}

#[test]
fn messages_name_no_rust_types() {
    let parity = Scenario::builtin("parity").unwrap();
    let e = parity.with_field("sides.A.groups.0.skill", "1.5").unwrap_err();
    assert_eq!(
        e.to_string(),
        "sides[0].groups[0].skill: expected a FUDGE ladder level: a name like \"Good\" or \"Great+\" (plus-levels \
         allowed), or a whole number like 1 or -2"
    );
    let e = parity
        .with_field("sides.A.groups.0.strike_rating", "99999999999")
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "sides[0].groups[0].strike_rating: 99999999999 is too large for this field (expected a whole number from \
         -1000 to 1000)"
    );
    let e = Scenario::from_json_str("[]", "a.json").unwrap_err();
    assert_eq!(
        e.to_string(),
        "a.json:1:2: a scenario is a table of fields (in JSON an object, {...}), not a list"
    );
    let e = Scenario::from_toml_str("name = \"x\"\nname = \"y\"\n", "d.toml").unwrap_err();
    assert_eq!(
        e.to_string(),
        "d.toml:2:1: duplicate key name: a key may appear only once in a table"
    );
    let e = parity.with_field("", "3").unwrap_err();
    assert!(e.message.starts_with("\"\" is not a field path: it is empty"), "{e}");
    // A sample of wrong values: no Rust type name survives.
    for (path, value) in [
        ("sides.A.groups.0", "[1, 2]"),
        ("sides.A", "[]"),
        ("battle", "[\"x\"]"),
        ("battle.targeting", "3"),
        ("timing", "[1]"),
        ("sides.A.groups.0.weapon", "{\"time_taken\": \"x\"}"),
        ("sides.A.groups.0.weapon", "{\"time_taken\": 3, \"rate_of_fire\": 1.5}"),
        ("sides.A.groups.0.disruptible", "3"),
        ("damage", "{\"model\": \"hit_points\", \"max_hp\": 1.5}"),
    ] {
        let e = match parity.with_field(path, value) {
            Ok(_) => panic!("{path}={value} was accepted"),
            Err(e) => e.to_string(),
        };
        for rust in [
            "struct ",
            "enum ",
            "Repr",
            "u64",
            "u32",
            "i32",
            "i64",
            "identifier",
            "sequence",
        ] {
            assert!(!e.contains(rust), "{path}={value}: {e:?} says {rust:?}");
        }
    }
}

#[test]
fn settings_the_rules_ignore_are_warned_about() {
    let parity = Scenario::builtin("parity").unwrap();
    assert!(parity.warnings().is_empty());
    let odd = parity
        .with_field("sides.A.groups.0.initiative_bonus", "2")
        .unwrap()
        .with_field("sides.B.groups.0.reflexes", "5")
        .unwrap();
    assert_eq!(
        odd.warnings(),
        [
            "sides[0].groups[0].initiative_bonus: 2 has no effect under continuous timing (only the Tick System \
             reads it)",
            "sides[1].groups[0].reflexes: 5 has no effect under continuous timing (only Action Blocks reads it)",
        ]
    );
    // Under the systems that read them, nothing to say.
    let ticks = odd.with_field("timing", "tick-system").unwrap();
    assert_eq!(ticks.warnings().len(), 1, "{:?}", ticks.warnings());
    let blocks = odd.with_field("timing", "action-blocks").unwrap();
    assert_eq!(blocks.warnings().len(), 1, "{:?}", blocks.warnings());
    // FUDGE 4.34's options, where no lone fighter is played.
    let knight = parity.with_field("sides.A.groups.0.concentrate", "true").unwrap();
    assert_eq!(
        knight.warnings(),
        [
            "sides[0].groups[0].concentrate: true has no effect under full-contact striking (only fudge-opposed \
          striking reads it)"
        ]
    );
    let one_way = knight
        .with_field(
            "striking",
            r#"{"system": "fudge_opposed", "exchange": "one_way", "sweeping_blow": "minus_one_per_foe"}"#,
        )
        .unwrap();
    assert_eq!(
        one_way.warnings(),
        [
            "striking.sweeping_blow: \"minus_one_per_foe\" has no effect without the lone fighter (lone_fighter = \
             true and two-way exchanges)",
            "sides[0].groups[0].concentrate: true has no effect without the lone fighter (striking.lone_fighter = \
             true and two-way exchanges)",
        ]
    );
    let two_way = knight.with_field("striking", "fudge-opposed").unwrap();
    assert!(two_way.warnings().is_empty(), "{:?}", two_way.warnings());
}

/// Nesting past the TOML reader's limit is refused with its line and
/// column, whether as a table header of 100,000 dotted parts (which the
/// reader refused with no place at all), a dotted key, inline tables or
/// lists.
#[test]
fn nesting_too_deep_is_refused_with_its_line_and_column() {
    let dotted = vec!["a"; 100_000].join(".");
    let header = format!("name = \"x\"\n\n[{dotted}]\nb = 1\n");
    let e = Scenario::from_toml_str(&header, "deep.toml").unwrap_err();
    assert_eq!(e.kind, ScenarioErrorKind::Syntax);
    assert_eq!((e.line, e.column), (Some(3), Some(1)), "{e}");
    assert!(
        e.to_string().starts_with("deep.toml:3:1: a key of 100000 dotted parts"),
        "{e}"
    );
    assert!(e.to_string().contains("recursion limit"), "{e}");

    let key = format!("name = \"x\"\n  \"q.q\".{dotted} = 1\n");
    let e = Scenario::from_toml_str(&key, "key.toml").unwrap_err();
    assert_eq!((e.line, e.column), (Some(2), Some(3)), "{e}");
    // The quoted part is one part, its dot not counted.
    assert!(e.message.contains("100001 dotted parts"), "{e}");

    for deep in [
        format!("a = {}1{}\n", "{b = ".repeat(100_000), "}".repeat(100_000)),
        format!("x = {}{}\n", "[".repeat(100_000), "]".repeat(100_000)),
    ] {
        let e = Scenario::from_toml_str(&deep, "values.toml").unwrap_err();
        assert_eq!(e.line, Some(1), "{e}");
        assert!(e.column.is_some(), "{e}");
    }
    // Below the limit a dotted header reads (and is refused as the unknown
    // field it is, at its line).
    let shallow = format!("name = \"x\"\n[{}]\n", vec!["a"; 70].join("."));
    let e = Scenario::from_toml_str(&shallow, "ok.toml").unwrap_err();
    assert_eq!(e.kind, ScenarioErrorKind::Schema, "{e}");
}
