"""The engine's fast paths agree with the plain ones they replace (benchmarks/crew_playouts.py).

* ``sonar_options_sorted`` (one pass over a hand in deck order) equals ``sonar_options``, and declines
  hands in any other order so the checked path explains them;
* shared events and refusals are equal values whose texts are the ones built afresh;
* the ledger carried on the states equals one rebuilt from the tricks, also after a JSON round trip
  and across retries (where the carried one must not be used).
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from toolkit.core.explain import Event
from toolkit.crew.cards import DECK, sonar_options, sonar_options_sorted
from toolkit.crew.engine import ENGINE, PlayCard, Retry, _ledger, _shared_ev
from toolkit.crew.tasks import Ledger


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(DECK), unique=True, max_size=14))
def test_sorted_sonar_options_match(hand):
    ordered = tuple(sorted(hand))
    fast = sonar_options_sorted(ordered)
    assert fast is not None
    assert list(fast.items()) == list(sonar_options(ordered).items())
    if list(hand) != sorted(hand):
        assert sonar_options_sorted(tuple(hand)) is None  # the checked path handles other orders
    if hand:
        assert sonar_options_sorted(ordered + (ordered[-1],)) is None  # a repeated card


def test_shared_events_equal_fresh_ones():
    card = DECK[7]
    shared = _shared_ev("CREW_EVT_PLAY", "crew.trick.own-card", 2, card=card)
    fresh = Event("CREW_EVT_PLAY", "crew.trick.own-card", seat=2, who=2, card=card)
    assert shared == fresh and hash(shared) == hash(fresh)
    assert shared.text("en") == fresh.text("en") and shared.text("ja") == fresh.text("ja")
    assert _shared_ev("CREW_EVT_PLAY", "crew.trick.own-card", 2, card=card) is shared


def _rebuilt(state, tricks):
    ledger = Ledger.start(state.players)
    for t in tricks:
        ledger = ledger.add(t)
    return ledger


def _same(a: Ledger, b: Ledger) -> bool:
    return all(getattr(a, k) == getattr(b, k) for k in Ledger.__slots__)


def test_carried_ledger_matches_rebuilt_one():
    rnd = random.Random(5)
    checked = 0
    for g in range(40):
        state = ENGINE.new_state(g, players=rnd.choice([2, 3, 4, 5]), mission=rnd.randint(1, 33))
        for _ in range(200):
            moves = ENGINE.legal_moves(state)
            if not moves:
                break
            if state.phase == "failed":
                moves = [m for m in moves if isinstance(m, Retry)]
                if state.attempt >= 2:
                    break
            move = moves[rnd.randrange(len(moves))]
            if isinstance(move, PlayCard) and len(state.trick) == state.seats - 1:
                after, _ = ENGINE.transition(state, move)
                tricks = after.tricks
                assert _same(_ledger(state, tricks), _rebuilt(state, tricks))
                loaded = ENGINE.state_from_json(ENGINE.state_to_json(state))
                assert "_ledger" not in loaded.__dict__
                assert _same(_ledger(loaded, tricks), _rebuilt(state, tricks))
                assert ENGINE.state_to_json(ENGINE.apply(loaded, move)) == ENGINE.state_to_json(after)
                checked += 1
            state = ENGINE.apply(state, move)
    assert checked > 50
