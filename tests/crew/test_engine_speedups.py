"""The engine's fast paths agree with the plain ones they replace (benchmarks/crew_playouts.py).

* ``sonar_options_sorted`` (one pass over a hand in deck order) equals ``sonar_options``, and declines
  hands in any other order so the checked path explains them; ``_sonar_pairs`` gives its items, in order;
* shared events and refusals are equal values whose texts are the ones built afresh;
* the ledger carried on the states equals one rebuilt from the tricks, also after a JSON round trip
  and across retries (where the carried one must not be used).
"""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolkit.core.errors import InvalidMoveError, RuleError
from toolkit.core.explain import Event
from toolkit.crew.cards import DECK, sonar_options, sonar_options_sorted
from toolkit.crew.engine import ENGINE, PlayCard, Retry, _ledger, _shared_ev, _sonar_pairs
from toolkit.crew.tasks import Ledger


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(DECK), unique=True, max_size=14))
def test_sorted_sonar_options_match(hand):
    ordered = tuple(sorted(hand))
    fast = sonar_options_sorted(ordered)
    assert fast is not None
    assert list(fast.items()) == list(sonar_options(ordered).items())
    if list(hand) != sorted(hand):
        assert sonar_options_sorted(tuple(hand)) is None  # the checked path handles other orders
    if hand:
        assert sonar_options_sorted(ordered + (ordered[-1],)) is None  # a repeated card


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(DECK), unique=True, max_size=14))
def test_sonar_pairs_are_the_sorted_options_in_order(hand):
    """The trick start's sonar moves come from ``_sonar_pairs`` (no dict keyed by cards: issue 28.4): the
    items of ``sonar_options_sorted`` in their order, and ``None`` where it declines the hand."""
    ordered = tuple(sorted(hand))
    assert _sonar_pairs(ordered) == list(sonar_options_sorted(ordered).items())
    if len(hand) > 1 and tuple(hand) != ordered:
        assert _sonar_pairs(tuple(hand)) is None


def test_shared_events_equal_fresh_ones():
    card = DECK[7]
    shared = _shared_ev("CREW_EVT_PLAY", "crew.trick.own-card", 2, card=card)
    fresh = Event("CREW_EVT_PLAY", "crew.trick.own-card", seat=2, who=2, card=card)
    assert shared == fresh and hash(shared) == hash(fresh)
    assert shared.text("en") == fresh.text("en") and shared.text("ja") == fresh.text("ja")
    assert _shared_ev("CREW_EVT_PLAY", "crew.trick.own-card", 2, card=card) is shared


def _rebuilt(state, tricks):
    ledger = Ledger.start(state.players)
    for t in tricks:
        ledger = ledger.add(t)
    return ledger


def _same(a: Ledger, b: Ledger) -> bool:
    return all(getattr(a, k) == getattr(b, k) for k in Ledger.__slots__)


def test_carried_ledger_matches_rebuilt_one():
    rnd = random.Random(5)
    checked = 0
    for g in range(40):
        state = ENGINE.new_state(g, players=rnd.choice([2, 3, 4, 5]), mission=rnd.randint(1, 33))
        for _ in range(200):
            moves = ENGINE.legal_moves(state)
            if not moves:
                break
            if state.phase == "failed":
                moves = [m for m in moves if isinstance(m, Retry)]
                if state.attempt >= 2:
                    break
            move = moves[rnd.randrange(len(moves))]
            if isinstance(move, PlayCard) and len(state.trick) == state.seats - 1:
                after, _ = ENGINE.transition(state, move)
                tricks = after.tricks
                assert _same(_ledger(state, tricks), _rebuilt(state, tricks))
                loaded = ENGINE.state_from_json(ENGINE.state_to_json(state))
                assert "_ledger" not in loaded.__dict__
                assert _same(_ledger(loaded, tricks), _rebuilt(state, tricks))
                assert ENGINE.state_to_json(ENGINE.apply(loaded, move)) == ENGINE.state_to_json(after)
                checked += 1
            state = ENGINE.apply(state, move)
    assert checked > 50


