"""The mission engine: tricks, sonar, distress signal, judging, the end and retries."""

import json

import pytest

from toolkit.core import IllegalMoveError, InvalidMoveError, InvalidOptionError, InvalidSeatError, Session
from toolkit.crew.engine import ENGINE, PlayCard, Sonar, parse_move
from toolkit.crew import Card

from .helpers import pink_nine, play_first_legal_until, run


def test_pink_nine_trick_and_first_two_tricks():
    s, ev = run(pink_nine(), "take 78", "play P9", "play P7", "play Y2", "play P8")
    assert s.tricks[-1].winner == 0 and s.phase == "play"
    assert s.statuses == ("pending",)
    s, ev = run(s, "play S4", "play B1", "play S1", "play S2")
    assert s.statuses == ("done",) and s.phase == "success"
    assert ENGINE.outcome(s).result == "win"
    assert any(e.code == "CREW_EVT_SUCCESS" and e.rule == "crew.end.success" for e in ev)


def test_winner_leads_next_trick():
    s, ev = run(pink_nine(tasks=(76,)), "take 76", "play P9", "play P7", "play Y2", "play P8")
    assert s.leader == 0 and ENGINE.current_player(s) == 0
    assert any(e.rule == "crew.trick.leader" and e.seat == 0 for e in ev)
    s, _ = run(s, "play B2", "play B1", "play G1", "play Y1")
    assert s.leader == 0
    s, _ = run(s, "play B3", "play G2", "play Y3", "play S2")   # seat 3 trumps with a submarine
    assert s.leader == 3 and ENGINE.current_player(s) == 3


def test_must_follow_is_refused_with_reason_and_state_unchanged():
    s, _ = run(pink_nine(), "take 78", "play P9")
    before = ENGINE.state_to_json(s)
    v = ENGINE.why_illegal(s, parse_move("play G9"))
    assert v.rule == "crew.trick.follow"
    with pytest.raises(IllegalMoveError):
        ENGINE.apply(s, "play G9")
    assert ENGINE.state_to_json(s) == before


def test_success_the_moment_all_tasks_are_done():
    s, _ = run(pink_nine(tasks=(79,)), "take 79", "play P9", "play P7", "play Y2", "play P8")
    assert s.phase == "success" and len(s.tricks) == 1
    assert ENGINE.legal_moves(s) == []
    assert ENGINE.why_illegal(s, parse_move("play S4")).rule == "core.over"


def test_failure_the_moment_a_task_fails():
    # seat 1 takes "win the first trick" and loses it at once
    s, _ = run(pink_nine(tasks=(79, 16)), "take 16", "take 79")
    assert s.owners == (1, 0)
    s, ev = run(s, "play P9", "play P7", "play Y2", "play P8")
    assert s.phase == "failed" and s.statuses[0] == "failed"
    assert any(e.code == "CREW_EVT_FAILED" and e.rule == "crew.end.failure" for e in ev)
    assert ENGINE.outcome(s) is None                  # a retry is still possible
    assert ENGINE.why_illegal(s, parse_move("play S4")).rule == "crew.retry"


def test_play_on_to_the_last_trick():
    """Shows "crew.end.last-trick"."""
    # "exactly two tricks" stays pending until the last trick
    s, _ = run(pink_nine(tasks=(84,)), "take 84")
    s = play_first_legal_until(s, lambda st: len(st.tricks) >= 9 or st.phase != "play")
    if s.phase == "play":
        assert s.statuses == ("pending",) or s.statuses == ("failed",)
    s = play_first_legal_until(s, lambda st: st.phase != "play")
    assert len(s.tricks) == 10 or s.statuses == ("failed",)
    assert s.statuses[0] in ("done", "failed")


def test_three_players_one_card_is_never_played():
    s = ENGINE.new_state(5, players=3, mission=8)        # no task cards: play on to the end
    assert sorted(len(h) for h in s.hands) == [13, 13, 14]
    s = play_first_legal_until(s, lambda st: st.phase != "play")
    if s.phase == "success":
        assert len(s.tricks) == 13 and sum(len(h) for h in s.hands) == 1


