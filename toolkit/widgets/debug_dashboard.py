"""The generic debug dashboard: choose a game and a seed, then play it with the :class:`DebugPanel` — or,
with ``?view=table``, on the table frame (:class:`~toolkit.widgets.table.GenericTable`: seats, bots, hint,
log, undo, a game code; ``?view=table&code=…`` reopens a game)."""

from __future__ import annotations

from typing import Any, Mapping

import ipywidgets as widgets

from toolkit.core import i18n
from toolkit.core.errors import InvalidMoveError
from toolkit.engines import available_engines
from toolkit.widgets.base import DebugPanel, GameSession, View, check_lang, query_params, safe_callback

MAX_SEED = 2**31 - 1


class DebugDashboard(View):
    """Game picker + seed + the debug panel. URL: ``?game=crew&seed=7`` opens that game directly;
    ``view="table"`` plays it on the generic table instead (``query``: the page's, for its ``?code=``)."""

    def __init__(self, engines: Mapping[str, Any] | None = None, game: str | None = None, seed: int = 1,
                 lang: str = "en", view: str = "panel", query: str = ""):
        check_lang(lang)
        self.view = view if view in ("panel", "table") else "panel"
        self._query = query if isinstance(query, str) else ""
        super().__init__()  # the language is set once the widgets exist: setting it re-renders them
        self.engines = dict(engines if engines is not None else available_engines())
        self._game = widgets.Dropdown(options=self._game_options())
        self._game.add_class("deepsea-game-picker")
        self._seed = widgets.BoundedIntText(value=seed, min=0, max=MAX_SEED, layout=widgets.Layout(width="12em"))
        self._seed.add_class("deepsea-seed")
        self._start = widgets.Button(button_style="info")
        self._start.add_class("deepsea-new-game")
        self._start.on_click(self._on_start)
        self._holder = widgets.VBox()
        self._finish([widgets.HBox([self._game, self._seed, self._start]), self._holder])
        if game in self.engines:
            self._game.value = game
        self.lang = lang
        self.refresh()
        if self.engines:
            self._on_start()

    @safe_callback
    def _on_start(self, _button: Any = None) -> None:
        game, seed = self._game.value, self._seed.value
        if game not in self.engines:
            raise InvalidMoveError(f"unknown game {game!r}")
        if not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
            raise InvalidMoveError(f"seed {seed!r} must be a whole number from 0 to {MAX_SEED}")
        if self.view == "table":
            self._show_table(game, seed)
            return
        model = GameSession(self.engines[game], seed)
        panel = getattr(self, "_panel", None)
        if panel is not None:
            # One panel for every game: a new panel per click (linked to the page's language) left 47
            # widget models in the kernel and the page, and every old panel redrew on each language switch
            # (0.6-1.35 s after 50 new games).
            panel.show_game(model)
        else:
            self._panel = DebugPanel(model, lang=self.lang, show_language=False)
            widgets.link((self, "lang"), (self._panel, "lang"))
            self._holder.children = (self._panel,)
        self.clear_report()

    def _show_table(self, game: str, seed: int) -> None:
        from toolkit.widgets.base import close_tree
        from toolkit.widgets.table import GenericTable

        # the page's query (a ?code=) opens the first table only; a click starts the chosen game and seed
        query, self._query = self._query, ""
        old = getattr(self, "_table", None)
        self._table = GenericTable(self.engines[game], seed=seed, lang=self.lang, show_language=False, query=query)
        widgets.link((self, "lang"), (self._table, "lang"))
        self._holder.children = (self._table,)
        if old is not None:
            close_tree(old)
        self.clear_report()

    def refresh(self) -> None:
        self._game.description = self.t("ui.game")
        self._start.description = self.t("ui.new_game")
        self._seed.description = self.t("ui.seed")
        value = self._game.value
        self._game.options = self._game_options()
        self._game.value = value

    def _game_options(self) -> list[tuple[str, str]]:
        return [(self.t(f"game.{g}") if i18n.has(f"game.{g}") else g, g) for g in self.engines]


def debug_dashboard() -> DebugDashboard:
    """Build the dashboard from the page's query string (``game``, ``seed``, ``lang``)."""
    params = query_params()
    try:
        seed = min(max(int(params.get("seed", "1")), 0), MAX_SEED)
    except ValueError:
        seed = 1
    lang = params.get("lang") if params.get("lang") in ("en", "ja") else "en"
    from toolkit.widgets.base import page_query_string
    view = params.get("view", "panel")
    game = params.get("game")
    if params.get("table"):
        # a shared table's link (issue 27) opens on the generic table, on the table's own game
        view = "table"
        game = game or table_game(params["table"])
    return DebugDashboard(game=game, seed=seed, lang=lang, view=view,
                          query=page_query_string() if view == "table" else "")


def table_game(code: str) -> str | None:
    """The game of the shared table ``code`` in the default store, or ``None`` (unknown, unreadable: the
    table page then says why)."""
    from toolkit.core.errors import RuleError
    from toolkit.tables import open_store

    try:
        store = open_store()
        try:
            return store.info(code).game
        finally:
            store.close()
    except (RuleError, TypeError, OSError):
        return None
