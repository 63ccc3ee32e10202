//! The Tick System's Acquire in battles (docs/rules.md §1.5, §5): "If you
//! intend to engage in long-range combat, you must first Acquire your
//! target (this merely makes the first attack on your chosen target take
//! an additional 2 ticks)". A ranged fighter that shoots at another target
//! than its last (its first shot included) has its next turn pushed by
//! `acquire_ticks`, read off a battle's trace with the text's numbers (act
//! on 20 for 2 ticks: done on 18; Interval 6: next turn on 12, 10 with
//! Acquire's 2); `acquire_ticks` changes battles; battles without a
//! ranged group are fought as before.

use skirmish_sim::battle::{Battle, RunOptions};
use skirmish_sim::report::TraceLine;
use skirmish_sim::scenario::Scenario;

/// Roland with a short bow under the Tick System (`1d1`: his initiative
/// is the text's 20) against `goblins` goblins 100' off (within the bow's
/// Short range), who hold; nobody can hurt anybody (toughness 100), so the
/// clock alone shows. Targets by `targeting`.
fn archery(goblins: u32, targeting: &str) -> Scenario {
    toml::from_str(&format!(
        r#"
        name = "acquire"
        timing = {{ system = "tick_system", initiative_die = "1d1" }}
        distance = 100
        [battle]
        max_rounds = 1
        targeting = "{targeting}"
        [[sides]]
        name = "party"
        groups = [{{ name = "Roland", initiative_bonus = 19, interval = 6, action_ticks = 2, toughness = 100, weapon = "Bow, Short", range = {{ short_range = 150, range_strength = 50 }} }}]
        [[sides]]
        name = "goblins"
        groups = [{{ name = "Goblin", count = {goblins}, toughness = 100, interval = 6, plan = "hold" }}]
        "#
    ))
    .unwrap()
}

fn trace(scenario: &Scenario) -> Vec<(i64, String)> {
    let report = Battle::new(scenario).unwrap().run(7, 0, &RunOptions::FULL).unwrap();
    report
        .trace
        .unwrap()
        .into_iter()
        .map(|TraceLine { display, text, .. }| (display, text))
        .collect()
}

/// The countdown ticks at which Roland shoots.
fn shots(lines: &[(i64, String)]) -> Vec<i64> {
    lines
        .iter()
        .filter(|(_, t)| t.starts_with("Roland (Bow, Short) shoots"))
        .map(|(d, _)| *d)
        .collect()
}

fn said(lines: &[(i64, String)], text: &str) -> Vec<i64> {
    lines
        .iter()
        .filter(|(_, t)| t.starts_with(text))
        .map(|(d, _)| *d)
        .collect()
}

#[test]
fn a_ranged_attacker_switching_targets_has_its_turn_pushed_by_two_ticks() {
    // Roland acts on 20 for 2 ticks: done on 18; his first shot Acquires
    // Goblin 1, so his next turn is 12 + 2 = 10 (done on 8). "Least
    // engaged" sends his second shot at Goblin 2, another Acquire: his
    // next turn, 2 - 2 = 0, falls past the round's end and is lost.
    let lines = trace(&archery(2, "least_engaged"));
    assert_eq!(shots(&lines), [18, 8]);
    assert_eq!(
        lines
            .iter()
            .filter(|(d, _)| *d == 18)
            .map(|(_, t)| t.as_str())
            .collect::<Vec<_>>()[..2],
        [
            "Roland acquires Goblin 1 (+2 ticks); next turn on 10",
            "Roland (Bow, Short) shoots Goblin 1: at 100 ft, SR 5, -2 vs DR 3: miss (margin +0)",
        ]
    );
    assert_eq!(said(&lines, "Roland acquires Goblin 2 (+2 ticks)"), [8]);
    assert!(
        !lines
            .iter()
            .any(|(_, t)| t == "Roland acquires Goblin 2 (+2 ticks); next turn on 0")
    );
    // The same target again is not a new one: one Acquire, then the
    // text's rhythm (turns on 10 and 2: shots done on 8 and 0).
    let one = trace(&archery(1, "least_engaged"));
    assert_eq!(said(&one, "Roland acquires"), [18]);
    assert_eq!(shots(&one), [18, 8, 0]);
    // Without Acquire: the text's 18, then turns on 12 and 4.
    let none = trace(
        &archery(2, "least_engaged")
            .with_field("timing.acquire_ticks", "0")
            .unwrap(),
    );
    assert_eq!(shots(&none), [18, 10, 2]);
    assert!(!none.iter().any(|(_, t)| t.contains("acquires")));
}

