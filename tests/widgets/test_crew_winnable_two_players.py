"""The "winnable" dashboard at two players: TONOJA's seven columns as the engine deals them (every card shown,
which lies under which), the captain rule (TONOJA never captain), tasks for TONOJA, a solve with ``columns=``
whose line the engine itself plays to success (a face-down card only once uncovered), the link round trip and
hostile query/widget values refused in English and Japanese; TONOJA's columns built by clicking cards in the
picker (face-up cards start columns, the k-th face-down card lies under the k-th column), driven as the page
drives it, solved as the typed columns are, while the three- to five-player pages work as before."""

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
    assert "double dummy" in drawn and "columns: 7, cards: 14" in drawn
    assert f"Column 1: {columns[0][1].text('en')} face up, on {columns[0][0].text('en')} face down" in drawn
    # the captain holds the submarine 4 (a real player's); TONOJA leads and takes tasks but is never captain
    captain = next(s for s in (0, 1) if Card.parse("S4") in hands[s])
    assert view._captain.value == captain == view._leader.value
    assert [v for _k, v in view._captain.options] == [0, 1]
    assert view._task_owner.options[2] == ("TONOJA", 2) and view._leader.options[2] == ("TONOJA", 2)
    assert view._build_seat.options[2] == ("TONOJA · 14", 2)   # TONOJA's columns are built by clicking too
    assert set(view._picker.unavailable) >= {str(c) for pair in columns for c in pair}
    view.lang = "ja"
    assert "ダブルダミー" in view._hands_box.value and "7列・14枚" in view._hands_box.value
    # back to four players: seats again, and the deal of four
    view.lang = "en"
    view._players.value = 4
    assert view._task_owner.options[2] == ("3", 2) and len(view._captain.options) == 4
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


# ---- TONOJA's columns built by clicking -------------------------------------------------------------------

def _click(view, card) -> None:
    """What the page sends when a card of the picker is clicked (or activated with Enter/Space)."""
    view._picker.receive({"type": "pick", "card": str(card)})


def _drawn_columns(view) -> list[tuple[str | None, str]]:
    """(face_down, face_up) codes as the page draws TONOJA's columns, left to right."""
    drawn = view._hands_box.value.split("crew-solver-columns")[1]
    out = []
    for cell in drawn.split("class='crew-solver-column'")[1:]:
        up = re.search(r"data-face-up='(\w+)'", cell).group(1)
        down = re.search(r"data-face-down='(\w+)'", cell)
        out.append((down.group(1) if down else None, up))
    return out


