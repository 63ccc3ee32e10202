//! The exact engine under FUDGE opposed striking beyond a Simultaneous
//! duel (docs/rules.md §2.2.2, §2.2.6, §7): duels under every timing
//! system, and FUDGE 4.34's lone fighter. Against a brute-force
//! enumeration written here (the exchange and the lone fighter's rule in
//! closed form, every face of every die) and against the battle engine's
//! win rates.

use std::collections::HashMap;

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};
use skirmish_sim::scenario::Scenario;

use super::exact::{BATTLES, agrees_with_battles, exact, fight, four_df_by_faces, fraction};
use super::exact_rounds::{Moments, System, Tiny, rounds};

// ---------------------------------------------------------------------
// Brute force.
// ---------------------------------------------------------------------

/// The minimum result to hit an equal-sized foe: Poor.
const POOR: i32 = -2;

/// The 4dF totals with their counts of the 81.
fn four_df() -> Vec<(i32, u64)> {
    four_df_by_faces()
        .iter()
        .enumerate()
        .map(|(i, &c)| (i as i32 - 4, c))
        .collect()
}

fn ratio(n: u64, d: u64) -> BigRational {
    BigRational::new(BigInt::from(n), BigInt::from(d))
}

/// One FUDGE exchange of `x` (skill, rolled `rx`, less its per-foe
/// penalty) struck at `y`, hit points lost by the relative degree: the
/// winner by 1 or more whose result is at least Poor hurts the loser; a
/// tie hurts nobody. Returns (x's relative degree, hurt done to y, hurt
/// done to x).
fn exchange(x: i32, rx: i32, y: i32, ry: i32) -> (i32, i32, i32) {
    let (a, d) = (x + rx, y + ry);
    let degree = a - d;
    let to_y = if degree >= 1 && a >= POOR { degree } else { 0 };
    let to_x = if degree <= -1 && d >= POOR { -degree } else { 0 };
    (degree, to_y, to_x)
}

fn sides_left(fighters: &[Tiny], hp: &[i32]) -> Vec<usize> {
    let mut sides: Vec<usize> = (0..hp.len()).filter(|&f| hp[f] > 0).map(|f| fighters[f].side).collect();
    sides.sort();
    sides.dedup();
    sides
}

/// The chances of each side's win and of a draw, from an ending.
fn ended(fighters: &[Tiny], hp: &[i32], sides: usize) -> Option<Vec<BigRational>> {
    let left = sides_left(fighters, hp);
    if left.len() > 1 {
        return None;
    }
    let mut v = vec![BigRational::zero(); sides + 1];
    v[left.first().copied().unwrap_or(sides)] = BigRational::one();
    Some(v)
}

/// The chances from `hp` given one step's distribution `next` (the
/// fight's chances by the step's ends, a step that changes nothing a
/// self-loop summed).
fn solve_step(
    mut next: HashMap<Vec<i32>, BigRational>,
    hp: &[i32],
    sides: usize,
    mut sub: impl FnMut(Vec<i32>) -> Vec<BigRational>,
) -> Vec<BigRational> {
    let stay = next.remove(hp).unwrap_or_else(BigRational::zero);
    let mut v = vec![BigRational::zero(); sides + 1];
    for (after, p) in next {
        for (x, y) in v.iter_mut().zip(sub(after)) {
            *x += &p * y;
        }
    }
    let leave = BigRational::one() - stay;
    v.into_iter().map(|x| x / &leave).collect()
}

