//! `skirmish track`: the live encounter tracker in the terminal, for a GM at
//! a laptop or a script. It reads one command a line (see
//! [`command::GRAMMAR`]) from the terminal or standard input, runs it on a
//! [`skirmish_core::tracker::Encounter`] started from a scenario, and
//! prints what happened. A refused command prints why (the tracker error's
//! kind and field) and the session goes on; the end of input ends it.
//!
//! At a terminal (standard input and output both) the lines are read
//! through a line editor ([`repl`]): history, editing, Tab completion and a
//! prompt with the tick and who acts. Otherwise plain lines are read, and
//! the output is the same whatever the editor does.

use std::io::{BufRead, IsTerminal as _};
use std::path::{Path, PathBuf};

use skirmish_core::timing::Declaration;
use skirmish_core::tracker::{
    CombatantId, DEFAULT_UNDO_LIMIT, Encounter, ErrorKind, TrackerError, Turn, ViewFor, WoundOverride,
};
use skirmish_sim::scenario::Scenario;

use crate::output::emit;
use crate::scenario_arg;

mod command;
mod complete;
mod repl;
mod show;

use command::{Command, DeclareOpts};

/// Arguments of `skirmish track`.
#[derive(Debug, clap::Args)]
#[command(after_long_help = command::GRAMMAR)]
pub(crate) struct Args {
    /// A scenario file (.toml or .json) or a built-in name (goblin-ambush,
    /// parity, shield-wall, horde). Default: the goblin ambush.
    scenario: Option<String>,
    /// Seed of the encounter's dice (every roll not typed in; a loaded
    /// snapshot keeps its own) and of the fights `odds` simulates.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Set a scenario field first, as PATH=VALUE (repeatable), e.g.
    /// `--set timing=tick-system`.
    #[arg(long = "set", value_name = "PATH=VALUE")]
    set: Vec<String>,
    /// Start from a saved snapshot instead of a scenario.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["scenario", "set"])]
    load: Option<String>,
    /// Print each command (after `> `) before its output: a transcript of a
    /// script.
    #[arg(long)]
    echo: bool,
    /// Stop at the first refused command, with exit status 2 (for scripts).
    #[arg(long)]
    strict: bool,
    /// At a terminal: keep the command history in FILE (default: the file
    /// $SKIRMISH_HISTORY names, else skirmish/track_history in the user's
    /// data folder, $XDG_DATA_HOME or ~/.local/share on Linux).
    #[arg(long, value_name = "FILE", conflicts_with = "no_history")]
    history: Option<PathBuf>,
    /// At a terminal: keep no history (nor does an empty $SKIRMISH_HISTORY).
    #[arg(long)]
    no_history: bool,
}

/// Why a command was refused: a tracker error's kind (`not_found`,
/// `not_now`, `nothing_to_undo`, `invalid_input`, `bad_snapshot`), or
/// `syntax` for a command this session cannot read, `io` for a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CmdError {
    kind: &'static str,
    field: Option<String>,
    message: String,
}

impl CmdError {
    /// A command that cannot be read.
    pub(crate) fn syntax(field: &str, message: impl Into<String>) -> CmdError {
        CmdError {
            kind: "syntax",
            field: Some(field.to_string()),
            message: message.into(),
        }
    }

    /// A file that cannot be read or written.
    fn io(field: &str, message: impl Into<String>) -> CmdError {
        CmdError {
            kind: "io",
            field: Some(field.to_string()),
            message: message.into(),
        }
    }

    /// A rules error (an input the rules refuse).
    pub(crate) fn from_core(e: skirmish_core::Error) -> CmdError {
        CmdError::from(TrackerError::from(e))
    }

    /// The same error about `field` (if it named none).
    pub(crate) fn in_field(mut self, field: &str) -> CmdError {
        if self.field.is_none() || self.kind == "syntax" {
            self.field = Some(field.to_string());
        }
        self
    }
}

impl From<TrackerError> for CmdError {
    fn from(e: TrackerError) -> CmdError {
        CmdError {
            kind: e.kind().name(),
            field: e.field().map(str::to_string),
            message: e.message().to_string(),
        }
    }
}

impl std::fmt::Display for CmdError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.field {
            Some(field) => write!(f, "[{}] {field}: {}", self.kind, self.message),
            None => write!(f, "[{}] {}", self.kind, self.message),
        }
    }
}

impl std::error::Error for CmdError {}

/// What a command asks of the session loop.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Flow {
    /// Go on.
    Continue,
    /// End the session.
    Quit,
}

/// A tracking session: the encounter and what it was started from.
pub(crate) struct Session {
    encounter: Encounter,
    seed: u64,
}

