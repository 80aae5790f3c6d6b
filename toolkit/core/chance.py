"""Seeded chance. All randomness flows from a ``numpy.random.Generator`` built from a seed.

Engines keep states immutable and JSON-serialisable, so a state does not hold a live generator; it holds a
:class:`Chance` stream: the game's seed plus how many chance events have happened. Event *n* draws from
``numpy.random.default_rng([seed, n])`` — the same seed gives the same game on every machine and a
playthrough is exactly ``(seed, moves)``.

>>> c = Chance(7)
>>> c, order = c.shuffled(range(5))
>>> c.count
1
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence, TypeVar

import numpy as np

T = TypeVar("T")


def make_rng(seed: int | Sequence[int] | None) -> np.random.Generator:
    """A Generator for ``seed`` (a whole number >= 0, or a sequence of them); ``None`` draws fresh entropy
    (only for 'new random game' buttons)."""
    if seed is not None:
        from toolkit.core.checks import check_seed
        if isinstance(seed, (list, tuple)):
            if not seed:
                raise TypeError("seed must be a whole number or a non-empty sequence of them, not ()")
            for part in seed:
                check_seed(part)
        else:
            check_seed(seed)
    return np.random.default_rng(seed)


def fresh_seed() -> int:
    """A new random seed, for UI 'new game' buttons; record it so the game can be replayed."""
    return int(np.random.default_rng().integers(0, 2**31 - 1))


@dataclass(frozen=True, slots=True)
class Chance:
    """An immutable stream of chance events: ``(seed, count)``."""

    seed: int
    count: int = 0

    def rng(self) -> tuple["Chance", np.random.Generator]:
        """The generator for the next chance event, and the advanced stream."""
        return Chance(self.seed, self.count + 1), np.random.default_rng([self.seed, self.count])

    def shuffled(self, items: Iterable[T]) -> tuple["Chance", tuple[T, ...]]:
        """A seeded shuffle of ``items`` (one chance event)."""
        nxt, rng = self.rng()
        pool = list(items)
        order = rng.permutation(len(pool)).tolist()   # Python ints: indexing by numpy ints is slow
        return nxt, tuple([pool[i] for i in order])

    def integer(self, low: int, high: int) -> tuple["Chance", int]:
        """A uniform integer in ``[low, high)`` (one chance event)."""
        nxt, rng = self.rng()
        return nxt, int(rng.integers(low, high))

    def choice(self, items: Sequence[T]) -> tuple["Chance", T]:
        """A uniform pick from a non-empty sequence (one chance event)."""
        nxt, i = self.integer(0, len(items))
        return nxt, items[i]
