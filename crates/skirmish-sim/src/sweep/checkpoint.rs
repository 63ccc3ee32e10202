//! The checkpoint: the CSV file a sweep appends each finished cell to, and
//! its reading back on resume (header, rows matched to cells, checks that a
//! row is this sweep's and reproduces its own text, a torn last line
//! dropped).

use std::collections::HashMap;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Write as _};
use std::path::{Path, PathBuf};

use super::format::csv_reader;
use super::output::{check_output, io_error, output_target, resolve_output, write_output};
use super::schema::{Layout, Meta, line_of};
use super::table::{Cell, CellStats};
use super::{SweepError, SweepSpec, describe_values};
use crate::stats;

/// The checkpoint file, open for appending rows.
pub(super) struct Checkpoint {
    /// The path as given (errors name it).
    pub(super) path: PathBuf,
    pub(super) file: File,
}

impl Checkpoint {
    /// Opens (resuming: reads back, then rewrites cleanly) the checkpoint,
    /// filling `done` with the reused cells.
    pub(super) fn open(
        path: &Path,
        layout: &Layout,
        spec: &SweepSpec,
        meta: Meta<'_>,
        resume: bool,
        done: &mut [Option<CellStats>],
    ) -> Result<Checkpoint, SweepError> {
        // Refuses a FIFO, device, folder or hard-linked file, and an
        // unwritable folder, before reading or writing anything.
        check_output(path)?;
        let header = layout.header_line();
        let mut text = header.clone();
        text.push('\n');
        if resume {
            let rows = read_checkpoint(path, layout, spec, meta, &header, done.len())?;
            // Canonical order, without a torn line, before appending.
            for (cell, line, stats) in rows {
                text.push_str(&line);
                text.push('\n');
                done[cell] = Some(stats);
            }
        }
        write_output(path, text.as_bytes())?;
        // The header was just written to the resolved target: append there
        // (through a symlink, to the file the link names).
        let target = resolve_output(path).map_err(io_error(path))?;
        let file = OpenOptions::new().append(true).open(&target).map_err(io_error(path))?;
        Ok(Checkpoint {
            path: path.to_owned(),
            file,
        })
    }

    pub(super) fn append(&mut self, line: &str) -> Result<(), SweepError> {
        let mut bytes = Vec::with_capacity(line.len() + 1);
        bytes.extend_from_slice(line.as_bytes());
        bytes.push(b'\n');
        self.file.write_all(&bytes).map_err(io_error(&self.path))?;
        self.file.flush().map_err(io_error(&self.path))?;
        self.file.sync_data().map_err(io_error(&self.path))
    }
}

/// The reusable rows of an existing checkpoint, in cell order.
pub(super) fn read_checkpoint(
    path: &Path,
    layout: &Layout,
    spec: &SweepSpec,
    meta: Meta<'_>,
    header: &str,
    cells: usize,
) -> Result<Vec<(usize, String, CellStats)>, SweepError> {
    let bytes = match fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(io_error(path)(e)),
    };
    // A file saved by an editor may start with a UTF-8 byte order mark and
    // end its lines with "\r\n": both are read as the plain text.
    let bytes = bytes.strip_prefix(UTF8_BOM).unwrap_or(&bytes);
    // Only lines ending in '\n' are whole; anything after the last one is
    // a write torn by a kill, and is recomputed.
    let whole = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let mismatch = |found: &[u8]| SweepError::HeaderMismatch {
        path: path.to_owned(),
        expected: header.to_owned(),
        found: String::from_utf8_lossy(found).into_owned(),
    };
    if whole == 0 {
        // No whole line: a header torn while being written is no work.
        return if header.as_bytes().starts_with(bytes) {
            Ok(Vec::new())
        } else {
            Err(mismatch(bytes))
        };
    }
    let first_line = bytes.split(|&b| b == b'\n').next().unwrap_or_default();
    let first_line = first_line.strip_suffix(b"\r").unwrap_or(first_line);
    let mut reader = csv_reader(&bytes[..whole]);
    let mut records = reader.byte_records();
    match records.next() {
        Some(Ok(record)) if record.iter().eq(layout.header_fields().iter().map(String::as_bytes)) => {}
        _ => return Err(mismatch(first_line)),
    }
    let index: HashMap<Vec<String>, usize> = (0..cells).map(|c| (spec.cell_values(c), c)).collect();
    let sides = layout.sides.len();
    let mut rows: Vec<Option<(String, CellStats)>> = vec![None; index.len()];
    for record in records {
        let line_no = |e: &csv::Error| e.position().map_or(0, |p| p.line() as usize);
        let record = record.map_err(|e| SweepError::Checkpoint {
            path: path.to_owned(),
            line: line_no(&e),
            message: e.to_string(),
        })?;
        let line_no = record.position().map_or(0, |p| p.line() as usize);
        let bad = |message: String| SweepError::Checkpoint {
            path: path.to_owned(),
            line: line_no,
            message,
        };
        let fields = record
            .iter()
            .map(|f| std::str::from_utf8(f).map(str::to_owned))
            .collect::<Result<Vec<String>, _>>()
            .map_err(|_| bad("not UTF-8 text".to_owned()))?;
        let (values, stats, seed, scenario) = layout.parse_row(&fields, sides).map_err(&bad)?;
        let Some(&cell) = index.get(&values) else {
            return Err(bad(format!(
                "values ({}) are not a cell of this sweep",
                describe_values(&spec.pairs(&values))
            )));
        };
        if seed != meta.seed {
            return Err(bad(format!(
                "was run with seed {seed}, this sweep has seed {}",
                meta.seed
            )));
        }
        if scenario != meta.scenario {
            return Err(bad(format!(
                "was run on another scenario (fingerprint {scenario}, this sweep's is {}): the scenario changed \
                 since; restore it, or start afresh without resuming",
                meta.scenario
            )));
        }
        if stats.battles != spec.battles {
            return Err(bad(format!(
                "was run with {} battles per cell, this sweep has {}",
                stats.battles, spec.battles
            )));
        }
        let rebuilt = layout.row_fields(
            &Cell {
                values,
                stats: stats.clone(),
            },
            Meta {
                seed,
                scenario: &scenario,
            },
        );
        if rebuilt != fields {
            return Err(bad(
                "the row's statistics do not follow from its counts (edited?)".to_owned()
            ));
        }
        percentiles_plausible(&stats).map_err(&bad)?;
        if rows[cell].is_some() {
            return Err(bad(format!("cell {cell} appears twice")));
        }
        rows[cell] = Some((line_of(&fields), stats));
    }
    Ok(rows
        .into_iter()
        .enumerate()
        .filter_map(|(cell, row)| row.map(|(line, stats)| (cell, line, stats)))
        .collect())
}