/// A FUDGE duel under a system whose round is laid out by its rolls
/// (`exact_rounds::rounds`; `sr` is the skill): every blow at a moment an
/// exchange with fresh rolls, its hurts landing at the moment's end;
/// under Simple Rounds (exchanges by round) the first to act in a round
/// begins its exchange, and the other's blows at him that round are that
/// exchange (nobody rolls), while his own further blows begin new ones.
fn brute_duel(
    system: System,
    fighters: &[Tiny],
    hp: Vec<i32>,
    memo: &mut HashMap<Vec<i32>, Vec<BigRational>>,
) -> Vec<BigRational> {
    if let Some(v) = ended(fighters, &hp, 2) {
        return v;
    }
    if let Some(v) = memo.get(&hp) {
        return v.clone();
    }
    let by_round = system == System::Simple;
    let (schedules, all): (Vec<(Moments, u64)>, u64) = rounds(system, fighters, &[0, 1]);
    let dice = four_df();
    let mut next: HashMap<Vec<i32>, BigRational> = HashMap::new();
    for (moments, count) in schedules {
        // (hit points, who began the round's exchange).
        let mut now: HashMap<(Vec<i32>, Option<usize>), BigRational> = HashMap::new();
        now.insert((hp.clone(), None), ratio(count, all));
        for m in &moments {
            let mut after: HashMap<(Vec<i32>, Option<usize>), BigRational> = HashMap::new();
            for ((h, opener), p) in now {
                if ended(fighters, &h, 2).is_some() {
                    *after.entry((h, opener)).or_insert_with(BigRational::zero) += p;
                    continue;
                }
                let mut opener = opener;
                let mut strikers = Vec::new();
                for &a in m {
                    if by_round {
                        match opener {
                            None => opener = Some(a),
                            Some(o) if o != a => continue,
                            Some(_) => {}
                        }
                    }
                    strikers.push(a);
                }
                // Every roll of every exchange; the hurts land together.
                let mut combos: HashMap<Vec<i32>, BigRational> = HashMap::new();
                combos.insert(h.clone(), BigRational::one());
                for &a in &strikers {
                    let t = 1 - a;
                    // The exchange's hurts by their count of the 81 x 81.
                    let mut hurts: HashMap<(i32, i32), u64> = HashMap::new();
                    for &(ra, ca) in &dice {
                        for &(rt, ct) in &dice {
                            let (_, to_t, to_a) = exchange(fighters[a].sr, ra, fighters[t].sr, rt);
                            *hurts.entry((to_t, to_a)).or_default() += ca * ct;
                        }
                    }
                    let mut grown: HashMap<Vec<i32>, BigRational> = HashMap::new();
                    for (hh, q) in &combos {
                        for (&(to_t, to_a), &c) in &hurts {
                            let mut hh = hh.clone();
                            hh[t] -= to_t;
                            hh[a] -= to_a;
                            *grown.entry(hh).or_insert_with(BigRational::zero) += q * ratio(c, 81 * 81);
                        }
                    }
                    combos = grown;
                }
                for (hh, q) in combos {
                    let hh: Vec<i32> = hh.iter().map(|&x| x.max(0)).collect();
                    *after.entry((hh, opener)).or_insert_with(BigRational::zero) += &p * q;
                }
            }
            now = after;
        }
        for ((h, _), p) in now {
            *next.entry(h).or_insert_with(BigRational::zero) += p;
        }
    }
    let v = solve_step(next, &hp, 2, |after| brute_duel(system, fighters, after, memo));
    memo.insert(hp, v.clone());
    v
}

/// The ladder's name of a skill.
fn level(skill: i32) -> &'static str {
    ["Terrible", "Poor", "Mediocre", "Fair", "Good", "Great", "Superb"][(skill + 3) as usize]
}

/// A FUDGE fight under `timing` and `rules`: each fighter `(side, skill,
/// hit points, extra fields)`, hit points lost by the relative degree.
fn fudge_fight(timing: &str, rules: &str, fighters: &[(usize, i32, i32, String)]) -> Scenario {
    let sides = 1 + fighters.iter().map(|f| f.0).max().unwrap();
    let groups: Vec<Vec<(String, String)>> = (0..sides)
        .map(|s| {
            fighters
                .iter()
                .enumerate()
                .filter(|(_, f)| f.0 == s)
                .map(|(i, f)| {
                    (
                        format!("f{i}"),
                        format!("skill = \"{}\"\nhit_points = {}\n{}", level(f.1), f.2, f.3),
                    )
                })
                .collect()
        })
        .collect();
    let borrowed: Vec<Vec<(&str, i32, i32, &str)>> = groups
        .iter()
        .map(|g| g.iter().map(|(n, e)| (n.as_str(), 0, 0, e.as_str())).collect())
        .collect();
    let sides: Vec<&[(&str, i32, i32, &str)]> = borrowed.iter().map(Vec::as_slice).collect();
    let rules = format!("{rules}\ndamage = {{ model = \"hit_points\", max_hp = 1 }}");
    fight(&rules, &sides).with_field("timing", timing).unwrap()
}

