"""The task judge (``crew-task-judge``): browse the 96 tasks (filter by category, difficulty, player count)
and judge one live over a sequence of tricks, trick by trick, with the engine's judge. Tricks are played by
clicking cards in the 40-card picker (a trick is complete when every seat has a card; the previous trick's
winner leads the next), or typed one per line (``0: P9 P7 Y2 P8``) by power users; a link keeps them in
the URL (``?task=78&tricks=0:P9-P7-Y2-P8;0:S4-B1-S1-S2``). Presets show the tricky rulings (no submarine in
sum/even/odd tricks, submarine 1 is not odd, 0 = 0 is not "as many", "more A than B" with zero B)."""

from __future__ import annotations

from typing import Any, Mapping

import ipywidgets as widgets

from toolkit.core.errors import RuleError
from toolkit.crew.cards import Trick, cards
from toolkit.crew.tasks import TASKS, task_statuses
from toolkit.widgets.base import View, esc, query_params, safe_callback, set_options
from toolkit.widgets.components.crew import CardPicker, TrickTable
from toolkit.widgets.crew.common import chips, int_param, lang_param, share_link

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


def tricks_text(tricks: list[Trick]) -> str:
    """The typed form of ``tricks`` (one ``leader: cards`` line each)."""
    return "\n".join(f"{t.leader}: {' '.join(map(str, t.cards))}" for t in tricks)


def tricks_param(params: Mapping[str, str]) -> str | None:
    """``?tricks=0:P9-P7-Y2-P8;0:S4-B1-S1-S2`` as typed lines (not parsed here: the judge reports errors)."""
    raw = params.get("tricks")
    if raw is None:
        return None
    return "\n".join(line.replace("-", " ") for line in raw[:600].split(";"))


