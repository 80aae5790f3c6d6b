"""Shared tables in the browser (issue 27): separate browser contexts (separate visitors, each page its own
Voila kernel) at one table, through the generic table page (``debug-panel?game=…&view=table``) and Deep
Blue's own table (``deep-blue-game?table=…``). Every kernel of the test server shares one SQLite store
(``DEEPSEA_TABLES_URL``, set by ``voila_env``). The Crew's table (its own page, four browsers, a reload and a
killed kernel, the post-mortem) is in test_shared_crew_mission_page.py.

Each page must show only its own hand: checked in its DOM and in every websocket frame it received."""

from __future__ import annotations

import os
import signal
import time

import pytest

from conftest import FRAME_SETTLED  # tests/browser/conftest.py
from shared_visitors import (GAME_TIMEOUT_S, Visitor, ask_hint, assert_only_own_hands, hand_keys, page_kernel,
                             play_until_over, shown_moves, wait_for_position)
from toolkit.tables import open_store

pytestmark = pytest.mark.browser


def test_two_people_and_a_bot_play_tranquility_to_the_end_each_seeing_only_their_hand(
        browser, voila_url, voila_server):
    """Three people's seats; the third stays free and one page hands it to a bot, which the pages play."""
    from toolkit.tranquility import ENGINE

    store = open_store(voila_server.tables_url)
    code = store.create("tranquility", 11, {"players": 3}, ["human", "human", "human"])
    visitors = {0: Visitor(browser, voila_url, "first"), 1: Visitor(browser, voila_url, "second")}
    try:
        for seat, visitor in visitors.items():
            visitor.open(f"table={code}")          # a bare table link: the dashboard finds the game
            visitor.sit(seat)
        first = visitors[0].page
        first.locator("button.deepsea-to-bot-2").click()
        first.locator('.deepsea-shared-seat [data-seat="2"][data-state="bot"]').wait_for(timeout=60000)
        assert [s.kind for s in store.info(code).seats] == ["human", "human", "rank"]
        play_until_over(visitors, store, code, ENGINE)
        log = store.moves(code)
        for visitor in visitors.values():
            # the whole last redraw (the status reaches the page before the banner: CI read between them)
            visitor.page.wait_for_function(
                f"() => {FRAME_SETTLED} && +document.querySelector('.deepsea-status-line').dataset.moves === {len(log)}",
                timeout=60000)
            assert visitor.status().startswith("The game is over"), visitor.status()
            assert visitor.page.locator(".deepsea-result").count() == 1
            assert visitor.errors == []
        assert_only_own_hands(visitors, store, code, ENGINE)
    finally:
        for visitor in visitors.values():
            visitor.close()


