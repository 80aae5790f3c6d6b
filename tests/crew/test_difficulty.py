"""The task-difficulty study (toolkit.crew.difficulty): seeded, executor-independent, bounded, explained."""

from __future__ import annotations

import json
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

import pytest

from toolkit.core import DataError, InvalidMoveError
from toolkit.crew.cards import Card, deal
from toolkit.crew.difficulty import (Cell, InlineExecutor, Table, deal_seed, judge_deal, load_table, run_chunk,
                                     study, summary_by_difficulty, wilson)
from toolkit.crew.tasks import TASKS, redeal_needed

SMALL = dict(tasks=[16, 79, 74], players=[4], deals=4, chunk=2, node_limit=2000)


def test_wilson_interval_matches_known_values():
    low, high = wilson(10, 10)
    assert low == pytest.approx(0.7225, abs=1e-4) and high == 1.0
    low, high = wilson(0, 10)
    assert low == 0.0 and high == pytest.approx(0.2775, abs=1e-4)
    low, high = wilson(5, 10)
    assert low == pytest.approx(0.2366, abs=1e-4) and high == pytest.approx(0.7634, abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)


def test_study_is_seeded_and_identical_on_every_executor():
    inline = study(**SMALL)
    with ThreadPoolExecutor(max_workers=2) as pool:
        threaded = study(executor=pool, **SMALL)
    with ProcessPoolExecutor(max_workers=2) as pool:
        processes = study(executor=pool, **SMALL)
    assert inline.to_json() == threaded.to_json() == processes.to_json()
    again = study(**SMALL)
    assert again.to_json() == inline.to_json()
    other_seed = study(seed=7, **SMALL)
    assert [c.nodes for c in other_seed.cells] != [c.nodes for c in inline.cells]


def test_study_on_a_local_dask_cluster_gives_the_same_table():
    distributed = pytest.importorskip("dask.distributed")
    from toolkit.crew.difficulty import dask_executor

    executor, client = dask_executor(n_workers=1, threads_per_worker=2, processes=False,
                                     dashboard_address=":0")
    try:
        assert isinstance(client, distributed.Client)
        cluster = client.cluster
        table = study(executor=executor, **SMALL)
    finally:
        client.close()
    assert cluster.status.name == "closed"  # the local cluster goes with the client
    assert table.to_json() == study(**SMALL).to_json()


def test_cells_count_every_deal_once_and_agree_with_judge_deal():
    table = study(**SMALL)
    for cell in table.cells:
        assert cell.win + cell.lose + cell.undecided == cell.deals == 4
        outcomes = [judge_deal(cell.task, 4, i, table.seed, 2000)[0] for i in range(4)]
        assert cell.win == outcomes.count("win") and cell.lose == outcomes.count("lose")
        assert cell.difficulty == TASKS[cell.task].difficulty_for(4)
    assert run_chunk(16, 4, 0, 2, table.seed, 2000) == [(i, *judge_deal(16, 4, i, table.seed, 2000))
                                                          for i in range(2)]


def test_sat_pass_decides_what_the_search_leaves_open():
    """Task 6 ("as many tricks as the captain"), three players, deal 2: every seat's search stops at its
    3,000 nodes; the SAT pass then finds a seat that wins, deterministically (conflicts are counted)."""
    from toolkit.crew.solver import sat

    if not sat.AVAILABLE:
        pytest.skip("python-sat is not installed")
    assert judge_deal(6, 3, 2, sat_limit=0) == ("undecided", 6000)
    outcome, nodes = judge_deal(6, 3, 2)
    assert outcome == "win" and 6000 < nodes < 6000 + 20_000
    assert judge_deal(6, 3, 2) == (outcome, nodes)
    table = study(tasks=[6], players=[3], deals=3, chunk=3)
    assert table.meta["sat_limit"] == 20_000 and table.cells[0].undecided == 0
    assert study(tasks=[6], players=[3], deals=3, chunk=3, sat_limit=0).cells[0].undecided == 1
    with pytest.raises(InvalidMoveError, match="sat_limit"):
        study(tasks=[6], players=[3], deals=3, sat_limit=-1)


def test_node_budget_bounds_the_work_per_cell_deterministically():
    full = study(tasks=[16, 46], players=[4], deals=6, chunk=2, node_limit=1500)
    capped = study(tasks=[16, 46], players=[4], deals=6, chunk=2, node_limit=1500, node_budget=1)
    assert [c.deals for c in capped.cells] == [2, 2]  # one chunk each, then the budget is spent
    assert [c.deals for c in full.cells] == [6, 6]
    assert capped.meta["node_budget"] == 1
    assert capped.to_json() == study(tasks=[16, 46], players=[4], deals=6, chunk=2, node_limit=1500,
                                     node_budget=1, executor=InlineExecutor()).to_json()


def test_footnote_deals_are_redealt():
    """Task 51 ("exactly one submarine") is redealt when one hand holds all four submarines."""
    subs = {Card.parse(f"S{v}") for v in range(1, 5)}
    found = None
    for index in range(400):
        if any(subs <= set(h) for h in deal(3, deal_seed(2026, 3, index))):
            found = index
            break
    assert found is not None
    judge_deal(51, 3, found)  # uses the next attempt's deal
    assert redeal_needed([51], deal(3, deal_seed(2026, 3, found, 1))) is None or \
        redeal_needed([51], deal(3, deal_seed(2026, 3, found, 2))) is None


def test_bad_study_input_is_refused():
    for kwargs in (dict(tasks=[0]), dict(tasks=[97]), dict(players=[2]), dict(deals=0), dict(deals=True),
                   dict(chunk=0), dict(node_limit=0), dict(deals=10**6), dict(node_budget=0)):
        with pytest.raises(InvalidMoveError):
            study(**{**SMALL, **kwargs})


def test_table_round_trips_and_rejects_malformed_data():
    table = study(**SMALL)
    again = Table.from_json(table.to_json())
    assert again == table
    assert table.to_csv().splitlines()[0].startswith("task,players,difficulty,deals,win,lose,undecided")
    bad = json.loads(table.to_json())
    bad["cells"][0]["win"] += 1
    with pytest.raises(DataError, match="add up"):
        Table.from_json(json.dumps(bad))
    with pytest.raises(DataError):
        Table.from_json("{not json")
    with pytest.raises(DataError):
        Table.from_json(json.dumps({"seed": 1}))


def test_shipped_table_covers_every_task_and_player_count():
    table = load_table()
    assert {(c.task, c.players) for c in table.cells} == {(t, p) for t in range(1, 97) for p in (3, 4, 5)}
    for cell in table.cells:
        assert cell.deals >= 8
        assert cell.difficulty == TASKS[cell.task].difficulty_for(cell.players)
        low, high = cell.interval
        if cell.share is not None:
            assert low <= cell.share <= high
        low_all, high_all = cell.interval_all
        assert low_all <= (cell.win / cell.deals) <= high_all
    rows = summary_by_difficulty(table, 4)
    assert rows and all(0.0 <= share <= 1.0 for _, share, _ in rows)


def test_cell_share_is_none_when_nothing_was_decided():
    cell = Cell(task=46, players=4, difficulty=5, deals=3, win=0, lose=0, undecided=3, nodes=9000)
    assert cell.share is None and cell.interval == (0.0, 1.0)
    assert cell.row()["share"] is None
