//! Strikes through the live tracker: the striking worked examples of the
//! texts, read from the same case files as the rules' own tests
//! (`tests/cases/full_contact.toml`, `fudge.toml`), played as a GM would at
//! the table with the texts' rolls typed in; then wounds, downs,
//! disruption, GM overrides, the players' view and errors.

use serde::Deserialize;
use skirmish_core::damage::{DamageConfig, HitPointsConfig, WoundLevel, WoundTrack};
use skirmish_core::fighter::{FighterProfile, FudgeRules, FullContactRules, Striking, WeaponChoice};
use skirmish_core::ladder::{CombatLevel, Level};
use skirmish_core::striking::full_contact::{RangedShot, StrikeOptions as FcOptions};
use skirmish_core::timing::{Declaration, InitiativeEntry, TimingSystem};
use skirmish_core::tracker::{
    CombatantId, Encounter, EncounterRules, EncounterStrikeOptions, ErrorKind, Status, StrikeDice, StrikeResult, Turn,
    ViewFor, WoundOverride,
};

fn fighter(name: &str, sr: i32, dr: i32) -> FighterProfile {
    let mut p = FighterProfile::new(name);
    p.strike_rating = sr;
    p.defense_rating = dr;
    p
}

fn duel(rules: EncounterRules, a: FighterProfile, b: FighterProfile) -> (Encounter, CombatantId, CombatantId) {
    let mut e = Encounter::with_rules(TimingSystem::continuous(), rules, 1).unwrap();
    let x = e.add_fighter("party", &a).unwrap()[0];
    let y = e.add_fighter("foes", &b).unwrap()[0];
    (e, x, y)
}

fn fc(options: FcOptions) -> EncounterRules {
    EncounterRules {
        striking: Striking::FullContact(FullContactRules::with(
            options.guaranteed_success_and_fumble,
            options.amazing,
            0,
        )),
        damage: DamageConfig::default(),
    }
}

#[derive(Deserialize)]
struct FcCases {
    strike: Vec<StrikeCase>,
    parry: Vec<ParryCase>,
}

#[derive(Deserialize)]
struct StrikeCase {
    example: String,
    strike_rating: i64,
    defense_rating: i64,
    roll: i32,
    #[serde(default)]
    options: FcOptions,
    range: Option<RangeCase>,
    outcome: Option<String>,
    margin: Option<i64>,
}

#[derive(Deserialize)]
struct RangeCase {
    short_range: i64,
    range_strength: i64,
    distance: i64,
}

#[derive(Deserialize)]
struct ParryCase {
    example: String,
    attack_strike_rating: i64,
    attack_roll: i32,
    parry_strike_rating: i64,
    parry_roll: i32,
    attack_total: Option<i32>,
    parry_total: Option<i32>,
    parried: Option<bool>,
    defense_rating: Option<i32>,
    then: Option<String>,
    #[serde(default)]
    options: FcOptions,
}

fn result_name(r: StrikeResult) -> &'static str {
    match r {
        StrikeResult::Hit => "hit",
        StrikeResult::AmazingStrike => "amazing_strike",
        StrikeResult::GuaranteedHit => "guaranteed_hit",
        StrikeResult::Miss => "miss",
        StrikeResult::AmazingDefense => "amazing_defense",
        StrikeResult::Fumble => "fumble",
        StrikeResult::OutOfReach => "out_of_reach",
        StrikeResult::Parried => "parried",
        StrikeResult::BelowMinimum => "below_minimum",
        StrikeResult::Countered => "countered",
        StrikeResult::CannotHarm => "cannot_harm",
    }
}

/// Every Full Contact strike case the tracker can field (ratings a fighter
/// may have, valid rolls): the same outcome and margin as the rule itself.
#[test]
fn full_contact_strike_cases_through_the_tracker() {
    let cases: FcCases = toml::from_str(include_str!("../cases/full_contact.toml")).unwrap();
    let mut played = 0;
    for c in &cases.strike {
        let (Some(outcome), Some(margin)) = (&c.outcome, c.margin) else {
            continue; // an error case of the rule itself
        };
        let (Ok(sr), Ok(dr)) = (i32::try_from(c.strike_rating), i32::try_from(c.defense_rating)) else {
            continue;
        };
        if sr.unsigned_abs() > 1000 || dr.unsigned_abs() > 1000 {
            continue; // beyond what a fighter may have: the rule's own overflow cases
        }
        let range = c
            .range
            .as_ref()
            .map(|r| RangedShot::new(r.short_range, r.range_strength, r.distance).unwrap());
        let (mut e, x, y) = duel(fc(c.options), fighter("A", sr, 3), fighter("B", 5, dr));
        let options = EncounterStrikeOptions {
            range,
            point_blank: c.options.point_blank,
            ..EncounterStrikeOptions::default()
        };
        let r = e.strike(x, y, options, StrikeDice::typed(c.roll, None)).unwrap();
        assert_eq!(result_name(r.result), outcome, "{}", c.example);
        assert_eq!(i64::from(r.margin), margin, "{}", c.example);
        assert_eq!(r.attack_roll, c.roll);
        assert_eq!(r.defense_total, dr, "{}", c.example);
        played += 1;
    }
    assert!(played >= 20, "only {played} cases played");
}

