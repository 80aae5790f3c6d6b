"""The Crew table's saved missions: every attempt that ends is kept for the page, its code reopens it, and
opening one shows its post-mortem (card-by-card verdicts, the fatal card and who played it, the winning
alternative on the replay table, the allocations the mission's own rules allow). Hostile codes are
refused in the page's language and leave the table as it was."""

from __future__ import annotations

import re
from html import escape as html_escape

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from tests.crew.helpers import replay_alternative
from toolkit.crew.engine import ENGINE
from toolkit.widgets.crew import MissionView
from toolkit.widgets.crew.mission import (SavedMissionError, encode_moves, mission_code, parse_mission_code)

JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def _play_by_policy(seed: int, mission: int = 1, seats=None) -> MissionView:
    """You at seat 0 take the first task token, else play the first playable card; bots move at once."""
    view = MissionView(seed=seed, mission=mission, autoplay=False, seats=seats)
    for _ in range(80):
        view.driver.run_until_human()
        if ENGINE.play_out_over(view.model.state):
            break
        takes = [t["id"] for g in view._tasks.groups for t in g["tasks"] if t["selectable"]]
        playable = [i["card"] for i in view._hand.items if i["playable"]]
        if takes:
            view._tasks.receive({"type": "pick", "task": takes[0]})
        elif playable:
            view._hand.receive({"type": "pick", "card": playable[0]})
        else:
            view._on_apply()   # predictions and the like: the first listed move
    return view


@pytest.fixture(scope="module")
def lost_game() -> MissionView:
    view = _play_by_policy(10)
    assert view.model.state.phase == "failed", "seed 10 no longer loses mission 1: pick another seed"
    return view


def test_an_ended_attempt_is_saved_and_opens_with_its_post_mortem(lost_game):
    saved = lost_game.saved_games
    assert len(saved) == 1 and saved[0]["seed"] == 10 and saved[0]["phase"] == "failed"
    assert saved[0]["moves"] == tuple(lost_game.model.session.moves)
    # the page only gets a label for it, never the moves
    label, index = lost_game._saved_list.options[0]
    assert index == 0 and "seed 10" in label and "P9" not in label
    # a fresh page of another game: the list is per page; open the game by its code instead
    view = MissionView(seed=3, mission=1, autoplay=False)
    assert view._saved_list.disabled and view.saved_games == []
    code = lost_game._shareable_code(0)
    assert html_escape(lost_game.code()) in lost_game.controls.share.value    # the frame's code of the game
    view.controls.code_input.value = code       # an older mission code opens in the frame's code box too
    view.controls.open.click()
    assert view.model.session.moves == lost_game.model.session.moves
    html = view._review.value
    review = view._review_data[0]
    # the card-by-card verdicts: one mark per card played, the fatal card outlined with its seat
    marks = re.findall(r"class='crew-pm-card( crew-pm-fatal)?' data-verdict='(\d?)' data-card='(\w+)' data-seat='(\d)'",
                       html)
    assert len(marks) == len(review.verdicts) == sum(len(c) for _, c in review.tricks)
    assert [m[1] for m in marks] == ["1" if v else "0" if v is False else "" for v in review.verdicts]
    fatal = [(int(m[3]), m[2]) for m in marks if m[0]]
    seat, card = review.lost_card
    assert fatal == [(seat, str(card))]
    assert f"data-card='{card}' data-seat='{seat}'" in html and "crew-pm-lost" in html
    # the winning alternative on the replay table, card by card
    assert view._replay_box.layout.display == "flex"
    shown = len(view._replay_table.current["seats"])
    before = view._replay_pos
    view._replay_next.click()
    assert view._replay_pos == before + 1 and shown
    # the allocation verdicts, restricted by the mission's rule (mission 1: clockwise from the captain)
    assert "data-rules='crew.alloc.order'" in html and "Choose tasks clockwise from the captain" in html
    # and once opened, this page keeps it in its own list too
    assert len(view.saved_games) == 1 and not view._saved_list.disabled


def test_the_session_list_reopens_a_game_after_another_was_started(lost_game):
    view = lost_game
    moves = list(view.model.session.moves)
    view.options_bar.seed.value = 4
    view.options_bar.new_game.click()
    assert view.model.session.moves == [] and view._review.value == ""
    view._saved_list.value = 0
    view._saved_open.click()
    assert view.model.session.moves == moves
    assert "crew-pm-lost" in view._review.value
    assert "Its post-mortem is below" in view._saved_status.value
    view.lang = "ja"   # the line and the post-mortem follow the language switch
    assert "振り返りは下にあります" in view._saved_status.value and "1枚ごとの判定" in view._review.value
    view.lang = "en"


