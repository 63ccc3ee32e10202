//! The exact engine under Graduated Rounds and Continuous timing: against
//! a brute-force enumeration written here for tiny fights, against the
//! battle engine's win rates, and its refusals of what it does not model
//! under them.

use std::collections::HashMap;

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};
use skirmish_sim::exact::{ExactError, ExactOptions, solve};
use skirmish_sim::scenario::Scenario;

use super::exact::{BATTLES, agrees_with_battles, exact, fight, four_df_by_faces, fraction};

/// The 9 outcomes of 2dF face by face, tallied by total (-2..=2).
fn two_df_by_faces() -> [u64; 5] {
    let mut counts = [0u64; 5];
    for a in -1..=1i32 {
        for b in -1..=1 {
            counts[(a + b + 2) as usize] += 1;
        }
    }
    counts
}

fn ratio(n: u64, d: u64) -> BigRational {
    BigRational::new(BigInt::from(n), BigInt::from(d))
}

/// A fighter of the brute force: Full Contact, no options, hit points
/// lost by a hit's margin; Time Taken minus speed bonus `offset`,
/// `actions` a round.
#[derive(Clone, Copy)]
struct Quick {
    side: usize,
    sr: i32,
    dr: i32,
    hp: i32,
    offset: i32,
    actions: usize,
}

type Dist = HashMap<Vec<i32>, BigRational>;

/// One moment: every fighter of `acting` standing at its start picks each
/// standing foe (equally likely) and rolls each 4dF total; the hits land
/// together at its end.
fn strike(fighters: &[Quick], from: Dist, acting: &[usize], seen: &mut Struck) -> Dist {
    let mut out = Dist::new();
    for (hp, p) in from {
        let one = seen
            .entry((hp.clone(), acting.to_vec()))
            .or_insert_with(|| strike_one(fighters, hp, acting));
        for (after, q) in one.iter() {
            *out.entry(after.clone()).or_insert_with(BigRational::zero) += &p * q;
        }
    }
    out
}

/// Each moment from each damage once: the brute force meets the same ones
/// in thousands of roll sequences.
type Struck = HashMap<(Vec<i32>, Vec<usize>), Dist>;

/// [`strike`] from one damage `hp` for certain.
fn strike_one(fighters: &[Quick], hp: Vec<i32>, acting: &[usize]) -> Dist {
    let counts = four_df_by_faces();
    let standing = |f: usize| hp[f] > 0;
    let mut combos: Vec<(Vec<i32>, BigRational)> = vec![(hp.clone(), BigRational::one())];
    for &a in acting.iter().filter(|&&a| standing(a)) {
        let foes: Vec<usize> = (0..fighters.len())
            .filter(|&c| standing(c) && fighters[c].side != fighters[a].side)
            .collect();
        if foes.is_empty() {
            continue;
        }
        let mut grown = Vec::new();
        for (after, q) in &combos {
            for &t in &foes {
                for (i, &c) in counts.iter().enumerate() {
                    let margin = fighters[a].sr + i as i32 - 4 - fighters[t].dr;
                    let mut after = after.clone();
                    if margin > 0 {
                        after[t] -= margin;
                    }
                    grown.push((after, q * ratio(c, 81 * foes.len() as u64)));
                }
            }
        }
        combos = grown;
    }
    let mut out = Dist::new();
    for (after, q) in combos {
        let after: Vec<i32> = after.iter().map(|&h| h.max(0)).collect();
        *out.entry(after).or_insert_with(BigRational::zero) += q;
    }
    out
}

