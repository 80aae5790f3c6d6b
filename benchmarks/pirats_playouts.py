"""Sewer Pirats speed, run by hand: ``.venv/bin/python benchmarks/pirats_playouts.py [games]``.

Prints:
* random playouts (seeded; each step = ``legal_moves`` + checked ``apply``): actions per second, per variant
  and player count — the issue's goal is >= 20,000 actions/s;
* the same with ``transition`` (which also builds the explained events, as the UI does);
* the hot-seat view's handler latency (apply a move and re-render), p50 / p95 — the design goal is
  <= 100 ms at p95.
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import time

from toolkit.pirats import ENGINE


def playouts(games: int, players: int, variant: str, explain: bool) -> tuple[int, float]:
    """Actions played and the CPU seconds they took (process time: on a shared machine, time spent
    waiting for a core is not the engine's)."""
    actions, start = 0, time.process_time()
    for seed in range(games):
        rng = random.Random(seed)
        state = ENGINE.new_state(seed, players=players, variant=variant)
        while state.phase != "over":
            move = rng.choice(ENGINE.legal_moves(state))
            state = ENGINE.transition(state, move)[0] if explain else ENGINE.apply(state, move)
            actions += 1
    return actions, time.process_time() - start


def best_of(repeats: int, games: int, players: int = 4, variant: str = "standard") -> tuple[int, float]:
    """The same recorded playouts timed ``repeats`` times (legal_moves + apply on every position); CPU seconds of
    the best run, the least disturbed by other processes (timeit's rule)."""
    positions = []
    for seed in range(games):
        rng = random.Random(seed)
        state = ENGINE.new_state(seed, players=players, variant=variant)
        while state.phase != "over":
            move = rng.choice(ENGINE.legal_moves(state))
            positions.append((state, move))
            state = ENGINE.apply(state, move)
    best = float("inf")
    for _ in range(repeats):
        start = time.process_time()
        for state, move in positions:
            ENGINE.legal_moves(state)
            ENGINE.apply(state, move)
        best = min(best, time.process_time() - start)
    return len(positions), best


def view_latency(clicks: int = 150) -> tuple[float, float]:
    from toolkit.widgets.pirats import GameView
    view = GameView(seed=5, players=4)
    rng = random.Random(5)
    times = []
    for _ in range(clicks):
        if view.model.outcome is not None:
            break
        view._moves.value = rng.randrange(len(view._moves.options))
        t = time.perf_counter()
        view._apply.click()
        times.append(time.perf_counter() - t)
    times.sort()
    return statistics.median(times) * 1000, times[int(0.95 * (len(times) - 1))] * 1000


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 30
    print(f"Sewer Pirats random playouts, {games} seeded games each (legal_moves + checked apply per action),")
    print(f"actions per CPU second; load average now {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    total_a, total_t = 0, 0.0
    for variant in ("standard", "landlubber", "auction"):
        for players in (2, 3, 4, 5):
            a, t = playouts(games, players, variant, explain=False)
            total_a, total_t = total_a + a, total_t + t
            print(f"  {variant:10} {players} players: {a / games:6.0f} actions/game  {a / t:9,.0f} actions/s")
    print(f"  all: {total_a:,} actions in {total_t:.2f} s = {total_a / total_t:,.0f} actions/s (goal >= 20,000)")
    a, t = best_of(5, games)
    print(f"  best of 5 runs over the same {a:,} positions (standard, 4 players): {a / t:,.0f} actions/s")
    a, t = playouts(games, 4, "standard", explain=True)
    print(f"  with explained events (transition), standard 4 players: {a / t:,.0f} actions/s")
    p50, p95 = view_latency()
    print(f"hot-seat view, apply + re-render: p50 {p50:.1f} ms, p95 {p95:.1f} ms (goal p95 <= 100 ms)")


if __name__ == "__main__":
    main()
