"""The page race (issue 26): a quick learner must not beat a bot's optional sonar to the lead.

In a kernel the bots move on timers (``BotDriver`` with the kernel's loop). At the start of a trick the bots
may communicate (an optional move), and the learner may lead at once; before the fix, a click that came
before the bot's timer played another game than a slow click. Here a fake kernel loop never fires on its
own: the quick learner clicks as soon as it is its turn, and the game must be exactly the one played by a
learner who waited for every bot."""

from __future__ import annotations

import pytest

from toolkit.crew.engine import ENGINE, PlayCard, Sonar, TakeTask
from toolkit.widgets.crew.mission import MissionView


class FakeLoop:
    """A kernel loop whose timers fire only when the test says so."""

    def __init__(self):
        self.pending = []
        self.now = 0.0

    def time(self):
        self.now += 60.0   # every wait (the page's first draw) has timed out by the next look
        return self.now

    def _add(self, callback, args):
        handle = FakeHandle(callback, args)
        self.pending.append(handle)
        return handle

    def call_later(self, _delay, callback, *args):
        return self._add(callback, args)

    def call_soon(self, callback, *args):
        return self._add(callback, args)

    def fire_all(self, until=lambda: False, limit=500):
        """Let the timers run one by one until none is left (a slow learner) or ``until()`` holds."""
        for _ in range(limit):
            if until():
                return
            live = [h for h in self.pending if not h.cancelled]
            if not live:
                return
            self.pending.remove(live[0])
            live[0].callback(*live[0].args)
        raise AssertionError("the bots never stopped")


class FakeHandle:
    def __init__(self, callback, args):
        self.callback, self.args, self.cancelled = callback, args, False

    def cancel(self):
        self.cancelled = True


def learner_click(view):
    """The learner clicks the first task it may take or the first card it may play. False: nothing to click."""
    moves = view.seat_moves(0)
    take = next((m for m in moves if isinstance(m, TakeTask)), None)
    if take is not None:
        view._tasks.receive({"type": "pick", "task": take.task})
        return True
    card = next((m.card for m in moves if isinstance(m, PlayCard)), None)
    if card is not None:
        view._hand.receive({"type": "pick", "card": str(card)})
        return True
    return False


def play_mission(seed, quick, loop):
    view = MissionView(seed=seed, players=4, mission=1, seats=["you", "expert", "expert", "expert"])
    for _ in range(200):
        if not quick:
            loop.fire_all()
        state = view.model.state
        if ENGINE.play_out_over(state):
            break
        if ENGINE.decider(state) == 0:
            assert learner_click(view), view.report_text if hasattr(view, "report_text") else "no move"
        else:
            # a bot's own turn: the quick learner waits for it, and clicks the moment its own turn comes
            loop.fire_all(until=(lambda: quick and ENGINE.decider(view.model.state) == 0))
    return list(view.model.session.moves)


@pytest.mark.parametrize("seed", [22, 28, 36])   # the learner leads while a bot would communicate
def test_a_quick_learner_plays_the_same_game_as_a_slow_one(monkeypatch, seed):
    loop = FakeLoop()
    monkeypatch.setattr("toolkit.widgets.seats.kernel_loop", lambda: loop)
    slow = play_mission(seed, quick=False, loop=loop)
    loop.pending = []
    quick = play_mission(seed, quick=True, loop=loop)
    assert any(isinstance(m, Sonar) and m.seat != 0 for m in slow)   # a bot communicated in this game
    assert quick == slow
