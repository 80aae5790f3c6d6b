"""The expert's communication, distress signal and gift, decided by sampled deals (toolkit.crew.bots.signals)."""

from __future__ import annotations

import numpy as np

from toolkit.crew import ENGINE, Card, Distress, GiveCard, PassTask, Sonar, TakeTask
from toolkit.crew.bots.expert import ExpertBot
from toolkit.crew.bots.sampler import sample_deals
from toolkit.crew.bots.signals import (SONAR_THRESHOLD, distress_gain, gift_scores, partner_belief, rule_gift,
                                       sonar_values)

HANDS = ["P9 P1 B9 B8 B7 G1 G2 Y1 Y2 S1".split(), "P2 P3 B1 B2 G3 G4 Y3 Y4 S2 Y9".split(),
         "P4 P5 B3 B4 G5 G6 Y5 Y6 S3 G9".split(), "P6 P7 P8 B5 B6 G7 G8 Y7 Y8 S4".split()]


def _allocated(task: int, owner: int, seed: int = 1):
    """HANDS with ``task`` taken by ``owner`` (every other seat passes), at the first trick's start."""
    state = ENGINE.new_state(seed, players=4, mission=0, hands=HANDS, tasks=[task])
    while state.phase == "allocate":
        legal = ENGINE.legal_moves(state)
        take = next((m for m in legal if isinstance(m, TakeTask)), None)
        mine = ENGINE.decider(state) == owner and take is not None
        state = ENGINE.apply(state, take if mine else next(m for m in legal if isinstance(m, PassTask)))
    assert state.owners == (owner,)
    return state


def test_partner_belief_follows_the_public_facts():
    state = _allocated(16, 0)
    view = ENGINE.observe(state, 1)
    before = partner_belief(view)
    assert before[Card.parse("P3")] == before[Card.parse("Y9")] == 10 / 40     # every hand may hold them
    after = partner_belief(view, (Card.parse("P3"), "top"))
    assert after[Card.parse("P3")] == 1.0
    assert all(after[Card("P", v)] == 0.0 for v in range(4, 10))              # "top": no higher pink here
    assert after[Card.parse("P2")] == before[Card.parse("P2")]                   # lower pinks: still unsure


def test_expert_communicates_a_card_its_partner_must_know_about(monkeypatch):
    # seat 0 must win the pink 3, which seat 1 holds as its top pink: telling it is worth most of a card
    state = _allocated(16, 0)
    assert 1 in ENGINE.optional_actors(state)
    view = ENGINE.observe(state, 1)
    legal = ENGINE.legal_moves(state)
    d = ExpertBot().decide(view, legal, np.random.default_rng(2))
    assert isinstance(d.move, Sonar) and d.move.seat == 1 and d.reason.rule == "bots.crew.sonar-sampled"
    options = [(m.card, m.position) for m in legal if isinstance(m, Sonar) and m.seat == 1]
    values = sonar_values(view, options, {Card.parse("P3"): 1.0})
    assert values[(Card.parse("P3"), "top")] >= 1 - 10 / 40 >= SONAR_THRESHOLD
    assert all(v == 0 for (c, _), v in values.items() if c.suit != "P")
    assert "shows partners where" in d.text("en") and "通信します" in d.text("ja")
    # with nothing that matters to tell, the seat keeps its token (and says so)
    assert max(sonar_values(view, options, {}).values()) == 0.0
    import toolkit.crew.bots.signals as signals

    monkeypatch.setattr(signals, "SONAR_THRESHOLD", 5.0)
    silent = ExpertBot().decide(view, legal, np.random.default_rng(2))
    assert silent.move is None and silent.reason.rule == "bots.crew.sonar-sampled"
    assert "keeps its sonar token" in silent.text("en") and "温存" in silent.text("ja")


