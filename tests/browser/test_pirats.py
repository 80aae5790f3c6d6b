"""Sewer Pirats dashboards in Voila + Chromium: one main interaction per dashboard."""

from __future__ import annotations

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

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


def test_game_plays_a_draw_and_the_bots_answer(open_dashboard):
    page = open_dashboard("pirats-game", "seed=3&players=3&pace=0")
    _wait_text(page, ".deepsea-table-status", "Your turn")
    _wait_text(page, ".pir-hand", "Seat 1's hand")
    page.locator("button.pir-deck-pile").click()
    _wait_text(page, ".deepsea-log", "Seat 1 drew a card from the deck")
    page.locator("button.pir-deck-pile").click()
    # seats 1 and 2 are bots: they move on their own, say why, and it is seat 0's turn again
    _wait_text(page, ".deepsea-bot-line", "(greedy)")
    page.wait_for_function("() => document.querySelector('.deepsea-log').innerText.includes('Seat 3')",
                           timeout=60000)
    _wait_text(page, ".deepsea-table-status", "Your turn")
    assert "Seat 1's hand" in page.locator(".pir-hand").inner_text()


def test_a_learner_plays_a_whole_game_against_a_bot_by_clicking(page, open_dashboard):
    frames: list[bytes] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda p: frames.append(
        p if isinstance(p, bytes) else p.encode("utf-8"))))
    page = open_dashboard("pirats-game", "seed=2&players=2&pace=0")
    _wait_text(page, ".deepsea-table-status", "Your turn")
    page.locator(".pirats-all-moves .jupyter-widget-Collapse-header").click()   # the list, for the hint's move
    clicks = 0
    for _ in range(300):
        status = page.locator(".deepsea-table-status").inner_text()
        if "over" in status:
            break
        if "Your turn" not in status:
            page.wait_for_timeout(200)
            continue
        before = page.locator(".deepsea-log").inner_text()
        try:   # the status may be read a moment before the rest of the redraw (the buttons) has arrived
            page.locator("button.deepsea-hint").click(timeout=5000)
            page.locator(".deepsea-hint-text .deepsea-hint-line").wait_for(timeout=10000)
        except PlaywrightTimeout:
            continue
        page.locator(".pirats-apply").click()
        clicks += 1
        page.wait_for_function("old => document.querySelector('.deepsea-log').innerText !== old", arg=before,
                               timeout=60000)
    _wait_text(page, ".deepsea-result-banner", "Result")
    assert clicks > 10
    page.wait_for_timeout(500)
    # the bot's seat never had its hand, its moves or the hints in the page or on the wire
    root = page.locator(".deepsea-root").first
    text = root.inner_text() + root.evaluate("e => e.outerHTML")
    wire = b"\n".join(frames).decode("utf-8", "replace")
    for blob in (text, wire):
        assert "Seat 2's hand" not in blob and "Seat 2&#x27;s hand" not in blob
        assert "changes for seat 2" not in blob



def test_game_moves_a_figure_by_clicking_a_space(open_dashboard):
    page = open_dashboard("pirats-game", "seed=3&players=3&step=1&variant=standard")   # species: a raccoon
    _wait_text(page, ".deepsea-table-status", "Your turn")
    page.locator(".pir-seat[data-seat='0'] button.pir-figure[data-figure='raccoon']").click()
    page.locator("button.pir-space-cat-1.pir-target").click()
    _wait_text(page, ".deepsea-log", "Seat 1 moved the raccoon on the cat ship")
    page.wait_for_function("() => (document.querySelector('.pir-space-cat-1') || {getAttribute: () => ''})"
                           ".getAttribute('aria-label').includes('Seat 1 (red): raccoon')", timeout=60000)
    # step mode: the bot waits for "Next move"
    _wait_text(page, ".deepsea-table-status", "Next move")


# ---- point, don't type (issue #17): the table, the pile and the ship are the controls ------------------------

def _log_grows(page, before: str) -> None:
    page.wait_for_function("old => document.querySelector('.deepsea-log').innerText !== old", arg=before,
                           timeout=60000)


def test_part_of_a_seeded_game_played_by_clicks_only(open_dashboard):
    """Seat 1 draws a face-up card and one from the deck, the bots move (step mode: "Next move"), then seat 1
    clicks a figure and a lit space. The move list stays collapsed throughout."""
    page = open_dashboard("pirats-game", "seed=3&players=3&step=1&variant=standard")   # species: a raccoon
    _wait_text(page, ".deepsea-table-status", "Your turn")
    assert not page.locator(".pirats-moves select").is_visible()        # the list is the collapsed fallback
    before = page.locator(".deepsea-log").inner_text()
    page.locator("button.pir-charm[data-card='bird']").first.click()
    _wait_text(page, ".deepsea-log", "Seat 1 took the face-up bird card")
    _wait_text(page, ".pir-prompt", "second card")                     # the table says what to click next
    page.locator("button.pir-deck-pile").click()
    page.wait_for_function("() => !document.querySelector('button.pir-deck-pile')", timeout=60000)
    # the status line is its own widget and may reach the page after the table: wait until it says the
    # bots' turn, else a stale "Your turn" ends the loop below before the bots have moved (seen under load)
    page.wait_for_function("() => !document.querySelector('.deepsea-table-status').innerText.includes('Your turn')",
                           timeout=60000)
    for _ in range(12):                                                  # the two bots: one click a move
        if "Your turn" in page.locator(".deepsea-table-status").inner_text():
            break
        before = page.locator(".deepsea-log").inner_text()
        page.locator(".deepsea-next-move").click()
        _log_grows(page, before)
        page.wait_for_timeout(200)
    _wait_text(page, ".deepsea-table-status", "Your turn")
    figure = page.locator(".pir-seat[data-seat='0'] button.pir-figure").first
    name = figure.get_attribute("data-figure")
    figure.click()
    target = page.locator("button.pir-space.pir-target").first
    target.wait_for(timeout=60000)
    ship = target.get_attribute("class").split("pir-space-")[1].split("-")[0]
    before = page.locator(".deepsea-log").inner_text()
    target.click()
    _log_grows(page, before)
    assert f"moved the {name.split('#')[0]} on the {ship} ship" in page.locator(".deepsea-log").inner_text()


