"""Properties over random seeded playthroughs of every variant and player count.

* legal ⇔ no violation, over every legal move and a sample of other candidates;
* refused moves raise IllegalMoveError and leave the state unchanged;
* 54 charm cards and every token are conserved; saved states load back; a game replays from (seed, moves).
"""

import random

from hypothesis import given, settings, strategies as st

from pirats_helpers import candidate_moves, playthrough
from toolkit.core import IllegalMoveError, Session
from toolkit.pirats import ENGINE, VARIANTS

GAMES = st.tuples(st.integers(0, 10**6), st.integers(2, 5), st.sampled_from(VARIANTS))


@settings(max_examples=8, deadline=None)
@given(game=GAMES)
def test_legal_iff_no_violation_and_refusals_change_nothing(game):
    seed, players, variant = game
    rng = random.Random(seed)
    tokens = None
    for step, (state, move) in enumerate(playthrough(seed, players, variant)):
        legal = ENGINE.legal_moves(state)
        assert len(set(legal)) == len(legal), "no duplicate legal moves"
        for m in legal:
            assert ENGINE.why_illegal(state, m) is None, m
        others = [m for m in candidate_moves(state) if m not in set(legal)]
        for m in rng.sample(others, min(12, len(others))):
            violation = ENGINE.why_illegal(state, m)
            assert violation is not None, m
            assert violation.rule.startswith(("pirats.", "core.")) and violation.text("ja")
            before = ENGINE.state_to_json(state)
            try:
                ENGINE.apply(state, m)
            except IllegalMoveError as exc:
                assert exc.violation == violation
            else:
                raise AssertionError(f"{m} was applied although refused")
            assert ENGINE.state_to_json(state) == before
        assert ENGINE.card_count(state) == 54
        tokens = tokens if tokens is not None else ENGINE.token_count(state)
        assert ENGINE.token_count(state) == tokens == 56
        ENGINE.validate_state(state)
        if step % 25 == 0:
            assert ENGINE.state_from_json(ENGINE.state_to_json(state)) == state
        if move is None:
            assert ENGINE.outcome(state) is not None
            break


@settings(max_examples=5, deadline=None)
@given(game=GAMES)
def test_a_game_replays_exactly_from_seed_and_moves(game):
    seed, players, variant = game
    moves, final = [], None
    for state, move in playthrough(seed, players, variant):
        if move is None:
            final = state
            break
        moves.append(str(move))
    session = Session.replay(ENGINE, seed, moves, {"players": players, "variant": variant})
    assert session.state == final
    assert session.outcome() == ENGINE.outcome(final)
    # every event names a registered rule and reads in both languages
    for event in session.events[:200]:
        assert event.text("en") and event.text("ja")