class TaskJudgeView(View):
    """Pick a task and its owner, click the cards of the tricks (or type them), read the verdict per trick."""

    def __init__(self, lang: str = "en", query: str | None = None, **kwargs: Any):
        params = query_params(query)
        super().__init__(lang=lang_param(params, lang), **kwargs)
        self.add_class("crew-task-judge")
        self._title = widgets.HTML()
        self._category = widgets.Dropdown(options=[("*", "")] + [(c, c) for c in CATEGORIES], value="",
                                         layout=widgets.Layout(width="12em"))
        self._category.add_class("crew-task-filter-category")
        self._difficulty = widgets.Dropdown(options=[("*", 0)] + [(str(d), d) for d in range(1, 7)], value=0,
                                           layout=widgets.Layout(width="13em"),
                                           style={"description_width": "initial"})
        self._difficulty.add_class("crew-task-filter-difficulty")
        self._players = widgets.ToggleButtons(options=[("3", 3), ("4", 4), ("5", 5)],
                                              value=int_param(params, "players", 4, 3, 5),
                                              style={"button_width": "3em"})
        self._players.add_class("crew-task-players")
        self._count = widgets.HTML()
        self._count.add_class("crew-task-count")
        self._list = widgets.Select(options=[], rows=8, layout=widgets.Layout(width="44em"))
        self._list.add_class("crew-task-list")
        seats = [(str(i), i) for i in range(5)]
        self._owner = widgets.ToggleButtons(options=seats, value=0, style={"button_width": "2.6em"})
        self._owner.add_class("crew-task-owner")
        self._captain = widgets.ToggleButtons(options=seats, value=0, style={"button_width": "2.6em"})
        self._captain.add_class("crew-task-captain")
        self._prediction = widgets.BoundedIntText(value=2, min=0, max=13, layout=widgets.Layout(width="5em"))
        self._prediction.add_class("crew-task-prediction")
        self._tricks = widgets.Textarea(value=tricks_param(params) or "0: P9 P7 Y2 P8\n0: S4 B1 S1 S2", rows=6,
                                        layout=widgets.Layout(width="22em"))
        self._tricks.add_class("crew-task-tricks")
        self._picker = CardPicker(limit=5, title_key="crew.ui.judge_pick_label")
        self._picker.add_class("crew-task-picker")
        self._picker.on_change(self._on_picked)
        self._table = TrickTable()
        self._table.add_class("crew-task-trick")
        self._undo = widgets.Button(layout=widgets.Layout(width="auto"))
        self._undo.add_class("crew-task-undo")
        self._undo.on_click(self._on_undo)
        self._clear = widgets.Button(layout=widgets.Layout(width="auto"))
        self._clear.add_class("crew-task-clear")
        self._clear.on_click(self._on_clear)
        self._link = widgets.HTML()
        self._tricks_done: list[Trick] = []
        self._judge = widgets.Button()
        self._judge.add_class("crew-task-judge-button")
        # labelled in refresh (crew.ui.preset_name_<key>, both languages): no raw key reaches the page
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
                      widgets.HBox([L["preset"], self._preset]),
                      widgets.HBox([self._picker, self._table],
                                   layout=widgets.Layout(flex_flow="row wrap")),
                      widgets.HBox([self._undo, self._clear]), self._status,
                      L["tricks"], widgets.HBox([self._tricks, self._judge],
                                                layout=widgets.Layout(flex_flow="row wrap", align_items="flex-end")),
                      self._link])
        self.refresh()
        wanted = int_param(params, "task", 78, 1, 96)
        if any(v == wanted for _, v in self._list.options):
            self._list.value = wanted
        for w in (self._list, self._owner, self._captain, self._prediction):
            w.observe(self._on_choice, names="value")
        self.judge()

    @safe_callback
    def _on_choice(self, change: Mapping[str, Any]) -> None:
        if isinstance(self._list.value, int):
            self.judge()

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
        self._picker.set_value(())
        self.judge()

    def _seats(self) -> int:
        return self._players.value if self._players.value in (3, 4, 5) else 4

    @safe_callback
    def _on_picked(self, value: tuple) -> None:
        """A card clicked in the picker: when every seat has played, the trick joins the list."""
        players = self._seats()
        if len(value) < players:
            self._render_table()
            return
        leader = self._tricks_done[-1].winner if self._tricks_done else int(self._captain.value) % players
        trick = Trick(leader, value[:players])
        self._picker.set_value(())
        self._tricks.value = tricks_text(self._tricks_done + [trick])
        self.judge()

    @safe_callback
    def _on_undo(self, _b: Any = None) -> None:
        if self._picker.value:
            self._picker.set_value(self._picker.value[:-1])
            self._render_table()
            return
        self._tricks.value = tricks_text(self._tricks_done[:-1])
        self.judge()

    @safe_callback
    def _on_clear(self, _b: Any = None) -> None:
        self._picker.set_value(())
        self._tricks.value = ""
        self.judge()

    def _render_table(self) -> None:
        """The trick being clicked (or the last one played) on the table, the one before beside it."""
        players = self._seats()
        done = self._tricks_done
        used = [c for t in done for c in t.cards]
        self._picker.lang = self._table.lang = self.lang
        self._picker.limit = players
        self._picker.set_unavailable(used)
        names = {s: self.t("crew.ui.seat_n", seat=s) + (" ⚓" if s == self._captain.value else "") for s in range(players)}
        if self._picker.value or not done:
            leader = done[-1].winner if done else int(self._captain.value) % players
            prev = (done[-1].leader, done[-1].cards, done[-1].winner) if done else None
            self._table.show(players, leader, self._picker.value, previous=prev, names=names,
                             acting=(leader + len(self._picker.value)) % players)
        else:
            last = done[-1]
            prev = (done[-2].leader, done[-2].cards, done[-2].winner) if len(done) > 1 else None
            self._table.show(players, last.leader, last.cards, winner=last.winner, previous=prev, names=names)
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
        owner, captain = int(self._owner.value) % players, int(self._captain.value) % players
        try:
            tricks = parse_tricks(self._tricks.value[:2000], players, captain)
            statuses = task_statuses(task_id, owner, tricks, players, captain,
                                     int(self._prediction.value) if task.needs_prediction else None)
        except RuleError as exc:
            self.report(exc, error=True)
            self._status.value = ""
            return
        self._tricks_done = tricks
        self._render_table()
        self._link.value = share_link({"task": task_id, "players": players,
                                       "tricks": ";".join(f"{t.leader}:" + "-".join(map(str, t.cards)) for t in tricks),
                                       "lang": self.lang}, tr("crew.ui.share"))
        rows = "".join(f"<tr data-status='{s}'><td>{i}</td><td>{chips(t.cards, self.lang)}</td>"
                       f"<td>{esc(tr('crew.ui.won_by', seat=t.winner))}</td><td><b>{esc(tr('crew.status.' + s))}</b></td></tr>"
                       for i, (t, s) in enumerate(zip(tricks, statuses), 1))
        final = statuses[-1] if statuses else "pending"
        note = ""
        key = self._preset.value
        if key in PRESETS and PRESETS[key][0] == task_id:
            note = f"<p class='crew-task-ruling'>{esc(tr(PRESETS[key][4]))}</p>"
        self._status.value = (f"<p data-final='{final}'><b>#{task_id}</b> {esc(task.text(self.lang))} — "
                              f"{esc(tr('crew.ui.judged', seat=owner, status=tr('crew.status.' + final)))}"
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
        # names for screen readers (the page support turns a tooltip into the control's aria-label)
        self._category.tooltip = tr("crew.ui.tip_category")
        self._difficulty.description = tr("crew.ui.tip_difficulty")
        self._list.tooltip = tr("crew.ui.tip_tasks")
        self._preset.tooltip = tr("crew.ui.label_preset")
        # new labels, same values: the chosen preset stays chosen and is not replayed
        set_options(self._preset, [("—", "")] + [(tr(f"crew.ui.preset_name_{k}"), k) for k in PRESETS])
        self._undo.description = tr("crew.ui.undo_card")
        self._clear.description = tr("crew.ui.clear_tricks")
        self._render_list()
        if isinstance(self._list.value, int):
            self.judge()
