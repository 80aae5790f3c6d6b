"""The solver's fast task judges must agree with the engine's ``task_status`` — on every task.

The solver judges tasks incrementally with hand-aware bounds (it may see a task lost, or settled,
earlier than the table can). Soundness is what matters: whenever the fast judge says ``done`` or
``failed`` after some trick, the engine's verdict at the end of the mission must be the same, and at the
last trick both must agree exactly. Random legal playouts of seeded deals exercise every task for
several owners, at full length and as short endgames.
"""

from __future__ import annotations

import numpy as np
import pytest

from toolkit.crew.cards import Trick, deal, legal_plays, tricks_in_mission
from toolkit.crew.solver import DONE, FAILED, _winner_pos, make_judge
from toolkit.crew.tasks import CAPTAIN_COMPARISON, TASKS


def random_playout(players: int, seed: int, tricks: int | None = None):
    """Seeded random legal play: the hands at the start and the tricks, captain leading."""
    rng = np.random.default_rng([seed, players])
    hands = [list(h) for h in deal(players, seed)]
    if tricks is not None:  # an endgame: keep `tricks` cards per seat (plus one spare for seat 0 at 3)
        hands = [h[: tricks + (1 if players == 3 and s == 0 else 0)] for s, h in enumerate(hands)]
    start = [tuple(h) for h in hands]
    leader = next(s for s, h in enumerate(hands) if any(str(c) == "S4" for c in h)) if tricks is None else 0
    total = tricks if tricks is not None else tricks_in_mission(players)
    out = []
    for _ in range(total):
        plays = []
        for i in range(players):
            seat = (leader + i) % players
            options = legal_plays(hands[seat], plays[0] if plays else None)
            card = options[int(rng.integers(len(options)))]
            hands[seat].remove(card)
            plays.append(card)
        trick = Trick(leader, plays)
        out.append(trick)
        leader = trick.winner
    return start, out, leader


def engine_final(task_id, owner, tricks, players, captain, last, prediction=None):
    from toolkit.crew.solver import _engine_status

    return _engine_status(task_id, owner, tricks, players, captain, prediction, last)


def fast_statuses(task_id, owner, start, tricks, players, captain, last, prediction=None):
    """The fast judge's verdict after each trick: DONE, FAILED or None (pending)."""
    judge = make_judge(task_id, owner, players, captain, last, prediction)
    hands = [sum(1 << c.index for c in h) for h in start]
    p = judge.initial()
    out = []
    for j, t in enumerate(tricks, start=1):
        codes = tuple(c.index for c in t.cards)
        tmask = sum(1 << c for c in codes)
        pos, wcard = _winner_pos(codes)
        hands = [h & ~tmask for h in hands]
        if p not in (DONE, FAILED):
            p = judge.step(p, j, t.leader, codes, (t.leader + pos) % players, wcard, tmask)
        if p not in (DONE, FAILED):
            live = 0
            for h in hands:
                live |= h
            p = judge.status(p, j, last - j, live, hands)
        out.append(p if p in (DONE, FAILED) else None)
    return out


def check_task(task_id, players, seed, tricks=None):
    start, played, _ = random_playout(players, seed, tricks)
    captain = seed % players
    last = len(played)
    prediction = None
    if TASKS[task_id].needs_prediction:
        prediction = seed % (last + 1)
    for owner in range(players):
        if task_id in CAPTAIN_COMPARISON and owner == captain:
            continue
        fast = fast_statuses(task_id, owner, start, played, players, captain, last, prediction)
        final = engine_final(task_id, owner, played, players, captain, last, prediction)
        assert final in (DONE, FAILED), (task_id, owner, final)
        assert fast[-1] == final, (task_id, owner, seed, fast, final)
        for k, verdict in enumerate(fast, start=1):
            if verdict is not None:
                assert verdict == final, (task_id, owner, seed, k, verdict, final)
        # the engine's own early verdicts are final too
        for k in range(1, last + 1):
            early = engine_final(task_id, owner, played[:k], players, captain, last, prediction)
            assert early in ("pending", final), (task_id, owner, seed, k, early, final)


@pytest.mark.parametrize("task_id", sorted(TASKS))
def test_fast_judge_agrees_with_task_status_on_full_missions(task_id):
    for players in (3, 4, 5):
        for seed in range(4):
            check_task(task_id, players, seed)


@pytest.mark.parametrize("task_id", sorted(TASKS))
def test_fast_judge_agrees_with_task_status_on_short_endgames(task_id):
    for players in (3, 4, 5):
        for seed in range(3):
            check_task(task_id, players, 100 + seed, tricks=2 + seed)


def test_fast_judges_decide_streaks_of_play_the_engine_decides():
    # A hand-picked line: seat 0 wins the first two tricks with pink 9 then submarine 4.
    tricks = [Trick(0, ["P9", "P7", "Y2", "P8"]), Trick(0, ["S4", "S1", "B1", "G1"])]
    start = [("P9", "S4", "B2"), ("P7", "S1", "B3"), ("Y2", "B1", "B4"), ("P8", "G1", "B5")]
    from toolkit.crew.cards import Card
    start = [tuple(Card.parse(c) for c in h) for h in start]
    assert fast_statuses(78, 0, start, tricks, 4, 0, 3) == [None, DONE]
    assert fast_statuses(75, 0, start, tricks, 4, 0, 3) == [None, FAILED]
    assert engine_final(78, 0, tricks, 4, 0, 3) == "done"
    assert engine_final(75, 0, tricks, 4, 0, 3) == "failed"
