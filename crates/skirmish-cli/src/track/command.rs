//! The command language of `skirmish track`: one command a line, split into
//! words like a shell does (quotes for multi-word names and labels), then
//! parsed into a [`Command`]. Parsing needs no encounter: names stay words
//! until the session resolves them.

use std::str::FromStr;

use skirmish_core::fighter::Tactics;
use skirmish_core::striking::full_contact::RangedShot;
use skirmish_core::striking::opposed::{Aim, Position, Posture, PostureChoice, Shield, ShieldSize, Stance};
use skirmish_core::tables::weapons::RateOfFire;
use skirmish_core::timing::{ActionKind, GmTiming, InitiativeEntry};
use skirmish_core::tracker::{
    Duration, EncounterStrikeOptions, LoneFighterDice, LoneFighterOptions, ShotOptions, StrikeDice,
};

use super::CmdError;

mod fudge;

/// The grammar, as `help` and `skirmish track --help` print it.
pub(crate) const GRAMMAR: &str = "\
Commands (one a line; words split as a shell does, so quote multi-word names
and labels: strike Cardiff \"Goblin #1\" roll -1). WHO is a combatant's name
(any case) or #ID (its number in `view`). N is a whole number (may be
negative where a die can be). A `#` that starts a word and is not followed by
a digit starts a comment to the end of the line. A refused command prints
`error [KIND] FIELD: why` (on standard error when the input is not a
terminal, unless --echo) and changes nothing; the session goes on.

Time
  next [N]                      what happens next (N steps; default 1)
  init WHO roll N | total N     initiative typed in: the die roll, or the total
  declare WHO LABEL [OPTIONS]   the next action; it lands when the rules say
      tt N          Time Taken: a new action (options not given take their
                    defaults); without tt, the current action with the
                    options given changed
      bonus N       speed bonus            rof N/K      rate of fire
      extra N       extra attacks a round  prep N       extra preparation ticks
      ticks N       Tick System action ticks
      roll N        the 2dF Ready Time roll (otherwise the encounter rolls)
      ready N       a GM-set Ready Time    at N         a GM-set landing tick
      disruptible | steady                 a spell a hit cancels, or not
      attack | ranged | acquire | prepare | noncombat   the kind of action
                    (acquire: a ranged attack at a new target)
  cancel WHO                    calls off the pending action
  delay WHO N                   moves the next action N ticks later
  disrupt WHO                   a hit before the spell landed: it is lost
  hold WHO                      Action Blocks: act at the end of the block
  turn WHO                      Tick System: take the held (Prepared) turn now
  defend WHO [N]                Tick System: defend, a free action of N ticks
  free WHO [N]                  Tick System: another free action of N ticks
  interrupt WHO kept | lost     Tick System: Resist Concentration Loss result