/// Each side's chance, then a draw's, from `hp`: a round of Graduated
/// Rounds at a time, every face of every initiative and Ready Time die
/// written out; under `lose`, actions past tick `lose` are lost.
fn brute_graduated(
    fighters: &[Quick],
    hp: Vec<i32>,
    sides: usize,
    lose: Option<u32>,
    memo: &mut HashMap<Vec<i32>, Vec<BigRational>>,
    seen: &mut Struck,
) -> Vec<BigRational> {
    let standing: Vec<usize> = (0..fighters.len()).filter(|&f| hp[f] > 0).collect();
    let mut alive = vec![false; sides];
    for &f in &standing {
        alive[fighters[f].side] = true;
    }
    let left: Vec<usize> = (0..sides).filter(|&s| alive[s]).collect();
    if left.len() <= 1 {
        let mut v = vec![BigRational::zero(); sides + 1];
        v[left.first().copied().unwrap_or(sides)] = BigRational::one();
        return v;
    }
    if let Some(v) = memo.get(&hp) {
        return v.clone();
    }
    // Each fighter's ticks, face by face (merged by the ticks).
    let (four, two) = (four_df_by_faces(), two_df_by_faces());
    let mut each: Vec<Vec<(Vec<u32>, BigRational)>> = Vec::new();
    for &f in &standing {
        let q = fighters[f];
        let mut seqs: Vec<(Vec<u32>, BigRational)> = (0..9)
            .map(|i| {
                let init = (i as i32 - 4 + 5 + q.offset).max(1) as u32;
                (vec![init], ratio(four[i], 81))
            })
            .collect();
        for _ in 1..q.actions {
            let mut grown = Vec::new();
            for (s, p) in &seqs {
                for (i, &c) in two.iter().enumerate() {
                    let rt = (i as i32 - 2 + q.offset).max(1) as u32;
                    let mut s = s.clone();
                    s.push(s.last().unwrap() + rt);
                    grown.push((s, p * ratio(c, 9)));
                }
            }
            seqs = grown;
        }
        if let Some(end) = lose {
            for (s, _) in &mut seqs {
                if let Some(k) = s.iter().position(|&t| t > end) {
                    s.truncate(k);
                }
            }
        }
        each.push(seqs);
    }
    // Every combination: its moments (fighters by tick), struck in turn.
    let mut after = Dist::new();
    let mut pick = vec![0usize; standing.len()];
    'combos: loop {
        let mut p = BigRational::one();
        let mut events: Vec<(u32, usize)> = Vec::new();
        for (k, &f) in standing.iter().enumerate() {
            let (s, q) = &each[k][pick[k]];
            p *= q;
            events.extend(s.iter().map(|&t| (t, f)));
        }
        events.sort();
        let mut dist = Dist::from([(hp.clone(), p)]);
        let mut i = 0;
        while i < events.len() {
            let t = events[i].0;
            let acting: Vec<usize> = events[i..].iter().take_while(|e| e.0 == t).map(|e| e.1).collect();
            i += acting.len();
            dist = strike(fighters, dist, &acting, seen);
        }
        for (h, q) in dist {
            *after.entry(h).or_insert_with(BigRational::zero) += q;
        }
        for k in 0..pick.len() {
            pick[k] += 1;
            if pick[k] < each[k].len() {
                continue 'combos;
            }
            pick[k] = 0;
        }
        break;
    }
    let stay = after.remove(&hp).unwrap_or_else(BigRational::zero);
    let mut v = vec![BigRational::zero(); sides + 1];
    for (h, p) in after {
        let sub = brute_graduated(fighters, h, sides, lose, memo, seen);
        for (x, y) in v.iter_mut().zip(sub) {
            *x += &p * y;
        }
    }
    let leave = BigRational::one() - stay;
    let v: Vec<BigRational> = v.into_iter().map(|x| x / &leave).collect();
    memo.insert(hp, v.clone());
    v
}

/// The brute force's fighters as a scenario under `timing`.
fn quick_scenario(fighters: &[Quick], sides: usize, timing: &str, past_end: Option<&str>) -> Scenario {
    let groups: Vec<Vec<(String, i32, i32, String)>> = (0..sides)
        .map(|s| {
            fighters
                .iter()
                .enumerate()
                .filter(|(_, f)| f.side == s)
                .map(|(i, f)| {
                    (
                        format!("f{i}"),
                        f.sr,
                        f.dr,
                        format!(
                            "hit_points = {}\nweapon = {{ name = \"w\", time_taken = {}, rate_of_fire = \"{}/1\" }}",
                            f.hp,
                            f.offset.max(0),
                            f.actions
                        ) + &if f.offset < 0 {
                            format!("\nspeed_bonus = {}", -f.offset)
                        } else {
                            String::new()
                        },
                    )
                })
                .collect()
        })
        .collect();
    let borrowed: Vec<Vec<(&str, i32, i32, &str)>> = groups
        .iter()
        .map(|g| {
            g.iter()
                .map(|(n, sr, dr, e)| (n.as_str(), *sr, *dr, e.as_str()))
                .collect()
        })
        .collect();
    let sides: Vec<&[(&str, i32, i32, &str)]> = borrowed.iter().map(Vec::as_slice).collect();
    let mut s = fight("damage = { model = \"hit_points\", max_hp = 1 }", &sides)
        .with_field("timing", timing)
        .unwrap();
    if let Some(p) = past_end {
        s = s.with_field("timing.past_end", p).unwrap();
    }
    s
}

