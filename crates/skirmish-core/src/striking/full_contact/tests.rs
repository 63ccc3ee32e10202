//! Unit tests of the decision itself (the integration tests in
//! `tests/it/full_contact.rs` check the text's numbers).

use super::odds::{FOUR_DF_COUNTS, FOUR_DF_TOTAL};
use super::resolve::decide;
use super::*;
use crate::dice::Dice;

#[test]
fn four_df_counts_are_the_distribution() {
    let d = Dice::FOUR_DF.distribution();
    assert_eq!(d.counts(), &FOUR_DF_COUNTS);
    assert_eq!(d.min(), ROLL_MIN);
    assert_eq!(d.max(), ROLL_MAX);
    assert_eq!(d.total(), FOUR_DF_TOTAL);
}

#[test]
fn combinations_are_distinct_and_start_with_core() {
    let all = StrikeOptions::combinations();
    assert_eq!(all[0], StrikeOptions::CORE);
    assert_eq!(all[7], StrikeOptions::ALL);
    for (i, a) in all.iter().enumerate() {
        assert!(all[i + 1..].iter().all(|b| a != b));
    }
}

#[test]
fn margin_invariants_of_each_outcome() {
    for options in StrikeOptions::combinations() {
        for sr in -6..=12 {
            for dr in -2..=12 {
                for roll in ROLL_MIN..=ROLL_MAX {
                    let o = decide(sr, dr, roll, options);
                    let m = o.margin();
                    assert_eq!(m, sr + i64::from(roll) - dr);
                    match o {
                        StrikeOutcome::Hit { .. } | StrikeOutcome::AmazingStrike { .. } => assert!(m > 0),
                        StrikeOutcome::Fumble { .. } => assert!(m > 0 && roll == -4),
                        StrikeOutcome::GuaranteedHit { .. } => assert!(m <= 0 && roll == 4),
                        StrikeOutcome::Miss { .. } | StrikeOutcome::AmazingDefense { .. } => assert!(m <= 0),
                        StrikeOutcome::OutOfReach { .. } => unreachable!(),
                    }
                }
            }
        }
    }
}
