"""Losses: no legal action, and (an option, on by default) 0–1 cards at the start of a turn."""

from toolkit.tranquility import ENGINE, DiscardTwo, PlaceIsland


def test_no_action_loses(scenario):
    # Seat 1 will hold only 5, which has no room between 4 and 6, and cannot discard two.
    s = scenario(hands=[(10, 20, 30, 40, 50), (5,)], cells={0: 4, 1: 6}, options={"short_hand_loss": False})
    new, events = ENGINE.transition(s, DiscardTwo((30, 40)))
    out = ENGINE.outcome(new)
    assert out.result == "loss" and out.rule == "tranquility.loss.no-action" and out.param("seat") == 1
    assert events[-1].code == "TRANQ_LOSS_NO_ACTION"
    assert "seat 1" in out.message and "敗北" in out.text("ja")


def test_short_hand_loss_is_an_option(scenario):
    hands = [(10, 20, 30, 40, 50), (60,)]
    strict = ENGINE.apply(scenario(hands=hands), DiscardTwo((30, 40)))
    out = ENGINE.outcome(strict)
    assert out.rule == "tranquility.loss.short-hand" and out.code == "TRANQ_LOST_SHORT_HAND"
    lenient = ENGINE.apply(scenario(hands=hands, options={"short_hand_loss": False}), DiscardTwo((30, 40)))
    assert not ENGINE.is_over(lenient) and lenient.seat == 1
    assert PlaceIsland(60, 35) in ENGINE.legal_moves(lenient)