# ---- issue 28.4: the fast paths of the engine-speed work equal the plain ones ---------------------------
@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(DECK), min_size=1, max_size=14), st.randoms(use_true_random=False))
def test_sonar_caches_keyed_by_mask_never_mix_hands(hand, rnd):
    """The sonar caches are keyed by the hand's bit mask: hands with one mask but other contents (another
    order, a repeated card) must each get their own answer, equal to the uncached one."""
    from toolkit.crew.engine import _seat_sonar_moves, _sonar_move, _sonar_options
    ordered = tuple(sorted(set(hand)))
    shuffled = list(ordered)
    rnd.shuffle(shuffled)
    for h in (ordered, tuple(shuffled), tuple(hand), ordered + ordered[:1], ordered):
        try:
            plain = list(sonar_options(h).items())
        except InvalidMoveError as exc:   # a repeated card: refused, never answered from the cache
            with pytest.raises(InvalidMoveError, match=re.escape(str(exc))):
                _sonar_options(h)
            with pytest.raises(InvalidMoveError):
                _seat_sonar_moves(0, h, False)
            continue
        assert list(_sonar_options(h).items()) == plain
        for seat in (0, 3):
            assert _seat_sonar_moves(seat, h, True) == tuple(_sonar_move(seat, c, None) for c, _ in plain)
            assert _seat_sonar_moves(seat, h, False) == tuple(_sonar_move(seat, c, p) for c, p in plain)


def _reference_settle(judge, memo, ledger):
    """``Judge.settle`` as first written (step, then the last trick played out): the inlined one must
    equal it."""
    from toolkit.crew.tasks import _ENDGAME_TRICKS, PENDING
    memo = judge.step(memo, ledger)
    if memo[0] == PENDING and ledger.count and ledger.remaining <= _ENDGAME_TRICKS.get(ledger.seats, 0):
        return (judge._endgame(memo[1], ledger), memo[1])
    return memo


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from([2, 3, 4, 5]))
def test_settle_and_ledger_add_equal_the_plain_versions(seed, players):
    from toolkit.crew.cards import Trick, legal_plays, tricks_in_mission
    from toolkit.crew.tasks import TASKS, compile_task
    rnd = random.Random(seed)
    seats = 3 if players == 2 else players
    deck = list(DECK)
    rnd.shuffle(deck)
    hands = [sorted(deck[i::seats]) for i in range(seats)]
    leader, ledger, ledgers = 0, Ledger.start(players), []
    for _ in range(tricks_in_mission(players)):
        plays = []
        for k in range(seats):
            seat = (leader + k) % seats
            card = rnd.choice(legal_plays(hands[seat], plays[0] if plays else None))
            hands[seat].remove(card)
            plays.append(card)
        trick = Trick.of_cards(leader, tuple(plays))
        plain = Ledger(ledger.seats, ledger.total, ledger.count + 1, ledger.played | trick.mask,
                       tuple(w | trick.mask if s == trick.winner else w for s, w in enumerate(ledger.won)),
                       tuple(n + (s == trick.winner) for s, n in enumerate(ledger.wins)), trick)
        ledger = ledger.add(trick)
        assert _same(ledger, plain)
        ledgers.append(ledger)
        leader = trick.winner
    for task in rnd.sample(sorted(TASKS), 12):
        owner = rnd.randrange(seats)
        try:
            judge = compile_task(task, owner, players, captain=(owner + 1) % seats, prediction=rnd.randrange(4))
        except RuleError:   # a task this owner cannot take (a captain comparison, a prediction's range)
            continue
        fast = slow = judge.start()
        for ledger in ledgers:
            fast, slow = judge.settle(fast, ledger), _reference_settle(judge, slow, ledger)
            assert fast == slow


def test_cards_bit_slot_and_state_checks():
    assert all(c.bit == 1 << c.index for c in DECK)
    with pytest.raises(AttributeError):
        DECK[0].bit = 4
    state = ENGINE.new_state(3, players=2, mission=5)
    assert state.seats == 3 and ENGINE.apply(state, ENGINE.legal_moves(state)[0]).seats == 3
    move = ENGINE.legal_moves(state)[0]
    # the inline state checks and the same-shape wrappers refuse alike and accept keywords as before
    for call in (lambda s: ENGINE.legal_moves(s), lambda s: ENGINE.apply(s, move),
                 lambda s: ENGINE.transition(s, move), lambda s: ENGINE.why_illegal(s, move),
                 lambda s: ENGINE.outcome(s), lambda s: ENGINE.observe(s, 0)):
        with pytest.raises(TypeError, match="state must be a CrewState, not None"):
            call(None)
    assert ENGINE.why_illegal(state=state, move=move) is None
    assert ENGINE.apply(state=state, move=move) == ENGINE.transition(state, move)[0]
    # legal_moves takes a seat (the one engine contract): an extra argument after it is refused
    assert ENGINE.legal_moves(state, seat=ENGINE.decider(state)) == ENGINE.legal_moves(state, ENGINE.decider(state))
    with pytest.raises(TypeError):
        ENGINE.legal_moves(state, 1, 2)
    with pytest.raises(TypeError, match=r"why_illegal\(\) takes 3 positional arguments"):
        ENGINE.why_illegal(state, move, 1)
