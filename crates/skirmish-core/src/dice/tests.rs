//! Unit tests of the dice: the known distributions, the generator's tables
//! against the digit sums they stand for, the median, and the range of
//! `below`.

use super::seeded::{FUDGE2_TABLE, FUDGE4_TABLE};
use super::*;

#[test]
fn four_df_distribution_is_the_known_one() {
    assert_eq!(Dice::FOUR_DF.distribution().counts(), &[1, 4, 10, 16, 19, 16, 10, 4, 1]);
    assert_eq!(Dice::TWO_DF.distribution().counts(), &[1, 2, 3, 2, 1]);
    assert_eq!(Dice::D6.distribution().counts(), &[1; 6]);
    let three_d6 = Dice::standard(3, 6).unwrap().distribution();
    assert_eq!(three_d6.min(), 3);
    assert_eq!(three_d6.count(10), 27);
    assert_eq!(three_d6.total(), 216);
}

#[test]
fn fudge_table_matches_digit_sums() {
    let d = Dice::FOUR_DF.distribution();
    let mut counts = [0u64; 9];
    for &v in &FUDGE4_TABLE {
        counts[(v + 4) as usize] += 1;
    }
    assert_eq!(&counts[..], d.counts());
}

#[test]
fn two_df_table_matches_digit_sums_draw_for_draw() {
    for (u, &v) in FUDGE2_TABLE.iter().enumerate() {
        assert_eq!(i32::from(v), (u % 3) as i32 - 1 + (u / 3) as i32 - 1);
    }
    let (mut a, mut b) = (SeededRolls::new(11), SeededRolls::new(11));
    for _ in 0..10_000 {
        assert_eq!(a.two_df(), b.fudge_by_digits(2));
    }
    let (mut a, mut b) = (SeededRolls::new(12), SeededRolls::new(12));
    for _ in 0..10_000 {
        assert_eq!(a.four_df(), b.fudge_by_digits(4));
    }
    assert_eq!(a, b);
}

#[test]
fn median() {
    assert_eq!(median_of_three(1, -1, 3), 1);
    assert_eq!(median_of_three(-2, 2, 2), 2);
    assert_eq!(median_of_three(5, 5, 5), 5);
    assert_eq!(median_of_three(3, 1, 2), 2);
}

#[test]
fn below_is_in_range() {
    let mut r = SeededRolls::new(7);
    for n in [1u64, 2, 3, 81, 1 << 63, u64::MAX] {
        for _ in 0..100 {
            assert!(r.below(n) < n);
        }
    }
}
