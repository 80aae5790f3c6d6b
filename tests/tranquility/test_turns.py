"""A turn: one action, then draw back up to the hand limit from your own pile."""

import pytest

from toolkit.core import IllegalMoveError, InvalidMoveError
from toolkit.tranquility import ENGINE, DiscardTwo, PlaceIsland, parse_move
from toolkit.tranquility.moves import MOVE_TYPES


def test_discard_two_ends_the_turn(scenario):
    s = scenario(hands=[(10, 20, 30, 40, 50), (11, 21, 31, 41, 51)], piles=[(60, 61, 62), (63,)])
    new, events = ENGINE.transition(s, DiscardTwo((20, 40)))
    assert sorted(new.hands[0]) == [10, 30, 50, 60, 61]
    assert new.discards[0][-2:] == (20, 40)
    assert new.seat == 1 and new.turn == s.turn + 1
    assert events[0].rule == "tranquility.turn.action"
    assert all("20" not in e.message for e in events)  # face down


def test_card_not_in_hand_is_refused(scenario):
    s = scenario(hands=[(10, 20, 30, 40, 50), (11, 21, 31, 41, 51)])
    v = ENGINE.why_illegal(s, PlaceIsland(11, 5))
    assert v.rule == "tranquility.turn.action" and v.code == "TRANQ_NOT_IN_HAND"
    with pytest.raises(IllegalMoveError) as info:
        ENGINE.apply(s, PlaceIsland(11, 5))
    assert info.value.violation == v
    assert ENGINE.why_illegal(s, DiscardTwo((10, 11))).rule == "tranquility.place.no-pile-discard"


def test_refill_to_five_from_own_pile(scenario):
    s = scenario(hands=[(10, 20, 30, 40, 50), (11, 21, 31, 41, 51)], piles=[(60, 61, 62), (63, 64)])
    new = ENGINE.apply(s, PlaceIsland(10, 0))
    assert sorted(new.hands[0]) == [20, 30, 40, 50, 60]
    assert new.piles[0] == (61, 62) and new.piles[1] == (63, 64)  # never from another pile
    drew = [e for e in ENGINE.transition(s, PlaceIsland(10, 0))[1] if e.code == "TRANQ_DREW"]
    assert drew[0].rule == "tranquility.turn.draw" and drew[0].param("count") == 1


def test_empty_pile_draws_nothing(scenario):
    s = scenario(hands=[(10, 20, 30, 40, 50), (11, 21, 31, 41, 51)], piles=[(), (63,)])
    new, events = ENGINE.transition(s, DiscardTwo((20, 40)))
    assert sorted(new.hands[0]) == [10, 30, 50]
    assert any(e.code == "TRANQ_PILE_EMPTY" and e.rule == "tranquility.turn.draw" for e in events)
    assert not new.result


@pytest.mark.parametrize("text", ["place 17 at 8", "place 17 at 8 discard 20 35", "discard 20 35", "start",
                                  "finish", "monster", "discard hand", "rock to 3", "rock discard 4 finish",
                                  "split 20 35 blind 2", "split none", "split finish finish", "storm",
                                  "storm row 3", "storm discard 20", "compass yellow 2", "compass purple 5",
                                  "compass orange 0", "compass storm"])
def test_move_text_round_trips(text):
    move = parse_move(text)
    assert isinstance(move, MOVE_TYPES)
    assert str(move) == text
    assert ENGINE.parse_move(str(move)) == move


@pytest.mark.parametrize("text", ["", "place", "place 17", "place 17 at", "place 81 at 3", "place 17 at 36",
                                  "place x at 3", "discard 20", "discard 20 20", "rock to 9", "compass red 1",
                                  "split 1 blind 3", "fly away", "compass yellow 7", "storm row 6", 42])
def test_malformed_moves_are_invalid_and_quote_the_text(text):
    with pytest.raises(InvalidMoveError) as info:
        parse_move(text)
    if isinstance(text, str) and text:
        assert repr(text)[1:-1][:20] in str(info.value) or text[:20] in str(info.value)


def test_discard_lists_are_normalised():
    assert DiscardTwo((40, 20)) == DiscardTwo((20, 40))
    assert parse_move("place 6 at 3 discard 50 9") == PlaceIsland(6, 3, (9, 50))


@pytest.mark.parametrize("text", ["place 17 at 8", "place 17 at 8 discard 20 finish", "discard 20 35", "start",
                                  "finish", "monster", "discard hand", "rock to 3", "rock discard 4 finish",
                                  "split 20 35 blind 2", "split none", "storm", "storm row 3", "storm discard 20",
                                  "compass yellow 2", "compass purple 5", "compass orange 0", "compass storm"])
def test_every_move_reads_in_english_and_japanese(text):
    move = parse_move(text)
    en, ja = ENGINE.describe_move(move, "en"), ENGINE.describe_move(move, "ja")
    assert en != ja and en != text
    assert any(ch > "\u3000" for ch in ja) and not any("a" <= ch <= "z" for ch in ja)
