"""Losses: no legal action, and (an option, on by default) 0–1 cards at the start of a turn."""

import pytest

from toolkit.tranquility import ENGINE, DiscardTwo, PlaceIsland


def test_no_action_loses(scenario):
    # Seat 1 will hold only 5, which has no room between 4 and 6, and cannot discard two.
    s = scenario(hands=[(10, 20, 30, 40, 50), (5,)], cells={0: 4, 1: 6}, options={"short_hand_loss": False})
    new, events = ENGINE.transition(s, DiscardTwo((30, 40)))
    out = ENGINE.outcome(new)
    assert out.result == "loss" and out.rule == "tranquility.loss.no-action" and out.param("seat") == 1
    assert events[-1].code == "TRANQ_LOSS_NO_ACTION"
    assert "seat 2" in out.message and "敗北" in out.text("ja")


def test_short_hand_loss_is_an_option(scenario):
    hands = [(10, 20, 30, 40, 50), (60,)]
    strict = ENGINE.apply(scenario(hands=hands), DiscardTwo((30, 40)))
    out = ENGINE.outcome(strict)
    assert out.rule == "tranquility.loss.short-hand" and out.code == "TRANQ_LOST_SHORT_HAND"
    lenient = ENGINE.apply(scenario(hands=hands, options={"short_hand_loss": False}), DiscardTwo((30, 40)))
    assert not ENGINE.is_over(lenient) and lenient.seat == 1
    assert PlaceIsland(60, 35) in ENGINE.legal_moves(lenient)


# ---- issue #18 item 8: the order of the turn-start checks ------------------------------------------------

from toolkit.tranquility import FINISH, MONSTER, START, PlayFinish  # noqa: E402

FULL_BUT_LAST = {i: i + 1 for i in range(35)}  # cells 0–34 hold 1–35; cell 35 waits for 36


def _last_card_placed(scenario, hand1, **kwargs):
    s = scenario(hands=[(36, 50, 60), hand1], cells=FULL_BUT_LAST, start_space=True, **kwargs)
    return ENGINE.transition(s, PlaceIsland(36, 35, (50,)))


def test_short_hand_with_a_winning_finish_card_wins(scenario):
    # Seat 1 starts its turn with a single card, a finish card, and the grid and start space are full:
    # it can act — the finish wins — so the 0–1-card loss does not fire first.
    new, events = _last_card_placed(scenario, (FINISH,))
    assert not ENGINE.is_over(new) and new.seat == 1
    assert not any(e.code == "TRANQ_LOSS_SHORT_HAND" for e in events)
    assert ENGINE.legal_moves(new) == [PlayFinish()]
    out = ENGINE.outcome(ENGINE.apply(new, PlayFinish()))
    assert out.result == "win" and out.code == "TRANQ_WIN"


@pytest.mark.parametrize("hand1, fields, why", [
    ((FINISH,), {"start_space": False}, "the start space is empty: the finish cannot be played"),
    ((START,), {}, "the start card does not end the game"),
    ((MONSTER,), {}, "a monster is an action but not a win"),
    ((), {}, "no card at all"),
])
def test_short_hand_still_loses_when_no_winning_finish_is_possible(scenario, hand1, fields, why):
    cells = dict(FULL_BUT_LAST)
    s = scenario(hands=[(36, 50, 60), hand1], cells=cells, **{"start_space": True, **fields},
                 options={"monsters": 3} if MONSTER in hand1 else {})
    new = ENGINE.apply(s, PlaceIsland(36, 35, (50,)))
    out = ENGINE.outcome(new)
    assert out is not None and out.rule == "tranquility.loss.short-hand", why


def test_a_held_monster_blocks_the_short_hand_finish(scenario):
    # Seat 0 keeps a sea monster: the finish is refused until it is played, so seat 1 (one card) loses.
    s = scenario(hands=[(36, 50, 60, MONSTER), (FINISH,)], cells=FULL_BUT_LAST, start_space=True,
                 options={"monsters": 3})
    out = ENGINE.outcome(ENGINE.apply(s, PlaceIsland(36, 35, (50,))))
    assert out is not None and out.rule == "tranquility.loss.short-hand"


def test_simulator_checks_the_finish_before_the_short_hand_loss():
    # The fast simulator applies the same order; its games replay in the engine with the same outcome.
    from toolkit.tranquility.sim import Game, _turn_start_loss
    from toolkit.tranquility.grid import SortedLine
    cells = [i + 1 for i in range(36)]
    game = Game(players=2, cells=cells, line=SortedLine(cells), hands=[[], [FINISH]], piles=[[], []],
                unused=[bytearray(82), bytearray(82)], start_space=True, seat=1)
    assert _turn_start_loss(game, 1) is None
    game.start_space = False
    assert _turn_start_loss(game, 1) == "TRANQ_LOST_SHORT_HAND"
