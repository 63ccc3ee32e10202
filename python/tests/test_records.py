"""The tracker's typed boundary: its results are native frozen classes made
in Rust (types, equality, hash, repr, pickling without JSON, ``__replace__``,
``__match_args__``), ``StrikeResult`` is the core's enum, the tick-sheet label
is the core's, and every bad argument raises ``InvalidInputError`` naming the
field and leaves the encounter byte for byte as it was."""

from __future__ import annotations

import copy
import pickle
from collections.abc import Callable
from typing import Any

import pytest

import skirmish
from skirmish import (
    ActingLine,
    CombatantState,
    Encounter,
    EncounterView,
    InvalidInputError,
    LogEntry,
    Moment,
    NewRound,
    OddsFromHere,
    Over,
    SheetLine,
    StrikeReport,
    StrikeResult,
    _core,
)
from skirmish.tracker import ExpiredEffect, FreeAction, Part, SideOdds

RECORDS = [
    ActingLine,
    CombatantState,
    EncounterView,
    ExpiredEffect,
    FreeAction,
    LogEntry,
    Moment,
    NewRound,
    OddsFromHere,
    Over,
    Part,
    SheetLine,
    SideOdds,
    StrikeReport,
]


def fight() -> tuple[Encounter, int, int]:
    """Two fighters, the players' side set, an effect on."""
    e = Encounter("continuous", seed=5)
    (a,) = e.add_fighter("party", name="Axe", strike_rating=10, defense_rating=3)
    (b,) = e.add_fighter("foes", name="Bob", strike_rating=9, defense_rating=4, armor="Leather")
    e.add_effect("Smoke", ticks=3)
    e.set_party("party")
    return e, a, b


def every_record() -> list[Any]:
    """One instance of each record class, from real calls."""
    e, a, b = fight()
    first = e.next()
    second = e.next()
    report = e.strike(a, b, roll=1)
    view = e.view()
    odds = e.odds_from_here(50, seed=1)
    tick = Encounter("tick-system", seed=4)
    ann = tick.add_combatant("Ann", time_taken=3)
    tick.next()
    tick.next()
    over = Encounter()
    over.add_combatant("A", time_taken=2)
    over.down("A")
    found = [
        first,
        second,
        report,
        report.attack_breakdown[0],
        view,
        view.sheet[0],
        view.sheet[0].lines[0],
        view.combatants[0],
        e.log()[0],
        odds,
        odds.sides[0],
        tick.free_action(ann),
        over.next(),
        ExpiredEffect(3, "Smoke", None),
    ]
    assert {type(r) for r in found} == set(RECORDS), "one of each"
    return found


def test_the_records_are_the_compiled_classes() -> None:
    for cls in RECORDS:
        assert cls.__module__ == "skirmish._core" and getattr(_core, cls.__name__) is cls
        assert getattr(skirmish.tracker, cls.__name__) is cls
        assert cls.__doc__, cls
        assert isinstance(cls.__match_args__, tuple)


@pytest.mark.parametrize("record", every_record(), ids=lambda r: type(r).__name__)
def test_each_record_is_frozen_equal_hashable_and_pickles(record: Any) -> None:
    cls = type(record)
    fields = {f: getattr(record, f) for f in cls.__match_args__}
    # Frozen: no field can be set, and nothing else either.
    for f in cls.__match_args__:
        with pytest.raises(AttributeError):
            setattr(record, f, fields[f])
    with pytest.raises(AttributeError):
        record.extra = 1
    # Made again from its fields, in order: equal, same hash (unless it
    # holds a dict, as a frozen dataclass would not hash either).
    again = cls(*fields.values())
    assert again == record and not (again != record)
    assert record != object() and record != None  # noqa: E711
    try:
        assert hash(again) == hash(record)
    except TypeError as e:
        assert "dict" in str(e) and cls is CombatantState or cls is EncounterView
    # Pickling is the class and its fields: no JSON.
    assert record.__reduce__()[0] is cls
    back = pickle.loads(pickle.dumps(record))
    assert type(back) is cls and back == record
    assert copy.deepcopy(record) == record
    # The repr names every field, as a dataclass's does.
    text = repr(record)
    assert text.startswith(f"{cls.__name__}(") and all(f"{f}=" in text for f in cls.__match_args__)


