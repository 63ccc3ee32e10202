//! Unit tests of the damage models (wound track, hit points, the run-time
//! choice and the factors), kept out of the model files so those read as rules.

use super::*;
use crate::error::Error;

fn fudge() -> FudgeWounds {
    FudgeWounds::default()
}

/// Applies `hits` to a fresh track and returns the marked levels.
fn marks(model: &FudgeWounds, hits: &[i32]) -> (Vec<Option<WoundLevel>>, WoundTrack) {
    let mut t = model.fresh();
    let marked = hits.iter().map(|&d| model.apply(&mut t, d).change.marked).collect();
    (marked, t)
}

#[test]
fn default_model_equals_built_default_config() {
    assert_eq!(FudgeWounds::new(FudgeWoundsConfig::default()).unwrap(), fudge());
}

#[test]
fn every_threshold_boundary() {
    use WoundLevel::*;
    let m = fudge();
    let expected = [
        (i32::MIN, None),
        (-1, None),
        (0, None),
        (1, Some(Scratch)),
        (2, Some(Scratch)),
        (3, Some(Hurt)),
        (4, Some(Hurt)),
        (5, Some(VeryHurt)),
        (6, Some(VeryHurt)),
        (7, Some(Incapacitated)),
        (8, Some(Incapacitated)),
        (9, Some(NearDeath)),
        (10, Some(NearDeath)),
        (i32::MAX, Some(NearDeath)),
    ];
    for (damage, level) in expected {
        assert_eq!(m.level_for(damage), level, "damage {damage}");
        let (marked, t) = marks(&m, &[damage]);
        assert_eq!(marked, [level], "damage {damage}");
        assert_eq!(t.worst(), level);
    }
}

#[test]
fn penalties_and_status_per_level() {
    use WoundLevel::*;
    let m = fudge();
    for (damage, penalty, status) in [
        (0, 0, Condition::Standing),
        (1, 0, Condition::Standing),
        (3, -1, Condition::Standing),
        (5, -2, Condition::Standing),
        (7, -2, Condition::Down),
        (9, -2, Condition::Down),
    ] {
        let mut t = m.fresh();
        let o = m.apply(&mut t, damage);
        assert_eq!((o.penalty, o.after), (penalty, status), "damage {damage}");
        assert_eq!(m.wound_penalty(&t), penalty);
        assert_eq!(m.status(&t), status);
    }
    assert_eq!(Dead.penalty(), -2);
    assert_eq!(Dead.status(), Condition::Dead);
}

#[test]
fn the_worst_wound_sets_the_penalty() {
    let m = fudge();
    let (_, t) = marks(&m, &[5, 1, 3]);
    assert_eq!(t.worst(), Some(WoundLevel::VeryHurt));
    assert_eq!(m.wound_penalty(&t), -2);
}

#[test]
fn scratches_overflow_into_hurt_then_very_hurt() {
    use WoundLevel::*;
    let (marked, t) = marks(&fudge(), &[1, 2, 1, 1, 2]);
    assert_eq!(
        marked,
        [Some(Scratch), Some(Scratch), Some(Scratch), Some(Hurt), Some(VeryHurt)]
    );
    assert_eq!(t.filled(Scratch), 3);
    assert_eq!(t.penalty(), -2);
}

#[test]
fn a_full_chain_ends_in_death() {
    use WoundLevel::*;
    let m = fudge();
    let (marked, t) = marks(&m, &[3, 3, 3, 3, 3, 3]);
    assert_eq!(
        marked,
        [
            Some(Hurt),
            Some(VeryHurt),
            Some(Incapacitated),
            Some(NearDeath),
            Some(Dead),
            None
        ]
    );
    assert_eq!(t.status(), Condition::Dead);
    // A dead combatant takes no further wounds.
    let mut t2 = t;
    let o = m.apply(&mut t2, 9);
    assert_eq!(t2, t);
    assert_eq!(o.change.called_for, Some(NearDeath));
    assert_eq!(o.change.marked, None);
    assert!(!o.newly_dead());
}

