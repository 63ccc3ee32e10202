//! The schema: every column's name, type and value, in one list
//! ([`Layout`]), so the CSV, the JSON, the columns and the checkpoint's
//! reading all follow the same order.

use std::collections::HashSet;

use super::SweepError;
use super::format::{csv_text, field_text};
use super::table::{Cell, CellStats, ratio};
use crate::stats;

/// A value of one cell in one column.
#[derive(Debug, Clone, Copy)]
pub(super) enum Value<'a> {
    Str(&'a str),
    U64(u64),
    /// An integer that may be undefined (an empty field, JSON `null`).
    OptU64(Option<u64>),
    F64(Option<f64>),
}

pub(super) enum ValueType {
    Str,
    U64,
    OptU64,
    F64,
}

/// Which of a rate's three columns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Bound {
    Rate,
    Low,
    High,
}

/// What a column holds: the single source of the schema's order, names,
/// types and values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    Axis(usize),
    Battles,
    WinRate(usize, Bound),
    DrawRate(Bound),
    TimeoutRate(Bound),
    MeanSeconds,
    MeanTicks,
    MedianTicks,
    P90Ticks,
    MeanRounds,
    MeanActions,
    HitRate,
    AmazingStrikeRate,
    AmazingDefenseRate,
    MeanDisruptions,
    Wins(usize),
    Draws,
    Timeouts,
    TotalSeconds,
    TotalTicks,
    TotalRounds,
    TotalActions,
    TotalHits,
    TotalAmazingStrikes,
    TotalAmazingDefenses,
    TotalDisruptions,
    // Schema 2: morale.
    RetreatRate(usize, Bound),
    SurrenderRate(usize, Bound),
    Retreats(usize),
    Surrenders(usize),
    Seed,
    Scenario,
}

/// What every row of a table shares: the master seed and the base
/// scenario's [fingerprint](crate::scenario::Scenario::fingerprint).
#[derive(Debug, Clone, Copy)]
pub(super) struct Meta<'a> {
    pub(super) seed: u64,
    pub(super) scenario: &'a str,
}

pub(super) fn rate_value(count: u64, n: u64, bound: Bound) -> Value<'static> {
    let (low, high) = stats::wilson(count, n);
    Value::F64(match bound {
        Bound::Rate => ratio(count, n),
        Bound::Low => Some(low),
        Bound::High => Some(high),
    })
}

impl Kind {
    /// The schema version that brought the column
    /// ([`SCHEMA_VERSION`](super::SCHEMA_VERSION) is the latest).
    pub(super) fn since(self) -> u32 {
        match self {
            Kind::MeanSeconds
            | Kind::TotalSeconds
            | Kind::RetreatRate(..)
            | Kind::SurrenderRate(..)
            | Kind::Retreats(_)
            | Kind::Surrenders(_) => 2,
            _ => 1,
        }
    }

    pub(super) fn value_type(self) -> ValueType {
        match self {
            Kind::Axis(_) | Kind::Scenario => ValueType::Str,
            Kind::WinRate(..)
            | Kind::DrawRate(_)
            | Kind::TimeoutRate(_)
            | Kind::MeanSeconds
            | Kind::MeanTicks
            | Kind::MeanRounds
            | Kind::MeanActions
            | Kind::HitRate
            | Kind::AmazingStrikeRate
            | Kind::AmazingDefenseRate
            | Kind::MeanDisruptions
            | Kind::RetreatRate(..)
            | Kind::SurrenderRate(..) => ValueType::F64,
            Kind::TotalSeconds => ValueType::OptU64,
            _ => ValueType::U64,
        }
    }

