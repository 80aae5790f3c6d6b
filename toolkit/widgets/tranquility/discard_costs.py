"""The discard-cost explainer: pick a cell and a number, see the sequence neighbours, the cost and why.

Everything shown comes from the public API (:func:`placement_cost`, :func:`why_illegal_placement`,
:func:`feasibility`); the view only keeps the sandbox grid. URL parameters (a teacher's shared link):
``cells=2:3,4:7`` (the grid), ``cell=3``, ``number=6``, ``hand=5``, ``limit=japanese`` (the cost limit's
reading: ``english``, the default, or the Japanese text's literal ``japanese``; the view says which plays the
two readings judge differently).
"""

from __future__ import annotations

from typing import Any, Mapping

import ipywidgets as widgets

from toolkit.core.errors import InvalidMoveError, RuleError
from toolkit.tranquility import feasibility, neighbours, why_illegal_placement
from toolkit.tranquility.cards import CELLS, COLUMNS, ISLAND_MAX, ROWS
from toolkit.tranquility.grid import (COST_LIMITS, check_ascending, max_cost, placement_violation, raw_cost,
                                      to_grid)
from toolkit.widgets.base import View, esc, explain_html, query_params, safe_callback
from toolkit.widgets.tranquility.common import format_cells, int_param, parse_cells

#: the help page's example: a 6 between 3 and 7 costs 1
EXAMPLE = {"cells": {2: 3, 4: 7}, "cell": 3, "number": 6}


