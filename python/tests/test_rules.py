"""Exact odds, strikes, ratings, dice, tables and timing analysis, checked
against the worked examples of the texts (docs/rules.md; the same numbers as the
Rust tests, and the very case file crates/skirmish-core/tests/cases/full_contact.toml)."""

from __future__ import annotations

import pathlib
import sys
from fractions import Fraction
from typing import Any

import pytest

import skirmish

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    tomllib = pytest.importorskip("tomli")


def test_full_contact_odds_worked_examples() -> None:
    # Cardiff (SR 9) against the goblin (DR 6): 76 of the 81 rolls hit, from -2 up.
    o = skirmish.odds(9, 6)
    assert isinstance(o, skirmish.StrikeOdds)
    assert o.hit == Fraction(76, 81) and o.hits == 76
    assert o.miss == 1 - o.hit
    assert o.lowest_hitting_roll == -2
    assert o.by_roll[-1] == skirmish.StrikeOutcome("hit", 2, True)
    # The goblin (SR 5) against Cardiff (DR 7) needs +3: 5 of 81.
    assert skirmish.odds(5, 7).hits == 5
    # Equal ratings: +1 or better, 16 + 10 + 4 + 1.
    assert skirmish.odds(7, 7).hits == 31
    assert skirmish.odds(3, 12).hits == 0 and skirmish.odds(3, 12).lowest_hitting_roll is None
    assert skirmish.odds(12, 3).hits == 81
    g = skirmish.odds(3, 12, guaranteed=True)
    assert g.hits == 1 and g.guaranteed_hit == Fraction(1, 81)
    f = skirmish.odds(12, 3, guaranteed=True)
    assert f.fumble == Fraction(1, 81) and f.hits == 80
    a = skirmish.odds(5, 7, amazing=True)
    assert (a.hits, a.amazing_strike, a.amazing_defense) == (5, Fraction(1, 81), Fraction(31, 81))
    assert a.lowest_hitting_roll == 3
    # At range: the sniper's shot is at SR 4.
    r = skirmish.odds(7, 7, range=(150, 50, 280))
    assert r.lowest_hitting_roll == 4


def test_odds_table() -> None:
    t = skirmish.odds_table(range(5, 10), range(5, 8))
    assert t.shape == (5, 3)
    assert t.loc[9, 6] == pytest.approx(76 / 81)
    assert t.loc[7, 7] == pytest.approx(31 / 81)


def test_strike_examples() -> None:
    assert skirmish.strike(9, 6, -1) == skirmish.StrikeOutcome("hit", 2, True)
    assert str(skirmish.strike(9, 6, -1)) == "hit (margin +2)"
    assert skirmish.strike(5, 7, 2).name == "miss"  # ties go to the defender
    assert skirmish.strike(9, 6, 1, amazing=True) == skirmish.StrikeOutcome("amazing strike", 4, True)
    sniper = skirmish.strike(7, 7, 2, range=(150, 50, 280))
    assert (sniper.name, sniper.margin) == ("miss", -1)
    with pytest.raises(skirmish.OutOfRangeError) as e:
        skirmish.strike(9, 6, 5, amazing=True)
    assert (e.value.field, e.value.value, e.value.min, e.value.max) == ("strike_roll", 5, -4, 4)
    assert isinstance(e.value, ValueError)


def _cases() -> list[dict[str, Any]]:
    path = pathlib.Path(__file__).resolve().parents[2] / "crates/skirmish-core/tests/cases/full_contact.toml"
    cases: list[dict[str, Any]] = tomllib.loads(path.read_text())["strike"]
    return cases


@pytest.mark.parametrize("case", _cases(), ids=lambda c: str(c["example"])[:60])
def test_every_strike_case_of_the_rust_suite(case: dict[str, Any]) -> None:
    options = case.get("options", {})
    kwargs = dict(
        amazing=options.get("amazing", False),
        guaranteed=options.get("guaranteed_success_and_fumble", False),
        point_blank=options.get("point_blank", False),
    )
    rng = case.get("range")
    shot = (rng["short_range"], rng["range_strength"], rng["distance"]) if rng else None
    if "error" in case:
        with pytest.raises(skirmish.RulesError) as e:
            skirmish.strike(case["strike_rating"], case["defense_rating"], case["roll"], range=shot, **kwargs)
        assert e.value.field == case["error"]
        return
    got = skirmish.strike(case["strike_rating"], case["defense_rating"], case["roll"], range=shot, **kwargs)
    assert got.name.replace(" ", "_") == case["outcome"]
    if "margin" in case:
        assert got.margin == case["margin"]
    # The odds agree with the single strike for that roll.
    o = skirmish.odds(case["strike_rating"], case["defense_rating"], range=shot, **kwargs)
    assert o.by_roll[case["roll"]] == got


