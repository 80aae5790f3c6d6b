"""Issue 28.2: a mission's condition (8, 12, 21, 23, 27) ends the attempt at the card that decides it.

The definition is the task judge's (rule ``crew.task.judge``, ruling "Crew mission conditions"): **done**
once every continuation keeps the condition, **failed** once none does; a continuation is any split of the
unplayed cards into hands and any legal play (a seat that did not follow the led colour in the trick under
way, or later, holds none of it). This file plays seeded engine games with a random policy that avoids
ending the attempt when it can (so that games reach their last tricks), and in the last one to three
tricks checks the engine against that definition by brute force, card by card: while the engine plays on,
every continuation must still go both ways; at the card where it ends the attempt, every continuation must
agree with its verdict. The reference rules (``_broken``) are written from the logbook text, not from the
engine's judge.
"""

import random

import pytest
from hypothesis import given, settings, strategies as st

from toolkit.crew.cards import DECK, Card, Trick, legal_plays, tricks_in_mission
from toolkit.crew.conditions import condition_status
from toolkit.crew.engine import ENGINE, PlayCard

MISSIONS = (8, 12, 21, 23, 27)
_Y5 = Card("Y", 5)


# ---- the reference: the rule, kept by a trick after the earlier ones? ----------------------------------
def _special(mission, card):
    return card.suit != "S" and card.value == (9 if mission == 8 else 1)


def _after_trick(mission, summary, trick, number, total):
    """The rule's state after trick ``number`` (from 1): ``None`` once broken, else the summary it needs."""
    if mission in (8, 21):
        counts = list(summary)
        counts[trick.winner] += sum(_special(mission, c) for c in trick.cards)
        return None if max(counts) - min(counts) >= 2 else tuple(counts)
    if mission == 12:
        return None if trick.cards[0].suit in ("P", "S") else summary
    if mission == 23:
        first, wins = summary if number > 1 else (trick.winner, (0,) * len(trick.cards))
        wins = list(wins)
        wins[trick.winner] += 1
        if any(w >= wins[first] for s, w in enumerate(wins) if s != first):
            return None
        return first, tuple(wins)
    # 27: the yellow 5 only as the last card of the last trick, and there it must be
    if _Y5 in trick.cards and not (number == total and trick.cards[-1] is _Y5):
        return None
    if number == total and _Y5 not in trick.cards:
        return None
    return summary


def _summary(mission, history, seats, total):
    summary = (0,) * seats if mission in (8, 21) else ()
    for n, trick in enumerate(history, 1):
        summary = _after_trick(mission, summary, trick, n, total)
        if summary is None:
            return None
    return summary


def exact(mission, history, leader, plays, unplayed, seats, total):
    """``done`` / ``failed`` / ``pending`` over every continuation of the trick ``plays`` (led by
    ``leader``) after ``history``, the cards ``unplayed`` in unknown hands."""
    start = _summary(mission, history, seats, total)
    if start is None:
        return "failed"
    seen = set()
    memo = {}

    def trick(left, leader, voids, plays, summary, number):
        """The outcomes reachable from here: a frozenset of True (kept) / False (broken)."""
        key = (left, leader, voids, tuple(plays), summary, number)
        if key in memo:
            return memo[key]
        if len(plays) == seats:
            t = Trick(leader, plays)
            after = _after_trick(mission, summary, t, number, total)
            if after is None:
                out = frozenset({False})
            elif number == total:
                out = frozenset({True})
            else:
                out = trick(left, t.winner, voids, [], after, number + 1)
            memo[key] = out
            return out
        seat = (leader + len(plays)) % seats
        led = plays[0].suit if plays else None
        out = set()
        for c in sorted(left):
            if c.suit in voids[seat]:
                continue
            v = voids
            if led is not None and c.suit != led:
                v = voids[:seat] + (voids[seat] | {led},) + voids[seat + 1:]
            out |= trick(left - {c}, leader, v, plays + [c], summary, number)
            if len(out) == 2:
                break
        memo[key] = frozenset(out)
        return memo[key]

    voids = [frozenset()] * seats
    for i, c in enumerate(plays[1:], 1):
        if c.suit != plays[0].suit:
            voids[(leader + i) % seats] = frozenset({plays[0].suit})
    seen = trick(frozenset(unplayed), leader, tuple(voids), list(plays), start, len(history) + 1)
    if seen == {True}:
        return "done"
    return "failed" if seen == {False} else "pending"


# ---- seeded games that reach their last tricks --------------------------------------------------------
def _keep_going_policy(rng, state):
    """A random card that does not end the attempt in failure, if there is one."""
    plays = [m for m in ENGINE.legal_moves(state) if isinstance(m, PlayCard)]
    rng.shuffle(plays)
    for m in plays:
        if ENGINE.apply(state, m).phase != "failed":
            return m
    return plays[0]


