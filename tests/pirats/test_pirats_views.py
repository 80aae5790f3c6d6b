"""The Sewer Pirats views without a browser: they drive the engine, survive hostile widget values and only
ever put the seat to move's own hand into the page."""

import html
import json

from toolkit.pirats import ENGINE, SHIPS, Token
from toolkit.widgets.pirats import BoardingView, GameView, ScoringView
from toolkit.widgets.pirats.game import settings_from_query as game_settings
from toolkit.widgets.pirats.scoring import MAX_PILE, pile_from_query


def test_scoring_view_adds_tokens_and_explains_in_both_languages():
    view = ScoringView(tokens=["fries 2", "fries 3", "ketchup"])
    assert view.total == 15 and "15" in view._sheet.value
    view._kind.value = "ketchup"
    view._on_add()
    assert view.total == 25 and view.pile[-1] == Token("ketchup")
    view._examples["parrot"].click()
    assert view.total == 8 and "pirats.score.toys" in view._sheet.value
    view.lang = "ja"
    assert "合計：8点" in view._sheet.value and "オウム" in view._sheet.value
    view._clear.click()
    assert view.total == 0 and view.pile == []


def test_scoring_view_refuses_hostile_values_without_changing_the_pile():
    view = ScoringView(tokens=["can 8"])
    view._kind.value = "fries"
    # a comm message can set any trait value: the bounded box clamps, Token checks the range again
    view._value.set_state({"value": 99})
    view._on_add()
    assert view.pile == [Token("can", 8), Token("fries", 30)]
    view._kind.set_trait("index", None)      # no token kind selected at all
    view._on_add()
    assert view.pile == [Token("can", 8), Token("fries", 30)]
    assert "deepsea-refusal" in view._message.value
    view._kind.value = "parrot"
    for _ in range(MAX_PILE + 5):
        view._on_add()
    assert len(view.pile) == MAX_PILE and str(MAX_PILE) in view._message.value


def test_scoring_links_are_untrusted():
    assert pile_from_query({"tokens": "fries 2,pizza 9,ketchup,<script>"}) == [Token("fries", 2), Token("ketchup")]
    assert len(pile_from_query({"tokens": ",".join(["fries 2"] * 100)})) == MAX_PILE


def test_boarding_view_drives_the_engine():
    view = BoardingView(query="occupied=1,2&start=0&cards=1")
    view._move.click()
    assert "lands on space 3" in view._result.value and "pirats.move.skip-occupied" in view._result.value
    view._cards.value = 3
    view._move.click()
    assert "pirats.move.no-captain" in view._message.value
    view._occupied[2].value = True
    view._become.click()
    assert "pirats.captain.cost" not in view._message.value and view._board.after[3]["who"] == "you"
    assert "payout order" in view._order.value
    view.lang = "ja"
    assert "宝を取る順番" in view._order.value


def test_boarding_view_survives_hostile_settings():
    view = BoardingView(query="occupied=9,x&start=7&cards=-3")
    assert view._start.value == 0 and view._cards.value == 1
    view._start.set_trait("index", None)
    view._move.click()
    assert "deepsea-refusal" in view._message.value or view._result.value


def _hand_shown(view) -> tuple[int | None, tuple[int, int, int]]:
    """Whose hand the table draws, and its cards as (cat, bird, fish) counts."""
    hand = view._table.hand
    cards = [c["card"] for c in hand.get("cards", ())]
    return hand.get("seat"), tuple(cards.count(s) for s in SHIPS)


def test_game_view_plays_and_shows_only_the_seat_to_move():
    view = GameView(seed=3, players=3, seats=["you", "you", "you"])   # hot seat among three people
    state = view.model.state
    assert _hand_shown(view) == (0, state.hands[0])
    view.play("draw deck")
    view.play("draw deck")
    # hot seat: the table draws the seat to move, and only its observation
    assert view.model.state.turn == 1 and _hand_shown(view) == (1, view.model.state.hands[1])
    assert view._table.observation == ENGINE.observe(view.model.state, 1)
    refused = view.play("sail cat")
    assert not refused and "pirats.sail.must" in view.refusal.value
    assert view.model.state.turn == 1
    view.controls.undo.click()
    assert view.model.state.turn == 0 or len(view.model.session) == 1
    del state