def test_only_previous_trick_is_visible():
    """Shows "crew.view.previous-trick"."""
    s, _ = run(pink_nine(tasks=(76,)), "take 76", "play P9", "play P7", "play Y2", "play P8",
               "play B2", "play B1", "play G1", "play Y1")
    view = ENGINE.observe(s, 1)
    assert view["previous_trick"]["cards"] == ["B2", "B1", "G1", "Y1"]
    table = {k: v for k, v in view.items() if k != "memory"}
    assert "P9" not in json.dumps(table)                 # the first trick is stacked face down
    assert view["memory"]["tricks"][0]["cards"] == ["P9", "P7", "Y2", "P8"]   # but seat 1 saw it played
    assert len(s.tricks) == 2                            # the engine keeps everything


def test_observe_shows_only_own_hand():
    """Shows "crew.view.observe"."""
    s = pink_nine()
    for seat in range(4):
        view = ENGINE.observe(s, seat)
        text = json.dumps(view)
        assert view["hand"] == [str(c) for c in s.hands[seat]]
        for other in range(4):
            if other != seat:
                hidden = [str(c) for c in s.hands[other]]
                assert not any(f'"{c}"' in text for c in hidden)
    assert ENGINE.observe(s, None)["hand"] is None
    with pytest.raises(InvalidSeatError, match="no seat 7"):
        ENGINE.observe(s, 7)


def test_secret_prediction_is_hidden():
    s, ev = run(pink_nine(tasks=(91,)), "take 91", "predict 3")
    assert s.predictions == (3,)
    assert ENGINE.observe(s, 0)["tasks"][0]["prediction"] == 3
    assert ENGINE.observe(s, 1)["tasks"][0]["prediction"] == "secret"
    assert all("3 tricks" not in e.message for e in ev)
    s2, _ = run(pink_nine(tasks=(90,)), "take 90", "predict 2")
    assert ENGINE.observe(s2, 1)["tasks"][0]["prediction"] == 2


def test_prediction_comes_before_play():
    s, _ = run(pink_nine(tasks=(90,)), "take 90")
    assert s.phase == "predict"
    assert ENGINE.why_illegal(s, parse_move("play P9")).rule == "crew.task.prediction"


def test_sonar_only_before_a_trick_starts():
    s, _ = run(pink_nine(), "take 78")
    assert ENGINE.why_illegal(s, parse_move("sonar 1 P7 middle")) is None
    s2, _ = run(s, "play P9")
    assert ENGINE.why_illegal(s2, parse_move("sonar 1 P7 middle")).rule == "crew.sonar.timing"
    s0 = pink_nine()
    assert ENGINE.why_illegal(s0, parse_move("sonar 1 P7 middle")).rule == "crew.alloc.order"


def test_sonar_once_per_attempt():
    s, _ = run(pink_nine(), "take 78", "sonar 1 P7 middle")
    v = ENGINE.why_illegal(s, parse_move("sonar 1 G9 top"))
    assert v.rule == "crew.sonar.once"
    assert ENGINE.why_illegal(s, parse_move("sonar 3 P8 top")) is None


def test_sonar_refusals_name_the_rule():
    s, _ = run(pink_nine(), "take 78")
    assert ENGINE.why_illegal(s, parse_move("sonar 3 S3 top")).rule == "crew.sonar.no-submarine"
    assert ENGINE.why_illegal(s, parse_move("sonar 3 P5 top")).rule == "crew.sonar.position"
    assert ENGINE.why_illegal(s, parse_move("sonar 3 P1 top")).rule == "crew.sonar.position"
    assert ENGINE.why_illegal(s, parse_move("sonar 3 P9 top")).rule == "crew.trick.own-card"


def test_communicated_card_stays_in_hand_and_follows_rules():
    """Shows "crew.sonar.in-hand"."""
    s, _ = run(pink_nine(), "take 78", "sonar 1 P7 middle")
    assert Card.parse("P7") in s.hands[1]
    assert ENGINE.observe(s, 2)["communicated"] == [{"seat": 1, "card": "P7", "position": "middle"}]
    s, _ = run(s, "play P9")
    # seat 1 must still follow pink with its communicated P7
    assert ENGINE.why_illegal(s, parse_move("play G9")).rule == "crew.trick.follow"
    s, _ = run(s, "play P7")
    assert ENGINE.observe(s, 2)["communicated"] == []       # the reminder returns when it is played


