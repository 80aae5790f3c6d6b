"""close_calls: at each card played while the mission was winnable, which legal cards kept it winnable?

Checked against the brute force of tests/crew/test_coach.py on small endgames (through the SAT path and
the trick-completion path), against the engine's own legal moves on whole seeded games (four players and
two with TONOJA's columns), and for its refusals of bad input."""

import random

import pytest
from hypothesis import given, settings, strategies as st

from toolkit.core.bots import play_out
from toolkit.core.errors import RuleError
from toolkit.crew import ENGINE, PlayCard, close_calls, post_mortem
from toolkit.crew.cards import Trick, legal_plays
from tests.crew.test_coach import SETTINGS, brute_winnable, random_endgame, random_play, without_sat


def expected_choices(hands, tasks, tricks):
    """(trick, index, seat, card, legal, keeping) by brute force, up to the first card that loses."""
    seats = len(hands)
    if not brute_winnable(hands, tasks, 0, []):
        return []
    left = [list(h) for h in hands]
    flat: list = []
    out = []
    for t, tr in enumerate(tricks):
        lead, cards = (tr.leader, tr.cards) if isinstance(tr, Trick) else tr
        for k, card in enumerate(cards):
            seat = (lead + k) % seats
            legal = legal_plays(left[seat], cards[0] if k else None)
            keeping = [c for c in legal if brute_winnable(hands, tasks, 0, flat + [c])]
            if len(legal) > 1:
                out.append((t, k, seat, card, tuple(legal), tuple(keeping)))
            if card not in keeping:
                return out
            left[seat].remove(card)
            flat.append(card)
    return out


def check(seed, shape, n_tasks):
    seats, size = shape
    rng = random.Random(seed)
    hands, tasks = random_endgame(rng, seats, size, n_tasks)
    tricks = random_play(rng, hands, 0, rng.randint(1, seats * size))
    calls = close_calls(hands, tasks, tricks, leader=0, captain=0)
    got = [(c.trick, c.index, c.seat, c.card, c.legal, c.keeping) for c in calls.choices]
    assert got == expected_choices(hands, tasks, tricks)
    assert all(c.only == (c.keeping == (c.card,)) for c in calls.choices)
    assert calls.explain("en") and calls.explain("ja")


@settings(SETTINGS, max_examples=30)
@given(st.integers(0, 10**9), st.sampled_from([(3, 3), (3, 4), (4, 3)]), st.integers(1, 2))
def test_close_calls_agree_with_brute_force_on_small_endgames(seed, shape, n_tasks):
    check(seed, shape, n_tasks)


@settings(SETTINGS, max_examples=10)
@given(st.integers(0, 10**9), st.sampled_from([(3, 3), (4, 3)]), st.integers(1, 2))
def test_without_the_sat_solver_the_close_calls_agree_too(seed, shape, n_tasks):
    with without_sat():
        check(seed, shape, n_tasks)


def _review_inputs(start, final):
    tasks: dict[int, list] = {}
    for i, (t, o) in enumerate(zip(start.tasks, start.owners)):
        pred = start.predictions[i]
        tasks.setdefault(o, []).append(t if pred is None else (t, pred))
    hands = [list(start.hand(s)) for s in range(start.seats)]
    extra = {}
    if start.tonoja is not None:
        hands[start.tonoja] = [c for col in start.columns for c in (col.face_down, col.face_up) if c is not None]
        extra["columns"] = [(col.face_down, col.face_up) for col in start.columns]
    tricks = list(final.tricks) + ([(final.leader, list(final.trick))] if final.trick else [])
    return dict(hands=hands, tasks=tasks, tricks=tricks, leader=start.leader, captain=start.captain, **extra)


@pytest.mark.parametrize("players, levels, mission", [(4, "expert", 4), (2, "expert", 3), (3, "beginner", 5)])
def test_on_engine_games_each_choice_offers_the_engines_legal_cards(players, levels, mission):
    """Whole seeded games: every listed choice offers exactly the cards the engine allowed there, the card
    played is among them, and a won attempt keeps a winnable card at every choice."""
    checked = won = 0
    for seed in range(8):
        if checked == 3:
            break
        final, moves = play_out(ENGINE, seed, [levels] * players, players=players, mission=mission)
        state = ENGINE.new_state(seed, players=players, mission=mission)
        start = None
        legal_at: dict[tuple[int, int], set] = {}
        for m in moves:
            if isinstance(m, PlayCard):
                if start is None:
                    start = state
                if state.attempt != final.attempt:
                    break                 # a retry: the review is of the last attempt
                t, k = len(state.tricks), len(state.trick)
                legal_at[(t, k)] = {x.card for x in ENGINE.legal_moves(state) if isinstance(x, PlayCard)}
            state = ENGINE.apply(state, m)
        if start is None or final.attempt != start.attempt or start.distress_used:
            continue
        inputs = _review_inputs(start, final)
        calls = close_calls(**inputs, node_limit=200_000)
        pm = post_mortem(**inputs, node_limit=200_000)
        for c in calls.choices:
            assert set(c.legal) == legal_at[(c.trick, c.index)], (seed, c)
            assert c.card in c.legal
        if final.phase == "success" and pm.winnable_at_start:
            won += 1
            assert calls.choices and all(c.keeping is None or c.card in c.keeping for c in calls.choices)
        if pm.lost_after is not None and calls.choices and calls.choices[-1].keeping is not None:
            last = calls.choices[-1]
            assert (last.trick, last.index) == pm.lost_after and last.card not in last.keeping
        checked += 1
    assert checked == 3 and (won or levels != "expert")


@pytest.mark.parametrize("kwargs, error, words", [
    (dict(hands="P9 B1"), TypeError, "hands"),
    (dict(tasks=[76]), TypeError, "tasks"),
    (dict(tasks={3: [999]}), RuleError, "999"),
    (dict(tricks="P9"), TypeError, "tricks"),
    (dict(tricks=[(0, ["P9", "B2"])]), RuleError, "tricks[0] card 1"),
    (dict(leader="0"), TypeError, "leader"),
    (dict(captain=7), RuleError, "captain"),
    (dict(node_limit=0), RuleError, "node_limit"),
])
def test_bad_input_is_refused_naming_the_parameter(kwargs, error, words):
    args = dict(hands=[["P9", "B1"], ["P1", "B2"], ["P2", "B3"], ["P3", "B4"]], tasks={3: [76]},
                tricks=[(0, ["P9", "P1", "P2", "P3"])])
    args.update(kwargs)
    with pytest.raises(error) as info:
        close_calls(**args)
    assert words in str(info.value)
