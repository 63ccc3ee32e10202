"""skirmish.balance: the same search as the library and the CLI, its frame
and plot, and every bad argument a typed error naming it."""

from __future__ import annotations

import pickle
from fractions import Fraction

import pytest

import skirmish

ORCS = "sides.goblinoids.groups.0.count"


def ambush(timing: str) -> skirmish.Scenario:
    return skirmish.Scenario().with_field("timing", timing)


def test_the_even_orc_count_is_the_librarys_golden_search() -> None:
    # skirmish-sim's tests/it/balance.rs pins the same search.
    found = skirmish.balance(ambush("simultaneous"), ORCS, (1, 10), seed=2026, threads=2)
    assert isinstance(found, skirmish.BalanceResult)
    assert [(p.value, p.battles, p.wins) for p in found.points] == [
        (1.0, 250, 250),
        (10.0, 250, 10),
        (5.0, 250, 166),
        (7.0, 250, 69),
        (6.0, 250, 107),
    ]
    assert (found.answer, found.below, found.above, found.at) == ("between", 6.0, 5.0, None)
    assert (found.field, found.side, found.target, found.seed, found.kind) == (ORCS, "party", 0.5, 2026, "integer")
    assert found.battles == 1250
    assert found.stopped.startswith("6 and 5 are adjacent and told apart at 95%")
    assert [p.verdict for p in found.points] == ["above", "below", "above", "below", "below"]
    assert "between 6 (below) and 5 (above)" in repr(found)
    # The exact engine refuses a fight this big ("auto" asked it first, at
    # one orc), so the search sampled, and says why.
    assert found.method == "sampled"
    assert found.not_exact is not None and found.not_exact.startswith(f"{ORCS} = 1: ")
    assert all(not p.exact and p.fraction is None for p in found.points)
    # The same on one thread, and sampled from the start; it pickles.
    again = skirmish.balance(ambush("simultaneous"), ORCS, (1, 10), seed=2026, threads=1, method="sampled")
    assert again.points == found.points and again.answer == found.answer and again.not_exact is None
    assert pickle.loads(pickle.dumps(found.record)) == found.record


def test_the_points_are_a_frame_and_a_plot() -> None:
    pd = pytest.importorskip("pandas")
    found = skirmish.balance(ambush("continuous"), ORCS, (1, 10), seed=2026, method="sampled")
    frame = found.to_pandas()
    assert isinstance(frame, pd.DataFrame)
    assert list(frame.columns) == [
        "value", "battles", "wins", "win_rate", "low", "high", "verdict", "exact", "fraction",
    ]
    assert frame.attrs["method"] == "sampled"
    assert len(frame) == len(found.points)
    assert frame.attrs["field"] == ORCS and frame.attrs["answer"] == found.answer
    assert (frame["low"] <= frame["win_rate"]).all() and (frame["win_rate"] <= frame["high"]).all()
    pytest.importorskip("matplotlib")
    ax = found.plot()
    assert ax.get_xlabel() == ORCS


def test_a_value_that_cannot_be_told_apart_is_the_answer() -> None:
    found = skirmish.balance(
        "parity", "sides.A.groups.0.count", (1, 40), battles=20, max_battles=40, method="sampled"
    )
    assert found.answer == "at" and found.below is None and found.above is None
    assert found.points[-1].value == found.at and found.points[-1].verdict == "undecided"


DUEL = """
name = "duel"
timing = "simultaneous"
damage = { model = "hit_points", max_hp = 1 }
[[sides]]
name = "Ann"
groups = [{ name = "Ann", strike_rating = 5, defense_rating = 5 }]
[[sides]]
name = "Bob"
groups = [{ name = "Bob", strike_rating = 5, defense_rating = 5 }]
"""
BOB_SR = "sides.Bob.groups.0.strike_rating"


