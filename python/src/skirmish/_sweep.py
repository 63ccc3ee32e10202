"""Sweeps: many battles over a grid of scenario field values, one row of
statistics per cell."""

from __future__ import annotations

import csv
import html
import os
import secrets
from collections.abc import Mapping, Sequence
from typing import Any, Callable, Optional, Union

import numpy as np

from . import _args, _core, _frames
from ._scenario import ScenarioLike, as_scenario, value_text

#: ``{field path: [values]}``: the grid is the product of the values, the
#: first axis varying slowest.
Axes = Mapping[str, Sequence[Any]]

PathLike = Union[str, "os.PathLike[str]"]

ProgressCallback = Callable[[int, int, int, int], None]


def invalid(message: str) -> Exception:
    """An :class:`InvalidSweepError` with ``message``."""
    err = _core.InvalidSweepError(f"invalid sweep: {message}")
    err.message = message
    return err


def check_count(name: str, value: object, low: int, high: int) -> int:
    """``value`` as an int within ``low..=high``, or InvalidSweepError naming it."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise invalid(f"{name} must be a whole number, not {value!r}")
    v = int(value)
    if not low <= v <= high:
        raise invalid(f"{name} must be between {low} and {high}, not {v}")
    return v


def normalize_axes(axes: Optional[Axes]) -> tuple[dict[str, list[Any]], list[tuple[str, list[str]]]]:
    """The axes as ``{path: [python values]}`` and as ``[(path, [text])]``."""
    if axes is None:
        return {}, []
    if not isinstance(axes, Mapping):
        raise invalid(f"axes must be a dict {{field path: [values]}}, not {type(axes).__name__}")
    values: dict[str, list[Any]] = {}
    texts: list[tuple[str, list[str]]] = []
    for path, vals in axes.items():
        if not isinstance(path, str):
            raise invalid(f"an axis path must be a str, not {path!r}")
        if isinstance(vals, (str, bytes)) or not isinstance(vals, (Sequence, np.ndarray, range)):
            raise invalid(f"axis {path!r}: the values must be a list, not {vals!r}")
        listed = list(vals)
        values[path] = listed
        texts.append((path, [value_text(v, f"axes[{path!r}][{i}]", "sweep") for i, v in enumerate(listed)]))
    return values, texts


def cell_values(axes: Mapping[str, Sequence[Any]], cell: int) -> list[Any]:
    """The axis values of cell ``cell``, in the Rust sweep's grid order
    (``skirmish_sim::sweep::grid_position``: first axis slowest)."""
    values = list(axes.values())
    position = _core.grid_position([len(v) for v in values], cell)
    return [v[i] for v, i in zip(values, position)]


def seed_in_checkpoint(checkpoint: Optional[PathLike]) -> Optional[int]:
    """The seed of the first row of an existing checkpoint, if any: None
    if there is none, or if the file cannot be read here (a folder, bytes
    that are not UTF-8, a path the system refuses): the Rust sweep checks
    the checkpoint next and raises the typed error for it
    (:class:`CheckpointIOError`, :class:`CheckpointError`)."""
    try:
        if checkpoint is None or not os.path.isfile(checkpoint):
            return None
        with open(checkpoint, newline="", encoding="utf-8") as f:
            rows = csv.reader(f)
            header = next(rows, None)
            first = next(rows, None)
    except (OSError, ValueError, TypeError, csv.Error):
        # UnicodeDecodeError is a ValueError; TypeError: not a path at all.
        return None
    if not header or not first or "seed" not in header or len(first) != len(header):
        return None
    try:
        return int(first[header.index("seed")])
    except ValueError:
        return None


class _Bar:
    """A ``tqdm.auto`` bar in battles, fed by the sweep's polling thread;
    silent without tqdm or with ``enabled=False``."""

    def __init__(self, enabled: bool, description: str) -> None:
        self._tqdm = _frames.tqdm_auto() if enabled else None
        self._description = description
        self._bar: Any = None

    def update(self, cells_done: int, cells_total: int, battles_done: int, battles_total: int) -> None:
        if self._tqdm is None:
            return
        if self._bar is None:
            self._bar = self._tqdm(total=battles_total, unit="battle", unit_scale=True, desc=self._description)
        self._bar.n = battles_done
        self._bar.set_postfix_str(f"{cells_done}/{cells_total} cells", refresh=False)
        self._bar.refresh()

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()


class SweepResult:
    """The table of a sweep: one row per cell, in grid order.

    The columns follow the stable schema of ``skirmish_sim::sweep`` (the
    CLI's CSV): the axes, ``battles``, ``win_rate_<side>`` with its
    ``_low``/``_high`` Wilson 95% interval for each side, draws, timeouts,
    durations, per-action rates, the exact counts, each side's
    ``retreat_rate_<side>`` and ``surrender_rate_<side>`` with their
    intervals and ``retreats_<side>``/``surrenders_<side>`` counts (morale;
    schema 2), ``seed`` and ``scenario_fingerprint``. The duration that
    compares across timing systems is ``mean_seconds`` (game seconds;
    ``NaN`` under the Tick System, whose text gives ticks no length);
    ``mean_ticks`` and ``mean_rounds`` are in each system's own units. In the DataFrames the axis columns hold the
    Python values you gave (``to_csv`` keeps their text). Pickles.
    """

    def __init__(self, table: _core.SweepTable, axes: Mapping[str, Sequence[Any]]) -> None:
        #: The master seed (pass it again to replay the sweep).
        self.seed: int = table.seed
        #: The base scenario's fingerprint.
        self.scenario_fingerprint: str = table.scenario_fingerprint
        #: Battles per cell.
        self.battles: int = table.battles
        #: The side names, in scenario order.
        self.sides: list[str] = table.sides
        #: ``{field path: [values]}`` as given.
        self.axes: dict[str, list[Any]] = {k: list(v) for k, v in axes.items()}
        #: The columns in schema order: NumPy arrays (handed over from Rust
        #: without a copy) for numbers, lists of text for the axes and the
        #: fingerprint.
        self.columns: dict[str, Union[np.ndarray, list[str]]] = dict(table.columns())
        self._csv = table.to_csv()
        self._json = table.to_json()
        self._summary = table.summary_text()
        self._cells = len(table)

    # --- plain outputs ----------------------------------------------------
    def __len__(self) -> int:
        return self._cells

    def to_csv(self) -> str:
        """The CSV the CLI writes, byte for byte."""
        return self._csv

    def to_json(self) -> str:
        """The JSON the CLI writes, byte for byte."""
        return self._json

    def summary(self) -> str:
        """Win rates with intervals, draws, timeouts and the mean duration in
        game seconds, rounds and ticks, aligned; then what a tick and a
        round are under each timing system of the table."""
        return self._summary

    def metadata(self) -> dict[str, Any]:
        """What every row shares: seed, scenario fingerprint, battles per
        cell, axes and sides (``df.attrs`` of :meth:`to_pandas`)."""
        return {
            "seed": self.seed,
            "scenario_fingerprint": self.scenario_fingerprint,
            "battles": self.battles,
            "axes": {k: list(v) for k, v in self.axes.items()},
            "sides": list(self.sides),
        }

    def axis_column(self, path: str) -> list[Any]:
        """The Python values of axis ``path``, one per row."""
        if path not in self.axes:
            raise KeyError(f"{path!r} is not an axis of this sweep (axes: {list(self.axes)})")
        k = list(self.axes).index(path)
        return [cell_values(self.axes, i)[k] for i in range(self._cells)]

    def _frame_columns(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name, col in self.columns.items():
            out[name] = self.axis_column(name) if name in self.axes else col
        return out

    # --- DataFrames ---------------------------------------------------------
    def to_pandas(self) -> Any:
        """A pandas DataFrame; ``df.attrs`` holds :meth:`metadata`."""
        pd = _frames.pandas()
        cols = self._frame_columns()
        frame = pd.DataFrame({k: (v if isinstance(v, np.ndarray) else pd.Series(v, dtype=object if _mixed(v) else None)) for k, v in cols.items()})
        frame.attrs.update(self.metadata())
        return frame

    def to_arrow(self) -> Any:
        """A pyarrow Table; the schema metadata holds :meth:`metadata` (as
        ``skirmish.*`` keys, text)."""
        pa = _frames.pyarrow()
        arrays = []
        for name, col in self._frame_columns().items():
            try:
                arrays.append(pa.array(col))
            except (pa.ArrowInvalid, pa.ArrowTypeError):
                # Values of mixed types: their text, as in the CSV.
                arrays.append(pa.array(self.columns[name]))
        meta = {f"skirmish.{k}": str(v) for k, v in self.metadata().items()}
        return pa.Table.from_arrays(arrays, names=list(self.columns), metadata=meta)

    def to_polars(self) -> Any:
        """A polars DataFrame (the seed and the fingerprint are its ``seed``
        and ``scenario_fingerprint`` columns, and :meth:`metadata`)."""
        pl = _frames.polars()
        series = []
        for name, col in self._frame_columns().items():
            try:
                series.append(pl.Series(name, col))
            except (TypeError, ValueError, OverflowError, pl.exceptions.PolarsError):
                series.append(pl.Series(name, self.columns[name]))
        return pl.DataFrame(series)

    # --- plotting -----------------------------------------------------------
    def plot(
        self,
        x: str,
        *,
        by: Optional[str] = None,
        side: Optional[str] = None,
        fixed: Optional[Mapping[str, Any]] = None,
        ax: Any = None,
    ) -> Any:
        """Win rate of ``side`` (default: the first) with its 95% interval
        against axis ``x``, one line per value of axis ``by``. Any other
        axis with several values must be pinned with ``fixed={path: value}``.
        Returns the matplotlib Axes."""
        side = self.sides[0] if side is None else side
        if side not in self.sides:
            raise KeyError(f"{side!r} is not a side (sides: {self.sides})")
        fixed = dict(fixed or {})
        for path in [x, *([by] if by else []), *fixed]:
            if path not in self.axes:
                raise KeyError(f"{path!r} is not an axis of this sweep (axes: {list(self.axes)})")
        loose = [p for p, v in self.axes.items() if p not in (x, by) and p not in fixed and len(v) > 1]
        if loose:
            raise ValueError(f"axes {loose} vary too: pin them with fixed={{path: value}} or plot them with by=")
        col = _side_column(self.columns, self.sides, side)
        rate, low, high = (np.asarray(self.columns[col + s]) for s in ("", "_low", "_high"))
        order = list(self.axes)
        rows = [cell_values(self.axes, i) for i in range(self._cells)]
        keep = [
            i for i, r in enumerate(rows) if all(_same(r[order.index(p)], v) for p, v in fixed.items())
        ]
        xs = self.axes[x]
        numeric = all(isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, bool) for v in xs)
        position = {value_text(v): (float(v) if numeric else float(i)) for i, v in enumerate(xs)}
        plt = _frames.pyplot()
        if ax is None:
            _, ax = plt.subplots()
        groups = self.axes[by] if by else [None]
        for g in groups:
            idx = [i for i in keep if by is None or _same(rows[i][order.index(by)], g)]
            px = [position[value_text(rows[i][order.index(x)])] for i in idx]
            line = ax.plot(px, rate[idx], marker="o", label=None if by is None else str(g))[0]
            ax.fill_between(px, low[idx], high[idx], alpha=0.2, color=line.get_color())
        if not numeric:
            ax.set_xticks([position[value_text(v)] for v in xs])
            ax.set_xticklabels([str(v) for v in xs], rotation=30 if len(xs) > 4 else 0)
        ax.set_xlabel(x)
        ax.set_ylabel(f"{side} win rate (95% interval)")
        ax.set_ylim(0, 1)
        ax.set_title(f"{self.battles} battles per cell, seed {self.seed}")
        if by is not None:
            ax.legend(title=by)
        return ax

    # --- display ------------------------------------------------------------
    def __repr__(self) -> str:
        return (
            f"SweepResult({self._cells} cells x {self.battles} battles, seed={self.seed}, "
            f"scenario {self.scenario_fingerprint})\n{self._summary}"
        )

    def _repr_html_(self) -> str:
        limit = 200
        head = [
            *self.axes,
            "battles",
            *(f"{s} wins (95%)" for s in self.sides),
            "draws",
            "timeouts",
            "mean seconds",
            "mean rounds",
            "mean ticks",
        ]
        body = []
        for i in range(min(self._cells, limit)):
            cells = [html.escape(str(v)) for v in cell_values(self.axes, i)]
            cells.append(str(int(self.columns["battles"][i])))
            for s in self.sides:
                c = _side_column(self.columns, self.sides, s)
                r, lo, hi = (float(self.columns[c + suffix][i]) for suffix in ("", "_low", "_high"))
                cells.append(f"{100 * r:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]")
            cells.append(f"{100 * float(self.columns['draw_rate'][i]):.1f}%")
            cells.append(f"{100 * float(self.columns['timeout_rate'][i]):.1f}%")
            seconds = float(self.columns["mean_seconds"][i])
            cells.append("-" if np.isnan(seconds) else f"{seconds:.1f}")
            cells.append(f"{float(self.columns['mean_rounds'][i]):.1f}")
            cells.append(f"{float(self.columns['mean_ticks'][i]):.1f}")
            body.append("<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
        more = f"<p>... {self._cells - limit} more rows</p>" if self._cells > limit else ""
        return (
            f"<div><p><b>skirmish sweep</b>: {self._cells} cells x {self.battles} battles, "
            f"seed {self.seed}, scenario {html.escape(self.scenario_fingerprint)}</p>"
            "<table><thead><tr>"
            + "".join(f"<th>{html.escape(h)}</th>" for h in head)
            + "</tr></thead><tbody>"
            + "".join(body)
            + f"</tbody></table>{more}</div>"
        )


def _same(a: object, b: object) -> bool:
    return value_text(a) == value_text(b)


def _mixed(values: Sequence[Any]) -> bool:
    return len({type(v) for v in values}) > 1


def _side_column(columns: Mapping[str, Any], sides: Sequence[str], side: str) -> str:
    """The ``win_rate_<side>`` column of ``side``: the schema puts the axes,
    ``battles``, then one rate triple per side, in scenario order."""
    names = list(columns)
    first = names.index("battles") + 1
    return names[first + 3 * list(sides).index(side)]


def sweep(
    scenario: ScenarioLike = None,
    axes: Optional[Axes] = None,
    *,
    battles: int = 1000,
    seed: Optional[int] = None,
    threads: Optional[int] = None,
    progress: bool = True,
    checkpoint: Optional[PathLike] = None,
    resume: bool = False,
    force: bool = False,
) -> SweepResult:
    """Fights ``battles`` battles in every cell of the grid ``axes``
    (``{field path: [values]}``, the product of the values, first axis
    slowest) of ``scenario`` (default: the goblin ambush).

    Battle ``i`` of every cell draws from the stream ``(seed, i)``: the same
    seed gives the same numbers on any number of ``threads`` (default: one
    per core). ``seed=None`` draws a seed (or, resuming, takes the
    checkpoint's) and records it in the result. The sweep runs in Rust with
    the GIL released; ``progress`` shows a ``tqdm.auto`` bar if tqdm is
    installed. Ctrl-C stops it within a fraction of a second; with
    ``checkpoint`` (a CSV file) every finished cell is kept there, and
    ``resume=True`` skips them next time. Without ``resume``, a checkpoint
    file that already holds finished cells (or anything else) is refused
    with :class:`CheckpointIOError` before any battle, unless
    ``force=True`` overwrites it.
    """
    s = as_scenario(scenario)
    values, texts = normalize_axes(axes)
    battles = check_count("battles", battles, 1, _core.MAX_BATTLES)
    if threads is not None:
        threads = check_count("threads", threads, 0, _core.MAX_THREADS)
    if seed is None and resume:
        seed = seed_in_checkpoint(checkpoint)
    if seed is None:
        seed = secrets.randbits(64)
    seed = check_count("seed", seed, 0, 2**64 - 1)
    bar = _Bar(progress, s.name)
    try:
        table = _core.run_sweep(
            s._core,
            texts,
            battles,
            seed,
            threads=threads,
            checkpoint=checkpoint,
            resume=resume,
            progress=bar.update,
            force=force,
        )
    finally:
        bar.close()
    assert table is not None
    return SweepResult(table, values)


def cells_of(axes: Mapping[str, Sequence[Any]]) -> int:
    """Cells in the grid (``skirmish_sim::sweep::grid_cells``)."""
    return _core.grid_cells([len(v) for v in axes.values()])
