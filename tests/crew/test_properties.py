"""Hypothesis playthroughs for 2–5 players: cards conserved, legal ⇔ no violation, statuses never revert,
refused moves leave the state unchanged, replay is exact."""

import random

from hypothesis import given, settings, strategies as st

from toolkit.core import IllegalMoveError, Session
from toolkit.crew import DECK
from toolkit.crew.engine import (ENGINE, AssignAll, AssignTask, Distress, GiveCard, PassTask, PlayCard,
                                 Predict, Retry, Sonar, TakeTask, TimeUp)


def _candidates(state, rnd):
    """Legal moves plus a spread of plausible illegal ones."""
    moves = set(ENGINE.legal_moves(state))
    seats = range(state.seats)
    moves |= {PlayCard(c) for c in rnd.sample(DECK, 8)}
    moves |= {Sonar(s, c, p) for s in seats for c in rnd.sample(DECK, 2) for p in ("top", "bottom", "middle", None)}
    moves |= {TakeTask(t) for t in list(state.tasks) + [rnd.randint(1, 96)]}
    moves |= {AssignTask(t, s) for t in state.tasks[:2] for s in seats}
    moves |= {AssignAll(s) for s in seats}
    moves |= {PassTask(), Predict(rnd.randint(0, 14)), Distress("left"), TimeUp(), Retry(False), Retry(True)}
    moves |= {GiveCard(s, rnd.choice(DECK)) for s in seats}
    return moves


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 100_000), st.sampled_from([2, 3, 4, 5]), st.integers(1, 35))
def test_random_playthrough_invariants(seed, players, mission):
    rnd = random.Random(seed)
    session = Session(ENGINE, seed, {"players": players, "mission": mission})
    decided = {}
    for _ in range(90):
        state = session.state
        legal = set(ENGINE.legal_moves(state))
        for move in _candidates(state, rnd):
            assert (ENGINE.why_illegal(state, move) is None) == (move in legal), move
        refused = next((m for m in _candidates(state, rnd) if m not in legal), None)
        if refused is not None:
            before = ENGINE.state_to_json(state)
            try:
                ENGINE.apply(state, refused)
                raise AssertionError(f"{refused} was applied")
            except IllegalMoveError as err:
                assert err.violation.rule and err.violation.text("ja")
            assert ENGINE.state_to_json(state) == before
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
    replayed = Session.replay(ENGINE, seed, [str(m) for m in session.moves], {"players": players, "mission": mission})
    assert replayed.state == session.state
