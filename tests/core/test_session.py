import json

import pytest
from hypothesis import given, settings, strategies as st

from tinygame import STONES, StonesState, Take
from toolkit.core import IllegalMoveError, InvalidMoveError, InvalidStateError, Session


def test_not_your_turn_is_refused_with_reason():
    s = Session(STONES, seed=1)
    v = s.try_push(Take(1, 1))
    assert v is not None and v.rule == "core.turn" and v.code == "NOT_YOUR_TURN"
    assert len(s) == 0


def test_no_moves_after_the_end():
    s = Session(STONES, seed=3)
    while not STONES.is_over(s.state):
        s.push(STONES.legal_moves(s.state)[-1])
    assert STONES.legal_moves(s.state) == []
    v = STONES.why_illegal(s.state, Take(0, 1))
    assert v.rule == "core.over"
    out = STONES.outcome(s.state)
    assert out.result == "win" and out.winners == (s.moves[-1].seat,)


def test_same_seed_same_game_and_replay_reproduces_it():
    assert STONES.new_state(42) == STONES.new_state(42)
    assert {STONES.new_state(s).pile for s in range(30)} == set(range(10, 16))
    s = Session(STONES, seed=42)
    for text in ["0 take 3", "1 take 2", "0 take 1"]:
        s.push(text)
    again = Session.from_json(STONES, s.to_json())
    assert again.state == s.state and again.moves == s.moves
    assert [e.rule for e in again.events] == [e.rule for e in s.events]


def test_undo_and_positions():
    s = Session(STONES, seed=5)
    start = s.state
    s.push("0 take 2")
    after = s.state
    s.push("1 take 1")
    assert s.at(0) == start and s.at(1) == after
    assert s.undo() == Take(1, 1) and s.state == after
    s.truncate(0)
    assert s.state == start and s.undo() is None
    with pytest.raises(InvalidMoveError, match="no position 9"):
        s.at(9)


def test_events_carry_rule_ids():
    s = Session(STONES, seed=5)
    s.push("0 take 2")
    (event,) = s.events
    assert event.rule == "tiny.take.range" and event.seat == 0 and "took 2" in event.message


def test_malformed_input_is_invalid_move_error_quoting_it():
    with pytest.raises(InvalidMoveError, match="'take three'"):
        Session(STONES, seed=0).push("take three")
    with pytest.raises(InvalidMoveError, match="not a tiny move"):
        STONES.apply(STONES.new_state(0), "0 take 1" and object())


def test_replay_of_an_illegal_playthrough_raises_the_refusal():
    with pytest.raises(IllegalMoveError) as info:
        Session.replay(STONES, 0, ["0 take 1", "0 take 1"])
    assert info.value.rule == "core.turn"


@pytest.mark.parametrize("text, match", [
    ("[]", "needs 'seed' and 'moves'"),
    ('{"seed": "x", "moves": []}', "must be an integer"),
    ('{"game": "crew", "seed": 1, "moves": []}', "for 'crew'"),
    ("not json", "not a saved playthrough"),
])
def test_bad_saved_playthroughs(text, match):
    with pytest.raises(InvalidStateError, match=match):
        Session.from_json(STONES, text)


def test_state_json_round_trip_and_invariant_check():
    s = Session(STONES, seed=9)
    s.push("0 take 1")
    text = STONES.state_to_json(s.state)
    assert STONES.state_from_json(text) == s.state
    broken = json.loads(text)
    broken["to_move"] = 7
    with pytest.raises(InvalidStateError, match="to_move 7"):
        STONES.state_from_json(json.dumps(broken))
    broken = json.loads(text)
    broken["chance"] = {"seed": "x"}
    with pytest.raises(InvalidStateError, match=r"state\.chance\.seed"):
        STONES.state_from_json(json.dumps(broken))


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.lists(st.tuples(st.integers(-1, 4), st.integers(-2, 5)), max_size=25))
def test_legal_iff_no_violation_and_refusals_leave_state_unchanged(seed, attempts):
    state = STONES.new_state(seed)
    for seat, count in attempts:
        move = Take(seat, count)
        legal = STONES.legal_moves(state)
        violation = STONES.why_illegal(state, move)
        assert (violation is None) == (move in legal)
        if violation is None:
            state = STONES.apply(state, move)
        else:
            before = state
            with pytest.raises(IllegalMoveError) as info:
                STONES.apply(state, move)
            assert info.value.violation == violation and state == before
    assert isinstance(state, StonesState)
