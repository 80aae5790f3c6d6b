"""The mission engine: deal, task draw, allocation, predictions, sonar, distress signal, tricks, judging,
retries, the logbook missions and two-player TONOJA.

A :class:`CrewState` is an immutable value; every move is a small frozen dataclass with ``__str__`` and a
parser (``"take 16"``, ``"sonar 2 P9 top"``, ``"play P9"``). ``ENGINE.why_illegal`` explains every
refusal with a rule id; ``ENGINE.transition`` returns the events, each tied to the rule that caused it.

Phases of an attempt::

    allocate -> predict (only with prediction tasks) -> play [-> distress -> play] -> success | failed
    failed --retry--> allocate (or play, for missions without task cards)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from operator import attrgetter
from typing import Any, ClassVar, Mapping

from toolkit.core.chance import Chance
from toolkit.core.checks import check_int, check_seed
from toolkit.core.engine import Engine, check_state
from toolkit.core.errors import IllegalMoveError, InvalidMoveError, InvalidSeatError, InvalidStateError
from toolkit.core.explain import Event, Outcome, Violation
from toolkit.core.i18n import seat_number
from toolkit.crew.cards import (DECK, POSITIONS, Card, Trick, cards, check_players,
                                deal_from, deal_tonoja_from, parse_position, sonar_options,
                                sonar_options_sorted, sonar_pairs_sorted, tricks_in_mission, why_illegal_play,
                                why_illegal_sonar)
from toolkit.crew.conditions import compile_condition
from toolkit.crew.missions import Mission, _mission as _cached_mission, custom, mission as get_mission
from toolkit.crew.tasks import (DONE, FAILED, PENDING, TASKS, Judge, Ledger, compile_task, incompatible,
                                redeal_needed, select_tasks)

S4 = Card("S", 4)
TONOJA = 2  # TONOJA's seat in a two-player game (after the two real players)


# ---- small serialisable helpers ---------------------------------------------------------------------
def _deep_tuple(x):
    return tuple(_deep_tuple(v) for v in x) if isinstance(x, list) else x


class Memos(tuple):
    """The task judges' memos (nested tuples), kept in the state so judging is incremental."""

    def to_json(self):
        return [list(_json_memo(m)) for m in self]

    @classmethod
    def from_json(cls, data):
        if not isinstance(data, list):
            raise InvalidMoveError("memos must be a list")
        return cls(_deep_tuple(m) for m in data)


def _json_memo(m):
    return [(_json_memo(v) if isinstance(v, tuple) else v) for v in m]


@dataclass(frozen=True, slots=True)
class Communication:
    """A sonar communication: ``position`` is ``None`` under currents (not shown)."""

    seat: int
    card: Card
    position: str | None


@dataclass(frozen=True, slots=True)
class Sent:
    """A sonar communication as every seat remembers it: ``trick`` is the number of tricks completed when
    it was made, so what its position says holds for the hand of that moment (the cards still held
    plus those the seat played from then on). Kept for the whole attempt, unlike ``CrewState.comms``."""

    seat: int
    card: Card
    position: str | None
    trick: int


@dataclass(frozen=True, slots=True)
class Passed:
    """A card passed at the distress signal: known to the two seats involved only."""

    giver: int
    receiver: int
    card: Card


@dataclass(frozen=True, slots=True)
class Column:
    """One of TONOJA's seven columns: a face-down card under a face-up card (``None`` once gone)."""

    face_down: Card | None
    face_up: Card | None


