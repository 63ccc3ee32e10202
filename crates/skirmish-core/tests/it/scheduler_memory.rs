//! What a copy of a scheduler costs: the live tracker copies its state for
//! undo on every operation, so an idle or sparse event queue must be cheap
//! to copy.

use skirmish_core::dice::SeededRolls;
use skirmish_core::timing::{ActorTiming, Declaration, Scheduler, Step, TimingSystem};

/// A 30-actor Continuous fight, 200 moments in.
fn mid_fight() -> Scheduler {
    let mut rolls = SeededRolls::new(7);
    let mut s = Scheduler::new(TimingSystem::continuous());
    for i in 0..30 {
        s.add(ActorTiming::default(), Declaration::new(2 + i % 7, i % 3))
            .unwrap();
    }
    let mut acts = Vec::new();
    let mut moments = 0;
    while moments < 200 {
        match s.next(&mut rolls, &mut acts).unwrap() {
            Some(Step::Moment(_)) => moments += 1,
            Some(Step::NewRound { .. }) => {}
            None => break,
        }
    }
    s
}

#[test]
fn a_copy_of_a_mid_fight_scheduler_is_small() {
    let s = mid_fight();
    let copy = s.clone();
    assert_eq!(copy, s);
    let empty = Scheduler::new(TimingSystem::continuous());
    println!(
        "heap bytes: 30-actor Continuous mid-fight {} (its copy {}), empty scheduler {} (its copy {})",
        s.heap_size(),
        copy.heap_size(),
        empty.heap_size(),
        empty.clone().heap_size()
    );
}
