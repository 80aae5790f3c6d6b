"""Feasibility: can the grid still be completed from the numbers not yet placed or discarded?

Each maximal run of empty cells is a *gap* between the card below it (``low``, or 0 before the first
card) and the card above it (``high``, or 81 after the last). A gap of ``k`` empty cells needs ``k`` unused
numbers strictly between ``low`` and ``high``. Gaps are independent (any chosen numbers can be laid out
in ascending order inside their gap), so the grid can be completed — ignoring who holds which card and
what it costs — exactly when every gap has enough numbers. That makes the check both necessary and
sufficient for the numbers alone, which the property tests verify against a brute-force search.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping, Sequence

from toolkit.core.errors import InvalidStateError
from toolkit.core.explain import Violation
from toolkit.tranquility.cards import CELLS, ISLAND_MAX, ISLANDS, is_island
from toolkit.tranquility.grid import cell_params, to_grid

RULE = "tranquility.analysis.feasible"


@dataclass(frozen=True)
class Gap:
    """A run of empty cells ``first..last`` between the numbers ``low`` and ``high``."""

    first: int
    last: int
    low: int
    high: int
    available: tuple[int, ...]

    @property
    def empty(self) -> int:
        return self.last - self.first + 1

    @property
    def slack(self) -> int:
        """Spare numbers: how many more could be discarded before the gap becomes impossible."""
        return len(self.available) - self.empty

    @property
    def ok(self) -> bool:
        return self.slack >= 0

    def violation(self) -> Violation:
        """Why this gap cannot be filled (names its cells and bounds)."""
        start, end = cell_params(self.first), cell_params(self.last)
        return Violation("TRANQ_GAP_IMPOSSIBLE", RULE, first=self.first, last=self.last, empty=self.empty,
                         low=self.low if self.low else "-", high=self.high if self.high <= ISLAND_MAX else "-",
                         available=len(self.available), first_row=start["row"], last_row=end["row"])


@dataclass(frozen=True)
class Feasibility:
    gaps: tuple[Gap, ...]

    @property
    def feasible(self) -> bool:
        return all(g.ok for g in self.gaps)

    @property
    def impossible(self) -> tuple[Gap, ...]:
        return tuple(g for g in self.gaps if not g.ok)

    @property
    def tightest(self) -> Gap | None:
        return min(self.gaps, key=lambda g: (g.slack, g.first)) if self.gaps else None

    def reasons(self) -> list[Violation]:
        return [g.violation() for g in self.impossible]

    def __bool__(self) -> bool:
        return self.feasible


def feasibility(cells: Mapping[int, int] | Sequence[int], gone: Iterable[int] = ()) -> Feasibility:
    """Check the grid ``cells`` ({index: number}) given the numbers known to be ``gone`` (discarded,
    destroyed or removed). Returns every gap with the numbers still available to it.

    >>> f = feasibility({0: 1, 3: 3})          # two empty cells between 1 and 3, only 2 fits
    >>> f.feasible, [(g.first, g.last) for g in f.impossible]
    (False, [(1, 2)])
    """
    grid = to_grid(cells)
    if isinstance(gone, (str, bytes, Mapping)) or not isinstance(gone, Iterable):
        raise InvalidStateError(f"gone must be a list of island numbers 1-80, not {gone!r:.60}")
    gone_set = set()
    for n in gone:
        if isinstance(n, bool) or not isinstance(n, int) or not is_island(n):
            raise InvalidStateError(f"gone: {n!r} is not an island number 1-80")
        gone_set.add(n)
    placed = {v for v in grid if v}
    both = sorted(placed & gone_set)
    if both:
        raise InvalidStateError(f"gone: {', '.join(map(str, both))} cannot be both on the grid and gone")
    unused = [n for n in ISLANDS if n not in placed and n not in gone_set]
    gaps = []
    i = 0
    low = 0
    while i < CELLS:
        if grid[i]:
            low = grid[i]
            i += 1
            continue
        j = i
        while j + 1 < CELLS and not grid[j + 1]:
            j += 1
        high = grid[j + 1] if j + 1 < CELLS else ISLAND_MAX + 1
        gaps.append(Gap(i, j, low, high, tuple(n for n in unused if low < n < high)))
        i = j + 1
    return Feasibility(tuple(gaps))