impl Session {
    /// An encounter with every group of every side of `scenario` (a group
    /// of several is one line on the sheet). Setting up is not undoable.
    pub(crate) fn from_scenario(scenario: &Scenario, seed: u64) -> Result<Session, CmdError> {
        let mut e = skirmish_sim::odds::encounter_from_scenario(scenario, seed).map_err(sim_error)?;
        // Setting up is not a step to undo: no history from it.
        e.set_undo_limit(0)?;
        if let Some(first) = scenario.sides.first() {
            e.set_party(Some(&first.name))?;
        }
        e.set_undo_limit(DEFAULT_UNDO_LIMIT)?;
        Ok(Session { encounter: e, seed })
    }

    /// The encounter.
    pub(crate) fn encounter(&self) -> &Encounter {
        &self.encounter
    }

    /// Runs one line; `out` gets what it prints. A refused command changes
    /// nothing.
    pub(crate) fn run_line(&mut self, line: &str, out: &mut String) -> Result<Flow, CmdError> {
        let Some(cmd) = command::parse(command::split(line)?)? else {
            return Ok(Flow::Continue);
        };
        self.run(cmd, out)
    }

    fn who(&self, word: &str) -> Result<CombatantId, CmdError> {
        if let Some(digits) = word.strip_prefix('#')
            && !digits.is_empty()
            && digits.chars().all(|c| c.is_ascii_digit())
        {
            let n = self.encounter.combatants().len();
            return digits
                .parse::<u32>()
                .ok()
                .filter(|&id| (id as usize) < n)
                .map(CombatantId)
                .ok_or_else(|| {
                    CmdError::from(TrackerError::not_found(
                        "combatant",
                        format!("no combatant {word} (there are {n}: #0 to #{})", n.saturating_sub(1)),
                    ))
                });
        }
        Ok(self.encounter.find(word)?)
    }

    fn run(&mut self, cmd: Command, out: &mut String) -> Result<Flow, CmdError> {
        let standing = show::sides_standing(&self.encounter);
        let flow = self.command(cmd, out)?;
        let now_standing = show::sides_standing(&self.encounter);
        if now_standing.len() == 1 && standing.len() > 1 {
            *out += &format!("only {} is left standing\n", now_standing.join(", "));
        }
        Ok(flow)
    }