def test_tonojas_columns_are_built_by_clicking_face_up_cards_then_face_down_cards():
    _hands, columns = deal_tonoja(3)
    view = WinnableView(players=2, seed=3, tasks={0: "16"}, background=False)
    dealt_query = view.share_query()
    view._build_seat.value = 2
    assert view._tonoja_box.layout.display == "flex" and "TONOJA's columns" in view._picker.labels["title"]
    assert "k-th" not in view._tonoja_help.value and "first column that has no face-down card" in view._tonoja_help.value
    (down1, up1) = columns[0]
    assert view._picker.marks[str(up1)] == {"badge": "1", "aria": "TONOJA's column 1, face up"}
    assert view._picker.marks[str(down1)] == {"badge": "1", "aria": "TONOJA's column 1, face down", "low": True}
    view._tonoja_clear.click()
    assert view._hands[2].value == "" and view._picker.selected == [] and view._build_seat.options[2][0] == "TONOJA · 0"
    assert set(view._picker.unavailable) == {str(c) for s in (0, 1) for c in view.hand_cards(s)}
    for _down, up in columns:                       # the face-up cards, left to right: one column each
        _click(view, up)
    assert view._hands[2].value == " ".join(str(up) for _down, up in columns)
    assert _drawn_columns(view) == [(None, str(up)) for _down, up in columns]
    view._tonoja_face.value = "down"
    drawn = view._hands_box.value
    assert drawn.count("crew-solver-next-place") == 1 and "the next face-down card you click goes here" in drawn
    for k, (down, _up) in enumerate(columns, start=1):   # the face-down cards in the same order: under 1, 2, …
        _click(view, down)
        assert view.tonoja_columns()[:k] == list(columns[:k]) and view._picker.refusal == ""
    assert view._hands[2].value == columns_text(columns) and view.tonoja_columns() == list(columns)
    assert _drawn_columns(view) == [(str(d), str(u)) for d, u in columns]
    assert "crew-solver-next-place" not in view._hands_box.value
    assert view.share_query() == dealt_query        # the deal's columns again: the link is the deal's link
    assert view._build_seat.options[2][0] == "TONOJA · 14"

    # a card can be in one place only: a seat's card is refused for TONOJA, TONOJA's for a seat
    seat_card = view.hand_cards(0)[0]
    _click(view, seat_card)
    assert "already used" in view._picker.refusal and view.tonoja_columns() == list(columns)
    assert seat_card in view.hand_cards(0)
    # free one of seat 0's cards; every column has its face-down card, so a face-down click is refused
    view._build_seat.value = 0
    _click(view, columns[0][1])
    assert "already used" in view._picker.refusal and view._hands[2].value == columns_text(columns)
    _click(view, seat_card)
    assert seat_card not in view.hand_cards(0)
    view._build_seat.value = 2
    _click(view, seat_card)
    assert view._picker.refusal.startswith("Every column already has its face-down card")
    assert view._hands[2].value == columns_text(columns) and str(seat_card) not in view._picker.selected
    view.lang = "ja"
    _click(view, seat_card)
    assert view._picker.refusal.startswith("どの列にもすでに裏向きのカードがあります")
    assert view._build_seat.options[2][0] == "TONOJA · 14枚" and "表向き（1枚ごとに新しい列）" in view._tonoja_face.options[0]
    assert view._picker.marks[str(up1)]["aria"] == "TONOJAの1列目、表向き"
    view.lang = "en"
    view._tonoja_face.value = "up"                  # a new column, face up, nothing under it yet
    _click(view, seat_card)
    assert view.tonoja_columns() == list(columns) + [(None, seat_card)]
    assert view._picker.marks[str(seat_card)]["badge"] == "8"
    # a face-down card taken out leaves its column's face-up card alone; the next face-down card fills it
    down3, up3 = columns[2]
    _click(view, down3)
    assert view.tonoja_columns()[2] == (None, up3) and len(view.tonoja_columns()) == 8
    view._tonoja_face.value = "down"
    assert re.search(r"data-column='3'[^>]*>.*?crew-solver-next-place", view._hands_box.value.split("data-column='4'")[0])
    _click(view, down3)
    assert view.tonoja_columns()[2] == columns[2]
    # a face-up card taken out takes its column out: the card under it is free again, in no hand
    _click(view, up1)
    assert view.tonoja_columns() == list(columns[1:]) + [(None, seat_card)]
    assert str(down1) not in view._picker.selected and str(down1) not in view._picker.unavailable
    assert all(down1 not in view.hand_cards(s) for s in range(3))


def test_a_clicked_deal_is_solved_as_the_typed_one():
    """Every hand and every column built by clicking only (columns one by one: face up, face down, face up …)
    gives the solver the same position, and the same verdict and line, as the same deal typed."""
    rng = random.Random(11)
    cards = list(DECK)
    while True:
        rng.shuffle(cards)
        if Card.parse("S4") in cards[:26]:
            break
    hands = [sorted(cards[:13]), sorted(cards[13:26])]
    pairs = [(cards[26 + 2 * i], cards[27 + 2 * i]) for i in range(7)]   # (face_down, face_up)
    captain = 0 if Card.parse("S4") in hands[0] else 1
    clicked = WinnableView(players=2, seed=1, background=False)
    clicked._build_seat.value = 2
    clicked._tonoja_clear.click()
    for seat in (0, 1):                              # empty both hands by clicking their cards out
        clicked._build_seat.value = seat
        for card in clicked.hand_cards(seat):
            _click(clicked, card)
    assert all(not clicked.hand_cards(s) for s in range(3))
    for seat in (0, 1):
        clicked._build_seat.value = seat
        for card in reversed(hands[seat]):
            _click(clicked, card)
    clicked._build_seat.value = 2
    for down, up in pairs:
        clicked._tonoja_face.value = "up"
        _click(clicked, up)
        clicked._tonoja_face.value = "down"
        _click(clicked, down)
    assert clicked._picker.refusal == ""
    clicked._task_choice.value, clicked._task_owner.value = 18, 2    # TONOJA must win the blue 4
    clicked._task_add.click()
    clicked._captain.value = clicked._leader.value = captain
    typed = WinnableView(players=2, seed=1, background=False, captain=captain, leader=captain, tasks={2: "18"},
                         hands={0: " ".join(map(str, hands[0])), 1: " ".join(map(str, hands[1])),
                                2: " ".join(f"{up}/{down}" for down, up in pairs)})
    assert clicked._hands[2].value == typed._hands[2].value
    assert clicked.inputs() == typed.inputs() and clicked.inputs()["columns"] == pairs
    assert clicked.share_query() == typed.share_query()
    clicked.start_solve()
    typed.start_solve()
    assert clicked.solution is not None and clicked.solution.winnable is not None, clicked._message.value
    assert clicked.solution.winnable == typed.solution.winnable
    assert clicked.solution.line == typed.solution.line
    assert clicked._verdict.value == typed._verdict.value


