"""The double-dummy coach: post_mortem against a brute force over every continuation, its alternative line
replayed through the engine, its invariants, and its refusals of bad input."""

import contextlib
import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from toolkit.core.errors import RuleError
from toolkit.crew import ENGINE, PlayCard, allocation_review, post_mortem
from toolkit.crew.cards import DECK, Card, Trick, legal_plays
from toolkit.crew.tasks import DONE, FAILED, TASKS, Ledger, compile_task
from tests.crew.helpers import replay_alternative

SETTINGS = settings(max_examples=40, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

# tasks that small endgames can decide either way (no prediction, no captain comparison)
SMALL_TASKS = [t for t in TASKS if not TASKS[t].needs_prediction and not TASKS[t].captain_comparison]


def brute_winnable(hands, tasks, captain, history_cards):
    """Is some continuation of the card sequence ``history_cards`` (cards in play order from the first
    lead, ``leader`` of each trick implied) a success? Exhaustive over every legal card, judged with the
    engine's judges after each trick over a mission as long as the hands."""
    seats = len(hands)
    last = min(len(h) for h in hands)
    judges = [compile_task(t, seat, seats, captain) for seat, ids in tasks.items() for t in ids]

    def go(left, leader, plays, memos, ledger, rest):
        if len(plays) == seats:
            trick = Trick(leader, plays)
            ledger = ledger.add(trick)
            memos = [j.step(m, ledger) for j, m in zip(judges, memos)]
            states = [m[0] for m in memos]
            if FAILED in states:
                return False
            if all(s == DONE for s in states):
                return True
            if ledger.count == last:
                return False
            return go(left, trick.winner, [], memos, ledger, rest)
        seat = (leader + len(plays)) % seats
        options = [rest[0]] if rest else legal_plays(left[seat], plays[0] if plays else None)
        for card in options:
            if card not in legal_plays(left[seat], plays[0] if plays else None):
                raise AssertionError(f"illegal history card {card}")
            left[seat].remove(card)
            ok = go(left, leader, plays + [card], memos, ledger, rest[1:])
            left[seat].append(card)
            if ok:
                return True
        return False

    memos = [j.start() for j in judges]
    return go([list(h) for h in hands], captain, [], memos, Ledger(seats, last), list(history_cards))


def random_endgame(rng, seats, size, n_tasks):
    cards = rng.sample(list(DECK), seats * size)
    hands = [cards[i * size:(i + 1) * size] for i in range(seats)]
    tasks = {}
    for t in rng.sample(SMALL_TASKS, n_tasks):
        seat = rng.randrange(seats)
        tasks.setdefault(seat, []).append(t)
    return hands, tasks


def random_play(rng, hands, leader, n_cards):
    """A random legal sequence of ``n_cards`` cards from ``leader``, as tricks (last possibly incomplete)."""
    seats = len(hands)
    left = [list(h) for h in hands]
    tricks, plays, played = [], [], 0
    while played < n_cards:
        seat = (leader + len(plays)) % seats
        card = rng.choice(legal_plays(left[seat], plays[0] if plays else None))
        left[seat].remove(card)
        plays.append(card)
        played += 1
        if len(plays) == seats:
            tricks.append(Trick(leader, plays))
            leader = tricks[-1].winner
            plays = []
    if plays:
        tricks.append((leader, plays))
    return tricks


@settings(SETTINGS, max_examples=30)
@given(st.integers(0, 10**9), st.sampled_from([(3, 3), (3, 4), (4, 3)]), st.integers(1, 2))
def test_post_mortem_agrees_with_brute_force_on_small_endgames(seed, shape, n_tasks):
    check_against_brute_force(seed, shape, n_tasks)


@settings(SETTINGS, max_examples=12)
@given(st.integers(0, 10**9), st.sampled_from([(3, 3), (4, 3)]), st.integers(1, 2))
def test_without_the_sat_solver_the_trick_completions_agree_too(seed, shape, n_tasks):
    with without_sat():
        check_against_brute_force(seed, shape, n_tasks)


@contextlib.contextmanager
def without_sat():
    """The coach as on a machine without the SAT solver: every question by trick completion."""
    from toolkit.crew import coach

    original = coach._Reviewer.__dict__["sat_available"]
    coach._Reviewer.sat_available = staticmethod(lambda: False)
    try:
        yield
    finally:
        coach._Reviewer.sat_available = original


def check_against_brute_force(seed, shape, n_tasks):
    seats, size = shape
    rng = random.Random(seed)
    hands, tasks = random_endgame(rng, seats, size, n_tasks)
    n_cards = rng.randint(1, seats * size)
    tricks = random_play(rng, hands, 0, n_cards)
    pm = post_mortem(hands, tasks, tricks, leader=0, captain=0)
    flat = [c for t in tricks for c in (t.cards if isinstance(t, Trick) else t[1])]
    assert pm.winnable_at_start == brute_winnable(hands, tasks, 0, [])
    expected = [brute_winnable(hands, tasks, 0, flat[:i + 1]) for i in range(len(flat))]
    assert list(pm.verdicts) == expected
    # lost_after: the first card whose verdict is False while the one before (or the start) was True
    before = [pm.winnable_at_start] + expected[:-1]
    first = next((i for i, (b, v) in enumerate(zip(before, expected)) if b and v is False), None)
    if first is None:
        assert pm.lost_after is None and pm.alternative == []
    else:
        position = [(t, k) for t, tr in enumerate(tricks) for k in range(len(tr.cards if isinstance(tr, Trick)
                                                                              else tr[1]))][first]
        assert pm.lost_after == position
        t, k = position
        alt = pm.alternative
        actual = tricks[t].cards if isinstance(tricks[t], Trick) else tricks[t][1]
        assert list(alt[0].cards[:k]) == list(actual[:k]) and alt[0].cards[k] != actual[k]
        line = [c for tr in tricks[:t] for c in tr.cards] + [c for tr in alt for c in tr.cards]
        assert _line_succeeds(hands, tasks, 0, alt, tricks[:t])
        assert brute_winnable(hands, tasks, 0, line)


def _line_succeeds(hands, tasks, captain, alternative, before):
    """The tricks ``before`` + ``alternative`` are legal and the engine's judges call every task done."""
    seats = len(hands)
    last = min(len(h) for h in hands)
    judges = [compile_task(t, seat, seats, captain) for seat, ids in tasks.items() for t in ids]
    memos = [j.start() for j in judges]
    left = [list(h) for h in hands]
    ledger = Ledger(seats, last)
    leader = captain
    for trick in list(before) + list(alternative):
        assert trick.leader == leader
        for i, (seat, c) in enumerate(zip(trick.seats, trick.cards)):
            assert c in legal_plays(left[seat], trick.cards[0] if i else None)
            left[seat].remove(c)
        ledger = ledger.add(trick)
        memos = [j.step(m, ledger) for j, m in zip(judges, memos)]
        leader = trick.winner
    return all(m[0] == DONE for m in memos)


@SETTINGS
@given(st.integers(0, 10**9))
def test_verdicts_never_recover_and_lost_after_points_at_a_flip(seed):
    rng = random.Random(seed)
    hands, tasks = random_endgame(rng, 4, 4, rng.randint(1, 3))
    tricks = random_play(rng, hands, 0, 16)
    pm = post_mortem(hands, tasks, tricks)
    assert len(pm.verdicts) == 16
    seen_false = pm.winnable_at_start is False
    for v in pm.verdicts:
        assert not (seen_false and v)   # once lost, lost for good
        seen_false |= v is False
    if pm.lost_after is not None:
        t, k = pm.lost_after
        i = 4 * t + k
        assert pm.verdicts[i] is False and (pm.verdicts[i - 1] if i else pm.winnable_at_start) is True
        assert pm.explain("en").startswith("The mission was lost after seat") and "トリック" in pm.explain("ja")


def _engine_games(count, players=4, seeds=200):
    """(state just before the first card, final state) of seeded engine games of mission 3 lost by random
    bots without the distress signal."""
    from toolkit.core.bots import play_out

    found = []
    for seed in range(seeds):
        state0 = ENGINE.new_state(seed, players=players, mission=3)
        final, moves = play_out(ENGINE, seed, ["random"] * players, players=players, mission=3)
        if final.phase != "failed":
            continue
        state = state0
        for m in moves:
            if isinstance(m, PlayCard):
                break
            state = ENGINE.apply(state, m)
        if state.distress_used:
            continue
        found.append((state, final))
        if len(found) == count:
            break
    return found


def test_alternative_replays_through_the_engine_to_success():
    checked = 0
    for start, final in _engine_games(12):
        hands = [list(h) for h in start.hands]
        tasks = {}
        for t, o in zip(start.tasks, start.owners):
            tasks.setdefault(o, []).append(t)
        tricks = list(final.tricks) + ([(final.leader, list(final.trick))] if final.trick else [])
        pm = post_mortem(hands, tasks, tricks, leader=start.captain, captain=start.captain, node_limit=200_000)
        if pm.lost_after is None:
            continue
        t, _ = pm.lost_after
        assert replay_alternative(start, final.tricks[:t], pm.alternative).phase == "success", pm.explain()
        checked += 1
    assert checked >= 3


def test_the_rule_text_example_finds_the_fatal_lead():
    hands = [["P9", "B1"], ["P1", "B2"], ["P2", "B3"], ["P3", "B4"]]
    pm = post_mortem(hands, {3: [76]}, [(0, ["B1", "B2", "B3", "B4"])])
    assert pm.winnable_at_start and pm.verdicts == (False,) * 4 and pm.lost_after == (0, 0)
    assert pm.lost_card == (0, Card.parse("B1")) and pm.instead == Card.parse("P9")
    assert [str(c) for c in pm.alternative[0].cards] == ["P9", "P1", "P2", "P3"]
    kept = post_mortem(hands, {3: [76]}, [(0, ["P9", "P1", "P2", "P3"]), (0, ["B1", "B2"])])
    assert kept.verdicts == (True,) * 6 and kept.lost_after is None and kept.alternative == []
    assert "kept the mission winnable" in kept.explain()


def test_an_unwinnable_deal_says_so_and_names_no_card():
    hands = [["P9", "B1"], ["P1", "B2"], ["P2", "B3"], ["P3", "B4"]]
    pm = post_mortem(hands, {1: [76]}, [(0, ["P9", "P1", "P2", "P3"])])
    assert pm.winnable_at_start is False and pm.verdicts == (False,) * 4 and pm.lost_after is None
    assert pm.explain().startswith("This deal could not be won")
    assert pm.explain("ja").startswith("この配り方")


def test_predictions_are_taken_by_task_id_or_seat_and_task():
    hands = [["P9", "B1"], ["P1", "B2"], ["P2", "B3"], ["P3", "B4"]]
    tricks = [(0, ["P9", "P1", "P2", "P3"])]
    # seat 0 can win the pink trick but never the blue one (B4 beats B1): exactly 1, never 2
    assert post_mortem(hands, {0: [90]}, tricks, predictions={90: 1}).verdicts == (True,) * 4
    assert post_mortem(hands, {0: [90]}, tricks, predictions={(0, 90): 2}).winnable_at_start is False
    assert post_mortem(hands, {0: [(90, 1)]}, tricks).lost_after is None


def test_allocation_review_lists_the_winnable_allocations():
    hands = [["P9", "B1"], ["P1", "B2"], ["P2", "B3"], ["P3", "B4"]]
    review = allocation_review(hands, {3: [76]})
    assert [(dict(a), w) for a, w in review.allocations] == [
        ({0: (76,)}, True), ({1: (76,)}, False), ({2: (76,)}, False), ({3: (76,)}, True)]
    assert review.played == {3: (76,)} and review.winnable == [{0: (76,)}, {3: (76,)}]
    assert "2 of the 4" in review.explain()
    # the captain never gets a captain comparison; "any" allows two tasks in one hand
    two = allocation_review(hands, {1: [4], 2: [76]}, rule="any")
    assert all(0 not in a or 4 not in a[0] for a, _ in two.allocations)
    assert any(len(ids) == 2 for a, _ in two.allocations for ids in a.values())


@pytest.mark.parametrize("kwargs, error, words", [
    (dict(hands="P9 B1"), TypeError, "hands"),
    (dict(hands=[["P9"], ["P1"]]), RuleError, "hands"),
    (dict(hands=[["P9", "X7"], ["P1", "B2"], ["P2", "B3"], ["P3", "B4"]]), RuleError, "hands[0]"),
    (dict(tasks=[76]), TypeError, "tasks"),
    (dict(tasks={3: [999]}), RuleError, "999"),
    (dict(tricks="P9"), TypeError, "tricks"),
    (dict(tricks=[(0, ["P9", "P1"]), (0, ["B1"])]), RuleError, "tricks[0]"),
    (dict(tricks=[(1, ["P1", "P2", "P3", "P9"])]), RuleError, "tricks[0]"),
    (dict(tricks=[(0, ["P9", "B2"])]), RuleError, "tricks[0] card 1"),
    (dict(tricks=[(True, ["P9"])]), TypeError, "leader"),
    (dict(tricks=[42]), TypeError, "tricks[0]"),
    (dict(leader="0"), TypeError, "leader"),
    (dict(captain=7), RuleError, "captain"),
    (dict(predictions=[2]), TypeError, "predictions"),
    (dict(node_limit=0), RuleError, "node_limit"),
])
def test_bad_input_is_refused_naming_the_parameter(kwargs, error, words):
    args = dict(hands=[["P9", "B1"], ["P1", "B2"], ["P2", "B3"], ["P3", "B4"]], tasks={3: [76]},
                tricks=[(0, ["P9", "P1", "P2", "P3"])])
    args.update(kwargs)
    with pytest.raises(error) as info:
        post_mortem(**args)
    assert words in str(info.value)
