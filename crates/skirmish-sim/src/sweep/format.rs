//! The text of the outputs: the one place that decides how a value is
//! written. CSV goes through the `csv` crate (quoting only where a field
//! holds a comma, a quote or a line break; `\n` line ends) and JSON through
//! `serde_json` with a formatter that lays the array out as documented (one
//! object per line, `", "` between members) and writes every float with
//! [`FLOAT_DECIMALS`] digits, as the CSV does. The numbers' text is made
//! here once ([`field_text`]) so the two outputs cannot disagree.

use std::io;

use serde::ser::{Serialize, SerializeMap as _, SerializeSeq as _, Serializer as _};
use serde_json::ser::{CharEscape, Formatter};

use super::FLOAT_DECIMALS;
use super::schema::Value;

/// A float as the outputs write it.
pub(super) fn float_text(x: f64) -> String {
    format!("{x:.prec$}", prec = FLOAT_DECIMALS)
}

/// A value's CSV field: text as is, integers in decimal, floats with
/// [`FLOAT_DECIMALS`] digits, an undefined rate empty.
pub(super) fn field_text(value: Value<'_>) -> String {
    match value {
        Value::Str(s) => s.to_owned(),
        Value::U64(x) | Value::OptU64(Some(x)) => x.to_string(),
        Value::OptU64(None) => String::new(),
        Value::F64(Some(x)) => float_text(x),
        Value::F64(None) => String::new(),
    }
}

/// A CSV writer with the schema's conventions (`\n` line ends, quotes only
/// where needed).
pub(super) fn csv_writer<W: io::Write>(out: W) -> csv::Writer<W> {
    csv::WriterBuilder::new()
        .terminator(csv::Terminator::Any(b'\n'))
        .quote_style(csv::QuoteStyle::Necessary)
        .from_writer(out)
}

/// CSV records (each a list of fields), each ending in `\n`.
pub(super) fn csv_text<R, F>(records: impl IntoIterator<Item = R>) -> String
where
    R: IntoIterator<Item = F>,
    F: AsRef<[u8]>,
{
    let mut writer = csv_writer(Vec::new());
    for record in records {
        // Writing to memory cannot fail.
        let _ = writer.write_record(record);
    }
    let bytes = writer.into_inner().unwrap_or_default();
    // Every field is UTF-8 text, and so is the CSV of them.
    String::from_utf8(bytes).unwrap_or_default()
}

/// A CSV reader of a checkpoint: no header handling (the sweep compares
/// the first record itself), any line end, records of any length (a wrong
/// count is reported with the row's line).
pub(super) fn csv_reader(bytes: &[u8]) -> csv::Reader<&[u8]> {
    csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(bytes)
}

/// The rows of a table as JSON: an array of one object per row, keys in
/// schema order, one row per line.
pub(super) fn json_text(rows: &[Vec<(&str, Value<'_>)>]) -> String {
    let mut out = Vec::new();
    let mut ser = serde_json::Serializer::with_formatter(&mut out, JsonLayout);
    let written = (|| -> Result<(), serde_json::Error> {
        let mut seq = ser.serialize_seq(Some(rows.len()))?;
        for row in rows {
            seq.serialize_element(&JsonRow(row))?;
        }
        serde::ser::SerializeSeq::end(seq)
    })();
    // Writing to memory cannot fail, and every value is serializable.
    debug_assert!(written.is_ok(), "{written:?}");
    out.push(b'\n');
    // serde_json writes UTF-8.
    String::from_utf8(out).unwrap_or_default()
}

/// One row, as a JSON object.
struct JsonRow<'r, 'a>(&'r [(&'a str, Value<'a>)]);

impl Serialize for JsonRow<'_, '_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for &(name, value) in self.0 {
            match value {
                Value::Str(s) => map.serialize_entry(name, s)?,
                Value::U64(x) => map.serialize_entry(name, &x)?,
                Value::OptU64(x) => map.serialize_entry(name, &x)?,
                Value::F64(x) => map.serialize_entry(name, &x)?,
            }
        }
        map.end()
    }
}

/// The documented JSON layout: `[`, each object on its own line indented
/// by two spaces, members separated by `", "`, `]`; floats with
/// [`FLOAT_DECIMALS`] digits; control characters other than `\n`, `\r` and
/// `\t` as `\u00XX`.
struct JsonLayout;

impl Formatter for JsonLayout {
    fn write_f64<W: ?Sized + io::Write>(&mut self, writer: &mut W, value: f64) -> io::Result<()> {
        writer.write_all(float_text(value).as_bytes())
    }

    fn write_char_escape<W: ?Sized + io::Write>(&mut self, writer: &mut W, escape: CharEscape) -> io::Result<()> {
        let text = match escape {
            CharEscape::Quote => "\\\"".to_owned(),
            CharEscape::ReverseSolidus => "\\\\".to_owned(),
            CharEscape::Solidus => "/".to_owned(),
            CharEscape::LineFeed => "\\n".to_owned(),
            CharEscape::CarriageReturn => "\\r".to_owned(),
            CharEscape::Tab => "\\t".to_owned(),
            CharEscape::Backspace => "\\u0008".to_owned(),
            CharEscape::FormFeed => "\\u000c".to_owned(),
            CharEscape::AsciiControl(b) => format!("\\u{b:04x}"),
        };
        writer.write_all(text.as_bytes())
    }

    fn end_array<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        writer.write_all(b"\n]")
    }

    fn begin_array_value<W: ?Sized + io::Write>(&mut self, writer: &mut W, first: bool) -> io::Result<()> {
        writer.write_all(if first { b"\n  " } else { b",\n  " })
    }

    fn begin_object_key<W: ?Sized + io::Write>(&mut self, writer: &mut W, first: bool) -> io::Result<()> {
        if first { Ok(()) } else { writer.write_all(b", ") }
    }

    fn begin_object_value<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        writer.write_all(b": ")
    }
}
