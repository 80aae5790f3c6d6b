"""The generic table on the table frame (the debug dashboard's ``?view=table``), through Voila in Chromium."""

import re

import pytest

pytestmark = pytest.mark.browser


def _log_lines(page) -> int:
    return page.locator(".deepsea-table-log li").count()


def test_the_generic_table_answers_clicks_hints_undoes_and_reopens_from_its_link(open_dashboard, voila_url,
                                                                                console_errors):
    page = open_dashboard("debug-panel", "game=tranquility&seed=3&view=table&players=2")
    status = page.locator(".deepsea-status-line")
    status.wait_for(state="visible", timeout=60000)
    page.wait_for_function("document.querySelector('.deepsea-status-line').innerText.includes('Your turn')",
                           timeout=60000)
    assert status.get_attribute("data-acting") == "0"
    # the hint outlines exactly one move button, and says it once
    page.locator(".deepsea-hint button, button.deepsea-hint").first.click()
    page.locator(".deepsea-move-button.deepsea-hinted").wait_for(timeout=60000)
    assert page.locator(".deepsea-move-button.deepsea-hinted").count() == 1
    assert page.locator(".deepsea-hint-text").inner_text().count("Hint for You") == 1
    # a move: the hint's mark goes, the log grows (the bot may have moved first: seat order is dealt),
    # the bot answers, the person's turn comes back
    before = _log_lines(page)
    page.locator(".deepsea-move-button").first.click()
    page.wait_for_function(f"document.querySelectorAll('.deepsea-table-log li').length >= {before + 2}",
                           timeout=60000)
    page.wait_for_function("document.querySelectorAll('.deepsea-move-button.deepsea-hinted').length == 0",
                           timeout=60000)
    page.wait_for_function("document.querySelector('.deepsea-status-line').innerText.includes('Your turn')",
                           timeout=60000)
    assert "You" in page.locator(".deepsea-event-seat").all_inner_texts()
    # the link reopens the game where it was
    href = page.locator("a.deepsea-share-link").get_attribute("href")
    assert len(re.findall(r"(?:%26|&)m(?:%3D|=)", href)) >= 2
    lines = _log_lines(page)
    # undo: back to the person's last decision, fewer lines in the log
    page.locator(".deepsea-controls .deepsea-undo button, .deepsea-controls button.deepsea-undo").first.click()
    page.wait_for_function(f"document.querySelectorAll('.deepsea-table-log li').length < {lines}", timeout=60000)
    assert "Your turn" in status.inner_text()        # one redraw: never the bot's turn in between
    page.goto(f"{voila_url}/voila/render/debug-panel.ipynb{href}&game=tranquility&view=table",
              wait_until="domcontentloaded", timeout=180000)
    page.locator(".deepsea-status-line").wait_for(state="visible", timeout=120000)
    page.wait_for_function(f"document.querySelectorAll('.deepsea-table-log li').length >= {lines}", timeout=60000)
    assert console_errors == []
