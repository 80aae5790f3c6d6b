"""The logbook: missions 1–32, the epilogue, mission-level conditions and real-time missions."""

import pytest

from toolkit.core import IllegalMoveError, InvalidOptionError
from toolkit.crew import TASKS
from toolkit.crew.engine import ENGINE, AssignAll, PlayCard, TakeTask, parse_move
from toolkit.crew.missions import mission

from .helpers import PINK_NINE_HANDS, run


def test_missions_catalogue():
    assert mission(1).difficulty == 1 and mission(31).difficulty == 17
    assert mission(9).communication == "currents" and mission(11).communication == "rapture"
    assert mission(20).communication == "unfamiliar" and mission(20).condition is None
    assert [n for n in range(1, 33) if mission(n).condition] == [8, 12, 21, 23, 27]
    assert mission(32).fixed_tasks == (74, 88, 85, 80)
    assert mission(17).allocation == "free" and mission(28).allocation == "free"
    assert mission(14).allocation == "volunteers"


def test_epilogue_missions():
    """Shows "crew.mission.epilogue"."""
    m = mission(33)
    assert m.difficulty == 18 and m.allocation == "free"
    assert mission(40).difficulty == 25
    with pytest.raises(IllegalMoveError) as err:
        mission(61)
    assert err.value.rule == "crew.mission.catalogue"


def test_mission_6_all_tasks_to_one_member():
    s = ENGINE.new_state(1, players=4, mission=6)
    moves = ENGINE.legal_moves(s)
    assert moves and all(isinstance(m, AssignAll) for m in moves)
    assert ENGINE.why_illegal(s, TakeTask(s.tasks[0])).rule == "crew.mission.one-member"
    target = moves[0].seat
    s = ENGINE.apply(s, moves[0])
    assert set(s.owners) == {target}


def test_mission_10_captain_gives_all():
    s = ENGINE.new_state(2, players=4, mission=10)
    other = (s.captain + 1) % 4
    s, ev = run(s, f"assign all to {other}")
    assert set(s.owners) == {other} and s.gave_away
    assert ev[0].rule == "crew.mission.captain-gives"
    while s.phase == "predict":
        s = ENGINE.apply(s, ENGINE.legal_moves(s)[0])
    seat = next(x for x in range(4) if ENGINE._comm_block(s, x) is None)
    # communication is allowed before the first trick ...
    assert any(m.__class__.__name__ == "Sonar" for m in ENGINE.legal_moves(s))
    for _ in range(4):
        s = ENGINE.apply(s, [m for m in ENGINE.legal_moves(s) if isinstance(m, PlayCard)][0])
    if s.phase == "play":
        # ... but not after it
        v = ENGINE._comm_block(s, seat)
        assert v is not None and v[1] == "crew.mission.captain-gives"


def test_mission_19_captain_takes_hardest_first():
    s = ENGINE.new_state(5, players=4, mission=19)
    hardest = max(s.tasks, key=lambda t: (TASKS[t].difficulty_for(4), -s.tasks.index(t)))
    legal = [m for m in ENGINE.legal_moves(s) if isinstance(m, TakeTask)]
    assert legal == [TakeTask(hardest)]
    easier = next((t for t in s.tasks if t != hardest), None)
    if easier is not None:
        assert ENGINE.why_illegal(s, TakeTask(easier)).rule == "crew.mission.hardest-first"


def test_mission_19_hardest_skips_captain_comparison_tasks():
    """Shows "crew.mission.hardest-first": the hardest task the captain may take. In this deal the hardest
    task on the table compares with the captain, which the captain can never take; before the ruling the
    captain had no legal move at all (found by the playout benchmark)."""
    s = ENGINE.new_state(800221, players=5, mission=19)
    hardest = max(s.tasks, key=lambda t: (TASKS[t].difficulty_for(5), -s.tasks.index(t)))
    assert TASKS[hardest].captain_comparison
    allowed = [t for t in s.tasks if not TASKS[t].captain_comparison]
    expected = max(allowed, key=lambda t: (TASKS[t].difficulty_for(5), -s.tasks.index(t)))
    assert [m for m in ENGINE.legal_moves(s) if isinstance(m, TakeTask)] == [TakeTask(expected)]
    assert ENGINE.why_illegal(s, TakeTask(hardest)).rule == "crew.alloc.captain-comparison"
    while s.phase == "allocate":        # the allocation now runs to the end
        moves = ENGINE.legal_moves(s)
        assert moves
        s = ENGINE.apply(s, moves[0])
    assert s.owners[s.tasks.index(expected)] == s.captain


