"""The Crew table names each seat and move once (issue 26, the preparation's screenshots): the bot line
("Seat 1 (bot: expert): seat 1: communicate green 9… Seat 1 communicates green 9…"), the log ("You: Seat 0
plays …"); after the attempt no seat is marked to lead (▶); the post-mortem asks to be scrolled into view;
Undo takes the table back to where a person decides."""

from __future__ import annotations

import re

import pytest

from toolkit.crew.engine import ENGINE, Sonar
from toolkit.widgets.crew.mission import MissionView


def plain(html: str) -> str:
    return re.sub(r"<[^>]*>", "", html).replace("&#x27;", "'")


def _played_out(seed: int = 3) -> MissionView:
    view = MissionView(seed=seed, players=4, mission=1, autoplay=False, query="")
    view.driver.run_until_human()
    for _ in range(200):
        moves = view.seat_moves(view.viewing_seat())
        if ENGINE.play_out_over(view.model.state) or not moves:
            break
        view._play(moves[0])
        view.driver.run_until_human()
    assert ENGINE.play_out_over(view.model.state)
    return view


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_bot_line_names_its_seat_once(lang):
    view = MissionView(seed=5, players=4, mission=3, autoplay=False, query="", lang=lang)
    seen = 0
    for _ in range(40):
        view.driver.run_until_human()
        last = view.driver.last
        if last is not None:
            seat = last[0]
            line = plain(view.bot_line.value)
            short = view.t("crew.ui.seat_n", seat=seat)
            assert line.startswith(view.seat_name(seat)), line
            name = view.seat_name(seat)
            assert line.count(name) == 1, line
            # not "Seat 1 (expert bot): seat 1: communicate …" nor "…: play green 9. Seat 1 plays green 9"
            assert not re.match(re.escape(name) + r"\s*[:：]\s*" + re.escape(short) + r"(?!\d)", line, re.I), line
            assert not re.search(r"[.。]\s*" + re.escape(short) + r"(?!\d)", line.split(name, 1)[1][:80]), line
            seen += 1
        moves = view.seat_moves(view.viewing_seat())
        if not moves or ENGINE.play_out_over(view.model.state):
            break
        view._play(moves[0])
    assert seen >= 3


def test_a_sonar_move_is_described_without_its_seat():
    view = MissionView(seed=5, players=4, mission=3, autoplay=False, query="")
    from toolkit.crew.cards import Card
    text = view._describe(Sonar(1, Card.parse("G9"), "top"))
    assert "seat" not in text.lower() and "green 9" in text


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_log_names_each_seat_once(lang):
    view = _played_out()
    view.lang = lang
    lines = re.findall(r"<li value=\"\d+\">(.*?)</li>", view.event_log._log.value)
    assert len(lines) > 12
    you = view.t("seats.name_you", name=view.t("crew.ui.seat_n", seat=0))
    mine = [plain(line) for line in lines if 'data-seat="0"' in line]
    assert mine and all(line.startswith(you) for line in mine)
    for line in lines:
        seat = re.search(r'data-seat="(\d+)"', line)
        if seat is None:
            continue
        text = plain(line)
        assert not text.startswith(view.t("seats.you") + ":"), text      # "You: Seat 0 plays …"
        name = view.log_name(int(seat.group(1)))
        assert not text.startswith(f"{name}: {view.t('crew.ui.seat_n', seat=seat.group(1))} "), text


def test_after_the_attempt_no_seat_is_marked_to_lead():
    view = _played_out()
    assert view._trick._shown["leader"] is None and not view._trick._shown["cards"]


def test_the_post_mortem_asks_to_be_scrolled_into_view_when_it_opens():
    view = _played_out()
    panel = view._post_mortem
    before = panel.focus_requests
    view.show_post_mortem()
    assert panel.data is not None and panel.focus_requests == before + 1


def test_undo_goes_back_to_where_the_person_decides_and_says_when_there_is_nothing():
    view = MissionView(seed=5, players=4, mission=3, autoplay=False, query="")
    view.driver.run_until_human()
    assert view._acts_now(0)
    before = (len(view.model.session), view.model.state)
    move = view.seat_moves(0)[0]
    view._play(move)
    view.driver.run_until_human()
    assert len(view.model.session) > before[0] + 1                   # the bots moved after the person
    view.controls.undo.click()
    assert len(view.model.session) == before[0] and view.model.state == before[1]
    assert view._acts_now(0) and view.bot_line.value == ""          # the bot line belonged to the undone moves
    while len(view.model.session):
        view.undo()
    assert view.undo() is False and "deepsea-refusal" in view.controls.answer.value


def test_undo_after_the_attempt_closes_the_post_mortem():
    view = _played_out()
    view.show_post_mortem()
    assert view._post_mortem.data is not None
    assert view.undo() and view._post_mortem.data is None and view._review.value == ""
    assert not ENGINE.play_out_over(view.model.state) and view._acts_now(view.viewing_seat())


def test_every_refused_click_is_answered_beside_what_was_clicked():
    """Every click answered (issue 26): the quick buttons under the tasks are answered under the tasks, the
    hand on the hand, the "other moves" list beside it (the frame's refusal line); the next move clears."""
    view = MissionView(seed=5, players=4, mission=3, autoplay=False, query="")
    view.driver.run_until_human()
    state = view.model.state
    view._on_quick(7)                                    # a forged click on a quick button offering nothing
    assert "deepsea-refusal" in view._task_refusal.value and view.refusal.value == ""
    view._actions.options = [("bogus", 99)]
    view._actions.value = 99                             # a hostile list value
    view._on_apply()
    assert "deepsea-refusal" in view.refusal.value and view.model.state is state
    hand = [str(c) for c in state.hand(0)]
    view._hand.receive({"type": "pick", "card": hand[0]})   # tasks are taken first: refused on the hand
    assert view._hand.refusal and view.model.state is state
    view._play(view.seat_moves(0)[0])
    assert view._task_refusal.value == "" and view._hand.refusal == ""
