"""The shared table on every table page (issue 27): people on their own devices at one game.

:class:`SharedTablePanel` sits in a :class:`~toolkit.widgets.table.TableFrame`'s ``share_slot``, so every
table built on the frame has it:

* **Invite** creates a table in the store (:mod:`toolkit.tables`) from the page's game options and its
  seats bar ("You" seats become people's seats, the others keep their bot level) with a fresh secret seed,
  and shows its link (``?table=CODE``) and code. The inviter's page joins the table as a spectator.
* **Opening ``?table=CODE``** joins: the seats (free / you / a person, connected or away / a bot), "Sit
  here" on a free seat, "Hand to a bot" on a seat left free or away for :data:`IDLE_S`. The seat's token
  is kept in the browser (:class:`~toolkit.widgets.components.storage.BrowserList`, one
  ``localStorage`` key per table), so a reload or a new tab of the same browser sits there again.
* At the table, the page draws ``observe(state, its seat)`` only (the frame's ``viewing_seat``), its
  clicks go to ``store.append`` (a refusal — someone moved first, not your move — is shown beside what was
  clicked, and the page catches up with the log); the seats bar, the options, undo and the game code are
  hidden (the code holds the seed, and the seed deals every hand).
* New moves reach the page through a watcher thread waiting on ``store.wait`` that hands them to the
  kernel's event loop (widgets are changed on the loop only); bots are played by whichever kernel at the
  table gets there first (``store.play_bots``: idempotent), :data:`BOT_PACE_S` after the move before.
* After the game the frame's ``on_final_state(state)`` hook gets the whole state (every hand is public
  then): the Crew's post-mortem uses it.

Outside a kernel (tests, scripts) nothing runs by itself: :meth:`SharedTablePanel.sync` brings the page
up to the log and plays the bots due at once.
"""

from __future__ import annotations

import logging
import secrets
import threading
import time
import urllib.parse
from typing import TYPE_CHECKING, Any, Mapping

import anywidget
import ipywidgets as widgets
from traitlets import Unicode

from toolkit.core.errors import IllegalMoveError, RuleError
from toolkit.core.session import Session
from toolkit.widgets.base import View, close_tree, esc, kernel_loop, safe_callback
from toolkit.widgets.components.storage import BrowserList
from toolkit.widgets.seats import YOU

if TYPE_CHECKING:
    from toolkit.tables import TableInfo, TableStore
    from toolkit.widgets.table.frame import TableFrame
    from toolkit.widgets.table.parts import RefusalLine

log = logging.getLogger("toolkit.widgets.table.shared")

#: a seat's holder is "connected" while their page touched the seat this recently
CONNECTED_S = 20.0
#: a person's seat may be handed to a bot once its holder has been away this long (a free seat at once)
IDLE_S = 60.0
#: how often a seated page shows a sign of life (``store.touch``) and every page re-reads the seats
HEARTBEAT_S = 5.0
#: the pause before a kernel plays a bot's move, so people see the moves one by one
BOT_PACE_S = 0.6
#: how long one ``store.wait`` of the watcher lasts before it looks at the seats again
WAIT_S = 2.0
#: a click that reaches the kernel this soon after another seat's move was drawn was aimed at the position
#: before it (the redraw had not reached the page, or the eye): refused as "someone moved first", like a
#: click that loses the race in the store, so two people clicking at the same moment land exactly one move
#: whichever kernel hears of the other's move first
CAUGHT_UP_GRACE_S = 0.4
#: the longest seed a shared table draws (the frame's seed box takes the same range)
MAX_SEED = 2**31 - 1
#: query keys a table's link keeps (the page's game and view on the debug dashboard, its language, display)
KEPT_QUERY = ("game", "view", "display")