/// Brooklyn's two parries, and the parry edge cases.
#[test]
fn parry_cases_through_the_tracker() {
    let cases: FcCases = toml::from_str(include_str!("../cases/full_contact.toml")).unwrap();
    assert!(!cases.parry.is_empty());
    for c in &cases.parry {
        let (Some(attack_total), Some(parry_total), Some(parried)) = (c.attack_total, c.parry_total, c.parried) else {
            continue; // an error case of the rule itself
        };
        let (Ok(asr), Ok(psr)) = (
            i32::try_from(c.attack_strike_rating),
            i32::try_from(c.parry_strike_rating),
        ) else {
            continue;
        };
        if asr.unsigned_abs() > 1000 || psr.unsigned_abs() > 1000 {
            continue;
        }
        let dr = c.defense_rating.unwrap_or(7);
        let (mut e, guard, brooklyn) = duel(fc(c.options), fighter("guard", asr, 3), fighter("Brooklyn", psr, dr));
        let options = EncounterStrikeOptions {
            parry: true,
            ..EncounterStrikeOptions::default()
        };
        let r = e
            .strike(
                guard,
                brooklyn,
                options,
                StrikeDice::typed(c.attack_roll, Some(c.parry_roll)),
            )
            .unwrap();
        assert_eq!(r.attack_total, attack_total, "{}", c.example);
        assert_eq!(r.parry_total, Some(parry_total), "{}", c.example);
        assert_eq!(r.result == StrikeResult::Parried, parried, "{}", c.example);
        if let Some(then) = &c.then {
            assert_eq!(result_name(r.result), then, "{}", c.example);
        }
    }
}

#[derive(Deserialize)]
struct FudgeCases {
    exchange: Vec<ExchangeCase>,
    postures: Vec<PostureCase>,
}

#[derive(Deserialize)]
struct PostureCase {
    name: String,
    first: PostureSide,
    second: PostureSide,
    expect: toml::Table,
}

#[derive(Deserialize)]
struct PostureSide {
    skill: Level,
    posture: i32,
    roll: Option<i32>,
    #[serde(default)]
    npc: bool,
}

