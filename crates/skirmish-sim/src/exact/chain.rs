//! The fight as a Markov chain, built and solved.
//!
//! **Built** breadth first from the start: each state's exchange
//! (`moment.rs`) gives its successors with integer weights out of a
//! total, so every transition probability is an exact fraction; a state
//! past the budget stops the building ([`ExactError::TooManyStates`]).
//!
//! **Solved** for the chance of each ending (a side's win, a draw) and of
//! never ending, by strongly connected components (Tarjan's algorithm,
//! which hands them out sinks first, so every component's successors are
//! solved before it). Damage only grows, so most components are one state
//! whose only cycle is an exchange where nobody is hurt (or no hit
//! changes anything): with a self-loop of weight `c` out of `total`, the
//! state's chances are the rest's weighted sum over `total - c`, exactly
//! (not a truncated series). A larger component (`least_engaged`
//! targeting cycling through engagements without a wound) is solved as a
//! linear system in exact fractions. A component that nothing leaves is a
//! fight that never ends.
//!
//! In `f64` every step adds nonnegative terms (the self-loop's
//! complement is the integer `total - c`, never `1 - p`), so no
//! cancellation: each state's relative error is at most its successors'
//! plus `(k + 4)` units of rounding (`k` its transitions), and the start's
//! at most `depth x (k_max + 4) x 2^-53`, first order, `depth` the longest
//! path of components. [`Solved::error_bound`] is twice that.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::Zero;

use super::error::ExactError;
use super::moment::{self, FixedMap, Next, State};
use super::number::{Chances, ratio_of};
use super::setup::Fight;

/// Where a transition leads: a state of the chain, or an ending.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum To {
    State(u32),
    Ended(u32),
}

/// The chain of a fight: per state, its transitions and their total.
#[derive(Debug, Default)]
pub(super) struct Chain {
    edges: Vec<Vec<(To, u128)>>,
    totals: Vec<u128>,
    /// Endings: `0..sides` a side's win, `sides` a draw.
    endings: usize,
}

impl Chain {
    /// The chain of `fight` from its start, at most `budget` states.
    pub(super) fn build(fight: &Fight, budget: usize) -> Result<Chain, ExactError> {
        Chain::build_from(fight, moment::start(fight), budget)
    }

    /// The chain of `fight` from the state `start` (a fight under way:
    /// each fighter's damage so far, down or not), at most `budget`
    /// states. `start` must have a slot per fighter and at least two
    /// sides standing (the caller's checks).
    pub(super) fn build_from(fight: &Fight, start: State, budget: usize) -> Result<Chain, ExactError> {
        if budget == 0 {
            return Err(ExactError::TooManyStates { states: 1, budget });
        }
        let mut index: FixedMap<State, u32> = FixedMap::default();
        let mut queue: Vec<State> = vec![start];
        index.insert(queue[0].clone(), 0);
        let mut chain = Chain {
            endings: fight.sides.len() + 1,
            ..Chain::default()
        };
        let mut at = 0;
        while at < queue.len() {
            let (outcomes, total) = moment::exchange(fight, &queue[at])?;
            // The state is explored: its slots are not needed again.
            queue[at] = State::default();
            let mut edges = Vec::with_capacity(outcomes.len());
            for (next, w) in outcomes {
                let to = match next {
                    Next::Ended(o) => To::Ended(o as u32),
                    Next::Fight(s) => {
                        let fresh = index.len() as u32;
                        let i = *index.entry(s.clone()).or_insert(fresh);
                        if i == fresh {
                            if queue.len() >= budget {
                                return Err(ExactError::TooManyStates {
                                    states: queue.len() + 1,
                                    budget,
                                });
                            }
                            queue.push(s);
                        }
                        To::State(i)
                    }
                };
                edges.push((to, w));
            }
            chain.edges.push(edges);
            chain.totals.push(total);
            at += 1;
        }
        Ok(chain)
    }

    /// States.
    pub(super) fn states(&self) -> usize {
        self.edges.len()
    }

