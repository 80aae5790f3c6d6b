"""Crew bots: the deal sampler's properties, the bots' legality over many decisions, determinism, that a
bot's decision depends on its observation only, and the beginner's rules of thumb."""

from __future__ import annotations

from collections import defaultdict

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from toolkit.core.bots import BotTable, play_out
from toolkit.crew import ENGINE, Card, PlayCard, Sonar, TakeTask
from toolkit.crew.bots.beginner import BeginnerBot
from toolkit.crew.bots.expert import ExpertBot, card_verdicts
from toolkit.crew.bots.sampler import knowledge, sample_deals
from toolkit.crew.cards import sonar_options, why_illegal_play
from toolkit.crew.engine import Column, replace

MISSIONS = list(range(1, 33))


def advance(seed: int, players: int, mission: int, moves: int, seats=("random",)):
    """A position reached by bots from a seeded mission start (stops early at the attempt's end)."""
    state = ENGINE.new_state(seed, players=players, mission=mission)
    table = BotTable(ENGINE, [seats[i % len(seats)] for i in range(players)], seed)
    for _ in range(moves):
        step = table.step(state)
        if step is None:
            break
        state = ENGINE.apply(state, step[1].move)
    return state


def consistent_with_history(state, seat, deal) -> bool:
    """Independent check of a sampled deal against the true history (not the sampler's own reading):
    the viewer's hand and TONOJA's face-up cards as they are, every hidden hand of its true size, every
    card played legal from the hand its seat held then, every communication true of that hand, every
    card the viewer passed at a distress signal still with its receiver unless played."""
    seats = state.seats
    if sorted(deal[seat]) != sorted(state.hand(seat)):
        return False
    for s in range(seats):
        if s == state.tonoja:
            up = [c.face_up for c in state.columns if c.face_up]
            down = sum(1 for c in state.columns if c.face_down)
            if not set(up) <= set(deal[s]) or len(deal[s]) != len(up) + down:
                return False
        elif len(deal[s]) != len(state.hands[s]):
            return False
    every = sorted(c for h in deal for c in h)
    played = [c for t in state.tricks for c in t.cards] + list(state.trick)
    if sorted(every + played) != sorted(state.hands[0] + tuple(c for h in state.hands[1:] for c in h)
                                        + tuple(c for col in state.columns for c in (col.face_up, col.face_down) if c)
                                        + tuple(played)):
        return False
    tricks = [(t.leader, list(t.cards)) for t in state.tricks] + [(state.leader, list(state.trick))]
    held = [list(h) for h in deal]
    for leader, cards in reversed(tricks):          # hand at each trick = now + what was played since
        for i, c in enumerate(cards):
            held[(leader + i) % seats].append(c)
        for i, c in enumerate(cards):
            s = (leader + i) % seats
            if s != state.tonoja and why_illegal_play(held[s], c, cards[0] if i else None) is not None:
                return False
    for sent in state.sent:
        if sent.seat == seat:
            continue
        later = [c for k, (leader, cards) in enumerate(tricks) if k >= sent.trick
                 for i, c in enumerate(cards) if (leader + i) % seats == sent.seat]
        options = sonar_options(list(deal[sent.seat]) + later)
        if sent.card not in options or (sent.position is not None and options[sent.card] != sent.position):
            return False
    for p in state.passed:
        if p.giver == seat and p.card not in played and p.card not in deal[p.receiver]:
            return False
    return True


positions = st.tuples(st.integers(0, 10_000), st.sampled_from([2, 3, 4, 5]), st.sampled_from(MISSIONS),
                      st.integers(0, 60))


@settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(positions)
def test_every_sampled_deal_is_consistent_with_the_observation(pos):
    seed, players, mission, moves = pos
    state = advance(seed, players, mission, moves, seats=("random", "beginner"))
    seat = ENGINE.decider(state) if ENGINE.decider(state) is not None else state.captain
    view = ENGINE.observe(state, seat)
    truth = [list(state.hand(s)) + ([c.face_down for c in state.columns if c.face_down] if s == state.tonoja else [])
             for s in range(state.seats)]
    assert consistent_with_history(state, seat, truth)      # the checker accepts the real deal
    deals = sample_deals(view, 8, np.random.default_rng(seed))
    assert len(deals) == 8
    for deal in deals:
        assert consistent_with_history(state, seat, deal)


