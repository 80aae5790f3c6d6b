"""The one table frame every game's table is built on, and a generic table that plays any engine on it.

:class:`TableFrame` owns the session model (:class:`~toolkit.widgets.base.GameSession`), the seats
(:class:`~toolkit.widgets.seats.SeatSetup`) and the bots (:class:`~toolkit.widgets.seats.BotDriver`), and
arranges the parts of :mod:`toolkit.widgets.table.parts` around the game's own widgets. A game's table
subclasses it and provides hooks only (see docs/architecture.md, "The table frame"):

* ``build()`` — create the game's widgets (called before anything else reads them);
* ``board_widgets()`` / ``action_widgets()`` — where they go (the refusal line sits beside the actions);
* ``option_widgets()`` → ``{option: widget}``, ``options_from_widgets(values)`` → the engine's options;
* ``refresh_board(obs, seat)`` — draw ``obs = engine.observe(state, seat)`` (never the state);
* ``status_extra(obs, seat)`` → extra sentences for the status line (the phase), repeats dropped;
* ``hint_marks(decision)`` → ``[(component, [data-keys])]`` to outline the hint's objects;
* ``last_result(events)`` → HTML of the latest result among ``events`` (a trick, a dive), or ``None``;
* ``result_text(outcome)`` → the banner's sentence ("You win…"), or ``None`` for the engine's;
* ``shareable(moves, viewer)`` → ``False`` when the code would show a card only some seats know;
* ``on_new_game()`` — forget the game's own picks (a selected card) when the game changes;
* ``on_seats_changed()`` — a seat changed hands or the teacher's switch turned (before the redraw);
* ``seat_options()`` → extra keyword arguments of the seats bar (``pace``, ``step_mode``);
* ``move_text(move)`` → a move in the page's words (the hint, the bot line; default: the engine's);
* ``title_text()``, ``rules_text()`` — the header in ``self.lang``; ``setup_events()`` — the deal's events;
* ``label_options()`` — the option widgets' labels in ``self.lang``;
* ``rules_html()`` → the header's rules line as HTML (default: ``rules_text()`` escaped);
* ``make_seat_setup(players, seats)`` → the seats bar (a game's level names, its pace or step mode);
* ``hint_reason(decision)`` → the hint's "why", worded for the learner (default: the bot's reason);
* ``log_seat_names()`` → ``(seat_name, seat_phrase)`` for the event log (the Crew names a seat once per line);
* ``on_final_state(state)`` → at a shared table, once the game is over (the Crew opens its post-mortem).

The click's path: a component's pick → the table's callback → :meth:`TableFrame.play` →
``GameSession.play`` → the engine → a refusal (shown beside the clicked thing) or events → the model's
``revision`` → :meth:`TableFrame.refresh` (board, status, banner, log, hint, code).
"""

from __future__ import annotations

import inspect
import json
import logging
import urllib.parse
from collections.abc import Mapping, Sequence
from typing import Any

import ipywidgets as widgets
import traitlets

from toolkit.core import i18n
from toolkit.core.bots import bots_of
from toolkit.core.engine import Engine
from toolkit.core.errors import InvalidMoveError, RuleError
from toolkit.core.explain import Event, Outcome
from toolkit.widgets.base import (
    GameSession,
    View,
    check_lang,
    close_tree,
    esc,
    explain_html,
    page_query_string,
    rule_ref_html,
    safe_callback,
)
from toolkit.widgets.components.moves import MoveButtons
from toolkit.widgets.seats import YOU, BotDriver, SeatSetup
from toolkit.widgets.table.code import (
    MAX_CODE_LENGTH,
    MAX_SEED,
    GameCodeError,
    parse_game_code,
    replay_code,
    session_code,
)
from toolkit.widgets.table.shared import SharedTablePanel
from toolkit.widgets.table.parts import (
    BotLine,
    Controls,
    EventLog,
    HintBar,
    OptionsBar,
    RefusalLine,
    ResultBanner,
    StatusLine,
    answer_click,
)

log = logging.getLogger("toolkit.widgets.table")


def table_query(query: str | None = None) -> dict[str, str]:
    """The page's query for a table: like :func:`~toolkit.widgets.base.query_params`, but a ``code`` may be
    as long as :data:`~toolkit.widgets.table.code.MAX_CODE_LENGTH` (other values: 200 characters)."""
    raw = query if query is not None else page_query_string()
    out: dict[str, str] = {}
    for key, value in urllib.parse.parse_qsl(raw[:MAX_CODE_LENGTH + 500], keep_blank_values=True):
        out[key[:200]] = value[:MAX_CODE_LENGTH] if key == "code" else value[:200]
    return out


