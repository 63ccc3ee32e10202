//! A live Encounter, as a GM's app drives it at the table: two fighters
//! and a group of orcs under the Continuous timing system, a few turns with
//! rolls typed in from real dice, a mistake undone, and the log.
//!
//! Run with `cargo run -p skirmish-core --example live_encounter`.

use skirmish_core::fighter::FighterProfile;
use skirmish_core::timing::{InitiativeEntry, TimingSystem};
use skirmish_core::tracker::{Encounter, EncounterStrikeOptions, StrikeDice, Turn};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // Seed 7: whatever the tracker rolls itself is the same on every run.
    let mut e = Encounter::new(TimingSystem::continuous(), 7)?;

    let mut roland = FighterProfile::new("Roland");
    (roland.strike_rating, roland.defense_rating) = (9, 6);
    let mut orc = FighterProfile::new("Orc");
    (orc.strike_rating, orc.defense_rating, orc.count) = (6, 5, 2);
    let roland = e.add_fighter("party", &roland)?[0];
    let orcs = e.add_fighter("orcs", &orc)?;

    // Initiative typed in from the table (a total, or a 4dF roll).
    e.set_initiative(roland, InitiativeEntry::Roll(1))?;
    e.set_initiative(orcs[0], InitiativeEntry::Total(3))?;

    let mut last = None;
    for _ in 0..7 {
        match e.next()? {
            Turn::NewRound { round, sheet, .. } => {
                println!("round {round}:");
                for line in &sheet {
                    let names: Vec<&str> = line.lines.iter().map(|l| l.name.as_str()).collect();
                    println!("  tick {:>3}: {}", line.display, names.join(", "));
                }
            }
            Turn::Moment { moment, lines, .. } => {
                for line in lines {
                    println!("tick {}: {} acts", moment.display, line.name);
                    // Roland strikes the first orc, an orc strikes Roland,
                    // with the attack roll typed in (+1).
                    let attacker = line.members[0];
                    let target = if attacker == roland { orcs[0] } else { roland };
                    let report = e.strike(
                        attacker,
                        target,
                        EncounterStrikeOptions::default(),
                        StrikeDice::typed(1, None),
                    )?;
                    println!(
                        "  {} + roll {:+} = {} against {}: {:?}, damage {}",
                        report.attack_total - report.attack_roll,
                        report.attack_roll,
                        report.attack_total,
                        report.defense_total,
                        report.result,
                        report.damage
                    );
                    last = Some((attacker, target));
                }
            }
            Turn::Over => break,
        }
    }

    // A mistake: the last strike's die showed -4, not +1. Undo it (the
    // wound goes too) and strike again with the corrected roll.
    let (attacker, target) = last.ok_or("nobody struck")?;
    let before = e.log_len();
    e.undo()?;
    println!("undone: the log went from {before} to {} entries", e.log_len());
    let report = e.strike(
        attacker,
        target,
        EncounterStrikeOptions::default(),
        StrikeDice::typed(-4, None),
    )?;
    println!("struck again with -4: {:?}", report.result);

    println!("log:");
    for entry in e.log() {
        println!("  {entry}");
    }
    // The whole encounter, generator state included, as JSON: restore it
    // to continue exactly where it stopped.
    let saved = e.snapshot()?;
    let restored = Encounter::restore(&saved)?;
    if restored.log() != e.log() {
        return Err("a restored encounter should have the same log".into());
    }
    println!("snapshot: {} bytes of JSON, restored", saved.len());
    Ok(())
}
