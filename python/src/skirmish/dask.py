"""Sweeps over a Dask ``distributed`` cluster (the ``dask`` extra: ``pip install './python[dask]'``).

:func:`sweep` splits the grid by **cells**, never one cell's battles (a
cell's median and 90th percentile cannot be pooled from parts): each task
fights whole cells, exactly as the local sweep fights them (battle ``i``
of every cell from the stream ``(seed, i)``), and sends back each cell's
row of exact counts. The rows are then put together by the same Rust code
that resumes a checkpoint, which checks that every statistic follows from
its counts: the result is the local sweep's, byte for byte.
"""

from __future__ import annotations

import importlib
import os
import secrets
import tempfile
from collections.abc import Sequence
from typing import Any, Optional

from . import _args, _core
from ._scenario import Scenario, ScenarioLike, as_scenario
from ._sweep import (
    Axes,
    PathLike,
    SweepResult,
    _Bar,
    cell_values,
    cells_of,
    check_count,
    normalize_axes,
    seed_in_checkpoint,
)

__all__ = ["sweep", "run_cells"]


def run_cells(
    scenario: Scenario,
    axes: Sequence[tuple[str, Sequence[str]]],
    cells: Sequence[int],
    battles: int,
    seed: int,
    threads: Optional[int] = 1,
) -> list[str]:
    """Fights ``cells`` (grid indices) of a sweep on this machine and
    returns each cell's CSV row (the task a Dask worker runs).

    Each cell is a sweep of its own with every axis pinned to the cell's
    value: the same scenario edits, the same battles and the same row as
    in the whole grid.
    """
    grid = {path: list(values) for path, values in axes}
    rows = []
    for cell in cells:
        pinned = [(path, [value]) for path, value in zip(grid, cell_values(grid, cell))]
        table = _core.run_sweep(scenario._core, pinned, battles, seed, threads=threads, progress=None)
        assert table is not None
        rows.append(table.to_csv().split("\n")[1])
    return rows


def sweep(
    client: Any,
    scenario: ScenarioLike = None,
    axes: Optional[Axes] = None,
    *,
    battles: int = 1000,
    seed: Optional[int] = None,
    cells_per_task: int = 1,
    threads_per_task: Optional[int] = 1,
    progress: bool = True,
    checkpoint: Optional[PathLike] = None,
    resume: bool = False,
    force: bool = False,
) -> SweepResult:
    """:func:`skirmish.sweep` on a ``distributed.Client``'s cluster.

    The arguments are :func:`skirmish.sweep`'s, plus ``cells_per_task``
    (cells fought by one task, in grid order) and ``threads_per_task``
    (each task's Rust threads; ``None``: one per core of its worker). Every
    check the local sweep makes (axes, every cell's scenario, the
    checkpoint) runs here first, before any task is sent. With
    ``checkpoint``, each finished cell is appended as it arrives and
    ``resume=True`` skips the cells already there, as locally (and, as
    locally, finished cells are not overwritten without ``force=True``). Ctrl-C
    cancels the outstanding tasks.
    """
    s = as_scenario(scenario)
    values, texts = normalize_axes(axes)
    battles = check_count("battles", battles, 1, _core.MAX_BATTLES)
    if checkpoint is not None and not isinstance(checkpoint, (str, os.PathLike)):
        raise _args.wrong_type("checkpoint", "a str or an os.PathLike", checkpoint)
    cells_per_task = check_count("cells_per_task", cells_per_task, 1, 2**63)
    if threads_per_task is not None:
        threads_per_task = check_count("threads_per_task", threads_per_task, 0, _core.MAX_THREADS)
    if seed is None and resume:
        seed = seed_in_checkpoint(checkpoint)
    if seed is None:
        seed = secrets.randbits(64)
    seed = check_count("seed", seed, 0, 2**64 - 1)

    with tempfile.TemporaryDirectory(prefix="skirmish-dask-") as tmp:
        path = os.fspath(checkpoint) if checkpoint is not None else os.path.join(tmp, "cells.csv")
        # Every check of the local sweep, and the checkpoint made ready
        # (resuming: its reusable rows kept, a torn last line dropped); no
        # battle is fought.
        _core.run_sweep(s._core, texts, battles, seed, checkpoint=path, resume=resume, dry_run=True, force=force)
        done = _done_cells(path, values, texts)
        todo = [c for c in range(cells_of(values)) if c not in done]
        chunks = [todo[i : i + cells_per_task] for i in range(0, len(todo), cells_per_task)]

        as_completed = importlib.import_module("distributed").as_completed

        futures = [
            client.submit(run_cells, s, texts, chunk, battles, seed, threads_per_task, pure=False) for chunk in chunks
        ]
        bar = _Bar(progress, f"{s.name} (dask)")
        total_cells = cells_of(values)
        cells_done = len(done)
        try:
            bar.update(cells_done, total_cells, cells_done * battles, total_cells * battles)
            header = _final_header(path)
            with open(path, "a", encoding="utf-8", newline="") as out:
                for future in as_completed(futures):
                    rows = future.result()
                    out.write("".join(f"{row},{_core.row_check(header, row)}\n" for row in rows))
                    out.flush()
                    os.fsync(out.fileno())
                    cells_done += len(rows)
                    bar.update(cells_done, total_cells, cells_done * battles, total_cells * battles)
        except BaseException:
            client.cancel(futures)
            raise
        finally:
            bar.close()
        # Every row is in the file: the Rust resume reads them back, checks
        # each against its counts, and writes the table in grid order.
        table = _core.run_sweep(s._core, texts, battles, seed, checkpoint=path, resume=True, progress=None)
        assert table is not None
        return SweepResult(table, values)


def _final_header(path: str) -> str:
    """The final table's header line: the checkpoint's without ``row_check``."""
    with open(path, encoding="utf-8-sig", newline="") as f:
        first = f.readline().rstrip("\r\n")
    return first.removesuffix(",row_check")


def _done_cells(path: str, values: dict[str, list[Any]], texts: list[tuple[str, list[str]]]) -> set[int]:
    """The cells whose rows a (checked) checkpoint already holds."""
    import csv

    index = {}
    grid = {p: t for p, t in texts}
    for cell in range(cells_of(values)):
        index[tuple(cell_values(grid, cell))] = cell
    done: set[int] = set()
    with open(path, newline="", encoding="utf-8") as f:
        rows = csv.reader(f)
        next(rows, None)
        for row in rows:
            key = tuple(row[: len(texts)])
            if key in index:
                done.add(index[key])
    return done
