"""Property tests over random playthroughs with random options (all expansions included):

* every card (85 + start cards + expansion cards) is always in exactly one place;
* ``why_illegal(s, m) is None`` exactly when ``m in legal_moves(s)`` — for legal and for random moves;
* a refused move raises and leaves the state exactly as it was;
* states survive a JSON round trip.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from toolkit.core import IllegalMoveError, InvalidStateError
from toolkit.tranquility import (ENGINE, FINISH, MONSTER, DiscardHand, DiscardTwo, MoveRock, PlaceIsland,
                                 PlayFinish, PlayMonster, PlayStart, ResolveStorm, RockDiscard, StartDiscard,
                                 UseCompass)
from toolkit.tranquility.checks import check_state

options_st = st.fixed_dictionaries({
    "players": st.integers(1, 5),
    "rocks": st.booleans(),
    "monsters": st.sampled_from([0, 3, 5]),
    "storms": st.booleans(),
    "removal": st.sampled_from(["none", "galateia", "poseidon"]),
    "short_hand_loss": st.booleans(),
})


def random_move(data, state):
    """A move that may or may not be legal, built from cards the seat holds and some it does not."""
    hand = list(state.hands[state.seat])
    pool = sorted(set(hand + [data.draw(st.integers(1, 80)), FINISH, MONSTER]))
    kind = data.draw(st.integers(0, 10))
    if kind == 0:
        number = data.draw(st.sampled_from([c for c in pool if c <= 80]))
        discards = data.draw(st.lists(st.sampled_from(pool), max_size=4, unique=True))
        return PlaceIsland(number, data.draw(st.integers(0, 35)), [c for c in discards if c != number])
    if kind == 1:
        return DiscardTwo(data.draw(st.lists(st.sampled_from(pool), min_size=2, max_size=2, unique=True)))
    if kind == 2:
        return data.draw(st.sampled_from([PlayStart(), PlayFinish(), PlayMonster(), DiscardHand()]))
    if kind == 3:
        return MoveRock(data.draw(st.integers(0, 5)))
    if kind == 4:
        return RockDiscard(data.draw(st.lists(st.sampled_from(pool), min_size=2, max_size=2, unique=True)))
    if kind == 5:
        return StartDiscard(data.draw(st.lists(st.sampled_from(pool), max_size=8, unique=True)),
                            data.draw(st.integers(0, 2)))
    if kind == 6:
        return ResolveStorm(row=data.draw(st.integers(-1, 5)))
    if kind == 7:
        return ResolveStorm(discards=data.draw(st.lists(st.sampled_from(pool), max_size=3, unique=True)))
    if kind == 8:
        return data.draw(st.sampled_from([UseCompass("storm"), UseCompass("yellow", 0), UseCompass("orange", 1),
                                          UseCompass("purple", 2)]))
    # otherwise a legal-looking placement near an existing card (often in range, sometimes not)
    number = data.draw(st.sampled_from([c for c in pool if c <= 80]))
    return PlaceIsland(number, data.draw(st.integers(0, 35)))


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
        for move in legal[:40]:
            assert ENGINE.why_illegal(state, move) is None
        probe = random_move(data, state)
        verdict = ENGINE.why_illegal(state, probe)
        assert (verdict is None) == (probe in legal)
        if verdict is not None:
            before = ENGINE.state_to_json(state)
            with pytest.raises(IllegalMoveError) as info:
                ENGINE.apply(state, probe)
            assert info.value.violation == verdict and verdict.rule.startswith(("tranquility.", "core."))
            assert ENGINE.state_to_json(state) == before  # refused: nothing changed
            assert verdict.text("ja") and verdict.message
        # prefer placements so games get somewhere, but take every kind of move sometimes
        places = [m for m in legal if isinstance(m, PlaceIsland) and len(m.discards) <= 1]
        pick = data.draw(st.integers(0, 9))
        move = places[pick % len(places)] if places and pick < 7 else legal[data.draw(st.integers(0, len(legal) - 1))]
        state, events = ENGINE.transition(state, move)
        check_state(state)  # 80 islands + 5 finish + start cards + expansion cards, each in one place
        for event in events:
            assert event.text("ja") and event.message
    again = ENGINE.state_from_json(ENGINE.state_to_json(state))
    assert again == state


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
