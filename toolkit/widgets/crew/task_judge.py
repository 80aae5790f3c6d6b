"""The task judge (``crew-task-judge``): browse the 96 tasks (filter by category, difficulty, player count)
and judge one live over a sequence of tricks you type, trick by trick, with the engine's judge. Presets show
the tricky rulings (no submarine in sum/even/odd tricks, submarine 1 is not odd, 0 = 0 is not "as many",
"more A than B" with zero B)."""

from __future__ import annotations

from typing import Any, Mapping

import ipywidgets as widgets

from toolkit.core.errors import RuleError
from toolkit.crew.cards import Trick, cards
from toolkit.crew.tasks import TASKS, task_statuses
from toolkit.widgets.base import View, esc, query_params, safe_callback
from toolkit.widgets.crew.common import chips, int_param, lang_param

CATEGORIES = sorted({t.category for t in TASKS.values()})
MAX_TRICKS = 13

#: preset -> (task, owner, players, tricks text, message key)
PRESETS = {
    "sum": (50, 0, 4, "0: P9 P7 P4 S2\n0: B9 B7 B4 B2", "crew.ui.preset_sum"),
    "odd": (47, 0, 4, "0: S1 P7 P5 P3\n0: B9 B7 B5 B3", "crew.ui.preset_odd"),
    "as_many": (92, 1, 4, "0: P1 P2 P3 P4\n0: P5 P6 P7 P8\n0: P9 Y1 Y2 Y3\n0: Y9 Y4 Y5 Y6\n0: Y7 Y8 B1 B2",
                "crew.ui.preset_as_many"),
    "more_than": (95, 1, 4, "0: B1 B2 B3 B4\n0: B5 B6 B7 B8\n0: B9 G1 G2 G3\n1: Y9 Y1 G4 G5",
                  "crew.ui.preset_more_than"),
    "first_two": (78, 0, 4, "0: P9 P7 Y2 P8\n0: S4 B1 S1 S2", "crew.ui.preset_first_two"),
}


def parse_tricks(text: str, players: int, first_leader: int = 0) -> list[Trick]:
    """One trick per line: ``"2: P9 P7 Y2 P8"`` (leader seat, then the cards in play order) or just the
    cards, led by the previous trick's winner (the first by ``first_leader``)."""
    tricks: list[Trick] = []
    leader = first_leader
    for number, line in enumerate(text.strip().splitlines()[:MAX_TRICKS], 1):
        line = line.strip()
        if not line:
            continue
        if ":" in line:
            head, line = line.split(":", 1)
            if not head.strip().isdigit():
                raise RuleError(f"line {number}: {head!r} is not a seat number")
            leader = int(head)
        trick = Trick(leader, cards(line))
        if len(trick.cards) != players:
            raise RuleError(f"line {number}: a trick at {players} seats has {players} cards")
        tricks.append(trick)
        leader = trick.winner
    return tricks


