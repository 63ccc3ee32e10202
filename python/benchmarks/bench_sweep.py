"""Throughput of one sweep from Python against the same sweep from the CLI,
and of a Dask sweep on 2 local worker processes against the local sweep,
all in one run, as ratios (docs/performance.md, "Python package").

    python python/benchmarks/bench_sweep.py [--cli target/release/skirmish] [--rounds 5]

Each round runs every contender once, in turn, so a slow moment of the
machine hits them alike; the report gives the median of the rounds, and
checks that every contender wrote the same CSV.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import platform
import statistics
import subprocess
import sys
import tempfile
import time

import skirmish
import skirmish.dask

TIMINGS = ["simultaneous", "simple-rounds", "graduated-rounds", "continuous", "tick-system", "action-blocks"]


def cli_sweep(cli: str, battles: int, out: pathlib.Path) -> float:
    start = time.perf_counter()
    subprocess.run(
        [cli, "sweep", "--vary", "timing=" + ",".join(TIMINGS), "--battles", str(battles), "--seed", "1",
         "--quiet", "--out", str(out)],
        check=True, stdout=subprocess.DEVNULL,
    )
    return time.perf_counter() - start


def py_sweep(battles: int) -> tuple[float, str]:
    start = time.perf_counter()
    r = skirmish.sweep(axes={"timing": TIMINGS}, battles=battles, seed=1, progress=False)
    return time.perf_counter() - start, r.to_csv()


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--cli", default=str(pathlib.Path(__file__).resolve().parents[2] / "target/release/skirmish"))
    p.add_argument("--battles", type=int, default=50_000, help="battles per cell of the CLI comparison")
    p.add_argument("--dask-battles", type=int, default=4_000, help="battles per cell of the Dask comparison")
    p.add_argument("--rounds", type=int, default=5)
    a = p.parse_args()
    cores = os.cpu_count()
    print(f"machine: {platform.processor() or platform.machine()}, {cores} cores, Python {platform.python_version()}")

    total = len(TIMINGS) * a.battles
    cli_t, py_t = [], []
    with tempfile.TemporaryDirectory() as tmp:
        out = pathlib.Path(tmp) / "cli.csv"
        for _ in range(a.rounds):
            cli_t.append(cli_sweep(a.cli, a.battles, out))
            t, csv = py_sweep(a.battles)
            py_t.append(t)
            assert out.read_text() == csv, "the CLI and Python wrote different tables"
    c, q = statistics.median(cli_t), statistics.median(py_t)
    print(f"\nsweep of the goblin ambush, 6 timing systems x {a.battles:,} battles ({total:,} battles), "
          f"{a.rounds} rounds, median:")
    print(f"  CLI     {c:.3f} s  {total / c / 1e6:.2f} M battles/s  (process start and CSV included)")
    print(f"  Python  {q:.3f} s  {total / q / 1e6:.2f} M battles/s  (skirmish.sweep, progress off)")
    print(f"  Python / CLI throughput: {c / q:.3f}  (rounds: {', '.join(f'{x / y:.3f}' for x, y in zip(cli_t, py_t))})")

    from distributed import Client, LocalCluster

    axes = {"timing": TIMINGS, "sides.goblinoids.groups.0.count": [1, 2, 3, 4]}
    dtotal = len(TIMINGS) * 4 * a.dask_battles
    local_t, dask_t = [], []
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address="127.0.0.1:0", worker_dashboard_address="127.0.0.1:0") as cluster, \
            Client(cluster) as client:
        skirmish.dask.sweep(client, axes=axes, battles=10, seed=1, progress=False)  # warm the workers
        for _ in range(a.rounds):
            start = time.perf_counter()
            local = skirmish.sweep(axes=axes, battles=a.dask_battles, seed=1, threads=2, progress=False)
            local_t.append(time.perf_counter() - start)
            start = time.perf_counter()
            spread = skirmish.dask.sweep(client, axes=axes, battles=a.dask_battles, seed=1, progress=False)
            dask_t.append(time.perf_counter() - start)
            assert spread.to_csv() == local.to_csv(), "Dask and the local sweep wrote different tables"
    lo, da = statistics.median(local_t), statistics.median(dask_t)
    print(f"\n24 cells (6 timing systems x 1-4 orcs) x {a.dask_battles:,} battles ({dtotal:,} battles), "
          f"{a.rounds} rounds, median:")
    print(f"  local sweep, 2 threads           {lo:.3f} s  {dtotal / lo / 1e6:.2f} M battles/s")
    print(f"  Dask, 2 worker processes x 1     {da:.3f} s  {dtotal / da / 1e6:.2f} M battles/s  (1 cell per task)")
    print(f"  Dask / local throughput: {lo / da:.3f}  (rounds: {', '.join(f'{x / y:.3f}' for x, y in zip(local_t, dask_t))})")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
