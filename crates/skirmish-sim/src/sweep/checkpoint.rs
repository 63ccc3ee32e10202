//! The checkpoint: the CSV file a sweep appends each finished cell to, and
//! its reading back on resume.
//!
//! A checkpoint in progress is the final table's CSV with one more column,
//! `row_check`: 16 hex digits of a 64-bit FNV-1a hash of the row's other
//! fields (as one canonical CSV line) keyed by this sweep's header. A row
//! edited or damaged by hand (a value relabelled to another cell, a count,
//! a percentile) no longer matches its check and is refused; nothing in a
//! row can be changed without the check noticing, short of computing it
//! anew on purpose. The final file, rewritten when every cell is done, is
//! the documented schema without the column. Rows without a check (that
//! final file, or a checkpoint of an earlier version) cannot be verified,
//! and are the user's finished work: resuming refuses such a file before
//! writing anything ([`SweepError::Checkpoint`], line 1), rather than
//! fighting its cells again over it. A partial last line of a checkpoint (a
//! kill mid-write) is dropped and its cell fought again; [`plan_resume`]
//! tells a front end both before the battles.

use std::collections::HashMap;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Write as _};
use std::path::{Path, PathBuf};

use super::format::csv_reader;
use super::output::{check_output, io_error, output_target, resolve_output, write_output};
use super::schema::{Layout, Meta, line_of};
use super::table::{Cell, CellStats};
use super::{SCHEMA_VERSION, SweepError, SweepSpec, describe_values};
use crate::stats;

/// The checkpoint's extra last column.
pub(super) const ROW_CHECK: &str = "row_check";

/// The row check of a row (its canonical CSV line, without the check) of
/// the sweep whose final header line is `header`: 16 lowercase hex digits
/// of the 64-bit FNV-1a hash of `"skirmish sweep row v1\n"`, the header,
/// `"\n"` and the line. Public so that a front end appending rows of its
/// own (the Python package's Dask sweep) computes it here, not again.
pub fn row_check(header: &str, line: &str) -> String {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    let mut hash = OFFSET;
    for part in [
        b"skirmish sweep row v1\n".as_slice(),
        header.as_bytes(),
        b"\n",
        line.as_bytes(),
    ] {
        for &byte in part {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(PRIME);
        }
    }
    format!("{hash:016x}")
}

/// A checkpoint's header: the final header and [`ROW_CHECK`].
pub(super) fn checkpoint_header(layout: &Layout) -> Vec<String> {
    let mut fields = layout.header_fields();
    fields.push(ROW_CHECK.to_owned());
    fields
}

/// The checkpoint file, open for appending rows.
pub(super) struct Checkpoint {
    /// The path as given (errors name it).
    pub(super) path: PathBuf,
    pub(super) file: File,
    /// The final header line, the key of every row check.
    header: String,
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
        let mut text = line_of(&checkpoint_header(layout));
        text.push('\n');
        if resume {
            let reading = read_checkpoint(path, layout, spec, meta, done.len())?;
            // Canonical order, without a torn line, before appending.
            for (cell, line, stats) in reading.rows {
                push_checked(&mut text, &header, &line);
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
            header,
        })
    }

    /// Appends a finished cell's row (its CSV line) with its row check,
    /// flushed and synced.
    pub(super) fn append(&mut self, line: &str) -> Result<(), SweepError> {
        let mut text = String::with_capacity(line.len() + 18);
        push_checked(&mut text, &self.header, line);
        self.file.write_all(text.as_bytes()).map_err(io_error(&self.path))?;
        self.file.flush().map_err(io_error(&self.path))?;
        self.file.sync_data().map_err(io_error(&self.path))
    }
}

/// `line,check\n` (a check is hex digits: the CSV needs no quoting).
fn push_checked(out: &mut String, header: &str, line: &str) {
    out.push_str(line);
    out.push(',');
    out.push_str(&row_check(header, line));
    out.push('\n');
}

/// What resuming from a checkpoint will do: found by reading it as a
/// resume does (so with the same errors), for a front end to tell its user
/// before the battles start.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ResumePlan {
    /// Finished cells whose rows pass every check: reused. (A file whose
    /// rows carry no row check, a finished output or a checkpoint of an
    /// earlier version, is not planned: [`plan_resume`] refuses it.)
    pub reused: usize,
    /// The file ends in a partial line (a write cut short by a kill): it
    /// is dropped and its cell fought again.
    pub torn_line: bool,
}

impl ResumePlan {
    /// Sentences for the user about what is not reused and why (none when
    /// every row is reused as it is).
    pub fn notes(&self) -> Vec<String> {
        let mut notes = Vec::new();
        if self.torn_line {
            notes.push(
                "the last line is incomplete (a write cut short): it is dropped and its cell fought again".to_owned(),
            );
        }
        notes
    }
}

