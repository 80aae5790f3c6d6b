"""Shared tables in the browser (issue 27), two seats at once on Deep Blue's own page (``deep-blue-game``):

* two people at *different* seats clicking at the same moment (in a dive after a draw the leader may draw
  while another diver leaves): exactly one move lands, the other page says "Someone moved first" and both
  show the new position;
* a person who closes the page is shown as away on the other pages (their seat gets no more heartbeats),
  the status line says the game waits for them, and "Hand to a bot" gives the seat to the strongest bot,
  which then plays that seat's next move.

Both in one test on one table (the second continues from the first): each Deep Blue page start is a kernel
and a replay on the two shared cores. The position is reached by appending moves through the store, so
the pages open where the race is. Every kernel of the test server shares one SQLite store
(``DEEPSEA_TABLES_URL``, set by ``voila_env``)."""

from __future__ import annotations

import sqlite3
import time

import pytest

from conftest import RENDER_TIMEOUT_MS  # tests/browser/conftest.py
from shared_visitors import Visitor, page_kernel, wait_for_position
from toolkit.core.i18n import translate
from toolkit.tables import open_store

pytestmark = pytest.mark.browser

SEED = 1
#: the refusal line beside the table's components and the "All moves" list (the frame's)
REFUSAL = ".deepsea-action-row .deepsea-refusal-line"
BAG = '.deepblue-bag-component button.db-c-offer[data-key="bag"]'
SURFACE = '.deepblue-dive-component button.db-c-offer[data-key="surface"]'


def race_position(engine, state, lead: str) -> bool:
    """Seat 1 leads a dive after a draw and may ``lead`` ("draw" or "stop") while seat 0, still in, may
    leave. For "draw": whichever of the two lands first, the other is still legal in the position after it
    (a refusal of the second click is then the table's "you clicked at the position before", not the
    engine's), and seat 1 still acts next (the seat the second part of the test hands to a bot). For
    "stop": the stop ends the dive, so the leave is no longer even offered after it."""
    from toolkit.deepblue.model import DrawGem, Leave, Stop

    dive = state.dive
    if state.phase != "dive" or dive is None or dive.draws == 0 or dive.leader != 1:
        return False
    first, leave = (DrawGem(1) if lead == "draw" else Stop(1)), Leave(0)
    if 0 not in engine.optional_actors(state) or engine.why_illegal(state, first) or engine.why_illegal(state, leave):
        return False
    after_first, after_leave = engine.apply(state, first), engine.apply(state, leave)
    if engine.play_out_over(after_first) or engine.why_illegal(after_leave, first) is not None:
        return False
    if lead == "stop":
        return engine.why_illegal(after_first, leave) is not None
    return (engine.decider(after_first) == 1 and engine.why_illegal(after_first, leave) is None
            and engine.decider(after_leave) == 1)


def play_to_race(store, code: str, engine, lead: str = "draw") -> int:
    """Append the best-play bot's choice for the seat to act (both seats held through the store) until
    :func:`race_position`; the seats are then released for the pages. Returns the log's length."""
    import numpy as np

    from toolkit.core.bots import make_bot

    bot = make_bot(engine, "policy")
    tokens = {seat: store.claim(code, seat) for seat in (0, 1)}
    state = store.state(code)
    n = 0
    while not race_position(engine, state, lead):
        assert n < 300 and not engine.play_out_over(state), "no race position in this game: pick another seed"
        seat = engine.decider(state)
        move = bot.decide(engine.observe(state, seat), engine.legal_moves(state, seat),
                          np.random.default_rng([SEED, n])).move
        n = store.append(code, n, move, seat, tokens[seat])
        state = store.state(code)
    for seat, token in tokens.items():
        store.release(code, seat, token)
    return n


#: the diver clicks the moment its page shows the leader's move: the click reaches its kernel just after it
#: drew that move (CAUGHT_UP_GRACE_S), aimed at the boat the stop took away
AS_DRAWN = """sel => {
  const boat = document.querySelector(sel);
  const shown = () => (document.querySelector('.deepsea-status-line') || {dataset: {}}).dataset.moves;
  const before = shown();
  window.deepseaStaleClick = new Promise(resolve => {
    const watch = new MutationObserver(() => {
      if (shown() !== before) { watch.disconnect(); boat.click(); resolve(true); }
    });
    watch.observe(document.body, {subtree: true, childList: true, attributes: true});
  });
}"""


@pytest.mark.parametrize("lead, first", [("draw", "leader"), ("draw", "diver"), ("stop", "as drawn")],
                         ids=["draw-vs-leave-leader-first", "draw-vs-leave-diver-first", "stop-then-stale-leave"])