#[test]
fn near_death_with_its_box_full_is_dead() {
    let m = fudge();
    let mut t = m.fresh();
    let first = m.apply(&mut t, 9);
    assert!(first.newly_down() && !first.newly_dead());
    let second = m.apply(&mut t, 9);
    assert_eq!(second.change.marked, Some(WoundLevel::Dead));
    assert!(second.newly_dead() && !second.newly_down());
    assert_eq!(second.before, Condition::Down);
}

#[test]
fn a_lower_wound_fills_its_own_box_even_above_worse_wounds() {
    let m = fudge();
    let (marked, t) = marks(&m, &[7, 1]);
    assert_eq!(marked[1], Some(WoundLevel::Scratch));
    assert_eq!(t.worst(), Some(WoundLevel::Incapacitated));
}

#[test]
fn an_optional_dead_threshold_kills_outright() {
    let config = FudgeWoundsConfig {
        thresholds: WoundThresholds {
            dead: Some(13),
            ..WoundThresholds::default()
        },
        ..FudgeWoundsConfig::default()
    };
    let m = FudgeWounds::new(config).unwrap();
    assert_eq!(m.level_for(12), Some(WoundLevel::NearDeath));
    let (marked, t) = marks(&m, &[13]);
    assert_eq!(marked, [Some(WoundLevel::Dead)]);
    assert!(t.status().is_dead());
}

#[test]
fn config_errors_name_the_field() {
    let with_t = |f: fn(&mut WoundThresholds)| {
        let mut c = FudgeWoundsConfig::default();
        f(&mut c.thresholds);
        FudgeWounds::new(c).unwrap_err().to_string()
    };
    assert_eq!(
        with_t(|t| t.scratch = 0),
        "thresholds.scratch: 0 is outside 1..=2147483647"
    );
    assert_eq!(
        with_t(|t| t.very_hurt = 3),
        "thresholds.very_hurt: must be greater than thresholds.hurt (3), is 3"
    );
    assert_eq!(
        with_t(|t| t.dead = Some(9)),
        "thresholds.dead: must be greater than thresholds.near_death (9), is 9"
    );
    let mut c = FudgeWoundsConfig::default();
    c.boxes.near_death = 0;
    assert_eq!(
        FudgeWounds::new(c).unwrap_err().to_string(),
        "boxes.near_death: 0 is outside 1..=255"
    );
    c.boxes.near_death = 256;
    assert!(FudgeWounds::new(c).is_err());
    c.boxes.near_death = 255;
    assert_eq!(FudgeWounds::new(c).unwrap().boxes(WoundLevel::NearDeath), 255);
}

