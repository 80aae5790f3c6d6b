"""The boarding explainer: a ship, your pirat, some cards — where does it land and why? Becoming captain,
and the payout order if the ship sailed now (dashboard ``pirats-boarding``). Every answer comes from the
engine applied to a real game state (:func:`toolkit.pirats.positions.boarding_state`).

The position is set up by clicking the ship (:class:`toolkit.widgets.components.pirats.ShipBoard`): a crew
space cycles empty → another pirat → your pirat, the captain space toggles another pirat, your area takes
your pirat home, the charm cards set how many you play. The same settings stay as a form ("Settings as a
form") and as link parameters ``?occupied=1,2&start=0&cards=1&captain=0`` (:meth:`BoardingView.share_query`)."""

from __future__ import annotations

from typing import Any, Mapping

import ipywidgets as widgets

from toolkit.core.errors import IllegalMoveError
from toolkit.pirats.engine import ENGINE
from toolkit.pirats.model import CAPTAIN, BecomeCaptain, MovePirat, PiratsState
from toolkit.pirats.positions import YOU, boarding_state
from toolkit.widgets.base import View, esc, explain_html, query_params, safe_callback
from toolkit.widgets.markup import heading
from toolkit.widgets.components.pirats import ShipBoard




def settings_from_query(params: Mapping[str, str]) -> dict[str, Any]:
    """``?occupied=1,2&start=0&cards=1&captain=0`` (untrusted: anything unreadable falls back)."""
    occupied = sorted({int(x) for x in params.get("occupied", "1,2").split(",") if x.strip() in ("1", "2", "3")})
    start = params.get("start", "0")
    cards = params.get("cards", "1")
    return {"occupied": occupied, "start": int(start) if start in ("0", "1", "2", "3") else 0,
            "cards": int(cards) if cards in ("1", "2", "3") else 1,
            "captain": params.get("captain", "0") in ("1", "true", "yes")}


def payout_order(state: PiratsState, lang: str) -> list[str]:
    """Who takes what if the cat ship sailed now (3 loot: the captain one, then nearest the bow ...)."""
    from toolkit.core.i18n import translate
    ship = state.ships[0]
    if ship.spaces[CAPTAIN] is None:
        return []
    out = [translate("pirats.ui.order_captain", lang)]
    loot = 2
    for idx in (2, 1, 0):
        if ship.spaces[idx] is not None:
            key = "pirats.ui.order_space" if loot else "pirats.ui.order_nothing"
            out.append(translate(key, lang, number=idx + 1))
            loot = max(loot - 1, 0)
    return out


