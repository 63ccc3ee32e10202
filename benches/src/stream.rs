//! Seeded event streams for the scheduler benches.
//!
//! A stream is the input of the hold model ([`crate::hold`]): `actors`
//! combatants fighting Continuous combat (docs/rules.md §1.4), each with one
//! pending action. When an actor's action lands it declares the next one,
//! which lands at `now + Ready Time`, where
//!
//! ```text
//! Ready Time = max(1, 2dF + TT - speed bonus)      (docs/rules.md §1.3-1.4)
//! ```
//!
//! with TT the Continuous Time Taken of a weapon from the tables (2..=14)
//! and a speed bonus of 0..=2, both fixed per actor. With
//! [`StreamSpec::with_cancels`] some landings also disrupt another actor:
//! that actor's pending action is cancelled and it declares a new one.
//!
//! Everything random is drawn up front from [`SeededRolls`], so a bench
//! measures the queue and not the RNG, and every queue sees the same
//! stream: the `k`-th landing uses [`EventStream::step`]`(k)` whatever
//! queue runs it.

use skirmish_core::dice::SeededRolls;
use skirmish_core::tables::weapons;

/// Seed of every bench stream (any fixed value would do).
pub const SEED: u64 = 0x5EED_BA77_1E00_0001;

/// Stream sizes the benches run: pending events, one per actor.
pub const SIZES: [u32; 3] = [10, 1_000, 100_000];

/// Longest delay of [`Delays::Far`], in ticks.
pub const FAR_MAX: i32 = 2_000;

/// Fewest precomputed steps of a stream; the steps repeat after that many
/// landings (or four per actor, if more).
pub const MIN_STEPS: usize = 1 << 16;

/// [`Step::victim`] when the landing disrupts nobody.
pub const NO_VICTIM: u32 = u32::MAX;

/// How long declared actions take.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Delays {
    /// The rules' Ready Time, `max(1, 2dF + TT - speed bonus)`: 1..=16
    /// ticks, always inside the event queue's 256-tick ring.
    Weapons,
    /// Uniform in `1..=`[`FAR_MAX`], whatever the actor: most events land
    /// beyond the ring. A stress case for the far path, not a battle.
    Far,
}

/// What stream to generate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StreamSpec {
    /// Number of actors, which is also the number of pending events.
    pub actors: u32,
    /// How long actions take.
    pub delays: Delays,
    /// Percent of landings that disrupt (cancel and redeclare) a random
    /// actor's pending action; 0..=100.
    pub cancel_percent: u32,
    /// Seed of the stream.
    pub seed: u64,
}

impl StreamSpec {
    /// `actors` actors with weapon Ready Times and no cancels.
    pub const fn weapons(actors: u32) -> StreamSpec {
        StreamSpec {
            actors,
            delays: Delays::Weapons,
            cancel_percent: 0,
            seed: SEED,
        }
    }

    /// `actors` actors with [`Delays::Far`] delays and no cancels.
    pub const fn far(actors: u32) -> StreamSpec {
        StreamSpec {
            delays: Delays::Far,
            ..StreamSpec::weapons(actors)
        }
    }

    /// The same stream with `percent` of landings disrupting someone
    /// (capped at 100).
    pub const fn with_cancels(self, percent: u32) -> StreamSpec {
        StreamSpec {
            cancel_percent: if percent > 100 { 100 } else { percent },
            ..self
        }
    }

    /// A short name for bench groups: `hold`, `hold-cancel`, `hold-far`,
    /// `hold-far-cancel`.
    pub fn name(&self) -> &'static str {
        match (self.delays, self.cancel_percent > 0) {
            (Delays::Weapons, false) => "hold",
            (Delays::Weapons, true) => "hold-cancel",
            (Delays::Far, false) => "hold-far",
            (Delays::Far, true) => "hold-far-cancel",
        }
    }

    /// Draws the stream. The same spec always gives the same stream.
    pub fn generate(&self) -> EventStream {
        let mut rolls = SeededRolls::new(self.seed);
        let table = weapons::all();
        let actors = self.actors as usize;
        let mut base = Vec::with_capacity(actors);
        let mut first_ticks = Vec::with_capacity(actors);
        for _ in 0..actors {
            let weapon = &table[rolls.below(table.len() as u64) as usize];
            let speed_bonus = rolls.below(3) as i32;
            let time_taken = weapon.time_taken_for(true) as i32;
            // Initiative as in Simple Rounds: 4dF + 5 + TT - speed bonus, minimum 1.
            let initiative = (rolls.four_df() + 5 + time_taken - speed_bonus).max(1);
            first_ticks.push(initiative as u64);
            base.push(match self.delays {
                Delays::Weapons => time_taken - speed_bonus,
                Delays::Far => 0,
            });
        }
        let draw = |rolls: &mut SeededRolls| -> i16 {
            match self.delays {
                Delays::Weapons => rolls.fudge(2) as i16,
                Delays::Far => (1 + rolls.below(FAR_MAX as u64)) as i16,
            }
        };
        let len = (4 * actors).max(MIN_STEPS).next_power_of_two();
        let steps = (0..len)
            .map(|_| {
                let roll = draw(&mut rolls);
                if self.actors > 0 && rolls.below(100) < u64::from(self.cancel_percent) {
                    let victim = rolls.below(u64::from(self.actors)) as u32;
                    Step {
                        roll,
                        victim_roll: draw(&mut rolls),
                        victim,
                    }
                } else {
                    Step {
                        roll,
                        victim_roll: 0,
                        victim: NO_VICTIM,
                    }
                }
            })
            .collect();
        EventStream {
            spec: *self,
            first_ticks,
            base,
            steps,
            mask: len - 1,
        }
    }
}

/// The random part of one landing, drawn up front.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Step {
    /// The dice of the landing actor's next Ready Time (the 2dF, or the
    /// whole delay for [`Delays::Far`]).
    pub roll: i16,
    /// The dice of the disrupted actor's new Ready Time.
    pub victim_roll: i16,
    /// The actor this landing disrupts, or [`NO_VICTIM`].
    pub victim: u32,
}

/// A generated stream: per-actor loadouts and first ticks, and a cycle of
/// [`Step`]s.
#[derive(Debug, Clone)]
pub struct EventStream {
    spec: StreamSpec,
    first_ticks: Vec<u64>,
    base: Vec<i32>,
    steps: Vec<Step>,
    mask: usize,
}

impl EventStream {
    /// The spec it was drawn from.
    pub fn spec(&self) -> &StreamSpec {
        &self.spec
    }

    /// Number of actors.
    pub fn actors(&self) -> u32 {
        self.spec.actors
    }

    /// The tick of each actor's first action (its initiative).
    pub fn first_ticks(&self) -> &[u64] {
        &self.first_ticks
    }

    /// The random part of landing number `k` (steps repeat with a period of
    /// a power of two of at least [`MIN_STEPS`]).
    #[inline]
    pub fn step(&self, k: usize) -> Step {
        self.steps[k & self.mask]
    }

    /// Number of distinct steps before they repeat.
    pub fn period(&self) -> usize {
        self.steps.len()
    }

    /// Ready Time of `actor` for dice `roll`: `max(1, roll + TT - speed
    /// bonus)` (for [`Delays::Far`], `max(1, roll)`).
    #[inline]
    pub fn delay(&self, actor: u32, roll: i16) -> u64 {
        (i32::from(roll) + self.base[actor as usize]).max(1) as u64
    }
}
