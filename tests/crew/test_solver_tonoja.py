"""Two players: TONOJA's columns in the double-dummy solver (``solve(..., columns=...)``), its SAT clauses and
the naive oracle — checked against each other and against the engine itself (every line replayed with
``ENGINE.legal_moves``: a face-down card is played only once the trick of the card above it is over)."""

from __future__ import annotations

import functools
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from tests.crew.test_coach import _engine_games
from tests.crew.test_crew_bots import advance
from tests.crew.helpers import replay_alternative
from toolkit.core import InvalidMoveError, RuleError
from toolkit.crew.cards import Card, deal_tonoja
from toolkit.crew.engine import ENGINE, Column, PlayCard
from toolkit.crew.solver import _engine_status, naive_solve, prepare, solve
from toolkit.crew.tasks import CAPTAIN_COMPARISON, TASKS

P = Card.parse
_NAMES = [f"{'BGYP'[i // 9]}{i % 9 + 1}" if i < 36 else f"S{i - 35}" for i in range(40)]
ORACLE_NODES = 6_000


@functools.lru_cache(maxsize=1)
def _play_state():
    """A two-player engine state in its play phase (its hands, columns and tasks are replaced per test)."""
    s = ENGINE.new_state(0, players=2, mission=1)
    while s.phase in ("allocate", "predict"):
        s = ENGINE.apply(s, ENGINE.legal_moves(s)[0])
    return s


def engine_state(hands, columns, leader):
    """The engine's own state for an endgame: seats 0 and 1 hold ``hands[0]``/``hands[1]``, TONOJA's cards lie
    in ``columns`` ((face_down, face_up) pairs) and, uncovered, as single face-up cards. No tasks: the
    engine only checks the play (the tasks are judged by the engine's judges below)."""
    paired = {c for pair in columns for c in pair}
    cols = [Column(P(down), P(up)) for down, up in columns]
    cols += [Column(None, P(c)) for c in hands[2] if c not in paired]
    return replace(_play_state(), hands=(tuple(sorted(P(c) for c in hands[0])),
                                         tuple(sorted(P(c) for c in hands[1])), ()),
                   columns=tuple(cols), tasks=(), owners=(), predictions=(), statuses=(), memos=(),
                   leader=leader, trick=(), tricks=(), comms=(), sent=())


def replay_through_engine(hands, columns, leader, line):
    """Every card of ``line`` is a legal move of the engine when it is played (leaders included)."""
    state = engine_state(hands, columns, leader)
    for trick in line:
        assert trick.leader == state.leader
        for card in trick.cards:
            legal = [m.card for m in ENGINE.legal_moves(state) if isinstance(m, PlayCard)]
            assert card in legal, (trick, card, legal, state.columns)
            state = ENGINE.apply(state, PlayCard(card))
    return state


def assert_line_wins(hands, columns, tasks, solution, leader, captain):
    assert solution.winnable is True
    replay_through_engine(hands, columns, leader, solution.line)
    last = min(len(h) for h in hands)
    for seat, ids in tasks.items():
        for task_id in ids:
            prediction = None
            if isinstance(task_id, tuple):
                task_id, prediction = task_id
            if TASKS[task_id].needs_prediction and prediction is None:
                prediction = solution.predictions[(seat, task_id)]
            assert _engine_status(task_id, seat, list(solution.line), 3, captain, prediction, last) == "done"


