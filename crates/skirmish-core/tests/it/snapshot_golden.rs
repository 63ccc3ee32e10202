//! Golden snapshots: encounters saved mid-fight by this version of the
//! format (`tests/snapshots/*.json`, committed) must restore and continue
//! exactly as pinned (`*.continued.txt`), in every later release. Playing
//! the same fight again must also write the same bytes: a change to the
//! format shows up here, and then needs a new version with the old one
//! still read.
//!
//! To write the files for a new fight (never to change existing ones):
//! `SKIRMISH_BLESS=1 cargo test -p skirmish-core --test it snapshot_golden`.

use std::path::PathBuf;

use skirmish_core::damage::{DamageConfig, HitPointsConfig};
use skirmish_core::fighter::{
    AmazingDefenseRule, ExchangeRule, FighterProfile, FudgeRules, FullContactRules, Striking, Tactics, WeaponChoice,
};
use skirmish_core::ladder::{CombatLevel, Level};
use skirmish_core::striking::opposed::{Aim, Position, Posture, PostureChoice, Shield, ShieldSize, Stance};
use skirmish_core::timing::TimingSystem;
use skirmish_core::tracker::{
    CombatantId, Duration, Encounter, EncounterRules, EncounterStrikeOptions, StrikeDice, Turn, ViewFor,
};

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots")
}

fn profile(name: &str, count: u64, sr: i32, dr: i32, skill: Level, weapon: &str) -> FighterProfile {
    let mut p = FighterProfile::new(name);
    p.count = count;
    p.strike_rating = sr;
    p.defense_rating = dr;
    p.skill = CombatLevel::plain(skill);
    p.weapon = Some(WeaponChoice::Named(weapon.into()));
    p
}

/// The goblin ambush's fighters under `system` and `rules`; with
/// `tactics`, FUDGE chapter 4's options on some of them (a shield, aim,
/// Scale, NPC results, a fixed and a mixed posture, and stance and
/// position changed mid-fight); with `scout`, Madoc in all-out defense
/// with a Good Perception (FUDGE 4.31's scouting).
fn ambush(system: TimingSystem, rules: EncounterRules, tactics: bool, scout: bool) -> Encounter {
    let mut e = Encounter::with_rules(system, rules, 2026).unwrap();
    let mut party = [
        profile("Roland", 1, 7, 5, Level::GOOD, "Bow, Short"),
        profile("Madoc", 1, 6, 7, Level::FAIR, "Dagger"),
        profile("Cardiff", 1, 9, 7, Level::GREAT, "Sword, Two-Handed"),
    ];
    let mut shaman = profile("Shaman", 1, 5, 4, Level::FAIR, "Dagger");
    shaman.disruptible = true;
    let mut foes = [
        profile("Orc", 2, 5, 5, Level::GOOD, "Dagger"),
        profile("Goblin", 2, 5, 6, Level::FAIR, "Pike/Pole-arm"),
        shaman,
    ];
    if tactics {
        party[0].aim = Aim::SmallPartNeedingGood;
        party[2].shield = Some(Shield::new(ShieldSize::Large));
        party[2].posture = PostureChoice::mixed([0.0, 0.25, 0.5, 0.25, 0.0]).unwrap();
        foes[2].posture = PostureChoice::Fixed(Posture::new(2).unwrap());
        foes[0].scale = 1;
        foes[1].npc_result = true;
        foes[1].shield = Some(Shield {
            trained: false,
            ..Shield::new(ShieldSize::Small)
        });
    }
    if scout {
        party[1].stance = Stance::AllOutDefense;
        party[1].scouting = Some(Level::GOOD);
    }
    for p in &party {
        e.add_fighter("party", p).unwrap();
    }
    for p in &foes {
        e.add_fighter("goblinoids", p).unwrap();
    }
    if tactics {
        let madoc = Tactics {
            stance: Stance::AllOutOffense,
            position: Position::Worse,
            ..Tactics::default()
        };
        e.set_tactics(CombatantId(1), madoc).unwrap();
    }
    e.set_party(Some("party")).unwrap();
    e.add_effect("Bless", Some(CombatantId(0)), Duration::Ticks(15))
        .unwrap();
    e.hide(CombatantId(7)).unwrap();
    e
}

