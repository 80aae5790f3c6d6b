"""A whole Deep Blue game at the clickable table, played by a learner who clicks (issue 26): seat 0 asks for
the hint at each decision and clicks what the hint marks on the table; the policy bot plays seat 1 at pace 0.
Along the way: one illegal click on purpose (refusal shown, nothing changes), "Undo" clicked once (the
learner's move and the bot's answer taken back, the learner's turn again), the last dive stays on the dive
track until the next, every log line of a seat names it, and the result is shown once at the end.
A second test reopens a game from its share link in a new page: the same board, hand, log and code.
Screenshots (en, ja; 1200×900) go to /tmp/shots/deepblue-*.png."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import FRAME_HINT_CURRENT, FRAME_SETTLED  # tests/browser/conftest.py

pytestmark = pytest.mark.browser

SHOTS = Path("/tmp/shots")
QUERY = "seed=5&players=2&scenario=scattered-wealth&seats=you,policy&pace=0"
MAX_TURNS = 400


def _seatless_rules() -> set[str]:
    """Rule ids of events that belong to no seat (the market slides, a tile is revealed, the game ends), from
    bot games with the engine: every other log line must name its seat."""
    from toolkit.core.bots import play_out
    from toolkit.core.session import Session
    from toolkit.deepblue import ENGINE

    rules: set[str] = set()
    for seed in (1, 5):
        options = {"players": 2, "scenario": "scattered-wealth"}
        _state, moves = play_out(ENGINE, seed, ["policy", "policy"], **options)
        session = Session(ENGINE, seed, options)
        for move in moves:
            session.push(move)
        rules |= {e.rule for e in session.events if not isinstance(getattr(e, "seat", None), int)}
    return rules


LOG = ".deepsea-table-log .deepsea-log"
STATUS = ".deepsea-table-status"


def _wait_turn_or_end(page) -> bool:
    """Wait for the kernel: the learner's decision (the status lights seat 0) or the result; True if over."""
    # the whole redraw first: the status can reach the page before the log, the banner before the log
    page.wait_for_function(
        f"() => {FRAME_SETTLED} && (document.querySelector('.deepsea-result') || "
        "document.querySelector('.deepsea-status-line[data-acting=\"0\"]'))", timeout=120000)
    return page.locator(".deepsea-result").count() > 0


HINTED_KEYS = "[...document.querySelectorAll('.deepsea-hinted')].map(e => e.dataset.key)"


def _log_count(page) -> int:
    return page.locator(f"{LOG} li").count()


