"""One battle: report, trace, determinism."""

from __future__ import annotations

import skirmish


def test_battle_report_and_trace() -> None:
    b = skirmish.battle(seed=1)
    assert b.seed == 1 and b.index == 0
    assert b.outcome in ("win", "draw", "timeout")
    assert b.sides == ["party", "goblinoids"]
    assert b.fielded == {"party": 3, "goblinoids": 5}
    if b.outcome == "win":
        assert b.winner in b.sides
        assert b.standing[b.winner] > 0
        loser = [s for s in b.sides if s != b.winner][0]
        assert b.standing[loser] == 0
    assert b.summary["actions"] > 0 and b.summary["ticks"] > 0
    frame = b.trace_frame()
    assert list(frame.columns) == ["tick", "round", "display", "pass", "text"]
    assert len(frame) == len(b.trace) > 0
    assert frame["tick"].is_monotonic_increasing
    assert frame.attrs["seed"] == 1
    assert "strikes" in " ".join(frame["text"])
    assert b.casualties and b.casualties[-1]["standing"] == [b.standing[s] for s in b.sides]
    cas = b.casualties_frame()
    assert list(cas.columns) == ["tick", "party", "goblinoids"]
    assert b.to_dict()["summary"] == {**b.summary, "outcome": b.to_dict()["summary"]["outcome"]}
    assert "seed 1" in b._repr_html_() and "BattleReport(" in repr(b)


def test_same_seed_same_battle_and_trace_off() -> None:
    a = skirmish.battle("goblin-ambush", seed=42, index=3)
    b = skirmish.battle(skirmish.Scenario(), seed=42, index=3)
    assert a.to_dict() == b.to_dict()
    c = skirmish.battle(seed=42, index=3, trace=False)
    assert c.trace == [] and c.summary == a.summary
    # Simple Rounds name a moment by round, pass and initiative.
    simple = skirmish.battle(skirmish.Scenario().with_field("timing", "simple-rounds"), seed=42)
    passes = simple.trace_frame()["pass"]
    assert passes.max() >= 1
    assert set(b.trace_frame()["pass"]) == {0}  # Continuous has no passes
    drawn = skirmish.battle()
    assert skirmish.battle(seed=drawn.seed).to_dict() == drawn.to_dict()


def test_any_timing_system() -> None:
    s = skirmish.Scenario().with_field("timing", "action-blocks")
    b = skirmish.battle(s, seed=9)
    assert b.summary["actions"] > 0
    assert b.scenario_fingerprint == s.fingerprint
