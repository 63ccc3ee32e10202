//! Tab completion for `skirmish track` at a terminal: command words,
//! combatant names and the words a command takes (its options, `kept` or
//! `lost`, stance names, ...).
//!
//! Nothing here lists a command: the command words are the parser's
//! [`command::VERBS`], and what each command takes is read from its usage
//! lines in [`command::GRAMMAR`] (the text `help` prints), so a command
//! added to the parser and its help completes with no change here. In a
//! usage line `WHO` and `TARGET` are combatants, `SIDE` a side, `COMMAND` a
//! command word, `FILE` a file; a lower-case word is typed as it is
//! (`kept | lost`); `[word ...]` is an option; the choices of `stance`,
//! `shield`, `aim` and `position` are the core's own name lists.

use std::collections::BTreeMap;

use rustyline::completion::{FilenameCompleter, Pair};
use skirmish_core::striking::opposed::{Aim, Position, ShieldSize, Stance};

use super::command;

/// What the session knows now that completion offers: names as typed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Live {
    /// Every combatant's name, in the encounter's order.
    pub(crate) combatants: Vec<String>,
    /// Every side's name.
    pub(crate) sides: Vec<String>,
}

/// A command's words as its usage lines give them.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
struct Shape {
    /// By position after the command word: the usage tokens each position
    /// takes (`WHO`, `N`, `add`, `none`, ...), from every form of the command.
    positions: Vec<Vec<String>>,
    /// Positions every form of the command has (not in brackets).
    required: usize,
    /// Option words, each with the usage tokens of the value it takes (none
    /// for a flag).
    options: Vec<Opt>,
}

/// An option word of a command.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
struct Opt {
    word: String,
    /// The usage tokens of the value it takes (none for a flag).
    value: Vec<String>,
    /// The option it belongs to (`wall` to `shield`): it may follow only that
    /// option, or another of the same.
    parent: Option<String>,
}

impl Shape {
    fn option(&self, word: &str) -> Option<&Opt> {
        self.options.iter().find(|o| o.word.eq_ignore_ascii_case(word))
    }

    fn add_option(&mut self, word: &str, value: Vec<String>, parent: Option<&str>) {
        if self.option(word).is_none() {
            self.options.push(Opt {
                word: word.to_string(),
                value,
                parent: parent.map(str::to_string),
            });
        }
    }
}

/// A piece of a usage line: a word, or a bracketed group.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Item {
    Word(String),
    Group(Vec<Item>),
}

/// Reads a usage text into words and bracketed groups.
fn items(text: &str) -> Vec<Item> {
    fn group(chars: &mut std::iter::Peekable<std::str::Chars<'_>>) -> Vec<Item> {
        let mut out = Vec::new();
        let mut word = String::new();
        while let Some(c) = chars.next() {
            match c {
                '[' => {
                    flush(&mut word, &mut out);
                    out.push(Item::Group(group(chars)));
                }
                ']' => break,
                c if c.is_whitespace() => flush(&mut word, &mut out),
                c => word.push(c),
            }
        }
        flush(&mut word, &mut out);
        out
    }
    fn flush(word: &mut String, out: &mut Vec<Item>) {
        if !word.is_empty() {
            out.push(Item::Word(std::mem::take(word)));
        }
    }
    group(&mut text.chars().peekable())
}

/// A word of a usage line that is typed as it is (not a placeholder).
fn literal(word: &str) -> bool {
    word.starts_with(|c: char| c.is_ascii_lowercase())
}

/// A placeholder of a usage line: `N`, `N/K`, `WHO`.
fn placeholder(word: &str) -> bool {
    !word.is_empty()
        && word.starts_with(|c: char| c.is_ascii_uppercase())
        && word
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '/')
}

/// The options in `group` (a bracketed `[word VALUE ...]`, in `parent`'s
/// group if nested) and in the groups nested in it.
fn group_options(group: &[Item], parent: Option<&str>, shape: &mut Shape) {
    let mut this = parent;
    if let Some(Item::Word(word)) = group.first()
        && literal(word)
    {
        let value = match group.get(1) {
            Some(Item::Word(v)) => v.split('|').map(str::to_string).collect(),
            _ => Vec::new(),
        };
        shape.add_option(word, value, parent);
        this = Some(word);
    }
    for item in group {
        if let Item::Group(inner) = item {
            group_options(inner, this, shape);
        }
    }
}

