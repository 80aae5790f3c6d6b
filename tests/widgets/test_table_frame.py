"""toolkit.widgets.table: the one table frame and the generic table, on the tiny game and a real engine."""

from __future__ import annotations

import re
import urllib.parse

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tinygame import STONES

from toolkit.core.explain import Event
from toolkit.widgets.components.base import PickComponent
from toolkit.widgets.table import (
    GameCodeError,
    GenericTable,
    StatusLine,
    TableFrame,
    game_code,
    parse_game_code,
    replay_code,
    sentences,
    session_code,
)

SETTINGS = settings(max_examples=40, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])


def tiny_table(seats=("you", "random"), **kwargs) -> GenericTable:
    # query="" : a test page has no URL; autoplay outside a kernel plays the bots' moves at once
    return GenericTable(STONES, seed=kwargs.pop("seed", 3), seats=list(seats), query=kwargs.pop("query", ""), **kwargs)


def snapshot(table: TableFrame):
    return (table.model.session.seed, dict(table.model.session.options), list(table.model.session.moves))


def log_items(table: TableFrame) -> list[str]:
    return re.findall(r"<li value=\"\d+\">(.*?)</li>", table.event_log._log.value)


# ---- status -----------------------------------------------------------------------------------------
def test_sentences_drop_repeats_and_empties():
    assert sentences(["Your turn.", "", "Your turn.", " Seat 1 may also act. "]) == ["Your turn.", "Seat 1 may also act."]


def test_status_names_who_acts_never_repeats_and_lights_no_seat_after_the_end():
    table = tiny_table(seats=("you", "you"))           # a hot seat: each person in turn
    seen = []
    while not STONES.is_over(table.model.state):
        text = table.status.text
        parts = [p for p in re.split(r"(?<=\.)\s", text) if p]
        assert len(parts) == len(set(parts)), text
        acting = STONES.current_player(table.model.state)
        assert table.status.acting == acting and f'data-acting="{acting}"' in table.status.value
        assert f"Seat {acting + 1} (you): your turn." == text   # people count seats from 1
        seen.append(acting)
        table.move_buttons._on_move(0)
    assert seen[:2] == [0, 1]
    assert table.status.acting is None and 'data-acting=""' in table.status.value
    assert table.status.text == "The game is over."
    table.lang = "ja"
    assert table.status.text == "ゲームは終わりました。"


def test_status_names_a_bot_by_its_level_and_drops_a_game_sentence_that_repeats_it():
    table = tiny_table(seats=("random", "you"), autoplay=False)
    assert table.status.text == "Seat 1 (bot: random) to play."
    line = StatusLine()
    line.update(table.model, table.seat_name, "en", extra=["Seat 1 (bot: random) to play.", "Take 1-3."])
    assert line.text == "Seat 1 (bot: random) to play. Take 1-3."


# ---- every click answered -----------------------------------------------------------------------------
@SETTINGS
@given(st.lists(st.one_of(st.integers(-3, 5), st.none(), st.text(max_size=5), st.floats()), max_size=12))
def test_every_click_moves_or_shows_a_refusal_and_a_refusal_changes_nothing(clicks):
    table = tiny_table()
    for index in clicks:
        before = snapshot(table)
        legal = list(table.move_buttons.moves)
        table._on_move(index)
        moved = snapshot(table) != before
        if isinstance(index, int) and not isinstance(index, bool) and 0 <= index < len(legal):
            assert moved and table.refusal.value == ""
        else:
            assert not moved
            assert 'role="alert"' in table.refusal.value and table.refusal.item is not None


@SETTINGS
@given(st.text(max_size=40))
def test_a_forged_move_text_is_refused_beside_the_actions_and_the_game_is_unchanged(text):
    table = tiny_table()
    before = snapshot(table)
    applied = table.play(text)
    if applied:     # a forged text may happen to be a legal move ("0 take 2")
        assert STONES.parse_move(text.strip()) in STONES.legal_moves(table.model.session.at(len(before[2])))
    else:
        assert snapshot(table) == before and "deepsea-refusal" in table.refusal.value


