//! Mirrors of [`skirmish_sim::odds`]: who is likely to win from here.
//! Conversion only: the battles run in the simulator.

use skirmish_sim::odds as sim;

/// One side's chance of winning.
#[derive(Debug, Clone, PartialEq, uniffi::Record)]
pub struct SideOdds {
    /// The side.
    pub name: String,
    /// Battles it won.
    pub wins: u64,
    /// Its win rate.
    pub win_rate: f64,
    /// The low end of its 95% Wilson interval.
    pub low: f64,
    /// The high end.
    pub high: f64,
    /// Its win rate as an exact fraction in lowest terms (`"50/131"`), when
    /// the odds were solved in fractions.
    pub fraction: Option<String>,
}

/// How the odds from here were computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, uniffi::Enum)]
pub enum OddsMethod {
    /// Fewer than two sides stand: the outcome, nothing computed.
    Decided,
    /// Solved by the exact engine: no battle fought.
    Exact,
    /// Sampled: `battles` continuations fought.
    Sampled,
}

/// The odds from here: each side's win rate with its interval, the draw
/// and timeout rates, how much longer the fight is expected to last, and
/// how they were computed (exact, with fractions, when the exact engine
/// models the fight as it stands; else sampled, with the reason).
#[derive(Debug, Clone, PartialEq, uniffi::Record)]
pub struct OddsFromHere {
    /// Battles run; 0 for a fight decided or solved exactly.
    pub battles: u64,
    /// Each side, in the order of the encounter's sides.
    pub sides: Vec<SideOdds>,
    /// Battles where nobody was left.
    pub draws: u64,
    /// Their rate.
    pub draw_rate: f64,
    /// The draw rate as an exact fraction, when solved in fractions.
    pub draw_fraction: Option<String>,
    /// Battles that hit the limit undecided.
    pub timeouts: u64,
    /// Their rate (exact: the chance the fight never ends).
    pub timeout_rate: f64,
    /// The timeout rate as an exact fraction, when solved in fractions.
    pub timeout_fraction: Option<String>,
    /// Expected ticks from here (none when exact: the exact engine
    /// solves who wins, not how long).
    pub mean_ticks: Option<f64>,
    /// Expected rounds from here (none when exact).
    pub mean_rounds: Option<f64>,
    /// How the odds were computed.
    pub method: OddsMethod,
    /// Whether they are the exact answer (decided, or solved).
    pub exact: bool,
    /// Exact: the states of the chain solved.
    pub states: Option<u64>,
    /// Exact: the most a rate may be off (0 for fractions).
    pub error_bound: Option<f64>,
    /// Sampled: why not exact (none when sampling was asked for).
    pub reason: Option<String>,
}

impl From<sim::OddsFromHere> for OddsFromHere {
    fn from(o: sim::OddsFromHere) -> OddsFromHere {
        let exact = o.method.is_exact();
        let (method, states, error_bound, reason) = match o.method {
            sim::OddsMethod::Decided => (OddsMethod::Decided, None, None, None),
            sim::OddsMethod::Exact {
                states, error_bound, ..
            } => (OddsMethod::Exact, Some(states as u64), Some(error_bound), None),
            sim::OddsMethod::Sampled { reason } => (OddsMethod::Sampled, None, None, reason),
        };
        OddsFromHere {
            battles: o.battles,
            sides: o
                .sides
                .into_iter()
                .map(|s| SideOdds {
                    name: s.name,
                    wins: s.wins,
                    win_rate: s.win_rate,
                    low: s.low,
                    high: s.high,
                    fraction: s.fraction,
                })
                .collect(),
            draws: o.draws,
            draw_rate: o.draw_rate,
            draw_fraction: o.draw_fraction,
            timeouts: o.timeouts,
            timeout_rate: o.timeout_rate,
            timeout_fraction: o.timeout_fraction,
            mean_ticks: o.mean_ticks,
            mean_rounds: o.mean_rounds,
            method,
            exact,
            states,
            error_bound,
            reason,
        }
    }
}