    pub(super) fn value<'a>(self, cell: &'a Cell, meta: Meta<'a>) -> Value<'a> {
        let s = &cell.stats;
        let n = s.battles;
        match self {
            Kind::Axis(i) => Value::Str(cell.values.get(i).map_or("", String::as_str)),
            Kind::Battles => Value::U64(n),
            Kind::WinRate(side, bound) => rate_value(s.wins.get(side).copied().unwrap_or(0), n, bound),
            Kind::DrawRate(bound) => rate_value(s.draws, n, bound),
            Kind::TimeoutRate(bound) => rate_value(s.timeouts, n, bound),
            Kind::MeanSeconds => Value::F64(s.total_seconds.and_then(|t| ratio(t, n))),
            Kind::MeanTicks => Value::F64(ratio(s.total_ticks, n)),
            Kind::MedianTicks => Value::U64(s.median_ticks),
            Kind::P90Ticks => Value::U64(s.p90_ticks),
            Kind::MeanRounds => Value::F64(ratio(s.total_rounds, n)),
            Kind::MeanActions => Value::F64(ratio(s.total_actions, n)),
            Kind::HitRate => Value::F64(ratio(s.total_hits, s.total_actions)),
            Kind::AmazingStrikeRate => Value::F64(ratio(s.total_amazing_strikes, s.total_actions)),
            Kind::AmazingDefenseRate => Value::F64(ratio(s.total_amazing_defenses, s.total_actions)),
            Kind::MeanDisruptions => Value::F64(ratio(s.total_disruptions, n)),
            Kind::Wins(side) => Value::U64(s.wins.get(side).copied().unwrap_or(0)),
            Kind::Draws => Value::U64(s.draws),
            Kind::Timeouts => Value::U64(s.timeouts),
            Kind::TotalSeconds => Value::OptU64(s.total_seconds),
            Kind::TotalTicks => Value::U64(s.total_ticks),
            Kind::TotalRounds => Value::U64(s.total_rounds),
            Kind::TotalActions => Value::U64(s.total_actions),
            Kind::TotalHits => Value::U64(s.total_hits),
            Kind::TotalAmazingStrikes => Value::U64(s.total_amazing_strikes),
            Kind::TotalAmazingDefenses => Value::U64(s.total_amazing_defenses),
            Kind::TotalDisruptions => Value::U64(s.total_disruptions),
            Kind::RetreatRate(side, bound) => rate_value(s.retreats.get(side).copied().unwrap_or(0), n, bound),
            Kind::SurrenderRate(side, bound) => rate_value(s.surrenders.get(side).copied().unwrap_or(0), n, bound),
            Kind::Retreats(side) => Value::U64(s.retreats.get(side).copied().unwrap_or(0)),
            Kind::Surrenders(side) => Value::U64(s.surrenders.get(side).copied().unwrap_or(0)),
            Kind::Seed => Value::U64(meta.seed),
            Kind::Scenario => Value::Str(meta.scenario),
        }
    }
}

/// A side's name as it appears in column names.
pub(super) fn column_name_of_side(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect()
}

/// The columns of a sweep: names and kinds in schema order.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Layout {
    pub(super) axes: Vec<String>,
    pub(super) sides: Vec<String>,
    pub(super) columns: Vec<(String, Kind)>,
}

