//! Exact timing analysis against brute force: every result of
//! `timing::analysis` is checked against an independent enumeration of the
//! individual dice (each Fudge die -1/0/+1, each d6 face), written here
//! without the crate's distributions.

use std::collections::BTreeMap;

use proptest::prelude::*;
use skirmish_core::Error;
use skirmish_core::dice::Probability;
use skirmish_core::tables::weapons::{self, RateOfFire};
use skirmish_core::timing::analysis::{
    self, FirstAction, MAX_TICKS, MAX_TIME_TAKEN, Ratio, TICKS_PER_ROUND, actions_for_roll, actions_per_phase,
    actions_per_phase_mean, attacks_per_round, continuous_actions, first_action_order, graduated_actions,
    initiative_distribution, ready_time_distribution,
};

// ---------------------------------------------------------------------------
// Brute-force helpers (independent of the crate's Distribution)

/// Every sequence of `n` Fudge dice, as the list of their faces.
fn fudge_faces(n: u32) -> Vec<Vec<i64>> {
    let mut all = vec![Vec::new()];
    for _ in 0..n {
        all = all
            .into_iter()
            .flat_map(|prefix| {
                [-1, 0, 1].map(|f| {
                    let mut v = prefix.clone();
                    v.push(f);
                    v
                })
            })
            .collect();
    }
    all
}

/// `value -> count` of `max(1, sum of n dF + base)` over the 3^n rolls.
fn floored_counts(n: u32, base: i64) -> BTreeMap<i64, u128> {
    let mut m = BTreeMap::new();
    for faces in fudge_faces(n) {
        *m.entry((faces.iter().sum::<i64>() + base).max(1)).or_insert(0) += 1;
    }
    m
}

fn initiative_counts(tt: u32, bonus: i32) -> BTreeMap<i64, u128> {
    floored_counts(4, 5 + i64::from(tt) - i64::from(bonus))
}

fn ready_counts(tt: u32, bonus: i32) -> BTreeMap<i64, u128> {
    floored_counts(2, i64::from(tt) - i64::from(bonus))
}

fn prob(numerator: u128, denominator: u128) -> Ratio {
    Ratio::new(numerator, denominator).unwrap()
}

fn as_ratio(p: Probability) -> Ratio {
    prob(u128::from(p.numerator), u128::from(p.denominator))
}

// ---------------------------------------------------------------------------
// Initiative and Ready Time

#[test]
fn initiative_of_the_plain_roll_is_4df_plus_5() {
    let d = initiative_distribution(0, 0).unwrap();
    assert_eq!(d.min(), 1);
    assert_eq!(d.counts(), &[1, 4, 10, 16, 19, 16, 10, 4, 1]);
}

#[test]
fn a_big_bonus_piles_everything_on_tick_1() {
    let d = initiative_distribution(0, 20).unwrap();
    assert_eq!((d.min(), d.counts()), (1, &[81][..]));
    assert_eq!(d.probability(1), Probability::ONE);
    let rt = ready_time_distribution(0, 20).unwrap();
    assert_eq!((rt.min(), rt.counts()), (1, &[9][..]));
}

#[test]
fn initiative_and_ready_time_match_the_dice_one_by_one() {
    for tt in [0, 1, 2, 3, 7, 8, 14, 100] {
        for bonus in [-5, -1, 0, 1, 2, 3, 6, 9, 12, 40] {
            let d = initiative_distribution(tt, bonus).unwrap();
            let got: BTreeMap<i64, u128> = d
                .iter()
                .filter(|&(_, c)| c > 0)
                .map(|(v, c)| (i64::from(v), u128::from(c)))
                .collect();
            assert_eq!(got, initiative_counts(tt, bonus), "initiative TT {tt} bonus {bonus}");
            let rt = ready_time_distribution(tt, bonus).unwrap();
            let got: BTreeMap<i64, u128> = rt
                .iter()
                .filter(|&(_, c)| c > 0)
                .map(|(v, c)| (i64::from(v), u128::from(c)))
                .collect();
            assert_eq!(got, ready_counts(tt, bonus), "ready time TT {tt} bonus {bonus}");
        }
    }
}

