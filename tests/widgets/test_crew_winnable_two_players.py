"""The "winnable" dashboard at two players: TONOJA's seven columns as the engine deals them (every card shown,
which lies under which), the captain rule (TONOJA never captain), tasks for TONOJA, a solve with ``columns=``
whose line the engine itself plays to success (a face-down card only once uncovered), the link round trip and
hostile query/widget values refused in English and Japanese."""

from __future__ import annotations

import random
import re

from hypothesis import Phase, given, settings, strategies as st

from toolkit.crew.cards import DECK, Card, deal_tonoja
from toolkit.crew.engine import ENGINE, PlayCard
from toolkit.widgets.crew_solver import (WinnableView, columns_text, lenient_columns, parse_columns_text)


def test_tonojas_columns_are_dealt_and_drawn_face_up_over_face_down():
    hands, columns = deal_tonoja(5)
    view = WinnableView(players=2, seed=5, background=False)
    assert [view.hand_cards(s) for s in (0, 1)] == [list(h) for h in hands]
    assert view.tonoja_columns() == list(columns)
    drawn = view._hands_box.value.split("crew-solver-columns")[1]
    pairs = re.findall(r"data-face-up='(\w+)'.*?data-face-down='(\w+)'", drawn)
    assert pairs == [(str(up), str(down)) for down, up in columns]          # which card lies under which
    assert "double dummy" in drawn and "7 columns, 14 cards" in drawn
    assert f"Column 1: {columns[0][1].text('en')} face up, on {columns[0][0].text('en')} face down" in drawn
    # the captain holds the submarine 4 (a real player's); TONOJA leads and takes tasks but is never captain
    captain = next(s for s in (0, 1) if Card.parse("S4") in hands[s])
    assert view._captain.value == captain == view._leader.value
    assert [v for _k, v in view._captain.options] == [0, 1]
    assert view._task_owner.options[2] == ("TONOJA", 2) and view._leader.options[2] == ("TONOJA", 2)
    assert [v for _k, v in view._build_seat.options] == [0, 1]   # TONOJA's columns are dealt or typed
    assert set(view._picker.unavailable) >= {str(c) for pair in columns for c in pair}
    view.lang = "ja"
    assert "ダブルダミー" in view._hands_box.value and "7列・14枚" in view._hands_box.value
    # back to four players: seats again, and the deal of four
    view.lang = "en"
    view._players.value = 4
    assert view._task_owner.options[2] == ("2", 2) and len(view._captain.options) == 4
    assert "crew-solver-columns" not in view._hands_box.value and view._hands[2].value.count("/") == 0
    view._captain.value = 3
    view._players.value = 2        # and back: the deal of two, its captain a real player
    assert view.tonoja_columns() == list(columns) and view._captain.value == captain
    assert view._task_owner.options[2] == ("TONOJA", 2) and view._hands[3].value == ""


def _engine_play_state(seed: int, mission: int):
    state = ENGINE.new_state(seed, players=2, mission=mission)
    while state.phase in ("allocate", "predict"):
        state = ENGINE.apply(state, ENGINE.legal_moves(state)[0])
    return state


