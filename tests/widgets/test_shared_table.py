"""The shared table on the table frame (issue 27): two pages ("kernels") at one table, through the SQLite
store in a temporary folder. Each page is its own TableFrame with its own store connection, as two
visitors' kernels are; outside a kernel nothing runs by itself, so a test calls ``sync()`` where the
watcher thread would."""

from __future__ import annotations

import asyncio
import html
import json
import threading
import time

import ipywidgets as widgets
import pytest

from toolkit.tables import open_store
from toolkit.tranquility import ENGINE as TRANQUILITY
from toolkit.widgets.table import GenericTable
from toolkit.widgets.table import shared as shared_module
from toolkit.widgets.table.shared import storage_key


@pytest.fixture()
def store_url(tmp_path, monkeypatch):
    url = "sqlite:///" + str(tmp_path / "tables.sqlite3")
    monkeypatch.setenv("DEEPSEA_TABLES_URL", url)   # every page opens the default store: this file
    return url


def page(query: str = "", engine=TRANQUILITY, **kwargs) -> GenericTable:
    return GenericTable(engine, seed=kwargs.pop("seed", 1), query=query, **kwargs)


def invite_two_people_and_a_bot(seed: int = 5):
    """The inviter's page (3 players: You, You, a bot) invites; a second page opens the link."""
    inviter = page(seats=["you", "you", "rank"], options={"players": 3})
    code = inviter.shared.invite(seed=seed)
    assert code is not None
    guest = page(query=f"table={code}&lang=en")
    assert guest.shared.joined and guest.shared.code == code
    return inviter, guest, code


def strings_of(root: widgets.Widget) -> list[str]:
    """Every text value the page's widgets hold (what their websocket frames can carry)."""
    out, seen, stack = [], set(), [root]
    while stack:
        w = stack.pop()
        if isinstance(w, (list, tuple)):
            stack.extend(w)
            continue
        if not isinstance(w, widgets.Widget) or id(w) in seen:
            continue
        seen.add(id(w))
        for name in w.keys:
            value = getattr(w, name, None)
            if isinstance(value, str):
                out.append(value)
            elif isinstance(value, (list, tuple)):
                out.extend(v for v in value if isinstance(v, str))
                stack.extend(v for v in value if isinstance(v, widgets.Widget))
            elif isinstance(value, widgets.Widget):
                stack.append(value)
    return out


def drawn_hand(hand) -> str:
    """How the generic table draws a hand list in its observation box (escaped JSON)."""
    text = json.dumps({"hand": list(hand)}, ensure_ascii=False, indent=1)
    return html.escape(text[text.index("["):text.rindex("]") + 1])


def test_invite_makes_a_table_from_the_options_and_seats_bar_and_hides_the_teachers_parts(store_url):
    inviter, guest, code = invite_two_people_and_a_bot()
    info = open_store(store_url).info(code)
    assert info.game == "tranquility" and dict(info.options) == {"players": 3}
    assert [s.kind for s in info.seats] == ["human", "human", "rank"]
    for table in (inviter, guest):
        header = table.shared._header.value
        assert f"?table={code}" in header and f">{code}</code>" in header
        assert table.shared.seat is None and "sit at a free seat" in header
        # the seats bar (teacher's switch), options, undo and code are hidden; no game code reaches the page
        assert table._seats_box.layout.display == "none" and table.controls.layout.display == "none"
        assert table.options_bar.layout.display == "none" and table.controls.code == ""
        assert not table.undo() and not table.new_game(3) and not table.open_code("game=tranquility&seed=2")
        assert "moves cannot be taken back" in table.controls.answer.value