fn assert_equal(got: &skirmish_sim::exact::ExactOdds, want: &[BigRational], what: &str) {
    let sides = got.wins.len();
    for (s, (win, want)) in got.wins.iter().zip(want).enumerate() {
        assert_eq!(&fraction(win), want, "{what}: side {s}");
    }
    assert_eq!(fraction(&got.draw), want[sides], "{what}: draw");
    assert_eq!(fraction(&got.never_ends), BigRational::zero(), "{what}: never ends");
}

#[test]
fn tiny_fudge_duels_under_the_round_systems_agree_with_a_brute_force_exactly() {
    let p = |side, skill, hp, bonus, interval, reflexes, speed, extra| Tiny {
        side,
        sr: skill,
        dr: 0,
        hp,
        bonus,
        interval,
        reflexes,
        speed,
        extra,
    };
    let cases = [
        // Tick System: a quick Fair fighter against a slow Good one; both
        // land at one tick now and then (two exchanges at once).
        (System::Tick, vec![p(0, 0, 1, 2, 2, 0, 0, 0), p(1, 1, 1, 0, 5, 0, 0, 0)]),
        // Action Blocks: REF 9 often has two actions, REF 3 one.
        (
            System::Blocks,
            vec![p(0, 0, 2, 0, 0, 9, 0, 0), p(1, 1, 1, 0, 0, 3, 0, 0)],
        ),
        // Simple Rounds, two actions a round against one: exchanges by
        // round (the first to act begins the round's exchange).
        (
            System::Simple,
            vec![p(0, 0, 2, 0, 0, 0, 0, 1), p(1, 1, 2, 0, 0, 0, 2, 0)],
        ),
    ];
    for (system, fighters) in cases {
        let want = brute_duel(
            system,
            &fighters,
            fighters.iter().map(|f| f.hp).collect(),
            &mut HashMap::new(),
        );
        let timing = match system {
            System::Tick => "tick-system",
            System::Blocks => "action-blocks",
            System::Simple => "simple-rounds",
        };
        let s = fudge_fight(
            timing,
            "striking = \"fudge_opposed\"",
            &fighters
                .iter()
                .map(|f| {
                    let extra = format!(
                        "initiative_bonus = {}\ninterval = {}\nreflexes = {}\nspeed_bonus = {}\nextra_attacks = {}",
                        f.bonus, f.interval, f.reflexes, f.speed, f.extra
                    );
                    (f.side, f.sr, f.hp, extra)
                })
                .collect::<Vec<_>>(),
        );
        assert_equal(&exact(&s), &want, timing);
    }
}