    /// Transitions.
    pub(super) fn transitions(&self) -> usize {
        self.edges.iter().map(Vec::len).sum()
    }

    /// The chances of the fight from its start: each ending's, then never
    /// ending's, in the numbers `N`.
    pub(super) fn solve<N: Chances>(&self) -> Solved<N> {
        let width = self.endings + 1;
        let never = self.endings;
        let mut values: Vec<Option<N>> = vec![None; self.states()];
        let mut depth = vec![0u64; self.states()];
        let units: Vec<N> = (0..width).map(|o| N::unit(width, o)).collect();
        for component in self.components() {
            let inside = |t: u32| component.contains(&t);
            // Its longest path to an ending, in components.
            let d = 1 + component
                .iter()
                .flat_map(|&s| &self.edges[s as usize])
                .filter_map(|(to, _)| match to {
                    To::State(t) if !inside(*t) => Some(depth[*t as usize]),
                    _ => None,
                })
                .max()
                .unwrap_or(0);
            let leaves = component.iter().any(|&s| {
                self.edges[s as usize].iter().any(|(to, _)| match to {
                    To::State(t) => !inside(*t),
                    To::Ended(_) => true,
                })
            });
            if !leaves {
                for &s in &component {
                    values[s as usize] = Some(units[never].clone());
                    depth[s as usize] = d;
                }
                continue;
            }
            if let [s] = component[..] {
                let s = s as usize;
                let mut terms: Vec<(&N, u128)> = Vec::with_capacity(self.edges[s].len());
                let mut stays = 0u128;
                for (to, w) in &self.edges[s] {
                    match to {
                        To::State(t) if *t as usize == s => stays += w,
                        To::Ended(o) => terms.push((&units[*o as usize], *w)),
                        // Solved already: components come sinks first.
                        To::State(t) => terms.push((values[*t as usize].as_ref().unwrap_or(&units[never]), *w)),
                    }
                }
                let solved = N::mean(&terms, self.totals[s] - stays, width);
                values[s] = Some(solved);
                depth[s] = d;
                continue;
            }
            let value_of = |to: &To| -> Vec<BigRational> {
                match to {
                    To::Ended(o) => units[*o as usize].to_ratios(),
                    To::State(t) => values[*t as usize].as_ref().unwrap_or(&units[never]).to_ratios(),
                }
            };
            let solved = self.solve_component(&component, value_of, width);
            for (&s, v) in component.iter().zip(solved) {
                values[s as usize] = Some(N::from_ratios(&v));
                depth[s as usize] = d;
            }
        }
        let k_max = self.edges.iter().map(Vec::len).max().unwrap_or(0) as f64;
        let start = values
            .first()
            .cloned()
            .flatten()
            .unwrap_or_else(|| units[never].clone());
        Solved {
            // depth x (k + 4) units of rounding (2^-53), twice.
            error_bound: depth.first().copied().unwrap_or(0) as f64 * (k_max + 4.0) * f64::EPSILON,
            chances: start,
        }
    }