/// What a resume will do with the checkpoint at `path` for `spec`: the
/// file is read and checked exactly as [`run_sweep`](super::run_sweep)
/// reads it when resuming (a missing file is an empty plan), so an error
/// here is the error the sweep would give, before any battle.
pub fn plan_resume(path: &Path, spec: &SweepSpec) -> Result<ResumePlan, SweepError> {
    let cells = spec.validate()?;
    let sides = spec.scenario.sides.iter().map(|s| s.name.clone()).collect();
    let layout = Layout::new(spec.axes.iter().map(|a| a.path.clone()).collect(), sides)?;
    let fingerprint = spec.scenario.fingerprint();
    let meta = Meta {
        seed: spec.seed,
        scenario: &fingerprint,
    };
    // Refuses a FIFO, device or folder before reading it.
    output_target(path).map_err(io_error(path))?;
    let cells = usize::try_from(cells).map_err(|_| SweepError::Invalid("too many cells".to_owned()))?;
    let reading = read_checkpoint(path, &layout, spec, meta, cells)?;
    Ok(ResumePlan {
        reused: reading.rows.len(),
        torn_line: reading.torn_line,
    })
}

/// A checkpoint read back.
#[derive(Debug, Default)]
pub(super) struct Reading {
    /// The reusable rows, in cell order: cell, canonical line (without its
    /// check), statistics.
    pub(super) rows: Vec<(usize, String, CellStats)>,
    /// Whether a partial last line was dropped.
    pub(super) torn_line: bool,
}

/// Reads an existing checkpoint back (a missing one has no rows). A file
/// with the final header (no `row_check` column) and at least one row is
/// refused: its rows cannot be verified, and rewriting the file as a new
/// checkpoint would destroy them.
pub(super) fn read_checkpoint(
    path: &Path,
    layout: &Layout,
    spec: &SweepSpec,
    meta: Meta<'_>,
    cells: usize,
) -> Result<Reading, SweepError> {
    let bytes = match fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Reading::default()),
        Err(e) => return Err(io_error(path)(e)),
    };
    // A file saved by an editor may start with a UTF-8 byte order mark and
    // end its lines with "\r\n": both are read as the plain text.
    let bytes = bytes.strip_prefix(UTF8_BOM).unwrap_or(&bytes);
    // Only lines ending in '\n' are whole; anything after the last one is
    // a write torn by a kill, and is recomputed.
    let whole = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let checked_header = checkpoint_header(layout);
    let final_header = layout.header_fields();
    let expected = line_of(&checked_header);
    let mismatch = |found: &[u8]| SweepError::HeaderMismatch {
        path: path.to_owned(),
        expected: expected.clone(),
        found: String::from_utf8_lossy(found).into_owned(),
    };
    if whole == 0 {
        // No whole line: a header torn while being written is no work.
        return if expected.as_bytes().starts_with(bytes) {
            Ok(Reading::default())
        } else {
            Err(mismatch(bytes))
        };
    }
    let first_line = bytes.split(|&b| b == b'\n').next().unwrap_or_default();
    let first_line = first_line.strip_suffix(b"\r").unwrap_or(first_line);
    let mut reader = csv_reader(&bytes[..whole]);
    let mut records = reader.byte_records();
    let same = |record: &csv::ByteRecord, fields: &[String]| record.iter().eq(fields.iter().map(String::as_bytes));
    let checked = match records.next() {
        Some(Ok(record)) if same(&record, &checked_header) => true,
        Some(Ok(record)) if same(&record, &final_header) => false,
        Some(Ok(record)) => {
            return Err(match older_schema(layout, &record) {
                Some(version) => old_schema(path, version),
                None => mismatch(first_line),
            });
        }
        _ => return Err(mismatch(first_line)),
    };
    if !checked {
        let rows = records.count();
        if rows > 0 {
            return Err(unverifiable(path, rows));
        }
        return Ok(Reading {
            rows: Vec::new(),
            torn_line: whole < bytes.len(),
        });
    }
    let header = layout.header_line();
    let index: HashMap<Vec<String>, usize> = (0..cells).map(|c| (spec.cell_values(c), c)).collect();
    let sides = layout.sides.len();
    let mut rows: Vec<Option<(usize, String, CellStats)>> = vec![None; index.len()];
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
        let mut fields = record
            .iter()
            .map(|f| std::str::from_utf8(f).map(str::to_owned))
            .collect::<Result<Vec<String>, _>>()
            .map_err(|_| bad("not UTF-8 text".to_owned()))?;
        // Every row of a checkpoint carries its check.
        if fields.len() != checked_header.len() {
            return Err(bad(format!(
                "{} fields, the header has {}",
                fields.len(),
                checked_header.len()
            )));
        }
        let check = fields.pop().unwrap_or_default();
        let line = line_of(&fields);
        if check != row_check(&header, &line) {
            return Err(bad(format!(
                "{ROW_CHECK} {check:?} does not match the row: it was edited or damaged after it was written \
                 (a value, count or percentile changed, or the row relabelled to another cell), so it \
                 cannot be reused; delete the line to fight its cell again, or start afresh"
            )));
        }
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
                values: values.clone(),
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
        if let Some((first, _, _)) = &rows[cell] {
            return Err(bad(format!(
                "cell {cell} ({}) appears twice, first on line {first}: a row was copied; delete one",
                describe_values(&spec.pairs(&values))
            )));
        }
        rows[cell] = Some((line_no, line_of(&fields), stats));
    }
    let rows = rows
        .into_iter()
        .enumerate()
        .filter_map(|(cell, row)| row.map(|(_, line, stats)| (cell, line, stats)))
        .collect();
    Ok(Reading {
        rows,
        torn_line: whole < bytes.len(),
    })
}

