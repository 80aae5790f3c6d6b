"""The shared-table pages on both stores (SQLite and a real PostgreSQL server): two table frames, i.e. two
kernels, play a whole game through the store, and a stale click is refused and caught up. The pages'
other behaviour is tested on SQLite in tests/widgets/test_shared_table.py."""

from __future__ import annotations

from toolkit.tables import open_store
from toolkit.tranquility import ENGINE
from toolkit.widgets.table import GenericTable


def test_two_pages_play_a_whole_game_and_a_stale_click_catches_up_on_both_stores(store_url, monkeypatch):
    monkeypatch.setenv("DEEPSEA_TABLES_URL", store_url)
    host = GenericTable(ENGINE, seed=1, seats=["you", "you", "greedy"], options={"players": 3}, query="")
    code = host.shared.invite(seed=9)
    guest = GenericTable(ENGINE, seed=1, query=f"table={code}")
    tab = GenericTable(ENGINE, seed=1, query=f"table={code}")          # the guest's second tab
    assert host.shared.sit(0) and guest.shared.sit(1)
    tab.shared.storage.receive({"type": "stored", "items": list(guest.shared.storage.items), "unreadable": False})
    assert tab.shared.seat == 1
    store = open_store(store_url)
    pages, stale_seen = {0: host, 1: guest}, False
    for _ in range(300):
        state = store.state(code)
        if ENGINE.play_out_over(state):
            break
        acting = ENGINE.decider(state)
        if acting == 1 and not stale_seen:
            tab.shared.sync()
            assert guest.play(guest.move_buttons.moves[0])
            assert not tab.play(tab.move_buttons.moves[0])               # the tab had not seen that move
            assert "Someone moved first" in tab.refusal.value
            stale_seen = True
        else:
            page = pages[acting]
            assert page.play(page.move_buttons.moves[0]), page.refusal.value
        for page in (host, guest, tab):
            page.shared.sync()
    log = store.moves(code)
    assert stale_seen and ENGINE.play_out_over(store.state(code))
    for page in (host, guest, tab):
        assert [str(m) for m in page.model.session.moves] == log
        assert page.status.text.startswith("The game is over.")
    store.close()
