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
