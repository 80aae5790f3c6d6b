"""The start card (start space, the table's 8 discards, 2-player and solo draws) and the finish card."""

import pytest

from toolkit.core import IllegalMoveError
from toolkit.tranquility import (ENGINE, FINISH, START, DiscardTwo, PlaceIsland, PlayFinish, PlayStart,
                                 StartDiscard)

FULL = {i: i + 1 for i in range(36)}


def test_start_card_must_be_played(scenario):
    s = scenario(hands=[(START, 10, 20, 30, 40), (11, 21, 31, 41, 51)])
    v = ENGINE.why_illegal(s, PlaceIsland(10, 0))
    assert v.rule == "tranquility.start.must-play" and v.code == "TRANQ_MUST_PLAY_START"
    assert ENGINE.why_illegal(s, DiscardTwo((10, 20))).rule == "tranquility.start.must-play"
    assert ENGINE.legal_moves(s) == [PlayStart()]
    new, events = ENGINE.transition(s, PlayStart())
    assert new.start_space and START not in new.hands[0] and new.cells == s.cells  # not in the grid
    assert events[0].rule == "tranquility.start.space"


def test_second_start_card_is_dead_and_discardable(scenario):
    s = scenario(hands=[(START, 10, 20, 30, 40), (11, 21, 31, 41, 51)], start_space=True)
    v = ENGINE.why_illegal(s, PlayStart())
    assert v.rule == "tranquility.start.space" and v.code == "TRANQ_START_TAKEN"
    assert ENGINE.why_illegal(s, DiscardTwo((START, 10))) is None
    assert ENGINE.why_illegal(s, PlaceIsland(10, 0)) is None  # no obligation any more


def test_table_discards_eight_in_agreed_split(scenario):
    s = scenario(players=3, hands=[(START, 10, 20, 30, 40), (11, 21, 31, 41, 51), (12, 22, 32, 42, 52)],
                 piles=[(60, 61, 62, 63, 64), (65, 66, 67, 68, 69), (70, 71, 72, 73, 74)])
    s = ENGINE.apply(s, PlayStart())
    before = sum(len(d) for d in s.discards)
    assert s.phase == "start-discard" and s.seat == 0 and s.start_discard_left == 8
    assert ENGINE.split_bounds(s) == (0, 4)
    s = ENGINE.apply(s, StartDiscard((10, 20, 30, 40)))
    assert s.seat == 1 and s.start_discard_left == 4 and ENGINE.split_bounds(s) == (0, 4)
    s = ENGINE.apply(s, StartDiscard((11,)))
    assert s.seat == 2 and ENGINE.split_bounds(s) == (3, 3)
    too_few = ENGINE.why_illegal(s, StartDiscard((12, 22)))
    assert too_few.code == "TRANQ_SPLIT_TOO_FEW" and too_few.rule == "tranquility.start.discard-eight"
    assert ENGINE.why_illegal(s, StartDiscard((12, 22, 32, 42))).code == "TRANQ_SPLIT_TOO_MANY"
    s, events = ENGINE.transition(s, StartDiscard((12, 22, 32)))
    assert sum(len(d) for d in s.discards) - before == 8
    assert [e.param("count") for e in events if e.code == "TRANQ_SPLIT"] == [3]
    # then everyone draws back up to 5 and the turn passes on from the start player
    assert [len(h) for h in s.hands] == [5, 5, 5]
    assert s.phase == "play" and s.seat == 1


def test_table_with_fewer_than_eight_discards_everything(scenario):
    s = scenario(players=3, hands=[(START, 10), (11, 21), (12,)], options={"short_hand_loss": False})
    s, events = ENGINE.transition(s, PlayStart())
    short = [e for e in events if e.code == "TRANQ_SPLIT_SHORT"]
    assert short and short[0].rule == "tranquility.start.discard-eight" and short[0].param("capacity") == 4
    assert s.start_discard_left == 4 and ENGINE.split_bounds(s) == (1, 1)
    assert ENGINE.why_illegal(s, StartDiscard(())).code == "TRANQ_SPLIT_TOO_FEW"
    s = ENGINE.apply(s, StartDiscard((10,)))
    s = ENGINE.apply(s, StartDiscard((11, 21)))
    s = ENGINE.apply(s, StartDiscard((12,)))
    assert all(len(h) == 0 for h in s.hands)
    assert s.result == "loss"  # seat 1 now has nothing to do


