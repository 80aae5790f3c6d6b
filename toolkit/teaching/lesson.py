"""Lessons as data: short scripted steps on real engine positions, each with one checked action.

A :class:`Scenario` is a position anyone can rebuild: game, seed, options and the moves played so far
(as move text). A :class:`Step` puts the learner in one scenario with a short instruction (an en/ja
message code), names the rule it teaches, and asks for exactly one thing:

* a move (:class:`Goal`): the engine's ``why_illegal`` judges legality first (its :class:`Violation` is
  the reason shown), then the step's own goal check says whether this legal move is the one the step
  asks for (with its own en/ja reason);
* a prediction (:class:`Question`): the learner picks one of a few choices; the right one is computed
  by the engine from the scenario (who wins this trick, may this card be played, ...), never written
  into the lesson.

Everything the learner sends is untrusted: :func:`check_move` turns text that is no move into a refusal,
and :func:`check_answer` refuses an answer that is not one of the step's choices (wrong type, ``None``,
NaN, a forged value) with :class:`AnswerError` — nothing is changed by a refusal, because scenarios and
states are immutable values.
"""

from __future__ import annotations

import functools
import json
import math
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from toolkit.core import i18n
from toolkit.core.engine import Engine
from toolkit.core.errors import IllegalMoveError, RuleError
from toolkit.core.explain import Event, Violation
from toolkit.core.session import Session
from toolkit.engines import available_engines

MAX_ANSWER_CHARS = 40


class AnswerError(RuleError):
    """An answer that is not one of the offered choices (forged, wrong type, None, NaN)."""


def engine_of(game: str) -> Engine:
    engines = available_engines()
    if game not in engines:
        raise RuleError(f"no engine for the game {game!r}")
    return engines[game]


@dataclass(frozen=True)
class Scenario:
    """A real engine position: ``game`` started from ``seed`` with ``options``, then ``moves`` applied."""

    game: str
    seed: int
    options: Mapping[str, Any] = field(default_factory=dict)
    moves: tuple[str, ...] = ()

    def then(self, *moves: str) -> "Scenario":
        """This scenario with more moves played."""
        return Scenario(self.game, self.seed, self.options, self.moves + tuple(moves))

    @property
    def engine(self) -> Engine:
        return engine_of(self.game)

    def _key(self) -> str:
        return json.dumps([self.game, self.seed, dict(self.options), list(self.moves)], sort_keys=True)

    def session(self) -> Session:
        """A fresh session replayed to this position (raises :class:`IllegalMoveError` if a move is not legal)."""
        return _replay(self._key())

    def state(self) -> Any:
        return self.session().state


@functools.lru_cache(maxsize=256)
def _replay_cached(key: str) -> tuple[Any, tuple[Any, ...]]:
    game, seed, options, moves = json.loads(key)
    engine = engine_of(game)
    session = Session(engine, seed, options)
    for text in moves:
        session.push(engine.parse_move(text))
    return session.initial, tuple(session.steps)


def _replay(key: str) -> Session:
    game, seed, options, _moves = json.loads(key)
    initial, steps = _replay_cached(key)
    # a new Session object over the cached (immutable) states: callers may push to it freely
    return Session(engine_of(game), seed, options, initial=initial, steps=list(steps))


@dataclass(frozen=True)
class Choice:
    """One answer a learner may click: ``value`` (short text) and its label (a message code and params)."""

    value: str
    label: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def text(self, lang: str) -> str:
        return i18n.translate(self.label, lang, dict(self.params))


@dataclass(frozen=True)
class Goal:
    """Which legal moves count for a move step.

    ``accepts(engine, state, move)`` says whether a legal move is what the step asks for; ``reason`` is
    the message code shown (with ``rule`` and ``params``) when it is not.
    """

    accepts: Callable[[Engine, Any, Any], bool]
    reason: str
    rule: str
    params: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Question:
    """A prediction: ``prompt`` (message code + params), ``choices``, and ``solve(scenario)`` which returns
    ``(right value, explanation)`` — the explanation an :class:`Event` with its rule id, computed by the
    engine."""

    choices: tuple[Choice, ...]
    solve: Callable[[Scenario], tuple[str, Event]]


