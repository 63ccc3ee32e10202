//! FUDGE opposed combat through the public API: the one driver for
//! `tests/cases/fudge.toml` (the text's worked examples and edge cases), and
//! a property test that no public function panics.

use std::fmt::Debug;

use proptest::prelude::*;
use serde::Deserialize;
use skirmish_core::Error;
use skirmish_core::dice::ScriptedRolls;
use skirmish_core::ladder::{CombatLevel, Level};
use skirmish_core::striking::opposed::{
    Aim, Combatant, EffectiveSkill, ExchangeOutcome, Foe, GroupRoll, LoneFighter, MeleeModifiers, Missile,
    ModifierReason, Outnumbered, Position, Posture, PostureFighter, PostureResult, RangedAttack, RangedDefense, Reach,
    ResultSource, RolledCombatant, RoundSide, Shield, ShieldSize, Shooter, Stance, StandOffReason, StoryResolution,
    Strike, SweepingBlow, TargetSize, Wounds, can_pierce_eye, exchange, exchange_fire, median_result, melee_round,
    posture_round, relative_degree, resolve_story_element, unopposed,
};

// ---------------------------------------------------------------------------
// The case file

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Cases {
    outnumbered: Vec<OutnumberedCase>,
    exchange: Vec<ExchangeCase>,
    postures: Vec<PostureCase>,
    plus_levels: Vec<PlusLevelsCase>,
    exchange_fire: Vec<FireCase>,
    ranged: Vec<RangedCase>,
    story: Vec<StoryCase>,
    median: Vec<MedianCase>,
}

