"""The engine's fast paths agree with the plain ones they replace (benchmarks/crew_playouts.py).

* ``sonar_options_sorted`` (one pass over a hand in deck order) equals ``sonar_options``, and declines
  hands in any other order so the checked path explains them; ``sonar_pairs_sorted`` gives its items, in order;
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
from toolkit.crew.cards import DECK, sonar_options, sonar_options_sorted, sonar_pairs_sorted
from toolkit.crew.engine import ENGINE, PlayCard, Retry, _ledger, _shared_ev
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
    """The trick start's sonar moves come from ``sonar_pairs_sorted`` (no dict keyed by cards: issue 28.4):
    the items of the plain, checked ``sonar_options`` in their order, and ``None`` for a hand out of order."""
    ordered = tuple(sorted(hand))
    assert sonar_pairs_sorted(ordered) == list(sonar_options(ordered).items())
    if len(hand) > 1 and tuple(hand) != ordered:
        assert sonar_pairs_sorted(tuple(hand)) is None


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


# ---- issue 28.4, third pass: the general action path ------------------------------------------------------
def test_replace_copies_the_state_and_refuses_a_name_that_is_no_field():
    """``replace`` hands the new state a copy of the old one's dict: what the engine keeps on a state
    (``_ledger``, ``_judges``) never reaches the old one, the setup's log lines stay on the first state,
    and a misspelt field is refused rather than added."""
    from toolkit.crew.engine import replace
    state = ENGINE.new_state(4, players=4, mission=6)
    assert "_setup_events" in state.__dict__
    new = replace(state, turn=state.turn + 1)
    assert new.turn == state.turn + 1 and new.__dict__ is not state.__dict__
    assert "_setup_events" not in new.__dict__ and "_setup_events" in state.__dict__
    new.__dict__["_ledger"] = "kept on the new state only"
    assert "_ledger" not in state.__dict__
    assert new == ENGINE.state_from_json(ENGINE.state_to_json(new)) and new != state
    with pytest.raises(TypeError, match="CrewState has no field 'trun'"):
        replace(state, trun=1)


def _plain_allocation_moves(state):
    """The allocation moves as first written: every candidate in the order ``legal_moves`` lists them, kept
    when ``why_illegal`` accepts it (``_take_block``, ``_pass_block``, ``_assign_block`` one at a time)."""
    from toolkit.crew.engine import AssignAll, AssignTask, PassTask, TakeTask
    m = ENGINE.mission_of(state)
    open_ = [t for t, o in zip(state.tasks, state.owners) if o is None]
    if m.allocation == "standard":
        candidates = [TakeTask(t) for t in open_] + [PassTask()]
    elif m.allocation == "free" or (m.allocation == "volunteers" and m.volunteers == 2):
        candidates = [AssignTask(t, s) for t in open_ for s in range(state.seats)]
    else:
        candidates = [AssignAll(s) for s in range(state.seats)]
    return [move for move in candidates if ENGINE.why_illegal(state, move) is None]


def _walk_allocations(seed, players, mission, **options):
    rnd = random.Random(seed)
    state = ENGINE.new_state(seed, players=players, mission=mission, **options)
    seen = []
    while state.phase == "allocate":
        seen.append(state)
        moves = ENGINE.legal_moves(state)
        state = ENGINE.apply(state, moves[rnd.randrange(len(moves))])
    return seen


@settings(max_examples=120, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from([2, 3, 4, 5]), st.integers(1, 33))
def test_allocation_moves_equal_the_accepted_candidates_in_order(seed, players, mission):
    """``legal_moves`` lists the allocation moves without asking ``_take_block``/``_assign_block`` per move
    where their answer is known (issue 28.4): the same moves, in the same order, as asking them."""
    for state in _walk_allocations(seed, players, mission):
        assert ENGINE.legal_moves(state) == _plain_allocation_moves(state)


def test_allocation_moves_equal_the_accepted_candidates_in_every_allocation():
    checked = set()
    for seed in range(30):
        for allocation in ("standard", "free", "one"):
            for players in (3, 4, 5):
                for state in _walk_allocations(seed, players, 0, difficulty=8 + seed % 7, allocation=allocation):
                    assert ENGINE.legal_moves(state) == _plain_allocation_moves(state)
                    checked.add(allocation)
        # hardest first, the captain out of the choice, the captain hands out, volunteers (1 and 2), free
        for mission in (19, 25, 10, 14, 26, 17):
            for players in (3, 4, 5):
                for state in _walk_allocations(seed, players, mission):
                    assert ENGINE.legal_moves(state) == _plain_allocation_moves(state)
                    checked.add(ENGINE.mission_of(state).allocation)
    assert checked == {"standard", "free", "one", "captain", "volunteers"}


def test_judges_kept_on_the_state_follow_its_tasks():
    """The judges ride on the state for the attempt, and only while its tasks, owners and predictions are
    the tuples they were made for: a state with other owners gets its own."""
    from toolkit.crew.engine import replace
    from toolkit.crew.tasks import CAPTAIN_COMPARISON
    rnd = random.Random(3)
    checked = 0
    for g in range(30):
        state = ENGINE.new_state(g, players=rnd.choice([3, 4, 5]), mission=rnd.randint(2, 33))
        while state.phase in ("allocate", "predict"):
            moves = ENGINE.legal_moves(state)
            state = ENGINE.apply(state, moves[rnd.randrange(len(moves))])
        if not state.tasks:
            continue
        judges, leads = ENGINE._judges(state)
        assert judges == tuple(ENGINE._judge(state, i) for i in range(len(state.tasks)))
        assert leads == tuple(i for i, t in enumerate(state.tasks) if t in (60, 61))
        owners = tuple((o + 1) % state.seats for o in state.owners)
        if not any(o == state.captain and t in CAPTAIN_COMPARISON for t, o in zip(state.tasks, owners)):
            other = replace(state, owners=owners)
            assert ENGINE._judges(other)[0] == tuple(ENGINE._judge(other, i) for i in range(len(state.tasks)))
            assert ENGINE._judges(other)[0] != judges
        assert ENGINE._judges(state)[0] == judges
        checked += 1
    assert checked > 15


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from([2, 3, 4, 5]), st.integers(1, 33))
def test_apply_equals_transition_and_sonar_moves_are_exactly_the_accepted_ones(seed, players, mission):
    """``apply`` plays a card without the generic transition chain and a sonar move is checked without
    ``_comm_block``'s last test: the states equal ``transition``'s, a refused card raises the same
    violation, and at a trick start every sonar move of every seat, card and position is accepted exactly
    when ``legal_moves`` lists it."""
    from toolkit.core.errors import IllegalMoveError
    from toolkit.crew.engine import Sonar
    rnd = random.Random(seed)
    state = ENGINE.new_state(seed, players=players, mission=mission)
    starts = 0
    while state.phase not in ("success", "failed"):
        moves = ENGINE.legal_moves(state)
        if not moves:
            break
        if state.phase == "play":
            refused = next((PlayCard(c) for c in DECK if PlayCard(c) not in moves), None)
            if refused is not None:
                with pytest.raises(IllegalMoveError) as via_apply:
                    ENGINE.apply(state, refused)
                assert via_apply.value.violation == ENGINE.why_illegal(state, refused)
            if not state.trick and starts < 3:
                starts += 1
                listed = set(moves)
                for seat in range(state.seats):
                    for card in DECK:
                        for position in ("top", "bottom", "middle", None):
                            move = Sonar(seat, card, position)
                            assert (ENGINE.why_illegal(state, move) is None) == (move in listed), move
        move = moves[rnd.randrange(len(moves))]
        after = ENGINE.apply(state, move)
        assert after == ENGINE.transition(state, move)[0]
        assert ENGINE.state_to_json(after) == ENGINE.state_to_json(ENGINE.transition(state, move)[0])
        state = after


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(DECK), min_size=3, max_size=5, unique=True), st.integers(0, 4))
def test_trick_of_cards_equals_the_checked_trick(played, leader):
    from toolkit.crew.cards import Trick
    leader %= len(played)
    fast, checked = Trick.of_cards(leader, tuple(played)), Trick(leader, played)
    assert all(getattr(fast, k) == getattr(checked, k) for k in Trick.__slots__)
    with pytest.raises(AttributeError):
        fast.winner = 0


@settings(max_examples=500, deadline=None)
@given(st.integers(-(2**45), 2**45))
def test_cards_of_walks_the_bits_as_the_deck_would(mask):
    """``cards_of`` visits the mask's bits rather than the 40 cards: the same cards in deck order, bits
    beyond the deck ignored, and a negative (inverted) mask read as its two's complement bits."""
    from toolkit.crew.cards import cards_of
    assert cards_of(mask) == tuple(c for c in DECK if mask >> c.index & 1)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from([2, 3, 4, 5]))
