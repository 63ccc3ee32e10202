//! The floor does an action's whole minimum, by the rules: one draw per
//! action, the Full Contact strike and the parity battle's damage.

use skirmish_benches::floor::{FloorTally, PER_SIDE, draws_only, parity_floor};
use skirmish_core::dice::SeededRolls;
use skirmish_core::striking::full_contact::{self, StrikeOptions};

/// The same actions, the plain way: the core crate's `resolve` decides the
/// hit and its margin.
fn reference(rolls: &mut SeededRolls, actions: u64) -> FloorTally {
    let mut pending = [0u64; 2 * PER_SIDE];
    let mut next = [0i64; 2 * PER_SIDE];
    let mut tally = FloorTally {
        actions,
        ..FloorTally::default()
    };
    for k in 0..actions {
        let fighter = (k % (2 * PER_SIDE as u64)) as usize;
        let now = (k / (2 * PER_SIDE as u64)) as i64;
        // Side A: SR 7, TT 4, bonus 1 against DR 6; side B: SR 6, TT 2 against DR 6.
        let (sr, base, first_foe) = if fighter < PER_SIDE {
            (7, 3, PER_SIDE)
        } else {
            (6, 2, 0)
        };
        let dice = rolls.action_dice(PER_SIDE as u32);
        let outcome = full_contact::resolve(sr, 6, dice.strike, StrikeOptions::default()).expect("a 4dF roll");
        if outcome.is_hit() {
            tally.hits += 1;
            pending[first_foe + dice.target as usize] += if outcome.margin() < 3 { 1 } else { 2 };
        }
        next[fighter] = now + i64::from((dice.ready + base).max(1));
    }
    tally.damage = pending.iter().sum();
    tally.next_ticks = next.iter().sum();
    tally
}

#[test]
fn the_floor_follows_the_rules_and_draws_once_per_action() {
    for actions in [0, 1, 19, 20, 21, 10_007] {
        let (mut floor_rolls, mut reference_rolls) = (SeededRolls::new(5), SeededRolls::new(5));
        let tally = parity_floor(&mut floor_rolls, actions);
        assert_eq!(tally, reference(&mut reference_rolls, actions), "{actions} actions");
        assert_eq!(floor_rolls.state(), reference_rolls.state(), "{actions} actions");
    }
    let tally = parity_floor(&mut SeededRolls::new(5), 10_000);
    assert!(tally.hits > 4_000 && tally.damage > tally.hits, "{tally:?}");
}

#[test]
fn draws_only_draws_the_same_dice() {
    let (mut mine, mut theirs) = (SeededRolls::new(9), SeededRolls::new(9));
    let expected: i64 = (0..1_000)
        .map(|_| {
            let dice = theirs.action_dice(PER_SIDE as u32);
            i64::from(dice.target) + i64::from(dice.strike) + i64::from(dice.ready)
        })
        .sum();
    assert_eq!(draws_only(&mut mine, 1_000), expected);
    assert_eq!(mine.state(), theirs.state());
}
