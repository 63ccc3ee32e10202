//! Findings of the fuzz targets in `fuzz/` (docs/reliability.md), each
//! kept as the smallest case that showed it.

use skirmish_core::fighter::FighterProfile;
use skirmish_core::ladder::{CombatLevel, Level};
use skirmish_core::timing::TimingSystem;
use skirmish_core::tracker::Encounter;

/// `tracker_ops`, 2026-12-01: a fighter with a plus-level below Terrible
/// (`"Terrible-253+"`) was accepted, but the encounter's own snapshot wrote
/// the level in a form restore refused ("-253+" after the name is not +N,
/// -N or +). The ladder now reads back everything it writes.
#[test]
fn a_plus_level_off_the_named_rungs_survives_a_snapshot() {
    for skill in [CombatLevel::plus(Level::new(-256)), CombatLevel::plus(Level::new(9))] {
        let mut e = Encounter::new(TimingSystem::action_blocks(), 7).unwrap();
        let mut p = FighterProfile::new("odd");
        p.count = 16;
        p.skill = skill;
        e.add_fighter("foes", &p).unwrap();
        let saved = e.snapshot().unwrap();
        let back = Encounter::restore(&saved).unwrap_or_else(|err| panic!("{skill}: {err}"));
        assert_eq!(back, e);
        assert_eq!(back.snapshot().unwrap(), saved);
    }
}
