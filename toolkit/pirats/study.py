"""How strong are the Sewer Pirats bots? A seeded study of all-bot games, level against level.

A *cell* is two levels ``a`` and ``b`` and a player count. In game ``i`` of a cell the seats alternate
between the two levels from seat ``i mod players`` on; with an odd player count the level that has the extra
seat changes every ``players`` games. So every level sits at every seat equally often and, at odd tables,
has the extra seat in half of the games. A game is
won by a level when one of its seats wins (a shared victory is split between the winners' levels).
``a``'s win rate comes with a 95 % Wilson interval; 50 % is an even match.

Work is cut into chunks and handed to anything shaped like :class:`concurrent.futures.Executor`
(``submit(fn, *args)`` → future with ``result()``): ``None`` runs here, :func:`process_pool` uses the
machine's cores, a Dask ``distributed.Client`` a cluster. Each game's seed comes from the study seed and
the game's coordinates (never from the worker or the order), so every executor gives the same table.

>>> result = run_study(pairs=[("greedy", "random")], players=[2], games=4)
>>> row = result.rows[0]
>>> (row.a, row.b, row.players, row.games)
('greedy', 'random', 2, 4)
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from typing import Any, Callable, Sequence

import numpy as np

from toolkit.core.bots import play_out
from toolkit.core.checks import check_int, check_seed, check_str
from toolkit.core.errors import InvalidStateError
from toolkit.core.studies import InlineExecutor, process_pool, wilson  # noqa: F401 - process_pool re-exported

__all__ = ["PAIRS", "Row", "StudyResult", "game_seats", "game_seed", "process_pool", "run_chunk", "run_study"]

#: every pair of levels, the stronger first
PAIRS = (("greedy", "random"), ("greedy", "cautious"), ("cautious", "random"))
MAX_GAMES = 100_000
MAX_MOVES = 20_000  # a game that has not ended by then counts for neither level (none has so far)


def _stable(text: str) -> int:
    return zlib.crc32(text.encode("utf-8"))


def game_seed(seed: int, a: str, b: str, players: int, variant: str, index: int) -> int:
    """The seed of one game of the study, independent of how the study is split or run."""
    check_seed(seed)
    for name, value in (("a", a), ("b", b), ("variant", variant)):
        check_str(name, value)
    check_int("players", players, 2, 5)
    check_int("index", index, 0)
    ss = np.random.SeedSequence([seed, _stable(a), _stable(b), players, _stable(variant), index])
    return int(ss.generate_state(1, dtype=np.uint32)[0])


def game_seats(a: str, b: str, players: int, index: int) -> list[str]:
    """Who sits where in game ``index`` of a cell: the levels alternate around the table from seat ``index mod
    players`` (see the module docstring).

    >>> game_seats("greedy", "random", 3, 1)
    ['greedy', 'greedy', 'random']
    """
    check_str("a", a)
    check_str("b", b)
    check_int("players", players, 1, 5)
    check_int("index", index, 0)
    first = index % players
    # at an odd table the level in front of the alternation has one seat more: swap that every round of
    # `players` games, so over 2 x players games each level sits at each seat equally often
    swap = players % 2 == 1 and (index // players) % 2 == 1
    front, back = (b, a) if swap else (a, b)
    return [front if (seat - first) % players % 2 == 0 else back for seat in range(players)]


@dataclass(frozen=True)
class Chunk:
    a: str
    b: str
    players: int
    variant: str
    seed: int
    start: int
    stop: int


@dataclass
class Tally:
    games: int = 0
    wins_a: float = 0.0
    wins_b: float = 0.0
    unfinished: int = 0
    moves: int = 0

    def add(self, other: "Tally") -> None:
        self.games += other.games
        self.wins_a += other.wins_a
        self.wins_b += other.wins_b
        self.unfinished += other.unfinished
        self.moves += other.moves


def run_chunk(chunk: Chunk) -> Tally:
    """Play one chunk of a cell (a picklable task for any executor)."""
    if not isinstance(chunk, Chunk):
        raise TypeError(f"chunk must be a Chunk of a study plan, not {chunk!r:.60}")
    from toolkit.pirats import ENGINE
    tally = Tally()
    for i in range(chunk.start, chunk.stop):
        seats = game_seats(chunk.a, chunk.b, chunk.players, i)
        seed = game_seed(chunk.seed, chunk.a, chunk.b, chunk.players, chunk.variant, i)
        state, moves = play_out(ENGINE, seed, seats, max_moves=MAX_MOVES, players=chunk.players,
                                variant=chunk.variant)
        tally.games += 1
        tally.moves += len(moves)
        out = ENGINE.outcome(state)
        if out is None:
            tally.unfinished += 1
            continue
        share = 1.0 / len(out.winners)
        for w in out.winners:
            if seats[w] == chunk.a:
                tally.wins_a += share
            else:
                tally.wins_b += share
    return tally


@dataclass(frozen=True)
class Row:
    a: str
    b: str
    players: int
    variant: str
    games: int
    wins_a: float
    wins_b: float
    unfinished: int
    moves_per_game: float

    @property
    def win_rate(self) -> float:
        """``a``'s share of the games (shared victories split)."""
        return self.wins_a / self.games if self.games else 0.0

    def interval(self) -> tuple[float, float]:
        return wilson(self.wins_a, self.games)


