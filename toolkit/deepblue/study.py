"""Strength study of the Deep Blue bots: all-bot games at every player count, each level seated against
the others with the seats rotated, win rates with 95 % intervals and the policy bot's margin over the best
fixed-stop bot.

Lineups (:func:`lineups`): 2 players — every ordered pair of distinct levels; 3 players — every rotation
of every 3-level subset; 4 players — the rotations of all four levels; 5 players — the rotations of the
four levels plus one more seat that cycles through the levels. Game ``g`` of a player count plays lineup
``g mod len(lineups)`` from seed :func:`game_seed`, so a study is reproducible chunk by chunk on any
executor (``None``: this process; a ``concurrent.futures`` executor; a Dask client).

A seat's *win score* is 1 for a sole win, ``1/k`` for a win shared by ``k`` seats, else 0 (scores of a
game add up to 1, so the rates of a player count average ``1/players``). A level's win rate is its mean
win score per seat; its interval is mean ± 1.96 standard errors. The margin of the policy bot over a
fixed-stop level is paired: in each game seating both, the policy seats' mean score minus the other
level's, averaged over those games, with its own standard error.

>>> result = run_study(players=(2,), games=4, seed=0, chunk_size=4)      # doctest: +SKIP
"""

from __future__ import annotations

import math
import zlib
from dataclasses import dataclass
from itertools import combinations, permutations
from typing import Any, Callable, Sequence

from toolkit.core.bots import play_out
from toolkit.core.checks import check_int, check_seed
from toolkit.core.errors import InvalidStateError
from toolkit.core.studies import InlineExecutor, process_pool  # noqa: F401 - process_pool re-exported

__all__ = ["LEVELS", "lineups", "game_seed", "run_study", "StudyResult", "LevelRow", "MarginRow", "process_pool"]

LEVELS: tuple[str, ...] = ("policy", "stop-after-3", "stop-after-5", "random")
MAX_GAMES = 100_000


def lineups(players: int, levels: Sequence[str] = LEVELS) -> list[tuple[str, ...]]:
    """The seatings a study cycles through for ``players`` seats (see the module docstring)."""
    check_int("players", players, 2, 5)
    if not isinstance(levels, (list, tuple)) or not levels or not all(isinstance(v, str) for v in levels):
        raise TypeError(f"levels must be a list of bot level names, not {levels!r:.60}")
    levels = tuple(levels)
    if players == 2:
        return list(permutations(levels, 2))
    if players < len(levels):
        out = []
        for subset in combinations(levels, players):
            out += [subset[i:] + subset[:i] for i in range(players)]
        return out
    base = [levels + (levels[j],) * (players - len(levels)) for j in range(len(levels))] \
        if players > len(levels) else [levels]
    return [b[i:] + b[:i] for b in base for i in range(players)]


def game_seed(seed: int, players: int, index: int) -> int:
    """The engine seed of game ``index`` at ``players`` in a study seeded ``seed`` (stable across runs)."""
    check_seed(seed)
    check_int("players", players, 2, 5)
    check_int("index", index, 0)
    return zlib.crc32(f"deepblue-study:{seed}:{players}:{index}".encode()) & 0x7FFFFFFF


@dataclass(frozen=True)
class Chunk:
    players: int
    seed: int
    start: int
    stop: int
    scenario: str
    levels: tuple[str, ...]


def run_chunk(chunk: Chunk) -> list[tuple[int, tuple[int, ...], tuple[int, ...]]]:
    """Play games ``start``…``stop-1``: ``(lineup index, winners, chests)`` per game."""
    from toolkit.deepblue import ENGINE
    ups = lineups(chunk.players, chunk.levels)
    out = []
    for g in range(chunk.start, chunk.stop):
        u = g % len(ups)
        state, _ = play_out(ENGINE, game_seed(chunk.seed, chunk.players, g), list(ups[u]), players=chunk.players,
                            scenario=chunk.scenario)
        result = ENGINE.outcome(state)
        winners = tuple(result.winners) if result is not None else ()
        out.append((u, winners, tuple(p.chest for p in state.players)))
    return out


@dataclass(frozen=True)
class LevelRow:
    level: str
    players: int
    seats: int              # seat-games played by this level
    games: int              # games with this level seated
    win_rate: float
    low: float
    high: float
    mean_vp: float


@dataclass(frozen=True)
class MarginRow:
    players: int
    level: str              # the fixed-stop level compared with "policy"
    games: int              # games seating both
    margin: float
    low: float
    high: float


def _mean_ci(values: Sequence[float]) -> tuple[float, float, float]:
    n = len(values)
    if n == 0:
        return 0.0, 0.0, 0.0
    mean = sum(values) / n
    if n == 1:
        return mean, mean, mean
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = 1.96 * math.sqrt(var / n)
    return mean, mean - half, mean + half