/// Adds one form of a command (its usage without the command word).
fn add_form(rest: &[Item], shape: &mut Shape) {
    let mut at = 0;
    let mut required = 0;
    for item in rest {
        let tokens = match item {
            Item::Word(w) => {
                required += 1;
                w.split('|').map(str::to_string).collect()
            }
            // An optional position: `[N]`, `[COMMAND]`.
            Item::Group(g) if matches!(g.first(), Some(Item::Word(w)) if !literal(w)) => match &g[0] {
                Item::Word(w) => w.split('|').map(str::to_string).collect(),
                Item::Group(_) => Vec::new(),
            },
            Item::Group(g) => {
                group_options(g, None, shape);
                continue;
            }
        };
        if shape.positions.len() <= at {
            shape.positions.push(Vec::new());
        }
        for t in tokens {
            if !shape.positions[at].contains(&t) {
                shape.positions[at].push(t);
            }
        }
        at += 1;
    }
    shape.required = shape.required.min(required);
}

/// The options of a line of a table of options (`      tt N   Time Taken:
/// ...   rof N/K   rate of fire`): its columns that are a word and a
/// placeholder, or words to choose from (`disruptible | steady`).
fn table_options(line: &str, shape: &mut Shape) {
    for column in line.split("  ").map(str::trim).filter(|c| !c.is_empty()) {
        let words: Vec<&str> = column.split_whitespace().collect();
        match words.as_slice() {
            [word, value] if literal(word) && placeholder(value) => {
                shape.add_option(word, vec![value.to_string()], None);
            }
            _ if words
                .iter()
                .step_by(2)
                .all(|w| literal(w) && !w.ends_with([',', ':', ';', ')']))
                && words.iter().skip(1).step_by(2).all(|w| *w == "|") =>
            {
                for w in words.iter().step_by(2) {
                    shape.add_option(w, Vec::new(), None);
                }
            }
            _ => {}
        }
    }
}

/// Every command's shape, read from [`command::GRAMMAR`].
fn shapes() -> BTreeMap<String, Shape> {
    let mut shapes: BTreeMap<String, Shape> = BTreeMap::new();
    // The command words of the last command line, for its continuation lines.
    let mut verbs: Vec<String> = Vec::new();
    for line in command::GRAMMAR.lines() {
        let indent = line.len() - line.trim_start().len();
        if indent == 2 {
            // A command line: its command column, alternatives apart.
            verbs.clear();
            let column = line.trim().split("   ").next().unwrap_or_default();
            let mut previous: Vec<String> = Vec::new();
            for alternative in column.split(" | ") {
                let words: Vec<String> = alternative.split_whitespace().map(str::to_string).collect();
                let form = match words.first() {
                    Some(first) if command::VERBS.contains(&first.as_str()) => words,
                    // `init WHO roll N | total N`: the end of the form before.
                    _ if previous.len() > words.len() => {
                        let mut form = previous[..previous.len() - words.len()].to_vec();
                        form.extend(words);
                        form
                    }
                    _ => continue,
                };
                let verb = form[0].clone();
                let shape = shapes.entry(verb.clone()).or_insert_with(|| Shape {
                    required: usize::MAX,
                    ..Shape::default()
                });
                add_form(&items(&form[1..].join(" ")), shape);
                if !verbs.contains(&verb) {
                    verbs.push(verb);
                }
                previous = form;
            }
        } else if indent > 2 {
            for verb in &verbs {
                let Some(shape) = shapes.get_mut(verb) else {
                    continue;
                };
                let text = line.trim();
                if text.starts_with('[') {
                    // More options of the usage: `[point-blank] [mod N]`.
                    for item in items(text) {
                        if let Item::Group(g) = item {
                            group_options(&g, None, shape);
                        }
                    }
                } else if indent == 6 {
                    table_options(line, shape);
                }
            }
        } else {
            verbs.clear();
        }
    }
    for shape in shapes.values_mut() {
        if shape.required == usize::MAX {
            shape.required = 0;
        }
    }
    shapes
}

