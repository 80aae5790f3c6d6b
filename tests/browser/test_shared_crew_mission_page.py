"""A Crew mission at a shared table on the Crew's own page (``crew-mission``), four browsers (issue 27).

The host invites from the page (seats 0 and 1 people, 2 and 3 expert bots); a guest sits at seat 1; a
spectator opens the link without sitting, a second spectator joins mid-game. The two people play the whole
mission by clicking task tokens and hand cards, as the expert bot would for their seat; the guest's page is
reloaded mid-game (the browser keeps the seat) and the host's kernel is killed (SIGKILL) and its page opened
again: the game resumes from the log. Then the post-mortem opens on all four pages.

Hidden information, checked in the DOM and in every websocket frame: at every click the acting page's hand
is exactly its seat's hand; the Crew hand component of a page was never sent a card its seat did not hold;
the spectators' pages were sent no hand at all while the attempt ran.
"""

from __future__ import annotations

import os
import signal
import time

import pytest

from conftest import FRAME_SETTLED  # tests/browser/conftest.py
from shared_visitors import GAME_TIMEOUT_S, Visitor, good_move, page_kernel
from toolkit.tables import open_store
from toolkit.widgets.table.shared import CAUGHT_UP_GRACE_S

pytestmark = pytest.mark.browser

DASHBOARD = "crew-mission"


def _selector(move) -> str:
    from toolkit.crew.engine import PlayCard

    if isinstance(move, PlayCard):
        return f'.crew-hand button[data-card="{move.card}"]'
    return f'.crew-tasks button[data-task="{move.task}"]'


def _page_at(visitor: Visitor, moves: int, seat: int, timeout_ms: int = 3000) -> bool:
    """True once the page's whole redraw of position ``moves`` has arrived and lights ``seat``."""
    try:
        visitor.page.wait_for_function(
            f"() => {FRAME_SETTLED} && document.querySelector('.deepsea-status-line').dataset.moves === '{moves}'"
            f" && document.querySelector('.deepsea-status-line').dataset.acting === '{seat}'", timeout=timeout_ms)
        return True
    except Exception:  # noqa: BLE001 - a bot moved meanwhile, or the page is still drawing: look again
        return False


def _shown_hand(visitor: Visitor) -> set[str]:
    return set(visitor.page.locator(".crew-hand button[data-card]").evaluate_all("bs => bs.map(b => b.dataset.card)"))


