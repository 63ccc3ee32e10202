//! Wound penalties feed back into the wounded fighter's rolls.

use std::collections::HashMap;

use skirmish_sim::battle::{Battle, RunOptions};
use skirmish_sim::scenario::Scenario;

#[test]
fn a_wounded_fighter_strikes_at_a_lower_strike_rating_and_never_recovers() {
    let s = Scenario::builtin("goblin-ambush").unwrap();
    let b = Battle::new(&s).unwrap();
    let mut lowered = 0;
    for i in 0..40 {
        let r = b
            .run(
                11,
                i,
                &RunOptions {
                    trace: true,
                    casualties: false,
                },
            )
            .unwrap();
        // "<name> (<weapon>) strikes <target>: SR <n> <roll> vs DR <m>: ..."
        let mut last: HashMap<String, i32> = HashMap::new();
        let mut first: HashMap<String, i32> = HashMap::new();
        for line in r.trace.unwrap() {
            let Some((who, rest)) = line.text.split_once(" (") else {
                continue;
            };
            let Some(sr) = rest.split(": SR ").nth(1).and_then(|x| x.split(' ').next()) else {
                continue;
            };
            let sr: i32 = sr.parse().unwrap();
            if let Some(prev) = last.insert(who.to_string(), sr) {
                assert!(sr <= prev, "{who}'s SR went up from {prev} to {sr} (battle {i})");
            }
            let base = *first.entry(who.to_string()).or_insert(sr);
            if sr < base {
                lowered += 1;
            }
        }
    }
    assert!(lowered > 0, "nobody ever struck at a wound penalty in 40 battles");
}