    /// A component of several states: `x_s = sum_t w_st/total_s x_t` over
    /// its states, plus what leaves it, solved exactly (Gauss-Jordan on
    /// fractions; the system is regular since the component can be left).
    fn solve_component(
        &self,
        component: &[u32],
        value_of: impl Fn(&To) -> Vec<BigRational>,
        width: usize,
    ) -> Vec<Vec<BigRational>> {
        let m = component.len();
        let at: FixedMap<u32, usize> = component.iter().enumerate().map(|(i, &s)| (s, i)).collect();
        // Row i: total x_i - sum_inside w x_t = sum_outside w v_t.
        let mut a = vec![vec![<BigRational as Zero>::zero(); m]; m];
        let mut b = vec![vec![<BigRational as Zero>::zero(); width]; m];
        for (i, &s) in component.iter().enumerate() {
            a[i][i] = ratio_of(self.totals[s as usize]);
            for (to, w) in &self.edges[s as usize] {
                match to {
                    To::State(t) if at.contains_key(t) => a[i][at[t]] -= ratio_of(*w),
                    _ => {
                        for (acc, x) in b[i].iter_mut().zip(value_of(to)) {
                            *acc += x * BigInt::from(*w);
                        }
                    }
                }
            }
        }
        for col in 0..m {
            let Some(pivot) = (col..m).find(|&r| !a[r][col].is_zero()) else {
                continue; // cannot happen for a component that can be left
            };
            a.swap(col, pivot);
            b.swap(col, pivot);
            let p = a[col][col].clone();
            for x in a[col].iter_mut() {
                *x /= &p;
            }
            for x in b[col].iter_mut() {
                *x /= &p;
            }
            // The pivot row's nonzero entries, once for every row it
            // clears (the rows are sparse: a state leads to few others).
            let row_a: Vec<(usize, BigRational)> = a[col]
                .iter()
                .enumerate()
                .filter(|(_, y)| !y.is_zero())
                .map(|(j, y)| (j, y.clone()))
                .collect();
            let row_b: Vec<(usize, BigRational)> = b[col]
                .iter()
                .enumerate()
                .filter(|(_, y)| !y.is_zero())
                .map(|(j, y)| (j, y.clone()))
                .collect();
            for r in 0..m {
                if r == col || a[r][col].is_zero() {
                    continue;
                }
                let f = a[r][col].clone();
                for (j, y) in &row_a {
                    a[r][*j] -= &f * y;
                }
                for (j, y) in &row_b {
                    b[r][*j] -= &f * y;
                }
            }
        }
        b
    }

    /// The strongly connected components of the states, each after every
    /// component it leads to (Tarjan's algorithm, without recursion).
    fn components(&self) -> Vec<Vec<u32>> {
        const UNSEEN: u32 = u32::MAX;
        let n = self.states();
        let mut index = vec![UNSEEN; n];
        let mut low = vec![0u32; n];
        let mut on_stack = vec![false; n];
        let mut stack: Vec<u32> = Vec::new();
        let mut out = Vec::new();
        let mut next = 0u32;
        // The walk: (state, its next edge to look at).
        let mut walk: Vec<(u32, usize)> = Vec::new();
        for root in 0..n as u32 {
            if index[root as usize] != UNSEEN {
                continue;
            }
            walk.push((root, 0));
            index[root as usize] = next;
            low[root as usize] = next;
            next += 1;
            stack.push(root);
            on_stack[root as usize] = true;
            while let Some(&mut (v, ref mut e)) = walk.last_mut() {
                let edges = &self.edges[v as usize];
                if let Some((to, _)) = edges.get(*e) {
                    *e += 1;
                    let To::State(w) = *to else { continue };
                    if index[w as usize] == UNSEEN {
                        index[w as usize] = next;
                        low[w as usize] = next;
                        next += 1;
                        stack.push(w);
                        on_stack[w as usize] = true;
                        walk.push((w, 0));
                    } else if on_stack[w as usize] {
                        low[v as usize] = low[v as usize].min(index[w as usize]);
                    }
                    continue;
                }
                walk.pop();
                if let Some(&(parent, _)) = walk.last() {
                    low[parent as usize] = low[parent as usize].min(low[v as usize]);
                }
                if low[v as usize] == index[v as usize] {
                    let mut component = Vec::new();
                    while let Some(w) = stack.pop() {
                        on_stack[w as usize] = false;
                        component.push(w);
                        if w == v {
                            break;
                        }
                    }
                    out.push(component);
                }
            }
        }
        out
    }
}

/// The chances of a fight from its start, in the numbers `N`.
#[derive(Debug, Clone)]
pub(super) struct Solved<N> {
    /// Each ending's chance (a side's win, then a draw), then never
    /// ending's.
    pub(super) chances: N,
    /// In `f64`: the most any chance may be off (0 for exact fractions is
    /// for the caller to say).
    pub(super) error_bound: f64,
}