fn cases() -> Cases {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/cases/fudge.toml");
    let text = std::fs::read_to_string(path).unwrap();
    toml::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// A combatant as the case file gives it (see the file's header).
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct Who {
    #[serde(default)]
    name: String,
    skill: Option<CombatLevel>,
    roll: Option<i32>,
    result: Option<Level>,
    #[serde(default)]
    npc: bool,
    posture: Option<i32>,
    difficulty_level: Option<Level>,
    target_size: Option<TargetSize>,
    aim: Option<Aim>,
    stance: Option<Stance>,
    can_harm: Option<bool>,
    #[serde(default)]
    ignored: bool,
}

impl Who {
    /// The skill (Fair if the text gives none: a known result ignores it).
    fn skill(&self) -> Level {
        let skill = self.skill.unwrap_or(CombatLevel::plain(Level::FAIR));
        assert!(!skill.plus, "{}: plus-levels only in [[plus_levels]]", self.name);
        skill.level
    }

    fn source(&self) -> ResultSource {
        match (self.roll, self.result, self.npc) {
            (Some(roll), None, false) => ResultSource::Rolled { roll },
            (None, Some(result), false) => ResultSource::Known { result },
            (None, None, true) => ResultSource::TraitLevel,
            // Rolls from an empty script: fails loudly if it is ever used.
            (None, None, false) => ResultSource::Roll,
            _ => panic!("{}: give at most one of roll, result, npc", self.name),
        }
    }

    fn difficulty_level(&self) -> Level {
        self.difficulty_level
            .unwrap_or_else(|| panic!("{}: difficulty_level missing", self.name))
    }
}

/// No dice: every case gives its rolls explicitly.
fn no_dice() -> ScriptedRolls {
    ScriptedRolls::new([])
}

/// The field an error names (or its debug form, for errors without one).
fn error_field(e: &Error) -> String {
    match e {
        Error::OutOfRange { field, .. } | Error::Invalid { field, .. } | Error::Overflow { field, .. } => field.clone(),
        other => format!("{other:?}"),
    }
}

/// Unwraps `got` or checks it failed on `field`; `None` when it failed as expected.
fn outcome<T: Debug>(name: &str, got: Result<T, Error>, error: Option<&str>) -> Option<T> {
    match (got, error) {
        (Ok(v), None) => Some(v),
        (Err(e), None) => panic!("{name}: unexpected error: {e}"),
        (Ok(v), Some(field)) => panic!("{name}: expected an error on {field:?}, got {v:?}"),
        (Err(e), Some(field)) => {
            assert_eq!(error_field(&e), field, "{name}: {e}");
            None
        }
    }
}

// ---------------------------------------------------------------------------
// 4.34 Multiple combatants

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct OutnumberedCase {
    name: String,
    lone: Who,
    foes: Vec<Who>,
    group_roll: Option<i32>,
    reach: Option<Reach>,
    sweeping_blow: Option<SweepingBlow>,
    expect: OutnumberedExpect,
    strike: Option<NamedHit>,
    sweep: Option<Vec<NamedHit>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct OutnumberedExpect {
    error: Option<String>,
    lone_skill: Option<Level>,
    lone_result: Option<Level>,
    foe_results: Option<Vec<Level>>,
    may_wound: Option<Vec<String>>,
    wounded_by: Option<Vec<NamedWound>>,
}

#[derive(Deserialize, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
struct NamedWound {
    foe: String,
    relative_degree: i32,
}

#[derive(Deserialize, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
struct NamedHit {
    foe: String,
    relative_degree: i32,
    #[serde(default)]
    damage_adjustment: i32,
}

#[test]
fn multiple_combatants() {
    let cases = cases().outnumbered;
    assert!(cases.len() >= 5, "the Paco and four Tucker examples at least");
    for case in cases {
        let name = &case.name;
        let foe_names: Vec<&str> = case.foes.iter().map(|f| f.name.as_str()).collect();
        let index = |foe: &str| {
            foe_names
                .iter()
                .position(|n| *n == foe)
                .unwrap_or_else(|| panic!("{name}: no foe {foe:?}"))
        };
        let setup = Outnumbered {
            reach: case.reach.unwrap_or_default(),
            group_roll: case
                .group_roll
                .map_or(GroupRoll::Off, |roll| GroupRoll::Rolled { roll }),
            sweeping_blow: case.sweeping_blow.unwrap_or_default(),
            ..Outnumbered::new(
                LoneFighter {
                    skill: case.lone.skill(),
                    source: case.lone.source(),
                },
                case.foes
                    .iter()
                    .map(|f| Foe {
                        source: f.source(),
                        ignored: f.ignored,
                        ..Foe::new(f.skill())
                    })
                    .collect(),
            )
        };
        let Some(round) = outcome(name, setup.resolve(&mut no_dice()), case.expect.error.as_deref()) else {
            continue;
        };
        let expect = &case.expect;
        if let Some(skill) = expect.lone_skill {
            assert_eq!(round.lone_skill.level, skill, "{name}: lone skill");
        }
        assert_eq!(Some(round.lone_result), expect.lone_result, "{name}: lone result");
        if let Some(results) = &expect.foe_results {
            let got: Vec<Level> = round.foes.iter().map(|f| f.result).collect();
            assert_eq!(&got, results, "{name}: foe results");
        }
        let may_wound: Vec<&str> = round.may_wound.iter().map(|&i| foe_names[i]).collect();
        let expected: Vec<&str> = expect.may_wound.iter().flatten().map(String::as_str).collect();
        assert_eq!(may_wound, expected, "{name}: may wound");
        let wounded_by: Vec<NamedWound> = round
            .wounded_by
            .iter()
            .map(|w| NamedWound {
                foe: foe_names[w.foe].to_owned(),
                relative_degree: w.relative_degree,
            })
            .collect();
        assert_eq!(Some(&wounded_by), expect.wounded_by.as_ref(), "{name}: wounded by");
        // FoeOutcome flags agree with the lists.
        for (i, f) in round.foes.iter().enumerate() {
            assert_eq!(f.may_be_wounded, round.may_wound.contains(&i), "{name}: foe {i}");
            assert_eq!(
                f.wounds_lone,
                round.wounded_by.iter().any(|w| w.foe == i),
                "{name}: foe {i}"
            );
        }
        if let Some(strike) = &case.strike {
            let hit = round.strike(index(&strike.foe)).unwrap();
            assert_eq!(
                (hit.relative_degree, hit.damage_adjustment),
                (strike.relative_degree, strike.damage_adjustment),
                "{name}"
            );
        }
        if let Some(sweep) = &case.sweep {
            let chosen: Vec<usize> = sweep.iter().map(|h| index(&h.foe)).collect();
            let hits = round.sweep(&chosen).unwrap();
            let got: Vec<NamedHit> = hits
                .iter()
                .map(|h| NamedHit {
                    foe: foe_names[h.foe].to_owned(),
                    relative_degree: h.relative_degree,
                    damage_adjustment: h.damage_adjustment,
                })
                .collect();
            assert_eq!(&got, sweep, "{name}: sweep");
        }
    }
}

// ---------------------------------------------------------------------------
// 4.22 Simultaneous combat rounds

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ExchangeCase {
    name: String,
    first: Who,
    second: Who,
    expect: ExchangeExpect,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ExchangeExpect {
    relative_degree: i32,
    stand_off: Option<StandOffReason>,
    hit: Option<RoundSide>,
    hit_degree: Option<i32>,
    #[serde(default)]
    damage_bonus: i32,
    aim: Option<skirmish_core::striking::opposed::AimOutcome>,
}

fn fighter(who: &Who) -> RolledCombatant {
    RolledCombatant {
        minimum_to_hit: who.target_size.unwrap_or_default().minimum_to_hit(),
        aim: who.aim.unwrap_or_default(),
        stance: who.stance.unwrap_or_default(),
        can_harm: who.can_harm.unwrap_or(true),
        ..RolledCombatant::new(who.source().result(who.skill(), &mut no_dice()).unwrap())
    }
}

#[test]
fn simultaneous_combat_rounds() {
    let cases = cases().exchange;
    assert!(!cases.is_empty());
    for case in cases {
        let name = &case.name;
        let e = exchange(&fighter(&case.first), &fighter(&case.second)).unwrap();
        assert_eq!(e.relative_degree, case.expect.relative_degree, "{name}");
        match (e.outcome, case.expect.stand_off, case.expect.hit) {
            (ExchangeOutcome::StandOff { reason }, Some(expected), None) => assert_eq!(reason, expected, "{name}"),
            (ExchangeOutcome::Hit(hit), None, Some(winner)) => {
                assert_eq!(hit.winner, winner, "{name}");
                assert_eq!(Some(hit.relative_degree), case.expect.hit_degree, "{name}");
                assert_eq!(hit.damage_bonus, case.expect.damage_bonus, "{name}");
                let aim = case
                    .expect
                    .aim
                    .unwrap_or(skirmish_core::striking::opposed::AimOutcome::NotAimed);
                assert_eq!(hit.aim, aim, "{name}");
                assert!(e.was_hit(winner.other()) && !e.was_hit(winner), "{name}");
            }
            (got, _, _) => panic!("{name}: got {got:?}"),
        }
    }
}

// ---------------------------------------------------------------------------
// 4.32 Postures

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PostureCase {
    name: String,
    first: Who,
    second: Who,
    expect: PostureExpect,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PostureExpect {
    error: Option<String>,
    first: Option<OffenseDefense>,
    second: Option<OffenseDefense>,
    first_strike: Option<Strike>,
    second_strike: Option<Strike>,
}

#[derive(Deserialize, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
struct OffenseDefense {
    offense: Level,
    defense: Level,
}

fn od(r: &PostureResult) -> OffenseDefense {
    OffenseDefense {
        offense: r.offense,
        defense: r.defense,
    }
}

#[test]
fn offensive_defensive_postures() {
    let cases = cases().postures;
    assert!(!cases.is_empty());
    for case in cases {
        let name = &case.name;
        let round = (|| {
            let side = |w: &Who| -> Result<PostureFighter, Error> {
                Ok(PostureFighter {
                    source: w.source(),
                    ..PostureFighter::new(w.skill(), Posture::new(w.posture.unwrap_or(0))?)
                })
            };
            posture_round(&side(&case.first)?, &side(&case.second)?, &mut no_dice())
        })();
        let Some(round) = outcome(name, round, case.expect.error.as_deref()) else {
            continue;
        };
        assert_eq!(Some(od(&round.first)), case.expect.first, "{name}: first");
        assert_eq!(Some(od(&round.second)), case.expect.second, "{name}: second");
        assert_eq!(
            Some(round.first_strike),
            case.expect.first_strike,
            "{name}: first strike"
        );
        assert_eq!(
            Some(round.second_strike),
            case.expect.second_strike,
            "{name}: second strike"
        );
    }
}

// ---------------------------------------------------------------------------
// 4.36 Plus levels

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PlusLevelsCase {
    name: String,
    first: Who,
    second: Who,
    rounds: Vec<RoundExpect>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RoundExpect {
    round: u32,
    /// A fighter's name, or "equal".
    higher: String,
}

#[test]
fn plus_levels_by_round() {
    let cases = cases().plus_levels;
    assert!(!cases.is_empty());
    for case in cases {
        let name = &case.name;
        assert!(!case.rounds.is_empty(), "{name}");
        for r in &case.rounds {
            let level = |w: &Who| w.skill.unwrap().in_round(r.round).unwrap();
            let (a, b) = (level(&case.first), level(&case.second));
            let higher = match a.cmp(&b) {
                std::cmp::Ordering::Greater => case.first.name.as_str(),
                std::cmp::Ordering::Less => case.second.name.as_str(),
                std::cmp::Ordering::Equal => "equal",
            };
            assert_eq!(higher, r.higher, "{name}: round {}", r.round);
            // The same through a whole melee round, both rolling 0.
            let same_roll = |skill| Combatant::new(skill).with_source(ResultSource::Rolled { roll: 0 });
            let round = melee_round(&same_roll(a), &same_roll(b), &mut no_dice()).unwrap();
            match (higher == "equal", round.exchange.outcome) {
                (true, ExchangeOutcome::StandOff { reason }) => assert_eq!(reason, StandOffReason::Tie),
                (false, ExchangeOutcome::Hit(hit)) => {
                    let winner = if higher == case.first.name {
                        RoundSide::First
                    } else {
                        RoundSide::Second
                    };
                    assert_eq!(hit.winner, winner, "{name}: round {}", r.round);
                }
                (_, got) => panic!("{name}: round {}: {got:?}", r.round),
            }
        }
    }
}

// ---------------------------------------------------------------------------
// 4.4 Ranged combat

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FireCase {
    name: String,
    first: Who,
    second: Who,
    expect: FireExpect,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FireExpect {
    first: ShotExpect,
    second: ShotExpect,
}

#[derive(Deserialize, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
struct ShotExpect {
    hit: bool,
    relative_degree: i32,
}

#[test]
fn exchanges_of_fire() {
    let cases = cases().exchange_fire;
    assert!(!cases.is_empty());
    for case in cases {
        let name = &case.name;
        let shooter = |w: &Who| Shooter {
            skill: w.skill(),
            source: w.source(),
            difficulty_level: w.difficulty_level(),
        };
        let fire = exchange_fire(&shooter(&case.first), &shooter(&case.second), &mut no_dice()).unwrap();
        let shot = |o: &skirmish_core::striking::opposed::RangedOutcome| ShotExpect {
            hit: o.hit,
            relative_degree: o.relative_degree,
        };
        assert_eq!(shot(&fire.first), case.expect.first, "{name}: {}", case.first.name);
        assert_eq!(shot(&fire.second), case.expect.second, "{name}: {}", case.second.name);
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RangedCase {
    name: String,
    attacker: Who,
    /// "unaware", "dodge" or "shoots_back".
    defense: String,
    defender: Option<Who>,
    missile: Option<Missile>,
    expect: RangedExpect,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RangedExpect {
    error: Option<String>,
    result: Option<Level>,
    dodge_result: Option<Level>,
    hit: Option<bool>,
    relative_degree: Option<i32>,
}

#[test]
fn ranged_attacks() {
    let cases = cases().ranged;
    assert!(!cases.is_empty());
    for case in cases {
        let name = &case.name;
        let defense = match case.defense.as_str() {
            "unaware" => RangedDefense::Unaware,
            "shoots_back" => RangedDefense::ShootsBack,
            "dodge" => {
                let d = case.defender.as_ref().unwrap_or_else(|| panic!("{name}: defender"));
                RangedDefense::Dodge {
                    dodge_skill: d.skill(),
                    source: d.source(),
                    shield: None,
                }
            }
            other => panic!("{name}: defense {other:?}"),
        };
        let attack = RangedAttack {
            skill: case.attacker.skill(),
            source: case.attacker.source(),
            difficulty_level: case.attacker.difficulty_level(),
            missile: case.missile.unwrap_or_default(),
            defense,
        };
        let Some(out) = outcome(name, attack.resolve(&mut no_dice()), case.expect.error.as_deref()) else {
            continue;
        };
        assert_eq!(Some(out.result), case.expect.result, "{name}: result");
        assert_eq!(out.dodge.map(|d| d.result), case.expect.dodge_result, "{name}: dodge");
        assert_eq!(Some(out.hit), case.expect.hit, "{name}: hit");
        assert_eq!(Some(out.relative_degree), case.expect.relative_degree, "{name}: degree");
    }
}

// ---------------------------------------------------------------------------
// 4.21 Story elements

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StoryCase {
    name: String,
    skill: Level,
    gm_modifier: i32,
    resolution: StoryResolution,
    /// 4dF rolls, played from a script.
    rolls: Option<Vec<i32>>,
    /// One 4dF total given directly (ResultSource::Rolled).
    roll: Option<i32>,
    expect: StoryExpect,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StoryExpect {
    error: Option<String>,
    skill: Option<Level>,
    results: Option<Vec<Level>>,
    result: Option<Level>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MedianCase {
    name: String,
    results: [Level; 3],
    expect: Level,
}

#[test]
fn story_elements() {
    let cases = cases();
    assert!(!cases.story.is_empty() && !cases.median.is_empty());
    for case in cases.story {
        let name = &case.name;
        let (source, mut script) = match (&case.rolls, case.roll) {
            (Some(rolls), None) => (ResultSource::Roll, ScriptedRolls::new(rolls.iter().copied())),
            (None, Some(roll)) => (ResultSource::Rolled { roll }, no_dice()),
            _ => panic!("{name}: give rolls or roll"),
        };
        let got = resolve_story_element(case.skill, case.gm_modifier, case.resolution, source, &mut script);
        let Some(element) = outcome(name, got, case.expect.error.as_deref()) else {
            continue;
        };
        assert!(
            script.remaining().is_empty(),
            "{name}: unused rolls {:?}",
            script.remaining()
        );
        assert_eq!(Some(element.skill.level), case.expect.skill, "{name}: skill");
        if let Some(results) = &case.expect.results {
            assert_eq!(&element.results, results, "{name}: results");
        }
        assert_eq!(Some(element.result), case.expect.result, "{name}: result");
    }
    for case in cases.median {
        let [a, b, c] = case.results;
        assert_eq!(median_result(a, b, c), case.expect, "{}", case.name);
    }
}

/// Deleting or renaming a worked example of the text must fail a test.
#[test]
fn every_worked_example_of_the_text_is_a_case() {
    let c = cases();
    let names: Vec<&str> = (c.outnumbered.iter().map(|x| x.name.as_str()))
        .chain(c.exchange.iter().map(|x| x.name.as_str()))
        .chain(c.postures.iter().map(|x| x.name.as_str()))
        .chain(c.plus_levels.iter().map(|x| x.name.as_str()))
        .chain(c.exchange_fire.iter().map(|x| x.name.as_str()))
        .chain(c.ranged.iter().map(|x| x.name.as_str()))
        .chain(c.story.iter().map(|x| x.name.as_str()))
        .chain(c.median.iter().map(|x| x.name.as_str()))
        .collect();
    for required in [
        "4.34 Paco vs three thugs",
        "4.34 Tucker scores Superb",
        "4.34 Tucker scores Great",
        "4.34 Tucker scores Good",
        "4.34 Tucker scores Fair",
        "4.32 Good fighter at +1 offense vs Great swordswoman in normal posture",
        "4.36 Gus (Great) vs Ivan (Good+)",
        "4.4 Will Scarlet vs Dicken",
        "4.21 Gunner charges the gang: median of three",
        "4.21 Good, Mediocre, Superb: the median is Good",
        "4.21 Poor, Great, Great: the median is Great",
    ] {
        assert!(names.contains(&required), "missing worked example {required:?}");
    }
    let mut sorted = names.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(sorted.len(), names.len(), "case names must be unique");
}

// ---------------------------------------------------------------------------
// No public function panics

/// Mostly small values, often the extremes.
fn num() -> impl Strategy<Value = i32> {
    prop_oneof![4 => -6..=6i32, 1 => any::<i32>(), 1 => Just(i32::MIN), 1 => Just(i32::MAX)]
}

fn source() -> impl Strategy<Value = ResultSource> {
    prop_oneof![
        Just(ResultSource::Roll),
        num().prop_map(|roll| ResultSource::Rolled { roll }),
        Just(ResultSource::TraitLevel),
        num().prop_map(|v| ResultSource::Known { result: Level::new(v) }),
    ]
}

fn pick<T: Copy>(options: &[T], i: usize) -> T {
    options[i % options.len()]
}

/// Every error names what it refused.
fn check<T>(r: Result<T, Error>) -> Option<T> {
    match r {
        Ok(v) => Some(v),
        Err(e) => {
            assert!(!error_field(&e).is_empty(), "{e:?}");
            assert!(!e.to_string().is_empty());
            None
        }
    }
}

proptest! {
    #[test]
    fn no_public_function_panics(
        a in num(), b in num(), c in num(), d in num(),
        sa in source(), sb in source(),
        script in proptest::collection::vec(num(), 0..8),
        choice in any::<usize>(), flags in any::<u8>(),
        foes in proptest::collection::vec((num(), source(), num(), num(), any::<bool>()), 0..8),
        penalty in prop_oneof![0u32..3, any::<u32>()],
        reach in 0u32..9,
        chosen in proptest::collection::vec(0usize..9, 0..4),
    ) {
        let (la, lb) = (Level::new(a), Level::new(b));
        let rolls = || ScriptedRolls::new(script.iter().copied());
        check(relative_degree(la, lb));
        check(unopposed(la, lb));
        check(sa.roll_for(la, &mut rolls()));
        check(sa.result(la, &mut rolls()));
        let _ = can_pierce_eye(a);
        let _ = median_result(la, lb, Level::new(c));
        check(EffectiveSkill::new(la).with(ModifierReason::GmModifier, b));

        // 4.22 / 4.31
        let aims = [Aim::Anywhere, Aim::SmallPartNeedingGood, Aim::SmallPartNeedingGreat];
        let stances = [Stance::Normal, Stance::AllOutOffense, Stance::AllOutDefense];
        let f = |result, min, i: usize| RolledCombatant {
            result,
            minimum_to_hit: Level::new(min),
            aim: pick(&aims, i),
            stance: pick(&stances, i / 3),
            can_harm: flags & 1 == 0,
            critical: flags & 2 == 0,
        };
        let first = f(la, c, choice);
        let second = f(lb, d, choice / 9);
        if let Some(hit) = check(exchange(&first, &second)).and_then(|e| e.hit()) {
            let (w, l) = if hit.winner == RoundSide::First { (first, second) } else { (second, first) };
            prop_assert!(w.result >= l.result && w.result >= w.minimum_to_hit);
            prop_assert!(hit.relative_degree >= 0);
        }
        let modifiers = |i: usize, blessing| MeleeModifiers {
            wounds: pick(&[Wounds::Unhurt, Wounds::Hurt, Wounds::VeryHurt], i),
            position: pick(&[Position::Even, Position::Worse, Position::MuchWorse], i / 3),
            shield: pick(
                &[None, Some(Shield::new(ShieldSize::Small)), Some(Shield::new(ShieldSize::Large))],
                i / 9,
            ),
            aim: pick(&aims, i / 27),
            blessing,
            stance: pick(&stances, i / 81),
            scouted: i.is_multiple_of(2),
        };
        let ca = Combatant { minimum_to_hit: Level::new(d), ..Combatant::new(la) }
            .with_source(sa)
            .with_modifiers(modifiers(choice, c));
        let cb = Combatant::new(lb).with_source(sb).with_modifiers(modifiers(choice / 7, d));
        check(melee_round(&ca, &cb, &mut rolls()));

        // 4.32
        check(Posture::new(c));
        let posture = Posture::new(c.rem_euclid(5) - 2).unwrap();
        check(PostureResult::new(la, posture, d));
        let pf = |skill, source| PostureFighter {
            source,
            minimum_to_hit: Level::new(c),
            ..PostureFighter::new(skill, posture)
        };
        check(posture_round(&pf(la, sa), &pf(lb, sb), &mut rolls()));

        // 4.34
        let group = pick(&[GroupRoll::Off, GroupRoll::Roll, GroupRoll::Rolled { roll: c }], choice);
        let setup = Outnumbered {
            reach: pick(
                &[Reach::Ideal, Reach::NeedsRoom, Reach::Doorway, Reach::Custom { max_attackers: reach }],
                choice / 3,
            ),
            group_roll: group,
            penalty_per_extra_foe: penalty,
            sweeping_blow: pick(
                &[SweepingBlow::Off, SweepingBlow::MinusOnePerFoe, SweepingBlow::MinusTwoPerFoe],
                choice / 12,
            ),
            ..Outnumbered::new(
                LoneFighter { skill: la, source: sa },
                foes.iter()
                    .map(|&(skill, source, min, min_be, ignored)| Foe {
                        skill: Level::new(skill),
                        source,
                        minimum_to_hit: Level::new(min),
                        minimum_to_be_hit: Level::new(min_be),
                        ignored,
                    })
                    .collect(),
            )
        };
        if let Some(round) = check(setup.resolve(&mut rolls())) {
            let fought_best = round.foes.iter().filter(|f| !f.ignored).map(|f| f.result).max().unwrap();
            if !round.may_wound.is_empty() {
                prop_assert!(round.lone_result >= fought_best);
            }
            for w in &round.wounded_by {
                let foe = round.foes[w.foe];
                prop_assert!(foe.ignored || foe.result > round.lone_result);
            }
            check(round.sweep(&chosen));
            check(round.strike(choice));
        }

        // 4.4
        let missile = pick(&[Missile::Thrown, Missile::Propelled { dodge_penalty: c }], choice);
        for defense in [
            RangedDefense::Unaware,
            RangedDefense::ShootsBack,
            RangedDefense::Dodge { dodge_skill: lb, source: sb, shield: Some(Shield::new(ShieldSize::Medium)) },
        ] {
            let attack = RangedAttack { skill: la, source: sa, difficulty_level: Level::new(c), missile, defense };
            if let Some(out) = check(attack.resolve(&mut rolls())) {
                prop_assert!(!out.hit || out.result >= attack.difficulty_level);
            }
        }
        let shooter = |skill, source, dl| Shooter { skill, source, difficulty_level: Level::new(dl) };
        check(exchange_fire(&shooter(la, sa, c), &shooter(lb, sb, d), &mut rolls()));

        // 4.21
        for resolution in [StoryResolution::SingleRoll, StoryResolution::MedianOfThree] {
            check(resolve_story_element(la, c, resolution, sa, &mut rolls()));
        }
    }
}

// ---------------------------------------------------------------------------
// The exchange (FUDGE 4.22): the winner hurts the loser, never both.

fn stance() -> impl Strategy<Value = Stance> {
    prop_oneof![
        Just(Stance::Normal),
        Just(Stance::AllOutOffense),
        Just(Stance::AllOutDefense)
    ]
}

/// A side of an exchange without postures (whose rounds may hurt both).
fn side() -> impl Strategy<Value = skirmish_core::combat::OpposedSide> {
    (any::<[i32; 6]>(), stance()).prop_map(|([skill, penalty, outnumbered, roll, modifier, minimum], stance)| {
        skirmish_core::combat::OpposedSide {
            skill,
            penalty,
            outnumbered,
            roll,
            stance,
            modifier,
            minimum,
            posture: 0,
        }
    })
}

fn aim() -> impl Strategy<Value = Aim> {
    prop_oneof![
        Just(Aim::Anywhere),
        Just(Aim::SmallPartNeedingGood),
        Just(Aim::SmallPartNeedingGreat)
    ]
}

proptest! {
    /// Over the whole range of every input, in every stance: an exchange
    /// never hurts both fighters, the defender hurts the attacker only
    /// when he wins (a tie wins only against an all-out attacker) with at
    /// least the minimum result and not in all-out defense, and a one-way
    /// strike never hurts the attacker.
    #[test]
    fn an_exchange_hurts_one_fighter_at_most(
        attacker in side(),
        defender in side(),
        factors in any::<[i32; 4]>(),
    ) {
        use skirmish_core::combat::{counter_blow, opposed_blow};
        use skirmish_core::fighter::{ExchangeRule, FudgeRules};
        let rules = FudgeRules::default();
        let blow = opposed_blow(attacker, defender, factors[0], factors[1]);
        let counter = counter_blow(&blow, &rules, factors[2], factors[3]);
        prop_assert!(!(blow.landed && counter.is_some()));
        let all_out = |s: Stance| s == Stance::AllOutOffense;
        if blow.degree == 0 && all_out(attacker.stance) == all_out(defender.stance) {
            prop_assert!(!blow.landed && counter.is_none());
        }
        if counter.is_some() {
            prop_assert!(blow.degree <= 0 && blow.defense >= defender.minimum);
            prop_assert!(defender.stance != Stance::AllOutDefense);
        }
        if blow.landed {
            prop_assert!(attacker.stance != Stance::AllOutDefense && blow.attack >= attacker.minimum);
        }
        let one_way = FudgeRules { exchange: ExchangeRule::OneWay, ..rules };
        prop_assert_eq!(counter_blow(&blow, &one_way, factors[2], factors[3]), None);
    }
}

proptest! {
    /// FUDGE 4.32 through the battle's and the tracker's arithmetic: with
    /// postures, `opposed_blow` and `counter_blow` are the chapter's
    /// postures round (`compare_postures`): each offense against the other's
    /// defense, both may hit, each by its own degree; one-way, only the
    /// striker's offense counts.
    #[test]
    fn the_blow_with_postures_is_the_round_of_4_32(
        skills in (-60i32..60, -60i32..60),
        rolls in (-4i32..=4, -4i32..=4),
        postures in (-2i32..=2, -2i32..=2),
        minimums in (-8i32..8, -8i32..8),
    ) {
        use skirmish_core::combat::{counter_blow, opposed_blow, OpposedSide};
        use skirmish_core::fighter::{ExchangeRule, FudgeRules};
        use skirmish_core::striking::opposed::{compare_postures, Posture, PostureFighter, PostureResult};
        let side = |skill, roll, posture, minimum| OpposedSide { posture, minimum, ..OpposedSide::new(skill, roll) };
        let blow = opposed_blow(
            side(skills.0, rolls.0, postures.0, minimums.0),
            side(skills.1, rolls.1, postures.1, minimums.1),
            0,
            0,
        );
        let rules = FudgeRules::default();
        let counter = counter_blow(&blow, &rules, 0, 0);
        let fighter = |skill: i32, posture: i32, minimum: i32| PostureFighter {
            minimum_to_hit: Level::new(minimum),
            ..PostureFighter::new(Level::new(skill), Posture::new(posture).unwrap())
        };
        let (first, second) = (fighter(skills.0, postures.0, minimums.0), fighter(skills.1, postures.1, minimums.1));
        let round = compare_postures(
            &first,
            PostureResult::new(first.skill, first.posture, rolls.0).unwrap(),
            &second,
            PostureResult::new(second.skill, second.posture, rolls.1).unwrap(),
        )
        .unwrap();
        prop_assert_eq!(blow.landed, round.first_strike.hit);
        prop_assert_eq!(blow.degree, round.first_strike.relative_degree);
        prop_assert_eq!(counter.is_some(), round.second_strike.hit);
        if let Some(damage) = counter {
            prop_assert_eq!(damage, round.second_strike.relative_degree);
        }
        let one_way = FudgeRules { exchange: ExchangeRule::OneWay, ..rules };
        prop_assert_eq!(counter_blow(&blow, &one_way, 0, 0), None);
    }
}

proptest! {
    /// The battle's and the tracker's arithmetic (`opposed_blow`, and
    /// `counter_blow` for the defender's answer, the minimums from
    /// `Bearing`) is 4.22's round (`exchange`, with 4.31's stances and
    /// aiming) for two fighters of any Scale, in any stance and aim:
    /// whoever `exchange` says hits, hits, by the same degree plus the same
    /// stance bonus; and a one-way strike is the round in which the
    /// defender cannot harm.
    #[test]
    fn the_blow_and_its_answer_are_the_round_of_4_22(
        attack in -60i32..60,
        defense in -60i32..60,
        minimum in -8i32..8,
        stances in (stance(), stance()),
        aims in (aim(), aim()),
        scales in (-12i32..12, -12i32..12),
    ) {
        use skirmish_core::combat::{counter_blow, opposed_blow, Bearing, OpposedSide};
        use skirmish_core::fighter::{ExchangeRule, FudgeRules};
        use skirmish_core::striking::opposed::TargetSize;
        let rules = FudgeRules { minimum_to_hit: Level::new(minimum), ..FudgeRules::default() };
        let bearing = |scale: i32, aim: Aim| Bearing { scale, aim, ..Bearing::default() };
        let (ba, bd) = (bearing(scales.0, aims.0), bearing(scales.1, aims.1));
        let side = |skill: i32, stance: Stance, me: &Bearing, foe: &Bearing| OpposedSide {
            stance,
            minimum: me.minimum_against(foe, minimum),
            ..OpposedSide::new(skill, 0)
        };
        let blow = opposed_blow(side(attack, stances.0, &ba, &bd), side(defense, stances.1, &bd, &ba), 0, 0);
        let counter = counter_blow(&blow, &rules, 0, 0);
        // The round sees the results, the stance's bonus included, and
        // finds the minimum itself from the target's size (the text's
        // minimum beside Poor, moved as far as the rules' minimum is from
        // Poor) and the aim.
        let shift = minimum - Level::POOR.value();
        let fighter = |total: i32, stance: Stance, aim: Aim, difference: i32| RolledCombatant {
            minimum_to_hit: TargetSize::by_scale(difference)
                .map_or(Level::new(minimum), |t| Level::new(t.minimum_to_hit().value() + shift)),
            stance,
            aim,
            ..RolledCombatant::new(Level::new(total))
        };
        let (first, second) = (
            fighter(blow.attack, stances.0, aims.0, scales.0 - scales.1),
            fighter(blow.defense, stances.1, aims.1, scales.1 - scales.0),
        );
        let round = exchange(&first, &second).unwrap();
        let (hits_first, hits_second) = match round.hit() {
            Some(h) if h.winner == RoundSide::First => (Some(h.relative_degree + h.damage_bonus), None),
            Some(h) => (None, Some(h.relative_degree + h.damage_bonus)),
            None => (None, None),
        };
        prop_assert_eq!(blow.landed.then_some(blow.damage), hits_first);
        prop_assert_eq!(counter, hits_second);
        let one_way = FudgeRules { exchange: ExchangeRule::OneWay, ..rules };
        let defends_only = RolledCombatant { can_harm: false, ..second };
        let round = exchange(&first, &defends_only).unwrap();
        prop_assert_eq!(blow.landed, round.hit().is_some());
        prop_assert_eq!(counter_blow(&blow, &one_way, 0, 0), None);
    }
}
