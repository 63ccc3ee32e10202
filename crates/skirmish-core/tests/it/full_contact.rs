//! Full Contact striking: the worked examples of the "Full Contact" article
//! and our edge cases as data (`tests/cases/full_contact.toml`, one driver
//! below), then exact odds against brute force, and bad input.

use proptest::prelude::*;
use serde::Deserialize;
use skirmish_core::Error;
use skirmish_core::dice::{Dice, RollSource, ScriptedRolls, SeededRolls};
use skirmish_core::ladder::Level;
use skirmish_core::striking::full_contact::{
    DefenseRating, DefenseRatingBuilder, RangedShot, StrikeOdds, StrikeOptions, StrikeOutcome, StrikeRating,
    StrikeRatingBuilder, TermKind, WeaponRange, odds, odds_at_range, parry, resolve, resolve_at_range, roll_strike,
};
use skirmish_core::tables::armor::{self, armor};

// ---------------------------------------------------------------------------
// The case file

const CASES: &str = include_str!("../cases/full_contact.toml");

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Cases {
    rating: Vec<RatingCase>,
    strike: Vec<StrikeCase>,
    parry: Vec<ParryCase>,
}

#[derive(Deserialize, Clone, Copy, PartialEq, Eq, Debug)]
#[serde(rename_all = "snake_case")]
enum RatingKind {
    Strike,
    Defense,
}

