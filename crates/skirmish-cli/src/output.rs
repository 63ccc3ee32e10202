//! Output formats shared by the verbs: aligned text, CSV, JSON.

use std::fmt::Write as _;
use std::io::Write as _;

/// Writes `text` to standard output. A reader that stops early (`skirmish
/// run --trace | head`) closes the pipe; that ends the program quietly
/// ([`ClosedPipe`]) instead of as an error.
pub(crate) fn emit(text: &str) -> Result<(), Box<dyn std::error::Error>> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Err(Box::new(ClosedPipe)),
        other => Ok(other?),
    }
}

/// Standard output was closed by its reader: not a failure.
#[derive(Debug)]
pub(crate) struct ClosedPipe;

impl std::fmt::Display for ClosedPipe {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("standard output was closed")
    }
}

impl std::error::Error for ClosedPipe {}

/// How a verb prints a table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Format {
    /// Aligned columns for a terminal.
    Text,
    /// Comma-separated values with a header row.
    Csv,
    /// A JSON array of objects, one per row.
    Json,
}

/// A table of strings with a header, printable in every [`Format`].
#[derive(Debug, Default)]
pub(crate) struct Table {
    pub(crate) header: Vec<String>,
    pub(crate) rows: Vec<Vec<String>>,
    /// Columns aligned right in text (numbers).
    pub(crate) right: Vec<bool>,
}

impl Table {
    pub(crate) fn new(header: &[&str]) -> Table {
        Table {
            header: header.iter().map(|s| s.to_string()).collect(),
            rows: Vec::new(),
            right: vec![false; header.len()],
        }
    }

    pub(crate) fn right_align(mut self, cols: &[usize]) -> Table {
        for &c in cols {
            self.right[c] = true;
        }
        self
    }

    pub(crate) fn push(&mut self, row: Vec<String>) {
        self.rows.push(row);
    }

    pub(crate) fn render(&self, format: Format) -> String {
        match format {
            Format::Text => self.text(),
            Format::Csv => self.csv(),
            Format::Json => self.json(),
        }
    }

    fn text(&self) -> String {
        let mut widths: Vec<usize> = self.header.iter().map(|h| h.chars().count()).collect();
        for row in &self.rows {
            for (i, cell) in row.iter().enumerate() {
                widths[i] = widths[i].max(cell.chars().count());
            }
        }
        let mut out = String::new();
        let line = |out: &mut String, cells: &[String]| {
            let mut s = String::new();
            for (i, cell) in cells.iter().enumerate() {
                if i > 0 {
                    s.push_str("  ");
                }
                if self.right[i] {
                    let _ = write!(s, "{cell:>w$}", w = widths[i]);
                } else {
                    let _ = write!(s, "{cell:<w$}", w = widths[i]);
                }
            }
            out.push_str(s.trim_end());
            out.push('\n');
        };
        line(&mut out, &self.header);
        let rule: Vec<String> = widths.iter().map(|w| "-".repeat(*w)).collect();
        line(&mut out, &rule);
        for row in &self.rows {
            line(&mut out, row);
        }
        out
    }

    fn csv(&self) -> String {
        let esc = |s: &str| {
            if s.contains([',', '"', '\n']) {
                format!("\"{}\"", s.replace('"', "\"\""))
            } else {
                s.to_string()
            }
        };
        let mut out = String::new();
        for row in std::iter::once(&self.header).chain(&self.rows) {
            let cells: Vec<String> = row.iter().map(|c| esc(c)).collect();
            out.push_str(&cells.join(","));
            out.push('\n');
        }
        out
    }

    fn json(&self) -> String {
        let rows: Vec<serde_json::Map<String, serde_json::Value>> = self
            .rows
            .iter()
            .map(|row| {
                self.header
                    .iter()
                    .zip(row)
                    .map(|(h, c)| {
                        let v = c
                            .parse::<i64>()
                            .map(serde_json::Value::from)
                            .or_else(|_| c.parse::<f64>().map(serde_json::Value::from))
                            .unwrap_or_else(|_| serde_json::Value::from(c.as_str()));
                        (h.clone(), v)
                    })
                    .collect()
            })
            .collect();
        let mut s = serde_json::to_string_pretty(&rows).unwrap_or_default();
        s.push('\n');
        s
    }
}
