"""skirmish.exact: a small fight's exact outcome as Fractions, the same as
the library's, and every refusal a typed error naming what it refuses."""

from __future__ import annotations

import pickle
from fractions import Fraction

import pytest

import skirmish

#: Two fighters of one hit point, SR 5 against DR 5: each hits on a roll
#: above 0, 31 of the 81 rolls of 4dF (docs/rules.md's worked duel).
DUEL = """
name = "duel"
timing = "simultaneous"
damage = { model = "hit_points", max_hp = 1 }
[[sides]]
name = "A"
groups = [{ name = "a", strike_rating = 5, defense_rating = 5 }]
[[sides]]
name = "B"
groups = [{ name = "b", strike_rating = 5, defense_rating = 5 }]
"""


def duel() -> skirmish.Scenario:
    return skirmish.Scenario.from_toml(DUEL)


def test_the_hand_checked_duel_in_fractions() -> None:
    found = skirmish.exact(duel())
    assert isinstance(found, skirmish.ExactResult)
    # A wins at the first exchange where anyone hits if A hits and B
    # misses: 31 x 50 out of 81^2 - 50^2 = 4061, that is 50/131.
    assert found.wins == {"A": Fraction(50, 131), "B": Fraction(50, 131)}
    assert found.draw == Fraction(31, 131) and found.never_ends == 0
    assert found.sides == ("A", "B") and found.exact and found.error_bound == 0
    assert sum(found.wins.values()) + found.draw + found.never_ends == 1
    assert found.states >= 1 and found.transitions >= found.states
    assert "A: 50/131" in repr(found)
    # It pickles, and the same call gives the same record.
    assert pickle.loads(pickle.dumps(found)) == found == skirmish.exact(duel())


def test_floats_with_an_error_bound() -> None:
    found = skirmish.exact(duel(), arithmetic="float")
    assert not found.exact and found.error_bound < 1e-9
    assert all(isinstance(c, float) for c in found.wins.values())
    assert found.wins["A"] == pytest.approx(50 / 131, abs=1e-9)
    # Past max_exact_states, "auto" solves in floats too (the one-hit-point
    # duel has one state between exchanges; three hit points, more).
    assert skirmish.exact(duel(), max_exact_states=1).exact
    assert not skirmish.exact(duel().with_field("damage.max_hp", 3), max_exact_states=1).exact


def test_a_longer_duel_sums_to_one() -> None:
    s = duel().with_field("damage.max_hp", 3).with_field("sides.B.groups.0.defense_rating", 6)
    found = skirmish.exact(s)
    assert found.exact
    # B's better Defense Rating wins it more fights.
    assert found.wins["B"] > found.wins["A"]
    assert sum(found.wins.values()) + found.draw + found.never_ends == 1


def test_refusals_are_typed_and_name_the_field() -> None:
    with pytest.raises(skirmish.ExactUnsupportedError) as e:
        skirmish.exact(duel().with_field("sides.A.groups.0.parry", "always"))
    assert e.value.field == "sides[0].groups[0].parry" and isinstance(e.value, NotImplementedError)
    with pytest.raises(skirmish.ExactTooBigError) as big:
        skirmish.exact(duel().with_field("damage.max_hp", 5), max_states=2)
    assert big.value.budget == 2 and big.value.states >= 2 and big.value.fighters is None
    with pytest.raises(skirmish.InvalidValueError) as bad:
        skirmish.exact(duel(), arithmetic="decimal")
    assert bad.value.field == "arithmetic"
    with pytest.raises(skirmish.InvalidValueError):
        skirmish.exact(duel(), max_states=0)
    assert issubclass(skirmish.ExactUnsupportedError, skirmish.ExactError)