@dataclass(frozen=True)
class CrewState:
    players: int                      # 2 (with TONOJA), 3, 4 or 5
    mission: int                      # logbook number; 0 = custom
    timed: bool
    custom: tuple[int, str, str] | None  # mission 0: (target difficulty, communication, allocation)
    chance: Chance
    phase: str                        # allocate, predict, play, distress, success, failed
    attempt: int
    distress_used: bool               # the signal has been flipped for this mission
    comm: str                         # this attempt's communication: normal, currents, rapture, none
    terrain: Card | None              # unfamiliar terrain: the card drawn for this attempt
    hands: tuple[tuple[Card, ...], ...]
    columns: tuple[Column, ...]       # TONOJA (two players); () otherwise
    captain: int
    task_deck: tuple[int, ...]        # undrawn tasks, top first
    tasks: tuple[int, ...]            # face-up tasks, in the order revealed
    owners: tuple[int | None, ...]
    predictions: tuple[int | None, ...]
    turn: int                         # allocation: choices made so far (takes and passes)
    gave_away: bool                   # missions 10/13: the captain gave every task to another player
    sonar_used: tuple[bool, ...]      # per seat (normal/currents)
    tokens: int                       # rapture of the deep: shared tokens left
    comms: tuple[Communication, ...]  # communicated cards still in hand
    any_comm: bool                    # someone communicated this attempt (closes the distress window)
    distress: int                     # 0 none this attempt; +1 pass to the left (clockwise), -1 right
    gifts: tuple[Card | None, ...]    # distress: each seat's chosen card until all have chosen
    leader: int
    trick: tuple[Card, ...]           # the trick on the table
    tricks: tuple[Trick, ...]         # every completed trick of this attempt (the engine keeps all)
    statuses: tuple[str, ...]
    memos: Memos
    time_up: bool
    result: str | None                # None while playing; "success" or "failed" (with its reason)
    reason: str
    max_attempts: int | None
    sent: tuple[Sent, ...] = ()       # every communication of this attempt, in order (see Sent)
    passed: tuple[Passed, ...] = ()   # the distress exchange of this attempt

    @cached_property
    def seats(self) -> int:
        # cached in the instance dict (not a field: not compared, shown or saved), which replace() carries
        # to the next state: the engine reads it several times per move
        return 3 if self.players == 2 else self.players

    @property
    def tonoja(self) -> int | None:
        return TONOJA if self.players == 2 else None

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The cards ``seat`` may play from (TONOJA: its face-up cards)."""
        check_int("seat", seat, 0, len(self.hands) - 1)
        return _hand(self, seat)

    @property
    def attempts_counted(self) -> int:
        """The logbook count: attempts, plus one if the distress signal was used."""
        return self.attempt + (1 if self.distress_used else 0)


# ---- moves ------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class TakeTask:
    task: int

    def __str__(self):
        return f"take {self.task}"


@dataclass(frozen=True)
class PassTask:
    def __str__(self):
        return "pass"


@dataclass(frozen=True)
class AssignTask:
    task: int
    seat: int

    def __str__(self):
        return f"assign {self.task} to {self.seat}"


@dataclass(frozen=True)
class AssignAll:
    seat: int

    def __str__(self):
        return f"assign all to {self.seat}"


@dataclass(frozen=True)
class Predict:
    tricks: int

    def __str__(self):
        return f"predict {self.tricks}"


@dataclass(frozen=True)
class Sonar:
    seat: int
    card: Card
    position: str | None = None

    def __str__(self):
        return f"sonar {self.seat} {self.card}" + (f" {self.position}" if self.position else "")


@dataclass(frozen=True)
class Distress:
    direction: str  # "left" (clockwise, to seat + 1) or "right"

    def __str__(self):
        return f"distress {self.direction}"


@dataclass(frozen=True)
class GiveCard:
    seat: int
    card: Card

    def __str__(self):
        return f"give {self.seat} {self.card}"


@dataclass(frozen=True)
class PlayCard:
    card: Card

    def __str__(self):
        return f"play {self.card}"


@dataclass(frozen=True)
class TimeUp:
    def __str__(self):
        return "time-up"


@dataclass(frozen=True)
class Retry:
    new_tasks: bool = False

    def __str__(self):
        return "retry new" if self.new_tasks else "retry"


_PLAY = tuple(PlayCard(c) for c in DECK)  # indexed by card index: no hash of the card (hot path)
_JUDGES: dict = {}  # compiled task judges by (task, owner, players, captain, prediction)
_SONAR: dict = {}


def _sonar_move(seat: int, card: Card, pos: str | None) -> "Sonar":
    """Shared move objects: legal_moves builds dozens of them per call."""
    key = (seat, card.index, pos)  # the index, not the card: an int hashes in C (hot path)
    move = _SONAR.get(key)
    if move is None:
        move = _SONAR[key] = Sonar(seat, card, pos)
    return move


# Shared allocation and prediction moves, as the card and sonar moves: legal_moves lists them at every
# allocation step, and a frozen dataclass built afresh costs one object.__setattr__ per field.
_TAKE: dict[int, "TakeTask"] = {}
_ASSIGN: dict[int, "AssignTask"] = {}
_ASSIGN_ALL: dict[int, "AssignAll"] = {}
_PREDICT: dict[int, "Predict"] = {}


def _take_move(task: int) -> "TakeTask":
    move = _TAKE.get(task)
    if move is None:
        move = _TAKE[task] = TakeTask(task)
    return move


def _assign_move(task: int, seat: int) -> "AssignTask":
    key = task * 8 + seat   # seats are 0-4, so one int per (task, seat)
    move = _ASSIGN.get(key)
    if move is None:
        move = _ASSIGN[key] = AssignTask(task, seat)
    return move


def _assign_all_move(seat: int) -> "AssignAll":
    move = _ASSIGN_ALL.get(seat)
    if move is None:
        move = _ASSIGN_ALL[seat] = AssignAll(seat)
    return move


def _predict_move(tricks: int) -> "Predict":
    move = _PREDICT.get(tricks)
    if move is None:
        move = _PREDICT[tricks] = Predict(tricks)
    return move


_GIVE: dict = {}


def _give_move(seat: int, card: Card) -> "GiveCard":
    move = _GIVE.get((seat, card))
    if move is None:
        move = _GIVE[(seat, card)] = GiveCard(seat, card)
    return move


MOVE_TYPES = (TakeTask, PassTask, AssignTask, AssignAll, Predict, Sonar, Distress, GiveCard, PlayCard, TimeUp,
              Retry)


def _int(text: str, what: str, raw: str) -> int:
    if not re.fullmatch(r"[0-9]{1,3}", text):
        raise InvalidMoveError(f"not a {what} in {raw!r}: {text!r}")
    return int(text)


def parse_move(text: str):
    """``take 16``, ``pass``, ``assign 16 to 2``, ``assign all to 2``, ``predict 3``,
    ``sonar 2 P9 top``, ``distress left``, ``give 1 B3``, ``play P9``, ``time-up``, ``retry [new]``."""
    if not isinstance(text, str):
        raise InvalidMoveError(f"a move is text such as 'play P9', not {text!r}")
    raw = text
    words = text.strip().lower().replace("#", "").split()
    if not words:
        raise InvalidMoveError("an empty move: try 'play P9'")
    verb, args = words[0], words[1:]
    try:
        if verb == "take" and len(args) == 1:
            return TakeTask(_int(args[0], "task", raw))
        if verb == "pass" and not args:
            return PassTask()
        if verb == "assign" and len(args) == 3 and args[0] == "all" and args[1] == "to":
            return AssignAll(_int(args[2], "seat", raw))
        if verb == "assign" and len(args) == 3 and args[1] == "to":
            return AssignTask(_int(args[0], "task", raw), _int(args[2], "seat", raw))
        if verb == "predict" and len(args) == 1:
            return Predict(_int(args[0], "number of tricks", raw))
        if verb == "sonar" and len(args) in (2, 3, 4):
            seat = _int(args[0], "seat", raw)
            rest = args[1:]
            pos = None
            if rest[-1] in POSITIONS or rest[-1] in ("high", "highest", "low", "lowest", "only"):
                pos = parse_position(rest[-1])
                rest = rest[:-1]
            return Sonar(seat, Card.parse(" ".join(rest)), pos)
        if verb == "distress" and len(args) == 1 and args[0] in ("left", "right"):
            return Distress(args[0])
        if verb == "give" and len(args) in (2, 3):
            return GiveCard(_int(args[0], "seat", raw), Card.parse(" ".join(args[1:])))
        if verb == "play" and len(args) in (1, 2):
            return PlayCard(Card.parse(" ".join(args)))
        if verb in ("time-up", "timeup") and not args:
            return TimeUp()
        if verb == "retry" and args in ([], ["new"]):
            return Retry(bool(args))
    except InvalidMoveError as exc:
        raise InvalidMoveError(f"not a Crew move: {raw!r} ({exc})") from None
    raise InvalidMoveError(f"not a Crew move: {raw!r} (try 'play P9', 'take 16', 'sonar 1 P9 top', 'retry')")


# ---- the engine -------------------------------------------------------------------------------------
class _Refusal(tuple):
    """A refusal not yet rendered: ``(code, rule, params)``. ``legal_moves`` only needs to know *whether*
    a move is refused, so building the full :class:`Violation` waits for ``why_illegal``."""

    def violation(self) -> Violation:
        return Violation(self[0], self[1], **self[2])


def _v(code: str, rule: str, **params) -> _Refusal:
    return _Refusal((code, rule, params))


# Refusals without parameters, shared: legal_moves asks for them at every trick start and only needs to
# know *that* a move is refused. Their params dicts are never mutated (``violation()`` copies them).
_SONAR_TIMING = _v("CREW_SONAR_TIMING", "crew.sonar.timing")
_TONOJA_SILENT = _v("CREW_TONOJA_SILENT", "crew.tonoja.captain")
_NO_COMMUNICATION = _v("CREW_NO_COMMUNICATION", "crew.sonar.none")
_M23_SILENT = _v("CREW_M23_SILENT", "crew.mission.first-winner-leads")
_M10_SILENT = _v("CREW_M10_SILENT", "crew.mission.captain-gives")
_NO_TOKENS = _v("CREW_NO_TOKENS", "crew.sonar.rapture")
_DISTRESS_TIMING = _v("CREW_DISTRESS_TIMING", "crew.distress.timing")
_DISTRESS_DONE = _v("CREW_DISTRESS_DONE", "crew.distress.timing")
_DISTRESS_MOVES = (Distress("left"), Distress("right"))
_PASS = PassTask()
# the allocation moves each allocation takes (volunteers: by the mission's number of volunteers)
_ALLOCATION_MOVES = {"standard": (TakeTask, PassTask), "free": (AssignTask,), "one": (AssignAll,),
                     "captain": (AssignAll,)}
_TIME_UP = TimeUp()


class CrewEngine(Engine):
    name: ClassVar[str] = "crew"
    state_type: ClassVar[type] = CrewState
    move_types: ClassVar[tuple[type, ...]] = MOVE_TYPES

    # ---- setup ----------------------------------------------------------------------------------
    def new_state(self, seed: int, players: int = 4, mission: int = 1, timed: bool = False,
                  tasks: list | None = None, hands: list | None = None, difficulty: int | None = None,
                  communication: str | None = None, allocation: str | None = None,
                  max_attempts: int | None = None) -> CrewState:
        """A mission from ``seed``. ``players`` 2 (with TONOJA) to 5; ``mission`` 1–32 (33+ epilogue) or 0
        for a custom mission with ``difficulty``/``communication``/``allocation``. Teaching positions may
        fix ``tasks`` (ids) and ``hands`` (3–5 players, the 40 cards split into hands of the right sizes).
        """
        check_seed(seed, error=InvalidMoveError, type_error=InvalidMoveError)
        check_players(players, (2, 3, 4, 5))
        if type(mission) is int and mission == 0 and difficulty is None and tasks:
            # a custom mission with fixed tasks: "retry new" draws the same total difficulty
            from toolkit.crew.tasks import get_task
            difficulty = sum(get_task(t).difficulty_for(players) for t in tasks)
        m = self._mission(mission, timed, difficulty, communication, allocation)
        if max_attempts is not None and (isinstance(max_attempts, bool) or not isinstance(max_attempts, int)
                                         or max_attempts < 1):
            raise InvalidMoveError(f"max_attempts must be a positive whole number or None, not {max_attempts!r}")
        fixed_hands = self._check_hands(hands, players) if hands is not None else None
        fixed_tasks = None
        if tasks is not None:
            from toolkit.crew.tasks import get_task
            fixed_tasks = tuple(get_task(t).id for t in tasks)
            if len(set(fixed_tasks)) != len(fixed_tasks):
                raise InvalidMoveError(f"a task appears twice in {list(tasks)!r}")
        seats = 3 if players == 2 else players
        state = CrewState(
            players=players, mission=m.number, timed=m.timed,
            custom=(m.difficulty, m.communication, m.allocation) if m.number == 0 else None, chance=Chance(seed), phase="allocate", attempt=1,
            distress_used=False, comm="normal", terrain=None, hands=(), columns=(), captain=0, task_deck=(),
            tasks=(), owners=(), predictions=(), turn=0, gave_away=False, sonar_used=(False,) * seats,
            tokens=0, comms=(), any_comm=False, distress=0, gifts=(None,) * seats, leader=0, trick=(),
            tricks=(), statuses=(), memos=Memos(), time_up=False, result=None, reason="",
            max_attempts=max_attempts)
        state, events = self._start_attempt(state, m, new_tasks=True, fixed_tasks=fixed_tasks,
                                            fixed_hands=fixed_hands)
        object.__setattr__(state, "_setup_events", events)  # shown by views as the first log lines
        return state

    @staticmethod
    def _mission(number, timed, difficulty, communication, allocation) -> Mission:
        if isinstance(number, bool) or not isinstance(number, int):
            raise InvalidMoveError(f"mission must be a whole number (1-32, 33+ the epilogue, 0 custom), "
                                   f"not {number!r:.60}")
        if number == 0:
            return custom(difficulty if difficulty is not None else 1, communication or "normal",
                          allocation or "standard")
        if difficulty is not None or communication is not None or allocation is not None:
            raise InvalidMoveError("difficulty, communication and allocation are options of a custom "
                                   "mission (mission=0); a logbook mission defines its own")
        return get_mission(number, timed)

    def mission_of(self, state: CrewState) -> Mission:
        return _mission_of(state)

    @staticmethod
    def _check_hands(hands, players):
        if players == 2:
            raise InvalidMoveError("fixed hands are for 3–5 players (TONOJA's columns are dealt)")
        try:
            parsed = tuple(tuple(sorted(cards(h))) for h in hands)
        except TypeError:
            raise InvalidMoveError(f"hands must be lists of cards, not {hands!r}") from None
        sizes = {3: (14, 13, 13), 4: (10,) * 4, 5: (8,) * 5}[players]
        if len(parsed) != players or tuple(sorted((len(h) for h in parsed), reverse=True)) != tuple(
                sorted(sizes, reverse=True)):
            raise InvalidMoveError(f"{players} players hold {'/'.join(map(str, sizes))} cards, not "
                                   f"{'/'.join(str(len(h)) for h in parsed)}")
        every = [c for h in parsed for c in h]
        if sorted(every) != list(DECK):
            raise InvalidMoveError("the hands must hold each of the 40 cards exactly once")
        return parsed

    def _start_attempt(self, state: CrewState, m: Mission, new_tasks: bool, fixed_tasks=None,
                       fixed_hands=None) -> tuple[CrewState, list[Event]]:
        events: list[Event] = []
        chance = state.chance
        seats = state.seats
        # unfamiliar terrain: draw a colour card before the deal (redraw a submarine)
        comm, terrain = m.communication, None
        if comm == "unfamiliar":
            while True:
                chance, terrain = chance.choice(DECK)
                if not terrain.is_submarine:
                    break
            comm = "normal" if terrain.value <= 3 else "currents" if terrain.value <= 6 else "rapture"
            events.append(_ev("CREW_EVT_TERRAIN", "crew.sonar.unfamiliar", card=terrain,
                                mode=_comm_term(comm)))
        # the tasks
        if m.fixed_tasks:
            tasks, deck = m.fixed_tasks, tuple(t for t in TASKS if t not in m.fixed_tasks)
        elif not m.has_tasks:
            tasks, deck = (), ()
        elif fixed_tasks is not None:
            tasks, deck = fixed_tasks, tuple(t for t in TASKS if t not in fixed_tasks)
        elif new_tasks:
            chance, order = chance.shuffled(list(TASKS))
            difficulty = _difficulties(state.players)
            picked = select_tasks([difficulty[t] for t in order], m.difficulty)
            tasks = tuple(order[i] for i in picked)
            deck = tuple(t for i, t in enumerate(order) if i > picked[-1])
            events.append(_ev("CREW_EVT_TASKS_DRAWN", "crew.tasks.draw", tasks=list(tasks),
                                target=m.difficulty))
        else:
            tasks, deck = state.tasks, state.task_deck
        # unavoidable incompatible pairs (only the standard allocation forces tasks apart)
        choosers = seats - (1 if m.number == 25 else 0)
        for _ in range(200):
            if m.allocation != "standard" or len(tasks) > choosers or fixed_tasks is not None:
                break
            pair = next(((a, b) for i, a in enumerate(tasks) for b in tasks[i + 1:]
                         if incompatible(a, b, state.players)), None)
            if pair is None:
                break
            back = pair[1]  # the more recently revealed task of the pair goes back into the deck
            difficulty = _difficulties(state.players)
            need = difficulty[back]
            chance, deck = chance.shuffled(deck + (back,))
            replacement = next(t for t in deck if t != back and difficulty[t] == need)
            deck = tuple(t for t in deck if t != replacement)
            tasks = tuple(replacement if t == back else t for t in tasks)
            events.append(_ev("CREW_EVT_TASK_SWAPPED", "crew.alloc.incompatible", task=back,
                                other=pair[0] if pair[1] == back else pair[1], new=replacement))
        # the deal (redealt, without counting a failure, while a footnote makes it impossible)
        for _ in range(1000):
            if fixed_hands is not None:
                hands, columns = fixed_hands, ()
            elif state.players == 2:
                chance, two, cols = deal_tonoja_from(chance)
                hands, columns = two + ((),), tuple(Column(d, u) for d, u in cols)
            else:
                chance, hands = deal_from(chance, state.players)
                columns = ()
            blocker = redeal_needed(tasks, list(hands) + [tuple(c for col in columns for c in (col.face_down,
                                                                                               col.face_up))])
            if blocker is None or fixed_hands is not None:
                break
            events.append(_ev("CREW_EVT_REDEAL", "crew.alloc.redeal", task=blocker))
        events.append(_ev("CREW_EVT_DEAL", "crew.deal.sizes", attempt=state.attempt,
                            sizes=[len(h) if i != state.tonoja else 7 for i, h in enumerate(hands)]))
        captain = next(i for i, h in enumerate(hands) if S4 in h)
        events.append(_ev("CREW_EVT_CAPTAIN", "crew.alloc.captain", seat=captain))
        tokens = max(seats - 2, 0) if comm == "rapture" else 0
        phase = "allocate" if tasks else "play"
        state = replace(
            state, chance=chance, phase=phase, comm=comm, terrain=terrain, hands=tuple(hands), columns=columns,
            captain=captain, task_deck=deck, tasks=tuple(tasks), owners=(None,) * len(tasks),
            predictions=(None,) * len(tasks), turn=0, gave_away=False, sonar_used=(False,) * seats,
            tokens=tokens, comms=(), any_comm=False, distress=0, gifts=(None,) * seats, leader=captain,
            trick=(), tricks=(), statuses=(PENDING,) * len(tasks), memos=Memos(), time_up=False, result=None,
            reason="", sent=(), passed=())
        if phase == "allocate":
            state, more = self._advance_allocation(state, m)
            events += more
        return state, events

    # ---- allocation helpers -----------------------------------------------------------------------
    def _choosers(self, state: CrewState, m: Mission) -> list[int]:
        seats = state.seats   # read once: allocation asks for the order at every move
        order = [(state.captain + i) % seats for i in range(seats)]
        if m.number == 25:
            order.remove(state.captain)
        return order

    def _open_tasks(self, state: CrewState) -> list[int]:
        return [t for t, o in zip(state.tasks, state.owners) if o is None]

    def chooser(self, state: CrewState) -> int | None:
        return self._chooser(state)

    def _chooser(self, state: CrewState) -> int | None:
        """:meth:`chooser` for the engine's own calls (the public verb checks its argument: hot path)."""
        if state.phase != "allocate":
            return None
        m = _mission_of(state)
        if m.allocation != "standard":
            return state.captain
        order = self._choosers(state, m)
        return order[state.turn % len(order)]

    def choosers_after(self, state: CrewState) -> list[int]:
        """The seats that choose after the current chooser, in order, while a task may still be passed on
        (standard allocation, rule ``crew.alloc.pass``: a seat that passes leaves the open tasks to these).
        Public: the order of choice is the table's. Empty outside a standard allocation.

        >>> s = ENGINE.new_state(5, players=4, mission=3)
        >>> s.captain, ENGINE.choosers_after(s)
        (3, [0, 1, 2])
        """
        if state.phase != "allocate":
            return []
        m = self.mission_of(state)
        if m.allocation != "standard":
            return []
        order = self._choosers(state, m)
        return order[state.turn + 1:]   # a pass is possible in the first round only (_pass_block)

    def _advance_allocation(self, state: CrewState, m: Mission) -> tuple[CrewState, list[Event]]:
        """Skip a captain who can only see captain-comparison tasks; finish the allocation when all
        tasks have owners (then predictions, then play)."""
        events = []
        if m.allocation == "standard":
            order = self._choosers(state, m)
            for _ in range(len(order) * 2):
                open_ = self._open_tasks(state)
                if not open_:
                    break
                seat = order[state.turn % len(order)]
                if seat == state.captain and all(TASKS[t].captain_comparison for t in open_):
                    events.append(_ev("CREW_EVT_CAPTAIN_SKIPPED", "crew.alloc.no-pass", seat=seat))
                    state = replace(state, turn=state.turn + 1)
                    continue
                break
        if not self._open_tasks(state):
            state = replace(state, phase="predict" if self._next_predictor(state) is not None else "play",
                            memos=Memos(self._judge(state, i).start() for i in range(len(state.tasks))))
            events.append(_ev("CREW_EVT_ALLOCATED", "crew.alloc.order",
                                owners=[f"{t}→{seat_number(o)}" for t, o in zip(state.tasks, state.owners)]))
        return state, events

    @staticmethod
    def _prediction_viewers(state: CrewState, i: int) -> tuple[int, ...]:
        """Who may see the X of a secret prediction: its owner, and for TONOJA's the captain who decides for
        TONOJA. Once the task is judged (at the last trick, never before) everyone may."""
        if state.statuses and state.statuses[i] != PENDING:
            return tuple(range(state.seats))
        owner = state.owners[i]
        return (owner, state.captain) if owner is not None and owner == state.tonoja else (owner,)

    def _next_predictor(self, state: CrewState) -> int | None:
        for i, t in enumerate(state.tasks):
            if TASKS[t].needs_prediction and state.predictions[i] is None:
                return i
        return None

    def _judge(self, state: CrewState, i: int):
        t = state.tasks[i]
        pred = state.predictions[i]
        key = (t, state.owners[i], state.players, state.captain, pred)
        judge = _JUDGES.get(key)
        if judge is None:
            judge = _JUDGES[key] = compile_task(t, state.owners[i], state.players, state.captain,
                                                pred if pred is not None or not TASKS[t].needs_prediction else 0)
        return judge

    def _judges(self, state: CrewState) -> tuple[tuple, tuple[int, ...]]:
        """Every task's judge (as :meth:`_judge`), and the indices of those whose verdict a lead can change
        (tasks 60/61: the judges that override ``Judge.lead``). Kept on the state for the attempt, like
        ``_ledger`` (in the instance dict, not a field), so a trick's end and a lead do not look each judge
        up again; it counts only while the tasks, owners and predictions are the very tuples it was made
        for (references it holds, so they cannot be reused by other tuples) and captain and players equal."""
        cached = state.__dict__.get("_judges")
        if (cached is not None and cached[0] is state.tasks and cached[1] is state.owners
                and cached[2] is state.predictions and cached[3] == state.captain and cached[4] == state.players):
            return cached[5]
        judges = tuple(self._judge(state, i) for i in range(len(state.tasks)))
        leads = tuple(i for i, j in enumerate(judges) if type(j).lead is not Judge.lead)
        state.__dict__["_judges"] = (state.tasks, state.owners, state.predictions, state.captain, state.players,
                                     (judges, leads))
        return judges, leads

    # ---- the verbs ----------------------------------------------------------------------------------
    def current_player(self, state: CrewState) -> int | None:
        if state.phase == "allocate":
            return self.chooser(state)
        if state.phase == "predict":
            i = self._next_predictor(state)
            return state.owners[i] if i is not None else None
        if state.phase == "distress":
            return next((s for s in self._givers(state) if state.gifts[s] is None), None)
        if state.phase == "play":
            return (state.leader + len(state.trick)) % state.seats
        return None

    def _givers(self, state: CrewState) -> list[int]:
        return [(state.captain + i) % state.seats for i in range(state.seats)
                if (state.captain + i) % state.seats != state.tonoja]

    def outcome(self, state: CrewState) -> Outcome | None:
        seats = tuple(range(state.seats))
        if state.phase == "success":
            return Outcome("CREW_OUTCOME_SUCCESS", "crew.end.success", result="win", winners=seats,
                           attempts=state.attempts_counted)
        if state.phase == "failed" and state.max_attempts is not None and state.attempt >= state.max_attempts:
            return Outcome("CREW_OUTCOME_FAILURE", "crew.end.failure", result="loss",
                           attempts=state.attempts_counted)
        return None

    def legal_moves(self, state: CrewState, seat: int | None = None) -> list:
        if type(state) is not CrewState:   # the state check inline: the hottest verb (see check_state)
            check_state(self, state)
        if seat is not None:
            # the contract's seat filter, here rather than in the base's wrapper: a wrapper is one more call
            # on every action of a playout (issue 28.4)
            self.check_seat(state, seat)
            actor = self.actor
            return [m for m in self.legal_moves(state) if actor(state, m) == seat]
        ph = state.phase
        if ph == "success" or (ph == "failed" and self.outcome(state) is not None):
            return []
        if ph == "failed":
            m = self.mission_of(state)
            return [Retry(False), Retry(True)] if m.has_tasks and not m.fixed_tasks else [Retry(False)]
        if ph == "allocate":
            return self._legal_allocation(state)
        if ph == "predict":
            total = tricks_in_mission(state.players)
            return [_predict_move(n) for n in range(total + 1)]
        if ph == "distress":
            out = []
            for seat in self._givers(state):
                if state.gifts[seat] is None:
                    out += [_give_move(seat, c) for c in state.hands[seat] if not c.is_submarine]
            return out
        # play (the hot path of random playouts: the moves are shared objects)
        trick = state.trick
        seats = 3 if state.players == 2 else state.players
        seat = (state.leader + len(trick)) % seats
        hand = _hand(state, seat)
        moves: list
        if trick:
            led = trick[0].suit
            moves = [_PLAY[c.index] for c in hand if c.suit == led] or [_PLAY[c.index] for c in hand]
        else:
            moves = [_PLAY[c.index] for c in hand]
            # _comm_block split in two: the table's part once, then each seat's own part. A seat whose
            # hand has nothing to show gets no moves from _seat_sonar_moves, as _comm_block refuses it.
            if self._comm_table_block(state) is None:
                shown = 0   # the communicated cards as a mask (no hashing of cards on this hot path)
                for c in state.comms:
                    shown |= c.card.bit
                currents = state.comm == "currents"
                rapture = state.comm == "rapture"
                tonoja = TONOJA if state.players == 2 else None
                for s in range(seats):
                    if s != tonoja and (rapture or not state.sonar_used[s]):
                        sonar = _seat_sonar_moves(s, state.hands[s], currents)
                        moves += [m for m in sonar if not m.card.bit & shown] if shown else sonar
            if self._distress_block(state) is None:
                moves += _DISTRESS_MOVES
        if state.timed:
            moves.append(_TIME_UP)
        return moves

    def _legal_allocation(self, state: CrewState) -> list:
        m = _mission_of(state)
        open_ = self._open_tasks(state)
        out: list = []
        tasks, owners = state.tasks, state.owners
        if m.allocation == "standard":
            order = self._choosers(state, m)
            seat = order[state.turn % len(order)]   # _chooser, with the order computed once (issue 28.4)
            if seat != state.captain:
                # _take_block refuses an open task (its first listing unowned) only to the captain
                # (captain-comparison tasks, mission 19's hardest task first): no need to ask it per task
                out = [_take_move(t) for t in open_ if owners[tasks.index(t)] is None]
            else:
                for t in open_:
                    if self._take_block(state, m, seat, t) is None:
                        out.append(_take_move(t))
            if self._pass_block(state, m, order) is None:
                out.append(_PASS)
        elif m.allocation == "free":
            # _assign_block for the free allocation: a task whose first listing is unowned may go to any
            # seat but the captain when it is a captain-comparison task (the seats are in range here)
            captain = state.captain
            for t in open_:
                if owners[tasks.index(t)] is None:
                    skip = captain if TASKS[t].captain_comparison else -1
                    out += [_assign_move(t, s) for s in range(state.seats) if s != skip]
        elif m.allocation == "volunteers" and m.volunteers == 2:
            for t in open_:
                for s in range(state.seats):
                    if self._assign_block(state, m, t, s) is None:
                        out.append(_assign_move(t, s))
        else:
            for s in range(state.seats):
                if self._assign_all_block(state, m, s) is None:
                    out.append(_assign_all_move(s))
        return out

    # refusals, one function per decision so legal_moves and why_illegal agree by construction
    def _take_block(self, state, m, seat, task) -> Violation | None:
        if task not in state.tasks:
            return _v("CREW_TASK_NOT_ON_TABLE", "crew.alloc.order", task=task)
        if state.owners[state.tasks.index(task)] is not None:
            return _v("CREW_TASK_TAKEN", "crew.alloc.order", task=task,
                      seat=state.owners[state.tasks.index(task)])
        if TASKS[task].captain_comparison and seat == state.captain:
            return _v("CREW_CAPTAIN_COMPARISON", "crew.alloc.captain-comparison", task=task)
        if m.number == 19 and seat == state.captain and state.turn == 0:
            # Ruling (docs/decisions.md): the hardest task the captain *may* take. A captain-comparison task
            # can never be the captain's (crew.alloc.captain-comparison), and insisting on it left the captain
            # no legal move at all (found by the playout benchmark: new_state(800221, players=5, mission=19)).
            hardest = _hardest(state)
            if task != hardest:
                return _v("CREW_HARDEST_FIRST", "crew.mission.hardest-first", task=task, hardest=hardest)
        return None

    def _pass_block(self, state, m, order=None) -> Violation | None:
        if order is None:
            order = self._choosers(state, m)
        if m.number == 19 and state.turn == 0 and order[0] == state.captain:
            # the mission's own rule holds for every allocation move (issue 28.1): a captain who passed
            # would leave the hardest task to another seat, and might end with no task at all
            return _v("CREW_HARDEST_FIRST_NO_PASS", "crew.mission.hardest-first", hardest=_hardest(state))
        open_n = len(self._open_tasks(state))
        if len(state.tasks) >= len(order):
            return _v("CREW_NO_PASS", "crew.alloc.no-pass", tasks=len(state.tasks), players=len(order))
        left_to_choose = len(order) - state.turn
        if open_n >= left_to_choose:
            return _v("CREW_MUST_TAKE", "crew.alloc.pass", tasks=open_n, players=left_to_choose)
        return None

    def _assign_block(self, state, m, task, seat) -> Violation | None:
        if not 0 <= seat < state.seats:
            return _v("CREW_NO_SEAT", "crew.alloc.free", seat=seat, seats=state.seats)
        if task not in state.tasks or state.owners[state.tasks.index(task)] is not None:
            return _v("CREW_TASK_TAKEN", "crew.alloc.free", task=task, seat="-")
        if TASKS[task].captain_comparison and seat == state.captain:
            return _v("CREW_CAPTAIN_COMPARISON", "crew.alloc.captain-comparison", task=task)
        if m.allocation == "volunteers":
            owners = {o for o in state.owners if o is not None}
            if seat not in owners and len(owners) >= m.volunteers:
                return _v("CREW_VOLUNTEERS", "crew.realtime.timer", count=m.volunteers)
            open_n = len(self._open_tasks(state))
            if open_n == 1 and len(owners | {seat}) < m.volunteers:
                return _v("CREW_VOLUNTEERS", "crew.realtime.timer", count=m.volunteers)
        return None

    def _assign_all_block(self, state, m, seat) -> Violation | None:
        if not 0 <= seat < state.seats:
            return _v("CREW_NO_SEAT", m.rule, seat=seat, seats=state.seats)
        bad = next((t for t in state.tasks if TASKS[t].captain_comparison), None)
        if bad is not None and seat == state.captain:
            return _v("CREW_CAPTAIN_COMPARISON", "crew.alloc.captain-comparison", task=bad)
        return None

    def _comm_block(self, state: CrewState, seat: int) -> Violation | None:
        """Why ``seat`` may not communicate now (``None``: it may)."""
        block = self._comm_turn_block(state, seat)
        if block is not None:
            return block
        hand = state.hands[seat]
        pairs = sonar_pairs_sorted(hand)   # no dict keyed by cards just to ask whether it is empty
        if not (pairs if pairs is not None else _sonar_options(hand)):
            return _v("CREW_SONAR_NOTHING", "crew.sonar.position", seat=seat)
        return None

    def _comm_turn_block(self, state: CrewState, seat: int) -> Violation | None:
        """:meth:`_comm_block` but for its last test (a hand with nothing to show): what ``_why`` asks
        of a sonar move, which refuses a card the hand cannot show on its own (so the hand's sonar options
        are not worked out twice)."""
        if state.phase != "play" or state.trick:
            return _SONAR_TIMING
        if seat == state.tonoja:
            return _TONOJA_SILENT
        table = self._comm_table_block(state)
        if table is not None:
            return table
        if state.comm != "rapture" and state.sonar_used[seat]:
            return _v("CREW_SONAR_USED", "crew.sonar.once", seat=seat)
        return None

    @staticmethod
    def _comm_table_block(state: CrewState) -> _Refusal | None:
        """The part of :meth:`_comm_block` that is the same for every seat (checked in the same order),
        so ``legal_moves`` asks it once per trick start rather than once per seat."""
        if state.comm == "none":
            return _NO_COMMUNICATION
        if state.mission == 23 and not state.tricks:
            return _M23_SILENT
        if state.gave_away and state.tricks:
            return _M10_SILENT
        if state.comm == "rapture" and state.tokens <= 0:
            return _NO_TOKENS
        return None

    def _distress_block(self, state: CrewState) -> Violation | None:
        if state.phase != "play" or state.tricks or state.trick or state.any_comm:
            return _DISTRESS_TIMING
        if state.distress:
            return _DISTRESS_DONE
        return None

    def why_illegal(self, state: CrewState, move) -> Violation | None:
        self.check_move_type(move)
        found = self._why(state, move)
        return found.violation() if isinstance(found, _Refusal) else found

    def _why(self, state: CrewState, move):
        ph = state.phase
        if type(move) is PlayCard and ph == "play":  # the hot path: a card to the trick
            seat = (state.leader + len(state.trick)) % (3 if state.players == 2 else state.players)
            return _fast_play_block(_hand(state, seat), move.card, state.trick[0] if state.trick else None)
        if ph == "success" or (ph == "failed" and self.outcome(state) is not None):
            return _v("GAME_OVER", "core.over")
        if isinstance(move, Retry):
            if ph != "failed":
                return _v("CREW_RETRY_NOT_FAILED", "crew.retry")
            if move.new_tasks and Retry(True) not in self.legal_moves(state):
                return _v("CREW_RETRY_SAME_TASKS", "crew.retry")
            return None
        if ph == "failed":
            return _v("CREW_ATTEMPT_OVER", "crew.retry")
        if isinstance(move, (TakeTask, PassTask, AssignTask, AssignAll)):
            if ph != "allocate":
                return _v("CREW_NOT_ALLOCATING", "crew.alloc.order")
            m = _mission_of(state)
            wanted = _ALLOCATION_MOVES[m.allocation] if m.allocation != "volunteers" else \
                (AssignTask,) if m.volunteers == 2 else (AssignAll,)
            if not isinstance(move, wanted):
                return _v("CREW_ALLOCATION_MODE", m.rule, how=_alloc_term(m))
            if isinstance(move, TakeTask):
                return self._take_block(state, m, self._chooser(state), move.task)
            if isinstance(move, PassTask):
                return self._pass_block(state, m)
            if isinstance(move, AssignTask):
                return self._assign_block(state, m, move.task, move.seat)
            return self._assign_all_block(state, m, move.seat)
        if ph == "allocate":
            return _v("CREW_ALLOCATE_FIRST", "crew.alloc.order")
        if isinstance(move, Predict):
            if ph != "predict":
                return _v("CREW_NO_PREDICTION_NOW", "crew.task.prediction")
            total = tricks_in_mission(state.players)
            if not 0 <= move.tricks <= total:
                return _v("CREW_PREDICTION_RANGE", "crew.task.prediction", value=move.tricks, total=total)
            return None
        if ph == "predict":
            i = self._next_predictor(state)
            return _v("CREW_PREDICT_FIRST", "crew.task.prediction", seat=state.owners[i], task=state.tasks[i])
        if isinstance(move, GiveCard):
            if ph != "distress":
                return _v("CREW_NO_DISTRESS", "crew.distress.signal")
            if move.seat not in self._givers(state):
                return _v("CREW_NOT_A_GIVER", "crew.distress.signal", seat=move.seat)
            if state.gifts[move.seat] is not None:
                return _v("CREW_ALREADY_GAVE", "crew.distress.signal", seat=move.seat)
            if move.card not in state.hands[move.seat]:
                return _v("CREW_NOT_IN_HAND", "crew.trick.own-card", card=move.card,
                          hand=list(state.hands[move.seat]) or "-")
            if move.card.is_submarine:
                return _v("CREW_DISTRESS_SUBMARINE", "crew.distress.no-submarine", card=move.card)
            return None
        if ph == "distress":
            return _v("CREW_DISTRESS_PENDING", "crew.distress.signal")
        # play phase
        if isinstance(move, PlayCard):
            seat = (state.leader + len(state.trick)) % state.seats
            return _fast_play_block(_hand(state, seat), move.card, state.trick[0] if state.trick else None)
        if isinstance(move, Sonar):
            if not 0 <= move.seat < state.seats:
                return _v("CREW_NO_SEAT", "crew.sonar.timing", seat=move.seat, seats=state.seats)
            block = self._comm_turn_block(state, move.seat)   # _comm_block but CREW_SONAR_NOTHING:
            if block is not None:                              # the tests below refuse what it would
                return block
            if any(c.card == move.card for c in state.comms):
                return _v("CREW_ALREADY_SHOWN", "crew.sonar.once", card=move.card)
            hand = state.hands[move.seat]
            if state.comm == "currents":
                if move.position is not None:
                    return _v("CREW_CURRENTS_NO_POSITION", "crew.sonar.currents")
                if move.card not in hand or move.card.is_submarine:
                    return why_illegal_sonar(hand, move.card, "middle")
                # the card is one of the hand's sonar options: the seat's moves hold exactly those (with no
                # position), and legal_moves has just made them (cached)
                if move not in _seat_sonar_moves(move.seat, hand, True):
                    return why_illegal_sonar(hand, move.card, "middle")
                return None
            if move.position is None:
                return _v("CREW_SONAR_POSITION_NEEDED", "crew.sonar.position")
            if move in _seat_sonar_moves(move.seat, hand, False):
                return None  # (card, position) is one of the hand's options; the full check explains a refusal
            return why_illegal_sonar(hand, move.card, move.position)
        if isinstance(move, Distress):
            return self._distress_block(state)
        if isinstance(move, TimeUp):
            if not state.timed:
                return _v("CREW_NOT_TIMED", "crew.realtime.timer")
            return None
        return _v("CREW_NOT_NOW", "crew.trick.own-card")  # pragma: no cover - every move type is handled

    # ---- transitions --------------------------------------------------------------------------------
    def transition(self, state: CrewState, move) -> tuple[CrewState, tuple[Event, ...]]:
        """:meth:`Engine.transition` with the move type checked once rather than twice (random playouts
        spend most of their time here); the same checks, refusals and errors."""
        if type(state) is not CrewState:   # the state check inline (see check_state)
            check_state(self, state)
        return self._checked_transition(state, move)

    def apply(self, state: CrewState, move) -> CrewState:
        """:meth:`Engine.apply`: the same checks, with ``state`` checked once and inline (the base class's
        ``apply`` calls the wrapped ``transition``, so it was checked twice, each in an extra call)."""
        if type(state) is not CrewState:
            check_state(self, state)
        if type(move) is PlayCard and state.phase == "play":
            # a card to the trick, the commonest move of a playout: _checked_transition's path inlined (the
            # same check as _why's first branch, then _play, as _transition would call it)
            trick = state.trick
            found = _fast_play_block(_hand(state, (state.leader + len(trick)) % (3 if state.players == 2 else state.players)),
                                     move.card, trick[0] if trick else None)
            if found is not None:
                raise IllegalMoveError(found.violation() if isinstance(found, _Refusal) else found)
            return self._play(state, move.card)[0]
        return self._checked_transition(state, move)[0]

    # checked inline above, so the base class does not wrap them (toolkit.core.engine._guard_state_verbs)
    legal_moves._checks_state = transition._checks_state = apply._checks_state = True  # type: ignore[attr-defined]

    def _checked_transition(self, state: CrewState, move) -> tuple[CrewState, tuple[Event, ...]]:
        if type(move) is not PlayCard:
            if isinstance(move, str):
                move = self.parse_move(move)
            self.check_move_type(move)
        found = self._why(state, move)
        if found is not None:
            raise IllegalMoveError(found.violation() if isinstance(found, _Refusal) else found)
        return self._transition(state, move)

    def _transition(self, state: CrewState, move) -> tuple[CrewState, tuple[Event, ...]]:
        if isinstance(move, PlayCard):
            return self._play(state, move.card)
        m = _mission_of(state)
        events: list[Event] = []
        if isinstance(move, TakeTask):
            seat = self._chooser(state)
            i = state.tasks.index(move.task)
            state = replace(state, owners=_set(state.owners, i, seat), turn=state.turn + 1)
            events.append(_shared_ev("CREW_EVT_TAKE", "crew.alloc.order", seat, task=move.task))
            state, more = self._advance_allocation(state, m)
            events += more
        elif isinstance(move, PassTask):
            seat = self._chooser(state)
            state = replace(state, turn=state.turn + 1)
            events.append(_shared_ev("CREW_EVT_PASS", "crew.alloc.pass", seat))
            state, more = self._advance_allocation(state, m)
            events += more
        elif isinstance(move, AssignTask):
            i = state.tasks.index(move.task)
            state = replace(state, owners=_set(state.owners, i, move.seat))
            events.append(_shared_ev("CREW_EVT_TAKE", m.rule, move.seat, task=move.task))
            state, more = self._advance_allocation(state, m)
            events += more
        elif isinstance(move, AssignAll):
            state = replace(state, owners=(move.seat,) * len(state.tasks),
                            gave_away=m.allocation == "captain" and move.seat != state.captain)
            events.append(_ev("CREW_EVT_ASSIGN_ALL", m.rule, seat=move.seat, tasks=list(state.tasks)))
            state, more = self._advance_allocation(state, m)
            events += more
        elif isinstance(move, Predict):
            i = self._next_predictor(state)
            preds = _set(state.predictions, i, move.tricks)
            state = replace(state, predictions=preds)
            secret = TASKS[state.tasks[i]].secret_prediction
            events.append(_ev("CREW_EVT_PREDICT_SECRET" if secret else "CREW_EVT_PREDICT",
                                "crew.task.prediction", seat=state.owners[i], task=state.tasks[i],
                                **({} if secret else {"tricks": move.tricks})))
            if self._next_predictor(state) is None:
                state = replace(state, phase="play",
                                memos=Memos(self._judge(state, k).start() for k in range(len(state.tasks))))
        elif isinstance(move, Sonar):
            pos = None if state.comm == "currents" else move.position
            comms = state.comms + (Communication(move.seat, move.card, pos),)
            sent = state.sent + (Sent(move.seat, move.card, pos, len(state.tricks)),)
            if state.comm == "rapture":
                state = replace(state, comms=comms, tokens=state.tokens - 1, any_comm=True, sent=sent)
            else:
                state = replace(state, comms=comms, sonar_used=_set(state.sonar_used, move.seat, True),
                                any_comm=True, sent=sent)
            if pos is None:
                events.append(_shared_ev("CREW_EVT_SONAR_CURRENTS", "crew.sonar.currents", move.seat,
                                         card=move.card))
            else:
                events.append(_shared_ev("CREW_EVT_SONAR", "crew.sonar.position", move.seat, card=move.card,
                                         position=Term_pos(pos)))
        elif isinstance(move, Distress):
            state = replace(state, phase="distress", distress=1 if move.direction == "left" else -1,
                            distress_used=True, gifts=(None,) * state.seats)
            events.append(_ev("CREW_EVT_DISTRESS", "crew.distress.signal",
                                direction=_dir_term(move.direction)))
        elif isinstance(move, GiveCard):
            gifts = _set(state.gifts, move.seat, move.card)
            state = replace(state, gifts=gifts)
            events.append(_shared_ev("CREW_EVT_GAVE", "crew.distress.signal", move.seat))
            if all(gifts[s] is not None for s in self._givers(state)):
                state = self._exchange(state)
                events.append(_ev("CREW_EVT_EXCHANGED", "crew.distress.count", attempts=state.attempts_counted))
        elif isinstance(move, TimeUp):
            state = replace(state, phase="failed", time_up=True, result="failed", reason="time")
            events.append(_ev("CREW_EVT_TIME_UP", "crew.realtime.timer"))
        elif isinstance(move, Retry):
            state = replace(state, attempt=state.attempt + 1)
            events.append(_ev("CREW_EVT_RETRY", "crew.retry", attempt=state.attempt,
                                new=move.new_tasks))
            state, more = self._start_attempt(state, m, new_tasks=move.new_tasks)
            events += more
        return state, tuple(events)

    def _exchange(self, state: CrewState) -> CrewState:
        """Everyone passes their chosen card to the same side at once (TONOJA takes no part)."""
        givers = self._givers(state)
        ring = sorted(givers)
        hands = [list(h) for h in state.hands]
        for s in ring:
            hands[s].remove(state.gifts[s])
        passed = []
        for k, s in enumerate(ring):
            target = ring[(k + state.distress) % len(ring)]
            hands[target].append(state.gifts[s])
            passed.append(Passed(s, target, state.gifts[s]))
        return replace(state, hands=tuple(tuple(sorted(h)) for h in hands), gifts=(None,) * state.seats,
                       phase="play", passed=tuple(passed))

    def _play(self, state: CrewState, card: Card) -> tuple[CrewState, tuple[Event, ...]]:
        seats = 3 if state.players == 2 else state.players
        seat = (state.leader + len(state.trick)) % seats
        events = [_play_ev(seat, card)]
        columns, hands = state.columns, state.hands
        if state.players == 2 and seat == TONOJA:
            columns = tuple(Column(c.face_down, None) if c.face_up is card else c for c in columns)
        else:
            h = hands[seat]
            i = h.index(card)  # the move was checked: the card is in the hand (cards compare by identity)
            hands = hands[:seat] + (h[:i] + h[i + 1:],) + hands[seat + 1:]
        comms = state.comms
        for shown in comms:   # a plain loop: any() over a generator costs more for the usual 0-3 reminders
            if shown.card is card:
                comms = tuple([c for c in comms if c.card is not card])  # the reminder returns
                break
        trick = state.trick + (card,)
        if len(trick) < seats:
            if not state.tasks:   # a mission's condition is judged after every card (issue 28.2)
                # the verdict inline; _judge_condition only at the card that decides it (issue 28.4)
                judge = _condition(state.mission, seats, state.tricks[0].winner if state.tricks else None)
                ended = None
                if judge is not None:
                    ledger = _ledger_of(state)
                    if judge.card(ledger, state.leader, trick) != PENDING:
                        ended = self._judge_condition(state, ledger, trick, None, events)
                if ended is not None:
                    return replace(state, hands=hands, columns=columns, comms=comms, trick=trick,
                                   **ended), tuple(events)
            elif len(trick) == 1:   # judged after every card: a forbidden lead fails when it is led
                failed = self._judge_lead(state, seat, card, events)
                if failed is not None:
                    return replace(state, hands=hands, columns=columns, comms=comms, trick=trick,
                                   **failed), tuple(events)
            return replace(state, hands=hands, columns=columns, comms=comms, trick=trick), tuple(events)
        # the trick is complete
        done = Trick.of_cards(state.leader, trick)
        tricks = state.tricks + (done,)
        events.append(_trick_ev(done.winner, done.winning_card, len(tricks)))
        if columns:
            flipped = []
            new_cols = []
            for c in columns:
                if c.face_up is None and c.face_down is not None:
                    new_cols.append(Column(None, c.face_down))
                    flipped.append(c.face_down)
                else:
                    new_cols.append(c)
            columns = tuple(new_cols)
            for f in flipped:
                events.append(_shared_ev("CREW_EVT_FLIP", "crew.tonoja.flip", card=f))
        ledger = _ledger(state, tricks)
        statuses, memos = state.statuses, state.memos
        if state.tasks:
            new_memos = []
            new_statuses = []
            judges = self._judges(state)[0]
            for i in range(len(state.tasks)):
                memo = memos[i]
                if memo[0] == PENDING:
                    memo = judges[i].settle(memo, ledger)
                    if memo[0] != PENDING:
                        events.append(_shared_ev("CREW_EVT_TASK_DONE" if memo[0] == DONE else "CREW_EVT_TASK_FAILED",
                                                 "crew.task.judge", state.owners[i], task=state.tasks[i]))
                new_memos.append(memo)
                new_statuses.append(memo[0])
            memos, statuses = Memos(new_memos), tuple(new_statuses)
        phase, result, reason = "play", None, ""
        if FAILED in statuses:
            phase, result, reason = "failed", "failed", "task"
            events.append(_shared_ev("CREW_EVT_FAILED", "crew.end.failure",
                                     task=state.tasks[statuses.index(FAILED)]))
        elif statuses and statuses.count(DONE) == len(statuses):   # all done (counted in C)
            phase, result = "success", "success"
            events.append(_shared_ev("CREW_EVT_SUCCESS", "crew.end.success", tricks=len(tricks)))
        elif not state.tasks:
            ended = self._judge_condition(state, ledger, (), tricks, events)
            if ended is not None:
                phase, result, reason = ended["phase"], ended["result"], ended["reason"]
        if phase == "play":
            events.append(_leads_ev(done.winner))
        new = replace(state, hands=hands, columns=columns, comms=comms, trick=(), tricks=tricks,
                      leader=done.winner, statuses=statuses, memos=memos, phase=phase, result=result,
                      reason=reason)
        new.__dict__["_ledger"] = (tricks, ledger)  # for the next trick's _ledger (not a field)
        return new, tuple(events)

    # ---- who acts (for bots and the tables; see toolkit.core.bots) ------------------------------------
    def seat_count(self, state: CrewState) -> int:
        """The real players: 2 to 5. TONOJA is no seat of its own at a table: its captain decides for it."""
        return state.players

    def check_seat(self, state: CrewState, seat: Any) -> int | None:
        """TONOJA's seat (two players) is a seat one may look from, though nobody sits there."""
        if seat is None or (isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < state.seats):
            return seat
        raise InvalidSeatError(f"no seat {seat!r}: seats are 0 to {state.seats - 1}")

    def decider(self, state: CrewState) -> int | None:
        """The seat that chooses the move the game waits for: the current player, except that the captain
        decides TONOJA's tasks, predictions and cards (crew.tonoja.captain)."""
        seat = self.current_player(state)
        if seat is not None and seat == state.tonoja:
            return state.captain
        if seat is None and state.phase == "failed" and self.outcome(state) is None:
            return state.captain  # the team retries; the captain makes the move
        return seat

    def actor(self, state: CrewState, move) -> int | None:
        """The seat that makes ``move``: a sonar communication or a distress gift is its seat's own move,
        a task assignment the chooser's (the captain's in missions where the captain hands out tasks), a
        card TONOJA plays the captain's. The time running out is nobody's move (``None``)."""
        if isinstance(move, (Sonar, GiveCard)):
            return move.seat if 0 <= move.seat < state.seats and move.seat != state.tonoja else None
        if isinstance(move, TimeUp):
            return None
        return self.decider(state)

    def optional_actors(self, state: CrewState) -> tuple[int, ...]:
        """Seats that may act now without the game waiting for them: at the start of a trick every seat
        that may still communicate (crew.sonar.timing); at the distress signal every giver who has not
        chosen a card yet (they choose at the same time)."""
        if state.phase == "play" and not state.trick:
            if self._comm_table_block(state) is not None:
                return ()
            return tuple(s for s in range(state.seats) if self._comm_block(state, s) is None)
        if state.phase == "distress":
            return tuple(s for s in self._givers(state) if state.gifts[s] is None)
        return ()

    def play_out_over(self, state: CrewState) -> bool:
        """One attempt: ``play_out`` stops at success or failure (no retry)."""
        return state.phase in ("success", "failed")

    def _judge_condition(self, state: CrewState, ledger: Ledger, trick: tuple, tricks: tuple | None,
                         events: list) -> dict | None:
        """The fields that end the attempt when the mission's condition (missions without task cards) is
        decided: after the card that made ``trick`` (``tricks`` ``None``), or after the trick just completed
        (``tricks``: every trick so far; ``ledger`` includes it). ``None`` while it is pending. A mission
        without cards and without a condition succeeds when the last trick is over."""
        if tricks is None:
            judge = _condition(state.mission, ledger.seats, state.tricks[0].winner if state.tricks else None)
            if judge is None:
                return None
            status = judge.card(ledger, state.leader, trick)
        else:
            judge = _condition(state.mission, ledger.seats, tricks[0].winner)
            if judge is not None:
                status = judge.settle(PENDING_MEMO, ledger)[0]
            else:
                status = DONE if ledger.count == ledger.total else PENDING
        if status == PENDING:
            return None
        done = len(tricks if tricks is not None else state.tricks)
        if status == FAILED:
            events.append(_shared_ev("CREW_EVT_CONDITION_FAILED", judge.rule, mission=state.mission))
            return dict(phase="failed", result="failed", reason=judge.rule)
        if judge is not None:
            events.append(_shared_ev("CREW_EVT_CONDITION_DONE", judge.rule, mission=state.mission))
        events.append(_shared_ev("CREW_EVT_SUCCESS", "crew.end.success", tricks=done))
        return dict(phase="success", result="success", reason="")

    def _judge_lead(self, state: CrewState, seat: int, card: Card, events: list) -> dict | None:
        """The fields that end the attempt when ``seat`` leading ``card`` breaks a task (tasks 60/61: never
        lead these colours), else ``None``. (A mission's condition is judged by :meth:`_judge_condition`.)"""
        if not state.tasks:
            return None
        judges, leads = self._judges(state)
        if not leads:   # no judge overrides Judge.lead, which returns the memo unchanged
            return None
        memos = list(state.memos)
        changed = None
        for i in leads:   # in task order, as before; the others' lead returns their memo unchanged
            memo = memos[i]
            if memo[0] == PENDING:
                new = judges[i].lead(memo, seat, card)
                if new is not memo:
                    memos[i] = new
                    if new[0] == FAILED and changed is None:
                        changed = i
                    events.append(_shared_ev("CREW_EVT_TASK_DONE" if new[0] == DONE else "CREW_EVT_TASK_FAILED",
                                             "crew.task.judge", state.owners[i], task=state.tasks[i]))
        if changed is None:
            return None
        events.append(_shared_ev("CREW_EVT_FAILED", "crew.end.failure", task=state.tasks[changed]))
        return dict(phase="failed", result="failed", reason="task", memos=Memos(memos),
                    statuses=tuple(m[0] for m in memos))

    # ---- views ------------------------------------------------------------------------------------
    def observe(self, state: CrewState, seat: int | None) -> Mapping[str, Any]:
        """What ``seat`` may see: its own hand, the communicated cards, the tasks (secret predictions only
        to their owner), the trick on the table, the previous trick and the tricks won per seat — and what a
        player at the table has seen this attempt and may remember, under ``memory``: every trick
        (``tricks``), every sonar communication with the trick it was made at (``sent``, also after its card
        was played), the voids shown by not following (``voids``), the distress cards this seat gave or
        received (``passed``); and the seat deciding now (``decider``: the captain decides for TONOJA)."""
        m = self.mission_of(state)
        tasks = []
        for i, t in enumerate(state.tasks):
            task = TASKS[t]
            pred = state.predictions[i]
            if pred is not None and task.secret_prediction and seat not in self._prediction_viewers(state, i):
                pred = "secret"
            tasks.append({"id": t, "en": task.text_en, "ja": task.text_ja,
                          "difficulty": task.difficulty_for(state.players), "owner": state.owners[i],
                          "status": state.statuses[i], "prediction": pred})
        prev = state.tricks[-1] if state.tricks else None
        wins = [0] * state.seats
        for t in state.tricks:
            wins[t.winner] += 1
        view = {
            "game": "crew", "mission": state.mission, "players": state.players, "seats": state.seats,
            "seat": seat, "tonoja_seat": state.tonoja, "phase": state.phase, "attempt": state.attempt,
            "attempts_counted": state.attempts_counted, "captain": state.captain,
            "current": self.current_player(state), "chooser": self.chooser(state),
            "choosers_after": self.choosers_after(state),
            "hand": [str(c) for c in state.hand(seat)] if seat is not None else None,
            "hand_sizes": [len(state.hand(s)) for s in range(state.seats)],
            "tonoja": [{"face_up": str(c.face_up) if c.face_up else None, "face_down": c.face_down is not None}
                       for c in state.columns],
            "tasks": tasks,
            "communication": {"mode": state.comm, "terrain": str(state.terrain) if state.terrain else None,
                              "tokens_left": state.tokens, "used": list(state.sonar_used),
                              "time_limit": m.time_limit},
            "communicated": [{"seat": c.seat, "card": str(c.card), "position": c.position} for c in state.comms],
            "trick": {"leader": state.leader, "cards": [str(c) for c in state.trick]},
            "previous_trick": None if prev is None else {"leader": prev.leader, "cards": [str(c) for c in prev.cards],
                                                         "winner": prev.winner},
            "tricks_played": len(state.tricks), "tricks_total": tricks_in_mission(state.players),
            "tricks_won": wins,
            "distress": {"used": state.distress_used, "direction": state.distress,
                         "chosen": (str(state.gifts[seat]) if seat is not None and state.gifts[seat] else None)},
            "result": state.result, "reason": state.reason,
            "decider": self.decider(state),
            # What a player at the table has seen this attempt and may remember (crew.view.previous-trick:
            # the table lets nobody look back further than the previous trick, but every card was seen
            # when it was played). For bots and hints; a table shows ``previous_trick`` only.
            "memory": {
                "tricks": [{"leader": t.leader, "cards": [str(c) for c in t.cards], "winner": t.winner}
                           for t in state.tricks],
                "sent": [{"seat": c.seat, "card": str(c.card), "position": c.position, "trick": c.trick}
                         for c in state.sent],
                "passed": [{"giver": p.giver, "receiver": p.receiver, "card": str(p.card)} for p in state.passed
                           if seat is not None and seat in (p.giver, p.receiver)],
                "voids": _voids(state),
            },
        }
        return view

    def parse_move(self, text: str):
        return parse_move(text)

    def describe_move(self, move, lang: str = "en") -> str:
        from toolkit.core.i18n import translate
        if isinstance(move, PlayCard):
            return translate("CREW_MOVE_PLAY", lang, card=move.card)
        if isinstance(move, Sonar):
            pos = Term_pos(move.position) if move.position else Term_pos(None)
            return translate("CREW_MOVE_SONAR", lang, seat=move.seat, card=move.card, position=pos)
        if isinstance(move, TakeTask):
            return translate("CREW_MOVE_TAKE", lang, task=move.task, text=TASKS[move.task].text(lang))
        return str(move)

    def validate_state(self, state: CrewState) -> None:
        every = [c for h in state.hands for c in h] + [c for col in state.columns for c in (col.face_down, col.face_up)
                                                        if c is not None]
        every += list(state.trick) + [c for t in state.tricks for c in t.cards]
        if sorted(every) != list(DECK):
            raise InvalidStateError("state: the 40 cards are not all present exactly once")
        if state.phase not in ("allocate", "predict", "play", "distress", "success", "failed"):
            raise InvalidStateError(f"state.phase: unknown phase {state.phase!r}")
        if not (len(state.tasks) == len(state.owners) == len(state.predictions) == len(state.statuses)):
            raise InvalidStateError("state.tasks: owners, predictions and statuses must match the tasks")