def test_mission_25_captain_takes_no_task():
    """Shows "crew.mission.captain-no-task"."""
    s = ENGINE.new_state(6, players=4, mission=25)
    assert ENGINE.current_player(s) == (s.captain + 1) % 4
    while s.phase == "allocate":
        assert ENGINE.current_player(s) != s.captain
        s = ENGINE.apply(s, ENGINE.legal_moves(s)[0])
    assert s.captain not in s.owners


def _no_task_state(number, hands=PINK_NINE_HANDS):
    # missions without task cards, with the pink-9 hands (seat 0 captain)
    s = ENGINE.new_state(0, players=4, mission=number, hands=hands)
    assert s.tasks == () and s.phase == "play"
    return s


def test_mission_8_nines():
    s = _no_task_state(8)
    s, _ = run(s, "play P9", "play P7", "play Y2", "play P8")         # seat 0 wins P9: 1 - 0
    assert s.phase == "play"
    s, ev = run(s, "play B9", "play B1")
    assert s.phase == "play"
    # a second 9 in the trick: whoever wins it is two ahead of someone, so it is lost now (issue 28.2)
    s, ev = run(s, "play Y9")
    assert s.phase == "failed" and s.reason == "crew.mission.nines" and len(s.trick) == 3
    assert [e.code for e in ev][-1] == "CREW_EVT_CONDITION_FAILED"


def test_mission_12_no_pink_lead():
    s = _no_task_state(12)
    s, ev = run(s, "play P9")   # judged after every card: the lead itself breaks the rule (issue 18.3)
    assert s.phase == "failed" and s.reason == "crew.mission.no-pink-lead" and len(s.trick) == 1
    assert [e.code for e in ev][-1] == "CREW_EVT_CONDITION_FAILED"
    s = _no_task_state(12)
    s, _ = run(s, "play B2", "play B1", "play G1", "play Y1")
    assert s.phase == "play"


def test_mission_21_ones():
    s = _no_task_state(21)
    s, _ = run(s, "play B2", "play B1")
    assert s.phase == "play"
    s, _ = run(s, "play G1")   # two colour 1s in one trick: two ahead whoever wins it (issue 28.2)
    assert s.phase == "failed" and s.reason == "crew.mission.ones" and len(s.trick) == 3


def test_mission_23_first_winner_stays_ahead():
    s = _no_task_state(23)
    assert ENGINE._comm_block(s, 1)[1] == "crew.mission.first-winner-leads"
    s, _ = run(s, "play B2", "play B1", "play G1", "play Y1")         # seat 0 wins the first trick
    assert s.phase == "play"
    s, _ = run(s, "play B3", "play G2", "play Y3", "play S2")         # seat 3 wins: 1 - 1, not ahead
    assert s.phase == "failed" and s.reason == "crew.mission.first-winner-leads"


def test_mission_27_yellow_five_last():
    s = _no_task_state(27)
    s, _ = run(s, "play B2", "play B1", "play Y5")   # played third in trick 1: lost at once (issue 28.2)
    assert s.phase == "failed" and s.reason == "crew.mission.yellow-five-last" and len(s.trick) == 3


def test_mission_32_fixed_tasks():
    """Shows "crew.mission.fixed-tasks"."""
    s = ENGINE.new_state(3, players=4, mission=32)
    assert s.tasks == (74, 88, 85, 80)
    assert not any(e.code == "CREW_EVT_TASKS_DRAWN" for e in s._setup_events)


def test_real_time_mission():
    untimed = ENGINE.new_state(1, players=4, mission=14)
    assert untimed.comm == "currents" and not untimed.timed
    assert ENGINE.why_illegal(untimed, parse_move("time-up")).rule in ("crew.alloc.order", "crew.realtime.timer")
    s = ENGINE.new_state(1, players=4, mission=14, timed=True)
    assert s.timed and ENGINE.observe(s, 0)["communication"]["time_limit"] == "3:30"
    assert all(isinstance(m, AssignAll) for m in ENGINE.legal_moves(s))
    s = ENGINE.apply(s, ENGINE.legal_moves(s)[0])
    while s.phase == "predict":
        s = ENGINE.apply(s, ENGINE.legal_moves(s)[0])
    s, ev = run(s, "time-up")
    assert s.phase == "failed" and ev[0].rule == "crew.realtime.timer"
    # two volunteers (mission 26): at most two owners, each with a task
    s = ENGINE.new_state(4, players=4, mission=26, timed=True)
    assert sum(TASKS[t].difficulty_for(4) for t in s.tasks) == 10
    while s.phase == "allocate":
        s = ENGINE.apply(s, ENGINE.legal_moves(s)[-1])
    assert len(set(s.owners)) == 2
    with pytest.raises(InvalidOptionError):
        ENGINE.new_state(1, mission=3, timed=True)
