"""Full Contact's amazing results at the table (docs/rules.md §2.1.8), with
the text's numbers typed in: the goblin sentry (SR 5) strikes Cardiff (DR 7)
with a -1: 4 against 7, an amazing defense, which disarms or knocks the
goblin down until its next action; and the heavy crossbow's TT 12 in
Continuous (the weapon table's footnote) at the table and in a battle."""

from __future__ import annotations

import pytest

import skirmish
from skirmish import Encounter, Moment, StrikeResult


def sentry(defense: str) -> tuple[Encounter, int, int]:
    e = Encounter("continuous", seed=1, striking={"system": "full_contact", "amazing": True, "amazing_defense": defense})
    (cardiff,) = e.add_fighter("party", {"name": "Cardiff", "strike_rating": 9, "defense_rating": 7})
    (goblin,) = e.add_fighter("goblins", {"name": "Goblin", "strike_rating": 5, "defense_rating": 6})
    e.set_initiative(cardiff, total=3)
    e.set_initiative(goblin, total=5)
    return e, cardiff, goblin


def until_lands(e: Encounter, name: str) -> None:
    for _ in range(100):
        turn = e.next()
        if isinstance(turn, Moment) and any(line.lands and line.name == name for line in turn.lines):
            return
    raise AssertionError(f"{name} never acts")


def test_an_amazing_defense_knocks_the_attacker_down_until_its_next_action() -> None:
    e, cardiff, goblin = sentry("knock_down")
    r = e.strike(goblin, cardiff, -1)
    assert (r.attack_total, r.defense_total, r.result) == (4, 7, StrikeResult.AMAZING_DEFENSE)
    assert r.text == "Goblin strikes Cardiff: 4 vs 7, amazing defense; Goblin is knocked down (DR -2 until its next action)"
    back = e.strike(cardiff, goblin, -3)
    assert (back.defense_total, back.margin) == (4, 2)
    assert (back.defense_breakdown[-1].label, back.defense_breakdown[-1].value) == ("knocked down", -2)
    # Saved and restored, still down; up again when its action lands.
    e = Encounter.restore(e.snapshot())
    until_lands(e, "Goblin")
    assert any(entry.text == "Goblin is up again" for entry in e.log())
    assert e.strike(cardiff, goblin, -3).defense_total == 6


def test_an_amazing_defense_disarms_the_attacker_whose_next_action_is_lost() -> None:
    e, cardiff, goblin = sentry("disarm")
    r = e.strike(goblin, cardiff, -1)
    assert r.text == "Goblin strikes Cardiff: 4 vs 7, amazing defense; Goblin is disarmed (its next action is lost)"
    with pytest.raises(skirmish.NotNowError, match="Goblin is disarmed: it cannot parry"):
        e.strike(cardiff, goblin, -1, 4, parry=True)
    until_lands(e, "Goblin")
    with pytest.raises(skirmish.NotNowError, match="recovering its weapon"):
        e.strike(goblin, cardiff, 2)
    # It parries again once its lost action has come.
    assert e.strike(cardiff, goblin, -1, 4, parry=True).result == StrikeResult.PARRIED


def test_the_heavy_crossbow_takes_twelve_in_continuous() -> None:
    e = Encounter("continuous", seed=1)
    (crossbowman,) = e.add_fighter("guards", {"name": "crossbowman", "weapon": "heavy crossbow"})
    assert e.declaration(crossbowman)["declaration"]["time_taken"] == 12
    # In a battle's trace: shots 12 + 2dF ticks apart, never the table's 8 + 2dF.
    scenario = skirmish.Scenario(
        {
            "name": "crossbow",
            "timing": "continuous",
            "distance": 280,
            "battle": {"max_actions": 200},
            "sides": [
                {
                    "name": "guard",
                    "groups": [
                        {
                            "name": "sniper",
                            "strike_rating": 7,
                            "weapon": "Crossbow, Heavy",
                            "range": {"short_range": 150, "range_strength": 50},
                        }
                    ],
                },
                {"name": "Madoc", "groups": [{"name": "Madoc", "defense_rating": 30, "plan": "hold"}]},
            ],
        }
    )
    report = skirmish.battle(scenario, seed=3)
    ticks = [t["tick"] for t in report.trace if t["text"].startswith("sniper (Crossbow, Heavy) shoots")]
    gaps = [b - a for a, b in zip(ticks, ticks[1:])]
    assert len(gaps) > 10 and all(10 <= g <= 14 for g in gaps), gaps
