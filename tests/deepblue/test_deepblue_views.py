"""The Deep Blue views, driven in Python: they call the engine, survive hostile input and never put
another seat's hand into the page."""

from __future__ import annotations

import json
from fractions import Fraction

import ipywidgets as widgets

from toolkit.deepblue import ENGINE, survival
from toolkit.deepblue.gems import SETUP_BAG
from toolkit.deepblue.model import DrawGem
from toolkit.widgets.deepblue import DiveView, GameView, GemBagView
from toolkit.widgets.deepblue.gem_bag import settings_from_query
from toolkit.widgets.base import query_params


def _all_widget_state(root) -> str:
    """Every synced value of every widget under ``root`` — what the browser could ever receive."""
    seen, out, stack = set(), [], [root]
    while stack:
        w = stack.pop()
        if id(w) in seen:
            continue
        seen.add(id(w))
        try:
            state = w.get_state()
        except Exception:  # noqa: BLE001 - non-widget children
            continue
        out.append(json.dumps(state, default=str, ensure_ascii=False))
        for v in vars(w).values():
            if isinstance(v, widgets.Widget):
                stack.append(v)
            elif isinstance(v, dict):
                stack += [x for x in v.values() if isinstance(x, widgets.Widget)]
        stack += [c for c in getattr(w, "children", ()) if isinstance(c, widgets.Widget)]
    return "\n".join(out)


def test_gem_bag_view_shows_the_reference_figures():
    v = GemBagView(query="")
    text = v._summary.value
    assert "Still in after 2 draws: 53/57" in text and "≈ 0.653" in text and "≈ 0.494" in text
    assert "deepblue-advice-go" in v._advice.value
    v._drawn["black"].value = 1
    assert "4/19 = 21.1%" in v._summary.value
    v.lang = "ja"
    assert "次のドローでバーストする確率：4/19" in v._summary.value


def test_gem_bag_view_from_a_shared_link_and_hostile_values():
    s = settings_from_query(query_params("silver=3&black=99&drawn=black,pink&shields=any,any&spot=moon&bonus=x&pairs=1"))
    assert s["bag"]["silver"] == 3 and s["bag"]["black"] == 40          # clamped
    assert s["drawn"]["black"] == 0 and s["shields"] == {"black": 0, "blue": 0, "any": 2}   # 'pink' voids drawn
    assert s["bag"]["gold"] == 0                                          # a link describes the whole bag
    assert s["spot"] == "none" and s["bonus"] == 0 and s["pairs"] is True
    v = GemBagView(query="silver=2&black=2&drawn=black&k=1")
    assert "1/2 = 50.0%" in v._summary.value
    # a forged comm message: a value outside the box's bounds is clamped by the widget, never a traceback
    v._bag["gold"].value = 10**9
    assert v._bag["gold"].value == 40
    v._spot.value = "gold"
    v._pairs.value = True
    assert "deepsea-refusal" not in v._message.value
    v.lang = "xx"                                                       # hostile language
    assert v.lang in ("en", "ja")


def test_gem_bag_policy_matches_the_engine_analysis():
    v = GemBagView(query="")
    assert str(Fraction(87041, 29070)) in v._advice.value
    assert f"{float(survival(SETUP_BAG, 5)):.3f}" in v._summary.value


def _hand_ids(state_text: str) -> set[int]:
    """Card ids of every crew card drawn by a Deep Blue component in the synced state."""
    import re

    return {int(m) for m in re.findall(r'"key": "card:(\d+)"', state_text)}


def test_dive_view_plays_a_dive_by_clicks_and_hides_other_hands():
    v = DiveView(seed=7)
    tab = v.table
    assert ENGINE.current_player(v.model.state) == 1 and v.model.state.phase == "join"
    v._seat.value = 1
    tab.dive.receive({"type": "pick", "key": "join"})
    v._seat.value = 2
    tab.dive.receive({"type": "pick", "key": "join"})
    assert v.model.state.phase == "dive"
    v._seat.value = 1
    tab.bag.receive({"type": "pick", "key": "bag"})      # seat 1 is not the leader: the engine's reason
    assert "bag" not in tab.bag.offers and v.model.state.dive.draws == 0
    assert tab.bag.refusal == ENGINE.why_illegal(v.model.state, DrawGem(1)).text("en")
    v._seat.value = 0
    tab.bag.receive({"type": "pick", "key": "bag"})
    assert v.model.state.dive.draws >= 1 and "deepblue-risk" in v._risk.value
    page = _all_widget_state(v)
    hands = {s: v.model.state.players[s].hand for s in range(3)}
    assert set(hands[0]) <= _hand_ids(page)               # the walk does reach the hand component
    assert not _hand_ids(page) & (set(hands[1]) | set(hands[2])) - set(hands[0])
    tab.dive.receive({"type": "pick", "key": "surface"})  # the leader's boat: stop the dive
    assert v.model.state.dive is None and "deepblue.dive.score" in v._summary.value