#[test]
fn the_seed_ready_times() {
    // Graduated Rounds example: dagger TT 3, no bonus; Roland's bow TT 2, +1.
    let dagger = ready_time_distribution(3, 0).unwrap();
    assert_eq!((dagger.min(), dagger.counts()), (1, &[1, 2, 3, 2, 1][..]));
    let roland = ready_time_distribution(2, 1).unwrap();
    // Rolls -2, -1, 0 all give the minimum 1 (the text's roll of -1 -> 0 -> 1).
    assert_eq!((roland.min(), roland.counts()), (1, &[6, 2, 1][..]));
}

#[test]
fn absurd_time_taken_and_bonus_are_refused_by_name() {
    let field = |e: Error| match e {
        Error::OutOfRange { field, .. } | Error::Overflow { field, .. } | Error::Invalid { field, .. } => field,
        other => panic!("unexpected {other:?}"),
    };
    assert!(initiative_distribution(MAX_TIME_TAKEN, 0).is_ok());
    assert_eq!(
        field(initiative_distribution(MAX_TIME_TAKEN + 1, 0).unwrap_err()),
        "time_taken"
    );
    assert_eq!(field(initiative_distribution(u32::MAX, 0).unwrap_err()), "time_taken");
    assert_eq!(field(initiative_distribution(0, i32::MIN).unwrap_err()), "speed_bonus");
    assert_eq!(field(ready_time_distribution(0, i32::MIN).unwrap_err()), "speed_bonus");
    // The slowest tick just below i32::MAX is fine.
    let d = initiative_distribution(MAX_TIME_TAKEN, 0).unwrap();
    assert_eq!(d.max(), i32::MAX - 1);
    assert!(initiative_distribution(0, -(i32::MAX - 10)).is_ok());
    assert!(initiative_distribution(0, -(i32::MAX - 9)).is_err());
    // TT 2^31 - 11 with a bonus of 2^31 - 1: 4dF - 5, every roll on tick 1.
    assert_eq!(
        initiative_distribution(MAX_TIME_TAKEN, i32::MAX).unwrap().counts(),
        &[81]
    );
    let a = FirstAction {
        time_taken: 0,
        speed_bonus: 0,
    };
    let b = FirstAction {
        time_taken: u32::MAX,
        speed_bonus: 0,
    };
    assert_eq!(field(first_action_order(a, b).unwrap_err()), "b.time_taken");
    assert_eq!(field(first_action_order(b, a).unwrap_err()), "a.time_taken");
}

// ---------------------------------------------------------------------------
// First-action order

/// The order odds over the 81 x 81 individual rolls of the eight dice.
fn brute_order(a: FirstAction, b: FirstAction) -> (u64, u64, u64) {
    let side = |f: FirstAction| -> Vec<i64> {
        fudge_faces(4)
            .iter()
            .map(|d| (d.iter().sum::<i64>() + 5 + i64::from(f.time_taken) - i64::from(f.speed_bonus)).max(1))
            .collect()
    };
    let (ta, tb) = (side(a), side(b));
    let (mut first, mut same, mut second) = (0, 0, 0);
    for x in &ta {
        for y in &tb {
            match x.cmp(y) {
                std::cmp::Ordering::Less => first += 1,
                std::cmp::Ordering::Equal => same += 1,
                std::cmp::Ordering::Greater => second += 1,
            }
        }
    }
    (first, same, second)
}

#[test]
fn roland_against_cardiff() {
    // Simple Rounds example: Roland's bow TT 2, bonus +1; Cardiff's
    // two-handed sword TT 7, bonus 0. Roland is 4dF+6, Cardiff 4dF+12.
    let roland = FirstAction {
        time_taken: 2,
        speed_bonus: 1,
    };
    let cardiff = FirstAction {
        time_taken: 7,
        speed_bonus: 0,
    };
    let odds = first_action_order(roland, cardiff).unwrap();
    assert_eq!(
        [odds.a_first, odds.same_tick, odds.b_first].map(|p| (p.numerator, p.denominator)),
        [(6516, 6561), (36, 6561), (9, 6561)]
    );
    assert_eq!(brute_order(roland, cardiff), (6516, 36, 9));
    // The text's rolls (4 and 1 on 4dF+5) gave 5 and 8: Roland first, one of the 6516.
}