def _expected_after(columns, card, face, others):
    """The documented rule, written independently of the view: a click on one of TONOJA's cards takes it out
    (a face-up card with its column); a free card starts a column (face up) or goes under the leftmost column
    without a face-down card (face down, refused when there is none); another hand's card is refused."""
    ups = [u for _d, u in columns]
    downs = [d for d, _u in columns if d is not None]
    if card in ups:
        return [c for c in columns if c[1] != card]
    if card in downs:
        return [(None if d == card else d, u) for d, u in columns]
    if card in others:
        return columns
    if face == "up":
        return columns + [(None, card)]
    for k, (d, u) in enumerate(columns):
        if d is None:
            return columns[:k] + [(card, u)] + columns[k + 1:]
    return columns


@settings(max_examples=25, deadline=None, derandomize=True, phases=[Phase.explicit, Phase.generate])
@given(st.integers(0, 50), st.lists(st.one_of(st.sampled_from(["up", "down", "seat 0", "seat 1", "tonoja",
                                                                  "clear"]), st.integers(0, 39), st.integers(0, 39)),
                                      min_size=10, max_size=60))
def test_any_clicks_keep_each_card_in_one_place_and_follow_the_rule(seed, actions):
    view = WinnableView(players=2, seed=seed, background=False)
    view._build_seat.value = 0                       # free half of seat 0's cards first
    for card in view.hand_cards(0)[::2]:
        _click(view, card)
    view._build_seat.value = 2
    for action in actions:
        before = view.tonoja_columns()
        others = {c for s in (0, 1) for c in view.hand_cards(s)}
        if action in ("up", "down"):
            view._tonoja_face.value = action
        elif action in ("seat 0", "seat 1", "tonoja"):
            view._build_seat.value = {"seat 0": 0, "seat 1": 1, "tonoja": 2}[action]
        elif action == "clear":
            view._tonoja_clear.click()
            assert view.tonoja_columns() == []
        else:
            card = DECK[action]
            _click(view, card)
            if view._build_seat.value == 2:
                assert view.tonoja_columns() == _expected_after(before, card, view._tonoja_face.value, others)
        everywhere = [c for s in range(3) for c in view.hand_cards(s)]
        assert len(everywhere) == len(set(everywhere))   # no card in two places
        text = view._hands[2].value
        assert parse_columns_text(text) == lenient_columns(text)   # the box always reads strictly
        assert set(view._picker.selected) == {str(c) for c in view.hand_cards(view._build_seat.value)}
        assert "Traceback" not in view._message.value and "internal" not in view._message.value.lower()
    if view._build_seat.value == 2:
        assert {view._picker.marks[str(u)]["badge"] for _d, u in view.tonoja_columns()} == \
            {str(k) for k in range(1, len(view.tonoja_columns()) + 1)}


def test_hostile_values_for_tonojas_clicks_are_refused_in_both_languages():
    view = WinnableView(players=2, seed=4, background=False)
    view._build_seat.value = 2
    text = view._hands[2].value
    for forged in ({"type": "pick", "card": "zz"}, {"type": "pick", "card": 7}, {"type": "pick"},
                   {"type": "pick", "card": "B1" * 50}, {"type": "drop", "card": "B1"}, "pick", None):
        view._picker.receive(forged)
        assert view._picker.refusal and view._hands[2].value == text, forged
    # a "clicks place" value that is not one of the toggle's options (a corrupted widget) is refused, not used
    view._build_seat.value = 0
    free = view.hand_cards(0)[0]
    _click(view, free)
    view._build_seat.value = 2
    view._tonoja_face._trait_values["value"] = "sideways"
    _click(view, free)
    assert "not 'sideways'" in view._picker.refusal and view._hands[2].value == text
    view._tonoja_face._trait_values["value"] = "up"
    view._tonoja_face.value = "down"
    # an index past the toggles' options: ipywidgets refuses it before the view hears of it
    for widget in (view._build_seat, view._tonoja_face):
        value = widget.value
        try:
            widget.set_state({"index": 9})
        except Exception:  # noqa: BLE001 - the TraitError ipywidgets raises to the comm, not the page
            pass
        assert widget.value == value
    # the hidden "take out all of TONOJA's cards" button, clicked by a forged message at four players
    view._players.value = 4
    seat2 = view._hands[2].value
    assert seat2 and view._build_seat.value == 0     # TONOJA was chosen: seat 0 at four players
    view._tonoja_clear.click()
    assert "only at two players" in view._message.value and view._hands[2].value == seat2
    view.lang = "ja"
    assert "TONOJAの列は2人プレイのときだけです" in view._message.value