def _all_widgets(widget):
    yield widget
    for child in getattr(widget, "children", ()):
        yield from _all_widgets(child)


def test_game_view_new_game_validates_its_inputs():
    view = GameView(seed=1, players=2)
    view._players.value = 5
    view._variant.value = "auction"
    view.options_bar.new_game.click()
    assert view.model.state.players == 5 and view.model.state.phase == "auction"
    assert "pirats.auction" in view.event_log._log.value and len(view._table.auction["bar"]) == 20
    view._moves.set_trait("index", None)
    view._apply.click()
    assert "deepsea-refusal" in view.refusal.value
    assert game_settings({"players": "9", "variant": "x", "seed": "-5"}) == {"seed": 0, "players": 4, "variant": "landlubber"}


def test_game_view_plays_a_whole_game_in_japanese():
    view = GameView(seed=11, players=2, lang="ja", seats=["you", "you"])
    for _ in range(600):
        if view.model.outcome is not None:
            break
        view._moves.value = len(view._moves.options) - 1   # the last move: boards pirats rather than drawing
        view._apply.click()
    assert view.model.outcome is not None
    assert "結果" in view.banner.value
    json.dumps(ENGINE.observe(view.model.state, None))


# ---- the table with bots (issue #16) ------------------------------------------------------------------------

def _widget_state(view) -> str:
    return json.dumps([w.get_state() for w in _all_widgets(view)], default=str, ensure_ascii=False)


def test_table_defaults_to_you_at_seat_0_against_the_strongest_bots():
    from toolkit.pirats import BOTS
    view = GameView(seed=3, players=4)
    assert view.setup.seats == ["you"] + [list(BOTS)[0]] * 3
    # head to head the study found cautious the stronger: a 2-player table seats it
    assert GameView(seed=3, players=2).setup.seats == ["you", "cautious"]
    view.play("draw deck")
    view.play("draw deck")
    # no event loop here: the bots answered at once, and it is seat 0's turn again
    assert ENGINE.current_player(view.model.state) == 0 and len(view.model.session) > 2
    assert "deepsea-bot-move" in view.bot_line.value and "greedy" in view.bot_line.value
    # the page holds seat 0's hand and draws seat 0's observation only
    state = view.model.state
    assert _hand_shown(view) == (0, state.hands[0])
    assert view._table.observation == ENGINE.observe(state, 0)


def test_hints_list_every_legal_move_and_the_greedy_choice():
    view = GameView(seed=5, players=3)
    legal = view.model.legal_moves
    for move in legal:
        assert ENGINE.describe_move(move, "en") in html.unescape(view._effects.value)
    view.hint_bar.ask.click()
    assert "greedy" in view.hint_bar.text.value and view._moves.value is not None
    chosen = view.model.legal_moves[view._moves.value]
    view._apply.click()
    assert view.model.session.steps[0].move == chosen


def test_step_mode_waits_and_hides_the_bots_moves_and_cards():
    view = GameView(seed=4, players=3, step_mode=True)
    view.play("draw deck")
    view.play("draw deck")
    assert ENGINE.current_player(view.model.state) == 1 and view.setup.waiting
    assert view._moves.options == () and view._effects.value == "" and view._moves.disabled
    assert "Next move" in view.status.text
    assert not view.play("draw deck")   # a person cannot move for a bot
    assert "deepsea-refusal" in view.refusal.value
    # the hand shown is still seat 0's; the teacher switch shows the acting bot's
    assert _hand_shown(view)[0] == 0
    view.setup.show_all = True
    assert _hand_shown(view)[0] == 1 and "show" in view.setup._warning.value.lower()
    view.setup.show_all = False
    view.setup._next.click()
    assert len(view.model.session) == 3 and view.setup.waiting   # one move, then it waits again


