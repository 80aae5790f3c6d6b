"""Shared pieces of the Tranquility views: reading URL parameters and drawing the grid as HTML."""

from __future__ import annotations

from typing import Mapping

from toolkit.core.errors import InvalidMoveError
from toolkit.tranquility.cards import CELLS, ISLAND_MAX

MAX_QUERY_CELLS = 36


def parse_cells(text: str) -> dict[int, int]:
    """``"2:3,4:7"`` -> ``{2: 3, 4: 7}`` (untrusted URL text: every part is checked)."""
    cells: dict[int, int] = {}
    if not text.strip():
        return cells
    for part in text.split(",")[:MAX_QUERY_CELLS]:
        index, sep, number = part.partition(":")
        if not sep or not index.strip().isdigit() or not number.strip().isdigit():
            raise InvalidMoveError(f"cells: {part[:20]!r} is not 'cell:number'")
        i, n = int(index), int(number)
        if not 0 <= i < CELLS or not 1 <= n <= ISLAND_MAX:
            raise InvalidMoveError(f"cells: {part[:20]!r} is out of range (cells 0-35, islands 1-80)")
        cells[i] = n
    return cells


def format_cells(cells: Mapping[int, int]) -> str:
    return ",".join(f"{i}:{n}" for i, n in sorted(cells.items()))


def int_param(params: Mapping[str, str], name: str, default: int, low: int, high: int) -> int:
    """An integer URL parameter clamped to [low, high]; anything unreadable gives the default."""
    raw = params.get(name, "")
    try:
        value = int(raw)
    except (TypeError, ValueError):
        return default
    return min(max(value, low), high)


