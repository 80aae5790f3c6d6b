"""The double-dummy solver (toolkit.crew.solver): agreement with the naive oracle, lines that replay through
the engine, limits that never hang, refusals with reasons, and explained impossibility."""

from __future__ import annotations

import threading
import time

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from toolkit.core import IllegalMoveError, InvalidMoveError, RuleError, Violation
from toolkit.crew.cards import Card, Trick, deal, legal_plays
from toolkit.crew.solver import Solution, naive_solve, solve
from toolkit.crew.tasks import CAPTAIN_COMPARISON, TASKS, task_status
from toolkit.crew.solver import _engine_status, card_code
import toolkit.crew.solver as solver_module


def captain_of(hands):
    return next(s for s, h in enumerate(hands) if Card.parse("S4") in [Card.parse(c) for c in h])


def assert_line_wins(hands, tasks, solution, leader, captain=0, played=(), predictions=None):
    """Replay ``solution.line`` card by card with the engine's ``legal_plays``; every task must end done
    by the engine's judge (``task_status`` for a full mission)."""
    assert solution.winnable is True
    held = [[Card.parse(c) for c in h] for h in hands]
    history = list(played)
    expected_leader = leader
    for trick in solution.line:
        assert isinstance(trick, Trick)
        assert trick.leader == expected_leader
        plays = []
        for seat, card in zip(trick.seats, trick.cards):
            assert card in legal_plays(held[seat], plays[0] if plays else None), (trick, seat, card)
            held[seat].remove(card)
            plays.append(card)
        history.append(trick)
        expected_leader = trick.winner
    players = len(hands)
    last = len(played) + min(len(h) for h in hands)
    for seat, ids in tasks.items():
        for task_id in ids:
            prediction = None
            if isinstance(task_id, tuple):
                task_id, prediction = task_id
            if TASKS[task_id].needs_prediction and prediction is None:
                prediction = solution.predictions[(seat, task_id)]
            assert _engine_status(task_id, seat, history, players, captain, prediction, last) == "done"


# ---- agreement with the oracle --------------------------------------------------------------------------

@st.composite
def small_positions(draw, players):
    per_seat = draw(st.integers(2, 5))
    spare = 1 if players == 3 and draw(st.booleans()) else 0
    cards = draw(st.permutations(range(40)))[: players * per_seat + spare]
    hands = [[str(Card.parse(_NAMES[c])) for c in cards[s * per_seat:(s + 1) * per_seat]] for s in range(players)]
    if spare:
        hands[0].append(_NAMES[cards[-1]])
    captain = draw(st.integers(0, players - 1))
    leader = draw(st.integers(0, players - 1))
    return hands, draw_tasks(draw, players, captain, per_seat), leader, captain


def draw_tasks(draw, players: int, captain: int, max_prediction: int) -> dict[int, list]:
    """1-3 distinct tasks, each to a random seat (never a captain comparison for the captain); a prediction
    task sometimes with its X fixed (0..max_prediction), sometimes open."""
    ids = draw(st.lists(st.integers(1, 96), min_size=1, max_size=3, unique=True))
    tasks: dict[int, list] = {}
    for task_id in ids:
        owner = draw(st.integers(0, players - 1))
        if task_id in CAPTAIN_COMPARISON and owner == captain:
            owner = (owner + 1) % players
        if TASKS[task_id].needs_prediction and draw(st.booleans()):
            tasks.setdefault(owner, []).append((task_id, draw(st.integers(0, max_prediction))))
        else:
            tasks.setdefault(owner, []).append(task_id)
    return tasks


_NAMES = [f"{'BGYP'[i // 9]}{i % 9 + 1}" if i < 36 else f"S{i - 35}" for i in range(40)]
ORACLE_NODES = 6_000


def check_against_oracle(position) -> bool:
    """Compare with the oracle; True if the oracle finished (False: too big for it within its cap)."""
    hands, tasks, leader, captain = position
    oracle = naive_solve(hands, tasks, leader=leader, captain=captain, node_limit=ORACLE_NODES)
    fast = solve(hands, tasks, leader=leader, captain=captain)
    assert fast.winnable is not None
    if fast.winnable:
        assert_line_wins(hands, tasks, fast, leader, captain)
    else:
        assert fast.line == []
    if oracle.winnable is None:
        return False
    assert fast.winnable == oracle.winnable, (hands, tasks, leader, captain)
    if oracle.winnable:
        assert_line_wins(hands, tasks, oracle, leader, captain)
    return True