def test_two_pages_play_a_whole_game_alternately_each_drawing_only_its_own_seat(store_url):
    inviter, guest, code = invite_two_people_and_a_bot()
    assert inviter.shared.sit(0) and guest.shared.sit(1)
    pages = {0: inviter, 1: guest}
    drawn: dict[int, set] = {0: set(), 1: set()}
    for seat, table in pages.items():
        original = table.refresh_board
        table.refresh_board = lambda obs, s, seat=seat, original=original: (drawn[seat].add(s), original(obs, s))
    finals = []
    guest.on_final_state = finals.append
    store = open_store(store_url)
    clicks = 0
    while not TRANQUILITY.play_out_over(store.state(code)):
        assert clicks < 200
        state = store.state(code)
        acting = TRANQUILITY.decider(state)
        assert acting in pages, "a bot's move should have been played by a page"
        table, other = pages[acting], pages[1 - acting]
        assert table.status.text.startswith("Your turn."), table.status.text
        assert other.status.text.startswith(f"Seat {acting + 1} (person) to play."), other.status.text
        # no widget of the other page holds this seat's hand
        hand = drawn_hand(TRANQUILITY.observe(state, acting)["hand"])
        assert not any(hand in text for text in strings_of(other)), "a page shows another seat's hand"
        assert any(hand in text for text in strings_of(table))
        assert table.play(table.move_buttons.moves[0]), table.refusal.value
        other.shared.sync()
        clicks += 1
    log = store.moves(code)
    assert [str(m) for m in inviter.model.session.moves] == log == [str(m) for m in guest.model.session.moves]
    assert drawn == {0: {0}, 1: {1}}               # each page drew its own seat's observation, only
    assert len(log) > clicks                        # the bot played too, through the pages
    for table in (inviter, guest):
        assert table.banner.layout.display != "none" and "deepsea-result" in table.banner.value
        assert "every seat sees the result" in table.shared._header.value
    assert len(finals) == 1 and TRANQUILITY.play_out_over(finals[0])


def test_a_stale_click_is_refused_beside_it_and_the_page_catches_up(store_url):
    inviter, guest, code = invite_two_people_and_a_bot(seed=7)
    guest.shared.sit(0)
    inviter.shared.sit(1)
    # a second tab of the guest's browser: the same token, a kernel of its own
    tab = page(query=f"table={code}")
    tab.shared.storage.receive({"type": "stored", "items": list(guest.shared.storage.items), "unreadable": False})
    assert tab.shared.seat == 0
    store = open_store(store_url)
    while TRANQUILITY.decider(store.state(code)) != 0:      # until seat 0 acts (seat 1 clicks, the bot plays)
        inviter.play(inviter.move_buttons.moves[0])
        guest.shared.sync()
        tab.shared.sync()
    before = len(store.moves(code))
    stale_move = tab.move_buttons.moves[0]
    assert guest.play(guest.move_buttons.moves[-1])          # the first tab moves first
    assert len(store.moves(code)) > before
    assert not tab.play(stale_move)                          # the second tab still showed the old state
    assert "Someone moved first" in tab.refusal.value
    assert [str(m) for m in tab.model.session.moves] == store.moves(code)   # it caught up


def test_a_click_out_of_turn_or_without_a_seat_is_refused_and_writes_nothing(store_url):
    inviter, guest, code = invite_two_people_and_a_bot()
    store = open_store(store_url)
    move = TRANQUILITY.legal_moves(store.state(code))[0]
    assert not guest.play(move) and "Sit at a free seat" in guest.refusal.value
    acting = TRANQUILITY.decider(store.state(code))
    guest.shared.sit(1 - acting)
    assert not guest.play(move) and "not your move" in guest.refusal.value
    assert store.moves(code) == []


