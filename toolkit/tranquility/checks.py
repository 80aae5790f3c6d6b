"""Invariants of a Tranquility state: every card is in exactly one place, and the grid is ascending.

Used after loading a saved state (:meth:`Engine.validate_state`) and by the property tests.
"""

from __future__ import annotations

from collections import Counter

from toolkit.core.errors import InvalidStateError
from toolkit.tranquility import cards as C
from toolkit.tranquility.model import TranquilityState


def expected_cards(state: TranquilityState) -> Counter:
    """The multiset of cards this game's options put into play (compasses counted separately)."""
    o = state.options
    want = Counter({n: 1 for n in C.ISLANDS})
    want[C.FINISH] = C.FINISH_CARDS
    want[C.START] = o.players
    if o.monsters:
        want[C.MONSTER] = o.monsters
    if o.storms:
        y, p, r = o.storm_colours
        for code, count in ((C.STORM_YELLOW, y), (C.STORM_PURPLE, p), (C.STORM_ORANGE, r)):
            if count:
                want[code] = count
    return want


def card_locations(state: TranquilityState) -> Counter:
    """Where every card is, counted: hands, piles, discards, grid, start space, storms on the table,
    the pending storm, removed islands and cards out of the game."""
    have: Counter = Counter()
    for zone in (state.hands, state.piles, state.discards):
        for part in zone:
            have.update(part)
    have.update(c for c in state.cells if c)
    have.update(state.removed)
    have.update(c for c in state.out_of_game if c != C.COMPASS)
    if state.start_space:
        have[C.START] += 1
    have[C.STORM_YELLOW] += sum(state.yellow)
    have[C.STORM_ORANGE] += sum(state.orange)
    have[C.STORM_PURPLE] += len(state.purple_rows)
    if state.storm:
        have[state.storm] += 1
    return +have


def check_state(state: TranquilityState) -> None:
    n = state.players
    for name in ("hands", "piles", "discards"):
        if len(getattr(state, name)) != n:
            raise InvalidStateError(f"state.{name}: expected {n} entries (one per seat)")
    for name in ("yellow", "orange"):
        if len(getattr(state, name)) != n or any(v < 0 for v in getattr(state, name)):
            raise InvalidStateError(f"state.{name}: expected {n} non-negative counts")
    if len(state.cells) != C.CELLS:
        raise InvalidStateError(f"state.cells: expected {C.CELLS} cells, got {len(state.cells)}")
    if not 0 <= state.seat < n or not 0 <= state.turn_seat < n:
        raise InvalidStateError(f"state.seat: seats are 0 to {n - 1}")
    previous = 0
    for i, v in enumerate(state.cells):
        if v and not C.is_island(v):
            raise InvalidStateError(f"state.cells[{i}]: {v!r} is not an island card")
        if v:
            if v <= previous:
                raise InvalidStateError(f"state.cells[{i}]: {v} breaks the ascending order (after {previous})")
            previous = v
    if sorted(state.played) != [i for i, v in enumerate(state.cells) if v]:
        raise InvalidStateError("state.played must list exactly the occupied cells")
    want, have = expected_cards(state), card_locations(state)
    if want != have:
        missing = sorted((want - have).elements())
        extra = sorted((have - want).elements())
        raise InvalidStateError("state: cards are not conserved"
                                + (f"; missing {', '.join(C.card_name(c) for c in missing[:8])}" if missing else "")
                                + (f"; extra {', '.join(C.card_name(c) for c in extra[:8])}" if extra else ""))
    used = state.out_of_game.count(C.COMPASS)
    if state.compass_pool < 0 or state.compass_supply < 0 or \
            state.compass_pool + state.compass_supply + used != (state.options.compasses if state.options.storms else 0):
        raise InvalidStateError("state: compasses are not conserved")
    if state.rock_row >= C.ROWS or any(not 0 <= r < C.ROWS for r in state.purple_rows):
        raise InvalidStateError("state: a rock or purple storm is off the grid")
