"""The feasibility check: every run of empty cells needs enough unused numbers between its neighbours."""

from functools import lru_cache

import pytest
from hypothesis import given, settings, strategies as st

from toolkit.core import InvalidStateError
from toolkit.tranquility import feasibility


def test_shows_which_gap_is_impossible():
    # cells 6..8 lie between 10 (cell 5) and 14 (cell 9): they need 3 of 11, 12, 13 — and 12 is gone.
    f = feasibility({5: 10, 9: 14, 20: 50}, gone=[12])
    assert not f.feasible
    (gap,) = f.impossible
    assert (gap.first, gap.last, gap.low, gap.high, gap.available, gap.empty) == (6, 8, 10, 14, (11, 13), 3)
    (reason,) = f.reasons()
    assert reason.rule == "tranquility.analysis.feasible"
    assert "from cell 6 to cell 8" in reason.message and "between 10 and 14" in reason.message
    assert "マス6からマス8まで" in reason.text("ja")
    assert feasibility({5: 10, 9: 14, 20: 50}).feasible  # with 12 still unused it fits exactly
    assert feasibility({5: 10, 9: 14}).tightest.slack == 0


def test_edges_count_numbers_below_the_first_and_above_the_last_card():
    assert not feasibility({3: 3}).feasible  # cells 0..2 need three numbers below 3
    assert feasibility({2: 3}).feasible
    assert not feasibility({30: 77}).feasible  # cells 31..35 need five numbers above 77
    f = feasibility({}, gone=range(1, 45))  # 36 numbers left for 36 cells: exactly enough
    assert f.feasible and f.gaps[0].slack == 0


def test_empty_grid_with_too_many_gone_is_impossible():
    f = feasibility({}, gone=range(1, 46))  # 35 numbers left for 36 cells
    assert not f.feasible and f.impossible[0].empty == 36


def test_bad_input_is_refused():
    with pytest.raises(InvalidStateError):
        feasibility({1: 5}, gone=[5])
    with pytest.raises(InvalidStateError):
        feasibility({1: 5}, gone=[0])


def completable(grid: tuple[int, ...], unused: frozenset[int]) -> bool:
    """An independent brute-force search: fill the cells in sequence order with unused numbers."""
    numbers = sorted(unused)

    @lru_cache(maxsize=None)
    def go(i: int, prev: int) -> bool:
        if i == 36:
            return True
        if grid[i]:
            return grid[i] > prev and go(i + 1, grid[i])
        return any(go(i + 1, n) for n in numbers if n > prev)

    return go(0, 0)


@st.composite
def positions(draw):
    k = draw(st.integers(0, 30))
    cells = sorted(draw(st.lists(st.integers(0, 35), min_size=k, max_size=k, unique=True)))
    numbers = sorted(draw(st.lists(st.integers(1, 80), min_size=len(cells), max_size=len(cells), unique=True)))
    rest = [n for n in range(1, 81) if n not in numbers]
    gone = draw(st.lists(st.sampled_from(rest), unique=True, max_size=len(rest))) if rest else []
    return dict(zip(cells, numbers)), gone


@settings(max_examples=60, deadline=None)
@given(positions())
def test_feasibility_agrees_with_a_search(position):
    cells, gone = position
    grid = tuple(cells.get(i, 0) for i in range(36))
    unused = frozenset(set(range(1, 81)) - set(cells.values()) - set(gone))
    found = completable(grid, unused)
    verdict = feasibility(cells, gone)
    assert verdict.feasible == found  # never "impossible" for a grid the search completes, and vice versa
    if not found:
        assert verdict.impossible
