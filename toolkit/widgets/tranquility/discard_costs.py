"""The discard-cost explainer: click a card of your hand, then a cell; see the sequence neighbours, the
cost and why — before placing anything.

The learner holds a hand of island cards (1 to 5 cards, drawn as cards): a click picks the card to place,
"Change the hand" opens a picker of the 80 island numbers (click to add or take out). Once a card is
picked, every empty cell's tooltip says what that card would cost there and whether it may go there, and
the cells where it may go are outlined; clicking a cell selects it and the explanation below says why.
"Place it" commits. A number typed in the box (power users) joins the hand like a clicked card.

The hand's size is what the cost limit depends on (the placed card counts: at most ``hand - 1`` discards).
Everything shown comes from the public API (:func:`placement_cost`, :func:`why_illegal_placement`,
:func:`feasibility`); the view only keeps the sandbox grid and the hand. URL parameters (a teacher's shared
link): ``cells=2:3,4:7`` (the grid), ``cell=3``, ``number=6`` (the picked card), ``cards=6,12,25`` (the
hand), ``hand=5`` (older links: the hand's size, filled with example cards), ``limit=japanese`` (the cost
limit's reading: ``english``, the default, or the Japanese text's literal ``japanese``; the view says which
plays the two readings judge differently).
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

import ipywidgets as widgets

from toolkit.core.errors import InvalidMoveError, RuleError
from toolkit.tranquility import feasibility, neighbours, why_illegal_placement
from toolkit.tranquility.cards import CELLS, COLUMNS, ISLAND_MAX, ROWS
from toolkit.tranquility.grid import (COST_LIMITS, check_ascending, max_cost, placement_violation, raw_cost,
                                      to_grid)
from toolkit.widgets.base import View, esc, explain_html, query_params, safe_callback
from toolkit.widgets.markup import heading
from toolkit.widgets.tranquility.common import format_cells, int_param, parse_cells

#: the help page's example: a 6 between 3 and 7 costs 1
EXAMPLE = {"cells": {2: 3, 4: 7}, "cell": 3, "number": 6}
#: the example hand: the 6 to place and four other cards (a full hand: at most 4 discards)
EXAMPLE_HAND = (6, 12, 25, 44, 61)
HAND_MAX = 5
PICKER_COLUMNS = 10

#: cards drawn as cards, and the cells the picked card may go to outlined (tooltips say the cost)
_STYLE = """<style>
.tranq-costs .tranq-costs-hand .widget-toggle-button { min-width: 3.2em; height: 4.4em; font-size: 1.25em;
  font-weight: bold; border: 2px solid #44728a; border-radius: 8px; background: #f4fbff; color: #123; }
.tranq-costs .tranq-costs-hand .widget-toggle-button.mod-active { background: #1565c0; color: #fff;
  border-color: #0d3c73; box-shadow: 0 0 0 3px #9cc7f0; }
.tranq-costs .tranq-cell.tranq-cell-legal { outline: 3px solid #2e7d32; outline-offset: -3px; }
.tranq-costs .tranq-cell.tranq-cell-refused { color: #6b6b6b; }
.tranq-costs .tranq-picker .jupyter-button { width: 3.2em; min-width: 3.2em; margin: 1px; padding: 0; }
.tranq-costs .tranq-picker .jupyter-button.tranq-in-hand { background: #1565c0; color: #fff; }
</style>"""


def hand_from(number: int, size: int, cards: Sequence[int] | None = None) -> list[int]:
    """A sorted hand of ``size`` distinct island cards holding ``number``: ``cards`` first, then the example
    hand's, then the smallest free numbers.

    >>> hand_from(6, 5)
    [6, 12, 25, 44, 61]
    >>> hand_from(30, 2, [30, 7, 7, 99])
    [7, 30]
    """
    out = [number]
    for n in list(cards or ()) + list(EXAMPLE_HAND) + list(range(1, ISLAND_MAX + 1)):
        if len(out) >= size:
            break
        if isinstance(n, int) and 1 <= n <= ISLAND_MAX and n not in out:
            out.append(n)
    return sorted(out)


def parse_hand(text: str) -> list[int]:
    """``"6,12,25"`` -> ``[6, 12, 25]`` (untrusted URL text: 1 to 5 distinct island numbers)."""
    words = [w.strip() for w in text.split(",")[:HAND_MAX + 1] if w.strip()]
    if not words or len(words) > HAND_MAX or not all(w.isascii() and w.isdigit() for w in words):
        raise InvalidMoveError(f"cards={text[:40]!r}: give 1 to {HAND_MAX} island numbers, e.g. cards=6,12,25")
    numbers = [int(w) for w in words]
    if any(not 1 <= n <= ISLAND_MAX for n in numbers) or len(set(numbers)) != len(numbers):
        raise InvalidMoveError(f"cards={text[:40]!r}: island numbers run from 1 to 80, each once")
    return sorted(numbers)


class DiscardCostView(View):
    """A clickable 6×6 grid (top row shown first, as on the table) and the cost explanation."""

    def __init__(self, cells: Mapping[int, int] | None = None, cell: int | None = None, number: int | None = None,
                 hand_size: int = 5, cost_limit: str = "english", lang: str = "en", query: str | None = None,
                 hand: Sequence[int] | None = None, **kwargs: Any):
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
        first = int_param(params, "number", EXAMPLE["number"] if number is None else number, 1, ISLAND_MAX)
        size = int_param(params, "hand", hand_size, 1, HAND_MAX)
        cards: Sequence[int] | None = hand
        if "cards" in params:
            try:
                cards = parse_hand(params["cards"])
                size = len(cards)
                if "number" not in params and number is None:
                    first = first if first in cards else cards[0]
            except InvalidMoveError as exc:
                notes.append(exc)
        elif hand is not None:
            size = min(max(len(hand), 1), HAND_MAX)
        if cards is not None and first not in cards:  # the picked number joins the given hand
            cards = list(cards)[:HAND_MAX - 1]
            size = len(cards) + 1
        self._hand_cards: list[int] = hand_from(first, size, cards)
        self._style = widgets.HTML(_STYLE)
        self._hand_title = widgets.HTML()
        self._hand_title.add_class("tranq-costs-hand-title")
        self._hand_row = widgets.ToggleButtons(options=[], value=None, style={"button_width": "auto"})
        self._hand_row.add_class("tranq-costs-hand")
        self._edit = widgets.ToggleButton(value=False, layout=widgets.Layout(width="auto"))
        self._edit.add_class("tranq-edit-hand")
        self._picker = widgets.VBox()       # the 80 numbers, built on first use (80 widgets a cold page need not send)
        self._picker.add_class("tranq-picker")
        self._picker_help = widgets.HTML()
        self._picker_buttons: dict[int, widgets.Button] = {}
        self._picker_box = widgets.VBox()
        self._number = widgets.BoundedIntText(min=1, max=ISLAND_MAX, layout=widgets.Layout(width="14em"))
        self._number.add_class("tranq-number")
        self._number.value = first
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
        self._number.observe(self._on_number, "value")
        self._hand_row.observe(self._on_card, "value")
        self._edit.observe(self._on_edit, "value")
        self._limit.observe(self._on_change, "value")
        self._place.on_click(self._on_place)
        self._clear.on_click(self._on_clear)
        self._reset.on_click(self._on_reset)
        self._finish([self._style, self._title, self._intro, self._hand_title,
                      widgets.HBox([self._hand_row, self._edit], layout=widgets.Layout(
                          flex_flow="row wrap", align_items="center", margin="0 0 10px 0")),
                      self._picker_box, widgets.VBox(rows), self._number, self._limit, self._limit_note,
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
        """The hand's size (the placed card counts), what the cost limit depends on."""
        return min(max(len(self._hand_cards), 1), HAND_MAX)

    def _take_into_hand(self, number: int, replacing: Any = None) -> None:
        """``number`` becomes the picked card; if the hand lacks it, it joins (replacing the card picked
        before, ``replacing``, when the hand is full)."""
        if number not in self._hand_cards:
            if len(self._hand_cards) >= HAND_MAX:
                old = replacing if replacing in self._hand_cards else self._hand_cards[-1]
                self._hand_cards.remove(old)
            self._hand_cards = sorted(self._hand_cards + [number])
        if self._number.value != number:
            self._number.unobserve(self._on_number, "value")
            self._number.value = number
            self._number.observe(self._on_number, "value")

    @safe_callback
    def _on_number(self, change: Mapping[str, Any]) -> None:
        self._take_into_hand(self._current_number(), replacing=change.get("old"))
        self.clear_report()
        self.refresh()

    @safe_callback
    def _on_card(self, change: Mapping[str, Any]) -> None:
        value = change["new"]
        if value is None or getattr(self, "_drawing", False):
            return
        if isinstance(value, bool) or not isinstance(value, int) or value not in self._hand_cards:
            raise InvalidMoveError(f"{value!r} is not a card of this hand")
        self._take_into_hand(value)
        self.clear_report()
        self.refresh()

    @safe_callback
    def _on_edit(self, change: Mapping[str, Any]) -> None:
        if change["new"] and not self._picker_buttons:
            self._build_picker()
        self._picker_box.children = (self._picker_help, self._picker) if change["new"] else ()
        self.refresh()

    def _build_picker(self) -> None:
        rows = []
        for start in range(1, ISLAND_MAX + 1, PICKER_COLUMNS):
            line = []
            for n in range(start, min(start + PICKER_COLUMNS, ISLAND_MAX + 1)):
                b = widgets.Button(description=str(n))
                b.add_class("tranq-pick")
                b.add_class(f"tranq-pick-{n}")
                b.on_click(self._make_toggle(n))
                self._picker_buttons[n] = b
                line.append(b)
            rows.append(widgets.HBox(line, layout=widgets.Layout(flex_flow="row wrap")))
        self._picker.children = tuple(rows)

    def _make_toggle(self, number: int):
        @safe_callback
        def toggle(view: "DiscardCostView", _button: Any = None) -> None:
            view.toggle_card(number)

        return lambda button: toggle(self, button)

    def toggle_card(self, number: int) -> None:
        """Add island ``number`` to the hand (it becomes the picked card) or take it out, as the picker's
        click does. A hand holds 1 to 5 cards; other requests are refused on the page."""
        if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= ISLAND_MAX:
            self.report(InvalidMoveError(f"no island {number!r}: island cards are numbered 1 to 80"), error=True)
            return
        if number in self._hand_cards:
            if len(self._hand_cards) == 1:
                self.report(self.t("tranquility.ui.hand_last"), error=True)
                return
            self._hand_cards.remove(number)
            if self._number.value == number:
                self._take_into_hand(self._hand_cards[0])
        else:
            if len(self._hand_cards) >= HAND_MAX:
                self.report(self.t("tranquility.ui.hand_full", most=HAND_MAX), error=True)
                return
            self._hand_cards = sorted(self._hand_cards + [number])
            self._take_into_hand(number)
        self.clear_report()
        self.refresh()

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
        self._hand_cards = list(EXAMPLE_HAND)
        self._take_into_hand(EXAMPLE["number"])
        self.clear_report()
        self.refresh()

    # ---- rendering --------------------------------------------------------------------------------
    def refresh(self) -> None:
        lang = self.lang
        self._title.value = heading(self.t("tranquility.ui.costs_title"))
        self._intro.value = f"<p>{esc(self.t('tranquility.ui.costs_intro'))}</p>"
        self._number.description = self.t("tranquility.ui.type_number")
        self._render_hand()
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
        hand = self._current_hand()
        for i, b in enumerate(self._buttons):
            b.description = str(grid[i]) if grid[i] else f"#{i}"   # a cell's index, not a card value
            b.tooltip = self._cell_tip(grid, i, number, hand, reading)
            b.button_style = "warning" if i == self._cell else ("info" if i in (before, after) else "")
            legal = (number is not None and not grid[i]
                     and why_illegal_placement(self._cells, i, number, hand, reading) is None)
            self._mark(b, "tranq-cell-legal", legal)
            self._mark(b, "tranq-cell-refused", number is not None and not grid[i] and not legal)
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
        query = (f"?cells={format_cells(self._cells)}&cell={self._cell}" + (f"&number={number}" if number else "")
                 + "&cards=" + ",".join(map(str, self._hand_cards)))
        if reading != "english":
            query += f"&limit={reading}"
        self._link.value = f'<small>{esc(self.t("tranquility.ui.share"))} <code>{esc(query)}</code></small>'

    def _render_hand(self) -> None:
        cards = self._hand_cards
        number = self._number.value if self._number.value in cards else None
        self._hand_title.value = (f"<b>{esc(self.t('tranquility.ui.costs_hand', count=len(cards)))}</b>")
        options = tuple((str(n), n) for n in cards)
        self._drawing = True  # the row's own change events are ours, not the learner's
        try:
            if tuple(self._hand_row.options) != options:
                self._hand_row.options = options
            if self._hand_row.value != number:
                self._hand_row.value = number
            self._hand_row.tooltips = [self.t("tranquility.ui.card_tip", number=n) for n in cards]
        finally:
            self._drawing = False
        self._hand_row.description = ""
        self._edit.description = self.t("tranquility.ui.edit_hand")
        self._edit.tooltip = self.t("tranquility.ui.picker_help", most=HAND_MAX)
        self._picker_help.value = f"<small>{esc(self.t('tranquility.ui.picker_help', most=HAND_MAX))}</small>"
        for n, b in self._picker_buttons.items():
            held = n in cards
            self._mark(b, "tranq-in-hand", held)
            b.tooltip = self.t("tranquility.ui.pick_out" if held else "tranquility.ui.pick_in", number=n)

    @staticmethod
    def _mark(widget: widgets.DOMWidget, css: str, on: bool) -> None:
        if on and css not in widget._dom_classes:
            widget.add_class(css)
        elif not on and css in widget._dom_classes:
            widget.remove_class(css)

    def _cell_tip(self, grid: tuple[int, ...], index: int, number: int | None, hand: int, reading: str) -> str:
        """A cell's tooltip: where it is and, with a card picked, what that card would cost there (engine)."""
        where = self.t("tranquility.ui.cell_tip", cell=index, row=index // COLUMNS + 1, column=index % COLUMNS + 1)
        if grid[index]:
            return f"{where} — {self.t('tranquility.ui.occupied', number=grid[index])}"
        if number is None:
            return where
        verdict = why_illegal_placement(self._cells, index, number, hand, reading)
        if verdict is None:
            return f"{where} — {self.t('tranquility.ui.tip_ok', number=number, cost=raw_cost(grid, index, number))}"
        return f"{where} — ✘ {verdict.text(self.lang)}"

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
    def hand(self) -> list[int]:
        """The learner's hand (sorted island numbers)."""
        return list(self._hand_cards)

    @property
    def picked(self) -> int | None:
        """The card picked to place."""
        value = self._number.value
        return value if value in self._hand_cards else None

    def pick_card(self, number: int) -> None:
        """Pick a card of the hand as a click on it would."""
        if number not in self._hand_cards:
            self.report(InvalidMoveError(f"{number!r} is not a card of this hand"), error=True)
            return
        self._hand_row.value = number

    def open_picker(self, on: bool = True) -> None:
        """Open (or close) the card picker as the "Change the hand" button does."""
        self._edit.value = bool(on)

    @property
    def selected(self) -> int:
        return self._cell

    def pick(self, index: int) -> None:
        """Select a cell as a click would."""
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < CELLS:
            self.report(InvalidMoveError(f"no cell {index!r}"), error=True)
            return
        self._buttons[index].click()