Blows
  strike WHO TARGET [roll N] [defense N] [parry [N]] [range SHORT STRENGTH DISTANCE]
                    [point-blank] [mod N] [posture N] [vs-posture N]
                    roll: the attacker's 4dF; defense: the defender's 4dF
                    (FUDGE opposed, or the parry roll); without them the
                    encounter rolls. mod: the GM's modifier to the attack.
                    posture, vs-posture: FUDGE 4.32, the attacker's and the
                    target's posture for this exchange (-2..2; otherwise
                    each fighter's own)
  many WHO FOE... [roll N] [group [N]] [rolls N...] [ignore FOE] [hit FOE] [mod N]
                    FUDGE 4.34, one against many: WHO rolls once against
                    each FOE (one to six); every foe who beats him wounds
                    him; he wounds one only if he beat or tied them all.
                    roll: his 4dF; group: the GM's one 2dF for every foe
                    (N typed, else rolled); rolls: each foe's 4dF in order;
                    ignore: a foe he lets try his armor; hit: the foe he
                    wounds (more with a sweeping blow; else the blow that
                    hurts most); mod: the GM's modifier to him
  shoot WHO TARGET [dl N] [unaware] [dodge N] [propelled 2|3] [roll N] [vs N]
                    FUDGE 4.4: a shot that must reach the Difficulty Level
                    (dl, default Fair, 0) and, unless the target is unaware,
                    beat its dodge (its combat skill, or dodge N; -2 or -3
                    against a propelled missile); roll, vs: the 4dF
  fire WHO TARGET [dl N] [vs-dl N] [roll N] [vs N]
                    FUDGE 4.4: the two shoot at each other instead of
                    dodging, at once; each needs only its Difficulty Level
  story WHO [mod N] [median] [rolls N...]
                    FUDGE 4.21, a story element: WHO rolls its combat skill
                    with the GM's modifier (-3..3), once or the median of
                    three (rolls: the table's 4dF, else rolled)
  scout WHO FOE [roll N]
                    FUDGE 4.31: WHO, in all-out defense, came out of an
                    exchange with FOE unhit and rolls its Perception or
                    Tactics (its profile's scouting) against Fair; on a
                    success FOE is at -1 in its exchanges of the next round
                    (its next moment without rounds). roll: the 4dF
  down WHO | remove WHO | heal WHO
  tactics WHO [stance S] [shield SIZE|none [untrained] [wall]] [aim A] [position P] [posture N]
                    FUDGE 4.31-4.32, from the fighter's next blow on (what
                    is not given stays): stance normal | all_out_offense |
                    all_out_defense; shield small | medium | large; aim
                    anywhere | small_part_needing_good |
                    small_part_needing_great; position even | worse |
                    much_worse; posture -2..2 (a mixed strategy: in the
                    scenario file)

Effects and players
  effect add NAME N ticks|rounds [on WHO]    an effect that runs out
  effect end ID                              ends it early
  effects                       effects still running
  hide WHO | reveal WHO         hidden from the players' view, or shown
  party SIDE | party none       the players' side (for `players`)

Showing
  sheet      the tick sheet      view    every combatant (GM)
  players    the players' view   log [N] the last N log entries (default 20)
  odds [BATTLES]                each side's chance of winning from here:
                    exact (fractions) when the exact engine models the fight
                    as it stands (Simultaneous between exchanges, Simple
                    Rounds between rounds, Full Contact or a FUDGE duel) and
                    it fits its budget; else the rest of the fight fought
                    BATTLES times (default 1000) by the simulator, with the
                    session's --seed, and the reason it is not exact
  odds sample [BATTLES]         the same, always sampled (bounded time)
  odds WHO TARGET               exact chance of this strike hitting now

Session
  undo [N] | redo [N]           any number of steps
  save FILE | load FILE         the encounter as a snapshot (JSON)
  help [COMMAND] | quit
";

/// A parsed command.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Command {
    /// `help [COMMAND]`.
    Help(Option<String>),
    /// `quit`.
    Quit,
    /// `next [N]`.
    Next(u32),
    /// `init WHO roll N | total N`.
    Init(String, InitiativeEntry),
    /// `declare WHO LABEL ...`.
    Declare {
        /// Who.
        who: String,
        /// The action's label.
        label: String,
        /// What was given.
        opts: DeclareOpts,
    },
    /// `strike WHO TARGET ...`.
    Strike {
        /// Who strikes.
        attacker: String,
        /// Whom.
        target: String,
        /// How.
        options: EncounterStrikeOptions,
        /// With which dice.
        dice: StrikeDice,
    },
    /// `tactics WHO ...`.
    Tactics(String, TacticsOpts),
    /// `shoot WHO TARGET ...`: FUDGE 4.4's shot.
    Shoot {
        /// Who shoots.
        shooter: String,
        /// At whom.
        target: String,
        /// How.
        options: ShotOptions,
        /// The shooter's and the dodger's 4dF.
        dice: (Option<i32>, Option<i32>),
    },
    /// `fire WHO TARGET ...`: FUDGE 4.4's exchange of fire.
    Fire {
        /// The first shooter.
        first: String,
        /// The second.
        second: String,
        /// The Difficulty Levels, the first's then the second's.
        difficulties: (i32, i32),
        /// Their 4dF.
        dice: (Option<i32>, Option<i32>),
    },
    /// `story WHO ...`: FUDGE 4.21's story element.
    Story {
        /// Who rolls.
        who: String,
        /// The GM's modifier.
        modifier: i32,
        /// The median of three.
        median: bool,
        /// The table's rolls.
        rolls: Vec<i32>,
    },
    /// `scout WHO FOE [roll N]`: FUDGE 4.31's scouting.
    Scout {
        /// The scout.
        who: String,
        /// The foe it scouts.
        foe: String,
        /// Its 4dF.
        roll: Option<i32>,
    },
    /// `many WHO FOE... ...`: FUDGE 4.34's lone fighter.
    Many {
        /// The lone fighter.
        lone: String,
        /// His foes.
        foes: Vec<String>,
        /// The foes he ignores, and those he strikes.
        ignore: Vec<String>,
        /// The foes he strikes.
        hit: Vec<String>,
        /// The group roll, the GM's modifier.
        options: LoneFighterOptions,
        /// With which dice.
        dice: LoneFighterDice,
    },
    /// `cancel WHO`.
    Cancel(String),
    /// `down WHO`.
    Down(String),
    /// `remove WHO`.
    Remove(String),
    /// `heal WHO`.
    Heal(String),
    /// `disrupt WHO`.
    Disrupt(String),
    /// `hold WHO`.
    Hold(String),
    /// `turn WHO`.
    Turn(String),
    /// `delay WHO N`.
    Delay(String, u32),
    /// `defend WHO [N]` / `free WHO [N]`.
    FreeAction {
        /// Who.
        who: String,
        /// Ticks, or the system's default.
        ticks: Option<u32>,
        /// Defending (cancels a non-combat action in progress).
        defending: bool,
    },
    /// `interrupt WHO kept|lost`.
    Interrupt(String, bool),
    /// `effect add NAME N ticks|rounds [on WHO]`.
    EffectAdd {
        /// Its name.
        name: String,
        /// How long.
        duration: Duration,
        /// On whom.
        target: Option<String>,
    },
    /// `effect end ID`.
    EffectEnd(u32),
    /// `effects`.
    Effects,
    /// `hide WHO`.
    Hide(String),
    /// `reveal WHO`.
    Reveal(String),
    /// `party SIDE | none`.
    Party(Option<String>),
    /// `undo [N]`.
    Undo(u32),
    /// `redo [N]`.
    Redo(u32),
    /// `sheet`.
    Sheet,
    /// `view`.
    View,
    /// `players`.
    Players,
    /// `log [N]`.
    Log(usize),
    /// `odds [sample] [BATTLES]`: battles, and whether sampling is forced.
    OddsFromHere(u64, bool),
    /// `odds WHO TARGET`.
    Odds(String, String),
    /// `save FILE`.
    Save(String),
    /// `load FILE`.
    Load(String),
}

