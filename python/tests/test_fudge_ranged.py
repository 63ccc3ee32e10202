"""FUDGE 4.4's ranged combat in battles (docs/rules.md §2.2.9): Will
Scarlet and Dicken's exchange of fire through a battle's trace with the
text's results, and archers against swordsmen swept by starting distance,
with the win rate's intervals."""

from __future__ import annotations

import pytest

import skirmish

BOWS = {"short_range": 150, "range_strength": 50}

GREENWOOD = {
    "name": "Will Scarlet and Dicken",
    "timing": "simultaneous",
    "striking": "fudge_opposed",
    "distance": 180,
    "battle": {"max_rounds": 1},
    "sides": [
        {
            "name": "greenwood",
            "groups": [
                {
                    "name": "Will Scarlet",
                    "skill": "Good",
                    "weapon": "Bow, Long",
                    "range": BOWS,
                    "offense": 2,
                    "cover": 2,
                }
            ],
        },
        {
            "name": "sheriff",
            "groups": [
                {"name": "Dicken", "skill": "Fair", "weapon": "Crossbow, Light", "range": BOWS, "offense": 2}
            ],
        },
    ],
}


def test_will_scarlet_and_dicken_exchange_fire_through_a_battle_trace() -> None:
    # "Dicken rolls a Fair result, missing Will. Will rolls a Mediocre
    # result, which hits Dicken": battle 47 of seed 1 rolls those results.
    # Neither dodges: each shoots back, needing only its Difficulty Level
    # (Mediocre by distance; Good against Will's cover and poor light).
    report = skirmish.battle(skirmish.Scenario(GREENWOOD), seed=1, index=47)
    shots = [t["text"] for t in report.trace if " exchanges fire " in t["text"]]
    assert shots == [
        "Will Scarlet (Bow, Long) exchanges fire with Dicken: at 180 ft, DL Mediocre (Mediocre by distance): "
        "Mediocre (+1 skill -2 roll) vs the Difficulty Level, shooting back: hit by 0, damage 2",
        "Dicken (Crossbow, Light) exchanges fire with Will Scarlet: at 180 ft, DL Good (Mediocre by distance "
        "+2 cover): Fair (+0 skill +0 roll) vs the Difficulty Level, shooting back: miss",
    ]
    # "Had Dicken's shot hit, Will and Dicken would have skewered each other."
    report = skirmish.battle(skirmish.Scenario(GREENWOOD), seed=1, index=2)
    shots = [t["text"] for t in report.trace if " exchanges fire " in t["text"]]
    assert shots[1].endswith("Good (+0 skill +1 roll) vs the Difficulty Level, shooting back: hit by 0, damage 2")
    wounded = [t["text"] for t in report.trace if " takes damage " in t["text"]]
    assert len(wounded) == 2


ARCHERS = {
    "name": "archers against swordsmen",
    "timing": "continuous",
    "striking": "fudge_opposed",
    "distance": 5,
    "battle": {"max_rounds": 200},
    "sides": [
        {
            "name": "archers",
            "groups": [
                {"name": "archer", "count": 3, "skill": "Good", "weapon": "Bow, Short", "range": BOWS, "offense": 1}
            ],
        },
        {
            "name": "swordsmen",
            "groups": [
                {
                    "name": "swordsman",
                    "count": 3,
                    "skill": "Great",
                    "weapon": "Sword, Short",
                    "move": 60,
                    "offense": 2,
                    "armor": "leather",
                    "shield": "medium",
                }
            ],
        },
    ],
}


def test_the_archers_win_more_the_farther_the_swordsmen_start() -> None:
    distances = [5, 100, 200, 400]
    result = skirmish.sweep(
        skirmish.Scenario(ARCHERS), {"distance": distances}, battles=300, seed=21, progress=False
    )
    df = result.to_pandas().sort_values("distance")
    rates = list(df["win_rate_archers"])
    lows = list(df["win_rate_archers_low"])
    highs = list(df["win_rate_archers_high"])
    # At 5 feet every attack is melee (FUDGE 4.1) and the swordsmen win.
    assert rates[0] < 0.05 and rates[-1] > 0.7, rates
    for i in range(len(distances) - 1):
        # Each step farther is worth more battles, beyond the intervals.
        assert lows[i + 1] > highs[i], (distances[i], distances[i + 1], rates)


def test_ranged_fields_name_their_errors() -> None:
    with pytest.raises(skirmish.SkirmishError, match="missile"):
        skirmish.Scenario(GREENWOOD).with_field(
            "sides.greenwood.groups.Will Scarlet.missile", {"kind": "propelled", "dodge_penalty": 4}
        )
    with pytest.raises(skirmish.SkirmishError, match="cover"):
        skirmish.Scenario(GREENWOOD).with_field("sides.greenwood.groups.Will Scarlet.cover", 5000)