def test_a_duel_is_balanced_on_exact_chances() -> None:
    duel = skirmish.Scenario.from_toml(DUEL)
    found = skirmish.balance(duel, BOB_SR, (1, 12), target=0.3)
    assert found.method == "exact" and found.not_exact is None and found.battles == 0
    assert (found.answer, found.below, found.above) == ("between", 6.0, 5.0)
    # At SR 5 against SR 5, docs/rules.md's worked duel: 50/131, as skirmish.exact says.
    assert found.fraction(5.0) == Fraction(50, 131) == skirmish.exact(duel).wins["Ann"]
    point = next(p for p in found.points if p.value == 5.0)
    assert (point.exact, point.fraction, point.verdict) == (True, "50/131", "above")
    assert found.fraction(99.0) is None
    assert found.stopped.startswith("exact: at 6 the win rate is 0.1918 (961/5011) below 0.3")
    assert "exact>" in repr(found)
    # Surprise is not modelled: "auto" samples and says why; "exact" raises
    # the exact engine's own error, naming the field.
    surprised = duel.with_field("sides.Ann.groups.0.unaware_for", 1)
    sampled = skirmish.balance(surprised, BOB_SR, (1, 12), target=0.3)
    assert sampled.method == "sampled" and sampled.battles > 0
    assert sampled.not_exact is not None and "sides[0].groups[0].unaware_for: surprise" in sampled.not_exact
    with pytest.raises(skirmish.ExactUnsupportedError) as e:
        skirmish.balance(surprised, BOB_SR, (1, 12), target=0.3, method="exact")
    assert e.value.field == "sides[0].groups[0].unaware_for"
    with pytest.raises(skirmish.InvalidBalanceError) as bad:
        skirmish.balance(duel, BOB_SR, (1, 12), method="precise")
    assert bad.value.field == "method"


def test_bad_arguments_are_typed_errors_naming_them() -> None:
    s = ambush("continuous")
    for kwargs, field in [
        ({"target": 1.0}, "target"),
        ({"target": float("nan")}, "target"),
        ({"side": "elves"}, "side"),
        ({"battles": 0}, "battles"),
        ({"max_battles": 10**10}, "max_battles"),
        ({"battles": -1}, "battles"),
        ({"threads": 5000}, "threads"),
    ]:
        with pytest.raises(skirmish.InvalidBalanceError) as e:
            skirmish.balance(s, ORCS, (1, 10), **kwargs)
        assert e.value.field == field, kwargs
        assert isinstance(e.value, ValueError) and isinstance(e.value, skirmish.BalanceError)
    with pytest.raises(skirmish.InvalidBalanceError) as e:
        skirmish.balance(s, ORCS, (10, 1))
    assert e.value.field == "between"
    with pytest.raises(skirmish.InvalidBalanceError) as e:
        skirmish.balance(s, ORCS, (1, 2, 3))  # type: ignore[arg-type]
    assert e.value.field == "between"
    with pytest.raises(skirmish.ArgumentTypeError) as t:
        skirmish.balance(s, ORCS, (1, "ten"))  # type: ignore[arg-type]
    assert t.value.field == "between[1]"
    with pytest.raises(skirmish.ArgumentTypeError) as t:
        skirmish.balance(s, ORCS, (1, 10), target=True)
    assert t.value.field == "target"
    with pytest.raises(skirmish.NotNumericFieldError) as n:
        skirmish.balance(s, "timing", (1, 10))
    assert n.value.field == "timing"
    with pytest.raises(skirmish.FieldPathError):
        skirmish.balance(s, "sides.goblinoids.groups.0.cuont", (1, 10))
    with pytest.raises(skirmish.ScenarioInvalidError) as v:
        skirmish.balance(s, ORCS, (0, 10))
    assert v.value.path == "sides[1].groups[0].count"
    with pytest.raises(skirmish.NoCrossingError) as c:
        skirmish.balance(s, ORCS, (1, 2))
    assert (c.value.field, c.value.side, c.value.target) == (ORCS, "party", 0.5)
    assert [p.verdict for p in c.value.ends] == ["above", "above"]