/// The options of `tactics`, as typed: what changes.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct TacticsOpts {
    /// `stance S`.
    pub(crate) stance: Option<Stance>,
    /// `shield SIZE|none [untrained] [wall]`.
    pub(crate) shield: Option<Option<Shield>>,
    /// `aim A`.
    pub(crate) aim: Option<Aim>,
    /// `position P`.
    pub(crate) position: Option<Position>,
    /// `posture N`.
    pub(crate) posture: Option<i32>,
}

impl TacticsOpts {
    /// `current` with these changes.
    pub(crate) fn apply(&self, current: Tactics) -> Result<Tactics, CmdError> {
        let posture = match self.posture {
            Some(p) => PostureChoice::Fixed(Posture::new(p).map_err(|e| CmdError::from_core(e).in_field("posture"))?),
            None => current.posture,
        };
        Ok(Tactics {
            stance: self.stance.unwrap_or(current.stance),
            shield: self.shield.unwrap_or(current.shield),
            aim: self.aim.unwrap_or(current.aim),
            position: self.position.unwrap_or(current.position),
            posture,
        })
    }
}

/// A name of one of FUDGE 4.31's choices, as files spell it.
fn named<T: serde::de::DeserializeOwned>(word: &str, what: &str, names: &[&str]) -> Result<T, CmdError> {
    T::deserialize(serde::de::value::StrDeserializer::<serde::de::value::Error>::new(
        &word.to_lowercase(),
    ))
    .map_err(|_| CmdError::syntax(what, format!("{word:?}: say one of {}", names.join(", "))))
}