def test_undo_takes_back_your_move_and_the_bots_answers():
    view = GameView(seed=3, players=3)
    view.play("draw deck")
    view.play("draw deck")
    assert len(view.model.session) > 2
    view.controls.undo.click()
    # back before seat 0's second card, and no bot answered in between
    assert len(view.model.session) == 1 and ENGINE.current_player(view.model.state) == 0


def test_table_settings_from_the_url_are_untrusted():
    from toolkit.widgets.pirats.game import table_from_query
    assert table_from_query({"seats": "you,greedy,random"}, 3)["seats"] == ["you", "greedy", "random"]
    assert table_from_query({"seats": "you,grandmaster,random"}, 3)["seats"] == ["you", "greedy", "greedy"]
    assert table_from_query({"seats": "x"}, 2)["seats"] == ["you", "cautious"]
    assert table_from_query({"seats": "you", "pace": "nan"}, 2)["pace"] == 0.7
    view = GameView(query="seed=2&players=2&seats=random,you&pace=0&step=1")
    assert view.setup.seats == ["random", "you"] and view.setup.step_mode and view.setup.pace == 0


def test_a_learner_plays_a_whole_game_against_bots_in_japanese():
    view = GameView(seed=8, players=3, lang="ja", seats=["you", "greedy", "cautious"])
    for _ in range(400):
        if view.model.outcome is not None:
            break
        view.hint_bar.ask.click()          # play what the hint suggests
        view._apply.click()
    assert view.model.outcome is not None and "結果" in view.banner.value
    players = [ENGINE.decider(view.model.session.at(i)) for i in range(len(view.model.session))]
    assert {0, 1, 2} <= set(players)


def test_new_game_with_another_player_count_rebuilds_the_seats():
    view = GameView(seed=1, players=2)
    view._players.value = 4
    view.options_bar.new_game.click()
    assert view.model.state.players == 4 and len(view.setup.seats) == 4 and view.setup.seats[0] == "you"
    assert view._seats_box.children == (view.setup,)


def _click(view, **pick):
    view._table.receive({"type": "pick", **pick})


def test_click_a_figure_then_a_space_to_move_it():
    view = GameView(seed=3, players=3, step_mode=True)
    seat = 0
    targets = view.figure_targets()
    assert targets and all(m in view.model.legal_moves for m in targets.values())
    (figure, ship, index), move = sorted(targets.items(), key=lambda kv: str(kv[1]))[0]
    _click(view, what="figure", figure=figure)
    lit = {(s["ship"], sp["space"]) for s in view._table.ships for sp in s["spaces"] if sp["target"]}
    assert (ship, index + 1) in lit and lit == {(sh, i + 1) for (f, sh, i) in targets if f == figure}
    _click(view, what="space", ship=ship, space=index + 1)
    assert view.model.session.steps[0].move == move
    after = view.model.state.ships[SHIPS.index(ship)].spaces[index]
    assert after is not None and after.seat == seat
    # the bots' turn now (step mode): nothing on the table is a button and a click is refused
    assert not view._table.interactive and not any(sp["target"] for s in view._table.ships for sp in s["spaces"])
    _click(view, what="space", ship="cat", space=1)
    assert "wait for the bot" in view._table.refusal and len(view.model.session) == 1


def test_a_click_on_an_unreachable_space_says_why():
    view = GameView(seed=3, players=3)
    figure = sorted({f for (f, _s, _i) in view.figure_targets()})[0]
    _click(view, what="figure", figure=figure)
    view._on_space("fish", 3)
    assert "[pirats." in view._table.refusal and len(view.model.session) == 0   # the engine's reason and rule
    said = view._table.refusal
    view._on_space("nowhere", 9)
    assert view._table.refusal != said and "no such space" in view._table.refusal


