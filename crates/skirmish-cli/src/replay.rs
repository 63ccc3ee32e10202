//! `skirmish replay`: the tick sheet of the built-in goblin ambush under any
//! timing system, step by step, as a GM would keep it.

use skirmish_core::ambush::goblin_ambush;
use skirmish_core::timing::TimingSystem;
use skirmish_core::tracker::{Encounter, SheetLine, Turn};

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
    /// Start with the texts' own round-one initiative (Roland -1, Madoc +1,
    /// Cardiff -4 on the 4dF; orcs 3 and 4, shaman 6, goblins 9).
    #[arg(long)]
    as_in_the_text: bool,
    /// Print JSON (every turn and the sheet after it) instead of text.
    #[arg(long)]
    json: bool,
}

pub(crate) fn run(args: &Args) -> Result<(), Box<dyn std::error::Error>> {
    if !(1..=1000).contains(&args.rounds) {
        return Err(format!("--rounds: {} is outside 1..=1000", args.rounds).into());
    }
    let system = TimingSystem::by_name(&args.system)?;
    let mut e = Encounter::new(system.clone(), args.seed)?;
    let text_rolls = matches!(
        system,
        TimingSystem::SimpleRounds | TimingSystem::GraduatedRounds(_) | TimingSystem::Continuous(_)
    );
    for m in goblin_ambush() {
        let id = e.add_combatant(m.spec)?;
        if args.as_in_the_text && text_rolls {
            e.set_initiative(id, m.text_initiative)?;
        }
    }
    let mut out = String::new();
    let mut json = Vec::new();
    if !args.json {
        out += &format!(
            "The goblin ambush under {} (seed {}): Roland, Madoc and Cardiff against two orcs, two goblins and a shaman.\n",
            system.name(),
            args.seed
        );
        out += "Nobody is hit here: this is timing only (when each action lands).\n";
    }
    let limit_tick = u64::from(args.rounds) * 20;
    let mut logged = e.log().len();
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
            json.push(serde_json::json!({ "turn": turn, "sheet": e.tick_sheet() }));
        } else {
            if let Turn::NewRound { .. } = turn {
                out.push('\n');
            }
            for entry in &e.log()[logged..] {
                out += &format!("{}\n", entry.text);
            }
            out += &format!("    sheet  {}\n", sheet_line(&e.tick_sheet(), &system));
        }
        logged = e.log().len();
    }
    if args.json {
        out = serde_json::to_string_pretty(&json)?;
        out.push('\n');
    }
    crate::output::emit(&out)?;
    Ok(())
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
