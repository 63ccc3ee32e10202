//! Reading and writing scenario files (TOML, JSON), with errors that say
//! where.

use std::fs::{File, Metadata};
use std::io::Read as _;
use std::path::Path;

use super::Scenario;
use super::error::{ScenarioError, ScenarioErrorKind, humanize, schema_path};

impl Scenario {
    /// A fingerprint of the scenario: 16 hex digits, the 64-bit FNV-1a
    /// hash of its JSON (fields in their fixed order, no whitespace). Two
    /// scenarios with the same rules, sides and caps have the same
    /// fingerprint on every platform; a sweep writes it in every row, and
    /// a resumed sweep refuses rows of another scenario.
    ///
    /// ```
    /// use skirmish_sim::scenario::Scenario;
    /// let a = Scenario::builtin("parity").unwrap();
    /// let b = a.with_field("sides.A.groups.0.strike_rating", "8").unwrap();
    /// assert_eq!(a.fingerprint().len(), 16);
    /// assert_eq!(a.fingerprint(), Scenario::builtin("parity").unwrap().fingerprint());
    /// assert_ne!(a.fingerprint(), b.fingerprint());
    /// ```
    pub fn fingerprint(&self) -> String {
        let mut hash = Fnv::new();
        // Serializing plain structs, enums, strings and numbers cannot fail.
        let _ = serde_json::to_writer(&mut hash, self);
        format!("{:016x}", hash.0)
    }

    /// A key telling the cells of a sweep apart, quickly: equal scenarios
    /// have equal keys. The FNV-1a hash of the JSON of every field but
    /// the sides, and of the sides too where they are not `base`'s. A
    /// sweep's cells mostly vary the rules, not the sides, and writing the
    /// sides was most of a fingerprint's cost.
    pub(crate) fn cell_key(&self, base: &Scenario) -> u64 {
        // Every field, by name: a field added to the scenario is a
        // compile error here until the key covers it.
        let Scenario {
            name,
            description,
            timing,
            striking,
            damage,
            battle,
            distance,
            sides,
        } = self;
        let mut hash = Fnv::new();
        let _ = serde_json::to_writer(&mut hash, &(name, description, timing, striking, damage, battle));
        if let Some(d) = distance {
            let _ = serde_json::to_writer(&mut hash, d);
        }
        if *sides == base.sides {
            hash.0 = !hash.0;
        } else {
            let _ = serde_json::to_writer(&mut hash, sides);
        }
        hash.0
    }

    /// Reads a scenario from TOML text and validates it.
    ///
    /// `origin` names the text in errors (a file path, `"built-in parity"`).
    ///
    /// # Errors
    /// A [`ScenarioError`] naming `origin`, the line and column, the field
    /// path and the problem: bad syntax, a wrong type, an unknown key, a
    /// missing field, or a value [`validate`](Scenario::validate) refuses.
    pub fn from_toml_str(src: &str, origin: &str) -> Result<Scenario, ScenarioError> {
        let de = toml::Deserializer::parse(src).map_err(|e| {
            let mut message = toml_message(&e);
            if message.starts_with("duplicate key")
                && let Some(key) = e.span().and_then(|span| src.get(span)).map(str::trim)
                && !key.is_empty()
                && !message.contains(key)
            {
                message = format!("duplicate key {key}: a key may appear only once in a table");
            }
            let span = e.span().map(|span| span.start);
            // toml refuses a dotted key of too many parts with no place:
            // find the key, so the error has its line and column.
            let deep = if span.is_none() && message == "recursion limit" {
                deepest_key(src)
            } else {
                None
            };
            if let Some((_, parts)) = deep {
                message = format!(
                    "a key of {parts} dotted parts (tables nested {parts} deep); TOML is read at most {} \
                     deep (recursion limit)",
                    TOML_DEPTH - 1
                );
            }
            let error = ScenarioError::new(ScenarioErrorKind::Syntax, "", message).with_origin(origin);
            match span.or(deep.map(|(at, _)| at)) {
                Some(at) => error.at_offset(src, at),
                None => error,
            }
        })?;
        let scenario: Scenario = serde_path_to_error::deserialize(de).map_err(|e| {
            let message = toml_message(e.inner());
            let (path, added_key) = schema_path(&path_text(e.path()), &message);
            let span = e.into_inner().span();
            let error = ScenarioError::new(ScenarioErrorKind::Schema, path.clone(), humanize(&message, &path))
                .with_origin(origin);
            match span {
                Some(span) if !added_key => error.at_offset(src, span.start),
                _ => locate_toml(error, src, added_key),
            }
        })?;
        scenario
            .validate()
            .map_err(|e| locate_toml(e.with_origin(origin), src, false))?;
        Ok(scenario)
    }