/// A hero (fighter 0) against two foes under Simultaneous Combat, the
/// lone fighter's rule in closed form (FUDGE 4.34): each exchange the hero
/// picks a standing foe (each as likely) and both foes strike him. While
/// both stand he fights both at once: -1 for the second foe (both ways),
/// one roll of his against each foe's own; the foe he struck answers in
/// his exchange, the other strikes him in an exchange of its own; every
/// foe who beats him hurts him; he wounds only if he beat or tied both:
/// beating both, the foe his blow hurts most (the one he struck on
/// equals); tying one, only one he beat by 2 or more. With one foe left,
/// a plain duel (the hero attacks).
fn brute_lone(skills: [i32; 3], hp: Vec<i32>, memo: &mut HashMap<Vec<i32>, Vec<BigRational>>) -> Vec<BigRational> {
    let fighters: Vec<Tiny> = (0..3)
        .map(|f| Tiny {
            side: usize::from(f > 0),
            sr: skills[f],
            dr: 0,
            hp: 0,
            bonus: 0,
            interval: 0,
            reflexes: 0,
            speed: 0,
            extra: 0,
        })
        .collect();
    if let Some(v) = ended(&fighters, &hp, 2) {
        return v;
    }
    if let Some(v) = memo.get(&hp) {
        return v.clone();
    }
    let dice = four_df();
    let foes: Vec<usize> = (1..3).filter(|&f| hp[f] > 0).collect();
    let mut next: HashMap<Vec<i32>, BigRational> = HashMap::new();
    for &struck in &foes {
        let pick = ratio(1, foes.len() as u64);
        if foes.len() == 1 {
            for &(r0, c0) in &dice {
                for &(r1, c1) in &dice {
                    let (_, to_foe, to_hero) = exchange(skills[0], r0, skills[struck], r1);
                    let mut h = hp.clone();
                    h[struck] = (h[struck] - to_foe).max(0);
                    h[0] = (h[0] - to_hero).max(0);
                    *next.entry(h).or_insert_with(BigRational::zero) += &pick * ratio(c0 * c1, 81 * 81);
                }
            }
            continue;
        }
        let other = 3 - struck;
        for &(r0, c0) in &dice {
            for &(rs, cs) in &dice {
                for &(ro, co) in &dice {
                    let hero = skills[0] - 1;
                    // His exchange with the foe he struck, then the other's with him.
                    let (deg_s, blow_s, hurt_s) = exchange(hero, r0, skills[struck], rs);
                    let (deg_o_foe, blow_o, hurt_o) = exchange(skills[other], ro, hero, r0);
                    let deg_o = -deg_o_foe;
                    let mut h = hp.clone();
                    // The foes who beat him hurt him.
                    h[0] -= hurt_s + blow_o;
                    // His answers: (foe, degree, damage if his blow lands).
                    let answers = [(struck, deg_s, blow_s), (other, deg_o, hurt_o)];
                    let worst = deg_s.min(deg_o);
                    let allowed = |&(_, d, dmg): &(usize, i32, i32)| dmg > 0 && (worst > 0 || (worst == 0 && d >= 2));
                    let mut best: Option<(usize, i32)> = None;
                    for a in answers.iter().filter(|a| allowed(a)) {
                        if best.is_none_or(|(_, d)| a.2 > d) {
                            best = Some((a.0, a.2));
                        }
                    }
                    if let Some((f, d)) = best {
                        h[f] -= d;
                    }
                    let h: Vec<i32> = h.iter().map(|&x| x.max(0)).collect();
                    *next.entry(h).or_insert_with(BigRational::zero) += &pick * ratio(c0 * cs * co, 81 * 81 * 81);
                }
            }
        }
    }
    let v = solve_step(next, &hp, 2, |after| brute_lone(skills, after, memo));
    memo.insert(hp, v.clone());
    v
}

#[test]
fn a_tiny_lone_fighter_agrees_with_a_brute_force_exactly() {
    for (skills, hp) in [([1, 0, -1], vec![3, 1, 2]), ([2, 0, 0], vec![2, 2, 1])] {
        let want = brute_lone(skills, hp.clone(), &mut HashMap::new());
        let s = fudge_fight(
            "simultaneous",
            "striking = \"fudge_opposed\"",
            &(0..3)
                .map(|f| (usize::from(f > 0), skills[f], hp[f], String::new()))
                .collect::<Vec<_>>(),
        );
        assert_equal(&exact(&s), &want, &format!("{skills:?} {hp:?}"));
    }
}

// ---------------------------------------------------------------------
// Against the battle engine.
// ---------------------------------------------------------------------

