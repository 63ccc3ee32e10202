//! What the fuzz targets share: fighting an accepted scenario briefly, so
//! that acceptance is exercised and not only parsing, and the round trips
//! every accepted scenario must keep.
//!
//! A fuzz target must stay fast per input (thousands of executions a
//! second), so battles here are capped in ticks, rounds and actions and
//! skipped when the roster is large: the caps are the scenario's own
//! `[battle]` limits, lowered, so the engine's timeout path is the one
//! taken.

pub mod inputs;

use skirmish_sim::battle::{Battle, RunOptions};
use skirmish_sim::scenario::Scenario;

/// Most fighters a fuzz input may field before the battle is skipped
/// (loading and validation still run on any size).
pub const MAX_FUZZ_FIGHTERS: u64 = 64;

/// Fights one short battle of an accepted scenario, with and without a
/// trace (the two engine paths), and checks they agree.
///
/// # Panics
/// When the engine refuses a scenario that validation accepted, or the
/// trace and fast paths disagree: both are bugs the fuzzer should report.
pub fn fight_briefly(scenario: &Scenario, seed: u64) {
    let fighters: u64 = scenario
        .sides
        .iter()
        .flat_map(|s| s.groups.iter())
        .fold(0u64, |n, g| n.saturating_add(g.count));
    if fighters > MAX_FUZZ_FIGHTERS {
        return;
    }
    let mut capped = scenario.clone();
    capped.battle.max_ticks = capped.battle.max_ticks.min(500);
    capped.battle.max_rounds = capped.battle.max_rounds.min(50);
    capped.battle.max_actions = capped.battle.max_actions.min(2_000);
    let battle = match Battle::new(&capped) {
        Ok(b) => b,
        // Battle::new resolves the rules again; it may refuse with a typed
        // error what validation let through (a weapon the damage model
        // cannot use, say). A typed refusal is fine; a panic is not.
        Err(_) => return,
    };
    let full = battle.run(seed, 0, &RunOptions::FULL);
    let lean = battle.run(seed, 0, &RunOptions::default());
    match (full, lean) {
        (Ok(full), Ok(lean)) => assert_eq!(
            full.summary, lean.summary,
            "the traced and the fast run of the same battle disagree"
        ),
        (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string()),
        (a, b) => panic!("one engine path refused what the other fought: {a:?} / {b:?}"),
    }
}

/// An accepted scenario written back as TOML and as JSON must load again
/// to the same scenario.
///
/// # Panics
/// When writing fails or a written scenario reads back differently.
pub fn check_round_trips(scenario: &Scenario) {
    let toml = scenario.to_toml_string().expect("an accepted scenario writes as TOML");
    let again = Scenario::from_toml_str(&toml, "round-trip.toml")
        .unwrap_or_else(|e| panic!("written TOML does not load: {e}\n{toml}"));
    assert_eq!(&again, scenario, "TOML round trip changed the scenario:\n{toml}");
    let json = scenario.to_json_string().expect("an accepted scenario writes as JSON");
    let again = Scenario::from_json_str(&json, "round-trip.json")
        .unwrap_or_else(|e| panic!("written JSON does not load: {e}\n{json}"));
    assert_eq!(&again, scenario, "JSON round trip changed the scenario:\n{json}");
}

/// Whether a battle of `scenario` is cheap enough for a fuzz input: few
/// fighters and low battle limits (a sweep fights the scenario as set, so
/// the limits cannot be lowered behind its back).
pub fn cheap_to_fight(scenario: &Scenario) -> bool {
    let fighters: u64 = scenario
        .sides
        .iter()
        .flat_map(|s| s.groups.iter())
        .fold(0u64, |n, g| n.saturating_add(g.count));
    let b = &scenario.battle;
    fighters <= MAX_FUZZ_FIGHTERS && b.max_ticks <= 500 && b.max_rounds <= 50 && b.max_actions <= 2_000
}

/// A built-in scenario made small enough to fight in a fuzz input: `which`
/// picks the built-in; each group keeps at most 8 fighters and the battle
/// limits are lowered for [`cheap_to_fight`].
pub fn small_builtin(which: u8) -> Scenario {
    // Loaded once per process: loading validates, which is most of an
    // input's time in an instrumented build.
    static SMALL: std::sync::OnceLock<Vec<Scenario>> = std::sync::OnceLock::new();
    let all = SMALL.get_or_init(|| {
        skirmish_sim::scenario::BUILTIN
            .iter()
            .map(|name| {
                let mut s = Scenario::builtin(name).expect("a built-in loads");
                for g in s.sides.iter_mut().flat_map(|side| side.groups.iter_mut()) {
                    g.count = g.count.min(8);
                }
                s.battle.max_ticks = 500;
                s.battle.max_rounds = 50;
                s.battle.max_actions = 2_000;
                s
            })
            .collect()
    });
    all[usize::from(which) % all.len()].clone()
}

/// `e` as its snapshot keeps it: a snapshot holds the newest
/// [`SNAPSHOT_HISTORY`](skirmish_core::tracker::SNAPSHOT_HISTORY) undo
/// steps only (documented), so `restore(snapshot(e))` equals this, which
/// is `e` itself while its history is that short.
pub fn as_saved(e: &skirmish_core::tracker::Encounter) -> skirmish_core::tracker::Encounter {
    use skirmish_core::tracker::SNAPSHOT_HISTORY;
    let mut saved = e.clone();
    if saved.undo_depth() as usize > SNAPSHOT_HISTORY {
        let limit = saved.undo_limit();
        saved
            .set_undo_limit(SNAPSHOT_HISTORY as u32)
            .expect("a smaller undo limit");
        saved.set_undo_limit(limit).expect("the limit it had");
    }
    saved
}
