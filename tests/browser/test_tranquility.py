"""The Tranquility dashboards in Voila + Chromium: one main interaction each."""

import pytest

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
    page = open_dashboard("tranquility-game", "players=2&seed=4")
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
    assert "placed" in page.locator(".tranq-log").inner_text()
    assert console_errors == []


def test_strategies_dashboard_runs_a_study_and_draws_the_chart(open_dashboard, console_errors):
    page = open_dashboard("tranquility-strategies", "games=6&players=2&strategies=greedy,feasibility")
    page.locator(".tranq-run").click()
    page.locator(".tranq-row").first.wait_for(state="visible", timeout=60000)
    assert page.locator(".tranq-row").count() == 2
    page.locator(".deepsea-chart .js-plotly-plot .main-svg").first.wait_for(state="visible", timeout=60000)
    assert console_errors == []
