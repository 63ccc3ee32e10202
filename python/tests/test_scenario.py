"""Scenarios: every way in, every way out, field paths, pickling."""

from __future__ import annotations

import json
import pathlib
import pickle

import pytest

import skirmish
from skirmish import Scenario

DUEL_TOML = """
name = "duel"
[[sides]]
name = "Red"
groups = [{ name = "red", strike_rating = 5 }]
[[sides]]
name = "Blue"
groups = [{ name = "blue" }]
"""


def test_default_is_the_goblin_ambush() -> None:
    s = Scenario()
    assert s.name == "goblin-ambush"
    assert s.sides == ["party", "goblinoids"]
    assert s == Scenario.builtin("goblin-ambush") == Scenario("goblin-ambush")
    assert skirmish.BUILTIN[0] == "goblin-ambush"
    assert "parity" in skirmish.BUILTIN
    assert len(s.fingerprint) == 16 and int(s.fingerprint, 16) >= 0


def test_scenario_like_sources() -> None:
    sources: list[skirmish.ScenarioLike] = [None, "parity", Scenario("parity"), Scenario("parity").to_dict()]
    assert [Scenario(x).name for x in sources] == ["goblin-ambush", "parity", "parity", "parity"]


def test_every_builtin_loads() -> None:
    for name in skirmish.BUILTIN:
        assert Scenario(name).name == name


def test_toml_json_dict_and_files(tmp_path: pathlib.Path) -> None:
    a = Scenario(DUEL_TOML)
    b = Scenario.from_toml(DUEL_TOML)
    c = Scenario(a.to_json())
    d = Scenario(a.to_dict())
    e = Scenario.from_dict(a.to_dict())
    f = Scenario.from_json(a.to_json())
    assert a == b == c == d == e == f
    assert a.sides == ["Red", "Blue"]
    toml_file = tmp_path / "duel.toml"
    toml_file.write_text(DUEL_TOML)
    json_file = tmp_path / "duel.json"
    json_file.write_text(a.to_json())
    assert Scenario(toml_file) == Scenario(str(toml_file)) == Scenario.from_file(json_file) == a
    assert Scenario(Scenario.from_toml(a.to_toml())) == a
    assert Scenario(a) is not a and Scenario(a) == a


def test_to_dict_round_trips_and_is_json() -> None:
    d = Scenario().to_dict()
    assert json.loads(json.dumps(d)) == d
    assert d["sides"][0]["groups"][2]["name"] == "Cardiff"


def test_get_and_with_field() -> None:
    s = Scenario()
    assert s.get("sides.party.groups.Cardiff.weapon") == "Sword, Two-Handed"
    assert s.get("sides[0].groups[2].strike_rating") == 9
    assert s.get("timing") == {"system": "continuous", "lap": 20}
    t = s.with_field("timing", "tick-system")
    assert t.get("timing")["system"] == "tick_system"
    assert s.get("timing")["system"] == "continuous"  # immutable
    more = s.with_field("sides.goblinoids.groups.0.count", 3)
    assert more.get("sides.goblinoids.groups.0.count") == 3
    assert more != s and more.fingerprint != s.fingerprint
    assert s.with_field("sides.party.groups.Cardiff.weapon", "Sword, Long").get(
        "sides.party.groups.Cardiff.weapon"
    ) == "Sword, Long"
    both = s.with_fields({"timing": "graduated", "damage": "hit_points"})
    assert both.get("damage")["model"] == "hit_points"
    with pytest.raises(AttributeError):
        s.name = "x"  # type: ignore[misc]


def test_value_text() -> None:
    assert skirmish.value_text("tick-system") == "tick-system"
    assert skirmish.value_text(3) == "3"
    assert skirmish.value_text(True) == "true"
    assert skirmish.value_text(None) == "null"
    assert skirmish.value_text({"time_taken": 3}) == '{"time_taken":3}'
    with pytest.raises(TypeError):
        skirmish.value_text(object())


def test_pickle_and_hash() -> None:
    s = Scenario().with_field("timing", "graduated")
    t = pickle.loads(pickle.dumps(s))
    assert t == s and hash(t) == hash(s) and t.fingerprint == s.fingerprint
    assert len({s, t, Scenario()}) == 2
    assert repr(s) == "Scenario('goblin-ambush': party vs goblinoids)"


def test_errors_name_the_place() -> None:
    with pytest.raises(skirmish.ScenarioSchemaError) as e:
        Scenario.from_toml('name = "x"\nsides = 3\n', "x.toml")
    assert isinstance(e.value, ValueError) and isinstance(e.value, skirmish.ScenarioError)
    assert (e.value.origin, e.value.line, e.value.column, e.value.path) == ("x.toml", 2, 9, "sides")
    assert str(e.value) == "x.toml:2:9: sides: invalid type: integer `3`, expected a list"
    assert e.value.kind == "schema"

    with pytest.raises(skirmish.ScenarioSyntaxError) as e2:
        Scenario.from_toml("name = = 3\n")
    assert e2.value.line == 1

    with pytest.raises(skirmish.FieldPathError) as e3:
        Scenario().get("sides.party.groups.Cardif.weapon")
    assert isinstance(e3.value, LookupError)
    assert "Cardiff" in str(e3.value)

    with pytest.raises(skirmish.ScenarioSchemaError) as e4:
        Scenario("parity").with_field("sides.A.groups.0.count", -3)
    assert e4.value.path == "sides[0].groups[0].count"
    assert str(e4.value) == "sides[0].groups[0].count: -3 is not a count (expected 1 or more)"

    with pytest.raises(skirmish.ScenarioInvalidError) as e7:
        Scenario("parity").with_field("sides.A.groups.0.weapon", "Swrd")
    assert e7.value.path == "sides[0].groups[0].weapon"
    assert "did you mean" in str(e7.value) and "Sword, Long" in str(e7.value)

    with pytest.raises(skirmish.UnknownScenarioError) as e5:
        Scenario("goblin-ambsh")
    assert isinstance(e5.value, LookupError) and "goblin-ambush" in str(e5.value)

    with pytest.raises(skirmish.ScenarioReadError) as e6:
        Scenario.from_file("/nonexistent/dir/x.toml")
    assert isinstance(e6.value, OSError)

    with pytest.raises(TypeError):
        Scenario(3)  # type: ignore[arg-type]
