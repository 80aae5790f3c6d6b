"""The Crew table (``crew-mission``): play a seeded mission with bot partners, or hot seat.

Each seat is "you" or a bot level of :data:`toolkit.crew.BOTS` (:class:`toolkit.widgets.seats.SeatSetup`;
default: you are seat 0, the others the strongest level). Bots move on their own at a visible pace
(:class:`toolkit.widgets.seats.BotDriver`; default 0.7 s a move, or "step" mode: the teacher clicks "Next
move"). You play by clicking: a task token to take it, a card of your hand to play it (or, with "Sonar" on,
to communicate it); the other moves (predictions, passing, distress signal, retry) are in the "all moves"
list. "Hint" asks the strongest bot what it would do for your seat, and why. When the attempt ends, the
post-mortem (:func:`toolkit.crew.post_mortem`) shows the first card after which the mission was lost, who
played it and a winning alternative, replayable card by card on the table.

Hidden information is structural: every widget is filled from ``ENGINE.observe(state, seat)`` of a seat
marked "you" (:meth:`MissionView.viewing_seat`), so no other seat's card reaches the DOM, the widget state
or the websocket — unless the teacher's "show every hand" switch is on (off by default, announced on
screen), or the attempt is over and the post-mortem is opened. A bot's reason is shown only if it names no
card hidden from the viewer.

``?seed=7&players=4&mission=3&seats=you,expert,expert,expert&pace=0.7&step=1`` sets up a table.
"""

from __future__ import annotations

import re
from typing import Any, Mapping, Sequence

import ipywidgets as widgets

from toolkit.core.errors import RuleError
from toolkit.core.explain import Violation
from toolkit.crew.cards import Card
from toolkit.crew.engine import (ENGINE, AssignAll, AssignTask, Distress, GiveCard, PassTask, PlayCard, Predict,
                                 Retry, Sonar, TakeTask, TimeUp)
from toolkit.widgets.base import (GameSession, View, close_tree, esc, event_log_html, query_params, rule_ref_html,
                                  safe_callback)
from toolkit.widgets.rulebook import table_rules_html
from toolkit.widgets.components.crew import TaskTokens, TrickTable
from toolkit.widgets.crew.codes import (MAX_CODE_TEXT, MAX_MOVES_TEXT, STORAGE_KEY, SavedMissionError, decode_moves, encode_moves,  # noqa: F401
                                   finished_mission, mission_code, moves_from_query, options_from_query,
                                   pace_from_query, parse_mission_code, seats_from_query)
from toolkit.widgets.crew.common import lang_param
from toolkit.widgets.crew.hints import hint_marks, show_hint_marks
from toolkit.widgets.crew.saved import SavedMissionsMixin
from toolkit.widgets.crew.table_parts import (QUICK_BUTTONS, QUICK_MOVES, BoardNotes, HandPanel,  # noqa: F401
                                              MissionOptions, OtherMoves, StatusLines, TeacherHands, wrap_layout)
from toolkit.widgets.crew.post_mortem import MAX_REVIEWED_ALLOCATIONS, PostMortemPanel, review_inputs  # noqa: F401 (re-exported)
from toolkit.widgets.seats import YOU, BotDriver, SeatSetup, default_seats





def bot_levels() -> list[str]:
    """The Crew's bot levels, strongest first (whatever ``toolkit.crew.BOTS`` holds today)."""
    from toolkit.crew import BOTS
    return list(BOTS)


def card_patterns(card: Card) -> list[re.Pattern]:
    """How a card can appear in a sentence (code, English and Japanese names)."""
    forms = [str(card), card.text("en"), card.text("ja")]
    return [re.compile(r"(?<![A-Za-z0-9])" + re.escape(f) + r"(?![0-9])") for f in forms]


