"""Hidden information: a seat sees its own hand; everyone else (and every discard) only as counts."""

import json

import pytest

from toolkit.core import InvalidSeatError
from toolkit.tranquility import ENGINE, DiscardTwo


def test_observe_shows_only_own_hand_and_counts(scenario):
    s = scenario(players=3, hands=[(10, 20, 30, 40, 50), (11, 21, 31, 41, 51), (12, 22, 32, 42, 52)],
                 piles=[(60, 61), (62,), ()])
    s = ENGINE.apply(s, DiscardTwo((20, 40)))
    view = ENGINE.observe(s, 1)
    assert view["hand"] == ["11", "21", "31", "41", "51"]
    assert view["hand_sizes"] == [5, 5, 5] and view["pile_sizes"] == [0, 1, 0]
    text = json.dumps(view)
    for hidden in ("10", "30", "50", "60", "61", "12", "22", "62"):
        assert f'"{hidden}"' not in text
    assert "discards" not in view and view["discard_counts"][0] >= 2
    mine = ENGINE.observe(s, 0)
    assert "20" not in mine["hand"] and "40" not in mine["hand"]  # discards are face down, even to the owner
    spectator = ENGINE.observe(s, None)
    assert spectator["hand"] is None and "hand_order" not in spectator
    with pytest.raises(InvalidSeatError, match="no seat 3"):
        ENGINE.observe(s, 3)
    assert view["hidden_by"] == "tranquility.view.hidden"
