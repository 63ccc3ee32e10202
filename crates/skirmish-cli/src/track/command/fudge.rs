//! The words of FUDGE chapter 4's commands at the table: `many` (4.34's
//! lone fighter), `shoot` and `fire` (4.4), `story` (4.21), `scout`
//! (4.31).

use skirmish_core::striking::opposed::Missile;
use skirmish_core::tracker::{LoneFighterDice, LoneFighterOptions, ShotDefense, ShotOptions};

use super::{CmdError, Command, Words, usage};

/// The whole numbers that come next (at least one: `missing` says what
/// they are when there are none).
fn ints(w: &mut Words, missing: &str) -> Result<Vec<i32>, CmdError> {
    let mut out = Vec::new();
    while let Some(n) = w.peek().and_then(|p| p.parse::<i32>().ok()) {
        w.at += 1;
        out.push(n);
    }
    if out.is_empty() {
        return Err(CmdError::syntax("rolls", missing));
    }
    Ok(out)
}

/// The words of `many WHO FOE... [options]`: the foes run to the first
/// option word.
pub(super) fn many(w: &mut Words) -> Result<Command, CmdError> {
    const OPTIONS: [&str; 6] = ["roll", "group", "rolls", "ignore", "hit", "mod"];
    let is_option = |word: &str| OPTIONS.contains(&word.to_lowercase().as_str());
    let lone = w.need("WHO")?;
    let mut foes = Vec::new();
    while let Some(word) = w.peek().filter(|p| !is_option(p)) {
        foes.push(word.to_string());
        w.at += 1;
    }
    if foes.is_empty() {
        return Err(CmdError::syntax("FOE", format!("missing; usage: {}", usage("many"))));
    }
    let (mut ignore, mut hit) = (Vec::new(), Vec::new());
    let mut options = LoneFighterOptions::default();
    let mut dice = LoneFighterDice::default();
    while let Some(word) = w.next() {
        match word.to_lowercase().as_str() {
            "roll" => dice.lone = Some(w.need_int("roll")?),
            "group" => {
                options.group_roll = true;
                if let Some(n) = w.peek().and_then(|p| p.parse::<i32>().ok()) {
                    w.at += 1;
                    dice.group = Some(n);
                }
            }
            "rolls" => {
                while let Some(n) = w.peek().and_then(|p| p.parse::<i32>().ok()) {
                    w.at += 1;
                    dice.foes.push(Some(n));
                }
                if dice.foes.is_empty() {
                    return Err(CmdError::syntax(
                        "rolls",
                        "give each foe's 4dF, in the order of the foes",
                    ));
                }
            }
            "ignore" => ignore.push(w.need("FOE")?),
            "hit" => hit.push(w.need("FOE")?),
            "mod" | "modifier" => options.modifier = w.need_int("mod")?,
            other => {
                return Err(CmdError::syntax(
                    "option",
                    format!("{other:?} is not an option of many (roll, group, rolls, ignore, hit, mod)"),
                ));
            }
        }
    }
    Ok(Command::Many {
        lone,
        foes,
        ignore,
        hit,
        options,
        dice,
    })
}

/// The words of `shoot WHO TARGET [...]` and `fire WHO TARGET [...]`.
pub(super) fn shots(w: &mut Words, verb: &str) -> Result<Command, CmdError> {
    let shooter = w.need("WHO")?;
    let target = w.need("TARGET")?;
    let mut options = ShotOptions::default();
    let mut difficulties = (options.difficulty, options.difficulty);
    let mut dice = (None, None);
    let fire = verb == "fire";
    while let Some(word) = w.next() {
        match (word.to_lowercase().as_str(), fire) {
            ("dl", _) => {
                options.difficulty = w.need_int("dl")?;
                difficulties.0 = options.difficulty;
            }
            ("vs-dl", true) => difficulties.1 = w.need_int("vs-dl")?,
            ("roll", _) => dice.0 = Some(w.need_int("roll")?),
            ("vs", _) => dice.1 = Some(w.need_int("vs")?),
            ("unaware", false) => options.defense = ShotDefense::Unaware,
            ("dodge", false) => options.dodge_skill = Some(w.need_int("dodge")?),
            ("propelled", false) => {
                options.missile = Missile::Propelled {
                    dodge_penalty: w.need_int("propelled")?,
                };
            }
            (other, _) => {
                return Err(CmdError::syntax(
                    "option",
                    format!("{other:?} is not an option of {verb}: {}", usage(verb)),
                ));
            }
        }
    }
    Ok(if fire {
        Command::Fire {
            first: shooter,
            second: target,
            difficulties,
            dice,
        }
    } else {
        Command::Shoot {
            shooter,
            target,
            options,
            dice,
        }
    })
}

/// The words of `story WHO [mod N] [median] [rolls N...]`.
pub(super) fn story(w: &mut Words) -> Result<Command, CmdError> {
    let who = w.need("WHO")?;
    let (mut modifier, mut median, mut rolls) = (0, false, Vec::new());
    while let Some(word) = w.next() {
        match word.to_lowercase().as_str() {
            "mod" | "modifier" => modifier = w.need_int("mod")?,
            "median" => median = true,
            "rolls" | "roll" => rolls = ints(w, "give the table's 4dF rolls")?,
            other => {
                return Err(CmdError::syntax(
                    "option",
                    format!("{other:?} is not an option of story (mod, median, rolls)"),
                ));
            }
        }
    }
    Ok(Command::Story {
        who,
        modifier,
        median,
        rolls,
    })
}

/// The words of `scout WHO FOE [roll N]`.
pub(super) fn scout(w: &mut Words) -> Result<Command, CmdError> {
    let who = w.need("WHO")?;
    let foe = w.need("FOE")?;
    let mut roll = None;
    while let Some(word) = w.next() {
        match word.to_lowercase().as_str() {
            "roll" => roll = Some(w.need_int("roll")?),
            other => {
                return Err(CmdError::syntax(
                    "option",
                    format!("{other:?} is not an option of scout (roll)"),
                ));
            }
        }
    }
    Ok(Command::Scout { who, foe, roll })
}