def _aboard_movable(view):
    """``(figure, ship, space index)`` of a figure of the seat to move that is on a ship and may move."""
    state = view.model.state
    crew = ENGINE.observe(state, state.turn)["crews"][state.turn]
    movable = {f for (f, _s, _i) in view.figure_targets()}
    for index, figure in enumerate(crew):
        where = state.where(state.turn, index)
        if where is not None and figure in movable:
            return figure, SHIPS[where[0]], where[1]
    return None


def test_a_figure_on_a_ship_is_chosen_by_clicking_it_where_it_is_drawn():
    """A newcomer clicks the figure on the ship, not a chip below (issue 26: "Click one of your figures
    first" cost one nine minutes): a click on a space holding a movable figure of yours chooses it."""
    view = GameView(seed=4, players=2, seats=["you", "greedy"])
    found = None
    for _ in range(300):
        if view.model.outcome is not None:
            break
        if view.your_turn():
            found = _aboard_movable(view)
            if found:
                break
        view.hint_bar.ask.click()
        view._apply.click()
    assert found, "no position with a movable figure aboard was reached"
    figure, ship, index = found
    before = len(view.model.session)
    _click(view, what="space", ship=ship, space=index + 1)
    assert view._chosen == figure and len(view.model.session) == before
    assert view._table.refusal == "" and view.refusal.value == ""
    lit = {(s["ship"], sp["space"]) for s in view._table.ships for sp in s["spaces"] if sp["target"]}
    assert lit == {(sh, i + 1) for (f, sh, i) in view.figure_targets() if f == figure} and lit
    _click(view, what="space", ship=ship, space=index + 1)          # clicked again: chosen no more
    assert view._chosen is None and len(view.model.session) == before


# ---- a hint is advice to the learner, not the bot speaking (issue 26) ----------------------------------------

def test_every_bot_reason_has_a_hint_wording_for_the_learner_in_both_languages():
    import tomllib
    from pathlib import Path

    import toolkit.pirats as pirats
    messages = tomllib.loads((Path(pirats.__file__).parent / "bots_messages.toml").read_text("utf-8"))
    reasons = [k for k in messages if k.startswith("BOT_PIRATS_")]
    assert len(reasons) >= 16
    for key in reasons:
        hint = messages["HINT_" + key[len("BOT_"):]]
        assert hint["en"] and hint["ja"] and "Seat {seat}" not in hint["en"] and "席{seat}" not in hint["ja"]


def test_the_hint_speaks_to_the_learner_and_names_figures_as_people_read_them():
    view = GameView(seed=4, players=2, seats=["you", "greedy"], autoplay=False)
    seen = set()
    for _ in range(120):
        if view.model.outcome is not None:
            break
        view.driver.run_until_human()
        if view.model.outcome is not None:
            break
        view.hint_bar.ask.click()
        for lang in ("en", "ja"):
            view.lang = lang
            text = html.unescape(view.hint_bar.text.value)
            assert "Seat 0 (" not in text and "席0（" not in text, text      # not "Seat 0 (greedy) moves …"
            assert "#" not in text.split("<small")[0], text          # "rat (1)", never the label "rat#1"
        view.lang = "en"
        seen.add(view.hint_bar.decision.reason.code)
        view.hint_bar.play.click()
    assert {"BOT_PIRATS_DRAW", "BOT_PIRATS_MOVE"} <= seen, seen


def test_a_forced_bot_move_is_said_in_words_not_as_the_move_text():
    from toolkit.core.bots import Decision
    from toolkit.core.explain import Event
    from toolkit.pirats.model import MovePirat

    view = GameView(seed=3, players=2, autoplay=False)
    move = MovePirat("rat#1", "cat", 1)
    reason = Event("BOT_PIRATS_ONLY_MOVE", "bots.pirats.ship-value", seat=1, level="greedy", move=str(move))
    for lang in ("en", "ja"):
        view.lang = lang
        text, rule = view.bot_move_text(1, Decision(move, reason))
        assert "#" not in text and ENGINE.describe_move(move, lang) in text and rule == "bots.pirats.ship-value"
