"""Helpers for the Tranquility tests: build a position directly (cards conserved) and play moves."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Any

import pytest

from toolkit.tranquility import ENGINE
from toolkit.tranquility.cards import CELLS
from toolkit.tranquility.checks import card_locations, expected_cards
from toolkit.tranquility.model import TranquilityState


def build(players: int = 2, hands: Any = None, cells: dict[int, int] | None = None, piles: Any = None,
          seat: int = 0, leftover_to: str = "discards", **fields: Any) -> TranquilityState:
    """A position with the given hands/grid/piles; every other card goes face down into seat 0's discards
    (or its pile, bottom, with ``leftover_to="pile"``) so the state still conserves all cards."""
    options = fields.pop("options", {})
    base = ENGINE.new_state(0, players=players, **options)
    grid = [0] * CELLS
    for i, v in (cells or {}).items():
        grid[i] = v
    hands_t = tuple(tuple(h) for h in (hands if hands is not None else [()] * players))
    piles_t = tuple(tuple(p) for p in (piles if piles is not None else [()] * players))
    state = replace(base, cells=tuple(grid), hands=hands_t, piles=piles_t, discards=((),) * players,
                    removed=fields.pop("removed", ()), played=tuple(i for i in range(CELLS) if grid[i]),
                    seat=seat, turn_seat=seat, phase="play", draws=(), after_draws="", storm=0,
                    start_discard_left=0, start_discard_seats=(), **fields)
    leftover = sorted((expected_cards(state) - card_locations(state)).elements())
    extra = card_locations(state) - expected_cards(state)
    assert not extra, f"scenario uses cards twice: {extra}"
    if leftover_to == "pile":
        piles2 = list(state.piles)
        piles2[0] = tuple(piles2[0]) + tuple(leftover)
        state = replace(state, piles=tuple(piles2))
    else:
        discards = [()] * players
        discards[0] = tuple(leftover)
        state = replace(state, discards=tuple(discards))
    ENGINE.validate_state(state)
    return state


@pytest.fixture
def scenario():
    return build


def counts(state: TranquilityState) -> Counter:
    return card_locations(state)
