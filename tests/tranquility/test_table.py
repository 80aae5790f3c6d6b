"""The Tranquility table: seats of people and bots, bots' reasons, hints, the teacher's switch, hidden hands."""

import re


from toolkit.tranquility import ENGINE, PlaceIsland
from toolkit.widgets.tranquility import GameView

from test_widgets import widget_strings


def _hidden_numbers(view, shown_seat):
    state = view.state
    hidden = {c for s in range(state.players) if s != shown_seat for c in state.hands[s] if 36 < c <= 80}
    hidden |= {c for s in range(state.players) for c in state.piles[s] if 36 < c <= 80}
    hidden -= {c for c in state.cells if c}
    return {str(c) for c in hidden}


def _tokens(view):
    """Numbers anywhere in the view's widget state, except the public status, counts and event log (they hold
    counts and turn numbers by design: the engine's events never name face-down cards)."""
    text = widget_strings(view)
    for public in (view.status.value, view._info.value, view.event_log._log.value, view.event_log._last.value):
        text = text.replace(public, "")
    return set(re.findall(r"\b\d+\b", text))


def test_default_table_is_you_against_the_strongest_bot_and_hides_their_hands():
    view = GameView(seed=4, players=3)
    assert view.setup.seats == ["you", "rank", "rank"]
    assert ENGINE.current_player(view.state) == 0 or ENGINE.is_over(view.state)  # the bots have moved
    assert view.model.session.moves, "seat 0 does not start this seed: the bots played first"
    assert "Seat 2" in view.bot_line.value or "Seat 3" in view.bot_line.value   # the bots' seats 1 and 2
    own = {str(c) for c in view.state.hands[0] if c <= 80}
    tokens = _tokens(view)
    assert own <= tokens
    hidden = _hidden_numbers(view, 0)
    assert hidden and not (hidden & tokens)


def test_click_to_place_shows_the_cost_and_the_gaps_before_committing():
    view = GameView(seed=4, players=3)
    move = next(m for m in view.model.legal_moves if isinstance(m, PlaceIsland))
    before = len(view.model.session.moves)
    view.choose(str(move.number), move.cell)
    assert f"costs {ENGINE.why_illegal(view.state, move) is None and len(move.discards)}" in view._choice.value \
        or "costs" in view._choice.value
    assert len(view.model.session.moves) == before  # nothing committed yet
    assert "tranq-gap-ok" in view._choice.value or "tranq-gap-warning" in view._choice.value


def test_a_gap_warning_names_the_gap():
    # Find a placement in a real game that would make a gap impossible: the view warns and names it.
    view = GameView(seed=6, players=2)
    for _ in range(40):
        if ENGINE.is_over(view.state):
            break
        obs = ENGINE.observe(view.state, 0)
        from toolkit.tranquility.hints import placement_hint
        risky = [m for m in view.model.legal_moves if isinstance(m, PlaceIsland) and not m.discards
                 and placement_hint(obs, m.number, m.cell).breaks_a_gap]
        if risky:
            view.choose(str(risky[0].number), risky[0].cell)
            assert "tranq-gap-warning" in view._choice.value and "cell" in view._choice.value
            return
        view.hint_bar.ask.click()
        view.hint_bar.play.click()
    raise AssertionError("no risky placement met")


def test_a_whole_game_against_bots_by_hint_and_play():
    view = GameView(seed=11, players=2)
    clicks = 0
    while not ENGINE.is_over(view.state) and clicks < 300:
        assert view.setup.is_human(ENGINE.current_player(view.state))
        view.hint_bar.ask.click()
        words = re.sub(r'<small class="deepsea-rule-ref".*?</small>', "", view.hint_bar.text.value)
        assert words and "bots.tranquility" not in words         # worded, not a message key (the id is shown apart)
        view.hint_bar.play.click()
        clicks += 1
        assert _hidden_numbers(view, 0).isdisjoint(_tokens(view)) or ENGINE.is_over(view.state)
    assert ENGINE.is_over(view.state) and "deepsea-result" in view.banner.value


def test_the_teacher_switch_shows_every_hand_and_says_so():
    view = GameView(seed=4, players=3)
    hidden = _hidden_numbers(view, 0)
    view.setup.show_all = True
    assert "every hand" in view._teacher.value
    others = {str(c) for c in view.state.hands[1] if c <= 80}
    assert others and others <= _tokens(view)
    view.setup.show_all = False
    assert view._teacher.value == "" and not (hidden & _tokens(view))


