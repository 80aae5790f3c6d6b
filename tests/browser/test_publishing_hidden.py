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


def test_crew_mission_page_holds_only_the_shown_seats_hand(page, open_dashboard):
    need("crew-mission")
    from toolkit.crew.engine import ENGINE
    from toolkit.widgets.crew.mission import options_from_query

    frames = capture_frames(page)
    page = open_dashboard("crew-mission", f"seed={SEED}")
    page.locator(".crew-hand-card").first.wait_for(state="visible")
    seed, options = options_from_query({"seed": str(SEED)})
    state = ENGINE.new_state(seed, **options)
    seat = ENGINE.current_player(state)  # the view opens at the seat that acts first
    shown = sorted(page.locator(".crew-hand-card").all_inner_texts())
    assert shown == sorted(map(str, state.hand(seat)))

    public = str(ENGINE.observe(state, seat))  # tasks may name a card: that text is public
    others = [c for s in range(state.seats) if s != seat for c in state.hand(s) if str(c) not in public]
    assert others, "nothing hidden to check"
    page.wait_for_timeout(500)  # let trailing frames arrive
    text = dom_text(page)
    wire = b"\n".join(frames).decode("utf-8", "replace")
    for card in others:
        for pattern in crew_tokens(card)[:2]:  # ASCII forms: the wire may escape Japanese
            assert not pattern.search(wire), f"seat {seat}'s page received another seat's {card} over the websocket"
        for pattern in crew_tokens(card):
            assert not pattern.search(text), f"seat {seat}'s page shows another seat's {card}"

    # Switching the seat (hot seat) replaces the hand: the previous seat's cards leave the DOM.
    other_seat = (seat + 1) % state.seats
    page.locator(".crew-seat button", has_text=str(other_seat)).first.click()
    page.wait_for_function(
        "want => [...document.querySelectorAll('.crew-hand-card')].map(b => b.innerText).sort().join() === want",
        arg=",".join(sorted(map(str, state.hand(other_seat)))), timeout=30000)
    text = dom_text(page)
    public = str(ENGINE.observe(state, other_seat))
    for card in state.hand(seat):
        if str(card) not in public:
            assert not crew_tokens(card)[0].search(text), f"{card} of seat {seat} stayed in the page"


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
    assert page.locator(".tranq-hand option").count() == 0

    page.locator(".tranq-reveal").first.click()
    page.locator(".tranq-discard").first.wait_for(state="visible")
    page.wait_for_timeout(500)
    shown = sorted(page.locator(".tranq-discard:not(.tranq-discard-two)").all_inner_texts())
    assert shown == sorted(hands[actor])
    wire = b"\n".join(frames).decode("utf-8", "replace")
    hidden = {c for s, h in hands.items() if s != actor for c in h} - set(hands[actor])
    assert discard_classes(wire) <= set(hands[actor]), "another seat's card was sent to the page"
    assert not (discard_classes(dom_text(page)) & hidden)
    options = set(page.locator(".tranq-hand option").all_inner_texts())
    assert options <= set(hands[actor]) and not (options & hidden)
