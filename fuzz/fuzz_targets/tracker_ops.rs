//! Door: the live tracker's API (the CLI's `track`, the Python, Kotlin and
//! Swift bindings). Sequences of every `Encounter` operation, under every
//! timing system (with its options), both striking systems and both
//! damage models, every input over its whole range (MIN/MAX included).
//!
//! Checked after each operation:
//! - nothing panics (overflow checks are on in fuzz builds);
//! - no operation reports an `Internal` error (that is a caught bug);
//! - a refused operation leaves the encounter equal to what it was;
//! - a successful mutating operation is undone exactly by `undo` and done
//!   again exactly by `redo`;
//! - the views, tick sheet, log and queries answer without panicking;
//! - at the end, `restore(snapshot(e)) == e` (with the newest
//!   `SNAPSHOT_HISTORY` undo steps, all a snapshot keeps) and the restored copy goes on
//!   exactly as the original.
#![no_main]

use arbitrary::{Arbitrary, Unstructured};
use libfuzzer_sys::fuzz_target;
use skirmish_core::damage::{DamageConfig, HitPointsConfig, WoundTrack};
use skirmish_core::fighter::{
    CustomWeapon, ExchangeRule, FighterProfile, FudgeRules, FullContactRules, Striking, WeaponChoice,
};
use skirmish_core::ladder::{CombatLevel, Level};
use skirmish_core::striking::full_contact::RangedShot;
use skirmish_core::striking::opposed::{Missile, Stance, SweepingBlow};
use skirmish_core::tables::weapons::RateOfFire;
use skirmish_core::timing::{ActorTiming, InitiativeEntry};
use skirmish_core::tracker::{
    CombatantId, CombatantSpec, Duration, EffectId, Encounter, EncounterRules, EncounterStrikeOptions, ErrorKind,
    LoneFighterDice, LoneFighterOptions, ShotDefense, ShotOptions, StrikeDice, ViewFor, WoundOverride,
};
use skirmish_fuzz::as_saved;
use skirmish_fuzz::inputs::{DeclIn, SystemIn};

#[derive(Arbitrary, Debug)]
enum StrikingIn {
    FullContact {
        guaranteed: bool,
        amazing: bool,
        amazing_damage: i32,
    },
    Fudge {
        minimum_to_hit: i32,
        multi_foe_penalty: u32,
        group_roll: bool,
        one_way: bool,
        lone_fighter: bool,
        sweeping_blow: u8,
    },
}

#[derive(Arbitrary, Debug)]
enum DamageIn {
    Wounds,
    HitPoints {
        max_hp: i32,
        dead_at: Option<i32>,
    },
    /// Any damage options, as a scenario file or a binding would give them.
    Json(String),
}

#[derive(Arbitrary, Debug)]
struct ProfileIn {
    name: String,
    count: u32,
    strike_rating: i32,
    defense_rating: i32,
    skill: i32,
    plus: bool,
    weapon: WeaponIn,
    armor: Option<u8>,
    speed_bonus: i32,
    extra_attacks: u32,
    disruptible: bool,
    offense: i32,
    toughness: i32,
    hit_points: Option<i32>,
    initiative_bonus: i32,
    interval: u32,
    reflexes: i32,
    combat_sense: i32,
    stance: u8,
}

#[derive(Arbitrary, Debug)]
enum WeaponIn {
    Default,
    Named(u8),
    Text(String),
    Custom { time_taken: i32, shots: u32, rounds: u32 },
}

const WEAPONS: [&str; 6] = [
    "Dagger",
    "Sword, Two-Handed",
    "Bow, Short",
    "Pike",
    "Crossbow, Heavy",
    "Spear",
];
const ARMOR: [&str; 3] = ["Leather, etc.", "Chain", "Plate"];

