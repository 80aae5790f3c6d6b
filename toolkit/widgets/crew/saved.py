"""The Crew table's saved missions and link: every attempt that ended on the page, kept in the browser.

One job: the list of ended attempts (this page's and the browser's ``localStorage``, each code replayed
through the engine when read back), opening one, forgetting the list. A mixin of
:class:`toolkit.widgets.crew.mission.MissionView`: it uses the table's ``t``, ``model``, ``refresh``,
``viewing_seat`` and ``open_saved`` (which replays a mission on the table). This game's code and link, and
the box to paste a code, are the table frame's (``Controls``).
"""

from __future__ import annotations

from typing import Any, Callable

import ipywidgets as widgets

from toolkit.crew.engine import ENGINE, GiveCard
from toolkit.widgets.base import esc, safe_callback
from toolkit.widgets.components.storage import BrowserList
from toolkit.widgets.crew.codes import MAX_CODE_TEXT, STORAGE_KEY, SavedMissionError, finished_mission, mission_code


def wrap_layout() -> widgets.Layout:
    return widgets.Layout(flex_flow="row wrap", align_items="flex-start")


class SavedMissionsMixin:
    """The saved-missions panel of a Crew table (widgets built by :meth:`_build_saved_panel`)."""

    def _build_saved_panel(self) -> None:
        """The saved-missions widgets (called once by the table's ``__init__``)."""
        # saved missions: every attempt that ended on this page or in this browser
        self._saved_title = widgets.HTML()
        self._saved_list = widgets.Dropdown(options=[], layout=widgets.Layout(width="40em", max_width="100%"))
        self._saved_list.add_class("crew-saved-list")
        self._saved_open = widgets.Button(layout=widgets.Layout(width="auto"))
        self._saved_open.add_class("crew-saved-open")
        self._saved_open.on_click(self._on_open_saved)
        self._saved_status = widgets.HTML()
        self._saved_status.add_class("crew-saved-status")
        self._saved_forget = widgets.Button(layout=widgets.Layout(width="auto"))
        self._saved_forget.add_class("crew-saved-forget")
        self._saved_forget.on_click(self._on_forget_saved)
        self._saved_games: list[dict[str, Any]] = []
        self._saved_message: tuple[Callable[[], str], bool] | None = None
        # the saved list outlives the page in this browser (localStorage): only codes of ended attempts
        self._store = BrowserList(STORAGE_KEY, max_items=self.MAX_SAVED, max_chars=MAX_CODE_TEXT)
        self._store.on_load(self._on_stored)
        self._saved_box = widgets.VBox([self._saved_title,
                                        widgets.HBox([self._saved_list, self._saved_open, self._saved_forget],
                                                     layout=wrap_layout()),
                                        self._saved_status, self._store])
        self._saved_box.add_class("crew-saved")

    # ---- saved missions ---------------------------------------------------------------------------------
    MAX_SAVED = 50

    def _remember(self) -> None:
        """Keep the attempt that just ended in this page's list of saved missions (kernel side only: the
        page gets a label, never the moves)."""
        session = self.model.session
        state = self.model.state
        opts = session.options
        if not ENGINE.play_out_over(state):
            return   # a game in progress is never saved (its code would replay to other seats' hands)
        entry = {"seed": session.seed, "players": opts.get("players", 4), "mission": opts.get("mission", 1),
                 "moves": tuple(session.moves), "attempt": state.attempt, "phase": state.phase,
                 "tricks": len(state.tricks), "code": self._shareable_code(self.viewing_seat())}
        if any(e["moves"] == entry["moves"] and e["seed"] == entry["seed"] for e in self._saved_games):
            return
        self._saved_games.append(entry)
        del self._saved_games[:-self.MAX_SAVED]
        self._persist()

    def _persist(self) -> None:
        """Write the saved list's codes to the browser (an attempt with another seat's distress gift has no
        shareable code: it stays in this page's list only)."""
        self._store.store([e["code"] for e in self._saved_games if e.get("code")])

    def _on_stored(self, items: list, unreadable: bool) -> None:
        """The browser's saved missions, read back at page load: each code is checked like a pasted one and
        replayed through the engine; what fails (or is not an ended attempt) is dropped, with a notice."""
        restored, dropped = [], 1 if unreadable else 0
        for item in items:
            try:
                restored.append(finished_mission(item))
            except SavedMissionError:
                dropped += 1
        known = {(e["seed"], e["moves"]) for e in self._saved_games}
        fresh = [e for e in restored if (e["seed"], e["moves"]) not in known]
        unique: list[dict[str, Any]] = []
        for e in fresh:
            if all((e["seed"], e["moves"]) != (u["seed"], u["moves"]) for u in unique):
                unique.append(e)
        self._saved_games[:0] = unique           # stored ones are older than this page's games
        del self._saved_games[:-self.MAX_SAVED]
        self._persist()                          # the cleaned list back to the browser
        if dropped:
            self._saved_say(lambda: self.t("crew.ui.saved_store_dropped", n=dropped), error=True)
        elif unique:
            self._saved_say(lambda: self.t("crew.ui.saved_store_restored", n=len(unique)))
        self.refresh()

    @safe_callback
    def _on_forget_saved(self, _button: Any = None) -> None:
        """Forget every saved mission, on this page and in this browser (a pasted code still opens)."""
        self._saved_games.clear()
        self._store.store([])
        self._store.loaded = True
        self._saved_say(lambda: self.t("crew.ui.saved_forgotten"))
        self.refresh()

    def _saved_say(self, text: Callable[[], str] | None, error: bool = False) -> None:
        """A line under the saved-missions controls (where the learner is looking, not the page's message
        area at the bottom). ``text`` makes the line in the current language (redrawn on a language switch)."""
        self._saved_message = None if text is None else (text, error)
        self._render_saved_message()

    def _render_saved_message(self) -> None:
        if self._saved_message is None:
            self._saved_status.value = ""
            return
        make, error = self._saved_message
        kind = "deepsea-refusal" if error else "deepsea-note"
        self._saved_status.value = (f'<div class="{kind}" role="{"alert" if error else "status"}">'
                                    f'{esc(make())}</div>')

    @property
    def saved_games(self) -> list[dict[str, Any]]:
        """The attempts that ended on this page, oldest first (seed, players, mission, moves, phase)."""
        return list(self._saved_games)

    @safe_callback
    def _on_open_saved(self, _button: Any = None) -> None:
        index = self._saved_list.value
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(self._saved_games):
            self._saved_say(lambda: self.t("crew.ui.saved_pick"), error=True)
            return
        e = self._saved_games[index]
        self.open_saved(e["seed"], {"players": e["players"], "mission": e["mission"]}, list(e["moves"]))

    def _render_saved(self, viewer: int | None, over: bool) -> None:
        tr = self.t
        self._render_saved_message()
        self._saved_title.value = (f"<h4>{esc(tr('crew.ui.saved_title'))}</h4>"
                                   f"<p class='crew-saved-intro'>{esc(tr('crew.ui.saved_intro'))}</p>")
        options = []
        for i, e in enumerate(self._saved_games):
            result = tr("crew.phase." + e["phase"]) if e["phase"] in ("success", "failed") else e["phase"]
            options.append((tr("crew.ui.saved_entry", n=i + 1, mission=e["mission"], seed=e["seed"],
                               players=e["players"], attempt=e["attempt"], result=result, tricks=e["tricks"]), i))
        options.reverse()   # the latest first
        if list(self._saved_list.options) != options:
            self._saved_list.options = options or [(tr("crew.ui.saved_none"), -1)]
            if options:
                self._saved_list.value = options[0][1]
        self._saved_list.disabled = not options
        self._saved_open.disabled = not options
        self._saved_list.tooltip = tr("crew.ui.saved_list_tip")
        self._saved_open.description = tr("crew.ui.saved_open")
        self._saved_open.tooltip = tr("crew.ui.saved_open_tip")
        self._saved_forget.description = tr("crew.ui.saved_forget")
        self._saved_forget.tooltip = tr("crew.ui.saved_forget_tip")
        self._saved_forget.disabled = not options

    def _shareable_code(self, viewer: int | None) -> str:
        """This game's code, unless it holds another seat's distress gift (a card only two seats know)."""
        moves = list(self.model.session.moves)
        if any(isinstance(m, GiveCard) and m.seat != viewer for m in moves):
            return ""
        opts = self.model.session.options
        return mission_code(self.model.session.seed, opts.get("players", 4), opts.get("mission", 1), moves)
