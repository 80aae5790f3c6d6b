"""What the shared-table browser tests share (issue 27): a visitor (a browser context of its own: its own
localStorage, its own page and kernel) that records every text the kernel sent it over its websockets, and
the waits and checks those tests use. Not a test module: the tests import it (tests/browser is on the path,
as for ``conftest``)."""

from __future__ import annotations

import html
import json
import time

from conftest import FRAME_HINT_CURRENT, FRAME_SETTLED, RENDER_TIMEOUT_MS  # tests/browser/conftest.py
from toolkit.widgets.table.shared import CAUGHT_UP_GRACE_S

GAME_TIMEOUT_S = 420


def strings_in(value, out: list[str]) -> list[str]:
    if isinstance(value, str):
        out.append(value)
    elif isinstance(value, dict):
        for v in value.values():
            strings_in(v, out)
    elif isinstance(value, list):
        for v in value:
            strings_in(v, out)
    return out


def hand_cards_in(value, out: set[str]) -> set[str]:
    """The cards of the Crew's hand component in a frame's JSON: its items are ``{"card": "P3", "label": …,
    "aria": …, "playable": …}`` (toolkit.widgets.components.crew.CrewHand), the only objects of that shape."""
    if isinstance(value, dict):
        if isinstance(value.get("card"), str) and "playable" in value:
            out.add(value["card"])
        for v in value.values():
            hand_cards_in(v, out)
    elif isinstance(value, list):
        for v in value:
            hand_cards_in(v, out)
    return out


def frame_parts(payload: bytes) -> list[bytes]:
    """The parts of a binary kernel websocket frame (Jupyter's ``v1.kernel.websocket.jupyter.org``: a count,
    that many little-endian offsets, then channel, header, parent header, metadata, content, buffers); the
    whole payload if it is not one."""
    try:
        count = int.from_bytes(payload[:8], "little")
        if not 1 <= count <= 64:
            return [payload]
        offsets = [int.from_bytes(payload[8 * (i + 1):8 * (i + 2)], "little") for i in range(count)]
        ends = offsets[1:] + [len(payload)]
        return [payload[a:b] for a, b in zip(offsets, ends)] or [payload]
    except (ValueError, IndexError):
        return [payload]


class Visitor:
    """One person's browser (a context of its own: its own localStorage) on the table page."""

    def __init__(self, browser, voila_url: str, name: str, context=None):
        self.context = browser.new_context() if context is None else context   # a context: a browser
        self.page = self.context.new_page()
        self.page.set_default_timeout(60000)
        self.name = name
        self.voila_url = voila_url
        self.frames: list[str] = []          # every text the kernel sent this page over its websockets
        self.crew_hand: set[str] = set()     # every card the Crew's hand component was sent (hand_cards_in)
        self.errors: list[str] = []
        self.page.on("websocket", lambda ws: ws.on("framereceived", self._frame))
        self.page.on("pageerror", lambda exc: self.errors.append(str(exc)))

    def _frame(self, payload) -> None:
        parts = [payload]
        if isinstance(payload, bytes):
            parts = frame_parts(payload)
        for part in parts:
            if isinstance(part, bytes):
                part = part.decode("utf-8", "replace")
            try:
                decoded = json.loads(part)
                self.frames.extend(strings_in(decoded, []))
                hand_cards_in(decoded, self.crew_hand)
            except ValueError:
                self.frames.append(part)

    def open(self, query: str, dashboard: str = "debug-panel") -> None:
        self.page.goto(f"{self.voila_url}/voila/render/{dashboard}.ipynb?{query}", wait_until="domcontentloaded",
                       timeout=RENDER_TIMEOUT_MS)
        self.page.locator(".deepsea-status-line").wait_for(state="visible", timeout=RENDER_TIMEOUT_MS)

    def wait_for_seat(self, seat: int) -> None:
        self.page.locator(f'.deepsea-shared-where[data-seat="{seat}"]').wait_for(timeout=RENDER_TIMEOUT_MS)

    def sit(self, seat: int) -> None:
        self.page.locator(f"button.deepsea-sit-{seat}").click()
        self.wait_for_seat(seat)

    def status(self) -> str:
        return self.page.locator(".deepsea-status-line").inner_text()

    def log_length(self) -> int:
        return self.page.locator(".deepsea-table-log li").count()

    def close(self) -> None:
        try:
            self.context.close()
        except Exception:  # noqa: BLE001 - closed already
            pass


def drawn_hand(hand) -> str:
    """How the generic table draws a seat's hand in its observation box (escaped JSON, with its key), as a
    websocket frame carries it."""
    text = json.dumps({"hand": list(hand)}, ensure_ascii=False, indent=1, default=str)
    return html.escape(text[text.index('"hand"'):text.rindex("]") + 1])


def page_kernel(voila_server, before: set[str]) -> int:
    """The pid of the one kernel started since ``before`` (the page just opened)."""
    from toolkit.publishing.kernels import child_kernels

    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        new = {k: pid for k, pid in child_kernels(voila_server.proc.pid).items() if k not in before}
        if len(new) == 1:
            return next(iter(new.values()))
        time.sleep(0.2)
    raise AssertionError("the page's kernel was not found")


