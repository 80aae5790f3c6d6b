"""The Crew table at a shared table (issues 26 and 27): two people's pages (each its own MissionView, its
own store connection) and two bots play a mission through the SQLite store; each page draws only its own
hand, and once the attempt is over the post-mortem (every hand public then) opens on every page by itself
(the frame's ``on_final_state``)."""

from __future__ import annotations

import pytest

from toolkit.crew.engine import ENGINE
from toolkit.tables import open_store
from toolkit.widgets.crew.mission import MissionView


@pytest.fixture()
def store_url(tmp_path, monkeypatch):
    url = "sqlite:///" + str(tmp_path / "tables.sqlite3")
    monkeypatch.setenv("DEEPSEA_TABLES_URL", url)
    return url


def _play_to_the_end(pages: dict[int, MissionView], store, code: str) -> int:
    clicks = 0
    while not ENGINE.play_out_over(store.state(code)):
        assert clicks < 200
        for page in pages.values():
            page.shared.sync()
        state = store.state(code)
        acting = ENGINE.decider(state)
        if acting not in pages:
            continue
        page = pages[acting]
        assert page.viewing_seat() == acting and page.status.text.startswith("Your turn."), page.status.text
        # the page's own hand only (and TONOJA's face-up cards when its captain decides for it)
        tonoja = {str(c) for c in state.hand(state.tonoja)} if state.tonoja is not None else set()
        assert {i["card"] for i in page._hand.items} <= {str(c) for c in state.hand(acting)} | tonoja
        decision = page.driver.hint(acting)
        assert page.play(decision.move), page.refusal.value
        clicks += 1
    for page in pages.values():
        page.shared.sync()
    return clicks


def test_the_post_mortem_opens_on_every_page_once_the_attempt_is_over(store_url):
    host = MissionView(seed=1, players=4, mission=1, seats=["you", "you", "expert", "expert"], autoplay=False,
                       query="")
    code = host.shared.invite(seed=7)
    assert code is not None
    guest = MissionView(query=f"table={code}&lang=en", autoplay=False)
    assert guest.shared.joined and host.shared.sit(0) and guest.shared.sit(1)
    # at the table: no code (it holds the seed), no saved missions, no undo
    assert host.controls.layout.display == "none" and host.controls.code == ""
    assert not host.undo() and not host.open_code("seed=1&moves=take_1")
    assert host._review_data is None and guest._review_data is None
    clicks = _play_to_the_end({0: host, 1: guest}, open_store(store_url), code)
    assert clicks >= 2
    for page in (host, guest):
        assert ENGINE.play_out_over(page.model.state)
        assert page._review_data is not None and "crew-pm-verdict" in page._review.value   # opened by itself
        assert page.status.acting is None and 'data-acting=""' in page.status.value
        assert page.saved_games == []               # a shared table's game is never kept with its seed
    assert [str(m) for m in host.model.session.moves] == [str(m) for m in guest.model.session.moves]


def test_two_people_play_a_two_player_mission_with_tonoja_at_a_shared_table(store_url):
    """Two players: TONOJA is no seat of the table (its captain decides for it); each page draws its own
    hand (the captain's with TONOJA's face-up cards when TONOJA plays), and the post-mortem opens on both."""
    host = MissionView(seed=1, players=2, mission=1, seats=["you", "you", "you"], autoplay=False, query="")
    code = host.shared.invite(seed=7)
    store = open_store(store_url)
    assert code is not None and [s.kind for s in store.info(code).seats] == ["human", "human"]
    guest = MissionView(query=f"table={code}&lang=en", autoplay=False)
    assert host.shared.sit(0) and guest.shared.sit(1)
    _play_to_the_end({0: host, 1: guest}, store, code)
    for page in (host, guest):
        assert page.model.state.tonoja is not None and ENGINE.play_out_over(page.model.state)
        assert page._review_data is not None and "crew-pm-verdict" in page._review.value
