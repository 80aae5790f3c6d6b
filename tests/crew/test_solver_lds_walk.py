"""A win proved during a limited-discrepancy slice is always walked to its line (no AssertionError).

The walk down a proved win follows the first trick whose next position the transposition table calls won;
that entry may come from the plain search or a larger discrepancy allowance (an earlier slice, or an
earlier solve of the same deal: the expert shares one search per sampled deal), so walking it with the
slice's allowance could fail and ``_Search._extract`` raised "lost the winning line" (36 of 20,529 solves
of a fuzz over beginner games, missions 2-10). These positions are four of them, replayed exactly: the same
sampled deal, the same sequence of solves on one shared search.
"""

from __future__ import annotations

import numpy as np
import pytest

from toolkit.core.bots import play_out
from toolkit.crew import ENGINE
from toolkit.crew.bots.expert import _Solver, solver_tasks
from toolkit.crew.bots.sampler import sample_deals
from toolkit.crew.cards import Card
from toolkit.crew.engine import PlayCard

# (mission, seed, moves before the position, deal index, node limit, the card whose solve failed)
FAILED = [(3, 0, 6, 0, 3000, "G2"), (3, 2, 8, None, 3000, "G1"), (10, 2, 8, None, 3000, "G1"),
          (10, 0, 1, None, 5000, "S4")]


def _position(mission: int, seed: int, k: int):
    _, moves = play_out(ENGINE, seed, ["beginner"] * 4, mission=mission)
    state = ENGINE.new_state(seed, mission=mission)
    for move in moves[:k]:
        state = ENGINE.apply(state, move)
    return state


@pytest.mark.parametrize("mission, seed, k, deal, limit, target", FAILED)
def test_a_proved_win_is_walked_whatever_proved_it(mission, seed, k, deal, limit, target):
    state = _position(mission, seed, k)
    view = ENGINE.observe(state, ENGINE.decider(state))
    legal = [m.card for m in ENGINE.legal_moves(state) if isinstance(m, PlayCard)]
    assert Card.parse(target) in legal
    tasks = solver_tasks(view)
    deals = sample_deals(view, 3, np.random.default_rng(k))
    checked = 0
    for index, hands in enumerate(deals):
        if deal is not None and index != deal:
            continue
        solver = _Solver(hands, tasks, view)
        for card in [None] + legal:                   # the order of the fuzz that found it
            verdict, nodes, line = solver.solve(card, limit, whole=True)
            assert verdict in (True, False, None) and 0 <= nodes
            if verdict:
                # a line (it ends once every task is met): whole tricks of cards still in play, each once;
                # the first trick starts with what is on the table and then the card the solve was asked about
                played = [c for _, cards in line for c in cards]
                in_play = {c.index for h in hands for c in h} | {Card.parse(c).index for c in view["trick"]["cards"]}
                assert line and all(len(cards) == view["seats"] for _, cards in line)
                assert len(played) == len(set(played)) and set(played) <= in_play
                first = [Card.parse(c).index for c in view["trick"]["cards"]]
                if card is not None:
                    first.append(card.index)
                assert list(line[0][1][:len(first)]) == first
            checked += card == Card.parse(target)
    assert checked
