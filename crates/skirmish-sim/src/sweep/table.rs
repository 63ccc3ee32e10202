//! The result of a sweep: each cell's exact counts ([`CellStats`]), the
//! table of cells ([`SweepTable`]) and its renderings (CSV, JSON, columns,
//! a terminal summary). The columns themselves are defined once, in
//! `schema`.

use super::format::{csv_text, json_text};
use super::schema::{Layout, Meta, Value, ValueType};
use crate::stats;

/// The exact results of one cell: counts and sums, from which every
/// statistic of its row is computed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CellStats {
    /// Battles fought.
    pub battles: u64,
    /// Battles won, per side (scenario order).
    pub wins: Vec<u64>,
    /// Draws.
    pub draws: u64,
    /// Timeouts.
    pub timeouts: u64,
    /// Sum of the battles' durations in ticks.
    pub total_ticks: u64,
    /// Median duration in ticks (nearest rank).
    pub median_ticks: u64,
    /// 90th percentile of the duration in ticks (nearest rank).
    pub p90_ticks: u64,
    /// Sum of rounds begun.
    pub total_rounds: u64,
    /// Sum of the battles' game seconds, each rounded to a whole second
    /// ([`TimingSystem::game_seconds`](skirmish_core::timing::TimingSystem::game_seconds));
    /// `None` under a timing system whose text gives its ticks no length
    /// (the Tick System).
    pub total_seconds: Option<u64>,
    /// Sum of actions.
    pub total_actions: u64,
    /// Sum of hits.
    pub total_hits: u64,
    /// Sum of amazing strikes.
    pub total_amazing_strikes: u64,
    /// Sum of amazing defenses.
    pub total_amazing_defenses: u64,
    /// Sum of disruptions.
    pub total_disruptions: u64,
    /// Battles each side retreated from (morale), per side.
    pub retreats: Vec<u64>,
    /// Battles each side surrendered in (morale), per side.
    pub surrenders: Vec<u64>,
}

impl CellStats {
    /// The share of battles side `side` won (0 for an unknown side).
    pub fn win_rate(&self, side: usize) -> f64 {
        ratio(self.wins.get(side).copied().unwrap_or(0), self.battles).unwrap_or(0.0)
    }

    /// The Wilson 95% interval of side `side`'s win rate.
    pub fn win_interval(&self, side: usize) -> (f64, f64) {
        stats::wilson(self.wins.get(side).copied().unwrap_or(0), self.battles)
    }

    /// Mean duration in ticks.
    pub fn mean_ticks(&self) -> f64 {
        ratio(self.total_ticks, self.battles).unwrap_or(0.0)
    }

    /// Mean rounds begun (exchanges, phases; Continuous: stopwatch laps).
    pub fn mean_rounds(&self) -> f64 {
        ratio(self.total_rounds, self.battles).unwrap_or(0.0)
    }

    /// Mean duration in game seconds (`None` where the timing system's
    /// text gives no length in time).
    pub fn mean_seconds(&self) -> Option<f64> {
        self.total_seconds.and_then(|s| ratio(s, self.battles))
    }
}

/// One row of the table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cell {
    /// The varied fields' values, in axis order.
    pub values: Vec<String>,
    /// Its results.
    pub stats: CellStats,
}

/// A column of the table as one array, for the Python layer.
#[derive(Debug, Clone, PartialEq)]
pub enum Column {
    /// Text (the varied values).
    Str(Vec<String>),
    /// Integers (counts, sums, percentiles, the seed).
    U64(Vec<u64>),
    /// Floats (rates, means), unrounded; `NaN` when undefined.
    F64(Vec<f64>),
}

impl Column {
    /// Its number of rows.
    pub fn len(&self) -> usize {
        match self {
            Column::Str(v) => v.len(),
            Column::U64(v) => v.len(),
            Column::F64(v) => v.len(),
        }
    }