#[derive(Deserialize)]
struct ExchangeCase {
    name: String,
    first: Side,
    second: Side,
    expect: Expect,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Side {
    result: Level,
    #[serde(default)]
    stance: skirmish_core::striking::opposed::Stance,
    #[serde(default)]
    aim: skirmish_core::striking::opposed::Aim,
    target_size: Option<skirmish_core::striking::opposed::TargetSize>,
    #[serde(default = "yes")]
    can_harm: bool,
    #[serde(default)]
    critical: bool,
}

fn yes() -> bool {
    true
}

impl Side {
    /// This side as a tracker fighter whose result, rolling 0, is the
    /// case's: the skill less the stance's bonus and the aim's penalty;
    /// the target's size as a Scale difference (the first fighter's Scale
    /// against a second of Scale 0: `TargetSize::by_scale`'s steps).
    fn profile(&self, name: &str, scale: i32) -> FighterProfile {
        let mut p = FighterProfile::new(name);
        p.skill = CombatLevel::plain(Level::new(
            self.result.value() - self.stance.skill_bonus() - self.aim.penalty(),
        ));
        p.stance = self.stance;
        p.aim = self.aim;
        p.scale = scale;
        p
    }
}

#[derive(Deserialize)]
struct Expect {
    relative_degree: i32,
    hit: Option<String>,
}

/// FUDGE 4.22's exchanges with 4.31's stances and aims and targets of
/// every size (as Scales): the tracker's opposed strike (skill at the
/// result, rolling 0) gives the same relative degree, hits exactly when the
/// first fighter wins a hit, and is countered exactly when the second does.
/// (A defender who can only defend, or a critical result, is not a
/// tracker fighter's: those cases stay the core's.)
#[test]
fn fudge_exchanges_through_the_tracker() {
    let cases: FudgeCases = toml::from_str(include_str!("../cases/fudge.toml")).unwrap();
    let rules = EncounterRules {
        striking: Striking::FudgeOpposed(FudgeRules::default()),
        damage: DamageConfig::default(),
    };
    let mut played = 0;
    for c in &cases.exchange {
        if !c.first.can_harm || !c.second.can_harm || c.first.critical || c.second.critical {
            continue;
        }
        use skirmish_core::striking::opposed::TargetSize;
        let scale = match c.first.target_size.unwrap_or_default() {
            TargetSize::Larger => -1,
            TargetSize::RoughlyEqual => 0,
            TargetSize::Smaller => 1,
            TargetSize::MuchSmaller => 3,
            TargetSize::Tiny => 6,
            TargetSize::VeryTiny => 9,
        };
        // The second's size of the first follows from the Scales.
        if let Some(size) = c.second.target_size {
            assert_eq!(Some(size), TargetSize::by_scale(-scale), "{}", c.name);
        }
        let (a, b) = (c.first.profile("first", scale), c.second.profile("second", 0));
        let (mut e, x, y) = duel(rules.clone(), a, b);
        let r = e
            .strike(x, y, EncounterStrikeOptions::default(), StrikeDice::typed(0, Some(0)))
            .unwrap();
        assert_eq!(r.margin, c.expect.relative_degree, "{}", c.name);
        assert_eq!(r.landed, c.expect.hit.as_deref() == Some("first"), "{}", c.name);
        // The two-way exchange: the second fighter, struck, hurts the first
        // exactly when the text's round says he hits.
        assert_eq!(
            r.result == StrikeResult::Countered,
            c.expect.hit.as_deref() == Some("second"),
            "{}",
            c.name
        );
        played += 1;
    }
    assert!(played >= 9, "only {played} exchanges played");
}

/// A target already out of the fight does not answer: a fighter down since
/// an earlier moment loses no exchange to the one who strikes him, however
/// badly the striker rolls; one taken out at this very moment still does
/// (simultaneity).
#[test]
fn only_a_target_still_fighting_answers() {
    let rules = EncounterRules {
        striking: Striking::FudgeOpposed(FudgeRules::default()),
        damage: DamageConfig::default(),
    };
    let (mut e, x, y) = duel(rules, FighterProfile::new("X"), FighterProfile::new("Y"));
    while !matches!(e.next().unwrap(), Turn::Moment { .. }) {}
    e.down(y).unwrap();
    // Taken out at this moment: Y still answers a bad blow.
    let r = e
        .strike(x, y, EncounterStrikeOptions::default(), StrikeDice::typed(-1, Some(1)))
        .unwrap();
    assert_eq!(
        (r.result, r.counter_damage > 0),
        (StrikeResult::Countered, true),
        "{}",
        r.text
    );
    // A moment later he is only a body on the floor.
    assert!(matches!(
        e.next().unwrap(),
        Turn::Moment { .. } | Turn::NewRound { .. } | Turn::Over
    ));
    let r = e
        .strike(x, y, EncounterStrikeOptions::default(), StrikeDice::typed(-1, Some(1)))
        .unwrap();
    assert_eq!((r.result, r.counter_damage), (StrikeResult::Miss, 0), "{}", r.text);
}

/// The ambush as the texts fight it: Cardiff (SR 9) hits the goblin sentry
/// (DR 6) on a -1, by 2 (a Scratch on the default wound track); the
/// goblin's +2 against Cardiff's DR 7 ties and misses.
#[test]
fn cardiff_and_the_goblin() {
    let mut cardiff = fighter("Cardiff", 9, 7);
    cardiff.weapon = Some(WeaponChoice::Named("Sword, Two-Handed".into()));
    let mut goblin = fighter("Goblin", 5, 6);
    goblin.weapon = Some(WeaponChoice::Named("Pike/Pole-arm".into()));
    let mut e = Encounter::new(TimingSystem::continuous(), 3).unwrap();
    let c = e.add_fighter("party", &cardiff).unwrap()[0];
    let g = e.add_fighter("goblins", &goblin).unwrap()[0];
    let hit = e
        .strike(c, g, EncounterStrikeOptions::default(), StrikeDice::typed(-1, None))
        .unwrap();
    assert_eq!(
        (hit.attack_total, hit.defense_total, hit.result, hit.margin),
        (8, 6, StrikeResult::Hit, 2)
    );
    assert_eq!(hit.attack_breakdown.iter().map(|p| p.value).sum::<i32>(), 8);
    assert_eq!((hit.damage, hit.wound, hit.penalty), (2, Some(WoundLevel::Scratch), 0));
    assert!(!hit.went_down);
    // The goblin's +2 against Cardiff's DR 7 (3 + 2 skill - 1 Agility + 5 armor): a tie, the defender's.
    let miss = e
        .strike(g, c, EncounterStrikeOptions::default(), StrikeDice::typed(2, None))
        .unwrap();
    assert_eq!(
        (miss.attack_total, miss.defense_total, miss.result, miss.damage),
        (7, 7, StrikeResult::Miss, 0)
    );
    assert!(
        e.log()
            .iter()
            .any(|l| l.text.contains("Goblin strikes Cardiff: 7 vs 7, miss"))
    );
}

/// Wounds feed later rolls, but only from the next moment (simultaneity);
/// a fighter taken out is down, its action cancelled, and it still strikes
/// back in the moment it fell.
#[test]
fn wounds_penalties_downs_and_simultaneity() {
    let mut e = Encounter::new(TimingSystem::continuous(), 5).unwrap();
    let a = e.add_fighter("A", &fighter("Axe", 10, 3)).unwrap()[0];
    let b = e.add_fighter("B", &fighter("Bob", 10, 3)).unwrap()[0];
    e.set_initiative(a, InitiativeEntry::Total(4)).unwrap();
    e.set_initiative(b, InitiativeEntry::Total(4)).unwrap();
    assert!(matches!(e.next().unwrap(), Turn::NewRound { .. }));
    let Turn::Moment { lines, .. } = e.next().unwrap() else {
        panic!("a moment")
    };
    assert_eq!(lines.len(), 2, "both act at tick 4");
    // A wounds B Hurt (10 + 0 - 3 = 7 ... damage 7 is Incapacitated; roll -3 gives 4: Hurt).
    let r = e
        .strike(a, b, EncounterStrikeOptions::default(), StrikeDice::typed(-3, None))
        .unwrap();
    assert_eq!((r.damage, r.wound, r.penalty), (4, Some(WoundLevel::Hurt), -1));
    // B strikes back in the same moment without the -1 (it counts from the next).
    let back = e
        .strike(b, a, EncounterStrikeOptions::default(), StrikeDice::typed(-3, None))
        .unwrap();
    assert_eq!(back.attack_total, 7);
    assert!(back.attack_breakdown.iter().all(|p| p.label != "Hurt"));
    // Next moment: the penalty shows.
    e.declare(a, "axe", Declaration::new(3, 0), Some(0)).unwrap();
    e.declare(b, "axe", Declaration::new(3, 0), Some(0)).unwrap();
    e.next().unwrap();
    let later = e
        .strike(b, a, EncounterStrikeOptions::default(), StrikeDice::typed(-4, None))
        .unwrap();
    assert_eq!(later.attack_total, 5, "10 - 1 Hurt - 4");
    assert!(
        later
            .attack_breakdown
            .iter()
            .any(|p| p.label == "Hurt" && p.value == -1)
    );
    // A fells B: B is down, its pending action gone; it strikes back at once.
    let fell = e
        .strike(a, b, EncounterStrikeOptions::default(), StrikeDice::typed(4, None))
        .unwrap();
    assert!(fell.went_down);
    let view = e.view(ViewFor::Gm);
    assert_eq!(view.combatants[b.0 as usize].status, Status::Down);
    assert!(
        view.sheet
            .iter()
            .all(|l| l.lines.iter().all(|x| !x.members.contains(&b)))
    );
    e.strike(b, a, EncounterStrikeOptions::default(), StrikeDice::typed(0, None))
        .expect("a fighter downed in this moment still strikes in it");
    e.undo().unwrap(); // (that blow would have felled Axe too)
    // ...but not in the next.
    e.declare(a, "axe", Declaration::new(3, 0), Some(0)).unwrap();
    e.next().unwrap();
    let err = e
        .strike(b, a, EncounterStrikeOptions::default(), StrikeDice::typed(0, None))
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::NotNow);
}