/// The refusal of a file holding `rows` rows without row checks: a
/// finished sweep's output, or a checkpoint of an earlier version.
fn unverifiable(path: &Path, rows: usize) -> SweepError {
    SweepError::Checkpoint {
        path: path.to_owned(),
        line: 1,
        message: format!(
            "the header has no {ROW_CHECK} column: the file holds {rows} finished row{s} without row checks (a \
             finished sweep's output, or a checkpoint of an earlier version); {they} cannot be verified, so {they} \
             {are} not reused, and the file is left as it is. To fight the sweep again from the start, run it \
             without resuming over this file (the skirmish command's --force, force=True in Python), or write \
             to another file (--out)",
            s = if rows == 1 { "" } else { "s" },
            they = if rows == 1 { "it" } else { "they" },
            are = if rows == 1 { "is" } else { "are" },
        ),
    }
}

/// The earlier schema version whose header (final, or a checkpoint's with
/// [`ROW_CHECK`]) `record` is for this sweep, if any.
fn older_schema(layout: &Layout, record: &csv::ByteRecord) -> Option<u32> {
    (1..SCHEMA_VERSION).rev().find(|&version| {
        let mut fields = layout.header_fields_of(version);
        if record.iter().eq(fields.iter().map(String::as_bytes)) {
            return true;
        }
        fields.push(ROW_CHECK.to_owned());
        record.iter().eq(fields.iter().map(String::as_bytes))
    })
}

/// The refusal of a checkpoint written under sweep schema `version`, older
/// than this one's.
fn old_schema(path: &Path, version: u32) -> SweepError {
    SweepError::Checkpoint {
        path: path.to_owned(),
        line: 1,
        message: format!(
            "the file is of sweep schema {version}, this sweep writes schema {SCHEMA_VERSION} (schema 2 added the \
             game seconds, mean_seconds and total_seconds, and the retreat and surrender columns of morale); its rows \
             cannot be reused, and the file is left as it is. To fight the sweep again from the start, run it without \
             resuming over this file (the skirmish command's --force, force=True in Python), or write to another \
             file (--out)"
        ),
    }
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
/// description ("12 finished cells of this sweep", "8 finished cells of
/// this sweep without row checks (a finished sweep's output, …)", "content
/// that is not this sweep's checkpoint"). Whether `--resume` could continue
/// the file instead is [`plan_resume`]'s answer (it refuses a finished
/// output). A byte order mark and CRLF line ends are read as in a resume.
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
    let checked_header = checkpoint_header(&layout);
    let header = line_of(&checked_header);
    let mut reader = csv_reader(bytes);
    let mut records = reader.byte_records();
    let first = records.next();
    let is_header = matches!(&first, Some(Ok(r))
        if r.iter().eq(header_fields.iter().map(String::as_bytes))
            || r.iter().eq(checked_header.iter().map(String::as_bytes)));
    if !is_header {
        let mut reader = csv_reader(bytes);
        let mut old = reader.byte_records();
        if let Some(Ok(record)) = old.next()
            && let Some(version) = older_schema(&layout, &record)
        {
            let rows = old.count();
            return Ok(Some(format!(
                "a sweep of schema {version} (this sweep writes schema {SCHEMA_VERSION}: --resume cannot continue it) \
                 with {rows} finished cell{}",
                if rows == 1 { "" } else { "s" }
            )));
        }
        return Ok(if header.as_bytes().starts_with(bytes) {
            None
        } else {
            Some("content that is not this sweep's checkpoint".to_owned())
        });
    }
    let rows = records.count();
    let checked = first_record_is(bytes, &checked_header);
    let plural = if rows == 1 { "" } else { "s" };
    Ok((rows > 0).then(|| {
        if checked {
            format!("{rows} finished cell{plural} of this sweep")
        } else {
            format!(
                "{rows} finished cell{plural} of this sweep without row checks (a finished sweep's output, or a \
                 checkpoint of an earlier version: --resume cannot continue it)"
            )
        }
    }))
}

/// Whether the first record of `bytes` is exactly `fields`.
fn first_record_is(bytes: &[u8], fields: &[String]) -> bool {
    let mut reader = csv_reader(bytes);
    matches!(reader.byte_records().next(), Some(Ok(r)) if r.iter().eq(fields.iter().map(String::as_bytes)))
}
