"""A learner plays a whole Tranquility game against a bot by clicking the table's objects (issue 26).

Seat 0 is the learner, seat 1 the strongest bot (pace 0). Each turn the learner asks for the hint, which
marks its objects on the table (the card, the cell, the cards to discard: class ``deepsea-hinted``), and
then clicks exactly those objects — card, cell, discard toggles — and the action button. Every click is
answered by the kernel before the next one (a picked card is pressed, a picked cell selected, a move is a
new log line); nothing waits a fixed time. Once, on purpose, the learner clicks an occupied cell: the
refusal appears right under the grid and nothing changes. Once the learner clicks "Undo": the table is back
where they decided, the bot's answer taken back too. At the end the result is shown once, and every line of
the log names its seat, except the table's own events that concern every seat alike.

A second game (solo, so the code names no card another seat discarded face down) is reopened from its
share link in a new page: the same cells, the same log, the same hand.
"""

import pytest
from conftest import FRAME_HINT_CURRENT, FRAME_SETTLED  # tests/browser/conftest.py

pytestmark = pytest.mark.browser

GAME = "players=2&seed=1&variant=poseidon&pace=0"   # a short game (Poseidon sets 12 islands aside)
LOG_LINES = "document.querySelectorAll('.deepsea-table-log .deepsea-log li').length"
# the whole redraw on the page first: the status can arrive before the log (and the bot's move after ours)
MY_TURN_OR_OVER = f"""() => {FRAME_SETTLED} && (document.querySelector('.deepsea-result') ||
  (document.querySelector('.tranq-play, .tranq-split') &&
   document.querySelector('.deepsea-status-line[data-acting="0"]')))"""


def test_a_learner_plays_a_whole_game_by_clicking_the_table(open_dashboard, console_errors):
    page = open_dashboard("tranquility-game", GAME)
    grid, hand = page.locator(".tranq-grid"), page.locator(".tranq-hand")
    outcome = page.locator(".deepsea-result")

    def my_turn() -> bool:
        page.wait_for_function(MY_TURN_OR_OVER, timeout=60000)
        return outcome.count() == 0

    def click_and_wait(locator, condition: str) -> None:
        locator.click()
        page.wait_for_function(condition)

    # every cell is a button with its own words; a card is picked from the keyboard and keeps the focus
    assert my_turn()
    labels = grid.locator(".tranq-grid-cell").evaluate_all("bs => bs.map(b => b.tagName + ':' + b.getAttribute('aria-label'))")
    assert len(labels) == 36 and all(a.startswith("BUTTON:cell ") for a in labels), labels[:3]
    hand.locator(".tranq-card").first.focus()
    page.keyboard.press("Enter")
    page.wait_for_function("document.querySelector('.tranq-hand .tranq-card[data-key=\"card:0\"][aria-pressed=\"true\"]')")
    assert page.evaluate("document.activeElement.dataset.key") == "card:0"
    refused_once = False
    turns = 0
    while my_turn() and turns < 80:
        lines = page.evaluate(LOG_LINES)
        filled = grid.locator(".tranq-cell-filled")
        island = hand.locator(".tranq-card-island")
        if not refused_once and filled.count() and island.count() and page.locator(".tranq-play").count():
            # on purpose: a card, then a cell that already holds one — refused beside the grid, nothing changes
            click_and_wait(island.first, "document.querySelector('.tranq-hand .tranq-card-selected')")
            cell = filled.first
            key, before = cell.get_attribute("data-key"), cell.inner_text()
            cell.click(force=True)   # aria-disabled (a refused object): Playwright would not click it, a person can
            page.wait_for_function("document.querySelector('.tranq-grid .tranq-c-refusal').innerText.length > 0")
            refusal = grid.locator(".tranq-c-refusal").inner_text()
            assert refusal.startswith("✘") and f"Cell {key.split(':')[1]} " in refusal and before in refusal, refusal
            assert grid.locator(f'[data-key="{key}"]').inner_text() == before
            assert grid.locator(".tranq-cell-selected").count() == 0 and page.evaluate(LOG_LINES) == lines
            refused_once = True
        if turns == 2:
            # "Undo": the learner's last move and the bot's answer are taken back, one redraw, their turn again
            before_undo = grid.locator(".tranq-cell-filled").count()
            page.locator(".deepsea-undo").click()
            page.wait_for_function(f"{LOG_LINES} < {lines}")
            assert my_turn() and grid.locator(".tranq-cell-filled").count() < before_undo
            lines = page.evaluate(LOG_LINES)
        page.locator(".deepsea-hint").click()
        hint = page.locator(".deepsea-hint-line")
        page.wait_for_function(FRAME_HINT_CURRENT)                           # this position's hint
        assert hint.count() == 1                                             # the hint is shown once
        marks = int(hint.get_attribute("data-marks"))
        page.wait_for_function(f"document.querySelectorAll('.deepsea-hinted').length === {marks}")
        hinted_cell = grid.locator(".deepsea-hinted")
        hinted_card = hand.locator(".deepsea-hinted")
        if hinted_cell.count():                                              # a placement
            assert hinted_cell.count() == 1 and hinted_card.count() == 1
            click_and_wait(hinted_card, "document.querySelector('.tranq-hand .tranq-card-selected.deepsea-hinted')")
            assert "tranq-cell-legal" in hinted_cell.get_attribute("class")  # the hinted cell is a legal one
            click_and_wait(hinted_cell, "document.querySelector('.tranq-grid .tranq-cell-selected.deepsea-hinted')")
            action = ".tranq-play"
            picked = 2                                                       # the card and the cell
        elif hinted_card.count():                                            # the start or a finish card
            name = hinted_card.get_attribute("data-card")
            click_and_wait(hinted_card, "document.querySelector('.tranq-hand .tranq-card-selected.deepsea-hinted')")
            action = {"start": ".tranq-start", "finish": ".tranq-finish"}[name]
            picked = 1
        else:                                                                # discards only
            action = ".tranq-split" if page.locator(".tranq-split").count() else ".tranq-discard-two"
            picked = 0
        # the cards to discard, marked among the toggles (after the picks' redraw, every mark is back)
        page.wait_for_function(f"document.querySelectorAll('.tranq-discard.deepsea-hinted').length === {marks - picked}")
        toggles = page.locator(".tranq-discard.deepsea-hinted")
        for i in range(toggles.count()):
            click_and_wait(toggles.nth(i), f"document.querySelectorAll('.tranq-discard.deepsea-hinted.mod-active').length === {i + 1}")
        assert grid.locator(".tranq-c-refusal").inner_text() == "" and hand.locator(".tranq-c-refusal").inner_text() == ""
        page.locator(action).click()
        try:
            page.wait_for_function(f"{LOG_LINES} > {lines}")                  # the move is a new log line
        except Exception:                                                    # debugging aid: what the page showed
            pytest.fail(f"turn {turns}, {action}, {lines} lines: {page.locator('.deepsea-status-line').evaluate('e => e.outerHTML')} | "
                        f"{page.locator('.deepsea-hint-text').inner_text()} | {page.locator('.deepsea-refusal-line').all_inner_texts()} | "
                        f"{page.evaluate(LOG_LINES)} | {page.locator('.deepsea-log-body').evaluate('e => e.dataset.moves')}")
        page.wait_for_function("document.querySelectorAll('.deepsea-hinted').length === 0")   # marks cleared
        assert page.locator(".deepsea-refusal-line .deepsea-refusal").count() == 0   # no refusal beside the buttons
        turns += 1
    assert refused_once and turns >= 5
    # the result, shown once
    assert outcome.count() == 1
    result = outcome.inner_text().strip()
    assert result and page.locator("body").inner_text().count(result) == 1
    # every line of the log names its seat (the table's own events excepted)
    rows = page.locator(".deepsea-table-log .deepsea-log li").evaluate_all(
        "ls => ls.map(l => [l.querySelector('.deepsea-event-seat') !== null, (l.querySelector('.deepsea-rule') || {}).innerText || ''])")
    # the table's own events concern every seat alike (the deal, the variant, the two-player extra draw)
    table_wide = ("tranquility.setup.", "tranquility.variant.", "tranquility.start.two-player")
    assert rows and all(named or rule.startswith(table_wide) for named, rule in rows), rows
    assert sum(named for named, _ in rows) > turns
    assert console_errors == []


