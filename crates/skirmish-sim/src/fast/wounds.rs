//! FUDGE wounds on the fast path: a wound track kept as its row in a table
//! of every state, and a hit's whole effect one lookup, with no branch on
//! the dice.
//!
//! `FudgeWounds::apply` walks the thresholds for the level the damage
//! calls for, then the boxes from that level up for a free one, then the
//! track again for the worst wound (the status before and after, the
//! penalty), each a branch on the dice; and the fast path branched on
//! whether the blow hit before it. Profiled on the README's six-system
//! sweep (cachegrind, one thread), landing wounds was a large share of the
//! battles' mispredicted branches. Every answer depends only on the
//! level called for (none, the five levels with boxes, Dead) and the
//! track's state, and a track has few states: with the default boxes (3,
//! 1, 1, 1, 1) 64 of filled boxes, and dead. So [`WoundsPrep`] tables,
//! once per battle plan:
//!
//! - the level code each damage calls for (damage below 0 or past the top
//!   threshold calls for the same level as 0 or the top one: checked);
//! - for each state (a row) and level code, the row `apply` leaves, whether
//!   the fighter went down just now, and its wound penalty after. Each
//!   entry is `apply` itself run on that state, so the table cannot
//!   disagree with it.
//!
//! A fighter's record keeps its row (2 bytes, where the track took 6), and
//! a strike is a clamp, two loads and a select: a miss is the level code 0,
//! which changes nothing. Nothing reads a record's track but the strikes
//! (a battle reports who stands, not their wounds), so the track itself
//! is never rebuilt. A model with so many boxes that its table would pass
//! [`MAX_ROWS`] rows, or with a top threshold past [`MAX_THRESHOLD`], has
//! no tables: its battles take the general loop.

use skirmish_core::damage::{DamageModel, FudgeWounds, WoundLevel, WoundTrack};

/// Level codes: 0 no wound, `1 + i` the level `WoundLevel::WITH_BOXES[i]`,
/// [`DEAD`] a Dead wound; 8 per row, for a shift.
const CODES: usize = 8;
/// The code of a Dead wound (a threshold that kills outright).
const DEAD: u8 = 6;
/// Rows (states of filled boxes, and dead) a table may have.
pub(super) const MAX_ROWS: usize = 4096;
/// Damage the level table reaches at most (its top threshold).
const MAX_THRESHOLD: i32 = 4096;

/// FUDGE wounds, prepared for the fast path (see the module docs).
#[derive(Debug, Clone)]
pub(crate) struct WoundsPrep {
    /// The level code damage `d` calls for, `d` clamped into
    /// `0..levels.len()`.
    levels: Vec<u8>,
    /// Boxes per level, Scratch first.
    boxes: [u8; 5],
    /// Each level's count's weight in a row's number.
    stride: [u32; 5],
    /// The dead track's row (after every state of filled boxes).
    dead_row: u16,
    /// `moves[row * CODES + code]`: the row after (bits 0-15), down just
    /// now (bit 16), the wound penalty after (bits 24-31, an `i8`).
    moves: Vec<u32>,
}