class MissionView(SavedMissionsMixin, View):
    """A mission at one table: seat setup, tasks as tokens, the trick on the table, your hand, hint,
    the bots' moves with their reasons, and the post-mortem."""

    def __init__(self, seed: int | None = None, players: int | None = None, mission: int | None = None,
                 lang: str = "en", query: str | None = None, seats: Sequence[str] | None = None,
                 pace: float | None = None, step_mode: bool | None = None, autoplay: bool = True,
                 **kwargs: Any):
        params = query_params(query)
        q_seed, options = options_from_query(params)
        if players is not None:
            options["players"] = players
        if mission is not None:
            options["mission"] = mission
        super().__init__(lang=lang_param(params, lang), **kwargs)
        self.add_class("crew-mission")
        self.model = GameSession(ENGINE, q_seed if seed is None else seed, options)
        state = self.model.state
        levels = bot_levels()
        chosen = list(seats) if seats is not None else seats_from_query(params, state.seats, levels)
        # nobody plays TONOJA: the captain decides for it (crew.tonoja.captain), so its picker only says so
        follows = {} if state.tonoja is None else {state.tonoja: state.captain}
        self._seat_setup = SeatSetup(state.seats, levels, seats=chosen, lang=self.lang, follows=follows,
                                     names={seat: "TONOJA" for seat in follows},
                                     pace=pace if pace is not None else pace_from_query(params),
                                     step_mode=bool(step_mode) if step_mode is not None
                                     else params.get("step") in ("1", "true", "yes"))
        self._seat_setup.add_class("crew-seat-setup")
        self._loaded_refusal = None
        for text in moves_from_query(query):   # a saved mission: replay its moves (each checked)
            if not self.model.play(text):
                self._loaded_refusal = self.model.violation or self.model.message
                break
        self._build_parts(state)
        self._finish(self._layout())
        self._setup_events = list(getattr(self.model.session.initial, "_setup_events", ()))
        self.model.observe(self._on_model, names="revision")
        self._seat_setup.observe(self._on_setup, names=["seats", "show_all", "waiting"])
        self._driver = BotDriver(self.model, self._seat_setup, autoplay=autoplay, on_error=self._on_bot_error)
        self._driver.observe(self._on_bot_moved, names="moves_played")
        self.refresh()
        if self._loaded_refusal is not None:
            self.report(self._loaded_refusal, error=True)
        elif moves_from_query(query) and ENGINE.play_out_over(self.model.state):
            self.show_post_mortem()      # the link to a mission as played opens on its review

    # ---- the parts (toolkit/widgets/crew/table_parts.py) ------------------------------------------------
    def _build_parts(self, state: Any) -> None:
        """Create the table's parts; each owns its widgets (the names below are kept for tests and notebooks)."""
        self._title = widgets.HTML()
        self._status_lines = StatusLines()
        self._status, self._turn = self._status_lines.status, self._status_lines.turn
        self._seat_label = widgets.HTML()
        self._seat = widgets.ToggleButtons(options=[("0", 0)], value=0, style={"button_width": "auto"})
        self._seat.add_class("crew-seat")
        self._tasks = TaskTokens()
        self._tasks.add_class("crew-tasks")
        self._tasks.on_pick(self._on_task)
        self._trick = TrickTable()
        self._trick.add_class("crew-table")
        self._board = BoardNotes()
        self._hand_panel = HandPanel(self._on_card, self._on_sonar_mode)
        self._hand, self._sonar = self._hand_panel.hand, self._hand_panel.sonar
        self._hand.on_refuse(self._on_refused)
        self._hint = widgets.Button(layout=widgets.Layout(width="auto", min_width="8em"))
        self._hint.add_class("crew-hint")
        self._hint.on_click(self._on_hint)
        self._undo = widgets.Button(layout=widgets.Layout(width="auto"))
        self._undo.add_class("crew-undo")
        self._undo.on_click(self._on_undo)
        self._hint_text = widgets.HTML()
        self._hint_text.add_class("crew-hint-text")
        self._bot_text = widgets.HTML()
        self._bot_text.add_class("crew-bot-move")
        self._others = TeacherHands()
        self._other_moves = OtherMoves(self._on_quick, self._on_apply)
        self._quick, self._quick_row = self._other_moves.quick, self._other_moves.quick_row
        self._actions, self._apply = self._other_moves.actions, self._other_moves.apply
        # the mission, the player count and the seed are chosen on the page (not only in the link), labelled
        self._options = MissionOptions(state.mission, state.players, self.model.session.seed, self._on_new)
        self._mission_pick, self._players_pick = self._options.mission, self._options.players
        self._seed, self._new = self._options.seed, self._options.new
        self._post_mortem = PostMortemPanel(self)
        self._build_saved_panel()   # saved missions and this mission's link (saved.py)
        self._log = widgets.HTML()
        self._log.add_class("crew-log")
        self._log.add_class("deepsea-side")          # hidden in ?display=large (projectors)
        self._hinted: Any = None
        self._hint_shown: Any = None   # what the hint line says: a message key or the expert's Decision
        self._seat.observe(self._on_seat, names="value")

    def _layout(self) -> list[widgets.Widget]:
        wrap = wrap_layout()
        # the game's options first, under the title, as on the other tables (a newcomer looked for them there)
        return [self._title, self._options.row, self._seat_setup, self._status, self._turn,
                widgets.HBox([self._seat_label, self._seat], layout=wrap),
                self._tasks, self._quick_row,
                widgets.HBox([self._trick, self._board], layout=wrap),
                self._hand,
                widgets.HBox([self._sonar, self._hint, self._undo], layout=wrap), self._hint_text, self._bot_text,
                self._others, self._other_moves.list_row, self._saved_box,
                *self._post_mortem.parts, self._log]

    # the moves the list and the quick buttons offer now (read by tests)
    _offered = property(lambda self: self._other_moves.offered)
    _quick_moves = property(lambda self: self._other_moves.quick_moves)

    # ---- who is looking ----------------------------------------------------------------------------
    @property
    def setup(self) -> SeatSetup:
        return self._seat_setup

    @property
    def driver(self) -> BotDriver:
        return self._driver

    def human_seats(self) -> list[int]:
        state = self.model.state
        return [s for s in self._seat_setup.human_seats() if s != state.tonoja]

    def viewing_seat(self) -> int | None:
        """The seat whose observation the page draws: the deciding seat if a person plays it (hot seat),
        else the person's seat chosen with "You are" (the first by default); ``None`` if all are bots."""
        humans = self.human_seats()
        if not humans:
            return None
        decider = ENGINE.decider(self.model.state) if self.model.live else None
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
        state = self.model.state
        if seat == state.tonoja:
            return "TONOJA"
        level = self._seat_setup.seats[seat]
        if level == YOU:
            return self.t("crew.ui.seat_you", seat=seat)
        return self.t("crew.ui.seat_bot", seat=seat, level=self._seat_setup.level_label(level))

    def log_name(self, seat: int) -> str:
        """A seat's name in the log, where it takes the place of the sentence's "Seat 2": "Seat 2 (you)",
        "Seat 1 (bot: expert)", "TONOJA" (the sentence names the seat once)."""
        if seat == self.model.state.tonoja:
            return "TONOJA"
        if 0 <= seat < len(self._seat_setup.seats) and self._seat_setup.seats[seat] == YOU:
            return self.t("seats.name_you", name=self.t("crew.ui.seat_n", seat=seat))   # not "You plays"
        return self._seat_setup.seat_name(seat)

    def short_name(self, seat: int) -> str:
        """A seat's name on the table (the level goes into the long name, in the tasks and the log)."""
        state = self.model.state
        if seat == state.tonoja:
            return "TONOJA"
        mark = " ⚓" if seat == state.captain else ""
        if self._seat_setup.seats[seat] == YOU:
            return self.t("crew.ui.seat_you", seat=seat) + mark
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

    @safe_callback
    def _on_quick(self, index: int) -> None:
        self._play(self._other_moves.quick_move(index))

    def _play(self, move: Any) -> None:
        # the page race (issue 26): the bots' optional moves due now (a sonar at the start of a trick) are
        # settled before a person's move is accepted, so a quick click plays the same game as a slow one
        self._driver.settle_optional()
        self.play_on(self.model, move)   # the model's revision change clears the hint and redraws the table

    # ---- callbacks (untrusted input: every move is re-checked by the engine) -----------------------
    @safe_callback
    def _on_card(self, card: Card) -> None:
        seat = self.viewing_seat()
        moves = self.seat_moves(seat)
        if self._sonar.value:
            sonar = [m for m in moves if isinstance(m, Sonar) and m.card == card]
            if sonar:
                self._play(sonar[0])
                self._sonar.value = False
                return
        gifts = [m for m in moves if isinstance(m, GiveCard) and m.card == card]
        if gifts:
            self._play(gifts[0])
            return
        self._play(PlayCard(card))

    def _on_refused(self, text: str) -> None:
        self.report(text, error=True)

    @safe_callback
    def _on_task(self, task: int) -> None:
        seat = self.viewing_seat()
        takes = [m for m in self.seat_moves(seat) if isinstance(m, TakeTask) and m.task == task]
        if takes:
            self._play(takes[0])
        else:
            self.report(self.t("crew.ui.cannot_take", task=task), error=True)

    @safe_callback
    def _on_apply(self, _button: Any = None) -> None:
        move = self._other_moves.chosen_move()
        if move is None:
            self.report(self.t("crew.ui.pick_action"), error=True)
            return
        self._play(move)

    @safe_callback
    def _on_new(self, _button: Any = None) -> None:
        mission, players, seed = self._options.chosen()
        options = {**self.model.session.options, "mission": mission, "players": players}
        # another seat count, or two players (TONOJA follows the captain, who changes with the deal): new
        # seats. The old driver stops first: no bot of the old table may move in the new game.
        reseat = players != self.model.state.players or players == 2
        if reseat:
            self._driver.close()
        self.model.new_game(seed=seed, options=options)
        if reseat:
            self._new_seats()
        self._setup_events = list(getattr(self.model.session.initial, "_setup_events", ()))
        self._post_mortem.close()
        self._forget_game_talk()
        self.clear_report()
        self._saved_say(None)
        self.refresh()

    def _new_seats(self) -> None:
        """A seat setup for the new game's seats (you at seat 0, the strongest bots elsewhere; TONOJA's seat
        follows the captain at two players); the old setup is closed, its driver already stopped."""
        old_setup, old_driver = self._seat_setup, self._driver
        state = self.model.state
        seats = state.seats
        follows = {} if state.tonoja is None else {state.tonoja: state.captain}
        levels = bot_levels()
        setup = SeatSetup(seats, levels, seats=default_seats(seats, levels), lang=self.lang, follows=follows,
                          names={seat: "TONOJA" for seat in follows}, pace=old_setup.pace,
                          step_mode=old_setup.step_mode)
        setup.add_class("crew-seat-setup")
        setup.observe(self._on_setup, names=["seats", "show_all", "waiting"])
        self._seat_setup = setup
        self.children = tuple(setup if child is old_setup else child for child in self.children)
        self._driver = BotDriver(self.model, setup, autoplay=old_driver.autoplay, on_error=self._on_bot_error)
        self._driver.observe(self._on_bot_moved, names="moves_played")
        close_tree(old_setup)

    @safe_callback
    def _on_seat(self, change: Mapping[str, Any]) -> None:
        self.clear_report()
        self.refresh()

    @safe_callback
    def _on_sonar_mode(self, change: Mapping[str, Any]) -> None:
        self.refresh()

    @safe_callback
    def _on_hint(self, _button: Any = None) -> None:
        seat = self.viewing_seat()
        if not self._acts_now(seat) and not any(isinstance(m, (Sonar, GiveCard)) for m in self.seat_moves(seat)):
            self._hint_shown = "crew.ui.hint_none"
            self._render_hint()
            return
        self._driver.settle_optional()   # the hint is for the position the learner will play in
        decision = self._driver.hint(seat)
        if decision is None or decision.move is None:
            self._hint_shown = "crew.ui.hint_wait"
            self._render_hint()
            return
        self._hinted = decision.move
        self._hint_shown = decision
        self.refresh()

    def _forget_game_talk(self) -> None:
        """A new or reopened game: the last hint (and its marked card) and the last bot move belong to the
        game before."""
        self._hinted = self._hint_shown = None
        self._bot_move_text = None

    def _render_hint(self, hand_cards: Sequence[Card] | None = None) -> None:
        """The hint, worded in the page's language at every redraw (the toggle rewords it): the object it
        suggests is marked on the table with the hint's words (:func:`hint_marks`); the line below the hand
        then gives only the reason, and names the move only when it has no object on the table."""
        shown = self._hint_shown
        components = (self._hand, self._tasks)
        if hand_cards is None:
            hand_cards = self._hand.cards
        if shown is None or isinstance(shown, str):
            show_hint_marks(components, [], "")
            self._hint_text.value = ("" if shown is None
                                     else f"<p class='crew-hint-none'>{esc(self.t(shown))}</p>")
            return
        level = self._seat_setup.level_label(self._seat_setup.levels[0])
        move_text = self._describe(shown.move).rstrip(".。")
        reason = shown.reason
        reason_text = reason.text(self.lang) if reason is not None else ""
        marks = hint_marks(shown.move, hand=self._hand, hand_cards=hand_cards, tasks=self._tasks)
        show_hint_marks(components, marks, self.t("crew.ui.hint_label", level=level, move=move_text,
                                                  reason=reason_text).strip())
        head = (self.t("crew.ui.hint_marked", level=level) if marks
                else self.t("crew.ui.hint_says", level=level, move=move_text))
        rule = getattr(reason, "rule", "")
        self._hint_text.value = (f"<p class='crew-hint-move' data-move='{esc(shown.move)}' "
                                 f"data-marked='{int(bool(marks))}'><b>{esc(head)}</b> "
                                 f"<span class='deepsea-text'>{esc(reason_text)}</span>"
                                 f"{' ' + rule_ref_html(rule, self.lang) if rule else ''}</p>")

    def _on_bot_error(self, exc: Exception) -> None:
        self.report(exc, error=True)

    def _on_model(self, change: Mapping[str, Any]) -> None:
        if getattr(self, "_loading", False):
            return   # a saved mission is being replayed: one redraw at the end
        # any move (the learner's, a bot's, an undo) makes the hint stale: its mark and words go, and so
        # does the refusal of an earlier click (it said why that click was refused then, not now)
        self._hinted = self._hint_shown = None
        self._hand.refusal = self._tasks.refusal = ""
        if ENGINE.play_out_over(self.model.state) is False:
            self._post_mortem.close()
        else:
            self._remember()
        self.refresh()

    def _on_setup(self, change: Mapping[str, Any]) -> None:
        self.refresh()

    def _on_bot_moved(self, change: Mapping[str, Any]) -> None:
        last = self._driver.last
        if last is None:
            return
        # kept as data, worded at each redraw: the language toggle rewords the last bot move too
        self._bot_move_text = last
        self._render_bot_move()

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

    def open_code(self, text: Any) -> bool:
        """Open a pasted mission code (or link) and show its post-mortem; a bad code is refused in the page
        (localized) and the table is left as it was. Returns True if the mission was opened."""
        try:
            seed, options, moves = parse_mission_code(text)
        except SavedMissionError as exc:
            self._saved_say(lambda key=exc.key, params=exc.params: self.t(key, **params), error=True)
            return False
        return self.open_saved(seed, options, moves)

    def open_saved(self, seed: int, options: Mapping[str, int], moves: Sequence[Any]) -> bool:
        """Replay a saved mission on the table (each move checked by the engine, on a scratch copy first,
        so a refused move leaves the table untouched) and open its post-mortem if its attempt is over."""
        from toolkit.core.session import Session

        try:
            scratch = Session(ENGINE, seed, dict(options))
        except RuleError as exc:
            self._saved_say(lambda detail=str(exc)[:200]: self.t("crew.ui.saved_bad_setup", detail=detail), error=True)
            return False
        parsed = []
        for n, move in enumerate(moves, 1):
            try:
                m = ENGINE.parse_move(move.strip()[:200]) if isinstance(move, str) else move
                scratch.push(m)
            except RuleError as exc:
                shown = "".join(ch for ch in str(move)[:40] if ch.isprintable())
                violation = getattr(exc, "violation", None)
                if violation is None:   # not a move at all (the parser's detail is English only)
                    self._saved_say(lambda: self.t("crew.ui.saved_not_move", n=n, move=shown), error=True)
                else:
                    self._saved_say(lambda: self.t("crew.ui.saved_refused", n=n, move=shown,
                                                   reason=violation.text(self.lang)),
                                error=True)
                return False
            parsed.append(m)
        driver = self._driver
        autoplay, driver.autoplay = driver.autoplay, False   # no bot moves in the middle of the replay
        reseat = scratch.state.players != self.model.state.players or scratch.state.players == 2
        if reseat:
            driver.close()
        self._loading = True
        try:
            self.model.new_game(seed=seed, options=dict(options))
            for m in parsed:
                self.model.play(m)
        finally:
            self._loading = False
            driver.autoplay = autoplay
        if reseat:
            self._new_seats()
            driver = self._driver
        self._options.show_values(self.model.state.mission, self.model.state.players, seed)
        self._setup_events = list(getattr(self.model.session.initial, "_setup_events", ()))
        self._post_mortem.close()
        self._forget_game_talk()
        self.clear_report()
        over = ENGINE.play_out_over(self.model.state)
        if over:
            self._remember()
        self.refresh()
        driver.schedule()
        self._saved_say(lambda: self.t("crew.ui.saved_opened", mission=options.get("mission", 1), seed=seed,
                                       moves=len(parsed))
                        + " " + self.t("crew.ui.saved_below" if over else "crew.ui.saved_unfinished"))
        if over:
            self.show_post_mortem()
        return True

    # ---- undo (as the table frame's: back to where a person decides) ------------------------------------
    def undo(self) -> bool:
        """Take back the last move, and the bots' moves after the last person's: the table is back where a
        person decides (or at the start). False, said in the page, when there is nothing to undo."""
        if len(self.model.session) == 0:
            self.report(self.t("table.controls.nothing_to_undo"), error=True)
            return False
        driver = self._driver
        autoplay, driver.autoplay = driver.autoplay, False   # no bot move between the steps back
        self._loading = True                                 # one redraw at the end
        try:
            self.model.undo()
            while len(self.model.session) and not self._person_decides():
                self.model.undo()
        finally:
            self._loading = False
            driver.autoplay = autoplay
        self._post_mortem.close()
        self._forget_game_talk()
        self._hand.refusal = self._tasks.refusal = ""
        self.clear_report()
        self.refresh()
        driver.schedule()
        return True

    def _person_decides(self) -> bool:
        state = self.model.state
        return not ENGINE.play_out_over(state) and ENGINE.decider(state) in self.human_seats()

    @safe_callback
    def _on_undo(self, _button: Any = None) -> None:
        self.undo()

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

    # ---- rendering -----------------------------------------------------------------------------------
    def _render_bot_move(self) -> None:
        info = getattr(self, "_bot_move_text", None)
        if not info:
            self._bot_text.value = ""
            return
        seat, decision = info
        head, reason, rule = self.bot_line_parts(seat, decision)
        code = f" {rule_ref_html(rule, self.lang)}" if rule and reason else ""
        self._bot_text.value = (f"<p class='crew-bot-line' data-seat='{seat}'>{esc(head)}"
                                f"<span class='crew-bot-reason'>{esc(reason)}</span>{code}</p>")

    def bot_line_parts(self, seat: int, decision: Any) -> tuple[str, str, str]:
        """A bot's move in words, naming the seat and the move once: ``(head, reason, rule)``.

        The bots' reasons start with the seat and the move ("Seat 1 communicates green 9: …"): the line is
        the reason, the seat's full name in place of "Seat 1". A reason that says otherwise, or one withheld
        because it names a card the viewer cannot see, follows "Seat 1 (expert bot): play green 9."."""
        name = self.seat_name(seat)
        reason = decision.reason.text(self.lang) if decision.reason is not None else ""
        rule = getattr(decision.reason, "rule", "")
        if reason and not self._seat_setup.show_all and self._names_hidden_card(decision.reason):
            reason = self.t("crew.ui.reason_withheld")
        else:
            phrase = self.t("crew.ui.seat_n", seat=seat)
            if reason.startswith(phrase) and not reason[len(phrase):len(phrase) + 1].isdigit():
                return name, reason[len(phrase):], rule
        move = self._describe(decision.move).rstrip(".。")   # a task's text ends the sentence already
        return self.t("crew.ui.bot_moved", name=name, move=move) + (" " if reason else ""), reason, rule

    def refresh(self) -> None:
        if not hasattr(self, "_driver"):
            return  # the base class may announce a language before the children exist
        state = self.model.state
        self._seat_setup.lang = self.lang
        seat = self._show_seat_choice()
        obs = ENGINE.observe(state, seat)
        over = ENGINE.play_out_over(state)
        mine = self.seat_moves(seat)
        self._title.value = (f"<h3>{esc(self.t('crew.ui.mission_title', mission=state.mission))}</h3>"
                             + table_rules_html("crew", self.lang))   # what no engine enforces
        self._status_lines.show(self, obs, seat, self._acts_now(seat), self._seat_setup.waiting)
        names = {s: self.seat_name(s) for s in range(state.seats)}
        self._refresh_table(obs, seat, mine, names, over)
        cards = self._hand_cards(obs, seat, over)
        if not self._hand_panel.show(self, cards, mine, seat, over, for_tonoja=len(cards) > len(obs["hand"] or []),
                                     why_not=self._why_not):
            return   # the sonar switch went off: its observer redrew the table
        self._hint.description = self.t("seats.hint")
        self._hint.disabled = seat is None or over
        self._undo.description = self.t("table.controls.undo")
        self._undo.disabled = len(self.model.session) == 0
        # the teacher's switch: every hand, announced (the seat setup shows the warning too)
        self._others.show(self._seat_setup.show_all, {s: state.hand(s) for s in range(state.seats) if s != seat},
                          names, self.t, self.lang)
        self._other_moves.show(mine, self._describe, self.t)
        self._options.label(self.t)
        outcome = ENGINE.outcome(state)
        self._post_mortem.label(over, won=outcome is not None and outcome.result == "win")
        self._link.value = self._share_link(seat) if over else ""
        self._render_saved(seat, over)
        self._render_bot_move()
        self._render_hint(cards)
        self._post_mortem.render()
        self._render_log()

    def _show_seat_choice(self) -> int | None:
        """The "You are" choice between the people at the table (hot seat); returns the viewing seat."""
        humans = self.human_seats()
        seat = self.viewing_seat()
        labels = [(self.t("crew.ui.seat_n", seat=s), s) for s in humans]
        if list(self._seat.options) != labels:
            self._seat.options = labels or [("—", -1)]
        if humans and self._seat.value != seat:
            self._seat.value = seat
        self._seat_label.value = esc(self.t("crew.ui.you_are")) if len(humans) > 1 else ""
        self._seat.layout.display = "flex" if len(humans) > 1 else "none"
        return seat

    def _refresh_table(self, obs: dict, seat: int | None, mine: list, names: dict[int, str], over: bool) -> None:
        """The tasks (those this seat may take now are buttons), the trick and the previous one, the notes."""
        state = self.model.state
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

    def _hand_cards(self, obs: dict, seat: int | None, over: bool) -> list[Card]:
        """This seat's own cards, and TONOJA's face-up cards when this seat decides for TONOJA."""
        state = self.model.state
        hand = [Card.parse(c) for c in (obs["hand"] or [])]
        if (not over and state.tonoja is not None and seat == state.captain
                and obs["current"] == state.tonoja):
            hand += list(state.hand(state.tonoja))
        return hand

    def _render_log(self) -> None:
        events = self._setup_events + list(self.model.events)
        self._log.value = (f"<details><summary><b>{esc(self.t('ui.event_log'))}</b></summary>"
                           + event_log_html(events, self.lang, title=False, seat_name=self.log_name,
                                            seat_phrase=lambda s: self.t("crew.ui.seat_n", seat=s))
                           + "</details>")

    def _share_link(self, viewer: int | None) -> str:
        """A link that reopens this mission as played (a saved mission), for its post-mortem.

        Every move in it is public once made, except a distress gift (only giver and receiver know the
        card): with another seat's gift in the game there is no link."""
        moves = list(self.model.session.moves)
        if any(isinstance(m, GiveCard) and m.seat != viewer for m in moves):
            return ""
        from toolkit.widgets.crew.common import share_link
        opts = self.model.session.options
        return share_link({"seed": self.model.session.seed, "players": opts.get("players"),
                           "mission": opts.get("mission"), "seats": ",".join(self._seat_setup.seats),
                           "moves": encode_moves(moves), "lang": self.lang}, self.t("crew.ui.mission_link"))

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
