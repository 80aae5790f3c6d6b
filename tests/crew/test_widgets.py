"""The Crew views: no rules in widgets, untrusted values, hidden hands, both languages."""

import json

import ipywidgets as widgets
import pytest

from toolkit.crew.engine import ENGINE
from toolkit.widgets.crew import MissionView, PinkNineTrickView, SonarCheckView, TaskJudgeView


def _all_widget_state(root) -> str:
    """The state of every widget the view created (shown or not) as the JSON the browser would get."""
    seen, todo = {}, [root]
    while todo:
        w = todo.pop()
        if id(w) in seen:
            continue
        seen[id(w)] = w
        todo += [c for c in getattr(w, "children", ())]
        for value in vars(w).values():
            if isinstance(value, widgets.Widget):
                todo.append(value)
            elif isinstance(value, (list, tuple, dict)):
                items = value.values() if isinstance(value, dict) else value
                todo += [x for x in items if isinstance(x, widgets.Widget)]
    return json.dumps([w.get_state() for w in seen.values()], default=str)


def test_mission_view_never_holds_other_seats_cards():
    view = MissionView(seed=3, players=4, mission=1)
    state = view.model.state
    seat = view.seat
    assert seat == state.captain
    shown = {b.description for b in view._hand.children}
    assert shown == {str(c) for c in state.hands[seat]}
    text = _all_widget_state(view)
    for other in range(4):
        if other == seat:
            continue
        for c in state.hands[other]:
            assert f'"description": "{c}"' not in text
            assert f'data-card="{c}"' not in text
    # switching seats swaps the hand; the former seat's cards leave the widget state
    view._seat.value = (seat + 1) % 4
    text = _all_widget_state(view)
    assert not any(f'"description": "{c}"' in text for c in state.hands[seat])


def test_mission_view_refusal_is_explained_not_raised():
    view = MissionView(seed=3, players=4, mission=1)
    view._actions.value = 0
    view._on_apply()                                      # the captain takes the task
    assert view.model.state.phase == "play"
    view._seat.value = (view.model.state.captain + 1) % 4
    view._on_card(view._hand.children[0])                 # not this seat's turn
    assert "core.turn" in view._message.value
    view._seat.value = view.model.state.captain
    before = view.model.state
    view._actions.options = [("bogus", 99)]
    view._actions.value = 99                              # a hostile comm message: an index out of range
    view._on_apply()
    assert view.model.state is before and "deepsea-refusal" in view._message.value


def test_mission_view_illegal_card_shows_rule():
    view = MissionView(seed=3, players=4, mission=1)
    view._actions.value = 0
    view._on_apply()
    # play the captain's first card, then try an off-colour card as the next seat if it must follow
    view._on_card(view._hand.children[0])
    nxt = ENGINE.current_player(view.model.state)
    view._seat.value = nxt
    led = view.model.state.trick[0]
    hand = view.model.state.hands[nxt]
    off = [c for c in hand if c.suit != led.suit]
    if off and any(c.suit == led.suit for c in hand):
        button = next(b for b in view._hand.children if b.description == str(off[0]))
        view._on_card(button)
        assert "crew.trick.follow" in view._message.value or "crew.trick.submarine-lead" in view._message.value


def test_mission_view_reads_the_query_and_clamps_it():
    view = MissionView(query="seed=abc&players=9&mission=-4&lang=xx")
    assert view.model.state.players == 5 and view.model.state.mission == 1 and view.lang == "en"
    view = MissionView(query="seed=5&players=2&mission=3&lang=ja")
    assert view.model.state.players == 2 and view.lang == "ja" and "TONOJA" in [o[0] for o in view._seat.options]


