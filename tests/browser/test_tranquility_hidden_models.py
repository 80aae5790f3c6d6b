"""After the hot-seat curtain, the page's widget manager holds none of the previous seat's cards (issue 30,
item 2).

Everything the kernel opened is a model in the browser, shown or not, and anyone can read it in the
developer tools. So this reads the page's own widget manager (Voila's ``window.jupyterapp.widgetManager``,
``get_state()``: every model's state as the page holds it), not the DOM. With
``tranquility-game?seed=5&seats=you,you&step=1`` seat 1 holds 25, 43, 59, 66 and 74; it places 25, and the
page says "Pass the device to seat 0". Before the fix the discard toggles holding 43, 59, 66 and 74 were
taken off the screen but stayed in the manager.
"""

import json
import re

import pytest

pytestmark = pytest.mark.browser

# Every model's state as the page's widget manager holds it: {model id: state}.
MODEL_STATES_JS = """async () => {
  const manager = window.jupyterapp && window.jupyterapp.widgetManager;
  if (!manager) return null;
  const all = await manager.get_state();
  const out = {};
  for (const [id, model] of Object.entries(all.state)) out[id] = model.state;
  return out;
}"""

# The numbers 59, 66 and 74 name no cell (0-35), pile size, turn or variant at this point of seed 5:
# anywhere in the manager they are seat 1's cards. 43 is also the size of a dealt pile in the public log,
# so it is looked for in the shape a card takes in a widget: a label, an option, a card class.
UNAMBIGUOUS = ("59", "66", "74")


def card_traces(states: dict) -> dict[str, list[str]]:
    """Where seat 1's remaining cards appear in the manager's models: card -> model ids."""
    found: dict[str, list[str]] = {}
    for model_id, state in states.items():
        text = json.dumps(state, ensure_ascii=False)
        numbers = set(re.findall(r"(?<![\w.#])(\d+)(?![\w.])", text))
        for card in UNAMBIGUOUS:
            if card in numbers:
                found.setdefault(card, []).append(model_id)
        shaped = [state.get("description"), *(state.get("_options_labels") or ()),
                  *(c.removeprefix("tranq-discard-") for c in state.get("_dom_classes") or ())]
        if "43" in shaped:
            found.setdefault("43", []).append(model_id)
    return found


def test_the_curtain_leaves_no_card_of_the_previous_seat_in_the_pages_widget_manager(open_dashboard,
                                                                                      console_errors):
    page = open_dashboard("tranquility-game", "seed=5&seats=you,you&step=1")
    page.locator(".tranq-reveal").click()                     # seat 1 acts first
    page.locator(".tranq-discard-43").wait_for(state="visible")
    states = page.evaluate(MODEL_STATES_JS)
    assert states, "the page's widget manager is not reachable at window.jupyterapp.widgetManager"
    # the check sees the cards while seat 1 legitimately holds them on screen
    assert set(card_traces(states)) == {"43", "59", "66", "74"}

    page.locator(".tranq-hand button", has_text="25").click()
    page.locator(".tranq-grid-cell-17").click()
    page.wait_for_function("document.querySelector('.tranq-choice').innerText.includes('25')")
    page.locator(".tranq-play").click()
    page.locator(".tranq-reveal").wait_for(state="visible")   # "Pass the device to seat 0"
    assert "seat 1" in page.locator(".tranq-curtain").inner_text()
    assert page.locator(".tranq-grid-cell-17").inner_text().strip() == "25"
    # the kernel's messages are handled in order; give the manager a moment to apply the last ones
    traces: dict = {}
    for _ in range(20):
        traces = card_traces(page.evaluate(MODEL_STATES_JS))
        if not traces:
            break
        page.wait_for_timeout(250)
    assert traces == {}, f"seat 1's cards are still in the page's widget models: {traces}"
    assert page.locator(".jupyter-widgets-error-widget").count() == 0
    assert console_errors == []