    /// Reads a scenario from JSON text and validates it.
    ///
    /// `origin` names the text in errors (a file path, say).
    ///
    /// # Errors
    /// As [`from_toml_str`](Scenario::from_toml_str).
    pub fn from_json_str(src: &str, origin: &str) -> Result<Scenario, ScenarioError> {
        let mut de = serde_json::Deserializer::from_str(src);
        let scenario: Scenario = serde_path_to_error::deserialize(&mut de).map_err(|e| {
            let message = e.inner().to_string();
            let (path, added_key) = schema_path(&path_text(e.path()), &message);
            let error = json_error(e.inner(), &path, origin);
            // serde_json reports where it stopped reading; the start of the
            // offending value is more use, as in TOML.
            if error.kind == ScenarioErrorKind::Schema || added_key {
                let at_key = super::error::strip_nested(&message).starts_with("unknown field");
                locate_json(error, src, at_key)
            } else {
                error
            }
        })?;
        de.end().map_err(|e| json_error(&e, "", origin))?;
        scenario
            .validate()
            .map_err(|e| locate_json(e.with_origin(origin), src, false))?;
        Ok(scenario)
    }

    /// Reads a scenario file: TOML for `.toml`, JSON for `.json` (case
    /// ignored), and validates it.
    ///
    /// Only a regular file (or a link to one) is read, and at most
    /// [`MAX_SCENARIO_BYTES`] of it: a FIFO, a device or a file that keeps
    /// growing is refused instead of blocking or filling memory.
    ///
    /// # Errors
    /// [`ScenarioErrorKind::Read`] if the file cannot be read, is not a
    /// regular file, is larger than [`MAX_SCENARIO_BYTES`], is not UTF-8 or
    /// has another extension; otherwise as
    /// [`from_toml_str`](Scenario::from_toml_str).
    pub fn load(path: &Path) -> Result<Scenario, ScenarioError> {
        let origin = path.display().to_string();
        let extension = path
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase)
            .unwrap_or_default();
        let read = |kind: &str| {
            read_bounded(path, kind)
                .map_err(|message| ScenarioError::new(ScenarioErrorKind::Read, "", message).with_origin(&origin))
        };
        match extension.as_str() {
            "toml" => Scenario::from_toml_str(&read("TOML")?, &origin),
            "json" => Scenario::from_json_str(&read("JSON")?, &origin),
            _ => Err(ScenarioError::new(
                ScenarioErrorKind::Read,
                "",
                "a scenario file must end in .toml or .json, to say which format it is in",
            )
            .with_origin(&origin)),
        }
    }

    /// The scenario as TOML; [`from_toml_str`](Scenario::from_toml_str)
    /// reads it back to an equal scenario.
    ///
    /// # Errors
    /// [`ScenarioErrorKind::Invalid`] if a value has no TOML form (a number
    /// above the largest TOML integer, 2^63 - 1).
    pub fn to_toml_string(&self) -> Result<String, ScenarioError> {
        toml::to_string(self)
            .map_err(|e| ScenarioError::invalid("", format!("cannot be written as TOML: {e}")).with_origin(&self.name))
    }

    /// The scenario as pretty-printed JSON;
    /// [`from_json_str`](Scenario::from_json_str) reads it back to an equal
    /// scenario.
    ///
    /// # Errors
    /// Not expected (every scenario has a JSON form); reported as
    /// [`ScenarioErrorKind::Invalid`] all the same.
    pub fn to_json_string(&self) -> Result<String, ScenarioError> {
        serde_json::to_string_pretty(self)
            .map_err(|e| ScenarioError::invalid("", format!("cannot be written as JSON: {e}")).with_origin(&self.name))
    }
}

/// FNV-1a over the bytes written: a JSON text's hash without the text (a
/// sweep takes one or two a cell before its first battle).
struct Fnv(u64);