def _communicating_position(seed):
    """Mid-mission, after some sonar communications and voids, 4 players."""
    state = ENGINE.new_state(seed, players=4, mission=3)
    rng = np.random.default_rng(seed)
    while state.phase == "allocate":
        state = ENGINE.apply(state, ENGINE.legal_moves(state)[0])
    for _ in range(14):
        if state.phase != "play":
            break
        legal = ENGINE.legal_moves(state)
        sonars = [m for m in legal if isinstance(m, Sonar)]
        plays = [m for m in legal if isinstance(m, PlayCard)]
        pick = sonars if sonars and rng.random() < 0.5 else plays
        state = ENGINE.apply(state, pick[int(rng.integers(len(pick)))])
    return state


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_each_unseen_card_lands_in_every_hand_that_may_hold_it(seed):
    state = next(st for s in range(seed * 100, seed * 100 + 50)
                 if (st := _communicating_position(s)).phase == "play" and st.sent and st.tricks)
    seat = state.leader
    view = ENGINE.observe(state, seat)
    truth = [list(h) for h in state.hands]
    possible = defaultdict(set)      # witnesses: swap a card with one of another hand, keep what is consistent
    others = [s for s in range(4) if s != seat]
    for a in others:
        for b in others:
            for c in truth[a]:
                possible[c].add(a)
                if a == b:
                    continue
                for d in truth[b]:
                    deal = [list(h) for h in truth]
                    deal[a][deal[a].index(c)] = d
                    deal[b][deal[b].index(d)] = c
                    if consistent_with_history(state, seat, deal):
                        possible[c].add(b)
    landed = defaultdict(set)
    for deal in sample_deals(view, 600, np.random.default_rng(seed)):
        for s in others:
            for c in deal[s]:
                landed[c].add(s)
    for c, where in possible.items():
        assert where <= landed[c], f"{c} never sampled in {where - landed[c]}"


def test_bots_never_make_an_illegal_move():
    """Random and beginner seats (mixed) over every mission kind and 2-5 players: >= 10,000 decisions,
    each checked by the table (legal, the seat's own move); a few expert games on top."""
    decisions = 0
    seed = 0
    reasons = set()
    while decisions < 10_000:
        players = 2 + seed % 4
        mission = MISSIONS[seed % len(MISSIONS)]
        seats = ["beginner", "random"] if seed % 3 else ["random"]
        state = ENGINE.new_state(seed, players=players, mission=mission, max_attempts=2)
        table = BotTable(ENGINE, [seats[i % len(seats)] for i in range(players)], seed)
        for _ in range(400):
            step = table.step(state)
            if step is None:
                if state.phase == "failed" and ENGINE.outcome(state) is None:
                    state = ENGINE.apply(state, ENGINE.legal_moves(state)[0])   # a retry: the next attempt
                    continue
                break
            state = ENGINE.apply(state, step[1].move)
            reasons.add(step[1].reason.rule)
            decisions += 1
        seed += 1
    # the beginner's rules of thumb all came up (a distress signal from a random seat makes the gifts)
    assert {"bots.crew.take", "bots.crew.predict", "bots.crew.gift", "bots.crew.win-own", "bots.crew.let-partner",
            "bots.crew.give-partner", "bots.crew.lead-partner", "bots.crew.low", "bots.crew.avoid",
            "bots.crew.sonar", "bots.random"} <= reasons
    for players, mission in [(2, 2), (3, 9), (5, 11)]:
        state, moves = play_out(ENGINE, 7, ["expert"] * players, players=players, mission=mission)
        assert state.phase in ("success", "failed") and moves


@pytest.mark.parametrize("level", ["random", "beginner", "expert"])
def test_play_out_is_deterministic(level):
    a = play_out(ENGINE, 12, [level] * 3, players=3, mission=2)
    b = play_out(ENGINE, 12, [level] * 3, players=3, mission=2)
    assert a[1] == b[1] and a[0].phase == b[0].phase


def _hidden_swap(state, seat):
    """The same position with two other seats' hidden cards exchanged in a way the viewer cannot tell."""
    others = [s for s in range(state.seats) if s != seat]
    for a in others:
        for b in others:
            if a >= b:
                continue
            for c in state.hands[a]:
                for d in state.hands[b]:
                    hands = [list(h) for h in state.hands]
                    hands[a][hands[a].index(c)] = d
                    hands[b][hands[b].index(d)] = c
                    if consistent_with_history(state, seat, hands):
                        return replace(state, hands=tuple(tuple(sorted(h)) for h in hands))
    return None


def _choice_position(seed):
    """A 4-player mission-4 position, mid-play, where the seat to play has at least two cards to choose."""
    for s in range(seed, seed + 50):
        state = advance(s, 4, 4, 12, seats=("beginner",))
        while state.phase == "play" and len([m for m in ENGINE.legal_moves(state) if isinstance(m, PlayCard)]) < 2:
            state = ENGINE.apply(state, next(m for m in ENGINE.legal_moves(state) if isinstance(m, PlayCard)))
        if state.phase == "play" and _hidden_swap(state, ENGINE.decider(state)) is not None:
            return state
    raise AssertionError("no position found")


