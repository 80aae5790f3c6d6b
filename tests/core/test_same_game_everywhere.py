"""The same seed gives the same game in every process (developers' guide: "the same seed gives the same
game everywhere").

A Voila kernel, a test process and a study worker are different processes: anything a bot iterates in an
order that depends on memory addresses (an identity hash) or on the string hash seed (``PYTHONHASHSEED``)
gives another game there. Found once: Crew cards hashed by address, and the bots' tie-breaks over sets of
cards made mission 2, seed 0 end after 33 moves in some processes and 37 in others. Each game below is
played in fresh processes with different hash seeds (and different heap layouts, as each process imports
in its own order) and must give the same moves every time.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

#: (game package, seat levels, seed, options): every game, its strongest and its rule-of-thumb bots
GAMES = [
    ("crew", ["expert"] * 4, 0, {"players": 4, "mission": 2}),
    ("crew", ["beginner", "expert", "beginner"], 5, {"players": 3, "mission": 5}),
    ("crew", ["beginner"] * 2, 3, {"players": 2, "mission": 4}),
    ("tranquility", ["rank", "greedy", "feasibility"], 2, {"players": 3}),
    ("deepblue", ["policy", "stop-after-3", "random"], 1, {"players": 3}),
    ("pirats", ["greedy", "cautious", "random"], 4, {"players": 3}),
]

_SCRIPT = """
import hashlib, json, sys
from importlib import import_module
from toolkit.core.bots import play_out
game, seats, seed, options = json.loads(sys.argv[1])
engine = import_module(f"toolkit.{game}").ENGINE
junk = [object() for _ in range(int(sys.argv[2]))]   # shifts the heap: addresses differ from run to run
state, moves = play_out(engine, seed, seats, **options)
print(hashlib.sha256(repr(moves).encode()).hexdigest(), len(moves))
"""


def _play(game: str, seats: list[str], seed: int, options: dict, hash_seed: int) -> str:
    env = dict(os.environ, PYTHONHASHSEED=str(hash_seed), PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-c", _SCRIPT, json.dumps([game, seats, seed, options]),
                          str(1000 * hash_seed)], env=env, capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert out.returncode == 0, out.stderr[-2000:]
    return out.stdout.strip()


@pytest.mark.parametrize("game, seats, seed, options", GAMES, ids=[f"{g[0]}-{g[2]}" for g in GAMES])
def test_a_seeded_bot_game_is_the_same_in_every_process(game, seats, seed, options):
    runs = {_play(game, seats, seed, options, hash_seed) for hash_seed in (0, 1, 7)}
    assert len(runs) == 1, f"{game} seed {seed} gave {len(runs)} different games in 3 processes: {sorted(runs)}"


def test_crew_cards_hash_by_deck_index_not_by_address():
    from toolkit.crew.cards import DECK

    assert [hash(c) for c in DECK] == [c.index for c in DECK]