#[test]
fn order_matches_brute_force_on_a_grid() {
    let specs = [
        (0, 0),
        (0, 2),
        (2, 1),
        (3, 0),
        (7, 0),
        (8, -1),
        (14, 0),
        (0, 20),
        (5, 9),
    ];
    for &(ta, ba) in &specs {
        for &(tb, bb) in &specs {
            let a = FirstAction {
                time_taken: ta,
                speed_bonus: ba,
            };
            let b = FirstAction {
                time_taken: tb,
                speed_bonus: bb,
            };
            let odds = first_action_order(a, b).unwrap();
            let got = (odds.a_first.numerator, odds.same_tick.numerator, odds.b_first.numerator);
            assert_eq!(got, brute_order(a, b), "{a:?} vs {b:?}");
            assert_eq!(odds.a_first.denominator, 6561);
        }
    }
}

#[test]
fn identical_fighters_split_evenly() {
    let f = FirstAction {
        time_taken: 3,
        speed_bonus: 0,
    };
    let odds = first_action_order(f, f).unwrap();
    // Same tick: the sum of squared 4dF counts.
    assert_eq!(
        odds.same_tick.numerator,
        [1u64, 4, 10, 16, 19, 16, 10, 4, 1].iter().map(|c| c * c).sum::<u64>()
    );
    assert_eq!(odds.a_first, odds.b_first);
}

// ---------------------------------------------------------------------------
// FUZION Action Blocks

/// Floor division written out, so the test does not share `div_euclid`.
fn floor_div5(c: i64) -> i64 {
    let q = c / 5;
    if c % 5 != 0 && c < 0 { q - 1 } else { q }
}

fn brute_actions(reflexes: i32, combat_sense: i32) -> BTreeMap<i64, u64> {
    let mut m = BTreeMap::new();
    for face in 1..=6i64 {
        let composite = i64::from(reflexes) + i64::from(combat_sense) + face;
        *m.entry(floor_div5(composite).max(1)).or_insert(0) += 1;
    }
    m
}

fn as_map(d: &skirmish_core::dice::Distribution) -> BTreeMap<i64, u64> {
    d.iter()
        .filter(|&(_, c)| c > 0)
        .map(|(v, c)| (i64::from(v), c))
        .collect()
}

#[test]
fn the_seed_people() {
    // Bob the Plumber: REF 4, no Combat Sense, rolls 4: composite 8 -> 1 action.
    assert_eq!(actions_for_roll(4, 0, 4).unwrap(), 1);
    let bob = actions_per_phase(4, 0).unwrap();
    assert_eq!((bob.min(), bob.counts()), (1, &[5, 1][..])); // 2 actions only on a 6
    assert_eq!(actions_per_phase_mean(4, 0).unwrap(), prob(7, 6));

    // Yuri the Death-Solo: REF 8, Combat Sense 4, rolls 3: composite 15 -> 3.
    assert_eq!(actions_for_roll(8, 4, 3).unwrap(), 3);
    let yuri = actions_per_phase(8, 4).unwrap();
    assert_eq!((yuri.min(), yuri.counts()), (2, &[2, 4][..])); // 13, 14 -> 2; 15..18 -> 3
    assert_eq!(actions_per_phase_mean(8, 4).unwrap(), prob(8, 3));

    // Auntie Em: REF 2, rolls 2: composite 4 -> 0, but at least 1.
    assert_eq!(actions_for_roll(2, 0, 2).unwrap(), 1);
    let em = actions_per_phase(2, 0).unwrap();
    assert_eq!((em.min(), em.counts()), (1, &[6][..]));
    assert_eq!(actions_per_phase_mean(2, 0).unwrap(), Ratio::whole(1));
}

