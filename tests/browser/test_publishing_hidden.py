"""Hidden information in the published per-seat views: another seat's cards never reach the browser.

For each hot-seat dashboard of a hidden-information game, the test rebuilds the same game from the same
URL parameters with the engine, so it knows every seat's hand, then checks what the browser holds: the
page's DOM (text and attributes) and every websocket frame the kernel sent (all widget state, including
widgets that are not displayed). A seat's own cards must be there; nobody else's may be.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

DASHBOARDS = Path(__file__).resolve().parents[2] / "dashboards"
SEED = 5


def need(name: str) -> None:
    if not (DASHBOARDS / f"{name}.ipynb").exists():
        pytest.skip(f"dashboards/{name}.ipynb has not landed yet")


def capture_frames(page) -> list[bytes]:
    frames: list[bytes] = []

    def on_socket(ws):
        ws.on("framereceived", lambda payload: frames.append(payload if isinstance(payload, bytes)
                                                             else payload.encode("utf-8")))

    page.on("websocket", on_socket)
    return frames


def dom_text(page) -> str:
    """Everything the view holds: rendered text plus its markup (attributes, hidden elements).

    Only the view's own element: the rest of the page is Voila's static scripts and styles."""
    root = page.locator(".deepsea-root").first
    return root.inner_text() + "\n" + root.evaluate("e => e.outerHTML")


def crew_tokens(card) -> list[re.Pattern]:
    forms = [str(card), card.text("en"), card.text("ja")]
    return [re.compile(r"(?<![A-Za-z0-9])" + re.escape(f) + r"(?![0-9])") for f in forms]


def test_crew_mission_page_holds_only_your_seat_while_bots_play(page, open_dashboard):
    """You at seat 0, three bots playing at a quick pace: while they take tasks, communicate and play,
    no card they still hold reaches the DOM or any websocket frame; the teacher's switch shows them."""
    need("crew-mission")
    from toolkit.crew.engine import ENGINE
    from toolkit.widgets.crew.mission import options_from_query

    frames = capture_frames(page)
    # Every card the page ever drew on the table or the board (played or communicated: public from then on).
    page.add_init_script("""
      window.__public = new Set();
      new MutationObserver(() => {
        document.querySelectorAll('.crew-table [data-card], .crew-board [data-card]')
          .forEach(e => window.__public.add(e.dataset.card));
      }).observe(document, {subtree: true, childList: true});
    """)
    page = open_dashboard("crew-mission", f"seed={SEED}&pace=0.1")
    cards = page.locator(".crew-hand button[data-card]")
    cards.first.wait_for(state="visible")
    seed, options = options_from_query({"seed": str(SEED)})
    state = ENGINE.new_state(seed, **options)
    assert sorted(cards.evaluate_all("bs => bs.map(b => b.dataset.card)")) == sorted(map(str, state.hand(0)))
    # let the bots act until the page waits for seat 0 (or the attempt ends), clicking for seat 0 twice
    for _ in range(2):
        # seat 0 lit, or nobody (the attempt is over), on the table frame's status line
        page.wait_for_function("() => !!document.querySelector('.deepsea-status-line[data-acting=\"0\"],"
                               " .deepsea-status-line[data-acting=\"\"]')", timeout=60000)
        token = page.locator(".crew-tasks button[data-task]")
        playable = page.locator(".crew-hand button.crew-c-playable")
        if token.count():
            token.first.click()
        elif playable.count():
            playable.first.click()
        page.wait_for_timeout(1500)
    page.wait_for_timeout(500)  # let trailing frames arrive
    text = dom_text(page)
    wire = b"\n".join(frames).decode("utf-8", "replace")
    # cards the other seats still hold now were never public: not on the page, never sent
    played = set(page.evaluate("() => [...window.__public]"))
    public = str(ENGINE.observe(state, 0))
    still_hidden = [c for s in range(1, state.seats) for c in state.hand(s)
                    if str(c) not in public and str(c) != "S4" and str(c) not in played]
    assert still_hidden, "nothing hidden to check"
    for card in still_hidden:
        for pattern in crew_tokens(card)[:2]:  # ASCII forms: the wire may escape Japanese
            found = pattern.search(wire)
            assert not found, (f"seat 0's page received another seat's {card} over the websocket: "
                               f"...{wire[max(found.start() - 300, 0):found.end() + 60]}...")
        for pattern in crew_tokens(card):
            assert not pattern.search(text), f"seat 0's page shows another seat's {card}"
    # the browser's saved missions (localStorage) hold ended attempts only: nothing of this game in progress
    stored = page.evaluate("() => JSON.stringify(Object.entries(localStorage))")
    if not page.locator('.deepsea-status-line[data-acting=""]').count():
        assert "seed=" not in stored, f"a game in progress reached the browser's storage: {stored[:300]}"
    for card in still_hidden:
        assert not crew_tokens(card)[0].search(stored), f"another seat's {card} reached the browser's storage"
    # the teacher's switch shows every hand, and says so on screen
    page.locator(".deepsea-show-all input").check()
    page.locator(".crew-show-all").wait_for()
    assert page.locator(".deepsea-show-all-warning").inner_text().strip()


def test_tranquility_game_keeps_hands_behind_the_curtain(page, open_dashboard):
    need("tranquility-game")
    from toolkit.tranquility.engine import ENGINE
    from toolkit.widgets.tranquility.game import options_from_query

    frames = capture_frames(page)
    page = open_dashboard("tranquility-game", f"seed={SEED}&seats=you,you")  # hot seat: the curtain
    page.locator(".tranq-reveal").first.wait_for(state="visible")
    seed, options = options_from_query({"seed": str(SEED)})
    state = ENGINE.new_state(seed, **options)
    actor = ENGINE.current_player(state)
    hands = {s: ENGINE.observe(state, s)["hand"] for s in range(state.players)}
    page.wait_for_timeout(500)

    def discard_classes(blob: str) -> set[str]:
        return set(re.findall(r"tranq-discard-(?!two)([A-Za-z0-9]+)", blob))

    # Behind the curtain, no seat's card is in the page or was ever sent to it.
    wire = b"\n".join(frames).decode("utf-8", "replace")
    assert discard_classes(wire) == set() and discard_classes(dom_text(page)) == set()
    assert page.locator(".tranq-hand .tranq-card").count() == 0

    page.locator(".tranq-reveal").first.click()
    page.locator(".tranq-discard").first.wait_for(state="visible")
    page.wait_for_timeout(500)
    shown = sorted(page.locator(".tranq-discard:not(.tranq-discard-two)").all_inner_texts())
    assert shown == sorted(hands[actor])
    wire = b"\n".join(frames).decode("utf-8", "replace")
    hidden = {c for s, h in hands.items() if s != actor for c in h} - set(hands[actor])
    assert discard_classes(wire) <= set(hands[actor]), "another seat's card was sent to the page"
    assert not (discard_classes(dom_text(page)) & hidden)
    cards = page.locator(".tranq-hand .tranq-card").evaluate_all("bs => bs.map(b => b.dataset.card)")
    assert sorted(cards) == sorted(hands[actor]) and not (set(cards) & hidden)