/// A hit before a disruptible action (a spell) lands disrupts it.
#[test]
fn a_hit_disrupts_a_pending_spell() {
    let mut e = Encounter::new(TimingSystem::continuous(), 9).unwrap();
    let mut shaman = fighter("Shaman", 5, 3);
    shaman.disruptible = true;
    shaman.weapon = Some(WeaponChoice::Custom(skirmish_core::fighter::CustomWeapon {
        name: "Spark".into(),
        time_taken: 8,
        rate_of_fire: skirmish_core::tables::weapons::RateOfFire::ONE,
    }));
    let s = e.add_fighter("goblins", &shaman).unwrap()[0];
    let r = e.add_fighter("party", &fighter("Roland", 8, 5)).unwrap()[0];
    e.set_initiative(s, InitiativeEntry::Total(12)).unwrap();
    e.set_initiative(r, InitiativeEntry::Total(3)).unwrap();
    e.next().unwrap();
    e.next().unwrap(); // Roland at 3
    let hit = e
        .strike(r, s, EncounterStrikeOptions::default(), StrikeDice::typed(0, None))
        .unwrap();
    assert!(hit.landed && hit.disrupted, "{hit:?}");
    assert!(e.log().iter().any(|l| l.text == "Shaman's Spark is disrupted"));
    e.undo().unwrap();
    assert!(
        e.view(ViewFor::Gm)
            .sheet
            .iter()
            .any(|l| l.lines.iter().any(|x| x.name == "Shaman"))
    );
}

