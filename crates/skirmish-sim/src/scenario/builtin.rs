//! The scenarios that ship inside the crate (TOML files in `src/presets/`).

use super::Scenario;
use super::error::{ScenarioError, ScenarioErrorKind, did_you_mean};

/// The built-in scenarios' names; the first is the default.
///
/// - `goblin-ambush`: the *Relativity* article's ambush (Roland, Madoc and
///   Cardiff against two orcs, two goblins and a shaman), with the Full
///   Contact article's ratings where it gives them.
/// - `parity`: the peer parity battle of the benchmarks, exactly as fixed
///   for every implementation (10 against 10; vary the counts).
/// - `shield-wall`: two lines of 5,000 under FUDGE opposed rolls and
///   Graduated Rounds: fast short swords against better-armored spears.
/// - `horde`: 50,000 goblins against 500 knights in plate under Full
///   Contact: numbers against armor, bounded by reach.
/// - `archers`: 10 archers against 10 infantry closing from 200 yards
///   under Full Contact: range penalties against the time it takes to
///   close (docs/rules.md §5.1).
pub const BUILTIN: &[&str] = &["goblin-ambush", "parity", "shield-wall", "horde", "archers"];

/// A built-in: its name, its TOML source, and the same values as JSON.
type Preset = (&'static str, &'static str, &'static str);

/// The [`Preset`] of `src/presets/<name>.toml`.
macro_rules! preset {
    ($name:literal) => {
        (
            $name,
            include_str!(concat!("../presets/", $name, ".toml")),
            include_str!(concat!(env!("OUT_DIR"), "/presets/", $name, ".json")),
        )
    };
}

/// Name, TOML source and JSON form (`build.rs`) of each built-in, in
/// [`BUILTIN`] order.
const SOURCES: [Preset; 5] = [
    preset!("goblin-ambush"),
    preset!("parity"),
    preset!("shield-wall"),
    preset!("horde"),
    preset!("archers"),
];

impl Scenario {
    /// The built-in scenario `name` (one of [`BUILTIN`]; case, spaces and
    /// `_` for `-` are forgiven; `default` is the first).
    ///
    /// # Errors
    /// [`ScenarioErrorKind::UnknownBuiltin`] for an unknown name, suggesting
    /// the closest and listing them all.
    pub fn builtin(name: &str) -> Result<Scenario, ScenarioError> {
        let (name, toml, json) = builtin_entry(name)?;
        // Read from its JSON form (build.rs): the same values in a sixth
        // of the TOML parser's time. Were that ever refused, the TOML
        // says why, with its lines.
        match serde_json::from_str::<Scenario>(json) {
            Ok(scenario) if scenario.validate().is_ok() => Ok(scenario),
            _ => Scenario::from_toml_str(toml, &format!("built-in {name}")),
        }
    }

    /// The TOML text of the built-in scenario `name`: a starting point for
    /// a file of one's own.
    ///
    /// # Errors
    /// As [`builtin`](Scenario::builtin).
    pub fn builtin_source(name: &str) -> Result<&'static str, ScenarioError> {
        builtin_entry(name).map(|(_, toml, _)| toml)
    }
}

fn builtin_entry(name: &str) -> Result<Preset, ScenarioError> {
    let key = |s: &str| -> String {
        s.chars()
            .filter(|c| c.is_alphanumeric())
            .collect::<String>()
            .to_lowercase()
    };
    let wanted = key(name);
    if wanted == "default" {
        return Ok(SOURCES[0]);
    }
    SOURCES
        .iter()
        .copied()
        .find(|(n, _, _)| key(n) == wanted)
        .ok_or_else(|| {
            ScenarioError::new(
                ScenarioErrorKind::UnknownBuiltin,
                "",
                format!(
                    "no built-in scenario {name:?}{} (built in: {})",
                    did_you_mean(name, BUILTIN.iter().copied()),
                    BUILTIN.join(", ")
                ),
            )
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_builtin_loads_under_its_name() {
        assert_eq!(SOURCES.map(|(name, _, _)| name), BUILTIN);
        for name in BUILTIN {
            assert_eq!(Scenario::builtin(name).unwrap().name, *name);
        }
    }

    /// The JSON form `build.rs` writes holds the TOML's values: read
    /// either way, every built-in is the same scenario, to the last byte
    /// of its fingerprint.
    #[test]
    fn every_builtin_reads_the_same_from_its_json_and_its_toml() {
        for (name, toml, json) in SOURCES {
            let from_toml = Scenario::from_toml_str(toml, name).unwrap();
            let from_json = serde_json::from_str::<Scenario>(json).unwrap();
            assert_eq!(from_json, from_toml, "{name}");
            assert_eq!(from_json.fingerprint(), from_toml.fingerprint(), "{name}");
            assert_eq!(Scenario::builtin(name).unwrap(), from_toml, "{name}");
        }
    }
}
