"""toolkit.widgets.seats: the seat setup and the bot driver, on the tiny test game."""

from __future__ import annotations

import pytest
from tinygame import STONES

from toolkit.core.bots import RandomBot, play_out
from toolkit.core.errors import RuleError
from toolkit.widgets.base import GameSession
from toolkit.widgets.seats import YOU, BotDriver, SeatSetup, default_seats


@pytest.fixture(autouse=True)
def _tiny_bots(monkeypatch):
    # The tiny game has no BOTS registry of its own; make_bot falls back to {"random": RandomBot}.
    yield


def test_default_seats_put_the_person_at_seat_0_and_the_strongest_bot_elsewhere():
    assert default_seats(3, ["strong", "random"]) == [YOU, "strong", "strong"]
    setup = SeatSetup(3, ["random"])
    assert setup.seats == [YOU, "random", "random"]
    assert setup.human_seats() == [0] and setup.bot_levels() == [None, "random", "random"]


def test_untrusted_seat_values_keep_the_old_ones():
    setup = SeatSetup(2, ["random"])
    setup.seats = ["grandmaster", YOU]
    assert setup.seats == [YOU, "random"]
    setup.seats = [YOU]
    assert setup.seats == [YOU, "random"]
    setup.pace = float("nan")
    assert setup.pace == 0.7
    setup.pace = 99
    assert setup.pace == 3.0


def test_a_followed_seat_always_holds_its_leader_s_value_and_offers_no_choice():
    setup = SeatSetup(3, ["random"], seats=[YOU, "random", YOU], follows={2: 1}, names={2: "TONOJA"})
    assert setup.seats == [YOU, "random", "random"]
    picker = setup._pickers[2]
    assert picker.disabled and len(picker.options) == 1 and picker.description == "TONOJA"
    assert "seat 2" in picker.options[0][0]
    setup._pickers[1].value = YOU                      # the leader's player changes: the follower follows
    assert setup.seats == [YOU, YOU, YOU] and picker.value == YOU
    setup.seats = [YOU, "random", YOU]                 # an untrusted value for the followed seat is overruled
    assert setup.seats == [YOU, "random", "random"]
    assert not setup._pickers[1].disabled and len(setup._pickers[1].options) == 2
    setup.lang = "ja"
    assert "席2" in picker.options[0][0]


@pytest.mark.parametrize("follows", [{2: 2}, {3: 0}, {2: -1}, {1: 0, 2: 1}])
def test_follows_must_name_another_played_seat(follows):
    with pytest.raises(RuleError, match="follows"):
        SeatSetup(3, ["random"], follows=follows)


def test_viewing_seat_never_shows_a_bot_s_hand_unless_the_teacher_asks():
    setup = SeatSetup(3, ["random"])
    assert setup.viewing_seat(0) == 0
    assert setup.viewing_seat(2) == 0          # a bot acts: the page keeps showing the person's seat
    setup.show_all = True
    assert setup.viewing_seat(2) == 2
    setup.show_all = False
    setup.seats = ["random"] * 3
    assert setup.viewing_seat(1) is None       # all bots: the spectator's view
    assert "show" in setup._warning.value or setup._warning.value == ""


def test_driver_plays_the_bots_until_the_person_must_act():
    model = GameSession(STONES, seed=11, options={"players": 2})
    setup = SeatSetup(2, ["random"])
    driver = BotDriver(model, setup)           # no event loop here: bot moves are played at once
    assert model.engine.current_player(model.session.state) == 0
    assert len(model.session) == 0
    assert model.play(model.legal_moves[0])
    # the bot answered at once; the person is to move again (or the game ended)
    assert len(model.session) == 2 or STONES.is_over(model.session.state)
    assert driver.last is not None and driver.last[0] == 1
    assert driver.last[1].reason.rule == "bots.random"


def test_all_bot_table_matches_play_out():
    model = GameSession(STONES, seed=5, options={"players": 3})
    setup = SeatSetup(3, ["random"], seats=["random"] * 3)
    BotDriver(model, setup)
    state, moves = play_out(STONES, 5, [RandomBot()] * 3, players=3)
    assert model.session.moves == moves and STONES.is_over(model.session.state)


