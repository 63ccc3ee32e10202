"""`skirmish.balance` against the notebook's grid: the even orc count of the
goblin ambush under all six timing systems, in wall time, and whether the two
agree where the grid's intervals decide (docs/performance.md, "balance").

    python python/benchmarks/bench_balance.py [--rounds 3] [--max-battles 4000]

The grid is the notebook's former section 1: one sweep of 6 timing systems x
1..10 orcs x 300 battles a cell, read as "the first count at which the
party's win rate is 0.5 or less". Balance runs one search per timing system
with the notebook's arguments. Each round runs both, in turn; the report
gives the median of the rounds and compares the answers: where the grid's
cells on both sides of its crossing are decided at 95% (their intervals
exclude 0.5), balance must find the same first count.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time

import skirmish

TIMINGS = ["simultaneous", "simple-rounds", "graduated-rounds", "continuous", "tick-system", "action-blocks"]
ORCS = "sides.goblinoids.groups.0.count"
SEED = 2026


def grid() -> tuple[float, dict[str, tuple[int, bool]]]:
    """The grid's first count at or below even per system, and whether the
    cells around it are decided."""
    start = time.perf_counter()
    table = skirmish.sweep(skirmish.Scenario(), {"timing": TIMINGS, ORCS: list(range(1, 11))},
                           battles=300, seed=SEED, progress=False)
    took = time.perf_counter() - start
    rate, low, high = (table.columns[c] for c in ("win_rate_party", "win_rate_party_low", "win_rate_party_high"))
    found = {}
    for k, timing in enumerate(TIMINGS):
        rows = range(10 * k, 10 * k + 10)
        first = next((i for i in rows if rate[i] <= 0.5), None)
        if first is None:
            found[timing] = (11, False)
            continue
        decided = high[first] < 0.5 and (first == rows[0] or low[first - 1] > 0.5)
        found[timing] = (first - rows[0] + 1, bool(decided))
    return took, found


def searches(max_battles: int) -> tuple[float, dict[str, int], int]:
    start = time.perf_counter()
    found = {}
    battles = 0
    for timing in TIMINGS:
        r = skirmish.balance(skirmish.Scenario().with_field("timing", timing), ORCS, (1, 10), seed=SEED,
                             max_battles=max_battles)
        found[timing] = int(r.below if r.answer == "between" else r.at)
        battles += r.battles
    return time.perf_counter() - start, found, battles


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--max-battles", type=int, default=4000)
    args = parser.parse_args()
    grid_times, balance_times = [], []
    grid_found: dict[str, tuple[int, bool]] = {}
    balance_found: dict[str, int] = {}
    battles = 0
    for _ in range(args.rounds):
        took, grid_found = grid()
        grid_times.append(took)
        took, balance_found, battles = searches(args.max_battles)
        balance_times.append(took)
    g, b = statistics.median(grid_times), statistics.median(balance_times)
    print(f"{platform.processor() or platform.machine()}, skirmish {skirmish.__version__}, {args.rounds} rounds")
    print(f"grid (6 x 10 cells x 300 battles = 18,000): median {g:.3f} s")
    print(f"balance (6 searches, {battles} battles):      median {b:.3f} s  ({g / b:.2f}x faster)")
    print(f"{'timing':17} {'grid':>6} {'decided':>8} {'balance':>8}")
    agree = True
    for timing in TIMINGS:
        count, decided = grid_found[timing]
        mark = ""
        if decided and count != balance_found[timing]:
            agree, mark = False, "  <- differs"
        print(f"{timing:17} {count:>6} {str(decided):>8} {balance_found[timing]:>8}{mark}")
    print("same answers where the grid decides" if agree else "ANSWERS DIFFER where the grid decides")


if __name__ == "__main__":
    main()