@pytest.mark.parametrize("seed", [3, 8])
def test_expert_decides_the_same_whatever_the_hidden_cards(seed):
    state = _choice_position(seed)
    seat = ENGINE.decider(state)
    other = _hidden_swap(state, seat)
    assert other is not None and other.hands != state.hands
    assert ENGINE.observe(other, seat) == ENGINE.observe(state, seat)
    for bot in (ExpertBot(), BeginnerBot()):
        d1 = bot.decide(ENGINE.observe(state, seat), ENGINE.legal_moves(state), np.random.default_rng(5))
        d2 = bot.decide(ENGINE.observe(other, seat), ENGINE.legal_moves(other), np.random.default_rng(5))
        assert d1.move == d2.move and d1.text("en") == d2.text("en")


def test_expert_verdicts_count_deals_and_its_reason_quotes_them():
    state = advance(4, 4, 2, 14, seats=("beginner",))
    seat = ENGINE.decider(state)
    view = ENGINE.observe(state, seat)
    legal = ENGINE.legal_moves(state)
    cards = [m.card for m in legal if isinstance(m, PlayCard)]
    v = card_verdicts(view, cards, np.random.default_rng(1), deals=10, min_deals=10, budget=10**9)
    assert v.deals == 10
    assert all(0 <= v.wins[c] + v.undecided[c] <= 10 for c in cards)
    d = ExpertBot(deals=10, min_deals=10, budget=10**9).decide(view, legal, np.random.default_rng(1))
    if d.reason.rule == "bots.crew.sampled":
        assert "of 10 deals" in d.text("en") and "10通り" in d.text("ja")
        assert v.score(d.move.card) == max(v.score(c) for c in cards)


# ---- the beginner's rules of thumb, on positions built for them -------------------------------------
HANDS = ["P9 P1 B9 B8 B7 G1 G2 Y1 Y2 S1".split(), "P2 P3 B1 B2 G3 G4 Y3 Y4 S2 Y9".split(),
         "P4 P5 B3 B4 G5 G6 Y5 Y6 S3 G9".split(), "P6 P7 P8 B5 B6 G7 G8 Y7 Y8 S4".split()]


def test_beginner_takes_the_task_its_hand_fits():
    state = ENGINE.new_state(1, players=4, mission=0, hands=HANDS, tasks=[1, 17, 42 - 18])   # 1st: seat 3 (S4)
    # seat 3 chooses first: P9's owner is seat 0; "win the yellow 1"-type tasks fit where the card is high
    view = ENGINE.observe(state, state.captain)
    d = BeginnerBot().decide(view, ENGINE.legal_moves(state), np.random.default_rng(0))
    assert isinstance(d.move, (TakeTask,)) or d.reason.rule == "bots.crew.take"
    assert d.reason.rule == "bots.crew.take"


def _task_17_to(owner):
    """HANDS with task 17 ("win the yellow 1") taken by ``owner``; the others pass."""
    state = ENGINE.new_state(2, players=4, mission=0, hands=HANDS, tasks=[17])
    while state.phase == "allocate":
        legal = ENGINE.legal_moves(state)
        take = next((m for m in legal if isinstance(m, TakeTask)), None) if ENGINE.decider(state) == owner else None
        state = ENGINE.apply(state, take or next(m for m in legal if not isinstance(m, TakeTask)))
    return state


def _play_to(state, moves):
    for m in moves:
        state = ENGINE.apply(state, ENGINE.parse_move(m))
    return state


def test_beginner_wins_its_own_task_card():
    # task 17 "win the yellow 1" with seat 3 (S4, the captain) -> give it to seat 2 via the allocation order
    state = _task_17_to(2)
    assert state.owners == (2,)
    # seat 3 leads Y7, seat 0 must follow with Y1 or Y2; seat 1 follows; seat 2 should win with Y6
    state = _play_to(state, ["play Y7", "play Y1", "play Y3"])
    view = ENGINE.observe(state, 2)
    d = BeginnerBot().decide(view, ENGINE.legal_moves(state), np.random.default_rng(0))
    assert d.reason.rule in ("bots.crew.win-own", "bots.crew.let-partner", "bots.crew.low")
    # Y1 is on the table and seat 2 owns it, but nothing in its hand beats Y7: it cannot win it here
    assert d.move == PlayCard(Card.parse("Y5"))


def test_beginner_does_not_win_a_partner_s_card():
    state = _task_17_to(0)
    assert state.owners == (0,)
    state = _play_to(state, ["play Y7", "play Y1"])            # Y1 (seat 0's task card) is on the table
    view = ENGINE.observe(state, 1)
    d = BeginnerBot().decide(view, ENGINE.legal_moves(state), np.random.default_rng(0))
    assert d.reason.rule == "bots.crew.let-partner"
    assert d.move in (PlayCard(Card.parse("Y3")), PlayCard(Card.parse("Y4")))   # not Y9: no overtaking
    assert "seat 1's task" in d.text("en") and "yellow 1" in d.text("en") and "席1" in d.text("ja")