def test_pink_nine_view_steps_with_the_engine():
    view = PinkNineTrickView()
    view._hands[1].receive({"type": "pick", "card": "P7"})   # not the next card: refused, nothing moves
    assert view._step == 0 and "P7" not in view._hands[1].refusal and view._hands[1].refusal
    view._task.receive({"type": "pick", "task": 78})         # the captain takes #78 by clicking its token
    assert view._step == 1
    for _ in range(4):                                       # then each next card, clicked in its hand
        nxt = view.next_move()
        seat = [s for s, h in enumerate(view._hands) if nxt.card in h.cards][0]
        view._hands[seat].receive({"type": "pick", "card": str(nxt.card)})
    assert view._step == 5 and view._table.current["seats"][0]["winner"]   # P9 won, seat 0 drawn at the bottom
    for _ in range(20):
        view._on_next()
    assert "crew.end.success" in view._example.value
    view._plays.value = "P9 P9"
    view._on_check()
    assert "deepsea-refusal" in view._message.value      # malformed input is reported, nothing raises
    view._plays.value = "G3 Y9 G4"
    view._on_check()
    assert "data-winner='2'" in view._result.value


def test_pink_nine_try_a_trick_by_clicking():
    view = PinkNineTrickView(query="plays=P9&hand=P8-Y2-S1")
    view._plays_picker.receive({"type": "pick", "card": "P7"})
    assert view._plays.value == "P9 P7" and "plays=P9-P7" in view._link.value
    view._try_hand.receive({"type": "pick", "card": "Y2"})           # must follow pink: refused with the rule
    assert "crew.trick.follow" in view._try_hand.refusal or "follow" in view._try_hand.refusal
    view._try_hand.receive({"type": "pick", "card": "P8"})
    assert "crew-try-card-ok" in view._card_reason.value
    view._hand_picker.receive({"type": "pick", "card": "P7"})        # already in the trick: refused
    assert [str(c) for c in view._try_hand.cards] == ["P8", "Y2", "S1"]


def test_sonar_view_checks_by_clicking_and_translates():
    view = SonarCheckView()
    view._hand_cards.receive({"type": "pick", "card": "P5"})
    assert "crew.sonar.position" in view._result.value and "data-ok='0'" in view._result.value
    view.check("P7", "top")
    assert "data-ok='1'" in view._result.value
    view._hand_cards.receive({"type": "pick", "card": "B9"})          # not in the hand: refused, kept P7
    assert view._hand_cards.selected == "P7" and view._hand_cards.refusal
    view._picker.receive({"type": "pick", "card": "B9"})              # clicked into the hand
    assert view._hand.value.split()[-1] == "B9" and "hand=P1-P2-P5-P7-G4-S2-B9" in view._link.value
    view.lang = "ja"
    assert "ソナー" in view._title.value
    view._hand.value = "not cards"
    assert "deepsea-refusal" in view._message.value


def test_task_judge_view_filters_and_judges():
    view = TaskJudgeView()
    view._category.value = "streak"
    assert len(view._list.options) == 5
    view._preset.value = "as_many"
    assert "data-final='failed'" in view._status.value
    view._tricks.value = "0: P1 P2"
    view.judge()
    assert "deepsea-refusal" in view._message.value


def test_task_judge_tricks_by_clicking():
    view = TaskJudgeView(query="task=78")
    view._on_clear()
    for code in ("P9", "P7", "Y2"):
        view._picker.receive({"type": "pick", "card": code})
    assert view._tricks.value == "" and view._table.current["seats"][3]["name"].startswith("Seat 3")
    view._picker.receive({"type": "pick", "card": "P8"})             # the 4th card completes the trick
    assert view._tricks.value == "0: P9 P7 Y2 P8" and "data-final='pending'" in view._status.value
    view._picker.receive({"type": "pick", "card": "P9"})             # already played: refused
    assert view._picker.value == () and view._picker.refusal
    for code in ("S4", "B1", "S1", "S2"):
        view._picker.receive({"type": "pick", "card": code})
    assert "data-final='done'" in view._status.value
    assert "tricks=0:P9-P7-Y2-P8;0:S4-B1-S1-S2" in view._link.value
    view._on_undo()
    assert view._tricks.value == "0: P9 P7 Y2 P8"
