"""The public API of the solver: :func:`solve`, :class:`Solution`, :func:`prepare` / :class:`Position` and the
reasons a deal is impossible (:func:`explain_impossible`, :class:`TaskRef`).
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping, Sequence

from toolkit.core.errors import IllegalMoveError, InvalidMoveError
from toolkit.core.checks import one_of
from toolkit.core.explain import Violation

from toolkit.crew.solver.encoding import (ALL_COLOUR_CARDS, COLOURS, COLOUR_MASK, DONE, FAILED, SUB, _COLOUR, _bits,
                                          card_of)
from toolkit.crew.solver.bounds import (_CaptureCards, _CaptureInTrick, _CardCompare, _CardCount, _Judge, _Prediction,
                                        _Relative, _Streak, _TrickCount, _TrickPositions, _WinTrickWith,
                                        _own_card_blocked, _reachable, _task_definition, forced_submarines, make_judge)
from toolkit.crew.solver.search import _Search, _Stop, _winner_pos


# ---------------------------------------------------------------------------------------------------
# the public API
# ---------------------------------------------------------------------------------------------------

@dataclass(frozen=True, eq=False)
class Solution:
    """The answer of :func:`solve` (and of the oracle :func:`naive_solve`).

    ``winnable``: ``True`` (``line`` wins), ``False`` (proved impossible; ``reason`` explains when a simple
    reason exists) or ``None`` (stopped at ``node_limit`` / ``time_limit`` / a stop request: ``stopped``
    says which). ``line`` holds the :class:`~toolkit.crew.cards.Trick` s still to play, ending the moment
    the engine judges every task done. ``predictions`` maps ``(seat, task_id)`` to the number of tricks
    announced for a "win exactly X tricks" task the caller left open. ``nodes`` counts the card plays
    searched plus the SAT solver's conflicts (see :mod:`toolkit.crew.solver.sat`).
    """

    winnable: bool | None
    line: list = field(default_factory=list)
    reason: Violation | None = None
    nodes: int = 0
    seconds: float = 0.0
    stopped: str | None = None
    predictions: Mapping[tuple[int, int], int] = field(default_factory=dict)
    #: the logbook mission whose condition replaced the tasks (8, 12, 21, 23, 27), else None
    mission: int | None = None

    def __bool__(self) -> bool:
        return bool(self.winnable)

    def verdict(self, lang: str = "en") -> str:
        """One sentence: winnable / impossible (and why) / undecided."""
        from toolkit.core.i18n import translate

        kind = "" if self.mission is None else "_CONDITION"
        if self.winnable:
            return translate(f"CREW_SOLVER_WINNABLE{kind}", lang, tricks=len(self.line), nodes=self.nodes,
                             mission=self.mission)
        if self.winnable is False:
            base = translate(f"CREW_SOLVER_IMPOSSIBLE{kind}", lang, nodes=self.nodes, mission=self.mission)
            return base if self.reason is None else f"{base} {self.reason.text(lang)}"
        return translate("CREW_SOLVER_UNDECIDED", lang, nodes=self.nodes,
                         limit=translate(f"CREW_SOLVER_STOP_{(self.stopped or 'stopped').upper()}", lang))


@dataclass(frozen=True)
class Position:
    """Validated solver input, in the solver's int form."""

    players: int
    hands: tuple[int, ...]                     # bit masks
    hand_cards: tuple[tuple[Any, ...], ...]     # engine Cards, as given
    tasks: tuple[tuple[int, int, int | None], ...]  # (seat, task id, prediction or None)
    leader: int
    captain: int
    played: tuple[Any, ...]                     # engine Tricks
    played_codes: tuple[tuple[int, tuple[int, ...]], ...]
    tricks_left: int
    #: the logbook mission when it has a condition instead of task cards (8, 12, 21, 23, 27), else None
    mission: int | None = None
    #: two players: TONOJA's columns as (face-down, face-up) card codes (see ``prepare``); () otherwise
    columns: tuple[tuple[int, int], ...] = ()

    @property
    def last(self) -> int:
        return len(self.played) + self.tricks_left

    @property
    def condition(self) -> str | None:
        """The mission's condition (:mod:`toolkit.crew.solver.conditions`), ``None`` with task cards."""
        from toolkit.crew.solver.conditions import condition_of

        return condition_of(self.mission)


def _bad(message: str) -> InvalidMoveError:
    return InvalidMoveError(message)