impl Fnv {
    fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl std::io::Write for Fnv {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Largest scenario file [`Scenario::load`] reads: 4 MiB.
///
/// The limits allow at most [`MAX_GROUPS`](super::MAX_GROUPS) groups,
/// which fit in 4 MiB written with every common field (a name, a count,
/// ratings, skill, a weapon, armor, bonuses: up to about 250 bytes of TOML
/// each); the built-ins are under 4 KiB. A larger file is refused before
/// it is read. The bound is what keeps loading quick and small: TOML is
/// parsed whole before it is read as a scenario, so time and memory grow
/// with the file (measured in docs/reliability.md, "Bounds of every
/// input").
pub const MAX_SCENARIO_BYTES: u64 = 4 * 1024 * 1024;

/// The text of the scenario file at `path` (`kind` names its format in
/// messages), or why it cannot be read.
fn read_bounded(path: &Path, kind: &str) -> Result<String, String> {
    let cannot = |e: std::io::Error| format!("cannot read this {kind} file: {e}");
    // Look before opening: opening a FIFO for reading waits for a writer.
    let before = std::fs::metadata(path).map_err(cannot)?;
    regular_and_small(&before, kind)?;
    let file = File::open(path).map_err(cannot)?;
    // And look at what was opened, in case the path changed in between.
    regular_and_small(&file.metadata().map_err(cannot)?, kind)?;
    let mut bytes = Vec::new();
    // One byte more than the limit tells a file that grew past it.
    file.take(MAX_SCENARIO_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(cannot)?;
    if bytes.len() as u64 > MAX_SCENARIO_BYTES {
        return Err(too_large(kind, "it grew past that while being read"));
    }
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "this {kind} file is not UTF-8 text (an invalid byte at offset {}); save it as UTF-8",
            e.utf8_error().valid_up_to()
        )
    })
}

/// Refuses what is not a regular file or is over [`MAX_SCENARIO_BYTES`].
fn regular_and_small(metadata: &Metadata, kind: &str) -> Result<(), String> {
    let file_type = metadata.file_type();
    if !file_type.is_file() {
        return Err(format!(
            "is {}, not a regular file; a {kind} scenario must be a file (a pipe, device or folder could block or \
             never end)",
            what_it_is(&file_type)
        ));
    }
    if metadata.len() > MAX_SCENARIO_BYTES {
        return Err(too_large(kind, &format!("this one has {} bytes", metadata.len())));
    }
    Ok(())
}

fn too_large(kind: &str, detail: &str) -> String {
    format!("this {kind} file is larger than a scenario may be: at most {MAX_SCENARIO_BYTES} bytes (4 MiB), {detail}")
}

/// What a path that is not a regular file is, in words.
fn what_it_is(file_type: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt as _;
        if file_type.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if file_type.is_socket() {
            return "a socket";
        }
        if file_type.is_char_device() {
            return "a character device";
        }
        if file_type.is_block_device() {
            return "a block device";
        }
    }
    if file_type.is_dir() {
        "a folder"
    } else {
        "not a regular file"
    }
}

/// A path as [`ScenarioError::path`] writes it (`""` for the root).
pub(crate) fn path_text(path: &serde_path_to_error::Path) -> String {
    let text = path.to_string();
    if text == "." { String::new() } else { text }
}

/// The toml parser's nesting limit: a key of this many dotted parts, or
/// values nested this deep, are refused.
const TOML_DEPTH: usize = 80;

/// The byte offset of the first key (a table header's or a `key = value`'s)
/// of at least [`TOML_DEPTH`] dotted parts, with its number of parts.
/// Quoted parts are skipped whole, so a `.` inside quotes does not count.
fn deepest_key(src: &str) -> Option<(usize, usize)> {
    let mut offset = 0;
    for line in src.split_inclusive('\n') {
        let start = offset;
        offset += line.len();
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();
        let key = trimmed.trim_start_matches('[');
        let mut parts = 1;
        let mut quote = None;
        for c in key.chars() {
            match (quote, c) {
                (Some(q), c) if c == q => quote = None,
                (Some(_), _) => {}
                (None, '"' | '\'') => quote = Some(c),
                (None, '.') => parts += 1,
                (None, ']' | '=' | '#') => break,
                _ => {}
            }
        }
        if parts >= TOML_DEPTH {
            return Some((start + indent, parts));
        }
    }
    None
}

/// toml's message without its own rendering of the source.
fn toml_message(e: &toml::de::Error) -> String {
    e.message().trim().replace('\n', "; ")
}

