"""The discard-cost worked example is played by pointing (issue 17): click a card of the hand, then a cell;
the cost and legality show before anything is placed, and they are the engine's verdicts."""

from __future__ import annotations

import re

from hypothesis import given, settings, strategies as st

from toolkit.tranquility import why_illegal_placement
from toolkit.tranquility.grid import raw_cost, to_grid
from toolkit.widgets.tranquility import DiscardCostView
from toolkit.widgets.tranquility.discard_costs import EXAMPLE_HAND


def _legal_cells(view: DiscardCostView) -> set[int]:
    return {i for i, b in enumerate(view._buttons) if "tranq-cell-legal" in b._dom_classes}


def test_a_learner_clicks_a_card_then_a_cell_and_sees_the_cost_before_placing():
    view = DiscardCostView()
    assert view.hand == list(EXAMPLE_HAND) and view.picked == 6
    assert [o[1] for o in view._hand_row.options] == list(EXAMPLE_HAND)   # the hand is drawn as cards
    view.pick_card(25)
    assert view.picked == 25 and view._hand_row.value == 25
    grid = to_grid(view.cells)
    # every empty cell says what 25 would cost there and whether it may go there: the engine's verdicts
    for i, button in enumerate(view._buttons):
        if grid[i]:
            assert "tranq-cell-legal" not in button._dom_classes
            continue
        verdict = why_illegal_placement(view.cells, i, 25, 5, "english")
        assert ("tranq-cell-legal" in button._dom_classes) == (verdict is None)
        if verdict is None:
            assert f"costs {raw_cost(grid, i, 25)} discard" in button.tooltip
        else:
            assert verdict.text("en") in button.tooltip
    assert {3, 5} & _legal_cells(view) == set() and 20 in _legal_cells(view)
    view.pick(5)                                     # 25 right after the 7: costs 18, over the limit
    assert "tranquility.place.cost-limit" in view._verdict.value and view.cells == {2: 3, 4: 7}
    view.pick(20)                                    # no neighbour: free
    assert "may be placed" in view._verdict.value and view.cells == {2: 3, 4: 7}
    view._place.click()
    assert view.cells == {2: 3, 4: 7, 20: 25}
    view.lang = "ja"
    assert "置けます" in view._buttons[30].tooltip or "✘" in view._buttons[30].tooltip


def test_the_picker_changes_the_hand_and_the_hand_size_sets_the_limit():
    view = DiscardCostView(cells={0: 10}, cell=1, number=14)
    assert view._picker_buttons == {}               # a cold page does not carry the 80 numbers
    view.open_picker()
    assert len(view._picker_buttons) == 80 and view._picker_box.children
    assert "tranq-in-hand" in view._picker_buttons[14]._dom_classes
    assert "may be placed" in view._verdict.value   # a full hand: 4 discards allowed
    assert view.hand == [6, 12, 14, 25, 44]         # the picked 14 joined the example hand
    view._picker_buttons[44].click()                # take a card out: a hand of 4 allows 3
    assert 44 not in view.hand and len(view.hand) == 4
    assert "tranquility.place.cost-limit" in view._verdict.value and "at most 3" in view._explain.value
    view._picker_buttons[70].click()                # in again: 70 is now the picked card
    assert view.picked == 70 and len(view.hand) == 5
    view._picker_buttons[71].click()                # a sixth card is refused, nothing changes
    assert 71 not in view.hand and "deepsea-refusal" in view._message.value
    for n in list(view.hand)[:-1]:
        view.toggle_card(n)
    assert len(view.hand) == 1
    view.toggle_card(view.hand[0])                  # the last card stays
    assert len(view.hand) == 1 and "deepsea-refusal" in view._message.value
    view.toggle_card(True)
    view.toggle_card(99)
    assert len(view.hand) == 1
    view.open_picker(False)
    assert view._picker_box.children == ()


def test_a_typed_number_joins_the_hand_like_a_clicked_card():
    view = DiscardCostView()
    view._number.value = 30                         # full hand: 30 replaces the picked 6
    assert view.picked == 30 and 30 in view.hand and 6 not in view.hand and len(view.hand) == 5
    view._hand_row.value = 12
    assert view.picked == 12 and view._number.value == 12


def test_hostile_hand_values_are_refused():
    view = DiscardCostView()
    view.pick_card(77)
    assert view.picked == 6 and "deepsea-refusal" in view._message.value
    bad = DiscardCostView(query="cards=1,2,3,4,5,6")
    assert bad.hand == list(EXAMPLE_HAND) and "deepsea-refusal" in bad._message.value
    assert DiscardCostView(query="cards=5,5").hand == list(EXAMPLE_HAND)
    assert DiscardCostView(query="cards=%3Cb%3E").hand == list(EXAMPLE_HAND)
    old = DiscardCostView(query="hand=2&number=9")   # an older link: the hand's size
    assert len(old.hand) == 2 and old.picked == 9


def _query(view: DiscardCostView) -> str:
    return re.search(r"<code>\?(.*?)</code>", view._link.value).group(1).replace("&amp;", "&")


@settings(max_examples=15, deadline=None)
@given(hand=st.lists(st.integers(1, 80), min_size=1, max_size=5, unique=True), pick=st.integers(0, 4),
       cell=st.integers(0, 35))
def test_a_shared_link_brings_back_the_hand_the_card_and_the_cell(hand, pick, cell):
    view = DiscardCostView(hand=hand, number=hand[pick % len(hand)], cell=cell)
    again = DiscardCostView(query=_query(view))
    assert (again.hand, again.picked, again.selected, again.cells) == (sorted(hand), hand[pick % len(hand)],
                                                                       cell, view.cells)
    assert again._verdict.value == view._verdict.value


def test_the_game_table_outlines_where_the_picked_card_may_go_and_lists_all_moves():
    from toolkit.tranquility import ENGINE, PlaceIsland
    from toolkit.widgets.tranquility import GameView

    view = GameView(seed=4, players=2, seats=["you", "you"], autoplay=False)
    assert not any(c["tip"].count("—") for c in view._grid.cells)   # the curtain: no card picked, no costs
    view.reveal()
    moves = view.model.legal_moves
    assert len(view._other.options) == len(moves)               # "All moves": every legal move
    seat = view.model.seat
    card = next(c for c in view.state.hands[seat] if c <= 80)
    view.choose(str(card), None)
    targets = {m.cell for m in moves if isinstance(m, PlaceIsland) and m.number == card}
    outlined = {c["index"] for c in view._grid.cells if c["legal"]}
    assert targets and outlined == targets
    assert "costs 0 discard" in view._grid.cells[min(targets)]["tip"]
    view.choose(None, min(targets))
    assert f"Card {card} → cell {min(targets)}: costs 0" in view._choice.value
    assert view.model.session.moves == []                        # shown before committing
    view._play.click()
    assert view.model.session.moves == [PlaceIsland(card, min(targets))]
    assert not any(c["legal"] for c in view._grid.cells)   # next seat: curtain again
    assert ENGINE.current_player(view.state) != seat
