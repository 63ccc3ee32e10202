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
pub const BUILTIN: &[&str] = &["goblin-ambush", "parity", "shield-wall", "horde"];

/// Name and TOML source of each built-in, in [`BUILTIN`] order.
const SOURCES: [(&str, &str); 4] = [
    ("goblin-ambush", include_str!("../presets/goblin-ambush.toml")),
    ("parity", include_str!("../presets/parity.toml")),
    ("shield-wall", include_str!("../presets/shield-wall.toml")),
    ("horde", include_str!("../presets/horde.toml")),
];

impl Scenario {
    /// The built-in scenario `name` (one of [`BUILTIN`]; case, spaces and
    /// `_` for `-` are forgiven; `default` is the first).
    ///
    /// # Errors
    /// [`ScenarioErrorKind::UnknownBuiltin`] for an unknown name, suggesting
    /// the closest and listing them all.
    pub fn builtin(name: &str) -> Result<Scenario, ScenarioError> {
        let (name, src) = builtin_entry(name)?;
        Scenario::from_toml_str(src, &format!("built-in {name}"))
    }

    /// The TOML text of the built-in scenario `name`: a starting point for
    /// a file of one's own.
    ///
    /// # Errors
    /// As [`builtin`](Scenario::builtin).
    pub fn builtin_source(name: &str) -> Result<&'static str, ScenarioError> {
        builtin_entry(name).map(|(_, src)| src)
    }
}

fn builtin_entry(name: &str) -> Result<(&'static str, &'static str), ScenarioError> {
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
    SOURCES.iter().copied().find(|(n, _)| key(n) == wanted).ok_or_else(|| {
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
        assert_eq!(SOURCES.map(|(name, _)| name), BUILTIN);
        for name in BUILTIN {
            assert_eq!(Scenario::builtin(name).unwrap().name, *name);
        }
    }
}
