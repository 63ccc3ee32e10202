//! FUDGE 4.34's lone fighter in a battle's moment (docs/rules.md §2.2.6):
//! the bookkeeping the general loop and the FUDGE fast path share.
//!
//! A battle fights exchanges when actions land (§2.2.2), so "one fighter
//! against several foes in a round" is read per moment: a fighter in
//! exchanges with two or more foes at one moment (striking one, struck by
//! others, in any mix) is *beset*. A beset fighter rolls once for the
//! moment (one 4dF, one posture drawn), and that result meets each foe's;
//! every foe who beats him hurts him at once, as in any exchange, but his
//! own blows wait for the end of the moment's exchanges: then
//! [`lone_blows`] (the core's rule) lets him wound only if he beat or tied
//! every foe, one foe (or several with a sweeping blow). A fighter who
//! `concentrate`s fights one foe (the one he strikes, else the first to
//! strike him) and lets the others' blows meet his armor unopposed
//! ([`combat::unopposed_blow`](skirmish_core::combat::unopposed_blow)).
//!
//! Two passes make this possible without a list of pairs: the first counts
//! each fighter's exchanges of the moment ([`LoneMoment::engage`]), the
//! second fights them, keeping a beset fighter's roll
//! ([`LoneMoment::roll`]) and his answers ([`LoneMoment::defer`]); the
//! lone fighters' blows are then settled in the order of each one's first
//! answer ([`LoneMoment::settle`]). Everything here is per fighter and
//! reset for the fighters the moment touched, so a moment costs what its
//! exchanges cost.

use skirmish_core::striking::opposed::{SweepingBlow, lone_blows};

use crate::error::SimError;
use crate::roster::{NONE, reserve_fighters};

/// No roll or posture drawn yet this moment (no 4dF or posture reaches it).
const UNDRAWN: i32 = i32::MIN;

/// One of a beset fighter's blows that waits for the end of the moment.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Answer {
    /// The foe it would land on.
    pub(crate) foe: u32,
    /// The lone fighter's relative degree over that foe.
    pub(crate) margin: i32,
    /// The damage it would do that foe alone; `None` if it could not wound.
    pub(crate) damage: Option<i32>,
    /// The next answer of the same lone fighter, or [`NONE`].
    next: u32,
}

/// Per-fighter and per-moment state of FUDGE 4.34 in a battle, reused from
/// battle to battle.
#[derive(Debug, Default)]
pub(crate) struct LoneMoment {
    /// Per fighter: the foes it is in exchanges with this moment.
    count: Vec<u32>,
    /// Per fighter: the foe it struck this moment, or [`NONE`].
    own: Vec<u32>,
    /// Per fighter: its roll and posture of the moment, or [`UNDRAWN`].
    once: Vec<(i32, i32)>,
    /// Per fighter: the foe it fights when it concentrates, or [`NONE`].
    fights: Vec<u32>,
    /// Per fighter: its first and last answers, or [`NONE`].
    ends: Vec<(u32, u32)>,
    /// The moment's answers.
    answers: Vec<Answer>,
    /// The fighters with answers, in the order of their first.
    lones: Vec<u32>,
    /// The fighters this moment touched (to reset).
    touched: Vec<u32>,
    /// Scratch for one lone fighter's answers and blows.
    scratch: Vec<(i32, Option<i32>)>,
    foes: Vec<Answer>,
    blows: Vec<(u32, i32)>,
}

impl LoneMoment {
    /// Room for a battle of `n` fighters.
    pub(crate) fn reserve(&mut self, n: usize) -> Result<(), SimError> {
        reserve_fighters(&mut self.count, n)?;
        reserve_fighters(&mut self.own, n)?;
        reserve_fighters(&mut self.once, n)?;
        reserve_fighters(&mut self.fights, n)?;
        reserve_fighters(&mut self.ends, n)
    }

    /// Readies the state for a battle of `n` fighters (after
    /// [`reserve`](Self::reserve)).
    pub(crate) fn reset(&mut self, n: usize) {
        self.count.clear();
        self.count.resize(n, 0);
        self.own.clear();
        self.own.resize(n, NONE);
        self.once.clear();
        self.once.resize(n, (UNDRAWN, UNDRAWN));
        self.fights.clear();
        self.fights.resize(n, NONE);
        self.ends.clear();
        self.ends.resize(n, (NONE, NONE));
        self.answers.clear();
        self.lones.clear();
        self.touched.clear();
    }