class TableFrame(View):
    """A game's table: options, seats, status, result, board, actions + refusal, hint, log, controls.

    ``query`` is the page's query string (``None``: the page's own); ``?code=…`` reopens a game where it
    was, ``?seed=…`` and the game's options start one. ``autoplay=False`` leaves the bots to the caller
    (``table.driver.run_until_human()``), as notebooks checked by nbval need.
    """

    def __init__(self, engine: Engine, seed: int = 1, options: Mapping[str, Any] | None = None,
                 seats: Sequence[str] | None = None, levels: Sequence[str] | None = None, lang: str = "en",
                 show_language: bool = True, autoplay: bool = True, query: str | None = None,
                 title: str | None = None, rules_line: str | None = None):
        check_lang(lang)
        super().__init__(lang=lang, show_language=show_language)
        self.add_class("deepsea-table")
        self.engine = engine
        self._title_text, self._rules_text = title, rules_line
        self._header = widgets.HTML()
        self._header.add_class("deepsea-table-header")
        self.build()
        params = table_query(query) if show_language or query is not None else {}
        seed, options, session, opened_error = self._start_from(params, seed, options)
        self.model = GameSession(engine, seed, options) if session is None else GameSession(engine, session=session)
        self.levels = list(levels) if levels is not None else list(bots_of(engine))
        self.options_bar = OptionsBar(self.option_widgets(), seed=self.model.session.seed)
        self.options_bar.show_values(self.model.session.seed, self.model.session.options)
        self.status = StatusLine()
        self.bot_line = BotLine()
        self.banner = ResultBanner()
        self.refusal = RefusalLine()
        self.hint_bar = HintBar()
        self.event_log = EventLog()
        self.controls = Controls()
        #: where the shared-table panel goes (issue 27); empty until a page puts something in it
        self.share_slot = widgets.VBox()
        self.share_slot.add_class("deepsea-share-slot")
        self._seats_box = widgets.VBox()
        self._autoplay = autoplay
        self._seats_wanted = list(seats) if seats is not None else None
        self._make_seats()
        self.options_bar.new_game.on_click(self._on_new_game)
        self.controls.undo.on_click(self._on_undo)
        self.controls.open.on_click(self._on_open_code)
        self.hint_bar.ask.on_click(self._on_hint)
        self.hint_bar.play.on_click(self._on_play_hint)
        self.model.observe(self._on_model, "revision")
        self._board_box = widgets.VBox(list(self.board_widgets()))
        self._board_box.add_class("deepsea-board")
        self._answer_stale_picks()
        self._action_row = widgets.HBox(list(self.action_widgets()) + [self.refusal],
                                        layout=widgets.Layout(flex_flow="row wrap", align_items="center"))
        self._action_row.add_class("deepsea-action-row")
        self._finish([self._header, self.options_bar, self._seats_box, self.status, self.bot_line, self.banner, self._board_box,
                      self._action_row, self.hint_bar, self.event_log, self.controls, self.share_slot])
        self.refresh()
        if opened_error is not None:
            self.controls.answer.value = f'<span class="deepsea-refusal" role="alert">{esc(opened_error.text(self.lang))}</span>'
            self._opened_error = opened_error
        # the shared-table panel (issue 27): Invite, or the table of ?table=CODE
        self.shared = SharedTablePanel(self, query=params)
        traitlets.dlink((self, "lang"), (self.shared, "lang"))
        self.share_slot.children = (self.shared,)
        if params.get("table"):
            self.shared.join(params["table"])

    # ---- hooks (a game's table overrides these) ----------------------------------------------
    def build(self) -> None:
        """Create the game's widgets (the board components, the action buttons, the option widgets)."""

    def board_widgets(self) -> list[widgets.Widget]:
        return []

    def action_widgets(self) -> list[widgets.Widget]:
        return []

    def option_widgets(self) -> dict[str, widgets.Widget]:
        return {}

    def options_from_widgets(self, values: Mapping[str, Any]) -> dict[str, Any]:
        return dict(values)

    def options_from_query(self, params: Mapping[str, str]) -> dict[str, Any]:
        """The game's options from the page's query (untrusted; the engine checks them): by default each
        option widget's name, read as JSON (``?players=3``)."""
        out: dict[str, Any] = {}
        for name in self.option_widgets():
            if name in params:
                try:
                    out[name] = json.loads(params[name])
                except ValueError:
                    out[name] = params[name]
        return out

    def title_text(self) -> str:
        """The header's title in ``self.lang`` (default: the constructor's ``title``, else the game's name)."""
        if self._title_text:
            return self._title_text
        key = f"game.{self.engine.name}"
        return self.t(key) if i18n.has(key) else self.engine.name

    def rules_text(self) -> str:
        """The game's table rules line in ``self.lang`` under the title ("" for none)."""
        return self._rules_text or ""

    def rules_html(self) -> str:
        """The rules line under the title as HTML (a game's table rules with their linked ids); by default
        :meth:`rules_text`, escaped."""
        rules_line = self.rules_text()
        return f'<p class="deepsea-table-rules">{esc(rules_line)}</p>' if rules_line else ""

    def setup_events(self) -> list[Event]:
        """Events of the deal, before the first move (the Crew's task draft): the log starts with them."""
        return []

    def bot_move_text(self, seat: int, decision: Any) -> tuple[str, str] | None:
        """The bot line's sentence and rule id for a bot's move (``None``: say nothing). Override to
        withhold a reason or move that names a card only some seats know (the Crew's distress gift).

        At a shared table the default says the move without the reason: a bot decides from its own hand,
        and a reason may name a card of it that no other seat may see yet. A game whose reasons name no
        hidden card says so by overriding this hook (Tranquility, Pirats)."""
        move = self.move_text(decision.move)
        shared = self._shared_on()
        reason = decision.text(self.lang) if decision.reason is not None and not shared else ""
        return (self.t("table.bot.moved", name=self.seat_name(seat), move=move, reason=reason),
                getattr(decision.reason, "rule", ""))

    def label_options(self) -> None:
        """Set the option widgets' labels in ``self.lang``."""

    def make_seat_setup(self, players: int, seats: Sequence[str] | None) -> SeatSetup:
        """The seats bar for ``players`` seats (``seats``: the wanted players, ``None`` for the default).
        Override for a game's own level names, default seats, pace or step mode."""
        return SeatSetup(players, self.levels, seats=seats, lang=self.lang, **self.seat_options())

    def hint_reason(self, decision: Any) -> str:
        """Why the hint suggests its move, in ``self.lang`` and worded for the person asking (default: the
        hint bot's reason, which may name the bot)."""
        return decision.text(self.lang)

    def refresh_board(self, obs: Mapping[str, Any], seat: int | None) -> None:
        """Draw the board from ``obs`` (what ``seat`` may see)."""

    def status_extra(self, obs: Mapping[str, Any], seat: int | None) -> list[str]:
        return []

    def hint_marks(self, decision: Any) -> list[tuple[Any, Sequence[str]]]:
        return []

    def last_result(self, events: Sequence[Event]) -> str | None:
        return None

    def result_text(self, outcome: Outcome) -> str | None:
        return None

    def shareable(self, moves: Sequence[Any], viewer: int | None) -> bool:
        return True

    def on_new_game(self) -> None:
        """Forget the game's own picks (called after a new game, an opened code, an undo)."""

    def on_seats_changed(self) -> None:
        """A seat changed hands or the teacher's switch turned: forget what only the old seat may see
        (a hot seat's revealed hand). Called before the redraw."""

    def log_seat_names(self) -> tuple[Any, Any]:
        """``(seat_name, seat_phrase)`` for the event log: who each line names, and how the game's own
        sentences name a seat ("Seat 2"), so a line that starts with it names its seat once ("Seat 2 (you)
        plays …", not "You: Seat 2 plays …"); ``seat_phrase=None`` puts the name before every line."""
        return self.seat_name, None

    def move_text(self, move: Any) -> str:
        """A move in the page's words, for the hint and the bot line (default: the engine's description).
        A table may name what only the position shows (the card a hire takes) or drop whose move it is
        where the sentence already says it."""
        return self.engine.describe_move(move, self.lang)

    def seat_options(self) -> dict[str, Any]:
        """Extra keyword arguments of the seats bar (:class:`~toolkit.widgets.seats.SeatSetup`) when it is
        (re)built: ``pace``, ``step_mode``. While it is rebuilt, ``self.setup`` is still the old bar."""
        return {}

    def on_final_state(self, state: Any) -> None:
        """At a shared table, once the game (the Crew: the attempt) is over: the whole state, every hand
        public now (``store.final_state``), on every page of the table. The Crew's table opens its
        post-mortem and close calls from it; by default nothing more is drawn (the banner shows the result)."""

    # ---- reading ----------------------------------------------------------------------------
    @property
    def setup(self) -> SeatSetup:
        return self._setup

    @property
    def driver(self) -> BotDriver:
        return self._driver

    def seat_name(self, seat: int) -> str:
        if self._shared_on():
            return self.shared.seat_name(seat)
        return self._setup.seat_name(seat)

    def viewing_seat(self) -> int | None:
        """The seat whose observation the page draws (the acting person's, else the first person's). At a
        shared table: the page's own seat, whatever the seats bar says (``None``: a spectator's view)."""
        if self._shared_on():
            return self.shared.seat
        state = self.model.shown_state()
        acting = None if self.engine.is_over(state) else self.engine.decider(state)
        return self._setup.viewing_seat(acting)

    def code(self) -> str:
        """This game's code as it stands (see :mod:`toolkit.widgets.table.code`)."""
        return session_code(self.model.session)

    # ---- acting -----------------------------------------------------------------------------
    def play(self, move: Any, refusal: RefusalLine | None = None, *, current: bool = False) -> bool:
        """Play ``move`` (object or text) for the page, answering the click on ``refusal`` (default: the
        line beside the actions). Never raises; returns True if the move was applied. ``current``: the
        click is known to be aimed at the position as it stands now (the hint asked for since the last
        move), which matters at a shared table only (:data:`~toolkit.widgets.table.shared.CAUGHT_UP_GRACE_S`)."""
        line = refusal if refusal is not None else self.refusal
        if self._shared_on():
            return self.shared.play(move, line, current=current or getattr(self, "_playing_hint", False))
        applied = self.model.play(move)
        return answer_click(applied, self.model, line, self.lang)

    def refuse(self, item: Any, refusal: RefusalLine | None = None) -> None:
        """Show why a click did nothing (a Violation, RuleError or text) beside what was clicked."""
        (refusal if refusal is not None else self.refusal).show(item, self.lang)

    def answer_refusals(self, component: Any, refusal: RefusalLine | None = None) -> None:
        """Show a component's own refusals (a pick it cannot read: a hidden card, a disabled cell) on the
        refusal line beside it, as the engine's refusals are: every click is answered in one place."""
        component.on_refuse(lambda text: self.refuse(text, refusal))

    def new_game(self, seed: int | None = None, options: Mapping[str, Any] | None = None) -> bool:
        """Start a new game; bad options are refused beside the New game button, the old game kept."""
        if self._shared_on():
            self.options_bar.answer.show(self.t("table.shared.fixed"), self.lang)
            return False
        before = self.model.session
        self.model.new_game(seed=seed, options=options)
        if self.model.session is before:
            self.options_bar.answer.show(self.model.message or self.t("ui.refused"), self.lang)
            return False
        self.options_bar.answer.clear()
        self._after_new_session()
        return True

    def open_code(self, text: Any) -> bool:
        """Reopen the game of a code (pasted code, ``?code=`` value or link). A bad code is refused beside
        the box with its reason; the game on the table is kept."""
        if self._shared_on():
            self.controls.answer.value = f'<span class="deepsea-refusal" role="alert">{esc(self.t("table.shared.fixed"))}</span>'
            return False
        try:
            session = replay_code(self.engine, parse_game_code(text, self.engine.name))
        except GameCodeError as exc:
            self.controls.answer.value = f'<span class="deepsea-refusal" role="alert">{esc(exc.text(self.lang))}</span>'
            return False
        self._load(session)
        self.controls.answer.value = (f'<span class="deepsea-note">{esc(self.t("table.controls.opened", seed=session.seed, moves=len(session)))}</span>')
        return True

    def undo(self) -> bool:
        """Take back the last move, and the bots' moves after the last person's: the page is back where a
        person decides (or at the start). False (answered beside Undo) when there is nothing to undo."""
        if self._shared_on():
            self.controls.answer.value = f'<span class="deepsea-refusal" role="alert">{esc(self.t("table.shared.fixed"))}</span>'
            return False
        if len(self.model.session) == 0:
            self.controls.answer.value = f'<span class="deepsea-refusal" role="alert">{esc(self.t("table.controls.nothing_to_undo"))}</span>'
            return False
        driver = self._driver
        autoplay, driver.autoplay = driver.autoplay, False   # no bot move between the steps back
        self._holding = True     # one redraw at the end: the page never shows the steps in between
        try:
            self.model.undo()
            while len(self.model.session) and not self._person_decides(self.model.session.state):
                self.model.undo()
        finally:
            driver.autoplay = autoplay
            self._holding = False
        self.hint_bar.forget()
        self._redraw()
        self.controls.answer.value = ""
        self.refusal.clear()
        self.on_new_game()
        driver.schedule()
        return True

    # ---- callbacks ----------------------------------------------------------------------------
    @safe_callback
    def _on_new_game(self, _button: Any = None) -> None:
        seed = self.options_bar.seed.value
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
            raise InvalidMoveError(f"seed {seed!r} must be a whole number from 0 to {MAX_SEED}")
        self.new_game(seed, self.options_from_widgets(self.options_bar.values()))

    @safe_callback
    def _on_undo(self, _button: Any = None) -> None:
        self.undo()

    @safe_callback
    def _on_open_code(self, _button: Any = None) -> None:
        self.open_code(self.controls.code_input.value)

    @safe_callback
    def _on_hint(self, _button: Any = None) -> None:
        bar = self.hint_bar
        bar.forget()
        if self._shared_on():
            self.shared.hint_lost = False
        state = self.model.session.state
        seat = None
        if self.model.live and not self.engine.play_out_over(state):
            decider = self.engine.decider(state)
            seat = self.viewing_seat()     # the seat the page shows (a hot seat's curtain: none)
            if not self._setup.is_human(seat) or (seat != decider and seat not in self.engine.optional_actors(state)):
                seat = None
        decision = self._driver.hint(seat) if seat is not None else None
        if decision is None or decision.move is None:
            bar.show(esc(self.t("table.hint.none")), moves=self.model.position)
            return
        bar.decision, bar.seat = decision, seat
        self._render_hint()

    @safe_callback
    def _on_play_hint(self, _button: Any = None) -> None:
        decision = self.hint_bar.decision
        if decision is None and self._shared_on() and self.shared.hint_lost:
            # at a shared table another seat's move arrived after the hint was asked (and took it away):
            # the click was meant for the position before it, as a click that loses the race in the store
            self.shared.hint_lost = False
            self.refuse(self.t("table.shared.stale"))
            return
        if decision is None or decision.move is None:
            self.hint_bar.show(f'<span class="deepsea-refusal" role="alert">{esc(self.t("table.hint.stale"))}</span>')
            return
        # aimed at the position as it stands (the hint goes at every move); a flag, not an argument, so a
        # table that overrides play(move, refusal) passes it on without knowing of it
        self._playing_hint = True
        try:
            self.play(decision.move)
        finally:
            self._playing_hint = False

    def _on_model(self, change: Mapping[str, Any]) -> None:
        # any change of the game (a move, a bot's move, undo, new game, replay) makes the hint stale
        if getattr(self, "_holding", False):
            return
        self.hint_bar.forget()
        self._redraw()

    def _redraw(self) -> None:
        """Redraw after a change of the game: a game hook's bug is logged and shown, never raised into
        the move that caused it (a bot's timer, the session's observers)."""
        try:
            self.refresh()
        except Exception as exc:
            log.exception("the table's redraw failed")
            self.report(self.t("ui.internal_error", detail=f"{type(exc).__name__}: {str(exc)[:120]}"), error=True)

    def _on_bot_moved(self, change: Mapping[str, Any]) -> None:
        last = self._driver.last
        self._bot_shown = (len(self.model.session), *last) if last is not None else None
        self._render_bot_line()

    def _render_bot_line(self) -> None:
        shown = getattr(self, "_bot_shown", None)
        if shown is None or not self.model.live or shown[0] != len(self.model.session):
            self.bot_line.show(None, "")     # a person moved, undid or started again since
            return
        _length, seat, decision = shown
        said = self.bot_move_text(seat, decision)
        self.bot_line.show(seat, *(said or ("",)), lang=self.lang)

    def _on_seats(self, change: Mapping[str, Any]) -> None:
        self.on_seats_changed()
        self.hint_bar.forget()
        self._redraw()

    def _on_bot_error(self, exc: Exception) -> None:
        self.report(exc, error=True)

    # ---- drawing ---------------------------------------------------------------------------------
    def refresh(self) -> None:
        if not getattr(self, "_finished", False):
            return
        m, lang = self.model, self.lang
        m.lang = lang
        self._setup.lang = lang    # before the log and status name the seats ("You" / "あなた")
        self._header.value = f"<h3>{esc(self.title_text())}</h3>{self.rules_html()}"
        self.options_bar.relabel(lang)
        self.label_options()
        self.controls.relabel(lang)
        self.hint_bar.relabel(lang)
        self.refusal.redraw(lang)
        self.options_bar.answer.redraw(lang)
        state = m.shown_state()
        seat = self.viewing_seat()
        obs = self.engine.observe(state, seat)
        self.refresh_board(obs, seat)
        shared = self._shared_on()
        extra = list(self.status_extra(obs, seat))
        if shared:                      # why the game waits: the seat to act is free or its person away
            self.shared._said_waiting = self.shared.status_extra()
            extra += self.shared._said_waiting
        self.status.update(m, self.seat_name, lang, is_human=self.shared.is_mine if shared else self._setup.is_human,
                           humans=1 if shared else len(self._setup.human_seats()), extra=extra)
        outcome = self.engine.outcome(state)
        self.banner.update(outcome, lang, self.result_text(outcome) if outcome is not None else None,
                           moves=m.position)
        self._render_hint()
        self._render_bot_line()
        moves = m.session.moves
        # a shared table's code would hold its seed, and the seed deals every hand: no code there
        self.controls.show_code(session_code(m.session) if not shared and self.shareable(moves, seat) else None,
                                lang, {"lang": lang})
        if getattr(self, "_opened_error", None) is not None:
            self.controls.answer.value = f'<span class="deepsea-refusal" role="alert">{esc(self._opened_error.text(lang))}</span>'
        # the log last: a log stamped with the status's moves means the whole redraw (board, banner, bot
        # line, game code and share link) is on the page (FRAME_SETTLED in tests/browser/conftest.py; a
        # share link read before it was a move behind and reopened another position)
        events = list(self.setup_events()) + [e for step in m.session.steps[:m.position] for e in step.events]
        log_name, seat_phrase = self.log_seat_names()
        self.event_log.update(events, lang, log_name, self.last_result(events), moves=m.position, seat_phrase=seat_phrase)

    def _render_hint(self) -> None:
        bar = self.hint_bar
        decision = bar.decision
        if decision is None:
            return
        move = self.move_text(decision.move)
        text = self.t("table.hint.text", name=self.seat_name(bar.seat), move=move, reason=self.hint_reason(decision))
        rule = getattr(decision.reason, "rule", "")
        marks = self.hint_marks(decision)
        bar.show(f"{esc(text)} {rule_ref_html(rule, self.lang)}" if rule else esc(text),
                 marks=sum(len(keys) for _component, keys in marks), moves=self.model.position)
        bar.mark(marks, self.t("table.hint.mark", move=move))
        bar.relabel(self.lang)

    # ---- the shared table (toolkit.widgets.table.shared) ----------------------------------------------
    def _answer_stale_picks(self) -> None:
        """At a shared table, a click on a table component (a bag, a boat, a card) that reaches the kernel just
        after another seat's move was drawn (:meth:`SharedTablePanel.just_caught_up`) was aimed at the position
        before. If the other move took the clicked object away (a leader's stop ends the dive a diver was
        leaving), the component itself refuses the pick ("That cannot be clicked now") and the move never
        reaches ``play``, which says "Someone moved first" for such clicks: say that here too, as two people
        clicking at the same moment must be told (found by tests/browser/test_shared_table_seats_at_once.py).
        Components are found in the board and action widgets as built (the games create them once)."""
        from toolkit.widgets.components.base import PickComponent

        stack, seen = [*self.board_widgets(), *self.action_widgets()], set()
        while stack:
            w = stack.pop()
            if id(w) in seen:
                continue
            seen.add(id(w))
            if isinstance(w, PickComponent):
                w.on_refuse(lambda _text, c=w: self._stale_pick(c))
            stack.extend(getattr(w, "children", None) or ())

    def _stale_pick(self, component: Any) -> None:
        if not self._shared_on() or not self.shared.just_caught_up():
            return
        component.refusal = ""
        self.refuse(self.t("table.shared.stale"))

    def _shared_on(self) -> bool:
        shared = getattr(self, "shared", None)
        return shared is not None and shared.joined

    def _enter_shared(self) -> None:
        """The page follows a shared table: the store plays the bots, and the seats bar (with the teacher's
        switch), the options, undo and the code are hidden."""
        self._autoplay = False
        self._driver.autoplay = False
        self._driver.schedule()           # cancels a bot move this page had scheduled
        self._setup.show_all = False
        for part in (self._seats_box, self.options_bar, self.controls):
            part.layout.display = "none"
        self._bot_shown = None

    def _load_shared(self, session: Any) -> None:
        """Play the shared table's game (replayed from its log) on this page."""
        self._holding = True
        try:
            self.model.load(session)
        finally:
            self._holding = False
        self._opened_error = None
        self.refusal.clear()
        self.on_new_game()
        if self.engine.seat_count(self.model.session.state) != len(self._setup.seats):
            self._make_seats()
        self._shared_seats_changed()

    def _shared_seats_changed(self) -> None:
        """Mirror the table in the (hidden) seats bar: "You" at this page's seat only, a bot level at the
        others, so every part that asks the seats bar who is a person sees this page's person only."""
        shared = self.shared
        levels = self._setup.levels
        wanted = []
        for seat in range(len(self._setup.seats)):
            kind = shared._kind(seat)
            wanted.append(YOU if shared.is_mine(seat) else kind if kind in levels else levels[0])
        self._setup.show_all = False
        self._setup.seats = wanted
        self.hint_bar.forget()
        self._redraw()

    def _shared_final_state(self, state: Any) -> None:
        try:
            self.on_final_state(state)
        except Exception as exc:  # a game hook's bug is shown, never raised into the table's sync
            log.exception("on_final_state failed")
            self.report(self.t("ui.internal_error", detail=f"{type(exc).__name__}: {str(exc)[:120]}"), error=True)

    # ---- internals -------------------------------------------------------------------------------
    def _start_from(self, params: Mapping[str, str], seed: int, options: Mapping[str, Any] | None):
        """The game the page opens: ``?code=`` (replayed), else ``?seed=`` and options, else the arguments."""
        if params.get("code"):
            try:
                return seed, options, replay_code(self.engine, parse_game_code(params["code"], self.engine.name)), None
            except GameCodeError as exc:
                return seed, options, None, exc
        raw = params.get("seed", "").strip()
        if raw.isascii() and raw.isdigit() and len(raw) <= 12 and int(raw) <= MAX_SEED:
            seed = int(raw)
        asked = self.options_from_query(params)
        merged = {**dict(options or {}), **asked}
        try:
            self.engine.new_state(seed, **merged)
        except (RuleError, TypeError):
            merged = dict(options or {})   # an unreadable option in the link: the table's defaults
        return seed, merged, None, None

    def _person_decides(self, state: Any) -> bool:
        if self.engine.is_over(state):
            return False
        return self._setup.is_human(self.engine.decider(state))

    def _make_seats(self) -> None:
        old = getattr(self, "_driver", None)
        if old is not None:
            old.close()
            self._setup.unobserve(self._on_seats, ("seats", "show_all"))
        players = self.engine.seat_count(self.model.session.state)
        wanted = self._seats_wanted
        if wanted is None or len(wanted) != players:
            wanted = None
        if old is not None:
            kept = list(self._setup.seats)
            wanted = kept if len(kept) == players else None
        old_setup = getattr(self, "_setup", None)
        self._setup = self.make_seat_setup(players, wanted)
        if old_setup is not None:
            self._lang_link.unlink()
        self._lang_link = traitlets.dlink((self, "lang"), (self._setup, "lang"))
        self._setup.observe(self._on_seats, ("seats", "show_all"))
        self._seats_box.children = (self._setup,)
        if old_setup is not None:
            close_tree(old_setup)   # a seats bar per player count would stay in the kernel and the page
        if old is not None:
            old.unobserve(self._on_bot_moved, "moves_played")
        self._driver = BotDriver(self.model, self._setup, autoplay=self._autoplay, on_error=self._on_bot_error)
        self._driver.observe(self._on_bot_moved, "moves_played")
        if self._driver.last is not None:   # bots that moved at once while the driver was built (no kernel)
            self._on_bot_moved({})

    def _after_new_session(self) -> None:
        self._opened_error = None
        self.refusal.clear()
        self.on_new_game()
        if self.engine.seat_count(self.model.session.state) != len(self._setup.seats):
            self._make_seats()
            self.refresh()
        self.options_bar.show_values(self.model.session.seed, self.model.session.options)
        self._driver.schedule()

    def _load(self, session: Any) -> None:
        driver = self._driver
        autoplay, driver.autoplay = driver.autoplay, False
        try:
            self.model.load(session)
        finally:
            driver.autoplay = autoplay
        self._after_new_session()


