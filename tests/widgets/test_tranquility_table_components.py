"""The Tranquility table's grid and hand are components (issue 26): every click is answered by the kernel
with a pick or the engine's reason beside it, identical cards stay apart, and the hint marks its objects."""

from __future__ import annotations

from toolkit.tranquility import ENGINE, PlaceIsland
from toolkit.widgets.components.tranquility import card_key, cell_key
from toolkit.widgets.tranquility import GameView
from toolkit.widgets.tranquility.game import hint_marks


def _table() -> GameView:
    view = GameView(seed=4, players=2, seats=["you", "you"], autoplay=False)
    view.reveal()
    return view


def test_a_cell_where_the_picked_card_may_not_go_is_refused_with_the_engines_reason():
    view = _table()
    first = next(m for m in view.model.legal_moves if isinstance(m, PlaceIsland) and not m.discards)
    view.choose(str(first.number), first.cell)
    view._play.click()
    view.reveal()
    seat = view.model.seat
    card = next(c for c in view.state.hands[seat] if c <= 80)
    view.choose(str(card), None)
    state, moves = view.state, list(view.model.session.moves)
    view._grid.receive({"type": "pick", "key": cell_key(first.cell)})          # occupied
    why = ENGINE.why_illegal(state, PlaceIsland(card, first.cell))
    assert why is not None and view._grid.refusal == why.text("en")
    assert view.state is state and view.model.session.moves == moves and view._cell is None
    cell = next(c for c in view._grid.cells if c["index"] == first.cell)
    assert cell["act"] == "refuse" and cell["value"] == first.number
    # a legal cell is picked, and the refusal goes
    target = next(m.cell for m in view.model.legal_moves if isinstance(m, PlaceIsland) and m.number == card)
    view._grid.receive({"type": "pick", "key": cell_key(target)})
    assert view._cell == target and view._grid.refusal == ""


def test_hostile_picks_change_nothing():
    view = _table()
    before = (view._card, view._cell, list(view.model.session.moves))
    for content in ({"type": "pick", "key": "cell:99"}, {"type": "pick", "key": "card:-1"}, {"type": "pick"},
                    {"type": "pick", "key": ["cell:1"]}, "cell:1", {"type": "pick", "key": "x" * 999}):
        view._grid.receive(content)
        view._hand.receive(content)
        assert view._grid.refusal and view._hand.refusal
    assert (view._card, view._cell, list(view.model.session.moves)) == before
    assert view._grid.set_state({"cells": []}) is None and len(view._grid.cells) == 36


def test_the_hand_holds_only_the_shown_seats_cards_each_with_its_own_key():
    view = GameView(seed=9, players=3, seats=["you"] * 3, autoplay=False)
    assert view._hand.cards == []                                   # the curtain
    view.reveal()
    hand = ENGINE.observe(view.state, view.model.seat)["hand"]
    assert [c["name"] for c in view._hand.cards] == list(hand)
    assert [c["key"] for c in view._hand.cards] == [card_key(i) for i in range(len(hand))]


def test_the_hint_marks_its_cell_and_card_once_and_any_move_clears_them():
    view = _table()
    assert view._grid.hint_keys == [] and view._hand.hint_keys == []
    view.hint_bar.ask.click()
    move = view.hint_bar.decision.move
    hand = ENGINE.observe(view.state, view.model.seat)["hand"]
    marks = dict(hint_marks(move, hand))
    assert marks and view._grid.hint_keys == marks.get("grid", []) and view._hand.hint_keys == marks.get("hand", [])
    assert view._grid.hint_label.startswith("Hint") or view._hand.hint_label.startswith("Hint")
    assert view.hint_bar.text.value.count("deepsea-hint-line") == 1            # said once
    if isinstance(move, PlaceIsland):
        picked = view._hand.cards[int(marks["hand"][0].split(":")[1])]
        assert picked["name"] == str(move.number)
    # another move than the hint's: the marks go with the hint
    other = next(m for m in view.model.legal_moves if m != move and isinstance(m, PlaceIsland) and not m.discards)
    view.choose(str(other.number), other.cell)
    view._play.click()
    assert view.model.session.moves[-1] == other
    assert view._grid.hint_keys == [] and view._hand.hint_keys == [] and view.hint_bar.text.value == ""
    assert not any("deepsea-hinted" in t._dom_classes for t in view._toggle_pool)


def test_a_hinted_placement_that_costs_discards_marks_the_discard_toggles():
    view = _table()
    for _ in range(30):
        view.reveal()
        view.hint_bar.ask.click()
        move = view.hint_bar.decision.move
        if isinstance(move, PlaceIsland) and move.discards:
            break
        view.hint_bar.play.click()
    else:
        raise AssertionError("no hint paid discards in 30 turns of seed 4")
    marked = [view._toggle_cards[i] for i, t in enumerate(view._toggle_pool) if "deepsea-hinted" in t._dom_classes]
    assert sorted(marked) == sorted(str(c) for c in move.discards)