fn tactics_opts(w: &mut Words) -> Result<TacticsOpts, CmdError> {
    let mut o = TacticsOpts::default();
    while let Some(key) = w.next() {
        match key.to_lowercase().as_str() {
            "stance" => o.stance = Some(named(&w.need("stance")?, "stance", &Stance::NAMES)?),
            "shield" => {
                let size = w.need("shield")?;
                o.shield = Some(if size.eq_ignore_ascii_case("none") {
                    None
                } else {
                    let mut shield = Shield::new(named::<ShieldSize>(&size, "shield", &ShieldSize::NAMES)?);
                    while let Some(extra) = w.peek() {
                        match extra.to_lowercase().as_str() {
                            "untrained" => shield.trained = false,
                            "wall" => shield.in_shield_wall = true,
                            _ => break,
                        }
                        w.next();
                    }
                    Some(shield)
                });
            }
            "aim" => o.aim = Some(named(&w.need("aim")?, "aim", &Aim::NAMES)?),
            "position" => o.position = Some(named(&w.need("position")?, "position", &Position::NAMES)?),
            "posture" => o.posture = Some(w.need_int("posture")?),
            other => {
                return Err(CmdError::syntax(
                    "option",
                    format!(
                        "{other:?}: say stance, shield, aim or position; usage: {}",
                        usage("tactics")
                    ),
                ));
            }
        }
    }
    Ok(o)
}

/// The options of `declare`, as typed.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct DeclareOpts {
    /// `tt N`.
    pub(crate) time_taken: Option<i32>,
    /// `bonus N`.
    pub(crate) speed_bonus: Option<i32>,
    /// `rof N/K`.
    pub(crate) rate_of_fire: Option<RateOfFire>,
    /// `extra N`.
    pub(crate) extra_attacks: Option<u32>,
    /// `prep N`.
    pub(crate) extra_preparation: Option<i32>,
    /// `ticks N`.
    pub(crate) action_ticks: Option<u32>,
    /// `ready N` / `at N`.
    pub(crate) gm: Option<GmTiming>,
    /// `roll N`.
    pub(crate) roll: Option<i32>,
    /// `disruptible` / `steady`.
    pub(crate) disruptible: Option<bool>,
    /// `attack`, `ranged`, ...
    pub(crate) kind: Option<ActionKind>,
}

/// Every command word, for suggestions and Tab completion.
pub(crate) const VERBS: &[&str] = &[
    "help",
    "quit",
    "exit",
    "next",
    "init",
    "initiative",
    "declare",
    "strike",
    "cancel",
    "down",
    "remove",
    "heal",
    "tactics",
    "many",
    "story",
    "scout",
    "shoot",
    "fire",
    "disrupt",
    "hold",
    "turn",
    "delay",
    "defend",
    "free",
    "interrupt",
    "effect",
    "effects",
    "hide",
    "reveal",
    "party",
    "undo",
    "redo",
    "sheet",
    "view",
    "players",
    "log",
    "odds",
    "save",
    "load",
];

/// Splits a line into words as a shell does. A `#` that starts a word and
/// is followed by a digit is a combatant id (`#3`), not a comment.
/// Returns no words for a blank line or a comment.
pub(crate) fn split(line: &str) -> Result<Vec<String>, CmdError> {
    // Shell rules make `#` at a word's start a comment: escape the `#` of an
    // id first (`\#3`), and drop the escape wherever it survived (inside
    // quotes a shell keeps `\#` as it is).
    let mut protected = String::with_capacity(line.len() + 8);
    let mut prev: Option<char> = None;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '#' && prev.is_none_or(char::is_whitespace) && chars.peek().is_some_and(char::is_ascii_digit) {
            protected.push('\\');
        }
        protected.push(c);
        prev = Some(c);
    }
    let words = shlex::split(&protected)
        .ok_or_else(|| CmdError::syntax("line", "a quote is not closed (or the line ends with a backslash)"))?;
    Ok(words.into_iter().map(|w| w.replace("\\#", "#")).collect())
}