# ---- module helpers ---------------------------------------------------------------------------------
def _voids(state: CrewState) -> list[list[str]]:
    """Per seat, the suits (``"B"``, ``"G"``, ``"Y"``, ``"P"``, ``"S"``) it has shown it lacks by not
    following them this attempt — in the trick on the table too (crew.trick.follow)."""
    out: list[set[str]] = [set() for _ in range(state.seats)]
    plays = [(t.leader, t.cards) for t in state.tricks]
    if state.trick:
        plays.append((state.leader, state.trick))
    for leader, cards_ in plays:
        led = cards_[0].suit
        for i, c in enumerate(cards_[1:], 1):
            if c.suit != led:
                out[(leader + i) % state.seats].add(led)
    return [sorted(v) for v in out]


def replace(state: CrewState, **changes) -> CrewState:
    """``dataclasses.replace`` for the state without re-running ``__init__`` (a move changes a few of
    ~40 fields; this is the engine's hot path). Field names are checked so a typo cannot pass silently."""
    d = state.__dict__.copy()   # a dict copy in C, half the cost of filling a new instance's dict
    n = len(d)
    d.update(changes)
    if len(d) != n:   # a name that is no field added a key: a typo cannot pass silently
        raise TypeError(f"CrewState has no field {next(k for k in changes if k not in state.__dict__)!r}")
    if "_setup_events" in d:
        del d["_setup_events"]   # the setup's log lines belong to the state new_state returned only
    new = _new_state(CrewState)
    _set_dict(new, d)   # the dict itself becomes the new state's (CrewState is frozen: not by setattr)
    return new