def test_an_illegal_move_is_refused_with_its_rule():
    table = tiny_table()
    assert not table.play("0 take 7")
    assert "tiny.take.range" in table.refusal.value
    assert table.play("0 take 1") and table.refusal.value == ""


def test_the_bot_line_says_the_bot_s_move_and_reason_until_a_person_moves():
    table = tiny_table()
    assert table.bot_line.value == ""
    table._on_move(0)                                   # you, then the bot answers at once
    bot_move = table.model.session.moves[-1]
    assert table.bot_line.seat == 1
    assert f"Seat 2 (bot: random) played {bot_move}." in table.bot_line.value and "bots.random" in table.bot_line.value
    table.lang = "ja"
    assert "席2" in table.bot_line.value
    table.undo()
    assert table.bot_line.value == "" and table.bot_line.seat is None


def test_a_table_may_withhold_a_bot_s_move():
    class Quiet(GenericTable):
        def bot_move_text(self, seat, decision):
            return None

    table = Quiet(STONES, seed=3, seats=["you", "random"], query="")
    table._on_move(0)
    assert len(table.model.session) == 2 and table.bot_line.value == ""


# ---- log and last result ------------------------------------------------------------------------------
def test_the_log_keeps_the_whole_game_and_names_the_seat_of_every_event():
    seed = next(s for s in range(100) if STONES.new_state(s).pile >= 13)
    table = tiny_table(seats=("you", "random"), seed=seed)
    while not STONES.is_over(table.model.state):
        table._on_move(0)
    events = table.model.session.events
    assert len(events) < 12       # the bot took many: now a long game, at a hot seat, one stone a move
    table = tiny_table(seats=("you", "you"), seed=seed)
    while not STONES.is_over(table.model.state):
        table._on_move(0)
    events = table.model.session.events
    items = log_items(table)
    assert len(items) == len(events) > 12
    for item, event in zip(items, events):
        name = f"Seat {event.seat + 1} (you)"
        assert item.startswith(f'<b class="deepsea-event-seat" data-seat="{event.seat}">{name}</b>:')
    assert "scroll up for the earlier ones" in table.event_log._log.value     # the fold is visible
    assert 'role="log"' in table.event_log._log.value


class BigTakeTable(GenericTable):
    """The last 'result' is the latest take of 3 stones: it stays until the next one."""

    def last_result(self, events):
        big = [e for e in events if e.code == "TINY_TOOK" and dict(e.params)["count"] == 3]
        return f"{big[-1].seat} took 3, {dict(big[-1].params)['left']} left" if big else None


def test_the_last_result_stays_on_screen_until_the_next_one():
    table = BigTakeTable(STONES, seed=5, seats=["you", "you"], query="")
    assert table.event_log.last_result_html == "" and table.event_log._last.value == ""
    table.play("0 take 3")
    first = table.event_log.last_result_html
    assert first.startswith("0 took 3")
    table.play("1 take 1")
    table.play("0 take 2")
    assert table.event_log.last_result_html == first and "Last result" in table.event_log._last.value
    table.play("1 take 3")
    assert table.event_log.last_result_html.startswith("1 took 3")
    table.undo()
    assert table.event_log.last_result_html == first


# ---- hint -------------------------------------------------------------------------------------------
class Pile(PickComponent):
    pass


class PileTable(GenericTable):
    """A board component beside the buttons: the hint outlines the pile too."""

    def build(self):
        super().build()
        self.pile = Pile()

    def board_widgets(self):
        return [self.pile] + super().board_widgets()

    def hint_marks(self, decision):
        return super().hint_marks(decision) + [(self.pile, [f"pile:{decision.move.count}"])]


