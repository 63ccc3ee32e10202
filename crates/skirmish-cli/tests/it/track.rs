//! `skirmish track`, run as a GM's script would run it: commands on
//! standard input, the transcript on standard output, refusals on standard
//! error. The two whole goblin ambushes are the script files in
//! `tests/it/track/`, commented roll by roll.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// What a session printed, and how it ended.
pub(crate) struct Session {
    pub(crate) stdout: String,
    pub(crate) stderr: String,
    code: Option<i32>,
}

/// Runs `skirmish track ARGS` in `dir` with `input` on standard input.
fn track_in(dir: Option<&Path>, args: &[&str], input: &[u8]) -> Session {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_skirmish"));
    cmd.arg("track")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(dir) = dir {
        cmd.current_dir(dir);
    }
    let mut child = cmd.spawn().unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    let out = child.wait_with_output().unwrap();
    Session {
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: String::from_utf8(out.stderr).unwrap(),
        code: out.status.code(),
    }
}

pub(crate) fn track(args: &[&str], input: &str) -> Session {
    track_in(None, args, input.as_bytes())
}

/// Asserts that every one of `lines` is a whole line of `text`, in this order.
pub(crate) fn assert_lines_in_order(text: &str, lines: &[&str]) {
    let mut rest = text.lines();
    for want in lines {
        assert!(
            rest.any(|l| l == *want),
            "missing (or out of order): {want:?}\n--- output ---\n{text}"
        );
    }
}

/// The cells of the table row starting with `id` (cells are apart by two
/// spaces or more).
fn row(table: &str, id: &str) -> Vec<String> {
    let line = table
        .lines()
        .find(|l| l.starts_with(&format!("{id} ")))
        .unwrap_or_else(|| panic!("no row {id} in\n{table}"));
    line.split("  ")
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .map(str::to_string)
        .collect()
}

/// A fresh folder under the system's temporary folder, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("skirmish-track-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The Continuous example of the Relativity article, as
/// `crates/skirmish-core/tests/cases/timing.toml` plays its timing, with
/// Full Contact strikes, to the last goblinoid down. Every pending-actions
/// table of the text is a `sheet:` line here.
#[test]
fn continuous_goblin_ambush_follows_the_text() {
    let s = track(&[], include_str!("track/continuous.txt"));
    assert_eq!(s.code, Some(0), "{}", s.stderr);
    assert_eq!(s.stderr, "", "no command of the script is refused");
    assert_lines_in_order(
        &s.stdout,
        &[
            "skirmish track — goblin-ambush: continuous timing, full-contact striking, fudge_wounds damage; seed 1",
            "the battle begins; initiative: Roland 5, Madoc 4, Cardiff 8, Orc #1 3, Orc #2 4, Goblin #1 9, Goblin #2 9, \
             Shaman 6",
            "  sheet: 3: Orc #1 | 4: Madoc, Orc #2 | 5: Roland | 6: Shaman | 8: Cardiff | 9: Goblin #1, Goblin #2",
            "tick 3: Orc #1 acts",
            // The Full Contact text's goblin: SR 5 + 2 = Cardiff's DR 7, a tie: the defender's.
            "Orc #1 strikes Cardiff: 7 vs 7, miss",
            "  attack 7: strike rating 5, roll +2",
            "  defense 7: defense rating 3, armor +4",
            "  result: miss, margin +0, damage 0",
            "Orc #1 declares stab Cardiff landing at tick 10",
            "  sheet: 4: Madoc, Orc #2 | 5: Roland | 6: Shaman | 8: Cardiff | 9: Goblin #1, Goblin #2 | 10: Orc #1",
            "tick 4: Madoc, Orc #2 act",
            "Madoc strikes Shaman: 6 vs 4, hit by 2, damage 4: Hurt (Hurt 1)",
            "  Shaman: Hurt, penalty -1 (action disrupted)",
            "Shaman's Unholy Grasp is disrupted",
            "Orc #2 strikes Madoc: 8 vs 7, hit by 1, damage 3: Hurt (Hurt 1)",
            "Madoc declares hidden dagger landing at tick 10",
            "Orc #2 declares stab Madoc landing at tick 7",
            "Shaman declares Word of Darkness: Blind landing at tick 7",
            "  sheet: 5: Roland | 7: Orc #2, Shaman | 8: Cardiff | 9: Goblin #1, Goblin #2 | 10: Orc #1, Madoc",
            "tick 5: Roland acts",
            "Roland strikes Goblin #2: 11 vs 6, hit by 5, damage 7: Incapacitated (Incapacitated 1)",
            "Goblin #2 is down",
            "Roland declares shoot Orc #2 landing at tick 6",
            "  sheet: 6: Roland | 7: Orc #2, Shaman | 8: Cardiff | 9: Goblin #1 | 10: Orc #1, Madoc",
            "tick 6: Roland acts",
            "Orc #2 is down",
            "Roland declares shoot the Shaman landing at tick 8",
            "  sheet: 7: Shaman | 8: Cardiff, Roland | 9: Goblin #1 | 10: Orc #1, Madoc",
            "tick 7: Shaman acts",
            // A change of mind counts from tick 7: the shot pending at 8 is gone.
            "Roland changes to draw short sword landing at tick 11",
            "Shaman declares Disrupt Dweomer landing at tick 10",
            "  sheet: 8: Cardiff | 9: Goblin #1 | 10: Orc #1, Madoc, Shaman | 11: Roland",
            "effect Roland blinded begins",
            "  sheet: 8: Cardiff | 9: Goblin #1 | 10: Orc #1, Madoc, Shaman | 11: Roland | 37: [Roland blinded runs out]",
            // Who is likely to win from here: the simulator fights the rest.
            "odds from here: the rest of the fight fought 200 times (seed 1)",
            "tick 8: Cardiff acts",
            // Full Contact: "[Cardiff's SR of 9] + [Strike Roll of -1] > [Goblin's DR of 6]".
            "Cardiff strikes Goblin #1: 8 vs 6, hit by 2, damage 8: Incapacitated (Incapacitated 1)",
            "  attack 8: strike rating 9, roll -1",
            "  defense 6: defense rating 4, armor +2",
            "  result: hit, margin +2, damage 8",
            "  Goblin #1: Incapacitated, penalty -2 (down)",
            "Goblin #1 is down",
            "Cardiff declares cleave Orc #1 landing at tick 15",
            "tick 10: Orc #1, Madoc, Shaman act",
            // Madoc is Hurt: -1 on his rolls.
            "Madoc strikes Orc #1: 6 vs 5, hit by 1, damage 2: Scratch (Scratch 1)",
            "  attack 6: strike rating 6, Hurt -1, roll +1",
            "tick 15: Cardiff, Roland, Shaman act",
            "Cardiff strikes Orc #1: 10 vs 5, hit by 5, damage 9: Near Death (Scratch 1, Near Death 1)",
            "Orc #1 is down",
            "Roland strikes Shaman: 7 vs 3, hit by 4, damage 5: Very Hurt (Hurt 1, Very Hurt 1)",
            "  attack 7: strike rating 7, GM modifier -2, roll +2",
            "  defense 3: defense rating 3, armor +1, Hurt -1",
            // The shaman's spell lands in the same tick: it was cast before the blow.
            "Shaman strikes Cardiff: 3 vs 7, miss",
            "tick 17: Madoc, Shaman act",
            "Madoc strikes Shaman: 6 vs 2, hit by 4, damage 6: Incapacitated (Hurt 1, Very Hurt 1, Incapacitated 1)",
            "Shaman is down",
            "only party is left standing",
            // Down in this tick, the shaman still casts in it (simultaneity).
            "Shaman strikes Roland: 4 vs 5, miss",
            "GM's view — continuous timing, tick 17",
        ],
    );
    // The GM's view at the end: every goblinoid down, Madoc Hurt.
    let view = s.stdout.split("GM's view").last().unwrap();
    for want in [
        ["#1", "Madoc", "party", "standing", "Hurt", "H1"],
        ["#5", "Goblin #1", "goblinoids", "down", "Incapacitated", "I1"],
        ["#7", "Shaman", "goblinoids", "down", "Incapacitated", "H1 VH1 I1"],
    ] {
        assert_eq!(row(view, want[0])[..6], want);
    }
}

