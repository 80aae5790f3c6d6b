"""Hypothesis playthroughs for 2–5 players: the 40 cards are conserved and a task's status never reverts.

The engine contract (legal ⇔ no violation, refusals change nothing, JSON round trip, exact replay, the
errors, own-seat moves) is checked for every game in tests/test_contract.py.
"""

import random

from hypothesis import given, settings, strategies as st

from toolkit.core import Session
from toolkit.crew import DECK
from toolkit.crew.engine import ENGINE, Retry


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 100_000), st.sampled_from([2, 3, 4, 5]), st.integers(1, 35))
def test_random_playthrough_invariants(seed, players, mission):
    rnd = random.Random(seed)
    session = Session(ENGINE, seed, {"players": players, "mission": mission})
    decided = {}
    for _ in range(90):
        legal = ENGINE.legal_moves(session.state)
        if not legal:
            break
        move = rnd.choice(sorted(legal, key=str))
        if isinstance(move, Retry):
            decided = {}
        session.push(move)
        new = session.state
        ENGINE.validate_state(new)                   # the 40 cards are all present exactly once
        cards = [c for h in new.hands for c in h] + [c for col in new.columns for c in (col.face_down, col.face_up) if c]
        assert sorted(cards + list(new.trick) + [c for t in new.tricks for c in t.cards]) == list(DECK)
        for i, status in enumerate(new.statuses):
            if i in decided:
                assert status == decided[i], "a task status reverted"
            elif status != "pending":
                decided[i] = status