@dataclass(frozen=True)
class Step:
    """One scripted step: a position, an instruction, and the one thing the learner must do."""

    key: str                      # message code of the instruction
    rule: str                     # the rule id this step teaches
    scenario: Scenario
    task: Goal | Question
    example: str                  # a move text (or answer value) that completes the step
    seat: int | None = None       # whose hand the learner acts with (None: whoever is to move)
    params: Mapping[str, Any] = field(default_factory=dict)
    #: moves offered as buttons where a game's board has no clickable piece for them (right and wrong ones)
    offer: tuple[str, ...] = ()

    def text(self, lang: str) -> str:
        return i18n.translate(self.key, lang, dict(self.params))

    @property
    def is_question(self) -> bool:
        return isinstance(self.task, Question)


@dataclass(frozen=True)
class Lesson:
    """A "Learn to play" lesson: a game's first-game essentials in a few steps."""

    game: str
    title: str                    # message code
    steps: tuple[Step, ...]
    outro: str = ""               # message code shown after the last step

    def __len__(self) -> int:
        return len(self.steps)


@dataclass(frozen=True)
class Verdict:
    """What the engine made of a learner's action: accepted or refused, and why (an explanation with its
    rule id), plus the position after an accepted move."""

    accepted: bool
    reason: Violation | Event
    state: Any = None
    events: tuple[Event, ...] = ()

    def text(self, lang: str) -> str:
        return self.reason.text(lang)

    @property
    def rule(self) -> str:
        return self.reason.rule


def check_move(step: Step, move: Any) -> Verdict:
    """Judge a learner's move (a move object or untrusted text) for a move step. Never raises for bad input:
    text that is no move is refused with the reason the parser gives."""
    if not isinstance(step.task, Goal):
        raise RuleError(f"step {step.key!r} asks a question, not for a move")
    engine = step.scenario.engine
    state = step.scenario.state()
    if isinstance(move, str):
        try:
            move = engine.parse_move(move.strip()[:200])
        except RuleError as exc:
            return Verdict(False, Violation("TEACH_NOT_A_MOVE", step.rule, detail=str(exc)[:160]))
    try:
        violation = engine.why_illegal(state, move)
    except (RuleError, TypeError) as exc:
        return Verdict(False, Violation("TEACH_NOT_A_MOVE", step.rule, detail=str(exc)[:160]))
    if violation is not None:
        return Verdict(False, violation)
    goal = step.task
    if not goal.accepts(engine, state, move):
        return Verdict(False, Violation(goal.reason, goal.rule, **dict(goal.params)))
    try:
        after, events = engine.transition(state, move)
    except IllegalMoveError as exc:   # why_illegal said yes: an engine bug, shown rather than raised
        return Verdict(False, exc.violation)
    return Verdict(True, Event("TEACH_WELL_DONE", step.rule), after, tuple(events))


def checked_choice(choices: tuple[Choice, ...], answer: Any) -> str:
    """``answer`` if it is exactly one of ``choices``' values, else :class:`AnswerError` saying why."""
    if answer is None:
        raise AnswerError("no answer was given: click one of the choices")
    if isinstance(answer, float) and math.isnan(answer):
        raise AnswerError("the answer NaN is not one of the choices")
    if not isinstance(answer, str):
        raise AnswerError(f"an answer must be one of the choices, not a {type(answer).__name__}")
    if answer not in {c.value for c in choices}:
        raise AnswerError(f"{answer[:MAX_ANSWER_CHARS]!r} is not one of the choices "
                          f"({', '.join(c.value for c in choices)})")
    return answer


def check_answer(step: Step, answer: Any) -> Verdict:
    """Grade a prediction. A forged answer raises :class:`AnswerError` (nothing is recorded)."""
    if not isinstance(step.task, Question):
        raise RuleError(f"step {step.key!r} asks for a move, not an answer")
    value = checked_choice(step.task.choices, answer)
    right, why = step.task.solve(step.scenario)
    return Verdict(value == right, why)


def right_answer(step: Step) -> str:
    if not isinstance(step.task, Question):
        raise RuleError(f"step {step.key!r} asks for a move, not an answer")
    return step.task.solve(step.scenario)[0]
