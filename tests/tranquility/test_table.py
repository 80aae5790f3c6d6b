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
    """Numbers anywhere in the view's widget state, except the public status and event log (they hold
    counts and turn numbers by design: the engine's events never name face-down cards)."""
    text = widget_strings(view).replace(view._status.value, "").replace(view._log.value, "")
    return set(re.findall(r"\b\d+\b", text))


def test_default_table_is_you_against_the_strongest_bot_and_hides_their_hands():
    view = GameView(seed=4, players=3)
    assert view.setup.seats == ["you", "rank", "rank"]
    assert ENGINE.current_player(view.state) == 0 or ENGINE.is_over(view.state)  # the bots have moved
    assert view.model.session.moves, "seat 0 does not start this seed: the bots played first"
    assert "Seat 2" in view._bot_reason.value or "Seat 3" in view._bot_reason.value   # the bots' seats 1 and 2
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
        view._hint.click()
        view._play_hint.click()
    raise AssertionError("no risky placement met")


def test_a_whole_game_against_bots_by_hint_and_play():
    view = GameView(seed=11, players=2)
    clicks = 0
    while not ENGINE.is_over(view.state) and clicks < 300:
        assert view.setup.is_human(ENGINE.current_player(view.state))
        view._hint.click()
        assert view._hint_text.value and "bots.tranquility" not in view._hint_text.value
        view._play_hint.click()
        clicks += 1
        assert _hidden_numbers(view, 0).isdisjoint(_tokens(view)) or ENGINE.is_over(view.state)
    assert ENGINE.is_over(view.state) and "tranq-outcome" in view._status.value


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
        view._hint.click()
        view._play_hint.click()
        start = len(view.model.session.moves)
    assert view.setup.waiting and "Next move" in view._waiting.value
    view.setup._next.click()
    assert len(view.model.session.moves) == start + 1


def test_seats_pace_and_players_come_from_the_url_and_are_checked():
    view = GameView(query="players=3&seed=2&seats=greedy,you,random&pace=0.2", autoplay=False)
    assert view.setup.seats == ["greedy", "you", "random"] and abs(view.setup.pace - 0.2) < 1e-9
    bad = GameView(query="players=2&seats=you,psychic&pace=nan", autoplay=False)
    assert bad.setup.seats == ["you", "rank"] and 0 <= bad.setup.pace <= 3
    bad._players.value = 4
    bad._new.click()
    assert len(bad.setup.seats) == 4 and bad.state.players == 4 and bad.setup.seats[0] == "you"


def test_all_bot_table_shows_no_hand():
    view = GameView(seed=3, players=2, seats=["rank", "greedy"])
    assert ENGINE.is_over(view.state)  # no person: the bots play it out
    assert view._hand.options == ()