def test_a_learner_plays_a_whole_game_by_clicking_what_the_hint_marks(page, open_dashboard):
    page.set_viewport_size({"width": 1200, "height": 900})
    SHOTS.mkdir(exist_ok=True)
    page = open_dashboard("deep-blue-game", QUERY)
    page.locator('.deepblue-board-component button.db-c-offer').first.wait_for(state="visible", timeout=60000)
    # one illegal click on purpose: a market card seat 0 cannot pay for yet -> the engine's reason, no change
    refused = page.locator(".deepblue-market-component button.db-c-refused").first
    before = (_log_count(page), page.locator(STATUS).inner_text())
    refused.click(force=True)                         # aria-disabled: still a button that asks the kernel
    page.wait_for_function("() => document.querySelector('.deepblue-market-component .db-c-refusal')"
                           ".innerText.trim() !== ''", timeout=60000)
    assert (_log_count(page), page.locator(STATUS).inner_text()) == before
    hinted_once = False
    last_dive_checks = 0
    undone = False
    for turn in range(MAX_TURNS):
        if _wait_turn_or_end(page):
            break
        if turn == 3 and not undone:
            # "Undo": the learner's last move and the bots' answers are taken back, their turn again
            count, board = _log_count(page), page.locator(".deepblue-board-component").inner_text()
            page.locator("button.deepsea-undo").click()
            page.wait_for_function(f"() => document.querySelectorAll('{LOG} li').length < {count}", timeout=60000)
            assert not _wait_turn_or_end(page) and _log_count(page) < count      # seat 0 decides again
            assert page.locator(".deepsea-refusal-line .deepsea-refusal").count() == 0
            undone = board is not None
        moves = page.locator(".deepsea-status-line").get_attribute("data-moves")
        page.locator("button.deepsea-hint").click()
        # this position's hint and its first mark ("pay" is drawn once the card is picked), or "no hint" (stay
        # in the dive: a bot leads it) — or a bot
        # moved meanwhile (the hint is dropped with the position it was for): then the next decision
        try:
            page.wait_for_function(
                f"() => document.querySelector('.deepsea-status-line').dataset.moves !== '{moves}' || ({FRAME_HINT_CURRENT} && "
                "(document.querySelector('.deepsea-hinted') || "
                "document.querySelector('.deepsea-hint-text').innerText.includes('No hint')))",
                timeout=60000)
        except Exception:                                  # debugging aid: what the page showed
            pytest.fail(f"turn {turn}, moves {moves}: {page.locator('.deepsea-status-line').evaluate('e => e.outerHTML')} | "
                        f"{page.locator('.deepsea-hint-text').evaluate('e => e.innerHTML')} | "
                        f"{page.evaluate(HINTED_KEYS)}")
        if page.locator(".deepsea-status-line").get_attribute("data-moves") != moves:
            continue
        keys = page.evaluate("[...document.querySelectorAll('.deepsea-hinted')].map(e => e.dataset.key)")
        if not keys:                                  # the hint says stay (a bot leads the dive): wait for it
            page.wait_for_function(f"() => document.querySelector('.deepsea-status-line').dataset.moves !== '{moves}'",
                                   timeout=120000)
            continue
        assert 1 <= len(keys) <= 2, keys                                    # the hint marks its object
        # as the hint reads: the boat before its site, the market card before "pay" (the page's order differs)
        keys.sort(key=lambda k: (not k.startswith(("boat:", "slot:")), k == "pay"))
        if not hinted_once:
            hinted_once = True
            page.screenshot(path=str(SHOTS / "deepblue-hint-en.png"))
        dive_text = page.locator(".deepblue-dive-component").inner_text()
        if page.locator(".deepblue-dive-component .db-c-diver").count() == 0 and \
                "deepblue.dive.score" in page.locator(LOG).inner_text():
            assert "Last dive" in dive_text, dive_text                     # the last dive stays in view
            last_dive_checks += 1
        count = _log_count(page)
        for key in keys:
            target = page.locator(f'.deepsea-hinted[data-key="{key}"]')
            page.wait_for_function(
                # the key marked again after the last click's redraw, or the move made by that click (a
                # redraw clears the marks and draws them again: "no mark" alone is no answer)
                "(k) => document.querySelector(`.deepsea-hinted[data-key=\"${k}\"]`) || "
                f"document.querySelectorAll('{LOG} li').length > {count}", arg=key, timeout=60000)
            if target.count() == 0:
                break                                  # the move was made by the click before (one payment)
            if target.first.get_attribute("aria-disabled") == "true":   # debugging aid: what went wrong
                pytest.fail(f"marked but refused: {key} {keys} "
                            f"{page.locator('.deepsea-hint-text').inner_text()} | "
                            f"{page.locator(STATUS).inner_text()} | "
                            f"{page.locator(f'{LOG} li').all_inner_texts()[-8:]}")
            target.first.click()
            if key.startswith("boat:"):                # a choice, not a move: the boat is chosen
                page.wait_for_function(
                    "(k) => document.querySelector(`.deepblue-board-component [data-key=\"${k}\"]`)"
                    ".classList.contains('db-c-selected')", arg=key, timeout=60000)
        # every click on a marked object made a move: the log grew and the marks went
        page.wait_for_function(f"() => document.querySelectorAll('{LOG} li').length > {count}",
                               timeout=60000)
    else:
        pytest.fail(f"no end after {MAX_TURNS} learner decisions")
    assert last_dive_checks > 0 and undone
    text = page.locator(".deepsea-root").first.inner_text()
    assert text.count("Result:") == 1                                         # the result, once
    assert page.locator(".deepsea-status-line").get_attribute("data-acting") == ""   # nobody lit
    # every log line of a seat names it ("You: …", "Seat 2 (bot: best play): …")
    seatless = _seatless_rules()
    lines = page.evaluate(f"[...document.querySelectorAll('{LOG} li')].map(li => ["
                          "!!li.querySelector('.deepsea-event-seat'), "
                          "(li.querySelector('.deepsea-rule') || {}).innerText || '', li.innerText])")
    named = [text for has_seat, _rule, text in lines if has_seat]
    assert len(named) > 50 and all(t.startswith(("You:", "Seat 2 (bot: best play):")) for t in named), named[:3]
    assert all(rule in seatless for has_seat, rule, _t in lines if not has_seat), \
        [t for has_seat, rule, t in lines if not has_seat and rule not in seatless][:3]
    page.locator(".deepsea-result").scroll_into_view_if_needed()             # the banner in the picture
    page.screenshot(path=str(SHOTS / "deepblue-end-en.png"))
    page.locator(".deepsea-lang button", has_text="日本語").click()
    page.wait_for_function(f"() => document.querySelector('{STATUS}').innerText.includes('ゲームは終わりました') && "
                           f"document.querySelector('.deepsea-log-body[data-lang=\"ja\"]') && {FRAME_SETTLED}",
                           timeout=60000)
    assert page.locator(".deepsea-root").first.inner_text().count("結果:") == 1
    page.locator(".deepsea-result").scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / "deepblue-end-ja.png"))


def test_a_shared_link_reopens_the_game_where_it_was_in_a_new_page(open_dashboard, voila_url, console_errors):
    page = open_dashboard("deep-blue-game", "seed=4&players=2&seats=you,policy&pace=0")
    page.locator('.deepblue-board-component button.db-c-offer').first.wait_for(state="visible", timeout=60000)
    for _ in range(4):                     # four of the learner's moves by "Hint" and "Play the hint"
        _wait_turn_or_end(page)
        count = _log_count(page)
        page.locator("button.deepsea-hint").click()
        page.locator(".deepsea-hint-line").wait_for(state="visible")
        page.locator("button.deepsea-play-hint").click()
        page.wait_for_function(f"() => document.querySelectorAll('{LOG} li').length > {count}", timeout=60000)
    _wait_turn_or_end(page)
    href = page.locator(".deepsea-share-link").get_attribute("href")
    lines = _log_count(page)
    assert "code=" in href and lines > 4
    board = page.locator(".deepblue-board-component").inner_text()
    hand = page.locator(".deepblue-hand-component .db-c-card").evaluate_all("cs => cs.map(c => c.dataset.card)")
    status = page.locator(STATUS).inner_text()
    reopened = page.context.new_page()
    reopened.goto(f"{voila_url}/voila/render/deep-blue-game.ipynb{href}", wait_until="domcontentloaded")
    reopened.wait_for_function(f"() => document.querySelectorAll('{LOG} li').length === {lines}", timeout=120000)
    assert reopened.locator(".deepblue-board-component").inner_text() == board
    assert reopened.locator(".deepblue-hand-component .db-c-card").evaluate_all(
        "cs => cs.map(c => c.dataset.card)") == hand and hand
    assert reopened.locator(STATUS).inner_text() == status
    assert reopened.locator(".deepsea-share-link").get_attribute("href") == href   # the same game, the same code
    reopened.close()
    assert console_errors == []
