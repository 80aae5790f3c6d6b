"""The pieces every table with bots shares: who plays each seat, how fast the bots move, and what the
page may show.

* :class:`SeatSetup` (a view): one drop-down per seat — "You" or a bot level of the game's ``BOTS`` —,
  the bots' pace, a "step" mode for a classroom (the teacher clicks "Next move"), and the teacher's
  "show every hand" switch, off by default and announced on screen while on.
* :class:`BotDriver` (no widget): watches a :class:`~toolkit.widgets.base.GameSession` and plays the
  bots' moves through :class:`toolkit.core.bots.BotTable` — so a bot sees ``observe(state, seat)`` only —
  at the chosen pace, or one at a time in step mode. It also answers "Hint" for a person's seat.

Hidden information stays structural: a table asks :meth:`SeatSetup.viewing_seat` which seat's
observation it may draw, and draws ``engine.observe(state, that seat)`` only. Other seats' cards never
reach a widget, so they never reach the browser.

A pace is a display choice, never the time a bot needs to think: the decision is taken when the move is
due, and the page shows it after the pause.

The bots wait for the page. In Voila the kernel runs the dashboard before the browser has connected, and
bots that changed widgets while the widget manager was still loading them once made it draw its error
icon. So in a kernel, when the seat setup sits in a view that carries a
:class:`~toolkit.widgets.page.PageSupport`, the driver's first timed move waits until that page has said
it has drawn (``PageSupport.rendered``) — or, if no page ever says so (a kernel without a browser:
nbconvert, a view never displayed), until ``page_timeout`` seconds (:data:`PAGE_WAIT_SECONDS`) have
passed. Outside a kernel (tests, scripts) nothing waits: the moves are played at once, as always.

>>> from toolkit.tranquility import ENGINE, BOTS               # doctest: +SKIP
>>> model = GameSession(ENGINE, seed=3, options={"players": 3})  # doctest: +SKIP
>>> setup = SeatSetup(3, list(BOTS))                            # doctest: +SKIP
>>> driver = BotDriver(model, setup)                            # doctest: +SKIP
"""

from __future__ import annotations

import logging
from typing import Any, Callable, Mapping, Sequence

import ipywidgets as widgets
import traitlets
from traitlets import Bool, Float, Int, List, Unicode, observe, validate

from toolkit.core.bots import BotTable, Decision, bot_rng, make_bot
from toolkit.core.errors import RuleError
from toolkit.widgets.base import GameSession, View, esc, kernel_loop, safe_callback

log = logging.getLogger("toolkit.widgets.seats")

YOU = "you"
PACE_MIN, PACE_MAX, PACE_DEFAULT = 0.0, 3.0, 0.7
#: How long a table's bots wait for their page to say it has drawn before they start anyway.
PAGE_WAIT_SECONDS = 6.0
#: The seat the hint bot's rng is keyed on is offset so a hint never changes the bots' own dice.
_HINT_RNG_OFFSET = 1000


def default_seats(players: int, levels: Sequence[str], you: int = 0) -> list[str]:
    """Seat ``you`` is the person; every other seat plays the strongest level (listed first)."""
    return [YOU if i == you else levels[0] for i in range(players)]