def test_code_round_trip_and_links():
    code = mission_code(10, 4, 1, [])
    assert parse_mission_code("seed=10&players=4&mission=1&moves=take_78.P9")[2] == ["take 78", "play P9"]
    for text in ("?seed=10&moves=P9", "http://host/voila/render/crew-mission.ipynb?seed=10&moves=P9#x"):
        assert parse_mission_code(text) == (10, {"players": 4, "mission": 1}, ["play P9"])
    assert code.startswith("seed=10&players=4&mission=1&moves=")


HOSTILE = ["", "   ", "hello", "seed=1&moves=", "seed=abc&moves=P9", "seed=-1&moves=P9", "seed=1&mission=99&moves=P9",
           "seed=1&players=9&moves=P9", "seed=²&moves=P9", "seed=1&moves=P9.zzz", "x" * 5000,
           "seed=1&players=2&mission=1&moves=take_1", "seed=1&moves=take_78%00", "seed=99999999999999&moves=P9",
           "seed=1&moves=" + ".".join(["P9"] * 2000), "<script>alert(1)</script>?seed=1&moves=<b>"]


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_hostile_codes_are_refused_in_the_page_language_and_change_nothing(lang):
    view = MissionView(seed=2, mission=1, autoplay=False, lang=lang)
    view._tasks.receive({"type": "pick", "task": view.model.state.tasks[0]})
    before = list(view.model.session.moves)
    for text in HOSTILE:
        assert view.open_code(text) is False, text
        message = view.controls.answer.value      # beside the code box
        assert "deepsea-refusal" in message, (text, message)
        assert "<script>" not in message and "<b>" not in message
        if lang == "ja":
            assert JAPANESE.search(re.sub("<[^>]+>", "", message)), (text, message)
        assert view.model.session.moves == before
    assert view.open_code(12345) is False


@settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(st.text(max_size=200),
                 st.builds(lambda a, b, c: f"seed={a}&players={b}&moves={c}", st.text(max_size=12),
                           st.text(max_size=3), st.text(max_size=60))))
def test_any_pasted_text_is_refused_or_opened_never_raised(text):
    try:
        seed, options, moves = parse_mission_code(text)
    except SavedMissionError:
        return
    assert 0 <= seed < 2**31 and 2 <= options["players"] <= 5 and moves


def test_the_post_mortem_button_says_lost_only_for_a_lost_attempt(lost_game):
    """A won attempt has no card where it was lost: its button offers a review of the won mission."""
    assert lost_game._review_button.description == "Post-mortem: where was it lost?"
    won = _play_by_policy(0)
    assert won.model.state.phase == "success", "seed 0 no longer wins mission 1: pick another seed"
    assert won._review_button.layout.display == "flex"
    assert won._review_button.description == "Post-mortem: review the won mission"
    won._review_button.click()
    assert "Post-mortem (every hand known)" in won._review.value and "Lost in trick" not in won._review.value
    won.lang = "ja"
    assert won._review_button.description == "振り返り：成功した任務を確認"


def test_the_post_mortem_counts_only_what_mission_six_allows():
    """Mission 6: all tasks go to one crew member — the post-mortem reviews those allocations only."""
    view = MissionView(seed=5, mission=6, autoplay=False, seats=["random"] * 4)
    view.driver.run_until_human()
    assert ENGINE.play_out_over(view.model.state)
    view.show_post_mortem()
    html = view._review.value
    total = int(re.search(r"data-total='(\d+)'", html).group(1))
    assert total in (3, 4) and "crew.mission.one-member" in html       # 3 with a captain comparison
    assert "Mission 6: one member takes every task" in html
    view.lang = "ja"
    assert "任務6：1人が全タスク" in view._review.value


def test_encode_decode_keeps_every_move_kind():
    view = _play_by_policy(10)
    moves = view.model.session.moves
    _seed, _opts, texts = parse_mission_code(mission_code(10, 4, 1, moves))
    assert [ENGINE.parse_move(t) for t in texts] == list(moves)
    assert encode_moves(moves).count(".") == len(moves) - 1


def test_too_many_allocations_for_a_click_are_counted_not_solved():
    """Mission 17 (free selection), seed 1 draws four tasks: 4 ** 4 = 256 allocations (fewer without the
    captain's comparisons) — over the click budget, so the panel says how many, and solves none."""
    from toolkit.widgets.crew.mission import MAX_REVIEWED_ALLOCATIONS

    view = MissionView(seed=1, mission=17, autoplay=False, seats=["random"] * 4)
    view.driver.run_until_human()
    assert len(view.model.state.tasks) == 4
    view.show_post_mortem()
    html = view._review.value
    n = int(re.search(r"allows (\d+) allocations", html).group(1))
    assert n > MAX_REVIEWED_ALLOCATIONS and "crew-pm-allocations'" not in html
    view.lang = "ja"
    assert f"{n}通り" in view._review.value


