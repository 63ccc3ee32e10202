"""A first hour's silent acceptance and papercuts: what a careless first hour
tripped on, each pinned so it cannot come back."""

from __future__ import annotations

import importlib

import pytest

import skirmish
from skirmish import _frames


def test_a_missing_extra_names_what_pip_can_install(monkeypatch: pytest.MonkeyPatch) -> None:
    # skirmish is not on PyPI: "pip install 'skirmish[pandas]'" would fetch
    # some other package or fail. The hint names pandas itself, with the
    # version range of the extra, and the extra from a checkout.
    real = importlib.import_module

    def without_pandas(name: str, *args: object) -> object:
        if name.split(".")[0] == "pandas":
            raise ImportError("No module named 'pandas'")
        return real(name, *args)

    monkeypatch.setattr(_frames.importlib, "import_module", without_pandas)
    with pytest.raises(ImportError) as caught:
        _frames.pandas()
    message = str(caught.value)
    assert "skirmish[pandas]" not in message.replace("./python[pandas]", "")
    assert "pip install './python[pandas]'" in message
    # Installed with its metadata: the extra's own requirement.
    assert "pip install 'pandas>=1.5'" in message, message


def test_the_extras_requirements_come_from_the_metadata() -> None:
    assert _frames.extra_requirements("arrow", "pyarrow") == ["pyarrow>=14"]
    assert set(_frames.extra_requirements("plot", "matplotlib")) == {"matplotlib>=3.6", "pandas>=1.5"}
    assert _frames.extra_requirements("no-such-extra", "thing") == ["thing"]


SYSTEMS = ["simultaneous", "simple-rounds", "graduated-rounds", "continuous", "tick-system", "action-blocks"]


@pytest.mark.parametrize("system", SYSTEMS)
def test_an_unknown_timing_field_is_refused_under_every_system(system: str) -> None:
    base = skirmish.Scenario().with_field("timing", system)
    with pytest.raises(skirmish.ScenarioSchemaError, match="timing.bogus"):
        base.with_field("timing.bogus", 1)
    with pytest.raises(skirmish.SkirmishError, match="bogus"):
        skirmish.sweep(base, {"timing.bogus": [1]}, battles=1, progress=False)


def test_a_decided_fight_has_its_outcome_as_odds() -> None:
    e = skirmish.Encounter.from_scenario("goblin-ambush", seed=1)
    for name in ["Orc #1", "Orc #2", "Goblin #1", "Goblin #2", "Shaman"]:
        e.down(e.find(name))
    odds = e.odds_from_here(100, seed=1)
    assert odds.battles == 0
    assert (odds.side("party").win_rate, odds.side("party").low, odds.side("party").high) == (1.0, 1.0, 1.0)
    assert odds.side("goblinoids").win_rate == 0.0
    assert odds.draw_rate == 0.0


def test_a_built_in_too_big_for_the_tracker_says_what_to_do() -> None:
    with pytest.raises(skirmish.SkirmishError) as caught:
        skirmish.Encounter.from_scenario("horde")
    message = str(caught.value)
    assert "sides.goblins.groups.goblins.count set to 10000 or fewer" in message
    assert "battles and sweeps fight the scenario as it is" in message
    smaller = skirmish.Scenario("horde").with_field("sides.goblins.groups.goblins.count", 10000)
    assert len(skirmish.Encounter.from_scenario(smaller).view().combatants) == 10_500


def test_questionable_values_are_refused_warned_or_taken_as_the_rules_say() -> None:
    # Combat Sense is a level of skill (none is 0): refused, naming the field.
    with pytest.raises(skirmish.OutOfRangeError) as caught:
        skirmish.actions_per_phase(-1, -1)
    assert caught.value.field == "combat_sense"
    for system in SYSTEMS:
        base = skirmish.Scenario("parity").with_field("timing", system)
        with pytest.raises(skirmish.ScenarioInvalidError, match=r"combat_sense: -1 is outside 0\.\.=1000"):
            base.with_field("sides.A.groups.0.combat_sense", -1)
        # An interval of 0 is the rules' (no wait after the action's ticks).
        base.with_field("sides.A.groups.0.interval", 0)
    # REF below 0 is the formula's minimum of one action.
    assert skirmish.actions_per_phase(-100, 0) == {1: 1}
    # No action allowed is RoF 1/2's even round: nothing lands.
    none = skirmish.graduated_actions(3, 0, 0, 20)
    assert none.mean == 0