class SeatSetup(View):
    """Who plays each seat, the bots' pace, step mode and the teacher's switch.

    ``seats`` holds ``"you"`` or a level name per seat. Values set from the browser are untrusted: an
    unknown level or a wrong length keeps the old value.

    ``follows`` maps a seat nobody plays to the seat whose player decides for it (the Crew with two
    players: TONOJA's cards are the captain's decisions). Such a seat always holds its leader's value; its
    picker is disabled and says who plays it, so the page never offers a choice that would change nothing.
    ``names`` gives such seats a name instead of "Seat N".

    >>> setup = SeatSetup(3, ["expert"], seats=["you", "expert", "you"], follows={2: 1}, names={2: "TONOJA"})
    >>> setup.seats
    ['you', 'expert', 'expert']
    """

    seats = List(Unicode())
    pace = Float(PACE_DEFAULT)
    step_mode = Bool(False)
    show_all = Bool(False)
    #: bumped by the "Next move" button; a :class:`BotDriver` in step mode plays one move per bump
    next_requests = Int(0)
    #: True while a bot's move is due and step mode waits for "Next move"
    waiting = Bool(False)

    def __init__(self, players: int, levels: Sequence[str], seats: Sequence[str] | None = None,
                 lang: str = "en", pace: float = PACE_DEFAULT, step_mode: bool = False,
                 show_language: bool = False, follows: Mapping[int, int] | None = None,
                 names: Mapping[int, str] | None = None, **kwargs: Any):
        super().__init__(show_language=show_language, **kwargs)
        self.add_class("deepsea-seats")
        if not levels:
            raise RuleError("a table needs at least one bot level")
        self.levels = tuple(levels)
        self._players = players
        self._follows = dict(follows or {})
        for seat, leader in self._follows.items():
            if not (0 <= seat < players and 0 <= leader < players) or leader == seat or leader in self._follows:
                raise RuleError(f"follows must map a seat to another, played seat (0 to {players - 1}), "
                                f"not {seat!r} -> {leader!r}")
        self._names = dict(names or {})
        self._title = widgets.HTML()
        self._pickers: list[widgets.Dropdown] = []
        for seat in range(players):
            picker = widgets.Dropdown(layout=widgets.Layout(width="auto", min_width="11em"))
            picker.add_class("deepsea-seat-picker")
            picker.add_class(f"deepsea-seat-{seat}")
            picker.observe(self._on_picker, "value")
            self._pickers.append(picker)
        self._pace = widgets.FloatSlider(min=PACE_MIN, max=PACE_MAX, step=0.1, readout_format=".1f",
                                         layout=widgets.Layout(width="30em"), style={"description_width": "initial"})
        self._pace.add_class("deepsea-pace")
        self._step = widgets.Checkbox(indent=False, layout=widgets.Layout(width="auto"))
        self._step.add_class("deepsea-step-mode")
        self._next = widgets.Button(layout=widgets.Layout(width="auto"))
        self._next.add_class("deepsea-next-move")
        self._next.on_click(self._on_next)
        self._show_all = widgets.Checkbox(indent=False, layout=widgets.Layout(width="auto"))
        self._show_all.add_class("deepsea-show-all")
        self._warning = widgets.HTML()
        self._warning.add_class("deepsea-show-all-warning")
        # The traits are the model; the child widgets mirror them (their browser-side values are untrusted).
        # link() copies the widget's value to the trait first, so the traits are set after linking.
        widgets.link((self._pace, "value"), (self, "pace"))
        widgets.link((self._step, "value"), (self, "step_mode"))
        widgets.link((self._show_all, "value"), (self, "show_all"))
        self.seats = list(seats) if seats is not None else default_seats(players, self.levels)
        self.pace = pace
        self.step_mode = step_mode
        self._finish([self._title, widgets.HBox(self._pickers, layout=widgets.Layout(flex_flow="row wrap")),
                      widgets.HBox([self._pace, self._step, self._next],
                                   layout=widgets.Layout(flex_flow="row wrap", align_items="center")),
                      widgets.HBox([self._show_all, self._warning],
                                   layout=widgets.Layout(flex_flow="row wrap", align_items="center"))])
        self.lang = lang
        self.refresh()

    # ---- validation of untrusted values ------------------------------------------------------
    @validate("seats")
    def _valid_seats(self, proposal: Any) -> list[str]:
        value = list(proposal["value"])
        allowed = {YOU, *self.levels}
        if len(value) != self._players or any(v not in allowed for v in value):
            old = list(getattr(self, "_trait_values", {}).get("seats", []) or [])
            if len(old) == self._players:
                return old
            raise RuleError(f"seats must be {self._players} values among {sorted(allowed)}, not {value!r}")
        for seat, leader in self._follows.items():
            value[seat] = value[leader]
        return value

    @validate("pace")
    def _valid_pace(self, proposal: Any) -> float:
        value = proposal["value"]
        try:
            value = float(value)
        except (TypeError, ValueError):
            return PACE_DEFAULT
        if value != value:  # NaN
            return PACE_DEFAULT
        return min(max(value, PACE_MIN), PACE_MAX)

    # ---- reading -------------------------------------------------------------------------------
    def human_seats(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s == YOU]

    def is_human(self, seat: int | None) -> bool:
        return seat is not None and 0 <= seat < len(self.seats) and self.seats[seat] == YOU

    def bot_levels(self) -> list[str | None]:
        """Per seat: ``None`` for a person, else the bot level (what :class:`BotTable` takes)."""
        return [None if s == YOU else s for s in self.seats]

    def seat_name(self, seat: int) -> str:
        """Who plays ``seat``, as the page names it everywhere (log, status, hints): "You" when one person
        plays, "Seat 2 (you)" at a hot seat of several, "Seat 1 (bot: expert)" for a bot."""
        name = self._names.get(seat) or self.t("seats.seat", seat=seat)
        if not 0 <= seat < len(self.seats):
            return name
        if self.is_human(seat):
            return self.t("seats.you") if len(self.human_seats()) == 1 else self.t("seats.name_you", name=name)
        return self.t("seats.name_bot", name=name, level=self.level_label(self.seats[seat]))

    def viewing_seat(self, acting: int | None) -> int | None:
        """Whose observation the page may draw now.

        The acting seat if a person plays it (hot seat: each person in turn), else the first person's
        seat; ``None`` (the spectator's public view) when every seat is a bot. With the teacher's switch
        on, the acting seat is shown whoever plays it.
        """
        if acting is not None and (self.show_all or self.is_human(acting)):
            return acting
        humans = self.human_seats()
        return humans[0] if humans else None

    # ---- callbacks -------------------------------------------------------------------------------
    @safe_callback
    def _on_picker(self, change: Mapping[str, Any]) -> None:
        if getattr(self, "_refreshing", False):
            return
        seats = [p.value for p in self._pickers]
        if all(v is not None for v in seats):
            self.seats = seats
            if self.seats != seats:  # refused: put the pickers back
                self.refresh()

    @safe_callback
    def _on_next(self, _button: Any = None) -> None:
        self.next_requests += 1

    @observe("seats", "show_all", "step_mode", "waiting")
    def _on_traits(self, change: Mapping[str, Any]) -> None:
        if self._pickers:
            self.refresh()

    def refresh(self) -> None:
        if not self._pickers:
            return
        self._title.value = f"<b>{esc(self.t('seats.title'))}</b>"
        options = [(self.t("seats.you"), YOU)] + [(self.t("seats.bot", level=self.level_label(level)), level)
                                                  for level in self.levels]
        self._refreshing = True  # the pickers' own change events are ours, not the visitor's
        try:
            for seat, picker in enumerate(self._pickers):
                name = self._names.get(seat) or self.t("seats.seat", seat=seat)
                if seat in self._follows:
                    # one option, disabled: the seat is played by its leader's player
                    mine = [(self.t("seats.follows", seat=self._follows[seat]), self.seats[seat])]
                    if tuple(picker.options) != tuple(mine):
                        picker.options = mine
                    picker.disabled = True
                    picker.tooltip = self.t("seats.follows", seat=self._follows[seat])
                else:
                    if tuple(picker.options) != tuple(options):
                        picker.options = options
                    # a short level in the seat's name, the level's whole description on hover
                    picker.tooltip = self.level_description(self.seats[seat])
                picker.value = self.seats[seat]
                picker.description = name
        finally:
            self._refreshing = False
        self._pace.description = self.t("seats.pace")
        self._step.description = self.t("seats.step_mode")
        self._next.description = self.t("seats.next")
        self._next.disabled = not (self.step_mode and self.waiting)
        self._show_all.description = self.t("seats.show_all")
        self._warning.value = (f'<span class="deepsea-refusal" role="status">{esc(self.t("seats.show_all_on"))}</span>'
                               if self.show_all else "")

    def level_description(self, level: str) -> str:
        """What a bot level does, in a sentence (``seats.level_about.<level>``; else the level's label)."""
        from toolkit.core import i18n

        key = f"seats.level_about.{level}"
        return self.t(key) if i18n.has(key) else self.level_label(level) if level != YOU else self.t("seats.you")

    def level_label(self, level: str) -> str:
        key = f"seats.level.{level}"
        from toolkit.core import i18n

        return self.t(key) if i18n.has(key) else level


