"""Every bad argument to every public function and method raises its
documented SkirmishError subclass, naming the argument (docs/python.md,
"What a bad argument raises"): drawn by hypothesis from negative and
too-wide ints, NaN and other wrong types, lone surrogates and deeply
nested values, never a bare builtin."""

from __future__ import annotations

import os
import pathlib
import pickle
from typing import Any, Callable

import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import skirmish  # noqa: E402
from skirmish import (  # noqa: E402
    ArgumentTypeError,
    InvalidInputError,
    InvalidSweepError,
    InvalidValueError,
    NotFoundError,
    OutOfRangeError,
    ScenarioSyntaxError,
    SkirmishError,
)

FAST = settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck), database=None)

# --- bad values, by the kind of argument -------------------------------------

BOUNDS = {
    "u32": (0, 2**32 - 1),
    "u64": (0, 2**64 - 1),
    "i32": (-(2**31), 2**31 - 1),
    "i64": (-(2**63), 2**63 - 1),
}


def out_of(kind: str) -> st.SearchStrategy[int]:
    """Ints outside the Rust type's range: negative for unsigned ones, too wide for any."""
    low, high = BOUNDS[kind]
    return st.one_of(
        st.integers(max_value=low - 1),
        st.integers(min_value=high + 1),
        st.sampled_from([low - 1, high + 1, -(2**200), 2**200]),
    )


def lone_surrogate_text() -> st.SearchStrategy[str]:
    """Text holding a lone surrogate (which UTF-8 cannot encode)."""
    surrogate = st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF)
    return st.builds(lambda a, s, b: a + s + b, st.text(max_size=5), surrogate, st.text(max_size=5))


def nested(depth: st.SearchStrategy[int]) -> st.SearchStrategy[Any]:
    """A dict or list nested ``depth`` levels deep."""

    def build(n: int, as_dict: bool) -> Any:
        v: Any = 1
        for _ in range(n):
            v = {"a": v} if as_dict else [v]
        return v

    return st.builds(build, depth, st.booleans())


NOT_INT = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.just(float("nan")),
    st.text(max_size=3),
    st.binary(max_size=3),
    st.complex_numbers(max_magnitude=10),
    st.frozensets(st.integers(), max_size=2),
    st.lists(st.integers(), max_size=2),
)
NOT_STR = st.one_of(
    st.integers(),
    st.floats(allow_nan=True),
    st.binary(max_size=3),
    st.lists(st.text(max_size=2), max_size=2),
    st.frozensets(st.integers(), max_size=2),
)
NOT_BOOL = st.one_of(st.integers(), st.floats(allow_nan=True), st.text(max_size=3), st.lists(st.booleans(), max_size=2))
DEEP = nested(st.integers(min_value=65, max_value=3000))


# --- what each door raises (args.rs, _args.py) --------------------------------

RANGE = {
    "rules": OutOfRangeError,
    "tracker": InvalidInputError,
    "id": NotFoundError,
    "sweep": InvalidSweepError,
    "balance": skirmish.InvalidBalanceError,
}
TEXT = {
    "rules": InvalidValueError,
    "tracker": InvalidInputError,
    "scenario": ScenarioSyntaxError,
    "balance": skirmish.InvalidBalanceError,
}


def cases(kind: str, door: str) -> list[tuple[str, st.SearchStrategy[Any], type[BaseException]]]:
    """``(what, bad values, the class they raise)`` for an argument of ``kind``."""
    if kind in BOUNDS:
        return [("out of range", out_of(kind), RANGE[door]), ("not an int", NOT_INT, ArgumentTypeError)]
    if kind == "who":
        # A combatant is an id or a name: an id no combatant can have is not
        # found; a name that is not text is refused; anything else is a wrong type.
        return [
            ("out of range", out_of("u32"), NotFoundError),
            ("lone surrogate", lone_surrogate_text(), InvalidInputError),
            ("not an id or a name", NOT_INT.filter(lambda v: not isinstance(v, str)), ArgumentTypeError),
        ]
    if kind == "bool":
        return [("not a bool", NOT_BOOL, ArgumentTypeError)]
    if kind == "str":
        return [("lone surrogate", lone_surrogate_text(), TEXT[door]), ("not a str", NOT_STR, ArgumentTypeError)]
    raise AssertionError(kind)


# --- every public call and its arguments ----------------------------------------

