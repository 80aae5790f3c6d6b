"""Crew bots: the engine's who-acts hooks, the extended observation, the levels in toolkit.crew.BOTS."""

from __future__ import annotations

import numpy as np
import pytest

from toolkit.core.bots import BotTable, play_out
from toolkit.crew import BOTS, ENGINE, AssignAll, AssignTask, Distress, GiveCard, PlayCard, Sonar, TimeUp
from toolkit.crew.engine import TONOJA


def _to_play(state, rng=None):
    """Advance a fresh state to the first trick with random allocation/prediction moves."""
    rng = rng or np.random.default_rng(0)
    while state.phase in ("allocate", "predict"):
        legal = ENGINE.legal_moves(state)
        state = ENGINE.apply(state, legal[int(rng.integers(len(legal)))])
    return state


def test_captain_decides_for_tonoja():
    for seed in range(40):
        state = _to_play(ENGINE.new_state(seed, players=2, mission=3))
        while state.phase == "play" and ENGINE.current_player(state) != TONOJA:
            state = ENGINE.apply(state, next(m for m in ENGINE.legal_moves(state) if isinstance(m, PlayCard)))
        if state.phase != "play":
            continue
        assert ENGINE.decider(state) == state.captain
        move = next(m for m in ENGINE.legal_moves(state) if isinstance(m, PlayCard))
        assert ENGINE.actor(state, move) == state.captain
        assert TONOJA not in ENGINE.optional_actors(state)
        assert ENGINE.seat_count(state) == 2
        return
    pytest.fail("no position with TONOJA to play")


def test_sonar_and_gifts_carry_their_seat_and_time_up_is_nobody_s():
    state = _to_play(ENGINE.new_state(4, players=4, mission=14, timed=True))
    legal = ENGINE.legal_moves(state)
    sonars = [m for m in legal if isinstance(m, Sonar)]
    assert {ENGINE.actor(state, m) for m in sonars} == set(ENGINE.optional_actors(state))
    assert len(ENGINE.optional_actors(state)) == 4
    assert all(ENGINE.actor(state, m) == m.seat for m in sonars)
    assert ENGINE.actor(state, next(m for m in legal if isinstance(m, TimeUp))) is None
    state = ENGINE.apply(state, Distress("left"))
    assert state.phase == "distress"
    gifts = [m for m in ENGINE.legal_moves(state) if isinstance(m, GiveCard)]
    assert all(ENGINE.actor(state, m) == m.seat for m in gifts)
    assert set(ENGINE.optional_actors(state)) == {0, 1, 2, 3}


def test_the_chooser_assigns_tasks_not_their_target():
    state = ENGINE.new_state(2, players=4, mission=17)      # free allocation: the captain assigns
    legal = ENGINE.legal_moves(state)
    assigns = [m for m in legal if isinstance(m, AssignTask)]
    assert {m.seat for m in assigns} == {0, 1, 2, 3}
    assert {ENGINE.actor(state, m) for m in assigns} == {state.captain}
    state = ENGINE.new_state(2, players=4, mission=6)       # one player takes every task
    assert {ENGINE.actor(state, m) for m in ENGINE.legal_moves(state) if isinstance(m, AssignAll)} == {state.captain}


def test_play_out_is_one_attempt_and_deterministic():
    for seed in range(6):
        a = play_out(ENGINE, seed, ["random"] * 4, mission=4)
        b = play_out(ENGINE, seed, ["random"] * 4, mission=4)
        assert a[1] == b[1]
        assert a[0].phase in ("success", "failed") and a[0].attempt == 1
        assert ENGINE.play_out_over(a[0])


def test_observe_remembers_tricks_communications_voids_and_only_your_own_exchange():
    state = _to_play(ENGINE.new_state(7, players=4, mission=2))
    state = ENGINE.apply(state, Distress("left"))
    while state.phase == "distress":
        state = ENGINE.apply(state, ENGINE.legal_moves(state)[0])
    view = ENGINE.observe(state, 0)
    assert [(p["giver"], p["receiver"]) for p in view["memory"]["passed"]] in ([(3, 0), (0, 1)], [(0, 1), (3, 0)])
    assert len(ENGINE.observe(state, 2)["memory"]["passed"]) == 2 and ENGINE.observe(state, 2)["memory"]["passed"] != view["memory"]["passed"]
    sonar = next(m for m in ENGINE.legal_moves(state) if isinstance(m, Sonar) and m.seat == state.leader)
    state = ENGINE.apply(state, sonar)
    state = ENGINE.apply(state, PlayCard(sonar.card))     # the communicated card is played at once
    while state.trick:
        state = ENGINE.apply(state, next(m for m in ENGINE.legal_moves(state) if isinstance(m, PlayCard)))
    view = ENGINE.observe(state, 1)
    assert view["communicated"] == []                      # the reminder went back...
    assert view["memory"]["sent"] == [{"seat": sonar.seat, "card": str(sonar.card), "position": sonar.position, "trick": 0}]
    assert len(view["memory"]["tricks"]) == 1 and view["memory"]["tricks"][0]["cards"][0] == str(sonar.card)
    trick = state.tricks[0]
    led = trick.cards[0].suit
    for i, c in enumerate(trick.cards):
        seat = (trick.leader + i) % 4
        assert (led in view["memory"]["voids"][seat]) == (c.suit != led)
    assert view["decider"] == ENGINE.decider(state)


def test_bots_registry_lists_levels_and_a_table_asks_only_the_seat_s_own_moves():
    assert list(BOTS)[-1] == "random"
    state = _to_play(ENGINE.new_state(3, players=4, mission=1))
    table = BotTable(ENGINE, ["random"] * 4, seed=3)
    seen = set()
    for _ in range(200):
        step = table.step(state)
        if step is None:
            break
        seat, decision = step
        assert ENGINE.actor(state, decision.move) == seat
        seen.add(type(decision.move).__name__)
        state = ENGINE.apply(state, decision.move)
    assert "PlayCard" in seen