impl WoundsPrep {
    /// The tables for `model`, or `None` when they would be too big.
    pub(crate) fn new(model: &FudgeWounds) -> Option<WoundsPrep> {
        let t = &model.config().thresholds;
        let top = t.dead.unwrap_or(t.near_death).max(t.near_death);
        // Damage past either end calls for the level at that end.
        if !(0..=MAX_THRESHOLD).contains(&top)
            || model.level_for(i32::MIN) != model.level_for(0)
            || model.level_for(i32::MAX) != model.level_for(top)
        {
            return None;
        }
        let boxes = WoundLevel::WITH_BOXES.map(|l| model.boxes(l));
        let mut stride = [0u32; 5];
        let mut rows = 1usize;
        for (s, &b) in stride.iter_mut().zip(&boxes) {
            *s = rows as u32;
            rows = rows.saturating_mul(usize::from(b) + 1);
        }
        if rows >= MAX_ROWS {
            return None;
        }
        let code_of = |level: Option<WoundLevel>| match level {
            None => 0,
            Some(WoundLevel::Dead) => DEAD,
            Some(l) => 1 + WoundLevel::WITH_BOXES.iter().position(|&w| w == l).unwrap_or(0) as u8,
        };
        let levels: Vec<u8> = (0..=top).map(|d| code_of(model.level_for(d))).collect();
        // The least damage calling for each code (a code no damage calls
        // for is never looked up: its moves stay those of no wound).
        let mut least = [0i32; CODES];
        let mut called = [false; CODES];
        for (d, &code) in (0..=top).zip(&levels) {
            let c = usize::from(code);
            if !called[c] {
                (least[c], called[c]) = (d, true);
            }
        }
        let mut prep = WoundsPrep {
            levels,
            boxes,
            stride,
            // Fewer than `MAX_ROWS` rows: a u16.
            dead_row: rows as u16,
            moves: vec![0; (rows + 1) * CODES],
        };
        for row in 0..=rows {
            let track = if row == rows {
                WoundTrack::with_filled([0; 5], true)
            } else {
                WoundTrack::with_filled(
                    std::array::from_fn(|i| (row / stride[i] as usize % (usize::from(boxes[i]) + 1)) as u8),
                    false,
                )
            };
            for (code, &damage) in least.iter().enumerate().take(usize::from(DEAD) + 1) {
                let mut after = track;
                let out = model.apply(&mut after, damage);
                // A wound penalty is 0, -1 or -2: an `i8`.
                let penalty = i8::try_from(out.penalty).unwrap_or(i8::MIN);
                let next = prep.row_of(&after);
                prep.moves[row * CODES + code] =
                    u32::from(next) | u32::from(out.newly_down()) << 16 | u32::from(penalty as u8) << 24;
            }
        }
        Some(prep)
    }

    /// The row of `track`. A level filled past its boxes (a continuation's
    /// track) is taken as full: `apply` treats the two alike (no free box,
    /// a wound held), and the track is never read back.
    pub(crate) fn row_of(&self, track: &WoundTrack) -> u16 {
        let (counts, dead) = track.parts();
        if dead {
            return self.dead_row;
        }
        let row: u32 = (0..5)
            .map(|i| u32::from(counts[i].min(self.boxes[i])) * self.stride[i])
            .sum();
        // Below `dead_row`, a u16.
        row as u16
    }

    /// `model.apply` on the track in `row` with `damage` if `hit`, by
    /// table (see the module docs): whether it took the fighter down just
    /// now, and its wound penalty after (unspecified for a miss, which
    /// changes nothing).
    #[inline]
    pub(crate) fn land(&self, row: &mut u16, hit: bool, damage: i32) -> (bool, i32) {
        let top = self.levels.len() - 1;
        let code = self.levels.get((damage.max(0) as usize).min(top)).copied().unwrap_or(0);
        let code = std::hint::select_unpredictable(hit, code, 0);
        // Every row's every code is in the table (`new`): never `None`.
        debug_assert!(usize::from(*row) * CODES + usize::from(code) < self.moves.len());
        let m = self
            .moves
            .get(usize::from(*row) * CODES + usize::from(code))
            .copied()
            .unwrap_or(u32::from(*row));
        *row = m as u16;
        (m >> 16 & 1 != 0, i32::from((m >> 24) as u8 as i8))
    }
}

#[cfg(test)]
mod tests {
    use skirmish_core::damage::{
        DamageModel, FudgeWounds, FudgeWoundsConfig, WoundBoxes, WoundLevel, WoundThresholds, WoundTrack,
    };

    use super::{MAX_ROWS, MAX_THRESHOLD, WoundsPrep};