impl ProfileIn {
    fn profile(&self) -> FighterProfile {
        let mut p = FighterProfile::new(self.name.clone());
        p.count = u64::from(small_count(self.count));
        p.strike_rating = self.strike_rating;
        p.defense_rating = self.defense_rating;
        p.skill = CombatLevel {
            level: Level::new(self.skill),
            plus: self.plus,
        };
        p.weapon = match &self.weapon {
            WeaponIn::Default => None,
            WeaponIn::Named(i) => Some(WeaponChoice::Named(WEAPONS[usize::from(*i) % WEAPONS.len()].to_owned())),
            WeaponIn::Text(t) => Some(WeaponChoice::Named(t.clone())),
            WeaponIn::Custom {
                time_taken,
                shots,
                rounds,
            } => RateOfFire::new(*shots, *rounds).ok().map(|rate_of_fire| {
                WeaponChoice::Custom(CustomWeapon {
                    name: "custom".to_owned(),
                    time_taken: *time_taken,
                    rate_of_fire,
                })
            }),
        };
        p.armor = self.armor.map(|i| ARMOR[usize::from(i) % ARMOR.len()].to_owned());
        p.speed_bonus = self.speed_bonus;
        p.extra_attacks = self.extra_attacks;
        p.disruptible = self.disruptible;
        p.offense = self.offense;
        p.toughness = self.toughness;
        p.hit_points = self.hit_points;
        p.initiative_bonus = self.initiative_bonus;
        p.interval = self.interval;
        p.reflexes = self.reflexes;
        p.combat_sense = self.combat_sense;
        p.stance = match self.stance % 3 {
            0 => Stance::Normal,
            1 => Stance::AllOutOffense,
            _ => Stance::AllOutDefense,
        };
        p
    }
}

/// Group sizes over the whole u32 range, except that sizes the tracker
/// accepts are kept small (a 10,000-strong group makes each step slow, and
/// its limit is tested at exactly 10,000 and 10,001 by unit tests).
fn small_count(count: u32) -> u32 {
    if (17..=10_000).contains(&count) {
        1 + count % 16
    } else {
        count
    }
}

/// A combatant index: usually one that exists, sometimes any u32.
#[derive(Arbitrary, Debug, Clone, Copy)]
enum Who {
    Small(u8),
    Any(u32),
}

impl Who {
    fn id(self) -> CombatantId {
        CombatantId(match self {
            Who::Small(n) => u32::from(n % 12),
            Who::Any(n) => n,
        })
    }
}

#[derive(Arbitrary, Debug)]
enum Op {
    Next,
    Strike {
        attacker: Who,
        target: Who,
        parry: bool,
        range: Option<(i64, i64, i64)>,
        point_blank: bool,
        modifier: i32,
        attack: Option<i32>,
        defense: Option<i32>,
        postures: (Option<i32>, Option<i32>),
    },
    /// FUDGE 4.34: a lone fighter's round.
    LoneFighter {
        lone: Who,
        foes: Vec<Who>,
        group_roll: bool,
        ignore: Vec<Who>,
        strike: Vec<Who>,
        modifier: i32,
        lone_roll: Option<i32>,
        group: Option<i32>,
        rolls: Vec<Option<i32>>,
    },
    /// FUDGE 4.4: a shot, and an exchange of fire.
    Shoot {
        shooter: Who,
        target: Who,
        difficulty: i32,
        unaware: bool,
        dodge_skill: Option<i32>,
        propelled: Option<i32>,
        dice: (Option<i32>, Option<i32>),
    },
    ExchangeFire {
        first: Who,
        second: Who,
        difficulties: (i32, i32),
        dice: (Option<i32>, Option<i32>),
    },
    /// FUDGE 4.21: a story element.
    Story {
        who: Who,
        modifier: i32,
        median: bool,
        rolls: Vec<i32>,
    },
    Declare {
        who: Who,
        label: String,
        decl: DeclIn,
        roll: Option<i32>,
    },
    Cancel(Who),
    Disrupt(Who),
    Delay(Who, u32),
    Hold(Who),
    FreeAction {
        who: Who,
        ticks: Option<u32>,
        defending: bool,
    },
    Interrupt {
        who: Who,
        concentration_kept: bool,
    },
    TakeHeldTurn(Who),
    InitiativeRoll(Who, i32),
    InitiativeTotal(Who, i64),
    Wounds(Who, [u8; 5], bool),
    HitPoints(Who, i32),
    Heal(Who),
    Down(Who),
    Remove(Who),
    Hide(Who),
    Reveal(Who),
    Party(Option<String>),
    EffectTicks {
        name: String,
        target: Option<Who>,
        ticks: u64,
    },
    EffectRounds {
        name: String,
        target: Option<Who>,
        rounds: u32,
    },
    EndEffect(u32),
    AddCombatant {
        name: String,
        side: Option<String>,
        decl: DeclIn,
        timing: (i32, u32, i32, i32),
        hidden: bool,
    },
    AddGroup {
        name: String,
        count: u32,
        decl: DeclIn,
    },
    AddFighter {
        side: String,
        profile: ProfileIn,
    },
    UndoLimit(u32),
    Undo,
    Redo,
    Reload,
}