/// `steps` operations of a fixed fight: next, and every actor strikes a
/// fixed enemy with rolled dice; a transcript line for each. A target
/// among `scouts` that came out unhit then scouts its attacker.
fn play(e: &mut Encounter, steps: usize, scouts: &[CombatantId], out: &mut String) {
    let mut k = 0u32;
    for _ in 0..steps {
        let turn = e.next().unwrap();
        out.push_str(&format!("{turn:?}\n"));
        let over = matches!(turn, Turn::Over);
        if let Turn::Moment { lines, .. } = turn {
            for line in lines {
                for m in line.members {
                    k = k.wrapping_add(1);
                    let target = if m.0 < 3 {
                        CombatantId(3 + k % 5)
                    } else {
                        CombatantId(k % 3)
                    };
                    let r = e.strike(m, target, EncounterStrikeOptions::default(), StrikeDice::default());
                    match r {
                        Ok(r) => {
                            out.push_str(&format!("  {}\n", r.text));
                            if !r.landed && scouts.contains(&target) {
                                match e.scout(target, m, None) {
                                    Ok(r) => out.push_str(&format!("  {}\n", r.text)),
                                    Err(err) => out.push_str(&format!("  refused: {err}\n")),
                                }
                            }
                        }
                        Err(err) => out.push_str(&format!("  refused: {err}\n")),
                    }
                }
            }
        }
        if over {
            break;
        }
    }
    out.push_str(&serde_json::to_string(&e.view(ViewFor::Players)).unwrap());
    out.push('\n');
}

fn fights() -> Vec<(&'static str, Encounter, Vec<CombatantId>)> {
    vec![
        (
            "v6-continuous-full-contact-wounds",
            ambush(TimingSystem::continuous(), EncounterRules::default(), false, false),
            vec![],
        ),
        (
            "v6-tick-system-fudge-hit-points",
            ambush(
                TimingSystem::tick_system(),
                EncounterRules {
                    striking: Striking::FudgeOpposed(FudgeRules::default()),
                    damage: DamageConfig::HitPoints(HitPointsConfig {
                        max_hp: 6,
                        ..HitPointsConfig::default()
                    }),
                },
                false,
                false,
            ),
            vec![],
        ),
        (
            "v6-simple-rounds-fudge-tactics",
            ambush(
                TimingSystem::by_name("simple-rounds").unwrap(),
                EncounterRules {
                    striking: Striking::FudgeOpposed(FudgeRules {
                        multi_foe_penalty: 2,
                        ..FudgeRules::default()
                    }),
                    damage: DamageConfig::default(),
                },
                true,
                false,
            ),
            vec![],
        ),
        (
            "v6-graduated-full-contact-options",
            ambush(
                TimingSystem::by_name("graduated-rounds").unwrap(),
                EncounterRules {
                    striking: Striking::FullContact(FullContactRules::with(true, true, 2)),
                    damage: DamageConfig::default(),
                },
                false,
                false,
            ),
            vec![],
        ),
        (
            // Amazing defenses that disarm (version 5: a combatant's
            // `upset`, its lost action refused).
            "v6-simple-rounds-full-contact-disarm",
            ambush(
                TimingSystem::by_name("simple-rounds").unwrap(),
                EncounterRules {
                    striking: Striking::FullContact(FullContactRules {
                        amazing: true,
                        amazing_defense: AmazingDefenseRule::Disarm,
                        ..FullContactRules::default()
                    }),
                    damage: DamageConfig::default(),
                },
                false,
                false,
            ),
            vec![],
        ),
        (
            // FUDGE 4.31's scouting (version 6: a line's `scouting`, a
            // combatant's `scouted`).
            "v6-simple-rounds-fudge-scouting",
            ambush(
                TimingSystem::by_name("simple-rounds").unwrap(),
                EncounterRules {
                    striking: Striking::FudgeOpposed(FudgeRules::default()),
                    damage: DamageConfig::default(),
                },
                false,
                true,
            ),
            vec![CombatantId(1)],
        ),
    ]
}

