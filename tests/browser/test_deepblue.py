"""Deep Blue dashboards in Voila + Chromium: every action is a click on the object it acts on (a site, a
boat, a scouting spot, a card, the bag, a gem token); the move list is only the "All moves" fallback."""

from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.browser


def _wait_text(page, selector: str, text: str, timeout: int = 60000) -> None:
    page.wait_for_function(
        "([sel, txt]) => { const el = document.querySelector(sel); return el && el.innerText.includes(txt); }",
        arg=[selector, text], timeout=timeout)


def _axe_serious(page) -> list[str]:
    """axe-core's serious and critical findings on the page as it is now (mid-game states: the dashboards'
    first states are read by test_accessibility.py)."""
    from axe_playwright_python.sync_playwright import Axe

    result = Axe().run(page).response
    return [f"{v['id']}: {v['nodes'][0]['html'][:160]}" for v in result["violations"]
            if v["impact"] in ("serious", "critical")]


#: the game table's event log (the shared table frame's)
GAME_LOG = ".deepsea-table-log .deepsea-log"


def _offer(page, scope: str, key: str):
    """The clickable object ``key`` in the component ``scope``, once the kernel offers it."""
    loc = page.locator(f'{scope} button.db-c-offer[data-key="{key}"]')
    loc.first.wait_for(state="visible", timeout=60000)
    return loc.first


def test_gem_bag_is_set_by_clicking_gem_tokens_and_the_link_round_trips(open_dashboard):
    page = open_dashboard("deep-blue-gem-bag")
    _wait_text(page, ".deepblue-risk-summary", "53/57")
    assert "0.653" in page.locator(".deepblue-risk-summary").inner_text()
    page.locator(".js-plotly-plot .main-svg").first.wait_for(state="visible", timeout=60000)
    _offer(page, ".deepblue-drawn-tokens", "plus:black").click()            # one black drawn: a warning
    _wait_text(page, ".deepblue-risk-summary", "4/19 = 21.1%")
    _offer(page, ".deepblue-bag-tokens", "minus:silver").click()            # one silver fewer in the bag
    _wait_text(page, ".deepblue-risk-summary", "2/9 = 22.2%")
    link = page.locator(".deepblue-share-link a").get_attribute("href")
    assert "silver=6" in link and "drawn=black" in link
    # typing stays possible (collapsed section), and the tokens follow the typed value
    page.locator(".deepblue-typed-counts .jupyter-widget-Collapse-header, .deepblue-typed-counts .p-Collapse-header,"
                 " .deepblue-typed-counts .lm-Collapse-header").first.click()
    box = page.locator(".deepblue-drawn-black input")
    box.fill("0")
    box.press("Enter")
    _wait_text(page, ".deepblue-risk-summary", "Bust chance of the next draw: 0 = 0.0%")
    assert page.locator('.deepblue-drawn-tokens [data-colour="black"] .db-c-count').inner_text() == "×0"
    page.locator(".deepsea-lang button", has_text="日本語").click()
    _wait_text(page, ".deepblue-risk-summary", "次のドローでバーストする確率")
    # the shared link opens the same bag
    page = open_dashboard("deep-blue-gem-bag", link.lstrip("?"))
    _wait_text(page, ".deepblue-risk-summary", "Still in after 2 draws")
    assert page.locator('.deepblue-bag-tokens [data-colour="silver"] .db-c-count').inner_text() == "×6"


def test_gem_bag_reads_a_shared_link(open_dashboard):
    page = open_dashboard("deep-blue-gem-bag", "silver=2&black=2&drawn=black")
    _wait_text(page, ".deepblue-risk-summary", "1/2 = 50.0%")


def test_dive_by_clicks_join_draw_surface_and_hides_other_hands(open_dashboard):
    page = open_dashboard("deep-blue-dive")
    seat = page.locator(".deepblue-seat button")
    for who in ("1", "2"):
        seat.filter(has_text=who).first.click()
        _offer(page, ".deepblue-dive-component", "join").click()
        page.wait_for_function(f"() => !document.querySelector('.deepblue-dive-component [data-seat=\"{who}\"]')"
                               ".classList.contains('db-c-status-deciding')", timeout=60000)
    seat.filter(has_text="0").first.click()
    _offer(page, ".deepblue-bag-component", "bag").click()                  # the leader draws from the bag
    page.wait_for_function("() => document.querySelectorAll('.deepblue-dive-component .db-c-track-gem').length >= 1",
                           timeout=60000)
    _wait_text(page, ".deepblue-log", "deepblue.dive.draw")
    # seat 0's own cards are shown, seat 1's (yellow starters 5-8) never reach the page
    assert page.locator(".deepblue-hand-component .db-c-card[data-card='1']").count() == 1
    assert page.locator(".db-c-card[data-card='5']").count() == 0
    assert _axe_serious(page) == []                                          # drawn gems, divers, offers
    page.locator(".deepsea-lang button", has_text="日本語").click()
    page.wait_for_function("document.documentElement.lang === 'ja'", timeout=30000)
    page.wait_for_timeout(600)
    assert _axe_serious(page) == []
    _offer(page, ".deepblue-dive-component", "surface").click()             # the leader's boat: stop
    _wait_text(page, ".deepblue-log", "deepblue.dive.score")


