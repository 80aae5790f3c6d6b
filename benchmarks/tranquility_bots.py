"""Tranquility bots: the strength study (all-bot games at every player count) and the bots' speed. Run by hand:

    .venv/bin/python benchmarks/tranquility_bots.py study [games] [workers]   # writes the committed table
    .venv/bin/python benchmarks/tranquility_bots.py speed [games]

``study`` plays ``games`` (default 1000) seeded games per (level, player count) through the executor
interface (a process pool, progress on stderr) and writes ``docs/tranquility-study.md``: team win rates with
95 % Wilson intervals. The study plays the simulator, whose decisions are the bots' own code (a test plays the
same seeds through ``play_out`` on the engine and compares every move), so these are the bots' figures.

``speed`` times every bot decision made in all-bot engine games (``play_out`` through ``BotTable``, so the
decision time includes building the seat's knowledge from its observation) and whole 4-player games.
Targets (DESIGN.md): a decision p95 ≤ 100 ms; a 4-player all-bot game ≤ 5 s.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from toolkit.tranquility.bots import LEVELS
from toolkit.tranquility.study import process_pool, run_study

STUDY_SEED = 2024
TABLE = Path(__file__).resolve().parents[1] / "docs" / "tranquility-study.md"


def study(games: int = 1000, workers: int = 2) -> None:
    last = [0.0]

    def progress(done: int, total: int) -> None:
        if time.perf_counter() - last[0] > 5 or done == total:
            last[0] = time.perf_counter()
            print(f"  {done}/{total} games", file=sys.stderr, flush=True)

    t = time.perf_counter()
    with process_pool(workers) as pool:
        result = run_study(LEVELS, players=(1, 2, 3, 4, 5), games=games, seed=STUDY_SEED, executor=pool,
                           chunk_size=100, progress=progress)
    wall = time.perf_counter() - t
    lines = ["# Tranquility: strength of the bots (committed study table)", "",
             f"Team win rate of all-bot games, {games} seeded games per cell (study seed {STUDY_SEED}, base game, "
             "0–1-card loss on, finish checked first, English cost limit), with 95 % Wilson intervals. Every seat "
             "plays the same level; levels strongest first, as in `toolkit.tranquility.BOTS`.",
             "Written by `benchmarks/tranquility_bots.py study`; `tests/tranquility/test_tranquility_bots.py` "
             "re-plays cells of it exactly.", "",
             "| level | players | games | wins | win rate | 95 % interval |", "|---|---|---|---|---|---|"]
    for level in LEVELS:
        for players in (1, 2, 3, 4, 5):
            row = result.row(level, players)
            lo, hi = row.interval()
            lines.append(f"| {level} | {players} | {row.games} | {row.wins} | {row.win_rate:.1%} | "
                         f"{lo:.1%}–{hi:.1%} |")
    TABLE.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))
    print(f"\n{len(LEVELS) * 5 * games} games in {wall:.0f} s wall on {workers} processes")


def speed(games: int = 20) -> None:
    from toolkit.core.bots import BotTable
    from toolkit.tranquility import ENGINE

    class Timed:
        def __init__(self, bot, sink):
            self.bot, self.sink, self.name = bot, sink, bot.name

        def decide(self, view, legal, rng):
            t = time.perf_counter()
            d = self.bot.decide(view, legal, rng)
            self.sink.append(time.perf_counter() - t)
            return d

    from toolkit.tranquility import BOTS
    expansions = dict(rocks=True, monsters=3, storms=True, compasses=4)
    for level, options in [(lv, {}) for lv in LEVELS] + [(lv, expansions) for lv in LEVELS]:
        times: list[float] = []
        game_walls = []
        for seed in range(games):
            table = BotTable(ENGINE, [Timed(BOTS[level](), times) for _ in range(4)], seed)
            t = time.perf_counter()
            state = ENGINE.new_state(seed, players=4, **options)
            while (step := table.step(state)) is not None:
                state = ENGINE.apply(state, step[1].move)
            game_walls.append(time.perf_counter() - t)
        times.sort()
        game_walls.sort()
        p = lambda xs, q: xs[min(len(xs) - 1, int(len(xs) * q))]  # noqa: E731
        print(f"{level:<12} {'expansions' if options else 'base game':<10} decisions {len(times):>5}: median {p(times, .5) * 1e3:6.2f} ms, p95 "
              f"{p(times, .95) * 1e3:6.2f} ms, max {times[-1] * 1e3:6.2f} ms | 4-player game (engine + bots) "
              f"median {p(game_walls, .5):.2f} s, max {game_walls[-1]:.2f} s")


if __name__ == "__main__":
    what = sys.argv[1] if len(sys.argv) > 1 else "speed"
    args = [int(a) for a in sys.argv[2:]]
    {"study": study, "speed": speed}[what](*args)
