//! A scenario named on the command line: a file, or a built-in by name.
//! A file's settings that its rules ignore are warned about on standard
//! error (not refused: one file may carry every system's numbers).

use std::path::Path;

use skirmish_sim::scenario::{BUILTIN, Scenario};

/// Loads `arg`: a `.toml`/`.json` file if one exists at that path,
/// otherwise a built-in scenario by name (default: the goblin ambush).
/// Errors are [`skirmish_sim::scenario::ScenarioError`]s (usage errors).
pub(crate) fn load(arg: Option<&str>) -> Result<Scenario, Box<dyn std::error::Error>> {
    let name = arg.unwrap_or(BUILTIN[0]);
    let path = Path::new(name);
    // `exists` follows links and does not open: a FIFO is only looked at.
    if path.exists() || name.ends_with(".toml") || name.ends_with(".json") {
        let scenario = Scenario::load(path)?;
        for warning in scenario.warnings() {
            eprintln!("warning: {name}: {warning}");
        }
        return Ok(scenario);
    }
    // The built-ins carry every system's numbers on purpose: no warnings.
    Ok(Scenario::builtin(name)?)
}