@pytest.mark.parametrize("case", _cases(), ids=lambda c: str(c["example"])[:60])
def test_every_strike_case_through_the_tracker(case: dict[str, Any]) -> None:
    # The same cases at the table, rolls typed in (the archer's -3 at 280',
    # Madoc's marble), as the Rust tracker plays them.
    if "error" in case or max(abs(case["strike_rating"]), abs(case["defense_rating"])) > 1000:
        pytest.skip("the rule's own error and overflow cases")
    options = case.get("options", {})
    striking = {
        "system": "full_contact",
        "guaranteed": options.get("guaranteed_success_and_fumble", False),
        "amazing": options.get("amazing", False),
    }
    e = skirmish.Encounter("continuous", seed=1, striking=striking)
    (a,) = e.add_fighter("party", {"name": "A", "strike_rating": case["strike_rating"], "defense_rating": 3})
    (b,) = e.add_fighter("foes", {"name": "B", "defense_rating": case["defense_rating"]})
    rng = case.get("range")
    shot = (rng["short_range"], rng["range_strength"], rng["distance"]) if rng else None
    r = e.strike(a, b, case["roll"], range=shot, point_blank=options.get("point_blank", False))
    assert r.result.value == case["outcome"]
    assert r.margin == case["margin"]
    assert r.defense_total == case["defense_rating"]


def test_ratings() -> None:
    cardiff = skirmish.strike_rating(skill=2, attributes={"strength": 3}, weapon=1)
    assert (cardiff.total, cardiff.breakdown) == (9, "5 base + 2 skill + 1 strength + 1 weapon = 9")
    assert int(cardiff) == 9 and str(cardiff) == cardiff.breakdown
    assert isinstance(cardiff, skirmish.Rating)
    brooklyn = skirmish.strike_rating(skill=-2, attributes={"agility": 2, "strength": 1}, weapon=0)
    assert brooklyn.breakdown == "5 base - 2 skill + 1 agility + 0 strength + 0 weapon = 4"
    goblin = skirmish.defense_rating(armor=3)
    assert goblin.total == 6 and goblin.unaware_total is not None
    with pytest.raises(skirmish.RulesOverflowError) as e:
        skirmish.strike_rating(other={"luck": 2**31 - 1})
    assert isinstance(e.value, OverflowError) and e.value.field == "strike_rating"
    with pytest.raises(skirmish.InvalidValueError) as e2:
        skirmish.strike_rating(other={" ": 1})
    assert e2.value.field == "strike_rating.other"


def test_dice_distributions() -> None:
    d = skirmish.distribution()
    assert [d[k] * 81 for k in range(-4, 5)] == [1, 4, 10, 16, 19, 16, 10, 4, 1]
    assert sum(d.values()) == 1
    assert skirmish.distribution(1, 6) == {k: Fraction(1, 6) for k in range(1, 7)}
    frame = skirmish.distribution_frame()
    assert list(frame["count"]) == [1, 4, 10, 16, 19, 16, 10, 4, 1]
    assert frame["at_least"].iloc[0] == 1.0
    with pytest.raises(skirmish.OutOfRangeError) as e:
        skirmish.distribution(0)
    assert e.value.field == "dice.count"


def test_tables() -> None:
    w = skirmish.weapons()
    assert len(w) == 57
    assert set(w.columns) >= {"name", "genre", "time_taken", "rate_of_fire"}
    assert len(skirmish.weapons("fantasy")) == 18
    assert skirmish.weapon("Sword, Two-Handed")["time_taken"] == 7
    with pytest.raises(skirmish.UnknownNameError) as e:
        skirmish.weapon("Swrod, Long")
    assert isinstance(e.value, LookupError)
    assert e.value.kind == "weapon" and e.value.name == "Swrod, Long"
    assert "Sword, Long" in (e.value.suggestions or [])
    with pytest.raises(skirmish.UnknownNameError):
        skirmish.weapons("fantsy")
    a = skirmish.armor_table()
    assert len(a) == 8
    assert skirmish.armor("plate")["defense_rating_bonus"] == 4


def test_timing_analysis() -> None:
    plain = skirmish.initiative_distribution(0, 0)
    assert [plain[k] * 81 for k in range(1, 10)] == [1, 4, 10, 16, 19, 16, 10, 4, 1]
    madoc = skirmish.initiative_distribution(0, 2)
    assert madoc[1] == Fraction(15, 81)
    roland = skirmish.ready_time_distribution(2, 1)
    assert [roland[k] * 9 for k in (1, 2, 3)] == [6, 2, 1]
    order = skirmish.first_action_order((2, 1), (7, 0))
    assert isinstance(order, skirmish.FirstActionOrder)
    assert (order.a_first, order.same_tick, order.b_first) == (
        Fraction(6516, 6561),
        Fraction(36, 6561),
        Fraction(9, 6561),
    )
    yuri = skirmish.actions_per_phase(8, 4)
    assert yuri == {2: Fraction(2, 6), 3: Fraction(4, 6)}
    hammer = skirmish.attacks_per_round("4/3")
    assert isinstance(hammer, skirmish.RoundAttacks)
    assert hammer.per_round == [2, 1, 1] and hammer.mean == Fraction(4, 3)
    flintlock = skirmish.graduated_actions(14, 0, 1, 20)
    assert isinstance(flintlock, skirmish.GraduatedActions)
    assert flintlock.landed[0] == Fraction(15, 81) and flintlock.mean == Fraction(22, 27)
    c = skirmish.continuous_actions(3, 0, 20)
    assert isinstance(c, skirmish.ContinuousActions)
    assert len(c.landing) == 20 and c.expected_actions == sum(c.landing)
    with pytest.raises(skirmish.OutOfRangeError) as e:
        skirmish.continuous_actions(3, 0, 100_000)
    assert e.value.field == "ticks"
    with pytest.raises(skirmish.RulesError):
        skirmish.attacks_per_round("4/0")