#[test]
fn hit_points_and_gm_overrides() {
    let rules = EncounterRules {
        striking: Striking::default(),
        damage: DamageConfig::HitPoints(HitPointsConfig {
            max_hp: 6,
            ..HitPointsConfig::default()
        }),
    };
    let mut big = fighter("Ogre", 6, 3);
    big.hit_points = Some(12);
    let (mut e, x, y) = duel(rules, fighter("A", 8, 3), big);
    let r = e
        .strike(x, y, EncounterStrikeOptions::default(), StrikeDice::typed(0, None))
        .unwrap();
    assert_eq!((r.damage, r.hit_points), (5, Some(7)));
    e.set_damage(y, WoundOverride::HitPoints { hp: 2 }).unwrap();
    assert_eq!(e.view(ViewFor::Gm).combatants[1].hit_points, Some(2));
    assert_eq!(
        e.set_damage(y, WoundOverride::HitPoints { hp: 13 }).unwrap_err().kind(),
        ErrorKind::InvalidInput
    );
    assert_eq!(
        e.set_damage(
            y,
            WoundOverride::Wounds {
                track: WoundTrack::new()
            }
        )
        .unwrap_err()
        .kind(),
        ErrorKind::InvalidInput
    );
    e.set_damage(y, WoundOverride::HitPoints { hp: 0 }).unwrap();
    assert_eq!(e.view(ViewFor::Gm).combatants[1].status, Status::Down);
    assert_eq!(
        e.set_damage(y, WoundOverride::Heal).unwrap_err().kind(),
        ErrorKind::NotNow
    );
    e.undo().unwrap();
    e.set_damage(y, WoundOverride::Heal).unwrap();
    assert_eq!(e.view(ViewFor::Gm).combatants[1].hit_points, Some(12));
}

#[test]
fn the_players_view_hides_what_the_gm_keeps() {
    let mut e = Encounter::new(TimingSystem::continuous(), 2).unwrap();
    let hero = e.add_fighter("party", &fighter("Hero", 8, 3)).unwrap()[0];
    let orc = e.add_fighter("orcs", &fighter("Orc", 6, 3)).unwrap()[0];
    let mut lurker = fighter("Lurker", 6, 3);
    lurker.count = 2;
    let lurkers = e.add_fighter("orcs", &lurker).unwrap();
    for l in &lurkers {
        e.hide(*l).unwrap();
    }
    e.set_party(Some("party")).unwrap();
    e.strike(
        hero,
        orc,
        EncounterStrikeOptions::default(),
        StrikeDice::typed(-2, None),
    )
    .unwrap();
    let gm = e.view(ViewFor::Gm);
    let players = e.view(ViewFor::Players);
    assert_eq!(gm.combatants.len(), 4);
    assert_eq!(players.combatants.len(), 2, "the hidden lurkers are left out");
    let orc_seen = &players.combatants[1];
    assert_eq!(orc_seen.wound, Some(WoundLevel::Hurt), "how hurt it looks");
    assert_eq!((orc_seen.wound_boxes, orc_seen.penalty), (None, None), "not its boxes");
    assert!(players.combatants[0].wound_boxes.is_some(), "the party's own are shown");
    assert!(
        players.sheet.iter().all(|l| l.lines.iter().all(|x| x.name != "Lurker")),
        "nor on the sheet"
    );
    e.reveal(lurkers[0]).unwrap();
    assert_eq!(e.view(ViewFor::Players).combatants.len(), 3);
    assert_eq!(e.reveal(lurkers[0]).unwrap_err().kind(), ErrorKind::NotNow);
    e.undo().unwrap();
    assert_eq!(e.view(ViewFor::Players).combatants.len(), 2);
}

