//! Property tests of the whole tracker: random operation sequences with
//! strikes, wounds, GM overrides, hiding, undo/redo and snapshot/restore,
//! under all six timing systems, both striking systems and both damage
//! models, every input drawn from its whole range (with the interesting
//! small values mixed in, so that sequences also do something).
//!
//! Checked: nothing panics (this runs with overflow checks); a refused
//! operation changes nothing; undo restores exactly and redo redoes
//! exactly; a restored snapshot continues identically.

use proptest::prelude::*;
use skirmish_core::damage::{DamageConfig, HitPointsConfig, WoundTrack};
use skirmish_core::fighter::{FighterProfile, FudgeRules, FullContactRules, Striking};
use skirmish_core::ladder::{CombatLevel, Level};
use skirmish_core::striking::full_contact::RangedShot;
use skirmish_core::timing::{Declaration, GmTiming, InitiativeEntry, TimingSystem};
use skirmish_core::tracker::{
    CombatantId, Duration, Encounter, EncounterRules, EncounterStrikeOptions, SNAPSHOT_HISTORY, StrikeDice, ViewFor,
    WoundOverride,
};

fn systems() -> Vec<TimingSystem> {
    TimingSystem::NAMES
        .iter()
        .map(|n| TimingSystem::by_name(n).unwrap())
        .collect()
}

/// Any i32, often a small one.
fn int(small: std::ops::Range<i32>) -> impl Strategy<Value = i32> {
    prop_oneof![3 => small, 1 => any::<i32>(), 1 => Just(i32::MIN), 1 => Just(i32::MAX)]
}

fn uint(small: std::ops::Range<u32>) -> impl Strategy<Value = u32> {
    prop_oneof![3 => small, 1 => any::<u32>(), 1 => Just(u32::MAX)]
}

fn who() -> impl Strategy<Value = u32> {
    uint(0..7)
}