    fn command(&mut self, cmd: Command, out: &mut String) -> Result<Flow, CmdError> {
        let before = self.encounter.log_len();
        // Commands that print the new log entries and the sheet after them.
        let mut timing = true;
        match cmd {
            Command::Quit => return Ok(Flow::Quit),
            Command::Help(topic) => {
                match topic {
                    None => *out += command::GRAMMAR,
                    Some(t) => match command::help_for(&t) {
                        Some(h) => *out += &h,
                        None => return Err(CmdError::syntax("command", format!("no command {t:?}; type `help`"))),
                    },
                }
                return Ok(Flow::Continue);
            }
            Command::Next(n) => {
                for _ in 0..n {
                    let from = self.encounter.log_len();
                    let turn = self.encounter.next()?;
                    show::turn(&self.encounter, from, &turn, out);
                    if turn == Turn::Over {
                        break;
                    }
                }
                show::sheet_line(&self.encounter, out);
                return Ok(Flow::Continue);
            }
            Command::Init(who, entry) => {
                let id = self.who(&who)?;
                self.encounter.set_initiative(id, entry)?;
            }
            Command::Declare { who, label, opts } => {
                let id = self.who(&who)?;
                let current = self.encounter.declaration(id)?.declaration;
                let d = declaration(current, &opts);
                self.encounter.declare(id, &label, d, opts.roll)?;
            }
            Command::Strike {
                attacker,
                target,
                options,
                dice,
            } => {
                let a = self.who(&attacker)?;
                let t = self.who(&target)?;
                let report = self.encounter.strike(a, t, options, dice)?;
                show::strike(&self.encounter, before, &report, out);
                return Ok(Flow::Continue);
            }
            Command::Many {
                lone,
                foes,
                ignore,
                hit,
                mut options,
                dice,
            } => {
                let id = self.who(&lone)?;
                let named = |names: &[String]| names.iter().map(|n| self.who(n)).collect::<Result<Vec<_>, _>>();
                let foes = named(&foes)?;
                options.ignore = named(&ignore)?;
                options.strike = named(&hit)?;
                let report = self.encounter.lone_fighter(id, &foes, &options, &dice)?;
                show::lone_fighter(&self.encounter, before, &report, out);
                return Ok(Flow::Continue);
            }
            Command::Shoot {
                shooter,
                target,
                options,
                dice,
            } => {
                let (a, t) = (self.who(&shooter)?, self.who(&target)?);
                self.encounter.shoot(a, t, options, dice)?;
                timing = false;
            }
            Command::Fire {
                first,
                second,
                difficulties,
                dice,
            } => {
                let (a, b) = (self.who(&first)?, self.who(&second)?);
                self.encounter.exchange_fire(a, b, difficulties, dice)?;
                timing = false;
            }
            Command::Story {
                who,
                modifier,
                median,
                rolls,
            } => {
                let id = self.who(&who)?;
                self.encounter.story_element(id, modifier, median, &rolls)?;
                timing = false;
            }
            Command::Scout { who, foe, roll } => {
                let (a, b) = (self.who(&who)?, self.who(&foe)?);
                self.encounter.scout(a, b, roll)?;
                timing = false;
            }
            Command::Tactics(who, opts) => {
                let id = self.who(&who)?;
                let tactics = opts.apply(self.encounter.tactics(id)?)?;
                self.encounter.set_tactics(id, tactics)?;
                timing = false;
            }
            Command::Cancel(who) => {
                let id = self.who(&who)?;
                if !self.encounter.cancel(id)? {
                    *out += &format!("{who}: nothing was pending\n");
                }
            }
            Command::Down(who) => {
                let id = self.who(&who)?;
                self.encounter.down(id)?;
            }
            Command::Remove(who) => {
                let id = self.who(&who)?;
                self.encounter.remove(id)?;
            }
            Command::Heal(who) => {
                let id = self.who(&who)?;
                self.encounter.set_damage(id, WoundOverride::Heal)?;
                timing = false;
            }
            Command::Disrupt(who) => {
                let id = self.who(&who)?;
                if !self.encounter.disrupt(id)? {
                    *out += &format!("{who}: no disruptible action was pending\n");
                }
            }
            Command::Hold(who) => {
                let id = self.who(&who)?;
                let order = self.encounter.hold(id)?;
                *out += &format!("the block's order now: {}\n", order.join(", "));
            }
            Command::Turn(who) => {
                let id = self.who(&who)?;
                self.encounter.take_held_turn(id)?;
            }
            Command::Delay(who, ticks) => {
                let id = self.who(&who)?;
                self.encounter.delay(id, ticks)?;
            }
            Command::FreeAction { who, ticks, defending } => {
                let id = self.who(&who)?;
                self.encounter.free_action(id, ticks, defending)?;
            }
            Command::Interrupt(who, kept) => {
                let id = self.who(&who)?;
                self.encounter.interrupt(id, kept)?;
            }
            Command::EffectAdd { name, duration, target } => {
                let target = target.map(|t| self.who(&t)).transpose()?;
                let id = self.encounter.add_effect(&name, target, duration)?;
                *out += &format!("effect #{} added\n", id.0);
            }
            Command::EffectEnd(id) => {
                if !self.encounter.end_effect(skirmish_core::tracker::EffectId(id))? {
                    *out += &format!("effect #{id} had already run out\n");
                }
            }
            Command::Effects => {
                show::effects(&self.encounter, out);
                return Ok(Flow::Continue);
            }
            Command::Hide(who) => {
                let id = self.who(&who)?;
                self.encounter.hide(id)?;
                timing = false;
            }
            Command::Reveal(who) => {
                let id = self.who(&who)?;
                self.encounter.reveal(id)?;
                timing = false;
            }
            Command::Party(side) => {
                self.encounter.set_party(side.as_deref())?;
                timing = false;
            }
            Command::Undo(n) => {
                for i in 0..n {
                    if let Err(e) = self.encounter.undo() {
                        if i == 0 {
                            return Err(e.into());
                        }
                        *out += &format!("(only {i} step(s) could be undone)\n");
                        break;
                    }
                }
                *out += &format!(
                    "undone; now {} (undo {} more, redo {})\n",
                    show::now(&self.encounter),
                    self.encounter.undo_depth(),
                    self.encounter.redo_depth()
                );
                show::sheet_line(&self.encounter, out);
                return Ok(Flow::Continue);
            }
            Command::Redo(n) => {
                for i in 0..n {
                    if let Err(e) = self.encounter.redo() {
                        if i == 0 {
                            return Err(e.into());
                        }
                        *out += &format!("(only {i} step(s) could be redone)\n");
                        break;
                    }
                }
                *out += &format!(
                    "redone; now {} (undo {}, redo {} more)\n",
                    show::now(&self.encounter),
                    self.encounter.undo_depth(),
                    self.encounter.redo_depth()
                );
                show::sheet_line(&self.encounter, out);
                return Ok(Flow::Continue);
            }
            Command::Sheet => {
                show::sheet(&self.encounter, out);
                return Ok(Flow::Continue);
            }
            Command::View => {
                show::view(&self.encounter, ViewFor::Gm, out);
                return Ok(Flow::Continue);
            }
            Command::Players => {
                show::view(&self.encounter, ViewFor::Players, out);
                return Ok(Flow::Continue);
            }
            Command::Log(n) => {
                let log = self.encounter.log();
                for entry in &log[log.len().saturating_sub(n)..] {
                    *out += &format!("{entry}\n");
                }
                return Ok(Flow::Continue);
            }
            Command::OddsFromHere(battles, sample) => {
                let exact = skirmish_sim::exact::ExactOptions::default();
                let odds = skirmish_sim::odds::odds_from_here_with(
                    &self.encounter,
                    battles,
                    self.seed,
                    (!sample).then_some(&exact),
                )
                .map_err(sim_error)?;
                show::odds_from_here(&odds, self.seed, out);
                return Ok(Flow::Continue);
            }
            Command::Odds(a, t) => {
                let a = self.who(&a)?;
                let t = self.who(&t)?;
                show::strike_odds(&self.encounter, a, t, out)?;
                return Ok(Flow::Continue);
            }
            Command::Save(file) => {
                let json = self.encounter.snapshot()?;
                write_atomically(Path::new(&file), &json)?;
                *out += &format!("saved to {file} ({})\n", show::now(&self.encounter));
                return Ok(Flow::Continue);
            }
            Command::Load(file) => {
                self.encounter = load_snapshot(Path::new(&file))?;
                *out += &format!("loaded {file}: {}\n", show::now(&self.encounter));
                show::sheet_line(&self.encounter, out);
                return Ok(Flow::Continue);
            }
        }
        for entry in self.encounter.log_since(before) {
            *out += &entry.text;
            out.push('\n');
        }
        if timing {
            show::sheet_line(&self.encounter, out);
        }
        Ok(Flow::Continue)
    }
}

