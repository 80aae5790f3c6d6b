"""The "Was our mission winnable?" view: deal or type the hands and tasks (or paste a mission saved by the
mission dashboard), solve in the background with live progress and a Stop button, read the verdict and its
reason, replay the winning line trick by trick with the tasks' status. No rules here: every verdict comes
from :func:`toolkit.crew.solver.solve`; what a click does to TONOJA's columns, from
:mod:`toolkit.crew.tonoja_columns`; the page's HTML from :mod:`.render`.

Every widget value is untrusted (a visitor can send any comm message): inputs are parsed and bounded
(:mod:`.inputs`) and refusals are shown, never raised.
"""

from __future__ import annotations

import html
import threading
from typing import Any, Mapping

import ipywidgets as widgets

from toolkit.core.errors import InvalidMoveError, RuleError
from toolkit.crew.cards import Card, cards as parse_cards
from toolkit.crew.solver import Solution, TaskRef, prepare, solve
from toolkit.crew.solver.api import engine_task_status
from toolkit.crew.tonoja_columns import (TONOJA_FACES, Column, apply_picker_change, column_cards, columns_text,
                                         columns_without, free_columns, lenient_columns, parse_columns_text,
                                         place_in_columns)
from toolkit.widgets.base import View, query_params, safe_callback, set_options
from toolkit.widgets.components.crew import CardPicker, TaskTokens, TrickTable
from toolkit.widgets.crew_solver import render
from toolkit.widgets.markup import refusal
from toolkit.widgets.crew_solver.inputs import (MAX_TEXT, MAX_TIME_LIMIT, TONOJA_SEAT, WINNABLE_PLAYERS, PageRefusal,
                                                card_played, dealt_texts, lenient_cards, parse_query_hands,
                                                parse_query_tasks, parse_task_text, position_from_mission)

FIRST_FREE = -1   # the "under column" choice meaning the leftmost column without a face-down card
STATUS_KEYS = {"done": "crew.ui.solver.status.done", "failed": "crew.ui.solver.status.failed",
               "pending": "crew.ui.solver.status.pending"}