def test_a_reload_with_the_browsers_token_sits_at_the_same_seat_where_the_game_is(store_url):
    inviter, guest, code = invite_two_people_and_a_bot()
    inviter.shared.sit(0)
    guest.shared.sit(1)
    assert guest.shared.storage.key == storage_key(code)
    kept = list(guest.shared.storage.items)
    assert len(kept) == 1 and kept[0].startswith("1:")
    for _ in range(3):
        for table in (inviter, guest):
            table.shared.sync()
            if table.move_buttons.moves:
                table.play(table.move_buttons.moves[0])
    reloaded = page(query=f"table={code}")                  # a new kernel: the old page's is gone
    assert reloaded.shared.seat is None
    reloaded.shared.storage.receive({"type": "stored", "items": kept, "unreadable": False})
    assert reloaded.shared.seat == 1 and reloaded.viewing_seat() == 1
    assert [str(m) for m in reloaded.model.session.moves] == open_store(store_url).moves(code)
    assert "You play Seat 2" in reloaded.shared._header.value
    # a token the table no longer knows (released) is forgotten, the page watches
    other = page(query=f"table={code}")
    other.shared.storage.receive({"type": "stored", "items": ["0:not-a-token", "x", "2:"], "unreadable": False})
    assert other.shared.seat is None and other.shared.storage.items == []


def test_the_teachers_switch_set_from_the_page_shows_no_other_hand(store_url):
    inviter, guest, code = invite_two_people_and_a_bot()
    guest.shared.sit(1)
    guest.setup.show_all = True                 # a crafted comm message to the hidden checkbox
    guest.setup.seats = ["you", "you", "you"]  # and to the hidden seat pickers
    guest._redraw()
    assert guest.viewing_seat() == 1
    state = open_store(store_url).state(code)
    for seat in (0, 2):
        assert not any(drawn_hand(TRANQUILITY.observe(state, seat)["hand"]) in t for t in strings_of(guest))


def test_a_free_seat_handed_to_a_bot_is_played_by_the_pages(store_url):
    inviter, guest, code = invite_two_people_and_a_bot()
    guest.shared.sit(1)
    assert "deepsea-to-bot-0" in guest.shared._rows[0][2]._dom_classes
    assert guest.shared._rows[0][2].layout.display is None        # seat 0 is free: it may go to a bot
    assert guest.shared._rows[1][2].layout.display == "none"      # not one's own seat
    assert guest.shared.hand_to_bot(0)
    assert [s.kind for s in open_store(store_url).info(code).seats] == ["rank", "human", "rank"]
    store = open_store(store_url)
    for _ in range(200):
        if TRANQUILITY.play_out_over(store.state(code)):
            break
        assert TRANQUILITY.decider(store.state(code)) == 1
        assert guest.play(guest.move_buttons.moves[0]), guest.refusal.value
    assert TRANQUILITY.play_out_over(store.state(code))
    # someone still here keeps their seat
    assert not page(query=f"table={code}").shared.hand_to_bot(1)


def test_an_unknown_table_or_another_games_table_is_said_and_the_page_keeps_its_game(store_url):
    from toolkit.deepblue import ENGINE as DEEPBLUE

    lost = page(query="table=NoSuchTable1")
    assert not lost.shared.joined and "no shared table NoSuchTable1" in lost.shared._answer.value.replace("There is", "")
    assert lost.controls.layout.display != "none"
    hostile = page(query="table=%3Cscript%3E")
    assert not hostile.shared.joined and "<script>" not in hostile.shared._answer.value
    inviter, _guest, code = invite_two_people_and_a_bot()
    other = page(query=f"table={code}", engine=DEEPBLUE)
    assert not other.shared.joined and "plays Tranquility" in other.shared._answer.value


def test_a_corrupted_log_entry_gives_a_clear_message_not_a_crash(store_url):
    inviter, guest, code = invite_two_people_and_a_bot()
    guest.shared.sit(0)
    inviter.shared.sit(1)
    store = open_store(store_url)
    acting = TRANQUILITY.decider(store.state(code))
    mover = guest if acting == 0 else inviter
    mover.play(mover.move_buttons.moves[0])
    with store._db.transaction() as run:                   # someone edits the database by hand
        run("UPDATE deepsea_moves SET move = ? WHERE code = ? AND idx = ?", ("play 999", code, 0))
    late = page(query=f"table={code}")
    assert not late.shared.joined
    assert "log cannot be read" in late.shared._answer.value and "move 0" in late.shared._answer.value
    seated = guest if acting == 1 else inviter
    seated.shared.sync()                                   # a page at the table when it happens
    assert seated.shared.broken and "log cannot be read" in seated.shared._answer.value
    assert not seated.play("anything") and "log cannot be read" in seated.refusal.value


