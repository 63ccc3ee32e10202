"""Shared definitions of the peer parity battle for the Python peers.

Both peers (`parity_heapq.py`, `parity_simpy.py`) import the rule constants,
the dice tables and the command line / JSON output from here, so that the only
difference between them is the event machinery.

The parity battle
-----------------
Continuous timing; Full Contact striking without optional rules (hit iff
SR + 4dF > DR); hit points, damage 1 for margin 1-2 and 2 for margin 3+
(margin = SR + roll - DR); every action targets a uniformly random enemy alive
at the start of the tick; actions on the same tick are simultaneous (damage and
deaths apply at the end of the tick; a fighter killed at tick t still resolves
its own action at t, its later actions are removed); first action at
max(1, 4dF + 5 + TT - bonus), the next at now + max(1, 2dF + TT - bonus).
A battle ends when a side is wiped out (both on the same tick: draw) or when
the next tick would pass the cap of 100,000 ticks (timeout, never a win).

Random stream (identical in both peers, so they agree battle by battle)
-----------------------------------------------------------------------
Battle i of a run with seed S uses ``random.Random((S << 32) + i)`` and draws,
always with ``rng.random()``:

1. initiative: one 4dF per fighter, fighters in order A0..A(n-1), B0..B(m-1);
2. for every tick, for every action of the tick in scheduling (FIFO) order:
   the target (index into the enemy side's living fighters, kept in fighter
   order), then the strike roll 4dF;
3. at the end of the tick, after damage and deaths: one 2dF per surviving
   actor of that tick, in the order they acted, for its next action.

Dice: ``NdF`` is drawn as ``TABLE[int(rng.random() * 3**N)]`` where TABLE is
the sorted list of the sums of all 3**N equally likely face combinations, so it
has exactly the NdF distribution (4dF: 1,4,10,16,19,16,10,4,1 over 81); it is
one uniform draw instead of N. ``int(random() * n)`` is how the standard
library's own ``random.choices`` picks an index; its bias is below 2**-46.
A uniformly random element of a list of length n is ``lst[int(random() * n)]``.

Outcome bookkeeping (the JSON fields)
-------------------------------------
``actions``: actions resolved (an action of a fighter killed earlier is not
resolved; one of a fighter killed on the same tick is). ``mean_ticks``: mean
over battles of the tick the battle ended on (the cap for a timeout).
``seconds``: wall time (``time.perf_counter``) around the loop over battles,
including each battle's RNG construction, excluding start-up and imports.
"""

from __future__ import annotations

import argparse
import itertools
import json
import time
from typing import Callable, NamedTuple, Sequence

CAP = 100_000


class Side(NamedTuple):
    count: int
    sr: int
    dr: int
    hp: int
    tt: int
    bonus: int


def side_a(count: int = 10) -> Side:
    return Side(count, sr=7, dr=6, hp=4, tt=4, bonus=1)


def side_b(count: int = 10) -> Side:
    return Side(count, sr=6, dr=6, hp=5, tt=2, bonus=0)


def _ndf_table(n: int) -> tuple[int, ...]:
    return tuple(sorted(sum(faces) for faces in itertools.product((-1, 0, 1), repeat=n)))


DF4 = _ndf_table(4)  # 81 entries, -4..+4
DF2 = _ndf_table(2)  # 9 entries, -2..+2

# Outcome codes returned by run_battle.
WIN_A, WIN_B, DRAW, TIMEOUT = "A", "B", "draw", "timeout"


def roll_4df(random: Callable[[], float]) -> int:
    return DF4[int(random() * 81)]


def roll_2df(random: Callable[[], float]) -> int:
    return DF2[int(random() * 9)]


def first_tick(roll4: int, tt: int, bonus: int) -> int:
    """Tick of the first action: max(1, 4dF + 5 + TT - bonus)."""
    return max(1, roll4 + 5 + tt - bonus)


def ready_time(roll2: int, tt: int, bonus: int) -> int:
    """Ticks until the next action: max(1, 2dF + TT - bonus)."""
    return max(1, roll2 + tt - bonus)


def damage(sr: int, roll4: int, dr: int) -> int:
    """Hit points lost: 0 on a miss (SR + roll <= DR), 1 for margin 1-2, 2 for 3+."""
    margin = sr + roll4 - dr
    if margin <= 0:
        return 0
    return 1 if margin <= 2 else 2


def battle_seed(seed: int, index: int) -> int:
    """Seed of battle `index` of a run: distinct for every (seed, index)."""
    return (seed << 32) + index


# --------------------------------------------------------------------------
# Command line and the JSON line every implementation prints.


def parse_args(argv: Sequence[str] | None, default_battles: int) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--size", type=int, default=10, help="fighters per side (default 10)")
    p.add_argument("--battles", type=int, default=default_battles, help="battles to run")
    p.add_argument("--seed", type=int, default=1, help="master seed (default 1)")
    args = p.parse_args(argv)
    if args.size < 1:
        p.error("--size must be at least 1")
    if args.battles < 1:
        p.error("--battles must be at least 1")
    if args.seed < 0:
        p.error("--seed must be non-negative")
    return args


BattleFn = Callable[..., tuple]


def run_many(
    impl: str, run_battle: BattleFn, size: int, battles: int, seed: int, rng_factory
) -> dict:
    """Run `battles` parity battles and return the summary dict (the JSON line)."""
    a, b = side_a(size), side_b(size)
    wins_a = wins_b = draws = timeouts = 0
    actions = 0
    ticks = 0
    start = time.perf_counter()
    for i in range(battles):
        outcome, t, n, _hp = run_battle(rng_factory(battle_seed(seed, i)).random, a, b, CAP)
        actions += n
        ticks += t
        if outcome == WIN_A:
            wins_a += 1
        elif outcome == WIN_B:
            wins_b += 1
        elif outcome == DRAW:
            draws += 1
        else:
            timeouts += 1
    seconds = time.perf_counter() - start
    return {
        "impl": impl,
        "size": size,
        "battles": battles,
        "seed": seed,
        "actions": actions,
        "seconds": seconds,
        "wins_a": wins_a,
        "wins_b": wins_b,
        "draws": draws,
        "timeouts": timeouts,
        "mean_ticks": ticks / battles,
    }


def main(impl: str, run_battle: BattleFn, argv: Sequence[str] | None, default_battles: int) -> None:
    import random

    args = parse_args(argv, default_battles)
    result = run_many(impl, run_battle, args.size, args.battles, args.seed, random.Random)
    print(json.dumps(result))
