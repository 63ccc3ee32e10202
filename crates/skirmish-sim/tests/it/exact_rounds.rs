//! The exact engine under the timing systems whose rounds it lays out as
//! schedules of moments (docs/rules.md §7): the Tick System, Action
//! Blocks, Simple Rounds with several actions a round. Against a
//! brute-force enumeration written here (each round's rules in closed
//! form, every face of every die), against the battle engine's win rates,
//! and its refusals of what changes a round as it is fought.

use std::collections::HashMap;

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};
use skirmish_sim::exact::{ExactError, ExactOptions, solve};
use skirmish_sim::scenario::Scenario;

use super::exact::{BATTLES, agrees_with_battles, exact, fight, four_df_by_faces, fraction};

// ---------------------------------------------------------------------
// Brute force.
// ---------------------------------------------------------------------

/// A fighter of the brute force: Full Contact with no options, hit points
/// lost by the margin, and its timing traits.
#[derive(Clone, Copy)]
pub(super) struct Tiny {
    pub(super) side: usize,
    pub(super) sr: i32,
    pub(super) dr: i32,
    pub(super) hp: i32,
    /// Tick System: initiative bonus and Interval (action ticks 2).
    pub(super) bonus: i32,
    pub(super) interval: i64,
    /// Action Blocks: REF + Combat Sense.
    pub(super) reflexes: i32,
    /// Simple Rounds: speed bonus (no weapon: Time Taken 3) and extra
    /// attacks.
    pub(super) speed: i32,
    pub(super) extra: u32,
}

#[derive(Clone, Copy, PartialEq)]
pub(super) enum System {
    Tick,
    Blocks,
    Simple,
}

/// A round's moments in turn, each the fighters landing together.
pub(super) type Moments = Vec<Vec<usize>>;

/// A round's moments with their count of the joint rolls, and the count
/// of them all, for the fighters `up`.
pub(super) fn rounds(system: System, fighters: &[Tiny], up: &[usize]) -> (Vec<(Moments, u64)>, u64) {
    // Each fighter's rolls: (value, count).
    let faces: Vec<(i32, u64)> = match system {
        System::Tick => (1..=20).map(|r| (r, 1)).collect(),
        System::Blocks => (1..=6).map(|r| (r, 1)).collect(),
        System::Simple => four_df_by_faces()
            .iter()
            .enumerate()
            .map(|(i, &c)| (i as i32 - 4, c))
            .collect(),
    };
    let mut merged: HashMap<Moments, u64> = HashMap::new();
    let mut all = 0;
    let mut pick = vec![0usize; up.len()];
    loop {
        let rolls: Vec<i32> = pick.iter().map(|&i| faces[i].0).collect();
        let count: u64 = pick.iter().map(|&i| faces[i].1).product();
        all += count;
        let moments = match system {
            System::Tick => {
                // Countdown: first turn at the initiative (1..h), each
                // action lands 2 ticks after its turn, the next turn
                // Interval after that while at least tick 1.
                let inits: Vec<i64> = up
                    .iter()
                    .zip(&rolls)
                    .map(|(&f, &r)| i64::from(r + fighters[f].bonus))
                    .collect();
                let h = inits.iter().copied().max().unwrap().max(1);
                let mut landings: Vec<(i64, usize)> = Vec::new();
                for (k, &f) in up.iter().enumerate() {
                    let mut turn = inits[k].clamp(1, h);
                    while turn >= 1 {
                        landings.push((turn - 2, f));
                        turn -= 2 + fighters[f].interval;
                    }
                }
                // Highest countdown first; one moment per tick.
                landings.sort_by_key(|&(t, f)| (-t, f));
                let mut moments: Vec<Vec<usize>> = Vec::new();
                let mut last = None;
                for (t, f) in landings {
                    if last != Some(t) {
                        moments.push(Vec::new());
                        last = Some(t);
                    }
                    moments.last_mut().unwrap().push(f);
                }
                moments
            }
            System::Blocks => {
                let actions: Vec<i32> = up
                    .iter()
                    .zip(&rolls)
                    .map(|(&f, &r)| ((fighters[f].reflexes + r) / 5).max(1))
                    .collect();
                let most = *actions.iter().max().unwrap();
                (1..=most)
                    .rev()
                    .map(|b| (0..up.len()).filter(|&k| actions[k] >= b).map(|k| up[k]).collect())
                    .collect()
            }
            System::Simple => {
                let inits: Vec<i32> = up
                    .iter()
                    .zip(&rolls)
                    .map(|(&f, &r)| (r + 5 + 3 - fighters[f].speed).max(1))
                    .collect();
                let passes = up.iter().map(|&f| 1 + fighters[f].extra).max().unwrap();
                let mut moments = Vec::new();
                for p in 1..=passes {
                    let mut order: Vec<(i32, usize)> = (0..up.len())
                        .filter(|&k| 1 + fighters[up[k]].extra >= p)
                        .map(|k| (inits[k], up[k]))
                        .collect();
                    order.sort();
                    let mut last = None;
                    for (i, f) in order {
                        if last != Some(i) {
                            moments.push(Vec::new());
                            last = Some(i);
                        }
                        moments.last_mut().unwrap().push(f);
                    }
                }
                moments
            }
        };
        *merged.entry(moments).or_default() += count;
        let mut k = 0;
        while k < pick.len() {
            pick[k] += 1;
            if pick[k] < faces.len() {
                break;
            }
            pick[k] = 0;
            k += 1;
        }
        if k == pick.len() {
            break;
        }
    }
    (merged.into_iter().collect(), all)
}