#[test]
fn actions_per_phase_matches_the_six_faces() {
    for reflexes in -30..=30 {
        // Combat Sense is a level of skill: a negative one is refused.
        for combat_sense in [-7, -1] {
            assert!(
                matches!(actions_per_phase(reflexes, combat_sense), Err(Error::OutOfRange { ref field, .. }) if field == "combat_sense"),
                "REF {reflexes} CS {combat_sense}"
            );
            assert!(actions_for_roll(reflexes, combat_sense, 3).is_err());
            assert!(actions_per_phase_mean(reflexes, combat_sense).is_err());
        }
        for combat_sense in [0, 1, 2, 4, 9] {
            let d = actions_per_phase(reflexes, combat_sense).unwrap();
            assert_eq!(d.total(), 6);
            assert_eq!(
                as_map(&d),
                brute_actions(reflexes, combat_sense),
                "REF {reflexes} CS {combat_sense}"
            );
            for roll in 1..=6 {
                let c = i64::from(reflexes + combat_sense + roll);
                assert_eq!(
                    i64::from(actions_for_roll(reflexes, combat_sense, roll).unwrap()),
                    floor_div5(c).max(1)
                );
            }
        }
    }
}

#[test]
fn action_blocks_refuse_bad_rolls_and_overflow() {
    assert!(matches!(actions_for_roll(4, 0, 0), Err(Error::OutOfRange { ref field, .. }) if field == "roll"));
    assert!(matches!(actions_for_roll(4, 0, 7), Err(Error::OutOfRange { .. })));
    assert!(matches!(actions_per_phase(i32::MAX, 0), Err(Error::Overflow { .. })));
    assert!(actions_per_phase(i32::MAX - 6, 0).is_ok());
    assert!(matches!(
        actions_per_phase(i32::MAX - 5, 0),
        Err(Error::Overflow { .. })
    ));
    // A negative Combat Sense is refused before any sum (a level of skill).
    assert!(
        matches!(actions_per_phase(i32::MIN, -1), Err(Error::OutOfRange { ref field, .. }) if field == "combat_sense")
    );
    assert!(matches!(
        actions_per_phase(i32::MAX - 1005, 1000),
        Err(Error::Overflow { .. })
    ));
    assert_eq!(actions_per_phase(i32::MIN, 0).unwrap().counts(), &[6]);
    let top = actions_per_phase(i32::MAX - 6, 0).unwrap();
    assert_eq!(i64::from(top.max()), (i64::from(i32::MAX)) / 5);
}

// ---------------------------------------------------------------------------
// Rate of Fire in Simple Rounds

#[test]
fn fractional_rates_of_fire() {
    let r = |s: &str, extra| attacks_per_round(s.parse::<RateOfFire>().unwrap(), extra).unwrap();
    let hammer = r("4/3", 0);
    assert_eq!(hammer.per_round, [2, 1, 1]);
    assert_eq!(hammer.mean, prob(4, 3));
    assert_eq!((hammer.mean.numerator, hammer.mean.denominator), (4, 3));
    let crossbow = r("1/2", 0);
    assert_eq!(crossbow.per_round, [1, 0]);
    assert_eq!(crossbow.mean, prob(1, 2));
    let sniper = r("2/3", 0);
    assert_eq!(sniper.per_round, [1, 1, 0]);
    // Roland's bow with Bracers of Archery: a third shot every round.
    let bracers = r("2/1", 1);
    assert_eq!(bracers.per_round, [3]);
    assert_eq!(bracers.mean, Ratio::whole(3));
    let fan = r("5/3", 1);
    assert_eq!(fan.per_round, [3, 3, 2]);
    assert_eq!((fan.per_cycle, fan.mean), (8, prob(8, 3)));
}

#[test]
fn every_table_weapon_fires_its_rate_over_a_cycle() {
    for w in weapons::all() {
        for extra in [0, 1, 2] {
            let a = attacks_per_round(w.rate_of_fire, extra).unwrap();
            let (n, k) = (w.rate_of_fire.shots(), w.rate_of_fire.rounds());
            assert_eq!(a.per_round.len(), k as usize, "{}", w.name);
            let sum: u64 = a.per_round.iter().map(|&x| u64::from(x)).sum();
            assert_eq!(sum, u64::from(n + k * extra), "{}", w.name);
            assert_eq!(a.per_cycle, sum);
            assert_eq!(a.mean, prob(u128::from(n + k * extra), u128::from(k)), "{}", w.name);
        }
    }
}

