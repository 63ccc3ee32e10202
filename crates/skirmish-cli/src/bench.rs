//! `skirmish bench parity`: the engine's side of the peer comparison
//! (benches/run-peers): the built-in parity battle, timed, one JSON line.

use std::time::{Duration, Instant};

/// The longest untimed warm-up before the timed battles.
const WARM_UP: Duration = Duration::from_millis(200);

use skirmish_sim::battle::{Battle, Workspace};
use skirmish_sim::report::Outcome;
use skirmish_sim::scenario::Scenario;
use skirmish_sim::sweep::MAX_BATTLES;

/// Arguments of `skirmish bench`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// Which benchmark (only `parity`).
    #[arg(value_enum)]
    which: Which,
    /// Fighters per side, at least 1.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..))]
    size: u64,
    /// Battles to fight (0 .. battles-1 of the seed), 1 to 1,000,000,000
    /// (a sweep's cap per cell: `skirmish_sim::sweep::MAX_BATTLES`).
    #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(1..=MAX_BATTLES))]
    battles: u64,
    /// Master seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Print the JSON line of the peer contract (benches/peers/README.md).
    #[arg(long)]
    json: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Which {
    /// The peer parity battle: N x A against N x B.
    Parity,
}

pub(crate) fn run(args: &Args) -> Result<(), Box<dyn std::error::Error>> {
    let Which::Parity = args.which;
    let size = args.size.to_string();
    let scenario = Scenario::builtin("parity")?
        .with_field("sides.A.groups.0.count", &size)?
        .with_field("sides.B.groups.0.count", &size)?
        .with_field("battle.max_ticks", "100000")?;
    let battle = Battle::new(&scenario)?;
    let mut ws = Workspace::default();
    let (mut actions, mut wins_a, mut wins_b, mut draws, mut timeouts, mut ticks) =
        (0u64, 0u64, 0u64, 0u64, 0u64, 0u64);
    // Warm-up: the same battles, untimed, for up to 0.2 s, so that the timed
    // run sees a grown workspace and a CPU out of its idle clocks (a run of
    // 10,000 small battles is short enough for both to show).
    let warm = Instant::now();
    for i in 0..args.battles {
        battle.run_summary(&mut ws, args.seed, i)?;
        if warm.elapsed() > WARM_UP {
            break;
        }
    }
    let start = Instant::now();
    for i in 0..args.battles {
        let s = battle.run_summary(&mut ws, args.seed, i)?;
        actions += s.actions;
        match s.outcome {
            Outcome::Win { side: 0 } => wins_a += 1,
            Outcome::Win { .. } => wins_b += 1,
            Outcome::Draw => draws += 1,
            Outcome::Timeout => timeouts += 1,
        }
        ticks += if s.outcome == Outcome::Timeout {
            100_000
        } else {
            s.ticks
        };
    }
    let seconds = start.elapsed().as_secs_f64();
    let mean_ticks = if args.battles == 0 {
        0.0
    } else {
        ticks as f64 / args.battles as f64
    };
    let line = if args.json {
        format!(
            "{}\n",
            serde_json::json!({
                "impl": "skirmish", "size": args.size, "battles": args.battles, "seed": args.seed,
                "actions": actions, "seconds": seconds, "wins_a": wins_a, "wins_b": wins_b,
                "draws": draws, "timeouts": timeouts, "mean_ticks": mean_ticks,
            })
        )
    } else {
        format!(
            "parity {0}x{0}: {1} battles, {2} actions in {3:.3} s: {4:.1} ns per action, {5:.2} us per battle; A won {6}, B {7}, draws {8}, timeouts {9}\n",
            args.size,
            args.battles,
            actions,
            seconds,
            seconds * 1e9 / actions.max(1) as f64,
            seconds * 1e6 / args.battles.max(1) as f64,
            wins_a,
            wins_b,
            draws,
            timeouts
        )
    };
    crate::output::emit(&line)
}
