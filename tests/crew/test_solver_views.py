"""The solver views (toolkit.widgets.crew_solver) driven from Python: verdicts, replay, both languages,
hostile input shown as refusals, missions loaded from the engine."""

from __future__ import annotations

import random

import pytest

from toolkit.crew.engine import ENGINE
from toolkit.widgets.crew_solver import (TaskDifficultyView, WinnableView, parse_query_tasks, parse_task_text,
                                         position_from_mission)


def test_winnable_view_solves_and_replays_in_both_languages():
    view = WinnableView(players=4, seed=1, tasks={0: "16"}, background=False)
    assert "deepsea-root" in view._dom_classes
    view.start_solve()
    assert view.solution.winnable is True
    assert "Winnable" in view._verdict.value
    assert view._replay.max == len(view.solution.line)
    assert "done" in view._trick.value
    view._replay.value = 0
    assert "pending" in view._trick.value
    view.lang = "ja"
    assert "達成可能" in view._verdict.value
    assert "判定中" in view._trick.value


def test_winnable_view_explains_an_impossible_mission():
    view = WinnableView(players=4, seed=1, background=False)
    captain = view._captain.value
    view._tasks[0].value = ""
    view._tasks[captain].value = "74"  # the captain holds submarine 4: it wins a trick
    view.start_solve()
    assert view.solution.winnable is False
    assert "crew.solver.cutoff" in view._verdict.value


def test_winnable_view_refuses_hostile_input_in_the_page():
    view = WinnableView(players=4, seed=1, tasks={0: "16"}, background=False)
    for bad in ("abc", "16=x", "#", "97"):
        view._tasks[1].value = bad
        view._on_solve()
        if bad == "#":
            assert view.solution is not None
            continue
        assert "deepsea-refusal" in view._message.value
    view._tasks[1].value = ""
    view._hands[0].value = "P9 P9"
    view._on_solve()
    assert "deepsea-refusal" in view._message.value
    view._hands[0].value = "Q1"
    view._on_solve()
    assert "Q1" in view._message.value
    view._load.click()  # nothing pasted
    assert "paste" in view._message.value
    view._mission.value = '{"players": "many"}'
    view._load.click()
    assert "deepsea-refusal" in view._message.value


def test_winnable_view_from_a_shared_link():
    view = WinnableView.from_query("players=5&seed=3&tasks=1:16,79;2:17&lang=ja", background=False)
    assert view._players.value == 5 and view._seed.value == 3 and view.lang == "ja"
    assert view._tasks[1].value == "16,79" and view._tasks[2].value == "17"
    hostile = WinnableView.from_query("players=9&seed=-1&tasks=zz&lang=xx", background=False)
    assert hostile._players.value == 4 and hostile.lang == "en"


def test_parsers():
    assert parse_task_text("16, #79; 90=3") == [16, 79, (90, 3)]
    with pytest.raises(Exception):
        parse_task_text(["16"])
    assert parse_query_tasks("0:16,79;2:17;x:1") == {0: "16,79", 2: "17"}


def test_a_mission_from_the_engine_loads_as_dealt():
    state = ENGINE.new_state(5, players=4, mission=1)
    rnd = random.Random(1)
    while len(state.tricks) < 3:
        state = ENGINE.apply(state, rnd.choice(ENGINE.legal_moves(state)))
    args = position_from_mission(state)
    assert sorted(len(h) for h in args["hands"]) == [10, 10, 10, 10]
    assert args["played"] == () and args["leader"] == state.captain
    now = position_from_mission(state, from_start=False)
    assert len(now["played"]) == 3 and sum(len(h) for h in now["hands"]) == 28
    view = WinnableView(background=False)
    view.load_mission_json(ENGINE.state_to_json(state))
    assert "3 tricks played" in view._message.value
    view.start_solve()
    assert view.solution.winnable is not None or view.solution.stopped


def test_difficulty_view_reads_the_table_and_reruns_a_task():
    view = TaskDifficultyView(players=4, task=16, background=False)
    assert "#16" in view._cell.value and "4 players" in view._cell.value
    view._players.value = 3
    assert "3 players" in view._cell.value
    view._deals.value = 4
    view.rerun()
    assert len(view.rerun_cells) == 1 and view.rerun_cells[0].deals == 4
    assert "winnable in" in view._progress.value
    view.lang = "ja"
    assert "印刷された難度" in view._cell.value