_new_state = object.__new__
_set_dict = vars(CrewState)["__dict__"].__set__


# Caches of values that recur only within a trick start or a replay: kept small, since a random
# playout deals new hands every game (a large cache would only miss, and give the garbage collector
# more to walk).
SMALL_CACHE = 512


# The two caches below are keyed by the hand as a bit mask (ints hash in C; a tuple of cards would call
# Card.__hash__, a Python method, once per card) and hold the hand itself, compared on every hit, so two
# hands with the same mask but other contents (a repeated card, another order) never share an entry.
_OPTIONS: dict[int, tuple] = {}       # hand mask -> (hand, sonar options)
_SEAT_SONAR: dict[tuple, tuple] = {}  # (hand mask, seat, currents) -> (hand, sonar moves)


def _hand_mask(hand: tuple[Card, ...]) -> int:
    mask = 0
    for c in hand:
        mask |= 1 << c.index
    return mask


def _sonar_options(hand: tuple[Card, ...], mask: int | None = None) -> dict[Card, str]:
    """``sonar_options`` for an engine hand, cached by the hand. Engine hands are kept in deck order, so
    the one-pass version serves; a hand in another order (a hand-made state) takes the checked path."""
    if mask is None:
        mask = _hand_mask(hand)
    hit = _OPTIONS.get(mask)
    if hit is not None and hit[0] == hand:
        return hit[1]
    options = sonar_options_sorted(hand)
    if options is None:
        options = sonar_options(hand)
    if len(_OPTIONS) >= SMALL_CACHE:
        _OPTIONS.clear()
    _OPTIONS[mask] = (hand, options)
    return options