def _window_checks(mission, players, seed, window):
    """Play one seeded game; in its last ``window`` tricks compare the engine with the brute force at
    every card. Returns the verdicts met, or ``None`` if the game ended before the window."""
    rng = random.Random(seed * 100 + mission)
    state = ENGINE.new_state(seed, players=players, mission=mission)
    seats = state.seats
    total = tricks_in_mission(players)
    while state.phase == "play" and len(state.tricks) < total - window:
        state = ENGINE.apply(state, _keep_going_policy(rng, state))
    if state.phase != "play":
        return None
    met = []
    while state.phase == "play":
        before = state
        state = ENGINE.apply(state, _keep_going_policy(rng, state))
        # what the table knows after the card: the tricks, the cards of the trick under way, the rest
        history = list(state.tricks)
        if state.trick:
            plays, leader = list(state.trick), state.leader
        else:
            assert len(state.tricks) == len(before.tricks) + 1
            plays, leader = [], state.tricks[-1].winner
        unplayed = [c for c in DECK if c not in plays and not any(c in t.cards for t in history)]
        if not plays and len(history) == total:
            want = "done" if _summary(mission, history, seats, total) is not None else "failed"
        else:
            want = exact(mission, history, leader, plays, unplayed, seats, total)
        got = {"play": "pending", "success": "done", "failed": "failed"}[state.phase]
        detail = (mission, players, seed, [str(t) for t in history[-3:]], [str(c) for c in plays],
                  sorted(map(str, unplayed)))
        if len(history) >= total - 1:
            assert got == want, detail   # the last trick: exact
        else:
            assert got in (want, "pending"), detail   # before it: never wrong
        # the engine's judge, replayed on its own from the tricks (what the solver and the coach call)
        assert condition_status(mission, history, seats, total, plays=plays, leader=leader) == got
        met.append((want, got))
    return met


# (players, tricks in the window, games that reach it): the last three tricks at 3 seats, two at 4, one
# at 5. The seeded games are played with a policy that avoids ending the attempt when it can; those that
# end before the window are skipped (most do: these missions are hard).
CASES = [(3, 3, 6), (4, 2, 6), (5, 1, 6)]


@pytest.mark.parametrize("mission", MISSIONS)
@pytest.mark.parametrize("players,window,games", CASES)
def test_the_condition_is_decided_exactly_when_the_table_can_know(mission, players, window, games):
    met, reached = [], 0
    for seed in range(400):
        found = _window_checks(mission, players, seed, window)
        if found is not None:
            met += found
            reached += 1
            if reached == games:
                break
    assert reached >= 2 and len(met) >= reached, (reached, met)
    # before the last trick the bounds are exact in most positions (measured on 15 games per case: 822 of
    # 834 window positions exact, the 12 others "pending" where the voids of a trick to come already
    # decide); never wrong
    assert sum(w == g for w, g in met) >= 0.85 * len(met), met


# ---- the cases of the issue, each a class ---------------------------------------------------------------
def _state(mission, hands):
    s = ENGINE.new_state(0, players=len(hands), mission=mission, hands=hands)
    assert s.phase == "play" and s.captain == 0
    return s


def _play(state, *cards):
    for c in cards:
        state = ENGINE.apply(state, PlayCard(Card.parse(c)))
    return state


def test_mission_23_succeeds_once_the_first_winner_cannot_be_caught():
    """Seat 0 wins the first five tricks and leads the green 9 with no submarine left: it will have six of
    ten, and no seat can reach six in the four tricks after (task 1's bound) — success at that lead."""
    hands = [["S4", "S3", "S2", "S1", "B9", "G9", "B1", "G1", "Y1", "P1"],
             ["B2", "B3", "B4", "B5", "B6", "B7", "B8", "G2", "G3", "G4"],
             ["G5", "G6", "G7", "G8", "Y2", "Y3", "Y4", "Y5", "Y6", "Y7"],
             ["Y8", "Y9", "P2", "P3", "P4", "P5", "P6", "P7", "P8", "P9"]]
    s = _state(23, hands)
    for k, (lead, *rest) in enumerate((("S4", "B2", "Y2", "P2"), ("S3", "B3", "Y3", "P3"),
                                       ("S2", "B4", "Y4", "P4"), ("S1", "B5", "Y5", "P5"),
                                       ("B9", "B6", "Y6", "P6")), 1):
        s = _play(s, lead, *rest)
        assert s.phase == "play" and s.tricks[-1].winner == 0 and len(s.tricks) == k
    s, events = ENGINE.transition(s, PlayCard(Card.parse("G9")))
    assert s.phase == "success" and len(s.tricks) == 5 and s.trick == (Card.parse("G9"),)
    assert [e.code for e in events][-2:] == ["CREW_EVT_CONDITION_DONE", "CREW_EVT_SUCCESS"]
    assert events[-2].rule == "crew.mission.first-winner-leads"