#[test]
fn an_interval_of_0_still_pays_for_the_new_target() {
    // With no Interval the next turn comes on the tick the shot is done:
    // Acquire moves that turn (now) 2 ticks later.
    let s = archery(2, "least_engaged")
        .with_field("sides.party.groups.Roland.interval", "0")
        .unwrap();
    let lines = trace(&s);
    // 20 -> done 18, turn 18 + Acquire -> 16, done 14, turn 14 -> 12, ...
    assert_eq!(shots(&lines)[..3], [18, 14, 10]);
    assert_eq!(
        said(&lines, "Roland acquires Goblin 1 (+2 ticks); next turn on 16"),
        [18]
    );
    let plain = trace(&s.with_field("timing.acquire_ticks", "0").unwrap());
    assert_eq!(shots(&plain)[..3], [18, 16, 14]);
}

#[test]
fn acquire_ticks_change_a_battles_results() {
    // Archers against closing infantry under the Tick System: the archers
    // shoot at whoever the targeting picks, and pay for each new target.
    let archers = Scenario::builtin("archers")
        .unwrap()
        .with_field("timing", "tick-system")
        .unwrap();
    assert!(archers.warnings().is_empty());
    let results = |s: &Scenario| {
        let battle = Battle::new(s).unwrap();
        (0..20)
            .map(|i| battle.run(3, i, &RunOptions::default()).unwrap().summary)
            .collect::<Vec<_>>()
    };
    let two = results(&archers);
    let none = results(&archers.with_field("timing.acquire_ticks", "0").unwrap());
    let six = archers.with_field("timing.acquire_ticks", "6").unwrap();
    assert!(six.warnings().is_empty(), "{:?}", six.warnings());
    let six = results(&six);
    assert_ne!(two, none);
    assert_ne!(six, two);
    // Slower shooting lets the infantry close: more of its wins.
    let infantry_wins = |r: &[skirmish_sim::report::BattleSummary]| {
        r.iter()
            .filter(|s| s.outcome == skirmish_sim::report::Outcome::Win { side: 1 })
            .count()
    };
    assert!(
        infantry_wins(&six) >= infantry_wins(&none),
        "{} {}",
        infantry_wins(&six),
        infantry_wins(&none)
    );
}

#[test]
fn acquire_ticks_are_warned_about_only_where_nothing_shoots() {
    let warning = "timing.acquire_ticks: 5 has no effect: no group shoots (Acquire is for ranged attacks: a group's \
                   `range`, in a battle with a `distance`)";
    let read = archery(2, "random").with_field("timing.acquire_ticks", "5").unwrap();
    assert!(read.warnings().is_empty(), "{:?}", read.warnings());
    // No distance: no group shoots (its `range` is warned about too).
    let mut melee = read.clone();
    melee.distance = None;
    assert!(melee.warnings().iter().any(|w| w == warning), "{:?}", melee.warnings());
    // No ranged group.
    let mut bowless = read.clone();
    bowless.sides[0].groups[0].range = None;
    assert_eq!(bowless.warnings(), [warning]);
    // FUDGE 4.4's shots pay for a new target as Full Contact's do: not
    // warned about, and Roland's shot at a second goblin comes 2 ticks later.
    let fudge = read.with_field("striking", "\"fudge_opposed\"").unwrap();
    assert!(!fudge.warnings().iter().any(|w| w == warning), "{:?}", fudge.warnings());
    let two = archery(2, "random")
        .with_field("striking", "\"fudge_opposed\"")
        .unwrap();
    let paid = trace(&two);
    assert!(!said(&paid, "Roland acquires").is_empty(), "{paid:?}");
    let free = trace(&two.with_field("timing.acquire_ticks", "0").unwrap());
    assert!(said(&free, "Roland acquires").is_empty(), "{free:?}");
    assert_ne!(shots(&paid), shots(&free));
}

/// Under FUDGE a bow within melee reach strikes in melee (FUDGE 4.1: only
/// an attack from beyond melee is ranged), and Acquire is for ranged
/// attacks: an archer 3' from two goblins pays nothing when it turns from
/// one to the other; 100' off, it pays.
#[test]
fn a_fudge_archer_in_melee_acquires_nothing() {
    let fudge = |distance: u32| {
        archery(2, "random")
            .with_field("striking", "\"fudge_opposed\"")
            .unwrap()
            .with_field("distance", &distance.to_string())
            .unwrap()
            .with_field("battle.max_rounds", "3")
            .unwrap()
    };
    let close = trace(&fudge(3));
    assert!(
        close.iter().any(|(_, t)| t.starts_with("Roland (Bow, Short) strikes")),
        "{close:?}"
    );
    assert!(said(&close, "Roland acquires").is_empty(), "{close:?}");
    let far = trace(&fudge(100));
    assert!(!said(&far, "Roland acquires").is_empty(), "{far:?}");
}
