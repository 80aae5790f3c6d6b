"""Deep Blue bots (issue #16): legal at every decision in random positions, deterministic games, decisions
from the seat's observation only, the policy bot's dive decisions equal the exact policy, reasons in en/ja."""

from __future__ import annotations

import random
from dataclasses import replace

import numpy as np
import pytest

from deepblue_helpers import COMPS, E, dive_position, set_bag, set_hand
from toolkit.core.bots import BotTable, Decision, bot_rng, make_bot, play_out
from toolkit.deepblue import BOTS, DrawGem, Hire, Leave, Protect, SetSail, StartDive, Stop, optimal_policy
from toolkit.deepblue.bots import FixedStopBot, PolicyBot
from toolkit.deepblue.coach import dive_advice
from toolkit.deepblue.model import Boat

SCENARIOS = ["troubled-waters", "best-of-the-best", "scattered-wealth", "unknown-4"]


def _random_position(rng: random.Random, players: int, scenario: str, steps: int, **options):
    state = E.new_state(rng.randrange(10_000), players=players, scenario=scenario, **options)
    for _ in range(steps):
        if E.is_over(state):
            break
        state = E.apply(state, rng.choice(E.legal_moves(state)))
    return state


def _check_decision(state, seat, decision, legal):
    assert isinstance(decision, Decision)
    en, ja = decision.text("en"), decision.text("ja")
    assert en and ja and en != ja and "{" not in en + ja
    if decision.move is not None:
        assert decision.move in legal and E.why_illegal(state, decision.move) is None
        assert E.actor(state, decision.move) == seat