class DiscardCostView(View):
    """A clickable 6×6 grid (top row shown first, as on the table) and the cost explanation."""

    def __init__(self, cells: Mapping[int, int] | None = None, cell: int | None = None, number: int | None = None,
                 hand_size: int = 5, cost_limit: str = "english", lang: str = "en", query: str | None = None,
                 **kwargs: Any):
        super().__init__(lang=lang, **kwargs)
        self.add_class("tranq-costs")
        params = query_params(query)
        start_cells = dict(EXAMPLE["cells"]) if cells is None else dict(cells)
        notes = []
        if "cells" in params:
            try:
                start_cells = parse_cells(params["cells"])
            except InvalidMoveError as exc:
                notes.append(exc)
        try:
            check_ascending(to_grid(start_cells))
        except RuleError as exc:
            notes.append(exc)
            start_cells = dict(EXAMPLE["cells"])
        self._cells: dict[int, int] = start_cells
        self._cell = int_param(params, "cell", EXAMPLE["cell"] if cell is None else cell, 0, CELLS - 1)
        self._title = widgets.HTML()
        self._intro = widgets.HTML()
        self._buttons: list[widgets.Button] = [None] * CELLS  # type: ignore[list-item]
        rows = []
        for row in reversed(range(ROWS)):
            line = []
            for col in range(COLUMNS):
                i = row * COLUMNS + col
                b = widgets.Button(layout=widgets.Layout(width="4.2em", height="3em", margin="1px"))
                b.add_class("tranq-cell")
                b.add_class(f"tranq-cell-{i}")
                b.on_click(self._make_pick(i))
                self._buttons[i] = b
                line.append(b)
            rows.append(widgets.HBox(line))
        self._number = widgets.BoundedIntText(min=1, max=ISLAND_MAX, layout=widgets.Layout(width="14em"))
        self._number.add_class("tranq-number")
        self._number.value = int_param(params, "number", EXAMPLE["number"] if number is None else number, 1, ISLAND_MAX)
        self._hand = widgets.IntSlider(min=1, max=5, value=int_param(params, "hand", hand_size, 1, 5),
                                       continuous_update=False)
        self._hand.add_class("tranq-hand-size")
        reading = params.get("limit", cost_limit)
        if reading not in COST_LIMITS:
            notes.append(InvalidMoveError(f"limit={reading!r}: use 'english' or 'japanese'"))
            reading = "english"
        self._limit = widgets.ToggleButtons(options=[("", r) for r in COST_LIMITS], value=reading)
        self._limit.add_class("tranq-limit")
        self._limit_note = widgets.HTML()
        self._limit_note.add_class("tranq-limit-note")
        self._place = widgets.Button(button_style="primary")
        self._place.add_class("tranq-place")
        self._clear = widgets.Button()
        self._clear.add_class("tranq-clear")
        self._reset = widgets.Button()
        self._reset.add_class("tranq-reset")
        self._explain = widgets.HTML()
        self._explain.add_class("tranq-explain")
        self._verdict = widgets.HTML()
        self._verdict.add_class("tranq-verdict")
        self._feasible = widgets.HTML()
        self._feasible.add_class("tranq-feasible")
        self._link = widgets.HTML()
        self._link.add_class("tranq-link")
        self._number.observe(self._on_change, "value")
        self._hand.observe(self._on_change, "value")
        self._limit.observe(self._on_change, "value")
        self._place.on_click(self._on_place)
        self._clear.on_click(self._on_clear)
        self._reset.on_click(self._on_reset)
        self._finish([self._title, self._intro, widgets.VBox(rows),
                      widgets.HBox([self._number, self._hand]), self._limit, self._limit_note,
                      widgets.HBox([self._place, self._clear, self._reset]),
                      self._explain, self._verdict, self._feasible, self._link])
        for note in notes:
            self.report(note, error=True)
        self.refresh()

    # ---- callbacks (untrusted input: every value is checked before use) ---------------------------
    def _make_pick(self, index: int):
        @safe_callback
        def pick(view: "DiscardCostView", _button: Any = None) -> None:
            view._cell = index
            view.clear_report()
            view.refresh()

        return lambda button: pick(self, button)

    def _current_number(self) -> int:
        value = self._number.value
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= ISLAND_MAX:
            raise InvalidMoveError(f"no island {value!r}: island cards are numbered 1 to 80")
        return value

    def _current_limit(self) -> str:
        value = self._limit.value
        if value not in COST_LIMITS:
            raise InvalidMoveError(f"cost limit {value!r}: use 'english' or 'japanese'")
        return value

    def _current_hand(self) -> int:
        value = self._hand.value
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 5:
            raise InvalidMoveError(f"hand size {value!r} must be 1 to 5")
        return value

    @safe_callback
    def _on_change(self, _change: Any = None) -> None:
        self.clear_report()
        self.refresh()

    @safe_callback
    def _on_place(self, _button: Any = None) -> None:
        number = self._current_number()
        verdict = why_illegal_placement(self._cells, self._cell, number, self._current_hand(), self._current_limit())
        if verdict is not None and verdict.rule not in ("tranquility.place.cost-limit",
                                                        "tranquility.place.cost-limit-literal"):
            self.report(verdict, error=True)
            return
        # The sandbox accepts any in-order card, even one too dear for this hand, so a teacher can build
        # any position; the verdict line still says whether a player could afford it.
        self._cells[self._cell] = number
        self.clear_report()
        self.refresh()

    @safe_callback
    def _on_clear(self, _button: Any = None) -> None:
        self._cells.pop(self._cell, None)
        self.clear_report()
        self.refresh()

    @safe_callback
    def _on_reset(self, _button: Any = None) -> None:
        self._cells = dict(EXAMPLE["cells"])
        self._cell = EXAMPLE["cell"]
        self._limit.value = "english"
        self._number.value = EXAMPLE["number"]
        self.clear_report()
        self.refresh()

    # ---- rendering --------------------------------------------------------------------------------
    def refresh(self) -> None:
        lang = self.lang
        self._title.value = f"<h3>{esc(self.t('tranquility.ui.costs_title'))}</h3>"
        self._intro.value = f"<p>{esc(self.t('tranquility.ui.costs_intro'))}</p>"
        self._number.description = self.t("tranquility.ui.number")
        self._hand.description = self.t("tranquility.ui.hand_size")
        self._place.description = self.t("tranquility.ui.place")
        self._clear.description = self.t("tranquility.ui.clear_cell")
        self._reset.description = self.t("tranquility.ui.reset_example")
        self._limit.description = self.t("tranquility.ui.limit")
        reading = self._current_limit()
        labelled = tuple((self.t(f"tranquility.ui.limit_{r}"), r) for r in COST_LIMITS)
        if tuple(self._limit.options) != labelled:  # relabelling resets the value, so keep it
            self._limit.unobserve(self._on_change, "value")
            self._limit.options = labelled
            self._limit.value = reading
            self._limit.observe(self._on_change, "value")
        grid = to_grid(self._cells)
        try:
            number = self._current_number()
        except InvalidMoveError:
            number = None
        before, after = neighbours(grid, self._cell)
        for i, b in enumerate(self._buttons):
            b.description = str(grid[i]) if grid[i] else f"·{i}"
            b.tooltip = self.t("tranquility.ui.cell_tip", cell=i, row=i // COLUMNS + 1, column=i % COLUMNS + 1)
            b.button_style = "warning" if i == self._cell else ("info" if i in (before, after) else "")
        self._explain.value = self._explanation(grid, number, before, after)
        if number is None:
            self._verdict.value = ""
        else:
            verdict = why_illegal_placement(self._cells, self._cell, number, self._current_hand(), reading)
            if verdict is None:
                self._verdict.value = (f'<div class="tranq-ok" style="color:#11683a">✔ '
                                       f'{esc(self.t("tranquility.ui.legal", number=number, cell=self._cell))}</div>')
            else:
                self._verdict.value = f'<div class="tranq-illegal" style="color:#b30">✘ {explain_html(verdict, lang)}</div>'
        self._limit_note.value = self._limit_difference(grid, number)
        report = feasibility(self._cells)
        if report.feasible:
            self._feasible.value = f'<div>{esc(self.t("tranquility.ui.feasible_ok"))}</div>'
        else:
            self._feasible.value = "".join(f'<div class="tranq-gap-bad" style="color:#b30">{explain_html(v, lang)}</div>'
                                           for v in report.reasons())
        query = f"?cells={format_cells(self._cells)}&cell={self._cell}" + (f"&number={number}" if number else "")
        if reading != "english":
            query += f"&limit={reading}"
        self._link.value = f'<small>{esc(self.t("tranquility.ui.share"))} <code>{esc(query)}</code></small>'

    def _explanation(self, grid: tuple[int, ...], number: int | None, before: int | None, after: int | None) -> str:
        cell = self._cell
        lines = [self.t("tranquility.ui.selected", cell=cell, row=cell // COLUMNS + 1, column=cell % COLUMNS + 1)]
        if cell % COLUMNS == 0 and cell > 0:
            lines.append(self.t("tranquility.ui.wrap_start", cell=cell, prev=cell - 1))
        if cell % COLUMNS == COLUMNS - 1 and cell < CELLS - 1:
            lines.append(self.t("tranquility.ui.wrap_end", cell=cell, next=cell + 1))
        if cell >= COLUMNS:
            lines.append(self.t("tranquility.ui.not_above", below=cell - COLUMNS, cell=cell))
        if grid[cell]:
            lines.append(self.t("tranquility.ui.occupied", number=grid[cell]))
            return "<ul>" + "".join(f"<li>{esc(x)}</li>" for x in lines) + "</ul>"
        if before is None and after is None:
            lines.append(self.t("tranquility.ui.no_neighbour"))
        if number is not None and not grid[cell]:
            diffs = []
            if before is not None:
                diffs.append(abs(number - grid[before]))
                lines.append(self.t("tranquility.ui.neighbour_before", cell=before, value=grid[before],
                                    diff=abs(number - grid[before])))
            if after is not None:
                diffs.append(abs(grid[after] - number))
                lines.append(self.t("tranquility.ui.neighbour_after", cell=after, value=grid[after],
                                    diff=abs(grid[after] - number)))
            if len(diffs) == 2:
                lines.append(self.t("tranquility.ui.smaller", cost=min(diffs)))
            if placement_violation(grid, cell, number) is None:
                cost = raw_cost(grid, cell, number)
                lines.append(self.t("tranquility.ui.cost", number=number, cost=cost,
                                    limit=max_cost(self._current_hand() - 1, self._current_limit())))
        return "<ul class='tranq-lines'>" + "".join(f"<li>{esc(x)}</li>" for x in lines) + "</ul>"

    def _limit_difference(self, grid: tuple[int, ...], number: int | None) -> str:
        """What the two readings of the cost limit say about the play shown: the same, or (a cost of exactly
        4 with a full hand) allowed by the English rulebook and refused by the Japanese text read literally."""
        hand = self._current_hand()
        lines = [self.t("tranquility.ui.limit_explain", english=max_cost(hand - 1, "english"),
                        japanese=max_cost(hand - 1, "japanese"))]
        if number is not None and not grid[self._cell] and placement_violation(grid, self._cell, number) is None:
            cost = raw_cost(grid, self._cell, number)
            ok = {r: why_illegal_placement(self._cells, self._cell, number, hand, r) is None for r in COST_LIMITS}
            key = "limit_differ" if ok["english"] != ok["japanese"] else "limit_agree"
            lines.append(self.t(f"tranquility.ui.{key}", cost=cost))
            css = "tranq-limit-differ" if key == "limit_differ" else "tranq-limit-agree"
            return (f'<div class="{css}">' + "".join(f"<div>{esc(x)}</div>" for x in lines) + "</div>")
        return "<div>" + "".join(f"<div>{esc(x)}</div>" for x in lines) + "</div>"

    # ---- for tests and notebooks ------------------------------------------------------------------
    @property
    def cells(self) -> dict[int, int]:
        return dict(self._cells)

    @property
    def cost_limit(self) -> str:
        return self._current_limit()

    def set_cost_limit(self, reading: str) -> None:
        """Choose the reading of the cost limit as a click on the toggle would."""
        if reading not in COST_LIMITS:
            self.report(InvalidMoveError(f"cost limit {reading!r}: use 'english' or 'japanese'"), error=True)
            return
        self._limit.value = reading

    @property
    def selected(self) -> int:
        return self._cell

    def pick(self, index: int) -> None:
        """Select a cell as a click would."""
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < CELLS:
            self.report(InvalidMoveError(f"no cell {index!r}"), error=True)
            return
        self._buttons[index].click()
