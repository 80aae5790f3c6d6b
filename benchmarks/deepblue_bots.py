"""Deep Blue bots: decision time per level (p50/p95/max over whole games) and the wall time of whole
4-player all-bot games (goals of issue #16: decision p95 ≤ 100 ms, a 4-player game ≤ 20 s).

    PYTHONPATH=$PWD python benchmarks/deepblue_bots.py [--games 10]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from toolkit.core.bots import BotTable, play_out
from toolkit.deepblue import BOTS, ENGINE
from toolkit.deepblue.coach import _policy_values as policy_values  # the cached solver call


def load() -> str:
    with open("/proc/loadavg") as f:
        return f.read().split()[0]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=10)
    args = ap.parse_args()
    print(f"load average before: {load()}")
    times: dict[str, list[float]] = {lv: [] for lv in BOTS}
    game_walls = []
    for g in range(args.games):
        policy_values.cache_clear()        # every game starts cold: no policy solved before
        seats = [list(BOTS)[(g + i) % len(BOTS)] for i in range(4)]
        state = ENGINE.new_state(g, players=4)
        table = BotTable(ENGINE, seats, g)
        start = time.perf_counter()
        while not ENGINE.is_over(state):
            t = time.perf_counter()
            seat, decision = table.step(state)
            times[seats[seat]].append(time.perf_counter() - t)
            state = ENGINE.apply(state, decision.move)
        game_walls.append(time.perf_counter() - start)
    for lv, ts in times.items():
        a = np.array(ts) * 1000
        print(f"{lv:<13} decisions {len(a):>6}  p50 {np.percentile(a, 50):6.2f} ms  p95 {np.percentile(a, 95):6.2f} ms"
              f"  max {a.max():7.1f} ms")
    print(f"4-player mixed games (each level once, rotated), cold cache: mean {np.mean(game_walls):.2f} s, "
          f"max {max(game_walls):.2f} s")
    walls = []
    for g in range(args.games):
        policy_values.cache_clear()
        start = time.perf_counter()
        play_out(ENGINE, 100 + g, ["policy"] * 4, players=4)
        walls.append(time.perf_counter() - start)
    print(f"4-player all-policy games, cold cache: mean {np.mean(walls):.2f} s, max {max(walls):.2f} s")
    print(f"load average after: {load()}")


if __name__ == "__main__":
    main()
