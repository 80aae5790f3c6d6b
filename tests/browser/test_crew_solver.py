"""The Crew solver dashboards in Voila + Chromium: solve a shared position and replay it; read the
difficulty table and rerun one task live."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser


def _wait_text(page, selector: str, text: str, timeout: int = 60000) -> None:
    page.wait_for_function(
        "([sel, txt]) => { const el = document.querySelector(sel); return el && el.innerText.includes(txt); }",
        arg=[selector, text], timeout=timeout)


def test_winnable_built_by_clicking_solved_and_stepped_as_cards(open_dashboard):
    """A teacher's link (four players, deal 1, seat 0 must win the pink 3); the learner moves a card from
    seat 0's hand to seat 1 by clicking, gives task 17 to seat 2 by clicking, solves, steps the winning line
    on the table; the link keeps the codes. Typed codes still work, and a malformed one is refused."""
    from toolkit.crew.cards import deal

    page = open_dashboard("crew-winnable", "players=4&seed=1&tasks=0:16")
    page.locator('.crew-solver-picker button[data-card][aria-pressed="true"]').first.wait_for()
    card = str(deal(4, 1)[0][0])
    page.locator(f'.crew-solver-picker button[data-card="{card}"]').click()           # out of seat 0
    page.wait_for_function("c => !document.querySelector(`.crew-solver-hand-cards-0 [data-card='${c}']`)",
                           arg=card)
    page.locator(".crew-solver-build-seat button", has_text="Seat 2").click()
    page.locator(f'.crew-solver-picker button[data-card="{card}"]').click()           # into seat 1
    page.locator(f'.crew-solver-hand-cards-1 [data-card="{card}"]').wait_for()
    _wait_text(page, ".crew-solver-build-seat", "Seat 2 · 11")
    # a card in another seat's hand is refused, not moved
    other = str(deal(4, 1)[2][0])
    page.locator(f'.crew-solver-picker button[data-card="{other}"]').click(force=True)   # aria-disabled
    _wait_text(page, ".crew-solver-picker .crew-c-refusal", "already used")
    # the keyboard alone: Space on a focused card takes it out of seat 1, Enter puts it back
    page.locator(f'.crew-solver-picker button[data-card="{card}"]').focus()
    page.keyboard.press("Space")
    _wait_text(page, ".crew-solver-build-seat", "Seat 2 · 10")
    page.locator(f'.crew-solver-picker button[data-card="{card}"]').focus()
    page.keyboard.press("Enter")
    _wait_text(page, ".crew-solver-build-seat", "Seat 2 · 11")
    page.locator(".crew-solver-task-choice select").select_option(index=16)   # "#17 …"
    page.locator(".crew-solver-task-owner button", has_text="2").click()
    page.locator(".crew-solver-task-add").click()
    page.locator('.crew-solver-task-tokens [data-task="17"]').wait_for()
    assert "hands=0:" in page.locator(".crew-solver-link a").get_attribute("href")
    page.locator(".crew-solver-solve").click()
    _wait_text(page, ".crew-solver-verdict", "innable")
    table = page.locator(".crew-solver-line-table")
    table.locator(".crew-c-caption").wait_for()
    if "Winnable" in page.locator(".crew-solver-verdict").inner_text():
        caption = table.locator(".crew-c-caption").inner_text()
        page.locator(".crew-solver-line-back").click()
        page.wait_for_function("c => document.querySelector('.crew-solver-line-table .crew-c-caption').innerText !== c",
                               arg=caption)
        page.locator(".crew-solver-line-back").focus()          # the keyboard steps it too
        page.keyboard.press("Enter")
        _wait_text(page, ".crew-solver-trick", "Trick 1")
    page.locator(".deepsea-lang button", has_text="日本語").click()
    _wait_text(page, ".crew-solver-verdict", "達成")
    # power users: the typed boxes are still there, and a malformed task box is refused in the page
    page.locator(".crew-solver-type").click()
    page.locator(".crew-solver-tasks-1 input").fill("abc")
    page.locator(".crew-solver-solve").click()
    _wait_text(page, ".deepsea-message", "abc")


def test_winnable_at_two_players_shows_tonojas_columns_and_solves_with_them(open_dashboard):
    """A pair's link (two players, deal 3): TONOJA's seven columns drawn face up over face down as
    ``deal_tonoja`` laid them, TONOJA never offered as captain; the learner gives task 18 to TONOJA by
    clicking, solves, and the line names TONOJA; Japanese follows; a malformed column is refused in the page;
    axe finds no serious problem on the two-player page in either language."""
    from test_accessibility import _axe_problems

    from toolkit.crew.cards import deal_tonoja

    page = open_dashboard("crew-winnable", "players=2&seed=3&tasks=0:16")
    page.locator(".crew-solver-columns .crew-solver-column").first.wait_for()
    _hands, columns = deal_tonoja(3)
    shown = page.eval_on_selector_all(".crew-solver-column", "els => els.map(e => [e.dataset.faceUp, "
                                      "e.querySelector('[data-face-down]').dataset.faceDown])")
    assert shown == [[str(up), str(down)] for down, up in columns]
    assert "double dummy" in page.locator(".crew-solver-tonoja-note").inner_text()
    assert page.locator(".crew-solver-captain select option").count() == 2
    page.locator(".crew-solver-task-choice select").select_option(index=17)   # "#18 Win the blue 4."
    page.locator(".crew-solver-task-owner button", has_text="TONOJA").click()
    page.locator(".crew-solver-task-add").click()
    page.locator('.crew-solver-task-tokens [data-task="18"]').wait_for()
    assert "tasks=0:16;2:18" in page.locator(".crew-solver-link a").get_attribute("href").replace("%3B", ";")
    page.locator(".crew-solver-solve").click()
    _wait_text(page, ".crew-solver-verdict", "Winnable")     # (deal 3: TONOJA wins its blue 4)
    _wait_text(page, ".crew-solver-trick", "TONOJA wins")
    problems = [f"[en] {p}" for p in _axe_problems(page)]
    page.locator(".deepsea-lang button", has_text="日本語").click()
    _wait_text(page, ".crew-solver-tonoja-note", "ダブルダミー")
    problems += [f"[ja] {p}" for p in _axe_problems(page)]
    assert not problems, "\n".join(problems)
    page.locator(".crew-solver-type").click()
    page.locator(".crew-solver-hand-2 input").fill("G5/")
    page.locator(".crew-solver-solve").click()
    _wait_text(page, ".deepsea-message", "TONOJAの列を読めません")



def test_winnable_at_two_players_tonojas_columns_built_by_clicking_and_solved(open_dashboard):
    """The learner chooses TONOJA in "Build the hand of", empties its columns, clicks the seven face-up cards
    (some with the keyboard), switches "Clicks place" to face-down cards with the keyboard and clicks seven
    face-down cards — paired otherwise than dealt, the first under the last column chosen in "Under column". The page draws each column as it grows, badges the
    picker's cards with their column, the link carries the columns, and the verdict is the one the solver
    gives for the same columns typed."""
    import urllib.parse

    from toolkit.crew.cards import deal_tonoja
    from toolkit.widgets.crew_solver import WinnableView, columns_text

    _hands, dealt = deal_tonoja(3)
    ups = [up for _down, up in dealt]
    downs = [down for down, _up in dealt]
    pairs = [(downs[(k + 1) % 7], ups[k]) for k in range(7)]          # each face-down card one column on
    typed = WinnableView.from_query("players=2&seed=3&tasks=0:16;2:18", background=False)
    typed._hands[2].value = columns_text(pairs)
    typed.start_solve()
    expected = typed.solution.verdict("en")

    page = open_dashboard("crew-winnable", "players=2&seed=3&tasks=0:16;2:18")
    page.locator(".crew-solver-columns .crew-solver-column").first.wait_for()
    page.locator(".crew-solver-build-seat button", has_text="TONOJA").click()
    page.locator(".crew-solver-tonoja-clear").click()
    page.locator(".crew-solver-hand-cards-2[data-count='0']").wait_for()
    _wait_text(page, ".crew-solver-tonoja-help", "first column that has no face-down card")
    for k, up in enumerate(ups):
        button = page.locator(f'.crew-solver-picker button[data-card="{up}"]')
        if k % 3 == 1:                                                  # the keyboard alone does it too
            button.focus()
            page.keyboard.press("Enter")
        else:
            button.click()
        page.locator(f".crew-solver-column[data-column='{k + 1}'][data-face-up='{up}']").wait_for()
    page.locator(".crew-solver-tonoja-face button", has_text="Face-down").focus()
    page.keyboard.press("Space")
    page.locator(".crew-solver-column[data-column='1'] .crew-solver-next-place").wait_for()
    # the last column first, chosen in "Under column"; then the others, left to right
    page.locator(".crew-solver-tonoja-under select").select_option(label=f"column 7 (under {ups[6].text('en')})")
    page.locator(".crew-solver-column[data-column='7'] .crew-solver-next-place").wait_for()
    for k in [6, 0, 1, 2, 3, 4, 5]:
        down, up = pairs[k]
        page.locator(f'.crew-solver-picker button[data-card="{down}"]').click()
        page.locator(f".crew-solver-column[data-face-up='{up}'] [data-face-down='{down}']").wait_for()
    shown = page.eval_on_selector_all(".crew-solver-column", "els => els.map(e => [e.dataset.faceUp, "
                                      "e.querySelector('[data-face-down]').dataset.faceDown])")
    assert shown == [[str(up), str(down)] for down, up in pairs]
    first_down = page.locator(f'.crew-solver-picker button[data-card="{pairs[0][0]}"]')
    assert first_down.locator(".crew-c-badge.crew-c-badge-low").inner_text() == "1"
    assert "column 1, face down" in first_down.get_attribute("aria-label")
    _wait_text(page, ".crew-solver-build-seat", "TONOJA · 14")
    href = urllib.parse.unquote(page.locator(".crew-solver-link a").get_attribute("href"))
    assert "2:" + columns_text(pairs).replace(" ", "-") in href
    page.locator(".crew-solver-solve").click()
    _wait_text(page, ".crew-solver-verdict", expected)
    page.locator(".deepsea-lang button", has_text="日本語").click()
    _wait_text(page, ".crew-solver-tonoja-face", "裏向き（列の下へ）")
    _wait_text(page, ".crew-solver-picker", "TONOJAの列に置く")

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