#[test]
fn golden_snapshots_restore_and_continue_as_pinned() {
    let bless = std::env::var_os("SKIRMISH_BLESS").is_some();
    for (name, mut e, scouts) in fights() {
        let mut first = String::new();
        play(&mut e, 12, &scouts, &mut first);
        let json = e.snapshot().unwrap();
        let mut continued = String::new();
        play(&mut e, 25, &scouts, &mut continued);
        let (snap_path, cont_path) = (
            dir().join(format!("{name}.json")),
            dir().join(format!("{name}.continued.txt")),
        );
        if bless && !snap_path.exists() {
            std::fs::create_dir_all(dir()).unwrap();
            std::fs::write(&snap_path, &json).unwrap();
            std::fs::write(&cont_path, &continued).unwrap();
        }
        let golden = std::fs::read_to_string(&snap_path)
            .unwrap_or_else(|e| panic!("{}: {e} (bless new fights with SKIRMISH_BLESS=1)", snap_path.display()));
        let pinned = std::fs::read_to_string(&cont_path).unwrap();
        // The saved fight restores and goes on exactly as pinned...
        let mut restored = Encounter::restore(&golden).unwrap_or_else(|e| panic!("{name}: {e}"));
        let mut again = String::new();
        play(&mut restored, 25, &scouts, &mut again);
        assert_eq!(again, pinned, "{name}: a restored golden snapshot went on differently");
        // ...and this version still writes it byte for byte.
        assert_eq!(
            json, golden,
            "{name}: the snapshot format changed; give it a new version"
        );
        assert_eq!(continued, pinned, "{name}: the fight itself changed");
    }
}

/// Every older version's golden snapshots still restore and go on exactly
/// as pinned when they were written: a version 2 FUDGE encounter keeps its
/// one-way strikes; a version 4 one has no combatant disarmed or knocked
/// down; a version 5 one has no scouting.
#[test]
fn older_golden_snapshots_restore_and_continue_as_pinned() {
    let mut read = 0;
    for entry in std::fs::read_dir(dir()).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let Some(stem) = name.strip_suffix(".json") else {
            continue;
        };
        if !["v2-", "v3-", "v4-", "v5-"].iter().any(|v| stem.starts_with(v)) {
            continue;
        }
        let golden = std::fs::read_to_string(&path).unwrap();
        let pinned = std::fs::read_to_string(dir().join(format!("{stem}.continued.txt"))).unwrap();
        let mut restored = Encounter::restore(&golden).unwrap_or_else(|e| panic!("{stem}: {e}"));
        if let Striking::FudgeOpposed(r) = restored.rules().striking {
            let exchange = if stem.starts_with("v2-") {
                ExchangeRule::OneWay
            } else {
                ExchangeRule::TwoWay
            };
            assert_eq!(r.exchange, exchange, "{stem}");
            if !stem.starts_with("v4-") && !stem.starts_with("v5-") {
                assert_eq!(r.multi_foe_penalty, 1, "{stem}: `true` reads as 1");
            }
        }
        let mut again = String::new();
        play(&mut restored, 25, &[], &mut again);
        // The view has since gained each fighter's FUDGE tactics (none in
        // every old encounter): the same fight, fields more to read.
        let again = if stem.starts_with("v4-") || stem.starts_with("v5-") {
            again
        } else {
            again.replace(
            ",\"shield\":null,\"aim\":\"anywhere\",\"position\":\"even\",\"scale\":0,\"npc_result\":false,\"posture\":0,\"concentrate\":false",
            "",
            )
        };
        let again = if stem.starts_with("v2-") {
            again.replace(",\"stance\":\"normal\"", "")
        } else {
            again
        };
        assert_eq!(again, pinned, "{stem}: a restored older snapshot went on differently");
        read += 1;
    }
    assert_eq!(read, 15, "the version 2, 3, 4 and 5 golden snapshots");
}

#[test]
fn damaged_golden_snapshots_are_bad_snapshots() {
    let golden = std::fs::read_to_string(dir().join("v6-continuous-full-contact-wounds.json")).unwrap();
    let value: serde_json::Value = serde_json::from_str(&golden).unwrap();
    // Every single field nulled, one at a time, at the first two levels.
    let mut tried = 0;
    let serde_json::Value::Object(top) = &value else {
        panic!("an object")
    };
    for (k, v) in top {
        let mut broken = value.clone();
        broken[k] = serde_json::Value::Null;
        if k != "history" {
            assert!(Encounter::restore(&broken.to_string()).is_err(), "{k} nulled");
        }
        tried += 1;
        if let serde_json::Value::Object(inner) = v {
            for k2 in inner.keys() {
                let mut broken = value.clone();
                broken[k][k2] = serde_json::Value::from(-1);
                let r = Encounter::restore(&broken.to_string());
                if let Err(e) = r {
                    assert_eq!(
                        e.kind(),
                        skirmish_core::tracker::ErrorKind::BadSnapshot,
                        "{k}.{k2}: {e}"
                    );
                }
                tried += 1;
            }
        }
    }
    assert!(tried > 15);
    let newer = golden.replacen("\"version\":6", "\"version\":7", 1);
    let err = Encounter::restore(&newer).unwrap_err();
    assert!(err.to_string().contains("newer"), "{err}");
}