/// A serde_json error as a [`ScenarioError`] at `path`.
pub(crate) fn json_error(e: &serde_json::Error, path: &str, origin: &str) -> ScenarioError {
    use serde_json::error::Category;
    let kind = match e.classify() {
        Category::Syntax | Category::Eof => ScenarioErrorKind::Syntax,
        Category::Data | Category::Io => ScenarioErrorKind::Schema,
    };
    let mut message = e.to_string();
    let suffix = format!(" at line {} column {}", e.line(), e.column());
    if let Some(stripped) = message.strip_suffix(&suffix) {
        message = stripped.to_owned();
    }
    let mut error = ScenarioError::new(kind, path, humanize(&message, path)).with_origin(origin);
    if e.line() > 0 {
        error.line = Some(e.line());
        error.column = Some(e.column().max(1));
    }
    error
}

/// Splits a field path (`sides[0].groups[1].count`, `sides.0.count`) into
/// its segments.
pub(crate) fn segments(path: &str) -> Vec<String> {
    let mut out = Vec::new();
    for piece in path.split('.') {
        let mut rest = piece;
        if let Some(open) = rest.find('[') {
            if open > 0 {
                out.push(rest[..open].to_owned());
            }
            rest = &rest[open..];
            while let Some(inner) = rest.strip_prefix('[') {
                match inner.find(']') {
                    Some(close) => {
                        out.push(inner[..close].to_owned());
                        rest = &inner[close + 1..];
                    }
                    None => {
                        out.push(inner.to_owned());
                        rest = "";
                    }
                }
            }
            if !rest.is_empty() {
                out.push(rest.to_owned());
            }
        } else {
            out.push(rest.to_owned());
        }
    }
    out
}

/// Puts the position of the field an error names (or of the nearest
/// enclosing one found) into it, looking it up in the TOML source: the
/// start of its value, or of its key with `at_key` (for unknown keys).
fn locate_toml(mut error: ScenarioError, src: &str, at_key: bool) -> ScenarioError {
    let Ok(root) = toml::de::DeTable::parse(src) else {
        return error;
    };
    let mut span = root.span();
    let root = toml::de::DeValue::Table(root.into_inner());
    let mut here = &root;
    let path = segments(&error.path);
    for (i, segment) in path.iter().enumerate() {
        let next = match (segment.parse::<usize>(), here) {
            (Ok(index), toml::de::DeValue::Array(_)) => here.get(index).map(|value| (None, value)),
            (_, toml::de::DeValue::Table(table)) => table
                .get_key_value(segment.as_str())
                .map(|(key, value)| (Some(key.span()), value)),
            _ => None,
        };
        match next {
            Some((key_span, value)) => {
                span = match key_span {
                    Some(key_span) if at_key && i + 1 == path.len() => key_span,
                    _ => value.span(),
                };
                here = value.get_ref();
            }
            None => break,
        }
    }
    if error.path.is_empty() {
        return error;
    }
    error.line = None;
    error.column = None;
    error.at_offset(src, span.start)
}

/// As [`locate_toml`], in JSON source.
fn locate_json(error: ScenarioError, src: &str, at_key: bool) -> ScenarioError {
    let mut scan = JsonScan {
        src: src.as_bytes(),
        at: 0,
        at_key,
    };
    match scan.locate(&segments(&error.path)) {
        Some(offset) if !error.path.is_empty() => {
            let mut error = error;
            error.line = None;
            error.column = None;
            error.at_offset(src, offset)
        }
        _ => error,
    }
}

/// A minimal JSON walker that finds where a value starts. It only runs on
/// text serde_json has already accepted, and gives up (`None`) on anything
/// odd rather than guess.
struct JsonScan<'a> {
    src: &'a [u8],
    at: usize,
    /// Whether to give the start of the last key rather than of its value.
    at_key: bool,
}

