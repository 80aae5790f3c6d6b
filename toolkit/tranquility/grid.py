"""The 6×6 sea grid as a sequence: placement order, costs and the public placement API.

Cells are indexed 0–35 in *sequence order*: 0 is bottom-left, 5 bottom-right, 6 the second row's left end,
35 top-right. Because the index is the sequence position, "neighbour in the sequence" is simply index ± 1:
the end of one row (5) neighbours the start of the next (6), while cells stacked above each other (0 and 6)
are not neighbours — exactly the rule's 「位置的な隣接は含みません」.

Internally a grid is a 36-tuple with 0 for an empty cell (fast, hashable). The public functions
:func:`placement_cost` and :func:`why_illegal_placement` take the documented form, a mapping
``{occupied index: island number}``, and also accept a 36-long sequence.
"""

from __future__ import annotations

from bisect import bisect_left
from typing import Any, Mapping, Sequence

from toolkit.core.errors import IllegalMoveError, InvalidMoveError, InvalidStateError
from toolkit.core.checks import one_of
from toolkit.core.explain import Violation
from toolkit.tranquility.cards import CELLS, COLUMNS, ISLAND_MAX, ISLAND_MIN

EMPTY = 0
Grid = tuple  # tuple[int, ...] of length 36, 0 = empty

RULE_ORDER = "tranquility.place.ascending"
RULE_COST = "tranquility.place.cost"
RULE_LIMIT = "tranquility.place.cost-limit"
RULE_LIMIT_LITERAL = "tranquility.place.cost-limit-literal"

#: the two readings of the cost limit (option ``cost_limit``): "english" (the English rulebook v1.0: at most
#: the cards left in hand after playing) and "japanese" (the Japanese text taken literally: 「4枚以上」 is
#: refused, so at most 3 discards, and never more than the cards left)
COST_LIMITS = ("english", "japanese")
LITERAL_MAX_COST = 3
RULE_EMPTY = "tranquility.place.empty-cell"