#[test]
fn bad_strikes_are_typed_and_change_nothing() {
    let mut e = Encounter::new(TimingSystem::continuous(), 2).unwrap();
    let a = e.add_fighter("A", &fighter("A", 8, 3)).unwrap()[0];
    let b = e.add_fighter("B", &fighter("B", 6, 3)).unwrap()[0];
    let plain = e
        .add_combatant(skirmish_core::tracker::CombatantSpec::new(
            "plain",
            Declaration::new(3, 0),
        ))
        .unwrap();
    let before = e.snapshot().unwrap();
    let d = StrikeDice::default();
    let cases = [
        (
            e.strike(a, CombatantId(99), EncounterStrikeOptions::default(), d),
            ErrorKind::NotFound,
            "combatant",
        ),
        (
            e.strike(a, a, EncounterStrikeOptions::default(), d),
            ErrorKind::InvalidInput,
            "target",
        ),
        (
            e.strike(a, plain, EncounterStrikeOptions::default(), d),
            ErrorKind::InvalidInput,
            "target",
        ),
        (
            e.strike(a, b, EncounterStrikeOptions::default(), StrikeDice::typed(5, None)),
            ErrorKind::InvalidInput,
            "dice.attack",
        ),
        (
            e.strike(
                a,
                b,
                EncounterStrikeOptions {
                    parry: true,
                    ..EncounterStrikeOptions::default()
                },
                StrikeDice::typed(0, Some(-9)),
            ),
            ErrorKind::InvalidInput,
            "dice.defense",
        ),
        (
            e.strike(
                a,
                b,
                EncounterStrikeOptions {
                    modifier: i32::MIN,
                    ..EncounterStrikeOptions::default()
                },
                d,
            ),
            ErrorKind::InvalidInput,
            "options.modifier",
        ),
    ];
    for (got, kind, field) in cases {
        let err = got.unwrap_err();
        assert_eq!((err.kind(), err.field()), (kind, Some(field)), "{err}");
    }
    assert_eq!(e.snapshot().unwrap(), before);
    let mut p = fighter("bad", 5, 3);
    p.strike_rating = 5000;
    let err = e.add_fighter("x", &p).unwrap_err();
    assert_eq!(
        (err.kind(), err.field()),
        (ErrorKind::InvalidInput, Some("profile.strike_rating"))
    );
    p.strike_rating = 5;
    p.weapon = Some(WeaponChoice::Named("lightsabre".into()));
    assert_eq!(e.add_fighter("x", &p).unwrap_err().kind(), ErrorKind::InvalidInput);
}

/// The result's words follow 4.31's tie rule: an attacker who ties an
/// all-out attacker has won (below the minimum, or unable to harm in
/// all-out defense), not missed.
#[test]
fn a_tie_against_an_all_out_attacker_is_won() {
    use skirmish_core::striking::opposed::Stance;
    let rules = EncounterRules {
        striking: Striking::FudgeOpposed(FudgeRules::default()),
        damage: DamageConfig::default(),
    };
    let mut turtle = FighterProfile::new("X");
    turtle.stance = Stance::AllOutDefense;
    let mut berserk = FighterProfile::new("Y");
    berserk.skill = CombatLevel::plain(Level::new(1));
    berserk.stance = Stance::AllOutOffense;
    // X: Fair 0 + 2 + roll 0 = 2; Y: Good 1 + 1 + roll 0 = 2: a tie Y loses.
    let (mut e, x, y) = duel(rules.clone(), turtle, berserk.clone());
    let r = e
        .strike(x, y, EncounterStrikeOptions::default(), StrikeDice::typed(0, Some(0)))
        .unwrap();
    assert_eq!(
        (r.margin, r.result, r.landed),
        (0, StrikeResult::CannotHarm, false),
        "{}",
        r.text
    );
    // A plain attacker at -4 ties a Poor berserker (-2 + 1 - 3 = -4) and
    // wins, but below Poor.
    let mut weak = FighterProfile::new("W");
    weak.skill = CombatLevel::plain(Level::new(-4));
    berserk.skill = CombatLevel::plain(Level::new(-2));
    let (mut e, w, y) = duel(rules, weak, berserk);
    let r = e
        .strike(w, y, EncounterStrikeOptions::default(), StrikeDice::typed(0, Some(-3)))
        .unwrap();
    assert_eq!((r.margin, r.result), (0, StrikeResult::BelowMinimum), "{}", r.text);
}