    /// Whether it has no rows.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The result of a sweep: one [`Cell`] per grid cell, in grid order.
#[derive(Debug, Clone, PartialEq)]
pub struct SweepTable {
    pub(super) layout: Layout,
    pub(super) seed: u64,
    pub(super) scenario: String,
    pub(super) battles: u64,
    pub(super) cells: Vec<Cell>,
    /// Per cell, what its timing system's tick and round are in time
    /// ([`TimingSystem::time_units`](skirmish_core::timing::TimingSystem::time_units)),
    /// with the system's name: the summary's note under the table.
    pub(super) units: Vec<(&'static str, String)>,
    /// Whether the base scenario plays morale: the terminal table then
    /// shows the retreat and surrender rates (as it does when any cell has
    /// a retreat or surrender).
    pub(super) morale: bool,
}

impl SweepTable {
    /// The varied fields' paths, in axis order.
    pub fn axes(&self) -> &[String] {
        &self.layout.axes
    }

    /// The side names, in scenario order.
    pub fn sides(&self) -> &[String] {
        &self.layout.sides
    }

    /// The master seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The base scenario's [fingerprint](crate::scenario::Scenario::fingerprint).
    pub fn scenario_fingerprint(&self) -> &str {
        &self.scenario
    }

    fn meta(&self) -> Meta<'_> {
        Meta {
            seed: self.seed,
            scenario: &self.scenario,
        }
    }

    /// Battles per cell.
    pub fn battles(&self) -> u64 {
        self.battles
    }

    /// The cells, in grid order.
    pub fn cells(&self) -> &[Cell] {
        &self.cells
    }

    /// The column names, in schema order.
    pub fn header(&self) -> Vec<String> {
        self.layout.columns.iter().map(|(name, _)| name.clone()).collect()
    }

    /// The table as CSV (see the module docs for the schema).
    pub fn to_csv(&self) -> String {
        let rows = self.cells.iter().map(|cell| self.layout.row_fields(cell, self.meta()));
        csv_text(std::iter::once(self.layout.header_fields()).chain(rows))
    }