/// A simulator's refusal: the tracker's own kind where it is one.
fn sim_error(e: skirmish_sim::error::SimError) -> CmdError {
    match e {
        skirmish_sim::error::SimError::Tracker(t) => t.into(),
        other => CmdError {
            kind: ErrorKind::InvalidInput.name(),
            field: None,
            message: other.to_string(),
        },
    }
}

/// The declaration `opts` ask for: with `tt`, a new action (what is not
/// given takes its default); without, `current` with what is given changed.
/// A GM timing and extra preparation count for this declaration only.
fn declaration(current: Declaration, opts: &DeclareOpts) -> Declaration {
    let mut d = match opts.time_taken {
        Some(tt) => Declaration::new(tt, 0),
        None => Declaration {
            gm: None,
            extra_preparation: 0,
            ..current
        },
    };
    if let Some(v) = opts.speed_bonus {
        d.speed_bonus = v;
    }
    if let Some(v) = opts.rate_of_fire {
        d.rate_of_fire = v;
    }
    if let Some(v) = opts.extra_attacks {
        d.extra_attacks = v;
    }
    if let Some(v) = opts.extra_preparation {
        d.extra_preparation = v;
    }
    if let Some(v) = opts.action_ticks {
        d.action_ticks = Some(v);
    }
    if let Some(v) = opts.gm {
        d.gm = Some(v);
    }
    if let Some(v) = opts.disruptible {
        d.disruptible = v;
    }
    if let Some(v) = opts.kind {
        d.kind = v;
    }
    d
}

/// Writes `text` to `path` through a temporary file in the same folder,
/// renamed over it: a reader never sees half a snapshot, and a failed write
/// leaves the old file as it was.
///
/// Only a regular file is replaced: a folder, a device or a pipe at `path`
/// is refused (renaming over `/dev/null` would replace the device). A
/// symbolic link to a file has its target replaced.
fn write_atomically(path: &Path, text: &str) -> Result<(), CmdError> {
    let shown = path.display();
    let resolved;
    let path = match std::fs::metadata(path) {
        Ok(m) if m.is_dir() => return Err(CmdError::io("FILE", format!("{shown} is a folder"))),
        Ok(m) if !m.is_file() => {
            return Err(CmdError::io("FILE", format!("{shown} is not a regular file")));
        }
        Ok(_) => {
            resolved = std::fs::canonicalize(path).map_err(|e| CmdError::io("FILE", format!("{shown}: {e}")))?;
            resolved.as_path()
        }
        Err(_) => path,
    };
    let name = path
        .file_name()
        .ok_or_else(|| CmdError::io("FILE", format!("{shown}: not a file name")))?;
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let mut tmp_name = std::ffi::OsString::from(".");
    tmp_name.push(name);
    tmp_name.push(format!(".{}.tmp", std::process::id()));
    let tmp = folder.join(tmp_name);
    let result = std::fs::write(&tmp, text).and_then(|()| std::fs::rename(&tmp, path));
    if let Err(e) = result {
        let _ = std::fs::remove_file(&tmp);
        return Err(CmdError::io("FILE", format!("{shown}: {e}")));
    }
    Ok(())
}

