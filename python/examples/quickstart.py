"""The README's quick start: odds, one battle, a sweep, a frame."""

from __future__ import annotations

import skirmish


def main() -> None:
    # Exact odds: Cardiff (SR 9) against a goblin (DR 6).
    odds = skirmish.odds(9, 6)
    print(f"Cardiff hits on {odds.lowest_hitting_roll} or better: {odds.hit} = {float(odds.hit):.1%}")

    # One battle of the built-in goblin ambush, blow by blow.
    report = skirmish.battle(seed=7)
    print(report)
    for line in report.trace[:3]:
        print(f"  tick {line['tick']}: {line['text']}")

    # Which timing system favours the party? 500 battles per cell.
    result = skirmish.sweep(
        "goblin-ambush",
        {"timing": ["continuous", "tick-system", "simple-rounds"]},
        battles=500,
        seed=1,
        progress=False,
    )
    print(result.summary())
    rates: list[float] = [float(x) for x in result.columns["win_rate_party"]]
    best = max(zip(rates, result.axes["timing"]))
    print(f"the party does best under {best[1]} ({best[0]:.1%})")


if __name__ == "__main__":
    main()
