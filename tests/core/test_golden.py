"""Golden playthroughs: record, replay, and detect a changed rule."""

import json
from pathlib import Path

import pytest

from tinygame import STONES, Stones
from toolkit.core import golden

GOLDEN_DIR = Path(__file__).resolve().parents[1] / "golden"


def test_record_then_check_round_trip():
    data = golden.record(STONES, seed=11, policy_seed=3)
    assert data["steps"] and data["outcome"]["result"] == "win"
    assert golden.check(STONES, json.loads(json.dumps(data))) is None


def test_a_changed_rule_is_reported_at_the_first_differing_move():
    data = golden.record(STONES, seed=11, policy_seed=3)

    class Greedy(Stones):  # a "rule change": the pile starts one stone larger
        def new_state(self, seed, **options):
            state = super().new_state(seed, **options)
            return type(state)(state.players, state.pile + 1, state.to_move, None, state.chance)

    diff = golden.check(Greedy(), data)
    assert diff is not None and diff.startswith("move 1 ")


@pytest.mark.parametrize("path", sorted(GOLDEN_DIR.glob("*.json")), ids=lambda p: p.name)
def test_committed_golden_playthroughs_replay_exactly(path):
    from toolkit.engines import available_engines

    data = json.loads(path.read_text(encoding="utf-8"))
    engine = available_engines().get(data["game"])
    assert engine is not None, f"{path.name}: no engine {data['game']!r}"
    assert golden.check(engine, data) is None