/// The largest snapshot `load` reads: far above any real encounter's.
const SNAPSHOT_LIMIT: u64 = 256 << 20;

/// Reads a snapshot file: a regular file of at most [`SNAPSHOT_LIMIT`]
/// bytes (not a device or a pipe that never ends).
fn load_snapshot(path: &Path) -> Result<Encounter, CmdError> {
    use std::io::Read as _;
    let shown = path.display();
    let io = |e: std::io::Error| CmdError::io("FILE", format!("{shown}: {e}"));
    let meta = std::fs::metadata(path).map_err(io)?;
    if !meta.is_file() {
        return Err(CmdError::io("FILE", format!("{shown} is not a regular file")));
    }
    if meta.len() > SNAPSHOT_LIMIT {
        return Err(CmdError::io(
            "FILE",
            format!(
                "{shown} is {} bytes, more than a snapshot's {SNAPSHOT_LIMIT}",
                meta.len()
            ),
        ));
    }
    let mut json = String::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(SNAPSHOT_LIMIT).read_to_string(&mut json))
        .map_err(io)?;
    Ok(Encounter::restore(&json)?)
}

fn scenario(args: &Args) -> Result<Scenario, Box<dyn std::error::Error>> {
    let mut scenario = scenario_arg::load(args.scenario.as_deref())?;
    for s in &args.set {
        let (path, value) = s
            .split_once('=')
            .ok_or_else(|| format!("--set {s:?}: expected PATH=VALUE"))?;
        scenario = scenario.with_field(path.trim(), value.trim())?;
    }
    Ok(scenario)
}

pub(crate) fn run(args: &Args) -> Result<(), Box<dyn std::error::Error>> {
    let mut session = match &args.load {
        Some(file) => Session {
            encounter: load_snapshot(Path::new(file))?,
            seed: args.seed,
        },
        None => {
            let scenario = scenario(args)?;
            let session = Session::from_scenario(&scenario, args.seed)?;
            emit(&show::header(&scenario, &session, args.seed))?;
            session
        }
    };
    if args.load.is_some() {
        let mut out = format!(
            "resumed from {}: {}\n",
            args.load.as_deref().unwrap_or_default(),
            show::now(session.encounter())
        );
        show::sheet_line(session.encounter(), &mut out);
        emit(&out)?;
    }
    let stdin = std::io::stdin();
    let interactive = stdin.is_terminal();
    if interactive && std::io::stdout().is_terminal() {
        return repl::run(&mut session, args);
    }
    let mut input = stdin.lock();
    let mut raw = Vec::new();
    loop {
        if interactive {
            emit("> ")?;
        }
        raw.clear();
        if input.read_until(b'\n', &mut raw)? == 0 {
            if interactive {
                emit("\n")?;
            }
            return Ok(());
        }
        let line = String::from_utf8_lossy(&raw);
        let line = line.trim_end_matches(['\n', '\r']);
        if step(&mut session, line, args, interactive)? == Flow::Quit {
            return Ok(());
        }
    }
}

/// Runs one line read, printing what it printed: a refusal with the output
/// when `interactive` (or with --echo), else on standard error. An error
/// only for --strict's refusal or output that cannot be written.
fn step(session: &mut Session, line: &str, args: &Args, interactive: bool) -> Result<Flow, Box<dyn std::error::Error>> {
    if args.echo {
        emit(&format!("> {line}\n"))?;
    }
    let mut out = String::new();
    let result = session.run_line(line, &mut out);
    emit(&out)?;
    match result {
        Ok(flow) => Ok(flow),
        Err(e) if args.strict => Err(Box::new(e)),
        Err(e) => {
            // Errors go with the output, in order, so a transcript reads
            // as it happened; and to standard error for a script.
            if interactive || args.echo {
                emit(&format!("error {e}\n"))?;
            } else {
                eprintln!("error {e}");
            }
            Ok(Flow::Continue)
        }
    }
}