def test_beginner_tells_where_a_partner_s_card_is():
    state = _task_17_to(2)
    view = ENGINE.observe(state, 0)          # seat 0 holds Y1 (bottom of Y1 Y2): seat 2 needs it
    d = BeginnerBot().decide(view, ENGINE.legal_moves(state), np.random.default_rng(0))
    assert d.move == Sonar(0, Card.parse("Y1"), "bottom") and d.reason.rule == "bots.crew.sonar"


def test_beginner_captain_retries_after_a_failure():
    state, _ = play_out(ENGINE, 3, ["random"] * 4, mission=4)
    assert state.phase == "failed"
    seat = ENGINE.decider(state)
    assert seat == state.captain
    d = BeginnerBot().decide(ENGINE.observe(state, seat), ENGINE.legal_moves(state), np.random.default_rng(0))
    assert d.reason.rule == "bots.crew.retry" and ENGINE.actor(state, d.move) == seat


def test_expert_falls_back_when_every_sampled_deal_is_lost():
    # seat 3 holds S4 (the captain) and must win no trick: it will win one whatever happens
    state = ENGINE.new_state(2, players=4, mission=0, hands=HANDS, tasks=[74])
    while state.phase == "allocate":
        legal = ENGINE.legal_moves(state)
        take = next((m for m in legal if isinstance(m, TakeTask)), None)
        state = ENGINE.apply(state, take if ENGINE.decider(state) == 3 and take else
                             next(m for m in legal if not isinstance(m, TakeTask)) if len(legal) > 1 else legal[0])
    assert state.owners == (3,) and ENGINE.decider(state) == 3
    d = ExpertBot(deals=6).decide(ENGINE.observe(state, 3), ENGINE.legal_moves(state), np.random.default_rng(0))
    assert d.reason.rule == "bots.crew.fallback"
    assert "rules of thumb" in d.text("en") and "経験則" in d.text("ja")


def _tonoja_position():
    """A 2-player position where the captain picks one of TONOJA's face-up cards (at least two), and
    the same position with one face-down card exchanged for a card of the other player's hand."""
    for s in range(200):
        state = advance(s, 2, 1 + s % 10, 8 + s % 12, seats=("beginner",))
        if state.phase != "play" or ENGINE.current_player(state) != state.tonoja:
            continue
        if len([m for m in ENGINE.legal_moves(state) if isinstance(m, PlayCard)]) < 2:
            continue
        seat = ENGINE.decider(state)
        other_player = next(p for p in range(state.seats) if p not in (seat, state.tonoja))
        for i, col in enumerate(state.columns):
            if col.face_down is None:
                continue
            for c in state.hands[other_player]:
                hands = [list(h) for h in state.hands]
                hands[other_player][hands[other_player].index(c)] = col.face_down
                columns = list(state.columns)
                columns[i] = Column(c, col.face_up)
                other = replace(state, hands=tuple(tuple(sorted(h)) for h in hands), columns=tuple(columns))
                if ENGINE.observe(other, seat) == ENGINE.observe(state, seat):
                    return state, other, seat
    raise AssertionError("no position found")


def test_expert_for_tonoja_does_not_depend_on_its_face_down_cards():
    """TONOJA's face-down cards are unknown to everyone until turned up: they are sampled like every
    other unseen card, so two positions differing only in which cards lie face down (one exchanged with
    the other player's hidden hand) give the captain the same view and the expert the same decision."""
    state, other, seat = _tonoja_position()
    assert other.columns != state.columns
    view = ENGINE.observe(state, seat)
    assert all(set(c) == {"face_up", "face_down"} and c["face_down"] in (True, False) for c in view["tonoja"])
    decisions = []
    for s in (state, other):
        d = ExpertBot().decide(ENGINE.observe(s, seat), ENGINE.legal_moves(s), np.random.default_rng(9))
        decisions.append((d.move, d.text("en"), d.text("ja")))
    assert decisions[0] == decisions[1]
    assert decisions[0][0].card in {Card.parse(c["face_up"]) for c in view["tonoja"] if c["face_up"]}
    # and the sampler spreads a face-down slot's card over everything TONOJA and the partner may hold
    know = knowledge(view)
    down = [c for c in know.unseen if state.tonoja in know.allowed[c]]
    landed = {c for d in sample_deals(view, 200, np.random.default_rng(3)) for c in d[state.tonoja]}
    assert set(down) <= landed | set(know.tonoja_up)
    assert any(c in down for col in state.columns if col.face_down for c in [col.face_down])
