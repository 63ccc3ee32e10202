//! Amazing results as the Full Contact text describes them (docs/rules.md
//! §2.1.8): double damage from an amazing strike; an attacker disarmed
//! (its next action lost) or knocked down (a Defense Rating penalty until
//! its next action) by an amazing defense.

use skirmish_core::dice::SeededRolls;
use skirmish_sim::battle::{Battle, RunOptions, Workspace};
use skirmish_sim::scenario::Scenario;

const TRACE: RunOptions = RunOptions {
    trace: true,
    casualties: false,
};

/// Two even fighters with the amazing rule on and `extra` striking options.
fn duel(timing: &str, extra: &str) -> Scenario {
    toml::from_str(&format!(
        r#"
        name = "amazing duel"
        timing = {{ system = "{timing}" }}
        striking = {{ system = "full_contact", amazing = true{extra} }}
        [[sides]]
        name = "A"
        groups = [{{ name = "A", strike_rating = 6, defense_rating = 6 }}]
        [[sides]]
        name = "B"
        groups = [{{ name = "B", strike_rating = 6, defense_rating = 6 }}]
        "#
    ))
    .unwrap()
}

fn lines(s: &Scenario, battles: u64) -> Vec<String> {
    let b = Battle::new(s).unwrap();
    (0..battles)
        .flat_map(|i| b.run(4, i, &TRACE).unwrap().trace.unwrap())
        .map(|l| l.text)
        .collect()
}

#[test]
fn the_defaults_are_the_battles_of_before() {
    let plain = duel("continuous", "");
    let spelled = duel(
        "continuous",
        r#", amazing_strike = "flat", amazing_defense = "none", knock_down_penalty = 2"#,
    );
    let (a, b) = (Battle::new(&plain).unwrap(), Battle::new(&spelled).unwrap());
    assert!(a.has_fast_path() && b.has_fast_path());
    for i in 0..20 {
        assert_eq!(a.run(4, i, &TRACE).unwrap(), b.run(4, i, &TRACE).unwrap());
    }
}