impl JsonScan<'_> {
    fn skip_ws(&mut self) {
        while self.src.get(self.at).is_some_and(|b| b.is_ascii_whitespace()) {
            self.at += 1;
        }
    }

    fn peek(&self) -> Option<u8> {
        self.src.get(self.at).copied()
    }

    fn eat(&mut self, byte: u8) -> Option<()> {
        self.skip_ws();
        (self.peek()? == byte).then(|| self.at += 1)
    }

    /// The offset of the deepest value along `path` that exists.
    fn locate(&mut self, path: &[String]) -> Option<usize> {
        self.skip_ws();
        let start = self.at;
        let Some((segment, rest)) = path.split_first() else {
            return Some(start);
        };
        match self.peek()? {
            b'{' => {
                self.at += 1;
                loop {
                    self.skip_ws();
                    if self.peek()? == b'}' {
                        return Some(start);
                    }
                    self.skip_ws();
                    let key_start = self.at;
                    let key = self.string()?;
                    self.eat(b':')?;
                    if &key == segment {
                        if rest.is_empty() && self.at_key {
                            return Some(key_start);
                        }
                        return self.locate(rest);
                    }
                    self.skip_value()?;
                    self.skip_ws();
                    match self.peek()? {
                        b',' => self.at += 1,
                        _ => return Some(start),
                    }
                }
            }
            b'[' => {
                let wanted: usize = segment.parse().ok()?;
                self.at += 1;
                for _ in 0..wanted {
                    self.skip_value()?;
                    self.eat(b',')?;
                }
                self.locate(rest)
            }
            _ => Some(start),
        }
    }

    /// A string's decoded text; the cursor after it.
    fn string(&mut self) -> Option<String> {
        self.skip_ws();
        let start = self.at;
        if self.peek()? != b'"' {
            return None;
        }
        self.at += 1;
        loop {
            match self.peek()? {
                b'\\' => self.at += 2,
                b'"' => {
                    self.at += 1;
                    break;
                }
                _ => self.at += 1,
            }
        }
        let raw = std::str::from_utf8(self.src.get(start..self.at)?).ok()?;
        serde_json::from_str(raw).ok()
    }

    fn skip_value(&mut self) -> Option<()> {
        self.skip_ws();
        match self.peek()? {
            b'"' => self.string().map(|_| ()),
            open @ (b'{' | b'[') => {
                let close = if open == b'{' { b'}' } else { b']' };
                self.at += 1;
                self.skip_ws();
                if self.peek()? == close {
                    self.at += 1;
                    return Some(());
                }
                loop {
                    if open == b'{' {
                        self.string()?;
                        self.eat(b':')?;
                    }
                    self.skip_value()?;
                    self.skip_ws();
                    match self.peek()? {
                        b',' => self.at += 1,
                        b if b == close => {
                            self.at += 1;
                            return Some(());
                        }
                        _ => return None,
                    }
                }
            }
            _ => {
                while self
                    .peek()
                    .is_some_and(|b| !matches!(b, b',' | b'}' | b']') && !b.is_ascii_whitespace())
                {
                    self.at += 1;
                }
                Some(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_split_into_segments() {
        assert_eq!(
            segments("sides[0].groups[12].count"),
            ["sides", "0", "groups", "12", "count"]
        );
        assert_eq!(segments("sides.A.groups.0"), ["sides", "A", "groups", "0"]);
        assert_eq!(segments("timing"), ["timing"]);
    }

    #[test]
    fn json_values_are_found() {
        let src = "{\"a\": 1, \"sides\": [ {\"name\": \"x\\\"y\", \"n\": [1, {\"b\": 2}]},\n  {\"count\": -3} ]}";
        let find = |path: &str| {
            let mut scan = JsonScan {
                src: src.as_bytes(),
                at: 0,
                at_key: false,
            };
            scan.locate(&segments(path)).map(|at| &src[at..at + 2])
        };
        assert_eq!(find("a"), Some("1,"));
        assert_eq!(find("sides[1].count"), Some("-3"));
        assert_eq!(find("sides[0].n[1].b"), Some("2}"));
        assert_eq!(find("sides[1].missing"), Some("{\""));
    }

    #[test]
    fn equal_cells_share_a_key_and_the_usual_differences_do_not() {
        let base = Scenario::builtin("goblin-ambush").unwrap();
        let tick = base.with_field("timing", "tick-system").unwrap();
        // Another spelling, the same scenario: the same key.
        let again = base.with_field("timing", "tick_system").unwrap();
        assert_eq!(tick, again);
        assert_eq!(tick.cell_key(&base), again.cell_key(&base));
        // A copy of the base's sides and the base's own: the same key.
        let mut copied = tick.clone();
        copied.sides = base.sides.clone();
        assert_eq!(copied.cell_key(&base), tick.cell_key(&base));
        // Rules or sides changed: another key.
        let stronger = tick.with_field("sides.party.groups.0.strike_rating", "9").unwrap();
        assert_ne!(stronger.cell_key(&base), tick.cell_key(&base));
        assert_ne!(base.cell_key(&base), tick.cell_key(&base));
        // Sides equal to each other but not to the base's: the same key.
        let stronger_again = again.with_field("sides.party.groups.0.strike_rating", "9").unwrap();
        assert_eq!(stronger_again.cell_key(&base), stronger.cell_key(&base));
    }
}