class BotDriver(traitlets.HasTraits):
    """Plays the bots' seats of a :class:`GameSession` at the pace a :class:`SeatSetup` says.

    In a kernel (Voila, JupyterLab) the moves are timed with the kernel's asyncio loop (``call_later``);
    elsewhere (tests, scripts) they are played at once.

    After every change of the game (a person's move, undo, a new game) it asks :class:`BotTable` whether
    a bot's move is due; if so it plays it after ``setup.pace`` seconds — or, in step mode, when
    "Next move" is clicked. ``last`` holds the last bot move as ``(seat, Decision)`` so a table can show
    the bot's reason. Without a running event loop (tests, nbconvert) moves are played at once.

    In a kernel the first timed move waits for the page that shows the seat setup to have drawn (see the
    module docstring): ``page_timeout`` seconds at most; ``waiting_for_page`` is True meanwhile.
    """

    last = traitlets.Any(None, allow_none=True)
    #: bumped whenever a bot moved (tables observe it to redraw the bot's reason)
    moves_played = Int(0)
    #: True while the first bot move waits for the page to say it has drawn
    waiting_for_page = Bool(False)

    def __init__(self, model: GameSession, setup: SeatSetup, max_moves: int = 10_000,
                 on_error: Callable[[Exception], None] | None = None, autoplay: bool = True,
                 page_timeout: float = PAGE_WAIT_SECONDS):
        super().__init__()
        self.page_timeout = float(page_timeout)
        self._page_open = False         # the page has drawn (or there is none to wait for)
        self._page_waited: Any = None   # the page being waited for
        self._page_wait_since: float | None = None
        # autoplay=False: nothing is scheduled; the caller plays bots with play_one()/run_until_human().
        # Notebooks checked by nbval use it, so no timer fires while a later cell runs.
        self.autoplay = autoplay
        self.model = model
        self.setup = setup
        self.max_moves = max_moves
        self._on_error = on_error
        self._generation = 0
        self._running = False
        self._handle: Any = None
        self._table = self._build_table()
        model.observe(self._on_model, "revision")
        setup.observe(self._on_seats, "seats")
        setup.observe(self._on_mode, "step_mode")
        setup.observe(self._on_next, "next_requests")
        self.schedule()

    # ---- the table -----------------------------------------------------------------------------
    def _build_table(self) -> BotTable:
        # A new game (a new Session) gets fresh bot rngs, so a seeded game with bots replays exactly.
        self._session_built = self.model.session
        return BotTable(self.model.engine, self.setup.bot_levels(), self.model.session.seed)

    def due(self) -> tuple[int, Decision] | None:
        """The bot move due now (taking the decision), or ``None`` if a person acts or the game ended."""
        if not self.model.live:
            return None
        return self._table.step(self.model.session.state)

    def play_one(self) -> bool:
        """Play the bot move due now, if any. Returns True if a bot moved."""
        try:
            nxt = self.due()
        except RuleError as exc:  # a broken bot must not break the page
            log.exception("bot failed")
            if self._on_error:
                self._on_error(exc)
            return False
        if nxt is None:
            return False
        seat, decision = nxt
        if not self.model.play(decision.move):
            log.error("bot move %s refused: %s", decision.move, self.model.message)
            return False
        self.last = (seat, decision)
        self.moves_played += 1
        return True

    def run_until_human(self) -> int:
        """Play every bot move due now, at once (tests, notebooks). Returns how many were played.

        A loop, not a recursion: each bot move changes the model, whose change would schedule the next
        move from inside this one; while this loop runs, :meth:`schedule` leaves the next move to it.
        """
        if self._running:
            return 0
        self._running = True
        played = 0
        try:
            while played < self.max_moves and self.play_one():
                played += 1
        finally:
            self._running = False
        return played

    def settle_optional(self) -> int:
        """Play now the bots' optional moves that are due while a person decides (a Crew bot's sonar at the
        start of a trick), so that a person's move never beats them to it: the game must not depend on how
        fast the person clicks. Only with ``autoplay`` (otherwise the caller drives the bots). Returns how
        many were played."""
        if not self.autoplay or self._running:
            return 0
        played = 0
        engine = self.model.engine
        while played < self.max_moves and self.model.live:
            state = self.model.session.state
            if engine.play_out_over(state) or self._table.is_bot(engine.decider(state)):
                break   # a bot decides: its own turn comes at its pace, not here
            if not self.play_one():
                break
            played += 1
        return played

    def hint(self, seat: int | None = None, level: str | None = None) -> Decision | None:
        """What the strongest bot (or ``level``) would do for a person's ``seat`` now, and why.

        The hint bot sees exactly that seat's observation, like every bot.
        """
        state = self.model.session.state
        engine = self.model.engine
        if seat is None:
            seat = engine.decider(state)
        if seat is None or engine.play_out_over(state):
            return None
        bot = make_bot(engine, level or self.setup.levels[0])
        rng = bot_rng(self.model.session.seed, _HINT_RNG_OFFSET + seat)
        legal = engine.legal_moves(state, seat)  # that seat's own moves: others' would name their hands
        decision = bot.decide(engine.observe(state, seat), legal, rng)
        if decision.move is not None and (decision.move not in legal or engine.actor(state, decision.move) != seat):
            return None
        return decision

    # ---- scheduling ------------------------------------------------------------------------------
    def schedule(self) -> None:
        """Arrange the next bot move (after the pace, or on "Next move" in step mode)."""
        self._generation += 1
        self._cancel()
        if not self.autoplay:
            return
        if not self.model.live or self.model.engine.play_out_over(self.model.session.state):
            self.setup.waiting = False
            return
        state = self.model.session.state
        engine = self.model.engine
        decider = engine.decider(state)
        bots_may_act = self._table.is_bot(decider) or any(
            self._table.is_bot(s) for s in engine.optional_actors(state))
        if not bots_may_act:
            self.setup.waiting = False
            return
        if self.setup.step_mode:
            self.setup.waiting = True
            return
        self.setup.waiting = False
        generation = self._generation
        loop = kernel_loop()
        if loop is None or self.setup.pace <= 0:
            if loop is None:
                self.run_until_human()  # returns at once when called from inside its own loop
                return
            self._handle = loop.call_soon(self._tick, generation)
        else:
            self._handle = loop.call_later(self.setup.pace, self._tick, generation)

    def _tick(self, generation: int) -> None:
        self._handle = None
        if generation != self._generation:
            return  # the game changed since this move was scheduled
        try:
            if not self._page_ready(generation):
                return
            self.play_one()  # the model's revision change schedules the next one
        except Exception:  # noqa: BLE001 - a timer callback must never raise into the loop
            log.exception("bot tick failed")

    def _page_ready(self, generation: int) -> bool:
        """Whether timed bot moves may start: the page showing the seats has drawn, there is no such page,
        or ``page_timeout`` has passed. If not, the move is tried again when the page says so (or at the
        timeout)."""
        if self._page_open:
            return True
        from toolkit.widgets.page import page_of

        page = page_of(self.setup)
        loop = kernel_loop()
        if page is None or page.rendered or loop is None:
            self._open_page()
            return True
        now = loop.time()
        if self._page_wait_since is None:
            self._page_wait_since = now
            self._page_waited = page
            page.observe(self._on_page_rendered, "rendered")
        remaining = self.page_timeout - (now - self._page_wait_since)
        if remaining <= 0:
            log.warning("the page did not say it had drawn within %.1f s: the bots start anyway", self.page_timeout)
            self._open_page()
            return True
        self.waiting_for_page = True
        self._handle = loop.call_later(remaining, self._tick, generation)
        return False

    def _open_page(self) -> None:
        self._page_open = True
        self.waiting_for_page = False
        if self._page_waited is not None:
            self._page_waited.unobserve(self._on_page_rendered, "rendered")
            self._page_waited = None

    def _on_page_rendered(self, change: Mapping[str, Any]) -> None:
        if change["new"] and not self._page_open:
            self._open_page()
            self.schedule()  # the first move comes one pace after the page has drawn

    def _cancel(self) -> None:
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None

    def close(self) -> None:
        self._generation += 1
        self._cancel()
        if self._page_waited is not None:
            self._page_waited.unobserve(self._on_page_rendered, "rendered")
            self._page_waited = None
        self.model.unobserve(self._on_model, "revision")
        self.setup.unobserve(self._on_seats, "seats")
        self.setup.unobserve(self._on_mode, "step_mode")
        self.setup.unobserve(self._on_next, "next_requests")

    def _on_model(self, change: Mapping[str, Any]) -> None:
        if self.model.session is not self._session_built:
            self._table = self._build_table()
        self.schedule()

    def _on_seats(self, change: Mapping[str, Any]) -> None:
        self._table = self._build_table()
        self.schedule()

    def _on_mode(self, change: Mapping[str, Any]) -> None:
        self.schedule()

    def _on_next(self, change: Mapping[str, Any]) -> None:
        if self.setup.step_mode and self.setup.waiting:
            self.setup.waiting = False
            self.play_one()