    /// The first pass: `a`'s action lands on `t` as an exchange. Each
    /// fighter acts at most once a moment, so a foe counts twice only when
    /// the two struck each other: then it counts once. A fighter fights
    /// the foe it strikes, else the first to strike it.
    #[inline]
    pub(crate) fn engage(&mut self, a: u32, t: u32) {
        if self.own[t as usize] != a {
            for f in [a, t] {
                let c = &mut self.count[f as usize];
                if *c == 0 {
                    self.touched.push(f);
                }
                *c += 1;
            }
        }
        self.own[a as usize] = t;
        self.fights[a as usize] = t;
        if self.fights[t as usize] == NONE {
            self.fights[t as usize] = a;
        }
    }

    /// Whether `f` is in exchanges with two or more foes this moment.
    #[inline]
    pub(crate) fn beset(&self, f: u32) -> bool {
        self.count[f as usize] >= 2
    }

    /// How many foes `f` is in exchanges with this moment.
    #[inline]
    pub(crate) fn foes(&self, f: u32) -> u32 {
        self.count[f as usize]
    }

    /// Whether beset `lone`, who concentrates, lets `foe`'s blow meet his
    /// armor unopposed.
    #[inline]
    pub(crate) fn ignores(&self, lone: u32, foe: u32) -> bool {
        self.beset(lone) && self.fights[lone as usize] != foe
    }

    /// `f`'s roll in an exchange: a beset fighter's one roll of the moment
    /// (drawn at its first exchange), anyone else's `draw()`.
    #[inline]
    pub(crate) fn roll(&mut self, f: u32, draw: impl FnOnce() -> i32) -> i32 {
        if !self.beset(f) {
            return draw();
        }
        let once = &mut self.once[f as usize].0;
        if *once == UNDRAWN {
            *once = draw();
        }
        *once
    }

    /// `f`'s posture in an exchange, as [`roll`](Self::roll): drawn once a
    /// moment for a beset fighter.
    #[inline]
    pub(crate) fn posture(&mut self, f: u32, draw: impl FnOnce() -> i32) -> i32 {
        if !self.beset(f) {
            return draw();
        }
        let once = &mut self.once[f as usize].1;
        if *once == UNDRAWN {
            *once = draw();
        }
        *once
    }

    /// Keeps beset `lone`'s blow at `foe` for the end of the moment: his
    /// relative degree over the foe and the damage it would do alone.
    #[inline]
    pub(crate) fn defer(&mut self, lone: u32, foe: u32, margin: i32, damage: Option<i32>) {
        let i = self.answers.len() as u32;
        self.answers.push(Answer {
            foe,
            margin,
            damage,
            next: NONE,
        });
        let ends = &mut self.ends[lone as usize];
        if ends.0 == NONE {
            ends.0 = i;
            self.lones.push(lone);
        } else {
            self.answers[ends.1 as usize].next = i;
        }
        ends.1 = i;
    }

    /// The end of the moment's exchanges: each lone fighter, in the order
    /// of his first answer, strikes as FUDGE 4.34 allows (`sweeping` for
    /// several foes); `land(lone, answers, blows)` gets his answers and his
    /// blows (foe, damage), in the order of the answers. Then the moment's
    /// state is cleared.
    pub(crate) fn settle(&mut self, sweeping: SweepingBlow, mut land: impl FnMut(u32, &[Answer], &[(u32, i32)])) {
        for &lone in &self.lones {
            self.foes.clear();
            let mut i = self.ends[lone as usize].0;
            while i != NONE {
                let a = self.answers[i as usize];
                self.foes.push(a);
                i = a.next;
            }
            self.scratch.clear();
            self.scratch.extend(self.foes.iter().map(|a| (a.margin, a.damage)));
            self.blows.clear();
            let (foes, blows) = (&self.foes, &mut self.blows);
            lone_blows(&self.scratch, sweeping, |k, damage| blows.push((foes[k].foe, damage)));
            land(lone, &self.foes, &self.blows);
        }
        self.clear();
    }

    /// Forgets the moment (the fighters it touched).
    pub(crate) fn clear(&mut self) {
        for &f in &self.touched {
            let f = f as usize;
            self.count[f] = 0;
            self.own[f] = NONE;
            self.once[f] = (UNDRAWN, UNDRAWN);
            self.fights[f] = NONE;
            self.ends[f] = (NONE, NONE);
        }
        self.touched.clear();
        self.answers.clear();
        self.lones.clear();
    }
}
