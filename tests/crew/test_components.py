"""The Crew components' kernel side: untrusted messages, forged state, contrast, both languages."""

from __future__ import annotations

import json
import re

from hypothesis import given, settings, strategies as st

from toolkit.core import i18n
from toolkit.crew.cards import Card, deck
from toolkit.widgets.components.crew import CARD_STYLE, CardPicker, CrewCard, CrewHand, TaskTokens, TrickTable

junk = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=30) | st.floats(),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
                    max_leaves=6)
messages = st.one_of(junk, st.fixed_dictionaries({"type": st.just("pick"), "card": junk}),
                     st.fixed_dictionaries({"type": st.just("pick"), "task": junk}),
                     st.fixed_dictionaries({"type": st.just("pick"),
                                            "card": st.sampled_from([str(c) for c in deck()])}))


def _luminance(colour: str) -> float:
    r, g, b = (int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5))
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in (r, g, b)]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a: str, b: str) -> float:
    hi, lo = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_card_colours_meet_wcag_aa():
    for suit, style in CARD_STYLE.items():
        assert contrast(style["bg"], style["fg"]) >= 4.5, suit          # the number and symbol on the card
        assert contrast(style["edge"], "#ffffff") >= 3.0, suit           # the card's edge on a white page
    # each colour its own symbol (colour-blind learners), and the CSS uses the same colours
    assert len({s["symbol"] for s in CARD_STYLE.values()}) == 5
    from toolkit.widgets.components.crew import _CSS
    for suit, style in CARD_STYLE.items():
        rule = re.search(r"\.crew-c-suit-" + suit + r"\s*\{([^}]*)\}", _CSS)
        assert rule and style["bg"] in rule.group(1), suit


@settings(max_examples=150, deadline=None)
@given(st.lists(messages, max_size=6))
def test_hand_refuses_anything_not_a_playable_card_of_the_hand(msgs):
    hand = CrewHand(["P9", "Y2", "S1"], playable=["P9", "S1"])
    picked = []
    hand.on_pick(picked.append)
    for m in msgs:
        hand.receive(m)                                    # never raises
    allowed = {Card.parse("P9"), Card.parse("S1")}
    assert all(c in allowed for c in picked)
    expected = [Card.parse(m["card"]) for m in msgs if isinstance(m, dict) and set(m) == {"type", "card"}
                and m["type"] == "pick" and isinstance(m["card"], str) and m["card"] in ("P9", "S1")]
    assert picked == expected
    assert [str(c) for c in hand.cards] == ["P9", "Y2", "S1"]


def test_hand_refusals_are_explained_in_both_languages():
    hand = CrewHand(["P9", "Y2"], playable=["P9"], lang="ja",
                    unplayable_reason=lambda c, lang: i18n.translate("crew.comp.not_playable", lang, {"card": c}))
    refused = []
    hand.on_refuse(refused.append)
    hand.receive({"type": "pick", "card": "B5"})
    hand.receive({"type": "pick", "card": "Y2"})
    hand.receive({"type": "pick", "card": "nonsense"})
    assert refused == ["青5はこの手札にありません。", "黄2は今は出せません。", "「nonsense」はカードではありません。"]
    hand.lang = "en"
    assert hand.refusal == "" and hand.items[1]["aria"] == "yellow 2 — cannot be played now"


def test_the_page_cannot_write_state():
    hand = CrewHand(["P9"])
    hand.set_state({"items": [{"card": "B1"}], "selected": "B1", "lang": "xx"})
    assert [i["card"] for i in hand.items] == ["P9"] and hand.selected == "" and hand.lang == "en"
    picker = CardPicker(["B1"])
    picker.set_state({"selected": ["S1", "S2"]})
    assert [str(c) for c in picker.value] == ["B1"]


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from([str(c) for c in deck()] + ["X1", "P0", ""]), max_size=20))
def test_picker_toggles_in_order_within_its_limit(clicks):
    picker = CardPicker(limit=4)
    picker.set_unavailable(["S4"])
    model: list[str] = []
    for code in clicks:
        picker.receive({"type": "pick", "card": code})
        if code in model:
            model.remove(code)
        elif code in [str(c) for c in deck()] and code != "S4" and len(model) < 4:
            model.append(code)
    assert [str(c) for c in picker.value] == model == picker.selected


def test_task_tokens_accept_only_offered_tasks():
    tokens = TaskTokens()
    tokens.show([{"id": 5, "en": "a", "ja": "b", "owner": None, "status": "pending", "difficulty": 1,
                  "prediction": None}], 4, selectable=[5])
    got = []
    tokens.on_pick(got.append)
    for bad in (6, "5", True, None, 5.0):
        tokens.receive({"type": "pick", "task": bad})
    tokens.receive({"type": "pick", "task": 5})
    assert got == [5]


def test_card_and_trick_components_carry_only_what_they_were_given():
    card = CrewCard("S3", clickable=True)
    got = []
    card.on_pick(got.append)
    card.receive({"type": "pick", "card": "S2"})
    card.receive({"type": "pick", "card": "S3"})
    assert got == [Card.parse("S3")]
    table = TrickTable()
    table.show(3, 2, ["G5"], previous=None, names={2: "Bot"})
    state = json.dumps({k: v for k, v in table.get_state().items() if k not in ("_esm", "_css")})
    assert "G5" in state and all(str(c) not in state for c in deck() if str(c) != "G5")
