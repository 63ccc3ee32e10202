//! A scenario named on the command line: a file, or a built-in by name.

use std::path::Path;

use skirmish_sim::scenario::{BUILTIN, Scenario};

/// Loads `arg`: a `.toml`/`.json` file if one exists at that path,
/// otherwise a built-in scenario by name (default: the goblin ambush).
pub(crate) fn load(arg: Option<&str>) -> Result<Scenario, Box<dyn std::error::Error>> {
    let name = arg.unwrap_or(BUILTIN[0]);
    let path = Path::new(name);
    if path.exists() || name.ends_with(".toml") || name.ends_with(".json") {
        return Ok(Scenario::load(path)?);
    }
    Ok(Scenario::builtin(name)?)
}
