"""Exact outcomes of small fights: each side's chance to win, a draw and a
fight that never ends, solved in Rust as a Markov chain, in fractions."""

from __future__ import annotations

from fractions import Fraction
from typing import Union

from . import _core
from ._scenario import ScenarioLike, as_scenario

#: A chance: a :class:`~fractions.Fraction` when the fight was solved in
#: fractions, else a float (within :attr:`ExactResult.error_bound`).
Chance = Union[Fraction, float]


def _chance(c: _core.ExactChance) -> Chance:
    return Fraction(c.fraction) if c.fraction is not None else c.value


class ExactResult:
    """What :func:`exact` found. ``wins`` maps each side to its chance to
    win; ``draw`` is the chance that the last fighters of every side fall at
    once, ``never_ends`` that the fight reaches a state where nobody can
    hurt anybody. Each is a :class:`~fractions.Fraction` when :attr:`exact`
    (the default for small fights), else a float off by at most
    :attr:`error_bound`. The chances sum to 1. Pickles (its record does)."""

    def __init__(self, record: _core.Exact) -> None:
        #: The record the Rust engine returned (values and fraction texts).
        self.record = record

    @property
    def sides(self) -> tuple[str, ...]:
        """The sides' names, in the scenario's order."""
        return self.record.sides

    @property
    def wins(self) -> dict[str, Chance]:
        """Each side's chance to win, by name."""
        return {s: _chance(c) for s, c in zip(self.record.sides, self.record.wins)}

    @property
    def draw(self) -> Chance:
        """The chance that the last fighters of every side fall at once."""
        return _chance(self.record.draw)

    @property
    def never_ends(self) -> Chance:
        """The chance that the fight never ends (nobody can hurt anybody)."""
        return _chance(self.record.never_ends)

    @property
    def exact(self) -> bool:
        """Whether the chances are exact fractions."""
        return self.record.exact

    @property
    def error_bound(self) -> float:
        """The most a float chance may be off (0 for fractions)."""
        return self.record.error_bound

    @property
    def states(self) -> int:
        """States of the chain solved (between exchanges, endings aside)."""
        return self.record.states

    @property
    def transitions(self) -> int:
        """Transitions between the states."""
        return self.record.transitions

    def __repr__(self) -> str:
        wins = ", ".join(f"{s}: {c}" for s, c in self.wins.items())
        kind = "exact" if self.exact else f"float, error <= {self.error_bound:.1e}"
        return (
            f"ExactResult({wins}; draw {self.draw}; never ends {self.never_ends}; "
            f"{self.states} states, {kind})"
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ExactResult) and self.record == other.record

    def __hash__(self) -> int:
        return hash(self.record)

    def __reduce__(self) -> tuple[type, tuple[_core.Exact]]:
        return (ExactResult, (self.record,))


def exact(
    scenario: ScenarioLike,
    *,
    max_states: int = _core.EXACT_MAX_STATES,
    max_exact_states: int = _core.EXACT_MAX_EXACT_STATES,
    arithmetic: str = "auto",
) -> ExactResult:
    """The exact outcome of a small fight: no battles are sampled.

    The fight is a Markov chain over what the rules remember between
    exchanges (each fighter's damage, and what the targeting policy
    reads); every roll and every random pick is enumerated with its exact
    weight, and rounds where nobody is hurt are solved, not truncated.
    ``arithmetic`` is ``"auto"`` (fractions up to ``max_exact_states``
    states, floats with an error bound beyond), ``"fractions"`` or
    ``"float"``.

    Raises :class:`ExactUnsupportedError` for a rule or option the exact
    engine does not model yet (naming the field: sample the fight with
    :func:`run_battle` or :func:`sweep` instead), :class:`ExactTooBigError`
    for a fight of more than ``max_states`` states,
    :class:`BattleSetupError` for a scenario that is no battle, and
    :class:`OutOfRangeError` / :class:`InvalidValueError` for a bad
    argument. Ctrl-C is raised once the solve has ended (``max_states``
    and a cap on one exchange's outcomes bound it).
    """
    record = _core.run_exact(as_scenario(scenario)._core, max_states, max_exact_states, arithmetic)
    return ExactResult(record)