/// The same ambush under the Tick System: the counter counts down from the
/// highest initiative; Cardiff acts on 20 for 2 ticks, is done on 18 and,
/// with an Interval of 6, has his next turn on 12 ("The Tick System";
/// docs/rules.md §1.5).
#[test]
fn tick_system_goblin_ambush() {
    let s = track(
        &[
            "--set",
            "timing=tick-system",
            "--set",
            "sides.party.groups.Cardiff.interval=6",
        ],
        include_str!("track/tick-system.txt"),
    );
    assert_eq!(s.code, Some(0), "{}", s.stderr);
    assert_eq!(s.stderr, "");
    assert_lines_in_order(
        &s.stdout,
        &[
            "skirmish track — goblin-ambush: tick-system timing, full-contact striking, fudge_wounds damage; seed 1",
            "round 1 begins, 20 ticks long; initiative: Roland 17, Madoc 15, Cardiff 20, Orc #1 14, Orc #2 12, Goblin #1 \
             20, Goblin #2 9, Shaman 11",
            "  sheet: 20: Cardiff (turn), Goblin #1 (turn) | 17: Roland (turn) | 15: Madoc (turn) | 14: Orc #1 (turn) | \
             12: Orc #2 (turn) | 11: Shaman (turn) | 9: Goblin #2 (turn)",
            "round 1 tick 20: Cardiff (turn begins), Goblin #1 (turn begins) act",
            "Cardiff declares swing at Goblin #1 landing at round 1 tick 18",
            // Done on 18; next turn on 20 - (2 + 6) = 12.
            "  sheet: 18: Cardiff | 17: Roland (turn) | 15: Madoc (turn) | 14: Orc #1 (turn) | 12: Orc #2 (turn), \
             Cardiff (turn) | 11: Shaman (turn) | 9: Goblin #2 (turn)",
            "Goblin #1 declares pike Cardiff landing at round 1 tick 18",
            "round 1 tick 18: Cardiff, Goblin #1 act",
            "Cardiff strikes Goblin #1: 8 vs 6, hit by 2, damage 8: Incapacitated (Incapacitated 1)",
            "Goblin #1 is down",
            "Goblin #1 strikes Cardiff: 7 vs 7, miss",
            "round 1 tick 17: Roland (turn begins) acts",
            // Acquire: 2 more ticks for the first shot at a new target.
            "Roland declares shoot the Shaman landing at round 1 tick 13",
            "round 1 tick 13: Roland, Madoc act",
            "Roland strikes Shaman: 8 vs 4, hit by 4, damage 5: Very Hurt (Very Hurt 1)",
            "round 1 tick 10: Roland (turn begins), Orc #2, Cardiff act",
            // A free action that runs into the next turn pushes it to the tick it ends on.
            "Madoc defends (2 tick(s)), pushing the next turn",
            "  sheet: 9: Goblin #2 (turn), Orc #1 (turn), Shaman | 8: Madoc (turn) | 7: Orc #2 (turn) | 4: Cardiff \
             (turn), Shaman (turn)",
            "Cardiff strikes Orc #1: 9 vs 5, hit by 4, damage 8: Incapacitated (Scratch 1, Incapacitated 1)",
            "Roland declares shoot the Shaman landing at round 1 tick 8",
            "round 1 tick 8: Madoc (turn begins), Roland act",
            "Shaman is down",
            "Goblin #2 strikes Roland: 8 vs 5, hit by 3, damage 4: Hurt (Hurt 1)",
            "Goblin #2 is down",
            // Roland is Hurt, Orc #2 too: both totals carry the penalty.
            "Roland strikes Orc #2: 7 vs 4, hit by 3, damage 3: Very Hurt (Hurt 1, Very Hurt 1)",
            "  attack 7: strike rating 7, Hurt -1, roll +1",
            "  defense 4: defense rating 3, armor +2, Hurt -1",
            "round 1 tick 0: Madoc, Orc #2 act",
            "Orc #2 is down",
            "only party is left standing",
            "Orc #2 strikes Madoc: 6 vs 7, miss",
        ],
    );
}