def test_two_people_and_a_bot_play_deep_blue_to_the_end_and_two_tabs_clicking_at_once_land_one_move(
        browser, voila_url, voila_server):
    """Deep Blue's own table (deep-blue-game) shared by two people on their own browsers, the third seat
    the best-play bot: the whole game by "Play the hint" on the page of the seat that acts (in a dive two
    seats may act at once). Each page is sent only its own hand (DOM and websocket frames); the bot's move
    shows on the bot line of every page; the result on every page. Once, the host's second tab (its own
    kernel, the same seat) and the host press "Play the hint" at the same moment: exactly one move lands,
    the other tab says "Someone moved first" and shows the new position. Mid-game the guest's page is
    reloaded (the browser keeps the seat), later its kernel is killed (SIGKILL) and the page opened again:
    the game resumes from the log, the hand shown again is the seat's own."""
    from toolkit.deepblue import ENGINE
    from toolkit.publishing.kernels import child_kernels

    store = open_store(voila_server.tables_url)
    code = store.create("deepblue", 8, {"players": 3, "scenario": "troubled-waters"}, ["human", "human", "policy"])
    host = Visitor(browser, voila_url, "host")
    guest = Visitor(browser, voila_url, "guest")
    visitors = {0: host, 1: guest}
    tab = None
    try:
        for seat, visitor in visitors.items():
            before = set(child_kernels(voila_server.proc.pid))
            visitor.open(f"table={code}", dashboard="deep-blue-game")
            visitor.sit(seat)
        guest_kernel = page_kernel(voila_server, before)
        faults = {10: "reload", 24: "kill"}      # at these moves of the log, the guest's page …
        # the host's second window: the same browser storage (the seat's token), a page of its own (a
        # second page of one Playwright context would be a background tab, which Chromium does not draw)
        tab = Visitor(browser, voila_url, "host's second tab",
                      context=browser.new_context(storage_state=host.context.storage_state()))
        tab.open(f"table={code}", dashboard="deep-blue-game")
        tab.wait_for_seat(0)                          # the browser's stored token: the same seat
        raced = False
        bot_lines: dict[str, set[str]] = {"host": set(), "guest": set()}
        hand_checked = set()
        deadline = time.monotonic() + 2 * GAME_TIMEOUT_S
        while not ENGINE.play_out_over(store.state(code)):
            assert time.monotonic() < deadline, "the game did not end in time"
            state = store.state(code)
            texts = store.moves(code)
            n = len(texts)
            fault = next((faults.pop(at) for at in sorted(faults) if n >= at), None)
            if fault is not None:                     # a reload (a new kernel): the browser keeps the seat
                if fault == "kill":                   # the kernel dies first; the page is opened again
                    os.kill(guest_kernel, signal.SIGKILL)
                before = set(child_kernels(voila_server.proc.pid))
                guest.page.reload(wait_until="domcontentloaded")
                guest.wait_for_seat(1)
                guest_kernel = page_kernel(voila_server, before)
                hand_checked.discard(1)               # the page drawn again shows its own hand again
                continue
            if texts and getattr(ENGINE.parse_move(texts[-1]), "seat", None) == 2:
                # the bot just moved: a page that has not shown a bot line yet shows this one once drawn (the
                # acting pages alone may never see one: a reloaded page shows none until the next bot move)
                for visitor in (host, guest):
                    if not bot_lines[visitor.name] and wait_for_position(visitor, n):
                        line = visitor.page.locator(".deepsea-bot-line").inner_text()
                        if line:
                            bot_lines[visitor.name].add(line)
            actors = [s for s in dict.fromkeys((ENGINE.decider(state), *ENGINE.optional_actors(state)))
                      if s in visitors]
            acted = False
            for seat in actors:
                visitor = visitors[seat]
                if not wait_for_position(visitor, n):
                    break                              # a bot moved meanwhile: look again
                page = visitor.page
                line = page.locator(".deepsea-bot-line").inner_text()
                if line:
                    bot_lines[visitor.name].add(line)
                if seat not in hand_checked:          # the hand row draws this seat's own hand, only
                    shown = page.locator(".deepblue-hand-component .db-c-card").evaluate_all(
                        "cs => cs.map(c => +c.dataset.card)")
                    assert sorted(shown) == sorted(state.players[seat].hand), (shown, state.players[seat].hand)
                    hand_checked.add(seat)
                if not ask_hint(visitor, n):
                    continue
                # the race where nobody else moves meanwhile: the host's own decision, no bot beside it
                calm = ENGINE.decider(state) == 0 and set(ENGINE.optional_actors(state)) <= {0, 1}
                if seat == 0 and calm and not raced and n >= 6 and wait_for_position(tab, n) and ask_hint(tab, n):
                    # two tabs of one seat press "Play the hint" at the same moment
                    for racer in (host, tab):
                        racer.page.evaluate("document.querySelector('button.deepsea-play-hint').click()")
                    refused = None
                    for _ in range(600):
                        said = {r.name: r.page.locator(".deepsea-action-row .deepsea-refusal-line").inner_text() for r in (host, tab)}
                        refused = [name for name, text in said.items() if "Someone moved first" in text]
                        if refused:
                            break
                        time.sleep(0.1)
                    assert refused and len(refused) == 1, said
                    log = store.moves(code)
                    mine = [text for text in log[n:] if getattr(ENGINE.parse_move(text), "seat", None) == 0]
                    assert len(log) > n and len(mine) == 1, log[n:]     # exactly one of the two clicks landed
                    loser = tab if refused == ["host's second tab"] else host
                    assert wait_for_position(loser, n + 1) or shown_moves(loser) > n   # it shows the new state
                    raced = True
                    acted = True
                    break
                try:
                    page.locator("button.deepsea-play-hint").click(timeout=5000)
                except Exception:  # noqa: BLE001 - disabled: another seat moved since the hint (its hint dropped)
                    if len(store.moves(code)) > n:
                        break                          # look again at the new position
                    raise
                try:
                    page.wait_for_function(
                        f"() => +document.querySelector('.deepsea-status-line').dataset.moves > {n} || "
                        "document.querySelector('.deepsea-action-row .deepsea-refusal-line').innerText.trim() !== ''", timeout=60000)
                except Exception:  # noqa: BLE001 - the store says what happened
                    pass
                acted = len(store.moves(code)) > n
                break
            if not acted:
                time.sleep(0.2)
        assert raced, "no position came where the host's two tabs could race"
        assert not faults, f"the game ended before the guest's {sorted(faults.values())}"
        log = store.moves(code)
        winners = list(ENGINE.outcome(store.state(code)).winners)
        assert len(winners) == 1
        names = {0: "Seat 1 (person)", 1: "Seat 2 (person)", 2: "Seat 3 (bot: best play)"}
        for seat, visitor in ((0, host), (1, guest), (0, tab)):
            visitor.page.wait_for_function(
                f"() => {FRAME_SETTLED} && +document.querySelector('.deepsea-status-line').dataset.moves === {len(log)}",
                timeout=60000)
            assert visitor.status().startswith("The game is over."), visitor.status()
            result = visitor.page.locator(".deepsea-result").inner_text()
            # the result on every page, in its own words ("You win …" on the winner's)
            expected = "You win with" if winners[0] == seat else f"{names[winners[0]]} wins with"
            assert expected in result and "VP" in result, result
            chests = visitor.page.locator(".deepblue-chests-line").inner_text()      # every seat's score
            assert chests.count(" VP") == 3 and "Seat 3 (bot: best play)" in chests, chests
            assert "every seat sees the result" in visitor.page.locator(".deepsea-shared-where").inner_text()
            assert visitor.errors == []
        # the bot's moves were said on both pages, the move only (Deep Blue withholds a bot's reason)
        for name, lines in bot_lines.items():
            assert any(line.startswith("Seat 3 (bot: best play)") for line in lines), (name, lines)
        # no page was ever sent a card of another seat's hand
        info = store.info(code)
        state = ENGINE.new_state(info.seed, **dict(info.options))
        held: dict[int, set[int]] = {0: set(), 1: set(), 2: set()}
        for text in log:
            for seat in held:
                held[seat] |= set(state.players[seat].hand)
            state = ENGINE.apply(state, ENGINE.parse_move(text))
        for seat in held:
            held[seat] |= set(state.players[seat].hand)
        for seat, visitor in ((0, host), (1, guest), (0, tab)):
            sent = hand_keys(visitor.frames)
            assert sent and sent <= held[seat], (visitor.name, sorted(sent - held[seat]))
    finally:
        for visitor in (host, guest, *([tab] if tab is not None else [])):
            visitor.close()