#[derive(Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
enum TermCase {
    Skill { level: Level },
    Attribute { name: String, level: Level },
    AttributeBonus { name: String, bonus: i32 },
    Weapon { level: Level },
    Magic { bonus: i32 },
    Armor { bonus: i32 },
    ArmorTable { name: String },
    Shield { bonus: i32 },
    Coverage { bonus: i32 },
    Other { label: String, value: i32 },
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RatingCase {
    example: String,
    kind: RatingKind,
    terms: Vec<TermCase>,
    total: Option<i32>,
    breakdown: Option<String>,
    unaware_total: Option<i32>,
    unaware_breakdown: Option<String>,
    error: Option<String>,
}

/// Raw distances, so the case file can hold invalid ones.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RangeCase {
    short_range: i64,
    range_strength: i64,
    distance: i64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StrikeCase {
    example: String,
    strike_rating: i32,
    defense_rating: i32,
    roll: i32,
    #[serde(default)]
    options: StrikeOptions,
    range: Option<RangeCase>,
    range_penalty: Option<i64>,
    adjusted_strike_rating: Option<i64>,
    outcome: Option<String>,
    margin: Option<i64>,
    error: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ParryCase {
    example: String,
    attack_strike_rating: i32,
    attack_roll: i32,
    parry_strike_rating: i32,
    parry_roll: i32,
    #[serde(default)]
    options: StrikeOptions,
    attack_total: Option<i64>,
    parry_total: Option<i64>,
    parried: Option<bool>,
    defense_rating: Option<i32>,
    then: Option<String>,
    error: Option<String>,
}

fn cases() -> Cases {
    toml::from_str(CASES).unwrap()
}

/// The field an error names (the variants that have one).
fn error_field(e: &Error) -> &str {
    match e {
        Error::OutOfRange { field, .. } | Error::Invalid { field, .. } | Error::Overflow { field, .. } => field,
        other => panic!("error without a field: {other:?}"),
    }
}

/// The outcome's name as the case file writes it.
fn outcome_name(o: StrikeOutcome) -> &'static str {
    match o {
        StrikeOutcome::Hit { .. } => "hit",
        StrikeOutcome::AmazingStrike { .. } => "amazing_strike",
        StrikeOutcome::GuaranteedHit { .. } => "guaranteed_hit",
        StrikeOutcome::Miss { .. } => "miss",
        StrikeOutcome::AmazingDefense { .. } => "amazing_defense",
        StrikeOutcome::Fumble { .. } => "fumble",
        StrikeOutcome::OutOfReach { .. } => "out_of_reach",
    }
}

fn strike_terms(mut b: StrikeRatingBuilder, terms: &[TermCase], example: &str) -> StrikeRatingBuilder {
    for t in terms {
        b = match t {
            TermCase::Skill { level } => b.skill(*level),
            TermCase::Attribute { name, level } => b.attribute(name.as_str(), *level),
            TermCase::AttributeBonus { name, bonus } => b.attribute_bonus(name.as_str(), *bonus),
            TermCase::Weapon { level } => b.weapon(*level),
            TermCase::Magic { bonus } => b.magic(*bonus),
            TermCase::Other { label, value } => b.other(label.as_str(), *value),
            _ => panic!("{example}: not a Strike Rating term"),
        };
    }
    b
}

fn defense_terms(mut b: DefenseRatingBuilder, terms: &[TermCase], example: &str) -> DefenseRatingBuilder {
    for t in terms {
        b = match t {
            TermCase::Skill { level } => b.skill(*level),
            TermCase::Attribute { name, level } => b.attribute(name.as_str(), *level),
            TermCase::AttributeBonus { name, bonus } => b.attribute_bonus(name.as_str(), *bonus),
            TermCase::Magic { bonus } => b.magic(*bonus),
            TermCase::Armor { bonus } => b.armor(*bonus),
            TermCase::ArmorTable { name } => b.armor_from_table(armor(name).unwrap()),
            TermCase::Shield { bonus } => b.shield(*bonus),
            TermCase::Coverage { bonus } => b.coverage(*bonus),
            TermCase::Other { label, value } => b.other(label.as_str(), *value),
            TermCase::Weapon { .. } => panic!("{example}: not a Defense Rating term"),
        };
    }
    b
}

#[test]
fn rating_cases() {
    let cases = cases().rating;
    assert!(cases.len() >= 9, "the nine rating examples of the text are in the file");
    for c in &cases {
        let ex = &c.example;
        // (total, breakdown, unaware total and breakdown) or the error.
        let built = match c.kind {
            RatingKind::Strike => strike_terms(StrikeRating::builder(), &c.terms, ex)
                .build()
                .map(|r| (r.total(), r.to_string(), None)),
            RatingKind::Defense => defense_terms(DefenseRating::builder(), &c.terms, ex).build().map(|r| {
                (
                    r.total(),
                    r.to_string(),
                    Some((r.unaware_total(), r.unaware().to_string())),
                )
            }),
        };
        match (&c.error, built) {
            (Some(field), Err(e)) => {
                assert_eq!(error_field(&e), field, "{ex}: {e}");
                assert!(
                    c.total.is_none() && c.breakdown.is_none(),
                    "{ex}: error cases expect nothing else"
                );
            }
            (Some(field), Ok(r)) => panic!("{ex}: expected an error naming {field}, got {r:?}"),
            (None, Err(e)) => panic!("{ex}: {e}"),
            (None, Ok((total, breakdown, unaware))) => {
                assert_eq!(Some(total), c.total, "{ex}");
                assert_eq!(Some(&breakdown), c.breakdown.as_ref(), "{ex}");
                match (unaware, c.unaware_total) {
                    (Some((unaware_total, unaware_breakdown)), expected) => {
                        if let Some(expected) = expected {
                            assert_eq!(unaware_total, expected, "{ex} (unaware)");
                        }
                        if let Some(expected) = &c.unaware_breakdown {
                            assert_eq!(&unaware_breakdown, expected, "{ex} (unaware)");
                        }
                    }
                    (None, None) => assert!(c.unaware_breakdown.is_none(), "{ex}"),
                    (None, Some(_)) => panic!("{ex}: only a Defense Rating has an unaware variant"),
                }
            }
        }
    }
}

#[test]
fn strike_cases() {
    let cases = cases().strike;
    assert!(cases.len() >= 5, "the five strikes of the text are in the file");
    for c in &cases {
        let ex = &c.example;
        let shot = c
            .range
            .as_ref()
            .map(|r| RangedShot::new(r.short_range, r.range_strength, r.distance));
        let result = match shot {
            None => resolve(c.strike_rating, c.defense_rating, c.roll, c.options),
            Some(Err(e)) => Err(e),
            Some(Ok(shot)) => {
                if let Some(p) = c.range_penalty {
                    assert_eq!(shot.range_penalty(), p, "{ex}: range penalty");
                }
                if let Some(sr) = c.adjusted_strike_rating {
                    assert_eq!(shot.strike_rating(c.strike_rating, c.options), sr, "{ex}: adjusted SR");
                }
                resolve_at_range(c.strike_rating, c.defense_rating, c.roll, shot, c.options)
            }
        };
        match (&c.error, result) {
            (Some(field), Err(e)) => assert_eq!(error_field(&e), field, "{ex}: {e}"),
            (Some(field), Ok(o)) => panic!("{ex}: expected an error naming {field}, got {o:?}"),
            (None, Err(e)) => panic!("{ex}: {e}"),
            (None, Ok(o)) => {
                assert_eq!(Some(outcome_name(o)), c.outcome.as_deref(), "{ex}: {o}");
                assert_eq!(Some(o.margin()), c.margin, "{ex}: {o}");
                // The odds for this situation list the same outcome for this roll.
                let odds = match c.range.as_ref() {
                    None => odds(c.strike_rating, c.defense_rating, c.options),
                    Some(r) => {
                        let shot = RangedShot::new(r.short_range, r.range_strength, r.distance).unwrap();
                        odds_at_range(c.strike_rating, c.defense_rating, shot, c.options)
                    }
                };
                assert_eq!(odds.outcome(c.roll), Some(o), "{ex}");
            }
        }
    }
}

#[test]
fn parry_cases() {
    let cases = cases().parry;
    assert!(cases.len() >= 2, "Brooklyn's two parries are in the file");
    for c in &cases {
        let ex = &c.example;
        let result = parry(
            c.attack_strike_rating,
            c.attack_roll,
            c.parry_strike_rating,
            c.parry_roll,
            c.options,
        );
        match (&c.error, result) {
            (Some(field), Err(e)) => assert_eq!(error_field(&e), field, "{ex}: {e}"),
            (Some(field), Ok(p)) => panic!("{ex}: expected an error naming {field}, got {p:?}"),
            (None, Err(e)) => panic!("{ex}: {e}"),
            (None, Ok(p)) => {
                assert_eq!(Some(p.attack_total), c.attack_total, "{ex}");
                assert_eq!(Some(p.parry_total), c.parry_total, "{ex}");
                assert_eq!(Some(p.parried()), c.parried, "{ex}");
                if let (Some(dr), Some(then)) = (c.defense_rating, &c.then) {
                    assert!(!p.parried(), "{ex}: a parried attack goes no further");
                    let o = resolve(c.attack_strike_rating, dr, c.attack_roll, c.options).unwrap();
                    assert_eq!(outcome_name(o), then, "{ex}");
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Exact odds against brute force

/// The optional rules restated from the text, independently of the library.
fn by_the_text(sr: i64, dr: i64, roll: i64, o: StrikeOptions) -> &'static str {
    let margin = sr + roll - dr;
    let hits = margin > 0;
    if o.guaranteed_success_and_fumble && roll == 4 && !hits {
        return "guaranteed_hit";
    }
    if o.guaranteed_success_and_fumble && roll == -4 && hits {
        return "fumble";
    }
    let could_hit_normally = sr + 4 > dr;
    let amazing_needs_more_than_3 = sr + 3 - dr < 4;
    let could_miss_normally = sr - 4 <= dr;
    if hits {
        let special = roll == 4 && could_hit_normally && amazing_needs_more_than_3;
        if o.amazing && (margin >= 4 || special) {
            "amazing_strike"
        } else {
            "hit"
        }
    } else {
        let special = roll == -4 && could_miss_normally;
        if o.amazing && (dr - (sr + roll) >= 3 || special) {
            "amazing_defense"
        } else {
            "miss"
        }
    }
}

/// Tallies each of the 81 individual 4dF outcomes (each die -1, 0 or +1)
/// through `strike`, by outcome name.
fn brute_force(mut strike: impl FnMut(i32) -> StrikeOutcome) -> std::collections::BTreeMap<&'static str, u64> {
    let mut tally = std::collections::BTreeMap::new();
    for a in -1..=1 {
        for b in -1..=1 {
            for c in -1..=1 {
                for d in -1..=1 {
                    *tally.entry(outcome_name(strike(a + b + c + d))).or_insert(0) += 1;
                }
            }
        }
    }
    assert_eq!(tally.values().sum::<u64>(), 81);
    tally
}

fn assert_odds_match(odds: &StrikeOdds, tally: &std::collections::BTreeMap<&'static str, u64>, what: &str) {
    let n = |k: &str| tally.get(k).copied().unwrap_or(0);
    for p in [
        odds.hit,
        odds.miss,
        odds.amazing_strike,
        odds.amazing_defense,
        odds.guaranteed_hit,
        odds.fumble,
        odds.out_of_reach,
    ] {
        assert_eq!(p.denominator, 81, "{what}");
    }
    assert_eq!(
        odds.hit.numerator,
        n("hit") + n("amazing_strike") + n("guaranteed_hit"),
        "{what}"
    );
    assert_eq!(odds.miss.numerator, 81 - odds.hit.numerator, "{what}");
    assert_eq!(odds.amazing_strike.numerator, n("amazing_strike"), "{what}");
    assert_eq!(odds.amazing_defense.numerator, n("amazing_defense"), "{what}");
    assert_eq!(odds.guaranteed_hit.numerator, n("guaranteed_hit"), "{what}");
    assert_eq!(odds.fumble.numerator, n("fumble"), "{what}");
    assert_eq!(odds.out_of_reach.numerator, n("out_of_reach"), "{what}");
}

#[test]
fn odds_agree_with_all_81_outcomes_and_with_the_text() {
    let mut checked = 0;
    for options in StrikeOptions::combinations() {
        for sr in -2..=14 {
            for dr in 0..=14 {
                let what = format!("SR {sr} DR {dr} {options:?}");
                let o = odds(sr, dr, options);
                let tally = brute_force(|roll| resolve(sr, dr, roll, options).unwrap());
                assert_odds_match(&o, &tally, &what);
                // And the resolver is the text's rule, restated independently.
                let by_text = brute_force(|roll| {
                    let name = by_the_text(sr.into(), dr.into(), roll.into(), options);
                    let outcome = resolve(sr, dr, roll, options).unwrap();
                    assert_eq!(outcome_name(outcome), name, "{what} roll {roll}");
                    outcome
                });
                assert_eq!(tally, by_text);
                for roll in -4..=4 {
                    assert_eq!(o.outcome(roll), Some(resolve(sr, dr, roll, options).unwrap()), "{what}");
                }
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 8 * 17 * 15);
}

#[test]
fn ranged_odds_agree_with_all_81_outcomes() {
    for options in StrikeOptions::combinations() {
        for (short, rs) in [(0, 1), (25, 5), (150, 50), (10, 50)] {
            for distance in [
                0,
                4,
                5,
                6,
                24,
                25,
                26,
                30,
                40,
                150,
                199,
                200,
                201,
                280,
                10_000,
                i64::MAX,
            ] {
                let shot = RangedShot::new(short, rs, distance).unwrap();
                for sr in -2..=10 {
                    for dr in [-3, 0, 3, 7, 12] {
                        let what = format!("SR {sr} DR {dr} {shot:?} {options:?}");
                        let o = odds_at_range(sr, dr, shot, options);
                        let tally = brute_force(|roll| resolve_at_range(sr, dr, roll, shot, options).unwrap());
                        assert_odds_match(&o, &tally, &what);
                        if shot.is_out_of_reach(sr, options) {
                            assert_eq!(o.out_of_reach.numerator, 81, "{what}");
                            assert_eq!(o.hit.numerator, 0, "{what}");
                        } else {
                            // Within reach, a shot is a melee strike with the adjusted SR.
                            let adjusted = shot.strike_rating(sr, options);
                            if let Ok(adjusted) = i32::try_from(adjusted) {
                                assert_eq!(o, odds(adjusted, dr, options), "{what}");
                            }
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn known_odds() {
    let core = StrikeOptions::CORE;
    // Equal ratings: the attacker needs +1 or better, 16+10+4+1 of 81.
    assert_eq!(odds(7, 7, core).hit.numerator, 31);
    // Needing +5 is hopeless, -4 always hits without the fumble rule.
    assert_eq!(odds(3, 12, core).hit.numerator, 0);
    assert_eq!(odds(12, 3, core).hit.numerator, 81);
    let guaranteed = StrikeOptions {
        guaranteed_success_and_fumble: true,
        ..StrikeOptions::CORE
    };
    assert_eq!(odds(3, 12, guaranteed).hit.numerator, 1);
    assert_eq!(odds(3, 12, guaranteed).guaranteed_hit.numerator, 1);
    assert_eq!(odds(12, 3, guaranteed).fumble.numerator, 1);
    assert_eq!(odds(12, 3, guaranteed).hit.numerator, 80);
    let amazing = StrikeOptions {
        amazing: true,
        ..StrikeOptions::CORE
    };
    // Goblin (SR 5) vs Cardiff (DR 7): hits on +3 or +4, and the +4 is amazing.
    let g = odds(5, 7, amazing);
    assert_eq!((g.hit.numerator, g.amazing_strike.numerator), (5, 1));
    // Amazing defense on -1 or lower (margin -3 or worse): 1+4+10+16.
    assert_eq!(g.amazing_defense.numerator, 31);
    assert_eq!(g.lowest_hitting_roll(), Some(3));
    assert_eq!(odds(3, 12, core).lowest_hitting_roll(), None);
    assert_eq!(g.outcome(5), None);
    assert_eq!(g.outcome(i32::MIN), None);
}

// ---------------------------------------------------------------------------
// Ratings through the API

#[test]
fn cardiff_through_the_api() {
    let sword = StrikeRating::builder()
        .skill(Level::GREAT)
        .attribute("strength", Level::SUPERB)
        .weapon(Level::GOOD)
        .build()
        .unwrap();
    assert_eq!(sword.total(), 9);
    assert_eq!(sword.rating().base(), 5);
    let kinds: Vec<TermKind> = sword.rating().terms().iter().map(|t| t.kind).collect();
    assert_eq!(kinds, [TermKind::Skill, TermKind::Attribute, TermKind::Weapon]);
    let goblin = resolve(sword.total(), 6, -1, StrikeOptions::default()).unwrap();
    assert!(goblin.is_hit());
    assert_eq!(goblin.to_string(), "hit (margin +2)");
    let madoc = StrikeRating::builder()
        .skill(-1)
        .attribute("vision", Level::POOR)
        .weapon(-1)
        .build()
        .unwrap();
    assert_eq!(madoc.to_string(), "5 base - 1 skill - 1 vision - 1 weapon = 2");
}

#[test]
fn rating_overflow_is_a_typed_error() {
    let e = StrikeRating::builder().skill(i32::MAX).weapon(1).build().unwrap_err();
    assert!(
        matches!(&e, Error::Overflow { field, .. } if field == "strike_rating"),
        "{e}"
    );
    assert_eq!(
        e.to_string(),
        "strike_rating: arithmetic overflow (5 base + 2147483647 skill + 1 weapon sums to 2147483653, \
         beyond the -2147483648..=2147483647 a rating holds)"
    );
    let e = DefenseRating::builder()
        .armor(i32::MIN)
        .shield(i32::MIN)
        .build()
        .unwrap_err();
    assert!(
        matches!(&e, Error::Overflow { field, .. } if field == "defense_rating"),
        "{e}"
    );
    // i32::MIN displays without overflowing its negation.
    let r = StrikeRating::builder()
        .magic(i32::MIN)
        .other("luck", i32::MAX)
        .build()
        .unwrap();
    assert_eq!(r.to_string(), "5 base - 2147483648 magic + 2147483647 luck = 4");
    // Empty labels are refused, in attributes too.
    let e = DefenseRating::builder().attribute("", 2).build().unwrap_err();
    assert_eq!(error_field(&e), "defense_rating.attribute");
}

proptest! {
    #[test]
    fn ratings_never_panic(terms in proptest::collection::vec((0u8..8, any::<i32>()), 0..12)) {
        let mut strike = StrikeRating::builder();
        let mut defense = DefenseRating::builder();
        let mut exact = i128::from(StrikeRating::BASE);
        for &(kind, v) in &terms {
            strike = match kind {
                0 => strike.skill(v),
                1 => strike.attribute("a", v),
                2 => strike.weapon(v),
                3 => strike.magic(v),
                4 => strike.attribute_bonus("b", v),
                _ => strike.other("x", v),
            };
            exact += i128::from(if kind == 1 { v / 2 } else { v });
            defense = match kind {
                0 => defense.skill(v),
                1 => defense.attribute("a", v),
                2 => defense.armor(v),
                3 => defense.shield(v),
                4 => defense.coverage(v),
                5 => defense.magic(v),
                6 => defense.attribute_bonus("b", v),
                _ => defense.other("x", v),
            };
        }
        match strike.build() {
            Ok(r) => {
                prop_assert_eq!(i128::from(r.total()), exact);
                let suffix = format!(" = {}", r.total());
                prop_assert!(r.to_string().ends_with(&suffix), "{}", r);
            }
            Err(e) => {
                prop_assert!(i32::try_from(exact).is_err());
                prop_assert!(matches!(e, Error::Overflow { .. }), "{}", e);
            }
        }
        if let Ok(d) = defense.build() {
            prop_assert!(d.unaware_total() <= d.total());
            let _ = d.unaware().to_string();
        }
    }

    #[test]
    fn strikes_never_panic(
        sr in any::<i32>(),
        dr in any::<i32>(),
        roll in prop_oneof![any::<i32>(), -5i32..=5],
        short in prop_oneof![any::<i64>(), -2i64..=300],
        rs in prop_oneof![any::<i64>(), -2i64..=60],
        distance in prop_oneof![any::<i64>(), -2i64..=400],
        flags in 0usize..8,
    ) {
        let options = StrikeOptions::combinations()[flags];
        let melee = resolve(sr, dr, roll, options);
        prop_assert_eq!(melee.is_ok(), (-4..=4).contains(&roll));
        let o = odds(sr, dr, options);
        prop_assert_eq!(o.hit.numerator + o.miss.numerator, 81);
        if let Ok(outcome) = melee {
            prop_assert_eq!(Some(outcome), o.outcome(roll));
            prop_assert_eq!(outcome.margin(), i64::from(sr) + i64::from(roll) - i64::from(dr));
        }
        let _ = parry(sr, roll, dr, roll, options);
        match RangedShot::new(short, rs, distance) {
            Ok(shot) => {
                prop_assert!(short >= 0 && rs > 0 && distance >= 0);
                prop_assert!(shot.range_penalty() <= 0);
                let ranged = resolve_at_range(sr, dr, roll, shot, options);
                prop_assert_eq!(ranged.is_ok(), (-4..=4).contains(&roll));
                let o = odds_at_range(sr, dr, shot, options);
                prop_assert_eq!(o.hit.numerator + o.miss.numerator, 81);
                if let Ok(outcome) = ranged {
                    prop_assert_eq!(Some(outcome), o.outcome(roll));
                    if shot.is_out_of_reach(sr, options) {
                        prop_assert!(!outcome.is_hit());
                    }
                }
            }
            Err(e) => {
                prop_assert!(short < 0 || rs <= 0 || distance < 0);
                prop_assert!(matches!(e, Error::OutOfRange { .. }), "{}", e);
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Range, rolls from sources, serde

#[test]
fn range_errors_name_the_field() {
    let field = |r: Result<RangedShot, Error>| error_field(&r.unwrap_err()).to_owned();
    assert_eq!(field(RangedShot::new(-1, 5, 0)), "short_range");
    assert_eq!(field(RangedShot::new(0, 0, 0)), "range_strength");
    assert_eq!(field(RangedShot::new(0, i64::MIN, 0)), "range_strength");
    assert_eq!(field(RangedShot::new(0, 5, -1)), "distance");
    assert_eq!(field(WeaponRange::new(10, 5).unwrap().at(i64::MIN)), "distance");
    assert_eq!(
        RangedShot::new(0, 0, 0).unwrap_err().to_string(),
        "range_strength: 0 is outside 1..=9223372036854775807"
    );
    let bow = WeaponRange::new(150, 50).unwrap();
    assert_eq!((bow.short_range(), bow.range_strength()), (150, 50));
    let shot = bow.at(280).unwrap();
    assert_eq!((shot.range(), shot.distance()), (bow, 280));
}

#[test]
fn strikes_roll_from_any_source() {
    // Cardiff's swing and the goblin's reply, rolled at the table.
    let mut table = ScriptedRolls::new([-1, 2]);
    let swing = roll_strike(&mut table, 9, 6, None, StrikeOptions::CORE).unwrap();
    assert_eq!((swing.roll, swing.outcome), (-1, StrikeOutcome::Hit { margin: 2 }));
    let reply = roll_strike(&mut table, 5, 7, None, StrikeOptions::CORE).unwrap();
    assert_eq!(reply.outcome, StrikeOutcome::Miss { margin: 0 });
    assert!(matches!(
        roll_strike(&mut table, 5, 7, None, StrikeOptions::CORE),
        Err(Error::ScriptExhausted { .. })
    ));
    // A scripted roll that is no 4dF total is refused by the source.
    let mut bad = ScriptedRolls::new([7]);
    assert!(matches!(
        roll_strike(&mut bad, 5, 7, None, StrikeOptions::CORE),
        Err(Error::ScriptedRollOutOfRange { .. })
    ));
    // The sniper's arrow.
    let shot = RangedShot::new(150, 50, 280).unwrap();
    let arrow = roll_strike(&mut ScriptedRolls::new([2]), 7, 7, Some(shot), StrikeOptions::CORE).unwrap();
    assert_eq!(arrow.outcome, StrikeOutcome::Miss { margin: -1 });
    // Seeded: the same seed, the same strikes, and the hit rate is near the exact odds.
    let mut a = SeededRolls::new(7);
    let mut b = SeededRolls::new(7);
    let mut hits = 0u32;
    for _ in 0..8100 {
        let x = roll_strike(&mut a, 7, 7, None, StrikeOptions::ALL).unwrap();
        let y = resolve(7, 7, b.roll(Dice::FOUR_DF).unwrap(), StrikeOptions::ALL).unwrap();
        assert_eq!(x.outcome, y);
        hits += u32::from(x.outcome.is_hit());
    }
    // Exact: 31/81, i.e. 3100 of 8100; allow five standard deviations (~220).
    assert!((2880..=3320).contains(&hits), "{hits}");
}

#[test]
fn serde_round_trips() {
    let shot = RangedShot::new(150, 50, 280).unwrap();
    let json = serde_json::to_string(&shot).unwrap();
    assert_eq!(json, r#"{"short_range":150,"range_strength":50,"distance":280}"#);
    assert_eq!(serde_json::from_str::<RangedShot>(&json).unwrap(), shot);
    let bad = r#"{"short_range":150,"range_strength":0,"distance":280}"#;
    assert!(
        serde_json::from_str::<RangedShot>(bad)
            .unwrap_err()
            .to_string()
            .contains("range_strength")
    );
    let range: WeaponRange = serde_json::from_str(r#"{"short_range":25,"range_strength":5}"#).unwrap();
    assert_eq!(range, WeaponRange::new(25, 5).unwrap());
    let options: StrikeOptions = serde_json::from_str(r#"{"amazing":true}"#).unwrap();
    assert_eq!(
        options,
        StrikeOptions {
            amazing: true,
            ..StrikeOptions::CORE
        }
    );
    assert!(serde_json::from_str::<StrikeOptions>(r#"{"amazin":true}"#).is_err());
    let outcome = StrikeOutcome::AmazingStrike { margin: 4 };
    let json = serde_json::to_string(&outcome).unwrap();
    assert_eq!(json, r#"{"outcome":"amazing_strike","margin":4}"#);
    assert_eq!(serde_json::from_str::<StrikeOutcome>(&json).unwrap(), outcome);
}

#[test]
fn outcomes_read_well() {
    assert_eq!(StrikeOutcome::Miss { margin: 0 }.to_string(), "miss (margin +0)");
    assert_eq!(StrikeOutcome::Fumble { margin: 5 }.to_string(), "fumble (margin +5)");
    assert_eq!(
        StrikeOutcome::OutOfReach {
            strike_rating: -1,
            margin: -3
        }
        .to_string(),
        "out of reach (SR -1 after range)"
    );
    assert!(StrikeOutcome::GuaranteedHit { margin: -5 }.is_hit());
    assert!(!StrikeOutcome::Fumble { margin: 5 }.is_hit());
}

// ---------------------------------------------------------------------------
// The armor table through the API

#[test]
fn armor_table() {
    assert_eq!(armor::all().len(), 8);
    assert_eq!(armor::ARMOR.len(), 8);
    for (name, bonus) in [
        ("kevlar", 3),
        ("RIOT GEAR", 4),
        ("chain mail", 2),
        ("plate", 4),
        ("leather", 1),
        ("full plate", 5),
        ("Cloth or less", 0),
        ("blast suit", 5),
    ] {
        assert_eq!(armor(name).unwrap().defense_rating_bonus, bonus, "{name}");
    }
    assert!(armor("shield").unwrap().situational);
    assert!(armor("greaves").unwrap().situational);
    assert!(!armor("plate").unwrap().situational);
    let e = armor("chian mail").unwrap_err();
    assert!(
        matches!(&e, Error::UnknownName { kind, suggestions, .. } if kind == "armor" && suggestions[0] == "Chain/ring mail, etc."),
        "{e}"
    );
    // A shield from the table counts as a shield, coverage as coverage.
    let dr = DefenseRating::builder()
        .armor_from_table(armor("shield").unwrap())
        .armor_from_table(armor("helm").unwrap())
        .build()
        .unwrap();
    assert_eq!(dr.to_string(), "3 base + 1 shield + 1 coverage = 5");
    assert_eq!(dr.rating().terms()[0].kind, TermKind::Shield);
}