class TaskJudgeView(View):
    def __init__(self, lang: str = "en", query: str | None = None, **kwargs: Any):
        params = query_params(query)
        super().__init__(lang=lang_param(params, lang), **kwargs)
        self.add_class("crew-task-judge")
        self._title = widgets.HTML()
        self._category = widgets.Dropdown(options=[("*", "")] + [(c, c) for c in CATEGORIES], value="")
        self._category.add_class("crew-task-filter-category")
        self._difficulty = widgets.Dropdown(options=[("*", 0)] + [(str(d), d) for d in range(1, 7)], value=0)
        self._difficulty.add_class("crew-task-filter-difficulty")
        self._players = widgets.ToggleButtons(options=[("3", 3), ("4", 4), ("5", 5)],
                                              value=int_param(params, "players", 4, 3, 5),
                                              style={"button_width": "3em"})
        self._players.add_class("crew-task-players")
        self._count = widgets.HTML()
        self._count.add_class("crew-task-count")
        self._list = widgets.Select(options=[], rows=8, layout=widgets.Layout(width="44em"))
        self._list.add_class("crew-task-list")
        self._owner = widgets.BoundedIntText(value=0, min=0, max=4, layout=widgets.Layout(width="5em"))
        self._owner.add_class("crew-task-owner")
        self._captain = widgets.BoundedIntText(value=0, min=0, max=4, layout=widgets.Layout(width="5em"))
        self._captain.add_class("crew-task-captain")
        self._prediction = widgets.BoundedIntText(value=2, min=0, max=13, layout=widgets.Layout(width="5em"))
        self._prediction.add_class("crew-task-prediction")
        self._tricks = widgets.Textarea(value="0: P9 P7 Y2 P8\n0: S4 B1 S1 S2", rows=6,
                                        layout=widgets.Layout(width="30em"))
        self._tricks.add_class("crew-task-tricks")
        self._judge = widgets.Button()
        self._judge.add_class("crew-task-judge-button")
        self._preset = widgets.Dropdown(options=[("—", "")] + [(k, k) for k in PRESETS], value="")
        self._preset.add_class("crew-task-preset")
        self._status = widgets.HTML()
        self._status.add_class("crew-task-status")
        self._labels = {k: widgets.HTML() for k in ("filters", "owner", "captain", "prediction", "tricks", "preset")}
        for w in (self._category, self._difficulty, self._players):
            w.observe(self._on_filter, names="value")
        self._preset.observe(self._on_preset, names="value")
        self._judge.on_click(self._on_judge)
        L = self._labels
        self._finish([self._title,
                      widgets.HBox([L["filters"], self._category, self._difficulty, self._players]), self._count,
                      self._list,
                      widgets.HBox([L["owner"], self._owner, L["captain"], self._captain, L["prediction"],
                                    self._prediction]),
                      widgets.HBox([L["preset"], self._preset]), L["tricks"], self._tricks, self._judge,
                      self._status])
        self.refresh()
        wanted = int_param(params, "task", 78, 1, 96)
        if any(v == wanted for _, v in self._list.options):
            self._list.value = wanted

    def visible_tasks(self) -> list[int]:
        cat = self._category.value if self._category.value in CATEGORIES else ""
        diff = self._difficulty.value if self._difficulty.value in range(0, 7) else 0
        players = self._players.value if self._players.value in (3, 4, 5) else 4
        return [t.id for t in TASKS.values() if (not cat or t.category == cat)
                and (not diff or t.difficulty_for(players) == diff)]

    @safe_callback
    def _on_filter(self, change: Mapping[str, Any]) -> None:
        self._render_list()

    @safe_callback
    def _on_preset(self, change: Mapping[str, Any]) -> None:
        key = self._preset.value
        if key not in PRESETS:
            return
        task, owner, players, text, _ = PRESETS[key]
        self._category.value, self._difficulty.value, self._players.value = "", 0, players
        self._render_list()
        self._list.value = task
        self._owner.value, self._captain.value = owner, 0
        self._tricks.value = text
        self.judge()

    @safe_callback
    def _on_judge(self, _b: Any = None) -> None:
        self.judge()

    def judge(self) -> None:
        """Judge the selected task over the typed tricks; refusals are reported, nothing raises."""
        self.clear_report()
        tr = self.t
        task_id = self._list.value
        if not isinstance(task_id, int) or task_id not in TASKS:
            self.report(tr("crew.ui.pick_task"), error=True)
            return
        players = self._players.value if self._players.value in (3, 4, 5) else 4
        task = TASKS[task_id]
        try:
            tricks = parse_tricks(self._tricks.value[:2000], players, int(self._captain.value) % players)
            statuses = task_statuses(task_id, int(self._owner.value), tricks, players, int(self._captain.value),
                                     int(self._prediction.value) if task.needs_prediction else None)
        except RuleError as exc:
            self.report(exc, error=True)
            self._status.value = ""
            return
        rows = "".join(f"<tr data-status='{s}'><td>{i}</td><td>{chips(t.cards, self.lang)}</td>"
                       f"<td>{esc(tr('crew.ui.won_by', seat=t.winner))}</td><td><b>{esc(tr('crew.status.' + s))}</b></td></tr>"
                       for i, (t, s) in enumerate(zip(tricks, statuses), 1))
        final = statuses[-1] if statuses else "pending"
        note = ""
        key = self._preset.value
        if key in PRESETS and PRESETS[key][0] == task_id:
            note = f"<p class='crew-task-ruling'>{esc(tr(PRESETS[key][4]))}</p>"
        self._status.value = (f"<p data-final='{final}'><b>#{task_id}</b> {esc(task.text(self.lang))} — "
                              f"{esc(tr('crew.ui.judged', seat=int(self._owner.value), status=tr('crew.status.' + final)))}"
                              f" <code class='deepsea-rule'>crew.task.judge</code></p><table>{rows}</table>{note}")

    def _render_list(self) -> None:
        players = self._players.value if self._players.value in (3, 4, 5) else 4
        ids = self.visible_tasks()
        keep = self._list.value
        self._list.options = [(f"#{i} [{TASKS[i].difficulty_for(players)}] {TASKS[i].text(self.lang)}", i) for i in ids]
        if keep in ids:
            self._list.value = keep
        self._count.value = f"<p>{esc(self.t('crew.ui.task_count', n=len(ids), total=len(TASKS)))}</p>"

    def refresh(self) -> None:
        if not hasattr(self, "_status"):
            return
        tr = self.t
        self._title.value = f"<h3>{esc(tr('crew.ui.judge_title'))}</h3><p>{esc(tr('crew.ui.judge_intro'))}</p>"
        for k, w in self._labels.items():
            w.value = esc(tr(f"crew.ui.label_{k}"))
        self._judge.description = tr("crew.ui.judge")
        self._render_list()
        if isinstance(self._list.value, int):
            self.judge()