E = skirmish.Encounter("continuous", seed=1)
DUEL = skirmish.Scenario.from_toml(
    'name = "duel"\ntiming = "simultaneous"\ndamage = { model = "hit_points", max_hp = 1 }\n'
    '[[sides]]\nname = "A"\ngroups = [{ name = "a" }]\n[[sides]]\nname = "B"\ngroups = [{ name = "b" }]\n'
)
A = E.add_fighter("party", name="Roland")[0]
B = E.add_fighter("foes", name="Orc")[0]
FX = E.add_effect("Bless", A, rounds=2)

Call = Callable[..., Any]

#: (name, the call with good arguments for the rest, {argument: kind}, door)
CALLS: list[tuple[str, Call, dict[str, str], str]] = [
    ("odds", lambda **k: skirmish.odds(**{"strike_rating": 9, "defense_rating": 6, **k}),
     {"strike_rating": "i32", "defense_rating": "i32", "amazing": "bool", "guaranteed": "bool", "point_blank": "bool"}, "rules"),
    ("parry_odds", lambda **k: skirmish.parry_odds(**{"strike_rating": 7, "parry_strike_rating": 6, "defense_rating": 7, **k}),
     {"strike_rating": "i32", "parry_strike_rating": "i32", "defense_rating": "i32", "amazing": "bool", "guaranteed": "bool"}, "rules"),
    ("strike", lambda **k: skirmish.strike(**{"strike_rating": 9, "defense_rating": 6, "roll": 0, **k}),
     {"strike_rating": "i32", "defense_rating": "i32", "roll": "i32", "amazing": "bool"}, "rules"),
    ("strike_rating", lambda **k: skirmish.strike_rating(**k), {"skill": "i32", "weapon": "i32", "magic": "i32"}, "rules"),
    ("defense_rating", lambda **k: skirmish.defense_rating(**k),
     {"skill": "i32", "armor": "i32", "shield": "i32", "coverage": "i32", "magic": "i32"}, "rules"),
    ("distribution", lambda **k: skirmish.distribution(**k), {"count": "u32", "sides": "u32"}, "rules"),
    ("distribution_frame", lambda **k: skirmish.distribution_frame(**k), {"count": "u32", "sides": "u32"}, "rules"),
    ("weapons", lambda **k: skirmish.weapons(**k), {"genre": "str"}, "rules"),
    ("weapon", lambda **k: skirmish.weapon(**k), {"name": "str"}, "rules"),
    ("armor", lambda **k: skirmish.armor(**k), {"name": "str"}, "rules"),
    ("initiative_distribution", lambda **k: skirmish.initiative_distribution(**{"time_taken": 3, **k}),
     {"time_taken": "u32", "speed_bonus": "i32"}, "rules"),
    ("ready_time_distribution", lambda **k: skirmish.ready_time_distribution(**{"time_taken": 3, **k}),
     {"time_taken": "u32", "speed_bonus": "i32"}, "rules"),
    ("actions_per_phase", lambda **k: skirmish.actions_per_phase(**{"reflexes": 5, "combat_sense": 2, **k}),
     {"reflexes": "i32", "combat_sense": "i32"}, "rules"),
    ("attacks_per_round", lambda **k: skirmish.attacks_per_round(**{"rate_of_fire": "1/1", **k}),
     {"rate_of_fire": "str", "extra_per_round": "u32"}, "rules"),
    ("continuous_actions", lambda **k: skirmish.continuous_actions(**{"time_taken": 3, **k}),
     {"time_taken": "u32", "speed_bonus": "i32", "ticks": "u32"}, "rules"),
    ("graduated_actions", lambda **k: skirmish.graduated_actions(**{"time_taken": 3, **k}),
     {"time_taken": "u32", "speed_bonus": "i32", "actions_allowed": "u32", "ticks_per_round": "u32"}, "rules"),
    ("battle", lambda **k: skirmish.battle(**{"seed": 1, "trace": False, **k}),
     {"seed": "u64", "index": "u64", "trace": "bool"}, "rules"),
    ("Scenario.builtin", lambda **k: skirmish.Scenario.builtin(**k), {"name": "str"}, "scenario"),
    ("Scenario.from_toml", lambda **k: skirmish.Scenario.from_toml(**{"text": "x = 1", **k}),
     {"text": "str", "origin": "str"}, "scenario"),
    ("Scenario.from_json", lambda **k: skirmish.Scenario.from_json(**{"text": "{}", **k}),
     {"text": "str", "origin": "str"}, "scenario"),
    ("Scenario.get", lambda **k: skirmish.Scenario().get(**k), {"path": "str"}, "scenario"),
    ("Scenario.with_field", lambda **k: skirmish.Scenario().with_field(**{"path": "timing", "value": "continuous", **k}),
     {"path": "str"}, "scenario"),
    ("sweep", lambda **k: skirmish.sweep(**{"battles": 2, "seed": 1, "progress": False, **k}),
     {"resume": "bool", "force": "bool"}, "sweep"),
    ("balance", lambda **k: skirmish.balance(**{"scenario": "parity", "field": "sides.A.groups.0.count",
                                                "between": (5, 15), **k}),
     {"field": "str", "side": "str", "seed": "u64", "battles": "u64", "max_battles": "u64", "method": "str"},
     "balance"),
    ("exact", lambda **k: skirmish.exact(**{"scenario": DUEL, **k}),
     {"max_states": "u64", "max_exact_states": "u64", "arithmetic": "str"}, "rules"),
    ("Encounter", lambda **k: skirmish.Encounter(**k), {"system": "str", "seed": "u64"}, "tracker"),
    ("Encounter.from_scenario", lambda **k: skirmish.Encounter.from_scenario(None, **k), {"seed": "u64"}, "tracker"),
    ("Encounter.restore", lambda **k: skirmish.Encounter.restore(**k), {"snapshot": "str"}, "tracker"),
    ("Encounter.find", lambda **k: E.find(**k), {"name": "str"}, "tracker"),
    ("Encounter.add_combatant", lambda **k: E.add_combatant(**{"name": "X", "time_taken": 3, **k}),
     {"name": "str", "label": "str", "side": "str", "hidden": "bool"}, "tracker"),
    ("Encounter.add_group", lambda **k: E.add_group(**{"name": "G", "count": 2, "time_taken": 3, **k}),
     {"name": "str", "count": "u32", "label": "str", "side": "str", "hidden": "bool"}, "tracker"),
    ("Encounter.add_fighter", lambda **k: E.add_fighter(**{"side": "party", "name": "Y", **k}), {"side": "str"}, "tracker"),
    ("Encounter.set_party", lambda **k: E.set_party(**k), {"side": "str"}, "tracker"),
    ("Encounter.declare", lambda **k: E.declare(**{"who": A, "time_taken": 3, **k}), {"label": "str", "roll": "i32"}, "tracker"),
    ("Encounter.delay", lambda **k: E.delay(**{"who": A, "ticks": 1, **k}), {"ticks": "u32"}, "tracker"),
    ("Encounter.free_action", lambda **k: E.free_action(**{"who": A, **k}), {"ticks": "u32", "defending": "bool"}, "tracker"),
    ("Encounter.interrupt", lambda **k: E.interrupt(**{"who": A, "concentration_kept": True, **k}),
     {"concentration_kept": "bool"}, "tracker"),
    ("Encounter.set_initiative", lambda **k: E.set_initiative(A, **k), {"roll": "i32", "total": "i64"}, "tracker"),
    ("Encounter.add_effect", lambda **k: E.add_effect(**{"name": "Haste", **k}),
     {"name": "str", "ticks": "u64", "rounds": "u32"}, "tracker"),
    ("Encounter.strike", lambda **k: E.strike(**{"attacker": A, "target": B, **k}),
     {"roll": "i32", "defense": "i32", "parry": "bool", "point_blank": "bool", "modifier": "i32"}, "tracker"),
    ("Encounter.set_damage", lambda **k: E.set_damage(A, **k), {"hit_points": "i32"}, "tracker"),
    ("Encounter.view", lambda **k: E.view(**k), {"players": "bool"}, "tracker"),
    ("Encounter.log_since", lambda **k: E.log_since(**k), {"n": "u64"}, "tracker"),
    ("Encounter.set_undo_limit", lambda **k: E.set_undo_limit(**k), {"limit": "u32"}, "tracker"),
    ("Encounter.odds_from_here", lambda **k: E.odds_from_here(**{"battles": 10, **k}),
     {"battles": "u64", "seed": "u64", "exact": "bool"}, "rules"),
    ("Encounter.end_effect", lambda **k: E.end_effect(**k), {"effect": "u32"}, "id"),
]