/// Reads the words of one command.
struct Words {
    verb: String,
    words: Vec<String>,
    at: usize,
}

impl Words {
    fn next(&mut self) -> Option<String> {
        let w = self.words.get(self.at).cloned();
        if w.is_some() {
            self.at += 1;
        }
        w
    }

    fn peek(&self) -> Option<&str> {
        self.words.get(self.at).map(String::as_str)
    }

    /// The next word, which must be there: `what` names it.
    fn need(&mut self, what: &str) -> Result<String, CmdError> {
        self.next()
            .ok_or_else(|| CmdError::syntax(what, format!("missing; usage: {}", usage(&self.verb))))
    }

    fn need_int<T: FromStr>(&mut self, what: &str) -> Result<T, CmdError> {
        let w = self.need(what)?;
        number(&w, what)
    }

    fn done(&self) -> Result<(), CmdError> {
        match self.words.get(self.at) {
            None => Ok(()),
            Some(extra) => Err(CmdError::syntax(
                "line",
                format!("unexpected {extra:?}; usage: {}", usage(&self.verb)),
            )),
        }
    }

    /// An optional count, 1 by default, within 1..=1000.
    fn count(&mut self) -> Result<u32, CmdError> {
        let n = match self.next() {
            Some(w) => number(&w, "count")?,
            None => 1,
        };
        if !(1..=1000).contains(&n) {
            return Err(CmdError::syntax("count", format!("{n} is outside 1..=1000")));
        }
        self.done()?;
        Ok(n)
    }

    /// One combatant argument and nothing else.
    fn only_who(&mut self) -> Result<String, CmdError> {
        let who = self.need("WHO")?;
        self.done()?;
        Ok(who)
    }
}

fn number<T: FromStr>(word: &str, what: &str) -> Result<T, CmdError> {
    word.parse()
        .map_err(|_| CmdError::syntax(what, format!("{word:?} is not a whole number in range")))
}

/// The line of [`GRAMMAR`] that documents `verb`, and its number.
fn grammar_line(verb: &str) -> Option<(usize, &'static str)> {
    GRAMMAR
        .lines()
        .enumerate()
        .find(|(_, l)| l.starts_with("  ") && !l.starts_with("   ") && l.split_whitespace().any(|w| w == verb))
}

/// The usage of a command (from [`GRAMMAR`]).
pub(crate) fn usage(verb: &str) -> String {
    let verb = canonical(verb);
    grammar_line(verb)
        .and_then(|(_, l)| {
            // The command column, then the alternative that is this verb.
            let command = l.trim().split("   ").next().unwrap_or_default();
            command
                .split(" | ")
                .find(|alt| alt.split_whitespace().next() == Some(verb))
                .map(str::to_string)
        })
        .unwrap_or_else(|| verb.to_string())
}

/// The help of one command: its lines of [`GRAMMAR`].
pub(crate) fn help_for(verb: &str) -> Option<String> {
    let verb = verb.to_lowercase();
    let (start, first) = grammar_line(canonical(&verb))?;
    let mut out = format!("{first}\n");
    // Continuation lines are indented deeper than a command's.
    for l in GRAMMAR.lines().skip(start + 1).take_while(|l| l.starts_with("   ")) {
        out += l;
        out.push('\n');
    }
    Some(out)
}

/// The command word `verb` stands for (`exit` is `quit`).
pub(crate) fn canonical(verb: &str) -> &str {
    match verb {
        "exit" => "quit",
        "initiative" => "init",
        other => other,
    }
}