    /// Every track of `model` (and some filled past its boxes), every
    /// damage from below 0 to past the top threshold, hit and miss, and a
    /// few hits in a row: the rows land as `apply` does on the tracks.
    fn agrees(model: &FudgeWounds) {
        let prep = WoundsPrep::new(model).expect("tables");
        let boxes = WoundLevel::WITH_BOXES.map(|l| model.boxes(l));
        let mut tracks = vec![WoundTrack::with_filled([0; 5], true)];
        let mut counts = [0u8; 5];
        'all: loop {
            tracks.push(WoundTrack::with_filled(counts, false));
            for i in 0..5 {
                // One past each level's boxes: taken as full.
                if counts[i] <= boxes[i].min(6) {
                    counts[i] += 1;
                    continue 'all;
                }
                counts[i] = 0;
            }
            break;
        }
        let t = model.config().thresholds;
        let top = t.dead.unwrap_or(t.near_death);
        let damages: Vec<i32> = (-3..=top + 3)
            .chain([i32::MIN, i32::MAX, -1_000_000, 1_000_000])
            .collect();
        for &track in &tracks {
            for &damage in &damages {
                for hit in [false, true] {
                    let mut want = track;
                    let mut row = prep.row_of(&track);
                    let (down, penalty) = prep.land(&mut row, hit, damage);
                    if hit {
                        let out = model.apply(&mut want, damage);
                        assert_eq!((down, penalty), (out.newly_down(), out.penalty), "{track:?} {damage}");
                    } else {
                        assert!(!down, "{track:?} {damage}");
                    }
                    // The row's track, filled as `apply` filled this one
                    // (taken as full where it was filled past its boxes).
                    assert_eq!(row, prep.row_of(&want), "{track:?} {damage} {hit}");
                    // And on from there, one more hit of each damage.
                    for &next in &damages {
                        let (mut want, mut row) = (want, row);
                        let (down, penalty) = prep.land(&mut row, true, next);
                        let out = model.apply(&mut want, next);
                        assert_eq!((down, penalty), (out.newly_down(), out.penalty));
                        assert_eq!(row, prep.row_of(&want));
                    }
                }
            }
        }
    }

    fn model(thresholds: WoundThresholds, boxes: WoundBoxes) -> FudgeWounds {
        FudgeWounds::new(FudgeWoundsConfig { thresholds, boxes }).unwrap()
    }

    #[test]
    fn the_default_track_by_table_is_apply() {
        agrees(&FudgeWounds::default());
    }

    #[test]
    fn other_tracks_by_table_are_apply() {
        let killing = WoundThresholds {
            scratch: 2,
            hurt: 4,
            very_hurt: 7,
            incapacitated: 9,
            near_death: 12,
            dead: Some(15),
        };
        let boxes = WoundBoxes {
            scratch: 2,
            hurt: 2,
            very_hurt: 1,
            incapacitated: 2,
            near_death: 1,
        };
        agrees(&model(killing, boxes));
        agrees(&model(killing, WoundBoxes::default()));
    }

    #[test]
    fn too_big_for_tables() {
        let many = WoundBoxes {
            scratch: 40,
            hurt: 10,
            very_hurt: 1,
            incapacitated: 1,
            near_death: 3,
        };
        const { assert!(41 * 11 * 2 * 2 * 4 >= MAX_ROWS) };
        assert!(WoundsPrep::new(&model(WoundThresholds::default(), many)).is_none());
        let far = WoundThresholds {
            dead: Some(1_000_000),
            ..WoundThresholds::default()
        };
        assert!(WoundsPrep::new(&model(far, WoundBoxes::default())).is_none());
        // The threshold's limit itself has tables; one past it, none.
        let at = |dead| WoundThresholds {
            dead: Some(dead),
            ..WoundThresholds::default()
        };
        let edge = model(at(MAX_THRESHOLD), WoundBoxes::default());
        let prep = WoundsPrep::new(&edge).expect("tables at the limit");
        for damage in [MAX_THRESHOLD - 1, MAX_THRESHOLD, MAX_THRESHOLD + 1, i32::MAX, 9, 0, -1] {
            let (mut row, mut track) = (0, WoundTrack::new());
            let (down, penalty) = prep.land(&mut row, true, damage);
            let out = edge.apply(&mut track, damage);
            assert_eq!(
                (row, down, penalty),
                (prep.row_of(&track), out.newly_down(), out.penalty)
            );
        }
        assert!(WoundsPrep::new(&model(at(MAX_THRESHOLD + 1), WoundBoxes::default())).is_none());
    }
}