fn assert_agrees(got: &skirmish_sim::exact::ExactOdds, want: &[BigRational]) {
    let sides = got.wins.len();
    for (s, (win, want)) in got.wins.iter().zip(want).enumerate() {
        assert_eq!(&fraction(win), want, "side {s} of {} states", got.states);
    }
    assert_eq!(fraction(&got.draw), want[sides]);
    assert_eq!(fraction(&got.never_ends), BigRational::zero());
}

#[test]
fn tiny_graduated_fights_agree_with_a_brute_force_enumeration_exactly() {
    let q = |side, sr, dr, hp, offset, actions| Quick {
        side,
        sr,
        dr,
        hp,
        offset,
        actions,
    };
    let cases: Vec<(Vec<Quick>, usize, Option<u32>)> = vec![
        // One action a round each: the initiative order.
        (vec![q(0, 6, 5, 2, 0, 1), q(1, 6, 5, 1, 3, 1)], 2, None),
        // Two and three actions a round, Ready Times of 1 to 5.
        (vec![q(0, 6, 6, 2, 3, 2), q(1, 7, 6, 2, 1, 1)], 2, None),
        (vec![q(0, 5, 5, 1, -1, 3), q(1, 7, 6, 1, 2, 2)], 2, None),
        // Lose: a round of 10 ticks, the slow fighter's second action
        // often past it.
        (vec![q(0, 6, 6, 2, 3, 2), q(1, 7, 6, 1, 1, 2)], 2, Some(10)),
        // One against two.
        (
            vec![q(0, 7, 5, 1, 1, 2), q(1, 6, 5, 1, 0, 1), q(1, 5, 6, 1, 2, 1)],
            2,
            None,
        ),
    ];
    for (fighters, sides, lose) in cases {
        let want = brute_graduated(
            &fighters,
            fighters.iter().map(|f| f.hp).collect(),
            sides,
            lose,
            &mut HashMap::new(),
            &mut HashMap::new(),
        );
        let mut s = quick_scenario(&fighters, sides, "graduated-rounds", lose.map(|_| "lose"));
        if let Some(end) = lose {
            s = s.with_field("timing.ticks_per_round", &end.to_string()).unwrap();
        }
        assert_agrees(&exact(&s), &want);
    }
}

/// A Continuous duel of one hit point each whose Ready Times are always 1
/// (Time Taken 0 against a speed bonus of 2 or more): the first to act
/// strikes alone until the other's first action, then both strike every
/// tick. Its chances in closed form, against the exact engine's.
#[test]
fn a_continuous_duel_of_quick_fighters_agrees_with_its_closed_form() {
    let (a, b) = ((7, 6, 2), (6, 6, 3)); // (SR, DR, speed bonus)
    let counts = four_df_by_faces();
    let hits = |sr: i32, dr: i32| -> BigRational {
        let n: u64 = (0..9).filter(|&i| sr + i as i32 - 4 > dr).map(|i| counts[i]).sum();
        ratio(n, 81)
    };
    let (pa, pb) = (hits(a.0, b.1), hits(b.0, a.1));
    let one = BigRational::one();
    // Both every tick: the first tick where anyone hits decides.
    let either = &one - (&one - &pa) * (&one - &pb);
    let together = [
        &pa * (&one - &pb) / &either,
        &pb * (&one - &pa) / &either,
        &pa * &pb / &either,
    ];
    let mut want = vec![BigRational::zero(); 3];
    for i in 0..9 {
        for j in 0..9 {
            let p = ratio(counts[i] * counts[j], 81 * 81);
            let ia = (i as i32 - 4 + 5 - a.2).max(1);
            let ib = (j as i32 - 4 + 5 - b.2).max(1);
            // The first strikes alone `lead` times.
            let (first, lead, hit) = if ia <= ib { (0, ib - ia, &pa) } else { (1, ia - ib, &pb) };
            let missed = num_traits::pow(&one - hit, lead as usize);
            want[first] += &p * (&one - &missed);
            for k in 0..3 {
                want[k] += &p * &missed * &together[k];
            }
        }
    }
    let s = fight(
        "damage = { model = \"hit_points\", max_hp = 1 }",
        &[
            &[(
                "a",
                a.0,
                a.1,
                "weapon = { name = \"w\", time_taken = 0 }\nspeed_bonus = 2",
            )],
            &[(
                "b",
                b.0,
                b.1,
                "weapon = { name = \"w\", time_taken = 0 }\nspeed_bonus = 3",
            )],
        ],
    )
    .with_field("timing", "continuous")
    .unwrap();
    assert_agrees(&exact(&s), &want);
}