def simple_options(engine: Engine) -> dict[str, Any]:
    """The options of ``engine.new_state`` with a plain default (int, bool, str): the generic table
    offers these. ``{"players": 4, "mission": 1, "timed": False}`` for the Crew."""
    out: dict[str, Any] = {}
    for name, param in inspect.signature(engine.new_state).parameters.items():
        if name in ("self", "seed") or param.kind in (param.VAR_KEYWORD, param.VAR_POSITIONAL):
            continue
        if isinstance(param.default, (bool, int, str)):
            out[name] = param.default
    return out


class GenericTable(TableFrame):
    """Plays ANY engine on the frame: its legal moves as buttons, its view as text (boardgame.io's debug
    panel, with seats, bots, hint, log, undo and a code)."""

    def build(self) -> None:
        self._move_buttons = MoveButtons(self._on_move, lang=self.lang)
        self.answer_refusals(self._move_buttons)     # a click on a move no longer shown: said beside it
        self._moves_label = widgets.HTML()
        self._view = widgets.HTML()
        self._view.add_class("deepsea-observation")
        self._options = {}
        for name, default in simple_options(self.engine).items():
            if isinstance(default, bool):
                w = widgets.Checkbox(value=default, indent=False)
            elif isinstance(default, int):
                w = widgets.IntText(value=default, layout=widgets.Layout(width="12em"))
            else:
                w = widgets.Text(value=default, layout=widgets.Layout(width="16em"))
            w.add_class(f"deepsea-option-{name}")
            self._options[name] = w

    def board_widgets(self) -> list[widgets.Widget]:
        return [self._view]

    def action_widgets(self) -> list[widgets.Widget]:
        return [self._moves_label, self._move_buttons]

    def option_widgets(self) -> dict[str, widgets.Widget]:
        return self._options

    def label_options(self) -> None:
        for name, w in self._options.items():
            key = f"table.generic.{name}"
            w.description = self.t(key) if i18n.has(key) else name

    @property
    def move_buttons(self) -> MoveButtons:
        return self._move_buttons

    def refresh_board(self, obs: Mapping[str, Any], seat: int | None) -> None:
        state = self.model.shown_state()
        moves: list[Any] = []
        if self.model.live and seat is not None and self._setup.is_human(seat) and not self.engine.play_out_over(state):
            moves = self.engine.legal_moves(state, seat)
        self._move_buttons.lang = self.lang
        self._move_buttons.group_label = self.t("table.generic.moves" if moves else "table.generic.no_moves")
        self._move_buttons.show(moves, [self.engine.describe_move(m, self.lang) for m in moves])
        self._moves_label.value = esc(self.t("table.generic.moves" if moves else "table.generic.no_moves"))
        text = json.dumps(dict(obs), ensure_ascii=False, indent=1, default=str)[:6000]
        self._view.value = (f"<details open class='deepsea-side'><summary>{esc(self.t('table.generic.view'))}</summary>"
                            f"<pre>{esc(text)}</pre></details>")

    def hint_marks(self, decision: Any) -> list[tuple[Any, Sequence[str]]]:
        return [(self._move_buttons, [str(decision.move)])]

    def last_result(self, events: Sequence[Event]) -> str | None:
        position = self.model.position
        if position == 0:
            return None
        step = self.model.session.steps[position - 1]
        return "<br>".join(explain_html(e, self.lang) for e in step.events) or None

    @safe_callback
    def _on_move(self, index: Any) -> None:
        moves = self._move_buttons.moves
        if not isinstance(index, int) or not 0 <= index < len(moves):
            self.refuse(self.t("table.generic.move_refused"))
            return
        self.play(moves[index])