const OPENING: &str = "\
init Roland roll -1
init Madoc roll 1
init Cardiff roll -4
init Shaman total 6
init \"Orc #1\" total 3
init \"Orc #2\" total 4
init \"Goblin #1\" total 9
init \"Goblin #2\" total 9
next
next
";

#[test]
fn undo_and_redo_go_back_and_forth_exactly() {
    // A strike with the encounter's dice, undone, struck again: the same
    // roll (undo restores the generator); redo brings back the same state.
    let s = track(
        &[],
        &format!(
            "{OPENING}strike \"Orc #1\" Cardiff\nundo\nstrike #3 #2\nundo\nredo\nlog 1\nundo 2\nredo 5\nnext\nredo\n"
        ),
    );
    assert_eq!(s.code, Some(0));
    let strikes: Vec<&str> = s
        .stdout
        .lines()
        .filter(|l| l.starts_with("Orc #1 strikes Cardiff"))
        .collect();
    assert_eq!(strikes.len(), 2, "{}", s.stdout);
    assert_eq!(strikes[0], strikes[1], "the same dice after undo");
    assert_lines_in_order(
        &s.stdout,
        &[
            "undone; now tick 3 (undo 10 more, redo 1)",
            "redone; now tick 3 (undo 11, redo 0 more)",
            "  sheet: 4: Madoc, Orc #2 | 5: Roland | 6: Shaman | 8: Cardiff | 9: Goblin #1, Goblin #2",
            // Two steps back: before the strike and before tick 3.
            "undone; now tick 0 (undo 9 more, redo 2)",
            "  sheet: 3: Orc #1 | 4: Madoc, Orc #2 | 5: Roland | 6: Shaman | 8: Cardiff | 9: Goblin #1, Goblin #2",
            "(only 2 step(s) could be redone)",
            "redone; now tick 3 (undo 11, redo 0 more)",
            // Orc #1 does the same again, its Ready Time rolled.
            "tick 4: Madoc, Orc #2, Orc #1 act",
        ],
    );
    // After a new step there is nothing to redo.
    assert!(
        s.stderr.contains("error [nothing_to_undo] nothing to redo"),
        "{}",
        s.stderr
    );
}