def test_a_changed_field_makes_a_different_record() -> None:
    p = Part("roll", -1)
    assert p == Part("roll", -1) and p != Part("roll", 1) and p != Part("Roll", -1)
    assert len({p, Part("roll", -1), Part("roll", 1)}) == 2
    assert p.__replace__(value=2) == Part("roll", 2)
    with pytest.raises(TypeError, match="no field"):
        p.__replace__(size=2)
    e, a, b = fight()
    r = e.strike(a, b, roll=1)
    assert r.__replace__(damage=r.damage + 1) != r
    assert r.__replace__(result="miss").result is StrikeResult.MISS


def test_field_types() -> None:
    e, a, b = fight()
    e.next()
    r = e.strike(a, b, roll=1)
    assert isinstance(r.attack_breakdown, tuple) and all(isinstance(p, Part) for p in r.attack_breakdown)
    assert r.result is StrikeResult.HIT and isinstance(r.result, str)
    assert r.wound == r.marked == "very_hurt" and r.hit_points is None
    view = e.view()
    assert view.view_for == "gm" and isinstance(view.awaiting, tuple)
    bob = view.combatants[b]
    assert bob.status == "standing" and bob.wound == "very_hurt"
    assert bob.wound_boxes is not None and bob.wound_boxes["very_hurt"] == 1
    assert bob.stats is not None and bob.stats["strike_rating"] == 9
    # A dict field is a fresh copy at each read: the record cannot change.
    bob.stats["strike_rating"] = 99
    assert view.combatants[b].stats["strike_rating"] == 9  # type: ignore[index]
    # Nested records are made once, with their parent.
    assert view.combatants is view.combatants and view.sheet[0] is view.sheet[0]
    assert isinstance(e.log_since(0), list) and all(isinstance(x, LogEntry) for x in e.log_since(0))
    assert isinstance(e.sheet, tuple) and all(isinstance(s, SheetLine) for s in e.sheet)
    assert e.declaration(a) == {"label": "weapon", "declaration": e.declaration(a)["declaration"]}
    assert e.declaration(a)["declaration"]["time_taken"] == 3


def test_strike_result_is_the_core_enum() -> None:
    assert [m.value for m in StrikeResult] == [
        "hit",
        "amazing_strike",
        "guaranteed_hit",
        "miss",
        "amazing_defense",
        "fumble",
        "out_of_reach",
        "parried",
        "below_minimum",
        "countered",
        "cannot_harm",
    ]
    assert StrikeResult.AMAZING_STRIKE == "amazing_strike"  # type: ignore[comparison-overlap]
    assert str(StrikeResult.PARRIED) == "parried"
    assert StrikeResult("miss") is StrikeResult.MISS and StrikeResult.__module__ == "skirmish._core"
    assert pickle.loads(pickle.dumps(StrikeResult.FUMBLE)) is StrikeResult.FUMBLE
    with pytest.raises(ValueError):
        StrikeResult("graze")


def test_the_tick_sheet_label_is_the_cores() -> None:
    assert ActingLine("Ann", (0,), True, 1, "bow").label == "Ann"
    assert ActingLine("Ann", (0,), False, 0, "").label == "Ann (turn)"
    e = Encounter("tick-system", seed=4)
    e.add_combatant("Ann", time_taken=3)
    turn = e.next()
    assert isinstance(turn, NewRound)
    labels = [line.label for s in turn.sheet for line in s.lines]
    assert labels == ["Ann (turn)"]
    pytest.importorskip("pandas")
    assert list(e.sheet_frame()["name"]) == ["Ann (turn)"]


def test_moment_names_and_odds_by_side() -> None:
    e = Encounter.from_scenario("goblin-ambush", seed=3)
    e.next()
    m = e.next()
    assert isinstance(m, Moment) and m.names == [line.name for line in m.lines]
    odds = e.odds_from_here(50, seed=2)
    assert odds.side("PARTY") is odds.sides[0] and odds.side("party").name == "party"
    with pytest.raises(KeyError):
        odds.side("nobody")