@st.composite
def tonoja_endgames(draw):
    """Two players with 1-4 cards each, TONOJA with as many or one more, one to three of its cards face down."""
    per_seat = draw(st.integers(1, 4))
    extra = 1 if per_seat == 1 else draw(st.integers(0, 1))    # (a column needs two cards)
    cards = [_NAMES[c] for c in draw(st.permutations(range(40)))[: 3 * per_seat + extra]]
    hands = [cards[:per_seat], cards[per_seat:2 * per_seat], cards[2 * per_seat:]]
    tonoja = hands[2]
    n_columns = draw(st.integers(1, min(3, len(tonoja) // 2)))
    columns = [(tonoja[2 * i], tonoja[2 * i + 1]) for i in range(n_columns)]
    captain = draw(st.integers(0, 1))
    leader = draw(st.integers(0, 2))
    ids = draw(st.lists(st.integers(1, 96), min_size=1, max_size=2, unique=True))
    tasks: dict[int, list] = {}
    for task_id in ids:
        owner = draw(st.integers(0, 2))
        if task_id in CAPTAIN_COMPARISON and owner == captain:
            owner = 1 - captain
        item = (task_id, draw(st.integers(0, per_seat))) if TASKS[task_id].needs_prediction else task_id
        tasks.setdefault(owner, []).append(item)
    return hands, columns, tasks, leader, captain


def check(position, method="auto") -> bool:
    hands, columns, tasks, leader, captain = position
    fast = solve(hands, tasks, leader=leader, captain=captain, columns=columns, method=method)
    assert fast.winnable is not None
    if fast.winnable:
        assert_line_wins(hands, columns, tasks, fast, leader, captain)
    oracle = naive_solve(hands, tasks, leader=leader, captain=captain, node_limit=ORACLE_NODES, columns=columns)
    if oracle.winnable is None:
        return False
    assert fast.winnable == oracle.winnable, position
    if oracle.winnable:
        assert_line_wins(hands, columns, tasks, oracle, leader, captain)
    return True


@pytest.mark.parametrize("method", ["auto", "sat"])
def test_agrees_with_the_oracle_and_the_engine_on_tonoja_endgames(method):
    compared = []

    @settings(max_examples=250, deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(tonoja_endgames())
    def run(position):
        compared.append(check(position, method))

    run()
    assert sum(compared) >= 0.7 * len(compared), (sum(compared), len(compared))


#: the single-card capture tasks: "Win the pink 3 / yellow 1 / blue 4 / green 6."
_CAPTURES = {16: "P3", 17: "Y1", 18: "B4", 19: "G6"}


@st.composite
def covered_blockers(draw):
    """A real player must win a card of its own while TONOJA holds a higher card of its colour face down:
    the follow-suit bounds must leave TONOJA out (``bounds.free_seat``)."""
    task, target = draw(st.sampled_from(sorted(_CAPTURES.items())))
    higher = draw(st.sampled_from([f"{target[0]}{v}" for v in range(int(target[1]) + 1, 10)]))
    per_seat = draw(st.integers(1, 3))
    rest = [c for c in _NAMES if c not in (target, higher)]
    cards = [rest[i] for i in draw(st.permutations(range(len(rest))))[: 3 * per_seat]]
    owner = draw(st.integers(0, 1))
    hands = [cards[:per_seat - 1], cards[per_seat - 1:2 * per_seat - 1], cards[2 * per_seat - 1:3 * per_seat - 1]]
    hands[owner].append(target)
    hands[1 - owner].append(cards[-1])
    hands[2] += [higher]
    columns = [(higher, hands[2][0])]
    return hands, columns, {owner: [task]}, draw(st.integers(0, 2)), 0


def test_covered_higher_cards_agree_with_the_oracle():
    @settings(max_examples=150, deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(covered_blockers())
    def run(position):
        assert check(position)

    run()


# ---- the old blind spot: a line through a face-down card ---------------------------------------------------

BLIND_SPOT = dict(hands=[["Y9", "G1"], ["G9", "S1"], ["Y1", "B9"]], columns=[("Y1", "B9")],
                  tasks={0: [17]}, leader=0, captain=0)   # task 17: "Win the yellow 1."


def test_a_win_only_through_a_face_down_card_is_no_win():
    """Seat 0 must win Y1, which lies face down under TONOJA's B9. As one hand, TONOJA follows seat 0's Y9
    lead with Y1 at once: the old verdict "winnable". With the column TONOJA plays B9 first and Y1 in the
    second trick, which seat 1 wins with S1 or G9 whatever seat 0 does: not winnable."""
    b = BLIND_SPOT
    old = solve(b["hands"], b["tasks"], leader=b["leader"], captain=b["captain"])
    assert old.winnable is True and old.line[0].cards[2] == P("Y1")
    with pytest.raises(AssertionError):   # that line does not replay through the engine
        replay_through_engine(b["hands"], b["columns"], b["leader"], old.line)
    for method in ("auto", "search", "sat"):
        new = solve(b["hands"], b["tasks"], leader=b["leader"], captain=b["captain"], columns=b["columns"],
                    method=method)
        assert new.winnable is False, method
    assert naive_solve(b["hands"], b["tasks"], leader=b["leader"], captain=b["captain"],
                       columns=b["columns"]).winnable is False
    # with Y1 face up (under nothing) the win is real, and replays
    free = solve(b["hands"], b["tasks"], leader=0, captain=0, columns=[])
    assert free.winnable is True


def test_a_covered_higher_card_does_not_block_an_own_card():
    """Seat 0 must win its own B4; TONOJA holds B6, but face down under G3, so it plays G3 on the B4 lead.
    The bound "a seat with only higher cards of the colour must play them first" does not hold for TONOJA
    (the search and the SAT path both said lost before ``bounds.free_seat``)."""
    hands, columns, tasks = [["B4"], ["Y5"], ["B6", "G3"]], [("B6", "G3")], {0: [18]}   # 18: "Win the blue 4."
    for method in ("search", "sat"):
        sol = solve(hands, tasks, leader=0, columns=columns, method=method)
        assert sol.winnable is True, method
        assert_line_wins(hands, columns, tasks, sol, 0, 0)
    assert naive_solve(hands, tasks, leader=0, columns=columns).winnable is True
    # B6 face up: TONOJA must follow with it, and the B4 is lost (the bound holds again)
    assert solve(hands, tasks, leader=0, columns=[("G3", "B6")]).winnable is False


def test_full_tonoja_deals_give_lines_that_replay_through_the_engine():
    """Whole two-player deals (``deal_tonoja``): every winning line replays through the engine."""
    found = 0
    for seed in range(12):
        hands, columns = deal_tonoja(seed)
        tonoja = [c for pair in columns for c in pair]
        task = (17, 18, 19, 16, 33, 28)[seed % 6]
        sol = solve([list(hands[0]), list(hands[1]), tonoja], {seed % 3: [task]}, leader=0, captain=0,
                    columns=columns, node_limit=200_000)
        assert sol.winnable is not None
        if sol.winnable:
            found += 1
            replay_through_engine([hands[0], hands[1], tonoja], columns, 0, sol.line)
    assert found >= 4


# ---- the coach at two players -------------------------------------------------------------------------------

def _two_player_games(count):
    """(state at the first card, final state) of seeded random two-player games of mission 3 that failed
    without the distress signal."""
    return _engine_games(count, players=2, seeds=300)


def test_post_mortem_at_two_players_respects_the_columns():
    """The alternative line replays through the engine (from the real state, columns and all) to success;
    every review is made with TONOJA's columns as dealt."""
    from toolkit.crew import post_mortem

    checked = 0
    for start, final in _two_player_games(8):
        columns = [(c.face_down, c.face_up) for c in start.columns]
        hands = [list(start.hands[0]), list(start.hands[1]), [c for pair in columns for c in pair]]
        tasks = {}
        for t, o in zip(start.tasks, start.owners):
            tasks.setdefault(o, []).append(t)
        tricks = list(final.tricks) + ([(final.leader, list(final.trick))] if final.trick else [])
        pm = post_mortem(hands, tasks, tricks, leader=start.leader, captain=start.captain, node_limit=200_000,
                         columns=columns)
        assert len(pm.verdicts) == sum(len(t[1]) if isinstance(t, tuple) else len(t.cards) for t in tricks)
        if pm.lost_after is None:
            continue
        t, _ = pm.lost_after
        assert replay_alternative(start, final.tricks[:t], pm.alternative).phase == "success", pm.explain()
        checked += 1
    assert checked >= 3


def test_allocation_review_at_two_players_takes_the_columns():
    from toolkit.crew import allocation_review

    b = BLIND_SPOT
    review = allocation_review(b["hands"], b["tasks"], leader=0, captain=0, rule="any", columns=b["columns"])
    verdicts = {tuple(a.items()): w for a, w in review.allocations}
    assert verdicts[((0, (17,)),)] is False          # only through the face-down Y1
    blind = allocation_review(b["hands"], b["tasks"], leader=0, captain=0, rule="any")
    assert {tuple(a.items()): w for a, w in blind.allocations}[((0, (17,)),)] is True


# ---- bad input ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("columns, error, words", [
    ("Y1 B9", TypeError, "columns"),
    ({"Y1": "B9"}, TypeError, "columns"),
    (5, TypeError, "columns"),
    ([("Y1",)], TypeError, "columns[0]"),
    ([("Y1", "B9", "G9")], TypeError, "columns[0]"),
    ([("Y1", "B3")], InvalidMoveError, "B3"),           # not TONOJA's
    ([("Y1", "B9"), ("B9", "Y1")], InvalidMoveError, "two places"),
    ([("Y1", "X7")], InvalidMoveError, "X7"),
])
def test_bad_columns_are_refused_clearly(columns, error, words):
    b = BLIND_SPOT
    hands = [list(h) for h in b["hands"]]
    before = [list(h) for h in hands]
    with pytest.raises(error) as info:
        solve(hands, b["tasks"], leader=0, captain=0, columns=columns)
    assert words in str(info.value)
    assert isinstance(info.value, (TypeError, RuleError))
    assert hands == before
    from toolkit.crew import post_mortem
    with pytest.raises(error):
        post_mortem(hands, b["tasks"], [], columns=columns)
    assert hands == before


def test_columns_need_two_players_and_a_legal_history():
    four = [["P9", "B1"], ["P1", "B2"], ["P2", "B3"], ["P3", "B4"]]
    with pytest.raises(InvalidMoveError, match="TONOJA"):
        solve(four, {3: [76]}, leader=0, columns=[("B3", "P2")])
    # a face-down card played before the card above it: refused with the engine's own rule
    hands = [["G1"], ["B2"], ["B9"]]
    with pytest.raises(RuleError) as info:
        solve(hands, {0: [17]}, played=[(0, ["Y9", "G9", "Y1"])], columns=[("Y1", "B9")])
    assert "yellow 1" in str(info.value) and info.value.violation.rule == "crew.trick.own-card"
    prepare(hands, {0: [17]}, played=[(0, ["Y9", "G9", "Y1"])])   # the same history without columns passes
    ok = solve([["G1"], ["G9"], ["Y1"]], {}, played=[(0, ["Y9", "B2", "B9"])], columns=[("Y1", "B9")])
    assert ok.winnable is True


# ---- the expert's sampled deals ---------------------------------------------------------------------------

def _advance(seed, mission, moves):
    return advance(seed, 2, mission, moves)


def test_the_expert_s_sampled_deals_keep_the_columns():
    """Each sampled face-down card lies under its column's face-up card: the winning line the expert's solver
    finds in a sampled deal replays through the engine on that very deal (the true state with the sampled
    hidden cards put in), from the middle of a trick too."""
    import numpy as np

    from toolkit.crew.bots.expert import _Solver, solver_tasks
    from toolkit.crew.bots.sampler import sample_deals, tonoja_columns

    replayed = 0
    for seed in range(40):
        state = _advance(seed, 1 + seed % 10, 4 + seed % 13)
        if state.phase != "play":
            continue
        seat = ENGINE.decider(state)
        view = ENGINE.observe(state, seat)
        for hands in sample_deals(view, 3, np.random.default_rng(seed)):
            columns = tonoja_columns(view, hands[2])
            down = iter(c for c, _ in columns)
            cols = tuple(Column(next(down), c.face_up) if c.face_down is not None else c for c in state.columns)
            assert [(c.face_down, c.face_up) for c in cols if c.face_down is not None and c.face_up] == \
                [(d, u) for d, u in columns if u in {c.face_up for c in state.columns}]
            sampled = replace(state, hands=(tuple(sorted(hands[0])), tuple(sorted(hands[1])), ()), columns=cols)
            ok, _, line = _Solver(hands, solver_tasks(view), view).solve(None, 20_000, whole=True)
            if not ok:
                continue
            on_table = len(state.trick)
            s = sampled
            for k, (_, codes) in enumerate(line):
                for card in [Card.parse(_NAMES[c]) for c in codes][on_table if k == 0 else 0:]:
                    if s.phase != "play":      # the engine saw every task done already
                        assert s.phase == "success", (seed, s.phase, s.reason)
                        break
                    legal = [m.card for m in ENGINE.legal_moves(s) if isinstance(m, PlayCard)]
                    assert card in legal, (seed, k, card, legal)
                    s = ENGINE.apply(s, PlayCard(card))
            assert s.phase != "failed"
            replayed += 1
    assert replayed >= 10


def test_the_expert_makes_legal_decisions_for_two_players():
    """Seeded two-player positions of missions 1-10 (TONOJA to play among them): every expert decision is a
    legal move of the deciding seat (``BotTable.ask`` checks it), for TONOJA a face-up card."""

    from toolkit.core.bots import BotTable

    table = BotTable(ENGINE, ["expert", "expert"], 0)
    for bot in table.seats:
        bot.deals, bot.min_deals, bot.budget = 8, 4, 6_000
    decided = tonoja = 0
    for seed in range(40):
        state = _advance(seed, 1 + seed % 10, 4 + seed % 11)
        if state.phase != "play":
            continue
        step = table.step(state)
        if step is None:
            continue
        seat, decision = step
        assert decision.move in ENGINE.legal_moves(state)
        if isinstance(decision.move, PlayCard) and ENGINE.current_player(state) == 2:
            assert decision.move.card in {c.face_up for c in state.columns if c.face_up}
            tonoja += 1
        decided += 1
    assert decided >= 15 and tonoja >= 3


# ---- the strength study's ceiling at two players ----------------------------------------------------------

def test_the_strength_study_has_a_double_dummy_ceiling_at_two_players():
    from toolkit.crew.strength import play_game

    games = [play_game(mission, 2, i, "beginner") for mission in (1, 3, 8) for i in range(3)]
    assert all(g["winnable"] is not None for g in games)          # a verdict, columns and all
    assert all(g["winnable"] for g in games if g["success"])       # the ceiling is a ceiling


def test_the_sampler_lays_every_face_down_card_under_a_column_without_bias():
    """``tonoja_columns``: one sampled card per face-down slot, under that column's face-up card, never a
    card the captain sees; over many deals every unseen card TONOJA may hold lies under every column (the
    column order is drawn, not the order the sampler found the cards in)."""
    import numpy as np

    from toolkit.crew.bots.sampler import knowledge, sample_deals, tonoja_columns

    # a position where the partner has shown a void: the cards of that colour can only lie face down, so
    # the sampler meets them first (a fixed column order would put them under the first columns only)
    for seed in range(60):
        state = _advance(seed, 2, 4 + seed % 9)
        if state.phase != "play" or sum(1 for c in state.columns if c.face_down) < 4:
            continue
        view = ENGINE.observe(state, state.captain)
        know = knowledge(view)
        only_tonoja = [c for c in know.unseen if know.allowed[c] == (2,)]
        if 0 < len(only_tonoja) < sum(1 for c in state.columns if c.face_down):
            break
    else:
        raise AssertionError("no position with a void shown")
    seen = set(know.hand) | set(know.tonoja_up)
    under: dict[Card, set] = {}
    for deal in sample_deals(view, 400, np.random.default_rng(5)):
        columns = tonoja_columns(view, deal[2])
        assert [up for _, up in columns] == [c.face_up for c in state.columns if c.face_down]
        assert not {down for down, _ in columns} & seen
        assert len({down for down, _ in columns}) == len(columns)
        for down, up in columns:
            under.setdefault(up, set()).add(down)
    possible = {c for c in know.unseen if 2 in know.allowed[c]}
    assert all(cards == possible for cards in under.values()), [len(c) for c in under.values()]


def test_columns_as_the_engine_lays_them_out():
    """The engine's ``Column`` s are accepted as they are; a column with one card left covers nothing."""
    state = ENGINE.new_state(1, players=2, mission=1)
    while state.phase in ("allocate", "predict"):
        state = ENGINE.apply(state, ENGINE.legal_moves(state)[0])
    hands = [list(state.hands[0]), list(state.hands[1]),
             [c for col in state.columns for c in (col.face_down, col.face_up)]]
    tasks = {state.owners[0]: [state.tasks[0]]}
    a = solve(hands, tasks, leader=state.leader, captain=state.captain, columns=state.columns)
    b = solve(hands, tasks, leader=state.leader, captain=state.captain,
              columns=[(c.face_down, c.face_up) for c in state.columns])
    assert a.winnable == b.winnable and a.line == b.line
    assert prepare(hands, tasks, columns=[(None, state.columns[0].face_up)]).columns == ()
