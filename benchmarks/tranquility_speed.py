"""Tranquility speed: simulated games per second per core, the incremental grid index against a naive
rescan, and the checked engine for comparison. Run by hand:

    .venv/bin/python benchmarks/tranquility_speed.py [games]

Figures use CPU time of this process (``time.process_time``), so they are per core and not inflated or
deflated by other work on a shared machine; wall time is printed alongside. Goal: ≥ 500 games/s/core.
"""

from __future__ import annotations

import random
import sys
import time
from statistics import median

from toolkit.tranquility import ENGINE
from toolkit.tranquility.grid import SortedLine, open_range
from toolkit.tranquility.sim import STRATEGIES, play
from toolkit.tranquility.study import process_pool, run_study


def games_per_second(strategy: str, players: int, games: int, scan: str) -> tuple[float, float, float]:
    bot = STRATEGIES[strategy]()
    wall, cpu = time.perf_counter(), time.process_time()
    wins = sum(play(bot, seed, players, scan=scan).won for seed in range(games))
    cpu = time.process_time() - cpu
    wall = time.perf_counter() - wall
    return games / cpu, games / wall, wins / games


def bracket_queries(repeats: int = 20000) -> tuple[float, float]:
    """µs per 'where may this number go?' query on a half-full grid: bisect index vs rescanning 36 cells."""
    rng = random.Random(1)
    cells = sorted(rng.sample(range(36), 18))
    numbers = sorted(rng.sample(range(1, 81), 18))
    grid = [0] * 36
    for c, n in zip(cells, numbers):
        grid[c] = n
    line = SortedLine(grid)
    queries = [rng.randint(1, 80) for _ in range(repeats)]
    t = time.process_time()
    for q in queries:
        line.bracket(q)
    indexed = (time.process_time() - t) / repeats * 1e6
    t = time.process_time()
    for q in queries:
        open_range(grid, q)
    naive = (time.process_time() - t) / repeats * 1e6
    return indexed, naive


def engine_games(games: int) -> float:
    """Checked-engine playthroughs (legal_moves + why_illegal + immutable states) per CPU second."""
    t = time.process_time()
    for seed in range(games):
        state = ENGINE.new_state(seed, players=2)
        rng = random.Random(seed)
        while not ENGINE.is_over(state):
            moves = ENGINE.legal_moves(state)
            places = [m for m in moves if getattr(m, "discards", None) == ()]
            state = ENGINE.apply(state, rng.choice(places or moves))
    return games / (time.process_time() - t)


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 400
    print(f"Tranquility simulator, {games} games per line (CPU time of one process = per core)")
    print(f"{'strategy':<12} {'players':>7} {'scan':<12} {'games/s/core':>12} {'wall games/s':>12} {'win rate':>8}")
    for strategy in STRATEGIES:
        for players in (2, 4):
            for scan in ("incremental", "naive"):
                cpu, wall, rate = games_per_second(strategy, players, games, scan)
                print(f"{strategy:<12} {players:>7} {scan:<12} {cpu:>12.0f} {wall:>12.0f} {rate:>8.1%}")
    indexed, naive = bracket_queries()
    print(f"\nopen-run query on a half-full grid: bisect index {indexed:.2f} µs, naive rescan {naive:.2f} µs "
          f"({naive / indexed:.1f}× slower)")
    print(f"checked engine (random placements, 2 players): {engine_games(20):.1f} games/s/core")
    for workers in (1, 2):
        t = time.perf_counter()
        with process_pool(workers) as pool:
            run_study(("feasibility",), (2,), games=games, seed=1, executor=pool, chunk_size=50)
        print(f"study on a {workers}-process pool: {games / (time.perf_counter() - t):.0f} games/s wall")
    latency = []
    from toolkit.widgets.tranquility import DiscardCostView
    view = DiscardCostView()
    for i in range(200):
        t = time.perf_counter()
        view.pick(i % 36)
        latency.append((time.perf_counter() - t) * 1000)
    latency.sort()
    print(f"discard-cost view: cell click handler median {median(latency):.1f} ms, p95 {latency[189]:.1f} ms")
    from toolkit.tranquility import PlaceIsland
    from toolkit.widgets.tranquility import GameView
    game_latency = []
    for seed in range(10):
        game = GameView(seed=seed, players=3)
        for _ in range(6):
            t = time.perf_counter()
            game.reveal()
            move = next((m for m in game.model.legal_moves if isinstance(m, PlaceIsland)), None)
            if move is None:  # e.g. the start card must be played first
                game.model.play(game.model.legal_moves[0])
                game.refresh()
            else:
                game.choose(str(move.number), move.cell, tuple(str(c) for c in move.discards))
                game._play.click()
            game_latency.append((time.perf_counter() - t) * 1000)
    game_latency.sort()
    p95 = game_latency[int(len(game_latency) * 0.95) - 1]
    print(f"hot-seat view: reveal + pick + play median {median(game_latency):.1f} ms, p95 {p95:.1f} ms")


if __name__ == "__main__":
    main()