def test_game_view_offers_only_the_viewing_seats_moves():
    g = GameView(seed=3, query="")
    assert g.setup.seats == ["you", "policy", "policy"]          # you are seat 0, the strongest bot elsewhere
    texts = [value for _, value in g._moves.options]
    assert texts and all(t.startswith("s0 ") for t in texts)
    g.table.hand.receive({"type": "pick", "key": "rest"})     # the rest area, clicked
    # the bots played (no event loop: at once) until seat 0 acts again; their moves are described
    assert ENGINE.current_player(g.model.state) == 0 and len(g.model.session) > 1
    assert "(bot: best play): " in g.bot_line.value         # the last bot move, its seat named
    assert all(t.startswith("s0 ") for _, t in g._moves.options)
    g._on_hint()
    assert "Hint for You: " in g.hint_bar.text.value
    before = list(g.model.session.moves)
    g._moves.options = [("x", "s1 rest")]
    g._moves.value = "s1 rest"
    g._on_apply()                                  # another seat's move: a readable refusal beside the list
    assert "deepsea-refusal" in g.refusal.value and "played by a bot" in g.refusal.value
    assert g.model.session.moves == before
    g._players.value = 4
    g._on_new_game()
    assert g.model.state.seats == 4 and len(g.setup.seats) == 4


def test_game_view_a_learner_plays_a_game_against_bots_and_sees_only_their_hand():
    g = GameView(seed=5, players=3)
    coached = clicked = 0
    for _ in range(400):
        if g.model.outcome is not None:
            break
        seat = g.viewing_seat()
        assert g.setup.is_human(seat) and seat == 0
        shown = {c["id"] for c in g.table.hand.cards}
        assert shown == set(g.model.state.players[0].hand)
        if "deepblue-coach" in g._risk.value:
            coached += 1
            assert "%" in g._risk.value and "best-play bot" in g._risk.value
            assert 'class="deepsea-rule-ref"' in g._risk.value      # the rule id beside the sentence
        decision = g.driver.hint(seat, "policy")
        move = decision.move if decision is not None and decision.move is not None else \
            ENGINE.parse_move(g._moves.options[0][1])
        found = click_for(g.table, move)
        if found is not None:                                            # click the thing, or use the list
            comp, key = found
            comp.receive({"type": "pick", "key": key})
            clicked += 1
        else:
            g._moves.options = [(str(move), str(move))]
            g._moves.value = str(move)
            g._on_apply()
    assert g.model.outcome is not None and coached > 0 and clicked > 10
    # every seat a bot: the public view, no hand at all
    # (step mode: the bots wait for "Next move"; each click plays one)
    g2 = GameView(seed=6, players=2, seats=["policy", "random"], step_mode=True)
    assert g2.setup.waiting and len(g2.model.session) == 0
    for _ in range(5):
        g2.setup._on_next()
    assert len(g2.model.session) == 5 and g2.table.hand.cards == [] and "public view" in g2.status.text
    assert not any(c.offers for c in g2.table.components)


def click_for(table, move):
    """The (component, key) whose click plays exactly ``move`` now, if any."""
    for comp in table.components:
        for key, value in comp.offers.items():
            if value == move:
                return comp, key
    return None


def test_game_view_from_query():
    g = GameView(query="seed=9&players=5&scenario=best-of-the-best&lang=ja")
    assert g.model.state.seats == 5 and g.model.state.scenario == "best-of-the-best" and g.lang == "ja"
    g2 = GameView(query="seed=-4&players=zz&scenario=nope")
    assert g2.model.state.scenario == "troubled-waters" and g2.model.state.seats == 3


def test_generic_debug_panel_plays_deep_blue():
    from toolkit.widgets import DebugPanel, GameSession

    model = GameSession(ENGINE, seed=1)
    DebugPanel(model)
    assert model.play("s0 rest") and ENGINE.current_player(model.state) == 1
    assert not model.play("s0 rest") and model.violation.rule == "core.turn"
    assert not model.play("s1 fly") and "s1 fly" in model.message
