//! The ring of per-tick buckets that the fast paths and the lean clocks
//! schedule pending actions on: a tick's place is `tick & RING_MASK`, so
//! every delay (an initiative, a Ready Time, a Tick System action and
//! Interval) must be at most [`MAX_DELAY`] for a battle to use it.
//!
//! A leaf of the crate: the lean clocks (`clock/`) and the fast paths
//! (`fast/`) both build on it, and it needs neither.

use crate::scenario::MAX_FIGHTERS;

/// Ticks in the ring: the longest delay (initiative or Ready Time) a
/// battle may have to take the ring is one less.
pub(crate) const RING: usize = 1024;
/// A tick's place in the ring: `tick & RING_MASK`.
pub(crate) const RING_MASK: u64 = RING as u64 - 1;
/// The longest delay the ring holds.
pub(crate) const MAX_DELAY: i64 = RING as i64 - 1;

/// Bits of a 4-byte ring entry ([`epoch_entry`]) that hold its fighter;
/// the rest hold its epoch's low bits.
pub(crate) const WHO_BITS: u32 = 22;
/// The fighter's bits of a 4-byte entry.
pub(crate) const WHO_MASK: u32 = (1 << WHO_BITS) - 1;
/// The epoch's bits a 4-byte entry keeps, in place (`epoch & EPOCH_MASK`).
const EPOCH_MASK: u16 = (1 << (32 - WHO_BITS)) - 1;

// Every fighter's number fits beside the epoch, and no entry waits long
// enough for its epoch to come round again (up to a move a tick of its
// delay, `MAX_DELAY` moves, in the Full Contact loop).
const _: () = assert!(MAX_FIGHTERS <= 1 << WHO_BITS);
const _: () = assert!(MAX_DELAY <= EPOCH_MASK as i64);

/// Fighter `w`'s 4-byte ring entry at epoch `epoch`: the fighter in the
/// low 22 bits (a scenario fields at most [`MAX_FIGHTERS`], under 2^22),
/// the epoch's low 10 bits above. A ring whose entries come up at most
/// [`MAX_DELAY`] ticks after they were scheduled, and are read then, while
/// their fighter's epoch moves at most once for each tick of the wait (at
/// most 1,023 times), cannot mistake a stale entry for a live one: the
/// Full Contact loop's (`fast/continuous.rs`), the FUDGE ring clock's
/// (`fast/opposed/ring.rs`) and Graduated Rounds' follow-ups
/// (`clock/graduated.rs`). Without epochs (no disruption) the entry is the
/// fighter alone.
#[inline]
pub(crate) fn epoch_entry(w: u32, epoch: u16) -> u32 {
    w | u32::from(epoch & EPOCH_MASK) << WHO_BITS
}

/// Whether 4-byte entry `e` is still its fighter's pending action: its
/// epoch is the fighter's in `epochs`.
#[inline]
pub(crate) fn entry_is_live(epochs: &[u16], e: u32) -> bool {
    let who = e & WHO_MASK;
    epochs.get(who as usize).is_some_and(|&ep| e == epoch_entry(who, ep))
}

/// Per-tick buckets of pending actions, FIFO within a tick: the Full
/// Contact Continuous loop's 8-byte entries (`fast/continuous.rs`), 4-byte
/// entries ([`epoch_entry`]) in the FUDGE ring clock's
/// (`fast/opposed/ring.rs`), Graduated Rounds' follow-ups
/// (`clock/graduated.rs`) and the lazy Tick clock's (`clock/tick/lazy.rs`).
#[derive(Debug)]
pub(crate) struct Ring<E> {
    pub(crate) buckets: Box<[Vec<E>; RING]>,
    pub(crate) bits: [u64; RING / 64],
    /// Emptied buckets' memory, for the next buckets to fill: a battle
    /// moves through the ring, so without it every tick's bucket would grow
    /// from nothing (copying as it doubles) while the memory of the ticks
    /// just fought lay idle until the ring came round.
    spares: Vec<Vec<E>>,
}

/// Buckets of at least this capacity (32 KiB of 8-byte entries) lend their
/// memory to later ones when emptied; smaller ones keep it (small battles reuse
/// their buckets lap after lap, battle after battle).
pub(crate) const SPARE_AT_LEAST: usize = 4096;

impl<E> Default for Ring<E> {
    fn default() -> Self {
        Ring {
            buckets: Box::new(std::array::from_fn(|_| Vec::new())),
            bits: [0; RING / 64],
            spares: Vec::new(),
        }
    }
}

impl<E> Ring<E> {
    pub(crate) fn clear(&mut self) {
        for (w, word) in self.bits.iter_mut().enumerate() {
            while *word != 0 {
                let i = w * 64 + word.trailing_zeros() as usize;
                *word &= *word - 1;
                if let Some(b) = self.buckets.get_mut(i) {
                    b.clear();
                }
            }
        }
    }