impl Layout {
    pub(super) fn new(axes: Vec<String>, sides: Vec<String>) -> Result<Layout, SweepError> {
        let side_cols: Vec<String> = sides.iter().map(|s| column_name_of_side(s)).collect();
        let mut columns: Vec<(String, Kind)> = Vec::new();
        for (i, path) in axes.iter().enumerate() {
            columns.push((path.clone(), Kind::Axis(i)));
        }
        columns.push(("battles".to_owned(), Kind::Battles));
        let bounds = [(Bound::Rate, ""), (Bound::Low, "_low"), (Bound::High, "_high")];
        for (side, col) in side_cols.iter().enumerate() {
            for (bound, suffix) in bounds {
                columns.push((format!("win_rate_{col}{suffix}"), Kind::WinRate(side, bound)));
            }
        }
        for (bound, suffix) in bounds {
            columns.push((format!("draw_rate{suffix}"), Kind::DrawRate(bound)));
        }
        for (bound, suffix) in bounds {
            columns.push((format!("timeout_rate{suffix}"), Kind::TimeoutRate(bound)));
        }
        let named = |name: &str, kind| (name.to_owned(), kind);
        columns.extend([
            named("mean_seconds", Kind::MeanSeconds),
            named("mean_ticks", Kind::MeanTicks),
            named("median_ticks", Kind::MedianTicks),
            named("p90_ticks", Kind::P90Ticks),
            named("mean_rounds", Kind::MeanRounds),
            named("mean_actions", Kind::MeanActions),
            named("hit_rate", Kind::HitRate),
            named("amazing_strike_rate", Kind::AmazingStrikeRate),
            named("amazing_defense_rate", Kind::AmazingDefenseRate),
            named("mean_disruptions", Kind::MeanDisruptions),
        ]);
        for (side, col) in side_cols.iter().enumerate() {
            columns.push((format!("wins_{col}"), Kind::Wins(side)));
        }
        columns.extend([
            named("draws", Kind::Draws),
            named("timeouts", Kind::Timeouts),
            named("total_seconds", Kind::TotalSeconds),
            named("total_ticks", Kind::TotalTicks),
            named("total_rounds", Kind::TotalRounds),
            named("total_actions", Kind::TotalActions),
            named("total_hits", Kind::TotalHits),
            named("total_amazing_strikes", Kind::TotalAmazingStrikes),
            named("total_amazing_defenses", Kind::TotalAmazingDefenses),
            named("total_disruptions", Kind::TotalDisruptions),
        ]);
        // Schema 2: morale, per side: the retreat and surrender rates with
        // their intervals, then the counts.
        for (side, col) in side_cols.iter().enumerate() {
            for (bound, suffix) in bounds {
                columns.push((format!("retreat_rate_{col}{suffix}"), Kind::RetreatRate(side, bound)));
            }
            for (bound, suffix) in bounds {
                columns.push((
                    format!("surrender_rate_{col}{suffix}"),
                    Kind::SurrenderRate(side, bound),
                ));
            }
        }
        for (side, col) in side_cols.iter().enumerate() {
            columns.push((format!("retreats_{col}"), Kind::Retreats(side)));
            columns.push((format!("surrenders_{col}"), Kind::Surrenders(side)));
        }
        columns.extend([named("seed", Kind::Seed), named("scenario_fingerprint", Kind::Scenario)]);
        let mut seen = HashSet::new();
        for (name, _) in &columns {
            if !seen.insert(name.as_str()) {
                return Err(SweepError::Invalid(format!(
                    "column {name:?} appears twice: an axis path may not be a statistics column's name, and side \
                     names must stay distinct in lowercase with non-alphanumerics as `_` (sides: {sides:?})"
                )));
            }
        }
        Ok(Layout { axes, sides, columns })
    }

    /// The column names, in schema order.
    pub(super) fn header_fields(&self) -> Vec<String> {
        self.columns.iter().map(|(name, _)| name.clone()).collect()
    }

    /// The column names schema `version` had for this sweep, in its order
    /// (the columns it had kept their order as later ones were added).
    pub(super) fn header_fields_of(&self, version: u32) -> Vec<String> {
        self.columns
            .iter()
            .filter(|(_, kind)| kind.since() <= version)
            .map(|(name, _)| name.clone())
            .collect()
    }

    /// The header as one CSV line (no line end).
    pub(super) fn header_line(&self) -> String {
        line_of(&self.header_fields())
    }

    /// A cell's fields as the CSV writes them, in schema order.
    pub(super) fn row_fields(&self, cell: &Cell, meta: Meta<'_>) -> Vec<String> {
        self.columns
            .iter()
            .map(|(_, kind)| field_text(kind.value(cell, meta)))
            .collect()
    }

    /// A cell's row as one CSV line (no line end).
    pub(super) fn row_line(&self, cell: &Cell, meta: Meta<'_>) -> String {
        line_of(&self.row_fields(cell, meta))
    }