def test_the_hint_marks_exactly_the_suggested_objects_once_and_clears_after_a_move():
    table = PileTable(STONES, seed=3, seats=["you", "random"], query="")
    table._on_hint()
    decision = table.hint_bar.decision
    assert decision is not None and decision.move in STONES.legal_moves(table.model.state, 0)
    assert table.move_buttons.marked() == [str(decision.move)]
    assert table.pile.hint_keys == [f"pile:{decision.move.count}"]
    assert table.pile.hint_label == f"Hint: {decision.move}"
    table._on_hint()                                     # asked twice: shown once
    assert table.hint_bar.text.value.count("Hint for You") == 1
    assert "Hint" not in table.status.text
    table._on_play_hint()
    assert table.model.session.moves[0] == decision.move
    assert table.move_buttons.marked() == [] and table.pile.hint_keys == []
    assert table.hint_bar.text.value == "" and table.hint_bar.play.disabled
    table._on_play_hint()                                 # nothing to play: said so, no move
    assert "Ask for a hint first" in table.hint_bar.text.value


def test_a_component_s_own_refusal_lands_on_the_refusal_line():
    table = PileTable(STONES, seed=3, seats=["you", "random"], query="")
    table.answer_refusals(table.pile)
    before = snapshot(table)
    table.pile.receive({"type": "pick", "key": "pile:1"})      # Pile reads no pick: refused by itself
    assert snapshot(table) == before and table.pile.refusal
    assert table.refusal.item == table.pile.refusal and 'role="alert"' in table.refusal.value


def test_game_code_refuses_bad_arguments_with_a_type_error_naming_them():
    for kwargs, name in (({"game": 3}, "game"), ({"seed": -1}, "seed"), ({"seed": True}, "seed"),
                         ({"options": [1]}, "options"), ({"moves": "0 take 1"}, "moves")):
        args = {"game": "tiny", "seed": 1, "options": {}, "moves": [], **kwargs}
        with pytest.raises(TypeError, match=name):
            game_code(**args)


def test_no_hint_for_a_bot_or_after_the_end():
    table = tiny_table(seats=("random", "random"))
    assert STONES.is_over(table.model.state)
    table._on_hint()
    assert table.hint_bar.decision is None and "No hint now" in table.hint_bar.text.value


# ---- undo and new game -------------------------------------------------------------------------------
def test_undo_goes_back_to_the_person_s_last_decision_and_says_when_there_is_nothing():
    table = tiny_table()
    table.undo()
    assert "Nothing to undo" in table.controls.answer.value
    table._on_move(0)                      # you, then the bot answers
    assert len(table.model.session) == 2
    drawn = []
    table.event_log._log.observe(lambda change: drawn.append(table.status.text), "value")
    table._on_undo()
    assert drawn == ["Your turn."]          # one redraw: the bot's turn in between is never shown
    # back at the start, your turn; the bot does not replay
    assert len(table.model.session) == 0 and table.status.text == "Your turn."


def test_new_game_with_options_reseats_and_bad_options_keep_the_game():
    table = tiny_table()
    table._on_move(1)
    before = snapshot(table)
    table.options_bar.option_widgets["players"].value = 9
    table._on_new_game()
    assert snapshot(table) == before and "players must be 2-4" in table.options_bar.answer.value
    table.options_bar.option_widgets["players"].value = 3
    table.options_bar.seed.value = 11
    old_seats = table.setup
    table._on_new_game()
    assert old_seats.comm is None        # the two-seat bar was closed, not left in the kernel
    assert table.model.session.seed == 11 and table.model.session.options == {"players": 3}
    assert table.setup.seats == ["you", "random", "random"] and table.options_bar.answer.value == ""
    assert table._seats_box.children == (table.setup,)


# ---- the game code -----------------------------------------------------------------------------------
def reach(seed: int, players: int, picks: list[int]):
    from toolkit.core.session import Session
    session = Session(STONES, seed, {"players": players})
    for pick in picks:
        legal = session.legal_moves()
        if not legal:
            break
        session.push(legal[pick % len(legal)])
    return session