    /// The table as JSON: an array of one object per row, keys in schema
    /// order, numbers written as in the CSV.
    pub fn to_json(&self) -> String {
        let rows: Vec<Vec<(&str, Value<'_>)>> = self
            .cells
            .iter()
            .map(|cell| {
                self.layout
                    .columns
                    .iter()
                    .map(|(name, kind)| (name.as_str(), kind.value(cell, self.meta())))
                    .collect()
            })
            .collect();
        json_text(&rows)
    }

    /// The columns as arrays, in schema order, one entry per cell.
    pub fn columns(&self) -> Vec<(String, Column)> {
        self.layout
            .columns
            .iter()
            .map(|(name, kind)| {
                let values = self.cells.iter().map(|cell| kind.value(cell, self.meta()));
                let column = match kind.value_type() {
                    ValueType::Str => Column::Str(
                        values
                            .map(|v| match v {
                                Value::Str(s) => s.to_owned(),
                                _ => String::new(),
                            })
                            .collect(),
                    ),
                    ValueType::OptU64 => Column::F64(
                        values
                            .map(|v| match v {
                                Value::OptU64(Some(x)) => x as f64,
                                _ => f64::NAN,
                            })
                            .collect(),
                    ),
                    ValueType::U64 => Column::U64(
                        values
                            .map(|v| match v {
                                Value::U64(x) => x,
                                _ => 0,
                            })
                            .collect(),
                    ),
                    ValueType::F64 => Column::F64(
                        values
                            .map(|v| match v {
                                Value::F64(x) => x.unwrap_or(f64::NAN),
                                _ => f64::NAN,
                            })
                            .collect(),
                    ),
                };
                (name.clone(), column)
            })
            .collect()
    }

    /// Whether the table shows morale: the base scenario plays it, or a
    /// side of some cell retreated or surrendered.
    fn shows_morale(&self) -> bool {
        self.morale
            || self
                .cells
                .iter()
                .any(|c| c.stats.retreats.iter().chain(&c.stats.surrenders).any(|&n| n > 0))
    }

    /// A table for the terminal: the varied values, battles, each side's
    /// win rate in percent with its 95% interval, with morale (the base
    /// scenario plays it, or some side broke) each side's retreat and
    /// surrender rates, then draws, timeouts, then the mean duration in
    /// the units that compare across timing systems (game seconds, `-`
    /// where the text gives none; rounds begun) and in the system's own
    /// ticks, in aligned columns; under it, a line per timing system of
    /// the table saying what its tick and round are.
    pub fn summary_text(&self) -> String {
        let morale = self.shows_morale();
        let mut head: Vec<String> = self.layout.axes.clone();
        head.push("battles".to_owned());
        for side in &self.layout.sides {
            head.push(format!("win {side} (95%)"));
        }
        if morale {
            for side in &self.layout.sides {
                head.push(format!("retreat {side}"));
                head.push(format!("surrender {side}"));
            }
        }
        head.extend(["draw", "timeout", "mean seconds", "mean rounds", "mean ticks"].map(str::to_owned));
        let left = self.layout.axes.len();
        let mut rows = vec![head];
        for cell in &self.cells {
            let s = &cell.stats;
            let mut row = cell.values.clone();
            row.push(s.battles.to_string());
            for side in 0..self.layout.sides.len() {
                let (low, high) = s.win_interval(side);
                row.push(format!(
                    "{:.1}% [{:.1}, {:.1}]",
                    100.0 * s.win_rate(side),
                    100.0 * low,
                    100.0 * high
                ));
            }
            if morale {
                for side in 0..self.layout.sides.len() {
                    row.push(percent(s.retreats.get(side).copied().unwrap_or(0), s.battles));
                    row.push(percent(s.surrenders.get(side).copied().unwrap_or(0), s.battles));
                }
            }
            row.push(percent(s.draws, s.battles));
            row.push(percent(s.timeouts, s.battles));
            row.push(s.mean_seconds().map_or_else(|| "-".to_owned(), |x| format!("{x:.1}")));
            row.push(format!("{:.1}", s.mean_rounds()));
            row.push(format!("{:.1}", s.mean_ticks()));
            rows.push(row);
        }
        let widths: Vec<usize> = (0..rows[0].len())
            .map(|j| rows.iter().map(|r| r[j].chars().count()).max().unwrap_or(0))
            .collect();
        let mut out = String::new();
        for row in &rows {
            let mut line = String::new();
            for (j, text) in row.iter().enumerate() {
                if j > 0 {
                    line.push_str("  ");
                }
                let pad = widths[j] - text.chars().count();
                if j < left {
                    line.push_str(text);
                    line.extend(std::iter::repeat_n(' ', pad));
                } else {
                    line.extend(std::iter::repeat_n(' ', pad));
                    line.push_str(text);
                }
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
        let mut noted: Vec<&(&str, String)> = Vec::new();
        for unit in &self.units {
            if !noted.contains(&unit) {
                noted.push(unit);
            }
        }
        if !noted.is_empty() {
            out.push_str(
                "durations: game seconds compare across timing systems; rounds and ticks are each system's own\n",
            );
            let width = noted.iter().map(|(name, _)| name.chars().count()).max().unwrap_or(0);
            for (name, units) in noted {
                out.push_str(&format!("  {name:<width$}  {units}\n"));
            }
        }
        out
    }
}

pub(super) fn percent(count: u64, n: u64) -> String {
    format!("{:.1}%", 100.0 * ratio(count, n).unwrap_or(0.0))
}

pub(super) fn ratio(numerator: u64, denominator: u64) -> Option<f64> {
    (denominator > 0).then(|| numerator as f64 / denominator as f64)
}