#[test]
fn save_and_load_continue_identically() {
    let dir = TempDir::new("save");
    // Everything after the save rolls with the encounter's dice: a restored
    // encounter must roll the same.
    let rest = "strike \"Orc #1\" Cardiff\nnext\nstrike Madoc Shaman\nstrike \"Orc #2\" Madoc\nnext 3\nview\n";
    let first = track_in(Some(&dir.0), &[], format!("{OPENING}save game.json\n{rest}").as_bytes());
    assert_eq!(first.code, Some(0), "{}", first.stderr);
    assert!(first.stdout.contains("saved to game.json (tick 3)"), "{}", first.stdout);
    let after_save = first.stdout.split("saved to game.json (tick 3)\n").nth(1).unwrap();
    // The file is whole JSON, and no temporary file is left beside it.
    let files: Vec<String> = std::fs::read_dir(&dir.0)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(files, ["game.json"]);
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.0.join("game.json")).unwrap()).unwrap();
    assert_eq!(json["format"], "skirmish-encounter");

    // `load` in a session started elsewhere, and `--load` at the start.
    let loaded = track_in(
        Some(&dir.0),
        &["--seed", "99"],
        format!("load game.json\n{rest}").as_bytes(),
    );
    assert_eq!(loaded.code, Some(0), "{}", loaded.stderr);
    assert!(
        loaded.stdout.contains("loaded game.json: tick 3\n"),
        "{}",
        loaded.stdout
    );
    assert!(
        loaded.stdout.ends_with(after_save),
        "{}\n---\n{after_save}",
        loaded.stdout
    );
    let resumed = track_in(Some(&dir.0), &["--load", "game.json"], rest.as_bytes());
    assert_eq!(resumed.code, Some(0), "{}", resumed.stderr);
    assert!(
        resumed.stdout.starts_with("resumed from game.json: tick 3\n"),
        "{}",
        resumed.stdout
    );
    assert!(
        resumed.stdout.ends_with(after_save),
        "{}\n---\n{after_save}",
        resumed.stdout
    );

    // A file that is not a snapshot, a missing file, a folder: messages.
    std::fs::write(dir.0.join("junk.json"), "{\"format\": \"other\"}").unwrap();
    std::fs::create_dir(dir.0.join("folder")).unwrap();
    let bad = track_in(
        Some(&dir.0),
        &[],
        b"load junk.json\nload missing.json\nsave folder\nsave ''\nload\nview\n",
    );
    assert_eq!(bad.code, Some(0));
    assert_lines_in_order(
        &bad.stderr,
        &["error [bad_snapshot] snapshot: format \"other\" is not \"skirmish-encounter\""],
    );
    assert!(bad.stderr.contains("error [io] FILE: missing.json: "), "{}", bad.stderr);
    assert!(
        bad.stderr.contains("error [io] FILE: folder is a folder"),
        "{}",
        bad.stderr
    );
    assert!(
        bad.stderr.contains("error [syntax] FILE: missing; usage: load FILE"),
        "{}",
        bad.stderr
    );
    assert!(bad.stdout.contains("GM's view"), "the session went on");
}

#[test]
fn bad_commands_are_messages_and_the_session_goes_on() {
    let s = track(
        &[],
        "undo\nnxt\nstrike Cardiff\nstrike Nobody Cardiff\nstrike #99 Cardiff\n\
         declare Cardiff swing tt -1\ninit Cardiff roll 5\nstrike Cardiff 'Goblin #1\nhold Cardiff\n\
         strike Cardiff Cardiff\nstrike Cardiff Roland roll x\nstrike Cardiff Roland roll 1 sideways\n\
         delay Cardiff -3\neffect add gas 0 ticks\n\
         next\nodds 0\nodds 50\nodds Cardiff \"goblin #1\"\nview\ndown #3\ndown #4\ndown #5\ndown #6\ndown #7\nodds\n",
    );
    assert_eq!(s.code, Some(0));
    assert_lines_in_order(
        &s.stderr,
        &[
            "error [nothing_to_undo] nothing to undo",
            "error [syntax] command: unknown command \"nxt\"; did you mean \"next\", \"exit\" or \"init\"?; type `help` \
             for the list",
            "error [syntax] TARGET: missing; usage: strike WHO TARGET [roll N] [defense N] [parry [N]] [range SHORT \
             STRENGTH DISTANCE]",
        ],
    );
    for want in [
        "error [not_found] combatant: unknown combatant \"Nobody\"",
        "error [not_found] combatant: no combatant #99 (there are 8: #0 to #7)",
        "error [invalid_input] declaration.time_taken: ",
        "error [invalid_input] initiative.roll: 5 is outside -4..=4",
        "error [syntax] line: a quote is not closed",
        "error [not_now] hold: holding to the end of the block is an Action Blocks rule",
        "error [invalid_input] target: a combatant cannot take itself as its target",
        "error [syntax] roll: \"x\" is not a whole number in range",
        "error [syntax] option: \"sideways\" is not an option of strike",
        "error [syntax] ticks: \"-3\" is not a whole number in range",
        "error [invalid_input] ",
        "error [invalid_input] battles: 0 is outside 1..=10000000",
    ] {
        assert!(s.stderr.contains(want), "missing {want:?} in\n{}", s.stderr);
    }
    // Each refusal changed nothing, and the session went on.
    assert_lines_in_order(
        &s.stdout,
        &[
            "odds from here: the rest of the fight fought 50 times (seed 1)",
            "Cardiff (SR 9) against Goblin #1 (DR 6): hit 76/81 (93.83%), hits on a Strike roll of -2 or better",
            "GM's view — continuous timing, tick 0",
            "Shaman is down",
            "only party is left standing",
            // A decided fight's odds are its outcome, not an error.
            "odds from here: the fight is decided: party wins (100%), nothing left to fight",
            "party         100%",
            "goblinoids      0%",
        ],
    );
    assert_eq!(s.stderr.lines().count(), 15, "{}", s.stderr);

    // --strict: the first refusal ends the session with status 2.
    let s = track(&["--strict"], "view\nstrike Nobody Cardiff\nview\n");
    assert_eq!(s.code, Some(2));
    assert_eq!(s.stdout.matches("GM's view").count(), 1);
    assert!(s.stderr.contains("error: [not_found] combatant"), "{}", s.stderr);
}

