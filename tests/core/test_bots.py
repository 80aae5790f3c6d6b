"""toolkit.core.bots: the bot protocol, the table that asks bots, and play_out (on the tiny test game)."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from tinygame import STONES, Take

from toolkit.core import Event
from toolkit.core.bots import Bot, BotError, BotTable, Decision, RandomBot, bot_rng, play_out


class TakeOne:
    """Always takes one stone; records every view it was shown."""

    name = "take-one"

    def __init__(self):
        self.views = []

    def decide(self, view, legal, rng):
        self.views.append(view)
        return Decision(Take(view["seat"], 1), Event("BOT_RANDOM", "bots.random", seat=view["seat"], options=1))


def test_random_bot_is_uniform_over_its_own_moves():
    state = STONES.new_state(3)
    legal = STONES.legal_moves(state)
    bot = RandomBot()
    assert isinstance(bot, Bot)
    rng = np.random.default_rng(0)
    counts = Counter(bot.decide(STONES.observe(state, 0), legal, rng).move for _ in range(3000))
    assert set(counts) == set(legal)
    assert min(counts.values()) > 850          # three moves: ~1000 each
    decision = bot.decide(STONES.observe(state, 0), legal, rng)
    assert decision.reason.rule == "bots.random"
    assert "3" in decision.text("en") and "3" in decision.text("ja")


def test_random_bot_with_an_actor_only_picks_its_seat_s_moves():
    state = STONES.new_state(3)
    legal = STONES.legal_moves(state)
    bot = RandomBot(actor=lambda view, move: move.seat)
    assert bot.decide(STONES.observe(state, 1), legal, np.random.default_rng(0)).move is None
    assert bot.decide(STONES.observe(state, 0), legal, np.random.default_rng(0)).move in legal


def test_play_out_is_deterministic_and_plays_to_the_end():
    a = play_out(STONES, 11, ["random", RandomBot()])
    b = play_out(STONES, 11, [RandomBot(), "random"])
    assert a == b
    state, moves = a
    assert STONES.is_over(state) and moves
    assert sum(m.count for m in moves) == STONES.new_state(11).pile
    others = {tuple(play_out(STONES, seed, ["random"] * 2)[1]) for seed in range(20)}
    assert len(others) > 5


def test_a_bot_is_shown_only_its_seat_s_observation():
    bots = [TakeOne(), TakeOne(), TakeOne()]
    state, moves = play_out(STONES, 5, bots, players=3)
    for seat, bot in enumerate(bots):
        assert bot.views and all(v["seat"] == seat for v in bot.views)
    assert len(moves) == STONES.new_state(5, players=3).pile


def test_bot_rng_is_per_seat_and_seeded():
    assert bot_rng(4, 0).integers(1 << 30) == bot_rng(4, 0).integers(1 << 30)
    assert bot_rng(4, 0).integers(1 << 30) != bot_rng(4, 1).integers(1 << 30)
    assert bot_rng(-4, 0).integers(1 << 30) != bot_rng(4, 0).integers(1 << 30)
    with pytest.raises(TypeError, match="seed"):
        bot_rng("4", 0)


def test_max_moves_stops_early():
    state, moves = play_out(STONES, 11, ["random"] * 2, max_moves=2)
    assert len(moves) == 2 and not STONES.is_over(state)


@pytest.mark.parametrize("seats, error", [
    (["random"], BotError),                 # wrong number of seats
    (["random", None], BotError),           # play_out needs bots everywhere
    (["random", "grandmaster"], BotError),  # unknown level
    (["random", 42], TypeError),            # not a bot
    ("random", TypeError),
])
def test_bad_seats_are_refused_with_a_clear_error(seats, error):
    with pytest.raises(error):
        play_out(STONES, 1, seats)


def test_a_bot_that_cheats_is_caught():
    class Cheater:
        name = "cheater"

        def decide(self, view, legal, rng):
            return Decision(Take(view["seat"], 3 if view["pile"] > 3 else 7), Event("BOT_RANDOM", "bots.random",
                                                                                    seat=0, options=1))

    class Impostor:
        name = "impostor"

        def decide(self, view, legal, rng):
            return Decision(Take(1 - view["seat"], 1), Event("BOT_RANDOM", "bots.random", seat=0, options=1))

    with pytest.raises(BotError, match="not legal"):
        play_out(STONES, 1, [Cheater(), Cheater()])
    with pytest.raises(BotError, match="not legal|another seat"):
        play_out(STONES, 1, [Impostor(), Impostor()])


def test_table_waits_for_a_person():
    table = BotTable(STONES, [None, "random"], seed=2)
    state = STONES.new_state(2)
    assert table.step(state) is None                       # seat 0 is a person
    state = STONES.apply(state, Take(0, 1))
    seat, decision = table.step(state)
    assert seat == 1 and decision.move in STONES.legal_moves(state)
