//! FUDGE 4.34's lone fighter in a battle's moment (docs/rules.md §2.2.6):
//! the bookkeeping the general loop and the FUDGE fast path share.
//!
//! A battle fights exchanges when actions land (§2.2.2), so "one fighter
//! against several foes in a round" is read per moment: a fighter in
//! exchanges with two or more foes at one moment (striking one, struck by
//! others, in any mix) is *beset*. A beset fighter rolls once for the
//! moment (one 4dF, one posture drawn), and that result meets each foe's;
//! every foe who beats him hurts him at once, as in any exchange, but his
//! own blows wait until his last exchange of the moment: then the core's
//! rule ([`LoneTally`], [`lone_blows`] with a sweeping blow) lets him wound
//! only if he beat or tied every foe. A fighter who `concentrate`s fights
//! one foe (the one he strikes, else the first to strike him) and lets the
//! others' blows meet his armor unopposed
//! ([`combat::unopposed_blow`](skirmish_core::combat::unopposed_blow)).
//!
//! Two passes make this possible without a list of pairs: the first counts
//! each fighter's foes and exchanges of the moment
//! ([`LoneMoment::engage`]), the second fights them, keeping a beset
//! fighter's roll ([`LoneMoment::roll`]) and tallying his answers
//! ([`LoneMoment::defer`]); after his last exchange
//! ([`LoneMoment::finish`]) his blows land, so both loops land them at the
//! same point of the moment. Each fighter's state is one slot, stamped
//! with the moment it belongs to (a stale slot reads as empty), so nothing
//! is cleared between moments and a moment costs what its exchanges cost;
//! only the sweeping blow, which may land on every foe he may wound, keeps
//! his answers in a list. The fast path takes both fighters' slots of an
//! exchange at once ([`LoneMoment::pair`]: a beset fighter's roll, answer
//! and finish then read his slot without looking it up again), and fights
//! a moment where nobody is beset ([`LoneMoment::any_beset`]) as plain
//! exchanges.

use skirmish_core::striking::opposed::{LoneTally, SweepingBlow, lone_blows};

use crate::error::SimError;
use crate::roster::{NONE, reserve_fighters};

/// The relative degree of a lone fighter's blow at a foe who did not roll
/// against him (it concentrates on another and lets this blow meet its
/// armor): that foe neither beat nor tied him, so it blocks none of his
/// blows, and he may wound it whenever the blow lands.
pub(crate) const UNOPPOSED: i32 = i32::MAX / 2;

/// No roll or posture drawn yet (no 4dF or posture is -128).
const UNDRAWN: i8 = i8::MIN;

/// One fighter's state in the current moment.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Slot {
    /// The moment it belongs to ([`LoneMoment::stamp`]); any other: empty.
    stamp: u32,
    /// Foes it is in exchanges with.
    foes: u32,
    /// Its exchanges not yet fought.
    left: u32,
    /// The foe it strikes, or [`NONE`].
    own: u32,
    /// The foe it fights when it concentrates, or [`NONE`].
    fights: u32,
    /// Its roll and posture of the moment, once drawn ([`UNDRAWN`] before).
    roll: i8,
    posture: i8,
    /// Its answers so far.
    tally: LoneTally,
    /// With a sweeping blow: its first and last answers in the list.
    list: (u32, u32),
}

impl Slot {
    const fn fresh(stamp: u32) -> Slot {
        Slot {
            stamp,
            foes: 0,
            left: 0,
            own: NONE,
            fights: NONE,
            roll: UNDRAWN,
            posture: UNDRAWN,
            tally: LoneTally::NEW,
            list: (NONE, NONE),
        }
    }

    /// Whether it is in exchanges with two or more foes in moment `stamp`.
    #[inline(always)]
    const fn beset_in(&self, stamp: u32) -> bool {
        self.stamp == stamp && self.foes >= 2
    }

    /// A beset fighter's one roll of the moment, drawn at its first
    /// exchange.
    #[inline(always)]
    pub(crate) fn roll(&mut self, draw: impl FnOnce() -> i32) -> i32 {
        if self.roll == UNDRAWN {
            // A 4dF or 2dF roll, or 0: fits.
            self.roll = i8::try_from(draw()).unwrap_or(0);
        }
        i32::from(self.roll)
    }

    /// A beset fighter's one posture of the moment, as [`roll`](Self::roll).
    #[inline(always)]
    pub(crate) fn posture(&mut self, draw: impl FnOnce() -> i32) -> i32 {
        if self.posture == UNDRAWN {
            // -2..=2: fits.
            self.posture = i8::try_from(draw()).unwrap_or(0);
        }
        i32::from(self.posture)
    }

