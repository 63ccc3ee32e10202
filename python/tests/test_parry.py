"""Full Contact parries (docs/rules.md §2.1.4): Brooklyn's two parries with
the text's rolls at the table and in a battle, their exact odds, the parry
policy as a sweep axis, and bad values."""

from fractions import Fraction

import pytest

import skirmish
from skirmish import Encounter, Scenario, StrikeResult

BROOKLYN = """
name = "Brooklyn and the guard"
timing = { system = "tick_system" }
[[sides]]
name = "guards"
groups = [{ name = "Guard", strike_rating = 7, defense_rating = 6, weapon = { name = "naginata", time_taken = 3 } }]
[[sides]]
name = "Brooklyn"
groups = [{ name = "Brooklyn", strike_rating = 6, defense_rating = 7, parry = "always", weapon = { name = "bowie knife", time_taken = 3 } }]
"""


def test_brooklyns_two_parries_at_the_table() -> None:
    e = Encounter("tick-system", seed=1)
    (guard,) = e.add_fighter("guards", {"name": "Guard", "strike_rating": 7, "defense_rating": 6})
    (brooklyn,) = e.add_fighter("Brooklyn", {"name": "Brooklyn", "strike_rating": 6, "defense_rating": 7})
    # "The first thrust receives a Strike Roll of +2, totalling 9 ... her
    # parry attempt rolls an incredible +4, totalling 10."
    first = e.strike(guard, brooklyn, roll=2, defense=4, parry=True)
    assert (first.attack_total, first.parry_total, first.result) == (9, 10, StrikeResult.PARRIED)
    assert not first.landed and first.damage == 0
    # "The second thrust also rolls +2, but Brooklyn's parry rolls only +1
    # (attack total 9, parry total 7), and the spear scores on her hip."
    second = e.strike(guard, brooklyn, roll=2, defense=1, parry=True)
    assert (second.attack_total, second.parry_total, second.result) == (9, 7, StrikeResult.HIT)
    assert second.landed and second.damage == 2


def test_brooklyns_two_parries_in_a_battle_trace() -> None:
    # Battle 0 of seed 8556 rolls the text's dice (her parries are free
    # under the Tick System).
    b = skirmish.battle(Scenario.from_toml(BROOKLYN), seed=8556)
    thrusts = [line for line in b.trace_frame()["text"] if line.startswith("Guard")][:2]
    assert thrusts == [
        "Guard (naginata) strikes Brooklyn: SR 7 +2 vs DR 7: hit (margin +2); "
        "Brooklyn parries: SR 6 +4 = 10 vs 9, knocked aside",
        "Guard (naginata) strikes Brooklyn: SR 7 +2 vs DR 7: hit (margin +2), damage 2; "
        "Brooklyn parries: SR 6 +1 = 7 vs 9, the blow goes home",
    ]


def test_exact_parry_odds() -> None:
    o = skirmish.parry_odds(7, 6, 7)
    assert isinstance(o, skirmish.ParryOdds)
    # Against the +2 thrust (total 9) only her +4 parries; against +3, nothing.
    assert o.by_attack_roll[2] == Fraction(1, 81) and o.by_attack_roll[3] == 0
    assert o.lands_unparried == skirmish.odds(7, 7).hit
    assert o.lands + o.blocked == o.lands_unparried
    assert o.lands == Fraction(2421, 6561)
    # A guaranteed +4 parries anything.
    assert skirmish.parry_odds(12, 0, 0, guaranteed=True).by_attack_roll[4] == Fraction(1, 81)
    with pytest.raises(skirmish.ArgumentTypeError):
        skirmish.parry_odds(7, "six", 7)  # type: ignore[arg-type]


def test_parry_policy_is_a_sweep_axis_and_bad_values_name_the_field() -> None:
    s = Scenario.from_toml(BROOKLYN)
    r = skirmish.sweep(
        s,
        axes={"sides.Brooklyn.groups.Brooklyn.parry": ["never", "always", "when_better"]},
        battles=200,
        seed=1,
        progress=False,
    )
    assert len(r) == 3
    with pytest.raises(skirmish.ScenarioError) as e:
        s.with_field("sides.Brooklyn.groups.0.parry", "sometimes")
    assert e.value.path == "sides[1].groups[0].parry"
    assert "when_better" in str(e.value)
