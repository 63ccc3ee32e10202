//! `skirmish replay`: the tick sheet of the built-in goblin ambush under any
//! timing system, step by step, as a GM would keep it; with
//! `--as-in-the-text`, every timing example of the texts for that system,
//! played with the texts' own declarations and rolls.
//!
//! The examples are the core's worked-example file
//! (`skirmish-core/tests/cases/timing.toml`, the one its tests check): each
//! step is printed with the numbers the text gives (a Ready Time's roll, Time
//! Taken and bonus, the tick it lands on, each table of pending actions), so
//! a reader can hold the output against the page. A step that does not come
//! out as the text says is printed with "NOT AS IN THE TEXT" and the replay
//! fails.
//!
//! A replay keeps no undo history (the tracker's undo limit is 0) and writes
//! as it goes (JSON as an array streamed element by element), so
//! `--rounds 1000` runs in bounded memory.

use std::io::Write as _;

use skirmish_core::timing::{Declaration, GmTiming, InitiativeEntry, TimingSystem};
use skirmish_core::tracker::{CombatantSpec, Encounter, SheetLine, Turn};

use skirmish_sim::odds::encounter_from_scenario;
use skirmish_sim::scenario::Scenario;

use crate::output::ClosedPipe;

/// Arguments of `skirmish replay`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// Timing system: simultaneous, simple-rounds, graduated-rounds,
    /// continuous, tick-system, action-blocks.
    #[arg(long, default_value = "continuous")]
    system: String,
    /// Seed of the dice.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// How many rounds (phases, exchanges) to show; Continuous timing shows
    /// this many 20-tick laps.
    #[arg(long, default_value_t = 2)]
    rounds: u32,
    /// Play every timing example of the texts for this system, with the
    /// texts' own initiative, declarations and rolls (the Graduated ticks
    /// 8, 7, 6; the Continuous and Tick System walk-throughs; ...).
    /// `--seed`, `--rounds` and `--json` do not apply.
    #[arg(long)]
    as_in_the_text: bool,
    /// Print JSON (every turn and the sheet after it) instead of text.
    #[arg(long)]
    json: bool,
}

/// Standard output, buffered; a closed pipe ends the replay quietly.
struct Out(std::io::BufWriter<std::io::StdoutLock<'static>>);

impl Out {
    fn new() -> Out {
        Out(std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock()))
    }

    fn put(&mut self, text: &str) -> Result<(), Box<dyn std::error::Error>> {
        self.0.write_all(text.as_bytes()).map_err(io_error)
    }

    fn finish(mut self) -> Result<(), Box<dyn std::error::Error>> {
        self.0.flush().map_err(io_error)
    }
}

fn io_error(e: std::io::Error) -> Box<dyn std::error::Error> {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        Box::new(ClosedPipe)
    } else {
        Box::new(e)
    }
}

pub(crate) fn run(args: &Args) -> Result<(), Box<dyn std::error::Error>> {
    if !(1..=1000).contains(&args.rounds) {
        return Err(format!("--rounds: {} is outside 1..=1000", args.rounds).into());
    }
    let system = TimingSystem::by_name(&args.system)?;
    if args.as_in_the_text {
        return as_in_the_text(&system);
    }
    let mut ambush = Scenario::builtin("goblin-ambush")?;
    ambush.timing = system.clone();
    let mut e = encounter_from_scenario(&ambush, args.seed)?;
    // A replay never undoes: no history (it grew with every step).
    e.set_undo_limit(0)?;
    let mut out = Out::new();
    if args.json {
        out.put("[")?;
    } else {
        out.put(&format!(
            "The goblin ambush under {} (seed {}): Roland, Madoc and Cardiff against two orcs, two goblins and a shaman.\n",
            system.name(),
            args.seed
        ))?;
        out.put("Nobody is hit here: this is timing only (when each action lands).\n")?;
    }
    let limit_tick = u64::from(args.rounds) * 20;
    let mut logged = e.log_len();
    let mut first = true;
    loop {
        let turn = e.next()?;
        let stop = match &turn {
            Turn::Over => true,
            Turn::NewRound { round, .. } => *round > args.rounds && !matches!(system, TimingSystem::Continuous(_)),
            Turn::Moment { moment, .. } => matches!(system, TimingSystem::Continuous(_)) && moment.tick > limit_tick,
        };
        if stop {
            break;
        }
        // Everyone who acted does the same again, declared now so the sheet shows it.
        if let Turn::Moment { .. } = turn {
            for id in e.awaiting_combatants() {
                let skirmish_core::tracker::LineDeclaration {
                    label,
                    declaration: decl,
                } = e.declaration(id)?;
                e.declare(id, &label, decl, None)?;
            }
        }
        if args.json {
            let item = serde_json::json!({ "turn": turn, "sheet": e.tick_sheet() });
            let sep = if first { "\n" } else { ",\n" };
            out.put(&format!("{sep}{}", indent(&serde_json::to_string_pretty(&item)?)))?;
            first = false;
        } else {
            if let Turn::NewRound { .. } = turn {
                out.put("\n")?;
            }
            for entry in e.log_since(logged) {
                out.put(&format!("{}\n", entry.text))?;
            }
            out.put(&format!("    sheet  {}\n", sheet_line(&e.tick_sheet(), &system)))?;
        }
        logged = e.log_len();
    }
    if args.json {
        out.put(if first { "]\n" } else { "\n]\n" })?;
    }
    out.finish()
}