#[test]
fn double_damage_doubles_an_amazing_strike() {
    let mut seen = 0;
    for line in lines(&duel("continuous", r#", amazing_strike = "double_damage""#), 30) {
        // "... amazing strike (margin +M), damage D; double damage"
        let Some((_, rest)) = line.split_once("amazing strike (margin +") else {
            continue;
        };
        let (margin, rest) = rest.split_once("), damage ").unwrap();
        let (damage, rest) = rest.split_once(';').unwrap();
        assert_eq!(rest, " double damage", "{line}");
        assert_eq!(
            damage.parse::<i32>().unwrap(),
            2 * margin.parse::<i32>().unwrap(),
            "{line}"
        );
        seen += 1;
    }
    assert!(seen > 0, "no amazing strike in 30 battles");
}

#[test]
fn a_disarmed_attacker_loses_its_next_action() {
    for timing in ["simple_rounds", "continuous", "tick_system"] {
        let trace = lines(&duel(timing, r#", amazing_defense = "disarm""#), 30);
        let mut disarmed = [false, false];
        let (mut disarms, mut lost) = (0, 0);
        for line in &trace {
            let who = usize::from(line.starts_with('B'));
            if line.contains("is disarmed (its next action is lost)") {
                disarmed[who] = true;
                disarms += 1;
            } else if line.ends_with("recovers its weapon: the action is lost") {
                assert!(std::mem::take(&mut disarmed[who]), "{timing}: {line}");
                lost += 1;
            } else if line.contains(" strikes ") {
                assert!(!disarmed[who], "{timing}: a disarmed fighter struck: {line}");
            } else if line.ends_with(" falls") {
                disarmed[who] = false;
            }
        }
        assert!(
            disarms > 0 && lost > 0,
            "{timing}: {disarms} disarms, {lost} actions lost"
        );
    }
}

#[test]
fn a_knocked_down_attacker_defends_worse_until_its_next_action() {
    let s = duel(
        "continuous",
        r#", amazing_defense = "knock_down", knock_down_penalty = 3"#,
    );
    let b = Battle::new(&s).unwrap();
    let mut lowered = 0;
    for i in 0..40 {
        let trace = b.run(4, i, &TRACE).unwrap().trace.unwrap();
        let mut knocked = [false, false];
        let mut at = 0;
        while at < trace.len() {
            // One moment's lines: whoever acts in it is up again for all of it.
            let tick = trace[at].tick;
            let moment: Vec<&str> = trace[at..]
                .iter()
                .take_while(|l| l.tick == tick)
                .map(|l| l.text.as_str())
                .collect();
            at += moment.len();
            for line in &moment {
                if line.contains(" strikes ") {
                    knocked[usize::from(line.starts_with('B'))] = false;
                }
            }
            for line in &moment {
                let who = usize::from(line.starts_with('B'));
                if line.contains(" strikes ") && knocked[1 - who] {
                    // The DR it strikes at: 6, less the foe's wounds and 3.
                    let dr: i32 = line
                        .split(" vs DR ")
                        .nth(1)
                        .unwrap()
                        .split(':')
                        .next()
                        .unwrap()
                        .parse()
                        .unwrap();
                    assert!(dr <= 3, "{line}");
                    lowered += 1;
                }
            }
            for line in &moment {
                if line.contains("is knocked down (DR -3 until its next action)") {
                    knocked[usize::from(line.starts_with('B'))] = true;
                }
            }
        }
    }
    assert!(lowered > 0, "no strike at a knocked-down fighter in 40 battles");
}

#[test]
fn amazing_options_change_battles_decline_the_fast_paths_and_agree_on_every_clock() {
    for extra in [
        r#", amazing_strike = "double_damage""#,
        r#", amazing_defense = "disarm""#,
        r#", amazing_defense = "knock_down""#,
    ] {
        for timing in ["simultaneous", "graduated_rounds", "continuous", "action_blocks"] {
            let b = Battle::new(&duel(timing, extra)).unwrap();
            assert!(!b.has_fast_path(), "{timing}{extra}");
            let base = Battle::new(&duel(timing, "")).unwrap();
            let mut ws = Workspace::default();
            let mut differ = 0;
            for i in 0..30 {
                let lean = b
                    .run_with(&mut ws, &mut SeededRolls::for_stream(4, i), &TRACE, true)
                    .unwrap();
                let general = b
                    .run_with(&mut ws, &mut SeededRolls::for_stream(4, i), &TRACE, false)
                    .unwrap();
                assert_eq!(lean, general, "{timing}{extra} battle {i}");
                differ += usize::from(lean.summary != base.run_summary(&mut ws, 4, i).unwrap());
            }
            assert!(differ > 0, "{timing}{extra}: the option changed no battle");
        }
    }
}

#[test]
fn amazing_options_are_warned_about_and_bad_values_name_the_field() {
    let off = duel(
        "continuous",
        r#", amazing_defense = "disarm", amazing_strike = "double_damage""#,
    )
    .with_field("striking.amazing", "false")
    .unwrap();
    assert_eq!(
        off.warnings(),
        [
            "striking.amazing_strike: double_damage has no effect without the amazing rule (striking.amazing = true)",
            "striking.amazing_defense: disarm has no effect without the amazing rule (striking.amazing = true)",
        ]
    );
    let flat_extra = duel(
        "continuous",
        r#", amazing_strike = "double_damage", amazing_strike_damage = 2"#,
    );
    assert_eq!(
        flat_extra.warnings(),
        [
            "striking.amazing_strike_damage: 2 has no effect with amazing_strike = \"double_damage\" (the flat extra is \
          the \"flat\" rule's)"
        ]
    );
    let penalty = duel("continuous", ", knock_down_penalty = 4");
    assert_eq!(
        penalty.warnings(),
        ["striking.knock_down_penalty: 4 has no effect without amazing = true and amazing_defense = \"knock_down\""]
    );
    let s = duel("continuous", "");
    let e = s
        .with_field("striking.amazing_defense", "trip")
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("striking.amazing_defense") && e.contains("knock_down"),
        "{e}"
    );
    let e = s
        .with_field("striking.knock_down_penalty", "-1")
        .unwrap_err()
        .to_string();
    assert_eq!(e, "striking.knock_down_penalty: -1 is outside 0..=1000");
    let e = s
        .with_field("striking.amazing_strike", "triple")
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("striking.amazing_strike") && e.contains("double_damage"),
        "{e}"
    );
    // A parry policy under FUDGE striking is warned about too.
    let fudge = crate::parry::brooklyn("continuous", "always")
        .with_field("striking", "fudge-opposed")
        .unwrap();
    assert_eq!(
        fudge.warnings(),
        [
            "sides[1].groups[0].parry: always has no effect under fudge-opposed striking (only full-contact striking \
          reads it; there the defender's opposed roll is its defense)"
        ]
    );
}