/// A FUDGE duel under `timing` and `damage`: a Good fighter with a
/// dagger's speed against a Fair one who hits harder (`offense`: each
/// one's offensive damage factor).
fn duel(timing: &str, damage: &str, offense: (i32, i32)) -> Scenario {
    let a = format!(
        "skill = \"Good\"\noffense = {}\nweapon = \"Dagger\"\ninterval = 4\nreflexes = 8",
        offense.0
    );
    let b = format!(
        "skill = \"Fair\"\noffense = {}\ninitiative_bonus = 2\ninterval = 6\nreflexes = 5",
        offense.1
    );
    fight(
        &format!("striking = \"fudge_opposed\"\ndamage = {damage}"),
        &[&[("a", 0, 0, a.as_str())], &[("b", 0, 0, b.as_str())]],
    )
    .with_field("timing", timing)
    .unwrap()
}

/// One against two where the battle's order within a moment is not the
/// fighters' order (the foes, listed after the lone fighter, are quicker
/// than him and the slower one has more hit points): his equal answers go
/// to the first foe who struck (4.34's tie-best), so the exact engine
/// strikes a moment in the battle's order (`Fight::order_matters`). In
/// fighter order the exact chances move by about 0.001 under Action
/// Blocks, which 20,000 battles cannot tell apart: this checks the lone
/// fighter under a round system, not the order itself.
#[test]
fn a_lone_fighter_against_quicker_foes_agrees_with_the_battle_engine() {
    let s = fudge_fight(
        "action-blocks",
        "striking = \"fudge_opposed\"",
        &[
            (0, 1, 3, "reflexes = 5".to_owned()),
            (1, 0, 1, "reflexes = 9".to_owned()),
            (1, 0, 2, "reflexes = 7".to_owned()),
        ],
    );
    agrees_with_battles(&s, BATTLES);
}

/// FUDGE's wound levels: a hit of 3 or 4 Hurt, 5 or 6 Very Hurt, 7
/// Incapacitated (down).
const WOUNDS: &str = "\"fudge_wounds\"";
const HIT_POINTS: &str = "{ model = \"hit_points\", max_hp = 3 }";

#[test]
fn fudge_duels_agree_with_the_battle_engine_under_every_timing_system() {
    fudge_duels(BATTLES);
}

/// FUDGE duels under every timing system but Simultaneous (whose duel
/// `exact.rs` fights), both damage models, `battles` each.
pub(super) fn fudge_duels(battles: u64) {
    for (timing, damage, offense) in [
        ("simple-rounds", WOUNDS, (4, 5)),
        ("graduated-rounds", HIT_POINTS, (0, 1)),
        ("continuous", WOUNDS, (4, 5)),
        ("tick-system", HIT_POINTS, (0, 1)),
        ("action-blocks", WOUNDS, (4, 5)),
        ("simple-rounds", HIT_POINTS, (0, 1)),
        ("graduated-rounds", WOUNDS, (4, 5)),
        ("continuous", HIT_POINTS, (0, 1)),
        ("tick-system", WOUNDS, (4, 5)),
        ("action-blocks", HIT_POINTS, (0, 1)),
    ] {
        let odds = agrees_with_battles(&duel(timing, damage, offense), battles);
        assert!(odds.wins.iter().all(|w| w.value > 0.0), "{timing}");
    }
}

/// Two against two under FUDGE (`rules`: the striking table's fields and
/// the damage), lone fighters whenever two strike one who fights back.
fn two_two(timing: &str, rules: &str) -> Scenario {
    fight(
        rules,
        &[
            &[
                ("a", 0, 0, "skill = \"Good\"\ninterval = 10\nreflexes = 8"),
                ("b", 0, 0, "skill = \"Fair\"\noffense = 1\ninterval = 12\nreflexes = 6"),
            ],
            &[
                ("c", 0, 0, "skill = \"Good\"\ninterval = 9\nreflexes = 7"),
                (
                    "d",
                    0,
                    0,
                    "skill = \"Mediocre\"\noffense = 1\ninterval = 14\nreflexes = 5",
                ),
            ],
        ],
    )
    .with_field("timing", timing)
    .unwrap()
}

#[test]
fn fudge_two_against_two_agree_with_the_battle_engine() {
    fudge_two_two(BATTLES);
}

