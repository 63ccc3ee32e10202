"""Table of a benches/run-peers run: reads the JSON lines the engine and the
peers printed (one per implementation and size) and prints per-battle and
per-action costs, the engine-vs-peer ratios, and a sanity check that the
engine and the heapq peer play the same game (A's win rate, two-proportion z).
A ``floor`` line (``benches/examples/parity_floor.rs``: the least work one
action needs on the engine's random stream) adds the ceiling of any engine's
ratio: the peers' ns/action divided by the floor's.

    python3 benches/peers/report.py RESULTS.jsonl [--markdown] [--context TEXT]

Standard library only.
"""

from __future__ import annotations

import argparse
import json
import math
import sys

ENGINE = "skirmish"
FLOOR = "floor"
ORDER = {ENGINE: 0, "python-heapq": 1, "python-simpy": 2}
KEYS = ("impl", "size", "battles", "seed", "actions", "seconds",
        "wins_a", "wins_b", "draws", "timeouts", "mean_ticks")  # fmt: skip
FLOOR_KEYS = ("impl", "size", "actions", "seconds")
Z_WARN = 4.0


def load(path: str) -> list[dict]:
    rows = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line:
                continue
            row = json.loads(line)
            keys = FLOOR_KEYS if row.get("impl") == FLOOR else KEYS
            missing = [k for k in keys if k not in row]
            if missing:
                raise SystemExit(f"{path}:{n}: result line lacks {', '.join(missing)}: {line}")
            rows.append(row)
    return rows


def two_proportion_z(x1: int, n1: int, x2: int, n2: int) -> float:
    p = (x1 + x2) / (n1 + n2)
    se = math.sqrt(p * (1 - p) * (1 / n1 + 1 / n2))
    return 0.0 if se == 0 else (x1 / n1 - x2 / n2) / se


def fmt_num(x: float, digits: int = 0) -> str:
    return f"{x:,.{digits}f}"


def build(rows: list[dict]) -> tuple[list[str], list[list[str]], list[str]]:
    header = ["impl", "size", "battles", "actions", "seconds", "µs/battle", "ns/action", "peer ÷ engine"]
    table, notes = [], []
    rows = sorted(rows, key=lambda r: (r["size"], ORDER.get(r["impl"], 9), r["impl"]))
    by = {(r["impl"], r["size"]): r for r in rows}
    def ns(r):
        return r["seconds"] * 1e9 / r["actions"] if r["actions"] and r["seconds"] > 0 else float("nan")

    for r in rows:
        ns_action = ns(r)
        eng = by.get((ENGINE, r["size"]))
        if r["impl"] == FLOOR:
            table.append([r["impl"], str(r["size"]), "-", fmt_num(r["actions"]), f"{r['seconds']:.3f}", "-",
                          fmt_num(ns_action, 1), "(lower bound)"])
            continue
        if r["impl"] == ENGINE:
            ratio = "1 (engine)"
        elif eng and eng["actions"] and eng["seconds"] > 0:
            eng_ns = eng["seconds"] * 1e9 / eng["actions"]
            ratio = f"{ns_action / eng_ns:,.0f}x"
        else:
            ratio = "n/a (no engine)"
        table.append([
            r["impl"],
            str(r["size"]),
            fmt_num(r["battles"]),
            fmt_num(r["actions"]),
            f"{r['seconds']:.3f}",
            fmt_num(r["seconds"] * 1e6 / r["battles"], 1),
            fmt_num(ns_action, 1),
            ratio,
        ])
    for size in sorted({r["size"] for r in rows}):
        for r in (by.get((i, size)) for i in ORDER):
            if r:
                notes.append(
                    f"size {size} {r['impl']}: A wins {r['wins_a'] / r['battles']:.4f}, "
                    f"B {r['wins_b'] / r['battles']:.4f}, draws {r['draws']}, timeouts {r['timeouts']}, "
                    f"{r['actions'] / r['battles']:.1f} actions and {r['mean_ticks']:.2f} ticks per battle"
                )
        eng, peer = by.get((ENGINE, size)), by.get(("python-heapq", size))
        if eng and peer:
            z = two_proportion_z(eng["wins_a"], eng["battles"], peer["wins_a"], peer["battles"])
            verdict = "ok" if abs(z) <= Z_WARN else f"WARNING: |z| > {Z_WARN:g}, the engine and the peer may not play the same rules"
            notes.append(f"size {size} sanity: A's win rate engine vs python-heapq, two-proportion z = {z:+.2f} ({verdict})")
        elif peer:
            notes.append(f"size {size} sanity: no engine result, win-rate check skipped")
        floor = by.get((FLOOR, size))
        if floor and ns(floor) == ns(floor):
            parts = [f"{i} {ns(r) / ns(floor):,.0f}x" for i in ORDER if i != ENGINE and (r := by.get((i, size)))]
            if eng:
                parts.append(f"the engine is {ns(eng) / ns(floor):.1f}x the floor's cost")
            if floor.get("draw_seconds"):
                parts.append(f"the draws alone cost {floor['draw_seconds'] * 1e9 / floor['actions']:.2f} ns/action")
            notes.append(
                f"size {size} ceiling: the floor (one action's draw, strike, damage and next tick, nothing else) "
                f"costs {ns(floor):.2f} ns/action; no engine taking one action at a time on this random stream "
                f"can beat peer ÷ floor: "
                + ", ".join(parts)
            )
    return header, table, notes


def render_text(header, table) -> str:
    widths = [max(len(h), *(len(row[i]) for row in table)) for i, h in enumerate(header)]
    left = {0}
    def line(cells):
        return "  ".join(c.ljust(w) if i in left else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths)))
    return "\n".join([line(header), line(["-" * w for w in widths])] + [line(r) for r in table])


def render_markdown(header, table) -> str:
    align = ["---"] + ["---:"] * (len(header) - 1)
    out = ["| " + " | ".join(header) + " |", "| " + " | ".join(align) + " |"]
    out += ["| " + " | ".join(row) + " |" for row in table]
    return "\n".join(out)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("results")
    p.add_argument("--markdown", action="store_true")
    p.add_argument("--context", action="append", default=[], help="a line printed above the table")
    args = p.parse_args(argv)
    rows = load(args.results)
    if not rows:
        print("no results", file=sys.stderr)
        return 1
    header, table, notes = build(rows)
    if args.markdown:
        for c in args.context:
            print(c + "  ")
        print()
        print(render_markdown(header, table))
        print()
        for n in notes:
            print(f"- {n}")
    else:
        for c in args.context:
            print(c)
        print()
        print(render_text(header, table))
        print()
        for n in notes:
            print(n)
    return 0


if __name__ == "__main__":
    sys.exit(main())
