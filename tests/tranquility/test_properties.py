"""Property tests over random playthroughs with random options (all expansions included):

* every card (85 + start cards + expansion cards) is always in exactly one place;
* a running game always offers a move, and every event reads in both languages;
* tampered saved states are refused naming the problem.

The engine contract (legal ⇔ no violation, refusals change nothing, JSON round trip, exact replay, the
errors, own-seat moves) is checked for every game in tests/test_contract.py.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from toolkit.core import InvalidStateError
from toolkit.tranquility import ENGINE, PlaceIsland
from toolkit.tranquility.checks import check_state

options_st = st.fixed_dictionaries({
    "players": st.integers(1, 5),
    "rocks": st.booleans(),
    "monsters": st.sampled_from([0, 3, 5]),
    "storms": st.booleans(),
    "removal": st.sampled_from(["none", "galateia", "poseidon"]),
    "short_hand_loss": st.booleans(),
})


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(seed=st.integers(0, 10_000), options=options_st, data=st.data())
def test_random_playthroughs_keep_every_invariant(seed, options, data):
    state = ENGINE.new_state(seed, **options)
    check_state(state)
    for _ in range(70):
        if ENGINE.is_over(state):
            assert ENGINE.legal_moves(state) == []
            break
        legal = ENGINE.legal_moves(state)
        assert legal, "a game that is not over always offers a move"
        # prefer placements so games get somewhere, but take every kind of move sometimes
        places = [m for m in legal if isinstance(m, PlaceIsland) and len(m.discards) <= 1]
        pick = data.draw(st.integers(0, 9))
        move = places[pick % len(places)] if places and pick < 7 else legal[data.draw(st.integers(0, len(legal) - 1))]
        state, events = ENGINE.transition(state, move)
        check_state(state)  # 80 islands + 5 finish + start cards + expansion cards, each in one place
        for event in events:
            assert event.text("ja") and event.message


def test_tampered_json_is_refused_naming_the_problem():
    state = ENGINE.new_state(3, players=2)
    data = json.loads(ENGINE.state_to_json(state))
    island = next(c for c in data["hands"][1] if c <= 80)
    data["hands"][0][0] = island  # the same island twice
    with pytest.raises(InvalidStateError) as info:
        ENGINE.state_from_json(json.dumps(data))
    assert "conserved" in str(info.value)
    data = json.loads(ENGINE.state_to_json(state))
    data["cells"][0], data["cells"][1] = 50, 40
    data["played"] = [0, 1]
    with pytest.raises(InvalidStateError) as info:
        ENGINE.state_from_json(json.dumps(data))
    assert "ascending" in str(info.value)
    data = json.loads(ENGINE.state_to_json(state))
    data["options"]["players"] = 9
    with pytest.raises(InvalidStateError):
        ENGINE.state_from_json(json.dumps(data))
    with pytest.raises(InvalidStateError):
        ENGINE.state_from_json("{not json")
