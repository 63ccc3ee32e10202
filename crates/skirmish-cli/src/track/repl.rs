//! `skirmish track` at a terminal: the same commands, read through a line
//! editor (rustyline) that gives the GM history (Up and Down, Ctrl-R, kept
//! across sessions in a file), line editing, Tab completion of commands,
//! combatant names and the words a command takes ([`complete`]), and a
//! prompt with the tick and who acts next ([`show::prompt`]).
//!
//! Used only when standard input and output are both terminals: a script,
//! a pipe or a transcript (`skirmish track | tee`) reads plain lines as
//! before.

use std::path::{Path, PathBuf};

use rustyline::completion::Pair;
use rustyline::config::{CompletionType, Config};
use rustyline::error::ReadlineError;
use rustyline::highlight::Highlighter;
use rustyline::hint::Hinter;
use rustyline::history::FileHistory;
use rustyline::validate::Validator;
use rustyline::{Context, Editor, Helper};

use super::complete::{self, Live};
use super::{Args, Flow, Session, show};

/// The variable naming the history file (empty: no history).
pub(crate) const HISTORY_VAR: &str = "SKIRMISH_HISTORY";

/// Lines the history keeps (the oldest go first).
const HISTORY_SIZE: usize = 1000;

/// The line editor's helper: completion from the grammar and the session's
/// names; no hints, colours or multi-line input.
struct TrackHelper(complete::Completer);

impl rustyline::completion::Completer for TrackHelper {
    type Candidate = Pair;

    fn complete(&self, line: &str, pos: usize, _ctx: &Context<'_>) -> rustyline::Result<(usize, Vec<Pair>)> {
        Ok(self.0.complete(line, pos))
    }
}

impl Hinter for TrackHelper {
    type Hint = String;
}

impl Highlighter for TrackHelper {}

impl Validator for TrackHelper {}

impl Helper for TrackHelper {}

/// Where the history is kept: `--history FILE`, else the file
/// `$SKIRMISH_HISTORY` names, else `skirmish/track_history` in the user's
/// data folder (`$XDG_DATA_HOME`, or `~/.local/share`, on Linux). None with
/// `--no-history` or an empty `SKIRMISH_HISTORY`.
pub(crate) fn history_path(args: &Args) -> Option<PathBuf> {
    if args.no_history {
        return None;
    }
    if let Some(file) = &args.history {
        return Some(file.clone());
    }
    match std::env::var_os(HISTORY_VAR) {
        Some(v) if v.is_empty() => None,
        Some(v) => Some(PathBuf::from(v)),
        None => dirs::data_dir().map(|d| d.join("skirmish").join("track_history")),
    }
}

/// A history file that could not be read or written: said once, and the
/// session goes on without it.
fn warn(path: &Path, what: &str, e: &dyn std::fmt::Display) {
    eprintln!(
        "warning: history {}: cannot {what} it: {e} (the session goes on; --no-history turns it off)",
        path.display()
    );
}

/// The session at a terminal, until `quit` or Ctrl-D. Ctrl-C abandons the
/// line being typed.
pub(super) fn run(session: &mut Session, args: &Args) -> Result<(), Box<dyn std::error::Error>> {
    let config = Config::builder()
        .completion_type(CompletionType::List)
        .max_history_size(HISTORY_SIZE)?
        .history_ignore_dups(true)?
        // A line typed with a space first is not kept (as in a shell).
        .history_ignore_space(true)
        .build();
    let mut editor: Editor<TrackHelper, FileHistory> = Editor::with_config(config)?;
    editor.set_helper(Some(TrackHelper(complete::Completer::default())));
    let mut history = history_path(args);
    if let Some(path) = &history {
        match editor.load_history(path) {
            Ok(()) => {}
            Err(ReadlineError::Io(e)) if e.kind() == std::io::ErrorKind::NotFound => {
                // The first session: the folder is made for the first line.
                if let Some(folder) = path.parent().filter(|p| !p.as_os_str().is_empty())
                    && let Err(e) = std::fs::create_dir_all(folder)
                {
                    warn(path, "create the folder of", &e);
                    history = None;
                }
            }
            Err(e) => {
                warn(path, "read", &e);
                history = None;
            }
        }
    }
    loop {
        if let Some(helper) = editor.helper_mut() {
            helper.0.live = live(session);
        }
        let input = match editor.readline(&show::prompt(session.encounter())) {
            Ok(input) => input,
            Err(ReadlineError::Eof) => return Ok(()),
            Err(ReadlineError::Interrupted) => continue,
            Err(e) => return Err(Box::new(e)),
        };
        // A paste of several lines is several commands, as in a script.
        for line in input.lines() {
            if !line.trim().is_empty() {
                let _ = editor.add_history_entry(line.trim_end());
            }
            let flow = super::step(session, line, args, true);
            if let Some(path) = &history
                && let Err(e) = editor.append_history(path)
            {
                warn(path, "write", &e);
                history = None;
            }
            if flow? == Flow::Quit {
                return Ok(());
            }
        }
    }
}

/// The names completion offers now.
fn live(session: &Session) -> Live {
    let e = session.encounter();
    let combatants = e.combatants();
    let mut sides: Vec<String> = Vec::new();
    for side in combatants.iter().filter_map(|c| c.side.as_ref()) {
        if !sides.contains(side) {
            sides.push(side.clone());
        }
    }
    Live {
        combatants: combatants.into_iter().map(|c| c.name).collect(),
        sides,
    }
}