def _seat_sonar_moves(seat: int, hand: tuple[Card, ...], currents: bool) -> tuple[Sonar, ...]:
    """The sonar moves ``seat`` may make with ``hand``, before removing cards already shown (cached: a
    trick start asks again after each communication)."""
    mask = 0
    for c in hand:   # _hand_mask, inlined: once per seat at every trick start
        mask |= 1 << c.index
    key = (mask, seat, currents)
    hit = _SEAT_SONAR.get(key)
    if hit is not None and hit[0] == hand:
        return hit[1]
    pairs = sonar_pairs_sorted(hand)
    if pairs is None:   # not an engine hand in deck order: the checked path
        pairs = list(_sonar_options(hand, mask).items())
    if currents:
        moves = tuple([_sonar_move(seat, c, None) for c, _ in pairs])
    else:
        moves = tuple([_sonar_move(seat, c, pos) for c, pos in pairs])
    if len(_SEAT_SONAR) >= SMALL_CACHE:
        _SEAT_SONAR.clear()
    _SEAT_SONAR[key] = (hand, moves)
    return moves


def _mission_of(state: CrewState) -> Mission:
    """``ENGINE.mission_of(state)`` without the argument check (the engine's own calls: hot path)."""
    if state.custom is not None:
        return Mission(0, *state.custom)
    return _cached_mission(state.mission, state.timed)   # a state's fields are checked: the cache directly