def test_expert_distress_and_gift_are_decided_by_sampled_deals():
    state = _allocated(16, 0)
    leader = ENGINE.decider(state)
    view = ENGINE.observe(state, leader)
    deals = sample_deals(view, 4, np.random.default_rng(0))
    bot = ExpertBot()
    direction, before, after = distress_gain(view, deals, bot._deal_winnable(view))
    assert direction in ("left", "right") and 0 <= before <= 1 and 0 <= after <= 1
    state = ENGINE.apply(state, Distress("left"))
    for seat in (0, 1):
        view = ENGINE.observe(state, seat)
        legal = ENGINE.legal_moves(state)
        d = bot.decide(view, legal, np.random.default_rng(seat))
        assert isinstance(d.move, GiveCard) and d.move.seat == seat and d.reason.rule == "bots.crew.gift-sampled"
        deals = sample_deals(view, bot.alloc_deals, np.random.default_rng(seat))
        scores, n = gift_scores(view, [m.card for m in legal if isinstance(m, GiveCard) and m.seat == seat], deals,
                                1, bot._deal_winnable(view))
        assert scores[d.move.card] == max(scores.values()) and f"of {n} ways the other hands could look" in d.text("en")
    # seat 1 keeps the pink 3 seat 0 needs: passing it to seat 2 can only lose deals
    assert rule_gift(ENGINE.observe(state, 1), [Card.parse(c) for c in HANDS[1]]) != Card.parse("P3")


def test_expert_signals_distress_when_the_sampled_exchange_gains_enough(monkeypatch):
    import toolkit.crew.bots.signals as signals

    state = _allocated(16, 0)
    leader = ENGINE.decider(state)
    view, legal = ENGINE.observe(state, leader), ENGINE.legal_moves(state)
    assert Distress("left") in legal
    monkeypatch.setattr(signals, "SONAR_THRESHOLD", 5.0)        # the leader says nothing first
    bot = ExpertBot()
    assert not isinstance(bot.decide(view, legal, np.random.default_rng(4)).move, Distress)   # no gain: no signal
    monkeypatch.setattr(signals, "DISTRESS_GAIN", -1.0)         # any exchange is worth it
    d = bot.decide(view, legal, np.random.default_rng(4))
    assert isinstance(d.move, Distress) and d.reason.rule == "bots.crew.distress-sampled"
    rng = np.random.default_rng(4)
    sample_deals(view, bot.signal_deals, rng)                    # the deals its (silent) sonar decision drew
    deals = sample_deals(view, bot.alloc_deals, rng)
    assert d.move.direction == distress_gain(view, deals, bot._deal_winnable(view))[0]
    assert "signals distress" in d.text("en") and "遭難信号" in d.text("ja")


def test_the_solves_of_one_deal_share_a_search_without_changing_a_decided_verdict():
    """One search (and transposition table) per sampled deal serves every card's solve: each decided
    verdict is the one a fresh search gives, and the later solves reuse the table (fewer nodes in all)."""
    from toolkit.core.bots import BotTable
    from toolkit.crew import PlayCard
    from toolkit.crew.bots.expert import _Solver, solver_tasks

    compared = 0
    shared_nodes = fresh_nodes = 0
    seed = 0
    while compared < 30:
        seed += 1
        state = ENGINE.new_state(seed, players=4, mission=4)
        table = BotTable(ENGINE, ["beginner"] * 4, seed)
        while (step := table.step(state)) is not None:
            plays = [m.card for m in ENGINE.legal_moves(state) if isinstance(m, PlayCard)]
            if isinstance(step[1].move, PlayCard) and len(plays) > 2 and len(state.tricks) >= 2:
                view = ENGINE.observe(state, ENGINE.decider(state))
                for hands in sample_deals(view, 2, np.random.default_rng(1)):
                    shared = _Solver(hands, solver_tasks(view), view)
                    for c in plays:
                        a, n_a, _ = shared.solve(c, 20_000)
                        b, n_b, _ = _Solver(hands, solver_tasks(view), view).solve(c, 20_000)
                        shared_nodes, fresh_nodes = shared_nodes + n_a, fresh_nodes + n_b
                        if a is not None and b is not None:
                            assert a == b
                            compared += 1
            state = ENGINE.apply(state, step[1].move)
    assert shared_nodes <= fresh_nodes