/// Parses a line's words into a command. `Ok(None)`: nothing to do (a
/// blank line or a comment).
pub(crate) fn parse(words: Vec<String>) -> Result<Option<Command>, CmdError> {
    let mut it = words.into_iter();
    let Some(verb) = it.next() else {
        return Ok(None);
    };
    let verb = verb.to_lowercase();
    let mut w = Words {
        verb: verb.clone(),
        words: it.collect(),
        at: 0,
    };
    let cmd = match verb.as_str() {
        "help" | "?" => {
            let topic = w.next();
            w.done()?;
            Command::Help(topic)
        }
        "quit" | "exit" => {
            w.done()?;
            Command::Quit
        }
        "next" | "n" => Command::Next(w.count()?),
        "init" | "initiative" => {
            let who = w.need("WHO")?;
            let how = w.need("roll|total")?.to_lowercase();
            let entry = match how.as_str() {
                "roll" => InitiativeEntry::Roll(w.need_int("roll")?),
                "total" => InitiativeEntry::Total(w.need_int("total")?),
                other => {
                    return Err(CmdError::syntax(
                        "roll|total",
                        format!("{other:?}: say `roll N` or `total N`"),
                    ));
                }
            };
            w.done()?;
            Command::Init(who, entry)
        }
        "declare" => {
            let who = w.need("WHO")?;
            let label = w.need("LABEL")?;
            let opts = declare_opts(&mut w)?;
            Command::Declare { who, label, opts }
        }
        "strike" => {
            let attacker = w.need("WHO")?;
            let target = w.need("TARGET")?;
            let (options, dice) = strike_opts(&mut w)?;
            Command::Strike {
                attacker,
                target,
                options,
                dice,
            }
        }
        "tactics" => {
            let who = w.need("WHO")?;
            Command::Tactics(who, tactics_opts(&mut w)?)
        }
        "many" => fudge::many(&mut w)?,
        "shoot" | "fire" => fudge::shots(&mut w, &verb)?,
        "story" => fudge::story(&mut w)?,
        "scout" => fudge::scout(&mut w)?,
        "cancel" => Command::Cancel(w.only_who()?),
        "down" => Command::Down(w.only_who()?),
        "remove" => Command::Remove(w.only_who()?),
        "heal" => Command::Heal(w.only_who()?),
        "disrupt" => Command::Disrupt(w.only_who()?),
        "hold" => Command::Hold(w.only_who()?),
        "turn" => Command::Turn(w.only_who()?),
        "delay" => {
            let who = w.need("WHO")?;
            let ticks = w.need_int("ticks")?;
            w.done()?;
            Command::Delay(who, ticks)
        }
        "defend" | "free" => {
            let who = w.need("WHO")?;
            let ticks = match w.next() {
                Some(t) => Some(number(&t, "ticks")?),
                None => None,
            };
            w.done()?;
            Command::FreeAction {
                who,
                ticks,
                defending: verb == "defend",
            }
        }
        "interrupt" => {
            let who = w.need("WHO")?;
            let kept = match w.need("kept|lost")?.to_lowercase().as_str() {
                "kept" | "keep" | "resisted" => true,
                "lost" | "lose" | "failed" => false,
                other => {
                    return Err(CmdError::syntax(
                        "kept|lost",
                        format!("{other:?}: say `kept` or `lost` (the Resist Concentration Loss roll)"),
                    ));
                }
            };
            w.done()?;
            Command::Interrupt(who, kept)
        }
        "effect" => match w.need("add|end")?.to_lowercase().as_str() {
            "add" => {
                let name = w.need("NAME")?;
                let n: u64 = w.need_int("duration")?;
                let duration = match w.need("ticks|rounds")?.to_lowercase().as_str() {
                    "tick" | "ticks" | "second" | "seconds" => Duration::Ticks(n),
                    "round" | "rounds" => Duration::Rounds(
                        u32::try_from(n)
                            .map_err(|_| CmdError::syntax("duration", format!("{n} rounds is too many")))?,
                    ),
                    other => {
                        return Err(CmdError::syntax(
                            "ticks|rounds",
                            format!("{other:?}: say `ticks` or `rounds`"),
                        ));
                    }
                };
                let target = match w.next() {
                    Some(on) if on.eq_ignore_ascii_case("on") => Some(w.need("WHO")?),
                    Some(other) => {
                        return Err(CmdError::syntax(
                            "on",
                            format!("unexpected {other:?}; usage: {}", usage("effect")),
                        ));
                    }
                    None => None,
                };
                w.done()?;
                Command::EffectAdd { name, duration, target }
            }
            "end" => {
                let id = w.need("ID")?;
                let id = number(id.trim_start_matches('#'), "ID")?;
                w.done()?;
                Command::EffectEnd(id)
            }
            other => {
                return Err(CmdError::syntax(
                    "add|end",
                    format!("{other:?}: say `effect add ...` or `effect end ID`"),
                ));
            }
        },
        "effects" => {
            w.done()?;
            Command::Effects
        }
        "hide" => Command::Hide(w.only_who()?),
        "reveal" => Command::Reveal(w.only_who()?),
        "party" => {
            let side = w.need("SIDE")?;
            w.done()?;
            Command::Party((!side.eq_ignore_ascii_case("none")).then_some(side))
        }
        "undo" => Command::Undo(w.count()?),
        "redo" => Command::Redo(w.count()?),
        "sheet" => {
            w.done()?;
            Command::Sheet
        }
        "view" => {
            w.done()?;
            Command::View
        }
        "players" => {
            w.done()?;
            Command::Players
        }
        "log" => {
            let n = match w.next() {
                Some(t) => number(&t, "count")?,
                None => 20,
            };
            w.done()?;
            Command::Log(n)
        }
        "odds" => match (w.next(), w.next()) {
            (None, _) => Command::OddsFromHere(1000, false),
            (Some(s), n) if s == "sample" => {
                w.done()?;
                Command::OddsFromHere(n.map_or(Ok(1000), |n| number(&n, "BATTLES"))?, true)
            }
            (Some(n), None) => Command::OddsFromHere(number(&n, "BATTLES")?, false),
            (Some(a), Some(t)) => {
                w.done()?;
                Command::Odds(a, t)
            }
        },
        "save" => Command::Save(w.only_who().map_err(|e| e.in_field("FILE"))?),
        "load" => Command::Load(w.only_who().map_err(|e| e.in_field("FILE"))?),
        other => {
            let e = skirmish_core::Error::unknown_name("command", other, VERBS.iter().copied());
            return Err(CmdError::syntax("command", format!("{e}; type `help` for the list")));
        }
    };
    Ok(Some(cmd))
}