fn sides_left(fighters: &[Tiny], hp: &[i32]) -> usize {
    let mut sides: Vec<usize> = (0..hp.len()).filter(|&f| hp[f] > 0).map(|f| fighters[f].side).collect();
    sides.sort();
    sides.dedup();
    sides.len()
}

/// Each moment from each damage, merged by where it leads: the brute
/// force meets the same ones in thousands of schedules.
type Struck = HashMap<(Vec<i32>, Vec<usize>), Vec<(Vec<i32>, BigRational)>>;

/// One moment: each of `acting` standing picks each standing foe (equally
/// likely) and rolls each 4dF total; the hits land together.
fn strike(fighters: &[Tiny], hp: &[i32], acting: &[usize]) -> Vec<(Vec<i32>, BigRational)> {
    let counts = four_df_by_faces();
    let mut combos: Vec<(Vec<i32>, BigRational)> = vec![(hp.to_vec(), BigRational::one())];
    for &a in acting {
        let foes: Vec<usize> = (0..hp.len())
            .filter(|&c| hp[c] > 0 && fighters[c].side != fighters[a].side)
            .collect();
        let mut grown = Vec::new();
        for (after, p) in &combos {
            for &t in &foes {
                for (i, &count) in counts.iter().enumerate() {
                    let margin = fighters[a].sr + i as i32 - 4 - fighters[t].dr;
                    let mut after = after.clone();
                    if margin > 0 {
                        after[t] = (after[t] - margin).max(0);
                    }
                    grown.push((
                        after,
                        p * BigRational::new(BigInt::from(count), BigInt::from(81 * foes.len())),
                    ));
                }
            }
        }
        combos = grown;
    }
    let mut merged: HashMap<Vec<i32>, BigRational> = HashMap::new();
    for (after, p) in combos {
        *merged.entry(after).or_insert_with(BigRational::zero) += p;
    }
    merged.into_iter().collect()
}