def test_the_views_line_is_played_by_the_engine_to_success():
    """Engine-dealt two-player missions (tasks for TONOJA too) typed into the view: every winning line is legal
    in the engine card by card (TONOJA's face-down cards only after uncovered) and ends the mission won."""
    won = tonoja_task = 0
    for mission, seed in ((1, 0), (2, 2), (3, 0), (3, 2), (4, 2), (1, 1)):
        state = _engine_play_state(seed, mission)
        tasks: dict[int, list[str]] = {}
        for t, o, p in zip(state.tasks, state.owners, state.predictions):
            tasks.setdefault(o, []).append(f"{t}={p}" if p is not None else str(t))
        hands = {0: " ".join(map(str, state.hands[0])), 1: " ".join(map(str, state.hands[1])),
                 2: columns_text([(c.face_down, c.face_up) for c in state.columns])}
        view = WinnableView(players=2, seed=seed, hands=hands, tasks={k: ",".join(v) for k, v in tasks.items()},
                            captain=state.captain, leader=state.leader, background=False)
        view.start_solve()
        sol = view.solution
        assert sol is not None and sol.winnable is not None, view._message.value
        if not sol.winnable:
            assert sol.reason is not None and "crew-solver-reason" in view._verdict.value
            continue
        for trick in sol.line:
            for card in trick.cards:
                assert PlayCard(card) in ENGINE.legal_moves(state), (trick, card)
                state = ENGINE.apply(state, PlayCard(card))
        assert state.phase == "success"
        won += 1
        tonoja_task += 2 in tasks
        # the line is shown with TONOJA by name, on a three-seat table
        assert "TONOJA" in view._trick.value and len(view._line_table.current["seats"]) == 3
    assert won >= 4 and tonoja_task >= 1


def test_the_view_gives_the_solver_which_card_lies_under_which():
    """Seat 0 must win its own blue 4 (task 18); TONOJA's B6 lies face down under G3, so TONOJA plays G3 on
    the B4 lead: winnable. The same cards with B6 face up on G3: TONOJA must follow with B6 — lost."""
    view = WinnableView(players=2, seed=1, background=False)
    view._hands[0].value, view._hands[1].value, view._hands[2].value = "B4", "Y5", "G3/B6"
    view._tasks[0].value, view._tasks[1].value = "18", ""
    view._captain.value, view._leader.value = 0, 0
    assert view.inputs()["columns"] == [(Card.parse("B6"), Card.parse("G3"))]
    view.start_solve()
    assert view.solution.winnable is True and [str(c) for c in view.solution.line[0].cards] == ["B4", "Y5", "G3"]
    view._hands[2].value = "B6/G3"
    view.start_solve()
    assert view.solution.winnable is False and "Not winnable" in view._verdict.value


@settings(max_examples=8, deadline=None, derandomize=True, phases=[Phase.explicit, Phase.generate])
@given(st.integers(0, 2**31 - 1), st.integers(0, 10**6), st.booleans())
def test_two_player_url_view_url_round_trip(seed, shuffle_seed, own_hands):
    rng = random.Random(shuffle_seed)
    params = {"players": "2", "seed": str(seed)}
    if own_hands:
        cards = list(DECK)
        rng.shuffle(cards)
        pairs = [(cards[26 + 2 * i], cards[27 + 2 * i]) for i in range(7)]
        hands = [sorted(cards[:13]), sorted(cards[13:26])]
        params["hands"] = (";".join(f"{s}:{'-'.join(map(str, h))}" for s, h in enumerate(hands))
                           + ";2:" + "-".join(f"{up}/{down}" for down, up in pairs))
    owners = sorted(rng.sample(range(3), 2))   # TONOJA (2) takes tasks too
    params["tasks"] = f"{owners[0]}:{rng.choice([16, 17, 79])};{owners[1]}:90=1"
    params["captain"] = str(rng.randrange(2))
    params["leader"] = str(rng.randrange(3))
    query = "&".join(f"{k}={v}" for k, v in params.items())
    view = WinnableView.from_query(query, background=False)
    assert view._players.value == 2 and len(view.tonoja_columns()) == 7
    assert view.share_query() == query
    again = WinnableView.from_query(view.share_query(), background=False)
    assert again.inputs() == view.inputs() and again.share_query() == view.share_query()
    assert len(view.inputs()["columns"]) == 7


