"""Properties over random seeded playthroughs of every variant and player count.

* 54 charm cards and every token are conserved; every state passes ``validate_state``;
* a game reaches its end, and every event names a registered rule and reads in both languages.

The engine contract (legal ⇔ no violation, refusals change nothing, JSON round trip, exact replay, the
errors, own-seat moves) is checked for every game in tests/test_contract.py.
"""

from hypothesis import given, settings, strategies as st

from pirats_helpers import playthrough
from toolkit.core import Session
from toolkit.pirats import ENGINE, VARIANTS

GAMES = st.tuples(st.integers(0, 10**6), st.integers(2, 5), st.sampled_from(VARIANTS))


@settings(max_examples=8, deadline=None)
@given(game=GAMES)
def test_cards_and_tokens_are_conserved(game):
    seed, players, variant = game
    for state, move in playthrough(seed, players, variant):
        assert ENGINE.card_count(state) == 54
        assert ENGINE.token_count(state) == 56
        ENGINE.validate_state(state)
        if move is None:
            assert ENGINE.outcome(state) is not None
            break


@settings(max_examples=5, deadline=None)
@given(game=GAMES)
def test_every_event_of_a_game_reads_in_both_languages(game):
    seed, players, variant = game
    moves = []
    for state, move in playthrough(seed, players, variant):
        if move is None:
            break
        moves.append(str(move))
    session = Session.replay(ENGINE, seed, moves, {"players": players, "variant": variant})
    assert session.outcome() is not None
    for event in session.events[:200]:
        assert event.rule.startswith(("pirats.", "core.")) and event.text("en") and event.text("ja")
