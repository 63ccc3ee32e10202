"""Odds from here solved exactly when the exact engine models the fight as
it stands (docs/rules.md §7): ``method``, ``exact`` and Fractions; the same
fractions as :func:`skirmish.exact` of the scenario that starts with that
damage; sampled otherwise, with the reason."""

from __future__ import annotations

import pickle
from fractions import Fraction

import skirmish
from skirmish import Encounter, OddsFromHere, Scenario

DUEL = """
name = "duel"
timing = "{timing}"
damage = {{ model = "hit_points", max_hp = 5 }}
[[sides]]
name = "A"
groups = [{{ name = "a", strike_rating = 5, defense_rating = 5 }}]
[[sides]]
name = "B"
groups = [{{ name = "b", strike_rating = 5, defense_rating = 5, hit_points = {hp} }}]
"""


def duel(timing: str = "simultaneous", hp: int = 5) -> Scenario:
    return Scenario.from_toml(DUEL.format(timing=timing, hp=hp))


def test_mid_duel_after_a_hit_the_odds_are_exact_fractions() -> None:
    e = Encounter.from_scenario(duel(), seed=3)
    e.next()
    e.next()
    # a rolls +3: 3 off b's 5 hit points; b rolls -2: a miss.
    assert e.strike("a", "b", 3).damage == 3
    e.strike("b", "a", -2)
    odds = e.odds_from_here(1_000, seed=1)
    assert isinstance(odds, OddsFromHere)
    assert odds.exact and odds.method == "exact" and odds.reason is None
    assert odds.battles == 0 and odds.states is not None and odds.states > 0
    assert odds.error_bound == 0.0
    assert odds.mean_ticks is None and odds.mean_rounds is None
    # The duel that starts with b at 2 hit points, solved by skirmish.exact.
    solved = skirmish.exact(duel(hp=2))
    a, b = odds.side("A"), odds.side("B")
    assert isinstance(a.fraction, Fraction)
    assert (a.fraction, b.fraction) == (solved.wins["A"], solved.wins["B"])
    assert odds.draw_fraction == solved.draw and odds.timeout_fraction == 0
    assert a.win_rate == float(a.fraction) and a.low == a.high == a.win_rate
    assert a.fraction + b.fraction + odds.draw_fraction == 1
    # Records pickle, fractions included.
    assert pickle.loads(pickle.dumps(odds)) == odds

    # Forced sampling: the sampler's numbers, the exact chance inside its interval.
    sampled = e.odds_from_here(20_000, seed=1, exact=False)
    assert not sampled.exact and sampled.method == "sampled" and sampled.reason is None
    assert sampled.battles == 20_000 and sampled.side("A").fraction is None
    assert sampled.side("A").low <= float(a.fraction) <= sampled.side("A").high
    assert sampled.mean_ticks is not None and sampled.mean_ticks > 0


def test_what_the_exact_engine_does_not_model_is_sampled_with_the_reason() -> None:
    # Simple Rounds with the round's initiative rolled: not between rounds.
    e = Encounter.from_scenario(duel("simple-rounds"), seed=9)
    fresh = e.odds_from_here(100, seed=1)
    assert fresh.method == "exact" and fresh.side("A").fraction == skirmish.exact(duel("simple-rounds")).wins["A"]
    e.next()
    odds = e.odds_from_here(100, seed=1)
    assert odds.method == "sampled" and not odds.exact and odds.battles == 100
    assert odds.reason is not None and odds.reason.startswith("scheduler: round 1 under way")
    assert odds.draw_fraction is None
    # The sampled numbers are the sampler's, as asked directly.
    forced = e.odds_from_here(100, seed=1, exact=False)
    assert forced.sides == odds.sides and forced.reason is None
    # Continuous timing: exact before the first initiative is rolled, then
    # each fighter's next tick is timing the chain's fresh start does not hold.
    cont = Encounter.from_scenario(duel("continuous"), seed=9)
    assert cont.odds_from_here(100, seed=1).method == "exact"
    cont.next()
    odds = cont.odds_from_here(100, seed=1)
    assert odds.reason is not None and odds.reason.startswith("scheduler: round 1 under way")


def test_a_decided_fight_is_exact() -> None:
    e = Encounter.from_scenario(duel(), seed=3)
    e.down("b")
    odds = e.odds_from_here(100)
    assert odds.method == "decided" and odds.exact
    assert odds.side("A").fraction == Fraction(1) and odds.side("B").fraction == 0