fn declare_opts(w: &mut Words) -> Result<DeclareOpts, CmdError> {
    let mut o = DeclareOpts::default();
    while let Some(word) = w.next() {
        match word.to_lowercase().as_str() {
            "tt" => o.time_taken = Some(w.need_int("tt")?),
            "bonus" => o.speed_bonus = Some(w.need_int("bonus")?),
            "rof" => {
                let r = w.need("rof")?;
                o.rate_of_fire =
                    Some(RateOfFire::from_str(&r).map_err(|e| CmdError::syntax("rof", format!("{r:?}: {e}")))?);
            }
            "extra" => o.extra_attacks = Some(w.need_int("extra")?),
            "prep" => o.extra_preparation = Some(w.need_int("prep")?),
            "ticks" => o.action_ticks = Some(w.need_int("ticks")?),
            "roll" => o.roll = Some(w.need_int("roll")?),
            "ready" => o.gm = Some(GmTiming::ReadyTime(w.need_int("ready")?)),
            "at" => o.gm = Some(GmTiming::LandingTick(w.need_int("at")?)),
            "disruptible" => o.disruptible = Some(true),
            "steady" => o.disruptible = Some(false),
            "attack" | "melee" => o.kind = Some(ActionKind::Attack),
            "ranged" => o.kind = Some(ActionKind::RangedAttack { new_target: false }),
            "acquire" => o.kind = Some(ActionKind::RangedAttack { new_target: true }),
            "prepare" => o.kind = Some(ActionKind::Prepare),
            "noncombat" | "non-combat" | "misc" => o.kind = Some(ActionKind::NonCombat),
            other => {
                return Err(CmdError::syntax(
                    "option",
                    format!(
                        "{other:?} is not an option of declare (tt, bonus, rof, extra, prep, ticks, roll, ready, at, \
                         disruptible, steady, attack, ranged, acquire, prepare, noncombat)"
                    ),
                ));
            }
        }
    }
    Ok(o)
}

