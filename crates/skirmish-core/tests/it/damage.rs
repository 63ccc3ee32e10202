//! Damage models (docs/rules.md §3): the cases in `tests/cases/damage.toml`, and
//! the models used the way a battle uses them.

use serde::Deserialize;
use skirmish_core::Error;
use skirmish_core::damage::{
    Condition, Damage, DamageChange, DamageConfig, DamageFactors, DamageModel, DamageState, FudgeWounds, HitPoints,
    HitPointsConfig, WoundLevel,
};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Cases {
    case: Vec<Case>,
    invalid: Vec<Invalid>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    name: String,
    #[serde(default)]
    model: DamageConfig,
    #[serde(default)]
    fresh_each: bool,
    hits: Vec<i32>,
    marked: Option<Vec<String>>,
    worst: Option<Vec<String>>,
    hp: Option<Vec<i32>>,
    penalty: Option<Vec<i32>>,
    status: Option<Vec<Condition>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Invalid {
    model: DamageConfig,
    error: String,
}

/// A wound level as the case file writes it; `"-"` for none.
fn level_name(level: Option<WoundLevel>) -> String {
    level.map_or_else(
        || "-".to_owned(),
        |l| serde_json::to_value(l).unwrap().as_str().unwrap().to_owned(),
    )
}

fn load() -> Cases {
    let text = include_str!("../cases/damage.toml");
    toml::from_str(text).unwrap()
}

/// Checks one expected column, if the case gives it.
fn column<T: PartialEq + std::fmt::Debug>(case: &str, what: &str, expected: &Option<Vec<T>>, got: &[T]) {
    if let Some(expected) = expected {
        assert_eq!(expected.len(), got.len(), "{case}: {what} needs one entry per hit");
        assert_eq!(got, expected.as_slice(), "{case}: {what}");
    }
}

#[test]
fn cases_from_the_data_file() {
    let cases = load();
    assert!(cases.case.len() >= 15);
    for case in &cases.case {
        let model = case.model.build().unwrap_or_else(|e| panic!("{}: {e}", case.name));
        let mut state = model.fresh();
        let (mut marked, mut worst, mut hp, mut penalty, mut status) = (vec![], vec![], vec![], vec![], vec![]);
        for &damage in &case.hits {
            if case.fresh_each {
                state = model.fresh();
            }
            let outcome = model.apply(&mut state, damage);
            assert!(model.validate_state(&state).is_ok(), "{}", case.name);
            assert_eq!(outcome.after, model.status(&state), "{}", case.name);
            assert_eq!(outcome.penalty, model.wound_penalty(&state), "{}", case.name);
            match outcome.change {
                DamageChange::FudgeWounds(w) => {
                    marked.push(level_name(w.marked));
                    worst.push(level_name(w.worst));
                }
                DamageChange::HitPoints(h) => hp.push(h.hp),
                other => panic!("{}: {other:?}", case.name),
            }
            penalty.push(outcome.penalty);
            status.push(outcome.after);
        }
        column(&case.name, "marked", &case.marked, &marked);
        column(&case.name, "worst", &case.worst, &worst);
        column(&case.name, "hp", &case.hp, &hp);
        column(&case.name, "penalty", &case.penalty, &penalty);
        column(&case.name, "status", &case.status, &status);
    }
}

#[test]
fn invalid_settings_from_the_data_file() {
    let cases = load();
    assert!(cases.invalid.len() >= 10);
    for case in &cases.invalid {
        let err = case.model.build().unwrap_err();
        assert_eq!(err.to_string(), case.error);
        assert!(matches!(err, Error::OutOfRange { .. } | Error::Invalid { .. }));
        // Reading the model itself (not just its settings) refuses it too.
        let text = toml::to_string(&case.model).unwrap();
        let read = toml::from_str::<Damage>(&text).unwrap_err().to_string();
        assert!(read.contains(&case.error), "{read}");
    }
}

#[test]
fn unknown_fields_are_refused() {
    for text in [
        "model = \"fudge_wounds\"\nbox = { scratch = 3 }",
        "model = \"fudge_wounds\"\nthresholds = { scrach = 3 }",
        "model = \"hit_points\"\nmax_hp = 3\nhit_points = 3",
        "model = \"hit_points\"\nmax_hp = 3\ndamage = { table = [{ min_margin = 1, damage = 1, extra = 0 }] }",
    ] {
        let err = toml::from_str::<DamageConfig>(text).unwrap_err().to_string();
        assert!(err.contains("unknown field"), "{text}: {err}");
    }
    let err = toml::from_str::<DamageConfig>("model = \"hitpoints\"\nmax_hp = 3")
        .unwrap_err()
        .to_string();
    assert!(err.contains("unknown variant"), "{err}");
}

#[test]
fn models_round_trip_through_files() {
    for config in [
        DamageConfig::default(),
        DamageConfig::HitPoints(HitPointsConfig::parity(7)),
        toml::from_str("model = \"fudge_wounds\"\nthresholds = { dead = 12 }\nboxes = { scratch = 2 }").unwrap(),
        toml::from_str(
            "model = \"hit_points\"\nmax_hp = 9\ndead_at = -9\ndamage = { flat = 2 }\n\
             penalties = [{ hp_at_most = 3, penalty = -1 }]",
        )
        .unwrap(),
    ] {
        let model = config.build().unwrap();
        let toml_text = toml::to_string(&model).unwrap();
        assert_eq!(toml::from_str::<Damage>(&toml_text).unwrap(), model, "{toml_text}");
        let json = serde_json::to_string(&model).unwrap();
        assert_eq!(serde_json::from_str::<Damage>(&json).unwrap(), model, "{json}");
        assert_eq!(model.config(), config);
    }
}

#[test]
fn snapshots_of_states_round_trip() {
    let model = Damage::default();
    let mut s = model.fresh();
    for d in [1, 4, 9] {
        model.apply(&mut s, d);
    }
    let json = serde_json::to_string(&s).unwrap();
    let back: DamageState = serde_json::from_str(&json).unwrap();
    assert_eq!(back, s);
    assert!(model.validate_state(&back).is_ok());
    let hp = DamageConfig::HitPoints(HitPointsConfig::parity(3)).build().unwrap();
    assert!(hp.validate_state(&back).is_err());
}

/// A fight the way a battle runs one: factors, then the model, generic over
/// the model.
fn exchange<M: DamageModel>(model: &M, margins: &[i32], factors: DamageFactors) -> (M::State, Vec<Condition>) {
    let mut state = model.fresh();
    let statuses = margins
        .iter()
        .map(|&m| {
            let damage = factors.damage(m).unwrap().damage;
            model.apply(&mut state, damage).after
        })
        .collect();
    (state, statuses)
}

#[test]
fn factors_feed_any_model() {
    // Strength +1 and a +1 weapon against armor +2: damage = margin.
    let even = DamageFactors::new(1, 1, 0).against(2, 0, 0);
    let (track, statuses) = exchange(&FudgeWounds::default(), &[2, 4, 8], even);
    assert_eq!(statuses, [Condition::Standing, Condition::Standing, Condition::Down]);
    assert_eq!(track.worst(), Some(WoundLevel::Incapacitated));
    let hp = HitPoints::new(HitPointsConfig::parity(4)).unwrap();
    let (state, statuses) = exchange(&hp, &[2, 4, 8], even);
    assert_eq!(state.hp(), -1);
    assert_eq!(statuses, [Condition::Standing, Condition::Standing, Condition::Dead]);
    // Heavy armor soaks a small hit entirely.
    let soaked = DamageFactors::new(0, 0, 0).against(3, 0, 0);
    let (track, _) = exchange(&FudgeWounds::default(), &[1, 2, 3], soaked);
    assert_eq!(track.worst(), None);
}

#[test]
fn many_combatants_in_plain_arrays() {
    // The simulator's shape: one model, a large array of Copy states.
    let model = FudgeWounds::default();
    let mut states = vec![model.fresh(); 200_000];
    let mut downed = 0;
    for (i, s) in states.iter_mut().enumerate() {
        for k in 0..4 {
            let damage = ((i + k) % 11) as i32 - 1;
            downed += usize::from(model.apply(s, damage).newly_down());
        }
    }
    let down_now = states.iter().filter(|s| model.is_down(s)).count();
    assert_eq!(downed, down_now);
    assert!(down_now > 0 && down_now < states.len());
}