#[derive(Debug, Clone)]
enum Op {
    Next,
    Strike {
        a: u32,
        t: u32,
        parry: bool,
        range: Option<(i64, i64, i64)>,
        point_blank: bool,
        modifier: i32,
        attack: Option<i32>,
        defense: Option<i32>,
        postures: (Option<i32>, Option<i32>),
    },
    /// FUDGE tactics: stance, shield size (0 none), aim, position, posture
    /// (as a mixed strategy when above 2).
    Tactics(u32, [u8; 5]),
    /// FUDGE 4.34: a lone fighter against foes, with the GM's group roll,
    /// the foes ignored and struck (by their place among the foes), and
    /// typed dice.
    Many {
        lone: u32,
        foes: Vec<u32>,
        group: bool,
        ignore: Vec<u8>,
        strike: Vec<u8>,
        lone_roll: Option<i32>,
        rolls: Vec<Option<i32>>,
    },
    /// FUDGE 4.31: a scouting roll (who, the foe, a typed 4dF, sometimes
    /// one the dice cannot show).
    Scout(u32, u32, Option<i32>),
    Declare {
        who: u32,
        tt: i32,
        bonus: i32,
        roll: Option<i32>,
        gm: Option<u32>,
    },
    Delay(u32, u32),
    Initiative(u32, i64),
    InitiativeRoll(u32, i32),
    Hp(u32, i32),
    Wounds(u32, [u8; 5]),
    Heal(u32),
    Hide(u32),
    Reveal(u32),
    Party(bool),
    Effect(u64),
    EffectRounds(u32),
    Down(u32),
    Cancel(u32),
    Undo,
    Redo,
    Reload,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        8 => Just(Op::Next),
        8 => (who(), who(), any::<bool>(), proptest::option::of((any::<i64>(), any::<i64>(), any::<i64>())),
              any::<bool>(), int(-2..3), proptest::option::of(int(-4..5)), proptest::option::of(int(-4..5)),
              (proptest::option::of(int(-3..4)), proptest::option::of(int(-3..4))))
            .prop_map(|(a, t, parry, range, point_blank, modifier, attack, defense, postures)| Op::Strike {
                a, t, parry: parry && a % 2 == 0, range: range.filter(|_| t % 3 == 0), point_blank, modifier, attack, defense,
                postures }),
        2 => (who(), any::<[u8; 5]>()).prop_map(|(w, t)| Op::Tactics(w, t)),
        2 => (who(), who(), proptest::option::of(int(-5..6))).prop_map(|(w, f, r)| Op::Scout(w, f, r)),
        3 => (who(), prop::collection::vec(who(), 0..8), any::<bool>(), prop::collection::vec(0u8..8, 0..3),
              prop::collection::vec(0u8..8, 0..3), proptest::option::of(int(-5..6)),
              prop::collection::vec(proptest::option::of(int(-5..6)), 0..4))
            .prop_map(|(lone, foes, group, ignore, strike, lone_roll, rolls)| Op::Many {
                lone, foes, group, ignore, strike, lone_roll, rolls }),
        3 => (who(), int(0..10), int(-2..3), proptest::option::of(int(-2..3)), proptest::option::of(uint(0..8)))
            .prop_map(|(who, tt, bonus, roll, gm)| Op::Declare { who, tt, bonus, roll, gm }),
        1 => (who(), uint(0..5)).prop_map(|(w, t)| Op::Delay(w, t)),
        1 => (who(), prop_oneof![3 => -1i64..25, 1 => any::<i64>()]).prop_map(|(w, t)| Op::Initiative(w, t)),
        1 => (who(), int(-4..5)).prop_map(|(w, r)| Op::InitiativeRoll(w, r)),
        1 => (who(), int(-3..13)).prop_map(|(w, h)| Op::Hp(w, h)),
        1 => (who(), prop_oneof![3 => prop::array::uniform5(0u8..3), 1 => any::<[u8; 5]>()]).prop_map(|(w, b)| Op::Wounds(w, b)),
        1 => who().prop_map(Op::Heal),
        1 => who().prop_map(Op::Hide),
        1 => who().prop_map(Op::Reveal),
        1 => any::<bool>().prop_map(Op::Party),
        1 => prop_oneof![3 => 0u64..30, 1 => any::<u64>()].prop_map(Op::Effect),
        1 => uint(0..3).prop_map(Op::EffectRounds),
        1 => who().prop_map(Op::Down),
        1 => who().prop_map(Op::Cancel),
        2 => Just(Op::Undo),
        1 => Just(Op::Redo),
        1 => Just(Op::Reload),
    ]
}

fn encounter(system: &TimingSystem, fudge: bool, hp: bool, seed: u64) -> Encounter {
    let rules = EncounterRules {
        striking: if fudge {
            Striking::FudgeOpposed(FudgeRules::default())
        } else {
            Striking::FullContact(FullContactRules::with(
                seed.is_multiple_of(2),
                seed.is_multiple_of(3),
                1,
            ))
        },
        damage: if hp {
            DamageConfig::HitPoints(HitPointsConfig {
                max_hp: 8,
                ..HitPointsConfig::default()
            })
        } else {
            DamageConfig::default()
        },
    };
    let mut e = Encounter::with_rules(system.clone(), rules, seed).unwrap();
    e.set_undo_limit(SNAPSHOT_HISTORY as u32).unwrap();
    for (i, (side, count)) in [("party", 1), ("party", 1), ("foes", 1), ("foes", 2), ("foes", 1)]
        .into_iter()
        .enumerate()
    {
        let mut p = FighterProfile::new(format!("f{i}"));
        p.count = count;
        p.strike_rating = 5 + i as i32;
        p.defense_rating = 4 + (i as i32 % 3);
        p.skill = CombatLevel::plain(Level::new(i as i32 - 1));
        p.disruptible = i == 4;
        p.interval = i as u32;
        p.reflexes = 3 + i as i32;
        // FUDGE 4.31: some scout (in all-out defense, by an `Op::Tactics`).
        p.scouting = (i % 2 == 0).then(|| Level::new(i as i32 - 2));
        e.add_fighter(side, &p).unwrap();
    }
    e
}

