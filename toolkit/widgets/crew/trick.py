"""The pink-9 trick (``crew-pink-nine-trick``): the rule text's example step by step, then "try a trick".

Step through the example (captain P9, P7, Y2 from a player without pink, P8: the captain wins; then the
captain leads submarine 4 and completes "win the first two tricks"), or type the cards of any trick and a
hand to see the legal plays and the winner with the reason — every answer comes from the engine.
"""

from __future__ import annotations

from typing import Any, Mapping

import ipywidgets as widgets

from toolkit.core.errors import RuleError
from toolkit.crew.cards import Card, cards, legal_plays, suit_term, trick_winner, why_illegal_play
from toolkit.crew.engine import ENGINE
from toolkit.widgets.base import View, esc, explain_html, query_params, safe_callback
from toolkit.widgets.crew.common import cards_param, chip, chips, event_lines, lang_param

from toolkit.crew.examples import PINK_NINE_MOVES as EXAMPLE_MOVES, pink_nine


def example_states() -> list[tuple[Any, tuple]]:
    """The example as (state, events) after each move, from the engine."""
    state = pink_nine()
    out = [(state, ())]
    for m in EXAMPLE_MOVES:
        state, events = ENGINE.transition(state, m)
        out.append((state, events))
    return out


def winner_reason(plays: list[Card]) -> tuple[int, str, dict]:
    """(index of the winner, message key, parameters) explaining why that card wins."""
    i = trick_winner(plays)
    w = plays[i]
    if w.is_submarine:
        return i, "crew.ui.wins_submarine", {"card": w}
    off = [c for c in plays if c.suit != plays[0].suit and not c.is_submarine]
    return i, "crew.ui.wins_led", {"card": w, "colour": suit_term(plays[0].suit),
                                   "off": off or "-"}


class PinkNineTrickView(View):
    def __init__(self, lang: str = "en", query: str | None = None, **kwargs: Any):
        params = query_params(query)
        super().__init__(lang=lang_param(params, lang), **kwargs)
        self.add_class("crew-pink-nine")
        self._steps = example_states()
        self._step = 0
        self._title = widgets.HTML()
        self._example = widgets.HTML()
        self._example.add_class("crew-example-table")
        self._next = widgets.Button()
        self._next.add_class("crew-example-next")
        self._next.on_click(self._on_next)
        self._reset = widgets.Button()
        self._reset.add_class("crew-example-reset")
        self._reset.on_click(self._on_reset)
        self._try_title = widgets.HTML()
        self._plays = widgets.Text(value=cards_param(params, "plays", "G3 Y9 G4"), layout=widgets.Layout(width="20em"))
        self._plays.add_class("crew-try-plays")
        self._hand = widgets.Text(value=cards_param(params, "hand", "P8 Y2 S1 B5"), layout=widgets.Layout(width="20em"))
        self._hand.add_class("crew-try-hand")
        self._check = widgets.Button()
        self._check.add_class("crew-try-check")
        self._check.on_click(self._on_check)
        self._plays_label, self._hand_label = widgets.HTML(), widgets.HTML()
        self._result = widgets.HTML()
        self._result.add_class("crew-try-result")
        self._finish([self._title, self._example, widgets.HBox([self._next, self._reset]), self._try_title,
                      widgets.HBox([self._plays_label, self._plays]), widgets.HBox([self._hand_label, self._hand]),
                      self._check, self._result])
        self.refresh()

    @safe_callback
    def _on_next(self, _b: Any = None) -> None:
        self._step = min(self._step + 1, len(self._steps) - 1)
        self.refresh()

    @safe_callback
    def _on_reset(self, _b: Any = None) -> None:
        self._step = 0
        self.refresh()

    @safe_callback
    def _on_check(self, _b: Any = None) -> None:
        self.clear_report()
        self._render_try()

    def _render_example(self) -> None:
        tr = self.t
        state, events = self._steps[self._step]
        seat_rows = []
        for seat in range(4):
            seat_rows.append(f"<tr><td>{esc(tr('crew.ui.seat_n', seat=seat))}"
                             f"{' ★' if seat == state.captain else ''}</td><td>{chips(state.hands[seat], self.lang)}</td></tr>")
        trick = state.trick or (state.tricks[-1].cards if state.tricks else ())
        status = tr("crew.status." + state.statuses[0]) if state.statuses else ""
        lines = event_lines(events, self.lang) if events else f"<p>{esc(tr('crew.ui.example_start'))}</p>"
        self._example.value = (
            f"<div data-step='{self._step}'><table>{''.join(seat_rows)}</table>"
            f"<p><b>{esc(tr('crew.ui.trick'))}</b>: {chips(trick, self.lang)}</p>"
            f"<p class='crew-example-task'>{esc(tr('crew.ui.task_78'))}: <b>{esc(status)}</b></p>{lines}</div>")
        self._next.disabled = self._step == len(self._steps) - 1

    def _render_try(self) -> None:
        tr = self.t
        out = []
        try:
            plays = list(cards(self._plays.value[:200]))
        except RuleError as exc:
            self.report(exc, error=True)
            plays = []
        if plays:
            try:
                i, key, params = winner_reason(plays)
                out.append(f"<p class='crew-try-winner' data-winner='{i}'>{chips(plays, self.lang)} → "
                           f"{esc(tr(key, **params))} <code class='deepsea-rule'>crew.trick.winner</code></p>")
            except RuleError as exc:
                self.report(exc, error=True)
        try:
            hand = list(cards(self._hand.value[:200]))
            led = plays[0] if plays else None
            legal = legal_plays(hand, led)
            out.append(f"<p class='crew-try-legal'>{esc(tr('crew.ui.legal_after', led=led.text(self.lang) if led else '—'))}"
                       f" {chips(legal, self.lang)}</p>")
            for c in hand:
                v = why_illegal_play(hand, c, led)
                if v is not None:
                    out.append(f"<p class='crew-try-illegal'>{chip(c, self.lang)} {explain_html(v, self.lang)}</p>")
        except RuleError as exc:
            self.report(exc, error=True)
        self._result.value = "".join(out)

    def refresh(self) -> None:
        if not hasattr(self, "_result"):
            return
        tr = self.t
        self._title.value = f"<h3>{esc(tr('crew.ui.pink_nine_title'))}</h3><p>{esc(tr('crew.ui.pink_nine_intro'))}</p>"
        self._next.description = tr("crew.ui.next_step")
        self._reset.description = tr("crew.ui.reset")
        self._try_title.value = f"<h4>{esc(tr('crew.ui.try_title'))}</h4>"
        self._plays_label.value = esc(tr("crew.ui.plays_label"))
        self._hand_label.value = esc(tr("crew.ui.hand_label"))
        self._check.description = tr("crew.ui.check")
        self._render_example()
        self._render_try()