#[test]
fn rate_of_fire_limits() {
    let long = RateOfFire::new(1, analysis::MAX_CYCLE_ROUNDS + 1).unwrap();
    assert!(
        matches!(attacks_per_round(long, 0), Err(Error::OutOfRange { ref field, .. }) if field == "rate_of_fire.rounds")
    );
    let many = RateOfFire::new(u32::MAX, 1).unwrap();
    assert!(matches!(attacks_per_round(many, 1), Err(Error::Overflow { ref field, .. }) if field == "extra_per_round"));
    assert_eq!(
        attacks_per_round(many, 0).unwrap().mean,
        Ratio::whole(u128::from(u32::MAX))
    );
}

// ---------------------------------------------------------------------------
// Continuous

/// Expected landings per tick over `1..=ticks`, by enumerating every
/// sequence of Ready Times (values and their dice counts, from the dice
/// one by one), with exact weights out of `81 * 9^(ticks - 1)`.
fn brute_continuous(tt: u32, bonus: i32, ticks: i64) -> Vec<Ratio> {
    let ready: Vec<(i64, u128)> = ready_counts(tt, bonus).into_iter().collect();
    let scale = 9u128.pow(u32::try_from(ticks - 1).unwrap());
    let mut per_tick = vec![0u128; usize::try_from(ticks).unwrap()];
    fn walk(tick: i64, weight: u128, ticks: i64, ready: &[(i64, u128)], per_tick: &mut [u128]) {
        if tick > ticks {
            return;
        }
        per_tick[usize::try_from(tick - 1).unwrap()] += weight;
        for &(rt, count) in ready.iter().filter(|&&(rt, _)| tick + rt <= ticks) {
            // One more 2dF roll: weight * count / 9, exact while tick < ticks.
            assert_eq!(weight * count % 9, 0);
            walk(tick + rt, weight * count / 9, ticks, ready, per_tick);
        }
    }
    for (init, count) in initiative_counts(tt, bonus) {
        walk(init, count * scale, ticks, &ready, &mut per_tick);
    }
    per_tick.into_iter().map(|w| prob(w, 81 * scale)).collect()
}

#[test]
fn continuous_matches_brute_force_for_eight_ticks() {
    for tt in [0, 1, 2, 3, 4, 5, 7] {
        for bonus in [-1, 0, 1, 2, 3, 5, 20] {
            for ticks in [1, 2, 5, 8] {
                let got = continuous_actions(tt, bonus, ticks).unwrap();
                let want = brute_continuous(tt, bonus, i64::from(ticks));
                assert_eq!(got.landing, want, "TT {tt} bonus {bonus} ticks {ticks}");
                let num = want
                    .iter()
                    .map(|r| r.numerator * (81 * 9u128.pow(ticks - 1) / r.denominator))
                    .sum();
                assert_eq!(got.expected_actions, prob(num, 81 * 9u128.pow(ticks - 1)));
                assert_eq!(got.ticks, ticks);
            }
        }
    }
}

#[test]
fn continuous_known_values() {
    // One action every tick, certainly.
    let blur = continuous_actions(0, 20, TICKS_PER_ROUND).unwrap();
    assert_eq!(blur.expected_actions, Ratio::whole(20));
    assert!(blur.landing.iter().all(|&p| p == Ratio::whole(1)));
    // The heavy crossbow's Continuous TT 12: initiative 13..=21, Ready Time
    // 10..=14, so one action in 20 ticks unless 4dF = +4.
    let crossbow = continuous_actions(12, 0, TICKS_PER_ROUND).unwrap();
    assert_eq!(crossbow.expected_actions, prob(80, 81));
    // Nothing can land before the initiative.
    let slow = continuous_actions(40, 0, TICKS_PER_ROUND).unwrap();
    assert_eq!(slow.expected_actions, Ratio::ZERO);
}

