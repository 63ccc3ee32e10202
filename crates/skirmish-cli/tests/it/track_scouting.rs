//! FUDGE 4.31's scouting in `skirmish track` (docs/rules.md §2.2.3): a
//! scenario whose group scouts opens at the table, `scout WHO FOE [roll N]`
//! reports the roll, the scouted foe's next moment shows "foe scouted -1"
//! attacking and defending, undo takes it back, and bad reports are
//! refusals.

use super::track::{assert_lines_in_order, track};

const SCOUTING: [&str; 6] = [
    "--set",
    "striking=fudge-opposed",
    "--set",
    "sides.party.groups.1.stance=all_out_defense",
    "--set",
    "sides.party.groups.1.scouting=Good",
];

#[test]
fn a_scout_puts_its_foe_at_minus_one_at_its_next_moment() {
    let s = track(
        &SCOUTING,
        "next\nnext\nscout Madoc \"Orc #1\" roll 1\nstrike \"Orc #1\" Madoc roll 0 defense 0\nnext\n\
         strike \"Orc #1\" Madoc roll 0 defense 0\nstrike Cardiff \"Orc #1\" roll 0 defense 0\nnext\n\
         strike \"Orc #1\" Madoc roll 0 defense 0\n",
    );
    assert_eq!(s.stderr, "");
    assert_lines_in_order(
        &s.stdout,
        &[
            "Madoc defended unhit and rolls Perception/Tactics Great vs Fair: scouts, Orc #1 at -1 next",
            // Not in the moment it was scouted in...
            "  attack 0: skill 0, roll +0",
            "tick 4: Madoc acts",
            // ...in every exchange of its next...
            "  attack -1: skill 0, foe scouted -1, roll +0",
            "  defense -1: skill 0, foe scouted -1, roll +0",
            "tick 5: Madoc acts",
            // ...and no later.
            "  attack -2: skill 0, Very Hurt -2, roll +0",
        ],
    );
}

#[test]
fn scouting_is_undone_and_bad_reports_are_refused() {
    let s = track(
        &SCOUTING,
        "next\nnext\nscout Madoc \"Orc #1\" roll -3\nundo\nscout Cardiff \"Orc #1\"\nscout Madoc \"Orc #1\" roll 9\n\
         scout Madoc Madoc\nscout Madoc \"Orc #1\" dice 2\nscout Madoc\n",
    );
    assert_lines_in_order(
        &s.stdout,
        &[
            "Madoc defended unhit and rolls Perception/Tactics Poor vs Fair: no scouting",
            "undone; now tick 3 (undo 2 more, redo 1)",
        ],
    );
    assert_lines_in_order(
        &s.stderr,
        &[
            "error [invalid_input] scout: Cardiff has no Perception or Tactics trait to scout with (its profile's `scouting`)",
            "error [invalid_input] roll: scripted roll #1 for 4dF: 9 is outside -4..=4",
            "error [invalid_input] foe: a combatant cannot scout itself",
            "error [syntax] option: \"dice\" is not an option of scout (roll)",
            "error [syntax] FOE: missing; usage: scout WHO FOE [roll N]",
        ],
    );
    // Under Full Contact there is no scouting.
    let s = track(&[], "scout Madoc \"Orc #1\"\n");
    assert!(
        s.stderr
            .contains("error [invalid_input] rules.striking: scouting is a FUDGE 4.31 rule"),
        "{}",
        s.stderr
    );
}
