"""The Crew table (``crew-mission``): play a seeded mission with bot partners, or hot seat.

The table is built on the shared table frame (:class:`~toolkit.widgets.table.TableFrame`, docs/architecture.md
"The table frame"): the options bar (mission, players, seed), the seats bar, the status line, the bot line,
the result banner, the refusal line, the hint bar, the event log, undo with the game's code and link, and the
shared-table panel are the frame's. This module draws the Crew's own parts: the task tokens, the trick and
the notes beside it, the hand with its sonar switch, the moves that are not a card or a task (pass,
distress, retry, time up, predictions), the teacher's view of every hand, the post-mortem with its close
calls, and the saved missions.

Each seat is "you" or a bot level of :data:`toolkit.crew.BOTS` (default: you are seat 0, the others the
strongest level); with two players TONOJA's seat follows the captain. Bots move on their own at a visible
pace (:class:`toolkit.widgets.seats.BotDriver`), or one per "Next move" click in step mode.

Hidden information is structural: every widget is filled from ``ENGINE.observe(state, seat)`` of a seat
marked "you" (:meth:`MissionView.viewing_seat`), so no other seat's card reaches the DOM, the widget state
or the websocket — unless the teacher's "show every hand" switch is on (off by default, announced on
screen), or the attempt is over and the post-mortem is opened. A bot's reason is shown only if it names no
card hidden from the viewer; a code is offered only while no distress gift of another seat is in it.

``?seed=7&players=4&mission=3&seats=you,expert,expert,expert&pace=0.7&step=1`` sets up a table;
``?code=…`` (the frame's code) reopens a game where it was, and the older ``?seed=…&moves=…`` links still
open (an ended attempt opens on its post-mortem).
"""

from __future__ import annotations

import re
from typing import Any, Mapping, Sequence

import ipywidgets as widgets

from toolkit.core.errors import RuleError
from toolkit.core.explain import Event, Violation
from toolkit.crew.cards import Card
from toolkit.crew.engine import (ENGINE, AssignAll, AssignTask, Distress, GiveCard, PassTask, PlayCard, Predict,
                                 Retry, Sonar, TakeTask, TimeUp)
from toolkit.crew.missions import LAST_MISSION
from toolkit.widgets.base import esc, explain_html, safe_callback, set_options
from toolkit.widgets.components.crew import TaskTokens, TrickTable
from toolkit.widgets.crew.codes import (MAX_CODE_TEXT, MAX_MOVES_TEXT, STORAGE_KEY, SavedMissionError, decode_moves,  # noqa: F401
                                        encode_moves, finished_mission, mission_code, moves_from_query,
                                        options_from_query, pace_from_query, parse_mission_code, seats_from_query)
from toolkit.widgets.crew.common import chip
from toolkit.widgets.crew.hints import hint_marks
from toolkit.widgets.crew.post_mortem import MAX_REVIEWED_ALLOCATIONS, PostMortemPanel, review_inputs  # noqa: F401 (re-exported)
from toolkit.widgets.crew.saved import SavedMissionsMixin
from toolkit.widgets.crew.table_parts import (QUICK_BUTTONS, QUICK_MOVES, BoardNotes, HandPanel,  # noqa: F401
                                              OtherMoves, TeacherHands, wrap_layout)
from toolkit.widgets.rulebook import table_rules_html
from toolkit.widgets.seats import SeatSetup, default_seats
from toolkit.widgets.table import RefusalLine, TableFrame
from toolkit.widgets.table.code import GameCodeError, parse_game_code
from toolkit.widgets.table.frame import table_query


def bot_levels() -> list[str]:
    """The Crew's bot levels, strongest first (whatever ``toolkit.crew.BOTS`` holds today)."""
    from toolkit.crew import BOTS
    return list(BOTS)


def card_patterns(card: Card) -> list[re.Pattern]:
    """How a card can appear in a sentence (code, English and Japanese names)."""
    forms = [str(card), card.text("en"), card.text("ja")]
    return [re.compile(r"(?<![A-Za-z0-9])" + re.escape(f) + r"(?![0-9])") for f in forms]


class CrewSeatSetup(SeatSetup):
    """The seats bar of a Crew table: TONOJA's seat follows the captain, and is nobody's seat of its own
    (it never counts as a person: one person at a two-player table is "You", not a hot seat)."""

    def human_seats(self) -> list[int]:
        return [s for s in super().human_seats() if s not in self._follows]


