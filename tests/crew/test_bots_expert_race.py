"""The expert's early stop (``ExpertBot(race=True)``): the same card as solving every deal of the budget."""

from __future__ import annotations

import itertools

import numpy as np
from hypothesis import given, settings, strategies as st

from tests.crew.test_crew_bots import advance
from toolkit.crew import ENGINE, Card, PlayCard
from toolkit.crew.bots.expert import ExpertBot, _choice, _settled

CARDS = [Card.parse(c) for c in ("B3", "B7", "G2", "P9")]


@settings(max_examples=150, deadline=None)
@given(halves=st.lists(st.integers(0, 8), min_size=2, max_size=4), left=st.integers(0, 2),
       prefer=st.integers(-1, 3), data=st.data())
def test_a_settled_choice_survives_every_outcome_of_the_deals_left(halves, left, prefer, data):
    # every card its own class, or the first two in one class (they then share a score)
    cards = CARDS[:len(halves)]
    classes = [[c] for c in cards]
    if data.draw(st.booleans()) and len(cards) > 2:
        classes = [cards[:2]] + [[c] for c in cards[2:]]
        halves = halves[1:]
    preferred = cards[prefer] if 0 <= prefer < len(cards) else None
    score = {c: h for group, h in zip(classes, halves) for c in group}
    now = _choice(cards, score, preferred)
    finals = set()
    # each deal left adds 0, 1/2 or 1 to each class's score: every combination, brute force
    for rows in itertools.product(itertools.product((0, 1, 2), repeat=len(classes)), repeat=left):
        final = {c: h + sum(r[i] for r in rows) for i, (group, h) in enumerate(zip(classes, halves)) for c in group}
        finals.add(_choice(cards, final, preferred))
    if _settled(cards, classes, halves, preferred, left):
        assert finals == {now} and now is not None
    elif left == 0:
        assert now is None                   # nothing left to come: only a fallback is never "settled"


# positions reached by beginner tables (cheap): (players, mission, seed, moves); one of them stops early
POSITIONS = [(4, 1, 1, 6), (4, 3, 0, 22), (4, 4, 1, 6), (4, 4, 2, 6), (5, 3, 1, 14), (5, 3, 2, 6),
             (5, 3, 2, 14), (4, 7, 1, 6), (3, 2, 0, 14)]


def test_the_early_stop_chooses_the_card_of_the_whole_budget():
    raced = 0
    for players, mission, seed, moves in POSITIONS:
        state = advance(seed, players, mission, moves, seats=("beginner",))
        legal = ENGINE.legal_moves(state)
        assert sum(isinstance(m, PlayCard) for m in legal) > 1
        view = ENGINE.observe(state, ENGINE.decider(state))
        r_full, r_race = np.random.default_rng(seed), np.random.default_rng(seed)
        full = ExpertBot(race=False).decide(view, legal, r_full)
        fast = ExpertBot().decide(view, legal, r_race)
        assert fast.move == full.move
        # every deal is still drawn: the rng ends where it did, so later decisions are unchanged too
        assert r_race.bit_generator.state == r_full.bit_generator.state
        if fast.reason.code == "BOT_CREW_SAMPLED_RACED":
            raced += 1
            assert fast.reason.rule == full.reason.rule == "bots.crew.sampled"
            used, most = fast.reason.param("deals"), fast.reason.param("most")
            assert used < most and f"stopped after {used} of up to {most}," in fast.text("en")
            assert f"最大{most}通りのうち{used}通りで決めました" in fast.text("ja")
        else:
            assert fast.text("en") == full.text("en")
    assert raced >= 1
