"""Placement rules: ascending sequence order, one card per cell, the discard cost and its limit."""

import pytest
from hypothesis import given, settings, strategies as st

from toolkit.core import IllegalMoveError, InvalidMoveError, InvalidStateError, RuleError
from toolkit.tranquility import ENGINE, PlaceIsland, neighbours, placement_cost, why_illegal_placement
from toolkit.tranquility.grid import to_grid


def test_help_page_example_six_between_three_and_seven():
    # BGA help: a 6 placed between 3 and 7 costs 1 (the smaller of the differences 3 and 1).
    assert placement_cost({2: 3, 4: 7}, 3, 6) == 1
    assert why_illegal_placement({2: 3, 4: 7}, 3, 6) is None


def test_cost_is_difference_to_single_neighbour_and_zero_alone():
    assert placement_cost({10: 20}, 11, 27) == 7
    assert placement_cost({10: 20}, 9, 12) == 8
    assert placement_cost({10: 20}, 12, 27) == 0  # cell 11 lies between: no neighbour
    assert placement_cost({}, 17, 40) == 0


def test_row_end_neighbours_next_row_start():
    # Cell 5 is the bottom row's right end, 6 the second row's left end: sequence neighbours.
    assert placement_cost({5: 10}, 6, 13) == 3
    assert neighbours(to_grid({5: 10}), 6) == (5, None)
    # Cells stacked above each other (0 and 6) are not neighbours.
    assert placement_cost({0: 10}, 6, 13) == 0
    assert neighbours(to_grid({0: 10}), 6) == (None, None)


def test_order_is_checked_across_the_whole_grid():
    with pytest.raises(IllegalMoveError) as info:
        placement_cost({30: 40}, 3, 50)
    assert info.value.rule == "tranquility.place.ascending"
    assert "40" in str(info.value) and "cell 30" in str(info.value)
    with pytest.raises(IllegalMoveError) as info:
        placement_cost({0: 40}, 20, 12)
    assert info.value.code == "TRANQ_ORDER_BEFORE"
    v = why_illegal_placement({0: 40}, 20, 12)
    assert v.rule == "tranquility.place.ascending" and "40" in v.text("ja")
    # a number already on the grid can never be placed again (equal is not ascending)
    assert why_illegal_placement({3: 12}, 9, 12).rule == "tranquility.place.ascending"


def test_occupied_cell_is_refused():
    with pytest.raises(IllegalMoveError) as info:
        placement_cost({4: 10}, 4, 11)
    assert info.value.rule == "tranquility.place.empty-cell"
    assert why_illegal_placement({4: 10}, 4, 11).code == "TRANQ_CELL_OCCUPIED"


def test_cost_limit_allows_exactly_the_cards_left():
    # A full hand of 5: playing one leaves 4, so a cost of 4 is fine and 5 is not (rulebook v1.0).
    assert why_illegal_placement({0: 10}, 1, 14) is None
    v = why_illegal_placement({0: 10}, 1, 15)
    assert v.rule == "tranquility.place.cost-limit" and v.param("cost") == 5 and v.param("remaining") == 4
    assert "5" in v.message and "4" in v.message
    assert why_illegal_placement({0: 10}, 1, 13, hand_size=4) is None
    assert why_illegal_placement({0: 10}, 1, 14, hand_size=4).code == "TRANQ_COST_LIMIT"
    assert why_illegal_placement({0: 10}, 1, 11, hand_size=1).code == "TRANQ_COST_LIMIT"


def test_literal_japanese_cost_limit_refuses_four():
    # 「手札に残っている4枚以上のカードを捨てる必要がある場合、カードを置くことはできません」 read literally.
    assert why_illegal_placement({0: 10}, 1, 13, cost_limit="japanese") is None          # cost 3
    v = why_illegal_placement({0: 10}, 1, 14, cost_limit="japanese")                     # cost 4
    assert v.rule == "tranquility.place.cost-limit-literal" and v.param("most") == 3 and "4" in v.message
    assert "文字どおり" in v.text("ja")
    assert why_illegal_placement({0: 10}, 1, 14) is None                                 # English: allowed
    # Fewer cards left than 3: both readings refuse with the ordinary limit.
    assert why_illegal_placement({0: 10}, 1, 13, hand_size=3, cost_limit="japanese").code == "TRANQ_COST_LIMIT"
    with pytest.raises(InvalidMoveError):
        why_illegal_placement({0: 10}, 1, 13, cost_limit="literally")