#: Every method that takes a combatant (by id or name).
WHO = [
    "declaration", "penalty", "defense_bonus", "down", "remove", "hide", "reveal", "cancel",
    "disrupt", "hold", "take_held_turn", "heal", "set_tactics",
]
for method in WHO:
    CALLS.append((f"Encounter.{method}", lambda method=method, **k: getattr(E, method)(k["who"]), {"who": "who"}, "id"))
CALLS += [
    ("Encounter.strike", lambda **k: E.strike(**{"attacker": A, "target": B, **k}), {"attacker": "who", "target": "who"}, "id"),
    ("Encounter.add_effect", lambda **k: E.add_effect("Haste", rounds=1, **k), {"target": "who"}, "id"),
]

PARAMS = [
    pytest.param(call, arg, what, values, cls, id=f"{name}-{arg}-{what}")
    for name, call, args, door in CALLS
    for arg, kind in args.items()
    for what, values, cls in cases(kind, door)
]


@pytest.mark.parametrize("call, arg, what, values, cls", PARAMS)
def test_each_bad_argument_raises_its_class_naming_it(
    call: Call, arg: str, what: str, values: st.SearchStrategy[Any], cls: type[BaseException]
) -> None:
    before = E.snapshot()

    @FAST
    @given(values)
    def check(value: Any) -> None:
        with pytest.raises(SkirmishError) as e:
            call(**{arg: value})
        assert isinstance(e.value, cls), f"{type(e.value).__name__}: {e.value}"
        # A combatant given by id or name is named as the argument or as `combatant`.
        names = {arg, "combatant"} if arg in ("who", "attacker", "target") else {arg}
        assert any(n in str(e.value) for n in names), str(e.value)

    check()
    # A refused call changed nothing.
    assert E.snapshot() == before


