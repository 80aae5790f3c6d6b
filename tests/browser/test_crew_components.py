"""The Crew components' page side in Chromium, without a kernel: the real ESM and CSS, rendered against a
stand-in for the widget model that holds the state the Python class produced and records what the page
sends. Fast (no Voila, no kernel start); the kernel round trip is covered by the dashboards' tests.

What is pinned: every card is a real ``<button>`` with an aria-label in the component's language and a
per-colour symbol; a click and the keyboard (Tab, then Enter or Space) send the same ``pick`` message;
the page never writes a trait; focus stays on the card after the kernel redraws; the trick table marks
leader and winner; task tokens carry their status as text and icon.
"""

from __future__ import annotations

import json

import pytest

from toolkit.widgets.components.crew import CardPicker, CrewHand, TaskTokens, TrickTable, _CSS, _ESM

pytestmark = pytest.mark.browser

HARNESS = """
async ([esm, css, state]) => {
  const style = document.createElement('style'); style.textContent = css; document.head.appendChild(style);
  const mod = await import(URL.createObjectURL(new Blob([esm], {type: 'text/javascript'})));
  const handlers = [];
  window.sent = []; window.writes = 0;
  window.model = {
    state, get: (k) => state[k], on: (e, f) => handlers.push(f), off: () => {},
    send: (m) => window.sent.push(m), set: () => { window.writes++; }, save_changes: () => { window.writes++; },
  };
  window.update = (patch) => { Object.assign(state, patch); handlers.forEach(f => f()); };
  const el = document.createElement('div'); el.id = 'root'; document.body.appendChild(el);
  mod.default.render({model: window.model, el});
}
"""


def synced(widget) -> dict:
    """The synced state the kernel would send (what the page's model holds)."""
    state = {k: v for k, v in widget.get_state().items() if k not in ("_esm", "_css")}
    return json.loads(json.dumps(state, default=str))


def mount(page, widget) -> None:
    page.set_content("<html><body></body></html>")
    page.evaluate(HARNESS, [_ESM, _CSS, synced(widget)])


def test_hand_buttons_labels_click_and_keyboard(page):
    hand = CrewHand(["B3", "G3", "Y7", "P7", "S2"], playable=["B3", "S2"], lang="ja")
    mount(page, hand)
    cards = page.locator("#root button.crew-c-card")
    assert cards.count() == 5
    assert page.locator('[data-card="P7"]').get_attribute("aria-label").startswith("ピンク7")
    assert page.locator('[data-card="P7"]').get_attribute("aria-disabled") == "true"
    assert page.locator('[data-card="S2"]').get_attribute("aria-label") == "潜水艦2"
    # every colour has its own symbol shape; the submarine its own look
    paths = {c: page.locator(f'[data-card="{c}"] svg path').get_attribute("d") for c in ("B3", "G3", "Y7", "P7", "S2")}
    assert len(set(paths.values())) == 5
    colours = {c: page.locator(f'[data-card="{c}"]').evaluate("e => getComputedStyle(e).backgroundColor")
               for c in ("B3", "G3", "Y7", "P7", "S2")}
    assert len(set(colours.values())) == 5
    page.locator('[data-card="G3"]').click(force=True)  # aria-disabled: the kernel will say why
    page.keyboard.press("Tab")            # focus moves to the next card: Y7
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")            # P7
    page.keyboard.press(" ")
    assert page.evaluate("window.sent") == [{"type": "pick", "card": c} for c in ("G3", "Y7", "P7")]
    assert page.evaluate("window.writes") == 0
    # a kernel redraw (e.g. the refusal of P7) keeps the keyboard focus on P7
    hand.receive({"type": "pick", "card": "P7"})
    page.evaluate("s => window.update(s)", synced(hand))
    assert page.evaluate("document.activeElement.dataset.card") == "P7"
    assert "ピンク7" in page.locator(".crew-c-refusal").inner_text()


def test_picker_shows_forty_cards_by_colour_with_order_badges(page):
    picker = CardPicker(["P9", "P7"], lang="en")
    mount(page, picker)
    assert page.locator("button.crew-c-card").count() == 40
    assert page.locator(".crew-c-picker-row").count() == 5
    assert page.locator('[data-card="P7"] .crew-c-badge').inner_text() == "2"
    assert page.locator('[data-card="P7"]').get_attribute("aria-pressed") == "true"
    assert page.locator('[data-card="B1"]').get_attribute("aria-pressed") == "false"
    page.locator('[data-card="S4"]').click()
    assert page.evaluate("window.sent") == [{"type": "pick", "card": "S4"}]


def test_trick_table_marks_leader_winner_and_previous_trick(page):
    table = TrickTable(lang="en")
    table.show(4, 1, ["P9", "P7", "Y2", "P8"], winner=1, previous=(0, ["B1", "B9", "B2", "B3"], 1),
               bottom=0, you=[0])
    mount(page, table)
    boxes = page.locator(".crew-c-trickbox")
    assert boxes.count() == 2
    current = boxes.nth(0)
    assert current.locator(".crew-c-leader").get_attribute("data-seat") == "1"
    assert current.locator(".crew-c-winner [data-card]").get_attribute("data-card") == "P9"
    assert current.locator(".crew-c-winner .crew-c-winbadge").inner_text() == "wins"
    assert current.locator('[data-card="Y2"]').get_attribute("aria-label") == "yellow 2, played by Seat 4"
    assert current.locator('[data-card="P9"]').get_attribute("aria-label") == "pink 9, played by Seat 2 — wins — led"
    assert "Previous trick" in boxes.nth(1).inner_text()
    # the viewer's seat is drawn at the bottom of the table
    you = current.locator(".crew-c-you").bounding_box()
    other = current.locator('[data-seat="2"]').bounding_box()
    assert you["y"] > other["y"]


def test_task_tokens_by_owner_status_and_click(page):
    tokens = TaskTokens(lang="en")
    tasks = [{"id": 3, "en": "win P9", "ja": "ピンク9", "owner": None, "status": "pending", "difficulty": 1,
              "prediction": None},
             {"id": 7, "en": "win a 6", "ja": "6", "owner": 2, "status": "done", "difficulty": 2, "prediction": None}]
    tokens.show(tasks, 4, selectable=[3])
    mount(page, tokens)
    assert page.locator('[data-owner="none"] button[data-task="3"]').count() == 1
    done = page.locator('[data-owner="2"] [data-task="7"]')
    assert done.get_attribute("data-status") == "done" and "✓" in done.inner_text()
    assert "done" in done.get_attribute("aria-label")
    page.locator('button[data-task="3"]').focus()
    page.keyboard.press("Enter")
    assert page.evaluate("window.sent") == [{"type": "pick", "task": 3}]
