//! `balance` on the exact engine: a fight it solves is balanced on exact
//! chances (no battle fought, each point the exact engine's own answer);
//! one it refuses is sampled under `Auto`, with the refusal said, and is
//! an error naming the field under `Exact`.

use skirmish_sim::balance::{
    BalanceAnswer, BalanceError, BalanceMethod, BalanceOptions, BalanceSpec, Verdict, balance,
};
use skirmish_sim::exact::{ExactError, ExactOptions, solve};
use skirmish_sim::scenario::Scenario;

/// Two fighters of two hit points, SR 5 and DR 5 each: B's Strike Rating
/// varies.
fn duel() -> Scenario {
    toml::from_str(
        r#"
        name = "duel"
        timing = "simultaneous"
        damage = { model = "hit_points", max_hp = 2 }
        [[sides]]
        name = "A"
        groups = [{ name = "a", strike_rating = 5, defense_rating = 5 }]
        [[sides]]
        name = "B"
        groups = [{ name = "b", strike_rating = 5, defense_rating = 5 }]
        "#,
    )
    .expect("the duel")
}

const B_SR: &str = "sides.B.groups.0.strike_rating";

fn options() -> BalanceOptions {
    BalanceOptions {
        threads: Some(1),
        ..BalanceOptions::default()
    }
}

#[test]
fn a_duel_is_balanced_on_exact_chances() {
    // A wins a third of the fights: how good must B's strike be?
    let mut spec = BalanceSpec::new(duel(), B_SR, 1.0, 12.0);
    spec.target = 1.0 / 3.0;
    let found = balance(&spec, &options()).expect("a balance");
    assert_eq!(found.method, BalanceMethod::Exact);
    assert_eq!(found.not_exact, None);
    assert_eq!(found.battles(), 0);
    let BalanceAnswer::Between { below, above } = found.answer else {
        panic!("two values: {found:?}")
    };
    // A stronger B, fewer wins for A: the value above the target is the
    // smaller Strike Rating, and the two are adjacent.
    assert_eq!(below - above, 1.0, "{found:?}");
    assert!(found.stopped.starts_with("exact: at "), "{}", found.stopped);
    for p in &found.points {
        // Each point is the exact engine's own answer at that value.
        let at = duel()
            .with_field(B_SR, &format!("{}", p.value as i64))
            .expect("a value");
        let odds = solve(&at, &ExactOptions::default()).expect("solved");
        assert!(p.exact && p.battles == 0);
        assert_eq!(p.fraction, odds.wins[0].fraction, "at {}", p.value);
        assert_eq!(
            (p.win_rate, p.low, p.high),
            (odds.wins[0].value, odds.wins[0].value, odds.wins[0].value)
        );
        let expected = if p.win_rate < spec.target {
            Verdict::Below
        } else {
            Verdict::Above
        };
        assert_eq!(p.verdict, expected, "at {}", p.value);
    }
    let at = |v: f64| found.points.iter().find(|p| p.value == v).expect("fought");
    assert_eq!((at(below).verdict, at(above).verdict), (Verdict::Below, Verdict::Above));
    // The search fought each value once.
    let mut values: Vec<i64> = found.points.iter().map(|p| p.value as i64).collect();
    values.sort_unstable();
    values.dedup();
    assert_eq!(values.len(), found.points.len());
    // `Exact` gives the same; sampling the same search lands on the same
    // bracket or next to it (the sampled verdicts are at 95%).
    spec.method = BalanceMethod::Exact;
    assert_eq!(balance(&spec, &options()).expect("exact"), found);
    spec.method = BalanceMethod::Sampled;
    spec.battles = 2_000;
    spec.max_battles = 64_000;
    let sampled = balance(&spec, &options()).expect("sampled");
    assert_eq!(sampled.method, BalanceMethod::Sampled);
    assert!(sampled.points.iter().all(|p| !p.exact && p.fraction.is_none()));
    let near = match sampled.answer {
        BalanceAnswer::Between { below: b, .. } => (b - below).abs() <= 1.0,
        BalanceAnswer::At { value } => value == below || value == above,
    };
    assert!(near, "exact {:?}, sampled {:?}", found.answer, sampled.answer);
}

#[test]
fn a_fight_the_exact_engine_refuses_is_sampled_and_says_why() {
    // Surprise is a rule the exact engine does not model.
    let scenario = duel()
        .with_field("sides.A.groups.0.unaware_for", "1")
        .expect("surprise");
    let mut spec = BalanceSpec::new(scenario, B_SR, 1.0, 12.0);
    spec.target = 1.0 / 3.0;
    let found = balance(&spec, &options()).expect("a balance");
    assert_eq!(found.method, BalanceMethod::Sampled);
    let why = found.not_exact.as_deref().expect("why not exact");
    assert!(
        why.starts_with("sides.B.groups.0.strike_rating = 1: sides[0].groups[0].unaware_for: surprise"),
        "{why}"
    );
    assert!(found.battles() > 0 && found.points.iter().all(|p| !p.exact));
    // The sampled search, as if asked for it.
    spec.method = BalanceMethod::Sampled;
    let sampled = balance(&spec, &options()).expect("sampled");
    assert_eq!((sampled.points, sampled.answer), (found.points, found.answer));
    // `Exact` refuses it, naming the field.
    spec.method = BalanceMethod::Exact;
    let err = balance(&spec, &options()).unwrap_err();
    let BalanceError::Exact { field, value, source } = &err else {
        panic!("an exact refusal: {err:?}")
    };
    assert_eq!((field.as_str(), *value), (B_SR, 1.0));
    assert!(
        matches!(&**source, ExactError::Unsupported { field, .. } if field == "sides[0].groups[0].unaware_for"),
        "{source:?}"
    );
}

#[test]
fn an_exact_range_with_no_crossing_is_an_error_with_both_ends() {
    // A weak B: A wins from 93% (SR 3) to always (SR 1).
    let spec = BalanceSpec::new(duel(), B_SR, 1.0, 3.0);
    let err = balance(&spec, &options()).unwrap_err();
    let BalanceError::NoCrossing { ends, .. } = &err else {
        panic!("no crossing: {err:?}")
    };
    assert!(ends.iter().all(|e| e.exact && e.verdict == Verdict::Above), "{ends:?}");
    assert_eq!(ends[0].fraction.as_deref(), Some("1"));
    assert_eq!(ends[1].fraction.as_deref(), Some("19665818704/21047437081"));
}
