"""The Crew solver dashboards in Voila + Chromium: solve a shared position and replay it; read the
difficulty table and rerun one task live."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser


def _wait_text(page, selector: str, text: str, timeout: int = 60000) -> None:
    page.wait_for_function(
        "([sel, txt]) => { const el = document.querySelector(sel); return el && el.innerText.includes(txt); }",
        arg=[selector, text], timeout=timeout)


def test_winnable_solves_a_shared_position_and_replays_the_line(open_dashboard):
    # a teacher's link: four players, deal 1, seat 0 must win the pink 3 (task 16)
    page = open_dashboard("crew-winnable", "players=4&seed=1&tasks=0:16")
    assert "P" in page.locator(".crew-solver-hand-0 input").input_value()
    page.locator(".crew-solver-solve").click()
    _wait_text(page, ".crew-solver-verdict", "Winnable")
    _wait_text(page, ".crew-solver-trick", "Trick 1")
    _wait_text(page, ".crew-solver-trick", "done")
    page.locator(".deepsea-lang button", has_text="日本語").click()
    _wait_text(page, ".crew-solver-verdict", "達成可能")
    # a malformed task box is refused in the page, not with a traceback
    page.locator(".crew-solver-tasks-1 input").fill("abc")
    page.locator(".crew-solver-solve").click()
    _wait_text(page, ".deepsea-message", "abc")


def test_task_difficulty_shows_the_table_and_reruns_a_task(open_dashboard):
    page = open_dashboard("crew-task-difficulty")
    page.locator(".js-plotly-plot .main-svg").first.wait_for(state="visible", timeout=60000)
    _wait_text(page, ".crew-difficulty-cell", "printed difficulty")
    page.locator(".crew-difficulty-task select").select_option(index=15)  # "#16 Win the pink 3."
    _wait_text(page, ".crew-difficulty-cell", "#16")
    page.locator(".crew-difficulty-players button", has_text="3").click()
    _wait_text(page, ".crew-difficulty-cell", "3 players")
    page.locator(".crew-difficulty-rerun").click()
    _wait_text(page, ".crew-difficulty-progress", "winnable in", timeout=120000)
