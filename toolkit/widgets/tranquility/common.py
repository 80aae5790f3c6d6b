"""Shared pieces of the Tranquility views: reading URL parameters and drawing the grid as HTML."""

from __future__ import annotations

from typing import Mapping, Sequence

from toolkit.core.errors import InvalidMoveError
from toolkit.core.i18n import translate as t
from toolkit.tranquility.cards import CELLS, COLUMNS, ISLAND_MAX, ROWS
from toolkit.widgets.base import esc

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


def grid_html(cells: Sequence[int | None], lang: str, highlight: Mapping[int, str] | None = None,
              blocked_rows: Sequence[int] = ()) -> str:
    """The 6×6 grid, top row first as on the table, each cell labelled with its sequence index."""
    highlight = highlight or {}
    rows = []
    for row in reversed(range(ROWS)):
        tds = []
        for col in range(COLUMNS):
            i = row * COLUMNS + col
            v = cells[i]
            style = highlight.get(i, "")
            cls = "tranq-g-cell" + (" tranq-g-filled" if v else "") + (" tranq-g-blocked" if row in blocked_rows else "")
            tds.append(f'<td class="{cls}" data-cell="{i}" style="width:3.2em;height:2.6em;text-align:center;'
                       f'border:1px solid #8aa;{style}"><div style="font-size:1.1em;font-weight:bold">'
                       f'{esc(v) if v else ""}</div><div style="font-size:0.7em;color:#678">{i}</div></td>')
        label = esc(t("tranquility.ui.row_n", lang, row=row + 1))
        rows.append(f'<tr><th style="font-size:0.75em;color:#567;padding-right:4px">{label}</th>{"".join(tds)}</tr>')
    return f'<table class="tranq-grid" style="border-collapse:collapse">{"".join(rows)}</table>'