/// The line up to the cursor, read as the parser splits it: the words
/// before the one being typed, and that one.
#[derive(Debug, Default, PartialEq, Eq)]
struct Lexed {
    /// The whole words before the cursor, unquoted.
    words: Vec<String>,
    /// Where the word being typed starts (its opening quote, if any).
    start: usize,
    /// The word being typed, unquoted (empty after a space).
    partial: String,
    /// The cursor is in a comment.
    comment: bool,
}

fn lex(line: &str) -> Lexed {
    let mut lexed = Lexed::default();
    let mut word: Option<String> = None;
    let mut quote: Option<char> = None;
    let mut chars = line.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some('"'), '\\') => {
                if let Some((_, next)) = chars.next() {
                    word.get_or_insert_default().push(next);
                }
            }
            (Some(_), c) => word.get_or_insert_default().push(c),
            (None, c) if c.is_whitespace() => {
                if let Some(w) = word.take() {
                    lexed.words.push(w);
                }
            }
            (None, c) => {
                if word.is_none() {
                    lexed.start = i;
                    if c == '#' && chars.peek().is_some_and(|(_, n)| !n.is_ascii_digit()) {
                        lexed.comment = true;
                        return lexed;
                    }
                }
                let w = word.get_or_insert_default();
                match c {
                    '"' | '\'' => quote = Some(c),
                    '\\' => {
                        if let Some((_, next)) = chars.next() {
                            w.push(next);
                        }
                    }
                    c => w.push(c),
                }
            }
        }
    }
    match word {
        Some(w) => lexed.partial = w,
        None => lexed.start = line.len(),
    }
    lexed
}

/// A name as the parser reads it back as one word: quoted when it has a
/// space, a quote, a backslash or starts with `#`.
fn quoted(name: &str) -> String {
    let plain = !name.is_empty()
        && !name.starts_with('#')
        && !name.contains(|c: char| c.is_whitespace() || matches!(c, '"' | '\'' | '\\'));
    if plain {
        name.to_string()
    } else if !name.contains(['"', '\\']) {
        format!("\"{name}\"")
    } else {
        shlex::try_quote(name).map_or_else(|_| name.to_string(), |q| q.into_owned())
    }
}

/// What `skirmish track` completes: built once from the grammar, with the
/// session's names set before each line is read.
pub(crate) struct Completer {
    shapes: BTreeMap<String, Shape>,
    files: FilenameCompleter,
    /// The names of the session now.
    pub(crate) live: Live,
}

impl Default for Completer {
    fn default() -> Self {
        Completer {
            shapes: shapes(),
            files: FilenameCompleter::new(),
            live: Live::default(),
        }
    }
}

impl Completer {
    /// Where the word at `pos` in `line` starts and what it may become.
    pub(crate) fn complete(&self, line: &str, pos: usize) -> (usize, Vec<Pair>) {
        let lexed = lex(&line[..pos]);
        if lexed.comment {
            return (pos, Vec::new());
        }
        let Some(verb) = lexed.words.first() else {
            let verbs = command::VERBS.iter().map(|v| v.to_string()).collect::<Vec<_>>();
            return (lexed.start, words(&verbs, &lexed.partial));
        };
        let verb = verb.to_lowercase();
        let Some(shape) = self.shapes.get(command::canonical(&verb)) else {
            return (lexed.start, Vec::new());
        };
        // Walk the words typed: positions first, then options and their
        // values; `group` is the option whose nested options may follow.
        let mut at = 0;
        let mut value_of: Option<&Opt> = None;
        let mut group: Option<&str> = None;
        for word in &lexed.words[1..] {
            if value_of.take().is_some() {
                continue;
            }
            if at >= shape.required
                && let Some(o) = shape.option(word)
            {
                if o.parent.is_none() {
                    group = Some(&o.word);
                }
                if !o.value.is_empty() {
                    value_of = Some(o);
                }
                continue;
            }
            group = None;
            at += 1;
        }
        let mut tokens: Vec<(&str, Option<&str>)> = Vec::new();
        match value_of {
            Some(o) => tokens.extend(o.value.iter().map(|t| (t.as_str(), Some(o.word.as_str())))),
            None => {
                if let Some(position) = shape.positions.get(at) {
                    tokens.extend(position.iter().map(|t| (t.as_str(), None)));
                }
                if at >= shape.required {
                    let open = |o: &&Opt| o.parent.is_none() || o.parent.as_deref() == group;
                    tokens.extend(shape.options.iter().filter(open).map(|o| (o.word.as_str(), None)));
                }
            }
        }
        if tokens.iter().any(|(t, _)| *t == "FILE") {
            return self.files.complete_path(line, pos).unwrap_or((pos, Vec::new()));
        }
        let mut plain: Vec<String> = Vec::new();
        let mut names: Vec<String> = Vec::new();
        for (token, option) in tokens {
            match token {
                "WHO" | "TARGET" | "FOE" | "FOE..." => names.extend(self.live.combatants.iter().cloned()),
                "SIDE" => names.extend(self.live.sides.iter().cloned()),
                "COMMAND" => plain.extend(command::VERBS.iter().map(|v| v.to_string())),
                t if literal(t) => plain.push(t.to_string()),
                _ => plain.extend(option.map_or(&[][..], choices).iter().map(|c| c.to_string())),
            }
        }
        let mut found = words(&names, &lexed.partial)
            .into_iter()
            .map(|mut p| {
                p.replacement = format!("{} ", quoted(&p.display));
                p
            })
            .collect::<Vec<_>>();
        found.extend(words(&plain, &lexed.partial));
        (lexed.start, found)
    }
}

