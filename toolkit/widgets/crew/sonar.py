"""The sonar check (``crew-sonar-check``): edit a hand, pick a card and a token position, and see whether
it may be communicated and why; the 1, 2, 5, 7 example is the default hand. The communication modifiers
(currents, rapture of the deep) are explained beside it."""

from __future__ import annotations

from typing import Any, Mapping

import ipywidgets as widgets

from toolkit.core.errors import RuleError
from toolkit.crew.cards import POSITIONS, Card, cards, sonar_options, why_illegal_sonar
from toolkit.widgets.base import View, esc, explain_html, query_params, safe_callback
from toolkit.widgets.crew.common import cards_param, chip, chips, int_param, lang_param

MODES = ("normal", "currents", "rapture")
MODE_TEXT = {"normal": "crew.ui.mode_normal", "currents": "crew.ui.mode_currents", "rapture": "crew.ui.mode_rapture"}
POSITION_TEXT = {"top": "crew.sonar.top", "bottom": "crew.sonar.bottom", "middle": "crew.sonar.middle"}


class SonarCheckView(View):
    def __init__(self, lang: str = "en", query: str | None = None, **kwargs: Any):
        params = query_params(query)
        super().__init__(lang=lang_param(params, lang), **kwargs)
        self.add_class("crew-sonar")
        self._title = widgets.HTML()
        self._hand_label = widgets.HTML()
        self._hand = widgets.Text(value=cards_param(params, "hand", "P1 P2 P5 P7 G4 S2"),
                                  layout=widgets.Layout(width="24em"))
        self._hand.add_class("crew-sonar-hand")
        self._card = widgets.Dropdown(options=[], layout=widgets.Layout(width="8em"))
        self._card.add_class("crew-sonar-card")
        self._position = widgets.ToggleButtons(options=[(p, p) for p in POSITIONS], value="top")
        self._position.add_class("crew-sonar-position")
        self._check = widgets.Button()
        self._check.add_class("crew-sonar-check")
        self._result = widgets.HTML()
        self._result.add_class("crew-sonar-result")
        self._options = widgets.HTML()
        self._options.add_class("crew-sonar-options")
        self._mode = widgets.ToggleButtons(options=[(m, m) for m in MODES], value="normal")
        self._mode.add_class("crew-sonar-mode")
        self._players = widgets.BoundedIntText(value=int_param(params, "players", 4, 3, 5), min=3, max=5,
                                               layout=widgets.Layout(width="5em"))
        self._players.add_class("crew-sonar-players")
        self._mode_text = widgets.HTML()
        self._mode_text.add_class("crew-sonar-mode-text")
        self._hand.observe(self._on_hand, names="value")
        self._mode.observe(self._on_mode, names="value")
        self._players.observe(self._on_mode, names="value")
        self._check.on_click(self._on_check)
        self._finish([self._title, widgets.HBox([self._hand_label, self._hand]), self._options,
                      widgets.HBox([self._card, self._position, self._check]), self._result,
                      widgets.HBox([self._mode, self._players]), self._mode_text])
        self.refresh()

    def _hand_cards(self) -> list[Card]:
        return list(cards(self._hand.value[:200]))

    @safe_callback
    def _on_hand(self, change: Mapping[str, Any]) -> None:
        self.clear_report()
        self._render_hand()

    @safe_callback
    def _on_mode(self, change: Mapping[str, Any]) -> None:
        self._render_mode()

    @safe_callback
    def _on_check(self, _b: Any = None) -> None:
        self.clear_report()
        hand = self._hand_cards()
        card, position = self._card.value, self._position.value
        if not isinstance(card, str) or position not in POSITIONS:
            self.report(self.t("crew.ui.pick_card"), error=True)
            return
        v = why_illegal_sonar(hand, card, position)
        shown = chip(card, self.lang)
        if v is None:
            self._result.value = (f"<p class='crew-sonar-ok' data-ok='1'>{shown} "
                                  f"{esc(self.t('crew.ui.sonar_ok', position=self.t(POSITION_TEXT[position])))}"
                                  f" <code class='deepsea-rule'>crew.sonar.position</code></p>")
        else:
            self._result.value = f"<p class='crew-sonar-no' data-ok='0'>{shown} {explain_html(v, self.lang)}</p>"

    def _render_hand(self) -> None:
        tr = self.t
        try:
            hand = self._hand_cards()
            options = sonar_options(hand)
        except RuleError as exc:
            self.report(exc, error=True)
            return
        listed = ", ".join(f"{chip(c, self.lang)} {esc(tr(POSITION_TEXT[p]))}" for c, p in options.items())
        self._options.value = (f"<p>{esc(tr('crew.ui.your_hand_plain'))}: {chips(hand, self.lang)}</p>"
                               f"<p><b>{esc(tr('crew.ui.sonar_options'))}</b>: {listed or '—'}</p>")
        keep = self._card.value
        self._card.options = [str(c) for c in hand]
        if keep in self._card.options:
            self._card.value = keep
        self._result.value = ""

    def _render_mode(self) -> None:
        tr = self.t
        mode = self._mode.value if self._mode.value in MODES else "normal"
        players = self._players.value if isinstance(self._players.value, int) else 4
        self._mode_text.value = f"<p>{esc(tr(MODE_TEXT[mode], tokens=max(players - 2, 0), players=players))}</p>"

    def refresh(self) -> None:
        if not hasattr(self, "_mode_text"):
            return
        tr = self.t
        self._title.value = f"<h3>{esc(tr('crew.ui.sonar_title'))}</h3><p>{esc(tr('crew.ui.sonar_intro'))}</p>"
        self._hand_label.value = esc(tr("crew.ui.hand_label"))
        self._check.description = tr("crew.ui.check")
        self._position.options = [(tr(f"crew.ui.pos_{p}"), p) for p in POSITIONS]
        self._mode.options = [(tr(f"crew.comm.{m}"), m) for m in MODES]
        self._render_hand()
        self._render_mode()