    /// Rebuilds a cell from one of its CSV rows (fields already split),
    /// with the row's seed and scenario fingerprint.
    pub(super) fn parse_row(
        &self,
        fields: &[String],
        sides: usize,
    ) -> Result<(Vec<String>, CellStats, u64, String), String> {
        if fields.len() != self.columns.len() {
            return Err(format!(
                "{} fields, the header has {}",
                fields.len(),
                self.columns.len()
            ));
        }
        let mut values = vec![String::new(); self.axes.len()];
        let mut stats = CellStats {
            battles: 0,
            wins: vec![0; sides],
            draws: 0,
            timeouts: 0,
            total_ticks: 0,
            median_ticks: 0,
            p90_ticks: 0,
            total_rounds: 0,
            total_seconds: None,
            total_actions: 0,
            total_hits: 0,
            total_amazing_strikes: 0,
            total_amazing_defenses: 0,
            total_disruptions: 0,
            retreats: vec![0; sides],
            surrenders: vec![0; sides],
        };
        let mut seed = 0;
        let mut scenario = String::new();
        for ((name, kind), text) in self.columns.iter().zip(fields) {
            match kind {
                Kind::Axis(i) => {
                    values[*i] = text.clone();
                    continue;
                }
                Kind::Scenario => {
                    scenario = text.clone();
                    continue;
                }
                _ => {}
            }
            if let Kind::TotalSeconds = kind {
                stats.total_seconds = if text.is_empty() {
                    None
                } else {
                    Some(
                        text.parse()
                            .map_err(|_| format!("{name}: {text:?} is not a whole number or empty"))?,
                    )
                };
                continue;
            }
            if !matches!(kind.value_type(), ValueType::U64) {
                continue;
            }
            let x: u64 = text
                .parse()
                .map_err(|_| format!("{name}: {text:?} is not a whole number"))?;
            let slot = match kind {
                Kind::Battles => &mut stats.battles,
                Kind::MedianTicks => &mut stats.median_ticks,
                Kind::P90Ticks => &mut stats.p90_ticks,
                Kind::Wins(side) => &mut stats.wins[*side],
                Kind::Draws => &mut stats.draws,
                Kind::Timeouts => &mut stats.timeouts,
                Kind::TotalTicks => &mut stats.total_ticks,
                Kind::TotalRounds => &mut stats.total_rounds,
                Kind::TotalActions => &mut stats.total_actions,
                Kind::TotalHits => &mut stats.total_hits,
                Kind::TotalAmazingStrikes => &mut stats.total_amazing_strikes,
                Kind::TotalAmazingDefenses => &mut stats.total_amazing_defenses,
                Kind::TotalDisruptions => &mut stats.total_disruptions,
                Kind::Retreats(side) => &mut stats.retreats[*side],
                Kind::Surrenders(side) => &mut stats.surrenders[*side],
                Kind::Seed => &mut seed,
                _ => continue,
            };
            *slot = x;
        }
        let outcomes = stats
            .wins
            .iter()
            .try_fold(u128::from(stats.draws) + u128::from(stats.timeouts), |acc, &w| {
                Some(acc + u128::from(w))
            })
            .unwrap_or(0);
        if outcomes != u128::from(stats.battles) {
            return Err(format!(
                "wins, draws and timeouts add up to {outcomes}, not the {} battles",
                stats.battles
            ));
        }
        // A side that broke did not win that battle.
        for (side, name) in self.sides.iter().enumerate() {
            let ended =
                u128::from(stats.wins[side]) + u128::from(stats.retreats[side]) + u128::from(stats.surrenders[side]);
            if ended > u128::from(stats.battles) {
                return Err(format!(
                    "side {name:?}'s wins, retreats and surrenders add up to {ended}, more than the {} battles",
                    stats.battles
                ));
            }
        }
        Ok((values, stats, seed, scenario))
    }
}

/// One CSV record as a line, without its line end.
pub(super) fn line_of(fields: &[String]) -> String {
    let mut text = csv_text([fields]);
    text.pop();
    text
}
