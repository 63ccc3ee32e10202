//! A small Monte Carlo sweep: the goblin ambush under each timing system,
//! a few hundred battles per cell, with each side's win rate and its 95%
//! interval.
//!
//! Run with `cargo run -p skirmish-sim --example sweep_win_rates` (1,200
//! battles: a fraction of a second even in a debug build).

use skirmish_sim::scenario::Scenario;
use skirmish_sim::sweep::{Axis, SweepOptions, SweepSpec, sweep};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let spec = SweepSpec {
        scenario: Scenario::builtin("goblin-ambush")?,
        // Any scenario field can be an axis; several axes make a grid.
        axes: vec![Axis::new(
            "timing",
            ["simple-rounds", "graduated", "continuous", "tick-system"],
        )],
        battles: 300,
        seed: 7,
    };
    // Default options: every core, no checkpoint. Same seed, same table,
    // whatever the number of threads.
    let table = sweep(&spec, &SweepOptions::default())?;

    let sides = table.sides();
    for cell in table.cells() {
        print!("{:<14}", cell.values[0]);
        for (i, side) in sides.iter().enumerate() {
            let (low, high) = cell.stats.win_interval(i);
            print!(
                "  {side} {:5.1}% [{:4.1}, {:4.1}]",
                100.0 * cell.stats.win_rate(i),
                100.0 * low,
                100.0 * high
            );
        }
        println!("  mean {:.1} ticks", cell.stats.mean_ticks());
    }

    // The same table as CSV, in the documented schema (docs/scenarios.md).
    let csv = table.to_csv();
    let header = csv.lines().next().unwrap_or_default();
    let columns: Vec<&str> = header.split(',').collect();
    println!(
        "\nCSV: {} rows of {} columns: {}, ...",
        csv.lines().count().saturating_sub(1),
        columns.len(),
        columns[..4].join(",")
    );
    Ok(())
}