@dataclass(frozen=True)
class StudyResult:
    seed: int
    games: int
    scenario: str
    levels: tuple[LevelRow, ...]
    margins: tuple[MarginRow, ...]

    def level(self, level: str, players: int) -> LevelRow:
        return next(r for r in self.levels if (r.level, r.players) == (level, players))

    def best_fixed(self, players: int) -> MarginRow:
        """The policy bot's margin over the fixed-stop level with the highest win rate at ``players``."""
        fixed = [r for r in self.levels if r.players == players and r.level.startswith("stop-after-")]
        best = max(fixed, key=lambda r: r.win_rate)
        return next(m for m in self.margins if m.players == players and m.level == best.level)

    def table(self) -> str:
        """Markdown tables: win rates per level and player count; the policy bot's margins."""
        lines = ["| players | level | seat-games | win rate | 95 % interval | mean VP |",
                 "|---|---|---|---|---|---|"]
        for r in self.levels:
            lines.append(f"| {r.players} | {r.level} | {r.seats} | {r.win_rate:.1%} | {r.low:.1%} – {r.high:.1%} "
                         f"| {r.mean_vp:.1f} |")
        lines += ["", "| players | policy − level (paired, per game) | games | margin | 95 % interval | best fixed? |",
                  "|---|---|---|---|---|---|"]
        for m in self.margins:
            best = "yes" if self.best_fixed(m.players).level == m.level else ""
            lines.append(f"| {m.players} | policy − {m.level} | {m.games} | {m.margin:+.1%} | "
                         f"{m.low:+.1%} – {m.high:+.1%} | {best} |")
        return "\n".join(lines)


def run_study(players: Sequence[int] = (2, 3, 4, 5), games: int | Sequence[int] = 1000, seed: int = 0,
              executor: Any = None, chunk_size: int = 25, scenario: str = "troubled-waters",
              levels: Sequence[str] = LEVELS,
              progress: Callable[[int, int], None] | None = None) -> StudyResult:
    """Play ``games`` games at every player count (a sequence: one count per player count) and tally.

    ``progress(done_games, total_games)`` is called as chunks finish (in submission order).
    """
    players = list(players)
    for p in players:
        if isinstance(p, bool) or not isinstance(p, int) or not 2 <= p <= 5:
            raise InvalidStateError(f"players={p!r}: Deep Blue is for 2 to 5 players")
    counts = [games] * len(players) if isinstance(games, int) else list(games)
    if len(counts) != len(players) or any(isinstance(g, bool) or not isinstance(g, int) or not 1 <= g <= MAX_GAMES
                                          for g in counts):
        raise InvalidStateError(f"games={games!r}: 1 to {MAX_GAMES} per player count")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise InvalidStateError(f"seed={seed!r} must be a whole number ≥ 0")
    if isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size < 1:
        raise InvalidStateError(f"chunk_size={chunk_size!r} must be at least 1")
    levels = tuple(levels)
    chunks = [Chunk(p, seed, s, min(n, s + chunk_size), scenario, levels)
              for p, n in zip(players, counts) for s in range(0, n, chunk_size)]
    pool = executor if executor is not None else InlineExecutor()
    futures = [(c, pool.submit(run_chunk, c)) for c in chunks]
    total, done = sum(c.stop - c.start for c in chunks), 0
    if progress is not None:
        progress(0, total)
    records: dict[int, list] = {p: [] for p in players}
    for c, fut in futures:
        records[c.players] += fut.result()
        done += c.stop - c.start
        if progress is not None:
            progress(done, total)
    level_rows, margin_rows = [], []
    for p in players:
        ups = lineups(p, levels)
        scores: dict[str, list[float]] = {lv: [] for lv in levels}
        vps: dict[str, list[int]] = {lv: [] for lv in levels}
        per_game: list[dict[str, float]] = []
        for u, winners, chests in records[p]:
            lineup = ups[u]
            game: dict[str, list[float]] = {}
            for seat, lv in enumerate(lineup):
                s = 1 / len(winners) if seat in winners else 0.0
                scores[lv].append(s)
                vps[lv].append(chests[seat])
                game.setdefault(lv, []).append(s)
            per_game.append({lv: sum(v) / len(v) for lv, v in game.items()})
        for lv in levels:
            mean, lo, hi = _mean_ci(scores[lv])
            games_with = sum(1 for g in per_game if lv in g)
            level_rows.append(LevelRow(lv, p, len(scores[lv]), games_with, mean, max(0.0, lo), min(1.0, hi),
                                       sum(vps[lv]) / len(vps[lv]) if vps[lv] else 0.0))
        for lv in levels:
            if not lv.startswith("stop-after-"):
                continue
            diffs = [g["policy"] - g[lv] for g in per_game if "policy" in g and lv in g]
            mean, lo, hi = _mean_ci(diffs)
            margin_rows.append(MarginRow(p, lv, len(diffs), mean, lo, hi))
    return StudyResult(seed, sum(counts), scenario, tuple(level_rows), tuple(margin_rows))