def _whole(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _bad(f"{what} must be a whole number, not {value!r}")
    return value


#: TONOJA's seat in a two-player game (the engine's ``TONOJA``): the third hand
TONOJA_SEAT = 2


def _parse_columns(columns: Any, hands: Sequence[Sequence[Any]], played: Sequence[Any]) -> dict[Any, Any]:
    """``{face-down card: face-up card}`` of TONOJA's ``columns`` (see ``prepare``), checked."""
    from toolkit.crew.cards import Card

    if isinstance(columns, (str, bytes, Mapping)) or not isinstance(columns, Iterable):
        raise TypeError(f"columns must be a list of (face_down, face_up) card pairs, not {columns!r:.80}")
    if len(hands) != 3:
        raise _bad(f"columns are TONOJA's (two players: three hands, TONOJA's third), but there are {len(hands)} "
                   f"hands")
    tonoja = set(hands[TONOJA_SEAT])
    for t in played:
        tonoja.update(c for s, c in zip(t.seats, t.cards) if s == TONOJA_SEAT)
    cover: dict[Any, Any] = {}
    seen: set[Any] = set()
    for i, column in enumerate(columns):
        if hasattr(column, "face_down") and hasattr(column, "face_up"):   # the engine's Column
            column = (column.face_down, column.face_up)
        if isinstance(column, (str, bytes)) or not isinstance(column, Sequence) or len(column) != 2:
            raise TypeError(f"columns[{i}] must be a (face_down, face_up) pair of cards, not {column!r:.80}")
        down, up = (None if c is None else Card.parse(c) for c in column)
        for c in (down, up):
            if c is None:
                continue
            if c not in tonoja:
                raise _bad(f"columns[{i}]: {c} is not TONOJA's (seat {TONOJA_SEAT} neither holds nor played it)")
            if c in seen:
                raise _bad(f"columns[{i}]: {c} lies in two places of TONOJA's columns")
            seen.add(c)
        if down is not None and up is not None:   # (a column with one card left covers nothing)
            cover[down] = up
    return cover


def _uncovered(cards: Iterable[Any], cover: Mapping[Any, Any]) -> list[Any]:
    """The cards of TONOJA's ``cards`` it may play: those whose column's face-up card is gone."""
    held = list(cards)
    return [c for c in held if cover.get(c) not in held]


def prepare(hands: Sequence[Iterable[Any]], tasks: Mapping[int, Iterable[Any]], leader: int | None = None,
            captain: int = 0, played: Sequence[Any] = (), mission: int | None = None, *,
            columns: Iterable[Any] | None = None) -> Position:
    """Check and convert the solver's input; every defect is a :class:`RuleError` naming the problem.
    ``mission``: a logbook mission number; only the missions without task cards (their condition replaces
    the tasks, see :mod:`toolkit.crew.solver.conditions`) change anything. ``columns``: two players only
    (three hands, TONOJA's the third): TONOJA's columns as ``(face_down, face_up)`` pairs (or the engine's
    ``Column`` s); a face-down card may be played only in a trick after the one of the card above it."""
    from toolkit.crew.cards import Card, Trick
    from toolkit.crew.solver.conditions import condition_of

    condition = condition_of(mission)

    if isinstance(hands, (str, bytes)) or not isinstance(hands, Sequence):
        raise _bad(f"hands must be a list of hands, one per seat, not {hands!r:.80}")
    players = len(hands)
    if not 3 <= players <= 5:
        raise IllegalMoveError(Violation("CREW_SOLVER_SEATS", "crew.solver.position", seats=players))
    owner_of: dict[int, int] = {}
    parsed: list[tuple[Any, ...]] = []
    for seat, hand in enumerate(hands):
        if isinstance(hand, (str, bytes)):
            from toolkit.crew.cards import cards as parse_cards
            hand = parse_cards(hand)
        if not isinstance(hand, Iterable):
            raise _bad(f"seat {seat}'s hand must be a list of cards, not {hand!r:.80}")
        cards = tuple(Card.parse(c) for c in hand)
        for c in cards:
            if c.index in owner_of:
                raise IllegalMoveError(Violation("CREW_SOLVER_DUPLICATE_CARD", "crew.solver.position", card=c,
                                                 seats=sorted({owner_of[c.index], seat})))
            owner_of[c.index] = seat
        parsed.append(cards)
    masks = tuple(sum(1 << c.index for c in h) for h in parsed)
    captain = _whole(captain, "the captain")
    if not 0 <= captain < players:
        raise _bad(f"the captain must be a seat from 0 to {players - 1}, not {captain}")
    # tricks already played
    if isinstance(played, (str, bytes)) or not isinstance(played, Sequence):
        raise _bad(f"played must be a list of tricks, not {played!r:.80}")
    tricks: list[Any] = []
    seen = dict(owner_of)
    for k, t in enumerate(played):
        if not isinstance(t, Trick):
            if isinstance(t, Mapping):
                t = Trick.from_json(dict(t))
            elif isinstance(t, Sequence) and len(t) == 2 and not isinstance(t, str):
                t = Trick(t[0], t[1])
            else:
                raise _bad(f"played trick {k + 1} must be a Trick or (leader, cards), not {t!r:.80}")
        if len(t.cards) != players:
            raise IllegalMoveError(Violation("CREW_SOLVER_TRICK_SIZE", "crew.solver.position", trick=k + 1,
                                             cards=len(t.cards), seats=players))
        if tricks and t.leader != tricks[-1].winner:
            raise IllegalMoveError(Violation("CREW_SOLVER_WRONG_LEADER", "crew.solver.position", trick=k + 1,
                                             seat=t.leader, winner=tricks[-1].winner))
        for c in t.cards:
            if c.index in seen:
                raise IllegalMoveError(Violation("CREW_SOLVER_CARD_TWICE", "crew.solver.position", card=c,
                                                 trick=k + 1))
            seen[c.index] = -1
        tricks.append(t)
    cover = _parse_columns(columns, parsed, tricks) if columns is not None else {}
    # Each played card must have been legal from the hand its seat held then: the current hand plus
    # everything that seat played from that trick on (the engine's own follow rule says why not).
    from toolkit.crew.cards import why_illegal_play
    held = [list(h) for h in parsed]
    for k in range(len(tricks) - 1, -1, -1):
        t = tricks[k]
        for seat, c in zip(t.seats, t.cards):
            held[seat].append(c)
        for i, (seat, c) in enumerate(zip(t.seats, t.cards)):
            hand = _uncovered(held[seat], cover) if cover and seat == TONOJA_SEAT else held[seat]
            violation = why_illegal_play(hand, c, t.cards[0] if i else None)
            if violation is not None:
                raise IllegalMoveError(violation)
    if leader is None:
        leader = tricks[-1].winner if tricks else captain
    leader = _whole(leader, "the leader")
    if not 0 <= leader < players:
        raise _bad(f"the leader must be a seat from 0 to {players - 1}, not {leader}")
    if tricks and leader != tricks[-1].winner:
        raise IllegalMoveError(Violation("CREW_SOLVER_WRONG_LEADER", "crew.solver.position",
                                         trick=len(tricks) + 1, seat=leader, winner=tricks[-1].winner))
    # tasks
    if not isinstance(tasks, Mapping):
        raise _bad(f"tasks must map a seat to its task ids, like {{0: [17]}}, not {tasks!r:.80}")
    entries: list[tuple[int, int, int | None]] = []
    taken: dict[int, int] = {}
    from toolkit.crew.tasks import TASKS, compile_task
    n_tasks = len(TASKS)
    for seat, ids in tasks.items():
        seat = _whole(seat, "a task's seat")
        if not 0 <= seat < players:
            raise _bad(f"tasks name seat {seat}, but the seats are 0 to {players - 1}")
        if isinstance(ids, (int, str)) or not isinstance(ids, Iterable):
            ids = [ids]
        for item in ids:
            prediction = None
            if isinstance(item, (tuple, list)) and len(item) == 2:
                item, prediction = item
                prediction = _whole(prediction, "a prediction")
            if isinstance(item, str) and item.strip().isascii() and item.strip().isdigit():
                item = int(item.strip())
            task_id = _whole(item, "a task id")
            if not 1 <= task_id <= n_tasks:
                raise _bad(f"there is no task {task_id}: the catalogue runs from 1 to {n_tasks}")
            if task_id in taken:
                raise IllegalMoveError(Violation("CREW_SOLVER_TASK_TWICE", "crew.solver.position", task=TaskRef(task_id),
                                                 seats=sorted({taken[task_id], seat})))
            taken[task_id] = seat
            category, params = _task_definition(task_id)
            if prediction is not None and category != "trick_count_prediction":
                raise _bad(f"task {task_id} takes no prediction")
            # the engine's own allocation checks: the captain cannot take a captain comparison, a
            # prediction must be a possible number of tricks
            compile_task(task_id, seat, players, captain, prediction if prediction is not None else 0)
            entries.append((seat, task_id, prediction))
    if condition is not None and entries:
        raise IllegalMoveError(Violation("CREW_SOLVER_CONDITION_TASKS", "crew.solver.conditions", mission=mission,
                                         tasks=len(entries)))
    tricks_left = min(len(h) for h in parsed)
    return Position(players=players, hands=masks, hand_cards=tuple(parsed), tasks=tuple(entries), leader=leader,
                    captain=captain, played=tuple(tricks),
                    played_codes=tuple((t.leader, tuple(c.index for c in t.cards)) for t in tricks),
                    tricks_left=tricks_left, mission=mission if condition is not None else None,
                    columns=tuple((down.index, up.index) for down, up in cover.items()))


def _engine_status(task_id: int, owner: int, tricks: Sequence[Any], players: int, captain: int,
                   prediction: int | None, last: int) -> str:
    """The engine's verdict on one task after ``tricks`` in a mission whose last trick is ``last``.

    A full mission is judged by ``task_status`` itself. ``task_status`` has no parameter for a shorter
    mission (an endgame typed in by hand), so there the same engine judge is folded over a ``Ledger``
    whose total is ``last`` — the three lines of ``task_status`` with one number changed.
    """
    from toolkit.crew.cards import tricks_in_mission
    from toolkit.crew.tasks import PENDING as ENGINE_PENDING, Ledger, compile_task, task_status

    if last == tricks_in_mission(players):
        return task_status(task_id, owner, list(tricks), players, captain=captain, prediction=prediction)
    judge = compile_task(task_id, owner, players, captain, prediction)
    memo = judge.start()
    ledger = Ledger(players, last)
    for trick in tricks:
        ledger = ledger.add(trick)
        memo = judge.step(memo, ledger)
        if memo[0] != ENGINE_PENDING:
            break
    return memo[0]


#: the public name of :func:`_engine_status`, for views that replay a winning line with each task's status
engine_task_status = _engine_status


def engine_all_done(position: Position, tricks: Sequence[Any], predictions: Mapping[tuple[int, int], int]) -> str:
    """``"done"`` if the engine judges every task done after ``tricks`` (played ones included),
    ``"failed"`` if any has failed, else ``"pending"``. A mission with a condition instead of tasks is
    judged by the engine's condition (done: the last trick played without breaking it)."""
    if position.mission is not None:
        from toolkit.crew.solver.conditions import engine_condition

        return engine_condition(position.mission, tricks, position.players, position.last)
    statuses = [_engine_status(task_id, seat, tricks, position.players, position.captain,
                               prediction if prediction is not None else predictions.get((seat, task_id)),
                               position.last)
                for seat, task_id, prediction in position.tasks]
    if "failed" in statuses:
        return "failed"
    return "done" if all(s == "done" for s in statuses) else "pending"


def _limits(node_limit: Any, time_limit: Any) -> tuple[int | None, float | None]:
    if node_limit is not None:
        node_limit = _whole(node_limit, "node_limit")
        if node_limit < 1:
            raise _bad(f"node_limit must be at least 1, not {node_limit}")
    if time_limit is not None:
        if isinstance(time_limit, bool) or not isinstance(time_limit, (int, float)) or not time_limit > 0:
            raise _bad(f"time_limit must be a positive number of seconds, not {time_limit!r}")
        if time_limit == float("inf"):
            time_limit = None
    return node_limit, time_limit


def _judges_for(position: Position, subset: Sequence[int] | None = None) -> list[_Judge]:
    chosen = position.tasks if subset is None else [position.tasks[i] for i in subset]
    judges = [make_judge(task_id, seat, position.players, position.captain, position.last, prediction)
              for seat, task_id, prediction in chosen]
    if position.mission is not None:
        from toolkit.crew.solver.conditions import make_condition

        judges.append(make_condition(position.condition, position.players, position.captain, position.last))
    if position.columns:
        for judge in judges:
            judge.free_seat = TONOJA_SEAT
    return judges


def _sat_available() -> bool:
    from toolkit.crew.solver import sat

    return sat.AVAILABLE


def _sat_model(position: Position, judges: Sequence[_Judge]) -> Any:
    """The SAT clauses of ``position`` with the tasks of ``judges`` (see :mod:`toolkit.crew.solver.sat`)."""
    from toolkit.crew.solver import sat

    tasks = [(judge.task_id, judge.owner, getattr(judge, "n", None) if isinstance(judge, _Prediction) else None)
             for judge in judges if judge.owner >= 0]   # owner -1: a mission condition, passed on its own
    return sat.CrewModel(position.hands, position.leader, position.played_codes, position.tricks_left,
                         [(owner, task_id, prediction) for task_id, owner, prediction in tasks],
                         position.captain, position.players, condition=position.condition,
                         columns=position.columns)


def _sat_models(position: Position) -> bool:
    """Whether the SAT clauses can express ``position`` (its tasks always; a mission condition sometimes)."""
    if position.mission is None:
        return True
    from toolkit.crew.solver.sat import CrewModel

    return position.condition in CrewModel.CONDITIONS


def _search_position(position: Position, judges: Sequence[_Judge], node_limit: int | None, deadline: float | None,
                     on_progress: Callable[[int], Any] | None = None, stop: threading.Event | None = None,
                     **options: Any) -> tuple[Any, _Search]:
    """(``False`` | line | ``None`` when stopped | ``"failed"`` when a task is already lost, search)."""
    method = options.pop("method", "auto")
    # the SAT clauses model the task cards and the mission conditions (sat.CrewModel.CONDITIONS)
    if method != "search" and _sat_models(position) and _sat_available():
        options["sat_model"] = lambda: _sat_model(position, judges)
        if method == "sat":
            options["sat_after"] = 0
    if position.columns:
        options["columns"] = position.columns
    search = _Search(position.hands, position.leader, judges, len(position.played), position.last,
                     node_limit, deadline, on_progress, stop, **options)
    progress = search.initial_progress(position.played_codes)
    if progress is None:
        return "failed", search
    if position.tricks_left == 0:
        return (() if all(p == DONE for p in progress) else False), search
    try:
        return search.run(progress), search
    except _Stop:
        return None, search


def solve(hands: Sequence[Iterable[Any]], tasks: Mapping[int, Iterable[Any]], leader: int | None = None,
          captain: int = 0, played: Sequence[Any] = (), node_limit: int | None = None,
          time_limit: float | None = None, *, stop: threading.Event | None = None,
          on_progress: Callable[[int], Any] | None = None, method: str = "auto",
          mission: int | None = None, columns: Iterable[Any] | None = None) -> Solution:
    """Was this mission winnable? Search every legal line of play with all hands visible.

    ``hands``: one list of cards (``Card`` or text such as ``"P9"``) per seat; the tricks left are the
    smallest hand size. ``tasks``: ``{seat: [task id, ...]}``; a "win exactly X tricks" task may be given
    as ``(task_id, X)``, or bare to let the solver choose X. ``played``: tricks already played (``Trick`` or
    ``(leader, cards)``), which count for the tasks. ``leader`` defaults to the winner of the last played
    trick, else the captain. ``node_limit`` (card plays) and ``time_limit`` (seconds) bound the search;
    ``stop`` (a ``threading.Event``) ends it early from another thread, ``on_progress(nodes)`` is called
    about every 16k nodes. ``method``: ``"auto"`` (the search, then the SAT solver for a deal it has not
    decided after its first rounds), ``"search"`` (the search alone) or ``"sat"`` (the SAT solver at once;
    needs ``python-sat``). ``mission``: a logbook mission number; for the missions without task cards (8,
    12, 21, 23, 27) give ``tasks={}`` and the solver keeps the mission's condition instead
    (:mod:`toolkit.crew.solver.conditions`; the SAT solver takes over as with tasks); any other mission
    changes nothing. ``columns``: two players with TONOJA (three hands, TONOJA's the third): TONOJA's
    columns as ``(face_down, face_up)`` pairs — as dealt (``deal_tonoja``) or as they lie now, e.g. the
    engine's ``state.columns``; a face-down card is playable (and must be followed with) only from the trick
    after the one in which the card above it was played. Without ``columns`` TONOJA's cards are one hand,
    all playable at once: too optimistic for a real two-player game.

    >>> solve([["B9", "G1"], ["B1", "G9"], ["G2", "B2"]], {}, leader=0, mission=8).winnable   # one 9 each
    True
    >>> hands = [["P9", "B1"], ["P1", "B2"], ["P2", "B3"], ["P3", "B4"]]
    >>> solve(hands, {3: [76]}, leader=0).winnable    # seat 3 wins the last trick with B4
    True
    >>> solve(hands, {1: [76]}, leader=0, method="sat").winnable    # seat 1 can win no trick at all
    False
    """
    started = time.perf_counter()
    node_limit, time_limit = _limits(node_limit, time_limit)
    if not one_of(method, ("auto", "search", "sat")):
        raise _bad(f"method must be 'auto', 'search' or 'sat', not {method!r}")
    if method == "sat" and not _sat_available():
        raise _bad("method 'sat' needs the python-sat package (pip install python-sat)")
    position = prepare(hands, tasks, leader, captain, played, mission, columns=columns)
    if method == "sat" and not _sat_models(position):
        raise _bad(f"method 'sat' has no clauses for mission {mission}'s condition: use 'auto' or 'search'")
    deadline = started + time_limit if time_limit is not None else None
    judges = _judges_for(position)
    result, search = _search_position(position, judges, node_limit, deadline, on_progress, stop, method=method)
    nodes = search.nodes
    if result is None:
        stopped = ("stopped" if stop is not None and stop.is_set() else
                   "node_limit" if node_limit is not None and nodes >= node_limit else "time_limit")
        return Solution(None, nodes=nodes, seconds=time.perf_counter() - started, stopped=stopped,
                        mission=position.mission)
    if result is False or result == "failed":
        # The reason's searches stop a little before the deadline: they check the clock every 1,024 plays,
        # and the verdict must not arrive late because of a bonus.
        reason = explain_impossible(position, judges, already_failed=result == "failed",
                                    budget=max(50_000, 2 * nodes),
                                    deadline=None if deadline is None else deadline - _REASON_MARGIN, stop=stop)
        return Solution(False, reason=reason, nodes=nodes, seconds=time.perf_counter() - started,
                        mission=position.mission)
    line, predictions = _finish_line(position, result)
    return Solution(True, line=line, nodes=nodes, seconds=time.perf_counter() - started, predictions=predictions,
                    mission=position.mission)


#: seconds before a time limit at which the searches for a reason stop (see ``solve``)
_REASON_MARGIN = 0.05


def _finish_line(position: Position, result: Sequence[tuple[int, tuple[int, ...]]]) -> tuple[list, dict]:
    """Turn the search's line into engine Tricks, fix open predictions, cut it where the engine ends the
    mission, and prove it with the engine: every play legal, every task done."""
    from toolkit.crew.cards import Trick, legal_plays

    tricks = [Trick(leader, [card_of(c) for c in cards]) for leader, cards in result]
    predictions: dict[tuple[int, int], int] = {}
    for seat, task_id, prediction in position.tasks:
        category, _ = _task_definition(task_id)
        if category == "trick_count_prediction" and prediction is None:
            predictions[(seat, task_id)] = sum(1 for t in list(position.played) + tricks if t.winner == seat)
    hands = [list(h) for h in position.hand_cards]
    history = list(position.played)
    line: list = []
    cover = {card_of(down): card_of(up) for down, up in position.columns}

    def playable(seat: int) -> list:
        return _uncovered(hands[seat], cover) if cover and seat == TONOJA_SEAT else hands[seat]

    for trick in tricks:
        led = None
        for seat, card in zip(trick.seats, trick.cards):
            if card not in legal_plays(playable(seat), led):
                raise AssertionError(f"solver line plays {card} illegally in {trick}")  # pragma: no cover
            hands[seat].remove(card)
            led = led or card
        history.append(trick)
        line.append(trick)
        verdict = engine_all_done(position, history, predictions)
        if verdict == "done":
            return line, predictions
        if verdict == "failed":  # pragma: no cover - the judge tests make this unreachable
            raise AssertionError(f"the engine judges the solver's line as failed at {trick}")
    # The fast judges may see a task settled before the engine says so (both are sound): any legal
    # continuation keeps it settled, so play on with the lowest legal cards until the engine agrees.
    leader = history[-1].winner if history else position.leader
    if engine_all_done(position, history, predictions) == "done":
        return line, predictions
    while len(line) < position.tricks_left:
        plays = []
        for i in range(position.players):
            seat = (leader + i) % position.players
            card = legal_plays(playable(seat), plays[0] if plays else None)[0]
            hands[seat].remove(card)
            plays.append(card)
        trick = Trick(leader, plays)
        history.append(trick)
        line.append(trick)
        leader = trick.winner
        if engine_all_done(position, history, predictions) == "done":
            return line, predictions
    raise AssertionError("the engine does not confirm the solver's line")  # pragma: no cover


# ---------------------------------------------------------------------------------------------------
# reasons
# ---------------------------------------------------------------------------------------------------

def _task(task_id: int) -> Any:
    from toolkit.crew.tasks import TASKS

    return TASKS[task_id]


@dataclass(frozen=True)
class TaskRef:
    """A task as a message parameter: ``#17 “Win the yellow 1.”`` / ``#17「黄1を取る。」``."""

    id: int

    def text(self, lang: str = "en") -> str:
        words = _task(self.id).text(lang)
        return f"#{self.id} “{words}”" if lang == "en" else f"#{self.id}「{words}」"

    def __str__(self) -> str:
        return self.text("en")


def _root_reason(position: Position, judges: Sequence[_Judge]) -> Violation | None:
    """Why a task is lost before the first trick still to play, from the facts on the table."""
    progress = [j.initial() for j in judges]
    for index, (leader, cards) in enumerate(position.played_codes, start=1):
        tmask = sum(1 << c for c in cards)
        pos, wcard = _winner_pos(cards)
        winner = (leader + pos) % len(cards)
        progress = [p if p in (DONE, FAILED) else j.step(p, index, leader, cards, winner, wcard, tmask)
                    for j, p in zip(judges, progress)]
    live = 0
    for h in position.hands:
        live |= h
    rest = position.tricks_left
    for (seat, task_id, _), judge, p in zip(position.tasks, judges, progress):
        if p == DONE:
            continue
        lost_in_play = p == FAILED or bool(position.played) and _engine_status(
            task_id, seat, position.played, position.players, position.captain,
            _ if _ is not None else 0, position.last) == "failed" and not _task(task_id).needs_prediction
        if not lost_in_play and judge.status(p, len(position.played), rest, live, position.hands) != FAILED:
            continue
        task = TaskRef(task_id)
        forced, covers = forced_submarines(seat, position.hands, rest)
        if forced and not lost_in_play and isinstance(judge, (_CardCount, _CaptureCards)):
            judge.use_forced = False
            try:
                forced = forced if judge.status(p, len(position.played), rest, live, position.hands) != FAILED \
                    else []
            finally:
                judge.use_forced = True
        if isinstance(judge, (_CaptureCards, _CaptureInTrick)):
            won = p[0] if isinstance(p, tuple) else 0
            reach = _reachable(seat, position.hands, live)
            for code in _bits(judge.targets & ~won & live & ~reach):
                return Violation("CREW_SOLVER_SUB_OUT_OF_REACH", "crew.solver.cutoff", task=task, seat=seat,
                                 card=card_of(code))
            gone = [c for c in _bits(judge.targets & ~won) if not live >> c & 1]
            for code in gone:
                for t in position.played:
                    if t.mask >> code & 1 and t.winner != seat:
                        return Violation("CREW_SOLVER_CARD_WON_ELSEWHERE", "crew.solver.cutoff", task=task,
                                         seat=seat, card=card_of(code), winner=t.winner)
            if gone and not lost_in_play and not any(t.mask >> gone[0] & 1 for t in position.played):
                return Violation("CREW_SOLVER_CARD_OUT_OF_PLAY", "crew.solver.cutoff", task=task, seat=seat,
                                 card=card_of(gone[0]))
        if lost_in_play:
            return Violation("CREW_SOLVER_ALREADY_FAILED", "crew.solver.cutoff", task=task, seat=seat,
                             tricks=len(position.played))
        if isinstance(judge, _WinTrickWith) and not position.hands[seat] & judge.win:
            return Violation("CREW_SOLVER_NO_WINNING_CARD", "crew.solver.cutoff", task=task, seat=seat)
        if forced and isinstance(judge, (_TrickCount, _Relative, _TrickPositions, _CardCount, _CaptureCards)):
            mine = [card_of(c) for c in _bits(position.hands[seat] & COLOUR_MASK[SUB])]
            if not covers:
                return Violation("CREW_SOLVER_FORCED_WINS_UNCOVERED", "crew.solver.cutoff", task=task, seat=seat,
                                 cards=mine)
            return Violation("CREW_SOLVER_FORCED_WINS", "crew.solver.cutoff", task=task, seat=seat, cards=mine,
                             covers=[card_of(c) for c in covers], forced=len(forced))
        if isinstance(judge, _CaptureCards):
            won = p[0] if isinstance(p, tuple) else 0
            hands = position.hands
            block = _own_card_blocked(seat, hands, judge.targets & ~won & hands[seat] & ALL_COLOUR_CARDS, rest,
                                      judge.free_seat)
            if block is not None:
                from toolkit.crew.cards import suit_term
                code, other = block
                colour_mask = COLOUR_MASK[_COLOUR[code]]
                higher = [card_of(c) for c in _bits(hands[other] & colour_mask)]
                params = dict(task=task, seat=seat, card=card_of(code), other=other,
                              colour=suit_term(COLOURS[_COLOUR[code]]), cards=higher)
                if hands[other] & ALL_COLOUR_CARDS & ~colour_mask:
                    return Violation("CREW_SOLVER_OWN_CARD_LATE", "crew.solver.cutoff", left=rest, **params)
                params["cards"] = [card_of(c) for c in _bits(hands[other])]
                return Violation("CREW_SOLVER_OWN_CARD_NO_DISCARD", "crew.solver.cutoff", **params)
        if isinstance(judge, (_CardCount, _CardCompare, _CaptureCards)):
            return Violation("CREW_SOLVER_TOO_FEW_CARDS", "crew.solver.cutoff", task=task, seat=seat)
        if isinstance(judge, (_TrickCount, _Streak, _Relative, _TrickPositions)):
            return Violation("CREW_SOLVER_TOO_FEW_TRICKS", "crew.solver.cutoff", task=task, seat=seat, left=rest)
        return Violation("CREW_SOLVER_TASK_LOST", "crew.solver.cutoff", task=task, seat=seat)
    return None


@dataclass(frozen=True)
class _RuleTitle:
    """A rule's title as a message parameter, in the message's language."""

    id: str

    def text(self, lang: str = "en") -> str:
        from toolkit.core.rules import get

        title = get(self.id).title
        return title.get(lang, title["en"])

    def __str__(self) -> str:
        return self.text("en")


#: the wall-clock bound of a reason's search when the caller gives none. The node ``budget`` bounds it too;
#: this only keeps a page responsive on a slow machine (tests that compare reasons raise it: a loaded CI
#: machine must not change a recorded reason).
REASON_SECONDS = 2.0


def explain_impossible(position: Position, judges: Sequence[_Judge], already_failed: bool = False,
                       budget: int = 20_000, deadline: float | None = None,
                       stop: threading.Event | None = None) -> Violation | None:
    """A short, *proved* reason why no line wins, or ``None`` when none is found within ``budget`` nodes.

    First the facts on the table (a task already lost, its card gone, too few tricks or cards left); then
    single tasks ("task 17 cannot be met even on its own") and pairs ("tasks 17 and 79 cannot both be
    met"), each settled like the verdict (the search, then the SAT solver): complete proofs, so a reason
    is never a guess. ``budget``: nodes per subset; ``deadline`` (default: two seconds from now) and
    ``stop`` end the subsets' searches early (no reason then).
    """
    if position.mission is not None:
        from toolkit.crew.solver.conditions import CONDITION_RULES

        rule = CONDITION_RULES[position.condition]
        return Violation("CREW_SOLVER_CONDITION_LOST", rule, mission=position.mission, rule_text=_RuleTitle(rule))
    reason = _root_reason(position, judges)
    if reason is not None:
        return reason
    # (``already_failed`` without a fact to name: the judges saw the tasks clash at once, e.g. "all nine
    # cards of a colour" and "no 8s and no 9s" for one seat; the subsets below name the clash)
    tasks = position.tasks
    if len(tasks) == 1:
        seat, task_id, _ = tasks[0]
        return Violation("CREW_SOLVER_NO_LINE", "crew.solver.impossible", task=TaskRef(task_id), seat=seat)
    deadline = deadline if deadline is not None else time.perf_counter() + REASON_SECONDS
    # Each claim of a reason is proved: "each task can be met on its own" needs a line for every single
    # task, "every pair can be met" one for every pair. A subset left open (budget, deadline) proves
    # nothing, so a reason that needs it is not given.
    def possible(subset: Sequence[int]) -> bool | None:
        if time.perf_counter() >= deadline or (stop is not None and stop.is_set()):
            return None
        # the same portfolio as the verdict's: the search's first round finds most lines at once, and the
        # SAT solver settles the rest (one subset of seed 26 took it 19 k conflicts; the search alone was
        # still open at 20 k plays)
        result, _ = _search_position(position, _judges_for(position, subset), budget, deadline, stop=stop)
        if result is None:
            return None
        return not (result is False or result == "failed")

    singles = [possible([i]) for i in range(len(tasks))]
    for i, (seat, task_id, _) in enumerate(tasks):
        if singles[i] is False:
            return Violation("CREW_SOLVER_ALONE", "crew.solver.impossible", task=TaskRef(task_id), seat=seat)
    if not all(singles):
        return None
    all_pairs_possible = True
    for i in range(len(tasks)):
        for k in range(i + 1, len(tasks)):
            # with two tasks the pair is the whole mission, already proved lost
            pair = possible([i, k]) if len(tasks) > 2 else False
            if pair is False:
                (sa, ta, _), (sb, tb, _) = tasks[i], tasks[k]
                return Violation("CREW_SOLVER_PAIR", "crew.solver.impossible", task_a=TaskRef(ta), seat_a=sa,
                                 task_b=TaskRef(tb), seat_b=sb)
            all_pairs_possible = all_pairs_possible and pair is True
    if len(tasks) > 2 and all_pairs_possible:
        return Violation("CREW_SOLVER_TOGETHER", "crew.solver.impossible", count=len(tasks))
    return None


