"""Tests of the Python peers of the parity battle.

    .venv/bin/python -m pytest benches/peers -q

Hand-checkable rule tests, scripted battles whose every die is given (the
expected outcome is worked out in the comments), and agreement battle by
battle between the heapq peer, the SimPy peer and a naive tick-by-tick
reference written straight from the rules.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

import parity_heapq
from parity_common import (
    DF2,
    DF4,
    DRAW,
    TIMEOUT,
    WIN_A,
    WIN_B,
    Side,
    damage,
    first_tick,
    ready_time,
    roll_2df,
    roll_4df,
    side_a,
    side_b,
)

HERE = Path(__file__).resolve().parent


@pytest.fixture(scope="module")
def simpy_peer():
    pytest.importorskip("simpy", reason="SimPy missing: pip install -r benches/peers/requirements.txt")
    import parity_simpy

    return parity_simpy


def both(simpy_peer):
    return [parity_heapq.run_battle, simpy_peer.run_battle]


# ---------------------------------------------------------------- dice & rules


def test_dice_tables_are_exact():
    assert Counter(DF4) == {-4: 1, -3: 4, -2: 10, -1: 16, 0: 19, 1: 16, 2: 10, 3: 4, 4: 1}
    assert Counter(DF2) == {-2: 1, -1: 2, 0: 3, 1: 2, 2: 1}
    assert list(DF4) == sorted(DF4) and list(DF2) == sorted(DF2)


def test_4df_draws_range_and_distribution():
    rnd = random.Random(2024).random
    n = 81 * 4000
    counts = Counter(roll_4df(rnd) for _ in range(n))
    assert set(counts) == set(range(-4, 5))
    weights = {-4: 1, -3: 4, -2: 10, -1: 16, 0: 19, 1: 16, 2: 10, 3: 4, 4: 1}
    chi2 = sum((counts[v] - n * w / 81) ** 2 / (n * w / 81) for v, w in weights.items())
    assert chi2 < 26.12, chi2  # 8 degrees of freedom, p = 0.001
    assert abs(sum(v * c for v, c in counts.items()) / n) < 0.01  # mean 0, sd 1.63


def test_2df_draws_range_and_distribution():
    rnd = random.Random(7).random
    n = 9 * 20000
    counts = Counter(roll_2df(rnd) for _ in range(n))
    assert set(counts) == set(range(-2, 3))
    weights = {-2: 1, -1: 2, 0: 3, 1: 2, 2: 1}
    chi2 = sum((counts[v] - n * w / 9) ** 2 / (n * w / 9) for v, w in weights.items())
    assert chi2 < 18.47, chi2  # 4 degrees of freedom, p = 0.001


def test_damage_table():
    # margin = SR + roll - DR; tie goes to the defender.
    assert [damage(7, r, 6) for r in range(-4, 5)] == [0, 0, 0, 0, 1, 1, 2, 2, 2]
    assert [damage(6, r, 6) for r in range(-4, 5)] == [0, 0, 0, 0, 0, 1, 1, 2, 2]
    assert damage(0, 4, 20) == 0


def test_initiative_and_ready_time_floors():
    # Side A: 4dF + 5 + 4 - 1 -> 4..12; side B: 4dF + 5 + 2 - 0 -> 3..11.
    assert [first_tick(r, 4, 1) for r in (-4, 0, 4)] == [4, 8, 12]
    assert [first_tick(r, 2, 0) for r in (-4, 0, 4)] == [3, 7, 11]
    assert first_tick(-4, 0, 9) == 1  # -8 counts as 1
    assert first_tick(-4, 0, 5) == 1  # exactly 0 counts as 1
    # Side A ready: 2dF + 3 -> 1..5; side B: 2dF + 2 -> 0..4, floored to 1..4.
    assert [ready_time(r, 4, 1) for r in (-2, 0, 2)] == [1, 3, 5]
    assert [ready_time(r, 2, 0) for r in (-2, -1, 0, 2)] == [1, 1, 2, 4]


# ------------------------------------------------------------ scripted battles


class Script:
    """A stub RNG: hands out the given floats in order and must be used up."""

    def __init__(self, *values: float):
        self.values = list(values)
        self.used = 0

    def random(self) -> float:
        v = self.values[self.used]
        self.used += 1
        return v

    def done(self) -> bool:
        return self.used == len(self.values)


def d4(v: int) -> float:
    """The uniform draw that makes 4dF come up v."""
    return (DF4.index(v) + 0.5) / 81


def d2(v: int) -> float:
    return (DF2.index(v) + 0.5) / 9


def pick(i: int, n: int) -> float:
    """The uniform draw that picks index i of a list of n living enemies."""
    return (i + 0.5) / n


def test_stub_helpers():
    assert all(DF4[int(d4(v) * 81)] == v for v in range(-4, 5))
    assert all(DF2[int(d2(v) * 9)] == v for v in range(-2, 3))
    assert all(int(pick(i, 7) * 7) == i for i in range(7))


A1 = side_a(1)  # SR 7, DR 6, HP 4, TT 4, bonus 1
B1 = side_b(1)  # SR 6, DR 6, HP 5, TT 2, bonus 0

SCRIPTED = {
    # 1 v 1 with the real stats. Initiative A: -4+5+4-1 = 4; B: -3+5+2 = 4.
    # Tick 4: A (scheduled first) hits with +4: margin 7+4-6 = 5 -> 2, B 5->3;
    #         B hits with +4: margin 6+4-6 = 4 -> 2, A 4->2. Nobody dies.
    # Rescheduled in the order they acted: A 2dF +2 -> 4+5 = 9; B 2dF -2 ->
    # max(1, 0) = 1 -> tick 5 (ready-time floor).
    # Tick 5: B hits with +3: margin 3 -> 2, A 2->0: dead at the end of tick 5.
    # B wins at tick 5 after 3 actions; A's action at tick 9 never happens.
    "one_v_one": (
        A1,
        B1,
        [d4(-4), d4(-3), pick(0, 1), d4(4), pick(0, 1), d4(4), d2(2), d2(-2), pick(0, 1), d4(3)],
        (WIN_B, 5, 3, [0, 3]),
    ),
    # Both at tick 4 with 1 HP each: A kills B, and B, killed on this very
    # tick, still resolves its own action and kills A: a draw at tick 4.
    "mutual_kill": (
        A1._replace(hp=1),
        B1._replace(hp=1),
        [d4(-4), d4(-3), pick(0, 1), d4(0), pick(0, 1), d4(1)],
        (DRAW, 4, 2, [0, 0]),
    ),
    # Initiative floor: TT 0, bonus 9 -> -4+5+0-9 = -8 -> tick 1. B would act at 11.
    # Tick 1: A hits with +4 (margin 5, 2 damage), B (HP 1) dies. A wins at tick 1.
    "initiative_floor": (
        A1._replace(tt=0, bonus=9),
        B1._replace(hp=1),
        [d4(-4), d4(4), pick(0, 1), d4(4)],
        (WIN_A, 1, 1, [4, -1]),
    ),
    # 1 A v 2 B (B: HP 2). Initiative A -4 -> 4; B0 0 -> 7; B1 -2 -> 5.
    # t4: A -> B0 (pick 0 of 2), +1: margin 2 -> 1, B0 2->1. A: 2dF -2 -> 1 -> t5.
    # t5: FIFO: B1's first action was scheduled before A's second, so B1 goes
    #     first: -> A, -4: miss. A -> B0, +4: margin 5 -> 2, B0 1->-1, dies.
    #     Rescheduled in acting order: B1 2dF 0 -> 5+2 = 7; A 2dF +2 -> 5+5 = 10.
    # t7: B0's first action (t7) is removed; B1 -> A, 0: margin 0, miss (tie).
    #     B1 2dF -2 -> max(1, 0) -> t8.
    # t8: B1 -> A, +2: margin 2 -> 1, A 4->3. B1 2dF +2 -> 8+4 = 12.
    # t10: A -> B1 (only one left), +3: margin 4 -> 2, B1 2->0: A wins at t10
    #      after 1+2+1+1+1 = 6 actions.
    "removed_action_and_fifo": (
        A1,
        Side(2, sr=6, dr=6, hp=2, tt=2, bonus=0),
        [
            d4(-4), d4(0), d4(-2),
            pick(0, 2), d4(1), d2(-2),
            pick(0, 1), d4(-4), pick(0, 2), d4(4), d2(0), d2(2),
            pick(0, 1), d4(0), d2(-2),
            pick(0, 1), d4(2), d2(2),
            pick(0, 1), d4(3),
        ],
        (WIN_A, 10, 6, [3, -1, 0]),
    ),
    # Targets are those alive at the START of the tick. 2 A v 2 B (B: HP 1).
    # Initiative A0, A1: -4 -> 4; B0, B1: +4 -> 11.
    # t4: A0 -> B0 (pick 0 of 2), 0: margin 1 -> B0 1->0. A1 picks among the
    #     same two (B0 is not dead until the end of the tick): pick 0 -> B0
    #     again, 0: B0 0->-1. (Had B0 been removed at once, the same draw would
    #     pick B1 and A would win at t4.) A0, A1: 2dF 0 -> 4+3 = 7.
    # t7: A0 -> B1, -1: margin 0, miss. A1 -> B1, -4: miss. Both 2dF -2 -> t8.
    # t8: A0 -> B1, +2: margin 3 -> 2, B1 dies; A1 -> B1 (alive at the start
    #     of t8), -4: miss. A wins at t8 after 6 actions.
    "targets_alive_at_tick_start": (
        side_a(2),
        side_b(2)._replace(hp=1),
        [
            d4(-4), d4(-4), d4(4), d4(4),
            pick(0, 2), d4(0), pick(0, 2), d4(0), d2(0), d2(0),
            pick(0, 1), d4(-1), pick(0, 1), d4(-4), d2(-2), d2(-2),
            pick(0, 1), d4(2), pick(0, 1), d4(-4),
        ],
        (WIN_A, 8, 6, [4, 4, -1, -1]),
    ),
}


@pytest.mark.parametrize("name", sorted(SCRIPTED))
@pytest.mark.parametrize("impl", ["heapq", "simpy"])
def test_scripted_battle(name, impl, simpy_peer):
    a, b, draws, expected = SCRIPTED[name]
    run = parity_heapq.run_battle if impl == "heapq" else simpy_peer.run_battle
    rng = Script(*draws)
    outcome, ticks, actions, hp = run(rng.random, a, b, 100_000)
    assert (outcome, ticks, actions, list(hp)) == expected
    assert rng.done(), f"{len(draws) - rng.used} scripted draws left over"


def test_timeout_is_not_a_win(simpy_peer):
    # Nobody can hit (SR 0 + 4 <= DR 20): the battle runs to the cap.
    a = side_a(3)._replace(sr=0, dr=20)
    b = side_b(3)._replace(sr=0, dr=20)
    results = [run(random.Random(5).random, a, b, 60) for run in both(simpy_peer)]
    assert results[0] == results[1]
    outcome, ticks, actions, hp = results[0]
    assert (outcome, ticks) == (TIMEOUT, 60)
    assert hp == [4, 4, 4, 5, 5, 5]
    # Every fighter acts at least every 5 ticks from tick 12 at the latest.
    assert actions >= 6 * (60 - 12) // 5


# ------------------------------------------- agreement between implementations


def reference_battle(random, a: Side, b: Side, cap: int):
    """Naive tick-by-tick reference, written straight from the rules: fighter
    dicts, a scan of every fighter on every tick, no event queue."""
    fighters = []
    for side, s in ((0, a), (1, b)):
        foe = b if side == 0 else a
        for _ in range(s.count):
            fighters.append({"side": side, "hp": s.hp, "sr": s.sr, "foe_dr": foe.dr, "tt": s.tt, "bonus": s.bonus})
    seq = 0
    for f in fighters:  # initiative in fighter order
        f["next"] = first_tick(roll_4df(random), f["tt"], f["bonus"])
        f["seq"] = seq
        seq += 1
    actions = 0
    for tick in range(1, cap + 1):
        living = [[i for i, f in enumerate(fighters) if f["hp"] > 0 and f["side"] == s] for s in (0, 1)]
        acting = sorted(
            (i for i, f in enumerate(fighters) if f["hp"] > 0 and f["next"] == tick),
            key=lambda i: fighters[i]["seq"],
        )
        hits = []
        for i in acting:
            f = fighters[i]
            foes = living[1 - f["side"]]
            target = foes[int(random() * len(foes))]
            hits.append((target, damage(f["sr"], roll_4df(random), f["foe_dr"])))
        actions += len(acting)
        for target, dmg in hits:  # damage applies together at the end of the tick
            fighters[target]["hp"] -= dmg
        a_left = any(f["hp"] > 0 and f["side"] == 0 for f in fighters)
        b_left = any(f["hp"] > 0 and f["side"] == 1 for f in fighters)
        if not a_left or not b_left:
            outcome = DRAW if not a_left and not b_left else (WIN_A if a_left else WIN_B)
            return outcome, tick, actions, [f["hp"] for f in fighters]
        for i in acting:
            f = fighters[i]
            if f["hp"] > 0:
                f["next"] = tick + ready_time(roll_2df(random), f["tt"], f["bonus"])
                f["seq"] = seq
                seq += 1
    return TIMEOUT, cap, actions, [f["hp"] for f in fighters]


@pytest.mark.parametrize("size", [1, 2, 3, 10, 40])
def test_heapq_matches_naive_reference(size):
    a, b = side_a(size), side_b(size)
    for i in range(60 if size <= 10 else 10):
        seed = (size << 32) + i
        got = parity_heapq.run_battle(random.Random(seed).random, a, b, 100_000)
        want = reference_battle(random.Random(seed).random, a, b, 100_000)
        assert got == want, (size, i)


@pytest.mark.parametrize("seed", [0, 1, 42])
@pytest.mark.parametrize("size", [1, 2, 5, 10, 50])
def test_heapq_and_simpy_agree_battle_by_battle(seed, size, simpy_peer):
    a, b = side_a(size), side_b(size)
    for i in range(40 if size <= 10 else 8):
        s = (seed << 32) + i
        h = parity_heapq.run_battle(random.Random(s).random, a, b, 100_000)
        m = simpy_peer.run_battle(random.Random(s).random, a, b, 100_000)
        assert h == m, (seed, size, i)


def run_cli(script: str, *args: str) -> dict:
    out = subprocess.run(
        [sys.executable, str(HERE / script), *args], check=True, capture_output=True, text=True
    ).stdout
    lines = out.strip().splitlines()
    assert len(lines) == 1, out
    return json.loads(lines[0])


def test_cli_json_lines_agree(simpy_peer):
    keys = ["impl", "size", "battles", "seed", "actions", "seconds",
            "wins_a", "wins_b", "draws", "timeouts", "mean_ticks"]  # fmt: skip
    args = ("--size", "4", "--battles", "30", "--seed", "9")
    h = run_cli("parity_heapq.py", *args)
    s = run_cli("parity_simpy.py", *args)
    assert list(h) == keys and list(s) == keys
    assert (h["impl"], s["impl"]) == ("python-heapq", "python-simpy")
    assert (h["size"], h["battles"], h["seed"]) == (4, 30, 9)
    assert h["wins_a"] + h["wins_b"] + h["draws"] + h["timeouts"] == 30
    strip = lambda d: {k: v for k, v in d.items() if k not in ("impl", "seconds")}  # noqa: E731
    assert strip(h) == strip(s)
    assert h["seconds"] > 0 and h["actions"] > 0


def test_cli_rejects_bad_arguments():
    r = subprocess.run(
        [sys.executable, str(HERE / "parity_heapq.py"), "--size", "0"], capture_output=True, text=True
    )
    assert r.returncode != 0 and "--size" in r.stderr


# ------------------------------------------------------------- the run's table


def test_report_ratios_and_win_rate_check():
    import report

    def row(impl, battles, actions, seconds, wins_a):
        return {"impl": impl, "size": 10, "battles": battles, "seed": 1, "actions": actions,
                "seconds": seconds, "wins_a": wins_a, "wins_b": battles - wins_a, "draws": 0,
                "timeouts": 0, "mean_ticks": 29.5}  # fmt: skip

    # engine 10 ns/action; heapq 3000 ns/action; simpy 15000 ns/action.
    rows = [row("python-simpy", 100, 14_000, 14_000 * 15e-6, 41),
            row("skirmish", 1000, 140_000, 140_000 * 10e-9, 410),
            row("python-heapq", 1000, 140_000, 140_000 * 3e-6, 400)]  # fmt: skip
    header, table, notes = report.build(rows)
    assert [r[0] for r in table] == ["skirmish", "python-heapq", "python-simpy"]
    assert [r[header.index("ns/action")] for r in table] == ["10.0", "3,000.0", "15,000.0"]
    assert [r[-1] for r in table] == ["1 (engine)", "300x", "1,500x"]
    assert table[1][header.index("µs/battle")] == "420.0"
    assert any("z = +0.46 (ok)" in n for n in notes), notes

    # 0.41 vs 0.50 over 1000 battles each: p = 0.455, se = sqrt(p(1-p) 2/1000) = 0.02227, z = -0.09 / se = -4.04 -> warning.
    z = report.two_proportion_z(410, 1000, 500, 1000)
    assert round(z, 2) == -4.04
    rows[2] = row("python-heapq", 1000, 140_000, 0.42, 500)
    assert any("WARNING" in n for n in report.build(rows)[2])

    # Without the engine the ratio says so.
    _, table, notes = report.build(rows[2:])
    assert table[0][-1] == "n/a (no engine)" and any("skipped" in n for n in notes)


def test_report_floor_gives_the_ceiling_of_any_engine(tmp_path):
    import report

    def row(impl, actions, seconds):
        return {"impl": impl, "size": 10, "battles": 1000, "seed": 1, "actions": actions, "seconds": seconds,
                "wins_a": 410, "wins_b": 590, "draws": 0, "timeouts": 0, "mean_ticks": 29.5}  # fmt: skip

    # floor 4 ns/action, engine 12 ns, heapq 3000 ns, simpy 15000 ns.
    floor = {"impl": "floor", "size": 10, "seed": 1, "actions": 1_000_000, "hits": 1, "damage": 2, "seconds": 0.004,
             "draw_seconds": 0.0025}
    rows = [floor, row("skirmish", 140_000, 140_000 * 12e-9), row("python-heapq", 140_000, 140_000 * 3e-6),
            row("python-simpy", 14_000, 14_000 * 15e-6)]  # fmt: skip
    header, table, notes = report.build(rows)
    assert [r[0] for r in table] == ["skirmish", "python-heapq", "python-simpy", "floor"]
    assert table[3][header.index("ns/action")] == "4.0" and table[3][-1] == "(lower bound)"
    assert table[1][-1] == "250x"  # the ratios stay against the engine
    ceiling = [n for n in notes if "ceiling" in n]
    assert len(ceiling) == 1, notes
    assert "4.00 ns/action" in ceiling[0]
    assert "python-heapq 750x, python-simpy 3,750x" in ceiling[0]
    assert "the engine is 3.0x the floor's cost" in ceiling[0]
    assert "the draws alone cost 2.50 ns/action" in ceiling[0]

    # A floor line needs only its own keys; any other line still needs all of them.
    path = tmp_path / "results.jsonl"
    path.write_text(json.dumps(floor) + "\n")
    assert report.load(str(path)) == [floor]
    path.write_text(json.dumps({k: v for k, v in row("skirmish", 1, 1.0).items() if k != "wins_a"}) + "\n")
    with pytest.raises(SystemExit, match="wins_a"):
        report.load(str(path))
