//! Door: a scenario file in TOML (`skirmish run x.toml`, `sweep`, `odds`).
//! Any bytes go through the loader and validation; an accepted scenario
//! must round-trip through TOML and JSON and fight a short battle.
#![no_main]

use libfuzzer_sys::fuzz_target;
use skirmish_fuzz::{check_round_trips, fight_briefly};
use skirmish_sim::scenario::Scenario;

fuzz_target!(|data: &[u8]| {
    let Ok(src) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(scenario) = Scenario::from_toml_str(src, "fuzz.toml") {
        check_round_trips(&scenario);
        fight_briefly(&scenario, data.len() as u64);
    }
});