def test_a_shared_link_reopens_the_game_where_it_was_in_a_new_page(open_dashboard, voila_url, console_errors):
    page = open_dashboard("tranquility-game", "players=1&seed=3&pace=0")
    lines = page.evaluate(LOG_LINES)
    for _ in range(3):                     # three moves by "Hint" and "Play the hint"
        page.wait_for_function(FRAME_SETTLED)
        page.locator(".deepsea-hint").click()
        page.wait_for_function(FRAME_HINT_CURRENT)
        page.locator(".deepsea-play-hint").click()
        page.wait_for_function(f"{LOG_LINES} > {lines}")
        lines = page.evaluate(LOG_LINES)
    link = page.locator(".deepsea-share-link")
    page.wait_for_function("document.querySelector('.deepsea-share-link') && "
                           "document.querySelector('.deepsea-share-link').getAttribute('href').split('m%3D').length === 4")
    href = link.get_attribute("href")
    cells = page.locator(".tranq-grid .tranq-grid-cell").evaluate_all("bs => bs.map(b => b.innerText)")
    hand = page.locator(".tranq-hand .tranq-card").evaluate_all("bs => bs.map(b => b.dataset.card)")
    reopened = page.context.new_page()
    reopened.goto(f"{voila_url}/voila/render/tranquility-game.ipynb{href}", wait_until="domcontentloaded")
    reopened.wait_for_function(f"{LOG_LINES} === {lines}", timeout=120000)
    assert reopened.locator(".tranq-grid .tranq-grid-cell").evaluate_all("bs => bs.map(b => b.innerText)") == cells
    assert reopened.locator(".tranq-hand .tranq-card").evaluate_all("bs => bs.map(b => b.dataset.card)") == hand
    assert reopened.locator(".deepsea-share-link").get_attribute("href") == href   # the same game, the same code
    reopened.close()
    assert console_errors == []
