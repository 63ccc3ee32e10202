//! Times the exact engine on a scenario file (docs/performance.md's
//! "exact duel" row): the chain's size, the time taken, the chances.
//!
//! ```text
//! cargo run --release -p skirmish-sim --example exact_time -- FILE [auto|fractions|float] [REPEATS]
//! ```
//!
//! With no file, the duel of docs/performance.md: SR 7 DR 6 against SR 6
//! DR 6 with offense 1, ten hit points each, Simultaneous Combat; then the
//! goblin ambush's fighters under Graduated Rounds and Continuous timing:
//! Cardiff against Orc #1, and Cardiff and Roland against both orcs.

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

/// The goblin ambush with only the groups `keep` (by name), under
/// `timing`.
fn ambush(keep: &[&str], timing: &str) -> Result<Scenario, Box<dyn std::error::Error>> {
    let mut s = Scenario::builtin("goblin-ambush")?.with_field("timing", timing)?;
    for side in &mut s.sides {
        side.groups.retain(|g| keep.contains(&g.name.as_str()));
    }
    s.name = format!("{} ({timing})", keep.join(", "));
    Ok(s)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let scenarios = match args.first().map(String::as_str) {
        None | Some("-") => {
            let mut all = vec![Scenario::from_toml_str(DUEL, "duel.toml")?];
            for timing in ["graduated-rounds", "continuous"] {
                all.push(ambush(&["Cardiff", "Orc #1"], timing)?);
                all.push(ambush(&["Cardiff", "Roland", "Orc #1", "Orc #2"], timing)?);
            }
            all
        }
        Some(path) => vec![Scenario::load(std::path::Path::new(path))?],
    };
    let arithmetic = match args.get(1).map(String::as_str) {
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
    for scenario in &scenarios {
        time(scenario, &options, repeats)?;
    }
    Ok(())
}

/// Solves `scenario` `repeats` times and prints the best time.
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
        "{}: {} states, {} transitions, {}, best of {repeats}: {:.2} ms",
        scenario.name,
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
