"""allocation_review honours the missions' own allocation rules.

Two independent checks: (1) the allocations a mission allows, as the engine walks them
(``mission_allocations``), equal the ones written here from each rule's text (a case per allocation kind:
clockwise take/pass, free, all to one member, the captain takes or gives all, volunteers, mission 19's
hardest task first, mission 25's captain without a task, and the captain never holding a captain
comparison); (2) on small deals every verdict of ``allocation_review(mission=...)`` agrees with a brute
force over every legal line of play for exactly those allocations."""

import random
from itertools import permutations, product

import pytest

from tests.crew.test_coach import SMALL_TASKS, brute_winnable, random_endgame
from toolkit.core.errors import RuleError
from toolkit.crew import allocation_review
from toolkit.crew.coach import mission_allocation_rules, mission_allocations
from toolkit.crew.tasks import TASKS

COMPARISON = [t for t in TASKS if TASKS[t].captain_comparison]     # 4, 5, 6: "more tricks than the captain"…


def by_rule_text(mission: int, ids: list[int], seats: int, captain: int) -> set[tuple[int, ...]]:
    """The allocations a mission allows, written from the rule texts (not from the engine)."""
    cc = [TASKS[t].captain_comparison for t in ids]
    everything = set(product(range(seats), repeat=len(ids)))
    never_captain = {o for o in everything if not any(c and s == captain for c, s in zip(cc, o))}
    if mission in (6, 10, 13, 14):    # all to one member / the captain takes all or gives all / one volunteer
        return {o for o in never_captain if len(set(o)) == 1}
    if mission in (17, 28, 33):       # free selection
        return never_captain
    if mission == 26:                 # two volunteers share the tasks
        return {o for o in never_captain if len(set(o)) == min(2, len(ids))}
    # clockwise from the captain (mission 25: the captain takes none), one task at a time
    order = [(captain + i) % seats for i in range(seats)]
    if mission == 25:
        order.remove(captain)
    out = set()
    if len(ids) >= len(order):        # no passing: counts go round from the first chooser
        counts = [0] * seats
        for i in range(len(ids)):
            counts[order[i % len(order)]] += 1
        out = {o for o in never_captain if all(o.count(s) == counts[s] for s in range(seats))}
    else:                             # fewer tasks than choosers: each chooser takes at most one
        out = {o for o in never_captain if len(set(o)) == len(o) and set(o) <= set(order)}
    if mission == 19:   # the captain's first take, no pass (issue 28.1): the hardest task the captain may take
        allowed = [t for t, c in zip(ids, cc) if not c]
        if allowed:     # (a captain who may take none of them is skipped)
            hardest = max(allowed, key=lambda t: TASKS[t].difficulty_for(seats))
            tied = [t for t in allowed if TASKS[t].difficulty_for(seats) == TASKS[hardest].difficulty_for(seats)]
            out = {o for o in out if o[ids.index(tied[0])] == captain}   # ties: earliest revealed
    return out


KINDS = {1: "crew.alloc.order", 6: "crew.mission.one-member", 10: "crew.mission.captain-gives",
         14: "crew.realtime.timer", 17: "crew.alloc.free", 19: "crew.mission.hardest-first",
         25: "crew.mission.captain-no-task", 26: "crew.realtime.timer"}


@pytest.mark.parametrize("mission", sorted(KINDS))
def test_each_allocation_kind_allows_what_its_rule_says(mission):
    rng = random.Random(mission)
    assert KINDS[mission] in mission_allocation_rules(mission)
    plain = [t for t in TASKS if not TASKS[t].captain_comparison and not TASKS[t].needs_prediction]
    for seats in (3, 4, 5):
        for n in (1, 2, 3, 4):
            for _ in range(3):
                ids = sorted(rng.sample(plain, n - 1) + [rng.choice(COMPARISON if rng.random() < 0.4 else plain)])
                if len(set(ids)) < n or (mission == 26 and n < 2):   # 26 draws at least two tasks
                    continue
                if mission in (1, 19, 25) and n >= seats - (mission == 25) and any(t in COMPARISON for t in ids):
                    continue   # a skipped captain changes the counts: its own test below
                captain = rng.randrange(seats)
                got = set(mission_allocations(ids, seats, captain, mission))
                assert got == by_rule_text(mission, ids, seats, captain), (mission, seats, ids, captain)


