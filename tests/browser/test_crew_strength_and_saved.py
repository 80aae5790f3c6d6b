"""Issue 15's learner-facing pieces in Voila + Chromium: the bot-strength page's player-count choice, and
saved missions that outlive a page reload (the browser's localStorage), with corrupt entries dropped."""

from __future__ import annotations

import json

import pytest

pytestmark = pytest.mark.browser

KEY = "deepsea.crew.saved-missions.v1"


def _wait_text(page, selector: str, text: str, timeout: int = 60000) -> None:
    page.wait_for_function(
        "([sel, txt]) => { const el = document.querySelector(sel); return el && el.innerText.replace(/\u00a0/g, ' ').includes(txt); }",
        arg=[selector, text], timeout=timeout)


def test_the_player_count_switch_redraws_the_strength_table_and_chart(open_dashboard):
    page = open_dashboard("crew-bot-strength")
    page.locator(".crew-strength-chart .js-plotly-plot .main-svg").first.wait_for()
    assert page.locator(".crew-strength-per-mission").get_attribute("data-players") == "4"
    four = page.locator(".crew-strength-headline").inner_text()
    page.locator(".crew-strength-players button", has_text="3 players").click()
    page.wait_for_function("() => document.querySelector('.crew-strength-per-mission')?.dataset.players === '3'",
                           timeout=30000)
    _wait_text(page, ".crew-strength-chart", "3 players")            # the chart's title
    assert "3 players" in page.locator(".crew-strength-headline").inner_text() != four
    # every row says its games; a level the study has not run reads "not measured"
    rows = page.locator(".crew-strength-per-mission tbody tr")
    assert rows.count() >= 1
    assert page.locator(".crew-strength-per-mission td[data-games]").count() >= rows.count()
    page.locator(".deepsea-lang button", has_text="日本語").click()
    _wait_text(page, ".crew-strength-headline", "3人")
    assert page.locator(".crew-strength-players button.mod-active").inner_text().strip() == "3人"
    # the URL opens a player count
    page = open_dashboard("crew-bot-strength", "players=5")
    page.wait_for_function("() => document.querySelector('.crew-strength-per-mission, .crew-strength-empty')",
                           timeout=30000)
    assert "5 players" in page.locator(".crew-strength-headline").inner_text()


def test_a_saved_mission_survives_a_reload_and_a_corrupt_entry_is_dropped(open_dashboard, voila_url):
    # an all-bot table plays seed 11 to its end (lost after 31 moves): the page saves it
    page = open_dashboard("crew-mission", "seed=11&mission=1&seats=beginner,beginner,beginner,beginner&pace=0.05")
    page.wait_for_function(f"() => !!localStorage.getItem('{KEY}')", timeout=90000)
    (code,) = json.loads(page.evaluate(f"() => localStorage.getItem('{KEY}')"))
    assert code.startswith("seed=11&players=4&mission=1&moves=")
    # the learner comes back (a fresh kernel): the mission is listed and its post-mortem opens
    page.goto(f"{voila_url}/voila/render/crew-mission.ipynb?step=1", wait_until="domcontentloaded")
    page.locator(".deepsea-root").first.wait_for(state="visible", timeout=120000)
    _wait_text(page, ".crew-saved-list select", "seed 11")
    _wait_text(page, ".crew-saved-status", "from this browser are listed again")
    page.locator(".crew-saved-open").click()
    page.wait_for_function("() => document.querySelector('.crew-post-mortem').innerText.trim().length > 0",
                           timeout=60000)
    assert "Post-mortem" in page.locator(".crew-post-mortem").inner_text()
    # a corrupt storage: the bad entries are dropped with a notice, the good one stays listed
    # (two long texts: the stored list is longer than one code may be, and is still read entry by entry)
    page.evaluate("([key, good]) => localStorage.setItem(key, JSON.stringify(['garbage', good, 42, "
                  "'seed=1&moves=take_1', 'x'.repeat(3000), 'seed=2&moves=' + 'P9.'.repeat(1100)]))", [KEY, code])
    page.reload(wait_until="domcontentloaded")
    page.locator(".deepsea-root").first.wait_for(state="visible", timeout=120000)
    _wait_text(page, ".crew-saved-status", "5 saved mission(s)")
    assert page.locator(".crew-saved-status [role=alert]").count() == 1
    _wait_text(page, ".crew-saved-list select", "seed 11")
    page.wait_for_function(f"good => localStorage.getItem('{KEY}') === JSON.stringify([good])", arg=code,
                           timeout=30000)
    page.locator(".deepsea-lang button", has_text="日本語").click()
    _wait_text(page, ".crew-saved-status", "読み取れなかった")
    # forget: the list and the browser's storage are empty
    page.locator(".crew-saved-forget").click()
    page.wait_for_function(f"() => localStorage.getItem('{KEY}') === null", timeout=30000)
    _wait_text(page, ".crew-saved-status", "消去しました")