@SETTINGS
@given(st.integers(0, 2**31 - 1), st.integers(2, 4), st.lists(st.integers(0, 5), max_size=20))
def test_any_reachable_position_encodes_and_decodes_to_the_same_state(seed, players, picks):
    session = reach(seed, players, picks)
    code = session_code(session)
    again = replay_code(STONES, parse_game_code(code, "tiny"))
    assert again.state == session.state and again.moves == session.moves and again.seed == seed
    link = "https://example.org/voila/render/table.ipynb?" + urllib.parse.urlencode({"code": code, "lang": "ja"})
    assert replay_code(STONES, parse_game_code(link, "tiny")).state == session.state


@SETTINGS
@given(st.text(max_size=300))
def test_a_forged_code_is_refused_with_a_clear_error_and_nothing_else(text):
    try:
        replay_code(STONES, parse_game_code(text, "tiny"))
    except GameCodeError as exc:
        assert exc.key.startswith("table.code.")
        assert exc.text("en") and exc.text("ja") != exc.text("en")


@pytest.mark.parametrize("code, key", [
    ("", "table.code.empty"),
    ("x" * 30_000, "table.code.too_long"),
    ("seed=3", "table.code.not_code"),
    ("game=crew&seed=3", "table.code.other_game"),
    ("game=tiny&seed=-1", "table.code.bad_seed"),
    ("game=tiny&seed=3&o.players=9", "table.code.bad_setup"),
    ("game=tiny&seed=3&o.colour=1", "table.code.bad_setup"),
    ("game=tiny&seed=3&o.players=%5B1%5D", "table.code.bad_option"),
    ("game=tiny&seed=3&m=hello", "table.code.bad_move"),
    ("game=tiny&seed=3&m=0+take+1&m=0+take+1", "table.code.refused_move"),
    ("game=tiny&seed=3" + "&m=1" * 2100, "table.code.too_many_moves"),
])
def test_each_kind_of_bad_code_names_its_reason(code, key):
    with pytest.raises(GameCodeError) as caught:
        replay_code(STONES, parse_game_code(code, "tiny"))
    assert caught.value.key == key


def test_the_refused_move_of_a_code_is_named_with_the_rule():
    with pytest.raises(GameCodeError) as caught:
        replay_code(STONES, "game=tiny&seed=3&m=0+take+1&m=0+take+1")
    assert caught.value.text("en") == "Move 2 (0 take 1) is refused: It is not seat 1's turn: seat 2 acts now. [core.turn]"
    assert caught.value.text("ja").startswith("2手目（0 take 1）は打てません：")


def test_the_table_shows_its_link_and_reopens_a_game_from_it():
    table = tiny_table()
    table._on_move(0)
    code = table.controls.code
    assert code == game_code("tiny", 3, {}, table.model.session.moves) == "game=tiny&seed=3&m=0+take+1&m=1+take+2"
    href = re.search(r'href="\?([^"]+)"', table.controls.share.value).group(1).replace("&amp;", "&")
    opened = tiny_table(query=href)
    assert opened.model.state == table.model.state and opened.model.session.moves == table.model.session.moves
    other = tiny_table(seed=1)
    other.controls.code_input.value = code
    other._on_open_code()
    assert other.model.state == table.model.state and "Opened the game of seed 3" in other.controls.answer.value
    before = snapshot(other)
    other.controls.code_input.value = code.replace("seed=3", "seed=abc")
    other._on_open_code()
    assert snapshot(other) == before and "is not a whole number" in other.controls.answer.value


def test_a_bad_code_in_the_link_opens_the_default_game_and_says_why():
    table = tiny_table(query="code=game%3Dtiny%26seed%3D3%26m%3Dnonsense", seed=4)
    assert table.model.session.seed == 4 and len(table.model.session) == 0
    assert "Move 1 (nonsense) is not a move of this game" in table.controls.answer.value


def test_seed_and_options_from_the_link():
    table = tiny_table(query="seed=8&players=3")
    assert table.model.session.seed == 8 and table.model.session.options == {"players": 3}
    assert len(table.setup.seats) == 3
    ignored = tiny_table(query="seed=8&players=77")
    assert ignored.model.session.options == {} and ignored.model.session.seed == 8


