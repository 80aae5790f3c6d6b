"""Sewer Pirats dashboards in Voila + Chromium: one main interaction per dashboard."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser


def _wait_text(page, selector: str, text: str, timeout: int = 60000) -> None:
    page.wait_for_function(
        "([sel, txt]) => { const el = document.querySelector(sel); return el && el.innerText.includes(txt); }",
        arg=[selector, text], timeout=timeout)


def test_scoring_explains_the_rules_example_and_the_parrot_choice(open_dashboard):
    page = open_dashboard("pirats-scoring")
    _wait_text(page, ".pirats-total", "Total: 15 points")
    assert "pirats.score.fries" in page.locator(".pirats-sheet").inner_text()
    page.locator(".js-plotly-plot .main-svg").first.wait_for(state="visible", timeout=60000)
    page.locator(".pirats-example-parrot").click()
    _wait_text(page, ".pirats-total", "Total: 8 points")
    _wait_text(page, ".pirats-sheet", "the only parrot unlocks the other toys")
    page.locator(".deepsea-lang button", has_text="日本語").click()
    _wait_text(page, ".pirats-total", "合計：8点")


def test_scoring_reads_a_shared_pile(open_dashboard):
    page = open_dashboard("pirats-scoring", "tokens=can%208,can%207,opener")
    _wait_text(page, ".pirats-total", "Total: 8 points")
    _wait_text(page, ".pirats-sheet", "no can opener left")


def test_boarding_lands_past_occupied_spaces_and_refuses_a_gap(open_dashboard):
    # the rules' example: from the area straight to space 3 past occupied 1 and 2, with one card
    page = open_dashboard("pirats-boarding", "occupied=1,2&start=0&cards=1")
    page.locator(".pirats-move").click()
    _wait_text(page, ".pirats-result", "lands on space 3")
    assert "pirats.move.skip-occupied" in page.locator(".pirats-result").inner_text()
    # space 3 is now taken by nobody but 1 and 2 are: becoming captain from the area leaves a gap at 3
    page.locator(".pirats-become-captain").click()
    _wait_text(page, ".deepsea-message", "pirats.captain.path")


def test_game_plays_a_draw_and_shows_only_the_seat_to_move(open_dashboard):
    page = open_dashboard("pirats-game", "seed=3&players=3")
    _wait_text(page, ".pirats-status", "Seat 0 (red) to move")
    _wait_text(page, ".pirats-hand", "Seat 0's hand")
    page.locator(".pirats-moves select").select_option(label="Draw a card from the deck")
    page.locator(".pirats-apply").click()
    _wait_text(page, ".pirats-log", "Seat 0 drew a card from the deck")
    page.locator(".pirats-moves select").select_option(label="Draw a card from the deck")
    page.locator(".pirats-apply").click()
    _wait_text(page, ".pirats-status", "Seat 1 (green) to move")
    # hot seat: the hand shown is now seat 1's; seat 0's cards are no longer in the page
    _wait_text(page, ".pirats-hand", "Seat 1's hand")
    assert page.locator(".pirats-hand").inner_text().count("hand") == 1
    # widget updates arrive one by one: wait for the log's second line rather than reading it at once
    page.wait_for_function("() => document.querySelector('.pirats-log').innerText"
                           ".split('Seat 0 drew a card from the deck').length === 3", timeout=60000)