def test_the_post_mortem_of_a_mission_without_task_cards_judges_its_rule():
    """Mission 12 (no pink or submarine lead): random bots lose it; the panel names the fatal card against
    the mission's rule, in en and ja, and reviews no allocation (there are no task cards)."""
    view = MissionView(seed=2, mission=12, autoplay=False, seats=["random"] * 4)
    view.driver.run_until_human()
    state = view.model.state
    assert ENGINE.play_out_over(state) and not state.tasks
    assert view.review_inputs()["mission"] == 12
    view.show_post_mortem()
    html = view._review.value
    assert "every line of play breaks mission 12&#x27;s rule" in html
    fatal = re.search(r"crew-pm-fatal' data-verdict='0' data-card='(\w+)'", html).group(1)
    assert fatal[0] in "PS" and "in trick 1:" in html      # the bot that led pink or a submarine
    assert "crew-pm-allocations'" not in html
    view.lang = "ja"
    assert "任務12のルール" in view._review.value


def test_the_post_mortem_of_a_two_player_mission_keeps_tonoja_s_columns():
    """Two players: the review gets TONOJA's columns as dealt, so its verdicts and its alternative line never
    play a face-down card before it is turned up (the alternative replays through the engine)."""
    for seed in range(40):
        view = MissionView(seed=seed, players=2, mission=3, autoplay=False, seats=["random"] * 3)
        view.driver.run_until_human()
        state = view.model.state
        if state.phase != "failed" or state.distress_used:
            continue
        inputs = view.review_inputs()
        start = next(view.model.session.at(p) for p in range(len(view.model.session) + 1)
                     if view.model.session.at(p).phase == "play" and not view.model.session.at(p).tricks
                     and not view.model.session.at(p).trick)
        assert inputs["columns"] == [(c.face_down, c.face_up) for c in start.columns]
        view.show_post_mortem()
        review = view._review_data[0]
        if review.lost_after is None:
            continue
        t, _ = review.lost_after
        assert replay_alternative(start, state.tricks[:t], review.alternative).phase == "success"
        return
    raise AssertionError("no lost two-player mission with a fatal card among the seeds")


def test_a_won_missions_review_marks_its_close_calls():
    """The review of a won attempt names its close calls (toolkit.crew.close_calls on the same attempt)
    and marks exactly those cards with "!" in the card-by-card table, in both languages."""
    from toolkit.crew import close_calls

    won = _play_by_policy(0, mission=3, seats=["you", "expert", "expert", "expert"])
    assert won.model.state.phase == "success", "seed 0 no longer wins mission 3 with expert partners"
    won.show_post_mortem()
    calls = close_calls(**won.review_inputs(), node_limit=200_000)
    assert calls.only_cards, "no close call in this game any more: pick another seed"
    html = won._review.value
    shown = re.search(r"class='crew-pm-close-calls' data-choices='(\d+)' data-only='(\d+)'>([^<]*)<", html)
    assert shown and (int(shown[1]), int(shown[2])) == (len(calls.choices), len(calls.only_cards))
    assert shown[3] == html_escape(calls.explain("en"), quote=True)
    marked = re.findall(r"class='crew-pm-card crew-pm-only' data-verdict='1' data-card='(\w+)' data-seat='(\d)'", html)
    assert sorted(marked) == sorted((str(c.card), str(c.seat)) for c in calls.only_cards)
    assert html.count("crew-pm-only-mark") == len(calls.only_cards)
    won.lang = "ja"
    assert html_escape(calls.explain("ja"), quote=True) in won._review.value
    assert JAPANESE.search(won._review.value.split("crew-pm-close-calls")[1][:200])


def test_a_close_calls_tooltip_names_the_cards_that_would_have_lost():
    from toolkit.crew import close_calls

    won = _play_by_policy(0, mission=3, seats=["you", "expert", "expert", "expert"])
    won.show_post_mortem()
    call = close_calls(**won.review_inputs(), node_limit=200_000).only_cards[0]
    others = [c for c in call.legal if c != call.card]
    for lang in ("en", "ja"):
        won.lang = lang
        title = re.search(rf"crew-pm-only' data-verdict='1' data-card='{call.card}' data-seat='{call.seat}' "
                          r"title='([^']*)'", won._review.value)[1]
        assert all(html_escape(c.text(lang)) in title for c in others), title
        assert html_escape(call.card.text(lang)) in title
