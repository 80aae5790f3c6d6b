"""Random playthroughs (hypothesis): gems and cards are conserved, moves and events read in both languages,
full games end with a winner, views hide hands and the bag's order.

The engine contract (legal ⇔ no violation — here: listed ⇔ accepted and listable —, refusals change nothing,
JSON round trip, exact replay, the errors, own-seat moves) is checked for every game in
tests/test_contract.py."""

from __future__ import annotations

import random

from hypothesis import given, settings, strategies as st

from deepblue_helpers import E
from toolkit.deepblue import gem_total


def _play(seed: int, players: int, scenario: str, gems_return: bool, steps: int, check_all: bool):
    rng = random.Random(seed)
    state = E.new_state(seed, players=players, scenario=scenario, gems_return=gems_return)
    total = gem_total(state)
    moves = []
    for _ in range(steps):
        if E.is_over(state):
            assert E.legal_moves(state) == []
            break
        legal = E.legal_moves(state)
        assert legal, "a running game always has a move"
        for m in (legal if check_all else rng.sample(legal, min(4, len(legal)))):
            assert E.describe_move(m, "ja", state) != E.describe_move(m, "en", state)
        move = rng.choice(legal)
        state, events = E.transition(state, move)
        moves.append(str(move))
        assert gem_total(state) == total
        assert all(e.text("ja") for e in events)
    E.validate_state(state)
    return state, moves


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(2, 5),
       scenario=st.sampled_from(["troubled-waters", "best-of-the-best", "scattered-wealth", "unknown-4"]),
       gems_return=st.booleans())
def test_random_playthroughs_keep_the_invariants(seed, players, scenario, gems_return):
    _play(seed, players, scenario, gems_return, steps=400, check_all=False)


def test_full_games_end_with_a_winner():
    for seed in range(4):
        state, _ = _play(seed, 2 + seed % 4, "troubled-waters", True, steps=3000, check_all=seed == 0)
        assert E.is_over(state)
        out = E.outcome(state)
        assert out.scores == tuple(p.chest for p in state.players)
        assert max(out.scores) == out.scores[out.winners[0]]
        assert len(state.sunken_cities) == 4


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 120))
def test_observation_hides_other_hands_and_the_bag_order(seed, steps):
    state, _ = _play(seed, 3, "troubled-waters", True, steps=steps, check_all=False)
    for seat in (0, 1, 2, None):
        view = E.observe(state, seat)
        for entry in view["players"]:
            assert ("hand" in entry) == (entry["seat"] == seat)
        assert "deck" not in view and set(view["bag"]) >= {"black", "blue"}
        for tile in view["tiles"]:
            assert tile["face_up"] or set(tile) == {"site", "face_up"}
