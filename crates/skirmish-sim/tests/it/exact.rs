//! The exact engine (`skirmish_sim::exact`): its answers against a
//! brute-force enumeration written here for tiny fights, against the
//! battle engine's win rates over many battles for every configuration it
//! models, and its refusals of what it does not model.

use std::collections::HashMap;

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};
use skirmish_sim::battle::{Battle, Workspace};
use skirmish_sim::exact::{Arithmetic, ExactError, ExactOdds, ExactOptions, solve};
use skirmish_sim::report::Outcome;
use skirmish_sim::scenario::Scenario;

fn scenario(text: &str) -> Scenario {
    Scenario::from_toml_str(text, "exact.toml").unwrap()
}

/// A Simultaneous fight under `rules` (TOML lines before the sides) of
/// these sides, each a list of `(name, strike_rating, defense_rating,
/// extra fields)` groups.
pub(super) fn fight(rules: &str, sides: &[&[(&str, i32, i32, &str)]]) -> Scenario {
    let mut text = format!("name = \"exact\"\ntiming = \"simultaneous\"\n{rules}\n");
    for (s, groups) in sides.iter().enumerate() {
        text.push_str(&format!("[[sides]]\nname = \"side{s}\"\n"));
        for (name, sr, dr, extra) in groups.iter() {
            text.push_str(&format!(
                "[[sides.groups]]\nname = \"{name}\"\nstrike_rating = {sr}\ndefense_rating = {dr}\n{extra}\n"
            ));
        }
    }
    scenario(&text)
}

pub(super) fn exact(s: &Scenario) -> ExactOdds {
    solve(s, &ExactOptions::default()).unwrap()
}

pub(super) fn fraction(odds: &skirmish_sim::exact::ExactChance) -> BigRational {
    let text = odds.fraction.as_deref().unwrap();
    match text.split_once('/') {
        Some((n, d)) => BigRational::new(n.parse().unwrap(), d.parse().unwrap()),
        None => BigRational::from_integer(text.parse().unwrap()),
    }
}

// ---------------------------------------------------------------------
// Brute force: every face of every die, every pick, written out here.
// ---------------------------------------------------------------------

/// The 81 outcomes of 4dF face by face, tallied by total (-4..=4).
pub(super) fn four_df_by_faces() -> [u64; 9] {
    let mut counts = [0u64; 9];
    for a in -1..=1i32 {
        for b in -1..=1 {
            for c in -1..=1 {
                for d in -1..=1 {
                    counts[(a + b + c + d + 4) as usize] += 1;
                }
            }
        }
    }
    counts
}

/// A plain fighter of the brute force: Full Contact, no options, hit
/// points that a hit loses by its margin (SR + roll - DR).
#[derive(Clone, Copy)]
struct Plain {
    side: usize,
    sr: i32,
    dr: i32,
    hp: i32,
}

/// Each side's chance to win, then a draw's, from hit points `hp`, every
/// exchange enumerated: each standing fighter picks each standing foe
/// (equally likely) and rolls each 4dF total (by its count of faces); a
/// hit takes its margin off the target's hit points; all together. An
/// exchange that changes nothing is a self-loop: the rest over its
/// complement.
fn brute(
    fighters: &[Plain],
    hp: Vec<i32>,
    sides: usize,
    memo: &mut HashMap<Vec<i32>, Vec<BigRational>>,
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
    let counts = four_df_by_faces();
    // Every joint choice: for each actor, (target, roll total).
    let mut next: HashMap<Vec<i32>, BigRational> = HashMap::new();
    let mut combos: Vec<(Vec<i32>, BigRational)> = vec![(hp.clone(), BigRational::one())];
    for &a in &standing {
        let foes: Vec<usize> = standing
            .iter()
            .copied()
            .filter(|&c| fighters[c].side != fighters[a].side)
            .collect();
        let mut grown = Vec::new();
        for (after, p) in &combos {
            for &t in &foes {
                for (i, &count) in counts.iter().enumerate() {
                    let roll = i as i32 - 4;
                    let margin = fighters[a].sr + roll - fighters[t].dr;
                    let mut after = after.clone();
                    if margin > 0 {
                        after[t] -= margin;
                    }
                    let share = BigRational::new(BigInt::from(count), BigInt::from(81 * foes.len()));
                    grown.push((after, p * share));
                }
            }
        }
        combos = grown;
    }
    for (after, p) in combos {
        let after: Vec<i32> = after.iter().map(|&h| h.max(0)).collect();
        *next.entry(after).or_insert_with(BigRational::zero) += p;
    }
    let stay = next.remove(&hp).unwrap_or_else(BigRational::zero);
    let mut v = vec![BigRational::zero(); sides + 1];
    for (after, p) in next {
        let sub = brute(fighters, after, sides, memo);
        for (x, y) in v.iter_mut().zip(sub) {
            *x += &p * y;
        }
    }
    let leave = BigRational::one() - stay;
    let v: Vec<BigRational> = v.into_iter().map(|x| x / &leave).collect();
    memo.insert(hp, v.clone());
    v
}