    /// Whether this beset fighter, concentrating, lets `foe`'s blow meet
    /// his armor unopposed.
    #[inline(always)]
    pub(crate) const fn ignores(&self, foe: u32) -> bool {
        self.fights != foe
    }
}

/// A beset fighter's answer, kept in a list with a sweeping blow.
#[derive(Debug, Clone, Copy)]
struct Answer {
    foe: u32,
    margin: i32,
    damage: Option<i32>,
    next: u32,
}

/// What a beset fighter's last exchange of the moment settled.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Settled {
    /// The foes he fought at once.
    pub(crate) foes: u32,
    /// His least relative degree over any foe he answered.
    pub(crate) worst: Option<i32>,
    /// His one blow (foe, damage), without a sweeping blow.
    blow: Option<(u32, i32)>,
    /// With a sweeping blow: his blows are [`Answers::blows`]'s list.
    swept: bool,
}

/// The moment's answers and settled blows, beside the slots (so a loop may
/// hold two fighters' slots and tally into these at once).
#[derive(Debug, Default, Clone)]
pub(crate) struct Answers {
    sweeping: SweepingBlow,
    answers: Vec<Answer>,
    scratch: Vec<(i32, Option<i32>)>,
    foes: Vec<u32>,
    /// The blows [`finish`](Self::finish) settled: (foe, damage).
    blows: Vec<(u32, i32)>,
}

impl Answers {
    /// Keeps beset `lone`'s (his slot's) answer to `foe` for his last
    /// exchange: his relative degree over the foe (a tie FUDGE 4.31 gives
    /// to a side counted as a win or loss by 1:
    /// `OpposedBlow::attacker_degree`; for a blow the foe lets through
    /// unopposed, [`UNOPPOSED`]) and the damage his blow would do it alone.
    #[inline(always)]
    pub(crate) fn defer(&mut self, lone: &mut Slot, foe: u32, margin: i32, damage: Option<i32>) {
        lone.tally.add(foe, margin, damage);
        if self.sweeping != SweepingBlow::Off {
            let i = self.answers.len() as u32;
            if lone.list.0 == NONE {
                lone.list.0 = i;
            } else {
                let last = lone.list.1 as usize;
                self.answers[last].next = i;
            }
            lone.list.1 = i;
            self.answers.push(Answer {
                foe,
                margin,
                damage,
                next: NONE,
            });
        }
    }

    /// One exchange of beset `lone` (his slot) fought: after his last of
    /// the moment, his blows are settled ([`blows`](Self::blows)) and what
    /// the moment came to for him is returned.
    #[inline(always)]
    pub(crate) fn finish(&mut self, lone: &mut Slot) -> Option<Settled> {
        lone.left = lone.left.saturating_sub(1);
        if lone.left > 0 {
            return None;
        }
        if self.sweeping == SweepingBlow::Off {
            return Some(Settled {
                foes: lone.foes,
                worst: lone.tally.worst(),
                blow: lone.tally.blow(),
                swept: false,
            });
        }
        Some(self.sweep(lone))
    }

    /// [`finish`](Self::finish) after `lone`'s last exchange, with a
    /// sweeping blow.
    #[inline(never)]
    fn sweep(&mut self, lone: &Slot) -> Settled {
        let (tally, foes, mut i) = (lone.tally, lone.foes, lone.list.0);
        self.blows.clear();
        {
            self.scratch.clear();
            self.foes.clear();
            // One answer a foe: two fighters who struck each other at one
            // moment had two exchanges, and he must have beaten the foe in
            // both (the lesser degree, the lesser blow).
            while i != NONE {
                let a = self.answers[i as usize];
                match self.foes.iter().position(|&f| f == a.foe) {
                    Some(k) => {
                        let (m, d) = self.scratch[k];
                        let damage = match (d, a.damage) {
                            (Some(x), Some(y)) => Some(x.min(y)),
                            _ => None,
                        };
                        self.scratch[k] = (m.min(a.margin), damage);
                    }
                    None => {
                        self.scratch.push((a.margin, a.damage));
                        self.foes.push(a.foe);
                    }
                }
                i = a.next;
            }
            let (who, blows) = (&self.foes, &mut self.blows);
            lone_blows(&self.scratch, self.sweeping, |k, d| blows.push((who[k], d)));
        }
        Settled {
            foes,
            worst: tally.worst(),
            blow: None,
            swept: true,
        }
    }