fn strike_opts(w: &mut Words) -> Result<(EncounterStrikeOptions, StrikeDice), CmdError> {
    let mut options = EncounterStrikeOptions::default();
    let mut dice = StrikeDice::default();
    while let Some(word) = w.next() {
        match word.to_lowercase().as_str() {
            "roll" => dice.attack = Some(w.need_int("roll")?),
            "defense" | "defence" => dice.defense = Some(w.need_int("defense")?),
            "parry" => {
                options.parry = true;
                if let Some(n) = w.peek().and_then(|p| p.parse::<i32>().ok()) {
                    w.at += 1;
                    dice.defense = Some(n);
                }
            }
            "range" => {
                let short: i64 = w.need_int("range SHORT")?;
                let strength: i64 = w.need_int("range STRENGTH")?;
                let distance: i64 = w.need_int("range DISTANCE")?;
                options.range = Some(
                    RangedShot::new(short, strength, distance).map_err(|e| CmdError::from_core(e).in_field("range"))?,
                );
            }
            "point-blank" | "pointblank" => options.point_blank = true,
            "mod" | "modifier" => options.modifier = w.need_int("mod")?,
            "posture" => options.attacker_posture = Some(w.need_int("posture")?),
            "vs-posture" => options.defender_posture = Some(w.need_int("vs-posture")?),
            other => {
                return Err(CmdError::syntax(
                    "option",
                    format!(
                        "{other:?} is not an option of strike (roll, defense, parry, range, point-blank, mod, posture, \
                         vs-posture)"
                    ),
                ));
            }
        }
    }
    Ok((options, dice))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "tests")]

    use super::*;

    fn words(line: &str) -> Vec<String> {
        split(line).unwrap()
    }

    #[test]
    fn quotes_ids_and_comments() {
        assert_eq!(
            words(r#"strike Cardiff "Goblin #1" roll -1"#),
            ["strike", "Cardiff", "Goblin #1", "roll", "-1"]
        );
        assert_eq!(
            words("strike #2 #5 roll 0 # a comment"),
            ["strike", "#2", "#5", "roll", "0"]
        );
        assert_eq!(words("strike 'Orc #2' Madoc"), ["strike", "Orc #2", "Madoc"]);
        assert!(words("   # only a comment").is_empty());
        assert!(words("").is_empty());
        assert!(split("strike \"Goblin #1").is_err());
    }

    #[test]
    fn commands_parse() {
        let c = parse(words("strike Cardiff 'Goblin #1' roll -1 parry 2 mod 1"))
            .unwrap()
            .unwrap();
        let Command::Strike { options, dice, .. } = c else {
            panic!()
        };
        assert!(options.parry);
        assert_eq!((dice.attack, dice.defense, options.modifier), (Some(-1), Some(2), 1));
        let c = parse(words(
            "declare Shaman 'Word of Darkness: Blind' tt 2 prep 2 roll -1 disruptible",
        ))
        .unwrap()
        .unwrap();
        let Command::Declare { label, opts, .. } = c else {
            panic!()
        };
        assert_eq!(label, "Word of Darkness: Blind");
        assert_eq!(
            (opts.time_taken, opts.extra_preparation, opts.roll),
            (Some(2), Some(2), Some(-1))
        );
        assert_eq!(opts.disruptible, Some(true));
        assert!(
            parse(words("nxt"))
                .unwrap_err()
                .to_string()
                .contains("did you mean \"next\"")
        );
        assert!(
            parse(words("strike Cardiff"))
                .unwrap_err()
                .to_string()
                .contains("TARGET")
        );
        assert!(parse(words("next 0")).is_err());
        assert!(parse(words("declare A b tt x")).unwrap_err().to_string().contains("tt"));
    }

    #[test]
    fn every_verb_has_help() {
        for verb in VERBS {
            assert!(help_for(verb).is_some(), "{verb}");
        }
    }
}