def _query_options(params: Mapping[str, str]) -> dict[str, Any]:
    """The options the query names (``players``, ``mission``: clamped), only those."""
    _seed, options = options_from_query(params)
    return {name: options[name] for name in ("players", "mission") if name in params}


class MissionView(SavedMissionsMixin, TableFrame):
    """A mission at one table, on the shared table frame: the tasks as tokens, the trick, your hand with
    the sonar switch, the other moves, the post-mortem, the saved missions (the frame: options, seats,
    status, bot line, result, refusal, hint, log, undo, code and link, the shared-table panel)."""

    def __init__(self, seed: int | None = None, players: int | None = None, mission: int | None = None,
                 lang: str = "en", query: str | None = None, seats: Sequence[str] | None = None,
                 pace: float | None = None, step_mode: bool | None = None, autoplay: bool = True,
                 show_language: bool = True):
        params = table_query(query) if show_language or query is not None else {}
        options: dict[str, Any] = {"players": 4, "mission": 1}
        if players is not None:
            options["players"] = players
        if mission is not None:
            options["mission"] = mission
        self._pace = pace if pace is not None else pace_from_query(params)
        self._step_mode = bool(step_mode) if step_mode is not None else params.get("step") in ("1", "true", "yes")
        wanted_players = _query_options(params).get("players", options["players"])
        seat_count = wanted_players + 1 if wanted_players == 2 else wanted_players   # TONOJA's seat too
        start_seats = list(seats) if seats is not None else (
            seats_from_query(params, seat_count, bot_levels()) if "seats" in params else None)
        if lang == "en" and params.get("lang") in ("en", "ja"):
            lang = params["lang"]
        super().__init__(ENGINE, seed=seed if seed is not None else 1, options=options, seats=start_seats,
                         levels=bot_levels(), lang=lang, show_language=show_language, autoplay=autoplay,
                         query=query)
        self.add_class("crew-mission")
        # the saved missions under the code box: one place for codes, this game's and the earlier ones
        self.controls.children = (*self.controls.children, self._saved_box)
        if self._shared_on():
            return                # a shared table's page: its post-mortem opens with on_final_state
        reads_page = show_language or query is not None
        old_moves = moves_from_query(query) if reads_page and not params.get("code") else []
        if old_moves:             # an older link: ?seed=…&players=…&mission=…&moves=… (a saved mission)
            q_seed, q_options = options_from_query(params)
            self.open_saved(q_seed, q_options, old_moves)
        elif self._ended():
            self._remember()
            self.show_post_mortem()     # the link to a mission as played opens on its review

    # ---- the frame's hooks -----------------------------------------------------------------------------
    def build(self) -> None:
        self._quiet = False
        self._position_seen: Any = None
        self._seat_label = widgets.HTML()
        self._seat = widgets.ToggleButtons(options=[("0", 0)], value=0, style={"button_width": "auto"})
        self._seat.add_class("crew-seat")
        self._seat.observe(self._on_seat, names="value")
        self._seat_row = widgets.HBox([self._seat_label, self._seat], layout=wrap_layout())
        self._tasks = TaskTokens()
        self._tasks.add_class("crew-tasks")
        self._tasks.on_pick(self._on_task)
        # the components say themselves why they refuse a pick (beside the clicked object); the engine's
        # refusals of a task click are answered under the tasks, those of the hand and moves beside them
        self._task_refusal = RefusalLine()
        self._trick = TrickTable()
        self._trick.add_class("crew-table")
        self._board = BoardNotes()
        self._hand_panel = HandPanel(self._on_card, self._on_sonar_mode)
        self._hand, self._sonar = self._hand_panel.hand, self._hand_panel.sonar
        self._others = TeacherHands()
        self._other_moves = OtherMoves(self._on_quick, self._on_apply)
        self._quick, self._quick_row = self._other_moves.quick, self._other_moves.quick_row
        self._actions, self._apply = self._other_moves.actions, self._other_moves.apply
        self._actions_box = widgets.VBox([self._hand, widgets.HBox([self._sonar], layout=wrap_layout()),
                                          self._other_moves.list_row])
        self._actions_box.add_class("crew-actions-box")
        # the options: mission and players (the frame's bar adds the seed and "New game"), labelled
        initial = {"description_width": "initial"}
        self._mission_pick = widgets.Dropdown(options=list(range(1, LAST_MISSION + 1)), value=1,
                                              layout=widgets.Layout(width="auto"), style=initial)
        self._mission_pick.add_class("crew-pick-mission")
        self._players_pick = widgets.Dropdown(options=[2, 3, 4, 5], value=4, layout=widgets.Layout(width="auto"),
                                              style=initial)
        self._players_pick.add_class("crew-pick-players")
        self._post_mortem = PostMortemPanel(self)
        self._post_mortem_box = widgets.VBox(self._post_mortem.parts)
        self._post_mortem_box.add_class("crew-post-mortem-box")
        self._build_saved_panel()   # saved missions (saved.py)

    def board_widgets(self) -> list[widgets.Widget]:
        # pass, distress, retry and time up under the tasks, where the status line says they are
        return [self._seat_row, self._tasks, self._quick_row, self._task_refusal,
                widgets.HBox([self._trick, self._board], layout=wrap_layout()),
                self._others, self._post_mortem_box]

    def action_widgets(self) -> list[widgets.Widget]:
        return [self._actions_box]

    def option_widgets(self) -> dict[str, widgets.Widget]:
        return {"mission": self._mission_pick, "players": self._players_pick}

    def options_from_widgets(self, values: Mapping[str, Any]) -> dict[str, Any]:
        # untrusted widget values: the engine checks them (a bad one is refused beside "New game")
        return {**self.model.session.options, "mission": values.get("mission"), "players": values.get("players")}

    def options_from_query(self, params: Mapping[str, str]) -> dict[str, Any]:
        return _query_options(params)

    def label_options(self) -> None:
        self._mission_pick.description = self.t("crew.ui.pick_mission")
        self._players_pick.description = self.t("crew.ui.pick_players")
        set_options(self._players_pick, [(self.t("crew.ui.players_option_tonoja") if n == 2 else str(n), n)
                                         for n in (2, 3, 4, 5)])

    def seat_options(self) -> dict[str, Any]:
        old = getattr(self, "_setup", None)   # another table size keeps the pace and step mode
        if old is not None:
            return {"pace": old.pace, "step_mode": old.step_mode}
        return {"pace": self._pace, "step_mode": self._step_mode}

    def make_seat_setup(self, players: int, seats: Sequence[str] | None) -> SeatSetup:
        """Nobody plays TONOJA: the captain decides for it (crew.tonoja.captain), so its picker says so."""
        state = self.model.session.state
        follows = {} if state.tonoja is None else {state.tonoja: state.captain}
        levels = self.levels
        players = state.seats          # with two players, TONOJA's seat too (it follows the captain)
        if seats is None or len(seats) != players:
            # the frame counts the players (2), the bar has TONOJA's seat too: keep the bar's seats, or
            # those asked for at the start, when they fit this table
            old = getattr(self, "_setup", None)
            for candidate in (list(old.seats) if old is not None else None, self._seats_wanted):
                if candidate is not None and len(candidate) == players:
                    seats = candidate
                    break
            else:
                seats = default_seats(players, levels)
        setup = CrewSeatSetup(players, levels, seats=list(seats), lang=self.lang, follows=follows,
                              names={seat: "TONOJA" for seat in follows}, **self.seat_options())
        setup.add_class("crew-seat-setup")
        return setup

    def title_text(self) -> str:
        return self.t("crew.ui.mission_title", mission=self.model.session.state.mission)

    def rules_html(self) -> str:
        return table_rules_html("crew", self.lang)   # what no engine enforces

    def setup_events(self) -> list[Event]:
        return list(getattr(self.model.session.initial, "_setup_events", ()))

    def move_text(self, move: Any) -> str:
        return self._describe(move).rstrip(".。")   # a task's text ends the sentence already

    def log_seat_names(self) -> tuple[Any, Any]:
        if self._shared_on():
            return super().log_seat_names()
        return self.log_name, lambda s: self.t("crew.ui.seat_n", seat=s)

    def status_extra(self, obs: Mapping[str, Any], seat: int | None) -> list[str]:
        """The mission's state (players, attempt, captain, communication, the phase) and what the viewing
        person does now; never who acts (the frame's sentence says it) nor the result (the banner)."""
        state = self.model.shown_state()
        comm = obs["communication"]
        over = ENGINE.play_out_over(state)
        line = self.t("crew.ui.status_over", players=state.players, attempt=obs["attempt"],
                      counted=obs["attempts_counted"], captain=obs["captain"], comm=self.t(f"crew.comm.{comm['mode']}"))
        if not over:
            line += " · " + self.t(f"crew.phase.{obs['phase']}")
        if comm["time_limit"]:
            line += " · " + self.t("crew.ui.time_limit", time=comm["time_limit"])
        # what to do first (after the frame's "Your turn."), then the mission's state
        out = []
        if over:
            if ENGINE.outcome(state) is None:     # a failed attempt is no result yet (the crew may retry)
                out.append(self.t("crew.ui.attempt_failed"))
            out.append(self.t("crew.ui.do_review"))
            if any(isinstance(m, Retry) for m in self.seat_moves(seat)):
                out.append(self.t("crew.ui.do_retry"))
        elif self._acts_now(seat):
            out.append(self.t({"allocate": "crew.ui.do_task", "play": "crew.ui.do_play"}.get(state.phase,
                                                                                         "crew.ui.do_other")))
        elif self._setup.step_mode and self._setup.waiting:
            out.append(self.t("crew.ui.do_step"))
        return out + [line + ("。" if self.lang == "ja" else ".")]

    def refresh_board(self, obs: Mapping[str, Any], seat: int | None) -> None:
        state = self.model.shown_state()
        over = ENGINE.play_out_over(state)
        shown = (self.model.session, len(self.model.session))
        if shown != self._position_seen:     # any move, undo or new game: an earlier refusal was for then
            if self._position_seen is not None:
                self._task_refusal.clear()
                self._hand.refusal = self._tasks.refusal = ""
            self._position_seen = shown
            if over and not self._shared_on():   # (a shared table's code holds its secret seed: never kept)
                self._remember()             # an attempt that just ended joins the saved missions
        if not over and self._post_mortem.data is not None:
            self._post_mortem.close()
        self._show_seat_choice(seat)
        mine = self.seat_moves(seat)
        names = {s: self.seat_name(s) for s in range(state.seats)}
        self._draw_table(obs, seat, mine, names, over)
        cards = self._hand_cards(obs, seat, over)
        self._quiet = True      # the sonar switch may go off here: its observer must not redraw in the middle
        try:
            self._hand_panel.show(self, cards, mine, seat, over, for_tonoja=len(cards) > len(obs["hand"] or []),
                                  why_not=self._why_not)
        finally:
            self._quiet = False
        self._others.show(self._setup.show_all, {s: state.hand(s) for s in range(state.seats) if s != seat},
                          names, self.t, self.lang)
        self._other_moves.show(mine, self._describe, self.t)
        outcome = ENGINE.outcome(state)
        self._post_mortem.label(over, won=outcome is not None and outcome.result == "win")
        self._post_mortem.render()
        self._task_refusal.redraw(self.lang)
        self._render_saved(seat, over)

    def hint_marks(self, decision: Any) -> list[tuple[Any, Sequence[str]]]:
        return hint_marks(decision.move, hand=self._hand, hand_cards=self._hand.cards, tasks=self._tasks)

    def last_result(self, events: Sequence[Event]) -> str | None:
        """The last trick: its cards, who won it, and what it did to the tasks (kept until the next trick)."""
        ends = [i for i, e in enumerate(events) if e.code == "CREW_EVT_TRICK"]
        if not ends:
            return None
        end = ends[-1]
        start = max([i for i, e in enumerate(events[:end]) if e.code in ("CREW_EVT_TRICK", "CREW_EVT_RETRY")],
                    default=-1)
        plays = [e for e in events[start + 1:end] if e.code == "CREW_EVT_PLAY"]
        cards = " ".join(f'<span class="crew-last-play" data-seat="{e.seat}">{esc(self.short_name(e.seat))} '
                         f'{chip(dict(e.params)["card"], self.lang)}</span>' for e in plays)
        after = []
        for e in events[end:]:
            if e.code in ("CREW_EVT_PLAY", "CREW_EVT_RETRY", "CREW_EVT_SONAR"):
                break
            after.append(explain_html(e, self.lang))
        return f'<div class="crew-last-trick">{cards}</div>' + "<br>".join(after)

    def shareable(self, moves: Sequence[Any], viewer: int | None) -> bool:
        """Every move is public once made, except a distress gift (only giver and receiver know the card):
        with another seat's gift in the game there is no code."""
        return not any(isinstance(m, GiveCard) and m.seat != viewer for m in moves)

    def bot_move_text(self, seat: int, decision: Any) -> tuple[str, str] | None:
        """A bot's move in words, naming the seat and the move once.

        The bots' reasons start with the seat and the move ("Seat 1 communicates green 9: …"): the line is
        the reason, the seat's full name in place of "Seat 1". A reason that says otherwise, or one withheld
        because it names a card the viewer cannot see, follows "Seat 1 (bot: expert): play green 9."."""
        name = self.seat_name(seat)
        reason = decision.reason.text(self.lang) if decision.reason is not None else ""
        rule = getattr(decision.reason, "rule", "") if reason else ""
        if reason and not self._setup.show_all and self._names_hidden_card(decision.reason):
            reason, rule = self.t("crew.ui.reason_withheld"), ""
        else:
            # the reason names the seat it is about: the bot's own, or TONOJA's when its captain decides for it
            tonoja = self.model.session.state.tonoja
            for about, shown in ((seat, name), (tonoja, "TONOJA")):
                if about is None:
                    continue
                phrase = self.t("crew.ui.seat_n", seat=about)
                if reason.startswith(phrase) and not reason[len(phrase):len(phrase) + 1].isdigit():
                    return shown + reason[len(phrase):], rule
        head = self.t("crew.ui.bot_moved", name=name, move=self.move_text(decision.move))
        return head + (" " + reason if reason else ""), rule

    def on_new_game(self) -> None:
        state = self.model.session.state
        follows = {} if state.tonoja is None else {state.tonoja: state.captain}
        if follows != self._setup._follows:    # two players: TONOJA follows this deal's captain
            self._make_seats()
            self._redraw()
        self._post_mortem.close()
        self._task_refusal.clear()
        self._saved_say(None)
        if self._ended():
            self._redraw()

    def on_seats_changed(self) -> None:
        self._post_mortem.render()

    def on_final_state(self, state: Any) -> None:
        """At a shared table, once the attempt is over: the post-mortem opens on every page of the table
        (the page's session replays the table's log from its seed: the hands are public now)."""
        self.show_post_mortem()

    # ---- who is looking ----------------------------------------------------------------------------
    @property
    def _seat_setup(self) -> SeatSetup:
        return self._setup

    def human_seats(self) -> list[int]:
        if self._shared_on():
            return [self.shared.seat] if self.shared.seat is not None else []
        return self._setup.human_seats()

    def viewing_seat(self) -> int | None:
        """The seat whose observation the page draws: the deciding seat if a person plays it (hot seat),
        else the person's seat chosen with "You are" (the first by default); ``None`` if all are bots.
        At a shared table: the page's own seat."""
        if self._shared_on():
            return super().viewing_seat()
        humans = self.human_seats()
        if not humans:
            return None
        state = self.model.shown_state()
        decider = ENGINE.decider(state) if self.model.live and not ENGINE.play_out_over(state) else None
        if decider in humans:
            return decider
        chosen = self._seat.value
        return chosen if chosen in humans else humans[0]

    @property
    def seat(self) -> int | None:
        return self.viewing_seat()

    def _acts_now(self, seat: int | None) -> bool:
        state = self.model.state
        return seat is not None and not ENGINE.play_out_over(state) and ENGINE.decider(state) == seat

    def _ended(self) -> bool:
        return bool(ENGINE.play_out_over(self.model.session.state))

    def seat_moves(self, seat: int | None) -> list:
        """The legal moves ``seat`` makes now (its own sonar/gift, or the move it decides)."""
        if seat is None or not self.model.live:
            return []
        state = self.model.state
        over = ENGINE.play_out_over(state)
        out = []
        for m in self.model.legal_moves:
            if isinstance(m, Retry):
                ok = over  # after an attempt the team decides to retry: any person at the table may click it
            elif isinstance(m, TimeUp):
                ok = self._acts_now(seat)
            else:
                ok = ENGINE.actor(state, m) == seat
            if ok:
                out.append(m)
        return out

    def seat_name(self, seat: int) -> str:
        """TONOJA is TONOJA everywhere (no level: its captain decides for it); the others as the frame names them."""
        if seat == self.model.session.state.tonoja:
            return "TONOJA"
        return super().seat_name(seat)

    def log_name(self, seat: int) -> str:
        """A seat's name in the log, where it takes the place of the sentence's "Seat 2": "Seat 2 (you)",
        "Seat 1 (bot: expert)", "TONOJA" (the sentence names the seat once)."""
        if seat == self.model.session.state.tonoja:
            return "TONOJA"
        if self._setup.is_human(seat):
            return self.t("seats.name_you", name=self.t("crew.ui.seat_n", seat=seat))   # not "You plays"
        return self._setup.seat_name(seat)

    def short_name(self, seat: int) -> str:
        """A seat's name on the table (the level goes into the long name, in the tasks and the log)."""
        state = self.model.session.state
        if seat == state.tonoja:
            return "TONOJA"
        mark = " ⚓" if seat == state.captain else ""
        if self._setup.is_human(seat) and not self._shared_on():
            return self.t("seats.name_you", name=self.t("crew.ui.seat_n", seat=seat)) + mark
        return self.t("crew.ui.seat_n", seat=seat) + mark

    # ---- moves ------------------------------------------------------------------------------------------
    def _describe(self, move: Any) -> str:
        from toolkit.crew.tasks import TASKS
        lang = self.lang
        if isinstance(move, Sonar):   # without "seat 1:": the line names the seat already
            from toolkit.crew.engine import Term_pos
            return self.t("crew.ui.sonar_move", card=move.card, position=Term_pos(move.position))
        if isinstance(move, (PlayCard, TakeTask)):
            return ENGINE.describe_move(move, lang)
        if isinstance(move, AssignTask):
            return self.t("crew.ui.assign", task=move.task, seat=move.seat, text=TASKS[move.task].text(lang))
        if isinstance(move, AssignAll):
            return self.t("crew.ui.assign_all", seat=move.seat)
        if isinstance(move, PassTask):
            return self.t("crew.ui.pass")
        if isinstance(move, Predict):
            return self.t("crew.ui.predict", n=move.tricks)
        if isinstance(move, Distress):
            return self.t("crew.ui.distress", direction=self.t(f"crew.direction.{move.direction}"))
        if isinstance(move, GiveCard):
            return self.t("crew.ui.give", card=move.card)
        if isinstance(move, TimeUp):
            return self.t("crew.ui.time_up")
        if isinstance(move, Retry):
            return self.t("crew.ui.retry_new" if move.new_tasks else "crew.ui.retry")
        return str(move)

    def play(self, move: Any, refusal: RefusalLine | None = None) -> bool:
        # the page race (issue 26): the bots' optional moves due now (a sonar at the start of a trick) are
        # settled before a person's move is accepted, so a quick click plays the same game as a slow one
        if not self._shared_on():
            self._driver.settle_optional()
        return super().play(move, refusal)

    def _play(self, move: Any, refusal: RefusalLine | None = None) -> bool:
        return self.play(move, refusal)

    # ---- callbacks (untrusted input: every move is re-checked by the engine) -----------------------
    @safe_callback
    def _on_quick(self, index: int) -> None:
        # the quick buttons sit under the tasks: their refusal is answered there, beside them
        try:
            move = self._other_moves.quick_move(index)
        except RuleError as exc:
            self.refuse(exc, self._task_refusal)
            return
        self._play(move, self._task_refusal)

    @safe_callback
    def _on_card(self, card: Card) -> None:
        seat = self.viewing_seat()
        moves = self.seat_moves(seat)
        if self._sonar.value:
            sonar = [m for m in moves if isinstance(m, Sonar) and m.card == card]
            if sonar:
                self._quiet = True
                self._sonar.value = False
                self._quiet = False
                self._play(sonar[0])
                return
        gifts = [m for m in moves if isinstance(m, GiveCard) and m.card == card]
        if gifts:
            self._play(gifts[0])
            return
        self._play(PlayCard(card))

    @safe_callback
    def _on_task(self, task: int) -> None:
        seat = self.viewing_seat()
        takes = [m for m in self.seat_moves(seat) if isinstance(m, TakeTask) and m.task == task]
        if takes:
            self._play(takes[0], self._task_refusal)
        else:
            self.refuse(self.t("crew.ui.cannot_take", task=task), self._task_refusal)

    @safe_callback
    def _on_apply(self, _button: Any = None) -> None:
        move = self._other_moves.chosen_move()
        if move is None:
            self.refuse(self.t("crew.ui.pick_action"))
            return
        self._play(move)

    @safe_callback
    def _on_seat(self, change: Mapping[str, Any]) -> None:
        if not self._quiet and getattr(self, "_finished", False):
            self.hint_bar.forget()
            self._redraw()

    @safe_callback
    def _on_sonar_mode(self, change: Mapping[str, Any]) -> None:
        if not self._quiet and getattr(self, "_finished", False):
            self._redraw()

    @safe_callback
    def _on_hint(self, _button: Any = None) -> None:
        if not self._shared_on():
            self._driver.settle_optional()   # the hint is for the position the learner will play in
        super()._on_hint(_button)

    def _names_hidden_card(self, reason: Any) -> bool:
        """True if ``reason`` (in either language) names a card the viewing seat cannot see."""
        state = self.model.state
        viewer = self.viewing_seat()
        visible = str(ENGINE.observe(state, viewer))
        texts = [reason.text("en"), reason.text("ja")]
        for seat in range(state.seats):
            if seat == viewer:
                continue
            for card in state.hand(seat):
                if str(card) in visible:
                    continue
                if any(p.search(t) for p in card_patterns(card) for t in texts):
                    return True
        return False

    # ---- codes and saved missions ------------------------------------------------------------------
    def open_code(self, text: Any) -> bool:
        """Open a pasted code or link: the frame's (``game=crew&seed=…&m=…``) or an older mission code
        (``seed=…&players=…&mission=…&moves=…``); an ended attempt opens on its post-mortem. A bad code is
        refused beside the code box; the table is left as it was. Returns True if the game was opened."""
        if self._shared_on() or not isinstance(text, str):
            return super().open_code(text)
        try:
            parse_game_code(text, ENGINE.name)
        except GameCodeError:
            if "moves=" in text[:MAX_CODE_TEXT]:
                try:
                    seed, options, moves = parse_mission_code(text)
                except SavedMissionError as exc:
                    key, params = exc.key, exc.params
                    self._code_answer(lambda: self.t(key, **params))
                    return False
                return self.open_saved(seed, options, moves)
        if not super().open_code(text):
            return False
        if self._ended():
            self._remember()
            self.show_post_mortem()
        return True

    def _code_answer(self, make: Any, error: bool = True) -> None:
        """Answer an opened or refused code where it was asked: beside the saved list when it came from
        there (reworded on a language switch), else beside the frame's code box. ``make()`` words it."""
        if getattr(self, "_from_saved_list", False):
            self._saved_say(make, error=error)
            return
        kind, role = ("deepsea-refusal", "alert") if error else ("deepsea-note", "status")
        self.controls.answer.value = f'<span class="{kind}" role="{role}">{esc(make())}</span>'

    def _code_refused(self, text: str) -> None:
        self._code_answer(lambda: text)

    def open_saved(self, seed: int, options: Mapping[str, int], moves: Sequence[Any]) -> bool:
        """Replay a saved mission on the table (each move checked by the engine, on a scratch session, so a
        refused move leaves the table untouched) and open its post-mortem if its attempt is over."""
        from toolkit.core.session import Session

        if self._shared_on():
            self._code_answer(lambda: self.t("table.shared.fixed"))
            return False
        try:
            scratch = Session(ENGINE, seed, dict(options))
        except RuleError as exc:
            detail = str(exc)[:200]
            self._code_answer(lambda: self.t("crew.ui.saved_bad_setup", detail=detail))
            return False
        for n, move in enumerate(moves, 1):
            try:
                scratch.push(ENGINE.parse_move(move.strip()[:200]) if isinstance(move, str) else move)
            except RuleError as exc:
                shown = "".join(ch for ch in str(move)[:40] if ch.isprintable())
                violation = getattr(exc, "violation", None)
                if violation is None:   # not a move at all (the parser's detail is English only)
                    self._code_answer(lambda n=n: self.t("crew.ui.saved_not_move", n=n, move=shown))
                else:
                    self._code_answer(lambda n=n: self.t("crew.ui.saved_refused", n=n, move=shown,
                                                         reason=f"{violation.text(self.lang)} [{violation.rule}]"))
                return False
        self._load(scratch)
        over = self._ended()
        mission, count = options.get("mission", 1), len(scratch)
        self._code_answer(lambda: self.t("crew.ui.saved_opened", mission=mission, seed=seed, moves=count) + " "
                          + self.t("crew.ui.saved_below" if over else "crew.ui.saved_unfinished"), error=False)
        if over:
            self._remember()
            self.show_post_mortem()
        return True

    @safe_callback
    def _on_open_saved(self, _button: Any = None) -> None:
        self._from_saved_list = True
        try:
            super()._on_open_saved(_button)
        finally:
            self._from_saved_list = False

    # ---- the post-mortem (toolkit/widgets/crew/post_mortem.py) ---------------------------------------
    def review_inputs(self) -> dict[str, Any] | None:
        """What :func:`toolkit.crew.post_mortem` needs for the attempt on the table (:func:`review_inputs`)."""
        return review_inputs(self.model.session)

    @safe_callback
    def _on_review(self, _button: Any = None) -> None:
        self.show_post_mortem()

    def show_post_mortem(self) -> None:
        """Review the attempt double-dummy and show where it was lost (the attempt must be over)."""
        self._post_mortem.show()

    # the panel's widgets and review under the names the tests and notebooks read
    _review = property(lambda self: self._post_mortem.text)
    _review_button = property(lambda self: self._post_mortem.button)
    _review_data = property(lambda self: self._post_mortem.data)
    _replay_box = property(lambda self: self._post_mortem.replay_box)
    _replay_table = property(lambda self: self._post_mortem.replay_table)
    _replay_next = property(lambda self: self._post_mortem.replay_next)
    _replay_back = property(lambda self: self._post_mortem.replay_back)
    _replay_cards = property(lambda self: self._post_mortem.replay_cards)
    _replay_pos = property(lambda self: self._post_mortem.replay_pos)
    # the moves the list and the quick buttons offer now (read by tests)
    _offered = property(lambda self: self._other_moves.offered)
    _quick_moves = property(lambda self: self._other_moves.quick_moves)

    # ---- drawing -----------------------------------------------------------------------------------
    def _show_seat_choice(self, seat: int | None) -> None:
        """The "You are" choice between the people at the table (hot seat)."""
        humans = [] if self._shared_on() else self.human_seats()
        labels = [(self.t("crew.ui.seat_n", seat=s), s) for s in humans]
        self._quiet = True
        try:
            if list(self._seat.options) != labels:
                self._seat.options = labels or [("—", -1)]
            if humans and seat in humans and self._seat.value != seat:
                self._seat.value = seat
        finally:
            self._quiet = False
        self._seat_label.value = esc(self.t("crew.ui.you_are")) if len(humans) > 1 else ""
        self._seat_row.layout.display = "flex" if len(humans) > 1 else "none"

    def _draw_table(self, obs: Mapping[str, Any], seat: int | None, mine: list, names: dict[int, str],
                    over: bool) -> None:
        """The tasks (those this seat may take now are buttons), the trick and the previous one, the notes."""
        state = self.model.shown_state()
        self._tasks.lang = self.lang
        self._tasks.show(obs["tasks"], state.seats, names=names, selectable=[m.task for m in mine if isinstance(m, TakeTask)],
                         you=[seat] if seat is not None else [])
        trick, prev = obs["trick"], obs["previous_trick"]
        current = None if over else obs["current"]
        decider = None if over else ENGINE.decider(state)
        self._trick.lang = self.lang
        self._trick.show(state.seats, None if over and not trick["cards"] else trick["leader"],   # no next trick: no ▶
                         trick["cards"], previous=(prev["leader"], prev["cards"], prev["winner"]) if prev else None,
                         names={s: self.short_name(s) for s in range(state.seats)},
                         bottom=seat if seat is not None else 0,
                         acting=decider if current is None else current, you=self.human_seats())
        self._board.show(obs, names, self.short_name, self.t, self.lang)

    def _hand_cards(self, obs: Mapping[str, Any], seat: int | None, over: bool) -> list[Card]:
        """This seat's own cards, and TONOJA's face-up cards when this seat decides for TONOJA."""
        state = self.model.shown_state()
        hand = [Card.parse(c) for c in (obs["hand"] or [])]
        if (not over and state.tonoja is not None and seat == state.captain
                and obs["current"] == state.tonoja):
            hand += list(state.hand(state.tonoja))
        return hand

    def _why_not(self, card: Card, lang: str) -> str:
        """Why the viewing seat may not play ``card`` now (the engine's reason and rule id)."""
        state = self.model.state
        seat = self.viewing_seat()
        if not self._acts_now(seat):
            decider = ENGINE.decider(state)
            reason = self.t("crew.ui.not_your_turn", name=self.seat_name(decider) if decider is not None else "—")
        elif self._sonar.value:
            return self.t("crew.ui.no_sonar_card", card=card.text(lang))
        else:
            v = ENGINE.why_illegal(state, PlayCard(card))
            if not isinstance(v, Violation):
                return self.t("crew.comp.not_playable", card=card.text(lang))
            reason = f"{v.text(lang)} [{v.rule}]"
        return self.t("crew.ui.card_refused", card=card.text(lang), reason=reason)