    /// The blows `settled` lands: (foe, damage).
    #[inline(always)]
    pub(crate) fn blows<'a>(&'a self, settled: &'a Settled) -> &'a [(u32, i32)] {
        if settled.swept {
            &self.blows
        } else {
            settled.blow.as_slice()
        }
    }
}

/// Per-fighter and per-moment state of FUDGE 4.34 in a battle, reused from
/// battle to battle (cloned by the exact engine to settle a lone
/// fighter's blows in each outcome it enumerates).
#[derive(Debug, Default, Clone)]
pub(crate) struct LoneMoment {
    slots: Vec<Slot>,
    /// The current moment's stamp (never 0 once a moment began).
    stamp: u32,
    /// Whether anyone is beset this moment (once every exchange is
    /// engaged).
    any: bool,
    answers: Answers,
}

impl LoneMoment {
    /// Room for a battle of `n` fighters.
    pub(crate) fn reserve(&mut self, n: usize) -> Result<(), SimError> {
        reserve_fighters(&mut self.slots, n)
    }

    /// Readies the state for a battle of `n` fighters (after
    /// [`reserve`](Self::reserve)) under this sweeping-blow option.
    pub(crate) fn reset(&mut self, n: usize, sweeping: SweepingBlow) {
        self.slots.clear();
        self.slots.resize(n, Slot::fresh(0));
        self.stamp = 0;
        self.any = false;
        self.answers.sweeping = sweeping;
        self.answers.answers.clear();
    }

