"""The strategy study: choose bots, player counts, a removal variant and a number of games; run it with a
progress bar; read win rates with 95% intervals as a table and charts.

The study runs in the kernel in chunks (the same seeded chunks a process pool or Dask would run), so the
progress bar moves and the numbers match ``run_study`` everywhere. Games per combination are capped so
one click stays within a few seconds on a shared machine.
URL parameters: ``games``, ``seed``, ``players`` (e.g. ``2,3``), ``variant``, ``strategies`` (e.g. ``greedy,rank``).
"""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets

from toolkit.core.errors import InvalidMoveError
from toolkit.plots.tranquility import filled_figure, strategy_label, win_rate_figure
from toolkit.tranquility.model import REMOVAL_VARIANTS
from toolkit.tranquility.sim import STRATEGIES
from toolkit.tranquility.study import StudyResult, run_study
from toolkit.widgets.base import Chart, View, esc, query_params, safe_callback
from toolkit.widgets.markup import heading
from toolkit.widgets.tranquility.common import int_param

MAX_GAMES_UI = 2000
DEFAULT_STRATEGIES = ("greedy", "feasibility", "rank")


class StrategyStudyView(View):
    def __init__(self, games: int = 60, seed: int = 2024, lang: str = "en", query: str | None = None,
                 run: bool = False, **kwargs: Any):
        super().__init__(lang=lang, **kwargs)
        self.add_class("tranq-study")
        params = query_params(query)
        games = int_param(params, "games", games, 1, MAX_GAMES_UI)
        seed = int_param(params, "seed", seed, 0, 2**31 - 1)
        wanted = [s for s in params.get("strategies", ",".join(DEFAULT_STRATEGIES)).split(",") if s in STRATEGIES]
        players = [int(p) for p in params.get("players", "2,3").split(",") if p.strip() in ("1", "2", "3", "4", "5")]
        variant = params.get("variant", "none") if params.get("variant", "none") in REMOVAL_VARIANTS else "none"
        self.result: StudyResult | None = None
        self._title = widgets.HTML()
        self._intro = widgets.HTML()
        self._strategy_boxes = {name: widgets.Checkbox(value=name in (wanted or DEFAULT_STRATEGIES), indent=False,
                                                       layout=widgets.Layout(width="auto", min_width="15em"))
                                for name in STRATEGIES}
        for name, box in self._strategy_boxes.items():
            box.add_class(f"tranq-strategy-{name}")
        self._player_boxes = {n: widgets.Checkbox(value=n in (players or [2]), indent=False,
                                                  layout=widgets.Layout(width="auto", min_width="7em",
                                                                        margin="0 1.5em 0 0"))
                              for n in range(1, 6)}
        for n, box in self._player_boxes.items():
            box.add_class(f"tranq-players-{n}")
        self._variant = widgets.Dropdown(options=list(REMOVAL_VARIANTS), value=variant)
        self._variant.add_class("tranq-variant")
        self._games = widgets.BoundedIntText(min=1, max=MAX_GAMES_UI, value=games, layout=widgets.Layout(width="14em"))
        self._games.add_class("tranq-games")
        self._seed = widgets.BoundedIntText(min=0, max=2**31 - 1, value=seed, layout=widgets.Layout(width="14em"))
        self._run = widgets.Button(button_style="primary")
        self._run.add_class("tranq-run")
        self._progress = widgets.IntProgress(min=0, max=1, value=0)
        self._progress.add_class("tranq-progress")
        self._progress_text = widgets.HTML()
        self._table = widgets.HTML()
        self._table.add_class("tranq-results")
        # Charts are built on the first result: an empty chart would still ship plotly to every visitor.
        self._charts = widgets.VBox()
        self._chart: Chart | None = None
        self._filled: Chart | None = None
        self._run.on_click(self._on_run)
        # Rows wrap: at 800 px (JupyterLab's side-by-side preview) the run button went past the edge.
        wrap = widgets.Layout(flex_flow="row wrap", align_items="center")
        self._finish([self._title, self._intro,
                      widgets.HBox(list(self._strategy_boxes.values()), layout=wrap),
                      widgets.HBox(list(self._player_boxes.values()), layout=wrap),
                      widgets.HBox([self._variant, self._games, self._seed, self._run], layout=wrap),
                      widgets.HBox([self._progress, self._progress_text], layout=wrap),
                      self._table, self._charts])
        self.refresh()
        if run:
            self._run.click()

    @safe_callback
    def _on_run(self, _button: Any = None) -> None:
        strategies = [name for name, box in self._strategy_boxes.items() if box.value is True]
        players = [n for n, box in self._player_boxes.items() if box.value is True]
        variant = self._variant.value
        games, seed = self._games.value, self._seed.value
        if not strategies or not players:
            raise InvalidMoveError("choose at least one strategy and one player count")
        if variant not in REMOVAL_VARIANTS:
            raise InvalidMoveError(f"unknown variant {variant!r}")
        if isinstance(games, bool) or not isinstance(games, int) or not 1 <= games <= MAX_GAMES_UI:
            raise InvalidMoveError(f"games must be 1 to {MAX_GAMES_UI}")
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise InvalidMoveError(f"seed {seed!r} must be a whole number ≥ 0")
        self._run.disabled = True
        try:
            self.result = run_study(strategies, players, (variant,), games=games, seed=seed,
                                    chunk_size=max(5, games // 4), progress=self._on_progress)
        finally:
            self._run.disabled = False
        self.clear_report()
        self.refresh()

    def _on_progress(self, done: int, total: int) -> None:
        self._last_progress = (done, total)
        self._progress.max = max(total, 1)
        self._progress.value = done
        self._render_progress()

    def _render_progress(self) -> None:
        done, total = getattr(self, "_last_progress", (0, 0))
        if not total:
            self._progress_text.value = ""
            return
        key = "tranquility.ui.done" if done >= total else "tranquility.ui.running"
        self._progress_text.value = esc(self.t(key, done=done, total=total))

    def refresh(self) -> None:
        lang = self.lang
        self._title.value = heading(self.t("tranquility.ui.study_title"))
        self._intro.value = f"<p>{esc(self.t('tranquility.ui.study_intro'))}</p>"
        for name, box in self._strategy_boxes.items():
            box.description = strategy_label(name, lang)
        for n, box in self._player_boxes.items():
            box.description = self.t("tranquility.ui.players_box", n=n)
        self._variant.description = self.t("tranquility.ui.variant")
        labels = [(self.t(f"tranquility.ui.variant.{v}"), v) for v in REMOVAL_VARIANTS]
        if tuple(self._variant.options) != tuple(labels):
            value = self._variant.value
            self._variant.options = labels
            self._variant.value = value
        self._games.description = self.t("tranquility.ui.games")
        self._seed.description = self.t("tranquility.ui.seed")
        self._run.description = self.t("tranquility.ui.run")
        self._render_progress()
        if self.result is None:
            self._table.value = ""
            return
        head = "".join(f"<th>{esc(self.t(k))}</th>" for k in ("tranquility.ui.col_strategy", "tranquility.ui.players",
                                                              "tranquility.ui.variant", "tranquility.ui.col_games",
                                                              "tranquility.ui.win_rate", "tranquility.ui.col_interval",
                                                              "tranquility.ui.col_filled"))
        body = []
        for r in self.result.rows:
            lo, hi = r.interval()
            body.append(f"<tr class='tranq-row' data-strategy='{esc(r.strategy)}' data-players='{r.players}'>"
                        f"<td>{esc(strategy_label(r.strategy, lang))}</td><td>{r.players}</td>"
                        f"<td>{esc(self.t(f'tranquility.ui.variant.{r.variant}'))}</td>"
                        f"<td>{r.games}</td><td class='tranq-rate'>{r.win_rate:.1%}</td><td>{lo:.1%}–{hi:.1%}</td>"
                        f"<td>{r.mean_filled:.1f}</td></tr>")
        self._table.value = f"<table class='tranq-table'><tr>{head}</tr>{''.join(body)}</table>"
        if self._chart is None or self._filled is None:
            self._chart = Chart(win_rate_figure(self.result, lang))
            self._filled = Chart(filled_figure(self.result, lang))
            self._charts.children = (self._chart, self._filled)
        else:
            self._chart.update(win_rate_figure(self.result, lang))
            self._filled.update(filled_figure(self.result, lang))