def test_step_mode_waits_for_next_move():
    view = GameView(query="seed=4&players=3&step=1")
    start = len(view.model.session.moves)
    actor = ENGINE.current_player(view.state)
    if view.setup.is_human(actor):  # play once so a bot is due
        view.hint_bar.ask.click()
        view.hint_bar.play.click()
        start = len(view.model.session.moves)
    assert view.setup.waiting and "Next move" in view.status.text
    view.setup._next.click()
    assert len(view.model.session.moves) == start + 1


def test_seats_pace_and_players_come_from_the_url_and_are_checked():
    view = GameView(query="players=3&seed=2&seats=greedy,you,random&pace=0.2", autoplay=False)
    assert view.setup.seats == ["greedy", "you", "random"] and abs(view.setup.pace - 0.2) < 1e-9
    bad = GameView(query="players=2&seats=you,psychic&pace=nan", autoplay=False)
    assert bad.setup.seats == ["you", "rank"] and 0 <= bad.setup.pace <= 3
    bad._players.value = 4
    bad.options_bar.new_game.click()
    assert len(bad.setup.seats) == 4 and bad.state.players == 4 and bad.setup.seats[0] == "you"


def test_all_bot_table_shows_no_hand():
    view = GameView(seed=3, players=2, seats=["rank", "greedy"])
    assert ENGINE.is_over(view.state)  # no person: the bots play it out
    assert view._hand.cards == []


# ---- on the shared table frame (issue 26.2) -------------------------------------------------------------
def test_no_code_while_it_would_name_a_card_another_seat_discarded_face_down():
    import urllib.parse

    view = GameView(seed=4, players=3, query="")
    hidden = lambda: any((getattr(s.move, "discards", None) or getattr(s.move, "cards", None))   # noqa: E731
                         and s.events[0].seat != 0 for s in view.model.session.steps)
    while not hidden() and not ENGINE.is_over(view.state):
        view.hint_bar.ask.click()
        view.hint_bar.play.click()
    assert hidden() and not ENGINE.is_over(view.state)
    assert view.controls.code == "" and "deepsea-no-code" in view.controls.share.value
    solo = GameView(seed=3, players=1, query="")
    for _ in range(4):
        solo.hint_bar.ask.click()
        solo.hint_bar.play.click()
    assert len(solo.model.session.moves) == 4
    assert solo.controls.code.count("m=") == 4                 # one person: every discard is their own
    again = GameView(query=urllib.parse.urlencode({"code": solo.controls.code}))
    assert again.model.session.moves == solo.model.session.moves and again.state.cells == solo.state.cells


def test_a_closed_curtain_gets_no_hint_and_opening_it_does():
    view = GameView(seed=4, players=2, seats=["you", "you"], autoplay=False, query="")
    assert view.hint_bar.ask.disabled                          # "Hint" waits for "show my hand"
    view.hint_bar.ask.click()                                  # (a forged click is answered: no hint)
    assert view.hint_bar.decision is None and view._hand.cards == []
    view.reveal()
    assert not view.hint_bar.ask.disabled
    view.hint_bar.ask.click()
    assert view.hint_bar.decision is not None and view.hint_bar.seat == ENGINE.current_player(view.state)


def test_pace_and_step_mode_from_the_url_survive_a_new_game_of_another_size():
    view = GameView(query="players=2&seed=2&pace=1.5&step=1", autoplay=False)
    assert view.setup.pace == 1.5 and view.setup.step_mode
    old = view.setup
    view._players.value = 4
    view.options_bar.new_game.click()
    assert view.setup is not old and len(view.setup.seats) == 4
    assert view.setup.pace == 1.5 and view.setup.step_mode


def test_the_bot_line_names_no_face_down_discard():
    # the bot's move as a menu writes it names its discards ("…, discard 61"): the line says the reason
    view = GameView(seed=4, players=2, query="")
    seen = 0
    while not ENGINE.is_over(view.state):
        last = view.driver.last
        paid = [c for c in getattr(last[1].move, "discards", ()) if c > 36] if last is not None else []
        if paid and view.bot_line.value:
            said = view.bot_line.value
            assert ENGINE.describe_move(last[1].move, "en") not in said
            assert not any(re.search(rf"(?<![\w.#]){c}(?![\w.])", said) for c in paid), said
            seen += 1
        view.hint_bar.ask.click()
        view.hint_bar.play.click()
    assert seen, "the bot paid no discard in this game"
