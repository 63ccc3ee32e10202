//! `skirmish track` at a terminal, typed into through a pseudo-terminal as
//! a GM types: Up recalls the last command, Tab completes a combatant's
//! name, the history outlives the session, and a history file that cannot
//! be read is a warning. Every session keeps its history (and its home and
//! data folders) in a temporary folder.

use std::path::{Path, PathBuf};
use std::process::Command;

use rexpect::reader::Options;
use rexpect::session::{PtySession, spawn_with_options};

/// Longest wait for an expected output: far above the few milliseconds a
/// line takes, so a slow machine does not fail the test.
const TIMEOUT_MS: u64 = 20_000;

/// A fresh folder under the system's temporary folder, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("skirmish-terminal-{name}-{}", std::process::id()));
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

/// `skirmish track ARGS` with home and data folders inside `dir` (nothing
/// reaches the real home) and no history variable of the caller's.
fn track_command(dir: &Path, args: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_skirmish"));
    cmd.arg("track")
        .args(args)
        .current_dir(dir)
        .env("HOME", dir.join("home"))
        .env("XDG_DATA_HOME", dir.join("data"))
        .env_remove("SKIRMISH_HISTORY")
        .env_remove("NO_COLOR");
    cmd
}

/// `skirmish track ARGS` on a pseudo-terminal, its prompt shown.
fn terminal(dir: &Path, args: &[&str]) -> PtySession {
    let mut cmd = track_command(dir, args);
    cmd.env("TERM", "xterm");
    let options = Options::new()
        .timeout_ms(Some(TIMEOUT_MS))
        .strip_ansi_escape_codes(true);
    let mut p = spawn_with_options(cmd, options).unwrap();
    // The prompt before the first `next`: the tick, and initiative next.
    p.exp_string("tick 0").unwrap();
    p.exp_string("next: initiative > ").unwrap();
    p
}

/// Types `keys` (Enter is "\r", Up "\x1b[A", Tab "\t").
fn keys(p: &mut PtySession, keys: &str) {
    p.send(keys).unwrap();
    p.flush().unwrap();
}

/// Ends the session with Ctrl-D on an empty line, and waits for its end.
/// The Ctrl-D waits for the next prompt: sent while the last command's
/// output is still being written, the terminal is not yet back in the
/// line editor's hands and the key can be lost.
fn end(mut p: PtySession) {
    p.exp_regex(r"next[^\r\n]* > ").unwrap();
    p.send_control('d').unwrap();
    p.exp_eof().unwrap();
}

/// The issue's case: Up and Enter runs the last command again; Tab
/// completes a combatant's name, quoted when it has a space, and the
/// command runs with it.
#[test]
fn up_recalls_the_last_command_and_tab_completes_a_name() {
    let dir = TempDir::new("keys");
    let history = dir.0.join("history");
    let mut p = terminal(&dir.0, &["--history", history.to_str().unwrap()]);

    keys(&mut p, "next\r");
    p.exp_string("the battle begins").unwrap();
    // The prompt now names the next moment and who acts in it.
    p.exp_regex(r"tick 0 \S+ next \d+: [A-Z][^\r\n]* > ").unwrap();
    // Up brings `next` back; Enter runs it: the first moment comes.
    keys(&mut p, "\x1b[A");
    p.exp_string("next").unwrap();
    keys(&mut p, "\r");
    p.exp_regex(r"tick \d+: [^\r\n]+ acts?\r\n").unwrap();

    // Tab completes the attacker's name; two goblins share "Gob", so Tab
    // gives their common part (quote and all), a second Tab lists them,
    // and the goblin's number and a Tab finish the word.
    keys(&mut p, "strike Card\t");
    p.exp_string("strike Cardiff ").unwrap();
    keys(&mut p, "gob\t");
    p.exp_string("\"Goblin #").unwrap();
    keys(&mut p, "\t");
    p.exp_string("Goblin #1  Goblin #2").unwrap();
    keys(&mut p, "2\t");
    p.exp_string("strike Cardiff \"Goblin #2\" ").unwrap();
    keys(&mut p, "\r");
    p.exp_string("Cardiff strikes Goblin #2: ").unwrap();
    end(p);

    // What was run is in the history file, as typed after completion.
    let kept = std::fs::read_to_string(&history).unwrap();
    let lines: Vec<&str> = kept.lines().collect();
    assert!(lines.ends_with(&["next", "strike Cardiff \"Goblin #2\""]), "{kept:?}");
}

/// The history outlives the session: the next one recalls the last
/// command of the one before. With no --history it lives in the data
/// folder (here the temporary XDG_DATA_HOME); a script keeps none.
#[test]
fn history_is_kept_across_sessions_in_the_data_folder() {
    let dir = TempDir::new("across");
    let mut p = terminal(&dir.0, &[]);
    keys(&mut p, "sheet\r");
    p.exp_string("tick sheet").unwrap();
    end(p);
    let file = dir.0.join("data").join("skirmish").join("track_history");
    assert!(std::fs::read_to_string(&file).unwrap().lines().any(|l| l == "sheet"));
    assert!(!dir.0.join("home").exists(), "nothing is written to the home folder");

    let mut p = terminal(&dir.0, &[]);
    keys(&mut p, "\x1b[A\r");
    p.exp_string("tick sheet").unwrap();
    end(p);

    // --no-history: nothing is read (Up recalls nothing) or written.
    std::fs::remove_file(&file).unwrap();
    let mut p = terminal(&dir.0, &["--no-history"]);
    keys(&mut p, "view\r");
    p.exp_string("GM's view").unwrap();
    end(p);
    assert!(!file.exists());

    // A script reads plain lines and keeps no history.
    let out = track_command(&dir.0, &[])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(!file.exists());
}

/// A history file that cannot be read is a warning; the session goes on
/// (and keeps no history).
#[test]
fn an_unreadable_history_is_a_warning() {
    let dir = TempDir::new("unreadable");
    let folder = dir.0.join("a-folder");
    std::fs::create_dir_all(&folder).unwrap();
    let mut cmd = track_command(&dir.0, &["--history", folder.to_str().unwrap()]);
    cmd.env("TERM", "xterm");
    let options = Options::new()
        .timeout_ms(Some(TIMEOUT_MS))
        .strip_ansi_escape_codes(true);
    let mut p = spawn_with_options(cmd, options).unwrap();
    p.exp_string("warning: history").unwrap();
    p.exp_string("the session goes on").unwrap();
    p.exp_string("next: initiative > ").unwrap();
    keys(&mut p, "sheet\r");
    p.exp_string("tick sheet").unwrap();
    end(p);
    assert!(folder.is_dir());
}