/// FUDGE 4.31-4.33 through the tracker: a shield, aim, position and Scale
/// count in the breakdown and the result as in a battle; an NPC rolls no
/// dice (a typed roll other than 0 is refused); the tactics change
/// mid-fight, undoably, and are refused where they mean nothing.
#[test]
fn tactics_scale_and_npcs_through_the_tracker() {
    use skirmish_core::fighter::Tactics;
    use skirmish_core::striking::opposed::{Aim, Position, Shield, ShieldSize, Stance};
    let rules = EncounterRules {
        striking: Striking::FudgeOpposed(FudgeRules::default()),
        damage: DamageConfig::default(),
    };
    let mut knight = FighterProfile::new("Knight");
    knight.skill = CombatLevel::plain(Level::GOOD);
    knight.shield = Some(Shield::new(ShieldSize::Large));
    let mut troll = FighterProfile::new("Troll");
    troll.scale = 3;
    troll.npc_result = true;
    let (mut e, k, t) = duel(rules.clone(), knight, troll);
    // Knight: Good 1 - 2 own large shield + roll 1 = 0; the troll: Fair 0
    // - 2 the knight's shield, no roll = -2. The knight wins by 2; he hits a
    // bigger foe with anything; damage 2 - 3 (the troll's Scale) = -1.
    let r = e
        .strike(k, t, EncounterStrikeOptions::default(), StrikeDice::typed(1, None))
        .unwrap();
    assert_eq!(
        (r.attack_total, r.defense_total, r.landed, r.damage),
        (0, -2, true, -1),
        "{}",
        r.text
    );
    let names =
        |parts: &[skirmish_core::tracker::Part]| parts.iter().map(|p| (p.label.clone(), p.value)).collect::<Vec<_>>();
    assert_eq!(
        names(&r.attack_breakdown),
        [
            ("skill".to_string(), 1),
            ("own large shield".to_string(), -2),
            ("roll".to_string(), 1)
        ]
    );
    assert_eq!(
        names(&r.defense_breakdown),
        [
            ("skill".to_string(), 0),
            ("foe's shield".to_string(), -2),
            ("roll".to_string(), 0)
        ]
    );
    // The troll's own blow: it needs Fair against a foe 3 Scales smaller.
    // -2 against the knight's -3 (1 - 2 his shield, roll -2): wins by 1,
    // below Fair.
    let r = e
        .strike(t, k, EncounterStrikeOptions::default(), StrikeDice::typed(0, Some(-2)))
        .unwrap();
    assert_eq!((r.margin, r.result), (1, StrikeResult::BelowMinimum), "{}", r.text);
    // An NPC's typed roll other than 0 is refused, and changes nothing.
    let before = e.snapshot().unwrap();
    let err = e
        .strike(t, k, EncounterStrikeOptions::default(), StrikeDice::typed(2, Some(0)))
        .unwrap_err();
    assert_eq!(
        (err.kind(), err.field()),
        (ErrorKind::InvalidInput, Some("dice.attack")),
        "{err}"
    );
    assert!(err.to_string().contains("FUDGE 4.33"), "{err}");
    assert_eq!(e.snapshot().unwrap(), before);
    // Mid-fight: the knight drops his shield and aims at the troll's eye
    // from a worse position; undo puts the shield back.
    let aimed = Tactics {
        stance: Stance::Normal,
        shield: None,
        aim: Aim::SmallPartNeedingGreat,
        position: Position::Worse,
        ..Tactics::default()
    };
    e.set_tactics(k, aimed).unwrap();
    assert!(e.log().last().unwrap().text.contains("aim small_part_needing_great"));
    // Good 1 - 1 position - 1 aiming + roll 1 = 0 against -0 (no shield
    // now): 0 vs 0, a tie.
    let r = e
        .strike(k, t, EncounterStrikeOptions::default(), StrikeDice::typed(1, None))
        .unwrap();
    assert_eq!(
        (r.attack_total, r.defense_total, r.result),
        (0, 0, StrikeResult::Miss),
        "{}",
        r.text
    );
    // ... and +2 makes Good (1), the least result that hits when aiming.
    let r = e
        .strike(k, t, EncounterStrikeOptions::default(), StrikeDice::typed(2, None))
        .unwrap();
    assert_eq!(
        (r.attack_total, r.margin, r.result),
        (1, 1, StrikeResult::Hit),
        "{}",
        r.text
    );
    e.undo().unwrap();
    e.undo().unwrap();
    e.undo().unwrap();
    assert_eq!(e.snapshot().unwrap(), before);
    // Refused: a combatant down, and any encounter under Full Contact.
    let (mut fc_e, a, _) = duel(fc(FcOptions::default()), fighter("A", 5, 5), fighter("B", 5, 5));
    let err = fc_e.set_tactics(a, Tactics::default()).unwrap_err();
    assert_eq!(err.field(), Some("tactics"));
    e.down(k).unwrap();
    assert_eq!(e.set_tactics(k, aimed).unwrap_err().kind(), ErrorKind::NotNow);
}