def _hand(state: CrewState, seat: int) -> tuple[Card, ...]:
    """``state.hand(seat)`` for a seat the engine computed itself (no argument check: hot path)."""
    if state.players == 2 and seat == TONOJA:
        # by the deck index in C (the order of Card.__lt__, which sorted would call once per comparison)
        return tuple(sorted([c.face_up for c in state.columns if c.face_up is not None], key=_BY_INDEX))
    return state.hands[seat]


_BY_INDEX = attrgetter("index")


def _fast_play_block(hand: tuple[Card, ...], card: Card, led: Card | None) -> Violation | None:
    if card not in hand:
        return why_illegal_play(hand, card, led)
    if led is None or card.suit == led.suit:
        return None
    for c in hand:
        if c.suit == led.suit:
            return why_illegal_play(hand, card, led)
    return None

PENDING_MEMO = (PENDING, None)

_CONDITIONS: dict[tuple, Any] = {}   # (mission, seats, first trick's winner) -> compile_condition's judge


def _condition(mission: int, seats: int, first: int | None):
    """:func:`compile_condition` for the engine's own state (its fields are ints already, so the argument
    checks need not run at every card: issue 28.4)."""
    key = (mission, seats, first)
    judge = _CONDITIONS.get(key, _NO_CONDITION)
    if judge is _NO_CONDITION:
        judge = _CONDITIONS[key] = compile_condition(mission, seats, first)
    return judge