def test_a_table_can_withhold_its_code_when_it_names_a_hidden_card():
    class Secretive(GenericTable):
        def shareable(self, moves, viewer):
            return not moves

    table = Secretive(STONES, seed=3, seats=["you", "random"], query="")
    assert table.controls.code
    table._on_move(0)
    assert table.controls.code == "" and "No code for this game" in table.controls.share.value


# ---- a real engine -------------------------------------------------------------------------------------
def test_the_generic_table_plays_a_real_game_to_its_end_and_reopens_it():
    from toolkit.tranquility import ENGINE
    table = GenericTable(ENGINE, seed=4, options={"players": 2}, seats=["you", "random"], levels=["random"], query="")
    clicks = 0
    while not ENGINE.is_over(table.model.state) and clicks < 400:
        assert table.move_buttons.moves, table.status.text
        table._on_move(clicks % len(table.move_buttons.moves))
        clicks += 1
    assert ENGINE.is_over(table.model.state), clicks
    assert table.status.acting is None and table.banner.layout.display is None
    assert len(log_items(table)) == len(table.model.session.events)
    opened = GenericTable(ENGINE, seats=["you", "random"], levels=["random"],
                          query=urllib.parse.urlencode({"code": table.controls.code}))
    assert opened.model.state == table.model.state


@settings(max_examples=8, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**31 - 1), st.lists(st.integers(0, 200), max_size=40))
def test_any_reachable_tranquility_position_round_trips_through_its_code(seed, picks):
    from toolkit.core.session import Session
    from toolkit.tranquility import ENGINE
    session = Session(ENGINE, seed, {"players": 2})
    for pick in picks:
        legal = session.legal_moves()
        if not legal:
            break
        session.push(legal[pick % len(legal)])
    again = replay_code(ENGINE, session_code(session))
    assert again.state == session.state and again.moves == session.moves


class Headed(GenericTable):
    def rules_text(self):
        return {"en": "Take 1 to 3.", "ja": "1〜3個取る。"}[self.lang]

    def setup_events(self):
        return [Event("TINY_SETUP", "tiny.setup", count=self.model.session.initial.pile)]


def test_the_header_and_the_deal_s_events_come_from_hooks_in_the_page_s_language():
    table = Headed(STONES, seed=3, seats=["you", "random"], query="")
    assert "Take 1 to 3." in table._header.value
    assert log_items(table)[0].startswith('<span class="deepsea-text">The pile holds')
    table.lang = "ja"
    assert "1〜3個取る。" in table._header.value and "山は" in log_items(table)[0]


def test_labels_in_japanese():
    table = tiny_table(lang="ja")
    assert table.hint_bar.ask.description == "ヒント" and table.controls.undo.description == "一手戻す"
    assert table.options_bar.new_game.description == "新しいゲーム"
    assert table.options_bar.option_widgets["players"].description == "人数"
    assert table.status.text == "あなたの番です。"
    assert isinstance(Event("TINY_SETUP", "tiny.setup", count=3).text("ja"), str)


def test_the_debug_dashboard_plays_on_the_generic_table_and_opens_its_code():
    from toolkit.widgets.debug_dashboard import DebugDashboard
    played = tiny_table(seats=("you", "random"))
    played._on_move(1)
    query = urllib.parse.urlencode({"view": "table", "code": played.code()})
    d = DebugDashboard({"tiny": STONES}, game="tiny", seed=5, view="table", query=query)
    table = d._holder.children[0]
    assert isinstance(table, GenericTable) and table.model.state == played.model.state
    d._start.click()                                   # a click starts the chosen game and seed, afresh
    fresh = d._holder.children[0]
    assert fresh is not table and table.comm is None and fresh.model.session.seed == 5
    d.lang = "ja"
    assert fresh.lang == "ja" and fresh.hint_bar.ask.description == "ヒント"