/// FUDGE 4.32's postures through the tracker, from the same case file as
/// the core's round (`[[postures]]`, the text's example first): both
/// fighters' postures given for the exchange, the text's rolls typed in;
/// each offense meets the other's defense, both may hit, and a posture
/// outside the five is refused naming the field.
#[test]
fn postures_through_the_tracker() {
    let cases: FudgeCases = toml::from_str(include_str!("../cases/fudge.toml")).unwrap();
    let rules = EncounterRules {
        striking: Striking::FudgeOpposed(FudgeRules::default()),
        damage: DamageConfig::default(),
    };
    let level = |t: &toml::Table, side: &str, key: &str| -> i32 {
        let name = t[side][key].as_str().unwrap();
        name.parse::<Level>().unwrap().value()
    };
    let mut played = 0;
    for c in &cases.postures {
        let profile = |s: &PostureSide, name: &str| {
            let mut p = FighterProfile::new(name);
            p.skill = CombatLevel::plain(s.skill);
            p.npc_result = s.npc;
            p
        };
        let (mut e, x, y) = duel(rules.clone(), profile(&c.first, "first"), profile(&c.second, "second"));
        let options = EncounterStrikeOptions {
            attacker_posture: Some(c.first.posture),
            defender_posture: Some(c.second.posture),
            ..EncounterStrikeOptions::default()
        };
        let r = e.strike(
            x,
            y,
            options,
            StrikeDice::typed(c.first.roll.unwrap_or(0), c.second.roll),
        );
        if let Some(field) = c.expect.get("error") {
            let err = r.unwrap_err();
            assert_eq!(err.kind(), ErrorKind::InvalidInput, "{}", c.name);
            assert!(
                err.field().unwrap().ends_with(field.as_str().unwrap()),
                "{}: {err}",
                c.name
            );
            continue;
        }
        let r = r.unwrap();
        assert_eq!(r.attack_total, level(&c.expect, "first", "offense"), "{}", c.name);
        assert_eq!(r.defense_total, level(&c.expect, "second", "defense"), "{}", c.name);
        let strike = |key: &str| {
            let t = c.expect[key].as_table().unwrap();
            (
                t["relative_degree"].as_integer().unwrap() as i32,
                t["hit"].as_bool().unwrap(),
            )
        };
        let (first_degree, first_hit) = strike("first_strike");
        let (second_degree, second_hit) = strike("second_strike");
        assert_eq!(
            (r.margin, r.landed),
            (first_degree, first_hit),
            "{}: {}",
            c.name,
            r.text
        );
        // No damage factors: the second's damage is its strike's degree.
        assert_eq!(
            r.counter_damage > 0 || (second_hit && second_degree == 0),
            second_hit,
            "{}: {}",
            c.name,
            r.text
        );
        if second_hit {
            assert_eq!(r.counter_damage, second_degree, "{}: {}", c.name, r.text);
        }
        if first_hit && second_hit {
            assert!(r.text.contains("second hits back by"), "{}", r.text);
        }
        played += 1;
    }
    assert_eq!(played, 2, "the text's example and the NPC's");
}

#[test]
fn an_amazing_strike_doubles_at_the_table() {
    use skirmish_core::fighter::AmazingStrikeRule;
    let doubled = FullContactRules {
        amazing: true,
        amazing_strike: AmazingStrikeRule::DoubleDamage,
        ..FullContactRules::default()
    };
    let rules = EncounterRules {
        striking: Striking::FullContact(doubled),
        damage: DamageConfig::default(),
    };
    // Cardiff (SR 9) rolls +1 at the goblin (DR 6): 10 - 6 = 4, amazing; doubled, 8.
    let (mut e, cardiff, goblin) = duel(rules, fighter("Cardiff", 9, 7), fighter("Goblin", 5, 6));
    let r = e
        .strike(
            cardiff,
            goblin,
            EncounterStrikeOptions::default(),
            StrikeDice::typed(1, None),
        )
        .unwrap();
    assert_eq!((r.result, r.margin, r.damage), (StrikeResult::AmazingStrike, 4, 8));
    // A disarm or a knock-down: `tracker_amazing.rs`.
}