#[derive(Arbitrary, Debug)]
struct Input {
    system: SystemIn,
    striking: StrikingIn,
    damage: DamageIn,
    seed: u64,
    fighters: Vec<(bool, ProfileIn)>,
    ops: Vec<Op>,
}

fn no_internal<T>(r: &skirmish_core::tracker::TrackerResult<T>, what: &dyn std::fmt::Debug) {
    if let Err(e) = r {
        assert!(e.kind() != ErrorKind::Internal, "{what:?} gave an internal error: {e}");
    }
}

/// Applies `op`; `Some(ok)` for a mutating operation whose undo/redo is
/// checked, `None` for the history operations themselves.
fn apply(e: &mut Encounter, op: &Op) -> Option<bool> {
    macro_rules! run {
        ($r:expr) => {{
            let r = $r;
            no_internal(&r, op);
            Some(r.is_ok())
        }};
    }
    match op {
        Op::Next => run!(e.next()),
        Op::Strike {
            attacker,
            target,
            parry,
            range,
            point_blank,
            modifier,
            attack,
            defense,
            postures,
        } => {
            let options = EncounterStrikeOptions {
                parry: *parry,
                range: range.and_then(|(s, r, d)| RangedShot::new(s, r, d).ok()),
                point_blank: *point_blank,
                modifier: *modifier,
                attacker_posture: postures.0,
                defender_posture: postures.1,
            };
            let dice = StrikeDice {
                attack: *attack,
                defense: *defense,
            };
            run!(e.strike(attacker.id(), target.id(), options, dice))
        }
        Op::Declare { who, label, decl, roll } => run!(e.declare(who.id(), label, decl.declaration(), *roll)),
        Op::Cancel(w) => run!(e.cancel(w.id())),
        Op::Disrupt(w) => run!(e.disrupt(w.id())),
        Op::Delay(w, t) => run!(e.delay(w.id(), *t)),
        Op::Hold(w) => run!(e.hold(w.id())),
        Op::FreeAction { who, ticks, defending } => run!(e.free_action(who.id(), *ticks, *defending)),
        Op::Interrupt {
            who,
            concentration_kept,
        } => run!(e.interrupt(who.id(), *concentration_kept)),
        Op::TakeHeldTurn(w) => run!(e.take_held_turn(w.id())),
        Op::InitiativeRoll(w, r) => run!(e.set_initiative(w.id(), InitiativeEntry::Roll(*r))),
        Op::InitiativeTotal(w, t) => run!(e.set_initiative(w.id(), InitiativeEntry::Total(*t))),
        Op::Wounds(w, boxes, dead) => run!(e.set_damage(
            w.id(),
            WoundOverride::Wounds {
                track: WoundTrack::with_filled(*boxes, *dead),
            }
        )),
        Op::HitPoints(w, hp) => run!(e.set_damage(w.id(), WoundOverride::HitPoints { hp: *hp })),
        Op::Heal(w) => run!(e.set_damage(w.id(), WoundOverride::Heal)),
        Op::Down(w) => run!(e.down(w.id())),
        Op::Remove(w) => run!(e.remove(w.id())),
        Op::LoneFighter {
            lone,
            foes,
            group_roll,
            ignore,
            strike,
            modifier,
            lone_roll,
            group,
            rolls,
        } => {
            let ids = |v: &[Who]| v.iter().map(|w| w.id()).collect::<Vec<_>>();
            let options = LoneFighterOptions {
                group_roll: *group_roll,
                ignore: ids(ignore),
                strike: ids(strike),
                modifier: *modifier,
            };
            let dice = LoneFighterDice {
                lone: *lone_roll,
                group: *group,
                foes: rolls.clone(),
            };
            run!(e.lone_fighter(lone.id(), &ids(foes), &options, &dice))
        }
        Op::Shoot {
            shooter,
            target,
            difficulty,
            unaware,
            dodge_skill,
            propelled,
            dice,
        } => {
            let options = ShotOptions {
                difficulty: *difficulty,
                defense: if *unaware {
                    ShotDefense::Unaware
                } else {
                    ShotDefense::Dodge
                },
                dodge_skill: *dodge_skill,
                missile: propelled.map_or(Missile::Thrown, |dodge_penalty| Missile::Propelled { dodge_penalty }),
            };
            run!(e.shoot(shooter.id(), target.id(), options, *dice))
        }
        Op::ExchangeFire {
            first,
            second,
            difficulties,
            dice,
        } => run!(e.exchange_fire(first.id(), second.id(), *difficulties, *dice)),
        Op::Story {
            who,
            modifier,
            median,
            rolls,
        } => run!(e.story_element(who.id(), *modifier, *median, rolls)),
        Op::Hide(w) => run!(e.hide(w.id())),
        Op::Reveal(w) => run!(e.reveal(w.id())),
        Op::Party(p) => run!(e.set_party(p.as_deref())),
        Op::EffectTicks { name, target, ticks } => {
            run!(e.add_effect(name, target.map(Who::id), Duration::Ticks(*ticks)))
        }
        Op::EffectRounds { name, target, rounds } => {
            run!(e.add_effect(name, target.map(Who::id), Duration::Rounds(*rounds)))
        }
        Op::EndEffect(id) => run!(e.end_effect(EffectId(*id))),
        Op::AddCombatant {
            name,
            side,
            decl,
            timing,
            hidden,
        } => {
            let mut spec = CombatantSpec::new(name.clone(), decl.declaration());
            spec.side = side.clone();
            spec.timing = ActorTiming {
                initiative_bonus: timing.0,
                interval: timing.1,
                reflexes: timing.2,
                combat_sense: timing.3,
            };
            spec.hidden = *hidden;
            run!(e.add_combatant(spec))
        }
        Op::AddGroup { name, count, decl } => run!(e.add_group(
            name,
            small_count(*count),
            CombatantSpec::new(name.clone(), decl.declaration())
        )),
        Op::AddFighter { side, profile } => run!(e.add_fighter(side, &profile.profile())),
        Op::UndoLimit(n) => {
            let r = e.set_undo_limit(*n);
            no_internal(&r, op);
            None
        }
        Op::Undo => {
            let r = e.undo();
            no_internal(&r, op);
            None
        }
        Op::Redo => {
            let r = e.redo();
            no_internal(&r, op);
            None
        }
        Op::Reload => {
            let json = e.snapshot().expect("a live encounter snapshots");
            let restored =
                Encounter::restore(&json).unwrap_or_else(|err| panic!("own snapshot refused: {err}\n{json}"));
            assert!(restored == as_saved(e), "restore(snapshot(e)) differs from e");
            *e = restored;
            None
        }
    }
}

