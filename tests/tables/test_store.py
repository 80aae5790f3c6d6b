"""The shared-table store (issue 27): the same behaviour from SQLite and PostgreSQL (every test taking
``store`` runs on both; see conftest.py)."""

from __future__ import annotations

import multiprocessing
import threading
import time

import numpy as np
import pytest

from toolkit.core.errors import IllegalMoveError, InvalidMoveError, InvalidSeatError, RuleError
from toolkit.tables import (CorruptLogError, NotYourMoveError, SeatTakenError, StaleMoveError, TableError, TokenError,
                            UnknownTableError, open_store)
from toolkit.tables.store import GAMES, _module

#: one small game of each kind, with the seats a class would choose (people and bots)
GAME_SETUPS = {
    "crew": (3, {"players": 3, "mission": 2}, ["human", "beginner", "human"]),
    "tranquility": (4, {"players": 2}, ["human", "random"]),
    "deepblue": (2, {"players": 3}, ["human", "random", "human"]),
    "pirats": (5, {"players": 2, "variant": "landlubber"}, ["human", "greedy"]),
}


def _play_whole_game(store, code: str, tokens: dict[int, str], rng: np.random.Generator, limit: int = 3000) -> int:
    """Drive a table to its end as its visitors would: people pick one of their own legal moves (seen
    through their own view only), bots are asked through the store. Returns the number of moves."""
    info = store.info(code)
    engine = _module(info.game).ENGINE
    for _ in range(limit):
        store.play_bots(code, max_moves=50)
        state = store.state(code)
        if engine.play_out_over(state):
            return len(store.moves(code))
        moved = False
        for seat, token in tokens.items():
            view = store.view(code, seat, token)
            assert view["seat"] == seat
            mine = engine.legal_moves(state, seat)
            if not mine or (seat != engine.decider(state) and seat not in engine.optional_actors(state)):
                continue
            if seat != engine.decider(state) and rng.random() < 0.8:
                continue      # an optional move (the Crew's sonar): people mostly let it pass
            move = mine[int(rng.integers(len(mine)))]
            store.append(code, len(store.moves(code)), str(move), seat, token)
            moved = True
            break
        if not moved and store.next_bot_move(code) is None and not engine.play_out_over(store.state(code)):
            raise AssertionError("nobody can move")
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_whole_game_of_every_game_through_the_store(store, game):
    seed, options, seats = GAME_SETUPS[game]
    code = store.create(game, seed, options, seats)
    tokens = {i: store.claim(code, i) for i, kind in enumerate(seats) if kind == "human"}
    count = _play_whole_game(store, code, tokens, np.random.default_rng(seed))
    texts = store.moves(code)
    assert count == len(texts) > 0
    # the log replays to the same game outside the store: nothing lost, nothing duplicated
    engine = _module(game).ENGINE
    state = engine.new_state(seed, **options)
    for text in texts:
        state = engine.apply(state, engine.parse_move(text))
    assert engine.state_to_json(state) == engine.state_to_json(store.final_state(code))
    assert engine.play_out_over(state)


def test_bots_alone_play_the_same_game_as_play_out(store):
    """A table of bots is the same game from the same seed whatever kernel plays it — and that game is
    what every kernel computes (a bot's move is a function of the log and the seed)."""
    code = store.create("crew", 11, {"players": 3, "mission": 1}, ["beginner"] * 3)
    store.play_bots(code, max_moves=500)
    first = store.moves(code)
    again = store.create("crew", 11, {"players": 3, "mission": 1}, ["beginner"] * 3)
    store.play_bots(again, max_moves=500)
    assert store.moves(again) == first and len(first) > 10
    assert _module("crew").ENGINE.play_out_over(store.state(code))


