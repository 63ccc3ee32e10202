//! A strike by the Full Contact rules, with the numbers of the text's
//! example: Cardiff the paladin swings his sword at a goblin sentry.
//!
//! The ratings are built from traits (so the breakdown reads like the text),
//! the exact odds come before the roll, the text's roll of -1 decides the
//! strike, and the blow goes on the goblin's FUDGE wound track.
//!
//! Run with `cargo run -p skirmish-core --example full_contact_strike`.

use skirmish_core::damage::{DamageFactors, DamageModel, FudgeWounds, WoundLevel};
use skirmish_core::dice::ScriptedRolls;
use skirmish_core::ladder::Level;
use skirmish_core::striking::full_contact::{
    DefenseRating, StrikeOptions, StrikeOutcome, StrikeRating, odds, resolve, roll_strike,
};
use skirmish_core::tables::armor::armor;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // Strike Rating: 5 + skill (Great, +2) + half of Superb Strength (+1)
    // + weapon quality (Good, +1).
    let sword = StrikeRating::builder()
        .skill(Level::GREAT)
        .attribute("strength", Level::SUPERB)
        .weapon(Level::GOOD)
        .build()?;
    println!("Cardiff's SR: {sword}");

    // The goblin sentry's Defense Rating, as the text gives it: 6 (3 + armor 3).
    let goblin = DefenseRating::builder().armor(3).build()?;
    println!("goblin's DR:  {goblin}");

    // Cardiff's own DR, from the armor table: plate mail with gauntlets,
    // greaves and helm, and his Terrible Agility.
    let cardiff = DefenseRating::builder()
        .skill(0)
        .attribute("agility", Level::TERRIBLE)
        .armor_from_table(armor("plate mail")?)
        .armor_from_table(armor("gauntlets, greaves & helm")?)
        .build()?;
    println!("Cardiff's DR: {cardiff}");

    // Exact odds before rolling: counts of the 81 equally likely 4dF rolls.
    let core = StrikeOptions::default();
    let o = odds(sword.total(), goblin.total(), core);
    println!("chance to hit the goblin: {}/{}", o.hit.numerator, o.hit.denominator);
    check((o.hit.numerator, o.hit.denominator) == (76, 81), "76 of 81 rolls hit")?;

    // The text's roll: -1. 9 - 1 = 8 > 6, a hit by 2.
    let mut table = ScriptedRolls::new([-1]);
    let strike = roll_strike(&mut table, sword.total(), goblin.total(), None, core)?;
    println!("Cardiff rolls {:+}: {}", strike.roll, strike.outcome);
    check(strike.outcome == StrikeOutcome::Hit { margin: 2 }, "a hit by 2")?;

    // Damage = margin 2 + offense (Strength 1, sword 1) - defense (armor 1).
    let margin = i32::try_from(strike.outcome.margin())?;
    let hit = DamageFactors::new(1, 1, 0).against(1, 0, 0).damage(margin)?;
    println!("{hit}");
    let wounds = FudgeWounds::default();
    let mut goblin_track = wounds.fresh();
    let outcome = wounds.apply(&mut goblin_track, hit.damage);
    let level = goblin_track
        .worst()
        .map_or_else(|| "unhurt".to_string(), |l| l.to_string());
    println!(
        "the goblin is {level} (penalty {}), still standing: {}",
        wounds.wound_penalty(&goblin_track),
        !outcome.after.is_down()
    );
    check(goblin_track.worst() == Some(WoundLevel::Hurt), "the goblin is Hurt")?;

    // The goblin's reply: SR 5 rolls +2; 7 ties Cardiff's DR 7, and a tie
    // goes to the defender.
    let reply = resolve(5, cardiff.total(), 2, core)?;
    println!("the goblin rolls +2: {reply}");
    check(!reply.is_hit(), "a tie goes to the defender")?;
    Ok(())
}

/// Fails the example (exit code 1) if the rules stopped giving the text's numbers.
fn check(ok: bool, what: &str) -> Result<(), Box<dyn std::error::Error>> {
    if ok {
        Ok(())
    } else {
        Err(format!("expected {what}").into())
    }
}
