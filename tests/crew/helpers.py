"""Shared positions for the Crew tests."""

from toolkit.crew.engine import ENGINE, PlayCard

from toolkit.crew.examples import PINK_NINE_HANDS as _HANDS, pink_nine  # noqa: F401

PINK_NINE_HANDS = list(_HANDS)


def run(state, *moves):
    """Apply moves given as text, returning the final state and all events."""
    events = []
    for m in moves:
        state, ev = ENGINE.transition(state, m)
        events += ev
    return state, events


def play_first_legal_until(state, predicate, limit=400):
    """Play the first legal card (and nothing else) until ``predicate(state)``."""
    for _ in range(limit):
        if predicate(state):
            return state
        plays = [m for m in ENGINE.legal_moves(state) if isinstance(m, PlayCard)]
        state = ENGINE.apply(state, plays[0])
    raise AssertionError("predicate never became true")