def test_the_table_works_from_the_keyboard(open_dashboard):
    """Cards and the deck are Tab stops (real buttons) and Enter/Space play them; focus stays on the table."""
    page = open_dashboard("pirats-game", "seed=3&players=3&step=1&variant=standard")   # species: a raccoon
    _wait_text(page, ".deepsea-table-status", "Your turn")
    page.locator("button.deepsea-new-game").focus()
    for _ in range(60):                                                  # Tab from New game to the deck
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.classList.contains('pir-deck-pile')"):
            break
    else:
        raise AssertionError("the deck is not reachable with Tab")
    before = page.locator(".deepsea-log").inner_text()
    page.keyboard.press("Enter")
    _log_grows(page, before)
    assert "Seat 1 drew a card from the deck" in page.locator(".deepsea-log").inner_text()
    card = page.locator("button.pir-charm[data-key^='row:']").first
    card.focus()
    before = page.locator(".deepsea-log").inner_text()
    page.keyboard.press(" ")
    _log_grows(page, before)
    assert "Seat 1 took the face-up" in page.locator(".deepsea-log").inner_text()


def test_the_scoring_pile_is_built_by_clicks_and_keys(open_dashboard):
    page = open_dashboard("pirats-scoring", "tokens=fries%202")
    _wait_text(page, ".pirats-total", "Total: 2 points")
    page.locator("button.pir-token[data-token='ketchup']").click()
    _wait_text(page, ".pirats-total", "Total: 7 points")
    page.locator("button.pir-token[data-token='fries 3']").focus()
    page.keyboard.press("Enter")
    _wait_text(page, ".pirats-total", "Total: 15 points")
    _wait_text(page, ".pirats-share", "tokens=fries%202,ketchup,fries%203")
    page.locator(".pir-pile button.pir-token").first.click()          # take fries 2 off again
    _wait_text(page, ".pirats-total", "Total: 8 points")


def test_the_boarding_position_is_set_up_by_clicking_the_ship(open_dashboard):
    page = open_dashboard("pirats-boarding", "occupied=&start=0&cards=1")
    page.locator("button.pir-space[data-space='1']").click()            # another pirat on 1
    page.locator("button.pir-space[data-space='2'][data-who='empty']").wait_for(timeout=60000)
    page.locator("button.pir-space[data-space='2']").click()            # and on 2
    _wait_text(page, ".pirats-share", "occupied=1,2&start=0&cards=1")
    page.locator(".pirats-move").click()
    _wait_text(page, ".pirats-result", "lands on space 3")
    page.locator("button.pir-charm[data-key='cards:3']").click()        # three cards: past the crew spaces
    _wait_text(page, ".pirats-share", "cards=3")
    page.locator(".pirats-move").click()
    _wait_text(page, ".deepsea-message", "pirats.move.no-captain")


def _hands_on_the_wire(frames: list[bytes]) -> list[str]:
    """Every hand the table component was sent: its seat, or "{}" for none (the public view)."""
    import re
    wire = b"\n".join(frames).decode("utf-8", "replace")
    return re.findall(r'"hand":\s*\{(?:"seat":\s*(\d+))?', wire)


def test_a_bot_table_never_sends_a_hand_and_yours_only_your_own(page, open_dashboard):
    """Hidden information on the wire: with three bots playing on their own, the table's component is sent
    no hand at all (the public view); at a table where you are seat 1, only seat 1's."""
    frames: list[bytes] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda p: frames.append(
        p if isinstance(p, bytes) else p.encode("utf-8"))))
    page = open_dashboard("pirats-game", "seed=5&players=3&seats=greedy,cautious,random&pace=0")
    page.wait_for_function("() => document.querySelector('.deepsea-log').innerText.includes('Seat 3')",
                           timeout=60000)
    page.wait_for_timeout(3000)                                         # the bots keep playing meanwhile
    sent = _hands_on_the_wire(frames)
    assert sent and set(sent) == {""}, sent                             # the trait went out, always empty
    assert page.locator(".pir-hand").count() == 0
    frames.clear()
    page = open_dashboard("pirats-game", "seed=5&players=3&pace=0")
    _wait_text(page, ".pir-hand", "Seat 1's hand")
    page.locator("button.pir-deck-pile").click()
    page.locator("button.pir-deck-pile").click()
    page.wait_for_function("() => document.querySelector('.deepsea-log').innerText.includes('Seat 3')",
                           timeout=60000)
    _wait_text(page, ".deepsea-table-status", "Your turn")
    sent = _hands_on_the_wire(frames)
    assert sent and set(sent) == {"0"}, sent