fn apply(e: &mut Encounter, op: &Op) -> String {
    let id = CombatantId;
    let r = match op {
        Op::Next => e.next().map(|t| format!("{t:?}")),
        Op::Strike {
            a,
            t,
            parry,
            range,
            point_blank,
            modifier,
            attack,
            defense,
            postures,
        } => {
            let range = match range.map(|(s, r, d)| RangedShot::new(s, r, d)) {
                Some(Ok(shot)) => Some(shot),
                Some(Err(_)) | None => None,
            };
            let options = EncounterStrikeOptions {
                parry: *parry,
                range,
                point_blank: *point_blank,
                modifier: *modifier,
                attacker_posture: postures.0,
                defender_posture: postures.1,
            };
            let dice = StrikeDice {
                attack: *attack,
                defense: *defense,
            };
            e.strike(id(*a), id(*t), options, dice).map(|r| format!("{r:?}"))
        }
        Op::Tactics(who, t) => {
            use skirmish_core::fighter::Tactics;
            use skirmish_core::striking::opposed::{Aim, Position, Posture, PostureChoice, Shield, ShieldSize, Stance};
            let posture = match t[4] % 8 {
                p @ 0..=4 => PostureChoice::Fixed(Posture::new(i32::from(p) - 2).unwrap()),
                5 => PostureChoice::Mixed([0.25, 0.0, 0.5, 0.0, 0.25]),
                _ => PostureChoice::Mixed([0.0, 0.0, 0.0, 0.0, 1.0]),
            };
            let tactics = Tactics {
                stance: [Stance::Normal, Stance::AllOutOffense, Stance::AllOutDefense][usize::from(t[0] % 3)],
                shield: [
                    None,
                    Some(ShieldSize::Small),
                    Some(ShieldSize::Medium),
                    Some(ShieldSize::Large),
                ][usize::from(t[1] % 4)]
                .map(Shield::new),
                aim: [Aim::Anywhere, Aim::SmallPartNeedingGood, Aim::SmallPartNeedingGreat][usize::from(t[2] % 3)],
                position: [Position::Even, Position::Worse, Position::MuchWorse][usize::from(t[3] % 3)],
                posture,
            };
            e.set_tactics(id(*who), tactics).map(|()| "tactics".to_string())
        }
        Op::Many {
            lone,
            foes,
            group,
            ignore,
            strike,
            lone_roll,
            rolls,
        } => {
            use skirmish_core::tracker::{LoneFighterDice, LoneFighterOptions};
            let foes: Vec<CombatantId> = foes.iter().map(|&f| id(f)).collect();
            let pick = |places: &[u8]| places.iter().map(|&p| id(p.into())).collect::<Vec<_>>();
            let options = LoneFighterOptions {
                group_roll: *group,
                ignore: pick(ignore),
                strike: pick(strike),
                modifier: 0,
            };
            let dice = LoneFighterDice {
                lone: *lone_roll,
                group: rolls.first().copied().flatten().filter(|_| *group),
                foes: if *group { Vec::new() } else { rolls.clone() },
            };
            e.lone_fighter(id(*lone), &foes, &options, &dice)
                .map(|r| format!("{r:?}"))
        }
        Op::Declare {
            who,
            tt,
            bonus,
            roll,
            gm,
        } => {
            let mut d = Declaration::new(*tt, *bonus);
            d.gm = gm.map(GmTiming::ReadyTime);
            e.declare(id(*who), "act", d, *roll).map(|t| format!("{t:?}"))
        }
        Op::Scout(w, f, r) => e.scout(id(*w), id(*f), *r).map(|x| format!("{x:?}")),
        Op::Delay(w, t) => e.delay(id(*w), *t).map(|x| x.to_string()),
        Op::Initiative(w, t) => e
            .set_initiative(id(*w), InitiativeEntry::Total(*t))
            .map(|_| String::new()),
        Op::InitiativeRoll(w, r) => e
            .set_initiative(id(*w), InitiativeEntry::Roll(*r))
            .map(|_| String::new()),
        Op::Hp(w, hp) => e
            .set_damage(id(*w), WoundOverride::HitPoints { hp: *hp })
            .map(|_| String::new()),
        Op::Wounds(w, b) => e
            .set_damage(
                id(*w),
                WoundOverride::Wounds {
                    track: WoundTrack::with_filled(*b, false),
                },
            )
            .map(|_| String::new()),
        Op::Heal(w) => e.set_damage(id(*w), WoundOverride::Heal).map(|_| String::new()),
        Op::Hide(w) => e.hide(id(*w)).map(|_| String::new()),
        Op::Reveal(w) => e.reveal(id(*w)).map(|_| String::new()),
        Op::Party(p) => e.set_party(p.then_some("party")).map(|_| String::new()),
        Op::Effect(t) => e.add_effect("fx", None, Duration::Ticks(*t)).map(|x| format!("{x:?}")),
        Op::EffectRounds(r) => e.add_effect("fx", None, Duration::Rounds(*r)).map(|x| format!("{x:?}")),
        Op::Down(w) => e.down(id(*w)).map(|_| String::new()),
        Op::Cancel(w) => e.cancel(id(*w)).map(|x| x.to_string()),
        Op::Undo => e.undo().map(|_| String::new()),
        Op::Redo => e.redo().map(|_| String::new()),
        Op::Reload => e.snapshot().and_then(|j| Encounter::restore(&j)).map(|restored| {
            *e = restored;
            String::new()
        }),
    };
    match r {
        Ok(s) => s,
        Err(err) => format!("error: {:?} {err}", err.kind()),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(150))]

    /// A refused operation changes nothing; undo restores exactly; redo
    /// redoes exactly; the views never panic.
    #[test]
    fn refused_changes_nothing_undo_and_redo_are_exact(sys in 0usize..6, fudge in any::<bool>(), hp in any::<bool>(),
        seed in any::<u64>(), ops in prop::collection::vec(op(), 1..60)) {
        let mut e = encounter(&systems()[sys], fudge, hp, seed);
        // Room for every step (a full history drops its oldest on each new one).
        e.set_undo_limit(1_000).unwrap();
        for op in &ops {
            if matches!(op, Op::Undo | Op::Redo | Op::Reload) {
                apply(&mut e, op);
                continue;
            }
            let before = e.clone();
            let out = apply(&mut e, op);
            if out.starts_with("error") {
                prop_assert!(e == before, "{:?} failed ({}) yet changed the encounter", op, out);
            } else {
                let after = e.clone();
                e.undo().unwrap();
                prop_assert!(e == before, "undo of {:?} did not restore the state", op);
                e.redo().unwrap();
                prop_assert!(e == after, "redo of {:?} did not redo it", op);
            }
            let _ = e.view(ViewFor::Gm);
            let _ = e.view(ViewFor::Players);
        }
    }

    /// Saving, restoring and going on gives exactly what going on gives.
    #[test]
    fn restored_snapshots_continue_identically(sys in 0usize..6, fudge in any::<bool>(), hp in any::<bool>(),
        seed in any::<u64>(), first in prop::collection::vec(op(), 0..40), then in prop::collection::vec(op(), 1..40)) {
        let mut a = encounter(&systems()[sys], fudge, hp, seed);
        for op in &first { apply(&mut a, op); }
        let json = a.snapshot().unwrap();
        let mut b = Encounter::restore(&json).unwrap();
        prop_assert_eq!(b.snapshot().unwrap(), json);
        for op in &then {
            if matches!(op, Op::Redo) { continue; } // a snapshot keeps no redo steps
            prop_assert_eq!(apply(&mut a, op), apply(&mut b, op));
        }
        prop_assert_eq!(a.snapshot().unwrap(), b.snapshot().unwrap());
    }
}