/// Each side's chance to win, then a draw's, from hit points `hp`.
fn brute(
    system: System,
    fighters: &[Tiny],
    hp: Vec<i32>,
    memo: &mut HashMap<Vec<i32>, Vec<BigRational>>,
    seen: &mut Struck,
) -> Vec<BigRational> {
    let sides = 1 + fighters.iter().map(|f| f.side).max().unwrap();
    if sides_left(fighters, &hp) <= 1 {
        let mut v = vec![BigRational::zero(); sides + 1];
        let winner = (0..hp.len()).find(|&f| hp[f] > 0).map_or(sides, |f| fighters[f].side);
        v[winner] = BigRational::one();
        return v;
    }
    if let Some(v) = memo.get(&hp) {
        return v.clone();
    }
    let up: Vec<usize> = (0..hp.len()).filter(|&f| hp[f] > 0).collect();
    let (schedules, all) = rounds(system, fighters, &up);
    let mut next: HashMap<Vec<i32>, BigRational> = HashMap::new();
    for (moments, count) in schedules {
        let mut now: HashMap<Vec<i32>, BigRational> = HashMap::new();
        now.insert(hp.clone(), BigRational::new(BigInt::from(count), BigInt::from(all)));
        for m in &moments {
            let mut after: HashMap<Vec<i32>, BigRational> = HashMap::new();
            for (h, p) in now {
                let acting: Vec<usize> = m.iter().copied().filter(|&f| h[f] > 0).collect();
                if acting.is_empty() || sides_left(fighters, &h) <= 1 {
                    *after.entry(h).or_insert_with(BigRational::zero) += p;
                    continue;
                }
                let struck = seen
                    .entry((h.clone(), acting))
                    .or_insert_with_key(|(h, acting)| strike(fighters, h, acting));
                for (h2, q) in struck.iter() {
                    *after.entry(h2.clone()).or_insert_with(BigRational::zero) += &p * q;
                }
            }
            now = after;
        }
        for (h, p) in now {
            *next.entry(h).or_insert_with(BigRational::zero) += p;
        }
    }
    let stay = next.remove(&hp).unwrap_or_else(BigRational::zero);
    let mut v = vec![BigRational::zero(); sides + 1];
    for (after, p) in next {
        let sub = brute(system, fighters, after, memo, seen);
        for (x, y) in v.iter_mut().zip(sub) {
            *x += &p * y;
        }
    }
    let leave = BigRational::one() - stay;
    let v: Vec<BigRational> = v.into_iter().map(|x| x / &leave).collect();
    memo.insert(hp, v.clone());
    v
}

/// The brute force's fight as a scenario under `system`.
pub(super) fn tiny_scenario(system: System, fighters: &[Tiny]) -> Scenario {
    let sides = 1 + fighters.iter().map(|f| f.side).max().unwrap();
    let extras: Vec<Vec<(String, i32, i32, String)>> = (0..sides)
        .map(|s| {
            fighters
                .iter()
                .enumerate()
                .filter(|(_, f)| f.side == s)
                .map(|(i, f)| {
                    let extra = format!(
                        "hit_points = {}\ninitiative_bonus = {}\ninterval = {}\nreflexes = {}\nspeed_bonus = {}\nextra_attacks = {}",
                        f.hp, f.bonus, f.interval, f.reflexes, f.speed, f.extra
                    );
                    (format!("f{i}"), f.sr, f.dr, extra)
                })
                .collect()
        })
        .collect();
    let borrowed: Vec<Vec<(&str, i32, i32, &str)>> = extras
        .iter()
        .map(|g| {
            g.iter()
                .map(|(n, sr, dr, e)| (n.as_str(), *sr, *dr, e.as_str()))
                .collect()
        })
        .collect();
    let sides: Vec<&[(&str, i32, i32, &str)]> = borrowed.iter().map(Vec::as_slice).collect();
    let timing = match system {
        System::Tick => "tick-system",
        System::Blocks => "action-blocks",
        System::Simple => "simple-rounds",
    };
    fight("damage = { model = \"hit_points\", max_hp = 1 }", &sides)
        .with_field("timing", timing)
        .unwrap()
}