#[test]
fn wound_state_serializes_by_level_and_is_checked() {
    let m = fudge();
    let (_, t) = marks(&m, &[1, 1, 3]);
    let json = serde_json::to_string(&t).unwrap();
    assert_eq!(
        json,
        r#"{"scratch":2,"hurt":1,"very_hurt":0,"incapacitated":0,"near_death":0,"dead":false}"#
    );
    assert_eq!(serde_json::from_str::<WoundTrack>(&json).unwrap(), t);
    let too_many: WoundTrack = serde_json::from_str(r#"{"hurt":2}"#).unwrap();
    assert_eq!(
        m.validate_state(&too_many).unwrap_err().to_string(),
        "wounds.hurt: 2 is outside 0..=1"
    );
    // An inconsistent state does not make apply panic.
    let mut bad = WoundTrack::with_filled([255; 5], false);
    assert_eq!(m.apply(&mut bad, 1).change.marked, Some(WoundLevel::Dead));
}

#[test]
fn hit_points_parity_table() {
    let m = HitPoints::new(HitPointsConfig::parity(5)).unwrap();
    for (damage, lost) in [(i32::MIN, 0), (0, 0), (1, 1), (2, 1), (3, 2), (4, 2), (i32::MAX, 2)] {
        assert_eq!(m.hp_lost(damage), lost, "damage {damage}");
    }
    let mut s = m.fresh();
    assert_eq!(s.hp(), 5);
    let o = m.apply(&mut s, 3);
    assert_eq!(
        o.change,
        HitPointChange {
            damage: 3,
            lost: 2,
            hp: 3
        }
    );
    m.apply(&mut s, 1);
    let o = m.apply(&mut s, 1);
    assert_eq!(
        (o.change.hp, o.before, o.after),
        (1, Condition::Standing, Condition::Standing)
    );
    let o = m.apply(&mut s, 9);
    assert_eq!(o.change.hp, -1);
    assert!(o.newly_down() && o.newly_dead());
    // Dead: nothing more is taken.
    assert_eq!(m.apply(&mut s, 9).change.lost, 0);
    assert_eq!(s.hp(), -1);
}

#[test]
fn hit_points_margin_flat_and_table_gaps() {
    let m = HitPoints::new(HitPointsConfig::default()).unwrap();
    assert_eq!([0, 1, 7].map(|d| m.hp_lost(d)), [0, 1, 7]);
    let flat = HitPoints::new(HitPointsConfig {
        damage: HitDamage::Flat(3),
        ..HitPointsConfig::default()
    })
    .unwrap();
    assert_eq!([0, 1, 7].map(|d| flat.hp_lost(d)), [0, 3, 3]);
    let gap = HitPoints::new(HitPointsConfig {
        damage: HitDamage::Table(vec![DamageRow {
            min_margin: 2,
            damage: 4,
        }]),
        ..HitPointsConfig::default()
    })
    .unwrap();
    assert_eq!([1, 2, 3].map(|d| gap.hp_lost(d)), [0, 4, 4]);
}

#[test]
fn hit_points_down_before_dead_and_penalties() {
    let config = HitPointsConfig {
        max_hp: 10,
        dead_at: -5,
        penalties: vec![
            HitPointPenalty {
                hp_at_most: 6,
                penalty: -1,
            },
            HitPointPenalty {
                hp_at_most: 3,
                penalty: -2,
            },
        ],
        ..HitPointsConfig::default()
    };
    let m = HitPoints::new(config).unwrap();
    let mut s = m.fresh();
    let mut seen = Vec::new();
    for _ in 0..8 {
        let o = m.apply(&mut s, 2);
        seen.push((o.change.hp, o.penalty, o.after));
    }
    use Condition::*;
    assert_eq!(
        seen,
        [
            (8, 0, Standing),
            (6, -1, Standing),
            (4, -1, Standing),
            (2, -2, Standing),
            (0, -2, Down),
            (-2, -2, Down),
            (-4, -2, Down),
            (-6, -2, Dead),
        ]
    );
}

#[test]
fn hit_point_config_errors_name_the_field() {
    let err = |c: HitPointsConfig| c.validate().unwrap_err().to_string();
    let table = |rows: &[(i32, i32)]| HitPointsConfig {
        damage: HitDamage::Table(
            rows.iter()
                .map(|&(min_margin, damage)| DamageRow { min_margin, damage })
                .collect(),
        ),
        ..HitPointsConfig::default()
    };
    assert_eq!(err(HitPointsConfig::parity(0)), "max_hp: 0 is outside 1..=2147483647");
    assert_eq!(err(table(&[])), "damage.table: needs at least one row");
    assert_eq!(
        err(table(&[(0, 1)])),
        "damage.table[0].min_margin: 0 is outside 1..=2147483647"
    );
    assert_eq!(
        err(table(&[(3, 2), (1, 1)])),
        "damage.table[1].min_margin: must be greater than the row before (3), is 1; sort the table by min_margin"
    );
    assert_eq!(
        err(table(&[(1, 2), (3, 1)])),
        "damage.table[1].damage: must not be less than the row before (2), is 1"
    );
    assert_eq!(
        err(table(&[(1, -1)])),
        "damage.table[0].damage: -1 is outside 0..=2147483647"
    );
    assert_eq!(
        err(HitPointsConfig {
            damage: HitDamage::Flat(0),
            ..HitPointsConfig::default()
        }),
        "damage.flat: 0 is outside 1..=2147483647"
    );
    assert_eq!(
        err(HitPointsConfig {
            dead_at: 1,
            ..HitPointsConfig::default()
        }),
        "dead_at: 1 is outside -2147483648..=0"
    );
    let pen = |rows: &[(i32, i32)]| HitPointsConfig {
        penalties: rows
            .iter()
            .map(|&(hp_at_most, penalty)| HitPointPenalty { hp_at_most, penalty })
            .collect(),
        ..HitPointsConfig::default()
    };
    assert_eq!(
        err(pen(&[(10, -1)])),
        "penalties[0].hp_at_most: 10 is outside -2147483648..=9"
    );
    assert_eq!(
        err(pen(&[(5, 1)])),
        "penalties[0].penalty: 1 is outside -2147483648..=0"
    );
    assert!(err(pen(&[(3, -1), (5, -2)])).starts_with("penalties[1].hp_at_most: must be less than"));
    assert!(err(pen(&[(5, -2), (3, -1)])).starts_with("penalties[1].penalty: must not be milder"));
    assert!(pen(&[(5, -1), (3, -1)]).validate().is_ok());
}

#[test]
fn hit_point_state_is_checked() {
    let m = HitPoints::new(HitPointsConfig::parity(4)).unwrap();
    assert!(m.validate_state(&HitPointState::new(4)).is_ok());
    assert!(m.validate_state(&HitPointState::new(-100)).is_ok());
    assert_eq!(
        m.validate_state(&HitPointState::new(5)).unwrap_err().to_string(),
        "hp: 5 is outside -2147483648..=4"
    );
    let mut low = HitPointState::new(i32::MIN);
    m.apply(&mut low, 5);
    assert_eq!(low.hp(), i32::MIN);
}

#[test]
fn factors_sum_and_overflow() {
    let f = DamageFactors {
        offense: OffensiveFactors {
            strength: 1,
            weapon: 2,
            scale: 0,
            situational: 1,
        },
        defense: DefensiveFactors {
            armor: 2,
            scale: 0,
            damage_capacity: 1,
        },
    };
    let b = f.damage(2).unwrap();
    assert_eq!((b.offensive, b.defensive, b.damage), (4, 3, 3));
    assert_eq!(f.total().unwrap(), 1);
    assert_eq!(
        b.to_string(),
        "damage 3 = margin 2 + offense 4 (Strength 1, weapon 2, situational 1) - defense 3 (armor 2, Damage Capacity 1)"
    );
    assert_eq!(
        DamageFactors::default().damage(1).unwrap().to_string(),
        "damage 1 = margin 1"
    );
    let huge = DamageFactors::new(i32::MAX, 1, 0);
    assert_eq!(
        huge.damage(1).unwrap_err().to_string(),
        "damage.offense: arithmetic overflow (strength 2147483647 + weapon 1 + scale 0 + situational 0)"
    );
    let big = DamageFactors::new(i32::MAX, 0, 0);
    assert!(matches!(big.damage(1), Err(Error::Overflow { .. })));
    let wide = DamageFactors::new(i32::MAX, 0, 0).against(-1, 0, 0);
    assert!(matches!(wide.total(), Err(Error::Overflow { .. })));
    let scaled = DamageFactors::new(0, 0, 2).against(0, 1, 0);
    assert_eq!(scaled.damage(1).unwrap().damage, 2);
}

#[test]
fn runtime_choice_by_name_and_serde() {
    assert_eq!(DamageConfig::by_name("FUDGE").unwrap(), DamageConfig::default());
    assert_eq!(DamageConfig::by_name("hp").unwrap().name(), "hit_points");
    match DamageConfig::by_name("hitpoynts").unwrap_err() {
        Error::UnknownName { kind, suggestions, .. } => {
            assert_eq!(kind, "damage model");
            assert_eq!(suggestions.first().map(String::as_str), Some("hit_points"));
        }
        other => panic!("{other}"),
    }
    let damage: Damage = serde_json::from_str(r#"{"model":"hit_points","max_hp":3}"#).unwrap();
    assert_eq!(damage.name(), "hit_points");
    let json = serde_json::to_string(&damage).unwrap();
    assert_eq!(
        json,
        r#"{"model":"hit_points","max_hp":3,"damage":"margin","dead_at":0}"#
    );
    let unknown = serde_json::from_str::<DamageConfig>(r#"{"model":"hit_points","max_hp":3,"hp":1}"#);
    assert!(unknown.unwrap_err().to_string().contains("unknown field `hp`"));
    let unknown = serde_json::from_str::<DamageConfig>(r#"{"model":"fudge_wounds","boxes":{"scrach":1}}"#);
    assert!(unknown.unwrap_err().to_string().contains("unknown field `scrach`"));
    let state = Damage::default().fresh();
    assert_eq!(
        serde_json::to_string(&state).unwrap(),
        r#"{"model":"fudge_wounds","scratch":0,"hurt":0,"very_hurt":0,"incapacitated":0,"near_death":0,"dead":false}"#
    );
}

#[test]
fn a_mismatched_state_is_refused_and_left_alone() {
    let hp = Damage::HitPoints(HitPoints::new(HitPointsConfig::parity(2)).unwrap());
    let mut wounds = Damage::default().fresh();
    let before = wounds;
    let o = hp.apply(&mut wounds, 5);
    assert_eq!(o.change, DamageChange::Mismatch);
    assert_eq!(wounds, before);
    assert!(hp.validate_state(&wounds).is_err());
    let mut s = hp.fresh();
    assert!(hp.validate_state(&s).is_ok());
    let o = hp.apply(&mut s, 3);
    assert!(matches!(
        o.change,
        DamageChange::HitPoints(HitPointChange { lost: 2, .. })
    ));
    assert!(o.newly_dead());
}

#[test]
fn states_are_small() {
    assert_eq!(size_of::<WoundTrack>(), 6);
    assert_eq!(size_of::<HitPointState>(), 4);
    assert!(size_of::<DamageState>() <= 8);
}

mod prop {
    use super::*;
    use proptest::prelude::*;

    fn fudge_config() -> impl Strategy<Value = FudgeWoundsConfig> {
        (
            1..5i32,
            proptest::collection::vec(1..4i32, 4),
            proptest::option::of(1..5i32),
            proptest::collection::vec(1..4u32, 5),
        )
            .prop_map(|(scratch, steps, dead_step, boxes)| {
                let mut t = [scratch; 5];
                for i in 1..5 {
                    t[i] = t[i - 1] + steps[i - 1];
                }
                FudgeWoundsConfig {
                    thresholds: WoundThresholds {
                        scratch: t[0],
                        hurt: t[1],
                        very_hurt: t[2],
                        incapacitated: t[3],
                        near_death: t[4],
                        dead: dead_step.map(|s| t[4] + s),
                    },
                    boxes: WoundBoxes {
                        scratch: boxes[0],
                        hurt: boxes[1],
                        very_hurt: boxes[2],
                        incapacitated: boxes[3],
                        near_death: boxes[4],
                    },
                }
            })
    }

    fn damage() -> impl Strategy<Value = i32> {
        prop_oneof![any::<i32>(), -3..15i32]
    }

    fn hp_config() -> impl Strategy<Value = HitPointsConfig> {
        let table = proptest::collection::vec((1..4i32, 0..3i32), 1..4).prop_map(|steps| {
            let (mut m, mut d) = (0, 0);
            steps
                .into_iter()
                .map(|(dm, dd)| {
                    m += dm;
                    d += dd;
                    DamageRow {
                        min_margin: m,
                        damage: d,
                    }
                })
                .collect::<Vec<_>>()
        });
        let hit = prop_oneof![
            Just(HitDamage::Margin),
            (1..i32::MAX).prop_map(HitDamage::Flat),
            table.prop_map(HitDamage::Table),
        ];
        (
            1..i32::MAX,
            hit,
            prop_oneof![Just(0), any::<i32>().prop_map(|d| d.min(0))],
        )
            .prop_map(|(max_hp, damage, dead_at)| HitPointsConfig {
                max_hp,
                damage,
                dead_at,
                penalties: if max_hp > 2 {
                    vec![HitPointPenalty {
                        hp_at_most: max_hp / 2,
                        penalty: -1,
                    }]
                } else {
                    Vec::new()
                },
            })
    }

    proptest! {
        #[test]
        fn wound_tracks_stay_consistent(config in fudge_config(), hits in proptest::collection::vec(damage(), 0..40)) {
            let m = FudgeWounds::new(config).unwrap();
            let mut t = m.fresh();
            let mut total_filled = 0u32;
            for d in hits {
                let before = m.status(&t);
                let o = m.apply(&mut t, d);
                prop_assert!(m.validate_state(&t).is_ok());
                prop_assert_eq!(o.before, before);
                prop_assert!(o.after >= o.before);
                prop_assert_eq!(o.after, m.status(&t));
                prop_assert_eq!(o.penalty, m.wound_penalty(&t));
                prop_assert!([0, -1, -2].contains(&o.penalty));
                let filled: u32 = WoundLevel::WITH_BOXES.iter().map(|&l| u32::from(t.filled(l))).sum();
                prop_assert!(filled >= total_filled);
                prop_assert_eq!(o.change.marked.is_some(), d >= config.thresholds.scratch && !before.is_dead());
                if let (Some(called), Some(marked)) = (o.change.called_for, o.change.marked) {
                    prop_assert!(marked >= called);
                }
                total_filled = filled;
            }
        }

        #[test]
        fn hit_points_stay_consistent(config in hp_config(), hits in proptest::collection::vec(damage(), 0..40)) {
            let m = HitPoints::new(config.clone()).unwrap();
            let mut s = m.fresh();
            for d in hits {
                let hp = s.hp();
                let o = m.apply(&mut s, d);
                prop_assert!(m.validate_state(&s).is_ok());
                prop_assert!(s.hp() <= hp);
                prop_assert!(o.change.lost >= 0);
                prop_assert!(o.after >= o.before);
                prop_assert_eq!(o.after, m.status(&s));
                prop_assert_eq!(o.after.is_down(), s.hp() <= 0);
                prop_assert!(o.penalty <= 0);
            }
        }

        #[test]
        fn factors_never_panic(margin: i32, s: i32, w: i32, sc: i32, a: i32, dsc: i32, dc: i32) {
            let f = DamageFactors::new(s, w, sc).against(a, dsc, dc);
            if let Ok(b) = f.damage(margin) {
                let exact = i64::from(margin) + i64::from(s) + i64::from(w) + i64::from(sc)
                    - i64::from(a) - i64::from(dsc) - i64::from(dc);
                prop_assert_eq!(i64::from(b.damage), exact);
                let _ = b.to_string();
            }
        }

        #[test]
        fn any_damage_config_from_json_never_panics(json in "\\{\"model\":\"(fudge_wounds|hit_points)\"(,\"max_hp\":-?[0-9]{1,3})?\\}") {
            let _ = serde_json::from_str::<Damage>(&json);
        }
    }
}