class WinnableView(View):
    """Was this mission winnable? Hands and tasks in, verdict, reason and a replayable winning line out."""

    def __init__(self, players: int = 4, seed: int = 1, tasks: Mapping[int, str] | None = None,
                 lang: str = "en", background: bool = True, time_limit: float = 10.0,
                 hands: Mapping[int, str] | None = None, captain: int | None = None, leader: int | None = None):
        super().__init__(lang=lang)  # View draws nothing before _finish; refresh below does
        self.add_class("crew-solver")
        self.background = background
        self.solution: Solution | None = None
        self._position = None
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._title = widgets.HTML()
        self._players = widgets.ToggleButtons(options=[(str(p), p) for p in WINNABLE_PLAYERS], value=4,
                                              style={"button_width": "3.5em"})
        self._players.add_class("crew-solver-players")
        # description_width "initial": the label takes the width its text needs (en or ja) and the box keeps
        # room for a ten-digit seed; a fixed total width left the input 29 px wide.
        self._seed = widgets.BoundedIntText(value=1, min=0, max=2**31 - 1, layout=widgets.Layout(width="18em"),
                                            style={"description_width": "initial"})
        self._seed.add_class("crew-solver-seed")
        self._deal = widgets.Button()
        self._deal.add_class("crew-solver-deal")
        self._hands = [widgets.Text(layout=widgets.Layout(width="34em")) for _ in range(5)]
        self._tasks = [widgets.Text(layout=widgets.Layout(width="10em")) for _ in range(5)]
        for i, (h, t) in enumerate(zip(self._hands, self._tasks)):
            h.add_class("crew-solver-hand")
            h.add_class(f"crew-solver-hand-{i}")
            t.add_class("crew-solver-tasks")
            t.add_class(f"crew-solver-tasks-{i}")
        self._rows = [widgets.HBox([h, t]) for h, t in zip(self._hands, self._tasks)]
        # point, don't type: the hands are built by clicking cards, the tasks given by clicking; the boxes
        # above stay the one source of truth (typed codes are accepted as they always were)
        self._build_seat = widgets.ToggleButtons(options=[("0", 0)], value=0,
                                                 style={"button_width": "auto", "description_width": "initial"})
        self._build_seat.add_class("crew-solver-build-seat")
        self._picker = CardPicker(ordered=False, title_key="crew.ui.solver.picker_title")
        self._picker.add_class("crew-solver-picker")
        self._picker_shown: tuple[Card, ...] = ()   # what the picker was last given (a click is the difference)
        self._picker.set_check(self._check_picker_click)
        # two players, building TONOJA: what a click places (a new column face up, or face down under the first
        # column without one), the rule in words, and a way to start the columns afresh
        self._tonoja_face = widgets.ToggleButtons(options=[("up", "up"), ("down", "down")], value="up",
                                                  style={"button_width": "auto", "description_width": "initial"})
        self._tonoja_face.add_class("crew-solver-tonoja-face")
        # face down: under which column (FIRST_FREE: the leftmost without a face-down card)
        self._tonoja_under = widgets.Dropdown(options=[("", FIRST_FREE)], value=FIRST_FREE,
                                              layout=widgets.Layout(width="auto"),
                                              style={"description_width": "initial"})
        self._tonoja_under.add_class("crew-solver-tonoja-under")
        self._tonoja_clear = widgets.Button(layout=widgets.Layout(width="auto"))
        self._tonoja_clear.add_class("crew-solver-tonoja-clear")
        self._tonoja_help = widgets.HTML()
        self._tonoja_help.add_class("crew-solver-tonoja-help")
        self._tonoja_box = widgets.VBox([
            widgets.HBox([self._tonoja_face, self._tonoja_under, self._tonoja_clear],
                         layout=widgets.Layout(flex_flow="row wrap", align_items="flex-end")),
            self._tonoja_help])
        self._tonoja_box.add_class("crew-solver-tonoja-build")
        self._tonoja_box.layout.display = "none"
        # a dealt hand emptied in one click, to build it afresh (TONOJA's columns have their own button)
        self._clear_hand = widgets.Button(layout=widgets.Layout(width="auto"))
        self._clear_hand.add_class("crew-solver-clear-hand")
        # every seat's hand as cards with its count: one HTML widget (each anywidget instance carries its
        # own copy of the component module and stylesheet, ~22 kB: five hand components tripled the page)
        self._hands_box = widgets.HTML()
        self._hands_box.add_class("crew-solver-hands")
        self._type_toggle = widgets.ToggleButton(value=False, layout=widgets.Layout(width="auto", align_self="flex-start"))
        self._type_toggle.add_class("crew-solver-type")
        self._rows_box = widgets.VBox(self._rows)
        self._rows_box.layout.display = "none"
        self._task_choice = widgets.Dropdown(options=[], layout=widgets.Layout(width="30em"))
        self._task_choice.add_class("crew-solver-task-choice")
        self._task_owner = widgets.ToggleButtons(options=[("0", 0)], value=0, style={"button_width": "auto"})
        self._task_owner.add_class("crew-solver-task-owner")
        self._task_add = widgets.Button(layout=widgets.Layout(width="auto"))
        self._task_add.add_class("crew-solver-task-add")
        self._task_tokens = TaskTokens()
        self._task_tokens.add_class("crew-solver-task-tokens")
        self._task_label = widgets.HTML()
        self._line_table: TrickTable | None = None   # made at the first solution (page weight at open)
        self._line_back = widgets.Button(layout=widgets.Layout(width="auto"))
        self._line_back.add_class("crew-solver-line-back")
        self._line_next = widgets.Button(layout=widgets.Layout(width="auto"))
        self._line_next.add_class("crew-solver-line-next")
        self._line_box = widgets.VBox([widgets.HBox([self._line_back, self._line_next])])
        self._line_box.layout.display = "none"
        self._link = widgets.HTML()
        self._link.add_class("crew-solver-link")
        self._syncing = False
        self._captain = widgets.Dropdown(layout=widgets.Layout(width="14em"), style={"description_width": "initial"})
        self._captain.add_class("crew-solver-captain")
        self._leader = widgets.Dropdown(layout=widgets.Layout(width="14em"), style={"description_width": "initial"})
        self._leader.add_class("crew-solver-leader")
        self._limit = widgets.BoundedFloatText(value=time_limit, min=0.1, max=MAX_TIME_LIMIT,
                                               layout=widgets.Layout(width="18em"),
                                               style={"description_width": "initial"})
        self._limit.add_class("crew-solver-limit")
        self._solve = widgets.Button(button_style="primary")
        self._solve.add_class("crew-solver-solve")
        self._stop_button = widgets.Button(disabled=True)
        self._stop_button.add_class("crew-solver-stop")
        self._progress = widgets.HTML()
        self._progress.add_class("crew-solver-progress")
        self._verdict = widgets.HTML()
        self._verdict.add_class("crew-solver-verdict")
        self._replay = widgets.IntSlider(min=0, max=0, value=0, continuous_update=False)
        self._replay.add_class("crew-solver-replay")
        self._trick = widgets.HTML()
        self._trick.add_class("crew-solver-trick")
        self._mission_label = widgets.HTML()
        self._mission = widgets.Textarea(layout=widgets.Layout(width="46em", height="4em"))
        self._mission.add_class("crew-solver-mission")
        self._load = widgets.Button()
        self._load.add_class("crew-solver-load")

        self._deal.on_click(self._on_deal)
        self._solve.on_click(self._on_solve)
        self._stop_button.on_click(self._on_stop)
        self._load.on_click(self._on_load)
        self._replay.observe(self._on_replay, "value")
        self._players.observe(self._on_players, "value")
        self._picker.on_change(self._on_picked)
        self._build_seat.observe(self._on_build_seat, "value")
        self._tonoja_face.observe(self._on_build_seat, "value")
        self._tonoja_under.observe(self._on_build_seat, "value")
        self._tonoja_clear.on_click(self._on_tonoja_clear)
        self._clear_hand.on_click(self._on_clear_hand)
        self._type_toggle.observe(self._on_type_toggle, "value")
        self._task_add.on_click(self._on_task_add)
        self._task_tokens.on_pick(self._on_task_token)
        self._line_back.on_click(lambda _b: self._step_line(-1))
        self._line_next.on_click(lambda _b: self._step_line(+1))
        for box in self._hands + self._tasks:
            box.observe(self._on_box, "value")
        for w in (self._captain, self._leader):
            w.observe(self._on_box, "value")
        wrap = widgets.Layout(flex_flow="row wrap", align_items="flex-start")
        self._finish([
            self._title,
            widgets.HBox([self._players, self._seed, self._deal], layout=wrap),
            widgets.HBox([self._build_seat, self._clear_hand],
                         layout=widgets.Layout(flex_flow="row wrap", align_items="flex-end")),
            self._tonoja_box,
            widgets.HBox([self._picker, self._hands_box], layout=wrap),
            self._type_toggle,
            self._rows_box,
            self._task_label,
            widgets.HBox([self._task_choice, self._task_owner, self._task_add], layout=wrap),
            self._task_tokens,
            widgets.HBox([self._captain, self._leader, self._limit], layout=wrap),
            widgets.HBox([self._solve, self._stop_button, self._progress], layout=wrap),
            self._verdict,
            self._line_box,
            self._replay,
            self._trick,
            self._link,
            self._mission_label,
            widgets.HBox([self._mission, self._load], layout=wrap),
        ])
        self._syncing = True   # one redraw at the end, not one per box
        try:
            self._set_players(players if players in WINNABLE_PLAYERS else 4)
            self.deal(seed)
            for seat, text in (hands or {}).items():
                if isinstance(seat, int) and 0 <= seat < 5 and isinstance(text, str):
                    self._hands[seat].value = text[:MAX_TEXT]
            for seat, text in (tasks or {}).items():
                if isinstance(seat, int) and 0 <= seat < 5 and isinstance(text, str):
                    self._tasks[seat].value = text[:MAX_TEXT]
            for widget, value in ((self._captain, captain), (self._leader, leader)):
                if (isinstance(value, int) and not isinstance(value, bool)
                        and value in [v for _label, v in widget.options]):
                    widget.value = value
        finally:
            self._syncing = False
        self.refresh()

    def report(self, item: Any, error: bool = False) -> None:
        super().report(item, error)
        if isinstance(item, PageRefusal):
            text = self.t("ui.bad_input", detail=self.t(item.key, **item.params))
            self._message.value = refusal(text)

    # ---- building ---------------------------------------------------------------------------------
    @classmethod
    def from_query(cls, query: str | None = None, **kwargs: Any) -> "WinnableView":
        """A view set up from the page URL: ``?players=4&seed=7&tasks=0:16,79;2:17&lang=ja``."""
        params = query_params(query)
        players = int(params["players"]) if params.get("players", "").isdigit() else 4
        seed = int(params["seed"][:12]) if params.get("seed", "").isdigit() else 1
        lang = params.get("lang") if params.get("lang") in ("en", "ja") else kwargs.pop("lang", "en")
        tasks = parse_query_tasks(params.get("tasks", "0:16"))
        hands = parse_query_hands(params.get("hands", ""))
        seats = {k: int(params[k]) for k in ("captain", "leader") if params.get(k, "").isdigit() and len(params[k]) < 3}
        return cls(players=players if players in WINNABLE_PLAYERS else 4, seed=min(seed, 2**31 - 1),
                   tasks=tasks, lang=lang, hands=hands, **seats, **kwargs)

    def share_params(self) -> dict[str, str]:
        """What a link to this position holds: players, seed, the hands unless they are the seed's deal,
        the tasks by seat, the captain and the leader (the URL form of every box)."""
        players, seats = self._players.value, self.seats
        out = {"players": str(players), "seed": str(self._seed.value)}
        typed = [" ".join(self._hands[s].value.split()) for s in range(seats)]
        if typed != dealt_texts(players, int(self._seed.value)):
            out["hands"] = ";".join(f"{s}:{'-'.join(typed[s].split())}" for s in range(seats))
        tasks = ";".join(f"{s}:{','.join(x.strip() for x in self._tasks[s].value.split(',') if x.strip())}"
                         for s in range(seats) if self._tasks[s].value.strip())
        if tasks:
            out["tasks"] = tasks
        out["captain"] = str(self._captain.value)
        out["leader"] = str(self._leader.value)
        return out

    def share_query(self) -> str:
        """The link's query (``players=4&seed=1&tasks=0:16&captain=3&leader=3``)."""
        import urllib.parse
        return urllib.parse.urlencode(self.share_params(), safe="-:;,=/")

    @property
    def seats(self) -> int:
        """The hands on the table: the players, and TONOJA at two players."""
        return 3 if self._players.value == 2 else self._players.value

    @property
    def two_players(self) -> bool:
        return self._players.value == 2

    def seat_name(self, seat: int, capital: bool = True) -> str:
        """"Seat 1" ("seat 1" in running text), or "TONOJA" for the third hand at two players."""
        if self.two_players and seat == TONOJA_SEAT:
            return self.t("crew.ui.solver.tonoja")
        return self.t("crew.ui.solver.hand" if capital else "crew.ui.solver.seat_in_text", seat=seat)

    @property
    def build_seats(self) -> list[int]:
        """The seats the picker builds: every player's hand, and TONOJA's columns at two players."""
        return list(range(self.seats))

    def _set_players(self, players: int, previous: int | None = None) -> None:
        previous = self._players.value if previous is None else previous
        with self.hold_trait_notifications():
            self._players.value = players
        seats = self.seats
        for i, row in enumerate(self._rows):
            row.layout.display = "" if i < seats else "none"
        self._set_seat_options()
        if self._build_seat.value not in self.build_seats or (previous == 2 != players
                                                              and self._build_seat.value == TONOJA_SEAT):
            self._build_seat.value = 0   # TONOJA's place is not seat 2's hand at three players or more

    def _set_seat_options(self) -> None:
        """Captain, leader and task owner choices: every seat; at two players TONOJA (by name) leads and
        takes tasks but is never the captain (crew.tonoja.captain: its captain decides for it)."""
        named = [(self.seat_name(s) if self.two_players and s == TONOJA_SEAT else str(s + 1), s)   # people count from 1
                 for s in range(self.seats)]
        real = named[:self._players.value] if self.two_players else named
        for widget, options in ((self._captain, real), (self._leader, named), (self._task_owner, named)):
            if list(widget.options) != options:
                value = widget.value
                widget.options = options
                if value in [v for _label, v in options]:
                    widget.value = value


    def deal(self, seed: int) -> None:
        """Deal a seeded game to the hand boxes; the submarine 4 holder becomes captain and leads."""
        players = self._players.value
        texts = dealt_texts(players, int(seed))
        syncing, self._syncing = self._syncing, True
        try:
            for seat, box in enumerate(self._hands):
                box.value = texts[seat] if seat < len(texts) else ""
            # the submarine 4 is always a real player's at two players (it is shuffled back after the columns)
            captain = next(s for s, text in enumerate(texts) if "S4" in text.replace("/", " ").split())
            self._seed.value = int(seed)
            self._captain.value = captain
            self._leader.value = captain
        finally:
            self._syncing = syncing
        self._clear_result()
        if not syncing:
            self._sync_cards()
            self._sync_tasks()
            self._link_html()

    def _clear_result(self) -> None:
        self.solution = None
        self._position = None
        self._verdict.value = ""
        self._trick.value = ""
        self._progress.value = ""
        self._replay.max = 0
        self._replay.value = 0
        self._line_box.layout.display = "none"

    # ---- clicking -----------------------------------------------------------------------------------
    def hand_cards(self, seat: int) -> list[Card]:
        """The cards seat ``seat``'s box holds now (unreadable tokens skipped; TONOJA's: every card of its
        columns, the face-up one of each first)."""
        if self.two_players and seat == TONOJA_SEAT:
            return column_cards(self.tonoja_columns())
        return lenient_cards(self._hands[seat].value)

    def tonoja_columns(self) -> list[Column]:
        """TONOJA's columns as its box holds them now, ``(face_down, face_up)`` (two players)."""
        return lenient_columns(self._hands[TONOJA_SEAT].value)

    def _write_hand(self, seat: int, cards: list[Card]) -> None:
        self._hands[seat].value = " ".join(str(c) for c in sorted(cards))

    @property
    def building_tonoja(self) -> bool:
        """Two players and the picker fills TONOJA's columns."""
        return self.two_players and self._build_seat.value == TONOJA_SEAT

    def _tonoja_face_value(self) -> str:
        face = self._tonoja_face.value
        if face not in TONOJA_FACES:
            raise PageRefusal("crew.ui.solver.bad_tonoja_face", value=repr(face)[:20])
        return face

    def _tonoja_under_value(self, columns: list[Column]) -> int | None:
        """The column a face-down click goes under (index from 0), or None for the leftmost free one. A value
        that names no free column (a forged message) is refused."""
        under = self._tonoja_under.value
        if under == FIRST_FREE and not isinstance(under, bool):
            return None
        if isinstance(under, int) and not isinstance(under, bool) and under in free_columns(columns):
            return under
        raise PageRefusal("crew.ui.solver.bad_tonoja_under", value=repr(under)[:20])

    def _tonoja_columns_alone(self) -> list[Column]:
        """TONOJA's columns without the cards another hand also holds (a typed clash: like a hand's card in
        two places, the card stays with the other hand when TONOJA's columns are written)."""
        others = {c for s in range(self.seats) if s != TONOJA_SEAT for c in self.hand_cards(s)}
        return columns_without(self.tonoja_columns(), others)

    def _check_picker_click(self, card: Card, adding: bool) -> str | None:
        """The picker asks before a click changes anything: a face-down card needs a column without one."""
        if not (adding and self.building_tonoja):
            return None
        columns = self._tonoja_columns_alone()
        try:
            face = self._tonoja_face_value()
            under = self._tonoja_under_value(columns) if face == "down" else None
        except PageRefusal as exc:
            return self.t(exc.key, **exc.params)
        if face == "down" and place_in_columns(columns, card, face, under) is None:
            return self.t("crew.ui.solver.no_free_column")
        return None

    @safe_callback
    def _on_picked(self, value: tuple[Card, ...]) -> None:
        seat = self._build_seat.value
        if self.building_tonoja:
            try:
                self._place_tonoja(value)
            except RuleError:
                self._sync_cards()   # a refused click leaves the picker as the box says
                raise
            return
        if not isinstance(seat, int) or not 0 <= seat < self._players.value:
            raise InvalidMoveError("choose the seat whose hand you build")
        self._write_hand(seat, list(value))

    def _place_tonoja(self, value: tuple[Card, ...]) -> None:
        """One click for TONOJA: the card the picker added goes where the "clicks place" toggle says, the card
        it took out leaves its column; the box is rewritten in ``up/down`` form."""
        face = self._tonoja_face_value()
        columns = self._tonoja_columns_alone()
        under = self._tonoja_under_value(columns) if face == "down" else None
        edited = apply_picker_change(columns, self._picker_shown, value, face, under)
        if edited is None:
            raise PageRefusal("crew.ui.solver.no_free_column")
        self._hands[TONOJA_SEAT].value = columns_text(edited)

    @safe_callback
    def _on_clear_hand(self, _button: Any = None) -> None:
        seat = self._build_seat.value
        if (not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self._players.value
                or (self.two_players and seat == TONOJA_SEAT)):
            raise PageRefusal("crew.ui.solver.clear_which", value=repr(seat)[:20])
        self._hands[seat].value = ""

    @safe_callback
    def _on_tonoja_clear(self, _button: Any = None) -> None:
        if not self.two_players:
            raise PageRefusal("crew.ui.solver.tonoja_two_players")
        self._hands[TONOJA_SEAT].value = ""

    @safe_callback
    def _on_build_seat(self, change: Mapping[str, Any]) -> None:
        if not self._syncing:
            self._sync_cards()

    @safe_callback
    def _on_type_toggle(self, change: Mapping[str, Any]) -> None:
        self._rows_box.layout.display = "flex" if change["new"] else "none"

    @safe_callback
    def _on_box(self, change: Mapping[str, Any]) -> None:
        """A hand or task box changed (typed, clicked or dealt): the drawn cards and tasks follow."""
        if self._syncing:
            return
        if self.solution is not None and (self._thread is None or not self._thread.is_alive()):
            self._clear_result()
        self._sync_cards()
        self._sync_tasks()
        self._link_html()

    @safe_callback
    def _on_task_add(self, _button: Any = None) -> None:
        task, seat = self._task_choice.value, self._task_owner.value
        from toolkit.crew.tasks import TASKS
        if task not in TASKS or not isinstance(seat, int) or not 0 <= seat < self.seats:
            raise InvalidMoveError("choose a task and the seat that takes it")
        for s in range(self.seats):   # a task has one owner: giving it again moves it
            self._remove_task(s, task)
        items = [x.strip() for x in self._tasks[seat].value.split(",") if x.strip()]
        self._tasks[seat].value = ", ".join(items + [str(task)])

    def _remove_task(self, seat: int, task: int) -> None:
        items = [x.strip() for x in self._tasks[seat].value.split(",") if x.strip()]
        kept = [x for x in items if x.lstrip("#").split("=")[0].strip() != str(task)]
        if kept != items:
            self._tasks[seat].value = ", ".join(kept)

    @safe_callback
    def _on_task_token(self, task: int) -> None:
        for s in range(self.seats):
            self._remove_task(s, task)

    def _sync_cards(self) -> None:
        players = self._players.value
        held = [self.hand_cards(s) for s in range(self.seats)]
        seat = self._build_seat.value if self._build_seat.value in self.build_seats else 0
        labels = [(self.t("crew.ui.solver.build_tonoja", n=len(held[s])) if self.two_players and s == TONOJA_SEAT
                   else self.t("crew.ui.solver.build_seat", seat=s, n=len(held[s])), s) for s in self.build_seats]
        if list(self._build_seat.options) != labels:
            syncing, self._syncing = self._syncing, True   # a relabel is not a change of seat
            try:
                self._build_seat.options = labels
                self._build_seat.value = seat
            finally:
                self._syncing = syncing
        others = {c for s in range(self.seats) if s != seat for c in held[s]}
        tonoja = self.two_players and seat == TONOJA_SEAT
        self._tonoja_box.layout.display = "flex" if tonoja else "none"
        self._sync_tonoja_under(tonoja)
        self._clear_hand.layout.display = "none" if tonoja else "flex"
        self._clear_hand.description = self.t("crew.ui.solver.clear_hand", name=self.seat_name(seat))
        self._clear_hand.tooltip = self.t("crew.ui.solver.clear_hand_tip")
        self._picker.lang = self.lang
        self._picker.limit = 40
        self._picker_shown = tuple(c for c in held[seat] if c not in others)
        with self._picker.hold_sync():
            self._picker.set_title("crew.ui.solver.picker_tonoja" if tonoja else "crew.ui.solver.picker_title")
            self._picker.set_marks(self._tonoja_marks() if tonoja else {})
            self._picker.set_value(self._picker_shown)
            self._picker.set_unavailable(others)
        rows = [render.hand_cards_html(s, held[s], self.t("crew.ui.solver.hand_title", seat=s, n=len(held[s])),
                                       self.lang) for s in range(players)]
        if self.two_players:   # while they are built, TONOJA's columns first: beside the picker, or just under it
            columns = self._columns_html(building=tonoja)
            rows = [columns] + rows if tonoja else rows + [columns]
        self._hands_box.value = "".join(rows)

    def _sync_tonoja_under(self, building: bool) -> None:
        """The "under column" choice: shown while face-down cards are clicked into TONOJA's columns; it lists
        the columns without a face-down card and keeps its choice while that column is still free."""
        columns = self._tonoja_columns_alone() if building else []
        options = [(self.t("crew.ui.solver.tonoja_under_first"), FIRST_FREE)] + [
            (self.t("crew.ui.solver.tonoja_under_column", k=k + 1, up=columns[k][1].text(self.lang)), k)
            for k in free_columns(columns)]
        chosen = self._tonoja_under.value
        keep = chosen if chosen in [v for _label, v in options] and not isinstance(chosen, bool) else FIRST_FREE
        if list(self._tonoja_under.options) != options or self._tonoja_under.value != keep:
            syncing, self._syncing = self._syncing, True   # new options are not the learner's choice
            try:
                set_options(self._tonoja_under, options)
                self._tonoja_under.value = keep
            finally:
                self._syncing = syncing
        self._tonoja_under.description = self.t("crew.ui.solver.tonoja_under")
        self._tonoja_under.layout.display = "flex" if building and self._tonoja_face.value == "down" else "none"

    def _tonoja_marks(self) -> dict[Card, tuple[str, ...]]:
        """Each of TONOJA's cards in the picker: its column number as a badge (on the top left corner when face
        up, dark on the bottom right corner when face down: the card under the other) and in words."""
        marks: dict[Card, tuple[str, ...]] = {}
        for k, (down, up) in enumerate(self.tonoja_columns(), start=1):
            marks[up] = (str(k), self.t("crew.ui.solver.mark_up", k=k))
            if down is not None:
                marks[down] = (str(k), self.t("crew.ui.solver.mark_down", k=k), "low")
        return marks

    def _columns_html(self, building: bool = False) -> str:
        """TONOJA's columns as drawn beside the picker (:func:`.render.columns_html`); while they are built
        with face-down clicks, the column the next one goes to is marked."""
        columns = self.tonoja_columns()
        next_down = None
        if building and self._tonoja_face.value == "down":
            next_down = render.next_face_down_column(columns, self._tonoja_under.value)
        return render.columns_html(columns, TONOJA_SEAT, self.t, self.lang, building=building, next_down=next_down)

    def _tasks_by_seat(self) -> dict[int, list[Any]]:
        out: dict[int, list[Any]] = {}
        for seat in range(self.seats):
            try:
                out[seat] = parse_task_text(self._tasks[seat].value)
            except RuleError:
                out[seat] = []   # drawn without it; the solver refuses the box when asked
        return out

    def _sync_tasks(self, statuses: Mapping[tuple[int, int], str] | None = None) -> None:
        from toolkit.crew.tasks import TASKS
        players = self._players.value
        tokens = []
        for seat, items in self._tasks_by_seat().items():
            for item in items:
                task_id, pred = (item if isinstance(item, tuple) else (item, None))
                task = TASKS.get(task_id)
                if task is None:
                    continue
                tokens.append({"id": task_id, "en": task.text("en"), "ja": task.text("ja"), "owner": seat,
                               "status": (statuses or {}).get((seat, task_id), "pending"),
                               "difficulty": task.difficulty_for(players), "prediction": pred})
        self._task_tokens.lang = self.lang
        self._task_tokens.show(tokens[:40], self.seats, names={s: self.seat_name(s) for s in range(self.seats)},
                               selectable=[t["id"] for t in tokens], action_key="crew.comp.click_to_remove")

    def _link_html(self) -> None:
        from toolkit.widgets.crew.common import share_link
        self._link.value = share_link(self.share_params(), self.t("crew.ui.solver.link"))

    # ---- reading the inputs -------------------------------------------------------------------------
    def inputs(self) -> dict[str, Any]:
        """The solver arguments from the boxes (untrusted text: parsed and bounded)."""
        players = self._players.value
        if players not in WINNABLE_PLAYERS:
            raise PageRefusal("crew.ui.solver.bad_players", value=repr(players)[:20])
        seats = self.seats
        hands, columns = [], None
        for seat in range(seats):
            text = self._hands[seat].value
            if not isinstance(text, str):
                raise InvalidMoveError(f"seat {seat}'s hand must be text")
            if players == 2 and seat == TONOJA_SEAT:
                try:
                    pairs = parse_columns_text(text)
                except RuleError as exc:
                    raise PageRefusal("crew.ui.solver.bad_columns", detail=str(exc)[:160]) from None
                if not pairs:
                    raise PageRefusal("crew.ui.solver.no_columns")
                hands.append(column_cards(pairs))
                columns = [(down, up) for down, up in pairs if down is not None]
            else:
                hands.append(list(parse_cards(text[:MAX_TEXT])))
        tasks = {}
        for seat in range(seats):
            ids = parse_task_text(self._tasks[seat].value)
            if ids:
                tasks[seat] = ids
        if not tasks:
            raise InvalidMoveError("give at least one task (a number from 1 to 96) to a seat")
        captain, leader = self._captain.value, self._leader.value
        for name, seat, top in (("captain", captain, players), ("leader", leader, seats)):
            if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < top:
                raise InvalidMoveError(f"the {name} must be a seat from 0 to {top - 1}")
        limit = self._limit.value
        if not isinstance(limit, (int, float)) or not 0 < limit <= MAX_TIME_LIMIT:
            raise InvalidMoveError(f"the time limit must be between 0.1 and {MAX_TIME_LIMIT:g} seconds")
        out = dict(hands=hands, tasks=tasks, leader=leader, captain=captain, time_limit=float(limit))
        if columns is not None:
            out["columns"] = columns
        return out

    # ---- callbacks --------------------------------------------------------------------------------
    @safe_callback
    def _on_players(self, change: Mapping[str, Any]) -> None:
        if change["new"] not in WINNABLE_PLAYERS:
            raise PageRefusal("crew.ui.solver.bad_players", value=repr(change["new"])[:20])
        self._set_players(change["new"], previous=change.get("old"))
        self.deal(self._seed.value)
        self.refresh()   # the seat names (TONOJA) and the task difficulties follow the player count

    @safe_callback
    def _on_deal(self, _button: Any = None) -> None:
        seed = self._seed.value
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**31:
            raise InvalidMoveError(f"the seed must be a whole number from 0 to {2**31 - 1}")
        self.clear_report()
        self.deal(seed)

    @safe_callback
    def _on_solve(self, _button: Any = None) -> None:
        self.start_solve()

    @safe_callback
    def _on_stop(self, _button: Any = None) -> None:
        self._stop.set()

    @safe_callback
    def _on_load(self, _button: Any = None) -> None:
        self.load_mission_json(self._mission.value)

    @safe_callback
    def _on_replay(self, change: Mapping[str, Any]) -> None:
        value = change["new"]
        if not isinstance(value, int):
            raise InvalidMoveError(f"trick number {value!r} is not a number")
        self._show_trick(value)

    # ---- acting -----------------------------------------------------------------------------------
    def start_solve(self) -> None:
        """Solve the position in the boxes: in a background thread (progress, Stop) or at once."""
        if self._thread is not None and self._thread.is_alive():
            return
        args = self.inputs()
        # checked before anything is cleared: a bad position leaves the last result on screen
        columns = {"columns": args["columns"]} if "columns" in args else {}
        position = prepare(args["hands"], args["tasks"], args["leader"], args["captain"], **columns)
        self.clear_report()
        self._clear_result()
        self._position = position
        self._stop = threading.Event()
        self._solve.disabled = True
        self._stop_button.disabled = False
        self._progress.value = html.escape(self.t("crew.ui.solver.searching", nodes=0))

        def progress(nodes: int) -> None:
            self._progress.value = html.escape(self.t("crew.ui.solver.searching", nodes=nodes))

        def work() -> None:
            try:
                sol = solve(args["hands"], args["tasks"], leader=args["leader"], captain=args["captain"],
                            time_limit=args["time_limit"], stop=self._stop, on_progress=progress, **columns)
                self._show_solution(sol)
            except RuleError as exc:
                self.report(exc, error=True)
            except Exception as exc:  # noqa: BLE001 - a background thread must never die silently
                self.report(self.t("ui.internal_error", detail=f"{type(exc).__name__}: {str(exc)[:120]}"),
                            error=True)
            finally:
                self._solve.disabled = False
                self._stop_button.disabled = True
                self._progress.value = ""

        if self.background:
            self._thread = threading.Thread(target=work, name="crew-solver", daemon=True)
            self._thread.start()
        else:
            work()

    def wait(self, timeout: float | None = None) -> None:
        """Wait for a background search (tests and notebooks)."""
        if self._thread is not None:
            self._thread.join(timeout)

    def load_mission_json(self, text: Any) -> None:
        """Load a mission state saved by the mission dashboard (``ENGINE.state_to_json``): the hands as
        dealt, the tasks and their owners."""
        from toolkit.crew.engine import ENGINE

        if not isinstance(text, str) or not text.strip():
            raise InvalidMoveError("paste the JSON or the code of a saved mission first")
        if len(text) > 200_000:
            raise InvalidMoveError("that text is too long to be a saved mission")
        if text.lstrip().startswith("{"):
            state = ENGINE.state_from_json(text)
        else:   # a mission code from the mission dashboard's "Saved missions": replayed move by move
            from toolkit.core.session import Session
            from toolkit.widgets.crew.mission import SavedMissionError, parse_mission_code
            try:
                seed, options, moves = parse_mission_code(text)
            except SavedMissionError as exc:
                raise InvalidMoveError(self.t(exc.key, **exc.params)) from None
            session = Session(ENGINE, seed, options)
            dealt = session.state   # the last position before a card of the current attempt (TONOJA's columns)
            for move in moves:
                session.push(ENGINE.parse_move(move[:200]))
                if not card_played(session.state):
                    dealt = session.state
            self.load_mission(session.state, dealt=dealt)
            return
        self.load_mission(state)

    def load_mission(self, state: Any, dealt: Any = None) -> None:
        args = position_from_mission(state, from_start=True, dealt=dealt)
        two = "columns" in args
        players = 2 if two else len(args["hands"])
        seats = len(args["hands"])
        self._syncing = True
        try:
            self._set_players(players)
            for seat, box in enumerate(self._hands):
                if two and seat == TONOJA_SEAT:   # the columns in their dealt order, then lone face-up cards
                    paired = {c for pair in args["columns"] for c in pair}
                    box.value = columns_text(list(args["columns"]) + [(None, c) for c in args["hands"][seat]
                                                                      if c not in paired])
                else:
                    box.value = " ".join(str(c) for c in args["hands"][seat]) if seat < seats else ""
            for seat, box in enumerate(self._tasks):
                ids = args["tasks"].get(seat, [])
                box.value = ", ".join(f"{t[0]}={t[1]}" if isinstance(t, tuple) else str(t) for t in ids)
            self._captain.value = args["captain"]
            self._leader.value = args["leader"]
        finally:
            self._syncing = False
        self._clear_result()
        self._sync_cards()
        self._sync_tasks()
        self._link_html()
        self.report(self.t("crew.ui.solver.loaded", tricks=len(state.tricks), tasks=len(state.tasks)))

    # ---- showing ----------------------------------------------------------------------------------
    def _show_solution(self, sol: Solution, keep_position: bool = False) -> None:
        self.solution = sol
        reason = sol.reason
        self._verdict.value = render.verdict_html(sol.winnable, sol.verdict(self.lang),
                                                  None if reason is None else reason.text(self.lang),
                                                  None if reason is None else reason.rule)
        if not keep_position:
            self._replay.max = len(sol.line)
            self._replay.value = len(sol.line)
        self._show_trick(self._replay.value)

    def _show_trick(self, number: int) -> None:
        """The winning line up to trick ``number``: that trick on the table (the one before beside it), every
        trick so far as cards, and each task's status at that point (also on its token)."""
        sol, pos = self.solution, self._position
        if sol is None or pos is None or not sol.line:
            self._trick.value = html.escape(self.t("crew.ui.solver.no_line")) if sol is not None else ""
            self._line_box.layout.display = "none"
            return
        number = min(max(number, 0), len(sol.line))
        rows = []
        for k, trick in enumerate(sol.line[:number], start=1):
            plays = [(self.seat_name(s) if self.two_players and s == TONOJA_SEAT else str(s + 1), c)   # people count from 1
                     for s, c in zip(trick.seats, trick.cards)]
            row = self.t("crew.ui.solver.trick_row", number=k, leader=self.seat_name(trick.leader, False),
                         winner=self.seat_name(trick.winner, False))
            rows.append(render.trick_row_html(row, plays, self.lang))
        statuses, by_task = [], {}
        for seat, task_id, prediction in pos.tasks:
            if prediction is None and (seat, task_id) in sol.predictions:
                prediction = sol.predictions[(seat, task_id)]
            status = engine_task_status(task_id, seat, list(sol.line[:number]), pos.players, pos.captain,
                                        prediction, pos.last)
            by_task[(seat, task_id)] = status
            text = self.t("crew.ui.solver.status_row", task=TaskRef(task_id).text(self.lang),
                          seat=self.seat_name(seat, False), status=self.t(STATUS_KEYS[status]))
            statuses.append(render.status_row_html(status, text))
        self._trick.value = render.line_html(rows, statuses)
        # the same trick on a table
        seats = pos.players
        names = {s: self.seat_name(s) for s in range(seats)}
        caption = self.t("crew.ui.solver.line_caption", n=number, total=len(sol.line))
        if self._line_table is None:
            self._line_table = TrickTable()
            self._line_table.add_class("crew-solver-line-table")
            self._line_box.children = (self._line_table,) + tuple(self._line_box.children)
        self._line_table.lang = self.lang
        if number == 0:
            first = sol.line[0]
            self._line_table.show(seats, first.leader, [], names=names, caption=caption,
                                  heading_key="crew.ui.solver.line_heading")
        else:
            trick = sol.line[number - 1]
            prev = sol.line[number - 2] if number >= 2 else None
            self._line_table.show(seats, trick.leader, list(trick.cards), winner=trick.winner,
                                  previous=(prev.leader, prev.cards, prev.winner) if prev else None, names=names,
                                  caption=caption, heading_key="crew.ui.solver.line_heading")
        self._line_box.layout.display = "flex"
        self._line_back.description = self.t("crew.ui.solver.line_back")
        self._line_next.description = self.t("crew.ui.solver.line_next")
        self._line_back.disabled = number == 0
        self._line_next.disabled = number >= len(sol.line)
        self._sync_tasks(by_task)

    def _step_line(self, delta: int) -> None:
        if self.solution is None or not self.solution.line:
            return
        self._replay.value = min(max(self._replay.value + delta, 0), len(self.solution.line))

    def refresh(self) -> None:
        self._title.value = render.heading_html(self.t("crew.ui.solver.title"), self.t("crew.ui.solver.intro"))
        self._players.description = self.t("crew.ui.solver.players")
        self._seed.description = self.t("crew.ui.solver.seed")
        self._deal.description = self.t("crew.ui.solver.deal")
        for seat, (h, t) in enumerate(zip(self._hands, self._tasks)):
            h.description = self.seat_name(seat)
            t.placeholder = self.t("crew.ui.solver.tasks_of", seat=self.seat_name(seat, False))
            tonoja = self.two_players and seat == TONOJA_SEAT
            h.placeholder = self.t("crew.ui.solver.columns_placeholder") if tonoja else ""
        self._set_seat_options()
        self._captain.description = self.t("crew.ui.solver.captain")
        self._leader.description = self.t("crew.ui.solver.leader")
        self._limit.description = self.t("crew.ui.solver.limit")
        self._solve.description = self.t("crew.ui.solver.solve")
        self._stop_button.description = self.t("crew.ui.solver.stop")
        self._replay.description = self.t("crew.ui.solver.replay")
        self._mission_label.value = html.escape(self.t("crew.ui.solver.mission_json"))
        self._load.description = self.t("crew.ui.solver.load_mission")
        self._mission.placeholder = self.t("crew.ui.solver.mission_placeholder")
        self._build_seat.description = self.t("crew.ui.solver.build_label")
        self._build_seat.tooltip = self.t("crew.ui.solver.build_label")
        faces = [(self.t(f"crew.ui.solver.tonoja_face_{f}"), f) for f in TONOJA_FACES]
        if list(self._tonoja_face.options) != faces:
            face = self._tonoja_face.value
            syncing, self._syncing = self._syncing, True   # a relabel is not a change of face
            try:
                self._tonoja_face.options = faces          # (new options reset the value: set it back)
                self._tonoja_face.value = face if face in TONOJA_FACES else "up"
            finally:
                self._syncing = syncing
        self._tonoja_face.description = self.t("crew.ui.solver.tonoja_face")
        self._tonoja_face.tooltips = [self.t(f"crew.ui.solver.tonoja_face_{f}_tip") for f in TONOJA_FACES]
        self._tonoja_clear.description = self.t("crew.ui.solver.tonoja_clear")
        self._tonoja_clear.tooltip = self.t("crew.ui.solver.tonoja_clear_tip")
        self._tonoja_help.value = render.note_html("crew-solver-tonoja-rule", self.t("crew.ui.solver.tonoja_rule"))
        self._type_toggle.description = self.t("crew.ui.solver.type_codes")
        self._type_toggle.tooltip = self.t("crew.ui.solver.type_codes_tip")
        self._task_label.value = f"<b>{html.escape(self.t('crew.ui.solver.task_label'))}</b>"
        self._task_choice.tooltip = self.t("crew.ui.solver.task_choice")
        self._task_owner.tooltip = self.t("crew.ui.solver.task_owner")
        self._task_add.description = self.t("crew.ui.solver.task_add")
        self._update_task_choices()
        self._sync_cards()
        self._link_html()
        if self.solution is not None:
            self._show_solution(self.solution, keep_position=True)
        else:
            self._sync_tasks()

    def _update_task_choices(self) -> None:
        from toolkit.crew.tasks import TASKS
        players = self._players.value
        options = [(f"#{t} [{TASKS[t].difficulty_for(players)}] {TASKS[t].text(self.lang)}"[:80], t)
                   for t in sorted(TASKS)]
        if list(self._task_choice.options) != options:
            value = self._task_choice.value
            self._task_choice.options = options
            self._task_choice.value = value if value in TASKS else options[0][1]


__all__ = ["FIRST_FREE", "WinnableView"]