fn brute_force(fighters: &[Plain], sides: usize) -> Vec<BigRational> {
    brute(
        fighters,
        fighters.iter().map(|f| f.hp).collect(),
        sides,
        &mut HashMap::new(),
    )
}

/// The same fight as a scenario: hit points lost by the margin.
fn plain_scenario(fighters: &[Plain], sides: usize) -> Scenario {
    let groups: Vec<Vec<(String, i32, i32, String)>> = (0..sides)
        .map(|s| {
            fighters
                .iter()
                .enumerate()
                .filter(|(_, f)| f.side == s)
                .map(|(i, f)| (format!("f{i}"), f.sr, f.dr, format!("hit_points = {}", f.hp)))
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
    fight("damage = { model = \"hit_points\", max_hp = 1 }", &sides)
}

#[test]
fn tiny_fights_agree_with_a_brute_force_enumeration_exactly() {
    let p = |side, sr, dr, hp| Plain { side, sr, dr, hp };
    let cases: Vec<(Vec<Plain>, usize)> = vec![
        // Duels of one and two hit points, even and uneven.
        (vec![p(0, 5, 5, 1), p(1, 5, 5, 1)], 2),
        (vec![p(0, 6, 5, 2), p(1, 5, 4, 1)], 2),
        (vec![p(0, 7, 6, 2), p(1, 5, 5, 2)], 2),
        // One against two (random picks), and three sides.
        (vec![p(0, 7, 6, 2), p(1, 5, 5, 1), p(1, 4, 4, 1)], 2),
        (vec![p(0, 6, 5, 1), p(1, 5, 5, 2), p(2, 5, 4, 1)], 3),
        // Two against two, one hit point each.
        (vec![p(0, 6, 5, 1), p(0, 5, 5, 1), p(1, 5, 6, 1), p(1, 6, 4, 1)], 2),
    ];
    for (fighters, sides) in cases {
        let want = brute_force(&fighters, sides);
        let got = exact(&plain_scenario(&fighters, sides));
        for (s, (win, want)) in got.wins.iter().zip(&want).enumerate() {
            assert_eq!(&fraction(win), want, "side {s} of {}", got.states);
        }
        assert_eq!(fraction(&got.draw), want[sides]);
        assert_eq!(fraction(&got.never_ends), BigRational::zero());
        // The chances add up to 1 exactly.
        let sum: BigRational = got.wins.iter().map(fraction).sum::<BigRational>() + fraction(&got.draw);
        assert_eq!(sum, BigRational::one());
    }
}

// ---------------------------------------------------------------------
// Against the battle engine: its win rates over many battles.
// ---------------------------------------------------------------------

/// Fights `n` battles of `s` and checks every outcome's count against the
/// exact chance: within its 99.9% interval (normal, z = 3.29), and never
/// an outcome whose exact chance is 0.
pub(super) fn agrees_with_battles(s: &Scenario, n: u64) -> ExactOdds {
    // In floats: exact fractions add nothing at this resolution, and take
    // seconds in a debug build past some hundreds of states.
    let floats = ExactOptions {
        arithmetic: Arithmetic::Float,
        ..ExactOptions::default()
    };
    let odds = solve(s, &floats).unwrap();
    let battle = Battle::new(s).unwrap();
    let mut ws = Workspace::default();
    let sides = odds.wins.len();
    let mut counts = vec![0u64; sides + 2];
    for i in 0..n {
        let at = match battle.run_summary(&mut ws, 2026, i).unwrap().outcome {
            Outcome::Win { side } => side,
            Outcome::Draw => sides,
            Outcome::Timeout => sides + 1,
        };
        counts[at] += 1;
    }
    let chances: Vec<f64> = odds
        .wins
        .iter()
        .chain([&odds.draw, &odds.never_ends])
        .map(|c| c.value)
        .collect();
    for (k, (&count, &p)) in counts.iter().zip(&chances).enumerate() {
        let rate = count as f64 / n as f64;
        let half = 3.29 * (p * (1.0 - p) / n as f64).sqrt() + 0.5 / n as f64;
        assert!(
            (rate - p).abs() <= half,
            "{}: outcome {k}: {count} of {n} battles ({rate:.5}) against the exact {p:.5} (+-{half:.5}); counts {counts:?}",
            s.name
        );
        if p == 0.0 {
            assert_eq!(count, 0, "outcome {k} cannot happen");
        }
    }
    odds
}

pub(super) const BATTLES: u64 = 20_000;

#[test]
fn duels_agree_with_the_battle_engine_under_both_damage_models() {
    let hp = fight(
        "damage = { model = \"hit_points\", max_hp = 4 }",
        &[&[("a", 7, 6, "offense = 1")], &[("b", 6, 7, "")]],
    );
    let odds = agrees_with_battles(&hp, BATTLES);
    assert!(odds.states > 4);
    let parity = fight(
        "damage = { model = \"hit_points\", max_hp = 3, damage = { table = [{ min_margin = 1, damage = 1 }, { min_margin = 3, damage = 2 }] }, penalties = [{ hp_at_most = 1, penalty = -1 }] }",
        &[&[("a", 6, 6, "")], &[("b", 6, 5, "")]],
    );
    agrees_with_battles(&parity, BATTLES);
    let wounds = fight(
        "damage = \"fudge_wounds\"",
        &[
            &[("a", 8, 6, "offense = 3")],
            &[("b", 7, 7, "offense = 2\ntoughness = 1")],
        ],
    );
    agrees_with_battles(&wounds, BATTLES);
}

#[test]
fn two_against_two_agree_with_the_battle_engine_under_every_targeting_policy() {
    for targeting in ["random", "most_wounded", "least_engaged"] {
        let s = fight(
            &format!("damage = {{ model = \"hit_points\", max_hp = 2 }}\n[battle]\ntargeting = \"{targeting}\""),
            &[
                &[("a", 7, 6, "hit_points = 3"), ("b", 6, 6, "")],
                &[("c", 6, 7, ""), ("d", 7, 5, "hit_points = 3")],
            ],
        );
        agrees_with_battles(&s, BATTLES);
    }
    let wounds = fight(
        "damage = \"fudge_wounds\"\n[battle]\ntargeting = \"most_wounded\"",
        &[
            &[("a", 8, 6, "offense = 4"), ("b", 7, 6, "offense = 4")],
            &[("c", 7, 7, "offense = 4"), ("d", 8, 5, "offense = 5")],
        ],
    );
    agrees_with_battles(&wounds, BATTLES);
}

#[test]
fn three_sides_and_the_optional_strike_rules_agree_with_the_battle_engine() {
    let three = fight(
        "damage = { model = \"hit_points\", max_hp = 2 }",
        &[&[("a", 7, 6, "")], &[("b", 6, 6, "")], &[("c", 6, 5, "hit_points = 3")]],
    );
    agrees_with_battles(&three, BATTLES);
    // Guaranteed success and fumble; amazing strikes for 2 more damage.
    let options = fight(
        "striking = { system = \"full_contact\", guaranteed = true, amazing = true, amazing_strike_damage = 2 }\ndamage = { model = \"hit_points\", max_hp = 4 }",
        &[&[("a", 4, 8, "")], &[("b", 9, 5, "hit_points = 8")]],
    );
    let odds = agrees_with_battles(&options, BATTLES);
    // Without the guaranteed +4, SR 4 never beats DR 8 nor... it does now.
    assert!(odds.wins[0].value > 0.0);
}

#[test]
fn a_fight_nobody_can_win_never_ends_and_the_battle_engine_times_out() {
    // SR 3 + 4 never beats DR 7: no blow ever lands.
    let s = fight(
        "damage = { model = \"hit_points\", max_hp = 2 }\n[battle]\nmax_rounds = 100000",
        &[&[("a", 3, 7, "")], &[("b", 3, 7, "")]],
    );
    let odds = exact(&s);
    assert_eq!(odds.never_ends.fraction.as_deref(), Some("1"));
    assert_eq!(odds.wins[0].fraction.as_deref(), Some("0"));
    assert_eq!(odds.states, 1);
    let report = Battle::new(&s)
        .unwrap()
        .run_summary(&mut Workspace::default(), 1, 0)
        .unwrap();
    assert_eq!(report.outcome, Outcome::Timeout);
    // One who can hit, one who cannot: the first always wins.
    let s = fight(
        "damage = { model = \"hit_points\", max_hp = 2 }",
        &[&[("a", 6, 7, "")], &[("b", 3, 7, "")]],
    );
    let odds = exact(&s);
    assert_eq!(odds.wins[0].fraction.as_deref(), Some("1"));
}

#[test]
fn simple_rounds_agree_with_the_battle_engine() {
    // The faster fighter (speed bonus 3: initiative 4dF + 5 + 3 - 3)
    // often strikes first and may fell the other before it acts.
    let duel = fight(
        "damage = { model = \"hit_points\", max_hp = 3 }",
        &[&[("a", 6, 6, "speed_bonus = 3")], &[("b", 7, 6, "")]],
    );
    let s = duel.with_field("timing", "simple-rounds").unwrap();
    let odds = agrees_with_battles(&s, BATTLES);
    // Against the same duel fought simultaneously, striking first helps.
    let same_time = exact(&duel.with_field("timing", "simultaneous").unwrap());
    assert!(odds.wins[0].value > same_time.wins[0].value);
    for targeting in ["random", "least_engaged"] {
        let s = fight(
            &format!("damage = {{ model = \"hit_points\", max_hp = 1 }}\n[battle]\ntargeting = \"{targeting}\""),
            &[
                &[("a", 7, 6, "speed_bonus = 2"), ("b", 6, 6, "")],
                &[("c", 6, 7, "weapon = \"Axe, Battle\""), ("d", 7, 5, "hit_points = 2")],
            ],
        )
        .with_field("timing", "simple-rounds")
        .unwrap();
        agrees_with_battles(&s, BATTLES);
    }
}

#[test]
fn fudge_duels_agree_with_the_battle_engine_both_ways_of_exchanging() {
    // The two-way exchange (the default: the winner hurts the loser),
    // with FUDGE 4.31's tactics and an NPC who never rolls.
    let two_way = fight(
        "striking = \"fudge_opposed\"\ndamage = \"fudge_wounds\"",
        &[
            &[("a", 0, 0, "skill = \"Good\"\noffense = 2\nstance = \"all_out_offense\"")],
            &[(
                "b",
                0,
                0,
                "skill = \"Great\"\noffense = 1\ntoughness = 1\nshield = \"small\"\nnpc_result = true",
            )],
        ],
    );
    let odds = agrees_with_battles(&two_way, BATTLES);
    assert!(odds.wins[0].value > 0.0 && odds.wins[1].value > 0.0);
    // One way: each blow an exchange of its own; hit points.
    let one_way = fight(
        "striking = { system = \"fudge_opposed\", exchange = \"one_way\" }\ndamage = { model = \"hit_points\", max_hp = 4 }",
        &[
            &[("a", 0, 0, "skill = \"Good\"")],
            &[("b", 0, 0, "skill = \"Fair\"\noffense = 1")],
        ],
    );
    let odds = agrees_with_battles(&one_way, BATTLES);
    assert!(odds.draw.value > 0.0, "both can fall at one exchange");
}

/// The validation grid at a million battles a fight (the benchmark job:
/// `benches/run-exact-validation`, or `SKIRMISH_EXACT_BATTLES=N cargo
/// test --release -p skirmish-sim --test it exact::many -- --ignored`):
/// every timing system, both damage models, duels and two against two
/// under every targeting policy, and FUDGE's exchanges (duels under
/// every system, two against two under Simultaneous Combat, Simple Rounds
/// and Action Blocks); each outcome
/// within its 99.9% interval of the battles' count.
#[test]
#[ignore = "a million battles a fight: run in release (benches/run-exact-validation)"]
fn many_battles_agree_with_the_exact_engine() {
    let n: u64 = std::env::var("SKIRMISH_EXACT_BATTLES").ok().map_or(1_000_000, |v| {
        v.parse().expect("SKIRMISH_EXACT_BATTLES: a number of battles")
    });
    let every = ["random", "most_wounded", "least_engaged"];
    let started = std::time::Instant::now();
    let done = |what: &str| eprintln!("{what}: agrees at {n} battles a fight ({:.1?})", started.elapsed());
    // Simultaneous Combat and Simple Rounds with one action.
    let hp = "damage = { model = \"hit_points\", max_hp = 3 }";
    let two_two: &[&[(&str, i32, i32, &str)]] = &[
        &[("a", 7, 6, "speed_bonus = 2"), ("b", 6, 6, "")],
        &[("c", 6, 7, ""), ("d", 7, 5, "hit_points = 4")],
    ];
    for timing in ["simultaneous", "simple-rounds"] {
        let duel = fight(hp, &[&[("a", 7, 6, "offense = 1")], &[("b", 6, 7, "")]]);
        agrees_with_battles(&duel.with_field("timing", timing).unwrap(), n);
        let wounds = fight(
            "damage = \"fudge_wounds\"",
            &[
                &[("a", 8, 6, "offense = 3")],
                &[("b", 7, 7, "offense = 2\ntoughness = 1")],
            ],
        );
        agrees_with_battles(&wounds.with_field("timing", timing).unwrap(), n);
        for targeting in every {
            let rules = format!("{hp}\n[battle]\ntargeting = \"{targeting}\"");
            let s = fight(&rules, two_two).with_field("timing", timing).unwrap();
            agrees_with_battles(&s, n);
        }
        done(timing);
    }
    super::exact_rounds::simple_rounds_several(n, &every);
    done("simple-rounds, several actions");
    super::exact_rounds::tick_system(n, &every);
    done("tick-system");
    super::exact_rounds::action_blocks(n, &every);
    done("action-blocks");
    super::exact_ready::graduated(n, &every);
    done("graduated-rounds");
    super::exact_ready::continuous(n, &every);
    done("continuous");
    // FUDGE's two-way exchange, both damage models.
    for damage in [
        "damage = \"fudge_wounds\"",
        "damage = { model = \"hit_points\", max_hp = 3 }",
    ] {
        let fudge = fight(
            &format!("striking = \"fudge_opposed\"\n{damage}"),
            &[
                &[("a", 0, 0, "skill = \"Good\"\noffense = 2")],
                &[("b", 0, 0, "skill = \"Great\"\noffense = 1")],
            ],
        );
        agrees_with_battles(&fudge, n);
    }
    super::exact_fudge::fudge_duels(n);
    super::exact_fudge::fudge_two_two(n);
    super::exact_fudge::fudge_two_two_rounds(n);
    done("FUDGE exchanges");
}

// ---------------------------------------------------------------------
// Numbers, budgets and refusals.
// ---------------------------------------------------------------------

#[test]
fn floats_agree_with_fractions_within_their_bound() {
    let s = fight(
        "damage = { model = \"hit_points\", max_hp = 2 }\n[battle]\ntargeting = \"least_engaged\"",
        &[&[("a", 7, 6, ""), ("b", 6, 6, "")], &[("c", 6, 7, ""), ("d", 7, 5, "")]],
    );
    let fractions = solve(
        &s,
        &ExactOptions {
            arithmetic: Arithmetic::Fractions,
            ..ExactOptions::default()
        },
    )
    .unwrap();
    let floats = solve(
        &s,
        &ExactOptions {
            arithmetic: Arithmetic::Float,
            ..ExactOptions::default()
        },
    )
    .unwrap();
    assert!(fractions.exact && !floats.exact && floats.fraction_free());
    assert!(floats.error_bound > 0.0 && floats.error_bound < 1e-10);
    for (x, y) in fractions.wins.iter().zip(&floats.wins) {
        assert!(
            (x.value - y.value).abs() <= floats.error_bound,
            "{} {}",
            x.value,
            y.value
        );
    }
    // Auto: fractions within the budget, floats past it.
    let auto = solve(
        &s,
        &ExactOptions {
            max_exact_states: 1,
            ..ExactOptions::default()
        },
    )
    .unwrap();
    assert!(!auto.exact);
}

trait FractionFree {
    fn fraction_free(&self) -> bool;
}

impl FractionFree for ExactOdds {
    fn fraction_free(&self) -> bool {
        self.wins
            .iter()
            .chain([&self.draw, &self.never_ends])
            .all(|c| c.fraction.is_none())
    }
}

#[test]
fn a_fight_past_the_budget_is_refused_with_its_state_count() {
    let s = fight(
        "damage = { model = \"hit_points\", max_hp = 10 }",
        &[&[("a", 7, 6, "count = 2")], &[("c", 6, 7, "count = 2")]],
    );
    let err = solve(
        &s,
        &ExactOptions {
            max_states: 50,
            ..ExactOptions::default()
        },
    )
    .unwrap_err();
    assert_eq!(err, ExactError::TooManyStates { states: 51, budget: 50 });
    assert!(err.to_string().contains("more than 50 states") && err.to_string().contains("sample it instead"));
    // Five against five: one exchange has more combinations of blows than
    // the engine counts; refused before it runs out of memory, whatever
    // the state budget.
    let crowd = fight(
        "damage = { model = \"hit_points\", max_hp = 30 }",
        &[&[("a", 7, 6, "count = 5")], &[("c", 6, 7, "count = 5")]],
    );
    let err = solve(
        &crowd,
        &ExactOptions {
            max_states: 10,
            ..ExactOptions::default()
        },
    )
    .unwrap_err();
    assert!(
        matches!(
            err,
            ExactError::TooManyOutcomes { .. } | ExactError::TooManyStates { .. }
        ),
        "{err}"
    );
}

#[test]
fn what_the_exact_engine_does_not_model_is_refused_naming_the_field() {
    let duel = |rules: &str, extra: &str| fight(rules, &[&[("a", 6, 6, extra)], &[("b", 6, 6, "")]]);
    let cases = [
        (
            duel("", "defend = \"free_action\"")
                .with_field("timing", "tick-system")
                .unwrap(),
            "sides[0].groups[0].defend",
        ),
        (
            fight(
                "striking = \"fudge_opposed\"\n[battle]\nmax_attackers_per_target = 1",
                &[&[("a", 6, 6, "count = 2")], &[("b", 6, 6, "")]],
            ),
            "battle.max_attackers_per_target",
        ),
        (
            duel("striking = \"fudge_opposed\"", "skill = \"Good+\""),
            "sides[0].groups[0].skill",
        ),
        (duel("distance = 30", ""), "distance"),
        (
            duel("", "weapon = \"Crossbow, Heavy\"")
                .with_field("timing", "simple-rounds")
                .unwrap(),
            "sides[0].groups[0].weapon",
        ),
        (
            duel("", "disruptible = true")
                .with_field("timing", "simple-rounds")
                .unwrap(),
            "sides[0].groups[0].disruptible",
        ),
        (
            duel("striking = \"fudge_opposed\"", "posture = 1")
                .with_field("timing", "simple-rounds")
                .unwrap(),
            "sides[0].groups[0].posture",
        ),
        (duel("[battle]\nfront = 2", ""), "battle.front"),
        (duel("[battle]\nmax_rounds = 50", ""), "battle.max_rounds"),
        (duel("", "parry = \"always\""), "sides[0].groups[0].parry"),
        (duel("", "unaware_for = 2"), "sides[0].groups[0].unaware_for"),
        (
            duel(
                "striking = \"fudge_opposed\"",
                "stance = \"all_out_defense\"\nscouting = \"Great\"",
            ),
            "sides[0].groups[0].scouting",
        ),
        (
            duel(
                "striking = { system = \"full_contact\", amazing = true, amazing_defense = \"disarm\" }",
                "",
            ),
            "striking.amazing_defense",
        ),
    ];
    for (s, field) in cases {
        match solve(&s, &ExactOptions::default()) {
            Err(ExactError::Unsupported { field: f, what }) => {
                assert_eq!(f, field, "{what}");
                let text = ExactError::Unsupported { field: f, what }.to_string();
                assert!(
                    text.starts_with(&format!("{field}: ")) && text.contains("sample"),
                    "{text}"
                );
            }
            other => panic!("{field}: {other:?}"),
        }
    }
}
