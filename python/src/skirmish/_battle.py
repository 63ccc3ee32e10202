"""One battle, with its report and its trace."""

from __future__ import annotations

import html
import json
import secrets
from typing import Any, Optional

from . import _core, _frames
from ._scenario import ScenarioLike, as_scenario


class BattleReport:
    """What one battle did: its outcome and numbers, the casualties over
    time, and (when asked for) its blow-by-blow trace.

    Battle ``index`` of seed ``seed`` is the very battle a sweep with that
    seed fights as battle ``index`` of every cell.
    """

    __slots__ = ("_data", "seed", "index", "scenario_fingerprint")

    def __init__(self, data: dict[str, Any], seed: int, index: int, scenario_fingerprint: str) -> None:
        self._data = data
        #: The master seed.
        self.seed = seed
        #: The battle's index within the seed's streams.
        self.index = index
        #: The fingerprint of the scenario fought.
        self.scenario_fingerprint = scenario_fingerprint

    @property
    def outcome(self) -> str:
        """``"win"``, ``"draw"`` (no side left: the last wiped out or broken
        together) or ``"timeout"``."""
        outcome: str = self._data["summary"]["outcome"]["outcome"]
        return outcome

    @property
    def winner(self) -> Optional[str]:
        """The winning side's name, or None for a draw or a timeout."""
        o = self._data["summary"]["outcome"]
        if o["outcome"] != "win":
            return None
        name: str = self._data["sides"][o["side"]]
        return name

    @property
    def sides(self) -> list[str]:
        """The side names, in order."""
        return list(self._data["sides"])

    @property
    def fielded(self) -> dict[str, int]:
        """Fighters per side at the start."""
        return dict(zip(self._data["sides"], self._data["fielded"]))

    @property
    def standing(self) -> dict[str, int]:
        """Fighters standing per side at the end (a side that broke: those
        who left the battle standing, retreated or surrendered)."""
        return dict(zip(self._data["sides"], self._data["standing"]))

    @property
    def summary(self) -> dict[str, int]:
        """The numbers: ticks, rounds, actions, hits, amazing strikes and
        defenses, disruptions."""
        return {k: v for k, v in self._data["summary"].items() if k not in ("outcome", "breaks")}

    @property
    def broke(self) -> dict[str, str]:
        """The sides that broke off the battle (morale), each with how:
        ``{"goblinoids": "surrender"}``; empty when none did."""
        breaks = self._data["summary"].get("breaks") or {}
        out: dict[str, str] = {}
        for i, side in enumerate(self._data["sides"]):
            if i < 64 and breaks.get("retreated", 0) >> i & 1:
                out[side] = "retreat"
            elif i < 64 and breaks.get("surrendered", 0) >> i & 1:
                out[side] = "surrender"
        return out

    @property
    def casualties(self) -> list[dict[str, Any]]:
        """One entry per tick at which someone fell: ``{"tick", "standing"}``."""
        return [dict(c) for c in self._data["casualties"]]

    @property
    def trace(self) -> list[dict[str, Any]]:
        """The trace lines (``tick``, ``round``, ``display``, ``pass``, ``text``);
        empty when the battle was run with ``trace=False``."""
        return [dict(t) for t in self._data.get("trace") or []]

    def to_dict(self) -> dict[str, Any]:
        """The whole report as plain data (the Rust ``BattleReport``)."""
        data: dict[str, Any] = json.loads(json.dumps(self._data))
        return data

    def trace_frame(self) -> Any:
        """The trace as a pandas DataFrame: one row per line, columns
        ``tick``, ``round``, ``display``, ``pass``, ``text`` (``pass``: Simple
        Rounds' pass, Graduated Rounds' end pass, Action Blocks' block, else
        0; with ``round`` and ``display`` it names the moment as the timing
        system does)."""
        pd = _frames.pandas()
        rows = self.trace
        frame = pd.DataFrame(rows, columns=["tick", "round", "display", "pass", "text"])
        frame.attrs.update(seed=self.seed, index=self.index, scenario_fingerprint=self.scenario_fingerprint)
        return frame

    def casualties_frame(self) -> Any:
        """Fighters standing per side after each tick at which someone fell."""
        pd = _frames.pandas()
        rows = [{"tick": c["tick"], **dict(zip(self.sides, c["standing"]))} for c in self.casualties]
        return pd.DataFrame(rows, columns=["tick", *self.sides])

    def __repr__(self) -> str:
        result = f"{self.winner} win" if self.winner else self.outcome
        return (
            f"BattleReport({result}, {self.summary['ticks']} ticks, "
            f"{self.summary['actions']} actions, seed={self.seed}, index={self.index})"
        )

    def _repr_html_(self) -> str:
        rows = "".join(
            f"<tr><td>{html.escape(s)}</td><td>{self.fielded[s]}</td><td>{self.standing[s]}</td></tr>"
            for s in self.sides
        )
        result = f"{self.winner} win" if self.winner else self.outcome
        return (
            f"<p><b>{html.escape(result)}</b> after {self.summary['ticks']} ticks "
            f"({self.summary['actions']} actions, {self.summary['hits']} hits); "
            f"seed {self.seed}, battle {self.index}</p>"
            f"<table><tr><th>side</th><th>fielded</th><th>standing</th></tr>{rows}</table>"
        )


def battle(
    scenario: ScenarioLike = None,
    *,
    seed: Optional[int] = None,
    index: int = 0,
    trace: bool = True,
) -> BattleReport:
    """Fights one battle of ``scenario`` (default: the goblin ambush).

    ``seed=None`` draws a seed and records it in the report
    (:attr:`BattleReport.seed`), so the battle can be fought again.
    """
    s = as_scenario(scenario)
    if seed is None:
        seed = secrets.randbits(64)
    data = json.loads(_core.run_battle(s._core, seed, index, trace))
    return BattleReport(data, seed, index, s.fingerprint)
