#!/usr/bin/env python3
"""The peer parity battle with SimPy (pinned in requirements.txt).

    .venv/bin/python benches/peers/parity_simpy.py --size 10 --battles 200 --seed 1

prints one JSON line (rules, random stream and fields: parity_common.py).

Structure, the way SimPy models are usually written:

* one ``simpy.Environment`` per battle, simulated time = ticks;
* one process per fighter: it rolls initiative, waits its timeout, declares
  its action for the tick, waits for the end of the tick, and if still alive
  rolls its ready time and waits again;
* one referee process that resolves each tick. Simultaneity: the first
  fighter to act on a tick wakes the referee, which then waits for an
  ``EndOfTick`` event scheduled at the current time with a priority *lower*
  than every ordinary event (SimPy processes same-time events by priority,
  then FIFO), so every fighter acting on that tick has declared before the
  referee resolves. The referee resolves the declared actions in declaration
  (= scheduling, FIFO) order against the state at the start of the tick,
  applies damage and deaths together, interrupts the processes of fighters
  that died with an action still pending (their later actions are removed),
  and then releases the actors of the tick, which reschedule in the order
  they acted. A fighter killed on the tick it acts has already declared, so
  its action resolves.

Draws come from the same ``rng.random`` in the same order as the heapq peer,
so the two agree battle by battle (tested in test_peers.py).
"""

from __future__ import annotations

import sys

import simpy
from simpy.events import NORMAL

from parity_common import CAP, DF2, DF4, DRAW, TIMEOUT, WIN_A, WIN_B, Side, main

IMPL = "python-simpy"
LATE = NORMAL + 1  # processed after every NORMAL event of the same time


class EndOfTick(simpy.Event):
    """An event that fires at the current time after all ordinary events of
    that time (built like SimPy's own ``Timeout``, with a lower priority)."""

    def __init__(self, env: simpy.Environment):
        super().__init__(env)
        self._ok = True
        self._value = None
        env.schedule(self, LATE)


class Battle:
    def __init__(self, random, a: Side, b: Side, cap: int):
        self.random = random
        self.cap = cap
        self.env = env = simpy.Environment()
        na = a.count
        n = na + b.count
        self.hp = [a.hp] * na + [b.hp] * b.count
        self.off = [a.sr - b.dr] * na + [b.sr - a.dr] * b.count
        self.base = [a.tt - a.bonus] * na + [b.tt - b.bonus] * b.count
        self.alive = (list(range(na)), list(range(na, n)))  # living, in fighter order
        self.enemies = [self.alive[1]] * na + [self.alive[0]] * b.count
        self.declared: list[int] = []  # actors of the current tick, FIFO
        self.tick_started = env.event()
        self.tick_done = env.event()
        self.over = env.event()
        self.outcome = None
        self.ticks = 0
        self.actions = 0
        # Processes start in creation order, so initiative is rolled A0..B(m-1).
        self.procs = [env.process(self.fighter(f)) for f in range(n)]
        env.process(self.referee())

    def fighter(self, f: int):
        env = self.env
        random = self.random
        hp = self.hp
        base = self.base[f]
        try:
            t = DF4[int(random() * 81)] + 5 + base
            yield env.timeout(t if t > 1 else 1)
            while True:
                if not self.declared:
                    self.tick_started.succeed()
                self.declared.append(f)
                yield self.tick_done
                if hp[f] <= 0:
                    return
                r = DF2[int(random() * 9)] + base
                yield env.timeout(r if r > 1 else 1)
        except simpy.Interrupt:
            return  # killed: the pending action is removed

    def referee(self):
        env = self.env
        random = self.random
        hp = self.hp
        off = self.off
        enemies = self.enemies
        alive_a, alive_b = self.alive
        while True:
            yield self.tick_started
            yield EndOfTick(env)
            tick = env.now
            if tick > self.cap:
                self.finish(TIMEOUT, self.cap)
                return
            acting = self.declared
            self.declared = []
            self.actions += len(acting)
            killed = False
            for f in acting:
                foes = enemies[f]
                target = foes[int(random() * len(foes))]
                margin = off[f] + DF4[int(random() * 81)]
                if margin > 0:
                    hp[target] -= 1 if margin < 3 else 2
                    killed = killed or hp[target] <= 0
            if killed:
                acted = set(acting)
                for lst in (alive_a, alive_b):
                    for x in lst:
                        if hp[x] <= 0 and x not in acted:
                            self.procs[x].interrupt("killed")
                    lst[:] = [x for x in lst if hp[x] > 0]
                if not alive_a or not alive_b:
                    self.finish(DRAW if not alive_a and not alive_b else (WIN_B if alive_b else WIN_A), tick)
                    return
            self.tick_started = env.event()
            done, self.tick_done = self.tick_done, env.event()
            done.succeed()  # actors resume in the order they acted

    def finish(self, outcome: str, ticks: int) -> None:
        self.outcome = outcome
        self.ticks = ticks
        self.over.succeed()


def run_battle(random, a: Side, b: Side, cap: int = CAP):
    """One battle; same signature and result as parity_heapq.run_battle."""
    battle = Battle(random, a, b, cap)
    battle.env.run(until=battle.over)
    return battle.outcome, battle.ticks, battle.actions, battle.hp


if __name__ == "__main__":
    main(IMPL, run_battle, sys.argv[1:], default_battles=200)