_NO_CONDITION = object()


def _ledger(state: CrewState, tricks: tuple[Trick, ...]) -> Ledger:
    """The ledger after ``tricks`` (``state.tricks`` plus the trick just completed): the ledger of
    ``state.tricks`` plus the new trick. That ledger rides on the states of the trick as ``_ledger``,
    a ``(tricks, ledger)`` pair outside the dataclass fields (so not compared, shown or saved) that
    :func:`replace` carries along; it counts only while its tricks are the very tuple ``state.tricks``.
    A state without it (new, loaded from JSON, or built another way) rebuilds it from the tricks.
    (A global cache keyed by the tricks did the same but made the garbage collector walk its entries.)"""
    cached = state.__dict__.get("_ledger")
    if cached is not None and cached[0] is state.tricks:
        return cached[1].add(tricks[-1])
    ledger = Ledger.start(state.players)
    for t in tricks:
        ledger = ledger.add(t)
    return ledger


_DIFFICULTIES: dict[int, dict[int, int]] = {}


def _difficulties(players: int) -> dict[int, int]:
    """Every task's ``difficulty_for(players)``, by task id (a setup reads all 96 to draw its tasks)."""
    table = _DIFFICULTIES.get(players)
    if table is None:
        table = _DIFFICULTIES[players] = {t: task.difficulty_for(players) for t, task in TASKS.items()}
    return table