    /// A new moment: every slot is stale.
    #[inline]
    pub(crate) fn begin(&mut self) {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            for s in &mut self.slots {
                s.stamp = 0;
            }
            self.stamp = 1;
        }
        self.any = false;
        self.answers.answers.clear();
    }

    #[inline]
    fn slot(&mut self, f: u32) -> &mut Slot {
        let stamp = self.stamp;
        let s = &mut self.slots[f as usize];
        if s.stamp != stamp {
            *s = Slot::fresh(stamp);
        }
        s
    }

    /// The first pass: `a`'s action lands on `t` as an exchange. Each
    /// fighter acts at most once a moment, so a foe counts twice only when
    /// the two struck each other: then it counts once. A fighter fights
    /// the foe it strikes, else the first to strike it.
    #[inline(always)]
    pub(crate) fn engage(&mut self, a: u32, t: u32) {
        let new_pair = self.slot(t).own != a;
        let sa = self.slot(a);
        sa.left += 1;
        sa.foes += u32::from(new_pair);
        sa.own = t;
        sa.fights = t;
        let a_beset = sa.foes >= 2;
        let st = self.slot(t);
        st.left += 1;
        st.foes += u32::from(new_pair);
        if st.fights == NONE {
            st.fights = a;
        }
        let t_beset = st.foes >= 2;
        self.any |= a_beset | t_beset;
    }

    /// Whether anyone is beset this moment (after the first pass): if
    /// nobody is, every exchange of the moment is fought on its own.
    #[inline(always)]
    pub(crate) const fn any_beset(&self) -> bool {
        self.any
    }

    /// The second pass, an exchange of `a` on `t` (two fighters): the slot
    /// of each that is beset, and the moment's answers.
    #[inline(always)]
    pub(crate) fn pair(&mut self, a: u32, t: u32) -> (Option<&mut Slot>, Option<&mut Slot>, &mut Answers) {
        let stamp = self.stamp;
        let (sa, st) = match self.slots.get_disjoint_mut([a as usize, t as usize]) {
            Ok([sa, st]) => (
                Some(sa).filter(|s| s.beset_in(stamp)),
                Some(st).filter(|s| s.beset_in(stamp)),
            ),
            // Not two fighters of the battle: neither was engaged.
            Err(_) => (None, None),
        };
        (sa, st, &mut self.answers)
    }

    /// The moment's answers, without a slot (a moment where nobody is
    /// beset).
    #[inline(always)]
    pub(crate) fn answers(&mut self) -> &mut Answers {
        &mut self.answers
    }

    /// Whether `f` is in exchanges with two or more foes this moment.
    #[inline]
    pub(crate) fn beset(&self, f: u32) -> bool {
        self.slots[f as usize].beset_in(self.stamp)
    }

    /// Whether beset `lone`, who concentrates, lets `foe`'s blow meet his
    /// armor unopposed.
    #[inline]
    pub(crate) fn ignores(&self, lone: u32, foe: u32) -> bool {
        self.beset(lone) && self.slots[lone as usize].ignores(foe)
    }

    /// `f`'s roll in an exchange: a beset fighter's one roll of the moment
    /// (drawn at its first exchange), anyone else's `draw()`; `beset` is
    /// [`beset`](Self::beset)`(f)`.
    #[inline(always)]
    pub(crate) fn roll(&mut self, (f, beset): (u32, bool), draw: impl FnOnce() -> i32) -> i32 {
        if beset {
            self.slots[f as usize].roll(draw)
        } else {
            draw()
        }
    }

    /// `f`'s posture in an exchange, as [`roll`](Self::roll): drawn once a
    /// moment for a beset fighter.
    #[inline(always)]
    pub(crate) fn posture(&mut self, (f, beset): (u32, bool), draw: impl FnOnce() -> i32) -> i32 {
        if beset {
            self.slots[f as usize].posture(draw)
        } else {
            draw()
        }
    }

    /// Keeps beset `lone`'s answer to `foe` for his last exchange
    /// ([`Answers::defer`]).
    #[inline(always)]
    pub(crate) fn defer(&mut self, lone: u32, foe: u32, margin: i32, damage: Option<i32>) {
        self.answers.defer(&mut self.slots[lone as usize], foe, margin, damage);
    }

    /// One exchange of beset `f` fought ([`Answers::finish`]).
    #[inline(always)]
    pub(crate) fn finish(&mut self, f: u32) -> Option<Settled> {
        self.answers.finish(&mut self.slots[f as usize])
    }

    /// The blows `settled` lands: (foe, damage).
    #[inline(always)]
    pub(crate) fn blows<'a>(&'a self, settled: &'a Settled) -> &'a [(u32, i32)] {
        self.answers.blows(settled)
    }

    /// How many foes `f` fights this moment.
    #[inline]
    pub(crate) fn foes(&self, f: u32) -> u32 {
        let s = &self.slots[f as usize];
        if s.stamp == self.stamp { s.foes } else { 0 }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A hero (0) and goblin 1 strike each other at one moment (two
    /// exchanges, one foe) while goblin 2 strikes him: a sweeping blow
    /// counts goblin 1 once, by the lesser of his two degrees and blows,
    /// and cuts each of the two blows by 1.
    #[test]
    fn a_sweeping_blow_counts_each_foe_once() {
        let mut m = LoneMoment::default();
        m.reserve(3).unwrap();
        m.reset(3, SweepingBlow::MinusOnePerFoe);
        m.begin();
        m.engage(0, 1);
        m.engage(1, 0);
        m.engage(2, 0);
        assert!(m.beset(0) && !m.beset(1) && !m.beset(2));
        assert_eq!(m.foes(0), 2);
        m.defer(0, 1, 3, Some(5));
        assert!(m.finish(0).is_none());
        m.defer(0, 1, 2, Some(4));
        assert!(m.finish(0).is_none());
        m.defer(0, 2, 1, Some(3));
        let settled = m.finish(0).unwrap();
        assert_eq!((settled.foes, settled.worst), (2, Some(1)));
        assert_eq!(m.blows(&settled), [(1, 3), (2, 2)]);
        // The next moment starts empty.
        m.begin();
        assert!(!m.beset(0));
        assert_eq!(m.foes(0), 0);
    }

    /// Two fighters who strike each other are one foe each: nobody is
    /// beset, and the fast path's pair gives no slot; a third fighter
    /// striking one of them makes that one beset.
    #[test]
    fn a_pair_gives_the_slots_of_the_beset() {
        let mut m = LoneMoment::default();
        m.reserve(3).unwrap();
        m.reset(3, SweepingBlow::Off);
        m.begin();
        m.engage(0, 1);
        m.engage(1, 0);
        assert!(!m.any_beset());
        let (a, t, _) = m.pair(0, 1);
        assert!(a.is_none() && t.is_none());
        m.engage(2, 0);
        assert!(m.any_beset());
        let (a, t, answers) = m.pair(2, 0);
        assert!(a.is_none());
        let hero = t.unwrap();
        assert_eq!(hero.roll(|| 3), 3);
        assert_eq!(hero.roll(|| -4), 3, "one roll a moment");
        answers.defer(hero, 2, 1, Some(2));
        assert!(answers.finish(hero).is_none());
        m.begin();
        assert!(!m.any_beset() && !m.beset(0));
    }
}
