"""The sonar check (``crew-sonar-check``): click cards into a hand (or type it), click a card of the hand and
a token position, and see at once whether it may be communicated and why; the 1, 2, 5, 7 example is the
default hand (``?hand=P1-P2-P5-P7-G4-S2``). The communication modifiers (currents, rapture of the deep)
are explained beside it."""

from __future__ import annotations

from typing import Any, Mapping

import ipywidgets as widgets

from toolkit.core.errors import RuleError
from toolkit.crew.cards import POSITIONS, Card, cards, sonar_options, why_illegal_sonar
from toolkit.widgets.base import View, esc, explain_html, query_params, safe_callback, set_options
from toolkit.widgets.components.crew import CardPicker, CrewHand
from toolkit.widgets.crew.common import cards_param, chip, int_param, lang_param, share_link

MODES = ("normal", "currents", "rapture")
MODE_TEXT = {"normal": "crew.ui.mode_normal", "currents": "crew.ui.mode_currents", "rapture": "crew.ui.mode_rapture"}
POSITION_TEXT = {"top": "crew.sonar.top", "bottom": "crew.sonar.bottom", "middle": "crew.sonar.middle"}


class SonarCheckView(View):
    """Build a hand by clicking cards, click one of its cards and a token position: may it be shown?"""

    def __init__(self, lang: str = "en", query: str | None = None, **kwargs: Any):
        params = query_params(query)
        super().__init__(lang=lang_param(params, lang), **kwargs)
        self.add_class("crew-sonar")
        self._title = widgets.HTML()
        self._picker = CardPicker(limit=14, ordered=False, title_key="crew.ui.sonar_pick_label")
        self._picker.add_class("crew-sonar-picker")
        self._picker.on_change(self._on_picked)
        self._hand_cards = CrewHand(toggle=True, title_key="crew.ui.sonar_hand_title")
        self._hand_cards.add_class("crew-sonar-hand-cards")
        self._hand_cards.on_pick(self._on_card)
        self._hand_label = widgets.HTML()
        self._hand = widgets.Text(value=cards_param(params, "hand", "P1 P2 P5 P7 G4 S2"),
                                  layout=widgets.Layout(width="20em"))
        self._hand.add_class("crew-sonar-hand")
        self._position = widgets.ToggleButtons(options=[(p, p) for p in POSITIONS], value="top")
        self._position.add_class("crew-sonar-position")
        self._result = widgets.HTML()
        self._result.add_class("crew-sonar-result")
        self._options = widgets.HTML()
        self._options.add_class("crew-sonar-options")
        self._mode = widgets.ToggleButtons(options=[(m, m) for m in MODES], value="normal")
        self._mode.add_class("crew-sonar-mode")
        self._players_label = widgets.HTML()
        self._players = widgets.BoundedIntText(value=int_param(params, "players", 4, 3, 5), min=3, max=5,
                                               layout=widgets.Layout(width="5em"))
        self._players.add_class("crew-sonar-players")
        self._mode_text = widgets.HTML()
        self._mode_text.add_class("crew-sonar-mode-text")
        self._link = widgets.HTML()
        self._hand.observe(self._on_hand, names="value")
        self._position.observe(self._on_position, names="value")
        self._mode.observe(self._on_mode, names="value")
        self._players.observe(self._on_mode, names="value")
        wrap = widgets.Layout(flex_flow="row wrap", align_items="center")
        self._finish([self._title, self._picker, widgets.HBox([self._hand_label, self._hand], layout=wrap),
                      self._hand_cards, self._position, self._result, self._options,
                      widgets.HBox([self._mode, self._players_label, self._players], layout=wrap), self._mode_text,
                      self._link])
        self.refresh()

    def _typed_hand(self) -> list[Card]:
        return list(dict.fromkeys(cards(str(self._hand.value)[:200])))[:14]

    @safe_callback
    def _on_picked(self, value: tuple) -> None:
        self._hand.value = " ".join(map(str, value))  # -> _on_hand

    @safe_callback
    def _on_hand(self, change: Mapping[str, Any]) -> None:
        self.clear_report()
        self._render_hand()

    @safe_callback
    def _on_mode(self, change: Mapping[str, Any]) -> None:
        self._render_mode()

    @safe_callback
    def _on_position(self, change: Mapping[str, Any]) -> None:
        self._render_result()

    @safe_callback
    def _on_card(self, card: Card) -> None:
        self.clear_report()
        self._render_result()

    def check(self, card: "Card | str", position: str) -> None:
        """Select ``card`` of the hand and ``position`` and show the verdict (what two clicks do)."""
        self._hand_cards.select(card)
        self._position.value = position
        self._render_result()

    def _render_result(self) -> None:
        card, position = self._hand_cards.selected_card, self._position.value
        if card is None or position not in POSITIONS:
            self._result.value = f"<p class='crew-sonar-pick'>{esc(self.t('crew.ui.pick_card'))}</p>"
            return
        hand = list(self._hand_cards.cards)
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
            hand = self._typed_hand()
            options = sonar_options(hand)
        except RuleError as exc:
            self.report(exc, error=True)
            return
        self._picker.lang = self._hand_cards.lang = self.lang
        self._picker.set_value(hand)
        self._hand_cards.set_cards(hand)
        listed = ", ".join(f"{chip(c, self.lang)} {esc(tr(POSITION_TEXT[p]))}" for c, p in options.items())
        self._options.value = f"<p><b>{esc(tr('crew.ui.sonar_options'))}</b>: {listed or '—'}</p>"
        self._link.value = share_link({"hand": hand, "lang": self.lang}, tr("crew.ui.share"))
        self._render_result()

    def _render_mode(self) -> None:
        tr = self.t
        mode = self._mode.value if self._mode.value in MODES else "normal"
        players = self._players.value if isinstance(self._players.value, int) else 4
        self._mode_text.value = f"<p>{esc(tr(MODE_TEXT[mode], tokens=max(players - 2, 0), players=players))}</p>"

    def refresh(self) -> None:
        if not hasattr(self, "_link"):
            return
        tr = self.t
        self._title.value = f"<h3>{esc(tr('crew.ui.sonar_title'))}</h3><p>{esc(tr('crew.ui.sonar_intro'))}</p>"
        self._hand_label.value = esc(tr("crew.ui.typed_note"))
        self._players_label.value = esc(tr("crew.ui.players_label"))
        set_options(self._position, [(tr(f"crew.ui.pos_{p}"), p) for p in POSITIONS])   # relabel, keep the choice
        set_options(self._mode, [(tr(f"crew.comm.{m}"), m) for m in MODES])
        self._render_hand()
        self._render_mode()
