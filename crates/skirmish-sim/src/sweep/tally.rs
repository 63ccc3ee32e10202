//! A cell's battles reduced to integer sums and a histogram of durations:
//! merging in any order gives the same row, so any number of threads
//! gives the same bytes.

use std::collections::BTreeMap;

use super::SweepError;
use super::table::CellStats;
use crate::report::{BattleSummary, Outcome};
use crate::stats;

/// Running totals of some battles: integer sums and a histogram of
/// durations, so merging in any order gives the same result.
#[derive(Debug, Clone, Default)]
pub(super) struct Tally {
    /// Battles counted.
    pub(super) battles: u64,
    wins: Vec<u64>,
    retreats: Vec<u64>,
    surrenders: Vec<u64>,
    draws: u64,
    timeouts: u64,
    ticks: u128,
    rounds: u128,
    seconds: u128,
    /// Battles whose timing system gives no game seconds.
    without_seconds: u64,
    actions: u128,
    hits: u128,
    amazing_strikes: u128,
    amazing_defenses: u128,
    disruptions: u128,
    durations: Durations,
}

/// A histogram of battle durations in ticks: a count per tick below
/// [`Durations::DENSE`] in an array (adding and merging are a few
/// instructions), the rare longer battles in a map.
#[derive(Debug, Clone, Default)]
pub(super) struct Durations {
    dense: Vec<u64>,
    sparse: BTreeMap<u64, u64>,
}

impl Durations {
    const DENSE: u64 = 4096;

    #[inline]
    fn add(&mut self, ticks: u64, count: u64) {
        if ticks < Self::DENSE {
            let i = ticks as usize;
            if i >= self.dense.len() {
                self.dense.resize(i + 1, 0);
            }
            self.dense[i] += count;
        } else {
            *self.sparse.entry(ticks).or_insert(0) += count;
        }
    }

    fn merge(&mut self, other: Durations) {
        if other.dense.len() > self.dense.len() {
            self.dense.resize(other.dense.len(), 0);
        }
        for (mine, theirs) in self.dense.iter_mut().zip(other.dense) {
            *mine += theirs;
        }
        for (ticks, count) in other.sparse {
            *self.sparse.entry(ticks).or_insert(0) += count;
        }
    }

    /// `(ticks, battles)` in increasing ticks, without empty entries.
    fn counts(&self) -> impl Iterator<Item = (u64, u64)> + Clone + '_ {
        self.dense
            .iter()
            .enumerate()
            .filter(|&(_, &c)| c > 0)
            .map(|(t, &c)| (t as u64, c))
            .chain(self.sparse.iter().map(|(&t, &c)| (t, c)))
    }
}

impl Tally {
    pub(super) fn new(sides: usize) -> Tally {
        Tally {
            wins: vec![0; sides],
            retreats: vec![0; sides],
            surrenders: vec![0; sides],
            ..Tally::default()
        }
    }

    /// Counts a battle that lasted `seconds` of game time (`None`: its
    /// timing system gives none).
    pub(super) fn add(&mut self, s: &BattleSummary, seconds: Option<u64>) {
        self.battles += 1;
        match s.outcome {
            Outcome::Win { side } => {
                if let Some(w) = self.wins.get_mut(side) {
                    *w += 1;
                }
            }
            Outcome::Draw => self.draws += 1,
            Outcome::Timeout => self.timeouts += 1,
        }
        if !s.breaks.is_none() {
            count_bits(&mut self.retreats, s.breaks.retreated);
            count_bits(&mut self.surrenders, s.breaks.surrendered);
        }
        self.ticks += u128::from(s.ticks);
        self.rounds += u128::from(s.rounds);
        match seconds {
            Some(x) => self.seconds += u128::from(x),
            None => self.without_seconds += 1,
        }
        self.actions += u128::from(s.actions);
        self.hits += u128::from(s.hits);
        self.amazing_strikes += u128::from(s.amazing_strikes);
        self.amazing_defenses += u128::from(s.amazing_defenses);
        self.disruptions += u128::from(s.disruptions);
        self.durations.add(s.ticks, 1);
    }

    pub(super) fn merge(&mut self, other: Tally) {
        self.battles += other.battles;
        for (w, o) in self.wins.iter_mut().zip(other.wins) {
            *w += o;
        }
        for (r, o) in self.retreats.iter_mut().zip(other.retreats) {
            *r += o;
        }
        for (r, o) in self.surrenders.iter_mut().zip(other.surrenders) {
            *r += o;
        }
        self.draws += other.draws;
        self.timeouts += other.timeouts;
        self.ticks += other.ticks;
        self.rounds += other.rounds;
        self.seconds += other.seconds;
        self.without_seconds += other.without_seconds;
        self.actions += other.actions;
        self.hits += other.hits;
        self.amazing_strikes += other.amazing_strikes;
        self.amazing_defenses += other.amazing_defenses;
        self.disruptions += other.disruptions;
        self.durations.merge(other.durations);
    }

    pub(super) fn finish(self, cell: usize) -> Result<CellStats, SweepError> {
        let fit = |x: u128, column: &str| {
            u64::try_from(x).map_err(|_| SweepError::Overflow {
                cell,
                column: column.to_owned(),
            })
        };
        Ok(CellStats {
            battles: self.battles,
            median_ticks: stats::percentile_of_counts(self.durations.counts(), 50).unwrap_or(0),
            p90_ticks: stats::percentile_of_counts(self.durations.counts(), 90).unwrap_or(0),
            wins: self.wins,
            draws: self.draws,
            timeouts: self.timeouts,
            total_ticks: fit(self.ticks, "total_ticks")?,
            total_rounds: fit(self.rounds, "total_rounds")?,
            // A cell has one timing system: seconds for all, or for none.
            total_seconds: if self.without_seconds > 0 {
                None
            } else {
                Some(fit(self.seconds, "total_seconds")?)
            },
            total_actions: fit(self.actions, "total_actions")?,
            total_hits: fit(self.hits, "total_hits")?,
            total_amazing_strikes: fit(self.amazing_strikes, "total_amazing_strikes")?,
            total_amazing_defenses: fit(self.amazing_defenses, "total_amazing_defenses")?,
            total_disruptions: fit(self.disruptions, "total_disruptions")?,
            retreats: self.retreats,
            surrenders: self.surrenders,
        })
    }
}

/// Adds one to `counts[i]` for every bit `i` set in `mask`.
fn count_bits(counts: &mut [u64], mut mask: u64) {
    while mask != 0 {
        let i = mask.trailing_zeros() as usize;
        if let Some(c) = counts.get_mut(i) {
            *c += 1;
        }
        mask &= mask - 1;
    }
}