def test_currents_hide_the_position():
    s, _ = run(pink_nine(communication="currents"), "take 78")
    assert ENGINE.why_illegal(s, parse_move("sonar 1 P7 middle")).rule == "crew.sonar.currents"
    s, ev = run(s, "sonar 1 P7")
    assert s.comms[0].position is None
    assert ev[0].rule == "crew.sonar.currents"
    assert ENGINE.why_illegal(s, parse_move("sonar 3 P5")).rule == "crew.sonar.position"


def test_rapture_of_the_deep_shares_tokens():
    s, _ = run(pink_nine(communication="rapture"), "take 78")
    assert s.tokens == 2                                     # four players: 4 - 2 shared tokens
    s, _ = run(s, "sonar 1 P7 middle", "sonar 1 G9 top")     # one player may use several
    assert s.tokens == 0
    v = ENGINE.why_illegal(s, parse_move("sonar 3 P8 top"))
    assert v.rule == "crew.sonar.rapture"


def test_unfamiliar_terrain_draws_a_mode():
    """Shows "crew.sonar.unfamiliar"."""
    seen = set()
    for seed in range(12):
        s = ENGINE.new_state(seed, players=4, mission=22)
        assert s.terrain is not None and not s.terrain.is_submarine
        expected = "normal" if s.terrain.value <= 3 else "currents" if s.terrain.value <= 6 else "rapture"
        assert s.comm == expected
        seen.add(s.comm)
    assert len(seen) >= 2


def test_no_communication_missions():
    s = ENGINE.new_state(2, players=4, mission=16)           # untimed mission 16: no communication
    assert s.comm == "none"
    s = play_first_legal_until(s, lambda st: st.phase == "play") if s.phase == "play" else s
    while s.phase == "allocate":
        s = ENGINE.apply(s, ENGINE.legal_moves(s)[0])
    while s.phase == "predict":
        s = ENGINE.apply(s, ENGINE.legal_moves(s)[0])
    v = ENGINE.why_illegal(s, Sonar(0, s.hands[0][0], "top"))
    assert v.rule == "crew.sonar.none"


def test_distress_signal_passes_one_card_each():
    """Shows "crew.distress.signal"."""
    s, _ = run(pink_nine(), "take 78", "distress left")
    assert s.phase == "distress" and ENGINE.current_player(s) == 0
    s, ev = run(s, "give 0 B2", "give 1 B1", "give 2 G1", "give 3 Y1")
    assert s.phase == "play"
    assert Card.parse("B2") in s.hands[1] and Card.parse("B1") in s.hands[2]
    assert Card.parse("G1") in s.hands[3] and Card.parse("Y1") in s.hands[0]
    assert all(len(h) == 10 for h in s.hands)
    # the chosen cards were never in the public event log
    assert not any("B2" in e.message or "blue 2" in e.message for e in ev if e.code == "CREW_EVT_GAVE")


def test_distress_refuses_submarine():
    s, _ = run(pink_nine(), "take 78", "distress right")
    assert ENGINE.why_illegal(s, parse_move("give 0 S4")).rule == "crew.distress.no-submarine"


def test_distress_only_before_communication():
    s, _ = run(pink_nine(), "take 78", "sonar 1 P7 middle")
    assert ENGINE.why_illegal(s, parse_move("distress left")).rule == "crew.distress.timing"
    s, _ = run(pink_nine(), "take 78", "play P9")
    assert ENGINE.why_illegal(s, parse_move("distress left")).rule == "crew.distress.timing"