#[test]
fn end_of_input_ends_the_session_cleanly() {
    // Nothing at all.
    let s = track(&[], "");
    assert_eq!(s.code, Some(0));
    assert!(s.stdout.starts_with("skirmish track — goblin-ambush"), "{}", s.stdout);
    assert_eq!(s.stderr, "");
    // A last line without its newline still runs; blank lines and comments
    // do nothing; bytes that are not UTF-8 are a refused command, not a crash.
    let s = track_in(
        None,
        &[],
        b"\n   \n# a comment\nsheet # and one here\n\xff\xfe next\nview",
    );
    assert_eq!(s.code, Some(0));
    assert!(
        s.stdout.contains("tick sheet — continuous timing, tick 0"),
        "{}",
        s.stdout
    );
    assert!(s.stdout.contains("GM's view"), "{}", s.stdout);
    assert!(
        s.stderr.contains("error [syntax] command: unknown command"),
        "{}",
        s.stderr
    );
    // `quit` ends it before the rest of the input.
    let s = track(&[], "quit\nview\n");
    assert_eq!(s.code, Some(0));
    assert!(!s.stdout.contains("GM's view"));
    // --echo: a transcript, refusals in place.
    let s = track(&["--echo"], "view\nnxt\n");
    assert_lines_in_order(&s.stdout, &["> view", "GM's view — continuous timing, tick 0", "> nxt"]);
    assert!(s.stdout.contains("error [syntax] command"), "{}", s.stdout);
    assert_eq!(s.stderr, "");
}

