//! Door: `--set PATH=VALUE` and `--vary PATH=V1,V2,...` (the CLI's `run`,
//! `sweep`, `odds`; the bindings' `with_field`), applied to a built-in.
//!
//! Input text, one instruction a line (readable seeds):
//! - first line: a digit picking the built-in;
//! - `set PATH=VALUE`: `Scenario::with_field`;
//! - `get PATH`: `Scenario::get_field`;
//! - `vary PATH=V1|V2|...`: an axis of a sweep of the result.
//!
//! Checked: no panic; an accepted change gives a scenario that validates,
//! round-trips through TOML and JSON, reads back at the same path, and is
//! unchanged when the field is set again to what it reads; the sweep spec
//! validates or is refused with a typed error, and when every cell is
//! small it runs (one battle per cell, one thread) to a table with one row
//! per cell whose CSV and JSON are written.
#![no_main]

use libfuzzer_sys::fuzz_target;
use skirmish_fuzz::{cheap_to_fight, check_round_trips, fight_briefly, small_builtin};
use skirmish_sim::scenario::Scenario;
use skirmish_sim::sweep::{Axis, SweepOptions, SweepSpec, sweep};

/// Sets `path` = `value`; on success checks the result as documented.
fn set(scenario: &Scenario, path: &str, value: &str) -> Option<Scenario> {
    let changed = scenario.with_field(path, value).ok()?;
    changed.validate().expect("with_field returns a validated scenario");
    if let Ok(now) = changed.get_field(path) {
        let again = changed
            .with_field_value(path, now.clone())
            .unwrap_or_else(|e| panic!("setting {path} to its own value {now} is refused: {e}"));
        assert_eq!(
            again, changed,
            "setting {path} to its own value {now} changed the scenario"
        );
    }
    Some(changed)
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let mut lines = text.lines();
    let which = lines.next().and_then(|l| l.bytes().next()).unwrap_or(b'0');
    let mut scenario = small_builtin(which.wrapping_sub(b'0'));
    let mut axes = Vec::new();
    for line in lines.take(16) {
        if let Some(rest) = line.strip_prefix("set ") {
            let (path, value) = rest.split_once('=').unwrap_or((rest, ""));
            if let Some(s) = set(&scenario, path, value) {
                scenario = s;
            }
        } else if let Some(path) = line.strip_prefix("get ") {
            let _ = scenario.get_field(path);
        } else if let Some(rest) = line.strip_prefix("vary ") {
            let (path, values) = rest.split_once('=').unwrap_or((rest, ""));
            axes.push(Axis::new(path, values.split('|').take(8)));
        }
    }
    check_round_trips(&scenario);
    fight_briefly(&scenario, data.len() as u64);

    let spec = SweepSpec {
        scenario,
        axes,
        battles: 1,
        seed: data.len() as u64,
    };
    let Ok(cells) = spec.validate() else { return };
    if cells > 6 {
        return;
    }
    // Each cell as the sweep's editor builds it; run only if all are cheap.
    let mut all_cheap = true;
    for cell in 0..cells as usize {
        let mut s = spec.scenario.clone();
        for (axis, value) in spec.axes.iter().zip(spec.cell_values(cell)) {
            match set(&s, &axis.path, &value) {
                Some(next) => s = next,
                None => {
                    all_cheap = false;
                    break;
                }
            }
        }
        all_cheap &= cheap_to_fight(&s);
    }
    let options = SweepOptions {
        threads: Some(1),
        ..SweepOptions::default()
    };
    if all_cheap {
        let table = sweep(&spec, &options).unwrap_or_else(|e| panic!("a sweep of cheap, valid cells failed: {e}"));
        assert_eq!(table.cells().len() as u64, cells);
        let _ = (table.to_csv(), table.to_json(), table.columns(), table.summary_text());
    }
});