def test_a_captain_left_with_only_captain_comparisons_is_skipped():
    """3 seats, captain 0, tasks 4 (more tricks than the captain), 16, 17, 60: clockwise 0, 1, 2, 0. If only
    task 4 is left at the captain's second turn the captain is skipped and seat 1 takes it (counts 1, 2, 1);
    otherwise the counts go round (2, 1, 1)."""
    ids = [4, 16, 17, 60]
    got = set(mission_allocations(ids, 3, 0, 1))
    round_ = {o for o in product(range(3), repeat=4) if o[0] != 0 and [o.count(s) for s in range(3)] == [2, 1, 1]}
    skipped = {o for o in product(range(3), repeat=4) if o[0] == 1 and [o.count(s) for s in range(3)] == [1, 2, 1]}
    assert got == round_ | skipped


def test_a_captain_comparison_task_never_goes_to_the_captain_in_any_mission():
    for mission in (1, 6, 10, 17, 19, 25, 26):
        for owners in mission_allocations([4, 16], 4, 2, mission):
            assert owners[0] != 2
        assert "crew.alloc.captain-comparison" in mission_allocation_rules(mission, [4, 16])


@pytest.mark.parametrize("seed", range(6))
def test_review_for_a_mission_agrees_with_brute_force_over_its_allowed_allocations(seed):
    rng = random.Random(seed)
    mission = [1, 6, 10, 17, 19, 25][seed]
    seats = 3 + seed % 2
    hands, _ = random_endgame(rng, seats, 3, 1)
    ids = sorted(rng.sample(SMALL_TASKS, 2))
    captain = rng.randrange(seats)
    review = allocation_review(hands, {captain if mission not in (25,) else (captain + 1) % seats: ids},
                               leader=captain, captain=captain, mission=mission)
    allowed = by_rule_text(mission, ids, seats, captain)
    got = {}
    for alloc, winnable in review.allocations:
        owners = tuple(next(s for s, ts in alloc.items() if t in ts) for t in ids)
        got[owners] = winnable
        assert winnable == brute_winnable(hands, {s: list(ts) for s, ts in alloc.items()}, captain, [])
    assert set(got) == allowed
    assert review.rules == mission_allocation_rules(mission, ids)


def test_mission_six_counts_only_one_member_and_says_which_rule():
    hands = [["P9", "B1"], ["P1", "B2"], ["P2", "B3"], ["P3", "B4"]]
    review = allocation_review(hands, {3: [76, 79]}, mission=6)
    assert [sorted(a) for a, _ in review.allocations] == [[0], [1], [2], [3]]
    assert review.rules == ("crew.mission.one-member",)
    assert "Mission 6: one member takes every task" in review.explain("en")
    assert "任務6：1人が全タスク" in review.explain("ja")
    # without a mission the standard rule applies: one task each, any two seats (4 * 3 ways)
    assert len(allocation_review(hands, {3: [76], 0: [79]}).allocations) == 12


def test_two_players_with_tonoja_walks_the_three_seats():
    got = mission_allocations([16, 17], 2, 0, 1)
    assert got and all(len(o) == 2 for o in got) and {s for o in got for s in o} <= {0, 1, 2}
    with pytest.raises(RuleError, match="TONOJA"):
        mission_allocations([16], 2, 2, 1)


@pytest.mark.parametrize("kwargs, error, words", [
    (dict(mission=8), RuleError, "no task cards"),
    (dict(mission=99), RuleError, "99"),
    (dict(mission="6"), TypeError, "mission"),
    (dict(players=5), RuleError, "players=5"),
    (dict(players="4"), TypeError, "players"),
])
def test_bad_mission_input_is_refused(kwargs, error, words):
    hands = [["P9", "B1"], ["P1", "B2"], ["P2", "B3"], ["P3", "B4"]]
    with pytest.raises(error) as info:
        allocation_review(hands, {3: [76]}, **kwargs)
    assert words in str(info.value)


def test_orderings_do_not_matter_to_the_walk():
    """The same tasks given in any order give the same allocations (re-indexed)."""
    ids = [16, 17, 76]
    base = {o for o in mission_allocations(ids, 4, 1, 17)}
    for perm in permutations(range(3)):
        again = mission_allocations([ids[i] for i in perm], 4, 1, 17)
        assert {tuple(o[perm.index(k)] for k in range(3)) for o in again} == base
