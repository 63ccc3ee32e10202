"""Balance: where a side's win rate crosses a target (an even fight) as one
scenario field varies, found in Rust by bisection on common random numbers."""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Optional

from . import _core, _frames
from ._scenario import ScenarioLike, as_scenario

#: The columns of :meth:`BalanceResult.to_pandas`, one row a value fought.
POINT_COLUMNS = ("value", "battles", "wins", "win_rate", "low", "high", "verdict", "exact", "fraction")


class BalanceResult:
    """What :func:`balance` found: the answer, every value fought and why the
    search stopped.

    ``answer`` is ``"between"``: the crossing lies between :attr:`below`
    (the side wins less often than the target there) and :attr:`above`
    (more often), adjacent for an integer field and each decided at 95%; or
    ``"at"``: at :attr:`at` the win rate could not be told from the target
    in ``max_battles`` battles. Pickles (its record does)."""

    def __init__(self, record: _core.Balance) -> None:
        #: The record the Rust search returned.
        self.record = record

    @property
    def field(self) -> str:
        """The field that varied."""
        return self.record.field

    @property
    def side(self) -> str:
        """The side whose win rate was read."""
        return self.record.side

    @property
    def target(self) -> float:
        """The win rate sought."""
        return self.record.target

    @property
    def seed(self) -> int:
        """The master seed (pass it again to replay the search)."""
        return self.record.seed

    @property
    def kind(self) -> str:
        """``"integer"`` or ``"real"``: the kind of number the field holds."""
        return self.record.kind

    @property
    def answer(self) -> str:
        """``"between"`` or ``"at"``."""
        return self.record.answer

    @property
    def below(self) -> Optional[float]:
        """With ``"between"``: the value where the side wins less often than the target."""
        return self.record.below

    @property
    def above(self) -> Optional[float]:
        """With ``"between"``: the value where the side wins more often than the target."""
        return self.record.above

    @property
    def at(self) -> Optional[float]:
        """With ``"at"``: the value that could not be told from the target."""
        return self.record.at

    @property
    def points(self) -> tuple[_core.BalancePoint, ...]:
        """Every value fought, in the order fought (the two ends first)."""
        return self.record.points

    @property
    def stopped(self) -> str:
        """Why the search stopped, in words."""
        return self.record.stopped

    @property
    def method(self) -> str:
        """``"exact"`` (every win rate the exact engine's chance, no battle
        fought) or ``"sampled"``."""
        return self.record.method

    @property
    def not_exact(self) -> Optional[str]:
        """Why a ``method="auto"`` search sampled: the exact engine's refusal."""
        return self.record.not_exact

    def fraction(self, value: float) -> Optional[Fraction]:
        """The exact win rate at ``value`` as a :class:`~fractions.Fraction`,
        when it was solved in fractions; ``None`` otherwise."""
        for p in self.points:
            if p.value == value and p.fraction is not None:
                return Fraction(p.fraction)
        return None

    @property
    def battles(self) -> int:
        """Battles fought in all."""
        return sum(p.battles for p in self.points)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, BalanceResult) and self.record == other.record

    def __hash__(self) -> int:
        return hash(self.record)

    def __repr__(self) -> str:
        if self.answer == "between":
            where = f"between {self.below:g} (below) and {self.above:g} (above)"
        else:
            where = f"at {self.at:g}"
        how = "exact" if self.method == "exact" else f"{self.battles} battles"
        return (
            f"<BalanceResult {self.field}: {self.side} wins {self.target:.0%} {where}; "
            f"{len(self.points)} values, {how}>"
        )

    def to_pandas(self) -> Any:
        """The values fought as a pandas DataFrame (:data:`POINT_COLUMNS`, in
        the order fought); ``df.attrs`` holds the field, side, target, seed,
        answer and why it stopped."""
        pd = _frames.pandas()
        frame = pd.DataFrame(
            {c: [getattr(p, c) for p in self.points] for c in POINT_COLUMNS},
            columns=list(POINT_COLUMNS),
        )
        frame.attrs.update(
            {
                "field": self.field,
                "side": self.side,
                "target": self.target,
                "seed": self.seed,
                "answer": self.answer,
                "below": self.below,
                "above": self.above,
                "at": self.at,
                "stopped": self.stopped,
                "method": self.method,
                "not_exact": self.not_exact,
            }
        )
        return frame

    def plot(self, ax: Any = None, label: Optional[str] = None) -> Any:
        """The side's win rate at each value fought with its 95% interval,
        the target as a line. Returns the matplotlib Axes."""
        plt = _frames.pyplot()
        if ax is None:
            _, ax = plt.subplots()
        pts = sorted(self.points, key=lambda p: p.value)
        xs = [p.value for p in pts]
        rate = [p.win_rate for p in pts]
        err = [[p.win_rate - p.low for p in pts], [p.high - p.win_rate for p in pts]]
        ax.errorbar(xs, rate, yerr=err, marker="o", capsize=3, label=label)
        ax.axhline(self.target, color="grey", lw=0.8, ls="--")
        ax.set_xlabel(self.field)
        ax.set_ylabel(f"{self.side} win rate")
        ax.set_ylim(0, 1)
        return ax


def balance(
    scenario: ScenarioLike,
    field: str,
    between: tuple[float, float],
    *,
    target: float = 0.5,
    side: Optional[str] = None,
    seed: int = 1,
    battles: int = 250,
    max_battles: int = 16_000,
    tolerance: Optional[float] = None,
    method: str = "auto",
    threads: Optional[int] = None,
) -> BalanceResult:
    """Where ``side``'s win rate (default: the first side's) crosses
    ``target`` as ``field`` varies over ``between = (low, high)``.

    At the two ends, then at halvings of the range, it fights ``battles``
    battles and keeps doubling them (up to ``max_battles`` at a value) until
    the value's 95% Wilson interval lies wholly below or above the target.
    It stops on two adjacent values told apart (an integer field: a count,
    a rating, a Time Taken; a real-valued one on a bracket no wider than
    ``tolerance``, default a thousandth of the range), or on a value that
    cannot be told from the target. Battle *i* at every value is battle *i*
    of ``seed`` (common random numbers), so the same call gives the same
    result on any number of ``threads``.

    ``method="auto"`` (the default) first asks the exact engine (as
    :func:`exact`) for each value's win rate: a fight it solves gets exact
    chances, no battle fought, and exact verdicts (:attr:`BalanceResult.method`
    is ``"exact"``); one it refuses is sampled as above, and
    :attr:`BalanceResult.not_exact` says why. ``"exact"`` raises the exact
    engine's :class:`ExactUnsupportedError` or :class:`ExactTooBigError`
    instead of sampling; ``"sampled"`` never asks it.

    Raises :class:`InvalidBalanceError` for an argument out of range
    (naming it), :class:`FieldPathError` for a path that names no field,
    :class:`ScenarioInvalidError` for a value of the range the scenario
    refuses, :class:`NotNumericFieldError` for a field that holds no
    number, :class:`NoCrossingError` when both ends are on one side of the
    target, :class:`BalanceBattleError` when a battle fails. Ctrl-C stops
    the search between batches (``KeyboardInterrupt``).
    """
    record = _core.run_balance(
        as_scenario(scenario)._core,
        field,
        between,
        target,
        side,
        seed,
        battles,
        max_battles,
        tolerance,
        method,
        threads,
    )
    return BalanceResult(record)