class BoardingView(View):
    """Pick occupied spaces, your pirat's start and a number of cards; move, or become captain."""

    def __init__(self, lang: str | None = None, query: str | None = None, **kwargs: Any):
        params = query_params(query)
        settings = settings_from_query(params)
        lang = lang or (params.get("lang") if params.get("lang") in ("en", "ja") else "en")
        super().__init__(lang=lang, **kwargs)
        self.add_class("pirats-boarding")
        self._title = widgets.HTML()
        self._intro = widgets.HTML()
        self._occupied = []
        for n in (1, 2, 3):
            box = widgets.Checkbox(value=n in settings["occupied"], indent=False)
            box.add_class(f"pirats-occupied-{n}")
            box.observe(self._on_setting, "value")
            self._occupied.append(box)
        self._captain = widgets.Checkbox(value=settings["captain"], indent=False)
        self._captain.add_class("pirats-captain-occupied")
        self._captain.observe(self._on_setting, "value")
        self._start = widgets.Dropdown(value=settings["start"], options=self._start_options())
        self._start.add_class("pirats-start")
        self._start.observe(self._on_setting, "value")
        self._cards = widgets.IntSlider(value=settings["cards"], min=1, max=3)
        self._cards.add_class("pirats-cards")
        self._cards.observe(self._on_setting, "value")
        self._move = widgets.Button(button_style="primary")
        self._move.add_class("pirats-move")
        self._become = widgets.Button()
        self._become.add_class("pirats-become-captain")
        self._board = ShipBoard(lang=self.lang)
        self._board.add_class("pirats-ship-board")
        self._board.on_pick(self._on_board_pick)
        self._board.on_refuse(lambda text: self.report(text, error=True))
        self._form = widgets.Accordion(children=[widgets.VBox([
            widgets.HBox(self._occupied + [self._captain], layout=widgets.Layout(flex_flow="row wrap")),
            widgets.HBox([self._start, self._cards], layout=widgets.Layout(flex_flow="row wrap"))])])
        self._form.selected_index = None
        self._form.add_class("pirats-form")
        self._share = widgets.HTML()
        self._share.add_class("pirats-share")
        self._result = widgets.HTML()
        self._result.add_class("pirats-result")
        self._order = widgets.HTML()
        self._order.add_class("pirats-order")
        self._move.on_click(self._on_move)
        self._become.on_click(self._on_become)
        self._after: PiratsState | None = None
        self._finish([self._title, self._intro, self._board, widgets.HBox([self._move, self._become]),
                      self._result, self._order, self._form, self._share])
        self._ready = True
        self.refresh()

    def _start_options(self) -> list[tuple[str, int]]:
        return [(self.t("pirats.ui.area"), 0)] + [(self.t("pirats.ui.space", number=n), n) for n in (1, 2, 3)]

    # ---- the position -------------------------------------------------------------------------
    def position(self) -> PiratsState:
        """The state the widgets describe (validated by the engine's own builder)."""
        occupied = [n for n, box in zip((1, 2, 3), self._occupied) if box.value is True]
        return boarding_state(occupied, self._start.value, self._captain.value is True, self._cards.value)

    def share_query(self) -> str:
        """The link parameters of this position (read back by :func:`settings_from_query`)."""
        occupied = ",".join(str(n) for n, box in zip((1, 2, 3), self._occupied) if box.value is True)
        return (f"occupied={occupied}&start={self._start.value}&cards={self._cards.value}"
                f"&captain={1 if self._captain.value is True else 0}")

    # ---- callbacks ------------------------------------------------------------------------------
    @safe_callback
    def _on_board_pick(self, pick: tuple[str, Any]) -> None:
        """A click on the ship sets the position through the form's controls (one source of truth)."""
        what, value = pick
        if what == "cards":
            self._cards.value = value
        elif what == "area":
            self._start.value = 0
        elif what == "space" and value == CAPTAIN + 1:
            self._captain.value = not self._captain.value
        elif what == "space":
            box = self._occupied[value - 1]
            if self._start.value == value:          # your pirat -> empty
                self._start.value = 0
            elif box.value:                         # another pirat -> your pirat (you leave where you were)
                box.value = False
                self._start.value = value
            else:                                   # empty -> another pirat
                box.value = True

    @safe_callback
    def _on_setting(self, change: Mapping[str, Any] | None = None) -> None:
        self._after = None
        self._result.value = ""
        self.clear_report()
        self.refresh()

    @safe_callback
    def _on_move(self, _b: Any = None) -> None:
        self._try(MovePirat("rat#1", "cat", self._cards.value))

    @safe_callback
    def _on_become(self, _b: Any = None) -> None:
        self._try(BecomeCaptain("rat#1", "cat"))

    def _try(self, move: Any) -> None:
        state = self.position()
        self._after = None
        try:
            after, events = ENGINE.transition(state, move)
        except IllegalMoveError as exc:
            self._result.value = ""
            self.report(exc.violation, error=True)
            self.refresh()
            return
        self._after = after
        self.clear_report()
        self._events = events
        self.refresh()

    # ---- rendering ------------------------------------------------------------------------------
    @staticmethod
    def _spaces(state: PiratsState) -> list[str]:
        return ["empty" if p is None else "you" if p == YOU else "other" for p in state.ships[0].spaces]

    def refresh(self) -> None:
        if not getattr(self, "_ready", False):  # the base class sets lang before the children exist
            return
        self._title.value = heading(self.t("pirats.ui.boarding_title"))
        self._intro.value = f"<p>{esc(self.t('pirats.ui.boarding_intro'))}</p>"
        for n, box in zip((1, 2, 3), self._occupied):
            box.description = self.t("pirats.ui.occupied", number=n)
        self._captain.description = self.t("pirats.ui.captain_occupied")
        self._start.description = self.t("pirats.ui.start")
        options = self._start_options()
        if tuple(options) != tuple(self._start.options):   # a new language: relabel, keep the choice
            keep = self._start.value
            self._start.options = options
            self._start.value = keep
        self._cards.description = self.t("pirats.ui.cards")
        self._move.description = self.t("pirats.ui.move")
        self._become.description = self.t("pirats.ui.become_captain")
        try:
            before = self.position()
        except Exception as exc:  # noqa: BLE001 - a hostile widget value: keep the page alive
            self.report(exc, error=True)
            return
        shown = self._after or before
        self._board.lang = self.lang
        self._board.show(self._spaces(before), self._cards.value,
                         after=None if self._after is None else self._spaces(shown))
        self._form.set_title(0, self.t("pirats.ui.settings_form"))
        self._share.value = (f"<p class='pirats-link'>{esc(self.t('pirats.ui.share_position'))} "
                             f"<code>?{esc(self.share_query())}</code></p>")
        if self._after is not None:
            lines = "".join(f"<li>{explain_html(e, self.lang)}</li>" for e in self._events)
            where = next((i for i, p in enumerate(self._after.ships[0].spaces) if p == YOU), None)
            landed = self.t("pirats.ui.lands", space=where + 1) if where is not None and where < CAPTAIN else ""
            self._result.value = f"<p class='pirats-landing'><b>{esc(landed)}</b></p><ul>{lines}</ul>"
        order = payout_order(shown, self.lang)
        self._order.value = "<p>" + esc(self.t("pirats.ui.payout_order", order=" → ".join(order)) if order
                                        else self.t("pirats.ui.no_captain_no_sailing")) + "</p>"