def test_two_players_draw_two_extra_first(scenario):
    s = scenario(hands=[(START, 10, 20, 30, 40), (11, 21, 31, 41, 51)],
                 piles=[(60, 61, 62, 63, 64, 65, 66, 67), (70, 71, 72, 73, 74, 75, 76, 77)])
    s, events = ENGINE.transition(s, PlayStart())
    assert any(e.rule == "tranquility.start.two-player" for e in events)
    assert sorted(s.hands[0]) == [10, 20, 30, 40, 60, 61] and sorted(s.hands[1]) == [11, 21, 31, 41, 51, 70, 71]
    assert s.phase == "start-discard" and ENGINE.split_bounds(s) == (1, 6)
    s = ENGINE.apply(s, StartDiscard((10, 20, 30, 40)))
    assert ENGINE.split_bounds(s) == (4, 4)
    s = ENGINE.apply(s, StartDiscard((11, 21, 31, 41)))
    assert [len(h) for h in s.hands] == [5, 5]


def test_solo_draws_eight_keeps_four(scenario):
    pile = tuple(range(40, 52))
    s = scenario(players=1, hands=[(START, 10, 20, 30, 35)], piles=[pile])
    s, events = ENGINE.transition(s, PlayStart())
    assert any(e.rule == "tranquility.start.solo" for e in events)
    assert len(s.hands[0]) == 12 and ENGINE.split_bounds(s) == (8, 8)
    keep = (10, 20, 30, 35)
    s = ENGINE.apply(s, StartDiscard(tuple(c for c in s.hands[0] if c not in keep)))
    assert sorted(s.hands[0]) == [10, 20, 30, 35, 48] and s.phase == "play"


def test_finish_needs_full_grid_and_start_space(scenario):
    almost = dict(FULL)
    del almost[20]
    s = scenario(hands=[(FINISH, 50, 60, 70, 75), (41, 42, 43, 44, 45)], cells=almost, start_space=True)
    v = ENGINE.why_illegal(s, PlayFinish())
    assert v.rule == "tranquility.finish.grid-full" and v.param("empty") == 1
    s = scenario(hands=[(FINISH, 50, 60, 70, 75), (41, 42, 43, 44, 45)], cells=FULL, start_space=False)
    v = ENGINE.why_illegal(s, PlayFinish())
    assert v.code == "TRANQ_FINISH_NOT_READY" and v.param("start") is False
    s = scenario(hands=[(50, 60, 70, 75, 76), (FINISH, 42, 43, 44, 45)], cells=FULL, start_space=True)
    assert ENGINE.why_illegal(s, PlayFinish()).code == "TRANQ_NOT_IN_HAND"
    # finish cards may be discarded like any card
    assert ENGINE.why_illegal(scenario(hands=[(FINISH, FINISH, 60, 70, 75), (41, 42, 43, 44, 45)]),
                              DiscardTwo((FINISH, FINISH))) is None


def test_finish_wins(scenario):
    s = scenario(players=3, hands=[(FINISH, 50, 60, 70, 75), (41, 42, 43, 44, 45), (46, 47, 48, 49, 51)],
                 cells=FULL, start_space=True)
    new, events = ENGINE.transition(s, PlayFinish())
    out = ENGINE.outcome(new)
    assert out.result == "win" and out.winners == (0, 1, 2) and out.rule == "tranquility.finish.win"
    assert ENGINE.is_over(new) and ENGINE.legal_moves(new) == []
    assert ENGINE.why_illegal(new, DiscardTwo((50, 60))).rule == "core.over"
    with pytest.raises(IllegalMoveError):
        ENGINE.apply(new, DiscardTwo((50, 60)))
    assert "everyone wins" in out.message and "勝利" in out.text("ja")
