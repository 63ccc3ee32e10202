//! The shape of the code, checked: skirmish-sim's modules depend on each
//! other in one direction only (the layers of the crate docs' module map),
//! and no two public types of the workspace's crates share a name.
//!
//! Both read the sources as text: a `use crate::x` or `crate::x::` outside
//! a comment is a dependency of the top module it is written in on `x`.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// skirmish-sim's top modules, lowest layer first: a module may use only
/// modules of lower layers (so there can be no cycle). The crate docs'
/// module map says what each layer is for.
const LAYERS: &[&[&str]] = &[
    // Leaves: errors, reports, statistics, scenarios.
    &["error", "report", "stats", "scenario"],
    // Shared primitives of the engine's parts.
    &["control", "ranking", "ring", "roster"],
    // FUDGE 4.34's beset fighters of a moment (the general loop and the fast
    // path share it).
    &["lone"],
    // The clocks (which fighters act next).
    &["clock"],
    // The fast paths (the common battle on compact records).
    &["fast"],
    // The battle: the general loop, and which path a battle takes.
    &["battle"],
    // What runs many battles; what solves a small fight without any.
    &["sweep", "exact"],
    // What asks the exact engine first and samples battles else: odds from
    // a tracker's encounter, and the search over many sweeps' worth.
    &["odds", "balance"],
];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The code of a line: what comes before a `//` comment.
fn code(line: &str) -> &str {
    line.split("//").next().unwrap_or("")
}

/// The modules a line of code names after `crate::`, groups included
/// (`crate::{a, b::c}` names `a` and `b`).
fn named_modules(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = line;
    while let Some(at) = rest.find("crate::") {
        rest = &rest[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            // The first name of each top-level element of the group.
            let mut depth = 0;
            let mut at_start = true;
            let mut name = String::new();
            for c in group.chars() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        if !name.is_empty() {
                            out.push(std::mem::take(&mut name));
                        }
                        at_start = true;
                    }
                    c if at_start && (c.is_alphanumeric() || c == '_') => name.push(c),
                    _ if at_start && !name.is_empty() => {
                        out.push(std::mem::take(&mut name));
                        at_start = false;
                    }
                    _ => {}
                }
            }
            if !name.is_empty() {
                out.push(name);
            }
        } else {
            let name: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
            if !name.is_empty() {
                out.push(name);
            }
        }
    }
    out
}

/// Each top module of `src` (a file or folder beside `lib.rs`) and the top
/// modules its code names.
fn module_graph(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in files {
        let relative = file.strip_prefix(src).unwrap();
        let first = relative.components().next().unwrap().as_os_str().to_string_lossy();
        let top = first.trim_end_matches(".rs").to_string();
        if top == "lib" {
            continue;
        }
        let text = fs::read_to_string(&file).unwrap();
        let uses = graph.entry(top.clone()).or_default();
        for line in text.lines() {
            for name in named_modules(code(line)) {
                if name != top {
                    uses.insert(name);
                }
            }
        }
    }
    graph
}

#[test]
fn skirmish_sims_modules_depend_one_way() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let graph = module_graph(&src);
    let layer_of = |m: &str| LAYERS.iter().position(|layer| layer.contains(&m));
    let mut wrong = Vec::new();
    for (module, uses) in &graph {
        let Some(own) = layer_of(module) else {
            wrong.push(format!(
                "{module}: a new top module: put it in a layer of LAYERS (and the crate docs' module map)"
            ));
            continue;
        };
        // A capitalised name is an item the crate root re-exports
        // (`crate::SimError`), not a module.
        for used in uses.iter().filter(|u| u.starts_with(|c: char| c.is_lowercase())) {
            match layer_of(used) {
                Some(l) if l < own => {}
                Some(_) => wrong.push(format!(
                    "{module} uses {used}, which is not below it: a cycle, or one waiting to happen \
                     (move what both need into a lower module)"
                )),
                None => wrong.push(format!("{module} uses {used}, which no layer lists")),
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    // The table lists no module that is gone.
    for layer in LAYERS {
        for m in *layer {
            assert!(graph.contains_key(*m), "LAYERS names {m}, which src/ no longer has");
        }
    }
}

/// The reader's own check: it sees the names of groups and of paths.
#[test]
fn the_module_reader_sees_groups() {
    assert_eq!(
        named_modules("use crate::{ring::{Ring, MAX_DELAY}, roster::NONE};"),
        ["ring", "roster"]
    );
    assert_eq!(named_modules("use crate::{roster, ring::Ring};"), ["roster", "ring"]);
    assert_eq!(
        named_modules("x = crate::fast::fight(crate::clock::Tick)"),
        ["fast", "clock"]
    );
    assert_eq!(code("let a = 1; // crate::battle"), "let a = 1; ");
}

/// The Rust crates' public types, each one name for one thing. The
/// bindings are not read: `bindings/uniffi` mirrors core types under the
/// core's own names on purpose (an app's `Status` is the tracker's
/// `Status`), conversion only.
#[test]
fn no_two_public_types_of_the_crates_share_a_name() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let mut seen: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for krate in ["skirmish-core", "skirmish-sim", "skirmish-cli"] {
        let mut files = Vec::new();
        rust_files(&crates.join(krate).join("src"), &mut files);
        for file in files {
            let text = fs::read_to_string(&file).unwrap();
            for (n, line) in text.lines().enumerate() {
                let line = line.trim_start();
                for kind in ["pub struct ", "pub enum ", "pub trait ", "pub type "] {
                    if let Some(rest) = line.strip_prefix(kind) {
                        let name: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                        let place = format!("{}:{}", file.strip_prefix(crates).unwrap().display(), n + 1);
                        seen.entry(name).or_default().push(place);
                    }
                }
            }
        }
    }
    let twice: Vec<String> = seen
        .iter()
        .filter(|(_, places)| places.len() > 1)
        .map(|(name, places)| format!("{name}: {}", places.join(", ")))
        .collect();
    assert!(
        twice.is_empty(),
        "public types that share a name:\n{}",
        twice.join("\n")
    );
}