def test_bots_never_make_an_illegal_move():
    """≥ 10,000 bot decisions from random positions: every player count, scenario and rule option; every
    level at every seat (mixed tables), each decision checked against the engine."""
    rng = random.Random(2026)
    levels = list(BOTS)
    decisions, asked_levels, phases, rules = 0, set(), set(), set()
    config = 0
    while decisions < 10_000:
        players = 2 + config % 4
        scenario = SCENARIOS[config // 4 % len(SCENARIOS)]
        options = {"gems_return": config % 3 != 0, "leader_bonus_on_bust": config % 5 != 1,
                   "card_vp_on_bust": config % 7 != 2}
        state = _random_position(rng, players, scenario, rng.randrange(0, 200), **options)
        seats = [levels[(config + i) % len(levels)] for i in range(players)]
        table = BotTable(E, seats, seed=config)
        for _ in range(rng.randrange(40, 300)):
            if E.is_over(state):
                break
            legal = E.legal_moves(state)
            # every seat that may act now is asked directly too (the optional followers of a dive)
            for seat in {E.decider(state), *E.optional_actors(state)}:
                decision = table.ask(state, seat)
                _check_decision(state, seat, decision, legal)
                decisions += 1
                asked_levels.add(seats[seat])
                phases.add(state.phase)
                rules.add(decision.reason.rule)
            step = table.step(state)
            assert step is not None
            state = E.apply(state, step[1].move)
        config += 1
    assert asked_levels == set(levels)
    assert phases == {"action", "sail", "join", "dive", "check"}
    # every kind of reason was given (each id is registered with en/ja text)
    assert {"bots.deepblue.dive", "bots.deepblue.leave", "bots.deepblue.protect", "bots.deepblue.card",
            "bots.deepblue.fixed-stop", "bots.deepblue.random", "bots.deepblue.start-dive", "bots.deepblue.sail",
            "bots.deepblue.sail-done", "bots.deepblue.hire", "bots.deepblue.rest", "bots.deepblue.join",
            "bots.random"} <= rules, rules


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_play_out_is_deterministic_and_ends(players):
    seats = [list(BOTS)[i % len(BOTS)] for i in range(players)]
    a_state, a_moves = play_out(E, 11 + players, seats, players=players)
    b_state, b_moves = play_out(E, 11 + players, seats, players=players)
    assert a_moves == b_moves and a_state == b_state and E.is_over(a_state)
    c_state, c_moves = play_out(E, 12 + players, seats, players=players)
    assert c_moves != a_moves


def _permute_hidden(state, seat, rng: random.Random):
    """Another state ``seat`` cannot tell apart: the other seats' hands are redealt from their hands and
    the market deck (same sizes) and the deck reshuffled; the bag (counts only) and the game's chance are
    left alone."""
    others = [s for s in range(state.seats) if s != seat]
    pool = [c for s in others for c in state.players[s].hand] + list(state.deck)
    rng.shuffle(pool)
    players = list(state.players)
    for s in others:
        n = len(players[s].hand)
        players[s] = replace(players[s], hand=tuple(sorted(pool[:n])))
        pool = pool[n:]
    return replace(state, players=tuple(players), deck=tuple(pool))


def test_a_bot_decides_the_same_when_hidden_cards_are_permuted():
    rng = random.Random(7)
    compared = changed = 0
    for trial in range(80):
        players = 2 + trial % 4
        state = _random_position(rng, players, SCENARIOS[trial % 4], rng.randrange(0, 250))
        if E.is_over(state):
            continue
        seat = E.decider(state)
        other = _permute_hidden(state, seat, rng)
        E.validate_state(other)
        if other != state:
            changed += 1
        assert E.observe(other, seat) == E.observe(state, seat)
        for level in BOTS:
            bot_a, bot_b = make_bot(E, level), make_bot(E, level)
            da = bot_a.decide(E.observe(state, seat), E.legal_moves(state), bot_rng(trial, seat))
            db = bot_b.decide(E.observe(other, seat), E.legal_moves(other), bot_rng(trial, seat))
            assert da.move == db.move and da.reason == db.reason
            compared += 1
    assert compared > 200 and changed > 30


def test_policy_bot_follows_the_exact_policy():
    bot = PolicyBot()
    seen = set()
    for bag, drawn in [({"silver": 5, "gold": 2, "black": 3, "blue": 3}, ("black", "silver")),
                       ({"silver": 1, "black": 4, "blue": 4}, ("black", "blue", "red")),
                       ({"silver": 6, "gold": 3, "red": 1, "black": 1, "blue": 1}, ("silver",))]:
        s = dive_position(players=2, joiners=(1,), bag=bag)
        s = replace(s, dive=replace(s.dive, drawn=drawn, draws=len(drawn)))
        s = set_hand(set_hand(s, 0, ()), 1, ())
        view = E.observe(s, 0)
        bonus = COMPS.wreck(s.dive.wreck).leader_bonus
        policy = optimal_policy(bag, drawn, None, None)
        decision = bot.decide(view, E.legal_moves(s), np.random.default_rng(0))
        expected = DrawGem(0) if policy.advice() == "go" else Stop(0)
        assert decision.move == expected
        seen.add(policy.advice())
        adv = dive_advice(view)
        assert adv.stop == policy.stop_value() + bonus and adv.go == policy.go_value() + bonus
        busting = sum(bag.get(c, 0) for c in ("black", "blue") if c in drawn)
        assert (adv.busting, adv.gems) == (busting, sum(bag.values()))
        # the reason keeps the exact chance as a parameter; the sentence gives the learner a percentage
        assert decision.reason.param("bust") == f"{busting}/{sum(bag.values())}"
        assert f"{round(100 * busting / sum(bag.values()))} %" in decision.text("en")
        assert decision.reason.rule == "bots.deepblue.dive"
        # the other diver leaves exactly when its own policy says stop (it holds no spot)
        follower = bot.decide(E.observe(s, 1), E.legal_moves(s), np.random.default_rng(0))
        assert (follower.move == Leave(1)) == (policy.advice() == "stop")
        assert follower.reason.rule == "bots.deepblue.leave"
    assert seen == {"go", "stop"}


def test_fixed_stop_bot_stops_after_k():
    bot = FixedStopBot(3)
    s = dive_position(players=2, bag={"silver": 19})
    for k in range(5):
        s2 = replace(s, dive=replace(s.dive, drawn=("silver",) * k, draws=k))
        d = bot.decide(E.observe(s2, 0), E.legal_moves(s2), np.random.default_rng(0))
        assert d.move == (DrawGem(0) if k < 3 else Stop(0))
        assert d.reason.rule == "bots.deepblue.fixed-stop"
    with pytest.raises(TypeError):
        FixedStopBot(0)


def test_policy_bot_spends_the_protection_worth_least():
    harpoon = next(c.id for c in COMPS.cards if c.protection == "black" and c.starter)
    bot = PolicyBot()
    # a black spot and a black card: the spot is worth nothing after the dive, so it goes first
    s = dive_position(players=2, hands={0: (harpoon,)}, bag={"black": 2, "silver": 5})
    d = replace(s.dive, divers=(replace(s.dive.divers[0], spot="black"),), drawn=("black",), draws=1)
    s = E.apply(replace(set_bag(s, black=1), dive=d), DrawGem(0))
    assert s.phase == "check" and {Protect(0, None), Protect(0, harpoon)} == set(E.legal_moves(s))
    dec = bot.decide(E.observe(s, 0), E.legal_moves(s), np.random.default_rng(0))
    assert dec.move == Protect(0, None) and dec.reason.rule == "bots.deepblue.protect"
    # an "any" spot and a black card against a black gem, blue gems ahead: the card keeps "any" for blue
    s = dive_position(players=2, hands={0: (harpoon,)}, bag={"black": 1})
    d = replace(s.dive, divers=(replace(s.dive.divers[0], spot="any"),), drawn=("black", "blue"), draws=2)
    s = E.apply(replace(s, dive=d), DrawGem(0))
    s = set_bag(s, blue=3, silver=8)                                     # what is left to draw
    assert s.phase == "check"
    dec = bot.decide(E.observe(s, 0), E.legal_moves(s), np.random.default_rng(0))
    assert dec.move == Protect(0, harpoon)


def test_planner_dives_sails_and_hires():
    bot = PolicyBot()
    s = E.new_state(3, players=3)
    d = bot.decide(E.observe(s, 0), E.legal_moves(s), np.random.default_rng(0))
    assert isinstance(d.move, SetSail) and d.reason.rule == "bots.deepblue.sail"       # boats start in harbour
    # on a face-up wreck: dive
    tile = next(t for t in s.tiles if t.face_up)
    p = s.players[0]
    s2 = replace(s, players=(replace(p, boats=(Boat(tile.site, 0), p.boats[1])),) + s.players[1:])
    d = bot.decide(E.observe(s2, 0), E.legal_moves(s2), np.random.default_rng(0))
    assert d.move == StartDive(0, 0) and d.reason.rule == "bots.deepblue.start-dive"
    # no propellers: hire a card worth its price (a minimal payment) or rest
    cash_only = tuple(c for c in p.hand if COMPS.card(c).propellers == 0)
    s3 = set_hand(replace(s, players=(replace(p, tokens=0),) + s.players[1:]), 0, cash_only)
    d = bot.decide(E.observe(s3, 0), E.legal_moves(s3), np.random.default_rng(0))
    assert isinstance(d.move, Hire) and d.move in E.legal_moves(s3) and E.listed(s3, d.move)
    assert d.reason.rule == "bots.deepblue.hire"


def test_coach_refuses_what_is_not_an_observation():
    from toolkit.core.errors import RuleError
    with pytest.raises(TypeError, match="view"):
        dive_advice(3)
    with pytest.raises(RuleError, match="not a Deep Blue observation"):
        dive_advice({"phase": "dive", "seat": 0, "dive": {"divers": [{"seat": 0}]}})
    assert dive_advice(E.observe(E.new_state(1, players=2), 0)) is None          # no dive: nothing to advise
