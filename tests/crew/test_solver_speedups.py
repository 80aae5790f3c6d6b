"""The assumptions the solver's pure speed-ups rest on (docs/crew-bots.md "Speed"), checked on every task.

* A judge with ``owner_steps`` returns its progress unchanged when another seat wins the trick (the search
  skips its ``step`` for those tricks).
* ``_CardCount.status`` (clauses inline, one clause on a short path) answers as the straightforward reading
  of its clauses with ``_count_clause`` (the code before the speed-up, kept here as the reference).
* The memoised capture hints are the hints computed afresh.

The golden test (``test_solver_golden.py``) checks the whole search; these pin the pieces, with random
positions from seeded random playouts.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.crew.test_solver_judge import random_playout
from toolkit.crew.solver import COLOUR_MASK, DONE, FAILED, SUB, _winner_pos, make_judge
from toolkit.crew.solver.bounds import (_CardCount, _capture_hints, _capture_hints_of, _count_clause,
                                        _forced_mask, _reachable, _submarine_cap)
from toolkit.crew.solver.search import _RUNS, _Search
from toolkit.crew.tasks import CAPTAIN_COMPARISON, TASKS


def _reference_status(judge: _CardCount, p, j, rest, live, hands):
    """``_CardCount.status`` as it was before the speed-up."""
    reach = _reachable(judge.owner, hands, live) if rest else 0
    subcap = _submarine_cap(judge.owner, hands) if reach & judge.counted & COLOUR_MASK[SUB] else 0
    states = [_count_clause(c, cmp, n, (reach & m & ~COLOUR_MASK[SUB]).bit_count()
                            + min((reach & m & COLOUR_MASK[SUB]).bit_count(), subcap))
              for c, (m, cmp, n) in zip(p, judge.clauses)]
    if rest and judge.exact_subs and judge.use_forced:
        forced = _forced_mask(judge.owner, hands, rest)
        if forced:
            states = [FAILED if cmp == "==" and c + (forced & m).bit_count() > n else st
                      for st, c, (m, cmp, n) in zip(states, p, judge.clauses)]
    if judge.mode == "all":
        if FAILED in states:
            return FAILED
        if all(s == DONE for s in states):
            return DONE
    else:
        if DONE in states:
            return DONE
        if all(s == FAILED for s in states):
            return FAILED
    if rest == 0:
        return FAILED
    return p


def _walks(players: int, seeds: range):
    """(start hands as masks, tricks as (leader, codes, winner, wcard, tmask)) of seeded random playouts."""
    for seed in seeds:
        start, tricks, _ = random_playout(players, seed)
        hands = [sum(1 << c.index for c in h) for h in start]
        out = []
        for t in tricks:
            codes = tuple(c.index for c in t.cards)
            pos, wcard = _winner_pos(codes)
            out.append((t.leader, codes, (t.leader + pos) % players, wcard, sum(1 << c for c in codes)))
        yield hands, out


def _judges(players: int):
    for task_id, task in TASKS.items():
        if task.category == "trick_count_relative" and task.params.get("other") == "captain":
            owners = [1]  # never the captain compared with itself
        else:
            owners = [0, players - 1]
        for owner in owners:
            yield task_id, owner


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_skipped_steps_change_nothing_and_the_card_count_bounds_answer_as_before(players):
    last = 40 // players
    checked_steps = checked_status = 0
    for task_id, owner in _judges(players):
        if task_id in CAPTAIN_COMPARISON and owner == 0:
            continue
        for hands, tricks in _walks(players, range(3)):
            judge = make_judge(task_id, owner, players, 0, last, 2)
            p = judge.initial()
            live_hands = list(hands)
            for j, (leader, codes, winner, wcard, tmask) in enumerate(tricks, start=1):
                if judge.owner_steps:
                    # every other winner of the same cards: the progress must stay the very same object
                    for other in range(players):
                        if other != owner:
                            assert judge.step(p, j, leader, codes, other, wcard, tmask) is p, (task_id, j)
                            checked_steps += 1
                p = judge.step(p, j, leader, codes, winner, wcard, tmask)
                live_hands = [h & ~tmask for h in live_hands]
                if p in (DONE, FAILED):
                    break
                if isinstance(judge, _CardCount):
                    live = 0
                    for h in live_hands:
                        live |= h
                    rest = last - j
                    for use_forced in (True, False):
                        judge.use_forced = use_forced
                        assert judge.status(p, j, rest, live, live_hands) == _reference_status(
                            judge, p, j, rest, live, live_hands), (task_id, owner, j, use_forced)
                        # and at the end of the deal (nothing left to win)
                        assert judge.status(p, j, 0, 0, live_hands) == _reference_status(
                            judge, p, j, 0, 0, live_hands)
                        checked_status += 1
                    judge.use_forced = True
                    p = judge.status(p, j, rest, live, live_hands)
                    if p in (DONE, FAILED):
                        break
    assert checked_steps > 1000 and checked_status > 300


def test_the_memoised_capture_hints_are_the_fresh_ones():
    rng = np.random.default_rng(15)
    for _ in range(2000):
        cards = rng.permutation(40)
        hands = [sum(1 << int(c) for c in cards[i::4][:int(rng.integers(1, 11))]) for i in range(4)]
        owner = int(rng.integers(4))
        wanted = sum(1 << int(c) for c in rng.choice(40, size=int(rng.integers(0, 5)), replace=False))
        assert _capture_hints(owner, hands, wanted) == _capture_hints_of(hands[owner], wanted)
        assert _capture_hints(owner, hands, wanted) == _capture_hints_of(hands[owner], wanted)  # from the memo


# ---- the memo of _candidates' runs (_RUNS) is shared by every search of the process -----------------------

class _RunsProbe:
    """The two attributes ``_Search._candidates`` reads of its search."""

    reduce = True
    _runs = _Search._runs


def _plays(legal: int, live: int, sensitive: int, features: tuple[int, ...]) -> list[int]:
    return _Search._candidates(_RunsProbe(), legal, legal, live, sensitive, features, 0, -1, 0, -1, 0, 0, 0)


def test_a_search_with_another_number_of_feature_masks_never_gets_another_colour_s_runs():
    # Found by a 2-player study run: before the key counted the feature masks, the yellow 2 (code 19,
    # alone in its colour, 9th yellow sensitive, no mask) and the blue 2 (code 1, alone in its colour, one
    # mask) packed to the same key, so a search that came second "played" the yellow 2 from a hand without it.
    _RUNS.clear()
    pink = 1 << 30
    assert sorted(_plays(1 << 19 | pink, 1 << 19 | pink, 1 << 26, ())) == [19, 30]
    assert sorted(_plays(1 << 1 | pink, 1 << 1 | pink, 1 << 1, (1,))) == [1, 30]
    _RUNS.clear()                                                 # the other order gives the same answers
    assert sorted(_plays(1 << 1 | pink, 1 << 1 | pink, 1 << 1, (1,))) == [1, 30]
    assert sorted(_plays(1 << 19 | pink, 1 << 19 | pink, 1 << 26, ())) == [19, 30]


def test_memoised_runs_are_the_runs_computed_afresh_whatever_was_memoised_before():
    rng = np.random.default_rng(15)
    probe = _RunsProbe()
    calls = []
    for _ in range(3000):
        # late-game shapes (few live cards a colour) are where packed keys of different layouts meet
        live = int(sum(1 << int(c) for c in rng.choice(40, size=int(rng.integers(2, 12)), replace=False)))
        hand = live & int(rng.integers(0, 1 << 40))
        if not hand & (hand - 1):
            continue
        sensitive = live & int(rng.integers(0, 1 << 40)) & int(rng.integers(0, 1 << 40))
        features = tuple(int(rng.integers(0, 1 << 40)) & live for _ in range(int(rng.integers(0, 4))))
        calls.append((hand, live, sensitive, features))
    _RUNS.clear()
    memoised = [_plays(*call) for call in calls]
    for (hand, live, sensitive, features), got in zip(calls, memoised):
        fresh = [c for colour in range(5) if hand & COLOUR_MASK[colour]
                 for c in probe._runs(colour, hand, live, sensitive, features)]
        assert sorted(got) == sorted(fresh) and all(hand >> c & 1 for c in got)
