//! Door: dice a user types in. Dice notation (`"4dF"`, `"1d20"`: scenario
//! timing options, the CLI's tables), rolls played back from a script
//! (`ScriptedRolls`: real dice at the table, the texts' examples in
//! `replay --as-in-the-text`), a saved generator state, and a timing
//! system's scheduler driven entirely by scripted rolls.
//!
//! The CLI's `track` command-line parser (`track/command.rs`) is private to
//! the `skirmish` binary crate, so it is not reachable from here; the
//! tracker calls it makes are fuzzed by `tracker_ops`.
//!
//! Checked: no panic; parsed dice print and parse back to the same dice;
//! a scripted roll that is accepted is the script's next value and one the
//! dice can show, and a refused one consumes nothing; exact distributions
//! of small dice add up and span the dice's range; a generator state
//! restores only when valid and then reports itself; the scheduler's
//! snapshot restores to the same snapshot after every step.
#![no_main]

use arbitrary::{Arbitrary, Unstructured};
use libfuzzer_sys::fuzz_target;
use skirmish_core::dice::{Dice, Distribution, RollSource, ScriptedRolls, SeededRolls, roll_median_of_three};
use skirmish_core::timing::{ActorId, ActorTiming, InitiativeEntry, Scheduler};
use skirmish_fuzz::inputs::{DeclIn, DiceIn, SystemIn};

#[derive(Arbitrary, Debug)]
enum Step {
    Next,
    Declare(u8, DeclIn),
    Initiative(u8, InitiativeIn),
    Disrupt(u8),
    Cancel(u8),
    Delay(u8, u32),
}

#[derive(Arbitrary, Debug)]
enum InitiativeIn {
    Roll(i32),
    Total(i64),
}

#[derive(Arbitrary, Debug)]
struct Input {
    notation: String,
    script: Vec<i32>,
    asked: Vec<DiceIn>,
    state: u128,
    system: SystemIn,
    actors: Vec<(i32, u32, i32, i32, DeclIn)>,
    steps: Vec<Step>,
}

fn check_dice(d: Dice) {
    let again: Dice = d.to_string().parse().expect("printed dice parse");
    assert_eq!(again, d, "{d} printed and parsed is {again}");
    assert!(d.min() <= d.max());
    let (count, sides) = match d {
        Dice::Fudge { count } => (count, 3),
        Dice::Standard { count, sides } => (count, sides),
    };
    if u64::from(sides).checked_pow(count).is_some_and(|n| n <= 1 << 16) {
        let dist = Distribution::of(d);
        assert_eq!((dist.min(), dist.max()), (d.min(), d.max()), "{d}: distribution range");
        assert_eq!(dist.total(), u64::from(sides).pow(count), "{d}: outcomes");
        assert_eq!(dist.counts().iter().sum::<u64>(), dist.total());
        for (v, n) in dist.iter() {
            assert_eq!(n > 0, d.can_show(v), "{d}: {v} shown {n} times");
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(input) = Input::arbitrary(&mut Unstructured::new(data)) else {
        return;
    };

    // Dice notation.
    if let Ok(d) = input.notation.parse::<Dice>() {
        check_dice(d);
    }

    // Scripted rolls against the dice asked for.
    let mut script = ScriptedRolls::new(input.script.iter().copied());
    for asked in input.asked.iter().take(16) {
        let Some(d) = asked.dice() else { continue };
        check_dice(d);
        let used = script.used();
        let next = script.remaining().first().copied();
        match script.roll(d) {
            Ok(v) => {
                assert_eq!(Some(v), next, "a scripted roll is the script's next value");
                assert!(d.can_show(v), "{d} cannot show the accepted roll {v}");
                assert_eq!(script.used(), used + 1);
            }
            Err(_) => assert_eq!(script.used(), used, "a refused roll consumed the script"),
        }
        let used = script.used();
        if let Ok((median, rolls)) = roll_median_of_three(&mut script, d) {
            assert!(rolls.contains(&median) && rolls.iter().all(|&r| d.can_show(r)));
        } else {
            assert!(script.used() - used < 3);
        }
    }

    // A saved generator state.
    if let Ok(mut seeded) = SeededRolls::from_state(input.state) {
        assert_eq!(seeded.state(), input.state);
        for asked in input.asked.iter().take(4) {
            if let Some(d) = asked.dice() {
                let v = seeded.roll(d).expect("a seeded source rolls any valid dice");
                assert!(d.can_show(v), "{d} rolled {v}");
            }
        }
    }

    // A scheduler whose every roll is scripted.
    let Some(system) = input.system.system() else { return };
    let Ok(mut scheduler) = Scheduler::try_new(system) else {
        return;
    };
    for (bonus, interval, reflexes, sense, decl) in input.actors.iter().take(8) {
        let timing = ActorTiming {
            initiative_bonus: *bonus,
            interval: *interval,
            reflexes: *reflexes,
            combat_sense: *sense,
        };
        let _ = scheduler.add(timing, decl.declaration());
    }
    let n = scheduler.len().max(1) as u32;
    let mut acts = Vec::new();
    for step in input.steps.iter().take(40) {
        let who = |w: &u8| ActorId(u32::from(*w) % n);
        let _ = match step {
            Step::Next => scheduler.next(&mut script, &mut acts).map(|_| ()),
            Step::Declare(w, d) => scheduler.declare(who(w), d.declaration(), &mut script).map(|_| ()),
            Step::Initiative(w, InitiativeIn::Roll(r)) => scheduler.set_initiative(who(w), InitiativeEntry::Roll(*r)),
            Step::Initiative(w, InitiativeIn::Total(t)) => scheduler.set_initiative(who(w), InitiativeEntry::Total(*t)),
            Step::Disrupt(w) => scheduler.disrupt(who(w)).map(|_| ()),
            Step::Cancel(w) => scheduler.cancel(who(w)).map(|_| ()),
            Step::Delay(w, t) => scheduler.delay(who(w), *t).map(|_| ()),
        };
        let snap = scheduler.snapshot();
        let restored = Scheduler::from_snapshot(snap.clone())
            .unwrap_or_else(|e| panic!("the scheduler's own snapshot is refused after {step:?}: {e}"));
        assert_eq!(
            restored.snapshot(),
            snap,
            "scheduler snapshot round trip after {step:?}"
        );
        let _ = (scheduler.pending(), scheduler.awaiting());
    }
});