def test_the_japanese_page_says_it_in_japanese(store_url):
    inviter, guest, code = invite_two_people_and_a_bot()
    guest.lang = "ja"
    assert "共有卓" in guest.shared._header.value and "ここに座る" == guest.shared._rows[0][1].description
    assert not guest.play(TRANQUILITY.legal_moves(open_store(store_url).state(code))[0])
    assert "席に座って" in guest.refusal.value


def test_a_move_reaches_the_other_page_within_a_second_through_its_watcher(store_url, monkeypatch):
    """The kernel's path: a watcher thread waits on the store and hands new moves to the page's loop."""
    store = open_store(store_url)
    code = store.create("tranquility", 4, {"players": 2}, ["human", "human"])
    tokens = {seat: store.claim(code, seat) for seat in (0, 1)}    # the other kernels' people
    loop = asyncio.new_event_loop()
    runner = threading.Thread(target=loop.run_forever, daemon=True)
    runner.start()
    monkeypatch.setattr(shared_module, "kernel_loop", lambda: loop)
    try:
        watcher = page(query=f"table={code}")             # a spectator's page, following from its thread
        assert watcher.shared._watcher is not None and watcher.shared._watcher.is_alive()
        delays = []
        for index in range(6):
            state = store.state(code)
            if TRANQUILITY.play_out_over(state):
                break
            seat = TRANQUILITY.decider(state)
            store.append(code, index, TRANQUILITY.legal_moves(state, seat)[0], seat, tokens[seat])
            started = time.monotonic()
            while len(watcher.model.session) <= index and time.monotonic() - started < 5:
                time.sleep(0.005)
            delays.append(time.monotonic() - started)
            assert len(watcher.model.session) == index + 1
        assert len(delays) >= 3 and max(delays) < 1.0, delays
        # the watcher also shows who is connected: the seats were claimed by someone present
        assert 'data-state="here"' in watcher.shared._rows[0][0].value
        watcher.shared.leave_page()
    finally:
        loop.call_soon_threadsafe(loop.stop)
        runner.join(2)


def test_the_debug_dashboard_opens_a_table_link_on_the_tables_game(store_url, monkeypatch):
    from toolkit.widgets import debug_dashboard as dashboard

    _inviter, _guest, code = invite_two_people_and_a_bot()
    monkeypatch.setattr(dashboard, "query_params", lambda: {"table": code})
    monkeypatch.setattr("toolkit.widgets.base.page_query_string", lambda: f"table={code}")
    page_view = dashboard.debug_dashboard()
    assert page_view.view == "table" and page_view._table.engine.name == "tranquility"
    assert page_view._table.shared.joined and page_view._table.shared.code == code
    assert dashboard.table_game("NoSuchTable1") is None