def test_engine_cost_limit_option(scenario):
    hands = [(14, 20, 30, 40, 50), (1, 2, 60, 70, 80)]
    move = PlaceIsland(14, 1, (20, 30, 40, 50))
    assert ENGINE.why_illegal(scenario(hands=hands, cells={0: 10}), move) is None
    literal = scenario(hands=hands, cells={0: 10}, options={"cost_limit": "japanese"})
    assert ENGINE.why_illegal(literal, move).rule == "tranquility.place.cost-limit-literal"
    assert move not in ENGINE.legal_moves(literal)
    assert PlaceIsland(14, 2) in ENGINE.legal_moves(literal)
    with pytest.raises(RuleError):
        ENGINE.new_state(0, cost_limit="both")


@pytest.mark.parametrize("index, number", [(-1, 5), (36, 5), (0, 0), (0, 81), ("3", 5), (2, 5.0), (True, 3)])
def test_out_of_range_input_is_invalid(index, number):
    with pytest.raises(InvalidMoveError):
        placement_cost({}, index, number)
    with pytest.raises(InvalidMoveError):
        why_illegal_placement({}, index, number)


def test_bad_cells_and_hand_size_are_rule_errors():
    with pytest.raises(InvalidStateError):
        placement_cost({40: 3}, 1, 5)
    with pytest.raises(InvalidStateError):
        placement_cost({1: 99}, 2, 5)
    with pytest.raises(InvalidStateError):
        placement_cost("grid", 2, 5)
    with pytest.raises(InvalidMoveError):
        why_illegal_placement({}, 1, 5, hand_size=0)


def test_thirty_six_long_sequence_is_accepted():
    grid = [0] * 36
    grid[2], grid[4] = 3, 7
    assert placement_cost(grid, 3, 6) == 1


def test_engine_charges_the_cost_and_checks_the_chosen_discards(scenario):
    s = scenario(hands=[(6, 20, 30, 40, 50), (1, 2, 60, 70, 80)], cells={2: 3, 4: 7})
    v = ENGINE.why_illegal(s, PlaceIsland(6, 3))
    assert v.code == "TRANQ_DISCARD_COUNT" and v.rule == "tranquility.place.cost" and v.param("cost") == 1
    assert ENGINE.why_illegal(s, PlaceIsland(6, 3, (20, 30))).code == "TRANQ_DISCARD_COUNT"
    assert ENGINE.why_illegal(s, PlaceIsland(6, 3, (6,))).code == "TRANQ_DISCARD_PLAYED"
    new, events = ENGINE.transition(s, PlaceIsland(6, 3, (50,)))
    assert new.cells[3] == 6 and 50 in new.discards[0] and 6 not in new.hands[0]
    assert events[0].rule == "tranquility.place.cost" and events[0].param("cost") == 1
    # the event log never names the face-down discard
    assert "50" not in " ".join(e.message for e in events)


def test_discards_must_come_from_hand(scenario):
    s = scenario(hands=[(6, 20, 30, 40, 50), (1, 2, 60, 70, 80)], cells={2: 3, 4: 7}, piles=[(11, 12), ()])
    v = ENGINE.why_illegal(s, PlaceIsland(6, 3, (11,)))  # 11 is on top of the draw pile, not in hand
    assert v.rule == "tranquility.place.no-pile-discard" and v.code == "TRANQ_DISCARD_NOT_IN_HAND"
    with pytest.raises(IllegalMoveError):
        ENGINE.apply(s, PlaceIsland(6, 3, (11,)))


def test_engine_cost_limit_counts_cards_left_in_hand(scenario):
    s = scenario(hands=[(15, 20, 30), (1, 2, 60, 70, 80)], cells={0: 10})
    # two cards left after playing 15: cost 5 is too much; 12 at cell 1 would cost 2 (no 12 in hand though)
    v = ENGINE.why_illegal(s, PlaceIsland(15, 1, (20, 30)))
    assert v.rule == "tranquility.place.cost-limit" and v.param("remaining") == 2


@st.composite
def grids(draw):
    cells = sorted(draw(st.lists(st.integers(0, 35), max_size=20, unique=True)))
    numbers = sorted(draw(st.lists(st.integers(1, 80), min_size=len(cells), max_size=len(cells), unique=True)))
    return dict(zip(cells, numbers))


@settings(max_examples=150, deadline=None)
@given(cells=grids(), index=st.integers(0, 35), number=st.integers(1, 80), hand=st.integers(1, 5))
def test_public_api_agrees_with_itself_and_with_a_direct_reading_of_the_rule(cells, index, number, hand):
    verdict = why_illegal_placement(cells, index, number, hand)
    try:
        cost = placement_cost(cells, index, number)
    except IllegalMoveError as error:
        assert verdict == error.violation
        assert index in cells or any((i < index and v >= number) or (i > index and v <= number)
                                     for i, v in cells.items())
        return
    # a direct reading: the sequence neighbours are index - 1 and index + 1, whatever the rows
    diffs = [abs(number - cells[j]) for j in (index - 1, index + 1) if j in cells]
    assert cost == (min(diffs) if diffs else 0)
    assert (verdict is None) == (cost <= hand - 1)
