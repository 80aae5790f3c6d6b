"""Issue 28.1: a mission's own allocation rule holds for every allocation move (take, pass, assign,
volunteer), and ``allocation_review`` follows the same.

Every complete allocation the engine lets a table reach — by any sequence of legal allocation moves
(``mission_allocations`` walks them all) — is checked against each mission's rules written here from the
logbook text, independently of the engine's refusals.
"""

import pytest

from toolkit.crew import TASKS
from toolkit.crew.coach import allocation_review, mission_allocations
from toolkit.crew.engine import ENGINE, PassTask, TakeTask
from toolkit.crew.missions import mission


def _hardest_for_captain(tasks, players):
    """Mission 19: the most difficult task the captain may take (tasks comparing with the captain are
    never the captain's), the first revealed on a tie."""
    allowed = [t for t in tasks if not TASKS[t].captain_comparison] or list(tasks)
    best = max(TASKS[t].difficulty_for(players) for t in allowed)
    return next(t for t in allowed if TASKS[t].difficulty_for(players) == best)


def _broken_rules(number, tasks, owners, captain, players):
    """The mission's allocation rules that the complete allocation ``owners`` (one per task) breaks."""
    m = mission(number)
    seats = 3 if players == 2 else players
    broken = []
    if any(TASKS[t].captain_comparison and o == captain for t, o in zip(tasks, owners)):
        broken.append("crew.alloc.captain-comparison")
    if m.allocation in ("one", "captain") or (m.allocation == "volunteers" and m.volunteers == 1):
        if len(set(owners)) != 1:
            broken.append(m.rule)
    if m.allocation == "volunteers" and m.volunteers == 2 and len(tasks) >= 2 and len(set(owners)) != 2:
        broken.append(m.rule)
    if m.allocation == "standard":
        order = [(captain + i) % seats for i in range(seats)]
        if number == 25:
            order.remove(captain)
            if captain in owners:
                broken.append("crew.mission.captain-no-task")
        counts = [owners.count(s) for s in order]
        if len(tasks) < len(order):
            if max(counts) > 1:
                broken.append("crew.alloc.pass")
        elif max(counts) - min(counts) > 1:
            broken.append("crew.alloc.order")
        if number == 19 and owners[tasks.index(_hardest_for_captain(tasks, players))] != captain:
            broken.append("crew.mission.hardest-first")
    return broken


def test_mission_19_the_captain_may_not_pass_the_hardest_task_on():
    """The issue's case: fewer tasks than players, the captain was offered ``pass``, the next seat took
    the hardest task and the captain could end with none (86 of 100 seeds at 5 players, 39 at 4)."""
    for players in (4, 5):
        for seed in range(100):
            s = ENGINE.new_state(seed, players=players, mission=19)
            if ENGINE.chooser(s) != s.captain:
                continue   # a captain who can take none of the tasks is skipped
            assert PassTask() not in ENGINE.legal_moves(s), (players, seed)
            v = ENGINE.why_illegal(s, PassTask())
            assert v.rule == "crew.mission.hardest-first" and v.code == "CREW_HARDEST_FIRST_NO_PASS"
            assert str(_hardest_for_captain(s.tasks, players)) in v.text("en") and "パス" in v.text("ja")
            for owners in mission_allocations(list(s.tasks), players, s.captain, 19):
                assert owners[s.tasks.index(_hardest_for_captain(s.tasks, players))] == s.captain


def test_mission_19_passing_stays_open_after_the_captains_choice():
    """Only the captain's first choice is bound: with fewer tasks than players the next seats may pass."""
    for seed in range(40):
        s = ENGINE.new_state(seed, players=5, mission=19)
        if len(s.tasks) >= 5 or ENGINE.chooser(s) != s.captain:
            continue
        s = ENGINE.apply(s, TakeTask(_hardest_for_captain(s.tasks, 5)))
        if s.phase == "allocate" and len(s.tasks) - 1 < 5 - s.turn:
            assert PassTask() in ENGINE.legal_moves(s)
            return
    raise AssertionError("no deal with a second chooser free to pass")


# every mission with task cards, at 2 (with TONOJA) to 5 players, two seeded deals each
CASES = [(n, players, seed) for n in range(1, 33) if mission(n).has_tasks
         for players in (2, 3, 4, 5) for seed in range(2)]


@pytest.mark.parametrize("number,players,seed", CASES)
def test_every_allocation_the_engine_allows_keeps_the_missions_rules(number, players, seed):
    s = ENGINE.new_state(seed, players=players, mission=number)
    assert s.phase == "allocate"
    tasks = list(s.tasks)
    if mission(number).allocation in ("free", "volunteers"):
        tasks = tasks[:4]   # free choice: seats ** tasks allocations; four tasks show the rules
    reached = mission_allocations(tasks, players, s.captain, number)
    assert reached
    for owners in reached:
        assert _broken_rules(number, tasks, list(owners), s.captain, players) == [], owners


def test_allocation_review_offers_only_what_mission_19_allows():
    """``allocation_review(mission=19)`` walks the engine's moves, so a pass by the captain is no longer
    among the allocations it solves."""
    hands = [["P9", "B1"], ["P1", "B2"], ["P2", "B3"], ["P3", "B4"]]
    easy, hard = 76, next(t for t in sorted(TASKS) if TASKS[t].difficulty_for(4) > TASKS[76].difficulty_for(4)
                           and not TASKS[t].captain_comparison and not TASKS[t].needs_prediction)
    review = allocation_review(hands, {0: [hard], 1: [easy]}, captain=0, mission=19, node_limit=2000)
    assert review.allocations and "crew.mission.hardest-first" in review.rules
    for alloc, _winnable in review.allocations:
        assert hard in alloc.get(0, ()), alloc
    assert review.played == {0: (hard,), 1: (easy,)}
