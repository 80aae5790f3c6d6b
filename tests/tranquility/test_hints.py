"""Hints: the cost of a placement, the gaps it would make impossible (named), and the strongest bot's move."""

import pytest

from toolkit.core import IllegalMoveError, InvalidMoveError
from toolkit.core.bots import bot_rng
from toolkit.tranquility import BOTS, ENGINE
from toolkit.tranquility.hints import bot_hint, placement_hint


def _view(scenario, cells, hand=(23, 30, 40, 50, 60), **kw):
    s = scenario(hands=[hand, (1, 2)], cells=cells, leftover_to="pile", **kw)
    return s, ENGINE.observe(s, 0)


def test_cost_and_a_safe_placement(scenario):
    _, view = _view(scenario, {7: 21, 10: 27})
    hint = placement_hint(view, 23, 8)
    assert hint.cost == 2 and not hint.breaks_a_gap
    text = hint.text("en")
    assert "costs 2" in text and "Every gap stays fillable" in text
    assert "2枚" in hint.text("ja")


def test_warning_names_the_gap_made_impossible(scenario):
    # 21 _ _ 27: placing 26 in cell 8 leaves cells 9 (between 26 and 27): nothing fits there.
    _, view = _view(scenario, {7: 21, 10: 27}, hand=(26, 30, 40, 50, 60))
    hint = placement_hint(view, 26, 8)
    assert hint.breaks_a_gap and [(g.first, g.last, g.low, g.high) for g in hint.broken] == [(9, 9, 26, 27)]
    text = hint.text("en")
    assert "9" in text and "26" in text and "27" in text
    assert hint.events()[1].rule == "tranquility.analysis.feasible"


def test_the_seat_s_own_discards_count_but_no_one_else_s(scenario):
    # Seat 0 discarded 24 and 25 earlier (it remembers); placing 23 in cell 8 leaves cell 9 needing 24–26.
    s, view = _view(scenario, {7: 21, 10: 27})
    assert placement_hint(view, 23, 8).broken == ()
    from dataclasses import replace
    pile = tuple(c for c in s.piles[0] if c not in (24, 25, 26))
    s3 = replace(s, piles=(pile, ()), discards=((), (24, 25, 26)))   # seat 1's discards: unknown to seat 0
    assert placement_hint(ENGINE.observe(s3, 0), 23, 8).broken == ()
    s4 = replace(s, piles=(pile, ()), discards=((24, 25, 26), ()))    # seat 0's own: it knows
    hint = placement_hint(ENGINE.observe(s4, 0), 23, 8)
    assert [(g.first, g.last) for g in hint.broken] == [(9, 9)]


def test_paying_cards_count_as_gone(scenario):
    _, view = _view(scenario, {7: 21, 10: 27}, hand=(23, 24, 25, 26, 60))
    assert placement_hint(view, 23, 8).broken == ()
    assert placement_hint(view, 23, 8, discards=(24, 25)).breaks_a_gap is False  # 26 still fits cell 9
    assert placement_hint(view, 23, 8, discards=("24", "26")).breaks_a_gap is False  # 25 fits
    assert not placement_hint(view, 25, 8).breaks_a_gap                   # 26 fits between 25 and 27
    assert placement_hint(view, 25, 8, discards=(26,)).breaks_a_gap       # ... unless it pays with 26


def test_bad_input_is_refused(scenario):
    _, view = _view(scenario, {7: 21, 10: 27})
    with pytest.raises(IllegalMoveError):
        placement_hint(view, 30, 8)   # after 27 in the order
    with pytest.raises(InvalidMoveError):
        placement_hint(view, 0, 8)
    with pytest.raises(InvalidMoveError):
        placement_hint(view, 23, 36)
    with pytest.raises(InvalidMoveError):
        placement_hint(view, 23, 8, discards=(1.5,))
    with pytest.raises(TypeError, match="discards"):
        placement_hint(view, 23, 8, discards=7)
    with pytest.raises(TypeError, match="view"):
        placement_hint({"cells": [None] * 5, "seat": 0}, 23, 8)
    with pytest.raises(TypeError, match="view"):
        bot_hint("state", [])
    with pytest.raises(InvalidMoveError, match="level"):
        bot_hint(view, ENGINE.legal_moves(_), level="psychic")


def test_bot_hint_is_the_strongest_bot_s_decision():
    state = ENGINE.new_state(4, players=3)
    view = ENGINE.observe(state, state.seat)
    legal = ENGINE.legal_moves(state)
    d = bot_hint(view, legal, seed=4)
    assert d.move in legal and d.reason.rule.startswith("bots.tranquility.")
    assert d == BOTS["rank"]().decide(view, legal, bot_rng(4, 1000 + state.seat))
    assert bot_hint(view, legal, seed=4, level="greedy").move in legal
