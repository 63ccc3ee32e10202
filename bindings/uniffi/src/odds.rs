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
}

/// The odds from here: each side's win rate with its Wilson interval, the
/// draw and timeout rates, and how much longer the fight is expected to last.
#[derive(Debug, Clone, PartialEq, uniffi::Record)]
pub struct OddsFromHere {
    /// Battles run; 0 for a fight already decided (its outcome, nothing
    /// fought).
    pub battles: u64,
    /// Each side, in the order of the encounter's sides.
    pub sides: Vec<SideOdds>,
    /// Battles where nobody was left.
    pub draws: u64,
    /// Their rate.
    pub draw_rate: f64,
    /// Battles that hit the limit undecided.
    pub timeouts: u64,
    /// Their rate.
    pub timeout_rate: f64,
    /// Expected ticks from here.
    pub mean_ticks: f64,
    /// Expected rounds from here.
    pub mean_rounds: f64,
}

impl From<sim::OddsFromHere> for OddsFromHere {
    fn from(o: sim::OddsFromHere) -> OddsFromHere {
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
                })
                .collect(),
            draws: o.draws,
            draw_rate: o.draw_rate,
            timeouts: o.timeouts,
            timeout_rate: o.timeout_rate,
            mean_ticks: o.mean_ticks,
            mean_rounds: o.mean_rounds,
        }
    }
}
