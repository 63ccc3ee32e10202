//! A scenario named on the command line: a file, or a built-in by name.
//! Settings the rules fought ignore are warned about on standard error
//! (not refused: one file may carry every system's numbers), once the
//! command's own changes (`run --set`) are made: [`warn`].

use std::path::Path;

use skirmish_sim::scenario::{BUILTIN, Scenario};

/// Loads `arg`: a `.toml`/`.json` file if one exists at that path,
/// otherwise a built-in scenario by name (default: the goblin ambush).
/// Errors are [`skirmish_sim::scenario::ScenarioError`]s (usage errors).
pub(crate) fn load(arg: Option<&str>) -> Result<Scenario, Box<dyn std::error::Error>> {
    let name = arg.unwrap_or(BUILTIN[0]);
    if names_a_file(name) {
        return Ok(Scenario::load(Path::new(name))?);
    }
    Ok(Scenario::builtin(name)?)
}

/// Whether `name` is read as a file (else as a built-in's name).
fn names_a_file(name: &str) -> bool {
    // `exists` follows links and does not open: a FIFO is only looked at.
    Path::new(name).exists() || name.ends_with(".toml") || name.ends_with(".json")
}

/// Warns, on standard error, about the settings `fought` (the scenario
/// `arg` named, `loaded`, with the command's changes made) gives that its
/// rules ignore. A built-in carries every system's numbers on purpose, so
/// for one only the fields the changes set are warned about
/// ([`Scenario::warnings_beside`]), and the rest summed up in one line.
pub(crate) fn warn(arg: Option<&str>, loaded: &Scenario, fought: &Scenario) {
    let name = arg.unwrap_or(BUILTIN[0]);
    if names_a_file(name) {
        for warning in fought.warnings() {
            eprintln!("warning: {name}: {warning}");
        }
        return;
    }
    if loaded == fought {
        // A built-in as it is: nothing to say (and its warnings not
        // worked out for that: a sweep's setup).
        return;
    }
    let set = fought.warnings_beside(loaded);
    for warning in &set {
        eprintln!("warning: {name}: {warning}");
    }
    let carried = fought.warnings().len().saturating_sub(set.len());
    if carried > 0 {
        eprintln!(
            "note: {name}: {carried} of the built-in's own settings are for other rules than these (it carries \
             every system's numbers on purpose) and have no effect here"
        );
    }
}