def test_a_record_made_by_hand_is_checked() -> None:
    with pytest.raises(InvalidInputError) as err:
        Part("roll", "minus one")  # type: ignore[arg-type]
    assert err.value.field == "Part.value"
    with pytest.raises(InvalidInputError) as err:
        ActingLine("G", "abc", False, 1, "")  # type: ignore[arg-type]
    assert err.value.field == "ActingLine.members"
    with pytest.raises(InvalidInputError) as err:
        SheetLine(1, 1, 1, 0, [Part("x", 1)], [])  # type: ignore[list-item]
    assert err.value.field == "SheetLine.lines" and "ActingLine" in str(err.value)
    with pytest.raises(InvalidInputError) as err:
        CombatantState(0, "A", None, None, "dancing", False, False, None, None, None, None, None)  # type: ignore[arg-type]
    assert err.value.field == "CombatantState.status"
    with pytest.raises(TypeError):
        Part("roll")  # type: ignore[call-arg]
    # Tuples made from any sequence.
    assert SheetLine(1, 1, 1, 0, [], ["Smoke"]).effects == ("Smoke",)


# --- refusals: the field is named and nothing changes ------------------------------


def refusals(e: Encounter, a: int, b: int) -> list[tuple[str, Callable[[], object]]]:
    return [
        ("declaration", lambda: e.add_combatant("Z", 5)),  # type: ignore[arg-type]
        ("declaration.time_taken", lambda: e.add_combatant("Z", time_taken="three")),
        ("declaration.time_takn", lambda: e.add_combatant("Z", time_takn=3)),
        ("declaration.gm.ready_time", lambda: e.declare(a, ready_time=-3)),
        ("declaration.kind", lambda: e.declare(a, kind="sprint")),
        ("timing.bogus", lambda: e.add_group("G", 2, time_taken=3, timing={"bogus": 1})),
        ("profile", lambda: e.add_fighter("party", ["Cardiff"])),  # type: ignore[arg-type]
        ("profile.strike_rating", lambda: e.add_fighter("party", name="Q", strike_rating="nine")),
        ("profile.strike_rating", lambda: e.add_fighter("party", name="Q", strike_rating=2**40)),
        ("range", lambda: e.strike(a, b, range=(100, 50))),  # type: ignore[arg-type]
        ("range", lambda: e.strike(a, b, range={"short_range": 100})),
        ("range", lambda: e.strike(a, b, range="far")),  # type: ignore[arg-type]
        ("wounds.hurt", lambda: e.set_damage(a, wounds={"hurt": "badly"})),
        ("wounds", lambda: e.set_damage(a, wounds=[1, 0])),  # type: ignore[arg-type]
        ("damage", lambda: e.set_damage(a, wounds={"hurt": 1}, hit_points=3)),
        ("damage", lambda: e.set_damage(a)),
    ]


def test_a_bad_argument_names_its_field_and_changes_nothing() -> None:
    e, a, b = fight()
    e.next()
    before = e.snapshot()
    for field, call in refusals(e, a, b):
        with pytest.raises(InvalidInputError) as err:
            call()
        assert isinstance(err.value, skirmish.SkirmishError) and isinstance(err.value, ValueError)
        assert err.value.field == field, (field, err.value)
        assert err.value.kind == "invalid_input"
        assert e.snapshot() == before, field


def test_bad_rules_name_their_field() -> None:
    for kwargs, field in [
        ({"striking": {"system": "nope"}}, "striking.system"),
        ({"striking": {"system": "full_contact", "amazin": True}}, "striking"),
        ({"damage": 5}, "damage"),
        ({"damage": {"model": "hit_points", "max_hp": "lots"}}, "damage"),
    ]:
        with pytest.raises(InvalidInputError) as err:
            Encounter(**kwargs)  # type: ignore[arg-type]
        assert err.value.field is not None and err.value.field.startswith(field), (kwargs, err.value)
    rules = Encounter(striking={"system": "full_contact", "amazing": True}, damage={"model": "hit_points"}).rules
    assert rules["striking"]["amazing"] is True and rules["damage"]["model"] == "hit_points"
