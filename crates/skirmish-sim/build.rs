//! The built-in scenarios (`src/presets/*.toml`) in JSON as well, for
//! `Scenario::builtin` to read.
//!
//! The TOML files stay the one home of the built-ins: they are what
//! `skirmish scenarios show` prints and a user copies. But every run of the
//! command line reads one (the default goblin ambush), and the TOML parser
//! was a visible part of a short sweep's time before its first battle: the
//! same values read as JSON cost a fraction of it. The conversion is the
//! TOML parser's own values written by
//! `serde_json`; a test reads every built-in both ways and compares.

use std::error::Error;
use std::fs;
use std::path::Path;

fn main() -> Result<(), Box<dyn Error>> {
    let presets = Path::new("src/presets");
    println!("cargo::rerun-if-changed={}", presets.display());
    let out = Path::new(&std::env::var_os("OUT_DIR").ok_or("cargo sets OUT_DIR")?).join("presets");
    fs::create_dir_all(&out)?;
    for entry in fs::read_dir(presets)? {
        let path = entry?.path();
        if path.extension().is_none_or(|e| e != "toml") {
            continue;
        }
        println!("cargo::rerun-if-changed={}", path.display());
        let text = fs::read_to_string(&path)?;
        let value: toml::Table = toml::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        let name = path.file_stem().ok_or("a preset has a name")?;
        fs::write(out.join(name).with_extension("json"), serde_json::to_string(&value)?)?;
    }
    Ok(())
}
