//! `skirmish replay --as-in-the-text`: every timing
//! example of the texts, with their declarations and rolls, each number as
//! the text gives it; and a long replay in bounded memory.

use std::process::Command;

fn replay(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_skirmish"))
        .arg("replay")
        .args(args)
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}\n{text}",
        String::from_utf8_lossy(&out.stderr)
    );
    text
}

fn has_all(text: &str, needles: &[&str]) {
    for n in needles {
        assert!(text.contains(n), "missing {n:?} in:\n{text}");
    }
}

#[test]
fn every_system_plays_its_examples_and_each_comes_out_as_in_the_text() {
    for (system, examples) in [
        ("simultaneous", 1),
        ("simple-rounds", 3),
        ("graduated-rounds", 6),
        ("continuous", 1),
        ("tick-system", 3),
        ("action-blocks", 2),
    ] {
        let s = replay(&["--system", system, "--as-in-the-text"]);
        assert!(!s.contains("NOT AS IN THE TEXT"), "{s}");
        assert_eq!(s.matches("\n== ").count(), examples, "{system}: {s}");
    }
}

#[test]
fn graduated_rounds_ready_times_5_3_1_give_ticks_8_7_6_and_the_third_shot_at_8() {
    let s = replay(&["--system", "graduated-rounds", "--as-in-the-text"]);
    has_all(
        &s,
        &[
            "sheet  3: Orc #1 | 4: Madoc, Orc #2 | 5: Roland | 6: Shaman | 8: Cardiff | 9: Goblin #1, Goblin #2",
            "Orc #1 declares dagger: roll +2 + TT 3 - bonus 0 = Ready Time 5; + tick 3 -> lands on 8",
            "Orc #2 declares dagger: roll +0 + TT 3 - bonus 0 = Ready Time 3; + tick 4 -> lands on 7",
            "Roland declares elven bow: roll -1 + TT 2 - bonus 1 = Ready Time 1 (at least 1); + tick 5 -> lands on 6",
            // The revised order.
            "sheet  6: Shaman, Roland | 7: Orc #2 | 8: Cardiff, Orc #1 | 9: Goblin #1, Goblin #2",
            "== Graduated Rounds: with Bracers of Archery, Roland's third shot lands at tick 8",
        ],
    );
    let bracers = &s[s.find("Bracers of Archery").unwrap()..];
    let bracers = &bracers[..bracers.find("\n== ").unwrap_or(bracers.len())];
    assert!(bracers.contains("-> lands on 8"), "{bracers}");
}

#[test]
fn the_continuous_walk_through_has_every_table_the_lost_spell_and_the_drawn_sword() {
    let s = replay(&["--system", "continuous", "--as-in-the-text"]);
    has_all(
        &s,
        &[
            // Orc #1's blow "in tick #10" (a GM-set Ready Time of 7).
            "Orc #1 declares stab Cardiff, the GM's Ready Time 7 -> lands on 10",
            "Madoc declares hidden dagger, the GM's Ready Time 6 -> lands on 10",
            // The shaman's lost spell: +2 ticks to recover.
            "+ preparation 2 = Ready Time 3; + tick 4 -> lands on 7",
            // Roland draws his short sword: TT 4, tick 11.
            "Roland declares draw short sword: roll +0 + TT 4 - bonus 0 = Ready Time 4; + tick 7 -> lands on 11",
            "sheet  8: Cardiff | 9: Goblin #1 | 10: Orc #1, Madoc, Shaman | 11: Roland",
        ],
    );
}

#[test]
fn the_tick_system_acts_on_20_is_done_on_18_and_waits_its_interval_to_12() {
    let s = replay(&["--system", "tick-system", "--as-in-the-text"]);
    has_all(
        &s,
        &[
            "sheet  20: Bob (turn) | 15: Foe (turn)",
            "Bob declares attack: 2 ticks from 20 -> lands on 18",
            "sheet  18: Bob | 15: Foe (turn) | 12: Bob (turn)",
            "next turn on 5",
        ],
    );
}

#[test]
fn a_thousand_rounds_replay_streams_json_that_parses() {
    let json = replay(&["--system", "simple-rounds", "--rounds", "1000", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let turns = v.as_array().unwrap();
    assert!(turns.len() > 1000, "{}", turns.len());
    assert_eq!(turns[0]["turn"]["turn"], "new_round");
}