def test_mission_8_a_trick_with_two_nines_is_lost_only_when_every_winner_is_two_ahead():
    # four seats: two 9s in one trick put its winner two ahead of a seat with none
    assert condition_status(8, [], 4, 10, plays=["B9", "G9"], leader=0) == "failed"
    assert condition_status(21, [], 5, 8, plays=["B1", "Y2", "G1"], leader=0) == "failed"
    # three seats, [0, 1, 1] and the seat behind can win the trick: two 9s make it [2, 1, 1]
    history = [Trick(1, ["P1", "P9", "P2"]), Trick(2, ["B2", "B3", "B9"])]   # seat 2 wins P9, seat 1 B9
    assert [t.winner for t in history] == [2, 1]
    assert condition_status(8, history, 3, 13, plays=["G9", "Y9"], leader=1) == "pending"  # seat 0 may win
    assert condition_status(8, history, 3, 13, plays=["G9", "Y9", "G1"], leader=1) == "failed"


def test_mission_27_yellow_five_early_is_lost_at_once_and_last_is_won_before_it_is_played():
    assert condition_status(27, [], 4, 10, plays=["B1", "B2", "Y5"], leader=0) == "failed"
    assert condition_status(27, [], 4, 10, plays=["Y5"], leader=0) == "failed"
    assert condition_status(27, [], 4, 10, plays=["B1", "B2"], leader=0) == "pending"


# ---- the solver and the coach agree with the engine --------------------------------------------------
@pytest.mark.parametrize("mission", MISSIONS)
def test_solver_and_coach_agree_with_where_the_engine_ends_the_attempt(mission):
    """Seeded 4-player games played until the engine ends the attempt: the coach's verdict after the
    card where it ended is the engine's (lost after a failure; winnable all along after a success), and
    when it ended at a trick's end, the solver from there says the same."""
    from toolkit.crew import close_calls, post_mortem
    from toolkit.crew.solver import solve

    endings = set()
    for seed in range(8):
        rng = random.Random(seed)
        start = ENGINE.new_state(seed, players=4, mission=mission)
        state = start
        while state.phase == "play":
            move = _keep_going_policy(rng, state) if rng.random() < 0.8 else rng.choice(
                [m for m in ENGINE.legal_moves(state) if isinstance(m, PlayCard)])
            state = ENGINE.apply(state, move)
        tricks = list(state.tricks) + ([(state.leader, list(state.trick))] if state.trick else [])
        review = post_mortem([list(h) for h in start.hands], {}, tricks, leader=start.leader,
                             captain=start.captain, mission=mission, node_limit=200_000)
        calls = close_calls([list(h) for h in start.hands], {}, tricks, leader=start.leader,
                            captain=start.captain, mission=mission, node_limit=200_000)
        endings.add((state.phase, bool(state.trick)))
        last = (len(tricks) - 1, len(tricks[-1][1] if isinstance(tricks[-1], tuple) else tricks[-1].cards) - 1)
        if state.phase == "failed":
            assert review.verdicts[-1] is False, (seed, tricks)
            assert review.lost_after is not None or review.winnable_at_start is False
            assert all(c.card not in c.keeping for c in calls.choices if (c.trick, c.index) == last)
        else:
            assert all(v is True for v in review.verdicts) and review.lost_after is None, (seed, tricks)
            assert all(c.card in c.keeping for c in calls.choices)
        if not state.trick:
            left = [[c for c in h if not any(c in t.cards for t in state.tricks)] for h in start.hands]
            if min(map(len, left)):
                got = solve(left, {}, captain=start.captain, played=state.tricks, mission=mission,
                            node_limit=200_000)
                assert got.winnable is (state.phase == "success"), (seed, tricks)
    assert ("failed", True) in endings   # some attempts end in the middle of a trick


# ---- an invariant: the engine's early verdict is what the rest of the game would have shown ------------
@settings(max_examples=60, deadline=None)
@given(mission=st.sampled_from(MISSIONS), players=st.sampled_from([3, 4, 5]), seed=st.integers(0, 10**6),
       on=st.integers(0, 10**6))
def test_playing_on_after_the_verdict_never_contradicts_it(mission, players, seed, on):
    """Whatever the seats would have played after the engine ended the attempt (random legal cards from
    their real hands, to the last trick), the rule — judged from the logbook text over the whole game —
    is broken after a failure and kept after a success."""
    rng = random.Random(seed)
    state = ENGINE.new_state(seed, players=players, mission=mission)
    while state.phase == "play":
        state = ENGINE.apply(state, rng.choice([m for m in ENGINE.legal_moves(state) if isinstance(m, PlayCard)]))
    seats, total = state.seats, tricks_in_mission(players)
    hands = [list(state.hand(s)) for s in range(seats)]
    tricks, leader, plays = list(state.tricks), state.leader, list(state.trick)
    more = random.Random(on)
    while len(tricks) < total:
        seat = (leader + len(plays)) % seats
        card = more.choice(legal_plays(hands[seat], plays[0] if plays else None))
        hands[seat].remove(card)
        plays.append(card)
        if len(plays) == seats:
            tricks.append(Trick(leader, plays))
            leader, plays = tricks[-1].winner, []
    kept = _summary(mission, tricks, seats, total) is not None
    assert kept == (state.phase == "success"), (mission, players, seed, on)
