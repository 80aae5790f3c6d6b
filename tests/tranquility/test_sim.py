"""The fast simulator and the win-rate study: same rules as the engine, same numbers on every executor."""

from concurrent.futures import ProcessPoolExecutor

import pytest

from toolkit.core import InvalidStateError
from toolkit.core.session import Session
from toolkit.tranquility import ENGINE
from toolkit.tranquility.sim import STRATEGIES, play
from toolkit.tranquility.study import REFERENCE_2P, Row, game_seed, run_study


@pytest.mark.parametrize("strategy", sorted(STRATEGIES))
@pytest.mark.parametrize("players, removal", [(1, "none"), (2, "none"), (3, "triton"), (5, "none")])
def test_simulated_games_replay_in_the_checked_engine(strategy, players, removal):
    for seed in range(3):
        result = play(STRATEGIES[strategy](), seed, players, removal, record=True)
        session = Session.replay(ENGINE, seed, list(result.moves), {"players": players, "removal": removal})
        outcome = session.outcome()
        assert outcome is not None and outcome.code == result.code
        assert session.state.turn == result.turns
        assert sum(1 for c in session.state.cells if c) == result.filled


def test_short_hand_option_reaches_the_simulator_and_engine():
    result = play(STRATEGIES["greedy"](), 4, 2, short_hand_loss=False, record=True)
    session = Session.replay(ENGINE, 4, list(result.moves), {"players": 2, "short_hand_loss": False})
    assert session.outcome().code == result.code and result.code != "TRANQ_LOST_SHORT_HAND"


def test_bots_are_deterministic_and_naive_scan_agrees():
    for name, make in STRATEGIES.items():
        a = play(make(), 21, 3, record=True)
        assert a == play(make(), 21, 3, record=True) and a.moves == play(make(), 21, 3, record=True).moves
        assert a.moves == play(make(), 21, 3, scan="naive", record=True).moves


def test_strategies_rank_as_expected_on_fixed_seeds():
    wins = {name: sum(play(make(), seed, 2).won for seed in range(120)) for name, make in STRATEGIES.items()}
    assert wins["random"] == 0
    assert wins["greedy"] < wins["feasibility"]
    assert wins["feasibility"] >= 0.5 * 120


def test_study_gives_the_same_numbers_on_every_executor():
    kwargs = dict(strategies=("greedy", "rank"), players=(2, 4), variants=("none", "galateia"), games=12, seed=5)
    serial = run_study(chunk_size=12, **kwargs)
    seen = []
    with ProcessPoolExecutor(max_workers=2) as pool:
        pooled = run_study(executor=pool, chunk_size=5, progress=lambda done, total: seen.append((done, total)),
                           **kwargs)
    assert pooled == serial
    assert seen[0] == (0, 96) and seen[-1] == (96, 96) and [d for d, _ in seen] == sorted(d for d, _ in seen)
    assert len(serial.rows) == 8 and all(r.games == 12 for r in serial.rows)
    assert "greedy" in serial.table() and "%" in serial.table()


def test_study_with_a_dask_local_cluster():
    distributed = pytest.importorskip("distributed")
    kwargs = dict(strategies=("greedy",), players=(2,), games=10, seed=3)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        on_dask = run_study(executor=client, chunk_size=3, **kwargs)
    assert on_dask == run_study(**kwargs)


def test_game_seeds_depend_only_on_coordinates():
    assert game_seed(1, "greedy", 2, "none", 7) == game_seed(1, "greedy", 2, "none", 7)
    assert len({game_seed(1, "greedy", 2, "none", i) for i in range(200)}) == 200
    assert game_seed(1, "greedy", 2, "none", 0) != game_seed(1, "greedy", 3, "none", 0)


@pytest.mark.parametrize("kwargs", [dict(strategies=("psychic",)), dict(players=(6,)), dict(variants=("kraken",)),
                                    dict(games=0), dict(seed=-2), dict(chunk_size=0), dict(games="10")])
def test_study_refuses_bad_parameters(kwargs):
    with pytest.raises(InvalidStateError):
        run_study(**kwargs)


def test_wilson_interval_brackets_the_rate():
    row = Row("greedy", 2, "none", 100, 7, 50.0, 30.0, ())
    lo, hi = row.interval()
    assert lo < 0.07 < hi and 0.02 < lo and hi < 0.15
    assert REFERENCE_2P == {"greedy": 0.07, "feasibility": 0.26}