def test_step_mode_waits_for_next_move():
    model = GameSession(STONES, seed=5, options={"players": 2})
    setup = SeatSetup(2, ["random"], seats=["random", "random"], step_mode=True)
    BotDriver(model, setup)
    assert len(model.session) == 0 and setup.waiting
    setup._next.click()
    assert len(model.session) == 1
    setup.step_mode = False                    # no loop: the rest is played at once
    assert STONES.is_over(model.session.state)


def test_hint_is_a_legal_move_of_the_person_s_seat():
    model = GameSession(STONES, seed=5, options={"players": 2})
    setup = SeatSetup(2, ["random"])
    driver = BotDriver(model, setup)
    hint = driver.hint()
    assert hint is not None and hint.move in model.legal_moves and hint.move.seat == 0


def test_without_autoplay_the_caller_drives_the_bots():
    model = GameSession(STONES, seed=5, options={"players": 2})
    setup = SeatSetup(2, ["random"], seats=["random", "random"])
    driver = BotDriver(model, setup, autoplay=False)
    assert len(model.session) == 0
    assert driver.play_one() and len(model.session) == 1
    assert driver.run_until_human() >= 1 and STONES.is_over(model.session.state)
    assert not driver.play_one()


def test_a_running_loop_outside_a_kernel_does_not_time_the_bots():
    # Playwright's sync API leaves a loop that reports itself running in a test session; the driver must
    # not schedule on it (nothing would ever turn it), only on an IPython kernel's loop.
    import asyncio

    async def inside_a_loop():
        model = GameSession(STONES, seed=11, options={"players": 2})
        BotDriver(model, SeatSetup(2, ["random"], seats=["random", "random"]))
        return STONES.is_over(model.session.state)

    # In a thread of its own: this test session may already hold a loop in the main thread (Playwright).
    import threading

    result = []
    worker = threading.Thread(target=lambda: result.append(asyncio.run(inside_a_loop())))
    worker.start()
    worker.join(60)
    assert result == [True]


def test_a_long_all_bot_game_is_played_in_a_loop_in_move_order():
    # A whole Deep Blue game (hundreds of moves) with autoplay and no kernel: each bot move changes the model,
    # which must not schedule the next move from inside this one (the stack would overflow).
    import sys

    from toolkit.deepblue import ENGINE

    model = GameSession(ENGINE, seed=4, options={"players": 2})
    setup = SeatSetup(2, ["random"], seats=["random", "random"], step_mode=True)
    driver = BotDriver(model, setup)
    seen = []
    driver.observe(lambda change: seen.append(driver.last[1].move), "moves_played")
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(300)                     # fewer frames than the game has moves
    try:
        setup.step_mode = False
    finally:
        sys.setrecursionlimit(limit)
    assert ENGINE.is_over(model.session.state) and len(model.session) > 300
    assert seen == model.session.moves            # `last` follows the moves in order


# ---- the bots wait for their page (the Voila race: bots moving while the page connects) -------------------
def _run_in_a_kernel_loop(monkeypatch, scenario):
    """Run ``scenario()`` (a coroutine function) on a fresh asyncio loop that the driver takes for a kernel's,
    in a thread of its own (this test session may hold Playwright's loop in the main thread)."""
    import asyncio
    import threading

    from toolkit.widgets import seats

    def loop_of_this_thread():
        try:
            return asyncio.get_running_loop()
        except RuntimeError:
            return None

    monkeypatch.setattr(seats, "kernel_loop", loop_of_this_thread)
    result: list = []
    errors: list = []

    def work():
        try:
            result.append(asyncio.run(scenario()))
        except BaseException as exc:  # noqa: BLE001 - re-raised in the test's thread
            errors.append(exc)

    worker = threading.Thread(target=work)
    worker.start()
    worker.join(60)
    if errors:
        raise errors[0]
    return result[0]


def _all_bot_table_in_a_view(page_timeout: float, pace: float = 0.05):
    from toolkit.widgets.base import View

    model = GameSession(STONES, seed=5, options={"players": 2})
    setup = SeatSetup(2, ["random"], seats=["random", "random"], pace=pace)
    view = View()
    view._finish([setup])          # the top-level view: it carries the page support
    driver = BotDriver(model, setup, page_timeout=page_timeout)
    return model, view, driver


