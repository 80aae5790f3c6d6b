"""A seeded Monte Carlo win-rate study of the bots, by strategy, player count and island-removal variant.

Work is cut into chunks of games and handed to anything shaped like :class:`concurrent.futures.Executor`
(``submit(fn, *args)`` returning a future with ``result()``): ``None`` runs in this process, a
``ProcessPoolExecutor`` uses the machine's cores, and a Dask ``distributed.Client`` (``pip install
"deep-sea-rules-lab[dask]"``) spreads the same chunks over a cluster when one machine is not enough.

Every game's seed is derived from the study seed and the game's coordinates (strategy, players, variant,
index) with :class:`numpy.random.SeedSequence` — never from which worker ran it or in which order — so
every executor and every chunk size gives exactly the same numbers.
"""

from __future__ import annotations

import zlib
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Sequence

import numpy as np

from toolkit.core.errors import InvalidStateError
from toolkit.core.studies import InlineExecutor, process_pool, wilson  # noqa: F401 - process_pool re-exported
from toolkit.tranquility.model import REMOVAL_VARIANTS
from toolkit.tranquility.sim import STRATEGIES, play

#: Win rates a public two-player implementation reports for its bots (data/README.md). Its bots and
#: rule details differ from ours (tie-breaks, discard choice, the 0–1 card loss), so these are a
#: reference point, not a target.
REFERENCE_2P = {"greedy": 0.07, "feasibility": 0.26}

MAX_GAMES = 200_000


def _stable(text: str) -> int:
    return zlib.crc32(text.encode("utf-8"))


def game_seed(seed: int, strategy: str, players: int, variant: str, index: int) -> int:
    """The seed of one game of the study, independent of how the study is split or run."""
    ss = np.random.SeedSequence([seed, _stable(strategy), players, _stable(variant), index])
    return int(ss.generate_state(1, dtype=np.uint32)[0])


@dataclass(frozen=True)
class Chunk:
    strategy: str
    players: int
    variant: str
    seed: int
    start: int
    stop: int
    short_hand_loss: bool = True


@dataclass
class Tally:
    """Results of a block of games (chunks add up)."""

    games: int = 0
    wins: int = 0
    turns: int = 0
    filled: int = 0
    codes: Counter = field(default_factory=Counter)

    def add(self, other: "Tally") -> None:
        self.games += other.games
        self.wins += other.wins
        self.turns += other.turns
        self.filled += other.filled
        self.codes.update(other.codes)


def run_chunk(chunk: Chunk) -> Tally:
    """Play one chunk (a top-level function so process pools and Dask can pickle it)."""
    strategy = STRATEGIES[chunk.strategy]()
    tally = Tally()
    for i in range(chunk.start, chunk.stop):
        r = play(strategy, game_seed(chunk.seed, chunk.strategy, chunk.players, chunk.variant, i),
                 chunk.players, chunk.variant, chunk.short_hand_loss)
        tally.games += 1
        tally.wins += r.won
        tally.turns += r.turns
        tally.filled += r.filled
        tally.codes[r.code] += 1
    return tally


@dataclass(frozen=True)
class Row:
    strategy: str
    players: int
    variant: str
    games: int
    wins: int
    mean_turns: float
    mean_filled: float
    codes: tuple[tuple[str, int], ...]

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    def interval(self, z: float = 1.96) -> tuple[float, float]:
        """Wilson score interval for the win rate (95% by default)."""
        return wilson(self.wins, self.games, z)


@dataclass(frozen=True)
class StudyResult:
    seed: int
    rows: tuple[Row, ...]

    def row(self, strategy: str, players: int, variant: str = "none") -> Row:
        for r in self.rows:
            if (r.strategy, r.players, r.variant) == (strategy, players, variant):
                return r
        raise KeyError((strategy, players, variant))

    def table(self) -> str:
        """A plain-text table (what the notebooks print and nbval compares)."""
        lines = [f"{'strategy':<12} {'players':>7} {'variant':<11} {'games':>6} {'win rate':>8}  95% interval"]
        for r in self.rows:
            lo, hi = r.interval()
            lines.append(f"{r.strategy:<12} {r.players:>7} {r.variant:<11} {r.games:>6} {r.win_rate:>8.1%}  "
                         f"{lo:.1%}–{hi:.1%}")
        return "\n".join(lines)


def plan(strategies: Sequence[str], players: Sequence[int], variants: Sequence[str], games: int, seed: int,
         chunk_size: int, short_hand_loss: bool = True) -> list[Chunk]:
    """Validate the study's parameters and cut it into chunks (in a fixed order)."""
    for s in strategies:
        if s not in STRATEGIES:
            raise InvalidStateError(f"unknown strategy {s!r}: use {', '.join(STRATEGIES)}")
    for p in players:
        if isinstance(p, bool) or not isinstance(p, int) or not 1 <= p <= 5:
            raise InvalidStateError(f"players={p!r}: Tranquility is for 1 to 5 players")
    for v in variants:
        if v not in REMOVAL_VARIANTS:
            raise InvalidStateError(f"unknown variant {v!r}: use {', '.join(REMOVAL_VARIANTS)}")
    if isinstance(games, bool) or not isinstance(games, int) or not 1 <= games <= MAX_GAMES:
        raise InvalidStateError(f"games={games!r}: 1 to {MAX_GAMES} per combination")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise InvalidStateError(f"seed={seed!r} must be a whole number ≥ 0")
    if isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size < 1:
        raise InvalidStateError(f"chunk_size={chunk_size!r} must be at least 1")
    chunks = []
    for s in strategies:
        for p in players:
            for v in variants:
                for start in range(0, games, chunk_size):
                    chunks.append(Chunk(s, p, v, seed, start, min(games, start + chunk_size), short_hand_loss))
    return chunks


def run_study(strategies: Sequence[str] = ("greedy", "feasibility"), players: Sequence[int] = (2,),
              variants: Sequence[str] = ("none",), games: int = 200, seed: int = 0, executor: Any = None,
              chunk_size: int = 50, progress: Callable[[int, int], None] | None = None,
              short_hand_loss: bool = True) -> StudyResult:
    """Play ``games`` games for every (strategy, players, variant) and return win rates with intervals.

    ``executor``: ``None`` (this process), a ``concurrent.futures`` executor, or a Dask client.
    ``progress(done_games, total_games)`` is called as chunks finish (in submission order).
    """
    chunks = plan(list(strategies), list(players), list(variants), games, seed, chunk_size, short_hand_loss)
    pool = executor if executor is not None else InlineExecutor()
    futures = [(c, pool.submit(run_chunk, c)) for c in chunks]
    total = sum(c.stop - c.start for c in chunks)
    done = 0
    tallies: dict[tuple[str, int, str], Tally] = {}
    if progress is not None:
        progress(0, total)
    for c, fut in futures:
        tally = fut.result()
        tallies.setdefault((c.strategy, c.players, c.variant), Tally()).add(tally)
        done += c.stop - c.start
        if progress is not None:
            progress(done, total)
    rows = []
    for (s, p, v), t in tallies.items():
        rows.append(Row(s, p, v, t.games, t.wins, t.turns / t.games, t.filled / t.games,
                        tuple(sorted(t.codes.items()))))
    return StudyResult(seed, tuple(rows))


def available_strategies() -> Iterable[str]:
    return tuple(STRATEGIES)