fn queries(e: &Encounter) {
    let _ = e.view(ViewFor::Gm);
    let _ = e.view(ViewFor::Players);
    let _ = e.tick_sheet();
    let _ = e.awaiting();
    let _ = e.awaiting_combatants();
    let _ = e.log_since(e.log_len().saturating_sub(3));
    for c in 0..e.combatants().len().min(16) as u32 {
        let id = CombatantId(c);
        let _ = e.penalty(id);
        let _ = e.defense_bonus(id);
        let _ = e.declaration(id);
    }
    let r = e.continuation();
    no_internal(&r, &"continuation");
}

fn encounter(input: &Input) -> Option<Encounter> {
    let system = input.system.system()?;
    let striking = match input.striking {
        StrikingIn::FullContact {
            guaranteed,
            amazing,
            amazing_damage,
        } => Striking::FullContact(FullContactRules::with(guaranteed, amazing, amazing_damage)),
        StrikingIn::Fudge {
            minimum_to_hit,
            multi_foe_penalty,
            group_roll,
            one_way,
            lone_fighter,
            sweeping_blow,
        } => Striking::FudgeOpposed(FudgeRules {
            minimum_to_hit: Level::new(minimum_to_hit),
            multi_foe_penalty,
            group_roll,
            exchange: if one_way {
                ExchangeRule::OneWay
            } else {
                ExchangeRule::TwoWay
            },
            lone_fighter,
            sweeping_blow: [
                SweepingBlow::Off,
                SweepingBlow::MinusOnePerFoe,
                SweepingBlow::MinusTwoPerFoe,
            ][usize::from(sweeping_blow % 3)],
        }),
    };
    let damage = match &input.damage {
        DamageIn::Wounds => DamageConfig::default(),
        DamageIn::HitPoints { max_hp, dead_at } => {
            let mut hp = HitPointsConfig {
                max_hp: *max_hp,
                ..HitPointsConfig::default()
            };
            if let Some(d) = dead_at {
                hp.dead_at = *d;
            }
            DamageConfig::HitPoints(hp)
        }
        DamageIn::Json(text) => serde_json::from_str(text).ok()?,
    };
    let rules = EncounterRules { striking, damage };
    let mut e = Encounter::with_rules(system, rules, input.seed).ok()?;
    for (foe, p) in input.fighters.iter().take(6) {
        let r = e.add_fighter(if *foe { "foes" } else { "party" }, &p.profile());
        no_internal(&r, p);
    }
    Some(e)
}

