"""The Tranquility dashboards in Voila + Chromium: one main interaction each, and a whole game against a bot."""

import re

import pytest
from conftest import FRAME_HINT_CURRENT, FRAME_SETTLED  # tests/browser/conftest.py

pytestmark = pytest.mark.browser


def test_discard_costs_dashboard_explains_a_click(open_dashboard, console_errors):
    page = open_dashboard("tranquility-discard-costs", "cells=2:3,4:7&cell=3&number=6")
    explain = page.locator(".tranq-explain")
    assert "costs 1 discard" in explain.inner_text()
    page.locator(".tranq-cell-6").click()  # a row start: neighbours wrap to the row below
    page.wait_for_function("document.querySelector('.tranq-explain').innerText.includes('end of the row below')")
    page.locator(".tranq-cell-2").click()  # occupied
    page.locator(".tranq-place").click()
    page.locator(".deepsea-refusal").wait_for(state="visible")
    assert "tranquility.place.empty-cell" in page.locator(".deepsea-message").inner_text()
    page.locator(".deepsea-lang button", has_text="日本語").click()
    page.wait_for_function("document.querySelector('.tranq-explain').innerText.includes('選択中')")
    assert console_errors == []


def test_game_dashboard_curtain_then_a_placement(open_dashboard, console_errors):
    page = open_dashboard("tranquility-game", "players=2&seed=4&seats=you,you")  # hot seat
    assert page.locator(".tranq-hand").count() == 0  # the curtain is up: no hand in the page
    page.locator(".tranq-reveal").click()
    hand = page.locator(".tranq-hand button")
    hand.first.wait_for(state="visible")
    labels = [hand.nth(i).inner_text() for i in range(hand.count())]
    card = next(label for label in labels if label.isdigit())
    hand.filter(has_text=card).first.click()
    # an empty grid: any cell is free and costs nothing
    page.locator(".tranq-grid-cell-17").click()
    page.wait_for_function("document.querySelector('.tranq-choice').innerText.includes('costs 0')")
    page.locator(".tranq-play").click()
    page.locator(".tranq-reveal").wait_for(state="visible")  # handed over to the next seat
    assert page.locator(".tranq-grid-cell-17").inner_text().strip() == card
    assert "placed" in page.locator(".deepsea-table-log").inner_text()
    assert console_errors == []


def test_strategies_dashboard_runs_a_study_and_draws_the_chart(open_dashboard, console_errors):
    page = open_dashboard("tranquility-strategies", "games=6&players=2&strategies=greedy,feasibility")
    page.locator(".tranq-run").click()
    page.locator(".tranq-row").first.wait_for(state="visible", timeout=60000)
    assert page.locator(".tranq-row").count() == 2
    page.locator(".deepsea-chart .js-plotly-plot .main-svg").first.wait_for(state="visible", timeout=60000)
    assert console_errors == []


GAME = "players=2&seed=1&variant=poseidon&pace=0"  # a short game (Poseidon sets 12 islands aside)


def test_a_learner_plays_a_whole_game_against_a_bot_by_clicking(page, open_dashboard, console_errors):
    """Seat 0 is the learner, seat 1 the strongest bot. The first placement is clicked card → cell (the cost
    shows before committing), then every turn is "Hint" → "Play the hint" until the game ends. Seat 1's
    cards never reach the page: not in the DOM, not in any websocket frame."""
    from toolkit.tranquility import ENGINE
    from toolkit.widgets.tranquility.game import options_from_query

    frames: list[bytes] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda p: frames.append(
        p if isinstance(p, bytes) else p.encode("utf-8"))))
    page = open_dashboard("tranquility-game", GAME)
    seed, options = options_from_query(dict(q.split("=") for q in GAME.split("&")))
    state = ENGINE.new_state(seed, **options)
    bot_cards = {str(c) for c in state.hands[1] + state.piles[1] if c <= 80}
    hint, outcome = page.locator(".deepsea-hint"), page.locator(".deepsea-result")

    def my_turn_or_over(after: int = -1) -> bool:
        """Wait for the learner's decision or the result, on a page whose whole redraw has arrived and whose
        position is past move ``after`` (the status line can still show the move before while the hint
        line is already gone: a "Hint" clicked then is asked while the bot is to move, and says none)."""
        page.wait_for_function(
            f"{FRAME_SETTLED} && +document.querySelector('.deepsea-status-line').dataset.moves > {after} && ("
            "document.querySelector('.deepsea-result') || (document.querySelector('.tranq-actions button')"
            " && document.querySelector('.deepsea-status-line[data-acting=\"0\"]')))", timeout=60000)
        return outcome.count() == 0

    assert my_turn_or_over()
    hand = page.locator(".tranq-hand button")
    card = next((t for t in hand.all_inner_texts() if t.strip().isdigit()), None)
    if card is not None:  # click to place: the cost is shown before committing
        hand.filter(has_text=re.compile(rf"^{card}$")).first.click()
        empty = next(i for i in range(36) if page.locator(f".tranq-grid-cell-{i}").inner_text().startswith("#"))
        page.locator(f".tranq-grid-cell-{empty}").click()
        page.wait_for_function("document.querySelector('.tranq-choice').innerText.includes('costs')")
    turns = 0
    reasons: list[str] = []
    while my_turn_or_over() and turns < 60:
        hint.click()
        page.wait_for_function(FRAME_HINT_CURRENT)
        asked_at = int(page.locator(".deepsea-hint-line").get_attribute("data-moves"))
        page.locator(".deepsea-play-hint").click()
        turns += 1
        if my_turn_or_over(after=asked_at):       # the bot answered: its move and reason on the bot line
            reasons.append(page.locator(".deepsea-bot-line").inner_text())
    assert outcome.count() == 1 and turns >= 5
    assert any(r.startswith("Seat 2 (bot: ") for r in reasons), reasons
    page.wait_for_timeout(500)
    wire = b"\n".join(frames).decode("utf-8", "replace")
    dom = page.locator(".deepsea-root").first.evaluate("e => e.outerHTML")
    on_wire = set(re.findall(r"tranq-discard-(?!two)([A-Za-z0-9]+)", wire))
    assert on_wire and not (on_wire & bot_cards), "a card of the bot's seat was sent to the page"
    assert not (set(re.findall(r"tranq-discard-(?!two)([A-Za-z0-9]+)", dom)) & bot_cards)
    assert "tranq-teacher-hand" not in wire
    assert console_errors == []


def test_the_table_in_japanese_and_the_teacher_switch(page, open_dashboard, console_errors):
    page = open_dashboard("tranquility-game", "players=3&seed=4&pace=0")
    page.locator(".tranq-actions button").first.wait_for(state="visible", timeout=60000)
    page.locator(".deepsea-lang button", has_text="日本語").click()
    page.wait_for_function("document.querySelector('.deepsea-hint').innerText.includes('ヒント')")
    assert page.locator(".tranq-teacher-hand").count() == 0
    page.locator(".deepsea-show-all input").check()
    page.locator(".tranq-teacher-hand").first.wait_for(state="visible")
    assert page.locator(".tranq-teacher-hand").count() == 3
    page.locator(".deepsea-show-all input").uncheck()
    page.locator(".tranq-teacher-hand").first.wait_for(state="detached")
    assert console_errors == []
