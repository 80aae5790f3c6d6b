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


def replay_alternative(start, before, alternative):
    """Play the tricks ``before`` (the game as it went, up to the fatal trick) and then a post-mortem's
    winning ``alternative`` from the engine state ``start``, card by card, each one checked legal by the
    engine itself; return the state reached (a winning line ends in ``success``)."""
    state = start
    for trick in list(before) + list(alternative):
        for card in trick.cards:
            assert state.phase == "play", (trick, card, state.phase)
            assert PlayCard(card) in ENGINE.legal_moves(state), (trick, card)
            state = ENGINE.apply(state, PlayCard(card))
    return state