fuzz_target!(|data: &[u8]| {
    let Ok(input) = Input::arbitrary(&mut Unstructured::new(data)) else {
        return;
    };
    let Some(mut e) = encounter(&input) else {
        return;
    };
    for op in input.ops.iter().take(80) {
        let before = e.clone();
        match apply(&mut e, op) {
            Some(false) => assert!(e == before, "{op:?} was refused yet changed the encounter"),
            Some(true) => {
                if e.undo_limit() > 0 && e != before {
                    let after = e.clone();
                    e.undo().unwrap_or_else(|err| panic!("undo after {op:?}: {err}"));
                    assert!(e == before, "undo of {op:?} did not restore the state");
                    e.redo().unwrap_or_else(|err| panic!("redo after {op:?}: {err}"));
                    assert!(e == after, "redo of {op:?} did not redo it");
                }
            }
            None => {}
        }
        queries(&e);
    }
    // A snapshot restores to an equal encounter that goes on identically.
    let json = e.snapshot().expect("a live encounter snapshots");
    let mut restored = Encounter::restore(&json).unwrap_or_else(|err| panic!("own snapshot refused: {err}\n{json}"));
    assert!(restored == as_saved(&e), "restore(snapshot(e)) differs from e");
    assert_eq!(
        restored.snapshot().expect("snapshots"),
        json,
        "snapshot of the restored copy differs"
    );
    for _ in 0..4 {
        let a = e.next().map(|t| format!("{t:?}")).map_err(|x| x.to_string());
        let b = restored.next().map(|t| format!("{t:?}")).map_err(|x| x.to_string());
        assert_eq!(a, b, "the restored encounter went on differently");
    }
});
