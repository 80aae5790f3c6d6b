"""The front page and the gallery, through Voila in Chromium."""

import pytest

pytestmark = pytest.mark.browser


def test_root_redirects_to_the_gallery_which_lists_every_dashboard(page, voila_url, console_errors):
    page.goto(voila_url + "/", wait_until="domcontentloaded")
    page.locator(".deepsea-gallery").wait_for(state="visible", timeout=120000)
    assert "/voila/render/index.ipynb" in page.url
    items = page.locator(".deepsea-gallery-item")
    names = {items.nth(i).get_attribute("data-dashboard") for i in range(items.count())}
    from pathlib import Path
    expected = {p.stem for p in (Path(__file__).parents[2] / "dashboards").glob("*.ipynb")} - {"index"}
    assert names == expected
    assert console_errors == []


def test_gallery_switches_to_japanese(open_dashboard):
    page = open_dashboard("index")
    body = page.locator(".deepsea-gallery-body")
    assert "Each dashboard teaches one rule" in body.inner_text()
    page.locator(".deepsea-lang button", has_text="日本語").click()
    page.wait_for_function("document.querySelector('.deepsea-gallery-body').innerText.includes('ダッシュボード')")
    assert "選んでください" in body.inner_text()


def test_gallery_link_opens_the_debug_panel_and_a_move_is_applied(open_dashboard):
    page = open_dashboard("index")
    page.locator(".deepsea-gallery-item[data-dashboard='debug-panel'] a").click()
    page.locator(".deepsea-debug, .deepsea-root").first.wait_for(state="visible", timeout=120000)
    assert page.url.endswith("debug-panel.ipynb")


def test_debug_panel_plays_a_real_game_from_a_shared_link(open_dashboard):
    page = open_dashboard("debug-panel", "game=pirats&seed=3")
    status = page.locator(".deepsea-status")
    status.wait_for(state="visible")
    assert "Position 0 of 0" in status.inner_text()
    page.locator(".deepsea-apply button, button.deepsea-apply").first.click()
    page.wait_for_function(
        "document.querySelector('.deepsea-status').innerText.includes('Position 1 of 1')", timeout=60000)
    # the event log names the rule (the log is waited for too: a reader must not race the redraw)
    page.wait_for_function(
        "document.querySelector('.deepsea-log').innerText.includes('pirats.')", timeout=60000)
    page.locator(".deepsea-move-text input").fill("this is not a move")
    page.locator(".deepsea-apply-text button, button.deepsea-apply-text").first.click()
    page.locator(".deepsea-refusal").wait_for(state="visible", timeout=60000)
    assert "Position 1 of 1" in status.inner_text()                  # refused: nothing changed


def test_a_rule_id_links_to_the_rules_page_which_shows_its_passage(open_dashboard, voila_url):
    page = open_dashboard("crew-task-judge", "task=78&lang=ja")
    link = page.locator(".crew-task-status a.deepsea-rule-link")
    link.first.wait_for(timeout=60000)
    assert link.first.get_attribute("href") == "rules.ipynb?rule=crew.task.judge&lang=ja"
    page.goto(f"{voila_url}/voila/render/rules.ipynb?rule=crew.task.judge&lang=ja", wait_until="domcontentloaded")
    chosen = page.locator(".deepsea-rulebook-chosen [data-rule='crew.task.judge']")
    chosen.wait_for(timeout=120000)
    assert "「" in page.locator(".deepsea-rulebook-chosen").inner_text()       # the passage, quoted
    body = page.locator(".deepsea-rulebook-body").inner_text()
    assert "crew.table.no-talk" in body and "テーブルのルール" in body
    assert page.locator(".deepsea-rulebook-body a.deepsea-rule-link").count() == 0   # no links to itself


def test_a_bot_reason_reads_in_game_words_with_its_rule_id_as_a_small_link(open_dashboard):
    """Issue 26.3: the bot's sentence carries no rule id; the id sits beside it, small, with a tooltip
    naming the rule, and links to the rules page (mission 3, seed 5: seat 3, a bot, chooses a task first)."""
    page = open_dashboard("crew-mission", "seed=5&players=4&mission=3&pace=0.05")
    link = page.locator(".deepsea-bot-move .deepsea-rule-ref a.deepsea-rule-link")   # the frame's bot line
    link.first.wait_for(timeout=120000)
    assert link.first.get_attribute("href").startswith("rules.ipynb?rule=bots.crew.")
    title = page.locator(".deepsea-bot-move .deepsea-rule-ref").first.get_attribute("title")
    assert title.startswith("Rule bots.crew.") and ": " in title
    # the line names the seat once, then the bot's reason in game words; the id only in the small reference
    line = page.locator(".deepsea-bot-move").first.inner_text()
    sentence = page.locator(".deepsea-bot-move").first.evaluate(
        "p => [...p.childNodes].filter(n => !(n.classList && n.classList.contains('deepsea-rule-ref')))"
        ".map(n => n.textContent).join('')")
    assert line.startswith("Seat") and "bots." not in sentence and "consistent" not in sentence