#[test]
fn continuous_equals_graduated_with_unlimited_actions() {
    // Continuous over T ticks is a Graduated Round of T ticks in which no
    // action runs out: the two expectations must agree exactly.
    for (tt, bonus, ticks) in [(2, 1, 15), (7, 0, 20), (3, 0, 20), (5, 2, 18), (14, 0, 40)] {
        let c = continuous_actions(tt, bonus, ticks).unwrap();
        let g = graduated_actions(tt, bonus, u32::MAX, ticks).unwrap();
        assert_eq!(c.expected_actions, g.mean, "TT {tt} bonus {bonus} ticks {ticks}");
    }
}

#[test]
fn continuous_limits() {
    assert!(matches!(continuous_actions(2, 1, 0), Err(Error::OutOfRange { ref field, .. }) if field == "ticks"));
    assert!(matches!(
        continuous_actions(2, 1, MAX_TICKS + 1),
        Err(Error::OutOfRange { .. })
    ));
    // Slow actions can use the whole range (the heavy crossbow's TT 12 lands
    // at most 19 actions in 200 ticks); the fastest fit 37 ticks exactly.
    assert!(continuous_actions(12, 0, MAX_TICKS).is_ok());
    assert!(matches!(
        continuous_actions(7, 0, MAX_TICKS),
        Err(Error::Overflow { .. })
    ));
    assert_eq!(
        continuous_actions(0, 20, 37).unwrap().expected_actions,
        Ratio::whole(37)
    );
    assert!(matches!(continuous_actions(0, 20, 38), Err(Error::Overflow { .. })));
}

// ---------------------------------------------------------------------------
// Graduated Rounds (Lose)

/// Counts of "how many actions land in 1..=ticks" over every individual
/// roll of the 4 + 2 * (allowed - 1) dice.
fn brute_graduated(tt: u32, bonus: i32, allowed: u32, ticks: i64) -> BTreeMap<u32, u128> {
    let base = i64::from(tt) - i64::from(bonus);
    let mut m = BTreeMap::new();
    for faces in fudge_faces(4 + 2 * allowed.saturating_sub(1)) {
        let mut landed = 0;
        if allowed > 0 {
            let mut tick = (faces[..4].iter().sum::<i64>() + 5 + base).max(1);
            let mut rolls = faces[4..].chunks(2);
            loop {
                if tick > ticks {
                    break;
                }
                landed += 1;
                let Some(rt) = rolls.next() else { break };
                tick += (rt.iter().sum::<i64>() + base).max(1);
            }
        }
        *m.entry(landed).or_insert(0) += 1;
    }
    m
}

#[test]
fn graduated_matches_brute_force() {
    for (tt, bonus) in [(2, 1), (3, 0), (7, 0), (5, 0), (9, 0), (14, 0), (0, 2), (4, -2)] {
        for allowed in 0..=4 {
            for ticks in [5, 8, 12, 20] {
                let got = graduated_actions(tt, bonus, allowed, ticks).unwrap();
                let want = brute_graduated(tt, bonus, allowed, i64::from(ticks));
                let outcomes: u128 = want.values().sum();
                let got_map: BTreeMap<u32, Ratio> = got
                    .landed
                    .iter()
                    .filter(|&(_, c)| c > 0)
                    .map(|(v, c)| {
                        (
                            u32::try_from(v).unwrap(),
                            prob(u128::from(c), u128::from(got.landed.total())),
                        )
                    })
                    .collect();
                let want_map: BTreeMap<u32, Ratio> = want.iter().map(|(&v, &c)| (v, prob(c, outcomes))).collect();
                assert_eq!(
                    got_map, want_map,
                    "TT {tt} bonus {bonus} allowed {allowed} ticks {ticks}"
                );
                let mean_num: u128 = want.iter().map(|(&v, &c)| u128::from(v) * c).sum();
                assert_eq!(got.mean, prob(mean_num, outcomes));
                assert_eq!((got.actions_allowed, got.ticks_per_round), (allowed, ticks));
            }
        }
    }
}