def _hardest(state: CrewState) -> int:
    """Mission 19: the task the captain takes first — the hardest one the captain may take (the leftmost
    on a tie)."""
    allowed = [t for t in state.tasks if not TASKS[t].captain_comparison] or list(state.tasks)
    return max(allowed, key=lambda t: (TASKS[t].difficulty_for(state.players), -state.tasks.index(t)))


def _ledger_of(state: CrewState) -> Ledger:
    """The ledger of ``state.tricks`` (the trick under way not included): the one that rides on the state
    (see :func:`_ledger`) when it is for these tricks, else rebuilt."""
    cached = state.__dict__.get("_ledger")
    if cached is not None and cached[0] is state.tricks:
        return cached[1]
    ledger = Ledger.start(state.players)
    for t in state.tricks:
        ledger = ledger.add(t)
    # kept on this state too, so the states after the next cards of the trick (copies of its fields and
    # of this) and the condition judge's per-trick cache see the same ledger (issue 28.4)
    state.__dict__["_ledger"] = (state.tricks, ledger)
    return ledger


def _ev(code: str, rule: str, seat: int | None = None, **params) -> Event:
    """An event; the seat it concerns is also a message parameter (``{who}``)."""
    if seat is not None:
        params["who"] = seat
    return Event(code, rule, seat=seat, **params)


_EVENTS: dict[tuple, Event] = {}


def _shared_ev(code: str, rule: str, seat: int | None = None, **params) -> Event:
    """:func:`_ev` for the events that recur with the same values (a seat plays a card, wins a trick,
    takes a task). Events are immutable values, so one object can stand for all of them; building one
    is a large part of a move's cost. Only for parameters that are ints, cards, terms or text (hashable,
    and never an int at one call and a bool at another, which a dict key would not tell apart)."""
    key = (code, rule, seat, *params.items())
    event = _EVENTS.get(key)
    if event is None:
        if len(_EVENTS) >= 50_000:  # a bound for safety: the engine's events have far fewer values
            _EVENTS.clear()
        event = _EVENTS[key] = _ev(code, rule, seat, **params)
    return event


_PLAY_EVENTS: dict[int, Event] = {}


def _play_ev(seat: int, card: Card) -> Event:
    """The shared event of ``seat`` playing ``card`` (every action of a playout makes one): keyed by an
    int, which hashes in C, rather than by :func:`_shared_ev`'s tuple holding the card."""
    key = seat * 64 + card.index
    event = _PLAY_EVENTS.get(key)
    if event is None:
        event = _PLAY_EVENTS[key] = _shared_ev("CREW_EVT_PLAY", "crew.trick.own-card", seat, card=card)
    return event


_TRICK_EVENTS: dict[int, Event] = {}


def _trick_ev(winner: int, card: Card, number: int) -> Event:
    """The shared event of ``winner`` winning trick ``number`` with ``card`` (every trick's end makes one),
    keyed by one int (seat, card index and trick number, each below 64), as :func:`_play_ev`."""
    key = (winner * 64 + card.index) * 64 + number
    event = _TRICK_EVENTS.get(key)
    if event is None:
        event = _TRICK_EVENTS[key] = _shared_ev("CREW_EVT_TRICK", "crew.trick.winner", winner, card=card,
                                                number=number)
    return event


_LEADS_EVENTS: dict[int, Event] = {}


def _leads_ev(seat: int) -> Event:
    """The shared event of ``seat`` leading the next trick, keyed by the seat."""
    event = _LEADS_EVENTS.get(seat)
    if event is None:
        event = _LEADS_EVENTS[seat] = _shared_ev("CREW_EVT_LEADS", "crew.trick.leader", seat)
    return event


def _set(t: tuple, i: int, v) -> tuple:
    return t[:i] + (v,) + t[i + 1:]


_POS_TERMS: dict = {}


def Term_pos(pos):
    """The term of a sonar position (``None``: hidden), shared: every sonar event carries one."""
    term = _POS_TERMS.get(pos)
    if term is None:
        from toolkit.core.i18n import Term
        term = _POS_TERMS[pos] = Term(f"crew.sonar.{pos}" if pos else "crew.sonar.hidden")
    return term


def _comm_term(mode):
    from toolkit.core.i18n import Term
    return Term(f"crew.comm.{mode}")


def _dir_term(direction):
    from toolkit.core.i18n import Term
    return Term(f"crew.direction.{direction}")


def _alloc_term(m: Mission):
    from toolkit.core.i18n import Term
    return Term(f"crew.alloc.{m.allocation}")


ENGINE = CrewEngine()