class PageAddress(anywidget.AnyWidget):
    """Puts the table's link in the browser's address bar (``history.replaceState``, no reload), so the
    inviter's reload — or a kernel that died — opens the table again, as the guests' pages do. Only the
    kernel sets ``query``; the page cannot (``set_state`` ignores it)."""

    _esm = r"""
function render({ model, el }) {
  el.style.display = 'none';
  const apply = () => {
    const query = model.get('query');
    if (!query || query[0] !== '?') return;
    try { window.history.replaceState(window.history.state, '', window.location.pathname + query); } catch (e) { }
  };
  apply();
  model.on('change:query', apply);
  return () => model.off('change:query', apply);
}
export default { render };
"""
    query = Unicode("").tag(sync=True)

    def set_state(self, sync_data: Mapping[str, Any]) -> None:
        """Ignore the page: the address flows kernel → page only."""


def storage_key(code: str) -> str:
    """The ``localStorage`` key that keeps this browser's seat at table ``code``."""
    return f"deepsea.table.{code}"


class SharedTablePanel(View):
    """The shared-table panel of one table page (see the module docstring).

    ``url`` is the table store's (``None``: :func:`toolkit.tables.default_url`, read when first needed:
    a page that never invites or joins opens no store).
    """

    def __init__(self, frame: "TableFrame", url: str | None = None, query: Mapping[str, str] | None = None):
        super().__init__(lang=frame.lang, show_language=False)
        self.add_class("deepsea-shared-table")
        self.frame = frame
        self._url = url
        self._query = dict(query or {})
        self.store: TableStore | None = None
        self.code: str | None = None
        self.seat: int | None = None
        self.token: str | None = None
        self.info: TableInfo | None = None
        self.storage: BrowserList | None = None
        self.final_state: Any = None
        self.broken = False            # the log could not be read: the page stops following it
        self._bots_tried: int | None = None
        self._others_moved_at = float("-inf")     # when this page last drew a move another seat made
        self._drawn_at = 0.0                       # when it last drew new moves (time.time())
        #: :data:`CAUGHT_UP_GRACE_S` in a kernel (a browser draws the page); 0 outside one, where a caller
        #: reads the page synchronously and nothing lags behind
        self.grace_s = 0.0
        #: a hint shown on this page was taken away by moves from the log (see ``TableFrame._on_play_hint``)
        self.hint_lost = False
        self._said_waiting: list[str] = []     # what the status line last said about the seat to act
        self._bot_handle: Any = None
        self._watcher: threading.Thread | None = None
        self._stop = threading.Event()
        self._loop: Any = None
        self._invite = widgets.Button(button_style="info", layout=widgets.Layout(width="auto"))
        self._invite.add_class("deepsea-invite")
        self._invite.on_click(self._on_invite)
        self._help = widgets.HTML()
        self._header = widgets.HTML()
        self._header.add_class("deepsea-shared-header")
        self._seats = widgets.VBox()
        self._seats.add_class("deepsea-shared-seats")
        self._rows: list[tuple[widgets.HTML, widgets.Button, widgets.Button]] = []
        self._answer = widgets.HTML()
        self._answer.add_class("deepsea-shared-answer")
        self._storage_box = widgets.Box()
        self._finish([widgets.HBox([self._invite, self._help], layout=widgets.Layout(align_items="center",
                                                                                      flex_flow="row wrap")),
                      self._header, self._seats, self._answer, self._storage_box])
        self.refresh()

    # ---- reading ---------------------------------------------------------------------------------
    @property
    def joined(self) -> bool:
        """True once the page follows a shared table (its moves go to the store)."""
        return self.code is not None

    def t(self, key: str, **params: Any) -> str:
        """In the frame's language: the frame asks the panel for seat names and the status line's words
        while it redraws for a new language, before the panel's own ``lang`` has followed."""
        from toolkit.core.i18n import translate

        return translate(key, self.frame.lang, **params)

    def is_mine(self, seat: Any) -> bool:
        return self.seat is not None and seat == self.seat

    def seat_name(self, seat: int) -> str:
        """"You" for this page's seat, "Seat 1 (person)" for another person's, "Seat 2 (bot: expert)"."""
        name = self.t("seats.seat", seat=seat)
        if self.is_mine(seat):
            return self.t("seats.you")
        kind = self._kind(seat)
        if kind is None or kind == "human":
            return self.t("table.shared.person", name=name)
        return self.t("seats.name_bot", name=name, level=self.frame.setup.level_label(kind))

    def presence(self, seat: int) -> str | None:
        """How a person's seat stands: "you", "here" (a sign of life in the last :data:`CONNECTED_S`),
        "away", "free" (nobody sat there yet, or it was left); ``None`` for a bot's seat or no table."""
        info = self.info.seats[seat] if self.info is not None and 0 <= seat < len(self.info.seats) else None
        if info is None or info.kind != "human":
            return None
        if self.is_mine(seat):
            return "you"
        if not info.claimed:
            return "free"
        return "here" if info.seen is not None and time.time() - info.seen < CONNECTED_S else "away"

    def status_extra(self) -> list[str]:
        """The status line's words at a shared table: why the game waits, if the seat to act is a person's
        seat that is free or whose holder is away (else nothing: "Seat 2 (person) to play." says it)."""
        if not self.joined or self.broken:
            return []
        engine, state = self.frame.engine, self.frame.model.session.state
        if engine.play_out_over(state):
            return []
        seat = engine.decider(state)
        if seat is None:
            return []
        name = self.t("seats.seat", seat=seat)
        stands = self.presence(seat)
        if stands == "free":
            return [self.t("table.shared.acting_free", name=name)]
        if stands == "away":
            return [self.t("table.shared.acting_away", name=name, seconds=int(IDLE_S))]
        return []

    def just_caught_up(self) -> bool:
        """True within :attr:`grace_s` of this page drawing another seat's move: a click arriving now was
        aimed at the position before it (:data:`CAUGHT_UP_GRACE_S`)."""
        return time.monotonic() - self._others_moved_at < self.grace_s

    def link(self) -> str:
        """The table's link: this page's own address with ``?table=CODE`` (and its game, view, language)."""
        query = {k: v for k, v in self._query.items() if k in KEPT_QUERY}
        query.update(table=self.code or "", lang=self.lang)
        return "?" + urllib.parse.urlencode(query)

    # ---- inviting and joining ----------------------------------------------------------------------
    def invite(self, seed: int | None = None) -> str | None:
        """Create a shared table from the page's options and seats bar, join it and show its link; returns
        its code (``None`` if the store refused: said beside the button). The seed is drawn afresh (the
        page's own seed is on the inviter's screen, and the seed deals every hand) unless given."""
        frame = self.frame
        if self.joined:
            # the button is hidden at a shared table; a click that still arrives (a forged one) would leave
            # the table for a new one behind the learner's back
            self._say(self.t("table.shared.already_at_table"), error=True)
            return None
        # the players' seats (the Crew's TONOJA, a seat of the bar that follows the captain, is nobody's)
        players = frame.engine.seat_count(frame.model.session.state)
        kinds = ["human" if s == YOU else s for s in frame.setup.seats][:players]
        seed = secrets.randbelow(MAX_SEED + 1) if seed is None else seed
        try:
            code = self._open().create(frame.engine.name, seed, dict(frame.model.session.options), kinds)
        except RuleError as exc:
            self._say(exc, error=True)
            return None
        self.join(code)
        return code

    def join(self, code: Any) -> bool:
        """Follow the table ``code``: its seats, its game as it stands. False (said in the panel, the
        page's own game kept) for an unknown table, another game's table or an unreadable log."""
        from toolkit.tables import UnknownTableError

        if self.joined:
            self.leave_page()
        try:
            store = self._open()
            info = store.info(code)
        except UnknownTableError:
            self._say(self.t("table.shared.unknown", code=str(code)[:64]), error=True)
            return False
        except TypeError:
            self._say(self.t("table.shared.unknown", code="?"), error=True)
            return False
        except RuleError as exc:
            self._say(self.t("table.shared.corrupt", detail=str(exc)), error=True)
            return False
        if info.game != self.frame.engine.name:
            self._say(self.t("table.shared.other_game", code=code, game=self._game_label(info.game)), error=True)
            return False
        try:
            texts = store.moves(code)
        except RuleError as exc:
            self._say(self.t("table.shared.corrupt", detail=str(exc)), error=True)
            return False
        self.code, self.info, self.broken = code, info, False
        self.seat = self.token = None
        self.final_state = None
        self._bots_tried = None
        self.frame._enter_shared()
        self._load(texts)
        self.storage = BrowserList(key=storage_key(code), max_items=4, max_chars=200)
        self.storage.on_load(self._on_stored)
        self.address = PageAddress(query=self.link())
        self._storage_box.children = (self.storage, self.address)
        self._build_rows(len(info.seats))
        self._say(None)
        self._after_change()
        self._start_watcher()
        return True

    def sit(self, seat: Any) -> bool:
        """Claim ``seat`` (a free person's seat) for this page; the token goes to the browser's storage."""
        from toolkit.tables import SeatTakenError

        if not self.joined or self.broken:
            return False
        try:
            token = self._open().claim(self.code, seat)
        except SeatTakenError:
            self._say(self.t("table.shared.seat_taken"), error=True)
            self._refresh_info()
            return False
        except RuleError as exc:
            self._say(exc, error=True)
            return False
        self._take_seat(seat, token)
        if self.storage is not None:
            self.storage.store([f"{seat}:{token}"])
        return True

    def hand_to_bot(self, seat: Any, level: str | None = None) -> bool:
        """Give a free seat, or one whose holder has been away for :data:`IDLE_S`, to a bot (the strongest
        level unless given)."""
        from toolkit.tables import SeatTakenError

        if not self.joined or self.broken:
            return False
        level = level or self.frame.setup.levels[0]
        try:
            self._open().hand_to_bot(self.code, seat, level, idle_for=IDLE_S)
        except SeatTakenError:
            self._say(self.t("table.shared.still_here", seconds=int(IDLE_S)), error=True)
            return False
        except RuleError as exc:
            self._say(exc, error=True)
            return False
        self._say(None)
        self._refresh_info()
        self._after_change()
        return True

    def leave_page(self) -> None:
        """Stop following the table (the seat stays this browser's: its token is still in the storage)."""
        self._stop.set()
        self._cancel_bot()
        self._stop = threading.Event()
        self._watcher = None

    def close(self) -> None:
        self.leave_page()
        if self.store is not None:
            self.store.close()
            self.store = None
        super().close()

    # ---- moves -------------------------------------------------------------------------------------
    def play(self, move: Any, line: "RefusalLine", current: bool = False) -> bool:
        """A click at the shared table: appended to the log as the next move by this page's seat. A
        refusal is shown on ``line``; a stale click ("someone moved first") also brings the page up to the
        log. A click within :attr:`grace_s` of another seat's move being drawn is stale too, unless
        ``current`` (the click is known to be aimed at the position as it stands: the hint asked since).
        Never raises; True if the move landed."""
        from toolkit.tables import NotYourMoveError, StaleMoveError, TokenError

        lang = self.lang
        if self.broken:
            line.show(self._answer_text(), lang)
            return False
        if self.seat is None:
            line.show(self.t("table.shared.not_seated"), lang)
            return False
        index = len(self.frame.model.session)
        if not current and self.just_caught_up():
            line.show(self.t("table.shared.stale"), lang)
            return False
        try:
            self._open().append(self.code, index, move, self.seat, self.token)
        except StaleMoveError:
            self.sync()
            line.show(self.t("table.shared.stale"), lang)
            return False
        except IllegalMoveError as exc:
            line.show(exc.violation, lang)
            return False
        except NotYourMoveError:
            line.show(self.t("table.shared.not_yours"), lang)
            return False
        except TokenError:
            self._lose_seat()
            line.show(self.t("table.shared.token_lost"), lang)
            return False
        except RuleError as exc:
            line.show(exc, lang)
            return False
        except Exception as exc:  # noqa: BLE001 - a click must never raise into the page
            log.exception("a shared move failed")
            line.show(self.t("table.shared.store_error", detail=type(exc).__name__), lang)
            return False
        line.clear()
        self.sync(own=True)
        return True

    def sync(self, own: bool = False) -> int:
        """Bring the page's game up to the table's log (on the kernel's loop); play the bots due (at once
        outside a kernel, else after :data:`BOT_PACE_S`). Returns how many moves were new. Never raises:
        an unreadable log stops the page with a clear message. ``own``: the page's own move just landed
        (the only new move, unless others came with it); other moves start :data:`CAUGHT_UP_GRACE_S`."""
        if not self.joined or self.broken:
            return 0
        try:
            texts = self._open().moves(self.code)
        except RuleError as exc:
            self._break(exc)
            return 0
        except Exception as exc:  # noqa: BLE001 - the store is gone for a moment: the heartbeat tries again
            log.exception("reading the shared table failed")
            self._say(self.t("table.shared.store_error", detail=type(exc).__name__), error=True)
            self._store_trouble = True
            return 0
        if getattr(self, "_store_trouble", False):     # it is back: the message goes
            self._store_trouble = False
            self._say(None)
        model = self.frame.model
        local = [str(m) for m in model.session.moves]
        if texts[:len(local)] != local:     # cannot happen with an append-only log: start again from it
            self._load(texts)
            new = len(texts)
        else:
            new = len(texts) - len(local)
            if new:
                frame = self.frame
                frame._holding = True     # one redraw for the whole batch
                try:
                    for text in texts[len(local):]:
                        if not model.play(text):
                            raise RuntimeError(f"the log's move {text!r} was refused here: {model.message}")
                finally:
                    frame._holding = False
                # a hint asked before these moves goes; "Play the hint" then says someone moved first
                others = not (own and new == 1)
                self.hint_lost = (self.hint_lost or frame.hint_bar.decision is not None) if others else False
                frame.hint_bar.forget()
                frame._bot_shown = self._bot_said()
                frame._redraw()
        if new:
            # when this kernel drew the moves (wall clock), on the page: benchmarks/tables_pages_load.py
            # splits a move's way to the page into the kernel's share and the browser's
            self._drawn_at = time.time()
            if not (own and new == 1):
                self._others_moved_at = time.monotonic()
            self._after_change()
        return new

    # ---- internals -------------------------------------------------------------------------------
    def _open(self) -> "TableStore":
        if self.store is None:
            from toolkit.tables import open_store

            self.store = open_store(self._url)
        return self.store

    def _kind(self, seat: int) -> str | None:
        if self.info is None or not 0 <= seat < len(self.info.seats):
            return None
        return self.info.seats[seat].kind

    def _game_label(self, game: str) -> str:
        from toolkit.core import i18n

        return self.t(f"game.{game}") if i18n.has(f"game.{game}") else game

    def _load(self, texts: list[str]) -> None:
        info = self.info
        session = Session(self.frame.engine, info.seed, dict(info.options))
        for text in texts:
            session.push(self.frame.engine.parse_move(text))
        self.frame._bot_shown = None
        self.frame._load_shared(session)
        said = self._bot_said()              # a page that opens the table after a bot's move shows it too
        if said is not None:
            self.frame._bot_shown = said
            self.frame._render_bot_line()

    def _bot_said(self) -> tuple[int, int, Any] | None:
        """``(moves, seat, decision)`` for the bot line if the log's last move is a bot's: the decision is
        recomputed here (:func:`toolkit.tables.due_bot_decision`: a function of the position, the seed and
        the index), so every page of the table shows the bot's move and reason, not only the kernel that
        happened to play it. What the line says is the table's :meth:`TableFrame.bot_move_text` (a game
        withholds there a reason that names a card only the bot may see)."""
        from toolkit.tables import due_bot_decision

        session, info = self.frame.model.session, self.info
        if info is None or not len(session):
            return None
        move = session.moves[-1]
        index = len(session) - 1
        # most games' moves name no seat: the move is a bot's if it is the move the bot due there makes
        try:
            due = due_bot_decision(self.frame.engine, [s.kind for s in info.seats], info.seed, session.at(index), index)
        except Exception:  # noqa: BLE001 - the bot line is a courtesy: never break the page's sync for it
            log.exception("recomputing a shared table's bot move failed")
            return None
        if due is None or str(due[1].move) != str(move):
            return None                       # a person's move
        return len(session), due[0], due[1]

    def _take_seat(self, seat: int, token: str) -> None:
        self.seat, self.token = seat, token
        self._say(None)
        self._refresh_info()
        self.frame._shared_seats_changed()

    def _lose_seat(self) -> None:
        self.seat = self.token = None
        if self.storage is not None:
            self.storage.store([])
        self._refresh_info()
        self.frame._shared_seats_changed()

    def _on_stored(self, items: list, unreadable: bool) -> None:
        """The browser said which seat it holds at this table: sit there again if the token still holds."""
        from toolkit.tables import TokenError

        if self.seat is not None or not self.joined:
            if self.seat is not None and self.storage is not None:
                self.storage.store([f"{self.seat}:{self.token}"])   # a seat taken before the page loaded
            return
        for item in items:
            if not isinstance(item, str) or ":" not in item:
                continue
            seat_text, token = item.split(":", 1)
            if not (seat_text.isascii() and seat_text.isdigit() and len(seat_text) <= 3):
                continue
            try:
                self._open().touch(self.code, int(seat_text), token)
            except (TokenError, RuleError):
                continue       # released, handed to a bot, or never this table's: forget it
            self._take_seat(int(seat_text), token)
            self.storage.store([item])
            return
        if items and self.storage is not None:
            self.storage.store([])

    def _break(self, exc: Exception) -> None:
        self.broken = True
        self._stop.set()
        self._cancel_bot()
        self._say(self.t("table.shared.corrupt", detail=str(exc)), error=True)

    def _after_change(self) -> None:
        """After new moves: the result and final state once the game is over, else the bots due."""
        engine, state = self.frame.engine, self.frame.model.session.state
        if engine.play_out_over(state):
            self._cancel_bot()
            if self.final_state is None:
                try:
                    self.final_state = self._open().final_state(self.code)
                except RuleError as exc:
                    self._break(exc)
                    return
                self.frame._shared_final_state(self.final_state)
            self.refresh()
            return
        self._schedule_bots()
        self.refresh()

    def _bot_may_act(self) -> bool:
        engine, state = self.frame.engine, self.frame.model.session.state
        seats = [engine.decider(state), *engine.optional_actors(state)]
        return any(s is not None and self._kind(s) not in (None, "human") for s in seats)

    def _schedule_bots(self) -> None:
        length = len(self.frame.model.session)
        if self._bots_tried == length or not self._bot_may_act():
            return
        self._bots_tried = length
        loop = self._loop or kernel_loop()
        if loop is None:
            self._play_bots()             # outside a kernel: at once
            return
        self._cancel_bot()
        self._bot_handle = loop.call_later(BOT_PACE_S, self._play_bots)

    def _play_bots(self) -> None:
        """Play the bot move due now (another kernel may have played it first: then it is skipped)."""
        self._bot_handle = None
        if not self.joined or self.broken:
            return
        try:
            self._open().play_bots(self.code, 1)
        except RuleError as exc:
            self._break(exc)
            return
        except Exception:  # noqa: BLE001 - a timer callback must never raise into the loop
            log.exception("a shared table's bot failed")
            return
        self.sync()

    def _cancel_bot(self) -> None:
        if self._bot_handle is not None:
            self._bot_handle.cancel()
            self._bot_handle = None

    def _refresh_info(self) -> None:
        if not self.joined or self.broken:
            return
        try:
            info = self._open().info(self.code)
        except RuleError as exc:
            self._break(exc)
            return
        kinds_changed = self.info is None or [s.kind for s in info.seats] != [s.kind for s in self.info.seats]
        self.info = info
        if info.moves > len(self.frame.model.session):
            # behind the log although the watcher passed these moves on: a sync failed on the way (the store
            # was busy, a redraw raised). Without this the page would wait for a move that only its own
            # person can make, and nobody sees the move before it.
            self.sync()
        if self.seat is not None and not info.seats[self.seat].claimed:
            self.seat = self.token = None            # released or handed to a bot elsewhere
            if self.storage is not None:
                self.storage.store([])
            kinds_changed = True
        if kinds_changed:
            self.frame._shared_seats_changed()
            self._bots_tried = None
            self._schedule_bots()
        elif self.status_extra() != self._said_waiting:
            self.frame._redraw()          # the seat to act went away, came back or was taken: say so
        self.refresh()

    # ---- the watcher (a kernel only) ---------------------------------------------------------------
    def _start_watcher(self) -> None:
        loop = kernel_loop()
        if loop is None:
            return
        self._loop = loop
        self.grace_s = CAUGHT_UP_GRACE_S
        stop = self._stop
        self._watcher = threading.Thread(target=self._watch, args=(loop, stop, self.code), daemon=True,
                                         name=f"deepsea-table-{self.code}")
        self._watcher.start()

    def _watch(self, loop: Any, stop: threading.Event, code: str) -> None:
        """Wait for new moves in this thread; apply them on the kernel's loop (widgets are not thread-safe).
        Every :data:`HEARTBEAT_S` a seated page touches its seat and every page re-reads the seats."""
        after = len(self.frame.model.session)
        store = self._open()      # this store only: a closed panel's thread must not open another
        beat = 0.0
        while not stop.is_set():
            try:
                if time.monotonic() - beat >= HEARTBEAT_S:
                    beat = time.monotonic()
                    seat, token = self.seat, self.token
                    if seat is not None and token is not None:
                        try:
                            store.touch(code, seat, token)
                        except RuleError:
                            pass                     # the seat was handed on: _refresh_info says so
                    loop.call_soon_threadsafe(self._refresh_info)
                new = store.wait(code, after, WAIT_S)
            except RuleError as exc:
                loop.call_soon_threadsafe(self._break, exc)
                return
            except Exception:  # noqa: BLE001 - keep watching; the store may be back in a moment
                log.exception("watching a shared table failed")
                stop.wait(1.0)
                continue
            if new and not stop.is_set():
                after += len(new)
                loop.call_soon_threadsafe(self._sync_on_loop)

    def _sync_on_loop(self) -> None:
        try:
            self.sync()
        except Exception:  # noqa: BLE001 - never raise into the loop
            log.exception("a shared table's sync failed")

    # ---- drawing -----------------------------------------------------------------------------------
    def _say(self, item: Any, error: bool = False) -> None:
        self._said = (item, error)
        self._draw_answer()

    def _answer_text(self) -> str:
        item, _error = getattr(self, "_said", (None, False))
        return item if isinstance(item, str) else str(item or "")

    def _draw_answer(self) -> None:
        item, error = getattr(self, "_said", (None, False))
        if item is None:
            self._answer.value = ""
            return
        text = item.text(self.lang) if hasattr(item, "text") and not isinstance(item, str) else str(item)
        kind = "deepsea-refusal" if error else "deepsea-note"
        role = ' role="alert"' if error else ""
        self._answer.value = f'<span class="{kind}"{role}>{esc(text)}</span>'

    def _build_rows(self, count: int) -> None:
        old, old_boxes = self._rows, list(self._seats.children)
        self._rows = []
        for seat in range(count):
            text = widgets.HTML()
            text.add_class("deepsea-shared-seat")
            sit = widgets.Button(layout=widgets.Layout(width="auto"))
            sit.add_class("deepsea-sit")
            sit.add_class(f"deepsea-sit-{seat}")
            sit.on_click(lambda _b, s=seat: self._on_sit(s))
            to_bot = widgets.Button(layout=widgets.Layout(width="auto"))
            to_bot.add_class("deepsea-to-bot")
            to_bot.add_class(f"deepsea-to-bot-{seat}")
            to_bot.on_click(lambda _b, s=seat: self._on_to_bot(s))
            self._rows.append((text, sit, to_bot))
        self._seats.children = tuple(widgets.HBox(list(row), layout=widgets.Layout(align_items="center"))
                                     for row in self._rows)
        if old or old_boxes:   # the row boxes too (and their layouts): a rebuilt panel leaves nothing behind
            close_tree(*old_boxes, *[w for row in old for w in row])

    def refresh(self) -> None:
        if not getattr(self, "_finished", False):
            return
        self._invite.description = self.t("table.shared.invite")
        self._invite.layout.display = "none" if self.joined else None
        self._help.value = "" if self.joined else f'<span class="deepsea-note">{esc(self.t("table.shared.invite_help"))}</span>'
        self._draw_answer()
        if not self.joined:
            self._header.value = ""
            return
        link = self.link()
        if getattr(self, "address", None) is not None:
            self.address.query = link
        over = self.frame.engine.play_out_over(self.frame.model.session.state)
        where = (self.t("table.shared.over") if over else
                 self.t("table.shared.seated", name=self.t("seats.seat", seat=self.seat)) if self.seat is not None
                 else self.t("table.shared.watching"))
        self._header.value = (f'<p><b>{esc(self.t("table.shared.title", code=self.code))}</b> '
                              f'<a class="deepsea-table-link" href="{esc(link)}" target="_blank" rel="noopener">'
                              f'{esc(self.t("table.shared.link"))}</a> {esc(self.t("table.shared.code"))} '
                              f'<code class="deepsea-table-code" style="user-select:all">{esc(self.code)}</code></p>'
                              f'<p class="deepsea-shared-where" data-seat="{"" if self.seat is None else self.seat}" '
                              f'data-moves="{len(self.frame.model.session)}" data-drawn="{self._drawn_at:.3f}">'
                              f'{esc(where)}</p>')
        now = time.time()
        for seat, (text, sit, to_bot) in enumerate(self._rows):
            info = self.info.seats[seat] if self.info is not None and seat < len(self.info.seats) else None
            if info is None:
                continue
            here = info.claimed and info.seen is not None and now - info.seen < CONNECTED_S
            if info.kind != "human":
                who, state = self.t("table.shared.seat_bot", level=self.frame.setup.level_label(info.kind)), "bot"
            elif self.is_mine(seat):
                who, state = self.t("table.shared.seat_you"), "you"
            elif not info.claimed:
                who, state = self.t("table.shared.seat_free"), "free"
            else:
                who, state = self.t("table.shared.seat_here" if here else "table.shared.seat_away"), \
                    "here" if here else "away"
            text.value = (f'<span data-seat="{seat}" data-state="{state}">'
                          f'{esc(self.t("table.shared.seat_line", name=self.t("seats.seat", seat=seat), who=who))}</span>')
            sit.description = self.t("table.shared.sit")
            to_bot.description = self.t("table.shared.to_bot")
            playing = not over and not self.broken
            sit.layout.display = None if playing and state == "free" and self.seat is None else "none"
            left = state == "free" or (state == "away" and info.seen is not None and now - info.seen >= IDLE_S)
            to_bot.layout.display = None if playing and left else "none"

    # ---- callbacks -------------------------------------------------------------------------------
    @safe_callback
    def _on_invite(self, _button: Any = None) -> None:
        self.invite()

    @safe_callback
    def _on_sit(self, seat: int) -> None:
        self.sit(seat)

    @safe_callback
    def _on_to_bot(self, seat: int) -> None:
        self.hand_to_bot(seat)