#[test]
fn players_view_and_help() {
    let s = track(
        &[],
        &format!(
            "{OPENING}strike \"Orc #2\" Madoc roll 3\nhide Shaman\nplayers\nreveal Shaman\nparty none\nplayers\nhelp strike\nhelp\n"
        ),
    );
    assert_eq!(s.code, Some(0), "{}", s.stderr);
    let views: Vec<&str> = s.stdout.split("players' view — ").skip(1).collect();
    assert_eq!(views.len(), 2, "{}", s.stdout);
    // The party in full, the foes as they look; the hidden shaman left out.
    assert!(!views[0].lines().any(|l| l.starts_with("#7 ")), "{}", views[0]);
    assert!(!views[0].lines().nth(1).unwrap().contains("6: Shaman"), "{}", views[0]);
    // id, name, side, status, wound, boxes, penalty
    assert_eq!(
        row(views[0], "#1"),
        ["#1", "Madoc", "party", "standing", "Hurt", "H1", "-1"]
    );
    assert_eq!(
        row(views[0], "#3"),
        ["#3", "Orc #1", "goblinoids", "standing", "-", "-", "?"]
    );
    // No party: Madoc is a foe too, his wound boxes and penalty unknown.
    assert!(views[1].lines().nth(1).unwrap().contains("6: Shaman"), "{}", views[1]);
    assert_eq!(
        row(views[1], "#1"),
        ["#1", "Madoc", "party", "standing", "Hurt", "?", "?"]
    );
    assert!(s.stdout.contains("  strike WHO TARGET [roll N]"), "{}", s.stdout);
    assert!(s.stdout.contains("  undo [N] | redo [N]"), "{}", s.stdout);
    let help = std::process::Command::new(env!("CARGO_BIN_EXE_skirmish"))
        .args(["track", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8(help.stdout).unwrap();
    assert!(help.contains("declare WHO LABEL [OPTIONS]"), "{help}");
    assert!(help.contains("--seed"), "{help}");
}

#[test]
fn other_timing_systems_and_damage_models() {
    // Action Blocks: Roland and Cardiff act twice this phase (block 2 then
    // 1); Roland holds his declaration to the end of block 2's sequence.
    let s = track(
        &["--set", "timing=action-blocks"],
        "init Roland total 2\ninit Cardiff total 2\ninit Madoc total 1\ninit \"Orc #1\" total 1\n\
         init \"Orc #2\" total 1\ninit \"Goblin #1\" total 1\ninit \"Goblin #2\" total 1\ninit Shaman total 1\n\
         next\nnext\nhold Roland\n",
    );
    assert_eq!(s.stderr, "");
    assert_lines_in_order(
        &s.stdout,
        &[
            "phase 1 block 2: Roland, Cardiff act",
            "the block's order now: Cardiff, Roland",
            "Roland holds to the end of the block",
        ],
    );
    // The Tick System: a non-combat action interrupted, concentration lost.
    let s = track(
        &["--set", "timing=tick-system"],
        "init Madoc total 20\nnext\nnext\ndeclare Madoc ritual tt 0 noncombat ticks 6\ninterrupt Madoc lost\n",
    );
    assert_eq!(s.stderr, "");
    assert_lines_in_order(
        &s.stdout,
        &[
            "Madoc declares ritual landing at round 1 tick 14",
            "Madoc is interrupted and loses the action",
        ],
    );
    // Hit points: the view shows them instead of the wound track.
    let s = track(
        &["--set", "damage=hit-points"],
        &format!("{OPENING}strike Madoc \"Orc #1\" roll 4\nview\n"),
    );
    assert_eq!(s.stderr, "");
    assert!(
        s.stdout
            .contains("Madoc strikes Orc #1: 10 vs 5, hit by 5, damage 6: 4 hp"),
        "{}",
        s.stdout
    );
    let view = s.stdout.split("GM's view").last().unwrap();
    // id, name, side, status, hp, penalty, SR, DR
    assert_eq!(
        row(view, "#3"),
        ["#3", "Orc #1", "goblinoids", "standing", "4", "0", "5", "5"]
    );
}

/// FUDGE 4.31's tactics at the table: `tactics` changes a fighter's stance,
/// shield, aim and position (what is not given stays), the strike's
/// breakdown shows them, undo takes them back, and a bad word is a message.
/// FUDGE 4.34's Tucker and the three pirates at the table: Cardiff made
/// Superb (Tucker), Orc #1 Fair (Molly), the Shaman made Good (Annie),
/// Goblin #1 Mediocre (Maggie); the GM's one 2dF of +1. A Fair result is hit
/// by Molly and Annie; a Great one is unhit and may strike only Maggie.
#[test]
fn one_against_many_the_texts_pirates() {
    let s = track(
        &[
            "--set",
            "striking=fudge-opposed",
            "--set",
            "sides.party.groups.2.skill=Superb",
            "--set",
            "sides.goblinoids.groups.4.skill=Good",
        ],
        "many Cardiff \"Orc #1\" Shaman \"Goblin #1\" group 1 roll -1\nundo\n\
         many Cardiff \"Orc #1\" Shaman \"Goblin #1\" group 1 roll 1 hit Shaman\n\
         many Cardiff \"Orc #1\" Shaman \"Goblin #1\" group 1 roll 1\nmany Cardiff\n",
    );
    assert_lines_in_order(
        &s.stdout,
        &[
            "Cardiff fights 3 at once: 0 against Orc #1 1, Shaman 2, Goblin #1 0; Orc #1 hits Cardiff by 1, damage -1: \
             unhurt; Shaman hits Cardiff by 2, damage 0: unhurt; Cardiff beaten by a foe, he lands no blow",
            "  Cardiff 0: skill 3, extra foes -2, roll -1 (the group rolls +1)",
            "  Shaman 2: skill 1, group roll +1 (spared by -2, hits for 0)",
            "Cardiff fights 3 at once: 2 against Orc #1 1, Shaman 2, Goblin #1 0; Cardiff ties the best and strikes \
             Goblin #1 by 2, damage 6: Very Hurt (Very Hurt 1)",
            "  Goblin #1 0: skill -1, group roll +1 (may be wounded by +2, struck for 6)",
        ],
    );
    assert_lines_in_order(
        &s.stderr,
        &[
            "error [invalid_input] options.strike: Shaman may not be wounded this round: the lone fighter must beat or \
             tie every foe, and tying the best he may wound only a foe two levels below him",
            "error [syntax] FOE: missing; usage: many WHO FOE... [roll N] [group [N]] [rolls N...] [ignore FOE] [hit FOE] \
             [mod N]",
        ],
    );
}

/// FUDGE 4.4 and 4.21 at the table with the text's rolls: Roland made
/// Mediocre (Will Scarlet) and Orc #1 (Fair, Dicken) shoot at each other at
/// once, needing Mediocre and Good: Will hits by 0, Dicken misses; Cardiff
/// made Good (Gunner) rolls a story element at +2, Good, Superb, Great: the
/// median is Great.
#[test]
fn shots_and_story_elements_the_texts_rolls() {
    let s = track(
        &[
            "--set",
            "striking=fudge-opposed",
            "--set",
            "sides.party.groups.0.skill=Mediocre",
            "--set",
            "sides.party.groups.2.skill=Good",
        ],
        "fire Roland \"Orc #1\" dl -1 vs-dl 1 roll 0 vs 0\nstory Cardiff mod 2 median rolls -2 0 -1\n\
         shoot Roland Shaman propelled 4\nstory Cardiff mod 4\n",
    );
    assert_lines_in_order(
        &s.stdout,
        &[
            "Roland shoots at Orc #1: -1 vs -1, hit by 0, damage -2: unhurt",
            "Orc #1 shoots at Roland: 0 vs 1, miss",
            "Cardiff rolls a story element at Superb: Good, Superb, Great; the median is Great",
        ],
    );
    assert_lines_in_order(
        &s.stderr,
        &[
            "error [invalid_input] options.missile.dodge_penalty: 4 is outside 2..=3",
            "error [invalid_input] modifier: 4 is outside -3..=3 (FUDGE 4.21's GM modifier)",
        ],
    );
}

#[test]
fn tactics_change_mid_fight() {
    let s = track(
        &["--set", "striking=fudge-opposed"],
        "tactics Madoc stance all_out_offense shield large untrained\ntactics Madoc aim small_part_needing_good\n\
         strike Madoc \"Orc #1\" roll 1 defense 0\nundo\nundo\ntactics Madoc stance berserk\ntactics Madoc shield\n",
    );
    assert_lines_in_order(
        &s.stdout,
        &[
            "Madoc: stance all_out_offense, shield large (untrained), aim anywhere, position even, posture +0",
            "Madoc: stance all_out_offense, shield large (untrained), aim small_part_needing_good, position even, posture +0",
            "Madoc strikes Orc #1: 0 vs 0, Orc #1 wins the tie against an all-out attack, damage 4 to Madoc: Hurt (Hurt 1)",
            "  attack 0: skill 1, all-out offense +1, own large shield -2, aiming -1, roll +1",
        ],
    );
    assert_lines_in_order(
        &s.stderr,
        &[
            "error [syntax] stance: \"berserk\": say one of normal, all_out_offense, all_out_defense",
            "error [syntax] shield: missing; usage: tactics WHO [stance S] [shield SIZE|none [untrained] [wall]] [aim A] [position P] [posture N]",
        ],
    );
    // FUDGE 4.32: postures typed for one exchange, or set as tactics.
    let s = track(
        &["--set", "striking=fudge-opposed"],
        "strike Madoc \"Orc #1\" roll 0 defense -1 posture 1\ntactics Madoc posture -2\n\
         strike Madoc \"Orc #1\" roll 0 defense 0 vs-posture 2\ntactics Madoc posture 5\n",
    );
    assert_lines_in_order(
        &s.stdout,
        &[
            "  attack 2: skill 1, roll +0, posture +1",
            "Madoc: stance normal, shield none, aim anywhere, position even, posture -2",
            "  attack -1: skill 1, roll +0, posture -2",
            "  defense -2: skill 0, roll +0, posture -2",
        ],
    );
    assert_eq!(s.stderr, "error [invalid_input] posture: 5 is outside -2..=2\n");
    // Under Full Contact there are no tactics to change.
    let s = track(&[], "tactics Madoc stance all_out_offense\n");
    assert!(
        s.stderr
            .contains("error [invalid_input] tactics: stance, shield, aim and position are FUDGE 4.31 rules"),
        "{}",
        s.stderr
    );
}

/// The Tick System's policies at the table, from the scenario's groups
/// (docs/rules.md §1.5): a prepared goblin's defense gets +4 from the
/// tracker itself and its first defense is free; a ranged strike at a new
/// target Acquires it (2 more ticks: Roland's turn on 5 moves to 3).
#[test]
fn tick_system_prepare_and_acquire_at_the_table() {
    let script = "\
init Cardiff total 20
init \"Goblin #1\" total 19
init Roland total 5
init Madoc total 4
init \"Orc #1\" total 2
init \"Orc #2\" total 2
init Shaman total 1
init \"Goblin #2\" total 1
next
next
next
next
strike Cardiff \"Goblin #1\" roll -1
strike Roland Shaman range 10 5 5 roll 0
sheet
";
    let s = track(
        &[
            "--set",
            "timing=tick-system",
            "--set",
            "sides.goblinoids.groups.2.prepare=true",
            "--set",
            "sides.goblinoids.groups.2.defend=\"free_action\"",
        ],
        script,
    );
    assert_eq!(s.code, Some(0), "{}", s.stderr);
    assert_eq!(s.stderr, "");
    assert_lines_in_order(
        &s.stdout,
        &[
            "round 1 tick 19: Goblin #1 (turn begins) acts",
            "round 1 tick 18: Cardiff acts",
            // SR 9 - 1 = 8 would hit DR 6; prepared, the goblin's DR is 10.
            "Cardiff strikes Goblin #1: 8 vs 10, miss",
            "Goblin #1 defends (0 tick(s))",
            "Roland acquires Shaman (+2 tick(s))",
        ],
    );
    // The sheet: Roland's turn on 3, no longer on 5.
    let sheet = &s.stdout[s.stdout.rfind("tick sheet").unwrap()..];
    assert!(
        sheet.contains("   3  Roland (turn) ") && !sheet.contains("   5  Roland"),
        "{sheet}"
    );
}

/// Full Contact's amazing defense at the table (docs/rules.md §2.1.8): the
/// goblin (SR 5) strikes Cardiff (DR 7) with a -1 instead of the text's
/// +2: 4 against 7, an amazing defense. Disarmed, the goblin cannot parry
/// and loses its next action (tick 9); knocked down, it defends at DR 6 -
/// 2 = 4 until then.
#[test]
fn an_amazing_defense_disarms_or_knocks_down_at_the_table() {
    let rules = |effect: &str| {
        vec![
            "--set".to_string(),
            "striking.amazing=true".to_string(),
            "--set".to_string(),
            format!("striking.amazing_defense=\"{effect}\""),
        ]
    };
    let args = rules("disarm");
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let s = track(
        &args,
        &format!(
            "{OPENING}strike \"Goblin #1\" Cardiff roll -1\nstrike Cardiff \"Goblin #1\" roll -1 parry 4\n\
             next\nnext\nnext\nnext\nnext\nnext\nstrike \"Goblin #1\" Cardiff roll 2\n"
        ),
    );
    assert_lines_in_order(
        &s.stdout,
        &[
            "Goblin #1 strikes Cardiff: 4 vs 7, amazing defense; Goblin #1 is disarmed (its next action is lost)",
            "tick 9: Goblin #1, Goblin #2, Orc #1, Orc #2, Roland, Madoc act",
            "Goblin #1 recovers its weapon: the action is lost",
        ],
    );
    assert_lines_in_order(
        &s.stderr,
        &[
            "error [not_now] options.parry: Goblin #1 is disarmed: it cannot parry until its next action",
            "error [not_now] attacker: Goblin #1 spends this action recovering its weapon (disarmed by an amazing \
             defense)",
        ],
    );
    let args = rules("knock_down");
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let s = track(
        &args,
        &format!("{OPENING}strike \"Goblin #1\" Cardiff roll -1\nstrike Cardiff \"Goblin #1\" roll -3\n"),
    );
    assert_eq!(s.stderr, "");
    assert_lines_in_order(
        &s.stdout,
        &[
            "Goblin #1 strikes Cardiff: 4 vs 7, amazing defense; Goblin #1 is knocked down (DR -2 until its next \
             action)",
            "Cardiff strikes Goblin #1: 6 vs 4, hit by 2, damage 8: Incapacitated (Incapacitated 1)",
            "  defense 4: defense rating 4, armor +2, knocked down -2",
        ],
    );
}

/// `odds` mid-duel under Simultaneous Combat, after a hit: exact, in the
/// fractions `skirmish exact` gives for the duel that starts with that
/// damage; `odds sample` and a moment within a Simple Rounds round are
/// sampled, saying why.
#[test]
fn odds_from_here_are_exact_fractions_when_the_exact_engine_models_the_fight() {
    let duel = "name = \"duel\"
timing = \"simultaneous\"
damage = { model = \"hit_points\", max_hp = 5 }
[[sides]]
name = \"A\"
groups = [{ name = \"a\", strike_rating = 5, defense_rating = 5 }]
[[sides]]
name = \"B\"
groups = [{ name = \"b\", strike_rating = 5, defense_rating = 5 }]
";
    let dir = std::env::temp_dir().join(format!("skirmish-cli-exact-odds-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("duel.toml");
    std::fs::write(&path, duel).unwrap();
    let file = path.to_string_lossy().into_owned();
    // a hits b for 3 of its 5 hit points, b misses.
    let script = "next\nnext\nstrike a b roll 3\nstrike b a roll -2\nodds\nodds sample 200\n";
    let s = track(&[&file], script);
    assert_eq!((s.code, s.stderr.as_str()), (Some(0), ""), "{}", s.stdout);
    // The duel from that damage, solved by `skirmish exact`.
    let out = Command::new(env!("CARGO_BIN_EXE_skirmish"))
        .args([
            "exact",
            &file,
            "--set",
            "sides.B.groups.b.hit_points=2",
            "--format",
            "csv",
        ])
        .output()
        .unwrap();
    let csv = String::from_utf8(out.stdout).unwrap();
    let fraction = |outcome: &str| -> String {
        let row = csv.lines().find(|l| l.starts_with(outcome)).unwrap();
        row.rsplit(',').next().unwrap().to_owned()
    };
    let (a, b, draw) = (fraction("A wins"), fraction("B wins"), fraction("draw"));
    assert!(a.contains('/') && b.contains('/'), "{csv}");
    let a_line = s.stdout.lines().find(|l| l.starts_with("A ")).unwrap();
    let b_line = s.stdout.lines().find(|l| l.starts_with("B ")).unwrap();
    assert!(a_line.ends_with(&format!("({a})")), "{a_line} vs {a}\n{}", s.stdout);
    assert!(b_line.ends_with(&format!("({b})")), "{b_line} vs {b}\n{}", s.stdout);
    starting_in_order(
        &s.stdout,
        &[
            "odds from here: exact, the rest of the fight solved as a chain of ",
            "draw ",
            "odds from here: the rest of the fight fought 200 times (seed ",
            "sampled, 200 battles, as asked",
        ],
    );
    let draw_line = s.stdout.lines().find(|l| l.starts_with("draw ")).unwrap();
    assert!(draw_line.contains(&format!("({draw})")), "{draw_line} vs {draw}");

    // Simple Rounds, the round's initiative rolled: sampled, and why.
    let s = track(&[&file, "--set", "timing=simple-rounds"], "next\nodds 100\n");
    assert_eq!((s.code, s.stderr.as_str()), (Some(0), ""), "{}", s.stdout);
    starting_in_order(
        &s.stdout,
        &[
            "odds from here: the rest of the fight fought 100 times (seed ",
            "sampled, 100 battles; not exact: scheduler: round 1 under way, 2 actions still to land",
        ],
    );
}

/// Lines starting with each of `prefixes`, in that order.
fn starting_in_order(text: &str, prefixes: &[&str]) {
    let mut rest = text.lines();
    for want in prefixes {
        assert!(
            rest.any(|l| l.starts_with(want)),
            "missing (or out of order): {want:?}\n--- output ---\n{text}"
        );
    }
}