def test_two_kernels_playing_the_bots_at_once_write_one_log(store_url):
    """Every kernel at a table may play its bots: the moves are the same, the second append of an index is
    stale and skipped, and the log equals one kernel's."""
    a, b = open_store(store_url), open_store(store_url)
    code = a.create("tranquility", 9, {"players": 2}, ["random", "random"])
    reference = a.create("tranquility", 9, {"players": 2}, ["random", "random"])
    a.play_bots(reference, max_moves=1000)

    def run(s):
        s.play_bots(code, max_moves=1000)
    threads = [threading.Thread(target=run, args=(s,)) for s in (a, b)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert a.moves(code) == a.moves(reference) == b.moves(code)
    a.close()
    b.close()


# ---- every refusal leaves the log unchanged ---------------------------------------------------------
def _crew_table(store):
    code = store.create("crew", 3, {"players": 3, "mission": 1}, ["human", "human", "beginner"])
    return code, store.claim(code, 0), store.claim(code, 1)


def test_every_refusal_leaves_the_log_unchanged(store):
    code, t0, t1 = _crew_table(store)
    engine = _module("crew").ENGINE
    state = store.state(code)
    decider = engine.decider(state)
    token = {0: t0, 1: t1}.get(decider)
    mine = [m for m in engine.legal_moves(state) if engine.actor(state, m) == decider]
    assert token is not None and mine
    other = 1 - decider if decider in (0, 1) else 0
    before = store.moves(code)
    refusals = [
        (StaleMoveError, dict(index=1, move=str(mine[0]), seat=decider, token=token)),
        (TokenError, dict(index=0, move=str(mine[0]), seat=decider, token=None)),
        (TokenError, dict(index=0, move=str(mine[0]), seat=decider, token="not-the-token")),
        (TokenError, dict(index=0, move=str(mine[0]), seat=decider, token={0: t0, 1: t1}[other])),
        (NotYourMoveError, dict(index=0, move=str(mine[0]), seat=other, token={0: t0, 1: t1}[other])),
        (TokenError, dict(index=0, move=str(mine[0]), seat=2, token="x")),          # a bot's seat
        (InvalidMoveError, dict(index=0, move="fly away", seat=decider, token=token)),
        (RuleError, dict(index=0, move="play B1" if "play B1" not in map(str, mine) else "play B9",
                         seat=decider, token=token)),
        (InvalidSeatError, dict(index=0, move=str(mine[0]), seat=7, token=token)),
        (InvalidSeatError, dict(index=0, move=str(mine[0]), seat=True, token=token)),
        (TableError, dict(index=-1, move=str(mine[0]), seat=decider, token=token)),
        (TypeError, dict(index="0", move=str(mine[0]), seat=decider, token=token)),
    ]
    for error, kwargs in refusals:
        with pytest.raises(error):
            store.append(code, **kwargs)
        assert store.moves(code) == before, kwargs
    with pytest.raises(UnknownTableError):
        store.append("nope", 0, str(mine[0]), decider, token)
    assert store.append(code, 0, str(mine[0]), decider, token) == 1
    assert store.moves(code) == before + [str(mine[0])]


def test_an_illegal_move_carries_the_engines_reason(store):
    code = store.create("tranquility", 4, {"players": 2}, ["human", "human"])
    tokens = [store.claim(code, 0), store.claim(code, 1)]
    engine = _module("tranquility").ENGINE
    state = store.state(code)
    seat = engine.decider(state)
    hand = store.view(code, seat, tokens[seat])["hand"]
    from toolkit.tranquility import PlaceIsland
    absent = next(n for n in range(1, 81) if str(n) not in map(str, hand))
    bad = PlaceIsland(absent, 0, ())      # a card this seat does not hold
    with pytest.raises(IllegalMoveError) as refused:
        store.append(code, 0, bad, seat, tokens[seat])
    assert refused.value.violation.rule.startswith("tranquility.")
    assert store.moves(code) == []


# ---- seats and hidden information ----------------------------------------------------------------
def test_seats_are_claimed_once_and_given_back(store):
    code, t0, _ = _crew_table(store)
    with pytest.raises(SeatTakenError):
        store.claim(code, 0)
    with pytest.raises(SeatTakenError):
        store.claim(code, 2)                       # the bot's
    with pytest.raises(TokenError):
        store.release(code, 0, "wrong")
    store.release(code, 0, t0)
    assert not store.info(code).seats[0].claimed
    t0b = store.claim(code, 0)
    assert t0b != t0
    with pytest.raises(TokenError):
        store.view(code, 0, t0)                    # the old token no longer holds the seat


def test_a_page_sees_only_its_own_hand(store):
    code, t0, t1 = _crew_table(store)
    own = store.view(code, 0, t0)
    assert own["seat"] == 0 and own["hand"]
    for seat, token in ((0, None), (0, t1), (1, t0), (2, None), (2, t0)):
        with pytest.raises((TokenError, TableError)):
            store.view(code, seat, token)
    public = store.view(code, None)
    assert "hand" not in public or not public["hand"]
    with pytest.raises(TableError):
        store.final_state(code)                    # every hand, refused while the attempt runs
    hands = store.state(code).hands
    dump = repr(own)
    for seat in (1, 2):
        assert not any(f"'{card}'" in dump for card in map(str, hands[seat])), "another seat's card in the view"


def test_a_left_seat_is_handed_to_a_bot(store):
    code, t0, _ = _crew_table(store)
    with pytest.raises(SeatTakenError):
        store.hand_to_bot(code, 0, "beginner", idle_for=3600)       # its holder was just here
    time.sleep(0.05)
    store.hand_to_bot(code, 0, "beginner", idle_for=0.01)
    assert store.info(code).seats[0].kind == "beginner"
    with pytest.raises(TokenError):
        store.view(code, 0, t0)
    with pytest.raises(TableError):
        store.hand_to_bot(code, 1, "grandmaster")


def test_create_refuses_bad_tables(store):
    for args, error in [(("chess", 1, {}, ["human"]), TableError),
                        (("crew", -1, {}, ["human"] * 4), RuleError),
                        (("crew", 1, {"players": 9}, ["human"] * 9), RuleError),
                        (("crew", 1, {"players": 3}, ["human"] * 4), TableError),
                        (("crew", 1, {"players": 3}, ["human", "human", "wizard"]), TableError),
                        (("crew", 1, {"players": 3}, "human"), TypeError),
                        (("crew", 1, {"players": object()}, ["human"] * 3), TypeError),
                        (("crew", 1, ["players"], ["human"] * 3), TypeError)]:
        with pytest.raises(error):
            store.create(*args)


def test_codes_are_short_unguessable_and_url_safe(store):
    codes = {store.create("tranquility", i, {"players": 2}, ["human", "human"]) for i in range(20)}
    assert len(codes) == 20
    for code in codes:
        assert 10 <= len(code) <= 16 and all(c.isalnum() or c in "-_" for c in code)
    for hostile in ("", "a b", "../x", "x" * 100, "é"):
        with pytest.raises(UnknownTableError):
            store.info(hostile)
    with pytest.raises(TypeError):
        store.info(None)


# ---- durability and corruption -----------------------------------------------------------------------
def test_a_reopened_store_has_every_move(store_url):
    first = open_store(store_url)
    code = first.create("deepblue", 2, {"players": 3}, ["random"] * 3)
    first.play_bots(code, max_moves=30)
    moves = first.moves(code)
    first.close()                                   # the kernel dies; another opens the same store
    second = open_store(store_url)
    assert second.moves(code) == moves and len(moves) == 30
    second.play_bots(code, max_moves=5)
    assert second.moves(code)[:30] == moves
    second.close()


def test_a_corrupted_or_foreign_entry_is_refused_when_read(store):
    code = store.create("crew", 3, {"players": 3, "mission": 1}, ["beginner"] * 3)
    store.play_bots(code, max_moves=5)
    good = store.moves(code)
    with store._db.transaction() as run:            # someone edits the database by hand
        run("UPDATE deepsea_moves SET move = ? WHERE code = ? AND idx = ?", ("play X99", code, 3))
    fresh = open_store(store.url)                   # a kernel that never saw the good log
    for read in (lambda: fresh.moves(code), lambda: fresh.state(code), lambda: fresh.view(code, None)):
        with pytest.raises(CorruptLogError, match="move 3"):
            read()
    with store._db.transaction() as run:
        run("UPDATE deepsea_moves SET move = ? WHERE code = ? AND idx = ?", (good[3], code, 3))
        run("DELETE FROM deepsea_moves WHERE code = ? AND idx = ?", (code, 1))
    with pytest.raises(CorruptLogError, match="gap"):
        fresh.moves(code)
    with store._db.transaction() as run:
        run("UPDATE deepsea_tables SET options = ? WHERE code = ?", ("not json", code))
    with pytest.raises(CorruptLogError):
        fresh.info(code)
    fresh.close()


# ---- waiting and racing ------------------------------------------------------------------------------
def test_wait_wakes_within_a_second_of_a_move(store_url):
    writer, reader = open_store(store_url), open_store(store_url)
    code = writer.create("tranquility", 3, {"players": 2}, ["random", "random"])
    assert reader.wait(code, 0, 0.2) == []          # nothing yet: an empty answer at the timeout
    delays = []
    for k in range(3):
        appended = {}

        def move_later():
            time.sleep(0.3)
            appended["at"] = time.monotonic()
            writer.play_bots(code, max_moves=1)
        t = threading.Thread(target=move_later)
        t.start()
        got = reader.wait(code, k, timeout=5)
        woke = time.monotonic()
        t.join()
        assert got == writer.moves(code)[k:k + 1]
        delays.append(woke - appended["at"])
    assert max(delays) < 1.0, delays
    writer.close()
    reader.close()


def _race(url: str, code: str, index: int, token: str, move: str, start: float, results) -> None:
    store = open_store(url)
    while time.time() < start:
        time.sleep(0.001)
    try:
        store.append(code, index, move, 0, token)
        results.put("landed")
    except StaleMoveError:
        results.put("stale")
    except Exception as exc:           # pragma: no cover - reported by the assertion below
        results.put(f"{type(exc).__name__}: {exc}")
    store.close()


def test_eight_processes_racing_for_one_index_land_exactly_one_move(store_url):
    store = open_store(store_url)
    code = store.create("tranquility", 5, {"players": 2}, ["human", "random"])
    token = store.claim(code, 0)
    engine = _module("tranquility").ENGINE
    state = store.state(code)
    assert engine.decider(state) == 0 or store.play_bots(code, 5)
    state = store.state(code)
    index = len(store.moves(code))
    mine = [str(m) for m in engine.legal_moves(state) if engine.actor(state, m) == 0]
    assert len(mine) >= 2
    ctx = multiprocessing.get_context("fork")     # the children need no fresh import of the toolkit
    results = ctx.Queue()
    start = time.time() + 1.0
    procs = [ctx.Process(target=_race, args=(store_url, code, index, token, mine[i % len(mine)], start, results))
             for i in range(8)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(60)
    outcomes = sorted(results.get(timeout=5) for _ in procs)
    assert outcomes == ["landed"] + ["stale"] * 7, outcomes
    assert len(store.moves(code)) == index + 1 and store.moves(code)[index] in mine
    store.close()


def test_the_default_store_lives_in_the_jupyter_data_folder(monkeypatch, tmp_path):
    from toolkit.tables import default_url
    monkeypatch.delenv("DEEPSEA_TABLES_URL", raising=False)
    monkeypatch.setenv("JUPYTER_DATA_DIR", str(tmp_path))
    assert default_url() == "sqlite:///" + str(tmp_path / "deepsea" / "tables.sqlite3")
    monkeypatch.setenv("DEEPSEA_TABLES_URL", "postgresql://x@db/tables")
    assert default_url() == "postgresql://x@db/tables"
    monkeypatch.setenv("DEEPSEA_TABLES_URL", "sqlite:///" + str(tmp_path / "t.db"))
    s = open_store()
    assert s.url.endswith("t.db") and (tmp_path / "t.db").exists()
    s.close()
    for bad in ("", "mysql://x", 3):
        with pytest.raises((TableError, TypeError)):
            open_store(bad)