#[test]
fn graduated_rounds_with_one_action_a_round_are_simple_rounds() {
    let s = fight(
        "damage = { model = \"hit_points\", max_hp = 1 }\n[battle]\ntargeting = \"least_engaged\"",
        &[
            &[("a", 7, 6, "speed_bonus = 2"), ("b", 6, 6, "")],
            &[("c", 7, 7, "hit_points = 2")],
        ],
    );
    let simple = exact(&s.with_field("timing", "simple-rounds").unwrap());
    let graduated = exact(&s.with_field("timing", "graduated-rounds").unwrap());
    assert_eq!(simple.wins, graduated.wins);
    assert_eq!(simple.draw, graduated.draw);
}

// ---------------------------------------------------------------------
// Against the battle engine.
// ---------------------------------------------------------------------

/// A duel and a two-against-two with a fighter of two actions a round
/// (a dagger: TT 3, 2/1) and one of a slow weapon.
fn duel(damage: &str) -> Scenario {
    fight(
        damage,
        &[
            &[("a", 7, 6, "weapon = \"Dagger\"\noffense = 1")],
            &[(
                "b",
                7,
                6,
                "weapon = { name = \"axe\", time_taken = 5 }\noffense = 2\nspeed_bonus = 1",
            )],
        ],
    )
}

fn two_two(rules: &str) -> Scenario {
    fight(
        rules,
        &[
            &[
                ("a", 7, 6, "weapon = \"Dagger\""),
                ("b", 6, 6, "speed_bonus = 1\nhit_points = 2"),
            ],
            &[
                ("c", 6, 7, "weapon = { name = \"w\", time_taken = 1 }"),
                ("d", 7, 5, "weapon = { name = \"w\", time_taken = 0 }\nspeed_bonus = 1"),
            ],
        ],
    )
}

const HIT_POINTS: &str = "damage = { model = \"hit_points\", max_hp = 3 }";
const WOUNDS: &str = "damage = \"fudge_wounds\"";

/// Graduated Rounds' fights, `battles` each, two against two under each
/// targeting policy of `policies`.
pub(super) fn graduated(battles: u64, policies: &[&str]) {
    for damage in [HIT_POINTS, WOUNDS] {
        let s = duel(damage).with_field("timing", "graduated-rounds").unwrap();
        agrees_with_battles(&s, battles);
    }
    // Lose, in rounds of 12 ticks: the axe's second... the dagger's
    // second action is often past the end.
    let lose = duel(HIT_POINTS)
        .with_field("timing", "graduated-rounds")
        .unwrap()
        .with_field("timing.past_end", "lose")
        .unwrap()
        .with_field("timing.ticks_per_round", "12")
        .unwrap();
    agrees_with_battles(&lose, battles);
    for targeting in policies {
        let s = two_two(&format!(
            "damage = {{ model = \"hit_points\", max_hp = 1 }}\n[battle]\ntargeting = \"{targeting}\""
        ))
        .with_field("timing", "graduated-rounds")
        .unwrap();
        agrees_with_battles(&s, battles);
    }
}