def test_hostile_two_player_queries_and_values_are_refused_in_both_languages():
    assert parse_columns_text("g5/b3 P9") == [(Card.parse("B3"), Card.parse("G5")), (None, Card.parse("P9"))]
    # unreadable tokens and repeated cards are skipped when drawn (refused when solved)
    assert lenient_columns("G5/B3/P1 zz G5/Y1 /Y2 Y3/Y3 P9") == [(Card.parse("Y1"), Card.parse("G5")),
                                                                (None, Card.parse("Y3")), (None, Card.parse("P9"))]
    assert lenient_columns(None) == [] and lenient_columns("Q1/Q2 " * 300) == []
    # TONOJA as captain, a leader past the table, a seed too long: fall back to the deal's captain
    view = WinnableView.from_query("players=2&seed=99999999999999999&captain=2&leader=7&tasks=2:16;9:17",
                                   background=False)
    assert view._players.value == 2 and view._captain.value in (0, 1) and view._leader.value == view._captain.value
    assert view._tasks[2].value == "16"
    for text, expected in (("G5/", "not a column"), ("G5/B3/P1", "not a column"), ("zz", "zz"), ("", "Give TONOJA")):
        view._hands[2].value = text
        view._on_solve()
        assert "deepsea-refusal" in view._message.value and expected in view._message.value, text
    view.lang = "ja"
    assert "TONOJAの列を入力するか配ってください" in view._message.value   # the refusal follows the language
    view._hands[2].value = "G5/B3"
    view._on_solve()
    assert "TONOJAの列を" not in view._message.value   # a readable column: refused further on (too few cards)
    assert "deepsea-refusal" in view._message.value
    view._hands[2].value = "G5/"
    view._on_solve()
    assert "TONOJAの列を読めません" in view._message.value
    # a card both in a hand and under a column is the solver's refusal, quoted
    view.lang = "en"
    view.deal(3)
    hands, columns = deal_tonoja(3)
    view._hands[2].value = columns_text([(hands[0][0], columns[0][1])] + list(columns[1:]))
    view._tasks[0].value = "16"
    view._on_solve()
    assert "deepsea-refusal" in view._message.value and hands[0][0].text("en") in view._message.value
    # a player count the page does not offer, sent as a comm value
    view._on_players({"new": 7})
    assert "2, 3, 4 or 5" in view._message.value and view._players.value == 2


def test_a_two_player_mission_loads_with_tonojas_columns_as_dealt():
    """A mission code from the two-player table (cards played, TONOJA's among them) is replayed from the deal:
    the hands and TONOJA's columns as dealt, the tasks with their owners (TONOJA's too). A saved state whose
    play has begun cannot say which card lay under TONOJA's played ones: refused, not guessed."""
    from toolkit.widgets.crew.mission import mission_code
    from toolkit.widgets.crew_solver import position_from_mission

    state = ENGINE.new_state(2, players=2, mission=3)
    dealt_columns = [(c.face_down, c.face_up) for c in state.columns]
    moves = []
    rnd = random.Random(2)
    while len(state.tricks) < 2 and state.phase not in ("success", "failed"):
        legal = ENGINE.legal_moves(state)
        move = legal[0] if state.phase != "play" else rnd.choice([m for m in legal if isinstance(m, PlayCard)])
        moves.append(move)
        state = ENGINE.apply(state, move)
    assert any(2 in t.seats for t in state.tricks) and state.phase in ("play", "failed")
    view = WinnableView(background=False)
    view._mission.value = mission_code(2, 2, 3, moves)
    view._load.click()
    assert "Loaded" in view._message.value, view._message.value
    assert view._players.value == 2 and view.tonoja_columns() == dealt_columns
    start = ENGINE.new_state(2, players=2, mission=3)
    assert [view.hand_cards(s) for s in (0, 1)] == [sorted(h) for h in start.hands[:2]]
    for task_id, owner in zip(state.tasks, state.owners):
        assert str(task_id) in view._tasks[owner].value
    view.start_solve()
    assert view.solution is not None and view.solution.winnable is not None
    # the saved state alone: refused with a clear sentence
    view._mission.value = ENGINE.state_to_json(state)
    view._load.click()
    assert "deepsea-refusal" in view._message.value and "code" in view._message.value
    now = position_from_mission(state, from_start=False)
    assert now["columns"] == [(c.face_down, c.face_up) for c in state.columns
                              if c.face_down is not None and c.face_up is not None]
