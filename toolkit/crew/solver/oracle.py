"""The test oracle :func:`naive_solve`: every legal card at every turn, judged by the engine's own task judges.
"""

from __future__ import annotations

import time
from typing import Any, Iterable, Mapping, Sequence

from toolkit.crew.solver.api import TONOJA_SEAT, Solution, _limits, _task, _uncovered, prepare
from toolkit.crew.solver.encoding import card_of


# ---------------------------------------------------------------------------------------------------
# the oracle
# ---------------------------------------------------------------------------------------------------

def naive_solve(hands: Sequence[Iterable[Any]], tasks: Mapping[int, Iterable[Any]], leader: int | None = None,
                captain: int = 0, played: Sequence[Any] = (), node_limit: int | None = None,
                mission: int | None = None, *, columns: Iterable[Any] | None = None) -> Solution:
    """The test oracle: try every legal card at every turn, judging with the engine's own task judges after
    each trick (``compile_task`` folded over a ``Ledger``: what ``task_status`` does, incrementally). No
    table, no card equivalence, no bounds beyond the engine's own verdicts. Open predictions are tried
    one value at a time. A mission without task cards (``mission``: 8, 12, 21, 23, 27) is judged after each
    trick by the engine's own condition judge (``engine_condition`` over the tricks from the first).
    ``columns`` (two players, as for ``solve``): TONOJA plays and follows from its face-up cards only, as the
    engine's ``CrewState.hand``; a face-down card turns up when the trick of the card above it is over."""
    from itertools import product

    from toolkit.crew.cards import Trick, legal_plays
    from toolkit.crew.tasks import DONE as E_DONE, FAILED as E_FAILED, Ledger, compile_task

    started = time.perf_counter()
    node_limit, _ = _limits(node_limit, None)
    position = prepare(hands, tasks, leader, captain, played, mission, columns=columns)
    cover = {card_of(down): card_of(up) for down, up in position.columns}
    open_ = [(seat, task_id) for seat, task_id, prediction in position.tasks
             if prediction is None and _task(task_id).needs_prediction]
    nodes = 0
    players = position.players

    class Budget(Exception):
        pass

    def search(preds: Mapping[tuple[int, int], int]) -> list | None:
        judges = [compile_task(task_id, seat, players, position.captain,
                               prediction if prediction is not None else preds.get((seat, task_id)))
                  for seat, task_id, prediction in position.tasks]

        def advance(memos, ledger, trick):
            ledger = ledger.add(trick)
            if position.mission is not None:   # the memo: the tricks so far
                return memos + [trick], ledger
            return [judge.step(m, ledger) for judge, m in zip(judges, memos)], ledger

        def verdict(memos):
            if position.mission is not None:
                from toolkit.crew.solver.conditions import engine_condition

                return engine_condition(position.mission, memos, players, position.last)
            states = [m[0] for m in memos]
            if E_FAILED in states:
                return "failed"
            return "done" if all(s == E_DONE for s in states) else "pending"

        def trick(hands_now, leader, memos, ledger, plays) -> list | None:
            nonlocal nodes
            if len(plays) == players:
                t = Trick(leader, list(plays))
                memos2, ledger2 = advance(memos, ledger, t)
                v = verdict(memos2)
                if v == "done":
                    return [t]
                if v == "failed" or ledger2.count - len(position.played) >= position.tricks_left:
                    return None
                rest = trick(hands_now, t.winner, memos2, ledger2, [])
                return None if rest is None else [t] + rest
            seat = (leader + len(plays)) % players
            # (the hand is as at the trick's start: TONOJA plays once a trick, and a card turns up after it)
            hand = _uncovered(hands_now[seat], cover) if cover and seat == TONOJA_SEAT else hands_now[seat]
            for card in legal_plays(hand, plays[0] if plays else None):
                nodes += 1
                if node_limit is not None and nodes > node_limit:
                    raise Budget
                hands_now[seat].remove(card)
                plays.append(card)
                found = trick(hands_now, leader, memos, ledger, plays)
                plays.pop()
                hands_now[seat].append(card)
                if found is not None:
                    return found
            return None

        memos = [judge.start() for judge in judges] if position.mission is None else []
        ledger = Ledger(players, position.last)
        for t in position.played:
            memos, ledger = advance(memos, ledger, t)
        start = verdict(memos)
        if start == "done":
            return []
        if start == "failed" or position.tricks_left == 0:
            return None
        return trick([list(h) for h in position.hand_cards], position.leader, memos, ledger, [])

    try:
        for values in product(*[range(position.last + 1) for _ in open_]):
            preds = dict(zip(open_, values))
            line = search(preds)
            if line is not None:
                return Solution(True, line=line, nodes=nodes, seconds=time.perf_counter() - started,
                                predictions=preds, mission=position.mission)
    except Budget:
        return Solution(None, nodes=nodes, seconds=time.perf_counter() - started, stopped="node_limit",
                        mission=position.mission)
    return Solution(False, nodes=nodes, seconds=time.perf_counter() - started, mission=position.mission)
