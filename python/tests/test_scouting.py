"""FUDGE 4.31's scouting at the table (docs/rules.md §2.2.3) through
``Encounter.scout``: the scout's roll, the foe's -1 in the next round's
breakdowns ("foe scouted"), undo, snapshots, refusals by field, and a
scenario whose group scouts opening at the table."""

from __future__ import annotations

import pytest

import skirmish
from skirmish import Encounter


def table() -> tuple[Encounter, int, int, int]:
    e = Encounter("simple-rounds", seed=7, striking="fudge-opposed")
    scout = e.add_fighter("pair", name="Scout", skill="Fair", stance="all_out_defense", scouting="Good")[0]
    ogre = e.add_fighter("foe", name="Ogre", skill="Great")[0]
    blade = e.add_fighter("pair", name="Blade", skill="Good")[0]
    return e, scout, ogre, blade


def to_round(e: Encounter, n: int) -> None:
    for _ in range(200):
        if isinstance(e.next(), skirmish.Moment) and e.round == n:
            return
    raise AssertionError(f"no moment in round {n}")


def scouted_term(parts: tuple[skirmish.tracker.Part, ...]) -> int | None:
    return next((p.value for p in parts if p.label == "foe scouted"), None)


def test_the_scouted_foe_is_at_minus_one_the_next_round() -> None:
    e, scout, ogre, blade = table()
    to_round(e, 1)
    r = e.scout(scout, "Ogre", roll=1)
    assert isinstance(r, skirmish.ScoutReport)
    assert (r.scout, r.foe, r.level, r.roll, r.result, r.difficulty, r.scouts) == (scout, ogre, 1, 1, 2, 0, True)
    assert str(r) == "Scout defended unhit and rolls Perception/Tactics Great vs Fair: scouts, Ogre at -1 next"
    assert not e.scouted(ogre)
    hit = e.strike(ogre, blade, roll=0, defense=0)
    assert scouted_term(hit.attack_breakdown) is None
    to_round(e, 2)
    assert e.scouted(ogre) and not e.scouted(blade)
    hit = e.strike(ogre, blade, roll=0, defense=0)
    assert scouted_term(hit.attack_breakdown) == -1
    assert (hit.attack_total, hit.defense_total) == (1, 1)
    back = e.strike(blade, ogre, roll=0, defense=0)
    assert scouted_term(back.defense_breakdown) == -1
    to_round(e, 3)
    assert not e.scouted(ogre)


def test_undo_snapshots_and_refusals() -> None:
    e, scout, ogre, blade = table()
    to_round(e, 1)
    before = e.snapshot()
    e.scout(scout, ogre)
    restored = Encounter.restore(e.snapshot())
    assert restored.snapshot() == e.snapshot()
    e.undo()
    assert e.snapshot() == before
    for args, field in [((scout, ogre, 5), "roll"), ((blade, ogre, None), "scout"), ((scout, scout, None), "foe")]:
        with pytest.raises(skirmish.InvalidInputError) as err:
            e.scout(*args)
        assert err.value.field == field
        assert e.snapshot() == before
    with pytest.raises(skirmish.NotFoundError):
        e.scout(scout, 99)


def test_a_scenario_whose_group_scouts_opens_at_the_table() -> None:
    scenario = (
        skirmish.Scenario.builtin("goblin-ambush")
        .with_field("striking", "fudge-opposed")
        .with_field("sides.party.groups.1.stance", "all_out_defense")
        .with_field("sides.party.groups.1.scouting", "Good")
    )
    e = Encounter.from_scenario(scenario, seed=1)
    e.next()
    r = e.scout("Madoc", "Orc #1", roll=0)
    assert r.scouts and r.text.endswith("scouts, Orc #1 at -1 next")