def test_three_to_five_players_build_hands_as_before():
    for players in (3, 4, 5):
        view = WinnableView(players=players, seed=2, background=False)
        assert [v for _k, v in view._build_seat.options] == list(range(players))
        assert [k for k, _v in view._build_seat.options] == [f"Seat {s + 1} · {len(view.hand_cards(s))}"
                                                             for s in range(players)]
        assert view._tonoja_box.layout.display == "none" and "crew-solver-columns" not in view._hands_box.value
        view._build_seat.value = 2
        assert view._tonoja_box.layout.display == "none" and view._picker.marks == {}
        assert view._picker.labels["title"].startswith("Click cards into the chosen seat's hand")
        hand = view.hand_cards(2)
        _click(view, hand[0])                        # out of seat 2's hand, as before
        assert hand[0] not in view.hand_cards(2) and view._hands[2].value == " ".join(map(str, sorted(hand[1:])))
        _click(view, hand[0])                        # and back in, the box sorted
        assert view._hands[2].value == " ".join(map(str, sorted(hand)))
        _click(view, view.hand_cards(1)[0])          # another seat's card: refused
        assert "already used" in view._picker.refusal
        view._tonoja_face.value = "down"             # the hidden toggle changes nothing here
        _click(view, hand[1])
        assert hand[1] not in view.hand_cards(2) and "/" not in view._hands[2].value


def test_a_face_down_card_goes_under_the_column_the_learner_chooses():
    """"Under column" puts the next face-down card under any column still without one (a real table's
    layout, copied in any order); without a choice it goes under the leftmost. Forged choices are refused
    in both languages and change nothing."""
    _hands, columns = deal_tonoja(3)
    view = WinnableView(players=2, seed=3, background=False)
    view._build_seat.value = 2
    view._tonoja_clear.click()
    for _down, up in columns[:4]:
        _click(view, up)
    assert view._tonoja_under.layout.display == "none"          # face up: nothing to choose
    view._tonoja_face.value = "down"
    assert view._tonoja_under.layout.display == "flex"
    assert [v for _label, v in view._tonoja_under.options] == [-1, 0, 1, 2, 3]
    assert view._tonoja_under.options[3][0] == f"column 3 (under {columns[2][1].text('en')})"
    view._tonoja_under.value = 2
    assert "▲" in view._hands_box.value.split("class='crew-solver-column'")[3]   # the marked place: column 3
    _click(view, columns[0][0])
    assert view.tonoja_columns()[2] == (columns[0][0], columns[2][1]) and view._picker.refusal == ""
    assert [v for _label, v in view._tonoja_under.options] == [-1, 0, 1, 3]
    assert view._tonoja_under.value == -1                     # that column is full: back to the leftmost
    _click(view, columns[1][0])
    assert view.tonoja_columns()[0] == (columns[1][0], columns[0][1])
    assert _drawn_columns(view)[:3] == [(str(columns[1][0]), str(columns[0][1])), (None, str(columns[1][1])),
                                         (str(columns[0][0]), str(columns[2][1]))]
    view._tonoja_under.value = 3
    view.lang = "ja"
    assert view._tonoja_under.value == 3 and view._tonoja_under.description == "置く列："
    view.lang = "en"

    before = view._hands[2].value
    for forged in (0, 2, 9, True, "1", None):                  # columns with a face-down card, none, not a column
        view._tonoja_under._trait_values["value"] = forged
        _click(view, columns[4][0])
        assert "goes under a column that has none yet" in view._picker.refusal, forged
        assert view._hands[2].value == before
    view.lang = "ja"                                           # a redraw puts a forged choice right
    assert view._tonoja_under.value == -1 and view._hands[2].value == before
    view._tonoja_under._trait_values["value"] = 9
    _click(view, columns[4][0])
    assert "まだ裏向きのカードがない列の下に置きます" in view._picker.refusal and view._hands[2].value == before
    view._tonoja_under._trait_values["value"] = -1
    _click(view, columns[4][0])
    assert view._picker.refusal == "" and view.tonoja_columns()[1] == (columns[4][0], columns[1][1])