# --- sequences, tuples and mappings -------------------------------------------------


@FAST
@given(st.tuples(out_of("u32"), st.integers(-5, 5)), st.sampled_from(["a", "b"]))
def test_a_pair_item_out_of_range_names_its_place(pair: tuple[int, int], which: str) -> None:
    args = {"a": (3, 0), "b": (3, 0), which: pair}
    with pytest.raises(OutOfRangeError) as e:
        skirmish.first_action_order(args["a"], args["b"])
    assert e.value.field == f"{which}[0]" and e.value.value == pair[0]


@FAST
@given(st.one_of(st.tuples(st.integers()), st.tuples(st.integers(), st.integers(), st.integers()), st.just(())))
def test_a_pair_of_the_wrong_length(pair: tuple[int, ...]) -> None:
    with pytest.raises(InvalidValueError) as e:
        skirmish.first_action_order(pair, (3, 0))
    assert e.value.field == "a"


@FAST
@given(st.one_of(st.integers(), st.floats(allow_nan=True), st.text(max_size=3), st.frozensets(st.integers())))
def test_a_pair_that_is_not_a_sequence(value: Any) -> None:
    with pytest.raises(ArgumentTypeError) as e:
        skirmish.first_action_order(value, (3, 0))
    assert e.value.field == "a"


@FAST
@given(st.one_of(out_of("i64").map(lambda x: (x, 1, 1)), st.tuples(st.integers(), st.integers())))
def test_a_range_that_is_not_three_i64(bad: tuple[int, ...]) -> None:
    with pytest.raises((OutOfRangeError, InvalidValueError)) as e:
        skirmish.odds(9, 6, range=bad)
    assert "range" in str(e.value)
    # The encounter reads the same argument as a mapping or a triple.
    with pytest.raises(InvalidInputError) as e2:
        E.strike(A, B, 0, 0, range=bad)
    assert e2.value.field.startswith("range")


@FAST
@given(
    st.one_of(
        st.dictionaries(lone_surrogate_text(), st.integers(-3, 3), min_size=1, max_size=2).map(lambda d: ("key", d)),
        st.dictionaries(st.text(max_size=3), out_of("i32"), min_size=1, max_size=2).map(lambda d: ("level", d)),
        NOT_STR.filter(lambda v: not isinstance(v, (list, frozenset))).map(lambda v: ("type", v)),
    ),
    st.sampled_from(["attributes", "other"]),
)
def test_rating_mappings(case: tuple[str, Any], arg: str) -> None:
    what, value = case
    expected = {"key": InvalidValueError, "level": OutOfRangeError, "type": ArgumentTypeError}[what]
    for rating in (skirmish.strike_rating, skirmish.defense_rating):
        with pytest.raises(expected) as e:
            rating(**{arg: value})
        assert arg in str(e.value)