    #[inline]
    pub(crate) fn push(&mut self, tick: u64, entry: E) {
        let i = (tick & RING_MASK) as usize;
        let bucket = &mut self.buckets[i];
        if bucket.len() == bucket.capacity() {
            self.make_room(i);
        }
        self.buckets[i].push(entry);
        self.bits[i / 64] |= 1 << (i % 64);
    }

    /// Bucket `i` is full: an empty one takes a spare's memory if there is
    /// a larger one, and grows as usual otherwise.
    #[cold]
    #[inline(never)]
    fn make_room(&mut self, i: usize) {
        let bucket = &mut self.buckets[i];
        if bucket.is_empty()
            && let Some(spare) = self.spares.pop()
        {
            if spare.capacity() > bucket.capacity() {
                let old = std::mem::replace(bucket, spare);
                self.give_back(old);
            } else {
                self.spares.push(spare);
            }
        }
        let bucket = &mut self.buckets[i];
        if bucket.len() == bucket.capacity() {
            bucket.reserve(bucket.len().max(8));
        }
    }

    /// Keeps an emptied bucket's memory for later buckets (a few of them:
    /// about as many as the ticks a delay spans are in use at once).
    pub(crate) fn give_back(&mut self, mut bucket: Vec<E>) {
        if bucket.capacity() > 0 && self.spares.len() < 64 {
            bucket.clear();
            self.spares.push(bucket);
        }
    }

    /// Bucket `i`'s entries, each to `each` in order, and the bucket
    /// emptied: a large one's memory goes to the spares for the buckets
    /// ahead, a small one keeps it.
    #[inline]
    pub(crate) fn pop(&mut self, i: usize, mut each: impl FnMut(&E)) {
        self.bits[i / 64] &= !(1 << (i % 64));
        self.buckets[i].iter().for_each(&mut each);
        if self.buckets[i].capacity() >= SPARE_AT_LEAST {
            let bucket = std::mem::take(&mut self.buckets[i]);
            self.give_back(bucket);
        } else {
            self.buckets[i].clear();
        }
    }

    /// Takes bucket `i`'s entries into `out` (empty), which takes the
    /// bucket's place, and clears its bit: entries can be pushed while
    /// they are read (never into bucket `i`: every delay is under
    /// `RING`). [`put_back`](Self::put_back) returns it.
    #[inline]
    pub(crate) fn take(&mut self, i: usize, out: &mut Vec<E>) {
        self.bits[i / 64] &= !(1 << (i % 64));
        std::mem::swap(out, &mut self.buckets[i]);
    }

    /// The bucket [`take`](Self::take) took from place `i`, read: emptied,
    /// a large one's memory to the spares (the ring keeps the empty one it
    /// was swapped for), a small one back into its place.
    #[inline]
    pub(crate) fn put_back(&mut self, i: usize, bucket: &mut Vec<E>) {
        if bucket.capacity() >= SPARE_AT_LEAST {
            self.give_back(std::mem::take(bucket));
        } else {
            bucket.clear();
            std::mem::swap(bucket, &mut self.buckets[i]);
        }
    }

    /// Bucket `i`'s entries (`i` a tick's place, `tick & RING_MASK`).
    #[inline]
    pub(crate) fn bucket(&self, i: usize) -> &[E] {
        self.buckets.get(i).map_or(&[], Vec::as_slice)
    }

    /// The first tick after `now` with a bucket; every entry is at most
    /// [`MAX_DELAY`] ticks after the tick it was scheduled at, so one turn
    /// of the ring finds it.
    #[inline]
    pub(crate) fn next(&self, now: u64) -> Option<u64> {
        let mut d = 1;
        while d <= RING as u64 {
            let i = (now.wrapping_add(d) & RING_MASK) as usize;
            let word = self.bits[i / 64] >> (i % 64);
            if word != 0 {
                return Some(now + d + u64::from(word.trailing_zeros()));
            }
            d += 64 - (i % 64) as u64;
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 4-byte entry keeps every fighter's number whole and its epoch's
    /// low 10 bits, at both ends of both.
    #[test]
    fn entries_keep_the_fighter_and_the_epochs_low_bits() {
        let last = u32::try_from(MAX_FIGHTERS - 1).unwrap();
        for w in [0, 1, 12_345, last, WHO_MASK] {
            for epoch in [0u16, 1, 1023, 1024, 40_000, u16::MAX] {
                let e = epoch_entry(w, epoch);
                assert_eq!(e & WHO_MASK, w);
                assert_eq!(e >> WHO_BITS, u32::from(epoch % 1024));
                // The epochs that share an entry are 1,024 apart, more
                // than any entry waits (`MAX_DELAY`) in epochs.
                assert_eq!(e, epoch_entry(w, epoch.wrapping_add(1024)));
                assert_ne!(e, epoch_entry(w, epoch.wrapping_add(1)));
                assert_ne!(e, epoch_entry(w, epoch.wrapping_add(MAX_DELAY as u16)));
            }
        }
    }
}
