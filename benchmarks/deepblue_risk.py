"""Deep Blue analysis speed (run by hand: ``.venv/bin/python benchmarks/deepblue_risk.py``).

Goals (shared/DESIGN.md): next-draw risk <= 50 µs; exact optimal policy for the 19-gem setup bag and for
any bag up to 40 gems <= 200 ms. Prints the median of several runs (7 for the policy, which is what the
goal is judged on), how many decision states the policy solved and how long its full ``table()`` takes
once (what the gem-bag view reads). Also times the engine (random legal moves per second) and the gem-bag
view's handler. The machine is shared: the load average is printed before and after, quote it with the
figures.
"""

from __future__ import annotations

import random
import statistics
import time

from toolkit.deepblue import ENGINE, SETUP_BAG, bust_chance, optimal_policy, survival, vp_distribution


def timeit(fn, repeat: int = 7, number: int = 1) -> float:
    runs = []
    for _ in range(repeat):
        t = time.perf_counter()
        for _ in range(number):
            fn()
        runs.append((time.perf_counter() - t) / number)
    return statistics.median(runs)


def loadavg() -> str:
    try:
        with open("/proc/loadavg") as f:
            return " ".join(f.read().split()[:3])
    except OSError:      # not Linux
        return "n/a"


def main() -> None:
    print(f"load average (1, 5, 15 min): {loadavg()}")
    print("\n== next-draw risk (goal <= 50 µs)")
    us = timeit(lambda: bust_chance(SETUP_BAG, drawn=["black", "blue"], shields={"any": 1}), number=2000) * 1e6
    print(f"bust_chance, setup bag, dict input:          {us:7.1f} µs")
    us = timeit(lambda: bust_chance("silver 7, gold 3, red 1, black 4, blue 4", drawn="black"), number=2000) * 1e6
    print(f"bust_chance, text input:                     {us:7.1f} µs")
    us = timeit(lambda: survival(SETUP_BAG, 5), number=500) * 1e6
    print(f"survival after 5 draws:                      {us:7.1f} µs")
    ms = timeit(lambda: vp_distribution(SETUP_BAG, 6, spots=["gold"]), number=50) * 1e3
    print(f"vp_distribution after 6 draws:               {ms:7.2f} ms")

    print("\n== exact optimal policy (goal <= 200 ms; median of 7 runs; table() built once)")
    full_bag = {"silver": 9, "gold": 5, "red": 3, "green": 2, "purple": 4, "black": 4, "blue": 4}   # 31: every supply gem added
    forty = {"silver": 10, "gold": 8, "red": 6, "green": 2, "purple": 2, "black": 6, "blue": 6}
    cases = [
        ("setup bag (19)", SETUP_BAG, {}, {}),
        ("setup bag, Troubled Waters", SETUP_BAG, {}, {"gems_per_draw": 2}),
        ("setup bag, 1 any + gold spot", SETUP_BAG, {"any": 1}, {"spots": ["gold"]}),
        ("full bag (31), no protection", full_bag, {}, {}),
        ("full bag (31), 1 black + 1 blue", full_bag, {"black": 1, "blue": 1}, {}),
        ("40 gems, no protection", forty, {}, {}),
        ("40 gems, 1 black + 1 any, gold spot", forty, {"black": 1, "any": 1}, {"spots": ["gold"]}),
        ("40 gems, 2 black + 2 blue + 2 any", forty, {"black": 2, "blue": 2, "any": 2}, {}),
        ("40 gems, same, Troubled Waters", forty, {"black": 2, "blue": 2, "any": 2}, {"gems_per_draw": 2}),
    ]
    for name, bag, shields, extra in cases:
        policy = optimal_policy(bag, shields=shields, **extra)
        ms = timeit(lambda: optimal_policy(bag, shields=shields, **extra), repeat=7) * 1e3
        t = time.perf_counter()
        policy.table()
        table_ms = (time.perf_counter() - t) * 1e3
        print(f"{name:38s} {ms:8.1f} ms  {len(policy.states()):7d} states  value {float(policy.value):.3f}  "
              f"table() {table_ms:7.1f} ms")

    print("\n== engine")
    rng = random.Random(0)
    moves = 0
    t = time.perf_counter()
    for seed in range(5):
        state = ENGINE.new_state(seed, players=4)
        while not ENGINE.is_over(state):
            state = ENGINE.apply(state, rng.choice(ENGINE.legal_moves(state)))
            moves += 1
    dt = time.perf_counter() - t
    print(f"random full games: {moves} moves in {dt:.2f} s = {moves / dt:.0f} moves/s (legal_moves + checked apply)")

    print("\n== gem-bag view handler (goal p95 <= 100 ms feels instant; <= 1 s for analysis)")
    from toolkit.widgets.deepblue import GemBagView
    view = GemBagView(query="")
    times = []
    for i in range(12):
        t = time.perf_counter()
        view._bag["silver"].value = 5 + i % 4
        times.append(time.perf_counter() - t)
    times.sort()
    print(f"one input change (all four charts + policy): median {statistics.median(times) * 1e3:.0f} ms, "
          f"max {times[-1] * 1e3:.0f} ms")
    print(f"\nload average (1, 5, 15 min): {loadavg()}")


if __name__ == "__main__":
    main()