#[test]
fn graduated_known_values() {
    // Roland's bow (2/1), with and without Bracers of Archery: initiative at
    // most 10 and Ready Times at most 3, so every shot lands by tick 16.
    for allowed in [2, 3] {
        let g = graduated_actions(2, 1, allowed, TICKS_PER_ROUND).unwrap();
        assert_eq!(g.landed.probability(i32::try_from(allowed).unwrap()), Probability::ONE);
        assert_eq!(g.mean, Ratio::whole(u128::from(allowed)));
    }
    // A flintlock (TT 14, RoF 1/2, one shot in round 1): lost on 4dF >= +2.
    let flintlock = graduated_actions(14, 0, 1, TICKS_PER_ROUND).unwrap();
    assert_eq!(flintlock.landed.min(), 0);
    assert_eq!(as_ratio(flintlock.landed.probability(0)), prob(15, 81));
    assert_eq!(flintlock.mean, prob(66, 81));
    // Cardiff's single swing always lands; no action allowed, none lands.
    assert_eq!(
        graduated_actions(7, 0, 1, TICKS_PER_ROUND).unwrap().mean,
        Ratio::whole(1)
    );
    let idle = graduated_actions(7, 0, 0, TICKS_PER_ROUND).unwrap();
    assert_eq!(
        (idle.landed.min(), idle.landed.counts(), idle.mean),
        (0, &[1][..], Ratio::ZERO)
    );
}

#[test]
fn graduated_limits() {
    assert!(
        matches!(graduated_actions(2, 1, 2, 0), Err(Error::OutOfRange { ref field, .. }) if field == "ticks_per_round")
    );
    // Nineteen one-tick actions in 20 ticks would need 81 * 9^19 outcomes.
    assert!(matches!(graduated_actions(0, 20, 20, 20), Err(Error::Overflow { .. })));
    assert_eq!(graduated_actions(0, 20, 19, 20).unwrap().mean, Ratio::whole(19));
}

#[test]
fn results_serialize_as_plain_data() {
    let odds = first_action_order(
        FirstAction {
            time_taken: 2,
            speed_bonus: 1,
        },
        FirstAction {
            time_taken: 7,
            speed_bonus: 0,
        },
    )
    .unwrap();
    let json = serde_json::to_value(odds).unwrap();
    assert_eq!(json["same_tick"]["numerator"], 36);
    let hammer = attacks_per_round(RateOfFire::new(4, 3).unwrap(), 0).unwrap();
    let json = serde_json::to_value(&hammer).unwrap();
    assert_eq!(json["per_round"], serde_json::json!([2, 1, 1]));
    assert_eq!(json["mean"]["denominator"], 3);
    let c = continuous_actions(2, 1, TICKS_PER_ROUND).unwrap();
    assert!(serde_json::to_string(&c).unwrap().contains("expected_actions"));
    let g = graduated_actions(2, 1, 3, TICKS_PER_ROUND).unwrap();
    assert!(serde_json::to_string(&g).unwrap().contains("landed"));
}

// ---------------------------------------------------------------------------
// Properties

fn first_action() -> impl Strategy<Value = FirstAction> {
    prop_oneof![
        (0u32..20, -12i32..12),
        (any::<u32>(), any::<i32>()),
        (Just(MAX_TIME_TAKEN), any::<i32>())
    ]
    .prop_map(|(time_taken, speed_bonus)| FirstAction {
        time_taken,
        speed_bonus,
    })
}