def test_two_seats_click_at_the_same_moment_then_a_closed_page_is_away_and_handed_to_a_bot(
        browser, voila_url, voila_server, lead, first):
    """``lead``: the leader's click (the bag: draw; its boat: stop) against the diver's leave. ``first``:
    whose click is sent first; either may land, as the kernels take them: the test accepts either and
    checks the other is refused. "as drawn": the leader stops, and the diver's page clicks its boat the
    moment it shows the stop, which took that boat away (the dive is over): still "someone moved first".
    The second part (the guest leaves, its seat is handed to a bot) runs after the draw races."""
    from toolkit.deepblue import ENGINE
    from toolkit.publishing.kernels import child_kernels

    started = time.monotonic()
    store = open_store(voila_server.tables_url)
    code = store.create("deepblue", SEED, {"players": 2, "scenario": "troubled-waters"}, ["human", "human"])
    n = play_to_race(store, code, ENGINE, lead)
    lead_offer, lead_move = (BAG, "s1 draw") if lead == "draw" else (SURFACE, "s1 stop")
    host = Visitor(browser, voila_url, "host")            # seat 0 ("Seat 1"), English
    guest = Visitor(browser, voila_url, "guest")          # seat 1 ("Seat 2"), Japanese
    try:
        host.open(f"table={code}", dashboard="deep-blue-game")
        host.sit(0)
        before = set(child_kernels(voila_server.proc.pid))
        guest.open(f"table={code}&lang=ja", dashboard="deep-blue-game")
        guest_kernel = page_kernel(voila_server, before)
        guest.sit(1)
        for visitor, offer in ((host, SURFACE), (guest, lead_offer)):
            assert wait_for_position(visitor, n)
            visitor.page.locator(offer).wait_for(state="visible", timeout=RENDER_TIMEOUT_MS)

        # ---- 1. the same moment: the guest (the leader) draws or stops, the host (a diver) leaves ----------
        if first == "as drawn":
            host.page.evaluate(AS_DRAWN, SURFACE)
            guest.page.evaluate("sel => document.querySelector(sel).click()", lead_offer)
            host.page.evaluate("window.deepseaStaleClick")
        else:
            clicks = [(guest, lead_offer), (host, SURFACE)]
            for visitor, offer in (clicks if first == "leader" else clicks[::-1]):
                visitor.page.evaluate("sel => document.querySelector(sel).click()", offer)   # nothing in between
        stale = {"host": translate("table.shared.stale", "en"), "guest": translate("table.shared.stale", "ja")}
        deadline = time.monotonic() + 60
        while True:
            said = {v.name: v.page.locator(REFUSAL).inner_text() for v in (host, guest)}
            refused = [name for name, text in said.items() if stale[name] in text]
            if refused or time.monotonic() > deadline:
                break
            time.sleep(0.1)
        assert len(refused) == 1, said                   # the other page says someone moved first
        winner, loser = (guest, host) if refused == ["host"] else (host, guest)
        # both pages show the position after the one move that landed (nothing else moves: no bot here)
        assert wait_for_position(loser, n + 1) and wait_for_position(winner, n + 1)
        log = store.moves(code)
        assert len(log) == n + 1, log[n:]                # exactly one of the two clicks landed
        assert log[n] == (lead_move if winner is guest else "s0 leave"), (log[n], winner.name)
        assert winner.page.locator(REFUSAL).inner_text().strip() == ""
        assert stale[loser.name] in loser.page.locator(REFUSAL).inner_text()
        raced_s = time.monotonic() - started
        print(f"{lead}, {first} clicked first: {winner.name}'s move landed; race {raced_s:.1f} s")
        if lead == "stop":
            assert winner is guest      # the diver clicked only once its page showed the stop
            assert loser.page.locator(".deepblue-dive-component").inner_text().find("cannot be clicked") < 0
            return

        # ---- 2. the guest closes the page: away, then handed to a bot ---------------------------------
        guest.page.close(run_before_unload=True)        # Voila shuts the page's kernel down: no more heartbeats
        deadline = time.monotonic() + 30
        while guest_kernel in child_kernels(voila_server.proc.pid).values():
            assert time.monotonic() < deadline, "the closed page's kernel is still running after 30 s"
            time.sleep(0.2)
        # as if two minutes had passed since the guest's last sign of life (CONNECTED_S is 20 s, IDLE_S 60 s):
        # the test does not wait them out
        db = sqlite3.connect(voila_server.tables_url[len("sqlite:///"):], timeout=10)
        try:
            with db:
                db.execute("UPDATE deepsea_seats SET seen = ? WHERE code = ? AND seat = 1", (time.time() - 120, code))
        finally:
            db.close()
        page = host.page
        # within the host's next heartbeat (5 s): the seats row and the status line (seat 1 acts: it leads)
        page.locator('.deepsea-shared-seat [data-seat="1"][data-state="away"]').wait_for(timeout=30000)
        away = translate("table.shared.acting_away", "en", name=translate("seats.seat", "en", seat=1), seconds=60)
        assert away.startswith("Seat 2 is away: the game waits for them")
        page.wait_for_function("t => document.querySelector('.deepsea-status-line').innerText.includes(t)",
                               arg=away, timeout=30000)
        assert ENGINE.decider(store.state(code)) == 1 and len(store.moves(code)) == n + 1   # the game waits
        page.locator("button.deepsea-to-bot-1").click()
        page.locator('.deepsea-shared-seat [data-seat="1"][data-state="bot"]').wait_for(timeout=30000)
        assert store.info(code).seats[1].kind == "policy"          # the strongest level
        assert not store.info(code).seats[1].claimed
        # the bot plays seat 1's next move (a kernel at the table plays it, BOT_PACE_S after)
        deadline = time.monotonic() + 60
        while len(store.moves(code)) <= n + 1:
            assert time.monotonic() < deadline, "the bot did not play the handed seat's move within 60 s"
            time.sleep(0.2)
        bot_move = ENGINE.parse_move(store.moves(code)[n + 1])
        assert bot_move.seat == 1, bot_move
        page.wait_for_function(
            f"() => +document.querySelector('.deepsea-status-line').dataset.moves >= {n + 2}", timeout=60000)
        page.wait_for_function("() => document.querySelector('.deepsea-bot-line').innerText"
                               ".startsWith('Seat 2 (bot: best play)')", timeout=30000)
        assert host.errors == [] and guest.errors == []
        print(f"whole test {time.monotonic() - started:.1f} s")
    finally:
        host.close()
        guest.close()
