"""Two people clicking at the same moment on a game's own table (issue 27): a click on a component whose
object the other seat's move took away is "Someone moved first" too, not the component's "That cannot be
clicked now". Two Deep Blue pages ("kernels") at one table through an SQLite store in a temporary folder;
outside a kernel a test calls ``sync()`` where the watcher thread would."""

from __future__ import annotations

import numpy as np
import pytest

from toolkit.core.bots import make_bot
from toolkit.deepblue import ENGINE
from toolkit.deepblue.model import Leave, Stop
from toolkit.tables import open_store
from toolkit.widgets.table import shared as shared_module


@pytest.fixture()
def store_url(tmp_path, monkeypatch):
    url = "sqlite:///" + str(tmp_path / "tables.sqlite3")
    monkeypatch.setenv("DEEPSEA_TABLES_URL", url)   # every page opens the default store: this file
    return url


def dive_with_two_divers(store, code: str) -> tuple[int, int]:
    """Append the best-play bot's moves (both seats held through the store, then released) until a dive
    after a draw where the leader may stop and the other diver may leave; returns (leader, diver)."""
    bot = make_bot(ENGINE, "policy")
    tokens = {seat: store.claim(code, seat) for seat in (0, 1)}
    state, n = store.state(code), 0
    while True:
        dive = state.dive
        if state.phase == "dive" and dive is not None and dive.draws > 0:
            leader, diver = dive.leader, 1 - dive.leader
            if diver in ENGINE.optional_actors(state) and ENGINE.why_illegal(state, Leave(diver)) is None:
                break
        assert n < 300 and not ENGINE.play_out_over(state)
        seat = ENGINE.decider(state)
        move = bot.decide(ENGINE.observe(state, seat), ENGINE.legal_moves(state, seat), np.random.default_rng(n)).move
        n = store.append(code, n, move, seat, tokens[seat])
        state = store.state(code)
    for seat, token in tokens.items():
        store.release(code, seat, token)
    return leader, diver


def test_a_pick_the_other_seats_move_took_away_just_now_says_someone_moved_first(store_url):
    from toolkit.widgets.deepblue import GameView

    store = open_store(store_url)
    code = store.create("deepblue", 1, {"players": 2}, ["human", "human"])
    leader, diver = dive_with_two_divers(store, code)
    pages = {seat: GameView(query=f"table={code}") for seat in (leader, diver)}
    for seat, page in pages.items():
        assert page.shared.sit(seat)
    leaving = pages[diver]
    leaving.shared.grace_s = shared_module.CAUGHT_UP_GRACE_S      # as in a kernel
    assert "surface" in leaving.table.dive._offers                # the diver's boat: leave
    assert pages[leader].play(Stop(leader))                       # the leader stops, which ends the dive ...
    after = store.moves(code)
    assert ENGINE.why_illegal(store.state(code), Leave(diver)) is not None
    assert leaving.shared.sync() == 1                             # ... and the diver's kernel draws it first
    leaving.table.dive.receive({"type": "pick", "key": "surface"})  # then gets the click on the boat
    assert "Someone moved first" in leaving.refusal.value
    assert leaving.table.dive.refusal == ""
    assert store.moves(code) == after
    # later, a click on what the page shows is answered by the component as ever
    leaving.shared._others_moved_at -= 1.0
    leaving.refusal.clear()
    leaving.table.dive.receive({"type": "pick", "key": "surface"})
    assert leaving.table.dive.refusal != "" and "Someone moved first" not in leaving.refusal.value
    assert store.moves(code) == after