proptest! {
    #[test]
    fn nothing_panics_on_any_input(
        tt in any::<u32>(), bonus in any::<i32>(), reflexes in any::<i32>(), combat_sense in any::<i32>(),
        roll in any::<i32>(), shots in any::<u32>(), rounds in any::<u32>(), extra in any::<u32>(),
        allowed in any::<u32>(), ticks in any::<u32>(),
    ) {
        let _ = initiative_distribution(tt, bonus);
        let _ = ready_time_distribution(tt, bonus);
        let _ = actions_for_roll(reflexes, combat_sense, roll);
        let _ = actions_per_phase(reflexes, combat_sense);
        let _ = actions_per_phase_mean(reflexes, combat_sense);
        if let Ok(rof) = RateOfFire::new(shots, rounds) {
            let _ = attacks_per_round(rof, extra);
        }
        let _ = continuous_actions(tt, bonus, ticks);
        let _ = graduated_actions(tt, bonus, allowed, ticks);
    }

    #[test]
    fn nothing_panics_on_small_timing_inputs(
        tt in 0u32..16, bonus in -8i32..24, allowed in 0u32..30, ticks in 0u32..=MAX_TICKS + 1,
    ) {
        if let Ok(c) = continuous_actions(tt, bonus, ticks) {
            prop_assert!(c.landing.iter().all(|p| p.numerator <= p.denominator));
            let sum = c.landing.iter().map(|p| p.value()).sum::<f64>();
            prop_assert!((c.expected_actions.value() - sum).abs() < 1e-9);
            prop_assert!(c.expected_actions.value() <= f64::from(ticks) + 1e-9);
        }
        if let Ok(g) = graduated_actions(tt, bonus, allowed, ticks) {
            prop_assert!(g.landed.min() >= 0 && g.landed.max() <= i32::try_from(allowed).unwrap());
        }
    }

    #[test]
    fn order_odds_sum_to_one_and_swap(a in first_action(), b in first_action()) {
        match (first_action_order(a, b), first_action_order(b, a)) {
            (Ok(ab), Ok(ba)) => {
                prop_assert_eq!(ab.a_first.denominator, 6561);
                prop_assert_eq!(ab.a_first.numerator + ab.same_tick.numerator + ab.b_first.numerator, 6561);
                prop_assert_eq!(ab.a_first, ba.b_first);
                prop_assert_eq!(ab.b_first, ba.a_first);
                prop_assert_eq!(ab.same_tick, ba.same_tick);
            }
            (Err(_), Err(_)) => {}
            (x, y) => prop_assert!(false, "only one order failed: {:?} / {:?}", x, y),
        }
    }

    #[test]
    fn order_odds_match_brute_force(ta in 0u32..16, ba in -6i32..16, tb in 0u32..16, bb in -6i32..16) {
        let a = FirstAction { time_taken: ta, speed_bonus: ba };
        let b = FirstAction { time_taken: tb, speed_bonus: bb };
        let odds = first_action_order(a, b).unwrap();
        prop_assert_eq!(
            (odds.a_first.numerator, odds.same_tick.numerator, odds.b_first.numerator),
            brute_order(a, b)
        );
    }

    #[test]
    fn initiative_always_lands_on_a_tick(tt in any::<u32>(), bonus in any::<i32>()) {
        if let Ok(d) = initiative_distribution(tt, bonus) {
            prop_assert_eq!(d.total(), 81);
            prop_assert!(d.min() >= 1);
        }
        if let Ok(d) = ready_time_distribution(tt, bonus) {
            prop_assert_eq!(d.total(), 9);
            prop_assert!(d.min() >= 1);
        }
    }

    #[test]
    fn actions_per_phase_matches_faces(reflexes in -1000i32..1000, combat_sense in 0i32..50) {
        let d = actions_per_phase(reflexes, combat_sense).unwrap();
        prop_assert_eq!(as_map(&d), brute_actions(reflexes, combat_sense));
    }
}

/// No action allowed is a round the rules have (RoF 1/2 fires in
/// rounds 1, 3, 5...: none in round 2), so nothing lands, a mean of 0.
#[test]
fn a_round_without_an_allowed_action_lands_none() {
    let half = RateOfFire::new(1, 2).unwrap();
    assert_eq!(half.shots_in_round(2), 0);
    let none = graduated_actions(3, 0, half.shots_in_round(2), TICKS_PER_ROUND).unwrap();
    assert_eq!((none.landed.min(), none.landed.counts()), (0, &[1][..]));
    assert_eq!(none.mean, Ratio::whole(0));
    // Round 1: the shot lands (TT 3: initiative 4..=12).
    let one = graduated_actions(3, 0, half.shots_in_round(1), TICKS_PER_ROUND).unwrap();
    assert_eq!(one.mean, Ratio::whole(1));
}