def test_part_of_a_seeded_game_by_clicking_sites_spots_cards_and_the_bag(page, open_dashboard):
    """Seat 0 against the policy bot (pace 0): sail by clicking a site (propellers paid with the suggested
    card), pick a scouting spot, drop anchor, dive at the wreck the boat is on, draw from the bag, surface by
    clicking the boat, hire from the market. No move list, no typed code; seat 1's hand never arrives."""
    from toolkit.deepblue import ENGINE

    frames: list[bytes] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda p: frames.append(
        p if isinstance(p, bytes) else p.encode("utf-8"))))
    page = open_dashboard("deep-blue-game", "seed=4&players=2&seats=you,policy&pace=0")
    board = ".deepblue-board-component"
    site = _offer(page, board, "site:3")
    assert "⟳ 1" in site.inner_text() and "Navigator" in site.get_attribute("aria-label") + site.get_attribute("title")
    site.click()
    page.locator(f'{board} button.db-c-offer[data-key^="spot:"]').first.click()
    _offer(page, board, "anchor").click()
    _wait_text(page, GAME_LOG, "deepblue.sail.move")
    dive = _offer(page, board, "site:3")                                    # the bot moved; seat 0 dives
    assert "dive here" in dive.inner_text()
    dive.click()
    _offer(page, ".deepblue-bag-component", "bag").click()
    _wait_text(page, GAME_LOG, "deepblue.dive.draw")
    surface = page.locator('.deepblue-dive-component button.db-c-offer[data-key="surface"]')
    surface.first.wait_for(state="visible", timeout=60000)
    surface.first.click()
    _wait_text(page, GAME_LOG, "deepblue.dive.score")
    _offer(page, ".deepblue-market-component", "slot:1").click()          # several payments: choose, then pay
    assert _axe_serious(page) == []                                          # paying: cards and tokens to click
    _offer(page, ".deepblue-hand-component", "pay").click()
    _wait_text(page, GAME_LOG, "deepblue.hire.pay")
    # seat 1's own starting cards never reach the page (DOM or websocket)
    state = ENGINE.new_state(4, players=2)
    theirs = ENGINE.components.starters(state.players[1].colour)
    wire = b"\n".join(frames).decode("utf-8", "replace")
    html = page.locator(".deepsea-root").first.evaluate("e => e.outerHTML")
    for c in theirs:
        assert not re.search(rf'card:{c}\b', wire) and f'data-card="{c}"' not in html
    assert any(re.search(rf'card:{c}\b', wire) for c in ENGINE.components.starters(state.players[0].colour))


def test_keyboard_reaches_sites_cards_and_the_rest_area_and_operates_them(open_dashboard):
    page = open_dashboard("deep-blue-game", "seed=4&players=2&seats=you,policy&pace=0")
    _offer(page, ".deepblue-board-component", "site:3")
    page.locator("button.deepsea-new-game").focus()          # the options bar, above the seats and the board
    reached = []
    for _ in range(80):
        page.keyboard.press("Tab")
        key = page.evaluate("document.activeElement && document.activeElement.dataset.key || ''")
        reached.append(key)
        if key == "rest":
            break
    assert {"boat:0", "site:3", "card:2", "rest"} <= set(reached), reached
    assert any(k.startswith("slot:") for k in page.evaluate(
        "[...document.querySelectorAll('.deepblue-market-component button')].map(b => b.dataset.key)"))
    page.keyboard.press(" ")                                               # Space on the rest area: rest
    _wait_text(page, GAME_LOG, "deepblue.rest")
    site = _offer(page, ".deepblue-board-component", "site:7")
    site.focus()
    assert "step" in page.locator(".deepblue-board-component .db-c-info").inner_text()   # the cost on focus
    page.keyboard.press("Enter")                                           # Enter on a site: sail there
    _wait_text(page, GAME_LOG, "deepblue.sail.move")


def test_the_move_list_stays_as_a_collapsed_fallback(open_dashboard):
    page = open_dashboard("deep-blue-game")
    assert not page.locator(".deepblue-moves select").is_visible()
    page.locator(".deepblue-all-moves .jupyter-widget-Collapse-header, .deepblue-all-moves .p-Collapse-header,"
                 " .deepblue-all-moves .lm-Collapse-header").first.click()
    page.locator(".deepblue-moves select").select_option(label="Seat 1: rest (shuffle used cards, draw 3)")
    page.locator(".deepblue-game-apply").click()
    _wait_text(page, GAME_LOG, "deepblue.rest")


def test_a_bot_seat_table_never_sends_the_bots_cards(page, open_dashboard):
    """You at seat 0, two policy bots playing at a quick pace: every websocket frame the kernel sent (all the
    components' state) and the DOM hold seat 0's starting cards and none of the bots' (which never become
    public: starting cards never enter the market)."""
    from toolkit.deepblue import ENGINE

    frames: list[bytes] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda p: frames.append(
        p if isinstance(p, bytes) else p.encode("utf-8"))))
    page = open_dashboard("deep-blue-game", "seed=5&players=3&seats=you,policy,policy&pace=0.1")
    _offer(page, ".deepblue-hand-component", "rest").click()                 # seat 0 rests; the bots play
    page.wait_for_function("() => document.querySelector('.deepsea-table-log .deepsea-log').innerText.split('core.turn').length > 3",
                           timeout=60000)
    _offer(page, ".deepblue-hand-component", "rest")                         # seat 0's turn again
    page.wait_for_timeout(500)
    state = ENGINE.new_state(5, players=3)
    wire = b"\n".join(frames).decode("utf-8", "replace")
    html = page.locator(".deepsea-root").first.evaluate("e => e.outerHTML")
    bots = [c for s in (1, 2) for c in ENGINE.components.starters(state.players[s].colour)]
    for c in bots:
        assert not re.search(rf'card:{c}\b|"id": {c},', wire), f"a bot's card {c} went over the websocket"
        assert f'data-card="{c}"' not in html
    mine = ENGINE.components.starters(state.players[0].colour)
    assert all(re.search(rf'card:{c}\b', wire) for c in mine)                # the check can fail