/// FUDGE two against two under Simultaneous Combat, `battles` each.
pub(super) fn fudge_two_two(battles: u64) {
    let hp = "damage = { model = \"hit_points\", max_hp = 1 }";
    // FUDGE 4.34's lone fighter as the battle plays it (the default rules).
    let lone = two_two("simultaneous", &format!("striking = \"fudge_opposed\"\n{hp}"));
    let odds = agrees_with_battles(&lone, battles);
    assert!(odds.wins.iter().all(|w| w.value > 0.0));
    // Its options: the GM's one 2dF a side, a sweeping blow, and a
    // fighter who concentrates on one foe; FUDGE wound levels, every hit
    // Very Hurt (-2) or worse.
    let options = two_two(
        "simultaneous",
        "striking = { system = \"fudge_opposed\", group_roll = true, sweeping_blow = \"minus_one_per_foe\" }\n\
         damage = \"fudge_wounds\"",
    )
    .with_field("sides.side0.groups.0.concentrate", "true")
    .unwrap()
    .with_field("sides.side0.groups.0.offense", "5")
    .unwrap()
    .with_field("sides.side0.groups.1.offense", "5")
    .unwrap()
    .with_field("sides.side1.groups.0.offense", "5")
    .unwrap()
    .with_field("sides.side1.groups.1.offense", "5")
    .unwrap();
    agrees_with_battles(&options, battles);
}

/// Two against two under Simple Rounds and Action Blocks, `battles` each
/// (in the validation grid, `exact::many_battles_agree_with_the_exact_engine`):
/// a round of four FUDGE fighters, lone fighters enumerated roll by roll,
/// takes 26 s (Simple Rounds) and 90 s (Action Blocks) in a debug build.
/// The same fight under Continuous timing passes the default budget of
/// states (its timing times the engagements), and under the Tick System
/// and Graduated Rounds takes minutes more: docs/rules.md §7.
pub(super) fn fudge_two_two_rounds(battles: u64) {
    let hp = "damage = { model = \"hit_points\", max_hp = 1 }";
    for timing in ["simple-rounds", "action-blocks"] {
        let s = two_two(timing, &format!("striking = \"fudge_opposed\"\n{hp}"));
        agrees_with_battles(&s, battles);
    }
}

#[test]
fn fudge_graduated_rounds_of_one_action_a_round_are_simple_rounds() {
    // Exchanges by round under both: the first to act in a round begins
    // its exchange, whichever tick it lands on.
    for (damage, offense) in [(WOUNDS, (4, 5)), (HIT_POINTS, (0, 1))] {
        let simple = exact(&duel("simple-rounds", damage, offense));
        let graduated = exact(&duel("graduated-rounds", damage, offense));
        assert_eq!(simple.wins, graduated.wins, "{damage}");
        assert_eq!(simple.draw, graduated.draw, "{damage}");
    }
}

/// A FUDGE crowd is refused as too big, its work bounded by the outcome
/// budget: the goblin ambush's eight fighters would pick some 30,000 ways
/// a moment, each with up to half a million joint rolls of its lone
/// fighters (under the default budget, refused in about 90 s of a debug
/// build; here a budget of 2^10 outcomes).
#[test]
fn a_fudge_crowd_is_refused_before_it_is_enumerated() {
    let crowd = Scenario::builtin("goblin-ambush")
        .unwrap()
        .with_field("timing", "simultaneous")
        .unwrap()
        .with_field("striking", "fudge_opposed")
        .unwrap();
    let started = std::time::Instant::now();
    let options = skirmish_sim::exact::ExactOptions {
        max_outcomes: 1 << 10,
        ..Default::default()
    };
    let refused = skirmish_sim::exact::solve(&crowd, &options);
    assert!(
        matches!(refused, Err(skirmish_sim::exact::ExactError::TooManyOutcomes { .. })),
        "{refused:?}"
    );
    assert!(started.elapsed().as_secs() < 600, "bounded, if slowly in a debug build");
}