/// A pretty-printed JSON value as an element of a pretty-printed array.
fn indent(json: &str) -> String {
    json.lines().map(|l| format!("  {l}")).collect::<Vec<_>>().join("\n")
}

/// The pending sheet on one line: `3: Orc #1 | 4: Madoc, Orc #2 | ...`.
fn sheet_line(sheet: &[SheetLine], system: &TimingSystem) -> String {
    if sheet.is_empty() {
        return "(empty: the round is over)".to_string();
    }
    sheet
        .iter()
        .take(12)
        .map(|l| {
            let names: Vec<String> = l.lines.iter().map(|a| a.sheet_label()).collect();
            let at = match system {
                TimingSystem::SimpleRounds => format!("pass {} init {}", l.pass, l.display),
                TimingSystem::ActionBlocks(_) => format!("block {}", l.display),
                _ => l.display.to_string(),
            };
            format!("{at}: {}", names.join(", "))
        })
        .collect::<Vec<_>>()
        .join(" | ")
}

// ---------------------------------------------------------------------------
// The texts' examples

/// The worked examples of the timing texts, with their declarations and
/// rolls (the file the core's tests play).
const EXAMPLES: &str = include_str!("../../skirmish-core/tests/cases/timing.toml");

/// The examples' format, shared with the core's tests (one home).
#[path = "../../skirmish-core/tests/cases/timing_cases.rs"]
mod cases;
use cases::{Case, File, Op, sheet_text};

/// Plays every example of `system`'s kind, step by step.
fn as_in_the_text(system: &TimingSystem) -> Result<(), Box<dyn std::error::Error>> {
    let file: File = toml::from_str(EXAMPLES).map_err(|e| format!("the texts' examples: {e}"))?;
    let kind = std::mem::discriminant(system);
    let cases: Vec<&Case> = file
        .case
        .iter()
        .filter(|c| std::mem::discriminant(&c.system) == kind)
        .collect();
    let mut out = Out::new();
    out.put(&format!(
        "The texts' timing examples under {}, with their own initiative, declarations and rolls ({} example{}).\n",
        system.name(),
        cases.len(),
        if cases.len() == 1 { "" } else { "s" }
    ))?;
    let mut wrong = 0usize;
    for case in cases {
        out.put(&format!("\n== {}\n", case.name))?;
        let mut text = String::new();
        wrong += play(case, &mut text)?;
        out.put(&text)?;
    }
    out.finish()?;
    if wrong > 0 {
        return Err(format!("{wrong} step(s) did not come out as in the text").into());
    }
    Ok(())
}