def test_last_trick_endgame_equals_the_walk(seed, players):
    """With one trick left the exact judge takes the orders of that trick as they come, without the walk's
    voids (they could only matter in a later trick): each verdict equals the trick-by-trick walk."""
    from toolkit.crew.cards import Trick, legal_plays, tricks_in_mission
    from toolkit.crew.tasks import PENDING, TASKS, Judge, compile_task
    rnd = random.Random(seed)
    seats = 3 if players == 2 else players
    deck = list(DECK)
    rnd.shuffle(deck)
    hands = [sorted(deck[i::seats]) for i in range(seats)]
    leader, ledger, ledgers = 0, Ledger.start(players), []
    for _ in range(tricks_in_mission(players) - 1):
        plays = []
        for k in range(seats):
            seat = (leader + k) % seats
            card = rnd.choice(legal_plays(hands[seat], plays[0] if plays else None))
            hands[seat].remove(card)
            plays.append(card)
        trick = Trick.of_cards(leader, tuple(plays))
        ledger = ledger.add(trick)
        ledgers.append(ledger)
        leader = trick.winner
    assert ledger.remaining == 1
    for task in rnd.sample(sorted(TASKS), 40):
        owner = rnd.randrange(seats)
        try:
            judge = compile_task(task, owner, players, captain=(owner + 1) % seats, prediction=rnd.randrange(4))
        except RuleError:
            continue
        memo = judge.start()
        for earlier in ledgers:
            memo = judge.step(memo, earlier)
        if memo[0] == PENDING:
            # Judge's own (a secret prediction overrides _endgame: it is judged at the end only)
            assert Judge._endgame(judge, memo[1], ledger) == Judge._endgame_walk(judge, memo[1], ledger)