#[test]
fn tiny_round_fights_agree_with_a_brute_force_enumeration_exactly() {
    let p = |side, sr, dr, hp, bonus, interval, reflexes, speed, extra| Tiny {
        side,
        sr,
        dr,
        hp,
        bonus,
        interval,
        reflexes,
        speed,
        extra,
    };
    let cases: Vec<(System, Vec<Tiny>)> = vec![
        // Tick System: a quick fighter against a slow one; bonuses that
        // push initiatives below 1 and past 20.
        (
            System::Tick,
            vec![p(0, 6, 5, 1, 3, 2, 0, 0, 0), p(1, 7, 5, 1, 0, 6, 0, 0, 0)],
        ),
        (
            System::Tick,
            vec![p(0, 6, 5, 2, -8, 0, 0, 0, 0), p(1, 5, 4, 2, 4, 3, 0, 0, 0)],
        ),
        (
            System::Tick,
            vec![
                p(0, 7, 6, 1, 1, 5, 0, 0, 0),
                p(1, 5, 5, 1, 0, 6, 0, 0, 0),
                p(1, 5, 4, 1, -2, 8, 0, 0, 0),
            ],
        ),
        // Action Blocks: REF 9 often has two or three actions, REF 3 one.
        (
            System::Blocks,
            vec![p(0, 6, 5, 2, 0, 0, 9, 0, 0), p(1, 7, 5, 2, 0, 0, 3, 0, 0)],
        ),
        (
            System::Blocks,
            vec![
                p(0, 7, 6, 2, 0, 0, 12, 0, 0),
                p(1, 5, 5, 1, 0, 0, 5, 0, 0),
                p(1, 6, 4, 1, 0, 0, 4, 0, 0),
            ],
        ),
        // Simple Rounds: two attacks a round against one, faster or not.
        (
            System::Simple,
            vec![p(0, 5, 5, 2, 0, 0, 0, 0, 1), p(1, 7, 5, 2, 0, 0, 0, 2, 0)],
        ),
        (
            System::Simple,
            vec![
                p(0, 6, 6, 2, 0, 0, 0, 1, 2),
                p(1, 6, 5, 1, 0, 0, 0, 0, 0),
                p(1, 5, 5, 1, 0, 0, 0, 0, 1),
            ],
        ),
    ];
    for (system, fighters) in cases {
        let want = brute(
            system,
            &fighters,
            fighters.iter().map(|f| f.hp).collect(),
            &mut HashMap::new(),
            &mut HashMap::new(),
        );
        let got = exact(&tiny_scenario(system, &fighters));
        let sides = got.wins.len();
        for (s, (win, want)) in got.wins.iter().zip(&want).enumerate() {
            assert_eq!(&fraction(win), want, "side {s}, {} states", got.states);
        }
        assert_eq!(fraction(&got.draw), want[sides]);
        assert_eq!(fraction(&got.never_ends), BigRational::zero());
    }
}

// ---------------------------------------------------------------------
// Against the battle engine.
// ---------------------------------------------------------------------

/// A duel under `timing` under hit points and wound levels, and two
/// against two under each targeting policy of `policies`, each side's
/// fighters with the extra fields `a`, `b` and `c`, `d`; the two against
/// two with the fields `more_2v2` set besides; `battles` of each.
pub(super) fn agree_under(
    timing: &str,
    more_2v2: &[(&str, &str)],
    [a, b, c, d]: [&str; 4],
    battles: u64,
    policies: &[&str],
) {
    let hp = "damage = { model = \"hit_points\", max_hp = 3 }";
    let duel = fight(hp, &[&[("a", 7, 6, a)], &[("b", 6, 6, &format!("{b}\noffense = 1"))]])
        .with_field("timing", timing)
        .unwrap();
    let odds = agrees_with_battles(&duel, battles);
    assert!(odds.wins[0].value > 0.0 && odds.wins[1].value > 0.0);
    let wounds = fight(
        "damage = \"fudge_wounds\"",
        &[
            &[("a", 8, 6, &format!("{a}\noffense = 3"))],
            &[("b", 7, 7, &format!("{b}\noffense = 2\ntoughness = 1"))],
        ],
    )
    .with_field("timing", timing)
    .unwrap();
    agrees_with_battles(&wounds, battles);
    for targeting in policies {
        let s = fight(
            &format!("damage = {{ model = \"hit_points\", max_hp = 1 }}\n[battle]\ntargeting = \"{targeting}\""),
            &[
                &[("a", 7, 6, &format!("{a}\nhit_points = 2")), ("b", 6, 6, b)],
                &[("c", 6, 7, c), ("d", 7, 5, &format!("{d}\nhit_points = 2"))],
            ],
        )
        .with_field("timing", timing)
        .unwrap();
        let s = more_2v2
            .iter()
            .fold(s, |s, (field, value)| s.with_field(field, value).unwrap());
        agrees_with_battles(&s, battles);
    }
}

