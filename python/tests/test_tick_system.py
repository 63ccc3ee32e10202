"""The Tick System whole from Python (docs/rules.md §1.5, §5): a group's own
action ticks, a defense that costs ticks and pushes the next turn, Prepare's
+4 and free first defense, Acquire on a ranged attacker's new target; in a
battle's trace and at the table, with the text's numbers and rolls typed in."""

from __future__ import annotations

from typing import Any

import skirmish
from skirmish import Encounter, Moment, Scenario


def fighter(name: str, sr: int, dr: int, **more: Any) -> dict[str, Any]:
    return {"name": name, "strike_rating": sr, "defense_rating": dr, "interval": 6, "action_ticks": 2, **more}


def table(*foes: tuple[dict[str, Any], int]) -> tuple[Encounter, int, list[int]]:
    e = Encounter("tick-system", seed=1)
    roland = e.add_fighter("party", fighter("Roland", 9, 7))[0]
    e.set_initiative(roland, total=20)
    ids = []
    for profile, initiative in foes:
        foe = e.add_fighter("foes", profile)[0]
        e.set_initiative(foe, total=initiative)
        ids.append(foe)
    return e, roland, ids


def step(e: Encounter) -> tuple[int, list[str]]:
    while True:
        turn = e.next()
        if isinstance(turn, Moment):
            return turn.display, [line.name + ("" if line.lands else " (turn)") for line in turn.lines]


def sheet(e: Encounter) -> list[tuple[int, str]]:
    return [(s.display, a.name + ("" if a.lands else " (turn)")) for s in e.sheet for a in s.lines]


def logged(e: Encounter, text: str) -> bool:
    return any(entry.text == text for entry in e.log())


def test_the_text_s_turn_and_a_defense_that_costs_ticks() -> None:
    e, roland, (orc,) = table((fighter("Orc", 5, 6, defend="free_action"), 17))
    assert step(e) == (20, ["Roland (turn)"])
    # On 20 for 2 ticks: done on 18; Interval 6: next turn on 12.
    assert step(e) == (18, ["Roland"])
    assert sheet(e) == [(17, "Orc (turn)"), (12, "Roland (turn)")]
    # The orc defends 18 to 16, into its turn on 17: the turn comes on 16.
    assert e.strike(roland, orc, roll=0).result == "hit"
    assert sheet(e) == [(16, "Orc (turn)"), (12, "Roland (turn)")]
    assert logged(e, "Orc defends (2 tick(s)), pushing the next turn")


def test_prepare_plus_4_and_a_free_first_defense() -> None:
    e, roland, (orc,) = table((fighter("Orc", 5, 6, defend="free_action", prepare=True), 19))
    step(e)
    assert step(e) == (19, ["Orc (turn)"])  # it Prepares
    assert step(e) == (18, ["Roland"])
    assert e.defense_bonus(orc) == 4
    r = e.strike(roland, orc, roll=0)
    assert (r.attack_total, r.defense_total, r.result) == (9, 10, "miss")
    assert ("prepared", 4) in [(p.label, p.value) for p in r.defense_breakdown]
    assert logged(e, "Orc defends (0 tick(s))")
    e.strike(roland, orc, roll=1)
    assert logged(e, "Orc defends (2 tick(s))")


def test_a_ranged_attacker_acquires_a_new_target() -> None:
    e, roland, (a, b) = table((fighter("Goblin A", 5, 3), 5), (fighter("Goblin B", 5, 3), 4))
    step(e)
    step(e)
    assert sheet(e)[0] == (12, "Roland (turn)")
    e.strike(roland, a, roll=0, range=(10, 5, 5))
    assert sheet(e)[0] == (10, "Roland (turn)")
    assert logged(e, "Roland acquires Goblin A (+2 tick(s))")
    e.strike(roland, a, roll=0, range=(10, 5, 5))
    assert sheet(e)[0] == (10, "Roland (turn)")
    e.strike(roland, b, roll=0, range=(10, 5, 5))
    assert sheet(e)[0] == (8, "Roland (turn)")


DUEL = """
name = "tick duel"
timing = { system = "tick_system", initiative_die = "1d1" }
[battle]
max_rounds = 1
[[sides]]
name = "party"
groups = [{ name = "Roland", initiative_bonus = 19, interval = 6, action_ticks = 2, toughness = 100 }]
[[sides]]
name = "orcs"
groups = [{ name = "Orc", toughness = 100, interval = 6, initiative_bonus = 18, defend = "free_action" }]
"""


def lines_at(report: skirmish.BattleReport, display: int) -> list[str]:
    return [t["text"] for t in report.trace if t["display"] == display]


def test_a_battle_trace_shows_the_ticks_a_defense_and_prepare() -> None:
    duel = Scenario.from_toml(DUEL)
    b = skirmish.battle(duel, seed=7)
    roland = [t["display"] for t in b.trace if t["text"].startswith("Roland (weapon) strikes")]
    assert roland == [18, 10, 2]
    # Defending during its action (begun on 19) cancels it; Interval 6 from 18.
    assert lines_at(b, 18)[1] == "Orc defends (2 ticks), cancelling its action; next turn on 12"
    prepared = skirmish.battle(duel.with_field("sides.orcs.groups.Orc.prepare", "true"), seed=7)
    assert lines_at(prepared, 18) == [
        "Roland (weapon) strikes Orc: SR 5 -2 vs DR 7: miss (margin -4)",
        "Orc defends at no cost (prepared)",
        "Orc takes its held turn and attacks",
    ]
    longer = skirmish.battle(duel.with_field("timing.free_action_ticks", "3"), seed=7)
    assert lines_at(longer, 18)[1] == "Orc defends (3 ticks), cancelling its action; next turn on 12"
    assert lines_at(longer, 10) != lines_at(b, 10)


ARCHERY = """
name = "acquire"
timing = { system = "tick_system", initiative_die = "1d1" }
distance = 100
[battle]
max_rounds = 1
targeting = "least_engaged"
[[sides]]
name = "party"
groups = [{ name = "Roland", initiative_bonus = 19, interval = 6, action_ticks = 2, toughness = 100, weapon = "Bow, Short", range = { short_range = 150, range_strength = 50 } }]
[[sides]]
name = "goblins"
groups = [{ name = "Goblin", count = 2, toughness = 100, interval = 6, plan = "hold" }]
"""


def test_a_battle_trace_shows_acquire_pushing_the_turn_by_two_ticks() -> None:
    # Roland acts on 20 for 2 ticks, done on 18; his first shot Acquires
    # Goblin 1: next turn 12 + 2 = 10. His second shot, at Goblin 2, Acquires
    # again; the turn it pushes past the round's end is lost.
    archery = Scenario.from_toml(ARCHERY)
    b = skirmish.battle(archery, seed=7)
    shots = [t["display"] for t in b.trace if t["text"].startswith("Roland (Bow, Short) shoots")]
    assert shots == [18, 8]
    assert lines_at(b, 18)[0] == "Roland acquires Goblin 1 (+2 ticks); next turn on 10"
    assert "Roland acquires Goblin 2 (+2 ticks)" in lines_at(b, 8)
    plain = skirmish.battle(archery.with_field("timing.acquire_ticks", "0"), seed=7)
    assert [t["display"] for t in plain.trace if " shoots " in t["text"]] == [18, 10, 2]
