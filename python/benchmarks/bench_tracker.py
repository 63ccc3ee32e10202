"""The tracker's calls as a Python app makes them, at 30 combatants:
``view()``, ``strike``, ``next`` and ``snapshot()`` (docs/python.md,
"Tracker calls from Python").

    python python/benchmarks/bench_tracker.py [--samples 2000] [--json out.json]
    python python/benchmarks/bench_tracker.py --before BEFORE.json... --after AFTER.json...

Run it with the module built in release mode (``maturin develop --release``
or the wheel). The encounter: two sides of 15 fighters with combat stats
(Full Contact, the wound track), the players' side set, two steps of
``next`` taken, so the tick sheet, the undo history (kept to 20 steps in a
snapshot) and the log are those of a fight under way. Each sample times one
call with ``time.perf_counter_ns``; a call that changes the encounter
(``strike``, ``next``) is undone after its sample, untimed, so every sample
starts from the same state. The report gives the median and the 10th and
90th percentiles in microseconds. Only the public API of ``skirmish`` is
used, so the same script measures any build of the package; ``--before``
with ``--after`` prints the median over runs of each call's median, of two
builds' runs (``--json`` files), as a Markdown table.
"""

from __future__ import annotations

import argparse
import gc
import json
import platform
import statistics
import time
from collections.abc import Callable
from typing import Any, Optional

import skirmish
from skirmish import Encounter

COMBATANTS = 30


def encounter() -> Encounter:
    """Two sides of 15 fighters, a fight under way (see the module docs)."""
    e = Encounter("continuous", seed=1)
    for i in range(COMBATANTS // 2):
        e.add_fighter("party", name=f"Hero {i}", strike_rating=8, defense_rating=6, weapon="Sword, Long")
        e.add_fighter("foes", name=f"Orc {i}", strike_rating=6, defense_rating=5, weapon="Axe, Battle", armor="Leather")
    e.set_party("party")
    e.next()
    e.next()
    return e


def sample(call: Callable[[], Any], undo: Optional[Callable[[], None]], samples: int) -> list[float]:
    """Microseconds of each of ``samples`` calls (``undo`` after each, untimed)."""
    for _ in range(min(200, samples)):  # warm up
        call()
        if undo is not None:
            undo()
    out = []
    gc.disable()
    try:
        for _ in range(samples):
            start = time.perf_counter_ns()
            call()
            out.append((time.perf_counter_ns() - start) / 1000)
            if undo is not None:
                undo()
    finally:
        gc.enable()
    return out


def compare(before: list[str], after: list[str]) -> None:
    """The Markdown table of two builds' runs (their ``--json`` files)."""
    runs: list[list[dict[str, float]]] = []
    for group in (before, after):
        loaded = []
        for path in group:
            with open(path, encoding="utf-8") as f:
                loaded.append(json.load(f))
        runs.append(loaded)
    print(f"Median over runs of each call's median, and the range of the runs' medians ({len(runs[0])} runs before,")
    print(f"{len(runs[1])} after):\n")
    print("| call (30 combatants) | before (us) | after (us) | after / before |")
    print("| --- | ---: | ---: | ---: |")
    for name in runs[0][0]:
        old, new = ([run[name] for run in group] for group in runs)
        a, b = statistics.median(old), statistics.median(new)
        print(
            f"| `{name}` | {a:.0f} ({min(old):.0f}-{max(old):.0f}) | {b:.0f} ({min(new):.0f}-{max(new):.0f}) "
            f"| {b / a:.2f} |"
        )


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--samples", type=int, default=2000)
    p.add_argument("--json", help="also write the medians here")
    p.add_argument("--before", nargs="+", help="runs of one build (--json files) to compare...")
    p.add_argument("--after", nargs="+", help="...with runs of another")
    a = p.parse_args()
    if a.before or a.after:
        if not (a.before and a.after):
            raise SystemExit("--before and --after go together")
        compare(a.before, a.after)
        return
    e = encounter()
    hero, orc = e.find("Hero 0"), e.find("Orc 0")
    before = e.snapshot()
    calls: dict[str, tuple[Callable[[], Any], Optional[Callable[[], None]]]] = {
        "view()": (e.view, None),
        "view(players=True)": (lambda: e.view(players=True), None),
        "view(), every field read once": (lambda: _walk(e.view()), None),
        "strike (roll typed in)": (lambda: e.strike(hero, orc, roll=1), e.undo),
        "strike (rolled)": (lambda: e.strike(hero, orc), e.undo),
        "next": (e.next, e.undo),
        "snapshot()": (e.snapshot, None),
        "restore(snapshot)": (lambda: Encounter.restore(before), None),
    }
    print(
        f"skirmish {skirmish.__version__} from {skirmish.__file__}\n"
        f"machine: {platform.machine()}, Python {platform.python_version()}, "
        f"{COMBATANTS} combatants, {a.samples} samples a call"
    )
    print(f"{'call':32} {'median us':>10} {'p10':>8} {'p90':>8}")
    medians = {}
    for name, (call, undo) in calls.items():
        us = sample(call, undo, a.samples)
        q = statistics.quantiles(us, n=10)
        medians[name] = statistics.median(us)
        print(f"{name:32} {medians[name]:10.1f} {q[0]:8.1f} {q[-1]:8.1f}")
    assert e.snapshot() == before, "every sample started from the same encounter"
    if a.json:
        with open(a.json, "w", encoding="utf-8") as f:
            json.dump(medians, f, indent=1)


def _walk(view: Any) -> int:
    """Reads every field of a view once, as a screen drawing it would."""
    n = 0
    for s in view.sheet:
        n += s.tick + s.round + s.display + s.pass_ + len(s.effects)
        for line in s.lines:
            n += len(line.name) + len(line.label) + len(line.members) + line.nth + len(line.action) + line.lands
    for c in view.combatants:
        n += c.id + len(c.name) + len(c.side or "") + len(c.group or "") + len(c.status) + c.hidden + c.fighter
        stats, boxes = c.stats, c.wound_boxes
        n += (c.hit_points or 0) + (c.penalty or 0) + len(c.wound or "") + len(stats or ()) + len(boxes or ())
    return n


if __name__ == "__main__":
    main()