/// Continuous timing's fights, as [`graduated`].
pub(super) fn continuous(battles: u64, policies: &[&str]) {
    for damage in [HIT_POINTS, WOUNDS] {
        let s = duel(damage).with_field("timing", "continuous").unwrap();
        agrees_with_battles(&s, battles);
    }
    // Quick fighters (Ready Times of 1 or 2 ticks): few timing states (a
    // component of timing states is solved as a linear system in
    // fractions, slow past some dozens).
    for targeting in policies {
        let s = fight(
            &format!("damage = {{ model = \"hit_points\", max_hp = 1 }}\n[battle]\ntargeting = \"{targeting}\""),
            &[
                &[
                    ("a", 7, 6, "weapon = { name = \"w\", time_taken = 1 }\nspeed_bonus = 1"),
                    ("b", 6, 6, "weapon = { name = \"w\", time_taken = 0 }"),
                ],
                &[
                    ("c", 6, 7, "weapon = { name = \"w\", time_taken = 0 }\nspeed_bonus = 1"),
                    ("d", 7, 5, "weapon = { name = \"w\", time_taken = 0 }\nspeed_bonus = 2"),
                ],
            ],
        )
        .with_field("timing", "continuous")
        .unwrap();
        agrees_with_battles(&s, battles);
    }
}

// In a debug build, random targeting only: `least_engaged` (the one
// policy that reads the order within a moment) at a million battles in
// `exact::many_battles_agree_with_the_exact_engine`.

#[test]
fn graduated_rounds_agree_with_the_battle_engine() {
    graduated(BATTLES, &["random"]);
}

#[test]
fn continuous_timing_agrees_with_the_battle_engine() {
    continuous(BATTLES, &["random"]);
}

// ---------------------------------------------------------------------
// Refusals.
// ---------------------------------------------------------------------

#[test]
fn what_graduated_rounds_and_continuous_do_not_model_is_refused_naming_the_field() {
    let one = |extra: &str, timing: &str| {
        fight("", &[&[("a", 6, 6, extra)], &[("b", 6, 6, "")]])
            .with_field("timing", timing)
            .unwrap()
    };
    let cases = [
        // A spilled action would land in the next round.
        (
            one("weapon = \"Dagger\"", "graduated-rounds")
                .with_field("timing.past_end", "spill")
                .unwrap()
                .with_field("timing.ticks_per_round", "8")
                .unwrap(),
            "timing.past_end",
        ),
        (
            one("weapon = \"Dagger\"", "graduated-rounds")
                .with_field("timing.past_end", "end_of_round")
                .unwrap()
                .with_field("timing.ticks_per_round", "8")
                .unwrap(),
            "timing.past_end",
        ),
        (
            one(
                "weapon = { name = \"bow\", time_taken = 2, rate_of_fire = \"1/2\" }",
                "graduated-rounds",
            ),
            "sides[0].groups[0].weapon",
        ),
        (
            one("extra_attacks = 9", "graduated-rounds"),
            "sides[0].groups[0].extra_attacks",
        ),
        (
            one("disruptible = true", "graduated-rounds"),
            "sides[0].groups[0].disruptible",
        ),
        (
            one("disruptible = true", "continuous"),
            "sides[0].groups[0].disruptible",
        ),
        (
            one("skill = \"Good+\"", "continuous")
                .with_field("striking", "fudge_opposed")
                .unwrap(),
            "sides[0].groups[0].skill",
        ),
        (
            one("skill = \"Good+\"", "graduated-rounds")
                .with_field("striking", "fudge_opposed")
                .unwrap(),
            "sides[0].groups[0].skill",
        ),
    ];
    for (s, field) in cases {
        match solve(&s, &ExactOptions::default()) {
            Err(ExactError::Unsupported { field: f, what }) => assert_eq!(f, field, "{what}"),
            other => panic!("{field}: {other:?}"),
        }
    }
    // Spill and end of round where nothing can land past the end (20
    // ticks, one action of at most tick 9): the same fight as extend.
    let extend = exact(&one("", "graduated-rounds"));
    for policy in ["spill", "end_of_round"] {
        let s = one("", "graduated-rounds")
            .with_field("timing.past_end", policy)
            .unwrap();
        assert_eq!(exact(&s).wins, extend.wins, "{policy}");
    }
}