@dataclass(frozen=True)
class StudyResult:
    seed: int
    rows: tuple[Row, ...]

    def row(self, a: str, b: str, players: int, variant: str = "standard") -> Row:
        for r in self.rows:
            if (r.a, r.b, r.players, r.variant) == (a, b, players, variant):
                return r
        raise KeyError((a, b, players, variant))

    def table(self) -> str:
        """A Markdown table (what docs/pirats-notes.md and the notebook show)."""
        lines = ["| level a | level b | players | variant | games | a wins | 95 % interval | moves/game |",
                 "|---|---|---:|---|---:|---:|---|---:|"]
        for r in self.rows:
            lo, hi = r.interval()
            lines.append(f"| {r.a} | {r.b} | {r.players} | {r.variant} | {r.games} | {r.win_rate:.1%} | "
                         f"{lo:.1%}–{hi:.1%} | {r.moves_per_game:.0f} |")
        return "\n".join(lines)


def plan(pairs: Sequence[tuple[str, str]], players: Sequence[int], variants: Sequence[str], games: int,
         seed: int, chunk_size: int) -> list[Chunk]:
    """Validate the study's parameters and cut it into chunks (in a fixed order)."""
    from toolkit.pirats import BOTS, VARIANTS
    for pair in pairs:
        if not isinstance(pair, (tuple, list)) or len(pair) != 2 or any(x not in BOTS for x in pair):
            raise InvalidStateError(f"pairs: {pair!r} is not two bot levels of {', '.join(BOTS)}")
    for p in players:
        if isinstance(p, bool) or not isinstance(p, int) or not 2 <= p <= 5:
            raise InvalidStateError(f"players={p!r}: Sewer Pirats is for 2 to 5 players")
    for v in variants:
        if v not in VARIANTS:
            raise InvalidStateError(f"unknown variant {v!r}: use {', '.join(VARIANTS)}")
    if isinstance(games, bool) or not isinstance(games, int) or not 1 <= games <= MAX_GAMES:
        raise InvalidStateError(f"games={games!r}: 1 to {MAX_GAMES} per cell")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise InvalidStateError(f"seed={seed!r} must be a whole number ≥ 0")
    if isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size < 1:
        raise InvalidStateError(f"chunk_size={chunk_size!r} must be at least 1")
    return [Chunk(a, b, p, v, seed, start, min(games, start + chunk_size))
            for a, b in pairs for p in players for v in variants for start in range(0, games, chunk_size)]


def run_study(pairs: Sequence[tuple[str, str]] = PAIRS, players: Sequence[int] = (2, 3, 4, 5),
              variants: Sequence[str] = ("standard",), games: int = 1000, seed: int = 0, executor: Any = None,
              chunk_size: int = 50, progress: Callable[[int, int], None] | None = None) -> StudyResult:
    """Play ``games`` games per cell and return each cell's win rate with its interval.

    ``progress(done_games, total_games)`` is called as chunks finish (in submission order).
    """
    chunks = plan(list(pairs), list(players), list(variants), games, seed, chunk_size)
    pool = executor if executor is not None else InlineExecutor()
    futures = [(c, pool.submit(run_chunk, c)) for c in chunks]
    total = sum(c.stop - c.start for c in chunks)
    done = 0
    tallies: dict[tuple[str, str, int, str], Tally] = {}
    if progress is not None:
        progress(0, total)
    for c, fut in futures:
        tallies.setdefault((c.a, c.b, c.players, c.variant), Tally()).add(fut.result())
        done += c.stop - c.start
        if progress is not None:
            progress(done, total)
    rows = tuple(Row(a, b, p, v, t.games, t.wins_a, t.wins_b, t.unfinished, t.moves / t.games)
                 for (a, b, p, v), t in tallies.items())
    return StudyResult(seed, rows)