def cell_params(cell: int) -> dict[str, int]:
    """Message parameters naming a cell for people: index plus 1-based row (from the bottom) and column."""
    return {"cell": cell, "row": cell // COLUMNS + 1, "column": cell % COLUMNS + 1}


def check_index(index: Any) -> int:
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < CELLS:
        raise InvalidMoveError(f"no cell {index!r}: cells are numbered 0 (bottom-left) to 35 (top-right)")
    return index


def check_number(number: Any) -> int:
    if isinstance(number, bool) or not isinstance(number, int) or not ISLAND_MIN <= number <= ISLAND_MAX:
        raise InvalidMoveError(f"no island {number!r}: island cards are numbered 1 to 80")
    return number


def to_grid(cells: Mapping[int, int] | Sequence[int | None]) -> Grid:
    """The documented ``{index: number}`` form (or a 36-long sequence) as an internal 36-tuple."""
    grid = [EMPTY] * CELLS
    if isinstance(cells, Mapping):
        items = cells.items()
    elif isinstance(cells, (list, tuple)) and len(cells) == CELLS:
        # "is"/type first: an array in a cell would make ``v in (None, EMPTY)`` ambiguous
        items = ((i, v) for i, v in enumerate(cells) if not (v is None or (type(v) is int and v == EMPTY)))
    else:
        raise InvalidStateError("cells must map occupied cell indices 0-35 to island numbers 1-80 "
                                f"(or list all 36 cells), not {type(cells).__name__}")
    for index, number in items:
        try:
            check_index(index)
            check_number(number)
        except InvalidMoveError as exc:
            raise InvalidStateError(f"cells[{index!r}]: {exc}") from None
        grid[index] = number
    return tuple(grid)


def check_ascending(grid: Sequence[int]) -> None:
    """:class:`InvalidStateError` naming the first pair of cards out of sequence order."""
    previous, where = 0, None
    for i, v in enumerate(grid):
        if v:
            if v <= previous:
                raise InvalidStateError(f"cells are not ascending: {previous} in cell {where} comes before "
                                        f"{v} in cell {i}")
            previous, where = v, i


def grid_to_cells(grid: Sequence[int]) -> dict[int, int]:
    return {i: v for i, v in enumerate(grid) if v}


def neighbours(grid: Sequence[int], index: int) -> tuple[int | None, int | None]:
    """The occupied sequence neighbours of ``index``: (cell before, cell after), ``None`` where empty/absent."""
    if not isinstance(grid, (tuple, list)) or len(grid) != CELLS:
        raise InvalidStateError(f"grid must list all {CELLS} cells, not {grid!r:.60}")
    check_index(index)
    before = index - 1 if index > 0 and grid[index - 1] else None
    after = index + 1 if index < CELLS - 1 and grid[index + 1] else None
    return before, after


def order_conflict(grid: Sequence[int], index: int, number: int) -> int | None:
    """A cell whose card would be out of ascending order with ``number`` at ``index`` (nearest first), else None.

    Checks the whole grid, not just the neighbours: a 50 placed at cell 3 conflicts with a 40 at cell 30
    even if every cell between is empty.
    """
    for i in range(index - 1, -1, -1):
        if grid[i]:
            if grid[i] >= number:
                return i
            break
    for i in range(index + 1, CELLS):
        if grid[i]:
            if grid[i] <= number:
                return i
            break
    # The nearest cards on both sides are in order; a conflict further out would mean the grid itself was
    # already out of order, which the caller treats as the same break (the result is not ascending).
    previous = 0
    for i in range(CELLS):
        value = number if i == index else grid[i]
        if value:
            if value <= previous:
                return i
            previous = value
    return None


def raw_cost(grid: Sequence[int], index: int, number: int) -> int:
    """Discards owed for ``number`` at empty ``index`` (no checks): difference to the one sequence neighbour,
    the smaller difference when between two cards, 0 when alone."""
    before = grid[index - 1] if index > 0 else 0
    after = grid[index + 1] if index < CELLS - 1 else 0
    if before and after:
        return min(number - before, after - number)
    if before:
        return number - before
    if after:
        return after - number
    return 0


def placement_violation(grid: Sequence[int], index: int, number: int) -> Violation | None:
    """Occupied cell or broken order, as a Violation (cost limit not included)."""
    if grid[index]:
        return Violation("TRANQ_CELL_OCCUPIED", RULE_EMPTY, number=number, occupant=grid[index],
                         **cell_params(index))
    conflict = order_conflict(grid, index, number)
    if conflict is not None:
        other = cell_params(conflict)
        code = "TRANQ_ORDER_BEFORE" if conflict < index else "TRANQ_ORDER_AFTER"
        return Violation(code, RULE_ORDER, number=number, other=grid[conflict], other_cell=conflict,
                         other_row=other["row"], other_column=other["column"], **cell_params(index))
    return None


def placement_cost(cells: Mapping[int, int] | Sequence[int], index: int, number: int) -> int:
    """How many cards must be discarded to place island ``number`` at cell ``index``.

    The difference to the neighbouring card in the sequence, or the smaller of the two differences when
    the cell lies between two cards; 0 with no neighbour. Raises :class:`IllegalMoveError` if the cell is
    occupied or the ascending order would break anywhere in the grid, :class:`InvalidMoveError` for an
    index or number out of range.

    >>> placement_cost({2: 3, 4: 7}, 3, 6)   # the help page's example: a 6 between 3 and 7 costs 1
    1
    """
    check_index(index)
    check_number(number)
    grid = to_grid(cells)
    violation = placement_violation(grid, index, number)
    if violation is not None:
        raise IllegalMoveError(violation)
    return raw_cost(grid, index, number)


def max_cost(remaining: int, cost_limit: str = "english") -> int:
    """The largest cost a player may pay with ``remaining`` cards left in hand after playing.

    >>> max_cost(4), max_cost(4, "japanese"), max_cost(2, "japanese")
    (4, 3, 2)
    """
    return min(remaining, LITERAL_MAX_COST) if cost_limit == "japanese" else remaining


def check_cost_limit(cost_limit: Any) -> str:
    if not one_of(cost_limit, COST_LIMITS):
        raise InvalidMoveError(f"cost_limit={cost_limit!r}: use 'english' (at most the cards left in hand) or "
                               "'japanese' (the Japanese text's literal reading: at most 3)")
    return cost_limit


def cost_limit_violation(cost: int, index: int, number: int, remaining: int,
                         cost_limit: str = "english") -> Violation | None:
    """Refuse a cost above the cards left in hand after playing (both readings); with the Japanese text's
    literal reading (``cost_limit="japanese"``) also a cost of 4 or more."""
    if cost > remaining:
        return Violation("TRANQ_COST_LIMIT", RULE_LIMIT, number=number, cost=cost, remaining=remaining,
                         **cell_params(index))
    if cost_limit == "japanese" and cost > LITERAL_MAX_COST:
        return Violation("TRANQ_COST_LIMIT_LITERAL", RULE_LIMIT_LITERAL, number=number, cost=cost,
                         most=LITERAL_MAX_COST, **cell_params(index))
    return None


def why_illegal_placement(cells: Mapping[int, int] | Sequence[int], index: int, number: int,
                          hand_size: int = 5, cost_limit: str = "english") -> Violation | None:
    """``None`` if ``number`` may go to ``index``, else the Violation (occupied, order, or cost limit).

    ``hand_size`` counts the played card, so the cost may be at most ``hand_size - 1`` (the rulebook's
    "more than the four cards remaining"). ``cost_limit="japanese"`` applies the Japanese text's literal
    reading instead (「4枚以上」 refused: at most 3). Out-of-range index/number/hand size/reading raise
    :class:`InvalidMoveError`.

    >>> why_illegal_placement({0: 10}, 1, 14) is None
    True
    >>> why_illegal_placement({0: 10}, 1, 14, cost_limit="japanese").code
    'TRANQ_COST_LIMIT_LITERAL'
    """
    check_index(index)
    check_number(number)
    if isinstance(hand_size, bool) or not isinstance(hand_size, int) or hand_size < 1:
        raise InvalidMoveError(f"hand_size {hand_size!r} must be a whole number of at least 1 (it counts the played card)")
    check_cost_limit(cost_limit)
    grid = to_grid(cells)
    violation = placement_violation(grid, index, number)
    if violation is not None:
        return violation
    return cost_limit_violation(raw_cost(grid, index, number), index, number, hand_size - 1, cost_limit)


# ---- fast queries for engines and bots ------------------------------------------------------------

def open_range(grid: Sequence[int], number: int) -> tuple[int, int]:
    """The run of empty cells where ``number`` may go: ``(first, last)`` inclusive; ``first > last`` if none.

    The cards on the grid ascend, so the legal cells for ``number`` are exactly the empty cells strictly
    between the last card below it and the first card above it. This rescans the 36 cells; the bots use the
    incremental :class:`SortedLine` instead (``benchmarks/tranquility_speed.py`` compares the two).
    """
    low = -1
    high = CELLS
    for i in range(CELLS):
        value = grid[i]
        if value:
            if value < number:
                low = i
            else:
                high = i
                break
    if high < CELLS and grid[high] == number:
        return 1, 0
    return low + 1, high - 1


class SortedLine:
    """Incremental index of the placed cards (cells and numbers, both ascending) for O(log n) lookups.

    The bots and the study keep one per game instead of rescanning 36 cells per candidate card.
    """

    __slots__ = ("cells", "numbers")

    def __init__(self, grid: Sequence[int] = ()):
        self.cells: list[int] = [i for i, v in enumerate(grid) if v]
        self.numbers: list[int] = [grid[i] for i in self.cells]

    def add(self, cell: int, number: int) -> None:
        k = bisect_left(self.cells, cell)
        self.cells.insert(k, cell)
        self.numbers.insert(k, number)

    def remove(self, cell: int) -> None:
        k = bisect_left(self.cells, cell)
        del self.cells[k]
        del self.numbers[k]

    def bracket(self, number: int) -> tuple[int, int, int, int]:
        """``(low_cell, low_number, high_cell, high_number)`` around ``number``; -1/0 and 36/81 at the ends."""
        k = bisect_left(self.numbers, number)
        if k < len(self.numbers) and self.numbers[k] == number:
            return 0, 0, 0, 0  # already placed: no room (high_cell - low_cell <= 1)
        low_cell, low_number = (self.cells[k - 1], self.numbers[k - 1]) if k else (-1, 0)
        high_cell, high_number = (self.cells[k], self.numbers[k]) if k < len(self.cells) else (CELLS, ISLAND_MAX + 1)
        return low_cell, low_number, high_cell, high_number