def test_expert_passes_a_task_its_own_hand_cannot_meet():
    """Seat 3 is captain and holds submarine 4, which wins every trick it is played to: "win no submarines"
    (#57) is lost in its hand whatever anyone plays, and a partner who holds no high submarine can meet it.
    The expert passes (it used to take it whenever the beginner would) and says why, in en and ja."""
    state = ENGINE.new_state(1, players=4, mission=0, hands=HANDS, tasks=[57])
    assert state.captain == 3 and PassTask() in ENGINE.legal_moves(state)
    decision = ExpertBot().decide(ENGINE.observe(state, 3), ENGINE.legal_moves(state), np.random.default_rng(0))
    assert decision.move == PassTask()
    text = decision.text("en")
    assert text.startswith("Seat 4 passes") and "#57" in text and "at most 0 of them" in text
    assert "パス" in decision.text("ja") and "#57" in decision.text("ja")
    assert decision.reason.rule == "bots.crew.sampled"


def test_expert_still_takes_a_task_its_hand_suits():
    """The same table, "win the pink 3" (#16): the captain's P6-P8 and submarine 4 win it in most sampled
    deals, so the captain takes it rather than leave it to a seat still to choose."""
    state = ENGINE.new_state(1, players=4, mission=0, hands=HANDS, tasks=[16])
    decision = ExpertBot().decide(ENGINE.observe(state, 3), ENGINE.legal_moves(state), np.random.default_rng(0))
    assert decision.move == TakeTask(16), decision.text("en")


def test_the_seats_still_to_choose_are_public_and_follow_the_order_of_choice():
    """``choosers_after`` (observe) is what a seat that passes leaves the open tasks to: the next choosers of
    the first round, the same in every seat's view, and exactly the seats that choose if everyone passes."""
    checked = 0
    for seed in range(40):
        players = 3 + seed % 3
        state = ENGINE.new_state(seed, players=players, mission=1 + seed % 5)
        if state.phase != "allocate" or PassTask() not in ENGINE.legal_moves(state):
            continue
        expected = ENGINE.choosers_after(state)
        assert all(ENGINE.observe(state, s)["choosers_after"] == expected for s in range(state.seats))
        seen = []
        while state.phase == "allocate" and PassTask() in ENGINE.legal_moves(state):
            state = ENGINE.apply(state, PassTask())
            if state.phase == "allocate":
                seen.append(ENGINE.observe(state, 0)["chooser"])
        assert seen == expected[:len(seen)] and len(seen) >= 1
        checked += 1
    assert checked >= 20
    state = ENGINE.new_state(1, players=4, mission=0, hands=HANDS, tasks=[16])
    assert ENGINE.choosers_after(state) == [0, 1, 2]
    state = ENGINE.apply(state, TakeTask(16))
    assert state.phase != "allocate" and ENGINE.choosers_after(state) == []


def test_a_shared_search_whose_walk_fails_solves_that_card_alone(monkeypatch):
    """Study game mission 16, deal 149 (4 players): seat 3's first card. One sampled deal's shared search
    proved a card winnable but could not walk the proof to a line ("lost the winning line"), which stopped
    the strength study. That card is now solved again by a search of its own, and the expert decides."""
    from toolkit.core.bots import BotTable
    from toolkit.crew.bots import expert
    from toolkit.crew.strength import DEFAULT_SEED, game_seed

    alone = []
    original = expert._Solver._solve_alone

    def counted(self, card, node_limit):
        alone.append(card)
        return original(self, card, node_limit)

    monkeypatch.setattr(expert._Solver, "_solve_alone", counted)
    seed = game_seed(DEFAULT_SEED, 16, 4, 149)
    state = ENGINE.new_state(seed, players=4, mission=16)
    table = BotTable(ENGINE, ["expert"] * 4, seed)
    while not (len(state.tricks) == 0 and len(state.trick) == 2):
        state = ENGINE.apply(state, table.step(state)[1].move)
    seat, decision = table.step(state)
    assert seat == 3 and decision.move in ENGINE.legal_moves(state)
    assert alone, "this position no longer reaches the fallback: find another (the study's crash log)"