/// The Tick System's fight: quick and slow, a longer action, a bonus that
/// can take the initiative below 1. (Two against two on 1d8: four
/// fighters on a d20 lay out some 34,000 schedules a round, minutes in a
/// debug build.)
pub(super) fn tick_system(battles: u64, policies: &[&str]) {
    agree_under(
        "tick-system",
        &[("timing.initiative_die", "1d8")],
        [
            "initiative_bonus = 2\ninterval = 3",
            "interval = 5\naction_ticks = 3",
            "initiative_bonus = -4\ninterval = 2",
            "interval = 4",
        ],
        battles,
        policies,
    );
}

// In a debug build, `least_engaged` (the one policy that reads the order
// within a moment) under Action Blocks and Simple Rounds with several
// actions; under the Tick System (15 s more in a debug build), Graduated
// Rounds and Continuous timing at a million battles in
// `exact::many_battles_agree_with_the_exact_engine`.

#[test]
fn the_tick_system_agrees_with_the_battle_engine() {
    tick_system(BATTLES, &["random"]);
}

/// Action Blocks' fight: REF from one action a phase to three; equal REF
/// declare together.
pub(super) fn action_blocks(battles: u64, policies: &[&str]) {
    agree_under(
        "action-blocks",
        &[],
        [
            "reflexes = 9\ncombat_sense = 1",
            "reflexes = 4",
            "reflexes = 9",
            "reflexes = 6\ncombat_sense = 2",
        ],
        battles,
        policies,
    );
}

#[test]
fn action_blocks_agree_with_the_battle_engine() {
    action_blocks(BATTLES, &["random", "least_engaged"]);
}

/// Simple Rounds with several actions: a dagger's two attacks a round,
/// Bracers' extra attack, one action.
pub(super) fn simple_rounds_several(battles: u64, policies: &[&str]) {
    agree_under(
        "simple-rounds",
        &[],
        [
            "weapon = \"Dagger\"",
            "extra_attacks = 1\nspeed_bonus = 2",
            "",
            "weapon = \"Dagger\"\nspeed_bonus = 1",
        ],
        battles,
        policies,
    );
}

#[test]
fn simple_rounds_with_several_actions_agree_with_the_battle_engine() {
    simple_rounds_several(BATTLES, &["random", "least_engaged"]);
}

// ---------------------------------------------------------------------
// Refusals.
// ---------------------------------------------------------------------

#[test]
fn what_changes_a_round_as_it_is_fought_is_refused_naming_the_field() {
    let duel = |timing: &str, rules: &str, extra: &str| {
        fight(rules, &[&[("a", 6, 6, extra)], &[("b", 6, 6, "")]])
            .with_field("timing", timing)
            .unwrap()
    };
    let cases = [
        (
            duel("tick-system", "", "defend = \"free_action\""),
            "sides[0].groups[0].defend",
        ),
        (duel("tick-system", "", "prepare = true"), "sides[0].groups[0].prepare"),
        (
            duel("tick-system", "", "disruptible = true"),
            "sides[0].groups[0].disruptible",
        ),
        (
            duel("action-blocks", "", "disruptible = true"),
            "sides[0].groups[0].disruptible",
        ),
        (
            duel("tick-system", "striking = \"fudge_opposed\"", "posture = -1"),
            "sides[0].groups[0].posture",
        ),
        (
            duel("action-blocks", "striking = \"fudge_opposed\"", "skill = \"Fair+\""),
            "sides[0].groups[0].skill",
        ),
        (duel("tick-system", "distance = 30", ""), "distance"),
        // One bolt every other round: its round of use would enter the
        // state.
        (
            duel("simple-rounds", "", "weapon = \"Crossbow, Heavy\""),
            "sides[0].groups[0].weapon",
        ),
    ];
    for (s, field) in cases {
        match solve(&s, &ExactOptions::default()) {
            Err(ExactError::Unsupported { field: f, what }) => assert_eq!(f, field, "{what}"),
            other => panic!("{field}: {other:?}"),
        }
    }
}
