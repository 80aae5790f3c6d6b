"""The "How hard is each task?" view: the precomputed study (:func:`toolkit.crew.difficulty.study`) against
the printed difficulty, per player count, and a live rerun of one task. No rules here.
"""

from __future__ import annotations

import html
import threading
from typing import Any, Mapping

import ipywidgets as widgets

from toolkit.core.errors import InvalidMoveError, RuleError
from toolkit.crew.solver import TaskRef
from toolkit.widgets.base import Chart, View, set_options, safe_callback
from toolkit.widgets.crew_solver import render
from toolkit.widgets.crew_solver.inputs import PLAYER_CHOICES


class TaskDifficultyView(View):
    """The study: winnable share per task against printed difficulty, and a live rerun of one task."""

    def __init__(self, players: int = 4, task: int = 46, lang: str = "en", background: bool = True):
        super().__init__(lang=lang)  # View draws nothing before _finish; refresh below does
        from toolkit.crew.difficulty import load_table
        from toolkit.crew.tasks import TASKS

        self.add_class("crew-difficulty")
        self.background = background
        self.table = load_table()
        self.rerun_cells: list[Any] = []
        self._thread: threading.Thread | None = None
        self._title = widgets.HTML()
        self._players = widgets.ToggleButtons(options=[(str(p), p) for p in PLAYER_CHOICES],
                                              value=players if players in PLAYER_CHOICES else 4)
        self._players.add_class("crew-difficulty-players")
        self._info = widgets.HTML()
        self._info.add_class("crew-difficulty-info")
        from toolkit.plots.crew_difficulty import difficulty_figure

        self._figure = difficulty_figure
        self._chart = Chart(difficulty_figure(self.table, self._players.value, "en"))
        self._task = widgets.Dropdown(options=[(f"#{t} {TASKS[t].text(self.lang)}"[:70], t) for t in sorted(TASKS)],
                                      value=task if task in TASKS else 46, layout=widgets.Layout(width="40em"))
        self._task.add_class("crew-difficulty-task")
        self._cell = widgets.HTML()
        self._cell.add_class("crew-difficulty-cell")
        self._deals = widgets.IntSlider(min=4, max=40, step=4, value=12, continuous_update=False)
        self._deals.add_class("crew-difficulty-deals")
        self._rerun = widgets.Button(button_style="primary")
        self._rerun.add_class("crew-difficulty-rerun")
        self._progress = widgets.HTML()
        self._progress.add_class("crew-difficulty-progress")
        self._players.observe(self._on_players, "value")
        self._task.observe(self._on_task, "value")
        self._rerun.on_click(self._on_rerun)
        self._finish([self._title, self._players, self._info, self._chart, self._task, self._cell,
                      widgets.HBox([self._deals, self._rerun]), self._progress])
        self.refresh()

    def _cell_html(self, cell: Any, cls: str) -> str:
        share = "—" if cell.share is None else f"{100 * cell.share:.0f} %"
        low, high = cell.interval
        text = self.t("crew.ui.solver.cell", task=TaskRef(cell.task).text(self.lang), players=cell.players,
                      win=cell.win, decided=cell.decided, share=share, low=f"{100 * low:.0f} %",
                      high=f"{100 * high:.0f} %", undecided=cell.undecided, difficulty=cell.difficulty)
        return render.cell_html(cls, text)

    @safe_callback
    def _on_players(self, change: Mapping[str, Any]) -> None:
        if change["new"] not in PLAYER_CHOICES:
            raise InvalidMoveError(f"players must be 3, 4 or 5, not {change['new']!r}")
        self.rerun_cells = []
        self.refresh()

    @safe_callback
    def _on_task(self, change: Mapping[str, Any]) -> None:
        from toolkit.crew.tasks import TASKS

        if change["new"] is None:
            return                      # set_options relabelling: the task comes back at once
        if change["new"] not in TASKS:
            raise InvalidMoveError(f"no task {change['new']!r}")
        self._show_cell()

    @safe_callback
    def _on_rerun(self, _button: Any = None) -> None:
        self.rerun()

    def rerun(self) -> None:
        """Rerun the selected task for the selected player count, live, with progress."""
        from toolkit.crew.difficulty import study
        from toolkit.crew.tasks import TASKS

        if self._thread is not None and self._thread.is_alive():
            return
        task, players, deals = self._task.value, self._players.value, self._deals.value
        if task not in TASKS or players not in PLAYER_CHOICES:
            raise InvalidMoveError("pick a task and a player count")
        if isinstance(deals, bool) or not isinstance(deals, int) or not 4 <= deals <= 40:
            raise InvalidMoveError("deals must be between 4 and 40")
        self._rerun.disabled = True

        def progress(done: int, total: int) -> None:
            self._progress.value = html.escape(self.t("crew.ui.solver.rerun_progress", done=done, total=total))

        def work() -> None:
            try:
                result = study(tasks=[task], players=[players], deals=deals, seed=self.table.seed,
                               node_limit=self.table.node_limit, chunk=4, on_chunk=progress,
                               # a table made before the SAT pass has no sat_limit: rerun it the same way
                               sat_limit=int(self.table.meta.get("sat_limit", 0)))
                self.rerun_cells = list(result.cells)
                self._progress.value = self._cell_html(result.cells[0], "crew-difficulty-rerun-result")
                self._chart.update(self._figure(self.table, players, self.lang, highlight=self.rerun_cells))
            except RuleError as exc:
                self.report(exc, error=True)
            except Exception as exc:  # noqa: BLE001
                self.report(self.t("ui.internal_error", detail=f"{type(exc).__name__}: {str(exc)[:120]}"),
                            error=True)
            finally:
                self._rerun.disabled = False

        if self.background:
            self._thread = threading.Thread(target=work, name="crew-difficulty", daemon=True)
            self._thread.start()
        else:
            work()

    def wait(self, timeout: float | None = None) -> None:
        if self._thread is not None:
            self._thread.join(timeout)

    def _show_cell(self) -> None:
        cell = self.table.cell(self._task.value, self._players.value)
        self._cell.value = self._cell_html(cell, "crew-difficulty-cell-text")

    def refresh(self) -> None:
        from toolkit.crew.tasks import TASKS

        players = self._players.value
        self._title.value = render.heading_html(self.t("crew.ui.solver.difficulty_title"),
                                                self.t("crew.ui.solver.difficulty_intro"))
        self._players.description = self.t("crew.ui.solver.players")
        cells = [c for c in self.table.cells if c.players == players]
        self._info.value = html.escape(self.t(
            "crew.ui.solver.table_info", deals=sum(c.deals for c in cells), seed=self.table.seed,
            node_limit=self.table.node_limit, undecided=sum(c.undecided for c in cells)))
        self._chart.update(self._figure(self.table, players, self.lang, highlight=self.rerun_cells))
        options = [(f"#{t} {TASKS[t].text(self.lang)}"[:70], t) for t in sorted(TASKS)]
        if list(self._task.options) != options:
            set_options(self._task, options)
        self._task.description = self.t("crew.ui.solver.task")
        self._deals.description = self.t("crew.ui.solver.deals")
        self._rerun.description = self.t("crew.ui.solver.rerun_button")
        self._show_cell()


__all__ = ["TaskDifficultyView"]