def test_two_people_and_two_bots_play_a_mission_on_the_crew_page_through_a_reload_and_a_killed_kernel(
        browser, voila_url, voila_server):
    from toolkit.crew import ENGINE
    from toolkit.crew.engine import PlayCard, TakeTask
    from toolkit.publishing.kernels import child_kernels

    store = open_store(voila_server.tables_url)
    host = Visitor(browser, voila_url, "host")
    guest = Visitor(browser, voila_url, "guest")
    watcher = Visitor(browser, voila_url, "spectator")
    late = Visitor(browser, voila_url, "late spectator")      # the fourth browser: joins mid-game
    people = {0: host, 1: guest}
    spectators = (watcher, late)
    try:
        before = set(child_kernels(voila_server.proc.pid))
        host.open("mission=1&players=4&pace=0.3", dashboard=DASHBOARD)
        host_kernel = page_kernel(voila_server, before)
        host.page.locator(".deepsea-seat-1 select").select_option(label="You")
        host.page.locator("button.deepsea-invite").click()
        code = host.page.locator(".deepsea-table-code").inner_text(timeout=60000).strip()
        host.crew_hand.clear()      # the page's own game before the invite dealt another deck (another seed)
        info = store.info(code)
        assert info.game == "crew" and dict(info.options)["mission"] == 1
        assert [s.kind for s in info.seats][:2] == ["human", "human"]
        assert all(s.kind != "human" for s in info.seats[2:]), info.seats
        link = host.page.locator("a.deepsea-table-link").get_attribute("href")
        assert link.startswith("?") and f"table={code}" in link      # this page, the table's query
        assert host.page.locator(".deepsea-game-code").count() == 0      # no game code (it holds the seed)
        host.sit(0)
        host.page.wait_for_function(f"window.location.search.includes('table={code}')", timeout=30000)
        query = link.split("?", 1)[1]
        guest.open(query, dashboard=DASHBOARD)
        guest.page.locator('.deepsea-shared-where[data-seat=""]').wait_for(timeout=60000)
        assert guest.page.locator("button.deepsea-sit-0").is_hidden()    # taken
        guest.sit(1)
        watcher.open(query, dashboard=DASHBOARD)
        watcher.page.locator('.deepsea-shared-where[data-seat=""]').wait_for(timeout=60000)

        choose = good_move(ENGINE, "expert", only=(PlayCard, TakeTask))   # what one clicks on this page
        clicks = 0
        before_end: dict[str, set[str]] = {}     # the hand cards each page was sent while the attempt ran
        deadline = time.monotonic() + GAME_TIMEOUT_S
        while not ENGINE.play_out_over(store.state(code)):
            before_end = {v.name: set(v.crew_hand) for v in (host, guest, watcher, late)}
            assert time.monotonic() < deadline, f"the mission did not end within {GAME_TIMEOUT_S} s"
            state, moves = store.state(code), len(store.moves(code))
            seat = ENGINE.decider(state)
            if seat not in people or store.next_bot_move(code) is not None or not _page_at(people[seat], moves, seat):
                time.sleep(0.2)
                continue
            visitor = people[seat]
            # a person looks before clicking: a click within CAUGHT_UP_GRACE_S of the page drawing another
            # seat's move is taken as aimed at the position before it ("Someone moved first")
            time.sleep(CAUGHT_UP_GRACE_S + 0.1)
            assert _shown_hand(visitor) == {str(c) for c in state.hands[seat]}, visitor.name
            move = choose(state, seat)
            assert move is not None, ENGINE.legal_moves(state, seat)
            visitor.page.locator(_selector(move)).click(timeout=10000)
            until = time.monotonic() + 20
            while len(store.moves(code)) == moves and time.monotonic() < until:
                time.sleep(0.1)
            if len(store.moves(code)) == moves:
                continue        # the click met a redraw (a bot's sonar): the page says why; look again
            assert store.moves(code)[moves] == str(move)
            clicks += 1
            # after the first click, mid-game (the invite draws a fresh seed, so the mission's length varies,
            # but both people play a card in the first trick: the attempt cannot be over after one click)
            if clicks == 1:
                assert not ENGINE.play_out_over(store.state(code))
                guest.page.reload(wait_until="domcontentloaded")     # a reload: the browser keeps the seat
                guest.wait_for_seat(1)
                late.open(query, dashboard=DASHBOARD)    # someone opens the link mid-game: the log is replayed
                late.page.locator('.deepsea-shared-where[data-seat=""]').wait_for(timeout=60000)
                assert late.page.locator("button.deepsea-sit-0").is_hidden()
                os.kill(host_kernel, signal.SIGKILL)     # the host's kernel dies; the page is opened again
                before = set(child_kernels(voila_server.proc.pid))
                host.page.reload(wait_until="domcontentloaded")
                host.wait_for_seat(0)
                host_kernel = page_kernel(voila_server, before)
        assert clicks >= 2, clicks
        assert late.frames, "the late spectator never joined"

        log = store.moves(code)
        for visitor in (host, guest, watcher, late):
            visitor.page.wait_for_function(
                f"() => {FRAME_SETTLED} && +document.querySelector('.deepsea-status-line').dataset.moves === {len(log)}",
                timeout=60000)
            visitor.page.locator(".crew-post-mortem .crew-pm-verdict").wait_for(timeout=120000)
            assert visitor.page.locator('.deepsea-status-line[data-acting=""]').count() == 1   # nobody is lit
            assert visitor.errors == [], (visitor.name, visitor.errors)

        # the hands each seat held during the attempt (replayed from the log): no page was sent another's card
        info = store.info(code)
        state = ENGINE.new_state(info.seed, **dict(info.options))
        held = {seat: {str(c) for c in state.hands[seat]} for seat in people}
        for text in log:
            state = ENGINE.apply(state, ENGINE.parse_move(text))
            for seat in people:
                held[seat] |= {str(c) for c in state.hands[seat]}
        for seat, visitor in people.items():
            assert visitor.crew_hand and visitor.crew_hand <= held[seat], (visitor.name, sorted(visitor.crew_hand - held[seat]))
        for visitor in spectators:
            assert before_end[visitor.name] == set(), (visitor.name, sorted(before_end[visitor.name]))
    finally:
        for visitor in (host, guest, watcher, late):
            visitor.close()
