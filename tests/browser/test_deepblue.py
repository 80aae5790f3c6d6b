"""Deep Blue dashboards in Voila + Chromium: one main interaction per dashboard."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser


def _wait_text(page, selector: str, text: str, timeout: int = 60000) -> None:
    page.wait_for_function(
        "([sel, txt]) => { const el = document.querySelector(sel); return el && el.innerText.includes(txt); }",
        arg=[selector, text], timeout=timeout)


def test_gem_bag_shows_exact_risk_and_reacts_to_inputs(open_dashboard):
    page = open_dashboard("deep-blue-gem-bag")
    _wait_text(page, ".deepblue-risk-summary", "53/57")
    assert "0.653" in page.locator(".deepblue-risk-summary").inner_text()
    page.locator(".js-plotly-plot .main-svg").first.wait_for(state="visible", timeout=60000)
    box = page.locator(".deepblue-drawn-black input")
    box.fill("1")
    box.press("Enter")
    _wait_text(page, ".deepblue-risk-summary", "4/19 = 21.1%")
    page.locator(".deepsea-lang button", has_text="日本語").click()
    _wait_text(page, ".deepblue-risk-summary", "次のドローでバーストする確率")


def test_gem_bag_reads_a_shared_link(open_dashboard):
    page = open_dashboard("deep-blue-gem-bag", "silver=2&black=2&drawn=black")
    _wait_text(page, ".deepblue-risk-summary", "1/2 = 50.0%")


def test_dive_joins_draws_and_hides_other_hands(open_dashboard):
    page = open_dashboard("deep-blue-dive")
    seat = page.locator(".deepblue-seat button")
    for who in ("1", "2"):
        seat.filter(has_text=who).first.click()
        page.locator(".deepblue-join").click()
        page.wait_for_timeout(300)
    seat.filter(has_text="0").first.click()
    page.locator(".deepblue-draw").click()
    page.wait_for_function("() => { const b = document.querySelector('.deepblue-dive-board');"
                           " return b && Number(b.dataset.gems) >= 1; }", timeout=60000)
    _wait_text(page, ".deepblue-log", "deepblue.dive.draw")
    # seat 0's own cards are shown, seat 1's (yellow starters 5-8) never reach the page
    assert page.locator(".deepblue-card[data-card='1']").count() == 1
    assert page.locator(".deepblue-card[data-card='5']").count() == 0
    page.locator(".deepblue-stop").click()
    _wait_text(page, ".deepblue-log", "deepblue.dive.score")


def test_game_applies_a_move_and_passes_the_turn(open_dashboard):
    page = open_dashboard("deep-blue-game")
    page.locator(".js-plotly-plot .main-svg").first.wait_for(state="visible", timeout=60000)
    page.locator(".deepblue-moves select").select_option(label="Seat 0: rest (shuffle used cards, draw 3)")
    page.locator(".deepblue-game-apply").click()
    _wait_text(page, ".deepblue-status", "Turn: seat 1")
    _wait_text(page, ".deepblue-log", "deepblue.rest")


def test_learner_plays_a_whole_game_against_a_bot_by_clicking(page, open_dashboard):
    """Seat 0 is "you", seat 1 the policy bot (pace 0): the learner clicks Hint, picks the suggested move in
    the move list and applies it, until the game is over. Seat 1's own starting cards (which no other seat
    can ever hold) never reach the page: not in the DOM, not in any websocket frame."""
    import re

    from toolkit.deepblue import ENGINE

    comps = ENGINE.components
    state = ENGINE.new_state(4, players=2)
    others = [c for c in comps.starters(state.players[1].colour)]
    frames: list[bytes] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda p: frames.append(
        p if isinstance(p, bytes) else p.encode("utf-8"))))
    page = open_dashboard("deep-blue-game", "seed=4&players=2&seats=you,policy&pace=0")
    page.locator(".deepblue-status").wait_for(timeout=60000)
    clicks = 0
    for _ in range(300):
        if "Game over" in page.locator(".deepblue-status").inner_text():
            break
        select = page.locator(".deepblue-moves select")
        if select.locator("option").count() == 0 or page.locator("button.deepblue-hint").is_disabled():
            page.wait_for_timeout(300)           # a bot is playing
            continue
        from playwright.sync_api import TimeoutError as PlaywrightTimeout
        try:
            page.locator("button.deepblue-hint").click(timeout=5000)
            page.wait_for_function("() => document.querySelector('.deepblue-hint-text').innerText.length > 0",
                                   timeout=10000)
        except PlaywrightTimeout:
            continue        # a bot moved meanwhile (the learner was a diver, not the leader): look again
        hint = page.locator(".deepblue-hint-text").inner_text()
        before = page.locator(".deepblue-log").inner_text()
        quick = [b for b in page.locator("button.deepblue-quick").all() if b.inner_text() in hint]
        if quick:                                   # the one-click button of the suggested move
            quick[0].click()
        else:
            labels = [o.inner_text() for o in select.locator("option").all()]
            pick = next((lab for lab in labels if lab and lab in hint), labels[0])
            select.select_option(label=pick)
            page.locator(".deepblue-game-apply").click()
        # the log moves on (or, if a bot's move made the choice stale, a refusal shows: choose again)
        try:
            page.wait_for_function("(b) => document.querySelector('.deepblue-log').innerText !== b"
                                   " || document.querySelector('.deepsea-root .deepsea-refusal') !== null",
                                   arg=before, timeout=15000)
        except PlaywrightTimeout:
            continue
        clicks += 1
    assert "Game over" in page.locator(".deepblue-status").inner_text()
    assert clicks >= 5
    page.wait_for_timeout(500)
    html = page.locator(".deepsea-root").first.evaluate("e => e.outerHTML")
    wire = b"\n".join(frames).decode("utf-8", "replace")
    for c in others:
        pattern = re.compile(r'data-card=\\*"' + str(c) + r'\\*"')
        assert not pattern.search(html), f"seat 1's card {c} is in the DOM"
        assert not pattern.search(wire), f"seat 1's card {c} went over the websocket"
    mine = comps.starters(state.players[0].colour)
    assert any(re.search(r'data-card=\\*"' + str(c) + r'\\*"', wire) for c in mine)   # the check can fail
