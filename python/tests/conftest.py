"""Shared fixtures: the repository root and small sweeps."""

from __future__ import annotations

import os
import pathlib

import pytest

import skirmish

REPO = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def repo() -> pathlib.Path:
    return REPO


@pytest.fixture(scope="session")
def small_sweep() -> skirmish.SweepResult:
    """Two axes of the goblin ambush, small enough to be quick."""
    return skirmish.sweep(
        "goblin-ambush",
        {"timing": ["continuous", "tick-system"], "sides.goblinoids.groups.0.count": [1, 2, 3]},
        battles=60,
        seed=11,
        progress=False,
    )


def cli_binary() -> pathlib.Path | None:
    """The skirmish CLI built from this checkout, if any (scripts/test-python builds it)."""
    explicit = os.environ.get("SKIRMISH_CLI")
    if explicit:
        return pathlib.Path(explicit)
    for profile in ("release", "debug"):
        p = REPO / "target" / profile / "skirmish"
        if p.exists():
            return p
    return None