def test_distress_adds_one_to_attempts():
    """Shows "crew.distress.count"."""
    s, _ = run(pink_nine(tasks=(79, 16)), "take 16", "take 79", "distress left",
               "give 0 B2", "give 1 B1", "give 2 G1", "give 3 Y1")
    assert s.attempts_counted == 2
    s = play_first_legal_until(s, lambda st: st.phase != "play")
    if s.phase == "failed":
        s, _ = run(s, "retry")
        assert s.attempt == 2 and s.attempts_counted == 3 and s.distress_used
        while s.phase == "allocate":
            s = ENGINE.apply(s, ENGINE.legal_moves(s)[0])
        assert ENGINE.why_illegal(s, parse_move("distress left")) is None   # may be repeated each retry


def test_retry_redeals_and_resets_sonar():
    s, _ = run(pink_nine(tasks=(79, 16)), "take 16", "take 79", "sonar 1 P7 middle",
               "play P9", "play P7", "play Y2", "play P8")
    assert s.phase == "failed"
    s2, ev = run(s, "retry")
    assert s2.attempt == 2 and s2.tasks == (79, 16) and s2.comms == () and not any(s2.sonar_used)
    assert s2.hands != s.hands and s2.phase == "allocate"
    assert any(e.rule == "crew.retry" for e in ev)
    assert ENGINE.why_illegal(s, parse_move("retry new")) is None


def test_retry_with_new_tasks_keeps_total():
    s = ENGINE.new_state(4, players=4, mission=5)
    while s.phase != "failed":
        moves = ENGINE.legal_moves(s)
        plays = [m for m in moves if isinstance(m, PlayCard)]
        s = ENGINE.apply(s, plays[-1] if plays else moves[0])
        if s.phase == "success":
            pytest.skip("seed happened to succeed")
    before = sum(ENGINE.mission_of(s).difficulty for _ in [0])
    s2, _ = run(s, "retry new")
    assert sum(t.difficulty_for(4) for t in map(__import__("toolkit.crew", fromlist=["TASKS"]).TASKS.get,
                                                   s2.tasks)) == before == 5


def test_json_round_trip_and_replay():
    sess = Session(ENGINE, 11, {"players": 4, "mission": 3})
    for _ in range(30):
        if ENGINE.is_over(sess.state) or sess.state.phase == "failed":
            break
        sess.push(ENGINE.legal_moves(sess.state)[0])
    text = ENGINE.state_to_json(sess.state)
    assert ENGINE.state_from_json(text) == sess.state
    again = Session.from_json(ENGINE, sess.to_json())
    assert again.state == sess.state


def test_bad_saved_state_is_refused():
    from toolkit.core import InvalidStateError
    s = pink_nine()
    data = json.loads(ENGINE.state_to_json(s))
    data["hands"][0] = data["hands"][0][1:]
    with pytest.raises(InvalidStateError):
        ENGINE.state_from_json(json.dumps(data))


@pytest.mark.parametrize("text", ["play", "play P0", "sonar x P9 top", "take", "assign 3 2", "fly", "", "retry old"])
def test_bad_move_text(text):
    with pytest.raises(InvalidMoveError):
        parse_move(text)


@pytest.mark.parametrize("move", ["take 16", "pass", "assign 16 to 2", "assign all to 1", "predict 3",
                                  "sonar 2 P9 top", "sonar 1 G4", "distress left", "give 1 B3", "play P9",
                                  "time-up", "retry", "retry new"])
def test_move_text_round_trips(move):
    assert str(parse_move(move)) == move


def test_bad_options_are_refused():
    with pytest.raises(InvalidOptionError, match="not 6"):
        ENGINE.new_state(1, players=6)
    with pytest.raises(InvalidOptionError, match="99"):
        ENGINE.new_state(1, mission=99)
    with pytest.raises(InvalidOptionError):
        ENGINE.new_state(1, players=4, hands=[["P1"]])
    with pytest.raises(InvalidOptionError):
        ENGINE.new_state(1, mission=3, difficulty=4)


def test_custom_retry_new_keeps_the_fixed_tasks_total():
    s, _ = run(pink_nine(tasks=(79, 16)), "take 16", "take 79", "play P9", "play P7", "play Y2", "play P8")
    assert s.phase == "failed"
    s2, _ = run(s, "retry new")
    from toolkit.crew import TASKS
    assert sum(TASKS[t].difficulty_for(4) for t in s2.tasks) == 2