def test_in_a_kernel_the_bots_start_only_once_their_page_has_drawn(monkeypatch):
    import asyncio

    async def scenario():
        model, view, driver = _all_bot_table_in_a_view(page_timeout=30)
        await asyncio.sleep(0.4)                       # eight paces: no page has drawn, no bot moved
        before = (len(model.session), driver.waiting_for_page)
        view._page._handle_custom_msg({"event": "rendered"}, [])   # what the page's front end sends
        at_message = len(model.session)
        for _ in range(100):
            await asyncio.sleep(0.05)
            if STONES.is_over(model.session.state):
                break
        return before, at_message, STONES.is_over(model.session.state), driver.waiting_for_page

    before, at_message, over, waiting_after = _run_in_a_kernel_loop(monkeypatch, scenario)
    assert before == (0, True)
    assert at_message == 0                     # the first move comes one pace after the page has drawn
    assert over and not waiting_after


def test_without_a_page_message_the_bots_start_after_the_timeout(monkeypatch):
    import asyncio

    async def scenario():
        model, view, driver = _all_bot_table_in_a_view(page_timeout=0.5)
        await asyncio.sleep(0.3)
        early = len(model.session)
        for _ in range(100):
            await asyncio.sleep(0.05)
            if STONES.is_over(model.session.state):
                break
        return early, STONES.is_over(model.session.state), view._page.rendered

    early, over, rendered = _run_in_a_kernel_loop(monkeypatch, scenario)
    assert early == 0 and over and not rendered


def test_a_table_outside_any_page_plays_at_its_pace_without_waiting(monkeypatch):
    import asyncio

    async def scenario():
        model = GameSession(STONES, seed=5, options={"players": 2})
        setup = SeatSetup(2, ["random"], seats=["random", "random"], pace=0.02)
        driver = BotDriver(model, setup, page_timeout=30)   # the setup is in no view with a page
        for _ in range(100):
            await asyncio.sleep(0.05)
            if STONES.is_over(model.session.state):
                break
        return STONES.is_over(model.session.state), driver.waiting_for_page

    assert _run_in_a_kernel_loop(monkeypatch, scenario) == (True, False)


def test_a_page_that_drew_before_the_bots_were_due_does_not_delay_them(monkeypatch):
    import asyncio

    async def scenario():
        from toolkit.widgets.base import View

        model = GameSession(STONES, seed=5, options={"players": 2})
        setup = SeatSetup(2, ["random"], seats=["random", "random"], pace=0.02)
        view = View()
        view._finish([setup])
        view._page._handle_custom_msg({"event": "rendered"}, [])
        BotDriver(model, setup, page_timeout=30)
        for _ in range(100):
            await asyncio.sleep(0.05)
            if STONES.is_over(model.session.state):
                break
        return STONES.is_over(model.session.state)

    assert _run_in_a_kernel_loop(monkeypatch, scenario)


def test_closing_a_waiting_driver_stops_it_for_good(monkeypatch):
    import asyncio

    async def scenario():
        model, view, driver = _all_bot_table_in_a_view(page_timeout=0.2)
        driver.close()
        view._page._handle_custom_msg({"event": "rendered"}, [])
        await asyncio.sleep(0.5)
        return len(model.session)

    assert _run_in_a_kernel_loop(monkeypatch, scenario) == 0


def test_a_hint_bot_is_handed_only_the_person_s_own_moves():
    # At a Crew trick start every seat may communicate, so legal_moves(state) holds the other seats'
    # sonar moves, which name cards of their hidden hands; the hint bot must get seat 0's moves only.
    from toolkit.crew import ENGINE as CREW

    handed = []

    class Spy(RandomBot):
        def decide(self, view, legal, rng):
            handed.append((view["seat"], list(legal)))
            return super().decide(view, legal, rng)

    model = GameSession(CREW, seed=3, options={"players": 4, "mission": 1})
    driver = BotDriver(model, SeatSetup(4, ["random"], seats=[YOU, YOU, YOU, YOU]), autoplay=False)
    while not (model.session.state.phase == "play" and not model.session.state.trick):
        assert model.play(CREW.legal_moves(model.session.state)[0])
    state = model.session.state
    assert {CREW.actor(state, m) for m in CREW.legal_moves(state)} > {0}   # other seats' moves exist now
    driver.hint(seat=0, level=Spy())
    assert handed == [(0, CREW.legal_moves(state, 0))]
    assert all(CREW.actor(state, m) == 0 for m in handed[0][1])