@FAST
@given(st.one_of(st.integers(), st.floats(allow_nan=True), st.none()))
def test_odds_table_takes_iterables(value: Any) -> None:
    with pytest.raises(ArgumentTypeError) as e:
        skirmish.odds_table(value, [6])
    assert e.value.field == "strike_ratings"


@FAST
@given(st.tuples(out_of("u64"), st.integers(0, 3)))
def test_grid_arguments(bad: tuple[int, int]) -> None:
    # A private call of the sweep's, in the sweep's class.
    with pytest.raises(InvalidSweepError):
        skirmish._core.grid_position([2, bad[0]], bad[1])
    with pytest.raises(InvalidSweepError):
        skirmish._core.grid_position([2, 2], bad[0])


# --- values written as JSON (scenarios, sweep axes) ---------------------------------

PLAIN_BAD = st.one_of(
    st.sampled_from([float("nan"), float("inf"), -float("inf")]).map(lambda v: ("value", v)),
    lone_surrogate_text().map(lambda v: ("value", v)),
    DEEP.map(lambda v: ("value", v)),
    st.one_of(st.frozensets(st.integers(), max_size=2), st.binary(max_size=2), st.complex_numbers(max_magnitude=3)).map(
        lambda v: ("type", v)
    ),
    st.builds(lambda v: {1: v}, st.integers()).map(lambda v: ("type", v)),
)


@FAST
@given(PLAIN_BAD)
def test_scenario_values(case: tuple[str, Any]) -> None:
    what, value = case
    scenario_class = ArgumentTypeError if what == "type" else ScenarioSyntaxError
    with pytest.raises(scenario_class) as e:
        skirmish.Scenario().with_field("timing", value)
    assert "value" in str(e.value)
    with pytest.raises(scenario_class) as e2:
        skirmish.Scenario({"name": value})
    assert "source.name" in str(e2.value)
    with pytest.raises(scenario_class):
        skirmish.value_text(value)
    sweep_class = ArgumentTypeError if what == "type" else InvalidSweepError
    with pytest.raises(sweep_class) as e3:
        skirmish.sweep(axes={"timing": ["continuous", value]}, battles=2, seed=1, progress=False)
    assert "axes['timing'][1]" in str(e3.value)


@FAST
@given(st.one_of(st.integers(), st.floats(allow_nan=True), st.lists(st.integers(), max_size=2), st.frozensets(st.integers())))
def test_scenario_sources_and_field_maps_of_the_wrong_type(value: Any) -> None:
    with pytest.raises(ArgumentTypeError):
        skirmish.Scenario(value)
    with pytest.raises(ArgumentTypeError) as e:
        skirmish.Scenario().with_fields(value)
    assert e.value.field == "fields"
    with pytest.raises(ArgumentTypeError):
        skirmish.Scenario.from_file(value)


@FAST
@given(st.one_of(DEEP, st.frozensets(st.integers(), min_size=1, max_size=2), st.just(float("nan"))))
def test_tracker_mappings(value: Any) -> None:
    # A value inside a mapping (a fighter's profile, a declaration, rules):
    # InvalidInputError naming its path, however deep it nests.
    with pytest.raises(InvalidInputError) as e:
        E.add_fighter("party", name="Z", strike_rating=value)
    assert e.value.field.startswith("profile.strike_rating")
    with pytest.raises(InvalidInputError) as e2:
        E.add_fighter("party", {"name": "Z", "shield": value})
    assert e2.value.field.startswith("profile.shield")
    with pytest.raises(InvalidInputError) as e3:
        E.declare(A, time_taken=value)
    assert e3.value.field.startswith("declaration.time_taken")
    with pytest.raises(InvalidInputError):
        skirmish.Encounter(striking={"system": value})


@FAST
@given(st.one_of(st.floats(allow_nan=True), st.frozensets(st.integers()), st.none(), st.lists(st.integers(), max_size=1)))
def test_combatants_of_the_wrong_type(value: Any) -> None:
    with pytest.raises(ArgumentTypeError) as e:
        E.down(value)
    assert e.value.field == "combatant"
    assert isinstance(e.value, TypeError)


# --- the issue's cases, one by one ---------------------------------------------------


