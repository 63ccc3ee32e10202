//! Times the exact engine on a scenario file (docs/performance.md's
//! "exact duel" row): the chain's size, the time taken, the chances.
//!
//! ```text
//! cargo run --release -p skirmish-sim --example exact_time -- FILE [auto|fractions|float] [REPEATS] [FIELD=VALUE ...]
//! ```
//!
//! With no file (or `-`), the duel of docs/performance.md: SR 7 DR 6
//! against SR 6 DR 6 with offense 1, ten hit points each, Simultaneous
//! Combat. `cardiff-orc` is Cardiff against Orc #1 of the goblin ambush
//! (its stats and wound levels), `cardiff-roland-orcs` Cardiff and Roland
//! against both orcs. Each `FIELD=VALUE` sets a field as `skirmish`'s
//! `--set` does (`timing=tick-system`).
//!
//! With no arguments at all, it times the duel, then Cardiff against the
//! orc under each of the six timing systems (docs/performance.md;
//! the ambush's two against two takes minutes under most of them).

use std::time::Instant;

use skirmish_sim::exact::{Arithmetic, ExactOptions, solve};
use skirmish_sim::scenario::Scenario;

const DUEL: &str = r#"name = "duel"
timing = "simultaneous"
damage = { model = "hit_points", max_hp = 10 }
[[sides]]
name = "A"
groups = [{ name = "a", strike_rating = 7, defense_rating = 6 }]
[[sides]]
name = "B"
groups = [{ name = "b", strike_rating = 6, defense_rating = 6, offense = 1 }]
"#;

/// The goblin ambush with only the named fighters of each side.
fn ambush(party: &[&str], goblinoids: &[&str]) -> Result<Scenario, Box<dyn std::error::Error>> {
    let mut s = Scenario::builtin("goblin-ambush")?;
    s.sides[0].groups.retain(|g| party.contains(&g.name.as_str()));
    s.sides[1].groups.retain(|g| goblinoids.contains(&g.name.as_str()));
    Ok(s)
}

/// The scenario an argument names.
fn named(arg: &str) -> Result<Scenario, Box<dyn std::error::Error>> {
    match arg {
        "-" => Ok(Scenario::from_toml_str(DUEL, "duel.toml")?),
        "cardiff-orc" => ambush(&["Cardiff"], &["Orc #1"]),
        "cardiff-roland-orcs" => ambush(&["Cardiff", "Roland"], &["Orc #1", "Orc #2"]),
        path => Ok(Scenario::load(std::path::Path::new(path))?),
    }
}

/// Times `scenario` `repeats` times, prints the best and the chances.
fn time(scenario: &Scenario, options: &ExactOptions, repeats: u32) -> Result<(), Box<dyn std::error::Error>> {
    let mut best = f64::INFINITY;
    let mut odds = None;
    for _ in 0..repeats.max(1) {
        let started = Instant::now();
        odds = Some(solve(scenario, options)?);
        best = best.min(started.elapsed().as_secs_f64());
    }
    let Some(odds) = odds else { return Ok(()) };
    println!(
        "{} ({}): {} states, {} transitions, {}, best of {repeats}: {:.2} ms",
        scenario.name,
        scenario.timing.name(),
        odds.states,
        odds.transitions,
        if odds.exact { "fractions" } else { "floats" },
        best * 1000.0
    );
    for (side, chance) in odds.sides.iter().zip(&odds.wins) {
        println!(
            "  {side} wins {:.6} {}",
            chance.value,
            chance.fraction.as_deref().unwrap_or("")
        );
    }
    println!(
        "  draw {:.6} {}",
        odds.draw.value,
        odds.draw.fraction.as_deref().unwrap_or("")
    );
    Ok(())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let all: Vec<String> = std::env::args().skip(1).collect();
    if all.is_empty() {
        time(&named("-")?, &ExactOptions::default(), 5)?;
        for timing in [
            "simultaneous",
            "simple-rounds",
            "graduated-rounds",
            "continuous",
            "tick-system",
            "action-blocks",
        ] {
            let scenario = named("cardiff-orc")?.with_field("timing", timing)?;
            if let Err(e) = time(&scenario, &ExactOptions::default(), 5) {
                println!("cardiff-orc ({timing}): {e}");
            }
        }
        return Ok(());
    }
    let (sets, args): (Vec<&String>, Vec<&String>) = all.iter().partition(|a| a.contains('='));
    let mut scenario = named(args.first().map_or("-", |a| a.as_str()))?;
    for set in sets {
        if let Some((field, value)) = set.split_once('=') {
            scenario = scenario.with_field(field, value)?;
        }
    }
    let arithmetic = match args.get(1).map(|a| a.as_str()) {
        None | Some("auto") => Arithmetic::Auto,
        Some("fractions") => Arithmetic::Fractions,
        Some("float") => Arithmetic::Float,
        Some(other) => return Err(format!("{other:?}: expected auto, fractions or float").into()),
    };
    let repeats: u32 = args.get(2).map_or(Ok(5), |r| r.parse())?;
    let options = ExactOptions {
        arithmetic,
        ..ExactOptions::default()
    };
    time(&scenario, &options, repeats)
}
