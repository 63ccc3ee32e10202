//! The floor of one parity-battle action: the least work any engine must do
//! per action on the seeded stream, and so the most speed it can have.
//!
//! Each action of the peer parity battle (Full Contact, hit points,
//! Continuous timing) must at least:
//!
//! 1. draw its dice: one [`SeededRolls::action_dice`], which picks the
//!    target and rolls the Strike roll and the follow-up's Ready Time;
//! 2. find the target among the living enemies;
//! 3. turn the Strike roll into damage (1 for margin 1-2, 2 for 3+);
//! 4. add that damage to the target, to apply at the end of the tick;
//! 5. set the actor's next tick, `now + max(1, 2dF + TT - bonus)`.
//!
//! [`parity_floor`] does exactly that, for 2x10 fighters taking turns in a
//! fixed cycle, and nothing more: no queue, no ticks, no deaths, no end of
//! battle, no set-up. It is not a battle (the targets never change and the
//! damage is never applied); it is a lower bound on the cost of one. If the
//! floor costs F ns per action, no engine on this random stream fights the
//! parity battle faster than F ns per action, and `benches/run-peers` prints
//! the peers' time divided by F as the ceiling of any engine's ratio.

use skirmish_core::dice::SeededRolls;

/// Fighters per side of the floor (the parity battle's default 2x10).
pub const PER_SIDE: usize = 10;

/// The Strike margin offset `SR - DR` by side in the peer parity battle:
/// A's SR 7 against B's DR 6, B's SR 6 against A's DR 6.
const OFFSET: [i32; 2] = [1, 0];
/// The Ready Time base `TT - bonus` by side: A's 4 - 1, B's 2 - 0.
const BASE: [i32; 2] = [3, 2];

/// Damage by `margin + 4`, the hit-points rule of the parity battle: none
/// for margin 0 or less, 1 for 1-2, 2 for 3 or more. Indexed by the margin
/// plus 4, for margins -4..=9; padded to 16 so a masked index needs no
/// bounds check.
const DAMAGE: [u32; 16] = [0, 0, 0, 0, 0, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2];

/// What [`parity_floor`] computed, so the optimizer cannot drop the work.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct FloorTally {
    /// Actions taken.
    pub actions: u64,
    /// Actions that hit.
    pub hits: u64,
    /// Damage dealt, summed over all targets.
    pub damage: u64,
    /// The sum of every fighter's last next tick.
    pub next_ticks: i64,
}

/// Takes `actions` parity-battle actions at the floor (see the module
/// docs), drawing from `rolls`: fighters `0..20` in turn (A is `0..10`),
/// each attacking a uniformly drawn one of the 10 enemies.
///
/// Draws exactly one [`SeededRolls::action_dice`] per action, so after it
/// `rolls` is where `actions` calls of `action_dice(10)` would leave it.
pub fn parity_floor(rolls: &mut SeededRolls, actions: u64) -> FloorTally {
    // Fighter i's pending damage and next tick; 32 entries so that masked
    // indices need no bounds checks.
    let mut pending = [0u32; 32];
    let mut next = [0i32; 32];
    // The living enemies, by side: B's fighters for A, A's for B (entries
    // past the tenth repeat, never read).
    let foes: [[u8; 16]; 2] = [
        std::array::from_fn(|i| (PER_SIDE + i % PER_SIDE) as u8),
        std::array::from_fn(|i| (i % PER_SIDE) as u8),
    ];
    let mut hits = 0u64;
    let mut fighter = 0usize;
    let mut now = 0i32;
    for _ in 0..actions {
        let side = usize::from(fighter >= PER_SIDE);
        let dice = rolls.action_dice(PER_SIDE as u32);
        let target = usize::from(foes[side][dice.target as usize & 15]);
        let damage = DAMAGE[(OFFSET[side] + dice.strike + 4) as usize & 15];
        hits += u64::from(damage > 0);
        pending[target & 31] += damage;
        next[fighter & 31] = now + (dice.ready + BASE[side]).max(1);
        fighter += 1;
        if fighter == 2 * PER_SIDE {
            fighter = 0;
            now += 1;
        }
    }
    FloorTally {
        actions,
        hits,
        damage: pending.iter().map(|&d| u64::from(d)).sum(),
        next_ticks: next.iter().map(|&t| i64::from(t)).sum(),
    }
}

/// Draws `actions` [`SeededRolls::action_dice`] and nothing else, summing
/// what they show: the part of the floor that is the random stream alone.
pub fn draws_only(rolls: &mut SeededRolls, actions: u64) -> i64 {
    let mut sum = 0i64;
    for _ in 0..actions {
        let dice = rolls.action_dice(PER_SIDE as u32);
        sum += i64::from(dice.target) + i64::from(dice.strike) + i64::from(dice.ready);
    }
    sum
}