def test_the_issues_cases() -> None:
    cases: list[tuple[Callable[[], Any], type[BaseException]]] = [
        (lambda: skirmish.battle(seed=-1), OutOfRangeError),
        (lambda: skirmish.battle(index=-1), OutOfRangeError),
        (lambda: skirmish.distribution(-1), OutOfRangeError),
        (lambda: skirmish.distribution(0), OutOfRangeError),
        (lambda: skirmish.initiative_distribution(-1), OutOfRangeError),
        (lambda: skirmish.ready_time_distribution(-1), OutOfRangeError),
        (lambda: skirmish.continuous_actions(-1), OutOfRangeError),
        (lambda: skirmish.graduated_actions(-1), OutOfRangeError),
        (lambda: skirmish.first_action_order((-1, 0), (1, 0)), OutOfRangeError),
        (lambda: skirmish.attacks_per_round("1/1", -1), OutOfRangeError),
        (lambda: skirmish.odds(2**31, 0), OutOfRangeError),
        (lambda: skirmish.strike(9, 6, 2**40), OutOfRangeError),
        (lambda: skirmish.Encounter(seed=-1), InvalidInputError),
        (lambda: E.odds_from_here(-1), OutOfRangeError),
        (lambda: E.set_undo_limit(-1), InvalidInputError),
        (lambda: E.log_since(-1), InvalidInputError),
        (lambda: E.add_group("G", -1), InvalidInputError),
        (lambda: E.end_effect(-1), NotFoundError),
        (lambda: E.delay(A, -1), InvalidInputError),
        (lambda: E.add_effect("x", ticks=-1), InvalidInputError),
        (lambda: E.set_initiative(A, roll=2**40), InvalidInputError),
        (lambda: E.strike(A, B, 2**31), InvalidInputError),
        (lambda: skirmish.Scenario().with_field("timing", float("nan")), ScenarioSyntaxError),
        (lambda: skirmish.sweep(axes={"timing": [float("nan")]}, battles=2, progress=False), InvalidSweepError),
        (lambda: skirmish.Scenario({"name": {1}}), ArgumentTypeError),
        (lambda: skirmish.Scenario({"name": float("nan")}), ScenarioSyntaxError),
        (lambda: E.add_fighter("party", name="X", strike_rating={1}), InvalidInputError),
        (lambda: E.strike(A, B, 0, range=(1, 2)), InvalidInputError),
        (lambda: skirmish.armor("\ud800"), InvalidValueError),
        (lambda: E.find("\ud800"), InvalidInputError),
    ]
    for call, cls in cases:
        with pytest.raises(cls):
            call()
    with pytest.raises(OutOfRangeError) as e:
        skirmish.battle(seed=-1)
    assert str(e.value) == "seed: -1 is outside 0..=18446744073709551615"
    assert (e.value.field, e.value.value, e.value.min, e.value.max) == ("seed", -1, 0, 2**64 - 1)
    deep: Any = 1
    for _ in range(3000):
        deep = [deep]
    with pytest.raises(ScenarioSyntaxError) as e2:
        skirmish.Scenario({"name": deep})
    assert "nested deeper than 64" in str(e2.value)
    with pytest.raises(ArgumentTypeError) as e3:
        skirmish.Scenario({"name": {1}})
    assert isinstance(e3.value, TypeError) and e3.value.field == "source.name"


def test_a_checkpoint_python_cannot_read_is_left_to_the_rust_check(tmp_path: pathlib.Path) -> None:
    with pytest.raises(skirmish.CheckpointIOError):
        skirmish.sweep(battles=2, progress=False, checkpoint=tmp_path, resume=True)
    garbage = tmp_path / "garbage.csv"
    garbage.write_bytes(b"timing,seed\n\xff\xfe,\x80\n")
    with pytest.raises(skirmish.SweepError):
        skirmish.sweep(battles=2, progress=False, checkpoint=garbage, resume=True)
    with pytest.raises(ArgumentTypeError):
        skirmish.sweep(battles=2, progress=False, checkpoint=3.5)
    if os.name == "posix":
        with pytest.raises(InvalidSweepError):
            skirmish.sweep(battles=2, progress=False, checkpoint="\ud800.csv")


def test_a_pickled_encounter_equals_its_original_past_the_kept_undo_steps() -> None:
    e = skirmish.Encounter("continuous", seed=3)
    x = e.add_combatant("X", time_taken=3)
    for _ in range(30):
        e.hide(x)
        e.reveal(x)
    assert e.undo_depth > 20
    back = pickle.loads(pickle.dumps(e))
    assert back == e and e == back and e == e
    back.hide(x)
    assert back != e