def test_whatever_the_browser_sends_as_its_stored_seat_or_clicks_the_page_stays_sane(store_url):
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    inviter, guest, code = invite_two_people_and_a_bot()
    token = inviter.shared.sit(0) and inviter.shared.token
    items = st.lists(st.one_of(st.none(), st.text(max_size=30), st.just(f"0:{token}"), st.just("1:" + "x" * 24),
                               st.integers(-3, 3).map(lambda s: f"{s}:{token}")), max_size=5)

    @settings(max_examples=30, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
    @given(items, st.one_of(st.integers(-5, 5), st.text(max_size=3), st.none(), st.floats()))
    def check(stored, seat):
        visitor = page(query=f"table={code}")
        visitor.shared.storage.receive({"type": "stored", "items": stored, "unreadable": False})
        # only the real token sits, and only at its own seat
        assert visitor.shared.seat == (0 if f"0:{token}" in stored else None)
        visitor.shared._on_sit(seat)
        visitor.shared._on_to_bot(seat)
        assert visitor.shared.seat in (None, 0, 1)
        assert open_store(store_url).moves(code) == []
        info = open_store(store_url).info(code)
        assert info.seats[0].claimed and info.seats[0].kind == "human"

    check()


def state_text(root: widgets.Widget) -> str:
    """Every synced trait of every widget of the page, as JSON (what the websocket frames carry)."""
    out, seen, stack = [], set(), [root]
    while stack:
        w = stack.pop()
        if isinstance(w, (list, tuple)):
            stack.extend(w)
            continue
        if not isinstance(w, widgets.Widget) or id(w) in seen:
            continue
        seen.add(id(w))
        out.append(json.dumps(w.get_state(), default=str, ensure_ascii=False))
        for name in w.keys:
            value = getattr(w, name, None)
            if isinstance(value, widgets.Widget):
                stack.append(value)
            elif isinstance(value, (list, tuple)):
                stack.extend(v for v in value if isinstance(v, widgets.Widget))
    for extra in ("table", "_risk", "_chests", "_all_moves"):          # a game table's own parts
        part = getattr(root, extra, None)
        if part is not None and part is not root and extra != "table":
            out.append(state_text(part))
    table = getattr(root, "table", None)
    for comp in getattr(table, "components", ()):
        out.append(json.dumps(comp.get_state(), default=str, ensure_ascii=False))
    return "\n".join(out)


def test_two_people_and_a_bot_play_a_whole_deep_blue_game_by_the_hint_each_seeing_only_their_hand(store_url):
    """Deep Blue's own table (issue 27: "the same for one Deep Blue table, two humans, one bot"): every move
    by "Play the hint" on the page of the seat that acts (the dives let two seats act at once), the bot
    played through the pages; no page's widgets ever hold the other person's hand; the result on both."""
    from toolkit.deepblue import ENGINE as DEEPBLUE
    from toolkit.widgets.deepblue import GameView as DeepBlueGame

    host = DeepBlueGame(query="", seats=["you", "you", "policy"])
    code = host.shared.invite(seed=3)
    guest = DeepBlueGame(query=f"table={code}")
    assert host.shared.sit(0) and guest.shared.sit(1)
    pages = {0: host, 1: guest}
    store = open_store(store_url)
    bot_lines = set()
    clicks = 0
    while not DEEPBLUE.play_out_over(store.state(code)):
        assert clicks < 1000
        state = store.state(code)
        seat = next(s for s in (DEEPBLUE.decider(state), *DEEPBLUE.optional_actors(state)) if s in pages)
        for other, table in pages.items():
            table.shared.sync()
            # each page's widgets hold its own hand's cards, never the other person's (or the bot's)
            text = state_text(table)
            for hidden in (1 - other, 2):
                mine = set(DEEPBLUE.observe(state, other)["players"][other]["hand"])
                for card in set(state.players[hidden].hand) - mine:
                    assert f'"card:{card}"' not in text, f"page {other} holds seat {hidden}'s card {card}"
            if table.bot_line.value:
                bot_lines.add(table.bot_line.value)
        table = pages[seat]
        table.hint_bar.ask.click()
        assert table.hint_bar.decision is not None and table.hint_bar.decision.move.seat == seat
        before = len(store.moves(code))
        table.hint_bar.play.click()
        assert len(store.moves(code)) > before, table.refusal.value
        clicks += 1
    for table in pages.values():
        table.shared.sync()
        assert table.status.text.startswith("The game is over."), table.status.text
        assert table.banner.layout.display != "none" and "wins with" in table.banner.value
        assert "every seat sees the result" in table.shared._header.value
    # the bot's moves were shown on the pages, the move only: Deep Blue withholds a bot's reason (it may name
    # the bot's own cards)
    assert any("Seat 3 (bot: best play)" in line for line in bot_lines), bot_lines
    assert not any("—" in line for line in bot_lines)


def test_the_bot_line_shows_on_every_page_of_the_table_not_only_the_kernel_that_played_it(store_url):
    """Tranquility's own table says a bot's move and reason (its reasons name no hidden card); every page
    recomputes the decision from the log, so the page that did not play the bot shows it too, and so does
    a page opened after it."""
    from toolkit.tables import due_bot_decision
    from toolkit.widgets.tranquility import GameView as TranquilityGame

    store = open_store(store_url)
    code = store.create("tranquility", 5, {"players": 3}, ["human", "human", "rank"])
    first, second = TranquilityGame(query=f"table={code}"), TranquilityGame(query=f"table={code}")
    assert first.shared.sit(0) and second.shared.sit(1)
    tables = {0: first, 1: second}
    shown = 0
    for _ in range(60):
        state = store.state(code)
        if TRANQUILITY.play_out_over(state):
            break
        seat = TRANQUILITY.decider(state)
        length = len(store.moves(code))
        tables[seat].play(tables[seat].move_buttons.moves[0] if hasattr(tables[seat], "move_buttons")
                          else TRANQUILITY.legal_moves(state, seat)[0])
        for table in tables.values():
            table.shared.sync()
        log = store.moves(code)
        if len(log) > length + 1:               # the bot moved after the person
            index = len(log) - 1
            due = due_bot_decision(TRANQUILITY, ["human", "human", "rank"], 5, store_state_at(store, code, index),
                                   index)
            assert due is not None and str(due[1].move) == log[-1]
            for table in (*tables.values(), TranquilityGame(query=f"table={code}")):
                line = html.unescape(table.bot_line.value)
                assert "Seat 3 (bot:" in line and due[1].text("en") in line, line
            shown += 1
            if shown >= 2:
                break
    assert shown >= 2


def store_state_at(store, code: str, index: int):
    from toolkit.core.session import Session

    info = store.info(code)
    engine = TRANQUILITY
    session = Session(engine, info.seed, dict(info.options))
    for text in store.moves(code)[:index]:
        session.push(engine.parse_move(text))
    return session.state


def test_the_generic_table_says_a_bots_move_without_its_reason_at_a_shared_table(store_url):
    """The frame's default bot line at a shared table: the move, not the reason (a reason may name a card
    of the bot's own hand; a game whose reasons do not says so in its own hook)."""
    from toolkit.tables import due_bot_decision

    store = open_store(store_url)
    first = TRANQUILITY.decider(TRANQUILITY.new_state(6, players=2))
    kinds = ["rank" if seat == first else "human" for seat in range(2)]
    code = store.create("tranquility", 6, {"players": 2}, kinds)
    watching = page(query=f"table={code}")
    assert len(store.moves(code)) == 1                 # the bot moved first, played by the page
    _seat, decision = due_bot_decision(TRANQUILITY, kinds, 6, TRANQUILITY.new_state(6, players=2), 0)
    assert str(decision.move) == store.moves(code)[0] and decision.text("en")
    line = html.unescape(watching.bot_line.value)
    name = f"Seat {first + 1} (bot: {watching.setup.level_label('rank')})"
    assert f"{name} played {watching.move_text(decision.move)}." in line
    assert decision.text("en") not in line
    # outside a shared table the same page says the reason (the page holds every seat's view there)
    alone = page(seats=["rank" if k == "rank" else "you" for k in kinds], options={"players": 2}, seed=6)
    assert decision.text("en") in html.unescape(alone.bot_line.value)


def test_a_click_that_arrives_just_after_another_seats_move_was_drawn_is_refused_as_stale(store_url):
    """Two people clicking at the same moment: the kernel of the page that hears of the other's move first
    redraws, then gets its person's click, aimed at the position before. It is refused like a click that lost
    the race in the store ("Someone moved first"), and nothing is written."""
    inviter, guest, code = invite_two_people_and_a_bot(seed=7)
    guest.shared.sit(0)
    inviter.shared.sit(1)
    # a second tab of the guest's browser (its own kernel, the same seat)
    tab = page(query=f"table={code}")
    tab.shared.storage.receive({"type": "stored", "items": list(guest.shared.storage.items), "unreadable": False})
    tab.shared.grace_s = shared_module.CAUGHT_UP_GRACE_S             # as in a kernel
    store = open_store(store_url)
    while TRANQUILITY.decider(store.state(code)) != 0:
        inviter.play(inviter.move_buttons.moves[0])
        guest.shared.sync()
    tab.shared.sync()
    tab.shared._others_moved_at = float("-inf")                      # the tab has shown this for long
    clicked = tab.move_buttons.moves[0]                              # what the tab's person clicks ...
    assert guest.play(guest.move_buttons.moves[0])                   # ... as the first tab's click lands
    after = store.moves(code)
    assert tab.shared.sync() >= 1                                    # the watcher brings it to the tab first
    assert not tab.play(clicked)
    assert "Someone moved first" in tab.refusal.value
    assert store.moves(code) == after
    assert [str(m) for m in tab.model.session.moves] == after        # the tab shows the table as it is
    tab.shared._others_moved_at -= 1.0                              # later: a click aimed at what it shows
    assert not tab.play(clicked) and "Someone moved first" not in tab.refusal.value
    assert store.moves(code) == after


def test_play_the_hint_after_another_seats_move_took_the_hint_away_says_someone_moved_first(store_url):
    """Two tabs of one seat ask for the hint and press "Play the hint" at once: the tab whose kernel hears
    of the other's move first has lost its hint; its click says "Someone moved first", nothing is written,
    and a hint asked again plays at once (it is aimed at the position as it stands: no grace)."""
    inviter, guest, code = invite_two_people_and_a_bot(seed=7)
    guest.shared.sit(0)
    inviter.shared.sit(1)
    tab = page(query=f"table={code}")
    tab.shared.storage.receive({"type": "stored", "items": list(guest.shared.storage.items), "unreadable": False})
    tab.shared.grace_s = shared_module.CAUGHT_UP_GRACE_S
    store = open_store(store_url)
    while TRANQUILITY.decider(store.state(code)) != 0:
        inviter.play(inviter.move_buttons.moves[0])
        guest.shared.sync()
    tab.shared.sync()
    for table in (guest, tab):
        table.hint_bar.ask.click()
        assert table.hint_bar.decision is not None
    guest.hint_bar.play.click()
    after = store.moves(code)
    assert len(after) >= 1 and guest.hint_bar.decision is None
    guest.hint_bar.play.click()                          # the page's own move took its hint: no "someone"
    assert "Someone moved first" not in guest.refusal.value
    tab.shared.sync()                                    # the watcher first, then the tab's click
    tab.hint_bar.play.click()
    assert "Someone moved first" in tab.refusal.value and store.moves(code) == after
    # the next hint asked is the position's own: played at once, even within the grace of a bot's move
    while TRANQUILITY.decider(store.state(code)) != 0:
        inviter.shared.sync()
        inviter.play(inviter.move_buttons.moves[0])
    tab.shared.sync()
    tab.shared._others_moved_at = time.monotonic()      # the bot's move has only just been drawn
    tab.hint_bar.ask.click()
    before = store.moves(code)
    tab.hint_bar.play.click()
    assert len(store.moves(code)) > len(before), tab.refusal.value


def test_the_status_says_why_the_game_waits_when_the_seat_to_act_is_free_or_away(store_url):
    """Who is connected, and a left seat: the seats rows say free / here / away / bot, and the status line
    says why nothing happens when the seat to act is free or its person away; the seat is then handed to a
    bot from another page and the bot plays it."""
    store = open_store(store_url)
    first = TRANQUILITY.decider(TRANQUILITY.new_state(9, players=2))
    code = store.create("tranquility", 9, {"players": 2}, ["human", "human"])
    other = 1 - first
    watcher = page(query=f"table={code}")
    assert watcher.shared.sit(other)
    status = watcher.status.text
    assert f"Seat {first + 1} is free: the game waits until someone sits there" in status, status
    assert 'data-state="free"' in watcher.shared._rows[first][0].value
    token = store.claim(code, first)                  # someone sits there from another device ...
    watcher.shared._refresh_info()                    # (the watcher's heartbeat)
    assert 'data-state="here"' in watcher.shared._rows[first][0].value
    assert "is free" not in watcher.status.text and "is away" not in watcher.status.text
    with store._db.transaction() as run:              # ... and their phone sleeps for two minutes
        run("UPDATE deepsea_seats SET seen = ? WHERE code = ? AND seat = ?", (time.time() - 120, code, first))
    watcher.shared._refresh_info()
    assert 'data-state="away"' in watcher.shared._rows[first][0].value
    assert f"Seat {first + 1} is away: the game waits for them" in watcher.status.text, watcher.status.text
    assert watcher.shared._rows[first][2].layout.display is None          # "Hand to a bot" is offered
    watcher.lang = "ja"
    assert f"席{first + 1}は離席中です" in watcher.status.text and "Seat" not in watcher.status.text, watcher.status.text
    watcher.lang = "en"
    assert watcher.shared.hand_to_bot(first)
    assert store.info(code).seats[first].kind != "human"
    assert len(store.moves(code)) >= 1                # the bot played the seat's move, through the page
    assert "is away" not in watcher.status.text
    with pytest.raises(Exception):
        store.touch(code, first, token)               # the absent person's token no longer holds the seat


def test_a_page_whose_sync_failed_catches_up_at_the_next_heartbeat(store_url, monkeypatch):
    """A sync that fails once (the store busy for a moment) must not leave the page behind for good: the
    watcher has passed those moves on, and the next move may be this page's own person's to make."""
    inviter, guest, code = invite_two_people_and_a_bot(seed=5)
    guest.shared.sit(0)
    inviter.shared.sit(1)
    store = open_store(store_url)
    while TRANQUILITY.decider(store.state(code)) != 1:
        guest.shared.sync()
        guest.play(guest.move_buttons.moves[0])
    inviter.shared.sync()
    while TRANQUILITY.decider(store.state(code)) == 1:
        inviter.play(inviter.move_buttons.moves[0])
    real_moves = guest.shared.store.moves
    calls = []

    def busy_once(code_):
        calls.append(code_)
        if len(calls) == 1:
            raise OSError("database is locked")
        return real_moves(code_)

    monkeypatch.setattr(guest.shared.store, "moves", busy_once)
    assert guest.shared.sync() == 0 and "cannot be reached" in guest.shared._answer.value
    assert len(guest.model.session) < len(store.moves(code))
    guest.shared._refresh_info()                       # the watcher's heartbeat, 5 s later
    assert [str(m) for m in guest.model.session.moves] == store.moves(code)
    assert "cannot be reached" not in guest.shared._answer.value


@pytest.mark.parametrize("game", ["pirats", "tranquility", "deepblue"])
def test_play_the_hint_on_each_games_own_table_at_a_shared_table(store_url, game):
    """Each game's own table (not only the generic one) plays "Play the hint" into the store at a shared
    table, and the other page gets the move (Pirats' table overrides ``play``: it must pass the hint on)."""
    import importlib

    engine = importlib.import_module(f"toolkit.{game}").ENGINE
    view = importlib.import_module(f"toolkit.widgets.{game}").GameView
    store = open_store(store_url)
    options = {"players": 2}
    first = engine.decider(engine.new_state(3, **options))
    code = store.create(game, 3, options, ["human", "human"])
    acting, other = view(query=f"table={code}"), view(query=f"table={code}")
    assert acting.shared.sit(first) and other.shared.sit(1 - first)
    acting.hint_bar.ask.click()
    assert acting.hint_bar.decision is not None, acting.hint_bar.text.value
    acting.hint_bar.play.click()
    assert len(store.moves(code)) == 1, acting.refusal.value
    other.shared.sync()
    assert [str(m) for m in other.model.session.moves] == store.moves(code)