/// The choices of an option's value (the core's name lists).
fn choices(option: &str) -> &'static [&'static str] {
    match option {
        "stance" => &Stance::NAMES,
        "shield" => &ShieldSize::NAMES,
        "aim" => &Aim::NAMES,
        "position" => &Position::NAMES,
        _ => &[],
    }
}

/// The words of `from` that begin with `partial` (in any case), each once,
/// followed by a space when chosen.
fn words(from: &[String], partial: &str) -> Vec<Pair> {
    let partial = partial.to_lowercase();
    let mut out: Vec<Pair> = Vec::new();
    for w in from {
        if w.to_lowercase().starts_with(&partial) && !out.iter().any(|p| p.display == *w) {
            out.push(Pair {
                display: w.clone(),
                replacement: format!("{w} "),
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "tests")]

    use super::*;

    fn completer() -> Completer {
        Completer {
            live: Live {
                combatants: [
                    "Roland",
                    "Madoc",
                    "Cardiff",
                    "Orc #1",
                    "Orc #2",
                    "Goblin #1",
                    "Goblin #2",
                    "Shaman",
                ]
                .map(str::to_string)
                .to_vec(),
                sides: vec!["party".to_string(), "goblinoids".to_string()],
            },
            ..Completer::default()
        }
    }

    /// What Tab offers at the end of `line`: (where the word starts, the
    /// replacements).
    fn offers(line: &str) -> (usize, Vec<String>) {
        let (start, pairs) = completer().complete(line, line.len());
        (start, pairs.into_iter().map(|p| p.replacement).collect())
    }

    fn has(line: &str, want: &[&str]) {
        let (_, got) = offers(line);
        for w in want {
            assert!(got.iter().any(|g| g == w), "{line:?}: {w:?} not in {got:?}");
        }
    }

    #[test]
    fn command_words_from_the_parsers_table() {
        assert_eq!(offers("str"), (0, vec!["strike ".to_string()]));
        assert_eq!(offers("  de").1, ["declare ", "delay ", "defend "]);
        let (_, all) = offers("");
        assert_eq!(all.len(), command::VERBS.len());
    }

    #[test]
    fn names_quoted_when_they_have_spaces() {
        assert_eq!(offers("strike Card"), (7, vec!["Cardiff ".to_string()]));
        // Any case, as the session finds names.
        assert_eq!(offers("strike cardiff gob").1, ["\"Goblin #1\" ", "\"Goblin #2\" "]);
        // Inside an open quote: the whole word is replaced, quote and all.
        assert_eq!(
            offers("strike Cardiff \"Goblin #2"),
            (15, vec!["\"Goblin #2\" ".to_string()])
        );
        assert_eq!(offers("down 'orc #").1, ["\"Orc #1\" ", "\"Orc #2\" "]);
        assert_eq!(offers(r"down Orc\ #").1, ["\"Orc #1\" ", "\"Orc #2\" "]);
        // Whatever the name, the parser reads its quoted form back as it.
        for name in ["it's \"x\"", "#5 the fifth", "back\\slash", "Orc #1", "Madoc"] {
            assert_eq!(command::split(&quoted(name)).unwrap(), [name]);
        }
        assert_eq!(quoted("Madoc"), "Madoc");
        // The second combatant, after a quoted first.
        assert_eq!(offers("strike \"Orc #1\" Ma").1, ["Madoc "]);
        // `on WHO` of `effect add`, `odds WHO TARGET`.
        assert_eq!(offers("effect add blinded 30 ticks on Ro").1, ["Roland "]);
        assert_eq!(offers("odds Roland Sh").1, ["Shaman "]);
        assert_eq!(offers("party go").1, ["goblinoids "]);
    }

    #[test]
    fn the_words_commands_take() {
        has("init Roland ", &["roll ", "total "]);
        has("interrupt Roland ", &["kept ", "lost "]);
        has("effect ", &["add ", "end "]);
        has("effect add blinded 3 ", &["ticks ", "rounds "]);
        has("party ", &["none ", "party "]);
        has("help ", &["strike ", "tactics "]);
        has(
            "strike Cardiff Shaman ",
            &[
                "roll ",
                "defense ",
                "parry ",
                "range ",
                "point-blank ",
                "mod ",
                "posture ",
                "vs-posture ",
            ],
        );
        has(
            "declare Orc 'stab Cardiff' ",
            &[
                "tt ",
                "bonus ",
                "rof ",
                "extra ",
                "prep ",
                "ticks ",
                "roll ",
                "ready ",
                "at ",
                "disruptible ",
                "steady ",
                "attack ",
                "ranged ",
                "acquire ",
                "prepare ",
                "noncombat ",
            ],
        );
        has(
            "tactics Madoc ",
            &["stance ", "shield ", "aim ", "position ", "posture "],
        );
        assert_eq!(
            offers("tactics Madoc stance all").1,
            ["all_out_offense ", "all_out_defense "]
        );
        has("tactics Madoc shield ", &["small ", "medium ", "large ", "none "]);
        has("tactics Madoc shield small ", &["untrained ", "wall ", "aim "]);
        has("tactics Madoc shield small wall ", &["untrained ", "aim "]);
        // A shield's words only after a shield.
        assert!(!offers("tactics Madoc ").1.contains(&"wall ".to_string()));
        assert!(!offers("tactics Madoc aim anywhere ").1.contains(&"wall ".to_string()));
        has(
            "tactics Madoc aim ",
            &Aim::NAMES
                .map(|n| format!("{n} "))
                .iter()
                .map(String::as_str)
                .collect::<Vec<_>>(),
        );
        // A placeholder's place offers no option: `tt N`, `strike WHO` itself.
        assert!(offers("declare Orc stab tt ").1.is_empty());
        assert!(!offers("strike ").1.contains(&"roll ".to_string()));
        // A comment completes nothing.
        assert!(offers("next # str").1.is_empty());
    }

    /// Every option completion offers is one the parser takes: the grammar
    /// and the parser agree.
    #[test]
    fn every_offered_option_parses() {
        let c = completer();
        for (verb, head) in [
            ("strike", "strike Cardiff Shaman"),
            ("declare", "declare Orc stab"),
            ("tactics", "tactics Madoc"),
        ] {
            let shape = &c.shapes[verb];
            assert!(!shape.options.is_empty(), "{verb}");
            for Opt {
                word: option,
                value,
                parent,
            } in &shape.options
            {
                let value = match value.first().map(String::as_str) {
                    None => "",
                    Some("N") => " 1",
                    Some("N/K") => " 1/2",
                    Some("SHORT") => " 10 2 5",
                    Some(_) => match choices(option).first() {
                        Some(name) => name,
                        None => " small",
                    },
                };
                let value = if value.is_empty() || value.starts_with(' ') {
                    value.to_string()
                } else {
                    format!(" {value}")
                };
                let parent = match parent {
                    Some(p) => format!(" {p} {}", choices(p).first().copied().unwrap_or_default()),
                    None => String::new(),
                };
                let line = format!("{head}{parent} {option}{value}");
                let parsed = command::parse(command::split(&line).unwrap());
                assert!(parsed.is_ok(), "{line:?}: {parsed:?}");
            }
        }
    }

    #[test]
    fn files_for_save_and_load() {
        // The file completer's own answer: its start is the word's.
        let (start, _) = offers("save fi");
        assert_eq!(start, 5);
    }
}
