"""crew_move_destination: one free space per card, occupied spaces skipped, never the captain space."""

import pytest
from hypothesis import given, settings, strategies as st

from toolkit.core import IllegalMoveError, InvalidMoveError
from toolkit.pirats import crew_move_destination


def test_rules_example_from_area_to_space_3():
    # 黄のプレーヤーは 1 枚 ... 自分のプレイエリアからスペース3に直接駒を移動させることができます
    assert crew_move_destination({1, 2}, 0, 1) == 3


def test_rules_example_from_1_to_3():
    # 猫のシンボルのついた魔除けカードを1 枚プレイして, スペース1から3へ
    assert crew_move_destination({2}, 1, 1) == 3
    # the moving pirat's own space may be listed as occupied: it is left behind
    assert crew_move_destination({1, 2}, 1, 1) == 3


def test_empty_ship_one_to_three_cards():
    # 船は現在全てのスペースが空いているので, 魚のシンボルのついたカード1 枚 ~3 枚までプレイすることができ
    assert [crew_move_destination(set(), 0, n) for n in (1, 2, 3)] == [1, 2, 3]
    assert crew_move_destination([3], 0, 2) == 2
    assert crew_move_destination((1, 3), 0, 1) == 2


def test_overshooting_space_3_is_refused():
    with pytest.raises(IllegalMoveError) as info:
        crew_move_destination({3}, 0, 3)
    assert info.value.rule == "pirats.move.no-captain"
    assert "space 3" in str(info.value)
    with pytest.raises(IllegalMoveError):
        crew_move_destination(set(), 3, 1)
    with pytest.raises(IllegalMoveError):
        crew_move_destination({1, 2, 3}, 0, 1)


def test_zero_cards_is_refused():
    with pytest.raises(IllegalMoveError) as info:
        crew_move_destination(set(), 0, 0)
    assert info.value.rule == "pirats.move.match"


@pytest.mark.parametrize("occupied, start, cards", [({4}, 0, 1), ({0}, 0, 1), ("12", 0, 1), (None, 0, 1),
                                                    (set(), 4, 1), (set(), -1, 1), (set(), 0, -1),
                                                    (set(), 0, "2"), (set(), True, 1), ({1.0}, 0, 1)])
def test_malformed_input_raises_invalid_move_error(occupied, start, cards):
    with pytest.raises(InvalidMoveError):
        crew_move_destination(occupied, start, cards)


@settings(max_examples=60, deadline=None)
@given(occupied=st.sets(st.integers(1, 3)), start=st.integers(0, 3), cards=st.integers(1, 3))
def test_each_card_buys_exactly_one_free_space(occupied, start, cards):
    others = occupied - {start}
    free_ahead = [s for s in (1, 2, 3) if s > start and s not in others]
    if cards > len(free_ahead):
        with pytest.raises(IllegalMoveError):
            crew_move_destination(occupied, start, cards)
    else:
        dest = crew_move_destination(occupied, start, cards)
        assert dest == free_ahead[cards - 1]
        assert dest not in others and dest > start