/// Plays one example into `out`; returns how many steps did not come out
/// as the text says (each is marked in `out`).
fn play(case: &Case, out: &mut String) -> Result<usize, Box<dyn std::error::Error>> {
    use std::fmt::Write as _;
    let system = &case.system;
    let mut e = Encounter::new(system.clone(), case.seed)?;
    e.set_undo_limit(0)?;
    for c in &case.combatants {
        let spec = CombatantSpec::new(c.name.clone(), c.action)
            .with_timing(c.timing)
            .labelled(c.label.clone());
        e.add_combatant(spec)?;
    }
    let mut wrong = 0usize;
    let mut check = |out: &mut String, ok: bool, text_says: String| {
        if !ok {
            wrong += 1;
            let _ = writeln!(out, "      NOT AS IN THE TEXT, which says {text_says}");
        }
    };
    let mut now: i64 = 0;
    for op in &case.steps {
        match op {
            Op::Initiative { who, roll, total } => {
                let entry = match (roll, total) {
                    (Some(r), None) => InitiativeEntry::Roll(*r),
                    (None, Some(t)) => InitiativeEntry::Total(*t),
                    _ => return Err(format!("{}: an initiative needs a roll or a total", case.name).into()),
                };
                e.set_initiative(e.find(who)?, entry)?;
                match entry {
                    InitiativeEntry::Roll(r) => writeln!(out, "  {who}: initiative roll {r:+} on the dice")?,
                    InitiativeEntry::Total(t) => writeln!(out, "  {who}: initiative {t}")?,
                }
            }
            Op::NewRound { round, sheet } => match e.next()? {
                Turn::NewRound { round: r, sheet: s, .. } => {
                    writeln!(out, "  -- round {r}")?;
                    let got = sheet_text(system, &s);
                    writeln!(out, "    sheet  {}", got.join(" | "))?;
                    check(out, r == *round, format!("round {round}"));
                    if let Some(want) = sheet {
                        check(out, &got == want, want.join(" | "));
                    }
                }
                other => {
                    writeln!(out, "  {other:?}")?;
                    check(out, false, format!("round {round} begins"));
                }
            },
            Op::Moment {
                display,
                acting,
                pass,
                round,
            } => match e.next()? {
                Turn::Moment { moment, lines, .. } => {
                    now = moment.display;
                    let names: Vec<String> = lines.iter().map(|a| a.sheet_label()).collect();
                    let at = match system {
                        TimingSystem::SimpleRounds => {
                            format!(
                                "round {} pass {} initiative {}",
                                moment.round, moment.pass, moment.display
                            )
                        }
                        TimingSystem::ActionBlocks(_) => format!("phase {} block {}", moment.round, moment.display),
                        TimingSystem::Simultaneous => format!("exchange {}", moment.display),
                        _ => format!("round {} tick {}", moment.round, moment.display),
                    };
                    writeln!(
                        out,
                        "  [{at}] {} act{}",
                        names.join(", "),
                        if names.len() == 1 { "s" } else { "" }
                    )?;
                    check(
                        out,
                        moment.display == *display && &names == acting,
                        format!("{display}: {}", acting.join(", ")),
                    );
                    if let Some(p) = pass {
                        check(out, moment.pass == *p, format!("pass {p}"));
                    }
                    if let Some(r) = round {
                        check(out, moment.round == *r, format!("round {r}"));
                    }
                }
                other => {
                    writeln!(out, "  {other:?}")?;
                    check(out, false, format!("a moment at {display}"));
                }
            },
            Op::Declare {
                who,
                label,
                time_taken,
                speed_bonus,
                extra_preparation,
                ready_time,
                roll,
                kind,
                action_ticks,
                rate_of_fire,
                lands,
            } => {
                let id = e.find(who)?;
                let mut d = Declaration::new(*time_taken, *speed_bonus);
                d.extra_preparation = *extra_preparation;
                d.gm = ready_time.map(GmTiming::ReadyTime);
                d.kind = kind.unwrap_or_default();
                d.action_ticks = *action_ticks;
                if let Some(rof) = rate_of_fire {
                    d.rate_of_fire = *rof;
                }
                let tick = e.declare(id, label, d, *roll)?;
                let landing = tick.and_then(|t| e.tick_sheet().into_iter().find(|l| l.tick == t).map(|l| l.display));
                let mut how = String::new();
                if let Some(rt) = ready_time {
                    how = format!(", the GM's Ready Time {rt}");
                } else if let Some(r) = roll {
                    let prep = if *extra_preparation != 0 {
                        format!(" + preparation {extra_preparation}")
                    } else {
                        String::new()
                    };
                    let sum = i64::from(*r) + i64::from(*time_taken) - i64::from(*speed_bonus)
                        + i64::from(*extra_preparation);
                    let floor = if sum < 1 { " (at least 1)" } else { "" };
                    how = format!(
                        ": roll {r:+} + TT {time_taken} - bonus {speed_bonus}{prep} = Ready Time {}{floor}; + tick {now}",
                        sum.max(1)
                    );
                } else if matches!(system, TimingSystem::TickSystem(_)) {
                    how = format!(": {} ticks from {now}", action_ticks.unwrap_or(2));
                } else if let Some(t) = action_ticks {
                    how = format!(", {t} ticks");
                }
                let name = if label.is_empty() {
                    "an action".to_string()
                } else {
                    label.clone()
                };
                match landing {
                    Some(at) => writeln!(out, "    {who} declares {name}{how} -> lands on {at}")?,
                    None => writeln!(out, "    {who} declares {name}{how} -> does not land this round")?,
                }
                check(out, landing == *lands, format!("{lands:?}"));
            }
            Op::Disrupt { who, expect } => {
                let got = e.disrupt(e.find(who)?)?;
                writeln!(
                    out,
                    "    {who} is hit: {}",
                    if got {
                        "the action is disrupted"
                    } else {
                        "nothing to disrupt"
                    }
                )?;
                check(out, got == *expect, format!("disrupted: {expect}"));
            }
            Op::Cancel { who, expect } => {
                let got = e.cancel(e.find(who)?)?;
                writeln!(
                    out,
                    "    {who} changes their mind: {}",
                    if got {
                        "the action is cancelled"
                    } else {
                        "nothing to cancel"
                    }
                )?;
                check(out, got == *expect, format!("cancelled: {expect}"));
            }
            Op::Down { who } => {
                e.down(e.find(who)?)?;
                writeln!(out, "    {who} falls")?;
            }
            Op::Sheet { lines } => {
                let got = sheet_text(system, &e.tick_sheet());
                writeln!(out, "    sheet  {}", got.join(" | "))?;
                check(out, &got == lines, lines.join(" | "));
            }
            Op::Awaiting { lines } => {
                let got = e.awaiting();
                writeln!(
                    out,
                    "    to declare: {}",
                    if got.is_empty() {
                        "nobody".to_string()
                    } else {
                        got.join(", ")
                    }
                )?;
                check(out, &got == lines, lines.join(", "));
            }
            Op::FreeAction {
                who,
                ticks,
                defending,
                expect_ticks,
                cancelled,
                pushed,
                next_turn,
            } => {
                let r = e.free_action(e.find(who)?, *ticks, *defending)?;
                let next = r.next_turn.map_or_else(String::new, |n| format!(", next turn on {n}"));
                writeln!(
                    out,
                    "    {who} {} ({} ticks){}{}{next}",
                    if *defending { "defends" } else { "takes a free action" },
                    r.ticks,
                    if r.cancelled_action {
                        ", the action under way is cancelled"
                    } else {
                        ""
                    },
                    if r.pushed { ", the next turn is pushed" } else { "" },
                )?;
                if let Some(t) = expect_ticks {
                    check(out, r.ticks == *t, format!("{t} ticks"));
                }
                if let Some(c) = cancelled {
                    check(out, r.cancelled_action == *c, format!("cancelled: {c}"));
                }
                if let Some(p) = pushed {
                    check(out, r.pushed == *p, format!("pushed: {p}"));
                }
                if let Some(n) = next_turn {
                    check(out, r.next_turn == Some(*n), format!("next turn on {n}"));
                }
            }
            Op::HeldTurn { who } => {
                e.take_held_turn(e.find(who)?)?;
                writeln!(out, "    {who} takes the held turn")?;
            }
            Op::DefenseBonus { who, expect } => {
                let got = e.defense_bonus(e.find(who)?)?;
                writeln!(out, "    {who}'s defense bonus: {got:+}")?;
                check(out, got == *expect, format!("{expect:+}"));
            }
            Op::Hold { who, order } => {
                let got = e.hold(e.find(who)?)?;
                writeln!(out, "    {who} holds: the order is now {}", got.join(", "))?;
                check(out, &got == order, order.join(", "));
            }
            Op::Over {} => {
                let got = e.next()?;
                let over = got == Turn::Over;
                writeln!(
                    out,
                    "  {}",
                    if over {
                        "-- nobody is left to act"
                    } else {
                        "-- not over"
                    }
                )?;
                check(out, over, "nobody is left".to_string());
            }
        }
    }
    Ok(wrong)
}
