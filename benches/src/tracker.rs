//! A long fight at a phone's scale for the tracker's benches: 30 combatants
//! (15 a side) under Continuous timing, struck and stepped operation by
//! operation as a GM app drives it, so that undo history, log and snapshot
//! size can be measured after any number of operations.

use skirmish_core::damage::{DamageConfig, HitPointsConfig};
use skirmish_core::fighter::{FighterProfile, Striking};
use skirmish_core::timing::TimingSystem;
use skirmish_core::tracker::{
    CombatantId, Encounter, EncounterRules, EncounterStrikeOptions, Status, StrikeDice, TrackerError, Turn,
};
use skirmish_sim::SimError;
use skirmish_sim::odds::encounter_from_scenario;
use skirmish_sim::scenario::Scenario;

/// Combatants a side.
pub const PER_SIDE: u32 = 15;

/// An encounter after `ops` successful operations (adding the 30
/// combatants counts 30): every acting combatant strikes an enemy with
/// rolled dice, then the GM asks who is next. Hit points are high enough
/// that nobody falls, so the fight lasts.
pub fn long_fight(ops: u64) -> Result<Encounter, TrackerError> {
    let rules = EncounterRules {
        striking: Striking::default(),
        damage: DamageConfig::HitPoints(HitPointsConfig {
            max_hp: 1_000_000,
            ..HitPointsConfig::default()
        }),
    };
    let mut e = Encounter::with_rules(TimingSystem::continuous(), rules, 7)?;
    let mut done = 0;
    for i in 0..PER_SIDE {
        for side in ["party", "foes"] {
            let mut p = FighterProfile::new(format!("{side} {i}"));
            p.strike_rating = 6 + (i % 3) as i32;
            p.defense_rating = 5 + (i % 2) as i32;
            e.add_fighter(side, &p)?;
            done += 1;
        }
    }
    let mut k = 0u32;
    while done < ops {
        let turn = e.next()?;
        done += 1;
        let Turn::Moment { lines, .. } = turn else {
            if matches!(turn, Turn::Over) {
                break;
            }
            continue;
        };
        for line in lines {
            for m in line.members {
                if done >= ops {
                    return Ok(e);
                }
                // Fighters alternate sides: an enemy is one of the other parity.
                k = k.wrapping_add(7);
                let target = CombatantId((k % PER_SIDE) * 2 + (1 - m.0 % 2));
                if e.strike(m, target, EncounterStrikeOptions::default(), StrikeDice::default())
                    .is_ok()
                {
                    done += 1;
                }
            }
        }
    }
    Ok(e)
}

/// The goblin ambush played at the table until the first fighter falls:
/// the built-in scenario as a live encounter (seed 2026), every landing
/// member striking the first enemy standing with the encounter's own
/// dice. The odds-from-here bench and its profiling example start here.
pub fn ambush_mid_fight() -> Result<Encounter, SimError> {
    let ambush = Scenario::builtin("goblin-ambush").map_err(|e| SimError::Scenario(e.to_string()))?;
    let mut e = encounter_from_scenario(&ambush, 2026)?;
    loop {
        let lines = match e.next()? {
            Turn::Moment { lines, .. } => lines,
            Turn::NewRound { .. } => continue,
            Turn::Over => return Err(SimError::Scenario("the ambush ended before anyone fell".into())),
        };
        let mut fell = false;
        for member in lines.iter().filter(|l| l.lands).flat_map(|l| l.members.clone()) {
            let views = e.combatants();
            let side = views[member.0 as usize].side.clone();
            let Some(target) = views.iter().find(|v| v.side != side && v.status == Status::Standing) else {
                break;
            };
            fell |= e
                .strike(
                    member,
                    target.id,
                    EncounterStrikeOptions::default(),
                    StrikeDice::default(),
                )?
                .went_down;
        }
        if fell {
            return Ok(e);
        }
    }
}