/// The byte order mark an editor may put before a UTF-8 file.
pub(super) const UTF8_BOM: &[u8] = b"\xEF\xBB\xBF";

/// Checks what a row's median and 90th percentile can be checked against:
/// the median is at most the 90th percentile, and by nearest rank at least
/// `n - rank + 1` battles lasted as long as a percentile, so the total
/// duration is at least that many times it. The percentiles themselves
/// cannot be recomputed from a row (it keeps sums, not the durations).
pub(super) fn percentiles_plausible(s: &CellStats) -> Result<(), String> {
    if s.median_ticks > s.p90_ticks {
        return Err(format!(
            "median_ticks {} is above p90_ticks {} (edited?)",
            s.median_ticks, s.p90_ticks
        ));
    }
    for (name, value, percent) in [("median_ticks", s.median_ticks, 50), ("p90_ticks", s.p90_ticks, 90)] {
        let at_least = s.battles - stats::nearest_rank(s.battles, percent) + 1;
        if u128::from(value) * u128::from(at_least) > u128::from(s.total_ticks) {
            return Err(format!(
                "{name} {value} cannot be: {at_least} of the {} battles would last that long, more than \
                 total_ticks {} (edited?)",
                s.battles, s.total_ticks
            ));
        }
    }
    Ok(())
}

/// What an existing output file at `path` holds that writing this sweep
/// over it would lose: `None` when it does not exist, is empty, or holds
/// only this sweep's header (a checkpoint with no finished cell); else a
/// description ("12 finished cells of this sweep", "content that is not
/// this sweep's checkpoint"). A byte order mark and CRLF line ends are read
/// as in a resume.
pub fn existing_work(path: &Path, spec: &SweepSpec) -> Result<Option<String>, SweepError> {
    // Refuses a FIFO, device or folder before reading it.
    let (target, _) = output_target(path).map_err(io_error(path))?;
    let bytes = match fs::read(target) {
        Ok(b) => b,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(io_error(path)(e)),
    };
    let bytes = bytes.strip_prefix(UTF8_BOM).unwrap_or(&bytes);
    if bytes.is_empty() {
        return Ok(None);
    }
    let sides = spec.scenario.sides.iter().map(|s| s.name.clone()).collect();
    let layout = Layout::new(spec.axes.iter().map(|a| a.path.clone()).collect(), sides)?;
    let header_fields = layout.header_fields();
    let header = layout.header_line();
    let mut reader = csv_reader(bytes);
    let mut records = reader.byte_records();
    let is_header = matches!(records.next(), Some(Ok(r)) if r.iter().eq(header_fields.iter().map(String::as_bytes)));
    if !is_header {
        return Ok(if header.as_bytes().starts_with(bytes) {
            None
        } else {
            Some("content that is not this sweep's checkpoint".to_owned())
        });
    }
    let rows = records.count();
    Ok((rows > 0).then(|| format!("{rows} finished cell{} of this sweep", if rows == 1 { "" } else { "s" })))
}