def good_move(engine, level: str, only: tuple[type, ...] | None = None):
    """A chooser: the move the ``level`` bot would play for the seat (seeing that seat's view only), among
    the moves of the types ``only`` if given (those a page lets one click). A Crew mission played by
    first-listed cards fails at once, too soon for a reload and a killed kernel."""
    import numpy as np

    from toolkit.core.bots import make_bot

    bot = make_bot(engine, level)

    def choose(state, seat: int):
        legal = [m for m in engine.legal_moves(state, seat) if only is None or isinstance(m, only)]
        if not legal:
            return None
        return bot.decide(engine.observe(state, seat), legal, np.random.default_rng(seat)).move

    return choose


def play_until_over(visitors: dict[int, Visitor], store, code: str, engine, on_move=None, choose=None) -> int:
    """Click a move (the first, or the button of ``choose(state, seat)``) on whichever page says "Your
    turn." until the game is over; returns the clicks."""
    deadline = time.monotonic() + GAME_TIMEOUT_S
    clicks = 0
    while not engine.play_out_over(store.state(code)):
        assert time.monotonic() < deadline, f"the game did not end within {GAME_TIMEOUT_S} s"
        acted = False
        for seat, visitor in visitors.items():
            page = visitor.page
            if not visitor.status().startswith("Your turn.") or page.locator(".deepsea-move-button").count() == 0:
                continue
            length = len(store.moves(code))
            # a person looks before clicking: a click within CAUGHT_UP_GRACE_S of the page drawing another
            # seat's move is taken as aimed at the position before it ("Someone moved first")
            time.sleep(CAUGHT_UP_GRACE_S + 0.1)
            button = page.locator(".deepsea-move-button").first
            wanted = choose(store.state(code), seat) if choose is not None else None
            if wanted is not None and page.locator(f'.deepsea-move-button[title="{wanted}"]').count() == 1:
                button = page.locator(f'.deepsea-move-button[title="{wanted}"]')
            try:
                button.click(timeout=5000)
                page.wait_for_function(f"document.querySelectorAll('.deepsea-table-log li').length > {length}",
                                       timeout=20000)
            except Exception:  # noqa: BLE001 - the click met a redraw: look again
                continue
            clicks += 1
            acted = True
            if on_move is not None:
                on_move(clicks)
        if not acted:
            time.sleep(0.3)
    return clicks


def assert_only_own_hands(visitors: dict, store, code: str, engine) -> None:
    """Replay the log in the test process; no page got any other seat's hand at any point of the game (a
    spectator, key ``None``, got none at all)."""
    info = store.info(code)
    state = engine.new_state(info.seed, **dict(info.options))
    states = [state]
    for text in store.moves(code):
        state = engine.apply(state, engine.parse_move(text))
        states.append(state)
    running = [s for s in states if not engine.play_out_over(s)]
    for seat, visitor in visitors.items():
        assert visitor.frames, f"no websocket frame seen by {visitor.name}"
        hands = {other: {drawn_hand(engine.observe(s, other)["hand"]) for s in running
                         if engine.observe(s, other).get("hand")} for other in range(len(info.seats))}
        mine = hands.get(seat, set())
        others = set().union(*(h for other, h in hands.items() if other != seat)) - mine
        leaked = [h for h in others if any(h in frame for frame in visitor.frames)]
        assert leaked == [], f"{visitor.name} received another seat's hand: {leaked[:1]}"
        dom = visitor.page.locator(".deepsea-observation").inner_text()
        if seat is None:
            assert '"hand"' not in dom or '"hand": []' in dom or '"hand": null' in dom
        else:
            assert any(h in frame for h in mine for frame in visitor.frames), f"{visitor.name} never saw its hand"
            assert f'"seat": {seat}' in dom


def shown_moves(visitor: Visitor) -> int:
    """The moves the page shows once its whole redraw has arrived."""
    visitor.page.wait_for_function(FRAME_SETTLED, timeout=60000)
    return int(visitor.page.locator(".deepsea-status-line").get_attribute("data-moves"))


def wait_for_position(visitor: Visitor, n: int) -> bool:
    """Wait until the page shows at least ``n`` moves (the whole redraw); True if it shows exactly ``n``."""
    visitor.page.wait_for_function(
        f"() => {FRAME_SETTLED} && +document.querySelector('.deepsea-status-line').dataset.moves >= {n}",
        timeout=60000)
    return shown_moves(visitor) == n


def ask_hint(visitor: Visitor, n: int) -> bool:
    """Press "Hint" on a page showing ``n`` moves; True if it suggests a move for that position (False for
    "No hint", or if a bot moved meanwhile: the hint asked is then for a position gone)."""
    page = visitor.page
    page.locator("button.deepsea-hint").click()
    page.wait_for_function(f"() => ({FRAME_HINT_CURRENT} && document.querySelector('.deepsea-hint-line')"
                           f".dataset.moves === '{n}') || "
                           f"+document.querySelector('.deepsea-status-line').dataset.moves > {n}", timeout=60000)
    # read at once (a bot's move may take the hint line away at any moment: then the position is gone)
    text = page.evaluate("(document.querySelector('.deepsea-hint-line') || {}).innerText || ''")
    return bool(text) and "No hint" not in text and shown_moves(visitor) == n


def hand_keys(frames: list[str]) -> set[int]:
    """The Deep Blue hand cards a page was sent: the hand component keys its cards ``card:ID`` (the market
    keys its slots ``slot:N``), so these are the cards drawn in the page's own hand row."""
    return {int(text[5:]) for text in frames if text.startswith("card:") and text[5:].isdigit()}