# 3 x 480 = 1,440 generated positions; with the oracle capped at 6,000 plays, the derandomized run finds
# enough to compare: 1,094 (423 + 362 + 309; issue 7 asks for agreement on at least 1,000). Every
# solver line is replayed through the engine anyway.
@pytest.mark.parametrize("players", [3, 4, 5])
def test_agrees_with_naive_oracle_on_small_positions(players):
    compared = []

    @settings(max_examples=480, deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(small_positions(players))
    def run(position):
        compared.append(check_against_oracle(position))

    run()
    # most positions are small enough for the exhaustive oracle; the rest still had their lines checked
    assert sum(compared) >= 0.5 * len(compared), (sum(compared), len(compared))


#: the tasks that name tricks by number, with the highest trick they name ("Win none of the first four
#: tricks": 4; "Win the first two tricks": 2)
_NAMED_TRICK = {71: 4, 72: 3, 73: 5, 77: 3, 78: 2}


@st.composite
def short_named_trick_positions(draw):
    """Endgames shorter than the trick a task names ("win the first three tricks" with one or two tricks to
    play), alone or beside a second task of the same seat or the next: the engine judges such a task by
    the tricks the deal has (positions past the last are never played, so never broken)."""
    players = draw(st.integers(3, 5))
    per_seat = draw(st.integers(1, 3))
    cards = draw(st.permutations(range(40)))[: players * per_seat]
    hands = [[_NAMES[c] for c in cards[s * per_seat:(s + 1) * per_seat]] for s in range(players)]
    named = draw(st.sampled_from(sorted(t for t, k in _NAMED_TRICK.items() if k > per_seat)))
    owner = draw(st.integers(0, players - 1))
    tasks = {owner: [named]}
    other = draw(st.integers(1, 96))
    if other != named and not TASKS[other].captain_comparison:
        item = (other, draw(st.integers(0, per_seat))) if TASKS[other].needs_prediction else other
        tasks.setdefault(draw(st.sampled_from([owner, (owner + 1) % players])), []).append(item)
    return hands, tasks, draw(st.integers(0, players - 1)), 0


def test_tasks_naming_a_trick_past_a_short_endgame_agree_with_the_engine():
    """Found by a review: "win the first three tricks" beside "win more tricks than every other player" in
    a one-trick endgame was called impossible together (the trick-budget check counted trick 3), while the
    engine's judge calls both done once seat 0 wins the only trick."""
    hands, tasks = [["P6"], ["B7"], ["P1"]], {0: [77, 1]}
    for method in ("auto", "sat"):
        assert_line_wins(hands, tasks, solve(hands, tasks, leader=0, captain=0, method=method), 0)
    assert naive_solve(hands, tasks, leader=0, captain=0).winnable is True

    compared = []

    @settings(max_examples=300, deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(short_named_trick_positions())
    def run(position):
        compared.append(check_against_oracle(position))
        hands, tasks, leader, captain = position
        sat = solve(hands, tasks, leader=leader, captain=captain, method="sat")
        oracle = naive_solve(hands, tasks, leader=leader, captain=captain, node_limit=ORACLE_NODES)
        if oracle.winnable is not None:
            assert sat.winnable == oracle.winnable, position
        if sat.winnable:
            assert_line_wins(hands, tasks, sat, leader, captain)

    run()
    assert sum(compared) >= 0.9 * len(compared), (sum(compared), len(compared))


def test_reductions_do_not_change_answers():
    """The table and the equivalent-card reduction are optimisations only: switching them off gives the
    same verdicts on seeded endgames."""
    from toolkit.crew.solver import _judges_for, _search_position, prepare

    for seed in range(12):
        hands = [h[:3] for h in deal(4, seed)]
        for task_id in (16, 21, 46, 79, 84, 92):
            tasks = {seed % 4: [task_id]}
            position = prepare(hands, tasks, leader=0)
            answers = set()
            for reduce in (True, False):
                for table in (True, False):
                    result, _ = _search_position(position, _judges_for(position), None, None,
                                                 reduce_equivalent=reduce, use_table=table)
                    answers.add(result is not False)
            assert len(answers) == 1, (seed, task_id)


# ---- full deals -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("task_id", [16, 17, 27, 36, 44, 58, 76, 79, 85, 95])
def test_full_deal_lines_replay_through_the_engine(task_id):
    hands = deal(4, 11)
    captain = captain_of(hands)
    for owner in range(4):
        sol = solve(hands, {owner: [task_id]}, captain=captain, time_limit=1)
        if sol.winnable:
            assert_line_wins(hands, {owner: [task_id]}, sol, captain, captain)
            # a full mission is judged by task_status itself
            assert task_status(task_id, owner, sol.line, 4, captain=captain) == "done"


def test_three_players_leave_one_card_unplayed():
    hands = deal(3, 5)
    captain = captain_of(hands)
    sol = solve(hands, {captain: [79]}, captain=captain)
    assert sol.winnable is True and len(sol.line) == 1 and sol.line[0].winner == captain
    sol = solve(hands, {(captain + 1) % 3: [76]}, captain=captain, time_limit=2)
    if sol.winnable:
        assert len(sol.line) == 13  # "win the last trick" is only done at trick 13
        assert_line_wins(hands, {(captain + 1) % 3: [76]}, sol, captain, captain)


def test_endgame_last_trick_is_played_plus_hand_size():
    """Shows "crew.solver.position": two cards each, no trick played: trick 2 is the last trick."""
    hands = [["P9", "B1"], ["P1", "B2"], ["P2", "B3"], ["P3", "B4"]]
    # seat 0 leads P9 (wins), then must lead B1 and seat 3's B4 wins the last trick
    sol = solve(hands, {3: [76]}, leader=0)
    assert sol.winnable is True
    assert [str(t) for t in sol.line] == ["0: P9 P1 P2 P3", "0: B1 B2 B3 B4"]
    # seat 1 (P1, B2) can never win a trick here, least of all the last one
    assert solve(hands, {1: [76]}, leader=0).winnable is False
    assert naive_solve(hands, {1: [76]}, leader=0).winnable is False
    # with tricks already played the count continues: trick 9 + 1 = 10 of a full 4-player mission
    played = [Trick(0, ["Y9", "Y1", "Y2", "Y3"])]
    sol = solve(hands, {3: [76]}, played=played)
    assert sol.winnable is True and len(sol.line) == 2


def test_played_tricks_count_for_the_tasks():
    hands = [["B1"], ["B2"], ["B3"], ["B4"]]
    played = [Trick(0, ["P9", "P1", "P2", "P3"])]
    # seat 0 already won the first trick: "win the first trick" is done before anything is played
    sol = solve(hands, {0: [79]}, played=played)
    assert sol.winnable is True and sol.line == []
    # and "win no tricks" has already failed
    sol = solve(hands, {0: [74]}, played=played)
    assert sol.winnable is False
    assert sol.reason.code == "CREW_SOLVER_ALREADY_FAILED"


def test_open_prediction_is_chosen_and_reported():
    hands = [["P9", "B1"], ["P1", "B2"], ["P2", "B3"], ["P3", "B4"]]
    sol = solve(hands, {1: [90]}, leader=0)
    assert sol.winnable is True
    x = sol.predictions[(1, 90)]
    assert x == sum(1 for t in sol.line if t.winner == 1)
    assert_line_wins(hands, {1: [90]}, sol, 0)
    # a fixed impossible prediction: seat 1 cannot win both tricks
    assert solve(hands, {1: [(90, 2)]}, leader=0).winnable is False


# ---- limits -------------------------------------------------------------------------------------------

def test_node_limit_returns_none_and_never_hangs():
    hands = deal(4, 3)
    sol = solve(hands, {0: [46], 1: [2]}, captain=captain_of(hands), node_limit=500)
    assert sol.winnable is None and sol.stopped == "node_limit"
    assert 500 <= sol.nodes < 500 + 1100  # checked every 1,024 plays
    assert sol.line == [] and sol.reason is None
    assert "node limit" in sol.verdict("en") and "局面数の上限" in sol.verdict("ja")


def test_time_limit_returns_none_quickly():
    hands = deal(4, 3)
    started = time.perf_counter()
    sol = solve(hands, {0: [46], 1: [2], 2: [3]}, captain=captain_of(hands), time_limit=0.2)
    assert time.perf_counter() - started < 2.0
    assert sol.winnable in (None, False, True)
    if sol.winnable is None:
        assert sol.stopped == "time_limit"


def test_stop_event_ends_a_search_from_another_thread():
    hands = deal(4, 3)
    stop = threading.Event()
    seen = []
    timer = threading.Timer(0.2, stop.set)
    timer.start()
    sol = solve(hands, {0: [46], 1: [2], 2: [3]}, captain=captain_of(hands), stop=stop,
                on_progress=seen.append, time_limit=30)
    timer.cancel()
    assert sol.winnable is not None or sol.stopped == "stopped"


# ---- refusals -----------------------------------------------------------------------------------------

def test_bad_positions_are_refused_with_a_reason():
    """Shows "crew.solver.position"."""
    ok = [["P9"], ["P1"], ["P2"], ["P3"]]
    with pytest.raises(IllegalMoveError) as err:
        solve([["P9", "P1"], ["P1"], ["P2"]], {0: [16]})
    assert err.value.violation.code == "CREW_SOLVER_DUPLICATE_CARD"
    assert err.value.rule == "crew.solver.position"
    assert "pink 1" in str(err.value) and "ピンク1" in err.value.violation.text("ja")
    with pytest.raises(IllegalMoveError) as err:
        solve([["P9"], ["P1"]], {0: [16]})
    assert err.value.violation.code == "CREW_SOLVER_SEATS"
    with pytest.raises(InvalidMoveError, match="X9"):
        solve([["X9"], ["P1"], ["P2"]], {0: [16]})
    with pytest.raises(InvalidMoveError, match="no task 97"):
        solve(ok, {0: [97]})
    with pytest.raises(InvalidMoveError, match="seat 4"):
        solve(ok, {4: [16]})
    with pytest.raises(IllegalMoveError) as err:
        solve(ok, {0: [16], 1: [16]})
    assert err.value.violation.code == "CREW_SOLVER_TASK_TWICE"
    with pytest.raises(IllegalMoveError) as err:  # the engine's allocation rule
        solve(ok, {0: [4]}, captain=0)
    assert err.value.rule == "crew.alloc.captain-comparison"
    with pytest.raises(IllegalMoveError) as err:
        solve(ok, {0: [16]}, played=[Trick(0, ["B1", "B2", "B3"])])
    assert err.value.violation.code == "CREW_SOLVER_TRICK_SIZE"
    with pytest.raises(IllegalMoveError) as err:
        solve(ok, {0: [16]}, played=[Trick(0, ["B1", "B2", "B3", "B4"])], leader=0)
    assert err.value.violation.code == "CREW_SOLVER_WRONG_LEADER"
    with pytest.raises(IllegalMoveError) as err:
        solve(ok, {0: [16]}, played=[Trick(0, ["P9", "B2", "B3", "B4"])])
    assert err.value.violation.code == "CREW_SOLVER_CARD_TWICE"
    with pytest.raises(IllegalMoveError) as err:  # seat 1 still holds B2 but did not follow blue
        solve([["B1"], ["B2"], ["B3"], ["B4"]], {0: [16]}, played=[Trick(0, ["B9", "P1", "B7", "B8"])])
    assert err.value.rule == "crew.trick.follow" and "pink 1" in str(err.value)
    for bad in (0, -1, 2.5, "10", True):
        with pytest.raises(InvalidMoveError):
            solve(ok, {0: [16]}, node_limit=bad)
    for bad in (0, -1, "1", True):
        with pytest.raises(InvalidMoveError):
            solve(ok, {0: [16]}, time_limit=bad)
    with pytest.raises(InvalidMoveError):
        solve("P9 P1", {0: [16]})
    with pytest.raises(InvalidMoveError):
        solve(ok, [16])
    with pytest.raises(InvalidMoveError):
        solve(ok, {0: [16]}, leader=7)
    with pytest.raises(InvalidMoveError):
        solve(ok, {0: [(16, 3)]})


def test_every_refusal_is_a_rule_error():
    for args in ([None, {}], [[1, 2, 3], {}], [[["P9"], ["P1"], ["P2"]], {0: ["sixteen"]}],
                 [[["P9"], ["P1"], ["P2"]], {0: [None]}], [[["P9"], ["P1"], ["P2"]], {"a": [16]}]):
        with pytest.raises(RuleError):
            solve(*args)


# ---- reasons ------------------------------------------------------------------------------------------

def test_reason_card_already_won_by_another_seat():
    """Shows "crew.solver.cutoff"."""
    hands = [["B1"], ["B2"], ["B3"], ["B4"]]
    played = [Trick(0, ["P9", "P1", "P2", "P3"])]
    sol = solve(hands, {1: [16]}, played=played)  # P3 went to seat 0
    assert sol.winnable is False
    assert isinstance(sol.reason, Violation)
    assert sol.reason.rule == "crew.solver.cutoff"
    assert str(sol.reason) == sol.reason.message
    assert "pink 3" in str(sol.reason) and "seat 1 has" in str(sol.reason)
    assert "ピンク3" in sol.reason.text("ja")


def test_reason_card_in_no_hand():
    """Shows "crew.solver.cutoff"."""
    hands = [["P9", "B1"], ["P1", "B2"], ["P2", "B3"], ["P4", "B4"]]
    sol = solve(hands, {2: [16]})  # nobody holds the pink 3
    assert sol.winnable is False
    assert sol.reason.code == "CREW_SOLVER_CARD_OUT_OF_PLAY"
    assert "pink 3" in str(sol.reason) and "#16" in str(sol.reason)


def test_reason_forced_wins_make_win_no_tricks_impossible():
    hands = deal(4, 1)
    captain = captain_of(hands)
    sol = solve(hands, {captain: [74]}, captain=captain)  # the captain holds submarine 4
    assert sol.winnable is False and sol.nodes == 0
    assert sol.reason.code == "CREW_SOLVER_FORCED_WINS"
    assert "submarine 4" in str(sol.reason)


def test_single_impossible_task_names_it():
    """Shows "crew.solver.impossible"."""
    # seat 1 must win a trick using a 6 but the only 6 it holds is lower than every 6-colour card led
    hands = [["B9", "B8"], ["B6", "G1"], ["B7", "G2"], ["B5", "G3"]]
    sol = solve(hands, {1: [9]}, leader=0)
    oracle = naive_solve(hands, {1: [9]}, leader=0)
    assert sol.winnable is False and oracle.winnable is False
    assert sol.reason.rule == "crew.solver.impossible" and sol.reason.code == "CREW_SOLVER_NO_LINE"
    assert "#9" in str(sol.reason) and "seat 2" in str(sol.reason)


def test_reason_pair_of_tasks_in_conflict():
    """Shows "crew.solver.impossible": each task is possible alone, the pair is not."""
    hands = [["P9", "B1"], ["P1", "B2"], ["P2", "B3"], ["P3", "B4"]]
    tasks = {0: [79], 3: [82]}  # seat 0: the first trick; seat 3: only the first trick
    sol = solve(hands, tasks, leader=0)
    assert sol.winnable is False
    assert naive_solve(hands, tasks, leader=0).winnable is False
    assert sol.reason.code == "CREW_SOLVER_PAIR"
    assert "#79" in str(sol.reason) and "#82" in str(sol.reason)
    assert "両立できません" in sol.reason.text("ja")


def test_solution_verdict_in_both_languages():
    hands = [["P9"], ["P1"], ["P2"], ["P3"]]
    sol = solve(hands, {0: [16]})
    assert isinstance(sol, Solution) and sol and sol.nodes >= 1
    assert sol.verdict("en").startswith("Winnable") and "達成可能" in sol.verdict("ja")
    bad = solve(hands, {1: [16]})
    assert not bad and bad.verdict("en").startswith("Not winnable") and "達成不可能" in bad.verdict("ja")


# ---- submarine bounds, partner cards, and the strength regression ------------------------------------------

def test_forced_wins_match_submarines_against_higher_ones():
    """A submarine wins its trick unless another seat plays a higher one to it: S1, S2, S3 against a lone
    S4 leave two sure wins (the old bound, "above every other submarine", saw none)."""
    from toolkit.crew.solver import card_code, forced_submarines, forced_wins

    def mask(*names):
        return sum(1 << card_code(n) for n in names)

    hands = [mask("S1", "S2", "S3"), mask("S4", "B1", "B2"), mask("B3", "B4", "B5"), mask("B6", "B7", "B8")]
    assert forced_wins(0, hands, 3) == 2
    forced, covers = forced_submarines(0, hands, 3)
    assert forced == [card_code("S1"), card_code("S2")]  # S3 is the one S4 covers
    assert covers == [card_code("S4")]
    # two higher submarines in two hands cover two
    hands = [mask("S1", "S2", "B9"), mask("S3", "B1", "B2"), mask("S4", "B4", "B5"), mask("B6", "B7", "B8")]
    assert forced_wins(0, hands, 3) == 0
    # a card that may stay unplayed (three players: hand larger than the tricks left) proves nothing
    assert forced_wins(0, [mask("S4", "B1"), mask("B2"), mask("B3")], 1) == 0


def test_only_the_first_trick_is_impossible_with_three_uncovered_submarines():
    """Shows "crew.solver.cutoff": #82 "win only the first trick" with S1 S2 S3 against one S4."""
    hands = [["S1", "S2", "S3"], ["S4", "B1", "B2"], ["B3", "B4", "B5"], ["B6", "B7", "B8"]]
    sol = solve(hands, {0: [82]}, leader=1, captain=1)
    assert sol.winnable is False and sol.nodes == 0
    assert sol.reason.code == "CREW_SOLVER_FORCED_WINS"
    assert "submarine 4" in str(sol.reason) and "at least 2" in str(sol.reason)
    assert naive_solve(hands, {0: [82]}, leader=1, captain=1).winnable is False


def test_no_submarines_is_impossible_holding_the_top_one():
    hands = [["S4", "B1", "B2"], ["S1", "B3", "B4"], ["G1", "G2", "G3"], ["Y1", "Y2", "Y3"]]
    sol = solve(hands, {0: [57]}, leader=0)  # win no submarines
    assert sol.winnable is False and sol.nodes == 0
    assert sol.reason.code == "CREW_SOLVER_FORCED_WINS"
    assert naive_solve(hands, {0: [57]}, leader=0).winnable is False


def test_a_submarine_above_the_owners_is_out_of_reach():
    """#53 "win submarine 2 and no other": seat 0 holds only S1, so a trick with S2 never goes to it."""
    hands = [["S1", "B1", "B2"], ["S2", "B3", "B4"], ["G1", "G2", "G3"], ["Y1", "Y2", "Y3"]]
    sol = solve(hands, {0: [53]}, leader=1)
    assert sol.winnable is False and sol.nodes == 0
    assert sol.reason.code == "CREW_SOLVER_SUB_OUT_OF_REACH"
    assert "submarine 2" in str(sol.reason) and "潜水艦" in sol.reason.text("ja")
    assert naive_solve(hands, {0: [53]}, leader=1).winnable is False
    # with S3 the owner can take S2 (and then holds no other submarine to win)
    hands[0][0] = "S3"
    hands[1][0] = "S2"
    assert solve(hands, {0: [53]}, leader=1).winnable is naive_solve(hands, {0: [53]}, leader=1).winnable


def test_win_an_8_with_a_4_needs_an_8_that_can_share_the_trick():
    """#13: the only 8 another seat holds is the green 8, which beats the owner's green 4 in green and
    cannot be in a trick a 4 of another colour wins; the owner's own 8 cannot be in its winning trick."""
    hands = [["G4", "B8"], ["G8", "B1"], ["G1", "B2"], ["G2", "B3"]]
    sol = solve(hands, {0: [13]}, leader=0)
    assert sol.winnable is False and sol.nodes == 0
    assert naive_solve(hands, {0: [13]}, leader=0).winnable is False
    # a yellow 8 elsewhere, discarded by a seat void in green, makes it possible
    hands = [["G4", "B8"], ["Y8", "B1"], ["G1", "B2"], ["G2", "B3"]]
    sol = solve(hands, {0: [13]}, leader=0)
    assert sol.winnable is True
    assert_line_wins(hands, {0: [13]}, sol, leader=0)


@st.composite
def submarine_positions(draw):
    """Small four-player positions with every submarine dealt and a submarine, trick-count or
    win-with task: the positions the submarine bounds and the partner check cut."""
    per_seat = draw(st.integers(2, 4))
    colour = draw(st.permutations(range(36)))[: 4 * per_seat - 4]
    cards = draw(st.permutations(list(colour) + [36, 37, 38, 39]))
    hands = [[_NAMES[c] for c in cards[s * per_seat:(s + 1) * per_seat]] for s in range(4)]
    ids = draw(st.lists(st.sampled_from([13, 52, 53, 55, 56, 57, 58, 51, 74, 79, 81, 82, 84, 12, 14]),
                        min_size=1, max_size=2, unique=True))
    tasks: dict[int, list] = {}
    for task_id in ids:
        tasks.setdefault(draw(st.integers(0, 3)), []).append(task_id)
    return hands, tasks, draw(st.integers(0, 3)), draw(st.integers(0, 3))


def _compare_many(strategy, examples):
    compared = []

    @settings(max_examples=examples, deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(strategy)
    def run(position):
        compared.append(check_against_oracle(position))

    run()
    # the oracle must have finished most of them, or the agreement would say little
    assert sum(compared) >= 0.5 * len(compared), (sum(compared), len(compared))
    return sum(compared)


def test_submarine_bounds_agree_with_the_oracle():
    _compare_many(submarine_positions(), 300)


# Deals from benchmarks/crew_solver.py (seed, task, seat) that the first solver could not decide within a
# second; each is now found within the node budget (node counts are deterministic: this is the
# solver's strength, not its speed). A change that makes the search weaker fails here.
HARD_DEALS = [(121, 32, 0, 10_000), (87, 32, 3, 15_000), (92, 15, 3, 10_000), (194, 15, 2, 2_000),
              (24, 80, 2, 15_000), (12, 49, 0, 5_000), (6, 17, 3, 60_000), (64, 82, 0, 1), (136, 81, 2, 1),
              # found by the limited-discrepancy slice of the portfolio (68k / 31k nodes without it)
              (130, 15, 2, 15_000),
              # "a trick totalling more than 28": found by the planned-trick hints (954k nodes without)
              (100, 48, 0, 5_000)]


@pytest.mark.parametrize("seed,task_id,seat,budget", HARD_DEALS)
def test_hard_benchmark_deals_are_decided_within_their_node_budget(seed, task_id, seat, budget):
    """Strength pinned on the slowest benchmark deals (node counts are deterministic)."""
    hands = deal(4, seed)
    captain = captain_of(hands)
    sol = solve(hands, {seat: [task_id]}, captain=captain, node_limit=budget)
    assert sol.winnable is not None, (seed, task_id, sol.nodes)
    if sol.winnable:
        assert_line_wins(hands, {seat: [task_id]}, sol, captain, captain)


@st.composite
def interacting_positions(draw):
    """Small four-player positions with two or three tasks that settle cards or tricks for one another
    (captures, "no 9s", "only the first trick", "the last trick"...): the cross-task inferences (cards
    another seat must win, tricks a seat may not win, one trick claimed twice) must stay sound."""
    per_seat = draw(st.integers(2, 4))
    cards = draw(st.permutations(range(40)))[: 4 * per_seat]
    hands = [[_NAMES[c] for c in cards[s * per_seat:(s + 1) * per_seat]] for s in range(4)]
    ids = draw(st.lists(st.sampled_from([16, 17, 18, 27, 29, 31, 32, 36, 45, 51, 52, 53, 55, 56, 57, 64, 66,
                                         67, 22, 41, 73, 76, 79, 80, 81, 82, 83, 84, 1, 2, 4, 5, 74, 75, 85,
                                         86, 88, 89, 9, 11, 24, 38, 46, 96]),
                        min_size=2, max_size=3, unique=True))
    captain = draw(st.integers(0, 3))
    same_seat = draw(st.booleans())  # one seat's tasks meet in its trick budget
    tasks: dict[int, list] = {}
    for task_id in ids:
        owner = 0 if same_seat else draw(st.integers(0, 3))
        if task_id in CAPTAIN_COMPARISON and owner == captain:
            owner = (owner + 1) % 4
        tasks.setdefault(owner, []).append(task_id)
    return hands, tasks, draw(st.integers(0, 3)), captain


def test_cross_task_inferences_agree_with_the_oracle():
    _compare_many(interacting_positions(), 600)


def test_two_seats_cannot_both_win_the_last_trick():
    """Shows "crew.solver.impossible": #76 (seat 1: the last trick) and #36 (seat 0: the green 2 in the
    last trick) claim one trick for two seats; the search sees it before playing a card."""
    hands = deal(4, 4)
    captain = captain_of(hands)
    sol = solve(hands, {1: [76], 0: [36], 3: [29]}, captain=captain)
    assert sol.winnable is False and sol.nodes == 0
    assert sol.reason.code == "CREW_SOLVER_PAIR"
    assert "#76" in str(sol.reason) and "#36" in str(sol.reason)


def test_trick_plan_picks_the_cheapest_trick_that_reaches_the_total():
    """The planned trick of the single-trick hints (seed 100, "more than 28" for seat 0): seat 0 plays B6
    and the three others, once void in blue, discard G9, P9 and Y7 (31). Of the plans above 28 it needs the
    fewest cards shed (seat 1's B9, seat 2's B2 B5, seat 3's B7 B8: five; B4 needs five too but reaches only
    29), and it keeps exactly one card a seat."""
    hands = [sum(1 << card_code(c) for c in h) for h in deal(4, 100)]
    keep, shed = solver_module._trick_plan(0, hands, solver_module.ALL_COLOUR_CARDS, (">", 28))
    kept = {solver_module._NAME[c] for c in range(40) if keep >> c & 1}
    assert "B6" in kept and len(kept) == 4
    assert {solver_module._NAME[c] for c in range(40) if shed >> c & 1} == {"B9", "B2", "B5", "B7", "B8"}
    total = sum(solver_module._VALUE[card_code(c)] for c in kept)
    assert total > 28
    # nothing reaches a total above 36: no plan
    assert solver_module._trick_plan(0, hands, solver_module.ALL_COLOUR_CARDS, (">", 36)) is None
    # "every card below 7": any fitting trick will do, and it costs nothing when every seat can follow
    low = sum(1 << c for c in range(36) if solver_module._VALUE[c] < 7)
    keep, shed = solver_module._trick_plan(0, hands, low, ("fit", 0))
    assert all(solver_module._VALUE[c] < 7 for c in range(40) if keep >> c & 1)


def test_own_low_card_needs_the_others_void_in_its_colour():
    """The owner wins its own card only as the trick's winner: every seat without a lower card of that
    colour must first be void in it, playing each higher card in a trick of its own, and must still hold a
    card of another colour (not a submarine) to discard."""
    blocked = solver_module._own_card_blocked

    def mask(*names):
        return sum(1 << card_code(n) for n in names)

    b2 = mask("B2")
    # seat 1 holds B6 B8 and no lower blue: two tricks to shed them, so B2 can win the third trick at best
    hands = [mask("B2", "G1", "G2"), mask("B6", "B8", "Y3"), mask("B1", "P4", "P5")]
    assert blocked(0, hands, b2, 2)
    assert not blocked(0, hands, b2, 3)
    # a seat with a lower blue can always follow low
    assert not blocked(0, [mask("B2", "G1"), mask("B1", "B6")], b2, 2)
    # a seat with only higher blues and submarines can never let B2 win
    assert blocked(0, [mask("B2", "G1", "G2"), mask("B6", "S1", "S2")], b2, 3)
    # the solver on task 33 ("win the pink 1 and the green 7"), checked by the naive oracle: with seat 1
    # holding P6 P8 and a yellow, P1 wins the last trick; holding P6 P8 P9, it never can
    winnable = [["P1", "G7", "G1"], ["P6", "P8", "Y3"], ["G2", "Y1", "Y2"], ["B1", "B2", "G3"]]
    hopeless = [["P1", "G7", "G1"], ["P6", "P8", "P9"], ["G2", "Y1", "Y2"], ["B1", "B2", "G3"]]
    for named, verdict in ((winnable, True), (hopeless, False)):
        fast, slow = solve(named, {0: [33]}), naive_solve(named, {0: [33]})
        assert fast.winnable is slow.winnable is verdict
        if verdict:
            assert_line_wins(named, {0: [33]}, fast, 0, 0)
        else:
            assert fast.nodes == 0  # seen before the first card
            assert fast.reason.code == "CREW_SOLVER_OWN_CARD_NO_DISCARD"
    # three players (seat 1 keeps a spare card): Y3 could be discarded, but P6 P8 P9 take all three tricks
    late = [["P1", "G7", "G1"], ["P6", "P8", "P9", "Y3"], ["G2", "Y1", "Y2"]]
    fast = solve(late, {0: [33]})
    assert fast.winnable is naive_solve(late, {0: [33]}).winnable is False
    assert fast.reason.code == "CREW_SOLVER_OWN_CARD_LATE" and fast.reason.rule == "crew.solver.cutoff"
    assert "pink 6, pink 8, pink 9" in str(fast.reason) and "ピンク6" in fast.reason.text("ja")
